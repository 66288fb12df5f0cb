//! Remote play of the 2008 edition between two real `ataxx --edition 2008` processes on
//! loopback (`host ID` / `join ID@localhost`): whole games AI against AI and User against
//! User through the connection, with blocks and set-up moves relayed by the host; a set-up
//! that already ended the game; abandoning with `clear` and `quit`; a second visitor.
//! Faults of a misbehaving peer are in `remote_faults.rs`.

use crate::common;

use common::Engine;
use engine::games::ataxx::{Position, Rules, TextMove};
use engine::protocol::remote::port_for;
use engine::protocol::text::ataxx2008::parse_blocks;
use engine::rng::SplitMix64;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Ceiling for one expected line (generous: two cores are shared with other work).
const T: Duration = Duration::from_secs(30);
/// Ceiling for a whole AI game.
const GAME: Duration = Duration::from_secs(120);

fn spawn() -> Engine {
    Engine::spawn(&["--edition", "2008"])
}

fn expect(e: &Engine, expected: &[&str]) {
    common::expect_lines(e, T, expected);
}

/// A host and a client joined to it, both still in set-up.
fn connect(tag: &str, host_setup: &[&str], client_setup: &[&str]) -> (Engine, Engine, String) {
    common::fake::connect(spawn, tag, host_setup, client_setup)
}

fn dump_of(e: &Engine) -> Vec<String> {
    e.send("dump");
    let lines: Vec<String> = (0..9).map(|_| e.recv(T)).collect();
    assert_eq!(lines[0], "===");
    assert_eq!(lines[8], "===");
    lines
}

fn start_dump() -> Vec<String> {
    let mut d = vec!["===".to_string()];
    d.push("  r - - - - - b".into());
    for _ in 0..5 {
        d.push("  - - - - - - -".into());
    }
    d.push("  b - - - - - r".into());
    d.push("===".into());
    d
}

/// The program still works after the game (`clear`, `dump`) and exits 0 on `quit`.
fn clear_dump_quit(e: &Engine) {
    e.send("clear");
    assert_eq!(dump_of(e), start_dump());
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// The dump lines of a position, as the program prints them.
fn dump_lines(pos: &Position) -> Vec<String> {
    engine::protocol::text::ataxx::dump(pos)
        .lines()
        .map(String::from)
        .collect()
}

/// Random set-up moves on `blocks` until at most `max_empty` squares are empty (never
/// a move that ends the game), and the position they reach.
fn random_setup(blocks: &str, max_empty: u32, seed: u64) -> (Vec<String>, Position) {
    let mut pos = Position::startpos(Rules::Text2008);
    pos.add_gaps(parse_blocks(blocks).unwrap().1).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    while pos.empty().count_ones() > max_empty {
        let going_on: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                p.outcome().is_none()
            })
            .collect();
        let Some(&mv) = rng.choose(&going_on) else {
            break;
        };
        moves.push(TextMove::format(&pos, mv));
        pos.make_move(mv);
    }
    assert!(pos.outcome().is_none());
    (moves, pos)
}

fn is_move_line(l: &str) -> bool {
    (l.starts_with("Red ") || l.starts_with("Blue "))
        && (l.ends_with(" passes.") || l.contains(" moves "))
}

fn is_result_line(l: &str) -> bool {
    matches!(l, "Red wins." | "Blue wins." | "Draw.")
}

/// Plays the move lines `lines` ("Red moves a7-b6." / "Blue passes.") from `pos`,
/// checking each is legal for the side it names.
fn replay(pos: &mut Position, lines: &[String]) {
    for l in lines {
        let (side, text) =
            engine::protocol::text::ataxx::parse_ai_move_line(l).unwrap_or_else(|| panic!("{l}"));
        assert_eq!(side, pos.side_to_move(), "{l}");
        let mv = TextMove::parse(&text)
            .ok()
            .and_then(|m| m.resolve(pos))
            .unwrap_or_else(|| panic!("illegal {l}"));
        pos.make_move(mv);
    }
}

#[test]
fn ai_against_ai_with_blocks_and_setup_moves() {
    let (h, c, id) = connect("aiai", &["seed 3", "auto"], &["seed 9", "auto"]);
    let (setup, mut pos) = random_setup("3gh", 9, 2008);
    h.send("blocks 3gh");
    for m in &setup {
        h.send(m);
    }
    // The host's Player is blue, so the client's is red.
    h.send("color blue");
    h.send("start");
    expect(
        &c,
        &[&format!("The host started game {id}; the Player is red.")],
    );
    let host_lines = common::fake::same_game(&h, &c, GAME, is_result_line);
    let (result, moves) = host_lines.split_last().unwrap();
    assert!(
        !moves.is_empty() && moves.iter().all(|l| is_move_line(l)),
        "{moves:?}"
    );
    replay(&mut pos, moves);
    let outcome = pos.outcome().expect("the game is over");
    assert_eq!(
        result,
        engine::protocol::text::ataxx::SPEC.result_line(outcome)
    );
    let final_dump = dump_of(&h);
    assert_eq!(final_dump, dump_of(&c));
    assert_eq!(final_dump, dump_lines(&pos));
    clear_dump_quit(&h);
    clear_dump_quit(&c);
}

#[test]
fn users_play_through_the_connection() {
    let (h, c, id) = connect("users", &[], &[]);
    let (setup, mut pos) = random_setup("3gh", 6, 7);
    h.send("blocks 3gh");
    for m in &setup {
        h.send(m);
    }
    // Default colours: the host's Player is red, the client's blue.
    h.send("start");
    expect(
        &c,
        &[&format!("The host started game {id}; the Player is blue.")],
    );
    while pos.outcome().is_none() {
        let mv = pos.legal_moves()[0];
        let text = TextMove::format(&pos, mv);
        let line = engine::protocol::text::ataxx::ai_move_line(&pos, mv);
        // The side to move types its move; the other program announces it.
        let (mover, other) = if pos.side_to_move() == engine::game::Side::First {
            (&h, &c)
        } else {
            (&c, &h)
        };
        mover.send(&text);
        expect(other, &[&line]);
        pos.make_move(mv);
        if pos.outcome().is_some() {
            let result = engine::protocol::text::ataxx::SPEC.result_line(pos.outcome().unwrap());
            expect(other, &[result]);
            expect(mover, &[result]);
        }
    }
    assert_eq!(dump_of(&h), dump_lines(&pos));
    assert_eq!(dump_of(&c), dump_lines(&pos));
    clear_dump_quit(&h);
    clear_dump_quit(&c);
}

#[test]
fn a_set_up_that_ended_the_game() {
    let (h, c, id) = connect("ended", &[], &["auto"]);
    h.send("blocks 123456abcdefgh");
    h.send("start");
    // The host's start is the winning move: it waits for the client's stop.
    expect(
        &c,
        &[
            &format!("The host started game {id}; the Player is blue."),
            "Draw.",
        ],
    );
    expect(&h, &["Draw."]);
    assert_eq!(dump_of(&h), dump_of(&c));
    clear_dump_quit(&c);
    clear_dump_quit(&h);
}

#[test]
fn clear_abandons_the_game_and_the_opponent_wins_by_forfeit() {
    let (h, c, _) = connect("clear", &[], &[]);
    h.send("start");
    expect(&c, &["The host started game *"]);
    h.send("a7-b6");
    expect(&c, &["Red moves a7-b6."]);
    // The client's User abandons on its turn: the host's Player wins.
    c.send("clear");
    expect(
        &h,
        &[
            "The remote program abandoned the game.",
            "Red wins by forfeit.",
        ],
    );
    // The client is back in local mode: it plays the AI.
    c.send("start");
    c.send("a7-b6");
    expect(&c, &["Blue moves *"]);
    h.send("a7-b6");
    expect(&h, &["error: the game is over (use clear for a new game)"]);
    clear_dump_quit(&h);
    clear_dump_quit(&c);
}

#[test]
fn quit_abandons_the_game_while_the_opponent_waits() {
    let (h, c, _) = connect("quit", &[], &[]);
    h.send("color blue");
    h.send("start");
    expect(&c, &["The host started game *; the Player is red."]);
    // The host waits for the client's (red's) move; the client quits instead.
    c.send("quit");
    assert!(c.expect_exit(T).success());
    expect(
        &h,
        &[
            "The remote program abandoned the game.",
            "Blue wins by forfeit.",
        ],
    );
    clear_dump_quit(&h);
}

#[test]
fn a_second_visitor_is_refused() {
    let (h, c, id) = connect("second", &[], &[]);
    // Another program: the game is taken.
    let third = spawn();
    third.send(&format!("join {id}@localhost"));
    expect(&third, &["error: cannot join: *"]);
    assert_eq!(dump_of(&third), start_dump());
    // A raw connection finds the port closed.
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for("ataxx", &id)));
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(5)).is_err());
    clear_dump_quit(&third);
    // The game goes on.
    h.send("start");
    expect(&c, &["The host started game *"]);
    h.send("a7-b6");
    expect(&c, &["Red moves a7-b6."]);
    c.send("g7-f6");
    expect(&h, &["Blue moves g7-f6."]);
    h.send("quit");
    assert!(h.expect_exit(T).success());
    expect(
        &c,
        &[
            "The remote program abandoned the game.",
            "Blue wins by forfeit.",
        ],
    );
    clear_dump_quit(&c);
}

#[test]
fn clear_or_quit_ends_the_wait_for_the_opponents_move() {
    for word in ["clear", "quit"] {
        let (h, c, _) = connect("interrupt", &[], &[]);
        h.send("start");
        expect(&c, &["The host started game *"]);
        h.send("a7-b6");
        expect(&c, &["Red moves a7-b6."]);
        // The host now waits for blue's move, without a time limit; its User gives up.
        h.send(word);
        expect(
            &c,
            &[
                "The remote program abandoned the game.",
                "Blue wins by forfeit.",
            ],
        );
        if word == "quit" {
            assert!(h.expect_exit(T).success());
        } else {
            assert_eq!(dump_of(&h), start_dump());
            clear_dump_quit(&h);
        }
        clear_dump_quit(&c);
    }
}

#[test]
fn a_user_plays_a_remote_ai() {
    // The client's Player is an AI, the host's a User: the client answers each move.
    let (h, c, id) = connect("userai", &[], &["seed 5", "auto"]);
    h.send(&format!("blocks {}", "123456abcdef"));
    h.send("start");
    expect(
        &c,
        &[&format!("The host started game {id}; the Player is blue.")],
    );
    let mut pos = Position::startpos(Rules::Text2008);
    pos.add_gaps(parse_blocks("123456abcdef").unwrap().1)
        .unwrap();
    while pos.outcome().is_none() {
        if pos.side_to_move() == engine::game::Side::First {
            let mv = pos.legal_moves()[0];
            h.send(&TextMove::format(&pos, mv));
            expect(
                &c,
                &[&engine::protocol::text::ataxx::ai_move_line(&pos, mv)],
            );
            pos.make_move(mv);
        } else {
            // The AI's move, printed by both programs.
            let line = c.recv(T);
            assert_eq!(h.recv(T), line);
            replay(&mut pos, std::slice::from_ref(&line));
        }
    }
    let result = engine::protocol::text::ataxx::SPEC.result_line(pos.outcome().unwrap());
    expect(&h, &[result]);
    expect(&c, &[result]);
    assert_eq!(dump_of(&h), dump_lines(&pos));
    assert_eq!(dump_of(&c), dump_lines(&pos));
    clear_dump_quit(&h);
    clear_dump_quit(&c);
}

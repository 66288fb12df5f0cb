//! Remote play of `reversi` (`host ID` / `join ID@HOST`, the messages of `reversi.txt`
//! §4): whole games between two real processes on loopback (AI against AI, Users
//! against each other with passes, set-up moves and a relayed `clear`, a set-up that
//! already ended the game), `resign` and `quit` through the connection, a second
//! visitor; then a fake peer played by the test over a raw connection that disconnects,
//! stalls past the remote timeout, sends illegal moves and messages out of sequence.
//! Every fault in a game must end it with `error: …` and our Player's result line (the
//! spec: "treat it as if the opponent resigned"), no hang, and a program that still
//! takes commands and exits 0. Before `start` no game is played: a peer that leaves or
//! errs ends the relay with one line, no result, and local set-up goes on with the
//! board kept; the host's User may take as long as they like over the set-up.

use crate::common;

use common::fake::{self, Fake};
use common::Engine;
use engine::game::{Outcome, Side};
use engine::games::reversi::{Move, Position};
use engine::protocol::remote::port_for;
use engine::protocol::text::reversi::{ai_move_line, parse_ai_move_line, SPEC};
use engine::rng::SplitMix64;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_reversi");
/// Ceiling for one expected line (generous: two cores are shared with other work).
const T: Duration = Duration::from_secs(30);
/// Ceiling for a whole AI game.
const GAME: Duration = Duration::from_secs(120);
/// The remote timeout (seconds) where none is to be missed (the machine is busy).
const LONG: &str = "20";

/// A real program; `timeout` is its remote timeout in seconds.
fn spawn(timeout: &str) -> Engine {
    Engine::spawn_bin(BIN, &["--remote-timeout", timeout])
}

fn expect(e: &Engine, expected: &[&str]) {
    common::expect_lines(e, T, expected);
}

fn dump_of(e: &Engine) -> Vec<String> {
    e.send("dump");
    let lines: Vec<String> = (0..12).map(|_| e.recv(T)).collect();
    assert_eq!((lines[0].as_str(), lines[11].as_str()), ("===", "==="));
    lines
}

/// The dump the program prints for `pos` after `moves` moves, its Player `user`.
fn dump_lines(pos: &Position, user: Side, moves: usize) -> Vec<String> {
    pos.dump(user, moves as u32)
        .lines()
        .map(String::from)
        .collect()
}

/// The program still works after the game (`clear`, `dump`) and exits 0 on `quit`.
fn clear_dump_quit(e: &Engine, user: Side) {
    e.send("clear");
    let start = Position::startpos();
    assert_eq!(dump_of(e), dump_lines(&start, user, 0));
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// A whole random game from the start (passes included), deterministic in `seed`.
fn random_game(seed: u64) -> Vec<Move> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    while !pos.is_over() {
        let mv = *rng.choose(&pos.legal_moves()).unwrap();
        pos.make_move(mv);
        moves.push(mv);
    }
    moves
}

/// The position after `moves` from the start.
fn play(moves: &[Move]) -> Position {
    let mut pos = Position::startpos();
    for &mv in moves {
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
    }
    pos
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.text()).collect()
}

/// A host and a visitor joined to it, both in set-up; each first runs its `setup` lines.
fn connect(tag: &str, host_setup: &[&str], visitor_setup: &[&str]) -> (Engine, Engine, String) {
    fake::connect(|| spawn(LONG), tag, host_setup, visitor_setup)
}

/// Checks the move lines `lines` from `pos` (each legal for the side it names) and
/// plays them; returns how many.
fn replay(pos: &mut Position, lines: &[String]) -> usize {
    for l in lines {
        let (side, text) = parse_ai_move_line(l).unwrap_or_else(|| panic!("{l}"));
        assert_eq!(side, pos.side_to_move(), "{l}");
        let mv = Move::parse_text(&text).unwrap();
        assert!(pos.is_legal(mv), "illegal {l}");
        pos.make_move(mv);
    }
    lines.len()
}

fn is_result_line(l: &str) -> bool {
    matches!(l, "Black wins." | "White wins." | "Draw.")
}

#[test]
fn ai_against_ai_with_set_up_moves_and_a_relayed_clear() {
    let (h, v, id) = connect("aiai", &["seed 3", "auto"], &["seed 9", "auto"]);
    let setup = &random_game(11)[..6];
    // A set-up the host then clears: the visitor clears too.
    h.send("f5");
    h.send("clear");
    for m in texts(setup) {
        h.send(&m);
    }
    // The host's Player is white, so the visitor's is black.
    h.send("color white");
    h.send("start");
    expect(
        &v,
        &[&format!("The host started game {id}; the Player is black.")],
    );
    let host_lines = common::fake::same_game(&h, &v, GAME, is_result_line);
    let (result, moves) = host_lines.split_last().unwrap();
    let mut pos = play(setup);
    let n = setup.len() + replay(&mut pos, moves);
    assert!(pos.is_over());
    assert_eq!(result, SPEC.result_line(pos.outcome().unwrap()));
    assert_eq!(dump_of(&h), dump_lines(&pos, Side::Second, n));
    assert_eq!(dump_of(&v), dump_lines(&pos, Side::First, n));
    clear_dump_quit(&h, Side::Second);
    clear_dump_quit(&v, Side::First);
}

/// A random game with a pass at least 8 moves after the set-up that leads to it.
fn game_with_a_pass() -> (Vec<Move>, usize) {
    (0..)
        .map(random_game)
        .find_map(|g| {
            let first_pass = g.iter().position(|m| m.is_pass())?;
            (first_pass >= 20).then(|| (g, first_pass - 8))
        })
        .unwrap()
}

#[test]
fn users_play_through_the_connection_with_passes() {
    let (h, v, id) = connect("users", &[], &[]);
    // The visitor's User cannot set up: the host does.
    v.send("color white");
    expect(
        &v,
        &["error: the host sets this game up: only dump, board, help and quit now"],
    );
    let (game, k) = game_with_a_pass();
    for m in texts(&game[..k]) {
        h.send(&m);
    }
    h.send("start");
    expect(
        &v,
        &[&format!("The host started game {id}; the Player is white.")],
    );
    let mut pos = play(&game[..k]);
    assert_eq!(dump_of(&v), dump_lines(&pos, Side::Second, k));
    for &mv in &game[k..] {
        // The side to move types its move; the other program shows it.
        let side = pos.side_to_move();
        let (mover, other) = if side == Side::First {
            (&h, &v)
        } else {
            (&v, &h)
        };
        mover.send(&mv.text());
        expect(other, &[&ai_move_line(side, mv)]);
        pos.make_move(mv);
    }
    let result = SPEC.result_line(pos.outcome().unwrap());
    expect(&h, &[result]);
    expect(&v, &[result]);
    assert_eq!(dump_of(&h), dump_lines(&pos, Side::First, game.len()));
    assert_eq!(dump_of(&v), dump_lines(&pos, Side::Second, game.len()));
    clear_dump_quit(&h, Side::First);
    clear_dump_quit(&v, Side::Second);
}

#[test]
fn a_set_up_that_ended_the_game() {
    let (h, v, id) = connect("ended", &[], &["auto"]);
    let game = random_game(5);
    for m in texts(&game) {
        h.send(&m);
    }
    // The host's start is the winning move: the visitor acknowledges it.
    h.send("start");
    let result = SPEC.result_line(play(&game).outcome().unwrap());
    expect(
        &v,
        &[
            &format!("The host started game {id}; the Player is white."),
            result,
        ],
    );
    expect(&h, &[result]);
    let pos = play(&game);
    assert_eq!(dump_of(&v), dump_lines(&pos, Side::Second, game.len()));
    clear_dump_quit(&v, Side::Second);
    clear_dump_quit(&h, Side::First);
}

#[test]
fn resign_while_waiting_and_quit_in_a_game() {
    // The host's User resigns while it waits for the visitor's move.
    let (h, v, _) = connect("resign", &[], &[]);
    h.send("start");
    expect(&v, &["The host started game *"]);
    h.send("d3");
    expect(&v, &["Black moves d3."]);
    h.send("resign");
    expect(&v, &["The remote player resigned.", "White wins."]);
    expect(&h, &["White wins."]);
    h.send("c4");
    expect(&h, &["error: the game is over (use clear for a new game)"]);
    clear_dump_quit(&h, Side::First);
    clear_dump_quit(&v, Side::Second);

    // The visitor (black, to move) quits: that resigns the game.
    let (h, v, _) = connect("quit", &["color white"], &[]);
    h.send("start");
    expect(&v, &["The host started game *; the Player is black."]);
    v.send("quit");
    assert!(v.expect_exit(T).success());
    expect(&h, &["The remote player resigned.", "White wins."]);
    clear_dump_quit(&h, Side::Second);
}

#[test]
fn a_second_visitor_is_refused_and_clear_cancels_hosting() {
    let (h, v, id) = connect("second", &[], &[]);
    let third = spawn(LONG);
    third.send(&format!("join {id}@localhost"));
    expect(&third, &["error: cannot join: *"]);
    let start = Position::startpos();
    assert_eq!(dump_of(&third), dump_lines(&start, Side::First, 0));
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for("reversi", &id)));
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(5)).is_err());
    // The game goes on; the host's quit resigns it.
    h.send("start");
    h.send("d3");
    expect(&v, &["The host started game *", "Black moves d3."]);
    h.send("quit");
    assert!(h.expect_exit(T).success());
    expect(&v, &["The remote player resigned.", "White wins."]);
    clear_dump_quit(&v, Side::Second);

    // `clear` while waiting for a visitor stops hosting: the Opponent is the AI again.
    let waiting = fake::host_on(&third, "cancel");
    third.send("d3");
    expect(
        &third,
        &["error: waiting for an opponent to join first (clear cancels hosting)"],
    );
    // A second `host` (or a `join`) while waiting says so; hosting goes on.
    third.send("host other");
    third.send(&format!("join {id}@localhost"));
    expect(
        &third,
        &[
            &format!(
                "error: cannot host: already hosting game {waiting} (clear cancels hosting; quit leaves)"
            ),
            &format!(
                "error: cannot join: already hosting game {waiting} (clear cancels hosting; quit leaves)"
            ),
        ],
    );
    third.send("clear");
    third.send("seed 1");
    third.send("start");
    third.send("d3");
    expect(
        &third,
        &[
            "No longer hosting; the opponent is the computer again.",
            "White moves *",
        ],
    );
}

// ---- A fake peer -------------------------------------------------------------------

/// The remote timeout (seconds) of a program whose fake peer is to miss it.
const SHORT: &str = "1";

/// A real host (its Player the User, black) whose fake visitor has joined and received
/// its colour.
fn host_with_fake(tag: &str, timeout: &str) -> (Engine, Fake) {
    let h = spawn(timeout);
    let id = fake::host_on(&h, tag);
    let mut f = Fake::join("reversi", &id);
    f.send("");
    f.expect(&["color white"]);
    expect(&h, &["An opponent joined game *"]);
    (h, f)
}

/// A real host in play against a fake visitor: the host has played d3, white (the
/// fake) is to move.
fn host_in_play(tag: &str) -> (Engine, Fake) {
    let (h, mut f) = host_with_fake(tag, LONG);
    h.send("start");
    h.send("d3");
    f.expect(&["start", "d3"]);
    (h, f)
}

/// A real host that has just played the game's last move against a fake visitor (the
/// host's Player plays the side that makes it); that Player.
fn host_after_last_move(tag: &str, timeout: &str) -> (Engine, Fake, Side, Outcome) {
    let game = random_game(21);
    let (last, setup) = game.split_last().unwrap();
    let player = play(setup).side_to_move();
    let (h, mut f) = host_with_fake(tag, timeout);
    for m in texts(setup) {
        h.send(&m);
    }
    h.send(&format!("color {}", SPEC.side_word(player)));
    h.send("start");
    h.send(&last.text());
    for m in texts(setup) {
        f.expect(&[&m]);
    }
    f.expect(&[
        &format!("color {}", SPEC.side_word(player.opponent())),
        "start",
    ]);
    f.expect(&[&last.text()]);
    (h, f, player, play(&game).outcome().unwrap())
}

/// The fault lines: why, then our Player's (`winner`'s) result line.
fn expect_fault(e: &Engine, why: &str, winner: Side) {
    let error = format!("error: {why}");
    expect(e, &[&error, SPEC.result_line(Outcome::Win(winner))]);
}

#[test]
fn peer_disconnects_mid_game_or_before_the_set_up() {
    let (h, f) = host_in_play("gone");
    drop(f);
    expect_fault(&h, "the remote program disconnected", Side::First);
    clear_dump_quit(&h, Side::First);

    let (v, f) = visitor_with_fake_host("hostgone", LONG);
    drop(f);
    expect(&v, &[&relay_ended("the remote program disconnected")]);
    clear_dump_quit(&v, Side::First);
}

/// The line that ends a relay before `start` (no result: no game was played).
fn relay_ended(why: &str) -> String {
    format!("Remote play ended before the start ({why}); back to local set-up, the board kept.")
}

/// Asks for dumps until `e`'s is `want` (a relayed set-up reaches it in its own time).
fn dump_becomes(e: &Engine, want: &[String]) {
    let deadline = Instant::now() + T;
    while dump_of(e) != want {
        assert!(Instant::now() < deadline, "the dump never became {want:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// After a relay ended before `start`: still in set-up with the board as set up (a
/// set-up move is accepted, `start` plays the AI), never a finished game.
fn back_in_local_setup(e: &Engine, board: &[Move], user: Side) {
    assert_eq!(dump_of(e), dump_lines(&play(board), user, board.len()));
    let next = play(board).legal_moves()[0];
    e.send(&next.text());
    e.send("dump");
    let mut all = board.to_vec();
    all.push(next);
    let lines: Vec<String> = (0..12).map(|_| e.recv(T)).collect();
    assert_eq!(
        lines,
        dump_lines(&play(&all), user, all.len()),
        "a set-up move is taken"
    );
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

#[test]
fn either_side_quitting_during_set_up_prints_no_result() {
    // The visitor quits while the host sets up: the host keeps its board, in set-up.
    let (h, v, _) = connect("vquit", &[], &[]);
    h.send("d3");
    h.send("c5");
    let d3c5 = [
        Move::parse_text("d3").unwrap(),
        Move::parse_text("c5").unwrap(),
    ];
    // The visitor has both set-up moves before it quits.
    dump_becomes(&v, &dump_lines(&play(&d3c5), Side::Second, 2));
    v.send("quit");
    assert!(v.expect_exit(T).success());
    expect(&h, &[&relay_ended("the remote program disconnected")]);
    back_in_local_setup(&h, &d3c5, Side::First);

    // The host quits during its set-up: the visitor keeps the relayed board.
    let (h, v, _) = connect("hquit", &[], &[]);
    h.send("d3");
    let d3 = [d3c5[0]];
    dump_becomes(&v, &dump_lines(&play(&d3), Side::Second, 1));
    h.send("quit");
    assert!(h.expect_exit(T).success());
    expect(&v, &[&relay_ended("the remote program disconnected")]);
    let t = v.lines_within(Duration::from_millis(300));
    assert!(!t.iter().any(|l| is_result_line(l)), "{t:?}");
    back_in_local_setup(&v, &d3, Side::Second);
}

#[test]
fn a_host_thinking_over_the_remote_timeout_in_set_up_is_waited_for() {
    // Remote timeout 1 s; the host's User takes 1.5 s before each set-up step.
    let (v, mut f) = visitor_with_fake_host("slowhost", SHORT);
    f.send("color white");
    std::thread::sleep(Duration::from_millis(1500));
    f.send("d3");
    std::thread::sleep(Duration::from_millis(1500));
    f.send("start");
    expect(&v, &["The host started game *; the Player is white."]);
    // White (the visitor's User) to move: c3 is sent to the host.
    v.send("c3");
    f.expect(&["c3"]);
    v.send("quit");
    f.expect(&["resign"]);
    assert!(v.expect_exit(T).success());
}

#[test]
fn peer_sends_an_illegal_move() {
    let (h, mut f) = host_in_play("illegal");
    f.send("d3"); // taken
    expect_fault(
        &h,
        "the remote program sent the illegal move 'd3'",
        Side::First,
    );
    assert_eq!(f.recv(), None, "the connection is closed");
    clear_dump_quit(&h, Side::First);
}

#[test]
fn peer_breaks_the_message_sequence() {
    let long = "x".repeat(300);
    let cases: [(&str, &str); 8] = [
        (
            "color black",
            "the remote program sent 'color black' out of sequence",
        ),
        ("start", "the remote program sent 'start' out of sequence"),
        ("clear", "the remote program sent 'clear' out of sequence"),
        ("", "the remote program sent '' out of sequence"),
        (
            "hello there",
            "the remote program sent the invalid message 'hello there'",
        ),
        (" c3", "the remote program sent the invalid message ' c3'"),
        ("C3", "the remote program sent the invalid message 'C3'"),
        (&long, "the remote program sent an unreadable message"),
    ];
    for (message, why) in cases {
        let (h, mut f) = host_in_play("sequence");
        f.send(message);
        expect_fault(&h, why, Side::First);
        assert_eq!(f.recv(), None, "the connection is closed");
        clear_dump_quit(&h, Side::First);
    }
}

#[test]
fn peer_resigns_and_is_acknowledged() {
    let (h, mut f) = host_in_play("peerresign");
    f.send("resign");
    expect(&h, &["The remote player resigned.", "Black wins."]);
    f.expect(&[""]);
    assert_eq!(f.recv(), None);
    clear_dump_quit(&h, Side::First);
}

#[test]
fn our_resignation_is_acknowledged_after_a_crossing_move() {
    let (h, mut f) = host_in_play("ourresign");
    f.send("c3");
    expect(&h, &["White moves c3."]);
    h.send("resign");
    f.expect(&["resign"]);
    // A move the peer sent before it read the resignation is passed over.
    f.send("c4");
    f.send("");
    expect(&h, &["White wins."]);
    clear_dump_quit(&h, Side::First);
}

#[test]
fn messages_during_the_hosts_set_up_are_out_of_sequence() {
    for (message, why) in [
        ("d3", "the remote program sent 'd3' out of sequence"),
        ("resign", "the remote program sent 'resign' out of sequence"),
        ("", "the remote program sent '' out of sequence"),
    ] {
        let (h, mut f) = host_with_fake("setup", LONG);
        h.send("color white");
        h.send("f5");
        f.expect(&["color black", "f5"]);
        f.send(message);
        expect(&h, &[&relay_ended(why)]);
        back_in_local_setup(&h, &[Move::parse_text("f5").unwrap()], Side::Second);
    }
}

#[test]
fn peer_stalls_before_its_first_message() {
    let h = spawn(SHORT);
    let id = fake::host_on(&h, "silent");
    let started = Instant::now();
    let _f = Fake::join("reversi", &id);
    expect(
        &h,
        &[&relay_ended("the remote program did not answer in time")],
    );
    assert!(started.elapsed() >= Duration::from_millis(900));
    clear_dump_quit(&h, Side::First);
}

#[test]
fn the_last_move_is_acknowledged_or_the_peer_forfeits() {
    let (h, mut f, player, outcome) = host_after_last_move("ack", LONG);
    f.send("");
    expect(&h, &[SPEC.result_line(outcome)]);
    assert_eq!(f.recv(), None, "the host closes the connection");
    clear_dump_quit(&h, player);

    // No acknowledgement comes: the result is not announced, the peer forfeits.
    let (h, _f, player, _) = host_after_last_move("noack", SHORT);
    expect_fault(&h, "the remote program did not answer in time", player);
    clear_dump_quit(&h, player);

    let (h, mut f, player, _) = host_after_last_move("wrongack", LONG);
    f.send("resign");
    expect_fault(
        &h,
        "the remote program sent 'resign' instead of acknowledging the end of the game",
        player,
    );
    clear_dump_quit(&h, player);
}

/// A real visitor (its Player the User) joined to a fake host that has read its empty
/// message.
fn visitor_with_fake_host(tag: &str, timeout: &str) -> (Engine, Fake) {
    fake::join_fake_host(spawn(timeout), "reversi", tag, "")
}

#[test]
fn a_foreign_host_plays_a_game_with_our_visitor() {
    let (v, mut f) = visitor_with_fake_host("foreign", LONG);
    let game = random_game(33);
    let (last, setup) = game.split_last().unwrap();
    // The fake plays the side that makes the last move; our visitor the other.
    let ours = play(setup).side_to_move().opponent();
    f.send(&format!("color {}", SPEC.side_word(ours)));
    f.send("clear");
    for m in texts(setup) {
        f.send(&m);
    }
    f.send("start");
    let started = format!(
        "The host started game *; the Player is {}.",
        SPEC.side_word(ours)
    );
    expect(&v, &[&started]);
    f.send(&last.text());
    let pos = play(setup);
    let result = SPEC.result_line(play(&game).outcome().unwrap());
    expect(&v, &[&ai_move_line(pos.side_to_move(), *last), result]);
    // The visitor acknowledges the last move, then closes.
    f.expect(&[""]);
    assert_eq!(f.recv(), None);
    clear_dump_quit(&v, ours);
}

#[test]
fn host_stalls_before_its_color() {
    // The host program answers the empty message at once: its `color` has a deadline.
    let (v, _f) = visitor_with_fake_host("nocolor", SHORT);
    expect(
        &v,
        &[&relay_ended("the remote program did not answer in time")],
    );
    clear_dump_quit(&v, Side::First);
}

#[test]
fn host_relays_nonsense() {
    for (messages, why) in [
        (
            &["start"][..],
            "the remote program sent 'start' out of sequence",
        ),
        (&["d3"][..], "the remote program sent 'd3' out of sequence"),
        (
            &["color white", "e3"][..],
            "the remote program sent the illegal move 'e3'",
        ),
        (
            &["color white", "resign"][..],
            "the remote program sent 'resign' out of sequence",
        ),
        (
            &["color white", "color  black"][..],
            "the remote program sent the invalid message 'color  black'",
        ),
    ] {
        let (v, mut f) = visitor_with_fake_host("nonsense", LONG);
        for m in messages {
            f.send(m);
        }
        expect(&v, &[&relay_ended(why)]);
        assert_eq!(f.recv(), None, "the connection is closed");
        v.send("quit");
        assert!(v.expect_exit(T).success());
    }
}

#[test]
fn a_wrong_greeting_is_refused_and_the_host_keeps_waiting() {
    let h = spawn(LONG);
    let id = fake::host_on(&h, "greet");
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for("reversi", &id)));
    let mut wrong = Fake::new(TcpStream::connect_timeout(&addr, T).unwrap());
    wrong.send(&format!("join ataxx {id}"));
    assert_eq!(wrong.recv().as_deref(), Some("refused not this game"));
    let mut f = Fake::join("reversi", &id);
    f.send("");
    f.expect(&["color white"]);
    expect(&h, &["An opponent joined game *"]);
    h.send("quit");
    assert_eq!(f.recv(), None, "quit in set-up closes the connection");
    assert!(h.expect_exit(T).success());
}

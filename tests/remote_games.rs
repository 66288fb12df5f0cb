//! Remote play between two real programs on loopback (`host ID` / `join ID@localhost`),
//! written once for every dialect that plays remote games ([`Remote`]: the 2008 edition
//! of Ataxx and Reversi): whole games AI against AI (the host's set-up relayed), Users
//! against each other (passes included where the game has them), a User against a
//! remote AI, and a set-up that already ended the game; giving a game up (the dialect's
//! command, or `quit`) on one's turn or while waiting; a second visitor refused; the
//! wait for a visitor, which `clear` cancels; joining nobody; either side quitting
//! during the set-up. Each dialect's module runs them with its data
//! (`common::remote`). Faults of a misbehaving peer are in `remote_faults.rs`.

use crate::common;

use common::remote::{
    back_in_local_setup, clear_dump_quit, color, connect, dump_of, expect, expect_all, game,
    is_result_line, move_line, replay, spawn, start, Remote, GAME, LONG, T,
};
use common::Engine;
use engine::game::{Game, Side};
use engine::protocol::remote::port_for;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// The message the visitor prints when the host starts, its Player `side`.
fn started<D: Remote>(id: &str, side: Side) -> String {
    format!(
        "The host started game {id}; the Player is {}.",
        D::SPEC.side_word(side)
    )
}

/// Two AIs play a whole game from the host's set-up (the host's Player on the second
/// side): both print the same moves, each legal, and the rules' result; both dumps
/// show the final position; both programs go on working.
fn ai_against_ai_with_set_up_moves<D: Remote>() {
    let (h, v, id) = connect::<D>("aiai", &["seed 3", "auto"], &["seed 9", "auto"]);
    let set_up = D::ai_set_up();
    for l in &set_up.lines {
        h.send(l);
    }
    h.send(&color::<D>(Side::Second));
    h.send("start");
    expect(&v, &[&started::<D>(&id, Side::First)]);
    let host_lines = common::fake::same_game(&h, &v, GAME, is_result_line::<D>);
    let (result, moves) = host_lines.split_last().unwrap();
    let mut pos = set_up.pos;
    let n = set_up.moves + replay::<D>(&mut pos, moves);
    assert!(!moves.is_empty());
    assert!(pos.is_over());
    assert_eq!(result, D::SPEC.result_line(pos.outcome().unwrap()));
    assert_eq!(dump_of::<D>(&h), D::dump(&pos, Side::Second, n));
    assert_eq!(dump_of::<D>(&v), D::dump(&pos, Side::First, n));
    clear_dump_quit::<D>(&h, Side::Second);
    clear_dump_quit::<D>(&v, Side::First);
}

/// The host sets the game up (the visitor's User cannot); then the Users type their
/// moves, each program showing the other's, to the result.
fn users_play_through_the_connection<D: Remote>() {
    let (h, v, id) = connect::<D>("users", &[], &[]);
    v.send(&color::<D>(Side::Second));
    expect(&v, &[D::VISITOR_SETS_NOTHING_UP]);
    let (set_up, game) = D::users_game();
    for l in &set_up.lines {
        h.send(l);
    }
    h.send("start");
    expect(&v, &[&started::<D>(&id, Side::Second)]);
    let mut pos = set_up.pos;
    // (The 2008 edition reads no `dump` while it waits for the remote move.)
    if D::LOOKS_WHILE_WAITING || pos.side_to_move() == Side::Second {
        assert_eq!(dump_of::<D>(&v), D::dump(&pos, Side::Second, set_up.moves));
    }
    for &mv in &game {
        // The side to move types its move; the other program shows it.
        let (mover, other) = if pos.side_to_move() == Side::First {
            (&h, &v)
        } else {
            (&v, &h)
        };
        mover.send(&D::move_text(&pos, mv));
        expect(other, &[&move_line::<D>(&pos, mv)]);
        pos.make_move(mv);
    }
    let result = D::SPEC.result_line(pos.outcome().expect("the game is over"));
    expect(&h, &[result]);
    expect(&v, &[result]);
    let n = set_up.moves + game.len();
    assert_eq!(dump_of::<D>(&h), D::dump(&pos, Side::First, n));
    assert_eq!(dump_of::<D>(&v), D::dump(&pos, Side::Second, n));
    clear_dump_quit::<D>(&h, Side::First);
    clear_dump_quit::<D>(&v, Side::Second);
}

/// The host's User plays a remote AI (the visitor's Player): the visitor answers each
/// move, and both programs print its moves.
fn a_user_plays_a_remote_ai<D: Remote>() {
    let (h, v, id) = connect::<D>("userai", &[], &["seed 5", "auto"]);
    let set_up = D::short_set_up();
    for l in &set_up.lines {
        h.send(l);
    }
    h.send("start");
    expect(&v, &[&started::<D>(&id, Side::Second)]);
    let mut pos = set_up.pos;
    let mut n = set_up.moves;
    while pos.outcome().is_none() {
        if pos.side_to_move() == Side::First {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            h.send(&D::move_text(&pos, moves[0]));
            expect(&v, &[&move_line::<D>(&pos, moves[0])]);
            pos.make_move(moves[0]);
        } else {
            // The AI's move, printed by both programs.
            let line = v.recv(T);
            assert_eq!(h.recv(T), line);
            replay::<D>(&mut pos, std::slice::from_ref(&line));
        }
        n += 1;
    }
    let result = D::SPEC.result_line(pos.outcome().unwrap());
    expect(&h, &[result]);
    expect(&v, &[result]);
    assert_eq!(dump_of::<D>(&h), D::dump(&pos, Side::First, n));
    assert_eq!(dump_of::<D>(&v), D::dump(&pos, Side::Second, n));
    clear_dump_quit::<D>(&h, Side::First);
    clear_dump_quit::<D>(&v, Side::Second);
}

/// The host's set-up ends the game: its `start` is the game's last move, which the
/// visitor (an AI) acknowledges; both print the result.
fn a_set_up_that_ended_the_game<D: Remote>() {
    let (h, v, id) = connect::<D>("ended", &[], &["auto"]);
    let set_up = D::ended_set_up();
    for l in &set_up.lines {
        h.send(l);
    }
    h.send("start");
    let result = D::SPEC.result_line(set_up.pos.outcome().expect("over"));
    expect(&v, &[&started::<D>(&id, Side::Second), result]);
    expect(&h, &[result]);
    let (pos, n) = (&set_up.pos, set_up.moves);
    assert_eq!(dump_of::<D>(&v), D::dump(pos, Side::Second, n));
    assert_eq!(dump_of::<D>(&h), D::dump(pos, Side::First, n));
    clear_dump_quit::<D>(&v, Side::Second);
    clear_dump_quit::<D>(&h, Side::First);
}

/// Who gives the game up.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Who {
    /// The host, waiting for the visitor's move.
    Host,
    /// The visitor, on its turn.
    Visitor,
}

/// A game in play (the host's Player on the second side if `host_second`, else on the
/// first, having played its first move), the visitor to move: `leaver` gives it up with
/// `word` (the dialect's [`Remote::LEAVE`] or `quit`). The other program says so and
/// gives its Player the game; a move there is refused, the game being over. `quit`
/// exits 0; after the dialect's command its User sees what the dialect says
/// ([`Remote::after_leaving`]). Both programs go on working.
fn giving_a_game_up<D: Remote>(leaver: Who, host_second: bool, word: &str) {
    let (h, v, _) = connect::<D>("leave", &[], &[]);
    let host_side = if host_second {
        h.send(&color::<D>(Side::Second));
        Side::Second
    } else {
        Side::First
    };
    h.send("start");
    let visitor_side = host_side.opponent();
    let said = format!(
        "The host started game *; the Player is {}.",
        D::SPEC.side_word(visitor_side)
    );
    expect(&v, &[&said]);
    if !host_second {
        h.send(D::FIRST_MOVE);
        let pos = start::<D>();
        let mv = D::parse_move_text(&pos, D::FIRST_MOVE).unwrap();
        expect(&v, &[&move_line::<D>(&pos, mv)]);
    }
    let ((quitter, quitter_side), (other, other_side)) = match leaver {
        Who::Host => ((&h, host_side), (&v, visitor_side)),
        Who::Visitor => ((&v, visitor_side), (&h, host_side)),
    };
    quitter.send(word);
    if word == "quit" {
        assert!(quitter.expect_exit(T).success());
    }
    expect_all(other, &D::gave_up(other_side));
    other.send(D::FIRST_REPLY);
    expect(
        other,
        &["error: the game is over (use clear for a new game)"],
    );
    if word != "quit" {
        D::after_leaving(quitter, quitter_side);
        clear_dump_quit::<D>(quitter, quitter_side);
    }
    clear_dump_quit::<D>(other, other_side);
}

/// Another program cannot join a game that has its visitor (the port is closed), and
/// stays in local set-up; the game goes on, and the host's `quit` gives it up.
fn a_second_visitor_is_refused<D: Remote>() {
    let (h, v, id) = connect::<D>("second", &[], &[]);
    let third = spawn::<D>(LONG);
    third.send(&format!("join {id}@localhost"));
    expect(&third, &["error: cannot join: *"]);
    let start = start::<D>();
    assert_eq!(dump_of::<D>(&third), D::dump(&start, Side::First, 0));
    // A raw connection finds the port closed.
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for(game::<D>(), &id)));
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(5)).is_err());
    clear_dump_quit::<D>(&third, Side::First);
    // The game goes on.
    h.send("start");
    h.send(D::FIRST_MOVE);
    let first = D::parse_move_text(&start, D::FIRST_MOVE).unwrap();
    expect(
        &v,
        &["The host started game *", &move_line::<D>(&start, first)],
    );
    let mut pos = start.clone();
    pos.make_move(first);
    v.send(D::FIRST_REPLY);
    let reply = D::parse_move_text(&pos, D::FIRST_REPLY).unwrap();
    expect(&h, &[&move_line::<D>(&pos, reply)]);
    h.send("quit");
    assert!(h.expect_exit(T).success());
    expect_all(&v, &D::gave_up(Side::Second));
    clear_dump_quit::<D>(&v, Side::Second);
}

/// While a program waits for a visitor, `refused` commands get their errors (`{id}`:
/// the game's ID), the commands that only look (`dump`, `help`, `board`) are answered;
/// `clear` cancels the hosting (`cancelled`: what it says), and `start` then plays the
/// AI, which answers the User's move.
fn hosting_waits_and_clear_cancels<D: Remote>(refused: &[(&str, &str)], cancelled: &[&str]) {
    let e = spawn::<D>(LONG);
    let id = common::fake::host_on(&e, "wait");
    for look in ["dump", "help", "board"] {
        e.send(look);
    }
    let (command, error) = refused[0];
    e.send(&command.replace("{id}", &id));
    let seen = e.wait_for(T, |l| l.starts_with("error: "));
    let (last, looked) = seen.split_last().unwrap();
    assert_eq!(*last, error.replace("{id}", &id), "{seen:?}");
    assert!(
        looked.iter().filter(|l| *l == "===").count() == 2,
        "{seen:?}"
    );
    for (command, error) in &refused[1..] {
        e.send(&command.replace("{id}", &id));
        expect(&e, &[&error.replace("{id}", &id)]);
    }
    e.send("clear");
    e.send("seed 1");
    e.send("start");
    e.send(D::FIRST_MOVE);
    let mut want: Vec<String> = cancelled.iter().map(|l| l.to_string()).collect();
    want.push(format!("{} moves *", D::SPEC.colour_name(Side::Second)));
    expect_all(&e, &want);
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// `join` with nobody hosting fails at once, and the program stays in local mode: it
/// plays the AI.
fn joining_nobody_fails_and_leaves_local_mode<D: Remote>() {
    // Port 1 on loopback: nobody listens, the connection is refused at once.
    let e = spawn::<D>(LONG);
    e.send("join nobody@127.0.0.1:1");
    e.send("start");
    e.send(D::FIRST_MOVE);
    let answer = format!("{} moves *", D::SPEC.colour_name(Side::Second));
    expect(&e, &["error: cannot join: *", &answer]);
    e.send("quit");
    let t = e.finish(T);
    assert!(t.status.success());
    assert!(t.lines.is_empty(), "{:?}", t.lines);
}

/// Either side quitting during the host's set-up ends the relay with one line and no
/// result (no game was played); the other program is back in local set-up with its
/// board (the host's set-up; the visitor's, what reached it).
fn either_side_quitting_during_set_up_prints_no_result<D: Remote>(set_up: &[&str]) {
    // The visitor quits while the host sets up: the host keeps its board, in set-up.
    let (h, v, _) = connect::<D>("vquit", &[], &[]);
    for m in set_up {
        h.send(m);
    }
    let board = common::remote::play::<D>(start::<D>(), set_up);
    assert_eq!(dump_of::<D>(&h), D::dump(&board, Side::First, set_up.len()));
    let visitor_board = if D::RELAYS_AS_TYPED { set_up } else { &[] };
    // The visitor has the set-up moves (where they are relayed as typed) before it
    // quits.
    dump_becomes::<D>(&v, visitor_board);
    v.send("quit");
    assert!(v.expect_exit(T).success());
    expect(&h, &[&common::remote::relay_ended(D::PEER_LEFT)]);
    back_in_local_setup::<D>(&h, set_up, Side::First);

    // The host quits during its set-up: the visitor keeps what reached it.
    let (h, v, _) = connect::<D>("hquit", &[], &[]);
    let first = &set_up[..1];
    h.send(first[0]);
    let visitor_board = if D::RELAYS_AS_TYPED { first } else { &[] };
    dump_becomes::<D>(&v, visitor_board);
    dump_of::<D>(&h);
    h.send("quit");
    assert!(h.expect_exit(T).success());
    expect(&v, &[&common::remote::relay_ended(D::PEER_LEFT)]);
    let t = v.lines_within(Duration::from_millis(300));
    assert!(!t.iter().any(|l| is_result_line::<D>(l)), "{t:?}");
    back_in_local_setup::<D>(&v, visitor_board, Side::Second);
}

/// Asks for dumps until `e`'s shows `moves` typed from the start (a relayed set-up
/// reaches it in its own time), its Player on the second side.
fn dump_becomes<D: Remote>(e: &Engine, moves: &[&str]) {
    let want = D::dump(
        &common::remote::play::<D>(start::<D>(), moves),
        Side::Second,
        moves.len(),
    );
    let deadline = std::time::Instant::now() + T;
    while dump_of::<D>(e) != want {
        assert!(
            std::time::Instant::now() < deadline,
            "the dump never became {want:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

mod ataxx2008 {
    use super::Who;
    use engine::protocol::text::ataxx2008::Ataxx2008 as D;

    // The set-up moves come with blocks.
    promises_for_d!(
        ai_against_ai_with_set_up_moves,
        users_play_through_the_connection,
        a_user_plays_a_remote_ai,
        a_set_up_that_ended_the_game,
        a_second_visitor_is_refused,
        joining_nobody_fails_and_leaves_local_mode,
    );

    /// The visitor's User abandons on its turn: the host's Player wins by forfeit;
    /// the visitor is back in local mode and plays the AI.
    #[test]
    fn clear_abandons_the_game_and_the_opponent_wins_by_forfeit() {
        super::giving_a_game_up::<D>(Who::Visitor, false, "clear");
    }

    /// The host waits for the visitor's (red's) move; the visitor quits instead.
    #[test]
    fn quit_abandons_the_game_while_the_opponent_waits() {
        super::giving_a_game_up::<D>(Who::Visitor, true, "quit");
    }

    /// The host waits for blue's move, without a time limit; its User gives up.
    #[test]
    fn clear_or_quit_ends_the_wait_for_the_opponents_move() {
        for word in ["clear", "quit"] {
            super::giving_a_game_up::<D>(Who::Host, false, word);
        }
    }

    #[test]
    fn hosting_waits_and_clear_cancels() {
        let waiting =
            "error: waiting for an opponent to join: only clear, quit, help, dump, board and load now";
        super::hosting_waits_and_clear_cancels::<D>(
            &[
                ("start", waiting),
                ("a7-b6", waiting),
                ("color blue", waiting),
                ("host {id}", waiting),
                ("join {id}@localhost", waiting),
            ],
            &[],
        );
    }

    #[test]
    fn either_side_quitting_during_set_up_prints_no_result() {
        super::either_side_quitting_during_set_up_prints_no_result::<D>(&["a7-b6", "g7-f6"]);
    }
}

mod reversi {
    use super::Who;
    use engine::protocol::text::reversi::ReversiText as D;

    // The set-up moves come with a relayed `clear`; the game through the connection
    // has passes.
    promises_for_d!(
        ai_against_ai_with_set_up_moves,
        users_play_through_the_connection,
        a_user_plays_a_remote_ai,
        a_set_up_that_ended_the_game,
        a_second_visitor_is_refused,
        joining_nobody_fails_and_leaves_local_mode,
    );

    /// The host's User resigns while it waits for the visitor's move; the visitor
    /// (black, to move) quits: that resigns the game.
    #[test]
    fn resign_while_waiting_and_quit_in_a_game() {
        super::giving_a_game_up::<D>(Who::Host, false, "resign");
        super::giving_a_game_up::<D>(Who::Visitor, true, "quit");
    }

    /// A second `host` (or a `join`) while waiting says so; hosting goes on.
    #[test]
    fn hosting_waits_and_clear_cancels() {
        super::hosting_waits_and_clear_cancels::<D>(
            &[
                (
                    "d3",
                    "error: waiting for an opponent to join first (clear cancels hosting)",
                ),
                (
                    "host other",
                    "error: cannot host: already hosting game {id} (clear cancels hosting; quit leaves)",
                ),
                (
                    "join {id}@localhost",
                    "error: cannot join: already hosting game {id} (clear cancels hosting; quit leaves)",
                ),
            ],
            &["No longer hosting; the opponent is the computer again."],
        );
    }

    #[test]
    fn either_side_quitting_during_set_up_prints_no_result() {
        super::either_side_quitting_during_set_up_prints_no_result::<D>(&["d3", "c5"]);
    }
}

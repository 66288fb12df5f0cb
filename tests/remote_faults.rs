//! A misbehaving remote program, played by the test itself over a raw `TcpStream` that
//! speaks the transport's greeting (`join GAME ID` / `welcome`, `common::fake`), against
//! a real program of every dialect that plays remote games ([`Remote`]: the 2008 edition
//! of Ataxx and Reversi): a disconnect, an illegal move, messages out of sequence or
//! invalid, a peer that stalls past the remote timeout (before its first message, at
//! the final acknowledgement), a peer that gives the game up, a foreign host and what it
//! relays, and a wrong greeting. Each fault in a game must end it with the documented
//! lines (`error: …`, then the line that gives our Player the game), no hang, and the
//! program still usable (`clear`, `dump`) and exiting 0 on `quit`. Before the host's
//! `start` nobody wins: the relay ends with one line, set-up goes on with the board
//! kept. Each dialect's module runs these with its messages (and keeps what only it
//! has).

use crate::common;

use common::fake::Fake;
use common::remote::{
    clear_dump_quit, color, dump_of, expect, expect_all, expect_fault, game, host_after_last_move,
    host_in_play, host_with_fake, relay_ended, spawn, visitor_with_fake_host, Remote, LONG, SHORT,
    T,
};
use engine::game::Side;
use engine::protocol::remote::port_for;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The peer disconnects in a game: our Player wins.
fn peer_disconnects_mid_game<D: Remote>() {
    let (h, f) = host_in_play::<D>("gone");
    drop(f);
    expect_fault::<D>(&h, "the remote program disconnected", Side::First);
    clear_dump_quit::<D>(&h, Side::First);
}

/// The host disconnects before its relay: no game, the visitor stays in set-up.
fn host_disconnects_before_the_relay<D: Remote>() {
    let (v, f) = visitor_with_fake_host::<D>("hostgone", LONG);
    drop(f);
    expect(&v, &[&relay_ended("the remote program disconnected")]);
    clear_dump_quit::<D>(&v, Side::First);
}

/// The peer sends a move that is not legal: our Player wins, the connection is closed.
fn peer_sends_an_illegal_move<D: Remote>(illegal: &str) {
    let (h, mut f) = host_in_play::<D>("illegal");
    f.send(illegal);
    let why = format!("the remote program sent the illegal move '{illegal}'");
    expect_fault::<D>(&h, &why, Side::First);
    assert_eq!(f.recv(), None, "the connection is closed");
    clear_dump_quit::<D>(&h, Side::First);
}

/// Each message of `cases` (and one too long to read) in a game is out of sequence or
/// invalid: our Player wins, the connection is closed.
fn peer_breaks_the_message_sequence<D: Remote>(cases: &[(&str, &str)]) {
    let long = "x".repeat(300);
    let cases = cases.iter().copied().chain([(
        long.as_str(),
        "the remote program sent an unreadable message",
    )]);
    for (message, why) in cases {
        let (h, mut f) = host_in_play::<D>("sequence");
        f.send(message);
        expect_fault::<D>(&h, why, Side::First);
        assert_eq!(f.recv(), None, "the connection is closed");
        clear_dump_quit::<D>(&h, Side::First);
    }
}

/// The peer gives the game up: the program says so, gives our Player the game (and
/// answers, where the dialect does), and closes the connection.
fn peer_gives_up<D: Remote>() {
    let (h, mut f) = host_in_play::<D>("giveup");
    f.send(D::GIVE_UP);
    expect_all(&h, &D::gave_up(Side::First));
    if let Some(answer) = D::GIVE_UP_ANSWERED {
        f.expect(&[answer]);
    }
    assert_eq!(f.recv(), None);
    clear_dump_quit::<D>(&h, Side::First);
}

/// While the host sets up (its Player on the second side; `commands` and `moves` typed
/// on `base`, the start position with nothing typed), each message of `cases` ends the
/// relay with its reason: no game was started, so nobody wins. The set-up goes on with
/// its board: the set-up move `next` is taken, and `start` plays the AI, on the first
/// side.
fn messages_during_the_hosts_set_up_are_out_of_sequence<D: Remote>(
    commands: &[&str],
    base: D::Game,
    moves: &[&str],
    next: &str,
    cases: &[(&str, &str)],
) {
    let board = common::remote::play::<D>(base.clone(), moves);
    let mut all = moves.to_vec();
    all.push(next);
    let after = common::remote::play::<D>(base, &all);
    for (message, why) in cases {
        let (h, mut f) = host_with_fake::<D>("setup", LONG);
        h.send(&color::<D>(Side::Second));
        for l in commands.iter().chain(moves) {
            h.send(l);
        }
        if D::RELAYS_AS_TYPED {
            f.expect(&[&color::<D>(Side::First)]);
            f.expect(commands);
            f.expect(moves);
        }
        // The host has run the whole set-up before the message arrives.
        let before = dump_of::<D>(&h);
        assert_eq!(before, D::dump(&board, Side::Second, moves.len()));
        f.send(message);
        expect(&h, &[&relay_ended(why)]);
        assert_eq!(dump_of::<D>(&h), before);
        h.send(next);
        assert_eq!(
            dump_of::<D>(&h),
            D::dump(&after, Side::Second, all.len()),
            "a set-up move is taken"
        );
        h.send("start");
        let ai = format!("{} moves *", D::SPEC.colour_name(Side::First));
        expect(&h, &[&ai]);
        h.send("quit");
        assert!(h.expect_exit(T).success());
    }
}

/// The peer says nothing after the greeting: past the remote timeout the relay ends.
fn peer_stalls_before_its_first_message<D: Remote>() {
    let h = spawn::<D>(SHORT);
    let id = common::fake::host_on(&h, "silent");
    let started = Instant::now();
    let _f = Fake::join(game::<D>(), &id);
    expect(
        &h,
        &[&relay_ended("the remote program did not answer in time")],
    );
    assert!(started.elapsed() >= Duration::from_millis(900));
    clear_dump_quit::<D>(&h, Side::First);
}

/// The peer acknowledges the game's last move: the program announces the result and
/// closes the connection.
fn peer_acknowledges_the_last_move<D: Remote>() {
    let (h, mut f, game) = host_after_last_move::<D>("ack", LONG);
    f.send(D::ACK);
    expect(&h, &[D::SPEC.result_line(game.outcome)]);
    assert_eq!(f.recv(), None, "the host closes the connection");
    clear_dump_quit::<D>(&h, game.player);
}

/// No acknowledgement comes: the result is not announced, the peer forfeits.
fn peer_stalls_before_acknowledging_the_last_move<D: Remote>() {
    let (h, _f, game) = host_after_last_move::<D>("noack", SHORT);
    expect_fault::<D>(&h, "the remote program did not answer in time", game.player);
    clear_dump_quit::<D>(&h, game.player);
}

/// The peer answers the last move with `message`, not the acknowledgement: it
/// forfeits.
fn peer_answers_the_last_move_with_another_message<D: Remote>(message: &str) {
    let (h, mut f, game) = host_after_last_move::<D>("wrongack", LONG);
    f.send(message);
    let why =
        format!("the remote program sent '{message}' instead of acknowledging the end of the game");
    expect_fault::<D>(&h, &why, game.player);
    clear_dump_quit::<D>(&h, game.player);
}

/// A foreign host sets a game up and plays its last move: our visitor shows it and the
/// result, acknowledges, and the connection closes.
fn a_foreign_host_plays_a_game_with_our_visitor<D: Remote>() {
    let (v, mut f) = visitor_with_fake_host::<D>("foreign", LONG);
    let (set_up, ours, last, seen) = D::foreign_host_game();
    for l in &set_up {
        f.send(l);
    }
    let started = format!(
        "The host started game *; the Player is {}.",
        D::SPEC.side_word(ours)
    );
    expect(&v, &[&started]);
    f.send(&last);
    expect_all(&v, &seen);
    // The visitor acknowledges the last move, then closes.
    f.expect(&[D::ACK]);
    assert_eq!(f.recv(), None);
    clear_dump_quit::<D>(&v, ours);
}

/// The host sends `messages`, then nothing: past the remote timeout the visitor prints
/// `lines`.
fn host_stalls<D: Remote>(messages: &[&str], lines: &[&str]) {
    let (v, mut f) = visitor_with_fake_host::<D>("stall", SHORT);
    for m in messages {
        f.send(m);
    }
    expect(&v, lines);
    clear_dump_quit::<D>(&v, Side::First);
}

/// Each row: what the host relays, the lines our visitor prints, and its Player then;
/// the connection is closed, and the visitor goes on working.
fn host_relays_nonsense<D: Remote>(rows: &[(&[&str], &[&str], Side)]) {
    for (messages, lines, user) in rows {
        let (v, mut f) = visitor_with_fake_host::<D>("nonsense", LONG);
        for m in *messages {
            f.send(m);
        }
        expect(&v, lines);
        assert_eq!(f.recv(), None, "the connection is closed");
        clear_dump_quit::<D>(&v, *user);
    }
}

/// A greeting for another game is refused, and the host keeps waiting: a proper
/// visitor still gets in. The host's `quit` in set-up tells the visitor, where the
/// dialect says something (`quit_says`), and closes the connection.
fn a_wrong_greeting_is_refused_and_the_host_keeps_waiting<D: Remote>(
    other_game: &str,
    quit_says: Option<&str>,
) {
    let h = spawn::<D>(LONG);
    let id = common::fake::host_on(&h, "greet");
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for(game::<D>(), &id)));
    let mut wrong = Fake::new(TcpStream::connect_timeout(&addr, T).unwrap());
    wrong.send(&format!("join {other_game} {id}"));
    assert_eq!(wrong.recv().as_deref(), Some("refused not this game"));
    // A proper visitor still gets in.
    let mut f = Fake::join(game::<D>(), &id);
    f.send(D::HELLO);
    if D::COLOR_AT_JOIN {
        f.expect(&[&color::<D>(Side::Second)]);
    }
    expect(&h, &["An opponent joined game *"]);
    h.send("quit");
    if let Some(says) = quit_says {
        f.expect(&[says]);
    }
    assert_eq!(f.recv(), None, "quit in set-up closes the connection");
    assert!(h.expect_exit(T).success());
}

/// `quit` in a game gives it up: the peer is told with `says`.
fn quit_in_a_game_tells_the_peer<D: Remote>(says: &str) {
    let (h, mut f) = host_in_play::<D>("quit");
    h.send("quit");
    f.expect(&[says]);
    assert!(h.expect_exit(T).success());
}

mod ataxx2008 {
    use super::{expect, relay_ended, visitor_with_fake_host, Side, LONG, T};
    use engine::games::ataxx::{Position, Rules};
    use engine::protocol::text::ataxx2008::{parse_blocks, Ataxx2008 as D};

    #[test]
    fn peer_disconnects_mid_game() {
        super::peer_disconnects_mid_game::<D>();
    }

    #[test]
    fn peer_sends_an_illegal_move() {
        // Red's piece, on blue's turn.
        super::peer_sends_an_illegal_move::<D>("a7-a6");
    }

    #[test]
    fn peer_breaks_the_message_sequence() {
        super::peer_breaks_the_message_sequence::<D>(&[
            (
                "color red",
                "the remote program sent 'color red' out of sequence",
            ),
            ("start", "the remote program sent 'start' out of sequence"),
            ("ready", "the remote program sent 'ready' out of sequence"),
            (
                "blocks 3gh",
                "the remote program sent 'blocks 3gh' out of sequence",
            ),
            (
                "hello there",
                "the remote program sent the invalid message 'hello there'",
            ),
            (
                " g7-f6",
                "the remote program sent the invalid message ' g7-f6'",
            ),
        ]);
    }

    #[test]
    fn peer_abandons_with_stop() {
        super::peer_gives_up::<D>();
    }

    /// `stop` during the set-up: the peer left.
    #[test]
    fn messages_during_the_hosts_set_up_are_out_of_sequence() {
        let mut base = Position::startpos(Rules::Text2008);
        base.add_gaps(parse_blocks("3").unwrap().1).unwrap();
        super::messages_during_the_hosts_set_up_are_out_of_sequence::<D>(
            &["blocks 3"],
            base,
            &["a7-b6"],
            "g7-f6",
            &[
                ("a1-b2", "the remote program sent 'a1-b2' out of sequence"),
                ("ready", "the remote program sent 'ready' out of sequence"),
                ("stop", "the remote program left"),
            ],
        );
    }

    // The visitor's first message here is `ready`.
    promises_for_d!(
        peer_stalls_before_its_first_message,
        peer_acknowledges_the_last_move,
        peer_stalls_before_acknowledging_the_last_move,
        a_foreign_host_plays_a_game_with_our_visitor,
    );

    #[test]
    fn peer_answers_the_last_move_with_another() {
        super::peer_answers_the_last_move_with_another_message::<D>("a1-a2");
    }

    /// In the relay (after `color`) a stall is a forfeit.
    #[test]
    fn host_stalls_in_the_set_up_relay() {
        super::host_stalls::<D>(
            &["color blue"],
            &[
                "error: the remote program did not answer in time",
                "Blue wins by forfeit.",
            ],
        );
    }

    /// The host's `start` begins with `color`: anything else comes before it.
    #[test]
    fn host_relays_nonsense() {
        super::host_relays_nonsense::<D>(&[
            (
                &["color blue", "a7-a4"],
                &[
                    "error: the remote program sent the illegal move 'a7-a4'",
                    "* wins by forfeit.",
                ],
                Side::Second,
            ),
            (
                &["color blue", "color red"],
                &[
                    "error: the remote program sent 'color red' out of sequence",
                    "* wins by forfeit.",
                ],
                Side::Second,
            ),
            (
                &["color blue", "a7-b6", "blocks 3"],
                &[
                    "error: the remote program sent 'blocks 3' out of sequence",
                    "* wins by forfeit.",
                ],
                Side::Second,
            ),
            (
                &["color blue", "blocks 3", "blocks 3"],
                &[
                    "error: the remote program sent 'blocks 3' out of sequence",
                    "* wins by forfeit.",
                ],
                Side::Second,
            ),
            (
                &["start"],
                &["Remote play ended before the start (the remote program sent 'start' out of sequence); back to local set-up, the board kept."],
                Side::First,
            ),
        ]);
    }

    #[test]
    fn host_disconnects_before_the_relay() {
        super::host_disconnects_before_the_relay::<D>();
    }

    /// The host stops before its relay: it left. Local set-up again: `color` is the
    /// visitor's own now.
    #[test]
    fn host_stops_before_the_relay() {
        let (c, mut f) = visitor_with_fake_host::<D>("hoststop", LONG);
        f.send("stop");
        expect(&c, &[&relay_ended("the remote program left")]);
        c.send("color blue");
        c.send("start");
        expect(&c, &["Red moves *"]);
        c.send("quit");
        assert!(c.expect_exit(T).success());
    }

    #[test]
    fn a_wrong_greeting_is_refused_and_the_host_keeps_waiting() {
        super::a_wrong_greeting_is_refused_and_the_host_keeps_waiting::<D>("reversi", Some("stop"));
    }

    #[test]
    fn quit_in_a_game_tells_the_peer() {
        super::quit_in_a_game_tells_the_peer::<D>("stop");
    }
}

mod reversi {
    use super::{clear_dump_quit, expect, host_in_play, visitor_with_fake_host, Side, SHORT, T};
    use engine::protocol::text::reversi::ReversiText as D;
    use std::time::Duration;

    #[test]
    fn peer_disconnects_mid_game() {
        super::peer_disconnects_mid_game::<D>();
    }

    #[test]
    fn host_disconnects_before_the_relay() {
        super::host_disconnects_before_the_relay::<D>();
    }

    #[test]
    fn peer_sends_an_illegal_move() {
        // Taken.
        super::peer_sends_an_illegal_move::<D>("d3");
    }

    #[test]
    fn peer_breaks_the_message_sequence() {
        super::peer_breaks_the_message_sequence::<D>(&[
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
        ]);
    }

    #[test]
    fn peer_resigns_and_is_acknowledged() {
        super::peer_gives_up::<D>();
    }

    #[test]
    fn messages_during_the_hosts_set_up_are_out_of_sequence() {
        super::messages_during_the_hosts_set_up_are_out_of_sequence::<D>(
            &[],
            engine::games::reversi::Position::startpos(),
            &["f5"],
            "f4",
            &[
                ("d3", "the remote program sent 'd3' out of sequence"),
                ("resign", "the remote program sent 'resign' out of sequence"),
                ("", "the remote program sent '' out of sequence"),
            ],
        );
    }

    promises_for_d!(
        peer_stalls_before_its_first_message,
        peer_acknowledges_the_last_move,
        peer_stalls_before_acknowledging_the_last_move,
        a_foreign_host_plays_a_game_with_our_visitor,
    );

    #[test]
    fn peer_answers_the_last_move_with_another() {
        super::peer_answers_the_last_move_with_another_message::<D>("resign");
    }

    /// The host program answers the empty message at once: its `color` has a deadline.
    #[test]
    fn host_stalls_before_its_color() {
        super::host_stalls::<D>(
            &[],
            &["Remote play ended before the start (the remote program did not answer in time); back to local set-up, the board kept."],
        );
    }

    #[test]
    fn host_relays_nonsense() {
        super::host_relays_nonsense::<D>(&[
            (
                &["start"],
                &["Remote play ended before the start (the remote program sent 'start' out of sequence); back to local set-up, the board kept."],
                Side::First,
            ),
            (
                &["d3"],
                &["Remote play ended before the start (the remote program sent 'd3' out of sequence); back to local set-up, the board kept."],
                Side::First,
            ),
            (
                &["color white", "e3"],
                &["Remote play ended before the start (the remote program sent the illegal move 'e3'); back to local set-up, the board kept."],
                Side::Second,
            ),
            (
                &["color white", "resign"],
                &["Remote play ended before the start (the remote program sent 'resign' out of sequence); back to local set-up, the board kept."],
                Side::Second,
            ),
            (
                &["color white", "color  black"],
                &["Remote play ended before the start (the remote program sent the invalid message 'color  black'); back to local set-up, the board kept."],
                Side::Second,
            ),
        ]);
    }

    #[test]
    fn a_wrong_greeting_is_refused_and_the_host_keeps_waiting() {
        super::a_wrong_greeting_is_refused_and_the_host_keeps_waiting::<D>("ataxx", None);
    }

    #[test]
    fn quit_in_a_game_tells_the_peer() {
        super::quit_in_a_game_tells_the_peer::<D>("resign");
    }

    #[test]
    fn our_resignation_is_acknowledged_after_a_crossing_move() {
        let (h, mut f) = host_in_play::<D>("ourresign");
        f.send("c3");
        expect(&h, &["White moves c3."]);
        h.send("resign");
        f.expect(&["resign"]);
        // A move the peer sent before it read the resignation is passed over.
        f.send("c4");
        f.send("");
        expect(&h, &["White wins."]);
        clear_dump_quit::<D>(&h, Side::First);
    }

    #[test]
    fn a_host_thinking_over_the_remote_timeout_in_set_up_is_waited_for() {
        // Remote timeout 1 s; the host's User takes 1.5 s before each set-up step.
        let (v, mut f) = visitor_with_fake_host::<D>("slowhost", SHORT);
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
}

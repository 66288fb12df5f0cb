//! A misbehaving remote program, played by the test itself over a raw `TcpStream` that
//! speaks the transport's greeting (`join ataxx ID` / `welcome`), against a real
//! `ataxx --edition 2008`: a disconnect mid-game, an illegal move, messages out of
//! sequence or invalid, a peer that stalls past the remote timeout (at `ready`, in the
//! set-up relay, at the final acknowledgement), and a wrong greeting. Each must end with
//! the documented lines (`error: …` then `Red wins by forfeit.` naming our Player), no
//! hang, and the program still usable (`clear`, `dump`) and exiting 0 on `quit`. Before
//! the host's `start` nobody forfeits: the relay ends with one line, set-up goes on.

use crate::common;

use common::fake::{self, Fake};
use common::Engine;
use engine::protocol::remote::port_for;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Ceiling for one expected line.
const T: Duration = Duration::from_secs(30);
/// The remote timeout the programs run with here (seconds).
const TIMEOUT_S: &str = "1";

fn spawn() -> Engine {
    Engine::spawn(&["--edition", "2008", "--remote-timeout", TIMEOUT_S])
}

fn expect(e: &Engine, expected: &[&str]) {
    common::expect_lines(e, T, expected);
}

fn dump_of(e: &Engine) -> Vec<String> {
    e.send("dump");
    (0..9).map(|_| e.recv(T)).collect()
}

/// The program still works after the fault (`clear`, `dump`) and exits 0 on `quit`.
fn clear_dump_quit(e: &Engine) {
    e.send("clear");
    let mut start = vec!["===".to_string(), "  r - - - - - b".to_string()];
    start.extend((0..5).map(|_| "  - - - - - - -".to_string()));
    start.extend(["  b - - - - - r".to_string(), "===".to_string()]);
    assert_eq!(dump_of(e), start);
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// `host ID` on `e` with a fresh ID (another one if the derived port is taken).
fn host(e: &Engine, tag: &str) -> String {
    common::fake::host_on(e, tag)
}

/// A real host whose fake client has joined and sent `ready`.
fn host_with_fake(tag: &str) -> (Engine, Fake) {
    let h = spawn();
    let id = host(&h, tag);
    let mut f = Fake::join("ataxx", &id);
    f.send("ready");
    expect(&h, &["An opponent joined game *"]);
    (h, f)
}

/// A real host (its Player the User, red) in play against a fake client: the fake has
/// received the set-up relay and the host's first move `a7-b6`; blue (the fake) is to
/// move.
fn host_in_play(tag: &str) -> (Engine, Fake) {
    let (h, mut f) = host_with_fake(tag);
    h.send("start");
    f.expect(&["color blue", "start"]);
    h.send("a7-b6");
    f.expect(&["a7-b6"]);
    (h, f)
}

/// A real client (its Player the User) joined to a fake host; the fake has read `ready`.
fn client_with_fake_host(tag: &str) -> (Engine, Fake) {
    fake::join_fake_host(spawn(), "ataxx", tag, "ready")
}

/// Blocks and set-up moves after which red's extend to d4 (written `e3-d4`: an extend
/// names the mover's lowest-numbered piece next to it) takes every blue piece and ends
/// the game (only c5 e5 c3 e3 d4 and the corners are open).
const ENDGAME_BLOCKS: &str = "123456abcdefg";
const ENDGAME_SETUP: [&str; 4] = ["a7-c5", "g7-e5", "g1-e3", "a1-c3"];

/// A real host (User, red) that has just played the game's last move against a fake.
fn host_after_last_move(tag: &str) -> (Engine, Fake) {
    let (h, mut f) = host_with_fake(tag);
    h.send(&format!("blocks {ENDGAME_BLOCKS}"));
    for m in ENDGAME_SETUP {
        h.send(m);
    }
    h.send("start");
    let blocks = format!("blocks {ENDGAME_BLOCKS}");
    f.expect(&["color blue", &blocks]);
    f.expect(&ENDGAME_SETUP);
    f.expect(&["start"]);
    h.send("c5-d4");
    f.expect(&["e3-d4"]);
    (h, f)
}

#[test]
fn peer_disconnects_mid_game() {
    let (h, f) = host_in_play("gone");
    drop(f);
    expect(
        &h,
        &[
            "error: the remote program disconnected",
            "Red wins by forfeit.",
        ],
    );
    clear_dump_quit(&h);
}

#[test]
fn peer_sends_an_illegal_move() {
    let (h, mut f) = host_in_play("illegal");
    f.send("a7-a6"); // red's piece, on blue's turn
    expect(
        &h,
        &[
            "error: the remote program sent the illegal move 'a7-a6'",
            "Red wins by forfeit.",
        ],
    );
    assert_eq!(f.recv(), None, "the connection is closed");
    clear_dump_quit(&h);
}

#[test]
fn peer_breaks_the_message_sequence() {
    let long = "x".repeat(300);
    let cases: [(&str, &str); 7] = [
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
        (&long, "the remote program sent an unreadable message"),
    ];
    for (message, why) in cases {
        let (h, mut f) = host_in_play("sequence");
        f.send(message);
        let error = format!("error: {why}");
        expect(&h, &[&error, "Red wins by forfeit."]);
        assert_eq!(f.recv(), None, "the connection is closed");
        clear_dump_quit(&h);
    }
}

#[test]
fn peer_abandons_with_stop() {
    let (h, mut f) = host_in_play("stop");
    f.send("stop");
    expect(
        &h,
        &[
            "The remote program abandoned the game.",
            "Red wins by forfeit.",
        ],
    );
    clear_dump_quit(&h);
}

#[test]
fn messages_during_the_hosts_set_up_are_out_of_sequence() {
    for (message, line) in [
        (
            "a1-b2",
            "error: the remote program sent 'a1-b2' out of sequence",
        ),
        (
            "ready",
            "error: the remote program sent 'ready' out of sequence",
        ),
        ("stop", "The remote program abandoned the game."),
    ] {
        let (h, mut f) = host_with_fake("setup");
        h.send("color blue");
        h.send("blocks 3");
        h.send("a7-b6");
        let board = dump_of(&h); // the host has run all three before the message arrives
        f.send(message);
        // No game was started: no forfeit, the set-up goes on with its board.
        let why = line
            .strip_prefix("error: ")
            .unwrap_or("the remote program left");
        expect(&h, &[&relay_ended(why)]);
        assert_eq!(dump_of(&h), board);
        h.send("g7-f6");
        h.send("start"); // local play against the AI: blue (the AI's side) moves
        expect(&h, &["Red moves *"]);
        h.send("quit");
        assert!(h.expect_exit(T).success());
    }
}

#[test]
fn peer_stalls_before_ready() {
    let h = spawn();
    let id = host(&h, "noready");
    let started = Instant::now();
    let _f = Fake::join("ataxx", &id);
    expect(
        &h,
        &[&relay_ended("the remote program did not answer in time")],
    );
    assert!(started.elapsed() >= Duration::from_millis(900));
    clear_dump_quit(&h);
}

#[test]
fn peer_stalls_before_acknowledging_the_last_move() {
    let (h, _f) = host_after_last_move("noack");
    // No `stop` comes: the result is not announced, the peer forfeits.
    expect(
        &h,
        &[
            "error: the remote program did not answer in time",
            "Red wins by forfeit.",
        ],
    );
    clear_dump_quit(&h);
}

#[test]
fn peer_acknowledges_the_last_move() {
    let (h, mut f) = host_after_last_move("ack");
    f.send("stop");
    expect(&h, &["Red wins."]);
    assert_eq!(f.recv(), None, "the host closes the connection");
    clear_dump_quit(&h);
}

#[test]
fn peer_answers_the_last_move_with_another() {
    let (h, mut f) = host_after_last_move("noack2");
    f.send("a1-a2");
    expect(
        &h,
        &[
            "error: the remote program sent 'a1-a2' instead of acknowledging the end of the game",
            "Red wins by forfeit.",
        ],
    );
    clear_dump_quit(&h);
}

#[test]
fn a_foreign_host_plays_a_game_with_our_client() {
    let (c, mut f) = client_with_fake_host("foreign");
    f.send("color blue");
    f.send(&format!("blocks {ENDGAME_BLOCKS}"));
    for m in ENDGAME_SETUP {
        f.send(m);
    }
    f.send("start");
    expect(&c, &["The host started game *; the Player is blue."]);
    f.send("c5-d4");
    expect(&c, &["Red moves e3-d4.", "Red wins."]);
    // The client acknowledges the last move, then closes.
    f.expect(&["stop"]);
    assert_eq!(f.recv(), None);
    clear_dump_quit(&c);
}

#[test]
fn host_stalls_in_the_set_up_relay() {
    let (c, mut f) = client_with_fake_host("relay");
    f.send("color blue");
    expect(
        &c,
        &[
            "error: the remote program did not answer in time",
            "Blue wins by forfeit.",
        ],
    );
    clear_dump_quit(&c);
}

#[test]
fn host_relays_nonsense() {
    for (messages, line) in [
        (
            &["color blue", "a7-a4"][..],
            "error: the remote program sent the illegal move 'a7-a4'",
        ),
        (
            &["color blue", "color red"][..],
            "error: the remote program sent 'color red' out of sequence",
        ),
        (
            &["color blue", "a7-b6", "blocks 3"][..],
            "error: the remote program sent 'blocks 3' out of sequence",
        ),
        (
            &["color blue", "blocks 3", "blocks 3"][..],
            "error: the remote program sent 'blocks 3' out of sequence",
        ),
    ] {
        let (c, mut f) = client_with_fake_host("nonsense");
        for m in messages {
            f.send(m);
        }
        expect(&c, &[line, "* wins by forfeit."]);
        clear_dump_quit(&c);
    }
    // The host's `start` begins with `color`: anything else comes before it.
    let (c, mut f) = client_with_fake_host("nonsense");
    f.send("start");
    let why = "the remote program sent 'start' out of sequence";
    expect(&c, &[&relay_ended(why)]);
    clear_dump_quit(&c);
}

#[test]
fn host_disconnects_or_stops_before_the_relay() {
    let (c, f) = client_with_fake_host("hostgone");
    drop(f);
    expect(&c, &[&relay_ended("the remote program disconnected")]);
    clear_dump_quit(&c);

    let (c, mut f) = client_with_fake_host("hoststop");
    f.send("stop");
    expect(&c, &[&relay_ended("the remote program left")]);
    // Local set-up again: `color` is the client's own now.
    c.send("color blue");
    c.send("start");
    expect(&c, &["Red moves *"]);
    c.send("quit");
    assert!(c.expect_exit(T).success());
}

/// The line that ends a relay before `start`: no game, so no forfeit.
fn relay_ended(why: &str) -> String {
    format!("Remote play ended before the start ({why}); back to local set-up, the board kept.")
}

#[test]
fn a_wrong_greeting_is_refused_and_the_host_keeps_waiting() {
    let h = spawn();
    let id = host(&h, "greet");
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for("ataxx", &id)));
    let mut wrong = Fake::new(TcpStream::connect_timeout(&addr, T).unwrap());
    wrong.send(&format!("join reversi {id}"));
    assert_eq!(wrong.recv().as_deref(), Some("refused not this game"));
    // A proper visitor still gets in.
    let mut f = Fake::join("ataxx", &id);
    f.send("ready");
    expect(&h, &["An opponent joined game *"]);
    h.send("start");
    f.expect(&["color blue", "start"]);
    h.send("quit");
    f.expect(&["stop"]);
    assert!(h.expect_exit(T).success());
}

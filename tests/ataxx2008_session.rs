//! The 2008 edition (`ataxx --edition 2008`) in local mode: scripted sessions for every
//! command and error (set-up, the `3gh` block notation, `color`, `auto`, the 45-jump
//! rule, `load`, `help`, `dump`), the exact output lines, and exit statuses. Remote play
//! is tested in `tests/remote_*.rs`.

use crate::common;

use common::{Engine, Transcript};
use engine::protocol::text::ataxx::RESERVED;
use regex::Regex;
use std::time::Duration;

const ARGS: &[&str] = &["--edition", "2008"];
const LIMIT: Duration = Duration::from_secs(60);

/// Runs `script` (one command a line) to the end of input; the whole transcript.
fn session(script: &[&str]) -> Transcript {
    let e = Engine::spawn(ARGS);
    for line in script {
        e.send(line);
    }
    let t = e.finish(LIMIT);
    assert!(t.status.success(), "exit status {:?}", t.status);
    assert!(t.stderr.is_empty(), "stderr: {}", t.stderr);
    t
}

/// The dumps in a transcript, each as its nine lines joined by `\n`.
fn dumps(t: &Transcript) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in &t.lines {
        match current.as_mut() {
            None if line == "===" => current = Some(vec!["==="]),
            None => {}
            Some(d) => {
                d.push(line);
                if line == "===" {
                    out.push(d.join("\n"));
                    current = None;
                }
            }
        }
    }
    out
}

/// A dump from its seven rows.
fn board(rows: [&str; 7]) -> String {
    let mut s = String::from("===\n");
    for r in rows {
        s.push_str("  ");
        s.push_str(r);
        s.push('\n');
    }
    s.push_str("===");
    s
}

const START: [&str; 7] = [
    "r - - - - - b",
    "- - - - - - -",
    "- - - - - - -",
    "- - - - - - -",
    "- - - - - - -",
    "- - - - - - -",
    "b - - - - - r",
];

/// The lines that are neither dumps nor errors.
fn chatter(t: &Transcript) -> Vec<String> {
    let mut in_dump = false;
    let mut out = Vec::new();
    for l in &t.lines {
        if l == "===" {
            in_dump = !in_dump;
        } else if !in_dump && !l.starts_with("error: ") {
            out.push(l.clone());
        }
    }
    out
}

fn errors(t: &Transcript) -> Vec<String> {
    t.lines
        .iter()
        .filter(|l| l.starts_with("error: "))
        .cloned()
        .collect()
}

fn is_move_line(l: &str) -> bool {
    let re = Regex::new(r"^(Red|Blue) (moves [a-g][1-7]-[a-g][1-7]|passes)\.$").unwrap();
    re.is_match(l)
}

fn is_result_line(l: &str) -> bool {
    matches!(l, "Red wins." | "Blue wins." | "Draw.")
}

#[test]
fn setup_moves_and_dump() {
    let t = session(&["dump", "  a7-b6   # extend", "g7-e5", "-", "dump"]);
    assert_eq!(
        dumps(&t),
        [
            board(START),
            board([
                "r - - - - - -",
                "- r - - - - -",
                "- - - - b - -",
                "- - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "b - - - - - r",
            ])
        ]
    );
    // `-` is no pass when red can move.
    assert_eq!(
        errors(&t),
        ["error: illegal move '-': red has a move, so it cannot pass"]
    );
    assert!(chatter(&t).is_empty(), "{:?}", t.lines);
}

/// Issue 25, item 13: an illegal move says why, as in the 2016 edition, and a word after
/// a move is named.
#[test]
fn errors_say_why() {
    let t = session(&["a7-d4", "b2-c3", "a7-b6 extra", "g7-f7", "dump"]);
    assert_eq!(
        errors(&t),
        [
            "error: illegal move 'a7-d4': d4 is too far from a7 (one or two squares)",
            "error: illegal move 'b2-c3': no red piece on b2",
            "error: unexpected 'extra' after the move 'a7-b6' (one move a line)",
            "error: illegal move 'g7-f7': no red piece on g7",
        ]
    );
    assert_eq!(dumps(&t), [board(START)], "a refused move changes nothing");
}

#[test]
fn blocks_notation() {
    let t = session(&[
        "blocks 3gh",
        "dump",
        "blocks 1",
        "dump",
        "BLOCKS dEe4",
        "dump",
        "blocks 123456abcdefgh",
        "dump",
    ]);
    assert_eq!(
        dumps(&t),
        [
            board([
                "r - - - - - b",
                "- X - - - X -",
                "- - X - X - -",
                "- - X - X - -",
                "- - X - X - -",
                "- X - - - X -",
                "b - - - - - r",
            ]),
            // A new `blocks` replaces the earlier ones.
            board([
                "r - - - - - b",
                "- - - - - - -",
                "- - - - - - -",
                "X - - - - - X",
                "- - - - - - -",
                "- - - - - - -",
                "b - - - - - r",
            ]),
            board([
                "r X X X X X b",
                "- - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "b X X X X X r",
            ]),
            board([
                "r X X X X X b",
                "X X X X X X X",
                "X X X X X X X",
                "X X X - X X X",
                "X X X X X X X",
                "X X X X X X X",
                "b X X X X X r",
            ]),
        ]
    );
    assert!(errors(&t).is_empty(), "{:?}", errors(&t));
}

#[test]
fn blocks_errors_change_nothing() {
    let t = session(&[
        "blocks 3",
        "blocks",
        "blocks 3z",
        "blocks 7",
        "blocks 3 g",
        "a7-b6",
        "blocks g", // b6 holds a piece now
        "g7-e7",
        "b6-d7",     // red jumps away from b6 (and takes e7)
        "blocks 4g", // 4 would block d7, where red now stands
        "dump",
        "blocks g", // b6 is empty, but a7-b6 could not have been played: refused
        "dump",
    ]);
    assert_eq!(
        errors(&t),
        [
            "error: usage: blocks CONFIG (e.g. 3gh)",
            "error: no block is named 'z' (use 1-6 and a-h)",
            "error: no block is named '7' (use 1-6 and a-h)",
            "error: usage: blocks CONFIG (e.g. 3gh)",
            "error: cannot block b6: a square there holds a piece",
            "error: cannot block d7: a square there holds a piece",
            "error: those blocks would make an earlier set-up move impossible (use clear first)",
        ]
    );
    let expect = board([
        "r - - r r - -",
        "- - - - - - -",
        "- - - - - - -",
        "- - X - X - -",
        "- - - - - - -",
        "- - - - - - -",
        "b - - - - - r",
    ]);
    assert_eq!(dumps(&t), [expect.clone(), expect]);
}

#[test]
fn set_up_commands_only_in_set_up() {
    let t = session(&[
        "start",
        "color blue",
        "auto",
        "blocks 3",
        "seed 4",
        "host g1",
        "join g1@localhost",
        "start",
        "dump",
    ]);
    let e = errors(&t);
    for (i, what) in ["color", "auto", "blocks", "seed", "host", "join", "start"]
        .iter()
        .enumerate()
    {
        assert_eq!(
            e[i],
            format!("error: {what} is only valid during set-up (use clear first)")
        );
    }
    assert_eq!(e.len(), 7);
}

#[test]
fn color_gives_the_opponent_the_first_move() {
    // The Player (the User) plays blue: the Opponent, an AI, is red and moves at once.
    let t = session(&["seed 1", "color blue", "start", "a7-a6", "dump"]);
    let c = chatter(&t);
    assert_eq!(c.len(), 1, "{:?}", t.lines);
    assert!(c[0].starts_with("Red moves "), "{c:?}");
    assert!(is_move_line(&c[0]));
    // The User (blue) may not move red's pieces.
    assert_eq!(
        errors(&t),
        ["error: illegal move 'a7-a6': no blue piece on a7"]
    );
    assert!(session(&["color green"]).lines[0].starts_with("error: usage: color"));
}

#[test]
fn by_default_the_user_plays_red_against_the_ai() {
    let t = session(&["start", "a7-b6", "dump"]);
    let c = chatter(&t);
    assert_eq!(c.len(), 1, "{:?}", t.lines);
    assert!(c[0].starts_with("Blue moves "), "{c:?}");
    assert!(errors(&t).is_empty());
}

/// Blocks that leave nine empty squares: a whole game takes a few AI moves.
const SMALL: &str = "blocks 123456abcdef";

#[test]
fn auto_plays_the_machine_against_itself() {
    let t = session(&["seed 11", SMALL, "auto", "start", "dump"]);
    let c = chatter(&t);
    let (last, moves) = c.split_last().expect("output");
    assert!(is_result_line(last), "{c:?}");
    assert!(
        !moves.is_empty() && moves.iter().all(|l| is_move_line(l)),
        "{c:?}"
    );
    // Red and blue alternate.
    for (i, l) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "Red " } else { "Blue " };
        assert!(l.starts_with(who), "{c:?}");
    }
    assert!(errors(&t).is_empty());
    assert_eq!(dumps(&t).len(), 1);
    // The same seed and input give the same game.
    let again = session(&["seed 11", SMALL, "auto", "start", "dump"]);
    assert_eq!(again.lines, t.lines);
}

#[test]
fn forty_five_jumps_end_the_game() {
    let cycle = ["a7-a5", "g7-g5", "a5-a7", "g5-g7"];
    let mut script: Vec<&str> = (0..44).map(|i| cycle[i % 4]).collect();
    script.extend(["dump", "start", "a7-a5", "a5-a7", "dump"]);
    let t = session(&script);
    // 25 and more jumps are fine (the 2016 rule would have ended the game); the 45th
    // ends it: two pieces each, a draw. Then moves are refused.
    assert_eq!(chatter(&t), ["Draw."]);
    assert_eq!(
        errors(&t),
        ["error: the game is over (use clear for a new game)"]
    );
    let d = dumps(&t);
    assert_eq!(d[0], board(START));
    assert_eq!(
        d[1],
        board([
            "- - - - - - b",
            "- - - - - - -",
            "r - - - - - -",
            "- - - - - - -",
            "- - - - - - -",
            "- - - - - - -",
            "b - - - - - r",
        ])
    );
}

#[test]
fn a_set_up_that_ended_the_game_is_announced_by_start() {
    let t = session(&[
        "blocks 123456abcdefgh",
        "a7-b6",
        "start",
        "start",
        "g1-f2",
        "dump",
    ]);
    assert_eq!(chatter(&t), ["Draw."]);
    assert_eq!(
        errors(&t),
        [
            "error: the set-up already ended the game (start announces the result; clear for a new one)",
            "error: start is only valid during set-up (use clear first)",
            "error: the game is over (use clear for a new game)",
        ]
    );
}

#[test]
fn clear_restores_the_defaults() {
    let t = session(&[
        "color blue",
        "auto",
        "blocks 3",
        "a7-b6",
        "clear",
        "dump",
        "start", // the User plays red again: nothing happens until red moves
        "a7-b6",
        "clear",
        "dump",
    ]);
    let d = dumps(&t);
    assert_eq!(d, [board(START), board(START)]);
    let c = chatter(&t);
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].starts_with("Blue moves "), "{c:?}");
}

#[test]
fn load_runs_a_file() {
    let dir = std::env::temp_dir().join(format!("ataxx2008-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("setup.txt");
    std::fs::write(&file, "# a set-up\nblocks 3\n\n  a7-b6  \ng7-f6\nbogus\n").unwrap();
    let path = file.to_str().unwrap().to_string();
    let load = format!("load {path}");
    let t = session(&[&load, "dump", "load /nonexistent/file"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        dumps(&t),
        [board([
            "r - - - - - b",
            "- r - - - b -",
            "- - - - - - -",
            "- - X - X - -",
            "- - - - - - -",
            "- - - - - - -",
            "b - - - - - r",
        ])]
    );
    let e = errors(&t);
    assert_eq!(e.len(), 2, "{e:?}");
    // The refused line names its file and line.
    let at = engine::protocol::quote(&path);
    assert_eq!(
        e[0],
        format!("error: {at} line 6: unknown command 'bogus' (type help)")
    );
    assert!(
        e[1].starts_with("error: cannot load '/nonexistent/file'"),
        "{e:?}"
    );
}

#[test]
fn help_summarises_the_commands() {
    let t = session(&["help"]);
    let text = t.stdout();
    for cmd in [
        "clear",
        "start",
        "quit",
        "color C",
        "auto",
        "blocks CONFIG",
        "seed N",
        "host ID",
        "join ID@HOST",
        "c0r0-c1r1",
        "dump",
        "load FILE",
        "help",
    ] {
        assert!(text.contains(cmd), "help lacks {cmd}");
    }
    let lower = text.to_ascii_lowercase();
    for word in RESERVED {
        assert!(!lower.contains(word), "help uses {word}");
    }
}

#[test]
fn errors_are_one_line_each_and_change_nothing() {
    let junk = [
        "bogus",
        "Red wins.",
        "start now",
        "color",
        "seed x",
        "seed 99999999999999999999",
        "host a-b",
        "host",
        "join nobody",
        "join g@",
        "manual red", // a 2016 command
        "block c4",   // the 2016 form
        "a7-a4",
        "g1-h1",
        "a7-b6 g7-f6",
        "load",
        "dump now",
    ];
    let mut script: Vec<&str> = junk.to_vec();
    script.push("dump");
    let t = session(&script);
    let e = errors(&t);
    assert_eq!(e.len(), junk.len(), "{e:?}");
    assert_eq!(e[1], "error: unknown command 'Red' (type help)");
    assert_eq!(dumps(&t), [board(START)]);
    assert!(chatter(&t).is_empty(), "{:?}", chatter(&t));
    for l in &e {
        let lower = l.to_ascii_lowercase();
        assert!(RESERVED.iter().all(|w| !lower.contains(w)), "{l}");
    }
}

#[test]
fn joining_nobody_fails_and_leaves_local_mode() {
    // Port 1 on loopback: nobody listens, the connection is refused at once.
    let t = session(&["join nobody@127.0.0.1:1", "start", "a7-b6", "dump"]);
    let e = errors(&t);
    assert_eq!(e.len(), 1, "{:?}", t.lines);
    assert!(e[0].starts_with("error: cannot join: "), "{e:?}");
    let c = chatter(&t);
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(c[0].starts_with("Blue moves "));
}

#[test]
fn hosting_waits_and_clear_cancels() {
    let id = common::unique_game_id("wait");
    let host = format!("host {id}");
    let t = session(&[
        &host,
        "start",
        "a7-b6",
        "color blue",
        &host,
        "dump",
        "help",
        "clear",
        "start",
        "a7-b6",
        "dump",
    ]);
    let e = errors(&t);
    let waiting =
        "error: waiting for an opponent to join: only clear, quit, help, dump, board and load now";
    assert_eq!(e, [waiting; 4]);
    let c = chatter(&t);
    assert!(c[0].starts_with(&format!("Hosting game {id} on 127.0.0.1 port ")));
    assert!(c.last().unwrap().starts_with("Blue moves "), "{c:?}");
    assert_eq!(dumps(&t).len(), 2);
}

#[test]
fn quit_and_end_of_input_exit_zero() {
    let e = Engine::spawn(ARGS);
    e.send("a7-b6");
    e.send("quit");
    e.send("dump"); // never run
    let t = e.finish(LIMIT);
    assert!(t.status.success());
    assert!(t.lines.is_empty(), "{:?}", t.lines);
    assert!(session(&["start"]).status.success());
}

#[test]
fn command_line() {
    let status = |args: &[&str]| {
        let e = Engine::spawn(args);
        e.finish(LIMIT).status.code()
    };
    assert_eq!(
        status(&["--edition", "2008", "--display", "--port", "x"]),
        Some(2)
    );
    assert_eq!(status(&["--edition", "1999"]), Some(2));
    assert_eq!(status(&["--edition"]), Some(2));
    assert_eq!(
        status(&["--edition", "2008", "--remote-timeout", "x"]),
        Some(2)
    );
    assert_eq!(
        status(&["--edition", "2008", "--listen", "nowhere"]),
        Some(2)
    );
    // The 2016 edition stays the default and can be named.
    for args in [&[][..], &["--edition", "2016"][..]] {
        let e = Engine::spawn(args);
        e.send("manual blue");
        e.send("blocks 3");
        let t = e.finish(LIMIT);
        assert_eq!(t.lines, ["error: unknown command 'blocks' (type help)"]);
    }
    // UAI is there in the 2008 edition too.
    let e = Engine::spawn(ARGS);
    e.send("uai");
    e.send("quit");
    let t = e.finish(LIMIT);
    assert_eq!(t.lines.last().map(String::as_str), Some("uaiok"));
}

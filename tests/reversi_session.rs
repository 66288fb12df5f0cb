//! The `reversi` text language end to end: scripted sessions piped into the real
//! binary, stdout compared exactly (every error followed by a `dump` that shows it
//! changed nothing), and AI games checked move by move with the library's rules.

use engine::game::{Outcome, Side};
use engine::games::reversi::{Move, Position};
use engine::protocol::text::reversi::{parse_ai_move_line, SPEC};
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// Runs the binary on `input` (in `dir`), killing it after a minute; stdout and status.
fn session_in(dir: &std::path::Path, input: &str) -> (String, i32) {
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start reversi");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let pid = child.id();
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("reversi output");
    let _ = tx.send(());
    (
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        out.status.code().unwrap_or(-1),
    )
}

fn session(input: &str) -> String {
    let (out, status) = session_in(std::path::Path::new("."), input);
    assert_eq!(status, 0, "{out}");
    out
}

/// A dump block (with its final newline) for 8 rows.
fn dump(rows: [&str; 8], user: &str, moves: u32) -> String {
    let mut s = String::from("===\n");
    for r in rows {
        s.push_str(r);
        s.push('\n');
    }
    s.push_str(&format!("User: {user}\nMoves: {moves}\n===\n"));
    s
}

const E: &str = "- - - - - - - -";

fn start_dump() -> String {
    dump(
        [E, E, E, "- - - w b - - -", "- - - b w - - -", E, E, E],
        "black",
        0,
    )
}

/// The 9-move game that ends with white wiped out (set-up moves).
const SHORT_GAME: &str = "d3\nc3\nb3\nd2\ne1\nd6\nd7\ne3\nf4\n";

fn short_game_dump(user: &str) -> String {
    dump(
        [
            "- - - - b - - -",
            "- - - b - - - -",
            "- b b b b - - -",
            "- - - b b b - -",
            "- - - b b - - -",
            "- - - b - - - -",
            "- - - b - - - -",
            E,
        ],
        user,
        9,
    )
}

#[test]
fn dump_of_the_start_position() {
    assert_eq!(session("dump\n"), start_dump());
    assert_eq!(
        session("  DUMP   # comment\n\n# only a comment\n"),
        start_dump()
    );
}

#[test]
fn every_error_changes_nothing() {
    let cases = [
        ("start now", "error: usage: start"),
        ("clear 1", "error: usage: clear"),
        ("quit now", "error: usage: quit"),
        ("auto black", "error: usage: auto"),
        ("manual 2", "error: usage: manual"),
        ("resign x", "error: usage: resign"),
        ("help me", "error: usage: help"),
        ("dump x", "error: usage: dump"),
        ("resign", "error: no game is in progress"),
        ("color green", "error: usage: color black|white"),
        ("color", "error: usage: color black|white"),
        ("seed x", "error: usage: seed N (a 64-bit integer)"),
        (
            "seed 18446744073709551616",
            "error: usage: seed N (a 64-bit integer)",
        ),
        (
            "e3",
            "error: illegal move 'e3': e3 turns over no white piece",
        ),
        ("d4", "error: illegal move 'd4': d4 is occupied"),
        (
            "-",
            "error: illegal move '-': black can place a piece, so it cannot skip",
        ),
        (
            "i9",
            "error: illegal move 'i9': no square i9 on the board (a1..h8)",
        ),
        ("d3 d3", "error: unknown command 'd3' (type help)"),
        ("Black wins.", "error: unknown command 'Black' (type help)"),
        ("load", "error: usage: load FILE"),
        (
            "load a b",
            "error: cannot load 'a b': No such file or directory (os error 2)",
        ),
        (
            "load /nonexistent/reversi-x",
            "error: cannot load '/nonexistent/reversi-x': No such file or directory (os error 2)",
        ),
    ];
    for (input, error) in cases {
        assert_eq!(
            session(&format!("{input}\ndump\n")),
            format!("{error}\n{}", start_dump()),
            "{input}"
        );
    }
}

#[test]
fn errors_during_a_game_change_nothing() {
    let after_d3_c5 = dump(
        [
            E,
            E,
            "- - - b - - - -",
            "- - - b b - - -",
            "- - w w w - - -",
            E,
            E,
            E,
        ],
        "black",
        2,
    );
    let input = "start\ncolor white\nauto\nmanual\nseed 5\nclear\nstart\nd3\ndump\n\
                 e3\nc3\nd3\ndump\n";
    let expected = format!(
        "error: color is only valid when no game is in progress\n\
         error: auto is only valid when no game is in progress\n\
         error: manual is only valid when no game is in progress\n\
         error: seed is only valid when no game is in progress\n\
         error: clear is refused while a game is in progress (resign first)\n\
         error: a game is already in progress\n\
         White moves c5.\n{after_d3_c5}\
         error: illegal move 'e3': e3 turns over no white piece\n\
         error: illegal move 'c3': c3 turns over no white piece\n\
         error: illegal move 'd3': d3 is occupied\n{after_d3_c5}"
    );
    assert_eq!(session(input), expected);
}

#[test]
fn set_up_moves_alternate_and_count() {
    let out = session("d3\nc3\ndump\nclear\ndump\n");
    let after = dump(
        [
            E,
            E,
            "- - w b - - - -",
            "- - - w b - - -",
            "- - - b w - - -",
            E,
            E,
            E,
        ],
        "black",
        2,
    );
    assert_eq!(out, format!("{after}{}", start_dump()));
}

#[test]
fn color_auto_manual_seed_survive_clear() {
    let out = session("color white\nseed 9\nauto\nmanual\nclear\ndump\ncolor BLACK\ndump\n");
    let white = start_dump().replace("User: black", "User: white");
    assert_eq!(out, format!("{white}{}", start_dump()));
}

#[test]
fn a_game_won_by_set_up_is_announced_by_start() {
    let input = format!("{SHORT_GAME}dump\nc4\n-\nstart\ndump\nstart\nd3\nresign\nclear\ndump\n");
    let expected = format!(
        "{}\
         error: the set-up already ended the game (start announces the result; clear for a new one)\n\
         error: the set-up already ended the game (start announces the result; clear for a new one)\n\
         Black wins.\n{}\
         error: the game is over (use clear for a new game)\n\
         error: the game is over (use clear for a new game)\n\
         error: no game is in progress\n{}",
        short_game_dump("black"),
        short_game_dump("black"),
        start_dump()
    );
    assert_eq!(session(&input), expected);
}

#[test]
fn resign_gives_the_opponent_the_game() {
    assert_eq!(
        session("start\nresign\ndump\n"),
        format!("White wins.\n{}", start_dump())
    );
    let white = start_dump().replace("User: black", "User: white");
    // The Player plays white: the AI (black) moves first, then white resigns.
    let out = session("color white\nseed 4\nstart\nresign\nd3\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        parse_ai_move_line(lines[0]).map(|(s, _)| s),
        Some(Side::First)
    );
    assert_eq!(lines[1], "Black wins.");
    assert_eq!(
        lines[2],
        "error: the game is over (use clear for a new game)"
    );
    assert_eq!(session("color white\nclear\ndump\n"), white);
}

#[test]
fn the_user_passes_only_when_forced() {
    // After these 8 set-up moves black, to move, has no placement.
    let setup = "d3\nc3\nb3\nb2\nf5\na3\na1\nc1\n";
    let before = dump(
        [
            "b - w - - - - -",
            "- w - - - - - -",
            "w w b b - - - -",
            "- - - b b - - -",
            "- - - b b b - -",
            E,
            E,
            E,
        ],
        "black",
        8,
    );
    let out = session(&format!("{setup}dump\nstart\nd4\ne3\ndump\n-\n"));
    let mut lines = out.lines();
    let head: String = lines.by_ref().take(12).map(|l| format!("{l}\n")).collect();
    assert_eq!(head, before);
    assert_eq!(
        lines.next(),
        Some("error: illegal move 'd4': d4 is occupied")
    );
    assert_eq!(
        lines.next(),
        Some("error: illegal move 'e3': black has no placement: skip the turn with -")
    );
    let again: String = lines.by_ref().take(12).map(|l| format!("{l}\n")).collect();
    assert_eq!(again, before);
    // The pass is accepted; the AI answers.
    let answer = lines.next().expect("an AI line");
    assert_eq!(
        parse_ai_move_line(answer).map(|(s, _)| s),
        Some(Side::Second),
        "{answer}"
    );
}

#[test]
fn help_avoids_reserved_words() {
    let out = session("help\n");
    assert!(out.starts_with("Commands"));
    assert!(out.contains("resign") && out.contains("load FILE"));
    let lower = out.to_ascii_lowercase();
    for w in ["wins", "passes", "moves", "draw", "==="] {
        assert!(!lower.contains(w), "{w}");
    }
}

#[test]
fn load_runs_a_file_and_nests() {
    let dir = std::env::temp_dir().join(format!("reversi-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("inner.txt"), "c3 # white\n").unwrap();
    std::fs::write(dir.join("outer.txt"), "d3\nload inner.txt\nbogus\n").unwrap();
    std::fs::write(dir.join("self.txt"), "load self.txt\n").unwrap();
    let (out, status) = session_in(&dir, "load outer.txt\ndump\nload self.txt\ndump\n");
    assert_eq!(status, 0);
    let after = dump(
        [
            E,
            E,
            "- - w b - - - -",
            "- - - w b - - -",
            "- - - b w - - -",
            E,
            E,
            E,
        ],
        "black",
        2,
    );
    assert_eq!(
        out,
        format!(
            "error: 'outer.txt' line 3: unknown command 'bogus' (type help)\n{after}\
             error: 'self.txt' line 1: cannot load: files nested too deeply\n{after}"
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replays an AI-vs-AI transcript: every line but the last is a legal move of the side
/// to move, the last is the result the rules give.
fn check_game(out: &str) -> usize {
    let mut pos = Position::startpos();
    let lines: Vec<&str> = out.lines().collect();
    let (last, moves) = lines.split_last().expect("output");
    for line in moves {
        let (side, text) = parse_ai_move_line(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(side, pos.side_to_move(), "{line}");
        let mv = Move::parse_text(&text).unwrap();
        assert!(pos.is_legal(mv), "{line}");
        pos.make_move(mv);
    }
    assert!(pos.is_over());
    assert_eq!(SPEC.parse_result_line(last), pos.outcome(), "{last}");
    assert!(matches!(
        SPEC.parse_result_line(last),
        Some(Outcome::Win(_) | Outcome::Draw)
    ));
    moves.len()
}

#[test]
fn ai_against_ai_finishes_and_a_seed_repeats() {
    let input = "seed 3\nauto\nstart\ndump\n";
    let a = session(input);
    let b = session(input);
    assert_eq!(a, b, "same seed, same game");
    let game: String = a
        .lines()
        .take_while(|l| *l != "===")
        .map(|l| format!("{l}\n"))
        .collect();
    let n = check_game(&game);
    assert!(n >= 9);
    assert!(
        a.ends_with(&format!("User: black\nMoves: {n}\n===\n")),
        "{a}"
    );
}

#[test]
fn board_shows_coordinates_and_whose_turn() {
    let out = session("d3\nboard\ndump\n");
    let want = "  a b c d e f g h\n\
                1 . . . . . . . .\n\
                2 . . . . . . . .\n\
                3 . . * x * . . .\n\
                4 . . . x x . . .\n\
                5 . . * x o . . .\n\
                6 . . . . . . . .\n\
                7 . . . . . . . .\n\
                8 . . . . . . . .\n\
                white (o) to play; black 4 white 1\n";
    assert!(out.starts_with(want), "{out}");
    // It changes nothing: the dump after it is the set-up move's.
    assert!(out.ends_with("User: black\nMoves: 1\n===\n"), "{out}");
    assert!(session("board x\n").starts_with("error: usage: board"));
}

//! Random junk typed at the text language never crashes the program ([`junk_session_never_crashes`],
//! written once for every dialect: status 0, no panic, UTF-8 output, each error one short
//! line in the dialect's own form); where the junk is predicted line by line (Ataxx) it
//! never changes the state either: each junk line gets exactly one error line, the board
//! is unchanged, and the program still plays afterwards. Errors that say why, `load`'s
//! errors and the byte order mark, in each game's language.

use crate::common;

use common::Engine;
use engine::protocol::text::kit::{Errors, Masked};
use engine::variant::Playable;
use std::time::Duration;

/// Runs `bin args` on `input` (junk between the lines that set the session up and
/// check it) and checks what every dialect promises of junk: status 0, no panic, UTF-8
/// output, every error line in the dialect's form (`error: ` on stdout, or `Error: `
/// and `Note: ` on stderr), short, without escapes or the words the dialect masks; and
/// `errors` error lines if given. Returns stdout.
fn junk_session_never_crashes<D: Playable>(
    bin: &str,
    args: &[&str],
    input: &[u8],
    errors: Option<usize>,
) -> String {
    let program = Engine::spawn_bin(bin, args);
    program.send_bytes(input);
    let run = program.finish(Duration::from_secs(60));
    let (status, err) = (run.status, &run.stderr);
    assert!(status.success(), "exit status {status}; stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(run.invalid_utf8_lines, 0, "output is not UTF-8");
    let out = run.stdout();
    // The error lines (and on stderr, the notes beside them).
    let (lines, prefix): (Vec<&str>, &str) = match D::SPEC.errors {
        Errors::Stdout => (
            out.lines().filter(|l| l.starts_with("error: ")).collect(),
            "error: ",
        ),
        Errors::Stderr => {
            for l in err.lines() {
                assert!(l.starts_with("Error: ") || l.starts_with("Note: "), "{l}");
            }
            (err.lines().collect(), "Error: ")
        }
    };
    if let Some(n) = errors {
        let count = lines.iter().filter(|l| l.starts_with(prefix)).count();
        assert_eq!(count, n, "one error line per junk line");
    }
    for l in lines {
        assert!(l.len() < 200 && !l.contains('\u{1b}'), "{l}");
        if let Masked::Words(words) = D::SPEC.masked {
            let low = l.to_lowercase();
            for word in words {
                assert!(!low.contains(word), "reserved word in {l:?}");
            }
        }
    }
    out
}

mod ataxx {
    //! The 2016 edition, with every junk line's effect predicted by the language's own
    //! parser.

    use super::junk_session_never_crashes;
    use engine::games::ataxx::{Position, Rules};
    use engine::protocol::text::ataxx::{parse, AtaxxText, Command};
    use engine::protocol::text::kit::Common;
    use engine::rng::SplitMix64;

    const WORDS: &[&str] = &[
        "clear",
        "start",
        "quit",
        "auto",
        "manual",
        "block",
        "seed",
        "dump",
        "help",
        "load",
        "board",
        "red",
        "blue",
        "green",
        "a7-b6",
        "a1-b1",
        "g1-h1",
        "a7-a4",
        "b7c7",
        "-",
        "--",
        "a0-a1",
        "z9",
        "d4",
        "99999999999999999999999",
        "-5",
        "#",
        "é",
        "\t",
        "ñ-ñ",
        "a7-",
        "-a7",
        "a7--b6",
        "RED",
        "Auto",
        "x",
        "0000",
        "f2",
        "uai",
        "isready",
    ];

    /// A junk line as bytes (no newline), sometimes invalid UTF-8.
    fn junk(rng: &mut SplitMix64) -> Vec<u8> {
        match rng.below(4) {
            0 => (0..1 + rng.below(39))
                .map(|_| 1 + rng.below(255) as u8)
                .filter(|&b| b != b'\n')
                .collect(),
            _ => {
                let n = 1 + rng.below(4);
                let words: Vec<&str> = (0..n).map(|_| *rng.choose(WORDS).unwrap()).collect();
                words.join(" ").into_bytes()
            }
        }
    }

    /// What the program will do with `line` in the playing state with both players manual
    /// and the start position on the board: `Some(true)` = one error line, `Some(false)` =
    /// nothing, `None` = the line would legitimately change state (not junk; skipped).
    fn expected_errors(line: &[u8], pos: &Position) -> Option<bool> {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches(['\r', '\n']);
        match parse(text) {
            Err(_) => Some(true),
            Ok(None) => Some(false),
            Ok(Some(Command::Move(m))) => m.resolve(pos).is_none().then_some(true),
            Ok(Some(
                Command::Auto(_)
                | Command::Manual(_)
                | Command::Common(Common::Seed(_))
                | Command::Block(_)
                | Command::Start,
            )) => Some(true),
            Ok(Some(_)) => None,
        }
    }

    #[test]
    fn junk_never_crashes_or_changes_state() {
        let pos = Position::startpos(Rules::Text);
        let mut rng = SplitMix64::new(99);
        let mut input: Vec<u8> = b"manual blue\nstart\ndump\n".to_vec();
        let mut errors = 0;
        let mut lines = 0;
        while lines < 3000 {
            let line = junk(&mut rng);
            let Some(err) = expected_errors(&line, &pos) else {
                continue;
            };
            errors += err as usize;
            lines += 1;
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        input.extend_from_slice(b"dump\na7-b6\ndump\n");

        // One error line each, none with a reserved word (the language masks them).
        let out =
            junk_session_never_crashes::<AtaxxText>(crate::common::BIN, &[], &input, Some(errors));
        let dumps: Vec<&str> = out.split("===\n").filter(|s| s.starts_with("  ")).collect();
        assert_eq!(dumps.len(), 3, "three dumps in {out}");
        assert_eq!(dumps[0], dumps[1], "junk changed the board");
        assert_eq!(dumps[0].lines().next(), Some("  r - - - - - b"));
        assert_eq!(
            dumps[2].lines().nth(1),
            Some("  - r - - - - -"),
            "the program still plays"
        );
    }
}

mod loa {
    //! LOA's text language: random words and bytes, and a line far over the length limit.

    use super::junk_session_never_crashes;
    use engine::protocol::text::loa::LoaText;
    use engine::rng::SplitMix64;

    #[test]
    fn junk_never_crashes() {
        let mut rng = SplitMix64::new(0x10A_7C4B);
        let words = [
            "new",
            "auto",
            "manual",
            "set",
            "seed",
            "limit",
            "dump",
            "help",
            "?",
            "black",
            "white",
            "-",
            "b1-d3",
            "a3-d3",
            "a1",
            "h8",
            "99999999999999999999",
            "-1",
            "0",
            "#",
            "*",
            "===",
            ">",
            "\u{0}",
            "\u{1b}[2J",
            "é",
            "\t",
            "b1--d3",
            "z9-a1",
        ];
        let mut input = Vec::new();
        for _ in 0..400 {
            let n = rng.below(5);
            let line: Vec<&str> = (0..n).map(|_| words[rng.below(words.len())]).collect();
            input.extend_from_slice(line.join(" ").as_bytes());
            input.push(b'\n');
            if rng.below(40) == 0 {
                input.extend((0..rng.below(200)).map(|_| rng.below(256) as u8));
                input.push(b'\n');
            }
        }
        input.extend(std::iter::repeat_n(b'x', 70_000));
        input.extend_from_slice(b"\ndump\n");
        let out =
            junk_session_never_crashes::<LoaText>(env!("CARGO_BIN_EXE_loa"), &[], &input, None);
        assert!(out.trim_end().ends_with("==="));
    }
}

/// Errors that say why (item 13 of issue 25): the illegal move's reason, the extra
/// word after a move, the bad square of `block`.
#[test]
fn errors_say_why() {
    let ataxx = env!("CARGO_BIN_EXE_ataxx");
    let reversi = env!("CARGO_BIN_EXE_reversi");
    for (bin, input, want) in [
        (
            ataxx,
            "a1-a2",
            "error: illegal move 'a1-a2': no red piece on a1",
        ),
        (
            ataxx,
            "a7-a4",
            "error: illegal move 'a7-a4': a4 is too far from a7 (one or two squares)",
        ),
        (
            ataxx,
            "a7-b6\na7-b6",
            "error: illegal move 'a7-b6': no blue piece on a7",
        ),
        (
            ataxx,
            "a7-b6\ng7-f6\nb6-c5\nf6-e5\nb6-c5",
            "error: illegal move 'b6-c5': c5 is occupied",
        ),
        (
            ataxx,
            "block d4\na7-c5\ng7-f7\nc5-d4",
            "error: illegal move 'c5-d4': d4 is blocked",
        ),
        (
            ataxx,
            "-",
            "error: illegal move '-': red has a move, so it cannot pass",
        ),
        (
            ataxx,
            "g7-f7 extra",
            "error: unexpected 'extra' after the move 'g7-f7' (one move a line)",
        ),
        (
            ataxx,
            "block z9",
            "error: block: no square 'z9' on the board (a1..g7)",
        ),
        (reversi, "d4", "error: illegal move 'd4': d4 is occupied"),
        (
            reversi,
            "a1",
            "error: illegal move 'a1': a1 turns over no white piece",
        ),
        (
            reversi,
            "-",
            "error: illegal move '-': black can place a piece, so it cannot skip",
        ),
    ] {
        let out = std::process::Command::new(bin)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin
                    .take()
                    .unwrap()
                    .write_all(format!("{input}\n").as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.lines().any(|l| l == want), "{input:?}: {text}");
    }
}

/// A refused line inside a `load`ed file names the file and line; a file name may hold
/// blanks (item 13 of issue 25).
#[test]
fn load_names_the_file_and_line_of_a_refused_line() {
    let dir = std::env::temp_dir().join(format!("load-where-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my cmds.txt"), "a7-b6\nbogus\n\ng7-f6 extra\n").unwrap();
    for (bin, args, input, want) in [
        (
            env!("CARGO_BIN_EXE_ataxx"),
            &[][..],
            "load my cmds.txt\n",
            &[
                "error: 'my cmds.txt' line 2: unknown command 'bogus' (type help)",
                "error: 'my cmds.txt' line 4: unexpected 'extra' after the move 'g7-f6' (one move a line)",
            ][..],
        ),
        (
            env!("CARGO_BIN_EXE_ataxx"),
            &["--edition", "2008"],
            "load \"my cmds.txt\"\n",
            &["error: 'my cmds.txt' line 2: unknown command 'bogus' (type help)"],
        ),
        (
            env!("CARGO_BIN_EXE_reversi"),
            &[],
            "load   my cmds.txt  # a comment\n",
            &["error: 'my cmds.txt' line 2: unknown command 'bogus' (type help)"],
        ),
    ] {
        let out = std::process::Command::new(bin)
            .args(args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(input.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        for w in want {
            assert!(text.lines().any(|l| l == *w), "{bin} {input:?}: {text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `load` streams its file with the bound stdin has: an endless one-line file
/// (`/dev/zero`) gets its one error line at once and its load ends there (issue 53 item
/// 8: it used to skip the endless line for ever, at full CPU, answering nothing more),
/// while the program's memory stays bounded (here by `ulimit -v`; reading the whole file
/// would exhaust it and abort).
#[test]
fn load_of_an_endless_file_ends_at_its_over_long_line() {
    let script = format!("ulimit -v 1048576 && exec '{}'", common::BIN);
    let program = Engine::spawn_bin("sh", &["-c", &script]);
    program.send("load /dev/zero");
    let want = "error: '/dev/zero' line 1: line too long (the limit is 65536 bytes); \
                the rest of the file is not read";
    let seen = program.wait_for(Duration::from_secs(20), |l| l.starts_with("error: "));
    assert_eq!(
        seen.last().map(String::as_str),
        Some(want),
        "stderr: {}",
        program.stderr_tail(2000)
    );
    // The session reads its input again: the next line is answered.
    program.send("dump");
    let board = program.wait_for(Duration::from_secs(10), |l| l == "===");
    assert_eq!(board.last().map(String::as_str), Some("==="), "{board:?}");
    program.send("quit");
    assert!(program.expect_exit(Duration::from_secs(10)).success());
}

/// An over-long line inside a `load`ed file ends the load with one error line naming
/// it; the lines before it have run, the ones after it are not read.
#[test]
fn load_stops_at_an_over_long_line() {
    let dir = std::env::temp_dir().join(format!("load-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = b"a7-b6\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 200_000));
    text.extend_from_slice(b"\nbogus\r\ng7-f6\ndump");
    std::fs::write(dir.join("long.txt"), &text).unwrap();
    let program = Engine::spawn_in(&dir, &[]).unwrap();
    program.send("load long.txt");
    program.send("dump");
    let run = program.finish(Duration::from_secs(20));
    let _ = std::fs::remove_dir_all(&dir);
    let errors: Vec<&str> = run
        .lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(
        errors,
        [
            "error: 'long.txt' line 2: line too long (the limit is 65536 bytes); \
          the rest of the file is not read"
        ]
    );
    // a7-b6 ran (red's piece grew); g7-f6 and the file's dump did not.
    let out = run.stdout();
    assert_eq!(out.matches("===\n").count(), 2, "{out}");
    assert!(
        out.contains("===\n  r - - - - - b\n  - r - - - - -\n"),
        "{out}"
    );
}

/// A move onto its own square is not a move, and a move typed with blanks inside gets a
/// hint (issue 53 items 5 and 6), in each Ataxx edition's own error form.
#[test]
fn a_null_move_and_a_spaced_move_say_what_they_are() {
    for (edition, form) in [
        (&[][..], "error: "),
        (&["--edition", "2008"][..], "error: "),
        (&["--edition", "2022"][..], "Error: "),
    ] {
        for (input, want) in [
            (
                "g1-g1",
                "illegal move 'g1-g1': not a move: a piece must go to another square",
            ),
            (
                "a7-a7",
                "illegal move 'a7-a7': not a move: a piece must go to another square",
            ),
            (
                "A7 - B5",
                "unknown command 'A7' (a move has no blanks inside: a7-b5)",
            ),
            (
                "g1 -f2",
                "unknown command 'g1' (a move has no blanks inside: g1-f2)",
            ),
            (
                "g1- f2",
                "unknown command 'g1-' (a move has no blanks inside: g1-f2)",
            ),
        ] {
            let text = run_lines(env!("CARGO_BIN_EXE_ataxx"), edition, input);
            let want = format!("{form}{want}");
            assert!(
                text.lines().any(|l| l == want),
                "{edition:?} {input:?}: want {want:?} in {text}"
            );
        }
    }
}

/// Stdout then stderr of `bin args` given `input` and the end of input.
fn run_lines(bin: &str, args: &[&str], input: &str) -> String {
    let out = std::process::Command::new(bin)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(format!("{input}\n").as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Off-board squares name the reason, moves in the UAI or UGI notation get a hint (item
/// 8 of the issue), in each game's text language; errors go to stdout except LOA's.
#[test]
fn off_board_squares_and_other_notations_say_why() {
    let ataxx = env!("CARGO_BIN_EXE_ataxx");
    let loa = env!("CARGO_BIN_EXE_loa");
    let reversi = env!("CARGO_BIN_EXE_reversi");
    for (bin, args, input, want) in [
        (
            ataxx,
            &[][..],
            "h1-g2",
            "error: illegal move 'h1-g2': no square h1 on the board (a1..g7)",
        ),
        (
            ataxx,
            &[],
            "a7-a0",
            "error: illegal move 'a7-a0': no square a0 on the board (a1..g7)",
        ),
        (
            ataxx,
            &[],
            "a7b5",
            "error: unknown command 'a7b5' (a move is written a7-b5)",
        ),
        (
            ataxx,
            &[],
            "a7--b6",
            "error: illegal move 'a7--b6': a move is two squares joined by -, e.g. a7-b6",
        ),
        (
            ataxx,
            &["--edition", "2008"],
            "h1-g2",
            "error: illegal move 'h1-g2': no square h1 on the board (a1..g7)",
        ),
        (
            ataxx,
            &["--edition", "2008"],
            "a7b5",
            "error: unknown command 'a7b5' (a move is written a7-b5)",
        ),
        (
            reversi,
            &[],
            "z9",
            "error: illegal move 'z9': no square z9 on the board (a1..h8)",
        ),
        (
            reversi,
            &[],
            "i1",
            "error: illegal move 'i1': no square i1 on the board (a1..h8)",
        ),
        (
            loa,
            &[],
            "b1-b9",
            "Error: malformed move 'b1-b9': no square b9 on the board (a1..h8)",
        ),
        (
            loa,
            &[],
            "b1b3",
            "Error: unknown command 'b1b3' (a move is written b1-b3)",
        ),
    ] {
        let text = run_lines(bin, args, input);
        assert!(
            text.lines().any(|l| l == want),
            "{args:?} {input:?}: {text}"
        );
    }
}

/// A UTF-8 byte order mark at the very start of a script (stdin, or a `load`ed file)
/// is not part of its first command; elsewhere it is text like any other.
#[test]
fn a_byte_order_mark_starting_a_script_is_ignored() {
    let dir = std::env::temp_dir().join(format!("bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bom.txt"), "\u{feff}dump\n").unwrap();
    for (bin, input, want) in [
        (
            env!("CARGO_BIN_EXE_ataxx"),
            "\u{feff}dump\n",
            "  r - - - - - b",
        ),
        (
            env!("CARGO_BIN_EXE_ataxx"),
            "load bom.txt\n",
            "  r - - - - - b",
        ),
        (env!("CARGO_BIN_EXE_ataxx"), "\u{feff}uai\n", "uaiok"),
        (
            env!("CARGO_BIN_EXE_loa"),
            "\u{feff}dump\n",
            "    - b b b b b b -",
        ),
        (env!("CARGO_BIN_EXE_reversi"), "\u{feff}dump\n", "Moves: 0"),
        (env!("CARGO_BIN_EXE_reversi"), "load bom.txt\n", "Moves: 0"),
    ] {
        let out = std::process::Command::new(bin)
            .current_dir(&dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(input.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            text.lines().any(|l| l == want) && !text.contains("rror"),
            "{bin} {input:?}: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

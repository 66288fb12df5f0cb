//! The `loa` command line: the course program's options (`--display`, `--log`,
//! `--strict`, `--debug`, input and output files, unknown options), the shared ones
//! (`perft`, `bench`), same seed → same game, and junk input that must never crash it.

use crate::loa_harness_support;

use engine::rng::SplitMix64;
use loa_harness_support::{scratch_dir, BIN};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Runs `loa args` in `dir` with `input` on stdin; killed after 60 s.
fn run_in(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting loa");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let pid = child.id();
    let (tx, rx) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("waiting for loa");
    let _ = tx.send(());
    let _ = watchdog.join();
    out
}

fn dir(name: &str) -> PathBuf {
    scratch_dir(&format!("cli-{name}"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const START_DUMP: &str = "===\n    - b b b b b b -\n    w - - - - - - w\n    w - - - - - - w\n    \
     w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    \
     - b b b b b b -\nNext move: black\n===\n";

#[test]
fn display_and_bad_options() {
    let d = dir("options");
    // `--display` serves the board beside stdin, which still works: `quit` ends it.
    let out = run_in(&d, &["--display"], b"quit\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("http://127.0.0.1:"));
    for bad in [
        &["--bogus"][..],
        &["--log="],
        &["--debug=x"],
        &["-q"],
        &["a", "b", "c"],
    ] {
        let out = run_in(&d, bad, b"dump\n");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
        assert!(text(&out.stderr).contains("usage: loa"), "{bad:?}");
    }
    let out = run_in(&d, &["--help"], b"");
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("usage: loa"));
    let out = run_in(&d, &["--version"], b"");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        format!("loa {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = run_in(&d, &["--debug=0"], b"dump\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), START_DUMP);
    assert!(out.stderr.is_empty());
}

#[test]
fn input_and_output_files() {
    let d = dir("files");
    std::fs::write(
        d.join("in.txt"),
        "# a file of commands\nmanual white\nb1-d3\ndump\nnew\ndump\n",
    )
    .unwrap();
    // Output to a file: stdout stays empty.
    let out = run_in(&d, &["in.txt", "out.txt"], b"ignored\n");
    assert!(out.status.success());
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let written = std::fs::read_to_string(d.join("out.txt")).unwrap();
    assert!(written.ends_with(START_DUMP) && written.contains("Next move: white"));
    // Input from a file, output on stdout; `-` reads stdin.
    let out = run_in(&d, &["in.txt"], b"");
    assert_eq!(text(&out.stdout), written);
    let out = run_in(&d, &["-"], b"dump\n");
    assert_eq!(text(&out.stdout), START_DUMP);
    let out = run_in(&d, &["-", "out2.txt"], b"dump\n");
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(d.join("out2.txt")).unwrap(),
        START_DUMP
    );
    // Files that cannot be opened: one line on stderr, status 1.
    for args in [
        &["missing.txt"][..],
        &["in.txt", "no/such/dir/out.txt"],
        &["--log=no/such/dir/x.log"],
    ] {
        let out = run_in(&d, args, b"dump\n");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty());
        assert_eq!(text(&out.stderr).lines().count(), 1, "{args:?}");
    }
}

#[test]
fn the_log_replays_the_session() {
    let d = dir("log");
    let session = "seed 77\nb1-d3\nbogus\nauto black\nlimit 6\n";
    let first = run_in(&d, &["--log=game.log"], session.as_bytes());
    assert!(first.status.success());
    let log = std::fs::read_to_string(d.join("game.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[..2], ["seed 77", "b1-d3"]);
    assert!(lines[2].starts_with("# white AI: "), "{log}");
    assert!(lines.contains(&"bogus") && lines.contains(&"limit 6"));
    assert!(lines.iter().any(|l| l.starts_with("# black AI: ")), "{log}");
    // Appending: a second session adds to the file.
    let again = run_in(&d, &["--log=game.log"], b"dump\n");
    assert!(again.status.success());
    let longer = std::fs::read_to_string(d.join("game.log")).unwrap();
    assert_eq!(longer, format!("{log}dump\n"));
    // Feeding the first log back replays the same game, move for move.
    let replay = run_in(&d, &[], log.as_bytes());
    assert_eq!(text(&replay.stdout), text(&first.stdout));
    assert!(text(&first.stdout).contains("* "), "the AIs moved");
}

#[test]
fn strict_ends_on_an_erroneous_move() {
    let d = dir("strict");
    let input = b"bogus\nseed 3\nb1-b2\ndump\n";
    let relaxed = run_in(&d, &[], input);
    assert!(relaxed.status.success());
    assert_eq!(text(&relaxed.stdout), START_DUMP);
    let strict = run_in(&d, &["--strict"], input);
    assert_eq!(strict.status.code(), Some(1));
    assert!(strict.stdout.is_empty(), "ended before the dump");
    let err = text(&strict.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    // Other errors are not moves: strict carries on after them.
    let out = run_in(&d, &["--strict"], b"limit x\nset z9 - black\ndump\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), START_DUMP);
    // A malformed move and a move after the end count too.
    for input in [
        &b"b1-b9\ndump\n"[..],
        b"manual white\nlimit 1\nb1-d3\na3-d3\nb8-b6\ndump\n",
    ] {
        let out = run_in(&d, &["--strict"], input);
        assert_eq!(out.status.code(), Some(1));
        assert!(!text(&out.stdout).contains("Next move"));
    }
}

#[test]
fn same_seed_same_game() {
    let d = dir("seed");
    let game = |seed: u64| {
        let out = run_in(&d, &[], format!("seed {seed}\nauto black\n").as_bytes());
        assert!(out.status.success());
        let s = text(&out.stdout);
        assert!(
            s.lines()
                .last()
                .is_some_and(|l| l.ends_with("wins.") || l == "* Tie game."),
            "{s}"
        );
        s
    };
    let a = game(5);
    assert_eq!(a, game(5));
    assert_ne!(a, game(6), "another seed, another game");
}

#[test]
fn perft_and_bench() {
    let d = dir("perft");
    let out = run_in(&d, &["perft", "3"], b"");
    assert!(out.status.success());
    assert!(
        text(&out.stdout).starts_with("nodes 44952 "),
        "{}",
        text(&out.stdout)
    );
    let out = run_in(&d, &["perft", "2", "4o3/8/8/4x3/3o4/2o5/8/3xx3", "o"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run_in(&d, &["bench", "2"], b"");
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("nodes "));
    let out = run_in(&d, &["perft", "x"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn junk_never_crashes() {
    let d = dir("junk");
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
    let out = run_in(&d, &[], &input);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    for l in err.lines() {
        assert!(l.starts_with("Error: ") || l.starts_with("Note: "), "{l}");
        assert!(l.len() < 200 && !l.contains('\u{1b}'), "{l}");
    }
    assert!(text(&out.stdout).trim_end().ends_with("==="));
}

//! What the tournament crate's test binaries share.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The runner under test, the `tournament` binary.
pub const TOURNAMENT: &str = env!("CARGO_BIN_EXE_tournament");

/// The misbehaving engine of the tests (`src/bin/fake-engine.rs`).
pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// One of our engine binaries (`ataxx`, `loa`, `reversi`) beside the runner, from the
/// same target directory and profile. `cargo test -p tournament` does not build the
/// engine crate's binaries, so it is built here (a no-op when it is up to date, and
/// never a stale binary from an older build).
pub fn engine_binary(bin: &str) -> PathBuf {
    testkit::sibling_binary(TOURNAMENT, "ataxx-engine", bin)
}

/// Runs the runner with `args` and no input, to its end: every suite drives it so.
pub fn run(args: &[&str]) -> Output {
    Command::new(TOURNAMENT)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run tournament")
}

/// [`run`] for a command line built as owned strings.
pub fn run_strings(args: &[String]) -> Output {
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A fresh scratch directory for test `name` of suite `suite` (suites share one process,
/// so the suite keeps their names apart).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tournament-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A results file's games, one JSON value a line (a test's run wrote it whole).
pub fn results_json(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The games of a results file written so far, for a run that may still be writing
/// it (or have written nothing): none before the file exists, and a line not yet
/// whole is left out.
pub fn results_so_far(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Asserts that `text` (what a run printed, or a file it wrote) contains `part`,
/// showing the whole text when it does not: the suites' most common check.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A match slow enough to interrupt: 16 games of a fake engine that takes 5 ms a move
/// against the greedy built-in (add the concurrency, results and shard words).
pub fn slow_match() -> Vec<String> {
    [
        "-engine",
        &format!("cmd={FAKE}"),
        "name=fake",
        "args=--slow 5",
        "st=0.5",
        "-engine",
        "builtin=greedy",
        "-games",
        "2",
        "-rounds",
        "8",
        "-repeat",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// True once process `pid` has exited (within a few seconds): no such process, or a
/// zombie that its new parent has not reaped yet (Linux: read from /proc).
pub fn process_gone(pid: u32) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return true;
        };
        // The state follows the command name, which is in parentheses.
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        if state.starts_with('Z') || state.starts_with('X') {
            return true;
        }
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

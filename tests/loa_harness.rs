//! The `#*` integration harness (see `loa_harness_support`) over the course's Lines of
//! Action tests and ours, with our `loa` binary playing every program.
//!
//! - Official tests: `tests/data/loa/sp20/` (copied unmodified from the
//!   project's reference library; see `tests/data/SOURCES.md`). Two-program
//!   tests (`ai-v-staff`) run our binary against itself; `staff-loa --strict` becomes
//!   `loa --strict`.
//! - Extra tests (`extra/`, student-collected, unverified): run too; those without a
//!   `.std` are checked against what their sources say they expect.
//! - Ours: `tests/harness_sharp/loa/*-1.in`, with `.std` and, for error paths, a
//!   `.stderr` holding the exact error lines.

use crate::loa_harness_support;

use loa_harness_support::{filter, run_scripts, run_test, scratch_dir, ProgramReport};
use std::path::{Path, PathBuf};

fn sp20(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/loa/sp20")
        .join(name)
}

fn own_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/harness_sharp/loa")
}

fn check(path: PathBuf) -> Vec<ProgramReport> {
    run_test(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The result lines a program printed into its `.out` (filtered as `tester.py` does).
fn results(r: &ProgramReport) -> Vec<String> {
    filter(&r.out)
        .into_iter()
        .filter(|l| l.starts_with('*'))
        .collect()
}

#[test]
fn official_init() {
    check(sp20("init-1.in"));
}

#[test]
fn official_simplemoves() {
    check(sp20("simplemoves-1.in"));
}

#[test]
fn official_ai2() {
    check(sp20("ai2-1.in"));
}

#[test]
fn official_ai_v_staff() {
    let r = check(sp20("ai-v-staff-1.in"));
    assert_eq!(r.len(), 2, "a two-program test");
}

#[test]
fn extra_limit() {
    check(sp20("extra/limit-1.in"));
}

/// `full-game1-1.in` has no `.std`; its sources (letantruong32's copy) expect
/// `* White wins.` after the last typed move.
#[test]
fn extra_full_game() {
    let r = check(sp20("extra/full-game1-1.in"));
    assert_eq!(results(&r[0]), ["* White wins."]);
}

/// "Set up a winnable position and see if AI can win": no `.std`, so we check that
/// the game ends with a result line. winnable1 hands both sides to the AI.
#[test]
fn extra_winnable1() {
    let r = check(sp20("extra/winnable1-1.in"));
    let res = results(&r[0]);
    assert_eq!(res.len(), 1, "{res:?}");
}

/// winnable2 types three more moves with white manual and no AI on either side, then
/// waits with `#*move/win+` for AI moves and a result: it only passes if the typed
/// moves end the game themselves. They do: the result line is the manual move's.
#[test]
fn extra_winnable2() {
    let r = check(sp20("extra/winnable2-1.in"));
    assert_eq!(results(&r[0]).len(), 1);
}

#[test]
fn own_tests() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(own_dir())
        .expect("tests/harness_sharp/loa")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with("-1.in")))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "own tests: {files:?}");
    let failures: Vec<String> = files.iter().filter_map(|f| run_test(f).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn script(text: &str) -> Vec<(String, String)> {
    vec![("inline-1.in".to_string(), text.to_string())]
}

#[test]
fn harness_detects_failures() {
    let dir = scratch_dir("self-test");
    let ended = |text: &str| {
        let r = run_scripts(&script(text), &dir).expect("runs");
        r[0].end_message.clone()
    };
    // A good script passes.
    assert_eq!(ended("#* loa\nnew\ndump\n"), None);
    // No AI move comes (black is manual): a time-out.
    let m = ended("#* loa\n#*time 1 1\n#*move\n").expect("a time-out");
    assert!(m.starts_with("time limit exceeded"), "{m}");
    // A result where a move was expected (the limit ends the game after two moves).
    let m = ended("#* loa\nlimit 1\nauto black\n#*move\n#*move\n#*move\n");
    assert_eq!(m.as_deref(), Some("unexpected win message"));
    // An unknown directive.
    let m = ended("#* loa\n#*dance\n").expect("refused");
    assert!(m.starts_with("Invalid command"), "{m}");
    // A non-zero exit: --strict and an illegal move.
    let m = ended("#* loa --strict\nb1-b2\ndump\n").expect("non-zero exit");
    assert!(m.contains("did not exit normally"), "{m}");
    // Too much output.
    let m = ended(&format!("#* loa\n{}", "help\n".repeat(300))).expect("too much");
    assert_eq!(m, "too much output");
    // A remote directive without an opponent.
    let m = ended("#* loa\n#*remote move/win\n").expect("no opponent");
    assert!(m.contains("no opponent"), "{m}");
    // No command line.
    assert!(run_scripts(&script("dump\n"), &dir).is_err());
}

#[test]
fn harness_compares_with_std() {
    let dir = scratch_dir("self-test-std");
    let std_path = dir.join("cmp-1.std");
    let in_path = dir.join("cmp-1.in");
    std::fs::write(&in_path, "#* loa\ndump\n").unwrap();
    // Comments, trailing blanks and empty lines do not count; leading blanks do.
    let dump = "===\n    - b b b b b b - \n    w - - - - - - w\n    w - - - - - - w  # x\n\n    \
                w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    \
                - b b b b b b -\nNext move: black\n===\n";
    std::fs::write(&std_path, dump).unwrap();
    assert!(run_test(&in_path).is_ok());
    std::fs::write(
        &std_path,
        dump.replace("Next move: black", "Next move: white"),
    )
    .unwrap();
    assert!(run_test(&in_path).is_err());
    std::fs::write(
        &std_path,
        dump.replace("    - b b b b b b - ", "   - b b b b b b -"),
    )
    .unwrap();
    assert!(run_test(&in_path).is_err());
}

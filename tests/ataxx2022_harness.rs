//! The CS61B Spring 2022 Ataxx tests run by the course's own harness, with our binary
//! (`ataxx --edition 2022`) as the program under test: `python3 tester.py TEST-1.in`,
//! which runs `test-ataxx` (it drives one program, or two playing each other, through
//! the `#*` directives) and compares the boards and `*` lines each program printed with
//! the `.std` files. The harness and the tests are in `tests/data/ataxx/sp22/`, copied
//! unchanged from the course's repository (`tests/data/SOURCES.md`); `extra/` holds the
//! student-collected ones.
//!
//! Each test's files are copied into a scratch directory first (the harness writes its
//! `.out` and `.err` files beside where it runs), and there only:
//! - the script's command line (`#* java -ea ataxx.Main`, or `#* staff-ataxx --strict`
//!   for the staff program in `extra/test13` and `extra/test14`) becomes ours, so
//!   two-program tests play our binary against itself;
//! - a script without a command line (two student copies, `extra/test09-homemade` and
//!   `extra/test15`, which the harness would refuse) gets ours as its first line;
//! - a `.std` whose last line has no newline (the same two copies: every program ends
//!   its dump with one, so the harness could never match them) gets it.
//!
//! Without `python3` on the machine the tests say so on stderr and pass.

use crate::common::BIN;
use std::path::{Path, PathBuf};
use std::process::Command;

fn sp22() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ataxx/sp22")
}

/// Our program's command line, quoted for the `bash -c` the harness starts it with.
fn our_command() -> String {
    format!("'{}' --edition 2022", BIN.replace('\'', r"'\''"))
}

/// The script with our command line: its first `#*` line (the harness takes the first
/// one before any command as the program to run) replaced, or ours put first if a
/// command comes before any `#*` line.
fn with_our_command(script: &str) -> String {
    let ours = format!("#* {}", our_command());
    let mut lines: Vec<String> = script.lines().map(String::from).collect();
    let first_command = lines.iter().position(|l| {
        let t = l.trim();
        !t.is_empty() && (!t.starts_with('#') || t.starts_with("#*"))
    });
    match first_command {
        Some(i) if lines[i].trim_start().starts_with("#*") => lines[i] = ours,
        _ => lines.insert(0, ours),
    }
    let mut text = lines.join("\n");
    if script.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The files of the test whose first script is `first` (a path under `sp22/`): its
/// scripts (`X-1.in`, and `X-2.in` for a second program) and their `.std` files.
fn test_files(first: &str) -> Vec<PathBuf> {
    let first = sp22().join(first);
    let stem = first
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a test name");
    let dir = first.parent().expect("a directory");
    let mut stems = vec![stem.to_string()];
    if let Some(base) = stem.strip_suffix("-1") {
        stems.push(format!("{base}-2"));
    }
    stems
        .iter()
        .flat_map(|s| [format!("{s}.in"), format!("{s}.std")])
        .map(|name| dir.join(name))
        .filter(|p| p.exists())
        .collect()
}

/// A fresh scratch directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ataxx2022-harness")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// Copies the test into `dir` with our command line; returns its first script's name.
fn prepare(first: &str, dir: &Path, std_fix: impl Fn(&str) -> String) -> String {
    for file in test_files(first) {
        let text = std::fs::read_to_string(&file).expect("a test file");
        let name = file.file_name().and_then(|n| n.to_str()).expect("a name");
        let text = if name.ends_with(".in") {
            with_our_command(&text)
        } else if !text.is_empty() && !text.ends_with('\n') {
            std_fix(&format!("{text}\n"))
        } else {
            std_fix(&text)
        };
        std::fs::write(dir.join(name), text).expect("writing a test file");
    }
    Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a name")
        .to_string()
}

/// True if `python3` runs here.
fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("ataxx2022_harness: python3 is not installed, so the course harness cannot run");
    }
    ok
}

/// Runs the course's `tester.py` on the test whose first script is `first`, with the
/// `.std` files passed through `std_fix`; returns whether it passed, and its report.
fn course_tester(first: &str, std_fix: impl Fn(&str) -> String) -> (bool, String) {
    let name = first.replace('/', "_");
    let dir = scratch_dir(&name);
    let script = prepare(first, &dir, std_fix);
    let out = Command::new("python3")
        .arg(sp22().join("tester.py"))
        .arg(&script)
        .current_dir(&dir)
        // The harness imports testing.py beside it: no __pycache__ in tests/data.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("running python3 tester.py");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stem = script.trim_end_matches(".in");
    let passed = out.status.success()
        && report.contains(&format!("** {stem} PASSED."))
        && report.contains("Passed all 1 tests.");
    if passed {
        let _ = std::fs::remove_dir_all(&dir);
    }
    (passed, report)
}

/// The test passes through the course's harness.
fn passes(first: &str) {
    if !have_python() {
        return;
    }
    let (passed, report) = course_tester(first, str::to_string);
    assert!(passed, "{first} through the course harness:\n{report}");
}

#[test]
fn official_test01_initial_board() {
    passes("test01-1.in");
}

#[test]
fn official_test02_blocks() {
    passes("test02-1.in");
}

#[test]
fn official_test03_blocks_and_moves() {
    passes("test03-1.in");
}

#[test]
fn official_test04_a_win() {
    passes("test04-1.in");
}

#[test]
fn official_test05_two_ais() {
    passes("test05-1.in");
}

#[test]
fn official_test06_blue_wins_from_a_set_up_game() {
    passes("test06-1.in");
}

#[test]
fn official_test07_two_programs() {
    passes("test07-1.in");
}

#[test]
fn official_test18_new() {
    passes("test18-1.in");
}

#[test]
fn extra_test08_moves() {
    passes("extra/test08-1.in");
}

#[test]
fn extra_test09_blocks_leave_no_move() {
    passes("extra/test09-homemade.in");
}

#[test]
fn extra_test10_forced_draw_one_ai() {
    passes("extra/test10-1.in");
}

#[test]
fn extra_test11_forced_draw_two_ais() {
    passes("extra/test11-1.in");
}

#[test]
fn extra_test13_blue_against_a_second_program() {
    passes("extra/test13-1.in");
}

#[test]
fn extra_test14_red_against_a_second_program() {
    passes("extra/test14-1.in");
}

#[test]
fn extra_test15_illegal_moves() {
    passes("extra/test15-1.in");
}

#[test]
fn extra_test17_red_wins_from_a_set_up_game() {
    passes("extra/test17-1.in");
}

/// The harness does compare: a wrong expected board fails, so a pass above means our
/// output matched.
#[test]
fn the_harness_catches_a_wrong_board() {
    if !have_python() {
        return;
    }
    let (passed, report) = course_tester("test01-1.in", |std| std.replacen(" r ", " b ", 1));
    assert!(!passed, "{report}");
    assert!(
        report.contains("** test01-1 FAILED (Output(s) do not all match"),
        "{report}"
    );
}

#[test]
fn scripts_get_our_command_line() {
    let ours = format!("#* {}", our_command());
    assert_eq!(
        with_our_command("#* java -ea ataxx.Main\n# c\ndump\n#*win+\n"),
        format!("{ours}\n# c\ndump\n#*win+\n")
    );
    assert_eq!(
        with_our_command("# c\n\nblock a2\n#*move/win\nquit"),
        format!("{ours}\n# c\n\nblock a2\n#*move/win\nquit")
    );
    assert_eq!(
        with_our_command("\n#* staff-ataxx --strict\nseed 1\n"),
        format!("\n{ours}\nseed 1\n")
    );
}

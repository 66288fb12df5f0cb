//! The toy's UGI binary as a process: the handshake, a search, and the game queries.
//! Being an integration test of this crate, it also makes `cargo test --workspace` build
//! `toy-ugi` with the rest of the workspace, so the runner's suites find it built with
//! the same features instead of building it (and the engine library) again.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_toy_answers_over_ugi() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toy-ugi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start toy-ugi");
    let script = "ugi\nisready\nposition fen xx-/oo-/--- x\nquery p1turn\ngo depth 3\nisready\n\
                  position fen xx-/oo-/--- x moves a3\nquery result\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("toy-ugi ends");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"ugiok"), "{text}");
    assert_eq!(
        lines.iter().filter(|l| **l == "readyok").count(),
        2,
        "{text}"
    );
    assert!(lines.contains(&"response true"), "x to move: {text}");
    // The win in one (a3 completes the top row) is the move.
    assert!(lines.contains(&"bestmove a3"), "{text}");
    assert!(lines.contains(&"response p1win"), "{text}");
}

//! The shared command line of the game binaries (`src/protocol/cli.rs`), through `ataxx`.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(args)
        .output()
        .expect("run ataxx");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_help_and_bad_arguments() {
    for version in ["--version", "-version"] {
        let (code, out, _) = run(&[version]);
        assert_eq!(
            (code, out.trim()),
            (0, concat!("ataxx ", env!("CARGO_PKG_VERSION"))),
            "{version}"
        );
    }
    let (code, out, _) = run(&["--help"]);
    assert!(code == 0 && out.starts_with("usage: ataxx"), "{out}");
    let (code, _, err) = run(&["--display"]);
    assert!(code == 2 && err.contains("no GUI"), "{err}");
    for bad in [
        &["--nope"][..],
        &["perft", "x"],
        &["perft", "13"],
        &["bench", "0"],
        &["perft", "2", "bad/fen"],
    ] {
        let (code, out, err) = run(bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && err.contains("usage:"), "{bad:?}: {err}");
    }
}

#[test]
fn perft_from_the_command_line() {
    let (code, out, _) = run(&["perft", "1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes 16 "), "{out}");
    let (code, out, _) = run(&["perft", "2", "x5o/7/2-1-2/7/2-1-2/7/o5x", "x", "0", "1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes 196 "), "{out}");
}

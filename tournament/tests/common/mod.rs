//! What the tournament crate's test binaries share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One of our engine binaries (`ataxx`, `loa`, `reversi`) beside `runner` (the
/// `tournament` binary under test), built first with the runner's profile (`debug`,
/// `release` or a custom one such as `ci`, read from the target folder's name):
/// `cargo test -p tournament` does not build the engine crate's binaries, and a stale one
/// would test old code (a no-op when it is up to date).
pub fn engine_binary(runner: &str, bin: &str) -> PathBuf {
    let path = Path::new(runner).with_file_name(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        let profile = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|p| p.to_str())
            .unwrap_or("debug");
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "ataxx-engine", "--bin", bin]);
        match profile {
            "debug" => {}
            "release" => {
                build.arg("--release");
            }
            other => {
                build.args(["--profile", other]);
            }
        }
        let status = build
            .status()
            .expect("run cargo build for the engine binary");
        assert!(status.success(), "building the {bin} binary failed");
    }
    assert!(path.exists(), "no engine binary at {}", path.display());
    path
}

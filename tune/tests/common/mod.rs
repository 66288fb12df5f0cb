//! What the tune crate's test suites share (copied from the runner's tests/common/, not
//! shared with it: the crates' tests stay apart).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub const TUNE: &str = env!("CARGO_BIN_EXE_tune");

/// The runner's `tournament` binary beside `tune`, built first with tune's profile
/// (`debug`, `release` or a custom one such as `ci`, read from the target folder's name):
/// `cargo test -p tune` does not build the runner's binary, and a stale one would write
/// the results of old code (a no-op when it is up to date).
pub fn tournament_binary() -> PathBuf {
    let bin = "tournament";
    let path = Path::new(TUNE).with_file_name(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        let profile = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|p| p.to_str())
            .unwrap_or("debug");
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "tournament", "--bin", bin]);
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
            .expect("run cargo build for the tournament binary");
        assert!(status.success(), "building the {bin} binary failed");
    }
    assert!(path.exists(), "no tournament binary at {}", path.display());
    path
}

/// A fresh scratch directory for test `name` of suite `suite` (suites share one process,
/// so the suite keeps their names apart).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tune-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

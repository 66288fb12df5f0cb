//! What the tune crate's test suites share (the runner's binary is built through the
//! workspace's `testkit`, as the other crates' suites build theirs).

use std::path::PathBuf;
use std::process::Output;

/// The binary under test.
pub const TUNE: &str = env!("CARGO_BIN_EXE_tune");

/// The runner's `tournament` binary beside `tune`, built first with tune's profile.
pub fn tournament_binary() -> PathBuf {
    testkit::sibling_binary(TUNE, "tournament", "tournament")
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

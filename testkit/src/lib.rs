//! What the test suites of the workspace's crates share. A crate's tests can only ask
//! Cargo for its own binaries (`CARGO_BIN_EXE_*`); the engine crate's browser test needs
//! the runner, the runner's tests need the engines and the tuner's tests need the
//! runner. [`sibling_binary`] builds such a binary of another package beside the
//! suite's own, with the same profile.

pub mod toy;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Binary `bin` of package `package`, in the target folder of `next_to` (one of the
/// suite's own binaries), built first with that folder's profile (`debug`, `release` or
/// a custom one such as `ci`, read from the folder's name): `cargo test -p X` does not
/// build other packages' binaries, and a stale one would test old code (the build is a
/// no-op when it is up to date). Outside Cargo (no `CARGO` in the environment) the
/// binary is taken as it is. Panics, naming it, if it cannot be built or is missing.
pub fn sibling_binary(next_to: &str, package: &str, bin: &str) -> PathBuf {
    let path = Path::new(next_to).with_file_name(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        let profile = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|p| p.to_str())
            .unwrap_or("debug");
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", package, "--bin", bin]);
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
            .unwrap_or_else(|e| panic!("cannot run cargo build for {bin}: {e}"));
        assert!(status.success(), "building the {bin} binary failed");
    }
    assert!(path.exists(), "no {bin} binary at {}", path.display());
    path
}

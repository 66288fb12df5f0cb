//! What the test suites of the workspace's crates share. A crate's tests can only ask
//! Cargo for its own binaries (`CARGO_BIN_EXE_*`); the engine crate's browser test needs
//! the runner, the runner's tests need the engines and the tuner's tests need the
//! runner. [`sibling_binary`] builds such a binary of another package beside the
//! suite's own, with the same profile, when it is older than the code.

pub mod toy;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Binary `bin` of package `package`, in the target folder of `next_to` (one of the
/// suite's own binaries), built first with that folder's profile (`debug`, `release` or
/// a custom one such as `ci`, read from the folder's name) unless it is newer than every
/// source of the workspace ([`is_fresh`]): `cargo test -p X` does not build other
/// packages' binaries, and a stale one would test old code. Outside Cargo (no `CARGO`
/// in the environment) the binary is taken as it is. Panics, naming it, if it cannot be
/// built or is missing.
pub fn sibling_binary(next_to: &str, package: &str, bin: &str) -> PathBuf {
    let path = Path::new(next_to).with_file_name(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        if !is_fresh(&path, &workspace_root()) {
            build(&cargo, &path, package, bin);
        }
    }
    assert!(path.exists(), "no {bin} binary at {}", path.display());
    path
}

/// Builds `bin` of `package` with the profile of `path`'s folder.
fn build(cargo: &std::ffi::OsStr, path: &Path, package: &str, bin: &str) {
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

/// The workspace's folder (this crate's parent).
fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// Whether `binary` was built after the last change to any source of the workspace at
/// `root` ([`sources`]): then it is built from the code as it stands, and no build is
/// asked for. Asking Cargo instead is no shortcut here: a package built alone resolves
/// its dependencies' features otherwise than the workspace's test build does (the
/// runner's `libc` features, the tests' `regex`), so `cargo build -p` rebuilt the engine
/// with other features (a minute on 2 cores) the first time a fresh clone's suites ran,
/// though `cargo test --workspace` had just built every binary.
pub fn is_fresh(binary: &Path, root: &Path) -> bool {
    let Ok(built) = binary.metadata().and_then(|m| m.modified()) else {
        return false;
    };
    let mut newest = None;
    for path in sources(root) {
        match newer_than(&path, built) {
            Some(false) => newest = Some(false),
            Some(true) | None => return false,
        }
    }
    newest == Some(false)
}

/// What the workspace's binaries are built from: the workspace's `Cargo.toml` and
/// `Cargo.lock`, and each package's `Cargo.toml` and `src/` (the root's and those of
/// the folders beside it that hold a `Cargo.toml`); test data, docs and scratch files
/// that tests write are not among them.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![
        root.join("Cargo.toml"),
        root.join("Cargo.lock"),
        root.join("src"),
    ];
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let package = entry.path();
            if package.join("Cargo.toml").is_file() {
                out.push(package.join("Cargo.toml"));
                if package.join("src").is_dir() {
                    out.push(package.join("src"));
                }
            }
        }
    }
    out
}

/// Whether `path` (a file, or any file under a folder) changed after `time`; `None` if
/// it cannot be read (then nothing is known to be fresh).
fn newer_than(path: &Path, time: std::time::SystemTime) -> Option<bool> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return Some(meta.modified().ok()? > time);
    }
    for entry in std::fs::read_dir(path).ok()? {
        if newer_than(&entry.ok()?.path(), time)? {
            return Some(true);
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binary is fresh only when it is newer than every source: touching one (or a
    /// missing binary or workspace) asks for a build; other files do not.
    #[test]
    fn a_binary_older_than_a_source_is_rebuilt() {
        let dir = std::env::temp_dir().join(format!("testkit-fresh-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let package = dir.join("runner");
        for d in [
            dir.join("src"),
            package.join("src").join("deep"),
            dir.join("target"),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        for f in [
            "Cargo.toml",
            "Cargo.lock",
            "src/lib.rs",
            "runner/Cargo.toml",
        ] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        let source = package.join("src").join("deep").join("lib.rs");
        std::fs::write(&source, "// code").unwrap();
        let binary = dir.join("target").join("bin");
        assert!(!is_fresh(&binary, &dir), "no binary yet");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&binary, "built").unwrap();
        assert!(is_fresh(&binary, &dir));
        // Build output, docs and test data are no sources.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(dir.join("target").join("other"), "x").unwrap();
        std::fs::write(dir.join("notes.md"), "x").unwrap();
        std::fs::create_dir_all(package.join("tests")).unwrap();
        std::fs::write(package.join("tests").join("data.txt"), "x").unwrap();
        assert!(is_fresh(&binary, &dir));
        std::fs::write(&source, "// changed").unwrap();
        assert!(!is_fresh(&binary, &dir), "a source changed after the build");
        assert!(
            !is_fresh(&binary, &dir.join("missing")),
            "no workspace there"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

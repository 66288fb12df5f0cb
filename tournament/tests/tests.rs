//! The tournament crate's one integration-test binary (ripgrep's layout: `autotests =
//! false` in Cargo.toml), as the engine crate's `tests/tests.rs`: each module is one
//! suite, `common/` what they share. One binary links the runner once instead of once
//! per suite. Run one suite with `cargo test --profile ci -p tournament --test tests
//! SUITE::` (e.g. `shard::`).

mod common;

mod compliance;
mod rating;
mod round4;
mod runner;
mod selfplay;
mod shard;
mod strength_doc;
mod toy;

/// With `autotests = false` a new file in tests/ runs only once it is declared above.
#[test]
fn every_suite_file_is_declared() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(dir.join("tests.rs")).expect("tests.rs");
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let name = entry
            .expect("an entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "tests" {
                assert!(
                    this.contains(&format!("mod {module};")),
                    "tests/{name} is not declared in tests.rs"
                );
            }
        }
    }
}

//! The engine crate's one integration-test binary (ripgrep's layout: `autotests = false` in
//! Cargo.toml). Each module is one suite; `perft`, `invariants` and `forced_wins` are
//! written once, generic over `engine::game::GameIo`, with one submodule per game holding its
//! data and its own checks (`perft::ataxx::reference_table`, `invariants::loa::...`). The
//! helpers that spawn the real binaries are in `common/` and `loa_harness_support/`, the
//! copied reference data in `data/<game>/` (see `data/SOURCES.md`). One binary links the engine once instead of once per suite, which is
//! most of the suite's build time. Run one suite with `cargo test --release --test tests
//! SUITE::` (e.g. `perft::`).

mod common;
mod loa_harness_support;

mod ataxx2022_harness;
mod bench;
mod browser;
mod cli;
mod display;
mod docs_transcripts;
mod eval_model;
mod forced_wins;
mod harness;
mod invariants;
mod layers;
mod loa_harness;
mod loa_rules;
mod loa_search;
mod loa_vs_random;
mod perft;
mod protocol_fuzz;
mod remote_faults;
mod remote_games;
mod reversi_ffo;
mod session;
mod terminal;
mod text_junk;
mod uai;
mod ugi;

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
        if let Some(suite) = name.strip_suffix(".rs").filter(|s| *s != "tests") {
            assert!(
                this.contains(&format!("\nmod {suite};\n")),
                "tests/{name} is not declared in tests/tests.rs: its tests would never run"
            );
        }
    }
}

//! The engine crate's one integration-test binary (ripgrep's layout: `autotests = false` in
//! Cargo.toml). Each module is one suite, named after the promise it checks, not after a
//! game: a suite runs every registered game (and every dialect) that has the feature
//! through the same checks, written once, generic over the game
//! (`engine::game::GameIo`) or the dialect (`engine::variant::Playable`), or as tables
//! over the binaries; each game's positions, scripts and expected lines are data in a
//! submodule of the suite named after the game or dialect, beside the checks only it
//! has (`perft::ataxx::reference_table`, `session::ataxx2008::blocks_notation`,
//! `search::reversi::ffo_40`). The suites:
//!
//! - `cli`: each binary's command line (`--help`, usage errors, `perft`, `bench`,
//!   `--display`, remote-play options; LOA's course options, Reversi's `solve`);
//! - `session`: the course text languages end to end; `text_junk`: junk and errors
//!   there; `terminal`: a person at a terminal; `display`, `browser`: the board page;
//! - `harness`: the courses' own test harnesses with our program under test;
//! - `uai`, `ugi`, `protocol_fuzz`: the engine protocols;
//! - `remote_games`, `remote_faults`: remote play of the dialects that have it;
//! - `rules`, `perft`, `invariants`: the rules; `search`, `forced_wins`, `bench`,
//!   `eval_model`: the search, the exact solver, the evaluation;
//! - `docs_transcripts`, `layers`: the documentation's transcripts, the code's layering.
//!
//! The helpers that spawn the real binaries are in `common/` (with the remote-play
//! dialects' data, `common/remote.rs`, and LOA's `#*` harness, `common/test_loa.rs`),
//! the copied reference data in `data/<game>/` (see `data/SOURCES.md`). One binary
//! links the engine once instead of once per suite, which is most of the suite's build
//! time. Run one suite with `cargo test --profile ci --test tests SUITE::` (e.g.
//! `perft::`), one game's part of it with `SUITE::GAME::` (e.g. `session::reversi::`).

#[macro_use]
mod common;

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
mod perft;
mod protocol_fuzz;
mod remote_faults;
mod remote_games;
mod rules;
mod search;
mod session;
mod terminal;
mod text_junk;
mod uai;
mod ugi;

/// With `autotests = false` a new file in tests/ runs only once it is declared above;
/// and no suite is named after a game (a game's cases go in the promise's suite).
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
            for game in engine::variant::Variant::ALL {
                assert!(
                    !suite.starts_with(game.name()),
                    "tests/{name} is named after a game: put its cases in the suite of \
                     the promise they check, in a `{}` module",
                    game.name()
                );
            }
        }
    }
}

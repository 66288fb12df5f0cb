//! Board-game engines sharing one search core.
//!
//! Architecture, from the bottom up:
//! - [`game`]: the `Game` trait (all the search knows of a game) and the contract above
//!   it, split by concern: `Notation` (names, FEN, move notation, openings, end reasons),
//!   `Diagram` (the board as a display draws it), `Benchmark` (bench positions, perft),
//!   `Tunable` (the tuner's linear model) and `Referee` (the runner's adjudication
//!   policy); `GameIo` names all five.
//! - [`games`]: one folder per game, rules only (bitboards, position, notation,
//!   evaluation, solver, bench positions); it names neither the search nor a front end.
//! - [`search`]: iterative-deepening alpha-beta over any `Game`, run on its own thread
//!   behind a non-blocking `go`/`stop` facade that reports data, never text.
//! - [`perft`], [`bench`]: move-generator and search signatures for testing and speed.
//! - [`protocol`]: front ends that only parse and format: the course text languages
//!   (one session loop, a dialect per game in `protocol/text/`), one UCI-family session
//!   (UAI, UGI) generic over the game, NBoard, the bounded stdin reader, the shared
//!   command line; under all of them the same game (`play::Play`: position, history,
//!   undo) and the same queue of waiting lines (`input::Inbox`).
//! - [`app`]: the one `main` of every binary (logging, the shared command line, the
//!   subcommands, the choice of protocol and dialect); `src/bin/*.rs` only name a game.
//! - [`variant`]: the registry, one entry a game: its rules type (`Registered`), its
//!   binary's own part, its text dialects (editions), whether it is an Othello board;
//!   tools that pick a game at run time visit its rules type (`GameVisitor`: the
//!   runner, its compliance check, the tuner, which reach a text language as a value,
//!   `TextCodec`) or its dialect (`VariantVisitor`: the front ends that speak it).
//! - [`rng`]: the one seeded generator (SplitMix64) behind every "same seed, same
//!   result" promise.
//!
//! Dependencies point downwards only: `games/` imports neither `search/` nor `protocol/`,
//! not even in its unit tests (the test `layers::rules_stand_alone` fails if it does),
//! the search knows games only through the trait, and front ends drive the search
//! through its facade; `layers::every_module_names_only_lower_floors` holds every
//! module to the floors above (its `FLOORS` table), grouped imports included. A new game
//! adds its rules folder (with its rule sets: `Game::Rules`, and its `Diagram`), a dialect in
//! `protocol/text/`, its entry in `variant`'s `registry!` (its rules type, binary part
//! and dialects), and a four-line binary.

pub mod app;
pub mod bench;
pub mod game;
pub mod games;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod variant;

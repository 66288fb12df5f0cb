//! Board-game engines sharing one search core.
//!
//! Architecture, from the bottom up:
//! - [`game`]: the `Game` trait (all the search knows of a game) and its companion
//!   `GameIo` (names, FEN, move notation, openings, bench positions, rule sets).
//! - [`games`]: one folder per game (rules, notation, course text dialect, evaluation,
//!   bench positions); `games::Variant` is the one list of games.
//! - [`search`]: iterative-deepening alpha-beta over any `Game`, run on its own thread
//!   behind a non-blocking `go`/`stop` facade that reports data, never text.
//! - [`perft`], [`bench`]: move-generator and search signatures for testing and speed.
//! - [`protocol`]: front ends that only parse and format: one session loop for the
//!   course text languages (each game plugs in its dialect), one UCI-family session
//!   (UAI, UGI) generic over the game, the bounded stdin reader, the shared command line.
//! - [`rng`]: the one seeded generator (SplitMix64) behind every "same seed, same
//!   result" promise.
//!
//! Dependencies point downwards only: games know nothing of the search's internals or
//! the front ends' loops, the search knows games only through the trait, and nothing
//! outside `games/` names a game. A new game adds its folder and one line in
//! `games::Variant`, plus a thin binary.

pub mod bench;
pub mod game;
pub mod games;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;

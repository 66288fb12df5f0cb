//! Board-game engines sharing one search core.
//!
//! Architecture, from the bottom up:
//! - [`game`]: the `Game` trait, the only view of a game the search has.
//! - [`games`]: the rules of each game (Ataxx now), implementing `Game`.
//! - [`search`]: iterative-deepening alpha-beta over any `Game`, run on its own thread
//!   behind a non-blocking `go`/`stop` facade that reports data, never text.
//! - [`perft`], [`bench`]: move-generator and search signatures for testing and speed.
//! - [`protocol`]: front ends (the `ataxx.txt` text language, UAI) that only parse
//!   commands and format the engine's reports; a stdin thread keeps input flowing.
//!
//! Dependencies point downwards only: games know nothing of search or protocols, the
//! search knows games only through the trait.

pub mod bench;
pub mod game;
pub mod games;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;

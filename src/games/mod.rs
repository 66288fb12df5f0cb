//! The games' rules: one folder per game (bitboards, position with make/unmake, move
//! generation, rule sets, notation, evaluation, solver, bench positions), each
//! implementing [`crate::game::Game`] and the traits by concern beside it
//! ([`crate::game::Notation`], [`crate::game::Benchmark`], [`crate::game::Tunable`],
//! [`crate::game::Referee`]).
//!
//! This is the bottom floor: nothing here names the search or a front end (the test
//! `rules_stand_alone` keeps it so). The list of games with their front ends is
//! [`crate::variant::Variant`].

pub mod ataxx;
pub mod bits;
pub mod loa;
pub mod reversi;

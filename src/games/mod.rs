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

/// A number field of a FEN (the halfmove clock, the fullmove number): `default` where
/// the FEN leaves it out; `None` (refused) past `max` or unless a whole number.
pub fn fen_number(field: Option<&str>, default: u32, max: u32) -> Option<u32> {
    match field {
        None => Some(default),
        Some(s) => s.parse::<u32>().ok().filter(|&n| n <= max),
    }
}

//! The games. Each module holds one game's rules, notation and evaluation and
//! implements [`crate::game::Game`]; none of them knows about search or protocols.

pub mod ataxx;
pub mod reversi;

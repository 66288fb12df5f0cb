//! Static evaluation for Reversi, from the side to move's point of view.
//!
//! The disc count is a poor guide until the very end (whoever has fewer discs early
//! usually has more moves later), so the evaluation weighs what decides Othello games:
//! mobility (moves now), potential mobility (empty squares next to enemy discs, where
//! moves will appear), corners, the X and C squares that give corners away while the
//! corner is empty, stable discs, and late in the game the parity of the empty squares
//! (the side that plays last gains).
//!
//! Linear in [`TERMS`] ("ours minus theirs" except parity), with one weight vector for
//! the opening (`MG`, 60 empty squares) and one for the end (`EG`, none), blended by the
//! number of empty squares, so a tuner can fit both like Ataxx's.

use super::bitboard::{moves, neighbours, stable, Bits, CORNERS, C_SQUARES, NEIGHBOURS, X_SQUARES};
use super::position::Position;
use crate::game::Phase;

/// Number of evaluation terms.
pub const N_TERMS: usize = 8;

/// Names of the terms, in order (for a tuner's output).
pub const TERMS: [&str; N_TERMS] = [
    "mobility",
    "potential",
    "corner",
    "x_square",
    "c_square",
    "stable",
    "discs",
    "parity",
];

/// Weights of one phase, in term order.
pub type Weights = [i32; N_TERMS];

/// Opening weights. Fitted by `tune fit --variant reversi --l2 0.01` on 3 000 self-play
/// games (`docs/reversi.md`).
pub const MG: Weights = [-6, 6, 113, -64, -26, 26, -5, -1];
/// End weights: stable discs and mobility take over; parity tells who plays last.
pub const EG: Weights = [50, 2, 38, -31, -16, 27, -5, 27];

/// Number of empty squares at the start, the phase's full scale.
const PHASE: i32 = 60;

/// The X or C squares of `side_discs` next to an empty corner.
#[inline]
fn next_to_open_corner(squares: u64, side_discs: u64, empty: u64) -> u64 {
    let mut out = 0;
    for corner in Bits(CORNERS & empty) {
        out |= NEIGHBOURS[corner as usize] & squares & side_discs;
    }
    out
}

/// The terms of `pos` from the side to move's view, and the phase: the empty squares of
/// the 60.
#[inline]
pub fn terms(pos: &Position) -> ([i32; N_TERMS], Phase) {
    terms_of(pos.own(), pos.opp())
}

/// The terms for `own` to move against `opp` (bare bitboards, for the solver).
#[inline]
pub fn terms_of(own: u64, opp: u64) -> ([i32; N_TERMS], Phase) {
    let empty = !(own | opp);
    let cnt = |b: u64| b.count_ones() as i32;
    let empties = cnt(empty);
    let parity = if empties == 0 {
        0
    } else if empties % 2 == 1 {
        1
    } else {
        -1
    };
    let t = [
        cnt(moves(own, opp)) - cnt(moves(opp, own)),
        cnt(neighbours(opp) & empty) - cnt(neighbours(own) & empty),
        cnt(own & CORNERS) - cnt(opp & CORNERS),
        cnt(next_to_open_corner(X_SQUARES, own, empty))
            - cnt(next_to_open_corner(X_SQUARES, opp, empty)),
        cnt(next_to_open_corner(C_SQUARES, own, empty))
            - cnt(next_to_open_corner(C_SQUARES, opp, empty)),
        cnt(stable(own, opp)) - cnt(stable(opp, own)),
        cnt(own) - cnt(opp),
        parity,
    ];
    (t, Phase::new(empties, PHASE))
}

/// Evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_bits(pos.own(), pos.opp())
}

/// Evaluation for `own` to move against `opp`.
#[inline]
pub fn evaluate_bits(own: u64, opp: u64) -> i32 {
    let (t, phase) = terms_of(own, opp);
    phase.blend(&t, &MG, &EG)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_start_and_corner_value() {
        let start = Position::startpos();
        assert_eq!(terms(&start).0[..7], [0; 7]);
        // Black holds a1 against a lone white disc: good for black, whoever moves.
        let a = Position::from_fen("x7/8/8/3ox3/3xo3/8/8/8 x").unwrap();
        let b = Position::from_fen("x7/8/8/3ox3/3xo3/8/8/8 o").unwrap();
        assert!(evaluate(&a) > 0);
        assert!(evaluate(&b) < 0);
    }
}

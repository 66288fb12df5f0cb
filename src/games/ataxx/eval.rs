//! Static evaluation for Ataxx, from the side to move's point of view.
//!
//! Material dominates Ataxx, but a bare piece count misjudges positions where stones
//! are about to be flipped; the extra terms weigh how many of each side's stones touch
//! empty squares the opponent can reach (they can be flipped next move) and how much
//! room each side has to clone into.

use super::bitboard::{dilate, dilate2};
use super::position::Position;

/// Evaluation weights, kept together so tuning touches one place.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub material: i32,
    pub exposed: i32,
    pub room: i32,
    pub tempo: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    material: 100,
    exposed: 8,
    room: 3,
    tempo: 20,
};

/// Evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let opp = pos.pieces(us.opponent());
    let empty = pos.empty();
    let w = WEIGHTS;

    let material = own.count_ones() as i32 - opp.count_ones() as i32;
    // Empty squares each side can reach next move: where it can land and flip.
    let own_reach = dilate2(own) & empty;
    let opp_reach = dilate2(opp) & empty;
    // Stones next to a square the opponent can land on can be flipped.
    let own_exposed = (own & dilate(opp_reach)).count_ones() as i32;
    let opp_exposed = (opp & dilate(own_reach)).count_ones() as i32;
    let own_room = (dilate(own) & empty).count_ones() as i32;
    let opp_room = (dilate(opp) & empty).count_ones() as i32;

    w.material * material - w.exposed * (own_exposed - opp_exposed)
        + w.room * (own_room - opp_room)
        + w.tempo
}

//! Static evaluation for Ataxx, from the side to move's point of view.
//!
//! Material dominates Ataxx, but a bare piece count misjudges positions where stones
//! are about to be flipped; the extra terms weigh how many of each side's stones touch
//! empty squares the opponent can reach (they can be flipped next move), how much room
//! each side has to clone into, where the stones stand, and the biggest flip each side
//! has at hand (the side to move's now, the opponent's next), which softens the horizon.
//!
//! The evaluation is linear in a few [`TERMS`] (each "ours minus theirs", except the
//! tempo, capture and threat), with two weights per term blended by the number of empty squares: `MG` while
//! the board is empty, `EG` when it is full. Linear so that `tune fit`
//! (`tune/src/texel.rs`) can fit the weights to game results (see
//! `docs/strength.md`); a small network ([`super::nnue`]) adds what the terms miss.
//!
//! Since round 6 the engine plays with the window network alone ([`evaluate`],
//! [`super::network`]), which beat these terms and the small network by 193 Elo; they
//! stay for `tune fit`, `tune nnue` and as a yardstick ([`evaluate_linear_nnue`]).

use super::bitboard::{dilate, dilate2, max_count, neighbour_counts, FILE_A, FILE_G, FULL};
use super::position::Position;
use crate::game::Phase;

/// Number of evaluation terms.
pub const N_TERMS: usize = 10;

/// Names of the terms, in order (for the tuner's output).
pub const TERMS: [&str; N_TERMS] = [
    "material", "exposed", "room", "tempo", "edge", "corner", "safe", "reach", "capture", "threat",
];

/// Weights of one phase, in term order.
pub type Weights = [i32; N_TERMS];

/// Weights with the board empty (all 49 squares free). Fitted by `tune fit --l2 0.01` on
/// 2 800 games of nodes-limited matches (round 2 of `docs/strength.md`).
pub const MG: Weights = [65, -56, -7, 40, 31, 20, 21, -2, 12, 6];
/// Weights with the board full.
pub const EG: Weights = [116, -70, 21, 56, 65, 16, 13, 17, 37, 25];

const RANK_1: u64 = 0x7f;
const RANK_7: u64 = 0x7f << 42;
const EDGE: u64 = (FILE_A | FILE_G | RANK_1 | RANK_7) & FULL;
const CORNERS: u64 = 1 | 1 << 6 | 1 << 42 | 1 << 48;

/// The evaluation terms of `pos`, from the side to move's view, and the phase: the
/// empty squares of the 49.
#[inline]
pub fn terms(pos: &Position) -> ([i32; N_TERMS], Phase) {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let opp = pos.pieces(us.opponent());
    let empty = pos.empty();
    let cnt = |b: u64| b.count_ones() as i32;

    // Empty squares each side can reach next move: where it can land and flip.
    let own_reach = dilate2(own) & empty;
    let opp_reach = dilate2(opp) & empty;
    // Stones next to a square the opponent can land on can be flipped.
    let own_exposed = cnt(own & dilate(opp_reach));
    let opp_exposed = cnt(opp & dilate(own_reach));
    let own_room = cnt(dilate(own) & empty);
    let opp_room = cnt(dilate(opp) & empty);
    // Stones with no empty neighbour cannot be flipped until one opens up.
    let near_empty = dilate(empty);
    // The most stones one move can flip: ours now (we are to move), theirs next.
    let best_flip = |reach: u64, victims: u64| max_count(&neighbour_counts(victims), reach);
    let t = [
        cnt(own) - cnt(opp),
        own_exposed - opp_exposed,
        own_room - opp_room,
        1,
        cnt(own & EDGE) - cnt(opp & EDGE),
        cnt(own & CORNERS) - cnt(opp & CORNERS),
        cnt(own & !near_empty) - cnt(opp & !near_empty),
        cnt(own_reach) - cnt(opp_reach),
        best_flip(own_reach, opp),
        best_flip(opp_reach, own),
    ];
    (t, Phase::new(cnt(empty), 49))
}

/// The linear part of the evaluation of `pos`, side to move's view.
#[inline]
pub fn linear(pos: &Position) -> i32 {
    let (t, phase) = terms(pos);
    phase.blend(&t, &MG, &EG)
}

/// Evaluation of `pos` for the side to move: the window network ([`super::network`],
/// round 6 of `docs/strength.md`) from the position's accumulators, except where one
/// side cannot move ([`blocked_side`]).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    if let Some(score) = blocked_side(pos) {
        return score;
    }
    pos.accumulator()
        .evaluate(super::network::NET, pos.side_to_move().index())
}

/// Base score of a position that [`blocked_side`] calls decided: above what the
/// network gives ordinary positions, far below a proven win.
pub const DECIDED: i32 = 3_000;

/// What each stone of lead adds to [`DECIDED`].
const DECIDED_STONE: i32 = 20;

/// The score of a position where exactly one side has no move, for the side to move.
///
/// The other side then plays alone, and as long as it clones the blocked side never
/// gets a move back (a clone only fills squares): the game ends with the free side's
/// stones plus the empty squares against the blocked side's stones. That final count
/// decides the sign (±[`DECIDED`]); the current stone difference is added so that
/// filling the board (a clone gains one) beats shuffling jumps (which gain nothing) and
/// opening room for the blocked side. The network saw few such positions and scores
/// them erratically (by side to move), which made the free side wander instead of
/// finishing. It is an estimate, not a proof (a free side left with jumps only may
/// have to open room), so the search treats it as any evaluation.
pub fn blocked_side(pos: &Position) -> Option<i32> {
    let us = pos.side_to_move();
    let (we_move, they_move) = (pos.can_move(us), pos.can_move(us.opponent()));
    if we_move == they_move {
        // Both can move (the network's case) or neither (the game is over).
        return None;
    }
    let (free, blocked) = if we_move {
        (us, us.opponent())
    } else {
        (us.opponent(), us)
    };
    let (free, blocked) = (pos.count(free) as i32, pos.count(blocked) as i32);
    let end = free + pos.empty().count_ones() as i32 - blocked;
    let score = end.signum() * DECIDED + DECIDED_STONE * (free - blocked);
    Some(if we_move { score } else { -score })
}

/// The round-4 evaluation (the linear terms and the small network's correction,
/// [`super::nnue`]), kept for `tune nnue` and comparisons.
pub fn evaluate_linear_nnue(pos: &Position) -> i32 {
    linear(pos) + super::nnue::evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::{Move, Rules};

    fn position(fen: &str) -> Position {
        Position::from_fen(fen, Rules::Text).unwrap()
    }

    /// The same blocked position scores the same for each side whoever is to move (the
    /// network's fault was a score that swung with the turn), and a clone beats a jump.
    #[test]
    fn a_blocked_side_is_scored_by_the_end_count() {
        // Blue (o) has no move; Red has 13 stones, Blue 2, 13 squares are empty.
        let red = position("x2xxxo/xxxxxxo/-------/-------/-------/7/3xx1x x 0 1");
        let blue = position("x2xxxo/xxxxxxo/-------/-------/-------/7/3xx1x o 0 1");
        assert_eq!(evaluate(&red), DECIDED + 20 * 11);
        assert_eq!(evaluate(&blue), -evaluate(&red));
        let mut clone = red.clone();
        clone.make_move(Move::single(square("f1")));
        let mut jump = red.clone();
        jump.make_move(Move::double(square("d1"), square("f1")));
        assert!(
            evaluate(&clone) < evaluate(&jump),
            "scores for Blue, to move"
        );
        // Blue (blocked, 14 stones) still wins if Red fills all 12 empty squares.
        let lost = position("ooooooo/ooooooo/-------/-------/-------/7/x5- x 0 1");
        assert_eq!(evaluate(&lost), -DECIDED - 20 * 13);
        // Both sides can move: the network decides.
        assert_eq!(blocked_side(&Position::startpos(Rules::Text)), None);
    }

    fn square(name: &str) -> u8 {
        crate::games::ataxx::parse_square(name).unwrap()
    }
}

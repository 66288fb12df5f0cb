//! Static evaluation for Lines of Action, from the side to move's point of view.
//!
//! The terms are those the LOA literature (Winands' MIA, Björnsson's YL) found to
//! matter, each "ours minus theirs" (oriented so that bigger is better) except the tempo:
//! - concentration: how far a side's pieces lie from their centre of mass, beyond the
//!   least possible for that many pieces (scattered pieces are far from connecting);
//! - centralisation: a square table favouring the centre (central groups are hard to
//!   block and reach everywhere);
//! - Euler number of a side's pieces from 2×2 "quad" counts (groups minus holes; one
//!   solid group has 1), a cheap local proxy for the number of groups;
//! - connectedness: adjacent pairs of a side's pieces, per piece;
//! - mobility: legal moves;
//! - centre of mass: how far it lies from the board's centre;
//! - blocked pieces: pieces with no legal move at all;
//! - walls: enemy pieces on the edge whose every inward neighbour is one of ours (a
//!   piece walled in on the rim cannot join its group);
//! - tempo: the side to move.
//!
//! The evaluation is linear in [`TERMS`], with one weight vector for the opening (`MG`,
//! all 24 pieces on the board) and one for the end (`EG`), blended by the number of
//! pieces left, so `tune fit` can fit the weights to game results (`docs/loa.md`);
//! per-piece terms are scaled by 16 to keep precision in integers.

use super::bitboard::{
    distance, file_of, neighbours, rank_of, square, Bits, FILE_A, FILE_H, RANK_1, RANK_8,
};
use super::position::Position;
use crate::game::Phase;

/// Number of evaluation terms.
pub const N_TERMS: usize = 9;

/// Names of the terms, in order (for the tuner's output).
pub const TERMS: [&str; N_TERMS] = [
    "concentration",
    "centralisation",
    "euler",
    "connectedness",
    "mobility",
    "mass_centre",
    "blocked",
    "walls",
    "tempo",
];

/// Weights of one phase, in term order.
pub type Weights = [i32; N_TERMS];

/// Weights with all 24 pieces on the board. Fitted by `tune fit --variant loa --l2 0.01`
/// on two rounds of 3 000 self-play games (`docs/loa.md`).
pub const MG: Weights = [10, 1, -2, 6, 4, -20, 6, 27, 32];
/// Weights with few pieces left (the blend reaches them at [`PHASE_MIN`] pieces).
pub const EG: Weights = [20, 0, 38, 6, 10, -23, 7, 20, 34];

/// Pieces on the board at the start: the phase's full scale.
const PHASE_MAX: i32 = 24;
/// Pieces at which the end weights apply in full (two groups of four: few games get
/// further).
const PHASE_MIN: i32 = 8;

/// The rim: pieces there can be walled in.
const RIM: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Centralisation table: 4 × (distance to the nearest edge, by file and by rank,
/// added) − 12, so from −12 in the corners to +12 in the four centre squares.
static CENTRE_TABLE: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        let ef = if f < 7 - f { f } else { 7 - f };
        let er = if r < 7 - r { r } else { 7 - r };
        t[sq] = 4 * (ef + er) as i32 - 12;
        sq += 1;
    }
    t
};

/// `MIN_SPREAD[n]`: the least possible sum of king-step distances of `n` pieces to a
/// square (1 at distance 0, 8 at distance 1, 16 at distance 2, ...).
static MIN_SPREAD: [i32; 65] = {
    let mut t = [0i32; 65];
    let mut n = 1;
    let mut d = 0;
    let mut left_in_ring = 1;
    let mut sum = 0;
    while n <= 64 {
        sum += d;
        t[n] = sum;
        left_in_ring -= 1;
        if left_in_ring == 0 {
            d += 1;
            left_in_ring = 8 * d;
        }
        n += 1;
    }
    t
};

/// Files with bit 0 / 1 / 2 of the file number set: three popcounts give a sum of files.
const FILE_BITS: [u64; 3] = [
    FILE_A << 1 | FILE_A << 3 | FILE_A << 5 | FILE_A << 7,
    FILE_A << 2 | FILE_A << 3 | FILE_A << 6 | FILE_A << 7,
    FILE_A << 4 | FILE_A << 5 | FILE_A << 6 | FILE_A << 7,
];
/// The same for ranks.
const RANK_BITS: [u64; 3] = [
    RANK_1 << 8 | RANK_1 << 24 | RANK_1 << 40 | RANK_1 << 56,
    RANK_1 << 16 | RANK_1 << 24 | RANK_1 << 48 | RANK_1 << 56,
    RANK_1 << 32 | RANK_1 << 40 | RANK_1 << 48 | RANK_1 << 56,
];

/// The square nearest to the centre of mass of `bb` (a1 for an empty set).
#[inline]
pub fn centre_of_mass(bb: u64) -> u8 {
    let n = bb.count_ones();
    if n == 0 {
        return 0;
    }
    let weighted = |masks: &[u64; 3]| {
        (bb & masks[0]).count_ones()
            + 2 * (bb & masks[1]).count_ones()
            + 4 * (bb & masks[2]).count_ones()
    };
    // Rounded to the nearest square.
    let f = (2 * weighted(&FILE_BITS) + n) / (2 * n);
    let r = (2 * weighted(&RANK_BITS) + n) / (2 * n);
    square(f as usize, r as usize)
}

/// Euler number of `bb` under 8-connectivity (groups minus holes), by Gray's quad
/// formula `(Q1 − Q3 − 2·QD) / 4` over all 2×2 windows of the board padded by one
/// empty square on each side.
pub fn euler(bb: u64) -> i32 {
    // Interior windows, indexed by their lower-left square (files a–g, ranks 1–7).
    let inner = !(FILE_H | RANK_8);
    let a = bb & inner;
    let b = (bb >> 1) & inner;
    let c = (bb >> 8) & inner;
    let d = (bb >> 9) & inner;
    let odd = a ^ b ^ c ^ d;
    let two_or_more = (a & (b | c | d)) | (b & (c | d)) | (c & d);
    let q1 = (odd & !two_or_more).count_ones() as i32;
    let q3 = (odd & two_or_more).count_ones() as i32;
    let qd = ((a & d & !b & !c) | (b & c & !a & !d)).count_ones() as i32;
    // Windows hanging over an edge hold at most two board squares side by side: they
    // count as Q1 when exactly one is set; corner windows hold one square.
    let edge_pairs = (((bb ^ (bb >> 1)) & !FILE_H & (RANK_1 | RANK_8)).count_ones()
        + ((bb ^ (bb >> 8)) & !RANK_8 & (FILE_A | FILE_H)).count_ones())
        as i32;
    let corners = (bb & (1 | 1 << 7 | 1 << 56 | 1 << 63)).count_ones() as i32;
    (q1 + edge_pairs + corners - q3 - 2 * qd) / 4
}

/// Adjacent (8-neighbour) pairs within `bb`.
#[inline]
fn adjacent_pairs(bb: u64) -> i32 {
    let east = (bb << 1) & !FILE_A;
    let north_east = (bb << 9) & !FILE_A;
    let north_west = (bb << 7) & !FILE_H;
    let north = bb << 8;
    ((bb & east).count_ones()
        + (bb & north).count_ones()
        + (bb & north_east).count_ones()
        + (bb & north_west).count_ones()) as i32
}

/// The per-side terms that need no move generation: (concentration, centralisation,
/// Euler number, connectedness, centre-of-mass distance from the centre), each
/// oriented so that bigger is better for that side.
#[inline]
fn shape(bb: u64) -> [i32; 5] {
    let n = bb.count_ones() as i32;
    if n == 0 {
        return [0; 5];
    }
    let com = centre_of_mass(bb);
    let mut spread = 0;
    let mut table = 0;
    for sq in Bits(bb) {
        spread += distance(sq, com) as i32;
        table += CENTRE_TABLE[sq as usize];
    }
    let excess = spread - MIN_SPREAD[n as usize];
    // Distance of the centre of mass from the centre (d4, d5, e4, e5 count as 0).
    let off = |x: usize| if x < 4 { 3 - x } else { x - 4 };
    let mass_off = off(file_of(com)).max(off(rank_of(com))) as i32;
    [
        -16 * excess / n,
        16 * table / n,
        -euler(bb),
        16 * adjacent_pairs(bb) / n,
        -mass_off,
    ]
}

/// Pieces of `victims` on the rim whose every inward neighbour is in `walls`.
#[inline]
fn walled(victims: u64, walls: u64) -> i32 {
    let mut n = 0;
    for sq in Bits(victims & RIM & neighbours(walls)) {
        let inward = neighbours(1 << sq) & !RIM;
        n += (inward & !walls == 0) as i32;
    }
    n
}

/// The evaluation terms of `pos` from the side to move's view, and its phase: the
/// pieces on the board beyond [`PHASE_MIN`].
#[inline]
pub fn terms(pos: &Position) -> ([i32; N_TERMS], Phase) {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (own_bb, opp_bb) = (pos.pieces(us), pos.pieces(them));
    let own = shape(own_bb);
    let opp = shape(opp_bb);
    let (own_moves, own_blocked) = pos.mobility(us);
    let (opp_moves, opp_blocked) = pos.mobility(them);
    let t = [
        own[0] - opp[0],
        own[1] - opp[1],
        own[2] - opp[2],
        own[3] - opp[3],
        own_moves as i32 - opp_moves as i32,
        own[4] - opp[4],
        opp_blocked as i32 - own_blocked as i32,
        walled(opp_bb, own_bb) - walled(own_bb, opp_bb),
        1,
    ];
    let pieces = (own_bb | opp_bb).count_ones() as i32;
    (t, Phase::new(pieces - PHASE_MIN, PHASE_MAX - PHASE_MIN))
}

/// Evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let (t, phase) = terms(pos);
    phase.blend(&t, &MG, &EG)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loa::Rules;

    fn bb(squares: &[(usize, usize)]) -> u64 {
        squares
            .iter()
            .fold(0, |b, &(f, r)| b | 1u64 << square(f, r))
    }

    #[test]
    fn euler_counts_groups_minus_holes() {
        assert_eq!(euler(0), 0);
        assert_eq!(euler(1), 1);
        assert_eq!(euler(1 << 63), 1);
        assert_eq!(euler(bb(&[(3, 3)])), 1);
        assert_eq!(euler(bb(&[(0, 0), (2, 0)])), 2);
        assert_eq!(
            euler(bb(&[(0, 0), (1, 1)])),
            1,
            "diagonal neighbours connect"
        );
        assert_eq!(euler(bb(&[(0, 0), (7, 7), (0, 7), (7, 0)])), 4);
        let ring = bb(&[
            (2, 2),
            (3, 2),
            (4, 2),
            (2, 3),
            (4, 3),
            (2, 4),
            (3, 4),
            (4, 4),
        ]);
        assert_eq!(euler(ring), 0, "one group with one hole");
        assert_eq!(euler(!0), 1);
        let start = Position::startpos(Rules::Ugi);
        assert_eq!(euler(start.pieces(crate::game::Side::First)), 2);
        assert_eq!(euler(start.pieces(crate::game::Side::Second)), 2);
    }

    #[test]
    fn centre_of_mass_and_spread() {
        assert_eq!(centre_of_mass(bb(&[(0, 0), (2, 2)])), square(1, 1));
        assert_eq!(centre_of_mass(bb(&[(7, 7)])), 63);
        assert_eq!(MIN_SPREAD[1], 0);
        assert_eq!(MIN_SPREAD[9], 8);
        assert_eq!(MIN_SPREAD[12], 14);
    }

    #[test]
    fn start_is_balanced_but_for_tempo() {
        let start = Position::startpos(Rules::Ugi);
        let (t, phase) = terms(&start);
        assert_eq!(&t[..N_TERMS - 1], &[0; N_TERMS - 1]);
        assert_eq!(phase.fraction(), 1.0);
        assert_eq!(evaluate(&start), MG[N_TERMS - 1]);
    }

    #[test]
    fn compact_beats_scattered() {
        // Black mostly in a block, white spread over the corners; neither connected.
        let pos = Position::from_fen("o6o/8/8/3xx3/3xx3/8/8/o5xo x 0 1", Rules::Ugi);
        assert!(evaluate(&pos.unwrap()) > 200);
    }
}

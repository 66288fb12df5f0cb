//! Exact endgame solver: the best move and the exact final disc difference (empty
//! squares to the winner) for the side to move, and the nodes searched.
//!
//! Negamax alpha-beta on the disc difference over the bare pair (own, opp) of
//! bitboards. The root and the few nodes of the principal variation run PVS with the
//! full window (exact scores); everything else is a fail-soft null-window search ("is
//! the score above alpha?"), whose bounds a transposition table keeps across the
//! re-searches. Move ordering, which decides the size of the tree, goes from expensive
//! to cheap as the empties run out:
//! - principal variation with 16+ empties: the best move of an iterative-deepening
//!   midgame search with a mobility evaluation, then the others by shallower searches
//!   (from 17 empties);
//! - 17+ empties: a 3-ply search with the mobility evaluation per move (20+: also an
//!   iterative-deepening best move), plus the table's move;
//! - 10+ empties: the table's move first (searched before the others are ordered),
//!   then fastest-first (fewest opponent replies, then corner stability, then
//!   potential mobility), a bound from the opponent's stable discs, and from 12
//!   empties an enhanced transposition cutoff (a child already refuted in the table);
//! - 8 and 9 empties: fastest-first without the table;
//! - 5 to 7 empties: parity order (squares of quadrants with an odd number of empties
//!   first: the side that fills a region last gains), corners first, X squares last;
//! - 4 to 1 empties: dedicated loops over the squares with no move list; the last
//!   square only counts flips by table lookups.

use super::bitboard::{
    flips, last_flip_count, moves, neighbours, stable, Bits, CORNERS, C_SQUARES, NEIGHBOURS,
    X_SQUARES,
};
use super::position::{final_score, Move, Position};
use crate::game::RuleSet;
use std::io::Write;
use std::time::{Duration, Instant};

/// Empties above which null-window nodes use the transposition table (9 rather than
/// 10 or 8: 10% fewer nodes than 10 on FFO #40–#47, while 8 saves a little more in
/// nodes but not in time).
pub const TT_EMPTIES: u32 = 9;
/// Empties above which table nodes try the enhanced transposition cutoff (a probe per
/// child): below, it saved 1.5% of the nodes but cost 8% of the time.
pub const ETC_EMPTIES: u32 = 11;
/// Empties above which nodes without the table still sort moves fastest-first.
pub const SORT_EMPTIES: u32 = 7;
/// Empties above which nodes without the table check the opponent's stable discs.
pub const STABILITY_EMPTIES: u32 = 8;
/// Empties from which moves are ordered by shallow mobility searches, not one ply (17
/// rather than 16: about the same nodes on FFO #40-#48, 10% less time; 18 and 14 cost
/// more nodes).
pub const SHALLOW_EMPTIES: u32 = 17;
/// Depth of those searches (odd: the evaluation then always sees us to move) at null-
/// window nodes, on the principal variation, and at the root.
pub const NWS_SHALLOW_DEPTH: u32 = 3;
pub const PV_SHALLOW_DEPTH: u32 = 5;
pub const ROOT_SHALLOW_DEPTH: u32 = 7;
/// Principal-variation nodes with this many empties without a table move find one by
/// iterative deepening to `empties - IID_MARGIN` plies (at most `IID_MAX_DEPTH`).
pub const IID_EMPTIES: u32 = 16;
pub const IID_MARGIN: u32 = 10;
/// The same for null-window nodes, less deep.
pub const IID_NWS_EMPTIES: u32 = 20;
pub const IID_NWS_MARGIN: u32 = 14;
pub const IID_MAX_DEPTH: u32 = 10;
/// Default transposition table size: 2^22 entries of 24 bytes (96 MiB); the big FFO
/// positions visit 10^8–10^9 nodes, and 2^20 entries overflowed on them.
pub const DEFAULT_TT_BITS: u32 = 22;
/// Size of the hint table of the midgame searches: 2^16 entries of 24 bytes.
const HINT_BITS: u32 = 16;

/// The largest disc difference.
const SCORE_MAX: i32 = 64;
/// Beyond any disc difference: a full window, or "no move tried yet".
const SCORE_INF: i32 = 65;
/// Beyond any mobility evaluation or scaled final score.
const EVAL_INF: i32 = 1 << 20;
/// A finished game in the midgame searches: the disc difference times this.
const GAME_OVER_SCALE: i32 = 1000;
/// No move (a square number no move has).
const NO_MOVE: u8 = 64;
/// More than the legal moves of any position.
const MAX_MOVES: usize = 64;

/// The four 4×4 quadrants, the regions whose parity orders moves near the end.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Static classes of squares, tried in this order within one parity class.
const PRIORITY: [u64; 4] = [
    CORNERS,
    !(CORNERS | C_SQUARES | X_SQUARES),
    C_SQUARES,
    X_SQUARES,
];

/// Empty squares in quadrants that hold an odd number of empties.
#[inline]
fn odd_regions(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd & empty
}

/// The position after `own` plays on `sq` flipping `f`, from the opponent's view.
#[inline(always)]
fn play(own: u64, opp: u64, sq: u8, f: u64) -> (u64, u64) {
    (opp & !f, own | f | 1u64 << sq)
}

/// Slot of a position in a table of `mask + 1` entries.
#[inline]
fn table_index(own: u64, opp: u64, mask: usize) -> usize {
    let h = own.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    ((h ^ (h >> 29)) as usize) & mask
}

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move (the pass when forced), `None` once the game is over.
    pub best: Option<Move>,
    /// The exact final disc difference for the side to move, empties to the winner.
    pub score: i32,
    /// Nodes searched (every position visited, those of the ordering searches and the
    /// last empty square included).
    pub nodes: u64,
}

/// Bounds on a position's score from earlier searches, and the move that was best.
/// The whole position is the key, so a hit is never a collision.
#[derive(Clone, Copy, Default)]
struct Entry {
    own: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    mv: u8,
    /// 0 marks an empty slot (stored positions have more than `TT_EMPTIES` empties).
    empties: u8,
}

/// The solver: its transposition table, the midgame searches' hints and the node
/// counter, reusable across positions.
pub struct Solver {
    table: Vec<Entry>,
    mask: usize,
    hints: Vec<(u64, u64, u8)>,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(DEFAULT_TT_BITS)
    }
}

impl Solver {
    /// A solver with a table of 2^`bits` entries (24 bytes each; `bits` in 4..=30).
    pub fn new(bits: u32) -> Solver {
        let bits = bits.clamp(4, 30);
        Solver {
            table: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
            hints: vec![(0, 0, NO_MOVE); 1 << HINT_BITS],
            nodes: 0,
        }
    }

    /// Forgets everything learnt (for reproducible node counts).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.hints.fill((0, 0, NO_MOVE));
    }

    /// Solves `pos` exactly. The tables are kept, so solving related positions in a
    /// row reuses earlier work.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        self.solve_bits(pos.own(), pos.opp())
    }

    /// Solves the position `own` to move against `opp` (they must not overlap).
    pub fn solve_bits(&mut self, own: u64, opp: u64) -> Solution {
        self.nodes = 0;
        if moves(own, opp) == 0 {
            if moves(opp, own) == 0 {
                return Solution {
                    best: None,
                    score: final_score(own, opp),
                    nodes: 1,
                };
            }
            let s = self.solve_bits(opp, own);
            return Solution {
                best: Some(Move::PASS),
                score: -s.score,
                nodes: s.nodes + 1,
            };
        }
        let (score, best) = root(self, own, opp);
        Solution {
            best: Some(Move::place(best)),
            score,
            nodes: self.nodes,
        }
    }

    /// The table's entry for the position, if it holds one (two slots per bucket).
    #[inline]
    fn probe(&self, own: u64, opp: u64) -> Option<Entry> {
        let i = table_index(own, opp, self.mask) & !1;
        self.table[i..i + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp && e.empties != 0)
            .copied()
    }

    /// Stores `e` over the entry of the same position, else over the slot of its bucket
    /// with fewer empties (deeper results cost more to find again).
    #[inline]
    fn put(&mut self, e: Entry) {
        let i = table_index(e.own, e.opp, self.mask) & !1;
        let same = |x: &Entry| x.own == e.own && x.opp == e.opp;
        let slot = if same(&self.table[i]) {
            i
        } else if same(&self.table[i + 1]) || self.table[i].empties > self.table[i + 1].empties {
            i + 1
        } else {
            i
        };
        self.table[slot] = e;
    }

    /// Records the fail-soft result `score` of a null-window search at `alpha`,
    /// tightening the bounds (`lower`, `upper`) known before it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        score: i32,
        sq: u8,
        empties: u32,
        lower: i32,
        upper: i32,
    ) {
        let (lower, upper) = if score > alpha {
            (lower.max(score), upper)
        } else {
            (lower, upper.min(score))
        };
        self.put(Entry {
            own,
            opp,
            lower: lower as i8,
            upper: upper as i8,
            mv: sq,
            empties: empties as u8,
        });
    }

    /// The midgame searches' best move for the position, or `NO_MOVE`.
    #[inline]
    fn hint(&self, own: u64, opp: u64) -> u8 {
        let h = self.hints[table_index(own, opp, (1 << HINT_BITS) - 1)];
        if h.0 == own && h.1 == opp {
            h.2
        } else {
            NO_MOVE
        }
    }

    #[inline]
    fn set_hint(&mut self, own: u64, opp: u64, sq: u8) {
        self.hints[table_index(own, opp, (1 << HINT_BITS) - 1)] = (own, opp, sq);
    }
}
/// Discs of `own` that the corners make stable: own corners and the edge squares
/// next to them.
#[inline]
fn corner_stability(own: u64) -> i32 {
    let s = (((0x0100_0000_0000_0001 & own) << 1)
        | ((0x8000_0000_0000_0080 & own) >> 1)
        | ((0x0000_0000_0000_0081 & own) << 8)
        | ((0x8100_0000_0000_0000 & own) >> 8)
        | CORNERS)
        & own;
    s.count_ones() as i32
}

/// Fastest-first key of the position reached (`next_own` to move, `next_opp` the
/// mover; lower is tried first), Edax's weights in strict priority: the opponent's
/// moves (corners counting double), then our discs stable by the corners, then its
/// potential moves. Letting mobility dominate potential mobility saved 6% of the nodes
/// over a 16:1 mix; Edax's further tie-breaks (square values, parity) saved nothing.
#[inline]
fn reply_key(next_own: u64, next_opp: u64) -> i32 {
    let m = moves(next_own, next_opp);
    let empty = !(next_own | next_opp);
    let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    let potential = (neighbours(next_opp) & empty).count_ones() as i32;
    (mobility << 15) - (corner_stability(next_opp) << 11) + (potential << 5)
}

/// The evaluation that orders moves far from the end: mobility (corners double),
/// potential mobility and corners, for `own` to move. Fastest-first looks one move
/// ahead with the same idea; the shallow searches look further.
#[inline]
fn mobility_eval(own: u64, opp: u64) -> i32 {
    let a = moves(own, opp);
    let b = moves(opp, own);
    let empty = !(own | opp);
    let mob = (a.count_ones() + (a & CORNERS).count_ones()) as i32
        - (b.count_ones() + (b & CORNERS).count_ones()) as i32;
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(own) & empty).count_ones() as i32;
    let corners = (own & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
    16 * mob + potential + 32 * corners
}

/// Depth-limited alpha-beta with [`mobility_eval`] at the leaves (a finished game
/// scores far beyond any evaluation), remembering each node's best move in the hint
/// table so iterative deepening and later searches try it first.
fn mid(s: &mut Solver, own: u64, opp: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    s.nodes += 1;
    if depth == 0 {
        return mobility_eval(own, opp);
    }
    let legal = moves(own, opp);
    if legal == 0 {
        if moves(opp, own) == 0 {
            return GAME_OVER_SCALE * final_score(own, opp);
        }
        return -mid(s, opp, own, depth, -beta, -alpha);
    }
    let hint = s.hint(own, opp);
    let mut list = [(0u8, 0u64, 0i32); MAX_MOVES];
    let mut n = 0;
    for sq in Bits(legal) {
        let f = flips(own, opp, sq);
        let key = if sq == hint {
            i32::MIN
        } else if depth > 1 {
            let (no, np) = play(own, opp, sq, f);
            reply_key(no, np)
        } else {
            0
        };
        list[n] = (sq, f, key);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|m| m.2);
    let mut best = -EVAL_INF;
    let mut best_sq = list[0].0;
    for &(sq, f, _) in list.iter() {
        let (no, np) = play(own, opp, sq, f);
        let v = -mid(s, no, np, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            best_sq = sq;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    s.set_hint(own, opp, best_sq);
    best
}

/// Iterative deepening of [`mid`] by two plies up to `depth` (even, so the leaves
/// always have the same side to move: the mobility evaluation favours the mover).
/// Returns the best move found.
fn best_by_iid(s: &mut Solver, own: u64, opp: u64, depth: u32) -> u8 {
    let mut d = 2;
    while d <= depth {
        mid(s, own, opp, d, -EVAL_INF, EVAL_INF);
        d += 2;
    }
    s.hint(own, opp)
}

/// The ordering key of the child (`no`, `np`) of a node with `empties` empties:
/// the child's score by a shallow search where it pays (the child is the opponent's
/// position, so a low score is good for us), else fastest-first.
#[inline]
fn order_key(s: &mut Solver, no: u64, np: u64, empties: u32, shallow_depth: u32) -> i32 {
    if empties >= SHALLOW_EMPTIES {
        mid(s, no, np, shallow_depth, -EVAL_INF, EVAL_INF)
    } else {
        reply_key(no, np)
    }
}

/// Solves the root (`own` to move, at least one legal move): principal-variation
/// search with the full window. Returns the score and the best square.
fn root(s: &mut Solver, own: u64, opp: u64) -> (i32, u8) {
    s.nodes += 1;
    let empties = (!(own | opp)).count_ones();
    let mut list = [(0u8, 0u64, 0i32); MAX_MOVES];
    let mut n = 0;
    for sq in Bits(moves(own, opp)) {
        let f = flips(own, opp, sq);
        let (no, np) = play(own, opp, sq, f);
        list[n] = (sq, f, order_key(s, no, np, empties, ROOT_SHALLOW_DEPTH));
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_by_key(|m| m.2);
    let (mut alpha, beta) = (-SCORE_INF, SCORE_INF);
    let mut best_sq = list[0].0;
    for (i, &(sq, f, _)) in list.iter().enumerate() {
        let (no, np) = play(own, opp, sq, f);
        let v = if i == 0 {
            -pvs(s, no, np, -beta, -alpha, empties - 1)
        } else {
            let v = -nws(s, no, np, -alpha - 1, empties - 1);
            if v > alpha {
                -pvs(s, no, np, -beta, -(v - 1), empties - 1)
            } else {
                v
            }
        };
        if v > alpha {
            alpha = v;
            best_sq = sq;
        }
    }
    (alpha, best_sq)
}

/// Principal-variation search with the window (`alpha`, `beta`), fail-soft: exact
/// inside the window. Only the few nodes on the principal variation come here, so
/// they afford the best ordering: the table's move, else one found by iterative
/// deepening, then shallow searches.
fn pvs(s: &mut Solver, own: u64, opp: u64, mut alpha: i32, beta: i32, empties: u32) -> i32 {
    if beta == alpha + 1 {
        return nws(s, own, opp, alpha, empties);
    }
    s.nodes += 1;
    let legal = moves(own, opp);
    if legal == 0 {
        if moves(opp, own) == 0 {
            return final_score(own, opp);
        }
        return -pvs(s, opp, own, -beta, -alpha, empties);
    }
    let mut first = NO_MOVE;
    let (mut lower, mut upper) = (-SCORE_MAX, SCORE_MAX);
    if let Some(e) = s.probe(own, opp) {
        lower = e.lower as i32;
        upper = e.upper as i32;
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        first = e.mv;
    }
    if first == NO_MOVE && empties >= IID_EMPTIES {
        first = best_by_iid(s, own, opp, (empties - IID_MARGIN).min(IID_MAX_DEPTH) & !1);
    }
    let mut list = [(0u8, 0u64, 0i32); MAX_MOVES];
    let mut n = 0;
    for sq in Bits(legal) {
        let f = flips(own, opp, sq);
        let (no, np) = play(own, opp, sq, f);
        let key = if sq == first {
            i32::MIN
        } else {
            order_key(s, no, np, empties, PV_SHALLOW_DEPTH)
        };
        list[n] = (sq, f, key);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|m| m.2);
    let alpha0 = alpha;
    let mut best = -SCORE_INF;
    let mut best_sq = list[0].0;
    for (i, &(sq, f, _)) in list.iter().enumerate() {
        let (no, np) = play(own, opp, sq, f);
        let v = if i == 0 {
            -pvs(s, no, np, -beta, -alpha, empties - 1)
        } else {
            let v = -nws(s, no, np, -alpha - 1, empties - 1);
            if v > alpha && v < beta {
                // The null window says "better than alpha": find out how much.
                -pvs(s, no, np, -beta, -(v - 1), empties - 1)
            } else {
                v
            }
        };
        if v > best {
            best = v;
            best_sq = sq;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    let (lower, upper) = if best >= beta {
        (lower.max(best), upper)
    } else if best > alpha0 {
        (best, best)
    } else {
        (lower, upper.min(best))
    };
    s.put(Entry {
        own,
        opp,
        lower: lower as i8,
        upper: upper as i8,
        mv: best_sq,
        empties: empties as u8,
    });
    best
}

/// Null-window search: is the score of `own` to move above `alpha`? Fail-soft.
#[inline]
fn nws(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
    if empties > TT_EMPTIES {
        nws_table(s, own, opp, alpha, empties)
    } else if empties > 4 {
        nws_mid(s, own, opp, alpha, empties)
    } else {
        nws_small(s, own, opp, alpha, empties)
    }
}

/// The side to move has no move: pass, or score the finished game.
#[inline]
fn pass(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
    if moves(opp, own) == 0 {
        final_score(own, opp)
    } else {
        -nws(s, opp, own, -alpha - 1, empties)
    }
}

/// An upper bound on the score from the opponent's stable discs (they stay its
/// own to the end), worth computing only when it might be at most `alpha`.
#[inline]
fn stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    if alpha >= SCORE_MAX - 2 * opp.count_ones() as i32 {
        let bound = SCORE_MAX - 2 * stable(opp, own).count_ones() as i32;
        if bound <= alpha {
            return Some(bound);
        }
    }
    None
}

/// Null-window nodes with more than `TT_EMPTIES` empties: transposition table,
/// stability cutoff, enhanced transposition cutoff, then moves best-first.
fn nws_table(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
    s.nodes += 1;
    let mut first = NO_MOVE;
    let (mut lower, mut upper) = (-SCORE_MAX, SCORE_MAX);
    if let Some(e) = s.probe(own, opp) {
        lower = e.lower as i32;
        upper = e.upper as i32;
        if lower > alpha {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        first = e.mv;
    }
    let legal = moves(own, opp);
    if legal == 0 {
        return pass(s, own, opp, alpha, empties);
    }
    if let Some(bound) = stability_cutoff(own, opp, alpha) {
        return bound;
    }
    if first == NO_MOVE && empties >= IID_NWS_EMPTIES {
        first = best_by_iid(
            s,
            own,
            opp,
            (empties - IID_NWS_MARGIN).min(IID_MAX_DEPTH) & !1,
        );
    }
    let mut list = [(0u8, 0u64, 0i32); MAX_MOVES];
    let mut n = 0;
    let mut first_flips = 0;
    for sq in Bits(legal) {
        let f = flips(own, opp, sq);
        let (no, np) = play(own, opp, sq, f);
        // Enhanced transposition cutoff: a child the table already knows to be bad
        // enough for the opponent settles this node without a search.
        if empties > ETC_EMPTIES {
            if let Some(ce) = s.probe(no, np) {
                if -(ce.upper as i32) > alpha {
                    let v = -(ce.upper as i32);
                    s.store(own, opp, alpha, v, sq, empties, lower, upper);
                    return v;
                }
            }
        }
        if sq == first {
            first_flips = f;
        } else {
            list[n] = (sq, f, 0);
            n += 1;
        }
    }
    let mut best = -SCORE_INF;
    let mut best_sq = NO_MOVE;
    // The table's move alone first: when it refutes, the others need no ordering
    // searches (whose nodes count as much as the tree's).
    if first_flips != 0 {
        let (no, np) = play(own, opp, first, first_flips);
        best = -nws(s, no, np, -alpha - 1, empties - 1);
        best_sq = first;
        if best > alpha {
            s.store(own, opp, alpha, best, best_sq, empties, lower, upper);
            return best;
        }
    }
    let list = &mut list[..n];
    for m in list.iter_mut() {
        let (no, np) = play(own, opp, m.0, m.1);
        m.2 = order_key(s, no, np, empties, NWS_SHALLOW_DEPTH);
    }
    list.sort_unstable_by_key(|m| m.2);
    for &(sq, f, _) in list.iter() {
        let (no, np) = play(own, opp, sq, f);
        let v = -nws(s, no, np, -alpha - 1, empties - 1);
        if v > best {
            best = v;
            best_sq = sq;
            if v > alpha {
                break;
            }
        }
    }
    s.store(own, opp, alpha, best, best_sq, empties, lower, upper);
    best
}

/// Null-window nodes with 5 to `TT_EMPTIES` empties: no table (it would cost more
/// than it saves); fastest-first above `SORT_EMPTIES`, else parity order.
fn nws_mid(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
    s.nodes += 1;
    let legal = moves(own, opp);
    if legal == 0 {
        return pass(s, own, opp, alpha, empties);
    }
    if empties > STABILITY_EMPTIES {
        if let Some(bound) = stability_cutoff(own, opp, alpha) {
            return bound;
        }
    }
    let mut best = -SCORE_INF;
    if empties > SORT_EMPTIES {
        let mut list = [(0u8, 0u64, 0i32); MAX_MOVES];
        let mut n = 0;
        for sq in Bits(legal) {
            let f = flips(own, opp, sq);
            let (no, np) = play(own, opp, sq, f);
            list[n] = (sq, f, reply_key(no, np));
            n += 1;
        }
        let list = &mut list[..n];
        list.sort_unstable_by_key(|m| m.2);
        for &(sq, f, _) in list.iter() {
            let (no, np) = play(own, opp, sq, f);
            let v = -nws(s, no, np, -alpha - 1, empties - 1);
            if v > best {
                best = v;
                if v > alpha {
                    return v;
                }
            }
        }
        return best;
    }
    let odd = odd_regions(!(own | opp));
    for class in [odd, !odd] {
        for pri in PRIORITY {
            for sq in Bits(legal & class & pri) {
                let f = flips(own, opp, sq);
                let (no, np) = play(own, opp, sq, f);
                let v = -nws(s, no, np, -alpha - 1, empties - 1);
                if v > best {
                    best = v;
                    if v > alpha {
                        return v;
                    }
                }
            }
        }
    }
    best
}

/// 0 to 4 empties: collect the squares, odd regions first, and run the loops.
#[inline]
fn nws_small(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
    let empty = !(own | opp);
    let odd = odd_regions(empty);
    let mut sq = [0u8; 4];
    let mut n = 0;
    for x in Bits(empty & odd).chain(Bits(empty & !odd)) {
        sq[n] = x;
        n += 1;
    }
    debug_assert_eq!(n as u32, empties);
    match n {
        4 => nws4(s, own, opp, alpha, sq),
        3 => nws3(s, own, opp, alpha, [sq[0], sq[1], sq[2]]),
        2 => nws2(s, own, opp, alpha, sq[0], sq[1]),
        1 => last1(s, own, opp, sq[0]),
        _ => {
            s.nodes += 1;
            final_score(own, opp)
        }
    }
}

/// Four empties `sq`, in parity order; no move list.
fn nws4(s: &mut Solver, own: u64, opp: u64, alpha: i32, sq: [u8; 4]) -> i32 {
    s.nodes += 1;
    let mut best = -SCORE_INF;
    for i in 0..4 {
        let x = sq[i];
        if NEIGHBOURS[x as usize] & opp == 0 {
            continue;
        }
        let f = flips(own, opp, x);
        if f == 0 {
            continue;
        }
        let rest = match i {
            0 => [sq[1], sq[2], sq[3]],
            1 => [sq[0], sq[2], sq[3]],
            2 => [sq[0], sq[1], sq[3]],
            _ => [sq[0], sq[1], sq[2]],
        };
        let (no, np) = play(own, opp, x, f);
        let v = -nws3(s, no, np, -alpha - 1, rest);
        if v > best {
            best = v;
            if v > alpha {
                return v;
            }
        }
    }
    if best == -SCORE_INF {
        return if moves(opp, own) == 0 {
            final_score(own, opp)
        } else {
            -nws4(s, opp, own, -alpha - 1, sq)
        };
    }
    best
}

/// Three empties.
fn nws3(s: &mut Solver, own: u64, opp: u64, alpha: i32, sq: [u8; 3]) -> i32 {
    s.nodes += 1;
    let mut best = -SCORE_INF;
    for i in 0..3 {
        let x = sq[i];
        if NEIGHBOURS[x as usize] & opp == 0 {
            continue;
        }
        let f = flips(own, opp, x);
        if f == 0 {
            continue;
        }
        let (a, b) = match i {
            0 => (sq[1], sq[2]),
            1 => (sq[0], sq[2]),
            _ => (sq[0], sq[1]),
        };
        let (no, np) = play(own, opp, x, f);
        let v = -nws2(s, no, np, -alpha - 1, a, b);
        if v > best {
            best = v;
            if v > alpha {
                return v;
            }
        }
    }
    if best == -SCORE_INF {
        return if moves(opp, own) == 0 {
            final_score(own, opp)
        } else {
            -nws3(s, opp, own, -alpha - 1, sq)
        };
    }
    best
}

/// Two empties `a` and `b`; a pass is handled here, without a recursive call.
fn nws2(s: &mut Solver, own: u64, opp: u64, alpha: i32, a: u8, b: u8) -> i32 {
    s.nodes += 1;
    let mut best = -SCORE_INF;
    if NEIGHBOURS[a as usize] & opp != 0 {
        let f = flips(own, opp, a);
        if f != 0 {
            let (no, np) = play(own, opp, a, f);
            best = -last1(s, no, np, b);
            if best > alpha {
                return best;
            }
        }
    }
    if NEIGHBOURS[b as usize] & opp != 0 {
        let f = flips(own, opp, b);
        if f != 0 {
            let (no, np) = play(own, opp, b, f);
            return (-last1(s, no, np, a)).max(best);
        }
    }
    if best != -SCORE_INF {
        return best;
    }
    // We pass: the opponent moves, and we get the worse of its results for us.
    s.nodes += 1;
    let mut worst = SCORE_INF;
    if NEIGHBOURS[a as usize] & own != 0 {
        let f = flips(opp, own, a);
        if f != 0 {
            let (np, no) = play(opp, own, a, f);
            worst = last1(s, np, no, b);
            if worst <= alpha {
                return worst;
            }
        }
    }
    if NEIGHBOURS[b as usize] & own != 0 {
        let f = flips(opp, own, b);
        if f != 0 {
            let (np, no) = play(opp, own, b, f);
            return last1(s, np, no, a).min(worst);
        }
    }
    if worst != SCORE_INF {
        return worst;
    }
    final_score(own, opp)
}

/// The last empty square `x`: only the flips need counting, by line lookups.
#[inline]
fn last1(s: &mut Solver, own: u64, opp: u64, x: u8) -> i32 {
    s.nodes += 1;
    let n = own.count_ones() as i32;
    let f = last_flip_count(own, x) as i32;
    if f > 0 {
        return 2 * (n + 1 + f) - 64;
    }
    let g = last_flip_count(opp, x) as i32;
    if g > 0 {
        return 2 * (n - g) - 64;
    }
    // Neither side can fill it: the empty square goes to the winner.
    let diff = 2 * n - 63;
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

/// Solves `pos` with a fresh default-sized solver.
pub fn solve(pos: &Position) -> Solution {
    Solver::default().solve(pos)
}

/// Totals of a [`solve_obf`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveTotals {
    pub positions: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// Solves every position of an OBF text (blank lines and lines starting with `#` or `%`
/// are skipped) and writes one line per position:
/// `N OBF empties E move M score S nodes N time MS`. The whole text is read before
/// anything is solved, so a bad line is reported (`line N: …`) without partial output.
pub fn solve_obf(text: &str, out: &mut dyn Write) -> Result<SolveTotals, String> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            continue;
        }
        let pos =
            Position::from_obf(t, RuleSet::Engine).map_err(|e| format!("line {}: {e}", i + 1))?;
        positions.push(pos);
    }
    let mut solver = Solver::default();
    let mut totals = SolveTotals::default();
    for (i, pos) in positions.iter().enumerate() {
        solver.clear();
        let start = Instant::now();
        let s = solver.solve(pos);
        let time = start.elapsed();
        let mv = match s.best {
            None => "none".to_string(),
            Some(m) => m.to_string(),
        };
        writeln!(
            out,
            "{} {} empties {} move {} score {} nodes {} time {}",
            i + 1,
            pos.to_obf(),
            pos.empty().count_ones(),
            mv,
            s.score,
            s.nodes,
            time.as_millis()
        )
        .map_err(|e| e.to_string())?;
        totals.positions += 1;
        totals.nodes += s.nodes;
        totals.time += time;
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Plain alpha-beta over the final score (no table, no tricks), for cross-checking.
    fn reference(own: u64, opp: u64, mut alpha: i32, beta: i32) -> i32 {
        let m = moves(own, opp);
        if m == 0 {
            if moves(opp, own) == 0 {
                return final_score(own, opp);
            }
            return -reference(opp, own, -beta, -alpha);
        }
        let mut best = -SCORE_INF;
        for sq in Bits(m) {
            let f = flips(own, opp, sq);
            let (no, np) = play(own, opp, sq, f);
            let v = -reference(no, np, -beta, -alpha);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn exact(pos: &Position) -> i32 {
        reference(pos.own(), pos.opp(), -SCORE_INF, SCORE_INF)
    }

    /// Random positions with `empties` empty squares from random play.
    fn random_endgames(seed: u64, empties: u32, count: usize) -> Vec<Position> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::startpos(RuleSet::Engine);
            while pos.empty().count_ones() > empties && !pos.is_over() {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                pos.make_move(mv);
            }
            out.push(pos);
        }
        out
    }

    /// Every level of the solver (last square, small loops, parity and fastest-first
    /// nodes, the table, PVS) against plain alpha-beta, score and best move.
    #[test]
    fn matches_plain_alpha_beta() {
        let mut solver = Solver::new(16);
        for (empties, count) in [
            (0, 40),
            (1, 200),
            (2, 200),
            (3, 200),
            (4, 200),
            (5, 200),
            (6, 100),
            (7, 100),
            (8, 60),
            (9, 60),
            (11, 30),
            (12, 20),
            (13, 10),
        ] {
            for pos in random_endgames(empties as u64 + 1, empties, count) {
                let want = exact(&pos);
                solver.clear();
                let s = solver.solve(&pos);
                assert_eq!(s.score, want, "{pos:?}");
                match s.best {
                    Some(mv) => {
                        assert!(pos.is_legal(mv), "{pos:?} {mv}");
                        let mut next = pos.clone();
                        next.make_move(mv);
                        assert_eq!(-exact(&next), want, "{pos:?} {mv}");
                    }
                    None => assert!(pos.is_over()),
                }
            }
        }
    }

    /// The midgame ordering searches start at 17 empties: a few positions there.
    #[test]
    fn matches_plain_alpha_beta_with_ordering_searches() {
        let mut solver = Solver::new(18);
        for pos in random_endgames(77, 17, 2) {
            solver.clear();
            assert_eq!(solver.solve(&pos).score, exact(&pos), "{pos:?}");
        }
    }

    #[test]
    fn obf_lines() {
        // Black a1 against white g1 and h8: nobody can move, white wins 2-1 (+61 empties).
        let board = format!("X-----O-{}O", "-".repeat(55));
        let text = format!("# comment\n\n{board} X; junk\n");
        let mut out = Vec::new();
        let t = solve_obf(&text, &mut out).unwrap();
        assert_eq!(t.positions, 1);
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.starts_with(&format!(
                "1 {board} X empties 61 move none score -62 nodes 1 time "
            )),
            "{out}"
        );
        assert!(solve_obf("junk X", &mut Vec::new()).is_err());
    }
}

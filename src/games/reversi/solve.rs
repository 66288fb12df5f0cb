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
//!   midgame search with the midgame evaluation, then the others by shallower searches
//!   (from 17 empties);
//! - 17+ empties: a 3-ply search with the midgame evaluation per move (20+: also an
//!   iterative-deepening best move), plus the table's move;
//! - 10+ empties: the table's move first (searched before the others are ordered),
//!   then fastest-first (fewest opponent replies, then corner stability, then
//!   potential mobility; at 15 and 16 empties plus the midgame evaluation), and from
//!   12 empties an enhanced transposition cutoff (a child already refuted in the table);
//! - 7 to 9 empties: fastest-first without the table (at 7 and 8 by the opponent's
//!   moves alone);
//! - 5 and 6 empties: parity order (squares of quadrants with an odd number of empties
//!   first: the side that fills a region last gains), corners first, X squares last;
//! - 4 to 1 empties: dedicated loops over the squares with no move list; the last
//!   square only counts flips by table lookups.
//!
//! Every null-window node from 4 empties up first bounds its score by the opponent's
//! stable discs, which cuts a large part of the tree ([`stable`]).
//!
//! From 20 empties the root first runs a selective pass (at most 4 moves per table
//! node), whose score centres an aspiration window for the exact search and whose
//! moves fill the table ([`SELECTIVE_EMPTIES`]). The search itself lives in
//! `solve_search.rs`, compiled twice (portable, and for AVX2/BMI2 CPUs) and picked at
//! run time ([`Isa`]).

use super::bitboard::{
    flips, last_flip_count, moves, neighbours, stable, Bits, CORNERS, C_SQUARES, NEIGHBOURS,
    X_SQUARES,
};
use super::midgame;
use super::position::{final_score, Move, Position};
use std::io::Write;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Empties above which null-window nodes use the transposition table (9 rather than
/// 10 or 8: fewer nodes than 10 on FFO #40–#47, while 8 saves a few more nodes but no
/// time; the figures are in `docs/reversi.md`, "Measurements behind the constants").
pub const TT_EMPTIES: u32 = 9;
/// Empties above which table nodes try the enhanced transposition cutoff (a probe per
/// child): below, the probes cost more time than the nodes they saved
/// (`docs/reversi.md`, "Measurements behind the constants").
pub const ETC_EMPTIES: u32 = 11;
/// Empties above which nodes without the table still sort moves fastest-first.
pub const SORT_EMPTIES: u32 = 6;
/// Empties up to which that sort counts only the opponent's moves (`mobility_key`), not
/// the full fastest-first key: sorting from 7 empties instead of 8 with the full key cut
/// the nodes but not the time; this cheaper key at 7 and 8 empties keeps most of the
/// cut and drops the cost, on FFO #40–#49 and the four position sets alike
/// (`docs/reversi.md`, "Measurements behind the constants").
pub const MOBILITY_KEY_EMPTIES: u32 = 8;
/// Empties from which moves are ordered by shallow searches, not one ply. With the old
/// 8-pattern evaluation 17 (about the same nodes as 16 on FFO #40-#48 in less time; 18
/// and 14 cost more nodes); with the midgame evaluation in the key below them, 18: the
/// one-ply key with that evaluation at 17 empties orders nearly as well as the 3-ply
/// searches for far fewer instructions (FFO #40–#49 +0.3% nodes, #20–#39 +1.9%;
/// instructions −7.0% on #40, #42, #44 and −2.8% on #33–#35); 19 cost 10–15% more nodes
/// (`docs/reversi.md`, "Measurements behind the constants" and "Eighth round").
pub const SHALLOW_EMPTIES: u32 = 18;
/// Empties (below `SHALLOW_EMPTIES`) from which the fastest-first key adds the child's
/// ordering evaluation times `EVAL_ORDER_WEIGHT`, as Edax does just below its ordering
/// searches. With the old 8-pattern evaluation: from 15 empties, weight 64 (a disc then
/// weighed 1/8 of a reply move), fewer nodes and less time on each of four position sets
/// (FFO #40–#44, #47 and 76 self-play positions at 21–23 empties) and on FFO #40–#49;
/// from 12 empties the self-play sets gained but FFO #40–#44, #47 lost; weights 32 and
/// 128 were worse. With the midgame evaluation it is worth more: weight 256 (a disc is
/// half a reply move) took 11.2%, 5.8% and 2.3% fewer nodes than 64 on FFO #40–#44, #47,
/// #20–#39 and #40–#49 (128 and 512 between; 32 worse); from 14 empties −2.3% nodes on
/// FFO #40–#44, #47 but +2.0% instructions on #40, #42, #44 (`docs/reversi.md`,
/// "Measurements behind the constants" and "Eighth round").
pub const EVAL_ORDER_EMPTIES: u32 = 15;
pub const EVAL_ORDER_WEIGHT: i32 = 256;
/// Depth of those searches (odd: the evaluation then always sees us to move) at null-
/// window nodes, on the principal variation, and at the root.
pub const NWS_SHALLOW_DEPTH: u32 = 3;
pub const PV_SHALLOW_DEPTH: u32 = 5;
pub const ROOT_SHALLOW_DEPTH: u32 = 7;
/// How far below the node's alpha (in evaluation units, [`midgame::SCALE`] per disc)
/// those searches still score moves exactly; worse moves get a bound. 8 discs, as in
/// Edax: fewer nodes and less time on FFO #40–#49 and the four position sets; 4 discs
/// blew up #43, 16 discs gained less (`docs/reversi.md`, "Measurements behind the constants").
pub const SORT_DELTA: i32 = 8 * midgame::SCALE;
/// Principal-variation nodes with this many empties without a table move find one by
/// iterative deepening to `empties - IID_MARGIN` plies (at most `IID_MAX_DEPTH`).
pub const IID_EMPTIES: u32 = 16;
pub const IID_MARGIN: u32 = 10;
/// The same for null-window nodes, less deep.
pub const IID_NWS_EMPTIES: u32 = 20;
pub const IID_NWS_MARGIN: u32 = 14;
pub const IID_MAX_DEPTH: u32 = 10;
/// Empties from which the root runs a selective pass before the exact search: the same
/// search, except that null-window nodes with more than `TT_EMPTIES` empties try at
/// most `SELECTIVE_WIDTH` moves besides the table's. It costs little beside the exact
/// search, and leaves two things behind: a score close to the exact one to centre the
/// exact search's aspiration window on, and a table full of good moves. Both matter:
/// FFO #40–#44, #47 and positions of our self-play games at 22 and 24 empties all take
/// far fewer nodes. Tried: widths 3, 5, 6, 8 and successive passes (2 then 4, 3 then 5,
/// 2-3-4) all gained less; from 16 or 18 empties the pass costs at least what it saves
/// (`docs/reversi.md`, "Measurements behind the constants").
pub const SELECTIVE_EMPTIES: u32 = 20;
/// Moves tried per null-window table node in the selective pass (besides the table's).
pub const SELECTIVE_WIDTH: u8 = 4;

/// The probcut rounds of a staged solve ([`Solver::solve_staged`]): each the confidence it stands for (percent, as
/// Edax and NBoard print it: the two-sided normal probability of `t`) and its number of
/// standard deviations `t` of the shallow search's error. The 50 % round is there to
/// give a timed move a result to the end soon: at 26 empties it costs about a third of
/// the 73 % round (`docs/reversi.md`, "The staged endgame").
pub const PROBCUT_ROUNDS: [(u8, f32); 5] = [(50, 0.67), (73, 1.1), (87, 1.5), (95, 2.0), (98, 2.6)];
/// Empties from which null-window nodes of a probcut round try the cut: below, a node's
/// subtree costs little more than the shallow search that would cut it.
pub const PROBCUT_EMPTIES: u32 = 10;
/// Table ranks of probcut rounds' results (`Entry::width`): above any selective pass's
/// width, below `EXACT`, rising with the round's confidence.
const PROBCUT_RANK: u8 = 64;

/// The shallow search's depth for probcut at `empties` empties: even (the evaluation
/// then sees the same side to move), and deeper where the subtree it stands for is
/// larger.
#[inline(always)]
pub fn probcut_depth(empties: u32) -> u32 {
    if empties < 16 {
        2
    } else if empties < 22 {
        4
    } else {
        6
    }
}

/// The shallow search's error against the exact score at `empties` empties with
/// [`probcut_depth`]: its mean (shallow minus exact, in [`midgame::SCALE`] units) and its
/// standard deviation, fitted by `tune reversi-endcut` as lines in the empties per
/// depth (`docs/reversi.md`, "The staged endgame").
pub fn probcut_error(empties: u32) -> (f32, f32) {
    let e = empties as f32;
    let (m0, m1, s0, s1) = match probcut_depth(empties) {
        2 => PROBCUT_FIT[0],
        4 => PROBCUT_FIT[1],
        _ => PROBCUT_FIT[2],
    };
    (m0 + m1 * e, (s0 + s1 * e).max(32.0))
}

/// `(mean0, mean1, sigma0, sigma1)` per probcut depth 2, 4, 6: mean = mean0 + mean1·E,
/// sigma = sigma0 + sigma1·E, in [`midgame::SCALE`] units.
const PROBCUT_FIT: [(f32, f32, f32, f32); 3] = [
    (-130.1, -1.18, 467.2, 3.08),
    (-67.7, -3.15, 369.8, 3.25),
    (-19.1, -4.20, 280.4, 4.66),
];

/// How selective the running search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Selectivity {
    Exact,
    /// At most this many moves per null-window table node besides the table's.
    Width(u8),
    /// The probcut round `PROBCUT_ROUNDS[i]`.
    Probcut(usize),
}

/// Which stage of a staged solve a round's result comes from.
pub use crate::game::EndgameStage as Stage;

/// One finished round of a staged solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    pub stage: Stage,
    /// The disc difference for the side to move (see [`Stage`] for how sure it is).
    pub score: i32,
    /// The round's best move.
    pub best: Move,
    /// Nodes of the solve so far.
    pub nodes: u64,
}

/// Moves the move on `sq` to the front of `list`, keeping the others in order.
fn to_front(list: &mut [(u8, u64, i32)], sq: u8) {
    if let Some(i) = list.iter().position(|m| m.0 == sq) {
        list[..=i].rotate_right(1);
    }
}

/// What the ordering evaluation adds to the midgame evaluation (`midgame.rs`, in its
/// units, 1/64 disc): per move of mobility, per square of potential mobility, per
/// corner. With the old 8-pattern evaluation mobility +32 had ordered best (the fit
/// predicts scores, ordering also gains from leaving the opponent few moves); the
/// 46-pattern midgame evaluation orders better without it (+32: 1.3% and 1.9% more nodes
/// on FFO #40–#44, #47 and #20–#39, +64 more still) but still wants the corner bonus
/// (without it +1.2% on #40–#44, #47; `docs/reversi.md`, "Eighth round").
const ORDER_MOBILITY_BONUS: i16 = 0;
const ORDER_POTENTIAL_BONUS: i16 = 1;
const ORDER_CORNER_BONUS: i32 = 32;

/// The selectivity of the exact search (wider than any move list).
const EXACT: u8 = u8::MAX;

/// Default transposition table size: 2^22 entries of 24 bytes (96 MiB); 2^20 entries
/// overflowed on the big FFO positions (`docs/reversi.md`, "Measurements behind the constants").
pub const DEFAULT_TT_BITS: u32 = 22;
/// Size of the hint table of the ordering searches: 2^13 entries of 8 bytes (64 KiB,
/// at home in the level-2 cache). With 2^16 entries of whole positions (24 bytes, 1.5
/// MiB, more than that cache) the ordering searches spent much of their time waiting
/// for the entry's load (`docs/reversi.md`, "Measurements behind the constants"); a
/// hint only orders moves, so a 32-bit check is enough.
const HINT_BITS: u32 = 13;

/// The largest disc difference.
const SCORE_MAX: i32 = 64;
/// Beyond any disc difference: a full window, or "no move tried yet".
const SCORE_INF: i32 = 65;
/// Beyond any ordering evaluation or scaled final score.
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

/// The moves of a node with their flips and ordering keys, on the stack and not
/// zero-filled first: a zero-filled 64-entry array costs 1 KiB of stores per node, a
/// noticeable share of the ordering searches' time (`docs/reversi.md`, "Measurements
/// behind the constants").
struct MoveList {
    len: usize,
    items: [MaybeUninit<(u8, u64, i32)>; MAX_MOVES],
}

impl MoveList {
    #[inline(always)]
    fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Adds a move (at most one per square, so never more than `MAX_MOVES`).
    #[inline(always)]
    fn push(&mut self, sq: u8, flips: u64, key: i32) {
        self.items[self.len].write((sq, flips, key));
        self.len += 1;
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [(u8, u64, i32)] {
        // SAFETY: `push` wrote the first `len` items.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast(), self.len) }
    }
}

/// The parity of the quadrants' empties: bit q set when quadrant q holds an odd number.
#[inline]
fn parity(empty: u64) -> u8 {
    let mut p = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        p |= ((empty & mask).count_ones() as u8 & 1) << q;
    }
    p
}

/// The quadrant bit of each square (a move there flips its quadrant's parity).
const QUADRANT_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut q = 0;
        while q < 4 {
            if QUADRANTS[q] >> sq & 1 == 1 {
                t[sq] = 1 << q;
            }
            q += 1;
        }
        sq += 1;
    }
    t
};

/// For each parity, the squares of the odd quadrants.
const ODD_SQUARES: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut p = 0;
    while p < 16 {
        let mut q = 0;
        while q < 4 {
            if p >> q & 1 == 1 {
                t[p] |= QUADRANTS[q];
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// The position after `own` plays on `sq` flipping `f`, from the opponent's view.
#[inline(always)]
fn play(own: u64, opp: u64, sq: u8, f: u64) -> (u64, u64) {
    (opp & !f, own | f | 1u64 << sq)
}

/// The midgame evaluation ([`midgame`]) laid out for the solver's ordering: its weights
/// with the ordering bonuses, and each instance's mask, weight offset and gather table
/// side by side.
struct MidOrder {
    weights: Vec<i16>,
    per_phase: usize,
    instances: Vec<(u64, usize, &'static [u16])>,
}

fn mid_order() -> &'static MidOrder {
    static M: OnceLock<MidOrder> = OnceLock::new();
    M.get_or_init(|| {
        let l = midgame::layout();
        let mut w = midgame::weights().as_slice().to_vec();
        let n = l.per_phase;
        let base = n - midgame::SCALARS;
        for p in 0..midgame::PHASES {
            w[p * n + base] = w[p * n + base].saturating_add(ORDER_MOBILITY_BONUS);
            w[p * n + base + 1] = w[p * n + base + 1].saturating_add(ORDER_POTENTIAL_BONUS);
        }
        MidOrder {
            weights: w,
            per_phase: n,
            instances: l
                .instances
                .iter()
                .map(|i| (i.mask, l.offsets[i.shape], i.gather()))
                .collect(),
        }
    })
}

impl MidOrder {
    /// The weight table for `empties` empty squares.
    #[inline(always)]
    fn table(&self, empties: u32) -> &[i16] {
        let p = midgame::phase(empties);
        &self.weights[p * self.per_phase..(p + 1) * self.per_phase]
    }
}

/// The scalar terms of the midgame evaluation with the table `w` (mobility, potential
/// mobility, parity, constant), inlined into each copy of the search.
#[inline(always)]
fn mid_scalars(w: &[i16], own: u64, opp: u64) -> i32 {
    let empty = !(own | opp);
    let mobility = moves(own, opp).count_ones() as i32 - moves(opp, own).count_ones() as i32;
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(own) & empty).count_ones() as i32;
    let base = w.len() - midgame::SCALARS;
    w[base] as i32 * mobility
        + w[base + 1] as i32 * potential
        + w[base + 2] as i32 * (empty.count_ones() & 1) as i32
        + w[base + 3] as i32
}

/// Slot of a position in a table of `mask + 1` entries.
#[inline]
fn table_index(own: u64, opp: u64, mask: usize) -> usize {
    position_hash(own, opp) as usize & mask
}

/// A 64-bit hash of the position: its low bits index the tables, the hint table keeps
/// its high 32 bits as a check.
#[inline]
fn position_hash(own: u64, opp: u64) -> u64 {
    let h = own.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^ (h >> 29)
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
    /// The selectivity it was found with (`EXACT`, or the width of a selective pass):
    /// a search at least as wide takes its move but not its bounds.
    width: u8,
}

/// The solver: its transposition table, the midgame searches' hints and the node
/// counter, reusable across positions.
pub struct Solver {
    table: Vec<Entry>,
    mask: usize,
    hints: Vec<(u32, u8)>,
    nodes: u64,
    isa: Isa,
    /// The selectivity of the running search (`EXACT`, or a selective pass's width).
    width: u8,
    /// Empties from which the root runs the selective pass.
    selective_from: u32,
    /// The midgame evaluation with the ordering bonuses.
    mid_order: &'static MidOrder,
    /// This CPU's `pext` is fast (see [`super::pattern::pext_is_fast`]).
    fast_pext: bool,
    /// The stop flag of the running [`Solver::solve_within`] call, null otherwise: a
    /// pointer because the flag is only borrowed for that call (see [`StopGuard`]).
    stop: *const AtomicBool,
    /// Its deadline and node limit.
    deadline: Option<Instant>,
    /// The deadline once a staged solve's first round has finished (`deadline` is then
    /// the first round's, [`SolveLimit::first_round_deadline`]).
    later_deadline: Option<Instant>,
    max_nodes: u64,
    /// The node count at the last reading of the clock (see [`CLOCK_NODES`]).
    clock_read_at: u64,
    /// The running solve was stopped: its results are meaningless.
    aborted: bool,
    /// A finished game's score in the midgame searches: far beyond any evaluation when
    /// they order moves, in the evaluation's units when they predict scores (probcut).
    over_scale: i32,
    /// The running search is a probcut round, with these (offset, margin) per empties.
    probcut: bool,
    cut: [(i32, i32); 65],
}

// SAFETY: `stop` is null except inside `solve_within`, which holds the borrow of the
// flag it points to (and clears it on every way out, panics included), so a `Solver`
// sent to another thread never carries a live pointer.
unsafe impl Send for Solver {}

/// Nodes between two readings of the clock in a solve with a deadline: a small fraction
/// of a millisecond at the solver's speed, and a reading costs next to nothing. (Reading
/// it every 1024th node above `TT_EMPTIES` empties, as before, let a solve overrun a
/// short deadline by more than the deadline itself on the loaded 2-core machine: each
/// such node carries a subtree of hundreds of nodes; issue 25 item 8, figures in
/// `docs/reversi.md`, "Measurements behind the constants".)
const CLOCK_NODES: u64 = 8192;

/// What a stoppable solve may spend ([`Solver::solve_within`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimit<'a> {
    /// Stop as soon as this is set.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// A staged solve ([`Solver::solve_staged`]) stops at this instant too if no round
    /// has finished by then: its caller keeps the rest of the time for another search.
    pub first_round_deadline: Option<Instant>,
}

/// Clears the solver's stop pointer when `solve_within` ends, however it ends.
struct StopGuard<'s>(&'s mut Solver);

impl Drop for StopGuard<'_> {
    fn drop(&mut self) {
        self.0.stop = std::ptr::null();
        self.0.deadline = None;
        self.0.later_deadline = None;
        self.0.max_nodes = u64::MAX;
    }
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
            hints: vec![(0, NO_MOVE); 1 << HINT_BITS],
            nodes: 0,
            isa: Isa::detect(),
            width: EXACT,
            selective_from: SELECTIVE_EMPTIES,
            mid_order: mid_order(),
            fast_pext: super::pattern::pext_is_fast(),
            stop: std::ptr::null(),
            deadline: None,
            later_deadline: None,
            max_nodes: u64::MAX,
            clock_read_at: 0,
            aborted: false,
            over_scale: GAME_OVER_SCALE,
            probcut: false,
            cut: [(0, 0); 65],
        }
    }

    /// Makes the running search as selective as `sel` says.
    fn set_selectivity(&mut self, sel: Selectivity) {
        match sel {
            Selectivity::Exact => {
                self.width = EXACT;
                self.probcut = false;
            }
            Selectivity::Width(w) => {
                self.width = w;
                self.probcut = false;
            }
            Selectivity::Probcut(level) => {
                self.width = PROBCUT_RANK + level as u8;
                self.probcut = true;
                let t = PROBCUT_ROUNDS[level].1;
                for (e, c) in self.cut.iter_mut().enumerate() {
                    let (mean, sigma) = probcut_error(e as u32);
                    *c = (mean.round() as i32, (t * sigma).round() as i32);
                }
            }
        }
    }

    /// Runs the copy of the search `isa` names from now on, if this CPU can (returns
    /// whether it switched): for comparing the copies.
    pub fn with_isa(&mut self, isa: Isa) -> bool {
        let ok = isa == Isa::Portable || Isa::detect() == isa;
        if ok {
            self.isa = isa;
        }
        ok
    }

    /// Runs the selective pass before solving positions with at least this many
    /// empties (default [`SELECTIVE_EMPTIES`]; 65 never): for checking it changes no
    /// result.
    pub fn with_selective_pass_from(&mut self, empties: u32) {
        self.selective_from = empties;
    }

    /// Nodes of the last solve (finished or not).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The copy of the search in use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Forgets everything learnt (for reproducible node counts).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.hints.fill((0, NO_MOVE));
    }

    /// Solves `pos` exactly. The tables are kept, so solving related positions in a
    /// row reuses earlier work.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        self.solve_bits(pos.own(), pos.opp())
    }

    /// Solves `pos` unless `limit` runs out first: its stop flag is checked at every
    /// node with more than `TT_EMPTIES` empties (so it is obeyed within microseconds),
    /// the node limit there too, the deadline there once [`CLOCK_NODES`] nodes have
    /// been searched since the last look. `None` if it ran
    /// out. Nothing is stored once it runs out, so the table keeps what the finished
    /// searches found, and a later solve (say, of the next move) reuses it.
    pub fn solve_within(&mut self, pos: &Position, limit: &SolveLimit) -> Option<Solution> {
        let guard = StopGuard(self);
        let s = &mut *guard.0;
        s.stop = limit
            .stop
            .map_or(std::ptr::null(), |f| f as *const AtomicBool);
        s.deadline = limit.deadline;
        s.max_nodes = limit.max_nodes.unwrap_or(u64::MAX);
        s.aborted = false;
        s.clock_read_at = 0;
        let solution = s.solve(pos);
        let out = !s.aborted && !limit.stop.is_some_and(|f| f.load(Ordering::Acquire));
        s.aborted = false;
        drop(guard);
        out.then_some(solution)
    }

    /// True once the running solve's limit ([`Solver::solve_within`]) ran out: every
    /// search function above `TT_EMPTIES` empties then returns at once.
    #[inline]
    fn stopped(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // SAFETY: non-null only inside `solve_within`, whose caller lends the flag for
        // the whole call (see `StopGuard`).
        if !self.stop.is_null() && unsafe { (*self.stop).load(Ordering::Relaxed) } {
            self.aborted = true;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        if let Some(deadline) = self.deadline {
            if self.nodes.wrapping_sub(self.clock_read_at) >= CLOCK_NODES {
                self.clock_read_at = self.nodes;
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Solves `pos` in stages within `limit`: probcut rounds from
    /// `PROBCUT_ROUNDS[first_round]` on, then win/loss/draw, then exact, calling
    /// `on_round` with each finished round; it goes on to the next round while that
    /// returns true. Returns the last finished round, `None` if none finished (or the
    /// game is over). A pass is played as the only move, its rounds those of the
    /// position after it.
    pub fn solve_staged(
        &mut self,
        pos: &Position,
        limit: &SolveLimit,
        first_round: usize,
        on_round: &mut dyn FnMut(&Round) -> bool,
    ) -> Option<Round> {
        let guard = StopGuard(self);
        let s = &mut *guard.0;
        s.stop = limit
            .stop
            .map_or(std::ptr::null(), |f| f as *const AtomicBool);
        s.deadline = match (limit.first_round_deadline, limit.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        s.later_deadline = limit.deadline;
        s.max_nodes = limit.max_nodes.unwrap_or(u64::MAX);
        s.aborted = false;
        s.clock_read_at = 0;
        s.nodes = 0;
        s.set_selectivity(Selectivity::Exact);
        let (mut own, mut opp) = (pos.own(), pos.opp());
        let mut sign = 1;
        let mut pass = false;
        if moves(own, opp) == 0 {
            if moves(opp, own) == 0 {
                return None;
            }
            (own, opp, sign, pass) = (opp, own, -1, true);
        }
        let mut last = None;
        staged(s, own, opp, first_round, &mut |s, stage, score, sq| {
            let round = Round {
                stage,
                score: sign * score,
                best: if pass { Move::PASS } else { Move::place(sq) },
                nodes: s.nodes,
            };
            last = Some(round);
            on_round(&round)
        });
        s.aborted = false;
        s.set_selectivity(Selectivity::Exact);
        drop(guard);
        last
    }

    /// The shallow search's score of `pos` at `depth` plies in [`midgame::SCALE`] units
    /// per disc, a finished game counted in the same units (what probcut predicts
    /// from; for `tune reversi-endcut`).
    pub fn shallow_score(&mut self, pos: &Position, depth: u32) -> i32 {
        shallow(self, pos.own(), pos.opp(), depth)
    }

    /// Solves the position `own` to move against `opp` (they must not overlap).
    pub fn solve_bits(&mut self, own: u64, opp: u64) -> Solution {
        self.nodes = 0;
        self.set_selectivity(Selectivity::Exact);
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

    /// The table's entry for the position, if it holds one (two slots per bucket). An
    /// entry of the selective pass reaches the exact search with its move only (its
    /// bounds widened to everything).
    #[inline]
    fn probe(&self, own: u64, opp: u64) -> Option<Entry> {
        let i = table_index(own, opp, self.mask) & !1;
        let mut e = *self.table[i..i + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp && e.empties != 0)?;
        if e.width < self.width {
            e.lower = -SCORE_MAX as i8;
            e.upper = SCORE_MAX as i8;
        }
        Some(e)
    }

    /// Starts loading the position's bucket into the cache, so that probing it later
    /// (several children's at once) overlaps the waits for memory.
    #[inline]
    fn prefetch(&self, own: u64, opp: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let i = table_index(own, opp, self.mask) & !1;
            let bucket = self.table[i..i + 2].as_ptr().cast::<i8>();
            // SAFETY: prefetching has no effect on memory; both addresses lie inside the
            // bucket (which may straddle two cache lines).
            unsafe {
                _mm_prefetch(bucket, _MM_HINT_T0);
                _mm_prefetch(
                    bucket.add(2 * std::mem::size_of::<Entry>() - 1),
                    _MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (own, opp);
    }

    /// Stores `e` over the entry of the same position, else over the slot of its bucket
    /// with fewer empties (deeper results cost more to find again).
    #[inline]
    fn put(&mut self, e: Entry) {
        // After a stop, results are meaningless (`stopped` nodes return alpha); what
        // finished before stays true and serves the next solve.
        if self.aborted {
            return;
        }
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
        self.store_window(
            own,
            opp,
            (alpha, alpha + 1),
            score,
            sq,
            empties,
            (lower, upper),
        );
    }

    /// [`store`](Self::store) for a search with the window `(alpha, beta)`: the result
    /// is a lower bound above it, exact inside it, an upper bound below it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store_window(
        &mut self,
        own: u64,
        opp: u64,
        (alpha, beta): (i32, i32),
        score: i32,
        sq: u8,
        empties: u32,
        (lower, upper): (i32, i32),
    ) {
        let (lower, upper) = if score >= beta {
            (lower.max(score), upper)
        } else if score > alpha {
            (score, score)
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
            width: self.width,
        });
    }

    /// The midgame searches' best move for the position, or `NO_MOVE`.
    #[inline]
    fn hint(&self, own: u64, opp: u64) -> u8 {
        let h = position_hash(own, opp);
        let e = self.hints[h as usize & ((1 << HINT_BITS) - 1)];
        if e.0 == (h >> 32) as u32 {
            e.1
        } else {
            NO_MOVE
        }
    }

    #[inline]
    fn set_hint(&mut self, own: u64, opp: u64, sq: u8) {
        let h = position_hash(own, opp);
        self.hints[h as usize & ((1 << HINT_BITS) - 1)] = ((h >> 32) as u32, sq);
    }
}
#[path = "solve_search.rs"]
mod search;

/// The search compiled for any CPU.
mod portable {
    use super::*;

    /// The midgame evaluation with the ordering bonuses, square by square.
    #[inline(always)]
    pub(super) fn eval_patterns(s: &Solver, own: u64, opp: u64) -> i32 {
        let m = s.mid_order;
        let w = m.table((!(own | opp)).count_ones());
        let mut sum = 0i32;
        for &(mask, offset, g) in &m.instances {
            let (mut a, mut b) = (0usize, 0usize);
            for (k, q) in Bits(mask).enumerate() {
                a |= ((own >> q & 1) as usize) << k;
                b |= ((opp >> q & 1) as usize) << k;
            }
            sum += w[offset + g[a] as usize + 2 * g[b] as usize] as i32;
        }
        sum + mid_scalars(w, own, opp)
    }

    search::search_functions!();
}

/// The search compiled for x86-64 CPUs with AVX2 and BMI2 (Haswell and later).
#[cfg(target_arch = "x86_64")]
mod haswell {
    use super::super::bitboard::flips_avx2 as flips;
    use super::*;

    /// The midgame evaluation with the ordering bonuses, each instance gathered by
    /// `pext` where that is fast.
    #[inline]
    #[target_feature(enable = "bmi2,popcnt")]
    pub(super) fn eval_patterns(s: &Solver, own: u64, opp: u64) -> i32 {
        use std::arch::x86_64::_pext_u64;
        if !s.fast_pext {
            return portable::eval_patterns(s, own, opp);
        }
        let m = s.mid_order;
        let w = m.table((!(own | opp)).count_ones());
        let mut sum = 0i32;
        for &(mask, offset, g) in &m.instances {
            // SAFETY: `pext` by a mask of n squares is below 2^n, the gather table's
            // length.
            let i = unsafe {
                offset
                    + *g.get_unchecked(_pext_u64(own, mask) as usize) as usize
                    + 2 * *g.get_unchecked(_pext_u64(opp, mask) as usize) as usize
            };
            sum += w[i] as i32;
        }
        sum + mid_scalars(w, own, opp)
    }

    search::search_functions!(#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]);
}

/// Which copy of the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Compiled for any CPU of the target.
    Portable,
    /// Compiled for AVX2/BMI2 x86-64 CPUs; chosen only where the CPU has them.
    #[cfg(target_arch = "x86_64")]
    Haswell,
}

impl Isa {
    /// The fastest copy this CPU runs.
    pub fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Isa::Haswell;
        }
        Isa::Portable
    }
}

/// Runs the root search with the copy `s.isa` names.
fn root(s: &mut Solver, own: u64, opp: u64) -> (i32, u8) {
    match s.isa {
        Isa::Portable => portable::root(s, own, opp),
        // SAFETY: `Isa::Haswell` is only set by `Isa::detect` (or `Solver::with_isa`,
        // which checks it) after the CPU reported every feature the copy is compiled with.
        #[cfg(target_arch = "x86_64")]
        Isa::Haswell => unsafe { haswell::root(s, own, opp) },
    }
}

/// Runs the staged solve with the copy `s.isa` names.
fn staged(
    s: &mut Solver,
    own: u64,
    opp: u64,
    first_round: usize,
    on_round: &mut dyn FnMut(&Solver, Stage, i32, u8) -> bool,
) {
    match s.isa {
        Isa::Portable => portable::staged(s, own, opp, first_round, on_round),
        // SAFETY: as in `root`.
        #[cfg(target_arch = "x86_64")]
        Isa::Haswell => unsafe { haswell::staged(s, own, opp, first_round, on_round) },
    }
}

/// Runs the shallow search with the copy `s.isa` names.
fn shallow(s: &mut Solver, own: u64, opp: u64, depth: u32) -> i32 {
    match s.isa {
        Isa::Portable => portable::shallow(s, own, opp, depth),
        // SAFETY: as in `root`.
        #[cfg(target_arch = "x86_64")]
        Isa::Haswell => unsafe { haswell::shallow(s, own, opp, depth) },
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
///
/// `staged`: each position is solved in stages ([`Solver::solve_staged`]) and every
/// round gets its line, `N OBF empties E round R move M score S nodes N time MS`, `R`
/// being the probcut round's confidence (`73%`), `wld` or `exact` (time and nodes from
/// the start of the position's solve).
pub fn solve_obf(text: &str, out: &mut dyn Write, staged: bool) -> Result<SolveTotals, String> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            continue;
        }
        let pos = Position::from_obf(t).map_err(|e| format!("line {}: {e}", i + 1))?;
        positions.push(pos);
    }
    let mut solver = Solver::default();
    let mut totals = SolveTotals::default();
    for (i, pos) in positions.iter().enumerate() {
        solver.clear();
        let start = Instant::now();
        if staged {
            let mut failed = None;
            let last = solver.solve_staged(pos, &SolveLimit::default(), 0, &mut |r| {
                let round = match r.stage {
                    Stage::Probable(p) => format!("{p}%"),
                    Stage::WinLossDraw => "wld".to_string(),
                    Stage::Exact => "exact".to_string(),
                };
                let line = writeln!(
                    out,
                    "{} {} empties {} round {round} move {} score {} nodes {} time {}",
                    i + 1,
                    pos.to_obf(),
                    pos.empty().count_ones(),
                    r.best,
                    r.score,
                    r.nodes,
                    start.elapsed().as_millis()
                );
                failed = line.err();
                failed.is_none()
            });
            if let Some(e) = failed {
                return Err(e.to_string());
            }
            totals.positions += 1;
            totals.nodes += last.map_or(0, |r| r.nodes);
            totals.time += start.elapsed();
            continue;
        }
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
            let mut pos = Position::startpos();
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

    /// The selective pass and the aspiration windows around its guess change no score,
    /// and the move they pick scores exactly that (checked without them).
    #[test]
    fn selective_pass_changes_no_result() {
        let (mut fast, mut plain) = (Solver::new(18), Solver::new(18));
        plain.with_selective_pass_from(65);
        for pos in random_endgames(21, SELECTIVE_EMPTIES, 4) {
            fast.clear();
            plain.clear();
            let got = fast.solve(&pos);
            let want = plain.solve(&pos);
            assert_eq!(got.score, want.score, "{pos:?}");
            let mut next = pos.clone();
            next.make_move(got.best.unwrap());
            plain.clear();
            assert_eq!(-plain.solve(&next).score, want.score, "{pos:?}");
        }
    }

    /// A staged solve reports its rounds in order (probcut rounds at rising confidence,
    /// then win/loss/draw, then exact), each with a legal move; the win/loss/draw round
    /// proves the exact score's sign, bounding it on that side; the exact round's score
    /// is the plain solver's, and its move scores exactly that.
    #[test]
    fn staged_rounds_end_in_the_exact_score() {
        let (mut staged, mut plain) = (Solver::new(18), Solver::new(18));
        plain.with_selective_pass_from(65);
        for pos in random_endgames(33, 14, 6)
            .into_iter()
            .chain(random_endgames(34, 21, 3))
        {
            plain.clear();
            let want = plain.solve(&pos).score;
            let mut rounds = Vec::new();
            staged.clear();
            let last = staged.solve_staged(&pos, &SolveLimit::default(), 0, &mut |r| {
                rounds.push(*r);
                true
            });
            let stages: Vec<Stage> = rounds.iter().map(|r| r.stage).collect();
            let mut expected: Vec<Stage> = PROBCUT_ROUNDS
                .iter()
                .map(|r| Stage::Probable(r.0))
                .collect();
            expected.extend([Stage::WinLossDraw, Stage::Exact]);
            assert_eq!(stages, expected, "{pos:?}");
            assert_eq!(last, rounds.last().copied());
            assert!(rounds.iter().all(|r| pos.is_legal(r.best)), "{pos:?}");
            let wld = rounds[PROBCUT_ROUNDS.len()].score;
            assert_eq!(wld.signum(), want.signum(), "{pos:?}");
            assert!(if want > 0 { wld <= want } else { wld >= want }, "{pos:?}");
            let exact = rounds.last().unwrap();
            assert_eq!(exact.score, want, "{pos:?}");
            let mut next = pos.clone();
            next.make_move(exact.best);
            plain.clear();
            assert_eq!(-plain.solve(&next).score, want, "{pos:?}");
        }
    }

    /// A solve stopped from outside gives no result, and leaves nothing behind that
    /// could spoil the next one: the table keeps only finished searches' results.
    #[test]
    fn a_stopped_solve_gives_nothing_and_spoils_nothing() {
        let until = |stop| SolveLimit {
            stop: Some(stop),
            ..SolveLimit::default()
        };
        let stop = std::sync::Arc::new(AtomicBool::new(true));
        let mut s = Solver::new(16);
        let mut fresh = Solver::new(16);
        for pos in random_endgames(5, 16, 3) {
            stop.store(true, Ordering::Release);
            assert_eq!(s.solve_within(&pos, &until(&stop)), None);
            stop.store(false, Ordering::Release);
            // A flag raised mid-solve by another thread.
            let raiser = {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(1));
                    stop.store(true, Ordering::Release);
                })
            };
            let _ = s.solve_within(&pos, &until(&stop));
            raiser.join().unwrap();
            stop.store(false, Ordering::Release);
            // Node limits and a deadline cut it at other points.
            for max_nodes in [1_000, 30_000, 300_000] {
                let limit = SolveLimit {
                    max_nodes: Some(max_nodes),
                    ..SolveLimit::default()
                };
                if let Some(done) = s.solve_within(&pos, &limit) {
                    assert!(done.nodes <= max_nodes + 64, "{pos:?}");
                }
            }
            let limit = SolveLimit {
                deadline: Some(Instant::now()),
                ..SolveLimit::default()
            };
            let _ = s.solve_within(&pos, &limit);
            fresh.clear();
            let want = fresh.solve(&pos);
            let got = s.solve_within(&pos, &until(&stop)).expect("not stopped");
            assert_eq!(got.score, want.score, "{pos:?}");
            assert!(pos.is_legal(got.best.unwrap()), "{pos:?}");
        }
    }

    /// A solve whose deadline has passed stops within a few thousand nodes, whatever
    /// it is doing: before, its root ordering searches never looked at the clock and
    /// the solve proper looked only every 1024th node above `TT_EMPTIES` empties, so at
    /// 14–20 empties it overran short deadlines on a loaded machine and lost short moves
    /// on time (issue 25 item 8; `CLOCK_NODES`). Counted in nodes, so not
    /// timing-dependent.
    #[test]
    fn a_passed_deadline_stops_the_solve_at_once() {
        let mut s = Solver::new(16);
        for empties in [14, 17, 20, 22] {
            for pos in random_endgames(3, empties, 5) {
                let limit = SolveLimit {
                    deadline: Some(Instant::now()),
                    ..SolveLimit::default()
                };
                s.clear();
                assert_eq!(s.solve_within(&pos, &limit), None, "{pos:?}");
                // One clock reading's worth, plus the subtree of the node that read it.
                assert!(s.nodes() < 4 * CLOCK_NODES, "{} nodes: {pos:?}", s.nodes());
            }
        }
    }

    /// Both copies of the search (portable, and the one for this CPU's features) walk
    /// the same tree: same scores, moves and node counts.
    #[test]
    fn copies_of_the_search_agree() {
        let (mut native, mut portable) = (Solver::new(16), Solver::new(16));
        assert!(portable.with_isa(Isa::Portable));
        assert_eq!(native.isa(), Isa::detect());
        for pos in random_endgames(5, 14, 12)
            .into_iter()
            .chain(random_endgames(6, SELECTIVE_EMPTIES, 2))
        {
            native.clear();
            portable.clear();
            assert_eq!(native.solve(&pos), portable.solve(&pos), "{pos:?}");
        }
    }

    /// The quadrant parity kept move by move (`QUADRANT_BIT`) is the one counted
    /// afresh, and `ODD_SQUARES` holds exactly the squares of the odd quadrants.
    #[test]
    fn parity_follows_the_moves() {
        let mut rng = SplitMix64::new(45);
        for _ in 0..2_000 {
            let empty = rng.next_u64() & rng.next_u64();
            let p = parity(empty);
            let mut odd = 0;
            for q in QUADRANTS {
                if (empty & q).count_ones() % 2 == 1 {
                    odd |= q;
                }
            }
            assert_eq!(ODD_SQUARES[p as usize], odd, "{empty:#x}");
            for sq in Bits(empty) {
                assert_eq!(
                    parity(empty & !(1u64 << sq)),
                    p ^ QUADRANT_BIT[sq as usize],
                    "{empty:#x} {sq}"
                );
            }
        }
    }

    /// The ordering evaluation is the midgame evaluation with the ordering bonuses on
    /// mobility and potential mobility, in both copies of the search.
    #[test]
    fn ordering_evaluation_is_the_midgame_one_with_the_bonuses() {
        let s = Solver::new(4);
        for empties in [8, 15, 18, 24, 30] {
            for pos in random_endgames(empties as u64 + 100, empties, 40) {
                let (own, opp) = (pos.own(), pos.opp());
                let [mobility, potential, _, _] = midgame::scalars(own, opp);
                let want = midgame::evaluate_portable(midgame::weights(), own, opp)
                    + ORDER_MOBILITY_BONUS as i32 * mobility
                    + ORDER_POTENTIAL_BONUS as i32 * potential;
                assert_eq!(portable::eval_patterns(&s, own, opp), want, "{pos:?}");
                #[cfg(target_arch = "x86_64")]
                if Isa::detect() == Isa::Haswell {
                    // SAFETY: the CPU has the copy's features.
                    let got = unsafe { haswell::eval_patterns(&s, own, opp) };
                    assert_eq!(got, want, "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn obf_lines() {
        // Black a1 against white g1 and h8: nobody can move, white wins 2-1 (+61 empties).
        let board = format!("X-----O-{}O", "-".repeat(55));
        let text = format!("# comment\n\n{board} X; junk\n");
        let mut out = Vec::new();
        let t = solve_obf(&text, &mut out, false).unwrap();
        assert_eq!(t.positions, 1);
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.starts_with(&format!(
                "1 {board} X empties 61 move none score -62 nodes 1 time "
            )),
            "{out}"
        );
        assert!(solve_obf("junk X", &mut Vec::new(), false).is_err());
    }
}

//! Reversi (Othello, 8×8): bitboard rules, FEN / OBF / move notation, the board
//! picture, evaluation, bulk-counting perft and an exact endgame solver.
//!
//! Squares are named as `reversi.txt` draws the board: columns a–h from the left, rows
//! 1–8 from the **top** (`d3` is the fourth column, third row from the top).

pub mod bitboard;
pub mod eval;
pub mod indices;
pub mod midgame;
pub mod notation;
pub mod pattern;
pub mod position;
pub mod solve;

pub use notation::{parse_square, square_name, NotationError};
pub use position::{final_score, Move, Position, Rules, Undo};

use crate::game::{
    Benchmark, Diagram, EndgameRound, EndgameStage, Game, Notation, Outcome, ProbCut, Referee,
    Side, SolveBudget, Solved, Square, Tunable,
};
use bitboard::{moves, CORNERS, C_SQUARES, EDGES, X_SQUARES};
use solve::{SolveLimit, Solver};
use std::cell::RefCell;
use std::time::Instant;

/// Empties from which the shared search hands a position to the exact solver
/// ([`Game::solve`]), time and nodes permitting: 24 empties take the solver seconds
/// (`docs/reversi.md`), so beyond that a timed move could never finish.
pub const SEARCH_SOLVE_EMPTIES: u32 = 24;
/// Empties from which the solver's answer costs next to nothing on any clock, so the
/// clock need not be kept for those moves.
const INSTANT_SOLVE_EMPTIES: u32 = 12;

/// The search's solver table: 2^21 entries (48 MiB), made with the thread's searcher
/// ([`Game::prepare_thread`], off any clock) and kept, so consecutive moves of a game
/// (and attempts that ran out) reuse what it learnt.
const SEARCH_SOLVER_BITS: u32 = 21;
/// The solver's typical tree by empties: the averages of our position sets at 21–23
/// empties, grown by a constant factor per further empty (`docs/reversi.md`,
/// "Measurements behind the constants").
fn typical_solve_nodes(empties: u32) -> f64 {
    15e6 * 2.5f64.powi(empties as i32 - 21)
}
/// Solver nodes per second assumed when judging whether a solve fits a deadline: the
/// low end of what the solver ran at on the development machine, so a solve that is
/// started usually fits (`docs/reversi.md`, "Measurements behind the constants").
const SOLVE_NODES_PER_SEC: f64 = 30e6;

/// Empties from which a timed search hands the position to the staged endgame
/// ([`stage_endgame`]), time permitting.
pub const STAGED_EMPTIES: u32 = 28;
/// How much longer than the last round the next one is assumed to take: a round is
/// started only if that fits before the soft deadline.
const ROUND_GROWTH: f64 = 2.0;

/// The first probcut round's typical tree by empties: about the middle of what it took
/// on positions at 26 empties of games against NTest, shrinking by a constant factor
/// per empty less (`docs/reversi.md`, "The staged endgame").
fn typical_first_round_nodes(empties: u32) -> f64 {
    6e6 * 1.7f64.powi(empties as i32 - 26)
}
/// Nodes per second of the staged rounds, when judging whether the first one fits: their
/// shallow probcut searches evaluate far more positions than the exact search, which
/// makes them about half as fast.
const STAGED_NODES_PER_SEC: f64 = 15e6;

/// The staged endgame of a timed search: the solver's probcut rounds at rising
/// confidence, the win/loss/draw search, the exact search ([`Solver::solve_staged`]),
/// on the thread's solver table, so each move's rounds build on the last move's. Each
/// round but the exact one goes to `on_round` as it finishes; a round is started only
/// while one growing [`ROUND_GROWTH`] times over the last would end before the soft
/// deadline, and the hard deadline (`SolveBudget::deadline`) ends the one running. The
/// first is started only where its typical tree fits half the time to the soft deadline
/// and the node limit, and is given up at that half (the midgame search then has the
/// other half; without that, a first round running to the hard deadline left the
/// midgame search no time, and at `st=0.05` the staged engine lost 59.6 ± 43.5 Elo to
/// the same engine without it: `docs/reversi.md`, "The staged endgame"). A fresh
/// solve (`SolveBudget::fresh`, the text languages' seeded AI) runs on a cleared table
/// of its own and decides on the next round by its nodes, so the same position always
/// gets the same move.
fn stage_endgame(
    pos: &Position,
    budget: &SolveBudget,
    on_round: &mut dyn FnMut(&EndgameRound<Move>),
) -> (Option<Solved<Move>>, u64) {
    let empties = pos.empty().count_ones();
    let typical = typical_first_round_nodes(empties);
    let now = Instant::now();
    let time_left = budget.soft.map(|d| d.saturating_duration_since(now));
    if pos.is_over()
        || empties > STAGED_EMPTIES
        || budget.max_plies.is_some_and(|d| empties > d)
        || (budget.max_nodes as f64) < typical
        || time_left.is_some_and(|t| t.as_secs_f64() / 2.0 * STAGED_NODES_PER_SEC < typical)
    {
        return (None, 0);
    }
    // The first round gets half the time to the soft deadline, as an exact solve does:
    // if it does not finish, the midgame search has the other half.
    let limit = SolveLimit {
        stop: Some(budget.stop),
        deadline: budget.deadline,
        max_nodes: Some(budget.max_nodes),
        first_round_deadline: budget
            .soft
            .map(|s| now + s.saturating_duration_since(now) / 2),
    };
    with_solver(budget.fresh, |solver| {
        let mut exact = None;
        let mut round_start = now;
        let plies = empties.max(1);
        solver.solve_staged(pos, &limit, 0, &mut |r| {
            let done = Instant::now();
            let took = done - round_start;
            round_start = done;
            if r.stage == EndgameStage::Exact {
                exact = Some(*r);
                return false;
            }
            on_round(&EndgameRound {
                best: r.best,
                stage: r.stage,
                margin: r.score,
                eval: r.score * midgame::UNITS_PER_DISC,
                plies,
                nodes: r.nodes,
            });
            if budget.fresh {
                // Reproducible play: whether the next round starts depends on the
                // nodes alone (the time cap only stops a runaway).
                (r.nodes as f64) * (1.0 + ROUND_GROWTH) <= budget.max_nodes as f64
            } else {
                budget
                    .soft
                    .is_none_or(|soft| done + took.mul_f64(ROUND_GROWTH) <= soft)
            }
        });
        let solved = exact.map(|r| Solved::with_margin(r.best, r.score, plies));
        (solved, solver.nodes())
    })
}

/// The table of a fresh solve ([`SolveBudget::fresh`]): 2^18 entries (6 MiB), cleared
/// each time, the size the text AI's solver always had, so its moves stay the same.
const FRESH_SOLVER_BITS: u32 = 18;

thread_local! {
    static SOLVER: RefCell<Option<Box<Solver>>> = const { RefCell::new(None) };
    static FRESH_SOLVER: RefCell<Option<Box<Solver>>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's solver: the search's, kept from move to move, or with
/// `fresh` the fresh solves' own, cleared first ([`SolveBudget::fresh`]).
fn with_solver<R>(fresh: bool, f: impl FnOnce(&mut Solver) -> R) -> R {
    let cell = if fresh { &FRESH_SOLVER } else { &SOLVER };
    cell.with(|cell| {
        let mut cell = cell.borrow_mut();
        if fresh {
            let solver = cell.get_or_insert_with(|| Box::new(Solver::new(FRESH_SOLVER_BITS)));
            solver.clear();
            f(solver)
        } else {
            f(cell.get_or_insert_with(search_solver))
        }
    })
}

/// The search's solver, with its table of 2^[`SEARCH_SOLVER_BITS`] entries.
fn search_solver() -> Box<Solver> {
    Box::new(Solver::new(SEARCH_SOLVER_BITS))
}

/// Static ordering value of each square: corners first, X and C squares last.
const fn square_hints() -> [i32; 64] {
    let mut t = [0i32; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        t[sq] = if CORNERS & bit != 0 {
            40
        } else if X_SQUARES & bit != 0 {
            -30
        } else if C_SQUARES & bit != 0 {
            -10
        } else if EDGES & bit != 0 {
            6
        } else {
            0
        };
        sq += 1;
    }
    t
}

static SQUARE_HINTS: [i32; 64] = square_hints();

/// Nodes this many plies or fewer from the leaves order their moves by square alone.
const SQUARE_ORDER_DEPTH: i32 = 1;

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
    type Rules = Rules;
    /// One slot per square and one for the pass.
    const HISTORY_SIZE: usize = 65;

    fn history_index(mv: Move) -> usize {
        mv.index()
    }

    fn side_to_move(&self) -> Side {
        Position::side_to_move(self)
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        Position::generate_moves(self, out)
    }

    fn make_move(&mut self, mv: Move) -> Undo {
        Position::make_move(self, mv)
    }

    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        Position::unmake_move(self, mv, undo)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Position::outcome(self)
    }

    fn rule_set(&self) -> Rules {
        Rules::Standard
    }

    fn is_over(&self) -> bool {
        Position::is_over(self)
    }

    fn final_margin(&self) -> i32 {
        Position::final_margin(self)
    }

    /// From the pattern readings the position keeps (the same value as
    /// [`midgame::evaluate`], without reading the patterns again).
    fn evaluate(&self) -> i32 {
        midgame::evaluate_indexed(
            self.indices().view(self.side_to_move()),
            self.own(),
            self.opp(),
        )
    }

    /// Corners first, X and C squares last, and among the rest the moves that leave the
    /// opponent fewer replies (one flip and one move generation: cheap on bitboards).
    fn move_order_hint(&self, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let f = self.flips(mv);
        let own = self.own() | f | 1u64 << mv.square();
        let opp = self.opp() & !f;
        SQUARE_HINTS[mv.index()] - 2 * moves(opp, own).count_ones() as i32
    }

    /// One ply from the leaves ([`SQUARE_ORDER_DEPTH`]) the square alone: there the
    /// flips and the opponent's move generation of [`Game::move_order_hint`] cost more
    /// than the order saves (`docs/reversi.md`, "Move order").
    fn move_order_hint_at(&self, mv: Move, depth: i32) -> i32 {
        if depth > SQUARE_ORDER_DEPTH {
            self.move_order_hint(mv)
        } else if mv.is_pass() {
            0
        } else {
            SQUARE_HINTS[mv.index()]
        }
    }

    /// One move per two empty squares, less the last [`INSTANT_SOLVE_EMPTIES`], which
    /// the exact solver plays in a few milliseconds.
    fn moves_left(&self) -> Option<u32> {
        let empties = self.empty().count_ones();
        Some(empties.saturating_sub(INSTANT_SOLVE_EMPTIES).div_ceil(2))
    }

    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    /// The exact endgame solver, from [`SEARCH_SOLVE_EMPTIES`] empties (or the depth of
    /// a depth-limited search) down.
    ///
    /// On a clock (`SolveBudget::staged`) the endgame is staged from
    /// [`STAGED_EMPTIES`] empties instead: probcut rounds, win/loss/draw, exact
    /// ([`stage_endgame`]).
    fn solve(
        &self,
        budget: &SolveBudget,
        on_round: &mut dyn FnMut(&EndgameRound<Move>),
    ) -> (Option<Solved<Move>>, u64) {
        if budget.staged {
            return stage_endgame(self, budget, on_round);
        }
        let empties = self.empty().count_ones();
        // A solve that would typically not fit the time or nodes is not started: it
        // would only take them from the search.
        let typical = typical_solve_nodes(empties);
        let time_left = budget
            .deadline
            .map(|d| d.saturating_duration_since(std::time::Instant::now()));
        if self.is_over()
            || empties > SEARCH_SOLVE_EMPTIES
            || budget.max_plies.is_some_and(|d| empties > d)
            || (budget.max_nodes as f64) < typical
            || time_left.is_some_and(|t| t.as_secs_f64() * SOLVE_NODES_PER_SEC < typical)
        {
            return (None, 0);
        }
        let limit = SolveLimit {
            stop: Some(budget.stop),
            deadline: budget.deadline,
            max_nodes: Some(budget.max_nodes),
            first_round_deadline: None,
        };
        with_solver(budget.fresh, |solver| {
            let Some(s) = solver.solve_within(self, &limit) else {
                return (None, solver.nodes());
            };
            let solved = s
                .best
                .map(|best| Solved::with_margin(best, s.score, empties.max(1)));
            (solved, s.nodes)
        })
    }

    /// Makes the thread's solver table now, with its searcher: on the first solve,
    /// filling its 48 MiB cost a short timed move most of its time on a loaded machine.
    fn prepare_thread() {
        SOLVER.with(|cell| {
            cell.borrow_mut().get_or_insert_with(search_solver);
        });
    }

    /// The selective search with Ataxx's margins: it beat the plain search at a time
    /// control (`docs/reversi.md`, "Measurements behind the constants"). No null move:
    /// zugzwang and tempo decide too many Othello positions for a pass to be a fair test.
    fn selective(&self) -> bool {
        true
    }

    /// A search 4 plies shallower predicts the deeper score well; the margin is 1.6
    /// standard deviations of the deeper score around the shallower one, as
    /// `tune reversi-probcut` measured it (`docs/reversi.md`, "Measurements behind the
    /// constants").
    const PROBCUT: Option<ProbCut> = Some(ProbCut {
        min_depth: 6,
        reduction: 4,
        margin: 72,
    });
}

impl Notation for Position {
    const NAME: &'static str = "reversi";
    /// The pattern evaluation predicts the final disc difference in these units.
    const SCORE_UNIT: Option<(i32, &'static str)> = Some((midgame::UNITS_PER_DISC, "discs"));

    fn startpos(_: Rules) -> Position {
        Position::startpos()
    }

    fn from_fen(fen: &str, _: Rules) -> Result<Position, String> {
        Position::from_fen(fen).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        Move::parse_protocol(text)
            .ok()
            .filter(|&m| self.is_legal(m))
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn pretty(&self) -> String {
        Position::pretty(self)
    }

    fn end_reason(&self) -> String {
        format!(
            "no moves for either side {}-{}",
            self.count(Side::First),
            self.count(Side::Second)
        )
    }
}

/// An 8×8 board whose row 1 is the top one (Othello's notation); a move places a disc.
impl Diagram for Position {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 8;

    fn labels() -> (String, Vec<String>) {
        ("abcdefgh".into(), (1..=8).map(|r| r.to_string()).collect())
    }

    fn square(&self, index: usize) -> Square {
        let sq = bitboard::square(index % 8, index / 8);
        self.disc_at(sq).map_or(Square::Empty, Square::Piece)
    }

    fn move_squares(&self, mv: Move) -> Option<(Option<usize>, usize)> {
        let sq = mv.square();
        (!mv.is_pass()).then(|| (None, bitboard::row_of(sq) * 8 + bitboard::col_of(sq)))
    }
}

impl Benchmark for Position {
    const BENCH_DEPTH: u32 = 13;

    fn bench_positions() -> Vec<Position> {
        bench_positions()
    }

    fn perft(&mut self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
}

/// The pattern evaluation is fitted by `tune reversi-eval`, not by `tune fit`: no
/// linear terms, and all of it lies outside the (empty) linear model.
impl Tunable for Position {
    fn eval_offset(&self) -> i32 {
        Game::evaluate(self)
    }
}

impl Referee for Position {
    fn material(&self, side: Side) -> i32 {
        self.count(side) as i32
    }
}

/// The bench positions: the start, then positions with 48, 40, 32, 24 and 16 empty
/// squares from seeded random playouts (SplitMix64, seed 2026).
pub const BENCH_FENS: &[&str] = &[
    "8/8/8/3ox3/3xo3/8/8/8 x",
    "8/3o4/1x1o4/1xoxo3/1ooooo2/ooo1x3/8/8 x",
    "4o3/4oox1/3xxxo1/2xxxoox/2xxox1o/2oo4/1oox4/8 x",
    "2o5/3o3x/3oooxo/3ooooo/3ooxxo/1ooox1xo/2ox1oxo/1ox2x2 x",
    "4oox1/4oooo/3xxoo1/2xxx1o1/ooooooo1/oooxooo1/oooxox2/x1xxxx2 x",
    "o1x3o1/xoxxxoo1/xxo1ox1x/xooooooo/xooooooo/xoooooo1/2oooooo/4ooo1 x",
];

/// [`BENCH_FENS`] as positions under the engine rules.
pub fn bench_positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .collect()
}

/// Whether this thread's solver table has been made (for the search's test that
/// `Searcher::new` prepares it).
#[cfg(test)]
pub(crate) fn solver_table_made() -> bool {
    SOLVER.with(|c| c.borrow().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `prepare_thread` makes the solver's table on the calling thread, so the first
    /// solve inside a timed move does not (issue 25 item 8: filling its 48 MiB took most
    /// of a short move on a loaded machine). That the searcher calls it is the search's
    /// test (`search::alphabeta::tests::reversi_solver`).
    #[test]
    fn prepare_thread_makes_the_solver_table() {
        std::thread::spawn(|| {
            assert!(!solver_table_made());
            <Position as Game>::prepare_thread();
            assert!(solver_table_made());
        })
        .join()
        .unwrap();
    }

    /// One ply from the leaves a move is ordered by its square alone; further up by the
    /// full hint, which also counts the opponent's replies.
    #[test]
    fn the_order_one_ply_from_the_leaves_is_the_square_alone() {
        let mut pos = Position::startpos();
        for m in ["f5", "d6", "c3", "d3"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut differs = false;
        for &mv in &moves {
            let square = SQUARE_HINTS[mv.index()];
            assert_eq!(pos.move_order_hint_at(mv, 0), square);
            assert_eq!(pos.move_order_hint_at(mv, SQUARE_ORDER_DEPTH), square);
            let full = pos.move_order_hint(mv);
            assert_eq!(pos.move_order_hint_at(mv, SQUARE_ORDER_DEPTH + 1), full);
            differs |= full != square;
        }
        assert!(differs, "the replies count somewhere");
        assert_eq!(pos.move_order_hint_at(Move::PASS, 0), 0);
    }
}

//! Reversi (Othello, 8×8): bitboard rules, FEN / OBF / move notation, the text
//! language's dump, evaluation, bulk-counting perft and an exact endgame solver.
//!
//! Squares are named as `reversi.txt` draws the board: columns a–h from the left, rows
//! 1–8 from the **top** (`d3` is the fourth column, third row from the top).

pub mod bitboard;
pub mod eval;
pub mod nboard;
pub mod notation;
pub mod pattern;
pub mod position;
pub mod solve;
pub mod text;

pub use notation::{parse_square, square_name, NotationError};
pub use position::{final_score, Move, Position, Undo};

use crate::game::{Game, GameIo, Outcome, Phase, RuleSet, Side};
use bitboard::{moves, CORNERS, C_SQUARES, EDGES, X_SQUARES};

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

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
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

    fn is_over(&self) -> bool {
        Position::is_over(self)
    }

    fn final_margin(&self) -> i32 {
        Position::final_margin(self)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
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

    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    /// The selective search with Ataxx's margins: +45 ± 34 Elo over the plain search
    /// in 400 games at 2 s + 20 ms (`docs/reversi.md`). No null move: zugzwang and
    /// tempo decide too many Othello positions for a pass to be a fair test.
    fn selective(&self) -> bool {
        true
    }
}

impl GameIo for Position {
    const NAME: &'static str = "reversi";
    const BENCH_DEPTH: u32 = 13;
    const EVAL_TERMS: &'static [&'static str] = &eval::TERMS;

    fn eval_weights() -> [&'static [i32]; 2] {
        [&eval::MG, &eval::EG]
    }

    fn eval_terms(&self) -> (Vec<i32>, Phase) {
        let (t, phase) = eval::terms(self);
        (t.to_vec(), phase)
    }

    fn startpos(rules: RuleSet) -> Position {
        Position::startpos(rules)
    }

    fn from_fen(fen: &str, rules: RuleSet) -> Result<Position, String> {
        Position::from_fen(fen, rules).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn rule_set(&self) -> RuleSet {
        self.rules()
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

    fn bench_positions() -> Vec<Position> {
        bench_positions()
    }

    fn perft(&mut self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }

    fn end_reason(&self) -> String {
        format!(
            "no moves for either side {}-{}",
            self.count(Side::First),
            self.count(Side::Second)
        )
    }

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
        .filter_map(|f| Position::from_fen(f, RuleSet::Engine).ok())
        .collect()
}

//! Ataxx: 7×7 bitboards, its four rule sets (UAI's 100-ply rule, the 2016 and 2022 course
//! editions' 25 consecutive jumps, the 2008 edition's 45), FEN and move notation,
//! evaluation, and bulk-counting perft.

pub mod bitboard;
pub mod eval;
pub mod network;
pub mod nnue;
pub mod notation;
pub mod position;

pub use notation::{block_squares, parse_square, square_name, NotationError, TextMove};
pub use position::{Cell, Move, Position, Rules, Undo};

use crate::game::{
    Benchmark, Diagram, Game, Notation, Opening, Outcome, Phase, Referee, SearchTuning, Side,
    Square, Tunable,
};
use bitboard::ADJACENT;

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
    type Rules = Rules;
    const HISTORY_SIZE: usize = 64 * 64;

    /// Tuned by `tune spsa` at a fixed node count and kept after a match at `2+0.02`
    /// against the shared values (`docs/strength.md`, "SPSA: the first session").
    const TUNING: SearchTuning = SearchTuning {
        aspiration_width: 43,
        rfp_margin: 143,
        razor_margin: 186,
        lmr_aggr: 4,
        history_div: 64,
    };

    fn history_index(mv: Move) -> usize {
        mv.from() as usize * 64 + mv.to() as usize
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
        self.rules()
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn move_order_hint(&self, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let own = self.pieces(self.side_to_move());
        let captures = self.captures(mv).count_ones() as i32;
        let kind = if mv.is_single() {
            3
        } else {
            // A jump leaves a hole next to the stones around its source.
            -((ADJACENT[mv.from() as usize] & own).count_ones() as i32)
        };
        4 * captures + kind
    }

    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    fn is_quiet(&self, mv: Move) -> bool {
        self.captures(mv) == 0
    }

    /// A jump that captures nothing: it leaves a hole and gains no stone.
    fn is_hopeless(&self, mv: Move) -> bool {
        !mv.is_pass() && !mv.is_single() && self.captures(mv) == 0
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    /// Everywhere: measured at real time controls (`docs/strength.md`, round 3).
    fn selective(&self) -> bool {
        true
    }

    /// Fewer than [`EXACT_MAX_EMPTY`] squares empty: a full-width search proves the
    /// forced wins there that the reductions and static cuts hide
    /// (`tests/forced_wins.rs`). Only the text AI asks for it: in timed play the
    /// full-width search lost about 230 Elo (row 28).
    fn near_end(&self) -> bool {
        self.empty().count_ones() < EXACT_MAX_EMPTY
    }

    /// The pass, while at least [`NULL_MOVE_EMPTY_PERCENT`] % of the playable squares
    /// are empty and the side to move has a move: late in the game a pass is often the
    /// best move (every move may open a hole), so the null-move test would mislead.
    fn null_move(&self) -> Option<Move> {
        let playable = 49 - self.gaps().count_ones();
        let empty = self.empty().count_ones();
        (empty * 100 >= NULL_MOVE_EMPTY_PERCENT * playable && self.can_move(self.side_to_move()))
            .then_some(Move::PASS)
    }
}

/// An exact-endgame search (`Features::exact_endgame`) is full width with fewer than
/// this many empty squares.
pub const EXACT_MAX_EMPTY: u32 = 10;

/// Null-move pruning is offered while at least this share of the playable squares is
/// empty (zugzwang becomes likely as the board fills).
pub const NULL_MOVE_EMPTY_PERCENT: u32 = 46;

impl Notation for Position {
    const NAME: &'static str = "ataxx";

    const SPEAKS_UAI: bool = true;
    /// The network is trained on a scale where a piece is worth about 100 (as chess
    /// engines' centipawns), and the hand-made evaluation's material weights are close.
    const SCORE_UNIT: Option<(i32, &'static str)> = Some((100, "pieces"));

    fn startpos(rules: Rules) -> Position {
        Position::startpos(rules)
    }

    fn from_fen(fen: &str, rules: Rules) -> Result<Position, String> {
        Position::from_fen(fen, rules).map_err(|e| e.to_string())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        Move::parse_uai(text).ok().filter(|&m| self.is_legal(m))
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn pretty(&self) -> String {
        Position::pretty(self).trim_end().to_string()
    }

    /// A FEN, or `block SQ` words (the text language's blocks, with reflections) then
    /// moves in UAI (`f2`, `a1a3`) or text (`g1-f2`) form.
    fn opening(line: &str, rules: Rules) -> Result<Opening<Position>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut base = Position::startpos(rules);
        let mut moves = Vec::new();
        if line.contains('/') {
            base = Position::from_fen(line, rules).map_err(|e| e.to_string())?;
        } else {
            let mut pos = base.clone();
            let mut words = line.split_whitespace();
            while let Some(w) = words.next() {
                if w.eq_ignore_ascii_case("block") {
                    if !moves.is_empty() {
                        return Err("'block' after a move".into());
                    }
                    let sq = words.next().ok_or("'block' needs a square")?;
                    let sq = parse_square(sq).map_err(|e| e.to_string())?;
                    base.add_gaps(block_squares(sq))
                        .map_err(|e| format!("block {}: {e}", square_name(sq)))?;
                    pos = base.clone();
                    continue;
                }
                let mv = if w.contains('-') {
                    TextMove::parse(w).ok().and_then(|m| m.resolve(&pos))
                } else {
                    pos.parse_move(w)
                };
                let mv = mv.ok_or_else(|| format!("illegal opening move '{w}'"))?;
                pos.make_move(mv);
                moves.push(mv);
            }
        }
        let opening = Opening { base, moves };
        if opening.end().outcome().is_some() {
            return Err("the opening already ends the game".into());
        }
        Ok(opening)
    }

    fn end_reason(&self) -> String {
        let (x, o) = (self.count(Side::First), self.count(Side::Second));
        let why = if x == 0 || o == 0 {
            "no stones left"
        } else if self.empty() == 0 {
            "board full"
        } else if self.rules().counts_jumps() && self.clock() >= self.rules().clock_limit() {
            if self.rules() == Rules::Text2008 {
                "45 consecutive jumps"
            } else {
                "25 consecutive jumps"
            }
        } else if self.rules() == Rules::Uai && self.outcome() == Some(Outcome::Draw) {
            "100-ply rule"
        } else {
            "no moves left"
        };
        format!("{why} {x}-{o}")
    }
}

/// A 7×7 board, rank 1 at the bottom; a clone moves no piece, so it is entered by its
/// target square alone.
impl Diagram for Position {
    const WIDTH: usize = 7;
    const HEIGHT: usize = 7;

    fn square(&self, index: usize) -> Square {
        match self.cell(display_square(index)) {
            Cell::Empty => Square::Empty,
            Cell::Gap => Square::Blocked,
            Cell::Piece(side) => Square::Piece(side),
        }
    }

    fn move_squares(&self, mv: Move) -> Option<(Option<usize>, usize)> {
        let from = mv.is_double().then(|| display_index(mv.from()));
        (!mv.is_pass()).then(|| (from, display_index(mv.to())))
    }
}

/// The square drawn at display index `index` (row by row from the top left; see
/// [`Diagram`]).
pub fn display_square(index: usize) -> u8 {
    bitboard::square(index % 7, 6 - index / 7)
}

/// The display index of square `sq` (see [`Diagram`]).
pub fn display_index(sq: u8) -> usize {
    (6 - bitboard::rank_of(sq)) * 7 + bitboard::file_of(sq)
}

impl Benchmark for Position {
    const BENCH_DEPTH: u32 = 7;

    fn bench_positions() -> Vec<Position> {
        bench_positions()
    }

    fn perft(&mut self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
}

impl Tunable for Position {
    const EVAL_TERMS: &'static [&'static str] = &eval::TERMS;

    fn eval_weights() -> [&'static [i32]; 2] {
        [&eval::MG, &eval::EG]
    }

    fn eval_terms(&self) -> (Vec<i32>, Phase) {
        let (t, phase) = eval::terms(self);
        (t.to_vec(), phase)
    }

    /// The network is the whole evaluation: the linear model's terms are what `tune fit`
    /// still reads, and the offset is the rest.
    fn eval_offset(&self) -> i32 {
        eval::evaluate(self) - eval::linear(self)
    }
}

impl Referee for Position {
    const MATERIAL_ADJUDICATION: bool = true;

    fn material(&self, side: Side) -> i32 {
        self.count(side) as i32
    }
}

/// The bench positions: openings with and without gaps, and middle games.
pub const BENCH_FENS: &[&str] = &[
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
    "x2-2o/3-3/7/--3--/7/3-3/o2-2x x 0 1",
    "7/7/7/2x1o2/7/7/7 x 0 1",
    "7/7/7/7/4ooo/4ooo/4oox x 0 1",
    "x1-1-1o/2-1-2/2-1-2/7/2-1-2/2-1-2/o1-1-1x x 0 1",
];

/// [`BENCH_FENS`] as positions under the UAI rules.
pub fn bench_positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f, Rules::Uai).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn hopeless_moves_are_the_jumps_that_capture_nothing() {
        // Red x on a1 and g7, Blue o on a7 and g1, and a Blue stone on c2 next to b1–d3.
        let pos = Position::from_fen("o5x/7/7/7/7/2o4/x5o x 0 1", Rules::Uai).unwrap();
        let sq = |name| parse_square(name).unwrap();
        let mut moves = Vec::new();
        Game::generate_moves(&pos, &mut moves);
        let mut jumps = 0;
        for &mv in &moves {
            let captures = pos.captures(mv) != 0;
            assert_eq!(pos.is_hopeless(mv), !mv.is_single() && !captures, "{mv:?}");
            jumps += usize::from(!mv.is_single());
        }
        assert!(jumps > 0);
        // a1–c1 lands next to c2 and takes it; a1–a3 takes nothing.
        assert!(!pos.is_hopeless(Move::double(sq("a1"), sq("c1"))));
        assert!(pos.is_hopeless(Move::double(sq("a1"), sq("a3"))));
        assert!(!pos.is_hopeless(Move::single(sq("b1"))));
        assert!(!pos.is_hopeless(Move::PASS));
    }
}

//! Lines of Action (8×8): bitboard rules with incremental line counts, both rule sets
//! (UGI's third-repetition draw, the text language's move limit), FEN and move
//! notation, evaluation and bulk-counting perft.

pub mod bitboard;
pub mod eval;
pub mod notation;
pub mod position;

pub use notation::{colour_name, parse_square, square_name, NotationError};
pub use position::{Move, Position, Rules, Undo, DEFAULT_MOVE_LIMIT};

use crate::game::{
    Benchmark, Diagram, Game, Notation, Outcome, Phase, Referee, Side, Square, Tunable,
};
use bitboard::{distance, is_connected};

impl Game for Position {
    type Move = Move;
    type Undo = Undo;
    type Rules = Rules;
    const HISTORY_SIZE: usize = 64 * 64;

    fn history_index(mv: Move) -> usize {
        (mv.from() as usize & 63) * 64 + (mv.to() as usize & 63)
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

    fn is_over(&self) -> bool {
        Position::is_over(self)
    }

    fn is_repetition(&self) -> bool {
        Position::is_repetition(self)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    /// Captures first, then moves that bring a piece closer to its side's centre of
    /// mass (the usual way to connect), then the rest.
    fn move_order_hint(&self, mv: Move) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let com = eval::centre_of_mass(self.pieces(self.side_to_move()));
        let closer = distance(mv.from(), com) as i32 - distance(mv.to(), com) as i32;
        16 * self.is_capture(mv) as i32 + closer
    }

    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    fn is_quiet(&self, mv: Move) -> bool {
        !self.is_capture(mv)
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    /// The selective search beat the plain one clearly at a time control (`docs/loa.md`,
    /// "Measurements behind the constants").
    fn selective(&self) -> bool {
        true
    }

    /// The pass, while the side to move has a move: a piece more to move rarely hurts
    /// in LOA, so zugzwang is too rare to keep the null-move test out of any phase.
    fn null_move(&self) -> Option<Move> {
        self.can_move().then_some(Move::PASS)
    }
}

impl Notation for Position {
    const NAME: &'static str = "loa";

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
        match self.outcome() {
            None => "not over".to_string(),
            Some(Outcome::Win(side)) => {
                let both = is_connected(self.pieces(Side::First))
                    && is_connected(self.pieces(Side::Second));
                if both {
                    "both connected, mover wins".to_string()
                } else {
                    format!("{} connected", colour_name(side))
                }
            }
            Some(Outcome::Draw) => match self.rules() {
                Rules::Ugi => "third repetition".to_string(),
                Rules::Text => "move limit".to_string(),
            },
        }
    }
}

/// An 8×8 board, rank 1 at the bottom.
impl Diagram for Position {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 8;

    fn square(&self, index: usize) -> Square {
        let sq = bitboard::square(index % 8, 7 - index / 8);
        self.piece_at(sq).map_or(Square::Empty, Square::Piece)
    }

    fn move_squares(&self, mv: Move) -> Option<(Option<usize>, usize)> {
        let at = |sq: u8| (7 - bitboard::rank_of(sq)) * 8 + bitboard::file_of(sq);
        (!mv.is_pass()).then(|| (Some(at(mv.from())), at(mv.to())))
    }
}

impl Benchmark for Position {
    const BENCH_DEPTH: u32 = 8;

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
}

impl Referee for Position {
    fn material(&self, side: Side) -> i32 {
        self.count(side) as i32
    }
}

/// The bench positions: the start, and middle games 8 to 26 plies into games the engine
/// played against itself at a few thousand nodes a move (seeded root order).
pub const BENCH_FENS: &[&str] = &[
    "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 1",
    "3xxx2/o7/o2ox2o/o4x1o/o6o/o3o3/o7/1xxxxx2 x 0 5",
    "1xx5/o4o2/3oox2/o3o3/o1x1o3/o2xo2o/3ox3/4x3 x 4 9",
    "8/8/3oo1xo/2o1oxxo/2o1ox1o/2xxo3/o7/1xxx4 x 10 11",
    "8/8/3oo2o/o1o1xx1o/3xxx1o/3o3o/7o/2xo2x1 x 0 12",
    "8/5oo1/3oo1x1/2ooxxxo/3xox1o/3xo3/1x6/2x5 x 5 14",
];

/// [`BENCH_FENS`] as positions under the engine rules.
pub fn bench_positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f, Rules::Ugi).ok())
        .collect()
}

//! Ataxx: 7×7 bitboards, both rule sets (the text language's 25-jump rule and UAI's
//! 100-ply rule), FEN and move notation, evaluation, and bulk-counting perft.

pub mod bitboard;
pub mod eval;
pub mod notation;
pub mod position;

pub use notation::{parse_square, square_name, NotationError, TextMove};
pub use position::{Cell, Move, Position, Rules, Undo};

use crate::game::{Game, Outcome, Side};
use bitboard::ADJACENT;

impl Game for Position {
    type Move = Move;
    type Undo = Undo;

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

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }
}

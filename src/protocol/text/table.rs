//! The game every text session keeps, whatever its dialect: the position, the moves
//! that led to it (the board page's undo and move list), and the seed and ply count
//! that the AI's choices are mixed with, so that a seed and the same input give the
//! same moves.

use super::board::History;
use super::{Host, ThinkError};
use crate::game::GameIo;
use crate::search::Limits;

/// A session's game: see the module documentation.
pub struct Table<G: GameIo> {
    pub pos: G,
    /// The moves played, for undo and the board page.
    pub history: History<G>,
    /// The AI's seed (`seed N`).
    pub seed: u64,
    /// Moves played (passes and set-up moves included) since the game was set up:
    /// mixed into the AI's seed.
    pub ply: u64,
}

impl<G: GameIo> Table<G> {
    /// A new game from `pos`, with seed 0.
    pub fn new(pos: G) -> Table<G> {
        Table {
            pos,
            history: History::default(),
            seed: 0,
            ply: 0,
        }
    }

    /// A new game from `pos` that keeps the seed (`clear`, `new`).
    pub fn restart(&mut self, pos: G) {
        *self = Table {
            seed: self.seed,
            ..Table::new(pos)
        };
    }

    /// Plays `mv` (legal in [`Table::pos`]) and records it.
    pub fn play(&mut self, mv: G::Move) {
        let before = self.pos.clone();
        self.pos.make_move(mv);
        self.history.record(before, mv, &self.pos);
        self.ply += 1;
    }

    /// Takes back the last move, if it is kept; false if there is none.
    pub fn take_back(&mut self) -> bool {
        match self.history.pop(&self.pos) {
            Some(before) => {
                self.pos = before;
                // A `set` that edits the position keeps no move behind it, so the
                // count never goes below the moves kept; saturating all the same.
                self.ply = self.ply.saturating_sub(1);
                true
            }
            None => false,
        }
    }

    /// The AI's move in [`Table::pos`] within `limits`, seeded with the seed and ply
    /// (see [`Host::think`] for the lines that arrive meanwhile).
    pub fn think(
        &self,
        host: &mut Host<G>,
        limits: Limits,
        acts_now: fn(&str) -> bool,
    ) -> Result<G::Move, ThinkError> {
        host.think(self, limits, acts_now)
    }
}

#[cfg(test)]
mod tests {
    use super::Table;
    use crate::games::ataxx::{Position, Rules};

    #[test]
    fn plays_and_takes_back() {
        let start = Position::startpos(Rules::Text);
        let mut t = Table::new(start.clone());
        t.seed = 7;
        let mv = start.legal_moves()[0];
        t.play(mv);
        assert_eq!((t.ply, t.history.len()), (1, 1));
        assert_ne!(t.pos.hash(), start.hash());
        assert!(t.take_back());
        assert_eq!((t.ply, t.pos.hash()), (0, start.hash()));
        assert!(!t.take_back());
        t.play(mv);
        t.restart(start.clone());
        assert_eq!((t.seed, t.ply, t.history.len()), (7, 0, 0));
    }
}

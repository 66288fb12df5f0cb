//! The game every front end keeps (as Edax's `Play` under each of its protocols): the
//! position, the moves that led to it (undo, and the board page's move list), and the
//! seed and ply count the AI's choices are mixed with, so that a seed and the same input
//! give the same moves. The text sessions play it through their turn loop
//! (`text::Turns`), UAI/UGI and NBoard set it from their GUI's commands, and the board
//! page draws it and walks its history.

use crate::game::Game;

/// A front end's game: see the module documentation.
pub struct Play<G: Game> {
    pub pos: G,
    /// The moves played, for undo and the board page.
    pub history: History<G>,
    /// The AI's seed (`seed N`).
    pub seed: u64,
    /// Moves played (passes and set-up moves included) since the game was set up:
    /// mixed into the AI's seed.
    pub ply: u64,
}

impl<G: Game> Play<G> {
    /// A new game from `pos`, with seed 0.
    pub fn new(pos: G) -> Play<G> {
        Play {
            pos,
            history: History::default(),
            seed: 0,
            ply: 0,
        }
    }

    /// A new game from `pos` that keeps the seed (`clear`, `new`).
    pub fn restart(&mut self, pos: G) {
        *self = Play {
            seed: self.seed,
            ..Play::new(pos)
        };
    }

    /// Plays `mv` (legal in [`Play::pos`]) and records it.
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
}

/// Most moves kept for undo (a game of any of these games is far shorter).
const MAX_HISTORY: usize = 2048;

/// The moves played, each with the position before it, so that undo can walk back.
/// Each entry also remembers the position it led to: if the session's position has
/// changed in another way since (a new game, a `set`, blocks), the history no longer
/// describes it and undo refuses rather than restore a position from another game.
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    entries: Vec<(G, G::Move, u64)>,
}

impl<G: Game> Default for History<G> {
    fn default() -> Self {
        History {
            entries: Vec::new(),
        }
    }
}

impl<G: Game> History<G> {
    /// Records that `mv` took `before` to `after`.
    pub fn record(&mut self, before: G, mv: G::Move, after: &G) {
        if self.entries.len() == MAX_HISTORY {
            self.entries.remove(0);
        }
        self.entries.push((before, mv, after.hash()));
    }

    /// The last move, with the position it was played in, if it led to `current`.
    pub fn last(&self, current: &G) -> Option<(&G, G::Move)> {
        match self.entries.last() {
            Some((before, mv, after)) if *after == current.hash() => Some((before, *mv)),
            _ => None,
        }
    }

    /// Takes back the last move if it led to `current`: the position before it.
    pub fn pop(&mut self, current: &G) -> Option<G> {
        self.last(current)?;
        self.entries.pop().map(|(before, _, _)| before)
    }

    /// How many moves are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no move is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every move.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The game that led to `current`, for the board page's move list: the position it
    /// started from and the moves since, as far back as the kept moves follow one
    /// another (a `set`, blocks or a new game between two moves cut the line there).
    /// No move when the last one kept did not lead to `current`.
    pub fn line(&self, current: &G) -> (G, Vec<G::Move>) {
        if self.last(current).is_none() {
            return (current.clone(), Vec::new());
        }
        let mut first = self.entries.len() - 1;
        while first > 0 && self.entries[first - 1].2 == self.entries[first].0.hash() {
            first -= 1;
        }
        let moves = self.entries[first..].iter().map(|e| e.1).collect();
        (self.entries[first].0.clone(), moves)
    }
}

#[cfg(test)]
mod tests {
    use super::{History, Play};
    use crate::games::ataxx::{Position, Rules};

    #[test]
    fn plays_and_takes_back() {
        let start = Position::startpos(Rules::Text);
        let mut t = Play::new(start.clone());
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

    #[test]
    fn the_line_goes_back_to_where_the_moves_follow_one_another() {
        use crate::games::reversi::Position;
        let start = Position::startpos();
        let mut h = History::default();
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..3 {
            let mv = pos.legal_moves()[0];
            let before = pos.clone();
            pos.make_move(mv);
            h.record(before, mv, &pos);
            played.push(mv);
        }
        assert_eq!(h.line(&pos), (start.clone(), played.clone()));
        // A position set in another way, then a move: the line starts there.
        let set = pos.clone();
        let mut elsewhere = Position::startpos();
        let mv = elsewhere.legal_moves()[1];
        let before = elsewhere.clone();
        elsewhere.make_move(mv);
        h.record(before.clone(), mv, &elsewhere);
        assert_eq!(h.line(&elsewhere), (before, vec![mv]));
        assert_eq!(h.line(&set), (set.clone(), vec![]));
    }
}

//! The game every text session keeps, whatever its dialect: the position, the moves
//! that led to it (the board page's undo and move list), and the seed and ply count
//! that the AI's choices are mixed with, so that a seed and the same input give the
//! same moves.

use super::board::{Action, History};
use super::{Flow, Host, TextDialect, ThinkError};
use crate::game::{Game, GameIo, Outcome, Side};
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
        look: &dyn Fn(&str) -> Option<String>,
    ) -> Result<G::Move, ThinkError> {
        host.think(self, limits, acts_now, look)
    }
}

/// A session whose AI plays its sides' turns one after the other, until a person is to
/// move or the game ends (the 2016, 2022 and LOA sessions): one loop,
/// [`Turns::play_turns`], with the dialects' differences as its steps (whether a game is
/// in play, how an end is announced, what a side without a move does, what an AI move
/// prints and records). The board page's actions ([`Turns::page_action`]) are carried
/// out with the same steps and followed by the same loop.
pub trait Turns: TextDialect {
    /// The session's game.
    fn game(&self) -> &Table<Self::Game>;

    /// Whether a game is in play (not being set up, not over): the AI moves only then.
    fn in_play(&self) -> bool {
        true
    }

    /// Whether the AI plays `side`.
    fn ai_plays(&self, side: Side) -> bool;

    /// Before each turn: the game's outcome, if it is over, to announce (and leave play
    /// where the dialect does); returns true if it is over.
    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut Host<Self::Game>) -> bool;

    /// A move made for the side to move without thinking (`ai`: the AI plays it), said
    /// as the dialect says it: the pass of a side with no move, where the language
    /// passes for it. `None` where the side moves as always.
    fn forced(
        &mut self,
        ai: bool,
        host: &mut Host<Self::Game>,
    ) -> Option<<Self::Game as Game>::Move> {
        let _ = (ai, host);
        None
    }

    /// Plays `mv` (the AI's, or a forced one) as the session records moves.
    fn play(&mut self, mv: <Self::Game as Game>::Move, host: &mut Host<Self::Game>);

    /// The AI's move: its line said, then the move played.
    fn ai_moves(&mut self, mv: <Self::Game as Game>::Move, host: &mut Host<Self::Game>);

    /// The board page makes `side` an AI player (`ai`) or a manual one.
    fn set_ai(&mut self, side: Side, ai: bool);

    /// The board page's new game: the dialect's new game, the players kept.
    fn new_game(&mut self);

    /// The board page's undo: takes back the last move, and further back as the
    /// dialect gives a person their turn back; refused if there is none.
    fn undo(&mut self) -> Result<(), Self::Error>;

    /// Carries out one of the board page's actions (see [`TextDialect::act`]), a
    /// refusal reported as an error line, then plays the turns that follow.
    fn page_action(&mut self, action: Action, host: &mut Host<Self::Game>) -> Flow
    where
        Self: Sized,
    {
        match action {
            Action::Player(side, ai) => self.set_ai(side, ai),
            Action::NewGame => {
                self.new_game();
                host.new_game();
            }
            Action::Undo => {
                if let Err(why) = self.undo() {
                    Self::error(host, &why.to_string());
                }
            }
        }
        self.play_turns(host)
    }

    /// Lets the AI move while a game is in play and it is to move, announcing the end
    /// when it comes; the board page follows each move. Returns `Quit` if `quit` came
    /// while the AI thought.
    fn play_turns(&mut self, host: &mut Host<Self::Game>) -> Flow
    where
        Self: Sized,
    {
        while self.in_play() {
            let pos = &self.game().pos;
            let (outcome, side) = (pos.outcome(), pos.side_to_move());
            if self.at_end(outcome, host) {
                break;
            }
            let ai = self.ai_plays(side);
            if let Some(mv) = self.forced(ai, host) {
                self.play(mv, host);
            } else if ai {
                // The page shows the move just played (a person's) while the AI thinks.
                host.show(self);
                let limits = Self::SPEC.ai.limits();
                match self
                    .game()
                    .think(host, limits, Self::acts_at_once, &|l| self.look(l))
                {
                    Ok(mv) => self.ai_moves(mv, host),
                    Err(e) => return self.think_failed(e, host),
                }
            } else {
                break;
            }
            host.show(self);
        }
        Flow::Continue
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

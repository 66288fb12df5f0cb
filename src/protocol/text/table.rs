//! The one turn loop every text dialect plays its game ([`Play`]) with ([`Turns`]),
//! where a side is moved by a person, the AI, or a remote program ([`Turn`]).

use super::board::Action;
use super::{Flow, Host, TextDialect, ThinkError};
use crate::game::{Game, Outcome, Side};
use crate::protocol::play::Play;

/// Who moves for a side: the person at the keyboard (or the page), the AI of this
/// program, or a remote program over the connection (`host` / `join`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Person,
    Ai,
    Remote,
}

impl Turn {
    /// The AI's turn if `ai`, else a person's (a side no remote program plays).
    pub fn local(ai: bool) -> Turn {
        if ai {
            Turn::Ai
        } else {
            Turn::Person
        }
    }
}

/// Every text session's turns, whatever its dialect: one loop,
/// [`Turns::play_turns`], that lets the AI and a remote program move while a game is
/// in play and one of them is to move, until a person is to move or the game ends.
/// The dialects' differences are its steps: whether a game is in play, who moves
/// for each side, how an end is announced, what a side without a move does, what an
/// AI move prints and records, how a remote move arrives. The board page's actions
/// ([`Turns::page_action`]) are carried out once for all, with the dialects' own
/// player, new-game and undo models, and followed by the same loop.
pub trait Turns: TextDialect {
    /// The session's game.
    fn game(&self) -> &Play<Self::Game>;

    /// Whether a game is in play (not being set up, not over): the AI moves only then.
    fn in_play(&self) -> bool {
        true
    }

    /// Who moves for `side`.
    fn turn(&self, side: Side) -> Turn;

    /// Before each turn: if the game is over, announces its outcome (and leaves play
    /// where the dialect does) and returns what the session does next; `None` while
    /// the game goes on.
    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut Host<Self::Game>) -> Option<Flow>;

    /// Plays a move for the side to move without thinking, said as the dialect says
    /// it (`ai`: the AI plays the side): the pass of a side with no move, where the
    /// language passes for it. False where the side moves as always.
    fn forced(&mut self, ai: bool, host: &mut Host<Self::Game>) -> bool {
        let _ = (ai, host);
        false
    }

    /// The AI's move in the game's position: by default within the dialect's AI
    /// limits, the lines that act at once ending the search.
    fn think(&self, host: &mut Host<Self::Game>) -> Result<<Self::Game as Game>::Move, ThinkError> {
        let limits = Self::SPEC.ai.limits();
        host.think(self.game(), limits, Self::acts_at_once, &|l| self.look(l))
    }

    /// The AI's move: its line said, then the move played (and sent to a remote
    /// program that waits for it). `Some(flow)` when play stops here.
    fn ai_moves(
        &mut self,
        mv: <Self::Game as Game>::Move,
        host: &mut Host<Self::Game>,
    ) -> Option<Flow>;

    /// A remote program's turn: its move read, said and played. `Some(flow)` when play
    /// stops here (the peer is gone or broke the sequence, or the person's line ended
    /// the wait). Only dialects with remote play have remote turns.
    fn remote_turn(&mut self, host: &mut Host<Self::Game>) -> Option<Flow> {
        let _ = host;
        log::error!("a remote turn in a dialect without remote play");
        Some(Flow::Continue)
    }

    /// The board page makes `side` an AI player (`ai`) or a manual one, or refuses.
    fn set_player(&mut self, side: Side, ai: bool) -> Result<(), Self::Error>;

    /// The board page's new game: the dialect's new game, the players kept; or a
    /// refusal that changed nothing.
    fn new_game(&mut self) -> Result<(), Self::Error>;

    /// The board page's undo: takes back the last move, and further back as the
    /// dialect gives a person their turn back; refused if there is none.
    fn undo(&mut self) -> Result<(), Self::Error>;

    /// Carries out one of the board page's actions (undo, a side to AI or manual, a new game), a
    /// refusal reported as an error line, then plays the turns that follow.
    fn page_action(&mut self, action: Action, host: &mut Host<Self::Game>) -> Flow
    where
        Self: Sized,
    {
        let done = match action {
            Action::Player(side, ai) => self.set_player(side, ai),
            Action::NewGame => self.new_game().map(|()| host.new_game()),
            Action::Undo => self.undo(),
        };
        if let Err(why) = done {
            Self::error(host, &why.to_string());
        }
        self.play_turns(host)
    }

    /// Lets the AI and a remote program move while a game is in play and one of them
    /// is to move, announcing the end when it comes; the board page follows each move.
    /// Returns what the session does next (`Quit` if `quit` came while the AI thought).
    fn play_turns(&mut self, host: &mut Host<Self::Game>) -> Flow
    where
        Self: Sized,
    {
        while self.in_play() {
            let pos = &self.game().pos;
            let (outcome, side) = (pos.outcome(), pos.side_to_move());
            if let Some(flow) = self.at_end(outcome, host) {
                return flow;
            }
            let stop = match self.turn(side) {
                Turn::Remote => self.remote_turn(host),
                // A side without a move may pass at once, whoever plays it.
                turn if self.forced(turn == Turn::Ai, host) => None,
                Turn::Person => break,
                Turn::Ai => {
                    // The page shows the move just played (a person's) while the AI
                    // thinks.
                    host.show(self);
                    match self.think(host) {
                        Ok(mv) => self.ai_moves(mv, host),
                        Err(e) => Some(self.think_failed(e, host)),
                    }
                }
            };
            if let Some(flow) = stop {
                return flow;
            }
            host.show(self);
        }
        Flow::Continue
    }
}

//! The Reversi dialect on the board page (`--display`): its view, and the page's
//! actions in its model, where the Player (the User, or the AI after `auto`) meets the
//! Opponent (the AI here, or a remote program). Making the Opponent's side manual
//! hands the User that colour (the other side becomes the AI's); in a remote game
//! only the local Player can be switched, and undo and a new game are refused.

use super::{colour_name, result_line, Link, ReversiHost, ReversiText, State};
use crate::game::Side;
use crate::games::reversi::{parse_square, square_name, Position};
use crate::protocol::text::board::{Action, View};
use crate::protocol::text::{Flow, TextDialect};

impl ReversiText {
    pub(super) fn board_view(&self) -> View {
        let pos = &self.pos;
        let mut v = View::grid("reversi", 8, 8, true, |name| {
            match parse_square(name).ok().and_then(|sq| pos.disc_at(sq)) {
                Some(Side::First) => '0',
                Some(Side::Second) => '1',
                None => '.',
            }
        });
        let at = |v: &View, sq: u8| v.index_of(&square_name(sq), true);
        v.sides = [colour_name(Side::First), colour_name(Side::Second)];
        v.counts = [pos.count(Side::First), pos.count(Side::Second)];
        v.to_move = Some(pos.side_to_move().index());
        for mv in pos.legal_moves() {
            if mv.is_pass() {
                v.pass = Some(mv.text());
            } else {
                v.moves.push((None, at(&v, mv.square()), mv.text()));
            }
        }
        if let Some((_, mv)) = self.history.last(pos) {
            if !mv.is_pass() {
                v.last = vec![at(&v, mv.square())];
            }
        }
        let opponent = match self.link {
            Link::Host | Link::Visitor => "remote",
            Link::Off | Link::Waiting => "AI",
        };
        v.players[self.player.index()] = if self.auto { "AI" } else { "manual" };
        v.players[self.player.opponent().index()] = opponent;
        v.mode = match (self.state, self.link) {
            (State::Setup, Link::Waiting) => "hosting: waiting for an opponent",
            (State::Setup, Link::Visitor) => "joined: waiting for the host",
            (State::Setup, _) => "set-up",
            (State::Playing, _) => "playing",
            (State::Finished, _) => "game over",
        }
        .into();
        v.clickable = match self.state {
            State::Setup => self.link != Link::Visitor && !pos.is_over(),
            State::Playing => !self.auto && pos.side_to_move() == self.player,
            State::Finished => false,
        };
        if self.state == State::Finished {
            v.result = pos.outcome().map(|o| result_line(o).to_string());
            v.to_move = None;
        }
        v
    }

    pub(super) fn board_action(&mut self, action: Action, host: &mut ReversiHost) -> Flow {
        let remote = self.link != Link::Off;
        let refused = match action {
            Action::Player(side, ai) if side == self.player => {
                self.auto = ai;
                None
            }
            // The Opponent's side is the AI's already.
            Action::Player(_, true) => None,
            Action::Player(side, false) if !remote => {
                self.player = side;
                self.auto = false;
                None
            }
            Action::Player(..) => Some("in a remote game the remote program plays its side"),
            Action::NewGame if remote => Some("a remote game is on (resign, then clear)"),
            Action::NewGame => {
                // `resign` if need be, `clear` and `start`, keeping the players and seed.
                self.clear_board();
                self.pos = Position::startpos();
                self.history.clear();
                return self.begin(host, true);
            }
            Action::Undo if remote => Some("undo is not available in a remote game"),
            Action::Undo => self.undo().err(),
        };
        if let Some(why) = refused {
            Self::error(host, why);
        }
        if self.state == State::Playing {
            return self.proceed(host);
        }
        Flow::Continue
    }

    /// Takes back the last move (and a pass before it), and further back while the AI
    /// is to move and the User plays the other side. A finished game is in play again.
    fn undo(&mut self) -> Result<(), &'static str> {
        let mut undone = 0;
        while let Some(before) = self.history.pop(&self.pos) {
            self.pos = before;
            self.moves = self.moves.saturating_sub(1);
            undone += 1;
            let must_pass = self.pos.legal_moves().iter().all(|m| m.is_pass());
            if !must_pass && (self.auto || self.pos.side_to_move() == self.player) {
                break;
            }
            if self.state == State::Setup {
                break;
            }
        }
        if undone == 0 {
            return Err("no move to take back");
        }
        if self.state == State::Finished {
            self.state = State::Playing;
        }
        Ok(())
    }
}

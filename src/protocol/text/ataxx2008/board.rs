//! The 2008 dialect on the board page (`--display`): its view, and the page's actions
//! in its model, where one side is the Player (the User, or the AI after `auto`) and
//! the other the Opponent (the AI here, or a remote program). Making the Opponent's
//! side manual therefore hands the User that colour (the other side becomes the AI's);
//! in a remote game only the local Player can be switched, and undo and a new game
//! are refused (the remote program plays on its own board).

use super::{result_line, Ataxx2008, AtaxxHost, Link, Mode, State};
use crate::games::ataxx::{Position, Rules};
use crate::protocol::text::ataxx::ataxx_view;
use crate::protocol::text::board::{Action, View};
use crate::protocol::text::{Flow, TextDialect};

impl Ataxx2008 {
    pub(super) fn board_view(&self) -> View {
        let mut v = ataxx_view("ataxx2008", &self.pos, &self.history);
        let opponent = if self.link == Link::Connected {
            "remote"
        } else {
            "AI"
        };
        let player = if self.player_ai { "AI" } else { "manual" };
        v.players[self.player.index()] = player;
        v.players[self.player.opponent().index()] = opponent;
        v.mode = match (self.state, self.link, self.mode) {
            (State::Setup, Link::Waiting, _) => "hosting: waiting for an opponent",
            (State::Setup, _, Mode::Client) => "joined: waiting for the host",
            (State::Setup, _, _) => "set-up",
            (State::Playing, _, _) => "playing",
            (State::Finished, _, _) => "game over",
        }
        .into();
        v.clickable = match self.state {
            State::Setup => {
                self.link != Link::Waiting
                    && self.mode != Mode::Client
                    && self.pos.outcome().is_none()
            }
            State::Playing => !self.player_ai && self.pos.side_to_move() == self.player,
            State::Finished => false,
        };
        if self.state == State::Finished {
            v.result = self.pos.outcome().map(|o| result_line(o).to_string());
            v.to_move = None;
        }
        v
    }

    pub(super) fn board_action(&mut self, action: Action, host: &mut AtaxxHost) -> Flow {
        let remote = self.link != Link::Off || self.mode != Mode::Local;
        let refused = match action {
            Action::Player(side, ai) if side == self.player => {
                self.player_ai = ai;
                None
            }
            // The Opponent's side is the AI's already.
            Action::Player(_, true) => None,
            Action::Player(side, false) if !remote => {
                self.player = side;
                self.player_ai = false;
                None
            }
            Action::Player(..) => Some("in a remote game the remote program plays its side"),
            Action::NewGame if self.link != Link::Off => {
                Some("a remote game is on (clear abandons it)")
            }
            Action::NewGame => {
                // `clear` and `start`, keeping the Player, the seed and the blocks.
                let (player, player_ai, seed) = (self.player, self.player_ai, self.seed);
                let (blocks, gaps) = (self.blocks.clone(), self.gaps);
                self.reset();
                (self.player, self.player_ai, self.seed) = (player, player_ai, seed);
                (self.blocks, self.gaps) = (blocks, gaps);
                self.pos = Position::startpos(Rules::Text2008);
                let _ = self.pos.add_gaps(gaps);
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

    /// Takes back the last move, and further back while the AI is to move and the
    /// User plays the other side. In play, set-up moves stay; a finished game is in
    /// play again.
    fn undo(&mut self) -> Result<(), &'static str> {
        let floor = if self.state == State::Setup {
            0
        } else {
            self.setup.len()
        };
        let mut undone = 0;
        while self.history.len() > floor {
            let Some(before) = self.history.pop(&self.pos) else {
                break;
            };
            self.pos = before;
            self.ply = self.ply.saturating_sub(1);
            if self.state == State::Setup {
                self.setup.pop();
            }
            undone += 1;
            if self.player_ai || self.pos.side_to_move() == self.player {
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

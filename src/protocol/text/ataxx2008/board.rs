//! The 2008 dialect on the board page (`--display`): its view, and what the page's
//! shared actions ([`super::Versus`]) need of its model: a new game that keeps the
//! blocks, and undo that keeps the set-up moves once play has begun.

use super::{Ataxx2008, Role, State};
use crate::games::ataxx::{Position, Rules};
use crate::protocol::play::History;
use crate::protocol::text::ataxx::{ataxx_view, ATAXX_BOARD, ATAXX_COLOURS};
use crate::protocol::text::board::{PageStyle, View};
use crate::protocol::text::versus::Link;

/// How the page draws the 2008 edition: as 2016's board, blocks typed in its notation,
/// remote play.
const STYLE: PageStyle = PageStyle {
    id: "ataxx2008",
    title: "Ataxx (2008 edition)",
    colours: ATAXX_COLOURS,
    board: ATAXX_BOARD,
    dark: None,
    placement: false,
    tools: &["blocks", "remote"],
};

/// `pos` as the page draws the 2008 edition, for the move list.
pub(super) fn picture(pos: &Position, history: &History<Position>) -> View {
    ataxx_view(&STYLE, pos, history)
}

impl Ataxx2008 {
    pub(super) fn board_view(&self) -> View {
        let mut v = ataxx_view(&STYLE, &self.table.pos, &self.table.history);
        self.label(&mut v);
        v.clickable = match self.state {
            State::Setup => {
                self.link != Link::Waiting
                    && self.role != Role::Client
                    && self.table.pos.outcome().is_none()
            }
            State::Playing => !self.player_ai && self.table.pos.side_to_move() == self.player,
            State::Finished => false,
        };
        v
    }

    /// `clear` and (next, by the caller) `start`, keeping the Player, the seed and the
    /// blocks.
    pub(super) fn new_board_game(&mut self) {
        let (player, player_ai, seed) = (self.player, self.player_ai, self.table.seed);
        let (blocks, gaps) = (self.own.blocks.clone(), self.own.gaps);
        self.reset();
        (self.player, self.player_ai, self.table.seed) = (player, player_ai, seed);
        (self.own.blocks, self.own.gaps) = (blocks, gaps);
        self.table.pos = Position::startpos(Rules::Text2008);
        let _ = self.table.pos.add_gaps(gaps);
    }

    /// Takes back the last move, and further back while the AI is to move and the
    /// User plays the other side. In play, set-up moves stay. Returns how many.
    pub(super) fn undo(&mut self) -> usize {
        let floor = if self.state == State::Setup {
            0
        } else {
            self.own.setup.len()
        };
        let mut undone = 0;
        while self.table.history.len() > floor {
            if !self.table.take_back() {
                break;
            }
            if self.state == State::Setup {
                self.own.setup.pop();
            }
            undone += 1;
            if self.player_ai || self.table.pos.side_to_move() == self.player {
                break;
            }
        }
        undone
    }
}

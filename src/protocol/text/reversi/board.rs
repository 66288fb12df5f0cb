//! The Reversi dialect on the board page (`--display`): its view, and what the page's
//! shared actions ([`super::Versus`]) need of its model: undo, which takes back a pass
//! with the move before it.

use super::{ReversiText, State, SPEC};
use crate::games::reversi::Position;
use crate::protocol::play::History;
use crate::protocol::text::board::{PageStyle, View};
use crate::protocol::text::versus::Role;

/// How the page draws Reversi: black and white discs placed on a green board, remote
/// play.
const STYLE: PageStyle = PageStyle {
    id: "reversi",
    title: "Reversi",
    colours: ["#1b1b1b", "#f3f3f3"],
    board: "#2e8b57",
    dark: None,
    placement: true,
    tools: &["remote"],
};

/// `pos` as the page draws Reversi: discs, counts, legal moves, the side to move, and
/// the last move of `history` if it led here.
pub(super) fn picture(pos: &Position, history: &History<Position>) -> View {
    View::diagram(&STYLE, pos, history, |mv| mv.text()).with_sides(&SPEC)
}

impl ReversiText {
    pub(super) fn board_view(&self) -> View {
        let pos = &self.table.pos;
        let mut v = picture(pos, &self.table.history);
        self.label(&mut v);
        v.clickable = match self.state {
            // Reversi's role is the client's only while connected to the host.
            State::Setup => self.role != Role::Client && !pos.is_over(),
            State::Playing => !self.player_ai && pos.side_to_move() == self.player,
            State::Finished => false,
        };
        v
    }

    /// Takes back the last move (and a pass before it), and further back while the AI
    /// is to move and the User plays the other side. Returns how many.
    pub(super) fn undo(&mut self) -> usize {
        let mut undone = 0;
        while self.table.take_back() {
            undone += 1;
            let must_pass = self.table.pos.legal_moves().iter().all(|m| m.is_pass());
            if !must_pass && (self.player_ai || self.table.pos.side_to_move() == self.player) {
                break;
            }
            if self.state == State::Setup {
                break;
            }
        }
        undone
    }
}

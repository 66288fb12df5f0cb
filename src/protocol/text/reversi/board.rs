//! The Reversi dialect on the board page (`--display`): its view, and what the page's
//! shared actions ([`super::Versus`]) need of its model: undo, which takes back a pass
//! with the move before it.

use super::{ReversiText, State, SPEC};
use crate::game::Side;
use crate::games::reversi::Position;
use crate::games::reversi::{parse_square, square_name};
use crate::protocol::text::board::{History, PageStyle, View};
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
    let counts = [Side::First, Side::Second].map(|s| pos.count(s));
    let mut v = View::grid(&STYLE, 8, 8, true, |name| {
        View::piece(parse_square(name).ok().and_then(|sq| pos.disc_at(sq)))
    })
    .with_sides(&SPEC, counts, pos.side_to_move());
    let at = |v: &View, sq: u8| v.index_of(&square_name(sq), true);
    for mv in pos.legal_moves() {
        if mv.is_pass() {
            v.pass = Some(mv.text());
        } else {
            v.moves.push((None, at(&v, mv.square()), mv.text()));
        }
    }
    if let Some((_, mv)) = history.last(pos) {
        if !mv.is_pass() {
            v.last = vec![at(&v, mv.square())];
        }
    }
    v
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

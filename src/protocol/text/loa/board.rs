//! The Lines of Action dialect on the board page (`--display`): its view. The page's
//! actions are steps of its turns ([`Turns`](crate::protocol::text::Turns)): the language already switches
//! sides at any moment with `auto`/`manual` and starts over with `new`; undo is the
//! page's own.

use super::{LoaText, SPEC};
use crate::games::loa::position::Position;
use crate::protocol::play::History;
use crate::protocol::text::board::{PageStyle, View};

/// How the page draws Lines of Action: black and white pieces on a checkered board, a
/// move limit.
const STYLE: PageStyle = PageStyle {
    id: "loa",
    title: "Lines of Action",
    colours: ["#1b1b1b", "#f3f3f3"],
    board: "#d9b77e",
    dark: Some("#b58d52"),
    placement: false,
    tools: &["limit"],
};

/// `pos` as the page draws Lines of Action: squares, counts, legal moves, the side
/// to move, and the last move of `history` if it led here. The language has no pass
/// for a person to enter: a side without a move loses.
pub(super) fn picture(pos: &Position, history: &History<Position>) -> View {
    View {
        pass: None,
        ..View::diagram(&STYLE, pos, history, |mv| mv.text()).with_sides(&SPEC)
    }
}

impl LoaText {
    pub(super) fn board_view(&self) -> View {
        let pos = &self.table.pos;
        let mut v = picture(pos, &self.table.history);
        v.players = self.auto.map(|ai| if ai { "AI" } else { "manual" });
        v.to_move = None;
        if self.playing {
            v.mode = "playing".into();
            v.to_move = Some(pos.side_to_move().index());
            v.clickable = !self.auto[pos.side_to_move().index()];
        } else {
            v.mode = "game over".into();
            v.result = pos.outcome().map(|o| SPEC.result_line(o).to_string());
        }
        v
    }
}

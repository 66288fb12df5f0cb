//! The 2022 dialect on the board page (`--display`): its view (the board drawn as the
//! other editions' by [`ataxx_view`]). The page's actions are the language's own
//! commands, as steps of its turns ([`Turns`](crate::protocol::text::Turns)): undo is `undo`, a new game is
//! `new`, and a side handed to the AI or to a person is `auto` or `manual`.

use super::{Ataxx2022, SPEC};
use crate::games::ataxx::Position;
use crate::protocol::play::History;
use crate::protocol::text::ataxx::{ataxx_view, ATAXX_BOARD, ATAXX_COLOURS};
use crate::protocol::text::board::{PageStyle, View};

/// How the page draws the 2022 edition: the 2016 board, and no set-up tools (there is
/// no set-up state; `block` is typed in the command box before the first move).
const STYLE: PageStyle = PageStyle {
    id: "ataxx2022",
    title: "Ataxx (2022 edition)",
    colours: ATAXX_COLOURS,
    board: ATAXX_BOARD,
    dark: None,
    placement: false,
    tools: &[],
};

/// `pos` as the page draws the 2022 edition, for the move list.
pub(super) fn picture(pos: &Position, history: &History<Position>) -> View {
    ataxx_view(&STYLE, pos, history)
}

impl Ataxx2022 {
    pub(super) fn board_view(&self) -> View {
        let mut v = ataxx_view(&STYLE, &self.table.pos, &self.table.history);
        v.players = self.auto.map(|ai| if ai { "AI" } else { "manual" });
        let outcome = self.table.pos.outcome();
        v.mode = String::from(match outcome {
            Some(_) => "game over",
            None => "playing",
        });
        v.clickable = outcome.is_none() && !self.auto[self.table.pos.side_to_move().index()];
        if let Some(o) = outcome {
            v.result = Some(SPEC.result_line(o).to_string());
            v.to_move = None;
        }
        v
    }
}

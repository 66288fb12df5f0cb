//! The 2016 dialect on the board page (`--display`): its view; the board of both
//! editions is drawn by [`ataxx_view`]. The page's actions (undo, a side to AI or
//! manual at any moment, a new game) are steps of its turns ([`Turns`](crate::protocol::text::Turns)).

use super::{AtaxxText, State, SPEC};
use crate::games::ataxx::bitboard::{distance, Bits};
use crate::games::ataxx::{display_index, display_square, square_name, Position};
use crate::protocol::play::History;
use crate::protocol::text::board::{PageStyle, View};

/// How the page draws the 2016 edition: red and blue pieces, a click blocks squares in
/// set-up.
const STYLE: PageStyle = PageStyle {
    id: "ataxx",
    title: "Ataxx",
    colours: ATAXX_COLOURS,
    board: ATAXX_BOARD,
    dark: None,
    placement: false,
    tools: &["block"],
};

/// Red and blue, as the course's pieces are.
pub(crate) const ATAXX_COLOURS: [&str; 2] = ["#d8342c", "#2f64c8"];
/// The board's squares.
pub(crate) const ATAXX_BOARD: &str = "#c9c4b8";

/// The board, counts, legal moves and the last move of an Ataxx position. A clone is
/// written from any neighbouring piece (`f1-f2`), so each of those is offered as its
/// `from` square.
pub(crate) fn ataxx_view(
    style: &'static PageStyle,
    pos: &Position,
    history: &History<Position>,
) -> View {
    let line = |from: u8, to: u8| format!("{}-{}", square_name(from), square_name(to));
    // A double's line; a clone's is written below, once for each piece it may come from.
    let mut v = View::diagram(style, pos, history, |mv| {
        if mv.is_pass() {
            "-".into()
        } else {
            line(mv.from(), mv.to())
        }
    })
    .with_sides(&SPEC);
    let own = pos.pieces(pos.side_to_move());
    let mut moves = Vec::with_capacity(v.moves.len());
    for entry in v.moves {
        match entry {
            (None, at, _) => {
                let to = display_square(at);
                for from in Bits(own).filter(|&f| distance(f, to) == 1) {
                    moves.push((Some(display_index(from)), at, line(from, to)));
                }
            }
            double => moves.push(double),
        }
    }
    v.moves = moves;
    v
}

/// `pos` as the page draws the 2016 edition, for the move list.
pub(super) fn picture(pos: &Position, history: &History<Position>) -> View {
    ataxx_view(&STYLE, pos, history)
}

/// The state's name on the page.
fn mode(state: State) -> &'static str {
    match state {
        State::Setup => "set-up",
        State::Playing => "playing",
        State::Finished => "game over",
    }
}

impl AtaxxText {
    pub(super) fn board_view(&self) -> View {
        let mut v = ataxx_view(&STYLE, &self.table.pos, &self.table.history);
        v.players = self.auto.map(|ai| if ai { "AI" } else { "manual" });
        v.mode = mode(self.state).into();
        let to_move = self.table.pos.side_to_move().index();
        v.clickable = match self.state {
            State::Setup => self.table.pos.outcome().is_none(),
            State::Playing => !self.auto[to_move],
            State::Finished => false,
        };
        if self.state == State::Finished {
            v.result = self
                .table
                .pos
                .outcome()
                .map(|o| SPEC.result_line(o).to_string());
            v.to_move = None;
        }
        v
    }
}

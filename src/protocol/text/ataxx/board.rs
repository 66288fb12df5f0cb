//! The 2016 dialect on the board page (`--display`): its view; the board of both
//! editions is drawn by [`ataxx_view`]. The page's actions (undo, a side to AI or
//! manual at any moment, a new game) are steps of its turns ([`Turns`](crate::protocol::text::Turns)).

use super::{AtaxxText, State, SPEC};
use crate::game::Side;
use crate::games::ataxx::bitboard::{distance, Bits};
use crate::games::ataxx::{parse_square, square_name, Cell, Position};
use crate::protocol::text::board::{History, PageStyle, View};

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

/// The board, counts, legal moves (each with the line that plays it: a clone may be
/// written from any neighbouring piece, so each of those is offered) and the last
/// move of an Ataxx position.
pub(crate) fn ataxx_view(
    style: &'static PageStyle,
    pos: &Position,
    history: &History<Position>,
) -> View {
    let counts = [Side::First, Side::Second].map(|s| pos.count(s));
    let mut v = View::grid(style, 7, 7, false, |name| {
        match parse_square(name).map(|sq| pos.cell(sq)) {
            Ok(Cell::Piece(side)) => View::piece(Some(side)),
            Ok(Cell::Gap) => '#',
            _ => View::piece(None),
        }
    })
    .with_sides(&SPEC, counts, pos.side_to_move());
    let at = |v: &View, sq: u8| v.index_of(&square_name(sq), false);
    let own = pos.pieces(pos.side_to_move());
    for mv in pos.legal_moves() {
        if mv.is_pass() {
            v.pass = Some("-".into());
        } else if mv.is_double() {
            let line = format!("{}-{}", square_name(mv.from()), square_name(mv.to()));
            v.moves
                .push((Some(at(&v, mv.from())), at(&v, mv.to()), line));
        } else {
            for from in Bits(own).filter(|&f| distance(f, mv.to()) == 1) {
                let line = format!("{}-{}", square_name(from), square_name(mv.to()));
                v.moves.push((Some(at(&v, from)), at(&v, mv.to()), line));
            }
        }
    }
    if let Some((_, mv)) = history.last(pos) {
        if mv.is_double() {
            v.last.push(at(&v, mv.from()));
        }
        if !mv.is_pass() {
            v.last.push(at(&v, mv.to()));
        }
    }
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

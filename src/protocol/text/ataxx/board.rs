//! The 2016 dialect on the board page (`--display`): its view, and the page's actions
//! (undo, a side to AI or manual at any moment, a new game) in its own model. The
//! board of both editions is drawn by [`ataxx_view`].

use super::{AtaxxHost, AtaxxText, State, SPEC};
use crate::game::Side;
use crate::games::ataxx::bitboard::{distance, Bits};
use crate::games::ataxx::{parse_square, square_name, Cell, Position, Rules};
use crate::protocol::text::board::{Action, History, PageStyle, View};
use crate::protocol::text::{Flow, TextDialect, Turns};

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

    pub(super) fn board_action(&mut self, action: Action, host: &mut AtaxxHost) -> Flow {
        match action {
            Action::Player(side, ai) => self.auto[side.index()] = ai,
            Action::NewGame => {
                // `clear` and `start`, keeping the players, the seed and the blocks.
                let gaps = self.table.pos.gaps();
                let auto = self.auto;
                *self = AtaxxText::new();
                self.auto = auto;
                self.table.restart(Position::startpos(Rules::Text));
                let _ = self.table.pos.add_gaps(gaps);
                self.state = State::Playing;
                host.new_game();
            }
            Action::Undo => {
                if let Err(why) = self.undo() {
                    Self::error(host, why);
                }
            }
        }
        self.play_turns(host)
    }

    /// Takes back the last move, and further back while the AI plays the side to move
    /// and the other side is manual (so the person gets their own turn back). A
    /// finished game is in play again.
    fn undo(&mut self) -> Result<(), &'static str> {
        let any_manual = self.auto.contains(&false);
        let mut undone = 0;
        while self.table.take_back() {
            undone += 1;
            if !any_manual || !self.auto[self.table.pos.side_to_move().index()] {
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

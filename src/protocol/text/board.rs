//! What a board display (`--display`, `protocol/display/`) needs from a text session,
//! in terms no game owns: a [`View`] of the state to draw, the [`Action`]s the page may
//! take outside the text language (undo, switching a side between AI and manual at any
//! moment, a new game).
//!
//! Each dialect builds its view from its own state (`text/<game>/board.rs`) and carries
//! the actions out in its own model, as steps of its [`super::Turns`] (the
//! Player-vs-Opponent dialects' in `versus.rs`), so the page drives the very session
//! the text language drives.

use super::kit::Spec;
use crate::game::{Diagram, Side, Square};
use crate::protocol::play::History;

/// The state of a session, for drawing. Squares are numbered row by row from the top
/// left of the board as the page draws it (`row * width + col`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// How the page draws this game and which set-up tools it offers.
    pub style: &'static PageStyle,
    pub width: usize,
    pub height: usize,
    /// One character a square: `.` empty, `#` blocked, `0` the first side's piece,
    /// `1` the second side's.
    pub cells: String,
    /// Column letters and row labels as the language names them (left to right, top
    /// to bottom).
    pub files: String,
    pub ranks: Vec<String>,
    /// The sides' names (`Red`, `Blue`).
    pub sides: [&'static str; 2],
    pub counts: [u32; 2],
    /// The side to move (index), while a game is in progress or being set up.
    pub to_move: Option<usize>,
    /// The legal moves of the side to move, each with the line the language takes
    /// for it: `(from, to, line)`; `from` is `None` for a placement (Reversi).
    pub moves: Vec<(Option<usize>, usize, String)>,
    /// The line for a pass, when a pass is the only legal move.
    pub pass: Option<String>,
    /// The squares of the last move (from and to, or the placed square).
    pub last: Vec<usize>,
    /// The result line once the game is over.
    pub result: Option<String>,
    /// Who plays each side: `manual`, `AI` or `remote`.
    pub players: [&'static str; 2],
    /// Whether a click may make a move now (a manual side to move, in play or set-up).
    pub clickable: bool,
    /// The session's state in a few words (`set-up`, `playing`, `game over`, `hosting`…).
    pub mode: String,
}

/// How the board page draws a dialect's game and which of the page's set-up tools its
/// language has: declared by each dialect beside its view, so the page keeps no
/// per-game tables.
#[derive(Debug, PartialEq, Eq)]
pub struct PageStyle {
    /// The dialect's short name (`ataxx2008`), for the page's state and tests.
    pub id: &'static str,
    /// The page's title (`Ataxx (2008 edition)`).
    pub title: &'static str,
    /// The two sides' piece colours (CSS).
    pub colours: [&'static str; 2],
    /// The squares' colour, and the dark squares' where the board is checkered.
    pub board: &'static str,
    pub dark: Option<&'static str>,
    /// A move is a click on one square (Reversi's placements), not a from and a to.
    pub placement: bool,
    /// The page's set-up tools this language has: `block` (a click blocks a square),
    /// `blocks` (a block-notation box), `limit` (a move limit), `remote` (host/join).
    pub tools: &'static [&'static str],
}

impl PageStyle {
    /// A plain board with no set-up tools (what an empty [`View`] starts from).
    pub const PLAIN: PageStyle = PageStyle {
        id: "",
        title: "Board",
        colours: ["#1b1b1b", "#f3f3f3"],
        board: "#ccc",
        dark: None,
        placement: false,
        tools: &[],
    };
}

impl Default for &'static PageStyle {
    fn default() -> Self {
        &PageStyle::PLAIN
    }
}

impl View {
    /// The view as one JSON object (no serializer crate needed for this one shape).
    pub fn to_json(&self) -> String {
        let s = |t: &str| json_string(t);
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(from, to, line)| {
                let from = from.map_or("null".to_string(), |f| f.to_string());
                format!("[{from},{to},{}]", s(line))
            })
            .collect();
        let ranks: Vec<String> = self.ranks.iter().map(|r| s(r)).collect();
        let last: Vec<String> = self.last.iter().map(|q| q.to_string()).collect();
        let opt = |o: &Option<String>| o.as_deref().map_or("null".to_string(), s);
        let style = self.style;
        let tools: Vec<String> = style.tools.iter().map(|t| s(t)).collect();
        format!(
            "{{\"game\":{},\"title\":{},\"colours\":[{},{}],\"board\":{},\"dark\":{},\
             \"placement\":{},\"tools\":[{}],\"width\":{},\"height\":{},\"cells\":{},\"files\":{},\"ranks\":[{}],\
             \"sides\":[{},{}],\"counts\":[{},{}],\"to_move\":{},\"moves\":[{}],\"pass\":{},\
             \"last\":[{}],\"result\":{},\"players\":[{},{}],\"clickable\":{},\"mode\":{}}}",
            s(style.id),
            s(style.title),
            s(style.colours[0]),
            s(style.colours[1]),
            s(style.board),
            style.dark.map_or("null".to_string(), s),
            style.placement,
            tools.join(","),
            self.width,
            self.height,
            s(&self.cells),
            s(&self.files),
            ranks.join(","),
            s(self.sides[0]),
            s(self.sides[1]),
            self.counts[0],
            self.counts[1],
            self.to_move.map_or("null".to_string(), |i| i.to_string()),
            moves.join(","),
            opt(&self.pass),
            last.join(","),
            opt(&self.result),
            s(self.players[0]),
            s(self.players[1]),
            self.clickable,
            s(&self.mode),
        )
    }

    /// `pos` as the page draws any game, from its [`Diagram`]: the squares, their
    /// names, the pieces counted, the side to move, its legal moves each with the line
    /// `line` writes for it (and the pass's, when it must pass), and the squares of the
    /// last move of `history` if it led here. The sides are named as its PGN tags name
    /// them until [`View::with_sides`] names them as a language does.
    pub fn diagram<G: Diagram>(
        style: &'static PageStyle,
        pos: &G,
        history: &History<G>,
        line: impl Fn(G::Move) -> String,
    ) -> View {
        let (files, ranks) = G::labels();
        let cells = (0..G::WIDTH * G::HEIGHT)
            .map(|i| match pos.square(i) {
                Square::Empty => '.',
                Square::Blocked => '#',
                Square::Piece(Side::First) => '0',
                Square::Piece(Side::Second) => '1',
            })
            .collect();
        let mut v = View {
            style,
            width: G::WIDTH,
            height: G::HEIGHT,
            cells,
            files,
            ranks,
            sides: G::PGN_PLAYERS,
            counts: pos.counts(),
            to_move: Some(pos.side_to_move().index()),
            ..View::default()
        };
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            match pos.move_squares(mv) {
                Some((from, to)) => v.moves.push((from, to, line(mv))),
                None => v.pass = Some(line(mv)),
            }
        }
        if let Some((before, mv)) = history.last(pos) {
            if let Some((from, to)) = before.move_squares(mv) {
                v.last = from.into_iter().chain([to]).collect();
            }
        }
        v
    }

    /// This view with the sides named as `spec`'s output lines write them (capitalised,
    /// `Red`).
    pub fn with_sides(self, spec: &Spec) -> View {
        View {
            sides: [
                spec.colour_name(Side::First),
                spec.colour_name(Side::Second),
            ],
            ..self
        }
    }
}

/// A JSON string literal.
pub fn json_string(t: &str) -> String {
    let mut out = String::with_capacity(t.len() + 2);
    out.push('"');
    for c in t.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the page may do beyond the text language: these arrive as lines marked
/// [`Source::PageAction`](crate::protocol::input::Source) and never from stdin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Take back the last move, or back to the last position where a manual side was
    /// to move when the other side is the AI.
    Undo,
    /// A new game from the start position, keeping who plays which side (and blocks
    /// where the language has them only in its set-up).
    NewGame,
    /// Side `0`/`1` is played by the AI (`true`) or by hand, from now on.
    Player(Side, bool),
}

impl Action {
    /// Parses an action line: `undo`, `new`, `ai 0|1`, `manual 0|1`.
    pub fn parse(line: &str) -> Option<Action> {
        let side = |w: &str| match w {
            "0" => Some(Side::First),
            "1" => Some(Side::Second),
            _ => None,
        };
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["undo"] => Some(Action::Undo),
            ["new"] => Some(Action::NewGame),
            ["ai", s] => side(s).map(|s| Action::Player(s, true)),
            ["manual", s] => side(s).map(|s| Action::Player(s, false)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse() {
        assert_eq!(Action::parse("undo"), Some(Action::Undo));
        assert_eq!(Action::parse(" new "), Some(Action::NewGame));
        assert_eq!(
            Action::parse("ai 1"),
            Some(Action::Player(Side::Second, true))
        );
        assert_eq!(
            Action::parse("manual 0"),
            Some(Action::Player(Side::First, false))
        );
        for bad in ["", "ai", "ai 2", "undo now", "quit"] {
            assert_eq!(Action::parse(bad), None, "{bad}");
        }
    }

    /// The line behind the current position follows the kept moves back to where they
    /// stop following one another; a position the last move did not lead to has none.
    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"");
    }
}

//! What a board display (`--display`, `protocol/display/`) needs from a text session,
//! in terms no game owns: a [`View`] of the state to draw, the [`Action`]s the page may
//! take outside the text language (undo, switching a side between AI and manual at any
//! moment, a new game), and the [`History`] of moves that undo walks back.
//!
//! Each dialect builds its view from its own state (`text/<game>/board.rs`) and carries
//! the actions out in its own model, as steps of its [`super::Turns`] (the
//! Player-vs-Opponent dialects' in `versus.rs`), so the page drives the very session
//! the text language drives.

use super::kit::Spec;
use crate::game::{Game, Side};

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

    /// An empty view of a `width` x `height` board whose squares are named by a
    /// letter (`a`…) and a number, numbered from the top when `top_is_first` (Reversi)
    /// or from the bottom (Ataxx, LOA); `cell` gives each square's character from its
    /// name.
    pub fn grid(
        style: &'static PageStyle,
        width: usize,
        height: usize,
        top_is_first: bool,
        cell: impl Fn(&str) -> char,
    ) -> View {
        let files: String = (0..width).map(|c| (b'a' + c as u8) as char).collect();
        let ranks: Vec<String> = (0..height)
            .map(|r| if top_is_first { r + 1 } else { height - r }.to_string())
            .collect();
        let mut cells = String::with_capacity(width * height);
        for rank in &ranks {
            for f in files.chars() {
                cells.push(cell(&format!("{f}{rank}")));
            }
        }
        View {
            style,
            width,
            height,
            cells,
            files,
            ranks,
            ..View::default()
        }
    }

    /// The character of a square holding `side`'s piece (`0`, `1`), or of an empty
    /// one (`.`).
    pub fn piece(side: Option<Side>) -> char {
        match side {
            Some(Side::First) => '0',
            Some(Side::Second) => '1',
            None => '.',
        }
    }

    /// This view with the sides named as `spec`'s output lines write them (capitalised,
    /// `Red`), their piece `counts`, and `to_move` to move.
    pub fn with_sides(self, spec: &Spec, counts: [u32; 2], to_move: Side) -> View {
        View {
            sides: [
                spec.colour_name(Side::First),
                spec.colour_name(Side::Second),
            ],
            counts,
            to_move: Some(to_move.index()),
            ..self
        }
    }

    /// The display index of the square named `name` (`c4`): column from its letter,
    /// row from its number, counted from the top when `top_is_first` (Reversi's row 1
    /// is the top row) or from the bottom otherwise.
    pub fn index_of(&self, name: &str, top_is_first: bool) -> usize {
        let b = name.as_bytes();
        let col = (b[0].to_ascii_lowercase() - b'a') as usize;
        let n: usize = name[1..].parse().unwrap_or(1);
        let row = if top_is_first { n - 1 } else { self.height - n };
        row * self.width + col
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

/// Most moves kept for undo (a game of any of these games is far shorter).
const MAX_HISTORY: usize = 2048;

/// The moves played, each with the position before it, so that undo can walk back.
/// Each entry also remembers the position it led to: if the session's position has
/// changed in another way since (a new game, a `set`, blocks), the history no longer
/// describes it and undo refuses rather than restore a position from another game.
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    entries: Vec<(G, G::Move, u64)>,
}

impl<G: Game> Default for History<G> {
    fn default() -> Self {
        History {
            entries: Vec::new(),
        }
    }
}

impl<G: Game> History<G> {
    /// Records that `mv` took `before` to `after`.
    pub fn record(&mut self, before: G, mv: G::Move, after: &G) {
        if self.entries.len() == MAX_HISTORY {
            self.entries.remove(0);
        }
        self.entries.push((before, mv, after.hash()));
    }

    /// The last move, with the position it was played in, if it led to `current`.
    pub fn last(&self, current: &G) -> Option<(&G, G::Move)> {
        match self.entries.last() {
            Some((before, mv, after)) if *after == current.hash() => Some((before, *mv)),
            _ => None,
        }
    }

    /// Takes back the last move if it led to `current`: the position before it.
    pub fn pop(&mut self, current: &G) -> Option<G> {
        self.last(current)?;
        self.entries.pop().map(|(before, _, _)| before)
    }

    /// How many moves are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no move is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every move.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The game that led to `current`, for the board page's move list: the position it
    /// started from and the moves since, as far back as the kept moves follow one
    /// another (a `set`, blocks or a new game between two moves cut the line there).
    /// No move when the last one kept did not lead to `current`.
    pub fn line(&self, current: &G) -> (G, Vec<G::Move>) {
        if self.last(current).is_none() {
            return (current.clone(), Vec::new());
        }
        let mut first = self.entries.len() - 1;
        while first > 0 && self.entries[first - 1].2 == self.entries[first].0.hash() {
            first -= 1;
        }
        let moves = self.entries[first..].iter().map(|e| e.1).collect();
        (self.entries[first].0.clone(), moves)
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
    fn the_line_goes_back_to_where_the_moves_follow_one_another() {
        use crate::games::reversi::Position;
        let start = Position::startpos();
        let mut h = History::default();
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..3 {
            let mv = pos.legal_moves()[0];
            let before = pos.clone();
            pos.make_move(mv);
            h.record(before, mv, &pos);
            played.push(mv);
        }
        assert_eq!(h.line(&pos), (start.clone(), played.clone()));
        // A position set in another way, then a move: the line starts there.
        let set = pos.clone();
        let mut elsewhere = Position::startpos();
        let mv = elsewhere.legal_moves()[1];
        let before = elsewhere.clone();
        elsewhere.make_move(mv);
        h.record(before.clone(), mv, &elsewhere);
        assert_eq!(h.line(&elsewhere), (before, vec![mv]));
        assert_eq!(h.line(&set), (set.clone(), vec![]));
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"");
    }
}

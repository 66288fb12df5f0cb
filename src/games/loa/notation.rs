//! Text forms of LOA things: squares (`c4`), protocol moves (`b1d3`, `0000`), the text
//! language's moves (`b1-d3`, `-`), FEN (`1xxxxxx1/o6o/…/1xxxxxx1 x 0 1`), the board
//! picture for people and the text language's `dump` block.

use super::bitboard::{file_of, rank_of, square};
use super::position::{Move, Position, Rules};
use crate::game::Side;
use crate::games::fen_number;
use std::fmt;

/// Why a piece of notation was rejected. One line each, and free of the words the
/// course harness reserves (wins, moves, tie).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    BadSquare(String),
    BadMove(String),
    BadFen(&'static str),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `{:?}` escapes control characters, so the message stays on one line.
        match self {
            NotationError::BadSquare(s) => write!(f, "not a square: {s:?}"),
            NotationError::BadMove(s) => write!(f, "not a move: {s:?}"),
            NotationError::BadFen(why) => write!(f, "bad FEN: {why}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a square such as `c4` (the column letter in either case).
pub fn parse_square(s: &str) -> Result<u8, NotationError> {
    if let [f, r] = *s.as_bytes() {
        let f = f.to_ascii_lowercase();
        if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
            return Ok(square((f - b'a') as usize, (r - b'1') as usize));
        }
    }
    Err(NotationError::BadSquare(s.to_string()))
}

/// The name of a square, e.g. `c4`.
pub fn square_name(sq: u8) -> String {
    let sq = sq & 63;
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq) as u8) as char);
    s.push((b'1' + rank_of(sq) as u8) as char);
    s
}

/// True if two distinct squares share a row, column or diagonal.
fn aligned(a: u8, b: u8) -> bool {
    let df = file_of(a).abs_diff(file_of(b));
    let dr = rank_of(a).abs_diff(rank_of(b));
    a != b && (df == 0 || dr == 0 || df == dr)
}

/// Both squares of `from`/`to` text, checked to lie on one line.
fn parse_step(from: &str, to: &str) -> Option<Move> {
    let from = parse_square(from).ok()?;
    let to = parse_square(to).ok()?;
    aligned(from, to).then(|| Move::new(from, to))
}

impl fmt::Display for Move {
    /// Protocol (UGI) notation: `b1d3`, or `0000` for the pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", square_name(self.from()), square_name(self.to()))
        }
    }
}

impl Move {
    /// Parses protocol notation (`b1d3`; `0000`, also `null` or `pass`, for the pass).
    /// Syntax only, plus the squares lying on one line: legality is the position's
    /// business.
    pub fn parse_protocol(s: &str) -> Result<Move, NotationError> {
        if matches!(s, "0000" | "null" | "pass") {
            return Ok(Move::PASS);
        }
        let bad = || NotationError::BadMove(s.to_string());
        if s.len() != 4 || !s.is_char_boundary(2) {
            return Err(bad());
        }
        parse_step(&s[..2], &s[2..]).ok_or_else(bad)
    }

    /// The text language's form: `b1-d3`, or `-` for the pass.
    pub fn text(self) -> String {
        if self.is_pass() {
            "-".to_string()
        } else {
            format!("{}-{}", square_name(self.from()), square_name(self.to()))
        }
    }

    /// Parses the text language's form (`b1-d3` or `-`). Syntax only.
    pub fn parse_text(s: &str) -> Result<Move, NotationError> {
        if s == "-" {
            return Ok(Move::PASS);
        }
        let bad = || NotationError::BadMove(s.to_string());
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        parse_step(a, b).ok_or_else(bad)
    }
}

/// FEN letter of a side (`x` black, `o` white).
fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

/// The side a FEN letter names; `b`/`w` are accepted too, in either case.
fn letter_side(c: char) -> Option<Side> {
    match c {
        'x' | 'X' | 'b' | 'B' => Some(Side::First),
        'o' | 'O' | 'w' | 'W' => Some(Side::Second),
        _ => None,
    }
}

/// The colour's name in the text language (`black`, `white`).
pub fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

impl Position {
    /// Reads a FEN as `ugi.md` defines it for LOA. Missing trailing fields default to
    /// `x 0 1`; anything else malformed is an error, never a panic.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, NotationError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(NotationError::BadFen("empty"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(NotationError::BadFen("need 8 ranks"));
        }
        let mut pieces = [0u64; 2];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(NotationError::BadFen("bad digit"));
                    }
                    file += d as usize;
                    if file > 8 {
                        return Err(NotationError::BadFen("rank longer than 8 squares"));
                    }
                    continue;
                }
                if file >= 8 {
                    return Err(NotationError::BadFen("rank longer than 8 squares"));
                }
                let side = letter_side(c).ok_or(NotationError::BadFen("bad character"))?;
                pieces[side.index()] |= 1u64 << square(file, rank);
                file += 1;
            }
            if file != 8 {
                return Err(NotationError::BadFen("rank shorter than 8 squares"));
            }
        }
        let side = match fields.next() {
            None => Side::First,
            Some(s) => {
                let mut chars = s.chars();
                match (chars.next().and_then(letter_side), chars.next()) {
                    (Some(side), None) => side,
                    _ => return Err(NotationError::BadFen("bad side to move")),
                }
            }
        };
        let clock = fen_number(fields.next(), 0, 100_000)
            .ok_or(NotationError::BadFen("bad halfmove clock"))?;
        let fullmove = fen_number(fields.next(), 1, 1_000_000)
            .ok_or(NotationError::BadFen("bad fullmove number"))?;
        if fields.next().is_some() {
            return Err(NotationError::BadFen("extra fields"));
        }
        Position::from_parts(pieces[0], pieces[1], side, clock, fullmove, rules)
            .map_err(NotationError::BadFen)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut run = 0u8;
            for file in 0..8 {
                match self.piece_at(square(file, rank)) {
                    None => run += 1,
                    Some(side) => {
                        if run > 0 {
                            s.push((b'0' + run) as char);
                            run = 0;
                        }
                        s.push(side_letter(side));
                    }
                }
            }
            if run > 0 {
                s.push((b'0' + run) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        format!(
            "{s} {} {} {}",
            side_letter(self.side_to_move()),
            self.clock(),
            self.fullmove()
        )
    }

    /// The board as eight text rows, rank 8 first: `prefix(rank)`, then the glyphs
    /// separated by single spaces. Shared by the picture and the dump.
    fn rows(
        &self,
        prefix: impl Fn(usize) -> String,
        glyph: impl Fn(Option<Side>) -> char,
    ) -> String {
        let mut s = String::with_capacity(200);
        for rank in (0..8).rev() {
            s.push_str(&prefix(rank));
            for file in 0..8 {
                if file > 0 {
                    s.push(' ');
                }
                s.push(glyph(self.piece_at(square(file, rank))));
            }
            s.push('\n');
        }
        s
    }

    /// A board picture for people: rows 8..1 with coordinates, `x` black, `o` white,
    /// `.` empty. No trailing newline.
    pub fn pretty(&self) -> String {
        let mut s = self.rows(
            |rank| format!("{} ", rank + 1),
            |cell| cell.map_or('.', side_letter),
        );
        s.push_str("  a b c d e f g h");
        s
    }

    /// The text language's `dump` block, exactly as `loa-text-protocol.md` shows it:
    /// `===`, eight rows indented four spaces (`b`, `w`, `-`), `Next move: black`,
    /// `===`. No trailing newline.
    pub fn dump(&self) -> String {
        let mut s = String::from("===\n");
        s.push_str(&self.rows(
            |_| "    ".to_string(),
            |cell| match cell {
                None => '-',
                Some(Side::First) => 'b',
                Some(Side::Second) => 'w',
            },
        ));
        s.push_str("Next move: ");
        s.push_str(colour_name(self.side_to_move()));
        s.push_str("\n===");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 1";

    #[test]
    fn fen_round_trip() {
        let start = Position::startpos(Rules::Ugi);
        assert_eq!(start.to_fen(), START);
        assert_eq!(Position::from_fen(START, Rules::Ugi).unwrap(), start);
        assert_eq!(
            Position::from_fen("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1", Rules::Ugi).unwrap(),
            start
        );
        for fen in [
            "8/8/3x4/2xo4/3x4/8/1o6/8 o 7 23",
            "xo6/8/8/8/8/8/8/7x x 0 1",
            "oooooooo/oooooooo/8/8/8/8/xxxxxxxx/xxxxxxxx o 99 2",
        ] {
            assert_eq!(Position::from_fen(fen, Rules::Text).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn fen_rejects_junk() {
        for bad in [
            "",
            "   ",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1/8",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx2",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/9",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/0xxxxxxx1",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxxx1",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/44x",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxqxxx1",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 z",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 xo",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x -1",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 1 9",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 99999999999",
            "1xxxxxx1/8/8/8/8/8/8/1xxxxxx1 x 0 1",
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxé1 x 0 1",
            "ééééééé/ééééééé/8/8/8/8/8/8",
        ] {
            let e = Position::from_fen(bad, Rules::Ugi);
            assert!(e.is_err(), "{bad}");
            assert!(!e.unwrap_err().to_string().contains('\n'));
        }
    }

    #[test]
    fn move_notation() {
        let m = Move::parse_protocol("b1d3").unwrap();
        assert_eq!((m.from(), m.to()), (1, 19));
        assert_eq!(m.to_string(), "b1d3");
        assert_eq!(m.text(), "b1-d3");
        assert_eq!(Move::parse_text("b1-d3").unwrap(), m);
        assert_eq!(Move::parse_protocol("0000").unwrap(), Move::PASS);
        assert_eq!(Move::PASS.to_string(), "0000");
        assert_eq!(Move::PASS.text(), "-");
        assert_eq!(Move::parse_text("-").unwrap(), Move::PASS);
        for bad in ["b1d4", "b1b1", "i1a1", "b1d", "b1-d3", "éé1a", "b1d3x", ""] {
            assert!(Move::parse_protocol(bad).is_err(), "{bad}");
        }
        for bad in ["b1d3", "b1-d4", "b1-", "-b1", "b1--d3", "é-é", "--"] {
            assert!(Move::parse_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pictures() {
        let pos = Position::startpos(Rules::Text);
        let dump = "===\n    - b b b b b b -\n    w - - - - - - w\n    w - - - - - - w\n    \
                    w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    \
                    w - - - - - - w\n    - b b b b b b -\nNext move: black\n===";
        assert_eq!(pos.dump(), dump);
        let pretty = pos.pretty();
        assert!(pretty.starts_with("8 . x x x x x x .\n7 o . . . . . . o\n"));
        assert!(pretty.ends_with("1 . x x x x x x .\n  a b c d e f g h"));
    }
}

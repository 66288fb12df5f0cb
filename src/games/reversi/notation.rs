//! Text forms of Reversi things: squares (`d3`: column d, third row from the top),
//! protocol moves (`d3`, pass `0000`), the text language's moves (`d3`, pass `-`), FEN
//! (`8/8/8/3ox3/3xo3/8/8/8 x`, rows 1 to 8), OBF (the FFO test suites' one-line form),
//! the people's board picture and the text language's `dump` block.
//!
//! Every parser returns a one-line error and never panics, whatever the input.

use super::bitboard::{col_of, row_of, square};
use super::position::{Move, Position};
use crate::game::Side;
use std::fmt;

/// Why a piece of notation was rejected (one line; avoids the words the course harness
/// reserves for results).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    BadSquare(String),
    BadMove(String),
    BadFen(&'static str),
    BadObf(&'static str),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadSquare(s) => write!(f, "not a square: '{}'", s.escape_debug()),
            NotationError::BadMove(s) => write!(f, "not a move: '{}'", s.escape_debug()),
            NotationError::BadFen(why) => write!(f, "bad FEN: {why}"),
            NotationError::BadObf(why) => write!(f, "bad OBF: {why}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a square such as `d3` (column letter in either case, then the row 1–8).
pub fn parse_square(s: &str) -> Result<u8, NotationError> {
    let b = s.as_bytes();
    if b.len() == 2 {
        let c = b[0].to_ascii_lowercase();
        let r = b[1];
        if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
            return Ok(square((c - b'a') as usize, (r - b'1') as usize));
        }
    }
    Err(NotationError::BadSquare(s.to_string()))
}

/// The name of a square, e.g. `d3`.
pub fn square_name(sq: u8) -> String {
    let sq = sq & 63;
    format!(
        "{}{}",
        (b'a' + col_of(sq) as u8) as char,
        (b'1' + row_of(sq) as u8) as char
    )
}

impl fmt::Display for Move {
    /// Protocol notation: the square (`d3`), or `0000` for the pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else {
            f.write_str(&square_name(self.square()))
        }
    }
}

impl Move {
    /// Parses protocol notation (`d3`, `0000`; also `null` / `pass` for the pass).
    /// Syntax only: legality is the position's business.
    pub fn parse_protocol(s: &str) -> Result<Move, NotationError> {
        match s {
            "0000" | "null" | "pass" => Ok(Move::PASS),
            _ => parse_square(s)
                .map(Move::place)
                .map_err(|_| NotationError::BadMove(s.to_string())),
        }
    }

    /// Parses the text language's notation (`d3`, or `-` for the pass).
    pub fn parse_text(s: &str) -> Result<Move, NotationError> {
        if s == "-" {
            Ok(Move::PASS)
        } else {
            parse_square(s)
                .map(Move::place)
                .map_err(|_| NotationError::BadMove(s.to_string()))
        }
    }

    /// The text language's form: the square, or `-` for the pass.
    pub fn text(self) -> String {
        if self.is_pass() {
            "-".to_string()
        } else {
            square_name(self.square())
        }
    }
}

/// Whose disc a FEN or OBF board character stands for, if it is a disc.
fn disc(c: char) -> Option<Side> {
    match c {
        'x' | 'X' | 'b' | 'B' => Some(Side::First),
        'o' | 'O' | 'w' | 'W' => Some(Side::Second),
        _ => None,
    }
}

impl Position {
    /// Reads a Reversi FEN: 8 rows from row 1 (top) to row 8 separated by `/`, `x` black,
    /// `o` white (also `X`/`b`/`B` and `O`/`w`/`W`), digits for runs of empty squares,
    /// then the side to move `x`/`o` (black if missing).
    pub fn from_fen(fen: &str) -> Result<Position, NotationError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(NotationError::BadFen("empty"))?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return Err(NotationError::BadFen("need 8 rows"));
        }
        let mut discs = [0u64; 2];
        for (row, text) in rows.iter().enumerate() {
            let mut col = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(NotationError::BadFen("bad digit"));
                    }
                    col += d as usize;
                    if col > 8 {
                        return Err(NotationError::BadFen("row longer than 8 squares"));
                    }
                    continue;
                }
                let side = disc(c).ok_or(NotationError::BadFen("bad character"))?;
                if col >= 8 {
                    return Err(NotationError::BadFen("row longer than 8 squares"));
                }
                discs[side.index()] |= 1u64 << square(col, row);
                col += 1;
            }
            if col != 8 {
                return Err(NotationError::BadFen("row is not 8 squares"));
            }
        }
        let side = match fields.next() {
            None => Side::First,
            Some(s) => match s {
                "x" | "X" | "b" | "B" => Side::First,
                "o" | "O" | "w" | "W" => Side::Second,
                _ => return Err(NotationError::BadFen("bad side to move")),
            },
        };
        if fields.next().is_some() {
            return Err(NotationError::BadFen("extra fields"));
        }
        Position::from_parts(discs[0], discs[1], side).map_err(NotationError::BadFen)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for row in 0..8 {
            let mut run = 0u8;
            for col in 0..8 {
                let c = match self.disc_at(square(col, row)) {
                    None => {
                        run += 1;
                        continue;
                    }
                    Some(Side::First) => 'x',
                    Some(Side::Second) => 'o',
                };
                if run > 0 {
                    s.push((b'0' + run) as char);
                    run = 0;
                }
                s.push(c);
            }
            if run > 0 {
                s.push((b'0' + run) as char);
            }
            if row < 7 {
                s.push('/');
            }
        }
        s.push_str(match self.side_to_move() {
            Side::First => " x",
            Side::Second => " o",
        });
        s
    }

    /// Reads one line of an OBF file (the FFO suites' form): 64 squares a1, b1, … h1,
    /// a2, … h8 (row by row from the top, as the published FFO answers confirm), `X`
    /// black, `O` white, `-` empty; blanks; the side to move `X` or `O`; anything from
    /// `;` on (the answers) is ignored.
    pub fn from_obf(line: &str) -> Result<Position, NotationError> {
        let body = line.split(';').next().unwrap_or("");
        let mut chars = body.trim_start().chars();
        let mut discs = [0u64; 2];
        for sq in 0..64u8 {
            match chars.next() {
                None => return Err(NotationError::BadObf("fewer than 64 squares")),
                Some('-' | '.') => {}
                Some(c) => {
                    let side = disc(c).ok_or(NotationError::BadObf("bad square character"))?;
                    discs[side.index()] |= 1u64 << sq;
                }
            }
        }
        let rest = chars.as_str();
        if !rest.starts_with(char::is_whitespace) {
            return Err(NotationError::BadObf("need a blank after the 64 squares"));
        }
        let mut fields = rest.split_whitespace();
        let side = match fields.next() {
            Some("X" | "x" | "B" | "b") => Side::First,
            Some("O" | "o" | "W" | "w") => Side::Second,
            Some(_) => return Err(NotationError::BadObf("bad side to move")),
            None => return Err(NotationError::BadObf("no side to move")),
        };
        if fields.next().is_some() {
            return Err(NotationError::BadObf("extra fields before ';'"));
        }
        Position::from_parts(discs[0], discs[1], side).map_err(NotationError::BadObf)
    }

    /// The position in OBF form (`X`/`O`/`-` squares, a blank, the side to move).
    pub fn to_obf(&self) -> String {
        let mut s: String = (0..64u8)
            .map(|sq| match self.disc_at(sq) {
                None => '-',
                Some(Side::First) => 'X',
                Some(Side::Second) => 'O',
            })
            .collect();
        s.push_str(match self.side_to_move() {
            Side::First => " X",
            Side::Second => " O",
        });
        s
    }

    /// Whose disc stands on `sq`, if any.
    pub fn disc_at(&self, sq: u8) -> Option<Side> {
        let bit = 1u64 << (sq & 63);
        if self.discs(Side::First) & bit != 0 {
            Some(Side::First)
        } else if self.discs(Side::Second) & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The 8 rows, row 1 first, each `prefix(row)` then one glyph per square separated by
    /// single blanks: shared by the people's picture and the harness dump.
    fn grid(
        &self,
        prefix: impl Fn(usize) -> String,
        glyph: impl Fn(Option<Side>) -> char,
    ) -> String {
        let mut s = String::with_capacity(200);
        for row in 0..8 {
            s.push_str(&prefix(row));
            for col in 0..8 {
                if col > 0 {
                    s.push(' ');
                }
                s.push(glyph(self.disc_at(square(col, row))));
            }
            s.push('\n');
        }
        s
    }

    /// A board picture for people: columns a–h, rows 1–8 from the top, `x` black, `o`
    /// white, `.` empty, `*` where the side to move may play; then the side to move.
    pub fn pretty(&self) -> String {
        let legal = self.move_mask();
        let mut s = String::from("  a b c d e f g h\n");
        for row in 0..8 {
            s.push_str(&format!("{} ", row + 1));
            for col in 0..8 {
                let sq = square(col, row);
                s.push(match self.disc_at(sq) {
                    Some(Side::First) => 'x',
                    Some(Side::Second) => 'o',
                    None if legal & (1 << sq) != 0 => '*',
                    None => '.',
                });
                s.push(if col < 7 { ' ' } else { '\n' });
            }
        }
        let side = match self.side_to_move() {
            Side::First => "black (x)",
            Side::Second => "white (o)",
        };
        s.push_str(&format!(
            "{side} to play; black {} white {}",
            self.count(Side::First),
            self.count(Side::Second)
        ));
        s
    }

    /// The text language's `dump` block, exactly as `reversi-text-protocol.md` gives it:
    /// `===`, the 8 rows from the top (`b`, `w`, `-`), `User: black|white` (the Player's
    /// colour), `Moves: N` (moves and passes since the start or the last `clear`), `===`.
    /// No trailing newline.
    pub fn dump(&self, user: Side, moves: u32) -> String {
        let mut s = String::from("===\n");
        s.push_str(&self.grid(
            |_| String::new(),
            |d| match d {
                None => '-',
                Some(Side::First) => 'b',
                Some(Side::Second) => 'w',
            },
        ));
        let user = match user {
            Side::First => "black",
            Side::Second => "white",
        };
        s.push_str(&format!("User: {user}\nMoves: {moves}\n==="));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip_and_start() {
        let start = Position::startpos();
        assert_eq!(start.to_fen(), "8/8/8/3ox3/3xo3/8/8/8 x");
        assert_eq!(
            Position::from_fen("8/8/8/3ox3/3xo3/8/8/8 x").unwrap(),
            start
        );
        assert_eq!(Position::from_fen("8/8/8/3OX3/3XO3/8/8/8").unwrap(), start);
        for fen in [
            "8/8/8/3ox3/3xo3/8/8/8 o",
            "xxxxxxxx/oooooooo/8/8/8/8/8/7x x",
            "x6o/8/8/8/8/8/8/o6x o",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn fen_rejects_junk() {
        for bad in [
            "",
            "8/8/8/8/8/8/8",
            "8/8/8/8/8/8/8/8/8",
            "9/8/8/8/8/8/8/8",
            "8/8/8/8/8/8/8/72",
            "8/8/8/8/8/8/8/0x7 x",
            "8/8/8/8/8/8/8/xxxxxxxxx",
            "8/8/8/8/8/8/8/7 x",
            "8/8/8/8/8/8/8/8 z",
            "8/8/8/8/8/8/8/8 x 0",
            "8/8/8/8/8/8/8/7é",
            "8/8/8/8/8/8/8/44x",
        ] {
            let r = Position::from_fen(bad);
            assert!(r.is_err(), "{bad}");
            assert!(!r.unwrap_err().to_string().contains('\n'));
        }
    }

    #[test]
    fn dump_block() {
        let d = Position::startpos().dump(Side::First, 0);
        let want = "===\n- - - - - - - -\n- - - - - - - -\n- - - - - - - -\n- - - w b - - -\n\
                    - - - b w - - -\n- - - - - - - -\n- - - - - - - -\n- - - - - - - -\n\
                    User: black\nMoves: 0\n===";
        assert_eq!(d, want);
        assert!(Position::startpos()
            .dump(Side::Second, 7)
            .ends_with("User: white\nMoves: 7\n==="));
    }

    #[test]
    fn moves_and_squares() {
        assert_eq!(parse_square("d3").unwrap(), square(3, 2));
        assert_eq!(parse_square("H8").unwrap(), 63);
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
        assert!(parse_square("i1").is_err());
        assert!(parse_square("a9").is_err());
        assert!(parse_square("a0").is_err());
        assert!(parse_square("ä1").is_err());
        assert_eq!(Move::parse_protocol("0000").unwrap(), Move::PASS);
        assert_eq!(Move::parse_protocol("d3").unwrap().to_string(), "d3");
        assert!(Move::parse_protocol("-").is_err());
        assert_eq!(Move::parse_text("-").unwrap(), Move::PASS);
        assert_eq!(Move::PASS.text(), "-");
        assert!(Move::parse_text("0000").is_err());
        assert!(Move::parse_text("d33").is_err());
    }

    #[test]
    fn obf() {
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let pos = Position::from_obf(line).unwrap();
        assert_eq!(pos.side_to_move(), Side::First);
        assert_eq!(pos.disc_at(0), Some(Side::Second)); // a1
        assert_eq!(pos.disc_at(7), Some(Side::First)); // h1
        assert_eq!(pos.disc_at(8), None); // a2, the best move
        assert!(pos.is_legal(Move::place(8)));
        assert_eq!(pos.empty().count_ones(), 20);
        assert_eq!(pos.to_obf(), line.split(';').next().unwrap());
        for bad in [
            "",
            "XO",
            &line[..60],
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------X",
            &line.replace(" X;", " Z;"),
        ] {
            assert!(Position::from_obf(bad).is_err(), "{bad}");
        }
    }
}

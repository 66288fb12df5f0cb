//! Text forms of Ataxx things: squares (`c4`), UAI moves (`f2`, `a1a3`, `0000`), the
//! text language's moves (`g1-f2`, `-`), and FEN (`x5o/7/7/7/7/7/o5x x 0 1`).

use super::bitboard::{distance, file_of, rank_of, square};
use super::position::{Cell, Move, Position, Rules};
use crate::game::Side;
use crate::games::fen_number;
use std::fmt;

/// Why a piece of notation was rejected. The messages are one line each and avoid the
/// words the course harness reserves (wins, passes, moves, draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    BadSquare(String),
    BadMove(String),
    BadFen(&'static str),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadSquare(s) => write!(f, "not a square: '{s}'"),
            NotationError::BadMove(s) => write!(f, "not a move: '{s}'"),
            NotationError::BadFen(why) => write!(f, "bad FEN: {why}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a square such as `c4` (lower or upper case).
pub fn parse_square(s: &str) -> Result<u8, NotationError> {
    let b = s.as_bytes();
    if b.len() == 2 {
        let f = b[0].to_ascii_lowercase();
        let r = b[1];
        if (b'a'..=b'g').contains(&f) && (b'1'..=b'7').contains(&r) {
            return Ok(square((f - b'a') as usize, (r - b'1') as usize));
        }
    }
    Err(NotationError::BadSquare(s.to_string()))
}

/// The name of a square, e.g. `c4`.
pub fn square_name(sq: u8) -> String {
    format!(
        "{}{}",
        (b'a' + file_of(sq) as u8) as char,
        (b'1' + rank_of(sq) as u8) as char
    )
}

impl fmt::Display for Move {
    /// UAI notation: `f2` for a single, `a1a3` for a double, `0000` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else if self.is_single() {
            f.write_str(&square_name(self.to()))
        } else {
            write!(f, "{}{}", square_name(self.from()), square_name(self.to()))
        }
    }
}

impl Move {
    /// Parses UAI notation (`f2`, `a1a3`, `0000`, also `null`/`pass`). Syntax only:
    /// legality is the position's business. A long-form single (`b2b3`) is rejected.
    pub fn parse_uai(s: &str) -> Result<Move, NotationError> {
        let bad = || NotationError::BadMove(s.to_string());
        match s {
            "0000" | "null" | "pass" => return Ok(Move::PASS),
            _ => {}
        }
        match s.len() {
            2 => Ok(Move::single(parse_square(s).map_err(|_| bad())?)),
            4 if s.is_char_boundary(2) => {
                let from = parse_square(&s[..2]).map_err(|_| bad())?;
                let to = parse_square(&s[2..]).map_err(|_| bad())?;
                if distance(from, to) == 2 {
                    Ok(Move::double(from, to))
                } else {
                    Err(bad())
                }
            }
            _ => Err(bad()),
        }
    }
}

/// A move in the text language's `from-to` form, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextMove {
    Pass,
    Step { from: u8, to: u8 },
}

impl TextMove {
    /// Parses `c0r0-c1r1` or `-`.
    pub fn parse(s: &str) -> Result<TextMove, NotationError> {
        if s == "-" {
            return Ok(TextMove::Pass);
        }
        let bad = || NotationError::BadMove(s.to_string());
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let from = parse_square(a).map_err(|_| bad())?;
        let to = parse_square(b).map_err(|_| bad())?;
        Ok(TextMove::Step { from, to })
    }

    /// The position's move this denotes, if it is legal there.
    pub fn resolve(self, pos: &Position) -> Option<Move> {
        let mv = match self {
            TextMove::Pass => Move::PASS,
            TextMove::Step { from, to } => {
                if pos.cell(from) != Cell::Piece(pos.side_to_move()) {
                    return None;
                }
                match distance(from, to) {
                    1 => Move::single(to),
                    2 => Move::double(from, to),
                    _ => return None,
                }
            }
        };
        pos.is_legal(mv).then_some(mv)
    }

    /// The text form of a legal move of `pos` (`-` for a pass; a single names an
    /// adjacent piece of the mover as its source).
    pub fn format(pos: &Position, mv: Move) -> String {
        if mv.is_pass() {
            "-".to_string()
        } else if mv.is_single() {
            let from = pos.single_source(mv.to()).unwrap_or(mv.to());
            format!("{}-{}", square_name(from), square_name(mv.to()))
        } else {
            format!("{}-{}", square_name(mv.from()), square_name(mv.to()))
        }
    }
}

impl Position {
    /// Reads an Ataxx FEN. Missing trailing fields default to `x 0 1`; `X`/`b`/`B` mean
    /// x and `O`/`w`/`W` mean o, as the common tools accept.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, NotationError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(NotationError::BadFen("empty"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 7 {
            return Err(NotationError::BadFen("need 7 ranks"));
        }
        let (mut first, mut second, mut gaps) = (0u64, 0u64, 0u64);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 6 - i;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=7).contains(&d) {
                        return Err(NotationError::BadFen("bad digit"));
                    }
                    file += d as usize;
                    continue;
                }
                if file >= 7 {
                    return Err(NotationError::BadFen("rank too long"));
                }
                let bit = 1u64 << square(file, rank);
                match c {
                    'x' | 'X' | 'b' | 'B' => first |= bit,
                    'o' | 'O' | 'w' | 'W' => second |= bit,
                    '-' => gaps |= bit,
                    _ => return Err(NotationError::BadFen("bad character")),
                }
                file += 1;
            }
            if file != 7 {
                return Err(NotationError::BadFen("rank is not 7 squares"));
            }
        }
        let side = match fields.next() {
            None | Some("x" | "X" | "b" | "B") => Side::First,
            Some("o" | "O" | "w" | "W") => Side::Second,
            Some(_) => return Err(NotationError::BadFen("bad side to move")),
        };
        let clock = fen_number(fields.next(), 0, 10_000)
            .ok_or(NotationError::BadFen("bad halfmove clock"))?;
        let fullmove = fen_number(fields.next(), 1, 1_000_000)
            .ok_or(NotationError::BadFen("bad fullmove number"))?;
        if fields.next().is_some() {
            return Err(NotationError::BadFen("extra fields"));
        }
        Position::from_parts(first, second, gaps, side, clock, fullmove, rules)
            .map_err(NotationError::BadFen)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..7).rev() {
            let mut run = 0;
            for file in 0..7 {
                let c = match self.cell(square(file, rank)) {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Gap => '-',
                    Cell::Piece(Side::First) => 'x',
                    Cell::Piece(Side::Second) => 'o',
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
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Side::First => 'x',
            Side::Second => 'o',
        };
        format!("{s} {side} {} {}", self.clock(), self.fullmove())
    }

    /// The board as seven text rows, rank 7 first: each row is `label(rank)` followed by
    /// one space and a glyph per square. Shared by the people's picture and the harness dump.
    pub fn grid(&self, label: impl Fn(usize) -> String, glyph: impl Fn(Cell) -> char) -> String {
        let mut s = String::new();
        for rank in (0..7).rev() {
            s.push_str(&label(rank));
            for file in 0..7 {
                s.push(' ');
                s.push(glyph(self.cell(square(file, rank))));
            }
            s.push('\n');
        }
        s
    }

    /// The board with its coordinates: [`Position::grid`] with each row led by its
    /// number, then the column letters (no newline after them).
    pub fn labelled(&self, glyph: impl Fn(Cell) -> char) -> String {
        let mut s = self.grid(|rank| format!("{} ", rank + 1), glyph);
        s.push_str("   a b c d e f g");
        s
    }

    /// A board picture for people: ranks 7..1 with coordinates, `x`, `o`, `-` gaps, `.` empty.
    pub fn pretty(&self) -> String {
        let mut s = self.labelled(|cell| match cell {
            Cell::Empty => '.',
            Cell::Gap => '-',
            Cell::Piece(Side::First) => 'x',
            Cell::Piece(Side::Second) => 'o',
        });
        s.push('\n');
        s
    }
}

/// The squares `block sq` fills: `sq` and its reflections across the middle row and column.
pub fn block_squares(sq: u8) -> u64 {
    let (f, r) = (file_of(sq), rank_of(sq));
    [(f, r), (6 - f, r), (f, 6 - r), (6 - f, 6 - r)]
        .iter()
        .fold(0, |bb, &(f, r)| bb | 1u64 << square(f, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip() {
        for fen in [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x o 13 20",
            "7/7/7/7/-------/-------/x5o x 0 1",
        ] {
            let pos = Position::from_fen(fen, Rules::Uai).unwrap();
            assert_eq!(pos.to_fen(), fen);
        }
        assert_eq!(
            Position::from_fen("x5o/7/7/7/7/7/o5x", Rules::Uai)
                .unwrap()
                .to_fen(),
            "x5o/7/7/7/7/7/o5x x 0 1"
        );
        assert_eq!(
            Position::from_fen("x5o/7/7/7/7/7/o5x", Rules::Uai).unwrap(),
            Position::startpos(Rules::Uai)
        );
    }

    #[test]
    fn fen_rejects_junk() {
        for bad in [
            "",
            "x5o/7/7/7/7/7",
            "x6o/7/7/7/7/7/o5x x",
            "x5o/7/7/7/7/7/o5x z",
            "x5o/7/7/7/7/7/o5x x -1",
            "x5o/7/7/7/7/7/o5x x 0 1 9",
            "x5q/7/7/7/7/7/o5x",
            "x8/7/7/7/7/7/o5x",
            "x5o/7/7/7/7/7/o5x x 99999999999",
        ] {
            assert!(Position::from_fen(bad, Rules::Uai).is_err(), "{bad}");
        }
    }

    #[test]
    fn uai_moves() {
        assert_eq!(Move::parse_uai("f2").unwrap(), Move::single(square(5, 1)));
        assert_eq!(Move::parse_uai("a1a3").unwrap().to_string(), "a1a3");
        assert_eq!(Move::parse_uai("0000").unwrap(), Move::PASS);
        assert!(Move::parse_uai("b2b3").is_err());
        assert!(Move::parse_uai("h1").is_err());
        assert!(Move::parse_uai("a1a4").is_err());
        assert!(Move::parse_uai("é1").is_err());
        assert!(Move::parse_uai("éé").is_err());
    }

    #[test]
    fn text_moves() {
        let pos = Position::startpos(Rules::Text);
        let mv = TextMove::parse("a7-b6").unwrap().resolve(&pos).unwrap();
        assert!(mv.is_single());
        assert_eq!(TextMove::format(&pos, mv), "a7-b6");
        assert!(TextMove::parse("a1-b1").unwrap().resolve(&pos).is_none());
        assert!(TextMove::parse("a7-a4").unwrap().resolve(&pos).is_none());
        assert!(TextMove::parse("-").unwrap().resolve(&pos).is_none());
        assert!(TextMove::parse("b7c7").is_err());
        assert!(TextMove::parse("g1-h1").is_err());
    }
}

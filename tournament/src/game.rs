//! The per-game adapter: everything the runner needs to know about a game beyond the
//! engine library's [`Game`] trait (openings, FEN, protocol move text, end reasons).
//!
//! The schedule, referee, statistics and storage only see [`TourGame`], so a second
//! game (Lines of Action, Reversi) joins by implementing this trait once.

use engine::game::{Game, Outcome, Side};
use engine::games::ataxx::{parse_square, Move, Position, Rules, TextMove};

/// Which protocol family a game is played under. It decides the rule set where a game
/// has protocol-dependent rules (Ataxx: the text language's 25-jump rule against UAI's
/// 100-ply rule), so the referee judges by the rules both engines are searching under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// UAI/UGI-style protocols (and built-in players when no text engine takes part).
    Uai,
    /// The course's text command language.
    Text,
}

/// An opening after parsing: where it starts, and the moves that lead out of it.
#[derive(Clone, Debug)]
pub struct Setup<G: TourGame> {
    /// The position before the opening's moves (blocks/gaps already applied).
    pub base: G,
    /// The opening's moves, all legal, played from `base`.
    pub moves: Vec<G::Move>,
    /// The position the engines start thinking from.
    pub start: G,
}

/// What a text-language engine printed about its own move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextReport {
    /// The colour that moved.
    pub side: Side,
    /// The move in the text language (`a7-b6`, or `-` for a pass).
    pub text: String,
}

/// A game the tournament runner can referee. Implemented by the engine library's
/// position type so the referee checks every move with our own rules.
pub trait TourGame: Game {
    /// Short game name for PGN `Variant`-like tags and messages.
    const NAME: &'static str;

    /// Parses one line of an openings file. `Err` carries a one-line reason.
    fn parse_opening(line: &str, family: Family) -> Result<Setup<Self>, String>;

    /// True if the opening line is a FEN (only UAI-family engines can play those).
    fn opening_is_fen(line: &str) -> bool;

    /// The position as FEN (for `position fen` and the PGN `FEN` tag).
    fn fen(&self) -> String;

    /// Protocol notation of a move (UAI: `f2`, `a1a3`, `0000`).
    fn protocol_move(&self, mv: Self::Move) -> String {
        mv.to_string()
    }

    /// Parses a move in protocol notation; `None` unless it is legal here.
    fn parse_protocol_move(&self, text: &str) -> Option<Self::Move>;

    /// The text-language commands that set up an opening (blocks, set-up moves).
    fn text_setup_commands(line: &str) -> Result<Vec<String>, String>;

    /// A move in the text language (`a7-b6`, `-`).
    fn text_move(&self, mv: Self::Move) -> String;

    /// Parses a text-language move; `None` unless it is legal here.
    fn parse_text_move(&self, text: &str) -> Option<Self::Move>;

    /// Recognises an AI move line (`Red moves a7-b6.`, `Blue passes.`), prompts stripped.
    fn parse_text_report(line: &str) -> Option<TextReport>;

    /// The text language's name for a side (`red`/`blue`).
    fn text_side_name(side: Side) -> &'static str;

    /// Material of one side, for material adjudication.
    fn material(&self, side: Side) -> i32;

    /// Why the rules ended the game (for the results file), e.g. `board full 30-19`.
    fn end_reason(&self, outcome: Outcome) -> String;

    /// PGN tag names of the first and second player (Ataxx tools: Black = x, White = o).
    fn pgn_player_tags() -> [&'static str; 2] {
        ["Black", "White"]
    }
}

/// Squares blocked by `block CR` in the text language: CR and its reflections across
/// the middle row and the middle column.
fn block_squares(square: &str) -> Result<u64, String> {
    let sq = parse_square(square).map_err(|e| e.to_string())?;
    let (file, rank) = (sq as usize % 7, sq as usize / 7);
    let mut bits = 0u64;
    for f in [file, 6 - file] {
        for r in [rank, 6 - rank] {
            bits |= 1u64 << (r * 7 + f);
        }
    }
    Ok(bits)
}

fn ataxx_rules(family: Family) -> Rules {
    match family {
        Family::Uai => Rules::Uai,
        Family::Text => Rules::Text,
    }
}

/// One token of an opening line.
enum OpeningToken<'a> {
    Block(&'a str),
    Move(&'a str),
}

fn opening_tokens(line: &str) -> Result<Vec<OpeningToken<'_>>, String> {
    let mut out = Vec::new();
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case("block") {
            let sq = words
                .next()
                .ok_or_else(|| "'block' needs a square".to_string())?;
            out.push(OpeningToken::Block(sq));
        } else {
            out.push(OpeningToken::Move(w));
        }
    }
    Ok(out)
}

fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

impl TourGame for Position {
    const NAME: &'static str = "ataxx";

    fn parse_opening(line: &str, family: Family) -> Result<Setup<Self>, String> {
        let line = strip_comment(line);
        let rules = ataxx_rules(family);
        if Self::opening_is_fen(line) {
            let pos = Position::from_fen(line, rules).map_err(|e| e.to_string())?;
            if pos.outcome().is_some() {
                return Err("the opening position is already decided".into());
            }
            return Ok(Setup {
                base: pos.clone(),
                moves: Vec::new(),
                start: pos,
            });
        }
        let mut base = Position::startpos(rules);
        let tokens = opening_tokens(line)?;
        let mut seen_move = false;
        for t in &tokens {
            match t {
                OpeningToken::Block(sq) => {
                    if seen_move {
                        return Err("'block' after a move".into());
                    }
                    base.add_gaps(block_squares(sq)?)
                        .map_err(|e| format!("block {sq}: {e}"))?;
                }
                OpeningToken::Move(_) => seen_move = true,
            }
        }
        let mut pos = base.clone();
        let mut moves = Vec::new();
        for t in &tokens {
            if let OpeningToken::Move(text) = t {
                let mv = if text.contains('-') {
                    TextMove::parse(text).ok().and_then(|m| m.resolve(&pos))
                } else {
                    Move::parse_uai(text).ok().filter(|&m| pos.is_legal(m))
                };
                let mv = mv.ok_or_else(|| format!("illegal opening move '{text}'"))?;
                pos.make_move(mv);
                moves.push(mv);
            }
        }
        if pos.outcome().is_some() {
            return Err("the opening already ends the game".into());
        }
        Ok(Setup {
            base,
            moves,
            start: pos,
        })
    }

    fn opening_is_fen(line: &str) -> bool {
        strip_comment(line).contains('/')
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn parse_protocol_move(&self, text: &str) -> Option<Move> {
        Move::parse_uai(text).ok().filter(|&m| self.is_legal(m))
    }

    fn text_setup_commands(line: &str) -> Result<Vec<String>, String> {
        let line = strip_comment(line);
        if Self::opening_is_fen(line) {
            return Err("a FEN opening cannot be set up in the text language".into());
        }
        let setup = Self::parse_opening(line, Family::Text)?;
        let mut out = Vec::new();
        for t in opening_tokens(line)? {
            if let OpeningToken::Block(sq) = t {
                out.push(format!("block {}", sq.to_ascii_lowercase()));
            }
        }
        let mut pos = setup.base.clone();
        for &mv in &setup.moves {
            out.push(TextMove::format(&pos, mv));
            pos.make_move(mv);
        }
        Ok(out)
    }

    fn text_move(&self, mv: Move) -> String {
        TextMove::format(self, mv)
    }

    fn parse_text_move(&self, text: &str) -> Option<Move> {
        TextMove::parse(text).ok().and_then(|m| m.resolve(self))
    }

    fn parse_text_report(line: &str) -> Option<TextReport> {
        let line = match line.rfind(':') {
            Some(i) => &line[i + 1..],
            None => line,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let side = match words.first().copied() {
            Some("Red") => Side::First,
            Some("Blue") => Side::Second,
            _ => return None,
        };
        match words.as_slice() {
            [_, "passes."] => Some(TextReport {
                side,
                text: "-".into(),
            }),
            [_, "moves", mv] => {
                let mv = mv.strip_suffix('.')?;
                let (a, b) = mv.split_once('-')?;
                parse_square(a).ok()?;
                parse_square(b).ok()?;
                if a.bytes().any(|c| c.is_ascii_uppercase())
                    || b.bytes().any(|c| c.is_ascii_uppercase())
                {
                    return None;
                }
                Some(TextReport {
                    side,
                    text: mv.to_string(),
                })
            }
            _ => None,
        }
    }

    fn text_side_name(side: Side) -> &'static str {
        match side {
            Side::First => "red",
            Side::Second => "blue",
        }
    }

    fn material(&self, side: Side) -> i32 {
        self.count(side) as i32
    }

    fn end_reason(&self, outcome: Outcome) -> String {
        let (x, o) = (self.count(Side::First), self.count(Side::Second));
        let why = if x == 0 || o == 0 {
            "no stones left"
        } else if self.empty() == 0 {
            "board full"
        } else if self.rules() == Rules::Text && self.clock() >= 25 {
            "25 consecutive jumps"
        } else if self.rules() == Rules::Uai && self.clock() >= 100 && outcome == Outcome::Draw {
            "100-ply rule"
        } else {
            "no moves left"
        };
        format!("{why} {x}-{o}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_parse() {
        let s = Position::parse_opening("", Family::Uai).unwrap();
        assert_eq!(s.start, Position::startpos(Rules::Uai));
        let s = Position::parse_opening("block c3 a7-b6 g7f5 # comment", Family::Uai).unwrap();
        assert_eq!(s.moves.len(), 2);
        assert_eq!(s.base.gaps().count_ones(), 4);
        assert!(Position::parse_opening("a7-a4", Family::Uai).is_err());
        assert!(Position::parse_opening("a7-b6 block c3", Family::Uai).is_err());
        assert!(Position::parse_opening("block", Family::Uai).is_err());
        let s = Position::parse_opening("x5o/7/7/7/7/7/o5x o 0 1", Family::Uai).unwrap();
        assert_eq!(s.start.side_to_move(), Side::Second);
        assert!(Position::parse_opening("x5o/7/7/7/7/7/o5", Family::Uai).is_err());
    }

    #[test]
    fn text_setup() {
        let cmds = Position::text_setup_commands("block c4 f2 g7f5").unwrap();
        assert_eq!(cmds, vec!["block c4", "g1-f2", "g7-f5"]);
        assert!(Position::text_setup_commands("x5o/7/7/7/7/7/o5x").is_err());
    }

    #[test]
    fn text_reports() {
        assert_eq!(
            Position::parse_text_report("red: Blue moves a7-b6."),
            Some(TextReport {
                side: Side::Second,
                text: "a7-b6".into()
            })
        );
        assert_eq!(
            Position::parse_text_report("Red passes."),
            Some(TextReport {
                side: Side::First,
                text: "-".into()
            })
        );
        for junk in [
            "Red wins.",
            "Red moves a7-b6",
            "Red moves h7-b6.",
            "moves",
            "",
            "Red moves é-é.",
        ] {
            assert_eq!(Position::parse_text_report(junk), None, "{junk}");
        }
    }
}

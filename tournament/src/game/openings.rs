//! The openings book: openings mapped to schedule slots.
//!
//! Three formats (`-openings format=`, else by the file's extension: `.epd`, `.pgn`,
//! anything else our lines):
//! - **lines**: one opening per line, read by the game itself ([`Notation::opening`]: a
//!   FEN, or moves from the start position, plus whatever opening syntax the game adds);
//!   blank lines and `#` comments are skipped.
//! - **EPD**: one position per line, opcodes after it ignored. How many fields the
//!   position has is the game's business, so the longest run of leading fields (up to
//!   the first `;`) that the game reads as a FEN ([`Notation::from_fen`]) is the
//!   position and the rest are opcodes: `x5o/7/7/7/7/7/o5x x 0 1 id "a";` reads the
//!   four fields of an Ataxx FEN, `x5o/7/7/7/7/7/o5x o hmvc 0;` its first two. Blank
//!   lines and lines starting with `#` are skipped.
//! - **PGN**: each game is an opening: its `FEN` tag (unless `SetUp` is `0`) or the
//!   start position, then the main line's moves, at most `plies` of them (comments,
//!   variations, NAGs and results skipped: [`crate::game::pgn::read`]). Moves are read in
//!   the game's protocol notation or, failing that, in its text language's notation. A
//!   `Variant` tag must name the game.
//!
//! Every opening is checked with our rules before the run starts.

use crate::game::pgn;
use crate::matchmaking::schedule::OpeningPolicy;
use engine::game::{Game, Notation, Opening};
use engine::rng::SplitMix64;
use std::path::PathBuf;

/// In which order the openings file is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    /// File order.
    Sequential,
    /// A permutation drawn from `-seed`.
    Random,
}

/// How the openings file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Our lines: a FEN or moves per line, read by the game.
    Lines,
    /// EPD: a position per line, opcodes ignored.
    Epd,
    /// PGN games.
    Pgn,
}

impl BookFormat {
    /// The format of a file named `file`: by its extension (`.epd`, `.pgn`), else lines.
    pub fn of_file(file: &std::path::Path) -> BookFormat {
        match file
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("epd") => BookFormat::Epd,
            Some("pgn") => BookFormat::Pgn,
            _ => BookFormat::Lines,
        }
    }
}

/// `-openings`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsSpec {
    /// The file.
    pub file: PathBuf,
    /// Its format (`None`: by the file's extension, see [`BookFormat::of_file`]).
    pub format: Option<BookFormat>,
    /// Order of use.
    pub order: OpeningOrder,
    /// 1-based index of the first opening used.
    pub start: usize,
    /// At most this many moves of each PGN game (`None`: all).
    pub plies: Option<usize>,
    /// When a game takes a new opening.
    pub policy: OpeningPolicy,
    /// `replays=allow`: play games that deterministic engines would replay move for
    /// move (see `runner::replayed_games`), which are otherwise refused.
    pub allow_replays: bool,
}

/// One opening of the book.
#[derive(Clone, Debug)]
pub struct Entry<G: Game> {
    /// Where it is in the file: its line (lines, EPD) or game number (PGN), 1-based; 0
    /// for the start position of a run without a book.
    pub line_no: usize,
    /// `line` or `game`, for messages about it.
    pub unit: &'static str,
    /// The opening as the results file records it (empty: the start position): the
    /// line without its comment, the EPD's position, or a PGN game's moves in protocol
    /// notation (after `FEN moves` when it has a FEN).
    pub text: String,
    /// The opening read by the game's rules.
    pub opening: Opening<G>,
}

/// The openings in use, in order of use.
#[derive(Clone, Debug)]
pub struct Book<G: Game> {
    entries: Vec<Entry<G>>,
}

/// Reads the position of an EPD line: the longest run of leading fields before the
/// first `;` that the game reads as a FEN (see the module documentation).
pub fn epd_position<G: Notation>(line: &str, rules: G::Rules) -> Result<G, String> {
    let fields: Vec<&str> = line
        .split(';')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let mut first_error = None;
    for n in (1..=fields.len()).rev() {
        match G::from_fen(&fields[..n].join(" "), rules) {
            Ok(pos) => return Ok(pos),
            Err(e) => first_error = Some(e),
        }
    }
    Err(first_error.unwrap_or_else(|| "an empty line".into()))
}

/// An opening the game can play: one that does not already end the game.
fn playable<G: Notation>(opening: Opening<G>) -> Result<Opening<G>, String> {
    if opening.end().outcome().is_some() {
        return Err("the opening already ends the game".into());
    }
    Ok(opening)
}

impl<G: Notation> Book<G> {
    /// The start position under `rules` only.
    pub fn startpos(rules: G::Rules) -> Book<G> {
        Book {
            entries: vec![Entry {
                line_no: 0,
                unit: "line",
                text: String::new(),
                opening: Opening {
                    base: G::startpos(rules),
                    moves: Vec::new(),
                },
            }],
        }
    }

    /// Loads the openings file and reads every opening with the game's rules under
    /// `rules` (the rule set the games will be judged by). `text_move` reads a move in
    /// the game's text-language notation (PGN books may use it). `Err` is a one-line
    /// message.
    pub fn load(
        spec: &OpeningsSpec,
        seed: u64,
        rules: G::Rules,
        text_move: impl Fn(&G, &str) -> Option<G::Move>,
    ) -> Result<Book<G>, String> {
        let text = std::fs::read_to_string(&spec.file)
            .map_err(|e| format!("-openings: cannot read {}: {e}", spec.file.display()))?;
        let format = spec
            .format
            .unwrap_or_else(|| BookFormat::of_file(&spec.file));
        if spec.plies.is_some() && format != BookFormat::Pgn {
            return Err("-openings: plies= applies to PGN books only".into());
        }
        let mut entries = match format {
            BookFormat::Lines => Self::lines(&text, rules)?,
            BookFormat::Epd => Self::epd(&text, rules)?,
            BookFormat::Pgn => Self::pgn(&text, rules, spec.plies, text_move)?,
        };
        if entries.is_empty() {
            return Err("-openings: the file has no openings".into());
        }
        if spec.order == OpeningOrder::Random {
            // Our stable generator: the same seed, the same order.
            SplitMix64::new(seed ^ 0x0DE1_1165).shuffle(&mut entries);
        }
        // A first opening the book does not have is a mistake (a wrong file, a
        // miscounted start), not a request to wrap around.
        if spec.start > entries.len() {
            return Err(format!(
                "-openings: start={} is beyond the book, which has {} openings",
                spec.start,
                entries.len()
            ));
        }
        entries.rotate_left(spec.start - 1);
        Ok(Book { entries })
    }

    fn lines(text: &str, rules: G::Rules) -> Result<Vec<Entry<G>>, String> {
        let mut entries = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let opening =
                G::opening(line, rules).map_err(|e| format!("-openings: line {}: {e}", n + 1))?;
            entries.push(Entry {
                line_no: n + 1,
                unit: "line",
                text: line.to_string(),
                opening,
            });
        }
        Ok(entries)
    }

    fn epd(text: &str, rules: G::Rules) -> Result<Vec<Entry<G>>, String> {
        let mut entries = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("-openings: line {}: {e}", n + 1);
            let base = epd_position::<G>(line, rules).map_err(at)?;
            let opening = playable(Opening {
                base,
                moves: Vec::new(),
            })
            .map_err(at)?;
            entries.push(Entry {
                line_no: n + 1,
                unit: "line",
                text: opening.base.fen(),
                opening,
            });
        }
        Ok(entries)
    }

    fn pgn(
        text: &str,
        rules: G::Rules,
        plies: Option<usize>,
        text_move: impl Fn(&G, &str) -> Option<G::Move>,
    ) -> Result<Vec<Entry<G>>, String> {
        let games = pgn::read(text).map_err(|e| format!("-openings: {e}"))?;
        let mut entries = Vec::new();
        for (n, game) in games.iter().enumerate() {
            let at = |e: String| format!("-openings: game {}: {e}", n + 1);
            if let Some(v) = game.tag("Variant") {
                if !v.eq_ignore_ascii_case(G::NAME) {
                    return Err(at(format!("a game of {v}, not {}", G::NAME)));
                }
            }
            let fen = match (game.tag("SetUp"), game.tag("FEN")) {
                (Some("0"), _) | (_, None) => None,
                (_, Some(fen)) => Some(fen),
            };
            if game.tag("SetUp") == Some("1") && fen.is_none() {
                return Err(at("SetUp \"1\" without a FEN tag".into()));
            }
            let base = match fen {
                Some(f) => G::from_fen(f, rules).map_err(|e| at(format!("FEN: {e}")))?,
                None => G::startpos(rules),
            };
            let mut pos = base.clone();
            let mut moves = Vec::new();
            let mut names = Vec::new();
            for word in game.moves.iter().take(plies.unwrap_or(usize::MAX)) {
                let mv = pos
                    .parse_move(word)
                    .or_else(|| text_move(&pos, word))
                    .ok_or_else(|| at(format!("illegal opening move '{word}'")))?;
                names.push(pos.move_name(mv));
                pos.make_move(mv);
                moves.push(mv);
            }
            let opening = playable(Opening { base, moves }).map_err(|e| {
                at(if plies.is_none() {
                    format!("{e} (plies=N keeps the first N moves)")
                } else {
                    e
                })
            })?;
            let moves = names.join(" ");
            let text = match fen {
                Some(_) if moves.is_empty() => opening.base.fen(),
                Some(_) => format!("{} moves {moves}", opening.base.fen()),
                None => moves,
            };
            entries.push(Entry {
                line_no: n + 1,
                unit: "game",
                text,
                opening,
            });
        }
        Ok(entries)
    }

    /// Checks every opening with `playable` (e.g. "a text engine can set it up"),
    /// naming the first one it refuses.
    pub fn check(
        &self,
        playable: impl Fn(&Opening<G>) -> Result<(), String>,
    ) -> Result<(), String> {
        for e in &self.entries {
            playable(&e.opening).map_err(|err| match e.line_no {
                0 => format!("the start position: {err}"),
                n => format!("-openings: {} {n}: {err}", e.unit),
            })?;
        }
        Ok(())
    }

    /// The opening for a schedule slot (the book wraps around; it is never empty).
    pub fn get(&self, slot: u64) -> &Entry<G> {
        let n = self.entries.len().max(1) as u64;
        &self.entries[(slot % n) as usize]
    }

    /// Number of distinct openings.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there are none (never: both constructors give at least one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ataxx::{Position, Rules};
    use engine::protocol::text::ataxx::AtaxxText;
    use engine::protocol::text::EngineSetup;
    use engine::protocol::text::TextProtocol;

    fn book_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("tour-book-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn spec(file: PathBuf, order: OpeningOrder, start: usize) -> OpeningsSpec {
        OpeningsSpec {
            allow_replays: false,
            file,
            format: None,
            order,
            start,
            plies: None,
            policy: OpeningPolicy::Shared,
        }
    }

    fn text_move(pos: &Position, s: &str) -> Option<engine::games::ataxx::Move> {
        AtaxxText::parse_move_text(pos, s)
    }

    #[test]
    fn lines_are_read_by_the_game() {
        let f = book_file(
            "read",
            "# comment\nblock c3 a7-b6 g7f5 # two moves\n\nx5o/7/7/7/7/7/o5x o 0 1\n",
        );
        let b = Book::<Position>::load(
            &spec(f.clone(), OpeningOrder::Sequential, 1),
            1,
            Rules::Uai,
            text_move,
        )
        .unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b.get(0).line_no, b.get(0).text.as_str()),
            (2, "block c3 a7-b6 g7f5")
        );
        assert_eq!(b.get(0).opening.moves.len(), 2);
        assert_eq!(b.get(0).opening.base.gaps().count_ones(), 4);
        assert_eq!(b.get(3).line_no, 4, "the book wraps around");
        // A FEN cannot be set up in the text language: the check names its line.
        let text_ok = |o: &Opening<Position>| {
            AtaxxText::setup_commands(&EngineSetup::new(o, engine::game::Side::First, 0, false))
                .map(drop)
        };
        let e = b.check(text_ok).unwrap_err();
        assert!(e.starts_with("-openings: line 4:"), "{e}");
        let _ = std::fs::remove_file(f);
    }

    #[test]
    fn bad_lines_and_orders() {
        let f = book_file("bad", "a7-b6\na7-a4\n");
        let e = Book::<Position>::load(
            &spec(f.clone(), OpeningOrder::Sequential, 1),
            1,
            Rules::Text,
            text_move,
        )
        .unwrap_err();
        assert!(e.starts_with("-openings: line 2:"), "{e}");
        let lines: String = ["f2", "g1e3", "b6", "a7c5", "b7", "g2"].join("\n");
        std::fs::write(&f, lines).unwrap();
        let order = |seed, order, start| {
            let b =
                Book::<Position>::load(&spec(f.clone(), order, start), seed, Rules::Uai, text_move)
                    .unwrap();
            (0..6).map(|i| b.get(i).text.clone()).collect::<Vec<_>>()
        };
        assert_eq!(order(1, OpeningOrder::Sequential, 3)[0], "b6");
        assert_eq!(order(1, OpeningOrder::Sequential, 6)[0], "g2");
        let beyond = |start| {
            Book::<Position>::load(
                &spec(f.clone(), OpeningOrder::Sequential, start),
                1,
                Rules::Uai,
                text_move,
            )
            .map(|_| ())
        };
        assert_eq!(
            beyond(7),
            Err("-openings: start=7 is beyond the book, which has 6 openings".into())
        );
        assert_eq!(
            order(5, OpeningOrder::Random, 1),
            order(5, OpeningOrder::Random, 1)
        );
        assert_ne!(
            order(5, OpeningOrder::Random, 1),
            order(1, OpeningOrder::Sequential, 1)
        );
        let _ = std::fs::remove_file(f);
    }

    #[test]
    fn epd_positions_are_the_longest_fen_prefix() {
        let read = |l: &str| epd_position::<Position>(l, Rules::Uai).map(|p| p.fen());
        assert_eq!(
            read("x5o/7/7/7/7/7/o5x o 3 7 id \"x\"; bm g6;").unwrap(),
            "x5o/7/7/7/7/7/o5x o 3 7"
        );
        assert_eq!(
            read("x5o/7/7/7/7/7/o5x o hmvc 3; fmvn 7;").unwrap(),
            "x5o/7/7/7/7/7/o5x o 0 1"
        );
        assert_eq!(
            read("x5o/7/7/7/7/7/o5x o 3 7;").unwrap(),
            "x5o/7/7/7/7/7/o5x o 3 7"
        );
        assert!(read("x5o/7/7 x 0 1").is_err());
        assert!(read("").is_err());
    }

    #[test]
    fn pgn_books() {
        let load = |name: &str, text: &str, plies: Option<usize>| {
            let f = book_file(name, text);
            let mut sp = spec(f.clone(), OpeningOrder::Sequential, 1);
            sp.plies = plies;
            let r = Book::<Position>::load(&sp, 1, Rules::Uai, text_move);
            let _ = std::fs::remove_file(f);
            r
        };
        let b = load(
            "a.pgn",
            "[Event \"a\"]\n\n1. f2 g6 2. b6 1-0\n\n[Event \"b\"]\n[SetUp \"0\"]\n\
             [FEN \"x5o/7/7/7/7/7/o5x o 0 1\"]\n\n1. a7-b7 *\n",
            Some(2),
        )
        .unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!((b.get(0).unit, b.get(0).line_no), ("game", 1));
        assert_eq!(b.get(0).text, "f2 g6");
        assert_eq!(b.get(1).text, "b7", "SetUp 0: the FEN is not used");
        let e = load("v.pgn", "[Variant \"chess\"]\n\n1. e4 *\n", None).unwrap_err();
        assert!(e.contains("game 1") && e.contains("chess"), "{e}");
        let e = load("i.pgn", "1. f2 g6 2. a1a1 *\n", None).unwrap_err();
        assert!(e.contains("illegal opening move 'a1a1'"), "{e}");
        let e = load("s.pgn", "[SetUp \"1\"]\n\n1. f2 *\n", None).unwrap_err();
        assert!(e.contains("without a FEN"), "{e}");
        let e = load(
            "end.pgn",
            "[FEN \"x6/1o5/7/7/7/7/7 x 0 1\"]\n\n1. a6 1-0\n",
            None,
        )
        .unwrap_err();
        assert!(e.contains("ends the game") && e.contains("plies="), "{e}");
        let e = load("lines.txt", "f2\n", Some(1)).unwrap_err();
        assert!(e.contains("plies="), "{e}");
    }
}

//! The openings book: lines of the openings file mapped to schedule slots.
//!
//! Each line is read by the game itself ([`GameIo::opening`]: a FEN, or moves from the
//! start position, plus whatever opening syntax the game adds). Blank lines and `#`
//! comments are skipped. Every line is checked with our rules before the run starts.

use engine::game::{Game, GameIo, Opening, RuleSet};
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

/// `-openings`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsSpec {
    /// The file: one opening per line, as the game reads it.
    pub file: PathBuf,
    /// Order of use.
    pub order: OpeningOrder,
    /// 1-based index of the first opening used.
    pub start: usize,
}

/// One opening of the book.
#[derive(Clone, Debug)]
pub struct Entry<G: Game> {
    /// Its line in the file (1-based; 0 for the start position of a run without a book).
    pub line_no: usize,
    /// The line without its comment, as the results file records it (empty: the start).
    pub text: String,
    /// The line read by the game's rules.
    pub opening: Opening<G>,
}

/// The openings in use, in order of use.
#[derive(Clone, Debug)]
pub struct Book<G: Game> {
    entries: Vec<Entry<G>>,
}

impl<G: GameIo> Book<G> {
    /// The start position under `rules` only.
    pub fn startpos(rules: RuleSet) -> Book<G> {
        Book {
            entries: vec![Entry {
                line_no: 0,
                text: String::new(),
                opening: Opening {
                    base: G::startpos(rules),
                    moves: Vec::new(),
                },
            }],
        }
    }

    /// Loads the openings file and reads every line with the game's rules under
    /// `rules` (the rule set the games will be judged by); `Err` is a one-line message.
    pub fn load(spec: &OpeningsSpec, seed: u64, rules: RuleSet) -> Result<Book<G>, String> {
        let text = std::fs::read_to_string(&spec.file)
            .map_err(|e| format!("-openings: cannot read {}: {e}", spec.file.display()))?;
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
                text: line.to_string(),
                opening,
            });
        }
        if entries.is_empty() {
            return Err("-openings: the file has no openings".into());
        }
        if spec.order == OpeningOrder::Random {
            // Our stable generator: the same seed, the same order.
            SplitMix64::new(seed ^ 0x0DE1_1165).shuffle(&mut entries);
        }
        let start = (spec.start - 1) % entries.len();
        entries.rotate_left(start);
        Ok(Book { entries })
    }

    /// Checks every opening with `playable` (e.g. "a text engine can set it up"),
    /// naming the first line it refuses.
    pub fn check(
        &self,
        playable: impl Fn(&Opening<G>) -> Result<(), String>,
    ) -> Result<(), String> {
        for e in &self.entries {
            playable(&e.opening).map_err(|err| match e.line_no {
                0 => format!("the start position: {err}"),
                n => format!("-openings: line {n}: {err}"),
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
    use engine::games::ataxx::text::AtaxxText;
    use engine::games::ataxx::Position;
    use engine::protocol::text::TextProtocol;

    fn book_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("tour-book-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn spec(file: PathBuf, order: OpeningOrder, start: usize) -> OpeningsSpec {
        OpeningsSpec { file, order, start }
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
            RuleSet::Engine,
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
            AtaxxText::setup_commands(o, engine::game::Side::First, 0, false).map(drop)
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
            RuleSet::Text,
        )
        .unwrap_err();
        assert!(e.starts_with("-openings: line 2:"), "{e}");
        let lines: String = ["f2", "g1e3", "b6", "a7c5", "b7", "g2"].join("\n");
        std::fs::write(&f, lines).unwrap();
        let order = |seed, order, start| {
            let b = Book::<Position>::load(&spec(f.clone(), order, start), seed, RuleSet::Engine)
                .unwrap();
            (0..6).map(|i| b.get(i).text.clone()).collect::<Vec<_>>()
        };
        assert_eq!(order(1, OpeningOrder::Sequential, 3)[0], "b6");
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
}

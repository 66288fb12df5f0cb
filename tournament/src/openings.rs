//! The openings book: lines of the openings file mapped to schedule slots.
//!
//! A line is a FEN (UAI-only runs) or moves from the start position (`a7-b6` or UAI
//! `f2`/`g7f5` notation) with optional leading `block SQ` words. Blank lines and `#`
//! comments are skipped. Every line is checked with our rules before the run starts.

use crate::game::{Family, TourGame};
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
    /// The file: one opening per line (moves from the start, optional blocks, or FEN).
    pub file: PathBuf,
    /// Order of use.
    pub order: OpeningOrder,
    /// 1-based index of the first opening used.
    pub start: usize,
}

/// The openings in use, in order of use.
#[derive(Clone, Debug)]
pub struct Book {
    lines: Vec<String>,
}

impl Book {
    /// The start position only.
    pub fn startpos() -> Book {
        Book {
            lines: vec![String::new()],
        }
    }

    /// Loads and checks the openings file; `Err` is a one-line message.
    pub fn load<G: TourGame>(
        spec: &OpeningsSpec,
        seed: u64,
        family: Family,
        text_engines: bool,
    ) -> Result<Book, String> {
        let text = std::fs::read_to_string(&spec.file)
            .map_err(|e| format!("-openings: cannot read {}: {e}", spec.file.display()))?;
        let mut lines = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            G::parse_opening(line, family)
                .map_err(|e| format!("-openings: line {}: {e}", n + 1))?;
            if text_engines {
                G::text_setup_commands(line)
                    .map_err(|e| format!("-openings: line {}: {e}", n + 1))?;
            }
            lines.push(line.to_string());
        }
        if lines.is_empty() {
            return Err("-openings: the file has no openings".into());
        }
        if spec.order == OpeningOrder::Random {
            // Fisher-Yates with our stable generator: the same seed, the same order.
            SplitMix64::new(seed ^ 0x0DE1_1165).shuffle(&mut lines);
        }
        let start = (spec.start - 1) % lines.len();
        lines.rotate_left(start);
        Ok(Book { lines })
    }

    /// The opening for a schedule slot (the book wraps around).
    pub fn line(&self, slot: u64) -> &str {
        let n = self.lines.len().max(1) as u64;
        self.lines
            .get((slot % n) as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// Number of distinct openings.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True if there are none (never, after `load`).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

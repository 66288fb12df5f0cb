//! The games to rate: the runner's results files (read exactly: `players[0]` moved
//! first, `result` is from its side), PGN in either convention, and run directories.
//!
//! PGN conventions. Both put the first mover's result first (`1-0`: the first mover
//! won); they differ in which tag names the first mover. Chess: `White`. Ataxx,
//! Othello and LOA (cuteataxx, libataxx, our runner): `Black`. A chess tool given
//! our Ataxx PGN therefore reads every result backwards.

use super::model::Pool;
use crate::game::pgn;
use crate::output::results::{GameRecord, GameResult};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Which tag of a PGN game names the first mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// By the game's `Variant` tag: one of the engine library's games or `othello`
    /// (all have Black move first) is [`Convention::BlackFirst`], anything else or no
    /// tag [`Convention::Chess`].
    Auto,
    /// Black moves first (Ataxx, Othello/Reversi, LOA).
    BlackFirst,
    /// White moves first (chess).
    Chess,
}

impl Convention {
    /// `auto`, a game of ours (`ataxx`, `reversi`, `loa`: the registry's names; also
    /// `othello` and `black`) or `chess` (also `white`).
    pub fn parse(s: &str) -> Option<Convention> {
        match s {
            "auto" => Some(Convention::Auto),
            "chess" | "white" => Some(Convention::Chess),
            "black" => Some(Convention::BlackFirst),
            game if black_first_variant(game) => Some(Convention::BlackFirst),
            _ => None,
        }
    }
}

/// True if `variant` (a PGN `Variant` tag) names a game whose first mover is Black.
fn black_first_variant(variant: &str) -> bool {
    let v = variant.trim().to_ascii_lowercase();
    v == "othello" || engine::variant::Variant::from_name(&v).is_some()
}

/// The games read, and one line per file saying what was read and how.
pub struct Loaded {
    /// The games.
    pub pool: Pool,
    /// For stderr: `run.pgn: 120 games, Black moved first (Variant tag "ataxx")`.
    pub notes: Vec<String>,
    /// The games in the order read: (first mover, second mover, first mover's score).
    pub sequence: Vec<(usize, usize, f64)>,
}

/// Counts one game in the pool and the sequence.
fn count(
    pool: &mut Pool,
    seq: &mut Vec<(usize, usize, f64)>,
    first: &str,
    second: &str,
    score: f64,
) {
    let (f, s) = (pool.player(first), pool.player(second));
    pool.add_indices(f, s, score, 1);
    seq.push((f, s, score));
}

/// Reads every path: a results file (any name but `*.pgn`), a PGN file, or a
/// directory (its results files `*.jsonl`; without any, its `*.pgn` files). A game of a
/// run already read from another results file (same run identity and id: a merged
/// file beside its shards) counts once.
pub fn load(paths: &[PathBuf], convention: Convention) -> Result<Loaded, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file())
                .collect();
            entries.sort();
            let ext = |f: &Path, x: &str| f.extension().is_some_and(|e| e == x);
            let results: Vec<PathBuf> = entries
                .iter()
                .filter(|f| ext(f, "jsonl"))
                .cloned()
                .collect();
            let chosen = if results.is_empty() {
                entries.into_iter().filter(|f| ext(f, "pgn")).collect()
            } else {
                results
            };
            if chosen.is_empty() {
                return Err(format!(
                    "{}: no results files (*.jsonl) or PGN files (*.pgn) in the directory",
                    p.display()
                ));
            }
            files.extend(chosen);
        } else {
            files.push(p.clone());
        }
    }
    let mut pool = Pool::default();
    let mut notes = Vec::new();
    let mut seq = Vec::new();
    let mut seen_files = HashSet::new();
    let mut seen_games: HashSet<(String, u64)> = HashSet::new();
    for f in files {
        let canonical = f.canonicalize().unwrap_or_else(|_| f.clone());
        if !seen_files.insert(canonical) {
            continue;
        }
        let bytes = std::fs::read(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let is_pgn =
            f.extension().is_some_and(|e| e == "pgn") || text.trim_start().starts_with('[');
        let note = if is_pgn {
            read_pgn(&text, convention, &mut pool, &mut seq)
                .map_err(|e| format!("{}: {e}", f.display()))?
        } else {
            read_results(&text, &mut pool, &mut seq, &mut seen_games)
                .map_err(|e| format!("{}: {e}", f.display()))?
        };
        notes.push(format!("{}: {note}", f.display()));
    }
    Ok(Loaded {
        pool,
        notes,
        sequence: seq,
    })
}

/// The run identity of a results line, if any.
#[derive(serde::Deserialize)]
struct RunOf {
    run: Option<RunId>,
}

#[derive(serde::Deserialize)]
struct RunId {
    id: String,
}

/// A results file: every well-formed line once per (run, id).
fn read_results(
    text: &str,
    pool: &mut Pool,
    seq: &mut Vec<(usize, usize, f64)>,
    seen: &mut HashSet<(String, u64)>,
) -> Result<String, String> {
    let (mut read, mut skipped, mut twice) = (0u64, 0u64, 0u64);
    let mut ids = HashSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some(rec) = GameRecord::from_json(line) else {
            skipped += 1;
            continue;
        };
        // Within a file the first record of an id counts (as `-resume` reads it).
        if !ids.insert(rec.id) {
            twice += 1;
            continue;
        }
        if let Some(run) = serde_json::from_str::<RunOf>(line).ok().and_then(|r| r.run) {
            if !seen.insert((run.id, rec.id)) {
                twice += 1;
                continue;
            }
        }
        count(
            pool,
            seq,
            &rec.players[0],
            &rec.players[1],
            rec.result.first_score(),
        );
        read += 1;
    }
    if read == 0 && twice == 0 {
        return Err("no game records (a results file has one JSON object per line)".into());
    }
    let mut note = format!("{read} games (results file: players[0] moved first)");
    if twice > 0 {
        note.push_str(&format!(
            ", {twice} already read (same run and id) not counted again"
        ));
    }
    if skipped > 0 {
        note.push_str(&format!(", {skipped} unreadable lines skipped"));
    }
    Ok(note)
}

/// A PGN file in the given convention (or each game's by its `Variant` tag).
fn read_pgn(
    text: &str,
    convention: Convention,
    pool: &mut Pool,
    seq: &mut Vec<(usize, usize, f64)>,
) -> Result<String, String> {
    let games = pgn::read(text)?;
    let (mut black_first, mut chess, mut unfinished) = (0u64, 0u64, 0u64);
    let mut variants: Vec<String> = Vec::new();
    for g in &games {
        let result = g
            .tag("Result")
            .or(g.result.as_deref())
            .and_then(GameResult::parse);
        let (Some(result), Some(white), Some(black)) = (result, g.tag("White"), g.tag("Black"))
        else {
            unfinished += 1;
            continue;
        };
        let variant = g.tag("Variant").unwrap_or("");
        let first_is_black = match convention {
            Convention::BlackFirst => true,
            Convention::Chess => false,
            Convention::Auto => black_first_variant(variant),
        };
        if !variant.is_empty() && !variants.iter().any(|v| v == variant) {
            variants.push(variant.to_string());
        }
        let (first, second) = if first_is_black {
            black_first += 1;
            (black, white)
        } else {
            chess += 1;
            (white, black)
        };
        count(pool, seq, first, second, result.first_score());
    }
    if black_first + chess == 0 {
        return Err("no finished games (White, Black and a result 1-0, 0-1 or 1/2-1/2)".into());
    }
    let why = match convention {
        Convention::Auto if variants.is_empty() => "no Variant tag".to_string(),
        Convention::Auto => format!(
            "Variant tag {}",
            variants
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => "as told by --pgn".to_string(),
    };
    let mut note = match (black_first, chess) {
        (b, 0) => format!("{b} games, Black moved first (Ataxx/Othello convention; {why})"),
        (0, c) => format!("{c} games, White moved first (chess convention; {why})"),
        (b, c) => format!(
            "{} games: {b} with Black moving first (Ataxx/Othello convention), {c} with White \
             (chess convention; {why})",
            b + c
        ),
    };
    if unfinished > 0 {
        note.push_str(&format!(", {unfinished} without a result skipped"));
    }
    Ok(note)
}

//! `tune datagen-merge --out FILE IN...`: the files of `tune datagen` (a sharded run's
//! shards, or several runs) as one training file.
//!
//! The games are concatenated in the order given, each game once: a game that is the
//! same as one before it (the same start, the same moves: a shard rerun by hand, or one
//! file given twice) is dropped. The report says how many games and positions came in
//! and went out, how many of the positions are distinct (from the side to move's view,
//! the board's eight symmetries counted as one: the rules and the network treat them
//! alike) and so how many repeat, and, from the generators' `IN.stats` lines, positions
//! per second per core. Positions that repeat are kept here (each carries its own game's
//! result); `tune window` merges them when it reads the file.

use super::datagen::{self, Game, MAGIC};
use super::games_file::{Record, Stats};
use super::nnue::canonical;
use engine::games::ataxx::Position;
use std::collections::HashSet;
use std::io::Write;

/// `tune datagen-merge --out FILE IN...`.
pub fn run(args: &[&str]) -> Result<(), String> {
    let (out, inputs) = match args {
        ["--out", out, inputs @ ..] if !inputs.is_empty() => (*out, inputs),
        _ => return Err("usage: tune datagen-merge --out FILE IN...".into()),
    };
    if inputs.contains(&out) {
        return Err(format!(
            "{out} is also an input: write the merge to a new file"
        ));
    }
    let mut merged = Merge::default();
    for file in inputs {
        let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        let (games, len) = datagen::decode(&bytes).map_err(|e| format!("{file}: {e}"))?;
        if len < bytes.len() {
            eprintln!("{file}: a cut last record left out");
        }
        let (kept, dropped) = merged.add(games);
        eprintln!("{file}: {kept} games kept, {dropped} already merged");
        merged.add_stats(&format!("{file}.stats"))?;
    }
    let mut bytes = MAGIC.to_vec();
    for g in &merged.games {
        g.encode(&mut bytes);
    }
    let mut f = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    f.write_all(&bytes).map_err(|e| format!("{out}: {e}"))?;
    println!("{}", merged.report(out));
    Ok(())
}

/// The games merged so far and what the report needs.
#[derive(Default)]
struct Merge {
    games: Vec<Game>,
    /// Each kept game's moves and start, hashed.
    seen: HashSet<u64>,
    games_in: usize,
    positions_in: usize,
    /// Distinct positions (canonical, side to move's view), hashed.
    distinct: HashSet<u64>,
    /// The generators' runs, from the `.stats` files beside the inputs.
    made: Stats,
    stats_files: usize,
}

impl Merge {
    /// Adds `games`, dropping those already merged: (kept, dropped).
    fn add(&mut self, games: Vec<Game>) -> (usize, usize) {
        let (mut kept, mut dropped) = (0, 0);
        for g in games {
            self.games_in += 1;
            self.positions_in += g.plies.len();
            if !self.seen.insert(game_key(&g)) {
                dropped += 1;
                continue;
            }
            let mut pos = g.start.clone();
            for &(mv, _) in &g.plies {
                self.distinct.insert(position_key(&pos));
                pos.make_move(mv);
            }
            self.games.push(g);
            kept += 1;
        }
        (kept, dropped)
    }

    /// Adds the runs a generator logged in `path`, if it exists.
    fn add_stats(&mut self, path: &str) -> Result<(), String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("{path}: {e}")),
        };
        self.stats_files += 1;
        for (n, line) in text.lines().enumerate() {
            let s = Stats::parse(line)
                .ok_or_else(|| format!("{path} line {}: not a stats line", n + 1))?;
            self.made.games += s.games;
            self.made.positions += s.positions;
            // Core-seconds: each run's time on each of its threads.
            self.made.seconds += s.seconds * s.threads as f64;
        }
        Ok(())
    }

    fn report(&self, out: &str) -> String {
        let positions_out: usize = self.games.iter().map(|g| g.plies.len()).sum();
        let distinct = self.distinct.len();
        let repeats = positions_out - distinct.min(positions_out);
        let mut r = format!(
            "{out}: {} games, {positions_out} positions ({} games, {} positions in; {} repeated games dropped)\n\
             distinct positions (side to move's view, symmetries as one): {distinct}; repeats {repeats} ({:.1} %)",
            self.games.len(),
            self.games_in,
            self.positions_in,
            self.games_in - self.games.len(),
            100.0 * repeats as f64 / positions_out.max(1) as f64,
        );
        if self.made.seconds > 0.0 {
            r.push_str(&format!(
                "\nmade: {} positions in {:.1} core-seconds ({} stats files): {:.0} positions per second per core",
                self.made.positions,
                self.made.seconds,
                self.stats_files,
                self.made.positions as f64 / self.made.seconds
            ));
        }
        r
    }
}

/// A game's start and moves, hashed (its index, the record's first 4 bytes, left out:
/// the same game from two files).
fn game_key(g: &Game) -> u64 {
    let mut bytes = Vec::with_capacity(32 + 4 * g.plies.len());
    g.encode(&mut bytes);
    tournament::matchmaking::shard::fnv1a64(&bytes[4..])
}

fn position_key(pos: &Position) -> u64 {
    let us = pos.side_to_move();
    let (a, b, c) = canonical(pos.pieces(us), pos.pieces(us.opponent()), pos.gaps());
    let m = |x: u64, y: u64| engine::rng::mix(x, y);
    m(m(a, b), c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two shards of a run hold different games, together the unsharded run's; a
    /// merge of them (one given twice) holds each game once.
    #[test]
    fn shards_split_a_run_and_merge_back() {
        let dir = std::env::temp_dir().join(format!("tune-shards-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let run = |out: String, shard: Option<&str>| {
            let mut args = vec![
                "--out", &out, "--games", "6", "--nodes", "150", "--seed", "5",
            ];
            if let Some(s) = shard {
                args.extend(["--shard", s]);
            }
            datagen::run(&datagen::parse_args(&args).unwrap()).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            datagen::decode(&bytes).unwrap().0
        };
        let whole = run(file("whole.bin"), None);
        let first = run(file("s0.bin"), Some("0/2"));
        let second = run(file("s1.bin"), Some("1/2"));
        let indices = |g: &[Game]| g.iter().map(|g| g.index).collect::<Vec<_>>();
        assert_eq!(indices(&first), [0, 2, 4]);
        assert_eq!(indices(&second), [1, 3, 5]);
        let key = |g: &[Game]| g.iter().map(game_key).collect::<HashSet<_>>();
        assert!(key(&first).is_disjoint(&key(&second)));
        let mut both = key(&first);
        both.extend(key(&second));
        assert_eq!(both, key(&whole));
        // Each shard's run is logged for the merge's speed figure.
        let stats = std::fs::read_to_string(file("s0.bin.stats")).unwrap();
        assert_eq!(
            Stats::parse(stats.lines().next().unwrap()).unwrap().games,
            3
        );
        let mut m = Merge::default();
        assert_eq!(m.add(first), (3, 0));
        assert_eq!(m.add(second), (3, 0));
        let again = datagen::decode(&std::fs::read(file("s0.bin")).unwrap())
            .unwrap()
            .0;
        assert_eq!(m.add(again), (0, 3));
        m.add_stats(&file("s0.bin.stats")).unwrap();
        assert_eq!(key(&m.games), key(&whole));
        let report = m.report("merged.bin");
        assert!(report.starts_with("merged.bin: 6 games"), "{report}");
        assert!(report.contains("3 repeated games dropped"), "{report}");
        assert!(report.contains("positions per second per core"), "{report}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

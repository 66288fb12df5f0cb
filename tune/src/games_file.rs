//! The resumable game files of `tune datagen` (Ataxx) and `tune reversi-games`: games
//! played on several threads, each a function of its index alone, appended whole as
//! they finish. A cut run is resumed by reading the file back, dropping a cut last
//! record and playing only the indices not in it.
//!
//! A run can be split into shards (`--shard I/N`, or `auto/N` on a Slurm job array or a
//! Kubernetes Indexed Job, as the tournament runner's `-shard` reads it): shard I
//! plays the indices `i ≡ I (mod N)` of the run into its own file. Game `i` is the same
//! game whichever shard plays it, so the shards of a run never replay each other's
//! games and their files together hold the unsharded run's (`tune datagen-merge`).
//! Each run of the generator appends one line to `OUT.stats` (games, positions,
//! seconds, threads), from which the merge reports positions per second per core.

use engine::rng::{mix, SplitMix64};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Seek, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tournament::config::ShardSpec;

/// One game as a file stores it.
pub trait Record {
    /// Its index in the run.
    fn index(&self) -> u32;
    /// Its positions (plies).
    fn plies(&self) -> usize;
    /// Appends its bytes.
    fn encode(&self, out: &mut Vec<u8>);
}

/// A file's records after its 8-byte `magic` (else an error naming the file as `what`):
/// each is `header` bytes, from which `plies_in` reads the number of plies, then that
/// many plies of `ply` bytes. Returns each whole record (header and plies) and the
/// length of the complete part: a record cut by a kill is left out.
pub fn records<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    what: &str,
    header: usize,
    ply: usize,
    plies_in: impl Fn(&[u8]) -> usize,
) -> Result<(Vec<&'a [u8]>, usize), String> {
    if bytes.len() < 8 || bytes[..8] != magic[..] {
        let name = String::from_utf8_lossy(magic);
        return Err(format!("not {what} (no {name})"));
    }
    let (mut out, mut at) = (Vec::new(), 8);
    while at + header <= bytes.len() {
        let len = header + ply * plies_in(&bytes[at..at + header]);
        if at + len > bytes.len() {
            break;
        }
        out.push(&bytes[at..at + len]);
        at += len;
    }
    Ok((out, at))
}

/// The little-endian `u64` at byte `i` of `b`.
pub fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

/// The settings every game-file generator takes: `--out FILE --games N [--nodes N]
/// [--threads T] [--seed S] [--seconds S] [--shard I/N|auto/N]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub out: String,
    pub games: u32,
    /// Nodes a move.
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Stop starting games after this long.
    pub seconds: Option<u64>,
    /// This file's shard of the run's games (`--shard`).
    pub shard: Option<ShardSpec>,
}

impl Settings {
    /// Parses `args`, `--nodes` defaulting to `nodes`; the generator's own options go to
    /// `own`, which returns what follows one it knows and `None` for an unknown or bad
    /// one. `None` unless `--out` and a positive `--games` are given.
    pub fn parse<'a, 'b>(
        nodes: u64,
        mut args: &'a [&'b str],
        mut own: impl FnMut(&'a [&'b str]) -> Option<&'a [&'b str]>,
    ) -> Option<Settings> {
        let mut s = Settings {
            out: String::new(),
            games: 0,
            nodes,
            threads: 1,
            seed: 1,
            seconds: None,
            shard: None,
        };
        loop {
            args = match args {
                ["--out", v, rest @ ..] => {
                    s.out = v.to_string();
                    rest
                }
                ["--games", v, rest @ ..] => {
                    s.games = v.parse().ok()?;
                    rest
                }
                ["--nodes", v, rest @ ..] => {
                    s.nodes = v.parse().ok().filter(|&n| n > 0)?;
                    rest
                }
                ["--threads", v, rest @ ..] => {
                    s.threads = v.parse().ok().filter(|t| (1..=256).contains(t))?;
                    rest
                }
                ["--seed", v, rest @ ..] => {
                    s.seed = v.parse().ok()?;
                    rest
                }
                ["--seconds", v, rest @ ..] => {
                    s.seconds = Some(v.parse().ok()?);
                    rest
                }
                ["--shard", v, rest @ ..] => {
                    s.shard = Some(ShardSpec::parse(&[v.to_string()]).ok()?);
                    rest
                }
                [] => break,
                _ => own(args)?,
            };
        }
        (!s.out.is_empty() && s.games > 0).then_some(s)
    }
}

/// The random numbers of game `index` of a run seeded `seed`: a hashed start, so games
/// draw unrelated streams. (Data files up to round 11 started game `i` at `seed ^ i·γ`,
/// `γ` SplitMix64's own increment: game `i + 8`'s stream was game `i`'s shifted by
/// eight draws, and about one game in eight replayed another.)
pub fn game_rng(seed: u64, index: u32) -> SplitMix64 {
    SplitMix64::new(mix(seed, u64::from(index)))
}

/// Plays the games of `run` not yet in its file (which starts with `magic`): each
/// thread makes its state with `state`, then plays indices with `play`. `decode` reads
/// a file's bytes back into its records and the length of their complete part.
pub fn play_all<R: Record, S>(
    run: &Settings,
    magic: &[u8],
    decode: impl Fn(&[u8]) -> Result<(Vec<R>, usize), String>,
    state: impl Fn() -> S + Sync,
    play: impl Fn(u32, &mut S) -> R + Sync,
) -> Result<(), String> {
    let out = run.out.as_str();
    // (index, count): this file plays the run's indices ≡ index (mod count).
    let (shard, shards) = match &run.shard {
        Some(spec) => (spec.resolve(|v| std::env::var(v).ok())?, spec.count),
        None => (0, 1),
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(out)
        .map_err(|e| format!("{out}: {e}"))?;
    let bytes = std::fs::read(out).map_err(|e| format!("{out}: {e}"))?;
    let mut done = HashSet::new();
    let mut positions_before = 0;
    if bytes.is_empty() {
        file.write_all(magic).map_err(|e| e.to_string())?;
    } else {
        let (games, len) = decode(&bytes)?;
        if len < bytes.len() {
            eprintln!("dropping a cut last record ({} bytes)", bytes.len() - len);
            file.set_len(len as u64).map_err(|e| e.to_string())?;
        }
        for g in &games {
            done.insert(g.index());
            positions_before += g.plies();
        }
        eprintln!(
            "resuming: {} games, {positions_before} positions already in {out}",
            games.len()
        );
    }
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| e.to_string())?;
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let (games_made, positions) = (AtomicU64::new(0), AtomicU64::new(0));
    let started = Instant::now();
    let deadline = run.seconds.map(|s| started + Duration::from_secs(s));
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..run.threads {
            scope.spawn(|| {
                let mut s = state();
                let mut buf = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= run.games as usize || deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    if i as u64 % shards != shard || done.contains(&(i as u32)) {
                        continue;
                    }
                    let game = play(i as u32, &mut s);
                    buf.clear();
                    game.encode(&mut buf);
                    let mut f = file.lock().expect("no panics while writing");
                    if let Err(e) = f.write_all(&buf) {
                        *error.lock().expect("no panics") = Some(e.to_string());
                        break;
                    }
                    drop(f);
                    let made = games_made.fetch_add(1, Ordering::Relaxed) + 1;
                    positions.fetch_add(game.plies() as u64, Ordering::Relaxed);
                    if made % 1000 == 0 {
                        eprintln!(
                            "{made} games, {} positions, {:.0} s",
                            positions.load(Ordering::Relaxed),
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().expect("no panics") {
        return Err(format!("{out}: {e}"));
    }
    let secs = started.elapsed().as_secs_f64();
    let (g, p) = (games_made.into_inner(), positions.into_inner());
    let stats = Stats {
        games: g,
        positions: p,
        seconds: secs,
        threads: run.threads,
    };
    append_stats(out, &stats).map_err(|e| format!("{out}.stats: {e}"))?;
    eprintln!(
        "{g} games, {p} positions in {secs:.1} s ({:.0} positions/s) on {} threads; {} positions in {out} now",
        p as f64 / secs.max(1e-9),
        run.threads,
        p as usize + positions_before,
    );
    Ok(())
}

/// What one run of a generator made, as `OUT.stats` keeps it (a line per run).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub games: u64,
    pub positions: u64,
    pub seconds: f64,
    pub threads: usize,
}

impl Stats {
    fn line(&self) -> String {
        format!(
            "games {} positions {} seconds {:.3} threads {}",
            self.games, self.positions, self.seconds, self.threads
        )
    }

    /// Reads a line [`Stats::line`] wrote.
    pub fn parse(line: &str) -> Option<Stats> {
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["games", g, "positions", p, "seconds", s, "threads", t] => Some(Stats {
                games: g.parse().ok()?,
                positions: p.parse().ok()?,
                seconds: s
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s >= 0.0)?,
                threads: t.parse().ok().filter(|&t| t >= 1)?,
            }),
            _ => None,
        }
    }
}

fn append_stats(out: &str, stats: &Stats) -> std::io::Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(format!("{out}.stats"))?;
    writeln!(f, "{}", stats.line())
}

#[cfg(test)]
mod tests {
    use super::{Settings, Stats};

    #[test]
    fn settings_take_the_shared_options_and_pass_on_the_rest() {
        let mut extra = 0;
        let s = Settings::parse(
            7,
            &[
                "--extra",
                "5",
                "--out",
                "f",
                "--games",
                "3",
                "--threads",
                "2",
            ],
            |a| match a {
                ["--extra", v, rest @ ..] => {
                    extra = v.parse().ok()?;
                    Some(rest)
                }
                _ => None,
            },
        );
        let want = Settings {
            out: "f".into(),
            games: 3,
            nodes: 7,
            threads: 2,
            seed: 1,
            seconds: None,
            shard: None,
        };
        assert_eq!((s, extra), (Some(want), 5));
        let sharded = Settings::parse(7, &["--out", "f", "--games", "8", "--shard", "1/4"], |_| {
            None
        })
        .expect("a shard");
        let spec = sharded.shard.expect("the shard");
        assert_eq!((spec.index, spec.count), (Some(1), 4));
        let auto = Settings::parse(
            7,
            &["--out", "f", "--games", "8", "--shard", "auto/3"],
            |_| None,
        )
        .and_then(|s| s.shard)
        .expect("auto");
        assert_eq!((auto.index, auto.count), (None, 3));
        for bad in ["4/4", "x/2", "1", "0/0"] {
            assert_eq!(
                Settings::parse(7, &["--out", "f", "--games", "8", "--shard", bad], |_| None),
                None,
                "{bad}"
            );
        }
        let stats = Stats {
            games: 3,
            positions: 250,
            seconds: 1.5,
            threads: 2,
        };
        assert_eq!(Stats::parse(&stats.line()), Some(stats));
        assert_eq!(Stats::parse("games x"), None);
        let none = |a: &[&str]| Settings::parse(7, a, |_| None);
        assert_eq!(none(&["--out", "f"]), None, "no --games");
        assert_eq!(
            none(&["--out", "f", "--games", "1", "--threads", "0"]),
            None
        );
        assert_eq!(none(&["--out", "f", "--games", "1", "--what"]), None);
    }
}

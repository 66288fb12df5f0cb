//! The resumable game files of `tune datagen` (Ataxx) and `tune reversi-games`: games
//! played on several threads, each a function of its index alone, appended whole as
//! they finish. A cut run is resumed by reading the file back, dropping a cut last
//! record and playing only the indices not in it.

use engine::rng::{mix, SplitMix64};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{Seek, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
/// [--threads T] [--seed S] [--seconds S]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub out: String,
    pub games: u32,
    /// Nodes a move.
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Stop starting games after this long.
    pub seconds: Option<u64>,
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
                    if done.contains(&(i as u32)) {
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
    eprintln!(
        "{g} games, {p} positions in {secs:.1} s ({:.0} positions/s) on {} threads; {} positions in {out} now",
        p as f64 / secs.max(1e-9),
        run.threads,
        p as usize + positions_before,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Settings;

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
        };
        assert_eq!((s, extra), (Some(want), 5));
        let none = |a: &[&str]| Settings::parse(7, a, |_| None);
        assert_eq!(none(&["--out", "f"]), None, "no --games");
        assert_eq!(
            none(&["--out", "f", "--games", "1", "--threads", "0"]),
            None
        );
        assert_eq!(none(&["--out", "f", "--games", "1", "--what"]), None);
    }
}

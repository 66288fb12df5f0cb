//! `tune spsa`: tunes an engine's numeric options (its UAI/UGI spin options: search
//! margins, reductions, time) by simultaneous perturbation stochastic approximation, as
//! Fishtest and OpenBench do, playing the games through the tournament runner.
//!
//! Iteration `k` (1-based, of `N`) draws a sign `Δᵢ = ±1` per parameter from the seed
//! and `k` alone, and plays one colour-swapped pair from one opening of the book between
//! the engine at `θ + cₖΔ` and at `θ − cₖΔ` (each option rounded to an integer and kept
//! within its bounds). With `r` = the first engine's wins less its losses over the pair
//! (−2 … 2), `θᵢ += aₖ · r / (cₖ Δᵢ)`. The gains follow Fishtest's schedule from each
//! parameter's `c_end` and `r_end` (its perturbation and learning rate at the last
//! iteration): `cₖ = c_end · (N / k)^γ`, `aₖ = r_end · c_end² · (A + N)^α / (A + k)^α`,
//! `α = 0.602`, `γ = 0.101`, `A = N / 10`.
//!
//! Iterations run in batches of `--batch`, all of a batch from the θ of its start, so a
//! batch's pairs can be played at once: on `--concurrency` threads here, and spread over
//! shards (`--shard I/N` or `auto/N`, a Slurm job array or a Kubernetes Indexed Job, as
//! the runner's `-shard` reads it), shard `I` playing the batch's iterations `k ≡ I (mod
//! N)`. Everything lives in the run directory `--dir`, which the shards share:
//! - `spsa.conf`: the run's settings; a later start (a resume, another shard) must give
//!   the same ones.
//! - `theta-B.txt`: θ at the start of batch `B` (`NAME VALUE` lines); batch 0's is the
//!   start values.
//! - `results-B-I.txt`: shard `I`'s pairs of batch `B`, a line `k r` each, appended as
//!   each pair ends.
//!
//! Once every pair of batch `B` is in, each shard computes θ for batch `B + 1` from them
//! (in the order of `k`, so every shard gets the same numbers) and the first to finish
//! writes it: there is no coordinator to lose. A killed shard, rerun, plays only the
//! pairs its results file lacks. At fixed nodes the engines are deterministic, so the
//! run's θ is the same however it was sharded or interrupted.

use engine::rng::{mix, SplitMix64};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tournament::config::ShardSpec;
use tournament::output::results::{GameRecord, GameResult};

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
/// How often a shard looks for the other shards' results and the next θ.
const POLL: Duration = Duration::from_millis(500);

/// One tuned option.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration (option units).
    pub c_end: f64,
    /// Learning rate at the last iteration (Fishtest's `r_end`).
    pub r_end: f64,
}

impl Param {
    /// `NAME:START:MIN:MAX:C_END:R_END`.
    fn parse(s: &str) -> Result<Param, String> {
        let bad = || format!("--param {s}: expected NAME:START:MIN:MAX:C_END:R_END");
        let parts: Vec<&str> = s.split(':').collect();
        let [name, rest @ ..] = parts.as_slice() else {
            return Err(bad());
        };
        let nums: Vec<f64> = rest
            .iter()
            .map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        let [start, min, max, c_end, r_end] = nums.as_slice() else {
            return Err(bad());
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let ordered = min <= start && start <= max;
        if !valid_name || !ordered || *c_end <= 0.0 || *r_end <= 0.0 {
            return Err(format!(
                "--param {s}: a name of letters, digits, _ or -; MIN <= START <= MAX; C_END and R_END above 0"
            ));
        }
        Ok(Param {
            name: name.to_string(),
            start: *start,
            min: *min,
            max: *max,
            c_end: *c_end,
            r_end: *r_end,
        })
    }
}

/// `tune spsa`'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub dir: PathBuf,
    pub engine: String,
    pub variant: String,
    pub params: Vec<Param>,
    pub iterations: u64,
    pub batch: u64,
    /// The game's limit for both engines, as the runner's engine words (`nodes=N`,
    /// `tc=…`, `st=…`).
    pub limit: String,
    pub openings: Option<String>,
    pub concurrency: usize,
    pub seed: u64,
    pub shard: Option<ShardSpec>,
    pub tournament: Option<String>,
}

/// The usage line.
pub const USAGE: &str = "--dir DIR --engine CMD --param NAME:START:MIN:MAX:C_END:R_END... \
--iterations N [--batch B] [--nodes N | --tc TC | --st S] [--openings FILE] [--variant NAME] \
[--concurrency T] [--seed S] [--shard I/N|auto/N] [--tournament PATH]";

/// Parses `tune spsa`'s arguments.
pub fn parse_args(mut args: &[&str]) -> Result<Options, String> {
    let mut o = Options {
        dir: PathBuf::new(),
        engine: String::new(),
        // The runner's default game (the registry's first).
        variant: engine::variant::Variant::ALL[0].name().into(),
        params: Vec::new(),
        iterations: 0,
        batch: 8,
        limit: "nodes=5000".into(),
        openings: None,
        concurrency: 1,
        seed: 1,
        shard: None,
        tournament: None,
    };
    let number = |flag: &str, v: &str| -> Result<u64, String> {
        v.parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{flag} {v}: a positive whole number"))
    };
    while let [flag, v, rest @ ..] = args {
        match *flag {
            "--dir" => o.dir = PathBuf::from(v),
            "--engine" => o.engine = v.to_string(),
            "--variant" => o.variant = v.to_string(),
            "--param" => o.params.push(Param::parse(v)?),
            "--iterations" => o.iterations = number(flag, v)?,
            "--batch" => o.batch = number(flag, v)?,
            "--nodes" => o.limit = format!("nodes={}", number(flag, v)?),
            "--tc" => o.limit = format!("tc={v}"),
            "--st" => o.limit = format!("st={v}"),
            "--openings" => o.openings = Some(v.to_string()),
            "--concurrency" => o.concurrency = number(flag, v)?.min(256) as usize,
            "--seed" => {
                o.seed = v
                    .parse()
                    .map_err(|_| format!("--seed {v}: a whole number"))?
            }
            "--shard" => o.shard = Some(ShardSpec::parse(&[v.to_string()])?),
            "--tournament" => o.tournament = Some(v.to_string()),
            _ => return Err(format!("unknown or incomplete option {flag}")),
        }
        args = rest;
    }
    if let [extra, ..] = args {
        return Err(format!("unknown or incomplete option {extra}"));
    }
    if o.dir.as_os_str().is_empty()
        || o.engine.is_empty()
        || o.params.is_empty()
        || o.iterations == 0
    {
        return Err("--dir, --engine, --iterations and at least one --param are needed".into());
    }
    let mut names: Vec<&str> = o.params.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0].eq_ignore_ascii_case(w[1])) {
        return Err("a --param is named twice".into());
    }
    Ok(o)
}

impl Options {
    /// What every start of the run must agree on (not the shard, the threads or the
    /// runner's path).
    fn conf(&self) -> String {
        let mut s = format!(
            "engine {}\nvariant {}\niterations {}\nbatch {}\nlimit {}\nopenings {}\nseed {}\n",
            self.engine,
            self.variant,
            self.iterations,
            self.batch,
            self.limit,
            self.openings.as_deref().unwrap_or("-"),
            self.seed
        );
        for p in &self.params {
            let _ = writeln!(
                s,
                "param {} {} {} {} {} {}",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            );
        }
        s
    }

    fn batches(&self) -> u64 {
        self.iterations.div_ceil(self.batch)
    }
}

/// The gains of iteration `k` (1-based) of `n` for `p`: (c, a).
pub fn gains(p: &Param, k: u64, n: u64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let big_a = n / 10.0;
    let c = p.c_end * (n / k).powf(GAMMA);
    let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA) / (big_a + k).powf(ALPHA);
    (c, a)
}

/// The signs of iteration `k`, one per parameter: a function of the seed and `k`.
pub fn signs(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(mix(seed ^ 0x5350_5341, k));
    (0..n)
        .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
        .collect()
}

/// The options of the two engines of iteration `k` from `theta`: (plus, minus), each
/// rounded to a whole number within its bounds.
pub fn perturbed(o: &Options, theta: &[f64], k: u64) -> (Vec<i64>, Vec<i64>) {
    let delta = signs(o.seed, k, o.params.len());
    let side = |sign: f64| {
        o.params
            .iter()
            .zip(theta)
            .zip(&delta)
            .map(|((p, &t), &d)| {
                let (c, _) = gains(p, k, o.iterations);
                (t + sign * c * d).clamp(p.min, p.max).round() as i64
            })
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// θ after iterations `results` (`k` → `r`, taken in the order of `k`) from `theta`.
pub fn update(o: &Options, theta: &[f64], results: &BTreeMap<u64, i32>) -> Vec<f64> {
    let mut next = theta.to_vec();
    for (&k, &r) in results {
        let delta = signs(o.seed, k, o.params.len());
        for ((t, p), d) in next.iter_mut().zip(&o.params).zip(delta) {
            let (c, a) = gains(p, k, o.iterations);
            *t = (*t + a * f64::from(r) / (c * d)).clamp(p.min, p.max);
        }
    }
    next
}

/// Runs (or resumes) this shard's part of the run, then prints θ's history.
pub fn run(o: &Options) -> Result<(), String> {
    let (shard, shards) = match &o.shard {
        Some(spec) => (spec.resolve(|v| std::env::var(v).ok())?, spec.count),
        None => (0, 1),
    };
    std::fs::create_dir_all(&o.dir).map_err(|e| format!("{}: {e}", o.dir.display()))?;
    agree_on_conf(o)?;
    let runner = runner_path(o)?;
    let book = match &o.openings {
        Some(f) => book_size(f)?,
        None => 0,
    };
    write_once(&theta_path(o, 0), &theta_text(o, &start(o)))?;
    for b in 0..o.batches() {
        let theta = read_theta(o, b)?;
        let first = b * o.batch + 1;
        let last = ((b + 1) * o.batch).min(o.iterations);
        let mine: Vec<u64> = (first..=last).filter(|k| k % shards == shard).collect();
        let results = results_path(o, b, shard);
        drop_cut_line(&results)?;
        let done = read_results(&results)?;
        let todo: Vec<u64> = mine.into_iter().filter(|k| !done.contains_key(k)).collect();
        play_pairs(o, &runner, book, &theta, &todo, &results)?;
        // Every shard's pairs of this batch, then the next θ (any shard may write it).
        let all = loop {
            let mut all = BTreeMap::new();
            for s in 0..shards {
                all.extend(read_results(&results_path(o, b, s))?);
            }
            if (first..=last).all(|k| all.contains_key(&k)) {
                break all;
            }
            std::thread::sleep(POLL);
        };
        let next = update(o, &theta, &all);
        write_once(&theta_path(o, b + 1), &theta_text(o, &next))?;
        let score: i32 = all.values().sum();
        eprintln!(
            "batch {} of {}: iterations {first}-{last}, pairs' score {score:+}",
            b + 1,
            o.batches()
        );
    }
    println!("{}", history(o)?);
    Ok(())
}

fn start(o: &Options) -> Vec<f64> {
    o.params.iter().map(|p| p.start).collect()
}

/// The first start writes `spsa.conf`; every later one must match it.
fn agree_on_conf(o: &Options) -> Result<(), String> {
    let path = o.dir.join("spsa.conf");
    let conf = o.conf();
    write_once(&path, &conf)?;
    let on_disk = read_bounded(&path, 1 << 20)?;
    if on_disk != conf {
        return Err(format!(
            "{} holds another run's settings: give the same ones, or another --dir",
            path.display()
        ));
    }
    Ok(())
}

/// Writes `text` to `path` unless it exists (written whole first, then renamed, so a
/// reader never sees half of it and two writers leave one whole file).
fn write_once(path: &Path, text: &str) -> Result<(), String> {
    if path.exists() {
        return Ok(());
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A file of ours, refused past `limit` bytes (a run directory holds small files).
fn read_bounded(path: &Path, limit: u64) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > limit {
        return Err(format!("{}: larger than {limit} bytes", path.display()));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn theta_path(o: &Options, batch: u64) -> PathBuf {
    o.dir.join(format!("theta-{batch}.txt"))
}

fn results_path(o: &Options, batch: u64, shard: u64) -> PathBuf {
    o.dir.join(format!("results-{batch}-{shard}.txt"))
}

fn theta_text(o: &Options, theta: &[f64]) -> String {
    o.params
        .iter()
        .zip(theta)
        .map(|(p, t)| format!("{} {t}\n", p.name))
        .collect()
}

/// θ at the start of `batch`, waiting for it when another shard is still to write it.
fn read_theta(o: &Options, batch: u64) -> Result<Vec<f64>, String> {
    let path = theta_path(o, batch);
    while !path.exists() {
        std::thread::sleep(POLL);
    }
    let text = read_bounded(&path, 1 << 20)?;
    let values: BTreeMap<&str, f64> = text
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter_map(|(n, v)| Some((n, v.parse().ok()?)))
        .collect();
    o.params
        .iter()
        .map(|p| {
            values
                .get(p.name.as_str())
                .copied()
                .ok_or_else(|| format!("{}: no value of {}", path.display(), p.name))
        })
        .collect()
}

/// A shard's results of a batch, `k → r` (a cut last line is left out: it is played again).
fn read_results(path: &Path) -> Result<BTreeMap<u64, i32>, String> {
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text = read_bounded(path, 64 << 20)?;
    Ok(text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .filter_map(|l| {
            let (k, r) = l.trim().split_once(' ')?;
            Some((
                k.parse().ok()?,
                r.parse().ok().filter(|r: &i32| r.abs() <= 2)?,
            ))
        })
        .collect())
}

/// Cuts a line a kill left half written off the end of this shard's results file, so
/// what is appended next starts a line of its own.
fn drop_cut_line(path: &Path) -> Result<(), String> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(());
    };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    eprintln!("{}: a cut last line dropped", path.display());
    OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(keep as u64))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The runner's binary: `--tournament`, else the `tournament` beside this program.
fn runner_path(o: &Options) -> Result<PathBuf, String> {
    if let Some(p) = &o.tournament {
        return Ok(PathBuf::from(p));
    }
    let me = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let p = me.with_file_name(format!("tournament{}", std::env::consts::EXE_SUFFIX));
    if p.exists() {
        Ok(p)
    } else {
        Err(format!(
            "no runner at {} (give --tournament PATH)",
            p.display()
        ))
    }
}

/// The openings in a book of the runner's own line format (blank and `#` lines aside).
fn book_size(file: &str) -> Result<u64, String> {
    let text = read_bounded(Path::new(file), 256 << 20)?;
    let n = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count() as u64;
    if n == 0 {
        return Err(format!("{file}: no openings"));
    }
    Ok(n)
}

/// Plays the pairs of iterations `todo` from `theta` on `o.concurrency` threads,
/// appending each result to `results` as it ends.
fn play_pairs(
    o: &Options,
    runner: &Path,
    book: u64,
    theta: &[f64],
    todo: &[u64],
    results: &Path,
) -> Result<(), String> {
    let out = Mutex::new(
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(results)
            .map_err(|e| format!("{}: {e}", results.display()))?,
    );
    let next = AtomicUsize::new(0);
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..o.concurrency.min(todo.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = todo.get(i) else { break };
                if error.lock().expect("no panics").is_some() {
                    break;
                }
                let r = play_pair(o, runner, book, theta, k);
                let r = r.and_then(|r| {
                    let mut f = out.lock().expect("no panics");
                    writeln!(f, "{k} {r}")
                        .and_then(|_| f.flush())
                        .map_err(|e| format!("{}: {e}", results.display()))
                });
                if let Err(e) = r {
                    *error.lock().expect("no panics") = Some(e);
                    break;
                }
            });
        }
    });
    match error.into_inner().expect("no panics") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Plays iteration `k`'s pair through the runner: the first engine's wins less losses.
fn play_pair(o: &Options, runner: &Path, book: u64, theta: &[f64], k: u64) -> Result<i32, String> {
    let (plus, minus) = perturbed(o, theta, k);
    let games = o.dir.join(format!("pair-{k}.jsonl"));
    let _ = std::fs::remove_file(&games);
    let engine = |name: &str, values: &[i64]| {
        let mut words = vec![
            "-engine".to_string(),
            format!("cmd={}", o.engine),
            format!("name={name}"),
            o.limit.clone(),
        ];
        for (p, v) in o.params.iter().zip(values) {
            words.push(format!("option.{}={v}", p.name));
        }
        words
    };
    let mut cmd = Command::new(runner);
    cmd.args(["-variant", &o.variant])
        .args(engine("plus", &plus))
        .args(engine("minus", &minus))
        .args(["-games", "2", "-repeat", "-seed"])
        .arg(mix(o.seed, k).to_string())
        .arg("-results")
        .arg(&games);
    if let Some(book_file) = &o.openings {
        // The iteration's opening, drawn from the seed and k.
        let at = 1 + mix(o.seed ^ 0x4f50_454e, k) % book;
        cmd.args([
            "-openings",
            &format!("file={book_file}"),
            &format!("start={at}"),
        ]);
    }
    let run = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", runner.display()))?;
    if !run.status.success() {
        let why = String::from_utf8_lossy(&run.stderr);
        return Err(format!(
            "iteration {k}: the runner failed ({}): {}",
            run.status,
            why.lines().last().unwrap_or("")
        ));
    }
    let text = read_bounded(&games, 16 << 20)?;
    let _ = std::fs::remove_file(&games);
    let records: Vec<GameRecord> = text.lines().filter_map(GameRecord::from_json).collect();
    if records.len() != 2 {
        return Err(format!(
            "iteration {k}: {} games recorded, not 2",
            records.len()
        ));
    }
    Ok(records
        .iter()
        .map(|g| {
            let plus_first = g.players[0] == "plus";
            match (g.result, plus_first) {
                (GameResult::FirstWins, true) | (GameResult::SecondWins, false) => 1,
                (GameResult::FirstWins, false) | (GameResult::SecondWins, true) => -1,
                _ => 0,
            }
        })
        .sum())
}

/// θ at the start of each batch written so far, a line each, and the last as options.
fn history(o: &Options) -> Result<String, String> {
    let mut out = format!("{:>6} {:>10}", "batch", "iteration");
    for p in &o.params {
        let _ = write!(out, " {:>14}", p.name);
    }
    out.push('\n');
    let mut last = start(o);
    for b in 0..=o.batches() {
        if !theta_path(o, b).exists() {
            break;
        }
        last = read_theta(o, b)?;
        let _ = write!(out, "{b:>6} {:>10}", (b * o.batch).min(o.iterations));
        for t in &last {
            let _ = write!(out, " {t:>14.2}");
        }
        out.push('\n');
    }
    out.push_str("tuned:");
    for (p, t) in o.params.iter().zip(&last) {
        let _ = write!(out, " option.{}={}", p.name, t.round() as i64);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Options {
        parse_args(&[
            "--dir",
            "/tmp/x",
            "--engine",
            "ataxx",
            "--param",
            "RFPMargin:150:0:400:20:0.002",
            "--param",
            "LMRAggr:3:0:8:1:0.002",
            "--iterations",
            "100",
        ])
        .unwrap()
    }

    #[test]
    fn arguments_are_checked() {
        let o = options();
        assert_eq!(o.params.len(), 2);
        assert_eq!(
            (o.batch, o.limit.as_str(), o.concurrency),
            (8, "nodes=5000", 1)
        );
        for bad in [
            &["--dir", "d", "--engine", "e", "--iterations", "5"][..],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:1:0.1",
                "--iterations",
                "0",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:3:0:2:1:0.1",
                "--iterations",
                "5",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:0:0.1",
                "--iterations",
                "5",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:1",
                "--iterations",
                "5",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X y:1:0:2:1:1",
                "--iterations",
                "5",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:1:1",
                "--param",
                "x:1:0:2:1:1",
                "--iterations",
                "5",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:1:1",
                "--iterations",
                "5",
                "--what",
            ],
            &[
                "--dir",
                "d",
                "--engine",
                "e",
                "--param",
                "X:1:0:2:1:1",
                "--iterations",
                "5",
                "--shard",
                "2/2",
            ],
        ] {
            assert!(parse_args(bad).is_err(), "{bad:?}");
        }
    }

    /// Fishtest's schedule: at the last iteration the gains are c_end and r_end·c_end².
    #[test]
    fn the_gains_end_at_c_end_and_r_end() {
        let o = options();
        let p = &o.params[0];
        let (c, a) = gains(p, 100, 100);
        assert!((c - 20.0).abs() < 1e-9 && (a - 0.002 * 400.0).abs() < 1e-9);
        let (c1, a1) = gains(p, 1, 100);
        assert!(c1 > c && a1 > a);
    }

    /// The signs are the seed's and k's alone; θ moves towards the side that won, by
    /// a·r/c per parameter, within its bounds.
    #[test]
    fn an_update_moves_towards_the_winner() {
        let o = options();
        assert_eq!(signs(1, 7, 2), signs(1, 7, 2));
        let theta = start(&o);
        let (plus, minus) = perturbed(&o, &theta, 1);
        let d = signs(o.seed, 1, 2);
        for i in 0..2 {
            assert_eq!((plus[i] > minus[i]), d[i] > 0.0, "{plus:?} {minus:?} {d:?}");
        }
        let won = update(&o, &theta, &BTreeMap::from([(1, 2)]));
        for i in 0..2 {
            let (c, a) = gains(&o.params[i], 1, 100);
            let want = (theta[i] + a * 2.0 / (c * d[i])).clamp(o.params[i].min, o.params[i].max);
            assert!((won[i] - want).abs() < 1e-9);
            assert_eq!(won[i] > theta[i], d[i] > 0.0);
        }
        assert_eq!(update(&o, &theta, &BTreeMap::from([(1, 0)])), theta);
    }

    #[test]
    fn results_files_keep_whole_lines_only() {
        let dir = std::env::temp_dir().join(format!("spsa-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("r.txt");
        std::fs::write(&f, "3 1\n4 -2\n9 7\n5 0").unwrap();
        assert_eq!(read_results(&f).unwrap(), BTreeMap::from([(3, 1), (4, -2)]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

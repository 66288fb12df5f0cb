//! Runs spread over machines by a scheduler (`-shard I/N`), and what lets
//! `tournament merge` put them back together.
//!
//! - **Selection.** The full schedule is built exactly as an unsharded run builds it.
//!   Its games are grouped into units, numbered in schedule order: a colour-swapped
//!   pair with `-repeat` (so a shard's pentanomial pairs are whole), else one game.
//!   Shard I plays the units whose number is ≡ I (mod N). Ids, per-game seeds
//!   (`-seed` mixed with the id) and opening slots are the full schedule's, so the N
//!   shards together play the unsharded run's games, game for game.
//! - **Identity.** Every results line carries `"run":{"id":…,"games":…,"engines":[…]}`:
//!   a hash of the settings that decide the games ([`identity`]), the number of games
//!   of the full schedule, and the engines in command-line order. A results file thus
//!   describes its run on its own: a rerun shard (it resumes by itself) refuses a file
//!   of another run or another shard, and the merge refuses mixed files and names the
//!   missing games.
//! - **Early stop** (`dir=DIR`, with `-sprt`): the shards share DIR. After every game a
//!   shard replaces its counts file `DIR/<run>.<I>-of-<N>.json` (written aside, then
//!   renamed over: readers see the old or the new counts, never half); between games,
//!   at most every `poll=` seconds, it sums the counts of all shards and, once the
//!   summed SPRT is decided, publishes `DIR/<run>.sprt` (written aside, then
//!   hard-linked into place, which fails if it exists: the first decision stays). Every
//!   shard stops at its next poll after the decision file appears; one started later
//!   plays nothing. A shard that ends looks once more, whenever it last looked
//!   ([`Shard::last_look`]): with games faster than the poll interval it would
//!   otherwise never look after its first game, and a decision its games complete
//!   would never be written. Without `dir=` a shard plays its whole share: a shard's
//!   own games are a sample of the run, not the run, so its own LLR decides nothing.

/// The public path of [`crate::config::INDEX_VARS`], the variables `-shard auto/N` reads.
pub use crate::config::INDEX_VARS;
use crate::config::{Config, RunError, ShardSpec};
use crate::matchmaking::schedule::GameSpec;
use crate::output::results::GameRecord;
use crate::output::stats::{self, Penta, SprtDecision, SprtSpec, Wdl};
use crate::output::tally::Tally;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The checks and implications of `-shard` on the whole command line: a shard needs
/// its results file (the merge reads it), and always resumes it, so a scheduler's
/// retry of the same command never plays a recorded game again.
pub fn check_config(cfg: &mut Config) -> Result<(), String> {
    if cfg.shard.is_some() {
        if cfg.results.is_none() {
            return Err("-shard needs -results FILE (tournament merge reads it)".into());
        }
        cfg.resume = true;
    }
    Ok(())
}

/// What every results line says of its run (the `run` field).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// [`identity`]: 16 hex digits.
    pub id: String,
    /// Games in the full schedule.
    pub games: u64,
    /// The engines' names in command-line order (engine 1 is the SPRT's tested one).
    pub engines: Vec<String>,
}

/// The `run` field of a results line, read alongside its [`GameRecord`].
#[derive(Deserialize)]
pub struct RunTag {
    /// Missing in lines written before runs had identities.
    #[serde(default)]
    pub run: Option<RunInfo>,
}

/// The run identity: FNV-1a (64 bits) of the settings that decide which games are
/// played and how: the configuration with everything else cleared (where the output
/// goes, concurrency, the SPRT, resuming, reporting, PGN tags, `-recover`, the shard,
/// `-check`),
/// and the openings file replaced by its length and content hash (so the same book at
/// another path on another node is the same run). Everything else is in: the game,
/// every engine as configured (name, command, arguments, directory, protocol, options,
/// limits), tournament kind, rounds, games, `-repeat`, the openings' keys, the seed,
/// `-maxmoves` and the adjudications. It is the text of Rust's `Debug` of the cleared
/// configuration, so a setting added later is in without a change here; one that does
/// not decide the games must be cleared below. Shards of one run use one build.
pub fn identity(cfg: &Config) -> Result<String, String> {
    let mut settings = Config {
        concurrency: 0,
        sprt: None,
        pgnout: None,
        epdout: None,
        event: String::new(),
        site: String::new(),
        results: None,
        resume: false,
        recover: false,
        log: None,
        debug: false,
        rating_interval: 0,
        wait_ms: 0,
        score_interval: 0,
        affinity: None,
        report: false,
        penta: false,
        latency: false,
        report_html: None,
        shard: None,
        check: false,
        output: crate::config::OutputFormat::Default,
        ..cfg.clone()
    };
    if let Some(o) = settings.openings.as_mut() {
        let bytes =
            std::fs::read(&o.file).map_err(|e| format!("cannot read {}: {e}", o.file.display()))?;
        o.file = PathBuf::from(format!("{} bytes {:016x}", bytes.len(), fnv1a64(&bytes)));
        // Allowing replays changes whether a run starts, not its games.
        o.allow_replays = false;
    }
    Ok(format!(
        "{:016x}",
        fnv1a64(format!("{settings:?}").as_bytes())
    ))
}

/// 64-bit FNV-1a: small, stable across builds and machines (unlike `std`'s hasher).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Each game's unit number: games of one colour-swapped pair share one, every other
/// game has its own; numbered from 0 in schedule order.
pub fn units(schedule: &[GameSpec]) -> Vec<u64> {
    let mut next = 0u64;
    schedule
        .iter()
        .map(|g| {
            if g.pair_key.is_none_or(|k| k == g.id) {
                next += 1;
            }
            next - 1
        })
        .collect()
}

/// The shard's share of the schedule: the games whose unit ≡ `index` (mod `count`).
pub fn select(schedule: &[GameSpec], index: u64, count: u64) -> Vec<GameSpec> {
    schedule
        .iter()
        .zip(units(schedule))
        .filter(|(_, u)| u % count == index)
        .map(|(g, _)| *g)
        .collect()
}

/// Sets the run up before anything is written: computes its [`RunInfo`], checks that
/// the results file (with `-resume`) holds only games of this run, and for a shard
/// that they are all of this shard, then cuts `schedule` down to the shard's share.
/// Returns the info for the results lines and, for a shard, its [`Shard`].
pub fn setup(
    cfg: &Config,
    schedule: &mut Vec<GameSpec>,
) -> Result<(RunInfo, Option<Shard>), RunError> {
    let usage = RunError::Usage;
    let info = RunInfo {
        id: identity(cfg).map_err(usage)?,
        games: schedule.len() as u64,
        engines: cfg.engines.iter().map(|e| e.name.clone()).collect(),
    };
    let shard = match &cfg.shard {
        Some(spec) => Some((
            spec,
            spec.resolve(|v| std::env::var(v).ok()).map_err(usage)?,
        )),
        None => None,
    };
    if let (Some(path), true) = (&cfg.results, cfg.resume) {
        let text = read_resumed(path)?;
        check_resumed(&text, path, &info, shard, &units(schedule))?;
    }
    let Some((spec, index)) = shard else {
        return Ok((info, None));
    };
    let total = schedule.len();
    *schedule = select(schedule, index, spec.count);
    eprintln!(
        "shard {index}/{}: {} of {total} games (run {})",
        spec.count,
        schedule.len(),
        info.id
    );
    Ok((
        info.clone(),
        Some(Shard {
            index,
            count: spec.count,
            run: info.id,
            shared: Shared::new(spec, cfg.sprt),
        }),
    ))
}

/// The text of the results file a `-resume` continues: empty when there is none yet, or
/// when it is not a regular file (as `results::load` reads it; reading a pipe would
/// block).
fn read_resumed(path: &Path) -> Result<String, RunError> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok(String::new());
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(RunError::Runtime(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

/// Refuses a resumed results file with a game of another run, or (for a shard, `shard`
/// being its spec and index) one without a run identity or of another shard; `unit` is
/// each game's unit number ([`units`]).
fn check_resumed(
    text: &str,
    path: &Path,
    info: &RunInfo,
    shard: Option<(&ShardSpec, u64)>,
    unit: &[u64],
) -> Result<(), RunError> {
    let usage = RunError::Usage;
    for line in text.lines() {
        let Some(rec) = GameRecord::from_json(line) else {
            continue;
        };
        let run = serde_json::from_str::<RunTag>(line)
            .ok()
            .and_then(|t| t.run);
        let at = format!("game {} in {}", rec.id, path.display());
        match (&run, shard) {
            (Some(run), _) if run.id != info.id => {
                return Err(usage(format!(
                    "-resume: {at} was played by another run (run {}, this one is {}): \
                     different engines, openings, seed or game settings",
                    run.id, info.id
                )))
            }
            (None, Some(_)) => {
                return Err(usage(format!(
                    "-shard: {at} carries no run identity: not a shard's results file"
                )))
            }
            _ => {}
        }
        if let Some((spec, i)) = shard {
            let u = unit.get(rec.id as usize).copied().unwrap_or(u64::MAX);
            if u % spec.count != i {
                return Err(usage(format!(
                    "-shard {i}/{}: {at} belongs to shard {} (another shard's file?)",
                    spec.count,
                    u % spec.count
                )));
            }
        }
    }
    Ok(())
}

/// A running shard.
pub struct Shard {
    index: u64,
    count: u64,
    run: String,
    shared: Option<Shared>,
}

/// The shared directory of the early stop, and where this shard stands with it.
struct Shared {
    dir: PathBuf,
    sprt: SprtSpec,
    poll: Duration,
    state: Mutex<PollState>,
}

impl Shared {
    /// The early stop's shared directory, when the shard has one (`dir=`) and the run an
    /// SPRT to decide.
    fn new(spec: &ShardSpec, sprt: Option<SprtSpec>) -> Option<Shared> {
        match (&spec.dir, sprt) {
            (Some(dir), Some(sprt)) => Some(Shared {
                // A missing directory is made; one that cannot be is reported at the
                // first write.
                dir: {
                    let _ = std::fs::create_dir_all(dir);
                    dir.clone()
                },
                sprt,
                poll: Duration::from_millis(spec.poll_ms),
                state: Mutex::new(PollState::default()),
            }),
            _ => None,
        }
    }
}

#[derive(Default)]
struct PollState {
    last_poll: Option<Instant>,
    decided: bool,
    warned: bool,
}

/// A shard's counts file: its games of engine 1 against engine 2.
#[derive(Clone, Serialize, Deserialize)]
struct Counts {
    run: String,
    shard: u64,
    shards: u64,
    games: u64,
    /// Engine 1's wins, losses, draws.
    wdl: [u64; 3],
    /// Engine 1's pair scores 0, ½, 1, 1½, 2.
    penta: [u64; 5],
}

impl Counts {
    /// A shard's counts from its own tally.
    fn of(tally: &Tally, run: String, shard: u64, shards: u64) -> Counts {
        let (wdl, penta) = tally.pair(0, 1);
        Counts {
            run,
            shard,
            shards,
            games: tally.games,
            wdl: [wdl.w, wdl.l, wdl.d],
            penta: penta.0,
        }
    }

    /// Several shards' counts summed: engine 1's results and the games.
    fn sum(all: &[Counts]) -> (Wdl, Penta, u64) {
        let (mut wdl, mut penta, mut games) = (Wdl::default(), Penta::default(), 0);
        for c in all {
            wdl.w += c.wdl[0];
            wdl.l += c.wdl[1];
            wdl.d += c.wdl[2];
            for (p, n) in penta.0.iter_mut().zip(c.penta) {
                *p += n;
            }
            games += c.games;
        }
        (wdl, penta, games)
    }
}

/// The decision file.
#[derive(Serialize, Deserialize)]
struct Decision {
    run: String,
    decision: String,
    llr: f64,
    games: u64,
    shards: u64,
    by: u64,
}

impl Shard {
    /// Called between games (and before the first) with the shard's own tally: true
    /// once the run's SPRT is decided, over all shards. Without a shared directory or
    /// `-sprt`, never. Trouble with the directory is reported once and stops nothing.
    pub fn stop(&self, tally: &Tally) -> bool {
        let Some(shared) = &self.shared else {
            return false;
        };
        let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.decided {
            return true;
        }
        let mine = Counts::of(tally, self.run.clone(), self.index, self.count);
        let mut result = self.publish_counts(shared, &mine);
        if state.last_poll.is_none_or(|t| t.elapsed() >= shared.poll) {
            state.last_poll = Some(Instant::now());
            match self.poll(shared, mine) {
                Ok(decided) => state.decided = decided,
                Err(e) => result = result.and(Err(e)),
            }
        }
        if let Err(e) = result {
            if !std::mem::replace(&mut state.warned, true) {
                eprintln!(
                    "shard {}: the early stop is off until this clears: {e}",
                    self.index
                );
            }
        }
        state.decided
    }

    /// The look when the shard ends (its share played, or stopped): its final counts
    /// and the sum over all shards, however recently it last looked, so that a decision
    /// the sum reaches is written for the other shards and the merge.
    pub fn last_look(&self, tally: &Tally) -> bool {
        if let Some(shared) = &self.shared {
            let mut state = shared.state.lock().unwrap_or_else(|e| e.into_inner());
            state.last_poll = None;
        }
        self.stop(tally)
    }

    fn counts_path(&self, dir: &Path, shard: u64) -> PathBuf {
        dir.join(format!("{}.{shard}-of-{}.json", self.run, self.count))
    }

    fn decision_path(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.sprt", self.run))
    }

    fn publish_counts(&self, shared: &Shared, mine: &Counts) -> Result<(), String> {
        let path = self.counts_path(&shared.dir, self.index);
        let text = serde_json::to_string(mine).map_err(|e| e.to_string())? + "\n";
        let tmp = aside(&path, self.index);
        std::fs::write(&tmp, text)
            .and_then(|_| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Looks at the decision file, then sums every shard's counts; publishes the
    /// decision when the sum decides. True if the run is decided.
    fn poll(&self, shared: &Shared, mine: Counts) -> Result<bool, String> {
        let decision = self.decision_path(&shared.dir);
        if decision.exists() {
            return Ok(true);
        }
        let mut found = Vec::new();
        for shard in 0..self.count {
            let counts = if shard == self.index {
                Some(mine.clone())
            } else {
                let path = self.counts_path(&shared.dir, shard);
                std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| serde_json::from_str::<Counts>(&t).ok())
                    .filter(|c| c.run == self.run && c.shard == shard && c.shards == self.count)
            };
            found.extend(counts);
        }
        let (wdl, penta, games) = Counts::sum(&found);
        let llr = stats::match_llr(&wdl, &penta, &shared.sprt);
        let verdict = match stats::sprt_decision(llr, &shared.sprt) {
            SprtDecision::Continue => return Ok(false),
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        };
        let text = serde_json::to_string(&Decision {
            run: self.run.clone(),
            decision: verdict.into(),
            llr,
            games,
            shards: self.count,
            by: self.index,
        })
        .map_err(|e| e.to_string())?
            + "\n";
        publish_first(&decision, &text, self.index)?;
        eprintln!(
            "shard {}: the run's SPRT is decided ({verdict}, LLR {llr:.2} after {games} games of all shards)",
            self.index
        );
        Ok(true)
    }
}

/// A name next to `path` for writing aside, unique to this shard and process (shards
/// on other machines may have the same process id).
fn aside(path: &Path, shard: u64) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(
        ".{}.{shard}-{}.tmp",
        name.unwrap_or_default(),
        std::process::id()
    ))
}

/// Creates `path` holding `text`, whole or not at all, unless it exists: the text is
/// written and synced aside, then hard-linked into place (which fails if the name is
/// taken: the first writer wins). Where hard links are not supported it is renamed
/// into place instead (still whole, but the last writer wins).
fn publish_first(path: &Path, text: &str, shard: u64) -> Result<(), String> {
    let tmp = aside(path, shard);
    let err = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let mut f = std::fs::File::create(&tmp).map_err(err)?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.sync_all())
        .map_err(err)?;
    drop(f);
    let linked = std::fs::hard_link(&tmp, path);
    let result = match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(_) => std::fs::rename(&tmp, path).map_err(err),
    };
    let _ = std::fs::remove_file(&tmp);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchmaking::schedule::{self, OpeningPolicy, TournamentKind};
    use crate::testing::words;

    /// The shards' summed counts give the LLR that the tally of all their games gives
    /// ([`Tally::llr`]): with colour-swapped pairs (pentanomial) and without
    /// (trinomial), whole pairs to a shard as the schedule gives them.
    #[test]
    fn summed_shard_counts_give_the_tally_s_llr() {
        let spec = SprtSpec {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: stats::SprtModel::Normalized,
        };
        let names = || vec!["a".to_string(), "b".to_string()];
        // The first engine's results, game by game: 1 win, 0 loss, 2 draw.
        let games = "1120112021102211012211102011201";
        for paired in [true, false] {
            let mut union = Tally::new(names());
            let mut shards: [Tally; 3] = std::array::from_fn(|_| Tally::new(names()));
            for (id, r) in games.bytes().enumerate() {
                let id = id as u64;
                let swap = paired && id % 2 == 1;
                let players = if swap { ["b", "a"] } else { ["a", "b"] };
                let result = match (r, swap) {
                    (b'1', false) | (b'0', true) => "1-0",
                    (b'0', false) | (b'1', true) => "0-1",
                    _ => "1/2-1/2",
                };
                let rec: GameRecord = serde_json::from_value(serde_json::json!({
                    "id": id,
                    "players": players,
                    "result": result,
                    "reason": "board full",
                    "moves": [],
                    "pair": if paired { Some(id / 2 * 2) } else { None },
                }))
                .unwrap();
                union.add(&rec);
                shards[(id / 2 % 3) as usize].add(&rec);
            }
            let counts: Vec<Counts> = (0..3)
                .map(|i| Counts::of(&shards[i], "r".into(), i as u64, 3))
                .collect();
            let (wdl, penta, n) = Counts::sum(&counts);
            assert_eq!(n, union.games);
            assert_eq!(penta.pairs() > 0, paired);
            let llr = union.llr(&spec);
            assert!(llr.is_finite() && llr != 0.0, "{llr}");
            assert_eq!(
                stats::match_llr(&wdl, &penta, &spec),
                llr,
                "paired: {paired}"
            );
        }
    }

    #[test]
    fn shards_partition_the_schedule_and_keep_pairs_whole() {
        for (repeat, games) in [(true, 4), (true, 3), (false, 3)] {
            let s = schedule::build(
                3,
                TournamentKind::RoundRobin,
                5,
                games,
                repeat,
                OpeningPolicy::Shared,
            );
            for n in [1, 2, 3, 7] {
                let mut seen = vec![0; s.len()];
                for i in 0..n {
                    let share = select(&s, i, n);
                    for g in &share {
                        seen[g.id as usize] += 1;
                        if let Some(k) = g.pair_key {
                            assert!(share.iter().any(|o| o.id == k), "pair {k} split");
                        }
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "{repeat} {games} {n}");
            }
        }
        // Units: pairs with -repeat, the odd game out alone.
        let s = schedule::build(
            2,
            TournamentKind::RoundRobin,
            2,
            3,
            true,
            OpeningPolicy::Shared,
        );
        assert_eq!(units(&s), [0, 0, 1, 2, 2, 3]);
        let ids = |i| select(&s, i, 2).iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!((ids(0), ids(1)), (vec![0, 1, 3, 4], vec![2, 5]));
    }

    #[test]
    fn a_shard_needs_its_results_file_and_resumes_it() {
        let two = "-engine builtin=greedy -engine builtin=random";
        let parse = |s: &str| crate::cli::parse(&words(&format!("{two} {s}")));
        let e = parse("-shard 0/2").unwrap_err();
        assert!(e.contains("-shard needs -results"), "{e}");
        let Ok(crate::cli::Command::Run(c)) = parse("-shard auto/2 dir=d -results r.jsonl") else {
            panic!("refused");
        };
        assert!(c.resume);
        assert_eq!(c.shard.map(|s| (s.index, s.count)), Some((None, 2)));
        assert!(parse("-shard 2/2 -results r.jsonl").is_err());
    }

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn identity_follows_the_games_not_the_output() {
        let cfg = |s: &str| match crate::cli::parse(&words(s)).unwrap() {
            crate::cli::Command::Run(c) => *c,
            _ => unreachable!(),
        };
        let base = "-engine builtin=greedy -engine builtin=random -games 2 -rounds 3 -repeat";
        let id = |s: &str| identity(&cfg(&format!("{base} {s}"))).unwrap();
        let plain = id("");
        assert_eq!(plain.len(), 16);
        for same in [
            "-concurrency 2",
            "-results r.jsonl -pgnout g.pgn -report",
            "-sprt elo0=0 elo1=5",
            "-shard 1/4 -results r.jsonl",
            "-event X -site Y -recover -ratinginterval 5",
            "-report penta=false",
        ] {
            assert_eq!(id(same), plain, "{same}");
        }
        for other in ["-seed 2", "-rounds 4", "-maxmoves 50", "-variant reversi"] {
            assert_ne!(id(other), plain, "{other}");
        }
        assert_ne!(
            identity(&cfg(
                "-engine builtin=random -engine builtin=greedy -games 2 -rounds 3 -repeat"
            ))
            .unwrap(),
            plain,
            "engine order"
        );
    }

    #[test]
    fn the_first_decision_stays() {
        let dir = std::env::temp_dir().join(format!("tournament-shard-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.sprt");
        publish_first(&path, "first\n", 0).unwrap();
        publish_first(&path, "second\n", 1).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first\n");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no file left aside");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The run: builds the schedule, skips what the results file already holds, plays
//! the rest on worker threads (one process per engine per worker, reused across games),
//! records each game the moment it ends, keeps the statistics and the progress line,
//! and stops early when the SPRT decides.

use crate::builtin::Builtin;
use crate::engine_process::Launch;
use crate::openings::{Book, OpeningsSpec};
use crate::pgn::PgnWriter;
use crate::player::{EngineKind, EngineSpec, Player, Proto};
use crate::referee::{self, Adjudication, Match, Played};
use crate::results::{self, GameRecord, ResultsWriter};
use crate::schedule::{self, GameSpec, TournamentKind};
use crate::stats::{self, Penta, SprtDecision, SprtModel, SprtSpec, Wdl};
use crate::text_client::TextClient;
use crate::uci_client::UciClient;
use engine::game::{GameIo, RuleSet};
use engine::games::Variant;
use engine::protocol::text::TextProtocol;
use engine::protocol::uci::Dialect;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// A complete run configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The game played (`-variant`).
    pub variant: Variant,
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Round robin or gauntlet.
    pub tournament: TournamentKind,
    /// Games per encounter (per pair per round).
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Play each opening twice with colours swapped.
    pub repeat: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings (`None`: the start position).
    pub openings: Option<OpeningsSpec>,
    /// Sequential probability ratio test.
    pub sprt: Option<SprtSpec>,
    /// PGN output file.
    pub pgnout: Option<PathBuf>,
    /// JSON-lines results file.
    pub results: Option<PathBuf>,
    /// Continue from the results file.
    pub resume: bool,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// Restart crashed engines instead of stopping the run.
    pub recover: bool,
    /// Seed for openings order, built-in players and text engines.
    pub seed: u64,
    /// Material adjudication.
    pub adjudicate: Option<Adjudication>,
}

/// Why a run could not be carried out.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    /// A problem with what the user asked for (exit status 2).
    Usage(String),
    /// A problem while running (exit status 1).
    Runtime(String),
}

/// Per engine pair (a < b), from a's point of view.
#[derive(Clone, Debug, Default)]
struct PairTally {
    wdl: Wdl,
    penta: Penta,
    /// First finished game of each colour-swapped pair: a's score in it.
    open_pairs: HashMap<u64, f64>,
}

/// Everything the statistics are computed from.
#[derive(Clone, Debug)]
pub struct Tally {
    names: Vec<String>,
    per_engine: Vec<Wdl>,
    pairs: HashMap<(usize, usize), PairTally>,
    /// Games counted.
    pub games: u64,
}

impl Tally {
    /// An empty tally for these engines.
    pub fn new(names: Vec<String>) -> Tally {
        Tally {
            per_engine: vec![Wdl::default(); names.len()],
            names,
            pairs: HashMap::new(),
            games: 0,
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Counts one game (records whose players are unknown are ignored).
    pub fn add(&mut self, rec: &GameRecord) {
        let (Some(f), Some(s)) = (self.index(&rec.players[0]), self.index(&rec.players[1])) else {
            return;
        };
        let first_score = rec.result.first_score();
        self.per_engine[f].add(first_score);
        self.per_engine[s].add(1.0 - first_score);
        let (a, b, a_score) = if f < s {
            (f, s, first_score)
        } else {
            (s, f, 1.0 - first_score)
        };
        let t = self.pairs.entry((a, b)).or_default();
        t.wdl.add(a_score);
        if let Some(key) = rec.pair_key {
            if let Some(other) = t.open_pairs.remove(&key) {
                t.penta.add(other + a_score);
            } else {
                t.open_pairs.insert(key, a_score);
            }
        }
        self.games += 1;
    }

    /// The results of engine `a` against engine `b` (`a < b`).
    pub fn pair(&self, a: usize, b: usize) -> (Wdl, Penta) {
        self.pairs
            .get(&(a, b))
            .map(|t| (t.wdl, t.penta))
            .unwrap_or_default()
    }

    /// The LLR of engine 0 against engine 1 (pentanomial when pairs exist).
    pub fn llr(&self, spec: &SprtSpec) -> f64 {
        let (wdl, penta) = self.pair(0, 1);
        if penta.pairs() > 0 {
            stats::llr(&penta.distribution(), 2.0, spec)
        } else {
            stats::llr(&wdl.distribution(), 1.0, spec)
        }
    }
}

/// A player for `spec`. The box lives no longer than the run (`'a`): the text client
/// carries the game's text language `D`, which need not be `'static`.
fn make_player<'a, G: GameIo, D: TextProtocol<Game = G> + 'a>(
    spec: &EngineSpec,
) -> Box<dyn Player<G> + 'a> {
    let init = Duration::from_millis(spec.init_timeout_ms);
    let uci = |dialect, launch: &Launch| -> Box<dyn Player<G> + 'a> {
        Box::new(UciClient::new(
            dialect,
            launch.clone(),
            spec.options.clone(),
            init,
        ))
    };
    match (&spec.kind, spec.proto::<G>()) {
        (EngineKind::Builtin(kind), _) => Box::new(Builtin::new(*kind)),
        (EngineKind::Process { launch, .. }, Some(Proto::Text)) => {
            Box::new(TextClient::<D>::new(launch.clone(), init))
        }
        (EngineKind::Process { launch, .. }, Some(Proto::Ugi)) => uci(Dialect::Ugi, launch),
        (EngineKind::Process { launch, .. }, _) => uci(Dialect::Uai, launch),
    }
}

/// The progress line: games done, score, Elo and LLR.
fn progress_line(cfg: &Config, tally: &Tally, total: usize, last: &GameRecord) -> String {
    let mut s = format!("[{}/{}]", tally.games, total);
    if cfg.engines.len() == 2 {
        let (wdl, _) = tally.pair(0, 1);
        s.push_str(&format!(
            " {} vs {}: {} - {} - {}",
            cfg.engines[0].name, cfg.engines[1].name, wdl.w, wdl.l, wdl.d
        ));
        if let Some(e) = stats::trinomial(&wdl) {
            s.push_str(&format!(
                " [{:.3}] Elo {} ± {}",
                e.score,
                stats::fmt_elo(e.elo),
                stats::fmt_elo(e.elo_error)
            ));
        }
        if let Some(spec) = &cfg.sprt {
            let (lo, hi) = stats::sprt_bounds(spec);
            s.push_str(&format!(" LLR {:.2} ({lo:.2}, {hi:.2})", tally.llr(spec)));
        }
    } else {
        s.push_str(&format!(
            " game {}: {} - {} {}",
            last.id + 1,
            last.players[0],
            last.players[1],
            last.result.as_str()
        ));
    }
    s
}

/// The final report.
pub fn report(cfg: &Config, tally: &Tally) -> String {
    let mut out = String::new();
    let n = cfg.engines.len();
    let pair_lines = |a: usize, b: usize, out: &mut String| {
        let (wdl, penta) = tally.pair(a, b);
        let games = wdl.games();
        if games == 0 {
            return;
        }
        out.push_str(&format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
            cfg.engines[a].name,
            cfg.engines[b].name,
            wdl.w,
            wdl.l,
            wdl.d,
            wdl.points() / games as f64,
            games
        ));
        if let Some(e) = stats::trinomial(&wdl) {
            out.push_str(&format!(
                "Elo difference: {} ± {} (95 %, trinomial), nElo: {} ± {}\n",
                stats::fmt_elo(e.elo),
                stats::fmt_elo(e.elo_error),
                stats::fmt_elo(e.nelo),
                stats::fmt_elo(e.nelo_error)
            ));
        }
        if let Some(e) = stats::pentanomial(&penta) {
            let p = penta.0;
            out.push_str(&format!(
                "Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}] ({} pairs): Elo {} ± {}, nElo: {} ± {}\n",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                penta.pairs(),
                stats::fmt_elo(e.elo),
                stats::fmt_elo(e.elo_error),
                stats::fmt_elo(e.nelo),
                stats::fmt_elo(e.nelo_error)
            ));
        }
        let los = stats::los(&wdl)
            .map(|l| format!("{:.2} %", l * 100.0))
            .unwrap_or_else(|| "n/a".into());
        out.push_str(&format!(
            "LOS: {los}, draw ratio: {:.1} %\n",
            100.0 * wdl.d as f64 / games as f64
        ));
    };
    if n == 2 {
        pair_lines(0, 1, &mut out);
        if let Some(spec) = &cfg.sprt {
            let llr = tally.llr(spec);
            let (lo, hi) = stats::sprt_bounds(spec);
            let verdict = match stats::sprt_decision(llr, spec) {
                SprtDecision::H0 => "H0 accepted",
                SprtDecision::H1 => "H1 accepted",
                SprtDecision::Continue => "no decision",
            };
            out.push_str(&format!(
                "SPRT ({}, elo0={} elo1={} alpha={} beta={}): LLR {:.2} ({:.2}, {:.2}) - {verdict}\n",
                match spec.model {
                    SprtModel::Normalized => "normalized",
                    SprtModel::Logistic => "logistic",
                },
                spec.elo0,
                spec.elo1,
                spec.alpha,
                spec.beta,
                llr,
                lo,
                hi
            ));
        }
    } else {
        let mut rows: Vec<(usize, f64)> = (0..n)
            .map(|i| {
                let w = tally.per_engine[i];
                let s = if w.games() > 0 {
                    w.points() / w.games() as f64
                } else {
                    0.0
                };
                (i, s)
            })
            .collect();
        rows.sort_by(|x, y| y.1.total_cmp(&x.1));
        out.push_str(&format!(
            "{:<4} {:<20} {:>8} {:>8} {:>7} {:>6} {:>6} {:>6} {:>6}\n",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "W", "L", "D"
        ));
        for (rank, (i, s)) in rows.iter().enumerate() {
            let w = tally.per_engine[*i];
            let (e, err) = stats::trinomial(&w)
                .map(|e| (stats::fmt_elo(e.elo), stats::fmt_elo(e.elo_error)))
                .unwrap_or_else(|| ("-".into(), "-".into()));
            out.push_str(&format!(
                "{:<4} {:<20} {:>8} {:>8} {:>7} {:>5.1}% {:>6} {:>6} {:>6}\n",
                rank + 1,
                cfg.engines[*i].name,
                e,
                err,
                w.games(),
                s * 100.0,
                w.w,
                w.l,
                w.d
            ));
        }
        out.push('\n');
        for a in 0..n {
            for b in a + 1..n {
                pair_lines(a, b, &mut out);
            }
        }
    }
    out
}

/// Runs a tournament of the game `G`, whose course text language `D` is spoken by
/// `proto=text` engines. Returns the exit status on success.
pub fn run<G: GameIo, D: TextProtocol<Game = G>>(cfg: &Config) -> Result<i32, RunError> {
    let text_engines = cfg
        .engines
        .iter()
        .any(|e| e.proto::<G>() == Some(Proto::Text));
    // The referee judges by the rules the engines search under: the text language's
    // when a text engine plays, else the engine protocols'.
    let rules = if text_engines {
        RuleSet::Text
    } else {
        RuleSet::Engine
    };
    if cfg.adjudicate.is_some() && !G::MATERIAL_ADJUDICATION {
        return Err(RunError::Usage(format!(
            "-adjudicate material=: material decides nothing in {}",
            G::NAME
        )));
    }
    let book = match &cfg.openings {
        Some(spec) => Book::<G>::load(spec, cfg.seed, rules).map_err(RunError::Usage)?,
        None => Book::startpos(rules),
    };
    if text_engines {
        book.check(|o| D::setup_commands(o, engine::game::Side::First, 0, false).map(drop))
            .map_err(RunError::Usage)?;
    }
    for e in &cfg.engines {
        if e.proto::<G>() == Some(Proto::Uai) && !G::SPEAKS_UAI {
            return Err(RunError::Usage(format!(
                "engine {}: {} is not played over UAI (use proto=ugi)",
                e.name,
                G::NAME
            )));
        }
        if let EngineKind::Process { launch, .. } = &e.kind {
            if launch.cmd.contains('/') {
                let path = match &launch.dir {
                    Some(d) => d.join(&launch.cmd),
                    None => std::path::PathBuf::from(&launch.cmd),
                };
                if !path.exists() {
                    return Err(RunError::Usage(format!(
                        "engine {}: no such program {}",
                        e.name,
                        path.display()
                    )));
                }
            }
        }
    }
    let schedule = schedule::build(
        cfg.engines.len(),
        cfg.tournament,
        cfg.rounds,
        cfg.games,
        cfg.repeat,
    );
    let total = schedule.len();
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();

    // What is already done.
    let mut done: Vec<GameRecord> = Vec::new();
    let mut writer = None;
    if let Some(path) = &cfg.results {
        let (existing, cut) = results::load(path).map_err(RunError::Runtime)?;
        if cfg.resume {
            for r in &existing {
                let ok = schedule.get(r.id as usize).is_some_and(|s| {
                    r.players[0] == names[s.players[0]] && r.players[1] == names[s.players[1]]
                });
                if !ok {
                    return Err(RunError::Usage(format!(
                        "-resume: game {} in {} does not match this schedule (different engines or options?)",
                        r.id,
                        path.display()
                    )));
                }
            }
            done = existing;
        } else if !existing.is_empty() || cut {
            return Err(RunError::Usage(format!(
                "{} already holds games: add -resume to continue that run, or remove the file",
                path.display()
            )));
        }
        writer = Some(ResultsWriter::open(path, !cfg.resume, cut).map_err(RunError::Runtime)?);
    }
    let mut pgn = match &cfg.pgnout {
        Some(path) => {
            Some(PgnWriter::open::<G>(path, "tournament", &done).map_err(RunError::Runtime)?)
        }
        None => None,
    };
    let mut tally = Tally::new(names.clone());
    for r in &done {
        tally.add(r);
    }
    let done_ids: std::collections::HashSet<u64> = done.iter().map(|r| r.id).collect();
    let pending: Vec<GameSpec> = schedule
        .iter()
        .filter(|s| !done_ids.contains(&s.id))
        .copied()
        .collect();
    if !done.is_empty() {
        eprintln!(
            "resuming: {} of {} games already played, {} to go",
            done.len(),
            total,
            pending.len()
        );
    }

    let sprt_done = |tally: &Tally| {
        cfg.sprt.as_ref().is_some_and(|spec| {
            stats::sprt_decision(tally.llr(spec), spec) != SprtDecision::Continue
        })
    };
    let stop = AtomicBool::new(sprt_done(&tally));
    let next = AtomicUsize::new(0);
    // Games sent to the main thread and counted there: workers start a game only while
    // fewer than `workers` are unaccounted for, so an SPRT stop is not overrun by fast
    // games that were already under way.
    let recorded = AtomicUsize::new(0);
    let fatal: fatal_slot::Slot = fatal_slot::Slot::default();
    let mut write_error: Option<String> = None;
    let tty = std::io::stderr().is_terminal();
    let workers = cfg.concurrency.min(pending.len().max(1));

    std::thread::scope(|scope| {
        let (tx, rx) = crossbeam_channel::unbounded::<Played>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (stop, next, recorded) = (&stop, &next, &recorded);
            let (pending, book, fatal) = (&pending, &book, &fatal);
            scope.spawn(move || {
                let mut players: Vec<Option<Box<dyn Player<G> + '_>>> =
                    (0..cfg.engines.len()).map(|_| None).collect();
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let in_flight = next
                        .load(Ordering::SeqCst)
                        .saturating_sub(recorded.load(Ordering::SeqCst));
                    if in_flight >= workers {
                        std::thread::sleep(Duration::from_millis(1));
                        continue;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(spec) = pending.get(k) else { break };
                    let [f, s] = spec.players;
                    for &e in &[f, s] {
                        if players[e].is_none() {
                            players[e] = Some(make_player::<G, D>(&cfg.engines[e]));
                        }
                    }
                    let opening = book.get(spec.opening_slot);
                    let m = Match {
                        spec,
                        opening: &opening.opening,
                        opening_text: &opening.text,
                        names: [&cfg.engines[f].name, &cfg.engines[s].name],
                        limits: [cfg.engines[f].limits, cfg.engines[s].limits],
                        builtin: [
                            matches!(cfg.engines[f].kind, EngineKind::Builtin(_)),
                            matches!(cfg.engines[s].kind, EngineKind::Builtin(_)),
                        ],
                        maxmoves: cfg.maxmoves,
                        adjudicate: cfg.adjudicate,
                        seed: engine::rng::mix(cfg.seed, spec.id),
                    };
                    // Two distinct slots of `players`, borrowed mutably at once.
                    let (pf, ps) = if f < s {
                        let (lo, hi) = players.split_at_mut(s);
                        (&mut lo[f], &mut hi[0])
                    } else {
                        let (lo, hi) = players.split_at_mut(f);
                        (&mut hi[0], &mut lo[s])
                    };
                    let (Some(pf), Some(ps)) = (pf.as_deref_mut(), ps.as_deref_mut()) else {
                        break;
                    };
                    let played = referee::play::<G>(&m, [pf, ps]);
                    if !cfg.recover {
                        for (i, fault) in played.faults.iter().enumerate() {
                            if let Some(fault) = fault.as_ref().filter(|f| f.is_process_fault()) {
                                fatal.set(format!(
                                    "engine {} failed ({}); the run stops. Continue with -resume -recover",
                                    m.names[i],
                                    fault.describe()
                                ));
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    if tx.send(played).is_err() {
                        break;
                    }
                }
                for p in players.iter_mut().flatten() {
                    p.shutdown();
                }
            });
        }
        drop(tx);
        for played in rx {
            let rec = &played.record;
            if let Some(w) = writer.as_mut() {
                if let Err(e) = w.append(rec) {
                    write_error.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if let Some(p) = pgn.as_mut() {
                if let Err(e) = p.append::<G>(rec) {
                    write_error.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            tally.add(rec);
            let line = progress_line(cfg, &tally, total, rec);
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            if sprt_done(&tally) {
                stop.store(true, Ordering::SeqCst);
            }
            recorded.fetch_add(1, Ordering::SeqCst);
        }
        if tty {
            eprintln!();
        }
    });

    let mut stdout = std::io::stdout();
    let _ = write!(stdout, "{}", report(cfg, &tally));
    let _ = stdout.flush();
    if let Some(e) = write_error {
        return Err(RunError::Runtime(e));
    }
    if let Some(msg) = fatal.take() {
        eprintln!("{msg}");
        return Ok(1);
    }
    Ok(0)
}

/// A first-message-wins slot shared by the workers.
mod fatal_slot {
    use std::sync::Mutex;

    /// Holds the first fatal message.
    #[derive(Default)]
    pub struct Slot(Mutex<Option<String>>);

    impl Slot {
        /// Keeps `msg` unless a message is already there.
        pub fn set(&self, msg: String) {
            if let Ok(mut g) = self.0.lock() {
                g.get_or_insert(msg);
            }
        }

        /// The message, if any.
        pub fn take(&self) -> Option<String> {
            self.0.lock().ok().and_then(|mut g| g.take())
        }
    }
}

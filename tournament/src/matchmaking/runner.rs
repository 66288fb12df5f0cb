//! The run: builds the schedule, skips what the results file already holds, plays
//! the rest on worker threads (one process per engine per worker, reused across games),
//! records each game the moment it ends, keeps the statistics and the progress line,
//! and stops early when the SPRT decides.

use crate::config::{Config, RunError};
use crate::engines::builtin::Builtin;
use crate::engines::gtp::GtpClient;
use crate::engines::nboard::NboardClient;
use crate::engines::player::{EngineKind, EngineSpec, Fault, GameStart, Player, Proto};
use crate::engines::process::{self, Launch, LogTag, TrafficLog};
use crate::engines::text::TextClient;
use crate::engines::uci::UciClient;
use crate::game::epd::EpdWriter;
use crate::game::openings::Book;
use crate::game::pgn::{PgnStyle, PgnWriter};
use crate::game::referee::{self, Match, Played};
use crate::matchmaking::schedule::{self, GameSpec, OpeningPolicy};
use crate::output::report;
use crate::output::results::{self, GameRecord, ResultsWriter};
use crate::output::stats::{self, SprtDecision};
use crate::output::tally::Tally;
use engine::game::RuleSet;
use engine::protocol::text::{EngineSetup, TextCodec};
use engine::protocol::uci::Flavour;
use engine::variant::Registered;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_STATUS: i32 = 130;

/// Ctrl-C (SIGINT), as messages: the handler is installed once per process, at the
/// first call (`never` if it cannot be installed: then Ctrl-C kills the runner as
/// before, and `-resume` still recovers every game recorded).
fn interrupts() -> crossbeam_channel::Receiver<()> {
    static RX: OnceLock<Option<crossbeam_channel::Receiver<()>>> = OnceLock::new();
    RX.get_or_init(|| {
        let (tx, rx) = crossbeam_channel::unbounded();
        ctrlc::set_handler(move || {
            let _ = tx.send(());
        })
        .ok()
        .map(|()| rx)
    })
    .clone()
    .unwrap_or_else(crossbeam_channel::never)
}

/// A player for `spec`, run by worker `worker` (0: the check before the run), its
/// traffic logged to `log` if given; a text engine speaks `text` (the plan refused text
/// engines where the game has no text language).
fn make_player<'a, G: Registered>(
    spec: &EngineSpec,
    text: Option<&'static dyn TextCodec<G>>,
    worker: usize,
    log: Option<&Arc<TrafficLog>>,
    cpus: Vec<usize>,
) -> Box<dyn Player<G> + 'a> {
    // -use-affinity: the process is pinned to `cpus` (empty: not pinned).
    let pinned = |launch: &Launch| Launch {
        cpus: cpus.clone(),
        ..launch.clone()
    };
    let init = Duration::from_millis(spec.init_timeout_ms);
    let tag = log.map(|log| LogTag {
        log: Arc::clone(log),
        tag: format!("{}#{worker}", spec.name),
    });
    let uci = |dialect, launch: &Launch| -> Box<dyn Player<G> + 'a> {
        Box::new(UciClient::new(
            dialect,
            pinned(launch),
            spec.options.clone(),
            init,
            tag.clone(),
        ))
    };
    match (&spec.kind, spec.proto::<G>()) {
        (EngineKind::Builtin(kind), _) => Box::new(Builtin::new(*kind)),
        (EngineKind::Process { launch, .. }, Some(Proto::Text)) => Box::new(TextClient::new(
            text.expect("the plan refuses text engines in a game without a text language"),
            pinned(launch),
            init,
            tag.clone(),
        )),
        (EngineKind::Process { launch, .. }, Some(Proto::Ugi)) => uci(Flavour::Ugi, launch),
        (EngineKind::Process { launch, .. }, Some(Proto::Nboard)) => Box::new(
            NboardClient::<G>::new(pinned(launch), spec.limits, init, tag.clone()),
        ),
        (EngineKind::Process { launch, .. }, Some(Proto::Gtp)) => Box::new(GtpClient::<G>::new(
            pinned(launch),
            spec.limits,
            init,
            tag.clone(),
        )),
        (EngineKind::Process { launch, .. }, _) => uci(Flavour::Uai, launch),
    }
}

/// Runs a tournament of the game `G` (`proto=text` engines speak its text dialect whose
/// rules judge the run). Returns the exit status on success.
pub fn run<G: Registered>(cfg: &Config) -> Result<i32, RunError> {
    let started = Instant::now();
    let mut plan = Plan::<G>::new(cfg)?;
    let (done, cut) = load_done::<G>(cfg, &plan.schedule)?;
    let (run_info, shard) = crate::matchmaking::shard::setup(cfg, &mut plan.schedule)?;
    plan.shard = shard;
    let log = traffic_log(cfg, started)?;
    if cfg.check {
        let engines = engines_to_check(cfg, &plan, &done);
        crate::compliance::check_before_run::<G>(&engines, plan.rules_name, log.as_ref())
            .map_err(RunError::Usage)?;
    }
    check_engines::<G>(cfg, &plan, &done, log.as_ref())?;
    let mut ledger = Ledger::open::<G>(cfg, &plan.schedule, done, cut)?;
    if let Some(w) = ledger.writer.as_mut() {
        w.set_run(&run_info);
    }
    let ended = play::<G>(cfg, &plan, &mut ledger, log.as_ref());
    let stopped = if ended.interrupted {
        ", interrupted"
    } else if ended.fatal.is_some() || ended.write_error.is_some() {
        ", stopped by a fault"
    } else if ledger.tally.games < ledger.total as u64 {
        ", stopped by the SPRT"
    } else {
        ""
    };
    report::print_final(
        cfg,
        &ledger.tally,
        (ledger.total, &ledger.turnaround_us),
        stopped,
        started.elapsed(),
    );
    if let Some(e) = ended.write_error {
        return Err(RunError::Runtime(e));
    }
    if let Some(msg) = ended.fatal {
        eprintln!("{msg}");
        return Ok(1);
    }
    if ended.interrupted {
        let resume = if cfg.results.is_some() {
            "; the same command with -resume plays the rest"
        } else {
            ""
        };
        eprintln!(
            "interrupted: {} of {} games played{resume}",
            ledger.tally.games, ledger.total
        );
        return Ok(INTERRUPTED_STATUS);
    }
    Ok(0)
}

/// What is to be played: the checked engines and openings, and the schedule.
struct Plan<G: Registered> {
    book: Book<G>,
    /// The name of the rules that judge the games, as `-rules` and the records give it
    /// ([`Registered::rules_named`]: Ataxx's 2022 edition plays the 2016 rules as `2022`).
    rules_name: &'static str,
    /// The text dialect `proto=text` engines speak: the one whose rules judge the run.
    text: Option<&'static dyn TextCodec<G>>,
    schedule: Vec<GameSpec>,
    /// With `-shard`: the shard (`schedule` is then its share).
    shard: Option<crate::matchmaking::shard::Shard>,
}

impl<G: Registered> Plan<G> {
    /// Checks what the command line asked for against the game (protocols,
    /// adjudication, programs) and reads the openings; every refusal is a usage error.
    fn new(cfg: &Config) -> Result<Plan<G>, RunError> {
        let usage = RunError::Usage;
        let text_engines = cfg
            .engines
            .iter()
            .any(|e| e.proto::<G>() == Some(Proto::Text));
        let (rules, rules_name) = judging_rules::<G>(cfg).map_err(usage)?;
        let text = G::text_codec(Some(rules_name));
        if text_engines && text.is_none() {
            return Err(usage(format!(
                "{} has no text language (proto=text)",
                G::NAME
            )));
        }
        if cfg.adjudicate.is_some() && !G::MATERIAL_ADJUDICATION {
            return Err(usage(format!(
                "-adjudicate material=: material decides nothing in {}",
                G::NAME
            )));
        }
        for e in &cfg.engines {
            check_engine::<G>(e).map_err(usage)?;
        }
        let book = Self::book(cfg, rules, text, text_engines).map_err(usage)?;
        let schedule = schedule::build_coloured(
            cfg.engines.len(),
            cfg.tournament,
            cfg.rounds,
            cfg.games,
            cfg.repeat,
            cfg.openings
                .as_ref()
                .map_or(OpeningPolicy::Shared, |o| o.policy),
            schedule::Colours {
                noswap: cfg.noswap,
                reverse: cfg.reverse,
            },
        );
        Self::check_replays(cfg, &schedule, book.len()).map_err(usage)?;
        Ok(Plan {
            book,
            rules_name,
            text,
            schedule,
            shard: None,
        })
    }

    /// Reads the openings (the start position without `-openings`) and checks that every
    /// engine can be given each one: text engines (when `text_engines`) through the
    /// dialect's set-up commands, GTP engines only as moves from the start position.
    fn book(
        cfg: &Config,
        rules: G::Rules,
        text: Option<&'static dyn TextCodec<G>>,
        text_engines: bool,
    ) -> Result<Book<G>, String> {
        let book = match &cfg.openings {
            Some(spec) => {
                // A book's moves in the text language, or the protocols' notation
                // where the game has none.
                Book::<G>::load(spec, cfg.seed, rules, |pos, t| match text {
                    Some(c) => c.parse_move_text(pos, t),
                    None => pos.parse_move(t),
                })?
            }
            None => Book::startpos(rules),
        };
        if let Some(dialect) = text.filter(|_| text_engines) {
            book.check(|o| {
                dialect
                    .setup_commands(&EngineSetup::new(o, engine::game::Side::First, 0, false))
                    .map(drop)
            })?;
        }
        if let Some(e) = cfg
            .engines
            .iter()
            .find(|e| e.proto::<G>() == Some(Proto::Gtp))
        {
            book.check(|o| {
                if o.base.fen() == G::startpos(o.base.rule_set()).fen() {
                    Ok(())
                } else {
                    Err(format!(
                        "engine {} speaks GTP, which cannot set up a position: openings must be \
                         moves from the start position, not a FEN",
                        e.name
                    ))
                }
            })?;
        }
        Ok(book)
    }

    /// Refuses a schedule in which some games would replay an earlier one move for move
    /// (unless the openings allow replays): such games add nothing but time.
    fn check_replays(cfg: &Config, schedule: &[GameSpec], openings: usize) -> Result<(), String> {
        let replays = replayed_games::<G>(cfg, schedule, openings);
        let allowed = cfg.openings.as_ref().is_some_and(|o| o.allow_replays);
        if replays > 0 && !allowed {
            let fix = if cfg.openings.is_some() {
                "more openings, fewer rounds, a time limit, or -openings … replays=allow to play them anyway"
            } else {
                "an openings file (-openings file=F), fewer rounds or a time limit"
            };
            return Err(format!(
                "{replays} of {} games would replay an earlier game move for move (engines limited \
                 only by depth or nodes play the same game from the same opening): use {fix}",
                schedule.len()
            ));
        }
        Ok(())
    }
}

/// The rules that judge the games: `-rules` if given, else the ones the engines play by
/// (those of `D`, the dialect text engines speak, when one plays, else the engine
/// protocols'). A run
/// whose engines play by different rules (text and UAI/UGI engines, in a game whose
/// rule sets differ) is refused unless `-rules` names the judge: either choice judges
/// one of them by a rule it cannot know (issue 25 item 2: a UAI engine lost a game by
/// the text rules' 25 consecutive jumps while its own 100-ply rule let it shuffle on).
///
/// Returns the rules and their name as the records write it.
pub fn judging_rules<G: Registered>(cfg: &Config) -> Result<(G::Rules, &'static str), String> {
    let speaks = |p: Proto| cfg.engines.iter().any(|e| e.proto::<G>() == Some(p));
    let text = speaks(Proto::Text);
    let engine = [Proto::Uai, Proto::Ugi, Proto::Nboard, Proto::Gtp]
        .into_iter()
        .any(speaks);
    if let Some(name) = &cfg.rules {
        return G::rules_named(name)
            .ok_or_else(|| format!("-rules: {} has no rules named '{name}'", G::NAME));
    }
    let text_rules = G::text_codec(None).map_or(G::Rules::ENGINE, |c| c.rules());
    if text && engine && text_rules != G::Rules::ENGINE {
        return Err(format!(
            "text and UAI/UGI engines end {} games by different rules; name the judge with \
             -rules text or -rules engine (the other side is then judged by rules it does not know)",
            G::NAME
        ));
    }
    let rules = if text { text_rules } else { G::Rules::ENGINE };
    Ok((rules, rules.name()))
}

/// Whether an engine plays the same moves whenever it meets the same position: a
/// UAI/UGI/NBoard program limited only by depth or nodes (ours are; NTest at a fixed
/// depth too). Built-in players and text engines are seeded per game; a clock or a
/// movetime makes the search depend on the machine.
fn deterministic<G: Registered>(e: &EngineSpec) -> bool {
    matches!(
        e.proto::<G>(),
        Some(Proto::Uai | Proto::Ugi | Proto::Nboard | Proto::Gtp)
    ) && e.limits.tc.is_none()
        && e.limits.movetime_ms.is_none()
}

/// How many scheduled games would replay an earlier one move for move: both players
/// deterministic, in the same colours, from the same opening of a book of `openings`
/// lines (issue 25 item 3: an SPRT over 473 games of `nodes=5000` engines with the
/// 160-line book counted 153 identical pairs).
pub fn replayed_games<G: Registered>(
    cfg: &Config,
    schedule: &[GameSpec],
    openings: usize,
) -> usize {
    let mut seen = std::collections::HashSet::new();
    schedule
        .iter()
        .filter(|s| {
            s.players
                .iter()
                .all(|&e| deterministic::<G>(&cfg.engines[e]))
        })
        .filter(|s| !seen.insert((s.players, s.opening_slot % openings.max(1) as u64)))
        .count()
}

/// An engine's protocol must be one the game speaks, and its program must exist
/// (a path; a bare name is looked up in `PATH` when it starts).
fn check_engine<G: Registered>(e: &EngineSpec) -> Result<(), String> {
    if e.proto::<G>() == Some(Proto::Uai) && !G::SPEAKS_UAI {
        return Err(format!(
            "engine {}: {} is not played over UAI (use proto=ugi)",
            e.name,
            G::NAME
        ));
    }
    if e.limits.stop_by_ping && e.proto::<G>() != Some(Proto::Nboard) {
        return Err(format!(
            "engine {}: stop=ping is for NBoard engines (proto=nboard)",
            e.name
        ));
    }
    if let Some(proto) = e.proto::<G>().filter(|p| p.othello_only()) {
        check_othello_engine::<G>(e, proto)?;
    }
    if !e.options.is_empty() {
        let (name, _) = &e.options[0];
        let what = match (&e.kind, e.proto::<G>()) {
            (EngineKind::Builtin(_), _) => Some("is a built-in player, which takes no options"),
            (_, Some(Proto::Text)) => Some("speaks the text language, which has no options"),
            (_, Some(Proto::Nboard)) => Some("speaks NBoard, which has no options"),
            (_, Some(Proto::Gtp)) => Some("speaks GTP, which has no options"),
            _ => None,
        };
        if let Some(what) = what {
            return Err(format!("engine {} {what} (option.{name})", e.name));
        }
    }
    if let EngineKind::Process { launch, .. } = &e.kind {
        if launch.cmd.contains('/') {
            let path = match &launch.dir {
                Some(d) => d.join(&launch.cmd),
                None => PathBuf::from(&launch.cmd),
            };
            if !path.exists() {
                return Err(format!(
                    "engine {}: no such program {}",
                    e.name,
                    path.display()
                ));
            }
        }
    }
    Ok(())
}

/// An NBoard or GTP engine plays Reversi (Othello) only, and only under the limits its
/// protocol can tell it (see `engines/nboard.rs` and `engines/gtp.rs`): neither has a node
/// limit, GTP has no depth, NBoard's GGF clock has no moves per period and NTest reads
/// it in whole seconds, so a clock below a second needs `depth=` to play by, or
/// `stop=ping`, which stops the engine at `st` whatever it read (and needs `st`). (An
/// engine with no limit at all is refused before this, as every engine is.)
fn check_othello_engine<G: Registered>(e: &EngineSpec, proto: Proto) -> Result<(), String> {
    let who = format!("engine {}: proto={}", e.name, proto.name());
    if !G::OTHELLO {
        return Err(format!(
            "{who} speaks Othello only; {} is not played over it (use proto=ugi)",
            G::NAME
        ));
    }
    let l = &e.limits;
    if l.nodes.is_some() {
        return Err(format!("{who} has no node limit (use tc= or st=)"));
    }
    match proto {
        Proto::Gtp if l.depth.is_some() => {
            Err(format!("{who} has no depth limit (use tc= or st=)"))
        }
        Proto::Gtp if l.tc.is_none() && l.movetime_ms.is_none() => {
            Err(format!("{who} needs tc= or st="))
        }
        Proto::Nboard if l.stop_by_ping && l.movetime_ms.is_none() => Err(format!(
            "{who}: stop=ping stops the engine when st= runs out: give st=SECONDS"
        )),
        Proto::Nboard if l.tc.is_some_and(|tc| tc.moves.is_some()) => Err(format!(
            "{who}: the GGF clock has no moves per period (use tc=TIME+INC)"
        )),
        Proto::Nboard
            if l.depth.is_none()
                && !l.stop_by_ping
                && l.tc
                    .map_or(l.movetime_ms, |tc| Some(tc.base_ms))
                    .is_some_and(|ms| ms < 1000) =>
        {
            Err(format!(
                "{who}: the GGF clock counts whole seconds, so a time below 1 s cannot be told; \
                 add depth=N or give more time"
            ))
        }
        _ => Ok(()),
    }
}

/// The engine traffic log of `-log file=F` (appended to: a resumed run adds to it)
/// and `-debug` (stderr), if either is asked for.
fn traffic_log(cfg: &Config, started: Instant) -> Result<Option<Arc<TrafficLog>>, RunError> {
    let mut sinks: Vec<Box<dyn Write + Send>> = Vec::new();
    if let Some(path) = &cfg.log {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| RunError::Runtime(format!("-log: cannot open {}: {e}", path.display())))?;
        sinks.push(Box::new(file));
    }
    if cfg.debug {
        sinks.push(Box::new(std::io::stderr()));
    }
    Ok((!sinks.is_empty()).then(|| TrafficLog::new(started, sinks)))
}

/// The engines that have a game to play (`-resume` may leave some without), process
/// engines only: those `-check` checks.
fn engines_to_check<'a, G: Registered>(
    cfg: &'a Config,
    plan: &Plan<G>,
    done: &[GameRecord],
) -> Vec<&'a EngineSpec> {
    let done_ids: std::collections::HashSet<u64> = done.iter().map(|r| r.id).collect();
    let mut used = vec![false; cfg.engines.len()];
    for spec in plan.schedule.iter().filter(|s| !done_ids.contains(&s.id)) {
        for &e in &spec.players {
            used[e] = true;
        }
    }
    cfg.engines
        .iter()
        .zip(used)
        .filter(|(e, used)| *used && matches!(e.kind, EngineKind::Process { .. }))
        .map(|(e, _)| e)
        .collect()
}

/// The check before the run: every engine that has a game to play is started and
/// handshaken (its options checked, a text engine's set-up of the first opening done)
/// and shut down again, all at once, so a program that cannot be started, refuses its
/// options or never finishes its handshake stops the run before any game is played or
/// any file written. A program that cannot be started or refuses its options is a
/// usage error (exit 2); one that fails its handshake is a failing engine (exit 1).
fn check_engines<G: Registered>(
    cfg: &Config,
    plan: &Plan<G>,
    done: &[GameRecord],
    log: Option<&Arc<TrafficLog>>,
) -> Result<(), RunError> {
    let done_ids: std::collections::HashSet<u64> = done.iter().map(|r| r.id).collect();
    let mut used = vec![false; cfg.engines.len()];
    for spec in plan.schedule.iter().filter(|s| !done_ids.contains(&s.id)) {
        for &e in &spec.players {
            used[e] = true;
        }
    }
    let opening = &plan.book.get(0).opening;
    let start = opening.end();
    let failures: Vec<(usize, Fault)> = std::thread::scope(|scope| {
        let checks: Vec<_> = cfg
            .engines
            .iter()
            .enumerate()
            .filter(|&(i, e)| used[i] && matches!(e.kind, EngineKind::Process { .. }))
            .map(|(i, e)| {
                let (opening, start) = (opening, &start);
                scope.spawn(move || {
                    let mut player = make_player::<G>(e, plan.text, 0, log, Vec::new());
                    let gs = GameStart {
                        id: 0,
                        opening,
                        start,
                        side: engine::game::Side::First,
                        seed: cfg.seed,
                    };
                    let r = player.check(&gs);
                    player.shutdown();
                    r.err().map(|f| (i, f))
                })
            })
            .collect();
        checks
            .into_iter()
            .filter_map(|h| h.join().unwrap_or(None))
            .collect()
    });
    let Some((i, fault)) = failures.into_iter().next() else {
        return Ok(());
    };
    let msg = format!(
        "engine {} {}; nothing was played",
        cfg.engines[i].name,
        fault.describe()
    );
    Err(match fault {
        Fault::Start(_) | Fault::Config(_) => RunError::Usage(msg),
        _ => RunError::Runtime(msg),
    })
}

/// The games the results file already holds, with `-resume` (checked against the
/// schedule), and whether it ends in a cut line. Without `-resume`, a results file that
/// holds games is refused rather than overwritten. Nothing is written.
fn load_done<G: Registered>(
    cfg: &Config,
    schedule: &[GameSpec],
) -> Result<(Vec<GameRecord>, bool), RunError> {
    let Some(path) = &cfg.results else {
        return Ok((Vec::new(), false));
    };
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let (existing, cut) = results::load(path).map_err(RunError::Runtime)?;
    if !cfg.resume {
        if !existing.is_empty() || cut {
            return Err(RunError::Usage(format!(
                "{} already holds games: add -resume to continue that run, or remove the file",
                path.display()
            )));
        }
        return Ok((Vec::new(), cut));
    }
    for r in &existing {
        if !r.is_variant(G::NAME) {
            return Err(RunError::Usage(format!(
                "-resume: game {} in {} is a game of {}, not {}",
                r.id,
                path.display(),
                r.variant,
                G::NAME
            )));
        }
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
    Ok((existing, cut))
}

/// Where finished games go, and what is left: the results and PGN files, the tally,
/// and the scheduled games not yet in the results file.
struct Ledger {
    writer: Option<ResultsWriter>,
    pgn: Option<PgnWriter>,
    epd: Option<EpdWriter>,
    tally: Tally,
    pending: Vec<GameSpec>,
    total: usize,
    /// The runner's turnaround after each move of the games recorded in this run, in
    /// µs ([`crate::game::referee::Played::turnaround_us`]; `-report latency=true`).
    turnaround_us: Vec<u64>,
}

impl Ledger {
    /// Opens the output files. With `-resume`, the games already in the results file
    /// (`done`, from [`load_done`]) count, are rewritten to the PGN file and are not
    /// played again; `cut` says the file ends in a cut line.
    fn open<G: Registered>(
        cfg: &Config,
        schedule: &[GameSpec],
        done: Vec<GameRecord>,
        cut: bool,
    ) -> Result<Ledger, RunError> {
        let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
        let writer = match &cfg.results {
            Some(path) => {
                Some(ResultsWriter::open(path, !cfg.resume, cut).map_err(RunError::Runtime)?)
            }
            None => None,
        };
        let pgn = match &cfg.pgnout {
            Some(out) => {
                let style = PgnStyle {
                    event: cfg.event.clone(),
                    site: cfg.site.clone(),
                    min: out.min,
                    track: out.track,
                    time_controls: cfg
                        .engines
                        .iter()
                        .map(|e| (e.name.clone(), crate::game::pgn::time_control(&e.limits)))
                        .collect(),
                };
                Some(PgnWriter::open::<G>(&out.file, style, &done).map_err(RunError::Runtime)?)
            }
            None => None,
        };
        let epd = match &cfg.epdout {
            Some(path) => Some(EpdWriter::open::<G>(path, &done).map_err(RunError::Runtime)?),
            None => None,
        };
        let mut tally = Tally::new(names);
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
                schedule.len(),
                pending.len()
            );
        }
        Ok(Ledger {
            writer,
            pgn,
            epd,
            tally,
            pending,
            total: schedule.len(),
            turnaround_us: Vec::new(),
        })
    }

    /// Writes a finished game to the files (`Err`: the first write error): the results
    /// line is synced before this returns, so a game the run reports (after this) is
    /// never lost. It was counted before ([`Tally::add`]), in memory only.
    fn write<G: Registered>(&mut self, rec: &GameRecord) -> Result<(), String> {
        let mut result = Ok(());
        if let Some(w) = self.writer.as_mut() {
            result = w.append(rec);
        }
        if let Some(p) = self.pgn.as_mut() {
            let written = p.append::<G>(rec);
            result = result.and(written);
        }
        if let Some(e) = self.epd.as_mut() {
            let written = e.append::<G>(rec);
            result = result.and(written);
        }
        result
    }
}

/// Why the run stopped early, if it did.
#[derive(Default)]
struct Ended {
    /// A process fault without `-recover`: the message for the user.
    fatal: Option<String>,
    /// The results or PGN file could not be written.
    write_error: Option<String>,
    /// Ctrl-C: games under way were dropped (not recorded: `-resume` plays them).
    interrupted: bool,
}

impl Ended {
    /// Ctrl-C: the first stops handing out games and kills the engines, so the workers
    /// finish at once; a second exits there and then.
    fn interrupt<I: Iterator<Item = GameSpec>>(&mut self, feed: &mut Feed<I>) {
        if self.interrupted {
            process::kill_all();
            std::process::exit(INTERRUPTED_STATUS);
        }
        self.interrupted = true;
        feed.tx = None;
        process::kill_all();
    }
}

/// Whether the run's SPRT (if any) is decided on `tally`.
fn sprt_done<G: Registered>(cfg: &Config, plan: &Plan<G>, tally: &Tally) -> bool {
    // A shard's own games are a sample: the run's SPRT is over all shards.
    if let Some(shard) = &plan.shard {
        return shard.stop(tally);
    }
    cfg.sprt
        .as_ref()
        .is_some_and(|spec| stats::sprt_decision(tally.llr(spec), spec) != SprtDecision::Continue)
}

/// Plays the pending games on `cfg.concurrency` workers and records each one as it
/// ends. This thread hands out games over a channel, one for each game recorded, so
/// exactly as many are under way as there are workers: a stop (SPRT decision, fatal
/// fault, write error) is not overrun by games nobody needs. Closing the channel ends
/// the workers; nothing polls. Ctrl-C stops recording at once (a game that ends after
/// it may have been cut short by it), hands nothing more out and kills the engines, so
/// the workers finish at once; a second Ctrl-C exits there and then.
fn play<G: Registered>(
    cfg: &Config,
    plan: &Plan<G>,
    ledger: &mut Ledger,
    log: Option<&Arc<TrafficLog>>,
) -> Ended {
    let sprt_done = |tally: &Tally| sprt_done(cfg, plan, tally);
    let mut ended = Ended::default();
    let progress = report::Progress::new(cfg.output);
    let workers = cfg.concurrency.min(ledger.pending.len().max(1));
    let queue = std::mem::take(&mut ledger.pending).into_iter();
    let mut stopping = sprt_done(&ledger.tally);
    let interrupts = interrupts();

    std::thread::scope(|scope| {
        let (job_tx, job_rx) = crossbeam_channel::unbounded::<GameSpec>();
        let (done_tx, done_rx) = crossbeam_channel::unbounded::<Played>();
        for w in 1..=workers {
            let (jobs, done) = (job_rx.clone(), done_tx.clone());
            scope.spawn(move || worker::<G>(cfg, plan, w, log, jobs, done));
        }
        drop(done_tx);
        let mut feed = Feed {
            tx: Some(job_tx),
            queue,
            in_flight: 0,
        };
        let names = |spec: &GameSpec| spec.players.map(|e| cfg.engines[e].name.as_str());
        for _ in 0..workers {
            if let Some(spec) = feed.hand_out(stopping) {
                progress.started(spec.id + 1, ledger.total, names(&spec));
            }
        }
        loop {
            let played = crossbeam_channel::select! {
                recv(done_rx) -> played => match played {
                    Ok(played) => played,
                    Err(_) => break,
                },
                recv(interrupts) -> _ => {
                    ended.interrupt(&mut feed);
                    continue;
                }
            };
            feed.in_flight = feed.in_flight.saturating_sub(1);
            if ended.interrupted {
                continue;
            }
            stopping |= count_game(cfg, ledger, &mut ended, &played);
            stopping |= sprt_done(&ledger.tally);
            // The next game is handed out before this one is written: the worker sets it
            // up while the results line is synced (a millisecond or more a game). The
            // game is reported only below, once written: a crash before that loses it
            // unreported, and -resume plays it again. A write error stops the run after
            // the game handed out here.
            let next = feed.hand_out(stopping);
            // After the last game the final report says the same: printed once.
            let last = feed.in_flight == 0;
            stopping |=
                write_and_report::<G>(cfg, ledger, &mut ended, &progress, (&played.record, last));
            // The next game's start is told after the last one's end, as the managers
            // print them (it was handed out first, so no worker waits for the console).
            if let Some(spec) = next {
                progress.started(spec.id + 1, ledger.total, names(&spec));
            }
        }
        progress.end();
    });
    // A shard looks at the run's SPRT once more with all its games counted: the poll
    // interval may have kept it from looking since its first game.
    if let (Some(shard), false) = (&plan.shard, ended.interrupted) {
        shard.last_look(&ledger.tally);
    }
    ended
}

/// The games still to hand out and the channel they go down.
struct Feed<I: Iterator<Item = GameSpec>> {
    /// `None` once nothing more will be handed out: the workers then finish their game
    /// and exit, which ends the run's loop.
    tx: Option<crossbeam_channel::Sender<GameSpec>>,
    queue: I,
    /// Games handed out and not yet back: none, once nothing more is handed out, means
    /// the game just recorded was the last (the final report follows).
    in_flight: usize,
}

impl<I: Iterator<Item = GameSpec>> Feed<I> {
    /// Hands out the next game unless `stop`; the game handed out, if one was.
    fn hand_out(&mut self, stop: bool) -> Option<GameSpec> {
        let next = if stop { None } else { self.queue.next() };
        match (self.tx.as_ref(), next) {
            (Some(tx), Some(spec)) if tx.send(spec).is_ok() => {
                self.in_flight += 1;
                Some(spec)
            }
            _ => {
                self.tx = None;
                None
            }
        }
    }
}

/// Counts a finished game (the tally, the turnaround); true when it stops the run: a
/// process fault without `-recover`.
fn count_game(cfg: &Config, ledger: &mut Ledger, ended: &mut Ended, played: &Played) -> bool {
    let rec = &played.record;
    ledger.turnaround_us.extend(&played.turnaround_us);
    ledger.tally.add(rec);
    let mut stop = false;
    if !cfg.recover {
        for (i, fault) in played.faults.iter().enumerate() {
            if let Some(fault) = fault.as_ref().filter(|f| f.is_process_fault()) {
                ended.fatal.get_or_insert(format!(
                    "engine {} failed ({}); the run stops. Continue with -resume -recover",
                    rec.players[i],
                    fault.describe()
                ));
                stop = true;
            }
        }
    }
    stop
}

/// Writes a counted game to the results (and PGN) and then tells it: the progress
/// line every `-scoreinterval` games and after the `last`, the interim report every
/// `-ratinginterval`. True when the write failed (the run stops).
fn write_and_report<G: Registered>(
    cfg: &Config,
    ledger: &mut Ledger,
    ended: &mut Ended,
    progress: &report::Progress,
    (rec, last): (&GameRecord, bool),
) -> bool {
    let mut stop = false;
    if let Err(e) = ledger.write::<G>(rec) {
        ended.write_error.get_or_insert(e);
        stop = true;
    }
    let games = ledger.tally.games;
    let score_due = last || games.is_multiple_of(cfg.score_interval.max(1));
    progress.game(cfg, &ledger.tally, (ledger.total, score_due), rec);
    if cfg.rating_interval > 0 && games.is_multiple_of(cfg.rating_interval) && !last {
        progress.interim_report(cfg, &ledger.tally);
    }
    stop
}

/// One worker: plays the games it is handed until the channel closes, keeping one
/// player per engine (processes are reused across games), then shuts them down.
fn worker<G: Registered>(
    cfg: &Config,
    plan: &Plan<G>,
    number: usize,
    log: Option<&Arc<TrafficLog>>,
    jobs: crossbeam_channel::Receiver<GameSpec>,
    done: crossbeam_channel::Sender<Played>,
) {
    let mut players: Vec<Option<Box<dyn Player<G> + '_>>> =
        (0..cfg.engines.len()).map(|_| None).collect();
    let mut first = true;
    for spec in jobs {
        // -wait: a pause between two games of this worker.
        if !std::mem::take(&mut first) && cfg.wait_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(cfg.wait_ms));
        }
        let [f, s] = spec.players;
        for &e in &[f, s] {
            if players[e].is_none() {
                let cpus = cfg.affinity.as_ref().map_or_else(Vec::new, |cpus| {
                    crate::engines::affinity::engine_cpus(
                        cpus,
                        cfg.concurrency,
                        cfg.engines.len(),
                        number,
                        e,
                    )
                });
                players[e] = Some(make_player::<G>(
                    &cfg.engines[e],
                    plan.text,
                    number,
                    log,
                    cpus,
                ));
            }
        }
        let opening = plan.book.get(spec.opening_slot);
        let m = Match {
            spec: &spec,
            opening: &opening.opening,
            opening_text: &opening.text,
            rules_name: plan.rules_name,
            names: [&cfg.engines[f].name, &cfg.engines[s].name],
            limits: [cfg.engines[f].limits, cfg.engines[s].limits],
            builtin: [
                matches!(cfg.engines[f].kind, EngineKind::Builtin(_)),
                matches!(cfg.engines[s].kind, EngineKind::Builtin(_)),
            ],
            maxmoves: cfg.maxmoves,
            adjudicate: cfg.adjudicate,
            draw: cfg.draw,
            resign: cfg.resign,
            seed: engine::rng::mix(cfg.seed, spec.id),
            keep_pv: cfg.pgnout.as_ref().is_some_and(|p| p.track.pv),
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
        if done.send(played).is_err() {
            break;
        }
    }
    for p in players.iter_mut().flatten() {
        p.shutdown();
    }
}

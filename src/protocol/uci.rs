//! The UCI-family front end, generic over the game: UAI (UCI with Ataxx FEN and moves)
//! and UGI (the game-neutral form tournament managers speak: `p1time`/`p2time`,
//! `query`), see `protocol.md`. The two differ only in a few words ([`Flavour`]).
//!
//! Each input line is parsed completely into a [`Command`] before anything changes, so a
//! malformed line answers one `info string error: …` and leaves the state as it was. The
//! loop waits on three channels at once — input lines, search reports, and the output
//! of a background `perft`/`bench` task — so `isready`, `stop` and `quit` are answered
//! at once whatever is running. Searches use the game's engine rule set (Ataxx: the
//! 100-ply draw). Clocks start when the `go` line arrived, not when it is handled.

use super::input::{Inbox, Line, MAX_LINE};
use super::play::Play;
use super::{emit, quote};
use crate::bench;
use crate::game::{Benchmark, EndgameStage, Game, GameIo, Notation, Outcome, RuleSet, Side};
use crate::search::report::{Iteration, Score};
use crate::search::time::{self, TimeControl};
use crate::search::{nps, Engine, Features, Limits, Report, STOP_WAIT};
use crossbeam_channel::{select, unbounded, Receiver, Sender};
use std::io::Write;
use std::time::{Duration, Instant};

/// Which of the two UCI-like protocols is spoken, UAI or UGI: they differ only in the
/// words below. (Not a text dialect: those are [`crate::variant::Dialect`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// The Universal Ataxx Interface.
    Uai,
    /// The Universal Game Interface (any of our games).
    Ugi,
}

impl Flavour {
    /// The first command, which selects the dialect (`uai` / `ugi`).
    pub fn hello(self) -> &'static str {
        match self {
            Flavour::Uai => "uai",
            Flavour::Ugi => "ugi",
        }
    }

    /// Its name as people write it (`UAI` / `UGI`).
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Uai => "UAI",
            Flavour::Ugi => "UGI",
        }
    }

    /// The dialects game `G` speaks: UGI always, UAI where the game's notation is UAI's.
    pub fn spoken_by<G: Notation>() -> impl Iterator<Item = Flavour> {
        [Flavour::Uai, Flavour::Ugi]
            .into_iter()
            .filter(|&d| d != Flavour::Uai || G::SPEAKS_UAI)
    }

    /// The handshake's last line (`uaiok` / `ugiok`).
    pub fn ok(self) -> &'static str {
        match self {
            Flavour::Uai => "uaiok",
            Flavour::Ugi => "ugiok",
        }
    }

    /// The new-game command (`uainewgame` / `uginewgame`).
    pub fn new_game(self) -> &'static str {
        match self {
            Flavour::Uai => "uainewgame",
            Flavour::Ugi => "uginewgame",
        }
    }

    /// The `go` words for each player's clock and increment, indexed by [`Side`]
    /// (UAI: `b` is the first player, x; UGI: `p1` is the first player).
    pub fn clock_words(self) -> [[&'static str; 2]; 2] {
        match self {
            Flavour::Uai => [["btime", "wtime"], ["binc", "winc"]],
            Flavour::Ugi => [["p1time", "p2time"], ["p1inc", "p2inc"]],
        }
    }
}

/// Name announced by `id name`: the game's name and our version.
pub fn engine_name<G: Notation>() -> String {
    format!("{}-engine {}", G::NAME, env!("CARGO_PKG_VERSION"))
}

/// Author announced by `id author`: each engine's own (`the loa-engine authors`).
pub fn engine_author<G: Notation>() -> String {
    format!("the {}-engine authors", G::NAME)
}

/// Deepest `perft` accepted: deeper would run for hours.
pub const MAX_PERFT_DEPTH: u32 = 12;
/// Deepest `bench` accepted.
pub const MAX_BENCH_DEPTH: u32 = 30;
/// A spin (integer) option. Every option lives in [`OPTIONS`]; the handshake, the
/// defaults and `setoption` all read that one table.
pub struct SpinOption {
    /// Name as announced; `setoption` matches it case-insensitively.
    pub name: &'static str,
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
    /// What setting it does (the value is already range-checked).
    apply: fn(&mut Settings, i64),
    /// The setting's value as the option's: applied to [`Settings::for_game`] it is the
    /// default announced, so the defaults live only where the search, the game and the
    /// clock define them ([`Features::for_game`], [`time::Policy::default`]).
    get: fn(&Settings) -> i64,
}

impl SpinOption {
    /// Value before any `setoption` in game `G`'s engine.
    pub fn default_for<G: Game>(&self) -> i64 {
        (self.get)(&Settings::for_game::<G>())
    }
}

/// What options set; the session passes changes on to the search thread.
#[derive(Clone, Debug)]
pub struct Settings {
    hash_mib: usize,
    threads: usize,
    overhead: Duration,
    time_policy: time::Policy,
    features: Features,
}

impl Default for Settings {
    /// A 16 MiB table (as UCI engines' `Hash` defaults go), one thread, the clock's and
    /// the search's own defaults.
    fn default() -> Settings {
        Settings {
            hash_mib: 16,
            threads: 1,
            overhead: time::DEFAULT_OVERHEAD,
            time_policy: time::Policy::default(),
            features: Features::default(),
        }
    }
}

impl Settings {
    /// The defaults with game `G`'s own search tuning ([`Features::for_game`]).
    pub fn for_game<G: Game>() -> Settings {
        Settings {
            features: Features::for_game::<G>(),
            ..Settings::default()
        }
    }
}

/// The options, announced in this order by `uai`.
pub static OPTIONS: &[SpinOption] = &[
    SpinOption {
        name: "Hash",
        min: 1,
        max: 4096,
        apply: |s, v| s.hash_mib = v as usize,
        get: |s| s.hash_mib as i64,
    },
    SpinOption {
        name: "Threads",
        min: 1,
        max: 64,
        apply: |s, v| s.threads = v as usize,
        get: |s| s.threads as i64,
    },
    SpinOption {
        name: "MoveOverhead",
        min: 0,
        max: 5000,
        apply: |s, v| s.overhead = Duration::from_millis(v as u64),
        get: |s| s.overhead.as_millis() as i64,
    },
    // Time management constants (`search::time::Policy`), so matches can measure them.
    SpinOption {
        name: "TimeMovesToGo",
        min: 1,
        max: time::MAX_MOVES_TO_GO as i64,
        apply: |s, v| s.time_policy.moves_to_go = v as u32,
        get: |s| s.time_policy.moves_to_go as i64,
    },
    SpinOption {
        name: "TimeHardPercent",
        min: 100,
        max: 1000,
        apply: |s, v| s.time_policy.hard_percent = v as u32,
        get: |s| s.time_policy.hard_percent as i64,
    },
    SpinOption {
        name: "TimeReserveIncs",
        min: 0,
        max: 100,
        apply: |s, v| s.time_policy.reserve_incs = v as u32,
        get: |s| s.time_policy.reserve_incs as i64,
    },
    // Search feature switches (1 on, 0 off; `true`/`false` are accepted too), so a
    // match can measure each feature against the same binary without it.
    SpinOption {
        name: "Aspiration",
        min: 0,
        max: 1,
        apply: |s, v| s.features.aspiration = v != 0,
        get: |s| s.features.aspiration as i64,
    },
    SpinOption {
        name: "LMR",
        min: 0,
        max: 1,
        apply: |s, v| s.features.lmr = v != 0,
        get: |s| s.features.lmr as i64,
    },
    SpinOption {
        name: "LMRQuietOnly",
        min: 0,
        max: 1,
        apply: |s, v| s.features.lmr_quiet = v != 0,
        get: |s| s.features.lmr_quiet as i64,
    },
    SpinOption {
        name: "Killers",
        min: 0,
        max: 1,
        apply: |s, v| s.features.killers = v != 0,
        get: |s| s.features.killers as i64,
    },
    SpinOption {
        name: "History",
        min: 0,
        max: 1,
        apply: |s, v| s.features.history = v != 0,
        get: |s| s.features.history as i64,
    },
    SpinOption {
        name: "AspirationWidth",
        min: 1,
        max: 10000,
        apply: |s, v| s.features.aspiration_width = v as i32,
        get: |s| s.features.aspiration_width as i64,
    },
    SpinOption {
        name: "LMRLog",
        min: 0,
        max: 1000,
        apply: |s, v| s.features.lmr_log = v as i32,
        get: |s| s.features.lmr_log as i64,
    },
    SpinOption {
        name: "HistoryDiv",
        min: 1,
        max: 1_000_000,
        apply: |s, v| s.features.history_div = v as i32,
        get: |s| s.features.history_div as i64,
    },
    SpinOption {
        name: "IIR",
        min: 0,
        max: 1,
        apply: |s, v| s.features.iir = v != 0,
        get: |s| s.features.iir as i64,
    },
    SpinOption {
        name: "NullMove",
        min: 0,
        max: 1,
        apply: |s, v| s.features.null_move = v != 0,
        get: |s| s.features.null_move as i64,
    },
    SpinOption {
        name: "RFPMargin",
        min: 0,
        max: 10000,
        apply: |s, v| s.features.rfp_margin = v as i32,
        get: |s| s.features.rfp_margin as i64,
    },
    SpinOption {
        name: "RazorMargin",
        min: 0,
        max: 10000,
        apply: |s, v| s.features.razor_margin = v as i32,
        get: |s| s.features.razor_margin as i64,
    },
    SpinOption {
        name: "LMP",
        min: 0,
        max: 1000,
        apply: |s, v| s.features.lmp = v as i32,
        get: |s| s.features.lmp as i64,
    },
    SpinOption {
        name: "HopelessPrune",
        min: 0,
        max: 1000,
        apply: |s, v| s.features.hopeless = v as i32,
        get: |s| s.features.hopeless as i64,
    },
    SpinOption {
        name: "LMRAggr",
        min: 0,
        max: 8,
        apply: |s, v| s.features.lmr_aggr = v as i32,
        get: |s| s.features.lmr_aggr as i64,
    },
    SpinOption {
        name: "ProbCut",
        min: 0,
        max: 1,
        apply: |s, v| s.features.probcut = v != 0,
        get: |s| s.features.probcut as i64,
    },
    SpinOption {
        name: "PredictStop",
        min: 0,
        max: 1,
        apply: |s, v| s.features.predict_stop = v != 0,
        get: |s| s.features.predict_stop as i64,
    },
    SpinOption {
        name: "NodeTime",
        min: 0,
        max: 1,
        apply: |s, v| s.features.node_time = v != 0,
        get: |s| s.features.node_time as i64,
    },
    SpinOption {
        name: "PartialIteration",
        min: 0,
        max: 1,
        apply: |s, v| s.features.partial_iteration = v != 0,
        get: |s| s.features.partial_iteration as i64,
    },
    SpinOption {
        name: "Solver",
        min: 0,
        max: 1,
        apply: |s, v| s.features.solver = v != 0,
        get: |s| s.features.solver as i64,
    },
    SpinOption {
        name: "StagedEndgame",
        min: 0,
        max: 1,
        apply: |s, v| s.features.staged_endgame = v != 0,
        get: |s| s.features.staged_endgame as i64,
    },
];

/// The option `name` names and the value `value` gives it, checked against its range.
fn option_value(name: &str, value: Option<&str>) -> Result<(&'static SpinOption, i64), String> {
    let opt = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no such option {}", quote(name)))?;
    // An on/off switch (a 0..1 spin) also takes `true`/`false`.
    let v: i64 = match value {
        Some(b @ ("true" | "false")) if (opt.min, opt.max) == (0, 1) => (b == "true") as i64,
        v => number(opt.name, v)?,
    };
    if !(opt.min..=opt.max).contains(&v) {
        return Err(format!(
            "{} must be between {} and {}",
            opt.name, opt.min, opt.max
        ));
    }
    Ok((opt, v))
}

/// The arguments of `go`, as sent (times in milliseconds; negative clocks, which some
/// GUIs send after an overrun, count as zero). Clocks are indexed by [`Side`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub time: [Option<u64>; 2],
    pub inc: [Option<u64>; 2],
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    StartPos,
    Fen(String),
}

/// What `query` asks (UGI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Hello,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    /// Moves in protocol notation, checked against the position when it is set.
    Position {
        base: Base,
        moves: Vec<String>,
    },
    Query(Query),
    Go(GoParams),
    Stop,
    Quit,
    Perft(u32),
    /// `bench` at this depth, or the game's default.
    Bench(Option<u32>),
    Display,
    /// A blank line: ignored.
    Nothing,
}

/// Parses a number; overflow and junk are errors, never wrapped or guessed.
fn number<T: std::str::FromStr>(what: &str, s: Option<&str>) -> Result<T, String> {
    let s = s.ok_or_else(|| format!("{what} needs a value"))?;
    s.parse()
        .map_err(|_| format!("bad value {} for {what}", quote(s)))
}

/// A clock value in milliseconds; negative counts as zero.
fn millis(what: &str, s: Option<&str>) -> Result<u64, String> {
    let v: i64 = number(what, s)?;
    Ok(v.max(0) as u64)
}

/// Parses one input line into a command, touching nothing.
pub fn parse(line: &str, dialect: Flavour) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else {
        return Ok(Command::Nothing);
    };
    let rest: Vec<&str> = words.collect();
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!("{cmd} takes no arguments"))
        }
    };
    match cmd {
        c if c == dialect.hello() => no_args(Command::Hello),
        c if c == dialect.new_game() => no_args(Command::NewGame),
        "isready" => no_args(Command::IsReady),
        "query" if dialect == Flavour::Ugi => match rest.as_slice() {
            ["gameover"] => Ok(Command::Query(Query::GameOver)),
            ["p1turn"] => Ok(Command::Query(Query::P1Turn)),
            ["result"] => Ok(Command::Query(Query::Result)),
            _ => Err("usage: query gameover|p1turn|result".to_string()),
        },
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "d" | "display" => no_args(Command::Display),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest, dialect).map(Command::Go),
        "perft" | "split" | "perftsplit" => match rest.as_slice() {
            [d] => {
                let depth: u32 = number("perft depth", Some(d))?;
                if depth > MAX_PERFT_DEPTH {
                    return Err(format!("perft depth must be at most {MAX_PERFT_DEPTH}"));
                }
                Ok(Command::Perft(depth))
            }
            _ => Err(format!("usage: {cmd} DEPTH")),
        },
        "bench" => match rest.as_slice() {
            [] => Ok(Command::Bench(None)),
            [d] => {
                let depth: u32 = number("bench depth", Some(d))?;
                if !(1..=MAX_BENCH_DEPTH).contains(&depth) {
                    return Err(format!("bench depth must be 1 to {MAX_BENCH_DEPTH}"));
                }
                Ok(Command::Bench(Some(depth)))
            }
            _ => Err("usage: bench [DEPTH]".to_string()),
        },
        _ => Err(format!("unknown command {}", quote(cmd))),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    let usage = || "usage: setoption name NAME [value VALUE]".to_string();
    if args.first() != Some(&"name") {
        return Err(usage());
    }
    let args = &args[1..];
    let value_at = args.iter().position(|&w| w == "value");
    let (name, value) = match value_at {
        Some(i) => (&args[..i], Some(args[i + 1..].join(" "))),
        None => (args, None),
    };
    if name.is_empty() || value.as_deref() == Some("") {
        return Err(usage());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let base = match head {
        ["startpos"] => Base::StartPos,
        ["fen", fen @ ..] if !fen.is_empty() => Base::Fen(fen.join(" ")),
        _ => return Err("usage: position startpos|fen FEN [moves M...]".to_string()),
    };
    let moves = moves.iter().map(|m| m.to_string()).collect();
    Ok(Command::Position { base, moves })
}

fn parse_go(args: &[&str], dialect: Flavour) -> Result<GoParams, String> {
    let mut p = GoParams::default();
    let [time_words, inc_words] = dialect.clock_words();
    let mut words = args.iter().copied();
    while let Some(w) = words.next() {
        let side = |names: [&str; 2]| names.iter().position(|&n| n == w);
        if let Some(i) = side(time_words) {
            p.time[i] = Some(millis(w, words.next())?);
            continue;
        }
        if let Some(i) = side(inc_words) {
            p.inc[i] = Some(millis(w, words.next())?);
            continue;
        }
        match w {
            "movetime" => p.movetime = Some(millis(w, words.next())?),
            "movestogo" => {
                let m: u32 = number(w, words.next())?;
                if m == 0 {
                    return Err("movestogo must be at least 1".to_string());
                }
                p.movestogo = Some(m);
            }
            "depth" => {
                let d: u32 = number(w, words.next())?;
                if d == 0 {
                    return Err("depth must be at least 1".to_string());
                }
                p.depth = Some(d);
            }
            "nodes" => {
                let n: u64 = number(w, words.next())?;
                if n == 0 {
                    return Err("nodes must be at least 1".to_string());
                }
                p.nodes = Some(n);
            }
            "infinite" => p.infinite = true,
            _ => return Err(format!("unsupported go parameter {}", quote(w))),
        }
    }
    Ok(p)
}

/// The search limits for `go` with the side to move `side`, the clock started at
/// `start` (when the command arrived). Infinite ignores time; no limit at all searches
/// to the maximum depth (in practice until `stop` or a proven result). Without
/// `movestogo` the clock lasts the game's own estimate of the moves left
/// ([`crate::game::Game::moves_left`]) where that is shorter than the policy's guess.
pub fn limits_for(
    p: &GoParams,
    side: Side,
    moves_left: Option<u32>,
    overhead: Duration,
    policy: &time::Policy,
    start: Instant,
) -> Limits {
    let mut limits = Limits {
        depth: p.depth,
        nodes: p.nodes,
        infinite: p.infinite,
        start: Some(start),
        ..Limits::default()
    };
    if p.infinite {
        return limits;
    }
    let (clock, inc) = (p.time[side.index()], p.inc[side.index()]);
    let ms = Duration::from_millis;
    let by_clock = clock.map(|c| {
        time::allocate_with(
            &TimeControl {
                remaining: ms(c),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: p.movestogo.or(moves_left
                    .filter(|&m| m < policy.moves_to_go)
                    .map(|m| m.max(2))),
            },
            overhead,
            policy,
        )
    });
    let by_movetime = p.movetime.map(|t| time::movetime(ms(t), overhead));
    // With both, the tighter deadline wins.
    let budget = match (by_clock, by_movetime) {
        (Some(a), Some(b)) => Some(time::Budget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        }),
        (a, b) => a.or(b),
    };
    if let Some(b) = budget {
        b.apply(&mut limits);
    }
    limits
}

/// `score cp X`, or `score mate N` for a proven result: N counts our own moves until
/// the game ends (`ceil(plies / 2)`), negative when we lose.
pub fn format_score(score: Score) -> String {
    match score.own_moves_to_end() {
        Some(n) if n > 0 => format!("mate {n}"),
        // `-0` where the side to move has already lost: the sign is the news.
        Some(n) => format!("mate -{}", -n),
        None => format!("cp {}", score.0),
    }
}

/// The `info string` line that says which round of a staged endgame solve the next
/// `info` line's score comes from: `info string endgame probcut P%` (probable to P
/// percent) or `info string endgame win/loss/draw` (the sign proven, the margin at
/// least the score's). None for other iterations and for the exact result, whose
/// `score mate N` says it is proven.
pub fn endgame_note<M>(it: &Iteration<M>) -> Option<String> {
    match it.endgame? {
        EndgameStage::Probable(p) => Some(format!("info string endgame probcut {p}%")),
        EndgameStage::WinLossDraw => Some("info string endgame win/loss/draw".to_string()),
        EndgameStage::Exact => None,
    }
}

/// The `info` line for a completed iteration of a search from `root`. The PV is cut
/// at its first move that is not legal in sequence, so a GUI never sees an impossible line.
pub fn format_info<G: Notation>(root: &G, it: &Iteration<G::Move>) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        it.depth,
        it.seldepth,
        format_score(it.score),
        it.nodes,
        it.nps(),
        it.time.as_millis(),
        it.hashfull
    );
    let pv = super::pv_names(root, &it.pv);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// What a background task (`perft`, `bench`) sends back to the loop.
enum TaskMsg {
    Line(String),
    Done,
}

/// The state of a UCI-family session.
///
/// Lines run in the order they arrive, through one queue: a line runs when it reaches the
/// front and nothing holds it ([`Session::holds`]). Only `stop` and `quit` jump the queue,
/// because they are about everything before them: `stop` ends the running search and
/// every `go` still queued (each answers at once with a `bestmove`), `quit` ends the
/// session after answering what is queued without doing any work (see [`Session::quit`]).
pub struct Session<G: GameIo> {
    dialect: Flavour,
    /// The game the GUI set up.
    game: Play<G>,
    /// The `position` command `position` was set by (its base and moves), if it was:
    /// a manager sends the game's whole move list before each move, and a command
    /// that extends it only needs its new moves played.
    set_by: Option<(Base, Vec<String>)>,
    engine: Engine<G>,
    settings: Settings,
    searching: bool,
    /// The running search has no bound of its own (`go infinite`, or no limit): the end
    /// of input stops it.
    search_unbounded: bool,
    /// The position being searched (PVs are checked against it).
    search_root: G,
    task_running: bool,
    /// A table resize or clear was sent to the search thread since the last `isready`.
    table_work_queued: bool,
    /// `readyok` is owed once the search thread has done the queued table work.
    syncing: bool,
    /// The lines that have not run yet, in arrival order, and the channel they arrive
    /// on. Once input has ended the queue runs out, and searches without a bound are
    /// stopped.
    inbox: Inbox,
    /// `quit` has been handled: nothing more runs.
    quitting: bool,
    /// `quit` left the search thread busy (table work, a search that did not stop in
    /// time) or a perft/bench running: the session ends without waiting for them.
    abandon: bool,
    task_tx: Sender<TaskMsg>,
    task_rx: Receiver<TaskMsg>,
}

/// The first word of a line, which decides how it queues.
fn first_word(line: &Line) -> Option<&str> {
    line.text.split_whitespace().next()
}

impl<G: GameIo> Session<G> {
    fn new(dialect: Flavour, input: Receiver<Line>) -> Session<G> {
        let settings = Settings::for_game::<G>();
        let (task_tx, task_rx) = unbounded();
        Session {
            dialect,
            game: Play::new(G::startpos(G::Rules::ENGINE)),
            set_by: None,
            engine: Engine::new(settings.hash_mib),
            settings,
            searching: false,
            search_unbounded: false,
            search_root: G::startpos(G::Rules::ENGINE),
            task_running: false,
            table_work_queued: false,
            syncing: false,
            inbox: Inbox::new(input, None),
            quitting: false,
            abandon: false,
            task_tx,
            task_rx,
        }
    }

    /// Whether the line at the front of the queue must wait: nothing runs while
    /// `readyok` waits for table work; while a perft/bench runs only `isready` does (its
    /// output would split the task's lines otherwise); a search holds back only what
    /// would start another search or task.
    fn holds(&self, line: &Line) -> bool {
        if self.syncing {
            return true;
        }
        let word = first_word(line);
        if self.task_running {
            return word != Some("isready");
        }
        self.searching
            && matches!(
                word,
                Some("go" | "perft" | "split" | "perftsplit" | "bench")
            )
    }

    /// Nothing runs and nothing waits: the session may end once the input has.
    fn idle(&self) -> bool {
        !self.searching && !self.task_running && !self.syncing && self.inbox.is_empty()
    }

    /// `quit` has been handled, or the input has ended and everything has run out.
    fn finished(&self) -> bool {
        self.quitting || (self.inbox.is_closed() && self.idle())
    }

    /// A line from the GUI. Reports that arrived first are printed first, so `bestmove`
    /// precedes the answer to whatever the GUI sent after seeing it.
    fn on_input(&mut self, line: Line, out: &mut dyn Write) {
        self.drain_reports(out);
        if self.quitting {
            return;
        }
        // Only a well-formed `stop`/`quit` jumps the queue; `stop now` is an error in turn.
        let urgent = matches!(self.parse_line(&line), Ok(Command::Stop | Command::Quit));
        match first_word(&line) {
            Some("quit") if urgent => return self.quit(out),
            Some("stop") if urgent => {
                self.stop(out);
                return self.resume(out);
            }
            _ => {}
        }
        if self.inbox.is_full() {
            emit(out, "info string error: busy: too many commands waiting");
            return;
        }
        self.inbox.wait(line);
        self.resume(out)
    }

    /// `stop`: every queued `go` will answer at once, and the running search is stopped
    /// and its `bestmove` printed before the next line is read.
    fn stop(&mut self, out: &mut dyn Write) {
        self.inbox.stop_waiting();
        self.stop_and_wait(out);
    }

    /// The end of input: what is queued still runs (perft, bench and searches with a
    /// bound finish, so piped scripts work), but a search that only `stop` could end is
    /// stopped, and so is every such `go` still queued.
    fn close_input(&mut self) {
        self.inbox.close();
        if self.searching && self.search_unbounded {
            self.engine.stop();
        }
    }

    /// `quit`: the running search is stopped and its `bestmove` printed; then the lines
    /// still queued are answered without doing any work, so nothing a GUI waits for is
    /// lost: an owed `readyok` and each queued `isready`'s, each `go`'s `bestmove` (a
    /// legal move found at once), errors, `d` and `query`. Perft, bench and option changes
    /// are dropped. A running perft/bench or table work is abandoned.
    fn quit(&mut self, out: &mut dyn Write) {
        self.quitting = true;
        self.abandon |= !self.stop_and_wait(out);
        self.abandon |= self.syncing || self.task_running;
        if self.syncing {
            self.syncing = false;
            emit(out, "readyok");
        }
        while let Some((line, _)) = self.inbox.pop() {
            let answered = match self.parse_line(&line) {
                Ok(Command::Go(_)) => {
                    self.answer_at_once(out);
                    Ok(())
                }
                Ok(Command::IsReady) => {
                    emit(out, "readyok");
                    Ok(())
                }
                Ok(Command::NewGame) => {
                    self.game = Play::new(G::startpos(G::Rules::ENGINE));
                    Ok(())
                }
                // Checked (a bad value is still refused), not applied.
                Ok(Command::SetOption { name, value }) => {
                    option_value(&name, value.as_deref()).map(|_| ())
                }
                Ok(Command::Perft(_) | Command::Bench(_) | Command::Stop | Command::Quit) => Ok(()),
                Ok(cmd) => self.execute(cmd, line.at, false, out),
                Err(e) => Err(e),
            };
            if let Err(e) = answered {
                emit(out, &format!("info string error: {e}"));
            }
        }
    }

    /// The `bestmove` of a `go` that was stopped before it started: a legal move of the
    /// current position found without searching (the one the game's move ordering likes
    /// best), or `0000` when the game is over.
    fn answer_at_once(&mut self, out: &mut dyn Write) {
        let mut moves = Vec::new();
        self.game.pos.generate_moves(&mut moves);
        let mut best: Option<(G::Move, i32)> = None;
        for &m in &moves {
            let hint = self.game.pos.move_order_hint(m);
            if best.is_none_or(|(_, h)| hint > h) {
                best = Some((m, hint));
            }
        }
        let name = best.map_or_else(|| "0000".to_string(), |(m, _)| self.game.pos.move_name(m));
        emit(out, &format!("bestmove {name}"));
    }

    /// Runs the lines that waited, in order, until one of them must wait again.
    fn resume(&mut self, out: &mut dyn Write) {
        while !self.quitting {
            let Some(front) = self.inbox.front() else {
                break;
            };
            if self.holds(front) {
                break;
            }
            let (line, stopped) = self.inbox.pop().expect("the front line");
            self.handle_line(&line, stopped, out);
        }
    }

    fn drain_reports(&mut self, out: &mut dyn Write) {
        let reports = self.engine.reports().clone();
        while let Ok(r) = reports.try_recv() {
            // Lines queued behind a search or a sync run here, before the line just read.
            self.on_report(r, out);
        }
    }

    /// Stops the search and waits (briefly, [`STOP_WAIT`]) for its `Done`, so `stop` is
    /// answered before the next command is read and a `go` right after it starts at once.
    /// False if the search thread did not answer in time (it is still resizing a huge
    /// table).
    fn stop_and_wait(&mut self, out: &mut dyn Write) -> bool {
        if !self.searching {
            return true;
        }
        // Only the stopped search's end: the queue behind it may start another.
        let stopper = self.engine.stopper();
        stopper.stop_and_wait(Instant::now() + STOP_WAIT, |r| self.on_report(r, out))
    }

    fn handle_line(&mut self, line: &Line, stopped: bool, out: &mut dyn Write) {
        log::debug!("<- {}", line.text);
        if let Err(e) = self
            .parse_line(line)
            .and_then(|cmd| self.execute(cmd, line.at, stopped, out))
        {
            emit(out, &format!("info string error: {e}"));
        }
    }

    /// One line as a command: a line over [`MAX_LINE`] is refused whole.
    fn parse_line(&self, line: &Line) -> Result<Command, String> {
        if line.too_long {
            Err(format!("line too long (the limit is {MAX_LINE} bytes)"))
        } else {
            parse(&line.text, self.dialect)
        }
    }

    /// Runs one command. `stopped`: a `stop` (or the end of input) came after it while
    /// it waited, so a `go` answers at once.
    fn execute(
        &mut self,
        cmd: Command,
        at: Instant,
        stopped: bool,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        // `holds` keeps a go, perft or bench back while a search or task runs, so the
        // search thread never gets a second job.
        debug_assert!(
            !matches!(cmd, Command::Go(_) | Command::Perft(_) | Command::Bench(_))
                || !(self.searching || self.task_running)
        );
        match cmd {
            Command::Nothing => {}
            Command::Hello => self.hello(out),
            Command::IsReady => self.is_ready(out),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::NewGame => self.new_game(),
            Command::Position { base, moves } => self.set_position(base, moves)?,
            Command::Query(q) => self.query(q, out),
            Command::Go(params) => self.go(&params, at, stopped, out),
            // Handled before the queue (`on_input`); here only from `quit`'s drain.
            Command::Stop | Command::Quit => {}
            Command::Display => self.display(out),
            Command::Perft(depth) => {
                let pos = self.game.pos.clone();
                self.spawn_task("perft", move |tx| perft_task(pos, depth, tx))?;
            }
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(G::BENCH_DEPTH);
                self.spawn_task("bench", move |tx| {
                    let r = bench::run(&G::bench_positions(), depth);
                    let _ = tx.send(TaskMsg::Line(r.line()));
                })?;
            }
        }
        Ok(())
    }

    /// `uai`/`ugi`: the engine's name, author and options, then `uaiok`/`ugiok`.
    fn hello(&self, out: &mut dyn Write) {
        emit(out, &format!("id name {}", engine_name::<G>()));
        emit(out, &format!("id author {}", engine_author::<G>()));
        for o in OPTIONS {
            emit(
                out,
                &format!(
                    "option name {} type spin default {} min {} max {}",
                    o.name,
                    o.default_for::<G>(),
                    o.min,
                    o.max
                ),
            );
        }
        emit(out, self.dialect.ok());
    }

    /// `isready`. After a resize or clear, `readyok` waits until the table is ready, so
    /// a GUI that syncs before starting the clock does not pay for it on move one.
    fn is_ready(&mut self, out: &mut dyn Write) {
        if self.table_work_queued && !self.searching {
            self.table_work_queued = false;
            self.syncing = true;
            self.engine.sync();
        } else {
            emit(out, "readyok");
        }
    }

    /// `setoption name NAME value V`.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let (opt, v) = option_value(name, value)?;
        let before = self.settings.clone();
        (opt.apply)(&mut self.settings, v);
        if self.settings.hash_mib != before.hash_mib {
            self.engine.set_hash(self.settings.hash_mib);
            self.table_work_queued = true;
        }
        if self.settings.threads != before.threads {
            // Lazy SMP helpers from the next `go` on; `isready` waits for them.
            self.engine.set_threads(self.settings.threads);
            self.table_work_queued = true;
        }
        if self.settings.features != before.features {
            self.engine.set_features(self.settings.features);
        }
        Ok(())
    }

    /// `uainewgame`/`uginewgame`.
    fn new_game(&mut self) {
        self.engine.new_game();
        self.table_work_queued = true;
        self.game = Play::new(G::startpos(G::Rules::ENGINE));
        self.set_by = None;
    }

    /// `position`: the whole command is checked before the position changes.
    fn set_position(&mut self, base: Base, moves: Vec<String>) -> Result<(), String> {
        // The same base and the last command's moves first: play the rest from the
        // position they gave (the same position a full replay gives).
        let played = match &self.set_by {
            Some((b, m)) if *b == base && moves.starts_with(m) => m.len(),
            _ => 0,
        };
        // A new game from the base, or the game so far; the whole line is checked on a
        // copy of its position before the game takes its new moves.
        let start = match (&base, played) {
            (_, 1..) => None,
            (Base::StartPos, 0) => Some(G::startpos(G::Rules::ENGINE)),
            (Base::Fen(fen), 0) => Some(G::from_fen(fen, G::Rules::ENGINE)?),
        };
        let mut pos = start.clone().unwrap_or_else(|| self.game.pos.clone());
        let mut new_moves = Vec::with_capacity(moves.len() - played);
        for (i, text) in moves.iter().enumerate().skip(played) {
            // A move after the end of the game (by these rules: a manager judging by
            // others, e.g. LOA's text rules, which know no repetition) is no move at
            // all; say why rather than call a legal-looking move illegal.
            if pos.outcome().is_some() {
                return Err(format!(
                    "the game is over ({}) before move {} (number {}) in {}",
                    pos.end_reason(),
                    quote(text),
                    i + 1,
                    pos.fen()
                ));
            }
            let mv = pos.parse_move(text).ok_or_else(|| {
                format!(
                    "illegal move {} (number {}) in {}",
                    quote(text),
                    i + 1,
                    pos.fen()
                )
            })?;
            pos.make_move(mv);
            new_moves.push(mv);
        }
        if let Some(start) = start {
            self.game = Play::new(start);
        }
        for mv in new_moves {
            self.game.play(mv);
        }
        self.set_by = Some((base, moves));
        Ok(())
    }

    /// UGI's `query`: `response …`.
    fn query(&self, q: Query, out: &mut dyn Write) {
        let outcome = self.game.pos.outcome();
        let yes_no = |b: bool| if b { "true" } else { "false" };
        let answer = match q {
            Query::GameOver => yes_no(outcome.is_some()),
            Query::P1Turn => yes_no(self.game.pos.side_to_move() == Side::First),
            Query::Result => match outcome {
                None => "none",
                Some(Outcome::Draw) => "draw",
                Some(Outcome::Win(Side::First)) => "p1win",
                Some(Outcome::Win(Side::Second)) => "p2win",
            },
        };
        emit(out, &format!("response {answer}"));
    }

    /// `go`: the search starts on its thread with limits counted from `at`, the
    /// command's arrival; answered at once after a `stop` that came first, or when
    /// input has ended and nothing would bound it.
    fn go(&mut self, params: &GoParams, at: Instant, stopped: bool, out: &mut dyn Write) {
        let unbounded = params.infinite
            || (params.depth.is_none()
                && params.nodes.is_none()
                && params.movetime.is_none()
                && params.time[self.game.pos.side_to_move().index()].is_none());
        if stopped || (self.inbox.is_closed() && unbounded) {
            self.answer_at_once(out);
            return;
        }
        let side = self.game.pos.side_to_move();
        let limits = limits_for(
            params,
            side,
            self.game.pos.moves_left(),
            self.settings.overhead,
            &self.settings.time_policy,
            at,
        );
        log::debug!("go {:?} on {}", limits, self.game.pos.fen());
        self.search_root = self.game.pos.clone();
        self.engine.go(self.game.pos.clone(), limits, None);
        self.searching = true;
        self.search_unbounded = unbounded;
    }

    /// `d`: the board and its FEN.
    fn display(&self, out: &mut dyn Write) {
        for l in self.game.pos.pretty().lines() {
            emit(out, l);
        }
        emit(out, &format!("Fen: {}", self.game.pos.fen()));
    }

    /// Runs `f` on its own thread so the loop stays responsive; its lines come back
    /// through the task channel, followed by `Done`.
    fn spawn_task(
        &mut self,
        name: &str,
        f: impl FnOnce(&Sender<TaskMsg>) + Send + 'static,
    ) -> Result<(), String> {
        let tx = self.task_tx.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                f(&tx);
                let _ = tx.send(TaskMsg::Done);
            })
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        self.task_running = true;
        Ok(())
    }

    fn on_report(&mut self, report: Report<G::Move>, out: &mut dyn Write) {
        match report {
            Report::Iteration(it) => {
                if let Some(note) = endgame_note(&it) {
                    emit(out, &note);
                }
                emit(out, &format_info(&self.search_root, &it))
            }
            Report::Synced => {
                // After `quit` the owed `readyok` has been printed already.
                if self.syncing {
                    self.syncing = false;
                    emit(out, "readyok");
                    self.resume(out);
                }
            }
            Report::Done(r) => {
                self.searching = false;
                log::debug!("search done: {:?} after {:?}", r.reason, r.time);
                let best = r
                    .best
                    .map_or_else(|| "0000".to_string(), |m| self.search_root.move_name(m));
                emit(out, &format!("bestmove {best}"));
                self.resume(out);
            }
            // UAI/UGI never asks for ratings.
            Report::Rated(_) => {}
        }
    }
}

/// Perft with one `move: count` line per root move, then the summary line.
fn perft_task<G: Notation + Benchmark>(mut pos: G, depth: u32, tx: &Sender<TaskMsg>) {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let name = pos.move_name(mv);
            let undo = pos.make_move(mv);
            let n = pos.perft(depth - 1);
            pos.unmake_move(mv, undo);
            total += n;
            if tx.send(TaskMsg::Line(format!("{name}: {n}"))).is_err() {
                return;
            }
        }
    }
    let time = start.elapsed();
    let _ = tx.send(TaskMsg::Line(format!(
        "nodes {total} time {} nps {}",
        time.as_millis(),
        nps(total, time)
    )));
}

/// Runs a UAI or UGI session for game `G`. `first` is the line that selected the
/// dialect (normally `uai` / `ugi`), handled before anything from `input`. Returns the
/// process exit status: 0 after `quit` or the end of input. `quit` ends the session at
/// once ([`Session::quit`]); at the end of input what is queued runs out first (see
/// [`Session::close_input`]).
pub fn run<G: GameIo>(
    dialect: Flavour,
    first: Option<Line>,
    input: Receiver<Line>,
    out: &mut dyn Write,
) -> i32 {
    let mut session = Session::<G>::new(dialect, input);
    if let Some(line) = first {
        session.on_input(line, out);
    }
    let reports = session.engine.reports().clone();
    let tasks = session.task_rx.clone();
    while !session.finished() {
        let lines = session.inbox.arrivals();
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    session.on_input(line, out);
                }
                Err(_) => {
                    log::debug!("end of input");
                    session.close_input();
                }
            },
            recv(reports) -> r => match r {
                Ok(r) => session.on_report(r, out),
                Err(_) => {
                    log::error!("the search thread is gone");
                    return 1;
                }
            },
            recv(tasks) -> m => match m {
                Ok(TaskMsg::Line(l)) => emit(out, &l),
                Ok(TaskMsg::Done) => {
                    session.task_running = false;
                    session.resume(out);
                }
                Err(_) => {}
            },
        }
    }
    if session.abandon {
        // A perft or bench thread is simply left (the process exits), and so is table
        // work in progress: joining the search thread (what dropping the engine does)
        // could take seconds while it resizes a huge table, and `quit` is immediate.
        std::mem::forget(session);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::{Move, Position, Rules};

    fn parse(line: &str) -> Result<Command, String> {
        super::parse(line, Flavour::Uai)
    }

    /// Each option reads back what it sets, at its bounds and its default, and its
    /// default is inside its bounds: `get` and `apply` name the same setting.
    #[test]
    fn every_option_reads_back_what_it_sets() {
        fn check<G: Game>() {
            for o in OPTIONS {
                let default = o.default_for::<G>();
                assert!((o.min..=o.max).contains(&default), "{}", o.name);
                for v in [o.min, o.max, default] {
                    let mut s = Settings::for_game::<G>();
                    (o.apply)(&mut s, v);
                    assert_eq!((o.get)(&s), v, "{} = {v}", o.name);
                }
            }
        }
        check::<Position>();
        check::<crate::games::loa::Position>();
        check::<crate::games::reversi::Position>();
    }

    /// The options announce each game's own tuning: Ataxx's from its SPSA session, the
    /// shared values where a game has none of its own.
    #[test]
    fn option_defaults_are_the_games_own_tuning() {
        fn default<G: Game>(name: &str) -> i64 {
            OPTIONS
                .iter()
                .find(|o| o.name == name)
                .expect(name)
                .default_for::<G>()
        }
        type Loa = crate::games::loa::Position;
        let (t, shared) = (
            <Position as Game>::TUNING,
            crate::game::SearchTuning::SHARED,
        );
        assert_eq!(default::<Position>("LMRAggr"), t.lmr_aggr as i64);
        assert_eq!(default::<Position>("RFPMargin"), t.rfp_margin as i64);
        assert_eq!(default::<Position>("RazorMargin"), t.razor_margin as i64);
        assert_eq!(
            default::<Position>("AspirationWidth"),
            t.aspiration_width as i64
        );
        assert_eq!(default::<Position>("HistoryDiv"), t.history_div as i64);
        assert_eq!(default::<Loa>("LMRAggr"), shared.lmr_aggr as i64);
        assert_eq!(default::<Loa>("RFPMargin"), shared.rfp_margin as i64);
    }

    /// A `position` that extends the last one plays only its new moves, and gives the
    /// position a full replay gives; a different start, a shorter list, a changed
    /// earlier move or `uainewgame` replays from the base; a refused one changes
    /// nothing.
    #[test]
    fn a_growing_position_command_gives_the_replayed_position() {
        let mut pos = Position::startpos(Rules::ENGINE);
        let mut names = Vec::new();
        let mut fens = Vec::new();
        for i in 0..8 {
            let moves = pos.legal_moves();
            let mv = moves[(i * 7) % moves.len()];
            names.push(pos.move_name(mv));
            pos.make_move(mv);
            fens.push(pos.fen());
        }
        let start = Position::startpos(Rules::ENGINE).fen();
        let line = |n: usize| format!("position startpos moves {}", names[..n].join(" "));
        let other = Position::startpos(Rules::ENGINE).legal_moves()[1];
        let other = Position::startpos(Rules::ENGINE).move_name(other);
        let script = [
            line(2),
            "d".into(),
            line(5),
            "d".into(),
            format!("{} zz9", line(6)),
            "d".into(),
            line(8),
            "d".into(),
            line(3),
            "d".into(),
            format!("position startpos moves {other}"),
            "d".into(),
            "uainewgame".into(),
            line(1),
            "d".into(),
            format!("position fen {start} moves {}", names[..4].join(" ")),
            "d".into(),
            "quit".into(),
        ]
        .join("\n");
        let rx = crate::protocol::input::spawn_reader(std::io::Cursor::new(script.into_bytes()));
        let mut out = Vec::new();
        run::<Position>(Flavour::Uai, None, rx, &mut out);
        let out = String::from_utf8(out).unwrap();
        let shown: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("Fen: "))
            .collect();
        let mut after_other = Position::startpos(Rules::ENGINE);
        after_other.make_move(after_other.parse_move(&other).unwrap());
        let expected = [
            fens[1].clone(),
            fens[4].clone(),
            fens[4].clone(),
            fens[7].clone(),
            fens[2].clone(),
            after_other.fen(),
            fens[0].clone(),
            fens[3].clone(),
        ];
        assert_eq!(shown, expected, "{out}");
        assert!(out.contains("zz9"), "the refused move is named: {out}");
    }

    #[test]
    fn parses_go() {
        let Command::Go(p) = parse("go btime 1000 wtime -5 binc 10 winc 20 movestogo 3").unwrap()
        else {
            panic!()
        };
        assert_eq!(p.time, [Some(1000), Some(0)]);
        assert_eq!(p.inc, [Some(10), Some(20)]);
        assert_eq!(p.movestogo, Some(3));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth 0").is_err());
        assert!(parse("go nodes 99999999999999999999999").is_err());
        assert!(parse("go wtime 1e3").is_err());
        assert!(parse("go ponder").is_err());
        assert!(parse("go movestogo 0").is_err());
        assert!(parse("go p1time 10").is_err());
        let Command::Go(p) =
            super::parse("go p1time 5 p2time 7 p1inc 1 p2inc 2", Flavour::Ugi).unwrap()
        else {
            panic!()
        };
        assert_eq!((p.time, p.inc), ([Some(5), Some(7)], [Some(1), Some(2)]));
        assert!(super::parse("go btime 5", Flavour::Ugi).is_err());
    }

    #[test]
    fn clocks_belong_to_the_right_side() {
        let p = GoParams {
            time: [Some(1000), Some(100_000)],
            ..GoParams::default()
        };
        let now = Instant::now();
        let policy = time::Policy::default();
        let [x, o] = [Side::First, Side::Second]
            .map(|side| limits_for(&p, side, None, time::DEFAULT_OVERHEAD, &policy, now));
        assert!(x.hard_time.unwrap() < o.hard_time.unwrap());
        assert!(x.hard_time.unwrap() <= Duration::from_millis(245));
    }

    #[test]
    fn the_clock_lasts_the_moves_the_game_has_left() {
        let p = GoParams {
            time: [Some(10_000), Some(10_000)],
            ..GoParams::default()
        };
        let (now, policy) = (Instant::now(), time::Policy::default());
        let soft = |moves_left| {
            limits_for(&p, Side::First, moves_left, Duration::ZERO, &policy, now)
                .soft_time
                .unwrap()
        };
        // Unknown or longer than the policy's guess: the guess (40 moves).
        assert_eq!(soft(None), Duration::from_millis(250));
        assert_eq!(soft(Some(60)), Duration::from_millis(250));
        // A game that ends sooner spends its clock sooner; never all of it on one move.
        assert_eq!(soft(Some(20)), Duration::from_millis(500));
        assert_eq!(soft(Some(0)), Duration::from_millis(2500));
        // A GUI's movestogo still rules.
        let p = GoParams {
            movestogo: Some(40),
            ..p
        };
        let with_mtg = limits_for(&p, Side::First, Some(20), Duration::ZERO, &policy, now);
        assert_eq!(with_mtg.soft_time, Some(Duration::from_millis(250)));
    }

    #[test]
    fn parses_position_and_setoption() {
        assert_eq!(
            parse("position startpos moves f2 a1a3").unwrap(),
            Command::Position {
                base: Base::StartPos,
                moves: vec!["f2".to_string(), "a1a3".to_string()]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(super::parse("query result", Flavour::Ugi).is_ok());
        assert!(parse("query result").is_err());
        assert_eq!(
            parse("setoption name Hash value 32").unwrap(),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            }
        );
        assert!(parse("setoption Hash 32").is_err());
        assert!(parse("setoption name Hash value").is_err());
    }

    #[test]
    fn mate_scores_count_own_moves() {
        use crate::search::WIN;
        assert_eq!(format_score(Score(WIN - 1)), "mate 1");
        assert_eq!(format_score(Score(WIN - 2)), "mate 1");
        assert_eq!(format_score(Score(WIN - 3)), "mate 2");
        assert_eq!(format_score(Score(-WIN + 2)), "mate -1");
        assert_eq!(format_score(Score(-WIN + 3)), "mate -2");
        assert_eq!(format_score(Score(-57)), "cp -57");
    }

    #[test]
    fn info_line_cuts_an_illegal_pv() {
        let root = Position::startpos(Rules::Uai);
        let mv = |s| Move::parse_uai(s).unwrap();
        let it = Iteration {
            depth: 3,
            seldepth: 4,
            score: Score(12),
            nodes: 1000,
            time: Duration::from_millis(2),
            hashfull: 7,
            pv: vec![mv("f2"), mv("a1a3"), mv("d4")],
            endgame: None,
        };
        assert_eq!(
            format_info(&root, &it),
            "info depth 3 seldepth 4 score cp 12 nodes 1000 nps 500000 time 2 hashfull 7 pv f2 a1a3"
        );
        let it = Iteration {
            pv: vec![mv("d4")],
            ..it
        };
        assert!(!format_info(&root, &it).contains(" pv"));
        assert_eq!(endgame_note(&it), None);
    }

    #[test]
    fn endgame_rounds_say_their_stage() {
        let it = |endgame| Iteration::<Move> {
            depth: 3,
            seldepth: 3,
            score: Score(0),
            nodes: 1,
            time: Duration::ZERO,
            hashfull: 0,
            pv: Vec::new(),
            endgame,
        };
        assert_eq!(
            endgame_note(&it(Some(EndgameStage::Probable(87)))).as_deref(),
            Some("info string endgame probcut 87%")
        );
        assert_eq!(
            endgame_note(&it(Some(EndgameStage::WinLossDraw))).as_deref(),
            Some("info string endgame win/loss/draw")
        );
        assert_eq!(endgame_note(&it(Some(EndgameStage::Exact))), None);
    }
}

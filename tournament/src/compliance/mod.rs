//! `tournament compliance [-variant GAME] [-rules NAME] [-quick] [-debug] ENGINE-SPEC`:
//! a fixed sequence of steps in the engine's protocol, each printed as one line, `ok
//! STEP (what was seen)` or `FAIL STEP: sent …; got …; expected …`, and a closing
//! summary. The exit status is 0 only when every step passed (1 otherwise, 2 on a bad
//! command line). ENGINE-SPEC is the `key=value` words of `-engine` (`cmd=`, `proto=`,
//! `args=`, `dir=`, `option.NAME=`, `timemargin=`, `inittimeout=`); no limit is needed,
//! the steps set their own.
//!
//! One file per protocol family: [`uci`] (UAI, UGI), [`nboard`], [`gtp`], [`text`]
//! (the game's course text language). Each lists its steps in order, marking those
//! that make up the quick part (`-quick`, and the run's `-check`: every engine goes
//! through it before the first game). Moves and positions are judged by our own rules,
//! as the referee judges them.
//!
//! Every read has a deadline, and the deadlines are short: an engine that follows its
//! protocol passes in a few seconds. A step that fails leaves the engine in a state
//! nobody knows, so it is killed and started afresh (and brought back to where the next
//! step begins) before the next step; when that start fails, or the first step (the
//! handshake) fails, the check stops there and says how many steps were not run.

mod gtp;
mod nboard;
mod text;
mod uci;

use crate::engines::player::{EngineKind, EngineSpec, Proto};
use crate::engines::process::{EngineProcess, Launch, LogTag, ReadError, TrafficLog};
use engine::game::{Game, Notation, Outcome, Side};
use engine::protocol::uci::Flavour;
use engine::rng::SplitMix64;
use engine::variant::{GameVisitor, Registered, Variant};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What an engine should answer at once: `isready`, `ping`, a GTP command, a `query`,
/// an error line for a refused line.
const READY: Duration = Duration::from_millis(1000);
/// A short search: `go depth 2`, `go nodes 1000`, `go depth 1`, NBoard's `go` at depth 4.
const SEARCH: Duration = Duration::from_millis(2000);
/// `bestmove` after `stop`.
const STOP: Duration = Duration::from_millis(500);
/// How long silence is listened for: after `stop` with no search, before the `stop` of
/// `go infinite`, after NBoard's `pong`.
const QUIET: Duration = Duration::from_millis(200);
/// From `quit` to the exit.
const QUIT: Duration = Duration::from_secs(1);
/// From the end of input to the exit.
const END_OF_INPUT: Duration = Duration::from_secs(2);
/// A move of a GTP engine (which is told no clock here) or of a text engine's AI (the
/// language has no clock, and the AIs keep their own time).
const SLOW_MOVE: Duration = Duration::from_secs(10);

/// Longest game played out to reach a finished position (for UGI's `query`).
const PLAYOUT_PLIES: usize = 5000;

/// A step that failed: what was sent, what came back, what should have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The lines sent in the step, `; `-separated.
    pub sent: String,
    /// What the engine said (or did not).
    pub got: String,
    /// What the protocol asks for.
    pub expected: String,
    /// What the protocol asks but no manager relies on (chatter in answer to `stop`
    /// when nothing searches): `tournament compliance` fails the step all the same, the
    /// run's `-check` only warns and plays.
    pub minor: bool,
}

impl Failure {
    /// A failure found before anything was sent: the checker's own set-up of the step
    /// (no engine running, no position to give it).
    fn unsent(got: impl Into<String>, expected: impl Into<String>) -> Failure {
        Failure {
            minor: false,
            sent: "nothing".into(),
            got: got.into(),
            expected: expected.into(),
        }
    }
}

/// The steps run so far and their outcomes.
#[derive(Debug, Default)]
pub struct Report {
    print: bool,
    /// Each step run: its name and `Ok(what was seen)` or the failure.
    pub steps: Vec<(String, Result<String, Failure>)>,
    /// Steps not run because the check stopped (the handshake failed, or the engine
    /// could not be started again after a failure).
    pub not_run: usize,
    /// Why the check stopped before its last step, when a restart failed (a failed
    /// handshake says so itself).
    pub stopped: Option<String>,
}

impl Report {
    /// An empty report; with `print`, each step's line goes to stdout as it ends.
    pub fn new(print: bool) -> Report {
        Report {
            print,
            ..Report::default()
        }
    }

    fn record(&mut self, step: &str, outcome: Result<String, Failure>) {
        if self.print {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", line(step, &outcome));
            let _ = out.flush();
        }
        self.steps.push((step.to_string(), outcome));
    }

    /// True when every step ran and passed.
    pub fn passed(&self) -> bool {
        self.not_run == 0 && self.steps.iter().all(|(_, r)| r.is_ok())
    }

    /// The line of the first step that failed (or why the check stopped), leaving out
    /// the [minor](Failure::minor) failures: what `-check` refuses an engine for.
    pub fn first_failure(&self) -> Option<String> {
        self.steps
            .iter()
            .find(|(_, r)| r.as_ref().is_err_and(|f| !f.minor))
            .map(|(step, r)| line(step, r))
            .or_else(|| self.stopped.clone())
    }

    /// The lines of the steps that failed in a [minor](Failure::minor) way: what `-check`
    /// warns about.
    pub fn warnings(&self) -> Vec<String> {
        self.steps
            .iter()
            .filter(|(_, r)| r.as_ref().is_err_and(|f| f.minor))
            .map(|(step, r)| line(step, r))
            .collect()
    }

    /// The closing line: `compliance: all 24 steps passed`, or how many passed, which
    /// failed and how many were not run.
    pub fn summary(&self) -> String {
        let failed: Vec<&str> = self
            .steps
            .iter()
            .filter(|(_, r)| r.is_err())
            .map(|(s, _)| s.as_str())
            .collect();
        if failed.is_empty() && self.not_run == 0 {
            return format!("compliance: all {} steps passed", self.steps.len());
        }
        let mut s = format!(
            "compliance: {} of {} steps passed; FAIL: {}",
            self.steps.len() - failed.len(),
            self.steps.len() + self.not_run,
            failed.join(", ")
        );
        if self.not_run > 0 {
            s.push_str(&format!("; {} steps not run", self.not_run));
        }
        if let Some(why) = &self.stopped {
            s.push_str(&format!(" ({why})"));
        }
        s
    }
}

/// A step's line: `ok STEP (detail)` or `FAIL STEP: sent …; got …; expected …`.
pub fn line(step: &str, outcome: &Result<String, Failure>) -> String {
    match outcome {
        Ok(detail) if detail.is_empty() => format!("ok {step}"),
        Ok(detail) => format!("ok {step} ({detail})"),
        Err(f) => format!(
            "FAIL {step}: sent {}; got {}; expected {}",
            f.sent, f.got, f.expected
        ),
    }
}

/// The engine as the steps need it.
#[derive(Clone)]
struct Target {
    launch: Launch,
    /// `option.NAME=VALUE` of the spec (UAI/UGI only).
    options: Vec<(String, String)>,
    /// `timemargin=`: how late an answer to a timed search may be.
    margin: Duration,
    /// `inittimeout=`: the handshake's deadline (and that of option changes, which may
    /// allocate tables).
    init_timeout: Duration,
    /// The traffic log (`-debug`; the run's `-log`), and the engine's tag in it.
    log: Option<(Arc<TrafficLog>, String)>,
}

/// A sink of the traffic log that keeps the engine's stderr lines (`!`), for the
/// languages that report errors there (Lines of Action's text language).
struct StderrCapture {
    prefix: String,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Write for StderrCapture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        // `[   12.345] TAG ! TEXT`: the log writes one whole line per call.
        if let Some((_, rest)) = text.split_once("] ") {
            if let Some(stderr) = rest.strip_prefix(&self.prefix) {
                if let Ok(mut lines) = self.lines.lock() {
                    lines.push(stderr.trim_end().to_string());
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A sink that passes the lines on to another traffic log (the run's `-log`).
struct Forward(Arc<TrafficLog>);

impl Write for Forward {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.raw(&String::from_utf8_lossy(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Cuts a line for a report: control characters shown as `?`, at most `n` characters.
fn cut(text: &str, n: usize) -> String {
    let mut s: String = text
        .trim()
        .chars()
        .take(n)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.trim().chars().nth(n).is_some() {
        s.push('…');
    }
    s
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// One engine process, with what was sent to it and read from it in the current step.
struct Conn {
    p: EngineProcess,
    stderr: Arc<Mutex<Vec<String>>>,
    sent: Vec<String>,
    seen: Vec<String>,
}

impl Conn {
    /// Starts the program (its stderr captured through a traffic log of its own, which
    /// also writes to the target's log, if any).
    fn start(t: &Target) -> Result<Conn, Failure> {
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let tag = t
            .log
            .as_ref()
            .map_or_else(|| "engine".to_string(), |(_, tag)| tag.clone());
        let mut sinks: Vec<Box<dyn Write + Send>> = vec![Box::new(StderrCapture {
            prefix: format!("{tag} ! "),
            lines: Arc::clone(&stderr),
        })];
        let started = match &t.log {
            Some((log, _)) => {
                sinks.push(Box::new(Forward(Arc::clone(log))));
                log.started()
            }
            None => Instant::now(),
        };
        let log = LogTag {
            log: TrafficLog::new(started, sinks),
            tag,
        };
        let mut words = vec![t.launch.cmd.clone()];
        words.extend(t.launch.args.iter().cloned());
        let p = EngineProcess::spawn(&t.launch, Some(&log)).map_err(|e| Failure {
            minor: false,
            sent: format!("nothing (starting {})", words.join(" ")),
            got: e,
            expected: "a program that starts".into(),
        })?;
        Ok(Conn {
            p,
            stderr,
            sent: Vec::new(),
            seen: Vec::new(),
        })
    }

    /// Forgets what was sent and read: a new step (or a new round trip in one).
    fn mark(&mut self) {
        self.sent.clear();
        self.seen.clear();
        if let Ok(mut lines) = self.stderr.lock() {
            lines.clear();
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.sent.push(cut(line, 120));
        self.p
            .send(line)
            .map_err(|e| self.fail(format!("an engine reading its input ({e})")))
    }

    /// The next line, no later than `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let line = self.p.recv_deadline(deadline)?;
        self.seen.push(line.clone());
        Ok(line)
    }

    /// The next line within `limit` of `started`, where the step waits for `expected`:
    /// no line in time, or the end of the engine's output, fails the step ("expected
    /// EXPECTED within LIMIT ms"). The reading loops of every protocol's steps end so.
    fn recv_within(
        &mut self,
        started: Instant,
        limit: Duration,
        expected: &str,
    ) -> Result<String, Failure> {
        self.recv(started + limit).map_err(|e| {
            self.fail_read(
                &e,
                started.elapsed(),
                format!("{expected} within {} ms", ms(limit)),
            )
        })
    }

    /// The engine's stderr lines since the mark.
    fn stderr_lines(&self) -> Vec<String> {
        self.stderr.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// What was read since the mark: its last lines.
    fn got(&self) -> String {
        let lines: Vec<String> = self
            .seen
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("'{}'", cut(l, 100)))
            .collect();
        match lines.len() {
            0 => "nothing".into(),
            n if n > 4 => format!("{} lines, the last: {}", n, lines[n - 4..].join(" ")),
            _ => lines.join(" "),
        }
    }

    /// A failure of the step: the lines sent, those read.
    fn fail(&self, expected: impl Into<String>) -> Failure {
        Failure {
            minor: false,
            sent: self.sent_text(),
            got: self.got(),
            expected: expected.into(),
        }
    }

    /// A failure of a read that waited `waited` in all.
    fn fail_read(&self, e: &ReadError, waited: Duration, expected: impl Into<String>) -> Failure {
        let what = match e {
            ReadError::Timeout => format!("nothing more for {} ms", ms(waited)),
            ReadError::Closed => "the end of its output (it exited)".into(),
            ReadError::TooLong => ReadError::too_long_message(),
        };
        let got = match self.got().as_str() {
            "nothing" => what,
            lines => format!("{lines}, then {what}"),
        };
        Failure {
            minor: false,
            sent: self.sent_text(),
            got,
            expected: expected.into(),
        }
    }

    fn sent_text(&self) -> String {
        if self.sent.is_empty() {
            "nothing".into()
        } else {
            self.sent.join("; ")
        }
    }

    /// Sends `line` and reads until a line equal to `token` (blanks around ignored)
    /// within `limit`, showing every other line to `other`, whose error fails the step.
    fn expect(
        &mut self,
        line: &str,
        token: &str,
        limit: Duration,
        mut other: impl FnMut(&str) -> Result<(), String>,
    ) -> Result<Duration, Failure> {
        self.send(line)?;
        self.expect_sent(token, limit, &mut other)
    }

    /// [`Conn::expect`] for lines already sent.
    fn expect_sent(
        &mut self,
        token: &str,
        limit: Duration,
        mut other: impl FnMut(&str) -> Result<(), String>,
    ) -> Result<Duration, Failure> {
        let started = Instant::now();
        let expected = format!("'{token}'");
        loop {
            let l = self.recv_within(started, limit, &expected)?;
            if l.trim() == token {
                return Ok(started.elapsed());
            }
            if let Err(why) = other(&l) {
                return Err(self.fail(why));
            }
        }
    }

    /// Sends `quit` (the protocol's word for it) and waits for the exit.
    fn quit_step(&mut self, quit: &str) -> Result<String, Failure> {
        self.send(quit)?;
        self.exits_within(QUIT, &format!("the program to exit within {} ms", ms(QUIT)))
    }

    /// Closes the engine's input and waits for the exit.
    fn end_of_input_step(&mut self) -> Result<String, Failure> {
        self.sent.push("(end of input)".into());
        self.p.close_input();
        self.exits_within(
            END_OF_INPUT,
            &format!("the program to exit within {} ms", ms(END_OF_INPUT)),
        )
    }

    fn exits_within(&mut self, limit: Duration, expected: &str) -> Result<String, Failure> {
        let started = Instant::now();
        let mut seen = Vec::new();
        let exited = self
            .p
            .wait_exit(started + limit, |l| seen.push(l.to_string()));
        self.seen.extend(seen);
        if exited {
            Ok(format!("exited after {} ms", ms(started.elapsed())))
        } else {
            let mut f = self.fail(expected);
            f.got = match f.got.as_str() {
                "nothing" => format!("still running after {} ms", ms(limit)),
                lines => format!("{lines}, still running after {} ms", ms(limit)),
            };
            Err(f)
        }
    }

    fn kill(mut self) {
        self.p.kill();
    }
}

/// A step: its name, whether it belongs to the quick part, whether it needs an engine
/// started and brought to where the steps begin ([`Driver::fresh`]) or starts its own,
/// and whether its failure stops the check (the handshake's: nothing can follow).
struct Step<S> {
    name: &'static str,
    quick: bool,
    needs_engine: bool,
    fatal: bool,
    run: fn(&mut S) -> Result<String, Failure>,
}

impl<S> Step<S> {
    /// A step that needs the engine ready.
    fn on(name: &'static str, quick: bool, run: fn(&mut S) -> Result<String, Failure>) -> Self {
        Step {
            name,
            quick,
            needs_engine: true,
            fatal: false,
            run,
        }
    }

    /// A step that starts (or finds) its own engine.
    fn own(name: &'static str, quick: bool, run: fn(&mut S) -> Result<String, Failure>) -> Self {
        Step {
            name,
            quick,
            needs_engine: false,
            fatal: false,
            run,
        }
    }

    /// The first step: it starts the engine, and nothing follows its failure.
    fn first(name: &'static str, run: fn(&mut S) -> Result<String, Failure>) -> Self {
        Step {
            name,
            quick: true,
            needs_engine: false,
            fatal: true,
            run,
        }
    }
}

impl<S: Driver> Step<S> {
    /// `quit`*, where the protocol's `quit` has no answer: the process exits within
    /// [`QUIT`].
    fn quit() -> Self {
        Step::on("quit", true, |s| {
            let r = s.c()?.quit_step("quit");
            *s.conn() = None;
            r
        })
    }

    /// `end of input`: a fresh process, brought to where the steps begin
    /// ([`Driver::fresh`]), whose input is closed exits within [`END_OF_INPUT`].
    fn end_of_input() -> Self {
        Step::own("end of input", false, |s| {
            s.fresh()?;
            let r = s.c()?.end_of_input_step();
            if let Some(c) = s.conn().take() {
                c.kill();
            }
            r
        })
    }
}

/// A protocol's steps share an engine process.
trait Driver {
    /// The engine process, if one is running.
    fn conn(&mut self) -> &mut Option<Conn>;
    /// Starts the engine and brings it to where the steps begin (handshake done).
    fn fresh(&mut self) -> Result<(), Failure>;

    /// The running engine, for a step that needs one.
    fn c(&mut self) -> Result<&mut Conn, Failure> {
        self.conn().as_mut().ok_or_else(no_engine)
    }
}

/// The failure of a step that needs a running engine where none runs.
fn no_engine() -> Failure {
    Failure::unsent("no engine running", "a running engine")
}

/// Runs the steps in order (only the quick ones with `quick`), recording each.
fn run_steps<S: Driver>(s: &mut S, steps: &[Step<S>], quick: bool, report: &mut Report) {
    let steps: Vec<&Step<S>> = steps.iter().filter(|st| st.quick || !quick).collect();
    for (i, step) in steps.iter().enumerate() {
        if step.needs_engine && s.conn().is_none() {
            if let Err(f) = s.fresh() {
                // Not this step's failure: the start that every step begins with failed.
                report.not_run = steps.len() - i;
                report.stopped = Some(format!(
                    "starting the engine afresh after a failure failed: sent {}; got {}; \
                     expected {}",
                    f.sent, f.got, f.expected
                ));
                break;
            }
        }
        if let Some(c) = s.conn().as_mut() {
            c.mark();
        }
        let outcome = (step.run)(s);
        let failed = outcome.is_err();
        report.record(step.name, outcome);
        if failed {
            if let Some(c) = s.conn().take() {
                c.kill();
            }
            if step.fatal {
                report.not_run = steps.len() - i - 1;
                break;
            }
        }
    }
    if let Some(c) = s.conn().take() {
        c.kill();
    }
}

/// Positions the steps use, by our rules (`rules`): the start, the start after a few
/// moves, and, if a played-out game ends within [`PLAYOUT_PLIES`], a finished one.
struct Positions<G: Notation> {
    start: G,
    /// A few legal moves from the start, in protocol notation, and where they lead.
    moves: Vec<String>,
    after: G,
    /// A finished game from the start: its moves and its last position.
    over: Option<(Vec<String>, G)>,
}

impl<G: Notation> Positions<G> {
    fn new(rules: G::Rules) -> Positions<G> {
        let start = G::startpos(rules);
        let (moves, after) = playout(&start, 1, 3);
        let over = (1..=20)
            .map(|seed| playout(&start, seed, PLAYOUT_PLIES))
            .find(|(_, pos)| pos.outcome().is_some());
        Positions {
            start,
            moves,
            after,
            over,
        }
    }
}

/// Up to `plies` random legal moves from `from` (seeded, so every check plays the same),
/// stopping where the game ends.
fn playout<G: Notation>(from: &G, seed: u64, plies: usize) -> (Vec<String>, G) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = from.clone();
    let mut names = Vec::new();
    let mut moves = Vec::new();
    while names.len() < plies && pos.outcome().is_none() {
        moves.clear();
        pos.generate_moves(&mut moves);
        let Some(&mv) = moves.get(rng.below(moves.len())) else {
            break;
        };
        names.push(pos.move_name(mv));
        pos.make_move(mv);
    }
    (names, pos)
}

/// The first legal move of `pos` (in generation order), if any.
fn first_move<G: Game>(pos: &G) -> Option<G::Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.first().copied()
}

/// The first legal move at `start`, for a step that plays one.
fn opening_move<G: Game>(start: &G) -> Result<G::Move, Failure> {
    first_move(start)
        .ok_or_else(|| Failure::unsent("no legal move at the start", "a game with moves"))
}

/// UGI's word for a game's result, as `query result` answers.
fn result_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(Side::First)) => "p1win",
        Some(Outcome::Win(Side::Second)) => "p2win",
    }
}

/// Runs the compliance check of `spec` in game `G` (a `proto=text` engine speaks its
/// dialect judged by the rules named `rules`, else its default): every step, or only the quick
/// part. `log`: the traffic log and
/// the engine's tag in it. With `print`, each step's line goes to stdout as it ends.
/// `Err` (one line) when the spec cannot be checked at all: a built-in player, a
/// protocol the game does not speak.
pub fn check<G: Registered>(
    spec: &EngineSpec,
    rules: Option<&str>,
    quick: bool,
    log: Option<(Arc<TrafficLog>, String)>,
    print: bool,
) -> Result<Report, String> {
    let EngineKind::Process { launch, .. } = &spec.kind else {
        return Err(format!(
            "engine {}: a built-in player speaks no protocol to check",
            spec.name
        ));
    };
    let proto = spec.proto::<G>().unwrap_or(Proto::default_for::<G>());
    if proto == Proto::Uai && !G::SPEAKS_UAI {
        return Err(format!(
            "engine {}: {} is not played over UAI (use proto=ugi)",
            spec.name,
            G::NAME
        ));
    }
    if proto.othello_only() && !G::OTHELLO {
        return Err(format!(
            "engine {}: proto={} speaks Othello only; {} is not played over it",
            spec.name,
            proto.name(),
            G::NAME
        ));
    }
    if !spec.options.is_empty() && !matches!(proto, Proto::Uai | Proto::Ugi) {
        return Err(format!(
            "engine {}: proto={} has no options (option.{})",
            spec.name,
            proto.name(),
            spec.options[0].0
        ));
    }
    let target = Target {
        launch: launch.clone(),
        options: spec.options.clone(),
        margin: Duration::from_millis(spec.limits.margin_ms),
        init_timeout: Duration::from_millis(spec.init_timeout_ms),
        log,
    };
    let mut report = Report::new(print);
    match proto {
        Proto::Uai => uci::run::<G>(target, Flavour::Uai, quick, &mut report),
        Proto::Ugi => uci::run::<G>(target, Flavour::Ugi, quick, &mut report),
        Proto::Nboard => nboard::run::<G>(target, quick, &mut report),
        Proto::Gtp => gtp::run::<G>(target, quick, &mut report),
        Proto::Text => match G::text_codec(rules) {
            Some(codec) => text::run::<G>(codec, target, quick, &mut report),
            None => return Err(format!("{} has no text language (proto=text)", G::NAME)),
        },
    }
    Ok(report)
}

const USAGE: &str = "\
usage: tournament compliance [-variant GAME] [-rules NAME] [-quick] [-debug] KEY=VALUE...

Runs a fixed sequence of protocol steps against one engine and prints one line per
step: 'ok STEP (...)' or 'FAIL STEP: sent ...; got ...; expected ...'. KEY=VALUE are
-engine's keys (cmd=, proto=, args=, dir=, option.NAME=, timemargin=, inittimeout=).
-quick runs only the part that -check runs before a tournament; -debug shows the
traffic on stderr. Exit status: 0 every step passed, 1 a step failed, 2 bad command line.
";

/// The check for the game chosen at run time.
struct Visit<'a> {
    spec: &'a EngineSpec,
    /// The rule set's name (`-rules`), if given.
    rules: Option<&'static str>,
    quick: bool,
    log: Option<(Arc<TrafficLog>, String)>,
}

impl GameVisitor for Visit<'_> {
    type Output = Result<Report, String>;

    fn visit<G: Registered>(self) -> Self::Output {
        check::<G>(self.spec, self.rules, self.quick, self.log, true)
    }
}

/// `tournament compliance …` (the arguments after `compliance`); returns the exit
/// status.
pub fn main(args: &[String]) -> i32 {
    let usage = |e: String| {
        eprintln!("tournament compliance: {e}");
        2
    };
    let args = match Args::parse(args) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{USAGE}");
            return 0;
        }
        Err(e) => return usage(e),
    };
    match args.check() {
        Ok(report) => {
            println!("{}", report.summary());
            if report.passed() {
                0
            } else {
                1
            }
        }
        Err(e) => usage(e),
    }
}

/// What `tournament compliance` was asked: the game, its rule set's name as given, the
/// options, and the words of `-engine`.
struct Args {
    variant: Variant,
    rules: Option<String>,
    quick: bool,
    debug: bool,
    words: Vec<String>,
}

impl Args {
    /// Reads the arguments; `Ok(None)` when they ask for the help.
    fn parse(args: &[String]) -> Result<Option<Args>, String> {
        let mut p = Args {
            variant: Variant::ALL[0],
            rules: None,
            quick: false,
            debug: false,
            words: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_str();
            i += 1;
            match a {
                "-help" | "--help" | "-h" | "help" => return Ok(None),
                "-variant" | "-rules" => {
                    let v = args.get(i).ok_or_else(|| format!("{a} needs a value"))?;
                    i += 1;
                    if a == "-variant" {
                        p.variant = Variant::from_name(v)
                            .ok_or_else(|| format!("-variant: unknown game '{v}'"))?;
                    } else {
                        p.rules = Some(v.clone());
                    }
                }
                "-quick" => p.quick = true,
                "-debug" => p.debug = true,
                // The words of `-engine`, with or without the option's name.
                "-engine" => {}
                w if w.contains('=') && !w.starts_with('-') => p.words.push(w.to_string()),
                w => {
                    return Err(format!(
                        "unknown argument '{w}' (see tournament compliance -help)"
                    ))
                }
            }
        }
        Ok(Some(p))
    }

    /// Checks the engine the arguments describe; `Err`: a usage error (no engine, bad
    /// keys, rules the game does not have).
    fn check(self) -> Result<Report, String> {
        if self.words.is_empty() {
            return Err("no engine: give -engine's keys, e.g. cmd=./engine proto=ugi".into());
        }
        let spec = crate::cli::spec::engine_spec(&self.words)?;
        let variant = self.variant;
        let rules =
            match self.rules {
                Some(word) => Some(variant.rules_named(&word).ok_or_else(|| {
                    format!("-rules: unknown rules '{word}' for {}", variant.name())
                })?),
                None => None,
            };
        let log = self.debug.then(|| {
            let sinks: Vec<Box<dyn Write + Send>> = vec![Box::new(std::io::stderr())];
            (TrafficLog::new(Instant::now(), sinks), spec.name.clone())
        });
        let visit = Visit {
            spec: &spec,
            rules,
            quick: self.quick,
            log,
        };
        variant.visit_game(visit)
    }
}

/// The run's `-check`: the quick part of the check for each engine that has games to
/// play, one after the other. `Err` names the engine and its first failing step.
pub fn check_before_run<G: Registered>(
    engines: &[&EngineSpec],
    rules: &str,
    log: Option<&Arc<TrafficLog>>,
) -> Result<(), String> {
    for spec in engines {
        let log = log.map(|l| (Arc::clone(l), format!("{}#check", spec.name)));
        let report = check::<G>(spec, Some(rules), true, log, false)?;
        if let Some(line) = report.first_failure() {
            return Err(format!(
                "engine {} fails -check: {line}; nothing was played",
                spec.name
            ));
        }
        // What no manager relies on is said, and the engine plays.
        let warnings = report.warnings();
        for w in &warnings {
            eprintln!(
                "check: {}: warning (no manager relies on this; the games are played): {w}",
                spec.name
            );
        }
        match warnings.len() {
            0 => eprintln!("check: {}: {} steps ok", spec.name, report.steps.len()),
            n => eprintln!(
                "check: {}: {} steps ok, {n} with a warning",
                spec.name,
                report.steps.len() - n
            ),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_summaries() {
        let fail = Failure {
            minor: false,
            sent: "isready".into(),
            got: "nothing more for 1000 ms".into(),
            expected: "'readyok' within 1000 ms".into(),
        };
        assert_eq!(line("quit", &Ok(String::new())), "ok quit");
        assert_eq!(
            line("quit", &Ok("exited after 3 ms".into())),
            "ok quit (exited after 3 ms)"
        );
        assert_eq!(
            line("isready", &Err(fail.clone())),
            "FAIL isready: sent isready; got nothing more for 1000 ms; expected 'readyok' within 1000 ms"
        );
        let mut r = Report::new(false);
        r.record("handshake", Ok(String::new()));
        assert!(r.passed());
        assert_eq!(r.summary(), "compliance: all 1 steps passed");
        r.record("isready", Err(fail));
        r.not_run = 3;
        assert!(!r.passed());
        assert_eq!(
            r.summary(),
            "compliance: 1 of 5 steps passed; FAIL: isready; 3 steps not run"
        );
        assert!(r.first_failure().unwrap().starts_with("FAIL isready: "));
    }

    #[test]
    fn positions_for_every_game() {
        use engine::game::RuleSet;
        use engine::games::ataxx::{Position, Rules};
        let p = Positions::<Position>::new(Rules::ENGINE);
        assert_eq!(p.moves.len(), 3);
        let (moves, over) = p.over.expect("a random Ataxx game ends");
        assert!(over.outcome().is_some());
        assert!(!moves.is_empty());
        assert_eq!(cut("a\u{1}b", 10), "a?b");
        assert_eq!(cut("abcdef", 3), "abc…");
    }
}

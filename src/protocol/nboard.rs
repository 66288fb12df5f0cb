//! The NBoard protocol: Chris Welty's line protocol between Othello GUIs (NBoard) and
//! engines (NTest, Edax), chosen when the first command is `nboard` or by `--nboard`.
//! `protocol.md` lists every command and reply.
//!
//! The GUI owns the game: it sends the whole game (`set game`, in GGF) or the moves
//! played (`move`), asks for the engine's move (`go`, answered `=== F5/eval/time`; the
//! engine does not play it) or for evaluations (`hint N`, answered with `search` lines),
//! and synchronises with `ping N` / `pong N`. This file parses and formats; the
//! thinking is the shared engine's ([`Engine::rate`], on its search thread), so a
//! `ping` stops it at once: whatever the stopped search found is dropped, since the GUI
//! ignores everything before the `pong`. Positions with few empties go to the exact
//! solver ([`Limits::solve`]), the others to the midgame search at the depth `set
//! depth` gave.
//!
//! NBoard has no clock command: the game's clock is in the GGF record (`TI[…]`, the
//! time control) and in the times attached to its moves and to `move` (seconds each
//! move took). The session keeps both sides' clocks from them, so that a `go` with a
//! clock is managed as UGI's `go p1time … p2time …` is ([`uci::limits_for`]), the
//! depth of `set depth` being only a cap: `set depth 60` means "the time decides".
//!
//! Each line is parsed completely before anything changes (a GGF game is replayed in
//! the parse), so a refused line changes nothing and answers one `status error: …`
//! line: NBoard shows `status` text in its status bar, and its protocol has no error
//! reply.

use crate::game::{Game as _, Side};
use crate::games::reversi::notation::{parse_square, square_name};
use crate::games::reversi::position::{Move, Position};
use crate::protocol::input::{Inbox, Line};
use crate::protocol::play::Play;
use crate::protocol::uci::{self, engine_name, GoParams};
use crate::protocol::OtherProtocol;
use crate::protocol::{emit, quote};
use crate::search::time;
use crate::search::{Engine, Limits, Rated, Rating, Report, SOLVE_MARGIN, STOP_WAIT};
use crossbeam_channel::{select, Receiver};
use std::io::Write;
use std::time::Instant;

/// The protocol as the `reversi` binary offers it.
pub const PROTOCOL: OtherProtocol = OtherProtocol {
    name: "NBoard",
    hello: "nboard",
    flag: "--nboard",
    help: "speak NBoard (the Othello GUIs' protocol) from the first line",
    run,
};

/// Midgame search depth until the GUI sends `set depth`.
pub const DEFAULT_DEPTH: u32 = 12;
/// Deepest `set depth` accepted (a whole game).
pub const MAX_DEPTH: u32 = 60;
/// Midgame search scores per disc, for the GUI's evaluations in discs: the pattern
/// evaluation predicts the final disc difference in these units.
pub const UNITS_PER_DISC: f64 = crate::games::reversi::midgame::UNITS_PER_DISC as f64;
/// Most moves a `hint` evaluates.
const MAX_HINTS: u32 = 64;
/// The midgame search's transposition table, in MiB.
const HASH_MIB: usize = 64;

/// One parsed input line.
#[derive(Clone, Debug, PartialEq)]
enum Command {
    /// `nboard VERSION`: the handshake.
    Hello,
    /// `set depth N`.
    Depth(u32),
    /// `set game GGF`: the position at the end of the game, and its clock.
    Game(Box<Game>),
    /// `set contempt N`: accepted; the engine plays for the disc difference alone.
    Contempt,
    /// `move F5[/EVAL[/TIME]]`, or the bare move of NBoard 1.1, with the seconds it took
    /// if given: legality is checked when it runs.
    Move(Move, Option<f64>),
    /// `hint N`.
    Hint(u32),
    /// `go`.
    Go,
    /// `ping N`: answered `pong N` once nothing is thinking.
    Ping(String),
    /// `learn`: answered `learned` (there is no opening book to add the game to).
    Learn,
    /// `quit`.
    Quit,
}

/// Parses one line; `Ok(None)` for a blank one.
fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let number = |what: &str, text: &str| -> Result<u32, String> {
        text.parse()
            .map_err(|_| format!("{what} needs a number, not {}", quote(text)))
    };
    let cmd = match word {
        "" => return Ok(None),
        "nboard" => {
            number("nboard", rest)?;
            Command::Hello
        }
        "set" => {
            let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.trim();
            match what {
                "depth" => match number("set depth", value)? {
                    d @ 1..=MAX_DEPTH => Command::Depth(d),
                    d => return Err(format!("depth {d} is not in 1..={MAX_DEPTH}")),
                },
                "game" => Command::Game(Box::new(parse_ggf_game(value)?)),
                "contempt" => {
                    value.parse::<f64>().map_err(|_| {
                        format!("set contempt needs a number, not {}", quote(value))
                    })?;
                    Command::Contempt
                }
                _ => return Err(format!("unknown setting {}", quote(what))),
            }
        }
        "move" => {
            let (mv, took) = parse_move_item(rest)?;
            Command::Move(mv, took)
        }
        "hint" => match number("hint", rest)? {
            0 => return Err("hint needs at least 1 move".into()),
            n => Command::Hint(n.min(MAX_HINTS)),
        },
        "go" | "learn" | "quit" if !rest.is_empty() => {
            return Err(format!("{word} takes no argument"));
        }
        "go" => Command::Go,
        "learn" => Command::Learn,
        "quit" => Command::Quit,
        "ping" if rest.is_empty() || rest.contains(char::is_whitespace) => {
            return Err("ping needs one argument".into());
        }
        "ping" => Command::Ping(rest.to_string()),
        _ if rest.is_empty() && parse_move(word).is_ok() => Command::Move(parse_move(word)?, None),
        _ => return Err(format!("unknown command {}", quote(word))),
    };
    Ok(Some(cmd))
}

/// One input line as a command ([`parse`]); a line over the reader's bound is refused
/// whole.
fn read(line: &Line) -> Result<Option<Command>, String> {
    if line.too_long {
        Err("line too long".into())
    } else {
        parse(&line.text)
    }
}

/// A move as NBoard writes it: `F5` (either case), `PA` for the pass.
fn parse_move(text: &str) -> Result<Move, String> {
    if text.eq_ignore_ascii_case("pa") {
        return Ok(Move::PASS);
    }
    parse_square(text)
        .map(Move::place)
        .map_err(|_| format!("bad move {}", quote(text)))
}

/// A move with the optional evaluation and time GGF and `move` attach: `F5/1.00/2.5`.
/// Returns the move and the seconds it took, if given.
fn parse_move_item(text: &str) -> Result<(Move, Option<f64>), String> {
    let mut parts = text.split('/');
    let mv = parse_move(parts.next().unwrap_or("").trim())?;
    let mut took = None;
    for (i, part) in parts.by_ref().take(2).enumerate() {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        match part.parse::<f64>() {
            Ok(v) if v.is_finite() && (i == 0 || v >= 0.0) => {
                if i == 1 {
                    took = Some(v);
                }
            }
            _ => return Err(format!("bad evaluation or time {}", quote(part))),
        }
    }
    if parts.next().is_some() {
        return Err(format!("bad move {}", quote(text)));
    }
    Ok((mv, took))
}

/// A game's time control, from GGF's `TI[ini/inc/ext]` (GGS's clock notation): the
/// initial time and the time added after each move. The extension (overtime) and
/// GGS's move-count modifiers (`,N40`) are not modelled: planning with the initial time
/// and the increment alone is the safe side of every GGS clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgfClock {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

/// The clock each side has used, as the game's moves report it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Used {
    /// Seconds charged, per side (index [`Side::index`]).
    seconds: [f64; 2],
    /// Moves made, per side (each earns the increment).
    moves: [u32; 2],
}

impl Used {
    fn charge(&mut self, side: Side, took: Option<f64>) {
        self.seconds[side.index()] += took.unwrap_or(0.0);
        self.moves[side.index()] += 1;
    }

    /// What `side` has left on `clock`, in milliseconds (never negative).
    fn left_ms(&self, clock: GgfClock, side: Side) -> u64 {
        let i = side.index();
        let earned = clock.initial_ms as f64 + clock.increment_ms as f64 * self.moves[i] as f64;
        (earned - self.seconds[i] * 1000.0).max(0.0) as u64
    }
}

/// Longest GGS time accepted, in seconds (a year: anything longer is a typo).
const MAX_GGF_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A GGS time, `[[HH:]MM:]SS` (decimals allowed in the seconds), in milliseconds; empty
/// is zero. Modifiers after a comma (`5:00,N40`) are ignored.
fn parse_ggf_time(text: &str) -> Result<u64, String> {
    let t = text.split(',').next().unwrap_or("").trim();
    if t.is_empty() {
        return Ok(0);
    }
    let bad = || format!("bad time {}", quote(text));
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() > 3 {
        return Err(bad());
    }
    let mut seconds = 0.0;
    for (i, part) in parts.iter().enumerate() {
        let v: f64 = if i + 1 == parts.len() {
            part.parse().map_err(|_| bad())?
        } else {
            part.parse::<u32>().map_err(|_| bad())? as f64
        };
        if !v.is_finite() || v < 0.0 {
            return Err(bad());
        }
        seconds = seconds * 60.0 + v;
    }
    if seconds > MAX_GGF_SECONDS {
        return Err(bad());
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// GGF's `TI[ini/inc/ext]`.
fn parse_ggf_clock(value: &str) -> Result<GgfClock, String> {
    let mut fields = value.split('/');
    let initial_ms = parse_ggf_time(fields.next().unwrap_or(""))?;
    let increment_ms = parse_ggf_time(fields.next().unwrap_or(""))?;
    Ok(GgfClock {
        initial_ms,
        increment_ms,
    })
}

/// What `set game` sets: the position at the end of the record, the time control if
/// the record has one, and the time each side's moves took.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub pos: Position,
    pub clock: Option<GgfClock>,
    used: Used,
}

/// NBoard's form of a move: `F5`, or `PA`.
fn move_name(mv: Move) -> String {
    if mv.is_pass() {
        "PA".into()
    } else {
        square_name(mv.square()).to_ascii_uppercase()
    }
}

/// The position at the end of a GGF game record:
/// `(;GM[Othello]…TY[8]BO[8 <64 squares> <side>]B[F5]W[F6]…;)`, squares `*` black, `O`
/// white, `-` empty, row by row from a1; the side to move `*` or `O`. Moves are
/// `B[..]`/`W[..]` with optional `/eval/time`; a move by the side not to move is
/// preceded by its opponent's pass when that side had no move (records sometimes leave
/// passes out). Properties other than `GM`, `TY`, `BO`, `B`, `W` are skipped.
pub fn parse_ggf(text: &str) -> Result<Position, String> {
    parse_ggf_game(text).map(|g| g.pos)
}

/// [`parse_ggf`] with the game's clock (`TI`) and the times its moves took.
pub fn parse_ggf_game(text: &str) -> Result<Game, String> {
    let body = text
        .trim()
        .strip_prefix("(;")
        .and_then(|b| b.strip_suffix(";)"))
        .ok_or("a GGF game is written (; … ;)")?;
    let mut pos: Option<Position> = None;
    let mut clock = None;
    let mut used = Used::default();
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let open = rest.find('[').ok_or("a GGF property needs [value]")?;
        let key = rest[..open].trim();
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!("bad GGF property name {}", quote(key)));
        }
        let (value, len) = ggf_value(&rest[open + 1..]).ok_or("unclosed [ in the game")?;
        rest = rest[open + 1 + len..].trim_start();
        match key {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!("not an Othello game: GM[{}]", quote(&value)));
            }
            "TY" if !matches!(value.trim(), "8" | "8r") => {
                return Err(format!("unsupported board type TY[{}]", quote(&value)));
            }
            "BO" => pos = Some(parse_ggf_board(&value)?),
            "TI" => clock = Some(parse_ggf_clock(&value)?),
            "B" | "W" => {
                let p = pos.as_mut().ok_or("a move before the board (BO)")?;
                let side = if key == "B" {
                    Side::First
                } else {
                    Side::Second
                };
                let (mv, took) = parse_move_item(&value)?;
                if p.side_to_move() != side && p.is_legal(Move::PASS) {
                    p.make_move(Move::PASS);
                }
                if p.side_to_move() != side || !p.is_legal(mv) {
                    return Err(format!("illegal move {key}[{}] in the game", quote(&value)));
                }
                used.charge(side, took);
                p.make_move(mv);
            }
            _ => {}
        }
    }
    let pos = pos.ok_or_else(|| "no board (BO) in the game".to_string())?;
    Ok(Game { pos, clock, used })
}

/// A GGF value after its `[`: the text up to the first `]` not escaped by `\`, and the
/// bytes used including that `]`.
fn ggf_value(text: &str) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => {
                value.push(c);
                escaped = false;
            }
            '\\' => escaped = true,
            ']' => return Some((value, i + 1)),
            _ => value.push(c),
        }
    }
    None
}

/// `8 <64 squares> <side>` of a GGF `BO` property.
fn parse_ggf_board(value: &str) -> Result<Position, String> {
    let mut fields: Vec<&str> = value.split_whitespace().collect();
    if fields.first() != Some(&"8") || fields.len() < 3 {
        return Err(format!("bad board BO[{}]", quote(value)));
    }
    let side = match fields.pop() {
        Some("*") => 'X',
        Some("O" | "o") => 'O',
        _ => return Err(format!("bad side to move in BO[{}]", quote(value))),
    };
    let squares: String = fields[1..].concat();
    if squares.chars().count() != 64 {
        return Err(format!("a board has 64 squares, BO[{}]", quote(value)));
    }
    let mut obf = String::with_capacity(66);
    for c in squares.chars() {
        obf.push(match c {
            '*' => 'X',
            'O' | 'o' => 'O',
            '-' | '.' => '-',
            _ => return Err(format!("bad square {} in the board", quote(&c.to_string()))),
        });
    }
    obf.push(' ');
    obf.push(side);
    Position::from_obf(&obf).map_err(|e| e.to_string())
}

/// What `go` and `hint` ask of the engine, kept to format its answer.
#[derive(Clone, Debug)]
struct Ask {
    pos: Position,
    depth: u32,
    /// `None` for `go`, else the moves `hint` reports.
    hint: Option<u32>,
    /// Each side's time left and increment in milliseconds, when the game has a clock.
    clock: Option<([u64; 2], u64)>,
    /// When the command arrived: the clock runs from here.
    at: Instant,
}

impl Ask {
    /// The engine's limits: the depth, and an exact solve with few empties; for a `go`
    /// on a clock, the time the UGI front end would give the same clock (the depth then
    /// only caps it), and the solve gets half of it, as the search's own solver does.
    fn limits(&self) -> Limits {
        let mut limits = match (self.clock, self.hint) {
            (Some((left, inc)), None) => {
                let p = GoParams {
                    time: left.map(Some),
                    inc: [Some(inc); 2],
                    depth: Some(self.depth),
                    ..GoParams::default()
                };
                uci::limits_for(
                    &p,
                    self.pos.side_to_move(),
                    self.pos.moves_left(),
                    time::DEFAULT_OVERHEAD,
                    &time::Policy::default(),
                    self.at,
                )
            }
            _ => Limits {
                depth: Some(self.depth),
                ..Limits::default()
            },
        };
        limits.solve = Some(self.depth + SOLVE_MARGIN);
        limits.timed_solve = true;
        limits
    }

    /// The answer's lines: `nodestats` and `===` for `go`, the `search` lines and
    /// `nodestats` for `hint`; nothing for a stopped job (the GUI waits for `pong`).
    fn answer(&self, rating: &Rating<Move>) -> Vec<String> {
        let stats = format!(
            "nodestats {} {:.2}",
            rating.nodes,
            rating.time.as_secs_f64()
        );
        let mut rated: Vec<(f64, &Rated<Move>)> = rating
            .moves
            .iter()
            .map(|r| (eval(&self.pos, r), r))
            .collect();
        match self.hint {
            None => match rated.first() {
                Some(&(eval, r)) => vec![
                    stats,
                    format!(
                        "=== {}/{}/{:.1}",
                        move_name(r.pv[0]),
                        eval_text(eval),
                        rating.time.as_secs_f64()
                    ),
                ],
                None => Vec::new(),
            },
            Some(_) if !rating.complete => Vec::new(),
            Some(n) => {
                rated.sort_by(|a, b| b.0.total_cmp(&a.0));
                let mut lines: Vec<String> = rated
                    .iter()
                    .take(n as usize)
                    .map(|&(eval, r)| search_line(r, eval))
                    .collect();
                lines.push(stats);
                lines
            }
        }
    }
}

/// A move's evaluation in discs for the side to move at `root`: exact when solved, the
/// midgame score per [`UNITS_PER_DISC`], or for a proven result the disc difference at
/// the end of its line when the line reaches the end, else the smallest margin of
/// that sign.
fn eval(root: &Position, r: &Rated<Move>) -> f64 {
    match (r.margin, r.score.plies_to_end()) {
        (Some(margin), _) => margin as f64,
        (None, None) => r.score.0 as f64 / UNITS_PER_DISC,
        (None, Some(_)) => proven_margin(root, &r.pv, r.score.0.signum()) as f64,
    }
}

/// `search PV EVAL 0 DEPTH [exact]`.
fn search_line(r: &Rated<Move>, eval: f64) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&m| move_name(m)).collect();
    let exact = if r.margin.is_some() { " exact" } else { "" };
    format!(
        "search {} {} 0 {}{exact}",
        pv.join("-"),
        eval_text(eval),
        r.depth
    )
}

/// An evaluation with two decimals, never `-0.00`.
fn eval_text(eval: f64) -> String {
    let e = (eval * 100.0).round() / 100.0;
    format!("{:.2}", if e == 0.0 { 0.0 } else { e })
}

/// The margin a proven line reaches for the side to move of `pos`, or `sign * 2` (the
/// smallest win) if the line stops before the end.
fn proven_margin(pos: &Position, pv: &[Move], sign: i32) -> i32 {
    let mut p = pos.clone();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        p.make_move(mv);
    }
    if !p.is_over() {
        return 2 * sign;
    }
    let m = p.final_margin();
    if pos.side_to_move() == Side::First {
        m
    } else {
        -m
    }
}

/// The session's state: the game, the depth, the engine and the lines waiting for it.
/// One job runs on the engine at a time, and the lines that came after it wait in the
/// inbox until it has answered, so replies keep the commands' order; only `ping` and
/// `quit` act at once.
struct Session {
    game: Play<Position>,
    /// The game's time control (`TI` of the last `set game`), and what each side used.
    clock: Option<GgfClock>,
    used: Used,
    depth: u32,
    engine: Engine<Position>,
    /// The job the engine runs.
    running: Option<Ask>,
    /// The lines not yet run, and the channel they arrive on.
    inbox: Inbox,
}

impl Session {
    /// A line from the GUI: `ping` and `quit` act at once, any other line runs when the
    /// running job and the lines before it are done. False at `quit`.
    fn on_input(&mut self, line: Line, out: &mut dyn Write) -> bool {
        let cmd = read(&line);
        match cmd {
            Ok(Some(Command::Ping(n))) => {
                self.stop_all(out);
                emit(out, &format!("pong {n}"));
                true
            }
            Ok(Some(Command::Quit)) => {
                self.quit(out);
                false
            }
            _ if self.running.is_some() || !self.inbox.is_empty() => {
                if self.inbox.is_full() {
                    emit(out, "status error: busy: too many commands waiting");
                } else {
                    self.inbox.wait(line);
                }
                true
            }
            _ => self.on_line(&line, cmd, false, out),
        }
    }

    /// Starts a `go` or `hint` for the current position; `at`: when it arrived.
    fn think(&mut self, out: &mut dyn Write, hint: Option<u32>, at: Instant) {
        if self.game.pos.is_over() {
            let what = match hint {
                None => "there is no move",
                Some(_) => "there is nothing to evaluate",
            };
            emit(out, &format!("status error: the game is over, {what}"));
            return;
        }
        let clock = self.clock.map(|c| {
            let left = [Side::First, Side::Second].map(|s| self.used.left_ms(c, s));
            (left, c.increment_ms)
        });
        let ask = Ask {
            pos: self.game.pos.clone(),
            depth: self.depth,
            hint,
            clock,
            at,
        };
        emit(out, "status thinking");
        // A hint for one move is the best move; for more, every move's.
        let each = hint.is_some_and(|n| n > 1);
        self.engine.rate(ask.pos.clone(), ask.limits(), each);
        self.running = Some(ask);
    }

    /// Runs the lines that waited, in order, until one starts a job or none is left.
    fn resume(&mut self, out: &mut dyn Write) {
        while self.running.is_none() {
            let Some((line, stopped)) = self.inbox.pop() else {
                break;
            };
            self.on_line(&line, read(&line), stopped, out);
        }
    }

    /// Handles an engine report: the running job's answer.
    fn on_report(&mut self, report: Report<Move>, out: &mut dyn Write) {
        if let Report::Rated(rating) = report {
            if let Some(ask) = self.running.take() {
                for line in ask.answer(&rating) {
                    emit(out, &line);
                }
                emit(out, "status");
            }
            self.resume(out);
        }
    }

    /// Waits for the running job's answer and writes it (nothing if none runs).
    fn wait(&mut self, out: &mut dyn Write) -> bool {
        if self.running.is_none() {
            return false;
        }
        match self.engine.reports().recv() {
            Ok(report) => self.on_report(report, out),
            Err(_) => {
                self.running = None;
                while self.inbox.pop().is_some() {}
            }
        }
        true
    }

    /// Stops the running job (its answer is dropped unless it had finished), and runs
    /// the lines that waited without starting a job: a `go` or `hint` among them is
    /// dropped, the GUI having moved on.
    fn stop_all(&mut self, out: &mut dyn Write) {
        self.inbox.stop_waiting();
        if self.running.is_some() {
            let stopper = self.engine.stopper();
            if !stopper.stop_and_wait(Instant::now() + STOP_WAIT, |r| self.on_report(r, out)) {
                // Its late answer is for nobody: the GUI waits for the pong.
                self.running = None;
            }
        }
        self.resume(out);
    }

    /// Writes what every job asked still says (the end of input).
    fn finish(&mut self, out: &mut dyn Write) {
        self.resume(out);
        while self.wait(out) {}
    }

    /// `quit`: stops the running job and drops the `go`s and `hint`s waiting (their
    /// answers would be read by nobody), but runs the other lines that came first, in
    /// order.
    fn quit(&mut self, out: &mut dyn Write) {
        self.inbox.stop_waiting();
        if self.running.take().is_some() {
            // The stopped job's answer is dropped; only its end is awaited.
            self.engine
                .stopper()
                .stop_and_wait(Instant::now() + STOP_WAIT, |_| {});
        }
        self.resume(out);
    }

    /// Runs one line, read as `cmd` ([`read`]); `stopped`: a `ping` or `quit` came after
    /// it while it waited, so a `go` or `hint` is dropped.
    fn on_line(
        &mut self,
        line: &Line,
        cmd: Result<Option<Command>, String>,
        stopped: bool,
        out: &mut dyn Write,
    ) -> bool {
        let cmd = match cmd {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return true,
            Err(e) => {
                emit(out, &format!("status error: {e}"));
                return true;
            }
        };
        match cmd {
            Command::Hello => emit(out, &format!("set myname {}", engine_name::<Position>())),
            Command::Depth(d) => self.depth = d,
            Command::Game(game) => {
                self.game.restart(game.pos);
                self.clock = game.clock;
                self.used = game.used;
            }
            Command::Contempt => {}
            Command::Move(mv, took) => {
                if self.game.pos.is_legal(mv) {
                    self.used.charge(self.game.pos.side_to_move(), took);
                    self.game.play(mv);
                } else {
                    emit(
                        out,
                        &format!("status error: illegal move {}", move_name(mv)),
                    );
                }
            }
            Command::Hint(_) | Command::Go if stopped => {}
            Command::Hint(n) => self.think(out, Some(n), line.at),
            Command::Go => self.think(out, None, line.at),
            // Acted on when it arrived (`on_input`).
            Command::Ping(_) | Command::Quit => {}
            Command::Learn => emit(out, "learned"),
        }
        true
    }
}

/// Runs an NBoard session from its first line (`None` when `--nboard` chose it) to
/// `quit` or the end of input. Returns the exit status (0).
pub fn run(first: Option<Line>, input: Receiver<Line>, out: &mut dyn Write) -> i32 {
    let mut s = Session {
        game: Play::new(Position::startpos()),
        clock: None,
        used: Used::default(),
        depth: DEFAULT_DEPTH,
        engine: Engine::new(HASH_MIB),
        running: None,
        inbox: Inbox::new(input, None),
    };
    if let Some(line) = first {
        if !s.on_input(line, out) {
            return 0;
        }
    }
    let reports = s.engine.reports().clone();
    loop {
        select! {
            recv(s.inbox.arrivals()) -> line => match line {
                Ok(line) => {
                    if !s.on_input(line, out) {
                        break;
                    }
                }
                // End of input: what was asked still gets its answer.
                Err(_) => {
                    s.inbox.close();
                    s.finish(out);
                    break;
                }
            },
            recv(reports) -> report => match report {
                Ok(report) => s.on_report(report, out),
                Err(_) => break,
            },
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::input::spawn_reader;
    use std::time::Duration;

    /// The game of the NBoard protocol's example session.
    const EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]\
        PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O-----------\
        ---------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    /// Black (`*`) at b1, White at a1, Black to move: Black must pass, then White's c1
    /// ends the game with every disc White's (+64).
    fn must_pass() -> String {
        format!("(;GM[Othello]BO[8 O*{} *];)", "-".repeat(62))
    }

    /// Runs a whole session on `input` (its end closes the input); returns the output.
    fn session(input: &str) -> String {
        let lines = spawn_reader(std::io::Cursor::new(input.to_string().into_bytes()));
        let mut out = Vec::new();
        assert_eq!(run(None, lines, &mut out), 0);
        String::from_utf8(out).unwrap()
    }

    fn replay(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = parse_move(m).unwrap();
            assert!(pos.is_legal(mv), "{m}");
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn reads_the_example_game() {
        let pos = parse_ggf(EXAMPLE).unwrap();
        assert_eq!(
            pos,
            replay(&["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"])
        );
        // Evaluations and times on moves, lower-case squares, an escaped `]`, a comment.
        let annotated = "(;GM[Othello]C[a \\] b]BO[8 ---------------------------O*------*O\
            --------------------------- *]B[f5/0.50/1.2]W[F6//3];)";
        assert_eq!(parse_ggf(annotated).unwrap(), replay(&["f5", "f6"]));
        // A record that leaves Black's forced pass out.
        let pass_left_out = must_pass().replace(";)", "W[C1];)");
        assert!(parse_ggf(&pass_left_out).unwrap().is_over());
    }

    #[test]
    fn reads_the_clock_of_a_game() {
        let board = "BO[8 ---------------------------O*------*O--------------------------- *]";
        let game =
            |ti: &str, moves: &str| parse_ggf_game(&format!("(;GM[Othello]{ti}{board}{moves};)"));
        let clock = |ini, inc| {
            Some(GgfClock {
                initial_ms: ini,
                increment_ms: inc,
            })
        };
        assert_eq!(game("", "").unwrap().clock, None);
        assert_eq!(game("TI[0:05]", "").unwrap().clock, clock(5_000, 0));
        assert_eq!(game("TI[15:00]", "").unwrap().clock, clock(900_000, 0));
        assert_eq!(game("TI[1:00:00]", "").unwrap().clock, clock(3_600_000, 0));
        assert_eq!(
            game("TI[5:00/0:02]", "").unwrap().clock,
            clock(300_000, 2_000)
        );
        assert_eq!(
            game("TI[0:05/0:00.1]", "").unwrap().clock,
            clock(5_000, 100)
        );
        // GGS's modifiers and extension are read past.
        assert_eq!(
            game("TI[5:00,N40/0:02/1:00]", "").unwrap().clock,
            clock(300_000, 2_000)
        );
        for bad in ["TI[x]", "TI[1:2:3:4]", "TI[-5]", "TI[1e99]", "TI[0:-1]"] {
            assert!(game(bad, "").is_err(), "{bad}");
        }
        // Each side is charged the times of its own moves and earns the increment.
        let g = game("TI[1:00/0:01]", "B[F5//2.5]W[F6/0.5/10]B[D3//0.5]").unwrap();
        let c = g.clock.unwrap();
        assert_eq!(g.used.left_ms(c, Side::First), 60_000 + 2_000 - 3_000);
        assert_eq!(g.used.left_ms(c, Side::Second), 60_000 + 1_000 - 10_000);
        let g = game("TI[0:05]", "B[F5//9]").unwrap();
        assert_eq!(g.used.left_ms(g.clock.unwrap(), Side::First), 0);
    }

    /// `set depth 60` with a game clock: the time decides, as the runner and NBoard
    /// expect (this searched to depth 60 and forfeited before the clock was read).
    #[test]
    fn go_keeps_to_the_game_clock() {
        let game = "(;GM[Othello]PC[t]TI[0:05]TY[8]BO[8 ---------------------------O*------*O\
            --------------------------- *]B[D3]W[E3]B[F5]W[E6]B[F2]W[C4];)";
        let (tx, rx) = crossbeam_channel::unbounded();
        let runner = session_within(rx);
        let start = Instant::now();
        for l in [
            "nboard 2",
            "set depth 60",
            &format!("set game {game}"),
            "go",
        ] {
            tx.send(Line::new(l)).unwrap();
        }
        drop(tx);
        let out = runner();
        // 5 s for Black's whole game of ~27 moves: well under a second for this one.
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{:?}",
            start.elapsed()
        );
        let (mv, _) = answer(&out);
        assert!(parse_ggf(game).unwrap().is_legal(parse_move(&mv).unwrap()));
        // The clock charged by `move` counts too: with a second left, the answer is quicker.
        let moves = [
            "move D3//0",
            "move E3//0",
            "move F5//4",
            "move E6//0",
            "move F2//0",
            "move C4//0",
        ];
        let (tx, rx) = crossbeam_channel::unbounded();
        let runner = session_within(rx);
        let start = Instant::now();
        let setup = "(;GM[Othello]TI[0:05]BO[8 ---------------------------O*------*O--------------------------- *];)";
        for l in ["nboard 2", "set depth 60", &format!("set game {setup}")] {
            tx.send(Line::new(l)).unwrap();
        }
        for l in moves {
            tx.send(Line::new(l)).unwrap();
        }
        tx.send(Line::new("go")).unwrap();
        drop(tx);
        let out = runner();
        assert!(
            start.elapsed() < Duration::from_millis(600),
            "{:?}",
            start.elapsed()
        );
        assert!(out.contains("=== "), "{out}");
    }

    /// Runs a session on `rx` on its own thread; the returned function waits for its
    /// output, failing after 10 s instead of hanging the suite when the engine ignores
    /// the clock.
    fn session_within(rx: crossbeam_channel::Receiver<Line>) -> impl FnOnce() -> String {
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let mut out = Vec::new();
            run(None, rx, &mut out);
            let _ = done_tx.send(String::from_utf8(out).unwrap());
        });
        move || {
            done_rx
                .recv_timeout(Duration::from_secs(10))
                .expect("the session ends well within its clock")
        }
    }

    #[test]
    fn refuses_bad_games() {
        let board = "BO[8 ---------------------------O*------*O--------------------------- *]";
        for bad in [
            "",
            "GM[Othello]",
            "(;GM[Chess];)",
            "(;GM[Othello]TY[10]BO[10 x *];)",
            "(;GM[Othello]TY[8a];)",
            "(;GM[Othello]BO[8 --- *];)",
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- X];)",
            "(;GM[Othello]BO[8 ---------------------------O#------*O--------------------------- *];)",
            "(;GM[Othello]B[F5]BO[8 ---------------------------O*------*O--------------------------- *];)",
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *",
            "(;GM[Othello];)",
        ] {
            assert!(parse_ggf(bad).is_err(), "accepted {bad:?}");
        }
        for moves in ["B[A1]", "W[F5]", "B[F5]B[F6]", "B[PA]", "B[F5/x]", "B[Z9]"] {
            let game = format!("(;GM[Othello]{board}{moves};)");
            assert!(parse_ggf(&game).is_err(), "accepted {game}");
        }
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  "), Ok(None));
        assert_eq!(parse("nboard 2"), Ok(Some(Command::Hello)));
        assert_eq!(parse("set depth 7"), Ok(Some(Command::Depth(7))));
        assert_eq!(parse("set contempt -1.5"), Ok(Some(Command::Contempt)));
        assert_eq!(
            parse("move f5"),
            Ok(Some(Command::Move(parse_move("f5").unwrap(), None)))
        );
        assert_eq!(
            parse("move PA/1.0/2"),
            Ok(Some(Command::Move(Move::PASS, Some(2.0))))
        );
        // NBoard 1.1 sends the bare move.
        assert_eq!(
            parse("D3"),
            Ok(Some(Command::Move(parse_move("d3").unwrap(), None)))
        );
        assert_eq!(parse("hint 300"), Ok(Some(Command::Hint(MAX_HINTS))));
        assert_eq!(parse("ping 12"), Ok(Some(Command::Ping("12".into()))));
        assert_eq!(parse("go"), Ok(Some(Command::Go)));
        assert_eq!(parse("learn"), Ok(Some(Command::Learn)));
        assert_eq!(parse("quit"), Ok(Some(Command::Quit)));
        for bad in [
            "nboard",
            "nboard two",
            "set depth 0",
            "set depth 61",
            "set depth",
            "set colour 3",
            "set contempt x",
            "set game (;GM[Othello];)",
            "move",
            "move i9",
            "move f5/1/2/3",
            "move f5/1/-2",
            "move f5//inf",
            "hint 0",
            "hint",
            "ping",
            "ping 1 2",
            "go now",
            "frobnicate",
        ] {
            assert!(parse(bad).is_err(), "accepted {bad:?}");
        }
    }

    /// Fields of each `search` line: the PV's first move, the evaluation, the depth.
    fn searches(out: &str) -> Vec<(String, f64, u32)> {
        out.lines()
            .filter_map(|l| l.strip_prefix("search "))
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                assert_eq!(f[2], "0", "{l}");
                (
                    f[0][..2].to_string(),
                    f[1].parse().unwrap(),
                    f[3].parse().unwrap(),
                )
            })
            .collect()
    }

    /// The move and evaluation of the `===` line.
    fn answer(out: &str) -> (String, f64) {
        let line = out.lines().find(|l| l.starts_with("=== ")).expect(out);
        let f: Vec<&str> = line[4..].split('/').collect();
        assert_eq!(f.len(), 3, "{line}");
        f[2].parse::<f64>().unwrap();
        (f[0].to_string(), f[1].parse().unwrap())
    }

    #[test]
    fn example_session_go_and_hint() {
        let out = session(&format!(
            "nboard 2\nset game {EXAMPLE}\nset depth 6\nping 1\ngo\n"
        ));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            format!("set myname {}", engine_name::<Position>())
        );
        assert_eq!(lines[1], "pong 1");
        assert_eq!(lines[2], "status thinking");
        assert!(lines[3].starts_with("nodestats "), "{out}");
        assert!(lines[4].starts_with("=== "), "{out}");
        assert_eq!(lines[5], "status");
        assert_eq!(lines.len(), 6, "{out}");
        let pos = parse_ggf(EXAMPLE).unwrap();
        let (mv, _) = answer(&out);
        assert!(pos.is_legal(parse_move(&mv).unwrap()), "{mv}");

        let out = session(&format!(
            "nboard 2\nset game {EXAMPLE}\nset depth 4\nhint 3\n"
        ));
        let s = searches(&out);
        assert_eq!(s.len(), 3, "{out}");
        for w in s.windows(2) {
            assert!(w[0].1 >= w[1].1, "{out}");
            assert_ne!(w[0].0, w[1].0);
        }
        for (mv, _, depth) in &s {
            assert!(pos.is_legal(parse_move(mv).unwrap()), "{mv}");
            assert_eq!(*depth, 4);
        }
        assert!(out.ends_with("status\n"), "{out}");
    }

    #[test]
    fn moves_and_games_change_the_position_and_errors_change_nothing() {
        // The same position reached three ways gives the same answer.
        let direct = session(&format!(
            "nboard 2\nset game {EXAMPLE}\nset depth 5\nhint 2\n"
        ));
        let by_moves = session(
            "nboard 2\nmove F5\nmove F6/0.1/2\nD3\nmove C5\nmove E6\nmove F7\nmove E7\nmove F4\n\
             set depth 5\nhint 2\n",
        );
        let with_junk = session(&format!(
            "nboard 2\nset game {EXAMPLE}\nmove A1\nmove PA\nset game (;GM[Othello]B[F5];)\n\
             set depth 99\nset depth 5\nmove\nhint 0\nwhatever\nhint 2\n"
        ));
        assert_eq!(searches(&direct), searches(&by_moves));
        assert_eq!(searches(&direct), searches(&with_junk));
        let errors: Vec<&str> = with_junk
            .lines()
            .filter(|l| l.starts_with("status error: "))
            .collect();
        assert_eq!(errors.len(), 7, "{with_junk}");
        assert_eq!(errors[0], "status error: illegal move A1");
    }

    #[test]
    fn forced_pass_and_finished_game() {
        let out = session(&format!("nboard 2\nset game {}\ngo\nhint 2\n", must_pass()));
        assert_eq!(answer(&out), ("PA".to_string(), -64.0));
        assert_eq!(searches(&out), vec![("PA".to_string(), -64.0, 2)]);
        let out = session(&format!(
            "nboard 2\nset game {}\nmove PA\nmove C1\ngo\nhint 1\nlearn\n",
            must_pass()
        ));
        assert!(!out.contains("==="), "{out}");
        assert!(out.contains("status error: the game is over, there is no move"));
        assert!(out.ends_with("learned\n"), "{out}");
    }

    #[test]
    fn solves_few_empties_exactly() {
        // FFO #40: 20 empties, Black's best is a2 for +38; c7 is second with +36 (the
        // published answers).
        let ffo40 = "O--OOOO*-OOOOOO*OO**OOO*OO*OOO**OOOOOO**---OOOO*----O--*--------";
        let game = format!("(;GM[Othello]BO[8 {ffo40} *];)");
        let out = session(&format!(
            "nboard 2\nset game {game}\nset depth 12\ngo\nhint 2\n"
        ));
        assert_eq!(answer(&out), ("A2".to_string(), 38.0));
        assert_eq!(
            searches(&out)
                .into_iter()
                .map(|(m, e, _)| (m, e))
                .collect::<Vec<_>>(),
            vec![("A2".to_string(), 38.0), ("C7".to_string(), 36.0)]
        );
        assert!(
            out.lines().filter(|l| l.ends_with(" exact")).count() == 2,
            "{out}"
        );
    }

    /// Sends `before`, waits, then `after`; returns the output and the time from the
    /// second batch to the end of the session.
    fn interrupted(before: &str, after: &str) -> (String, Duration) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let runner = std::thread::spawn(move || {
            let mut out = Vec::new();
            run(None, rx, &mut out);
            String::from_utf8(out).unwrap()
        });
        for l in before.lines() {
            tx.send(Line::new(l)).unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        for l in after.lines() {
            tx.send(Line::new(l)).unwrap();
        }
        drop(tx);
        let out = runner.join().unwrap();
        (out, start.elapsed())
    }

    #[test]
    fn ping_stops_the_search_and_the_solver() {
        // A depth-60 midgame search from the start would run for ages.
        let (out, took) = interrupted("nboard 2\nset depth 60\ngo\n", "ping 3\nquit\n");
        assert!(out.contains("pong 3"), "{out}");
        assert!(!out.contains("==="), "{out}");
        assert!(took < Duration::from_secs(20), "{took:?}");
        // FFO #45 (24 empties) takes the solver seconds.
        let ffo45 = "---****-*-***O--**O*OO--***O*O--**O**O---O***OO-O-OOOO------OO--";
        let (out, took) = interrupted(
            &format!("nboard 2\nset game (;GM[Othello]BO[8 {ffo45} *];)\nset depth 60\nhint 1\n"),
            "ping 4\ngo\nquit\n",
        );
        assert!(out.contains("pong 4"), "{out}");
        assert!(!out.contains("search "), "{out}");
        assert!(took < Duration::from_secs(20), "{took:?}");
    }

    /// Random junk, including GGF fragments and non-ASCII bytes, never ends the session
    /// or changes the position: each line is either accepted or refused with one
    /// `status error:` line, and afterwards the engine still answers from the position
    /// it had.
    #[test]
    fn junk_never_crashes_and_changes_nothing() {
        use crate::rng::SplitMix64;
        const WORDS: &[&str] = &[
            "nboard",
            "set",
            "depth",
            "game",
            "contempt",
            "move",
            "hint",
            "go",
            "ping",
            "learn",
            "F5",
            "pa",
            "PA/1/2",
            "Z9",
            "0",
            "-1",
            "61",
            "99999999999999999999",
            "(;",
            ";)",
            "GM[Othello]",
            "BO[8",
            "B[F5]",
            "W[",
            "]",
            "\\",
            "é",
            "\u{0}",
            "/",
            "x",
            "*",
            "O",
            "--------",
        ];
        let mut rng = SplitMix64::new(2026);
        let mut script = format!("nboard 2\nset game {EXAMPLE}\nset depth 4\n");
        for _ in 0..400 {
            let n = rng.below(6);
            let words: Vec<&str> = (0..n).map(|_| *rng.choose(WORDS).unwrap()).collect();
            let line = words.join(if rng.below(3) == 0 { "" } else { " " });
            // Junk that happens to be a valid command would change the position.
            if matches!(parse(&line), Ok(Some(Command::Move(..) | Command::Game(_)))) {
                continue;
            }
            // `quit` ends the session (none is generated), `go`/`hint` would think.
            if matches!(
                parse(&line),
                Ok(Some(Command::Go | Command::Hint(_) | Command::Ping(_)))
            ) {
                continue;
            }
            script.push_str(&line);
            script.push('\n');
        }
        script.push_str("set depth 4\nhint 2\n");
        let out = session(&script);
        let clean = session(&format!(
            "nboard 2\nset game {EXAMPLE}\nset depth 4\nhint 2\n"
        ));
        assert_eq!(searches(&out), searches(&clean));
        assert!(
            out.lines()
                .filter(|l| l.starts_with("status error: "))
                .count()
                > 100
        );
    }
}

//! The client for NBoard (Chris Welty's protocol between the NBoard GUI and Othello
//! engines: NTest, Edax, our `reversi --nboard`; `protocol.md` shows ours). The runner
//! acts as the GUI: `nboard 2`, then per game `set depth N`, `set game GGF` (the
//! opening) and `ping N` until `pong N`; per move the moves the engine has not seen,
//! both sides' (`move F5//0.25`, `move PA`: the engine never plays its own move), and
//! `go`, answered `=== F5/EVAL/TIME` (Edax: `=== f5 EVAL TIME`). `status`, `search`,
//! `nodestats`, `set myname` and other lines are ignored, but for `status error: …`
//! (our `reversi` refusing a line): a refused set-up before the `pong`, a refused move
//! while waiting for `===`; the last `search` line's
//! depth and the `===` evaluation (discs, kept as centi-discs) are the move's report.
//!
//! NBoard has no clock commands: "with `go` the engine is limited by both the maximum
//! search depth and the time remaining in the game", which it reads from the GGF game.
//! So `tc=BASE+INC` is the game's `TI[M:SS/M:SS]` (the increment too, `tc=5+0.1` being
//! `TI[0:05/0:00.1]`) and every move sent carries the time its side's clock was charged
//! (from the referee's clocks), so the engine's clock is the referee's; `st=S` is `TI[S]`
//! with untimed moves (S left at every move); without either there is no `TI`. NTest
//! reads whole seconds, so the plan refuses `tc` with `MOVES/` and an `st` or `tc` base
//! below one second without `depth` (an engine with no limit at all, which would be
//! told `set depth 60` and no time, is refused as every engine without a limit is). The depth is `depth=`, else 60 (the time decides). The referee's deadline
//! is enforced as for every engine: a late `===` forfeits. With `stop=ping` (and `st`)
//! the runner sends `ping N` when `st` runs out, as the NBoard GUI does to make an engine
//! move now: NTest then prints the move of its last finished iteration (`===`) before
//! `pong N`; a `pong N` with no move before it loses the game.

use crate::engines::client::ProcessClient;
use crate::engines::othello::{ggf_board, ggf_time, protocol_move, square_of};
use crate::engines::player::{Answer, Eval, Fault, GameStart, Limits, MoveRequest, Player, Reply};
use crate::engines::process::{EngineProcess, Launch, LogTag, ReadError};
use crate::output::results::Score;
use engine::game::{Notation, Side};
use std::time::{Duration, Instant};

/// `set depth` when the engine has no `depth=`: as deep as the time allows.
const DEFAULT_DEPTH: u32 = 60;

/// An NBoard engine process, started lazily and reused across games.
pub struct NboardClient<G: Notation> {
    launch: Launch,
    limits: Limits,
    init_timeout: Duration,
    process: Option<EngineProcess>,
    /// The last `ping` number sent.
    ping: u64,
    /// The engine's view of the game.
    known: Option<G>,
    /// How many of the game's moves `known` includes.
    applied: usize,
    /// Each side's clock when the engine was last asked (for the time of the moves
    /// made since then).
    clocks: [Option<i64>; 2],
    log: Option<LogTag>,
}

impl<G: Notation> NboardClient<G> {
    /// A client that will start `launch` at the first game and play under `limits`.
    pub fn new(
        launch: Launch,
        limits: Limits,
        init_timeout: Duration,
        log: Option<LogTag>,
    ) -> Self {
        NboardClient {
            launch,
            limits,
            init_timeout,
            process: None,
            ping: 0,
            known: None,
            applied: 0,
            clocks: [None, None],
            log,
        }
    }

    /// `ping N`, then reads up to `pong N`: the barrier behind which everything the
    /// engine said before is.
    fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.ping += 1;
        let ping = self.ping;
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        p.send(&format!("ping {ping}")).map_err(Fault::Handshake)?;
        let pong = format!("pong {ping}");
        loop {
            match p.recv_deadline(deadline) {
                Ok(line) if line.trim() == pong => return Ok(()),
                Ok(line) => {
                    if let Some(error) = error_status(&line) {
                        return Err(Fault::SetupRefused(error));
                    }
                }
                Err(ReadError::Timeout) => {
                    return Err(Fault::Handshake(format!("no '{pong}' in time")))
                }
                Err(ReadError::Closed) => {
                    return Err(Fault::Handshake(format!("exited before '{pong}'")))
                }
                Err(ReadError::TooLong) => {
                    return Err(Fault::Garbage(ReadError::too_long_message()))
                }
            }
        }
    }

    /// The GGF game of the opening: its base position, its moves, and the clock.
    fn game_record(&self, start: &GameStart<'_, G>) -> Result<String, Fault> {
        let base = &start.opening.base;
        let board = ggf_board(&base.fen()).map_err(Fault::SetupRefused)?;
        let mut ggf = String::from("(;GM[Othello]PC[tournament]");
        if let Some(tc) = self.limits.tc {
            ggf.push_str(&format!("TI[{}", ggf_time(tc.base_ms)));
            if tc.inc_ms > 0 {
                ggf.push_str(&format!("/{}", ggf_time(tc.inc_ms)));
            }
            ggf.push(']');
        } else if let Some(st) = self.limits.movetime_ms {
            ggf.push_str(&format!("TI[{}]", ggf_time(st)));
        }
        ggf.push_str(&format!("TY[8]BO[{board}]"));
        let mut pos = base.clone();
        for &mv in &start.opening.moves {
            let key = if pos.side_to_move() == Side::First {
                "B"
            } else {
                "W"
            };
            ggf.push_str(&format!("{key}[{}]", nboard_move(&pos, mv)));
            pos.make_move(mv);
        }
        ggf.push_str(";)");
        Ok(ggf)
    }

    fn setup(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.ensure_running()?;
        let ggf = self.game_record(start)?;
        let depth = self.limits.depth.unwrap_or(DEFAULT_DEPTH);
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        for cmd in [format!("set depth {depth}"), format!("set game {ggf}")] {
            p.send(&cmd).map_err(Fault::Handshake)?;
        }
        // Our `reversi` answers a refused line with `status error: …` (a refused set-up,
        // seen before the pong); NTest and Edax say nothing.
        self.sync(Instant::now() + self.init_timeout)?;
        self.known = Some(start.start.clone());
        self.applied = 0;
        self.clocks = [None, None];
        if let Some(tc) = self.limits.tc {
            self.clocks[start.side.index()] = Some(tc.base_ms as i64);
        }
        Ok(())
    }

    /// Sends every move of the game the engine has not seen, each with the time its
    /// side's clock was charged for it where the referee keeps that side's clock.
    fn deliver(&mut self, req: &MoveRequest<'_, G>) -> Result<(), Fault> {
        let timed = self.limits.tc.is_some();
        let (Some(p), Some(known)) = (self.process.as_mut(), self.known.as_mut()) else {
            return Err(Fault::Crash("no game set up".into()));
        };
        for &mv in req.moves.iter().skip(self.applied) {
            let i = known.side_to_move().index();
            let mut cmd = format!("move {}", nboard_move(known, mv));
            if let (true, Some(before), Some(now)) = (timed, self.clocks[i], req.clock_ms[i]) {
                let spent = before + req.inc_ms[i] as i64 - now;
                cmd.push_str(&format!("//{:.3}", spent.max(0) as f64 / 1000.0));
            }
            p.send(&cmd).map_err(Fault::Crash)?;
            known.make_move(mv);
            self.applied += 1;
        }
        self.clocks = req.clock_ms;
        Ok(())
    }
}

/// NBoard's form of a move: `F5`, or `PA` for the pass.
fn nboard_move<G: Notation>(pos: &G, mv: G::Move) -> String {
    square_of(pos, mv).map_or_else(|| "PA".into(), |s| s.to_ascii_uppercase())
}

/// The move and evaluation of a `===` line: `=== F5/1.50/0.2` (NTest, ours) or
/// `=== f5 1.50 0.2` (Edax). `None` for other lines.
pub(crate) fn parse_answer(line: &str) -> Option<(String, Option<f64>)> {
    let rest = line.trim().strip_prefix("===")?.trim();
    let mut parts = rest.split(|c: char| c == '/' || c.is_whitespace());
    let mv = parts.next().filter(|m| !m.is_empty())?.to_string();
    let eval = parts.next().and_then(|e| e.parse::<f64>().ok());
    Some((mv, eval.filter(|e| e.is_finite())))
}

/// The error of a `status error: …` line (how our `reversi` refuses a line; NBoard has
/// no error reply), cleaned and cut for a reason; `None` for other lines.
pub(crate) fn error_status(line: &str) -> Option<String> {
    let t = line.trim();
    let rest = t.strip_prefix("status")?.trim_start();
    if !rest.get(..6)?.eq_ignore_ascii_case("error:") {
        return None;
    }
    Some(
        t.chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .take(200)
            .collect(),
    )
}

/// The depth of a `search PV EVAL 0 DEPTH …` line (its leading digits: `100%W` is 100).
pub(crate) fn search_depth(line: &str) -> Option<u32> {
    let mut words = line.split_whitespace();
    if words.next() != Some("search") {
        return None;
    }
    let depth = words.nth(3)?;
    let digits: String = depth.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

impl<G: Notation> ProcessClient for NboardClient<G> {
    fn slot(&mut self) -> &mut Option<EngineProcess> {
        &mut self.process
    }

    /// Starts the program: `nboard 2`, then a `ping` it must answer.
    fn start_process(&mut self) -> Result<(), Fault> {
        let mut p = EngineProcess::spawn(&self.launch, self.log.as_ref()).map_err(Fault::Start)?;
        p.send("nboard 2").map_err(Fault::Handshake)?;
        self.process = Some(p);
        self.sync(Instant::now() + self.init_timeout)
    }
}

impl<G: Notation> Player<G> for NboardClient<G> {
    fn check(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.start_process().inspect_err(|_| self.kill())
    }

    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.setup(start).inspect_err(|_| self.kill())
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault> {
        self.running()?;
        self.deliver(req)?;
        // With `stop=ping` the engine is told to move when `st` runs out: the
        // deadline less the margin, both counted from when the referee asked.
        let mut stop_at = match (self.limits.stop_by_ping, self.limits.movetime_ms) {
            (true, Some(_)) => req
                .deadline
                .checked_sub(Duration::from_millis(self.limits.margin_ms)),
            _ => None,
        };
        let mut stop_pong = None;
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("engine not running".into()))?;
        p.send("go").map_err(Fault::Crash)?;
        let mut eval = Eval::default();
        loop {
            match p.recv_deadline(stop_at.unwrap_or(req.deadline)) {
                Err(ReadError::Timeout) if stop_at.is_some() => {
                    stop_at = None;
                    self.ping += 1;
                    p.send(&format!("ping {}", self.ping))
                        .map_err(Fault::Crash)?;
                    stop_pong = Some(format!("pong {}", self.ping));
                }
                Ok(line) if stop_pong.as_deref() == Some(line.trim()) => {
                    // NTest answers the `ping` after the move it was stopped for; an
                    // engine that drops its search on `ping` (ours does) has no move.
                    return Err(Fault::Garbage(format!(
                        "stopped by 'ping {}' (stop=ping), it answered '{}' without a move",
                        self.ping,
                        line.trim()
                    )));
                }
                Ok(line) => {
                    if let Some((mv, score)) = parse_answer(&line) {
                        eval.score = score.map(|e| Score::Cp((e * 100.0).round() as i32));
                        return Ok(Answer {
                            reply: Reply::Notation(protocol_move(&mv)),
                            eval,
                        });
                    }
                    if let Some(d) = search_depth(&line) {
                        eval.depth = Some(d);
                    } else if let Some(error) = error_status(&line) {
                        // A move of the game, legal by our rules, or the `go` refused.
                        return Err(Fault::Garbage(format!("refused a move in play: {error}")));
                    }
                }
                Err(e) => return Err(Fault::of_move_read(e)),
            }
        }
    }

    fn game_over(&mut self, faulted: bool, _final_moves: Option<&[G::Move]>) {
        if faulted {
            self.kill();
        }
        self.known = None;
    }

    fn process(&mut self) -> Option<&mut Option<EngineProcess>> {
        Some(&mut self.process)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(
            parse_answer("=== F5/1.50/0.2"),
            Some(("F5".into(), Some(1.5)))
        );
        assert_eq!(
            parse_answer("=== d6 -1.00 0.0"),
            Some(("d6".into(), Some(-1.0)))
        );
        assert_eq!(parse_answer("=== PA"), Some(("PA".into(), None)));
        assert_eq!(parse_answer("=== "), None);
        assert_eq!(parse_answer("status"), None);
        assert_eq!(search_depth("search D6-F8 2.62 0 6"), Some(6));
        assert_eq!(search_depth("search D6 2.62 0 100%W"), Some(100));
        assert_eq!(search_depth("search D6       +0.46 0   4"), Some(4));
        assert_eq!(search_depth("nodestats 1 0.0"), None);
        assert_eq!(
            error_status("status error: illegal move A1").as_deref(),
            Some("status error: illegal move A1")
        );
        assert_eq!(error_status("status Thinking"), None);
        assert_eq!(error_status("status"), None);
        assert_eq!(error_status("status errors are fine"), None);
    }
}

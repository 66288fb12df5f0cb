//! The client for GTP (the Go Text Protocol, version 2) with the conventions Othello
//! engines use (grhino's `gtp-rhino`, Edax's GTP mode; GoGui drives them so):
//! `boardsize 8`, `clear_board`, `play b d3` / `play w pass`, `genmove w` answered
//! `= d3` / `= pass` / `= resign`, `time_settings` / `time_left` for clocks, `quit`.
//! Every command is answered `= …` or `? …` and the answer ends with a blank line.
//! Squares and colours are those of [`crate::engines::othello`].
//!
//! `genmove` plays the engine's move on its own board, so only the other side's moves
//! are sent with `play`; a refused `play COLOUR pass` is let go (grhino's board passes by
//! itself and answers every such `play` with `? syntax error`). The opening is played from `clear_board` (GTP cannot set up a
//! position: the plan refuses FEN openings for GTP engines). A `? …` answer to a move
//! of the game (legal by our rules) or to `genmove` loses the game as an unparsable
//! answer; to the set-up, as a refused set-up.
//!
//! Clocks (GTP's values are whole seconds; grhino refuses `time_left b 0.2 1` as a
//! syntax error): `tc=BASE+INC` is `time_settings BASE 0 0` (GTP has no increment;
//! `time_left` then carries it), `tc=MOVES/BASE+INC` `time_settings 0 BASE MOVES`
//! (Canadian byo-yomi), `st=S` `time_settings 0 S 1`; before every `genmove`,
//! `time_left COLOUR SECONDS STONES` with the engine's clock as the referee keeps it,
//! rounded down. They are sent only when the engine lists both commands in
//! `list_commands`, a refusal of them is no fault, and below one second (`st=0.2`)
//! nothing is sent: the referee's deadline is the clock either way.

use crate::engines::client::ProcessClient;
use crate::engines::othello::{gtp_colour, protocol_move, square_of};
use crate::engines::player::{Answer, Fault, GameStart, Limits, MoveRequest, Player, Reply};
use crate::engines::process::{EngineProcess, Launch, LogTag, ReadError};
use engine::game::{Notation, Side};
use std::time::{Duration, Instant};

/// Most lines of one answer (`list_commands` of a big engine is a few hundred).
const MAX_ANSWER_LINES: usize = 10_000;

/// A GTP answer: `Ok` for `= …`, `Err` for `? …`; the text after the marker (and the
/// id), lines joined with `\n`.
type GtpAnswer = Result<String, String>;

/// A GTP Othello engine process, started lazily and reused across games.
pub struct GtpClient<G: Notation> {
    launch: Launch,
    limits: Limits,
    init_timeout: Duration,
    process: Option<EngineProcess>,
    /// The engine lists `time_settings` and `time_left`, and took the last
    /// `time_settings`.
    clock_commands: bool,
    side: Side,
    /// The engine's view of the game (the position after the moves it knows).
    known: Option<G>,
    /// How many of the game's moves `known` includes.
    applied: usize,
    log: Option<LogTag>,
}

impl<G: Notation> GtpClient<G> {
    /// A client that will start `launch` at the first game and play under `limits`.
    pub fn new(
        launch: Launch,
        limits: Limits,
        init_timeout: Duration,
        log: Option<LogTag>,
    ) -> Self {
        GtpClient {
            launch,
            limits,
            init_timeout,
            process: None,
            clock_commands: false,
            side: Side::First,
            known: None,
            applied: 0,
            log,
        }
    }

    /// `time_settings` for the engine's limits, if it has a clock it can be told.
    fn time_settings(&self) -> Option<String> {
        let secs = |ms: u64| ms / 1000;
        if let Some(tc) = self.limits.tc {
            return Some(match tc.moves {
                None => format!("time_settings {} 0 0", secs(tc.base_ms)),
                Some(m) => format!("time_settings 0 {} {m}", secs(tc.base_ms)),
            });
        }
        match self.limits.movetime_ms {
            Some(st) if st >= 1000 => Some(format!("time_settings 0 {} 1", secs(st))),
            _ => None,
        }
    }

    /// `time_left` for this request, where `time_settings` told the engine a clock.
    fn time_left(&self, req: &MoveRequest<'_, G>) -> Option<String> {
        if !self.clock_commands || self.time_settings().is_none() {
            return None;
        }
        let colour = gtp_colour(self.side);
        let (ms, stones) = match (self.limits.tc, req.clock_ms[self.side.index()]) {
            (Some(tc), Some(left)) => (left.max(0) as u64, tc.moves.and(req.movestogo)),
            _ => (self.limits.movetime_ms?, Some(1)),
        };
        Some(format!(
            "time_left {colour} {} {}",
            ms / 1000,
            stones.unwrap_or(0)
        ))
    }

    /// Sends the moves of the game the engine has not seen: the other side's with
    /// `play` (its own it played itself with `genmove`).
    fn deliver(&mut self, moves: &[G::Move], deadline: Instant) -> Result<(), Fault> {
        let side = self.side;
        let (Some(p), Some(known)) = (self.process.as_mut(), self.known.as_mut()) else {
            return Err(Fault::Crash("no game set up".into()));
        };
        for &mv in moves.iter().skip(self.applied) {
            let mover = known.side_to_move();
            if mover != side {
                let cmd = play_command(known, mover, mv);
                let answer = command(p, &cmd, deadline).map_err(Fault::of_move_read)?;
                // grhino refuses every `play COLOUR pass` (`? syntax error`): its board
                // passes by itself. A board that did not would refuse the next move or
                // answer `genmove` with a move of the wrong side, so a refused pass is
                // let go.
                if let (Err(e), false) = (answer, known.is_pass(mv)) {
                    return Err(Fault::Garbage(format!(
                        "refused a move in play: '{cmd}' answered '? {e}'"
                    )));
                }
            }
            known.make_move(mv);
            self.applied += 1;
        }
        Ok(())
    }

    fn setup(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.ensure_running()?;
        let settings = self.time_settings().filter(|_| self.clock_commands);
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        let deadline = Instant::now() + self.init_timeout;
        let base = &start.opening.base;
        if base.fen() != G::startpos(base.rule_set()).fen() {
            return Err(Fault::SetupRefused(
                "GTP cannot set up a position: the opening must start from the start position"
                    .into(),
            ));
        }
        let mut cmds = vec!["boardsize 8".to_string(), "clear_board".to_string()];
        let mut pos = base.clone();
        for &mv in &start.opening.moves {
            cmds.push(play_command(&pos, pos.side_to_move(), mv));
            pos.make_move(mv);
        }
        for cmd in &cmds {
            let pass = cmd.ends_with(" pass");
            let answer = command(p, cmd, deadline).map_err(|e| match e {
                ReadError::Timeout => Fault::Handshake(format!("no answer to '{cmd}' in time")),
                ReadError::Closed => Fault::Handshake(format!("exited before answering '{cmd}'")),
                ReadError::TooLong => Fault::Garbage(ReadError::too_long_message()),
            })?;
            // A refused pass is let go, as in play (see `deliver`).
            if let (Err(e), false) = (answer, pass) {
                return Err(Fault::SetupRefused(format!("'{cmd}' answered '? {e}'")));
            }
        }
        if let Some(cmd) = settings {
            // GTP makes the clock commands optional: a refusal leaves the clock to the
            // referee's deadline alone.
            let answer = command(p, &cmd, deadline).map_err(Fault::of_move_read)?;
            self.clock_commands = answer.is_ok();
        }
        self.side = start.side;
        self.known = Some(start.start.clone());
        self.applied = 0;
        Ok(())
    }
}

/// `play COLOUR SQUARE` (or `pass`) for `mv` by `mover` in `pos`.
fn play_command<G: Notation>(pos: &G, mover: Side, mv: G::Move) -> String {
    let square = square_of(pos, mv).unwrap_or_else(|| "pass".into());
    format!("play {} {square}", gtp_colour(mover))
}

/// Sends `cmd` and reads its answer: the first line starting with `=` or `?` (lines
/// before it, which GTP does not allow, are skipped), its text after the marker and an
/// optional numeric id, and the lines after it up to the blank line that ends it.
fn command(p: &mut EngineProcess, cmd: &str, deadline: Instant) -> Result<GtpAnswer, ReadError> {
    p.send(cmd).map_err(|_| ReadError::Closed)?;
    let (ok, mut text) = loop {
        let line = p.recv_deadline(deadline)?;
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix('=') {
            break (true, strip_id(rest));
        }
        if let Some(rest) = line.strip_prefix('?') {
            break (false, strip_id(rest));
        }
    };
    read_answer_rest(&mut text, MAX_ANSWER_LINES, || p.recv_deadline(deadline))?;
    Ok(if ok { Ok(text) } else { Err(text) })
}

/// Reads the lines of an answer after its first with `next`, up to the blank line
/// that ends it (at most `max` lines), each added to `text` after a `\n`: the client
/// and `tournament compliance` read an answer's lines alike.
pub(crate) fn read_answer_rest<E>(
    text: &mut String,
    max: usize,
    mut next: impl FnMut() -> Result<String, E>,
) -> Result<(), E> {
    for _ in 0..max {
        let line = next()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        text.push('\n');
        text.push_str(line);
    }
    Ok(())
}

/// The text of an answer line after its marker: an id (digits) and blanks removed.
fn strip_id(rest: &str) -> String {
    rest.trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(200)
        .collect()
}

impl<G: Notation> ProcessClient for GtpClient<G> {
    fn slot(&mut self) -> &mut Option<EngineProcess> {
        &mut self.process
    }

    /// Starts the program and finishes the handshake: `protocol_version` must be
    /// answered, `list_commands` says whether the clock commands exist, and
    /// `boardsize 8` must be accepted.
    fn start_process(&mut self) -> Result<(), Fault> {
        let mut p = EngineProcess::spawn(&self.launch, self.log.as_ref()).map_err(Fault::Start)?;
        let deadline = Instant::now() + self.init_timeout;
        let handshake = |e: ReadError, what: &str| match e {
            ReadError::Timeout => Fault::Handshake(format!("no answer to '{what}' in time")),
            ReadError::Closed => Fault::Handshake(format!("exited before answering '{what}'")),
            ReadError::TooLong => Fault::Garbage(ReadError::too_long_message()),
        };
        // Any answer will do: it shows the engine speaks GTP.
        let _version = command(&mut p, "protocol_version", deadline)
            .map_err(|e| handshake(e, "protocol_version"))?;
        let listed = command(&mut p, "list_commands", deadline)
            .map_err(|e| handshake(e, "list_commands"))?
            .unwrap_or_default();
        let has = |c: &str| listed.lines().any(|l| l.trim() == c);
        self.clock_commands = has("time_settings") && has("time_left");
        if let Err(e) =
            command(&mut p, "boardsize 8", deadline).map_err(|e| handshake(e, "boardsize 8"))?
        {
            return Err(Fault::Handshake(format!("'boardsize 8' refused: ? {e}")));
        }
        self.process = Some(p);
        Ok(())
    }
}

impl<G: Notation> Player<G> for GtpClient<G> {
    fn check(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.start_process().inspect_err(|_| self.kill())
    }

    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.setup(start).inspect_err(|_| self.kill())
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault> {
        self.running()?;
        self.deliver(req.moves, req.deadline)?;
        let time_left = self.time_left(req);
        let colour = gtp_colour(self.side);
        let p = self.running()?;
        if let Some(cmd) = time_left {
            // Optional, as time_settings: a refusal is no fault.
            let _ = command(p, &cmd, req.deadline).map_err(Fault::of_move_read)?;
        }
        let answer =
            command(p, &format!("genmove {colour}"), req.deadline).map_err(Fault::of_move_read)?;
        let reply = match answer {
            Ok(text) => {
                let mut words = text.split_whitespace();
                match (words.next(), words.next()) {
                    (Some(w), None) if w.eq_ignore_ascii_case("resign") => Reply::Resign,
                    (Some(w), None) => Reply::Notation(protocol_move(w)),
                    _ => Reply::Unreadable(text),
                }
            }
            Err(e) => {
                return Err(Fault::Garbage(format!(
                    "'genmove {colour}' answered '? {e}'"
                )))
            }
        };
        // The engine has played its move on its own board; `known` follows when the
        // move is delivered with the next request.
        Ok(reply.into())
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
    fn answer_ids() {
        assert_eq!(strip_id("2 F5"), "F5");
        assert_eq!(strip_id(" pass"), "pass");
        assert_eq!(strip_id(""), "");
        assert_eq!(strip_id(" illegal move"), "illegal move");
    }
}

//! The client for the course's text command language (`shared/specs/ataxx-text-protocol.md`).
//!
//! The program is set up with the opening's `block` lines and set-up moves, its side is
//! made `auto` and the other `manual`, then `start`. The opponent's moves are fed as
//! `a7-b6`/`-` lines and the engine's own moves are read from `Red moves a7-b6.` /
//! `Blue passes.` lines (anything up to the last `:` of a line is a prompt and is cut).
//! The language has no clock, so the referee's deadline is the only limit.

use crate::engine_process::{EngineProcess, Launch, ReadError};
use crate::game::TourGame;
use crate::player::{Fault, GameStart, MoveRequest, Player, Reply};
use engine::game::Side;
use std::time::{Duration, Instant};

/// A text-language engine process, started lazily and reused across games.
pub struct TextClient<G: TourGame> {
    launch: Launch,
    init_timeout: Duration,
    process: Option<EngineProcess>,
    side: Side,
    /// The position the engine has reached (its view of the game).
    known: Option<G>,
    /// How many of the game's moves `known` includes.
    applied: usize,
    /// Lines played in this process, so a fresh process is not sent `clear`.
    games_played: u64,
}

impl<G: TourGame> TextClient<G> {
    /// A client that will start `launch` at the first game.
    pub fn new(launch: Launch, init_timeout: Duration) -> Self {
        TextClient {
            launch,
            init_timeout,
            process: None,
            side: Side::First,
            known: None,
            applied: 0,
            games_played: 0,
        }
    }

    fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    fn setup(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        if let Some(p) = self.process.as_mut() {
            if !p.is_alive() {
                self.kill();
            }
        }
        if self.process.is_none() {
            let p = EngineProcess::spawn(&self.launch).map_err(Fault::Start)?;
            self.process = Some(p);
            self.games_played = 0;
        }
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        let deadline = Instant::now() + self.init_timeout;
        let mut commands = Vec::new();
        if self.games_played > 0 {
            commands.push("clear".to_string());
        }
        commands.push(format!("seed {}", start.seed));
        commands.extend(G::text_setup_commands(start.opening).map_err(Fault::Handshake)?);
        commands.push(format!(
            "manual {}",
            G::text_side_name(start.side.opponent())
        ));
        commands.push(format!("auto {}", G::text_side_name(start.side)));
        commands.push("dump".to_string());
        for c in &commands {
            p.send(c).map_err(Fault::Handshake)?;
        }
        // The dump is the barrier: once its closing `===` is read, everything the
        // engine said about the set-up (and about the previous game) is behind us.
        let mut markers = 0;
        while markers < 2 {
            match p.recv_deadline(deadline) {
                Ok(line) => {
                    if strip_prompt(&line) == "===" {
                        markers += 1;
                    }
                }
                Err(ReadError::Timeout) => {
                    return Err(Fault::Handshake("no board dump in time".into()))
                }
                Err(ReadError::Closed) => {
                    return Err(Fault::Handshake("exited during set-up".into()))
                }
                Err(ReadError::TooLong) => {
                    return Err(Fault::Garbage(ReadError::too_long_message()))
                }
            }
        }
        p.send("start").map_err(Fault::Handshake)?;
        self.games_played += 1;
        self.side = start.side;
        self.known = Some(start.start.clone());
        self.applied = 0;
        Ok(())
    }
}

/// The part of an output line after the last `:` (prompts end with `:`), trimmed.
fn strip_prompt(line: &str) -> &str {
    match line.rfind(':') {
        Some(i) => line[i + 1..].trim(),
        None => line.trim(),
    }
}

fn is_result_line(line: &str) -> bool {
    matches!(strip_prompt(line), "Red wins." | "Blue wins." | "Draw.")
}

impl<G: TourGame> Player<G> for TextClient<G> {
    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        let r = self.setup(start);
        if r.is_err() {
            self.kill();
        }
        r
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Reply<G>, Fault> {
        let side = self.side;
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("engine not running".into()))?;
        let known = self
            .known
            .as_mut()
            .ok_or_else(|| Fault::Crash("no game set up".into()))?;
        for &mv in req.moves.iter().skip(self.applied) {
            if known.side_to_move() != side {
                p.send(&known.text_move(mv)).map_err(Fault::Crash)?;
            }
            known.make_move(mv);
            self.applied += 1;
        }
        loop {
            match p.recv_deadline(req.deadline) {
                Ok(line) => {
                    if let Some(report) = G::parse_text_report(&line) {
                        if report.side == side {
                            return Ok(Reply::Text(report.text));
                        }
                    } else if is_result_line(&line) {
                        return Err(Fault::Garbage(format!(
                            "announced '{}' in a game that is not over",
                            strip_prompt(&line)
                        )));
                    }
                }
                Err(ReadError::Timeout) => return Err(Fault::Timeout),
                Err(ReadError::TooLong) => {
                    return Err(Fault::Garbage(ReadError::too_long_message()))
                }
                Err(ReadError::Closed) => {
                    return Err(Fault::Crash("engine exited while thinking".into()))
                }
            }
        }
    }

    fn game_over(&mut self, faulted: bool) {
        self.known = None;
        if faulted {
            self.kill();
        }
    }

    fn shutdown(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit("quit", Duration::from_millis(300));
        }
    }
}

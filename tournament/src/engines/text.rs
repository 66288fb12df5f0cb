//! The client for a game's course text language, driven through the dialect's
//! [`TextCodec`] (its `TextProtocol`, written next to the dialect in the engine
//! library, as a value the game's registry entry hands out), so the lines sent and
//! recognised here are those the game's own front end prints and reads.
//!
//! At the first game the program is started; later games begin with the set-up's reset.
//! The set-up commands end with a board dump, whose closing marker is the handshake;
//! then the start commands. The opponent's moves are fed in the language's notation and
//! the engine's own moves are read from its AI move lines; a result line in a game the
//! referee considers unfinished is a fault. The language has no clock, so the referee's
//! deadline is the only limit.
//!
//! Every answer to the set-up is checked: an error line (`error: …`) before the dump, or
//! before play has begun, is a refused set-up ([`Fault::SetupRefused`]), never left to
//! run into the move deadline. The engine's game must end when the referee's does:
//! when the other player's move ended it, that move is delivered (the engine then ends
//! the game itself, as the language says); when it ended otherwise (adjudication, the
//! other player's fault), the program is asked to quit, which abandons a game in every
//! dialect, and is started afresh for the next game. (Issue 25 item 1: the Reversi
//! engine never learnt the last move, refused the next game's `clear`, and was scored a
//! time forfeit.)

use crate::engines::player::{Answer, Fault, GameStart, MoveRequest, Player, Reply, QUIT_GRACE};
use crate::engines::process::{EngineProcess, Launch, LogTag, ReadError};
use engine::game::{Game, Side};
use engine::protocol::text::{EngineSetup, TextCodec};
use std::time::{Duration, Instant};

/// A text-language engine process, started lazily and reused across games.
pub struct TextClient<G: Game> {
    /// The dialect spoken.
    codec: &'static dyn TextCodec<G>,
    launch: Launch,
    init_timeout: Duration,
    process: Option<EngineProcess>,
    side: Side,
    /// The position the engine has reached (its view of the game).
    known: Option<G>,
    /// How many of the game's moves `known` includes.
    applied: usize,
    /// Games set up in this process, so a fresh process is not sent the reset.
    games_played: u64,
    /// A move has been exchanged in the current game (sent or read): an error line
    /// before that answers the set-up or `start`.
    in_play: bool,
    log: Option<LogTag>,
}

impl<G: Game> TextClient<G> {
    /// A client speaking `codec` that will start `launch` at the first game, logging
    /// its traffic to `log` if given.
    pub fn new(
        codec: &'static dyn TextCodec<G>,
        launch: Launch,
        init_timeout: Duration,
        log: Option<LogTag>,
    ) -> Self {
        TextClient {
            codec,
            launch,
            init_timeout,
            process: None,
            side: Side::First,
            known: None,
            applied: 0,
            games_played: 0,
            in_play: false,
            log,
        }
    }

    fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    /// Sets `start` up (starting the program if needed) and, if `play`, starts play.
    fn setup(&mut self, start: &GameStart<'_, G>, play: bool) -> Result<(), Fault> {
        if let Some(p) = self.process.as_mut() {
            if !p.is_alive() {
                self.kill();
            }
        }
        if self.process.is_none() {
            let p = EngineProcess::spawn(&self.launch, self.log.as_ref()).map_err(Fault::Start)?;
            self.process = Some(p);
            self.games_played = 0;
        }
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        let deadline = Instant::now() + self.init_timeout;
        let commands = self
            .codec
            .setup_commands(&EngineSetup::new(
                start.opening,
                start.side,
                start.seed,
                self.games_played > 0,
            ))
            .map_err(Fault::Handshake)?;
        for c in &commands {
            p.send(c).map_err(Fault::Handshake)?;
        }
        // The dump is the barrier: once its closing marker is read, everything the
        // engine said about the set-up (and about the previous game) is behind us.
        let mut markers = 0;
        while markers < 2 {
            match p.recv_deadline(deadline) {
                Ok(line) => {
                    if self.codec.is_dump_marker(&line) {
                        markers += 1;
                    } else if let Some(error) = error_line(&line) {
                        return Err(Fault::SetupRefused(error));
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
        if !play {
            return Ok(());
        }
        for c in self.codec.start_commands() {
            p.send(&c).map_err(Fault::Handshake)?;
        }
        self.games_played += 1;
        self.side = start.side;
        self.known = Some(start.start.clone());
        self.applied = 0;
        self.in_play = false;
        Ok(())
    }

    /// Tells the engine the moves of the game it has not seen yet: the other side's
    /// (its own it made itself).
    fn deliver(&mut self, moves: &[<G as Game>::Move]) -> Result<(), Fault> {
        let side = self.side;
        let (Some(p), Some(known)) = (self.process.as_mut(), self.known.as_mut()) else {
            return Err(Fault::Crash("no game set up".into()));
        };
        for &mv in moves.iter().skip(self.applied) {
            if known.side_to_move() != side {
                p.send(&self.codec.move_text(known, mv))
                    .map_err(Fault::Crash)?;
                self.in_play = true;
            }
            known.make_move(mv);
            self.applied += 1;
        }
        Ok(())
    }
}

/// The message of an error line (`error: …`, `Error: …`, as every course language
/// writes them), trimmed and cut to a length fit for a reason; `None` for other lines.
fn error_line(line: &str) -> Option<String> {
    let t = line.trim();
    let head = t.get(..6)?;
    if !head.eq_ignore_ascii_case("error:") {
        return None;
    }
    let clean: String = t
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(200)
        .collect();
    Some(clean)
}

impl<G: Game> Player<G> for TextClient<G> {
    fn check(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.setup(start, false).inspect_err(|_| self.kill())
    }

    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.setup(start, true).inspect_err(|_| self.kill())
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault> {
        let side = self.side;
        if self.process.is_none() {
            return Err(Fault::Crash("engine not running".into()));
        }
        self.deliver(req.moves)?;
        let (Some(p), Some(known)) = (self.process.as_mut(), self.known.as_mut()) else {
            return Err(Fault::Crash("no game set up".into()));
        };
        loop {
            match p.recv_deadline(req.deadline) {
                Ok(line) => {
                    if let Some((mover, text)) = self.codec.parse_ai_move(&line) {
                        if mover.is_none_or(|m| m == side) {
                            self.in_play = true;
                            return Ok(match self.codec.parse_move_text(known, &text) {
                                Some(mv) => Reply::Move(mv),
                                None => Reply::Unreadable(text),
                            }
                            .into());
                        }
                    } else if self.codec.parse_result(&line).is_some() {
                        return Err(Fault::Garbage(format!(
                            "announced '{}' in a game that is not over",
                            line.trim()
                        )));
                    } else if let Some(error) = error_line(&line) {
                        // Before any move: `start` (or a late set-up line) was refused.
                        // After: a move it was sent, legal by our rules, was refused.
                        return Err(if self.in_play {
                            Fault::Garbage(format!("refused a move in play: {error}"))
                        } else {
                            Fault::SetupRefused(error)
                        });
                    }
                }
                Err(e) => return Err(Fault::of_move_read(e)),
            }
        }
    }

    fn game_over(&mut self, faulted: bool, final_moves: Option<&[<G as Game>::Move]>) {
        if faulted {
            self.kill();
        } else if self.known.is_some() {
            // The engine's game is still on unless the last move tells it otherwise.
            let delivered = final_moves.is_some_and(|moves| self.deliver(moves).is_ok());
            if !delivered {
                if let Some(p) = self.process.take() {
                    p.quit("quit", QUIT_GRACE);
                }
            }
        }
        self.known = None;
    }

    fn process(&mut self) -> Option<&mut Option<EngineProcess>> {
        Some(&mut self.process)
    }
}

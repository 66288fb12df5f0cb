//! The UAI client (UCI with `uai`/`uainewgame`, Ataxx FEN and moves), as in
//! `shared/specs/uai.md`. Written against the protocol family so UGI (`ugi`/`ugiok`,
//! `uginewgame`, `p1time`/`p2time`) can become a dialect of the same client later.

use crate::engine_process::{EngineProcess, Launch, ReadError};
use crate::player::{Fault, GameStart, MoveRequest, Player, Reply};
use engine::game::{Game, GameIo};
use std::time::{Duration, Instant};

/// A UAI engine process, started lazily and reused across games.
pub struct UaiClient {
    launch: Launch,
    options: Vec<(String, String)>,
    init_timeout: Duration,
    process: Option<EngineProcess>,
}

impl UaiClient {
    /// A client that will start `launch` at the first game.
    pub fn new(launch: Launch, options: Vec<(String, String)>, init_timeout: Duration) -> Self {
        UaiClient {
            launch,
            options,
            init_timeout,
            process: None,
        }
    }

    fn start_process(&mut self) -> Result<(), Fault> {
        let mut p = EngineProcess::spawn(&self.launch).map_err(Fault::Start)?;
        let deadline = Instant::now() + self.init_timeout;
        p.send("uai").map_err(Fault::Handshake)?;
        wait_for(&p, "uaiok", deadline)?;
        for (name, value) in &self.options {
            p.send(&format!("setoption name {name} value {value}"))
                .map_err(Fault::Handshake)?;
        }
        self.process = Some(p);
        Ok(())
    }

    fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }
}

/// Reads lines until one equals `token` (surrounding blanks ignored).
fn wait_for(p: &EngineProcess, token: &str, deadline: Instant) -> Result<(), Fault> {
    loop {
        match p.recv_deadline(deadline) {
            Ok(line) if line.trim() == token => return Ok(()),
            Ok(_) => continue,
            Err(ReadError::Timeout) => {
                return Err(Fault::Handshake(format!("no '{token}' in time")))
            }
            Err(ReadError::Closed) => {
                return Err(Fault::Handshake(format!("exited before '{token}'")))
            }
            Err(ReadError::TooLong) => return Err(Fault::Garbage(ReadError::too_long_message())),
        }
    }
}

/// The `go` command for a request (`btime`/`binc` are x's, the first player's, clock).
pub fn go_command<G: Game>(req: &MoveRequest<'_, G>) -> String {
    let mut go = String::from("go");
    let l = &req.limits;
    if let (Some(b), Some(w)) = (req.clock_ms[0], req.clock_ms[1]) {
        go.push_str(&format!(
            " btime {} wtime {} binc {} winc {}",
            b.max(0),
            w.max(0),
            req.inc_ms[0],
            req.inc_ms[1]
        ));
        if let Some(m) = req.movestogo {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = l.movetime_ms {
        go.push_str(&format!(" movetime {t}"));
    }
    if let Some(d) = l.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = l.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

impl<G: GameIo> Player<G> for UaiClient {
    fn new_game(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        if let Some(p) = self.process.as_mut() {
            if !p.is_alive() {
                self.kill();
            }
        }
        if self.process.is_none() {
            self.start_process()?;
        }
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        p.drain();
        let deadline = Instant::now() + self.init_timeout;
        let r = p
            .send("uainewgame")
            .and_then(|_| p.send("isready"))
            .map_err(Fault::Handshake)
            .and_then(|_| wait_for(p, "readyok", deadline));
        if r.is_err() {
            self.kill();
        }
        r
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Reply<G>, Fault> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("engine not running".into()))?;
        let mut position = format!("position fen {}", req.start.fen());
        if !req.moves.is_empty() {
            position.push_str(" moves");
            let mut pos = req.start.clone();
            for &mv in req.moves {
                position.push(' ');
                position.push_str(&pos.move_name(mv));
                pos.make_move(mv);
            }
        }
        p.send(&position).map_err(Fault::Crash)?;
        p.send(&go_command(req)).map_err(Fault::Crash)?;
        loop {
            match p.recv_deadline(req.deadline) {
                Ok(line) => {
                    let mut words = line.split_whitespace();
                    if words.next() == Some("bestmove") {
                        return match words.next() {
                            Some(mv) => Ok(Reply::Notation(mv.to_string())),
                            None => Err(Fault::Garbage("'bestmove' without a move".into())),
                        };
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

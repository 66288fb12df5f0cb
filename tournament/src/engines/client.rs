//! What the process clients of the protocols that hand the engine a new game over a
//! running process (UAI/UGI, NBoard, GTP) share: the program is started lazily at the
//! first game and its process kept across games; one that misbehaved is killed and
//! one that died is replaced when the next game begins.

use crate::engines::player::Fault;
use crate::engines::process::EngineProcess;

/// A client of an engine program, as the UCI, NBoard and GTP clients are.
pub trait ProcessClient {
    /// The process slot: `None` while no process runs.
    fn slot(&mut self) -> &mut Option<EngineProcess>;

    /// Starts the program and finishes the protocol's handshake, filling the slot.
    fn start_process(&mut self) -> Result<(), Fault>;

    /// Kills the process, if one runs: the next game starts a fresh one.
    fn kill(&mut self) {
        if let Some(mut p) = self.slot().take() {
            p.kill();
        }
    }

    /// The process asked for a move: none running is a crash.
    fn running(&mut self) -> Result<&mut EngineProcess, Fault> {
        self.slot()
            .as_mut()
            .ok_or_else(|| Fault::Crash("engine not running".into()))
    }

    /// Gets the process ready for a new game: one that has died since the last game
    /// is replaced, a missing one started, and what it said since then is dropped.
    fn ensure_running(&mut self) -> Result<(), Fault> {
        if self.slot().as_mut().is_some_and(|p| !p.is_alive()) {
            self.kill();
        }
        if self.slot().is_none() {
            self.start_process()?;
        }
        if let Some(p) = self.slot().as_mut() {
            p.drain();
        }
        Ok(())
    }
}

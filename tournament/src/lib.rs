//! Tournament runner: pits engines against each other, loses nothing, reports honest
//! statistics.
//!
//! Layout, from the bottom up:
//! - [`game`]: the per-game adapter ([`game::TourGame`]) over the engine library's
//!   `Game` trait; Ataxx is the only implementation so far.
//! - [`engine_process`]: a child process with a reader thread and hard read deadlines.
//! - [`player`]: what the referee asks of a player; [`uai_client`], [`text_client`] and
//!   [`builtin`] implement it.
//! - [`schedule`], [`openings`]: the deterministic list of games (ids are stable, so a
//!   run can be resumed) and the openings they use.
//! - [`referee`]: plays one game, checking every move with our own rules.
//! - [`results`], [`pgn`]: JSON-lines results (append + flush per game) and PGN.
//! - [`stats`]: Elo (trinomial and pentanomial), nElo, LOS, GSPRT.
//! - [`runner`]: workers, progress, resume, SPRT stopping.
//! - [`cli`]: the command line, parsed into the types of the modules above.

pub mod builtin;
pub mod cli;
pub mod engine_process;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod referee;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod text_client;
pub mod uai_client;

use engine::games::ataxx::Position;

/// Runs the command line (without the program name) and returns the exit status:
/// 0 done, 1 run failed or stopped by a crashed engine, 2 bad command line.
pub fn main_with_args(args: &[String]) -> i32 {
    let cfg = match cli::parse(args) {
        Ok(cli::Command::Help) => {
            print!("{}", cli::HELP);
            return 0;
        }
        Ok(cli::Command::Run(cfg)) => cfg,
        Err(e) => {
            eprintln!("tournament: {e}");
            return 2;
        }
    };
    match runner::run::<Position>(&cfg) {
        Ok(code) => code,
        Err(runner::RunError::Usage(e)) => {
            eprintln!("tournament: {e}");
            2
        }
        Err(runner::RunError::Runtime(e)) => {
            eprintln!("tournament: {e}");
            1
        }
    }
}

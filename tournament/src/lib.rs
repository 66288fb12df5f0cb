//! Tournament runner: pits engines against each other, loses nothing, reports honest
//! statistics.
//!
//! The runner knows no game: everything game-specific comes from the engine library's
//! traits ([`engine::game::Notation`] and [`engine::game::Referee`] for notation and
//! adjudication,
//! [`engine::protocol::text::TextProtocol`] for driving a course text language), and
//! `-variant` picks the game at run time through [`engine::variant::Variant`].
//!
//! Layout, from the bottom up:
//! - [`engine_process`]: a child process with hard read deadlines and writes that never
//!   block ([`engine_io`]: its pipes, served by the thread that plays the game;
//!   [`traffic`]: the engine traffic log both write).
//! - [`player`]: what the referee asks of a player, and what an engine is
//!   ([`player::EngineSpec`]); [`uci_client`], [`text_client`],
//!   [`nboard_client`], [`gtp_client`] (the Othello engines' protocols, sharing
//!   [`othello`]) and [`builtin`] implement it.
//! - [`spec`]: an engine from its `key=value` words (for the command line and the
//!   compliance checker).
//! - [`schedule`], [`openings`]: the deterministic list of games (ids are stable, so a
//!   run can be resumed) and the openings they use.
//! - [`referee`]: plays one game, checking every move with our own rules.
//! - [`results`], [`pgn`]: JSON-lines results (append + flush per game) and PGN.
//! - [`stats`]: Elo (trinomial and pentanomial), nElo, LOS, GSPRT; [`tally`]: the
//!   running count of a run's games and its LLR.
//! - [`config`]: what a run is asked to do (`Config`, `-shard`'s `ShardSpec`) and how it
//!   fails (`RunError`).
//! - [`runner`]: workers, resume, SPRT stopping; [`report`]: the progress line and the
//!   reports.
//! - [`shard`], [`merge`]: one run spread over machines (`-shard I/N`) and put back
//!   together (`tournament merge`).
//! - [`compliance`]: `tournament compliance`, a fixed sequence of protocol steps
//!   against one engine (and the run's `-check`, its quick part).
//! - [`cli`]: the command line, parsed into the types of the modules above.

pub mod affinity;
pub mod builtin;
pub mod cli;
pub mod compliance;
pub mod config;
pub mod engine_io;
pub mod engine_process;
pub mod epd;
pub mod gtp_client;
pub mod merge;
pub mod nboard_client;
pub mod openings;
pub mod othello;
pub mod output;
pub mod pgn;
pub mod player;
pub mod rating;
pub mod referee;
pub mod report;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod spec;
pub mod stats;
pub mod tally;
pub mod text_client;
pub mod traffic;
pub mod uci_client;

use engine::protocol::text::TextDialect;
use engine::variant::{Playable, VariantVisitor};

/// Runs the configured tournament for the game chosen at run time.
struct Run<'a>(&'a config::Config);

impl VariantVisitor for Run<'_> {
    type Output = Result<i32, config::RunError>;

    fn visit<D: Playable>(self) -> Self::Output {
        runner::run::<<D as TextDialect>::Game, D>(self.0)
    }
}

/// Runs the command line (without the program name) and returns the exit status:
/// 0 done, 1 run failed or stopped by a crashed engine, 2 bad command line.
/// `tournament merge …` is [`merge::main`], `tournament compliance …`
/// [`compliance::main`].
pub fn main_with_args(args: &[String]) -> i32 {
    if args.first().is_some_and(|a| a == "merge") {
        return merge::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "compliance") {
        return compliance::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "rate") {
        return rating::cli::main(&args[1..]);
    }
    let cfg = match cli::parse(args) {
        Ok(cli::Command::Help) => {
            print!("{}", cli::help());
            return 0;
        }
        Ok(cli::Command::Version) => {
            println!("{}", cli::version());
            return 0;
        }
        Ok(cli::Command::Run(cfg)) => cfg,
        Err(e) => {
            eprintln!("tournament: {e}");
            return 2;
        }
    };
    // Text engines speak the edition whose rules judge the run (Ataxx `-rules 2008`).
    match cfg
        .variant
        .dialect_for(cfg.rules.as_deref())
        .visit(Run(&cfg))
    {
        Ok(code) => code,
        Err(config::RunError::Usage(e)) => {
            eprintln!("tournament: {e}");
            2
        }
        Err(config::RunError::Runtime(e)) => {
            eprintln!("tournament: {e}");
            1
        }
    }
}

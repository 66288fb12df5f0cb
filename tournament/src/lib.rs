//! Tournament runner: pits engines against each other, loses nothing, reports honest
//! statistics.
//!
//! The runner knows no game: everything game-specific comes from the engine library's
//! traits ([`engine::game::Notation`] and [`engine::game::Referee`] for notation and
//! adjudication,
//! [`engine::protocol::text::TextProtocol`] for driving a course text language), and
//! `-variant` picks the game at run time through [`engine::variant::Variant`].
//!
//! Layout, by concern (fastchess's), from the bottom up:
//! - [`engines`]: the players. [`engines::process`] is a child process with hard read
//!   deadlines and writes that never block ([`engines::io`]: its pipes, served by the
//!   thread that plays the game; [`engines::traffic`]: the engine traffic log both
//!   write); [`engines::player`] is what the referee asks of a player and what an
//!   engine is ([`engines::player::EngineSpec`]); [`engines::uci`], [`engines::text`],
//!   [`engines::nboard`], [`engines::gtp`] (the Othello engines' protocols, sharing
//!   [`engines::othello`]) and [`engines::builtin`] implement it; [`engines::affinity`]
//!   pins processes to CPUs.
//! - [`game`]: [`game::referee`] plays one game, checking every move with our own rules;
//!   [`game::openings`] the openings; [`game::pgn`], [`game::epd`] what a game is
//!   written as.
//! - [`matchmaking`]: [`matchmaking::schedule`], the deterministic list of games (ids
//!   are stable, so a run can be resumed); [`matchmaking::runner`], workers, resume, SPRT
//!   stopping; [`matchmaking::shard`], [`matchmaking::merge`]: one run spread over
//!   machines (`-shard I/N`) and put back together (`tournament merge`).
//! - [`output`]: [`output::results`], JSON-lines results (append + flush per game);
//!   [`output::stats`], Elo (trinomial and pentanomial), nElo, LOS, GSPRT;
//!   [`output::tally`], the running count of a run's games and its LLR;
//!   [`output::report`], the progress line and the reports; [`output::formats`], the
//!   managers' (cutechess, fastchess) shapes of them; [`output::rating`], rating
//!   lists by maximum likelihood over all games (`tournament rate`, Ordo's model).
//! - [`config`]: what a run is asked to do (`Config`, `-shard`'s `ShardSpec`) and how it
//!   fails (`RunError`).
//! - [`compliance`]: `tournament compliance`, a fixed sequence of protocol steps
//!   against one engine (and the run's `-check`, its quick part).
//! - [`cli`]: the command line, parsed into the types of the modules above
//!   ([`cli::spec`]: an engine from its `key=value` words).

pub mod cli;
pub mod compliance;
pub mod config;
pub mod engines;
pub mod game;
pub mod matchmaking;
pub mod output;
#[cfg(test)]
mod testing;

use engine::variant::{GameVisitor, Registered};

/// Runs the configured tournament for the game chosen at run time.
struct Run<'a>(&'a config::Config);

impl GameVisitor for Run<'_> {
    type Output = Result<i32, config::RunError>;

    fn visit<G: Registered>(self) -> Self::Output {
        matchmaking::runner::run::<G>(self.0)
    }
}

/// Runs the command line (without the program name) and returns the exit status:
/// 0 done, 1 run failed or stopped by a crashed engine, 2 bad command line.
/// `tournament merge …` is [`merge::main`], `tournament compliance …`
/// [`compliance::main`].
pub fn main_with_args(args: &[String]) -> i32 {
    if args.first().is_some_and(|a| a == "merge") {
        return matchmaking::merge::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "compliance") {
        return compliance::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "rate") {
        return output::rating::cli::main(&args[1..]);
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
    // Text engines speak the edition whose rules judge the run (Ataxx `-rules 2008`):
    // the runner chooses it from the game's entry.
    match cfg.variant.visit_game(Run(&cfg)) {
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

//! `tune`: tools for making the engines stronger (see `docs/strength.md`,
//! `docs/reversi.md`). Its own crate in the workspace: it depends on the engine library,
//! and on the runner's library only because `fit` and `nnue` read the runner's results
//! files through the runner's own record type ([`tournament::output::results::GameRecord`], in
//! `texel::replay`). Each command lives in its own module; this file is their table.
//!
//! - `tune openings COUNT SEED`: prints an openings file for the tournament runner:
//!   `COUNT` distinct lines of 2–4 random plies from the start position (a third of them
//!   after one or two random `block` squares), each kept only if a depth-5 search
//!   scores it within ±120 (so games are not decided by the opening). Deterministic for
//!   a given `SEED`.
//! - `tune openings COUNT SEED --edition 2008`: the block book, keeping only the openings
//!   the 2008 edition's text dialect can set up (no block on the centre): for runs with
//!   `-rules 2008` and text engines. (`--edition 2016` is the book above.)
//! - `tune openings COUNT SEED --no-blocks`: the same for the standard game (no blocks),
//!   each kept only if a depth-7 search scores it within ±60: the book for strength
//!   measurements against other engines, which play the standard game.
//! - `tune openings COUNT SEED --variant NAME` (any game of `engine::variant::Variant`;
//!   `ataxx` is the form above): `COUNT` distinct lines of 4–6 random plies from the
//!   start position that end neither the game nor in a pass. No score filter (the
//!   games' evaluation scales differ): play each opening with both colours (`-repeat`).
//!   With `--balanced PLIES DEPTH MARGIN`: `PLIES` random plies, each line kept only if a
//!   depth-`DEPTH` search scores it within ±`MARGIN` in the game's units (Reversi's book
//!   `reversi-balanced.txt`: 8 plies, depth 10, ±32, two discs).
//! - `tune fit [--variant NAME] [--l2 L] RESULTS.jsonl...`: Texel-style tuning of a game's
//!   linear evaluation weights (Ataxx by default, LOA; terms with opening and end weights,
//!   `Tunable::eval_terms`; Reversi's pattern evaluation has none and is refused): every position of every game of that
//!   variant in the tournament runner's results files (each replayed under the rule set
//!   that judged it, its `rules`: the 2008 edition's too), labelled with the game's result,
//!   and a logistic model `P(win) = 1 / (1 + 10^(-K·eval/400))` whose cross-entropy is
//!   minimised, first over `K` with the current weights (to keep the score scale), then
//!   over the weights. Prints the loss before and after and the new `MG`/`EG` tables
//!   for the game's `eval.rs`. `--l2 L` adds `L·Σ((w − w₀)/100)²` to the loss (a pull
//!   towards the current weights).
//! - `tune nnue [--lambda L] [--epochs N] [--seed S] --out FILE RESULTS.jsonl...`: trains
//!   Ataxx's network on the Ataxx games of the results files and writes its file
//!   (`nnue.rs` here; the engine embeds `src/games/ataxx/nnue.bin`).
//! - `tune datagen --out FILE --games N [--nodes N] [--threads T] [--seed S] [--blocks P]
//!   [--plies LO-HI] [--seconds S]`: self-play training data for Ataxx's window network
//!   at a fixed node count, multi-threaded and resumable (`datagen.rs` here, with the
//!   file format).
//! - `tune window [--lambda L] [--epochs N] [--seed S] [--threads T] [--batch B] [--lr R]
//!   --out FILE DATA...`: trains the window network on such files and writes its file
//!   (`window.rs` here; the engine embeds `src/games/ataxx/window.bin`).
//! - `tune reversi-data COUNT SEED LO HI`: positions with `LO`..=`HI` empties from
//!   `COUNT` partly random Reversi games, each with its exact score (`;` then the disc
//!   difference for the side to move), solved by our solver.
//! - `tune reversi-patterns [--epochs N] [--l2 L] --out FILE DATA...`: fits the Reversi
//!   pattern evaluation to such files and writes its weights (`patterns.rs` here; the
//!   engine embeds `src/games/reversi/patterns.bin`).
//! - `tune reversi-games --out FILE --games N [--nodes N] [--solve E] [--threads T]
//!   [--seed S] [--seconds S]`: Reversi self-play games whose last `E` empties the exact
//!   solver plays, multi-threaded and resumable (`reversi_games.rs`, with the format).
//! - `tune reversi-eval [--epochs N] [--l2 L[,L...]] [--lr R] [--threads T] [--blend H] [--positions
//!   FILE]... [--yardstick FILE]... [--or-embedded] [--from-embedded] --out FILE DATA...`: fits the Reversi
//!   midgame pattern evaluation to such files and to labelled positions files and writes
//!   its weights (`reversi_eval.rs`; the engine embeds `src/games/reversi/midgame.bin`);
//!   `tune reversi-eval --yardstick FILE [--weights FILE]`: the error per stage of the
//!   embedded weights (and of a weights file) on a yardstick, fitting nothing.
//! - `tune reversi-extract [--wthor FILE...] [--gam FILE...] [--empties LO-HI] … --out
//!   FILE`: the positions of WTHOR (`.wtb`) and Logistello (`.gam`, plain text: `gzip
//!   -dc` it first) games, replayed by our rules and deduplicated by symmetry, with the
//!   records' exact values as labels where they have them (`reversi_positions.rs`).
//! - `tune reversi-label --out FILE [--exact E] [--probcut P] [--depth D] … IN...`: labels such
//!   positions by our exact solver or our search, multi-threaded and resumable
//!   (`reversi_label.rs`); `tune reversi-compare A B`: how far two labellings differ.
//! - `tune reversi-probcut [--depth D] [--positions N] [--obf FILE]... [--pair S:D]...
//!   DATA...`: how well a shallow Reversi search predicts a deeper one, for probcut's
//!   margins per stage and depth pair (`reversi_probcut.rs`).
//! - `tune reversi-endcut DATA...`: how well the exact solver's shallow searches predict
//!   the exact score of `reversi-data` files, for the staged endgame's probcut margins
//!   (`reversi_endcut.rs`).

use std::process::ExitCode;

mod datagen;
mod datagen_merge;
mod games_file;
mod nnue;
mod openings;
mod patterns;
mod reversi_endcut;
mod reversi_eval;
mod reversi_games;
mod reversi_label;
mod reversi_positions;
mod reversi_probcut;
mod spsa;
mod texel;
mod window;

/// A command: what `tune --help` lists, and how it runs.
struct Command {
    name: &'static str,
    /// Its arguments, for `tune COMMAND --help` and its usage errors.
    args: &'static str,
    /// One line of the list.
    what: &'static str,
    /// Runs it on its arguments: `None` for a usage error, else whether it worked.
    run: fn(&[&str]) -> Option<Result<(), String>>,
}

/// Every command, in the order `tune --help` lists them.
const COMMANDS: &[Command] = &[
    Command {
        name: "openings",
        args: "COUNT SEED [--variant NAME [--balanced PLIES DEPTH MARGIN] | --no-blocks | --edition 2016|2008]",
        what: "an openings book for the tournament runner",
        run: openings::command,
    },
    Command {
        name: "fit",
        args: "[--variant NAME] [--l2 L] RESULTS.jsonl...",
        what: "Texel fit of a game's linear evaluation weights to results files",
        run: texel::command,
    },
    Command {
        name: "nnue",
        args: "[--lambda L] [--epochs N] [--seed S] --out FILE RESULTS.jsonl...",
        what: "train Ataxx's network on the games of results files",
        run: |a| nnue::parse_args(a).map(|o| nnue::train(&o)),
    },
    Command {
        name: "datagen",
        args: "--out FILE --games N [--nodes N] [--threads T] [--seed S] [--blocks P] [--plies LO-HI] [--window W] [--seconds S] [--shard I/N|auto/N]",
        what: "self-play training data for Ataxx's window network",
        run: |a| datagen::parse_args(a).map(|o| datagen::run(&o)),
    },
    Command {
        name: "datagen-merge",
        args: "--out FILE IN...",
        what: "datagen files (shards, runs) as one, each game once; repeats and speed",
        run: |a| Some(datagen_merge::run(a)),
    },
    Command {
        name: "spsa",
        args: spsa::USAGE,
        what: "tune an engine's spin options by SPSA through the runner (sharded, resumable)",
        run: |a| match spsa::parse_args(a) {
            Ok(o) => Some(spsa::run(&o)),
            Err(e) => {
                eprintln!("tune spsa: {e}");
                None
            }
        },
    },
    Command {
        name: "window",
        args: "[--lambda L] [--epochs N] [--seed S] [--threads T] [--batch B] [--lr R] [--keep-duplicates] --out FILE DATA...",
        what: "train Ataxx's window network on datagen files",
        run: |a| window::parse_args(a).map(|o| window::train(&o)),
    },
    Command {
        name: "reversi-data",
        args: "COUNT SEED LO HI",
        what: "Reversi positions with LO to HI empties, each with its solved score",
        run: |a| match a {
            [count, seed, lo, hi] => Some(patterns::data(
                count.parse().ok()?,
                seed.parse().ok()?,
                lo.parse().ok()?,
                hi.parse().ok()?,
            )),
            _ => None,
        },
    },
    Command {
        name: "reversi-patterns",
        args: "[--epochs N] [--l2 L] --out FILE DATA...",
        what: "fit Reversi's pattern evaluation to reversi-data files",
        run: |a| Some(patterns::fit(a)),
    },
    Command {
        name: "reversi-games",
        args: "--out FILE --games N [--nodes N] [--solve E] [--threads T] [--seed S] [--seconds S] [--shard I/N|auto/N]",
        what: "Reversi self-play games, their last empties solved",
        run: |a| reversi_games::parse_args(a).map(|o| reversi_games::run(&o)),
    },
    Command {
        name: "reversi-eval",
        args: "[--epochs N] [--l2 L[,L...]] [--lr R] [--threads T] [--blend H] [--positions FILE]... [--yardstick FILE]... [--or-embedded] [--from-embedded] [--weights FILE] [--out FILE] DATA...",
        what: "fit Reversi's midgame evaluation; its error per stage on a yardstick",
        run: |a| reversi_eval::parse_args(a).map(|o| reversi_eval::train(&o)),
    },
    Command {
        name: "reversi-extract",
        args: "[--wthor FILE...] [--gam FILE...] [--empties LO-HI] [--gam-exact E] [--gam-book] [--wthor-line N] [--labelled-only] [--per-game N] [--offline N] [--exclude FILE] [--games-mod R/M] [--seed S] --out FILE",
        what: "Reversi positions of WTHOR and Logistello games, with the records' exact values",
        run: |a| reversi_positions::parse_extract_args(a).map(|o| reversi_positions::extract(&o)),
    },
    Command {
        name: "reversi-label",
        args: "--out FILE [--exact E] [--probcut P] [--probcut-empties E] [--shallow N] [--depth D] [--full-width] [--empties LO-HI] [--limit N] [--relabel] [--threads T] IN...",
        what: "label Reversi positions by our exact solver or our search (resumable)",
        run: |a| reversi_label::parse_args(a).map(|o| reversi_label::run(&o)),
    },
    Command {
        name: "reversi-compare",
        args: "REFERENCE OTHER",
        what: "how far two labellings of the same Reversi positions differ, per empties",
        run: |a| Some(reversi_label::run_compare(a)),
    },
    Command {
        name: "reversi-probcut",
        args: "[--depth D] [--positions N] [--obf FILE]... [--pair S:D]... DATA...",
        what: "how well a shallow Reversi search predicts a deeper one",
        run: |a| Some(reversi_probcut::run(a)),
    },
    Command {
        name: "reversi-endcut",
        args: "DATA...",
        what: "how well the solver's shallow searches predict the exact score (probcut margins)",
        run: |a| Some(reversi_endcut::run(a)),
    },
];

/// The list of commands, one a line (`tune --help`).
fn overview() -> String {
    let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = String::from(
        "usage: tune COMMAND ARGS...\n\
         Tools for making the engines stronger (docs/strength.md, docs/reversi.md).\n\n\
         Commands:\n",
    );
    for c in COMMANDS {
        out.push_str(&format!("  {:width$}  {}\n", c.name, c.what));
    }
    out.push_str("\ntune COMMAND --help shows the command's arguments.\n");
    out
}

fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// One command's arguments and purpose (`tune COMMAND --help`, and its usage errors).
fn command_usage(c: &Command) -> String {
    format!("usage: tune {} {}\n{}\n", c.name, c.args, c.what)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let help = |a: &&str| matches!(*a, "--help" | "-h" | "help");
    let (command, rest) = match args.as_slice() {
        [] => {
            eprint!("{}", overview());
            return ExitCode::from(2);
        }
        [only] if help(only) => {
            print!("{}", overview());
            return ExitCode::SUCCESS;
        }
        ["help", name] => return command_help(name),
        [name, rest @ ..] if rest.iter().any(|a| matches!(*a, "--help" | "-h")) => {
            return command_help(name)
        }
        [name, rest @ ..] => match find(name) {
            Some(c) => (c, rest),
            None => return unknown(name),
        },
    };
    match (command.run)(rest) {
        Some(Ok(())) => ExitCode::SUCCESS,
        Some(Err(e)) => {
            eprintln!("tune: {e}");
            ExitCode::from(1)
        }
        // A usage error names the command's arguments.
        None => {
            eprint!("{}", command_usage(command));
            eprintln!("(tune --help lists the commands)");
            ExitCode::from(2)
        }
    }
}

/// `tune COMMAND --help`: the command's arguments on stdout.
fn command_help(name: &str) -> ExitCode {
    match find(name) {
        Some(c) => {
            print!("{}", command_usage(c));
            ExitCode::SUCCESS
        }
        None => unknown(name),
    }
}

/// A command that does not exist: named, and the list of those that do.
fn unknown(name: &str) -> ExitCode {
    eprintln!("tune: unknown command '{name}'\n");
    eprint!("{}", overview());
    ExitCode::from(2)
}

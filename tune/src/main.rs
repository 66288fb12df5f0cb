//! `tune`: tools for making the engines stronger (see `docs/strength.md`,
//! `docs/reversi.md`). Its own crate in the workspace: it depends on the engine library,
//! and on the runner's library only because `fit` and `nnue` read the runner's results
//! files through the runner's own record type ([`tournament::output::results::GameRecord`], in
//! `replay`).
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
//! - `tune reversi-eval [--epochs N] [--l2 L[,L...]] [--lr R] [--threads T] [--positions
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
//! - `tune reversi-probcut [--depth D] [--positions N] DATA...`: how well a shallow
//!   Reversi search predicts a deeper one, for probcut's margin (`reversi_probcut.rs`).
//! - `tune reversi-endcut DATA...`: how well the exact solver's shallow searches predict
//!   the exact score of `reversi-data` files, for the staged endgame's probcut margins
//!   (`reversi_endcut.rs`).

use engine::game::{Game, Notation, RuleSet, Side, Tunable};
use engine::games::ataxx::block_squares;
use engine::games::ataxx::{square_name, Move, Position, Rules};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use engine::variant::{Dialect, GameVisitor, Registered, Variant};
use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use tournament::output::results::GameRecord;

mod datagen;
mod datagen_merge;
mod games_file;
mod nnue;
mod patterns;
mod reversi_endcut;
mod reversi_eval;
mod reversi_games;
mod reversi_label;
mod reversi_positions;
mod reversi_probcut;
mod spsa;
mod window;

/// Every command: its name, its arguments and what it does (one line of the list that
/// `tune --help` prints; `tune COMMAND --help` and a usage error give the arguments).
const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "openings",
        "COUNT SEED [--variant NAME [--balanced PLIES DEPTH MARGIN] | --no-blocks | --edition 2016|2008]",
        "an openings book for the tournament runner",
    ),
    (
        "fit",
        "[--variant NAME] [--l2 L] RESULTS.jsonl...",
        "Texel fit of a game's linear evaluation weights to results files",
    ),
    (
        "nnue",
        "[--lambda L] [--epochs N] [--seed S] --out FILE RESULTS.jsonl...",
        "train Ataxx's network on the games of results files",
    ),
    (
        "datagen",
        "--out FILE --games N [--nodes N] [--threads T] [--seed S] [--blocks P] [--plies LO-HI] [--window W] [--seconds S] [--shard I/N|auto/N]",
        "self-play training data for Ataxx's window network",
    ),
    (
        "datagen-merge",
        "--out FILE IN...",
        "datagen files (shards, runs) as one, each game once; repeats and speed",
    ),
    (
        "spsa",
        spsa::USAGE,
        "tune an engine's spin options by SPSA through the runner (sharded, resumable)",
    ),
    (
        "window",
        "[--lambda L] [--epochs N] [--seed S] [--threads T] [--batch B] [--lr R] [--keep-duplicates] --out FILE DATA...",
        "train Ataxx's window network on datagen files",
    ),
    (
        "reversi-data",
        "COUNT SEED LO HI",
        "Reversi positions with LO to HI empties, each with its solved score",
    ),
    (
        "reversi-patterns",
        "[--epochs N] [--l2 L] --out FILE DATA...",
        "fit Reversi's pattern evaluation to reversi-data files",
    ),
    (
        "reversi-games",
        "--out FILE --games N [--nodes N] [--solve E] [--threads T] [--seed S] [--seconds S] [--shard I/N|auto/N]",
        "Reversi self-play games, their last empties solved",
    ),
    (
        "reversi-eval",
        "[--epochs N] [--l2 L[,L...]] [--lr R] [--threads T] [--positions FILE]... [--yardstick FILE]... [--or-embedded] [--from-embedded] [--weights FILE] [--out FILE] DATA...",
        "fit Reversi's midgame evaluation; its error per stage on a yardstick",
    ),
    (
        "reversi-extract",
        "[--wthor FILE...] [--gam FILE...] [--empties LO-HI] [--gam-exact E] [--wthor-line N] [--labelled-only] [--per-game N] [--offline N] [--exclude FILE] [--games-mod R/M] [--seed S] --out FILE",
        "Reversi positions of WTHOR and Logistello games, with the records' exact values",
    ),
    (
        "reversi-label",
        "--out FILE [--exact E] [--probcut P] [--probcut-empties E] [--shallow N] [--depth D] [--full-width] [--empties LO-HI] [--limit N] [--relabel] [--threads T] IN...",
        "label Reversi positions by our exact solver or our search (resumable)",
    ),
    (
        "reversi-compare",
        "REFERENCE OTHER",
        "how far two labellings of the same Reversi positions differ, per empties",
    ),
    (
        "reversi-probcut",
        "[--depth D] [--positions N] DATA...",
        "how well a shallow Reversi search predicts a deeper one",
    ),
    (
        "reversi-endcut",
        "DATA...",
        "how well the solver's shallow searches predict the exact score (probcut margins)",
    ),
];

/// The list of commands, one a line (`tune --help`).
fn overview() -> String {
    let width = COMMANDS.iter().map(|c| c.0.len()).max().unwrap_or(0);
    let mut out = String::from(
        "usage: tune COMMAND ARGS...\n\
         Tools for making the engines stronger (docs/strength.md, docs/reversi.md).\n\n\
         Commands:\n",
    );
    for (name, _, what) in COMMANDS {
        out.push_str(&format!("  {name:width$}  {what}\n"));
    }
    out.push_str("\ntune COMMAND --help shows the command's arguments.\n");
    out
}

/// One command's arguments and purpose (`tune COMMAND --help`, and its usage errors).
fn command_usage(name: &str) -> Option<String> {
    let (name, args, what) = COMMANDS.iter().find(|c| c.0 == name)?;
    Some(format!("usage: tune {name} {args}\n{what}\n"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let help = |a: &&str| matches!(*a, "--help" | "-h" | "help");
    let command = match args.as_slice() {
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
        [name, ..] if command_usage(name).is_none() => return unknown(name),
        [name, ..] => *name,
    };
    // A usage error names the command's arguments.
    let usage = || {
        eprint!("{}", command_usage(command).unwrap_or_default());
        eprintln!("(tune --help lists the commands)");
        ExitCode::from(2)
    };
    match args.as_slice() {
        ["openings", count, seed] => match (count.parse(), seed.parse()) {
            (Ok(c), Ok(s)) => {
                openings(c, s, &BLOCK_BOOK, None);
                ExitCode::SUCCESS
            }
            _ => usage(),
        },
        ["openings", count, seed, "--no-blocks"] => match (count.parse(), seed.parse()) {
            (Ok(c), Ok(s)) => {
                openings(c, s, &STANDARD_BOOK, None);
                ExitCode::SUCCESS
            }
            _ => usage(),
        },
        ["openings", count, seed, "--variant", name] => {
            match (count.parse(), seed.parse(), Variant::from_name(name)) {
                (Ok(c), Ok(s), Some(Variant::Ataxx)) => openings(c, s, &BLOCK_BOOK, None),
                (Ok(c), Ok(s), Some(v)) => print_lines(v.visit_game(RandomOpenings {
                    count: c,
                    seed: s,
                    balance: None,
                })),
                _ => return usage(),
            }
            ExitCode::SUCCESS
        }
        ["openings", count, seed, "--variant", name, "--balanced", plies, depth, margin] => {
            let balance = match (plies.parse(), depth.parse(), margin.parse()) {
                (Ok(plies), Ok(depth), Ok(margin)) if plies > 0 && depth > 0 => Balance {
                    plies,
                    depth,
                    margin,
                },
                _ => return usage(),
            };
            match (count.parse(), seed.parse(), Variant::from_name(name)) {
                (Ok(c), Ok(s), Some(v)) => print_lines(v.visit_game(RandomOpenings {
                    count: c,
                    seed: s,
                    balance: Some(balance),
                })),
                _ => return usage(),
            }
            ExitCode::SUCCESS
        }
        ["openings", count, seed, "--edition", name] => {
            let edition = Variant::Ataxx
                .dialects()
                .iter()
                .copied()
                .find(|d| d.edition() == Some(name));
            match (count.parse(), seed.parse(), edition) {
                (Ok(c), Ok(s), Some(d)) => openings(c, s, &BLOCK_BOOK, Some(d)),
                _ => return usage(),
            }
            ExitCode::SUCCESS
        }
        ["fit", rest @ ..] => match fit_args(rest) {
            Some((variant, l2, files)) => report(variant.visit_game(Fit { files: &files, l2 })),
            None => usage(),
        },
        ["reversi-data", count, seed, lo, hi] => {
            match (count.parse(), seed.parse(), lo.parse(), hi.parse()) {
                (Ok(c), Ok(s), Ok(lo), Ok(hi)) => report(patterns::data(c, s, lo, hi)),
                _ => usage(),
            }
        }
        ["reversi-patterns", rest @ ..] => report(patterns::fit(rest)),
        ["reversi-eval", rest @ ..] => match reversi_eval::parse_args(rest) {
            Some(o) => report(reversi_eval::train(&o)),
            None => usage(),
        },
        ["reversi-extract", rest @ ..] => match reversi_positions::parse_extract_args(rest) {
            Some(o) => report(reversi_positions::extract(&o)),
            None => usage(),
        },
        ["reversi-label", rest @ ..] => match reversi_label::parse_args(rest) {
            Some(o) => report(reversi_label::run(&o)),
            None => usage(),
        },
        ["reversi-compare", rest @ ..] => report(reversi_label::run_compare(rest)),
        ["reversi-probcut", rest @ ..] => report(reversi_probcut::run(rest)),
        ["reversi-endcut", rest @ ..] => report(reversi_endcut::run(rest)),
        ["reversi-games", rest @ ..] => match reversi_games::parse_args(rest) {
            Some(o) => report(reversi_games::run(&o)),
            None => usage(),
        },
        ["datagen-merge", rest @ ..] => report(datagen_merge::run(rest)),
        ["spsa", rest @ ..] => match spsa::parse_args(rest) {
            Ok(o) => report(spsa::run(&o)),
            Err(e) => {
                eprintln!("tune spsa: {e}");
                usage()
            }
        },
        ["datagen", rest @ ..] => match datagen::parse_args(rest) {
            Some(o) => report(datagen::run(&o)),
            None => usage(),
        },
        ["window", rest @ ..] => match window::parse_args(rest) {
            Some(o) => report(window::train(&o)),
            None => usage(),
        },
        ["nnue", rest @ ..] => match nnue::parse_args(rest) {
            Some(o) => report(nnue::train(&o)),
            None => usage(),
        },
        _ => usage(),
    }
}

/// `fit`'s arguments: `[--variant NAME] [--l2 L] FILES...` (Ataxx by default).
fn fit_args<'a>(mut args: &[&'a str]) -> Option<(Variant, f64, Vec<&'a str>)> {
    let (mut variant, mut l2) = (Variant::Ataxx, 0.0);
    loop {
        match args {
            ["--variant", name, rest @ ..] => {
                variant = Variant::from_name(name)?;
                args = rest;
            }
            ["--l2", l, rest @ ..] => {
                l2 = l.parse().ok()?;
                args = rest;
            }
            [] => return None,
            files => return Some((variant, l2, files.to_vec())),
        }
    }
}

fn report(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::from(1)
        }
    }
}

/// `tune COMMAND --help`: the command's arguments on stdout.
fn command_help(name: &str) -> ExitCode {
    match command_usage(name) {
        Some(text) => {
            print!("{text}");
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

/// How an Ataxx openings file is made.
struct BookKind {
    /// The command's extra argument, for the file's header.
    flag: &'static str,
    /// Whether a third of the openings start with one or two random blocks.
    blocks: bool,
    /// The depth of the balance check, and the largest score (centipawns) it keeps.
    depth: u32,
    margin: i32,
}

/// The block book (`tournament/openings/ataxx-openings.txt`).
const BLOCK_BOOK: BookKind = BookKind {
    flag: "",
    blocks: true,
    depth: 5,
    margin: 120,
};

/// The standard game's book, without blocks, balanced more tightly
/// (`tournament/openings/ataxx-noblocks.txt`).
const STANDARD_BOOK: BookKind = BookKind {
    flag: " --no-blocks",
    blocks: false,
    depth: 7,
    margin: 60,
};

/// The Ataxx book of `kind`; with an `edition`, only the openings that edition's text
/// dialect can set up (the 2008 notation writes no block on the centre), the others
/// drawn and skipped, so the book without it is unchanged.
fn openings(count: usize, seed: u64, kind: &BookKind, edition: Option<Dialect>) {
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut searcher = Searcher::<Position>::new(4);
    let stop = AtomicBool::new(false);
    let flag = match edition.and_then(Dialect::edition) {
        Some(e) => format!("{} --edition {e}", kind.flag),
        None => kind.flag.to_string(),
    };
    println!(
        "# {count} Ataxx openings made by `tune openings {count} {seed}{flag}` (tune/src/main.rs):"
    );
    if kind.blocks {
        println!(
            "# 2-4 random plies from the start, a third after 1-2 random blocks; each kept only"
        );
    } else {
        println!(
            "# 2-4 random plies from the start, no blocks (the standard game); each kept only"
        );
    }
    println!(
        "# if a depth-{} search scores it within +-{}.",
        kind.depth, kind.margin
    );
    let mut made = 0;
    while made < count {
        let mut pos = Position::startpos(Rules::Uai);
        let mut words = Vec::new();
        if kind.blocks && rng.below(3) == 0 {
            for _ in 0..1 + rng.below(2) {
                let sq = rng.below(49) as u8;
                let b = block_squares(sq);
                if b & pos.empty() == b {
                    pos.add_gaps(b).expect("the squares are empty");
                    words.push(format!("block {}", square_name(sq)));
                }
            }
        }
        let plies = 2 + rng.below(3);
        let mut ok = true;
        for _ in 0..plies {
            let moves: Vec<Move> = pos.legal_moves();
            if moves.is_empty() || moves[0].is_pass() {
                ok = false;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
            words.push(mv.to_string());
        }
        if !ok || pos.outcome().is_some() || !seen.insert(pos.hash()) {
            continue;
        }
        if edition.is_some_and(|d| !settable(d, &words.join(" "))) {
            continue;
        }
        searcher.new_game();
        let r = searcher.search(&pos, &Limits::depth(kind.depth), &stop, None, &mut |_| {});
        if r.score.0.abs() > kind.margin {
            continue;
        }
        println!("{}", words.join(" "));
        made += 1;
    }
}

/// Whether text engines of dialect `d` can set `line` (an opening in our lines) up.
fn settable(d: Dialect, line: &str) -> bool {
    struct Settable<'a>(&'a str, &'static str);
    impl GameVisitor for Settable<'_> {
        type Output = bool;
        fn visit<G: Registered>(self) -> bool {
            let Some(codec) = G::text_codec(G::Rules::from_name(self.1)) else {
                return false;
            };
            G::opening(self.0, codec.rules())
                .and_then(|o| codec.setup_commands(&o, Side::First, 0, false))
                .is_ok()
        }
    }
    d.variant().visit_game(Settable(line, d.rules_name()))
}

/// Prints a book's lines (what [`RandomOpenings`] makes) to stdout.
fn print_lines(lines: Vec<String>) {
    for line in lines {
        println!("{line}");
    }
}

/// `tune openings COUNT SEED --variant NAME` for any game (see the module docs).
struct RandomOpenings {
    count: usize,
    seed: u64,
    balance: Option<Balance>,
}

/// `--balanced PLIES DEPTH MARGIN`: exactly `PLIES` random plies, each line kept only if
/// a depth-`DEPTH` search scores it within ±`MARGIN` (the game's own units), so that
/// neither colour starts out won and a pair of games measures the engines, not the line.
struct Balance {
    plies: usize,
    depth: u32,
    margin: i32,
}

impl GameVisitor for RandomOpenings {
    type Output = Vec<String>;
    /// The file's lines: its header, then one opening a line.
    fn visit<G: Registered>(self) -> Vec<String> {
        let (count, seed) = (self.count, self.seed);
        let mut rng = SplitMix64::new(seed);
        let mut seen = HashSet::new();
        let name = G::NAME;
        let mut out = Vec::new();
        let mut searcher = Searcher::<G>::new(16);
        let stop = AtomicBool::new(false);
        match &self.balance {
            None => {
                out.push(format!("# {count} {name} openings made by `tune openings {count} {seed} --variant {name}`"));
                out.push(
                    "# (tune/src/main.rs): 4-6 random plies from the start, distinct, no"
                        .to_string(),
                );
                out.push("# pass, game not over; no balance check (play each with both colours: -repeat).".to_string());
            }
            Some(b) => {
                let (plies, depth, margin) = (b.plies, b.depth, b.margin);
                out.push(format!("# {count} {name} openings made by `tune openings {count} {seed} --variant {name} --balanced {plies} {depth} {margin}`"));
                out.push(format!(
                    "# (tune/src/main.rs): {plies} random plies from the start, distinct, no pass,"
                ));
                out.push(format!("# game not over; each kept only if a depth-{depth} search scores it within +-{margin}."));
            }
        }
        let mut made = 0;
        let mut moves = Vec::new();
        while made < count {
            let mut pos = G::startpos(G::Rules::ENGINE);
            let mut words = Vec::new();
            let plies = self.balance.as_ref().map_or(4 + rng.below(3), |b| b.plies);
            for _ in 0..plies {
                moves.clear();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.is_over() || moves.iter().any(|&m| pos.is_pass(m)) {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                words.push(pos.move_name(mv));
                pos.make_move(mv);
            }
            if words.len() < plies.min(4) || pos.is_over() || !seen.insert(pos.hash()) {
                continue;
            }
            if let Some(b) = &self.balance {
                if words.len() < b.plies {
                    continue;
                }
                searcher.new_game();
                let r = searcher.search(&pos, &Limits::depth(b.depth), &stop, None, &mut |_| {});
                if r.score.0.abs() > b.margin {
                    continue;
                }
            }
            out.push(words.join(" "));
            made += 1;
        }
        out
    }
}

/// One training position: its terms, its phase, the evaluation outside the linear model
/// and the result for the side to move.
struct Sample {
    terms: Vec<f64>,
    phase: f64,
    offset: f64,
    result: f64,
}

/// `tune fit` for the game `G`.
struct Fit<'a> {
    files: &'a [&'a str],
    l2: f64,
}

impl GameVisitor for Fit<'_> {
    type Output = Result<(), String>;
    fn visit<G: Registered>(self) -> Result<(), String> {
        fit::<G>(self.files, self.l2)
    }
}

/// Replays every game of `G` in the results files, each under the rule set that judged
/// it, and calls `visit(game, record, ply, position)` for each position before a move
/// (the finished ones excluded; `game`
/// counts the games from 0). Lines that are not records (a line cut by a kill) and games
/// of other variants are skipped. Returns the number of games.
fn replay<G: Notation + Tunable>(
    files: &[&str],
    mut visit: impl FnMut(usize, &GameRecord, usize, &G),
) -> Result<usize, String> {
    let mut games = 0;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for rec in text.lines().filter_map(GameRecord::from_json) {
            if !rec.is_variant(G::NAME) {
                continue;
            }
            // Under the rules that judged it (a 2008 game goes on past 25 jumps; a LOA
            // text game past a third repetition); older records: the engine rules.
            let rules = rec.rules.as_deref().and_then(G::Rules::from_name);
            let mut pos = G::from_fen(&rec.fen, rules.unwrap_or(G::Rules::ENGINE))?;
            for (ply, word) in rec.moves.iter().enumerate() {
                if pos.is_over() {
                    break;
                }
                visit(games, &rec, ply, &pos);
                let Some(mv) = pos.parse_move(word) else {
                    break;
                };
                pos.make_move(mv);
            }
            games += 1;
        }
    }
    Ok(games)
}

/// The game's result for the side to move in `pos`.
fn result_for<G: Game>(rec: &GameRecord, pos: &G) -> f64 {
    let first_score = rec.result.first_score();
    match pos.side_to_move() {
        Side::First => first_score,
        Side::Second => 1.0 - first_score,
    }
}

/// Every position of every game of `G` in the results files (but the finished ones),
/// labelled with the game's result for the side to move.
fn load<G: Notation + Tunable>(files: &[&str]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    let games = replay::<G>(files, |_, rec, _, pos| {
        let (t, phase) = pos.eval_terms();
        samples.push(Sample {
            terms: t.into_iter().map(f64::from).collect(),
            phase: phase.fraction(),
            offset: f64::from(pos.eval_offset()),
            result: result_for(rec, pos),
        });
    })?;
    eprintln!("{games} {} games, {} positions", G::NAME, samples.len());
    Ok(samples)
}

fn eval_with(s: &Sample, w: &[f64]) -> f64 {
    let n = s.terms.len();
    let (mut m, mut e) = (0.0, 0.0);
    for (i, t) in s.terms.iter().enumerate() {
        m += w[i] * t;
        e += w[n + i] * t;
    }
    m * s.phase + e * (1.0 - s.phase) + s.offset
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// Mean cross-entropy of the model on the samples.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(eval_with(s, w), k).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len() as f64
}

fn fit<G: Notation + Tunable>(files: &[&str], l2: f64) -> Result<(), String> {
    if G::EVAL_TERMS.is_empty() {
        return Err(format!(
            "{}'s evaluation has no linear terms to fit",
            G::NAME
        ));
    }
    let samples = load::<G>(files)?;
    if samples.is_empty() {
        return Err(format!("no {} positions", G::NAME));
    }
    let [mg, eg] = G::eval_weights();
    let n_terms = G::EVAL_TERMS.len();
    let mut w: Vec<f64> = mg.iter().chain(eg).map(|&x| f64::from(x)).collect();
    let w0 = w.clone();
    // K by golden-section search on the current weights.
    let (mut lo, mut hi) = (0.01f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(&samples, &w, a) < loss(&samples, &w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    eprintln!(
        "K = {k:.4}, loss with current weights {:.6}",
        loss(&samples, &w, k)
    );

    // Full-batch Adam on the weights (the loss is convex in them).
    let n = 2 * n_terms;
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 1.0f64);
    let scale = k * 10f64.ln() / 400.0;
    for step in 1..=3000 {
        let mut grad = vec![0.0; n];
        for s in &samples {
            let d = (sigmoid(eval_with(s, &w), k) - s.result) * scale;
            for (i, t) in s.terms.iter().enumerate() {
                grad[i] += d * t * s.phase;
                grad[n_terms + i] += d * t * (1.0 - s.phase);
            }
        }
        for i in 0..n {
            // An L2 pull towards the current weights (per 100 units) against overfitting
            // correlated terms.
            let gi = grad[i] / samples.len() as f64 + 2.0 * l2 * (w[i] - w0[i]) / 1e4;
            m1[i] = b1 * m1[i] + (1.0 - b1) * gi;
            m2[i] = b2 * m2[i] + (1.0 - b2) * gi * gi;
            let mh = m1[i] / (1.0 - b1.powi(step));
            let vh = m2[i] / (1.0 - b2.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if step % 500 == 0 {
            eprintln!("step {step}: loss {:.6}", loss(&samples, &w, k));
        }
    }
    let round: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let wr: Vec<f64> = round.iter().map(|&x| f64::from(x)).collect();
    eprintln!("rounded weights: loss {:.6}", loss(&samples, &wr, k));
    println!("// {} terms: {}", G::NAME, G::EVAL_TERMS.join(", "));
    println!("pub const MG: Weights = {:?};", &round[..n_terms]);
    println!("pub const EG: Weights = {:?};", &round[n_terms..]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of a balanced book scores within the margin when searched again, and
    /// the same seed gives the same book.
    #[test]
    fn a_balanced_book_keeps_only_lines_a_search_scores_level() {
        let book = |balance| {
            Variant::Reversi.visit_game(RandomOpenings {
                count: 6,
                seed: 3,
                balance,
            })
        };
        let lines = book(Some(Balance {
            plies: 8,
            depth: 6,
            margin: 24,
        }));
        assert!(lines[0].contains("--balanced 8 6 24"), "{}", lines[0]);
        let openings: Vec<&String> = lines.iter().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(openings.len(), 6);
        let mut searcher = Searcher::<engine::games::reversi::Position>::new(16);
        let stop = AtomicBool::new(false);
        for line in openings {
            let o = <engine::games::reversi::Position as Notation>::opening(
                line,
                engine::games::reversi::Rules::Standard,
            )
            .expect("a legal line");
            let pos = o.end();
            assert_eq!(line.split(' ').count(), 8);
            searcher.new_game();
            let r = searcher.search(&pos, &Limits::depth(6), &stop, None, &mut |_| {});
            assert!(r.score.0.abs() <= 24, "{line}: {}", r.score.0);
        }
        // Deterministic for a seed; without a balance check, the book as before.
        assert_eq!(book(None), book(None));
        assert!(book(None)
            .iter()
            .all(|l| l.starts_with('#') || (4..=6).contains(&l.split(' ').count())));
    }

    /// The 2008 edition's dialect cannot set up a block on the centre; the 2016 one can.
    #[test]
    fn openings_are_kept_for_the_edition_that_can_set_them_up() {
        let (centre, corner) = ("block d4 a7-b6", "block c3 a7-b6 g7-f6");
        assert!(settable(Dialect::Ataxx2016, centre));
        assert!(!settable(Dialect::Ataxx2008, centre));
        assert!(settable(Dialect::Ataxx2008, corner));
        assert!(!settable(Dialect::Ataxx2008, "x5o/7/7/7/7/7/o5x o 0 1"));
    }

    /// `tune fit` replays each game under the rules that judged it: 50 jumps on a board
    /// where nothing else can happen are all positions of the game for the engine rules
    /// (and for records from before `rules` existed), but the 2008 rules end it at the
    /// 45th and the 2016 ones at the 25th.
    #[test]
    fn games_replay_under_the_rules_that_judged_them() {
        let fen = "x-1-1-1/-------/1-1-1-1/-------/1-1-1-1/-------/1-1-1-o x 0 1";
        let mut pos = Position::from_fen(fen, Rules::Uai).unwrap();
        let mut moves = Vec::new();
        for _ in 0..50 {
            let mv = pos.legal_moves()[0];
            moves.push(format!("\"{mv}\""));
            pos.make_move(mv);
        }
        let line = |rules: &str| {
            format!(
                r#"{{"id":0,"variant":"ataxx","players":["a","b"],"fen":"{fen}","result":"1/2-1/2","moves":[{}]{rules}}}"#,
                moves.join(",")
            )
        };
        let file = std::env::temp_dir().join(format!("tune-replay-{}.jsonl", std::process::id()));
        for (rules, positions) in [
            ("", 50),
            (r#","rules":"engine""#, 50),
            (r#","rules":"2008""#, 45),
            (r#","rules":"text""#, 25),
        ] {
            std::fs::write(&file, line(rules) + "\n").unwrap();
            let mut seen = 0;
            let games =
                replay::<Position>(&[file.to_str().unwrap()], |_, _, _, _| seen += 1).unwrap();
            assert_eq!((games, seen), (1, positions), "{rules}");
        }
        let _ = std::fs::remove_file(&file);
    }
}

//! What a run is asked to do ([`Config`], filled by [`crate::cli`]), the shard of it a
//! process plays ([`ShardSpec`], `-shard I/N`), and how a run fails ([`RunError`]).
//!
//! These types sit below everything that reads them (the runner, the shards, the merge,
//! the command line), so none of those needs another for them.

use crate::engines::player::EngineSpec;
use crate::game::openings::OpeningsSpec;
use crate::game::pgn::PgnOut;
use crate::game::referee::{Adjudication, DrawAdjudication, ResignAdjudication};
use crate::matchmaking::schedule::TournamentKind;
use crate::output::stats::SprtSpec;
use engine::variant::Variant;
use std::path::PathBuf;

/// A complete run configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The game played (`-variant`).
    pub variant: Variant,
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Round robin or gauntlet.
    pub tournament: TournamentKind,
    /// Games per encounter (per pair per round).
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Play each opening twice with colours swapped.
    pub repeat: bool,
    /// Colours never alternate (`-noswap`): the pair's first engine moves first in
    /// every game (with [`Config::reverse`], the second).
    pub noswap: bool,
    /// The pair's second engine moves first where the first would (`-reverse`).
    pub reverse: bool,
    /// Pause of a worker between two of its games, in ms (`-wait`).
    pub wait_ms: u64,
    /// Print the progress (score) line every this many games (`-scoreinterval`;
    /// default 1).
    pub score_interval: u64,
    /// `-use-affinity`: the CPUs the engine processes are pinned to, divided among
    /// the games at once and the engines ([`crate::engines::affinity`]); `None`: not pinned.
    /// As parsed, `Some` of the CPUs asked for (empty: all); once the command line is
    /// read, the CPUs checked and resolved.
    pub affinity: Option<Vec<usize>>,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings (`None`: the start position).
    pub openings: Option<OpeningsSpec>,
    /// Sequential probability ratio test.
    pub sprt: Option<SprtSpec>,
    /// PGN output.
    pub pgnout: Option<PgnOut>,
    /// The final position of every finished game, one FEN line each (`-epdout`).
    pub epdout: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The PGN `Site` tag.
    pub site: String,
    /// JSON-lines results file.
    pub results: Option<PathBuf>,
    /// Continue from the results file.
    pub resume: bool,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// Restart crashed engines instead of stopping the run.
    pub recover: bool,
    /// Seed for openings order, built-in players and text engines.
    pub seed: u64,
    /// Play only one shard of the schedule (`-shard I/N`; see [`crate::matchmaking::shard`]).
    pub shard: Option<ShardSpec>,
    /// Material adjudication.
    pub adjudicate: Option<Adjudication>,
    /// Score-based draw adjudication (`-draw`).
    pub draw: Option<DrawAdjudication>,
    /// Score-based resign adjudication (`-resign`).
    pub resign: Option<ResignAdjudication>,
    /// Engine traffic log file (`-log file=F`).
    pub log: Option<PathBuf>,
    /// Engine traffic to stderr (`-debug`).
    pub debug: bool,
    /// Print the report every this many games (0: only at the end).
    pub rating_interval: u64,
    /// End with the summary (`-report`).
    pub report: bool,
    /// Show the pentanomial line (fastchess's `-report penta=false` hides it).
    pub penta: bool,
    /// End the report with the runner's own turnaround per move, min/median/max
    /// (`-report latency=true`; fastchess's `-show-latency`).
    pub latency: bool,
    /// `-report html=FILE`: the run's HTML page ([`crate::output::rating::html`]).
    pub report_html: Option<std::path::PathBuf>,
    /// The rules that judge the games (`-rules`), by the game's name for them
    /// ([`engine::game::RuleSet::name`], as [`Variant::rules_named`] gives it: `engine`,
    /// `text`, `2008`); `None`: those the engines play by, which must then be one set.
    /// Text engines speak the dialect that plays by these rules
    /// ([`Variant::dialect_for`]).
    pub rules: Option<String>,
    /// Run the quick part of `tournament compliance` on every engine before the first
    /// game (`-check`), refusing the run at the first failing step.
    pub check: bool,
    /// `-output format=cutechess|fastchess`: whose shape the progress and report lines
    /// take (not in the run identity).
    pub output: OutputFormat,
}

/// Why a run could not be carried out.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    /// A problem with what the user asked for (exit status 2).
    Usage(String),
    /// A problem while running (exit status 1).
    Runtime(String),
}

/// The variables `-shard auto/N` takes the shard index from, in this order; the first
/// one set counts. `TOURNAMENT_SHARD` is ours (HTCondor: `environment =
/// "TOURNAMENT_SHARD=$(Process)"`); the others are set by Slurm job arrays, Kubernetes
/// Indexed Jobs, AWS Batch and Google Batch array jobs.
pub const INDEX_VARS: [&str; 5] = [
    "TOURNAMENT_SHARD",
    "SLURM_ARRAY_TASK_ID",
    "JOB_COMPLETION_INDEX",
    "AWS_BATCH_JOB_ARRAY_INDEX",
    "BATCH_TASK_INDEX",
];

/// `-shard I/N [dir=DIR] [poll=SECONDS]`, as given.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardSpec {
    /// I; `None` for `auto` (read from [`INDEX_VARS`] when the run starts).
    pub index: Option<u64>,
    /// N.
    pub count: u64,
    /// The directory the shards share, for the SPRT's early stop.
    pub dir: Option<PathBuf>,
    /// Least time between two looks at the other shards' counts, in ms.
    pub poll_ms: u64,
}

impl ShardSpec {
    /// Parses the words of `-shard`.
    pub fn parse(words: &[String]) -> Result<ShardSpec, String> {
        let usage = "-shard: expected I/N or auto/N [dir=DIR] [poll=SECONDS]";
        let Some((first, rest)) = words.split_first() else {
            return Err(usage.into());
        };
        let (i, n) = first.split_once('/').ok_or(usage)?;
        let count: u64 = n
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("-shard: N in '{first}' must be a positive number"))?;
        let index = if i == "auto" {
            None
        } else {
            let i: u64 = i
                .parse()
                .map_err(|_| format!("-shard: I in '{first}' must be a number or auto"))?;
            Some(check_index(i, count, "-shard")?)
        };
        let mut spec = ShardSpec {
            index,
            count,
            dir: None,
            poll_ms: 1000,
        };
        for w in rest {
            match w.split_once('=') {
                Some(("dir", d)) if !d.is_empty() => spec.dir = Some(PathBuf::from(d)),
                Some(("poll", s)) => {
                    let secs: f64 = s
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && (0.0..=86_400.0).contains(s))
                        .ok_or_else(|| format!("-shard: poll={s}: seconds from 0 to 86400"))?;
                    spec.poll_ms = (secs * 1000.0).round() as u64;
                }
                _ => return Err(format!("-shard: unexpected '{w}' ({usage})")),
            }
        }
        Ok(spec)
    }

    /// The shard index: I, or for `auto` the first of [`INDEX_VARS`] that `env` has.
    pub fn resolve(&self, env: impl Fn(&str) -> Option<String>) -> Result<u64, String> {
        if let Some(i) = self.index {
            return Ok(i);
        }
        let Some((var, value)) = INDEX_VARS
            .iter()
            .find_map(|&v| env(v).map(|value| (v, value)))
        else {
            return Err(format!(
                "-shard auto/{}: none of {} is set",
                self.count,
                INDEX_VARS.join(", ")
            ));
        };
        let i: u64 = value.trim().parse().map_err(|_| {
            format!("-shard auto: {var}='{value}' is not a shard index (0, 1, ...)")
        })?;
        check_index(i, self.count, &format!("-shard auto: {var}"))
    }
}

fn check_index(i: u64, n: u64, what: &str) -> Result<u64, String> {
    if i < n {
        Ok(i)
    } else {
        Err(format!(
            "{what}: shard {i} of {n} does not exist (shards are numbered 0 to {}; a Slurm array is --array=0-{})",
            n - 1,
            n - 1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::words;

    #[test]
    fn parse_and_resolve() {
        let s = ShardSpec::parse(&words("3/16 dir=/shared/run poll=0.5")).unwrap();
        assert_eq!(
            s,
            ShardSpec {
                index: Some(3),
                count: 16,
                dir: Some(PathBuf::from("/shared/run")),
                poll_ms: 500
            }
        );
        assert_eq!(s.resolve(|_| None), Ok(3));
        let auto = ShardSpec::parse(&words("auto/4")).unwrap();
        assert_eq!((auto.index, &auto.dir, auto.poll_ms), (None, &None, 1000));
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |v: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == v)
                    .map(|(_, x)| x.to_string())
            }
        };
        assert_eq!(auto.resolve(env(&[("SLURM_ARRAY_TASK_ID", "2")])), Ok(2));
        assert_eq!(auto.resolve(env(&[("JOB_COMPLETION_INDEX", "0")])), Ok(0));
        assert_eq!(
            auto.resolve(env(&[
                ("SLURM_ARRAY_TASK_ID", "2"),
                ("TOURNAMENT_SHARD", "1")
            ])),
            Ok(1),
            "ours first"
        );
        for bad in [
            env(&[]),
            env(&[("SLURM_ARRAY_TASK_ID", "4")]),
            env(&[("SLURM_ARRAY_TASK_ID", "x")]),
        ] {
            assert!(auto.resolve(bad).is_err());
        }
        for bad in [
            "",
            "3",
            "4/4",
            "-1/4",
            "0/0",
            "a/4",
            "1/x",
            "0/2 dir=",
            "0/2 poll=-1",
            "0/2 poll=x",
            "0/2 foo",
            "0/2 x=1",
        ] {
            assert!(ShardSpec::parse(&words(bad)).is_err(), "{bad}");
        }
    }
}

/// Whose shape the progress and report lines take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// Ours: the progress line on stderr, the report on stdout.
    #[default]
    Default,
    /// cutechess-cli's.
    Cutechess,
    /// fastchess's.
    Fastchess,
}

impl OutputFormat {
    /// `-output format=NAME`.
    pub fn parse(name: &str) -> Option<OutputFormat> {
        match name {
            "default" | "tournament" => Some(OutputFormat::Default),
            "cutechess" => Some(OutputFormat::Cutechess),
            "fastchess" => Some(OutputFormat::Fastchess),
            _ => None,
        }
    }
}

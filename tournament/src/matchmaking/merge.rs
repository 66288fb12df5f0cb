//! `tournament merge [-pgnout FILE] [-report] [-sprt …] RESULTS… [PGNS…]`: the union
//! of the results files of one run's shards (see [`crate::matchmaking::shard`]), reported as the
//! unsharded run reports it, and its PGN in schedule order.
//!
//! Every line must carry the same run identity; games are taken once by id (a second
//! record of a game with the same players and result is dropped, one with another is
//! an error). The report is [`crate::output::report::report`] over a [`Tally`] of the union, for
//! a configuration with the run's engines (from the lines, in command-line order) and
//! the merge's `-report`/`-sprt` words, parsed by the run's own command line parser.
//!
//! The merged PGN is made of the shards' PGN files (arguments ending in `.pgn`), not
//! regenerated from the records: a shard wrote each game with the run's `-event`,
//! `-site`, time controls and `min`, which the results lines do not hold. Each game is
//! found by its `Round` tag (the game's id + 1), checked against its record (result and
//! moves), and copied as written, in id order.

use crate::cli;
use crate::config::{Config, OutputFormat};
use crate::game::pgn;
use crate::matchmaking::shard::{RunInfo, RunTag};
use crate::output::formats;
use crate::output::report;
use crate::output::results::GameRecord;
use crate::output::stats::{self, SprtDecision};
use crate::output::tally::Tally;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const HELP: &str = "\
usage: tournament merge [-pgnout FILE] [-report] [-sprt KEY=VALUE...]
                        [-output format=cutechess|fastchess] RESULTS... [PGNS...]

Merges the results files (JSON lines) of the shards of one run (-shard I/N): checks
that they belong to one run, takes every game once, lists the missing ones (stderr),
and prints the report of the unsharded run. -pgnout writes one PGN file in schedule
order from the shards' PGN files (the arguments ending in .pgn); -output prints the
report as cutechess-cli or fastchess prints its own. Exit status: 0
merged, 1 the files do not fit together or cannot be read, 2 bad command line.
";

/// What the merge command line asks for.
#[derive(Debug, Default, PartialEq)]
struct MergeArgs {
    pgnout: Option<PathBuf>,
    /// Options passed on to the run's parser: `-report …`, `-sprt …`.
    report_options: Vec<String>,
    results: Vec<PathBuf>,
    pgns: Vec<PathBuf>,
    help: bool,
}

fn parse(args: &[String]) -> Result<MergeArgs, String> {
    let mut m = MergeArgs::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        match a.trim_start_matches('-') {
            _ if !a.starts_with('-') || a == "-" => {
                let path = PathBuf::from(a);
                if a.ends_with(".pgn") {
                    m.pgns.push(path);
                } else {
                    m.results.push(path);
                }
            }
            "help" | "h" => m.help = true,
            "pgnout" => match args.get(i) {
                Some(f) if !f.starts_with('-') && m.pgnout.is_none() => {
                    m.pgnout = Some(PathBuf::from(f));
                    i += 1;
                }
                _ => return Err("-pgnout needs one file name".into()),
            },
            // Their words are key=value (`-sprt elo0=0 …`): the first word without `=`
            // is a file.
            "report" | "sprt" | "output" => {
                m.report_options.push(a.to_string());
                while i < args.len() && args[i].contains('=') && !args[i].starts_with('-') {
                    m.report_options.push(args[i].clone());
                    i += 1;
                }
            }
            _ => return Err(format!("unknown option '{a}' (try tournament merge -help)")),
        }
    }
    if !m.help && m.results.is_empty() {
        return Err("give the shards' results files (tournament merge -help)".into());
    }
    if let Some(out) = &m.pgnout {
        let same = |p: &PathBuf| {
            p == out || matches!((p.canonicalize(), out.canonicalize()), (Ok(a), Ok(b)) if a == b)
        };
        if m.results.iter().chain(&m.pgns).any(same) {
            return Err(format!(
                "-pgnout {} is one of the files to merge",
                out.display()
            ));
        }
    }
    if m.pgnout.is_some() && m.pgns.is_empty() {
        return Err(
            "-pgnout takes its games from the shards' PGN files: give them (FILE.pgn)".into(),
        );
    }
    Ok(m)
}

/// Why a merge failed: the exit status and the message.
struct Failure(i32, String);

/// Runs `tournament merge` (its arguments after `merge`) and returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match merge(args) {
        Ok(()) => 0,
        Err(Failure(code, msg)) => {
            eprintln!("tournament merge: {msg}");
            code
        }
    }
}

/// The union of the results files: the run, and its games by id with the file each
/// came from.
struct Union {
    run: RunInfo,
    games: BTreeMap<u64, (GameRecord, usize)>,
    duplicates: u64,
    skipped_lines: u64,
}

fn merge(args: &[String]) -> Result<(), Failure> {
    let usage = |e: String| Failure(2, e);
    let m = parse(args).map_err(usage)?;
    if m.help {
        print!("{HELP}");
        return Ok(());
    }
    let union = read_union(&m.results).map_err(|e| Failure(1, e))?;
    let cfg = report_config(&union, &m.report_options).map_err(usage)?;
    let mut tally = Tally::new(union.run.engines.clone());
    for (rec, _) in union.games.values() {
        tally.add(rec);
    }
    let missing: Vec<u64> = (0..union.run.games)
        .filter(|id| !union.games.contains_key(id))
        .collect();
    tell_merged(&union, m.results.len(), &missing);
    if let Some(out) = &m.pgnout {
        write_pgn(out, &m.pgns, &union).map_err(|e| Failure(1, e))?;
    }
    let merged = union.games.len() as u64;
    print_report(
        &cfg,
        &tally,
        (merged, union.run.games),
        &missing,
        m.results.len(),
    );
    Ok(())
}

/// The report's configuration: the run's engines (built-in stand-ins: only their names
/// count) and the merge's report options, through the run's own parser.
fn report_config(union: &Union, report_options: &[String]) -> Result<Box<Config>, String> {
    let mut words: Vec<String> = Vec::new();
    for name in &union.run.engines {
        words.extend([
            "-engine".into(),
            "builtin=random".into(),
            format!("name={name}"),
        ]);
    }
    words.extend(report_options.iter().cloned());
    match cli::parse(&words)? {
        cli::Command::Run(cfg) => Ok(cfg),
        _ => Err("unexpected option".into()),
    }
}

/// Tells on stderr what was merged from how many `files`, what was dropped, and which
/// games are `missing`.
fn tell_merged(union: &Union, files: usize, missing: &[u64]) {
    eprintln!(
        "merged: {} of {} games of run {} from {files} files{}{}",
        union.games.len(),
        union.run.games,
        union.run.id,
        match union.duplicates {
            0 => String::new(),
            n => format!(", {n} duplicates dropped"),
        },
        match union.skipped_lines {
            0 => String::new(),
            n => format!(", {n} unreadable lines skipped"),
        }
    );
    if !missing.is_empty() {
        eprintln!(
            "missing: {} games: ids {}",
            missing.len(),
            ranges(missing, 20)
        );
    }
}

/// Prints the merged run's report on stdout, as the run itself would have: `merged` of
/// `total` games, merged from `files` files.
fn print_report(
    cfg: &Config,
    tally: &Tally,
    (merged, total): (u64, u64),
    missing: &[u64],
    files: usize,
) {
    let mut stdout = std::io::stdout().lock();
    // `-output format=cutechess|fastchess`: the manager's closing report and last line,
    // as the run prints them, for the scripts that read that manager's output.
    match cfg.output {
        OutputFormat::Default => {}
        OutputFormat::Cutechess => {
            let _ = writeln!(stdout, "{}", formats::cutechess_results(cfg, tally));
            let _ = writeln!(stdout, "Finished match");
            let _ = stdout.flush();
            return;
        }
        OutputFormat::Fastchess => {
            let _ = write!(stdout, "{}", formats::fastchess_interval(cfg, tally));
            let _ = writeln!(stdout, "{}", formats::fastchess_end(cfg, tally));
            let _ = stdout.flush();
            return;
        }
    }
    let _ = write!(stdout, "{}", report::report(cfg, tally));
    if cfg.report {
        let decided = cfg.sprt.as_ref().is_some_and(|spec| {
            stats::sprt_decision(tally.llr(spec), spec) != SprtDecision::Continue
        });
        let how = match (missing.len(), decided) {
            (0, _) => String::new(),
            (_, true) => ", stopped by the SPRT".into(),
            (n, false) => format!(", {n} missing"),
        };
        let _ = writeln!(
            stdout,
            "Finished match: {merged} of {total} games{how}, merged from {files} files"
        );
    }
    let _ = stdout.flush();
}

/// Reads every results file and takes the union. Cut or unreadable lines are skipped
/// (counted); a line without a run identity, of another run, or at an id outside the
/// schedule is an error, and so is a second record of a game that differs.
fn read_union(files: &[PathBuf]) -> Result<Union, String> {
    let mut union: Option<Union> = None;
    let mut first_file: Option<&Path> = None;
    let mut skipped = 0;
    for (f, path) in files.iter().enumerate() {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            let (Some(rec), Ok(tag)) = (
                GameRecord::from_json(line),
                serde_json::from_str::<RunTag>(line),
            ) else {
                if !line.trim().is_empty() {
                    skipped += 1;
                }
                continue;
            };
            let at = format!("game {} in {}", rec.id, path.display());
            let Some(run) = tag.run else {
                return Err(format!(
                    "{at} carries no run identity (written before runs had one): it cannot be merged"
                ));
            };
            let u = union.get_or_insert_with(|| {
                first_file = Some(path);
                Union {
                    run: run.clone(),
                    games: BTreeMap::new(),
                    duplicates: 0,
                    skipped_lines: 0,
                }
            });
            if run != u.run {
                return Err(format!(
                    "mixed runs: {at} is of run {} ({} games, engines {}), {} holds run {} \
                     ({} games, engines {}): different engines, openings, seed or game settings",
                    run.id,
                    run.games,
                    run.engines.join(", "),
                    first_file.map_or_else(String::new, |p| p.display().to_string()),
                    u.run.id,
                    u.run.games,
                    u.run.engines.join(", ")
                ));
            }
            if rec.id >= u.run.games {
                return Err(format!(
                    "{at} lies outside the run's schedule of {} games",
                    u.run.games
                ));
            }
            match u.games.get(&rec.id) {
                None => {
                    u.games.insert(rec.id, (rec, f));
                }
                Some((kept, _)) if kept.players == rec.players && kept.result == rec.result => {
                    u.duplicates += 1;
                }
                Some((kept, g)) => {
                    return Err(format!(
                        "{at} ({} - {} {}) differs from game {} in {} ({} - {} {})",
                        rec.players[0],
                        rec.players[1],
                        rec.result.as_str(),
                        kept.id,
                        files[*g].display(),
                        kept.players[0],
                        kept.players[1],
                        kept.result.as_str()
                    ));
                }
            }
        }
    }
    let mut union = union.ok_or("no games in the results files")?;
    union.skipped_lines = skipped;
    Ok(union)
}

/// Writes the merged PGN: for every game of the union in id order, its text from the
/// shards' PGN files. A PGN game of an id the union lacks, or whose result or moves
/// differ from its record, is an error (another run's file); one that does not read
/// (cut by a kill) is skipped, and games the PGN files lack are listed.
fn write_pgn(out: &Path, pgns: &[PathBuf], union: &Union) -> Result<(), String> {
    let mut texts: BTreeMap<u64, String> = BTreeMap::new();
    let mut unreadable = 0;
    for path in pgns {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        for game in split_games(&text) {
            let Some(id) = tag_value(game, "Round")
                .and_then(|r| r.parse::<u64>().ok())
                .and_then(|r| r.checked_sub(1))
            else {
                unreadable += 1;
                continue;
            };
            let Some(parsed) = pgn::read(game).ok().and_then(|g| g.into_iter().next()) else {
                unreadable += 1;
                continue;
            };
            let at = format!("game {id} (Round {}) in {}", id + 1, path.display());
            let Some((rec, _)) = union.games.get(&id) else {
                return Err(format!("{at} is in none of the results files"));
            };
            if tag_value(game, "Result") != Some(rec.result.as_str()) || parsed.moves != rec.moves {
                return Err(format!(
                    "{at} differs from its record (result or moves): not the same run"
                ));
            }
            texts.entry(id).or_insert_with(|| {
                let mut t = game.trim_end().to_string();
                t.push_str("\n\n");
                t
            });
        }
    }
    let lacking: Vec<u64> = union
        .games
        .keys()
        .copied()
        .filter(|id| !texts.contains_key(id))
        .collect();
    if unreadable > 0 {
        eprintln!("merge: {unreadable} PGN games that do not read (cut by a kill?) skipped");
    }
    if !lacking.is_empty() {
        eprintln!(
            "merge: {} games are in the results but not in the PGN files, the merged PGN lacks them: ids {}",
            lacking.len(),
            ranges(&lacking, 20)
        );
    }
    let mut f =
        std::fs::File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for t in texts.values() {
        f.write_all(t.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    f.flush()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// The games of a PGN text as written: each from its first tag line to the next
/// game's.
fn split_games(text: &str) -> Vec<&str> {
    let mut starts = Vec::new();
    let mut in_tags = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            if !in_tags {
                starts.push(offset);
                in_tags = true;
            }
        } else if !t.is_empty() {
            in_tags = false;
        }
        offset += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| &text[s..starts.get(k + 1).copied().unwrap_or(text.len())])
        .collect()
}

/// The value of tag `key` in a game's tag lines (`[Round "12"]`), unescaped only as
/// far as digits and results need.
fn tag_value<'a>(game: &'a str, key: &str) -> Option<&'a str> {
    game.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('[') || l.is_empty())
        .find_map(|l| {
            l.strip_prefix('[')?
                .strip_prefix(key)?
                .strip_prefix(" \"")?
                .strip_suffix("\"]")
        })
}

/// Ids as ranges, `0, 3-7, 9`, at most `max` of them (then `… (N more)`).
fn ranges(ids: &[u64], max: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            ids[i].to_string()
        } else {
            format!("{}-{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    let more = parts.len().saturating_sub(max);
    parts.truncate(max);
    let mut s = parts.join(", ");
    if more > 0 {
        s.push_str(&format!(", … ({more} more)"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::words;

    #[test]
    fn command_line() {
        let m = parse(&words(
            "-pgnout all.pgn -report -sprt elo0=0 elo1=5 a.jsonl b.jsonl a.pgn",
        ))
        .unwrap();
        assert_eq!(m.pgnout, Some(PathBuf::from("all.pgn")));
        assert_eq!(m.report_options, words("-report -sprt elo0=0 elo1=5"));
        assert_eq!(
            m.results,
            [PathBuf::from("a.jsonl"), PathBuf::from("b.jsonl")]
        );
        assert_eq!(m.pgns, [PathBuf::from("a.pgn")]);
        for bad in [
            "",
            "-report",
            "-pgnout",
            "-pgnout x.pgn a.jsonl",
            "-bogus a.jsonl",
            "-pgnout -report a.jsonl b.pgn",
            "-pgnout a.pgn a.jsonl a.pgn",
            "-pgnout a.jsonl a.jsonl b.pgn",
        ] {
            assert!(parse(&words(bad)).is_err(), "{bad}");
        }
        assert!(parse(&words("-help")).unwrap().help);
    }

    #[test]
    fn games_are_split_as_written() {
        let a = "[Event \"e\"]\n[Round \"2\"]\n[Result \"1-0\"]\n\n1. f2 {x} 1-0\n\n";
        let b = "[Event \"e\"]\n[Round \"10\"]\n\n1. g2 0-1\n\n";
        let text = format!("{a}{b}[Event \"cut");
        let games = split_games(&text);
        assert_eq!(games, [a, b, "[Event \"cut"]);
        assert_eq!(tag_value(a, "Round"), Some("2"));
        assert_eq!(tag_value(a, "Result"), Some("1-0"));
        assert_eq!(tag_value(b, "Result"), None);
        assert_eq!(split_games(""), Vec::<&str>::new());
    }

    #[test]
    fn id_ranges() {
        assert_eq!(ranges(&[0, 3, 4, 5, 7], 20), "0, 3-5, 7");
        assert_eq!(ranges(&[1, 3, 5, 7], 2), "1, 3, … (2 more)");
        assert_eq!(ranges(&[], 2), "");
    }
}

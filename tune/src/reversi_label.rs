//! `tune reversi-label`: labels the positions of positions files (`reversi_positions.rs`)
//! with our own programs, and `tune reversi-compare`: how far two labellings of the
//! same positions are apart (a label source's error, measured against exact values).
//!
//! A position with `--exact` empties or fewer is solved by our exact solver (label
//! source `exact-solve`); one with up to `--probcut-empties` (if `--probcut P` is
//! given) by our staged endgame solve, to the end of the board with Multi-ProbCut, its
//! rounds run up to the one of confidence `P` % and that round's margin taken
//! (`endgame-probcut-P`; the solve goes on to the exact value where that is what
//! comes next); one with more, with `--shallow N`, the score of the solver's own
//! full-width search to depth `N` in discs (`solver-shallow-N`: its finished games
//! count by their margin), or else, if `--depth` is given, the score of our
//! engine's search to that depth, in discs (`search-depth-N`; the engine is the one
//! compiled into `tune`, its embedded evaluation, a fresh table per position, so the
//! label is a function of the position and the build). The output is appended one
//! line at a time and flushed, so a killed run loses at most the line being written;
//! a rerun with the same output file drops a cut last line and labels only the
//! positions not in the file yet (by their symmetric key). Positions are handed to
//! `--threads` workers in input order.

use super::reversi_positions::{canonical, parse_positions, Entry, Label};
use engine::game::Side;
use engine::games::reversi::midgame::{self, UNITS_PER_DISC};
use engine::games::reversi::solve::{SolveLimit, Solver, Stage, PROBCUT_ROUNDS};
use engine::games::reversi::Position;
use engine::search::{Features, Limits, Searcher};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Solver table of each worker: 2^21 entries (48 MiB), enough for 24 empties.
const SOLVER_BITS: u32 = 21;
/// Search table of each worker.
const HASH_MIB: usize = 16;

/// `tune reversi-label`'s settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub inputs: Vec<String>,
    pub out: String,
    pub exact: u32,
    pub depth: Option<u32>,
    /// The staged endgame's confidence (percent), and up to how many empties.
    pub probcut: Option<u8>,
    pub probcut_empties: u32,
    /// Instead of the engine's search: the solver's shallow search to this depth.
    pub shallow: Option<u32>,
    /// The engine's search without its selective features (`search-full-depth-N`).
    pub full_width: bool,
    pub empties: (u32, u32),
    pub limit: usize,
    pub relabel: bool,
    pub threads: usize,
}

/// `tune reversi-label --out FILE [--exact E] [--probcut P] [--probcut-empties E]
/// [--shallow N] [--depth D] [--full-width] [--empties LO-HI] [--limit N] [--relabel] [--threads T] IN...`.
pub fn parse_args(mut args: &[&str]) -> Option<Options> {
    let mut o = Options {
        inputs: Vec::new(),
        out: String::new(),
        exact: 22,
        depth: None,
        probcut: None,
        probcut_empties: 30,
        shallow: None,
        full_width: false,
        empties: (1, 60),
        limit: usize::MAX,
        relabel: false,
        threads: 1,
    };
    loop {
        match args {
            ["--out", v, rest @ ..] => (o.out, args) = (v.to_string(), rest),
            ["--exact", v, rest @ ..] => {
                (o.exact, args) = (v.parse().ok().filter(|&e| e <= 30)?, rest)
            }
            ["--depth", v, rest @ ..] => {
                (o.depth, args) = (Some(v.parse().ok().filter(|d| (1..=40).contains(d))?), rest)
            }
            ["--probcut", v, rest @ ..] => {
                let p: u8 = v.parse().ok()?;
                PROBCUT_ROUNDS.iter().any(|r| r.0 == p).then_some(())?;
                (o.probcut, args) = (Some(p), rest)
            }
            ["--shallow", v, rest @ ..] => {
                (o.shallow, args) = (Some(v.parse().ok().filter(|d| (1..=30).contains(d))?), rest)
            }
            ["--probcut-empties", v, rest @ ..] => {
                (o.probcut_empties, args) = (v.parse().ok().filter(|&e| e <= 40)?, rest)
            }
            ["--empties", v, rest @ ..] => {
                let (lo, hi) = v.split_once('-')?;
                o.empties = (lo.parse().ok()?, hi.parse().ok()?);
                args = rest;
            }
            ["--limit", v, rest @ ..] => (o.limit, args) = (v.parse().ok()?, rest),
            ["--threads", v, rest @ ..] => {
                (o.threads, args) = (v.parse().ok().filter(|t| (1..=256).contains(t))?, rest)
            }
            ["--relabel", rest @ ..] => (o.relabel, args) = (true, rest),
            ["--full-width", rest @ ..] => (o.full_width, args) = (true, rest),
            [] => break,
            [f, ..] if f.starts_with("--") => return None,
            files => {
                o.inputs = files.iter().map(|f| f.to_string()).collect();
                break;
            }
        }
    }
    (!o.out.is_empty() && !o.inputs.is_empty()).then_some(o)
}

/// The label our programs give `pos` under `o`, or `None` when it has none (too many
/// empties without `--depth`, or a search that proved a result without its margin).
pub fn label(
    pos: &Position,
    o: &Options,
    solver: &mut Solver,
    searcher: &mut Searcher<Position>,
) -> Option<Label> {
    let empties = pos.empty().count_ones();
    if empties <= o.exact {
        let s = solver.solve(pos);
        return Some(Label {
            value: s.score as f32,
            source: "exact-solve".into(),
        });
    }
    if let Some(p) = o.probcut.filter(|_| empties <= o.probcut_empties) {
        let limit = SolveLimit {
            stop: None,
            deadline: None,
            max_nodes: None,
            first_round_deadline: None,
        };
        // Rounds go on until the one of confidence `p`; the exact round ends it too.
        let r = solver.solve_staged(pos, &limit, 0, &mut |r| {
            !matches!(r.stage, Stage::Probable(c) if c >= p) && r.stage != Stage::Exact
        })?;
        return match r.stage {
            Stage::Probable(c) => Some(Label {
                value: r.score as f32,
                source: format!("endgame-probcut-{c}"),
            }),
            Stage::Exact => Some(Label {
                value: r.score as f32,
                source: "exact-solve".into(),
            }),
            // Win/loss/draw gives a bound, not a value: not a label.
            Stage::WinLossDraw => None,
        };
    }
    if let Some(d) = o.shallow {
        // The endgame solver's own full-width search (what its probcut predicts from):
        // its finished games count by their margin, where the engine's search scores
        // them as wins or losses of any margin.
        let v = solver.shallow_score(pos, d) as f32 / midgame::SCALE as f32;
        return Some(Label {
            value: (v.clamp(-64.0, 64.0) * 100.0).round() / 100.0,
            source: format!("solver-shallow-{d}"),
        });
    }
    let depth = o.depth?;
    // The search plays a lone legal move without searching and scores it 0: follow
    // forced moves (and passes) first, the label being the position's after them.
    let (mut p, mut sign) = (pos.clone(), 1.0f32);
    loop {
        if p.is_over() {
            let black = p.final_margin() as f32;
            let mover = if p.side_to_move() == Side::First {
                black
            } else {
                -black
            };
            return Some(Label {
                value: sign * mover,
                source: "exact-solve".into(),
            });
        }
        let moves = p.legal_moves();
        if moves.len() != 1 {
            break;
        }
        p.make_move(moves[0]);
        sign = -sign;
    }
    if o.full_width {
        // Without reductions, null move, pruning and probcut: how much of the
        // search's error its selectivity makes.
        searcher.features = Features {
            lmr: false,
            null_move: false,
            ..searcher.features.without_selective()
        };
    }
    searcher.new_game();
    let stop = AtomicBool::new(false);
    let r = searcher.search(&p, &Limits::depth(depth), &stop, None, &mut |_| {});
    if r.score.plies_to_end().is_some() {
        return None;
    }
    let discs = (sign * r.score.0 as f32 / UNITS_PER_DISC as f32).clamp(-64.0, 64.0);
    Some(Label {
        value: (discs * 100.0).round() / 100.0,
        source: if o.full_width {
            format!("search-full-depth-{depth}")
        } else {
            format!("search-depth-{depth}")
        },
    })
}

/// Reads the output file of an earlier run: the keys it labelled. A cut last line is
/// dropped from the file.
fn resume(path: &str) -> Result<HashSet<u128>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(format!("{path}: {e}")),
    };
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        std::fs::write(path, &text[..complete]).map_err(|e| format!("{path}: {e}"))?;
    }
    let entries = parse_positions(&text[..complete]).map_err(|e| format!("{path}: {e}"))?;
    Ok(entries
        .iter()
        .map(|e| canonical(e.pos.own(), e.pos.opp()))
        .collect())
}

pub fn run(o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let done = resume(&o.out)?;
    let mut seen = done.clone();
    let (mut todo, mut unlabellable) = (Vec::new(), 0usize);
    for f in &o.inputs {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for e in parse_positions(&text).map_err(|e| format!("{f}: {e}"))? {
            let n = e.empties();
            if !(o.empties.0..=o.empties.1).contains(&n) || (e.label.is_some() && !o.relabel) {
                continue;
            }
            let staged = o.probcut.is_some() && n <= o.probcut_empties;
            if n > o.exact && o.depth.is_none() && o.shallow.is_none() && !staged {
                unlabellable += 1;
                continue;
            }
            if seen.insert(canonical(e.pos.own(), e.pos.opp())) && todo.len() < o.limit {
                todo.push(e.pos);
            }
        }
    }
    eprintln!(
        "{} already labelled in {}, {} to label{}",
        done.len(),
        o.out,
        todo.len(),
        if unlabellable > 0 {
            format!(
                " ({unlabellable} with more than {} empties and no --depth: left)",
                o.exact
            )
        } else {
            String::new()
        }
    );
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&o.out)
        .map_err(|e| format!("{}: {e}", o.out))?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Option<Entry>>();
    let (mut written, mut skipped) = (0usize, 0usize);
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..o.threads {
            let tx = tx.clone();
            let (todo, next) = (&todo, &next);
            scope.spawn(move || {
                let mut solver = Solver::new(SOLVER_BITS);
                let mut searcher = Searcher::<Position>::new(HASH_MIB);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pos) = todo.get(i) else { break };
                    let l = label(pos, o, &mut solver, &mut searcher);
                    let entry = l.map(|l| Entry {
                        pos: pos.clone(),
                        label: Some(l),
                    });
                    if tx.send(entry).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut last_report = Instant::now();
        for entry in rx {
            let Some(entry) = entry else {
                skipped += 1;
                continue;
            };
            if error.is_none() {
                if let Err(e) = writeln!(file, "{}", entry.line()).and_then(|_| file.flush()) {
                    error = Some(format!("{}: {e}", o.out));
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                }
            }
            written += 1;
            if last_report.elapsed().as_secs() >= 60 {
                last_report = Instant::now();
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "{written} of {} labelled ({:.2} a second, {:.0} s)",
                    todo.len(),
                    written as f64 / secs,
                    secs
                );
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{written} labelled, {skipped} proven by the search without a margin (left), {:.1} s \
         ({:.2} a second)",
        secs,
        written as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// The labels two files give the same positions, per empties: how many, the mean of
/// `b − a`, the RMS of `b − a`, and how many have the same sign of the result.
pub fn compare(a: &[Entry], b: &[Entry]) -> Vec<(u32, usize, f64, f64, usize)> {
    let first: HashMap<u128, f32> = a
        .iter()
        .filter_map(|e| Some((canonical(e.pos.own(), e.pos.opp()), e.label.as_ref()?.value)))
        .collect();
    let mut per: Vec<(usize, f64, f64, usize)> = vec![(0, 0.0, 0.0, 0); 61];
    let mut used = HashSet::new();
    for e in b {
        let key = canonical(e.pos.own(), e.pos.opp());
        let (Some(l), Some(&va)) = (e.label.as_ref(), first.get(&key)) else {
            continue;
        };
        if !used.insert(key) {
            continue;
        }
        let d = f64::from(l.value - va);
        let p = &mut per[e.empties() as usize];
        p.0 += 1;
        p.1 += d;
        p.2 += d * d;
        p.3 += usize::from(l.value.signum() == va.signum());
    }
    per.into_iter()
        .enumerate()
        .filter(|(_, p)| p.0 > 0)
        .map(|(e, (n, s, sq, same))| (e as u32, n, s / n as f64, (sq / n as f64).sqrt(), same))
        .collect()
}

/// `tune reversi-compare A B`.
pub fn run_compare(args: &[&str]) -> Result<(), String> {
    let [a, b] = args else {
        return Err("usage: tune reversi-compare REFERENCE OTHER".into());
    };
    let read = |f: &str| -> Result<Vec<Entry>, String> {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        parse_positions(&text).map_err(|e| format!("{f}: {e}"))
    };
    let rows = compare(&read(a)?, &read(b)?);
    if rows.is_empty() {
        return Err(format!("no position labelled in both {a} and {b}"));
    }
    println!("empties positions  mean(b-a)  rms(b-a)  same sign");
    let (mut n, mut s, mut sq) = (0usize, 0f64, 0f64);
    for (e, k, mean, rms, same) in &rows {
        println!(
            "{e:7} {k:9} {mean:10.2} {rms:9.2} {:9.1}%",
            100.0 * *same as f64 / *k as f64
        );
        n += k;
        s += mean * *k as f64;
        sq += rms * rms * *k as f64;
    }
    println!(
        "{:>7} {n:9} {:10.2} {:9.2}",
        "all",
        s / n as f64,
        (sq / n as f64).sqrt()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi_positions::parse_line;

    #[test]
    fn labels_are_exact_solves_or_searches_and_compare_per_empties() {
        // FFO #40 (20 empties, +38 for the side to move) and a position at 26 empties.
        let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let pos = Position::from_obf(ffo40).unwrap();
        let o = parse_args(&["--out", "x", "--exact", "20", "--depth", "3", "in"]).unwrap();
        let (mut solver, mut searcher) = (Solver::new(16), Searcher::new(1));
        let l = label(&pos, &o, &mut solver, &mut searcher).unwrap();
        assert_eq!((l.value, l.source.as_str()), (38.0, "exact-solve"));
        let shallow = parse_args(&["--out", "x", "--exact", "10", "--depth", "3", "in"]).unwrap();
        let s = label(&pos, &shallow, &mut solver, &mut searcher).unwrap();
        assert_eq!(s.source, "search-depth-3");
        let args = [
            "--out",
            "x",
            "--exact",
            "10",
            "--depth",
            "3",
            "--full-width",
            "in",
        ];
        let full = parse_args(&args).unwrap();
        let f = label(&pos, &full, &mut solver, &mut Searcher::new(1)).unwrap();
        assert_eq!(f.source, "search-full-depth-3");
        // A lone legal move (the search plays it unsearched and scores it 0): the
        // label is the position's after it, negated. Here exact −52, a near wipe-out.
        let lone = "--X------XXXX---OXOOXX--OOOOXXX-OXOOXX--OOXOXX--O-XXXX---XXXXX-- X";
        let lone = Position::from_obf(lone).unwrap();
        assert_eq!(lone.legal_moves().len(), 1);
        let deep = parse_args(&["--out", "x", "--exact", "10", "--depth", "6", "in"]).unwrap();
        let l = label(&lone, &deep, &mut solver, &mut searcher).unwrap();
        let mut after = lone.clone();
        after.make_move(lone.legal_moves()[0]);
        let child = label(&after, &deep, &mut solver, &mut searcher).unwrap();
        assert_eq!(l.value, -child.value);
        assert!(l.value < -40.0, "{l:?}");
        assert!(s.value.abs() <= 64.0 && s.value != 38.0);
        // The staged endgame to its 98 % round: the exact value here, or nearly.
        let args = [
            "--out",
            "x",
            "--exact",
            "10",
            "--probcut",
            "98",
            "--depth",
            "3",
            "in",
        ];
        let staged = parse_args(&args).unwrap();
        let p = label(&pos, &staged, &mut solver, &mut searcher).unwrap();
        assert!(
            p.source == "endgame-probcut-98" || p.source == "exact-solve",
            "{p:?}"
        );
        assert!((p.value - 38.0).abs() <= 4.0, "{p:?}");
        assert!(parse_args(&["--out", "x", "--probcut", "90", "in"]).is_none());
        // The solver's shallow search, in discs: its depth-4 score, read back.
        let args = ["--out", "x", "--exact", "10", "--shallow", "4", "in"];
        let shallow = parse_args(&args).unwrap();
        let l = label(&pos, &shallow, &mut solver, &mut searcher).unwrap();
        // Labels carry two decimals, rounded half away from zero.
        let want = solver.shallow_score(&pos, 4) as f32 / midgame::SCALE as f32;
        assert_eq!(l.source, "solver-shallow-4");
        assert!(
            l.value == (want * 100.0).round() / 100.0 && l.value > 0.0,
            "{l:?} {want}"
        );
        let none = parse_args(&["--out", "x", "--exact", "10", "in"]).unwrap();
        assert_eq!(label(&pos, &none, &mut solver, &mut searcher), None);
        // compare: per empties, b − a.
        let line = |v: &str| parse_line(&format!("{ffo40} ; {v} src")).unwrap();
        let rows = compare(&[line("+38")], &[line("+34.5")]);
        assert_eq!(rows, vec![(20, 1, -3.5, 3.5, 1)]);
        assert!(compare(&[line("+38")], &[]).is_empty());
    }
}

//! `tune reversi-endcut`: how well the exact solver's shallow searches predict the exact
//! score, the spread that the staged endgame's probcut margins come from
//! (`engine::games::reversi::solve::probcut_error`).
//!
//! Reads `tune reversi-data` files (positions with their exact scores, from games that
//! mix random and sensible moves, so both lopsided and balanced positions occur, as in
//! the solver's tree), scores each position by the solver's shallow search
//! (`Solver::shallow_score`) at depths 2, 4 and 6, and prints, per number of empties and
//! depth, the mean and the standard deviation of `shallow − exact` in evaluation units
//! ([`SCALE`] per disc). Then, per depth, the least-squares lines of both in the empties,
//! which the solver extrapolates to the empties the data do not reach.

use engine::games::reversi::midgame::SCALE;
use engine::games::reversi::solve::Solver;
use engine::games::reversi::Position;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};

/// Most bytes read of one data file (a few million positions).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The shallow depths measured: the ones `probcut_depth` chooses from.
const DEPTHS: [u32; 3] = [2, 4, 6];
/// Fewest positions of one number of empties that count in the lines.
const MIN_SAMPLES: usize = 20;

/// `tune reversi-endcut DATA...`.
pub fn run(args: &[&str]) -> Result<(), String> {
    if args.is_empty() || args.iter().any(|a| a.starts_with('-')) {
        return Err("usage: tune reversi-endcut DATA... (files of tune reversi-data)".into());
    }
    let mut samples: Vec<(Position, i32)> = Vec::new();
    for f in args {
        let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
        for (i, line) in BufReader::new(file.take(MAX_FILE_BYTES))
            .lines()
            .enumerate()
        {
            let line = line.map_err(|e| format!("{f}: {e}"))?;
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            samples.push(parse(t).ok_or_else(|| format!("{f}:{}: bad line", i + 1))?);
        }
    }
    // errors[(empties, depth)]: shallow − exact of each position.
    let mut errors: BTreeMap<(u32, u32), Vec<f64>> = BTreeMap::new();
    let mut solver = Solver::new(16);
    for (pos, exact) in &samples {
        let empties = pos.empty().count_ones();
        for d in DEPTHS {
            let v = solver.shallow_score(pos, d);
            errors
                .entry((empties, d))
                .or_default()
                .push(f64::from(v - exact * SCALE));
        }
    }
    println!(
        "{} positions; shallow - exact in units of {SCALE} per disc",
        samples.len()
    );
    println!("empties depth     n    mean   sigma  sigma(discs)");
    // Per depth, the (empties, mean, sigma) points the lines are fitted to.
    let mut points: BTreeMap<u32, Vec<(f64, f64, f64)>> = BTreeMap::new();
    for (&(e, d), errs) in &errors {
        let n = errs.len() as f64;
        let mean = errs.iter().sum::<f64>() / n;
        let sigma = (errs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        println!(
            "{e:7} {d:5} {:5} {mean:7.1} {sigma:7.1} {:13.2}",
            errs.len(),
            sigma / f64::from(SCALE)
        );
        if errs.len() >= MIN_SAMPLES {
            points
                .entry(d)
                .or_default()
                .push((f64::from(e), mean, sigma));
        }
    }
    println!("per depth, lines in the empties E (mean0, mean1, sigma0, sigma1):");
    for (d, pts) in &points {
        if pts.len() < 2 {
            continue;
        }
        let (m0, m1) = line(pts.iter().map(|p| (p.0, p.1)));
        let (s0, s1) = line(pts.iter().map(|p| (p.0, p.2)));
        println!(
            "depth {d}: mean = {m0:.1} + {m1:.2}·E, sigma = {s0:.1} + {s1:.2}·E   ({m0:.1}, {m1:.2}, {s0:.1}, {s1:.2})"
        );
    }
    Ok(())
}

/// The least-squares line `y ≈ a + b·x` through the points (`b` is 0 when all the
/// points share one `x`).
pub fn line(points: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = points.collect();
    let n = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (sxy, sxx) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - b * mx, b)
}

/// One `OBF ; SCORE` line of `tune reversi-data`.
fn parse(line: &str) -> Option<(Position, i32)> {
    let (board, score) = line.split_once(';')?;
    let pos = Position::from_obf(board.trim()).ok()?;
    Some((pos, score.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_parsing() {
        let (a, b) = line([(10.0, 5.0), (20.0, 7.0), (30.0, 9.0)].into_iter());
        assert!((a - 3.0).abs() < 1e-9 && (b - 0.2).abs() < 1e-9, "{a} {b}");
        let board = format!("X-----O-{}O X", "-".repeat(55));
        let (pos, score) = parse(&format!("{board} ; -62")).expect("a line");
        assert_eq!(score, -62);
        assert_eq!(pos.empty().count_ones(), 61);
        assert!(parse("junk ; 3").is_none());
        assert!(parse(&format!("{board} ; x")).is_none());
    }
}

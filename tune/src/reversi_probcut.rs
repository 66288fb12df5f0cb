//! `tune reversi-probcut`: how well a shallow search predicts a deeper one in Reversi,
//! the figure probcut's margins come from.
//!
//! Takes every `STEP`-th position with 25 to 54 empties from the games of `tune
//! reversi-games` files (so the exact solver never answers), searches each to
//! `--depth` with the engine compiled into `tune` (one iterative deepening, each
//! iteration's score kept), and prints, for each pair of depths `d - r` and `d`, the
//! least-squares line `deep ≈ a · shallow + b` and the standard deviation of its
//! residual, in evaluation units and discs. `--obf FILE` takes positions files
//! (`tune reversi-extract`'s, one OBF position a line) instead of games, and then
//! pairs of depths are also broken down by stage (4 empties a stage), the figures a
//! probcut margin per stage and depth pair would come from (Multi-ProbCut, as Buro
//! fitted it): each `--pair S:D`, or the pair 4 plies apart by default.

use super::reversi_games::decode;
use engine::games::reversi::midgame::UNITS_PER_DISC;
use engine::games::reversi::Position;
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;

const USAGE: &str =
    "usage: tune reversi-probcut [--depth D] [--positions N] [--obf FILE]... [--pair S:D]... DATA...";

/// `tune reversi-probcut [--depth D] [--positions N] [--obf FILE]... [--pair S:D]... DATA...`.
pub fn run(args: &[&str]) -> Result<(), String> {
    let (mut depth, mut count, mut files) = (10u32, 400usize, Vec::new());
    let mut obf: Vec<String> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut rest = args;
    loop {
        match rest {
            ["--pair", v, r @ ..] => {
                let pair = v
                    .split_once(':')
                    .and_then(|(s, d)| Some((s.parse().ok()?, d.parse().ok()?)))
                    .filter(|&(s, d): &(usize, usize)| s >= 1 && s < d)
                    .ok_or("bad --pair (SHALLOW:DEEP, shallower first)")?;
                pairs.push(pair);
                rest = r;
            }
            ["--obf", v, r @ ..] => {
                obf.push(v.to_string());
                rest = r;
            }
            ["--depth", v, r @ ..] => {
                depth = v
                    .parse()
                    .ok()
                    .filter(|d| (4..=20).contains(d))
                    .ok_or("bad --depth")?;
                rest = r;
            }
            ["--positions", v, r @ ..] => {
                count = v.parse().ok().filter(|&n| n > 0).ok_or("bad --positions")?;
                rest = r;
            }
            [] => break,
            fs => {
                files.extend(fs.iter().map(|f| f.to_string()));
                break;
            }
        }
    }
    if files.is_empty() && obf.is_empty() {
        return Err(USAGE.into());
    }
    if pairs.is_empty() && depth >= 5 {
        pairs.push((depth as usize - 4, depth as usize));
    }
    if let Some(&(_, d)) = pairs.iter().find(|&&(_, d)| d > depth as usize) {
        return Err(format!("--pair deeper ({d}) than --depth {depth}"));
    }
    let mut pool: Vec<Position> = Vec::new();
    for f in &obf {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        let entries =
            super::reversi_positions::parse_positions(&text).map_err(|e| format!("{f}: {e}"))?;
        pool.extend(
            entries
                .into_iter()
                .map(|e| e.pos)
                .filter(|p| (25..=54).contains(&p.empty().count_ones())),
        );
    }
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
        let (games, _) = decode(&bytes).map_err(|e| format!("{f}: {e}"))?;
        for g in games {
            pool.extend(
                g.labelled()
                    .into_iter()
                    .map(|(p, _)| p)
                    .filter(|p| (25..=54).contains(&p.empty().count_ones())),
            );
        }
    }
    let step = (pool.len() / count).max(1);
    let sample: Vec<&Position> = pool.iter().step_by(step).take(count).collect();
    let mut searcher = Searcher::<Position>::new(16);
    let stop = AtomicBool::new(false);
    // scores[i][d]: position i's score at depth d.
    let mut scores: Vec<Vec<Option<i32>>> = Vec::new();
    for pos in &sample {
        let mut by_depth = vec![None; depth as usize + 1];
        searcher.new_game();
        searcher.search(pos, &Limits::depth(depth), &stop, None, &mut |it| {
            if let Some(s) = by_depth.get_mut(it.depth as usize) {
                *s = Some(it.score.0);
            }
        });
        scores.push(by_depth);
    }
    println!(
        "{} positions (25-54 empties), units per disc {UNITS_PER_DISC}",
        sample.len()
    );
    println!("shallow deep      a       b   sigma  sigma(discs)");
    for r in 1..=4usize {
        for deep in (r + 1)..=depth as usize {
            let pairs = score_pairs(scores.iter(), deep - r, deep);
            let Some((a, b, sigma)) = fit(&pairs) else {
                continue;
            };
            println!(
                "{:7} {:4} {:6.3} {:7.1} {:7.1} {:8.2}",
                deep - r,
                deep,
                a,
                b,
                sigma,
                sigma / f64::from(UNITS_PER_DISC)
            );
        }
    }
    if !obf.is_empty() {
        for &(shallow, deep) in &pairs {
            by_stage(&sample, &scores, shallow, deep);
        }
    }
    Ok(())
}

/// Each position's (shallow, deep) scores where both searches finished, leaving out
/// proven wins and losses (beyond 2,000 units), which no line predicts.
fn score_pairs<'a>(
    scores: impl Iterator<Item = &'a Vec<Option<i32>>>,
    shallow: usize,
    deep: usize,
) -> Vec<(f64, f64)> {
    scores
        .filter_map(|s| Some((f64::from(s[shallow]?), f64::from(s[deep]?))))
        .filter(|(x, y)| x.abs() < 2000.0 && y.abs() < 2000.0)
        .collect()
}

/// The pairs of depths `shallow` and `deep` (by default `depth - 4` and `depth`, the
/// reduction the engine's probcut uses), per stage of 4 empties: the line and the
/// spread of the deeper score around it.
fn by_stage(sample: &[&Position], scores: &[Vec<Option<i32>>], shallow: usize, deep: usize) {
    println!("by stage, depths {shallow} and {deep}:");
    println!("empties positions      a       b   sigma  sigma(discs)");
    for lo in (25..=53).step_by(4) {
        let in_stage = sample
            .iter()
            .zip(scores)
            .filter(|(p, _)| (lo..lo + 4).contains(&p.empty().count_ones()))
            .map(|(_, s)| s);
        let pairs = score_pairs(in_stage, shallow, deep);
        let Some((a, b, sigma)) = fit(&pairs) else {
            continue;
        };
        println!(
            "{lo:3}-{:2} {:9} {a:6.3} {b:7.1} {sigma:7.1} {:8.2}",
            lo + 3,
            pairs.len(),
            sigma / f64::from(UNITS_PER_DISC)
        );
    }
}

/// The line `deep ≈ a · shallow + b` through (shallow, deep) pairs and the standard
/// deviation of the deep score around it: `(a, b, sigma)`; `None` for fewer than 10.
fn fit(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    if pairs.len() < 10 {
        return None;
    }
    let (b, a) = super::reversi_endcut::line(pairs.iter().copied());
    let var = pairs
        .iter()
        .map(|(x, y)| (y - a * x - b).powi(2))
        .sum::<f64>()
        / pairs.len() as f64;
    Some((a, b, var.sqrt()))
}

#[cfg(test)]
mod tests {
    use super::{fit, run};

    /// A pair names the shallower depth first and fits within `--depth`; a bad one is
    /// refused before any file is read or searched.
    #[test]
    fn pairs_are_checked_before_any_search() {
        let err = |args: &[&str]| run(args).unwrap_err();
        assert!(err(&["--pair", "6:3", "--obf", "none"]).contains("bad --pair"));
        assert!(err(&["--pair", "x", "--obf", "none"]).contains("bad --pair"));
        assert!(err(&["--depth", "8", "--pair", "4:10", "--obf", "none"]).contains("deeper"));
        // A good pair gets as far as the (missing) file.
        assert!(err(&["--depth", "8", "--pair", "4:8", "--obf", "none"]).starts_with("none:"));
    }

    /// Points on a line give it back with no spread; a point off it adds its share.
    #[test]
    fn the_fit_is_the_least_squares_line_and_its_spread() {
        let on: Vec<(f64, f64)> = (0..12)
            .map(|i| (f64::from(i), 2.0 * f64::from(i) + 3.0))
            .collect();
        let (a, b, sigma) = fit(&on).unwrap();
        assert!((a - 2.0).abs() < 1e-9 && (b - 3.0).abs() < 1e-9 && sigma < 1e-9);
        assert!(fit(&on[..9]).is_none());
        let mut off = on.clone();
        off[5].1 += 12.0;
        assert!(fit(&off).unwrap().2 > 1.0);
    }
}

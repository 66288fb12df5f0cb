//! `tune reversi-data` and `tune reversi-patterns`: the training set and the fit of
//! the Reversi pattern evaluation (`engine::games::reversi::pattern`), which orders
//! the exact solver's moves.
//!
//! The data are positions with their exact scores, from games whose moves are random
//! until the game reaches `HI` empties and for a random number of plies more (0 to 28);
//! after that each move is random with a per-game probability of 1/4 to 3/4, else the
//! one the evaluation (`eval.rs`) likes best one ply deep. So both sensible and lopsided
//! positions occur, as in a search tree. Every position from `HI` down to `LO` empties
//! where the side to move has a move is solved exactly by our solver and printed (the
//! last first). Deterministic for a given seed. The fit is a least-squares regression
//! of the score on the pattern terms (the eight symmetric images of each position
//! counting as samples), by Adam with full batches, so also deterministic.

use engine::games::reversi::pattern::{self, N_WEIGHTS, SCALE};
use engine::games::reversi::solve::Solver;
use engine::games::reversi::{eval, Move, Position};
use engine::rng::SplitMix64;
use std::io::{BufRead, Write};

/// `reversi-data COUNT SEED LO HI`: `COUNT` games' positions, one OBF line each with
/// the score after `;`.
pub fn data(count: usize, seed: u64, lo: u32, hi: u32) -> Result<(), String> {
    if lo > hi || hi > 30 {
        return Err("need LO <= HI <= 30".into());
    }
    let mut rng = SplitMix64::new(seed);
    let mut solver = Solver::new(20);
    let out = std::io::stdout();
    let mut out = out.lock();
    for _ in 0..count {
        let mut pos = Position::startpos();
        // Positions of the window reached by random moves, plus one.
        let random_into_window = rng.below(30);
        let random_share = 1 + rng.below(3); // in 4: a quarter to three quarters
        let mut line = Vec::new();
        while !pos.is_over() && pos.empty().count_ones() >= lo {
            if (lo..=hi).contains(&pos.empty().count_ones()) && pos.move_mask() != 0 {
                line.push(pos.clone());
            }
            let legal = pos.legal_moves();
            let mv = if legal == [Move::PASS]
                || line.len() + 1 < random_into_window
                || rng.below(4) < random_share
            {
                *rng.choose(&legal).expect("a move or the pass")
            } else {
                *legal
                    .iter()
                    .min_by_key(|&&m| {
                        let mut next = pos.clone();
                        next.make_move(m);
                        eval::evaluate(&next)
                    })
                    .expect("a move")
            };
            pos.make_move(mv);
        }
        for p in line.iter().rev() {
            let s = solver.solve(p);
            writeln!(out, "{} ; {}", obf(p), s.score).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The OBF form of `pos` (`X` black, `O` white, then the side to move).
fn obf(pos: &Position) -> String {
    use engine::game::Side;
    let (black, white) = (pos.discs(Side::First), pos.discs(Side::Second));
    let mut s: String = (0..64)
        .map(|i| match (black >> i & 1, white >> i & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect();
    s.push_str(if pos.side_to_move() == Side::First {
        " X"
    } else {
        " O"
    });
    s
}

/// One training position: the side to move's discs, the opponent's, the exact score.
struct Sample {
    own: u64,
    opp: u64,
    score: f32,
}

fn parse_line(line: &str) -> Option<Sample> {
    let (board, score) = line.split_once(';')?;
    let board = board.trim();
    let (squares, side) = board.split_once(' ')?;
    if squares.len() != 64 {
        return None;
    }
    let (mut x, mut o) = (0u64, 0u64);
    for (i, c) in squares.bytes().enumerate() {
        match c {
            b'X' => x |= 1 << i,
            b'O' => o |= 1 << i,
            b'-' => {}
            _ => return None,
        }
    }
    let score = score.trim().parse().ok()?;
    match side.trim() {
        "X" => Some(Sample {
            own: x,
            opp: o,
            score,
        }),
        "O" => Some(Sample {
            own: o,
            opp: x,
            score,
        }),
        _ => None,
    }
}

/// `reversi-patterns [--epochs N] [--l2 L] --out FILE DATA...`: fits the weights
/// (400 epochs and an L2 pull of 3e-4 towards 0 by default: the best held-out error of
/// 1e-4, 3e-4, 1e-3, 3e-3 and 1e-2). Blank lines and `#` comments are skipped.
pub fn fit(args: &[&str]) -> Result<(), String> {
    let (mut epochs, mut l2, mut out, mut files) = (400usize, 3e-4f32, None, Vec::new());
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        match a {
            "--epochs" => epochs = it.next().and_then(|v| v.parse().ok()).ok_or("--epochs N")?,
            "--l2" => l2 = it.next().and_then(|v| v.parse().ok()).ok_or("--l2 L")?,
            "--out" => out = Some(*it.next().ok_or("--out FILE")?),
            f => files.push(f),
        }
    }
    let out = out.ok_or("--out FILE is required")?;
    let mut samples = Vec::new();
    for f in &files {
        let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{f}: {e}"))?;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            samples.push(parse_line(&line).ok_or(format!("{f}:{}: bad line", n + 1))?);
        }
    }
    if samples.is_empty() {
        return Err("no positions".into());
    }
    // Every 8th block of 64 lines is held out to report the fit honestly (blocks, so
    // that a game's positions rarely fall on both sides).
    let (train, test): (Vec<_>, Vec<_>) = samples
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i / 64 % 8 != 7);
    // The eight symmetric images of a position have its score: each instance then
    // learns its configurations read in both directions.
    let train: Vec<Sample> = train
        .into_iter()
        .flat_map(|(_, s)| {
            (0..8).map(move |k| Sample {
                own: pattern::orient(s.own, k),
                opp: pattern::orient(s.opp, k),
                score: s.score,
            })
        })
        .collect();
    let test: Vec<Sample> = test.into_iter().map(|x| x.1).collect();
    eprintln!(
        "{} training samples (8 images of each position), {} positions held out",
        train.len(),
        test.len()
    );
    let terms: Vec<Vec<(u32, f32)>> = train
        .iter()
        .map(|s| {
            let mut t = Vec::new();
            pattern::for_each_term(s.own, s.opp, |i, v| t.push((i as u32, v as f32)));
            t
        })
        .collect();
    let mut w = vec![0f32; N_WEIGHTS];
    let (mut m, mut v) = (vec![0f32; N_WEIGHTS], vec![0f32; N_WEIGHTS]);
    let (b1, b2, lr) = (0.9f32, 0.999f32, 0.05f32);
    let mut grad = vec![0f32; N_WEIGHTS];
    for epoch in 1..=epochs {
        grad.fill(0.0);
        let mut sq = 0f64;
        for (s, t) in train.iter().zip(&terms) {
            let pred: f32 = t.iter().map(|&(i, x)| w[i as usize] * x).sum();
            let e = pred - s.score;
            sq += (e * e) as f64;
            for &(i, x) in t {
                grad[i as usize] += e * x;
            }
        }
        let n = train.len() as f32;
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..N_WEIGHTS {
            let g = grad[i] / n + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
        }
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!(
                "epoch {epoch}: training rms {:.3} discs",
                (sq / n as f64).sqrt()
            );
        }
    }
    let q: Vec<i16> = w
        .iter()
        .map(|&x| {
            (x * SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        })
        .collect();
    let rms = |set: &[Sample], f: &dyn Fn(&Sample) -> f64| {
        (set.iter()
            .map(|s| (f(s) - s.score as f64).powi(2))
            .sum::<f64>()
            / set.len() as f64)
            .sqrt()
    };
    let held = rms(&test, &|s| {
        pattern::evaluate(&q, s.own, s.opp) as f64 / SCALE as f64
    });
    let zero = rms(&test, &|_| 0.0);
    eprintln!("held-out rms {held:.3} discs (predicting 0: {zero:.3})");
    std::fs::write(out, pattern::serialize(&q)).map_err(|e| format!("{out}: {e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_read_back_from_the_side_to_move() {
        let start = Position::startpos();
        let line = format!("{} ; -4", obf(&start));
        let s = parse_line(&line).expect("a data line");
        assert_eq!((s.own, s.opp, s.score), (start.own(), start.opp(), -4.0));
        let mut next = start.clone();
        next.make_move(next.legal_moves()[0]);
        let s = parse_line(&format!("{} ; 6", obf(&next))).expect("a data line");
        assert_eq!((s.own, s.opp), (next.own(), next.opp()));
        for bad in [
            "",
            "x ; 1",
            &format!("{} ; many", obf(&start)),
            &obf(&start),
        ] {
            assert!(parse_line(bad).is_none(), "{bad:?}");
        }
    }
}

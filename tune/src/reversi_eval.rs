//! `tune reversi-eval`: fits the Reversi midgame evaluation
//! (`engine::games::reversi::midgame`) to the games of `tune reversi-games`.
//!
//! Each position of a game (after its random opening, passes left out) is a sample
//! whose label is the game's final disc difference for the side to move. Every weight
//! table is fitted on its own stage's positions and those up to two empty squares
//! either side of it (so neighbouring tables agree near their border), by least
//! squares with an L2 pull towards zero, full-batch Adam with a cosine-decayed step:
//! deterministic, so the same files and options give the same weights. A tenth of the
//! games (index ≡ 0 mod 10) is held out and its error reported beside that of the
//! linear evaluation (`eval.rs`) scaled by its least-squares slope.

use super::reversi_games::decode;
use engine::games::reversi::eval;
use engine::games::reversi::midgame::{self, layout, Weights, INSTANCES, PHASES, SCALARS, SCALE};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A table's training set is widened until it has this many positions.
const MIN_SAMPLES: usize = 20_000;

/// `tune reversi-eval`'s settings.
pub struct Options {
    pub out: String,
    pub files: Vec<String>,
    pub epochs: usize,
    pub l2: f64,
    pub lr: f64,
    pub threads: usize,
}

/// `tune reversi-eval [--epochs N] [--l2 L] [--lr R] [--threads T] --out FILE DATA...`.
pub fn parse_args(mut args: &[&str]) -> Option<Options> {
    let mut o = Options {
        out: String::new(),
        files: Vec::new(),
        epochs: 300,
        l2: 1e-4,
        lr: 0.5,
        threads: 2,
    };
    loop {
        match args {
            ["--out", v, rest @ ..] => (o.out, args) = (v.to_string(), rest),
            ["--epochs", v, rest @ ..] => {
                (o.epochs, args) = (v.parse().ok().filter(|&n| n > 0)?, rest)
            }
            ["--l2", v, rest @ ..] => (o.l2, args) = (v.parse().ok().filter(|&l| l >= 0.0)?, rest),
            ["--lr", v, rest @ ..] => (o.lr, args) = (v.parse().ok().filter(|&l| l > 0.0)?, rest),
            ["--threads", v, rest @ ..] => {
                (o.threads, args) = (v.parse().ok().filter(|&t| (1..=256).contains(&t))?, rest)
            }
            [] => break,
            files => {
                o.files = files.iter().map(|f| f.to_string()).collect();
                break;
            }
        }
    }
    (!o.out.is_empty() && !o.files.is_empty()).then_some(o)
}

/// One position: the tied weight index of each instance, the scalar terms, its empty
/// squares and its label in discs.
struct Sample {
    index: [u32; INSTANCES],
    scalars: [i8; SCALARS],
    empties: u8,
    label: f32,
    /// The linear evaluation, for the comparison.
    linear: i32,
}

fn sample(own: u64, opp: u64, label: i32) -> Sample {
    let l = layout();
    let mut index = midgame::indices(own, opp);
    for i in &mut index {
        *i = l.canonical[*i as usize];
    }
    Sample {
        index,
        scalars: midgame::scalars(own, opp).map(|v| v as i8),
        empties: (!(own | opp)).count_ones() as u8,
        label: label as f32,
        linear: eval::evaluate_bits(own, opp),
    }
}

/// The prediction of `w` (in discs) for `s`.
#[inline]
fn predict(w: &[f32], s: &Sample) -> f32 {
    let base = w.len() - SCALARS;
    let mut sum: f32 = s.index.iter().map(|&i| w[i as usize]).sum();
    for (k, &v) in s.scalars.iter().enumerate() {
        sum += w[base + k] * f32::from(v);
    }
    sum
}

fn rms(w: &[f32], samples: &[&Sample]) -> f64 {
    let sq: f64 = samples
        .iter()
        .map(|s| f64::from(predict(w, s) - s.label).powi(2))
        .sum();
    (sq / samples.len().max(1) as f64).sqrt()
}

/// Fits one table on `train` (full-batch Adam).
fn fit_table(train: &[&Sample], o: &Options) -> Vec<f32> {
    let n = layout().per_phase;
    let mut w = vec![0f32; n];
    if train.is_empty() {
        return w;
    }
    // Start the constant at the mean label.
    w[n - 1] = train.iter().map(|s| s.label).sum::<f32>() / train.len() as f32;
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let scale = 2.0 / train.len() as f32;
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    for epoch in 0..o.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let base = n - SCALARS;
        for s in train {
            let err = (predict(&w, s) - s.label) * scale;
            for &i in &s.index {
                grad[i as usize] += err;
            }
            for (k, &x) in s.scalars.iter().enumerate() {
                grad[base + k] += err * f32::from(x);
            }
        }
        let lr =
            (o.lr * 0.5 * (1.0 + (std::f64::consts::PI * epoch as f64 / o.epochs as f64).cos()))
                as f32
                + 1e-3;
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..n {
            let g = grad[i] + 2.0 * o.l2 as f32 * w[i] * (i < base) as u8 as f32;
            if g == 0.0 && m[i] == 0.0 {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
    }
    w
}

pub fn train(o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for f in &o.files {
        let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
        let (gs, _) = decode(&bytes).map_err(|e| format!("{f}: {e}"))?;
        games += gs.len();
        for g in gs {
            let into = if g.index % 10 == 0 {
                &mut held
            } else {
                &mut train
            };
            for (pos, label) in g.labelled() {
                into.push(sample(pos.own(), pos.opp(), label));
            }
        }
    }
    eprintln!(
        "{games} games: {} training positions, {} held out ({:.1} s)",
        train.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    let l = layout();
    let n = l.per_phase;
    let tables: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; PHASES]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..o.threads {
            scope.spawn(|| loop {
                let p = next.fetch_add(1, Ordering::Relaxed);
                if p >= PHASES {
                    break;
                }
                // The stage and two empties either side, widened while it has too
                // few positions (the stages the random openings skip).
                let (mut lo, mut hi) = (4 * p as i32 - 1, 4 * p as i32 + 6);
                let set = loop {
                    let set: Vec<&Sample> = train
                        .iter()
                        .filter(|s| (lo..=hi).contains(&i32::from(s.empties)))
                        .collect();
                    if set.len() >= MIN_SAMPLES.min(train.len()) {
                        break set;
                    }
                    (lo, hi) = (lo - 2, hi + 2);
                };
                let w = fit_table(&set, o);
                tables.lock().expect("no panics")[p] = Some(w);
            });
        }
    });
    let tables: Vec<Vec<f32>> = tables
        .into_inner()
        .expect("no panics")
        .into_iter()
        .map(|t| t.expect("every table fitted"))
        .collect();
    eprintln!("phase empties   train    held  rms(train) rms(held) rms(linear, held)");
    for (p, w) in tables.iter().enumerate() {
        let (tr, he) = (of_phase(&train, p), of_phase(&held, p));
        eprintln!(
            "{p:5} {:2}-{:2} {:8} {:7} {:10.2} {:9.2} {:10.2}",
            4 * p + 1,
            4 * p + 4,
            tr.len(),
            he.len(),
            rms(w, &tr),
            rms(w, &he),
            linear_rms(&he)
        );
    }
    let mut flat = Vec::with_capacity(PHASES * n);
    for w in &tables {
        for k in 0..n {
            let v = w[l.canonical[k] as usize] * SCALE as f32;
            flat.push(v.round().clamp(-f32::from(i16::MAX), f32::from(i16::MAX)) as i16);
        }
    }
    let weights = Weights::new(flat)?;
    std::fs::write(&o.out, midgame::serialize(&weights)).map_err(|e| format!("{}: {e}", o.out))?;
    eprintln!("wrote {} ({:.1} s)", o.out, started.elapsed().as_secs_f64());
    Ok(())
}

/// The samples of table `p`'s own stage.
fn of_phase(set: &[Sample], p: usize) -> Vec<&Sample> {
    set.iter()
        .filter(|s| midgame::phase(u32::from(s.empties)) == p)
        .collect()
}

/// The held-out error of the linear evaluation, scaled by its least-squares slope.
fn linear_rms(set: &[&Sample]) -> f64 {
    let (xy, xx) = set.iter().fold((0f64, 0f64), |(xy, xx), s| {
        let x = f64::from(s.linear);
        (xy + x * f64::from(s.label), xx + x * x)
    });
    let k = if xx > 0.0 { xy / xx } else { 0.0 };
    let sq: f64 = set
        .iter()
        .map(|s| (k * f64::from(s.linear) - f64::from(s.label)).powi(2))
        .sum();
    (sq / set.len().max(1) as f64).sqrt()
}

//! `tune nnue`: trains Ataxx's network (`src/games/ataxx/nnue.rs`, its shape and file
//! format) on the tournament runner's results files, from scratch and on the CPU.
//!
//! Every position of every Ataxx game (but the finished ones) is a sample, labelled with
//! `λ · σ(K · score) + (1 − λ) · result`: the game's result for the side to move blended
//! with the score the engine reported for its move there (when it reported one; a
//! proven score counts as the result). The model is the engine's evaluation: the fixed
//! linear part plus the network, `P = σ(K · (linear + net))` with
//! `σ(x) = 1 / (1 + 10^(−x/400))`, `K` fitted to the linear evaluation first (as
//! `tune fit` does) so the network keeps its scale. Minibatch Adam on the
//! cross-entropy; each sample is seen under a random one of the board's eight
//! symmetries every epoch (the rules have them all, so this multiplies the data). One
//! game in twenty is held out; the epoch with the best held-out loss is kept, quantised
//! and written, and the quantised network's held-out loss is measured with the engine's
//! own integer inference.

use engine::games::ataxx::nnue::{self, Net, HIDDEN, INPUTS, QA, QB, W1_LIMIT, W2_LIMIT};
use engine::games::ataxx::{eval, Position};
use engine::rng::SplitMix64;
use std::sync::OnceLock;

/// The float model's output is `OUT_SCALE · (w2 · h + b2)`: its parameters stay near 1.
const OUT_SCALE: f32 = 100.0;
/// Samples per Adam step.
const BATCH: usize = 1024;
/// Reported scores are clipped here before they become probabilities.
const SCORE_CLIP: i32 = 2000;

/// `tune nnue`'s settings.
pub struct Options {
    pub lambda: f64,
    pub epochs: usize,
    pub seed: u64,
    pub out: String,
    pub files: Vec<String>,
}

/// `tune nnue [--lambda L] [--epochs N] [--seed S] --out FILE RESULTS.jsonl...`.
pub fn parse_args(mut args: &[&str]) -> Option<Options> {
    let mut o = Options {
        lambda: 0.5,
        epochs: 12,
        seed: 1,
        out: String::new(),
        files: Vec::new(),
    };
    loop {
        match args {
            ["--lambda", v, rest @ ..] => {
                o.lambda = v.parse().ok().filter(|l| (0.0..=1.0).contains(l))?;
                args = rest;
            }
            ["--epochs", v, rest @ ..] => {
                o.epochs = v.parse().ok().filter(|&e| e > 0)?;
                args = rest;
            }
            ["--seed", v, rest @ ..] => {
                o.seed = v.parse().ok()?;
                args = rest;
            }
            ["--out", v, rest @ ..] => {
                o.out = v.to_string();
                args = rest;
            }
            [] => break,
            [f, rest @ ..] if !f.starts_with("--") => {
                o.files.push(f.to_string());
                args = rest;
            }
            _ => return None,
        }
    }
    (!o.out.is_empty() && !o.files.is_empty()).then_some(o)
}

/// One position: the boards from the side to move's view, the linear evaluation, the
/// result for the side to move and the engine's reported score (if any).
struct Sample {
    own: u64,
    opp: u64,
    gaps: u64,
    linear: f32,
    result: f32,
    score: Option<i32>,
    target: f32,
}

/// The samples of the results files: (training, held out).
fn load(files: &[&str]) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let games = super::texel::replay::<Position>(files, |game, rec, ply, pos| {
        let score = match rec.info.get(ply) {
            Some(m) if m.mate.is_some() => None,
            Some(m) => m.cp.map(|c| c.clamp(-SCORE_CLIP, SCORE_CLIP)),
            None => None,
        };
        let us = pos.side_to_move();
        let result = super::texel::result_for(rec, pos) as f32;
        let into = if game % 20 == 19 {
            &mut held
        } else {
            &mut train
        };
        into.push(Sample {
            own: pos.pieces(us),
            opp: pos.pieces(us.opponent()),
            gaps: pos.gaps(),
            linear: eval::linear(pos) as f32,
            result,
            score,
            target: result,
        });
    })?;
    eprintln!(
        "{games} ataxx games: {} training positions, {} held out",
        train.len(),
        held.len()
    );
    if train.is_empty() || held.is_empty() {
        return Err("too few ataxx positions (need games to train on and to hold out)".into());
    }
    Ok((train, held))
}

pub(crate) fn sigmoid(x: f32, k: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-k * x / 400.0))
}

pub(crate) fn cross_entropy(p: f32, t: f32) -> f64 {
    let p = f64::from(p).clamp(1e-9, 1.0 - 1e-9);
    let t = f64::from(t);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// `K` for the linear evaluation against the results, by golden-section search.
fn fit_k(samples: &[Sample]) -> f32 {
    let loss = |k: f32| -> f64 {
        samples
            .iter()
            .map(|s| cross_entropy(sigmoid(s.linear, k), s.result))
            .sum()
    };
    golden_section(loss)
}

/// The `K` in 0.01..4 that minimises `loss`, by golden-section search (50 steps).
pub(crate) fn golden_section(loss: impl Fn(f32) -> f64) -> f32 {
    let (mut lo, mut hi) = (0.01f32, 4.0f32);
    let g = (5f32.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The eight symmetries of the 7×7 board as square maps.
pub(crate) fn symmetries() -> [[usize; 49]; 8] {
    let mut maps = [[0; 49]; 8];
    for (s, map) in maps.iter_mut().enumerate() {
        for (sq, to) in map.iter_mut().enumerate() {
            let (mut f, mut r) = (sq % 7, sq / 7);
            if s & 1 != 0 {
                f = 6 - f;
            }
            if s & 2 != 0 {
                r = 6 - r;
            }
            if s & 4 != 0 {
                std::mem::swap(&mut f, &mut r);
            }
            *to = r * 7 + f;
        }
    }
    maps
}

/// The eight symmetries of the board as square maps (those above), made once.
fn maps() -> &'static [[u8; 49]; 8] {
    static MAPS: OnceLock<[[u8; 49]; 8]> = OnceLock::new();
    MAPS.get_or_init(|| symmetries().map(|m| m.map(|sq| sq as u8)))
}

/// The side to move's view of a position (own, opponent's, gaps), the least of its
/// eight symmetric images: equal for positions the rules treat alike.
pub fn canonical(own: u64, opp: u64, gaps: u64) -> (u64, u64, u64) {
    maps()
        .iter()
        .map(|m| (map_board(own, m), map_board(opp, m), map_board(gaps, m)))
        .min()
        .expect("eight images")
}

/// `bb` with each square moved by `map`.
pub(crate) fn map_board(bb: u64, map: &[u8; 49]) -> u64 {
    let (mut out, mut b) = (0, bb);
    while b != 0 {
        out |= 1u64 << map[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    out
}

/// The float model: `w1` by input, then `b1`, `w2`, `b2`, in one vector for Adam.
struct Model {
    p: Vec<f32>,
}

const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;
const PARAMS: usize = B2 + 1;

impl Model {
    fn new(rng: &mut SplitMix64) -> Model {
        let mut p = vec![0.0f32; PARAMS];
        for w in &mut p[W1..B1] {
            *w = (rng.below(20_001) as f32 / 10_000.0 - 1.0) * 0.1;
        }
        for b in &mut p[B1..W2] {
            *b = 0.5;
        }
        Model { p }
    }

    /// Pre-activations of the hidden layer and the output (evaluation units).
    fn forward(&self, inputs: &[usize], a: &mut [f32; HIDDEN]) -> f32 {
        a.copy_from_slice(&self.p[B1..W2]);
        for &f in inputs {
            let col = &self.p[W1 + f * HIDDEN..W1 + (f + 1) * HIDDEN];
            for (x, w) in a.iter_mut().zip(col) {
                *x += w;
            }
        }
        let mut y = self.p[B2];
        for (x, w) in a.iter().zip(&self.p[W2..B2]) {
            y += x.clamp(0.0, 1.0) * w;
        }
        OUT_SCALE * y
    }

    /// Keeps the parameters where the integer inference can represent them.
    fn clip(&mut self) {
        for w in &mut self.p[W1..W2] {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        let l = W2_LIMIT / OUT_SCALE;
        for w in &mut self.p[W2..B2] {
            *w = w.clamp(-l, l);
        }
    }

    fn quantise(&self) -> Net {
        let q16 = |x: f32| x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut net = Net {
            w1: [[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: 0,
        };
        for (f, col) in net.w1.iter_mut().enumerate() {
            for (j, w) in col.iter_mut().enumerate() {
                *w = q16(self.p[W1 + f * HIDDEN + j] * QA as f32);
            }
        }
        for j in 0..HIDDEN {
            net.b1[j] = q16(self.p[B1 + j] * QA as f32);
            net.w2[j] = q16(self.p[W2 + j] * OUT_SCALE * QB as f32);
        }
        net.b2 = (self.p[B2] * OUT_SCALE * (QA * QB) as f32).round() as i32;
        net
    }
}

/// Mean cross-entropy of `eval` on the samples' targets.
fn mean_loss(samples: &[Sample], k: f32, eval: impl Fn(&Sample) -> f32) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| cross_entropy(sigmoid(eval(s), k), s.target))
        .sum();
    sum / samples.len() as f64
}

pub fn train(o: &Options) -> Result<(), String> {
    let files: Vec<&str> = o.files.iter().map(String::as_str).collect();
    let (mut train, mut held) = load(&files)?;
    let k = fit_k(&train);
    let lambda = o.lambda as f32;
    for s in train.iter_mut().chain(held.iter_mut()) {
        s.target = match s.score {
            Some(c) => lambda * sigmoid(c as f32, k) + (1.0 - lambda) * s.result,
            None => s.result,
        };
    }
    let identity = |s: usize| s;
    let held_inputs: Vec<Vec<usize>> = held
        .iter()
        .map(|s| nnue::inputs(s.own, s.opp, s.gaps, identity))
        .collect();
    let linear_loss = mean_loss(&held, k, |s| s.linear);
    eprintln!(
        "K = {k:.4}, lambda = {lambda}; held-out loss of the linear evaluation {linear_loss:.6}"
    );

    let mut rng = SplitMix64::new(o.seed);
    let mut model = Model::new(&mut rng);
    let (mut m1, mut m2) = (vec![0.0f32; PARAMS], vec![0.0f32; PARAMS]);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let syms = symmetries();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut grad = vec![0.0f32; PARAMS];
    let mut a = [0.0f32; HIDDEN];
    let mut step = 0i32;
    let mut best = (f64::INFINITY, model.p.clone(), 0);
    let dscale = k * 10f32.ln() / 400.0 * OUT_SCALE;
    for epoch in 1..=o.epochs {
        // Step decay: 2e-3, then 5e-4 from 60 %, 1.5e-4 from 85 % of the epochs.
        let progress = (epoch - 1) as f32 / o.epochs as f32;
        let lr = if progress < 0.6 {
            2e-3
        } else if progress < 0.85 {
            5e-4
        } else {
            1.5e-4
        };
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut train_loss = 0.0;
        for batch in order.chunks(BATCH) {
            grad.fill(0.0);
            for &idx in batch {
                let s = &train[idx];
                let map = &syms[rng.below(8)];
                let inputs = nnue::inputs(s.own, s.opp, s.gaps, |sq| map[sq]);
                let y = model.forward(&inputs, &mut a);
                let p = sigmoid(s.linear + y, k);
                train_loss += cross_entropy(p, s.target);
                // d loss / d (w2·h + b2)
                let d = (p - s.target) * dscale;
                grad[B2] += d;
                for j in 0..HIDDEN {
                    let h = a[j].clamp(0.0, 1.0);
                    grad[W2 + j] += d * h;
                    if a[j] > 0.0 && a[j] < 1.0 {
                        let g = d * model.p[W2 + j];
                        a[j] = g;
                        grad[B1 + j] += g;
                    } else {
                        a[j] = 0.0;
                    }
                }
                for &f in &inputs {
                    let col = &mut grad[W1 + f * HIDDEN..W1 + (f + 1) * HIDDEN];
                    for (g, x) in col.iter_mut().zip(&a) {
                        *g += x;
                    }
                }
            }
            step += 1;
            let n = batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for i in 0..PARAMS {
                let g = grad[i] / n;
                m1[i] = beta1 * m1[i] + (1.0 - beta1) * g;
                m2[i] = beta2 * m2[i] + (1.0 - beta2) * g * g;
                model.p[i] -= lr * (m1[i] / c1) / ((m2[i] / c2).sqrt() + 1e-8);
            }
            model.clip();
        }
        let held_loss = {
            let sum: f64 = held
                .iter()
                .zip(&held_inputs)
                .map(|(s, inp)| {
                    cross_entropy(sigmoid(s.linear + model.forward(inp, &mut a), k), s.target)
                })
                .sum();
            sum / held.len() as f64
        };
        eprintln!(
            "epoch {epoch}: lr {lr}, training loss {:.6}, held-out loss {held_loss:.6}",
            train_loss / train.len() as f64
        );
        if held_loss < best.0 {
            best = (held_loss, model.p.clone(), epoch);
        }
    }
    model.p = best.1;
    let net = model.quantise();
    let quantised = mean_loss(&held, k, |s| {
        s.linear + net.evaluate(s.own, s.opp, s.gaps) as f32
    });
    eprintln!(
        "kept epoch {}: held-out loss {:.6} (float), {quantised:.6} (quantised), linear alone {linear_loss:.6}",
        best.2, best.0
    );
    std::fs::write(&o.out, net.encode()).map_err(|e| format!("{}: {e}", o.out))?;
    eprintln!("wrote {}", o.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position and its mirror image are one; a position and its colours swapped
    /// are not.
    #[test]
    fn symmetric_positions_are_one() {
        let (own, opp) = (1u64 << 0, 1u64 << 8);
        let m = &maps()[1];
        assert_eq!(
            canonical(own, opp, 0),
            canonical(map_board(own, m), map_board(opp, m), 0)
        );
        assert_ne!(canonical(own, opp, 0), canonical(opp, own, 0));
    }
}

//! `tune window`: trains Ataxx's window network (`src/games/ataxx/network.rs`: its
//! inputs, shape and file) from `tune datagen` files, from scratch, on the CPU, on
//! several threads, deterministically: the same files, seed and settings write the same
//! network bit for bit, whatever the number of threads.
//!
//! Every recorded position is a sample (the side to move's view), labelled
//! `λ · σ(K · score) + (1 − λ) · result` (a proven score counts as its result), with
//! `σ(x) = 1 / (1 + 10^(−x/400))` and `K` fitted to the data's own scores and results,
//! so the network's output lands on the scale of the scores it learns from (the search's
//! pruning margins were set for that scale). Loss: cross-entropy of `σ(K · net)`.
//! Each sample is seen under a random one of the board's eight symmetries each epoch
//! (chosen by a hash of the seed, the epoch and its place, not by a thread). Games whose
//! index is 19 modulo 20 are held out; the epoch with the best held-out loss is kept,
//! quantised, written, and measured again with the engine's integer inference.
//!
//! A position that repeats (in a file or across files; the board's eight symmetries
//! counted as one) is one sample, its result the mean of the repeats' (its first
//! occurrence's score kept); `--keep-duplicates` keeps every repeat, as every network
//! up to round 12 was trained.
//!
//! Minibatch Adam with a cosine learning-rate decay. Each batch is cut into [`SHARDS`]
//! fixed parts whose gradients are summed in a fixed order: that is what makes the
//! result independent of the thread count.

use super::datagen;
use super::nnue::{canonical, cross_entropy, golden_section, map_board, sigmoid, symmetries};
use engine::game::Side;
use engine::games::ataxx::network::{
    for_each_feature, Net, FEATURES, HIDDEN, OUT_SCALE, QA, QB, W1_LIMIT, W2_LIMIT, WINDOWS,
};
use engine::games::ataxx::{eval, Position, Rules};
use engine::rng::{splitmix64, SplitMix64};
use engine::search::report::MAX_PLY;
use engine::search::WIN;
use std::sync::Barrier;
use std::time::Instant;

/// Fixed parts of a batch (the unit of the gradient sum's order).
const SHARDS: usize = 16;
/// Rows of `HIDDEN` parameters: the first layer by input, the hidden biases, the output
/// weights (side to move's units, the other's) and a row holding the output bias.
const ROWS: usize = FEATURES + 4;
const B1: usize = FEATURES;
const W2S: usize = FEATURES + 1;
const W2O: usize = FEATURES + 2;
const B2: usize = FEATURES + 3;
const PARAMS: usize = ROWS * HIDDEN;
/// Scores are clipped here before they become probabilities.
const SCORE_CLIP: i32 = 3000;

/// `tune window`'s settings.
pub struct Options {
    pub lambda: f32,
    pub epochs: usize,
    pub seed: u64,
    pub threads: usize,
    pub batch: usize,
    pub lr: f32,
    pub out: String,
    pub files: Vec<String>,
    /// Keep repeated positions as separate samples (`--keep-duplicates`).
    pub keep_duplicates: bool,
}

/// `tune window [--lambda L] [--epochs N] [--seed S] [--threads T] [--batch B] [--lr R]
/// [--keep-duplicates] --out FILE DATA...`.
pub fn parse_args(mut args: &[&str]) -> Option<Options> {
    let mut o = Options {
        lambda: 0.5,
        epochs: 20,
        seed: 1,
        threads: 1,
        batch: 16384,
        lr: 1e-3,
        out: String::new(),
        files: Vec::new(),
        keep_duplicates: false,
    };
    loop {
        match args {
            ["--keep-duplicates", rest @ ..] => (o.keep_duplicates, args) = (true, rest),
            ["--lambda", v, rest @ ..] => {
                (o.lambda, args) = (v.parse().ok().filter(|l| (0.0..=1.0).contains(l))?, rest)
            }
            ["--epochs", v, rest @ ..] => {
                (o.epochs, args) = (v.parse().ok().filter(|&e| e > 0)?, rest)
            }
            ["--seed", v, rest @ ..] => (o.seed, args) = (v.parse().ok()?, rest),
            ["--threads", v, rest @ ..] => {
                (o.threads, args) = (v.parse().ok().filter(|&t| (1..=256).contains(&t))?, rest)
            }
            ["--batch", v, rest @ ..] => {
                (o.batch, args) = (v.parse().ok().filter(|&b| b >= SHARDS)?, rest)
            }
            ["--lr", v, rest @ ..] => {
                (o.lr, args) = (v.parse().ok().filter(|&r: &f32| r > 0.0)?, rest)
            }
            ["--out", v, rest @ ..] => (o.out, args) = (v.to_string(), rest),
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

/// One position from the side to move's view.
#[derive(Clone, Copy)]
struct Sample {
    own: u64,
    opp: u64,
    gaps: u64,
    /// The search's score, `None` when proven.
    score: Option<i16>,
    result: f32,
    target: f32,
}

/// The samples of the data files: (training, held out), and the number of games.
fn load(files: &[String]) -> Result<(Vec<Sample>, Vec<Sample>, usize), String> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut n_games = 0;
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        let (games, len) = datagen::decode(&bytes).map_err(|e| format!("{file}: {e}"))?;
        if len < bytes.len() {
            eprintln!("{file}: a cut last record ignored");
        }
        for g in &games {
            let into = if g.index % 20 == 19 {
                &mut held
            } else {
                &mut train
            };
            let mut pos = g.start.clone();
            for &(mv, score) in &g.plies {
                if !pos.is_legal(mv) {
                    return Err(format!("{file}: game {}: illegal move {mv}", g.index));
                }
                let us = pos.side_to_move();
                let proven = i32::from(score).abs() >= WIN - MAX_PLY as i32;
                into.push(Sample {
                    own: pos.pieces(us),
                    opp: pos.pieces(us.opponent()),
                    gaps: pos.gaps(),
                    score: (!proven).then_some(score),
                    result: g.result_for(us),
                    target: if proven {
                        f32::from(u8::from(score > 0))
                    } else {
                        0.5
                    },
                });
                pos.make_move(mv);
            }
        }
        n_games += games.len();
    }
    if train.is_empty() || held.is_empty() {
        return Err("too few positions (need games to train on and to hold out)".into());
    }
    Ok((train, held, n_games))
}

/// `samples` with each position once (the board's symmetries counted as one): the
/// first occurrence, its result the mean of all its occurrences'; and how many
/// repeats were merged. The order is that of the first occurrences (deterministic).
fn merge_repeats(samples: Vec<Sample>) -> (Vec<Sample>, usize) {
    use std::collections::hash_map::{Entry, HashMap};
    let mut at: HashMap<(u64, u64, u64), usize> = HashMap::with_capacity(samples.len());
    let mut out: Vec<Sample> = Vec::with_capacity(samples.len());
    let mut sums: Vec<(f64, u32)> = Vec::with_capacity(samples.len());
    let n = samples.len();
    for s in samples {
        match at.entry(canonical(s.own, s.opp, s.gaps)) {
            Entry::Occupied(e) => {
                let sum = &mut sums[*e.get()];
                sum.0 += f64::from(s.result);
                sum.1 += 1;
            }
            Entry::Vacant(e) => {
                e.insert(out.len());
                sums.push((f64::from(s.result), 1));
                out.push(s);
            }
        }
    }
    for (s, (sum, count)) in out.iter_mut().zip(sums) {
        s.result = (sum / f64::from(count)) as f32;
    }
    let repeats = n - out.len();
    (out, repeats)
}

/// `K` of the data's scores against its results (every eighth scored sample), by
/// golden-section search.
fn fit_k(samples: &[Sample]) -> f32 {
    let pts: Vec<(f32, f32)> = samples
        .iter()
        .step_by(8)
        .filter_map(|s| {
            s.score.map(|c| {
                (
                    f32::from(c).clamp(-(SCORE_CLIP as f32), SCORE_CLIP as f32),
                    s.result,
                )
            })
        })
        .collect();
    let loss = |k: f32| -> f64 {
        pts.iter()
            .map(|&(x, r)| cross_entropy(sigmoid(x, k), r))
            .sum()
    };
    golden_section(loss)
}

/// The active rows of both perspectives (side to move's first) and their counts.
fn features(own: u64, opp: u64, gaps: u64) -> ([[u16; WINDOWS + 49]; 2], [usize; 2]) {
    let mut rows = [[0u16; WINDOWS + 49]; 2];
    let mut n = [0usize; 2];
    for (p, (a, b)) in [(own, opp), (opp, own)].into_iter().enumerate() {
        for_each_feature(a, b, gaps, |f| {
            rows[p][n[p]] = f as u16;
            n[p] += 1;
        });
    }
    (rows, n)
}

/// The float model's hidden pre-activations (both perspectives) and output.
#[inline(always)]
fn forward(
    p: &[f32],
    rows: &[[u16; WINDOWS + 49]; 2],
    n: [usize; 2],
    h: &mut [[f32; HIDDEN]; 2],
) -> f32 {
    let mut y = p[B2 * HIDDEN];
    for side in 0..2 {
        let hs = &mut h[side];
        hs.copy_from_slice(&p[B1 * HIDDEN..(B1 + 1) * HIDDEN]);
        for &f in &rows[side][..n[side]] {
            let w = &p[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for j in 0..HIDDEN {
                hs[j] += w[j];
            }
        }
        let w2 = &p[(W2S + side) * HIDDEN..(W2S + side + 1) * HIDDEN];
        let mut s = 0.0f32;
        for j in 0..HIDDEN {
            let a = hs[j].clamp(0.0, 1.0);
            s += a * a * w2[j];
        }
        y += s;
    }
    OUT_SCALE as f32 * y
}

/// Gradient of one shard of samples into `g` (rows marked in `touched`); returns the
/// shard's summed loss.
#[inline(always)]
fn shard_gradient_body(
    p: &[f32],
    samples: &[(Sample, u8)],
    syms: &[[u8; 49]; 8],
    c: f32,
    g: &mut [f32],
    touched: &mut [bool],
) -> f64 {
    let mut loss = 0.0;
    let mut h = [[0.0f32; HIDDEN]; 2];
    let mut dh = [0.0f32; HIDDEN];
    for &(s, sym) in samples {
        let map = &syms[sym as usize];
        let (rows, n) = features(
            map_board(s.own, map),
            map_board(s.opp, map),
            map_board(s.gaps, map),
        );
        let y = forward(p, &rows, n, &mut h);
        let prob = 1.0 / (1.0 + (-c * y).exp());
        loss += cross_entropy(prob, s.target);
        let d = (prob - s.target) * c * OUT_SCALE as f32;
        g[B2 * HIDDEN] += d;
        for side in 0..2 {
            let w2 = &p[(W2S + side) * HIDDEN..(W2S + side + 1) * HIDDEN];
            let hs = &h[side];
            {
                let gw2 = &mut g[(W2S + side) * HIDDEN..(W2S + side + 1) * HIDDEN];
                for j in 0..HIDDEN {
                    let x = hs[j];
                    let a = x.clamp(0.0, 1.0);
                    gw2[j] += d * a * a;
                    dh[j] = if x > 0.0 && x < 1.0 {
                        2.0 * d * w2[j] * x
                    } else {
                        0.0
                    };
                }
            }
            let gb1 = &mut g[B1 * HIDDEN..(B1 + 1) * HIDDEN];
            for j in 0..HIDDEN {
                gb1[j] += dh[j];
            }
            for &f in &rows[side][..n[side]] {
                let f = f as usize;
                touched[f] = true;
                let gr = &mut g[f * HIDDEN..(f + 1) * HIDDEN];
                for j in 0..HIDDEN {
                    gr[j] += dh[j];
                }
            }
        }
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn shard_gradient_avx2(
    p: &[f32],
    samples: &[(Sample, u8)],
    syms: &[[u8; 49]; 8],
    c: f32,
    g: &mut [f32],
    touched: &mut [bool],
) -> f64 {
    shard_gradient_body(p, samples, syms, c, g, touched)
}

fn shard_gradient(
    p: &[f32],
    samples: &[(Sample, u8)],
    syms: &[[u8; 49]; 8],
    c: f32,
    g: &mut [f32],
    touched: &mut [bool],
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU reported AVX2 and FMA.
        return unsafe { shard_gradient_avx2(p, samples, syms, c, g, touched) };
    }
    shard_gradient_body(p, samples, syms, c, g, touched)
}

/// A raw view of a buffer that threads write in disjoint parts between barriers (the
/// gradients, parameters and moments as `f32`, the touched-row flags as `bool`).
#[derive(Clone, Copy)]
struct Shared<T>(*mut T, usize);
// SAFETY: every use below partitions the buffer between threads (shards by owner in
// the gradient phase, row ranges in the update phase) with a barrier between phases.
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// # Safety
    /// No other thread may access `range` until the next barrier.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice(&self, range: std::ops::Range<usize>) -> &mut [T] {
        assert!(range.end <= self.1);
        unsafe { std::slice::from_raw_parts_mut(self.0.add(range.start), range.len()) }
    }

    /// # Safety
    /// No thread may write the buffer while the result is alive.
    unsafe fn read(&self) -> &[T] {
        unsafe { std::slice::from_raw_parts(self.0, self.1) }
    }
}

/// Mean held-out loss of the float model, on `threads` threads (fixed chunks, summed in
/// order).
fn held_loss(p: &[f32], held: &[Sample], c: f32, threads: usize) -> f64 {
    let chunk = held.len().div_ceil(threads);
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = held
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut h = [[0.0f32; HIDDEN]; 2];
                    part.iter()
                        .map(|s| {
                            let (rows, n) = features(s.own, s.opp, s.gaps);
                            let y = forward(p, &rows, n, &mut h);
                            cross_entropy(1.0 / (1.0 + (-c * y).exp()), s.target)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    sums.iter().sum::<f64>() / held.len() as f64
}

fn quantise(p: &[f32]) -> Box<Net> {
    let q16 = |x: f32| x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    let mut net = Net::zeroed();
    for (f, row) in net.w1.iter_mut().enumerate() {
        for (j, w) in row.iter_mut().enumerate() {
            *w = q16(p[f * HIDDEN + j] * QA as f32);
        }
    }
    for j in 0..HIDDEN {
        net.b1[j] = q16(p[B1 * HIDDEN + j] * QA as f32);
        net.w2[0][j] = q16(p[W2S * HIDDEN + j] * QB as f32).clamp(-127, 127);
        net.w2[1][j] = q16(p[W2O * HIDDEN + j] * QB as f32).clamp(-127, 127);
    }
    net.b2 = (p[B2 * HIDDEN] * (QA * QB) as f32).round() as i32;
    net
}

pub fn train(o: &Options) -> Result<(), String> {
    let t0 = Instant::now();
    let (mut train, mut held, n_games) = load(&o.files)?;
    if !o.keep_duplicates {
        let (t, train_repeats) = merge_repeats(train);
        let (h, held_repeats) = merge_repeats(held);
        (train, held) = (t, h);
        eprintln!(
            "repeated positions merged: {train_repeats} in training, {held_repeats} held out"
        );
    }
    let k = fit_k(&train);
    let c = k * 10f32.ln() / 400.0;
    for s in train.iter_mut().chain(held.iter_mut()) {
        s.target = match s.score {
            Some(sc) => {
                let x = i32::from(sc).clamp(-SCORE_CLIP, SCORE_CLIP) as f32;
                o.lambda * sigmoid(x, k) + (1.0 - o.lambda) * s.result
            }
            None => o.lambda * s.target + (1.0 - o.lambda) * s.result,
        };
    }
    eprintln!(
        "{n_games} games: {} training positions, {} held out; K = {k:.4}, lambda = {}; loaded in {:.1} s",
        train.len(),
        held.len(),
        o.lambda,
        t0.elapsed().as_secs_f64()
    );
    // The yardstick: round 4's evaluation (linear terms and the small network) on the
    // same held-out targets (Ataxx is the same game with the colours swapped, so the
    // side to move can be the first player).
    let round4 = held
        .iter()
        .map(|s| {
            let pos = Position::from_parts(s.own, s.opp, s.gaps, Side::First, 0, 1, Rules::Uai)
                .expect("a position of the data");
            cross_entropy(
                sigmoid(eval::evaluate_linear_nnue(&pos) as f32, k),
                s.target,
            )
        })
        .sum::<f64>()
        / held.len() as f64;
    eprintln!("held-out loss of round 4's evaluation (linear + small network): {round4:.6}");

    let mut rng = SplitMix64::new(o.seed);
    let mut p = vec![0.0f32; PARAMS];
    for w in &mut p[..B1 * HIDDEN] {
        *w = (rng.unit_f64() as f32 * 2.0 - 1.0) * 0.1;
    }
    for w in &mut p[W2S * HIDDEN..B2 * HIDDEN] {
        *w = (rng.unit_f64() as f32 * 2.0 - 1.0) * 0.1;
    }
    let (mut m1, mut m2) = (vec![0.0f32; PARAMS], vec![0.0f32; PARAMS]);
    let mut grads = vec![0.0f32; SHARDS * PARAMS];
    let mut touched = vec![false; SHARDS * ROWS];
    let syms = symmetries().map(|m| m.map(|sq| sq as u8));
    let threads = o.threads.min(SHARDS);
    let batches_per_epoch = train.len().div_ceil(o.batch);
    let total_steps = (batches_per_epoch * o.epochs) as f32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut batch: Vec<(Sample, u8)> = Vec::with_capacity(o.batch);
    let mut step = 0usize;
    let mut best = (f64::INFINITY, p.clone(), 0);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    for epoch in 1..=o.epochs {
        let te = Instant::now();
        rng.shuffle(&mut order);
        let mut train_loss = 0.0f64;
        for (b, idx) in order.chunks(o.batch).enumerate() {
            batch.clear();
            batch.extend(idx.iter().enumerate().map(|(i, &si)| {
                let h = splitmix64(o.seed ^ (epoch as u64) << 40 ^ (b * o.batch + i) as u64).1;
                (train[si], (h & 7) as u8)
            }));
            step += 1;
            let lr = o.lr
                * (0.05
                    + 0.95
                        * 0.5
                        * (1.0 + (std::f32::consts::PI * step as f32 / total_steps).cos()));
            let (c1, c2) = (1.0 - beta1.powi(step as i32), 1.0 - beta2.powi(step as i32));
            let n = batch.len() as f32;
            let shard_len = batch.len().div_ceil(SHARDS);
            let gs = Shared(grads.as_mut_ptr(), grads.len());
            let ts = Shared(touched.as_mut_ptr(), touched.len());
            let ps = Shared(p.as_mut_ptr(), p.len());
            let ms = (
                Shared(m1.as_mut_ptr(), m1.len()),
                Shared(m2.as_mut_ptr(), m2.len()),
            );
            let barrier = Barrier::new(threads);
            let batch_ref = &batch;
            let syms_ref = &syms;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let barrier = &barrier;
                        scope.spawn(move || {
                            // Phase 1: the shards this thread owns.
                            let mut shard_losses = [0.0f64; SHARDS];
                            for sh in (t..SHARDS).step_by(threads) {
                                let lo = (sh * shard_len).min(batch_ref.len());
                                let hi = ((sh + 1) * shard_len).min(batch_ref.len());
                                // SAFETY: only this thread touches shard `sh` now; the
                                // parameters are only read in this phase.
                                let (g, tf, pr) = unsafe {
                                    (
                                        gs.slice(sh * PARAMS..(sh + 1) * PARAMS),
                                        ts.slice(sh * ROWS..(sh + 1) * ROWS),
                                        ps.read(),
                                    )
                                };
                                shard_losses[sh] =
                                    shard_gradient(pr, &batch_ref[lo..hi], syms_ref, c, g, tf);
                            }
                            barrier.wait();
                            // Phase 2: this thread's rows: sum the shards in order, Adam, clip.
                            let rows_per = ROWS.div_ceil(threads);
                            let (r0, r1) =
                                ((t * rows_per).min(ROWS), ((t + 1) * rows_per).min(ROWS));
                            let mut gsum = [0.0f32; HIDDEN];
                            for r in r0..r1 {
                                let always = r >= B1;
                                gsum.fill(0.0);
                                for sh in 0..SHARDS {
                                    // SAFETY: row `r` of every shard belongs to this thread now.
                                    let tf = unsafe { ts.slice(sh * ROWS + r..sh * ROWS + r + 1) };
                                    if tf[0] || always {
                                        tf[0] = false;
                                        let g = unsafe {
                                            gs.slice(
                                                sh * PARAMS + r * HIDDEN
                                                    ..sh * PARAMS + (r + 1) * HIDDEN,
                                            )
                                        };
                                        for j in 0..HIDDEN {
                                            gsum[j] += g[j];
                                            g[j] = 0.0;
                                        }
                                    }
                                }
                                // SAFETY: row `r` of the parameters and moments is this thread's.
                                let (pr, a, v) = unsafe {
                                    (
                                        ps.slice(r * HIDDEN..(r + 1) * HIDDEN),
                                        ms.0.slice(r * HIDDEN..(r + 1) * HIDDEN),
                                        ms.1.slice(r * HIDDEN..(r + 1) * HIDDEN),
                                    )
                                };
                                let limit = if r < W2S {
                                    W1_LIMIT
                                } else if r < B2 {
                                    W2_LIMIT
                                } else {
                                    f32::INFINITY
                                };
                                let width = if r == B2 { 1 } else { HIDDEN };
                                for j in 0..width {
                                    let gj = gsum[j] / n;
                                    a[j] = beta1 * a[j] + (1.0 - beta1) * gj;
                                    v[j] = beta2 * v[j] + (1.0 - beta2) * gj * gj;
                                    pr[j] -= lr * (a[j] / c1) / ((v[j] / c2).sqrt() + 1e-8);
                                    pr[j] = pr[j].clamp(-limit, limit);
                                }
                            }
                            shard_losses
                        })
                    })
                    .collect();
                let mut all = vec![0.0f64; SHARDS];
                for (t, h) in handles.into_iter().enumerate() {
                    let l = h.join().expect("no panic in training");
                    for sh in (t..SHARDS).step_by(threads) {
                        all[sh] = l[sh];
                    }
                }
                all
            });
            train_loss += losses.iter().sum::<f64>();
        }
        let hl = held_loss(&p, &held, c, threads);
        eprintln!(
            "epoch {epoch}: training loss {:.6}, held-out loss {hl:.6}, {:.1} s",
            train_loss / train.len() as f64,
            te.elapsed().as_secs_f64()
        );
        if hl < best.0 {
            best = (hl, p.clone(), epoch);
            // Written at once, so a run cut short still leaves its best network.
            std::fs::write(&o.out, quantise(&p).to_bytes())
                .map_err(|e| format!("{}: {e}", o.out))?;
        }
    }
    let net = quantise(&best.1);
    let quantised = held
        .iter()
        .map(|s| {
            let y = net.evaluate([s.own, s.opp], s.gaps, Side::First.index());
            cross_entropy(sigmoid(y as f32, k), s.target)
        })
        .sum::<f64>()
        / held.len() as f64;
    eprintln!(
        "kept epoch {}: held-out loss {:.6} (float), {quantised:.6} (quantised); {:.1} s in all",
        best.2,
        best.0,
        t0.elapsed().as_secs_f64()
    );
    std::fs::write(&o.out, net.to_bytes()).map_err(|e| format!("{}: {e}", o.out))?;
    eprintln!("wrote {}", o.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same data and seed give the same network whatever the thread count, and the
    /// file is one the engine reads.
    #[test]
    fn training_is_deterministic_across_threads() {
        let dir = std::env::temp_dir().join(format!("tune-window-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.bin");
        let gen = datagen::Options {
            settings: super::super::games_file::Settings {
                out: data.to_string_lossy().into_owned(),
                games: 40,
                nodes: 200,
                threads: 2,
                seed: 3,
                seconds: None,
                shard: None,
            },
            blocks_percent: 20,
            plies: datagen::DEFAULT_PLIES,
            window: datagen::OPENING_LIMIT,
        };
        datagen::run(&gen).unwrap();
        let mut nets = Vec::new();
        for threads in [1, 3] {
            let out = dir.join(format!("net{threads}.bin"));
            let o = Options {
                lambda: 0.5,
                epochs: 2,
                seed: 5,
                threads,
                batch: 512,
                lr: 1e-3,
                out: out.to_string_lossy().into_owned(),
                files: vec![gen.settings.out.clone()],
                keep_duplicates: false,
            };
            train(&o).unwrap();
            nets.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(nets[0], nets[1]);
        assert!(Net::from_bytes(&nets[0]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn sample(own: u64, opp: u64, result: f32) -> Sample {
        Sample {
            own,
            opp,
            gaps: 0,
            score: Some(10),
            result,
            target: 0.5,
        }
    }

    /// A position and its mirror image are one sample with the mean result; others
    /// stay, in their order.
    #[test]
    fn repeated_positions_become_one_sample() {
        // a1 against b1, its mirror g1 against f1, and a1 against c1.
        let (a1, b1, c1, f1, g1) = (1u64, 1 << 1, 1 << 2, 1 << 5, 1 << 6);
        let samples = vec![
            sample(a1, b1, 1.0),
            sample(a1, c1, 0.5),
            sample(g1, f1, 0.0),
            sample(a1, b1, 0.5),
        ];
        let (merged, repeats) = merge_repeats(samples);
        assert_eq!(repeats, 2);
        assert_eq!(merged.len(), 2);
        assert_eq!((merged[0].own, merged[0].opp), (a1, b1));
        assert_eq!(merged[0].result, 0.5);
        assert_eq!(
            (merged[1].own, merged[1].opp, merged[1].result),
            (a1, c1, 0.5)
        );
        let o = parse_args(&["--keep-duplicates", "--out", "n.bin", "d.bin"]).unwrap();
        assert!(o.keep_duplicates);
        assert!(
            !parse_args(&["--out", "n.bin", "d.bin"])
                .unwrap()
                .keep_duplicates
        );
    }
}

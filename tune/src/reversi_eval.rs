//! `tune reversi-eval`: fits the Reversi midgame evaluation
//! (`engine::games::reversi::midgame`) to the games of `tune reversi-games` and to
//! labelled positions files (`reversi_positions.rs`), and measures evaluations on a
//! yardstick.
//!
//! Each position of a game (after its random opening, passes left out) is a sample
//! whose label is the game's final disc difference for the side to move; each labelled
//! line of a positions file (`--positions`) is a sample with its label (a position met
//! again keeps its first label). Every weight
//! table is fitted on its own stage's positions and those up to two empty squares
//! either side of it (so neighbouring tables agree near their border), by least
//! squares with an L2 pull towards zero, full-batch Adam with a cosine-decayed step:
//! deterministic, so the same files and options give the same weights. A tenth of the
//! games (index ≡ 0 mod 10) and of the positions (by their symmetric key) is held out
//! and its error reported beside that of the embedded weights and of the linear
//! evaluation (`eval.rs`) scaled by its least-squares slope.
//!
//! The yardstick (`--yardstick FILE`, a positions file of exactly or nearly exactly
//! labelled positions never trained on, `tests/data/reversi/yardstick.pos`): the RMS
//! error per stage of the embedded weights and of the new fit. With several `--l2`
//! values each stage's table is fitted with each and the one with the lowest yardstick
//! error there kept (the held-out error decides where the yardstick has fewer than
//! [`MIN_YARDSTICK`] positions); with `--or-embedded` the embedded table competes too,
//! and is kept where the yardstick (or there the held-out set) does not show a fit
//! better, and where neither has enough positions nothing is fitted. With
//! `--from-embedded` each table starts from the embedded one and the L2 pulls towards
//! it: few but truer labels correct it rather than replace it. Without `--out` and
//! with a yardstick, nothing is fitted: the report compares the embedded weights (and
//! `--weights FILE`) on it, on stdout.

use super::reversi_games::decode;
use super::reversi_positions::{canonical, parse_positions};
use engine::games::reversi::eval;
use engine::games::reversi::midgame::{self, layout, Weights, INSTANCES, PHASES, SCALARS, SCALE};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A table's training set is widened until it has this many positions.
const MIN_SAMPLES: usize = 20_000;
/// Below this many yardstick positions in a stage, the held-out error chooses there.
pub const MIN_YARDSTICK: usize = 50;

/// `tune reversi-eval`'s settings.
pub struct Options {
    pub out: String,
    pub files: Vec<String>,
    pub positions: Vec<String>,
    pub yardstick: Vec<String>,
    pub weights: Option<String>,
    pub epochs: usize,
    /// The L2 pulls to try (one table fitted per value and stage).
    pub l2: Vec<f64>,
    pub or_embedded: bool,
    /// Start each table from the embedded one and pull it towards it, not towards zero.
    pub from_embedded: bool,
    pub lr: f64,
    pub threads: usize,
    /// With a horizon, a game's training labels mix its result with the search's scores
    /// ([`Game::blended`](super::reversi_games::Game::blended)); held-out labels stay
    /// the results.
    pub blend: Option<f32>,
}

/// `tune reversi-eval [--epochs N] [--l2 L[,L...]] [--lr R] [--threads T] [--blend H]
/// [--positions FILE]... [--yardstick FILE]... [--or-embedded] [--from-embedded] [--weights FILE]
/// [--out FILE] DATA...`.
pub fn parse_args(mut args: &[&str]) -> Option<Options> {
    let mut o = Options {
        out: String::new(),
        files: Vec::new(),
        positions: Vec::new(),
        yardstick: Vec::new(),
        weights: None,
        epochs: 300,
        l2: vec![1e-4],
        or_embedded: false,
        from_embedded: false,
        lr: 0.5,
        threads: 2,
        blend: None,
    };
    loop {
        match args {
            ["--out", v, rest @ ..] => (o.out, args) = (v.to_string(), rest),
            ["--positions", v, rest @ ..] => {
                o.positions.push(v.to_string());
                args = rest;
            }
            ["--yardstick", v, rest @ ..] => {
                o.yardstick.push(v.to_string());
                args = rest;
            }
            ["--weights", v, rest @ ..] => (o.weights, args) = (Some(v.to_string()), rest),
            ["--or-embedded", rest @ ..] => (o.or_embedded, args) = (true, rest),
            ["--from-embedded", rest @ ..] => (o.from_embedded, args) = (true, rest),
            ["--epochs", v, rest @ ..] => {
                (o.epochs, args) = (v.parse().ok().filter(|&n| n > 0)?, rest)
            }
            ["--l2", v, rest @ ..] => {
                let l2: Option<Vec<f64>> = v
                    .split(',')
                    .map(|x| x.parse().ok().filter(|&l: &f64| l >= 0.0))
                    .collect();
                (o.l2, args) = (l2?, rest)
            }
            ["--blend", v, rest @ ..] => {
                (o.blend, args) = (Some(v.parse().ok().filter(|&b: &f32| b > 0.0)?), rest)
            }
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
    let has_data = !(o.files.is_empty() && o.positions.is_empty());
    let fit = !o.out.is_empty() && has_data;
    let measure = o.out.is_empty() && !has_data;
    (fit || (measure && !o.yardstick.is_empty())).then_some(o)
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

fn sample(own: u64, opp: u64, label: f32) -> Sample {
    let l = layout();
    let mut index = midgame::indices(own, opp);
    for i in &mut index {
        *i = l.canonical[*i as usize];
    }
    Sample {
        index,
        scalars: midgame::scalars(own, opp).map(|v| v as i8),
        empties: (!(own | opp)).count_ones() as u8,
        label,
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

/// The RMS error of `w` on `samples` in discs; NaN for none.
fn rms(w: &[f32], samples: &[&Sample]) -> f64 {
    let sq: f64 = samples
        .iter()
        .map(|s| f64::from(predict(w, s) - s.label).powi(2))
        .sum();
    (sq / samples.len() as f64).sqrt()
}

/// Fits one table on `train` (full-batch Adam) with L2 pull `l2` towards `prior` (the
/// table it starts from), or towards zero from zero.
fn fit_table(train: &[&Sample], o: &Options, l2: f64, prior: Option<&[f32]>) -> Vec<f32> {
    let n = layout().per_phase;
    let zero = vec![0f32; n];
    let prior = prior.unwrap_or(&zero);
    let mut w = prior.to_vec();
    if train.is_empty() {
        return w;
    }
    // From zero the scalar terms (mobility, parity, the constant) are free; from a
    // table everything is pulled towards it.
    let from_zero = prior.iter().all(|&x| x == 0.0);
    if from_zero {
        // From scratch: start the constant at the mean label.
        w[n - 1] = train.iter().map(|s| s.label).sum::<f32>() / train.len() as f32;
    }
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let scale = 2.0 / train.len() as f32;
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let pulled = |i: usize| i < n - SCALARS || !from_zero;
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
            let g = grad[i] + 2.0 * l2 as f32 * (w[i] - prior[i]) * pulled(i) as u8 as f32;
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

/// A fitted table and what chose it.
type Table = (Vec<f32>, String);

pub fn train(o: &Options) -> Result<(), String> {
    if o.out.is_empty() {
        return measure(o);
    }
    let started = Instant::now();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for f in &o.files {
        let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
        let (gs, _) = decode(&bytes).map_err(|e| format!("{f}: {e}"))?;
        games += gs.len();
        for g in gs {
            let (into, keep) = if g.index % 10 == 0 {
                (&mut held, None)
            } else {
                (&mut train, o.blend)
            };
            for (pos, label) in g.blended(keep) {
                into.push(sample(pos.own(), pos.opp(), label));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut positions = 0;
    for f in &o.positions {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for e in parse_positions(&text).map_err(|e| format!("{f}: {e}"))? {
            let Some(label) = e.label else { continue };
            let key = canonical(e.pos.own(), e.pos.opp());
            if !seen.insert(key) {
                continue;
            }
            positions += 1;
            let into = if held_out(key) { &mut held } else { &mut train };
            into.push(sample(e.pos.own(), e.pos.opp(), label.value));
        }
    }
    let yard = read_yardstick(&o.yardstick)?;
    eprintln!(
        "{games} games{}: {} training positions, {} held out{} ({:.1} s)",
        if o.positions.is_empty() {
            String::new()
        } else {
            format!(" and {positions} labelled positions")
        },
        train.len(),
        held.len(),
        if yard.is_empty() {
            String::new()
        } else {
            format!(", {} on the yardstick", yard.len())
        },
        started.elapsed().as_secs_f64()
    );
    let embedded = midgame::weights();
    let l = layout();
    let n = l.per_phase;
    let tables: Mutex<Vec<Option<Table>>> = Mutex::new(vec![None; PHASES]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..o.threads {
            scope.spawn(|| loop {
                let p = next.fetch_add(1, Ordering::Relaxed);
                if p >= PHASES {
                    break;
                }
                let yard_p = of_phase(&yard, p);
                let held_p = of_phase(&held, p);
                if o.or_embedded && yard_p.len() < MIN_YARDSTICK && held_p.len() < MIN_YARDSTICK {
                    // Nothing could show a fit better than the embedded table: no fit.
                    let t = (
                        embedded_table(embedded, p),
                        "embedded (nothing to judge a fit on)".into(),
                    );
                    tables.lock().expect("no panics")[p] = Some(t);
                    continue;
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
                let judge = |w: &[f32]| {
                    if yard_p.len() >= MIN_YARDSTICK {
                        rms(w, &yard_p)
                    } else {
                        rms(w, &held_p)
                    }
                };
                let old = embedded_table(embedded, p);
                let prior = o.from_embedded.then_some(old.as_slice());
                let mut best: Option<(f64, f64, Vec<f32>)> = None;
                for &l2 in &o.l2 {
                    let w = fit_table(&set, o, l2, prior);
                    let e = judge(&w);
                    if best.as_ref().is_none_or(|b| e < b.0) {
                        best = Some((e, l2, w));
                    }
                }
                let (e, l2, mut w) = best.expect("at least one --l2");
                let mut chosen = format!("fit, l2 {l2}");
                if o.or_embedded {
                    // The embedded table stays unless the yardstick (or, where it has
                    // too few positions, the held-out set) shows the fit better.
                    if judge(&old) <= e {
                        w = old;
                        chosen = format!("embedded (best fit: l2 {l2}, {e:.2})");
                    }
                }
                tables.lock().expect("no panics")[p] = Some((w, chosen));
            });
        }
    });
    let (tables, chosen): (Vec<Vec<f32>>, Vec<String>) = tables
        .into_inner()
        .expect("no panics")
        .into_iter()
        .map(|t| t.expect("every table fitted"))
        .unzip();
    eprintln!(
        "phase empties   train    held  rms(train) rms(held) rms(embedded, held) rms(linear, held)  yardstick rms(table) rms(embedded)  table"
    );
    // An empty set has no error: a dash.
    let cell = |v: f64, width: usize| {
        if v.is_nan() {
            format!("{:>width$}", "-")
        } else {
            format!("{v:width$.2}")
        }
    };
    for (p, w) in tables.iter().enumerate() {
        let (tr, he, ya) = (of_phase(&train, p), of_phase(&held, p), of_phase(&yard, p));
        let old = embedded_table(embedded, p);
        eprintln!(
            "{p:5} {:2}-{:2} {:8} {:7} {} {} {} {}  {:9} {} {}  {}",
            4 * p + 1,
            4 * p + 4,
            tr.len(),
            he.len(),
            cell(rms(w, &tr), 10),
            cell(rms(w, &he), 9),
            cell(rms(&old, &he), 18),
            cell(linear_rms(&he), 17),
            ya.len(),
            cell(rms(w, &ya), 10),
            cell(rms(&old, &ya), 13),
            chosen[p]
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
    (sq / set.len() as f64).sqrt()
}

/// Whether a position (by its symmetric key) is held out: a tenth of them.
fn held_out(key: u128) -> bool {
    let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 32).is_multiple_of(10)
}

/// The embedded weights' table `p` as the fit's tied weights, in discs: the expanded
/// file's value at each tied weight's own index (the fit writes a tied weight to every
/// index that shares it, so reading one of them back is exact).
fn embedded_table(w: &Weights, p: usize) -> Vec<f32> {
    let l = layout();
    let n = l.per_phase;
    let t = &w.as_slice()[p * n..(p + 1) * n];
    let mut out = vec![0f32; n];
    for k in 0..n {
        out[l.canonical[k] as usize] = f32::from(t[k]) / SCALE as f32;
    }
    out
}

/// Reads yardstick files: every line must be labelled.
fn read_yardstick(files: &[String]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for (n, e) in parse_positions(&text)
            .map_err(|e| format!("{f}: {e}"))?
            .into_iter()
            .enumerate()
        {
            let l = e
                .label
                .ok_or_else(|| format!("{f}: position {} has no label", n + 1))?;
            out.push(sample(e.pos.own(), e.pos.opp(), l.value));
        }
    }
    Ok(out)
}

/// Per stage (weight table) with positions: the stage, how many, the RMS of
/// prediction − label. Items are (empties, prediction, label).
pub fn stage_rms(items: impl IntoIterator<Item = (u32, f64, f64)>) -> Vec<(usize, usize, f64)> {
    let mut per = vec![(0usize, 0f64); PHASES];
    for (e, pred, label) in items {
        let p = &mut per[midgame::phase(e)];
        p.0 += 1;
        p.1 += (pred - label).powi(2);
    }
    per.into_iter()
        .enumerate()
        .filter(|(_, (n, _))| *n > 0)
        .map(|(p, (n, sq))| (p, n, (sq / n as f64).sqrt()))
        .collect()
}

/// The report without a fit: the yardstick's RMS per stage for the embedded weights
/// and `--weights FILE`, on stdout.
fn measure(o: &Options) -> Result<(), String> {
    let mut entries = Vec::new();
    for f in &o.yardstick {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        entries.extend(parse_positions(&text).map_err(|e| format!("{f}: {e}"))?);
    }
    let mut labels = Vec::with_capacity(entries.len());
    for (n, e) in entries.iter().enumerate() {
        let l = e
            .label
            .as_ref()
            .ok_or_else(|| format!("yardstick position {} has no label", n + 1))?;
        labels.push(f64::from(l.value));
    }
    let other = match &o.weights {
        None => None,
        Some(f) => {
            let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
            Some(midgame::parse(&bytes).map_err(|e| format!("{f}: {e}"))?)
        }
    };
    // Per stage: the rows of each label source, then all of them where a stage mixes
    // sources (their errors differ: the exact labels' are the evaluation's own).
    let mut sources: Vec<&str> = entries
        .iter()
        .map(|e| e.label.as_ref().expect("checked").source.as_str())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let table = |w: &Weights, source: Option<&str>| {
        stage_rms(
            entries
                .iter()
                .zip(&labels)
                .filter(|(e, _)| {
                    source.is_none_or(|s| e.label.as_ref().expect("checked").source == s)
                })
                .map(|(e, &l)| {
                    let v = midgame::evaluate_portable(w, e.pos.own(), e.pos.opp());
                    (e.empties(), f64::from(v) / f64::from(SCALE), l)
                }),
        )
    };
    let mut rows: Vec<(usize, &str, usize, f64, Option<f64>)> = Vec::new();
    for src in sources.iter().map(|&s| Some(s)).chain([None]) {
        let old = table(midgame::weights(), src);
        let new = other.as_ref().map(|w| table(w, src));
        for (k, &(p, n, r)) in old.iter().enumerate() {
            let name = src.unwrap_or("all");
            let mixed = rows.iter().filter(|row| row.0 == p).count() > 1;
            if src.is_some() || mixed {
                rows.push((p, name, n, r, new.as_ref().map(|t| t[k].2)));
            }
        }
    }
    rows.sort_by_key(|r| (r.0, r.1 == "all", r.1));
    println!(
        "{} yardstick positions; RMS error in discs of the evaluation against the label",
        entries.len()
    );
    println!(
        "phase empties positions  embedded{}  labels",
        if other.is_some() { "  weights" } else { "" }
    );
    for (p, name, n, r, new) in rows {
        println!(
            "{p:5} {:2}-{:2} {n:9} {r:9.2}{}  {name}",
            4 * p + 1,
            4 * p + 4,
            new.map_or(String::new(), |v| format!(" {v:8.2}")),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_rms_is_the_rms_per_weight_table() {
        // Stages are 4 empties wide: 17–20 is table 4, 21–24 table 5.
        let items = [
            (20, 3.0, 0.0),  // error 3
            (17, -4.0, 0.0), // error 4: table 4's RMS is sqrt((9 + 16) / 2)
            (24, 10.0, 4.0), // error 6: table 5 alone
            (33, 1.5, 1.5),  // exact: table 8, RMS 0
        ];
        let r = stage_rms(items);
        assert_eq!(r.len(), 3);
        assert_eq!((r[0].0, r[0].1), (4, 2));
        assert!((r[0].2 - (12.5f64).sqrt()).abs() < 1e-12);
        assert_eq!(r[1], (5, 1, 6.0));
        assert_eq!(r[2], (8, 1, 0.0));
        assert!(stage_rms([]).is_empty());
    }

    #[test]
    fn the_embedded_tables_read_back_as_the_evaluation() {
        // The tied table read back from the file predicts what the engine evaluates.
        let yard = ["---------------------------OX------XO--------------------------- X ; +0 t"];
        let e = parse_positions(yard[0]).unwrap().remove(0);
        let s = sample(e.pos.own(), e.pos.opp(), 0.0);
        let w = embedded_table(midgame::weights(), midgame::phase(60));
        let want = midgame::evaluate_portable(midgame::weights(), e.pos.own(), e.pos.opp());
        assert!((predict(&w, &s) - want as f32 / SCALE as f32).abs() < 1e-3);
    }

    /// A fit from the embedded table with a strong pull stays at it; with none it
    /// moves towards the labels.
    #[test]
    fn a_fit_from_the_embedded_table_is_pulled_towards_it() {
        let lines = [
            "---------------------------OX------XO--------------------------- X ; +10 t",
            "--------------------------XXX------XO--------------------------- O ; -20 t",
        ];
        let samples: Vec<Sample> = lines
            .iter()
            .map(|l| {
                let e = parse_positions(l).unwrap().remove(0);
                sample(e.pos.own(), e.pos.opp(), e.label.unwrap().value)
            })
            .collect();
        let set: Vec<&Sample> = samples.iter().collect();
        let o = parse_args(&["--epochs", "30", "--out", "x", "--positions", "p"]).unwrap();
        let prior = embedded_table(midgame::weights(), midgame::phase(60));
        let held = fit_table(&set, &o, 1e6, Some(&prior));
        let moved = prior
            .iter()
            .zip(&held)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(moved < 0.05, "{moved}");
        let free = fit_table(&set, &o, 0.0, Some(&prior));
        assert!(rms(&free, &set) < rms(&prior, &set) / 2.0);
        assert_eq!(fit_table(&[], &o, 0.0, Some(&prior)), prior);
    }

    #[test]
    fn the_committed_yardstick_parses_with_exact_labels_at_20_to_24_empties() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/reversi/yardstick.pos"
        );
        let text = std::fs::read_to_string(path).expect("the yardstick");
        let entries = parse_positions(&text).expect("a positions file");
        assert!(entries.len() >= 2000, "{} positions", entries.len());
        let mut keys = std::collections::HashSet::new();
        for e in &entries {
            let l = e
                .label
                .as_ref()
                .expect("every yardstick position is labelled");
            let n = e.empties();
            assert!((20..=36).contains(&n), "{}", e.line());
            if n <= 24 {
                assert!(
                    matches!(l.source.as_str(), "exact-solve" | "wthor-24"),
                    "{}",
                    e.line()
                );
            }
            assert!(
                keys.insert(canonical(e.pos.own(), e.pos.opp())),
                "{}",
                e.line()
            );
        }
    }
}

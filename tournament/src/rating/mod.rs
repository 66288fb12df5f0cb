//! Ratings from every game at once, as the rating lists compute them (Ordo's model):
//! `tournament rate` ([`cli`]) and the table at the end of every run with three or more
//! engines ([`table_for_run`]).
//!
//! - [`model`]: the logistic Elo model, its maximum-likelihood fit (first-mover
//!   advantage and draw rate fixed or fitted), the groups of a pool not connected by
//!   wins and losses both ways, and the rule that bounds a perfect score.
//! - [`rate`] (here): fit, anchor, and error bars by simulation (Ordo's `-s N`: every
//!   game played again from the fitted model, the pool refitted, the spread of each
//!   rating and of each difference taken).
//! - [`input`]: the runner's results files, PGN in either convention, a run's
//!   directory.
//! - [`output`]: Ordo's text layout, its CSV, JSON, the cross table; [`html`]: the page.

pub mod cli;
pub mod html;
pub mod input;
pub mod model;
pub mod output;

pub use model::{Fit, Kind, Param, Pool, Reference, Settings};

/// A rated pool: the fit, normalized, with its simulated spread.
#[derive(Clone, Debug)]
pub struct Rating {
    /// The games.
    pub pool: Pool,
    /// How it was rated.
    pub settings: Settings,
    /// The fit, shifted to the reference.
    pub fit: Fit,
    /// Per player: (points, games).
    pub scores: Vec<(f64, u64)>,
    /// Players with games, best first.
    pub order: Vec<usize>,
    /// Per player, the standard deviation of its rating over the simulations.
    pub sd: Option<Vec<f64>>,
    /// Per pair, the standard deviation of the difference of their ratings.
    pub pair_sd: Option<Vec<Vec<f64>>>,
    /// Standard deviations of the fitted first-mover advantage and draw rate.
    pub white_sd: f64,
    /// See `white_sd`.
    pub draw_sd: f64,
    /// The factor from a standard deviation to the error bar (1.96 for 95 %).
    pub z: f64,
}

impl Rating {
    /// The error bar of player `i` (`None` without simulations, or for the anchor).
    pub fn error(&self, i: usize) -> Option<f64> {
        let sd = self.sd.as_ref()?[i];
        (sd > 1e-8).then_some(sd * self.z)
    }

    /// Likelihood of superiority of player `a` over `b`, from the simulated spread of
    /// their difference (Ordo's CFS): Φ(Δ / sd(Δ)).
    pub fn superiority(&self, a: usize, b: usize) -> Option<f64> {
        let sd = self.pair_sd.as_ref()?[a][b];
        let diff = self.fit.ratings[a] - self.fit.ratings[b];
        if self.fit.group[a] != self.fit.group[b] {
            return None;
        }
        Some(if sd > 1e-12 {
            crate::stats::phi(diff / sd)
        } else if diff > 0.0 {
            1.0
        } else {
            0.0
        })
    }

    /// The names of each group's players (more than one group: the pool is not
    /// connected by wins and losses both ways).
    pub fn groups(&self) -> Vec<Vec<&str>> {
        (0..self.fit.groups)
            .map(|g| {
                self.order
                    .iter()
                    .filter(|&&i| self.fit.group[i] == g)
                    .map(|&i| self.pool.names[i].as_str())
                    .collect()
            })
            .filter(|g: &Vec<&str>| !g.is_empty())
            .collect()
    }
}

/// Rates the pool: fit, normalize, simulate. Errors: an anchor that played no game.
pub fn rate(pool: Pool, settings: &Settings) -> Result<Rating, String> {
    let anchor = match &settings.reference {
        Reference::Anchor(name, _) => Some(
            pool.names
                .iter()
                .position(|n| n == name)
                .filter(|&i| pool.scores()[i].1 > 0)
                .ok_or_else(|| {
                    format!(
                        "anchor '{name}' played no game (players: {})",
                        pool.names.join(", ")
                    )
                })?,
        ),
        Reference::Average(_) => None,
    };
    if pool.games() == 0 {
        return Err("no games to rate".into());
    }
    let mut fit = model::fit(&pool, settings);
    model::normalize(&mut fit, &settings.reference, anchor, None);
    let scores = pool.scores();
    let mut order: Vec<usize> = (0..pool.names.len()).filter(|&i| scores[i].1 > 0).collect();
    order.sort_by(|&a, &b| fit.ratings[b].total_cmp(&fit.ratings[a]));
    let mut rating = Rating {
        pool,
        settings: settings.clone(),
        fit,
        scores,
        order,
        sd: None,
        pair_sd: None,
        white_sd: 0.0,
        draw_sd: 0.0,
        z: z_for(settings.confidence),
    };
    if settings.simulations > 1 {
        simulate(&mut rating, anchor);
    }
    Ok(rating)
}

/// The two-sided normal quantile for a confidence in %: 1.96 for 95.
fn z_for(confidence: f64) -> f64 {
    let target = 0.5 + confidence.clamp(0.0, 99.9999) / 200.0;
    let (mut lo, mut hi) = (0.0f64, 10.0f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if crate::stats::phi(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// A small seeded generator (splitmix64): the simulations are reproducible.
struct SplitMix(u64);

impl SplitMix {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Ordo's simulation: every game played again from the fitted model (ratings,
/// advantage, draw rate), the pool refitted with the same settings, and the standard
/// deviation of every rating and every difference taken. As in Ordo, a simulated pool
/// that is not well connected (a perfect score in it, or more groups than the real
/// one) is drawn again, up to 100 times; so where the real pool has a perfect score
/// the simulations are those in which it was not perfect (Ordo's figures on the kept
/// gauntlet agree within 5 % only so).
fn simulate(r: &mut Rating, anchor: Option<usize>) {
    let n = r.pool.names.len();
    let beta = r.settings.beta();
    let mut rng = SplitMix(r.settings.seed ^ 0x5EED_0F0D_0000_0001);
    let sims = r.settings.simulations as usize;
    let mut sum = vec![0.0; n];
    let mut sum2 = vec![0.0; n];
    let mut pair = vec![vec![(0.0, 0.0); n]; n];
    let (mut w1, mut w2, mut d1, mut d2) = (0.0, 0.0, 0.0, 0.0);
    // The games are drawn in the order of the players' names, so that the same games
    // read in another order (the run's tally, a results file, a PGN) simulate alike.
    let mut encounters = r.pool.encounters.clone();
    encounters.sort_by(|a, b| {
        let key = |e: &model::Encounter| (&r.pool.names[e.first], &r.pool.names[e.second]);
        key(a).cmp(&key(b))
    });
    for _ in 0..sims {
        let mut fit = None;
        for _ in 0..100 {
            let mut pool = Pool {
                names: r.pool.names.clone(),
                encounters: Vec::new(),
            };
            for e in &encounters {
                let delta = r.fit.ratings[e.first] + r.fit.white - r.fit.ratings[e.second];
                let p = model::wdl_probabilities(delta, r.fit.draw, beta);
                let mut wdl = [0u64; 3];
                for _ in 0..e.games() {
                    let u = rng.next_f64();
                    let cell = if u < p[0] {
                        0
                    } else if u < p[0] + p[1] {
                        1
                    } else {
                        2
                    };
                    wdl[cell] += 1;
                }
                pool.encounters.push(model::Encounter { wdl, ..*e });
            }
            let f = model::fit(&pool, &r.settings);
            let accepted = f.groups <= r.fit.groups
                && !f
                    .kinds
                    .iter()
                    .any(|&k| matches!(k, Kind::AllWins | Kind::AllLosses));
            fit = Some(f);
            if accepted {
                break;
            }
        }
        let mut fit = fit.expect("at least one simulated pool");
        model::normalize(&mut fit, &r.settings.reference, anchor, None);
        for i in 0..n {
            let x = fit.ratings[i];
            sum[i] += x;
            sum2[i] += x * x;
            for (cell, y) in pair[i].iter_mut().zip(&fit.ratings) {
                let d = x - y;
                cell.0 += d;
                cell.1 += d * d;
            }
        }
        w1 += fit.white;
        w2 += fit.white * fit.white;
        d1 += fit.draw;
        d2 += fit.draw * fit.draw;
    }
    let m = sims as f64;
    let sd = |s1: f64, s2: f64| ((m * s2 - s1 * s1).abs()).sqrt() / m;
    r.sd = Some((0..n).map(|i| sd(sum[i], sum2[i])).collect());
    r.pair_sd = Some(
        pair.iter()
            .map(|row| row.iter().map(|&(a, b)| sd(a, b)).collect())
            .collect(),
    );
    r.white_sd = sd(w1, w2);
    r.draw_sd = sd(d1, d2);
}

/// The rating list for the end of a run (three or more engines, or `-report` with
/// two): the games of the tally rated with the default settings, in Ordo's layout
/// (see [`output::text`]); `None` without games.
pub fn table_for_run(names: &[String], games: &[(usize, usize, [u64; 3])]) -> Option<String> {
    let mut pool = Pool {
        names: names.to_vec(),
        encounters: Vec::new(),
    };
    for &(first, second, wdl) in games {
        pool.encounters
            .push(model::Encounter { first, second, wdl });
    }
    let rating = rate(pool, &Settings::default()).ok()?;
    Some(output::text(&rating, true))
}

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
            crate::output::stats::phi(diff / sd)
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
        if crate::output::stats::phi(mid) < target {
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

    /// A binomial draw: `n` games that each succeed with probability `p`. Up to 40
    /// games one by one; beyond, by inversion where the spread is small and by the
    /// normal approximation where it is not, so that a simulation costs the same for
    /// a long run as for a short one.
    fn binomial(&mut self, n: u64, p: f64) -> u64 {
        let p = p.clamp(0.0, 1.0);
        if n <= 40 {
            return (0..n).filter(|_| self.next_f64() < p).count() as u64;
        }
        if p > 0.5 {
            return n - self.binomial(n, 1.0 - p);
        }
        let var = n as f64 * p * (1.0 - p);
        if var < 25.0 {
            // Inversion from 0: P(0) = q^n, P(x+1) = P(x)·(n−x)/(x+1)·p/q.
            let q = 1.0 - p;
            let mut prob = q.powf(n as f64);
            let mut u = self.next_f64();
            let mut x = 0u64;
            while u > prob && x < n {
                u -= prob;
                prob *= (n - x) as f64 / (x + 1) as f64 * p / q;
                x += 1;
            }
            return x;
        }
        // Box–Muller.
        let (u1, u2) = (self.next_f64().max(1e-300), self.next_f64());
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        (n as f64 * p + var.sqrt() * z).round().clamp(0.0, n as f64) as u64
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
                let n = e.games();
                let wins = rng.binomial(n, p[0]);
                let draws = rng.binomial(n - wins, p[1] / (p[1] + p[2]).max(1e-300));
                let wdl = [wins, draws, n - wins - draws];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The binomial draws have the binomial's mean and variance, one by one, by
    /// inversion and by the normal approximation alike.
    #[test]
    fn binomial_draws_have_the_right_mean_and_spread() {
        let mut rng = SplitMix(7);
        for (n, p) in [
            (30u64, 0.4),
            (1000, 0.3),
            (1000, 0.004),
            (5000, 0.999),
            (60, 0.5),
        ] {
            let k = 20000;
            let xs: Vec<f64> = (0..k).map(|_| rng.binomial(n, p) as f64).collect();
            let mean = xs.iter().sum::<f64>() / k as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / k as f64;
            let (m, v) = (n as f64 * p, n as f64 * p * (1.0 - p));
            assert!(
                (mean - m).abs() < 4.0 * (v / k as f64).sqrt() + 1e-9,
                "{n} {p}: mean {mean}"
            );
            assert!(
                (var / v - 1.0).abs() < 0.05,
                "{n} {p}: variance {var} against {v}"
            );
            assert!(xs.iter().all(|&x| x >= 0.0 && x <= n as f64));
        }
    }

    /// The same games give the same list, read in any order.
    #[test]
    fn the_list_does_not_depend_on_the_order_read() {
        let games = [
            ("a", "b", 1.0),
            ("b", "c", 0.5),
            ("c", "a", 1.0),
            ("a", "c", 0.0),
            ("b", "a", 0.5),
        ];
        let mut one = Pool::default();
        let mut two = Pool::default();
        for &(f, s, x) in games.iter().cycle().take(40) {
            one.add(f, s, x);
        }
        for &(f, s, x) in games.iter().rev().cycle().take(40) {
            two.add(f, s, x);
        }
        let settings = Settings {
            simulations: 200,
            ..Settings::default()
        };
        let (r1, r2) = (rate(one, &settings).unwrap(), rate(two, &settings).unwrap());
        assert_eq!(output::text(&r1, true), output::text(&r2, true));
    }
}

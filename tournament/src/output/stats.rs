//! Match statistics: Elo with 95 % intervals from games (trinomial) and from game pairs
//! (pentanomial), normalized Elo, LOS, and the normalized GSPRT.
//!
//! Formulas (z = 1.959964, the two-sided 95 % normal quantile; `elo(s) = -400·log10(1/s − 1)`):
//! - Trinomial: per-game scores 1, ½, 0 with mean `s` and variance `v`; the score interval
//!   is `s ± z·sqrt(v/n)` and the Elo interval is `elo` of its ends.
//! - Pentanomial: pair scores 0, ¼, ½, ¾, 1 (the mean score of a colour-swapped pair) with
//!   mean `s` and variance `v₂`; interval `s ± z·sqrt(v₂/pairs)`.
//! - Normalized Elo: `nElo = (s − ½)/σ · 800/ln 10` where σ is the per-game standard
//!   deviation: `sqrt(v)` (trinomial) or `sqrt(2·v₂)` (pentanomial: a pair mean averages
//!   two games). Its interval half-width is `z/sqrt(games) · 800/ln 10`.
//! - LOS = Φ((W − L)/sqrt(W + L)).
//! - GSPRT (generalized SPRT): `LLR = Σ cᵢ·ln(p₁ᵢ/p₀ᵢ)` over the bins of the observed
//!   distribution (3 game results, or 5 pair scores), where `pₖ` is the maximum-likelihood
//!   distribution on those bins under hypothesis k. Normalized model (default): the
//!   hypothesis fixes the normalized t-value, `(μ − ½)/σ_unit = tₖ·sqrt(games per unit)`
//!   with `tₖ = eloₖ·ln 10/800`; logistic model: it fixes the mean score
//!   `1/(1 + 10^(−eloₖ/400))`. Bounds: `ln(β/(1−α))` and `ln((1−β)/α)`. Empty bins get a
//!   pseudo-count of 0.001, so a one-sided start (all wins) gives a finite LLR. The
//!   tests check it against published reference values.

/// How `elo0`/`elo1` of `-sprt` are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (the default; see `stats.rs`).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

/// `-sprt`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Elo model.
    pub model: SprtModel,
}

/// The 97.5 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: converts a normalized t-value to normalized Elo.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Wins, losses and draws from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub w: u64,
    /// Losses.
    pub l: u64,
    /// Draws.
    pub d: u64,
}

impl Wdl {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.w + self.l + self.d
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.w as f64 + self.d as f64 / 2.0
    }

    /// Adds a game with the given score (1, ½, 0).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.w += 1;
        } else if score < 0.25 {
            self.l += 1;
        } else {
            self.d += 1;
        }
    }

    /// The per-game score distribution: (value, count).
    pub fn distribution(&self) -> [(f64, f64); 3] {
        [
            (0.0, self.l as f64),
            (0.5, self.d as f64),
            (1.0, self.w as f64),
        ]
    }
}

/// Counts of pair scores 0, ½, 1, 1½, 2 (LL, LD, WL/DD, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair with the given total score (0..=2 in halves).
    pub fn add(&mut self, pair_score: f64) {
        let i = (pair_score * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    /// The pair-mean score distribution: (value, count).
    pub fn distribution(&self) -> [(f64, f64); 5] {
        let mut out = [(0.0, 0.0); 5];
        for (i, o) in out.iter_mut().enumerate() {
            *o = (i as f64 / 4.0, self.0[i] as f64);
        }
        out
    }
}

/// Logistic Elo of a score fraction (±infinity at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, |error| < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Mean and variance of a weighted distribution; `None` when it is empty.
pub fn mean_var(dist: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = dist.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = dist.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let var = dist
        .iter()
        .map(|&(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// A score with its Elo and 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score (0..1).
    pub score: f64,
    /// Elo of the score.
    pub elo: f64,
    /// Half-width of the 95 % Elo interval (mean of the two sides); NaN (printed
    /// `n/a`) when the sample cannot give one: fewer than two games (pairs), or all of
    /// them alike, whose sample variance of 0 would claim an interval of ± 0.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of the 95 % nElo interval (NaN, `n/a`, under the same conditions).
    pub nelo_error: f64,
}

/// `games_per_unit`: 1 for games, 2 for pairs.
fn estimate(dist: &[(f64, f64)], games_per_unit: f64) -> Option<Estimate> {
    let (n, s, v) = mean_var(dist)?;
    let se = (v / n).sqrt();
    let lo = elo((s - Z95 * se).max(0.0));
    let hi = elo((s + Z95 * se).min(1.0));
    let sigma = (games_per_unit * v).sqrt();
    let nelo = if sigma > 0.0 {
        (s - 0.5) / sigma * NELO_SCALE
    } else if s > 0.5 {
        f64::INFINITY
    } else if s < 0.5 {
        f64::NEG_INFINITY
    } else {
        0.0
    };
    let half = (hi - lo) / 2.0;
    // One sample, or samples all alike, estimate no spread: the normal interval would
    // be ± 0 (`Elo 0.0 ± 0.0` after one drawn game), which claims certainty.
    let known = n >= 2.0 && v > 0.0;
    Some(Estimate {
        score: s,
        elo: elo(s),
        elo_error: if known { half } else { f64::NAN },
        nelo,
        nelo_error: if known {
            Z95 / (n * games_per_unit).sqrt() * NELO_SCALE
        } else {
            f64::NAN
        },
    })
}

/// Trinomial (per-game) estimate.
pub fn trinomial(wdl: &Wdl) -> Option<Estimate> {
    estimate(&wdl.distribution(), 1.0)
}

/// Pentanomial (per-pair) estimate.
pub fn pentanomial(p: &Penta) -> Option<Estimate> {
    estimate(&p.distribution(), 2.0)
}

/// Likelihood of superiority: the probability that the engine is the stronger one.
pub fn los(wdl: &Wdl) -> Option<f64> {
    let decisive = (wdl.w + wdl.l) as f64;
    if decisive == 0.0 {
        return None;
    }
    Some(phi((wdl.w as f64 - wdl.l as f64) / decisive.sqrt()))
}

/// The SPRT's stopping bounds `(lower, upper)`.
pub fn sprt_bounds(spec: &SprtSpec) -> (f64, f64) {
    (
        (spec.beta / (1.0 - spec.alpha)).ln(),
        ((1.0 - spec.beta) / spec.alpha).ln(),
    )
}

/// The maximum-likelihood distribution on the points of `dist` (counts `c`) subject
/// to `(mean - ref)/sigma = t`. The constraint equals `Σ pᵢ·xᵢ = 0` with
/// `xᵢ = (aᵢ − ref) − t·((aᵢ − μ)² + σ²)/(2σ)` at the solution's own μ and σ, so we
/// iterate: fix μ, σ from the current guess, solve the linear-constraint MLE
/// `pᵢ = p̂ᵢ/(1 + θ·xᵢ)` for θ by bisection, repeat until it settles.
fn constrained_mle(dist: &[(f64, f64)], reference: f64, t: f64) -> Option<Vec<f64>> {
    let n: f64 = dist.iter().map(|&(_, c)| c).sum();
    let hat: Vec<f64> = dist.iter().map(|&(_, c)| c / n).collect();
    let a: Vec<f64> = dist.iter().map(|&(x, _)| x).collect();
    let mut p = hat.clone();
    for _ in 0..200 {
        let mu: f64 = p.iter().zip(&a).map(|(p, a)| p * a).sum();
        let var: f64 = p.iter().zip(&a).map(|(p, a)| p * (a - mu).powi(2)).sum();
        let sigma = var.sqrt();
        if sigma <= 0.0 {
            return None;
        }
        let x: Vec<f64> = a
            .iter()
            .map(|&ai| (ai - reference) - t * ((ai - mu).powi(2) + var) / (2.0 * sigma))
            .collect();
        let (xmin, xmax) = x
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        if xmin >= 0.0 || xmax <= 0.0 {
            return None;
        }
        // f(θ) = Σ p̂ᵢ xᵢ/(1 + θ xᵢ) falls strictly on (−1/xmax, −1/xmin).
        let f = |theta: f64| -> f64 {
            hat.iter()
                .zip(&x)
                .map(|(h, xi)| h * xi / (1.0 + theta * xi))
                .sum()
        };
        let (mut lo, mut hi) = (-1.0 / xmax, -1.0 / xmin);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let theta = 0.5 * (lo + hi);
        let next: Vec<f64> = hat
            .iter()
            .zip(&x)
            .map(|(h, xi)| h / (1.0 + theta * xi))
            .collect();
        let change: f64 = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).sum();
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(p)
}

/// The GSPRT log-likelihood ratio for a distribution of unit scores (games, or pair
/// means with `games_per_unit = 2`): `Σ cᵢ·ln(p₁ᵢ/p₀ᵢ)` with `pₖ` the MLE under
/// hypothesis k.
pub fn llr(dist: &[(f64, f64)], games_per_unit: f64, spec: &SprtSpec) -> f64 {
    // A pseudo-count on empty bins keeps a one-sided start (all wins) finite.
    let dist: Vec<(f64, f64)> = dist
        .iter()
        .map(|&(x, c)| (x, if c > 0.0 { c } else { 1e-3 }))
        .collect();
    let n: f64 = dist.iter().map(|&(_, c)| c).sum();
    if n < 1.0 {
        return 0.0;
    }
    let fit = |elo: f64| -> Option<Vec<f64>> {
        match spec.model {
            SprtModel::Normalized => {
                constrained_mle(&dist, 0.5, elo / NELO_SCALE * games_per_unit.sqrt())
            }
            SprtModel::Logistic => {
                // Mean score fixed: (μ − s)/σ = 0 around the hypothesis' score.
                let s = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                constrained_mle(&dist, s, 0.0)
            }
        }
    };
    let (Some(p0), Some(p1)) = (fit(spec.elo0), fit(spec.elo1)) else {
        return 0.0;
    };
    dist.iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, c), (q0, q1))| c * (q1 / q0).ln())
        .sum()
}

/// The SPRT's LLR of a match between two engines, from the first one's results: over
/// the pentanomial pairs when there are any (`-repeat`), else over the games. The one
/// place that choice is made: [`crate::output::tally::Tally::llr`] and the shards' summed
/// counts ([`crate::matchmaking::shard`]) both come here.
pub fn match_llr(wdl: &Wdl, penta: &Penta, spec: &SprtSpec) -> f64 {
    if penta.pairs() > 0 {
        llr(&penta.distribution(), 2.0, spec)
    } else {
        llr(&wdl.distribution(), 1.0, spec)
    }
}

/// What the SPRT concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The lower bound is crossed: H0 (elo0) accepted.
    H0,
    /// The upper bound is crossed: H1 (elo1) accepted.
    H1,
}

/// The decision for an LLR.
pub fn sprt_decision(llr: f64, spec: &SprtSpec) -> SprtDecision {
    let (lo, hi) = sprt_bounds(spec);
    if llr >= hi {
        SprtDecision::H1
    } else if llr <= lo {
        SprtDecision::H0
    } else {
        SprtDecision::Continue
    }
}

/// Formats an Elo value, with `inf` for a perfect score and `n/a` for an interval the
/// sample cannot give (NaN).
pub fn fmt_elo(e: f64) -> String {
    if e.is_nan() {
        "n/a".into()
    } else if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{:.1}", e + 0.0)
    }
}

/// Formats the half-width of an Elo interval: a number only while it is finite, else
/// `n/a`: where the sample gives no interval (NaN), and where one end of the score
/// interval reaches a score of 0 or 1 (one win and one draw), whose Elo is infinite, so
/// the half-width (the mean of the two sides) is too. `± +inf` would claim the
/// interval is known to be unbounded; it is only too wide to say.
pub fn fmt_elo_error(e: f64) -> String {
    if e.is_finite() {
        format!("{:.1}", e + 0.0)
    } else {
        "n/a".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_reaching_a_perfect_score_is_not_printed_as_infinite() {
        // One win and one draw: the score interval's upper end is 1, whose Elo is +inf.
        let e = trinomial(&Wdl { w: 1, l: 0, d: 1 }).unwrap();
        assert!(e.elo.is_finite() && e.elo_error.is_infinite());
        assert_eq!(fmt_elo_error(e.elo_error), "n/a");
        assert_eq!(fmt_elo_error(f64::NAN), "n/a");
        assert_eq!(fmt_elo_error(f64::NEG_INFINITY), "n/a");
        assert_eq!(fmt_elo_error(12.34), "12.3");
        assert_eq!(fmt_elo_error(-0.0), "0.0");
    }

    fn spec(elo0: f64, elo1: f64, model: SprtModel) -> SprtSpec {
        SprtSpec {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn elo_of_scores() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.848).abs() < 1e-3);
        assert!((elo(0.25) + 190.848).abs() < 1e-3);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn normal_distribution() {
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(Z95) - 0.975).abs() < 1e-6);
        assert!((phi(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    /// One or two games (or pairs) alike give no interval: `n/a`, never `± 0.0`.
    #[test]
    fn no_interval_from_samples_alike() {
        for wdl in [
            Wdl { w: 0, l: 0, d: 1 },
            Wdl { w: 0, l: 0, d: 2 },
            Wdl { w: 1, l: 0, d: 0 },
            Wdl { w: 0, l: 3, d: 0 },
        ] {
            let e = trinomial(&wdl).unwrap();
            assert_eq!(fmt_elo(e.elo_error), "n/a", "{wdl:?}");
            assert_eq!(fmt_elo(e.nelo_error), "n/a", "{wdl:?}");
        }
        let mut p = Penta::default();
        p.add(1.0);
        let e = pentanomial(&p).unwrap();
        assert_eq!(fmt_elo(e.elo_error), "n/a");
        // Games that differ do give one (infinite where it reaches a score of 1).
        let e = trinomial(&Wdl { w: 1, l: 0, d: 1 }).unwrap();
        assert_eq!(fmt_elo(e.elo_error), "+inf");
        let e = trinomial(&Wdl { w: 5, l: 4, d: 3 }).unwrap();
        assert!(e.elo_error.is_finite() && e.elo_error > 0.0);
        assert!(e.nelo_error.is_finite() && e.nelo_error > 0.0);
    }

    #[test]
    fn trinomial_by_hand() {
        // W=6 L=2 D=2: s = 0.7, v = (6·0.09 + 2·0.04 + 2·0.49)/10 = 0.16, se = sqrt(0.016).
        let wdl = Wdl { w: 6, l: 2, d: 2 };
        let e = trinomial(&wdl).unwrap();
        assert!((e.score - 0.7).abs() < 1e-12);
        let se = 0.016f64.sqrt();
        let half = (elo(0.7 + Z95 * se) - elo(0.7 - Z95 * se)) / 2.0;
        assert!((e.elo - 147.19).abs() < 0.01);
        assert!((e.elo_error - half).abs() < 1e-9);
        // nElo = 0.2/0.4 · 800/ln10 = 173.72.
        assert!((e.nelo - 173.718).abs() < 1e-2);
        // LOS = Φ(4/sqrt(8)) = Φ(1.41421) = 0.92135.
        assert!((los(&wdl).unwrap() - 0.921_35).abs() < 1e-4);
        assert!(trinomial(&Wdl::default()).is_none());
        assert!(los(&Wdl { w: 0, l: 0, d: 3 }).is_none());
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs: one 0, two ½ (=¼ mean), three 1 (=½), ... counts [1,2,3,2,2]:
        // mean = (0 + 2·0.25 + 3·0.5 + 2·0.75 + 2·1)/10 = 0.55,
        // var = (0.3025 + 2·0.09 + 3·0.0025 + 2·0.04 + 2·0.2025)/10 = 0.0975.
        let p = Penta([1, 2, 3, 2, 2]);
        let e = pentanomial(&p).unwrap();
        assert!((e.score - 0.55).abs() < 1e-12);
        let se = (0.0975f64 / 10.0).sqrt();
        let half = (elo(0.55 + Z95 * se) - elo(0.55 - Z95 * se)) / 2.0;
        assert!((e.elo_error - half).abs() < 1e-9);
        assert!((e.nelo - 0.05 / (0.195f64).sqrt() * NELO_SCALE).abs() < 1e-9);
        let mut q = Penta::default();
        q.add(2.0);
        q.add(0.5);
        q.add(1.0);
        assert_eq!(q.0, [0, 1, 1, 0, 1]);
    }

    #[test]
    fn sprt_matches_reference_values() {
        // Reference LLRs of the exact normalized GSPRT for these counts: 0.92 and 2.30.
        let d = Wdl {
            w: 36433,
            l: 36027,
            d: 68692,
        };
        let l = llr(
            &d.distribution(),
            1.0,
            &spec(0.0, 2.0, SprtModel::Normalized),
        );
        assert!((l - 0.92).abs() < 0.01, "{l}");
        let d = Wdl {
            w: 10871,
            l: 10650,
            d: 20431,
        };
        let l = llr(
            &d.distribution(),
            1.0,
            &spec(-1.75, 0.25, SprtModel::Normalized),
        );
        assert!((l - 2.30).abs() < 0.01, "{l}");
        // All wins: the published value is 120.56 (pseudo-count 0.001 on empty bins).
        let d = Wdl {
            w: 4250,
            l: 0,
            d: 0,
        };
        let l = llr(
            &d.distribution(),
            1.0,
            &spec(0.0, 10.0, SprtModel::Normalized),
        );
        assert!((l - 120.56).abs() < 1.2, "{l}");
        let d = Wdl {
            w: 21404,
            l: 21184,
            d: 40708,
        };
        let l = llr(&d.distribution(), 1.0, &spec(0.5, 2.5, SprtModel::Logistic));
        assert!((l + 1.57).abs() < 0.02, "{l}");
        let d = Wdl {
            w: 57433,
            l: 57030,
            d: 106593,
        };
        let l = llr(&d.distribution(), 1.0, &spec(0.0, 2.0, SprtModel::Logistic));
        assert!((l + 2.59).abs() < 0.03, "{l}");
        let (lo, hi) = sprt_bounds(&spec(0.0, 5.0, SprtModel::Normalized));
        assert!((lo + 2.944_438_98).abs() < 1e-6 && (hi - 2.944_438_98).abs() < 1e-6);
        assert_eq!(
            sprt_decision(3.0, &spec(0.0, 5.0, SprtModel::Normalized)),
            SprtDecision::H1
        );
        assert_eq!(
            sprt_decision(-3.0, &spec(0.0, 5.0, SprtModel::Normalized)),
            SprtDecision::H0
        );
    }

    #[test]
    fn logistic_sprt_direction() {
        let d = Wdl {
            w: 400,
            l: 600,
            d: 0,
        };
        assert!(
            llr(
                &d.distribution(),
                1.0,
                &spec(0.0, 10.0, SprtModel::Logistic)
            ) < 0.0
        );
        let p = Penta([0, 10, 20, 40, 30]);
        assert!(
            llr(
                &p.distribution(),
                2.0,
                &spec(0.0, 10.0, SprtModel::Normalized)
            ) > 0.0
        );
    }
}

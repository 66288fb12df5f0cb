//! The rating model and its fit: the logistic Elo model over every game at once, as
//! Ordo fits it (a rating per player such that each player's expected score equals its
//! score; the first mover's advantage fitted so that the first movers' expected total
//! equals theirs; the draw rate between equal opponents fitted so that the expected
//! number of draws equals the count), solved here by Newton's method on the
//! log-likelihood whose stationary point those equations are, not by Ordo's stepping.

/// Every game of the pool, summed per ordered pair (first mover, second mover).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pool {
    /// Player names, in order of first appearance.
    pub names: Vec<String>,
    /// Per (first mover, second mover): the first mover's wins, draws and losses.
    pub encounters: Vec<Encounter>,
}

/// The games of one ordered pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Encounter {
    /// The first mover (index into [`Pool::names`]).
    pub first: usize,
    /// The second mover.
    pub second: usize,
    /// The first mover's wins, draws and losses.
    pub wdl: [u64; 3],
}

impl Encounter {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// The first mover's points.
    pub fn points(&self) -> f64 {
        self.wdl[0] as f64 + self.wdl[1] as f64 / 2.0
    }
}

impl Pool {
    /// The index of `name`, added if new.
    pub fn player(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_string());
                self.names.len() - 1
            }
        }
    }

    /// Counts one game: `first_score` is the first mover's (1, ½ or 0).
    pub fn add(&mut self, first: &str, second: &str, first_score: f64) {
        let (f, s) = (self.player(first), self.player(second));
        self.add_indices(f, s, first_score, 1);
    }

    /// Counts `n` games of players `f` (first) and `s` with the same result.
    pub fn add_indices(&mut self, f: usize, s: usize, first_score: f64, n: u64) {
        let cell = if first_score > 0.75 {
            0
        } else if first_score > 0.25 {
            1
        } else {
            2
        };
        match self
            .encounters
            .iter_mut()
            .find(|e| e.first == f && e.second == s)
        {
            Some(e) => e.wdl[cell] += n,
            None => {
                let mut wdl = [0; 3];
                wdl[cell] = n;
                self.encounters.push(Encounter {
                    first: f,
                    second: s,
                    wdl,
                });
            }
        }
    }

    /// Games played in all.
    pub fn games(&self) -> u64 {
        self.encounters.iter().map(Encounter::games).sum()
    }

    /// Per player: (points, games).
    pub fn scores(&self) -> Vec<(f64, u64)> {
        let mut out = vec![(0.0, 0); self.names.len()];
        for e in &self.encounters {
            let p = e.points();
            out[e.first].0 += p;
            out[e.first].1 += e.games();
            out[e.second].0 += e.games() as f64 - p;
            out[e.second].1 += e.games();
        }
        out
    }

    /// Per unordered pair `(a, b)` with `a < b`: a's points and the games.
    pub fn cross(&self) -> std::collections::BTreeMap<(usize, usize), (f64, u64)> {
        let mut out = std::collections::BTreeMap::new();
        for e in &self.encounters {
            let (a, b, pa) = if e.first < e.second {
                (e.first, e.second, e.points())
            } else {
                (e.second, e.first, e.games() as f64 - e.points())
            };
            let c: &mut (f64, u64) = out.entry((a, b)).or_default();
            c.0 += pa;
            c.1 += e.games();
        }
        out
    }
}

/// A parameter of the model that is either fixed or fitted to the games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param {
    /// Given (first-mover advantage in Elo; draw rate as a fraction).
    Fixed(f64),
    /// Fitted (Ordo's `-W`, `-D`).
    Fitted,
}

/// Where the scale is pinned.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// The average of the players without a perfect score (Ordo's pool average).
    Average(f64),
    /// One player at a given rating (Ordo's `-A NAME -a RATING`).
    Anchor(String, f64),
}

/// How the pool is rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The rating difference that gives a 76 % expected score (Ordo's `-z`; the Elo
    /// formula's is 400·log10(0.76/0.24) = 200.24, Ordo's default 202).
    pub scale: f64,
    /// The first mover's advantage (Ordo's `-w` / `-W`).
    pub white: Param,
    /// The draw rate between equal opponents (Ordo's `-d` / `-D`).
    pub draw: Param,
    /// Pool average or anchor.
    pub reference: Reference,
    /// Simulated runs for the error bars (Ordo's `-s`; 0 or 1: none).
    pub simulations: u32,
    /// Confidence of the error bars, in % (Ordo's `-F`).
    pub confidence: f64,
    /// Seed of the simulations.
    pub seed: u64,
}

/// The Elo formula's rating difference for a 76 % expected score.
pub const ELO_SCALE: f64 = 200.240_905_178_614_36;

impl Default for Settings {
    /// Ordo's defaults but the scale (the Elo formula's) and the pool average (0):
    /// no first-mover advantage, draw rate 50 %, 1000 simulations, 95 %.
    fn default() -> Settings {
        Settings {
            scale: ELO_SCALE,
            white: Param::Fixed(0.0),
            draw: Param::Fixed(0.5),
            reference: Reference::Average(0.0),
            simulations: 1000,
            confidence: 95.0,
            seed: 1,
        }
    }
}

impl Settings {
    /// The logistic slope: expected score `1/(1 + exp(−beta·Δ))`.
    pub fn beta(&self) -> f64 {
        if (self.scale - ELO_SCALE).abs() < 1e-9 {
            std::f64::consts::LN_10 / 400.0
        } else {
            (0.76f64 / 0.24).ln() / self.scale
        }
    }
}

/// How a player's rating was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// By the fit.
    Normal,
    /// Won every game: the rating at which that result has probability ½ (Ordo's rule).
    AllWins,
    /// Lost every game: likewise.
    AllLosses,
    /// Played no game (not rated).
    NoGames,
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Per player.
    pub ratings: Vec<f64>,
    /// Per player.
    pub kinds: Vec<Kind>,
    /// Per player, its group (players in different groups were not connected by wins
    /// and losses both ways, so their ratings cannot be compared).
    pub group: Vec<usize>,
    /// Groups found (1 for a well-connected pool).
    pub groups: usize,
    /// The first mover's advantage, Elo.
    pub white: f64,
    /// The draw rate between equal opponents (0–1).
    pub draw: f64,
}

/// The logistic expected score of a rating difference.
pub fn expect(delta: f64, beta: f64) -> f64 {
    1.0 / (1.0 + (-beta * delta).exp())
}

/// Ordo's draw model: the draw probability given the expected score `p` and the draw
/// rate between equal opponents `d0`, from `d² / (win·loss) = const`, which with
/// `win = p − d/2`, `loss = 1 − p − d/2` is `4(p² − p) + 2d + a·d² = 0`,
/// `a = (1 − 2·d0)/d0²`.
pub fn draw_probability(p: f64, d0: f64) -> f64 {
    if d0 < 1e-5 {
        return (2.0 * d0 * (p - p * p).max(0.0).sqrt() - d0 * d0).max(0.0);
    }
    let a = (1.0 - 2.0 * d0) / (d0 * d0);
    let c = 4.0 * (p * p - p);
    if a.abs() < 1e-9 {
        -c / 2.0
    } else {
        ((1.0 - a * c).max(0.0).sqrt() - 1.0) / a
    }
}

/// Win, draw and loss probabilities of the side `delta` Elo stronger (advantage
/// included), floored at 1e-32 as Ordo does.
pub fn wdl_probabilities(delta: f64, d0: f64, beta: f64) -> [f64; 3] {
    const MIN: f64 = 1e-32;
    let p = expect(delta.abs(), beta);
    let d = draw_probability(p, d0).max(MIN);
    let loss = (1.0 - p - d / 2.0).max(MIN);
    let win = (1.0 - loss - d).max(MIN);
    if delta < 0.0 {
        [loss, d, win]
    } else {
        [win, d, loss]
    }
}

/// Fits the model to the pool (no normalization, no simulation): see the module's
/// documentation and [`rate`](super::rate).
pub fn fit(pool: &Pool, settings: &Settings) -> Fit {
    let n = pool.names.len();
    let beta = settings.beta();
    let scores = pool.scores();
    // Ordo's one pass: a perfect score (all wins or all losses) has no finite
    // maximum-likelihood rating; it is set aside and rated afterwards.
    let kinds: Vec<Kind> = scores
        .iter()
        .map(|&(pts, games)| kind(pts, games))
        .collect();
    let normal = |i: usize| kinds[i] == Kind::Normal;
    let inner: Vec<Encounter> = pool
        .encounters
        .iter()
        .copied()
        .filter(|e| normal(e.first) && normal(e.second))
        .collect();
    // Groups: strongly connected components of "scored against" among the others.
    let mut group = vec![usize::MAX; n];
    let mut groups = components(n, &inner, &kinds, &mut group);
    let mut ratings = vec![0.0; n];
    let mut white = match settings.white {
        Param::Fixed(w) => w,
        Param::Fitted => 0.0,
    };
    newton(
        &inner,
        &group,
        groups,
        beta,
        settings.white == Param::Fitted,
        &mut ratings,
        &mut white,
    );
    let draw = match settings.draw {
        Param::Fixed(d) => d,
        Param::Fitted => fit_draw_rate(&inner, &ratings, white, beta).unwrap_or(0.5),
    };
    let mut fixed: Vec<bool> = (0..n).map(normal).collect();
    fix_orphan_losers(pool, &kinds, &mut fixed, &mut group, &mut groups);
    rate_perfect_scores(
        pool,
        &kinds,
        &fixed,
        &mut group,
        &mut ratings,
        white,
        draw,
        beta,
    );
    Fit {
        ratings,
        kinds,
        group,
        groups,
        white,
        draw,
    }
}

/// A player's kind by its score: `pts` points of `games`.
fn kind(pts: f64, games: u64) -> Kind {
    if games == 0 {
        Kind::NoGames
    } else if pts < 0.001 {
        Kind::AllLosses
    } else if games as f64 - pts < 0.001 {
        Kind::AllWins
    } else {
        Kind::Normal
    }
}

/// A pool of perfect scores only (every game a sweep): its losers are the reference
/// the winners are rated against. Marks as `fixed`, each in a new group of its own,
/// every all-losses player with no `fixed` opponent that reaches no `fixed` player.
fn fix_orphan_losers(
    pool: &Pool,
    kinds: &[Kind],
    fixed: &mut [bool],
    group: &mut [usize],
    groups: &mut usize,
) {
    let n = kinds.len();
    let any_normal_opponent = |i: usize| {
        pool.encounters
            .iter()
            .any(|e| (e.first == i && fixed[e.second]) || (e.second == i && fixed[e.first]))
    };
    let orphans: Vec<usize> = (0..n)
        .filter(|&i| kinds[i] == Kind::AllLosses && !any_normal_opponent(i))
        .collect();
    for i in orphans {
        // Losers reached only through other perfect scores stay with them; a loser
        // whose every opponent is a winner who met no rated player is a reference.
        let reached = reachable_rated(pool, i, fixed);
        if !reached {
            fixed[i] = true;
            group[i] = *groups;
            *groups += 1;
        }
    }
}

/// True if player `i` reaches, through the games (any result), a player in `fixed`.
fn reachable_rated(pool: &Pool, i: usize, fixed: &[bool]) -> bool {
    let n = pool.names.len();
    let mut seen = vec![false; n];
    let mut stack = vec![i];
    seen[i] = true;
    while let Some(x) = stack.pop() {
        for e in &pool.encounters {
            let y = if e.first == x {
                e.second
            } else if e.second == x {
                e.first
            } else {
                continue;
            };
            if fixed[y] {
                return true;
            }
            if !seen[y] {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    false
}

/// The groups of the players with [`Kind::Normal`]: strongly connected components of
/// the graph with an edge a → b when a scored against b (a win or a draw). Within
/// one, the maximum-likelihood ratings exist; between two, one swept the other (or
/// they never met) and the difference is unbounded. Returns how many; `group[i]` is
/// set for each normal player, numbered in order of their first player.
fn components(n: usize, inner: &[Encounter], kinds: &[Kind], group: &mut [usize]) -> usize {
    let mut scored = vec![vec![false; n]; n];
    for e in inner {
        if e.wdl[0] + e.wdl[1] > 0 {
            scored[e.first][e.second] = true;
        }
        if e.wdl[2] + e.wdl[1] > 0 {
            scored[e.second][e.first] = true;
        }
    }
    // reach[a][b]: a path of "scored against" from a to b (Floyd–Warshall closure:
    // pools are small).
    let mut reach = scored;
    for (i, row) in reach.iter_mut().enumerate() {
        row[i] = true;
    }
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (cell, &v) in row.iter_mut().zip(&via) {
                    *cell |= v;
                }
            }
        }
    }
    let mut count = 0;
    for a in 0..n {
        if kinds[a] != Kind::Normal || group[a] != usize::MAX {
            continue;
        }
        for b in a..n {
            if kinds[b] == Kind::Normal && reach[a][b] && reach[b][a] {
                group[b] = count;
            }
        }
        count += 1;
    }
    count
}

/// Maximizes the log-likelihood of the games between normal players (draws half a
/// win, Ordo's estimate) over their ratings and, with `fit_white`, the first mover's
/// advantage: Newton's method with the first player of each group held at 0 (the
/// scale's free offset) and the step halved until the likelihood rises.
fn newton(
    inner: &[Encounter],
    group: &[usize],
    groups: usize,
    beta: f64,
    fit_white: bool,
    ratings: &mut [f64],
    white: &mut f64,
) {
    let fit = Newton::new(inner, group, groups, beta, fit_white, ratings.len());
    if fit.nv == 0 || inner.is_empty() {
        return;
    }
    let mut current = fit.loglik(ratings, *white);
    for _ in 0..200 {
        let (g, h) = fit.derivatives(ratings, *white);
        let gmax = g.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        if gmax < 1e-11 {
            break;
        }
        // The step: H·step = g (H here is minus the Hessian, positive definite).
        let Some(step) = solve(h, g) else { break };
        let (t, improved) = fit.line_search(&step, ratings, white, &mut current);
        let smax = step.iter().fold(0.0f64, |m, x| m.max(x.abs())) * t;
        if !improved && smax < 1e-9 || smax < 1e-10 {
            break;
        }
    }
}

/// What [`newton`] works over: the games, and which variable each player's rating and
/// the advantage are (`usize::MAX`: held fixed).
struct Newton<'a> {
    inner: &'a [Encounter],
    beta: f64,
    /// Each player's variable: every normal player but the first of its group.
    var: Vec<usize>,
    /// The advantage's variable, with `fit_white`.
    wv: Option<usize>,
    /// How many variables.
    nv: usize,
}

impl<'a> Newton<'a> {
    fn new(
        inner: &'a [Encounter],
        group: &[usize],
        groups: usize,
        beta: f64,
        fit_white: bool,
        players: usize,
    ) -> Self {
        let mut var = vec![usize::MAX; players];
        let mut pinned = vec![false; groups];
        let mut nv = 0;
        for (i, &g) in group.iter().enumerate() {
            if g == usize::MAX {
                continue;
            }
            if pinned[g] {
                var[i] = nv;
                nv += 1;
            } else {
                pinned[g] = true;
            }
        }
        let wv = fit_white.then(|| {
            nv += 1;
            nv - 1
        });
        Newton {
            inner,
            beta,
            var,
            wv,
            nv,
        }
    }

    /// The log-likelihood of the games at ratings `r` and advantage `w`.
    fn loglik(&self, r: &[f64], w: f64) -> f64 {
        self.inner
            .iter()
            .map(|e| {
                let f = expect(r[e.first] + w - r[e.second], self.beta).clamp(1e-300, 1.0 - 1e-16);
                let s = e.points();
                s * f.ln() + (e.games() as f64 - s) * (1.0 - f).ln()
            })
            .sum()
    }

    /// The log-likelihood's gradient and minus its Hessian over the variables.
    fn derivatives(&self, ratings: &[f64], white: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
        let (beta, nv) = (self.beta, self.nv);
        let mut g = vec![0.0; nv];
        let mut h = vec![vec![0.0; nv]; nv];
        for e in self.inner {
            let f = expect(ratings[e.first] + white - ratings[e.second], beta);
            let n = e.games() as f64;
            let grad = beta * (e.points() - n * f);
            let curv = beta * beta * n * f * (1.0 - f);
            // d(delta)/d(var): +1 for the first mover and the advantage, -1 for the second.
            let idx = [
                (self.var[e.first], 1.0),
                (self.var[e.second], -1.0),
                (self.wv.unwrap_or(usize::MAX), 1.0),
            ];
            for &(a, sa) in &idx {
                if a == usize::MAX {
                    continue;
                }
                g[a] += sa * grad;
                for &(b, sb) in &idx {
                    if b != usize::MAX {
                        h[a][b] += sa * sb * curv;
                    }
                }
            }
        }
        (g, h)
    }

    /// Takes `step`, halved until the likelihood does not fall (60 halvings at most),
    /// updating the ratings, the advantage and `current`; returns the fraction taken
    /// and whether the likelihood rose.
    fn line_search(
        &self,
        step: &[f64],
        ratings: &mut [f64],
        white: &mut f64,
        current: &mut f64,
    ) -> (f64, bool) {
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..60 {
            let mut r = ratings.to_vec();
            for (i, &v) in self.var.iter().enumerate() {
                if v != usize::MAX {
                    r[i] += t * step[v];
                }
            }
            let w = match self.wv {
                Some(v) => (*white + t * step[v]).clamp(-1000.0, 1000.0),
                None => *white,
            };
            let l = self.loglik(&r, w);
            if l >= *current - 1e-12 * current.abs() {
                ratings.copy_from_slice(&r);
                *white = w;
                improved = l > *current;
                *current = l;
                break;
            }
            t /= 2.0;
        }
        (t, improved)
    }
}

/// Solves `a·x = b` (Gaussian elimination, partial pivoting); `None` when singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[piv][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let pivot_row = a[col].clone();
                for (cell, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// The draw rate between equal opponents at which the model expects as many draws as
/// were played (Ordo's `-D`); `None` without games.
fn fit_draw_rate(inner: &[Encounter], ratings: &[f64], white: f64, beta: f64) -> Option<f64> {
    if inner.is_empty() {
        return None;
    }
    let observed: f64 = inner.iter().map(|e| e.wdl[1] as f64).sum();
    let expected = |d0: f64| -> f64 {
        inner
            .iter()
            .map(|e| {
                let f = expect(ratings[e.first] + white - ratings[e.second], beta);
                e.games() as f64 * draw_probability(f, d0)
            })
            .sum()
    };
    // Expected draws rise with d0: bisection.
    let (mut lo, mut hi) = (0.0f64, 0.999f64);
    if expected(lo) >= observed {
        return Some(0.0);
    }
    if expected(hi) <= observed {
        return Some(hi);
    }
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if expected(mid) < observed {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

/// Rates the perfect scores (Ordo's rule, our statement of it): an engine that won
/// every game gets the rating at which winning all of them had probability ½ (under
/// the fitted draw model and advantage), one that lost every game likewise, so the
/// rating is finite and the more games swept, the higher. Each is rated once, in
/// turn, against the opponents rated before it (Ordo too rates them once, in file
/// order, but against whatever rating the others held then).
#[allow(clippy::too_many_arguments)]
fn rate_perfect_scores(
    pool: &Pool,
    kinds: &[Kind],
    fixed: &[bool],
    group: &mut [usize],
    ratings: &mut [f64],
    white: f64,
    d0: f64,
    beta: f64,
) {
    let n = ratings.len();
    let supers: Vec<usize> = (0..n)
        .filter(|&i| matches!(kinds[i], Kind::AllWins | Kind::AllLosses) && !fixed[i])
        .collect();
    if supers.is_empty() {
        return;
    }
    let mut known: Vec<bool> = fixed.to_vec();
    let solve_one = |i: usize, ratings: &[f64], known: &[bool]| -> Option<f64> {
        // The rated opponents as (rating less the first mover's advantage, games).
        let opp: Vec<(f64, f64)> = opponents(pool, i)
            .into_iter()
            .filter(|&(o, _, _)| known[o])
            .map(|(o, games, first)| {
                let adv = if first { white } else { -white };
                (ratings[o] - adv, games as f64)
            })
            .collect();
        if opp.is_empty() {
            return None;
        }
        Some(perfect_rating(&opp, kinds[i] == Kind::AllWins, d0, beta))
    };
    // One pass, as Ordo rates them: each in turn (by name, so that the order the
    // games were read in does not matter) against the opponents rated before it; a
    // perfect score whose every opponent is still unrated waits for the next round.
    // Iterating further is not bounded: a winner rated against a loser rated against
    // the winner climbs without end.
    let mut pending = supers;
    pending.sort_by(|&a, &b| pool.names[a].cmp(&pool.names[b]));
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|&i| match solve_one(i, ratings, &known) {
            Some(x) => {
                ratings[i] = x;
                known[i] = true;
                // Its group: that of its rated opponent with the most games.
                group[i] = opponents(pool, i)
                    .into_iter()
                    .filter(|&(o, _, _)| group[o] != usize::MAX)
                    .max_by_key(|&(_, g, _)| g)
                    .map(|(o, _, _)| group[o])
                    .unwrap_or(0);
                false
            }
            None => true,
        });
        if pending.len() == before {
            break;
        }
    }
}

/// Player `i`'s opponents as (opponent, games, `i` moved first), one an encounter.
fn opponents(pool: &Pool, i: usize) -> Vec<(usize, u64, bool)> {
    pool.encounters
        .iter()
        .filter_map(|e| {
            if e.first == i {
                Some((e.second, e.games(), true))
            } else if e.second == i {
                Some((e.first, e.games(), false))
            } else {
                None
            }
        })
        .collect()
}

/// The rating at which a perfect score (all wins with `wins`, else all losses) against
/// `opp` (each opponent's rating, advantage taken out, and games) had probability ½:
/// bisection over ±20000 around the opponents' mean.
fn perfect_rating(opp: &[(f64, f64)], wins: bool, d0: f64, beta: f64) -> f64 {
    // log P(the perfect result) at rating x; rises with x for a winner.
    let logp = |x: f64| -> f64 {
        opp.iter()
            .map(|&(r, g)| {
                let p = wdl_probabilities(x - r, d0, beta);
                g * if wins { p[0] } else { p[2] }.ln()
            })
            .sum()
    };
    let target = 0.5f64.ln();
    let centre = opp.iter().map(|o| o.0).sum::<f64>() / opp.len() as f64;
    let (mut lo, mut hi) = (centre - 20000.0, centre + 20000.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        let too_high = if wins {
            logp(mid) > target
        } else {
            logp(mid) < target
        };
        if too_high {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Shifts each group so that the reference holds: its players without a perfect score
/// average `value` (all of its players where every one has a perfect score), or, in
/// the anchor's group, the anchor is at its rating. `basis`, if given, names the
/// players the average is taken over instead (the simulations keep the real pool's,
/// so that a simulated perfect score does not move the reference).
pub fn normalize(
    fit: &mut Fit,
    reference: &Reference,
    anchor: Option<usize>,
    basis: Option<&[bool]>,
) {
    let (value, anchor_group) = match reference {
        Reference::Average(v) => (*v, None),
        Reference::Anchor(_, v) => (*v, anchor.map(|a| (a, fit.group[a]))),
    };
    for g in 0..fit.groups {
        let members: Vec<usize> = (0..fit.ratings.len())
            .filter(|&i| fit.group[i] == g)
            .collect();
        if members.is_empty() {
            continue;
        }
        let shift = match anchor_group {
            Some((a, ag)) if ag == g => value - fit.ratings[a],
            _ => {
                let normal: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&i| match basis {
                        Some(b) => b[i],
                        None => fit.kinds[i] == Kind::Normal,
                    })
                    .collect();
                let basis = if normal.is_empty() { &members } else { &normal };
                value - basis.iter().map(|&i| fit.ratings[i]).sum::<f64>() / basis.len() as f64
            }
        };
        for &i in &members {
            fit.ratings[i] += shift;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(games: &[(&str, &str, [u64; 3])]) -> Pool {
        let mut p = Pool::default();
        for &(a, b, wdl) in games {
            let (f, s) = (p.player(a), p.player(b));
            for (cell, n) in wdl.iter().enumerate() {
                p.add_indices(f, s, 1.0 - cell as f64 / 2.0, *n);
            }
        }
        p
    }

    /// Two players: the difference is the Elo formula's for the score, split around
    /// the average.
    #[test]
    fn two_players_get_the_elo_formulas_difference() {
        // a scores 7 of 10 against b.
        let p = pool(&[("a", "b", [3, 1, 1]), ("b", "a", [1, 1, 3])]);
        let s = Settings::default();
        let mut f = fit(&p, &s);
        normalize(&mut f, &s.reference, None, None);
        let d = 400.0 * (0.7f64 / 0.3).log10();
        assert!((f.ratings[0] - d / 2.0).abs() < 1e-6, "{:?}", f.ratings);
        assert!((f.ratings[1] + d / 2.0).abs() < 1e-6, "{:?}", f.ratings);
    }

    /// Ordo's equations hold at the fit: every player's expected score is its score,
    /// the first movers' expected total is theirs (with -W), the expected draws are the
    /// draws (with -D).
    #[test]
    fn the_fit_solves_ordos_equations() {
        let p = pool(&[
            ("a", "b", [5, 3, 2]),
            ("b", "a", [4, 2, 4]),
            ("a", "c", [6, 2, 2]),
            ("c", "a", [3, 3, 4]),
            ("b", "c", [4, 4, 2]),
            ("c", "b", [2, 5, 3]),
            ("d", "a", [1, 2, 7]),
            ("b", "d", [6, 3, 1]),
            ("d", "c", [3, 2, 5]),
        ]);
        let s = Settings {
            white: Param::Fitted,
            draw: Param::Fitted,
            ..Settings::default()
        };
        let f = fit(&p, &s);
        let beta = s.beta();
        let mut expected = [0.0; 4];
        let (mut first_exp, mut first_obs, mut draw_exp, mut draw_obs) = (0.0, 0.0, 0.0, 0.0);
        for e in &p.encounters {
            let x = expect(f.ratings[e.first] + f.white - f.ratings[e.second], beta);
            let n = e.games() as f64;
            expected[e.first] += n * x;
            expected[e.second] += n * (1.0 - x);
            first_exp += n * x;
            first_obs += e.points();
            draw_exp += n * draw_probability(x, f.draw);
            draw_obs += e.wdl[1] as f64;
        }
        for (i, (pts, _)) in p.scores().iter().enumerate() {
            assert!(
                (expected[i] - pts).abs() < 1e-6,
                "{i}: {} {pts}",
                expected[i]
            );
        }
        assert!((first_exp - first_obs).abs() < 1e-6);
        assert!((draw_exp - draw_obs).abs() < 1e-6);
        assert!(f.white > 0.0 && f.draw > 0.0 && f.groups == 1);
    }

    /// The draw model: `d0` between equal opponents, fewer draws as the gap grows,
    /// probabilities that add up to 1.
    #[test]
    fn the_draw_model_is_ordos() {
        let beta = std::f64::consts::LN_10 / 400.0;
        for d0 in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9] {
            assert!((draw_probability(0.5, d0) - d0).abs() < 1e-9, "{d0}");
            let mut last = 1.0;
            for delta in [0.0, 100.0, 300.0, 800.0] {
                let p = wdl_probabilities(delta, d0, beta);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                // The expected score is the logistic one, whatever d0.
                assert!((p[0] + p[1] / 2.0 - expect(delta, beta)).abs() < 1e-9);
                assert!(p[1] <= last + 1e-12);
                last = p[1];
            }
        }
    }

    /// A sweep gets the rating at which the sweep had probability 1/2 (finite, and
    /// higher for a longer sweep).
    #[test]
    fn a_perfect_score_is_bounded_by_ordos_rule() {
        let beta = std::f64::consts::LN_10 / 400.0;
        let mut last = f64::NEG_INFINITY;
        for n in [1u64, 4, 16] {
            let p = pool(&[
                ("a", "b", [n, 0, 0]),
                ("b", "c", [2, 1, 1]),
                ("c", "b", [1, 2, 1]),
            ]);
            let f = fit(&p, &Settings::default());
            assert_eq!(f.kinds[0], Kind::AllWins);
            let x = f.ratings[0] - f.ratings[1];
            let pw = wdl_probabilities(x, 0.5, beta)[0];
            assert!((pw.powi(n as i32) - 0.5).abs() < 1e-6, "{n}: {x}");
            assert!(x.is_finite() && x > last);
            last = x;
        }
        // Nothing but a sweep: the loser is the reference, the winner rated against it.
        let p = pool(&[("x", "y", [5, 0, 0])]);
        let f = fit(&p, &Settings::default());
        assert_eq!((f.kinds[0], f.kinds[1]), (Kind::AllWins, Kind::AllLosses));
        assert!(f.ratings[0].is_finite() && f.ratings[0] > f.ratings[1]);
        // A winner whose losers met only it: rated once each, bounded (rating them
        // against each other until nothing moved climbed without end, and hung the
        // end-of-run list of a three-engine run).
        let p = pool(&[("g", "r", [2, 0, 0]), ("g", "s", [2, 0, 0])]);
        let f = fit(&p, &Settings::default());
        assert!(
            f.ratings.iter().all(|r| r.is_finite() && r.abs() < 2000.0),
            "{:?}",
            f.ratings
        );
        assert!(f.ratings[0] > f.ratings[1] && f.ratings[0] > f.ratings[2]);
    }

    /// Two pools that never met, or where one swept the other, are groups of their
    /// own, each normalized to the reference.
    #[test]
    fn unconnected_pools_are_rated_in_groups() {
        let p = pool(&[
            ("a", "b", [2, 1, 1]),
            ("b", "a", [1, 1, 2]),
            ("c", "d", [3, 1, 0]),
            ("d", "c", [0, 2, 2]),
        ]);
        let s = Settings::default();
        let mut f = fit(&p, &s);
        normalize(&mut f, &Reference::Anchor("a".into(), 100.0), Some(0), None);
        assert_eq!(f.groups, 2);
        assert_eq!((f.group[0], f.group[1]), (0, 0));
        assert_eq!((f.group[2], f.group[3]), (1, 1));
        assert!((f.ratings[0] - 100.0).abs() < 1e-9);
        assert!(((f.ratings[2] + f.ratings[3]) / 2.0 - 100.0).abs() < 1e-9);
    }
}

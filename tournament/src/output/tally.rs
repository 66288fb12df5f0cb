//! The running count of a run's games: per engine, per pair (trinomial and
//! pentanomial), per ending, distinct games; and the SPRT's LLR over it ([`Tally::llr`],
//! the one the runner, the shards and the merge all use).

use crate::output::results::{Ending, GameRecord};
use crate::output::stats::{self, Penta, SprtSpec, Wdl};
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

/// Per engine pair (a < b), from a's point of view.
#[derive(Clone, Debug, Default)]
struct PairTally {
    wdl: Wdl,
    penta: Penta,
    /// First finished game of each colour-swapped pair: a's score in it.
    open_pairs: HashMap<u64, f64>,
    /// Pairs of one win and one loss (the pentanomial's score-1 cell less its two
    /// draws: fastchess's `WL/DD Ratio`).
    win_loss_pairs: u64,
}

/// Everything the statistics are computed from.
#[derive(Clone, Debug)]
pub struct Tally {
    names: Vec<String>,
    per_engine: Vec<Wdl>,
    /// Per engine, its results as the first mover (`[0]`) and as the second (`[1]`).
    per_side: Vec<[Wdl; 2]>,
    pairs: HashMap<(usize, usize), PairTally>,
    /// Games per ending, and per culprit (the engine that lost by its fault; "" for
    /// endings by the rules and adjudications).
    endings: BTreeMap<Ending, BTreeMap<String, u64>>,
    /// Games counted.
    pub games: u64,
    /// Each counted game's players, start and moves, hashed: games that replay an
    /// earlier one move for move count once here.
    distinct: std::collections::HashSet<u64>,
    /// The games in the order counted: first mover, second mover, the first mover's
    /// score, the pair key (for the rating list and the HTML page's charts).
    sequence: Vec<(usize, usize, f64, Option<u64>)>,
}

impl Tally {
    /// An empty tally for these engines.
    pub fn new(names: Vec<String>) -> Tally {
        Tally {
            per_engine: vec![Wdl::default(); names.len()],
            per_side: vec![[Wdl::default(); 2]; names.len()],
            names,
            pairs: HashMap::new(),
            endings: BTreeMap::new(),
            games: 0,
            distinct: std::collections::HashSet::new(),
            sequence: Vec::new(),
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Counts one game (records whose players are unknown are ignored).
    pub fn add(&mut self, rec: &GameRecord) {
        let (Some(f), Some(s)) = (self.index(&rec.players[0]), self.index(&rec.players[1])) else {
            return;
        };
        let first_score = rec.result.first_score();
        self.count(f, s, first_score, rec.pair_key);
        let culprit = rec.culprit().unwrap_or_default().to_string();
        *self
            .endings
            .entry(rec.ending())
            .or_default()
            .entry(culprit)
            .or_default() += 1;
        self.games += 1;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&rec.players, &rec.fen, &rec.moves).hash(&mut h);
        self.distinct.insert(h.finish());
    }

    /// Counts one game's result (players `f` first and `s`; the per-engine, per-side and
    /// per-pair counts).
    fn count(&mut self, f: usize, s: usize, first_score: f64, pair_key: Option<u64>) {
        self.sequence.push((f, s, first_score, pair_key));
        self.per_engine[f].add(first_score);
        self.per_engine[s].add(1.0 - first_score);
        self.per_side[f][0].add(first_score);
        self.per_side[s][1].add(1.0 - first_score);
        let (a, b, a_score) = if f < s {
            (f, s, first_score)
        } else {
            (s, f, 1.0 - first_score)
        };
        let t = self.pairs.entry((a, b)).or_default();
        t.wdl.add(a_score);
        if let Some(key) = pair_key {
            if let Some(other) = t.open_pairs.remove(&key) {
                t.penta.add(other + a_score);
                if (other - a_score).abs() == 1.0 {
                    t.win_loss_pairs += 1;
                }
            } else {
                t.open_pairs.insert(key, a_score);
            }
        }
    }

    /// The games in the order counted: (first mover, second mover, its score).
    pub fn sequence(&self) -> Vec<(usize, usize, f64)> {
        self.sequence
            .iter()
            .map(|&(f, s, x, _)| (f, s, x))
            .collect()
    }

    /// The first mover's wins, draws and losses per ordered pair (first, second).
    pub fn encounters(&self) -> Vec<(usize, usize, [u64; 3])> {
        let mut out: BTreeMap<(usize, usize), [u64; 3]> = BTreeMap::new();
        for &(f, s, x, _) in &self.sequence {
            let cell = if x > 0.75 {
                0
            } else if x > 0.25 {
                1
            } else {
                2
            };
            out.entry((f, s)).or_default()[cell] += 1;
        }
        out.into_iter().map(|((f, s), wdl)| (f, s, wdl)).collect()
    }

    /// The LLR of engine 0 against engine 1 after each game counted, in order.
    pub fn llr_series(&self, spec: &SprtSpec) -> Vec<f64> {
        let mut t = Tally::new(self.names.clone());
        self.sequence
            .iter()
            .map(|&(f, s, x, key)| {
                t.count(f, s, x, key);
                t.llr(spec)
            })
            .collect()
    }

    /// `Distinct games: 320 of 400 (80 replay an earlier game move for move)`, or
    /// `None` when every game counted differs from the others.
    pub fn distinct_line(&self) -> Option<String> {
        let distinct = self.distinct.len() as u64;
        (distinct < self.games).then(|| {
            format!(
                "Distinct games: {distinct} of {} ({} replay an earlier game move for move)",
                self.games,
                self.games - distinct
            )
        })
    }

    /// `Endings other than by the rules: 2 time forfeit (fake 2), 1 adjudication`, or
    /// `None` when every game counted ended on the board. With `all`, every ending:
    /// `Endings: 17 rules, 2 time forfeit (fake 2), 1 adjudication`.
    pub fn endings_line(&self, all: bool) -> Option<String> {
        let parts: Vec<String> = self
            .endings
            .iter()
            .filter(|(ending, _)| all || **ending != Ending::Rules)
            .map(|(ending, culprits)| {
                let total: u64 = culprits.values().sum();
                let named: Vec<String> = culprits
                    .iter()
                    .filter(|(name, _)| !name.is_empty())
                    .map(|(name, n)| format!("{name} {n}"))
                    .collect();
                if named.is_empty() {
                    format!("{total} {}", ending.as_str())
                } else {
                    format!("{total} {} ({})", ending.as_str(), named.join(", "))
                }
            })
            .collect();
        if parts.is_empty() {
            return None;
        }
        let head = if all {
            "Endings"
        } else {
            "Endings other than by the rules"
        };
        Some(format!("{head}: {}", parts.join(", ")))
    }

    /// Engine `i`'s results against all others.
    pub fn engine(&self, i: usize) -> Wdl {
        self.per_engine[i]
    }

    /// Engine `i`'s results as the first mover (`side` 0) or the second (`side` 1).
    pub fn engine_side(&self, i: usize, side: usize) -> Wdl {
        self.per_side[i][side]
    }

    /// How many colour-swapped pairs of engine `a` against engine `b` (`a < b`) were one
    /// win and one loss (the rest of the pentanomial's score-1 cell are two draws).
    pub fn win_loss_pairs(&self, a: usize, b: usize) -> u64 {
        self.pairs.get(&(a, b)).map_or(0, |t| t.win_loss_pairs)
    }

    /// The results of engine `a` against engine `b` (`a < b`).
    pub fn pair(&self, a: usize, b: usize) -> (Wdl, Penta) {
        self.pairs
            .get(&(a, b))
            .map(|t| (t.wdl, t.penta))
            .unwrap_or_default()
    }

    /// The LLR of engine 0 against engine 1 (pentanomial when pairs exist).
    pub fn llr(&self, spec: &SprtSpec) -> f64 {
        let (wdl, penta) = self.pair(0, 1);
        stats::match_llr(&wdl, &penta, spec)
    }
}

//! `tune fit`: Texel-style tuning of a game's linear evaluation weights on the runner's
//! results files (the module docs of `main.rs` say how), and the replay of those files
//! that `tune nnue` shares.

use engine::game::{Game, Notation, RuleSet, Side, Tunable};
use engine::variant::{GameVisitor, Registered, Variant};
use tournament::output::results::GameRecord;

/// `tune fit [--variant NAME] [--l2 L] RESULTS.jsonl...`; `None` for a usage error.
pub fn command(args: &[&str]) -> Option<Result<(), String>> {
    let (variant, l2, files) = fit_args(args)?;
    Some(variant.visit_game(Fit { files: &files, l2 }))
}

/// `fit`'s arguments: `[--variant NAME] [--l2 L] FILES...` (by default the registry's
/// first game, as the runner's).
fn fit_args<'a>(mut args: &[&'a str]) -> Option<(Variant, f64, Vec<&'a str>)> {
    let (mut variant, mut l2) = (Variant::ALL[0], 0.0);
    loop {
        match args {
            ["--variant", name, rest @ ..] => {
                variant = Variant::from_name(name)?;
                args = rest;
            }
            ["--l2", l, rest @ ..] => {
                l2 = l.parse().ok()?;
                args = rest;
            }
            [] => return None,
            files => return Some((variant, l2, files.to_vec())),
        }
    }
}

/// One training position: its terms, its phase, the evaluation outside the linear model
/// and the result for the side to move.
struct Sample {
    terms: Vec<f64>,
    phase: f64,
    offset: f64,
    result: f64,
}

/// `tune fit` for the game `G`.
struct Fit<'a> {
    files: &'a [&'a str],
    l2: f64,
}

impl GameVisitor for Fit<'_> {
    type Output = Result<(), String>;
    fn visit<G: Registered>(self) -> Result<(), String> {
        fit::<G>(self.files, self.l2)
    }
}

/// Replays every game of `G` in the results files, each under the rule set that judged
/// it, and calls `visit(game, record, ply, position)` for each position before a move
/// (the finished ones excluded; `game`
/// counts the games from 0). Lines that are not records (a line cut by a kill) and games
/// of other variants are skipped. Returns the number of games.
pub fn replay<G: Notation + Tunable>(
    files: &[&str],
    mut visit: impl FnMut(usize, &GameRecord, usize, &G),
) -> Result<usize, String> {
    let mut games = 0;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for rec in text.lines().filter_map(GameRecord::from_json) {
            if !rec.is_variant(G::NAME) {
                continue;
            }
            // Under the rules that judged it (a 2008 game goes on past 25 jumps; a LOA
            // text game past a third repetition); older records: the engine rules.
            let rules = rec.rules.as_deref().and_then(G::Rules::from_name);
            let mut pos = G::from_fen(&rec.fen, rules.unwrap_or(G::Rules::ENGINE))?;
            for (ply, word) in rec.moves.iter().enumerate() {
                if pos.is_over() {
                    break;
                }
                visit(games, &rec, ply, &pos);
                let Some(mv) = pos.parse_move(word) else {
                    break;
                };
                pos.make_move(mv);
            }
            games += 1;
        }
    }
    Ok(games)
}

/// The game's result for the side to move in `pos`.
pub fn result_for<G: Game>(rec: &GameRecord, pos: &G) -> f64 {
    let first_score = rec.result.first_score();
    match pos.side_to_move() {
        Side::First => first_score,
        Side::Second => 1.0 - first_score,
    }
}

/// Every position of every game of `G` in the results files (but the finished ones),
/// labelled with the game's result for the side to move.
fn load<G: Notation + Tunable>(files: &[&str]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    let games = replay::<G>(files, |_, rec, _, pos| {
        let (t, phase) = pos.eval_terms();
        samples.push(Sample {
            terms: t.into_iter().map(f64::from).collect(),
            phase: phase.fraction(),
            offset: f64::from(pos.eval_offset()),
            result: result_for(rec, pos),
        });
    })?;
    eprintln!("{games} {} games, {} positions", G::NAME, samples.len());
    Ok(samples)
}

fn eval_with(s: &Sample, w: &[f64]) -> f64 {
    let n = s.terms.len();
    let (mut m, mut e) = (0.0, 0.0);
    for (i, t) in s.terms.iter().enumerate() {
        m += w[i] * t;
        e += w[n + i] * t;
    }
    m * s.phase + e * (1.0 - s.phase) + s.offset
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// Mean cross-entropy of the model on the samples.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(eval_with(s, w), k).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len() as f64
}

fn fit<G: Notation + Tunable>(files: &[&str], l2: f64) -> Result<(), String> {
    if G::EVAL_TERMS.is_empty() {
        return Err(format!(
            "{}'s evaluation has no linear terms to fit",
            G::NAME
        ));
    }
    let samples = load::<G>(files)?;
    if samples.is_empty() {
        return Err(format!("no {} positions", G::NAME));
    }
    let [mg, eg] = G::eval_weights();
    let n_terms = G::EVAL_TERMS.len();
    let mut w: Vec<f64> = mg.iter().chain(eg).map(|&x| f64::from(x)).collect();
    let w0 = w.clone();
    // K by golden-section search on the current weights.
    let (mut lo, mut hi) = (0.01f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(&samples, &w, a) < loss(&samples, &w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    eprintln!(
        "K = {k:.4}, loss with current weights {:.6}",
        loss(&samples, &w, k)
    );

    // Full-batch Adam on the weights (the loss is convex in them).
    let n = 2 * n_terms;
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 1.0f64);
    let scale = k * 10f64.ln() / 400.0;
    for step in 1..=3000 {
        let mut grad = vec![0.0; n];
        for s in &samples {
            let d = (sigmoid(eval_with(s, &w), k) - s.result) * scale;
            for (i, t) in s.terms.iter().enumerate() {
                grad[i] += d * t * s.phase;
                grad[n_terms + i] += d * t * (1.0 - s.phase);
            }
        }
        for i in 0..n {
            // An L2 pull towards the current weights (per 100 units) against overfitting
            // correlated terms.
            let gi = grad[i] / samples.len() as f64 + 2.0 * l2 * (w[i] - w0[i]) / 1e4;
            m1[i] = b1 * m1[i] + (1.0 - b1) * gi;
            m2[i] = b2 * m2[i] + (1.0 - b2) * gi * gi;
            let mh = m1[i] / (1.0 - b1.powi(step));
            let vh = m2[i] / (1.0 - b2.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if step % 500 == 0 {
            eprintln!("step {step}: loss {:.6}", loss(&samples, &w, k));
        }
    }
    let round: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let wr: Vec<f64> = round.iter().map(|&x| f64::from(x)).collect();
    eprintln!("rounded weights: loss {:.6}", loss(&samples, &wr, k));
    println!("// {} terms: {}", G::NAME, G::EVAL_TERMS.join(", "));
    println!("pub const MG: Weights = {:?};", &round[..n_terms]);
    println!("pub const EG: Weights = {:?};", &round[n_terms..]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ataxx::{Position, Rules};

    /// `tune fit` replays each game under the rules that judged it: 50 jumps on a board
    /// where nothing else can happen are all positions of the game for the engine rules
    /// (and for records from before `rules` existed), but the 2008 rules end it at the
    /// 45th and the 2016 ones at the 25th.
    #[test]
    fn games_replay_under_the_rules_that_judged_them() {
        let fen = "x-1-1-1/-------/1-1-1-1/-------/1-1-1-1/-------/1-1-1-o x 0 1";
        let mut pos = Position::from_fen(fen, Rules::Uai).unwrap();
        let mut moves = Vec::new();
        for _ in 0..50 {
            let mv = pos.legal_moves()[0];
            moves.push(format!("\"{mv}\""));
            pos.make_move(mv);
        }
        let line = |rules: &str| {
            format!(
                r#"{{"id":0,"variant":"ataxx","players":["a","b"],"fen":"{fen}","result":"1/2-1/2","moves":[{}]{rules}}}"#,
                moves.join(",")
            )
        };
        let file = std::env::temp_dir().join(format!("tune-replay-{}.jsonl", std::process::id()));
        for (rules, positions) in [
            ("", 50),
            (r#","rules":"engine""#, 50),
            (r#","rules":"2008""#, 45),
            (r#","rules":"text""#, 25),
        ] {
            std::fs::write(&file, line(rules) + "\n").unwrap();
            let mut seen = 0;
            let games =
                replay::<Position>(&[file.to_str().unwrap()], |_, _, _, _| seen += 1).unwrap();
            assert_eq!((games, seen), (1, positions), "{rules}");
        }
        let _ = std::fs::remove_file(&file);
    }
}

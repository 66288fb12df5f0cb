//! Every game's evaluation is the model its tuner fits. Ataxx and LOA: the linear
//! model of `tune fit`, where the terms of `GameIo::eval_terms`, weighted by the opening and end weights of
//! `GameIo::eval_weights` and blended by the phase, give `Game::evaluate` less
//! `GameIo::eval_offset` (Ataxx's network) up to rounding, in positions of random games.
//! Reversi: the pattern model of `tune reversi-eval`. A fit is only as good as this
//! agreement.

use engine::game::{GameIo, RuleSet};
use engine::games::{ataxx, loa, reversi};
use engine::rng::SplitMix64;

fn model_matches_evaluate<G: GameIo>(seed: u64) {
    let [open, end] = G::eval_weights();
    assert_eq!(open.len(), G::EVAL_TERMS.len(), "{}", G::NAME);
    assert_eq!(end.len(), G::EVAL_TERMS.len(), "{}", G::NAME);
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = G::startpos(G::Rules::ENGINE);
        while !pos.is_over() {
            let (terms, phase) = pos.eval_terms();
            let phase = phase.fraction();
            assert!((0.0..=1.0).contains(&phase), "{} phase {phase}", G::NAME);
            let model: f64 = terms
                .iter()
                .zip(open.iter().zip(end))
                .map(|(&t, (&o, &e))| {
                    f64::from(t) * (phase * f64::from(o) + (1.0 - phase) * f64::from(e))
                })
                .sum();
            let eval = f64::from(pos.evaluate() - pos.eval_offset());
            assert!(
                (eval - model).abs() <= 1.0,
                "{}: evaluate {eval}, model {model} in {}",
                G::NAME,
                pos.fen()
            );
            checked += 1;
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 1000, "{}: only {checked} positions", G::NAME);
}

#[test]
fn ataxx_evaluation_is_its_linear_model() {
    model_matches_evaluate::<ataxx::Position>(1);
}

#[test]
fn loa_evaluation_is_its_linear_model() {
    model_matches_evaluate::<loa::Position>(2);
}

/// Reversi's evaluation is its pattern model, which `tune reversi-eval` fits: the
/// weights each instance reads plus the scalar terms, in positions of random games.
#[test]
fn reversi_evaluation_is_its_pattern_model() {
    use engine::game::{Game, Notation, Tunable};
    use reversi::midgame::{self, SCALARS, SCALE, UNITS_PER_DISC};
    let weights = midgame::weights().as_slice();
    let per_phase = midgame::layout().per_phase;
    let mut rng = SplitMix64::new(3);
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = reversi::Position::startpos();
        while !pos.is_over() {
            let (own, opp) = (pos.own(), pos.opp());
            let table = &weights[midgame::phase(pos.empty().count_ones()) * per_phase..];
            let mut sum: i32 = midgame::indices(own, opp)
                .iter()
                .map(|&i| i32::from(table[i as usize]))
                .sum();
            for (k, v) in midgame::scalars(own, opp).into_iter().enumerate() {
                sum += i32::from(table[per_phase - SCALARS + k]) * v;
            }
            assert_eq!(
                pos.evaluate(),
                sum * UNITS_PER_DISC / SCALE,
                "{}",
                pos.fen()
            );
            // Nothing is left for `tune fit`: the whole evaluation is outside its model.
            assert_eq!(pos.eval_offset(), pos.evaluate());
            checked += 1;
            let moves = pos.legal_moves();
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 1000, "only {checked} positions");
}

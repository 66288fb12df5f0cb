//! Every game's evaluation is the linear model that `tune fit` fits: the terms of
//! `GameIo::eval_terms`, weighted by the opening and end weights of
//! `GameIo::eval_weights` and blended by the phase, give `Game::evaluate` less
//! `GameIo::eval_offset` (Ataxx's network) up to rounding, in positions of random games.
//! A fit is only as good as this agreement.

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

#[test]
fn reversi_evaluation_is_its_linear_model() {
    model_matches_evaluate::<reversi::Position>(3);
}

//! The text language's AI against a player that picks uniformly random legal moves,
//! under the text rules (move limit 30 moves each), colours alternating. The quick test
//! runs a few games on a small budget; the ignored one is the figure `docs/loa.md`
//! quotes (20 games at the default budget):
//! `cargo test --release --test tests loa_vs_random:: -- --ignored --nocapture`.

use engine::game::{Outcome, Side};
use engine::games::loa::{Position, Rules};
use engine::protocol::text::loa::SPEC;
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// AI wins, draws, losses, and the AI's average number of moves per won game.
fn play(games: u64, nodes: u64) -> (u32, u32, u32, f64) {
    let stop = AtomicBool::new(false);
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut win_moves = 0u64;
    for g in 0..games {
        let ai = if g % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut rng = SplitMix64::new(1000 + g);
        let mut searcher = Searcher::<Position>::new(16);
        let mut pos = Position::startpos(Rules::Text);
        let mut ai_moves = 0;
        while !pos.is_over() {
            let mv = if pos.side_to_move() == ai {
                ai_moves += 1;
                let r = searcher.search(&pos, &Limits::nodes(nodes), &stop, Some(g), &mut |_| {});
                r.best.expect("a move")
            } else {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len())]
            };
            assert!(pos.is_legal(mv));
            pos.make_move(mv);
        }
        match pos.outcome() {
            Some(Outcome::Win(s)) if s == ai => {
                w += 1;
                win_moves += ai_moves;
            }
            Some(Outcome::Draw) => d += 1,
            _ => l += 1,
        }
    }
    (w, d, l, win_moves as f64 / w.max(1) as f64)
}

#[test]
fn beats_a_random_player_quickly() {
    let (w, d, l, _) = play(6, 5_000);
    assert_eq!((w, d, l), (6, 0, 0));
}

#[test]
#[ignore = "the docs/loa.md figure: 20 games at the default budget"]
fn score_against_random_at_the_default_budget() {
    let start = Instant::now();
    let nodes = SPEC.ai.nodes;
    let (w, d, l, avg) = play(20, nodes);
    println!(
        "AI ({nodes} nodes a move) vs random: +{w} ={d} -{l}, {avg:.1} AI moves per win, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(w >= 19, "+{w} ={d} -{l}");
}

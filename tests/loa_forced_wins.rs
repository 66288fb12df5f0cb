//! The text language's AI (its default node budget, [`AI_NODES`]) must convert every
//! forced win of one, two or three of its own moves, as `loa.txt` asks. Positions come
//! from the last plies of quick self-play games and are proven here by an exhaustive
//! solver (no heuristics), then the AI plays them out under the text rules against the
//! longest defence.

use crate::common;

use common::prover::{self, Prover};
use engine::game::RuleSet;
use engine::games::loa::Position;
use engine::protocol::text::loa::{AI_NODES, AI_TIME_CAP};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// The prover for LOA: the hash decides (fresh positions keep the move limit far).
fn prover() -> Prover<Position> {
    Prover::new(|_| 0, |_, _| {})
}

/// The same board under the text rules with fresh counters (so the move limit is far).
fn fresh(pos: &Position) -> Position {
    Position::from_parts(
        pos.pieces(engine::game::Side::First),
        pos.pieces(engine::game::Side::Second),
        pos.side_to_move(),
        0,
        1,
        RuleSet::Text,
    )
    .expect("a valid board")
}

/// Positions from the last plies of quick self-play games (random first moves, then a
/// small search for both sides), where forced wins are common.
fn candidates(games: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(0x10A_F0CED);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for game in 0..games {
        let mut searcher = Searcher::<Position>::new(1);
        let mut pos = Position::startpos(RuleSet::Engine);
        let mut seen = Vec::new();
        let opening = 2 + rng.below(6);
        while !pos.is_over() && seen.len() < 200 {
            seen.push(pos.clone());
            let moves = pos.legal_moves();
            let mv = if seen.len() <= opening {
                moves[rng.below(moves.len())]
            } else {
                let limits = Limits::nodes(1_500);
                let r = searcher.search(&pos, &limits, &stop, Some(game as u64), &mut |_| {});
                r.best.expect("a move")
            };
            pos.make_move(mv);
        }
        out.extend(seen.iter().rev().take(9).map(fresh));
    }
    out
}

/// Proven positions for each distance.
const PER_DISTANCE: usize = 6;

fn find_positions() -> Vec<(u32, Position)> {
    let mut found: Vec<Vec<Position>> = vec![Vec::new(); 4];
    for mut pos in candidates(60) {
        if pos.is_over() {
            continue;
        }
        if let Some(n) = prover().with_budget(400_000).win_distance(&mut pos, 3) {
            if found[n as usize].len() < PER_DISTANCE {
                found[n as usize].push(pos);
            }
        }
        if found[1..].iter().all(|f| f.len() >= PER_DISTANCE) {
            break;
        }
    }
    found
        .into_iter()
        .enumerate()
        .flat_map(|(n, ps)| ps.into_iter().map(move |p| (n as u32, p)))
        .collect()
}

#[test]
fn ai_converts_forced_wins_of_one_to_three_moves() {
    let positions = find_positions();
    for n in 1..=3 {
        let count = positions.iter().filter(|(d, _)| *d == n).count();
        assert_eq!(count, PER_DISTANCE, "positions found with a win in {n}");
    }
    for (n, start) in positions {
        let mut searcher = Searcher::<Position>::new(32);
        let limits = Limits {
            nodes: Some(AI_NODES),
            hard_time: Some(AI_TIME_CAP),
            ..Limits::default()
        };
        prover::assert_converts(&start, n, &mut prover(), &mut searcher, &limits);
    }
}

#[test]
fn solver_sanity() {
    // Black to move joins its two pieces with c2-b1: a win in one.
    let mut pos = Position::from_fen("o6o/8/8/8/8/8/2x5/x7 x", RuleSet::Text).unwrap();
    assert_eq!(prover().win_distance(&mut pos, 3), Some(1));
}

//! The AI must convert forced wins of one to five of its own moves. Positions are found
//! by random generation and proven by an exhaustive solver in this test (no heuristics,
//! no tables), then the AI plays them out under the text rules with the text front
//! end's budget and search settings against the longest defence.

use crate::common;

use common::prover::{self, Prover};
use engine::game::{Outcome, Side};
use engine::games::ataxx::bitboard::{Bits, FULL};
use engine::games::ataxx::{Position, Rules};
use engine::protocol::text;
use engine::protocol::text::ataxx::{AI_NODES, AI_TIME_CAP};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};

/// The prover for Ataxx: the jump clock decides under the text rules (25 jumps end the
/// game), and the biggest captures are the likeliest wins.
fn prover() -> Prover<Position> {
    Prover::new(
        |pos| pos.clock(),
        |pos, moves| moves.sort_by_key(|&m| std::cmp::Reverse(pos.captures(m).count_ones())),
    )
}

/// A random late position: most squares filled, a few empty, some gaps.
fn random_position(rng: &mut SplitMix64) -> Option<Position> {
    let empties = 1 + rng.below(8);
    let gaps = rng.below(7);
    let mut squares: Vec<u8> = (0..49).collect();
    rng.shuffle(&mut squares);
    let (mut x, mut o, mut g) = (0u64, 0u64, 0u64);
    let bias = 45 + rng.below(30);
    for (i, &sq) in squares.iter().enumerate() {
        let bit = 1u64 << sq;
        if i < empties {
        } else if i < empties + gaps {
            g |= bit;
        } else if rng.below(100) < bias {
            x |= bit;
        } else {
            o |= bit;
        }
    }
    debug_assert_eq!((x | o | g) & !FULL, 0);
    let pos = Position::from_parts(x, o, g, Side::First, 0, 1, Rules::Text).ok()?;
    pos.outcome().is_none().then_some(pos)
}

/// Positions proven for each distance.
const PER_DISTANCE: usize = 6;

fn find_positions() -> Vec<(u32, Position)> {
    let mut rng = SplitMix64::new(0xF0CED);
    let mut found: Vec<Vec<Position>> = vec![Vec::new(); 6];
    for _ in 0..200_000 {
        if found[1..].iter().all(|f| f.len() >= PER_DISTANCE) {
            break;
        }
        let Some(mut pos) = random_position(&mut rng) else {
            continue;
        };
        if let Some(n) = prover().with_budget(20_000).win_distance(&mut pos, 5) {
            if found[n as usize].len() < PER_DISTANCE {
                found[n as usize].push(pos);
            }
        }
    }
    found
        .into_iter()
        .enumerate()
        .flat_map(|(n, ps)| ps.into_iter().map(move |p| (n as u32, p)))
        .collect()
}

#[test]
fn ai_converts_forced_wins_of_one_to_five_moves() {
    let positions = find_positions();
    let distances: Vec<u32> = positions.iter().map(|(n, _)| *n).collect();
    for n in 1..=5 {
        let count = distances.iter().filter(|&&d| d == n).count();
        assert_eq!(count, PER_DISTANCE, "positions found with a win in {n}");
    }
    for (n, start) in positions {
        let mut searcher = Searcher::<Position>::new(16);
        searcher.features = text::ai_features();
        let limits = Limits {
            nodes: Some(AI_NODES),
            hard_time: Some(AI_TIME_CAP),
            ..Limits::default()
        };
        prover::assert_converts(&start, n, &mut prover(), &mut searcher, &limits);
    }
}

#[test]
fn engine_proof_search_agrees_with_the_prover() {
    // The engine's own proof search (src/search/prove.rs, which the text AI runs near
    // the end) finds each position's win at the distance this test's prover proved, and
    // its move wins that fast.
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(false);
    for (n, start) in find_positions() {
        let mut pos = start.clone();
        let proof = engine::search::prove::fastest_win(&mut pos, 5, 10_000_000, &stop);
        let (mv, moves) = proof
            .win
            .unwrap_or_else(|| panic!("no win found in {start:?}"));
        assert_eq!(moves, n, "{start:?}");
        assert_eq!(pos.hash(), start.hash(), "the position is restored");
        let me = pos.side_to_move();
        pos.make_move(mv);
        if n == 1 {
            assert_eq!(pos.outcome(), Some(Outcome::Win(me)), "{start:?} {mv}");
        } else {
            assert!(prover().loses_within(&mut pos, 2 * n - 2), "{start:?} {mv}");
        }
    }
}

#[test]
fn solver_sanity() {
    // x to move fills the last square next to o's only stone: immediate win.
    let mut pos = Position::from_fen(
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxx1o x 0 1",
        Rules::Text,
    )
    .unwrap();
    assert_eq!(prover().win_distance(&mut pos, 3), Some(1));
    assert_eq!(Bits(pos.empty()).count(), 1);
}

#[test]
fn two_threads_find_the_same_forced_wins_as_one() {
    // Lazy SMP (`Threads` 2: a helper over the shared table) proves a win at the same
    // distance as one thread, and its move really wins.
    use engine::search::Engine;
    for (n, start) in find_positions().into_iter().filter(|(n, _)| *n <= 3) {
        let limits = Limits {
            depth: Some(2 * n + 3),
            nodes: Some(5_000_000),
            ..Limits::default()
        };
        let mut found = Vec::new();
        for threads in [1, 2] {
            let engine = Engine::<Position>::new(16);
            engine.set_threads(threads);
            let r = engine
                .search_blocking(start.clone(), limits.clone(), None)
                .expect("a result");
            let plies = r.score.plies_to_end().filter(|&p| p > 0);
            let plies = plies.unwrap_or_else(|| {
                panic!("{threads} thread(s) found no win in {n}: {start:?}, {r:?}")
            });
            let mv = r.best.expect("a move");
            let mut child = start.clone();
            child.make_move(mv);
            // The prover's check: the reply loses within one more own move than the
            // fastest win (the plain search need not pick the fastest).
            assert!(
                child.outcome().is_some() || prover().loses_within(&mut child, 2 * n),
                "{threads} thread(s): {mv} does not win: {start:?}"
            );
            found.push(plies);
        }
        assert_eq!(
            found[0], found[1],
            "win distances, 1 and 2 threads: {start:?}"
        );
    }
}

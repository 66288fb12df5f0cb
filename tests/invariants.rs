//! Invariants over long random self-play: make/unmake restores the position and hash,
//! the incremental hash equals a recomputed one, every generated move is legal and every
//! legal move is generated, the generic perft agrees with the fast one, and the search
//! never returns an illegal move.

use engine::games::ataxx::bitboard::{distance, SQUARES};
use engine::games::ataxx::{Move, Position, Rules};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Every syntactically possible move: singles, doubles within distance 2, and the pass.
fn all_moves() -> Vec<Move> {
    let mut v = vec![Move::PASS];
    for to in 0..SQUARES as u8 {
        v.push(Move::single(to));
        for from in 0..SQUARES as u8 {
            if distance(from, to) == 2 {
                v.push(Move::double(from, to));
            }
        }
    }
    v
}

fn random_start(rng: &mut SplitMix64, rules: Rules) -> Position {
    const STARTS: [&str; 5] = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x2-2o/3-3/2---2/7/2---2/3-3/o2-2x x 0 1",
        "x-1-1-o/-1-1-1-/1-1-1-1/-1-1-1-/1-1-1-1/-1-1-1-/o-1-1-x x 0 1",
        "7/7/7/2x1o2/7/7/7 o 0 1",
    ];
    Position::from_fen(rng.choose(&STARTS).unwrap(), rules).unwrap()
}

#[test]
fn random_games_keep_every_invariant() {
    let candidates = all_moves();
    let mut rng = SplitMix64::new(20261121);
    let mut plies = 0;
    for game in 0..300 {
        let rules = if game % 2 == 0 {
            Rules::Uai
        } else {
            Rules::Text
        };
        let mut pos = random_start(&mut rng, rules);
        while pos.outcome().is_none() {
            let moves = pos.legal_moves();
            assert!(!moves.is_empty(), "no move in a live position {pos:?}");
            // Generated exactly equals the legal subset of all candidates.
            let legal: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|&m| pos.is_legal(m))
                .collect();
            let mut a = moves.clone();
            let mut b = legal;
            a.sort_by_key(|m| (m.from(), m.to()));
            b.sort_by_key(|m| (m.from(), m.to()));
            assert_eq!(a, b, "movegen vs is_legal at {pos:?}");
            assert!(!(moves.len() > 1 && moves.contains(&Move::PASS)));

            // Every move: unmake restores, hashes agree.
            for &mv in &moves {
                let before = pos.clone();
                let undo = pos.make_move(mv);
                assert_eq!(
                    pos.hash(),
                    pos.compute_hash(),
                    "incremental hash after {mv}"
                );
                assert_eq!(
                    Position::from_fen(&pos.to_fen(), rules).unwrap().hash(),
                    pos.hash()
                );
                pos.unmake_move(mv, undo);
                assert_eq!(pos, before, "unmake {mv}");
            }
            let mv = *rng.choose(&moves).unwrap();
            pos.make_move(mv);
            plies += 1;
        }
        assert!(pos.legal_moves().is_empty());
    }
    assert!(plies > 10_000, "only {plies} plies played");
}

#[test]
fn generic_perft_matches_fast_perft() {
    for fen in engine::games::ataxx::BENCH_FENS {
        let mut pos = Position::from_fen(fen, Rules::Uai).unwrap();
        for depth in 1..=3 {
            let fast = pos.perft(depth);
            assert_eq!(
                engine::perft::perft(&mut pos, depth),
                fast,
                "{fen} depth {depth}"
            );
        }
        let split: u64 = engine::perft::split(&mut pos, 3)
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(split, pos.perft(3));
    }
}

#[test]
fn search_returns_legal_moves_in_random_positions() {
    let mut rng = SplitMix64::new(7);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Position>::new(4);
    for game in 0..40 {
        let rules = if game % 2 == 0 {
            Rules::Uai
        } else {
            Rules::Text
        };
        let mut pos = random_start(&mut rng, rules);
        let mut ply = 0;
        while pos.outcome().is_none() {
            let mv = if ply % 3 == 0 {
                let r = searcher.search(&pos, &Limits::nodes(3000), &stop, Some(ply), &mut |_| {});
                let best = r.best.expect("a live position has a move");
                assert!(
                    pos.is_legal(best),
                    "search played illegal {best} in {pos:?}"
                );
                best
            } else {
                let moves = pos.legal_moves();
                *rng.choose(&moves).unwrap()
            };
            pos.make_move(mv);
            ply += 1;
        }
        let r = searcher.search(&pos, &Limits::nodes(1000), &stop, None, &mut |_| {});
        assert!(r.best.is_none(), "a finished game has no move");
    }
}

#[test]
fn end_rules_follow_the_rule_set() {
    // Text rules: 25 consecutive jumps end the game and the count decides.
    let pos = Position::from_fen("x5o/7/7/7/7/7/o6 x 25 1", Rules::Text).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(engine::game::Outcome::Win(engine::game::Side::Second))
    );
    let pos = Position::from_fen("x5o/7/7/7/7/7/o5x x 24 1", Rules::Text).unwrap();
    assert_eq!(pos.outcome(), None);
    // UAI: 100 plies draw, unless the board is decided.
    let pos = Position::from_fen("x5o/7/7/7/7/7/o6 x 100 1", Rules::Uai).unwrap();
    assert_eq!(pos.outcome(), Some(engine::game::Outcome::Draw));
    let pos = Position::from_fen("x6/7/7/7/7/7/7 x 100 1", Rules::Uai).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(engine::game::Outcome::Win(engine::game::Side::First))
    );
    // Text rules: a pass neither counts nor resets the jump count; UAI counts it.
    for (rules, after) in [(Rules::Text, 7), (Rules::Uai, 8)] {
        let mut pos = Position::from_fen("x--4/---4/---4/7/7/7/6o x 7 1", rules).unwrap();
        assert_eq!(pos.legal_moves(), vec![Move::PASS]);
        pos.make_move(Move::PASS);
        assert_eq!(pos.clock(), after);
    }
}

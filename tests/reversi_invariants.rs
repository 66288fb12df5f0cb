//! Reversi invariants over random self-play (seeded SplitMix64): generated moves are
//! exactly the legal ones, make/unmake restores the position and its hash, the
//! incremental hash equals a recomputed one, FEN, OBF and move text round-trip, every
//! game ends, and the final margin agrees with the outcome. Also: the search and the
//! exact solver only ever return legal moves, and the solver agrees with the search's
//! notion of the result.

use engine::game::{Game, GameIo, Outcome, RuleSet, Side};
use engine::games::reversi::solve::Solver;
use engine::games::reversi::{Move, Position};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Every syntactically possible move: the 64 squares and the pass.
fn all_moves() -> Vec<Move> {
    let mut v: Vec<Move> = (0..64).map(Move::place).collect();
    v.push(Move::PASS);
    v
}

fn check_finished(pos: &Position) {
    assert!(pos.is_over());
    assert!(pos.legal_moves().is_empty(), "{pos:?}");
    let (b, w) = (
        pos.count(Side::First) as i32,
        pos.count(Side::Second) as i32,
    );
    let empty = 64 - b - w;
    let margin = Game::final_margin(pos);
    let expected = match pos.outcome() {
        Some(Outcome::Win(Side::First)) => {
            assert!(b > w);
            b - w + empty
        }
        Some(Outcome::Win(Side::Second)) => {
            assert!(w > b);
            b - w - empty
        }
        Some(Outcome::Draw) => {
            assert_eq!(b, w);
            0
        }
        None => panic!("finished but no outcome: {pos:?}"),
    };
    assert_eq!(margin, expected, "{pos:?}");
    assert_eq!(margin % 2, 0);
    assert_eq!(
        pos.end_reason(),
        format!("no moves for either side {b}-{w}")
    );
}

#[test]
fn random_games_keep_every_invariant() {
    let candidates = all_moves();
    let mut rng = SplitMix64::new(2026_1123);
    let mut plies = 0;
    let mut passes = 0;
    for _ in 0..400 {
        let mut pos = Position::startpos(RuleSet::Engine);
        let mut game_plies = 0;
        while !pos.is_over() {
            assert!(pos.outcome().is_none());
            let moves = pos.legal_moves();
            assert!(!moves.is_empty(), "no move in a live position {pos:?}");
            let legal: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|&m| pos.is_legal(m))
                .collect();
            let mut a = moves.clone();
            a.sort_by_key(|m| m.index());
            assert_eq!(a, legal, "movegen vs is_legal at {pos:?}");
            if moves.contains(&Move::PASS) {
                assert_eq!(moves.len(), 1, "a pass beside other moves at {pos:?}");
                passes += 1;
            }

            // Notation round trips.
            let fen = pos.to_fen();
            assert_eq!(Position::from_fen(&fen, RuleSet::Engine).unwrap(), pos);
            assert_eq!(
                Position::from_obf(&pos.to_obf(), RuleSet::Engine).unwrap(),
                pos
            );

            for &mv in &moves {
                assert_eq!(pos.parse_move(&pos.move_name(mv)), Some(mv));
                assert_eq!(Move::parse_text(&mv.text()).unwrap(), mv);
                let before = pos.clone();
                let flipped = pos.flips(mv).count_ones();
                let undo = pos.make_move(mv);
                assert_eq!(pos.hash(), pos.compute_hash(), "hash after {mv}");
                assert_eq!(pos.side_to_move(), before.side_to_move().opponent());
                if !mv.is_pass() {
                    // One disc placed, `flipped` turned: the mover gains 1 + f.
                    let us = before.side_to_move();
                    assert!(flipped > 0);
                    assert_eq!(pos.count(us), before.count(us) + 1 + flipped);
                    assert_eq!(
                        pos.count(us.opponent()),
                        before.count(us.opponent()) - flipped
                    );
                }
                pos.unmake_move(mv, undo);
                assert_eq!(pos, before, "unmake {mv}");
                assert_eq!(pos.hash(), before.hash());
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
            plies += 1;
            game_plies += 1;
            assert!(game_plies <= 120, "a game cannot last this long");
        }
        check_finished(&pos);
    }
    assert!(plies > 20_000, "only {plies} plies played");
    assert!(passes > 0, "random games should meet some passes");
}

#[test]
fn search_and_solver_play_legal_moves() {
    let mut rng = SplitMix64::new(99);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Position>::new(4);
    let mut solver = Solver::new(16);
    for _ in 0..12 {
        let mut pos = Position::startpos(RuleSet::Engine);
        let mut ply = 0u64;
        while !pos.is_over() {
            let empties = pos.empty().count_ones();
            let mv = if empties <= 12 {
                let s = solver.solve(&pos);
                let best = s.best.expect("a live position has a move");
                assert!(pos.is_legal(best), "solver played {best} in {pos:?}");
                // Playing the solver's move keeps the same exact score.
                let mut next = pos.clone();
                next.make_move(best);
                assert_eq!(-solver.solve(&next).score, s.score, "{pos:?} {best}");
                best
            } else if ply.is_multiple_of(3) {
                let r = searcher.search(&pos, &Limits::nodes(2000), &stop, Some(ply), &mut |_| {});
                let best = r.best.expect("a live position has a move");
                assert!(pos.is_legal(best), "search played {best} in {pos:?}");
                best
            } else {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len())]
            };
            pos.make_move(mv);
            ply += 1;
        }
        check_finished(&pos);
        let r = searcher.search(&pos, &Limits::nodes(1000), &stop, None, &mut |_| {});
        assert!(r.best.is_none(), "a finished game has no move");
        assert_eq!(solver.solve(&pos).best, None);
    }
}

#[test]
fn junk_text_never_panics() {
    let mut rng = SplitMix64::new(5);
    let alphabet: Vec<char> = "xXoObBwW012345678990/ -;.é\t".chars().collect();
    let pos = Position::startpos(RuleSet::Engine);
    for _ in 0..20_000 {
        let len = rng.below(80);
        let s: String = (0..len).map(|_| *rng.choose(&alphabet).unwrap()).collect();
        let _ = Position::from_fen(&s, RuleSet::Engine);
        let _ = Position::from_obf(&s, RuleSet::Engine);
        let _ = pos.parse_move(&s);
        let _ = Move::parse_text(&s);
        if let Err(e) = Position::from_fen(&s, RuleSet::Text) {
            assert!(!e.to_string().contains('\n'));
        }
    }
    // Every prefix of a good FEN and OBF line.
    let fen = "xxxxxxxx/oooooooo/8/3ox3/3xo3/8/8/7x o";
    for i in 0..=fen.len() {
        let _ = Position::from_fen(&fen[..i], RuleSet::Engine);
    }
    let obf = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
    for i in 0..=obf.len() {
        let _ = Position::from_obf(&obf[..i], RuleSet::Engine);
    }
}

//! The shared search on Lines of Action: it takes a win in one, finds wins in two
//! moves (three plies) at depth 3 and 4, and returns legal moves from ordinary
//! positions. The positions come from random play and are proven here by an exhaustive
//! solver, so the test does not trust the search to check itself.

use engine::game::{Benchmark, Notation, Outcome};
use engine::games::loa::{Position, Rules};
use engine::search::{Features, Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Can the side to move force a connection within `plies` plies?
fn wins_within(pos: &mut Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let me = pos.side_to_move();
    for mv in pos.legal_moves() {
        let undo = pos.make_move(mv);
        let won = match pos.outcome() {
            Some(o) => o == Outcome::Win(me),
            None => plies >= 3 && loses_within(pos, plies - 1),
        };
        pos.unmake_move(mv, undo);
        if won {
            return true;
        }
    }
    false
}

/// Does the side to move lose within `plies` plies whatever it does?
fn loses_within(pos: &mut Position, plies: u32) -> bool {
    let me = pos.side_to_move();
    for mv in pos.legal_moves() {
        let undo = pos.make_move(mv);
        let lost = match pos.outcome() {
            Some(o) => o == Outcome::Win(me.opponent()),
            None => wins_within(pos, plies - 1),
        };
        pos.unmake_move(mv, undo);
        if !lost {
            return false;
        }
    }
    true
}

const WIN_IN_ONE: &[&str] = &[
    "4o2x/1oo1xo2/ox2o3/1oo1o3/2xx4/2x3o1/x2x4/2x5 o 1 19",
    "3x3x/4x2x/7x/1o6/4o3/x1oo1o2/1x1o1oo1/1oxxx3 o 12 15",
    "3o4/o2xx2o/3x1x2/2o2x2/2x2o2/3x1x1o/2ox4/2x2o2 x 3 24",
];

const WIN_IN_TWO: &[&str] = &[
    "2oo4/8/8/o6o/x2oxo2/2x2xx1/1x2x3/1o1xx1xo x 3 23",
    "xx6/6x1/4xo2/3o3x/3o3x/4oo2/7o/x4x2 o 8 27",
    "5x1o/o5xo/1xoxxx2/2x4x/1o3x2/4o1oo/8/1x1o3o x 5 18",
    "8/oox4o/5xx1/2xx4/5x2/3ox1xx/o6x/o1o4o x 7 29",
    "8/6o1/x4o2/x3x1o1/x5o1/x7/x6o/xx3oxx o 8 23",
    "6o1/1o1o2x1/5xoo/2o2o2/4xx2/o5x1/3ox1xo/1o5x x 0 24",
];

fn search(pos: &Position, depth: u32) -> (engine::games::loa::Move, Option<i32>) {
    search_with(pos, depth, Features::default())
}

/// The search without its selective features (`Game::selective` is on for LOA): the
/// full-width search whose depth bounds the wins it must see.
fn full_width() -> Features {
    Features {
        null_move: false,
        ..Features::default().without_selective()
    }
}

fn search_with(
    pos: &Position,
    depth: u32,
    features: Features,
) -> (engine::games::loa::Move, Option<i32>) {
    let mut searcher = Searcher::<Position>::new(4);
    searcher.features = features;
    let stop = AtomicBool::new(false);
    let r = searcher.search(pos, &Limits::depth(depth), &stop, None, &mut |_| {});
    (r.best.expect("a move"), r.score.plies_to_end())
}

#[test]
fn takes_a_win_in_one() {
    for fen in WIN_IN_ONE {
        let pos = Position::from_fen(fen, Rules::Ugi).unwrap();
        assert!(wins_within(&mut pos.clone(), 1), "{fen}");
        for depth in 1..=3 {
            let (best, plies) = search(&pos, depth);
            let me = pos.side_to_move();
            let mut after = pos.clone();
            after.make_move(best);
            assert_eq!(
                after.outcome(),
                Some(Outcome::Win(me)),
                "{fen} depth {depth}"
            );
            assert_eq!(plies, Some(1), "{fen} depth {depth}");
        }
    }
}

#[test]
fn finds_a_win_in_two_at_depth_3_and_4() {
    // Full width at depths 3 and 4; the selective search (the default) reduces late
    // moves by 3 plies, so it is given depth 8 to see the same three plies.
    for fen in WIN_IN_TWO {
        let pos = Position::from_fen(fen, Rules::Ugi).unwrap();
        assert!(!wins_within(&mut pos.clone(), 1), "{fen}: a win in one");
        assert!(wins_within(&mut pos.clone(), 3), "{fen}: no win in two");
        for (depth, features) in [
            (3, full_width()),
            (4, full_width()),
            (8, Features::default()),
        ] {
            let (best, plies) = search_with(&pos, depth, features);
            assert_eq!(plies, Some(3), "{fen} depth {depth}");
            let mut after = pos.clone();
            after.make_move(best);
            assert!(after.outcome().is_none(), "{fen}");
            assert!(loses_within(&mut after, 2), "{fen}: {best} does not win");
        }
    }
}

#[test]
fn searches_bench_positions_with_legal_moves() {
    let positions = Position::bench_positions();
    assert!(positions.len() >= 6);
    for pos in &positions {
        assert!(!pos.is_over(), "{pos:?}");
        for rules in [Rules::Ugi, Rules::Text] {
            let pos = Position::from_fen(&pos.fen(), rules).unwrap();
            let mut searcher = Searcher::<Position>::new(4);
            let stop = AtomicBool::new(false);
            let r = searcher.search(&pos, &Limits::nodes(20_000), &stop, Some(3), &mut |_| {});
            let best = r.best.expect("a move");
            assert!(pos.is_legal(best), "{best} in {pos:?}");
        }
    }
}

#[test]
fn bench_is_deterministic() {
    let positions = Position::bench_positions();
    let a = engine::bench::run(&positions, 4);
    let b = engine::bench::run(&positions, 4);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes, "bench node count is a signature");
}

//! The shared search and the exact solver on positions whose answers are known, and
//! the AI's strength. Written once, generic over the game ([`engine::game::GameIo`]):
//! the search takes a win in one and finds a win in two moves (three plies) at the
//! depths that must see it (each position proven here by an exhaustive solver, so the
//! test does not trust the search to check itself), returns legal moves from the bench
//! positions under every rule set, repeats its bench node count, and the text
//! language's AI beats a player that picks uniformly random legal moves. Each game's
//! module holds its positions and budgets (LOA's, from random play); Reversi's holds its
//! exact solver's FFO endgame test positions.

use engine::game::{Game, GameIo, Outcome, RuleSet, Side};
use engine::rng::SplitMix64;
use engine::search::{Features, Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Can the side to move force a win within `plies` plies?
fn wins_within<G: Game>(pos: &mut G, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for mv in moves {
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
fn loses_within<G: Game>(pos: &mut G, plies: u32) -> bool {
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for mv in moves {
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

/// The search's best move and its distance to the end (plies), at `depth`.
fn search_with<G: GameIo>(pos: &G, depth: u32, features: Features) -> (G::Move, Option<i32>) {
    let mut searcher = Searcher::<G>::new(4);
    searcher.features = features;
    let stop = AtomicBool::new(false);
    let r = searcher.search(pos, &Limits::depth(depth), &stop, None, &mut |_| {});
    (r.best.expect("a move"), r.score.plies_to_end())
}

/// In each of `fens` (under the engine rules) the side to move wins in one: the search
/// plays the win and reports it one ply away, at depths 1 to 3.
fn takes_a_win_in_one<G: GameIo>(fens: &[&str]) {
    for fen in fens {
        let pos = G::from_fen(fen, G::Rules::ENGINE).unwrap();
        assert!(wins_within(&mut pos.clone(), 1), "{fen}");
        for depth in 1..=3 {
            let (best, plies) = search_with(&pos, depth, Features::default());
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

/// In each of `fens` the side to move wins in two moves (three plies) and not in one:
/// at each of `depths` (with its search features) the search reports the win three
/// plies away, and its move wins (the opponent loses within two plies whatever it does).
fn finds_a_win_in_two<G: GameIo>(fens: &[&str], depths: &[(u32, Features)]) {
    for fen in fens {
        let pos = G::from_fen(fen, G::Rules::ENGINE).unwrap();
        assert!(!wins_within(&mut pos.clone(), 1), "{fen}: a win in one");
        assert!(wins_within(&mut pos.clone(), 3), "{fen}: no win in two");
        for &(depth, features) in depths {
            let (best, plies) = search_with(&pos, depth, features);
            assert_eq!(plies, Some(3), "{fen} depth {depth}");
            let mut after = pos.clone();
            after.make_move(best);
            assert!(after.outcome().is_none(), "{fen}");
            assert!(
                loses_within(&mut after, 2),
                "{fen}: {} does not win",
                pos.move_name(best)
            );
        }
    }
}

/// The bench positions (at least `min` of them, none over), under every rule set: a
/// short search returns a legal move.
fn searches_bench_positions_with_legal_moves<G: GameIo>(min: usize) {
    let positions = G::bench_positions();
    assert!(positions.len() >= min);
    for pos in &positions {
        assert!(!pos.is_over(), "{pos:?}");
        for &rules in G::Rules::ALL {
            let pos = G::from_fen(&pos.fen(), rules).unwrap();
            let mut searcher = Searcher::<G>::new(4);
            let stop = AtomicBool::new(false);
            let r = searcher.search(&pos, &Limits::nodes(20_000), &stop, Some(3), &mut |_| {});
            let best = r.best.expect("a move");
            assert!(pos.is_legal(best), "{} in {pos:?}", pos.move_name(best));
        }
    }
}

/// The bench (its positions to depth 4) counts the same nodes twice: its node count is
/// a signature.
fn bench_is_deterministic<G: GameIo>() {
    let positions = G::bench_positions();
    let a = engine::bench::run(&positions, 4);
    let b = engine::bench::run(&positions, 4);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes, "bench node count is a signature");
}

/// The AI (`nodes` a move, a fresh searcher each game) against a player that picks
/// uniformly random legal moves, from the start under `rules`, colours alternating:
/// the AI's wins, draws, losses, and its average number of moves per won game.
fn against_random<G: GameIo>(rules: G::Rules, games: u64, nodes: u64) -> (u32, u32, u32, f64) {
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
        let mut searcher = Searcher::<G>::new(16);
        let mut pos = G::startpos(rules);
        let mut ai_moves = 0;
        while !pos.is_over() {
            let mv = if pos.side_to_move() == ai {
                ai_moves += 1;
                let r = searcher.search(&pos, &Limits::nodes(nodes), &stop, Some(g), &mut |_| {});
                r.best.expect("a move")
            } else {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
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

mod loa {
    //! Lines of Action: its positions come from random play (proven above), the AI
    //! plays under the text rules (move limit 30 moves each). The quick game against
    //! the random player runs a few games on a small budget; the ignored one is the
    //! figure `docs/loa.md` quotes (20 games at the default budget):
    //! `cargo test --profile ci --test tests search::loa:: -- --ignored --nocapture`.

    use super::against_random;
    use engine::games::loa::{Position, Rules};
    use engine::protocol::text::loa::SPEC;
    use engine::search::Features;
    use std::time::Instant;

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

    /// The search without its selective features (`Game::selective` is on for LOA):
    /// the full-width search whose depth bounds the wins it must see.
    fn full_width() -> Features {
        Features {
            null_move: false,
            ..Features::default().without_selective()
        }
    }

    #[test]
    fn takes_a_win_in_one() {
        super::takes_a_win_in_one::<Position>(WIN_IN_ONE);
    }

    /// Full width at depths 3 and 4; the selective search (the default) reduces late
    /// moves by 3 plies, so it is given depth 8 to see the same three plies.
    #[test]
    fn finds_a_win_in_two_at_depth_3_and_4() {
        super::finds_a_win_in_two::<Position>(
            WIN_IN_TWO,
            &[
                (3, full_width()),
                (4, full_width()),
                (8, Features::default()),
            ],
        );
    }

    #[test]
    fn searches_bench_positions_with_legal_moves() {
        super::searches_bench_positions_with_legal_moves::<Position>(6);
    }

    #[test]
    fn bench_is_deterministic() {
        super::bench_is_deterministic::<Position>();
    }

    #[test]
    fn beats_a_random_player_quickly() {
        let (w, d, l, _) = against_random::<Position>(Rules::Text, 6, 5_000);
        assert_eq!((w, d, l), (6, 0, 0));
    }

    #[test]
    #[ignore = "the docs/loa.md figure: 20 games at the default budget"]
    fn score_against_random_at_the_default_budget() {
        let start = Instant::now();
        let nodes = SPEC.ai.nodes;
        let (w, d, l, avg) = against_random::<Position>(Rules::Text, 20, nodes);
        println!(
            "AI ({nodes} nodes a move) vs random: +{w} ={d} -{l}, {avg:.1} AI moves per win, {:.1} s",
            start.elapsed().as_secs_f64()
        );
        assert!(w >= 19, "+{w} ={d} -{l}");
    }
}

mod reversi {
    //! The exact solver on the FFO endgame test positions #20 to #59
    //! (`tests/data/reversi/ffo20-39.obf`, `ffo40-49.obf` and `ffo50-59.obf`: each line
    //! lists every move with its exact score; the best score is the largest). The solver
    //! must return that score and a move that achieves it. Run in release mode; the slowest
    //! positions are `#[ignore]`d (`cargo test --profile ci --test tests search::reversi::
    //! -- --include-ignored` runs them all).

    use engine::games::reversi::solve::Solver;
    use engine::games::reversi::{parse_square, Move, Position};
    use std::path::PathBuf;
    use std::time::Instant;

    /// FFO position `number` (20 to 59) and its answers: (move, exact score) for every legal
    /// move.
    fn load(number: usize) -> (Position, Vec<(Move, i32)>) {
        let (file, first) = match number {
            ..=39 => ("ffo20-39.obf", 20),
            40..=49 => ("ffo40-49.obf", 40),
            _ => ("ffo50-59.obf", 50),
        };
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/reversi")
            .join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), if first == 20 { 20 } else { 10 }, "{file}");
        let line = lines[number - first];
        let pos = Position::from_obf(line).expect("a valid OBF line");
        let answers = line
            .split(';')
            .skip(1)
            .filter_map(|a| {
                let (sq, score) = a.trim().split_once(':')?;
                let sq = parse_square(sq).expect("an answer square");
                Some((
                    Move::place(sq),
                    score.trim().parse::<i32>().expect("a score"),
                ))
            })
            .collect::<Vec<_>>();
        assert_eq!(
            answers.len(),
            pos.legal_moves().len(),
            "FFO #{number}: one answer per legal move"
        );
        (pos, answers)
    }

    fn check(number: usize) {
        let (pos, answers) = load(number);
        let best = answers.iter().map(|a| a.1).max().unwrap();
        let mut solver = Solver::default();
        let start = Instant::now();
        let s = solver.solve(&pos);
        let ms = start.elapsed().as_millis();
        eprintln!(
            "FFO #{number}: {} empties, move {} score {} nodes {} time {ms} ms",
            pos.empty().count_ones(),
            s.best.map_or("none".to_string(), |m| m.to_string()),
            s.score,
            s.nodes
        );
        assert_eq!(s.score, best, "FFO #{number} score");
        let mv = s.best.expect("a move");
        let achieved = answers.iter().find(|a| a.0 == mv).map(|a| a.1);
        assert_eq!(
            achieved,
            Some(best),
            "FFO #{number}: {mv} does not reach {best}"
        );
    }

    /// #20–#39 (6 to 26 empties, about 6 s in release): every one, each with a fresh table.
    #[test]
    fn ffo_20_to_39() {
        for number in 20..40 {
            check(number);
        }
    }

    #[test]
    fn ffo_40() {
        check(40);
    }

    #[test]
    fn ffo_41() {
        check(41);
    }

    #[test]
    fn ffo_42() {
        check(42);
    }

    #[test]
    fn ffo_43() {
        check(43);
    }

    #[test]
    fn ffo_44() {
        check(44);
    }

    #[test]
    #[ignore = "slow: 191 M nodes, several seconds of CPU in release"]
    fn ffo_45() {
        check(45);
    }

    #[test]
    fn ffo_46() {
        check(46);
    }

    #[test]
    fn ffo_47() {
        check(47);
    }

    #[test]
    #[ignore = "slow: 141 M nodes, several seconds of CPU in release"]
    fn ffo_48() {
        check(48);
    }

    #[test]
    #[ignore = "slow: 259 M nodes, several seconds of CPU in release"]
    fn ffo_49() {
        check(49);
    }

    /// #50–#59 (26 to 34 empties): every line reads, with one exact answer per legal move.
    #[test]
    fn ffo_50_to_59_are_well_formed() {
        for number in 50..=59 {
            let (pos, answers) = load(number);
            assert!(pos.empty().count_ones() >= 26, "FFO #{number}");
            assert!(!answers.is_empty(), "FFO #{number}");
        }
    }

    /// #50–#59 solved: minutes each for the present solver (26 to 30 empties; #59's 34
    /// empties end quickly in a wipe-out).
    #[test]
    #[ignore = "slow: minutes per position"]
    fn ffo_50_to_59() {
        for number in 50..=59 {
            check(number);
        }
    }
}

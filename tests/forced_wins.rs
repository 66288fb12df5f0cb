//! The text front ends' AI must convert forced wins, for every game that has them
//! written once: [`find_positions`] proves candidate positions with an exhaustive
//! solver in this test (`common::prover`: no heuristics, no tables) and keeps a few per
//! distance, then [`assert_all_converted`] has the AI (with its text front end's budget
//! and search settings) play each out under the text rules against the longest defence.
//! Each game's module says where its candidates come from and how its prover orders
//! moves.

use crate::common;

use common::prover::{self, Prover};
use engine::game::{GameIo, Outcome};
use engine::search::{Limits, Searcher};
use std::sync::atomic::AtomicBool;

/// Positions proven for each distance.
const PER_DISTANCE: usize = 6;

/// Proves `candidates` in turn (wins of at most `max` own moves, at most `budget` nodes
/// each) until [`PER_DISTANCE`] are found for each distance 1..=max; returns them with
/// their distances.
fn find_positions<G: GameIo>(
    candidates: impl IntoIterator<Item = G>,
    prover: fn() -> Prover<G>,
    budget: u64,
    max: u32,
) -> Vec<(u32, G)> {
    let mut found: Vec<Vec<G>> = vec![Vec::new(); max as usize + 1];
    for mut pos in candidates {
        if pos.is_over() {
            continue;
        }
        if let Some(n) = prover().with_budget(budget).win_distance(&mut pos, max) {
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

/// [`PER_DISTANCE`] positions were found for each distance 1..=max, and the AI (a fresh
/// `searcher()` each) wins each in exactly its distance.
fn assert_all_converted<G: GameIo>(
    positions: Vec<(u32, G)>,
    max: u32,
    prover: fn() -> Prover<G>,
    searcher: impl Fn() -> Searcher<G>,
    limits: &Limits,
) {
    for n in 1..=max {
        let count = positions.iter().filter(|(d, _)| *d == n).count();
        assert_eq!(count, PER_DISTANCE, "positions found with a win in {n}");
    }
    for (n, start) in positions {
        prover::assert_converts(&start, n, &mut prover(), &mut searcher(), limits);
    }
}

/// The engine's own proof search (src/search/prove.rs, which the text AI runs near the
/// end) finds each position's win at the distance the prover proved, and its move wins
/// that fast.
fn proof_search_agrees<G: GameIo>(positions: Vec<(u32, G)>, prover: fn() -> Prover<G>) {
    let stop = AtomicBool::new(false);
    for (n, start) in positions {
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

mod ataxx {
    //! Wins of one to five moves, from random late positions.

    use super::{assert_all_converted, find_positions, proof_search_agrees};
    use crate::common::prover::Prover;
    use engine::game::Side;
    use engine::games::ataxx::bitboard::{Bits, FULL};
    use engine::games::ataxx::{Move, Position, Rules};
    use engine::protocol::text;
    use engine::protocol::text::ataxx::SPEC;
    use engine::rng::SplitMix64;
    use engine::search::{Limits, Searcher};

    /// The prover for Ataxx: the jump clock decides under the text rules (25 jumps end
    /// the game), and the biggest captures are the likeliest wins.
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

    fn positions() -> Vec<(u32, Position)> {
        let mut rng = SplitMix64::new(0xF0CED);
        let candidates = (0..200_000).filter_map(move |_| random_position(&mut rng));
        find_positions(candidates, prover, 20_000, 5)
    }

    /// A searcher with the text AI's settings.
    fn text_ai() -> Searcher<Position> {
        let mut searcher = Searcher::<Position>::new(16);
        searcher.features = text::ai_features::<Position>();
        searcher
    }

    /// The text AI's budget per move.
    fn text_ai_limits() -> Limits {
        SPEC.ai.limits()
    }

    #[test]
    fn ai_converts_forced_wins_of_one_to_five_moves() {
        assert_all_converted(positions(), 5, prover, text_ai, &text_ai_limits());
    }

    #[test]
    fn engine_proof_search_agrees_with_the_prover() {
        proof_search_agrees(positions(), prover);
    }

    /// Once the opponent cannot move, the AI fills the board with clones, the game's
    /// shortest end, instead of shuffling jumps or opening room for the blocked side.
    /// The position is the seeded test game's (tests/harness.rs) where Blue was first
    /// blocked: 13 empty squares, so 13 clones end it.
    #[test]
    fn ai_fills_the_board_when_the_opponent_is_blocked() {
        let start = "x2xxxo/xxxxxxo/-------/-------/-------/7/3xx1x x 0 1";
        let mut pos = Position::from_fen(start, Rules::Text).unwrap();
        let mut searcher = text_ai();
        let limits = text_ai_limits();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut own_moves = 0;
        while pos.outcome().is_none() {
            if pos.side_to_move() == Side::Second {
                assert_eq!(
                    pos.legal_moves(),
                    [Move::PASS],
                    "Blue got a move: {}",
                    pos.to_fen()
                );
                pos.make_move(Move::PASS);
                continue;
            }
            let mv = searcher
                .search(&pos, &limits, &stop, Some(1), &mut |_| {})
                .best
                .expect("a move");
            assert!(mv.is_single(), "a jump {mv} in {}", pos.to_fen());
            pos.make_move(mv);
            own_moves += 1;
        }
        assert_eq!(own_moves, 13);
        assert_eq!(pos.outcome(), Some(engine::game::Outcome::Win(Side::First)));
    }

    #[test]
    fn two_threads_find_the_same_forced_wins_as_one() {
        // Lazy SMP (`Threads` 2: a helper over the shared table) proves a win at the same
        // distance as one thread, and its move really wins. Full width: whether the
        // selective features hide a short win at this depth depends on the evaluation,
        // and the threads are the subject here, not the pruning.
        use engine::search::{Engine, Features};
        for (n, start) in positions().into_iter().filter(|(n, _)| *n <= 3) {
            let limits = Limits {
                depth: Some(2 * n + 3),
                nodes: Some(5_000_000),
                ..Limits::default()
            };
            let mut found = Vec::new();
            for threads in [1, 2] {
                let engine = Engine::<Position>::new(16);
                engine.set_threads(threads);
                engine.set_features(Features::default().without_selective());
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
}

mod loa {
    //! Wins of one, two or three moves, as `loa.txt` asks of its AI (its default node
    //! budget, `SPEC.ai`), from the last plies of quick self-play games.

    use super::{assert_all_converted, find_positions};
    use crate::common::prover::Prover;
    use engine::game::Side;
    use engine::games::loa::{Position, Rules};
    use engine::protocol::text::loa::SPEC;
    use engine::rng::SplitMix64;
    use engine::search::{Limits, Searcher};
    use std::sync::atomic::AtomicBool;

    /// The prover for LOA: the hash decides (fresh positions keep the move limit far).
    fn prover() -> Prover<Position> {
        Prover::new(|_| 0, |_, _| {})
    }

    /// The same board under the text rules with fresh counters (so the move limit is
    /// far).
    fn fresh(pos: &Position) -> Position {
        Position::from_parts(
            pos.pieces(Side::First),
            pos.pieces(Side::Second),
            pos.side_to_move(),
            0,
            1,
            Rules::Text,
        )
        .expect("a valid board")
    }

    /// Positions from the last plies of quick self-play games (random first moves, then
    /// a small search for both sides), where forced wins are common.
    fn candidates(games: usize) -> Vec<Position> {
        let mut rng = SplitMix64::new(0x10A_F0CED);
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        for game in 0..games {
            let mut searcher = Searcher::<Position>::new(1);
            let mut pos = Position::startpos(Rules::Ugi);
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

    #[test]
    fn ai_converts_forced_wins_of_one_to_three_moves() {
        let positions = find_positions(candidates(60), prover, 400_000, 3);
        let limits = SPEC.ai.limits();
        assert_all_converted(positions, 3, prover, || Searcher::new(32), &limits);
    }

    #[test]
    fn solver_sanity() {
        // Black to move joins its two pieces with c2-b1: a win in one.
        let mut pos = Position::from_fen("o6o/8/8/8/8/8/2x5/x7 x", Rules::Text).unwrap();
        assert_eq!(prover().win_distance(&mut pos, 3), Some(1));
    }
}

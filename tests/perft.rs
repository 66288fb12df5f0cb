//! Perft tables for every game, written once: [`check`] plays a table of positions and
//! their leaf counts through `GameIo::perft` (the fast, bulk-counting walk each game
//! brings) and [`generic_walk_agrees`] compares it with the generic walk
//! (`engine::perft::perft` over `Game`) and its per-move split. Each game's module holds
//! only its data: the table, which depths run by default, and the slow depths
//! (`--ignored`). Rule edge cases that only one game has stay in its module.

use engine::game::{Benchmark, GameIo};
use std::ops::RangeInclusive;
use std::time::Instant;

/// A position and its perft counts from depth 1 on.
struct Row<G> {
    pos: G,
    counts: Vec<u64>,
}

/// Checks every row at each depth of `depths` it has a count for, skipping counts above
/// `max_nodes` (so that CI stays fast); perft must leave the position as it found it.
fn check<G: GameIo + PartialEq>(rows: Vec<Row<G>>, depths: RangeInclusive<u32>, max_nodes: u64) {
    let mut checked = 0;
    for Row { mut pos, counts } in rows {
        let before = pos.clone();
        let fen = pos.fen();
        for depth in depths.clone() {
            let Some(&expected) = counts.get(depth as usize - 1) else {
                break;
            };
            if expected > max_nodes {
                break;
            }
            let t = Instant::now();
            let n = Benchmark::perft(&mut pos, depth);
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "perft({depth}) = {n} in {secs:.2} s, {:.1} M nodes/s",
                n as f64 / secs.max(1e-9) / 1e6
            );
            assert_eq!(
                n,
                expected,
                "perft({depth}) of {fen} ({:?})",
                pos.rule_set()
            );
            assert!(pos == before, "perft leaves {fen} as it found it");
            checked += 1;
        }
    }
    assert!(checked > 0, "no count was checked");
}

/// The generic walk (`engine::perft`) agrees with the game's fast perft at each depth,
/// and the per-move split sums to the same count at the deepest one.
fn generic_walk_agrees<G: GameIo>(positions: Vec<G>, depths: RangeInclusive<u32>) {
    assert!(!positions.is_empty());
    for mut pos in positions {
        let fen = pos.fen();
        for depth in depths.clone() {
            let fast = Benchmark::perft(&mut pos, depth);
            assert_eq!(
                engine::perft::perft(&mut pos, depth),
                fast,
                "{fen} depth {depth}"
            );
        }
        let deepest = *depths.end();
        let split: u64 = engine::perft::split(&mut pos, deepest)
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(split, Benchmark::perft(&mut pos, deepest), "split of {fen}");
    }
}

/// One `#[test]` per line, `name: depths, max_nodes;` (attributes such as `#[ignore]`
/// before the name): [`check`] of `rows()` at those depths.
macro_rules! perft_tests {
    ($rows:ident; $($(#[$attr:meta])* $name:ident: $depths:expr, $max_nodes:expr;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                super::check($rows(), $depths, $max_nodes);
            }
        )*
    };
}

mod ataxx {
    //! Against the reference table in `tests/data/ataxx/perft.tsv` (24 positions, depths
    //! 1–7, copied unmodified from the reference library; see `tests/data/SOURCES.md`),
    //! under the UAI rules.

    use super::{generic_walk_agrees, Row};
    use engine::game::{Benchmark, Notation};
    use engine::games::ataxx::{Position, Rules};
    use std::path::PathBuf;

    fn table() -> Vec<Row<Position>> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ataxx/perft.tsv");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let rows: Vec<Row<Position>> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t") && !l.trim().is_empty())
            .map(|l| {
                let mut cols = l.split('\t');
                let fen = cols.next().unwrap();
                Row {
                    pos: <Position as Notation>::from_fen(fen, Rules::Uai).unwrap(),
                    counts: cols.map(|c| c.trim().parse().unwrap()).collect(),
                }
            })
            .collect();
        assert_eq!(rows.len(), 24, "the reference table has 24 positions");
        rows
    }

    perft_tests! { table;
        reference_table: 1..=7, 20_000_000;
        #[ignore = "slow: the full table to depth 6"]
        reference_table_depth_6: 1..=6, u64::MAX;
    }

    #[test]
    fn generic_walk_agrees_with_the_fast_one() {
        generic_walk_agrees(Position::bench_positions(), 1..=3);
    }
}

mod loa {
    //! From the start position against the reference counts (standard rules: a connected
    //! side ends the game, so a finished game has no moves).
    //!
    //! The counts are taken under the engine rule set, whose third-repetition draw cannot
    //! matter here: a third occurrence needs two full cycles of at least four plies each
    //! (eight plies), deeper than the deepest count below. The text rule set's move limit
    //! (60 plies) is far away too, so both rule sets give the same numbers (checked to
    //! depth 5 under the text rules).

    use super::{generic_walk_agrees, Row};
    use engine::game::Notation;
    use engine::games::loa::{Position, Rules};

    /// Leaf counts for depths 1..=7 from the start position.
    const START_COUNTS: [u64; 7] = [
        36,
        1_244,
        44_952,
        1_563_208,
        55_963_132,
        1_938_494_632,
        68_593_739_064,
    ];

    fn start() -> Vec<Row<Position>> {
        vec![
            Row {
                pos: Position::startpos(Rules::Ugi),
                counts: START_COUNTS.to_vec(),
            },
            Row {
                pos: Position::startpos(Rules::Text),
                counts: START_COUNTS[..5].to_vec(),
            },
        ]
    }

    perft_tests! { start;
        start_position: 1..=5, u64::MAX;
        start_position_depth_6: 6..=6, u64::MAX;
        #[ignore = "slow: about 4 minutes of one core in release"]
        start_position_depth_7: 7..=7, u64::MAX;
    }

    #[test]
    fn generic_walk_agrees_with_the_fast_one() {
        generic_walk_agrees(vec![<Position as Notation>::startpos(Rules::Ugi)], 1..=4);
    }
}

mod reversi {
    //! From the start against the published counts (a pass is one ply, a finished game
    //! one leaf at every deeper depth).

    use super::{generic_walk_agrees, Row};
    use engine::game::{Benchmark, Notation};
    use engine::games::reversi::{Position, Rules};

    /// Published perft of the Othello start position, depths 1 to 12.
    const START: [u64; 12] = [
        4,
        12,
        56,
        244,
        1_396,
        8_200,
        55_092,
        390_216,
        3_005_288,
        24_571_284,
        212_258_800,
        1_939_886_636,
    ];

    fn start() -> Vec<Row<Position>> {
        vec![Row {
            pos: Position::startpos(),
            counts: START.to_vec(),
        }]
    }

    perft_tests! { start;
        start_position: 1..=10, u64::MAX;
        #[ignore = "slow: about 2 s in release"]
        start_position_depth_11: 11..=11, u64::MAX;
        #[ignore = "slow: about 15 s in release"]
        start_position_depth_12: 12..=12, u64::MAX;
    }

    /// The generic walk counts a finished game as no leaf, since `Game::generate_moves`
    /// must give no move once the game is over; the first game can end after 9 plies, so
    /// the two agree up to depth 9 from the start (checked to 6).
    #[test]
    fn generic_walk_agrees_with_the_fast_one() {
        generic_walk_agrees(
            vec![<Position as Notation>::startpos(Rules::Standard)],
            0..=6,
        );
    }

    /// Where the conventions part: a finished position is one leaf for the fast perft and
    /// none for the generic walk; a forced pass is one ply for both.
    #[test]
    fn finished_games_and_passes() {
        // Black a1, white h8: nobody can move.
        let mut over = Position::from_fen("x7/8/8/8/8/8/8/7o x").unwrap();
        for depth in 1..=3 {
            assert_eq!(Benchmark::perft(&mut over, depth), 1);
            assert_eq!(engine::perft::perft(&mut over, depth), 0);
        }
        // White to move with no move (b1 is black's only target): a pass, then black's
        // b1, then the game is over (all discs black): the generic walk sees the third
        // ply empty.
        let mut pass = Position::from_fen("xo6/8/8/8/8/8/8/8 o").unwrap();
        assert_eq!(pass.legal_moves().len(), 1);
        assert_eq!(Benchmark::perft(&mut pass, 1), 1);
        assert_eq!(Benchmark::perft(&mut pass, 2), 1);
        assert_eq!(Benchmark::perft(&mut pass, 5), 1);
        assert_eq!(engine::perft::perft(&mut pass, 2), 1);
        assert_eq!(engine::perft::perft(&mut pass, 3), 0);
    }
}

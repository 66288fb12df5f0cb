//! Perft of Lines of Action from the start position against the reference counts
//! (standard rules: a connected side ends the game, so a finished game has no moves).
//!
//! The counts are taken under the engine rule set, whose third-repetition draw cannot
//! matter here: a third occurrence needs two full cycles of at least four plies each
//! (eight plies), deeper than the deepest count below. The text rule set's move limit
//! (60 plies) is far away too, so both rule sets give the same numbers.

use engine::game::{GameIo, RuleSet};
use engine::games::loa::Position;
use std::time::Instant;

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

fn check(depth: u32) {
    for rules in [RuleSet::Engine, RuleSet::Text] {
        if rules == RuleSet::Text && depth > 5 {
            continue;
        }
        let mut pos = Position::startpos(rules);
        let before = pos.clone();
        let t = Instant::now();
        let n = GameIo::perft(&mut pos, depth);
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "perft({depth}) = {n} in {secs:.2} s, {:.1} M nodes/s",
            n as f64 / secs.max(1e-9) / 1e6
        );
        assert_eq!(
            n,
            START_COUNTS[depth as usize - 1],
            "perft({depth}) {rules:?}"
        );
        assert_eq!(pos, before, "perft leaves the position as it found it");
    }
}

#[test]
fn perft_start_depths_1_to_5() {
    for depth in 1..=5 {
        check(depth);
    }
}

#[test]
fn generic_perft_agrees_with_the_fast_one() {
    let mut pos = Position::startpos(RuleSet::Engine);
    for depth in 1..=4 {
        let generic = engine::perft::perft(&mut pos, depth);
        assert_eq!(generic, GameIo::perft(&mut pos, depth), "depth {depth}");
    }
}

#[test]
fn perft_start_depth_6() {
    check(6);
}

#[test]
#[ignore = "slow: about 4 minutes of one core in release"]
fn perft_start_depth_7() {
    check(7);
}

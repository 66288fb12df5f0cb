//! Reversi perft from the start against the published counts (a pass is one ply, a
//! finished game one leaf at every deeper depth), and the generic walk against the fast
//! bulk-counting one.

use engine::game::{GameIo, RuleSet};
use engine::games::reversi::Position;

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

fn check(depth: u32) {
    let pos = Position::startpos(RuleSet::Engine);
    assert_eq!(
        pos.perft(depth),
        START[depth as usize - 1],
        "perft({depth})"
    );
}

#[test]
fn start_depths_1_to_10() {
    for depth in 1..=10 {
        check(depth);
    }
}

#[test]
#[ignore = "slow: about 2 s in release"]
fn start_depth_11() {
    check(11);
}

#[test]
#[ignore = "slow: about 15 s in release"]
fn start_depth_12() {
    check(12);
}

/// The generic walk (`engine::perft::perft`) counts a finished game as no leaf, since
/// `Game::generate_moves` must give no move once the game is over; the first game can
/// end after 9 plies, so the two agree up to depth 9 from the start.
#[test]
fn generic_perft_agrees_while_no_game_has_ended() {
    let mut pos = Position::startpos(RuleSet::Engine);
    for depth in 0..=6 {
        assert_eq!(
            engine::perft::perft(&mut pos, depth),
            GameIo::perft(&mut pos, depth),
            "depth {depth}"
        );
    }
}

/// Where the conventions part: a finished position is one leaf for the fast perft and
/// none for the generic walk; a forced pass is one ply for both.
#[test]
fn finished_games_and_passes() {
    // Black a1, white h8: nobody can move.
    let mut over = Position::from_fen("x7/8/8/8/8/8/8/7o x", RuleSet::Engine).unwrap();
    for depth in 1..=3 {
        assert_eq!(GameIo::perft(&mut over, depth), 1);
        assert_eq!(engine::perft::perft(&mut over, depth), 0);
    }
    // White to move with no move (b1 is black's only target): a pass, then black's b1,
    // then the game is over (all discs black): the generic walk sees the third ply empty.
    let mut pass = Position::from_fen("xo6/8/8/8/8/8/8/8 o", RuleSet::Engine).unwrap();
    assert_eq!(pass.legal_moves().len(), 1);
    assert_eq!(GameIo::perft(&mut pass, 1), 1);
    assert_eq!(GameIo::perft(&mut pass, 2), 1);
    assert_eq!(GameIo::perft(&mut pass, 5), 1);
    assert_eq!(engine::perft::perft(&mut pass, 2), 1);
    assert_eq!(engine::perft::perft(&mut pass, 3), 0);
}

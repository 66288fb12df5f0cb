//! Lines of Action invariants over long random self-play under both rule sets: every
//! generated move is legal and every legal move is generated, make/unmake restores the
//! position exactly, the incremental hash, line counts and connection result equal
//! their recomputations, FEN round-trips, the repetition count equals a naive one,
//! `outcome` and `is_over` agree, and every game ends.

use engine::game::{Game, GameIo, Outcome, RuleSet};
use engine::games::loa::{Move, Position};
use engine::rng::SplitMix64;

/// Every syntactically possible move: each ordered pair of distinct squares, and the pass.
fn all_moves() -> Vec<Move> {
    let mut v = vec![Move::PASS];
    for from in 0..64u8 {
        for to in 0..64u8 {
            if from != to {
                v.push(Move::new(from, to));
            }
        }
    }
    v
}

/// Varied starts: the standard one, and the positions a few random plies away.
fn start(rng: &mut SplitMix64, rules: RuleSet) -> Position {
    const STARTS: [&str; 3] = [
        "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 1",
        "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 o 0 1",
        "x6x/1o4o1/8/3xo3/3ox3/8/1o4o1/x6x x 0 1",
    ];
    let fen = STARTS[rng.below(STARTS.len())];
    Position::from_fen(fen, rules).expect("valid start")
}

/// Checks one position and all its moves; returns the moves.
fn check_position(pos: &mut Position, candidates: &[Move]) -> Vec<Move> {
    let fen = pos.to_fen();
    let moves = pos.legal_moves();
    assert_eq!(pos.is_over(), pos.outcome().is_some(), "{fen}");
    assert_eq!(Game::is_over(pos), Game::outcome(pos).is_some(), "{fen}");
    assert_eq!(moves.is_empty(), pos.is_over(), "{fen}");
    if moves.len() > 1 {
        assert!(
            !moves.contains(&Move::PASS),
            "pass beside other moves at {fen}"
        );
    }
    if !pos.is_over() && moves != [Move::PASS] {
        assert_eq!(pos.count_moves(pos.side_to_move()) as usize, moves.len());
    }

    // Generated equals the legal subset of all candidates.
    let mut legal: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|&m| pos.is_legal(m))
        .collect();
    let mut generated = moves.clone();
    legal.sort_by_key(|m| (m.from(), m.to()));
    generated.sort_by_key(|m| (m.from(), m.to()));
    assert_eq!(generated, legal, "generator vs is_legal at {fen}");

    // Protocol notation names each move uniquely and parses back.
    for &mv in &moves {
        assert_eq!(pos.parse_move(&pos.move_name(mv)), Some(mv));
        assert_eq!(Move::parse_text(&mv.text()).ok(), Some(mv));
    }

    for &mv in &moves {
        let before = pos.clone();
        let undo = pos.make_move(mv);
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after {mv} at {fen}");
        assert_eq!(
            pos.lines(),
            &pos.compute_lines(),
            "lines after {mv} at {fen}"
        );
        assert_eq!(
            pos.connected_winner(),
            pos.compute_winner(),
            "connection after {mv} at {fen}"
        );
        assert_eq!(pos.is_over(), pos.outcome().is_some());
        let child = pos.to_fen();
        let reread = Position::from_fen(&child, pos.rules()).expect("own FEN reads back");
        assert_eq!(reread.to_fen(), child);
        assert_eq!(reread.hash(), pos.hash());
        assert_eq!(reread.connected_winner(), pos.connected_winner());
        pos.unmake_move(mv, undo);
        assert_eq!(*pos, before, "unmake {mv} at {fen}");
        assert_eq!(pos.hash(), before.hash());
    }
    moves
}

#[test]
fn random_games_keep_every_invariant() {
    let candidates = all_moves();
    let mut rng = SplitMix64::new(0x10A_2026);
    let (mut plies, mut passes, mut wins, mut draws) = (0u64, 0u64, 0u64, 0u64);
    for game in 0..300 {
        let rules = if game % 2 == 0 {
            RuleSet::Engine
        } else {
            RuleSet::Text
        };
        let mut pos = start(&mut rng, rules);
        if rules == RuleSet::Text && game % 4 == 1 {
            pos.set_move_limit(10 + rng.below(40) as u32);
        }
        // The game's hashes since the last capture, for a naive repetition count.
        let mut since_capture: Vec<u64> = Vec::new();
        let mut game_plies = 0;
        loop {
            let naive = since_capture.iter().filter(|&&h| h == pos.hash()).count();
            assert_eq!(pos.repetitions(), naive);
            assert_eq!(
                pos.is_repetition(),
                rules == RuleSet::Engine && naive >= 1 && pos.connected_winner().is_none()
            );
            let moves = check_position(&mut pos, &candidates);
            if pos.is_over() {
                match pos.outcome() {
                    Some(Outcome::Win(_)) => wins += 1,
                    _ => draws += 1,
                }
                assert!(!pos.end_reason().is_empty());
                break;
            }
            // Mostly random, but captures and moves that connect are preferred now and
            // then so that games under the engine rules also end.
            let mv = if rng.below(4) == 0 {
                *moves
                    .iter()
                    .find(|&&m| pos.is_capture(m))
                    .unwrap_or(&moves[rng.below(moves.len())])
            } else {
                moves[rng.below(moves.len())]
            };
            passes += mv.is_pass() as u64;
            if pos.is_capture(mv) {
                since_capture.clear();
            } else {
                since_capture.push(pos.hash());
            }
            pos.make_move(mv);
            game_plies += 1;
            assert!(game_plies < 3000, "a game that does not end: {pos:?}");
            if game_plies % 17 == 0 {
                let mut copy = pos.clone();
                assert_eq!(
                    engine::perft::perft(&mut copy, 2),
                    GameIo::perft(&mut copy, 2)
                );
            }
        }
        plies += game_plies;
    }
    eprintln!("{plies} plies, {passes} passes, {wins} wins, {draws} draws");
    assert!(wins > 0 && draws > 0);
}

#[test]
fn junk_text_never_panics() {
    let mut rng = SplitMix64::new(7);
    let pos = Position::startpos(RuleSet::Engine);
    let alphabet: Vec<char> = "xo/12345678 9-abcdefghX0éO\t\n".chars().collect();
    for _ in 0..20_000 {
        let len = rng.below(60);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        if let Err(e) = Position::from_fen(&s, RuleSet::Engine) {
            assert!(!e.to_string().contains('\n'));
        }
        let _ = pos.parse_move(&s);
        let _ = Move::parse_text(&s);
        let _ = Move::parse_protocol(&s);
    }
}

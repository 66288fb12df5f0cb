//! The rules of every game, on positions built for each rule: written once where the
//! games share a rule, generic over the game ([`engine::game::GameIo`]): the start
//! position (who moves, how many moves), the pass (the only move of a side without
//! another; never beside one), and a finished position (its result and why, and no
//! move). Each game's module holds its positions and the rules only it has (LOA's
//! connections, captures, jumps, repetition and move limit). More of each game's rules
//! are checked along random games in `invariants.rs` and by the perft counts in
//! `perft.rs`.

use engine::game::{GameIo, Outcome, RuleSet, Side};

/// The start position under the engine rules: the first side to move, `moves` legal
/// moves, none of them a pass, the game not over.
fn start_position_basics<G: GameIo>(moves: usize) {
    let p = G::startpos(G::Rules::ENGINE);
    let mut legal = Vec::new();
    p.generate_moves(&mut legal);
    assert_eq!(legal.len(), moves);
    assert!(legal.iter().all(|&m| !p.is_pass(m)));
    assert!(p.parse_move("0000").is_none_or(|pass| !p.is_legal(pass)));
    assert_eq!(p.side_to_move(), Side::First);
    assert!(!p.is_over());
    assert_eq!(p.outcome(), None);
}

/// `p`'s side to move has no move but the pass (`0000` in the engine notation): the
/// pass is legal and is a pass; after it the other side moves, has moves, and none is
/// a pass; unmaking it restores the position.
fn pass_only_without_moves<G: GameIo + PartialEq>(mut p: G) {
    assert!(!p.is_over());
    let pass = p.parse_move("0000").expect("the pass reads");
    let mut legal = Vec::new();
    p.generate_moves(&mut legal);
    assert_eq!(legal, vec![pass]);
    assert!(p.is_legal(pass));
    assert_eq!(p.move_name(pass), "0000");
    assert!(p.is_pass(pass));
    let before = p.clone();
    let side = p.side_to_move();
    let undo = p.make_move(pass);
    assert_eq!(p.side_to_move(), side.opponent());
    let mut legal = Vec::new();
    p.generate_moves(&mut legal);
    assert!(!legal.is_empty());
    assert!(!legal.contains(&pass) && legal.iter().all(|&m| !p.is_pass(m)));
    assert!(!p.is_legal(pass));
    p.unmake_move(pass, undo);
    assert!(p == before, "unmaking the pass restores the position");
    assert_eq!(p.hash(), before.hash());
}

/// `p` is over: its result is `outcome` for `reason`, and it has no move (the generic
/// walk counts no leaf below it).
fn a_finished_position_has_no_moves<G: GameIo>(mut p: G, outcome: Outcome, reason: &str) {
    assert!(p.is_over());
    assert_eq!(p.outcome(), Some(outcome));
    assert_eq!(p.end_reason(), reason);
    let mut legal = Vec::new();
    p.generate_moves(&mut legal);
    assert!(legal.is_empty(), "{legal:?}");
    assert_eq!(engine::perft::perft(&mut p, 3), 0);
}

mod ataxx {
    use engine::game::{Outcome, Side};
    use engine::games::ataxx::{Position, Rules};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::Uai).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn start_position_basics() {
        super::start_position_basics::<Position>(16);
    }

    /// x (to move) has stones but every square within reach is taken.
    #[test]
    fn pass_only_without_moves() {
        super::pass_only_without_moves(pos("7/7/7/7/ooo4/ooo4/xoo4 x 0 1"));
    }

    /// Blue has no stone left.
    #[test]
    fn a_side_without_stones_has_lost() {
        super::a_finished_position_has_no_moves(
            pos("7/7/7/7/7/7/x6 o 0 1"),
            Outcome::Win(Side::First),
            "no stones left 1-0",
        );
    }
}

mod loa {
    //! Lines of Action's edge rules, each on a position built for it: both sides
    //! connected by one move, captures that connect or disconnect, jumping own pieces but
    //! not enemy ones, the pass, the third repetition (engine rules) and the move limit
    //! (text rules).

    use engine::game::{Benchmark, Game, Notation, Outcome, Referee, Side};
    use engine::games::loa::bitboard::groups;
    use engine::games::loa::{parse_square, Move, Position, Rules};

    fn pos(fen: &str, rules: Rules) -> Position {
        Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn mv(p: &Position, text: &str) -> Move {
        p.parse_move(text)
            .unwrap_or_else(|| panic!("{text} is not legal in {p:?}"))
    }

    fn sq(name: &str) -> u8 {
        parse_square(name).expect("a square")
    }

    #[test]
    fn start_position_basics() {
        super::start_position_basics::<Position>(36);
        let p = Position::startpos(Rules::Ugi);
        assert_eq!(p.count(Side::First), 12);
        assert_eq!(p.material(Side::Second), 12);
        assert_eq!(p.end_reason(), "not over");
        // b1 moves along row 1 (6 pieces): b1-h1 lands on nothing and crosses only black.
        assert!(p.is_legal(Move::new(sq("b1"), sq("h1"))));
        // b1 up column b (2 pieces): b3.
        assert!(p.is_legal(Move::new(sq("b1"), sq("b3"))));
        assert!(!p.is_legal(Move::new(sq("b1"), sq("b4"))));
        // White's a2 is not black's to move.
        assert!(!p.is_legal(Move::new(sq("a2"), sq("c2"))));
        assert!(!p.is_legal(Move::PASS));
    }

    #[test]
    fn both_connected_by_one_move_the_mover_wins() {
        // White e8 slides 3 down column e (e8, e5, e1) and captures black's lone e5: black
        // is left with d1 e1 (connected), white with c3 d4 e5 (connected).
        let mut p = pos("4o3/8/8/4x3/3o4/2o5/8/3xx3 o 0 1", Rules::Ugi);
        assert!(!p.is_over());
        let m = mv(&p, "e8e5");
        assert!(p.is_capture(m));
        p.make_move(m);
        assert_eq!(p.outcome(), Some(Outcome::Win(Side::Second)));
        assert_eq!(p.end_reason(), "both connected, mover wins");
        assert!(p.legal_moves().is_empty());
        // The same board read from FEN: the side that just moved (white) has won.
        let q = pos(&p.to_fen(), Rules::Ugi);
        assert_eq!(q.outcome(), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn a_capture_can_connect_the_victim() {
        // The diagonal c1-h6 holds c1 and e3: black c1 moves 2 and takes white's lone e3,
        // leaving white a7 b8, which are connected. Black (c1, h1) is not: white wins.
        let mut p = pos("1o6/o7/8/8/8/4o3/8/2x4x x 0 1", Rules::Ugi);
        assert!(!p.is_over());
        let m = mv(&p, "c1e3");
        assert!(p.is_capture(m));
        p.make_move(m);
        assert_eq!(p.outcome(), Some(Outcome::Win(Side::Second)));
        assert_eq!(p.end_reason(), "white connected");
    }

    #[test]
    fn a_capture_can_disconnect_the_victim() {
        // White's chain a8 b7 c6 (and a lone h1); column b holds b7 and b5, so black b5
        // moves 2 and takes the chain's middle, splitting it.
        let mut p = pos("o7/1o6/2o5/1x6/8/8/6x1/7o x 0 1", Rules::Ugi);
        assert_eq!(groups(p.pieces(Side::Second)), 2);
        let m = mv(&p, "b5b7");
        assert!(p.is_capture(m));
        let before = p.clone();
        let undo = p.make_move(m);
        assert_eq!(groups(p.pieces(Side::Second)), 3);
        assert_eq!(p.outcome(), None);
        assert_eq!(p.count(Side::Second), 3);
        assert_eq!(p.clock(), 0, "a capture resets the clock");
        assert_eq!(p.lines(), &p.compute_lines());
        p.unmake_move(m, undo);
        assert_eq!(p, before);
    }

    #[test]
    fn jumping_own_pieces_but_not_enemy_ones() {
        let a1d1 = Move::new(sq("a1"), sq("d1"));
        // Row 1 holds a1 b1 c1 (3 pieces): a1 jumps b1 and c1 to d1.
        let p = pos("o6o/8/8/5x2/8/8/8/xxx5 x 0 1", Rules::Ugi);
        assert!(p.is_legal(a1d1));
        assert!(p.legal_moves().contains(&a1d1));
        // With b1 white, a1 would cross an enemy piece.
        let p = pos("o6o/8/8/5x2/8/8/8/xox5 x 0 1", Rules::Ugi);
        assert!(!p.is_legal(a1d1));
        assert!(!p.legal_moves().contains(&a1d1));
        // Jumping b1 and landing on white's d1 captures it.
        let p = pos("o6o/8/8/5x2/8/8/8/xx1o4 x 0 1", Rules::Ugi);
        assert!(p.is_legal(a1d1));
        assert!(p.is_capture(a1d1));
        assert!(!Game::is_quiet(&p, a1d1));
        // Landing on an own piece is not allowed, and the length must equal the count.
        let p = pos("o6o/8/8/5x2/8/8/8/x1xx4 x 0 1", Rules::Ugi);
        assert!(!p.is_legal(a1d1));
        assert!(!p.is_legal(Move::new(sq("a1"), sq("c1"))));
        assert!(!p
            .legal_moves()
            .iter()
            .any(|m| m.from() == sq("a1") && m.to() < 8));
    }

    /// Black a1 and h8 are walled in by white on every line: black must pass.
    #[test]
    fn pass_only_without_moves() {
        let mut p = pos("6ox/6oo/8/8/8/8/oo6/xo6 x 0 1", Rules::Ugi);
        assert_eq!(p.legal_moves(), vec![Move::PASS]);
        super::pass_only_without_moves(p.clone());
        p.make_move(Move::PASS);
        assert_eq!(p.hash(), p.compute_hash());
    }

    #[test]
    fn a_connected_side_at_setup_ends_the_game() {
        let p = pos("8/8/8/3xx3/8/8/o6o/8 o 0 1", Rules::Ugi);
        super::a_finished_position_has_no_moves(
            p.clone(),
            Outcome::Win(Side::First),
            "black connected",
        );
        assert!(!p.is_legal(Move::PASS));
        assert_eq!(Benchmark::perft(&mut p.clone(), 3), 0);
    }

    /// Four plies that return to the position: a move of each side and their reverses,
    /// found by search so the test does not depend on hand-checked geometry.
    fn find_cycle(p: &mut Position) -> [Move; 4] {
        for m1 in p.legal_moves() {
            let u1 = p.make_move(m1);
            for m2 in p.legal_moves() {
                let u2 = p.make_move(m2);
                let back1 = Move::new(m1.to(), m1.from());
                if !p.is_capture(back1) && p.is_legal(back1) {
                    let u3 = p.make_move(back1);
                    let back2 = Move::new(m2.to(), m2.from());
                    if p.is_legal(back2) {
                        p.unmake_move(back1, u3);
                        p.unmake_move(m2, u2);
                        p.unmake_move(m1, u1);
                        return [m1, m2, back1, back2];
                    }
                    p.unmake_move(back1, u3);
                }
                p.unmake_move(m2, u2);
            }
            p.unmake_move(m1, u1);
        }
        panic!("no four-ply cycle from {p:?}");
    }

    #[test]
    fn third_repetition_draws_under_engine_rules_only() {
        for rules in [Rules::Ugi, Rules::Text] {
            let mut p = Position::startpos(rules);
            let start_hash = p.hash();
            let cycle = find_cycle(&mut p);
            for (round, expect_rep) in [(1, 1), (2, 2)] {
                for (i, &m) in cycle.iter().enumerate() {
                    assert!(!p.is_over(), "round {round} ply {i}");
                    assert!(p.is_legal(m));
                    p.make_move(m);
                }
                assert_eq!(p.hash(), start_hash);
                assert_eq!(p.repetitions(), expect_rep);
            }
            match rules {
                Rules::Ugi => {
                    assert_eq!(p.outcome(), Some(Outcome::Draw));
                    assert!(p.is_over());
                    assert_eq!(p.end_reason(), "third repetition");
                    assert!(p.legal_moves().is_empty());
                }
                Rules::Text => {
                    assert_eq!(p.outcome(), None, "no repetition rule in the text language");
                    assert!(!p.is_repetition());
                }
            }
        }
        // After one cycle the search sees a repetition (engine rules), not yet a draw.
        let mut p = Position::startpos(Rules::Ugi);
        let cycle = find_cycle(&mut p);
        for &m in &cycle {
            p.make_move(m);
        }
        assert!(p.is_repetition());
        assert!(Game::is_repetition(&p));
        assert!(!p.is_over());
    }

    #[test]
    fn move_limit_ties_under_text_rules() {
        let mut p = Position::startpos(Rules::Text);
        assert_eq!(p.move_limit(), 30);
        p.set_move_limit(2);
        for i in 0..4 {
            assert!(!p.is_over(), "ply {i}");
            let m = p.legal_moves()[0];
            p.make_move(m);
        }
        assert_eq!(p.plies_played(), 4);
        assert_eq!(p.outcome(), Some(Outcome::Draw));
        assert_eq!(p.end_reason(), "move limit");
        assert!(p.legal_moves().is_empty());
        // No limit under the engine rules.
        let mut e = Position::startpos(Rules::Ugi);
        e.set_move_limit(2);
        for _ in 0..4 {
            let m = e.legal_moves()[0];
            e.make_move(m);
        }
        assert!(!e.is_over());
    }

    #[test]
    fn a_win_on_the_last_allowed_move_is_a_win() {
        // White's 30th move (59 plies played) connects: g4 slides 1 along row 4 to f4.
        let mut p = pos("8/8/8/3oo3/6o1/8/x6x/8 o 0 30", Rules::Text);
        assert_eq!(p.plies_played(), 59);
        assert!(!p.is_over());
        let m = mv(&p, "g4f4");
        p.make_move(m);
        assert_eq!(p.plies_played(), 60);
        assert_eq!(p.outcome(), Some(Outcome::Win(Side::Second)));
        assert_eq!(p.end_reason(), "white connected");
        // Another move there reaches the limit without a win.
        let mut p = pos("8/8/8/3oo3/6o1/8/x6x/8 o 0 30", Rules::Text);
        let m = mv(&p, "g4g3");
        p.make_move(m);
        assert_eq!(p.outcome(), Some(Outcome::Draw));
    }
}

mod reversi {
    use engine::game::{Notation, Outcome};
    use engine::games::reversi::{Position, Rules};

    fn pos(fen: &str) -> Position {
        <Position as Notation>::from_fen(fen, Rules::Standard)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn start_position_basics() {
        super::start_position_basics::<Position>(4);
    }

    /// White to move with no move (b1 is black's only target).
    #[test]
    fn pass_only_without_moves() {
        super::pass_only_without_moves(pos("xo6/8/8/8/8/8/8/8 o"));
    }

    /// Black a1, white h8: nobody can move, one disc each.
    #[test]
    fn a_position_nobody_can_move_in_is_over() {
        super::a_finished_position_has_no_moves(
            pos("x7/8/8/8/8/8/8/7o x"),
            Outcome::Draw,
            "no moves for either side 1-1",
        );
    }
}

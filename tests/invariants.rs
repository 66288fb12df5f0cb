//! Invariants over long random self-play, written once for every game ([`self_play`]):
//! every generated move is legal and every legal move is generated (against all
//! syntactically possible moves), a pass never stands beside another move, a position
//! has no move exactly when it is over, each move's name parses back to it, make/unmake
//! restores the position and its hash, the incremental hash equals a recomputed one, a
//! child's FEN reads back to the same FEN and hash, and every game ends. Each game's
//! module adds its own checks through [`SelfPlay`]'s hooks (LOA's line counts and
//! repetitions, Reversi's disc counts and OBF). Also per game: the search (and Reversi's
//! exact solver) only ever return legal moves ([`search_plays_legal_moves`]), and junk
//! text never panics the notation parsers ([`junk_never_panics`]).

use engine::game::{GameIo, Outcome, RuleSet};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// What a game brings to the generic self-play: its candidate moves, starts, how a move
/// is picked, and checks of its own.
trait SelfPlay: GameIo + PartialEq {
    /// What a game's own checks remember over one game (LOA: the positions since the
    /// last capture).
    type Record: Default;
    /// Every syntactically possible move (a superset of the legal ones anywhere).
    fn candidates() -> Vec<Self::Move>;
    /// The hash computed from scratch, to compare with the incremental one.
    fn recomputed_hash(&self) -> u64;
    /// The start of game number `game`.
    fn start(rng: &mut SplitMix64, game: usize) -> Self;
    /// The move self-play makes.
    fn pick(&self, moves: &[Self::Move], rng: &mut SplitMix64) -> Self::Move {
        moves[rng.below(moves.len())]
    }
    /// The game's own checks of a position (live or over) and its moves.
    fn check_position(&self, _record: &mut Self::Record, _moves: &[Self::Move]) {}
    /// The game's own checks of a child, right after `mv` was made from `parent`.
    fn check_child(&self, _parent: &Self, _mv: Self::Move) {}
    /// Called before `mv` is made from this position.
    fn record(&self, _mv: Self::Move, _record: &mut Self::Record) {}
    /// The game's own checks of a finished game.
    fn check_finished(&self) {}
}

/// What [`self_play`] played.
#[derive(Debug, Default)]
struct Totals {
    plies: u64,
    passes: u64,
    wins: u64,
    draws: u64,
}

/// Plays `games` random games from `seed` and checks every position on the way.
fn self_play<G: SelfPlay>(seed: u64, games: usize, max_plies: u64) -> Totals {
    let candidates = G::candidates();
    let mut rng = SplitMix64::new(seed);
    let mut totals = Totals::default();
    for game in 0..games {
        let mut pos = G::start(&mut rng, game);
        let mut record = G::Record::default();
        let mut game_plies = 0;
        loop {
            let moves = check_position(&mut pos, &candidates);
            pos.check_position(&mut record, &moves);
            if pos.is_over() {
                match pos.outcome() {
                    Some(Outcome::Win(_)) => totals.wins += 1,
                    _ => totals.draws += 1,
                }
                assert!(!pos.end_reason().is_empty());
                pos.check_finished();
                break;
            }
            let mv = pos.pick(&moves, &mut rng);
            totals.passes += pos.is_pass(mv) as u64;
            pos.record(mv, &mut record);
            pos.make_move(mv);
            game_plies += 1;
            assert!(game_plies <= max_plies, "a game that does not end: {pos:?}");
        }
        totals.plies += game_plies;
    }
    eprintln!("{totals:?}");
    totals
}

/// The checks every game shares, of one position and each of its moves; returns the moves.
fn check_position<G: SelfPlay>(pos: &mut G, candidates: &[G::Move]) -> Vec<G::Move> {
    let fen = pos.fen();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(pos.is_over(), pos.outcome().is_some(), "{fen}");
    assert_eq!(moves.is_empty(), pos.is_over(), "{fen}");
    if moves.len() > 1 {
        assert!(
            !moves.iter().any(|&m| pos.is_pass(m)),
            "a pass beside other moves at {fen}"
        );
    }

    // Generated equals the legal subset of all candidates, each once.
    let generated: HashSet<G::Move> = moves.iter().copied().collect();
    assert_eq!(
        generated.len(),
        moves.len(),
        "a move generated twice at {fen}"
    );
    let legal: HashSet<G::Move> = candidates
        .iter()
        .copied()
        .filter(|&m| pos.is_legal(m))
        .collect();
    assert_eq!(generated, legal, "generator vs is_legal at {fen}");

    for &mv in &moves {
        assert_eq!(
            pos.parse_move(&pos.move_name(mv)),
            Some(mv),
            "{mv} at {fen}"
        );
        let before = pos.clone();
        let undo = pos.make_move(mv);
        assert_eq!(
            pos.hash(),
            pos.recomputed_hash(),
            "hash after {mv} at {fen}"
        );
        assert_eq!(pos.is_over(), pos.outcome().is_some());
        let child = pos.fen();
        let reread = G::from_fen(&child, pos.rule_set()).expect("own FEN reads back");
        assert_eq!(reread.fen(), child);
        assert_eq!(reread.hash(), pos.hash());
        pos.check_child(&before, mv);
        pos.unmake_move(mv, undo);
        assert_eq!(*pos, before, "unmake {mv} at {fen}");
        assert_eq!(pos.hash(), before.hash());
    }
    moves
}

/// The search (every third ply, a small node budget; other plies random) only plays
/// legal moves and has none in a finished game. `oracle` may answer first (Reversi's
/// exact solver near the end); it is asked about the finished position too and must
/// answer `None` there.
fn search_plays_legal_moves<G: SelfPlay>(
    seed: u64,
    games: usize,
    nodes: u64,
    mut oracle: impl FnMut(&G) -> Option<G::Move>,
) {
    let mut rng = SplitMix64::new(seed);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<G>::new(4);
    for game in 0..games {
        let mut pos = G::start(&mut rng, game);
        let mut ply = 0u64;
        while !pos.is_over() {
            let mv = if let Some(best) = oracle(&pos) {
                assert!(pos.is_legal(best), "the oracle played {best} in {pos:?}");
                best
            } else if ply.is_multiple_of(3) {
                let r = searcher.search(&pos, &Limits::nodes(nodes), &stop, Some(ply), &mut |_| {});
                let best = r.best.expect("a live position has a move");
                assert!(pos.is_legal(best), "search played {best} in {pos:?}");
                best
            } else {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            pos.make_move(mv);
            ply += 1;
        }
        pos.check_finished();
        let r = searcher.search(&pos, &Limits::nodes(1000), &stop, None, &mut |_| {});
        assert!(r.best.is_none(), "a finished game has no move");
        assert!(oracle(&pos).is_none());
    }
}

/// Random strings from `alphabet` never panic the FEN reader (under every rule set;
/// its errors are one line) or the move parser; `more` feeds each string to the game's
/// other parsers.
fn junk_never_panics<G: GameIo>(seed: u64, alphabet: &str, max_len: usize, more: impl Fn(&str)) {
    let mut rng = SplitMix64::new(seed);
    let alphabet: Vec<char> = alphabet.chars().collect();
    let pos = G::startpos(G::Rules::ENGINE);
    for _ in 0..20_000 {
        let len = rng.below(max_len);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        for &rules in G::Rules::ALL {
            if let Err(e) = G::from_fen(&s, rules) {
                assert!(!e.contains('\n'), "{e:?}");
            }
        }
        let _ = pos.parse_move(&s);
        more(&s);
    }
}

mod ataxx {
    use super::{junk_never_panics, search_plays_legal_moves, self_play, SelfPlay};
    use engine::game::{Outcome, Side};
    use engine::games::ataxx::bitboard::{distance, SQUARES};
    use engine::games::ataxx::{Move, Position, Rules};
    use engine::rng::SplitMix64;

    impl SelfPlay for Position {
        type Record = ();

        /// Singles, doubles within distance 2, and the pass.
        fn candidates() -> Vec<Move> {
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

        fn recomputed_hash(&self) -> u64 {
            self.compute_hash()
        }

        /// The UAI rules in even games, the text rules in odd ones; a start with or
        /// without blocks.
        fn start(rng: &mut SplitMix64, game: usize) -> Position {
            const STARTS: [&str; 5] = [
                "x5o/7/7/7/7/7/o5x x 0 1",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                "x2-2o/3-3/2---2/7/2---2/3-3/o2-2x x 0 1",
                "x-1-1-o/-1-1-1-/1-1-1-1/-1-1-1-/1-1-1-1/-1-1-1-/o-1-1-x x 0 1",
                "7/7/7/2x1o2/7/7/7 o 0 1",
            ];
            let rules = if game.is_multiple_of(2) {
                Rules::Uai
            } else {
                Rules::Text
            };
            Position::from_fen(rng.choose(&STARTS).unwrap(), rules).unwrap()
        }
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let totals = self_play::<Position>(20261121, 300, 100_000);
        assert!(totals.plies > 10_000, "only {} plies played", totals.plies);
    }

    #[test]
    fn search_returns_legal_moves_in_random_positions() {
        search_plays_legal_moves::<Position>(7, 40, 3000, |_| None);
    }

    #[test]
    fn junk_text_never_panics() {
        junk_never_panics::<Position>(3, "xo-/1234567 89abcdefgXO0\t\né", 60, |s| {
            let _ = Position::from_fen(s, Rules::Text2008);
        });
    }

    #[test]
    fn end_rules_follow_the_rule_set() {
        // Text rules: 25 consecutive jumps end the game and the count decides.
        let pos = Position::from_fen("x5o/7/7/7/7/7/o6 x 25 1", Rules::Text).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::Second)));
        let pos = Position::from_fen("x5o/7/7/7/7/7/o5x x 24 1", Rules::Text).unwrap();
        assert_eq!(pos.outcome(), None);
        // UAI: 100 plies draw, unless the board is decided.
        let pos = Position::from_fen("x5o/7/7/7/7/7/o6 x 100 1", Rules::Uai).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        let pos = Position::from_fen("x6/7/7/7/7/7/7 x 100 1", Rules::Uai).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::First)));
        // Text rules: a pass neither counts nor resets the jump count; UAI counts it.
        for (rules, after) in [(Rules::Text, 7), (Rules::Uai, 8)] {
            let mut pos = Position::from_fen("x--4/---4/---4/7/7/7/6o x 7 1", rules).unwrap();
            assert_eq!(pos.legal_moves(), vec![Move::PASS]);
            pos.make_move(Move::PASS);
            assert_eq!(pos.clock(), after);
        }
    }
}

mod loa {
    //! LOA's own checks: the incremental line counts and connection result equal their
    //! recomputations, the repetition count equals a naive one, the move count and the
    //! text notation agree with the generator, and the generic perft agrees with the
    //! fast one along the games. Both rule sets; some text-rule games with a short move
    //! limit.

    use super::{junk_never_panics, self_play, SelfPlay};
    use engine::game::{Benchmark, Game};
    use engine::games::loa::{Move, Position, Rules};
    use engine::rng::SplitMix64;

    /// What one LOA game remembers for its checks.
    #[derive(Default)]
    pub(super) struct Record {
        /// The hashes of the positions since the last capture, for a naive repetition
        /// count.
        since_capture: Vec<u64>,
        /// Positions seen in this game.
        plies: u64,
    }

    impl SelfPlay for Position {
        type Record = Record;

        /// Each ordered pair of distinct squares, and the pass.
        fn candidates() -> Vec<Move> {
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

        fn recomputed_hash(&self) -> u64 {
            self.compute_hash()
        }

        /// The engine rules in even games, the text rules in odd ones (every other one
        /// with a move limit of 10 to 49); the standard start or a scrambled one.
        fn start(rng: &mut SplitMix64, game: usize) -> Position {
            const STARTS: [&str; 3] = [
                "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x 0 1",
                "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 o 0 1",
                "x6x/1o4o1/8/3xo3/3ox3/8/1o4o1/x6x x 0 1",
            ];
            let rules = if game.is_multiple_of(2) {
                Rules::Ugi
            } else {
                Rules::Text
            };
            let fen = STARTS[rng.below(STARTS.len())];
            let mut pos = Position::from_fen(fen, rules).expect("valid start");
            if rules == Rules::Text && game % 4 == 1 {
                pos.set_move_limit(10 + rng.below(40) as u32);
            }
            pos
        }

        /// Mostly random, but captures are preferred now and then so that games under
        /// the engine rules also end.
        fn pick(&self, moves: &[Move], rng: &mut SplitMix64) -> Move {
            if rng.below(4) == 0 {
                let random = moves[rng.below(moves.len())];
                *moves
                    .iter()
                    .find(|&&m| self.is_capture(m))
                    .unwrap_or(&random)
            } else {
                moves[rng.below(moves.len())]
            }
        }

        fn check_position(&self, record: &mut Record, moves: &[Move]) {
            let fen = self.to_fen();
            let naive = record
                .since_capture
                .iter()
                .filter(|&&h| h == self.hash())
                .count();
            assert_eq!(self.repetitions(), naive, "{fen}");
            assert_eq!(
                self.is_repetition(),
                self.rules() == Rules::Ugi && naive >= 1 && self.connected_winner().is_none()
            );
            // LOA's own `is_over` and `outcome` agree with each other and the trait's.
            assert_eq!(self.is_over(), self.outcome().is_some(), "{fen}");
            assert_eq!(self.is_over(), Game::outcome(self).is_some(), "{fen}");
            assert_eq!(moves.is_empty(), self.is_over(), "{fen}");
            if !self.is_over() && moves != [Move::PASS] {
                assert_eq!(self.count_moves(self.side_to_move()) as usize, moves.len());
            }
            for &mv in moves {
                assert_eq!(Move::parse_text(&mv.text()).ok(), Some(mv));
            }
            if record.plies > 0 && record.plies.is_multiple_of(17) {
                let mut copy = self.clone();
                assert_eq!(
                    engine::perft::perft(&mut copy, 2),
                    Benchmark::perft(&mut copy, 2)
                );
            }
        }

        fn check_child(&self, _parent: &Position, mv: Move) {
            assert_eq!(self.is_over(), self.outcome().is_some());
            assert_eq!(self.lines(), &self.compute_lines(), "lines after {mv}");
            assert_eq!(
                self.connected_winner(),
                self.compute_winner(),
                "connection after {mv}"
            );
            let reread = Position::from_fen(&self.to_fen(), self.rules()).unwrap();
            assert_eq!(reread.connected_winner(), self.connected_winner());
        }

        fn record(&self, mv: Move, record: &mut Record) {
            if self.is_capture(mv) {
                record.since_capture.clear();
            } else {
                record.since_capture.push(self.hash());
            }
            record.plies += 1;
        }
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let totals = self_play::<Position>(0x10A_2026, 300, 2999);
        assert!(totals.wins > 0 && totals.draws > 0, "{totals:?}");
    }

    #[test]
    fn junk_text_never_panics() {
        junk_never_panics::<Position>(7, "xo/12345678 9-abcdefghX0éO\t\n", 60, |s| {
            let _ = Move::parse_text(s);
            let _ = Move::parse_protocol(s);
        });
    }
}

mod reversi {
    //! Reversi's own checks: FEN and OBF round-trip, a move places one disc and turns
    //! the discs `flips` names, and a finished game's margin agrees with its outcome.
    //! The exact solver only ever plays legal moves and keeps its score along its line.

    use super::{junk_never_panics, search_plays_legal_moves, self_play, SelfPlay};
    use engine::game::{Game, Notation, Outcome, Side};
    use engine::games::reversi::solve::Solver;
    use engine::games::reversi::{Move, Position};
    use engine::rng::SplitMix64;

    impl SelfPlay for Position {
        type Record = ();

        /// The 64 squares and the pass.
        fn candidates() -> Vec<Move> {
            let mut v: Vec<Move> = (0..64).map(Move::place).collect();
            v.push(Move::PASS);
            v
        }

        fn recomputed_hash(&self) -> u64 {
            self.compute_hash()
        }

        fn start(_: &mut SplitMix64, _: usize) -> Position {
            Position::startpos()
        }

        fn check_position(&self, _: &mut (), moves: &[Move]) {
            assert_eq!(Position::from_fen(&self.to_fen()).unwrap(), *self);
            assert_eq!(Position::from_obf(&self.to_obf()).unwrap(), *self);
            for &mv in moves {
                assert_eq!(Move::parse_text(&mv.text()).unwrap(), mv);
            }
        }

        fn check_child(&self, before: &Position, mv: Move) {
            assert_eq!(self.side_to_move(), before.side_to_move().opponent());
            if !mv.is_pass() {
                // One disc placed, `flipped` turned: the mover gains 1 + f.
                let flipped = before.flips(mv).count_ones();
                let us = before.side_to_move();
                assert!(flipped > 0);
                assert_eq!(self.count(us), before.count(us) + 1 + flipped);
                assert_eq!(
                    self.count(us.opponent()),
                    before.count(us.opponent()) - flipped
                );
            }
        }

        fn check_finished(&self) {
            assert!(self.is_over());
            assert!(self.legal_moves().is_empty(), "{self:?}");
            let (b, w) = (
                self.count(Side::First) as i32,
                self.count(Side::Second) as i32,
            );
            let empty = 64 - b - w;
            let margin = Game::final_margin(self);
            let expected = match self.outcome() {
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
                None => panic!("finished but no outcome: {self:?}"),
            };
            assert_eq!(margin, expected, "{self:?}");
            assert_eq!(margin % 2, 0);
            assert_eq!(
                self.end_reason(),
                format!("no moves for either side {b}-{w}")
            );
        }
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let totals = self_play::<Position>(2026_1123, 400, 120);
        assert!(totals.plies > 20_000, "only {} plies played", totals.plies);
        assert!(totals.passes > 0, "random games should meet some passes");
    }

    /// With 12 empties or fewer the exact solver plays, and playing its move keeps the
    /// same exact score; it has no move in a finished game.
    #[test]
    fn search_and_solver_play_legal_moves() {
        let mut solver = Solver::new(16);
        search_plays_legal_moves::<Position>(99, 12, 2000, |pos| {
            if pos.is_over() {
                assert_eq!(solver.solve(pos).best, None);
                return None;
            }
            if pos.empty().count_ones() > 12 {
                return None;
            }
            let s = solver.solve(pos);
            let best = s.best.expect("a live position has a move");
            let mut next = pos.clone();
            next.make_move(best);
            assert_eq!(-solver.solve(&next).score, s.score, "{pos:?} {best}");
            Some(best)
        });
    }

    #[test]
    fn junk_text_never_panics() {
        junk_never_panics::<Position>(5, "xXoObBwW012345678990/ -;.é\t", 80, |s| {
            let _ = Position::from_obf(s);
            let _ = Move::parse_text(s);
        });
        // Every prefix of a good FEN and OBF line.
        let fen = "xxxxxxxx/oooooooo/8/3ox3/3xo3/8/8/7x o";
        for i in 0..=fen.len() {
            let _ = Position::from_fen(&fen[..i]);
        }
        let obf = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        for i in 0..=obf.len() {
            let _ = Position::from_obf(&obf[..i]);
        }
    }
}

//! The text language's AI (its default node budget, [`AI_NODES`]) must convert every
//! forced win of one, two or three of its own moves, as `loa.txt` asks. Positions come
//! from the last plies of quick self-play games and are proven here by an exhaustive
//! solver (no heuristics), then the AI plays them out under the text rules against the
//! longest defence.

use engine::game::{Outcome, RuleSet};
use engine::games::loa::text::{AI_NODES, AI_TIME_CAP};
use engine::games::loa::{Move, Position};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Exhaustive win/loss prover with a memo of proven facts per (position, plies).
#[derive(Default)]
struct Solver {
    memo: HashMap<(u64, u32, bool), bool>,
    nodes: u64,
    /// Past this many nodes (if set) the solver gives up and says so.
    budget: Option<u64>,
    gave_up: bool,
}

impl Solver {
    /// Can the side to move force a connection within `plies` plies?
    fn wins_within(&mut self, pos: &mut Position, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        self.nodes += 1;
        if self.budget.is_some_and(|b| self.nodes > b) {
            self.gave_up = true;
            return false;
        }
        let key = (pos.hash(), plies, true);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let me = pos.side_to_move();
        let mut result = false;
        for mv in pos.legal_moves() {
            let undo = pos.make_move(mv);
            let won = match pos.outcome() {
                Some(o) => o == Outcome::Win(me),
                None => plies >= 3 && self.loses_within(pos, plies - 1),
            };
            pos.unmake_move(mv, undo);
            if won {
                result = true;
                break;
            }
        }
        self.memo.insert(key, result);
        result
    }

    /// Does the side to move lose within `plies` plies whatever it does?
    fn loses_within(&mut self, pos: &mut Position, plies: u32) -> bool {
        let key = (pos.hash(), plies, false);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let me = pos.side_to_move();
        let mut result = true;
        for mv in pos.legal_moves() {
            let undo = pos.make_move(mv);
            let lost = match pos.outcome() {
                Some(o) => o == Outcome::Win(me.opponent()),
                None => self.wins_within(pos, plies - 1),
            };
            pos.unmake_move(mv, undo);
            if !lost {
                result = false;
                break;
            }
        }
        self.memo.insert(key, result);
        result
    }

    /// The fewest own moves (1..=max) in which the side to move forces a win.
    fn win_distance(&mut self, pos: &mut Position, max: u32) -> Option<u32> {
        let n = (1..=max).find(|&n| self.wins_within(pos, 2 * n - 1));
        if self.gave_up {
            None
        } else {
            n
        }
    }

    /// The defender's move that postpones the loss longest (ties: first generated).
    fn longest_defence(&mut self, pos: &mut Position, max_plies: u32) -> Move {
        let moves = pos.legal_moves();
        let mut best = (0, moves[0]);
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let survive = if pos.outcome().is_some() {
                0
            } else {
                (1..=max_plies)
                    .step_by(2)
                    .find(|&p| self.wins_within(pos, p))
                    .unwrap_or(max_plies + 1)
            };
            pos.unmake_move(mv, undo);
            if survive > best.0 {
                best = (survive, mv);
            }
        }
        best.1
    }
}

/// The same board under the text rules with fresh counters (so the move limit is far).
fn fresh(pos: &Position) -> Position {
    Position::from_parts(
        pos.pieces(engine::game::Side::First),
        pos.pieces(engine::game::Side::Second),
        pos.side_to_move(),
        0,
        1,
        RuleSet::Text,
    )
    .expect("a valid board")
}

/// Positions from the last plies of quick self-play games (random first moves, then a
/// small search for both sides), where forced wins are common.
fn candidates(games: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(0x10A_F0CED);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for game in 0..games {
        let mut searcher = Searcher::<Position>::new(1);
        let mut pos = Position::startpos(RuleSet::Engine);
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

/// Proven positions for each distance.
const PER_DISTANCE: usize = 6;

fn find_positions() -> Vec<(u32, Position)> {
    let mut found: Vec<Vec<Position>> = vec![Vec::new(); 4];
    for mut pos in candidates(60) {
        if pos.is_over() {
            continue;
        }
        let mut solver = Solver {
            budget: Some(400_000),
            ..Solver::default()
        };
        if let Some(n) = solver.win_distance(&mut pos, 3) {
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

#[test]
fn ai_converts_forced_wins_of_one_to_three_moves() {
    let positions = find_positions();
    for n in 1..=3 {
        let count = positions.iter().filter(|(d, _)| *d == n).count();
        assert_eq!(count, PER_DISTANCE, "positions found with a win in {n}");
    }
    let stop = AtomicBool::new(false);
    for (n, start) in positions {
        let mut pos = start.clone();
        let mut searcher = Searcher::<Position>::new(32);
        let limits = Limits {
            nodes: Some(AI_NODES),
            hard_time: Some(AI_TIME_CAP),
            ..Limits::default()
        };
        let winner = pos.side_to_move();
        let mut solver = Solver::default();
        for own_move in 1..=n {
            let r = searcher.search(&pos, &limits, &stop, Some(1), &mut |_| {});
            let mv = r.best.expect("a move");
            assert!(pos.is_legal(mv));
            pos.make_move(mv);
            let remaining = 2 * (n - own_move);
            match pos.outcome() {
                Some(o) => {
                    assert_eq!(o, Outcome::Win(winner), "{:?} (win in {n})", start);
                    break;
                }
                None => {
                    assert!(
                        own_move < n && solver.loses_within(&mut pos, remaining),
                        "AI let the win in {n} slip at its move {own_move}: {start:?} then {mv}"
                    );
                    let reply = solver.longest_defence(&mut pos, remaining);
                    pos.make_move(reply);
                    if let Some(o) = pos.outcome() {
                        assert_eq!(o, Outcome::Win(winner));
                        break;
                    }
                }
            }
        }
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win(winner)),
            "{start:?} not won in {n}"
        );
    }
}

#[test]
fn solver_sanity() {
    // Black to move joins its two pieces with c2-b1: a win in one.
    let mut pos = Position::from_fen("o6o/8/8/8/8/8/2x5/x7 x", RuleSet::Text).unwrap();
    assert_eq!(Solver::default().win_distance(&mut pos, 3), Some(1));
}

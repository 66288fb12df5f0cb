//! The AI must convert forced wins of one to five of its own moves. Positions are found
//! by random generation and proven by an exhaustive solver in this test (no heuristics,
//! no tables), then the AI plays them out under the text rules with the text front
//! end's budget and search settings against the longest defence.

use engine::game::{Outcome, Side};
use engine::games::ataxx::bitboard::{Bits, FULL};
use engine::games::ataxx::text::{AI_NODES, AI_TIME_CAP};
use engine::games::ataxx::{Move, Position, Rules};
use engine::protocol::text;
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Exhaustive win/loss prover with a memo of proven facts per (position, clock, plies).
#[derive(Default)]
struct Solver {
    memo: HashMap<(u64, u32, u32, bool), bool>,
    /// Nodes visited; past `budget` (if set) the solver gives up and says so.
    nodes: u64,
    budget: Option<u64>,
    gave_up: bool,
}

impl Solver {
    /// Can the side to move force a win within `plies` plies?
    fn wins_within(&mut self, pos: &mut Position, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        self.nodes += 1;
        if self.budget.is_some_and(|b| self.nodes > b) {
            self.gave_up = true;
            return false;
        }
        let key = (pos.hash(), pos.clock(), plies, true);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let me = pos.side_to_move();
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|&m| std::cmp::Reverse(pos.captures(m).count_ones()));
        let mut result = false;
        for mv in moves {
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
        let key = (pos.hash(), pos.clock(), plies, false);
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

/// Positions proven for each distance.
const PER_DISTANCE: usize = 6;

fn find_positions() -> Vec<(u32, Position)> {
    let mut rng = SplitMix64::new(0xF0CED);
    let mut found: Vec<Vec<Position>> = vec![Vec::new(); 6];
    for _ in 0..200_000 {
        if found[1..].iter().all(|f| f.len() >= PER_DISTANCE) {
            break;
        }
        let Some(mut pos) = random_position(&mut rng) else {
            continue;
        };
        let mut solver = Solver {
            budget: Some(20_000),
            ..Solver::default()
        };
        if let Some(n) = solver.win_distance(&mut pos, 5) {
            if found[n as usize].len() < PER_DISTANCE {
                found[n as usize].push(pos);
            }
        }
    }
    found
        .into_iter()
        .enumerate()
        .flat_map(|(n, ps)| ps.into_iter().map(move |p| (n as u32, p)))
        .collect()
}

#[test]
fn ai_converts_forced_wins_of_one_to_five_moves() {
    let positions = find_positions();
    let distances: Vec<u32> = positions.iter().map(|(n, _)| *n).collect();
    for n in 1..=5 {
        let count = distances.iter().filter(|&&d| d == n).count();
        assert_eq!(count, PER_DISTANCE, "positions found with a win in {n}");
    }
    let stop = AtomicBool::new(false);
    for (n, start) in positions {
        let mut pos = start.clone();
        let mut searcher = Searcher::<Position>::new(16);
        searcher.features = text::ai_features();
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
                    assert_eq!(o, Outcome::Win(winner), "{} (win in {n})", start.to_fen());
                    break;
                }
                None => {
                    assert!(
                        own_move < n && solver.loses_within(&mut pos, remaining),
                        "AI let the win in {n} slip at its move {own_move}: {} then {mv}",
                        start.to_fen()
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
            "{} not won in {n}",
            start.to_fen()
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
    assert_eq!(Solver::default().win_distance(&mut pos, 3), Some(1));
    assert_eq!(Bits(pos.empty()).count(), 1);
}

//! The forced-win tests' referee, for any game: an exhaustive win/loss prover (no
//! heuristics, no tables, a memo of proven facts) and the play-out of a proven forced
//! win by the AI against the longest defence.

use engine::game::{Game, GameIo, Outcome};
use engine::search::{Limits, Searcher};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Exhaustive prover with a memo per (position, extra key, plies, question).
pub struct Prover<G: Game> {
    memo: HashMap<(u64, u32, u32, bool), bool>,
    nodes: u64,
    /// Past this many nodes (if set) the prover gives up and says so.
    budget: Option<u64>,
    gave_up: bool,
    /// What decides a position's fate besides its hash (Ataxx's jump clock).
    extra_key: fn(&G) -> u32,
    /// Sorts the attacker's moves, likeliest wins first (speed only).
    order: fn(&G, &mut [G::Move]),
}

impl<G: Game> Prover<G> {
    pub fn new(extra_key: fn(&G) -> u32, order: fn(&G, &mut [G::Move])) -> Prover<G> {
        Prover {
            memo: HashMap::new(),
            nodes: 0,
            budget: None,
            gave_up: false,
            extra_key,
            order,
        }
    }

    /// The same prover, giving up after `nodes` nodes.
    pub fn with_budget(mut self, nodes: u64) -> Prover<G> {
        self.budget = Some(nodes);
        self
    }

    fn moves(pos: &G) -> Vec<G::Move> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        moves
    }

    /// Can the side to move force a win within `plies` plies?
    pub fn wins_within(&mut self, pos: &mut G, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        self.nodes += 1;
        if self.budget.is_some_and(|b| self.nodes > b) {
            self.gave_up = true;
            return false;
        }
        let key = (pos.hash(), (self.extra_key)(pos), plies, true);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let me = pos.side_to_move();
        let mut moves = Self::moves(pos);
        (self.order)(pos, &mut moves);
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
    pub fn loses_within(&mut self, pos: &mut G, plies: u32) -> bool {
        let key = (pos.hash(), (self.extra_key)(pos), plies, false);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let me = pos.side_to_move();
        let mut result = true;
        for mv in Self::moves(pos) {
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

    /// The fewest own moves (1..=max) in which the side to move forces a win; `None`
    /// also when the budget ran out first.
    pub fn win_distance(&mut self, pos: &mut G, max: u32) -> Option<u32> {
        let n = (1..=max).find(|&n| self.wins_within(pos, 2 * n - 1));
        if self.gave_up {
            None
        } else {
            n
        }
    }

    /// The defender's move that postpones the loss longest (ties: first generated).
    pub fn longest_defence(&mut self, pos: &mut G, max_plies: u32) -> G::Move {
        let moves = Self::moves(pos);
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

/// Plays `start`, where the side to move wins in `n` own moves, with the AI's moves
/// (`searcher` at `limits`) against the longest defence, and panics unless the AI wins
/// in exactly `n` moves.
pub fn assert_converts<G: GameIo>(
    start: &G,
    n: u32,
    prover: &mut Prover<G>,
    searcher: &mut Searcher<G>,
    limits: &Limits,
) {
    let stop = AtomicBool::new(false);
    let mut pos = start.clone();
    let winner = pos.side_to_move();
    for own_move in 1..=n {
        let r = searcher.search(&pos, limits, &stop, Some(1), &mut |_| {});
        let mv = r.best.expect("a move");
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
        let remaining = 2 * (n - own_move);
        if pos.outcome().is_none() {
            assert!(
                own_move < n && prover.loses_within(&mut pos, remaining),
                "AI let the win in {n} slip at its move {own_move}: {} then {mv}",
                start.fen()
            );
            let reply = prover.longest_defence(&mut pos, remaining);
            pos.make_move(reply);
        }
        if pos.outcome().is_some() {
            break;
        }
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win(winner)),
        "{} not won in {n}",
        start.fen()
    );
}

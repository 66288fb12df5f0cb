//! A proof search for short forced wins: exhaustive AND/OR search over the rules alone
//! (no evaluation, no pruning but the proof's own cut-offs), deepened one own move at a
//! time, so the first win it finds is the fastest.
//!
//! The text languages' AI runs it near the end of a game ([`super::Features::exact_endgame`]
//! and `Game::near_end`) before its normal search: a node-limited alpha-beta search may
//! not reach the nine plies of a win in five moves, and then its choice rests on the
//! evaluation; the proof needs no evaluation and usually few nodes, because the
//! attacker's first winning move cuts and the defender's replies are few.

use crate::game::{Game, Outcome, Side};
use std::sync::atomic::{AtomicBool, Ordering};

/// The result of [`fastest_win`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// The first move of the fastest forced win, and its length in own moves.
    pub win: Option<(M, u32)>,
    /// Nodes visited.
    pub nodes: u64,
}

struct Prover<'a, G: Game> {
    us: Side,
    nodes: u64,
    budget: u64,
    stop: &'a AtomicBool,
    /// Move lists by ply, reused.
    lists: Vec<Vec<G::Move>>,
}

/// The fastest forced win of the side to move in `pos` within `max_moves` of its own
/// moves, proven with at most `budget` nodes; `None` when there is none, the budget
/// runs out or `stop` is raised. The game's move-order hint orders every node's moves
/// (captures first wins and refutes soonest).
pub fn fastest_win<G: Game>(
    pos: &mut G,
    max_moves: u32,
    budget: u64,
    stop: &AtomicBool,
) -> Proof<G::Move> {
    let mut p = Prover::<G> {
        us: pos.side_to_move(),
        nodes: 0,
        budget,
        stop,
        lists: Vec::new(),
    };
    let mut win = None;
    for n in 1..=max_moves {
        match p.attack(pos, 2 * n - 1, 0) {
            Some(Some(mv)) => {
                win = Some((mv, n));
                break;
            }
            Some(None) => {}
            None => break,
        }
    }
    Proof {
        win,
        nodes: p.nodes,
    }
}

impl<G: Game> Prover<'_, G> {
    /// The moves of `pos` at `ply`, best hint first (taken out of the reusable lists).
    fn moves(&mut self, pos: &G, ply: usize) -> Vec<G::Move> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        pos.generate_moves(&mut list);
        list.sort_by_cached_key(|&m| std::cmp::Reverse(pos.move_order_hint(m)));
        list
    }

    /// Counts a node; false when the proof must give up.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.nodes <= self.budget && (self.nodes & 1023 != 0 || !self.stop.load(Ordering::Relaxed))
    }

    /// We are to move with `plies` plies left: `Some(Some(mv))` if `mv` forces a win
    /// within them, `Some(None)` if no move does, `None` if the proof gave up.
    fn attack(&mut self, pos: &mut G, plies: u32, ply: usize) -> Option<Option<G::Move>> {
        if !self.visit() {
            return None;
        }
        let list = self.moves(pos, ply);
        let mut found = Some(None);
        for &mv in &list {
            let undo = pos.make_move(mv);
            let won = match pos.outcome() {
                Some(o) => Some(o == Outcome::Win(self.us)),
                None if plies >= 3 => self.defend(pos, plies - 1, ply + 1),
                None => Some(false),
            };
            pos.unmake_move(mv, undo);
            match won {
                Some(true) => {
                    found = Some(Some(mv));
                    break;
                }
                Some(false) => {}
                None => {
                    found = None;
                    break;
                }
            }
        }
        self.lists[ply] = list;
        found
    }

    /// The opponent is to move with `plies` plies left: `Some(true)` if every reply
    /// still loses to us within them, `None` if the proof gave up.
    fn defend(&mut self, pos: &mut G, plies: u32, ply: usize) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        let list = self.moves(pos, ply);
        let mut lost = Some(true);
        for &mv in &list {
            let undo = pos.make_move(mv);
            let r = match pos.outcome() {
                Some(o) => Some(o == Outcome::Win(self.us)),
                None => self.attack(pos, plies - 1, ply + 1).map(|m| m.is_some()),
            };
            pos.unmake_move(mv, undo);
            if r != Some(true) {
                lost = r;
                break;
            }
        }
        self.lists[ply] = list;
        lost
    }
}

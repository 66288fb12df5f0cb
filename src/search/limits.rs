//! What bounds a search: depth, nodes, and two wall-clock deadlines. The soft deadline is
//! checked between iterations (do not start what cannot finish), the hard one inside the
//! search (stop now).

use crate::game::SolveBudget;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How many plies past its search depth a front end that promises perfect play near
/// the end (NBoard, the board page's analysis) asks the game's exact solver to look
/// ([`Limits::solve`] `= depth + SOLVE_MARGIN`), the solver's reach permitting
/// (Reversi's `SEARCH_SOLVE_EMPTIES`: 24 empties take it seconds to a minute).
pub const SOLVE_MARGIN: u32 = 8;

/// Search budget. Every field is optional; an all-`None` limit with `infinite: false`
/// searches to the maximum depth.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Node budget: the search stops as soon as it has visited this many nodes.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop inside the search after this much time.
    pub hard_time: Option<Duration>,
    /// Ignore depth exhaustion (and proven results) and run until stopped.
    pub infinite: bool,
    /// When the clock started: the deadlines count from here (a protocol's `go`
    /// arrival), so time queued behind other work is charged. `None`: the search start.
    pub start: Option<Instant>,
    /// Solve exactly first, with the game's solver ([`crate::game::Game::solve`]), a
    /// position that ends within this many plies (the solver's reach permitting): with
    /// no budget but `stop`, whatever the limits above, for a front end that promises
    /// perfect play near the end. Out of reach, the search runs as usual.
    pub solve: Option<u32>,
    /// That solve, and the search's own (`Features::solver`, staged or not), forget
    /// what earlier solves learnt, so the same position always gets the same move (seeded
    /// AI play), at the cost of the reuse between moves.
    pub fresh_solve: bool,
    /// That solve keeps to the clock instead: it gets half the time to the soft deadline
    /// (else the hard one), as the search's own solver does, so that a move on a clock
    /// is never late however hard the endgame (NBoard's `go` on a game clock).
    pub timed_solve: bool,
}

impl Limits {
    /// The limits for a root move's reply in [`crate::search::Engine::rate`]: one ply
    /// shallower (at least 1), the solve's reach shrunk by the same amount.
    pub fn one_ply_down(&self) -> Limits {
        let depth = self.depth.map(|d| d.saturating_sub(1).max(1));
        let less = self.depth.zip(depth).map_or(0, |(d, c)| d - c);
        Limits {
            depth,
            solve: self.solve.map(|p| p.saturating_sub(less)),
            ..self.clone()
        }
    }

    /// The budget of the solve [`Limits::solve`] asks for: none but `stop`.
    pub(crate) fn solve_budget<'a>(&self, stop: &'a AtomicBool) -> Option<SolveBudget<'a>> {
        let deadline = self
            .soft_time
            .or(self.hard_time)
            .filter(|_| self.timed_solve)
            .map(|t| self.start.unwrap_or_else(Instant::now) + t / 2);
        self.solve.map(|plies| SolveBudget {
            stop,
            deadline,
            max_nodes: u64::MAX,
            max_plies: Some(plies),
            fresh: self.fresh_solve,
            staged: false,
            soft: None,
        })
    }

    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move (soft and hard deadline the same).
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            soft_time: Some(time),
            hard_time: Some(time),
            ..Limits::default()
        }
    }
}

/// Deadlines fixed at the start of a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    /// When the deadlines started counting.
    pub origin: Instant,
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
}

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        let start = limits.start.unwrap_or_else(Instant::now);
        Clock {
            origin: start,
            soft: limits.soft_time.map(|d| start + d),
            hard: limits.hard_time.map(|d| start + d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ply_down_shrinks_depth_and_solve_reach_together() {
        let l = Limits {
            depth: Some(12),
            solve: Some(20),
            fresh_solve: true,
            ..Limits::default()
        };
        let c = l.one_ply_down();
        assert_eq!(
            (c.depth, c.solve, c.fresh_solve),
            (Some(11), Some(19), true)
        );
        // Depth 1 stays 1, and so does the reach.
        let c = Limits {
            depth: Some(1),
            ..l
        }
        .one_ply_down();
        assert_eq!((c.depth, c.solve), (Some(1), Some(20)));
        // No depth: nothing to shrink.
        let c = Limits::nodes(5).one_ply_down();
        assert_eq!((c.depth, c.solve, c.nodes), (None, None, Some(5)));
    }
}

//! What bounds a search: depth, nodes, and two wall-clock deadlines. The soft deadline is
//! checked between iterations (do not start what cannot finish), the hard one inside the
//! search (stop now).

use std::time::{Duration, Instant};

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
}

impl Limits {
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
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
}

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        let start = limits.start.unwrap_or_else(Instant::now);
        Clock {
            soft: limits.soft_time.map(|d| start + d),
            hard: limits.hard_time.map(|d| start + d),
        }
    }
}

//! `bench`: fixed positions searched to a fixed depth with fresh tables. The total node
//! count is a signature of the search's behaviour (a change meant to be neutral must
//! not alter it); nodes per second is the speed figure.

use crate::game::Game;
use crate::search::{nps, Limits, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchResult {
    /// The summary line every front end prints last: `nodes N time MS nps NPS`.
    pub fn line(&self) -> String {
        format!(
            "nodes {} time {} nps {}",
            self.nodes,
            self.time.as_millis(),
            nps(self.nodes, self.time)
        )
    }
}

/// Searches each position to `depth` with a fresh 16 MiB table, single-threaded.
pub fn run<G: Game>(positions: &[G], depth: u32) -> BenchResult {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut nodes = 0;
    let mut searcher = Searcher::<G>::new(16);
    for pos in positions {
        searcher.new_game();
        let r = searcher.search(pos, &Limits::depth(depth), &stop, None, &mut |_| {});
        nodes += r.nodes;
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}

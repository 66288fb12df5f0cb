//! What the search reports: plain data, formatted by each front end in its own way.

use crate::game::{EndgameStage, Solved, SolvedOutcome};
use std::time::Duration;

/// Scores at or beyond this magnitude are proven results (wins or losses).
pub const WIN: i32 = 30_000;
/// Scores beyond `WIN - MAX_PLY` encode "win in N plies".
pub const MAX_PLY: usize = 128;
/// Largest magnitude a score can take.
pub const INF: i32 = 32_000;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score(pub i32);

impl Score {
    /// `Some(n)`: the side to move wins in `n` plies (`n` > 0) or loses in `-n` plies.
    pub fn plies_to_end(self) -> Option<i32> {
        if self.0 >= WIN - MAX_PLY as i32 {
            Some(WIN - self.0)
        } else if self.0 <= -(WIN - MAX_PLY as i32) {
            Some(-(WIN + self.0))
        } else {
            None
        }
    }

    /// `Some(n)`: the side to move wins in `n` of its own moves (`n` > 0) or loses after
    /// `-n` of them (`ceil(plies / 2)`, as UCI's `mate` counts).
    pub fn own_moves_to_end(self) -> Option<i32> {
        self.plies_to_end()
            .map(|p| if p > 0 { (p + 1) / 2 } else { -((-p + 1) / 2) })
    }
}

/// The search's score of a position the game's solver solved: a win or loss in its
/// plies, or a draw.
pub fn solved_score<M>(s: &Solved<M>) -> Score {
    let plies = s.plies.clamp(1, MAX_PLY as u32) as i32;
    Score(match s.outcome {
        SolvedOutcome::Win => WIN - plies,
        SolvedOutcome::Loss => -(WIN - plies),
        SolvedOutcome::Draw => 0,
    })
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table written by this search (UAI `hashfull`).
    pub hashfull: u32,
    pub pv: Vec<M>,
    /// The stage of the game's staged endgame solve this result comes from, if it
    /// comes from one ([`Game::solve`](crate::game::Game::solve)).
    pub endgame: Option<EndgameStage>,
}

impl<M> Iteration<M> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// Nodes per second, safe for a zero duration.
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The requested depth (or the maximum) was completed.
    Depth,
    /// The node budget ran out.
    Nodes,
    /// A deadline passed.
    Time,
    /// Somebody asked it to stop.
    Stopped,
    /// The result is proven (a forced win or loss was found), or there was one move.
    Proven,
    /// The game is already over: there is no move.
    GameOver,
}

/// The final answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
    pub reason: StopReason,
}

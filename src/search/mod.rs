//! The game-independent search: iterative-deepening alpha-beta ([`alphabeta`]), its
//! transposition table ([`tt`]), budgets ([`limits`]), the proof of short forced wins
//! ([`prove`]),
//! the thread facade ([`control`]) and the data it reports ([`report`]).

pub mod alphabeta;
pub mod control;
pub mod limits;
pub mod prove;
pub mod report;
pub mod time;
pub mod tt;

pub use alphabeta::{Features, Searcher};
pub use control::{Engine, Rated, Rating, Report, Stopper, STOP_WAIT};
pub use limits::{Limits, SOLVE_MARGIN};
pub use report::{nps, Iteration, Score, SearchResult, StopReason, WIN};

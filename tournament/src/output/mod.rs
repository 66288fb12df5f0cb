//! What a run tells: the running tally and its statistics (Elo, pentanomial, SPRT), the
//! results file, the progress lines and reports, and the managers' output formats.

pub mod formats;
pub mod rating;
pub mod report;
pub mod results;
pub mod stats;
pub mod tally;

//! What the crate's unit tests share.

use crate::output::results::{GameRecord, GameResult};

/// A command line's words from one string split at blanks: the tests of the parsers
/// (`cli`, `-shard`, `merge`, `rate`) write their arguments as a user types them.
pub(crate) fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// A drawn Ataxx game between `a` (moving first) and `b` from the start position, with
/// no moves and every optional field empty: the tests of what is written from a record
/// (PGN, EPD) start from it and set the fields they are about.
pub(crate) fn record() -> GameRecord {
    GameRecord {
        id: 0,
        round: 0,
        variant: "ataxx".into(),
        players: ["a".into(), "b".into()],
        opening: String::new(),
        fen: "x5o/7/7/7/7/7/o5x x 0 1".into(),
        result: GameResult::Draw,
        reason: "r".into(),
        ending: None,
        info: Vec::new(),
        moves: Vec::new(),
        date: String::new(),
        duration_ms: 0,
        pair_key: None,
        rules: None,
    }
}

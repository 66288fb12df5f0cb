//! One game: the referee that plays it (checking every move with our own rules), the
//! openings it starts from, and the PGN and EPD it is written as.

pub mod epd;
pub mod openings;
pub mod pgn;
pub mod referee;

use crate::output::results::GameRecord;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// A file the games are written to as they are recorded (the PGN and EPD outputs,
/// which open and write it alike): created anew, each game's text flushed at once.
pub struct GameFile {
    file: File,
    /// What the file holds (`PGN`, `EPD`), for the write error.
    what: &'static str,
}

impl GameFile {
    /// Creates (truncates) `path`, a file of `what`.
    pub fn create(path: &Path, what: &'static str) -> Result<GameFile, String> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok(GameFile { file, what })
    }

    /// Writes one game's text and flushes it.
    pub fn write(&mut self, text: &str) -> Result<(), String> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the {} file: {e}", self.what))
    }
}

/// The games a resumed run already has, in id order: the order a new file is written
/// in, so each game appears once.
pub fn in_id_order(existing: &[GameRecord]) -> Vec<&GameRecord> {
    let mut sorted: Vec<&GameRecord> = existing.iter().collect();
    sorted.sort_by_key(|r| r.id);
    sorted
}

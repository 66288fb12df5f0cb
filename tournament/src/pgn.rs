//! PGN as the game's tools write it: the first and second players under the game's tag
//! names ([`GameIo::PGN_PLAYERS`]), a `Variant` tag with the game's name, a FEN tag for
//! the starting position, moves in protocol notation, PlyCount, and the end reason as a
//! final comment.

use crate::results::GameRecord;
use engine::game::{GameIo, RuleSet, Side};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN text (ending with a blank line).
pub fn format<G: GameIo>(rec: &GameRecord, event: &str) -> String {
    let [first, second] = G::PGN_PLAYERS;
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    };
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &rec.date);
    tag(&mut out, "Round", &(rec.id + 1).to_string());
    tag(&mut out, first, &rec.players[0]);
    tag(&mut out, second, &rec.players[1]);
    tag(&mut out, "Result", rec.result.as_str());
    tag(&mut out, "Variant", G::NAME);
    tag(&mut out, "FEN", &rec.fen);
    tag(&mut out, "PlyCount", &rec.moves.len().to_string());
    if !rec.opening.is_empty() {
        tag(&mut out, "Opening", &rec.opening);
    }
    tag(&mut out, "Termination", &rec.reason);
    out.push('\n');
    // Move numbers: a full move is the first player's then the second's; a game starting
    // with the second player to move opens `1...`. (Either rule set reads the side to move.)
    let second_first = G::from_fen(&rec.fen, RuleSet::Engine)
        .map(|pos| pos.side_to_move() == Side::Second)
        .unwrap_or(false);
    let mut words: Vec<String> = Vec::new();
    let mut number = 1;
    for (ply, mv) in rec.moves.iter().enumerate() {
        let is_second = (ply % 2 == 1) != second_first;
        if !is_second {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.clone());
        if is_second {
            number += 1;
        }
    }
    words.push(format!("{{{}}}", rec.reason.replace('}', ")")));
    words.push(rec.result.as_str().to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The PGN file, written game by game.
pub struct PgnWriter {
    file: File,
    event: String,
}

impl PgnWriter {
    /// Opens the file. `existing` (when resuming) rewrites it from the records already
    /// played, so games from a killed run appear exactly once.
    pub fn open<G: GameIo>(
        path: &Path,
        event: &str,
        existing: &[GameRecord],
    ) -> Result<PgnWriter, String> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut w = PgnWriter {
            file,
            event: event.to_string(),
        };
        let mut sorted: Vec<&GameRecord> = existing.iter().collect();
        sorted.sort_by_key(|r| r.id);
        for r in sorted {
            w.append::<G>(r)?;
        }
        Ok(w)
    }

    /// Appends one game.
    pub fn append<G: GameIo>(&mut self, rec: &GameRecord) -> Result<(), String> {
        self.file
            .write_all(format::<G>(rec, &self.event).as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the PGN file: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::GameResult;
    use engine::games::ataxx::Position;

    #[test]
    fn pgn_layout() {
        let rec = GameRecord {
            id: 4,
            round: 0,
            variant: "ataxx".into(),
            players: ["a".into(), "b".into()],
            opening: String::new(),
            fen: "x5o/7/7/7/7/7/o5x o 0 1".into(),
            result: GameResult::SecondWins,
            reason: "r".into(),
            moves: vec!["g6".into(), "f2".into(), "a1a3".into()],
            date: "2024.01.02".into(),
            duration_ms: 0,
            pair_key: None,
        };
        let text = format::<Position>(&rec, "ev");
        assert!(text.contains("[Black \"a\"]\n[White \"b\"]\n"));
        assert!(text.contains("[Variant \"ataxx\"]"));
        assert!(text.contains("[Round \"5\"]"));
        assert!(text.contains("[PlyCount \"3\"]"));
        assert!(text.contains("1... g6 2. f2 a1a3 {r} 0-1\n\n"), "{text}");
    }
}

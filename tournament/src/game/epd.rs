//! `-epdout FILE`: the final position of every finished game, one FEN line each,
//! appended (and flushed) as the game is recorded, like the PGN file; with `-resume`
//! the file is rewritten with the games already played first.

use crate::game::{in_id_order, GameFile};
use crate::output::results::GameRecord;
use engine::game::{GameIo, RuleSet};
use std::path::Path;

/// The position a game ended in: its start position (after the opening) and its
/// moves, replayed by the rules that judged it. `None` if the record does not replay
/// (a move our rules refuse: never for a game the runner played).
pub fn final_fen<G: GameIo>(rec: &GameRecord) -> Option<String> {
    let rules = rec
        .rules
        .as_deref()
        .and_then(G::Rules::from_name)
        .unwrap_or(G::Rules::ENGINE);
    let mut pos = G::from_fen(&rec.fen, rules).ok()?;
    for word in &rec.moves {
        let mv = pos.parse_move(word)?;
        pos.make_move(mv);
    }
    Some(pos.fen())
}

/// The open EPD file.
pub struct EpdWriter {
    file: GameFile,
}

impl EpdWriter {
    /// Creates (truncates) `path` and writes the final positions of `existing` (the
    /// games a resumed run already has), in id order.
    pub fn open<G: GameIo>(path: &Path, existing: &[GameRecord]) -> Result<EpdWriter, String> {
        let mut w = EpdWriter {
            file: GameFile::create(path, "EPD")?,
        };
        for r in in_id_order(existing) {
            w.append::<G>(r)?;
        }
        Ok(w)
    }

    /// Appends one game's final position.
    pub fn append<G: GameIo>(&mut self, rec: &GameRecord) -> Result<(), String> {
        let fen = final_fen::<G>(rec).ok_or_else(|| {
            format!(
                "game {}: its moves do not replay from {}: no final position",
                rec.id, rec.fen
            )
        })?;
        self.file.write(&format!("{fen}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::record;
    use engine::game::Notation;
    use engine::games::ataxx::{Position, Rules};

    #[test]
    fn the_final_position_replays_the_moves() {
        let rec = GameRecord {
            moves: vec!["f2".into(), "a1a3".into()],
            rules: Some("engine".into()),
            ..record()
        };
        let fen = final_fen::<Position>(&rec).unwrap();
        let mut pos = Position::from_fen(&rec.fen, Rules::Uai).unwrap();
        for m in &rec.moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        assert_eq!(fen, pos.fen());
        assert_ne!(fen, rec.fen);
        let bad = GameRecord {
            moves: vec!["a1a7".into()],
            ..rec
        };
        assert_eq!(final_fen::<Position>(&bad), None);
    }
}

//! The board page's paste: a FEN, a move list (protocol or the dialect's notation) or
//! a PGN (as the page copies it) becomes the dialect's own set-up lines
//! ([`TextProtocol::setup_commands`], then its start), which the session runs as if
//! typed, stopping at a line the dialect refuses (with the dialect's error line). The
//! paste is read whole first: one word that is no move there refuses all of it, so
//! a typo never costs the game on the board.
//!
//! [`TextProtocol::setup_commands`]: crate::protocol::text::TextProtocol::setup_commands

use crate::game::{Game, Notation, Opening, Side};
use crate::protocol::text::TextDialect;
use crate::protocol::text::{EngineSetup, Playable};

/// The lines that set up what `text` holds, for a session whose sides are played by
/// `players` (the view's: the side the AI plays keeps it; the other is typed); why not,
/// when any of it cannot be read (nothing is typed then).
pub fn lines<D: Playable>(text: &str, players: [&str; 2]) -> Result<Vec<String>, String> {
    let (fen, words) = read(text);
    if fen.is_none() && words.is_empty() {
        return Err("nothing to read: paste a FEN, a move list or a PGN".into());
    }
    let rules = D::RULES;
    let base = match fen {
        Some(f) => {
            <D as TextDialect>::Game::from_fen(&f, rules).map_err(|e| format!("FEN: {e}"))?
        }
        None => <D as TextDialect>::Game::startpos(rules),
    };
    let mut pos = base.clone();
    let mut moves = Vec::new();
    for (n, word) in words.iter().enumerate() {
        match pos
            .parse_move(word)
            .or_else(|| D::parse_move_text(&pos, word))
        {
            Some(mv) if !pos.is_over() => {
                pos.make_move(mv);
                moves.push(mv);
            }
            _ => {
                let why = if pos.is_over() {
                    "comes after the game's end"
                } else {
                    "is no legal move there"
                };
                return Err(format!(
                    "word {} ({}) {why}; nothing was changed",
                    n + 1,
                    crate::protocol::quote(word)
                ));
            }
        }
    }
    if pos.is_over() {
        return Err("it already ends the game: there would be nothing to play".into());
    }
    let ai_side = if players[0] == "AI" && players[1] != "AI" {
        Side::First
    } else {
        Side::Second
    };
    // The seed the person chose stays: the set-up's own `seed` line is left out.
    let opening = Opening { base, moves };
    let mut out: Vec<String> = D::setup_commands(&EngineSetup::new(&opening, ai_side, 0, true))?
        .into_iter()
        .filter(|l| !l.starts_with("seed "))
        .collect();
    out.extend(D::start_commands());
    Ok(out)
}

/// The FEN and the moves of a paste: a line with a `/` is a FEN; a PGN's `FEN` tag is
/// its start; other tags, move numbers, comments and the result are left out.
fn read(text: &str) -> (Option<String>, Vec<String>) {
    let mut fen = None;
    let mut words = Vec::new();
    let mut comment = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some(value) = tag.strip_prefix("FEN ") {
                fen = Some(value.trim().trim_matches('"').to_string());
            }
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if first.contains('/') && first != "1/2-1/2" && !comment {
            fen = Some(line.to_string());
            continue;
        }
        for word in line.split_whitespace() {
            if comment {
                comment = !word.ends_with('}');
                continue;
            }
            if word.starts_with('{') {
                comment = !word.ends_with('}');
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty() || ["*", "1-0", "0-1", "1/2-1/2", "-0", "-1"].contains(&word) {
                continue;
            }
            words.push(word.to_string());
        }
    }
    (fen, words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::text::ataxx::AtaxxText;
    use crate::protocol::text::loa::LoaText;

    #[test]
    fn a_pgn_a_fen_and_moves_are_read() {
        let pgn =
            "[Event \"board page\"]\n[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]\n\n1. f2 {x} b2 2. f2e4 *\n";
        let (fen, words) = read(pgn);
        assert_eq!(fen.as_deref(), Some("x5o/7/7/7/7/7/o5x x 0 1"));
        assert_eq!(words, ["f2", "b2", "f2e4"]);
        assert_eq!(read("g1-f2 a1-b2").1, ["g1-f2", "a1-b2"]);
    }

    /// Moves in either notation become the dialect's set-up; a paste with a word that
    /// is no move there, or nothing readable at all, is refused whole.
    #[test]
    fn the_lines_are_the_dialect_s_set_up() {
        let set_up = lines::<AtaxxText>("f2 a1-b2", ["manual", "AI"]).unwrap();
        assert_eq!(
            set_up,
            [
                "clear",
                "g1-f2",
                "a1-b2",
                "manual red",
                "auto blue",
                "dump",
                "start"
            ]
        );
        assert_eq!(
            lines::<AtaxxText>("f2 zz", ["manual", "AI"]).unwrap_err(),
            "word 2 ('zz') is no legal move there; nothing was changed"
        );
        for junk in ["hello world", "garbage!!", "   ", "{comment} *"] {
            let why = lines::<AtaxxText>(junk, ["manual", "AI"]).unwrap_err();
            assert!(
                why.starts_with("word 1 (") || why.starts_with("nothing to read"),
                "{junk}: {why}"
            );
        }
        assert!(lines::<AtaxxText>("x5o/7/7/7/7/7/o5x q 0 1", ["manual", "AI"]).is_err());
        let loa = lines::<LoaText>("b1d3", ["AI", "manual"]).unwrap();
        assert!(loa.contains(&"auto black".to_string()), "{loa:?}");
    }
}

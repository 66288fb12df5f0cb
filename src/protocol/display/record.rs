//! The game on the board page's move list: every position from where the kept moves
//! start to the current one, each drawn as the dialect draws its board, the moves in
//! the dialect's own notation, each position's FEN, and the game as PGN in the
//! tournament runner's form (so the runner's PGN reader reads it back).

use crate::game::{Game, Notation, Outcome, RuleSet, Side};
use crate::protocol::play::History;
use crate::protocol::text::board::json_string;
use crate::protocol::text::Playable;
use crate::protocol::text::TextDialect;

/// The game behind `current` (the moves `history` keeps): its positions, first to
/// last, and the record as the page's JSON.
pub fn record<D: Playable>(
    current: &<D as TextDialect>::Game,
    history: &History<<D as TextDialect>::Game>,
) -> (Vec<<D as TextDialect>::Game>, String) {
    let (start, moves) = history.line(current);
    let mut positions = vec![start.clone()];
    let mut plies = vec![ply_json::<D>(&start, None, &History::default())];
    let mut pos = start.clone();
    for &mv in &moves {
        let before = pos.clone();
        let text = D::move_text(&before, mv);
        pos.make_move(mv);
        let mut last = History::default();
        last.record(before, mv, &pos);
        plies.push(ply_json::<D>(&pos, Some(&text), &last));
        positions.push(pos.clone());
    }
    let pgn = pgn::<<D as TextDialect>::Game>(&start, &moves, &pos);
    let json = format!(
        "{{\"plies\":[{}],\"pgn\":{}}}",
        plies.join(","),
        json_string(&pgn)
    );
    (positions, json)
}

/// One position of the move list: the move that led to it (none at the start), its
/// FEN and its picture (squares, last move, counts, side to move; none once over).
fn ply_json<D: Playable>(
    pos: &<D as TextDialect>::Game,
    played: Option<&str>,
    last: &History<<D as TextDialect>::Game>,
) -> String {
    let v = D::picture(pos, last);
    let to_move = match pos.outcome() {
        Some(_) => "null".to_string(),
        None => pos.side_to_move().index().to_string(),
    };
    let squares: Vec<String> = v.last.iter().map(|q| q.to_string()).collect();
    format!(
        "{{\"move\":{},\"fen\":{},\"cells\":{},\"last\":[{}],\"counts\":[{},{}],\"to_move\":{}}}",
        played.map_or("null".to_string(), json_string),
        json_string(&pos.fen()),
        json_string(&v.cells),
        squares.join(","),
        v.counts[0],
        v.counts[1],
        to_move
    )
}

/// The game from `start` by `moves` (which end in `end`) as PGN, in the tournament
/// runner's form (`tournament/src/game/pgn.rs`): the seven tags (an unknown date, the
/// players named by the game's sides), `Variant`, `SetUp`/`FEN` when it does not start
/// from the start position, `PlyCount`, then the movetext on one line in protocol
/// notation with move numbers from the FEN's, and the result (`*` while it goes on).
pub fn pgn<G: Notation>(start: &G, moves: &[G::Move], end: &G) -> String {
    let result = match end.outcome() {
        Some(Outcome::Win(Side::First)) => "1-0",
        Some(Outcome::Win(Side::Second)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    };
    let [first, second] = G::PGN_PLAYERS;
    let mut tags = vec![
        ("Event", "board page".to_string()),
        ("Site", "?".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", "-".to_string()),
    ];
    // The roster's order is White, then Black, whichever moves first.
    let mut players = [(first, "first player"), (second, "second player")];
    if players[1].0 == "White" {
        players.swap(0, 1);
    }
    tags.extend(players.map(|(tag, name)| (tag, name.to_string())));
    tags.push(("Result", result.to_string()));
    tags.push(("Variant", G::NAME.to_string()));
    let fen = start.fen();
    if fen != G::startpos(G::Rules::ENGINE).fen() {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen.clone()));
    }
    tags.push(("PlyCount", moves.len().to_string()));
    let mut out = String::new();
    for (k, v) in tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push('\n');
    let second_first = start.side_to_move() == Side::Second;
    let mut number = crate::game::fen_fullmove_number(&fen);
    let mut words: Vec<String> = Vec::new();
    let mut pos = start.clone();
    for (ply, &mv) in moves.iter().enumerate() {
        let is_second = (ply % 2 == 1) != second_first;
        if !is_second {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(pos.move_name(mv));
        pos.make_move(mv);
        if is_second {
            number += 1;
        }
    }
    words.push(result.to_string());
    out.push_str(&words.join(" "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::{Position, Rules};
    use crate::protocol::text::ataxx::AtaxxText;

    /// Three moves from the start: four positions, the moves in the dialect's notation,
    /// each position's FEN, and the PGN with numbered protocol moves and no FEN tag.
    #[test]
    fn the_record_holds_every_position_and_the_pgn() {
        let mut pos = Position::startpos(Rules::Text);
        let mut history = History::default();
        for name in ["f2", "b2", "f2e4"] {
            let mv = pos.parse_move(name).unwrap();
            let before = pos.clone();
            pos.make_move(mv);
            history.record(before, mv, &pos);
        }
        let (positions, json) = record::<AtaxxText>(&pos, &history);
        assert_eq!(positions.len(), 4);
        assert_eq!(positions[3], pos);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let plies = v["plies"].as_array().unwrap();
        let moves: Vec<&str> = plies.iter().filter_map(|p| p["move"].as_str()).collect();
        assert_eq!(moves, ["g1-f2", "a1-b2", "f2-e4"]);
        assert_eq!(plies[0]["move"], serde_json::Value::Null);
        assert_eq!(plies[3]["fen"], pos.fen());
        assert_eq!(plies[3]["last"].as_array().unwrap().len(), 2, "{json}");
        let pgn = v["pgn"].as_str().unwrap();
        assert!(pgn.contains("[Variant \"ataxx\"]\n"), "{pgn}");
        assert!(pgn.contains("[PlyCount \"3\"]\n"), "{pgn}");
        assert!(!pgn.contains("[FEN"), "{pgn}");
        assert!(pgn.ends_with("\n\n1. f2 b2 2. f2e4 *\n"), "{pgn}");
    }

    /// A game from a set position carries its FEN and numbers its moves from it.
    #[test]
    fn a_set_position_is_tagged() {
        let start = Position::from_fen("x5o/7/7/7/7/7/o5x o 0 7", Rules::Text).unwrap();
        let mut end = start.clone();
        let mv = end.parse_move("f7").unwrap();
        end.make_move(mv);
        let text = pgn(&start, &[mv], &end);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"x5o/7/7/7/7/7/o5x o 0 7\"]\n"),
            "{text}"
        );
        assert!(text.ends_with("7... f7 *\n"), "{text}");
    }
}

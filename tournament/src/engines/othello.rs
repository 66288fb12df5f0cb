//! What the Othello engines' protocols (NBoard, GTP) share: squares `a1`–`h8` with
//! column `a` on the left and row 1 at the top (our Reversi notation; grhino's
//! `showboard` draws row 1 at the top with the start position's white discs on d4 and
//! e5, and answers the first `genmove b` with one of d3, c4, f5, e6), black moves
//! first, and the game is given to the engine through its move names. The clients
//! stay generic over the runner's [`Notation`]: the plan lets them play only Reversi
//! ([`crate::engines::player::Proto::othello_only`]), whose protocol notation is the square
//! (`d3`) or `0000` for the pass.

use engine::game::{Notation, Side};

/// How the Othello protocols name a move: the square in lower case, or `None` for the
/// pass (each protocol has its own word for it).
pub fn square_of<G: Notation>(pos: &G, mv: G::Move) -> Option<String> {
    if pos.is_pass(mv) {
        None
    } else {
        Some(pos.move_name(mv).to_ascii_lowercase())
    }
}

/// An engine's move word in protocol notation for the referee: the square in lower
/// case (`C4` → `c4`), the pass (`pass`, `PA`) as `0000`.
pub fn protocol_move(word: &str) -> String {
    if word.eq_ignore_ascii_case("pass") || word.eq_ignore_ascii_case("pa") {
        "0000".into()
    } else {
        word.to_ascii_lowercase()
    }
}

/// GTP's colour of a side: black (`b`) moves first.
pub fn gtp_colour(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "w",
    }
}

/// The value of a GGF `BO` property for a position in our Reversi FEN
/// (`8/8/8/3ox3/3xo3/8/8/8 x`, rows from 1 at the top, `x` black): `8 ` then 64 squares
/// from a1 row by row (`*` black, `O` white, `-` empty), a blank and the side to move
/// (`*` or `O`).
pub fn ggf_board(fen: &str) -> Result<String, String> {
    let mut fields = fen.split_whitespace();
    let rows: Vec<&str> = fields.next().unwrap_or("").split('/').collect();
    let bad = || format!("not a Reversi FEN: '{fen}'");
    if rows.len() != 8 {
        return Err(bad());
    }
    let mut out = String::from("8 ");
    for row in rows {
        let mut n = 0;
        for c in row.chars() {
            match c {
                '1'..='8' => {
                    let k = c as usize - '0' as usize;
                    out.push_str(&"-".repeat(k));
                    n += k;
                }
                'x' | 'X' => {
                    out.push('*');
                    n += 1;
                }
                'o' | 'O' => {
                    out.push('O');
                    n += 1;
                }
                _ => return Err(bad()),
            }
        }
        if n != 8 {
            return Err(bad());
        }
    }
    out.push_str(match fields.next() {
        Some("o" | "O") => " O",
        Some("x" | "X") | None => " *",
        Some(_) => return Err(bad()),
    });
    Ok(out)
}

/// Milliseconds in GGF's clock notation, `MM:SS`, with the fraction of a second only
/// where there is one (`0:00.1`): an engine that reads whole seconds (NTest) reads the
/// whole part, one that reads more (our `reversi`) gets the exact clock.
pub fn ggf_time(ms: u64) -> String {
    let s = ms / 1000;
    let mut text = format!("{}:{:02}", s / 60, s % 60);
    if !ms.is_multiple_of(1000) {
        let frac = format!("{:03}", ms % 1000);
        text.push('.');
        text.push_str(frac.trim_end_matches('0'));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::reversi::position::Position;

    #[test]
    fn ggf_boards() {
        let start = Position::startpos();
        assert_eq!(
            ggf_board(&start.fen()).unwrap(),
            "8 ---------------------------O*------*O--------------------------- *"
        );
        let mut pos = start.clone();
        let mv = pos.parse_move("d3").unwrap();
        pos.make_move(mv);
        assert!(ggf_board(&pos.fen()).unwrap().ends_with(" O"));
        assert!(ggf_board("8/8/8 x").is_err());
        assert!(ggf_board("9/8/8/8/8/8/8/8 x").is_err());
        assert!(ggf_board("8/8/8/3ox3/3xo3/8/8/8 z").is_err());
    }

    #[test]
    fn move_words() {
        assert_eq!(protocol_move("C4"), "c4");
        assert_eq!(protocol_move("PASS"), "0000");
        assert_eq!(protocol_move("PA"), "0000");
        assert_eq!(ggf_time(6_000), "0:06");
        assert_eq!(ggf_time(125_900), "2:05.9");
        assert_eq!(ggf_time(100), "0:00.1");
        assert_eq!(ggf_time(20), "0:00.02");
        let start = Position::startpos();
        let mv = start.parse_move("f5").unwrap();
        assert_eq!(square_of(&start, mv).as_deref(), Some("f5"));
    }
}

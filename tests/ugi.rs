//! UGI, the engine protocol every game speaks (protocol.md), through each game's binary:
//! chosen by `--ugi` or by `ugi` as the first command, the handshake names the engine and
//! its authors, positions are set from moves and FEN, `query` answers, the search plays
//! legal moves, an illegal move is refused with one `info string` line keeping the
//! previous position, finished games report their results, a side without a move passes
//! with `0000` and a win in one is taken. Written once, generic over the game
//! ([`engine::game::GameIo`]); each game's module holds its positions ([`Case`]) and
//! its own checks (LOA's third repetition).

use crate::common::{self, Engine};
use engine::game::{GameIo, RuleSet};
use engine::variant::Variant;
use std::path::Path;
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

/// A game's positions for the promises below. A position is what follows `position `
/// (`startpos moves …` or `fen …`).
struct Case {
    /// A legal first move, a move that is illegal after it, and one illegal at the start.
    first: &'static str,
    illegal_after_first: &'static str,
    illegal_at_start: &'static str,
    /// Finished positions: what `query gameover`, `query result` and (if given) `query
    /// p1turn` answer there.
    finished: &'static [(&'static str, &'static str, Option<bool>)],
    /// A live position whose side to move has no move but the pass.
    must_pass: &'static str,
    /// A position whose side to move wins with one move.
    win_in_one: &'static str,
}

/// The game's binary with `args`, in a scratch directory.
fn engine<G: GameIo>(args: &[&str]) -> Engine {
    let variant = Variant::from_name(G::NAME).expect("a registered game");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    Engine::spawn_bin_in(&common::binary(variant), dir, args).unwrap_or_else(|e| panic!("{e}"))
}

/// Sends `line`, then `isready`, and returns what came before `readyok`.
fn ask(e: &Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("isready");
    let mut lines = e.wait_for(T, |l| l == "readyok");
    lines.pop();
    lines
}

/// `ugi`: the engine names itself and its authors, then (after its options) `ugiok`;
/// `uginewgame` answers nothing.
fn handshake<G: GameIo>(e: &Engine) {
    e.send("ugi");
    let lines = e.wait_for(T, |l| l == "ugiok");
    let (game, version) = (G::NAME, env!("CARGO_PKG_VERSION"));
    assert_eq!(lines[0], format!("id name {game}-engine {version}"));
    assert_eq!(lines[1], format!("id author the {game}-engine authors"));
    assert_eq!(ask(e, "uginewgame"), Vec::<String>::new());
}

/// `go …`: the move of the `bestmove` line (which has no other word).
fn bestmove(e: &Engine, go: &str) -> String {
    e.send(go);
    let lines = e.wait_for(T, |l| l.starts_with("bestmove"));
    let last = lines.last().expect("a bestmove line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 2, "{last}");
    words[1].to_string()
}

/// The position a `position` argument sets, by the engine rules.
fn position<G: GameIo>(spec: &str) -> G {
    let (base, moves) = match spec.split_once(" moves ") {
        Some((base, moves)) => (base, moves),
        None => (spec, ""),
    };
    let rules = G::Rules::ENGINE;
    let mut pos = match base.strip_prefix("fen ") {
        Some(fen) => G::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}")),
        None => G::startpos(rules),
    };
    for mv in moves.split_whitespace() {
        let m = pos
            .parse_move(mv)
            .unwrap_or_else(|| panic!("{mv} in {spec}"));
        pos.make_move(m);
    }
    pos
}

/// `spec` with `mv` played after it.
fn then(spec: &str, mv: &str) -> String {
    if spec.contains(" moves ") {
        format!("{spec} {mv}")
    } else {
        format!("{spec} moves {mv}")
    }
}

/// Positions from moves, `query` answers, a legal move from the search, and an illegal
/// move refused with one `info string` line, the previous position kept.
fn plays_and_answers_queries<G: GameIo>(c: &Case) {
    let e = engine::<G>(&["--ugi"]);
    handshake::<G>(&e);
    let after_first = format!("startpos moves {}", c.first);
    assert!(ask(&e, &format!("position {after_first}")).is_empty());
    assert_eq!(ask(&e, "query p1turn"), ["response false"]);
    assert_eq!(ask(&e, "query gameover"), ["response false"]);
    assert_eq!(ask(&e, "query result"), ["response none"]);

    let mv = bestmove(&e, "go depth 3");
    let pos = position::<G>(&after_first);
    assert!(pos.parse_move(&mv).is_some(), "{mv} is not legal");

    // An illegal move: one info string line, and the previous position stays.
    let said = ask(
        &e,
        &format!("position {}", then(&after_first, c.illegal_after_first)),
    );
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("info string"), "{said:?}");
    assert_eq!(ask(&e, "query p1turn"), ["response false"]);
    let said = ask(
        &e,
        &format!("position startpos moves {}", c.illegal_at_start),
    );
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(ask(&e, "query p1turn"), ["response false"]);

    e.send("quit");
    assert!(e.finish(T).status.success());
}

/// Finished positions report their results; a side without a move passes with `0000`
/// (and the pass is a move `position` takes); a win in one is taken.
fn finished_games_answer_results<G: GameIo>(c: &Case) {
    let e = engine::<G>(&["--ugi"]);
    handshake::<G>(&e);
    for &(spec, result, p1turn) in c.finished {
        assert!(position::<G>(spec).is_over(), "{spec}");
        ask(&e, &format!("position {spec}"));
        assert_eq!(ask(&e, "query gameover"), ["response true"], "{spec}");
        assert_eq!(
            ask(&e, "query result"),
            [format!("response {result}")],
            "{spec}"
        );
        if let Some(p1turn) = p1turn {
            assert_eq!(
                ask(&e, "query p1turn"),
                [format!("response {p1turn}")],
                "{spec}"
            );
        }
    }
    // A side without a move passes with 0000.
    ask(&e, &format!("position {}", c.must_pass));
    assert_eq!(ask(&e, "query gameover"), ["response false"]);
    assert_eq!(bestmove(&e, "go depth 2"), "0000");
    ask(&e, &format!("position {}", then(c.must_pass, "0000")));
    assert_eq!(ask(&e, "query p1turn"), ["response false"]);
    // A win in one is taken.
    ask(&e, &format!("position {}", c.win_in_one));
    let mv = bestmove(&e, "go nodes 20000");
    let mut pos = position::<G>(c.win_in_one);
    pos.make_move(pos.parse_move(&mv).expect("legal"));
    assert!(pos.is_over(), "{mv} does not win");
    drop(e);
}

/// Without `--ugi`, `ugi` as the first command chooses the protocol: the same
/// handshake, the start position, and an exit with status 0 at the end of input.
fn ugi_is_chosen_by_the_first_command_too<G: GameIo>() {
    let e = engine::<G>(&[]);
    handshake::<G>(&e);
    assert_eq!(ask(&e, "query result"), ["response none"]);
    assert_eq!(ask(&e, "query p1turn"), ["response true"]);
    assert!(e.finish(T).status.success());
}

/// One `#[test]` per promise above, for the game whose module invokes it with its
/// [`Case`].
macro_rules! ugi_promises {
    ($case:expr) => {
        #[test]
        fn plays_and_answers_queries() {
            super::plays_and_answers_queries::<Position>(&$case);
        }

        #[test]
        fn finished_games_answer_results() {
            super::finished_games_answer_results::<Position>(&$case);
        }

        #[test]
        fn ugi_is_chosen_by_the_first_command_too() {
            super::ugi_is_chosen_by_the_first_command_too::<Position>();
        }
    };
}

mod ataxx {
    use super::Case;
    use engine::games::ataxx::Position;

    const CASE: Case = Case {
        // A clone is written as its target square.
        first: "f2",
        illegal_after_first: "f2",
        illegal_at_start: "a1",
        finished: &[
            // Blue has no piece left: red has won.
            ("fen 7/7/7/7/7/7/x6 o 0 1", "p1win", Some(false)),
            // f7 takes blue's last piece.
            ("fen 4x1o/7/7/7/7/7/7 x 0 1 moves f7", "p1win", Some(false)),
        ],
        must_pass: "fen 7/7/7/7/ooo4/ooo4/xoo4 x 0 1",
        win_in_one: "fen 4x1o/7/7/7/7/7/7 x 0 1",
    };

    ugi_promises!(CASE);
}

mod loa {
    use super::{ask, engine, handshake, Case, T};
    use engine::game::Notation;
    use engine::games::loa::{Position, Rules};

    const CASE: Case = Case {
        first: "b1d3",
        illegal_after_first: "b1b2",
        illegal_at_start: "b1b4",
        finished: &[
            // White's e8 takes black's lone e5: both sides connected, the mover (white)
            // wins.
            (
                "fen 4o3/8/8/4x3/3o4/2o5/8/3xx3 o 0 1 moves e8e5",
                "p2win",
                Some(true),
            ),
            // Black connected: player 1 has won.
            ("fen 8/8/8/3xx3/8/8/o6o/8 o 0 1", "p1win", None),
        ],
        must_pass: "fen 6ox/6oo/8/8/8/8/oo6/xo6 x 0 1",
        win_in_one: "fen 4o3/8/8/4x3/3o4/2o5/8/3xx3 o 0 1",
    };

    ugi_promises!(CASE);

    /// Issue 53 item 9: a manager judging by LOA's text rules (a move limit, no
    /// repetition) plays on after a third repetition and sends the next move. The
    /// engine's rules ended the game there: its error says so (it used to call a
    /// legal-looking move illegal: `illegal move 'b1b3' (number 9)`), and the previous
    /// position stays.
    #[test]
    fn a_move_after_a_third_repetition_is_refused_as_after_the_end() {
        let e = engine::<Position>(&["--ugi"]);
        handshake::<Position>(&e);
        // b1b3 a2c2 b3b1 c2a2 twice: the start occurs a third time after eight plies.
        let cycle = "b1b3 a2c2 b3b1 c2a2 b1b3 a2c2 b3b1 c2a2";
        assert!(ask(&e, &format!("position startpos moves {cycle}")).is_empty());
        assert_eq!(ask(&e, "query gameover"), ["response true"]);
        assert_eq!(ask(&e, "query result"), ["response draw"]);
        assert!(ask(&e, "position startpos moves b1d3").is_empty());
        let said = ask(&e, &format!("position startpos moves {cycle} b1b3"));
        let mut over = Position::startpos(Rules::Ugi);
        for mv in cycle.split_whitespace() {
            over.make_move(over.parse_move(mv).unwrap());
        }
        assert_eq!(
            said,
            [format!(
                "info string error: the game is over (third repetition) before move 'b1b3' \
                 (number 9) in {}",
                over.fen()
            )]
        );
        // The position before the refused command stays.
        assert_eq!(ask(&e, "query p1turn"), ["response false"]);
        e.send("quit");
        assert!(e.finish(T).status.success());
    }
}

mod reversi {
    use super::Case;
    use engine::games::reversi::Position;

    const CASE: Case = Case {
        first: "d3",
        illegal_after_first: "d3",
        illegal_at_start: "d4",
        finished: &[
            // White has no disc left.
            (
                "fen 4x3/3x4/1xxxx3/3xxx2/3xx3/3x4/3x4/8 o",
                "p1win",
                Some(false),
            ),
            // f4 turns over white's last disc.
            ("fen 8/8/8/3xo3/8/8/8/8 x moves f4", "p1win", Some(false)),
        ],
        // After these eight moves black has no placement.
        must_pass: "startpos moves d3 c3 b3 b2 f5 a3 a1 c1",
        win_in_one: "fen 8/8/8/3xo3/8/8/8/8 x",
    };

    ugi_promises!(CASE);
}

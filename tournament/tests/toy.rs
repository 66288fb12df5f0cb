//! The test kit's tic-tac-toe (`testkit::toy`): a game with no course language that
//! implements only the rules traits and `Registered`, registered nowhere, run through the
//! generic parts unchanged: perft, the UGI session as a process (`toy-ugi`), the
//! compliance check (`tournament compliance`'s steps), the runner's referee in a round
//! robin against the built-in players, and the board page's view (issue 52 item 5).

use engine::game::{Benchmark, Game, Notation};
use engine::protocol::play::History;
use engine::protocol::text::board::{PageStyle, View};
use std::path::PathBuf;
use testkit::toy::{TicTacToe, ToyRules};
use tournament::cli::{self, spec::engine_spec, Command};

/// The toy's UGI engine, built beside the runner under test.
fn toy_ugi() -> PathBuf {
    testkit::sibling_binary(env!("CARGO_BIN_EXE_tournament"), "testkit", "toy-ugi")
}

/// The game's own walk against the engine library's generic make/unmake walk, and the
/// counts anyone can work out: 9 · 8 · 7 · 6 · 5 moves before a line can be made,
/// then the 1,440 games the first player wins on its third move stop.
#[test]
fn perft_of_the_toy_agrees_with_the_generic_walk_and_by_hand() {
    let start = TicTacToe::startpos(ToyRules::Standard);
    let by_hand = [1, 9, 72, 504, 3024, 15120, 54720];
    for (depth, &want) in by_hand.iter().enumerate() {
        assert_eq!(start.clone().perft(depth as u32), want, "depth {depth}");
    }
    for depth in 0..=9 {
        assert_eq!(
            start.clone().perft(depth),
            engine::perft::perft(&mut start.clone(), depth),
            "depth {depth}"
        );
    }
    let fen = "xo-/-x-/--o x";
    assert_eq!(
        TicTacToe::from_fen(fen, ToyRules::Standard).unwrap().fen(),
        fen
    );
    assert!(TicTacToe::from_fen("xo/---/--- x", ToyRules::Standard).is_err());
}

/// The board page draws the toy from its rules alone ([`engine::game::Diagram`]), by the
/// same code that draws every game's page: its squares and their names, the pieces, the
/// side to move, each legal move with the square it is clicked on, and the last move.
#[test]
fn the_board_page_draws_the_toy() {
    let mut pos = TicTacToe::from_fen("xo-/-x-/--- o", ToyRules::Standard).unwrap();
    let mut history = History::default();
    let before = pos.clone();
    let c3 = pos.parse_move("c3").expect("c3 is empty");
    pos.make_move(c3);
    history.record(before, c3, &pos);

    let v = View::diagram(&PageStyle::PLAIN, &pos, &history, |mv| pos.move_name(mv));
    assert_eq!((v.width, v.height, v.cells.as_str()), (3, 3, "01..0...1"));
    assert_eq!(
        (v.files.as_str(), v.ranks.join("")),
        ("123", "abc".to_string())
    );
    assert_eq!(
        (v.counts, v.to_move, v.sides),
        ([2, 2], Some(0), ["Black", "White"])
    );
    let clicks: Vec<(Option<usize>, usize, &str)> = v
        .moves
        .iter()
        .map(|(f, t, l)| (*f, *t, l.as_str()))
        .collect();
    assert_eq!(
        clicks,
        [
            (None, 2, "a3"),
            (None, 3, "b1"),
            (None, 5, "b3"),
            (None, 6, "c1"),
            (None, 7, "c2")
        ]
    );
    assert_eq!((&v.pass, v.last.as_slice()), (&None, &[8][..]));
    let json = v.to_json();
    assert!(json.contains(r#""cells":"01..0...1""#), "{json}");
    assert!(json.contains(r#""moves":[[null,2,"a3"],"#), "{json}");

    // Three in a line: nothing left to click.
    let before = TicTacToe::from_fen("xx-/oo-/--- x", ToyRules::Standard).unwrap();
    let (mut won, mut history) = (before.clone(), History::default());
    let a3 = before.parse_move("a3").unwrap();
    won.make_move(a3);
    history.record(before, a3, &won);
    let v = View::diagram(&PageStyle::PLAIN, &won, &history, |mv| won.move_name(mv));
    assert!(won.is_over() && v.moves.is_empty() && v.pass.is_none());
    assert_eq!(
        (v.cells.as_str(), v.last.as_slice()),
        ("00011....", &[2][..])
    );
}

/// Every step of the UGI check (handshake, positions, search limits, `stop`, `quit`,
/// queries) passes against the generic session as a process.
#[test]
fn the_toy_passes_the_ugi_compliance_check() {
    let words = vec![
        format!("cmd={}", toy_ugi().display()),
        "proto=ugi".to_string(),
        "name=toy".to_string(),
    ];
    let spec = engine_spec(&words).expect("a spec");
    let report = tournament::compliance::check::<TicTacToe>(&spec, None, false, None, false)
        .expect("a UGI engine can be checked");
    assert!(report.passed(), "{}", report.summary());
    // It has no text language: a text engine is refused in one line, not run.
    let text = engine_spec(&["cmd=./x".to_string(), "proto=text".to_string()]).unwrap();
    let refused = tournament::compliance::check::<TicTacToe>(&text, None, false, None, false);
    assert!(refused.is_err_and(|e| e.contains("no text language")));
}

/// A round robin of the toy's engine and the built-in players, judged by the runner's
/// referee: every game is recorded and ends by the rules, and the engine, which searches
/// the whole game, never loses.
#[test]
fn the_runner_plays_the_toy_against_the_built_ins() {
    let dir = crate::common::scratch("toy", "round-robin");
    let results = dir.join("toy.jsonl");
    let toy = format!("cmd={}", toy_ugi().display());
    let args: Vec<String> = [
        "-engine",
        "name=toy",
        &toy,
        "proto=ugi",
        "st=0.2",
        "-engine",
        "name=random",
        "builtin=random",
        "-engine",
        "name=greedy",
        "builtin=greedy",
        "-tournament",
        "round-robin",
        "-games",
        "2",
        "-rounds",
        "2",
        "-concurrency",
        "1",
        "-results",
        results.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let Ok(Command::Run(cfg)) = cli::parse(&args) else {
        panic!("the command line parses: {args:?}");
    };
    let status = tournament::matchmaking::runner::run::<TicTacToe>(&cfg).expect("the run");
    assert_eq!(status, 0);
    let games = crate::common::results_json(&results);
    // Three pairings, two rounds, two games each.
    assert_eq!(games.len(), 12, "{games:?}");
    for g in &games {
        assert_eq!(g["variant"], "tictactoe", "{g}");
        let reason = g["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("three in a line") || reason.contains("board full"),
            "{g}"
        );
        let players = g["players"].as_array().unwrap();
        let lost = match g["result"].as_str().unwrap() {
            "1-0" => Some(&players[1]),
            "0-1" => Some(&players[0]),
            _ => None,
        };
        assert_ne!(lost.and_then(|p| p.as_str()), Some("toy"), "{g}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

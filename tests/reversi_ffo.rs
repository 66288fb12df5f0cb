//! The exact solver on the FFO endgame test positions #20 to #59
//! (`tests/data/reversi/ffo20-39.obf`, `ffo40-49.obf` and `ffo50-59.obf`: each line
//! lists every move with its exact score; the best score is the largest). The solver
//! must return that score and a move that achieves it. Run in release mode; the slowest
//! positions are `#[ignore]`d (`cargo test --release --test tests reversi_ffo:: --
//! --include-ignored` runs them all).

use engine::games::reversi::solve::Solver;
use engine::games::reversi::{parse_square, Move, Position};
use std::path::PathBuf;
use std::time::Instant;

/// FFO position `number` (20 to 59) and its answers: (move, exact score) for every legal
/// move.
fn load(number: usize) -> (Position, Vec<(Move, i32)>) {
    let (file, first) = match number {
        ..=39 => ("ffo20-39.obf", 20),
        40..=49 => ("ffo40-49.obf", 40),
        _ => ("ffo50-59.obf", 50),
    };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reversi")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), if first == 20 { 20 } else { 10 }, "{file}");
    let line = lines[number - first];
    let pos = Position::from_obf(line).expect("a valid OBF line");
    let answers = line
        .split(';')
        .skip(1)
        .filter_map(|a| {
            let (sq, score) = a.trim().split_once(':')?;
            let sq = parse_square(sq).expect("an answer square");
            Some((
                Move::place(sq),
                score.trim().parse::<i32>().expect("a score"),
            ))
        })
        .collect::<Vec<_>>();
    assert_eq!(
        answers.len(),
        pos.legal_moves().len(),
        "FFO #{number}: one answer per legal move"
    );
    (pos, answers)
}

fn check(number: usize) {
    let (pos, answers) = load(number);
    let best = answers.iter().map(|a| a.1).max().unwrap();
    let mut solver = Solver::default();
    let start = Instant::now();
    let s = solver.solve(&pos);
    let ms = start.elapsed().as_millis();
    eprintln!(
        "FFO #{number}: {} empties, move {} score {} nodes {} time {ms} ms",
        pos.empty().count_ones(),
        s.best.map_or("none".to_string(), |m| m.to_string()),
        s.score,
        s.nodes
    );
    assert_eq!(s.score, best, "FFO #{number} score");
    let mv = s.best.expect("a move");
    let achieved = answers.iter().find(|a| a.0 == mv).map(|a| a.1);
    assert_eq!(
        achieved,
        Some(best),
        "FFO #{number}: {mv} does not reach {best}"
    );
}

/// #20–#39 (6 to 26 empties, about 6 s in release): every one, each with a fresh table.
#[test]
fn ffo_20_to_39() {
    for number in 20..40 {
        check(number);
    }
}

#[test]
fn ffo_40() {
    check(40);
}

#[test]
fn ffo_41() {
    check(41);
}

#[test]
fn ffo_42() {
    check(42);
}

#[test]
fn ffo_43() {
    check(43);
}

#[test]
fn ffo_44() {
    check(44);
}

#[test]
#[ignore = "slow: 191 M nodes, several seconds of CPU in release"]
fn ffo_45() {
    check(45);
}

#[test]
fn ffo_46() {
    check(46);
}

#[test]
fn ffo_47() {
    check(47);
}

#[test]
#[ignore = "slow: 141 M nodes, several seconds of CPU in release"]
fn ffo_48() {
    check(48);
}

#[test]
#[ignore = "slow: 259 M nodes, several seconds of CPU in release"]
fn ffo_49() {
    check(49);
}

/// #50–#59 (26 to 34 empties): every line reads, with one exact answer per legal move.
#[test]
fn ffo_50_to_59_are_well_formed() {
    for number in 50..=59 {
        let (pos, answers) = load(number);
        assert!(pos.empty().count_ones() >= 26, "FFO #{number}");
        assert!(!answers.is_empty(), "FFO #{number}");
    }
}

/// #50–#59 solved: minutes each for the present solver (26 to 30 empties; #59's 34
/// empties end quickly in a wipe-out).
#[test]
#[ignore = "slow: minutes per position"]
fn ffo_50_to_59() {
    for number in 50..=59 {
        check(number);
    }
}

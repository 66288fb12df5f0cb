//! Perft against the reference table in `tests/data/ataxx/perft.tsv` (copied
//! unmodified from the reference library; see `tests/data/SOURCES.md`).

use engine::games::ataxx::{Position, Rules};
use std::path::PathBuf;

fn table() -> Vec<(String, Vec<u64>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ataxx/perft.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t") && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            let fen = cols.next().unwrap().to_string();
            let counts = cols.map(|c| c.trim().parse().unwrap()).collect();
            (fen, counts)
        })
        .collect()
}

fn check(max_depth: usize, max_nodes: u64) {
    let rows = table();
    assert_eq!(rows.len(), 24, "the reference table has 24 positions");
    for (fen, counts) in rows {
        let mut pos = Position::from_fen(&fen, Rules::Uai).unwrap();
        for (i, &expected) in counts.iter().enumerate().take(max_depth) {
            if expected > max_nodes {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(pos.perft(depth), expected, "perft({depth}) of {fen}");
        }
    }
}

#[test]
fn perft_table_fast_depths() {
    check(7, 20_000_000);
}

#[test]
#[ignore = "slow: the full table to depth 6"]
fn perft_table_depth_6() {
    check(6, u64::MAX);
}

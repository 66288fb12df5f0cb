//! `docs/strength.md` stays true about its node-limited matches (issue 25 item 3):
//! deterministic engines replay a game whenever the schedule gives them an opening
//! again in the same colours, so a row's game count overstates its distinct games.

use tournament::matchmaking::schedule::{self, OpeningPolicy, TournamentKind};

/// Distinct (colours, opening) games of `-games 2 -rounds N -repeat` over a book of
/// `openings` lines, as the runner schedules them.
fn distinct_games(rounds: u32, openings: u64) -> usize {
    let games = schedule::build(
        2,
        TournamentKind::RoundRobin,
        rounds,
        2,
        true,
        OpeningPolicy::Shared,
    );
    let keys: std::collections::HashSet<_> = games
        .iter()
        .map(|g| (g.players, g.opening_slot % openings))
        .collect();
    keys.len()
}

#[test]
fn node_limited_rows_count_their_distinct_games() {
    // The doc's conditions: 160 openings; 400-game rows are 200 rounds, 300-game ones 150.
    assert_eq!(distinct_games(200, 160), 320);
    assert_eq!(distinct_games(150, 160), 300);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/strength.md"))
        .unwrap();
    // Rounds 1 and 2 are the node-limited ones (round 3 on plays at time controls).
    let node_limited = &doc[..doc.find("## Round 3").unwrap()];
    let mut annotated = 0;
    for row in node_limited.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert!(
            !cells.contains(&"400"),
            "a 400-game row without its count: {row}"
        );
        annotated += cells
            .iter()
            .filter(|&&c| c == "400 (≤ 320 distinct)")
            .count();
    }
    assert_eq!(annotated, 18);
    assert!(node_limited.contains("at most 320 distinct games (160\n  pairs)"));
}

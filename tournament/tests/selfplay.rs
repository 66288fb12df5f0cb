//! Self-play through the runner: our `reversi` and `loa` engines against themselves over
//! UGI on a small node budget, from the random openings of `openings/<game>-openings.txt`.
//! Every game must end by the rules: no illegal move, no fault, no forfeit. The 200-game
//! runs of docs/reversi.md and docs/loa.md are the same commands with `-rounds 100`.

use crate::common::{assert_contains, engine_binary, TOURNAMENT};

use std::process::{Command, Stdio};

/// Plays ten games of `game` and checks each ended by the rules, for a reason that
/// `by_rules` accepts.
fn ten_games_end_by_the_rules(game: &str, by_rules: fn(&str) -> bool) {
    let cmd = format!("cmd={}", engine_binary(game).display());
    let openings = format!(
        "{}/openings/{game}-openings.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = std::env::temp_dir().join(format!("{game}-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let res = dir.join("r.jsonl");
    let o = Command::new(TOURNAMENT)
        .args(["-variant", game])
        .args(["-engine", &cmd, "name=a", "proto=ugi", "nodes=2000"])
        .args(["-engine", &cmd, "name=b", "proto=ugi", "nodes=2000"])
        .args(["-games", "2", "-rounds", "5", "-repeat", "-report"])
        .args(["-openings", &format!("file={openings}")])
        .args(["-results", res.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_contains(&out, "Endings: 10 rules");
    let text = std::fs::read_to_string(&res).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a results line"))
        .collect();
    assert_eq!(games.len(), 10);
    for g in &games {
        assert_eq!(g["ending"], "rules", "{g}");
        let reason = g["reason"].as_str().unwrap();
        assert!(by_rules(reason), "{reason}");
    }
}

#[test]
fn reversi_self_play_games_end_on_the_board() {
    ten_games_end_by_the_rules("reversi", |r| r.starts_with("no moves for either side"));
}

#[test]
fn loa_self_play_games_end_by_the_rules() {
    ten_games_end_by_the_rules("loa", |r| {
        r.ends_with(" connected")
            || r.starts_with("both connected")
            || r.starts_with("third repetition")
    });
}

//! Reversi self-play through the runner: our `reversi` engine against itself over UGI
//! on a small node budget, from the random openings of
//! `openings/reversi-openings.txt`. Every game must end on the board (nobody can
//! move): no illegal move, no fault, no forfeit. The 200-game run of docs/reversi.md is
//! the same command with `-rounds 100`.

use std::path::Path;
use std::process::{Command, Stdio};

const TOURNAMENT: &str = env!("CARGO_BIN_EXE_tournament");

/// The `reversi` binary beside the runner, built first: `cargo test -p tournament` does
/// not build the engine crate's binaries, and a stale one would test old code.
fn reversi_binary() -> std::path::PathBuf {
    let path =
        Path::new(TOURNAMENT).with_file_name(format!("reversi{}", std::env::consts::EXE_SUFFIX));
    if let Some(cargo) = std::env::var_os("CARGO") {
        let release = path.parent().and_then(Path::file_name) == Some("release".as_ref());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "ataxx-engine", "--bin", "reversi"]);
        if release {
            build.arg("--release");
        }
        assert!(build.status().expect("run cargo build").success());
    }
    assert!(path.exists(), "no engine binary at {}", path.display());
    path
}

#[test]
fn ten_self_play_games_end_on_the_board() {
    let cmd = format!("cmd={}", reversi_binary().display());
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/reversi-openings.txt");
    let dir = std::env::temp_dir().join(format!("reversi-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let res = dir.join("r.jsonl");
    let o = Command::new(TOURNAMENT)
        .args(["-variant", "reversi"])
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
    assert!(out.contains("Endings: 10 rules"), "{out}");
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
        assert!(reason.starts_with("no moves for either side"), "{reason}");
    }
}

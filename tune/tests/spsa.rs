//! `tune spsa` end to end: the engine at fixed nodes through the runner's binary, so the
//! run is deterministic, and θ's history must be the same whether the run is played in
//! one go, in two shards at once, or resumed after a cut.

use crate::common::{self, stderr, stdout, TUNE};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

fn engine() -> PathBuf {
    testkit::sibling_binary(TUNE, "ataxx-engine", "ataxx")
}

fn spsa(dir: &Path, extra: &[&str]) -> Command {
    let book =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournament/openings/ataxx-openings.txt");
    let mut c = Command::new(TUNE);
    c.arg("spsa")
        .arg("--dir")
        .arg(dir)
        .arg("--engine")
        .arg(engine())
        .args(["--param", "RFPMargin:150:0:400:30:0.004"])
        .args(["--param", "LMRAggr:3:0:8:1:0.004"])
        .args(["--iterations", "8", "--batch", "4", "--nodes", "2000"])
        .arg("--openings")
        .arg(book)
        .arg("--tournament")
        .arg(common::tournament_binary())
        .args(extra)
        .stdin(Stdio::null());
    c
}

/// θ at each batch start, as the run directory keeps it.
fn thetas(dir: &Path) -> Vec<String> {
    (0..=2)
        .map(|b| std::fs::read_to_string(dir.join(format!("theta-{b}.txt"))).unwrap())
        .collect()
}

#[test]
fn sharded_resumed_and_whole_runs_give_one_theta() {
    let whole = common::scratch("spsa", "whole");
    let o = spsa(&whole, &["--concurrency", "2"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(
        report.contains("RFPMargin") && report.contains("tuned: option.RFPMargin="),
        "{report}"
    );
    let want = thetas(&whole);
    assert_ne!(want[0], want[2], "θ never moved in 8 pairs: {want:?}");

    // Two shards at once, sharing the directory: the same θ at every batch.
    let sharded = common::scratch("spsa", "sharded");
    let shards: Vec<Child> = ["0/2", "1/2"]
        .iter()
        .map(|s| {
            spsa(&sharded, &["--shard", s])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut s in shards {
        assert!(s.wait().unwrap().success());
    }
    assert_eq!(thetas(&sharded), want);
    assert!(sharded.join("results-1-1.txt").exists());

    // Cut after two pairs of the second batch (and a half-written line): the rerun
    // plays the rest and reaches the same θ.
    let cut = common::scratch("spsa", "cut");
    for f in ["spsa.conf", "theta-0.txt", "results-0-0.txt", "theta-1.txt"] {
        std::fs::copy(whole.join(f), cut.join(f)).unwrap();
    }
    let second = std::fs::read_to_string(whole.join("results-1-0.txt")).unwrap();
    let kept: String = second.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(cut.join("results-1-0.txt"), kept + "8").unwrap();
    let o = spsa(&cut, &[]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(thetas(&cut), want);

    // Another run's settings in the directory are refused, nothing played.
    let o = spsa(&whole, &["--seed", "9"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("another run's settings"),
        "{}",
        stderr(&o)
    );
    for d in [whole, sharded, cut] {
        let _ = std::fs::remove_dir_all(d);
    }
}

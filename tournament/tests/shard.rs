//! End-to-end tests of sharded runs (`-shard I/N`) and `tournament merge`: shards run
//! as separate processes of the real binary, as a scheduler would start them.

use crate::common::{
    self, assert_contains, results_so_far, run_strings, stderr, stdout, TOURNAMENT,
};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn spawn(args: &[String], env: &[(&str, &str)]) -> Child {
    let mut c = Command::new(TOURNAMENT);
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for var in tournament::matchmaking::shard::INDEX_VARS {
        c.env_remove(var);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().expect("start tournament")
}

fn p(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

/// What decides a game, by id: everything but times and dates.
fn games(files: &[PathBuf]) -> BTreeMap<u64, serde_json::Value> {
    let mut out = BTreeMap::new();
    for f in files {
        for mut v in results_so_far(f) {
            let o = v.as_object_mut().unwrap();
            for timing in ["date", "duration_ms", "info"] {
                o.remove(timing);
            }
            let id = o["id"].as_u64().unwrap();
            assert!(out.insert(id, v).is_none(), "game {id} recorded twice");
        }
    }
    out
}

fn without_dates(pgn: &Path) -> String {
    std::fs::read_to_string(pgn)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The built-in match of these tests, with random openings (the order depends on the
/// seed, as the built-in players' moves do).
fn builtin_match(rounds: u32, seed: u32, extra: &[&str]) -> Vec<String> {
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/ataxx-openings.txt");
    let mut args = strings(&[
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-rounds",
        &rounds.to_string(),
        "-repeat",
        "-seed",
        &seed.to_string(),
        "-openings",
        &format!("file={book}"),
        "order=random",
    ]);
    args.extend(strings(extra));
    args
}

#[test]
fn shards_and_merge_equal_the_unsharded_run() {
    let dir = common::scratch("shard", "equal");
    let base = builtin_match(13, 7, &["-sprt", "elo0=-200", "elo1=200", "-report"]);
    let mut full = base.clone();
    full.extend(strings(&[
        "-results",
        &p(&dir.join("full.jsonl")),
        "-pgnout",
        &p(&dir.join("full.pgn")),
        "min",
    ]));
    let o = run_strings(&full);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let full_report = stdout(&o);

    // Three shards at once, as a job array starts them: one names its index, the
    // others take it from the scheduler's variable.
    let shard_args = |i: usize, given: &str| {
        let mut a = base.clone();
        a.extend(strings(&[
            "-shard",
            given,
            "-results",
            &p(&dir.join(format!("s{i}.jsonl"))),
            "-pgnout",
            &p(&dir.join(format!("s{i}.pgn"))),
            "min",
        ]));
        a
    };
    let children = [
        spawn(&shard_args(0, "0/3"), &[]),
        spawn(&shard_args(1, "auto/3"), &[("SLURM_ARRAY_TASK_ID", "1")]),
        spawn(&shard_args(2, "auto/3"), &[("JOB_COMPLETION_INDEX", "2")]),
    ];
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let shard_files: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("s{i}.jsonl"))).collect();
    // 13 rounds of one pair: 13 units, 5 + 4 + 4.
    let sizes: Vec<usize> = shard_files
        .iter()
        .map(|f| results_so_far(f).len())
        .collect();
    assert_eq!(sizes, [10, 8, 8]);
    assert_eq!(
        games(&shard_files),
        games(&[dir.join("full.jsonl")]),
        "the shards played the unsharded run's games"
    );

    let mut merge = strings(&[
        "merge",
        "-pgnout",
        &p(&dir.join("merged.pgn")),
        "-report",
        "-sprt",
        "elo0=-200",
        "elo1=200",
    ]);
    merge.extend(shard_files.iter().map(|f| p(f)));
    merge.extend((0..3).map(|i| p(&dir.join(format!("s{i}.pgn")))));
    let o = run_strings(&merge);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("merged: 26 of 26 games") && !stderr(&o).contains("missing"),
        "{}",
        stderr(&o)
    );
    let report = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("Finished match"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let merged = stdout(&o);
    assert_contains(&full_report, "SPRT (normalized, elo0=-200");
    assert!(full_report.contains("Pentanomial") && full_report.contains("Rank"));
    assert_eq!(report(&merged), report(&full_report));
    assert_contains(
        &merged,
        "Finished match: 26 of 26 games, merged from 3 files",
    );
    assert_eq!(
        without_dates(&dir.join("merged.pgn")),
        without_dates(&dir.join("full.pgn")),
        "the merged PGN is the unsharded run's, in schedule order"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn killed_shard_reruns_without_losing_or_doubling_games() {
    let dir = common::scratch("shard", "kill");
    let res = dir.join("s1.jsonl");
    let pgn = dir.join("s1.pgn");
    let mut base = common::slow_match();
    let shard = |base: &[String], i: usize| {
        let mut a = base.to_vec();
        a.extend(strings(&[
            "-shard",
            &format!("{i}/2"),
            "-results",
            &p(&dir.join(format!("s{i}.jsonl"))),
            "-pgnout",
            &p(&dir.join(format!("s{i}.pgn"))),
        ]));
        a
    };
    let mut child = spawn(&shard(&base, 1), &[]);
    let started = Instant::now();
    while results_so_far(&res).len() < 2 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = results_so_far(&res).len();
    assert!((2..8).contains(&before), "{before} games before the kill");

    // The scheduler's retry: the same command, which resumes.
    let o = run_strings(&shard(&base, 1));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_contains(&stderr(&o), "resuming");
    let ids: Vec<u64> = results_so_far(&res)
        .iter()
        .map(|v| v["id"].as_u64().unwrap())
        .collect();
    // Shard 1 of 2: the second pair of every two.
    let share: Vec<u64> = vec![2, 3, 6, 7, 10, 11, 14, 15];
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, share, "each game of the share once: {ids:?}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Event ").count(), 8);

    // Another run's settings on this file are refused, and nothing is written.
    let mut other = shard(&base, 1);
    other.extend(strings(&["-seed", "9"]));
    let o = run_strings(&other);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "another run");
    // So is this file for another shard index.
    let mut wrong = shard(&base, 0);
    let at = wrong.iter().position(|a| a.ends_with("s0.jsonl")).unwrap();
    wrong[at] = p(&res);
    let o = run_strings(&wrong);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "belongs to shard 1");
    assert_eq!(results_so_far(&res).len(), 8);

    // The other shard, then the merge: all 16 games, once.
    base.extend(strings(&["-concurrency", "2"]));
    let o = run_strings(&shard(&base, 0));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_strings(&strings(&[
        "merge",
        &p(&dir.join("s0.jsonl")),
        &p(&dir.join("s1.jsonl")),
    ]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_contains(&stderr(&o), "merged: 16 of 16 games");
    assert_contains(&stdout(&o), "Score of fake vs greedy:");
    let all: HashSet<u64> = games(&[dir.join("s0.jsonl"), res.clone()])
        .into_keys()
        .collect();
    assert_eq!(all, (0..16).collect());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_mixed_runs_and_lists_missing_games() {
    let dir = common::scratch("shard", "mixed");
    for (i, seed) in [(0, 1), (1, 1), (2, 2)] {
        let n = if i == 2 { 1 } else { i };
        let mut a = builtin_match(4, seed, &["-shard", &format!("{n}/2")]);
        a.extend(strings(&[
            "-results",
            &p(&dir.join(format!("s{i}.jsonl"))),
            "-pgnout",
            &p(&dir.join(format!("s{i}.pgn"))),
        ]));
        let o = run_strings(&a);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let f = |name: &str| p(&dir.join(name));
    let merge = |files: &[&str]| {
        let mut a = strings(&["merge"]);
        a.extend(files.iter().map(|n| f(n)));
        run_strings(&a)
    };

    // Shard 1 of another seed is another run.
    let o = merge(&["s0.jsonl", "s2.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("mixed runs") && e.lines().count() == 1, "{e}");
    assert!(stdout(&o).is_empty());
    // Its PGN does not fit this run's records either.
    let mut a = strings(&["merge", "-pgnout", &f("m.pgn")]);
    a.extend([f("s0.jsonl"), f("s1.jsonl"), f("s0.pgn"), f("s2.pgn")]);
    let o = run_strings(&a);
    assert_eq!(o.status.code(), Some(1));
    assert_contains(&stderr(&o), "not the same run");

    // One shard alone: a report of its games and the missing ones named.
    let o = merge(&["s0.jsonl"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = stderr(&o);
    assert_contains(&e, "merged: 4 of 8 games");
    assert_contains(&e, "missing: 4 games: ids 2-3, 6-7");
    assert_contains(&stdout(&o), "Score of greedy vs random:");

    // The same games twice count once; a game recorded with another result is an error.
    let o = merge(&["s0.jsonl", "s1.jsonl", "s0.jsonl"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_contains(&stderr(&o), "merged: 8 of 8 games");
    assert_contains(&stderr(&o), "4 duplicates dropped");
    let text = std::fs::read_to_string(dir.join("s0.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    let flipped = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .zip(["0-1", "1-0", "1-0"])
        .map(|(from, to)| {
            let field = |r: &str| format!("\"result\":\"{r}\"");
            first.replace(&field(from), &field(to))
        })
        .find(|l| l != first)
        .unwrap();
    assert_ne!(flipped, first);
    std::fs::write(dir.join("bad.jsonl"), format!("{flipped}\n")).unwrap();
    let o = merge(&["s0.jsonl", "bad.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert_contains(&stderr(&o), "differs from game");

    // A line without a run identity (a runner from before shards), a file that is not
    // there, no files: refused.
    let old: String = first
        .split(",\"run\":")
        .next()
        .map(|s| format!("{s}}}\n"))
        .unwrap();
    assert!(!old.contains("\"run\""));
    std::fs::write(dir.join("old.jsonl"), old).unwrap();
    let o = merge(&["old.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert_contains(&stderr(&o), "no run identity");
    assert_eq!(merge(&["nothing.jsonl"]).status.code(), Some(1));
    assert_eq!(merge(&[]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_sharing_a_directory_stop_together_on_the_sprt() {
    let dir = common::scratch("shard", "sprt");
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let sprt = ["-sprt", "elo0=0", "elo1=20"];
    let shard = |i: usize| {
        let mut a = strings(&[
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-rounds",
            "500",
            "-repeat",
        ]);
        a.extend(strings(&sprt));
        a.extend(strings(&[
            "-shard",
            &format!("{i}/3"),
            &format!("dir={}", p(&shared)),
            "poll=0",
            "-results",
            &p(&shared.join(format!("s{i}.jsonl"))),
        ]));
        a
    };
    let children = [spawn(&shard(0), &[]), spawn(&shard(1), &[])];
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let decisions: Vec<PathBuf> = std::fs::read_dir(&shared)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sprt"))
        .collect();
    assert_eq!(decisions.len(), 1, "{decisions:?}");
    let decision: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&decisions[0]).unwrap()).unwrap();
    assert_eq!(decision["decision"], "H1", "{decision}");
    let played = results_so_far(&shared.join("s0.jsonl")).len()
        + results_so_far(&shared.join("s1.jsonl")).len();
    assert!(
        played < 300,
        "{played} of 668 games: the shards did not stop"
    );

    // A shard that starts after the decision plays nothing.
    let o = run_strings(&shard(2));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(results_so_far(&shared.join("s2.jsonl")).is_empty());

    let mut merge = strings(&["merge", "-report"]);
    merge.extend(strings(&sprt));
    merge.extend((0..3).map(|i| p(&shared.join(format!("s{i}.jsonl")))));
    let o = run_strings(&merge);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "H1 accepted");
    assert_contains(
        &out,
        &format!("Finished match: {played} of 1000 games, stopped by the SPRT"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue item 12: a shard looks at the run's SPRT once more when it ends. With games
/// faster than the poll interval (here: a poll a day) a shard looked only before its
/// first game, so the decision file was never written and every shard played its
/// whole share. Now the first shard, ending with a decided sum, writes the decision,
/// and a shard started after it plays nothing.
#[test]
fn a_shard_writes_the_decision_its_last_games_reach() {
    let dir = common::scratch("shard", "last-look");
    let shared = dir.join("shared");
    let shard = |i: usize| {
        strings(&[
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-rounds",
            "100",
            "-repeat",
            "-sprt",
            "elo0=0",
            "elo1=20",
            "-shard",
            &format!("{i}/2"),
            &format!("dir={}", p(&shared)),
            "poll=86400",
            "-results",
            &p(&dir.join(format!("s{i}.jsonl"))),
        ])
    };
    let o = run_strings(&shard(0));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Its whole share: it looked only before its first game and at the end.
    assert_eq!(results_so_far(&dir.join("s0.jsonl")).len(), 100);
    let decisions: Vec<PathBuf> = std::fs::read_dir(&shared)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sprt"))
        .collect();
    assert_eq!(decisions.len(), 1, "no decision file: {}", stderr(&o));
    let decision: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&decisions[0]).unwrap()).unwrap();
    assert_eq!(decision["decision"], "H1", "{decision}");
    assert_eq!(decision["games"], 100, "{decision}");
    assert_eq!(decision["by"], 0, "{decision}");
    let o = run_strings(&shard(1));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(results_so_far(&dir.join("s1.jsonl")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_refuses_a_file_of_another_run() {
    let dir = common::scratch("shard", "resume");
    let res = p(&dir.join("r.jsonl"));
    let with = |extra: &[&str]| {
        let mut a = builtin_match(2, 1, extra);
        a.extend(strings(&["-results", &res]));
        a
    };
    let o = run_strings(&with(&[]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(results_so_far(&dir.join("r.jsonl"))[0]["run"]["games"], 4);
    // Other games: refused, the file untouched.
    let o = run_strings(&with(&["-resume", "-seed", "2"]));
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "another run");
    // Other output or concurrency: the same run.
    let o = run_strings(&with(&["-resume", "-concurrency", "2", "-report"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(results_so_far(&dir.join("r.jsonl")).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `deploy/slurm-local-test.sh` (the last step of `.ci/run`) takes the binaries from
/// the directory cargo built them into, not from `target/` under the repository: with
/// `CARGO_TARGET_DIR` set it used to look for a runner that was never built there.
#[test]
fn slurm_local_test_finds_the_binaries_where_cargo_puts_them() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/slurm-local-test.sh");
    let dir = common::scratch("shard", "bindir");
    let bin_dir = |target: Option<&Path>, profile: &str| {
        let mut c = Command::new(script);
        c.arg("--bin-dir")
            .env("CARGO_PROFILE", profile)
            .current_dir(&dir)
            .stdin(Stdio::null());
        if let Some(t) = target {
            c.env("CARGO_TARGET_DIR", t);
        }
        let o = c.output().expect("run slurm-local-test.sh");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        PathBuf::from(stdout(&o).trim_end())
    };
    let elsewhere = dir.join("elsewhere");
    assert_eq!(bin_dir(Some(&elsewhere), "ci"), elsewhere.join("ci"));
    assert_eq!(bin_dir(Some(&elsewhere), "dev"), elsewhere.join("debug"));
    // In this test's own environment: the directory of the runner under test.
    let ours = Path::new(TOURNAMENT).parent().unwrap();
    let profile = ours.file_name().unwrap().to_str().unwrap();
    assert_eq!(bin_dir(None, profile), ours);
    let _ = std::fs::remove_dir_all(&dir);
}

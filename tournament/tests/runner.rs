//! End-to-end tests of the `tournament` binary: built-in players and the misbehaving
//! `fake-engine` (crash, hang, illegal move, garbage, no handshake, text language),
//! kill-and-resume, and SPRT stopping.

use crate::common::{
    self, assert_contains, engine_binary, results_json, run, run_strings, stderr, stdout, FAKE,
    TOURNAMENT,
};

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// (id, result, reason, first player) of every line of a results file.
/// Every game of `recs` ended on the board: full, a side without moves or stones, or
/// the rule set's move limit `limit` (text rules: 25 jumps; engine rules: 100 plies).
fn assert_rule_endings(recs: &[(u64, String, String, String)], limit: &str) {
    for (id, _, reason, _) in recs {
        assert!(
            ["board full", "no moves left", "no stones left", limit]
                .iter()
                .any(|r| reason.starts_with(r)),
            "game {id}: {reason}"
        );
    }
}

fn records(path: &PathBuf) -> Vec<(u64, String, String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| {
            (
                v["id"].as_u64().unwrap(),
                v["result"].as_str().unwrap().to_string(),
                v["reason"].as_str().unwrap().to_string(),
                v["players"][0].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every game of the PGN file reads back whole by the one-line rules of the `ataxx`
/// Python package (`tournament::game::pgn::read_one_line`) and by our general reader: the
/// moves and the result of its line in the results file, in the same order by id.
fn assert_pgn_reads_back_whole(pgn: &Path, res: &Path) {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut by_id: std::collections::HashMap<u64, serde_json::Value> = Default::default();
    for line in std::fs::read_to_string(res).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        by_id.insert(v["id"].as_u64().unwrap(), v);
    }
    for reader in [
        tournament::game::pgn::read_one_line,
        tournament::game::pgn::read,
    ] {
        let games = reader(&text).unwrap();
        assert_eq!(games.len(), by_id.len(), "{text}");
        for g in &games {
            let round: u64 = g.tag("Round").unwrap().parse().unwrap();
            let rec = &by_id[&(round - 1)];
            let moves: Vec<&str> = rec["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert_eq!(g.moves, moves, "game {round} does not read back whole");
            assert_eq!(g.result.as_deref(), rec["result"].as_str());
            assert_eq!(g.tag("Result"), rec["result"].as_str());
        }
    }
}

/// `games` games, every one ended by the rules: no moves for either side.
fn assert_all_ended_on_the_board(recs: &[(u64, String, String, String)], games: usize) {
    assert_eq!(recs.len(), games, "{recs:?}");
    for (id, _, reason, _) in recs {
        assert!(
            reason.starts_with("no moves for either side"),
            "game {id}: {reason}"
        );
    }
}

/// The fake engine's games: every one lost by the fake, with a reason containing `why`.
fn assert_fake_lost_all(recs: &[(u64, String, String, String)], games: usize, why: &str) {
    assert_eq!(recs.len(), games, "{recs:?}");
    for (_, result, reason, first) in recs {
        let fake_first = first == "fake";
        let expected = if fake_first { "0-1" } else { "1-0" };
        assert_eq!(result, expected, "{reason}");
        assert!(reason.contains(why), "reason '{reason}' lacks '{why}'");
    }
}

#[test]
fn greedy_beats_random_and_everything_is_recorded() {
    let dir = common::scratch("test", "greedy");
    let res = dir.join("r.jsonl");
    let pgn = dir.join("g.pgn");
    let o = run(&[
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-rounds",
        "10",
        "-repeat",
        "-concurrency",
        "2",
        "-results",
        res.to_str().unwrap(),
        "-pgnout",
        pgn.to_str().unwrap(),
        "-seed",
        "3",
        "-event",
        "Club cup",
        "-site",
        "Leiden",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    let ids: HashSet<u64> = recs.iter().map(|r| r.0).collect();
    assert_eq!(ids, (0..20).collect());
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        pgn_text
            .matches("[Event \"Club cup\"]\n[Site \"Leiden\"]")
            .count(),
        20
    );
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Event ").count(), 20);
    assert!(pgn_text.contains("[Black \"greedy\"]") && pgn_text.contains("[White \"greedy\"]"));
    assert_pgn_reads_back_whole(&pgn, &res);
    let out = stdout(&o);
    assert_contains(&out, "Score of greedy vs random:");
    assert_contains(&out, "Pentanomial");
    assert_contains(&out, "LOS:");
}

#[test]
fn round_robin_table_for_three_engines() {
    let three = [
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-engine",
        "name=r2",
        "builtin=random",
        "-games",
        "2",
    ];
    let o = run(&three);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "Rank");
    assert_eq!(out.matches("Score of").count(), 3, "{out}");
    let o = run(&[&three[..], &["-tournament", "gauntlet"]].concat());
    assert_eq!(stdout(&o).matches("Score of").count(), 2);
    // -ratinginterval 2: the table after games 2 and 4, and at the end; not after game
    // 6 as well, where the final report says the same (it was printed twice).
    let o = run(&[&three[..], &["-ratinginterval", "2"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("Rank ").count(), 3, "{}", stdout(&o));
    // -ratinginterval 4: after game 4, and at the end (6 games).
    let o = run(&[&three[..], &["-ratinginterval", "4"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("Rank ").count(), 2, "{}", stdout(&o));
    // Two engines, 4 games, every 2: one interval report, then the final one.
    let o = run(&[
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "4",
        "-ratinginterval",
        "2",
        "-concurrency",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("Score of").count(), 2, "{}", stdout(&o));
}

/// Issue item 14's small defects: `tournament` with no arguments points at -help, a
/// merge error has one `merge:` prefix, `-results /dev/null` plays (twice at once:
/// a device is not locked), and `-openings start=` beyond the book is refused.
#[test]
fn small_command_line_defects() {
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "-help");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));

    let o = run(&["merge"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.starts_with("tournament merge: give"), "{err}");
    assert_eq!(err.matches("merge:").count(), 1, "{err}");

    let null = [
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-results",
        "/dev/null",
    ];
    let o = run(&null);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_contains(&stdout(&o), "Score of greedy vs random: 2 - 0 - 0");
    let o = run(&[&null[..], &["-resume"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spawn = || {
        Command::new(TOURNAMENT)
            .args(null)
            .args(["-rounds", "50"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run tournament")
    };
    let (a, b) = (spawn(), spawn());
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }

    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/loa-openings.txt");
    let o = run(&[
        "-variant",
        "loa",
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-openings",
        &format!("file={book}"),
        "start=100000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_contains(&stderr(&o), "start=100000 is beyond the book");
}

#[test]
fn bad_command_lines_exit_2_with_one_line() {
    for args in [
        vec!["-engine", "builtin=random"],
        vec![
            "-engine",
            "builtin=random",
            "-engine",
            "name=b",
            "builtin=random",
            "-games",
            "zero",
        ],
        vec![
            "-engine",
            "builtin=random",
            "-engine",
            "name=b",
            "cmd=/no/such/engine",
            "st=1",
        ],
        vec!["-frobnicate"],
        vec![
            "-variant",
            "chess",
            "-engine",
            "builtin=random",
            "-engine",
            "name=b",
            "builtin=random",
        ],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    let o = run(&["-help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("-engine"));
    let o = run(&["-version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        format!("tournament {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Plays the fake engine (with `fake_args`) against the random built-in.
fn fake_match(
    name: &str,
    fake_args: &str,
    games: &str,
    extra: &[&str],
) -> (Output, Vec<(u64, String, String, String)>) {
    let dir = common::scratch("test", name);
    let res = dir.join("r.jsonl");
    let fake_args = format!("args={fake_args}");
    let mut args = vec![
        "-engine",
        "name=fake",
        "cmd",
        "st=0.05",
        "timemargin=100",
        "inittimeout=1",
        fake_args.as_str(),
        "-engine",
        "builtin=random",
        "-games",
        games,
        "-results",
        res.to_str().unwrap(),
    ];
    let cmd = format!("cmd={FAKE}");
    args[2] = cmd.as_str();
    args.extend_from_slice(extra);
    let o = run(&args);
    (o, records(&res))
}

#[test]
fn crashing_engine_loses_and_is_restarted_with_recover() {
    let started = Instant::now();
    let (o, recs) = fake_match("crash", "--crash-after 3", "4", &["-recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 4, "crash");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn crash_without_recover_stops_the_run() {
    let (o, recs) = fake_match("crash-stop", "--crash-after 3", "4", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("-recover"));
    assert_eq!(recs.len(), 1);
    assert!(recs[0].2.contains("crash"));
}

#[test]
fn hung_engine_forfeits_on_time() {
    let started = Instant::now();
    let (o, recs) = fake_match("hang", "--hang-after 2", "3", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 3, "time forfeit");
    // Each hang costs one deadline (50 ms + 100 ms margin), not a blocking read.
    assert!(started.elapsed() < Duration::from_secs(15));
}

/// Issue item 11: an engine started through a wrapper script is a shell whose child is
/// the program; killing only the shell left the child running (a `sleep` here; a
/// searching engine spins a core). Every engine runs in a process group of its own and
/// the whole group is killed: after a handshake that never finishes, and after a game
/// whose engine hung, no child of the wrapper survives the run.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_wrapper_scripts_children_are_killed_too() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::scratch("test", "wrapper");
    let pids = dir.join("children.pid");
    // The child appends its own pid ($$ of the inner shell, which exec keeps).
    let child = |program: &str| {
        format!(
            "sh -c 'echo $$ >> \"$0\"; exec {program}' '{}'\n",
            pids.display()
        )
    };
    let cases = [
        ("hang.sh", child("sleep 100"), "inittimeout=1", 1),
        (
            "fake.sh",
            child(&format!("{FAKE} --hang-after 2")),
            "st=0.05",
            0,
        ),
    ];
    for (name, body, limit, status) in cases {
        let _ = std::fs::remove_file(&pids);
        let script = dir.join(name);
        std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let o = run(&[
            "-engine",
            &format!("cmd={}", script.display()),
            "name=wrapped",
            "depth=1",
            limit,
            "timemargin=100",
            "-engine",
            "builtin=random",
        ]);
        assert_eq!(o.status.code(), Some(status), "{name}: {}", stderr(&o));
        let started = std::fs::read_to_string(&pids).unwrap_or_default();
        assert!(!started.trim().is_empty(), "{name}: no child started");
        for pid in started.lines() {
            let pid: u32 = pid.trim().parse().unwrap();
            assert!(
                common::process_gone(pid),
                "{name}: the wrapper's child {pid} outlived the run"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slow_engine_forfeits_on_time() {
    let (_, recs) = fake_match("slow", "--slow 400", "2", &[]);
    assert_fake_lost_all(&recs, 2, "time forfeit");
}

#[test]
fn illegal_move_loses() {
    let (o, recs) = fake_match("illegal", "--illegal-after 1", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "illegal move");
}

#[test]
fn garbage_output_loses() {
    let (o, recs) = fake_match("garbage", "--garbage-after 0", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "illegal move");
}

#[test]
fn over_long_line_is_one_garbage_line() {
    // 1 MiB of output whose second 64 KiB starts with a legal `bestmove`: read as one
    // line cut at the limit, it is garbage, never a move.
    let (o, recs) = fake_match("long", "--long-line-after 1", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "longer than 65536 bytes");
    let (o, recs) = fake_match(
        "long-text",
        "--text --long-line-after 1",
        "2",
        &["-each", "proto=text"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "longer than 65536 bytes");
}

#[test]
fn failed_new_game_sync_loses() {
    // The engine starts and handshakes (the check before the run passes: it answers
    // `isready` until a new game is announced) but never answers `isready` at a game's
    // start: each game is lost with the reason.
    let (o, recs) = fake_match("handshake", "--no-readyok-in-game", "2", &["-recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "handshake failed: no 'readyok' in time");
}

#[test]
fn engines_that_cannot_start_or_handshake_are_refused_before_the_first_game() {
    // Defect 10 of the new-user report: `cmd=nosuchengine` was found out only in the
    // first game (a forfeit and exit 1; with -recover every game a loss). Every engine
    // is started and handshaken before the schedule begins; a failure refuses the run
    // with one clear line and writes no results.
    for extra in [&[][..], &["-recover"][..]] {
        let dir = common::scratch("test", "nosuchengine");
        let (res, pgn) = (dir.join("r.jsonl"), dir.join("g.pgn"));
        let o = run(&[
            &[
                "-engine",
                "cmd=nosuchengine-tournament-test",
                "st=0.1",
                "-engine",
                "builtin=random",
                "-games",
                "4",
                "-results",
                res.to_str().unwrap(),
                "-pgnout",
                pgn.to_str().unwrap(),
            ][..],
            extra,
        ]
        .concat());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("nosuchengine-tournament-test") && err.contains("could not start"),
            "{err}"
        );
        assert!(!res.exists() && !pgn.exists(), "files written: {extra:?}");
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    // A program that starts but never finishes its handshake: refused too (exit 1, a
    // failing engine), nothing written.
    let (o, recs) = fake_match("no-handshake", "--no-handshake", "2", &["-recover"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_contains(&stderr(&o), "handshake failed");
    assert!(recs.is_empty(), "{recs:?}");
}

#[test]
fn text_engine_meets_uai_engine_with_openings() {
    let dir = common::scratch("test", "text");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# openings\na7-b6 g7-f6\nblock c3 f2\n\nblock b2 block d4 a7-a6 g7e5\n",
    )
    .unwrap();
    let res = dir.join("r.jsonl");
    let o = run(&[
        "-engine",
        &format!("cmd={FAKE}"),
        "name=text",
        "proto=text",
        "args=--text --prompt",
        "st=0.5",
        "-engine",
        &format!("cmd={FAKE}"),
        "name=uai",
        "st=0.5",
        "-games",
        "2",
        "-rounds",
        "3",
        "-repeat",
        "-openings",
        &format!("file={}", book.display()),
        "-results",
        res.to_str().unwrap(),
        "-concurrency",
        "2",
        "-rules",
        "text",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 6);
    // Games end by the rules, never by a fault.
    assert_rule_endings(&recs, "25 consecutive jumps");
}

/// Issue 25 item 2: text and UAI engines end Ataxx games by different rules (25
/// consecutive jumps against 100 plies), so a run that mixes them is refused with one
/// line unless `-rules` names the judge; the results record which rules judged. In
/// Reversi, whose rule sets agree, nothing needs naming.
#[test]
fn mixed_rules_must_be_named() {
    let dir = common::scratch("test", "mixed-rules");
    let res = dir.join("r.jsonl");
    let args = |rules: &[&'static str]| {
        let mut a: Vec<String> = [
            "-engine",
            &format!("cmd={FAKE}"),
            "name=text",
            "proto=text",
            "args=--text",
            "st=1",
            "-engine",
            &format!("cmd={FAKE}"),
            "name=uai",
            "st=1",
            "-results",
            res.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(rules.iter().map(|s| s.to_string()));
        a
    };
    let o = run_strings(&args(&[]));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains(&err, "-rules text or -rules engine");
    assert!(!res.exists());
    for (rules, name) in [("text", "text"), ("engine", "engine"), ("uai", "engine")] {
        let _ = std::fs::remove_file(&res);
        let o = run_strings(&args(&["-rules", rules]));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&res).unwrap();
        assert_contains(&text, &format!("\"rules\":\"{name}\""));
    }
    // Two UAI engines need no naming, and are judged by their own rules.
    let _ = std::fs::remove_file(&res);
    let o = run(&[
        "-engine",
        &format!("cmd={FAKE}"),
        "st=1",
        "-engine",
        "builtin=random",
        "-results",
        res.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&res)
        .unwrap()
        .contains("\"rules\":\"engine\""));
}

/// Issue 26 item 4: the 2008 edition's rules were invisible to the runner (one shared
/// text rule set stood for both editions). On a board where every move is a jump (each
/// playable square is ringed by blocks, so nothing is ever captured), the same opening
/// between UAI players ends after 100 plies by their own rules, 25 jumps with `-rules
/// text` and 45 with `-rules 2008`; the results and the PGN name the rules that judged.
#[test]
fn the_2008_rules_end_games_after_45_consecutive_jumps() {
    let dir = common::scratch("test", "rules-2008");
    let book = dir.join("jumps.txt");
    std::fs::write(
        &book,
        "x-1-1-1/-------/1-1-1-1/-------/1-1-1-1/-------/1-1-1-o x 0 1\n",
    )
    .unwrap();
    for (rules, reason, name, plies) in [
        (None, "100-ply rule 1-1", "engine", 100),
        (Some("text"), "25 consecutive jumps 1-1", "text", 25),
        (Some("2008"), "45 consecutive jumps 1-1", "2008", 45),
    ] {
        let (res, pgn) = (
            dir.join(format!("{name}.jsonl")),
            dir.join(format!("{name}.pgn")),
        );
        let mut args = vec![
            "-engine".to_string(),
            format!("cmd={FAKE}"),
            "name=uai".into(),
            "st=1".into(),
            "-engine".into(),
            "builtin=random".into(),
            "-games".into(),
            "2".into(),
            "-openings".into(),
            format!("file={}", book.display()),
            "-results".into(),
            res.display().to_string(),
            "-pgnout".into(),
            pgn.display().to_string(),
        ];
        if let Some(r) = rules {
            args.extend(["-rules".to_string(), r.to_string()]);
        }
        let o = run_strings(&args);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let lines = results_json(&res);
        assert_eq!(lines.len(), 2, "{name}");
        for g in &lines {
            assert_eq!(g["reason"], reason, "{g}");
            assert_eq!(g["ending"], "rules", "{g}");
            assert_eq!(g["rules"], name, "{g}");
            assert_eq!(g["moves"].as_array().unwrap().len(), plies, "{g}");
        }
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(
            text.matches(&format!("[Rules \"{name}\"]")).count(),
            2,
            "{text}"
        );
    }
}

/// Issue 26 item 4: the 2008 text dialect (`ataxx --edition 2008`) is driven as a text
/// engine when `-rules 2008` judges: its set-up (`clear`, `seed`, `blocks 3gh`-style
/// configurations, set-up moves, `color`, `dump`, `start`) is the 2008 edition's, and
/// games against a UAI engine end by the rules. An opening the 2008 block notation
/// cannot write (a block on the centre) is refused before the run.
#[test]
fn the_2008_text_dialect_plays_as_a_text_engine() {
    let ataxx = engine_binary("ataxx");
    let dir = common::scratch("test", "text-2008");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "block c3 a7-b6 g7-f6\nblock b2 block a4 a7-a6 g7e5\n",
    )
    .unwrap();
    let res = dir.join("r.jsonl");
    let args = |book: &Path| {
        vec![
            "-engine".to_string(),
            format!("cmd={}", ataxx.display()),
            "name=t2008".into(),
            "proto=text".into(),
            "args=--edition 2008".into(),
            "st=5".into(),
            "-engine".into(),
            format!("cmd={FAKE}"),
            "name=uai".into(),
            "st=1".into(),
            "-games".into(),
            "2".into(),
            "-repeat".into(),
            "-openings".into(),
            format!("file={}", book.display()),
            "-results".into(),
            res.display().to_string(),
            "-rules".into(),
            "2008".into(),
        ]
    };
    let o = run_strings(&args(&book));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_rule_endings(&recs, "45 consecutive jumps");
    let text = std::fs::read_to_string(&res).unwrap();
    assert_eq!(text.matches("\"rules\":\"2008\"").count(), 2, "{text}");
    // The centre cannot be blocked in the 2008 notation: refused, one line, nothing played.
    let centre = dir.join("centre.txt");
    std::fs::write(&centre, "block d4 a7-b6\n").unwrap();
    let _ = std::fs::remove_file(&res);
    let o = run_strings(&args(&centre));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains(&err, "2008 block notation");
    assert!(!res.exists());
}

/// Issue 52: the 2022 edition plays by the 2016 rules (there is no rule set of its own),
/// yet `-rules 2022` still drives text engines in its dialect (`ataxx --edition 2022`,
/// whose set-up is `new`, `seed`, `auto`) and the records name the judge `2022`.
#[test]
fn the_2022_edition_is_judged_and_recorded_by_its_own_name() {
    let ataxx = engine_binary("ataxx");
    let dir = common::scratch("test", "text-2022");
    let res = dir.join("r.jsonl");
    let o = run_strings(&[
        "-engine".to_string(),
        format!("cmd={}", ataxx.display()),
        "name=t2022".into(),
        "proto=text".into(),
        "args=--edition 2022".into(),
        "st=5".into(),
        "-engine".into(),
        format!("cmd={FAKE}"),
        "name=uai".into(),
        "st=1".into(),
        "-games".into(),
        "2".into(),
        "-results".into(),
        res.display().to_string(),
        "-rules".into(),
        "2022".into(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_rule_endings(&recs, "25 consecutive jumps");
    let text = std::fs::read_to_string(&res).unwrap();
    assert_eq!(text.matches("\"rules\":\"2022\"").count(), 2, "{text}");
}

/// A Reversi opening `plies` moves deep (no passes), from seeded random play, in
/// protocol notation: games from it end within a few moves.
fn deep_reversi_opening(plies: usize, seed: u64) -> String {
    use engine::game::Notation;
    use engine::games::reversi::position::Position;
    let mut rng = engine::rng::SplitMix64::new(seed);
    'again: loop {
        let mut pos = Position::startpos();
        let mut line = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            let Some(&mv) = rng.choose(&legal).filter(|m| !m.is_pass()) else {
                continue 'again;
            };
            line.push(pos.move_name(mv));
            pos.make_move(mv);
        }
        if pos.legal_moves().iter().any(|m| m.is_pass()) {
            continue;
        }
        return line.join(" ");
    }
}

/// Issue 25 item 1: when the other engine played the last move, the Reversi text
/// engine was never told it, refused the next game's `clear` and every set-up line
/// (`error: clear is refused while a game is in progress`), and the runner, ignoring
/// the errors, scored it a time forfeit 5 s later. Now it is sent the last move, and
/// every game ends on the board.
#[test]
fn text_engine_is_told_the_move_that_ended_the_game() {
    let reversi = engine_binary("reversi");
    let dir = common::scratch("test", "reversi-text-end");
    let book = dir.join("book.txt");
    // 48 plies: 12 empties, which both sides solve at once.
    std::fs::write(&book, deep_reversi_opening(48, 5) + "\n").unwrap();
    let res = dir.join("r.jsonl");
    let o = run(&[
        "-variant",
        "reversi",
        "-engine",
        &format!("cmd={}", reversi.display()),
        "name=txt",
        "proto=text",
        "st=5",
        "-engine",
        &format!("cmd={}", reversi.display()),
        "name=ugi",
        "proto=ugi",
        "nodes=2000",
        "-games",
        "4",
        "-openings",
        &format!("file={}", book.display()),
        "-results",
        res.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = results_json(&res);
    assert_eq!(lines.len(), 4);
    let mut ugi_ended_one = false;
    for (k, g) in lines.iter().enumerate() {
        assert_eq!(g["ending"], "rules", "{g}");
        let plies = g["moves"].as_array().unwrap().len();
        let last_mover = &g["players"][(plies + 1) % 2];
        ugi_ended_one |= k < 3 && last_mover == "ugi";
    }
    // The case of the issue happened: the text engine had a game after one that the
    // UGI engine ended.
    assert!(ugi_ended_one, "{lines:?}");
}

/// Issue 25 item 1: a set-up command the text engine refuses (here every `clear`, so
/// the second game) loses that game as what it is, `set-up refused: <its error line>`,
/// at once and never as a time forfeit; like other faults of the process it stops
/// the run unless `-recover` (which starts the program afresh) is given.
#[test]
fn refused_set_up_loses_the_game_as_such() {
    let dir = common::scratch("test", "setup-refused");
    let res = dir.join("r.jsonl");
    for recover in [false, true] {
        let _ = std::fs::remove_file(&res);
        let started = Instant::now();
        let mut args = vec![
            "-engine".to_string(),
            format!("cmd={FAKE}"),
            "name=fake".into(),
            "proto=text".into(),
            "args=--text --refuse clear".into(),
            "st=5".into(),
            "-engine".into(),
            "builtin=random".into(),
            "-games".into(),
            "3".into(),
            "-results".into(),
            res.to_str().unwrap().into(),
        ];
        if recover {
            args.push("-recover".into());
        }
        let o = run_strings(&args);
        // Far below the 5 s a time forfeit would have waited.
        assert!(started.elapsed() < Duration::from_secs(4), "{}", stderr(&o));
        let recs = records(&res);
        let (_, result, reason, first) = &recs[1];
        assert_eq!((first.as_str(), result.as_str()), ("random", "1-0"));
        assert_eq!(
            reason, "fake set-up refused: error: clear is refused",
            "{recs:?}"
        );
        let text = std::fs::read_to_string(&res).unwrap();
        assert_contains(&text, "\"ending\":\"set-up refused\"");
        if recover {
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert_eq!(recs.len(), 3, "{recs:?}");
            assert!(!recs[2].2.contains("refused"), "{recs:?}");
        } else {
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            assert_eq!(recs.len(), 2, "{recs:?}");
            assert_contains(&stderr(&o), "set-up refused");
        }
    }
}

#[test]
fn fen_openings_are_refused_for_text_engines() {
    let dir = common::scratch("test", "fen");
    let book = dir.join("book.txt");
    std::fs::write(&book, "x5o/7/7/7/7/7/o5x o 0 1\n").unwrap();
    let o = run(&[
        "-engine",
        &format!("cmd={FAKE}"),
        "proto=text",
        "args=--text",
        "st=1",
        "-engine",
        "builtin=random",
        "-openings",
        &format!("file={}", book.display()),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// A run slow enough to interrupt: 16 games, two at once, of a fake engine that takes
/// 5 ms a move against the greedy built-in, recorded in `res`.
fn slow_run_args(res: &Path) -> Vec<String> {
    let mut args = common::slow_match();
    args.extend(["-concurrency", "2", "-results", res.to_str().unwrap()].map(String::from));
    args
}

#[test]
fn killed_run_resumes_without_losing_or_repeating_games() {
    let dir = common::scratch("test", "resume");
    let res = dir.join("r.jsonl");
    let pgn = dir.join("g.pgn");
    let mut args = slow_run_args(&res);
    args.extend(["-pgnout".to_string(), pgn.to_str().unwrap().to_string()]);
    let mut child = Command::new(TOURNAMENT)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while records(&res).len() < 3 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = records(&res).len();
    assert!((3..16).contains(&before), "{before} games before the kill");

    // Without -resume, an existing results file is refused rather than overwritten.
    let o = run_strings(&args);
    assert_eq!(o.status.code(), Some(2));

    let mut resumed = args.clone();
    resumed.push("-resume".into());
    let o = run_strings(&resumed);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming"));
    let recs = records(&res);
    let ids: Vec<u64> = recs.iter().map(|r| r.0).collect();
    let unique: HashSet<u64> = ids.iter().copied().collect();
    assert_eq!(ids.len(), 16, "{ids:?}");
    assert_eq!(unique, (0..16).collect());
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Event ").count(), 16);
    // The final statistics cover every game once.
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("Score of")).unwrap();
    let total: u64 = line
        .split(':')
        .nth(1)
        .unwrap()
        .split('[')
        .next()
        .unwrap()
        .split('-')
        .map(|n| n.trim().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 16, "{line}");

    // Resuming a finished run plays nothing more.
    let o = run_strings(&resumed);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(records(&res).len(), 16);
}

/// Issue 25 item 5: Ctrl-C (SIGINT to the terminal's whole process group, engines
/// included) prints the standings so far and an `interrupted` line, exits with 130,
/// records no game it cut short (no crash of an engine the signal reached), and
/// `-resume` plays exactly the rest.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_standings_and_resume_continues() {
    use std::os::unix::process::CommandExt;
    let dir = common::scratch("test", "sigint");
    let res = dir.join("r.jsonl");
    let mut args = slow_run_args(&res);
    args.push("-report".to_string());
    // A process group of its own, as a shell gives a foreground job: the signal goes
    // to the group, as the terminal's Ctrl-C does.
    let child = Command::new(TOURNAMENT)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let started = Instant::now();
    while records(&res).len() < 2 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let group = format!("-{}", child.id());
    let status = Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    assert!(status.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let recs = records(&res);
    assert!((2..16).contains(&recs.len()), "{recs:?}");
    for (id, _, reason, _) in &recs {
        assert!(!reason.contains("crash"), "game {id}: {reason}");
    }
    let err = stderr(&o);
    assert_contains(
        &err,
        &format!("interrupted: {} of 16 games played", recs.len()),
    );
    let out = stdout(&o);
    assert_contains(&out, "Score of fake vs greedy: ");
    assert_contains(
        &out,
        &format!("Finished match: {} of 16 games, interrupted", recs.len()),
    );
    let mut resumed = args.clone();
    resumed.push("-resume".into());
    let o = run_strings(&resumed);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = records(&res);
    assert_eq!(&after[..recs.len()], &recs[..]);
    let ids: HashSet<u64> = after.iter().map(|r| r.0).collect();
    assert_eq!((after.len(), ids), (16, (0..16).collect()));
}

/// Issue 25 item 3: engines limited only by nodes replay a game move for move when
/// the schedule gives them an opening again in the same colours (an SPRT counted 153
/// such pairs in 473 games). Such a run is refused with one line unless the user
/// allows it (`-openings … replays=allow`), and the report then says how many games
/// were distinct, counted from the games themselves.
#[test]
fn deterministic_replays_are_refused_or_counted() {
    let ataxx = engine_binary("ataxx");
    let cmd = format!("cmd={}", ataxx.display());
    let dir = common::scratch("test", "replays");
    let book = dir.join("book.txt");
    std::fs::write(&book, "a7-b6 g7-f6\nf2 b2\n").unwrap();
    let play = |limit: &str, openings: &str| {
        run(&[
            "-engine",
            &cmd,
            "name=a",
            "-engine",
            &cmd,
            "name=b",
            "option.Aspiration=0",
            "-each",
            limit,
            "-games",
            "2",
            "-rounds",
            "3",
            "-repeat",
            "-openings",
            &format!("file={}", book.display()),
            openings,
        ])
    };
    // Round 3 takes opening 1 again: its two games replay round 1's.
    let o = play("nodes=300", "order=sequential");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains(&err, "2 of 6 games would replay");
    assert_contains(&err, "replays=allow");
    let o = play("nodes=300", "replays=allow");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(
        &out,
        "Distinct games: 4 of 6 (2 replay an earlier game move for move)\n",
    );
    // A fixed time per move makes the games depend on the machine: nothing to refuse.
    let o = play("st=0.01", "order=sequential");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn sprt_stops_early_with_h1() {
    let dir = common::scratch("test", "sprt");
    let res = dir.join("r.jsonl");
    let o = run(&[
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-rounds",
        "500",
        "-repeat",
        "-sprt",
        "elo0=0",
        "elo1=20",
        "alpha=0.05",
        "beta=0.05",
        "-results",
        res.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "H1 accepted");
    assert_contains(&out, "LLR");
    let n = records(&res).len();
    assert!(n < 1000, "{n} games: the SPRT did not stop the run");
}

#[test]
fn clock_runs_out_under_a_time_control() {
    // 30 ms per move against a 0.3 s clock with no increment: the clock, not a single
    // move's deadline, ends the game after about ten moves.
    let dir = common::scratch("test", "clock");
    let res = dir.join("r.jsonl");
    let o = run(&[
        "-engine",
        &format!("cmd={FAKE}"),
        "name=fake",
        "args=--slow 30",
        "tc=0.3",
        "timemargin=20",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-results",
        res.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_fake_lost_all(&recs, 2, "time forfeit");
    let text = std::fs::read_to_string(&res).unwrap();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let plies = v["plies"].as_u64().unwrap();
        assert!((10..40).contains(&plies), "{plies} plies");
    }
}

#[test]
fn real_engine_over_ugi_and_uai() {
    // Our engine over UGI and over UAI, each on a clock (so `go` carries both sides'
    // clocks: all four words) and a node budget (so the games stay short), plus the
    // random built-in: every game ends by the rules, none by a fault.
    let ataxx = engine_binary("ataxx");
    let dir = common::scratch("test", "ugi");
    let res = dir.join("r.jsonl");
    let cmd = format!("cmd={}", ataxx.display());
    let o = Command::new(TOURNAMENT)
        .args([
            "-variant",
            "ataxx",
            "-engine",
            &cmd,
            "name=ugi",
            "proto=ugi",
            "-engine",
            &cmd,
            "name=uai",
            "proto=uai",
            "-engine",
            "builtin=random",
            "-each",
            "tc=30+0.1",
            "nodes=2000",
            "-games",
            "2",
            "-results",
            res.to_str().unwrap(),
        ])
        .env("RUST_LOG", "tournament::engines::process=trace")
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 6, "{recs:?}");
    assert_rule_endings(&recs, "100-ply rule");
    let log = stderr(&o);
    for want in [">> ugi", ">> uginewgame", ">> uai", ">> uainewgame"] {
        assert!(log.lines().any(|l| l.ends_with(want)), "no '{want}' sent");
    }
    let go = |first: &str| {
        log.lines()
            .filter_map(|l| l.split(">> ").nth(1))
            .filter(|l| l.starts_with(first))
            .count()
    };
    assert!(go("go p1time ") > 0 && go("go btime ") > 0, "{log}");
    let both_clocks = log
        .lines()
        .filter_map(|l| l.split(">> ").nth(1))
        .find(|l| l.starts_with("go p1time ") && l.contains(" p2time "))
        .expect("a UGI go with both clocks (the game against the UAI engine)");
    let words: Vec<&str> = both_clocks.split_whitespace().collect();
    for w in ["p1time", "p2time", "p1inc", "p2inc", "nodes"] {
        assert!(words.contains(&w), "{both_clocks}");
    }
}

#[test]
fn engine_on_a_clock_against_one_without_gets_its_time() {
    // Defect 1 of the new-user report: an engine with a clock playing an opponent
    // without one (a built-in player) was sent a bare `go` and, searching without a
    // limit, lost every game on time. It must get its own clock and play on the board.
    let ataxx = engine_binary("ataxx");
    let dir = common::scratch("test", "clock-vs-builtin");
    let res = dir.join("r.jsonl");
    let o = Command::new(TOURNAMENT)
        .args([
            "-engine",
            &format!("cmd={}", ataxx.display()),
            "proto=uai",
            "tc=2+0.05",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-results",
            res.to_str().unwrap(),
        ])
        .env("RUST_LOG", "tournament::engines::process=trace")
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 2, "{recs:?}");
    for (_, result, reason, first) in &recs {
        assert!(!reason.contains("time forfeit"), "{reason}");
        let ataxx_won = (first == "ataxx") == (result == "1-0");
        assert!(ataxx_won, "{result} {reason}");
    }
    let log = stderr(&o);
    let gos: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split(">> ").nth(1))
        .filter(|l| l.starts_with("go"))
        .collect();
    assert!(!gos.is_empty(), "{log}");
    for go in gos {
        assert!(
            go.contains("time ") && go.contains("inc 50"),
            "a go without the engine's clock: {go}"
        );
    }
}

#[test]
fn end_reasons_reach_the_console() {
    // Defect 8 of the new-user report: the progress lines and the report said `0-1`
    // but never why. Each finished game's progress line names its end reason, and the
    // report counts the games that did not end on the board, by reason and loser.
    let (o, recs) = fake_match("reasons", "--hang-after 2", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "time forfeit");
    let progress: Vec<String> = stderr(&o)
        .lines()
        .filter(|l| l.starts_with('['))
        .map(String::from)
        .collect();
    assert_eq!(progress.len(), 2, "{progress:?}");
    for line in &progress {
        assert_contains(line, "fake time forfeit");
    }
    let out = stdout(&o);
    assert_contains(
        &out,
        "Endings other than by the rules: 2 time forfeit (fake 2)",
    );
    let (o, _) = fake_match("reasons-illegal", "--illegal-after 1", "1", &[]);
    assert_contains(&stderr(&o), "fake illegal move '");
    assert_contains(
        &stdout(&o),
        "Endings other than by the rules: 1 illegal move (fake 1)",
    );
}

#[test]
fn unknown_or_rejected_options_refuse_the_run() {
    // Defect 9 of the new-user report: `option.Hsh=16` ran on defaults, and the
    // engine's `info string error` answer to a bad value was dropped. An option the
    // engine does not declare, or one it answers with an error, stops the run before
    // the first game with a line naming it; nothing is written.
    let ataxx = engine_binary("ataxx");
    let cmd = format!("cmd={}", ataxx.display());
    let dir = common::scratch("test", "options");
    let res = dir.join("r.jsonl");
    let game = |opts: &[&str]| {
        let mut args = vec!["-engine", cmd.as_str(), "nodes=500"];
        args.extend_from_slice(opts);
        args.extend_from_slice(&[
            "-engine",
            "builtin=random",
            "-results",
            res.to_str().unwrap(),
        ]);
        run(&args)
    };
    for (opts, want) in [
        (&["option.Hsh=16"][..], "'Hsh'"),
        (&["option.Hash=lots"][..], "Hash=lots"),
        (&["option.Hash=8", "option.LMR=7"][..], "LMR=7"),
        (&["proto=ugi", "option.Threads=65"][..], "Threads=65"),
    ] {
        let o = game(opts);
        assert_eq!(o.status.code(), Some(2), "{opts:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("option") && err.contains(want),
            "{opts:?}: {err}"
        );
        assert!(!res.exists(), "{opts:?}: a results file was written");
    }
    // Declared options with good values (names match case-insensitively, as the
    // engine reads them) play.
    let o = game(&["option.hash=8", "option.LMR=0"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(records(&res).len(), 1);
    // Text engines and built-in players take no options.
    for engine in [
        vec![cmd.as_str(), "proto=text", "st=5", "option.Hash=8"],
        vec!["builtin=greedy", "option.Hash=8"],
    ] {
        let mut args = vec!["-engine"];
        args.extend(engine);
        args.extend(["-engine", "builtin=random"]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_contains(&stderr(&o), "no options");
    }
}

#[test]
fn pgnout_with_min_writes_the_named_file_in_minimal_form() {
    // Defect 11: `-pgnout games.pgn min` (cutechess) wrote to a file named `min`.
    let dir = common::scratch("test", "pgn-min");
    let o = Command::new(TOURNAMENT)
        .args([
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-pgnout",
            "games.pgn",
            "min",
        ])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.join("min").exists(), "wrote to a file named 'min'");
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    // Minimal: the seven-tag roster and what a reader needs (the game), no comments.
    let games = tournament::game::pgn::read_one_line(&text).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        let keys: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant"]
        );
    }
    assert!(!text.contains('{'), "{text}");
    // fastchess's form.
    let o = Command::new(TOURNAMENT)
        .args([
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-pgnout",
            "file=fast.pgn",
            "min=true",
        ])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("fast.pgn")).unwrap();
    assert!(
        !text.contains('{') && !text.contains("[Termination"),
        "{text}"
    );
}

#[test]
fn epd_and_pgn_opening_books() {
    // Defect 11: PGN books failed with `illegal opening move '[Event'`, EPD lines with
    // opcodes with `bad FEN: extra fields`, and format=/plies=/policy= were ignored.
    let dir = common::scratch("test", "books");
    let epd = dir.join("book.epd");
    std::fs::write(
        &epd,
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 id \"blocks\"; c0 \"a comment\";\n\
         x5o/7/7/3x3/7/7/o5x o hmvc 0; fmvn 1;\n",
    )
    .unwrap();
    let pgn = dir.join("book.pgn");
    std::fs::write(
        &pgn,
        "[Event \"book\"]\n[Variant \"ataxx\"]\n\n1. f2 {our notation} g6 (1... a1a3) 2. b6 $1 a7c5 1/2-1/2\n\n\
         [Event \"book\"]\n[SetUp \"1\"]\n[FEN \"x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1\"]\n\n\
         1. g1-f2 a1-b2 2. f2-d4 * \n",
    )
    .unwrap();
    let res = dir.join("r.jsonl");
    let play = |book: &Path, extra: &[&str]| {
        let _ = std::fs::remove_file(&res);
        let mut args = vec![
            "-engine".to_string(),
            "builtin=greedy".into(),
            "-engine".into(),
            "builtin=random".into(),
            "-games".into(),
            "2".into(),
            "-rounds".into(),
            "2".into(),
            "-repeat".into(),
            "-results".into(),
            res.to_str().unwrap().into(),
            "-openings".into(),
            format!("file={}", book.display()),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = run_strings(&args);
        let fens: Vec<String> = std::fs::read_to_string(&res)
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["fen"].as_str().unwrap().to_string()
            })
            .collect();
        (o, fens)
    };
    let (o, fens) = play(&epd, &["format=epd"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        fens,
        [
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "x5o/7/7/3x3/7/7/o5x o 0 1",
            "x5o/7/7/3x3/7/7/o5x o 0 1"
        ]
    );
    // The format follows the file's extension when format= is not given.
    assert_eq!(play(&epd, &[]).1, fens);
    let (o, fens) = play(&pgn, &["format=pgn", "plies=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Game 1 cut at 3 plies (f2 g6 b6), game 2 from its FEN, all three of its moves.
    assert_eq!(fens[0], "x5o/1x4o/7/7/7/5x1/o5x o 0 2");
    assert_eq!(fens[2], "x5o/7/2-1-2/3x3/2-1-2/1o5/o5x o 1 2");
    assert_eq!(fens[0], fens[1]);
    // Unsupported words are refused, not ignored.
    for bad in [
        &["format=bin"][..],
        &["policy=random"][..],
        &["plies=x"][..],
        &["book=yes"][..],
        &["format=epd", "plies=2"][..],
    ] {
        let (o, _) = play(&pgn, bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn log_and_debug_record_engine_traffic_and_stderr() {
    // -log file=F: every line sent to and read from each engine, and its stderr, with
    // a timestamp and the engine's name; -debug: the same on stderr.
    let dir = common::scratch("test", "log");
    let log = dir.join("engines.log");
    let (o, recs) = fake_match(
        "log",
        "--seed 7",
        "2",
        &["-log", &format!("file={}", log.display())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(recs.len(), 2);
    let text = std::fs::read_to_string(&log).unwrap();
    let has = |tag: &str, mark: &str, start: &str| {
        text.lines().any(|l| {
            let (stamp, rest) = l.split_once("] ").unwrap();
            let stamp_ok = stamp.starts_with('[') && stamp[1..].trim().parse::<f64>().is_ok();
            stamp_ok && rest.starts_with(&format!("{tag} {mark} {start}"))
        })
    };
    // #0 is the check before the run, #1 the worker that played.
    for tag in ["fake#0", "fake#1"] {
        assert!(has(tag, "*", "started (pid "), "{tag}: {text}");
        assert!(has(tag, ">", "uai"), "{tag}: {text}");
        assert!(has(tag, "<", "uaiok"), "{tag}: {text}");
        assert!(
            has(tag, "!", "fake-engine: started, seed 7"),
            "{tag}: {text}"
        );
    }
    assert!(has("fake#1", ">", "go movetime 50"), "{text}");
    assert!(has("fake#1", "<", "bestmove "), "{text}");
    assert!(has("fake#1", ">", "quit"), "{text}");
    assert!(
        !stderr(&o).contains("fake#1 >"),
        "-log alone keeps stderr clean"
    );
    // -debug: the same lines on stderr.
    let (o, _) = fake_match("debug", "", "1", &["-debug"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_contains(&err, "] fake#1 > go movetime 50");
    assert_contains(&err, "] fake#1 ! fake-engine: started");
}

/// Two fake engines, `a` and `b`, with their own arguments, two games.
fn two_fakes(name: &str, a: &str, b: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let dir = common::scratch("test", name);
    let res = dir.join("r.jsonl");
    let cmd = format!("cmd={FAKE}");
    let (a, b) = (format!("args={a}"), format!("args={b}"));
    let mut args = vec![
        "-engine", &cmd, "name=a", &a, "-engine", &cmd, "name=b", &b, "-each", "st=1", "-games",
        "2", "-results",
    ];
    let res_arg = res.to_str().unwrap().to_string();
    args.push(&res_arg);
    args.extend_from_slice(extra);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    results_json(&res)
}

#[test]
fn score_based_draw_and_resign_adjudication() {
    // -draw movenumber=3 movecount=2 score=10: both engines report 0 for 4 plies in a
    // row and 3 full moves are played: a draw after the 6th ply.
    let games = two_fakes(
        "adj-draw",
        "--seed 1",
        "--seed 2",
        &["-draw", "movenumber=3", "movecount=2", "score=10"],
    );
    for g in &games {
        assert_eq!(g["result"], "1/2-1/2", "{g}");
        assert_eq!(g["ending"], "adjudication", "{g}");
        assert_eq!(g["plies"], 6, "{g}");
        assert!(g["reason"].as_str().unwrap().contains("draw"), "{g}");
    }
    // -resign movecount=3 score=400: `a` reports -500 after each of its moves, so it
    // resigns after its third: ply 5 when it moves first, ply 6 when second. With
    // twosided=true `b` (reporting +500) must have made three moves too: ply 7 when `a`
    // moves first (after `a`'s fourth move), still ply 6 when second.
    for (twosided, plies_first) in [("false", 5), ("true", 7)] {
        let games = two_fakes(
            &format!("adj-resign-{twosided}"),
            "--score -500",
            "--score 500",
            &[
                "-resign",
                "movecount=3",
                "score=400",
                &format!("twosided={twosided}"),
            ],
        );
        for g in &games {
            let a_first = g["players"][0] == "a";
            assert_eq!(g["result"], if a_first { "0-1" } else { "1-0" }, "{g}");
            assert_eq!(g["ending"], "adjudication", "{g}");
            assert_eq!(g["plies"], if a_first { plies_first } else { 6 }, "{g}");
            assert!(g["reason"].as_str().unwrap().contains("a resigns"), "{g}");
        }
    }
    // twosided=true: the winner's score must agree (here it says 0): no resignation.
    let games = two_fakes(
        "adj-twosided",
        "--score -500",
        "--score 0",
        &[
            "-resign",
            "movecount=3",
            "score=400",
            "twosided=true",
            "-maxmoves",
            "10",
        ],
    );
    for g in &games {
        assert!(!g["reason"].as_str().unwrap().contains("resign"), "{g}");
    }
    // One-sided, the loser's own score is enough.
    let games = two_fakes(
        "adj-onesided",
        "--score -500",
        "--score 0",
        &["-resign", "movecount=3", "score=400"],
    );
    assert!(games
        .iter()
        .all(|g| g["reason"].as_str().unwrap().contains("a resigns")));
}

#[test]
fn report_ends_with_a_summary() {
    // -report: the table even for two engines, every ending counted, and a closing
    // line, cutechess-cli's "Finished match".
    let (o, recs) = fake_match("report", "--hang-after 4", "2", &["-report"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(recs.len(), 2);
    let out = stdout(&o);
    assert_contains(&out, "Score of fake vs random");
    assert!(out.contains("Rank ") && out.contains(" fake "), "{out}");
    let endings = out.lines().find(|l| l.starts_with("Endings")).unwrap();
    let forfeits = recs.iter().filter(|r| r.2.contains("time forfeit")).count();
    assert_contains(
        endings,
        &format!("{forfeits} time forfeit (fake {forfeits})"),
    );
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("Finished match: 2 of 2 games, "),
        "{out}"
    );
    // Without -report: no table for two engines, no closing line.
    let (o, _) = fake_match("no-report", "", "1", &[]);
    assert!(!stdout(&o).contains("Rank ") && !stdout(&o).contains("Finished match"));
}

#[test]
fn round_robin_of_uai_text_and_builtin_players() {
    // The new user's run: our `ataxx` over UAI on a clock, our `ataxx` speaking the text
    // language with a fixed time per move, and the random built-in, round robin. No game
    // may end by a fault, and the PGN must read back whole.
    let ataxx = engine_binary("ataxx");
    let cmd = format!("cmd={}", ataxx.display());
    let dir = common::scratch("test", "three-kinds");
    let (res, pgn) = (dir.join("r.jsonl"), dir.join("g.pgn"));
    let o = run(&[
        "-engine",
        &cmd,
        "name=uai",
        "proto=uai",
        "tc=2+0.05",
        "-engine",
        &cmd,
        "name=text",
        "proto=text",
        "st=10",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-concurrency",
        "2",
        "-results",
        res.to_str().unwrap(),
        "-pgnout",
        pgn.to_str().unwrap(),
        "-report",
        "-rules",
        "text",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_eq!(recs.len(), 6, "{recs:?}");
    assert_rule_endings(&recs, "25 consecutive jumps");
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[Rules \"text\"]")
            .count(),
        6
    );
    let out = stdout(&o);
    assert_contains(&out, "Endings: 6 rules\n");
    assert_pgn_reads_back_whole(&pgn, &res);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = tournament::game::pgn::read_one_line(&text).unwrap();
    for g in &games {
        let tc = |player: &str| match player {
            "uai" => "2+0.05",
            "text" => "10/move",
            _ => "-",
        };
        let (black, white) = (g.tag("Black").unwrap(), g.tag("White").unwrap());
        assert_eq!(g.tag("BlackTimeControl"), Some(tc(black)));
        assert_eq!(g.tag("WhiteTimeControl"), Some(tc(white)));
    }
    // The UAI engine's moves carry score/depth and time, the others' time alone.
    assert!(
        text.lines()
            .filter(|l| l.starts_with("1. "))
            .all(|l| l.contains("s}")),
        "{text}"
    );
    let uai_first = text
        .split("\n\n")
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[0].contains("[Black \"uai\"]"))
        .map(|w| w[1].to_string())
        .unwrap();
    let first_comment = uai_first.split('{').nth(1).unwrap();
    assert!(first_comment.contains('/'), "{uai_first}");
}

/// The repository's Reversi book (6 random plies from the start).
fn reversi_book() -> String {
    format!(
        "file={}/openings/reversi-openings.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Every line of the traffic log `log` of engine tag `tag` with mark `mark`, its text.
fn log_lines(log: &Path, tag: &str, mark: char) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let head = format!("{tag} {mark} ");
    text.lines()
        .filter_map(|l| l.split_once("] ").map(|(_, rest)| rest))
        .filter_map(|rest| rest.strip_prefix(&head))
        .map(str::to_string)
        .collect()
}

#[test]
fn nboard_engine_plays_our_ugi_engine() {
    // Our reversi in NBoard mode against itself over UGI, from the book with colours
    // swapped: every game ends on the board, the PGN reads back whole, and the NBoard
    // side was driven as a GUI drives it (depth, GGF game with the clock, timed moves,
    // `go` answered `===`).
    let reversi = engine_binary("reversi");
    let dir = common::scratch("test", "nboard");
    let (res, pgn, log) = (dir.join("r.jsonl"), dir.join("g.pgn"), dir.join("e.log"));
    let cmd = format!("cmd={}", reversi.display());
    let book = reversi_book();
    let o = run(&[
        "-variant",
        "reversi",
        "-engine",
        "name=nb",
        &cmd,
        "args=--nboard",
        "proto=nboard",
        "tc=30+1",
        "depth=3",
        "-engine",
        "name=ugi",
        &cmd,
        "proto=ugi",
        "depth=3",
        "-games",
        "2",
        "-repeat",
        "-openings",
        &book,
        "-results",
        res.to_str().unwrap(),
        "-pgnout",
        pgn.to_str().unwrap(),
        "-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_all_ended_on_the_board(&recs, 2);
    assert_pgn_reads_back_whole(&pgn, &res);
    let sent = log_lines(&log, "nb#1", '>');
    let read = log_lines(&log, "nb#1", '<');
    assert_eq!(sent[0], "nboard 2", "{sent:?}");
    assert!(sent.contains(&"set depth 3".to_string()), "{sent:?}");
    let first = "(;GM[Othello]PC[tournament]TI[0:30/0:01]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[D3]W[E3]B[F5]W[E6]B[F2]W[C4];)";
    assert!(sent.contains(&format!("set game {first}")), "{sent:?}");
    // Moves carry the time their side's clock was charged: the engine's own, after
    // its first move (the other side has no clock).
    assert!(
        sent.iter()
            .any(|l| l.starts_with("move ") && l.contains("//")),
        "{sent:?}"
    );
    assert!(sent.iter().any(|l| l == "go"), "{sent:?}");
    assert!(read.iter().any(|l| l.starts_with("=== ")), "{read:?}");
    assert!(read.iter().any(|l| l.starts_with("pong ")), "{read:?}");
    assert!(!read.iter().any(|l| l.contains("error")), "{read:?}");
}

#[test]
fn nboard_engine_keeps_to_the_clock() {
    // `depth=` left out, so the engine is told `set depth 60` and the clock decides:
    // our reversi reads the GGF clock (with its increment) and the times on the moves,
    // and loses no game on time (it searched to depth 60 and forfeited every game before).
    let reversi = engine_binary("reversi");
    let dir = common::scratch("test", "nboard-clock");
    let (res, log) = (dir.join("r.jsonl"), dir.join("e.log"));
    let cmd = format!("cmd={}", reversi.display());
    let book = reversi_book();
    let o = run(&[
        "-variant",
        "reversi",
        "-engine",
        "name=nb",
        &cmd,
        "args=--nboard",
        "proto=nboard",
        "tc=3+0.1",
        "-engine",
        "name=greedy",
        "builtin=greedy",
        "tc=3+0.1",
        "-games",
        "2",
        "-repeat",
        "-openings",
        &book,
        "-results",
        res.to_str().unwrap(),
        "-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_all_ended_on_the_board(&recs, 2);
    let sent = log_lines(&log, "nb#1", '>');
    assert!(sent.contains(&"set depth 60".to_string()), "{sent:?}");
    assert!(
        sent.iter()
            .any(|l| l.starts_with("set game ") && l.contains("TI[0:03/0:00.1]")),
        "{sent:?}"
    );
}

/// The fake engine in NBoard mode, thinking until it is told anything (as NTest's
/// search stops on input), at `st=0.2` against the random player: two games.
fn nboard_pinged_match(name: &str, fake_args: &str, stop: &[&str]) -> (Output, PathBuf, PathBuf) {
    let dir = common::scratch("test", name);
    let (res, log) = (dir.join("r.jsonl"), dir.join("e.log"));
    let book = reversi_book();
    let fake = format!("cmd={FAKE}");
    let args = format!("args={fake_args}");
    let mut words = vec![
        "-variant",
        "reversi",
        "-engine",
        "name=fake",
        &fake,
        &args,
        "proto=nboard",
        "st=0.2",
        "timemargin=150",
    ];
    words.extend(stop);
    words.extend([
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-openings",
        &book,
        "-recover",
        "-results",
        res.to_str().unwrap(),
        "-log",
        log.to_str().unwrap(),
    ]);
    (run(&words), res, log)
}

#[test]
fn stop_by_ping_makes_an_nboard_engine_move() {
    // `stop=ping`: when `st` runs out the runner sends `ping`, as the NBoard GUI does to
    // make NTest move now; the engine's `===` then comes before its `pong`. Every game
    // ends on the board, every move within its time, a `ping` after every `go`.
    let (o, res, log) = nboard_pinged_match("nboard-ping", "--nboard", &["stop=ping"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_all_ended_on_the_board(&recs, 2);
    let sent = log_lines(&log, "fake#1", '>');
    let read = log_lines(&log, "fake#1", '<');
    let gos = sent.iter().filter(|l| *l == "go").count();
    let answers = read.iter().filter(|l| l.starts_with("=== ")).count();
    assert!(gos >= 10 && answers == gos, "{gos} {answers}: {sent:?}");
    for (i, _) in sent.iter().enumerate().filter(|(_, l)| *l == "go") {
        assert!(
            sent.get(i + 1).is_some_and(|n| n.starts_with("ping ")),
            "no ping after go {i}: {sent:?}"
        );
    }
    // The game record tells the engine its time, TI[0:00.2] (NTest reads whole seconds:
    // the ping is what keeps it to the time).
    assert!(
        sent.iter()
            .any(|l| l.starts_with("set game ") && l.contains("TI[0:00.2]")),
        "{sent:?}"
    );
}

#[test]
fn without_stop_by_ping_a_thinking_nboard_engine_forfeits() {
    // The same engine without `stop=ping`: nothing tells it to move, so it loses on
    // time; one whose search is dropped by `ping` (ours does that) loses as a `pong`
    // without a move.
    // (`depth=` lets a time below a second through, see the refusals above.)
    let (o, res, _) = nboard_pinged_match("nboard-no-ping", "--nboard", &["depth=5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&records(&res), 2, "fake time forfeit");
    let (o, res, _) = nboard_pinged_match(
        "nboard-ping-mute",
        "--nboard --mute-on-ping",
        &["stop=ping"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = records(&res);
    assert_fake_lost_all(&recs, 2, "(stop=ping), it answered 'pong ");
    assert_fake_lost_all(&recs, 2, "' without a move");
}

#[test]
fn an_nboard_engine_needs_a_depth_or_a_clock() {
    // With neither it would be told `set depth 60` and no time (a search of the whole
    // game): refused before any game, as every engine without a limit is.
    let reversi = engine_binary("reversi");
    let cmd = format!("cmd={}", reversi.display());
    let o = run(&[
        "-variant",
        "reversi",
        "-engine",
        &cmd,
        "proto=nboard",
        "-engine",
        "builtin=random",
        "-games",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_contains(&stderr(&o), "needs a limit");
}

/// The fake engine speaking GTP (with `fake_args`) against the random built-in, at
/// Reversi.
fn gtp_fake_match(
    name: &str,
    fake_args: &str,
    games: &str,
    extra: &[&str],
) -> (Output, Vec<(u64, String, String, String)>) {
    let mut all = vec!["-variant", "reversi", "-each", "proto=gtp"];
    all.extend_from_slice(extra);
    fake_match(name, &format!("--gtp {fake_args}"), games, &all)
}

#[test]
fn gtp_engine_plays_by_our_rules_on_a_clock() {
    let dir = common::scratch("test", "gtp-log");
    let log = dir.join("e.log");
    let book = reversi_book();
    let (o, recs) = gtp_fake_match(
        "gtp",
        "--seed 3",
        "4",
        &[
            "-each",
            "tc=20",
            "-openings",
            &book,
            "-log",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_all_ended_on_the_board(&recs, 4);
    let sent = log_lines(&log, "fake#1", '>');
    for line in [
        "boardsize 8",
        "clear_board",
        "play b d3",
        "play w e3",
        "time_settings 20 0 0",
        "genmove b",
        "genmove w",
    ] {
        assert!(sent.iter().any(|l| l == line), "no '{line}' in {sent:?}");
    }
    assert!(
        sent.iter().any(|l| l.starts_with("time_left b "))
            && sent.iter().any(|l| l.starts_with("time_left w ")),
        "{sent:?}"
    );
    let read = log_lines(&log, "fake#1", '<');
    assert!(!read.iter().any(|l| l.starts_with('?')), "{read:?}");
}

#[test]
fn gtp_engine_faults_lose_as_for_ugi_engines() {
    // st below a second: GTP's whole seconds cannot say it, so no clock commands; the
    // referee's deadline is the clock.
    let (o, recs) = gtp_fake_match("gtp-illegal", "--illegal-after 1", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "fake illegal move '");
    let (o, recs) = gtp_fake_match("gtp-error", "--garbage-after 1", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "unparsable answer: 'genmove ");
    assert!(recs[0].2.contains("answered '? cannot play'"), "{recs:?}");
    let started = Instant::now();
    let (o, recs) = gtp_fake_match("gtp-hang", "--hang-after 2", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "time forfeit");
    assert!(started.elapsed() < Duration::from_secs(15));
    let (o, recs) = gtp_fake_match("gtp-refuse", "--refuse play", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "refused a move in play: 'play ");
    let (o, recs) = gtp_fake_match("gtp-crash", "--crash-after 1", "2", &["-recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "crash");
    // A resignation is no fault: the game ends so, recorded as such.
    let (o, recs) = gtp_fake_match("gtp-resign", "--resign-after 2", "2", &["-report"]);
    // fake_match's results file, in its scratch directory.
    let res = std::env::temp_dir()
        .join(format!("tournament-test-{}-gtp-resign", std::process::id()))
        .join("r.jsonl");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_fake_lost_all(&recs, 2, "fake resigns");
    let text = std::fs::read_to_string(&res).unwrap();
    assert_contains(&text, "\"ending\":\"resignation\"");
    assert_contains(&stdout(&o), "2 resignation");
}

#[test]
fn othello_protocols_refuse_what_they_cannot_play() {
    let book = reversi_book();
    let fen = common::scratch("test", "gtp-fen").join("o.epd");
    std::fs::write(&fen, "8/8/8/3ox3/3xxx2/8/8/8 o\n").unwrap();
    let fen_book = format!("file={}", fen.display());
    let fake = format!("cmd={FAKE}");
    for (words, why) in [
        (
            vec!["-variant", "ataxx", "-engine", "proto=gtp", "st=1"],
            "proto=gtp speaks Othello only; ataxx is not played over it",
        ),
        (
            vec!["-variant", "loa", "-engine", "proto=nboard", "depth=2"],
            "proto=nboard speaks Othello only",
        ),
        (
            vec!["-variant", "reversi", "-engine", "proto=gtp", "depth=2"],
            "has no depth limit",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=nboard",
                "nodes=100",
            ],
            "has no node limit",
        ),
        (
            vec!["-variant", "reversi", "-engine", "proto=nboard", "st=0.5"],
            "a time below 1 s cannot be told",
        ),
        (
            vec!["-variant", "reversi", "-engine", "proto=nboard", "tc=40/60"],
            "no moves per period",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=nboard",
                "tc=5",
                "stop=ping",
            ],
            "stop=ping stops the engine when st= runs out: give st=SECONDS",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=ugi",
                "st=1",
                "stop=ping",
            ],
            "stop=ping is for NBoard engines (proto=nboard)",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=nboard",
                "st=1",
                "stop=now",
            ],
            "stop=now: only stop=ping",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=gtp",
                "st=1",
                "option.Hash=1",
            ],
            "speaks GTP, which has no options",
        ),
        (
            vec![
                "-variant",
                "reversi",
                "-engine",
                "proto=gtp",
                "st=1",
                "-openings",
                &fen_book,
            ],
            "cannot set up a position",
        ),
    ] {
        let mut args = words.clone();
        args.insert(3, &fake);
        args.extend(["-engine", "builtin=random"]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
    // The same GTP engine from moves in our lines plays.
    let o = run(&[
        "-variant",
        "reversi",
        "-engine",
        &fake,
        "args=--gtp",
        "proto=gtp",
        "st=1",
        "-engine",
        "builtin=random",
        "-openings",
        &book,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Reversi openings in protocol notation from seeded random play, each with a pass in
/// it (`0000`) and the game still on after it.
fn reversi_openings_with_a_pass(count: usize, seed: u64) -> Vec<String> {
    use engine::game::Notation;
    use engine::games::reversi::position::Position;
    let mut rng = engine::rng::SplitMix64::new(seed);
    let mut book = Vec::new();
    while book.len() < count {
        let mut pos = Position::startpos();
        let mut line = Vec::new();
        while !pos.is_over() {
            let legal = pos.legal_moves();
            let mv = *rng.choose(&legal).unwrap();
            line.push(pos.move_name(mv));
            pos.make_move(mv);
            if mv.is_pass() {
                break;
            }
        }
        if !pos.is_over() && line.last().is_some_and(|m| m == "0000") {
            book.push(line.join(" "));
        }
    }
    book
}

#[test]
fn gtp_engine_whose_board_passes_by_itself_plays_on() {
    // grhino answers every `play COLOUR pass` with `? syntax error` (its board passes
    // by itself): in the opening's set-up and in play, the refusal is let go and the
    // games end on the board.
    let dir = common::scratch("test", "gtp-pass");
    let (book, log) = (dir.join("book.txt"), dir.join("e.log"));
    std::fs::write(&book, reversi_openings_with_a_pass(6, 29).join("\n") + "\n").unwrap();
    let (o, recs) = gtp_fake_match(
        "gtp-pass-run",
        "--implicit-pass",
        "6",
        &[
            "-openings",
            &format!("file={}", book.display()),
            "-log",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_all_ended_on_the_board(&recs, 6);
    // The fake answers `? syntax error` to passes alone here; the log's two threads may
    // write an answer before the line it answers, so the lines are counted.
    let sent = log_lines(&log, "fake#1", '>');
    let read = log_lines(&log, "fake#1", '<');
    let passes = sent
        .iter()
        .filter(|l| l.starts_with("play ") && l.ends_with(" pass"))
        .count();
    let refused = read.iter().filter(|l| *l == "? syntax error").count();
    assert!(
        passes >= 6 && refused == passes,
        "{passes} {refused}: {sent:?}"
    );
}

#[test]
fn nboard_faults_lose_as_for_ugi_engines() {
    // Our reversi in NBoard mode: a depth it refuses (`status error: …` before the
    // pong) loses the game as a refused set-up. (A depth far beyond its clock used to
    // be a time forfeit here; the engine now keeps to the GGF clock, which
    // `nboard_engine_keeps_to_the_clock` checks.)
    let reversi = engine_binary("reversi");
    let cmd = format!("cmd={}", reversi.display());
    let book = reversi_book();
    for (name, limits, why) in [(
        "nboard-refused",
        ["depth=61", "st=1"],
        "nb set-up refused: status error: depth 61 is not in 1..=60",
    )] {
        let dir = common::scratch("test", name);
        let res = dir.join("r.jsonl");
        let o = run(&[
            "-variant",
            "reversi",
            "-engine",
            "name=nb",
            &cmd,
            "args=--nboard",
            "proto=nboard",
            limits[0],
            limits[1],
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-openings",
            &book,
            "-recover",
            "-results",
            res.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let recs = records(&res);
        assert_eq!(recs.len(), 2, "{recs:?}");
        for (_, result, reason, first) in &recs {
            let expected = if first == "nb" { "0-1" } else { "1-0" };
            assert_eq!(result, expected, "{reason}");
            assert!(reason.starts_with(why), "reason '{reason}' lacks '{why}'");
        }
    }
}

/// Issue 44 item 1: `-noswap` (the first engine moves first in every game, and the
/// report says there are no colour-swapped pairs rather than counting them),
/// `-reverse` (the second engine moves first where the first would), `-scoreinterval`
/// (the progress line every N games and after the last) and `-wait` (a pause between a
/// worker's games); bad values are refused with one line, exit 2.
#[test]
fn noswap_reverse_wait_and_scoreinterval() {
    let two = ["-engine", "builtin=greedy", "-engine", "builtin=random"];
    let firsts = |o: &Output| {
        stderr(o)
            .lines()
            .filter_map(|l| {
                l.split_once(": ")
                    .and_then(|(_, r)| r.split_once(" | game "))
            })
            .map(|(_, g)| g.split(' ').nth(1).unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let o = run(&[&two[..], &["-games", "4", "-repeat", "-noswap"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(firsts(&o), vec!["greedy"; 4], "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(
        &out,
        "Pentanomial: none (-noswap: no colour-swapped game pairs)",
    );
    assert!(!out.contains("Pentanomial ["), "{out}");
    // Without -noswap the same run counts its two pairs.
    let o = run(&[&two[..], &["-games", "4", "-repeat"]].concat());
    assert_contains(&stdout(&o), "(2 pairs)");
    assert_eq!(firsts(&o), ["greedy", "random", "greedy", "random"]);
    let o = run(&[&two[..], &["-games", "4", "-reverse"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(firsts(&o), ["random", "greedy", "random", "greedy"]);
    let o = run(&[&two[..], &["-games", "3", "-reverse", "-noswap"]].concat());
    assert_eq!(firsts(&o), vec!["random"; 3], "{}", stderr(&o));

    let start = Instant::now();
    let o = run(&[
        &two[..],
        &["-games", "4", "-scoreinterval", "3", "-wait", "150"],
    ]
    .concat());
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = stderr(&o);
    let progress: Vec<&str> = lines.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 2, "{lines}");
    assert!(
        progress[0].starts_with("[3/4]") && progress[1].starts_with("[4/4]"),
        "{lines}"
    );
    // Three pauses of 150 ms between four games of one worker.
    assert!(took >= Duration::from_millis(450), "{took:?}");

    for bad in [
        &["-wait", "x"][..],
        &["-wait", "-5"],
        &["-wait"],
        &["-scoreinterval", "0"],
        &["-scoreinterval", "two"],
        &["-noswap", "yes"],
        &["-reverse", "1"],
    ] {
        let o = run(&[&two[..], bad].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}

/// Issue 44 item 2: `-epdout FILE` holds the final position of every finished game, one
/// FEN line each in the order the games were recorded (the results file's), the
/// position its moves reach from its start; `-resume` rewrites it whole.
#[test]
fn epdout_holds_every_final_position() {
    use engine::game::Notation;
    use engine::games::ataxx::{Position, Rules};
    let dir = common::scratch("test", "epdout");
    let (results, epd) = (dir.join("r.jsonl"), dir.join("final.epd"));
    let args = [
        "-engine",
        "builtin=greedy",
        "-engine",
        "builtin=random",
        "-games",
        "4",
        "-results",
        results.to_str().unwrap(),
        "-epdout",
        epd.to_str().unwrap(),
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let check = || {
        let lines: Vec<String> = std::fs::read_to_string(&epd)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let records: Vec<tournament::output::results::GameRecord> =
            std::fs::read_to_string(&results)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        for (line, rec) in lines.iter().zip(&records) {
            let mut pos = Position::from_fen(&rec.fen, Rules::Uai).unwrap();
            for m in &rec.moves {
                let mv = pos.parse_move(m).unwrap();
                pos.make_move(mv);
            }
            assert_eq!(line, &pos.fen());
            // The games ended on the board: the position is a finished one.
            let end = Position::from_fen(line, Rules::Uai).unwrap();
            assert!(end.outcome().is_some(), "{line}");
        }
    };
    check();
    let o = run(&[&args[..], &["-resume"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    check();
    for bad in [
        &["-epdout"][..],
        &["-epdout", "a", "b"],
        &["-epdout", "fil=x"],
    ] {
        let o = run(&[&args[..4], bad].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}

/// Issue 44 item 3: `-pgnout … nodes=true seldepth=true nps=true hashfull=true pv=true
/// timeleft=true latency=true` add fastchess's figures to the comments of our `ataxx`'s
/// moves (UAI, on a clock, which reports them all); the random built-in's moves (no
/// report, no clock) get none; the PGN still reads back whole; without the keys no
/// comment has them.
#[test]
fn pgnout_adds_the_reported_figures() {
    let ataxx = engine_binary("ataxx");
    let dir = common::scratch("test", "pgn-figures");
    let pgn = dir.join("g.pgn");
    let play = |keys: &[&str]| {
        let cmd = format!("cmd={}", ataxx.display());
        let file = format!("file={}", pgn.display());
        let o = run(&[
            &[
                "-engine",
                &cmd,
                "name=ataxx",
                "tc=10+0.1",
                "option.Hash=1",
                "-engine",
                "builtin=random",
                "-games",
                "2",
                "-maxmoves",
                "6",
                "-pgnout",
                &file,
            ][..],
            keys,
        ]
        .concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(&pgn).unwrap()
    };
    let keys = [
        "nodes=true",
        "seldepth=true",
        "nps=true",
        "hashfull=true",
        "pv=true",
        "timeleft=true",
        "latency=true",
    ];
    let text = play(&keys);
    let games = tournament::game::pgn::read(&text).unwrap();
    assert_eq!(games.len(), 2, "{text}");
    let comments: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|c| c.split_once('}').map(|(c, _)| c))
        .collect();
    let with = comments.iter().filter(|c| c.contains(", n=")).count();
    assert!(with >= 6, "{text}");
    for c in comments.iter().filter(|c| c.contains(", n=")) {
        for part in [
            "s, tl=",
            "s, latency=",
            ", n=",
            ", sd=",
            ", nps=",
            ", hashfull=",
            ", pv=\"",
        ] {
            assert!(c.contains(part), "{part} in {c}");
        }
    }
    // The random player's moves: the time alone.
    assert!(
        comments
            .iter()
            .any(|c| c.ends_with('s') && !c.contains(' ') && !c.contains(',')),
        "{text}"
    );
    let plain = play(&[]);
    assert!(!plain.contains(", n=") && !plain.contains("tl="), "{plain}");
    let o = run(&[
        "-engine",
        "builtin=random",
        "-engine",
        "builtin=greedy",
        "-pgnout",
        "g.pgn",
        "pv=yes",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

/// Issue 44 item 4: `-use-affinity CPUS` pins each engine process of each game to CPUs
/// of its own: a wrapper script around the fake engine records its own
/// `Cpus_allowed_list` (the mask is set before exec, so the shell has it). Refused, one
/// line and exit 2, with fewer CPUs than games at once × engines, a CPU the run may
/// not use, or a list that does not read.
#[cfg(target_os = "linux")]
#[test]
fn use_affinity_pins_each_engine_to_its_cpus() {
    let dir = common::scratch("test", "affinity");
    let wrapper = dir.join("pinned.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ngrep Cpus_allowed_list /proc/$$/status > \"$0.$1.$2.cpus\"\nshift 2\nexec {FAKE} \"$@\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let allowed = tournament::engines::affinity::allowed().unwrap();
    let engine = |name: &str| {
        vec![
            "-engine".to_string(),
            format!("cmd={}", wrapper.display()),
            format!("name={name}"),
            "st=0.5".into(),
        ]
    };
    let play = |extra: &[&str], tag: &str| {
        let mut args = engine("a");
        args.push(format!("args={tag} a"));
        args.extend(engine("b"));
        args.push(format!("args={tag} b"));
        args.extend(["-games", "2", "-maxmoves", "3"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        run_strings(&args)
    };
    let mask = |tag: &str, name: &str| {
        let f = dir.join(format!("pinned.sh.{tag}.{name}.cpus"));
        std::fs::read_to_string(&f)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    if allowed.len() >= 2 {
        let (x, y) = (allowed[0], allowed[allowed.len() - 1]);
        let list = format!("{x},{y}");
        let o = play(&["-use-affinity", &list], "given");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(mask("given", "a"), x.to_string());
        assert_eq!(mask("given", "b"), y.to_string());
        // Without a list: every CPU the run may use, divided between the engines.
        let o = play(&["-use-affinity"], "all");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let half = allowed.len() / 2;
        let first = tournament::engines::affinity::format_list(&allowed[..allowed.len() - half]);
        let second = tournament::engines::affinity::format_list(&allowed[allowed.len() - half..]);
        assert_eq!((mask("all", "a"), mask("all", "b")), (first, second));
        // Without -use-affinity: the runner's own mask.
        let o = play(&[], "free");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            mask("free", "a"),
            tournament::engines::affinity::format_list(&allowed)
        );
    }
    let many = (allowed.len() + 1).to_string();
    let one = allowed[0].to_string();
    for bad in [
        &["-use-affinity", one.as_str()][..],
        &["-use-affinity", "-concurrency", many.as_str()],
        &["-use-affinity", "99999"],
        &["-use-affinity", "x"],
        &["-use-affinity", "0", "1"],
    ] {
        let o = play(bad, "bad");
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(err.contains("-use-affinity"), "{bad:?}: {err}");
    }
}

/// Issue 44 item 3: `-report latency=true` ends the report with the runner's own
/// turnaround per move (answer read → next request written), min/median/max, one
/// figure per move that was followed by another request.
#[test]
fn report_latency_gives_the_runners_turnaround() {
    let dir = common::scratch("test", "report-latency");
    let res = dir.join("r.jsonl");
    let cmd = format!("cmd={FAKE}");
    let play = |report: &[&str]| {
        let _ = std::fs::remove_file(&res);
        let o = run(&[
            &[
                "-engine",
                &cmd,
                "name=fake",
                "st=1",
                "-engine",
                &cmd,
                "name=fake2",
                "args=--seed 7",
                "st=1",
                "-games",
                "2",
                "-maxmoves",
                "10",
                "-results",
                res.to_str().unwrap(),
            ][..],
            report,
        ]
        .concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let out = play(&["-report", "latency=true"]);
    let head = "Runner latency (answer read to next request written): ";
    let line = out
        .lines()
        .find(|l| l.starts_with(head))
        .unwrap_or_else(|| panic!("no latency line in {out}"));
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| *l == line).unwrap();
    assert!(
        lines[at + 1].starts_with("Finished match: 2 of 2 games"),
        "{out}"
    );
    // Every move but each game's last was followed by a request to the other engine.
    let text = std::fs::read_to_string(&res).unwrap();
    let moves: u64 = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["plies"].as_u64().unwrap() - 1
        })
        .sum();
    let rest = &line[head.len()..];
    let figures: Vec<&str> = rest.split(", ").collect();
    assert_eq!(figures.len(), 4, "{line}");
    assert_eq!(figures[0], format!("{moves} moves"), "{line}");
    let ms = |part: &str, key: &str| -> f64 {
        let v = part
            .strip_prefix(key)
            .and_then(|p| p.strip_suffix(" ms"))
            .unwrap_or_else(|| panic!("'{part}' in {line}"));
        assert_eq!(v.split_once('.').map(|(_, d)| d.len()), Some(3), "{line}");
        v.parse().unwrap()
    };
    let (min, median, max) = (
        ms(figures[1], "min "),
        ms(figures[2], "median "),
        ms(figures[3], "max "),
    );
    assert!(0.0 <= min && min <= median && median <= max, "{line}");
    // The runner's own part of a move: far below a second even on a loaded machine.
    assert!(max < 1000.0, "{line}");
    // Not without the key, nor with latency=false.
    for report in [&["-report"][..], &["-report", "latency=false"], &[]] {
        let out = play(report);
        assert!(!out.contains("Runner latency"), "{report:?}: {out}");
    }
    let o = run(&[
        "-engine",
        "builtin=random",
        "-engine",
        "builtin=greedy",
        "-report",
        "latency=often",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

/// Issue 44 item 3: time-loss accuracy on a clock (`tc=2+0.1`, `timemargin=100`). The
/// fake engine answers each `go` a fixed time before or after its own clock runs out:
/// 100 ms before (200 ms inside the deadline, its clock plus the margin) it never
/// loses on time, through its first move of about 1.9 s and the ~0.1 s ones after it;
/// 300 ms after (200 ms past the deadline) it always does, on its first move.
#[test]
fn time_loss_follows_the_clock_and_the_margin() {
    let dir = common::scratch("test", "time-loss");
    let res = dir.join("r.jsonl");
    let play = |answer_at: &str| {
        let _ = std::fs::remove_file(&res);
        let o = run(&[
            "-engine",
            &format!("cmd={FAKE}"),
            "name=fake",
            &format!("args=--answer-at {answer_at}"),
            "tc=2+0.1",
            "timemargin=100",
            "-engine",
            "builtin=random",
            "-games",
            "4",
            "-concurrency",
            "2",
            "-maxmoves",
            "6",
            "-results",
            res.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let games = results_json(&res);
        assert_eq!(games.len(), 4, "{games:?}");
        games
    };
    for g in play("-100") {
        let reason = g["reason"].as_str().unwrap();
        assert!(!reason.contains("time forfeit"), "{g}");
        // The fake's moves: its first one used its clock less 100 ms, later ones
        // about its increment (the clock stays near 200 ms).
        let fake = usize::from(g["players"][0] != "fake");
        let ms: Vec<u64> = g["info"]
            .as_array()
            .unwrap()
            .iter()
            .skip(fake)
            .step_by(2)
            .map(|i| i["ms"].as_u64().unwrap())
            .collect();
        assert!(ms.len() >= 2, "{g}");
        assert!((1850..=2100).contains(&ms[0]), "{g}");
        for &m in &ms[1..] {
            assert!(m <= 300, "{g}");
        }
    }
    for g in play("300") {
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.contains("fake time forfeit"), "{g}");
        let fake_first = g["players"][0] == "fake";
        assert_eq!(g["result"], if fake_first { "0-1" } else { "1-0" }, "{g}");
        // On its first move: the deadline (its 2 s and the margin) ended the wait.
        assert!(g["moves"].as_array().unwrap().len() <= 1, "{g}");
    }
}

/// The `Started game`/`Finished game` lines of a manager-format run, checked against
/// each other: game numbers 1..=n in order, each started before it finishes, with the
/// same players. Returns per finished game (players, result).
fn started_and_finished(out: &str, total: usize) -> Vec<([String; 2], String)> {
    let mut started = HashSet::new();
    let mut finished = Vec::new();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("Started game ") {
            let (n, rest) = rest.split_once(" of ").expect(line);
            let (t, players) = rest.split_once(' ').expect(line);
            assert_eq!(t, total.to_string(), "{line}");
            started.insert((n.to_string(), players.to_string()));
        } else if let Some(rest) = line.strip_prefix("Finished game ") {
            let (n, rest) = rest.split_once(' ').expect(line);
            let (players, rest) = rest.split_once(": ").expect(line);
            assert!(
                started.contains(&(n.to_string(), players.to_string())),
                "{line}\n{out}"
            );
            assert_eq!(n, (finished.len() + 1).to_string(), "{out}");
            let (result, reason) = rest.split_once(' ').expect(line);
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{line}");
            assert!(
                reason.starts_with('{') && reason.ends_with('}') && reason.len() > 2,
                "{line}"
            );
            let (a, b) = players
                .strip_prefix('(')
                .and_then(|p| p.strip_suffix(')'))
                .and_then(|p| p.split_once(" vs "))
                .expect(line);
            finished.push(([a.to_string(), b.to_string()], result.to_string()));
        }
    }
    assert_eq!(finished.len(), total, "{out}");
    finished
}

/// The first named engine's wins, losses and draws over `games`.
fn wld_of(name: &str, games: &[([String; 2], String)]) -> (u32, u32, u32) {
    let mut wld = (0, 0, 0);
    for (players, result) in games {
        match (result.as_str(), players[0] == name) {
            ("1/2-1/2", _) => wld.2 += 1,
            ("1-0", true) | ("0-1", false) => wld.0 += 1,
            _ => wld.1 += 1,
        }
    }
    wld
}

/// `-output format=cutechess|fastchess` (issue 44 item 4): on a real run (our ataxx at
/// depth 1 against depth 2, 4 games in colour-swapped pairs from the book), every line on
/// stdout in the manager's shape and nothing on stderr; the figures agree with the games
/// the lines report. A bad value exits with status 2 and one line.
#[test]
fn output_format_prints_as_cutechess_and_fastchess() {
    let ataxx = engine_binary("ataxx");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/ataxx-openings.txt");
    let (e1, e2) = (
        format!("cmd={} name=d1 depth=1", ataxx.display()),
        format!("cmd={} name=d2 depth=2", ataxx.display()),
    );
    let book_arg = format!("file={}", book.display());
    let args = |format: &str, extra: &[&str]| -> Output {
        let mut a: Vec<&str> = vec!["-engine"];
        a.extend(e1.split(' '));
        a.push("-engine");
        a.extend(e2.split(' '));
        a.extend(["-openings", &book_arg, "-games", "4", "-repeat"]);
        a.extend(["-sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]);
        a.extend(["-output", format]);
        a.extend(extra);
        run(&a)
    };

    // cutechess-cli: Started / Finished / Score of after every game, then the results.
    let o = args("format=cutechess", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no progress line on stderr");
    let out = stdout(&o);
    let games = started_and_finished(&out, 4);
    let lines: Vec<&str> = out.lines().collect();
    for n in 1..=4 {
        let i = lines
            .iter()
            .position(|l| l.starts_with(&format!("Finished game {n} ")))
            .unwrap();
        let (w, l, d) = wld_of("d1", &games[..n]);
        let score = (w as f64 + d as f64 / 2.0) / n as f64;
        assert_eq!(
            lines[i + 1],
            format!("Score of d1 vs d2: {w} - {l} - {d}  [{score:.3}] {n}"),
            "{out}"
        );
    }
    let tail = &lines[lines.len() - 6..];
    let (w, l, d) = wld_of("d1", &games);
    let white: Vec<_> = games.iter().filter(|g| g.0[0] == "d1").cloned().collect();
    let (ww, wl, wd) = wld_of("d1", &white);
    assert_eq!(
        tail[0],
        format!(
            "...      d1 playing White: {ww} - {wl} - {wd}  [{:.3}] 2",
            (ww as f64 + wd as f64 / 2.0) / 2.0
        ),
        "{out}"
    );
    assert!(tail[1].starts_with("...      d1 playing Black: "), "{out}");
    assert!(tail[1].ends_with("] 2"), "{out}");
    let firsts = games.iter().filter(|g| g.1 == "1-0").count();
    let seconds = games.iter().filter(|g| g.1 == "0-1").count();
    assert!(
        tail[2].starts_with(&format!(
            "...      White vs Black: {firsts} - {seconds} - {d}  ["
        )),
        "{out}"
    );
    let elo = tail[3]
        .strip_prefix("Elo difference: ")
        .and_then(|r| r.split_once(" +/- "))
        .expect(tail[3]);
    let (margin, rest) = elo.1.split_once(", LOS: ").expect(tail[3]);
    let one_decimal = |x: &str| {
        ["inf", "-inf", "nan"].contains(&x)
            || (x.parse::<f64>().is_ok() && x.split_once('.').is_some_and(|(_, f)| f.len() == 1))
    };
    assert!(one_decimal(elo.0) && one_decimal(margin), "{}", tail[3]);
    let (los, draws) = rest.split_once(" %, DrawRatio: ").expect(tail[3]);
    assert!(one_decimal(los), "{}", tail[3]);
    assert_eq!(draws, format!("{:.1} %", d as f64 * 25.0), "{}", tail[3]);
    assert!(w + l + d == 4);
    assert!(tail[4].starts_with("SPRT: llr "), "{out}");
    assert!(tail[4].contains("%), lbound -2.94, ubound 2.94"), "{out}");
    assert_eq!(tail[5], "Finished match");

    // fastchess: Started / Finished lines, its block every -ratinginterval and at the end.
    let o = args("format=fastchess", &["-ratinginterval", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    let games = started_and_finished(&out, 4);
    let rule = "-".repeat(50);
    let lines: Vec<&str> = out.lines().collect();
    let blocks: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("Results of "))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(blocks.len(), 2, "after game 2 and at the end: {out}");
    for (&at, n) in blocks.iter().zip([2usize, 4]) {
        let b = &lines[at - 1..at + 7];
        assert_eq!(b[0], rule, "{out}");
        assert_eq!(
            b[1],
            "Results of d1 vs d2 (1 plies - 2 plies, NULL, NULL, ataxx-openings.txt):"
        );
        assert!(
            b[2].starts_with("Elo: ") && b[2].contains(", nElo: "),
            "{out}"
        );
        assert!(
            b[3].starts_with("LOS: ")
                && b[3].contains(" %, DrawRatio: ")
                && b[3].contains(", PairsRatio: "),
            "{out}"
        );
        let (w, l, d) = wld_of("d1", &games[..n]);
        let points = w as f64 + d as f64 / 2.0;
        assert_eq!(
            b[4],
            format!(
                "Games: {n}, Wins: {w}, Losses: {l}, Draws: {d}, Points: {points:.1} ({:.2} %)",
                points / n as f64 * 100.0
            ),
            "{out}"
        );
        let cells = b[5]
            .strip_prefix("Ptnml(0-2): [")
            .and_then(|r| r.split_once("], WL/DD Ratio: "))
            .expect(b[5]);
        let pairs: u32 = cells.0.split(", ").map(|c| c.parse::<u32>().unwrap()).sum();
        assert_eq!(pairs as usize, n / 2, "{out}");
        assert!(
            b[6].starts_with("LLR: ") && b[6].ends_with(" (-2.94, 2.94) [0.00, 10.00]"),
            "{out}"
        );
        assert_eq!(b[7], rule);
    }
    // The interval block follows game 2's end, before game 3 is started.
    assert!(
        lines[blocks[0] - 2].starts_with("Finished game 2 "),
        "{out}"
    );
    assert!(lines[blocks[0] + 7].starts_with("Started game 3 "), "{out}");
    let last = lines.last().unwrap();
    assert!(
        *last == "Tournament finished" || last.starts_with("SPRT ([0.00, 10.00]) completed - "),
        "{out}"
    );

    // Ours is unchanged without the option, and with format=default.
    let o = args("format=default", &[]);
    assert!(stderr(&o)
        .lines()
        .any(|l| l.starts_with("[4/4] d1 vs d2: ")));
    assert!(stdout(&o).starts_with("Score of d1 vs d2: "));

    for bad in [
        "format=cutechess2",
        "format=",
        "form=cutechess",
        "cutechess",
    ] {
        let o = args(bad, &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        assert!(err.contains("-output"), "{bad}: {err}");
    }
}

/// Issue 44 item 6: both UAI engines are told about a new game before the runner waits
/// for either's `readyok`, so they clear their tables at once. In the traffic log, from
/// the second game on (the first starts the processes one by one), both `isready` lines
/// of a game are written before its first `readyok` is read.
#[test]
fn both_engines_get_ready_for_a_game_at_once() {
    let dir = common::scratch("runner", "ready_at_once");
    let log = dir.join("traffic.log");
    let ataxx = engine_binary("ataxx");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/ataxx-openings.txt");
    let o = run(&[
        "-engine",
        &format!("cmd={}", ataxx.display()),
        "name=a",
        "depth=1",
        "-engine",
        &format!("cmd={}", ataxx.display()),
        "name=b",
        "depth=2",
        "-openings",
        &format!("file={}", book.display()),
        "-games",
        "4",
        "-log",
        &format!("file={}", log.display()),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    // The game's traffic (worker 1) between two first position commands.
    let mut games: Vec<Vec<&str>> = vec![Vec::new()];
    for line in text.lines().filter(|l| l.contains("#1 ")) {
        if line.contains(" > uainewgame")
            && games
                .last()
                .unwrap()
                .iter()
                .any(|l| l.contains("> position"))
        {
            games.push(Vec::new());
        }
        games.last_mut().unwrap().push(line);
    }
    assert_eq!(games.len(), 4, "{text}");
    for game in &games[1..] {
        let asked: Vec<usize> = (0..game.len())
            .filter(|&i| game[i].contains(" > isready"))
            .collect();
        let ready = game
            .iter()
            .position(|l| l.contains(" < readyok"))
            .expect("a readyok");
        assert_eq!(asked.len(), 2, "{game:#?}");
        assert!(asked[1] < ready, "isready, readyok, isready: {game:#?}");
        assert!(game.iter().filter(|l| l.contains(" < readyok")).count() == 2);
    }
}

/// Issue 44 item 6: the next game is handed out before a finished one is written (its
/// set-up overlaps the sync), but no game is reported before its results line is in the
/// file. Read as the run goes: when the progress line `[k/N]` (or the managers' `Finished
/// game`) appears, the results file already holds k games; and every game reported is
/// in the file at the end. (That the line is synced, not only written, is the writer's
/// `sync_data` before it returns, which this cannot see.)
#[test]
fn a_game_is_in_the_results_file_before_it_is_reported() {
    use std::io::{BufRead, BufReader};
    let dir = common::scratch("runner", "reported_after_written");
    let results = dir.join("r.jsonl");
    let ataxx = engine_binary("ataxx");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/ataxx-openings.txt");
    for (format, on_stdout) in [("default", false), ("cutechess", true)] {
        let _ = std::fs::remove_file(&results);
        let mut child = Command::new(TOURNAMENT)
            .args(["-engine", &format!("cmd={}", ataxx.display()), "depth=1"])
            .args([
                "name=a",
                "-engine",
                "builtin=greedy",
                "-games",
                "2",
                "-rounds",
                "10",
            ])
            .args(["-openings", &format!("file={}", book.display())])
            .args(["-output", &format!("format={format}")])
            .arg("-results")
            .arg(&results)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run tournament");
        let lines: Box<dyn std::io::Read> = if on_stdout {
            Box::new(child.stdout.take().unwrap())
        } else {
            Box::new(child.stderr.take().unwrap())
        };
        let mut reported = 0;
        for line in BufReader::new(lines).lines() {
            let line = line.unwrap();
            let game = if on_stdout {
                line.strip_prefix("Finished game ")
                    .and_then(|r| r.split(' ').next())
                    .map(|n| n.parse::<usize>().unwrap())
            } else {
                line.strip_prefix('[')
                    .and_then(|r| r.split('/').next())
                    .and_then(|n| n.parse::<usize>().ok())
            };
            let Some(k) = game else { continue };
            let written = std::fs::read_to_string(&results).unwrap().lines().count();
            assert!(
                written >= k,
                "{format}: game {k} reported with {written} in the file"
            );
            reported += 1;
        }
        let status = child.wait().unwrap();
        assert!(status.success(), "{format}");
        assert_eq!(reported, 20, "{format}");
        let written = std::fs::read_to_string(&results).unwrap().lines().count();
        assert_eq!(written, 20, "{format}");
    }
}

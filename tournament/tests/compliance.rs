//! `tournament compliance`: our engines pass in every protocol they speak; the faults of
//! `fake-engine` (and of our `reversi` behind a faulty wrapper) fail the step that
//! checks them, by name; the run's `-check` refuses an engine that fails its quick part.

use crate::common::{self, assert_contains, engine_binary, run, stderr, stdout, FAKE};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

fn compliance(args: &[&str]) -> Output {
    let mut all = vec!["compliance"];
    all.extend_from_slice(args);
    run(&all)
}

/// The steps that failed, by name, from the `FAIL STEP: …` lines.
fn failed_steps(o: &Output) -> BTreeSet<String> {
    stdout(o)
        .lines()
        .filter_map(|l| l.strip_prefix("FAIL "))
        .filter_map(|l| l.split_once(": ").map(|(step, _)| step.to_string()))
        .collect()
}

/// Every line is `ok STEP…`, `FAIL STEP: sent …; got …; expected …` or the summary.
fn assert_line_forms(o: &Output) {
    let out = stdout(o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("compliance: ")),
        "{out}"
    );
    for l in &lines[..lines.len() - 1] {
        let ok = l.starts_with("ok ");
        let fail = l.starts_with("FAIL ")
            && l.contains(": sent ")
            && l.contains("; got ")
            && l.contains("; expected ");
        assert!(ok || fail, "a line of neither form: {l}\n{out}");
    }
}

fn assert_passes(args: &[&str]) -> Output {
    let o = compliance(args);
    assert_line_forms(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    assert!(failed_steps(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stdout(&o).lines().last().unwrap().contains("steps passed"),
        "{}",
        stdout(&o)
    );
    o
}

/// Every step fails that `expected` names, and no other; the exit status is 1.
fn assert_fails(args: &[&str], expected: &[&str]) -> Output {
    let o = compliance(args);
    assert_line_forms(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}\n{}", stdout(&o));
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(failed_steps(&o), want, "{args:?}\n{}", stdout(&o));
    o
}

/// Our engines, in every protocol each speaks (a generous `timemargin`: the timed steps
/// print their margin, and a test on a loaded machine must not fail on it).
#[test]
fn our_engines_pass_in_every_protocol_they_speak() {
    let (ataxx, loa, reversi) = (
        engine_binary("ataxx"),
        engine_binary("loa"),
        engine_binary("reversi"),
    );
    let cmd = |p: &PathBuf| format!("cmd={}", p.display());
    for (variant, engine, proto, steps) in [
        ("ataxx", &ataxx, "uai", 21),
        ("ataxx", &ataxx, "ugi", 24),
        ("ataxx", &ataxx, "text", 6),
        ("loa", &loa, "ugi", 24),
        ("loa", &loa, "text", 6),
        ("reversi", &reversi, "ugi", 24),
        ("reversi", &reversi, "nboard", 12),
        ("reversi", &reversi, "text", 6),
    ] {
        let proto = format!("proto={proto}");
        let args = ["-variant", variant, &cmd(engine), &proto, "timemargin=1000"];
        let o = assert_passes(&args);
        assert!(
            stdout(&o).ends_with(&format!("compliance: all {steps} steps passed\n")),
            "{args:?}\n{}",
            stdout(&o)
        );
    }
    // The 2008 edition's dialect, chosen by its rules.
    assert_passes(&[
        "-rules",
        "2008",
        &cmd(&ataxx),
        "proto=text",
        "args=--edition 2008",
    ]);
    // The 2022 edition's, chosen by its name (it plays by the 2016 rules).
    assert_passes(&[
        "-rules",
        "2022",
        &cmd(&ataxx),
        "proto=text",
        "args=--edition 2022",
    ]);
    // An option of the spec is set after the handshake.
    let o = compliance(&["-quick", &cmd(&ataxx), "option.Hash=8", "option.threads=2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_contains(&stdout(&o), "ok engine options (2 set)");
}

/// The fake engine over UAI passes; each of its faults fails the step that checks it
/// (and says what it saw). The cases run at once: most of them wait on a deadline.
#[test]
fn fake_engine_faults_fail_the_step_that_checks_them() {
    let fake = format!("cmd={FAKE}");
    let cases: Vec<(Vec<&str>, Vec<&str>, &[&str])> = vec![
        (
            vec!["args=--no-handshake", "inittimeout=1"],
            vec!["handshake"],
            &[
                "FAIL handshake: sent uai; got nothing more for ",
                "expected 'id name …', options, then 'uaiok' within 1000 ms",
                "20 steps not run",
            ],
        ),
        (
            vec!["args=--bad-option"],
            vec!["handshake"],
            &["min <= default <= max"],
        ),
        (
            vec!["args=--no-readyok"],
            vec!["isready"],
            &["steps not run (starting the engine afresh"],
        ),
        (
            vec!["-quick", "args=--illegal-after 0"],
            vec!["position moves"],
            &["by our rules, not 'c2'"],
        ),
        (
            vec!["-quick", "args=--hang-after 0"],
            vec!["position moves"],
            &["expected 'bestmove MOVE' within 2000 ms"],
        ),
        (
            vec!["-quick", "args=--crash-after 0"],
            vec!["position moves"],
            &["the end of its output (it exited)"],
        ),
        (
            vec!["-quick", "args=--garbage-after 0"],
            vec!["position moves", "info lines"],
            &["unknown key"],
        ),
        (
            vec!["args=--eager-infinite"],
            vec!["go infinite then stop", "isready while searching"],
            &["expected no bestmove before 'stop'"],
        ),
        (
            vec!["args=--refuse setoption"],
            vec!["setoption min/max"],
            &["got 'info string error: setoption is refused'"],
        ),
        (
            vec!["args=--slow 300"],
            vec!["go movetime 100", "go while searching"],
            &["expected 'bestmove MOVE' within 150 ms"],
        ),
        (
            vec!["args=--ignore-quit"],
            vec!["quit"],
            &["still running after 1000 ms"],
        ),
        (
            vec!["args=--hang-at-eof"],
            vec!["end of input"],
            &["still running after 2000 ms"],
        ),
    ];
    std::thread::scope(|scope| {
        scope.spawn(|| assert_passes(&[&fake]));
        for (args, fails, says) in &cases {
            let fake = &fake;
            scope.spawn(move || {
                let mut all = vec![fake.as_str()];
                all.extend(args.iter().copied());
                let o = assert_fails(&all, fails);
                for says in *says {
                    assert!(stdout(&o).contains(says), "{args:?}\n{}", stdout(&o));
                }
            });
        }
    });
}

#[test]
fn gtp_and_text_faults_fail_the_step_that_checks_them() {
    let fake = format!("cmd={FAKE}");
    let reversi = ["-variant", "reversi", &fake, "proto=gtp"];
    fn with<'a>(reversi: &[&'a str], extra: &'a str) -> Vec<&'a str> {
        let mut a = reversi.to_vec();
        a.push(extra);
        a
    }
    assert_passes(&with(&reversi, "args=--gtp"));
    assert_fails(
        &with(&reversi, "args=--gtp --illegal-after 0"),
        &["genmove"],
    );
    assert_fails(&with(&reversi, "args=--gtp --crash-after 0"), &["genmove"]);
    assert_fails(
        &with(&reversi, "args=--gtp --refuse boardsize"),
        &["boardsize 8"],
    );
    assert_fails(
        &with(&reversi, "args=--gtp --refuse play"),
        &["play", "genmove"],
    );

    assert_passes(&[&fake, "proto=text", "args=--text"]);
    assert_fails(
        &[&fake, "proto=text", "args=--text --illegal-after 0"],
        &["start", "move"],
    );
    // A refused set-up command: the set-up fails, and so does every fresh start.
    let o = assert_fails(
        &[&fake, "proto=text", "args=--text --refuse manual"],
        &["set-up"],
    );
    assert_contains(&stdout(&o), "'error: manual is refused'");
    assert_contains(&stdout(&o), "steps not run");
}

/// NBoard faults, made by wrapping our `reversi --nboard` in a shell pipeline: one
/// that drops the `learned` line, one that removes the game's clock (so `set depth 60`
/// searches on past it).
#[test]
fn nboard_faults_fail_the_step_that_checks_them() {
    let reversi = engine_binary("reversi");
    let sh = |script: String| {
        compliance(&[
            "-variant",
            "reversi",
            "proto=nboard",
            "cmd=/bin/sh",
            &format!("args=-c \"{script}\""),
        ])
    };
    let o = sh(format!(
        "{} --nboard | grep --line-buffered -v ^learned",
        reversi.display()
    ));
    assert_line_forms(&o);
    assert_eq!(
        failed_steps(&o),
        BTreeSet::from(["learn".to_string()]),
        "{}",
        stdout(&o)
    );
    assert_contains(&stdout(&o), "expected 'learned' before 'pong");
    // The pipeline outlives the engine's `quit` (sed reads on): that fails too.
    let o = sh(format!(
        "sed -u 's/TI.0:03.//' | {} --nboard",
        reversi.display()
    ));
    assert_line_forms(&o);
    assert!(failed_steps(&o).contains("clock"), "{}", stdout(&o));
    assert_contains(&stdout(&o), "expected '=== MOVE/EVAL/TIME' within 1500 ms");
}

#[test]
fn bad_compliance_command_lines_exit_2() {
    let fake = format!("cmd={FAKE}");
    for args in [
        vec![],
        vec!["builtin=random"],
        vec![fake.as_str(), "proto=nboard"],
        vec![fake.as_str(), "proto=uai", "-variant", "loa"],
        vec![fake.as_str(), "-frobnicate"],
        vec![fake.as_str(), "-variant", "chess"],
        vec![fake.as_str(), "proto=text", "option.Hash=1"],
        vec![fake.as_str(), "tc=x"],
    ] {
        let o = compliance(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("tournament compliance: "),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    let o = compliance(&["-help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("usage: tournament compliance"));
}

/// `-check`: an engine that fails the quick part stops the run before any game, exit 2,
/// naming the step; engines that pass it are played as without it.
#[test]
fn check_refuses_an_engine_that_fails_its_quick_part() {
    let dir = common::scratch("compliance", "check");
    let results = dir.join("r.jsonl");
    let results = results.to_str().unwrap();
    let fake = format!("cmd={FAKE}");
    let o = run(&[
        "-engine",
        &fake,
        "args=--illegal-after 0",
        "st=0.1",
        "-engine",
        "builtin=random",
        "-check",
        "-results",
        results,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_contains(&stderr(&o), "tournament: engine fake-engine fails -check: FAIL position moves: sent position startpos moves");
    assert_contains(&stderr(&o), "nothing was played");
    assert!(!std::path::Path::new(results).exists());
    let o = run(&[
        "-engine",
        &fake,
        "args=--no-readyok",
        "st=0.1",
        "-engine",
        "builtin=random",
        "-check",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_contains(&stderr(&o), "fails -check: FAIL isready: ");
    // Without -check the illegal mover plays (and loses).
    let o = run(&[
        "-engine",
        &fake,
        "args=--illegal-after 0",
        "st=0.1",
        "-engine",
        "builtin=random",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ataxx = format!("cmd={}", engine_binary("ataxx").display());
    let o = run(&[
        "-engine",
        &ataxx,
        "depth=1",
        "-engine",
        &fake,
        "st=0.1",
        "-engine",
        "builtin=random",
        "-check",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_contains(&stderr(&o), "check: ataxx: 8 steps ok");
    assert_contains(&stderr(&o), "check: fake-engine: 8 steps ok");
    assert!(!stderr(&o).contains("check: random"), "{}", stderr(&o));
    assert_contains(&stdout(&o), "Rank");
}

//! End-to-end tests of the `tune` binary: its help and usage errors, and the commands
//! that read the runner's results files (`fit`, `nnue`; the files are played by the
//! runner's `tournament` binary with its built-in players) or make and fit Reversi's
//! self-play data (`reversi-games`, `reversi-eval`).

use crate::common::{self, stderr, stdout, TUNE};

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Plays `rounds` × 2 games of `game` between the runner's built-in greedy and random
/// players into a fresh results file in the scratch folder `name`, and returns the file.
fn builtin_games(name: &str, game: &str, rounds: u32) -> PathBuf {
    let res = common::scratch("commands", name).join("r.jsonl");
    let rounds = rounds.to_string();
    let o = Command::new(common::tournament_binary())
        .args([
            "-variant",
            game,
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-rounds",
            &rounds,
            "-results",
            res.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run tournament");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    res
}

#[test]
fn tune_reads_the_results_file() {
    // `tune fit` reads the runner's results through the runner's own record type: every
    // game of the file counts, a line cut by a kill is skipped.
    let res = builtin_games("tune", "ataxx", 3);
    let mut text = std::fs::read_to_string(&res).unwrap();
    text.push_str("{\"id\":6,\"players\":[\"gre");
    std::fs::write(&res, text).unwrap();
    let o = Command::new(TUNE)
        .args(["fit", res.to_str().unwrap()])
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("6 ataxx games, "), "{}", stderr(&o));
    assert!(stdout(&o).contains("pub const MG"), "{}", stdout(&o));
    // The file holds no game of another variant.
    let o = Command::new(TUNE)
        .args(["fit", "--variant", "loa", res.to_str().unwrap()])
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no loa positions"), "{}", stderr(&o));
}

/// Issue item 10: `tune --help` is help (stdout, status 0), an unknown command is named,
/// and the usage is a list of commands, one a line, not one line of every synopsis.
#[test]
fn tune_help_lists_its_commands_and_names_an_unknown_one() {
    let tune = |args: &[&str]| {
        Command::new(TUNE)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run tune")
    };
    for help in ["--help", "-h", "help"] {
        let o = tune(&[help]);
        assert_eq!(o.status.code(), Some(0), "{help}: {}", stderr(&o));
        let out = stdout(&o);
        for command in [
            "openings",
            "fit",
            "nnue",
            "datagen",
            "window",
            "reversi-probcut",
        ] {
            assert_eq!(
                out.lines()
                    .filter(|l| l.trim_start().starts_with(&format!("{command} ")))
                    .count(),
                1,
                "{command}: {out}"
            );
        }
        assert!(out.lines().all(|l| l.len() <= 100), "{out}");
        assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    }
    let o = tune(&["bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("tune: unknown command 'bogus'"),
        "{}",
        stderr(&o)
    );
    // No command: the list, as a usage error.
    let o = tune(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("reversi-eval "), "{}", stderr(&o));
    assert!(stderr(&o).lines().all(|l| l.len() <= 100), "{}", stderr(&o));
    // A command's help: its arguments, on stdout; a usage error of a command: the same
    // on stderr.
    let o = tune(&["fit", "--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("usage: tune fit [--variant NAME]"),
        "{}",
        stdout(&o)
    );
    let o = tune(&["fit"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("usage: tune fit [--variant NAME]"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tune_fits_a_linear_evaluation() {
    // `tune fit --variant NAME` fits any game's linear evaluation terms
    // (Tunable::eval_terms: LOA here, Ataxx above) and prints its weight tables with the
    // term names; Reversi's has none (`reversi_pattern_evaluation_is_made_from_self_play`).
    let res = builtin_games("tune-loa", "loa", 2);
    let o = Command::new(TUNE)
        .args(["fit", "--variant", "loa", "--l2", "0.01"])
        .arg(&res)
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("4 loa games, "), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("// loa terms: concentration, "), "{out}");
    assert!(out.contains("pub const MG: Weights = [") && out.contains("pub const EG"));
    // A variant this build does not know is a usage error.
    let o = Command::new(TUNE)
        .args(["fit", "--variant", "chess", "r.jsonl"])
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn reversi_pattern_evaluation_is_made_from_self_play() {
    // Reversi's evaluation has no linear terms: `tune fit` says so. Its patterns come
    // from `tune reversi-games` (resumable) and `tune reversi-eval`, whose file the
    // engine's parser accepts, the same for the same data.
    let res = builtin_games("tune-reversi", "reversi", 2);
    let o = Command::new(TUNE)
        .args(["fit", "--variant", "reversi"])
        .arg(&res)
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("reversi's evaluation has no linear terms to fit"),
        "{}",
        stderr(&o)
    );
    let dir = common::scratch("commands", "reversi-eval");
    let games = dir.join("games.rvg");
    let tune = |args: &[&str]| Command::new(TUNE).args(args).output().expect("run tune");
    let gen = |count: &str| {
        let o = tune(&[
            "reversi-games",
            "--out",
            games.to_str().unwrap(),
            "--games",
            count,
            "--nodes",
            "300",
            "--solve",
            "10",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stderr(&o)
    };
    gen("3");
    let again = gen("5");
    assert!(again.starts_with("resuming: 3 games"), "{again}");
    assert!(again.contains("2 games,"), "{again}");
    let fit = |name: &str| {
        let out = dir.join(name);
        let o = tune(&[
            "reversi-eval",
            "--epochs",
            "5",
            "--out",
            out.to_str().unwrap(),
            games.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).starts_with("5 games: "), "{}", stderr(&o));
        std::fs::read(out).unwrap()
    };
    let (a, b) = (fit("a.bin"), fit("b.bin"));
    assert_eq!(a, b, "the fit is deterministic");
    let w = engine::games::reversi::midgame::parse(&a).expect("a weights file");
    assert!(w.as_slice().iter().any(|&v| v != 0));
}

#[test]
fn tune_trains_the_ataxx_network() {
    // `tune nnue` trains on the results file's Ataxx games and writes a network file the
    // engine can embed (same shape, same format), with a held-out loss on the way.
    let res = builtin_games("tune-nnue", "ataxx", 10);
    let out = res.with_file_name("net.bin");
    let o = Command::new(TUNE)
        .args(["nnue", "--epochs", "2", "--lambda", "0.3", "--out"])
        .arg(&out)
        .arg(&res)
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = stderr(&o);
    assert!(log.starts_with("20 ataxx games: "), "{log}");
    assert!(
        log.contains("epoch 2: ") && log.contains("kept epoch "),
        "{log}"
    );
    let bytes = std::fs::read(&out).expect("the network file");
    let net = engine::games::ataxx::nnue::Net::decode(&bytes).expect("a network");
    assert!(net.w1.iter().flatten().any(|&w| w != 0), "trained weights");
    // Usage errors: no output file, a blend outside 0..=1.
    for args in [
        &["nnue", "r.jsonl"][..],
        &["nnue", "--lambda", "2", "--out", "x", "r.jsonl"],
    ] {
        let o = Command::new(TUNE).args(args).output().expect("run tune");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    // A file without Ataxx games trains nothing.
    let loa = builtin_games("tune-nnue-loa", "loa", 1);
    let o = Command::new(TUNE)
        .args(["nnue", "--out"])
        .arg(&out)
        .arg(&loa)
        .output()
        .expect("run tune");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("too few ataxx positions"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn reversi_positions_are_extracted_labelled_resumed_and_measured() {
    // The game records (small extracts in tests/data/reversi/: four WTHOR games, five
    // Logistello book games) are replayed, deduplicated and written with their records'
    // labels; `reversi-label` solves the rest and resumes where it stopped; the yardstick
    // report and a fit read the labelled file.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/reversi/");
    let dir = common::scratch("commands", "reversi-positions");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // A .gam file with one illegal game (c3 twice) beside the five.
    let gam = std::fs::read_to_string(format!("{data}logbook-5.gam")).unwrap();
    std::fs::write(path("g.gam"), format!("{gam}+d3-c3+c3-e3: +2 10\n")).unwrap();
    let tune = |args: &[&str]| Command::new(TUNE).args(args).output().expect("run tune");
    let wtb = format!("{data}wthor-2021-first4.wtb");
    let (g, pos) = (path("g.gam"), path("p.pos"));
    let o = tune(&[
        "reversi-extract",
        "--wthor",
        &wtb,
        "--gam",
        &g,
        "--empties",
        "12-24",
        "--gam-exact",
        "14",
        "--out",
        &pos,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("10 games read (0 unreadable .gam lines), 1 rejected"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(&pos).unwrap();
    let count = |t: &str, s: &str| t.lines().filter(|l| l.contains(s)).count();
    assert_eq!(count(&text, " wthor-24"), 4, "{text}");
    assert!(count(&text, " logistello-result") > 0, "{text}");
    // Label the unlabelled positions with 12–14 empties, five first, then the rest.
    let out = path("l.pos");
    let label = |limit: &str| {
        let o = tune(&[
            "reversi-label",
            "--exact",
            "14",
            "--empties",
            "12-14",
            "--limit",
            limit,
            "--out",
            &out,
            &pos,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stderr(&o)
    };
    assert!(label("5").starts_with("0 already labelled"));
    // A cut last line is dropped and its position labelled again.
    let t = std::fs::read_to_string(&out).unwrap();
    std::fs::write(&out, &t[..t.len() - 10]).unwrap();
    let again = label("1000");
    assert!(again.starts_with("4 already labelled"), "{again}");
    let labelled = std::fs::read_to_string(&out).unwrap();
    let unlabelled = text
        .lines()
        .filter(|l| !l.contains(';'))
        .filter(|l| (12..=14).contains(&l[..64].matches('-').count()))
        .count();
    assert_eq!(labelled.lines().count(), unlabelled);
    assert_eq!(count(&labelled, " exact-solve"), unlabelled);
    // The book games' results at 14 empties and fewer are exact: the solver agrees.
    let exact = path("x.pos");
    let o = tune(&[
        "reversi-label",
        "--exact",
        "14",
        "--relabel",
        "--out",
        &exact,
        &pos,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = tune(&["reversi-compare", &pos, &exact]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all = stdout(&o).lines().last().unwrap().to_string();
    assert!(
        all.starts_with("    all ") && all.ends_with(" 0.00      0.00"),
        "{all}"
    );
    // The yardstick report: one row per stage, the positions counted.
    let o = tune(&["reversi-eval", "--yardstick", &out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(
        report.starts_with(&format!("{unlabelled} yardstick positions")),
        "{report}"
    );
    let rows: usize = report
        .lines()
        .skip(2)
        .filter(|l| !l.ends_with(" all"))
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(rows, unlabelled, "{report}");
    // A fit on labelled positions, judged on the yardstick, writes a weights file.
    let w = path("w.bin");
    let o = tune(&[
        "reversi-eval",
        "--epochs",
        "3",
        "--l2",
        "0.001,0.0001",
        "--or-embedded",
        "--positions",
        &out,
        "--yardstick",
        &out,
        "--out",
        &w,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(engine::games::reversi::midgame::parse(&std::fs::read(&w).unwrap()).is_ok());
    // An unlabelled yardstick line is refused with one line.
    let o = tune(&["reversi-eval", "--yardstick", &pos]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("has no label"), "{}", stderr(&o));
}

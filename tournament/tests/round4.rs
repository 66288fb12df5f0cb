//! What the fourth new-user trial found in the runner (issue 53, items 9 to 16), each a
//! regression test named after what went wrong: a UGI engine's refusal of a position
//! recorded as such, PGN comments without a depth nobody reported, `-check`'s warnings,
//! `tournament compliance`'s resource options, the `isready` of the check before a run,
//! the `-tournament` error, and `tournament merge -output`.

use crate::common::{
    self, assert_contains, engine_binary, results_so_far, run, stderr, stdout, FAKE,
};

/// Item 9: under `-rules text` a LOA UGI engine (whose rules draw at a third repetition)
/// is sent a move after the game its rules ended. It refuses the position, and the game
/// is recorded as refused, with why, not as an illegal move (nor played on with moves
/// of a stale position). The set-up is forced: black (`loa`) has no move at all and
/// passes, white (a scripted fake) shuffles g1-d1-g1, so the start comes back a third
/// time after eight plies; judged by the text rules the game goes on, and the ninth and
/// tenth moves reach `loa` in its next request.
#[test]
fn a_ugi_engine_refusing_a_position_its_rules_ended_is_recorded_as_refused() {
    let dir = common::scratch("round4", "repetition");
    let (res, book) = (dir.join("r.jsonl"), dir.join("book.txt"));
    std::fs::write(&book, "8/8/8/o2o1o2/1o6/xo3o2/oo6/x1o3o1 x 0 1\n").unwrap();
    let loa = format!("cmd={}", engine_binary("loa").display());
    let fake = format!("cmd={FAKE}");
    let o = run(&[
        "-variant",
        "loa",
        "-rules",
        "text",
        "-engine",
        &loa,
        "name=ugi",
        "proto=ugi",
        "depth=1",
        "-engine",
        &fake,
        "name=script",
        "proto=ugi",
        "args=--script g1d1,d1g1",
        "depth=1",
        "-openings",
        &format!("file={}", book.display()),
        "-results",
        res.to_str().unwrap(),
    ]);
    let recs = results_so_far(&res);
    assert_eq!(recs.len(), 1, "{}", stderr(&o));
    let r = &recs[0];
    assert_eq!(r["result"], "0-1", "{r}");
    assert_eq!(r["ending"], "set-up refused", "{r}");
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "ugi refused the position: its rules ended the game (third repetition) after 8 \
             of the 10 moves sent: 'info string error: the game is over (third repetition) \
             before move '0000' (number 9)"
        ),
        "{reason}"
    );
    assert_eq!(r["moves"].as_array().unwrap().len(), 10, "{r}");
    // Not a fault of the process: the run went on to its end.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Item 9, whatever the rules: an `info string error…` in answer to a move request
/// means the engine did not take the position (or the `go`), so the move it then gives
/// is for another position; the game is lost as a refused position, never played on.
#[test]
fn an_error_report_before_bestmove_loses_as_a_refused_position() {
    let dir = common::scratch("round4", "refuse-position");
    let res = dir.join("r.jsonl");
    let fake = format!("cmd={FAKE}");
    let o = run(&[
        "-engine",
        &fake,
        "name=fake",
        "args=--refuse position",
        "st=0.05",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-results",
        res.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let recs = results_so_far(&res);
    assert_eq!(recs.len(), 2, "{}", stderr(&o));
    for r in &recs {
        assert_eq!(
            r["reason"],
            "fake refused the position: 'info string error: position is refused'"
        );
        assert_eq!(r["ending"], "set-up refused");
    }
}

/// Item 11: an engine that answers `stop` with chatter when nothing searches (Moonbird's
/// `Unknown command: stop`) breaks no game: `-check` warns, naming the step, and the
/// games are played; `tournament compliance` still fails that step (and only it).
#[test]
fn check_warns_about_chatter_to_stop_and_plays() {
    let dir = common::scratch("round4", "stop-chatter");
    let res = dir.join("r.jsonl");
    let fake = format!("cmd={FAKE}");
    let o = run(&[
        "-engine",
        &fake,
        "name=fake",
        "args=--stop-chatter",
        "st=0.05",
        "-engine",
        "builtin=random",
        "-games",
        "2",
        "-check",
        "-results",
        res.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(results_so_far(&res).len(), 2, "{err}");
    assert_contains(
        &err,
        "check: fake: warning (no manager relies on this; the games are played): \
             FAIL stop without search: sent stop; isready; got 'Unknown command: stop' \
             'readyok'; expected no output to 'stop' when nothing searches",
    );
    assert_contains(&err, "check: fake: 7 steps ok, 1 with a warning");
    let o = run(&["compliance", &fake, "args=--stop-chatter"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let failed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("FAIL "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(failed, ["FAIL stop without search"], "{out}");
}

/// Item 12: `tournament compliance` set every spin option to its maximum, `Hash`
/// included (Moonbird declares 1 TiB, and exited). Resource options are tried at small
/// values and their default only, and the step's line says so.
#[test]
fn compliance_tries_resource_options_small() {
    let fake = format!("cmd={FAKE}");
    let o = run(&["compliance", &fake, "args=--huge-options"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_contains(
        &out,
        "ok setoption min/max (2 spin options set to min, max and back to default; \
             resource options (Hash, Threads) to min, min + 1 and default only, never their \
             max)",
    );
}

/// Item 13: the check before a run sends `isready` (UGI asks for it once after `ugiok`):
/// an engine that never answers it is refused there, before any game is recorded,
/// rather than losing its first game's sync 10 s later and stopping the run.
#[test]
fn an_engine_that_never_answers_isready_is_refused_before_the_first_game() {
    let dir = common::scratch("round4", "no-readyok");
    let res = dir.join("r.jsonl");
    let fake = format!("cmd={FAKE}");
    for proto in ["uai", "ugi"] {
        let proto = format!("proto={proto}");
        let o = run(&[
            "-engine",
            &fake,
            "name=fake",
            &proto,
            "args=--no-readyok",
            "st=0.05",
            "inittimeout=1",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-results",
            res.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_contains(
            &stderr(&o),
            "engine fake handshake failed: no 'readyok' in time; nothing was played",
        );
        assert!(results_so_far(&res).is_empty());
    }
}

/// Item 14: an unknown `-tournament` kind is refused with the known ones, as `-variant`
/// and `-output` are.
#[test]
fn an_unknown_tournament_kind_lists_the_known_ones() {
    let o = run(&[
        "-engine",
        "builtin=random",
        "-engine",
        "builtin=greedy",
        "-tournament",
        "swiss",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(
        &stderr(&o),
        "-tournament: unknown kind 'swiss' (known: round-robin, gauntlet)",
    );
}

/// Item 15: `tournament merge -output format=cutechess|fastchess` prints the closing
/// report as the run prints it in that format: here a run's own results file merged
/// gives the run's last lines exactly.
#[test]
fn merge_prints_the_report_in_the_managers_formats() {
    let dir = common::scratch("round4", "merge-output");
    for format in ["cutechess", "fastchess"] {
        let res = dir.join(format!("{format}.jsonl"));
        let output = format!("format={format}");
        let o = run(&[
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
            "-games",
            "2",
            "-rounds",
            "3",
            "-repeat",
            "-sprt",
            "elo0=0",
            "elo1=10",
            "-output",
            &output,
            "-results",
            res.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let m = run(&[
            "merge",
            "-sprt",
            "elo0=0",
            "elo1=10",
            "-output",
            &output,
            res.to_str().unwrap(),
        ]);
        assert_eq!(m.status.code(), Some(0), "{}", stderr(&m));
        let (played, merged) = (stdout(&o), stdout(&m));
        let last = if format == "cutechess" {
            "Finished match\n"
        } else {
            "Tournament finished\n"
        };
        assert!(merged.ends_with(last), "{merged}");
        assert!(merged.lines().count() >= 4, "{merged}");
        assert!(
            played.ends_with(&merged),
            "the run's end:\n{played}\nthe merge:\n{merged}"
        );
    }
    let res = dir.join("fastchess.jsonl");
    let m = run(&["merge", "-output", "format=pgn", res.to_str().unwrap()]);
    assert_eq!(m.status.code(), Some(2), "{}", stderr(&m));
}

/// Item 16: the README's compliance sample is what `tournament compliance` prints for
/// `ataxx` over UGI (the lines that carry counts: the options the engine declares), the
/// README names every rule set of every game, and `tournament -help`'s compliance line
/// shows `-rules`.
#[test]
fn the_readme_sample_and_help_say_what_the_runner_does() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let ataxx = format!("cmd={}", engine_binary("ataxx").display());
    let o = run(&["compliance", "-variant", "ataxx", &ataxx, "proto=ugi"]);
    let out = stdout(&o);
    // `after 7 ms` varies with the machine: compare the lines without it.
    let steady = |l: &str| {
        let mut s = String::new();
        let mut skip = false;
        for w in l.split(' ') {
            if skip {
                skip = false;
                s.push_str("N ");
                continue;
            }
            skip = w == "after";
            s.push_str(w);
            s.push(' ');
        }
        s
    };
    for step in ["ok handshake (", "ok setoption min/max ("] {
        let ran = out.lines().find(|l| l.starts_with(step)).expect(step);
        // The first sample in the README is ataxx's over UGI.
        let sample = readme.lines().find(|l| l.starts_with(step)).expect(step);
        assert_eq!(steady(sample), steady(ran), "README sample vs the run");
    }
    for variant in engine::variant::Variant::ALL {
        for rules in variant.rule_sets() {
            assert!(
                readme.contains(&format!("`{rules}`")),
                "the README never names the rules `{rules}` ({})",
                variant.name()
            );
        }
    }
    let help = stdout(&run(&["-help"]));
    assert_contains(
        &help,
        "tournament compliance [-variant GAME] [-rules NAME] [-quick]",
    );
}

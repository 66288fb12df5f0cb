//! `tournament rate` and the end-of-run rating list: against Ordo's figures for the
//! kept runs (`tests/data/rating/`, see its SOURCES.md), both PGN conventions, results
//! files and run directories, a real run's table against `tournament rate` on its
//! results file, the managers' output formats, `-report html=`, and bad input.

use crate::common::{self, assert_contains, run, stderr, stdout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rating")
        .join(name)
}

/// The rows of an Ordo-layout list: name → (rating, error if any).
fn table(text: &str) -> BTreeMap<String, (f64, Option<f64>)> {
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let Some((head, tail)) = line.split_once(" :") else {
            continue;
        };
        let mut head = head.split_whitespace();
        let (Some(rank), Some(name)) = (head.next(), head.next()) else {
            continue;
        };
        if rank.parse::<u32>().is_err() {
            continue;
        }
        let cells: Vec<&str> = tail.split_whitespace().collect();
        let Some(Ok(rating)) = cells.first().map(|c| c.parse::<f64>()) else {
            continue;
        };
        // With errors the layout is RATING ERROR POINTS PLAYED (%) [CFS]; without,
        // RATING POINTS PLAYED (%): the error column is told by the header.
        let has_error = text.contains("ERROR");
        let error = has_error
            .then(|| cells.get(1).and_then(|c| c.parse::<f64>().ok()))
            .flatten();
        rows.insert(name.to_string(), (rating, error));
    }
    rows
}

/// Ours against Ordo's: every player Ordo lists, rating within 0.1 (both print one
/// decimal) and, where both have one, the error within 10 %.
fn assert_agrees(ours: &str, ordo: &str, what: &str) {
    let (ours_t, ordo_t) = (table(ours), table(ordo));
    assert!(!ordo_t.is_empty(), "{what}: no table in Ordo's output");
    for (name, &(rating, error)) in &ordo_t {
        let Some(&(r, e)) = ours_t.get(name) else {
            panic!("{what}: {name} missing from ours:\n{ours}");
        };
        assert!(
            (r - rating).abs() <= 0.1 + 1e-9,
            "{what}: {name} {r} against Ordo's {rating}\nours:\n{ours}\nOrdo:\n{ordo}"
        );
        if let (Some(e), Some(oe)) = (e, error) {
            assert!(
                (e / oe - 1.0).abs() <= 0.10,
                "{what}: {name}'s error {e} against Ordo's {oe}\nours:\n{ours}\nOrdo:\n{ordo}"
            );
        }
    }
}

/// The CFS column of an Ordo-layout list (`-J`): name → the likelihood of
/// superiority over the next, in %.
fn cfs(text: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some((head, tail)) = line.split_once(" :") else {
            continue;
        };
        let (Some(name), Some(last)) = (
            head.split_whitespace().nth(1),
            tail.split_whitespace().last(),
        ) else {
            continue;
        };
        if let Ok(c) = last.parse::<f64>() {
            if tail.split_whitespace().count() == 6 {
                out.insert(name.to_string(), c);
            }
        }
    }
    out
}

fn rate(args: &[&str]) -> String {
    let o = run(&[&["rate"], args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

/// The acceptance figures, kept: Ordo's ratings (to the printed decimal) with
/// its defaults, `-W -D` and an anchor, and its simulated error bars (within 10 %), on
/// a round robin of four engines with draws and a gauntlet with a perfect score.
#[test]
fn ratings_and_errors_equal_ordos_on_the_kept_runs() {
    for f in ["round-robin", "gauntlet"] {
        let pgn = data(&format!("{f}.pgn"));
        let pgn = pgn.to_str().unwrap();
        let ordo = |suffix: &str| {
            std::fs::read_to_string(data(&format!("ordo-{f}{suffix}.txt"))).expect("Ordo's output")
        };
        assert_agrees(&rate(&["--pgn", "chess", pgn, "-s", "0"]), &ordo(""), f);
        assert_agrees(
            &rate(&["--pgn", "chess", pgn, "-s", "0", "-W", "-D"]),
            &ordo("-WD"),
            &format!("{f} -W -D"),
        );
        assert_agrees(
            &rate(&[
                "--pgn",
                "chess",
                pgn,
                "-s",
                "0",
                "anchor=d1:1000",
                "white=fit",
            ]),
            &ordo("-anchor"),
            &format!("{f} anchor"),
        );
        let sims = rate(&["--pgn", "chess", pgn, "-s", "1000"]);
        assert_agrees(&sims, &ordo("-s2000"), &format!("{f} -s"));
        // CFS (Ordo's -J) within 5 points for every neighbour Ordo lists (Ordo leaves
        // the perfect score out, so the last it lists has one of ours only).
        let (ours, theirs) = (cfs(&sims), cfs(&ordo("-s2000")));
        assert!(theirs.len() >= 2, "{f}: {theirs:?}");
        for (name, c) in &theirs {
            assert!(
                (ours[name] - c).abs() <= 5.0,
                "{f}: {name} CFS {} against Ordo's {c}",
                ours[name]
            );
        }
        let wd = rate(&["--pgn", "chess", pgn, "-s", "1000", "-W", "-D"]);
        assert_agrees(&wd, &ordo("-WD-s2000"), &format!("{f} -W -D -s"));
        // The fitted advantage and draw rate are Ordo's to the printed decimals.
        let line = |text: &str, key: &str| {
            text.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split('=').nth(1))
                .and_then(|v| v.split_whitespace().next())
                .map(String::from)
        };
        for key in ["White advantage", "Draw rate"] {
            assert_eq!(line(&wd, key), line(&ordo("-WD-s2000"), key), "{f}: {key}");
        }
    }
    // The perfect score: Ordo's rule, the rating at which losing all 50 games had
    // probability 1/2, bounded and marked `<`.
    let g = rate(&[
        "--pgn",
        "chess",
        data("gauntlet.pgn").to_str().unwrap(),
        "-s",
        "0",
    ]);
    assert_contains(&g, "random  < :  -747.0");
    assert_contains(&g, "random lost every game");
    assert!(
        !g.contains("+inf") && !g.contains("-inf") && !g.contains("NaN"),
        "{g}"
    );
}

/// Ordo's CSV (`-c`): the same header and, with its settings, the same rows.
#[test]
fn csv_is_ordos() {
    let dir = common::scratch("rating", "csv");
    let csv = dir.join("out.csv");
    for f in ["round-robin", "gauntlet"] {
        let pgn = data(&format!("{f}.pgn"));
        rate(&[
            "--pgn",
            "chess",
            pgn.to_str().unwrap(),
            "-W",
            "-D",
            "-s",
            "1000",
            "-c",
            csv.to_str().unwrap(),
        ]);
        let ours = std::fs::read_to_string(&csv).unwrap();
        let ordo = std::fs::read_to_string(data(&format!("ordo-{f}-WD-s2000.csv"))).unwrap();
        let (ours, ordo): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), ordo.lines().collect());
        // Ours adds the CFS column; the rest is Ordo's, the error column within 10 %.
        assert_eq!(ours[0], format!("{},\"CFS(%)\"", ordo[0]), "{f}");
        assert_eq!(ours.len(), ordo.len() + usize::from(f == "gauntlet"), "{f}");
        for (o, t) in ordo[1..].iter().zip(&ours[1..]) {
            let (o, t): (Vec<&str>, Vec<&str>) = (o.split(',').collect(), t.split(',').collect());
            assert_eq!(o[..3], t[..3], "{f}: {o:?} {t:?}");
            assert_eq!(o[4..], t[4..7], "{f}: {o:?} {t:?}");
            let (oe, te): (f64, f64) = (o[3].parse().unwrap(), t[3].parse().unwrap());
            assert!((te / oe - 1.0).abs() <= 0.10, "{f}: {o:?} {t:?}");
        }
    }
}

/// Our own PGN (Black moves first) and the chess one give the same list, each read by
/// its Variant tag (and the line on stderr says which was assumed and why); read in
/// the wrong convention, every result is backwards.
#[test]
fn both_pgn_conventions_read_right() {
    let dir = common::scratch("rating", "conventions");
    let chess = data("round-robin.pgn");
    let text = std::fs::read_to_string(&chess).unwrap();
    // Back to our convention: the tags swapped again, the Variant tag added.
    let ours: String = text
        .lines()
        .map(|l| {
            if let Some(rest) = l.strip_prefix("[White ") {
                format!("[Black {rest}")
            } else if let Some(rest) = l.strip_prefix("[Black ") {
                format!("[White {rest}\n[Variant \"ataxx\"]")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let ours_pgn = dir.join("ours.pgn");
    std::fs::write(&ours_pgn, ours).unwrap();
    let read = |args: &[&str]| {
        let o = run(&[&["rate", "-s", "0"], args].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        (table(&stdout(&o)), stderr(&o))
    };
    let (a, note_a) = read(&[chess.to_str().unwrap()]);
    assert_contains(
        &note_a,
        "White moved first (chess convention; no Variant tag)",
    );
    let (b, note_b) = read(&[ours_pgn.to_str().unwrap()]);
    assert_contains(
        &note_b,
        "Black moved first (Ataxx/Othello convention; Variant tag \"ataxx\")",
    );
    assert_eq!(a, b);
    let (c, note_c) = read(&["--pgn", "chess", ours_pgn.to_str().unwrap()]);
    assert_contains(&note_c, "as told by --pgn");
    // Read backwards, d3 (the strongest) comes out last.
    assert!(
        c["d3"].0 < c["d1"].0 && a["d3"].0 > a["d1"].0,
        "{c:?} {a:?}"
    );
}

/// A run of three engines ends with the rating list, which `tournament rate` prints
/// the same from its results file, its PGN and its directory; `-output
/// format=cutechess|fastchess` keeps the manager's block and adds the list; `-report
/// html=` writes a page holding the same figures; a second run's file rated with the
/// first counts every game once per (run, id).
#[test]
fn a_runs_list_equals_tournament_rate_on_its_files() {
    let dir = common::scratch("rating", "run");
    let ataxx = common::engine_binary("ataxx");
    let cmd = format!("cmd={}", ataxx.display());
    let res = dir.join("run.jsonl");
    let pgn = dir.join("run.pgn");
    let html = dir.join("run.html");
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/ataxx-openings.txt");
    let book = format!("file={}", book.display());
    let three = [
        "-openings",
        &book,
        "-engine",
        &cmd,
        "name=d1",
        "depth=1",
        "-engine",
        &cmd,
        "name=d2",
        "depth=2",
        "-engine",
        "builtin=greedy",
        "-games",
        "2",
        "-rounds",
        "3",
        "-repeat",
        "-maxmoves",
        "30",
    ];
    let o = run(&[
        &three[..],
        &[
            "-results",
            res.to_str().unwrap(),
            "-pgnout",
            pgn.to_str().unwrap(),
            "-report",
            &format!("html={}", html.display()),
        ],
    ]
    .concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "Rank Name");
    let start = out
        .find("Ratings from all games at once")
        .expect("the list");
    let list: String = out[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("Score of"))
        .collect::<Vec<_>>()
        .join("\n");
    let listed = table(&list);
    assert_eq!(listed.len(), 3, "{out}");
    for file in [&res, &pgn, &dir] {
        let rated = rate(&[file.to_str().unwrap()]);
        assert_eq!(table(&rated), listed, "{}: {rated}\n{out}", file.display());
    }
    // The page: the list's ratings and errors as the text prints them.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<svg"));
    assert!(
        !page.contains("<script") && !page.contains("src="),
        "{page}"
    );
    for (name, (rating, error)) in &listed {
        assert_contains(
            &page,
            &format!("<td class=\"name\">{name}</td><td class=\"rating\">{rating:.1}</td>"),
        );
        if let Some(e) = error {
            assert_contains(&page, &format!("<td class=\"error\">{e:.1}</td>"));
        }
    }
    // The managers' formats: their block, then the list.
    for (format, block) in [("cutechess", "Rank Name"), ("fastchess", "Rank Name")] {
        let o = run(&[&three[..], &["-output", &format!("format={format}")]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let (b, l) = (out.find(block), out.find("Ratings from all games at once"));
        assert!(
            matches!((b, l), (Some(b), Some(l)) if b < l),
            "{format}: {out}"
        );
    }
    // The same results file twice (or a merged file beside its shard) counts once.
    let copy = dir.join("copy.jsonl");
    std::fs::copy(&res, &copy).unwrap();
    let o = run(&["rate", res.to_str().unwrap(), copy.to_str().unwrap()]);
    assert_eq!(table(&stdout(&o)), listed);
    assert_contains(
        &stderr(&o),
        "18 already read (same run and id) not counted again",
    );
}

/// A pool not connected by wins and losses both ways is rated in groups, and says so;
/// a sweep between two engines gives bounded ratings.
#[test]
fn groups_and_sweeps_are_said_and_bounded() {
    let dir = common::scratch("rating", "groups");
    let game = |w: &str, b: &str, r: &str| {
        format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n")
    };
    let mut text = String::new();
    for _ in 0..3 {
        text += &game("a", "b", "1-0");
        text += &game("b", "a", "1-0");
        text += &game("a", "b", "1/2-1/2");
        text += &game("c", "d", "1-0");
        text += &game("d", "c", "1/2-1/2");
    }
    let f = dir.join("two.pgn");
    std::fs::write(&f, &text).unwrap();
    let out = rate(&[f.to_str().unwrap(), "-s", "50"]);
    assert_contains(&out, "rated in 2 groups whose ratings cannot be compared");
    assert!(
        out.contains("group 1: ") && out.contains("group 2: "),
        "{out}"
    );
    // c and d drew and won against each other: a group; a and b likewise.
    let t = table(&out);
    assert!(
        (t["a"].0 - t["b"].0).abs() < 1e-9 && t["c"].0 > t["d"].0,
        "{out}"
    );
    let sweep = dir.join("sweep.pgn");
    std::fs::write(
        &sweep,
        game("x", "y", "1-0").repeat(4) + &game("y", "x", "0-1").repeat(4),
    )
    .unwrap();
    let out = rate(&[sweep.to_str().unwrap(), "-s", "20"]);
    let t = table(&out);
    assert!(
        t["x"].0.is_finite() && t["x"].0 > t["y"].0 && t["x"].0 < 2000.0,
        "{out}"
    );
    assert!(
        out.contains("x won every game") && out.contains("y lost every game"),
        "{out}"
    );
}

/// Bad input: one line on stderr, exit 1 (the files) or 2 (the command line).
#[test]
fn bad_input_is_one_line() {
    let dir = common::scratch("rating", "bad");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "not json\n").unwrap();
    let rr = data("round-robin.pgn");
    for (args, code, says) in [
        (vec!["rate"], 2, "no files to rate"),
        (vec!["rate", "-s"], 2, "-s needs a value"),
        (
            vec!["rate", "/no/such/file.pgn"],
            1,
            "cannot read /no/such/file.pgn",
        ),
        (vec!["rate", empty.to_str().unwrap()], 1, "no game records"),
        (
            vec!["rate", dir.to_str().unwrap(), "--pgn", "chess"],
            1,
            "no game records",
        ),
        (
            vec!["rate", rr.to_str().unwrap(), "anchor=nobody:0"],
            1,
            "anchor 'nobody' played no game",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        // One error line (a file read before the fault may have its note line too).
        let err = stderr(&o);
        let errors: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("tournament"))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(errors[0].contains(says), "{args:?}: {err}");
    }
}

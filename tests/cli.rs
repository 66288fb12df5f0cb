//! The command line of every game binary (`src/protocol/cli/`): `--version` and `--help`,
//! usage errors (status 2, the reason and the usage on stderr), `perft` and `bench`,
//! `--display` (the board served beside stdin), `--debug`, the options an edition has no
//! use for, the remote-play options of the dialects that play remote games, and the
//! protocols a first line or a flag chooses. Written once over the binaries
//! ([`common::binaries`]) and dialects ([`Dialect::ALL`]), each row holding a game's own
//! arguments and expectations; the options only one game has are in its module (LOA's
//! course options `--strict`, `--log` and files; Reversi's `solve` and `--nboard`;
//! Ataxx's editions).

use crate::common;

use engine::variant::Dialect;
use std::path::{Path, PathBuf};

const BINS: [(&str, &str); 3] = [
    ("ataxx", env!("CARGO_BIN_EXE_ataxx")),
    ("loa", env!("CARGO_BIN_EXE_loa")),
    ("reversi", env!("CARGO_BIN_EXE_reversi")),
];

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `bin args` with `input` on stdin: status, stdout, stderr.
fn run_bin(bin: &str, args: &[&str], input: &str) -> (i32, String, String) {
    let out = common::run_with_input(bin, Path::new("."), args, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// A fresh scratch directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// `--version` (and `-version`) print the name and version, `--help` the usage.
#[test]
fn version_and_help() {
    for (name, bin) in common::binaries() {
        for version in ["--version", "-version"] {
            let (code, out, _) = run_bin(&bin, &[version], "");
            assert_eq!(
                (code, out.as_str()),
                (0, format!("{name} {VERSION}\n").as_str()),
                "{version}"
            );
        }
        let (code, out, _) = run_bin(&bin, &["--help"], "");
        assert!(
            code == 0 && out.starts_with(&format!("usage: {name}")),
            "{out}"
        );
    }
}

/// A command line a binary cannot run is a usage error: status 2, nothing on stdout
/// (the session does not start), the reason and the usage on stderr. The same mistakes
/// for every binary, then each game's own (with a word its reason must contain).
#[test]
fn bad_arguments_are_usage_errors() {
    const EVERY: [(&[&str], &str); 10] = [
        (&["--nope"], "--nope"),
        (&["--bogus"], "--bogus"),
        (&["-q"], "-q"),
        (&["--debug=x"], "bad debug level 'x'"),
        (&["perft", "x"], "'x'"),
        (&["perft", "13"], "'13'"),
        (&["bench", "0"], "'0'"),
        (&["perft", "2", "bad/fen"], "bad FEN"),
        // `--display` serves the board (tests/display.rs); a bad port is a usage error.
        (&["--display", "--port", "x"], "bad --port"),
        (&["a", "b", "c"], ""),
    ];
    let [(_, ataxx), (_, loa), (_, reversi)] = BINS;
    let own: [(&str, &[&str], &str); 7] = [
        (ataxx, &["--edition", "1999"], "unknown edition '1999'"),
        (ataxx, &["--edition"], "--edition"),
        (
            ataxx,
            &["--edition", "2008", "--display", "--port", "x"],
            "bad --port",
        ),
        (
            ataxx,
            &["--edition", "2008", "--remote-timeout", "x"],
            "bad --remote-timeout 'x'",
        ),
        (
            ataxx,
            &["--edition", "2008", "--listen", "nowhere"],
            "bad --listen 'nowhere'",
        ),
        (loa, &["--log="], "--log"),
        (reversi, &["solve"], "usage: reversi solve"),
    ];
    let rows = BINS
        .iter()
        .flat_map(|&(_, bin)| EVERY.map(|(args, why)| (bin, args, why)))
        .chain(own);
    for (bin, args, why) in rows {
        let name = Path::new(bin).file_name().unwrap().to_string_lossy();
        let (code, out, err) = run_bin(bin, args, "dump\n");
        assert_eq!(code, 2, "{name} {args:?}: {err}");
        assert!(out.is_empty(), "{name} {args:?}: {out}");
        assert!(
            err.contains(&format!("usage: {name}")) && err.contains(why),
            "{name} {args:?}: {err}"
        );
    }
}

/// `perft DEPTH [FEN]` and `bench DEPTH` from the command line, in each game.
#[test]
fn perft_and_bench_from_the_command_line() {
    let [(_, ataxx), (_, loa), (_, reversi)] = BINS;
    for (bin, args, want) in [
        (ataxx, &["perft", "1"][..], "nodes 16 "),
        (
            ataxx,
            &["perft", "2", "x5o/7/2-1-2/7/2-1-2/7/o5x", "x", "0", "1"],
            "nodes 196 ",
        ),
        (loa, &["perft", "3"], "nodes 44952 "),
        (
            loa,
            &["perft", "2", "4o3/8/8/4x3/3o4/2o5/8/3xx3", "o"],
            "nodes ",
        ),
        (loa, &["bench", "2"], "nodes "),
        (reversi, &["perft", "6"], "nodes 8200 "),
    ] {
        let (code, out, err) = run_bin(bin, args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.starts_with(want), "{args:?}: {out}");
    }
}

/// `--display` serves the board beside stdin, which still works: `quit` ends it, status
/// 0, nothing on stdout, the page's address (with its token) on stderr.
#[test]
fn display_serves_the_board_beside_stdin() {
    for (name, bin) in common::binaries() {
        let (code, out, err) = run_bin(&bin, &["--display"], "quit\n");
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert!(
            err.contains(&format!("{name}: the board is at http://127.0.0.1:"))
                && err.contains("/?token="),
            "{name}: {err}"
        );
    }
}

/// An option that means nothing for the edition chosen is refused with one line (exit
/// 2), not ignored: `--remote-timeout` without remote play, and there `--listen`
/// without `--display`. Where the edition plays remote games both are taken.
#[test]
fn options_that_mean_nothing_for_the_edition_are_refused() {
    let [(_, ataxx), (_, loa), (_, reversi)] = BINS;
    for (bin, args, want) in [
        (
            ataxx,
            &["--remote-timeout", "5"][..],
            "ataxx: --remote-timeout is for remote play (host, join), which the 2016 edition does not have; --edition 2008 has it",
        ),
        (
            ataxx,
            &["--listen", "0.0.0.0"],
            "ataxx: --listen goes with --display (the 2016 edition has no remote play; --edition 2008 has it)",
        ),
        (
            loa,
            &["--listen", "127.0.0.1"],
            "loa: --listen goes with --display (loa's text language has no remote play)",
        ),
    ] {
        let (code, out, err) = run_bin(bin, args, "quit\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().next(), Some(want), "{args:?}");
    }
    for (bin, args) in [
        (
            ataxx,
            &[
                "--edition",
                "2008",
                "--remote-timeout",
                "5",
                "--listen",
                "0.0.0.0",
            ][..],
        ),
        (reversi, &["--remote-timeout", "5", "--listen", "127.0.0.1"]),
    ] {
        let (code, _, err) = run_bin(bin, args, "quit\n");
        assert_eq!(code, 0, "{args:?}: {err}");
    }
}

/// `--help` names the protocols a first line switches to: only Ataxx speaks UAI, and
/// Reversi speaks NBoard too.
#[test]
fn help_names_the_protocols_each_binary_speaks() {
    for (name, bin, protocols) in [
        ("ataxx", BINS[0].1, "UAI/UGI"),
        ("loa", BINS[1].1, "UGI"),
        ("reversi", BINS[2].1, "UGI/NBoard"),
    ] {
        let (code, help, _) = run_bin(bin, &["--help"], "");
        let first = help.lines().next().unwrap_or("");
        assert_eq!(
            (code, first),
            (
                0,
                format!(
                    "usage: {name} [OPTIONS]    (the text language; {protocols} if the first line says so)"
                )
                .as_str()
            )
        );
        if name != "ataxx" {
            assert!(!help.contains("UAI"), "{name}: {help}");
        }
    }
}

#[test]
fn one_command_line_style_for_every_binary() {
    for (name, bin) in crate::common::binaries() {
        let bin = bin.as_str();
        // `--help` lists every option, `--version` among them.
        let (code, help, _) = run_bin(bin, &["--help"], "");
        assert_eq!(code, 0, "{name}");
        for opt in ["--help", "--version", "--ugi", "--display"] {
            assert!(help.contains(opt), "{name}: {opt} in {help}");
        }
        // Usage errors exit 2, with the reason and the usage on stderr.
        for bad in [
            &["--nope"][..],
            &["--ugi=1"],
            &["perft"],
            &["--ugi", "extra"],
        ] {
            let (code, out, err) = run_bin(bin, bad, "");
            assert_eq!(code, 2, "{name} {bad:?}: {err}");
            assert!(
                out.is_empty() && err.contains("usage:"),
                "{name} {bad:?}: {err}"
            );
        }
        // The en dash that loa.txt prints gets a hint.
        let (code, _, err) = run_bin(bin, &["\u{2013}display"], "");
        assert_eq!(code, 2, "{name}");
        assert!(
            err.contains("type '--display', with two hyphens"),
            "{name}: {err}"
        );
        // Options in any order: a protocol flag with another option.
        let (code, out, _) = run_bin(bin, &["--ugi", "--version"], "");
        assert_eq!(
            (code, out.trim()),
            (0, format!("{name} {}", env!("CARGO_PKG_VERSION")).as_str())
        );
    }
    // `--opt=V` and `--opt V`, before or after the other options.
    let dump2008 = "dump\nquit\n";
    let (_, want, _) = run_bin(BINS[0].1, &["--edition", "2008"], dump2008);
    assert!(want.starts_with("===\n  r - - - - - b"), "{want}");
    for args in [
        &["--edition=2008", "--remote-timeout", "3"][..],
        &["--remote-timeout=3", "--edition", "2008"],
    ] {
        assert_eq!(run_bin(BINS[0].1, args, dump2008).1, want, "{args:?}");
    }
    let (code, out, _) = run_bin(BINS[0].1, &["perft", "1", "--edition=2008"], "");
    assert!(code == 0 && out.starts_with("nodes "), "{out}");
    for args in [
        &["--remote-timeout=2", "--ugi"][..],
        &["--ugi", "--listen=127.0.0.1"],
    ] {
        let (code, out, _) = run_bin(BINS[2].1, args, "ugi\nquit\n");
        assert!(code == 0 && out.contains("ugiok"), "{args:?}: {out}");
    }
    // loa: the course's options and a protocol flag, in either order, refused alike.
    for args in [&["--strict", "--ugi"][..], &["--ugi", "--strict"]] {
        let (code, _, err) = run_bin(BINS[1].1, args, "");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("--ugi takes no --strict"), "{err}");
    }
    let (code, out, _) = run_bin(BINS[1].1, &["--debug", "0", "--strict", "-"], "dump\n");
    assert!(code == 0 && out.starts_with("==="), "{out}");
}

/// One `app::main` serves every binary: `--debug N` (once only `loa`'s) works for all,
/// and a value that is not a number is a usage error.
#[test]
fn every_binary_takes_debug() {
    for (name, bin) in BINS {
        let (code, help, _) = run_bin(bin, &["--help"], "");
        assert!(code == 0 && help.contains("--debug N"), "{name}: {help}");
        let (code, out, _) = run_bin(bin, &["perft", "1", "--debug=0"], "");
        assert!(code == 0 && out.starts_with("nodes "), "{name}: {out}");
        let (code, out, err) = run_bin(bin, &["--debug", "x"], "");
        assert_eq!(code, 2, "{name}");
        assert!(
            out.is_empty() && err.contains("bad debug level 'x'") && err.contains("usage:"),
            "{name}: {err}"
        );
    }
}

/// Every dialect the registry lists runs from its game's binary (with `--edition` where
/// the game has several): `--help` names the edition, the engine protocols and `perft`
/// work, and the text language ends at `quit` with status 0. A new dialect or game is
/// covered here by its registry entry alone.
#[test]
fn every_registered_dialect_runs() {
    use engine::variant::Dialect;
    for &d in Dialect::ALL {
        let bin = crate::common::binary(d.variant());
        let mut args: Vec<&str> = Vec::new();
        if let Some(e) = d.edition() {
            args.extend(["--edition", e]);
            let (code, help, _) = run_bin(&bin, &["--help"], "");
            assert_eq!(code, 0, "{d:?}");
            assert!(help.contains(e), "{d:?}: {help}");
        }
        let with = |more: &[&'static str]| {
            let mut a = args.clone();
            a.extend(more);
            a
        };
        let (code, out, err) = run_bin(&bin, &with(&["perft", "1"]), "");
        assert_eq!(code, 0, "{d:?}: {err}");
        assert!(out.starts_with("nodes "), "{d:?}: {out}");
        let (code, out, err) = run_bin(&bin, &args, "ugi\nisready\nquit\n");
        assert_eq!(code, 0, "{d:?}: {err}");
        assert!(
            out.contains("ugiok") && out.contains("readyok"),
            "{d:?}: {out}"
        );
        let (code, _, err) = run_bin(&bin, &args, "quit\n");
        assert_eq!(code, 0, "{d:?}: {err}");
    }
}

/// Every dialect with remote play takes its options (`--remote-timeout SECONDS`,
/// `--listen ADDR`): a bad value is a usage error that lists them, `--help` lists them,
/// and with good values (which go with any invocation) the text language runs as usual.
#[test]
fn remote_play_options() {
    let remote: Vec<Dialect> = Dialect::ALL
        .iter()
        .copied()
        .filter(|d| d.remote_play())
        .collect();
    assert!(!remote.is_empty());
    for d in remote {
        // A set-up move and the dump that shows it.
        let (script, shows) = match d {
            Dialect::Ataxx2008 => ("a7-b6\ndump\n", "===\n  r - - - - - b\n  - r - - - - -\n"),
            Dialect::Reversi => ("d3\ndump\n", "Moves: 1"),
            other => panic!("{other:?} plays remote games: give it a row here"),
        };
        let bin = common::binary(d.variant());
        let with = |more: &[&'static str]| {
            let mut args: Vec<&str> = d.edition().map_or(vec![], |e| vec!["--edition", e]);
            args.extend(more);
            args
        };
        for bad in [
            &["--remote-timeout", "0"][..],
            &["--remote-timeout", "x"][..],
            &["--remote-timeout"][..],
            &["--listen", "localhost"][..],
        ] {
            let (code, out, err) = run_bin(&bin, &with(bad), "");
            assert_eq!(code, 2, "{d:?} {bad:?}");
            assert!(out.is_empty(), "{d:?} {bad:?}: {out}");
            assert!(err.contains("--remote-timeout SECONDS"), "{d:?}: {err}");
        }
        let (code, help, _) = run_bin(&bin, &with(&["--help"]), "");
        assert_eq!(code, 0, "{d:?}");
        assert!(help.contains("--listen ADDR"), "{d:?}: {help}");
        let good = with(&["--remote-timeout", "2.5", "--listen", "0.0.0.0"]);
        let (code, out, err) = run_bin(&bin, &good, script);
        assert_eq!(code, 0, "{d:?}: {err}");
        assert!(out.contains(shows), "{d:?}: {out}");
    }
}

mod ataxx {
    //! Ataxx's editions, chosen by `--edition`.

    use crate::common::{Engine, BIN};
    use std::time::Duration;

    const LIMIT: Duration = Duration::from_secs(60);

    /// The 2016 edition stays the default and can be named; UAI is there in the 2008
    /// edition too.
    #[test]
    fn the_2016_edition_is_the_default_and_the_2008_one_speaks_uai() {
        for args in [&[][..], &["--edition", "2016"][..]] {
            let e = Engine::spawn_bin(BIN, args);
            e.send("manual blue");
            e.send("blocks 3");
            let t = e.finish(LIMIT);
            assert_eq!(t.lines, ["error: unknown command 'blocks' (type help)"]);
        }
        let e = Engine::spawn_bin(BIN, &["--edition", "2008"]);
        e.send("uai");
        e.send("quit");
        let t = e.finish(LIMIT);
        assert_eq!(t.lines.last().map(String::as_str), Some("uaiok"));
    }
}

mod loa {
    //! The LOA course program's own options (`loa [--log=LOGFILE] [--strict]
    //! [INPUT-FILE [OUTPUT-FILE]]`): input and output files, the log that replays a
    //! session, `--strict`.

    use super::{common, scratch_dir, text};
    use std::path::PathBuf;
    use std::process::Output;

    const BIN: &str = env!("CARGO_BIN_EXE_loa");

    fn run(d: &std::path::Path, args: &[&str], input: &[u8]) -> Output {
        common::run_with_input(BIN, d, args, input)
    }

    fn dir(name: &str) -> PathBuf {
        scratch_dir(&format!("loa-{name}"))
    }

    const START_DUMP: &str =
        "===\n    - b b b b b b -\n    w - - - - - - w\n    w - - - - - - w\n    \
         w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    \
         - b b b b b b -\nNext move: black\n===\n";

    /// `--debug=0` keeps stderr empty; the session runs as usual.
    #[test]
    fn debug_0_is_silent() {
        let out = run(&dir("debug"), &["--debug=0"], b"dump\n");
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), START_DUMP);
        assert!(out.stderr.is_empty());
    }

    #[test]
    fn input_and_output_files() {
        let d = dir("files");
        std::fs::write(
            d.join("in.txt"),
            "# a file of commands\nmanual white\nb1-d3\ndump\nnew\ndump\n",
        )
        .unwrap();
        // Output to a file: stdout stays empty.
        let out = run(&d, &["in.txt", "out.txt"], b"ignored\n");
        assert!(out.status.success());
        assert!(out.stdout.is_empty() && out.stderr.is_empty());
        let written = std::fs::read_to_string(d.join("out.txt")).unwrap();
        assert!(written.ends_with(START_DUMP) && written.contains("Next move: white"));
        // Input from a file, output on stdout; `-` reads stdin.
        let out = run(&d, &["in.txt"], b"");
        assert_eq!(text(&out.stdout), written);
        let out = run(&d, &["-"], b"dump\n");
        assert_eq!(text(&out.stdout), START_DUMP);
        let out = run(&d, &["-", "out2.txt"], b"dump\n");
        assert!(out.status.success());
        assert_eq!(
            std::fs::read_to_string(d.join("out2.txt")).unwrap(),
            START_DUMP
        );
        // Files that cannot be opened: one line on stderr, status 1.
        for args in [
            &["missing.txt"][..],
            &["in.txt", "no/such/dir/out.txt"],
            &["--log=no/such/dir/x.log"],
        ] {
            let out = run(&d, args, b"dump\n");
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(out.stdout.is_empty());
            assert_eq!(text(&out.stderr).lines().count(), 1, "{args:?}");
        }
    }

    #[test]
    fn the_log_replays_the_session() {
        let d = dir("log");
        let session = "seed 77\nb1-d3\nbogus\nauto black\nlimit 6\n";
        let first = run(&d, &["--log=game.log"], session.as_bytes());
        assert!(first.status.success());
        let log = std::fs::read_to_string(d.join("game.log")).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines[..2], ["seed 77", "b1-d3"]);
        assert!(lines[2].starts_with("# white AI: "), "{log}");
        assert!(lines.contains(&"bogus") && lines.contains(&"limit 6"));
        assert!(lines.iter().any(|l| l.starts_with("# black AI: ")), "{log}");
        // Appending: a second session adds to the file.
        let again = run(&d, &["--log=game.log"], b"dump\n");
        assert!(again.status.success());
        let longer = std::fs::read_to_string(d.join("game.log")).unwrap();
        assert_eq!(longer, format!("{log}dump\n"));
        // Feeding the first log back replays the same game, move for move.
        let replay = run(&d, &[], log.as_bytes());
        assert_eq!(text(&replay.stdout), text(&first.stdout));
        assert!(text(&first.stdout).contains("* "), "the AIs moved");
    }

    #[test]
    fn strict_ends_on_an_erroneous_move() {
        let d = dir("strict");
        let input = b"bogus\nseed 3\nb1-b2\ndump\n";
        let relaxed = run(&d, &[], input);
        assert!(relaxed.status.success());
        assert_eq!(text(&relaxed.stdout), START_DUMP);
        let strict = run(&d, &["--strict"], input);
        assert_eq!(strict.status.code(), Some(1));
        assert!(strict.stdout.is_empty(), "ended before the dump");
        let err = text(&strict.stderr);
        assert_eq!(err.lines().count(), 2, "{err}");
        // Other errors are not moves: strict carries on after them.
        let out = run(&d, &["--strict"], b"limit x\nset z9 - black\ndump\n");
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), START_DUMP);
        // A malformed move and a move after the end count too.
        for input in [
            &b"b1-b9\ndump\n"[..],
            b"manual white\nlimit 1\nb1-d3\na3-d3\nb8-b6\ndump\n",
        ] {
            let out = run(&d, &["--strict"], input);
            assert_eq!(out.status.code(), Some(1));
            assert!(!text(&out.stdout).contains("Next move"));
        }
    }
}

mod reversi {
    //! Reversi's own modes: `solve FILE` on OBF positions, and NBoard chosen by its
    //! first command or by `--nboard`.

    use super::{run_bin, text};
    use engine::games::reversi::Position;
    use std::process::Output;

    const BIN: &str = env!("CARGO_BIN_EXE_reversi");

    fn run(args: &[&str], input: &str) -> Output {
        crate::common::run_with_input(BIN, std::path::Path::new("."), args, input.as_bytes())
    }

    fn stdout(o: &Output) -> String {
        text(&o.stdout)
    }

    /// The FFO suite's positions #40 to #49 (OBF, answers after `;`).
    const FFO: &str = include_str!("data/reversi/ffo40-49.obf");

    #[test]
    fn solve_ffo40_and_its_reply() {
        // #40 (20 empties; a2, +38) is the fastest of the suite.
        let ffo40 = FFO.lines().next().unwrap();
        assert!(ffo40.contains("A2:+38"));
        let mut after = Position::from_obf(ffo40).unwrap();
        let a2 = engine::games::reversi::Move::parse_text("a2").unwrap();
        after.make_move(a2);
        let file = std::env::temp_dir().join(format!("reversi-solve-{}.obf", std::process::id()));
        std::fs::write(
            &file,
            format!(
                "; FFO #40 and the position after its best move\n{ffo40}\n\n{}\n",
                after.to_obf()
            ),
        )
        .unwrap();
        let o = run(&["solve", file.to_str().unwrap()], "");
        let _ = std::fs::remove_file(&file);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        let re = regex::Regex::new(
            r"^(\d) \S+ [XO] empties (\d+) move ([a-h][1-8]) score (-?\d+) nodes \d+ time \d+$",
        )
        .unwrap();
        let c = re
            .captures(lines[0])
            .unwrap_or_else(|| panic!("{}", lines[0]));
        assert_eq!((&c[1], &c[2], &c[3], &c[4]), ("1", "20", "a2", "38"));
        let c = re
            .captures(lines[1])
            .unwrap_or_else(|| panic!("{}", lines[1]));
        assert_eq!((&c[1], &c[2], &c[4]), ("2", "19", "-38"));
    }

    /// A file that cannot be read is refused with status 2 (`solve` without a file is a
    /// usage error: [`super::bad_arguments_are_usage_errors`]).
    #[test]
    fn solve_refuses_bad_input() {
        let o = run(&["solve", "/nonexistent/reversi.obf"], "");
        assert_eq!(o.status.code(), Some(2));
        let (code, _, _) = run_bin(BIN, &["solve"], "");
        assert_eq!(code, 2);
    }

    #[test]
    fn nboard_by_first_command_and_by_flag() {
        let script = "set depth 3\nmove F5\nping 1\ngo\n";
        let by_hello = stdout(&run(&[], &format!("nboard 2\n{script}")));
        let by_flag = stdout(&run(&["--nboard"], script));
        assert!(
            by_hello.starts_with("set myname reversi-engine "),
            "{by_hello}"
        );
        let reply = |out: &str| {
            out.lines()
                .find(|l| l.starts_with("=== "))
                .map(|l| l.split('/').next().unwrap().to_string())
        };
        assert_eq!(reply(&by_hello), reply(&by_flag));
        // After f5, White's legal replies are d6, f6 and f4.
        let mv = reply(&by_hello).expect(&by_hello);
        assert!(
            ["=== D6", "=== F6", "=== F4"].contains(&mv.as_str()),
            "{mv}"
        );
        assert!(by_flag.contains("pong 1\n"), "{by_flag}");
        let help = stdout(&run(&["--help"], ""));
        assert!(help.contains("--nboard"), "{help}");
    }
}

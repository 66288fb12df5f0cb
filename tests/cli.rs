//! The shared command line of the game binaries (`src/protocol/cli/mod.rs`), through `ataxx`
//! (and, for what every binary must do alike, `loa` and `reversi` too).

use std::process::{Command, Stdio};

const BINS: [(&str, &str); 3] = [
    ("ataxx", env!("CARGO_BIN_EXE_ataxx")),
    ("loa", env!("CARGO_BIN_EXE_loa")),
    ("reversi", env!("CARGO_BIN_EXE_reversi")),
];

fn run(args: &[&str]) -> (i32, String, String) {
    run_bin(env!("CARGO_BIN_EXE_ataxx"), args, "")
}

/// Runs `bin args` with `input` on stdin: status, stdout, stderr.
fn run_bin(bin: &str, args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("run the binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_help_and_bad_arguments() {
    for version in ["--version", "-version"] {
        let (code, out, _) = run(&[version]);
        assert_eq!(
            (code, out.trim()),
            (0, concat!("ataxx ", env!("CARGO_PKG_VERSION"))),
            "{version}"
        );
    }
    let (code, out, _) = run(&["--help"]);
    assert!(code == 0 && out.starts_with("usage: ataxx"), "{out}");
    // `--display` serves the board (tests/display.rs); a bad port is a usage error.
    let (code, _, err) = run(&["--display", "--port", "x"]);
    assert!(code == 2 && err.contains("bad --port"), "{err}");
    for bad in [
        &["--nope"][..],
        &["perft", "x"],
        &["perft", "13"],
        &["bench", "0"],
        &["perft", "2", "bad/fen"],
    ] {
        let (code, out, err) = run(bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && err.contains("usage:"), "{bad:?}: {err}");
    }
}

#[test]
fn perft_from_the_command_line() {
    let (code, out, _) = run(&["perft", "1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes 16 "), "{out}");
    let (code, out, _) = run(&["perft", "2", "x5o/7/2-1-2/7/2-1-2/7/o5x", "x", "0", "1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes 196 "), "{out}");
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

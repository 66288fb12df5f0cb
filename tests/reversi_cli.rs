//! The `reversi` command line: `solve FILE` on an FFO position, `--ugi` with
//! `query result`, `perft`, `--display` (the board served beside stdin), and the remote-play
//! options (`--remote-timeout`, `--listen`), and NBoard chosen by its first command or
//! by `--nboard`.

use engine::games::reversi::Position;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start reversi");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
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

#[test]
fn solve_refuses_bad_input() {
    let o = run(&["solve", "/nonexistent/reversi.obf"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["solve"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn ugi_query_result_on_a_finished_position() {
    let o = run(
        &["--ugi"],
        "ugi\nisready\nposition fen 4x3/3x4/1xxxx3/3xxx2/3xx3/3x4/3x4/8 o\nquery result\n\
         position startpos\nquery result\nquit\n",
    );
    assert!(o.status.success());
    let out = stdout(&o);
    let responses: Vec<&str> = out.lines().filter(|l| l.starts_with("response")).collect();
    assert_eq!(responses, ["response p1win", "response none"], "{out}");
    assert!(out.contains("ugiok") && out.contains("readyok"));
}

#[test]
fn perft_and_display() {
    let o = run(&["perft", "6"], "");
    assert!(stdout(&o).starts_with("nodes 8200 "), "{}", stdout(&o));
    // The board is served beside stdin, which still works: `quit` ends it.
    let o = run(&["--display"], "quit\n");
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/?token="));
}

#[test]
fn remote_play_options() {
    for bad in [
        &["--remote-timeout", "0"][..],
        &["--remote-timeout", "x"][..],
        &["--remote-timeout"][..],
        &["--listen", "localhost"][..],
    ] {
        let o = run(bad, "");
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--remote-timeout SECONDS"));
    }
    let help = run(&["--help"], "");
    assert!(help.status.success());
    assert!(stdout(&help).contains("--listen ADDR"));
    // The options go with any invocation; the text language then runs as usual.
    let o = run(
        &["--remote-timeout", "2.5", "--listen", "0.0.0.0"],
        "d3\ndump\n",
    );
    assert!(o.status.success());
    assert!(stdout(&o).contains("Moves: 1"));
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

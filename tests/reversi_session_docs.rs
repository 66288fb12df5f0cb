//! The Reversi sessions shown in README.md and protocol.md are real: each block marked
//! `<!-- session: reversi [ARGS] -->` is piped into `reversi` (lines starting with `> `
//! are the input) and its stdout must equal the block's other lines.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_reversi");

fn check(file: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("documentation file");
    let lines: Vec<&str> = text.lines().collect();
    let mut found = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("<!-- session: reversi") else {
            continue;
        };
        let args: Vec<&str> = rest.trim_end_matches("-->").split_whitespace().collect();
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "{file}:{}: a session marker must be followed by a code block",
            i + 1
        );
        let body: Vec<&str> = lines[i + 2..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .copied()
            .collect();
        let (input, output): (Vec<&str>, Vec<&str>) =
            body.iter().partition(|l| l.starts_with("> "));
        let input: String = input.iter().map(|l| format!("{}\n", &l[2..])).collect();
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start reversi");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{file}:{}", i + 1);
        let got = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            got.lines().collect::<Vec<_>>(),
            output,
            "{file}:{}: the documented output is stale",
            i + 1
        );
        found += 1;
    }
    found
}

#[test]
fn reversi_sessions_in_the_docs_are_real() {
    assert!(check("README.md") >= 1);
    assert!(check("protocol.md") >= 1);
}

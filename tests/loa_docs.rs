//! The Lines of Action sessions shown in README.md and protocol.md are real: each block
//! marked `<!-- session: loa [ARGS] -->` is piped into `loa` (lines starting with `> `
//! are the input) and the program's stdout must equal the block's other lines, except
//! lines starting with `[stderr] `, `Error: ` or `Note: `, which are its stderr (without
//! the `[stderr] ` mark). A change in behaviour (an AI that now plays another move, a
//! new message) fails here until the documentation shows it.

mod loa_harness_support;

use loa_harness_support::BIN;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Session {
    place: String,
    args: Vec<String>,
    input: String,
    stdout: Vec<String>,
    stderr: Vec<String>,
}

fn sessions(file: &str) -> Vec<Session> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("documentation file");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("<!-- session: loa") else {
            continue;
        };
        let args = rest
            .trim_end_matches("-->")
            .split_whitespace()
            .map(String::from)
            .collect();
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "{file}:{}: a session marker must be followed by a code block",
            i + 1
        );
        let mut s = Session {
            place: format!("{file}:{}", i + 1),
            args,
            input: String::new(),
            stdout: Vec::new(),
            stderr: Vec::new(),
        };
        for l in lines[i + 2..].iter().take_while(|l| !l.starts_with("```")) {
            if let Some(cmd) = l.strip_prefix("> ") {
                s.input.push_str(cmd);
                s.input.push('\n');
            } else if let Some(e) = l.strip_prefix("[stderr] ") {
                s.stderr.push(e.to_string());
            } else if l.starts_with("Error: ") || l.starts_with("Note: ") {
                s.stderr.push(l.to_string());
            } else {
                s.stdout.push(l.to_string());
            }
        }
        out.push(s);
    }
    out
}

fn check(file: &str) -> usize {
    let found = sessions(file);
    for s in &found {
        let mut child = Command::new(BIN)
            .args(&s.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting loa");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(s.input.as_bytes())
            .expect("writing the input");
        drop(stdin);
        let out = child.wait_with_output().expect("loa's output");
        assert!(
            out.status.success(),
            "{}: exit status {}",
            s.place,
            out.status
        );
        let lines = |b: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(b)
                .lines()
                .map(String::from)
                .collect()
        };
        assert_eq!(lines(&out.stdout), s.stdout, "{}: stale stdout", s.place);
        assert_eq!(lines(&out.stderr), s.stderr, "{}: stale stderr", s.place);
    }
    found.len()
}

#[test]
fn readme_loa_sessions_are_real() {
    assert!(check("README.md") >= 1);
}

#[test]
fn protocol_loa_sessions_are_real() {
    assert!(check("protocol.md") >= 1);
}

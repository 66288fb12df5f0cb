//! The sessions shown in README.md and protocol.md are real: each block marked
//! `<!-- session: ataxx [ARGS] -->` is piped into the program (lines starting with `> `
//! are the input) and the program's stdout must equal the block's other lines. A change
//! in behaviour (an AI that now plays another move, a new message) fails here until
//! the documentation shows it.

mod common;

use common::Engine;
use std::path::Path;
use std::time::Duration;

/// One documented session: where it is, the program's arguments, input and output.
struct Session {
    place: String,
    args: Vec<String>,
    input: Vec<String>,
    output: Vec<String>,
}

fn sessions(file: &str) -> Vec<Session> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("documentation file");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("<!-- session: ataxx") else {
            continue;
        };
        let args = rest
            .trim_end_matches("-->")
            .split_whitespace()
            .map(String::from)
            .collect();
        let open = i + 1;
        assert!(
            lines.get(open).is_some_and(|l| l.starts_with("```")),
            "{file}:{}: a session marker must be followed by a code block",
            i + 1
        );
        let body: Vec<&str> = lines[open + 1..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .copied()
            .collect();
        let (input, output) = body
            .iter()
            .partition::<Vec<&str>, _>(|l| l.starts_with("> "));
        out.push(Session {
            place: format!("{file}:{}", i + 1),
            args,
            input: input.iter().map(|l| l[2..].to_string()).collect(),
            output: output.iter().map(|l| l.to_string()).collect(),
        });
    }
    out
}

fn check(file: &str) -> usize {
    let found = sessions(file);
    for s in &found {
        let args: Vec<&str> = s.args.iter().map(String::as_str).collect();
        let engine = Engine::spawn(&args);
        for line in &s.input {
            engine.send(line);
        }
        let t = engine.finish(Duration::from_secs(60));
        assert!(t.status.success(), "{}: exit status {}", s.place, t.status);
        assert_eq!(
            t.lines, s.output,
            "{}: the documented output is stale",
            s.place
        );
    }
    found.len()
}

#[test]
fn readme_sessions_are_real() {
    assert!(check("README.md") >= 1);
}

#[test]
fn protocol_sessions_are_real() {
    assert!(check("protocol.md") >= 1);
}

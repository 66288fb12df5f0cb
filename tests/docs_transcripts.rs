//! Every transcript in README.md and protocol.md is real: each code block that shows typed
//! input (`> `), a command line (`$ `) or engine output (`< `) carries a marker on the line
//! before it (before `Terminal 1:` for a two-terminal transcript), and this file replays it
//! against the real binaries. A change in behaviour (an AI that now plays another move, a
//! new message) fails here until the documentation shows it.
//!
//! Markers:
//! - `<!-- session: BIN [ARGS] -->`: the block's `> ` lines are piped into `BIN ARGS`; the
//!   other lines are its stdout. For `loa`, lines starting with `Error: `, `Note: ` or
//!   `[stderr] ` are its stderr (without `[stderr] `). When every output line starts with
//!   `<` (the engine protocols' GUI/engine notation), `< ` is stripped and blank lines are
//!   spacing. Each line is typed once the stdout line shown last before it has appeared,
//!   as the person or GUI in the transcript did.
//! - `<!-- shell -->`: `$ BIN ARGS` lines (BIN one of the game binaries, any path; `  # …`
//!   is a comment) are run and followed by their stdout.
//! - `<!-- remote-session -->`: the next two blocks are two terminals (each starting with
//!   `$ BIN ARGS`), the first hosting the game ID `demo`, the second joining it. Each
//!   terminal's input is typed once the output shown before it has appeared, and `join`
//!   once the host listens. The ID is replaced by one no other test uses.
//!
//! In expected lines `…` stands for any text (times, node rates, ports), and a line that is
//! only `…` for any number of lines.

use crate::common;

use common::{Engine, Next};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Ceiling for one whole transcript (two cores shared with other tests).
const LIMIT: Duration = Duration::from_secs(120);

/// The program a transcript names: one of the registered games' binaries.
fn binary(name: &str) -> String {
    let game = Path::new(name).file_name().and_then(|n| n.to_str());
    engine::variant::Variant::ALL
        .iter()
        .find(|v| Some(v.name()) == game)
        .map(|&v| common::binary(v))
        .unwrap_or_else(|| panic!("a transcript names the unknown program {name:?}"))
}

/// `line` matches `pattern`, where each `…` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    if !line.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// `lines` match `patterns`, where a pattern `…` stands for any number of lines.
fn lines_match(patterns: &[String], lines: &[String]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p == "…" => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((p, rest)) => lines
            .split_first()
            .is_some_and(|(l, more)| line_matches(p, l) && lines_match(rest, more)),
    }
}

fn assert_lines(place: &str, what: &str, patterns: &[String], lines: &[String]) {
    assert!(
        lines_match(patterns, lines),
        "{place}: the documented {what} is stale\n--- documented ---\n{}\n--- actual ---\n{}\n",
        patterns.join("\n"),
        lines.join("\n")
    );
}

/// A code block: the line of its opening fence and its lines.
struct Block {
    line: usize,
    body: Vec<String>,
}

/// The code blocks of a Markdown text, in order.
fn blocks(lines: &[&str], file: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("```") {
            let start = i;
            i += 1;
            let mut body = Vec::new();
            while i < lines.len() && !lines[i].starts_with("```") {
                body.push(lines[i].to_string());
                i += 1;
            }
            assert!(i < lines.len(), "{file}:{}: unclosed code block", start + 1);
            out.push(Block { line: start, body });
        }
        i += 1;
    }
    out
}

fn is_transcript(b: &Block) -> bool {
    b.body
        .iter()
        .any(|l| l.starts_with("> ") || l.starts_with("$ ") || l.starts_with("< "))
}

/// The marker that covers the block starting at `line`, if any.
fn marker(lines: &[&str], line: usize) -> Option<String> {
    let before = |n: usize| line.checked_sub(n).map(|i| lines[i].trim());
    let is_marker = |l: &str| l.starts_with("<!--") && l.ends_with("-->");
    match before(1) {
        Some(l) if is_marker(l) => Some(l.to_string()),
        // The second terminal of a two-terminal transcript: covered by the first's marker.
        Some("Terminal 1:" | "Terminal 2:") => (2..12)
            .filter_map(before)
            .find(|l| l.starts_with("<!-- remote-session"))
            .map(String::from),
        _ => None,
    }
}

/// One line of a session block.
enum Step {
    /// Typed input.
    Type(String),
    /// A stdout line (pattern).
    Out(String),
    /// A stderr line (pattern).
    Err(String),
}

fn steps(bin: &str, body: &[String]) -> Vec<Step> {
    let angle = body
        .iter()
        .filter(|l| !l.starts_with("> "))
        .all(|l| l.starts_with('<') || l.trim().is_empty());
    let mut out = Vec::new();
    for l in body {
        if let Some(typed) = l.strip_prefix("> ") {
            out.push(Step::Type(typed.to_string()));
        } else if angle {
            if !l.trim().is_empty() {
                let shown = l.strip_prefix("< ").unwrap_or(l.trim_start_matches('<'));
                out.push(Step::Out(shown.to_string()));
            }
        } else if bin == "loa" && (l.starts_with("Error: ") || l.starts_with("Note: ")) {
            out.push(Step::Err(l.clone()));
        } else if let Some(e) = l.strip_prefix("[stderr] ") {
            out.push(Step::Err(e.to_string()));
        } else {
            out.push(Step::Out(l.clone()));
        }
    }
    out
}

/// Replays a session as the person or GUI in it did: each line is typed once the last
/// stdout line shown before it has appeared (a GUI waits for `bestmove` before it sends
/// the next `position`), then everything is compared.
fn run_session(place: &str, spec: &str, body: &[String]) {
    let mut words = spec.split_whitespace();
    let bin = words.next().expect("a session names its program");
    let args: Vec<&str> = words.collect();
    let steps = steps(bin, body);
    let engine = Engine::spawn_bin(&binary(bin), &args);
    let deadline = Instant::now() + LIMIT;
    let mut got = Vec::new();
    let mut awaited: Option<&str> = None;
    for step in &steps {
        match step {
            Step::Out(p) if p != "…" => awaited = Some(p),
            Step::Out(_) | Step::Err(_) => {}
            Step::Type(line) => {
                if let Some(p) = awaited.take() {
                    // A line that never comes (stale documentation) costs one short wait.
                    let wait = (Instant::now() + Duration::from_secs(20)).min(deadline);
                    while let Next::Line(l) = engine.next_until(Some(wait)) {
                        let done = line_matches(p, &l);
                        got.push(l);
                        if done {
                            break;
                        }
                    }
                }
                engine.send(line);
            }
        }
    }
    let t = engine.finish(LIMIT);
    got.extend(t.lines);
    let pick = |err: bool| -> Vec<String> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Out(p) if !err => Some(p.clone()),
                Step::Err(p) if err => Some(p.clone()),
                _ => None,
            })
            .collect()
    };
    assert!(t.status.success(), "{place}: exit status {}", t.status);
    assert_lines(place, "stdout", &pick(false), &got);
    if bin == "loa" {
        let err: Vec<String> = t.stderr.lines().map(String::from).collect();
        assert_lines(place, "stderr", &pick(true), &err);
    }
}

/// `$ BIN ARGS  # comment` → (BIN, ARGS).
fn command_line(l: &str) -> (&str, Vec<&str>) {
    let cmd = l.strip_prefix("$ ").expect("a command line");
    let cmd = cmd.split("  #").next().unwrap_or(cmd);
    let mut words = cmd.split_whitespace();
    let bin = words.next().expect("a program");
    (bin, words.collect())
}

fn run_shell(place: &str, body: &[String]) {
    let mut i = 0;
    while i < body.len() {
        let (bin, args) = command_line(&body[i]);
        let out: Vec<String> = body[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ "))
            .cloned()
            .collect();
        i += 1 + out.len();
        let t = Engine::spawn_bin(&binary(bin), &args).finish(LIMIT);
        assert!(
            t.status.success(),
            "{place}: `{bin}` exit status {}",
            t.status
        );
        assert_lines(
            &format!("{place} (`{bin} {}`)", args.join(" ")),
            "output",
            &out,
            &t.lines,
        );
    }
}

/// What the two terminals of a remote transcript share: whether the host listens yet.
type Listening = Arc<(Mutex<bool>, Condvar)>;

/// Plays one terminal of a remote transcript; returns its output lines.
fn play_terminal(body: Vec<String>, id: String, host: bool, listening: Listening) -> Vec<String> {
    let subst = |l: &str| l.replace("demo", &id);
    let (bin, args) = command_line(&body[0]);
    let mut engine = Engine::spawn_bin(&binary(bin), &args);
    let deadline = Instant::now() + LIMIT;
    let mut got = Vec::new();
    let mut shown = 0;
    for l in &body[1..] {
        let Some(typed) = l.strip_prefix("> ") else {
            shown += 1;
            continue;
        };
        // Type the line once the output shown before it has appeared.
        while got.len() < shown {
            match engine.next_until(Some(deadline)) {
                Next::Line(line) => {
                    if host && line.starts_with("Hosting game") {
                        let (flag, cv) = &*listening;
                        *flag.lock().unwrap() = true;
                        cv.notify_all();
                    }
                    got.push(line);
                }
                Next::Eof | Next::Timeout => return got,
            }
        }
        if typed.starts_with("join ") {
            let (flag, cv) = &*listening;
            let mut up = flag.lock().unwrap();
            while !*up {
                let (g, timeout) = cv
                    .wait_timeout(up, deadline.saturating_duration_since(Instant::now()))
                    .unwrap();
                up = g;
                if timeout.timed_out() {
                    return got;
                }
            }
        }
        engine.send(&subst(typed));
        if host && typed.starts_with("host ") {
            // The "Hosting game" line is the next one: wait for it here so the joiner can go on.
            if let Next::Line(line) = engine.next_until(Some(deadline)) {
                let (flag, cv) = &*listening;
                *flag.lock().unwrap() = true;
                cv.notify_all();
                got.push(line);
            }
        }
    }
    // Give the rest of the expected output time to arrive, then end the program.
    while got.len() < shown {
        match engine.next_until(Some(deadline)) {
            Next::Line(line) => got.push(line),
            Next::Eof | Next::Timeout => break,
        }
    }
    engine.close_stdin();
    got.extend(engine.finish(Duration::from_secs(30)).lines);
    got
}

fn run_remote(place: &str, first: &Block, second: &Block) {
    // The game's name is its program's (`port_for` hashes it with the ID).
    let program = command_line(&first.body[0]).0;
    let game = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    let id = common::free_game_id(game, "docs");
    let listening: Listening = Arc::new((Mutex::new(false), Condvar::new()));
    let expected = |b: &Block| -> Vec<String> {
        b.body[1..]
            .iter()
            .filter(|l| !l.starts_with("> "))
            .map(|l| l.replace("demo", &id))
            .collect()
    };
    let (one, two) = (first.body.clone(), second.body.clone());
    let (id1, id2) = (id.clone(), id.clone());
    let (l1, l2) = (listening.clone(), listening.clone());
    let host = thread::spawn(move || play_terminal(one, id1, true, l1));
    let guest = thread::spawn(move || play_terminal(two, id2, false, l2));
    let got1 = host.join().expect("terminal 1");
    let got2 = guest.join().expect("terminal 2");
    // The host's port depends on the machine's free ports: the documented one is an example.
    let ports = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .map(|l| match l.find(" port ") {
                Some(at) => {
                    let tail: String = l[at + 6..]
                        .chars()
                        .skip_while(char::is_ascii_digit)
                        .collect();
                    format!("{} port …{tail}", &l[..at])
                }
                None => l,
            })
            .collect()
    };
    assert_lines(
        &format!("{place} (terminal 1)"),
        "output",
        &ports(expected(first)),
        &got1,
    );
    assert_lines(
        &format!("{place} (terminal 2)"),
        "output",
        &ports(expected(second)),
        &got2,
    );
}

/// Replays every transcript of `file`; returns how many there were.
fn check(file: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("documentation file");
    let lines: Vec<&str> = text.lines().collect();
    let all = blocks(&lines, file);
    let mut count = 0;
    let mut failed = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let b = &all[i];
        let place = format!("{file}:{}", b.line + 1);
        i += 1;
        if !is_transcript(b) {
            continue;
        }
        let m = marker(&lines, b.line).unwrap_or_else(|| {
            panic!("{place}: a transcript without a marker (see tests/docs_transcripts.rs)")
        });
        let m = m.trim_start_matches("<!--").trim_end_matches("-->").trim();
        let second = if m == "remote-session" {
            i += 1;
            Some(
                all.get(i - 1)
                    .unwrap_or_else(|| panic!("{place}: terminal 2 is missing")),
            )
        } else {
            None
        };
        // Replay every transcript, then report all the stale ones at once.
        let replay = std::panic::catch_unwind(|| {
            if let Some(spec) = m.strip_prefix("session:") {
                run_session(&place, spec, &b.body);
            } else if m == "shell" {
                run_shell(&place, &b.body);
            } else if let Some(second) = second {
                run_remote(&place, b, second);
            } else {
                panic!("{place}: unknown marker {m:?}");
            }
        });
        if replay.is_err() {
            failed.push(place);
        }
        count += 1;
    }
    assert!(
        failed.is_empty(),
        "stale transcripts (details above): {failed:?}"
    );
    count
}

#[test]
fn every_readme_transcript_is_real() {
    assert!(check("README.md") >= 5);
}

#[test]
fn every_protocol_transcript_is_real() {
    assert!(check("protocol.md") >= 10);
}

#[test]
fn patterns() {
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(line_matches(
        "nodes 5 time … nps …",
        "nodes 5 time 12 nps 400"
    ));
    assert!(!line_matches(
        "nodes 5 time … nps …",
        "nodes 6 time 12 nps 400"
    ));
    assert!(line_matches("a…b…c", "abc"));
    assert!(!line_matches("a…a", "a"));
    assert!(lines_match(&v(&["x", "…", "y"]), &v(&["x", "1", "2", "y"])));
    assert!(lines_match(&v(&["x", "…", "y"]), &v(&["x", "y"])));
    assert!(!lines_match(&v(&["x", "…", "y"]), &v(&["x", "y", "z"])));
}

/// The facts of item 15 of the issue that a clone can check: every specification the docs
/// cite from the reference library (`specs/NAME.md`, absent from a clone) is explained in
/// the README's "Specifications"; the README's Rust version is the one `Cargo.toml`
/// declares; the docs run the test suites with the README's `--profile ci`; each openings
/// book names a file that exists as the source of the tool that made it.
#[test]
fn doc_references_resolve_in_a_clone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read =
        |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let readme = read("README.md");
    let specs_section = readme
        .split("\n## Specifications\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README.md has a Specifications section");
    let mut docs = vec![
        "README.md".to_string(),
        "protocol.md".into(),
        "tournament/README.md".into(),
    ];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            docs.push(format!("docs/{name}"));
        }
    }
    for doc in &docs {
        let text = read(doc);
        for (i, _) in text.match_indices("specs/") {
            let name: String = text[i + 6..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
                .collect();
            let name = name.trim_end_matches('.');
            assert!(
                specs_section.contains(&format!("specs/{name}")),
                "{doc} cites specs/{name}, which the README's Specifications does not explain"
            );
        }
        for line in text.lines() {
            assert!(
                !line.contains("cargo test --release --test"),
                "{doc}: run the suites as the README does (--profile ci): {line}"
            );
        }
    }

    let manifest = read("Cargo.toml");
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml declares rust-version");
    assert!(
        readme.contains(&format!("Rust {version} or newer")),
        "README.md does not state the minimum Rust version {version}"
    );

    for entry in std::fs::read_dir(root.join("tournament/openings")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let header: String = text.lines().take_while(|l| l.starts_with('#')).collect();
        let cites = ["(tournament/", "(tune/", "(src/"];
        if let Some(start) = cites.iter().find_map(|c| header.find(c)) {
            let cited = &header[start + 1..];
            let cited = &cited[..cited.find(')').unwrap()];
            assert!(
                root.join(cited).exists(),
                "{}: names {cited}, which does not exist",
                path.display()
            );
        }
    }
}

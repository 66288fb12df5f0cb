//! The board page in a real browser: headless Chromium driven through chromedriver's
//! WebDriver JSON API (a small sync client: minreq + serde_json). For each game: the
//! seed tool (and Ataxx's blocks clicked in set-up), the command box, moves made by
//! clicking squares, the AI's answer on the board and in
//! the log, the AI's search report beside the board, the study tools (a hint drawn, the
//! analysis scoring every legal move, stepping back through the moves and forward
//! again, the PGN copied and read back by the tournament runner), undo, a side switched to the AI
//! (which then plays the game out), the
//! result line on the page matching the one on stdout, a reload showing the same
//! game, and a request from a foreign origin refused. Screenshots go to
//! `target/display-<game>.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver`: `.ci/run` installs them and runs
//! `cargo test --profile ci --test tests browser:: -- --ignored`; without them each test
//! says so and passes.

use crate::common::{self, Engine};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(30);
/// A whole AI-against-AI game after the switch.
const GAME: Duration = Duration::from_secs(300);
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_program(names: &[&str]) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    names.iter().find_map(|n| {
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| p.is_file())
            .map(|p| p.to_string_lossy().into_owned())
    })
}

/// chromedriver and one browser session; both end when dropped.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    /// The browser's profile, removed at the end.
    profile: std::path::PathBuf,
}

impl Browser {
    /// `None` (with a notice) where chromium or chromedriver is missing. `tag` names
    /// the browser's fresh profile (tests in parallel each have their own).
    fn start(tag: &str) -> Option<Browser> {
        let (Some(driver), Some(chromium)) = (
            find_program(&["chromedriver"]),
            find_program(&["chromium", "chromium-browser"]),
        ) else {
            eprintln!(
                "NOTICE: skipping the browser test: chromium and chromedriver are not \
                 installed (apt-get install chromium chromium-driver; .ci/run does)"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + T;
        while minreq::get(format!("{base}/status"))
            .with_timeout(2)
            .send()
            .map_or(true, |r| r.status_code != 200)
        {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile =
            std::env::temp_dir().join(format!("display-chromium-{}-{tag}", std::process::id()));
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=960,700",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium, "args": args}}}});
        let mut b = Browser {
            driver: child,
            base,
            session: String::new(),
            profile,
        };
        let r = b.call("POST", "/session", Some(caps));
        b.session = r["value"]["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let req = match method {
            "POST" => minreq::post(url).with_body(body.unwrap_or(json!({})).to_string()),
            "DELETE" => minreq::delete(url),
            _ => minreq::get(url),
        };
        let r = req
            .with_header("Content-Type", "application/json")
            .with_timeout(60)
            .send()
            .expect("chromedriver answers");
        let v: Value = serde_json::from_str(r.as_str().unwrap()).unwrap();
        if v["value"]["error"].is_string() {
            panic!("WebDriver {method} {path}: {}", v["value"]);
        }
        v
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body)["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn click(&self, css: &str) {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e[ELEMENT].as_str().expect("an element").to_string();
        self.cmd("POST", &format!("/element/{id}/click"), None);
    }

    /// Types `text` into the input `css`, then clicks `button`.
    fn type_and_click(&self, css: &str, text: &str, button: &str) {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {e}"))
            .to_string();
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
        self.click(button);
    }

    fn type_line(&self, line: &str) {
        self.type_and_click("#cmd", line, "#send");
    }

    /// Waits until the page's log shows `text`.
    fn log_until(&self, text: &str) {
        let deadline = Instant::now() + T;
        while !self.log_text().contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text} not in the log: {}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The page's current view (what it drew).
    fn view(&self) -> Value {
        self.js("return typeof view === 'undefined' ? null : view;")
    }

    fn view_until(&self, what: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let v = self.view();
            if !v.is_null() && done(&v) {
                return v;
            }
            assert!(Instant::now() < deadline, "waiting for {what}: {v}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn log_text(&self) -> String {
        self.js("return document.getElementById('log').innerText;")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn screenshot(&self, file: &str) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = minreq::delete(format!("{}{path}", self.base))
                .with_timeout(10)
                .send();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (value(c) as u32) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn manual_turn(v: &Value) -> bool {
    v["clickable"] == true && v["mode"] == "playing" && v["to_move"] == 0
}

/// One game on the page, as a person plays it.
/// The seed tool sends `seed N`, which the session takes (its echo in the log, and no
/// error line after it).
fn seed_by_tool(b: &Browser) {
    b.type_and_click("#seed", "7", "#seed-set");
    b.log_until("seed 7");
    assert!(!b.log_text().contains("rror"), "{}", b.log_text());
}

/// Ataxx's set-up tool: with "Block squares" on, a click on b2 blocks it and its three
/// reflections (`block b2`); a second click on the button turns it off.
fn block_by_clicking(b: &Browser) {
    seed_by_tool(b);
    b.click("#block");
    b.click("rect[data-name='b2']");
    let v = b.view_until("the blocks", T, |v| {
        v["cells"].as_str().is_some_and(|c| c.contains('#'))
    });
    let cells = v["cells"].as_str().unwrap();
    let blocked: Vec<usize> = cells.match_indices('#').map(|(i, _)| i).collect();
    // b2, f2, b6, f6 as the page numbers squares (row by row from the top, 7 wide).
    assert_eq!(blocked, [8, 12, 36, 40], "{cells}");
    b.click("#block");
}

/// The pieces the board shows, as the view's cells write them (other squares `.`).
fn drawn_pieces(b: &Browser) -> String {
    let cells = b.js(
        "const cells = Array(view.width * view.height).fill('.');\
         document.querySelectorAll('#board .piece').forEach(p => cells[+p.dataset.sq] = p.dataset.side);\
         return cells.join('');",
    );
    cells.as_str().unwrap().to_string()
}

fn pieces_of(cells: &str) -> String {
    cells
        .chars()
        .map(|c| if c == '0' || c == '1' { c } else { '.' })
        .collect()
}

/// Waits until `script` (an expression) is true on the page.
fn js_until(b: &Browser, what: &str, limit: Duration, script: &str) {
    let deadline = Instant::now() + limit;
    loop {
        if b.js(&format!("return !!({script});")) == json!(true) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "waiting for {what}: analysis {} record {}",
            b.js("return analysis;"),
            b.js("return record && record.plies.length;")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The study tools, with the person to move after the AI's answer: a hint drawn on the
/// board, the analysis scoring every legal move (and turned off), the move list
/// stepped back to an earlier position and forward to the current one, and the game
/// copied as PGN, which the tournament runner reads back as an opening book.
fn study(b: &Browser, name: &str, start: &Value) {
    let v = b.view();
    // A hint: the best move of the position shown, ringed on the board.
    b.click("#hint");
    js_until(
        b,
        "the hint",
        T,
        "analysis && analysis.kind === 'hint' && analysis.done && analysis.ply === shownPly()",
    );
    let rings = b.js("return document.querySelectorAll('#board .hint').length;");
    assert!(rings.as_u64().unwrap() >= 1, "no hint drawn");
    let hint = b.js("return analysis.moves[0];");
    let targets: std::collections::BTreeSet<u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m[1].as_u64())
        .collect();
    assert!(
        hint["to"].as_u64().is_some_and(|t| targets.contains(&t)),
        "{hint}"
    );
    // The analysis: every legal move scored, its score on its square.
    b.click("#analyse");
    js_until(
        b,
        "the analysis",
        T,
        "analysis && analysis.kind === 'analyse' && analysis.ply === shownPly() && analysis.depth >= 2",
    );
    let a = b.js("return analysis;");
    let moves = a["moves"].as_array().unwrap();
    let scored: std::collections::BTreeSet<u64> =
        moves.iter().filter_map(|m| m["to"].as_u64()).collect();
    assert_eq!(scored, targets, "{a}");
    let names: std::collections::BTreeSet<&str> =
        moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names.len(), moves.len(), "{a}");
    assert!(moves
        .iter()
        .all(|m| m["score"].is_string() && m["short"].is_string()));
    let labels = b.js("return document.querySelectorAll('#board .score').length;");
    assert_eq!(labels.as_u64().unwrap() as usize, targets.len());
    let listed = b.js("return document.querySelectorAll('#analysis .rated').length;");
    assert_eq!(listed.as_u64().unwrap() as usize, moves.len());
    b.screenshot(&format!("display-{name}.png"));
    b.click("#analyse");
    js_until(b, "the analysis off", T, "analysis === null");
    // Back through the moves: the earlier positions drawn read-only, then forward.
    let plies = b.js("return record.plies;");
    let plies = plies.as_array().unwrap();
    let last = plies.len() - 1;
    assert!(last >= 2, "{plies:?}");
    assert_eq!(
        pieces_of(plies[0]["cells"].as_str().unwrap()),
        pieces_of(start["cells"].as_str().unwrap())
    );
    b.click("#prev");
    js_until(
        b,
        "one move back",
        T,
        &format!("shownPly() === {}", last - 1),
    );
    assert_eq!(
        drawn_pieces(b),
        pieces_of(plies[last - 1]["cells"].as_str().unwrap())
    );
    let banner = b.js("return document.getElementById('browsing').hidden;");
    assert_eq!(banner, json!(false));
    b.click("#first");
    js_until(b, "the first position", T, "shownPly() === 0");
    assert_eq!(drawn_pieces(b), pieces_of(start["cells"].as_str().unwrap()));
    clicks_on_an_earlier_position_do_nothing(b, &v);
    b.click(&format!("#moves .mv[data-ply='{}']", last - 1));
    js_until(
        b,
        "a clicked move",
        T,
        &format!("shownPly() === {}", last - 1),
    );
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'})); return 0;");
    js_until(
        b,
        "forward to the current position",
        T,
        &format!("shownPly() === {last} && !browsing()"),
    );
    assert_eq!(drawn_pieces(b), pieces_of(v["cells"].as_str().unwrap()));
    // The game as PGN, read back by the tournament runner as an opening book.
    b.click("#copy-pgn");
    let pgn = b.js("return document.getElementById('clip').value;");
    let pgn = pgn.as_str().unwrap().to_string();
    assert_eq!(json!(pgn), b.js("return record.pgn;"));
    runner_reads_back(name, &pgn, plies[last]["fen"].as_str().unwrap());
}

/// Issue 53 item 1: with an earlier position shown, a person clicks a move that is legal
/// in the live game (`live`, the view the person is to move in): nothing is played,
/// the move list and the live board stay as they were. Then item 2: a paste with
/// nothing readable is refused (its line in the page's log) and the game is untouched.
fn clicks_on_an_earlier_position_do_nothing(b: &Browser, live: &Value) {
    let plies = b.js("return record.plies.length;");
    let mv = &live["moves"][0];
    if let Some(from) = mv[0].as_u64() {
        b.click(&format!("rect[data-sq='{from}']"));
    }
    b.click(&format!("rect[data-sq='{}']", mv[1]));
    // A move sent would have reached the session by now (it plays in milliseconds).
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        b.js("return record.plies.length;"),
        plies,
        "a move was played"
    );
    assert_eq!(b.view()["cells"], live["cells"], "the live board changed");
    assert_eq!(b.js("return shownPly();"), json!(0));
    for junk in ["hello world", "garbage!!"] {
        b.type_and_click("#paste-text", junk, "#paste");
        b.log_until("cannot paste: word 1");
        b.js("document.getElementById('paste-text').value = ''; return 0;");
        assert_eq!(b.js("return record.plies.length;"), plies, "{junk}");
        assert_eq!(b.view()["cells"], live["cells"], "{junk}");
        assert!(manual_turn(&b.view()), "{junk}: {}", b.view());
    }
    b.click("#first");
}

/// The tournament runner (built beside this test's binaries when missing) takes `pgn`
/// as a PGN opening book: one game from it, which starts where the copied game
/// stands (`fen`, the FEN of its last position).
fn runner_reads_back(name: &str, pgn: &str, fen: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let book = dir.join(format!("display-{name}.pgn"));
    std::fs::write(&book, pgn).unwrap();
    let runner = tournament_binary();
    let results = dir.join(format!("display-{name}-results.jsonl"));
    let _ = std::fs::remove_file(&results);
    let variant = if name.starts_with("ataxx") {
        "ataxx"
    } else {
        name
    };
    let o = Command::new(&runner)
        .args([
            "-variant",
            variant,
            "-engine",
            "builtin=greedy",
            "-engine",
            "builtin=random",
        ])
        .args(["-games", "1", "-results"])
        .arg(&results)
        .arg("-openings")
        .arg(format!("file={}", book.display()))
        .arg("format=pgn")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{pgn}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = std::fs::read_to_string(&results).unwrap();
    let record: Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    assert_eq!(record["fen"], json!(fen), "{line}");
}

/// The runner's binary beside this test's engine binaries, built with their profile.
fn tournament_binary() -> std::path::PathBuf {
    testkit::sibling_binary(common::BIN, "tournament", "tournament")
}

fn game(
    name: &str,
    bin: &str,
    args: &[&str],
    tools: fn(&Browser),
    setup: &[&str],
    ai_line: &str,
    results: &[&str],
) {
    let Some(b) = Browser::start(name) else {
        return;
    };
    let mut all = vec!["--display"];
    all.extend(args);
    let engine = Engine::spawn_bin(bin, &all);
    let deadline = Instant::now() + T;
    let url = loop {
        let err = engine.stderr_tail(4096);
        if let Some(at) = err.find("http://") {
            break err[at..].split_whitespace().next().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "no address on stderr");
        std::thread::sleep(Duration::from_millis(20));
    };
    b.goto(&url);
    b.view_until("the first view", T, |_| true);
    // The set-up tools, then the command box, which sends any line of the language.
    tools(&b);
    for line in setup {
        b.type_line(line);
    }
    let start = b.view_until("the person's turn", T, manual_turn);
    // A move by clicking: the piece, then its target (Reversi: the square).
    let mv = start["moves"][0].clone();
    if let Some(from) = mv[0].as_u64() {
        b.click(&format!("rect[data-sq='{from}']"));
        let targets = b.js("return document.querySelectorAll('.target').length;");
        assert!(
            targets.as_u64().unwrap() >= 1,
            "legal moves shown on selection"
        );
    }
    b.click(&format!("rect[data-sq='{}']", mv[1]));
    // The AI answers: on stdout, on the board and in the page's log.
    engine.wait_for(T, |l| l.contains(ai_line));
    let answered = b.view_until("the AI's answer", T, |v| {
        manual_turn(v)
            && v["cells"] != start["cells"]
            && v["last"].as_array().is_some_and(|l| !l.is_empty())
    });
    assert!(b.log_text().contains(ai_line), "{}", b.log_text());
    // Beside the board, the report behind the AI's move: depth, score, its line.
    let t = b.js("return thinking;");
    assert!(
        t["done"] == json!(true)
            && t["depth"].as_u64().is_some_and(|d| d >= 1)
            && t["pv"].as_array().is_some_and(|pv| !pv.is_empty())
            && t["score"].is_string(),
        "{t}"
    );
    let shown = b.js("return document.getElementById('thinking').innerText;");
    assert!(
        shown
            .as_str()
            .is_some_and(|s| s.contains("(AI) played: depth")),
        "{shown}"
    );
    study(&b, name, &start);
    // Undo: back to the start, the person to move.
    b.click("#undo");
    b.view_until("undo", T, |v| {
        v["cells"] == start["cells"] && manual_turn(v)
    });
    assert_ne!(answered["cells"], start["cells"]);
    // The person's side to the AI: the game plays out to its result.
    b.click("#ai0");
    let end = b.view_until("the result", GAME, |v| v["result"].is_string());
    let result = end["result"].as_str().unwrap().to_string();
    assert!(results.contains(&result.as_str()), "{result}");
    engine.wait_for(T, |l| l.trim_end().ends_with(&result));
    let shown = b.js("return document.getElementById('result').textContent;");
    assert_eq!(shown, json!(result));
    // A reload shows the same game (the state is the server's).
    b.goto(&url);
    b.view_until("the game after a reload", T, |v| {
        v["result"] == json!(result)
    });
    // Another site's page cannot drive the engine: its request is refused.
    let (base, token) = url.split_once("/?token=").unwrap();
    b.goto("data:text/html,<p>elsewhere</p>");
    let sent = b.cmd(
        "POST",
        "/execute/async",
        Some(json!({"script": format!(
            "const done = arguments[0]; fetch('{base}/action?token={token}', \
             {{method: 'POST', body: 'new', mode: 'no-cors'}}).then(() => done('sent'), e => done('failed: ' + e));"),
            "args": []})),
    );
    assert!(sent.is_string(), "{sent}");
    let state = minreq::get(format!("{base}/state?token={token}"))
        .with_timeout(10)
        .send()
        .unwrap();
    let state: Value = serde_json::from_str(state.as_str().unwrap()).unwrap();
    assert_eq!(
        state["view"]["result"],
        json!(result),
        "the foreign request acted"
    );
    let log = state["log"].to_string();
    assert!(!log.contains("[page] new"), "{log}");
    engine.send("quit");
    assert!(engine.expect_exit(T).success());
}

#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_ataxx() {
    let results = ["Red wins.", "Blue wins.", "Draw."];
    game(
        "ataxx",
        common::BIN,
        &[],
        block_by_clicking,
        &["start"],
        "Blue moves",
        &results,
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_ataxx2008() {
    let results = ["Red wins.", "Blue wins.", "Draw."];
    game(
        "ataxx2008",
        common::BIN,
        &["--edition", "2008"],
        seed_by_tool,
        &["start"],
        "Blue moves",
        &results,
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_ataxx2022() {
    let results = ["* Red wins.", "* Blue wins.", "* Draw."];
    game(
        "ataxx2022",
        common::BIN,
        &["--edition", "2022"],
        seed_by_tool,
        &[],
        "* Blue moves",
        &results,
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_loa() {
    let results = ["* Black wins.", "* White wins.", "* Tie game."];
    game(
        "loa",
        env!("CARGO_BIN_EXE_loa"),
        &[],
        seed_by_tool,
        &[],
        "* ",
        &results,
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_reversi() {
    let results = ["Black wins.", "White wins.", "Draw."];
    game(
        "reversi",
        env!("CARGO_BIN_EXE_reversi"),
        &[],
        seed_by_tool,
        &["start"],
        "White moves",
        &results,
    );
}

/// The rows of an Ordo-layout rating list (`tournament rate`'s text): name → (rating,
/// error), as printed.
fn rating_rows(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|l| {
            let (head, tail) = l.split_once(" :")?;
            let mut head = head.split_whitespace();
            head.next()?.parse::<u32>().ok()?;
            let name = head.next()?.to_string();
            let mut cells = tail.split_whitespace();
            Some((name, cells.next()?.to_string(), cells.next()?.to_string()))
        })
        .filter(|r| r.1.parse::<f64>().is_ok())
        .collect()
}

/// `-report html=FILE`'s page in a real browser: it renders (the error bars, the cross
/// table coloured by score, the score chart; for an SPRT run the LLR chart with its
/// bounds), and the numbers it shows are the text report's: the rating list of
/// `tournament rate` on the run's results file, and the SPRT's final LLR.
#[test]
#[ignore = "needs chromium and chromium-driver: run by .ci/run"]
fn browser_rating_page() {
    let Some(b) = Browser::start("rating") else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).unwrap();
    let runner = tournament_binary();
    let ataxx = format!("cmd={}", common::BIN);
    let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tournament/openings/ataxx-openings.txt");
    let run = |tag: &str, engines: &[&str], more: &[&str]| {
        let results = dir.join(format!("rating-{tag}.jsonl"));
        let page = dir.join(format!("rating-{tag}.html"));
        let _ = std::fs::remove_file(&results);
        let o = Command::new(&runner)
            .args(engines)
            .args(more)
            .arg("-openings")
            .arg(format!("file={}", book.display()))
            .arg("-results")
            .arg(&results)
            .arg("-report")
            .arg(format!("html={}", page.display()))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let rate = Command::new(&runner)
            .arg("rate")
            .arg(&results)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(rate.status.code(), Some(0));
        (
            page,
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&rate.stdout).into_owned(),
        )
    };
    // A round robin of three.
    let engines = [
        "-engine",
        &ataxx,
        "name=d1",
        "depth=1",
        "-engine",
        &ataxx,
        "name=d2",
        "depth=2",
        "-engine",
        "builtin=greedy",
    ];
    let (page, _, text) = run(
        "rr",
        &engines,
        &["-games", "2", "-rounds", "4", "-repeat", "-maxmoves", "40"],
    );
    let rows = rating_rows(&text);
    assert_eq!(rows.len(), 3, "{text}");
    b.goto(&format!("file://{}", page.display()));
    let shown = b.js(
        "return [...document.querySelectorAll('#ratings tr')].slice(1).map(r => \
         [...r.cells].map(c => c.innerText));",
    );
    let shown: Vec<(String, String, String)> = shown
        .as_array()
        .expect("the table's rows")
        .iter()
        .map(|r| {
            let cell = |i: usize| r[i].as_str().unwrap().to_string();
            (cell(1), cell(2), cell(3))
        })
        .collect();
    assert_eq!(shown, rows, "the page's list against the text's:\n{text}");
    // Drawn: a dot and a bar per engine, at the ratings shown; the cross table's cells
    // coloured; a line per engine in the score chart.
    let drawn = b.js(
        "const dots = [...document.querySelectorAll('#error-bars circle')];\
         return {dots: dots.map(c => [c.dataset.name, c.dataset.rating, c.getBBox().width]),\
                 bars: document.querySelectorAll('#error-bars line[stroke-width]').length,\
                 coloured: [...document.querySelectorAll('#cross td[style]')].length,\
                 lines: document.querySelectorAll('#score-chart polyline').length,\
                 width: document.getElementById('error-bars').getBoundingClientRect().width,\
                 llr: document.getElementById('llr-chart') !== null};",
    );
    assert_eq!(drawn["dots"].as_array().unwrap().len(), 3, "{drawn}");
    for (dot, row) in drawn["dots"].as_array().unwrap().iter().zip(&rows) {
        assert_eq!(dot[0].as_str().unwrap(), row.0);
        let r: f64 = dot[1].as_str().unwrap().parse().unwrap();
        assert!(
            (r - row.1.parse::<f64>().unwrap()).abs() <= 0.051,
            "{dot} {row:?}"
        );
        assert!(dot[2].as_f64().unwrap() > 0.0, "not drawn: {drawn}");
    }
    assert_eq!(drawn["bars"], json!(3), "{drawn}");
    assert_eq!(drawn["coloured"], json!(6), "{drawn}");
    assert_eq!(drawn["lines"], json!(3), "{drawn}");
    assert!(drawn["width"].as_f64().unwrap() > 100.0, "{drawn}");
    assert_eq!(drawn["llr"], json!(false));
    b.screenshot("rating-page.png");
    // An SPRT run of two: the LLR chart ends at the report's LLR, between its bounds.
    let (page, out, _) = run(
        "sprt",
        &engines[..8],
        &[
            "-games", "2", "-rounds", "30", "-repeat", "-sprt", "elo0=0", "elo1=20",
        ],
    );
    let llr = out
        .lines()
        .find_map(|l| {
            l.split_once(": LLR ")
                .map(|(_, r)| r.split_whitespace().next().unwrap().to_string())
        })
        .expect("the SPRT line");
    b.goto(&format!("file://{}", page.display()));
    let chart = b.js(
        "const l = document.getElementById('llr-line');\
         return {last: l.dataset.last, points: l.points.length, width: l.getBBox().width,\
                 bounds: [...document.querySelectorAll('#llr-chart line[stroke-dasharray]')].length};",
    );
    assert_eq!(chart["last"].as_str().unwrap(), llr, "{chart}\n{out}");
    assert!(
        chart["points"].as_u64().unwrap() > 2 && chart["width"].as_f64().unwrap() > 0.0,
        "{chart}"
    );
    assert_eq!(chart["bounds"], json!(2), "{chart}");
    b.screenshot("rating-page-sprt.png");
}

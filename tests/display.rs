//! `--display` through the real binaries: the page's address on stderr, a line posted
//! by the page reaches the session (its output comes back on stdout and in the page's
//! log), the AI answers, the page's undo and AI/manual switches act on the same
//! session, stdin keeps working beside it, and `quit` from the page ends the program.

use crate::common::{self, Engine};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(30);

/// A running `--display` program and its page's address.
struct Board {
    engine: Engine,
    base: String,
    token: String,
}

impl Board {
    fn start(bin: &str, args: &[&str]) -> Board {
        let mut all = vec!["--display", "--port", "0"];
        all.extend(args);
        let engine = Engine::spawn_bin(bin, &all);
        let deadline = Instant::now() + T;
        loop {
            let err = engine.stderr_tail(4096);
            if let Some(at) = err.find("http://") {
                let url = err[at..].split_whitespace().next().unwrap().to_string();
                let (base, token) = url.split_once("/?token=").expect("the token in the URL");
                assert!(base.starts_with("http://127.0.0.1:"), "{url}");
                return Board {
                    base: base.to_string(),
                    token: token.to_string(),
                    engine,
                };
            }
            assert!(Instant::now() < deadline, "no address on stderr: {err}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn post(&self, path: &str, body: &str) -> i32 {
        minreq::post(format!("{}{path}?token={}", self.base, self.token))
            .with_body(body)
            .with_timeout(30)
            .send()
            .unwrap()
            .status_code
    }

    fn command(&self, line: &str) {
        assert_eq!(self.post("/command", line), 204, "{line}");
    }

    fn action(&self, action: &str) {
        assert_eq!(self.post("/action", action), 204, "{action}");
    }

    fn state(&self) -> Value {
        let r = minreq::get(format!("{}/state?token={}", self.base, self.token))
            .with_timeout(30)
            .send()
            .unwrap();
        assert_eq!(r.status_code, 200);
        serde_json::from_str(r.as_str().unwrap()).unwrap()
    }

    /// Waits until the view satisfies `done`; returns it.
    fn view_until(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + T;
        loop {
            let v = self.state()["view"].clone();
            if done(&v) {
                return v;
            }
            assert!(Instant::now() < deadline, "waiting for {what}: {v}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The page itself (`/`).
    fn page(&self) -> String {
        let r = minreq::get(format!("{}/?token={}", self.base, self.token))
            .with_timeout(30)
            .send()
            .unwrap();
        assert_eq!(r.status_code, 200);
        r.as_str().unwrap().to_string()
    }

    fn log_has(&self, text: &str) -> bool {
        let s = self.state();
        s["log"].as_array().unwrap().iter().any(|l| l[2] == text)
    }
}

fn manual_turn(v: &Value) -> bool {
    v["clickable"] == true && v["mode"] == "playing"
}

/// One short game of each mode: a clicked move, the AI's answer, undo, the other
/// side taken over by hand, stdin, and quit.
fn plays(bin: &str, args: &[&str], setup: &[&str], ai_line: &str, two_manual: bool) {
    let b = Board::start(bin, args);
    for line in setup {
        b.command(line);
    }
    let start = b.view_until("the first move", manual_turn);
    assert_eq!(start["to_move"], 0, "{start}");
    let mv = start["moves"][0][2].as_str().unwrap().to_string();
    b.command(&mv);
    // The AI answers: on stdout, and the page's view shows both moves.
    let lines = b.engine.wait_for(T, |l| l.contains(ai_line));
    let answer = lines.last().unwrap().clone();
    let after = b.view_until("the AI's answer", |v| {
        manual_turn(v) && v["cells"] != start["cells"] && v["to_move"] == 0
    });
    assert!(!after["last"].as_array().unwrap().is_empty(), "{after}");
    assert!(b.log_has(&mv) && b.log_has(answer.trim()), "{}", b.state());
    // Undo takes back both: the start position, the person to move.
    b.action("undo");
    let undone = b.view_until("undo", |v| v["cells"] == start["cells"]);
    assert!(manual_turn(&undone) && undone["to_move"] == 0, "{undone}");
    // The other side by hand. Where the language has a Player and an AI Opponent
    // (2008, Reversi) the person takes that colour and the AI the other, which moves.
    b.action("manual 1");
    if two_manual {
        b.view_until("both manual", |v| {
            v["players"] == json!(["manual", "manual"])
        });
        b.command(&mv);
    } else {
        b.view_until("sides swapped", |v| v["players"] == json!(["AI", "manual"]));
    }
    let second = b.view_until("the second side's turn", |v| v["to_move"] == 1);
    assert!(manual_turn(&second), "{second}");
    // And back: the person plays the first side, the AI the second, which is to move.
    b.action(if two_manual { "ai 1" } else { "manual 0" });
    b.view_until("the AI back on the second side", |v| {
        v["players"] == json!(["manual", "AI"]) && manual_turn(v) && v["to_move"] == 0
    });
    // Stdin drives the same session.
    b.engine.send("help");
    b.view_until("help in the log", |_| {
        b.state()["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l[1] == "o" && l[2].as_str().unwrap_or("").contains("help"))
    });
    // An unknown page action changes nothing; quit from the page ends the program.
    assert_eq!(b.post("/action", "resign"), 400);
    b.command("quit");
    assert!(b.engine.expect_exit(T).success());
}

#[test]
fn ataxx_on_the_page() {
    plays(common::BIN, &[], &["start"], "Blue moves", true);
}

#[test]
fn ataxx_2008_on_the_page() {
    plays(
        common::BIN,
        &["--edition", "2008"],
        &["start"],
        "Blue moves",
        false,
    );
}

#[test]
fn loa_on_the_page() {
    plays(env!("CARGO_BIN_EXE_loa"), &[], &[], "* ", true);
}

#[test]
fn reversi_on_the_page() {
    plays(
        env!("CARGO_BIN_EXE_reversi"),
        &[],
        &["start"],
        "White moves",
        false,
    );
}

/// The command box names the commands of the game shown (2016 Ataxx and LOA have no
/// `blocks`, `host` or `join`), and each game's sides are capitalised as its output
/// lines write them (LOA's were `black`/`white`).
#[test]
fn the_page_speaks_of_its_own_game() {
    let loa = env!("CARGO_BIN_EXE_loa");
    let reversi = env!("CARGO_BIN_EXE_reversi");
    for (bin, args, has, lacks, sides) in [
        (
            common::BIN,
            &[][..],
            &["block", "set-up moves"][..],
            &["blocks", "host", "join"][..],
            ["Red", "Blue"],
        ),
        (
            common::BIN,
            &["--edition", "2008"],
            &["blocks", "host", "join"],
            &["block,"],
            ["Red", "Blue"],
        ),
        (
            loa,
            &[],
            &["limit", "new"],
            &["block", "host", "join", "start"],
            ["Black", "White"],
        ),
        (
            reversi,
            &[],
            &["host", "join", "resign"],
            &["block"],
            ["Black", "White"],
        ),
    ] {
        let b = Board::start(bin, args);
        let page = b.page();
        let label = page
            .lines()
            .find(|l| l.contains("<label for=\"cmd\">"))
            .expect("the command box's label");
        for word in has {
            assert!(label.contains(word), "{bin} {args:?}: {label}");
        }
        for word in lacks {
            assert!(!label.contains(word), "{bin} {args:?}: {label}");
        }
        let v = b.view_until("a view", |v| !v.is_null());
        assert_eq!(v["sides"], json!(sides), "{bin} {args:?}");
        b.command("quit");
        assert!(b.engine.expect_exit(T).success());
    }
}

/// `--listen 0.0.0.0` says which address another machine opens (an IP address: the
/// page refuses host names).
#[test]
fn listening_everywhere_says_the_address_to_use() {
    let b = Board::start(common::BIN, &["--listen", "0.0.0.0"]);
    let deadline = Instant::now() + T;
    let line = loop {
        let err = b.engine.stderr_tail(4096);
        if let Some(l) = err
            .lines()
            .find(|l| l.contains("from another machine open http://"))
        {
            break l.to_string();
        }
        assert!(Instant::now() < deadline, "no address for elsewhere: {err}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let port = b.base.rsplit(':').next().unwrap();
    assert!(
        line.contains(&format!(":{port}/?token={}", b.token)),
        "{line}"
    );
    b.command("quit");
    assert!(b.engine.expect_exit(T).success());
}

#[test]
fn display_options_are_checked() {
    for args in [
        &["--port", "1234"][..],
        &["--display", "--port", "x"],
        &["--display", "--listen", "nowhere"],
        &["--display", "--ugi"],
        &["--display", "perft", "1"],
    ] {
        let t = Engine::spawn(args).finish(T);
        assert_eq!(t.status.code(), Some(2), "{args:?}");
    }
}

/// A refused page action is one error line in the dialect's form and changes nothing.
#[test]
fn undo_with_nothing_to_take_back_is_refused() {
    let b = Board::start(common::BIN, &[]);
    b.command("start");
    let start = b.view_until("the start", manual_turn);
    b.action("undo");
    b.engine.wait_for(T, |l| l == "error: no move to take back");
    b.command("dump");
    b.engine.wait_for(T, |l| l == "===");
    assert_eq!(b.state()["view"]["cells"], start["cells"]);
    b.command("quit");
    assert!(b.engine.expect_exit(T).success());
}

/// A page action while the AI thinks acts at once: with both sides the AI's, taking
/// one back by hand stops the game at that side's turn, the game still in progress.
#[test]
fn an_action_interrupts_ai_against_ai() {
    let b = Board::start(env!("CARGO_BIN_EXE_reversi"), &[]);
    b.command("start");
    b.view_until("the start", manual_turn);
    b.action("ai 0");
    b.engine.wait_for(T, |l| l.starts_with("Black moves"));
    b.action("manual 0");
    let v = b.view_until("black's turn by hand", |v| {
        manual_turn(v) && v["players"] == json!(["manual", "AI"])
    });
    assert!(v["result"].is_null(), "{v}");
    b.command("quit");
    assert!(b.engine.expect_exit(T).success());
}

/// Waits until the page's state satisfies `done`; returns it.
fn state_until(b: &Board, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + T;
    loop {
        let s = b.state();
        if done(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "waiting for {what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The page's study tools through every dialect: the game behind the view (each
/// position, the moves, the PGN), the analysis of a position of it scoring every
/// legal move and turned off, a hint of an earlier one, refused requests, and a paste
/// of the game's moves into a fresh program giving the same game (a paste with a word
/// that is no move refused whole, the game kept).
#[test]
fn study_tools_in_every_dialect() {
    let loa = env!("CARGO_BIN_EXE_loa");
    let reversi = env!("CARGO_BIN_EXE_reversi");
    let cases: [(&str, &[&str], &[&str]); 5] = [
        (common::BIN, &[], &["start"]),
        (common::BIN, &["--edition", "2008"], &["start"]),
        (common::BIN, &["--edition", "2022"], &[]),
        (loa, &[], &[]),
        (reversi, &[], &["start"]),
    ];
    for (bin, args, setup) in cases {
        let b = Board::start(bin, args);
        for line in setup {
            b.command(line);
        }
        let start = b.view_until("the first move", manual_turn);
        b.command(start["moves"][0][2].as_str().unwrap());
        let view = b.view_until("the AI's answer", |v| {
            manual_turn(v) && v["cells"] != start["cells"] && v["to_move"] == 0
        });
        let s = state_until(&b, "the record", |s| {
            s["record"]["plies"]
                .as_array()
                .is_some_and(|p| p.len() == 3)
        });
        let plies = s["record"]["plies"].as_array().unwrap().clone();
        assert_eq!(plies[0]["cells"], start["cells"], "{args:?}");
        assert_eq!(plies[2]["cells"], view["cells"], "{args:?}");
        assert!(
            plies[1..].iter().all(|p| p["move"].is_string()),
            "{plies:?}"
        );
        let pgn = s["record"]["pgn"].as_str().unwrap().to_string();
        assert!(
            pgn.contains("[PlyCount \"2\"]") && pgn.contains("1. "),
            "{pgn}"
        );
        // Every legal move of the current position scored, each on its target square.
        assert_eq!(b.post("/analysis", "analyse 2"), 204);
        let s = state_until(&b, "the analysis", |s| s["analysis"]["kind"] == "analyse");
        let a = &s["analysis"];
        assert_eq!(
            (a["ply"].clone(), a["fen"].clone()),
            (json!(2), plies[2]["fen"].clone())
        );
        let targets: std::collections::BTreeSet<u64> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m[1].as_u64())
            .collect();
        let scored: std::collections::BTreeSet<u64> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["to"].as_u64())
            .collect();
        assert_eq!(scored, targets, "{args:?} {a}");
        assert_eq!(b.post("/analysis", "off"), 204);
        state_until(&b, "the analysis off", |s| s["analysis"].is_null());
        // A hint of the first position; refusals answer 409 and change nothing.
        assert_eq!(b.post("/analysis", "hint 0"), 204);
        let s = state_until(&b, "the hint", |s| s["analysis"]["done"] == true);
        assert_eq!(s["analysis"]["kind"], "hint");
        assert_eq!(s["analysis"]["moves"].as_array().unwrap().len(), 1);
        for bad in ["analyse 3", "hint", "analyse x", "think 0"] {
            assert_eq!(b.post("/analysis", bad), 409, "{bad}");
        }
        assert_eq!(b.post("/paste", "8/8/8 q"), 400);
        let moves: Vec<String> = plies[1..]
            .iter()
            .map(|p| p["move"].as_str().unwrap().to_string())
            .collect();
        if bin == reversi {
            // Reversi refuses `clear` while a game is in progress: a paste then stops
            // at that line, and its moves are not played in the game on the board.
            assert_eq!(b.post("/paste", &moves[..1].join(" ")), 204);
            let s = state_until(&b, "the paste stopped", |s| {
                s["log"]
                    .to_string()
                    .contains("the paste stops at the line refused above")
            });
            assert_eq!(s["record"]["plies"], json!(plies));
            assert_eq!(s["view"]["cells"], view["cells"]);
        }
        // AI against AI: the move list follows each move while the game goes on.
        b.action("ai 0");
        state_until(&b, "the AI's moves in the list", |s| {
            s["record"]["plies"]
                .as_array()
                .is_some_and(|p| p.len() >= 6)
                && s["view"]["result"].is_null()
        });
        b.command("quit");
        assert!(b.engine.expect_exit(T).success());
        // The moves pasted into a fresh program: the same positions.
        let fresh = Board::start(bin, args);
        assert_eq!(fresh.post("/paste", &moves.join(" ")), 204);
        let s = state_until(&fresh, "the pasted game", |s| {
            s["record"]["plies"]
                .as_array()
                .is_some_and(|p| p.len() == 3)
        });
        assert_eq!(s["record"]["plies"], json!(plies), "{args:?}");
        // A paste the page cannot read whole is refused before anything is typed
        // (issue 53 item 2: the set-up typed first had already cleared the game when
        // the bad word came): the game pasted before stays.
        for junk in [
            format!("{} zz9", moves[0]),
            "hello world".into(),
            "garbage!!".into(),
        ] {
            assert_eq!(fresh.post("/paste", &junk), 400, "{args:?} {junk}");
        }
        fresh.command("dump");
        let s = state_until(&fresh, "the dump after the refused pastes", |s| {
            s["log"].as_array().unwrap().iter().any(|l| l[2] == "dump")
        });
        assert_eq!(s["record"]["plies"], json!(plies), "{args:?}");
        let log = s["log"].to_string();
        assert!(!log.contains("zz9") && !log.contains("hello"), "{log}");
        fresh.command("quit");
        assert!(fresh.engine.expect_exit(T).success());
    }
}

//! What a person at a terminal sees (stdin a pseudo-terminal, stdout a pipe): a blank
//! first line gets the prompt again, Ctrl-D leaves with a newline (after running a
//! partial line typed before it), the Reversi visitor
//! shows its documented `waiting for the host: ` prompt while the host sets up.

use crate::common;

use common::tty::Tty;
use common::Engine;
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

const BINS: [&str; 3] = [
    env!("CARGO_BIN_EXE_ataxx"),
    env!("CARGO_BIN_EXE_loa"),
    env!("CARGO_BIN_EXE_reversi"),
];

/// The first prompt `bin` prints at a terminal.
fn first_prompt(t: &Tty) -> String {
    let deadline = std::time::Instant::now() + T;
    loop {
        let out = t.output();
        if out.ends_with(": ") || out.ends_with("> ") {
            return out;
        }
        assert!(std::time::Instant::now() < deadline, "no prompt: {out:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_blank_first_line_reprints_the_prompt_and_ctrl_d_ends_the_line() {
    for bin in BINS {
        let mut t = Tty::spawn(bin, &[]);
        let prompt = first_prompt(&t);
        t.type_bytes(b"\n");
        t.wait_output(&prompt.repeat(2), T);
        t.type_bytes(b"\x04");
        let (status, out) = t.finish(T);
        assert!(status.success(), "{bin}");
        assert_eq!(out, format!("{prompt}{prompt}\n"), "{bin}");

        // Later on too: Ctrl-D after a command leaves with a newline.
        let mut t = Tty::spawn(bin, &[]);
        let prompt = first_prompt(&t);
        t.type_bytes(b"help\n");
        let before = t.wait_output(&format!("\n{prompt}"), T);
        t.type_bytes(b"\x04");
        let (status, out) = t.finish(T);
        assert!(status.success(), "{bin}");
        assert_eq!(out, format!("{before}\n"), "{bin}");
    }
}

/// Text then Ctrl-D twice (the first hands over the partial line, the second is end of
/// input): the line runs, starting on a line of its own, and the program leaves with a
/// newline. Before, the program waited for more input after the partial line: at a
/// terminal end of input does not last, so it never ran the line nor left.
#[test]
fn ctrl_d_after_a_partial_line_runs_it_and_leaves() {
    for bin in BINS {
        let mut t = Tty::spawn(bin, &[]);
        let prompt = first_prompt(&t);
        t.type_bytes(b"dump\x04");
        t.type_bytes(b"\x04");
        let (status, out) = t.finish(T);
        assert!(status.success(), "{bin}: {out:?}");
        let rest = out
            .strip_prefix(&format!("{prompt}\n===\n"))
            .unwrap_or_else(|| {
                panic!("{bin}: the dump does not start on a line of its own: {out:?}")
            });
        assert!(
            rest.ends_with(&format!("===\n{prompt}\n")),
            "{bin}: {out:?}"
        );
    }
}

#[test]
fn the_reversi_visitor_prompts_while_the_host_sets_up() {
    let reversi = env!("CARGO_BIN_EXE_reversi");
    let h = Engine::spawn_bin(reversi, &[]);
    let id = common::fake::host_on(&h, "prompt");
    let mut v = Tty::spawn(reversi, &[]);
    first_prompt(&v);
    v.type_bytes(format!("join {id}@localhost\n").as_bytes());
    let joined = format!("Joined game {id}; the host sets it up and starts it.\n");
    v.wait_output(&format!("{joined}waiting for the host: "), T);
    common::expect_lines(&h, T, &["An opponent joined game *"]);
    // A relayed set-up move, then `dump` typed by the visitor's User: the prompt again.
    h.send("d3");
    v.type_bytes(b"help\n");
    let out = v.wait_output("print this summary\nwaiting for the host: ", T);
    h.send("start");
    v.wait_output("The host started game", T);
    v.type_bytes(b"quit\n");
    let (status, _) = v.finish(T);
    assert!(status.success(), "{out}");
}

/// With `--display` end of input does not end the program (the page may be in use): a
/// person who pressed Ctrl-D is told the page is still served and how to leave, and the
/// page's `quit` still ends it. Before, nothing was said and the program seemed to hang.
#[test]
fn ctrl_d_with_the_board_page_says_it_is_still_served() {
    for bin in BINS {
        let mut t = Tty::spawn(bin, &["--display", "--port", "0"]);
        let err = t.wait_errors("?token=", T);
        let url = err[err.find("http://").unwrap()..]
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        first_prompt(&t);
        t.type_bytes(b"\x04");
        let said = t.wait_errors("end of input", T);
        assert!(
            said.contains(&format!(
                "end of input; the board is still served at {url}: quit there (the command box), \
                 or press Ctrl-C here, to leave"
            )),
            "{bin}: {said:?}"
        );
        let (base, token) = url.split_once("/?token=").unwrap();
        let r = minreq::post(format!("{base}/command?token={token}"))
            .with_body("quit")
            .with_timeout(30)
            .send()
            .unwrap();
        assert_eq!(r.status_code, 204);
        let (status, _) = t.finish(T);
        assert!(status.success(), "{bin}");
    }
}

/// The Reversi visitor prints nothing for a set-up move the host relays, and its
/// prompt is not printed again for one: before, each relayed move added another
/// `waiting for the host: ` on the same line.
#[test]
fn the_reversi_visitors_prompt_is_not_repeated_as_set_up_moves_arrive() {
    let reversi = env!("CARGO_BIN_EXE_reversi");
    let h = Engine::spawn_bin(reversi, &[]);
    let id = common::fake::host_on(&h, "prompt_once");
    let mut v = Tty::spawn(reversi, &[]);
    first_prompt(&v);
    v.type_bytes(format!("join {id}@localhost\n").as_bytes());
    let joined = format!("Joined game {id}; the host sets it up and starts it.\n");
    v.wait_output(&format!("{joined}waiting for the host: "), T);
    common::expect_lines(&h, T, &["An opponent joined game *"]);
    for m in ["d3", "c5", "f6"] {
        h.send(m);
    }
    // The moves arrive unannounced: the visitor's dump shows when they have.
    let deadline = std::time::Instant::now() + T;
    while !v.output().contains("Moves: 3\n===\nwaiting for the host: ") {
        assert!(std::time::Instant::now() < deadline, "{:?}", v.output());
        v.type_bytes(b"dump\n");
        std::thread::sleep(Duration::from_millis(200));
    }
    v.type_bytes(b"quit\n");
    let (status, out) = v.finish(T);
    assert!(status.success(), "{out:?}");
    assert!(
        !out.contains("waiting for the host: waiting for the host: "),
        "{out:?}"
    );
}

/// Types `setup` (which starts AI against AI), waits for the first AI move line
/// (`first_move`), types `abandon` then `dump`, and returns what came after the first
/// move up to the end of that dump. Before the fix the abandoning line waited for the
/// whole game to end (a result line came first, then the line was refused or cleared).
fn abandon_ai_game(
    bin: &str,
    args: &[&str],
    setup: &str,
    first_move: &str,
    abandon: &str,
    dump_end: &str,
) -> String {
    let mut t = Tty::spawn(bin, args);
    first_prompt(&t);
    t.type_bytes(setup.as_bytes());
    let before = t.wait_output(first_move, T).len();
    t.type_bytes(format!("{abandon}\ndump\n").as_bytes());
    let out = t.wait_output(dump_end, Duration::from_secs(120));
    t.type_bytes(b"quit\n");
    let (status, _) = t.finish(T);
    assert!(status.success());
    out[before..].to_string()
}

fn has_result(s: &str) -> bool {
    s.contains(" wins.") || s.contains("Draw.") || s.contains("error:")
}

#[test]
fn a_person_stops_an_ai_game_without_leaving() {
    let [ataxx, loa, reversi] = BINS;
    // ataxx (both editions): `clear` abandons at once; the dump is the start position.
    let start = "===\n  r - - - - - b\n";
    let after = abandon_ai_game(ataxx, &[], "auto red\nstart\n", "Red moves", "clear", start);
    assert!(!has_result(&after), "{after:?}");
    let after = abandon_ai_game(
        ataxx,
        &["--edition", "2008"],
        "auto\nstart\n",
        "Red moves",
        "clear",
        start,
    );
    assert!(!has_result(&after), "{after:?}");
    // loa: white is the AI already, `auto black` starts AI against AI; `manual black`
    // stops it at once (at most white's move in progress is played: the dump, answered
    // at once, may show it still to move), `new` then abandons the game, and nothing
    // plays on.
    let after = abandon_ai_game(loa, &[], "auto black\n", "* ", "manual black", "\n===\n");
    assert!(!has_result(&after), "{after:?}");
    let mut t = Tty::spawn(loa, &[]);
    first_prompt(&t);
    t.type_bytes(b"auto black\n");
    t.wait_output("* ", T);
    t.type_bytes(b"manual black\nnew\ndump\n");
    let out = t.wait_output("Next move: black\n===\n", Duration::from_secs(120));
    assert!(!has_result(&out), "{out:?}");
    assert!(out.contains("===\n    - b b b b b b -"), "{out:?}");
    t.type_bytes(b"quit\n");
    assert!(t.finish(T).0.success());
    // reversi: `resign` ends the game at once: the Player (black, the AI) resigns.
    let after = abandon_ai_game(reversi, &[], "auto\nstart\n", "moves", "resign", "Moves: ");
    assert!(
        after.contains("White wins.") && !after.contains("error:"),
        "{after:?}"
    );
}

/// `dump` typed at a terminal while two AIs play is answered at once, in the game,
/// in every text language (issue 53 item 7): it was kept until the game had ended (or
/// until `clear`, showing the cleared board), as a harness's lines are.
#[test]
fn a_persons_dump_is_answered_while_the_ais_play() {
    let [ataxx, loa, reversi] = BINS;
    for (bin, args, setup, first_move) in [
        (ataxx, &[][..], "auto red\nstart\n", "Red moves"),
        (
            ataxx,
            &["--edition", "2008"][..],
            "auto\nstart\n",
            "Red moves",
        ),
        (ataxx, &["--edition", "2022"][..], "auto red\n", "moves"),
        (loa, &[][..], "auto black\n", "* "),
        (reversi, &[][..], "auto\nstart\n", "moves"),
    ] {
        let mut t = Tty::spawn(bin, args);
        first_prompt(&t);
        t.type_bytes(setup.as_bytes());
        let before = t.wait_output(first_move, T).len();
        t.type_bytes(b"dump\n");
        let out = t.wait_output_after(before, |s| s.matches("===\n").count() >= 2, T);
        t.type_bytes(b"quit\n");
        let (status, all) = t.finish(T);
        assert!(status.success(), "{args:?}: {all:?}");
        assert!(
            !has_result(&out),
            "{bin} {args:?}: the dump came after the game: {out:?}"
        );
        // `quit` then stopped the game still in progress.
        assert!(!has_result(&all[before..]), "{bin} {args:?}: {all:?}");
    }
}

/// A person's `quit` acts at once while the Reversi AI solves the endgame exactly, as
/// it does while the AI searches. From 14 empties the AI plays the exact solver's
/// move; the solver ran on the session's own thread, read no input, and AI against AI
/// played the game out before the typed `quit` (a result line came first). Now the
/// solve runs on the engine's thread like any search, and the `quit` stops it.
#[test]
fn a_persons_quit_stops_the_reversi_ai_while_it_solves() {
    // 46 set-up moves of a seeded AI game (no pass): Black to move with 14 empties,
    // and AI against AI would end it in a draw after 14 more moves.
    const SETUP: &str = "e6 f4 d3 e7 f3 e3 f2 e2 d1 f1 f6 g5 f5 e1 g4 c1 d2 c2 h6 h4 g6 \
        c5 c4 g3 h3 h5 d6 c6 b5 a4 a5 b4 a3 c3 b6 c7 d7 d8 c8 a6 f7 a2 e8 g7 b3 b2";
    let reversi = env!("CARGO_BIN_EXE_reversi");
    let mut t = Tty::spawn(reversi, &[]);
    first_prompt(&t);
    let mut typed: String = SETUP.split(' ').map(|m| format!("{m}\n")).collect();
    typed.push_str("auto\nstart\nquit\n");
    t.type_bytes(typed.as_bytes());
    let (status, out) = t.finish(T);
    assert!(status.success(), "{out:?}");
    assert!(!has_result(&out), "the game was played out: {out:?}");
    // The same moves from a script: its `quit` waits its turn, and the game ends.
    let script = Engine::spawn_bin(reversi, &[]);
    for line in typed.lines() {
        script.send(line);
    }
    let tr = script.finish(T);
    assert!(tr.status.success());
    assert_eq!(
        tr.lines.last().map(String::as_str),
        Some("Draw."),
        "{:?}",
        tr.lines
    );
}

/// What a terminal shows of `raw` output, roughly: editing sequences and carriage
/// returns removed, so a line redrawn by the editor reads as a line.
fn screen(raw: &str) -> String {
    let csi = regex::Regex::new(r"\x1b\[[0-9;?]*[A-Za-z]").unwrap();
    csi.replace_all(raw, "").replace('\r', "")
}

/// Waits until the screen text of `t` matches `pattern` (a regex).
fn wait_screen(t: &Tty, pattern: &str) -> String {
    let re = regex::Regex::new(pattern).unwrap();
    let deadline = std::time::Instant::now() + T;
    loop {
        let s = screen(&t.output());
        if re.is_match(&s) {
            return s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no /{pattern}/ in {s:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Stdin and stdout both the terminal: lines are edited (a letter put in the middle
/// with the cursor keys) and recalled from the history (up arrow), and Ctrl-D on an
/// empty line still leaves.
#[test]
fn a_person_at_a_terminal_edits_lines_and_recalls_them() {
    for bin in BINS {
        let mut t = Tty::spawn_edited(bin, &[]);
        wait_screen(&t, r"[:>] $");
        // "dmp", two steps left, "u": the line run is `dump`.
        t.type_bytes(b"dmp\x1b[D\x1b[Du\r");
        wait_screen(&t, r"(?s)dump\n===\n.*===\n");
        t.type_bytes(b"\x1b[A\r");
        wait_screen(&t, r"(?s)===\n.*===\n.*dump\n===\n.*===\n");
        t.type_bytes(b"\x04");
        let (status, out) = t.finish(T);
        assert!(status.success(), "{bin}: {out:?}");
        assert_eq!(screen(&out).matches("===\n").count(), 4, "{bin}: {out:?}");
    }
}

/// Runs ataxx at a terminal with lines edited: types `setup`, waits for `started`, then
/// types `half` of a line and waits until a line matching `printed` has been printed
/// above it (the half line drawn again below it), then types the `rest`. Returns the
/// screen text once the program has left (status 0), after `rest` and `quit`.
fn half_line_redrawn(setup: &str, started: &str, printed: &str, half: &str, rest: &str) -> String {
    let mut t = Tty::spawn_edited(env!("CARGO_BIN_EXE_ataxx"), &[]);
    wait_screen(&t, r": $");
    t.type_bytes(setup.as_bytes());
    wait_screen(&t, started);
    t.type_bytes(half.as_bytes());
    wait_screen(&t, &format!("{printed}\n{half}"));
    t.type_bytes(rest.as_bytes());
    let (status, out) = t.finish(T);
    assert!(status.success(), "{out:?}");
    screen(&out)
}

/// While AI plays AI, a person's half-typed line is printed again below each move the
/// AI prints, instead of being broken by it; finished, the person's `quit` acts at once.
#[test]
fn ai_moves_print_above_the_line_being_typed() {
    let moves = r"moves [a-g][1-7]-[a-g][1-7]\.";
    let out = half_line_redrawn("auto red\rstart\r", "Red moves", moves, "qui", "t\r");
    assert!(!out.contains(" wins."), "the game was played out: {out:?}");
}

/// UAI at a terminal: `info` lines print above a half-typed `stop`, which then stops
/// the search.
#[test]
fn uai_info_lines_print_above_the_line_being_typed() {
    let setup = "uai\rposition startpos\rgo infinite\r";
    let out = half_line_redrawn(setup, "info depth", "info [^\n]*", "st", "op\rquit\r");
    assert!(out.contains("\nbestmove "), "{out:?}");
}

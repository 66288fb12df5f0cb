//! What a person at a terminal sees (stdin a pseudo-terminal, stdout a pipe): a blank
//! first line gets the prompt again, Ctrl-D leaves with a newline, the Reversi visitor
//! shows its documented `waiting for the host: ` prompt while the host sets up.

mod common;

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

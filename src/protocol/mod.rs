//! Front ends: each protocol parses its command lines into typed commands, drives the
//! engine facade, and formats its reports. Nothing here knows how the search works,
//! and the generic sessions name no game: games plug in through `GameIo` and
//! `TextDialect`; the dialects and NBoard are the only per-game code here.
//!
//! - [`text`]: the session loop shared by the course text languages, and each game's
//!   dialect beside it (`text/ataxx.rs`, `ataxx2008.rs`, `loa.rs`, `reversi.rs`; the last two
//!   on one Player-vs-Opponent session with remote play, `text/versus.rs`).
//! - [`nboard`]: the Othello GUIs' protocol, for Reversi.
//! - [`uci`]: UAI and UGI, chosen when the first command is `uai` / `ugi`.
//! - [`input`]: the stdin reader thread all of them share (bounded lines).
//! - [`terminal`]: line editing and history when a person types at a terminal.
//! - [`remote`]: the TCP transport for `host` / `join` between two running programs.
//! - [`cli`]: the command line every game binary shares (`perft`, `bench`, protocols),
//!   and each binary's own part (`cli/loa.rs`: the course program over files;
//!   `cli/reversi.rs`: `solve`).
//! - [`display`]: `--display`, the board in the browser, driving the text session.

pub mod cli;
pub mod display;
pub mod input;
pub mod nboard;
pub mod play;
pub mod remote;
pub mod terminal;
pub mod text;
pub mod uci;

use std::io::Write;

/// A protocol only one game speaks (an Othello GUI's, say): chosen when the first
/// command's first word is `hello`, or by its flag.
pub struct OtherProtocol {
    /// Its name as people write it (`NBoard`), for the usage line.
    pub name: &'static str,
    /// The first word of the first command.
    pub hello: &'static str,
    /// The command-line flag that chooses it (`--nboard`), and its help line.
    pub flag: &'static str,
    pub help: &'static str,
    /// Runs the session from its first line (`None` when the flag chose it) until it
    /// ends; returns the exit status.
    pub run:
        fn(Option<input::Line>, crossbeam_channel::Receiver<input::Line>, &mut dyn Write) -> i32,
}

/// Writes one line and flushes, so a peer process sees it at once. A closed stdout
/// (the peer went away) is not an error worth crashing for.
pub fn emit(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A principal variation from `root` in protocol notation, cut at its first move that is
/// not legal in sequence (logged), so a GUI or the page never sees an impossible line.
pub fn pv_names<G: crate::game::Notation>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut names = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            log::warn!("PV move {m} is illegal in {}", pos.fen());
            break;
        }
        names.push(pos.move_name(m));
        pos.make_move(m);
    }
    names
}

/// The rest of a command line after its first word `first` (a `load` file name, blanks
/// and all), trimmed, without the quotes around it if it has them; `None` if empty.
pub fn rest_of_line(line: &str, first: &str) -> Option<String> {
    let rest = line.trim_start().get(first.len()..)?.trim();
    let rest = match rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner,
        None => rest
            .strip_prefix('\'')
            .and_then(|r| r.strip_suffix('\''))
            .unwrap_or(rest),
    };
    (!rest.is_empty()).then(|| rest.to_string())
}

/// Quotes a piece of input for an error message: one short line of printable ASCII
/// (anything else shows as `?`), cut after 40 characters.
pub fn quote(s: &str) -> String {
    let mut q: String = s
        .chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if s.chars().count() > 40 {
        q.push_str("...");
    }
    format!("'{q}'")
}

#[cfg(test)]
mod tests {
    #[test]
    fn quote_is_one_short_line() {
        assert_eq!(super::quote("a\rb\u{1b}é"), "'a?b??'");
        assert_eq!(super::quote(&"x".repeat(100)).chars().count(), 45);
    }
}

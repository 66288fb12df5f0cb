//! The steps for GTP (version 2, as Othello engines speak it: grhino, Edax; see
//! `engines/gtp.rs`), Reversi only. Every answer is `= …` or `? …` and ends with a blank
//! line; each must come within 1 s but `genmove`'s (10 s: no clock is set). In order;
//! `*` marks the quick part:
//!
//! - `protocol_version`* — answered `= 2` within `inittimeout`.
//! - `list_commands`* — `= ` one command a line, among them `protocol_version`,
//!   `list_commands`, `boardsize`, `clear_board`, `play`, `genmove` and `quit` (the line
//!   says whether `time_settings` and `time_left` are there too).
//! - `boardsize 8`*, `clear_board`* — answered `=`.
//! - `play`* — `clear_board`, `play b SQUARE` (a legal first move by our rules): `=`.
//! - `play illegal` — `clear_board`, `play b SQUARE` for a square where black cannot
//!   play: `? …`.
//! - `genmove`* — `clear_board`, `play b SQUARE`, `genmove w`: `= SQUARE` legal by our
//!   rules (or `= pass` where white must pass).
//! - `unknown command` — `frobnicate`: `? …`.
//! - `quit`* — answered `=`, then the process exits within 1 s.
//! - `end of input` — a fresh process, after `protocol_version`, whose input is closed,
//!   exits within 2 s.

use super::{
    ms, opening_move, run_steps, Conn, Driver, Failure, Report, Step, Target, QUIT, READY,
    SLOW_MOVE,
};
use crate::engines::gtp::read_answer_rest;
use crate::engines::othello::{protocol_move, square_of};
use engine::game::{Notation, RuleSet};
use std::time::{Duration, Instant};

/// Commands the runner uses and every GTP engine must list.
const REQUIRED: [&str; 7] = [
    "protocol_version",
    "list_commands",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "quit",
];

struct Gtp<G: Notation> {
    target: Target,
    conn: Option<Conn>,
    start: G,
}

pub(super) fn run<G: Notation>(target: Target, quick: bool, report: &mut Report) {
    let steps: Vec<Step<Gtp<G>>> = vec![
        Step::first("protocol_version", Gtp::protocol_version),
        Step::on("list_commands", true, Gtp::list_commands),
        Step::on("boardsize 8", true, |s| s.accepted(&["boardsize 8"])),
        Step::on("clear_board", true, |s| s.accepted(&["clear_board"])),
        Step::on("play", true, |s| {
            let play = s.first_play()?.0;
            s.accepted(&["clear_board", &play])
        }),
        Step::on("play illegal", false, Gtp::play_illegal),
        Step::on("genmove", true, Gtp::genmove),
        Step::on("unknown command", false, |s| {
            let c = s.c()?;
            match answer(c, "frobnicate", READY)? {
                Err(text) => Ok(format!("? {}", super::cut(&text, 60))),
                Ok(_) => Err(c.fail("'? …' to a command it does not know")),
            }
        }),
        Step::on("quit", true, |s| {
            let c = s.c()?;
            if answer(c, "quit", QUIT)?.is_err() {
                return Err(c.fail("'=' to quit"));
            }
            let r = c.exits_within(QUIT, &format!("the program to exit within {} ms", ms(QUIT)));
            s.conn = None;
            r
        }),
        Step::end_of_input(),
    ];
    let mut gtp = Gtp {
        target,
        conn: None,
        start: G::startpos(G::Rules::ENGINE),
    };
    run_steps(&mut gtp, &steps, quick, report);
}

impl<G: Notation> Driver for Gtp<G> {
    fn conn(&mut self) -> &mut Option<Conn> {
        &mut self.conn
    }

    fn fresh(&mut self) -> Result<(), Failure> {
        let mut c = Conn::start(&self.target)?;
        // Any answer: the check of it is a step of its own.
        let _version = answer(&mut c, "protocol_version", self.target.init_timeout)?;
        self.conn = Some(c);
        Ok(())
    }
}

/// Sends `cmd` and reads its answer within `limit`: `Ok(Ok(text))` for `= text`,
/// `Ok(Err(text))` for `? text` (an id after the marker is skipped; the lines up to the
/// blank line that ends the answer are joined with `\n`).
fn answer(c: &mut Conn, cmd: &str, limit: Duration) -> Result<Result<String, String>, Failure> {
    c.send(cmd)?;
    let started = Instant::now();
    let expected = "'= …' or '? …' and a blank line";
    let (ok, mut text) = loop {
        let line = c.recv_within(started, limit, expected)?;
        let line = line.trim_end();
        let marker = line.chars().next();
        if marker == Some('=') || marker == Some('?') {
            let rest = line[1..]
                .trim_start_matches(|ch: char| ch.is_ascii_digit())
                .trim()
                .to_string();
            break (marker == Some('='), rest);
        }
        if !line.is_empty() {
            return Err(c.fail(format!("{expected} within {} ms", ms(limit))));
        }
    };
    read_answer_rest(&mut text, usize::MAX, || {
        c.recv_within(started, limit, expected)
    })?;
    Ok(if ok { Ok(text) } else { Err(text) })
}

impl<G: Notation> Gtp<G> {
    /// `play b SQUARE` for the first legal move at the start, and where it leads.
    fn first_play(&self) -> Result<(String, G), Failure> {
        let mv = opening_move(&self.start)?;
        let mut after = self.start.clone();
        after.make_move(mv);
        let square = square_of(&self.start, mv).unwrap_or_else(|| "pass".into());
        Ok((format!("play b {square}"), after))
    }

    /// Each command answered `=`.
    fn accepted(&mut self, cmds: &[&str]) -> Result<String, Failure> {
        let c = self.c()?;
        for cmd in cmds {
            if let Err(text) = answer(c, cmd, READY)? {
                return Err(c.fail(format!("'=' to '{cmd}', not '? {}'", super::cut(&text, 60))));
            }
        }
        Ok(String::new())
    }

    fn protocol_version(&mut self) -> Result<String, Failure> {
        let mut c = Conn::start(&self.target)?;
        let started = Instant::now();
        match answer(&mut c, "protocol_version", self.target.init_timeout)? {
            Ok(v) if v.trim() == "2" => {
                self.conn = Some(c);
                Ok(format!("= 2 after {} ms", ms(started.elapsed())))
            }
            _ => Err(c.fail("'= 2'")),
        }
    }

    fn list_commands(&mut self) -> Result<String, Failure> {
        let c = self.c()?;
        let listed = match answer(c, "list_commands", READY)? {
            Ok(text) => text,
            Err(_) => return Err(c.fail("'= ' and the commands, one a line")),
        };
        let has = |cmd: &str| listed.lines().any(|l| l.trim() == cmd);
        let missing: Vec<&str> = REQUIRED.iter().copied().filter(|c| !has(c)).collect();
        if !missing.is_empty() {
            return Err(c.fail(format!("the commands {} listed", missing.join(", "))));
        }
        let clock = if has("time_settings") && has("time_left") {
            "time_settings and time_left listed"
        } else {
            "no time_settings and time_left: the clock is the referee's alone"
        };
        Ok(format!("{} commands, {clock}", listed.lines().count()))
    }

    fn play_illegal(&mut self) -> Result<String, Failure> {
        let start = self.start.clone();
        // The first square black cannot play on at the start.
        let square = (b'a'..=b'h')
            .flat_map(|f| (1..=8).map(move |r| format!("{}{r}", f as char)))
            .find(|s| start.parse_move(s).is_none())
            .unwrap_or_else(|| "a1".into());
        let c = self.c()?;
        if let Err(text) = answer(c, "clear_board", READY)? {
            return Err(c.fail(format!(
                "'=' to clear_board, not '? {}'",
                super::cut(&text, 60)
            )));
        }
        match answer(c, &format!("play b {square}"), READY)? {
            Err(text) => Ok(format!("? {}", super::cut(&text, 60))),
            Ok(_) => Err(c.fail(format!("'? …': black cannot play {square} at the start"))),
        }
    }

    fn genmove(&mut self) -> Result<String, Failure> {
        let (play, after) = self.first_play()?;
        let c = self.c()?;
        for cmd in ["clear_board", play.as_str()] {
            if let Err(text) = answer(c, cmd, READY)? {
                return Err(c.fail(format!("'=' to '{cmd}', not '? {}'", super::cut(&text, 60))));
            }
        }
        let started = Instant::now();
        let mv = match answer(c, "genmove w", SLOW_MOVE)? {
            Ok(mv) => mv,
            Err(text) => {
                return Err(c.fail(format!("'= SQUARE', not '? {}'", super::cut(&text, 60))))
            }
        };
        let took = started.elapsed();
        if after.parse_move(&protocol_move(mv.trim())).is_none() {
            return Err(c.fail(format!(
                "a move legal for white in {} by our rules",
                after.fen()
            )));
        }
        Ok(format!("= {} after {} ms", super::cut(&mv, 20), ms(took)))
    }
}

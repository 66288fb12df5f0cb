//! The steps for NBoard (Reversi; the protocol of the NBoard GUI, as `protocol.md`
//! describes ours and NTest and Edax speak it). The checker acts as the GUI. In order;
//! `*` marks the quick part:
//!
//! - `nboard`* — `nboard 2` → `set myname NAME` within `inittimeout`.
//! - `ping`* — `ping 1` → `pong 1` within 1 s.
//! - `set depth 4`*, `set game`* (the start position with the clock `TI[0:05]`) — each
//!   followed by `ping` → `pong` with no `status error: …` before it.
//! - `go`* — at depth 4 on that game: `=== MOVE/EVAL/TIME` (or Edax's `=== MOVE EVAL
//!   TIME`) with a move legal by our rules, the evaluation and time numbers, within the
//!   clock's 5 s plus `timemargin`.
//! - `move` — `move SQUARE` (a legal first move), then `go`: a move legal after it.
//! - `hint 2` — `search PV EVAL 0 DEPTH` lines (at least one), each PV's first move
//!   legal, its evaluation a number, until two moves are reported or the hint ends (an
//!   empty `status`); then `ping` → `pong`.
//! - `ping during go` — `go` at depth 12 and at once `ping N`: `pong N` within 3 s, and
//!   no `===` after it (the answers to what came before the ping come before the pong).
//! - `learn` — `learn`, `ping N`: `learned`, then `pong N`.
//! - `clock` — `set depth 60` and a game with `TI[0:03]`: `go` answers a legal move
//!   within 1.5 s (the engine must read the clock from the game).
//! - `quit`* — the process exits within 1 s.
//! - `end of input` — a fresh process, after `nboard 2` and a `ping`, whose input is
//!   closed, exits within 2 s.

use super::{
    ms, opening_move, run_steps, Conn, Driver, Failure, Report, Step, Target, QUIET, READY, SEARCH,
};
use crate::engines::nboard::{error_status, parse_answer, search_depth};
use crate::engines::othello::{ggf_board, protocol_move, square_of};
use engine::game::{Notation, RuleSet};
use std::time::{Duration, Instant};

struct Nboard<G: Notation> {
    target: Target,
    conn: Option<Conn>,
    ping: u64,
    start: G,
}

pub(super) fn run<G: Notation>(target: Target, quick: bool, report: &mut Report) {
    let steps: Vec<Step<Nboard<G>>> = vec![
        Step::first("nboard", Nboard::hello),
        Step::on("ping", true, |s| {
            let took = s.sync(READY)?;
            Ok(format!("pong after {} ms", ms(took)))
        }),
        Step::on("set depth 4", true, |s| {
            s.c()?.send("set depth 4")?;
            s.sync(READY).map(|_| String::new())
        }),
        Step::on("set game", true, |s| {
            let game = s.game("TI[0:05]")?;
            s.c()?.send(&format!("set game {game}"))?;
            s.sync(READY).map(|_| String::new())
        }),
        Step::on("go", true, |s| {
            let start = s.start.clone();
            let limit = Duration::from_secs(5) + s.target.margin;
            s.go(4, "TI[0:05]", None, &start, limit)
        }),
        Step::on("move", false, |s| {
            let start = s.start.clone();
            let mv = opening_move(&start)?;
            let mut after = start.clone();
            after.make_move(mv);
            let word =
                square_of(&start, mv).map_or_else(|| "PA".into(), |s| s.to_ascii_uppercase());
            let limit = Duration::from_secs(5) + s.target.margin;
            s.go(4, "TI[0:05]", Some(&word), &after, limit)
        }),
        Step::on("hint 2", false, Nboard::hint),
        Step::on("ping during go", false, Nboard::ping_during_go),
        Step::on("learn", false, Nboard::learn),
        Step::on("clock", false, |s| {
            let start = s.start.clone();
            s.go(60, "TI[0:03]", None, &start, Duration::from_millis(1500))
        }),
        Step::quit(),
        Step::end_of_input(),
    ];
    let mut nb = Nboard {
        target,
        conn: None,
        ping: 0,
        start: G::startpos(G::Rules::ENGINE),
    };
    run_steps(&mut nb, &steps, quick, report);
}

impl<G: Notation> Driver for Nboard<G> {
    fn conn(&mut self) -> &mut Option<Conn> {
        &mut self.conn
    }

    fn fresh(&mut self) -> Result<(), Failure> {
        let mut c = Conn::start(&self.target)?;
        c.send("nboard 2")?;
        self.conn = Some(c);
        self.sync(self.target.init_timeout).map(drop)
    }
}

impl<G: Notation> Nboard<G> {
    /// The GGF game of the start position with the clock `ti` (`TI[0:05]`).
    fn game(&self, ti: &str) -> Result<String, Failure> {
        let board = ggf_board(&self.start.fen())
            .map_err(|e| Failure::unsent(e, "a Reversi start position"))?;
        Ok(format!("(;GM[Othello]PC[tournament]{ti}TY[8]BO[{board}];)"))
    }

    fn hello(&mut self) -> Result<String, Failure> {
        let mut c = Conn::start(&self.target)?;
        c.send("nboard 2")?;
        let started = Instant::now();
        let limit = self.target.init_timeout;
        loop {
            let l = c.recv_within(started, limit, "'set myname NAME'")?;
            if let Some(name) = l.trim().strip_prefix("set myname ") {
                let detail = format!(
                    "set myname {} after {} ms",
                    super::cut(name, 60),
                    ms(started.elapsed())
                );
                self.conn = Some(c);
                return Ok(detail);
            }
        }
    }

    /// `ping N` → `pong N` within `limit`, with no `status error: …` before it.
    fn sync(&mut self, limit: Duration) -> Result<Duration, Failure> {
        self.ping += 1;
        let n = self.ping;
        self.c()?.expect(
            &format!("ping {n}"),
            &format!("pong {n}"),
            limit,
            |l| match error_status(l) {
                Some(_) => Err(format!(
                    "'pong {n}' and no error (every line before it was accepted)"
                )),
                None => Ok(()),
            },
        )
    }

    /// `set depth D`, `set game` with the clock `ti`, `move WORD` if given, `go`: a
    /// `===` line within `limit` whose move is legal in `pos`.
    fn go(
        &mut self,
        depth: u32,
        ti: &str,
        move_word: Option<&str>,
        pos: &G,
        limit: Duration,
    ) -> Result<String, Failure> {
        let game = self.game(ti)?;
        let c = self.c()?;
        c.send(&format!("set depth {depth}"))?;
        c.send(&format!("set game {game}"))?;
        if let Some(word) = move_word {
            c.send(&format!("move {word}"))?;
        }
        c.send("go")?;
        let started = Instant::now();
        loop {
            let l = c.recv_within(started, limit, "'=== MOVE/EVAL/TIME'")?;
            if let Some(error) = error_status(&l) {
                return Err(c.fail(format!(
                    "'=== MOVE/EVAL/TIME', not an error ({})",
                    super::cut(&error, 80)
                )));
            }
            if l.trim_start().starts_with("===") {
                let answer = check_answer(&l, pos).map_err(|why| c.fail(why))?;
                let took = started.elapsed();
                return Ok(format!(
                    "{answer} after {} ms, {} ms before the deadline of {} ms",
                    ms(took),
                    ms(limit.saturating_sub(took)),
                    ms(limit)
                ));
            }
        }
    }

    fn hint(&mut self) -> Result<String, Failure> {
        let game = self.game("TI[0:05]")?;
        let start = self.start.clone();
        let c = self.c()?;
        c.send("set depth 4")?;
        c.send(&format!("set game {game}"))?;
        c.send("hint 2")?;
        let started = Instant::now();
        let mut lines = 0;
        let mut first: Vec<String> = Vec::new();
        loop {
            match c.recv(started + SEARCH) {
                Ok(l) => {
                    if l.split_whitespace().next() == Some("search") {
                        let mv = check_search(&l, &start).map_err(|why| c.fail(why))?;
                        lines += 1;
                        if !first.contains(&mv) {
                            first.push(mv);
                        }
                    } else if lines > 0 && l.trim() == "status" {
                        // NBoard's end of a hint: an empty status.
                        break;
                    } else if let Some(error) = error_status(&l) {
                        return Err(c.fail(format!(
                            "search lines, not an error ({})",
                            super::cut(&error, 80)
                        )));
                    }
                    if first.len() == 2 && lines >= 2 {
                        break;
                    }
                }
                Err(_) if lines > 0 => break,
                Err(e) => {
                    return Err(c.fail_read(
                        &e,
                        started.elapsed(),
                        format!("'search PV EVAL 0 DEPTH' lines within {} ms", ms(SEARCH)),
                    ))
                }
            }
        }
        let took = started.elapsed();
        self.sync(READY)?;
        Ok(format!(
            "{lines} search lines for {} after {} ms",
            first.join(" and "),
            ms(took)
        ))
    }

    fn ping_during_go(&mut self) -> Result<String, Failure> {
        let game = self.game("")?;
        self.ping += 1;
        let n = self.ping;
        let c = self.c()?;
        c.send("set depth 12")?;
        c.send(&format!("set game {game}"))?;
        c.send("go")?;
        let took = c.expect(
            &format!("ping {n}"),
            &format!("pong {n}"),
            READY + SEARCH,
            |_| Ok(()),
        )?;
        let answered = c.seen.iter().any(|l| l.trim_start().starts_with("==="));
        let after = Instant::now() + QUIET;
        while let Ok(l) = c.recv(after) {
            if l.trim_start().starts_with("===") {
                return Err(c.fail(format!(
                    "nothing for the 'go' after 'pong {n}' (answers come before the pong)"
                )));
            }
        }
        Ok(format!(
            "pong after {} ms, {}nothing after it for {} ms",
            ms(took),
            if answered { "the move before it, " } else { "" },
            ms(QUIET)
        ))
    }

    fn learn(&mut self) -> Result<String, Failure> {
        self.ping += 1;
        let n = self.ping;
        let c = self.c()?;
        c.send("learn")?;
        let took = c.expect(
            &format!("ping {n}"),
            &format!("pong {n}"),
            READY,
            |_| Ok(()),
        )?;
        if !c.seen.iter().any(|l| l.trim() == "learned") {
            return Err(c.fail(format!("'learned' before 'pong {n}'")));
        }
        Ok(format!("learned, then pong after {} ms", ms(took)))
    }
}

/// A `===` line checked: `=== MOVE/EVAL/TIME` or `=== MOVE EVAL TIME`, the move legal in
/// `pos`, the numbers numbers. Returns the line's move and evaluation, for the report.
fn check_answer<G: Notation>(line: &str, pos: &G) -> Result<String, String> {
    let (word, _) = parse_answer(line).ok_or("'=== MOVE/EVAL/TIME' with a move")?;
    let rest = line.trim().trim_start_matches("===").trim();
    for n in rest.split(|c: char| c == '/' || c.is_whitespace()).skip(1) {
        if !n.is_empty() && n.parse::<f64>().is_err() {
            return Err(format!(
                "'=== MOVE/EVAL/TIME' with numbers, not '{}'",
                super::cut(n, 20)
            ));
        }
    }
    if pos.parse_move(&protocol_move(&word)).is_none() {
        return Err(format!(
            "a move legal in {} by our rules, not '{}'",
            pos.fen(),
            super::cut(&word, 20)
        ));
    }
    Ok(format!("=== {}", super::cut(rest, 40)))
}

/// A `search PV EVAL 0 DEPTH` line checked: its PV's first move legal in `pos`, the
/// evaluation a number, a depth. Returns the first move.
fn check_search<G: Notation>(line: &str, pos: &G) -> Result<String, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pv = words.get(1).ok_or("'search PV EVAL 0 DEPTH'")?;
    let first = pv.split('-').next().unwrap_or("");
    if pos.parse_move(&protocol_move(first)).is_none() {
        return Err(format!(
            "a search line whose PV starts with a legal move, not '{}'",
            super::cut(first, 20)
        ));
    }
    if words.get(2).and_then(|e| e.parse::<f64>().ok()).is_none() {
        return Err("'search PV EVAL 0 DEPTH' with a number for EVAL".into());
    }
    if search_depth(line).is_none() {
        return Err("'search PV EVAL 0 DEPTH' with a depth".into());
    }
    Ok(first.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::reversi::position::Position;

    #[test]
    fn answers_and_search_lines() {
        let start = Position::startpos();
        assert!(check_answer("=== D3/0.88/0.2", &start).is_ok());
        assert!(check_answer("=== d3 0.88 0.2", &start).is_ok());
        assert!(check_answer("=== A1/0.88/0.2", &start).is_err());
        assert!(check_answer("=== D3/x/0.2", &start).is_err());
        assert!(check_answer("=== ", &start).is_err());
        assert_eq!(
            check_search("search D6-C6 1.44 0 6", &start),
            Err("a search line whose PV starts with a legal move, not 'D6'".into())
        );
        assert_eq!(
            check_search("search F5-D6 1.44 0 6", &start),
            Ok("F5".into())
        );
        assert!(check_search("search F5 x 0 6", &start).is_err());
        assert!(check_search("search F5 1.0 0", &start).is_err());
    }
}

//! The steps for UAI and UGI (the UCI family; `shared/specs/uai.md`, `ugi.md` and
//! `protocol.md`'s promises). In order; `*` marks the quick part:
//!
//! - `handshake`* — `uai`/`ugi` → `id name …`, every `option` line well formed (a known
//!   type; a spin's default, min and max integers in order; a check's default `true` or
//!   `false`; a combo's default among its `var`s), then `uaiok`/`ugiok` within
//!   `inittimeout`.
//! - `isready`* — `readyok` within 1 s.
//! - `setoption min/max` — every declared spin option set to its min, its max and back
//!   to its default, each followed by `isready`: `readyok` with no error report before it.
//! - `engine options`* — the spec's `option.NAME=VALUE`: declared, and taken (as above).
//! - `new game`* — `uainewgame`/`uginewgame`, `isready` → `readyok`.
//! - `position startpos`, `position startpos moves` (an empty list), `position fen` (the
//!   game's start FEN by our rules), `position moves`* (the start and three legal moves):
//!   each followed by `go depth 1`, whose `bestmove` must be legal there by our rules.
//! - `go depth 2`, `go nodes 1000` (2 s each), `go movetime 100` (100 ms + `timemargin`),
//!   `go clock` (1 s each, no increment), `go clock+inc` (1 s + 100 ms), all in the
//!   position after the three moves: a legal `bestmove` on time (the line says how long it
//!   took and how much time was left).
//! - `go infinite then stop` — no `bestmove` for 200 ms, then `stop` → a legal `bestmove`
//!   within 500 ms.
//! - `isready while searching` — `go infinite`, `isready` → `readyok` before any
//!   `bestmove`; then `stop` → `bestmove`.
//! - `go while searching` — `go movetime 200` and at once `go depth 1`: two legal
//!   `bestmove`s, in order.
//! - `info lines`* — every `info` line read so far well formed: known keys, their numbers
//!   parse, `currmove` and the `pv` legal by our rules.
//! - `stop without search`* — `stop`, `isready`: nothing but `readyok`.
//! - UGI only: `query gameover`, `query p1turn`, `query result` — each in the position
//!   after the three moves and in a finished game (a seeded random game played out by our
//!   rules), answered `response …` as our rules say.
//! - `quit`* — the process exits within 1 s.
//! - `end of input` — a fresh process, handshaken, whose input is closed, exits within 2 s.

use super::{
    ms, no_engine, result_word, run_steps, Conn, Driver, Failure, Positions, Report, Step, Target,
    QUIET, READY, SEARCH, STOP,
};
use crate::engines::uci::is_error_report;
use engine::game::{Notation, RuleSet, Side};
use engine::protocol::uci::Flavour;
use std::time::{Duration, Instant};

/// An option as the handshake declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Declared {
    name: String,
    /// `Some((default, min, max))` for a spin option.
    spin: Option<(i64, i64, i64)>,
}

/// The `info` lines seen: how many, and the first that is not well formed.
#[derive(Default)]
struct Infos {
    count: usize,
    bad: Option<(String, String)>,
}

struct Uci<G: Notation> {
    target: Target,
    dialect: Flavour,
    conn: Option<Conn>,
    declared: Vec<Declared>,
    infos: Infos,
    pos: Positions<G>,
}

/// Checks a UAI or UGI engine: the steps in the order a game needs them, the searches
/// and (UGI) the queries, then `quit` and the end of input.
pub(super) fn run<G: Notation>(target: Target, dialect: Flavour, quick: bool, report: &mut Report) {
    let mut steps: Vec<Step<Uci<G>>> = vec![
        Step::first("handshake", Uci::handshake),
        Step::on("isready", true, Uci::isready),
        Step::on("setoption min/max", false, Uci::setoption_min_max),
        Step::on("engine options", true, Uci::engine_options),
        Step::on("new game", true, Uci::new_game),
    ];
    steps.extend(search_steps::<G>());
    steps.extend([
        Step::on("go infinite then stop", false, Uci::infinite_stop),
        Step::on(
            "isready while searching",
            false,
            Uci::isready_while_searching,
        ),
        Step::on("go while searching", false, Uci::go_while_searching),
        Step::on("info lines", true, Uci::info_lines),
        Step::on("stop without search", true, Uci::stop_without_search),
    ]);
    if dialect == Flavour::Ugi {
        steps.extend(ugi_queries::<G>());
    }
    steps.push(Step::quit());
    steps.push(Step::own("end of input", false, Uci::end_of_input));
    let mut uci = Uci {
        target,
        dialect,
        conn: None,
        declared: Vec::new(),
        infos: Infos::default(),
        pos: Positions::new(G::Rules::ENGINE),
    };
    run_steps(&mut uci, &steps, quick, report);
}

/// The searches: each way of giving a position, then each limit of `go`, every one
/// answered by a legal move in time.
fn search_steps<G: Notation>() -> Vec<Step<Uci<G>>> {
    vec![
        Step::on("position startpos", false, |s| {
            let (start, cmd) = (s.pos.start.clone(), "position startpos".to_string());
            s.search_step(&cmd, &start, "go depth 1", SEARCH)
        }),
        Step::on("position startpos moves", false, |s| {
            let (start, cmd) = (s.pos.start.clone(), "position startpos moves".to_string());
            s.search_step(&cmd, &start, "go depth 1", SEARCH)
        }),
        Step::on("position fen", false, |s| {
            let start = s.pos.start.clone();
            let cmd = format!("position fen {}", start.fen());
            s.search_step(&cmd, &start, "go depth 1", SEARCH)
        }),
        Step::on("position moves", true, |s| {
            s.go_after_moves("go depth 1", SEARCH)
        }),
        Step::on("go depth 2", false, |s| {
            s.go_after_moves("go depth 2", SEARCH)
        }),
        Step::on("go nodes 1000", false, |s| {
            s.go_after_moves("go nodes 1000", SEARCH)
        }),
        Step::on("go movetime 100", false, |s| {
            let limit = Duration::from_millis(100) + s.target.margin;
            s.go_after_moves("go movetime 100", limit)
        }),
        Step::on("go clock", false, |s| {
            let [[t1, t2], _] = s.dialect.clock_words();
            let limit = Duration::from_millis(1000) + s.target.margin;
            s.go_after_moves(&format!("go {t1} 1000 {t2} 1000"), limit)
        }),
        Step::on("go clock+inc", false, |s| {
            let [[t1, t2], [i1, i2]] = s.dialect.clock_words();
            let limit = Duration::from_millis(1000) + s.target.margin;
            s.go_after_moves(&format!("go {t1} 1000 {t2} 1000 {i1} 100 {i2} 100"), limit)
        }),
    ]
}

/// UGI's queries (`query gameover`, `p1turn`, `result`), each answered from the
/// position the engine was given.
fn ugi_queries<G: Notation>() -> Vec<Step<Uci<G>>> {
    vec![
        Step::on("query gameover", false, |s| {
            s.query("gameover", |pos| {
                if pos.outcome().is_some() {
                    "true"
                } else {
                    "false"
                }
            })
        }),
        Step::on("query p1turn", false, |s| {
            s.query("p1turn", |pos| {
                if pos.side_to_move() == Side::First {
                    "true"
                } else {
                    "false"
                }
            })
        }),
        Step::on("query result", false, |s| {
            s.query("result", |pos| result_word(pos.outcome()))
        }),
    ]
}

impl<G: Notation> Driver for Uci<G> {
    fn conn(&mut self) -> &mut Option<Conn> {
        &mut self.conn
    }

    fn fresh(&mut self) -> Result<(), Failure> {
        let mut c = Conn::start(&self.target)?;
        let ok = self.dialect.ok();
        c.expect(self.dialect.hello(), ok, self.target.init_timeout, |_| {
            Ok(())
        })?;
        let options = self.target.options.clone();
        for (name, value) in &options {
            set_option(&mut c, name, value, self.target.init_timeout)?;
        }
        c.expect("isready", "readyok", READY, |_| Ok(()))?;
        self.conn = Some(c);
        Ok(())
    }
}

/// Whether a spin option sizes what the engine allocates or starts: `Hash`, `Threads`,
/// and any whose name says it is a size (`…Size`, `…Memory`, `…Cache`, `…MB`). Set to
/// its maximum it asks for what the machine may not have (Moonbird's `Hash` goes to
/// 1 TiB, and the engine exits), which says nothing about the protocol.
fn is_resource(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["hash", "thread", "size", "memory", "cache"]
        .iter()
        .any(|w| n.contains(w))
        || n.ends_with("mb")
        || n.ends_with("mib")
}

/// The values a resource option is tried at: small ones (its min and the next) and its
/// default, in that order (the default last, where the engine is left), each once.
fn resource_values(default: i64, min: i64, max: i64) -> Vec<i64> {
    let mut values = Vec::new();
    for v in [min, min.saturating_add(1).min(max), default] {
        if values.last() != Some(&v) && !(v != default && values.contains(&v)) {
            values.push(v);
        }
    }
    values
}

/// `setoption name N value V`, `isready` → `readyok` with no error report before it.
fn set_option(c: &mut Conn, name: &str, value: &str, limit: Duration) -> Result<(), Failure> {
    c.send(&format!("setoption name {name} value {value}"))?;
    c.expect("isready", "readyok", limit, |l| {
        if is_error_report(l) {
            Err(format!(
                "'readyok' and no error report (value {value} is allowed)"
            ))
        } else {
            Ok(())
        }
    })
    .map(drop)
}

impl<G: Notation> Uci<G> {
    fn handshake(&mut self) -> Result<String, Failure> {
        let mut c = Conn::start(&self.target)?;
        let (hello, ok) = (self.dialect.hello(), self.dialect.ok());
        c.send(hello)?;
        let started = Instant::now();
        let limit = self.target.init_timeout;
        let mut name: Option<String> = None;
        let mut declared = Vec::new();
        let expected = format!("'id name …', options, then '{ok}'");
        loop {
            let line = c.recv_within(started, limit, &expected)?;
            let l = line.trim();
            if l == ok {
                break;
            }
            if let Some(rest) = l.strip_prefix("id name") {
                name = Some(rest.trim().to_string());
            } else if l.split_whitespace().next() == Some("option") {
                match parse_option(l) {
                    Ok(d) => declared.push(d),
                    Err(why) => {
                        let mut f = c.fail(format!("a well-formed option line: {why}"));
                        f.got = format!("'{}'", super::cut(l, 160));
                        return Err(f);
                    }
                }
            }
        }
        let took = started.elapsed();
        let name = match name.filter(|n| !n.is_empty()) {
            Some(n) => n,
            None => return Err(c.fail(format!("an 'id name NAME' line before '{ok}'"))),
        };
        let detail = format!(
            "id name {name}, {} options, {ok} after {} ms",
            declared.len(),
            ms(took)
        );
        self.declared = declared;
        self.conn = Some(c);
        Ok(detail)
    }

    fn isready(&mut self) -> Result<String, Failure> {
        let took = self.c()?.expect("isready", "readyok", READY, |_| Ok(()))?;
        Ok(format!("readyok after {} ms", ms(took)))
    }

    fn setoption_min_max(&mut self) -> Result<String, Failure> {
        let limit = self.target.init_timeout;
        let spins: Vec<(String, (i64, i64, i64))> = self
            .declared
            .iter()
            .filter_map(|d| d.spin.map(|s| (d.name.clone(), s)))
            .collect();
        let c = self.c()?;
        let mut resources = Vec::new();
        for (name, (default, min, max)) in &spins {
            let values = if is_resource(name) {
                resources.push(name.as_str());
                resource_values(*default, *min, *max)
            } else {
                vec![*min, *max, *default]
            };
            for value in values {
                // The failure shows this round trip only.
                c.mark();
                set_option(c, name, &value.to_string(), limit)?;
            }
        }
        let mut detail = match spins.len() {
            0 => "no spin options declared".into(),
            n => format!("{n} spin options set to min, max and back to default"),
        };
        if !resources.is_empty() {
            detail.push_str(&format!(
                "; resource options ({}) to min, min + 1 and default only, never their max",
                resources.join(", ")
            ));
        }
        Ok(detail)
    }

    fn engine_options(&mut self) -> Result<String, Failure> {
        let limit = self.target.init_timeout;
        let options = self.target.options.clone();
        let declared: Vec<String> = self.declared.iter().map(|d| d.name.clone()).collect();
        let c = self.c()?;
        for (name, value) in &options {
            if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                return Err(Failure::unsent(
                    format!("the options {}", declared.join(", ")),
                    format!("option.{name} to be an option the engine declares"),
                ));
            }
            set_option(c, name, value, limit)?;
        }
        Ok(match options.len() {
            0 => "none given".into(),
            n => format!("{n} set"),
        })
    }

    fn new_game(&mut self) -> Result<String, Failure> {
        let limit = self.target.init_timeout;
        let new_game = self.dialect.new_game();
        let c = self.c()?;
        c.send(new_game)?;
        let took = c.expect("isready", "readyok", limit, |_| Ok(()))?;
        Ok(format!("readyok after {} ms", ms(took)))
    }

    /// `position startpos moves …` (the three moves) and `go`, answered within `limit`.
    fn go_after_moves(&mut self, go: &str, limit: Duration) -> Result<String, Failure> {
        let cmd = format!("position startpos moves {}", self.pos.moves.join(" "));
        let after = self.pos.after.clone();
        self.search_step(&cmd, &after, go, limit)
    }

    /// Sends `position` and `go`; a legal `bestmove` in `pos` within `limit`.
    fn search_step(
        &mut self,
        position: &str,
        pos: &G,
        go: &str,
        limit: Duration,
    ) -> Result<String, Failure> {
        let c = self.conn.as_mut().ok_or_else(no_engine)?;
        c.send(position)?;
        c.send(go)?;
        let started = Instant::now();
        let mv = bestmove(c, &mut self.infos, pos, started, limit)?;
        let took = started.elapsed();
        Ok(format!(
            "bestmove {mv} after {} ms, {} ms before the deadline of {} ms",
            ms(took),
            ms(limit.saturating_sub(took)),
            ms(limit)
        ))
    }

    fn infinite_stop(&mut self) -> Result<String, Failure> {
        let cmd = format!("position startpos moves {}", self.pos.moves.join(" "));
        let after = self.pos.after.clone();
        let c = self.conn.as_mut().ok_or_else(no_engine)?;
        c.send(&cmd)?;
        c.send("go infinite")?;
        let started = Instant::now();
        while let Ok(line) = c.recv(started + QUIET) {
            match line.split_whitespace().next() {
                Some("bestmove") => {
                    return Err(c.fail(format!(
                        "no bestmove before 'stop' (it came after {} ms)",
                        ms(started.elapsed())
                    )))
                }
                Some("info") if is_error_report(&line) => {
                    return Err(c.fail("a search, not an error report"))
                }
                Some("info") => self.infos.check(&line, &after),
                _ => {}
            }
        }
        c.send("stop")?;
        let stopped = Instant::now();
        let mv = bestmove(c, &mut self.infos, &after, stopped, STOP)?;
        Ok(format!(
            "no bestmove for {} ms, then bestmove {mv} {} ms after stop",
            ms(QUIET),
            ms(stopped.elapsed())
        ))
    }

    fn isready_while_searching(&mut self) -> Result<String, Failure> {
        let cmd = format!("position startpos moves {}", self.pos.moves.join(" "));
        let after = self.pos.after.clone();
        let c = self.conn.as_mut().ok_or_else(no_engine)?;
        c.send(&cmd)?;
        c.send("go infinite")?;
        let infos = &mut self.infos;
        let took = c.expect("isready", "readyok", READY, |l| {
            match l.split_whitespace().next() {
                Some("bestmove") => {
                    return Err(
                        "'readyok' while 'go infinite' searches, and no bestmove before 'stop'"
                            .into(),
                    )
                }
                Some("info") if is_error_report(l) => {
                    return Err("a search, not an error report".into())
                }
                Some("info") => infos.check(l, &after),
                _ => {}
            }
            Ok(())
        })?;
        c.send("stop")?;
        let stopped = Instant::now();
        let mv = bestmove(c, &mut self.infos, &after, stopped, STOP)?;
        Ok(format!(
            "readyok after {} ms, then bestmove {mv} {} ms after stop",
            ms(took),
            ms(stopped.elapsed())
        ))
    }

    fn go_while_searching(&mut self) -> Result<String, Failure> {
        let cmd = format!("position startpos moves {}", self.pos.moves.join(" "));
        let after = self.pos.after.clone();
        let margin = self.target.margin;
        let c = self.conn.as_mut().ok_or_else(no_engine)?;
        c.send(&cmd)?;
        c.send("go movetime 200")?;
        c.send("go depth 1")?;
        let started = Instant::now();
        let first = bestmove(
            c,
            &mut self.infos,
            &after,
            started,
            Duration::from_millis(200) + margin,
        )?;
        let second = bestmove(c, &mut self.infos, &after, started, SEARCH + margin)?;
        Ok(format!(
            "bestmove {first}, then bestmove {second} after {} ms",
            ms(started.elapsed())
        ))
    }

    fn info_lines(&mut self) -> Result<String, Failure> {
        match &self.infos.bad {
            None if self.infos.count == 0 => Ok("no info lines were printed".into()),
            None => Ok(format!("{} info lines well formed", self.infos.count)),
            Some((line, why)) => Err(Failure {
                minor: false,
                sent: "the searches above".into(),
                got: format!("'{}'", super::cut(line, 160)),
                expected: format!("well-formed info lines ({why})"),
            }),
        }
    }

    /// `stop` with nothing to stop, then `isready`: only `readyok` may come. A stray
    /// `bestmove` breaks games (a manager takes it for the answer to its next `go`);
    /// other chatter (Moonbird's `Unknown command: stop`) is a [minor](Failure::minor)
    /// failure: cutechess-cli and fastchess read past it.
    fn stop_without_search(&mut self) -> Result<String, Failure> {
        let c = self.c()?;
        c.send("stop")?;
        let mut chatter = false;
        let took = c.expect("isready", "readyok", READY, |l| {
            match l.split_whitespace().next() {
                None => Ok(()),
                Some("bestmove") => {
                    Err("no bestmove to 'stop' when nothing searches, then 'readyok'".into())
                }
                Some(_) => {
                    chatter = true;
                    Ok(())
                }
            }
        })?;
        if chatter {
            let mut f = c.fail(
                "no output to 'stop' when nothing searches, then 'readyok' (no manager \
                 relies on the silence: -check only warns)",
            );
            f.minor = true;
            return Err(f);
        }
        Ok(format!("nothing, then readyok after {} ms", ms(took)))
    }

    /// `query WORD` in the position after the three moves and in a finished game,
    /// answered as `expected` says for each.
    fn query(&mut self, word: &str, expected: fn(&G) -> &'static str) -> Result<String, Failure> {
        let mut cases = vec![(
            "in play".to_string(),
            format!("position startpos moves {}", self.pos.moves.join(" ")),
            self.pos.after.clone(),
        )];
        if let Some((moves, over)) = &self.pos.over {
            cases.push((
                format!("after a finished game of {} plies", moves.len()),
                format!("position startpos moves {}", moves.join(" ")),
                over.clone(),
            ));
        }
        let c = self.c()?;
        let mut seen = Vec::new();
        for (label, position, pos) in &cases {
            c.mark();
            c.send(position)?;
            c.send(&format!("query {word}"))?;
            let want = expected(pos);
            let started = Instant::now();
            let awaited = format!("'response {want}' {label}");
            let answer = loop {
                let l = c.recv_within(started, READY, &awaited)?;
                if l.split_whitespace().next() == Some("response") {
                    break l.split_whitespace().nth(1).unwrap_or("").to_string();
                }
            };
            if answer != want {
                return Err(c.fail(format!("'response {want}' {label}, as our rules say")));
            }
            seen.push(format!("{want} {label}"));
        }
        if self.pos.over.is_none() {
            seen.push("no random game ended to check a finished one".into());
        }
        Ok(format!("response {}", seen.join(", ")))
    }

    fn end_of_input(&mut self) -> Result<String, Failure> {
        let mut c = Conn::start(&self.target)?;
        let r = c
            .expect(
                self.dialect.hello(),
                self.dialect.ok(),
                self.target.init_timeout,
                |_| Ok(()),
            )
            .and_then(|_| c.end_of_input_step());
        c.kill();
        r
    }
}

/// Reads up to a `bestmove` within `limit` of `started`, checking `info` lines on the
/// way; the move must be legal in `pos`. Returns the move.
fn bestmove<G: Notation>(
    c: &mut Conn,
    infos: &mut Infos,
    pos: &G,
    started: Instant,
    limit: Duration,
) -> Result<String, Failure> {
    loop {
        let line = c.recv_within(started, limit, "'bestmove MOVE'")?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") => {
                let Some(mv) = words.next() else {
                    return Err(c.fail("'bestmove MOVE'"));
                };
                if pos.parse_move(mv).is_none() {
                    return Err(c.fail(format!(
                        "a legal move in {} by our rules, not '{}'",
                        pos.fen(),
                        super::cut(mv, 40)
                    )));
                }
                return Ok(mv.to_string());
            }
            Some("info") => {
                if is_error_report(&line) {
                    return Err(c.fail("a search, not an error report"));
                }
                infos.check(&line, pos);
            }
            _ => {}
        }
    }
}

impl Infos {
    /// Counts an `info` line of a search of `pos`, keeping the first that is not well
    /// formed.
    fn check<G: Notation>(&mut self, line: &str, pos: &G) {
        self.count += 1;
        if self.bad.is_none() {
            if let Err(why) = check_info(line, pos) {
                self.bad = Some((line.to_string(), why));
            }
        }
    }
}

/// Keys of an `info` line followed by one number that cannot be negative.
const UNSIGNED_KEYS: [&str; 11] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "multipv",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
];

/// Whether an `info` line of a search of `pos` is well formed: only the keys UCI knows
/// (and `wdl`), each with the numbers it takes; `currmove` and every `pv` move legal by
/// our rules, in order; `string`, `refutation` and `currline` end the line.
fn check_info<G: Notation>(line: &str, pos: &G) -> Result<(), String> {
    let mut words = line.split_whitespace().peekable();
    if words.next() != Some("info") {
        return Err("not an info line".into());
    }
    let number = |key: &str, w: Option<&str>| -> Result<(), String> {
        match w {
            Some(v) if v.parse::<u64>().is_ok() => Ok(()),
            Some(v) => Err(format!("'{key} {}': not a number", super::cut(v, 20))),
            None => Err(format!("'{key}' without its number")),
        }
    };
    while let Some(key) = words.next() {
        match key {
            k if UNSIGNED_KEYS.contains(&k) => number(k, words.next())?,
            "score" => {
                let kind = words.next();
                let value = words.next();
                match (kind, value) {
                    (Some("cp" | "mate"), Some(v)) if v.parse::<i64>().is_ok() => {}
                    _ => return Err("'score' needs 'cp N' or 'mate N'".into()),
                }
                if matches!(words.peek(), Some(&"lowerbound" | &"upperbound")) {
                    words.next();
                }
            }
            "wdl" => {
                for _ in 0..3 {
                    number("wdl", words.next())?;
                }
            }
            "currmove" => match words.next() {
                Some(m) if pos.parse_move(m).is_some() => {}
                Some(m) => return Err(format!("currmove '{}' is not legal", super::cut(m, 20))),
                None => return Err("'currmove' without a move".into()),
            },
            "pv" => {
                let mut p = pos.clone();
                for m in words.by_ref() {
                    let Some(mv) = p.parse_move(m) else {
                        return Err(format!(
                            "pv move '{}' is not legal in {}",
                            super::cut(m, 20),
                            p.fen()
                        ));
                    };
                    p.make_move(mv);
                }
            }
            "string" | "refutation" | "currline" => return Ok(()),
            other => return Err(format!("unknown key '{}'", super::cut(other, 20))),
        }
    }
    Ok(())
}

/// An `option name NAME type TYPE …` line, checked: the name, a known type, and the
/// values the type needs (UCI's option declaration).
fn parse_option(line: &str) -> Result<Declared, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) != Some(&"name") {
        return Err("'option name NAME type TYPE …'".into());
    }
    let keys = ["type", "default", "min", "max", "var"];
    let type_at = words.iter().position(|w| *w == "type").ok_or("no 'type'")?;
    let name = words[2..type_at].join(" ");
    if name.is_empty() {
        return Err("an empty name".into());
    }
    // The values of each key after the type (a default or a var may have blanks).
    let mut values: Vec<(&str, String)> = Vec::new();
    let mut i = type_at;
    while i < words.len() {
        let key = words[i];
        if !keys.contains(&key) {
            return Err(format!("unknown word '{}'", super::cut(key, 20)));
        }
        let end = (i + 1..words.len())
            .find(|&j| keys.contains(&words[j]))
            .unwrap_or(words.len());
        values.push((key, words[i + 1..end].join(" ")));
        i = end;
    }
    let get = |k: &str| {
        values
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.as_str())
    };
    let kind = get("type").unwrap_or("");
    let int = |k: &str| -> Result<i64, String> {
        let v = get(k).ok_or(format!("a spin option needs '{k}'"))?;
        v.parse()
            .map_err(|_| format!("{k} '{}' is not an integer", super::cut(v, 20)))
    };
    let spin = match kind {
        "spin" => {
            let (default, min, max) = (int("default")?, int("min")?, int("max")?);
            if !(min <= default && default <= max) {
                return Err(format!(
                    "min <= default <= max (min {min}, default {default}, max {max})"
                ));
            }
            Some((default, min, max))
        }
        "check" => match get("default") {
            Some("true" | "false") => None,
            _ => return Err("a check option's default is true or false".into()),
        },
        "combo" => {
            let vars: Vec<&str> = values
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.as_str())
                .collect();
            match get("default") {
                Some(d) if vars.contains(&d) => None,
                _ => return Err("a combo option's default is one of its vars".into()),
            }
        }
        "string" => match get("default") {
            Some(_) => None,
            None => return Err("a string option needs 'default'".into()),
        },
        "button" => None,
        other => {
            return Err(format!(
                "type '{}' is not check, spin, combo, button or string",
                super::cut(other, 20)
            ))
        }
    };
    Ok(Declared { name, spin })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ataxx::{Position, Rules};

    /// Issue 53 item 12: resource options are tried small and at their default, never at
    /// their maximum (Moonbird's `Hash` max is 1 TiB); the others keep min, max, default.
    #[test]
    fn resource_options_are_tried_small() {
        for name in [
            "Hash",
            "Threads",
            "TTSize",
            "EvalCacheMB",
            "max_memory",
            "NNCache",
        ] {
            assert!(is_resource(name), "{name}");
        }
        for name in ["MoveOverhead", "LMR", "HistoryDiv", "Contempt", "Combos"] {
            assert!(!is_resource(name), "{name}");
        }
        assert_eq!(resource_values(16, 1, 1 << 20), [1, 2, 16]);
        assert_eq!(resource_values(1, 1, 512), [1, 2, 1]);
        assert_eq!(resource_values(2, 1, 512), [1, 2]);
        assert_eq!(resource_values(1, 1, 1), [1]);
        assert_eq!(resource_values(0, 0, 0), [0]);
    }

    #[test]
    fn option_lines() {
        assert_eq!(
            parse_option("option name Hash type spin default 16 min 1 max 4096"),
            Ok(Declared {
                name: "Hash".into(),
                spin: Some((16, 1, 4096))
            })
        );
        assert!(parse_option("option name Clear Hash type button").is_ok());
        assert!(parse_option("option name Ponder type check default false").is_ok());
        assert!(
            parse_option("option name Style type combo default Solid var Solid var Risky").is_ok()
        );
        assert!(parse_option("option name Path type string default <empty>").is_ok());
        for bad in [
            "option name Hash type spin default 0 min 1 max 4096",
            "option name Hash type spin default 16 min 1",
            "option name Hash type spin default x min 1 max 2",
            "option name type spin default 1 min 1 max 1",
            "option name Ponder type check default maybe",
            "option name Style type combo default Wild var Solid",
            "option name X type colour",
            "option name X",
            "option Hash type spin default 1 min 1 max 1",
        ] {
            assert!(parse_option(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn info_lines() {
        let pos = Position::startpos(Rules::Uai);
        for good in [
            "info depth 3 seldepth 4 score cp -12 nodes 1000 nps 5 time 2 hashfull 0 pv f2 a2",
            "info score mate -2 lowerbound depth 1",
            "info currmove g2 currmovenumber 1",
            "info string anything at all 1 2 3",
            "info depth 1 wdl 500 300 200",
        ] {
            assert_eq!(check_info(good, &pos), Ok(()), "{good}");
        }
        for bad in [
            "info depth x",
            "info depth",
            "info \u{1}\u{2} what is this",
            "info score 12",
            "info pv f2 f3",
            "info currmove a4",
            "info nodes -5",
        ] {
            assert!(check_info(bad, &pos).is_err(), "{bad}");
        }
    }
}

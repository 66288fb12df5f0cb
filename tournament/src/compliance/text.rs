//! The steps for a game's course text language (`proto=text`), driven through the
//! game's text dialect ([`TextCodec`]) as the runner's text client drives it: the set-up commands
//! and the dump that closes them, the start commands, the moves in the language's
//! notation, the AI move lines. In order; `*` marks the quick part:
//!
//! - `refused line`* — a fresh program is sent `frobnicate`: an error line within 1 s,
//!   on stdout or stderr (Lines of Action's language writes its errors there).
//! - `set-up`* — the set-up commands for a game from the start with the program's AI
//!   moving first: the dump (two markers) within `inittimeout`, no error line before it.
//! - `start`* — the start commands (none for some languages, whose AI moves as soon as
//!   it is to move): an AI move line within 10 s, its move legal by our rules.
//! - `move` — the other side's first legal move, in the language's notation: the AI's
//!   next move within 10 s, legal.
//! - `quit`* — the process exits within 1 s.
//! - `end of input` — a fresh program, set up, whose input is closed, exits within 2 s.

use super::{
    first_move, ms, run_steps, Conn, Driver, Failure, Report, Step, Target, READY, SLOW_MOVE,
};
use crate::engines::process::ReadError;
use engine::game::{Notation, Opening, Side};
use engine::protocol::text::{EngineSetup, TextCodec};
use std::time::{Duration, Instant};

struct Text<G: Notation> {
    /// The dialect spoken.
    codec: &'static dyn TextCodec<G>,
    target: Target,
    conn: Option<Conn>,
    start: G,
    /// Where the game stands once play has begun (after the AI's first move).
    playing: Option<G>,
}

pub(super) fn run<G: Notation>(
    codec: &'static dyn TextCodec<G>,
    target: Target,
    quick: bool,
    report: &mut Report,
) {
    let steps: Vec<Step<Text<G>>> = vec![
        Step::own("refused line", true, Text::refused_line),
        Step::own("set-up", true, |s| {
            if s.conn.is_none() {
                s.conn = Some(Conn::start(&s.target)?);
            }
            let took = s.set_up()?;
            Ok(format!("dump after {} ms", ms(took)))
        }),
        Step::on("start", true, Text::start_play),
        Step::on("move", false, Text::reply),
        Step::quit(),
        Step::end_of_input(),
    ];
    let mut text = Text::<G> {
        codec,
        target,
        conn: None,
        start: G::startpos(codec.rules()),
        playing: None,
    };
    run_steps(&mut text, &steps, quick, report);
}

impl<G: Notation> Driver for Text<G> {
    fn conn(&mut self) -> &mut Option<Conn> {
        &mut self.conn
    }

    /// A fresh program, set up (play not begun).
    fn fresh(&mut self) -> Result<(), Failure> {
        self.conn = Some(Conn::start(&self.target)?);
        self.set_up().map(drop)
    }
}

/// True for an error line (`error: …` in any case, after any prompt).
fn is_error(line: &str) -> bool {
    line.to_ascii_lowercase().contains("error")
}

impl<G: Notation> Text<G> {
    fn refused_line(&mut self) -> Result<String, Failure> {
        let mut c = Conn::start(&self.target)?;
        c.send("frobnicate")?;
        let started = Instant::now();
        loop {
            if let Some(l) = c.stderr_lines().iter().find(|l| is_error(l)) {
                let detail = format!(
                    "'{}' on stderr after {} ms",
                    super::cut(l, 60),
                    ms(started.elapsed())
                );
                self.conn = Some(c);
                return Ok(detail);
            }
            // Short reads, so a line on stderr is seen soon after it comes.
            let slice = (Instant::now() + Duration::from_millis(20)).min(started + READY);
            match c.recv(slice) {
                Ok(l) if is_error(&l) => {
                    let detail = format!(
                        "'{}' after {} ms",
                        super::cut(&l, 60),
                        ms(started.elapsed())
                    );
                    self.conn = Some(c);
                    return Ok(detail);
                }
                Ok(_) => {}
                Err(ReadError::Timeout) if Instant::now() < started + READY => {}
                Err(e) => {
                    return Err(c.fail_read(
                        &e,
                        started.elapsed(),
                        format!("an error line within {} ms", ms(READY)),
                    ))
                }
            }
        }
    }

    /// Sends the set-up commands and reads up to the dump's closing marker.
    fn set_up(&mut self) -> Result<Duration, Failure> {
        let opening = Opening {
            base: self.start.clone(),
            moves: Vec::new(),
        };
        let limit = self.target.init_timeout;
        let codec = self.codec;
        let commands = codec
            .setup_commands(&EngineSetup::new(&opening, Side::First, 1, false))
            .map_err(|e| Failure::unsent(e, "a start position the language can set up"))?;
        self.playing = None;
        let c = self.c()?;
        for cmd in &commands {
            c.send(cmd)?;
        }
        let started = Instant::now();
        let mut markers = 0;
        while markers < 2 {
            let l = c.recv_within(started, limit, "a board dump")?;
            if codec.is_dump_marker(&l) {
                markers += 1;
            } else if is_error(&l) {
                return Err(c.fail("the set-up taken: a dump, no error line"));
            }
        }
        Ok(started.elapsed())
    }

    /// Reads the AI's move (the first mover's) in `pos` within [`SLOW_MOVE`].
    fn ai_move(
        codec: &dyn TextCodec<G>,
        c: &mut Conn,
        pos: &G,
    ) -> Result<(G::Move, String), Failure> {
        let started = Instant::now();
        loop {
            let l = c.recv_within(started, SLOW_MOVE, "an AI move line")?;
            if let Some((mover, text)) = codec.parse_ai_move(&l) {
                if mover.is_some_and(|m| m != Side::First) {
                    continue;
                }
                return match codec.parse_move_text(pos, &text) {
                    Some(mv) => Ok((mv, format!("{} after {} ms", text, ms(started.elapsed())))),
                    None => Err(c.fail(format!("an AI move legal in {} by our rules", pos.fen()))),
                };
            }
            if codec.parse_result(&l).is_some() {
                return Err(c.fail("an AI move, not a result: the game is not over"));
            }
            if is_error(&l) {
                return Err(c.fail("an AI move, not an error line"));
            }
        }
    }

    fn start_play(&mut self) -> Result<String, Failure> {
        let start = self.start.clone();
        let codec = self.codec;
        let c = self.c()?;
        for cmd in codec.start_commands() {
            c.send(&cmd)?;
        }
        let (mv, detail) = Self::ai_move(codec, c, &start)?;
        let mut pos = start;
        pos.make_move(mv);
        self.playing = Some(pos);
        Ok(detail)
    }

    fn reply(&mut self) -> Result<String, Failure> {
        if self.playing.is_none() {
            self.start_play()?;
        }
        let Some(mut pos) = self.playing.take() else {
            return Err(Failure::unsent("no game under way", "a game under way"));
        };
        let Some(mv) = first_move(&pos) else {
            return Err(Failure::unsent(
                "the game over after one move",
                "a game that goes on",
            ));
        };
        let codec = self.codec;
        let text = codec.move_text(&pos, mv);
        pos.make_move(mv);
        let c = self.c()?;
        c.send(&text)?;
        let (ai, detail) = Self::ai_move(codec, c, &pos)?;
        pos.make_move(ai);
        self.playing = Some(pos);
        Ok(detail)
    }
}

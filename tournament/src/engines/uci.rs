//! The client for the UCI family: UAI (`shared/specs/uai.md`, for games that speak it)
//! and UGI (`shared/specs/ugi.md`, every game). Both are UCI with other words for the
//! handshake, the new game and the clocks ([`Flavour`]); FEN and moves are the game's
//! protocol notation ([`Notation::fen`], [`Notation::move_name`]).

use crate::engines::client::ProcessClient;
use crate::engines::player::{Answer, Eval, Fault, GameStart, MoveRequest, Player, Reply};
use crate::engines::process::{EngineProcess, Launch, LogTag, ReadError};
use crate::output::results::Score;
use engine::game::{Game, Notation, RuleSet};
use engine::protocol::uci::Flavour;
use std::time::{Duration, Instant};

/// A UAI or UGI engine process, started lazily and reused across games.
pub struct UciClient {
    dialect: Flavour,
    launch: Launch,
    options: Vec<(String, String)>,
    init_timeout: Duration,
    process: Option<EngineProcess>,
    log: Option<LogTag>,
    /// When `uainewgame`/`isready` were sent ahead by [`Player::begin_new_game`]; the
    /// `readyok` is then for `new_game` to read.
    ready_asked: Option<Instant>,
    /// The last `position` command sent and what it was built from
    /// ([`PositionText`] of the game played), so the next one only adds the new moves.
    position: Option<Box<dyn std::any::Any + Send>>,
}

/// A `position fen … moves …` command and what it says: the start's FEN, the moves
/// and the position after them. Naming a move takes the position before it, so the
/// command used to be rebuilt by replaying every move of the game from the start at
/// each request: on a 90-ply Ataxx game about 4,000 moves made (each updating the
/// evaluation network's accumulators) where 90 do.
struct PositionText<G: Game> {
    fen: String,
    moves: Vec<G::Move>,
    after: G,
    text: String,
}

impl<G: Notation> PositionText<G> {
    /// The command for `req`: `previous` extended by the moves played since, when it
    /// was for the same start and its moves begin this request's, else built anew.
    fn for_request(previous: Option<PositionText<G>>, req: &MoveRequest<'_, G>) -> Self {
        let fen = req.start.fen();
        let mut p = previous
            .filter(|p| p.fen == fen && req.moves.starts_with(&p.moves))
            .unwrap_or_else(|| PositionText {
                text: format!("position fen {fen}"),
                fen,
                moves: Vec::new(),
                after: req.start.clone(),
            });
        for &mv in &req.moves[p.moves.len()..] {
            if p.moves.is_empty() {
                p.text.push_str(" moves");
            }
            p.text.push(' ');
            p.text.push_str(&p.after.move_name(mv));
            p.after.make_move(mv);
            p.moves.push(mv);
        }
        p
    }
}

impl UciClient {
    /// A client that will start `launch` at the first game and speak `dialect`,
    /// logging its traffic to `log` if given.
    pub fn new(
        dialect: Flavour,
        launch: Launch,
        options: Vec<(String, String)>,
        init_timeout: Duration,
        log: Option<LogTag>,
    ) -> Self {
        UciClient {
            dialect,
            launch,
            options,
            init_timeout,
            process: None,
            log,
            ready_asked: None,
            position: None,
        }
    }
}

/// Reads lines until one equals `token` (surrounding blanks ignored), showing every
/// other line to `seen`, whose error ends the wait.
fn wait_for(
    p: &EngineProcess,
    token: &str,
    deadline: Instant,
    mut seen: impl FnMut(&str) -> Result<(), Fault>,
) -> Result<(), Fault> {
    loop {
        match p.recv_deadline(deadline) {
            Ok(line) if line.trim() == token => return Ok(()),
            Ok(line) => seen(&line)?,
            Err(ReadError::Timeout) => {
                return Err(Fault::Handshake(format!("no '{token}' in time")))
            }
            Err(ReadError::Closed) => {
                return Err(Fault::Handshake(format!("exited before '{token}'")))
            }
            Err(ReadError::TooLong) => return Err(Fault::Garbage(ReadError::too_long_message())),
        }
    }
}

/// The name an `option name NAME type …` line declares (the name may have blanks).
fn declared_option(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let end = words
        .iter()
        .position(|w| *w == "type")
        .unwrap_or(words.len());
    (end > 0).then(|| words[..end].join(" "))
}

/// True for an engine's report that it refused a command: `info string` with the word
/// `error` in it (as our engines and many others answer), or Stockfish's
/// `No such option: …`.
pub(crate) fn is_error_report(line: &str) -> bool {
    let line = line.trim();
    let info_error = line
        .strip_prefix("info string")
        .is_some_and(|rest| rest.to_ascii_lowercase().contains("error"));
    info_error || line.starts_with("No such option")
}

/// An engine's report, during a move request, that it refused the request's `position`
/// or `go`: `info string error…` (as our engines and many others say it). Stricter than
/// [`is_error_report`]: an `info string` that merely has the word in it is no refusal.
fn is_refusal(line: &str) -> bool {
    line.trim()
        .strip_prefix("info string")
        .is_some_and(|rest| rest.trim_start().to_ascii_lowercase().starts_with("error"))
}

/// At most 120 characters of an engine's line, for a reason.
fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(120).collect();
    if line.chars().nth(120).is_some() {
        s.push('…');
    }
    s
}

/// Whether the engine's own rules (the protocol's, [`RuleSet::ENGINE`]) end the game of
/// `req` within the moves sent, replayed from the start position as the engine replays
/// the `position` command: `its rules ended the game (third repetition) after 32 of the
/// 33 moves sent`. `None` when they do not (the referee's rules and the engine's then
/// agree on this game).
fn ended_by_engine_rules<G: Notation>(req: &MoveRequest<'_, G>) -> Option<String> {
    let mut pos = G::from_fen(&req.start.fen(), G::Rules::ENGINE).ok()?;
    let n = req.moves.len();
    for (i, &mv) in req.moves.iter().enumerate() {
        if pos.outcome().is_some() {
            return Some(format!(
                "its rules ended the game ({}) after {i} of the {n} moves sent",
                pos.end_reason()
            ));
        }
        if !pos.is_legal(mv) {
            return None;
        }
        pos.make_move(mv);
    }
    pos.outcome().is_some().then(|| match n {
        0 => format!(
            "its rules ended the game ({}) at the start position",
            pos.end_reason()
        ),
        n => format!(
            "its rules ended the game ({}) with the last of the {n} moves sent",
            pos.end_reason()
        ),
    })
}

/// Updates `eval` from an `info` line: its `depth` and `score cp N` / `score mate N`
/// (as cutechess-cli reads them), `seldepth`, `nodes`, `nps`, `hashfull`, `time` and
/// `pv` (the rest of the line), where present; `info string` lines say nothing.
pub fn read_info(line: &str, eval: &mut Eval) {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return;
    }
    while let Some(w) = words.next() {
        match w {
            "string" => return,
            "depth" => {
                if let Some(d) = words.next().and_then(|d| d.parse().ok()) {
                    eval.depth = Some(d);
                }
            }
            "seldepth" | "hashfull" => {
                if let Some(v) = words.next().and_then(|v| v.parse().ok()) {
                    *if w == "seldepth" {
                        &mut eval.seldepth
                    } else {
                        &mut eval.hashfull
                    } = Some(v);
                }
            }
            "nodes" | "nps" | "time" => {
                if let Some(v) = words.next().and_then(|v| v.parse().ok()) {
                    *match w {
                        "nodes" => &mut eval.nodes,
                        "nps" => &mut eval.nps,
                        _ => &mut eval.time_ms,
                    } = Some(v);
                }
            }
            "pv" => {
                let pv = words.by_ref().collect::<Vec<_>>().join(" ");
                if !pv.is_empty() {
                    eval.pv = Some(pv);
                }
            }
            "score" => {
                let kind = words.next();
                let value = words.next().and_then(|v| v.parse::<i32>().ok());
                match (kind, value) {
                    (Some("cp"), Some(v)) => eval.score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => eval.score = Some(Score::Mate(v)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// The `go` command for a request. Each side that has a clock gets its time and its
/// increment (so both sides' four words whenever both have clocks, as UGI managers
/// always send them); a side without one (a built-in player, `st=`) is left out, so an
/// engine on a clock always learns its own time.
pub fn go_command<G: Game>(dialect: Flavour, req: &MoveRequest<'_, G>) -> String {
    let [time_words, inc_words] = dialect.clock_words();
    let mut go = String::from("go");
    let l = &req.limits;
    let mut clocks = false;
    for (word, clock) in time_words.iter().zip(req.clock_ms) {
        if let Some(t) = clock {
            go.push_str(&format!(" {word} {}", t.max(0)));
            clocks = true;
        }
    }
    for ((word, clock), inc) in inc_words.iter().zip(req.clock_ms).zip(req.inc_ms) {
        if clock.is_some() {
            go.push_str(&format!(" {word} {inc}"));
        }
    }
    if let Some(m) = req.movestogo.filter(|_| clocks) {
        go.push_str(&format!(" movestogo {m}"));
    }
    if let Some(t) = l.movetime_ms {
        go.push_str(&format!(" movetime {t}"));
    }
    if let Some(d) = l.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = l.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

impl ProcessClient for UciClient {
    fn slot(&mut self) -> &mut Option<EngineProcess> {
        &mut self.process
    }

    /// Starts the program, finishes the handshake and sets the options. An option the
    /// engine did not declare in its handshake (`option name …`; names compared without
    /// regard to case, as UCI engines read them) is refused before anything is sent;
    /// each `setoption` is followed by an `isready`/`readyok` round trip, and an error
    /// report before the `readyok` (`info string …error…`, or Stockfish's `No such
    /// option`) refuses the option.
    fn start_process(&mut self) -> Result<(), Fault> {
        let mut p = EngineProcess::spawn(&self.launch, self.log.as_ref()).map_err(Fault::Start)?;
        let deadline = Instant::now() + self.init_timeout;
        p.send(self.dialect.hello()).map_err(Fault::Handshake)?;
        let mut declared: Vec<String> = Vec::new();
        wait_for(&p, self.dialect.ok(), deadline, |line| {
            declared.extend(declared_option(line));
            Ok(())
        })?;
        for (name, value) in &self.options {
            if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                return Err(Fault::Config(format!(
                    "'{name}' is not an option the engine declares ({})",
                    if declared.is_empty() {
                        "it declares none".to_string()
                    } else {
                        format!("it declares: {}", declared.join(", "))
                    }
                )));
            }
            p.send(&format!("setoption name {name} value {value}"))
                .map_err(Fault::Handshake)?;
            p.send("isready").map_err(Fault::Handshake)?;
            wait_for(&p, "readyok", deadline, |line| {
                if is_error_report(line) {
                    Err(Fault::Config(format!(
                        "option.{name}={value} refused: '{}'",
                        line.trim()
                    )))
                } else {
                    Ok(())
                }
            })?;
        }
        self.process = Some(p);
        Ok(())
    }

    /// Also forgets an `isready` asked ahead: the next process has not been asked.
    fn kill(&mut self) {
        self.ready_asked = None;
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }
}

impl<G: Notation> Player<G> for UciClient {
    /// The handshake and the options, then `isready` → `readyok` (UGI asks for it once
    /// after `ugiok`): an engine that never answers it would pass, then lose its first
    /// game's new-game sync and stop the run after a recorded game.
    fn check(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.start_process()
            .and_then(|()| {
                let p = self
                    .process
                    .as_mut()
                    .ok_or(Fault::Start("no process".into()))?;
                p.send("isready").map_err(Fault::Handshake)?;
                wait_for(p, "readyok", Instant::now() + self.init_timeout, |_| Ok(()))
            })
            .inspect_err(|_| self.kill())
    }

    /// A running engine is told about the new game at once; one to be (re)started is
    /// left to `new_game`.
    fn begin_new_game(&mut self, _start: &GameStart<'_, G>) {
        self.ready_asked = None;
        if !self.process.as_mut().is_some_and(|p| p.is_alive()) {
            return;
        }
        let Some(p) = self.process.as_mut() else {
            return;
        };
        p.drain();
        if p.send_lines(&[self.dialect.new_game(), "isready"]).is_ok() {
            self.ready_asked = Some(Instant::now());
        }
    }

    fn new_game(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        if let (Some(asked), Some(p)) = (self.ready_asked.take(), self.process.as_ref()) {
            return wait_for(p, "readyok", asked + self.init_timeout, |_| Ok(()))
                .inspect_err(|_| self.kill());
        }
        self.ensure_running()?;
        let p = self
            .process
            .as_mut()
            .ok_or(Fault::Start("no process".into()))?;
        let deadline = Instant::now() + self.init_timeout;
        p.send_lines(&[self.dialect.new_game(), "isready"])
            .map_err(Fault::Handshake)
            .and_then(|_| wait_for(p, "readyok", deadline, |_| Ok(())))
            .inspect_err(|_| self.kill())
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("engine not running".into()))?;
        let previous = self
            .position
            .take()
            .and_then(|b| b.downcast::<PositionText<G>>().ok())
            .map(|b| *b);
        let position = PositionText::for_request(previous, req);
        // One write for both lines: the engine reads them at once.
        p.send_lines(&[&position.text, &go_command(self.dialect, req)])
            .map_err(Fault::Crash)?;
        self.position = Some(Box::new(position));
        let mut eval = Eval::default();
        loop {
            match p.recv_deadline(req.deadline) {
                Ok(line) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("bestmove") => {
                            return match words.next() {
                                // A move its own rules had no room for: the game was
                                // over for it (LOA's repetition under -rules text).
                                Some(mv) if req.position.parse_move(mv).is_none() => {
                                    match ended_by_engine_rules(req) {
                                        Some(why) => Err(Fault::PositionRefused(format!(
                                            "{why}, and it answered '{}'",
                                            clip(line.trim())
                                        ))),
                                        None => Ok(Answer {
                                            reply: Reply::Notation(mv.to_string()),
                                            eval,
                                        }),
                                    }
                                }
                                Some(mv) => Ok(Answer {
                                    reply: Reply::Notation(mv.to_string()),
                                    eval,
                                }),
                                None => Err(Fault::Garbage("'bestmove' without a move".into())),
                            };
                        }
                        // The `position` (or the `go`) was refused: whatever it answers
                        // next is for another position than this one.
                        Some("info") if is_refusal(&line) => {
                            let said = format!("'{}'", clip(line.trim()));
                            return Err(Fault::PositionRefused(match ended_by_engine_rules(req) {
                                Some(why) => format!("{why}: {said}"),
                                None => said,
                            }));
                        }
                        Some("info") => read_info(&line, &mut eval),
                        _ => {}
                    }
                }
                Err(e) => return Err(Fault::of_move_read(e)),
            }
        }
    }

    /// UAI/UGI engines are told each position whole: nothing to deliver.
    fn game_over(&mut self, faulted: bool, _final_moves: Option<&[G::Move]>) {
        // A game that ended before this engine's new_game (the other's failed) leaves
        // its readyok unread: the next game drains it and asks again.
        self.ready_asked = None;
        if faulted {
            self.kill();
        }
    }

    fn process(&mut self) -> Option<&mut Option<EngineProcess>> {
        Some(&mut self.process)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::player::{Limits, TimeControl};
    use engine::games::ataxx::{Position, Rules};

    fn go(dialect: Flavour, clock_ms: [Option<i64>; 2], limits: Limits) -> String {
        let pos = Position::startpos(Rules::Uai);
        let req = MoveRequest {
            start: &pos,
            moves: &[],
            position: &pos,
            clock_ms,
            inc_ms: [100, 200],
            movestogo: Some(7),
            limits,
            deadline: Instant::now(),
        };
        go_command(dialect, &req)
    }

    /// The `position` command built move by move from the last one equals the one built
    /// from the start (the old way), and a request that does not continue the last one
    /// (a new game, another start, a shorter line) is built anew.
    #[test]
    fn position_commands_grow_with_the_game() {
        use engine::game::Game;
        let from_scratch = |start: &Position, moves: &[<Position as Game>::Move]| {
            let mut text = format!("position fen {}", start.fen());
            let mut pos = start.clone();
            if !moves.is_empty() {
                text.push_str(" moves");
            }
            for &mv in moves {
                text.push(' ');
                text.push_str(&pos.move_name(mv));
                pos.make_move(mv);
            }
            text
        };
        let request = |start: &Position, moves: &[<Position as Game>::Move]| {
            let mut pos = start.clone();
            for &mv in moves {
                pos.make_move(mv);
            }
            (pos, moves.to_vec())
        };
        let start = Position::startpos(Rules::Uai);
        let mut played = Vec::new();
        let mut pos = start.clone();
        for _ in 0..30 {
            let mv = pos.legal_moves()[0];
            pos.make_move(mv);
            played.push(mv);
        }
        let other = {
            let mut p = start.clone();
            p.make_move(p.legal_moves()[1]);
            p
        };
        let mut last: Option<PositionText<Position>> = None;
        let mut rebuilt = 0;
        // Every second ply (one engine's turns), then a new game, another start, and
        // a line that is not a continuation.
        let lines: Vec<(&Position, &[_])> = (0..=30)
            .step_by(2)
            .map(|n| (&start, &played[..n]))
            .chain([
                (&start, &played[..4]),
                (&other, &played[..0]),
                (&start, &played[1..3]),
            ])
            .collect();
        for (from, moves) in lines {
            let (now, moves) = request(from, moves);
            let req = MoveRequest {
                start: from,
                moves: &moves,
                position: &now,
                clock_ms: [None, None],
                inc_ms: [0, 0],
                movestogo: None,
                limits: Limits::default(),
                deadline: Instant::now(),
            };
            let before = last.as_ref().map(|p| p.moves.len());
            let p = PositionText::for_request(last.take(), &req);
            if before.is_none_or(|b| b > moves.len() || p.fen != from.fen()) {
                rebuilt += 1;
            }
            assert_eq!(p.text, from_scratch(from, &moves));
            assert_eq!(p.after, now);
            last = Some(p);
        }
        assert!(rebuilt >= 3, "{rebuilt}");
    }

    /// Issue 53 item 9: a game the referee's rules (LOA's text rules, no repetition) go
    /// on with and the engine's (UGI's: a third repetition draws) ended, found by
    /// replaying what the engine was sent; rules that agree find nothing.
    #[test]
    fn games_the_engines_rules_ended() {
        use engine::games::loa::{Position as Loa, Rules as LoaRules};
        let start = Loa::startpos(LoaRules::Text);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for name in "b1b3 a2c2 b3b1 c2a2 b1b3 a2c2 b3b1 c2a2 b1b3 a2c2".split(' ') {
            let mv = pos.parse_move(name).unwrap();
            pos.make_move(mv);
            moves.push(mv);
        }
        let request = |n: usize| MoveRequest {
            start: &start,
            moves: &moves[..n],
            position: &start,
            clock_ms: [None, None],
            inc_ms: [0, 0],
            movestogo: None,
            limits: Limits::default(),
            deadline: Instant::now(),
        };
        assert_eq!(ended_by_engine_rules(&request(7)), None);
        assert_eq!(
            ended_by_engine_rules(&request(8)).as_deref(),
            Some("its rules ended the game (third repetition) with the last of the 8 moves sent")
        );
        assert_eq!(
            ended_by_engine_rules(&request(10)).as_deref(),
            Some("its rules ended the game (third repetition) after 8 of the 10 moves sent")
        );
        assert!(is_refusal("info string error: the game is over"));
        assert!(is_refusal("  info string ERROR unknown command"));
        assert!(!is_refusal("info string no error here"));
        assert!(!is_refusal("info depth 3 score cp 0 pv e2e4"));
    }

    #[test]
    fn info_lines() {
        let mut e = Eval::default();
        read_info(
            "info depth 3 seldepth 4 score cp 12 nodes 1000 pv f2",
            &mut e,
        );
        assert_eq!((e.depth, e.score), (Some(3), Some(Score::Cp(12))));
        assert_eq!(
            (e.seldepth, e.nodes, e.pv.as_deref()),
            (Some(4), Some(1000), Some("f2"))
        );
        read_info(
            "info depth 5 seldepth 9 time 17 nodes 4000 nps 235294 hashfull 12 score cp 3 pv f2 g7f5 a2",
            &mut e,
        );
        assert_eq!(
            (
                e.seldepth,
                e.time_ms,
                e.nodes,
                e.nps,
                e.hashfull,
                e.pv.as_deref()
            ),
            (
                Some(9),
                Some(17),
                Some(4000),
                Some(235294),
                Some(12),
                Some("f2 g7f5 a2")
            )
        );
        read_info("info depth 4 currmove g2", &mut e);
        assert_eq!((e.depth, e.score), (Some(4), Some(Score::Cp(3))));
        read_info("info score mate -2 lowerbound", &mut e);
        assert_eq!(e.score, Some(Score::Mate(-2)));
        read_info("info string depth 9 score cp 1", &mut e);
        read_info("bestmove f2", &mut e);
        read_info("info depth x score cp", &mut e);
        assert_eq!((e.depth, e.score), (Some(4), Some(Score::Mate(-2))));
    }

    #[test]
    fn options_and_error_reports() {
        assert_eq!(
            declared_option("option name Hash type spin default 16 min 1 max 4096"),
            Some("Hash".into())
        );
        assert_eq!(
            declared_option("option name Clear Hash type button"),
            Some("Clear Hash".into())
        );
        assert_eq!(declared_option("option name  type spin"), None);
        assert_eq!(declared_option("id name x"), None);
        assert!(is_error_report(
            "info string error: Hash must be between 1 and 4096"
        ));
        assert!(is_error_report("info string ERROR unknown option"));
        assert!(is_error_report("No such option: Hsh"));
        assert!(!is_error_report("info string hash resized to 8 MiB"));
        assert!(!is_error_report("info depth 3 score cp 0"));
    }

    #[test]
    fn go_commands() {
        let tc = Limits {
            tc: Some(TimeControl {
                moves: Some(40),
                base_ms: 1000,
                inc_ms: 100,
            }),
            ..Limits::default()
        };
        assert_eq!(
            go(Flavour::Ugi, [Some(900), Some(-5)], tc),
            "go p1time 900 p2time 0 p1inc 100 p2inc 200 movestogo 7"
        );
        assert_eq!(
            go(Flavour::Uai, [Some(900), Some(800)], tc),
            "go btime 900 wtime 800 binc 100 winc 200 movestogo 7"
        );
        assert_eq!(
            go(Flavour::Ugi, [None, Some(800)], tc),
            "go p2time 800 p2inc 200 movestogo 7"
        );
        let fixed = Limits {
            movetime_ms: Some(50),
            depth: Some(3),
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(
            go(Flavour::Ugi, [None, None], fixed),
            "go movetime 50 depth 3 nodes 1000"
        );
    }
}

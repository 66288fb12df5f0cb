//! A deliberately unreliable engine for the tournament runner's integration tests.
//!
//! Speaks UAI (default) or the text language (`--text`) and plays random legal moves,
//! unless told to misbehave:
//! `--crash-after N` exits after N moves, `--hang-after N` stops answering after N moves,
//! `--illegal-after N` / `--garbage-after N` answer with an illegal move / junk after N
//! moves, `--no-handshake` never finishes the handshake, `--no-readyok` finishes it but
//! never answers `isready` (so a game's sync fails), `--slow MS` waits before every
//! move, `--seed N` seeds the move choice, `--long-line-after N` answers after N moves
//! with one 1 MiB line whose bytes from 64 KiB on are a legal move's answer (a reader that
//! split long lines would take that piece for a move). `--prompt` prints text-language
//! prompts. `--answer-at MS` (UAI) answers each `go` MS milliseconds after the time it
//! was given runs out (negative: before): its own clock (`btime` when it moves first,
//! else `wtime`) or `movetime`, for the referee's time-loss tests. `--score CP` sets
//! the score of its `info` line before each move (default 0).
//! `--refuse WORD` answers every command WORD with `error: WORD is refused` (UAI: `info
//! string error: WORD is refused`) and ignores it, as a program refuses a set-up command.
//! In UAI `go infinite` searches until `stop` (a `go` sent meanwhile waits for it), as
//! the protocol asks; for `tournament compliance` it can break that and more:
//! `--eager-infinite` answers `go infinite` at once, `--ignore-quit` reads past `quit`
//! (to the end of input), `--hang-at-eof` stays at the end of input, `--bad-option`
//! declares a spin option whose default lies outside its range.
//! Some public engines' habits (issue 53): `--stop-chatter` answers `stop` with
//! `Unknown command: stop` when nothing searches (as Moonbird does); `--huge-options`
//! declares `Hash` up to 1 TiB (in MiB) and `Threads` up to 512, and exits when either is
//! set above 1024 (as an engine that cannot allocate what it is told);
//! `--no-readyok-in-game` answers `isready` until the first `uainewgame`/`uginewgame`,
//! then never (a new-game sync that fails after a passing check).
//! `--script M1,M2,…` answers the k-th `go` since the last new game with the k-th move of
//! the list (cycling), whatever the position: a player of any game, for games a test
//! needs to go one way. The handshake's word (`uai` or `ugi`) picks the answers
//! (`uaiok` or `ugiok`), so it speaks UGI too.
//! `--gtp` speaks GTP as the Othello engines do (Reversi with our rules, squares a1–h8,
//! row 1 at the top: `boardsize 8`, `clear_board`, `play b d3`, `genmove w` answered
//! `= d3` / `= pass`, `time_settings` / `time_left`, ids echoed); there `--illegal-after`
//! answers an occupied square, `--garbage-after` answers `? cannot play` instead of a move,
//! `--resign-after N` answers `= resign`, `--refuse WORD` answers every command WORD
//! with `? WORD is refused`, `--implicit-pass` plays grhino's passes (its board passes
//! by itself, every `play COLOUR pass` is answered `? syntax error`, and `genmove` for a
//! colour without a move answers `= pass`), and `--crash-after`, `--hang-after`,
//! `--slow` act as in UAI.
//! `--nboard` speaks NBoard as NTest does (`set game GGF`, `move F5//0.25`, `ping N` →
//! `pong N`): a `go` thinks until the next line arrives, whatever its depth or clock,
//! then answers `=== MOVE/0.00/0.1` with a random legal move before handling that line,
//! as NTest's search stops on any input; the runner's `stop=ping` is what makes it move.
//! `--mute-on-ping` drops the search on the next line instead, with no move (as our
//! `reversi --nboard` does on `ping`).
//! It writes one line on stderr when it starts.

use engine::game::Side;
use engine::games::ataxx::{parse_square, Move, Position, Rules, TextMove};
use engine::games::reversi::{self, Move as RMove, Position as RPosition};
use engine::protocol::text::ataxx::{ai_move_line, block_squares, SPEC};
use engine::rng::SplitMix64;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Opts {
    text: bool,
    gtp: bool,
    nboard: bool,
    mute_on_ping: bool,
    implicit_pass: bool,
    resign_after: Option<u64>,
    crash_after: Option<u64>,
    hang_after: Option<u64>,
    illegal_after: Option<u64>,
    garbage_after: Option<u64>,
    long_line_after: Option<u64>,
    no_handshake: bool,
    no_readyok: bool,
    slow_ms: u64,
    answer_at: Option<i64>,
    score: i64,
    seed: u64,
    prompt: bool,
    refuse: Option<String>,
    eager_infinite: bool,
    ignore_quit: bool,
    hang_at_eof: bool,
    bad_option: bool,
    stop_chatter: bool,
    huge_options: bool,
    no_readyok_in_game: bool,
    script: Vec<String>,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        seed: 12345,
        ..Opts::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let num = |i: usize| -> u64 { args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0) };
    while i < args.len() {
        match args[i].as_str() {
            "--text" => o.text = true,
            "--gtp" => o.gtp = true,
            "--nboard" => o.nboard = true,
            "--mute-on-ping" => o.mute_on_ping = true,
            "--implicit-pass" => o.implicit_pass = true,
            "--resign-after" => o.resign_after = Some(num(i)),
            "--prompt" => o.prompt = true,
            "--no-handshake" => o.no_handshake = true,
            "--no-readyok" => o.no_readyok = true,
            "--eager-infinite" => o.eager_infinite = true,
            "--ignore-quit" => o.ignore_quit = true,
            "--hang-at-eof" => o.hang_at_eof = true,
            "--bad-option" => o.bad_option = true,
            "--crash-after" => o.crash_after = Some(num(i)),
            "--hang-after" => o.hang_after = Some(num(i)),
            "--illegal-after" => o.illegal_after = Some(num(i)),
            "--garbage-after" => o.garbage_after = Some(num(i)),
            "--long-line-after" => o.long_line_after = Some(num(i)),
            "--slow" => o.slow_ms = num(i),
            "--answer-at" => o.answer_at = args.get(i + 1).and_then(|s| s.parse().ok()),
            "--seed" => o.seed = num(i),
            "--score" => o.score = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0),
            "--refuse" => o.refuse = args.get(i + 1).cloned(),
            "--stop-chatter" => o.stop_chatter = true,
            "--huge-options" => o.huge_options = true,
            "--no-readyok-in-game" => o.no_readyok_in_game = true,
            "--script" => {
                o.script = args
                    .get(i + 1)
                    .map(|s| s.split(',').map(str::to_string).collect())
                    .unwrap_or_default()
            }
            _ => {}
        }
        if args[i].starts_with("--")
            && !matches!(
                args[i].as_str(),
                "--text"
                    | "--gtp"
                    | "--nboard"
                    | "--mute-on-ping"
                    | "--implicit-pass"
                    | "--prompt"
                    | "--no-handshake"
                    | "--no-readyok"
                    | "--eager-infinite"
                    | "--ignore-quit"
                    | "--hang-at-eof"
                    | "--bad-option"
                    | "--stop-chatter"
                    | "--huge-options"
                    | "--no-readyok-in-game"
            )
        {
            i += 1;
        }
        i += 1;
    }
    o
}

/// What the engine does for its next move, given how many it has made.
enum Act {
    Play,
    Crash,
    Hang,
    Illegal,
    Garbage,
    LongLine,
}

fn next_act(o: &Opts, made: u64) -> Act {
    if o.crash_after.is_some_and(|n| made >= n) {
        Act::Crash
    } else if o.hang_after.is_some_and(|n| made >= n) {
        Act::Hang
    } else if o.illegal_after.is_some_and(|n| made >= n) {
        Act::Illegal
    } else if o.garbage_after.is_some_and(|n| made >= n) {
        Act::Garbage
    } else if o.long_line_after.is_some_and(|n| made >= n) {
        Act::LongLine
    } else {
        Act::Play
    }
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// A syntactically valid move that is illegal here: a single onto an occupied square.
fn illegal_move(pos: &Position) -> Move {
    let own = pos.pieces(pos.side_to_move());
    Move::single(own.trailing_zeros().min(48) as u8)
}

/// 64 KiB of blanks, `tail`, then blanks up to 1 MiB.
fn long_line(tail: &str) -> String {
    let mut line = " ".repeat(64 * 1024);
    line.push_str(tail);
    line.push(' ');
    line.push_str(&" ".repeat((1 << 20) - line.len()));
    line
}

fn out(line: &str) {
    let mut so = std::io::stdout().lock();
    let _ = writeln!(so, "{line}");
    let _ = so.flush();
}

fn main() {
    let o = parse_opts();
    // One line on stderr, for the runner's engine log.
    eprintln!("fake-engine: started, seed {}", o.seed);
    if o.text {
        text_main(&o)
    } else if o.gtp {
        gtp_main(&o)
    } else if o.nboard {
        nboard_main(&o)
    } else {
        uai_main(&o)
    }
}

/// A random legal move (a pass where there is none): the fake engine's whole strength.
fn random_move(rng: &mut SplitMix64, pos: &Position) -> Move {
    let moves = pos.legal_moves();
    moves
        .get(rng.below(moves.len()))
        .copied()
        .unwrap_or(Move::PASS)
}

/// The position a `position` command names (`startpos` or `fen …`, then `moves …`, each
/// illegal or unreadable move skipped), or `None` when it names none, so the old one stays.
fn parse_position(words: &[&str]) -> Option<Position> {
    let (base, rest) = match words.get(1).copied() {
        Some("startpos") => (Some(Position::startpos(Rules::Uai)), &words[2..]),
        Some("fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let fen = words[2..end].join(" ");
            (Position::from_fen(&fen, Rules::Uai).ok(), &words[end..])
        }
        _ => (None, &words[..0]),
    };
    let mut p = base?;
    for m in rest.iter().skip(1) {
        if let Ok(mv) = Move::parse_uai(m) {
            if p.is_legal(mv) {
                p.make_move(mv);
            }
        }
    }
    Some(p)
}

/// Speaks UAI (or UGI) until `quit` or the end of input.
fn uai_main(o: &Opts) {
    let mut uai = Uai {
        o,
        rng: SplitMix64::new(o.seed),
        pos: Position::startpos(Rules::Uai),
        made: 0,
        infinite: false,
        waiting: Vec::new(),
        scripted: 0,
        in_game: false,
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        if !uai.command(&words) {
            return;
        }
    }
    if o.hang_at_eof {
        hang();
    }
}

/// The UAI/UGI engine's state between commands, one method per command that needs more
/// than a line (as `uci::Session` is on the real engines' side).
struct Uai<'a> {
    o: &'a Opts,
    rng: SplitMix64,
    pos: Position,
    made: u64,
    /// A `go infinite` under way, and the `go`s sent since, which wait for its `stop`.
    infinite: bool,
    waiting: Vec<Position>,
    /// `--script`: the `go`s answered since the last new game.
    scripted: usize,
    /// `--no-readyok-in-game`: whether a new game was announced.
    in_game: bool,
}

impl Uai<'_> {
    /// Answers one command; false after `quit`. The arms' order matters: a misbehaviour's
    /// guard is tried before the command's ordinary answer.
    fn command(&mut self, words: &[&str]) -> bool {
        let o = self.o;
        match words.first().copied() {
            Some(w) if o.refuse.as_deref() == Some(w) => {
                out(&format!("info string error: {w} is refused"))
            }
            // `--no-handshake`: no arm below answers it either.
            Some(hello @ ("uai" | "ugi")) if !o.no_handshake => self.handshake(hello),
            Some("uainewgame" | "uginewgame") => {
                self.scripted = 0;
                self.in_game = true;
            }
            // `setoption name N value V`: more than this machine has.
            Some("setoption")
                if o.huge_options
                    && words.last().and_then(|v| v.parse::<u64>().ok()) > Some(1024) =>
            {
                std::process::exit(4)
            }
            Some("isready")
                if !(o.no_handshake || o.no_readyok || (o.no_readyok_in_game && self.in_game)) =>
            {
                out("readyok")
            }
            Some("stop") if o.stop_chatter && !self.infinite => out("Unknown command: stop"),
            Some("go") if !o.script.is_empty() => {
                out(&format!(
                    "bestmove {}",
                    o.script[self.scripted % o.script.len()]
                ));
                self.scripted += 1;
            }
            Some("stop") if self.infinite => self.stop(),
            Some("go") if self.infinite => self.waiting.push(self.pos.clone()),
            Some("go") if words.contains(&"infinite") && !o.eager_infinite => {
                out("info depth 1 score cp 0");
                self.infinite = true;
            }
            Some("position") => {
                if let Some(p) = parse_position(words) {
                    self.pos = p;
                }
            }
            Some("go") => self.go(words),
            Some("quit") if !o.ignore_quit => return false,
            _ => {}
        }
        true
    }

    /// `uai` / `ugi`: the name, the options (the misbehaving ones when asked) and `…ok`.
    fn handshake(&self, hello: &str) {
        out("id name fake-engine");
        out("id author tests");
        if self.o.huge_options {
            out("option name Hash type spin default 16 min 1 max 1048576");
            out("option name Threads type spin default 1 min 1 max 512");
        } else {
            out("option name Hash type spin default 1 min 1 max 64");
        }
        if self.o.bad_option {
            out("option name Broken type spin default 0 min 1 max 64");
        }
        out(&format!("{hello}ok"));
    }

    /// `stop` during `go infinite`: its move, then one for each `go` that waited.
    fn stop(&mut self) {
        self.infinite = false;
        out(&format!(
            "bestmove {}",
            random_move(&mut self.rng, &self.pos)
        ));
        for p in std::mem::take(&mut self.waiting) {
            out(&format!("bestmove {}", random_move(&mut self.rng, &p)));
        }
    }

    /// An ordinary `go`: wait as told, then the move or the misbehaviour due.
    fn go(&mut self, words: &[&str]) {
        if self.o.slow_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.o.slow_ms));
        }
        if let Some(offset) = self.o.answer_at {
            self.wait_past_clock(words, offset);
        }
        let pos = &self.pos;
        match next_act(self.o, self.made) {
            Act::Crash => std::process::exit(3),
            Act::Hang => hang(),
            Act::Illegal => out(&format!("bestmove {}", illegal_move(pos))),
            Act::Garbage => {
                out("info \u{1}\u{2} what is this");
                out("bestmove \u{fffd}zz9 extra words");
            }
            Act::LongLine => {
                let mv = pos.legal_moves().first().copied().unwrap_or(Move::PASS);
                out(&long_line(&format!("bestmove {mv}")));
            }
            Act::Play => {
                let mv = random_move(&mut self.rng, pos);
                out(&format!("info depth 1 score cp {}", self.o.score));
                out(&format!("bestmove {mv}"));
            }
        }
        self.made += 1;
    }

    /// `--answer-at`: sleeps until `offset` ms past the time this `go` gives it
    /// (`movetime`, else its own clock: `btime` when it moves first, else `wtime`).
    fn wait_past_clock(&self, words: &[&str], offset: i64) {
        let own = if self.pos.side_to_move() == Side::First {
            "btime"
        } else {
            "wtime"
        };
        let given = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|k| words.get(k + 1))
                .and_then(|v| v.parse::<i64>().ok())
        };
        if let Some(ms) = given("movetime").or_else(|| given(own)) {
            let wait = (ms + offset).max(0) as u64;
            std::thread::sleep(Duration::from_millis(wait));
        }
    }
}

/// The text language's name of a side.
fn text_side_name(s: Side) -> &'static str {
    if s == Side::First {
        "Red"
    } else {
        "Blue"
    }
}

/// The side a text command's argument names (`red` / `blue`, any case), as an index.
fn text_side_of(w: Option<&&str>) -> Option<usize> {
    match w.map(|s| s.to_ascii_lowercase()) {
        Some(s) if s == "red" => Some(0),
        Some(s) if s == "blue" => Some(1),
        _ => None,
    }
}

/// Speaks the text language until `quit` or the end of input, the AI moving between
/// lines whenever it is its turn.
fn text_main(o: &Opts) {
    let mut text = Text {
        o,
        rng: SplitMix64::new(o.seed),
        pos: Position::startpos(Rules::Text),
        auto: [false, true],
        playing: false,
        made: 0,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        text.ai_moves();
        text.after_moves();
        let Some(Ok(line)) = lines.next() else { return };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        let words: Vec<&str> = line.split_whitespace().collect();
        if !text.command(&words) {
            return;
        }
    }
}

/// The text-language program's state between lines: its position, which sides it plays
/// itself, whether a game is running and how many moves it has made.
struct Text<'a> {
    o: &'a Opts,
    rng: SplitMix64,
    pos: Position,
    auto: [bool; 2],
    playing: bool,
    made: u64,
}

impl Text<'_> {
    /// Lets the AI move while it is its turn; a misbehaviour ends its turn early.
    fn ai_moves(&mut self) {
        while self.playing
            && self.pos.outcome().is_none()
            && self.auto[self.pos.side_to_move().index()]
        {
            if self.o.slow_ms > 0 {
                std::thread::sleep(Duration::from_millis(self.o.slow_ms));
            }
            let side = self.pos.side_to_move();
            match next_act(self.o, self.made) {
                Act::Crash => std::process::exit(3),
                Act::Hang => hang(),
                Act::Illegal => {
                    out(&format!("{} moves a1-g7.", text_side_name(side)));
                    self.made += 1;
                    return;
                }
                Act::Garbage => {
                    out("\u{7f}garbage ~~~ ###");
                    self.made += 1;
                    return;
                }
                Act::LongLine => {
                    let mv = self
                        .pos
                        .legal_moves()
                        .first()
                        .copied()
                        .unwrap_or(Move::PASS);
                    out(&long_line(&ai_move_line(&self.pos, mv)));
                    self.made += 1;
                    return;
                }
                Act::Play => {}
            }
            let mv = random_move(&mut self.rng, &self.pos);
            out(&ai_move_line(&self.pos, mv));
            self.pos.make_move(mv);
            self.made += 1;
        }
    }

    /// In a game, after the AI's moves: the result line if it ended, else the prompt.
    fn after_moves(&mut self) {
        if !self.playing {
            return;
        }
        if let Some(outcome) = self.pos.outcome() {
            out(SPEC.result_line(outcome));
            self.playing = false;
        } else if self.o.prompt {
            let mut so = std::io::stdout().lock();
            let name = text_side_name(self.pos.side_to_move()).to_lowercase();
            let _ = write!(so, "{name}: ");
            let _ = so.flush();
        }
    }

    /// Answers one line's words (comments gone); false after `quit`.
    fn command(&mut self, words: &[&str]) -> bool {
        match words.first().copied() {
            None => {}
            Some(w) if self.o.refuse.as_deref() == Some(w) => {
                out(&format!("error: {w} is refused"))
            }
            Some("quit") => return false,
            Some("clear") => {
                self.pos = Position::startpos(Rules::Text);
                self.auto = [false, true];
                self.playing = false;
            }
            Some("seed") => {
                if let Some(n) = words.get(1).and_then(|s| s.parse::<u64>().ok()) {
                    self.rng = SplitMix64::new(n);
                }
            }
            Some("auto") => {
                if let Some(i) = text_side_of(words.get(1)) {
                    self.auto[i] = true;
                }
            }
            Some("manual") => {
                if let Some(i) = text_side_of(words.get(1)) {
                    self.auto[i] = false;
                }
            }
            Some("block") => {
                if let Some(Ok(sq)) = words.get(1).map(|s| parse_square(s)) {
                    if self.pos.add_gaps(block_squares(sq)).is_err() {
                        out("error: square occupied");
                    }
                }
            }
            Some("start") => self.playing = true,
            Some("dump") => self.dump(),
            Some(w) => match TextMove::parse(w).ok().and_then(|m| m.resolve(&self.pos)) {
                Some(mv) => {
                    self.pos.make_move(mv);
                }
                None => out("error: not a legal entry"),
            },
        }
        true
    }

    /// `dump`: the board between `===` lines, rank 7 first.
    fn dump(&self) {
        out("===");
        for rank in (0..7).rev() {
            let mut row = String::from(" ");
            for file in 0..7 {
                let sq = (rank * 7 + file) as u8;
                let bit = 1u64 << sq;
                row.push(' ');
                row.push(if self.pos.pieces(Side::First) & bit != 0 {
                    'r'
                } else if self.pos.pieces(Side::Second) & bit != 0 {
                    'b'
                } else if self.pos.gaps() & bit != 0 {
                    'X'
                } else {
                    '-'
                });
            }
            out(&row);
        }
        out("===");
    }
}

/// The colour a GTP argument names (`b`/`black`, `w`/`white`, any case).
fn gtp_colour(w: Option<&&str>) -> Option<Side> {
    match w.map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("b" | "black") => Some(Side::First),
        Some("w" | "white") => Some(Side::Second),
        _ => None,
    }
}

/// A move as GTP writes it: `pass` or the square in capitals.
fn gtp_name(mv: RMove) -> String {
    if mv.is_pass() {
        "pass".to_string()
    } else {
        reversi::square_name(mv.square()).to_ascii_uppercase()
    }
}

/// GTP's answer to one command, echoing its optional numeric id: `=id text` or
/// `?id text`, then the blank line that ends every answer.
struct Reply {
    id: String,
}

impl Reply {
    fn ok(&self, text: &str) {
        let sep = if text.is_empty() { "" } else { " " };
        out(&format!("={}{sep}{text}\n", self.id));
    }

    fn fail(&self, text: &str) {
        out(&format!("?{} {text}\n", self.id));
    }
}

/// The GTP engine's state between commands.
struct Gtp<'a> {
    o: &'a Opts,
    rng: SplitMix64,
    pos: RPosition,
    made: u64,
}

/// GTP with the Othello engines' conventions, on our Reversi rules.
fn gtp_main(o: &Opts) {
    let mut gtp = Gtp {
        o,
        rng: SplitMix64::new(o.seed),
        pos: RPosition::startpos(),
        made: 0,
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let mut words: Vec<&str> = line.split_whitespace().collect();
        // An optional numeric id, echoed in the answer.
        let id = match words.first() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.remove(0).to_string(),
            _ => String::new(),
        };
        let reply = Reply { id };
        let Some(&cmd) = words.first() else { continue };
        if o.refuse.as_deref() == Some(cmd) {
            reply.fail(&format!("{cmd} is refused"));
            continue;
        }
        if !gtp.command(cmd, &words, &reply) {
            return;
        }
    }
}

impl Gtp<'_> {
    /// Answers one command; false after `quit`.
    fn command(&mut self, cmd: &str, words: &[&str], reply: &Reply) -> bool {
        match cmd {
            "protocol_version" => reply.ok("2"),
            "name" => reply.ok("fake-engine"),
            "version" => reply.ok("1"),
            "list_commands" => reply.ok(
                "protocol_version\nname\nversion\nlist_commands\nquit\nboardsize\n\
                 clear_board\nplay\ngenmove\ntime_settings\ntime_left",
            ),
            "boardsize" if words.get(1) == Some(&"8") => reply.ok(""),
            "boardsize" => reply.fail("unacceptable size"),
            "clear_board" => {
                self.pos = RPosition::startpos();
                reply.ok("")
            }
            "time_settings" | "time_left" => {
                if words[1..]
                    .iter()
                    .all(|w| w.parse::<u64>().is_ok() || gtp_colour(Some(w)).is_some())
                {
                    reply.ok("")
                } else {
                    reply.fail("syntax error")
                }
            }
            "play" => self.play(words, reply),
            "genmove" => self.genmove(words, reply),
            "quit" => {
                reply.ok("");
                return false;
            }
            _ => reply.fail("unknown command"),
        }
        true
    }

    /// Makes `mv`, then (`--implicit-pass`) the pass that follows when the other side
    /// has no move, as grhino's board does by itself.
    fn make_move(&mut self, mv: RMove) {
        self.pos.make_move(mv);
        if self.o.implicit_pass && self.pos.is_legal(RMove::PASS) {
            self.pos.make_move(RMove::PASS);
        }
    }

    /// `play COLOUR MOVE`.
    fn play(&mut self, words: &[&str], reply: &Reply) {
        let mv = match words.get(2).map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("pass") => Some(RMove::PASS),
            Some(w) => reversi::parse_square(w).ok().map(RMove::place),
            None => None,
        };
        match (gtp_colour(words.get(1)), mv) {
            (Some(_), Some(mv)) if self.o.implicit_pass && mv.is_pass() => {
                reply.fail("syntax error")
            }
            (Some(side), Some(mv)) if side == self.pos.side_to_move() && self.pos.is_legal(mv) => {
                self.make_move(mv);
                reply.ok("")
            }
            (Some(_), Some(_)) => reply.fail("illegal move"),
            _ => reply.fail("syntax error"),
        }
    }

    /// `genmove COLOUR`: the move (or the misbehaviour due) for the side to move.
    fn genmove(&mut self, words: &[&str], reply: &Reply) {
        let o = self.o;
        if gtp_colour(words.get(1)) != Some(self.pos.side_to_move()) {
            if o.implicit_pass && gtp_colour(words.get(1)).is_some() {
                reply.ok("pass");
            } else {
                reply.fail("not that colour's turn");
            }
            return;
        }
        if o.slow_ms > 0 {
            std::thread::sleep(Duration::from_millis(o.slow_ms));
        }
        if o.resign_after.is_some_and(|n| self.made >= n) {
            reply.ok("resign");
            return;
        }
        match next_act(o, self.made) {
            Act::Crash => std::process::exit(3),
            Act::Hang => hang(),
            Act::Illegal => {
                let taken = !self.pos.empty();
                reply.ok(&gtp_name(RMove::place(taken.trailing_zeros() as u8)));
            }
            Act::Garbage => reply.fail("cannot play"),
            Act::LongLine => out(&long_line("= pass\n")),
            Act::Play => {
                let moves = self.pos.legal_moves();
                let mv = moves
                    .get(self.rng.below(moves.len()))
                    .copied()
                    .unwrap_or(RMove::PASS);
                self.make_move(mv);
                reply.ok(&gtp_name(mv));
            }
        }
        self.made += 1;
    }
}

/// NBoard as NTest speaks it: `go` searches until the next line comes (NTest's search
/// checks for input and stops its round), then the move, then that line's answer.
fn nboard_main(o: &Opts) {
    let mut rng = SplitMix64::new(o.seed);
    let mut pos = RPosition::startpos();
    let mut thinking = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if std::mem::take(&mut thinking) && !o.mute_on_ping {
            let moves = pos.legal_moves();
            let mv = moves
                .get(rng.below(moves.len()))
                .copied()
                .unwrap_or(RMove::PASS);
            let name = if mv.is_pass() {
                "PA".to_string()
            } else {
                reversi::square_name(mv.square()).to_ascii_uppercase()
            };
            out(&format!("=== {name}/0.00/0.1"));
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ping", n] => out(&format!("pong {n}")),
            ["set", "depth", ..] => out("set myname Fake"),
            ["set", "game", ..] => {
                let ggf = line.trim_start()["set".len()..].trim_start()["game".len()..].trim();
                if let Ok(p) = engine::protocol::nboard::parse_ggf(ggf) {
                    pos = p;
                }
            }
            ["move", m] => {
                let square = m.split('/').next().unwrap_or("").to_ascii_lowercase();
                let mv = if square == "pa" {
                    Some(RMove::PASS)
                } else {
                    reversi::parse_square(&square).ok().map(RMove::place)
                };
                if let Some(mv) = mv.filter(|&mv| pos.is_legal(mv)) {
                    pos.make_move(mv);
                }
            }
            ["go"] => thinking = true,
            ["quit"] => return,
            _ => {}
        }
    }
}

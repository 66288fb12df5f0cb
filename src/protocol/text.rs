//! The `ataxx.txt` text command language (see `protocol.md`): set-up, playing and
//! finished states, manual and AI players, blocks, `load`, and the exact output lines
//! the course harness reads (`Red moves a7-b6.`, `Blue passes.`, `Red wins.`, dumps).
//!
//! Every line is parsed completely into a [`Command`] before anything changes, and a
//! rejected command changes nothing. Error messages and all other chatter avoid the
//! words the harness reserves (wins, passes, moves, draw).

use super::emit;
use crate::game::{Outcome, Side};
use crate::games::ataxx::bitboard::{file_of, rank_of, square};
use crate::games::ataxx::{parse_square, Cell, Move, Position, Rules, TextMove};
use crate::search::{Engine, Limits, Report};
use crossbeam_channel::{select, Receiver};
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// Nodes an AI searches per move. A node budget, not a clock, so the same seed and
/// input give the same moves on any machine.
pub const AI_NODES: u64 = 400_000;
/// Safety net only: a move never takes longer than this even on a very slow machine
/// (the specification allows 10 s).
pub const AI_TIME_CAP: Duration = Duration::from_secs(4);
/// Hash table size of the text front end's AI.
const HASH_MIB: usize = 32;
/// Nested `load` files deeper than this are refused (a file loading itself).
const MAX_LOAD_DEPTH: usize = 16;

/// The three states of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Setup,
    Playing,
    Finished,
}

/// A fully parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Clear,
    Start,
    Quit,
    Auto(Side),
    Manual(Side),
    Block(u8),
    Seed(u64),
    Move(TextMove),
    Help,
    Dump,
    Board,
    Load(String),
}

/// Why a command was refused. Messages are one line and free of reserved words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    Unknown(String),
    BadArgs(&'static str),
    WrongState(&'static str),
    Illegal(String),
    BlockOccupied(String),
    BlockAfterPlay,
    NotYourTurn,
    Load(String),
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Unknown(c) => write!(f, "unknown command '{c}' (type help)"),
            TextError::BadArgs(usage) => write!(f, "usage: {usage}"),
            TextError::WrongState(what) => write!(f, "{what}"),
            TextError::Illegal(m) => write!(f, "illegal move '{m}'"),
            TextError::BlockOccupied(sq) => {
                write!(f, "cannot block {sq}: a square there holds a piece")
            }
            TextError::BlockAfterPlay => {
                write!(f, "blocks must be placed before any piece is played")
            }
            TextError::NotYourTurn => write!(f, "it is not a manual player's turn"),
            TextError::Load(why) => write!(f, "cannot load: {why}"),
        }
    }
}

/// Parses one line (comments and surrounding blanks allowed). `Ok(None)` for a line
/// with nothing on it.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    let line = line.split('#').next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    let word = first.to_ascii_lowercase();
    let args = &words[1..];
    let no_args = |cmd: Command, usage: &'static str| {
        if args.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(TextError::BadArgs(usage))
        }
    };
    match word.as_str() {
        "clear" => no_args(Command::Clear, "clear"),
        "start" => no_args(Command::Start, "start"),
        "quit" => no_args(Command::Quit, "quit"),
        "help" => no_args(Command::Help, "help"),
        "dump" => no_args(Command::Dump, "dump"),
        "board" => no_args(Command::Board, "board"),
        "auto" | "manual" => {
            let usage = if word == "auto" {
                "auto red|blue"
            } else {
                "manual red|blue"
            };
            let side = match args {
                [c] => parse_colour(c).ok_or(TextError::BadArgs(usage))?,
                _ => return Err(TextError::BadArgs(usage)),
            };
            Ok(Some(if word == "auto" {
                Command::Auto(side)
            } else {
                Command::Manual(side)
            }))
        }
        "block" => match args {
            [sq] => parse_square(sq)
                .map(|s| Some(Command::Block(s)))
                .map_err(|_| TextError::BadArgs("block SQUARE (a1..g7)")),
            _ => Err(TextError::BadArgs("block SQUARE (a1..g7)")),
        },
        "seed" => match args {
            [n] => parse_seed(n)
                .map(|s| Some(Command::Seed(s)))
                .ok_or(TextError::BadArgs("seed N (a 64-bit integer)")),
            _ => Err(TextError::BadArgs("seed N (a 64-bit integer)")),
        },
        "load" => match args {
            [file] => Ok(Some(Command::Load(file.to_string()))),
            _ => Err(TextError::BadArgs("load FILE")),
        },
        _ => {
            if args.is_empty() {
                if let Ok(mv) = TextMove::parse(first) {
                    return Ok(Some(Command::Move(mv)));
                }
                if first.contains('-') {
                    return Err(TextError::Illegal(first.to_string()));
                }
            }
            Err(TextError::Unknown(first.to_string()))
        }
    }
}

fn parse_colour(s: &str) -> Option<Side> {
    match s.to_ascii_lowercase().as_str() {
        "red" => Some(Side::First),
        "blue" => Some(Side::Second),
        _ => None,
    }
}

/// A 64-bit seed, written as a signed or unsigned decimal number.
fn parse_seed(s: &str) -> Option<u64> {
    s.parse::<u64>()
        .ok()
        .or_else(|| s.parse::<i64>().ok().map(|v| v as u64))
}

/// The colour's name as the output lines use it.
pub fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Blue",
    }
}

/// The board in the dump format the harness reads.
pub fn dump(pos: &Position) -> String {
    let mut s = String::from("===\n");
    s.push_str(&pos.grid(
        |_| " ".to_string(),
        |cell| match cell {
            Cell::Empty => '-',
            Cell::Gap => 'X',
            Cell::Piece(Side::First) => 'r',
            Cell::Piece(Side::Second) => 'b',
        },
    ));
    s.push_str("===");
    s
}

/// The result line for a finished game.
pub fn result_line(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "Red wins.",
        Outcome::Win(Side::Second) => "Blue wins.",
        Outcome::Draw => "Draw.",
    }
}

/// The squares `block sq` fills: `sq` and its reflections across the middle row and column.
pub fn block_squares(sq: u8) -> u64 {
    let (f, r) = (file_of(sq), rank_of(sq));
    [(f, r), (6 - f, r), (f, 6 - r), (6 - f, 6 - r)]
        .iter()
        .fold(0, |bb, &(f, r)| bb | 1u64 << square(f, r))
}

const HELP: &str = "\
Commands (one a line; # starts a comment; words are case-insensitive):
  clear            abandon any game; start position, set-up state, red manual, blue AI
  start            begin play from the set-up position
  quit             leave the program (end of input does the same)
  auto C           player C (red or blue) is played by the computer   [set-up]
  manual C         player C is entered from the input                  [set-up]
  block CR         block square CR and its reflections                 [set-up]
  seed N           seed the computer players' random choices           [set-up]
  c0r0-c1r1        a move, e.g. g1-f2 (extend to a neighbour, or jump two away)
  -                skip a turn (only when no move exists)
  dump             print the board for the test harness
  board            print the board with coordinates
  load FILE        read commands from FILE
  help             print this summary";

/// What the caller of `execute` should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct Session<'a> {
    out: &'a mut dyn Write,
    input: Receiver<String>,
    /// Input lines that arrived while an AI was thinking, in order.
    pending: VecDeque<String>,
    input_closed: bool,
    interactive: bool,
    state: State,
    pos: Position,
    moves_played: bool,
    auto: [bool; 2],
    seed: u64,
    ply: u64,
    engine: Engine<Position>,
}

/// Runs a session of the `ataxx.txt` language. `first` is the first input line, already
/// read to choose the protocol. Returns the process exit status (always 0: errors in
/// the input are reported and play goes on).
pub fn run(first: Option<String>, input: Receiver<String>, out: &mut dyn Write) -> i32 {
    let mut s = Session {
        out,
        input,
        pending: first.into_iter().collect(),
        input_closed: false,
        interactive: std::io::stdin().is_terminal(),
        state: State::Setup,
        pos: Position::startpos(Rules::Text),
        moves_played: false,
        auto: [false, true],
        seed: 0,
        ply: 0,
        engine: Engine::new(HASH_MIB),
    };
    loop {
        s.prompt();
        let Some(line) = s.next_line() else { break };
        if s.execute(&line, 0) == Flow::Quit {
            break;
        }
    }
    0
}

impl Session<'_> {
    fn next_line(&mut self) -> Option<String> {
        if let Some(l) = self.pending.pop_front() {
            return Some(l);
        }
        if self.input_closed {
            return None;
        }
        match self.input.recv() {
            Ok(l) => Some(l),
            Err(_) => {
                self.input_closed = true;
                None
            }
        }
    }

    fn prompt(&mut self) {
        if !self.interactive || !self.pending.is_empty() {
            return;
        }
        let who = colour_name(self.pos.side_to_move()).to_ascii_lowercase();
        let p = match self.state {
            State::Setup => format!("set-up, {who} to play: "),
            State::Playing => format!("{who}: "),
            State::Finished => "game over (clear for a new game): ".to_string(),
        };
        let _ = write!(self.out, "{p}");
        let _ = self.out.flush();
    }

    fn say(&mut self, line: &str) {
        emit(self.out, line);
    }

    fn error(&mut self, e: TextError) {
        let line = format!("error: {e}");
        self.say(&line);
    }

    fn execute(&mut self, line: &str, depth: usize) -> Flow {
        let cmd = match parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(e);
                return Flow::Continue;
            }
        };
        match self.apply(cmd, depth) {
            Ok(flow) => flow,
            Err(e) => {
                self.error(e);
                Flow::Continue
            }
        }
    }

    fn require_setup(&self, what: &'static str) -> Result<(), TextError> {
        if self.state == State::Setup {
            Ok(())
        } else {
            Err(TextError::WrongState(what))
        }
    }

    fn apply(&mut self, cmd: Command, depth: usize) -> Result<Flow, TextError> {
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Clear => {
                self.state = State::Setup;
                self.pos = Position::startpos(Rules::Text);
                self.moves_played = false;
                self.auto = [false, true];
                self.ply = 0;
            }
            Command::Start => {
                self.require_setup("start is only valid during set-up (use clear first)")?;
                self.state = State::Playing;
                self.engine.new_game();
                if !self.check_end() {
                    return self.play_ai();
                }
            }
            Command::Auto(side) => {
                self.require_setup("auto is only valid during set-up")?;
                self.auto[side.index()] = true;
            }
            Command::Manual(side) => {
                self.require_setup("manual is only valid during set-up")?;
                self.auto[side.index()] = false;
            }
            Command::Seed(n) => {
                self.require_setup("seed is only valid during set-up")?;
                self.seed = n;
            }
            Command::Block(sq) => {
                self.require_setup("block is only valid during set-up")?;
                if self.moves_played {
                    return Err(TextError::BlockAfterPlay);
                }
                self.pos
                    .add_gaps(block_squares(sq))
                    .map_err(|_| TextError::BlockOccupied(crate::games::ataxx::square_name(sq)))?;
            }
            Command::Move(tm) => return self.manual_move(tm),
            Command::Help => self.say(HELP),
            Command::Dump => {
                let d = dump(&self.pos);
                self.say(&d);
            }
            Command::Board => {
                let b = self.pos.pretty();
                self.say(b.trim_end());
            }
            Command::Load(file) => return self.load(&file, depth),
        }
        Ok(Flow::Continue)
    }

    fn manual_move(&mut self, tm: TextMove) -> Result<Flow, TextError> {
        let text = match tm {
            TextMove::Pass => "-".to_string(),
            TextMove::Step { from, to } => format!(
                "{}-{}",
                crate::games::ataxx::square_name(from),
                crate::games::ataxx::square_name(to)
            ),
        };
        match self.state {
            State::Finished => {
                return Err(TextError::WrongState(
                    "the game is over (use clear for a new game)",
                ))
            }
            State::Playing if self.auto[self.pos.side_to_move().index()] => {
                return Err(TextError::NotYourTurn)
            }
            _ => {}
        }
        let mv = tm.resolve(&self.pos).ok_or(TextError::Illegal(text))?;
        self.play(mv);
        if self.state == State::Playing && !self.check_end() {
            return self.play_ai();
        }
        Ok(Flow::Continue)
    }

    fn play(&mut self, mv: Move) {
        self.pos.make_move(mv);
        self.moves_played = true;
        self.ply += 1;
    }

    /// In the playing state: if the game is over, announce it and finish. Returns
    /// whether it ended.
    fn check_end(&mut self) -> bool {
        match self.pos.outcome() {
            Some(o) => {
                self.say(result_line(o));
                self.state = State::Finished;
                true
            }
            None => false,
        }
    }

    /// Lets AI players move until a manual player is to move or the game ends.
    fn play_ai(&mut self) -> Result<Flow, TextError> {
        while self.state == State::Playing && self.auto[self.pos.side_to_move().index()] {
            let Some(mv) = self.think() else {
                return Ok(Flow::Quit);
            };
            let side = colour_name(self.pos.side_to_move());
            let line = if mv.is_pass() {
                format!("{side} passes.")
            } else {
                format!("{side} moves {}.", TextMove::format(&self.pos, mv))
            };
            self.say(&line);
            self.play(mv);
            self.check_end();
        }
        Ok(Flow::Continue)
    }

    /// Searches the current position while still reading input: lines are queued for
    /// later, except `quit`, which abandons the search (`None`).
    fn think(&mut self) -> Option<Move> {
        let limits = Limits {
            nodes: Some(AI_NODES),
            hard_time: Some(AI_TIME_CAP),
            ..Limits::default()
        };
        let seed = self.seed ^ self.ply.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.engine.go(self.pos.clone(), limits, Some(seed));
        let reports = self.engine.reports().clone();
        loop {
            let input = if self.input_closed {
                crossbeam_channel::never()
            } else {
                self.input.clone()
            };
            select! {
                recv(reports) -> r => match r {
                    Ok(Report::Done(result)) => {
                        let legal = self.pos.legal_moves();
                        return Some(match result.best {
                            Some(m) if legal.contains(&m) => m,
                            _ => legal.first().copied().unwrap_or(Move::PASS),
                        });
                    }
                    Ok(Report::Iteration(it)) => {
                        log::debug!("depth {} score {} nodes {}", it.depth, it.score.0, it.nodes);
                    }
                    Ok(Report::Synced) => {}
                    Err(_) => return None,
                },
                recv(input) -> line => match line {
                    Ok(l) if matches!(parse(&l), Ok(Some(Command::Quit))) => {
                        self.engine.stop();
                        return None;
                    }
                    Ok(l) => self.pending.push_back(l),
                    Err(_) => self.input_closed = true,
                },
            }
        }
    }

    fn load(&mut self, file: &str, depth: usize) -> Result<Flow, TextError> {
        if depth >= MAX_LOAD_DEPTH {
            return Err(TextError::Load("files nested too deeply".into()));
        }
        let bytes = std::fs::read(file).map_err(|e| TextError::Load(format!("{file}: {e}")))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for line in text.lines() {
            if self.execute(line, depth + 1) == Flow::Quit {
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESERVED: [&str; 4] = ["wins", "passes", "moves", "draw"];

    fn clean(s: &str) -> bool {
        let l = s.to_ascii_lowercase();
        RESERVED.iter().all(|w| !l.contains(w))
    }

    #[test]
    fn chatter_avoids_reserved_words() {
        assert!(clean(HELP));
        let errors = [
            TextError::Unknown("xyz".into()),
            TextError::BadArgs("auto red|blue"),
            TextError::WrongState("start is only valid during set-up (use clear first)"),
            TextError::WrongState("auto is only valid during set-up"),
            TextError::WrongState("manual is only valid during set-up"),
            TextError::WrongState("seed is only valid during set-up"),
            TextError::WrongState("block is only valid during set-up"),
            TextError::WrongState("the game is over (use clear for a new game)"),
            TextError::Illegal("a1-a2".into()),
            TextError::BlockOccupied("a1".into()),
            TextError::BlockAfterPlay,
            TextError::NotYourTurn,
            TextError::Load("files nested too deeply".into()),
        ];
        for e in errors {
            assert!(clean(&e.to_string()), "{e}");
        }
        for p in [
            "set-up, red to play: ",
            "blue: ",
            "game over (clear for a new game): ",
        ] {
            assert!(clean(p) && p.trim_end().ends_with(':'));
        }
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  # only a comment").unwrap(), None);
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(
            parse(" AUTO Red ").unwrap(),
            Some(Command::Auto(Side::First))
        );
        assert_eq!(
            parse("manual blue # x").unwrap(),
            Some(Command::Manual(Side::Second))
        );
        assert_eq!(parse("seed -1").unwrap(), Some(Command::Seed(u64::MAX)));
        assert_eq!(
            parse("seed 18446744073709551615").unwrap(),
            Some(Command::Seed(u64::MAX))
        );
        assert!(parse("seed 18446744073709551616").is_err());
        assert!(parse("seed").is_err());
        assert!(parse("auto green").is_err());
        assert!(parse("block h1").is_err());
        assert!(parse("block").is_err());
        assert!(parse("start now").is_err());
        assert!(parse("b7c7").is_err());
        assert!(parse("g1-h1").is_err());
        assert_eq!(parse("-").unwrap(), Some(Command::Move(TextMove::Pass)));
        assert_eq!(
            parse("load my file").unwrap_err(),
            TextError::BadArgs("load FILE")
        );
    }

    #[test]
    fn block_reflections() {
        let names = |bb: u64| {
            crate::games::ataxx::bitboard::Bits(bb)
                .map(crate::games::ataxx::square_name)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(block_squares(parse_square("b2").unwrap())),
            ["b2", "f2", "b6", "f6"]
        );
        assert_eq!(
            names(block_squares(parse_square("c4").unwrap())),
            ["c4", "e4"]
        );
        assert_eq!(names(block_squares(parse_square("d4").unwrap())), ["d4"]);
    }

    #[test]
    fn dump_format() {
        let d = dump(&Position::startpos(Rules::Text));
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "===");
        assert_eq!(lines[1], "  r - - - - - b");
        assert_eq!(lines[7], "  b - - - - - r");
        assert_eq!(lines[8], "===");
    }
}

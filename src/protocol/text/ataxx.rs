//! The `ataxx.txt` course text language (2016 edition; see `protocol.md`): set-up,
//! playing and finished states, manual and AI players, blocks, and the exact lines the
//! course harness reads (`Red moves a7-b6.`, `Blue passes.`, `Red wins.`, dumps).
//!
//! Every line these lines are written here and parsed back here (the tournament runner's
//! text client and the tuner use the parsers), so a change cannot make them disagree.
//! A line is parsed completely into a [`Command`] before anything changes; a rejected
//! command changes nothing. Error messages and all other chatter avoid the words the
//! harness reserves (wins, passes, moves, draw) and the dump marker.

use crate::game::{Opening, Outcome, Side};
pub use crate::games::ataxx::block_squares;
use crate::games::ataxx::{parse_square, square_name, Cell, Move, Position, Rules, TextMove};
use crate::protocol::text::{Flow, Host, TextDialect, TextProtocol, ThinkError};
use crate::search::Limits;
use std::time::Duration;

mod board;
use crate::protocol::text::board::{Action, History, View};
pub(crate) use board::ataxx_view;

/// Nodes an AI searches per move. A node budget, not a clock, so the same seed and
/// input give the same moves on any machine.
pub const AI_NODES: u64 = 400_000;
/// Safety net only: a move never takes longer than this even on a very slow machine
/// (the specification allows 10 s).
pub const AI_TIME_CAP: Duration = Duration::from_secs(4);

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
    /// An illegal move and why (`no red piece on a1`, `b6 is occupied`, …).
    IllegalBecause(String, String),
    /// A refusal whose text is built from the input (already quoted).
    Refused(String),
    BlockOccupied(String),
    BlockAfterPlay,
    NotYourTurn,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Unknown(c) => write!(f, "unknown command {} (type help)", quote_input(c)),
            TextError::BadArgs(usage) => write!(f, "usage: {usage}"),
            TextError::WrongState(what) => write!(f, "{what}"),
            TextError::Illegal(m) => write!(f, "illegal move {}", quote_input(m)),
            TextError::IllegalBecause(m, why) => {
                write!(f, "illegal move {}: {why}", quote_input(m))
            }
            TextError::Refused(why) => write!(f, "{why}"),
            TextError::BlockOccupied(sq) => {
                write!(f, "cannot block {sq}: a square there holds a piece")
            }
            TextError::BlockAfterPlay => {
                write!(f, "blocks must be placed before any piece is played")
            }
            TextError::NotYourTurn => write!(f, "it is not a manual player's turn"),
        }
    }
}

/// Words and markers the harness reads in our output; chatter never contains them.
pub const RESERVED: [&str; 5] = ["wins", "passes", "moves", "draw", "==="];

/// Quotes input for an error line: printable, cut short, and with any reserved word
/// masked, so an echo of `Red wins.` can never be read as a result.
pub fn quote_input(s: &str) -> String {
    let mut q = crate::protocol::quote(s);
    for word in RESERVED {
        while let Some(i) = q.to_ascii_lowercase().find(word) {
            q.replace_range(i..i + word.len(), &"?".repeat(word.len()));
        }
    }
    q
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
                .map_err(|_| {
                    TextError::Refused(format!(
                        "block: no square {} on the board (a1..g7)",
                        quote_input(sq)
                    ))
                }),
            _ => Err(TextError::BadArgs("block SQUARE (a1..g7)")),
        },
        "seed" => match args {
            [n] => parse_seed(n)
                .map(|s| Some(Command::Seed(s)))
                .ok_or(TextError::BadArgs("seed N (a 64-bit integer)")),
            _ => Err(TextError::BadArgs("seed N (a 64-bit integer)")),
        },
        "load" => match crate::protocol::rest_of_line(line, first) {
            Some(file) => Ok(Some(Command::Load(file))),
            None => Err(TextError::BadArgs("load FILE")),
        },
        _ => {
            if let (Ok(_), [extra, ..]) = (TextMove::parse(first), args) {
                return Err(TextError::Refused(format!(
                    "unexpected {} after the move {} (one move a line)",
                    quote_input(extra),
                    quote_input(first)
                )));
            }
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

/// Why the text move `tm` is not legal in `pos`, in a few words (free of the words
/// the harness reserves).
pub fn why_illegal(pos: &Position, tm: TextMove) -> String {
    let side = pos.side_to_move();
    let who = side_word(side);
    match tm {
        TextMove::Pass => format!("{who} has a move, so it cannot pass"),
        TextMove::Step { from, to } => {
            let (a, b) = (square_name(from), square_name(to));
            if pos.cell(from) != Cell::Piece(side) {
                format!("no {who} piece on {a}")
            } else if !(1..=2).contains(&crate::games::ataxx::bitboard::distance(from, to)) {
                format!("{b} is too far from {a} (one or two squares)")
            } else {
                match pos.cell(to) {
                    Cell::Gap => format!("{b} is blocked"),
                    Cell::Piece(_) => format!("{b} is occupied"),
                    Cell::Empty => "not allowed here".to_string(),
                }
            }
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

/// The 2016 dialect's session state.
pub struct AtaxxText {
    state: State,
    pos: Position,
    moves_played: bool,
    auto: [bool; 2],
    seed: u64,
    ply: u64,
    /// The moves played, for the board page's undo.
    history: History<Position>,
}

type AtaxxHost<'a> = Host<'a, Position>;

impl TextDialect for AtaxxText {
    type Game = Position;
    type Command = Command;
    type Error = TextError;

    fn new() -> AtaxxText {
        AtaxxText {
            state: State::Setup,
            pos: Position::startpos(Rules::Text),
            moves_played: false,
            auto: [false, true],
            seed: 0,
            ply: 0,
            history: History::default(),
        }
    }

    fn parse_line(line: &str) -> Result<Option<Command>, TextError> {
        parse(line)
    }

    fn run_command(&mut self, cmd: Command, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Clear => {
                *self = AtaxxText {
                    seed: self.seed,
                    ..AtaxxText::new()
                }
            }
            Command::Start => {
                self.require_setup("start is only valid during set-up (use clear first)")?;
                self.state = State::Playing;
                host.new_game();
                if !self.check_end(host) {
                    return Ok(self.play_ai(host));
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
                    .map_err(|_| TextError::BlockOccupied(square_name(sq)))?;
            }
            Command::Move(tm) => return self.manual_move(tm, host),
            Command::Help => host.say(HELP),
            Command::Dump => host.say(&dump(&self.pos)),
            Command::Board => host.say(self.pos.pretty().trim_end()),
            Command::Load(file) => return Ok(Flow::Load(file)),
        }
        Ok(Flow::Continue)
    }

    const QUIT: Command = Command::Quit;

    /// `quit`, and `clear` abandons the game: typed while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        matches!(
            Self::parse_line(line),
            Ok(Some(Command::Quit | Command::Clear))
        )
    }

    fn view(&self) -> Option<View> {
        Some(self.board_view())
    }

    fn act(&mut self, action: Action, host: &mut AtaxxHost) -> Flow {
        self.board_action(action, host)
    }

    fn prompt(&self) -> Option<String> {
        let who = colour_name(self.pos.side_to_move()).to_ascii_lowercase();
        Some(match self.state {
            State::Setup => format!("set-up, {who} to play: "),
            State::Playing => format!("{who}: "),
            State::Finished => "game over (clear for a new game): ".to_string(),
        })
    }
}

impl AtaxxText {
    fn require_setup(&self, what: &'static str) -> Result<(), TextError> {
        if self.state == State::Setup {
            Ok(())
        } else {
            Err(TextError::WrongState(what))
        }
    }

    fn manual_move(&mut self, tm: TextMove, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        let text = match tm {
            TextMove::Pass => "-".to_string(),
            TextMove::Step { from, to } => format!("{}-{}", square_name(from), square_name(to)),
        };
        match self.state {
            State::Finished => {
                return Err(TextError::WrongState(
                    "the game is over (use clear for a new game)",
                ))
            }
            State::Setup if self.pos.outcome().is_some() => {
                return Err(TextError::WrongState(
                    "the set-up already ended the game (start announces the result; clear for a new one)",
                ))
            }
            State::Playing if self.auto[self.pos.side_to_move().index()] => {
                return Err(TextError::NotYourTurn)
            }
            _ => {}
        }
        let mv = tm
            .resolve(&self.pos)
            .ok_or_else(|| TextError::IllegalBecause(text, why_illegal(&self.pos, tm)))?;
        self.play(mv);
        if self.state == State::Playing && !self.check_end(host) {
            return Ok(self.play_ai(host));
        }
        Ok(Flow::Continue)
    }

    fn play(&mut self, mv: Move) {
        let before = self.pos.clone();
        self.pos.make_move(mv);
        self.history.record(before, mv, &self.pos);
        self.moves_played = true;
        self.ply += 1;
    }

    /// In the playing state: if the game is over, announce it and finish. Returns
    /// whether it ended.
    fn check_end(&mut self, host: &mut AtaxxHost) -> bool {
        match self.pos.outcome() {
            Some(o) => {
                host.say(result_line(o));
                self.state = State::Finished;
                true
            }
            None => false,
        }
    }

    /// Lets AI players move until a manual player is to move or the game ends.
    fn play_ai(&mut self, host: &mut AtaxxHost) -> Flow {
        while self.state == State::Playing && self.auto[self.pos.side_to_move().index()] {
            let limits = Limits {
                nodes: Some(AI_NODES),
                hard_time: Some(AI_TIME_CAP),
                ..Limits::default()
            };
            let acts = Self::acts_at_once;
            let mv = match host.think(&self.pos, limits, self.seed, self.ply, acts) {
                Ok(mv) => mv,
                Err(ThinkError::Quit) => return Flow::Quit,
                Err(ThinkError::Interrupted(line)) => return self.execute(&line, host),
                Err(ThinkError::Internal(why)) => {
                    Self::error(host, &format!("internal error, no AI move made: {why}"));
                    return Flow::Continue;
                }
            };
            host.say(&ai_move_line(&self.pos, mv));
            self.play(mv);
            self.check_end(host);
            host.show(|| self.view());
        }
        Flow::Continue
    }
}

impl TextProtocol for AtaxxText {
    type Game = Position;

    /// `clear` (after an earlier game), `seed`, one `block` per reflection orbit of the
    /// base's gaps, the opening's moves as set-up moves, `manual`/`auto`, `dump`.
    fn setup_commands(
        opening: &Opening<Position>,
        ai_side: Side,
        seed: u64,
        played: bool,
    ) -> Result<Vec<String>, String> {
        let mut cmds = Vec::new();
        if played {
            cmds.push("clear".to_string());
        }
        cmds.push(format!("seed {seed}"));
        let start = Position::startpos(Rules::Text);
        let (base, gaps) = (&opening.base, opening.base.gaps());
        let same_pieces = [Side::First, Side::Second]
            .iter()
            .all(|&s| base.pieces(s) == start.pieces(s));
        if !same_pieces || base.side_to_move() != Side::First {
            return Err("the text language starts from the start position (no FEN)".into());
        }
        let mut covered = 0u64;
        for sq in crate::games::ataxx::bitboard::Bits(gaps) {
            if covered & (1 << sq) == 0 {
                let orbit = block_squares(sq);
                if orbit & !gaps != 0 {
                    return Err("gaps that are not mirror-symmetric cannot be blocks".into());
                }
                covered |= orbit;
                cmds.push(format!("block {}", square_name(sq)));
            }
        }
        let mut pos = base.clone();
        for &mv in &opening.moves {
            cmds.push(TextMove::format(&pos, mv));
            pos.make_move(mv);
        }
        cmds.push(format!("manual {}", side_word(ai_side.opponent())));
        cmds.push(format!("auto {}", side_word(ai_side)));
        cmds.push("dump".to_string());
        Ok(cmds)
    }

    fn start_commands() -> Vec<String> {
        vec!["start".to_string()]
    }

    fn move_text(pos: &Position, mv: Move) -> String {
        TextMove::format(pos, mv)
    }

    fn parse_move_text(pos: &Position, text: &str) -> Option<Move> {
        TextMove::parse(text).ok().and_then(|m| m.resolve(pos))
    }

    fn parse_ai_move(line: &str) -> Option<(Option<Side>, String)> {
        parse_ai_move_line(line).map(|(side, text)| (Some(side), text))
    }

    fn parse_result(line: &str) -> Option<Outcome> {
        parse_result_line(line)
    }

    fn is_dump_marker(line: &str) -> bool {
        strip_prompt(line) == "==="
    }
}

/// The line announcing an AI's move: `Red moves a7-b6.` or `Blue passes.`
pub fn ai_move_line(pos: &Position, mv: Move) -> String {
    let side = colour_name(pos.side_to_move());
    if mv.is_pass() {
        format!("{side} passes.")
    } else {
        format!("{side} moves {}.", TextMove::format(pos, mv))
    }
}

/// Recognises an AI move line (after any prompt, which ends at the last `:`): the side
/// that moved and its move in text form (`a7-b6`, or `-` for a pass).
pub fn parse_ai_move_line(line: &str) -> Option<(Side, String)> {
    let words: Vec<&str> = strip_prompt(line).split_whitespace().collect();
    let side = match words.first().copied() {
        Some("Red") => Side::First,
        Some("Blue") => Side::Second,
        _ => return None,
    };
    match words.as_slice() {
        [_, "passes."] => Some((side, "-".into())),
        [_, "moves", mv] => {
            let mv = mv.strip_suffix('.')?;
            let (a, b) = mv.split_once('-')?;
            parse_square(a).ok()?;
            parse_square(b).ok()?;
            if mv.bytes().any(|c| c.is_ascii_uppercase()) {
                return None;
            }
            Some((side, mv.to_string()))
        }
        _ => None,
    }
}

/// Recognises a result line (after any prompt).
pub fn parse_result_line(line: &str) -> Option<Outcome> {
    [
        Outcome::Win(Side::First),
        Outcome::Win(Side::Second),
        Outcome::Draw,
    ]
    .into_iter()
    .find(|&o| strip_prompt(line) == result_line(o))
}

/// The part of an output line after the last `:` (prompts end with `:`), trimmed.
pub fn strip_prompt(line: &str) -> &str {
    match line.rfind(':') {
        Some(i) => line[i + 1..].trim(),
        None => line.trim(),
    }
}

/// The language's name for a side in commands (`red` / `blue`).
pub fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "blue",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            TextError::WrongState(
                "the set-up already ended the game (start announces the result; clear for a new one)",
            ),
            TextError::Illegal("a1-a2".into()),
            TextError::BlockOccupied("a1".into()),
            TextError::BlockAfterPlay,
            TextError::NotYourTurn,
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
    fn errors_never_echo_reserved_words() {
        for junk in [
            "wins",
            "===",
            "Red wins.",
            "DRAW.",
            "a\u{0}b\u{1b}",
            &"x".repeat(70_000),
        ] {
            let e = parse(junk).unwrap_err().to_string();
            assert!(clean(&e), "{e}");
            assert!(
                e.len() < 100 && e.chars().all(|c| c.is_ascii_graphic() || c == ' '),
                "{e}"
            );
        }
        assert_eq!(quote_input("Red wins."), "'Red ????.'");
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
        // A file name may hold blanks.
        assert_eq!(
            parse("load my file").unwrap(),
            Some(Command::Load("my file".into()))
        );
        assert_eq!(parse("load").unwrap_err(), TextError::BadArgs("load FILE"));
        assert!(matches!(
            parse("g7-f7 extra"),
            Err(TextError::Refused(m)) if m.contains("'extra'")
        ));
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
    fn setup_commands_rebuild_the_opening() {
        use crate::game::{GameIo, RuleSet};
        let o = Position::opening("block c4 f2 g7f5", RuleSet::Text).unwrap();
        let cmds = AtaxxText::setup_commands(&o, Side::Second, 7, false).unwrap();
        assert_eq!(
            cmds,
            [
                "seed 7",
                "block c4",
                "g1-f2",
                "g7-f5",
                "manual red",
                "auto blue",
                "dump"
            ]
        );
        let fen = Position::opening("x5o/7/7/7/7/7/o5x o 0 1", RuleSet::Text).unwrap();
        assert!(AtaxxText::setup_commands(&fen, Side::First, 0, true).is_err());
    }

    #[test]
    fn move_and_result_lines_round_trip() {
        let pos = Position::startpos(Rules::Text);
        let mv = TextMove::parse("a7-b6").unwrap().resolve(&pos).unwrap();
        let line = ai_move_line(&pos, mv);
        assert_eq!(line, "Red moves a7-b6.");
        assert_eq!(
            parse_ai_move_line(&format!("red: {line}")),
            Some((Side::First, "a7-b6".to_string()))
        );
        assert_eq!(
            parse_ai_move_line("Blue passes."),
            Some((Side::Second, "-".into()))
        );
        for junk in [
            "Red wins.",
            "Red moves a7-b6",
            "Red moves h7-b6.",
            "moves",
            "",
            "Red moves A7-b6.",
        ] {
            assert_eq!(parse_ai_move_line(junk), None, "{junk}");
        }
        for o in [
            Outcome::Win(Side::First),
            Outcome::Win(Side::Second),
            Outcome::Draw,
        ] {
            assert_eq!(
                parse_result_line(&format!("blue: {}", result_line(o))),
                Some(o)
            );
        }
        assert_eq!(parse_result_line("Red moves a7-b6."), None);
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

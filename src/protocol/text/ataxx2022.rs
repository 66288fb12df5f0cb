//! The 2022 course text language (`ataxx --edition 2022`; CS61B, Spring 2022, Project 2
//! "Ataxx"; see `protocol.md`, "The 2022 edition"): no set-up state, a game is always
//! in progress until it ends; `new`, `auto`/`manual`, `block` with reflections, `seed`,
//! `undo`, `verbose`/`quiet`, `board`, `dump`, `help`, `quit`, and moves `g1-f2` or `-`.
//! The computer's moves print as `* Red moves a7-b6.` (a pass `* Blue moves -.`), the
//! results as `* Red wins.`, `* Blue wins.` or `* Draw.`; errors go to stderr.
//!
//! Whenever the side to move is played by the AI it moves at once: after the other
//! side's move, `auto`, `new` or `undo`, so two AIs play a game out without reading
//! input, as the course's program does. The rules are the 2016 edition's (25
//! consecutive jumps end a game: [`RULES`]).
//!
//! A line is parsed completely into a [`Command`] before anything changes, so a refused
//! command changes nothing. The course harness (`test-ataxx`) reads `*` lines and
//! `===` dumps after stripping everything up to the last `>` (the prompts `Red> `,
//! `Blue> `, `-> `): nothing else this module prints on stdout starts with `*` or `===`
//! or holds a `>`, and error lines (stderr) have those characters of any echoed input
//! masked.

use super::ataxx::{
    block_commands, block_square, block_squares, dump, dump_glyph, from_start, parse_move_word,
    typed_moves, why_illegal,
};
pub use super::kit::TextError;
use super::kit::{self, Comments, Common, Errors, ExtraWords, Masked, MoveLines, Spec, Words};
use crate::game::{Outcome, Side};
use crate::games::ataxx::{parse_square, square_name, Move, Position, Rules, TextMove};
use crate::protocol::play::History;
use crate::protocol::play::Play;
use crate::protocol::text::board::View;
use crate::protocol::text::{EngineSetup, Flow, Host, TextDialect, TextProtocol};
use crate::protocol::text::{Turn, Turns};

mod board;

/// The rule set the 2022 edition's games are played by: the 2016 edition's (the
/// course's `Board.JUMP_LIMIT` is 25 consecutive jumps, which passes neither count nor
/// reset; a side without pieces loses; when neither side can move the piece count
/// decides). The registry names a run of this edition `2022` (`-rules 2022`, the records).
pub const RULES: Rules = Rules::Text;

/// The language as data: `#` only as a line's first non-blank character, extra words
/// refused (the course's command patterns match whole lines), errors on stderr, prompts
/// ending in `>`. Its AI move lines (`* Red moves a7-b6.`) are written and read by
/// [`ai_move_line`] and [`parse_ai_move_line`]; `move_lines` names the closest form the
/// kit knows and is not used to write them.
pub static SPEC: Spec = Spec {
    colours: ["Red", "Blue"],
    side_words: ["red", "blue"],
    comments: Comments::FirstNonBlank,
    extra_words: ExtraWords::Refused,
    errors: Errors::Stderr,
    prompt_end: '>',
    masked: Masked::Chars(&['*', '>', '=']),
    move_lines: MoveLines::Named,
    results: ["* Red wins.", "* Blue wins.", "* Draw."],
    results_any_blanks: true,
    help_words: &["help"],
    load: false,
    move_text: is_move_text,
    // The 2016 edition's budget: the same AI.
    ai: super::ataxx::SPEC.ai,
};

/// True for the move text of an AI move line: `c0r0-c1r1` or `-`.
fn is_move_text(mv: &str) -> bool {
    mv == "-"
        || mv
            .split_once('-')
            .is_some_and(|(a, b)| parse_square(a).is_ok() && parse_square(b).is_ok())
}

/// The command words, as the course's `Command.COMMAND_NAMES` lists them: a line that
/// is one word only may be any prefix of one of them that fits no other (`d` is `dump`,
/// `u` is `undo`; `q` is a command of its own).
const NAMES: [&str; 13] = [
    "auto", "block", "board", "dump", "help", "manual", "new", "q", "quiet", "quit", "seed",
    "undo", "verbose",
];

/// A fully parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `quit` (or `q`), `help`, `dump`, `seed N`.
    Common(Common),
    New,
    Auto(Side),
    Manual(Side),
    /// `block CR`: one square; its reflections are blocked with it.
    Block(u8),
    Undo,
    Verbose,
    Quiet,
    Board,
    /// `start`, which the course's program accepts and ignores (there is no set-up
    /// state to leave); so do we, so a script written for it runs unchanged.
    Start,
    /// A move or `-` (syntax checked, legality not yet).
    Move(TextMove),
}

/// The command word a line's first word stands for: itself if it is a command word or
/// the line has more words, else the one command word it begins (`Err` if it begins
/// several).
fn command_word(w: &Words) -> Result<String, TextError> {
    let word = w.word.as_str();
    if !w.args.is_empty() || NAMES.contains(&word) {
        return Ok(word.to_string());
    }
    let fits: Vec<&str> = NAMES
        .iter()
        .copied()
        .filter(|n| n.starts_with(word))
        .collect();
    match fits[..] {
        [] => Ok(word.to_string()),
        [name] => Ok(name.to_string()),
        _ => Err(TextError::refused(format!(
            "{} is not a unique abbreviation ({})",
            SPEC.quote_input(w.first),
            fits.join(", ")
        ))),
    }
}

/// Parses one line. `Ok(None)` for a blank line or a comment (first non-blank `#`).
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    let Some(w) = SPEC.words(line) else {
        return Ok(None);
    };
    Ok(Some(match command_word(&w)?.as_str() {
        "quit" | "q" => w.no_args(Command::Common(Common::Quit), "quit")?,
        "help" => w.no_args(Command::Common(Common::Help), "help")?,
        "dump" => w.no_args(Command::Common(Common::Dump), "dump")?,
        "new" => w.no_args(Command::New, "new")?,
        "undo" => w.no_args(Command::Undo, "undo")?,
        "verbose" => w.no_args(Command::Verbose, "verbose")?,
        "quiet" => w.no_args(Command::Quiet, "quiet")?,
        "board" => w.no_args(Command::Board, "board")?,
        "start" => w.no_args(Command::Start, "start")?,
        "auto" => Command::Auto(w.side("auto red|blue")?),
        "manual" => Command::Manual(w.side("manual red|blue")?),
        "seed" => {
            const USAGE: &str = "seed N (a whole number, 0 to 18446744073709551615)";
            let n = w.args(1, USAGE)?[0];
            match n.parse::<u64>() {
                Ok(seed) if n.bytes().all(|b| b.is_ascii_digit()) => {
                    Command::Common(Common::Seed(seed))
                }
                _ => return Err(TextError::BadArgs(USAGE)),
            }
        }
        "block" => Command::Block(block_square(&w, "block CR (a square, a1..g7)")?),
        _ => Command::Move(parse_move_word(&w)?),
    }))
}

/// The line announcing an AI's move: `* Red moves a7-b6.`, or `* Blue moves -.` for a
/// pass (the course's `TextReporter.announceMove`).
pub fn ai_move_line(pos: &Position, mv: Move) -> String {
    format!(
        "* {} moves {}.",
        SPEC.colour_name(pos.side_to_move()),
        TextMove::format(pos, mv)
    )
}

/// Recognises an AI move line (after any prompt; runs of blanks count as one, as the
/// harness reads them): the side that moved and its move (`a7-b6`, or `-`).
pub fn parse_ai_move_line(line: &str) -> Option<(Side, String)> {
    let text = SPEC.strip_prompt(line);
    let words: Vec<&str> = text.strip_prefix('*')?.split_whitespace().collect();
    let [colour, "moves", mv] = words[..] else {
        return None;
    };
    let side = [Side::First, Side::Second]
        .into_iter()
        .find(|&s| SPEC.colour_name(s) == colour)?;
    let mv = mv.strip_suffix('.')?;
    (is_move_text(mv) && !mv.bytes().any(|b| b.is_ascii_uppercase()))
        .then(|| (side, mv.to_string()))
}

/// The board with its coordinates (`board`, and after every move once `verbose`): the
/// dump's letters, each row led by its number, the column letters below.
pub fn board_text(pos: &Position) -> String {
    pos.labelled(dump_glyph)
}

const HELP: &str = "\
Move commands:
   c0r0-c1r1  a move for the side to move, e.g. g1-f2: columns a-g, rows 1-7 (a1
              bottom left); extend to a neighbouring square or jump two away
   -          pass: only when the side to move has no move
Other commands (one a line; a line whose first non-blank character is # is a
comment; a command that stands alone may be shortened, e.g. d for dump):
   new        a new game: start position, no blocks (players and seed stay)
   auto C     player C (red or blue) is the AI from now on
   manual C   player C's moves are typed from now on
   block CR   block square CR and its reflections across the middle row and
              column (before the first move)
   seed N     seed the AI's random choices (a whole number)
   undo       take back the last move, and the one before if the AI made it
   verbose    print the board after every move (quiet stops it)
   board      print the board with its coordinates
   dump       print the board in the form the test harness reads
   help       print this message
   quit       leave the program (q, and end of input, do the same)
Red moves first; red is typed and blue is the AI until auto or manual says otherwise.";

/// The 2022 dialect's session state.
pub struct Ataxx2022 {
    /// The game since `new`: `block` is refused once a move (passes included) is in it.
    table: Play<Position>,
    /// Which sides the AI plays, by [`Side::index`].
    auto: [bool; 2],
    /// `verbose`: the board is printed after every move.
    verbose: bool,
    /// The result of the ended game has been printed (once per end: `undo` or `new`
    /// lets a game go on, and its next end is announced again).
    announced: bool,
}

type AtaxxHost<'a> = Host<'a, Position>;

impl TextDialect for Ataxx2022 {
    type Game = Position;
    type Command = Command;
    type Error = TextError;
    const SPEC: &'static Spec = &SPEC;
    const PAGE_COMMANDS: &'static str =
        "block, seed, auto, manual, new, undo, verbose, quiet, board, dump…";
    type Options = ();

    fn new() -> Ataxx2022 {
        Ataxx2022 {
            table: Play::new(Position::startpos(RULES)),
            auto: [false, true],
            verbose: false,
            announced: false,
        }
    }

    fn parse_line(line: &str) -> Result<Option<Command>, TextError> {
        parse(line)
    }

    fn run_command(&mut self, cmd: Command, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match cmd {
            Command::Common(Common::Quit) => return Ok(Flow::Quit),
            Command::New => {
                self.new_game()?;
                host.new_game();
            }
            Command::Auto(side) => self.set_player(side, true)?,
            Command::Manual(side) => self.set_player(side, false)?,
            Command::Common(Common::Seed(n)) => self.table.seed = n,
            Command::Block(sq) => self.block(sq)?,
            Command::Undo => self.undo()?,
            Command::Verbose => self.verbose = true,
            Command::Quiet => self.verbose = false,
            Command::Start => {}
            Command::Move(tm) => self.manual_move(tm, host)?,
            Command::Common(Common::Help | Common::Dump) | Command::Board => {
                host.say(&self.shown(&cmd).unwrap_or_default())
            }
            Command::Common(Common::Load(_)) => {} // not in this language: never parsed
        }
        Ok(self.play_turns(host))
    }

    const QUIT: Command = Command::Common(Common::Quit);

    /// `quit`, `new` (abandons the game) and `manual C` (a person takes a side over,
    /// which is what stops two AIs): typed while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        matches!(
            parse(line),
            Ok(Some(
                Command::Common(Common::Quit) | Command::New | Command::Manual(_)
            ))
        )
    }

    fn look(&self, line: &str) -> Option<String> {
        self.shown(&parse(line).ok()??)
    }

    fn view(&self) -> Option<View> {
        Some(self.board_view())
    }

    fn picture(pos: &Position, history: &History<Position>) -> View {
        board::picture(pos, history)
    }

    fn prompt(&self) -> Option<String> {
        Some(match self.table.pos.outcome() {
            Some(_) => "-> ".to_string(),
            None => format!("{}> ", SPEC.colour_name(self.table.pos.side_to_move())),
        })
    }
}

impl Ataxx2022 {
    /// What a command that only looks prints (`help`, `dump`, `board`); `None` for
    /// the others.
    fn shown(&self, cmd: &Command) -> Option<String> {
        match cmd {
            Command::Common(Common::Help) => Some(HELP.to_string()),
            Command::Common(Common::Dump) => Some(dump(&self.table.pos)),
            Command::Board => Some(board_text(&self.table.pos)),
            _ => None,
        }
    }

    /// `block CR`: before the first move, on a square whose orbit holds no piece.
    fn block(&mut self, sq: u8) -> Result<(), TextError> {
        if self.table.ply > 0 {
            return Err(TextError::refused(
                "blocks are placed before the first move (new starts another game)",
            ));
        }
        self.table.pos.add_gaps(block_squares(sq)).map_err(|_| {
            TextError::refused(format!(
                "cannot block {}: a square there holds a piece",
                square_name(sq)
            ))
        })
    }

    fn manual_move(&mut self, tm: TextMove, host: &mut AtaxxHost) -> Result<(), TextError> {
        if self.table.pos.outcome().is_some() {
            return Err(TextError::refused(
                "the game is over (new starts another; undo takes back its last move)",
            ));
        }
        if self.auto[self.table.pos.side_to_move().index()] {
            return Err(TextError::refused("the AI is to move, not a manual player"));
        }
        let mv = tm.resolve(&self.table.pos).ok_or_else(|| {
            let text = match tm {
                TextMove::Pass => "-".to_string(),
                TextMove::Step { from, to } => {
                    format!("{}-{}", square_name(from), square_name(to))
                }
            };
            SPEC.illegal(&text, why_illegal(&self.table.pos, tm))
        })?;
        self.play(mv, host);
        Ok(())
    }

    /// Plays a move and records it; verbose mode shows the board after it.
    fn play(&mut self, mv: Move, host: &mut AtaxxHost) {
        self.table.play(mv);
        if self.verbose {
            host.say(&board_text(&self.table.pos));
        }
    }
}

/// The 2022 turns, after every command: the end is announced once (`undo` or `new`
/// lets a game go on, and its next end is announced again), the AI moves while it
/// plays the side to move, and passes without thinking when it has no move (a person
/// types `-`).
impl Turns for Ataxx2022 {
    fn game(&self) -> &Play<Position> {
        &self.table
    }

    fn turn(&self, side: Side) -> Turn {
        Turn::local(self.auto[side.index()])
    }

    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut AtaxxHost) -> Option<Flow> {
        let Some(o) = outcome else {
            self.announced = false;
            return None;
        };
        if !self.announced {
            host.say(SPEC.result_line(o));
            self.announced = true;
        }
        Some(Flow::Continue)
    }

    fn forced(&mut self, ai: bool, host: &mut AtaxxHost) -> bool {
        let pos = &self.table.pos;
        if !ai || pos.can_move(pos.side_to_move()) {
            return false;
        }
        host.say(&ai_move_line(pos, Move::PASS));
        self.play(Move::PASS, host);
        true
    }

    fn ai_moves(&mut self, mv: Move, host: &mut AtaxxHost) -> Option<Flow> {
        host.say(&ai_move_line(&self.table.pos, mv));
        self.play(mv, host);
        None
    }

    /// `auto C` / `manual C`.
    fn set_player(&mut self, side: Side, ai: bool) -> Result<(), TextError> {
        self.auto[side.index()] = ai;
        Ok(())
    }

    /// `new`: the start position, the players kept.
    fn new_game(&mut self) -> Result<(), TextError> {
        self.table.restart(Position::startpos(RULES));
        Ok(())
    }

    /// `undo`: takes back the last move, and the one before it too when the AI plays
    /// the side that is then to move (so a person gets their own turn back), as the
    /// course's `Game.undo` does.
    fn undo(&mut self) -> Result<(), TextError> {
        if !self.table.take_back() {
            return Err(TextError::refused("no move to take back"));
        }
        if self.auto[self.table.pos.side_to_move().index()] {
            self.table.take_back();
        }
        Ok(())
    }
}

impl TextProtocol for Ataxx2022 {
    const RULES: Rules = RULES;

    /// Both sides manual (nothing moves while the game is set up), `new` after an
    /// earlier game, `seed`, one `block` per reflection orbit of the base's gaps, the
    /// opening's moves typed, then `auto` for the AI's side and `dump`. There is no
    /// set-up state and `auto` makes the AI move at once when its side is to move, so
    /// then `auto` comes after the `dump`, which is still read before the AI's first
    /// move line.
    fn setup_commands(s: &EngineSetup<Position>) -> Result<Vec<String>, String> {
        let opening = s.opening;
        if !from_start(&opening.base) {
            return Err("the text language starts from the start position (no FEN)".into());
        }
        let mut cmds = kit::manual_start(&SPEC, s);
        cmds.extend(block_commands(&opening.base)?);
        cmds.extend(typed_moves(opening));
        kit::auto_and_dump(&mut cmds, &SPEC, s, opening.end().side_to_move());
        Ok(cmds)
    }

    fn start_commands() -> Vec<String> {
        Vec::new()
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::protocol::input::Line;
    use crate::protocol::text;
    use crate::protocol::text::kit::checks;

    /// Runs a session over `input`; returns (stdout, stderr).
    fn session(input: &str) -> (String, String) {
        let (tx, rx) = crossbeam_channel::unbounded();
        for l in input.lines() {
            tx.send(Line::new(l)).unwrap();
        }
        drop(tx);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let setup = text::Setup::default();
        let status = text::run::<Ataxx2022>(None, rx, &mut out, &mut err, false, setup, None);
        assert_eq!(status, 0);
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    /// What the harness would compare: `*` lines and dumps (`===` to `===`).
    fn harness_lines(out: &str) -> Vec<&str> {
        let mut dumping = false;
        let mut kept = Vec::new();
        for l in out.lines() {
            if l.starts_with("===") {
                dumping = !dumping;
                kept.push(l);
            } else if dumping || l.starts_with('*') {
                kept.push(l);
            }
        }
        kept
    }

    /// The blocks of the course's test10: each side can make two moves, then neither
    /// can move and the game is drawn 4-4.
    const CLOSED: &str = "block c1\nblock d1\nblock a2\nblock b2\nblock c2\nblock d2\n\
                          block a3\nblock b3\nblock c3\nblock d3\n";

    fn clean(s: &str) -> bool {
        !s.contains('*') && !s.contains('>') && !s.contains("===")
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   # dump").unwrap(), None);
        assert_eq!(
            parse(" AUTO Red ").unwrap(),
            Some(Command::Auto(Side::First))
        );
        assert_eq!(
            parse("manual\tBLUE").unwrap(),
            Some(Command::Manual(Side::Second))
        );
        assert_eq!(
            parse("seed 18446744073709551615").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        assert_eq!(
            parse("block C4").unwrap(),
            Some(Command::Block(parse_square("c4").unwrap()))
        );
        assert_eq!(parse("-").unwrap(), Some(Command::Move(TextMove::Pass)));
        assert_eq!(
            parse("A7-B6").unwrap(),
            Some(Command::Move(TextMove::parse("a7-b6").unwrap()))
        );
        assert_eq!(parse("start").unwrap(), Some(Command::Start));
        for (line, cmd) in [
            ("q", Command::Common(Common::Quit)),
            ("quit", Command::Common(Common::Quit)),
            ("d", Command::Common(Common::Dump)),
            ("h", Command::Common(Common::Help)),
            ("n", Command::New),
            ("u", Command::Undo),
            ("v", Command::Verbose),
            ("quie", Command::Quiet),
            ("BO", Command::Board),
        ] {
            assert_eq!(parse(line).unwrap(), Some(cmd), "{line}");
        }
    }

    #[test]
    fn refuses_what_the_course_program_refuses() {
        // Abbreviations stand alone and fit one command word.
        for ambiguous in ["b", "qu", "qui"] {
            let e = parse(ambiguous).unwrap_err().to_string();
            assert!(e.contains("not a unique abbreviation"), "{e}");
        }
        assert_eq!(parse("a").unwrap_err(), TextError::BadArgs("auto red|blue"));
        assert_eq!(parse("au red").unwrap_err(), SPEC.unknown("au"));
        for bad in [
            "dump # a comment after a command",
            "dump now",
            "quit now",
            "auto",
            "auto r",
            "auto green",
            "auto red blue",
            "manual",
            "seed",
            "seed -1",
            "seed +1",
            "seed 18446744073709551616",
            "seed x",
            "block",
            "block c4 c3",
            "start now",
        ] {
            assert!(
                matches!(parse(bad), Err(TextError::BadArgs(_))),
                "{bad}: {:?}",
                parse(bad)
            );
        }
        assert!(matches!(parse("block h1"), Err(TextError::Refused(m)) if m.contains("'h1'")));
        assert!(matches!(
            parse("g1-h1"),
            Err(TextError::IllegalBecause(_, why)) if why.contains("no square h1")
        ));
        assert!(matches!(
            parse("b7c7"),
            Err(TextError::Refused(m)) if m.contains("a move is written b7-c7")
        ));
        assert!(matches!(
            parse("a7-b6 b6-c5"),
            Err(TextError::Refused(m)) if m.contains("one move a line")
        ));
        assert_eq!(parse("blocks abc").unwrap_err(), SPEC.unknown("blocks"));
        assert_eq!(parse("clear").unwrap_err(), SPEC.unknown("clear"));
        assert_eq!(parse("load f").unwrap_err(), SPEC.unknown("load"));
    }

    #[test]
    fn chatter_avoids_harness_characters() {
        assert!(clean(HELP));
        for junk in [
            "* Red wins.",
            "Red> a7-b6",
            "===",
            "\u{1b}[2J",
            &"x".repeat(1000),
            "*-*",
            "=>",
        ] {
            let e = parse(junk).unwrap_err().to_string();
            assert!(clean(&e), "{e}");
            assert!(e.len() < 120 && e.chars().all(|c| c.is_ascii_graphic() || c == ' '));
        }
        let board = board_text(&Position::startpos(RULES));
        assert!(board.lines().all(clean), "{board}");
    }

    #[test]
    fn move_and_result_lines_round_trip() {
        let pos = Position::startpos(RULES);
        let mv = TextMove::parse("a7-b6").unwrap().resolve(&pos).unwrap();
        let line = ai_move_line(&pos, mv);
        assert_eq!(line, "* Red moves a7-b6.");
        assert_eq!(
            parse_ai_move_line(&format!("Red> {line}")),
            Some((Side::First, "a7-b6".into()))
        );
        assert_eq!(
            parse_ai_move_line("*  Blue   moves -."),
            Some((Side::Second, "-".into()))
        );
        assert_eq!(
            Ataxx2022::parse_ai_move("-> * Blue moves g7-f6."),
            Some((Some(Side::Second), "g7-f6".into()))
        );
        checks::not_ai_moves(
            parse_ai_move_line,
            &[
                "* Red wins.",
                "Red moves a7-b6.",
                "* Red moves a7-b6",
                "* Red moves A7-b6.",
                "* Red moves h7-b6.",
                "* Green moves a7-b6.",
                "* Red moves a7-b6. now",
                "*",
            ],
        );
        checks::result_lines_read_back(&SPEC, "-> ");
        assert_eq!(
            SPEC.parse_result_line("*   Blue  wins."),
            Some(Outcome::Win(Side::Second))
        );
        assert_eq!(SPEC.parse_result_line("Blue wins."), None);
        assert!(Ataxx2022::is_dump_marker("Red> ==="));
    }

    #[test]
    fn board_has_coordinates() {
        let b = board_text(&Position::startpos(RULES));
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines.len(), 8);
        assert_eq!(lines[0], "7  r - - - - - b");
        assert_eq!(lines[6], "1  b - - - - - r");
        assert_eq!(lines[7], "   a b c d e f g");
    }

    #[test]
    fn a_manual_game_with_blocks() {
        // The course's test03: blocks, then one move each, both sides typed.
        let (out, err) =
            session("manual blue\nblock b2\nblock c3\nblock c4\na7-a6\ng7-f5\ndump\nquit\ndump\n");
        assert_eq!(err, "");
        assert_eq!(
            harness_lines(&out),
            [
                "===",
                "  r - - - - - -",
                "  r X - - - X -",
                "  - - X - X b -",
                "  - - X - X - -",
                "  - - X - X - -",
                "  - X - - - X -",
                "  b - - - - - r",
                "===",
            ]
        );
    }

    #[test]
    fn refused_lines_change_nothing() {
        let (out, err) = session(
            "manual blue\nblock b2\nblock a1\na1-b1\na7-a4\n-\na7-a6\nblock c3\ng7-f6\n\
             g7-f7\nzap\nb\ndump\n",
        );
        let errors: Vec<&str> = err.lines().collect();
        assert_eq!(
            errors,
            [
                "Error: cannot block a1: a square there holds a piece",
                "Error: illegal move 'a1-b1': no red piece on a1",
                "Error: illegal move 'a7-a4': a4 is too far from a7 (one or two squares)",
                "Error: illegal move '-': red has a move, so it cannot pass",
                "Error: blocks are placed before the first move (new starts another game)",
                "Error: illegal move 'g7-f6': f6 is blocked",
                "Error: unknown command 'zap' (type help)",
                "Error: 'b' is not a unique abbreviation (block, board)",
            ]
        );
        assert_eq!(
            harness_lines(&out)[1..8],
            [
                "  r - - - - b b",
                "  r X - - - X -",
                "  - - - - - - -",
                "  - - - - - - -",
                "  - - - - - - -",
                "  - X - - - X -",
                "  b - - - - - r",
            ]
        );
    }

    #[test]
    fn the_ai_answers_and_undo_gives_the_turn_back() {
        let (out, err) = session("seed 3\na7-b6\nundo\ndump\nundo\n");
        let lines = harness_lines(&out);
        let (side, _) = parse_ai_move_line(lines[0]).expect("blue answers");
        assert_eq!(side, Side::Second);
        let start = dump(&Position::startpos(RULES));
        assert_eq!(lines[1..].join("\n"), start);
        assert_eq!(err.trim_end(), "Error: no move to take back");
    }

    #[test]
    fn two_ais_play_the_game_out() {
        // Both AIs: the game is played to its end before the next line is read, the end
        // is announced once, and moves after it are refused.
        let (out, err) = session(&format!("seed 779941\n{CLOSED}auto red\ndump\ng1-f1\n"));
        let lines = harness_lines(&out);
        assert_eq!(lines.len(), 4 + 1 + 9, "{out}");
        for l in &lines[..4] {
            assert!(parse_ai_move_line(l).is_some(), "{l}");
        }
        assert_eq!(lines[4], "* Draw.");
        assert_eq!(lines[6], "  r r X X X b b");
        assert!(err.contains("the game is over"), "{err}");
    }

    #[test]
    fn undo_after_the_end_plays_on_and_announces_again() {
        let (out, _) = session(&format!(
            "manual blue\n{CLOSED}a7-b7\ng7-f7\ng1-f1\na1-b1\nundo\na1-b1\n"
        ));
        assert_eq!(harness_lines(&out), ["* Draw.", "* Draw."]);
    }

    #[test]
    fn verbose_prints_the_board_after_each_move() {
        let (out, _) = session("manual blue\nverbose\na7-b6\nquiet\ng7-f6\nboard\n");
        let boards = out.matches("   a b c d e f g").count();
        assert_eq!(boards, 2, "{out}");
        assert!(out.starts_with("7  r - - - - - b\n6  - r"), "{out}");
    }

    #[test]
    fn new_keeps_the_players_and_clears_the_blocks() {
        let (out, err) = session("block c4\nmanual blue\nauto red\nmanual red\nnew\ndump\n");
        assert_eq!(err, "");
        let lines = harness_lines(&out);
        // Red's AI moved at `auto red`; after `new` red is typed, and no block is left.
        assert!(parse_ai_move_line(lines[0]).is_some(), "{out}");
        assert_eq!(lines[1..].join("\n"), dump(&Position::startpos(RULES)));
    }

    #[test]
    fn setup_commands_rebuild_the_opening() {
        use crate::game::Notation;
        let o = Position::opening("block c4 f2 g7f5", RULES).unwrap();
        let cmds = Ataxx2022::setup_commands(&EngineSetup::new(&o, Side::First, 7, true)).unwrap();
        assert_eq!(
            cmds,
            [
                "manual red",
                "manual blue",
                "new",
                "seed 7",
                "block c4",
                "g1-f2",
                "g7-f5",
                "dump",
                "auto red"
            ]
        );
        let (out, err) = session(&cmds.join("\n"));
        assert_eq!(err, "");
        let lines = harness_lines(&out);
        assert_eq!(lines[..9].join("\n"), dump(&o.end()));
        assert!(parse_ai_move_line(lines[9]).is_some(), "{out}");
        let cmds =
            Ataxx2022::setup_commands(&EngineSetup::new(&o, Side::Second, 7, false)).unwrap();
        assert_eq!(cmds[cmds.len() - 2..], ["auto blue", "dump"]);
        let fen = Position::opening("x5o/7/7/7/7/7/o5x o 0 1", RULES).unwrap();
        assert!(Ataxx2022::setup_commands(&EngineSetup::new(&fen, Side::First, 0, false)).is_err());
    }

    #[test]
    fn the_rules_are_2016s_under_their_own_name() {
        use crate::game::RuleSet;
        use crate::variant::{Dialect, Variant};
        assert_eq!(Rules::from_name("2022"), Some(RULES));
        // The registry names the edition's runs `2022` (`-rules 2022`, the records).
        assert_eq!(Dialect::Ataxx2022.rules_name(), "2022");
        assert_eq!(Variant::Ataxx.rules_named("2022"), Some("2022"));
        assert_eq!(Variant::Ataxx.dialect_for(Some("2022")), Dialect::Ataxx2022);
        // Jumps back and forth: the 25th ends the game on the piece count, as in 2016.
        let mut ours = Position::startpos(RULES);
        let mut sixteen = Position::startpos(Rules::Text);
        let cycle = ["a7-c7", "g7-e7", "c7-a7", "e7-g7"];
        for (n, text) in cycle.iter().cycle().take(25).enumerate() {
            assert_eq!(ours.outcome(), None, "after {n} jumps");
            let mv = TextMove::parse(text).unwrap().resolve(&ours).unwrap();
            ours.make_move(mv);
            sixteen.make_move(mv);
            assert_eq!(ours.outcome(), sixteen.outcome());
        }
        assert_eq!(ours.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn the_board_page_sees_the_session() {
        let mut s = Ataxx2022::new();
        let v = s.view().unwrap();
        assert_eq!((v.style.id, v.mode.as_str()), ("ataxx2022", "playing"));
        assert_eq!(v.players, ["manual", "AI"]);
        assert!(v.clickable && v.result.is_none());
        s.table.pos = Position::from_fen("x6/7/7/7/7/7/7 x 0 1", RULES).unwrap();
        let v = s.view().unwrap();
        assert_eq!(v.mode, "game over");
        assert_eq!(v.result.as_deref(), Some("* Red wins."));
        assert!(!v.clickable && v.to_move.is_none());
    }
}

//! The `ataxx.txt` course text language (2016 edition; see `protocol.md`): set-up,
//! playing and finished states, manual and AI players, blocks, and the exact lines the
//! course harness reads (`Red moves a7-b6.`, `Blue passes.`, `Red wins.`, dumps).
//!
//! Every line these lines are written here and parsed back here (the tournament runner's
//! text client and the tuner use the parsers), so a change cannot make them disagree.
//! A line is parsed completely into a [`Command`] before anything changes; a rejected
//! command changes nothing. Error messages and all other chatter avoid the words the
//! harness reserves (wins, passes, moves, draw) and the dump marker.

pub use super::kit::TextError;
use super::kit::{
    self, AiBudget, Comments, Common, Errors, ExtraWords, Masked, MoveLines, Spec, Words,
};
use crate::game::{Opening, Outcome, Side};
pub use crate::games::ataxx::block_squares;
use crate::games::ataxx::{parse_square, square_name, Cell, Move, Position, Rules, TextMove};
use crate::protocol::text::{EngineSetup, Flow, Host, TextDialect, TextProtocol};
use std::time::Duration;

mod board;
use crate::protocol::play::History;
use crate::protocol::play::Play;
use crate::protocol::text::board::View;
use crate::protocol::text::{Turn, Turns};
pub(crate) use board::{ataxx_view, ATAXX_BOARD, ATAXX_COLOURS};

pub use super::kit::State;

/// The 2016 language as data (the 2008 edition writes the same lines).
pub static SPEC: Spec = Spec {
    colours: ["Red", "Blue"],
    side_words: ["red", "blue"],
    comments: Comments::Anywhere,
    extra_words: ExtraWords::Refused,
    errors: Errors::Stdout,
    prompt_end: ':',
    masked: Masked::Words(&RESERVED),
    move_lines: MoveLines::Named,
    results: ["Red wins.", "Blue wins.", "Draw."],
    results_any_blanks: false,
    help_words: &["help"],
    load: true,
    move_text: is_step_text,
    ai: AiBudget {
        nodes: 400_000,
        time_cap: Duration::from_secs(4),
    },
};

/// True for `c0r0-c1r1` (two squares), the move text of an AI move line.
fn is_step_text(mv: &str) -> bool {
    mv.split_once('-')
        .is_some_and(|(a, b)| parse_square(a).is_ok() && parse_square(b).is_ok())
}

/// A fully parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `quit`, `help`, `dump`, `seed N`, `load FILE`.
    Common(Common),
    Clear,
    Start,
    Auto(Side),
    Manual(Side),
    Block(u8),
    Move(TextMove),
    Board,
}

/// Words and markers the harness reads in our output; chatter never contains them.
pub use super::kit::RESERVED_WORDS as RESERVED;

/// Parses one line (comments and surrounding blanks allowed). `Ok(None)` for a line
/// with nothing on it.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    SPEC.parse_line(line, Command::Common, |w| {
        Ok(match w.word.as_str() {
            "clear" => w.no_args(Command::Clear, "clear")?,
            "start" => w.no_args(Command::Start, "start")?,
            "board" => w.no_args(Command::Board, "board")?,
            "auto" => Command::Auto(w.side("auto red|blue")?),
            "manual" => Command::Manual(w.side("manual red|blue")?),
            "block" => Command::Block(block_square(w, "block SQUARE (a1..g7)")?),
            _ => Command::Move(parse_move_word(w)?),
        })
    })
}

/// The last resort of every Ataxx edition's parser: one move on its own (`g1-f2`, `-`),
/// or the error that says what the line is, quoted and worded as the line's language
/// (its [`Spec`], which `w` carries) does it.
pub fn parse_move_word(w: &Words) -> Result<TextMove, TextError> {
    let first = w.first;
    match (TextMove::parse(first), w.args.first()) {
        (Ok(_), Some(extra)) => Err(TextError::refused(format!(
            "unexpected {} after the move {} (one move a line)",
            w.spec.quote_input(extra),
            w.spec.quote_input(first)
        ))),
        (Ok(mv), None) => Ok(mv),
        (Err(_), None) if first.contains('-') => {
            let why = kit::off_board(first.split('-'), |s| parse_square(s).is_ok(), "a1..g7")
                .unwrap_or_else(|| "a move is two squares joined by -, e.g. a7-b6".into());
            Err(w.spec.illegal(first, why))
        }
        (Err(_), None) => Err(match other_notation_hint(first) {
            Some(hint) => TextError::refused(format!(
                "unknown command {} ({hint})",
                w.spec.quote_input(first)
            )),
            None => w.spec.unknown(first),
        }),
        (Err(_), Some(_)) => Err(match spaced_move(first, &w.args) {
            Some(mv) => TextError::refused(format!(
                "unknown command {} (a move has no blanks inside: {mv})",
                w.spec.quote_input(first)
            )),
            None => w.spec.unknown(first),
        }),
    }
}

/// The move that `first` and the words after it spell once their blanks are left out
/// (`A7 - B5`, `g1 -f2`, `g1- f2`), in lower case; `None` when they spell no move.
fn spaced_move(first: &str, rest: &[&str]) -> Option<String> {
    if rest.len() > 2 {
        return None;
    }
    let joined = std::iter::once(first)
        .chain(rest.iter().copied())
        .collect::<String>()
        .to_ascii_lowercase();
    (joined.contains('-') && matches!(TextMove::parse(&joined), Ok(TextMove::Step { .. })))
        .then_some(joined)
}

/// What to write instead of a move in UAI notation (`a7b5`, `b6`, `0000`), which people
/// who know the UAI tools type here; `None` for a word that is nothing like a move.
fn other_notation_hint(word: &str) -> Option<String> {
    if word == "0000" {
        return Some("a turn is given up with -".into());
    }
    let squares = |a: &str, b: &str| parse_square(a).is_ok() && parse_square(b).is_ok();
    match word.len() {
        2 if parse_square(word).is_ok() => Some("a move names both squares, e.g. a7-b6".into()),
        4 if word.is_char_boundary(2) && squares(&word[..2], &word[2..]) => Some(format!(
            "a move is written {}-{}",
            word[..2].to_ascii_lowercase(),
            word[2..].to_ascii_lowercase()
        )),
        _ => None,
    }
}

/// Why the text move `tm` is not legal in `pos`, in a few words (free of the words
/// the harness reserves).
pub fn why_illegal(pos: &Position, tm: TextMove) -> String {
    let side = pos.side_to_move();
    let who = SPEC.side_word(side);
    match tm {
        TextMove::Pass => format!("{who} has a move, so it cannot pass"),
        TextMove::Step { from, to } => {
            let (a, b) = (square_name(from), square_name(to));
            if from == to {
                // Not a move at all, whatever is on the square: say so before asking
                // whose piece stands there.
                "not a move: a piece must go to another square".to_string()
            } else if pos.cell(from) != Cell::Piece(side) {
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

/// The board in the dump format the harness reads.
pub fn dump(pos: &Position) -> String {
    let mut s = String::from("===\n");
    s.push_str(&pos.grid(|_| " ".to_string(), dump_glyph));
    s.push_str("===");
    s
}

/// A square as the dump writes it: `-` empty, `X` blocked, `r` red, `b` blue.
pub fn dump_glyph(cell: Cell) -> char {
    match cell {
        Cell::Empty => '-',
        Cell::Gap => 'X',
        Cell::Piece(Side::First) => 'r',
        Cell::Piece(Side::Second) => 'b',
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
    table: Play<Position>,
    moves_played: bool,
    auto: [bool; 2],
}

type AtaxxHost<'a> = Host<'a, Position>;

impl TextDialect for AtaxxText {
    type Game = Position;
    type Command = Command;
    type Error = TextError;
    const SPEC: &'static Spec = &SPEC;
    const PAGE_COMMANDS: &'static str =
        "seed, block, auto, manual, set-up moves, start, clear, board, load…";
    type Options = ();

    fn new() -> AtaxxText {
        AtaxxText {
            state: State::Setup,
            table: Play::new(Position::startpos(Rules::Text)),
            moves_played: false,
            auto: [false, true],
        }
    }

    fn parse_line(line: &str) -> Result<Option<Command>, TextError> {
        parse(line)
    }

    fn run_command(&mut self, cmd: Command, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match cmd {
            Command::Common(Common::Quit) => return Ok(Flow::Quit),
            Command::Clear => {
                let seed = self.table.seed;
                *self = AtaxxText::new();
                self.table.seed = seed;
            }
            Command::Start => {
                self.require_setup("start is only valid during set-up (use clear first)")?;
                self.state = State::Playing;
                host.new_game();
                return Ok(self.play_turns(host));
            }
            Command::Auto(side) => {
                self.require_setup("auto is only valid during set-up")?;
                self.auto[side.index()] = true;
            }
            Command::Manual(side) => {
                self.require_setup("manual is only valid during set-up")?;
                self.auto[side.index()] = false;
            }
            Command::Common(Common::Seed(n)) => {
                self.require_setup("seed is only valid during set-up")?;
                self.table.seed = n;
            }
            Command::Block(sq) => {
                self.require_setup("block is only valid during set-up")?;
                if self.moves_played {
                    return Err(TextError::refused(
                        "blocks must be placed before any piece is played",
                    ));
                }
                self.table
                    .pos
                    .add_gaps(block_squares(sq))
                    .map_err(|_| block_occupied(&square_name(sq)))?;
            }
            Command::Move(tm) => return self.manual_move(tm, host),
            Command::Common(Common::Help | Common::Dump) | Command::Board => {
                host.say(&self.shown(&cmd).unwrap_or_default())
            }
            Command::Common(Common::Load(file)) => return Ok(Flow::Load(file)),
        }
        Ok(Flow::Continue)
    }

    const QUIT: Command = Command::Common(Common::Quit);

    /// `quit`, and `clear` abandons the game: typed while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        is_abandon(line)
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
        let who = SPEC
            .colour_name(self.table.pos.side_to_move())
            .to_ascii_lowercase();
        Some(match self.state {
            State::Setup => format!("set-up, {who} to play: "),
            State::Playing => format!("{who}: "),
            State::Finished => "game over (clear for a new game): ".to_string(),
        })
    }
}

/// `quit` and `clear`: the lines that abandon a game (both editions).
pub fn is_abandon(line: &str) -> bool {
    matches!(
        parse(line),
        Ok(Some(Command::Common(Common::Quit) | Command::Clear))
    )
}

/// A block refused because a piece stands on `sq`'s orbit.
pub fn block_occupied(sq: &str) -> TextError {
    TextError::refused(format!("cannot block {sq}: a square there holds a piece"))
}

/// The move typed in state `state` of `pos`, resolved, or why not (both editions).
pub fn resolve_typed(pos: &Position, state: State, tm: TextMove) -> Result<Move, TextError> {
    match state {
        State::Finished => {
            return Err(TextError::refused(
                "the game is over (use clear for a new game)",
            ))
        }
        State::Setup if pos.outcome().is_some() => return Err(TextError::refused(
            "the set-up already ended the game (start announces the result; clear for a new one)",
        )),
        _ => {}
    }
    tm.resolve(pos).ok_or_else(|| {
        let text = match tm {
            TextMove::Pass => "-".to_string(),
            TextMove::Step { from, to } => format!("{}-{}", square_name(from), square_name(to)),
        };
        SPEC.illegal(&text, why_illegal(pos, tm))
    })
}

impl AtaxxText {
    /// Plays a move (set-up or game) and records it.
    fn play(&mut self, mv: Move) {
        self.table.play(mv);
        self.moves_played = true;
    }

    /// What a command that only looks prints (`help`, `dump`, `board`); `None` for
    /// the others.
    fn shown(&self, cmd: &Command) -> Option<String> {
        match cmd {
            Command::Common(Common::Help) => Some(HELP.to_string()),
            Command::Common(Common::Dump) => Some(dump(&self.table.pos)),
            Command::Board => Some(self.table.pos.pretty().trim_end().to_string()),
            _ => None,
        }
    }

    fn require_setup(&self, what: &'static str) -> Result<(), TextError> {
        if self.state == State::Setup {
            Ok(())
        } else {
            Err(TextError::refused(what))
        }
    }

    fn manual_move(&mut self, tm: TextMove, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        if self.state == State::Playing && self.auto[self.table.pos.side_to_move().index()] {
            return Err(TextError::refused("it is not a manual player's turn"));
        }
        let mv = resolve_typed(&self.table.pos, self.state, tm)?;
        self.play(mv);
        // Nothing follows a set-up move: the turns are played from `start` on.
        Ok(self.play_turns(host))
    }
}

/// The 2016 turns: AI players move in the playing state until a manual player is to
/// move, the game ends with its result line and the finished state, and a side
/// without a move passes as any move (`-`, which the AI finds too).
impl Turns for AtaxxText {
    fn game(&self) -> &Play<Position> {
        &self.table
    }

    fn in_play(&self) -> bool {
        self.state == State::Playing
    }

    fn turn(&self, side: Side) -> Turn {
        Turn::local(self.auto[side.index()])
    }

    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut AtaxxHost) -> Option<Flow> {
        host.say(SPEC.result_line(outcome?));
        self.state = State::Finished;
        Some(Flow::Continue)
    }

    fn ai_moves(&mut self, mv: Move, host: &mut AtaxxHost) -> Option<Flow> {
        host.say(&ai_move_line(&self.table.pos, mv));
        self.play(mv);
        None
    }

    fn set_player(&mut self, side: Side, ai: bool) -> Result<(), TextError> {
        self.auto[side.index()] = ai;
        Ok(())
    }

    /// `clear` and `start`, keeping the players and the blocks.
    fn new_game(&mut self) -> Result<(), TextError> {
        let gaps = self.table.pos.gaps();
        let (auto, seed) = (self.auto, self.table.seed);
        *self = AtaxxText::new();
        self.auto = auto;
        // `clear` keeps the seed, so this does too.
        self.table.seed = seed;
        self.table.restart(Position::startpos(Rules::Text));
        let _ = self.table.pos.add_gaps(gaps);
        self.state = State::Playing;
        Ok(())
    }

    /// Takes back the last move, and further back while the AI plays the side to move
    /// and the other side is manual (so the person gets their own turn back). A
    /// finished game is in play again.
    fn undo(&mut self) -> Result<(), TextError> {
        let any_manual = self.auto.contains(&false);
        let mut undone = 0;
        while self.table.take_back() {
            undone += 1;
            if !any_manual || !self.auto[self.table.pos.side_to_move().index()] {
                break;
            }
        }
        if undone == 0 {
            return Err(TextError::refused("no move to take back"));
        }
        if self.state == State::Finished {
            self.state = State::Playing;
        }
        Ok(())
    }
}

/// True if `base` has the start position's pieces (gaps aside) and red to move: what
/// both editions can set up.
pub fn from_start(base: &Position) -> bool {
    let start = Position::startpos(base.rules());
    [Side::First, Side::Second]
        .iter()
        .all(|&s| base.pieces(s) == start.pieces(s))
        && base.side_to_move() == Side::First
}

/// The `block` commands that set up `base`'s gaps, one per reflection orbit (a `block`
/// fills a square's whole orbit), as both editions that have the command take them;
/// gaps that are not mirror-symmetric cannot be written so.
pub fn block_commands(base: &Position) -> Result<Vec<String>, String> {
    let gaps = base.gaps();
    let mut covered = 0u64;
    let mut cmds = Vec::new();
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
    Ok(cmds)
}

/// The square of a `block` command (else its `usage`), or the refusal of a word that
/// names no square, quoted as the line's language ([`Words::spec`]) quotes input: the
/// command of both editions that have it.
pub fn block_square(w: &Words, usage: &'static str) -> Result<u8, TextError> {
    let sq = w.args(1, usage)?[0];
    parse_square(sq).map_err(|_| {
        TextError::refused(format!(
            "block: no square {} on the board (a1..g7)",
            w.spec.quote_input(sq)
        ))
    })
}

/// The opening's moves as typed (set-up moves).
pub fn typed_moves(opening: &Opening<Position>) -> Vec<String> {
    let mut pos = opening.base.clone();
    let mut typed = Vec::new();
    for &mv in &opening.moves {
        typed.push(TextMove::format(&pos, mv));
        pos.make_move(mv);
    }
    typed
}

impl TextProtocol for AtaxxText {
    const RULES: Rules = Rules::Text;

    /// `clear` (after an earlier game), `seed`, one `block` per reflection orbit of the
    /// base's gaps, the opening's moves as set-up moves, `manual`/`auto`, `dump`.
    fn setup_commands(s: &EngineSetup<Position>) -> Result<Vec<String>, String> {
        let (opening, ai_side) = (s.opening, s.ai_side);
        let mut cmds = kit::setup_start(from_start(&opening.base), s.seed, s.played)?;
        cmds.extend(block_commands(&opening.base)?);
        cmds.extend(typed_moves(opening));
        cmds.push(format!("manual {}", SPEC.side_word(ai_side.opponent())));
        cmds.push(format!("auto {}", SPEC.side_word(ai_side)));
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
}

/// The line announcing an AI's move: `Red moves a7-b6.` or `Blue passes.`
pub fn ai_move_line(pos: &Position, mv: Move) -> String {
    SPEC.ai_move_line(pos.side_to_move(), &TextMove::format(pos, mv))
}

/// Recognises an AI move line (after any prompt, which ends at the last `:`): the side
/// that moved and its move in text form (`a7-b6`, or `-` for a pass).
pub fn parse_ai_move_line(line: &str) -> Option<(Side, String)> {
    SPEC.parse_ai_move_line(line)
        .and_then(|(side, text)| Some((side?, text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::text::kit::checks;

    fn clean(s: &str) -> bool {
        let l = s.to_ascii_lowercase();
        RESERVED.iter().all(|w| !l.contains(w))
    }

    /// The board page's new game is `clear` then `start`: like `clear`, it keeps the
    /// seed (and the players), so the AI's moves stay reproducible from the page too.
    #[test]
    fn the_pages_new_game_keeps_the_seed_and_the_players() {
        let mut session = AtaxxText::new();
        session.table.seed = 42;
        session.auto = [true, false];
        assert!(session.new_game().is_ok());
        assert_eq!(session.table.seed, 42);
        assert_eq!(session.auto, [true, false]);
        assert_eq!(session.state, State::Playing);
    }

    #[test]
    fn chatter_avoids_reserved_words() {
        assert!(clean(HELP));
        let errors = [
            SPEC.unknown("xyz"),
            TextError::BadArgs("auto red|blue"),
            TextError::refused("start is only valid during set-up (use clear first)"),
            TextError::refused("auto is only valid during set-up"),
            TextError::refused("manual is only valid during set-up"),
            TextError::refused("seed is only valid during set-up"),
            TextError::refused("block is only valid during set-up"),
            TextError::refused("the game is over (use clear for a new game)"),
            TextError::refused(
                "the set-up already ended the game (start announces the result; clear for a new one)",
            ),
            SPEC.illegal("a1-a2", String::new()),
            block_occupied("a1"),
            TextError::refused("it is not your turn"),
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
        assert_eq!(SPEC.quote_input("Red wins."), "'Red ????.'");
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
        assert_eq!(
            parse("seed -1").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        assert_eq!(
            parse("seed 18446744073709551615").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        for bad in [
            "seed 18446744073709551616",
            "seed",
            "auto green",
            "block h1",
            "block",
            "start now",
            "b7c7",
            "g1-h1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("-").unwrap(), Some(Command::Move(TextMove::Pass)));
        // A file name may hold blanks.
        assert_eq!(
            parse("load my file").unwrap(),
            Some(Command::Common(Common::Load("my file".into())))
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
        use crate::game::Notation;
        let o = Position::opening("block c4 f2 g7f5", Rules::Text).unwrap();
        let cmds =
            AtaxxText::setup_commands(&EngineSetup::new(&o, Side::Second, 7, false)).unwrap();
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
        let fen = Position::opening("x5o/7/7/7/7/7/o5x o 0 1", Rules::Text).unwrap();
        assert!(AtaxxText::setup_commands(&EngineSetup::new(&fen, Side::First, 0, true)).is_err());
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
        checks::not_ai_moves(
            parse_ai_move_line,
            &[
                "Red wins.",
                "Red moves a7-b6",
                "Red moves h7-b6.",
                "moves",
                "",
                "Red moves A7-b6.",
            ],
        );
        checks::result_lines_read_back(&SPEC, "blue: ");
        assert_eq!(SPEC.parse_result_line("Red moves a7-b6."), None);
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

//! The Lines of Action course text language (CS61B Spring 2020, `loa.txt`, made precise
//! by `loa-text-protocol.md`; see the LOA section of `protocol.md`): commands `new`,
//! `auto`/`manual`, `set`, `seed`, `limit`, `dump`, `help`/`?`, `quit` and moves
//! `b1-d3`; AI moves `* b1-d3`, results `* Black wins.`; errors `Error: …` on stderr.
//!
//! There is no set-up state: a game is always in progress until it ends, and whenever
//! the side to move is played by the AI it moves at once (after `new`, `auto`, `set` or
//! the other side's move). Every line the language prints is written here and parsed
//! back here ([`TextProtocol`]), so the two cannot disagree.
//!
//! A line is parsed completely into a [`Command`] before anything changes, so a refused
//! command changes nothing. Nothing this module prints uses `*` (AI moves and results
//! only), `>` (prompts only) or `===` (dumps only); quoted input has them masked.
//!
//! The command-line options that change the session (`--strict`, `--log`) reach the
//! dialect as a value ([`Options`], through [`TextDialect::with_options`]); `--strict`
//! turns into the exit status through [`TextDialect::exit_status`].

pub use super::kit::TextError;
use super::kit::{self, AiBudget, Comments, Common, Errors, ExtraWords, Masked, MoveLines, Spec};
use crate::game::{Notation, Outcome, Side};
use crate::games::loa::bitboard::{file_of, rank_of, square};
use crate::games::loa::notation::{colour_name, parse_square, square_name};
use crate::games::loa::position::{Move, Position, Rules};
use crate::protocol::text::{EngineSetup, Flow, Host, TextDialect, TextProtocol};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod board;
use crate::protocol::play::History;
use crate::protocol::play::Play;
use crate::protocol::text::board::View;
use crate::protocol::text::{Turn, Turns};

/// The largest `limit` accepted (moves per side).
pub const MAX_LIMIT: u32 = 100_000;

/// The language as data: `#` only as the first non-blank, extra words ignored, errors
/// on stderr, prompts ending in `>`, AI moves `* b1-d3`.
pub static SPEC: Spec = Spec {
    colours: ["Black", "White"],
    side_words: ["black", "white"],
    comments: Comments::FirstNonBlank,
    extra_words: ExtraWords::Ignored,
    errors: Errors::Stderr,
    prompt_end: '>',
    masked: Masked::Chars(&['*', '>', '=']),
    move_lines: MoveLines::Starred,
    results: ["* Black wins.", "* White wins.", "* Tie game."],
    results_any_blanks: true,
    help_words: &["help", "?"],
    load: false,
    move_text: |mv| Move::parse_text(mv).is_ok(),
    // Enough for depth 5 or more (every forced win within three moves is found,
    // tests/forced_wins.rs), small enough for a whole AI-vs-AI game in a few seconds
    // even on a busy machine (docs/loa.md).
    ai: AiBudget {
        nodes: 100_000,
        time_cap: Duration::from_secs(5),
    },
};

/// A fully parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `quit`, `help` / `?`, `dump`, `seed N`.
    Common(Common),
    New,
    Auto(Side),
    Manual(Side),
    /// `set cr P N`: square, its new contents, the side to move next.
    Set {
        sq: u8,
        piece: Option<Side>,
        next: Side,
    },
    Limit(u32),
    /// A move in the language's form (syntax checked, legality not yet).
    Move(Move),
}

/// Parses one line. `Ok(None)` for a blank line or a comment (first non-blank `#`).
/// Words after those a command needs are ignored, as `loa.txt` says.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    SPEC.parse_line(line, Command::Common, |w| {
        Ok(match w.word.as_str() {
            "new" => Command::New,
            "auto" => Command::Auto(w.side("auto black|white")?),
            "manual" => Command::Manual(w.side("manual black|white")?),
            "limit" => {
                const USAGE: &str = "limit N (moves per side, 1 to 100000)";
                match w.args(1, USAGE)?[0].parse::<u32>() {
                    Ok(n) if (1..=MAX_LIMIT).contains(&n) => Command::Limit(n),
                    _ => return Err(TextError::BadArgs(USAGE)),
                }
            }
            "set" => {
                const USAGE: &str =
                    "set cr P N (cr a square, P black, white or -, N black or white)";
                let [sq, piece, next] = w.args(3, USAGE)? else {
                    return Err(TextError::BadArgs(USAGE));
                };
                let side = |s: &str| SPEC.parse_colour(s).ok_or(TextError::BadArgs(USAGE));
                let sq = parse_square(sq).map_err(|_| TextError::BadArgs(USAGE))?;
                let piece = match *piece {
                    "-" => None,
                    p => Some(side(p)?),
                };
                Command::Set {
                    sq,
                    piece,
                    next: side(next)?,
                }
            }
            _ => match Move::parse_text(w.first) {
                Ok(mv) => Command::Move(mv),
                Err(_) if is_move_word(w.first) => {
                    let off =
                        kit::off_board(w.first.split('-'), |s| parse_square(s).is_ok(), "a1..h8");
                    return Err(TextError::refused(match off {
                        Some(why) => format!("malformed move {}: {why}", SPEC.quote_input(w.first)),
                        None => format!(
                        "malformed move {} (a move is written c1r1-c2r2 along a line, e.g. b1-d3)",
                        SPEC.quote_input(w.first)
                    ),
                    }));
                }
                // UGI notation (`b1d3`), which people who know the UGI tools type here.
                Err(_)
                    if w.first.len() == 4
                        && w.first.is_char_boundary(2)
                        && parse_square(&w.first[..2]).is_ok()
                        && parse_square(&w.first[2..]).is_ok() =>
                {
                    return Err(TextError::refused(format!(
                        "unknown command {} (a move is written {}-{})",
                        SPEC.quote_input(w.first),
                        w.first[..2].to_ascii_lowercase(),
                        w.first[2..].to_ascii_lowercase()
                    )))
                }
                Err(_) => return Err(SPEC.unknown(w.first)),
            },
        })
    })
}

/// True for a first word that is or looks like a move (every move's text holds a
/// `-`): a refused one is what `--strict` ends the program for.
fn is_move_word(first: &str) -> bool {
    first.contains('-')
}

/// The line announcing an AI's move: `* b1-d3`, or `* -` for a pass.
pub fn ai_move_line(mv: Move) -> String {
    SPEC.ai_move_line(Side::First, &mv.text())
}

/// Recognises an AI move line (after any prompt): the move's text (`b1-d3` or `-`).
pub fn parse_ai_move_line(line: &str) -> Option<String> {
    SPEC.parse_ai_move_line(line).map(|(_, text)| text)
}

/// The language's name for a side in commands (`black` / `white`).
pub fn side_word(side: Side) -> &'static str {
    colour_name(side)
}

/// The prompt's letter for the side to move.
fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'b',
        Side::Second => 'w',
    }
}

const HELP: &str = "\
Commands (one a line; extra words after a command are ignored; a line whose first
non-blank character is # is a comment; colour words in any case):
  c1r1-c2r2    a move for the side to move, e.g. b1-d3 (columns a-h, rows 1-8)
  new          abandon the game: initial position, black to move, limit back to 30
  auto P       P (black or white) is played by the AI from now on
  manual P     P's moves are typed from now on
  set cr P N   put P (black, white or -) on square cr; N (black or white) moves next
  seed N       seed the AI's random choices (a 64-bit integer)
  limit N      the game is a tie once both sides have made N moves (2N must be
               more than the moves made so far)
  dump         print the board in the standard format
  help, ?      print this summary
  quit         leave the program (end of input does the same)
Initially black is typed and white is the AI.";

/// Where `--log` writes: shared, so the binary keeps a handle.
pub type LogSink = Arc<Mutex<dyn Write + Send>>;

/// Session options from the command line, handed to [`TextDialect::with_options`].
#[derive(Clone, Default)]
pub struct Options {
    /// `--strict`: a refused move ends the session with exit status 1.
    pub strict: bool,
    /// `--log=FILE`: every processed line and the AI's moves are appended here.
    pub log: Option<LogSink>,
}

/// The Lines of Action dialect's session state.
pub struct LoaText {
    table: Play<Position>,
    /// A game is in progress (false once it ended, until `new`).
    playing: bool,
    /// Which sides the AI plays, by [`Side::index`].
    auto: [bool; 2],
    options: Options,
    /// `--strict` ended the session.
    failed: bool,
}

type LoaHost<'a> = Host<'a, Position>;

impl TextDialect for LoaText {
    type Game = Position;
    type Command = Command;
    type Error = TextError;
    const SPEC: &'static Spec = &SPEC;
    const PAGE_COMMANDS: &'static str = "new, auto, manual, limit, set, seed, dump…";
    type Options = Options;

    fn new() -> LoaText {
        LoaText::with_options(Options::default())
    }

    fn with_options(options: Options) -> LoaText {
        LoaText {
            table: Play::new(Position::startpos(Rules::Text)),
            playing: true,
            auto: [false, true],
            options,
            failed: false,
        }
    }

    fn execute(&mut self, line: &str, host: &mut LoaHost) -> Flow {
        let text = line.trim();
        if !text.is_empty() {
            self.log(text);
        }
        let result = parse(line).and_then(|cmd| match cmd {
            Some(cmd) => self.run_command(cmd, host),
            None => Ok(Flow::Continue),
        });
        // Not the provided `execute`: `--log` records every line, and `--strict` ends
        // the program at an erroneous move.
        match result {
            Ok(flow) => flow,
            Err(e) => {
                Self::error(host, &e.to_string());
                let first = line.split_whitespace().next().unwrap_or("");
                if self.options.strict && is_move_word(first) {
                    self.failed = true;
                    return Flow::Quit;
                }
                Flow::Continue
            }
        }
    }

    /// 1 once `--strict` ended the session at a refused move.
    fn exit_status(&self) -> i32 {
        self.failed as i32
    }

    fn view(&self) -> Option<View> {
        Some(self.board_view())
    }

    fn picture(pos: &Position, history: &History<Position>) -> View {
        board::picture(pos, history)
    }

    fn prompt(&self) -> Option<String> {
        Some(if self.playing {
            format!("{}> ", side_letter(self.table.pos.side_to_move()))
        } else {
            "-> ".to_string()
        })
    }

    fn parse_line(line: &str) -> Result<Option<Command>, TextError> {
        parse(line)
    }

    fn run_command(&mut self, cmd: Command, host: &mut LoaHost) -> Result<Flow, TextError> {
        match cmd {
            Command::Common(Common::Quit) => return Ok(Flow::Quit),
            Command::New => {
                self.table.restart(Position::startpos(Rules::Text));
                self.playing = true;
                host.new_game();
            }
            Command::Auto(side) => self.auto[side.index()] = true,
            Command::Manual(side) => self.auto[side.index()] = false,
            Command::Common(Common::Seed(n)) => self.table.seed = n,
            Command::Limit(n) => {
                let made = self.table.pos.plies_played();
                if 2 * n <= made {
                    return Err(TextError::refused(format!(
                        "limit {n} is too small: {made} moves were made already (2N must be more)"
                    )));
                }
                self.table.pos.set_move_limit(n);
            }
            Command::Set { sq, piece, next } => {
                self.table.pos = set_square(&self.table.pos, sq, piece, next)?
            }
            Command::Common(Common::Dump | Common::Help) => {
                host.say(&self.shown(&cmd).unwrap_or_default())
            }
            Command::Common(Common::Load(_)) => {} // not in this language: never parsed
            Command::Move(mv) => self.manual_move(mv)?,
        }
        Ok(self.play_turns(host))
    }

    const QUIT: Command = Command::Common(Common::Quit);

    /// `quit`, `new` (abandons the game) and `manual P` (a person takes a side over,
    /// which is what stops AI against AI: after `new` both AIs would play on): typed
    /// while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        matches!(
            Self::parse_line(line),
            Ok(Some(
                Command::Common(Common::Quit) | Command::New | Command::Manual(_)
            ))
        )
    }

    fn look(&self, line: &str) -> Option<String> {
        self.shown(&Self::parse_line(line).ok()??)
    }
}

impl LoaText {
    /// What a command that only looks prints (`dump`, `help`); `None` for the others.
    fn shown(&self, cmd: &Command) -> Option<String> {
        match cmd {
            Command::Common(Common::Dump) => Some(self.table.pos.dump()),
            Command::Common(Common::Help) => Some(HELP.to_string()),
            _ => None,
        }
    }

    /// Appends a line to the `--log` file, if any, at once.
    fn log(&self, line: &str) {
        if let Some(log) = &self.options.log {
            let mut w = log.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(w, "{line}").and_then(|_| w.flush());
        }
    }

    fn manual_move(&mut self, mv: Move) -> Result<(), TextError> {
        if !self.playing {
            return Err(TextError::refused("no game in progress (type new)"));
        }
        if self.auto[self.table.pos.side_to_move().index()] {
            return Err(TextError::refused("the AI is to move, not a manual player"));
        }
        if mv.is_pass() || !self.table.pos.is_legal(mv) {
            return Err(SPEC.illegal(&mv.text(), why_illegal(&self.table.pos, mv)));
        }
        self.table.play(mv);
        Ok(())
    }
}

/// The LOA turns, after every command while a game is on: the result line ends it, a
/// side without a move passes at once (the AI's pass line, or a note for a person), and
/// the AI moves while it is to move; `--log` records the AI's moves as comments.
impl Turns for LoaText {
    fn game(&self) -> &Play<Position> {
        &self.table
    }

    fn in_play(&self) -> bool {
        self.playing
    }

    fn turn(&self, side: Side) -> Turn {
        Turn::local(self.auto[side.index()])
    }

    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut LoaHost) -> Option<Flow> {
        host.say(SPEC.result_line(outcome?));
        self.playing = false;
        Some(Flow::Continue)
    }

    fn forced(&mut self, ai: bool, host: &mut LoaHost) -> bool {
        if self.table.pos.can_move() {
            return false;
        }
        let side = self.table.pos.side_to_move();
        if ai {
            host.say(&ai_move_line(Move::PASS));
            self.log(&format!("# {} AI: -", colour_name(side)));
        } else {
            host.say_err(&format!(
                "Note: {} has no legal move and passes.",
                colour_name(side)
            ));
        }
        self.table.play(Move::PASS);
        true
    }

    fn ai_moves(&mut self, mv: Move, host: &mut LoaHost) -> Option<Flow> {
        host.say(&ai_move_line(mv));
        // A comment: replaying the log lets the AI find the move again.
        let side = self.table.pos.side_to_move();
        self.log(&format!("# {} AI: {}", colour_name(side), mv.text()));
        self.table.play(mv);
        None
    }

    fn set_player(&mut self, side: Side, ai: bool) -> Result<(), TextError> {
        self.auto[side.index()] = ai;
        Ok(())
    }

    /// `new`: the start position (the move limit kept), the players kept.
    fn new_game(&mut self) -> Result<(), TextError> {
        let mut start = Position::startpos(Rules::Text);
        start.set_move_limit(self.table.pos.move_limit());
        self.table.restart(start);
        self.playing = true;
        Ok(())
    }

    /// Takes back the last move (a pass with it), and further back while the AI
    /// plays the side to move and a person plays the other.
    fn undo(&mut self) -> Result<(), TextError> {
        let any_manual = self.auto.contains(&false);
        let mut undone = 0;
        while self.table.take_back() {
            undone += 1;
            let to_move = self.table.pos.side_to_move();
            let must_pass = !self.table.pos.can_move();
            if must_pass || (any_manual && self.auto[to_move.index()]) {
                continue;
            }
            break;
        }
        if undone == 0 {
            return Err(TextError::refused("no move to take back"));
        }
        self.playing = true;
        Ok(())
    }
}

/// Why `mv` (syntactically a move) is not legal in `pos`, in a few words.
pub fn why_illegal(pos: &Position, mv: Move) -> String {
    let side = pos.side_to_move();
    if mv.is_pass() {
        return format!("{} has a move, so it cannot pass", colour_name(side));
    }
    let (from, to) = (mv.from(), mv.to());
    if pos.piece_at(from) != Some(side) {
        return format!("no {} piece on {}", colour_name(side), square_name(from));
    }
    let (f0, r0) = (file_of(from) as i32, rank_of(from) as i32);
    let (df, dr) = (
        (file_of(to) as i32 - f0).signum(),
        (rank_of(to) as i32 - r0).signum(),
    );
    let distance = (file_of(to) as i32 - f0)
        .abs()
        .max((rank_of(to) as i32 - r0).abs());
    let on_board = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
    let mut count = 0;
    for sign in [1, -1] {
        let (mut f, mut r) = (f0 + sign * df, r0 + sign * dr);
        while on_board(f, r) {
            count += pos.piece_at(square(f as usize, r as usize)).is_some() as i32;
            f += sign * df;
            r += sign * dr;
        }
    }
    count += 1;
    if distance != count {
        format!("its line holds {count} pieces, so it moves {count} squares, not {distance}")
    } else if pos.piece_at(to) == Some(side) {
        format!("{} holds a {} piece", square_name(to), colour_name(side))
    } else {
        "it would cross an enemy piece".to_string()
    }
}

/// `set` refused: `side` would have no pieces.
fn no_pieces(side: Side) -> TextError {
    TextError::refused(format!(
        "cannot set: {} would have no pieces",
        colour_name(side)
    ))
}

/// `pos` with `sq` holding `piece` and `next` to move; the move count and the move
/// limit are kept. Refused if a side would have no pieces.
pub fn set_square(
    pos: &Position,
    sq: u8,
    piece: Option<Side>,
    next: Side,
) -> Result<Position, TextError> {
    let bit = 1u64 << (sq & 63);
    let mut pieces = [
        pos.pieces(Side::First) & !bit,
        pos.pieces(Side::Second) & !bit,
    ];
    if let Some(side) = piece {
        pieces[side.index()] |= bit;
    }
    for side in [Side::First, Side::Second] {
        if pieces[side.index()] == 0 {
            return Err(no_pieces(side));
        }
    }
    let mut new = Position::from_parts(pieces[0], pieces[1], next, 0, pos.fullmove(), pos.rules())
        .map_err(|_| no_pieces(next))?;
    new.set_move_limit(pos.move_limit());
    Ok(new)
}

/// The `set` commands that turn the start position into `target` (pieces first, then
/// empty squares), none of which passes through a finished position; `None` if no
/// such order is found.
fn set_commands(target: &Position) -> Option<Vec<String>> {
    let start = Position::startpos(Rules::Text);
    let next = target.side_to_move();
    let mut fill = Vec::new();
    let mut empty = Vec::new();
    for sq in (0..8).flat_map(|r| (0..8).map(move |f| square(f, r))) {
        let piece = target.piece_at(sq);
        if piece != start.piece_at(sq) {
            if piece.is_some() {
                fill.push((sq, piece));
            } else {
                empty.push((sq, piece));
            }
        }
    }
    if fill.is_empty() && empty.is_empty() {
        // Same pieces: one `set` that changes nothing but the side to move.
        let sq = target.pieces(Side::First).trailing_zeros() as u8;
        fill.push((sq, Some(Side::First)));
    }
    for order in [[&fill, &empty], [&empty, &fill]] {
        let mut pos = start.clone();
        let mut cmds = Vec::new();
        let mut ok = true;
        for &(sq, piece) in order[0].iter().chain(order[1].iter()) {
            match set_square(&pos, sq, piece, next) {
                Ok(p) if p.outcome().is_none() => {
                    let what = piece.map_or("-", side_word);
                    cmds.push(format!(
                        "set {} {what} {}",
                        square_name(sq),
                        side_word(next)
                    ));
                    pos = p;
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return Some(cmds);
        }
    }
    None
}

impl TextProtocol for LoaText {
    const RULES: Rules = Rules::Text;

    /// Both sides manual (so nothing moves during the set-up), `new` after an earlier
    /// game, `seed`, `set` commands for a base other than the start position, the
    /// opening's moves typed, then `auto` for the AI's side and `dump`. The language
    /// has no set-up state and `auto` makes the AI move at once when its side is to
    /// move, so in that case `auto` comes after the `dump`: the barrier is then still
    /// read before the AI's first move line.
    fn setup_commands(s: &EngineSetup<Position>) -> Result<Vec<String>, String> {
        let opening = s.opening;
        let mut cmds = kit::manual_start(&SPEC, s);
        let base = &opening.base;
        if base.fen() != Position::startpos(Rules::Text).fen() {
            cmds.extend(set_commands(base).ok_or_else(|| {
                "this position cannot be set up square by square without ending the game"
                    .to_string()
            })?);
        }
        let mut pos = base.clone();
        for &mv in &opening.moves {
            // A side without a move passes by itself; nothing is typed for it.
            if !mv.is_pass() {
                cmds.push(mv.text());
            }
            pos.make_move(mv);
        }
        kit::auto_and_dump(&mut cmds, &SPEC, s, pos.side_to_move());
        Ok(cmds)
    }

    fn start_commands() -> Vec<String> {
        Vec::new()
    }

    fn move_text(_pos: &Position, mv: Move) -> String {
        mv.text()
    }

    fn parse_move_text(pos: &Position, text: &str) -> Option<Move> {
        Move::parse_text(text).ok().filter(|&m| pos.is_legal(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Opening, Outcome};
    use crate::protocol::input::Line;
    use crate::protocol::text;
    use crate::protocol::text::kit::checks;

    /// Runs a session over `input`; returns (stdout, stderr, exit status).
    fn run_session(input: &str, options: Options) -> (String, String, i32) {
        let (tx, rx) = crossbeam_channel::unbounded();
        for l in input.lines() {
            tx.send(Line::new(l)).unwrap();
        }
        drop(tx);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let setup = text::Setup {
            dialect: options,
            ..text::Setup::default()
        };
        let status = text::run::<LoaText>(None, rx, &mut out, &mut err, false, setup, None);
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            status,
        )
    }

    /// Runs a session over `input`; returns (stdout, stderr).
    fn session(input: &str, options: Options) -> (String, String) {
        let (out, err, _) = run_session(input, options);
        (out, err)
    }

    fn clean(s: &str) -> bool {
        !s.contains('*') && !s.contains('>') && !s.contains("===")
    }

    #[test]
    fn chatter_avoids_reserved_characters() {
        assert!(clean(HELP));
        for e in [
            SPEC.unknown("*>==="),
            TextError::BadArgs("auto black|white"),
            SPEC.unknown("b1-b9"),
            SPEC.illegal("b1-b2", "no black piece on b1".into()),
            parse("b1-b9").unwrap_err(),
            no_pieces(Side::First),
        ] {
            let s = e.to_string();
            assert!(clean(&s) && !s.contains('\n'), "{s}");
        }
        for junk in [
            "* Black wins.",
            "b> b1-d3",
            "===",
            "\u{1b}[2J",
            &"x".repeat(1000),
        ] {
            let e = parse(junk).unwrap_err().to_string();
            assert!(clean(&e), "{e}");
            assert!(e.len() < 120 && e.chars().all(|c| c.is_ascii_graphic() || c == ' '));
        }
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   # b1-d3").unwrap(), None);
        assert_eq!(parse(" NEW extra words").unwrap(), Some(Command::New));
        assert_eq!(parse("?").unwrap(), Some(Command::Common(Common::Help)));
        assert_eq!(
            parse("auto BLACK now").unwrap(),
            Some(Command::Auto(Side::First))
        );
        assert_eq!(
            parse("manual White").unwrap(),
            Some(Command::Manual(Side::Second))
        );
        assert_eq!(
            parse("seed -1").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        assert_eq!(parse("limit 5 6").unwrap(), Some(Command::Limit(5)));
        assert_eq!(
            parse("set d4 - WHITE x").unwrap(),
            Some(Command::Set {
                sq: parse_square("d4").unwrap(),
                piece: None,
                next: Side::Second
            })
        );
        assert_eq!(
            parse("b1-d3 # comment").unwrap(),
            Some(Command::Move(Move::parse_text("b1-d3").unwrap()))
        );
        for bad in [
            "auto",
            "auto red",
            "seed",
            "seed x",
            "limit",
            "limit 0",
            "limit -3",
            "limit 100001",
            "set",
            "set d4 black",
            "set i4 black white",
            "set d4 red white",
            "set d4 - -",
            "dance",
        ] {
            assert!(
                matches!(
                    parse(bad),
                    Err(TextError::BadArgs(_) | TextError::Unknown(_))
                ),
                "{bad}"
            );
        }
        for bad in ["b1-b9", "b1-c4", "-", "b1--d3"] {
            let e = parse(bad);
            assert!(
                matches!(&e, Err(TextError::Refused(m)) if m.starts_with("malformed move"))
                    || bad == "-",
                "{bad}: {e:?}"
            );
        }
        // `-` is the pass's text: parsed, then refused as illegal when typed.
        assert_eq!(parse("-").unwrap(), Some(Command::Move(Move::PASS)));
    }

    #[test]
    fn move_and_result_lines_round_trip() {
        let mv = Move::parse_text("b1-d3").unwrap();
        assert_eq!(ai_move_line(mv), "* b1-d3");
        assert_eq!(parse_ai_move_line("b>  *  b1-d3 "), Some("b1-d3".into()));
        assert_eq!(parse_ai_move_line("* -"), Some("-".into()));
        checks::not_ai_moves(
            parse_ai_move_line,
            &[
                "* Black wins.",
                "b1-d3",
                "* b1-d4",
                "* B1-d3",
                "*",
                "* b1-d3 x",
            ],
        );
        checks::result_lines_read_back(&SPEC, "w> ");
        assert_eq!(
            SPEC.parse_result_line("*  White   wins."),
            Some(Outcome::Win(Side::Second))
        );
        assert_eq!(SPEC.parse_result_line("* b1-d3"), None);
        assert!(LoaText::is_dump_marker("-> ==="));
        assert!(!LoaText::is_dump_marker("===x"));
    }

    #[test]
    fn a_session_plays_and_reports() {
        let (out, err) = session("b1-d3\ndump\nb1-b2\nquit\ndump\n", Options::default());
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("* ") && parse_ai_move_line(lines[0]).is_some());
        assert_eq!(lines[1], "===");
        assert!(lines.contains(&"Next move: black"));
        assert_eq!(lines.len(), 12, "{out}");
        assert_eq!(
            err.trim(),
            "Error: illegal move 'b1-b2': no black piece on b1"
        );
    }

    #[test]
    fn strict_ends_on_a_bad_move_and_the_log_replays() {
        let log: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
        let sink: LogSink = log.clone();
        let options = Options {
            strict: true,
            log: Some(sink),
        };
        let (out, _, status) = run_session("seed 5\nb1-d3\nbogus\nb1-b2\ndump\n", options);
        assert_eq!(status, 1, "--strict ends with status 1 at a refused move");
        assert!(!out.contains("==="), "the program ended before the dump");
        let logged = String::from_utf8(log.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = logged.lines().collect();
        assert_eq!(lines[..2], ["seed 5", "b1-d3"]);
        assert!(lines[2].starts_with("# white AI: "), "{logged}");
        assert_eq!(lines[3..], ["bogus", "b1-b2"]);
        // Replaying the log (plus a dump) reaches the same position.
        let (a, _) = session(&format!("{logged}dump\n"), Options::default());
        let (b, _) = session("seed 5\nb1-d3\ndump\n", Options::default());
        assert_eq!(a, b);
    }

    #[test]
    fn setup_commands_rebuild_the_opening() {
        let rebuild = |o: &Opening<Position>, ai: Side| {
            let cmds = LoaText::setup_commands(&EngineSetup::new(o, ai, 3, true)).unwrap();
            let (out, err) = session(&cmds.join("\n"), Options::default());
            (cmds, out, err)
        };
        let o = Position::opening("b1d3 a3d3", Rules::Text).unwrap();
        let (cmds, out, err) = rebuild(&o, Side::First);
        assert_eq!(
            cmds,
            [
                "manual black",
                "manual white",
                "new",
                "seed 3",
                "b1-d3",
                "a3-d3",
                "dump",
                "auto black"
            ]
        );
        assert!(err.is_empty(), "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "===");
        assert_eq!(o.end().dump().lines().collect::<Vec<_>>(), lines[..11]);
        assert!(parse_ai_move_line(lines[11]).is_some(), "{out}");

        let (cmds, out, _) = rebuild(&o, Side::Second);
        assert_eq!(cmds[6..], ["auto white", "dump"]);
        assert_eq!(out.trim_end(), o.end().dump());

        let fen = "8/8/3oo1xo/2o1oxxo/2o1ox1o/2xxo3/o7/1xxx4 o 10 11";
        let o = Position::opening(fen, Rules::Text).unwrap();
        let (cmds, out, err) = rebuild(&o, Side::First);
        assert!(cmds.iter().any(|c| c.starts_with("set ")));
        assert!(err.is_empty(), "{err}");
        assert_eq!(out.trim_end(), o.end().dump());
    }

    #[test]
    fn illegal_moves_say_why() {
        let pos = Position::startpos(Rules::Text);
        let why = |m: &str| why_illegal(&pos, Move::parse_text(m).unwrap());
        assert_eq!(why("-"), "black has a move, so it cannot pass");
        assert_eq!(why("a2-c2"), "no black piece on a2");
        assert_eq!(
            why("b1-b2"),
            "its line holds 2 pieces, so it moves 2 squares, not 1"
        );
        let p = Position::from_fen("o6o/8/8/8/8/8/8/x1x5 x", Rules::Text).unwrap();
        assert_eq!(
            why_illegal(&p, Move::parse_text("a1-c1").unwrap()),
            "c1 holds a black piece"
        );
        // The diagonal c1-h6 holds c1, white's d2 and h6: c1-f4 has the right length
        // but crosses d2.
        let p = Position::from_fen("o7/8/7x/8/8/8/3o4/2x5 x", Rules::Text).unwrap();
        let m = Move::parse_text("c1-f4").unwrap();
        assert!(!p.is_legal(m));
        assert_eq!(why_illegal(&p, m), "it would cross an enemy piece");
    }

    #[test]
    fn set_keeps_sides_alive() {
        let pos = Position::startpos(Rules::Text);
        let p = set_square(
            &pos,
            parse_square("d4").unwrap(),
            Some(Side::First),
            Side::Second,
        )
        .unwrap();
        assert_eq!(p.count(Side::First), 13);
        assert_eq!(p.side_to_move(), Side::Second);
        let lone = Position::from_fen("x7/8/8/8/8/8/8/oo6 x", Rules::Text).unwrap();
        assert_eq!(
            set_square(&lone, 56, None, Side::First),
            Err(no_pieces(Side::First))
        );
    }
}

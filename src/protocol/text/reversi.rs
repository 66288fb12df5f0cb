//! The `reversi.txt` course text language (see `reversi-text-protocol.md` and the
//! Reversi section of `protocol.md`): a Player (the User typing, or an AI after `auto`)
//! against an AI Opponent, set-up moves before `start`, and the exact lines a harness
//! reads (`Black moves d3.`, `White passes.`, `Black wins.`, `Draw.`, dumps).
//!
//! The Player-vs-Opponent machine (play, remote moves, the end of a game, faults) is
//! the one the 2008 Ataxx edition shares, [`super::versus`]; this file is its
//! [`ReversiEdition`]. Remote play's own part (`host ID` / `join ID@HOST`, the spec's
//! §4 over the shared transport: the messages, the set-up relay, resigning) is the
//! child module `remote_play`; its module doc lists the message sequence.
//!
//! Every such line is written here and parsed back here (the tournament runner's text
//! client uses the parsers), so the two cannot disagree. A line is parsed completely
//! into a [`Command`] before anything changes; a refused command changes nothing.
//! Error messages, help and prompts avoid the words the harness reserves (wins, passes,
//! moves, draw) and the dump marker.

pub use super::kit::TextError;
use super::kit::{
    self, AiBudget, Comments, Common, Errors, ExtraWords, Masked, MoveLines, Spec, Words,
};
use super::versus::{self, Edition, Link, Versus};
use crate::game::{Outcome, Side};
use crate::games::reversi::{parse_square, Move, Position};
use crate::protocol::play::History;
use crate::protocol::text::board::View;
use crate::protocol::text::{
    EngineSetup, Flow, Host, OtherProtocol, TextDialect, TextProtocol, ThinkError,
};
use crate::search::Limits;
use std::time::Duration;

mod board;
mod remote_play;
use remote_play::{acts_while_waiting, color_message, only_looks, ReversiWire};

/// From this many empty squares down the AI plays the exact solver's move (perfect play).
pub const SOLVE_EMPTIES: u32 = 14;

pub use super::kit::State;

/// The language as data.
pub static SPEC: Spec = Spec {
    colours: ["Black", "White"],
    side_words: ["black", "white"],
    comments: Comments::Anywhere,
    extra_words: ExtraWords::Refused,
    errors: Errors::Stdout,
    prompt_end: ':',
    masked: Masked::Words(&RESERVED),
    move_lines: MoveLines::Named,
    results: ["Black wins.", "White wins.", "Draw."],
    results_any_blanks: false,
    help_words: &["help"],
    load: true,
    move_text: |mv| crate::games::reversi::parse_square(mv).is_ok(),
    // The node budget is the middle game's: the solver plays the last moves.
    ai: AiBudget {
        nodes: 300_000,
        time_cap: Duration::from_secs(4),
    },
};

/// Reversi's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Own {
    Manual,
    Resign,
}

/// A fully parsed command line.
pub type Command = versus::Command<Move, Own>;

/// Words and markers the harness reads in our output; chatter never contains them.
pub use super::kit::RESERVED_WORDS as RESERVED;

/// Parses one line (comments and surrounding blanks allowed). `Ok(None)` for a line
/// with nothing on it.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    ReversiText::parse_line(line)
}

/// Why `mv` is not legal in `pos` (a game in progress or set-up), in a few words free
/// of the words the harness reserves.
pub fn why_illegal(pos: &Position, mv: Move) -> String {
    let side = pos.side_to_move();
    let (who, other) = (SPEC.side_word(side), SPEC.side_word(side.opponent()));
    let placements = pos.move_mask() != 0;
    if mv.is_pass() {
        format!("{who} can place a piece, so it cannot skip")
    } else if pos.disc_at(mv.square()).is_some() {
        format!("{} is occupied", mv.text())
    } else if !placements {
        format!("{who} has no placement: skip the turn with -")
    } else {
        format!("{} turns over no {other} piece", mv.text())
    }
}

/// The line announcing an AI's move: `Black moves d3.` or `White passes.`
pub fn ai_move_line(side: Side, mv: Move) -> String {
    SPEC.ai_move_line(side, &mv.text())
}

/// Recognises an AI move line (after any prompt, which ends at the last `:`): the side
/// that moved and its move in text form (`d3`, or `-` for a pass).
pub fn parse_ai_move_line(line: &str) -> Option<(Side, String)> {
    SPEC.parse_ai_move_line(line)
        .and_then(|(side, text)| Some((side?, text)))
}

/// The `help` text.
pub const HELP: &str = "\
Commands (one a line; # starts a comment; words are case-insensitive):
  clear          new board at the start position (keeps color, auto/manual, seed)
  start          begin a game from the current board
  quit           leave the program (end of input does the same)
  color C        the player plays C: black or white               [no game]
  auto           the player is the computer                       [no game]
  manual         the player is the user, typing                   [no game]
  seed N         seed the computer players (64-bit integer)       [no game]
  d3             place a piece (column a-h, row 1-8 from the top); before
                 start a set-up move for the side to play, in a game the
                 user's turn
  -              skip a turn (only when no placement is possible)
  resign         give up the game in progress (the opponent gets the win)
  host ID        play a program that joins game ID (letters, digits, _);
                 set the game up once it has joined, then start      [no game]
  join ID@HOST   play the program hosting game ID on HOST (e.g. localhost);
                 it sets the game up and starts it                    [no game]
  dump           print the board for the test harness
  board          print the board for people (x black, o white, * where
                 the side to play may place a piece)
  load FILE      read commands from FILE
  help           print this summary";

/// Reversi's own state beside the shared session's ([`Versus`]): none.
#[derive(Default)]
pub struct ReversiEdition;

/// The Reversi dialect's session: the shared Player-vs-Opponent machine.
pub type ReversiText = Versus<ReversiEdition>;

type ReversiHost<'a> = Host<'a, Position>;

impl Edition for ReversiEdition {
    type Game = Position;
    type Wire = ReversiWire;
    type Typed = Move;
    type Own = Own;
    const SPEC: &'static Spec = &SPEC;
    const COLOR_USAGE: &'static str = "color black|white";
    const PAGE_COMMANDS: &'static str =
        "seed, color, auto, manual, set-up moves, start, resign, host, join, clear, board…";
    const NEW_GAME_REFUSED: &'static str = "a remote game is on (resign, then clear)";
    const REMOTE_UNTIL_CLEAR: bool = false;

    /// NBoard, the protocol of the Othello GUIs (`nboard.rs`).
    fn other_protocols() -> &'static [OtherProtocol] {
        &[crate::protocol::nboard::PROTOCOL]
    }

    fn start() -> Position {
        Position::startpos()
    }

    fn parse_own(w: &Words) -> Option<Result<Own, TextError>> {
        match w.word.as_str() {
            "manual" => Some(w.no_args(Own::Manual, "manual")),
            "resign" => Some(w.no_args(Own::Resign, "resign")),
            _ => None,
        }
    }

    fn parse_move(w: &Words) -> Result<Move, TextError> {
        match Move::parse_text(&w.word) {
            Ok(mv) if w.args.is_empty() => Ok(mv),
            Err(_) if w.args.is_empty() => {
                match kit::off_board([w.first], |s| parse_square(s).is_ok(), "a1..h8") {
                    Some(why) => Err(SPEC.illegal(w.first, why)),
                    None => Err(SPEC.unknown(w.first)),
                }
            }
            _ => Err(SPEC.unknown(w.first)),
        }
    }

    fn run_command(
        v: &mut ReversiText,
        cmd: Command,
        host: &mut ReversiHost,
    ) -> Result<Flow, TextError> {
        v.run(cmd, host)
    }

    /// `quit`, and `resign` ends the game (`clear` is refused in one): typed while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        matches!(
            parse(line),
            Ok(Some(
                Command::Common(Common::Quit) | Command::Own(Own::Resign)
            ))
        )
    }

    fn breaks_wait(line: &str) -> bool {
        ReversiText::is_quit(line)
    }

    fn breaks_move_wait(line: &str) -> bool {
        acts_while_waiting(line)
    }

    fn only_looks(line: &str) -> bool {
        only_looks(line)
    }

    /// The AI's move in the current position: the exact solver's with few empties, else
    /// a seeded search within the node budget. Both run on the engine's thread, so a
    /// person's `quit` or `resign` stops a solve as it stops a search.
    fn think(v: &ReversiText, host: &mut ReversiHost) -> Result<Move, ThinkError> {
        let legal = v.table.pos.legal_moves();
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        let limits = Limits {
            // A fresh table each time: the same position, the same move.
            solve: Some(SOLVE_EMPTIES),
            fresh_solve: true,
            ..SPEC.ai.limits()
        };
        host.think(&v.table, limits, Self::acts_at_once, &|l| Self::look(v, l))
    }

    fn look(v: &ReversiText, line: &str) -> Option<String> {
        v.shown(&parse(line).ok()??)
    }

    fn ai_move_line(pos: &Position, mv: Move) -> String {
        ai_move_line(pos.side_to_move(), mv)
    }

    /// A fault is treated as the peer's resignation: our Player's result line.
    fn forfeit_line(side: Side) -> String {
        SPEC.result_line(Outcome::Win(side)).to_string()
    }

    fn host_message(v: &mut ReversiText, m: String, host: &mut ReversiHost) -> Flow {
        v.host_message(&m, host)
    }

    /// Quit or end of input: a remote Opponent in a game in progress is sent `resign`
    /// (the connection then closes, which is how a peer in set-up learns of it).
    fn at_exit(v: &mut ReversiText, host: &mut ReversiHost) {
        if v.state == State::Playing && host.has_peer() {
            host.send_peer("resign");
        }
    }

    fn view(v: &ReversiText) -> View {
        v.board_view()
    }

    fn picture(pos: &Position, history: &History<Position>) -> View {
        board::picture(pos, history)
    }

    /// `resign` if need be, `clear` and (next, by the caller) `start`, keeping the
    /// players and seed.
    fn new_game(v: &mut ReversiText) {
        v.clear_board();
    }

    fn undo(v: &mut ReversiText) -> usize {
        v.undo()
    }
}

impl ReversiText {
    /// What a command that only looks prints (`help`, `dump`, `board`); `None` for
    /// the others.
    fn shown(&self, cmd: &Command) -> Option<String> {
        match cmd {
            Command::Common(Common::Help) => Some(HELP.to_string()),
            Command::Common(Common::Dump) => {
                Some(self.table.pos.dump(self.player, self.table.ply as u32))
            }
            Command::Board => Some(self.table.pos.pretty()),
            _ => None,
        }
    }

    fn run(&mut self, cmd: Command, host: &mut ReversiHost) -> Result<Flow, TextError> {
        self.remote_allows(&cmd)?;
        match cmd {
            Command::Common(Common::Quit) => return Ok(Flow::Quit),
            Command::Clear => {
                self.no_game("clear is refused while a game is in progress (resign first)")?;
                if self.link == Link::Waiting {
                    self.hang_up(host);
                    host.say("No longer hosting; the opponent is the computer again.");
                }
                self.clear_board();
                return Ok(self.relay("clear".into(), host));
            }
            Command::Start => {
                match self.state {
                    State::Playing => {
                        return Err(TextError::refused("a game is already in progress"))
                    }
                    State::Finished => {
                        return Err(TextError::refused(
                            "the game is over (use clear for a new game)",
                        ))
                    }
                    State::Setup => {}
                }
                if self.is_host() && !host.send_peer("start") {
                    return Ok(self.peer_forfeits(host, "the remote program disconnected"));
                }
                return Ok(self.begin(host, true));
            }
            Command::Color(side) => {
                self.no_game("color is only valid when no game is in progress")?;
                self.player = side;
                return Ok(self.relay(color_message(side.opponent()), host));
            }
            Command::Auto => {
                self.no_game("auto is only valid when no game is in progress")?;
                self.player_ai = true;
            }
            Command::Own(Own::Manual) => {
                self.no_game("manual is only valid when no game is in progress")?;
                self.player_ai = false;
            }
            Command::Common(Common::Seed(n)) => {
                self.no_game("seed is only valid when no game is in progress")?;
                self.table.seed = n;
            }
            Command::Own(Own::Resign) => {
                if self.state != State::Playing {
                    return Err(TextError::refused("no game is in progress"));
                }
                return Ok(self.resign(host));
            }
            Command::Host(id) => {
                self.unlinked("host")?;
                return self.host_game(id, host);
            }
            Command::Join(address) => {
                self.unlinked("join")?;
                return self.join_game(&address, host);
            }
            Command::Move(mv) => return self.user_move(mv, host),
            Command::Common(Common::Help | Common::Dump) | Command::Board => {
                host.say(&self.shown(&cmd).unwrap_or_default())
            }
            Command::Common(Common::Load(file)) => return Ok(Flow::Load(file)),
        }
        Ok(Flow::Continue)
    }

    fn no_game(&self, what: &'static str) -> Result<(), TextError> {
        if self.state == State::Playing {
            Err(TextError::refused(what))
        } else {
            Ok(())
        }
    }

    /// `host` and `join`: only with no game in progress and no remote program.
    fn unlinked(&self, what: &str) -> Result<(), TextError> {
        self.no_game("host and join are only valid when no game is in progress")?;
        let id = &self.game_id;
        match self.link {
            Link::Off => Ok(()),
            Link::Waiting => Err(TextError::refused(format!(
                "cannot {what}: already hosting game {id} (clear cancels hosting; quit leaves)"
            ))),
            Link::Connected => Err(TextError::refused(format!(
                "cannot {what}: already connected to the remote program of game {id} (quit leaves)"
            ))),
        }
    }

    /// The board to the start position, set-up state (`clear`, and what `host`,
    /// `join` and the host's relayed `clear` first do).
    fn clear_board(&mut self) {
        self.state = State::Setup;
        self.table.restart(Position::startpos());
    }

    fn user_move(&mut self, mv: Move, host: &mut ReversiHost) -> Result<Flow, TextError> {
        match self.state {
            State::Finished => {
                return Err(TextError::refused(
                    "the game is over (use clear for a new game)",
                ))
            }
            State::Setup if self.table.pos.is_over() => {
                return Err(TextError::refused(
                    "the set-up already ended the game (start announces the result; clear for a new one)",
                ))
            }
            State::Playing if self.player_ai || self.table.pos.side_to_move() != self.player => {
                return Err(TextError::refused("it is not the user's turn"))
            }
            _ => {}
        }
        if !self.table.pos.is_legal(mv) {
            return Err(SPEC.illegal(&mv.text(), why_illegal(&self.table.pos, mv)));
        }
        if self.state == State::Setup {
            self.play(mv);
            return Ok(self.relay(mv.text(), host));
        }
        Ok(self.user_plays(mv, host))
    }
}

impl TextProtocol for ReversiText {
    const RULES: crate::games::reversi::Rules = crate::games::reversi::Rules::Standard;

    /// `clear` (after an earlier game), `seed`, the opening's moves as set-up moves,
    /// `color` (the Player, typed by the runner, takes the side the AI does not play),
    /// `manual`, `dump`. The AI side is the Opponent.
    fn setup_commands(s: &EngineSetup<Position>) -> Result<Vec<String>, String> {
        let (opening, ai_side) = (s.opening, s.ai_side);
        let start = Position::startpos();
        let base = &opening.base;
        let from_start = base.discs(Side::First) == start.discs(Side::First)
            && base.discs(Side::Second) == start.discs(Side::Second)
            && base.side_to_move() == Side::First;
        let mut cmds = kit::setup_start(from_start, s.seed, s.played)?;
        cmds.extend(opening.moves.iter().map(|m| m.text()));
        cmds.push(format!("color {}", SPEC.side_word(ai_side.opponent())));
        cmds.push("manual".to_string());
        cmds.push("dump".to_string());
        Ok(cmds)
    }

    fn start_commands() -> Vec<String> {
        vec!["start".to_string()]
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
    use crate::game::Opening;
    use crate::protocol::text::kit::checks;

    fn clean(s: &str) -> bool {
        let l = s.to_ascii_lowercase();
        RESERVED.iter().all(|w| !l.contains(w))
    }

    #[test]
    fn chatter_avoids_reserved_words() {
        assert!(clean(HELP));
        let errors = [
            SPEC.unknown("xyz"),
            TextError::BadArgs("color black|white"),
            TextError::refused("a game is already in progress"),
            TextError::refused("the game is over (use clear for a new game)"),
            TextError::refused("no game is in progress"),
            TextError::refused(
                "the set-up already ended the game (start announces the result; clear for a new one)",
            ),
            SPEC.illegal("a1", String::new()),
            TextError::refused("it is not your turn"),
        ];
        for e in errors {
            assert!(clean(&e.to_string()), "{e}");
        }
        let mut d = ReversiText::new();
        for state in [State::Setup, State::Playing, State::Finished] {
            d.state = state;
            let p = d.prompt().unwrap();
            assert!(clean(&p) && p.trim_end().ends_with(':'), "{p}");
        }
    }

    #[test]
    fn errors_never_echo_reserved_words() {
        for junk in ["wins", "===", "Black wins.", "DRAW.", "a\u{0}b\u{1b}"] {
            let e = parse(junk).unwrap_err().to_string();
            assert!(clean(&e), "{e}");
        }
        assert_eq!(SPEC.quote_input("White wins."), "'White ????.'");
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse("  # only a comment").unwrap(), None);
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(
            parse(" COLOR White ").unwrap(),
            Some(Command::Color(Side::Second))
        );
        assert_eq!(parse("Auto # x").unwrap(), Some(Command::Auto));
        assert_eq!(
            parse("seed -1").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        for bad in [
            "seed 18446744073709551616",
            "color red",
            "color",
            "auto black",
            "i9",
            "d3 e3",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("-").unwrap(), Some(Command::Move(Move::PASS)));
        assert_eq!(
            parse("d3").unwrap(),
            Some(Command::Move(Move::parse_text("d3").unwrap()))
        );
        // A file name may hold blanks (quotes around it are taken off).
        assert_eq!(
            parse("load  my file  # x").unwrap(),
            Some(Command::Common(Common::Load("my file".into())))
        );
        assert_eq!(
            parse("load \"my file\"").unwrap(),
            Some(Command::Common(Common::Load("my file".into())))
        );
        assert_eq!(parse("load").unwrap_err(), TextError::BadArgs("load FILE"));
    }

    #[test]
    fn move_and_result_lines_round_trip() {
        let d3 = Move::parse_text("d3").unwrap();
        let line = ai_move_line(Side::First, d3);
        assert_eq!(line, "Black moves d3.");
        assert_eq!(
            parse_ai_move_line(&format!("white: {line}")),
            Some((Side::First, "d3".to_string()))
        );
        assert_eq!(ai_move_line(Side::Second, Move::PASS), "White passes.");
        assert_eq!(
            parse_ai_move_line("White passes."),
            Some((Side::Second, "-".into()))
        );
        checks::not_ai_moves(
            parse_ai_move_line,
            &[
                "Black wins.",
                "Black moves d3",
                "Black moves i3.",
                "Black moves D3.",
            ],
        );
        checks::result_lines_read_back(&SPEC, "black: ");
    }

    #[test]
    fn setup_commands_rebuild_the_opening() {
        let base = Position::startpos();
        let mut pos = base.clone();
        let d3 = Move::parse_text("d3").unwrap();
        pos.make_move(d3);
        let c3 = Move::parse_text("c3").unwrap();
        assert!(pos.is_legal(c3));
        let o = Opening {
            base,
            moves: vec![d3, c3],
        };
        let cmds =
            ReversiText::setup_commands(&EngineSetup::new(&o, Side::Second, 7, true)).unwrap();
        assert_eq!(
            cmds,
            [
                "clear",
                "seed 7",
                "d3",
                "c3",
                "color black",
                "manual",
                "dump"
            ]
        );
    }
}

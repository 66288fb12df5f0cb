//! The `ataxx-2008.txt` course text language (the 2008 edition, `ataxx --edition 2008`;
//! see `protocol.md`): the Player (the User, or an AI after `auto`) against the Opponent
//! (an AI in local mode, another running program in host and client modes), blocks in
//! the spec's `3gh` notation, the 45-jump rule, and remote play over the shared
//! transport (`protocol/remote.rs`) with the message sequence of the specification's §4.
//!
//! The lines the harnesses read (dump, `Red moves a7-b6.`, `Blue passes.`, `Red wins.`,
//! `Draw.`) are the 2016 dialect's, written by its functions ([`super::ataxx`]). A line
//! is parsed completely before anything changes; a rejected command changes nothing.
//! Chatter avoids the words the result and move lines use (wins, passes, moves, draw).
//!
//! The Player-vs-Opponent machine (play, remote moves, the end of a game, faults) is
//! the one Reversi shares, [`super::versus`]; this file is its [`Edition2008`] (the
//! commands, blocks, the set-up relay) and [`Wire2008`] (the messages).
//!
//! Remote play, as implemented (each side's Player is red or blue; "we" is this program):
//! - host: `host ID` listens; the visitor's greeting is the transport's; then the client's
//!   `ready` must come within the remote timeout, and `host` is done. On `start` the host
//!   sends `color C` (the client's colour), `blocks CONFIG` if any, every set-up move and
//!   `start`.
//! - client: `join ID@HOST` connects and sends `ready`; it then waits (no timeout: the
//!   host's user is setting up) for `color`, after which `blocks`, moves and `start` must
//!   each follow within the remote timeout.
//! - play: each side sends its Player's moves; the wait for the Opponent's move has no
//!   timeout (the User can `clear` or `quit`). The side that sent the game's last move
//!   (or the host's `start` when the set-up had already ended the game) waits, within
//!   the timeout, for the other side's `stop`, then prints the result; the other side
//!   prints the result, sends `stop` and closes.
//! - faults in play: `stop` at any other time (the peer abandoned the game), an illegal
//!   move, a message not allowed or out of sequence, a disconnect or a missed timeout:
//!   the peer forfeits (`Red wins by forfeit.` names our Player's colour), the connection
//!   is closed and the game is finished. `clear` and `quit` send `stop` to a connected
//!   peer. Before `start` (no game yet) the same events end the relay with one line
//!   (`Remote play ended before the start (why); …`) and local set-up goes on, board kept.

use super::ataxx::{
    ai_move_line, block_occupied, block_squares, dump, from_start, is_abandon, parse_move_word,
    resolve_typed, typed_moves, State, SPEC,
};
use super::kit::{self, Common, Spec, TextError, Words};
use super::versus::{self, Edition, Link, Role, Versus, Wire};
use crate::game::Side;
use crate::games::ataxx::{parse_square, square_name, Move, Position, Rules, TextMove};
use crate::protocol::play::History;
use crate::protocol::remote::{self, says, Breach};
use crate::protocol::text::board::View;
use crate::protocol::text::{
    EngineSetup, Flow, Host, PeerRead as Got, TextDialect, TextProtocol, ThinkError,
};

mod board;

/// The block names of `ataxx-2008.txt` §1.1 and the square of the upper-left 4×4
/// corner each stands for, in the order a canonical configuration lists them. Each
/// blocks its square and the square's reflections across the middle row and column.
pub const BLOCK_NAMES: [(char, &str); 14] = [
    ('1', "a4"),
    ('2', "b4"),
    ('3', "c4"),
    ('4', "d7"),
    ('5', "d6"),
    ('6', "d5"),
    ('a', "a6"),
    ('b', "a5"),
    ('c', "b5"),
    ('d', "b7"),
    ('e', "c7"),
    ('f', "c6"),
    ('g', "b6"),
    ('h', "c5"),
];

/// The squares one block name fills (its square and reflections), if it is a name.
pub fn block_name_squares(c: char) -> Option<u64> {
    let c = c.to_ascii_lowercase();
    let (_, sq) = BLOCK_NAMES.iter().find(|(n, _)| *n == c)?;
    parse_square(sq).ok().map(block_squares)
}

/// Why a block configuration is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlocksError {
    Empty,
    BadChar(char),
}

/// Parses a block configuration (`3gh`, case-insensitive, repeats harmless): its
/// canonical form (each name once, in [`BLOCK_NAMES`] order) and the squares it fills.
pub fn parse_blocks(config: &str) -> Result<(String, u64), BlocksError> {
    if config.is_empty() {
        return Err(BlocksError::Empty);
    }
    let mut squares = 0;
    for c in config.chars() {
        squares |= block_name_squares(c).ok_or(BlocksError::BadChar(c))?;
    }
    Ok((canonical_blocks(squares).unwrap_or_default(), squares))
}

/// The canonical configuration naming exactly `gaps`, if the notation can express them.
pub fn canonical_blocks(gaps: u64) -> Option<String> {
    let mut config = String::new();
    let mut covered = 0;
    for (name, _) in BLOCK_NAMES {
        let orbit = block_name_squares(name).unwrap_or(0);
        if orbit & gaps == orbit {
            config.push(name);
            covered |= orbit;
        }
    }
    (covered == gaps).then_some(config)
}

/// The 2008 edition's own command, `blocks`: the canonical configuration and the
/// squares it blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocks(pub String, pub u64);

/// A fully parsed command line.
pub type Command = versus::Command<TextMove, Blocks>;

/// Parses one line (comments and surrounding blanks allowed). `Ok(None)` for a line
/// with nothing on it.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    Ataxx2008::parse_line(line)
}

/// One message between the two programs (`ataxx-2008.txt` §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Ready,
    Color(Side),
    Blocks(String, u64),
    Start,
    Stop,
    Move(TextMove),
}

/// Parses a message: no blanks before or after it, one blank between its words, the
/// words `ready`, `color`, `blocks`, `start`, `stop` in lower case (colours and block
/// names in either case). `None` for anything else.
pub fn parse_message(m: &str) -> Option<Message> {
    match remote::message_words(m)?.as_slice() {
        ["ready"] => Some(Message::Ready),
        ["start"] => Some(Message::Start),
        ["stop"] => Some(Message::Stop),
        ["color", c] => SPEC.parse_colour(c).map(Message::Color),
        ["blocks", config] => parse_blocks(config)
            .ok()
            .map(|(c, sq)| Message::Blocks(c, sq)),
        [mv] => TextMove::parse(mv).ok().map(Message::Move),
        _ => None,
    }
}

/// The forfeit line: `side` (the side that did not forfeit) wins.
pub fn forfeit_line(side: Side) -> String {
    format!("{} wins by forfeit.", SPEC.colour_name(side))
}

/// Recognises a forfeit line (after any prompt): the side that won.
pub fn parse_forfeit_line(line: &str) -> Option<Side> {
    [Side::First, Side::Second]
        .into_iter()
        .find(|&s| SPEC.strip_prompt(line) == forfeit_line(s))
}

const HELP: &str = "\
Commands (one a line; # starts a comment; words are case-insensitive):
  clear            abandon any game (a remote opponent is told); start position,
                   set-up state, local mode, the Player is the User and plays red
  start            begin play from the set-up (host mode: send it to the client first)
  quit             abandon any game and leave the program (end of input does the same)
  color C          the Player plays C, red or blue                       [set-up]
  auto             the Player is the computer (then start: it plays itself) [set-up]
  blocks CONFIG    block squares named in CONFIG, e.g. 3gh (see below);
                   replaces earlier blocks                                [set-up]
  seed N           seed the computer players                              [set-up]
  host ID          host game ID (letters, digits, _), wait for an opponent [set-up]
  join ID@HOST     join game ID hosted on HOST (e.g. localhost)            [set-up]
  c0r0-c1r1        a move, e.g. g1-f2 (extend to a neighbour, or jump two away)
  -                skip a turn (only when no move exists)
  dump             print the board for the test harness
  board            print the board with coordinates
  load FILE        read commands from FILE
  help             print this summary
Block names (the upper-left corner; each is reflected across the middle row and
column, so 3gh blocks c4 e4 b6 f6 b2 f2 c5 e5 c3 e3):
  row 7   .  d  e  4
  row 6   a  g  f  5
  row 5   b  c  h  6
  row 4   1  2  3  .
          a  b  c  d";

/// The 2008 edition's own state beside the shared session's ([`Versus`]).
#[derive(Default)]
pub struct Edition2008 {
    /// The blocks: canonical configuration (empty: none) and the squares.
    blocks: String,
    gaps: u64,
    /// The set-up moves since `clear`/`join`, relayed to a client at `start`.
    setup: Vec<Move>,
    /// A client runs the relay the host's `start` sent (its `color` has come): a fault
    /// now is a forfeit.
    in_relay: bool,
}

/// The 2008 dialect's session: the shared Player-vs-Opponent machine.
pub type Ataxx2008 = Versus<Edition2008>;

type AtaxxHost<'a> = Host<'a, Position>;

/// The messages of §4 on the shared session's interface.
pub struct Wire2008;

impl Wire for Wire2008 {
    type Game = Position;
    type Message = Message;
    const HELLO: &'static str = "ready";
    const ACK: &'static str = "stop";
    const GIVE_UP: &'static str = "stop";
    const GAVE_UP: &'static str = "The remote program abandoned the game.";
    const ACKS_GIVE_UP: bool = false;
    const LEFT_BEFORE_START: Option<&'static str> = Some("the remote program left");

    fn parse(m: &str) -> Option<Message> {
        parse_message(m)
    }

    fn move_in(m: &Message, pos: &Position) -> Option<Option<Move>> {
        match m {
            Message::Move(tm) => Some(tm.resolve(pos)),
            _ => None,
        }
    }

    fn move_message(pos: &Position, mv: Move) -> String {
        TextMove::format(pos, mv)
    }

    fn welcome(_: Side) -> Option<String> {
        None
    }
}

impl Edition for Edition2008 {
    type Game = Position;
    type Wire = Wire2008;
    type Typed = TextMove;
    type Own = Blocks;
    const SPEC: &'static Spec = &SPEC;
    const COLOR_USAGE: &'static str = "color red|blue";
    const PAGE_COMMANDS: &'static str =
        "seed, blocks, color, auto, set-up moves, start, host, join, clear, board…";
    const NEW_GAME_REFUSED: &'static str = "a remote game is on (clear abandons it)";
    const REMOTE_UNTIL_CLEAR: bool = true;

    fn start() -> Position {
        Position::startpos(Rules::Text2008)
    }

    fn parse_own(w: &Words) -> Option<Result<Blocks, TextError>> {
        if w.word != "blocks" {
            return None;
        }
        Some(w.args(1, "blocks CONFIG (e.g. 3gh)").and_then(|a| {
            let (c, sq) = parse_blocks(a[0]).map_err(|e| match e {
                BlocksError::Empty => TextError::BadArgs("blocks CONFIG (e.g. 3gh)"),
                BlocksError::BadChar(c) => TextError::refused(format!(
                    "no block is named {} (use 1-6 and a-h)",
                    SPEC.quote_input(&c.to_string())
                )),
            })?;
            Ok(Blocks(c, sq))
        }))
    }

    fn parse_move(w: &Words) -> Result<TextMove, TextError> {
        parse_move_word(w)
    }

    fn run_command(
        v: &mut Ataxx2008,
        cmd: Command,
        host: &mut AtaxxHost,
    ) -> Result<Flow, TextError> {
        v.run(cmd, host)
    }

    /// `quit`, and `clear` abandons the game: typed while an AI thinks, they act at
    /// once; typed while we wait for the peer, they end the wait.
    fn acts_at_once(line: &str) -> bool {
        is_abandon(line)
    }

    fn look(v: &Ataxx2008, line: &str) -> Option<String> {
        v.shown(&parse(line).ok()??)
    }

    fn think(v: &Ataxx2008, host: &mut AtaxxHost) -> Result<Move, ThinkError> {
        let limits = SPEC.ai.limits();
        host.think(&v.table, limits, is_abandon, &|l| Self::look(v, l))
    }

    fn ai_move_line(pos: &Position, mv: Move) -> String {
        ai_move_line(pos, mv)
    }

    fn forfeit_line(side: Side) -> String {
        forfeit_line(side)
    }

    /// True before the host's `start`: in set-up, and (on a client) before the host's
    /// relay, which its `start` sends.
    fn before_start(v: &Ataxx2008) -> bool {
        v.state == State::Setup && !v.own.in_relay
    }

    fn host_message(v: &mut Ataxx2008, m: String, host: &mut AtaxxHost) -> Flow {
        v.relay(m, host)
    }

    fn played(v: &mut Ataxx2008, mv: Move) {
        if v.state == State::Setup {
            v.own.setup.push(mv);
        }
    }

    /// Quit or end of input: a connected peer is told the game is abandoned.
    fn at_exit(v: &mut Ataxx2008, host: &mut AtaxxHost) {
        let _ = v;
        if host.has_peer() {
            host.send_peer("stop");
        }
    }

    fn view(v: &Ataxx2008) -> View {
        v.board_view()
    }

    fn picture(pos: &Position, history: &History<Position>) -> View {
        board::picture(pos, history)
    }

    fn new_game(v: &mut Ataxx2008) {
        v.new_board_game()
    }

    fn undo(v: &mut Ataxx2008) -> usize {
        v.undo()
    }
}

impl Ataxx2008 {
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

    fn run(&mut self, cmd: Command, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match cmd {
            Command::Common(Common::Quit) => return Ok(Flow::Quit),
            Command::Clear => {
                self.abandon(host);
                self.reset();
            }
            Command::Start => {
                self.require_setup("start")?;
                return Ok(self.start(host));
            }
            Command::Color(side) => {
                self.require_setup("color")?;
                self.player = side;
            }
            Command::Auto => {
                self.require_setup("auto")?;
                self.player_ai = true;
            }
            Command::Common(Common::Seed(n)) => {
                self.require_setup("seed")?;
                self.table.seed = n;
            }
            Command::Own(Blocks(config, squares)) => {
                self.require_setup("blocks")?;
                self.set_blocks(config, squares)?;
            }
            Command::Host(id) => {
                self.require_local("host")?;
                self.listen(id, host).map_err(TextError::refused)?;
            }
            Command::Join(address) => {
                self.require_local("join")?;
                Self::connect(&address, host)?;
                // Join clears the board but keeps the Player (User or AI) and the seed.
                let (player, player_ai) = (self.player, self.player_ai);
                self.reset();
                (self.player, self.player_ai) = (player, player_ai);
                self.joined(&address, host);
            }
            Command::Move(tm) => return self.user_move(tm, host),
            Command::Common(Common::Help | Common::Dump) | Command::Board => {
                host.say(&self.shown(&cmd).unwrap_or_default())
            }
            Command::Common(Common::Load(file)) => return Ok(Flow::Load(file)),
        }
        Ok(Flow::Continue)
    }

    /// The state after `clear` (the seed is kept).
    fn reset(&mut self) {
        let seed = self.table.seed;
        *self = Ataxx2008::new();
        self.table.seed = seed;
    }

    /// Refuses a set-up command outside the set-up state, while waiting for an
    /// opponent, and in client mode (the host sets the game up).
    fn require_setup(&self, what: &str) -> Result<(), TextError> {
        if self.state != State::Setup {
            return Err(TextError::refused(format!(
                "{what} is only valid during set-up (use clear first)"
            )));
        }
        if self.link == Link::Waiting {
            return Err(TextError::refused(
                "waiting for an opponent to join: only clear, quit, help, dump, board and load now",
            ));
        }
        if self.role == Role::Client {
            return Err(TextError::refused(
                "the host sets this game up: only clear, quit, help, dump, board and load now",
            ));
        }
        Ok(())
    }

    fn require_local(&self, what: &str) -> Result<(), TextError> {
        self.require_setup(what)?;
        if self.role != Role::Local {
            return Err(TextError::refused(format!(
                "{what} is only valid in local mode (use clear first)"
            )));
        }
        Ok(())
    }

    /// The set-up position without moves: the start position and the blocks.
    fn base(&self) -> Position {
        let mut pos = Position::startpos(Rules::Text2008);
        // Blocks never cover a corner, so this cannot fail.
        let _ = pos.add_gaps(self.own.gaps);
        pos
    }

    /// `blocks`: replaces the blocks. The position must stay reachable as "blocks, then
    /// the set-up moves" (the order the host relays them in): no block on a piece, and
    /// every set-up move still legal when replayed with the new blocks in place.
    fn set_blocks(&mut self, config: String, squares: u64) -> Result<(), TextError> {
        let pieces = self.table.pos.pieces(Side::First) | self.table.pos.pieces(Side::Second);
        if squares & pieces != 0 {
            let sq = (squares & pieces).trailing_zeros() as u8;
            return Err(block_occupied(&square_name(sq)));
        }
        let mut pos = Position::startpos(Rules::Text2008);
        pos.add_gaps(squares)
            .map_err(|_| block_occupied("a corner"))?;
        for &mv in &self.own.setup {
            if !pos.is_legal(mv) {
                return Err(TextError::refused(
                    "those blocks would make an earlier set-up move impossible (use clear first)",
                ));
            }
            pos.make_move(mv);
        }
        self.table.pos = pos;
        self.own.gaps = squares;
        self.own.blocks = config;
        Ok(())
    }

    fn user_move(&mut self, tm: TextMove, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match self.state {
            State::Setup => self.require_setup("a set-up move")?,
            State::Playing if self.player_ai || self.table.pos.side_to_move() != self.player => {
                return Err(TextError::refused("it is not the User's turn"))
            }
            _ => {}
        }
        let mv = resolve_typed(&self.table.pos, self.state, tm)?;
        if self.state == State::Setup {
            self.play(mv);
            return Ok(Flow::Continue);
        }
        Ok(self.user_plays(mv, host))
    }

    /// `start`: in host mode first relays the set-up; then plays until the User is to
    /// move or the game ends.
    fn start(&mut self, host: &mut AtaxxHost) -> Flow {
        if self.link == Link::Connected {
            let mut messages = vec![format!("color {}", SPEC.side_word(self.player.opponent()))];
            if !self.own.blocks.is_empty() {
                messages.push(format!("blocks {}", self.own.blocks));
            }
            let mut pos = self.base();
            for &mv in &self.own.setup {
                messages.push(TextMove::format(&pos, mv));
                pos.make_move(mv);
            }
            messages.push("start".into());
            for m in &messages {
                if !host.send_peer(m) {
                    return self.peer_forfeits(host, "the remote program disconnected");
                }
            }
        }
        self.begin(host, true)
    }

    /// Client: runs the host's set-up relay, starting with `first` (which must be
    /// `color`), up to its `start`; the messages after `color` must come within the
    /// remote timeout.
    fn relay(&mut self, first: String, host: &mut AtaxxHost) -> Flow {
        let flow = self.run_relay(first, host);
        self.own.in_relay = false;
        flow
    }

    fn run_relay(&mut self, first: String, host: &mut AtaxxHost) -> Flow {
        let mut m = first;
        let mut colored = false;
        loop {
            match parse_message(&m) {
                Some(Message::Color(side)) if !colored => {
                    self.player = side;
                    colored = true;
                    self.own.in_relay = true;
                }
                Some(Message::Blocks(config, squares))
                    if colored && self.own.blocks.is_empty() && self.own.setup.is_empty() =>
                {
                    if let Err(e) = self.set_blocks(config, squares) {
                        let why = format!("the host's blocks were refused: {e}");
                        return self.peer_forfeits(host, &why);
                    }
                }
                Some(Message::Move(tm)) if colored => match tm.resolve(&self.table.pos) {
                    Some(mv) => self.play(mv),
                    None => return self.breach(Breach::IllegalMove, &m, host),
                },
                Some(Message::Start) if colored => {
                    host.say(&says::host_started(
                        &self.game_id,
                        SPEC.side_word(self.player),
                    ));
                    return self.begin(host, false);
                }
                _ => return self.unexpected(&m, host),
            }
            m = match self.read_peer_timed(host) {
                Got::Message(m) => m,
                Got::Fault(why) => return self.peer_forfeits(host, &why),
                Got::Interrupted(line) => return self.execute(&line, host),
            };
        }
    }

    /// `clear` (and quit, through `at_exit`): a connected peer is sent `stop`; any
    /// hosting or connection ends.
    fn abandon(&mut self, host: &mut AtaxxHost) {
        if host.has_peer() {
            host.send_peer("stop");
        }
        host.disconnect();
        self.link = Link::Off;
    }
}

impl TextProtocol for Ataxx2008 {
    const RULES: Rules = Rules::Text2008;

    /// `clear` (after an earlier game), `seed`, `blocks` for the base's gaps, the
    /// opening's moves as set-up moves, `color` (the typed side: the Opponent, an AI,
    /// plays `ai_side`), `dump`.
    fn setup_commands(s: &EngineSetup<Position>) -> Result<Vec<String>, String> {
        let (opening, ai_side) = (s.opening, s.ai_side);
        let base = &opening.base;
        let mut cmds = kit::setup_start(from_start(base), s.seed, s.played)?;
        if base.gaps() != 0 {
            let config = canonical_blocks(base.gaps())
                .ok_or("these gaps cannot be written in the 2008 block notation")?;
            cmds.push(format!("blocks {config}"));
        }
        cmds.extend(typed_moves(opening));
        cmds.push(format!("color {}", SPEC.side_word(ai_side.opponent())));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::protocol::text::ataxx::RESERVED;

    fn clean(s: &str) -> bool {
        let l = s.to_ascii_lowercase();
        RESERVED.iter().all(|w| !l.contains(w))
    }

    fn names(bb: u64) -> Vec<String> {
        crate::games::ataxx::bitboard::Bits(bb)
            .map(square_name)
            .collect()
    }

    #[test]
    fn block_notation() {
        let (config, squares) = parse_blocks("3gh").unwrap();
        assert_eq!(config, "3gh");
        assert_eq!(squares.count_ones(), 10);
        assert_eq!(
            names(squares),
            ["b2", "f2", "c3", "e3", "c4", "e4", "c5", "e5", "b6", "f6"]
        );
        assert_eq!(names(parse_blocks("3").unwrap().1), ["c4", "e4"]);
        assert_eq!(names(parse_blocks("4").unwrap().1), ["d1", "d7"]);
        assert_eq!(
            names(parse_blocks("d").unwrap().1),
            ["b1", "f1", "b7", "f7"]
        );
        assert_eq!(parse_blocks("HG3gh3").unwrap().0, "3gh");
        assert_eq!(parse_blocks(""), Err(BlocksError::Empty));
        assert_eq!(parse_blocks("3i"), Err(BlocksError::BadChar('i')));
        assert_eq!(parse_blocks("7"), Err(BlocksError::BadChar('7')));
        assert_eq!(parse_blocks("0"), Err(BlocksError::BadChar('0')));
        // All fourteen names block every square but the corners and the centre.
        let all = parse_blocks("123456abcdefgh").unwrap().1;
        assert_eq!(all.count_ones(), 49 - 5);
        for (name, _) in BLOCK_NAMES {
            let sq = block_name_squares(name).unwrap();
            assert_eq!(canonical_blocks(sq), Some(name.to_string()));
        }
        assert_eq!(canonical_blocks(0), Some(String::new()));
        let centre = 1 << parse_square("d4").unwrap();
        assert_eq!(canonical_blocks(centre), None);
        let lone = 1 << parse_square("c4").unwrap();
        assert_eq!(canonical_blocks(lone), None, "c4 without e4");
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse(" # only a comment").unwrap(), None);
        assert_eq!(parse("AUTO").unwrap(), Some(Command::Auto));
        assert!(parse("auto red").is_err());
        assert_eq!(
            parse("color Blue # x").unwrap(),
            Some(Command::Color(Side::Second))
        );
        assert!(parse("color green").is_err());
        assert!(parse("color").is_err());
        assert_eq!(
            parse("blocks 3GH").unwrap(),
            Some(Command::Own(Blocks(
                "3gh".into(),
                parse_blocks("3gh").unwrap().1
            )))
        );
        assert_eq!(
            parse("blocks").unwrap_err(),
            TextError::BadArgs("blocks CONFIG (e.g. 3gh)")
        );
        assert_eq!(
            parse("blocks 3z").unwrap_err().to_string(),
            "no block is named 'z' (use 1-6 and a-h)"
        );
        assert!(parse("blocks 3 g").is_err());
        assert_eq!(
            parse("seed -1").unwrap(),
            Some(Command::Common(Common::Seed(u64::MAX)))
        );
        assert!(parse("seed x").is_err());
        assert_eq!(
            parse("host Game_1").unwrap(),
            Some(Command::Host("Game_1".into()))
        );
        assert!(parse("host a-b").is_err());
        assert!(parse("host").is_err());
        assert_eq!(
            parse("join g1@localhost").unwrap(),
            Some(Command::Join("g1@localhost".into()))
        );
        assert!(parse("join g1").is_err());
        assert!(parse("join g 1@localhost").is_err());
        assert_eq!(parse("-").unwrap(), Some(Command::Move(TextMove::Pass)));
        assert_eq!(
            parse("a7-h1").unwrap_err().to_string(),
            "illegal move 'a7-h1': no square h1 on the board (a1..g7)"
        );
        assert_eq!(
            parse("a7b5").unwrap_err().to_string(),
            "unknown command 'a7b5' (a move is written a7-b5)"
        );
        assert!(matches!(parse("manual red"), Err(TextError::Unknown(_))));
        assert!(matches!(parse("block c4"), Err(TextError::Unknown(_))));
    }

    #[test]
    fn parses_messages() {
        assert_eq!(parse_message("ready"), Some(Message::Ready));
        assert_eq!(parse_message("start"), Some(Message::Start));
        assert_eq!(parse_message("stop"), Some(Message::Stop));
        assert_eq!(
            parse_message("color blue"),
            Some(Message::Color(Side::Second))
        );
        assert_eq!(
            parse_message("blocks 3gh"),
            Some(Message::Blocks(
                "3gh".into(),
                parse_blocks("3gh").unwrap().1
            ))
        );
        assert_eq!(
            parse_message("c1-b1"),
            Some(Message::Move(TextMove::parse("c1-b1").unwrap()))
        );
        assert_eq!(parse_message("-"), Some(Message::Move(TextMove::Pass)));
        for bad in [
            "",
            " ready",
            "ready ",
            "color  blue",
            "color\tblue",
            "Ready",
            "color green",
            "blocks",
            "blocks 3z",
            "a7-h1",
            "quit",
            "clear",
            "start now",
            "a7-b6 a1-b2",
            "é",
        ] {
            assert_eq!(parse_message(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn chatter_avoids_reserved_words() {
        assert!(clean(HELP));
        let errors = [
            SPEC.unknown("wins"),
            TextError::BadArgs("color red|blue"),
            TextError::refused("start is only valid during set-up (use clear first)"),
            SPEC.illegal("a1-a2", String::new()),
            parse("blocks 3z").unwrap_err(),
            block_occupied("b6"),
            TextError::refused("it is not your turn"),
        ];
        for e in errors {
            assert!(clean(&e.to_string()), "{e}");
        }
        let d = Ataxx2008::new();
        assert!(clean(&d.prompt().unwrap()));
        for line in [
            "The remote program abandoned the game.",
            "An opponent joined game g; set the game up, then type start.",
            "Joined game g; the host sets it up and starts it.",
            "The host started game g; the Player is blue.",
            "Hosting game g on 127.0.0.1 port 50000; waiting for an opponent (clear or quit cancels).",
            "the remote program sent the illegal move 'a1-a2'",
            "the remote program sent 'start' out of sequence",
            "the remote program sent the invalid message 'x'",
            "the remote program sent 'x' instead of acknowledging the end of the game",
            "waiting for an opponent to join: only clear, quit, help, dump, board and load now",
            "the host sets this game up: only clear, quit, help, dump, board and load now",
        ] {
            assert!(clean(line), "{line}");
        }
        assert_eq!(forfeit_line(Side::First), "Red wins by forfeit.");
        assert_eq!(
            parse_forfeit_line("blue: Blue wins by forfeit."),
            Some(Side::Second)
        );
        assert_eq!(SPEC.parse_result_line("Blue wins by forfeit."), None);
    }

    #[test]
    fn forty_five_jumps_end_the_game() {
        let mut pos = Position::startpos(Rules::Text2008);
        let cycle = ["a7-a5", "g7-g5", "a5-a7", "g5-g7"];
        for i in 0..45 {
            assert_eq!(pos.outcome(), None, "over after {i} jumps");
            let mv = TextMove::parse(cycle[i % 4])
                .unwrap()
                .resolve(&pos)
                .unwrap();
            pos.make_move(mv);
        }
        assert_eq!(pos.clock(), 45);
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        let mut old = Position::startpos(Rules::Text);
        for i in 0..25 {
            let mv = TextMove::parse(cycle[i % 4])
                .unwrap()
                .resolve(&old)
                .unwrap();
            old.make_move(mv);
        }
        assert_eq!(
            old.outcome(),
            Some(Outcome::Draw),
            "the 2016 rule is unchanged"
        );
    }

    #[test]
    fn setup_commands_rebuild_the_opening() {
        use crate::game::Notation;
        let o = Position::opening("block c4 block b7 g1-f2 g7f5", Rules::Text).unwrap();
        let cmds = Ataxx2008::setup_commands(&EngineSetup::new(&o, Side::Second, 7, true)).unwrap();
        assert_eq!(
            cmds,
            [
                "clear",
                "seed 7",
                "blocks 3d",
                "g1-f2",
                "g7-f5",
                "color red",
                "dump"
            ]
        );
        let centre = Position::opening("block d4", Rules::Text).unwrap();
        assert!(
            Ataxx2008::setup_commands(&EngineSetup::new(&centre, Side::First, 0, false)).is_err()
        );
    }
}

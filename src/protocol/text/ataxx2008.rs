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
    ai_move_line, block_occupied, block_squares, colour_name, dump, from_start, is_abandon,
    parse_move_word, quote_input, resolve_typed, result_line, side_word, typed_moves, State,
    AI_NODES, AI_TIME_CAP, SPEC,
};
use super::kit::{self, Common, Spec, TextError};
use crate::game::{Opening, Side};
use crate::games::ataxx::{parse_square, square_name, Move, Position, Rules, TextMove};
use crate::protocol::remote::{self, says, Breach};
use crate::protocol::text::{Flow, Host, PeerRead as Got, RemoteEvent, TextDialect, TextProtocol};
use std::time::Duration;

mod board;
use crate::protocol::text::board::{Action, History, View};

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

/// A fully parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `quit`, `help`, `dump`, `seed N`, `load FILE`.
    Common(Common),
    Clear,
    Start,
    Color(Side),
    Auto,
    /// The canonical configuration and the squares it blocks.
    Blocks(String, u64),
    Host(String),
    Join(String),
    Move(TextMove),
    Board,
}

/// Parses one line (comments and surrounding blanks allowed). `Ok(None)` for a line
/// with nothing on it.
pub fn parse(line: &str) -> Result<Option<Command>, TextError> {
    let Some(w) = SPEC.words(line) else {
        return Ok(None);
    };
    if let Some(c) = w.common() {
        return c.map(|c| Some(Command::Common(c)));
    }
    Ok(Some(match w.word.as_str() {
        "clear" => w.no_args(Command::Clear, "clear")?,
        "start" => w.no_args(Command::Start, "start")?,
        "board" => w.no_args(Command::Board, "board")?,
        "auto" => w.no_args(Command::Auto, "auto")?,
        "color" => Command::Color(w.side("color red|blue")?),
        "blocks" => {
            let config = w.args(1, "blocks CONFIG (e.g. 3gh)")?[0];
            let (c, sq) = parse_blocks(config).map_err(|e| match e {
                BlocksError::Empty => TextError::BadArgs("blocks CONFIG (e.g. 3gh)"),
                BlocksError::BadChar(c) => TextError::refused(format!(
                    "no block is named {} (use 1-6 and a-h)",
                    quote_input(&c.to_string())
                )),
            })?;
            Command::Blocks(c, sq)
        }
        "host" => Command::Host(w.host_id()?),
        "join" => Command::Join(w.join_address()?),
        _ => Command::Move(parse_move_word(&w)?),
    }))
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
    format!("{} wins by forfeit.", colour_name(side))
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

/// Who supplies the Opponent's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An AI in this program.
    Local,
    /// A remote program that joined the game we host.
    Host,
    /// The remote program hosting the game we joined.
    Client,
}

/// Where the connection to a remote program stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// No remote program (local mode, or the remote game is over).
    Off,
    /// `host ID` listens for a visitor.
    Waiting,
    /// Connected to the remote program.
    Connected,
}

/// The 2008 dialect's session state.
pub struct Ataxx2008 {
    state: State,
    mode: Mode,
    link: Link,
    /// The game ID hosted or joined (for messages).
    game_id: String,
    /// The blocks: canonical configuration (empty: none) and the squares.
    blocks: String,
    gaps: u64,
    /// The set-up moves since `clear`/`join`, relayed to a client at `start`.
    setup: Vec<Move>,
    pos: Position,
    /// The Player's colour; the Opponent plays the other.
    player: Side,
    /// The Player is an AI (`auto`), not the User.
    player_ai: bool,
    seed: u64,
    /// Moves played since `clear` (set-up moves included): mixed into the AI's seed.
    ply: u64,
    /// A client runs the relay the host's `start` sent (its `color` has come): a fault
    /// now is a forfeit.
    in_relay: bool,
    /// The moves played (set-up moves first), for the board page's undo.
    history: History<Position>,
}

type AtaxxHost<'a> = Host<'a, Position>;

impl TextDialect for Ataxx2008 {
    type Game = Position;
    type Command = Command;
    type Error = TextError;
    const SPEC: &'static Spec = &SPEC;
    type Options = ();

    fn new() -> Ataxx2008 {
        Ataxx2008 {
            state: State::Setup,
            mode: Mode::Local,
            link: Link::Off,
            game_id: String::new(),
            blocks: String::new(),
            gaps: 0,
            setup: Vec::new(),
            pos: Position::startpos(Rules::Text2008),
            player: Side::First,
            player_ai: false,
            seed: 0,
            ply: 0,
            in_relay: false,
            history: History::default(),
        }
    }

    fn parse_line(line: &str) -> Result<Option<Command>, TextError> {
        parse(line)
    }

    fn run_command(&mut self, cmd: Command, host: &mut AtaxxHost) -> Result<Flow, TextError> {
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
                self.seed = n;
            }
            Command::Blocks(config, squares) => {
                self.require_setup("blocks")?;
                self.set_blocks(config, squares)?;
            }
            Command::Host(id) => {
                self.require_local("host")?;
                let interface = host.listen_interface();
                host.host_game(&id).map_err(TextError::refused)?;
                host.say(&says::hosting(
                    &id,
                    interface,
                    remote::port_for("ataxx", &id),
                ));
                self.mode = Mode::Host;
                self.link = Link::Waiting;
                self.game_id = id;
            }
            Command::Join(address) => {
                self.require_local("join")?;
                host.join_game(&address)
                    .map_err(|e| TextError::refused(format!("cannot join: {e}")))?;
                if !host.send_peer("ready") {
                    host.disconnect();
                    return Err(TextError::refused(
                        "cannot join: the host closed the connection",
                    ));
                }
                // Join clears the board but keeps the Player (User or AI) and the seed.
                let (player, player_ai) = (self.player, self.player_ai);
                self.reset();
                (self.player, self.player_ai) = (player, player_ai);
                self.mode = Mode::Client;
                self.link = Link::Connected;
                self.game_id = address.split('@').next().unwrap_or("").to_string();
                host.say(&says::joined(&self.game_id));
            }
            Command::Move(tm) => return self.user_move(tm, host),
            Command::Common(Common::Help) => host.say(HELP),
            Command::Common(Common::Dump) => host.say(&dump(&self.pos)),
            Command::Board => host.say(self.pos.pretty().trim_end()),
            Command::Common(Common::Load(file)) => return Ok(Flow::Load(file)),
        }
        Ok(Flow::Continue)
    }

    const QUIT: Command = Command::Common(Common::Quit);

    /// `quit`, and `clear` abandons the game: typed while an AI thinks, they act at once.
    fn acts_at_once(line: &str) -> bool {
        is_abandon(line)
    }

    fn view(&self) -> Option<View> {
        Some(self.board_view())
    }

    fn act(&mut self, action: Action, host: &mut AtaxxHost) -> Flow {
        self.board_action(action, host)
    }

    fn prompt(&self) -> Option<String> {
        let who = side_word(self.pos.side_to_move());
        Some(match self.state {
            State::Setup if self.link == Link::Waiting => "waiting for an opponent: ".into(),
            State::Setup if self.mode == Mode::Client => "waiting for the host: ".into(),
            State::Setup => format!("set-up, {who} to play: "),
            State::Playing => format!("{who}: "),
            State::Finished => "game over (clear for a new game): ".to_string(),
        })
    }

    /// Quit or end of input: a connected peer is told the game is abandoned.
    fn at_exit(&mut self, host: &mut AtaxxHost) {
        if host.has_peer() {
            host.send_peer("stop");
        }
    }

    fn on_remote(&mut self, event: RemoteEvent, host: &mut AtaxxHost) -> Flow {
        match (self.link, event) {
            (Link::Waiting, RemoteEvent::Joined) => {
                self.link = Link::Connected;
                self.await_ready(host)
            }
            (Link::Waiting, RemoteEvent::Fault(why)) => {
                self.link = Link::Off;
                self.mode = Mode::Local;
                Self::error(host, &format!("hosting stopped: {why}"));
                Flow::Continue
            }
            (Link::Connected, RemoteEvent::Message(m)) => {
                if self.mode == Mode::Client && self.state == State::Setup {
                    self.relay(m, host)
                } else {
                    self.unexpected(&m, host)
                }
            }
            (Link::Connected, RemoteEvent::Fault(why)) => self.peer_forfeits(host, &why),
            (link, event) => {
                log::debug!("remote event {event:?} ignored ({link:?})");
                Flow::Continue
            }
        }
    }
}

impl Ataxx2008 {
    /// The state after `clear` (the seed is kept).
    fn reset(&mut self) {
        *self = Ataxx2008 {
            seed: self.seed,
            ..Ataxx2008::new()
        };
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
        if self.mode == Mode::Client {
            return Err(TextError::refused(
                "the host sets this game up: only clear, quit, help, dump, board and load now",
            ));
        }
        Ok(())
    }

    fn require_local(&self, what: &str) -> Result<(), TextError> {
        self.require_setup(what)?;
        if self.mode != Mode::Local {
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
        let _ = pos.add_gaps(self.gaps);
        pos
    }

    /// `blocks`: replaces the blocks. The position must stay reachable as "blocks, then
    /// the set-up moves" (the order the host relays them in): no block on a piece, and
    /// every set-up move still legal when replayed with the new blocks in place.
    fn set_blocks(&mut self, config: String, squares: u64) -> Result<(), TextError> {
        let pieces = self.pos.pieces(Side::First) | self.pos.pieces(Side::Second);
        if squares & pieces != 0 {
            let sq = (squares & pieces).trailing_zeros() as u8;
            return Err(block_occupied(&square_name(sq)));
        }
        let mut pos = Position::startpos(Rules::Text2008);
        pos.add_gaps(squares)
            .map_err(|_| block_occupied("a corner"))?;
        for &mv in &self.setup {
            if !pos.is_legal(mv) {
                return Err(TextError::refused(
                    "those blocks would make an earlier set-up move impossible (use clear first)",
                ));
            }
            pos.make_move(mv);
        }
        self.pos = pos;
        self.gaps = squares;
        self.blocks = config;
        Ok(())
    }

    fn user_move(&mut self, tm: TextMove, host: &mut AtaxxHost) -> Result<Flow, TextError> {
        match self.state {
            State::Setup => self.require_setup("a set-up move")?,
            State::Playing if self.player_ai || self.pos.side_to_move() != self.player => {
                return Err(TextError::refused("it is not the User's turn"))
            }
            _ => {}
        }
        let mv = resolve_typed(&self.pos, self.state, tm)?;
        if self.state == State::Setup {
            self.play(mv);
            return Ok(Flow::Continue);
        }
        Ok(match self.our_move(mv, host) {
            Some(flow) => flow,
            None => self.proceed(host),
        })
    }

    fn play(&mut self, mv: Move) {
        if self.state == State::Setup {
            self.setup.push(mv);
        }
        let before = self.pos.clone();
        self.pos.make_move(mv);
        self.history.record(before, mv, &self.pos);
        self.ply += 1;
    }

    /// Plays the Player's move in the playing state and sends it to a remote Opponent.
    /// `Some(flow)` when play stops here (the game ended, or the peer is gone).
    fn our_move(&mut self, mv: Move, host: &mut AtaxxHost) -> Option<Flow> {
        let text = TextMove::format(&self.pos, mv);
        self.play(mv);
        if self.link == Link::Connected && !host.send_peer(&text) {
            return Some(self.peer_forfeits(host, "the remote program disconnected"));
        }
        self.pos.outcome().map(|_| self.game_over(host, true))
    }

    /// `start`: in host mode first relays the set-up; then plays until the User is to
    /// move or the game ends.
    fn start(&mut self, host: &mut AtaxxHost) -> Flow {
        if self.link == Link::Connected {
            let mut messages = vec![format!("color {}", side_word(self.player.opponent()))];
            if !self.blocks.is_empty() {
                messages.push(format!("blocks {}", self.blocks));
            }
            let mut pos = self.base();
            for &mv in &self.setup {
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

    /// Enters the playing state (`start` here, or the host's `start` on a client).
    /// `we_started`: this program sent `start`, so if the set-up already ended the game
    /// it is the side that waits for the acknowledgement.
    fn begin(&mut self, host: &mut AtaxxHost, we_started: bool) -> Flow {
        self.state = State::Playing;
        host.new_game();
        if self.pos.outcome().is_some() {
            return self.game_over(host, we_started);
        }
        self.proceed(host)
    }

    /// Plays until the User is to move or the game ends: AI moves here, the remote
    /// program's moves from the connection.
    fn proceed(&mut self, host: &mut AtaxxHost) -> Flow {
        while self.state == State::Playing {
            let to_move = self.pos.side_to_move();
            let stop = if to_move == self.player {
                if !self.player_ai {
                    return Flow::Continue;
                }
                self.ai_move(host, true)
            } else if self.mode == Mode::Local {
                self.ai_move(host, false)
            } else {
                self.remote_move(host)
            };
            if let Some(flow) = stop {
                return flow;
            }
            host.show(|| self.view());
        }
        Flow::Continue
    }

    /// One AI move (the Player's if `ours`, else the local Opponent's). `Some(flow)`
    /// when play stops here.
    fn ai_move(&mut self, host: &mut AtaxxHost, ours: bool) -> Option<Flow> {
        let limits = kit::ai_limits(AI_NODES, AI_TIME_CAP);
        let acts = Self::acts_at_once;
        let mv = match host.think(&self.pos, limits, self.seed, self.ply, acts) {
            Ok(mv) => mv,
            Err(e) => return Some(self.think_failed(e, host)),
        };
        host.say(&ai_move_line(&self.pos, mv));
        if ours {
            self.our_move(mv, host)
        } else {
            self.play(mv);
            self.pos.outcome().map(|_| self.game_over(host, false))
        }
    }

    /// Waits (without a time limit) for the remote Opponent's move and plays it.
    fn remote_move(&mut self, host: &mut AtaxxHost) -> Option<Flow> {
        let m = match self.read_peer(host, None) {
            Got::Message(m) => m,
            Got::Interrupted(line) => return Some(self.execute(&line, host)),
            Got::Fault(why) => return Some(self.peer_forfeits(host, &why)),
        };
        let Some(Message::Move(tm)) = parse_message(&m) else {
            return Some(self.unexpected(&m, host));
        };
        let Some(mv) = tm.resolve(&self.pos) else {
            return Some(self.breach(Breach::IllegalMove, &m, host));
        };
        host.say(&ai_move_line(&self.pos, mv));
        self.play(mv);
        self.pos.outcome().map(|_| self.game_over(host, false))
    }

    /// Reads the peer's next message, within `timeout` if given. A `clear` or `quit`
    /// the User typed (before or during the wait) ends it.
    fn read_peer(&mut self, host: &mut AtaxxHost, timeout: Option<Duration>) -> Got {
        host.read_peer(timeout, is_abandon)
    }

    /// Reads the peer's next message within the remote timeout (`read_peer`).
    fn read_peer_timed(&mut self, host: &mut AtaxxHost) -> Got {
        let timeout = host.remote_timeout();
        self.read_peer(host, Some(timeout))
    }

    /// The game is over on the board. With a remote Opponent, the side that sent the
    /// last move (`we_sent_last`) waits for the other's `stop`; the other sends it.
    /// Then the result is announced and the connection closed.
    fn game_over(&mut self, host: &mut AtaxxHost, we_sent_last: bool) -> Flow {
        let Some(outcome) = self.pos.outcome() else {
            return Flow::Continue;
        };
        let mut then = None;
        if self.link == Link::Connected {
            if we_sent_last {
                match self.read_peer_timed(host) {
                    Got::Message(m) if parse_message(&m) == Some(Message::Stop) => {}
                    Got::Message(m) => return self.breach(Breach::NotAnAck, &m, host),
                    Got::Fault(why) => return self.peer_forfeits(host, &why),
                    // The board has decided: announce it, then do what the User asked.
                    Got::Interrupted(line) => then = Some(line),
                }
            } else {
                // The acknowledgement; if it cannot be sent the game is over anyway.
                host.send_peer("stop");
            }
            host.disconnect();
            self.link = Link::Off;
        }
        host.say(result_line(outcome));
        self.state = State::Finished;
        match then {
            Some(line) => self.execute(&line, host),
            None => Flow::Continue,
        }
    }

    /// The peer broke the message sequence with `m`: it forfeits, the error says how.
    fn breach(&mut self, breach: Breach, m: &str, host: &mut AtaxxHost) -> Flow {
        self.peer_forfeits(host, &breach.reason(&quote_input(m)))
    }

    /// A message that is not allowed now: `stop` abandons the game (the peer
    /// forfeits), anything else breaks the sequence (the peer forfeits too).
    fn unexpected(&mut self, m: &str, host: &mut AtaxxHost) -> Flow {
        if parse_message(m) == Some(Message::Stop) {
            if self.before_start() {
                return self.relay_ended(host, "the remote program left");
            }
            host.say("The remote program abandoned the game.");
            return self.forfeit(host);
        }
        self.breach(Breach::unexpected(parse_message(m).is_some()), m, host)
    }

    /// The peer forfeits because of a fault: one error line saying why, then the
    /// forfeit line.
    fn peer_forfeits(&mut self, host: &mut AtaxxHost, why: &str) -> Flow {
        if self.before_start() {
            return self.relay_ended(host, why);
        }
        Self::error(host, why);
        self.forfeit(host)
    }

    /// True before the host's `start`: in set-up, and (on a client) before the host's
    /// relay, which its `start` sends.
    fn before_start(&self) -> bool {
        self.state == State::Setup && !self.in_relay
    }

    /// The connection ended before `start` (`why`): no game was played, so nobody
    /// forfeits; one line says so and local set-up goes on with the board as it is.
    fn relay_ended(&mut self, host: &mut AtaxxHost, why: &str) -> Flow {
        host.disconnect();
        self.link = Link::Off;
        self.mode = Mode::Local;
        host.say(&says::relay_ended(why));
        Flow::Continue
    }

    /// Closes the connection, announces that our Player wins by forfeit, and finishes.
    fn forfeit(&mut self, host: &mut AtaxxHost) -> Flow {
        host.disconnect();
        self.link = Link::Off;
        host.say(&forfeit_line(self.player));
        self.state = State::Finished;
        Flow::Continue
    }

    /// The host's `ready` must follow a visitor's arrival within the remote timeout.
    fn await_ready(&mut self, host: &mut AtaxxHost) -> Flow {
        match self.read_peer_timed(host) {
            Got::Message(m) if parse_message(&m) == Some(Message::Ready) => {
                host.say(&says::opponent_joined(&self.game_id));
                Flow::Continue
            }
            Got::Message(m) => self.unexpected(&m, host),
            Got::Fault(why) => self.peer_forfeits(host, &why),
            Got::Interrupted(line) => self.execute(&line, host),
        }
    }

    /// Client: runs the host's set-up relay, starting with `first` (which must be
    /// `color`), up to its `start`; the messages after `color` must come within the
    /// remote timeout.
    fn relay(&mut self, first: String, host: &mut AtaxxHost) -> Flow {
        let flow = self.run_relay(first, host);
        self.in_relay = false;
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
                    self.in_relay = true;
                }
                Some(Message::Blocks(config, squares))
                    if colored && self.blocks.is_empty() && self.setup.is_empty() =>
                {
                    if let Err(e) = self.set_blocks(config, squares) {
                        let why = format!("the host's blocks were refused: {e}");
                        return self.peer_forfeits(host, &why);
                    }
                }
                Some(Message::Move(tm)) if colored => match tm.resolve(&self.pos) {
                    Some(mv) => self.play(mv),
                    None => return self.breach(Breach::IllegalMove, &m, host),
                },
                Some(Message::Start) if colored => {
                    host.say(&says::host_started(&self.game_id, side_word(self.player)));
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
    type Game = Position;
    const RULES: Rules = Rules::Text2008;
    const SPEC: &'static Spec = &SPEC;

    /// `clear` (after an earlier game), `seed`, `blocks` for the base's gaps, the
    /// opening's moves as set-up moves, `color` (the typed side: the Opponent, an AI,
    /// plays `ai_side`), `dump`.
    fn setup_commands(
        opening: &Opening<Position>,
        ai_side: Side,
        seed: u64,
        played: bool,
    ) -> Result<Vec<String>, String> {
        let base = &opening.base;
        let mut cmds = kit::setup_start(from_start(base), seed, played)?;
        if base.gaps() != 0 {
            let config = canonical_blocks(base.gaps())
                .ok_or("these gaps cannot be written in the 2008 block notation")?;
            cmds.push(format!("blocks {config}"));
        }
        cmds.extend(typed_moves(opening));
        cmds.push(format!("color {}", side_word(ai_side.opponent())));
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
            Some(Command::Blocks(
                "3gh".into(),
                parse_blocks("3gh").unwrap().1
            ))
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
            "illegal move 'a7-h1'"
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
        let cmds = Ataxx2008::setup_commands(&o, Side::Second, 7, true).unwrap();
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
        assert!(Ataxx2008::setup_commands(&centre, Side::First, 0, false).is_err());
    }
}

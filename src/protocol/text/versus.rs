//! The Player-vs-Opponent session with remote play, written once for the dialects
//! that have it: Ataxx's 2008 edition (`ataxx2008.rs`) and Reversi (`reversi.rs`).
//!
//! One side is the Player (the User typing, or an AI after `auto`), the other the
//! Opponent: an AI here, or another running program after `host ID` / `join ID@HOST`
//! (the shared transport of `protocol/remote.rs`). [`Versus`] holds what both keep
//! (state, position, the Player, the seed, the link and the role, the moves for the
//! board page's undo) and runs what both do alike: the steps of the shared turn loop
//! ([`Turns`]: the remote Opponent is its third kind of turn, beside the User and the
//! AI), the end of a game with its acknowledgement, a peer that gives up or breaks the
//! message sequence, the host's wait for the visitor's greeting, prompts, and the
//! board page's model of players, new game and undo.
//!
//! What differs is an [`Edition`] (the game and its rules, the commands and words, the
//! set-up relay, the dialect's own state such as Ataxx's blocks) and its [`Wire`] (the
//! messages of the specification's §4: `ready` / `stop` in 2008, the empty message and
//! `resign` in Reversi).

use super::board::View;
use super::kit::{Common, Spec, State, TextError, Words};
use super::{Flow, Host, OtherProtocol, PeerRead as Got, RemoteEvent, TextDialect, ThinkError};
use super::{Turn, Turns};
use crate::game::{Game, GameIo, Outcome, Side};
use crate::protocol::play::History;
use crate::protocol::play::Play;
use crate::protocol::remote::{self, says, Breach};

type Move<E> = <<E as Edition>::Game as Game>::Move;

/// A command line of a Player-vs-Opponent dialect: the commands they share, a typed
/// move (`M`), and the dialect's own commands (`X`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<M, X> {
    /// `quit`, `help`, `dump`, `seed N`, `load FILE`.
    Common(Common),
    Clear,
    Start,
    Color(Side),
    Auto,
    Host(String),
    Join(String),
    Move(M),
    /// The board for people (coordinates, whose turn).
    Board,
    /// The dialect's own (2008: `blocks`; Reversi: `manual`, `resign`).
    Own(X),
}

/// The commands of one [`Edition`].
pub type CommandOf<E> = Command<<E as Edition>::Typed, <E as Edition>::Own>;

/// Where the connection to a remote program stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// No remote program (local mode, or the remote game is over).
    Off,
    /// `host ID` listens for a visitor.
    Waiting,
    /// Connected to the remote program.
    Connected,
}

/// Who supplies the Opponent's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An AI in this program.
    Local,
    /// A remote program that joined (or is to join) the game we host.
    Host,
    /// The remote program hosting the game we joined.
    Client,
}

/// The messages between the two programs (one dialect's §4), as the shared session
/// needs them.
pub trait Wire {
    type Game: GameIo;
    /// One parsed message.
    type Message: PartialEq;
    /// The joining program's first message (2008: `ready`; Reversi: the empty one).
    const HELLO: &'static str;
    /// The acknowledgement of a game's last move (2008: `stop`; Reversi: empty).
    const ACK: &'static str;
    /// The message of a peer that gives the game up (2008: `stop`; Reversi: `resign`).
    const GIVE_UP: &'static str;
    /// What we say when the peer gives up in a game.
    const GAVE_UP: &'static str;
    /// We acknowledge a peer's giving up (Reversi) or just close (2008).
    const ACKS_GIVE_UP: bool;
    /// Why the relay ends when the peer gives up before the start; `None`: there it
    /// breaks the sequence (Reversi's `resign` needs a game).
    const LEFT_BEFORE_START: Option<&'static str>;

    /// A message in the strict form of §4; `None` for anything else.
    fn parse(m: &str) -> Option<Self::Message>;
    /// The move a message carries, if it is one: `Some(None)` when it is illegal in
    /// `pos`.
    fn move_in(m: &Self::Message, pos: &Self::Game) -> Option<Option<<Self::Game as Game>::Move>>;
    /// The message for our move `mv` in `pos` (before it is played).
    fn move_message(pos: &Self::Game, mv: <Self::Game as Game>::Move) -> String;
    /// The host's answer to the visitor's greeting, giving it `side` (Reversi), if any.
    fn welcome(side: Side) -> Option<String>;
}

/// What one dialect brings to the shared session: its game, commands and lines, and
/// its own state (`Self`, kept in the session's `own`).
pub trait Edition: Default + Sized + 'static {
    type Game: GameIo;
    type Wire: Wire<Game = Self::Game>;
    /// A move as typed (parsed, not yet resolved in a position).
    type Typed: PartialEq;
    /// The dialect's own commands ([`Command::Own`]).
    type Own: PartialEq;
    const SPEC: &'static Spec;
    /// The usage of `color` (its side words).
    const COLOR_USAGE: &'static str;
    /// [`TextDialect::PAGE_COMMANDS`].
    const PAGE_COMMANDS: &'static str;
    /// The board page's refusal of a new game while connected.
    const NEW_GAME_REFUSED: &'static str;
    /// After a remote game the board stays remote (no undo, the Opponent's side kept)
    /// until `clear` (2008), or is a local one at once (Reversi).
    const REMOTE_UNTIL_CLEAR: bool;

    /// The start position.
    fn start() -> Self::Game;
    /// The dialect's own command, if the line's first word names one.
    fn parse_own(w: &Words) -> Option<Result<Self::Own, TextError>>;
    /// A line that is no command: a move, or why not.
    fn parse_move(w: &Words) -> Result<Self::Typed, TextError>;
    /// Carries out a parsed command, or refuses it having changed nothing.
    fn run_command(
        v: &mut Versus<Self>,
        cmd: CommandOf<Self>,
        host: &mut Host<Self::Game>,
    ) -> Result<Flow, TextError>;
    /// Lines a person's typing makes act at once while the AI thinks.
    fn acts_at_once(line: &str) -> bool;
    /// Lines that end a timed wait on the peer (the others wait their turn); by
    /// default those that act at once.
    fn breaks_wait(line: &str) -> bool {
        Self::acts_at_once(line)
    }
    /// Lines that act during the wait for the Opponent's move; by default those that
    /// end a timed wait.
    fn breaks_move_wait(line: &str) -> bool {
        Self::breaks_wait(line)
    }
    /// Of those, the lines that only look: they run and the wait goes on.
    fn only_looks(line: &str) -> bool {
        let _ = line;
        false
    }
    /// [`TextDialect::look`].
    fn look(v: &Versus<Self>, line: &str) -> Option<String> {
        let _ = (v, line);
        None
    }
    /// The AI's move in `v.table.pos`.
    fn think(v: &Versus<Self>, host: &mut Host<Self::Game>) -> Result<Move<Self>, ThinkError>;
    /// The line announcing a move by the side to move in `pos` (an AI's, or the remote
    /// Opponent's).
    fn ai_move_line(pos: &Self::Game, mv: Move<Self>) -> String;
    /// The line announcing that `side` (our Player) wins by the peer's forfeit.
    fn forfeit_line(side: Side) -> String;
    /// True before the host's `start`: no game yet, so a fault ends the relay without
    /// a result.
    fn before_start(v: &Versus<Self>) -> bool {
        v.state == State::Setup
    }
    /// Client in set-up: one message of the host's relay.
    fn host_message(v: &mut Versus<Self>, m: String, host: &mut Host<Self::Game>) -> Flow;
    /// A move was played (set-up or game), after the position changed.
    fn played(v: &mut Versus<Self>, mv: Move<Self>) {
        let _ = (v, mv);
    }
    /// Quit or end of input: what a connected peer is told.
    fn at_exit(v: &mut Versus<Self>, host: &mut Host<Self::Game>);
    /// The board page's view.
    fn view(v: &Versus<Self>) -> View;
    /// [`TextDialect::picture`].
    fn picture(pos: &Self::Game, history: &History<Self::Game>) -> View;
    /// The board page's new game: the set-up state to begin from.
    fn new_game(v: &mut Versus<Self>);
    /// The board page's undo: takes moves back as the dialect's model says, and
    /// returns how many.
    fn undo(v: &mut Versus<Self>) -> usize;
    /// The game's own protocols besides the text language ([`TextDialect`]).
    fn other_protocols() -> &'static [OtherProtocol] {
        &[]
    }
}

/// The Player-vs-Opponent session of one [`Edition`].
pub struct Versus<E: Edition> {
    pub(super) state: State,
    /// The game since `clear` (set-up moves included).
    pub(super) table: Play<E::Game>,
    /// The Player's colour; the Opponent plays the other.
    pub(super) player: Side,
    /// The Player is an AI (`auto`), not the User.
    pub(super) player_ai: bool,
    pub(super) link: Link,
    pub(super) role: Role,
    /// The game ID hosted or joined (for messages).
    pub(super) game_id: String,
    /// This program sent the last move of the game (or its `start`), so at the game's
    /// end it waits for a remote Opponent's acknowledgement rather than sending one.
    sent_last: bool,
    /// The dialect's own state.
    pub(super) own: E,
}

impl<E: Edition> TextDialect for Versus<E> {
    type Game = E::Game;
    type Command = CommandOf<E>;
    type Error = TextError;
    const SPEC: &'static Spec = E::SPEC;
    const REMOTE_PLAY: bool = true;
    const PAGE_COMMANDS: &'static str = E::PAGE_COMMANDS;
    type Options = ();

    fn other_protocols() -> &'static [OtherProtocol] {
        E::other_protocols()
    }

    fn new() -> Self {
        Versus {
            state: State::Setup,
            table: Play::new(E::start()),
            player: Side::First,
            player_ai: false,
            link: Link::Off,
            role: Role::Local,
            game_id: String::new(),
            sent_last: false,
            own: E::default(),
        }
    }

    /// Parses one line (comments and surrounding blanks allowed): the shared commands,
    /// then the dialect's own, else a move.
    fn parse_line(line: &str) -> Result<Option<CommandOf<E>>, TextError> {
        E::SPEC.parse_line(line, Command::Common, |w| {
            Ok(match w.word.as_str() {
                "clear" => w.no_args(Command::Clear, "clear")?,
                "start" => w.no_args(Command::Start, "start")?,
                "board" => w.no_args(Command::Board, "board")?,
                "auto" => w.no_args(Command::Auto, "auto")?,
                "color" => Command::Color(w.side(E::COLOR_USAGE)?),
                "host" => Command::Host(w.host_id()?),
                "join" => Command::Join(w.join_address()?),
                _ => match E::parse_own(w) {
                    Some(own) => Command::Own(own?),
                    None => Command::Move(E::parse_move(w)?),
                },
            })
        })
    }

    fn run_command(
        &mut self,
        cmd: CommandOf<E>,
        host: &mut Host<E::Game>,
    ) -> Result<Flow, TextError> {
        E::run_command(self, cmd, host)
    }

    const QUIT: CommandOf<E> = Command::Common(Common::Quit);

    fn acts_at_once(line: &str) -> bool {
        E::acts_at_once(line)
    }

    fn look(&self, line: &str) -> Option<String> {
        E::look(self, line)
    }

    fn view(&self) -> Option<View> {
        Some(E::view(self))
    }

    fn picture(pos: &E::Game, history: &History<E::Game>) -> View {
        E::picture(pos, history)
    }

    fn prompt(&self) -> Option<String> {
        let who = E::SPEC.side_word(self.table.pos.side_to_move());
        Some(match self.state {
            State::Setup if self.link == Link::Waiting => "waiting for an opponent: ".into(),
            State::Setup if self.role == Role::Client => "waiting for the host: ".into(),
            State::Setup => format!("set-up, {who} to play: "),
            State::Playing => format!("{who}: "),
            State::Finished => "game over (clear for a new game): ".to_string(),
        })
    }

    fn at_exit(&mut self, host: &mut Host<E::Game>) {
        E::at_exit(self, host)
    }

    fn on_remote(&mut self, event: RemoteEvent, host: &mut Host<E::Game>) -> Flow {
        match (self.link, event) {
            (Link::Waiting, RemoteEvent::Joined) => {
                self.link = Link::Connected;
                self.greet(host)
            }
            (Link::Waiting, RemoteEvent::Fault(why)) => {
                self.link = Link::Off;
                self.role = Role::Local;
                Self::error(host, &format!("hosting stopped: {why}"));
                Flow::Continue
            }
            (Link::Connected, RemoteEvent::Message(m))
                if self.role == Role::Client && self.state == State::Setup =>
            {
                E::host_message(self, m, host)
            }
            (Link::Connected, RemoteEvent::Message(m)) => self.unexpected(&m, host),
            (Link::Connected, RemoteEvent::Fault(why)) => self.peer_forfeits(host, &why),
            (link, event) => {
                log::debug!("remote event {event:?} ignored ({link:?})");
                Flow::Continue
            }
        }
    }
}

/// The Player-vs-Opponent turns: in the playing state the Player moves (the User, or
/// the AI after `auto`), the Opponent is this program's AI or, once connected, the
/// remote program; the end waits for (or sends) the remote acknowledgement before
/// the result line. The board page's model: making the Opponent's side manual hands
/// the User that colour (the other side becomes the AI's); in a remote game only the
/// local Player can be switched, and undo and a new game are refused.
impl<E: Edition> Turns for Versus<E> {
    fn game(&self) -> &Play<E::Game> {
        &self.table
    }

    fn in_play(&self) -> bool {
        self.state == State::Playing
    }

    fn turn(&self, side: Side) -> Turn {
        match (side == self.player, self.player_ai) {
            (true, false) => Turn::Person,
            (true, true) => Turn::Ai,
            (false, _) if self.link == Link::Connected => Turn::Remote,
            (false, _) => Turn::Ai,
        }
    }

    fn at_end(&mut self, outcome: Option<Outcome>, host: &mut Host<E::Game>) -> Option<Flow> {
        outcome?;
        Some(self.game_over(host))
    }

    fn think(&self, host: &mut Host<E::Game>) -> Result<Move<E>, ThinkError> {
        E::think(self, host)
    }

    /// The Player's AI move is sent to a remote Opponent; the local Opponent's is only
    /// played.
    fn ai_moves(&mut self, mv: Move<E>, host: &mut Host<E::Game>) -> Option<Flow> {
        host.say(&E::ai_move_line(&self.table.pos, mv));
        if self.table.pos.side_to_move() == self.player {
            return self.our_move(mv, host);
        }
        self.play(mv);
        None
    }

    /// Waits (without a time limit) for the remote Opponent's move and plays it. The
    /// User's lines that only look run meanwhile; those that act end the wait.
    fn remote_turn(&mut self, host: &mut Host<E::Game>) -> Option<Flow> {
        let m = loop {
            match host.read_peer(None, E::breaks_move_wait) {
                Got::Message(m) => break m,
                Got::Interrupted(line) if E::only_looks(&line) => {
                    self.execute(&line, host);
                }
                Got::Interrupted(line) => return Some(self.execute(&line, host)),
                Got::Fault(why) => return Some(self.peer_forfeits(host, &why)),
            }
        };
        match E::Wire::parse(&m).and_then(|msg| E::Wire::move_in(&msg, &self.table.pos)) {
            Some(Some(mv)) => {
                host.say(&E::ai_move_line(&self.table.pos, mv));
                self.play(mv);
                None
            }
            Some(None) => Some(self.breach(Breach::IllegalMove, &m, host)),
            None => Some(self.unexpected(&m, host)),
        }
    }

    fn set_player(&mut self, side: Side, ai: bool) -> Result<(), TextError> {
        if side == self.player {
            self.player_ai = ai;
        } else if !ai {
            // The Opponent's side is the AI's already, so only a manual one changes.
            if self.remote_board() {
                return Err(TextError::refused(
                    "in a remote game the remote program plays its side",
                ));
            }
            self.player = side;
            self.player_ai = false;
        }
        Ok(())
    }

    /// The dialect's new game, in play at once.
    fn new_game(&mut self) -> Result<(), TextError> {
        if self.link != Link::Off {
            return Err(TextError::refused(E::NEW_GAME_REFUSED));
        }
        E::new_game(self);
        self.state = State::Playing;
        self.sent_last = true;
        Ok(())
    }

    /// Takes moves back as the dialect's model says; a finished game is in play again.
    fn undo(&mut self) -> Result<(), TextError> {
        if self.remote_board() {
            return Err(TextError::refused("undo is not available in a remote game"));
        }
        if E::undo(self) == 0 {
            return Err(TextError::refused("no move to take back"));
        }
        if self.state == State::Finished {
            self.state = State::Playing;
        }
        Ok(())
    }
}

impl<E: Edition> Versus<E> {
    /// The board is a remote game's: connected or waiting, or (in 2008, until
    /// `clear`) one that was.
    fn remote_board(&self) -> bool {
        self.link != Link::Off || self.role != Role::Local
    }

    /// True for message `m` if it is the message `what` (both parsed).
    pub(super) fn is(m: &str, what: &str) -> bool {
        E::Wire::parse(m).is_some_and(|m| Some(m) == E::Wire::parse(what))
    }

    /// `host ID`: listens (nothing changes if it cannot: the reason comes back) and
    /// says where.
    pub(super) fn listen(&mut self, id: String, host: &mut Host<E::Game>) -> Result<(), String> {
        let interface = host.listen_interface();
        host.host_game(&id)?;
        let port = remote::port_for(<E::Game as crate::game::Notation>::NAME, &id);
        host.say(&says::hosting(&id, interface, port));
        self.role = Role::Host;
        self.link = Link::Waiting;
        self.game_id = id;
        Ok(())
    }

    /// `join ID@HOST`, first part: connects and greets the host; nothing changes if
    /// either fails. The dialect then resets its board and calls [`Versus::joined`].
    pub(super) fn connect(address: &str, host: &mut Host<E::Game>) -> Result<(), TextError> {
        host.join_game(address)
            .map_err(|e| TextError::refused(format!("cannot join: {e}")))?;
        if !host.send_peer(E::Wire::HELLO) {
            host.disconnect();
            return Err(TextError::refused(
                "cannot join: the host closed the connection",
            ));
        }
        Ok(())
    }

    /// `join ID@HOST`, last part: we are the host's client.
    pub(super) fn joined(&mut self, address: &str, host: &mut Host<E::Game>) {
        self.role = Role::Client;
        self.link = Link::Connected;
        self.game_id = address.split('@').next().unwrap_or("").to_string();
        host.say(&says::joined(&self.game_id));
    }

    /// Host: the visitor's greeting must follow its arrival within the remote timeout;
    /// the answer, if the wire has one, is its colour.
    fn greet(&mut self, host: &mut Host<E::Game>) -> Flow {
        match self.read_peer_timed(host) {
            Got::Message(m) if Self::is(&m, E::Wire::HELLO) => {
                if let Some(welcome) = E::Wire::welcome(self.player.opponent()) {
                    if !host.send_peer(&welcome) {
                        return self.peer_forfeits(host, "the remote program disconnected");
                    }
                }
                host.say(&says::opponent_joined(&self.game_id));
                Flow::Continue
            }
            Got::Message(m) => self.unexpected(&m, host),
            Got::Fault(why) => self.peer_forfeits(host, &why),
            Got::Interrupted(line) => self.execute(&line, host),
        }
    }

    /// Plays a move (set-up or game) and records it.
    pub(super) fn play(&mut self, mv: Move<E>) {
        self.table.play(mv);
        self.sent_last = false;
        E::played(self, mv);
    }

    /// The User's legal move in a game in progress: played and sent, then play goes
    /// on until the User is to move again or the game ends.
    pub(super) fn user_plays(&mut self, mv: Move<E>, host: &mut Host<E::Game>) -> Flow {
        match self.our_move(mv, host) {
            Some(flow) => flow,
            None => self.play_turns(host),
        }
    }

    /// Plays the Player's move in a game in progress and sends it to a remote
    /// Opponent. `Some(flow)` when play stops here (the peer is gone).
    fn our_move(&mut self, mv: Move<E>, host: &mut Host<E::Game>) -> Option<Flow> {
        let text = E::Wire::move_message(&self.table.pos, mv);
        self.play(mv);
        self.sent_last = true;
        if self.link == Link::Connected && !host.send_peer(&text) {
            return Some(self.peer_forfeits(host, "the remote program disconnected"));
        }
        None
    }

    /// Enters the playing state (`start` here, or the host's `start` on a client).
    /// `we_started`: this program sent `start`, so if the set-up already ended the game
    /// it is the side that waits for the acknowledgement.
    pub(super) fn begin(&mut self, host: &mut Host<E::Game>, we_started: bool) -> Flow {
        self.state = State::Playing;
        self.sent_last = we_started;
        host.new_game();
        self.play_turns(host)
    }

    /// Reads the peer's next message within the remote timeout; the User's lines that
    /// break a wait ([`Edition::breaks_wait`]) end it.
    pub(super) fn read_peer_timed(&mut self, host: &mut Host<E::Game>) -> Got {
        host.read_peer(Some(host.remote_timeout()), E::breaks_wait)
    }

    /// The game is over on the board. With a remote Opponent, the side that sent the
    /// last move waits for the other's acknowledgement; the other sends it. Then the
    /// result is announced and the connection closed.
    fn game_over(&mut self, host: &mut Host<E::Game>) -> Flow {
        let Some(outcome) = self.table.pos.outcome() else {
            return Flow::Continue;
        };
        let mut then = None;
        if self.link == Link::Connected {
            if self.sent_last {
                match self.read_peer_timed(host) {
                    Got::Message(m) if Self::is(&m, E::Wire::ACK) => {}
                    Got::Message(m) => return self.breach(Breach::NotAnAck, &m, host),
                    Got::Fault(why) => return self.peer_forfeits(host, &why),
                    // The board has decided: announce it, then do what the User asked.
                    Got::Interrupted(line) => then = Some(line),
                }
            } else {
                // The acknowledgement; if it cannot be sent the game is over anyway.
                host.send_peer(E::Wire::ACK);
            }
            self.hang_up(host);
        }
        host.say(E::SPEC.result_line(outcome));
        self.state = State::Finished;
        match then {
            Some(line) => self.execute(&line, host),
            None => Flow::Continue,
        }
    }

    /// The peer broke the message sequence with `m`: it forfeits, the error says how.
    pub(super) fn breach(&mut self, breach: Breach, m: &str, host: &mut Host<E::Game>) -> Flow {
        self.peer_forfeits(host, &breach.reason(&E::SPEC.quote_input(m)))
    }

    /// A message that is not allowed now: the peer giving the game up ends it (or,
    /// before the start, the relay), anything else breaks the sequence.
    pub(super) fn unexpected(&mut self, m: &str, host: &mut Host<E::Game>) -> Flow {
        if Self::is(m, E::Wire::GIVE_UP) {
            if !E::before_start(self) {
                host.say(E::Wire::GAVE_UP);
                if E::Wire::ACKS_GIVE_UP {
                    host.send_peer(E::Wire::ACK);
                }
                return self.forfeit(host);
            }
            if let Some(why) = E::Wire::LEFT_BEFORE_START {
                return self.relay_ended(host, why);
            }
        }
        self.breach(Breach::unexpected(E::Wire::parse(m).is_some()), m, host)
    }

    /// The peer forfeits because of a fault (`why`): one error line, then the forfeit
    /// line. Before the start no game was played: the relay ends instead.
    pub(super) fn peer_forfeits(&mut self, host: &mut Host<E::Game>, why: &str) -> Flow {
        if E::before_start(self) {
            return self.relay_ended(host, why);
        }
        Self::error(host, why);
        self.forfeit(host)
    }

    /// The connection ended before `start` (`why`): no game was played, so nobody
    /// forfeits; one line says so and local set-up goes on with the board as it is.
    fn relay_ended(&mut self, host: &mut Host<E::Game>, why: &str) -> Flow {
        self.hang_up(host);
        self.role = Role::Local;
        host.say(&says::relay_ended(why));
        Flow::Continue
    }

    /// Closes the connection, announces that our Player wins by forfeit, and finishes.
    pub(super) fn forfeit(&mut self, host: &mut Host<E::Game>) -> Flow {
        self.hang_up(host);
        host.say(&E::forfeit_line(self.player));
        self.state = State::Finished;
        Flow::Continue
    }

    /// Ends hosting or the connection ([`Edition::REMOTE_UNTIL_CLEAR`] says whether
    /// the board stays a remote game's).
    pub(super) fn hang_up(&mut self, host: &mut Host<E::Game>) {
        host.disconnect();
        self.link = Link::Off;
        if !E::REMOTE_UNTIL_CLEAR {
            self.role = Role::Local;
        }
    }

    /// The board page's labels: who plays each side, the mode line, the result.
    pub(super) fn label(&self, v: &mut View) {
        let opponent = if self.link == Link::Connected {
            "remote"
        } else {
            "AI"
        };
        v.players[self.player.index()] = if self.player_ai { "AI" } else { "manual" };
        v.players[self.player.opponent().index()] = opponent;
        v.mode = match (self.state, self.link, self.role) {
            (State::Setup, Link::Waiting, _) => "hosting: waiting for an opponent",
            (State::Setup, _, Role::Client) => "joined: waiting for the host",
            (State::Setup, _, _) => "set-up",
            (State::Playing, _, _) => "playing",
            (State::Finished, _, _) => "game over",
        }
        .into();
        if self.state == State::Finished {
            v.result = self
                .table
                .pos
                .outcome()
                .map(|o| E::SPEC.result_line(o).to_string());
            v.to_move = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::text::ataxx2008::Edition2008;
    use crate::protocol::text::reversi::ReversiEdition;

    /// The words the shared session sends and waits for are messages of the edition's
    /// own wire format, none of them a move; and every move it sends reads back as
    /// that move.
    fn wire_reads_what_it_writes<E: Edition>() {
        let start = E::start();
        for m in [E::Wire::HELLO, E::Wire::ACK, E::Wire::GIVE_UP] {
            let msg = E::Wire::parse(m).unwrap_or_else(|| panic!("{m:?} is no message"));
            assert_eq!(E::Wire::move_in(&msg, &start), None, "{m:?}");
        }
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        assert!(!moves.is_empty());
        for mv in moves {
            let text = E::Wire::move_message(&start, mv);
            let msg = E::Wire::parse(&text).unwrap_or_else(|| panic!("{text:?}"));
            assert_eq!(E::Wire::move_in(&msg, &start), Some(Some(mv)), "{text}");
        }
    }

    #[test]
    fn both_wires_read_what_they_write() {
        wire_reads_what_it_writes::<Edition2008>();
        wire_reads_what_it_writes::<ReversiEdition>();
    }
}

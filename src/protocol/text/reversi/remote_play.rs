//! Remote play of the Reversi dialect: `host ID` / `join ID@HOST` with the messages of
//! `reversi.txt` §4 (as `reversi-text-protocol.md` settles them), one a line over the
//! shared transport (`protocol/remote.rs`: port, greeting, bounded lines).
//!
//! The sequence as implemented ("we" is this program; each side's Player is black or
//! white, the Opponent is the remote program while connected):
//! - host: `host ID` clears the board and listens. When a visitor has greeted, its empty
//!   message must come within the remote timeout; the host answers `color C` (the
//!   visitor's colour, the reverse of the host Player's) and its User sets up: each
//!   `clear`, `color C` (reversed) and set-up move is relayed as it is typed, then
//!   `start`. Until a visitor comes, `clear` stops hosting, and set-up moves and
//!   `start` are refused (they could not be relayed).
//! - visitor: `join ID@HOST` connects, sends the empty message and clears the board. The
//!   host's `color` must come within the remote timeout; then the visitor runs the host's
//!   messages as its User's commands (`clear`, `color`, set-up moves, in any order) until
//!   `start`, with no deadline (the host's User is typing), its prompt `waiting for the
//!   host: `. Meanwhile its User may type `dump`, `help` and `quit`; anything else is
//!   refused.
//! - before `start` no game is played: a peer that leaves (quit, disconnect) or breaks the
//!   sequence ends the relay with one line (`Remote play ended before the start (why);
//!   …`), no result line, and the program is back in local set-up with its board kept.
//! - play: each side sends its Player's moves (`d3`, `-`) and `resign`. The wait for the
//!   Opponent's move has no timeout (a person may be thinking); the User's `resign` or
//!   `quit` ends it, `dump` and `help` run at once, other lines wait their turn. The
//!   side that sent the game's last move (or the host's `start` when the set-up had
//!   already ended the game) waits, within the timeout, for the other's empty message,
//!   then announces the result; the other side announces it, sends the empty message
//!   and closes. After a `resign` the resigning side announces the result once the
//!   empty message has come (a move the peer sent before reading the `resign` is passed
//!   over; a fault there is reported, but the resignation stands). `quit` in a game
//!   sends `resign`; the connection closes.
//! - faults in play (a disconnect, a missed timeout, an illegal move, a message out of sequence
//!   or invalid, a line over 256 bytes): treated as the peer's resignation, as the spec
//!   asks: one `error:` line saying why, then our Player's result line (`Black wins.`),
//!   the connection closed and the game finished. A second visitor finds the port
//!   closed (`join` reports the error and changes nothing).

use super::{
    quote_input, result_line, side_word, Command, Link, ReversiHost, ReversiText, State, TextError,
};
use crate::game::{Notation, Outcome, Side};
use crate::games::reversi::{Move, Position};
use crate::protocol::remote::{self, says, Breach};
use crate::protocol::text::kit::Common;
use crate::protocol::text::{Flow, PeerRead, RemoteEvent, TextDialect};
use std::time::Instant;

/// One message between the two programs (`reversi.txt` §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// The empty message: the visitor's first (it joins), and the acknowledgement of the
    /// game's last move.
    Empty,
    Clear,
    Color(Side),
    Start,
    Resign,
    Move(Move),
}

/// Parses a message in the strict form of §4 (no blanks around it, one between the
/// words of `color`, lower case). `None` for anything else.
pub fn parse_message(m: &str) -> Option<Message> {
    if m.is_empty() {
        return Some(Message::Empty);
    }
    match remote::message_words(m)?.as_slice() {
        ["clear"] => Some(Message::Clear),
        ["start"] => Some(Message::Start),
        ["resign"] => Some(Message::Resign),
        ["color", "black"] => Some(Message::Color(Side::First)),
        ["color", "white"] => Some(Message::Color(Side::Second)),
        [mv] if !mv.bytes().any(|b| b.is_ascii_uppercase()) => {
            Move::parse_text(mv).ok().map(Message::Move)
        }
        _ => None,
    }
}

/// The `color` message giving the receiver `side`.
pub fn color_message(side: Side) -> String {
    format!("color {}", side_word(side))
}

/// Lines that act during the wait for the Opponent's move: the User's `resign` or
/// `quit` (they end it), `dump` and `help` (they run, and the wait goes on).
fn acts_while_waiting(line: &str) -> bool {
    matches!(
        super::parse(line),
        Ok(Some(
            Command::Resign
                | Command::Common(Common::Quit)
                | Command::Common(Common::Dump)
                | Command::Common(Common::Help)
                | Command::Board
        ))
    )
}

/// `dump` and `help`: lines that change nothing.
fn only_looks(line: &str) -> bool {
    matches!(
        super::parse(line),
        Ok(Some(
            Command::Common(Common::Dump) | Command::Common(Common::Help) | Command::Board
        ))
    )
}

/// Lines a visitor's User types while the host sets up: every command (most are
/// refused with an error); blank and comment lines are nothing.
fn is_command(line: &str) -> bool {
    !matches!(super::parse(line), Ok(None))
}

impl ReversiText {
    /// True while the Opponent is a connected remote program.
    pub(super) fn is_remote(&self) -> bool {
        matches!(self.link, Link::Host | Link::Visitor)
    }

    /// What remote play forbids: a visitor's User before `start` (the host sets the game
    /// up) may only look and leave; while waiting for a visitor, set-up moves and
    /// `start` must wait (they would not reach it).
    pub(super) fn remote_allows(&self, cmd: &Command) -> Result<(), TextError> {
        let looking = matches!(
            cmd,
            Command::Common(Common::Dump)
                | Command::Common(Common::Help)
                | Command::Board
                | Command::Common(Common::Quit)
        );
        match (self.link, self.state) {
            (Link::Visitor, State::Setup) if !looking => Err(TextError::refused(
                "the host sets this game up: only dump, board, help and quit now",
            )),
            (Link::Waiting, _) if matches!(cmd, Command::Start | Command::Move(_)) => Err(
                TextError::refused("waiting for an opponent to join first (clear cancels hosting)"),
            ),
            _ => Ok(()),
        }
    }

    /// Sends a set-up command to the visitor when hosting one (`clear`, `color`, a
    /// set-up move); the state has already changed here.
    pub(super) fn relay(&mut self, message: String, host: &mut ReversiHost) -> Flow {
        if self.link == Link::Host && !host.send_peer(&message) {
            return self.peer_forfeits(host, "the remote program disconnected");
        }
        Flow::Continue
    }

    /// `host ID`: listens (nothing changes if it cannot), then clears the board.
    pub(super) fn host_game(
        &mut self,
        id: String,
        host: &mut ReversiHost,
    ) -> Result<Flow, TextError> {
        let interface = host.listen_interface();
        host.host_game(&id)
            .map_err(|e| TextError::refused(format!("cannot host: {e}")))?;
        let port = remote::port_for(Position::NAME, &id);
        host.say(&says::hosting(&id, interface, port));
        self.clear_board();
        self.link = Link::Waiting;
        self.game_id = id;
        Ok(Flow::Continue)
    }

    /// `join ID@HOST`: connects and sends the empty message (nothing changes if that
    /// fails), clears the board, then follows the host's set-up up to its `start`.
    pub(super) fn join_game(
        &mut self,
        address: &str,
        host: &mut ReversiHost,
    ) -> Result<Flow, TextError> {
        host.join_game(address)
            .map_err(|e| TextError::refused(format!("cannot join: {e}")))?;
        if !host.send_peer("") {
            host.disconnect();
            return Err(TextError::refused(
                "cannot join: the host closed the connection",
            ));
        }
        self.clear_board();
        self.link = Link::Visitor;
        self.game_id = address.split('@').next().unwrap_or("").to_string();
        host.say(&says::joined(&self.game_id));
        Ok(self.follow_host(host))
    }

    /// Visitor: waits for the host's first message, `color` (its program answers the
    /// empty message at once, so within the remote timeout). The User's lines meanwhile
    /// run at once. The rest of the set-up comes while the session reads input
    /// ([`ReversiText::host_message`]), with no deadline: the host's User is typing.
    fn follow_host(&mut self, host: &mut ReversiHost) -> Flow {
        let deadline = Instant::now() + host.remote_timeout();
        while self.link == Link::Visitor && self.state == State::Setup {
            let left = deadline.saturating_duration_since(Instant::now());
            return match host.read_peer(Some(left), is_command) {
                PeerRead::Message(m) => match parse_message(&m) {
                    Some(Message::Color(side)) => {
                        self.player = side;
                        Flow::Continue
                    }
                    _ => self.unexpected(&m, host),
                },
                PeerRead::Fault(why) => self.peer_forfeits(host, &why),
                PeerRead::Interrupted(line) => match self.execute(&line, host) {
                    Flow::Continue => continue,
                    flow => flow,
                },
            };
        }
        Flow::Continue
    }

    /// Visitor in set-up, after the host's `color`: one relayed command (`clear`,
    /// `color`, a set-up move) run as the User's, or `start`.
    fn host_message(&mut self, m: &str, host: &mut ReversiHost) -> Flow {
        match parse_message(m) {
            Some(Message::Color(side)) => self.player = side,
            Some(Message::Clear) => self.clear_board(),
            Some(Message::Move(mv)) => {
                if self.pos.is_over() || !self.pos.is_legal(mv) {
                    return self.breach(Breach::IllegalMove, m, host);
                }
                self.play(mv);
            }
            Some(Message::Start) => {
                host.say(&says::host_started(&self.game_id, side_word(self.player)));
                return self.begin(host, false);
            }
            _ => return self.unexpected(m, host),
        }
        Flow::Continue
    }

    /// Something happened on the connection while the session waited for input.
    pub(super) fn remote_event(&mut self, event: RemoteEvent, host: &mut ReversiHost) -> Flow {
        match (self.link, event) {
            (Link::Waiting, RemoteEvent::Joined) => {
                self.link = Link::Host;
                self.await_visitor(host)
            }
            (Link::Waiting, RemoteEvent::Fault(why)) => {
                self.link = Link::Off;
                Self::error(host, &format!("hosting stopped: {why}"));
                Flow::Continue
            }
            (Link::Visitor, RemoteEvent::Message(m)) if self.state == State::Setup => {
                self.host_message(&m, host)
            }
            (Link::Host | Link::Visitor, RemoteEvent::Message(m)) => {
                if self.state == State::Playing && parse_message(&m) == Some(Message::Resign) {
                    self.peer_resigned(host)
                } else {
                    self.unexpected(&m, host)
                }
            }
            (Link::Host | Link::Visitor, RemoteEvent::Fault(why)) => self.peer_forfeits(host, &why),
            (link, event) => {
                log::debug!("remote event {event:?} ignored ({link:?})");
                Flow::Continue
            }
        }
    }

    /// Host: the visitor's empty message must follow its arrival within the remote
    /// timeout; the answer is its colour.
    fn await_visitor(&mut self, host: &mut ReversiHost) -> Flow {
        match host.read_peer(Some(host.remote_timeout()), Self::is_quit) {
            PeerRead::Message(m) if m.is_empty() => {
                if !host.send_peer(&color_message(self.player.opponent())) {
                    return self.peer_forfeits(host, "the remote program disconnected");
                }
                host.say(&says::opponent_joined(&self.game_id));
                Flow::Continue
            }
            PeerRead::Message(m) => self.unexpected(&m, host),
            PeerRead::Fault(why) => self.peer_forfeits(host, &why),
            PeerRead::Interrupted(line) => self.execute(&line, host),
        }
    }

    /// Waits (without a time limit) for the remote Opponent's move or `resign`; the
    /// User's `dump` and `help` run meanwhile, `resign` and `quit` end the wait.
    pub(super) fn remote_move(&mut self, host: &mut ReversiHost) -> Option<Flow> {
        let m = loop {
            match host.read_peer(None, acts_while_waiting) {
                PeerRead::Message(m) => break m,
                PeerRead::Interrupted(line) if only_looks(&line) => {
                    self.execute(&line, host);
                }
                PeerRead::Interrupted(line) => return Some(self.execute(&line, host)),
                PeerRead::Fault(why) => return Some(self.peer_forfeits(host, &why)),
            }
        };
        match parse_message(&m) {
            Some(Message::Move(mv)) if self.pos.is_legal(mv) => {
                host.say(&super::ai_move_line(self.pos.side_to_move(), mv));
                self.play(mv);
                self.ended(host, false)
            }
            Some(Message::Move(_)) => Some(self.breach(Breach::IllegalMove, &m, host)),
            Some(Message::Resign) => Some(self.peer_resigned(host)),
            _ => Some(self.unexpected(&m, host)),
        }
    }

    /// The game is over on the board. With a remote Opponent, the side that sent the
    /// last move (`we_sent_last`) waits for the other's empty message; the other sends
    /// it. Then the result is announced and the connection closed.
    pub(super) fn game_over(
        &mut self,
        outcome: Outcome,
        host: &mut ReversiHost,
        we_sent_last: bool,
    ) -> Flow {
        let mut then = None;
        if self.is_remote() {
            if we_sent_last {
                match host.read_peer(Some(host.remote_timeout()), Self::is_quit) {
                    PeerRead::Message(m) if m.is_empty() => {}
                    PeerRead::Message(m) => return self.breach(Breach::NotAnAck, &m, host),
                    PeerRead::Fault(why) => return self.peer_forfeits(host, &why),
                    // The board has decided: announce it, then quit.
                    PeerRead::Interrupted(line) => then = Some(line),
                }
            } else {
                // The acknowledgement; if it cannot be sent the game is over anyway.
                host.send_peer("");
            }
            self.hang_up(host);
        }
        host.say(result_line(outcome));
        self.state = State::Finished;
        match then {
            Some(line) => self.execute(&line, host),
            None => Flow::Continue,
        }
    }

    /// The Player resigns: a remote Opponent is sent `resign` and its acknowledgement
    /// awaited (a move it sent meanwhile is passed over); the Opponent wins either way.
    pub(super) fn resign(&mut self, host: &mut ReversiHost) -> Flow {
        self.state = State::Finished;
        let then = if self.is_remote() && host.send_peer("resign") {
            self.await_resign_ack(host)
        } else {
            None
        };
        self.hang_up(host);
        host.say(result_line(Outcome::Win(self.player.opponent())));
        match then {
            Some(line) => self.execute(&line, host),
            None => Flow::Continue,
        }
    }

    /// Waits for the acknowledgement of our `resign`, passing over a move the peer sent
    /// before it read ours; a fault is reported (the resignation stands). A `quit` typed
    /// meanwhile comes back, to run after the result.
    fn await_resign_ack(&mut self, host: &mut ReversiHost) -> Option<String> {
        let deadline = Instant::now() + host.remote_timeout();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let why = match host.read_peer(Some(left), Self::is_quit) {
                PeerRead::Message(m) if m.is_empty() => return None,
                PeerRead::Message(m) => match parse_message(&m) {
                    Some(Message::Move(_)) => continue,
                    _ => Breach::NotAnAck.reason(&quote_input(&m)),
                },
                PeerRead::Fault(why) => why,
                PeerRead::Interrupted(line) => return Some(line),
            };
            Self::error(host, &why);
            return None;
        }
    }

    /// The remote Opponent resigned: acknowledge, close, and our Player wins.
    fn peer_resigned(&mut self, host: &mut ReversiHost) -> Flow {
        host.say("The remote player resigned.");
        host.send_peer("");
        self.finish_remote(host)
    }

    /// A message that is not allowed now, or no message at all: the peer resigned.
    fn unexpected(&mut self, m: &str, host: &mut ReversiHost) -> Flow {
        self.breach(Breach::unexpected(parse_message(m).is_some()), m, host)
    }

    /// The peer broke the message sequence with `m`: it resigned, the error says how.
    fn breach(&mut self, breach: Breach, m: &str, host: &mut ReversiHost) -> Flow {
        self.peer_forfeits(host, &breach.reason(&quote_input(m)))
    }

    /// A fault (`why`): one error line, then it is as if the peer resigned. Before
    /// `start` no game was played (§3: a result only after the move or `resign` that
    /// ends play): the relay ends with one line and local set-up goes on, board kept.
    pub(super) fn peer_forfeits(&mut self, host: &mut ReversiHost, why: &str) -> Flow {
        if self.state == State::Setup {
            self.hang_up(host);
            host.say(&says::relay_ended(why));
            return Flow::Continue;
        }
        Self::error(host, why);
        self.finish_remote(host)
    }

    /// Closes the connection, announces our Player's win and finishes the game.
    fn finish_remote(&mut self, host: &mut ReversiHost) -> Flow {
        self.hang_up(host);
        host.say(result_line(Outcome::Win(self.player)));
        self.state = State::Finished;
        Flow::Continue
    }

    /// Ends hosting or the connection: the Opponent is the AI again.
    fn hang_up(&mut self, host: &mut ReversiHost) {
        host.disconnect();
        self.link = Link::Off;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_messages() {
        assert_eq!(parse_message(""), Some(Message::Empty));
        assert_eq!(parse_message("clear"), Some(Message::Clear));
        assert_eq!(parse_message("start"), Some(Message::Start));
        assert_eq!(parse_message("resign"), Some(Message::Resign));
        assert_eq!(
            parse_message("color white"),
            Some(Message::Color(Side::Second))
        );
        assert_eq!(parse_message("-"), Some(Message::Move(Move::PASS)));
        assert_eq!(
            parse_message("d3"),
            Some(Message::Move(Move::parse_text("d3").unwrap()))
        );
        for bad in [
            " ",
            " d3",
            "d3 ",
            "D3",
            "color  white",
            "color\twhite",
            "Color white",
            "color red",
            "quit",
            "i9",
            "d3 e3",
            "start now",
            "é",
        ] {
            assert_eq!(parse_message(bad), None, "{bad:?}");
        }
        assert_eq!(color_message(Side::First), "color black");
    }

    #[test]
    fn chatter_avoids_reserved_words() {
        for line in [
            "The remote player resigned.",
            "An opponent joined game g; set the game up, then type start.",
            "Joined game g; the host sets it up and starts it.",
            "The host started game g; the Player is white.",
            "Hosting game g on 127.0.0.1 port 50000; waiting for an opponent (clear or quit cancels).",
            "No longer hosting; the opponent is the computer again.",
            "the host sets this game up: only dump, board, help and quit now",
            "waiting for an opponent to join first (clear cancels hosting)",
            "cannot host: already connected (clear cancels hosting; quit leaves)",
        ] {
            let l = line.to_ascii_lowercase();
            assert!(
                super::super::RESERVED.iter().all(|w| !l.contains(w)),
                "{line}"
            );
        }
    }
}

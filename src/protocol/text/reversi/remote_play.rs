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

use super::{Command, Own, ReversiHost, ReversiText, State, TextError, SPEC};
use crate::game::Side;
use crate::games::reversi::{Move, Position};
use crate::protocol::remote::says;
use crate::protocol::remote::{self, Breach};
use crate::protocol::text::kit::Common;
use crate::protocol::text::versus::{Link, Role, Wire};
use crate::protocol::text::{Flow, PeerRead, TextDialect};
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
    format!("color {}", SPEC.side_word(side))
}

/// The messages of §4 on the shared session's interface.
pub struct ReversiWire;

impl Wire for ReversiWire {
    type Game = Position;
    type Message = Message;
    const HELLO: &'static str = "";
    const ACK: &'static str = "";
    const GIVE_UP: &'static str = "resign";
    const GAVE_UP: &'static str = "The remote player resigned.";
    const ACKS_GIVE_UP: bool = true;
    const LEFT_BEFORE_START: Option<&'static str> = None;

    fn parse(m: &str) -> Option<Message> {
        parse_message(m)
    }

    fn move_in(m: &Message, pos: &Position) -> Option<Option<Move>> {
        match *m {
            Message::Move(mv) => Some(pos.is_legal(mv).then_some(mv)),
            _ => None,
        }
    }

    fn move_message(_: &Position, mv: Move) -> String {
        mv.text()
    }

    /// The host answers the visitor's empty message with its colour.
    fn welcome(side: Side) -> Option<String> {
        Some(color_message(side))
    }
}

/// Lines that act during the wait for the Opponent's move: the User's `resign` or
/// `quit` (they end it), `dump` and `help` (they run, and the wait goes on).
pub(super) fn acts_while_waiting(line: &str) -> bool {
    matches!(
        super::parse(line),
        Ok(Some(
            Command::Own(Own::Resign)
                | Command::Common(Common::Quit)
                | Command::Common(Common::Dump)
                | Command::Common(Common::Help)
                | Command::Board
        ))
    )
}

/// `dump` and `help`: lines that change nothing.
pub(super) fn only_looks(line: &str) -> bool {
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
    fn is_remote(&self) -> bool {
        self.link == Link::Connected
    }

    /// True while hosting a connected visitor.
    pub(super) fn is_host(&self) -> bool {
        self.is_remote() && self.role == Role::Host
    }

    /// True while connected to a host as its visitor.
    fn is_visitor(&self) -> bool {
        self.is_remote() && self.role == Role::Client
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
        if self.is_visitor() && self.state == State::Setup && !looking {
            return Err(TextError::refused(
                "the host sets this game up: only dump, board, help and quit now",
            ));
        }
        if self.link == Link::Waiting && matches!(cmd, Command::Start | Command::Move(_)) {
            return Err(TextError::refused(
                "waiting for an opponent to join first (clear cancels hosting)",
            ));
        }
        Ok(())
    }

    /// Sends a set-up command to the visitor when hosting one (`clear`, `color`, a
    /// set-up move); the state has already changed here.
    pub(super) fn relay(&mut self, message: String, host: &mut ReversiHost) -> Flow {
        if self.is_host() && !host.send_peer(&message) {
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
        self.listen(id, host)
            .map_err(|e| TextError::refused(format!("cannot host: {e}")))?;
        self.clear_board();
        Ok(Flow::Continue)
    }

    /// `join ID@HOST`: connects and sends the empty message (nothing changes if that
    /// fails), clears the board, then follows the host's set-up up to its `start`.
    pub(super) fn join_game(
        &mut self,
        address: &str,
        host: &mut ReversiHost,
    ) -> Result<Flow, TextError> {
        Self::connect(address, host)?;
        self.clear_board();
        self.joined(address, host);
        Ok(self.follow_host(host))
    }

    /// Visitor: waits for the host's first message, `color` (its program answers the
    /// empty message at once, so within the remote timeout). The User's lines meanwhile
    /// run at once. The rest of the set-up comes while the session reads input
    /// ([`ReversiText::host_message`]), with no deadline: the host's User is typing.
    fn follow_host(&mut self, host: &mut ReversiHost) -> Flow {
        let deadline = Instant::now() + host.remote_timeout();
        while self.is_visitor() && self.state == State::Setup {
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
    pub(super) fn host_message(&mut self, m: &str, host: &mut ReversiHost) -> Flow {
        match parse_message(m) {
            Some(Message::Color(side)) => self.player = side,
            Some(Message::Clear) => self.clear_board(),
            Some(Message::Move(mv)) => {
                if self.table.pos.is_over() || !self.table.pos.is_legal(mv) {
                    return self.breach(Breach::IllegalMove, m, host);
                }
                self.play(mv);
            }
            Some(Message::Start) => {
                host.say(&says::host_started(
                    &self.game_id,
                    SPEC.side_word(self.player),
                ));
                return self.begin(host, false);
            }
            _ => return self.unexpected(m, host),
        }
        Flow::Continue
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
        host.say(SPEC.result_line(crate::game::Outcome::Win(self.player.opponent())));
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
                    _ => Breach::NotAnAck.reason(&SPEC.quote_input(&m)),
                },
                PeerRead::Fault(why) => why,
                PeerRead::Interrupted(line) => return Some(line),
            };
            Self::error(host, &why);
            return None;
        }
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
            "cannot host: already hosting game g (clear cancels hosting; quit leaves)",
            "cannot join: already connected to the remote program of game g (quit leaves)",
        ] {
            let l = line.to_ascii_lowercase();
            assert!(
                super::super::RESERVED.iter().all(|w| !l.contains(w)),
                "{line}"
            );
        }
    }
}

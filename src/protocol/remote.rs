//! Remote play between two running programs (`host ID` / `join ID@HOST`): the transport
//! every game's text dialect shares. The dialects own the message sequences of their
//! specifications; this module only carries lines between two processes over TCP.
//!
//! - **Finding the host**: the port is derived from the game and the ID
//!   ([`port_for`]), so `join ID@HOST` needs no port and several games can be hosted on
//!   one machine at once. `ID@HOST:PORT` names a port explicitly.
//! - **Greeting**: the visitor sends `join GAME ID`; the host answers `welcome` or
//!   `refused REASON` (another game or ID on that port). The host accepts exactly one
//!   visitor, then stops listening, so a second visitor is refused by the network.
//! - **Lines**: one message a line, at most [`MAX_MESSAGE`] bytes; a longer line is a
//!   fault. A reader thread delivers [`PeerEvent`]s on a channel, so a session can wait
//!   on its user and its peer at once.
//! - **Faults**: a disconnect, an over-long line or a timeout arrive as events; the
//!   dialect turns them into the forfeit its specification asks for.

use super::input::read_bounded_line;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::io::{self, BufReader, Write};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Longest message accepted from a peer, in bytes.
pub const MAX_MESSAGE: usize = 256;
/// How long a visitor waits for the host's greeting, and a host for a visitor's.
pub const GREETING_TIMEOUT: Duration = Duration::from_secs(10);
/// First port of the range [`port_for`] maps IDs into (the dynamic/private range).
pub const PORT_BASE: u16 = 49152;
/// Size of that range.
pub const PORT_SPAN: u16 = 16000;

/// How long a remote read that is not the wait for the Opponent's move may take by
/// default (which reads those are is each dialect's sequence: the join, the set-up
/// relay, the acknowledgement of the last move). A peer that misses it forfeits.
pub const REMOTE_TIMEOUT: Duration = Duration::from_secs(10);

/// The remote-play settings of a session (`--remote-timeout SECONDS`, `--listen ADDR`),
/// passed in as a value: no process-wide state, so two sessions in one process (tests)
/// can differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How long a remote read that is not the wait for the Opponent's move may take.
    pub timeout: Duration,
    /// The interface `host ID` listens on.
    pub listen: Ipv4Addr,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout: REMOTE_TIMEOUT,
            listen: Ipv4Addr::LOCALHOST,
        }
    }
}

/// The port a game ID is hosted on: FNV-1a of `GAME/ID`, folded into the private range.
pub fn port_for(game: &str, id: &str) -> u16 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in game.bytes().chain(*b"/").chain(id.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    PORT_BASE + (h % PORT_SPAN as u64) as u16
}

/// True for an ID the specifications allow: letters, digits and `_`, 1 to 64 of them.
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Splits `ID@HOST[:PORT]`; `Err` is a one-line reason.
pub fn parse_address(text: &str) -> Result<(String, String, Option<u16>), String> {
    let (id, rest) = text.split_once('@').ok_or("expected ID@HOST")?;
    if !valid_id(id) {
        return Err("the game ID must be letters, digits or _".into());
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) => (h, Some(p.parse::<u16>().map_err(|_| "bad port number")?)),
        None => (rest, None),
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    if !host_ok {
        return Err("bad host name".into());
    }
    Ok((id.to_string(), host.to_string(), port))
}

/// The words of a message in the strict form the specifications ask of messages
/// between programs: printable ASCII, one blank between words, none before or after.
/// `None` otherwise (an empty message has no words: `None` too).
pub fn message_words(m: &str) -> Option<Vec<&str>> {
    if !m.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return None;
    }
    let words: Vec<&str> = m.split(' ').collect();
    if words.iter().any(|w| w.is_empty()) {
        return None; // empty, or leading, trailing or doubled blanks
    }
    Some(words)
}

/// The lines every dialect prints about remote play, worded once (they avoid the words
/// the harnesses reserve: wins, moves, passes, draw).
pub mod says {
    use std::net::Ipv4Addr;

    /// After `host ID` starts listening.
    pub fn hosting(id: &str, interface: Ipv4Addr, port: u16) -> String {
        format!(
            "Hosting game {id} on {interface} port {port}; waiting for an opponent (clear or quit cancels)."
        )
    }

    /// On the host, once its visitor is in.
    pub fn opponent_joined(id: &str) -> String {
        format!("An opponent joined game {id}; set the game up, then type start.")
    }

    /// On the visitor, after `join`.
    pub fn joined(id: &str) -> String {
        format!("Joined game {id}; the host sets it up and starts it.")
    }

    /// On the visitor, at the host's `start`; `player` is its Player's colour word.
    pub fn host_started(id: &str, player: &str) -> String {
        format!("The host started game {id}; the Player is {player}.")
    }

    /// When the connection ends before `start` (a peer that quit, a fault): no game
    /// was played, so no result; the program is back in local set-up, its board kept.
    pub fn relay_ended(why: &str) -> String {
        format!("Remote play ended before the start ({why}); back to local set-up, the board kept.")
    }
}

/// A message that breaks a dialect's sequence: the peer forfeits (or resigns, as
/// Reversi puts it), and the dialect says why in these words after `error: `.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// A move the rules do not allow (set-up or play).
    IllegalMove,
    /// One of the dialect's messages, at a time it is not allowed.
    OutOfSequence,
    /// No message of the dialect at all.
    Invalid,
    /// Something other than the acknowledgement of the game's last message.
    NotAnAck,
}

impl Breach {
    /// [`Breach::OutOfSequence`] for a message the dialect knows, else
    /// [`Breach::Invalid`].
    pub fn unexpected(known: bool) -> Breach {
        if known {
            Breach::OutOfSequence
        } else {
            Breach::Invalid
        }
    }

    /// The one-line reason; `quoted` is the message as the dialect quotes input (so
    /// it can mask the words its harness reserves).
    pub fn reason(self, quoted: &str) -> String {
        match self {
            Breach::IllegalMove => format!("the remote program sent the illegal move {quoted}"),
            Breach::OutOfSequence => format!("the remote program sent {quoted} out of sequence"),
            Breach::Invalid => format!("the remote program sent the invalid message {quoted}"),
            Breach::NotAnAck => format!(
                "the remote program sent {quoted} instead of acknowledging the end of the game"
            ),
        }
    }
}

/// What the reader thread reports about the peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerEvent {
    /// One message (without its line end).
    Message(String),
    /// The peer sent a line longer than [`MAX_MESSAGE`] or invalid UTF-8.
    Garbage,
    /// The connection closed (or failed).
    Closed,
}

/// A connected peer: send lines, receive [`PeerEvent`]s.
pub struct Peer {
    stream: TcpStream,
    events: Receiver<PeerEvent>,
}

impl Peer {
    fn new(stream: TcpStream) -> io::Result<Peer> {
        stream.set_nodelay(true)?;
        stream.set_read_timeout(None)?;
        stream.set_write_timeout(Some(GREETING_TIMEOUT))?;
        let (tx, events) = unbounded();
        let reader = stream.try_clone()?;
        std::thread::Builder::new()
            .name("peer".into())
            .spawn(move || read_messages(reader, tx))?;
        Ok(Peer { stream, events })
    }

    /// Sends one message: one line of at most [`MAX_MESSAGE`] bytes, else an error.
    pub fn send(&mut self, message: &str) -> io::Result<()> {
        if message.contains('\n') || message.len() > MAX_MESSAGE {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a message"));
        }
        log::debug!("peer <- {message}");
        self.send_raw(message)
    }

    fn send_raw(&mut self, line: &str) -> io::Result<()> {
        self.stream.write_all(format!("{line}\n").as_bytes())?;
        self.stream.flush()
    }

    /// The channel on which the peer's messages arrive.
    pub fn events(&self) -> &Receiver<PeerEvent> {
        &self.events
    }

    /// Closes the connection (the peer sees [`PeerEvent::Closed`]).
    pub fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.close();
    }
}

fn read_messages(stream: TcpStream, tx: Sender<PeerEvent>) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        let event = match read_bounded_line(&mut reader, &mut buf, MAX_MESSAGE) {
            Ok(Some(false)) => match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(s) => {
                    log::debug!("peer -> {s}");
                    PeerEvent::Message(s)
                }
                Err(_) => PeerEvent::Garbage,
            },
            Ok(Some(true)) => PeerEvent::Garbage,
            Ok(None) | Err(_) => {
                let _ = tx.send(PeerEvent::Closed);
                return;
            }
        };
        let fatal = event == PeerEvent::Garbage;
        if tx.send(event).is_err() || fatal {
            return;
        }
    }
}

/// A game being hosted: the visitor arrives on [`Hosting::accepted`].
pub struct Hosting {
    accepted: Receiver<Result<Peer, String>>,
    addr: SocketAddr,
    cancelled: Arc<AtomicBool>,
}

impl Hosting {
    /// Delivers the one visitor once it has greeted correctly (or why hosting failed).
    pub fn accepted(&self) -> &Receiver<Result<Peer, String>> {
        &self.accepted
    }

    /// Stops waiting for a visitor and frees the port.
    pub fn cancel(self) {
        let addr = self.addr;
        self.cancelled.store(true, Ordering::Release);
        // Wake the listening thread; seeing nobody wants a visitor any more, it ends.
        let wake = if addr.ip().is_unspecified() {
            SocketAddr::from((Ipv4Addr::LOCALHOST, addr.port()))
        } else {
            addr
        };
        let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
    }
}

/// Hosts game `id` of `game` on `interface` (loopback unless asked otherwise). The one
/// visitor that greets correctly arrives on [`Hosting::accepted`]; the listening thread
/// then stops, closing the port.
pub fn host(
    game: &str,
    id: &str,
    interface: Ipv4Addr,
    port: Option<u16>,
) -> Result<Hosting, String> {
    let port = port.unwrap_or_else(|| port_for(game, id));
    let listener = TcpListener::bind(SocketAddr::from((interface, port)))
        .map_err(|e| format!("cannot host on port {port}: {e}"))?;
    let addr = SocketAddr::from((interface, port));
    let (tx, rx) = unbounded();
    let cancelled = Arc::new(AtomicBool::new(false));
    let cancel_seen = Arc::clone(&cancelled);
    let expected = format!("join {game} {id}");
    std::thread::Builder::new()
        .name("host".into())
        .spawn(move || loop {
            let (stream, _) = match listener.accept() {
                Ok(s) => s,
                Err(e) => {
                    let _ = tx.send(Err(format!("accept failed: {e}")));
                    return;
                }
            };
            if cancel_seen.load(Ordering::Acquire) {
                return;
            }
            match greet_visitor(stream, &expected) {
                Ok(peer) => {
                    let _ = tx.send(Ok(peer));
                    return;
                }
                Err(e) => log::info!("visitor refused: {e}"),
            }
        })
        .map_err(|e| format!("cannot start the host thread: {e}"))?;
    Ok(Hosting {
        accepted: rx,
        addr,
        cancelled,
    })
}

fn greet_visitor(mut stream: TcpStream, expected: &str) -> io::Result<Peer> {
    stream.set_read_timeout(Some(GREETING_TIMEOUT))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut buf = Vec::new();
    let line = match read_bounded_line(&mut reader, &mut buf, MAX_MESSAGE)? {
        Some(false) => String::from_utf8_lossy(&buf).into_owned(),
        _ => String::new(),
    };
    if line != expected {
        let _ = stream.write_all(b"refused not this game\n");
        return Err(io::Error::other(format!("greeting {line:?}")));
    }
    stream.write_all(b"welcome\n")?;
    drop(reader);
    Peer::new(stream)
}

/// Joins game `id` of `game` hosted on `host_name` (port from [`port_for`] unless given).
pub fn join(game: &str, id: &str, host_name: &str, port: Option<u16>) -> Result<Peer, String> {
    let port = port.unwrap_or_else(|| port_for(game, id));
    let addrs: Vec<SocketAddr> = (host_name, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot find {host_name}: {e}"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!("cannot find {host_name}"));
    }
    // A name may resolve to several addresses (`localhost`: often ::1 before 127.0.0.1,
    // while games are hosted on IPv4): try each in turn, the first that answers wins.
    let mut stream = addrs
        .iter()
        .find_map(|addr| TcpStream::connect_timeout(addr, GREETING_TIMEOUT).ok())
        .ok_or_else(|| format!("nobody hosts game {id} on {host_name} (or it is taken)"))?;
    let mut greet = || -> io::Result<String> {
        stream.set_read_timeout(Some(GREETING_TIMEOUT))?;
        stream.write_all(format!("join {game} {id}\n").as_bytes())?;
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut buf = Vec::new();
        read_bounded_line(&mut reader, &mut buf, MAX_MESSAGE)?;
        Ok(String::from_utf8_lossy(&buf).into_owned())
    };
    match greet() {
        Ok(answer) if answer == "welcome" => {
            Peer::new(stream).map_err(|e| format!("connection failed: {e}"))
        }
        Ok(_) => Err(format!(
            "game {id} on {host_name} is not this game, or is taken"
        )),
        Err(e) => Err(format!("no greeting from {host_name}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_and_addresses() {
        assert_eq!(port_for("ataxx", "g1"), port_for("ataxx", "g1"));
        assert_ne!(port_for("ataxx", "g1"), port_for("reversi", "g1"));
        assert!((PORT_BASE..PORT_BASE + PORT_SPAN).contains(&port_for("loa", "x")));
        assert_eq!(
            parse_address("Foo_1@localhost").unwrap(),
            ("Foo_1".into(), "localhost".into(), None)
        );
        assert_eq!(parse_address("a@h:123").unwrap().2, Some(123));
        for bad in ["foo", "@h", "a b@h", "a@", "a@h:x", "a@h;rm"] {
            assert!(parse_address(bad).is_err(), "{bad}");
        }
    }

    /// Hosts game `test` under a fresh ID. An ID's port lies in the range the system
    /// also hands out to outgoing connections, so it can be taken by someone else: then
    /// another ID is tried, as a person would.
    fn host_fresh(tag: &str) -> (String, Hosting) {
        for n in 0..20 {
            let id = format!("{tag}{}_{n}", std::process::id());
            if let Ok(hosting) = host("test", &id, Ipv4Addr::LOCALHOST, None) {
                return (id, hosting);
            }
        }
        panic!("no free port for 20 IDs");
    }

    #[test]
    fn host_and_join_exchange_lines() {
        let (id, hosting) = host_fresh("t");
        assert!(join("other", &id, "127.0.0.1", Some(port_for("test", &id))).is_err());
        let mut visitor = join("test", &id, "127.0.0.1", None).unwrap();
        let mut hosted = hosting
            .accepted()
            .recv_timeout(Duration::from_secs(5))
            .unwrap()
            .unwrap();
        visitor.send("ready").unwrap();
        assert_eq!(
            hosted.events().recv_timeout(Duration::from_secs(5)),
            Ok(PeerEvent::Message("ready".into()))
        );
        assert!(hosted.send("two\nlines").is_err());
        hosted.send_raw(&"x".repeat(MAX_MESSAGE + 1)).unwrap();
        assert_eq!(
            visitor.events().recv_timeout(Duration::from_secs(5)),
            Ok(PeerEvent::Garbage)
        );
        // The port is closed after the first visitor: a second one is refused.
        assert!(join("test", &id, "127.0.0.1", None).is_err());
        hosted.close();
    }

    #[test]
    fn cancelled_hosting_frees_the_port() {
        let (id, hosting) = host_fresh("c");
        hosting.cancel();
        let again = (0..50).find_map(|_| {
            std::thread::sleep(Duration::from_millis(20));
            host("test", &id, Ipv4Addr::LOCALHOST, None).ok()
        });
        assert!(again.is_some(), "the port stayed taken");
    }
}

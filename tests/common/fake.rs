//! A fake remote program for the remote-play tests: the test itself plays the peer over
//! a raw `TcpStream` that speaks the transport's greeting (`join GAME ID` / `welcome`),
//! so it can misbehave at will. Every read has a deadline.

use super::Engine;
use engine::protocol::remote::port_for;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// Ceiling for one expected line.
const T: Duration = Duration::from_secs(30);

/// The fake remote program: one connection, line by line.
pub struct Fake {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Fake {
    /// Wraps a connected stream (after the greeting, or to greet by hand).
    pub fn new(stream: TcpStream) -> Fake {
        stream.set_read_timeout(Some(T)).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Fake { stream, reader }
    }

    /// Joins game `id` of `game` hosted on loopback, greeting as the transport does.
    pub fn join(game: &str, id: &str) -> Fake {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for(game, id)));
        let stream = TcpStream::connect_timeout(&addr, T).expect("the host listens");
        let mut f = Fake::new(stream);
        f.send(&format!("join {game} {id}"));
        assert_eq!(f.recv().as_deref(), Some("welcome"));
        f
    }

    /// Sends one line (a closed connection is not an error here).
    pub fn send(&mut self, line: &str) {
        let _ = self.stream.write_all(format!("{line}\n").as_bytes());
    }

    /// The next line; `None` once the program has closed the connection.
    pub fn recv(&mut self) -> Option<String> {
        let mut s = String::new();
        match self.reader.read_line(&mut s) {
            Ok(0) => None,
            Ok(_) => Some(s.trim_end_matches(['\n', '\r']).to_string()),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!("the program sent nothing within {T:?}")
            }
            Err(_) => None,
        }
    }

    /// Reads the next lines and checks them, in order.
    pub fn expect(&mut self, lines: &[&str]) {
        for want in lines {
            assert_eq!(self.recv().as_deref(), Some(*want));
        }
    }
}

/// A fake host of `game` on loopback: a fresh ID (another one if the derived port is
/// taken) and the listener.
pub fn host(game: &str, tag: &str) -> (String, TcpListener) {
    for _ in 0..5 {
        let id = super::unique_game_id(tag);
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port_for(game, &id)));
        if let Ok(l) = TcpListener::bind(addr) {
            return (id, l);
        }
    }
    panic!("no free port for the fake host");
}

/// Accepts the program's connection and answers its greeting (for game `id` of `game`).
pub fn accept(listener: &TcpListener, game: &str, id: &str) -> Fake {
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + T;
    let stream = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(e) => panic!("no visitor: {e}"),
        }
    };
    stream.set_nonblocking(false).unwrap();
    let mut f = Fake::new(stream);
    f.expect(&[&format!("join {game} {id}")]);
    f.send("welcome");
    f
}

/// `host ID` on the real program `e` with a fresh ID (another one if the derived port is
/// taken); returns the ID once the program says it is hosting.
pub fn host_on(e: &Engine, tag: &str) -> String {
    for _ in 0..5 {
        let id = super::unique_game_id(tag);
        e.send(&format!("host {id}"));
        let line = e.recv(T);
        if line.starts_with(&format!("Hosting game {id} on 127.0.0.1 port ")) {
            return id;
        }
        assert!(line.starts_with("error: "), "{line}");
    }
    panic!("no free port for hosting");
}

/// A fake host of `game` that the real program `e` joins: the fake has answered the
/// greeting and read the program's first message `hello`, and the program has said it
/// joined.
pub fn join_fake_host(e: Engine, game: &str, tag: &str, hello: &str) -> (Engine, Fake) {
    let (id, listener) = host(game, tag);
    e.send(&format!("join {id}@127.0.0.1"));
    let mut f = accept(&listener, game, &id);
    f.expect(&[hello]);
    super::expect_lines(&e, T, &[&format!("Joined game {id}; *")]);
    (e, f)
}

/// Two real programs (each started by `spawn`, then given its `setup` lines): one
/// hosts a fresh game ID, the other joins it on `localhost`; both have said so.
pub fn connect(
    spawn: impl Fn() -> Engine,
    tag: &str,
    host_setup: &[&str],
    visitor_setup: &[&str],
) -> (Engine, Engine, String) {
    let (h, v) = (spawn(), spawn());
    for l in host_setup {
        h.send(l);
    }
    let id = host_on(&h, tag);
    for l in visitor_setup {
        v.send(l);
    }
    v.send(&format!("join {id}@localhost"));
    let joined = format!("Joined game {id}; the host sets it up and starts it.");
    super::expect_lines(&v, T, &[&joined]);
    let arrived = format!("An opponent joined game {id}; set the game up, then type start.");
    super::expect_lines(&h, T, &[&arrived]);
    (h, v, id)
}

/// Reads both programs of a remote game until each has printed its result line (`done`),
/// checks that they printed the same lines (the moves, then the result), and returns them.
pub fn same_game(a: &Engine, b: &Engine, timeout: Duration, done: fn(&str) -> bool) -> Vec<String> {
    let lines = a.wait_for(timeout, done);
    assert_eq!(
        lines,
        b.wait_for(timeout, done),
        "both print the same moves and result"
    );
    lines
}

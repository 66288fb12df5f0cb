//! The page server's checks, over real sockets: the token, foreign `Host` and
//! `Origin` refused, bounded bodies, and a posted line reaching the session's input.

use super::*;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;

/// A raw HTTP/1.1 request (so that any `Host` can be sent); the status and body.
fn request(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let msg = format!(
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(msg.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}

struct Fixture {
    display: Display,
    hub: Arc<Hub>,
    lines: crossbeam_channel::Receiver<Line>,
}

fn serve() -> Fixture {
    let hub = Arc::new(Hub::default());
    let (tx, rx) = unbounded();
    let config = Config {
        listen: Ipv4Addr::LOCALHOST,
        port: 0,
    };
    let display = start(config, "seed…", hub.clone(), tx, Study::default()).unwrap();
    Fixture {
        display,
        hub,
        lines: rx,
    }
}

impl Fixture {
    fn get(&self, path: &str, extra: &str) -> (u16, String) {
        let a = self.display.addr;
        let head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}{extra}", a.port());
        request(a, &head, b"")
    }

    fn post(&self, path: &str, body: &[u8]) -> (u16, String) {
        let a = self.display.addr;
        let head = format!(
            "POST {path}?token={} HTTP/1.1\r\nHost: localhost:{}\r\nOrigin: http://localhost:{}",
            self.display.token,
            a.port(),
            a.port()
        );
        request(a, &head, body)
    }

    fn with_token(&self, path: &str) -> String {
        format!("{path}?token={}", self.display.token)
    }
}

#[test]
fn the_token_is_required_on_every_request() {
    let f = serve();
    assert_eq!(f.display.token.len(), 32);
    assert!(f.display.url().starts_with("http://127.0.0.1:"));
    for path in [
        "/",
        "/app.js",
        "/style.css",
        "/state",
        "/events",
        "/nothing",
    ] {
        assert_eq!(f.get(path, "").0, 403, "{path} without a token");
        assert_eq!(f.get(&format!("{path}?token=0123"), "").0, 403, "{path}");
    }
    let (status, page) = f.get(&f.with_token("/"), "");
    assert_eq!(status, 200);
    assert!(page.contains(&format!("app.js?token={}", f.display.token)));
    assert_eq!(f.get(&f.with_token("/app.js"), "").0, 200);
    // Only the embedded assets: no file behind a path.
    assert_eq!(f.get(&f.with_token("/../Cargo.toml"), "").0, 404);
    assert_eq!(f.get(&f.with_token("/src/lib.rs"), "").0, 404);
    // Two servers, two tokens.
    assert_ne!(serve().display.token, f.display.token);
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let f = serve();
    let a = f.display.addr;
    let path = f.with_token("/state");
    let head = |host: &str, origin: &str| {
        let mut h = format!("GET {path} HTTP/1.1\r\nHost: {host}");
        if !origin.is_empty() {
            h.push_str(&format!("\r\nOrigin: {origin}"));
        }
        h
    };
    let port = a.port();
    let ours = format!("127.0.0.1:{port}");
    assert_eq!(request(a, &head(&ours, ""), b"").0, 200);
    assert_eq!(
        request(a, &head(&ours, &format!("http://{ours}")), b"").0,
        200
    );
    // DNS rebinding: a name other than localhost, or another port.
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1:1".to_string(),
        "127.0.0.1".to_string(),
        String::new(),
    ] {
        let (status, body) = request(a, &head(&host, ""), b"");
        assert_eq!(status, 403, "{host}: {body}");
    }
    // Another site driving the engine from a browser.
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let (status, body) = request(a, &head(&ours, origin), b"");
        assert_eq!((status, body.trim()), (403, "refused: foreign Origin"));
    }
    assert!(host_allowed("[::1]:80", 80) && host_allowed("LOCALHOST:80", 80));
    assert!(!host_allowed("localhost.evil:80", 80) && !host_allowed("a:80", 80));
}

#[test]
fn a_posted_line_reaches_the_input_marked_as_the_pages() {
    let f = serve();
    assert_eq!(f.post("/command", b"board\r\n").0, 204);
    let line = f.lines.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!((line.text.as_str(), line.source), ("board", Source::Page));
    assert_eq!(f.post("/action", b"undo").0, 204);
    let line = f.lines.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(
        (line.text.as_str(), line.source),
        ("undo", Source::PageAction)
    );
    // A refused action or body reaches nothing.
    assert_eq!(f.post("/action", b"quit").0, 400);
    assert_eq!(f.post("/command", b"a\nb").0, 400);
    assert_eq!(f.post("/command", &[0xff, 0xfe]).0, 400);
    assert_eq!(f.post("/command", &vec![b'x'; MAX_BODY + 1]).0, 413);
    assert_eq!(f.post("/command", &vec![b'x'; MAX_BODY]).0, 204);
    assert_eq!(f.lines.recv().unwrap().text.len(), MAX_BODY);
    assert!(f.lines.try_recv().is_err());
    // What was sent shows in the log.
    let (_, state) = f.get(&f.with_token("/state"), "");
    assert!(state.contains("[0,\"i\",\"board\"]"), "{state}");
}

#[test]
fn events_bring_the_view_and_the_log_as_they_change() {
    let f = serve();
    let a = f.display.addr;
    let mut s = TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let head = format!(
        "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        f.with_token("/events"),
        a.port()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut r = BufReader::new(s);
    let mut next_event = || loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(data) = line.strip_prefix("data: ") {
            return data.trim().to_string();
        }
    };
    assert_eq!(
        next_event(),
        "{\"view\":null,\"thinking\":null,\"record\":null,\"analysis\":null,\"log\":[]}"
    );
    f.hub.set_view("{\"x\":1}".into());
    assert_eq!(
        next_event(),
        "{\"view\":{\"x\":1},\"thinking\":null,\"analysis\":null,\"log\":[]}"
    );
    // The AI's search report comes as it changes.
    f.hub.set_thinking("{\"depth\":3}".into());
    assert_eq!(
        next_event(),
        "{\"view\":{\"x\":1},\"thinking\":{\"depth\":3},\"analysis\":null,\"log\":[]}"
    );
    let mut out = Tee::new(Vec::new(), f.hub.clone(), Kind::Out);
    out.write_all(b"red: ").unwrap();
    out.flush().unwrap(); // a prompt: not in the log
    out.write_all(b"Red moves a7-b6.\nprompt: ").unwrap();
    assert_eq!(
        next_event(),
        "{\"view\":{\"x\":1},\"thinking\":{\"depth\":3},\"analysis\":null,\"log\":[[0,\"o\",\"Red moves a7-b6.\"]]}"
    );
    // The game behind the view comes when it changes (only then: the events before
    // left it out), and the page's analysis with every event.
    f.hub.set_record("{\"plies\":[]}".into());
    let state = next_event();
    assert!(state.contains("\"record\":{\"plies\":[]},"), "{state}");
    f.hub.set_analysis("{\"kind\":\"hint\"}".into());
    let state = next_event();
    assert!(!state.contains("\"record\""), "{state}");
    assert!(
        state.contains("\"analysis\":{\"kind\":\"hint\"}"),
        "{state}"
    );
    assert_eq!(out.inner, b"red: Red moves a7-b6.\nprompt: ");
}

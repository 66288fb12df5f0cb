//! `--display`: a board in the browser, driving the same session as the text language.
//!
//! The page (embedded in the binary: `assets/`, no build step, no CDN) is served over
//! HTTP by `tiny_http`. What the page sends enters the session as input lines on the
//! same channel as stdin, marked [`Source::Page`] (a text-language line: a clicked
//! move, the command box) or [`Source::PageAction`] (undo, a side to AI or manual, a
//! new game: see [`Action`]); stdin keeps working beside it. The session's views
//! ([`View`], published after each line and each AI move) and every line it prints go
//! to the page as server-sent events.
//!
//! Security: loopback only unless `--listen` says otherwise; every request must carry
//! the random token printed in the URL; a `Host` that is not `localhost` or an IP
//! address (DNS rebinding) or an `Origin` other than the page's own (another site
//! driving the engine) is refused; only the embedded assets are served; request bodies
//! and log lines are bounded.

mod analysis;
mod paste;
pub mod record;

use super::input::{self, Line, Source};
use super::play::History;
use super::text::board::{json_string, Action, View};
use super::text::{self, TextDialect};
use crate::protocol::text::Playable;
use analysis::{Analysis, Analyst};
use crossbeam_channel::{unbounded, Sender};
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// Largest request body accepted (a command line or an action).
pub const MAX_BODY: usize = 4096;
/// Log lines kept for a page that (re)connects; longer lines are cut.
const LOG_KEEP: usize = 2000;
const LOG_LINE_MAX: usize = 2000;
/// Event streams open at once (each holds a thread).
const MAX_STREAMS: usize = 16;
/// A comment on an idle event stream this often, so a closed page is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// Where the page is served.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub listen: Ipv4Addr,
    /// 0: a free port.
    pub port: u16,
}

/// One line of the session's log as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A line the session read (from stdin or the page).
    In,
    /// A line on stdout.
    Out,
    /// A line on stderr.
    Err,
}

impl Kind {
    fn letter(self) -> &'static str {
        match self {
            Kind::In => "i",
            Kind::Out => "o",
            Kind::Err => "e",
        }
    }
}

#[derive(Default)]
struct HubState {
    /// Bumped at each change.
    seq: u64,
    view: String,
    /// The AI's search as it goes, or its last report (JSON; empty before any).
    thinking: String,
    /// The game behind the view: its positions and its PGN ([`record`]; JSON).
    record: String,
    /// Bumped when the record changes: an event stream sends it only then (it grows
    /// with the game, and the AI's reports come many times a second).
    record_version: u64,
    /// The page's hint or analysis of a position, as far as it got (JSON; empty: none).
    analysis: String,
    /// Numbered log lines, the oldest dropped past [`LOG_KEEP`].
    log: VecDeque<(u64, Kind, String)>,
    next_line: u64,
}

/// What the page sees of the session: its view and its log, with a condition
/// variable the event streams wait on.
#[derive(Default)]
pub struct Hub {
    state: Mutex<HubState>,
    changed: Condvar,
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the view (as JSON); nothing happens when it is the same.
    pub fn set_view(&self, json: String) {
        self.replace(|s| &mut s.view, json);
    }

    /// Sets the AI's search report (as JSON); nothing happens when it is the same.
    pub fn set_thinking(&self, json: String) {
        self.replace(|s| &mut s.thinking, json);
    }

    /// Sets the game behind the view (as JSON).
    pub fn set_record(&self, json: String) {
        let mut s = self.lock();
        if s.record != json {
            s.record = json;
            // With the change, under the same lock: a stream never sees one without the other.
            s.record_version += 1;
            s.seq += 1;
            self.changed.notify_all();
        }
    }

    /// Sets the page's hint or analysis (as JSON; empty: none).
    pub fn set_analysis(&self, json: String) {
        self.replace(|s| &mut s.analysis, json);
    }

    /// Replaces the part of the state `part` picks, waking the event streams if it changed.
    fn replace(&self, part: fn(&mut HubState) -> &mut String, json: String) {
        let mut s = self.lock();
        let field = part(&mut s);
        if *field != json {
            *field = json;
            s.seq += 1;
            self.changed.notify_all();
        }
    }

    /// Adds a line to the log.
    pub fn log(&self, kind: Kind, line: &str) {
        let mut line = line.to_string();
        if line.len() > LOG_LINE_MAX {
            line.truncate(line.floor_char_boundary(LOG_LINE_MAX));
            line.push('…');
        }
        let mut s = self.lock();
        let n = s.next_line;
        s.next_line += 1;
        s.log.push_back((n, kind, line));
        if s.log.len() > LOG_KEEP {
            s.log.pop_front();
        }
        s.seq += 1;
        self.changed.notify_all();
    }

    /// The state as one JSON object: the view, the AI's report, the record (left out
    /// when `record_seen` is its version), the analysis and the log lines numbered
    /// from `from_line` on. Also the next line number, the sequence number and the
    /// record's version.
    fn snapshot(&self, from_line: u64, record_seen: Option<u64>) -> (String, u64, u64, u64) {
        let s = self.lock();
        let lines: Vec<String> = s
            .log
            .iter()
            .filter(|(n, _, _)| *n >= from_line)
            .map(|(n, k, t)| format!("[{n},\"{}\",{}]", k.letter(), json_string(t)))
            .collect();
        let or_null = |part: &'_ String| -> String {
            if part.is_empty() {
                "null".to_string()
            } else {
                part.clone()
            }
        };
        let record = match record_seen {
            Some(v) if v == s.record_version => String::new(),
            _ => format!("\"record\":{},", or_null(&s.record)),
        };
        let json = format!(
            "{{\"view\":{},\"thinking\":{},{record}\"analysis\":{},\"log\":[{}]}}",
            or_null(&s.view),
            or_null(&s.thinking),
            or_null(&s.analysis),
            lines.join(",")
        );
        (json, s.next_line, s.seq, s.record_version)
    }

    /// Waits until the sequence number passes `seq` or `timeout` passes; the new one.
    fn wait_change(&self, seq: u64, timeout: Duration) -> u64 {
        let s = self.lock();
        let (s, _) = self
            .changed
            .wait_timeout_while(s, timeout, |s| s.seq == seq)
            .unwrap_or_else(|e| e.into_inner());
        s.seq
    }
}

/// A writer that passes everything on to `inner` and copies each whole line to the
/// hub's log. A line still unfinished when the writer is flushed is a prompt (the
/// session flushes after each whole line and after a prompt): it is not logged.
pub struct Tee<W: Write> {
    inner: W,
    hub: Arc<Hub>,
    kind: Kind,
    partial: Vec<u8>,
}

impl<W: Write> Tee<W> {
    pub fn new(inner: W, hub: Arc<Hub>, kind: Kind) -> Self {
        Tee {
            inner,
            hub,
            kind,
            partial: Vec::new(),
        }
    }
}

impl<W: Write> Write for Tee<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.hub.log(self.kind, line.trim_end_matches('\r'));
                self.partial.clear();
            } else if self.partial.len() < LOG_LINE_MAX + 4 {
                self.partial.push(b);
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.partial.clear();
        self.inner.flush()
    }
}

/// A random token from the operating system (128 bits, hex).
pub fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom for the page's token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The running page server.
pub struct Display {
    pub addr: SocketAddr,
    pub token: String,
    server: Arc<Server>,
}

impl Display {
    /// The page's address with its token, as printed on stderr.
    pub fn url(&self) -> String {
        // Listening on every interface: this machine reaches it on loopback.
        let ip = match self.addr.ip() {
            ip if ip.is_unspecified() => Ipv4Addr::LOCALHOST.into(),
            ip => ip,
        };
        self.url_at(&ip.to_string())
    }

    fn url_at(&self, ip: &str) -> String {
        format!("http://{ip}:{}/?token={}", self.addr.port(), self.token)
    }

    /// Listening on every interface (`--listen 0.0.0.0`): the line that says which
    /// address another machine opens. The page answers only to an IP address (a name
    /// could be DNS rebinding), so it names this machine's outward one where the
    /// routing table gives one, else says what to put in.
    pub fn elsewhere(&self) -> Option<String> {
        if !self.addr.ip().is_unspecified() {
            return None;
        }
        Some(match outward_address() {
            Some(ip) => format!(
                "from another machine open {} (this machine's address on its default \
                 route; another of its IP addresses works too, a host name does not)",
                self.url_at(&ip.to_string())
            ),
            None => format!(
                "from another machine open {} with this machine's IP address for ADDRESS \
                 (a host name is refused)",
                self.url_at("ADDRESS")
            ),
        })
    }
}

/// This machine's address on its default route, if it has one: a UDP socket
/// "connected" to a documentation address (RFC 5737) sends nothing, but takes the
/// source address the routing table would use.
fn outward_address() -> Option<Ipv4Addr> {
    let socket = std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    match socket.local_addr().ok()?.ip() {
        std::net::IpAddr::V4(ip) if !ip.is_loopback() && !ip.is_unspecified() => Some(ip),
        _ => None,
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        self.server.unblock();
    }
}

/// Starts serving the page for `hub`; what the page sends goes to `lines`. `commands`
/// are the examples the page's command box names (the language's own).
pub fn start(
    config: Config,
    commands: &'static str,
    hub: Arc<Hub>,
    lines: Sender<Line>,
    study: Study,
) -> Result<Display, String> {
    let token = random_token()?;
    let server = Server::http((config.listen, config.port))
        .map_err(|e| format!("cannot serve the page on {}: {e}", config.listen))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the page's server has no IP address")?;
    let server = Arc::new(server);
    let ctx = Arc::new(Ctx {
        token: token.clone(),
        port: addr.port(),
        commands,
        hub,
        lines,
        streams: AtomicUsize::new(0),
        study,
    });
    let srv = server.clone();
    std::thread::Builder::new()
        .name("display".into())
        .spawn(move || {
            for request in srv.incoming_requests() {
                ctx.clone().handle(request);
            }
        })
        .map_err(|e| format!("cannot start the page's server: {e}"))?;
    Ok(Display {
        addr,
        token,
        server,
    })
}

/// What the page's study tools reach: the analysis (`/analysis`) and the reading of a
/// pasted position or game into the dialect's set-up lines (`/paste`). A server
/// without them refuses those requests.
#[derive(Default)]
pub struct Study {
    pub analysis: Option<Arc<dyn Analysis>>,
    pub paste: Option<Box<PasteFn>>,
}

/// Reads a paste into the dialect's set-up lines, or says why it cannot.
pub type PasteFn = dyn Fn(&str) -> Result<Vec<String>, String> + Send + Sync;

/// What the request handlers share.
struct Ctx {
    study: Study,
    token: String,
    port: u16,
    commands: &'static str,
    hub: Arc<Hub>,
    lines: Sender<Line>,
    streams: AtomicUsize,
}

/// Why a request is refused, with its status.
fn refuse(status: u16, why: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    with_headers(Response::from_string(format!("{why}\n")).with_status_code(status))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// The headers every answer carries: nothing cached, no sniffing, no framing by
/// other sites, the token never sent on as a referrer, scripts only from here.
fn with_headers<R: Read>(r: Response<R>) -> Response<R> {
    r.with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("X-Frame-Options", "DENY"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        ))
}

/// True for a `Host` header this server answers to: `localhost` or an IP address
/// (never a name, which DNS rebinding could point here), with our port.
pub fn host_allowed(host: &str, port: u16) -> bool {
    let Some((name, p)) = host.rsplit_once(':') else {
        return false;
    };
    if p.parse::<u16>() != Ok(port) {
        return false;
    }
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name.parse::<Ipv4Addr>().is_ok()
        || name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .is_some_and(|n| n.parse::<std::net::Ipv6Addr>().is_ok())
}

/// Compares without stopping at the first difference.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

impl Ctx {
    /// Why `request` is refused before its path is looked at: a Host other than ours
    /// (DNS rebinding), another site's Origin, no or the wrong token.
    fn refusal(&self, request: &Request, query: &str) -> Option<(u16, &'static str)> {
        let header_value = |name: &str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
                .map(|h| h.value.as_str().to_string())
        };
        let host = header_value("Host").unwrap_or_default();
        let origin = header_value("Origin");
        let token = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("token="))
            .unwrap_or("");
        if !host_allowed(&host, self.port) {
            Some((403, "refused: unknown Host"))
        } else if origin.is_some_and(|o| o != format!("http://{host}")) {
            Some((403, "refused: foreign Origin"))
        } else if !same_secret(token, &self.token) {
            Some((403, "refused: no or wrong token"))
        } else {
            None
        }
    }

    fn handle(self: Arc<Self>, mut request: Request) {
        let (path, query) = match request.url().split_once('?') {
            Some((p, q)) => (p.to_string(), q.to_string()),
            None => (request.url().to_string(), String::new()),
        };
        if let Some((status, why)) = self.refusal(&request, &query) {
            log::info!("display: {why} ({} {path})", request.method());
            let _ = request.respond(refuse(status, why));
            return;
        }
        let method = request.method().clone();
        let answer = match (method, path.as_str()) {
            (Method::Get, "/") => asset(
                INDEX_HTML
                    .replace("{{TOKEN}}", &self.token)
                    .replace("{{COMMANDS}}", self.commands),
                "text/html; charset=utf-8",
            ),
            (Method::Get, "/app.js") => asset(APP_JS.to_string(), "text/javascript"),
            (Method::Get, "/style.css") => asset(STYLE_CSS.to_string(), "text/css"),
            (Method::Get, "/state") => asset(self.hub.snapshot(0, None).0, "application/json"),
            (Method::Get, "/events") => return self.stream(request),
            (Method::Post, "/analysis") => match read_body(&mut request) {
                Ok(text) => match self.study.analysis.as_ref() {
                    Some(a) => match a.request(&text) {
                        Ok(()) => with_headers(Response::from_string("").with_status_code(204)),
                        Err(why) => refuse(409, &why),
                    },
                    None => refuse(404, "no analysis here"),
                },
                Err((status, why)) => refuse(status, why),
            },
            (Method::Post, "/paste") => match read_text(&mut request) {
                Ok(text) => return self.paste(request, &text),
                Err((status, why)) => refuse(status, why),
            },
            (Method::Post, "/command" | "/action") => match read_body(&mut request) {
                Ok(text) => match self.post_line(&path, text) {
                    Ok(line) => return self.send_line(request, line),
                    Err(refusal) => refusal,
                },
                Err((status, why)) => refuse(status, why),
            },
            (
                _,
                "/" | "/app.js" | "/style.css" | "/state" | "/events" | "/command" | "/action"
                | "/analysis" | "/paste",
            ) => refuse(405, "method not allowed"),
            _ => refuse(404, "not found"),
        };
        let _ = request.respond(answer);
    }

    /// A posted command or action `line` goes to the session, answered first: after
    /// `quit` the program may be gone before an answer could be written.
    fn send_line(&self, request: Request, line: Line) {
        let _ = request.respond(with_headers(
            Response::from_string("").with_status_code(204),
        ));
        if self.lines.send(line).is_err() {
            log::info!("display: the session has ended");
        }
    }

    /// A pasted FEN, move list or PGN: the dialect's set-up lines for it go to the
    /// session as one paste (logged line by line), so the dialect runs each as a typed
    /// one, stopping at the first it refuses; a paste that cannot be read whole is
    /// refused here, in one line, before anything is typed.
    fn paste(&self, request: Request, text: &str) {
        let Some(paste) = self.study.paste.as_ref() else {
            let _ = request.respond(refuse(404, "no paste here"));
            return;
        };
        match paste(text) {
            Ok(lines) => {
                let _ = request.respond(with_headers(
                    Response::from_string("").with_status_code(204),
                ));
                for text in &lines {
                    self.hub.log(Kind::In, text);
                }
                let line = Line {
                    source: Source::PagePaste,
                    ..Line::new(lines.join("\n"))
                };
                if self.lines.send(line).is_err() {
                    log::info!("display: the session has ended");
                }
            }
            Err(why) => {
                let _ = request.respond(refuse(400, &format!("cannot paste: {why}")));
            }
        }
    }

    /// A posted command (a text-language line) or action: the line for the session's
    /// input (logged), or why it is refused.
    fn post_line(
        &self,
        path: &str,
        text: String,
    ) -> Result<Line, Response<std::io::Cursor<Vec<u8>>>> {
        let source = if path == "/action" {
            if Action::parse(&text).is_none() {
                return Err(refuse(400, "unknown action"));
            }
            Source::PageAction
        } else {
            Source::Page
        };
        let shown = match source {
            Source::PageAction => format!("[page] {text}"),
            _ => text.clone(),
        };
        self.hub.log(Kind::In, &shown);
        Ok(Line {
            source,
            ..Line::new(text)
        })
    }

    /// An event stream: the whole state at once, then the view and the new log lines
    /// after each change, on a thread of its own until the page goes away.
    fn stream(self: Arc<Self>, request: Request) {
        if self.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
            self.streams.fetch_sub(1, Ordering::SeqCst);
            let _ = request.respond(refuse(503, "too many pages open"));
            return;
        }
        let ctx = self.clone();
        let spawned = std::thread::Builder::new()
            .name("display-events".into())
            .spawn(move || {
                let _ = ctx.run_stream(request.into_writer());
                ctx.streams.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            self.streams.fetch_sub(1, Ordering::SeqCst);
        }
    }

    fn run_stream(&self, mut w: Box<dyn Write + Send>) -> std::io::Result<()> {
        // tiny_http's own responses are buffered into chunks; an event stream must
        // reach the page at once, so it is written raw: a fixed head, then events.
        w.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
              X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        )?;
        let mut from_line = 0;
        let mut record_seen = None;
        let mut last_ping = Instant::now();
        loop {
            let (json, next_line, seq, record) = self.hub.snapshot(from_line, record_seen);
            from_line = next_line;
            record_seen = Some(record);
            w.write_all(format!("data: {json}\n\n").as_bytes())?;
            w.flush()?;
            loop {
                if self.hub.wait_change(seq, KEEPALIVE) != seq {
                    break;
                }
                if last_ping.elapsed() >= KEEPALIVE {
                    w.write_all(b": keep-alive\n\n")?;
                    w.flush()?;
                    last_ping = Instant::now();
                }
            }
        }
    }
}

fn asset(body: String, content_type: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    with_headers(Response::from_string(body).with_header(header("Content-Type", content_type)))
}

/// The body of a POST: at most [`MAX_BODY`] bytes of UTF-8, one line.
fn read_body(request: &mut Request) -> Result<String, (u16, &'static str)> {
    let text = read_text(request)?;
    if text.contains(['\r', '\n']) {
        return Err((400, "one line at a time"));
    }
    Ok(text)
}

/// The body of a POST: at most [`MAX_BODY`] bytes of UTF-8, any number of lines (a
/// pasted PGN), without the final line end.
fn read_text(request: &mut Request) -> Result<String, (u16, &'static str)> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err((413, "body too large"));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|_| (400, "unreadable body"))?;
    if body.len() > MAX_BODY {
        return Err((413, "body too large"));
    }
    let text = String::from_utf8(body).map_err(|_| (400, "the body is not UTF-8"))?;
    Ok(text.trim_end_matches(['\r', '\n']).to_string())
}

/// Runs dialect `D`'s text session with the page served as `config` says: stdin and
/// the page both feed it, its output goes to stdout and stderr as usual and to the
/// page's log. Prints the page's address on stderr; returns the exit status when the
/// session ends (`quit` from either side: end of stdin does not end it, the page may
/// still be in use).
pub fn run<D: Playable>(bin: &str, config: Config, setup: text::Setup<D::Options>) -> u8 {
    use std::io::IsTerminal;
    let hub = Arc::new(Hub::default());
    let (tx, rx) = unbounded();
    let analyst = match Analyst::<D>::start(hub.clone()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{bin}: {e}");
            return 1;
        }
    };
    // Who plays each side, for a paste's set-up (which hands one side to the AI).
    let players = Arc::new(Mutex::new(["manual", "AI"]));
    let paste_players = players.clone();
    let study = Study {
        analysis: Some(analyst.clone()),
        paste: Some(Box::new(move |text: &str| {
            let players = *paste_players.lock().unwrap_or_else(|e| e.into_inner());
            paste::lines::<D>(text, players)
        })),
    };
    let display = match start(config, D::PAGE_COMMANDS, hub.clone(), tx.clone(), study) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{bin}: {e}");
            return 1;
        }
    };
    eprintln!("{bin}: the board is at {}", display.url());
    if let Some(line) = display.elsewhere() {
        eprintln!("{bin}: {line}");
    }
    let terminal = std::io::stdin().is_terminal();
    feed_stdin(bin, display.url(), &hub, tx, terminal);
    let publish = publisher::<D>(&hub, players, analyst);
    let mut out = Tee::new(std::io::stdout(), hub.clone(), Kind::Out);
    let mut err = Tee::new(std::io::stderr(), hub, Kind::Err);
    let interactive = terminal;
    let status = text::run::<D>(
        None,
        rx,
        &mut out,
        &mut err,
        interactive,
        setup,
        Some(publish),
    );
    drop(display);
    status as u8
}

/// Stdin's lines go to the session (and the page's log) from a thread of their own.
/// End of input does not end the session (the page may be in use): a person who
/// pressed Ctrl-D is told so, on a line of its own after the prompt.
fn feed_stdin(bin: &str, url: String, hub: &Arc<Hub>, tx: Sender<Line>, terminal: bool) {
    let stdin = input::spawn_stdin();
    let bin = bin.to_string();
    let hub = hub.clone();
    let _ = std::thread::Builder::new()
        .name("stdin-to-session".into())
        .spawn(move || {
            for line in stdin {
                hub.log(Kind::In, &line.text);
                if tx.send(line).is_err() {
                    return;
                }
            }
            if terminal {
                eprintln!(
                    "\n{bin}: end of input; the board is still served at {url}: \
                     quit there (the command box), or press Ctrl-C here, to leave"
                );
            }
        });
}

/// What the session shows the page: its view (and who plays each side, for a paste),
/// the AI's thinking, the game's record (which the analysis follows), and when the AI
/// is busy (the analysis then waits).
fn publisher<D: Playable>(
    hub: &Arc<Hub>,
    players: Arc<Mutex<[&'static str; 2]>>,
    analyst: Arc<Analyst<D>>,
) -> text::Publisher<<D as TextDialect>::Game> {
    let (view_hub, thinking_hub, record_hub) = (hub.clone(), hub.clone(), hub.clone());
    let (game_analyst, busy_analyst) = (analyst.clone(), analyst);
    text::Publisher {
        view: Box::new(move |v: &View| {
            *players.lock().unwrap_or_else(|e| e.into_inner()) = v.players;
            view_hub.set_view(v.to_json())
        }),
        thinking: Box::new(move |t: &text::Thinking| thinking_hub.set_thinking(t.to_json())),
        game: Box::new(
            move |pos: &<D as TextDialect>::Game, history: &History<<D as TextDialect>::Game>| {
                let (positions, json) = record::record::<D>(pos, history);
                record_hub.set_record(json);
                game_analyst.set_game(positions);
            },
        ),
        ai_busy: Box::new(move |busy| busy_analyst.ai_busy(busy)),
    }
}

#[cfg(test)]
mod tests;

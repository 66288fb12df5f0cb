//! What the integration tests share: the real `ataxx` binary (or another of the crate's
//! programs, [`Engine::spawn_bin`]) as a child process, driven through its stdin and
//! read through its stdout, where every read has a deadline (so a hung program fails a
//! test instead of hanging the suite) and the process is killed when the handle is
//! dropped.
//!
//! A writer thread owns the child's stdin (a test never blocks on a full pipe), a reader
//! thread sends each stdout line (without its `\n`, otherwise as printed; invalid UTF-8
//! replaced and counted) down a channel, and a third thread keeps the tail of stderr for
//! failure messages. Each test file that uses this says `mod common;`; not every file
//! uses every helper.

#![allow(dead_code)]

/// One `#[test]` per named generic promise of the enclosing suite (`super::NAME::<D>()`),
/// for the type `D` the invoking module imports: the suites' per-game modules list the
/// promises that need no data of their own this way.
macro_rules! promises_for_d {
    ($($name:ident),+ $(,)?) => {
        $(
            #[test]
            fn $name() {
                super::$name::<D>();
            }
        )+
    };
}

pub mod fake;
pub mod prover;
pub mod remote;
pub mod test_loa;
pub mod tty;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Starts `bin args` in `dir` with its three standard streams piped.
pub fn spawn_piped<S: AsRef<std::ffi::OsStr>>(
    bin: &str,
    args: &[S],
    dir: &Path,
) -> std::io::Result<Child> {
    Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

/// Runs `bin args` in `dir` with `input` on stdin, to its end; killed after 60 s (a
/// hung program fails its test instead of hanging the suite).
pub fn run_with_input(bin: &str, dir: &Path, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = spawn_piped(bin, args, dir).unwrap_or_else(|e| panic!("starting {bin}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let pid = child.id();
    let (tx, rx) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    let out = child.wait_with_output().expect("waiting for the program");
    let _ = tx.send(());
    let _ = watchdog.join();
    out
}

/// The program under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ataxx");

/// The binary of each game the registry knows ([`engine::variant::Variant`]): cargo
/// builds them all beside [`BIN`], each named after its game.
pub fn binary(variant: engine::variant::Variant) -> String {
    Path::new(BIN)
        .with_file_name(variant.name())
        .to_string_lossy()
        .into_owned()
}

/// Every registered game with its binary, in the registry's order.
pub fn binaries() -> Vec<(&'static str, String)> {
    engine::variant::Variant::ALL
        .iter()
        .map(|&v| (v.name(), binary(v)))
        .collect()
}

/// How much of the child's stderr is kept.
const STDERR_KEEP: usize = 1 << 20;

/// What waiting for the next output line produced.
#[derive(Debug)]
pub enum Next {
    Line(String),
    /// The program closed its stdout (normally: it exited).
    Eof,
    /// Nothing arrived in time.
    Timeout,
}

/// Kills the child from anywhere (no effect once it has exited and been reaped).
#[derive(Clone)]
pub struct Killer(Arc<Mutex<Child>>);

impl Killer {
    pub fn kill(&self) {
        let mut c = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// Everything a program printed before it exited.
pub struct Transcript {
    pub status: ExitStatus,
    /// Stdout, one entry per line (see [`Engine`] for what a line is).
    pub lines: Vec<String>,
    /// The tail of stderr (all of it unless it was huge), lossily decoded.
    pub stderr: String,
    /// Stdout lines that were not valid UTF-8.
    pub invalid_utf8_lines: usize,
}

impl Transcript {
    /// Stdout as one string, each line followed by `\n`.
    pub fn stdout(&self) -> String {
        self.lines.iter().flat_map(|l| [l.as_str(), "\n"]).collect()
    }
}

/// One running copy of the program.
pub struct Engine {
    child: Arc<Mutex<Child>>,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
    invalid_utf8: Arc<AtomicUsize>,
}

impl Engine {
    /// Starts the program with `args` in the current directory; panics if it cannot.
    pub fn spawn(args: &[&str]) -> Engine {
        Engine::spawn_in(Path::new("."), args).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Starts the program with `args` and its working directory set to `dir`.
    pub fn spawn_in(dir: &Path, args: &[&str]) -> Result<Engine, String> {
        Engine::spawn_bin_in(BIN, dir, args)
    }

    /// Starts another of the crate's programs (`env!("CARGO_BIN_EXE_reversi")`, …) with
    /// `args` in the current directory; panics if it cannot.
    pub fn spawn_bin(bin: &str, args: &[&str]) -> Engine {
        Engine::spawn_bin_in(bin, Path::new("."), args).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Starts program `bin` with `args` and its working directory set to `dir`.
    pub fn spawn_bin_in(bin: &str, dir: &Path, args: &[&str]) -> Result<Engine, String> {
        let mut child =
            spawn_piped(bin, args, dir).map_err(|e| format!("cannot start {bin}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");

        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for bytes in in_rx {
                if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
                    return;
                }
            }
            // The channel closed: dropping `stdin` here closes the child's input.
        });

        let (out_tx, output) = mpsc::channel();
        let invalid_utf8 = Arc::new(AtomicUsize::new(0));
        let invalid = invalid_utf8.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                let line = match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(s) => s,
                    Err(e) => {
                        invalid.fetch_add(1, Ordering::Relaxed);
                        String::from_utf8_lossy(e.as_bytes()).into_owned()
                    }
                };
                if out_tx.send(line).is_err() {
                    return;
                }
            }
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let tail = stderr.clone();
        let stderr_reader = thread::spawn(move || {
            let mut pipe = stderr_pipe;
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend_from_slice(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_KEEP);
                t.drain(..excess);
            }
        });

        Ok(Engine {
            child: Arc::new(Mutex::new(child)),
            input: Some(in_tx),
            output,
            stderr,
            stderr_reader: Some(stderr_reader),
            invalid_utf8,
        })
    }

    /// Writes raw bytes to the program's stdin (ignored once stdin is closed or the
    /// program has gone: the reads then report it).
    pub fn send_bytes(&self, bytes: &[u8]) {
        if let Some(input) = &self.input {
            let _ = input.send(bytes.to_vec());
        }
    }

    /// Writes `line` and a newline.
    pub fn send(&self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the program's stdin once everything sent so far is written.
    pub fn close_stdin(&mut self) {
        self.input = None;
    }

    /// The next line, waiting until `deadline` (`None`: without limit).
    pub fn next_until(&self, deadline: Option<Instant>) -> Next {
        let got = match deadline {
            Some(d) => self
                .output
                .recv_timeout(d.saturating_duration_since(Instant::now())),
            None => self
                .output
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Eof,
        }
    }

    /// The next line, waiting at most `timeout`.
    pub fn next(&self, timeout: Duration) -> Next {
        self.next_until(Instant::now().checked_add(timeout))
    }

    /// The next line, or a panic after `timeout` or at end of output.
    pub fn recv(&self, timeout: Duration) -> String {
        match self.next(timeout) {
            Next::Line(l) => l,
            Next::Timeout => panic!("no output within {timeout:?}"),
            Next::Eof => panic!("the program closed its output"),
        }
    }

    /// Every line that arrives within `window` (always waits the whole window); panics
    /// if the output ends meanwhile.
    pub fn lines_within(&self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut lines = Vec::new();
        loop {
            match self.next_until(Some(deadline)) {
                Next::Line(l) => lines.push(l),
                Next::Timeout => return lines,
                Next::Eof => panic!("the program closed its output; it had printed {lines:?}"),
            }
        }
    }

    /// Lines up to and including the first for which `done` holds; panics, showing what
    /// came, if none does within `timeout` or the output ends first.
    pub fn wait_for(&self, timeout: Duration, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.next_until(Some(deadline)) {
                Next::Line(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Next::Timeout => {
                    panic!("awaited line not seen within {timeout:?}; saw {seen:?}")
                }
                Next::Eof => panic!("output ended before the awaited line; saw {seen:?}"),
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn wait_for_prefix(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.wait_for(timeout, |l| l.starts_with(prefix))
    }

    /// The exit status if the program exits within `timeout`, `Ok(None)` if not.
    pub fn wait_exit(&self, timeout: Duration) -> std::io::Result<Option<ExitStatus>> {
        let deadline = Instant::now() + timeout;
        loop {
            let status = self
                .child
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .try_wait()?;
            if status.is_some() || Instant::now() >= deadline {
                return Ok(status);
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The exit status; panics if the program has not exited within `timeout`.
    pub fn expect_exit(&self, timeout: Duration) -> ExitStatus {
        self.wait_exit(timeout)
            .expect("waiting for the program")
            .unwrap_or_else(|| panic!("the program did not exit within {timeout:?}"))
    }

    /// Closes stdin and collects all output until the program exits; panics if the
    /// output has not ended and the program exited within `timeout`.
    pub fn finish(mut self, timeout: Duration) -> Transcript {
        self.close_stdin();
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.next_until(Some(deadline)) {
                Next::Line(l) => lines.push(l),
                Next::Eof => break,
                Next::Timeout => panic!(
                    "output did not end within {timeout:?}; last lines {:?}",
                    &lines[lines.len().saturating_sub(5)..]
                ),
            }
        }
        let status = self.expect_exit(deadline.saturating_duration_since(Instant::now()));
        // The program has exited, so its stderr is closed: take all of it.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        Transcript {
            status,
            lines,
            stderr: self.stderr_tail(STDERR_KEEP),
            invalid_utf8_lines: self.invalid_utf8.load(Ordering::Relaxed),
        }
    }

    /// The last `max` bytes of stderr seen so far, lossily decoded and trimmed.
    pub fn stderr_tail(&self, max: usize) -> String {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let start = t.len().saturating_sub(max);
        String::from_utf8_lossy(&t[start..]).trim_end().to_string()
    }

    /// A handle that kills the program from another thread.
    pub fn killer(&self) -> Killer {
        Killer(self.child.clone())
    }

    pub fn kill(&self) {
        self.killer().kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A game ID for `host ID` / `join ID@HOST` that no other test (in this process or a
/// concurrent one) uses: the process ID, a counter, and `tag` for failure messages.
pub fn unique_game_id(tag: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{tag}_{}_{n}", std::process::id())
}

/// A fresh game ID (see [`unique_game_id`]) whose port for `game` is free just now. The
/// derived ports lie in the range the system also gives outgoing connections, so a
/// test that cannot retry its `host` picks its ID this way.
pub fn free_game_id(game: &str, tag: &str) -> String {
    use engine::protocol::remote::port_for;
    use std::net::{Ipv4Addr, TcpListener};
    for _ in 0..20 {
        let id = unique_game_id(tag);
        if TcpListener::bind((Ipv4Addr::LOCALHOST, port_for(game, &id))).is_ok() {
            return id;
        }
    }
    panic!("no free port for 20 IDs of {game}");
}

/// Reads the next `expected.len()` lines of `e` and checks them in order; a `*` in an
/// expected line stands for any text. Panics (with the program's stderr) on the first
/// line that differs or does not come within `timeout`.
pub fn expect_lines(e: &Engine, timeout: Duration, expected: &[&str]) {
    for want in expected {
        let got = e.recv(timeout);
        let ok = match want.split_once('*') {
            Some((head, tail)) => {
                got.len() >= head.len() + tail.len() && got.starts_with(head) && got.ends_with(tail)
            }
            None => got == *want,
        };
        assert!(
            ok,
            "expected {want:?}, got {got:?}; stderr: {}",
            e.stderr_tail(2000)
        );
    }
}

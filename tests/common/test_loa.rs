//! The course's `#*` integration harness (`test-loa` and `tester.py` of CS61B Spring
//! 2020, as `loa-text-protocol.md` describes them), in Rust, driving our `loa` binary.
//!
//! A test is `NAME-1.in` (and `NAME-2.in` for a second program playing the first). Its
//! `#* COMMAND` line names the program: we always run our binary, passing on the
//! command's `--` options (so `staff-loa --strict` becomes `loa --strict`). Every other
//! line is sent verbatim, except the directives `#*time M G`, `#*move`, `#*move/win`,
//! `#*move/win+`, `#*win+` and `#*remote move/win[+]`. Stdout is filtered as the
//! original does (everything up to the last `>` removed; `* …` lines are messages;
//! dump blocks and printed result lines make the `.out`), and the `.out` must equal
//! the `.std` after removing `#…`, trailing blanks and empty lines. More than 3000
//! lines of output fails; at the end stdin is closed and the program must exit with
//! status 0 within 5 s.
//!
//! Our own tests may add `NAME-1.stderr`: the expected stderr, compared the same way
//! (the course harness ignores stderr; ours checks every error message).
//!
//! `harness.rs` runs it (its `loa` module).

use regex::Regex;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ChildStdin;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The program under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_loa");

const MAX_OUTPUT_LINES: usize = 3000;
const MAX_ERROR_LINES: usize = 3000;
/// Seconds a program has to exit once its input is closed, and `#*win+` to answer.
const SHORT_WAIT: f64 = 5.0;
const QUANTUM: Duration = Duration::from_millis(50);
/// How many transcript lines a failure report shows.
const TRANSCRIPT_TAIL: usize = 40;

struct Patterns {
    command: Regex,
    comment_or_blank: Regex,
    directive: Regex,
    prompt: Regex,
    win: Regex,
    message: Regex,
    spaces: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).expect("harness regex");
        let win = r"\s*\*\s*((?:Black|White)\s+wins\.|Tie game\.)\s*$";
        let mv = r"\s*\*\s*(?P<move>[a-hA-H][1-8]-[a-hA-H][1-8])";
        Patterns {
            command: re(r"^\s*#\*\s*(.*?)\s*$"),
            comment_or_blank: re(r"^\s*(#.*)?$"),
            directive: re(
                r"^(?:(move/win(\+?))|(remote\s+move/win(\+?))|(move)|(win\+)|time\s+([\d.]+)\s+([\d/]+))",
            ),
            prompt: re(r"^.*> *"),
            win: re(&format!("^{win}")),
            message: re(&format!("^(?:(?P<win>{win})|{mv})")),
            spaces: re(" +"),
        }
    })
}

/// What a program prints, as the harness sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Msg {
    Line(String),
    /// End of stream (the program's output ended, or the other program is gone).
    Eos,
}

/// Why a controller stopped early (its reason is in the program's end message).
struct Terminate;

type Res<T> = Result<T, Terminate>;

/// What one program left behind.
#[derive(Clone, Debug, Default)]
pub struct ProgramReport {
    /// The `.out` lines (dumps and printed result lines).
    pub out: Vec<String>,
    /// Everything it printed on stderr.
    pub stderr: Vec<String>,
    /// Why it failed, if it did (the harness's "Program N ended with").
    pub end_message: Option<String>,
    /// The last commands and outputs, for failure reports.
    pub transcript: Vec<String>,
}

/// The state a program's threads share.
#[derive(Default)]
struct Shared {
    out: Vec<String>,
    stderr: Vec<String>,
    end_message: Option<String>,
    transcript: Vec<String>,
}

impl Shared {
    fn end(&mut self, reason: impl Into<String>) {
        if self.end_message.is_none() {
            self.end_message = Some(reason.into());
        }
    }

    fn log(&mut self, id: usize, kind: &str, line: &str) {
        self.transcript
            .push(format!("[{id}]{kind} {}", line.trim_end_matches('\n')));
        let excess = self.transcript.len().saturating_sub(TRANSCRIPT_TAIL);
        self.transcript.drain(..excess);
    }
}

/// Another program's handles: where to send it moves, and how to stop it.
#[derive(Clone)]
struct Handle {
    moves: Sender<Msg>,
    msgs: Sender<Msg>,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
}

impl Handle {
    fn close_stdin(&self) {
        self.stdin.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// One program under the harness.
struct Prog {
    id: usize,
    child: Arc<Mutex<std::process::Child>>,
    me: Handle,
    msgs: Receiver<Msg>,
    moves: Receiver<Msg>,
    other: Option<Handle>,
    shared: Arc<Mutex<Shared>>,
    move_limit: f64,
    game_limit: f64,
    remaining: f64,
    readers: Vec<thread::JoinHandle<()>>,
}

fn lock(s: &Arc<Mutex<Shared>>) -> std::sync::MutexGuard<'_, Shared> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

impl Prog {
    fn spawn(id: usize, args: &[String], dir: &Path) -> Result<Prog, String> {
        let mut child = super::spawn_piped(BIN, args, dir)
            .map_err(|e| format!("could not execute {BIN}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let (msgs_tx, msgs) = mpsc::channel();
        let (moves_tx, moves) = mpsc::channel();

        let sh = shared.clone();
        let tx = msgs_tx.clone();
        let out_reader = thread::spawn(move || {
            let p = patterns();
            let mut dumping = false;
            let mut count = 0;
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                count += 1;
                if count > MAX_OUTPUT_LINES {
                    lock(&sh).end("too much output");
                    break;
                }
                let raw: String = buf
                    .iter()
                    .filter(|b| b.is_ascii())
                    .map(|&b| b as char)
                    .collect();
                let raw = raw.trim_end_matches(['\n', '\r']);
                let mut s = lock(&sh);
                s.log(id, ">", raw);
                let line = p.prompt.replace(raw, "").into_owned();
                if dumping {
                    if line.starts_with("===") {
                        dumping = false;
                    }
                    s.out.push(line);
                } else if line.trim_start().starts_with('*') && s.end_message.is_none() {
                    let _ = tx.send(Msg::Line(line));
                } else if line.starts_with("===") {
                    s.out.push(line);
                    dumping = true;
                }
            }
            let _ = tx.send(Msg::Eos);
        });
        let sh = shared.clone();
        let err_reader = thread::spawn(move || {
            let mut count = 0;
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                count += 1;
                let mut s = lock(&sh);
                s.log(id, "E>", &line);
                if line.contains("panicked at") {
                    s.end(format!("terminated with a panic: {line}"));
                }
                if count > MAX_ERROR_LINES {
                    s.end("too much error output");
                    break;
                }
                s.stderr.push(line);
            }
        });
        Ok(Prog {
            id,
            child: Arc::new(Mutex::new(child)),
            me: Handle {
                moves: moves_tx,
                msgs: msgs_tx,
                stdin: Arc::new(Mutex::new(Some(stdin))),
            },
            msgs,
            moves,
            other: None,
            shared,
            move_limit: 10.0,
            game_limit: 60.0,
            remaining: 60.0,
            readers: vec![out_reader, err_reader],
        })
    }

    fn send(&self, text: &str) {
        lock(&self.shared).log(self.id, "<", text);
        let mut stdin = self.me.stdin.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = stdin.as_mut() {
            if s.write_all(text.as_bytes())
                .and_then(|_| s.flush())
                .is_err()
            {
                *stdin = None;
            }
        }
    }

    fn send_command(&self, command: &str) {
        if command.ends_with('\n') {
            self.send(command)
        } else {
            self.send(&format!("{command}\n"))
        }
    }

    /// Ends this program's run (and the other's) with `reason`.
    fn error_exit(&self, reason: impl Into<String>) -> Terminate {
        lock(&self.shared).end(reason);
        if let Some(o) = &self.other {
            let _ = o.moves.send(Msg::Eos);
            let _ = o.msgs.send(Msg::Eos);
            o.close_stdin();
        }
        Terminate
    }

    fn timed_get(&mut self, from_other: bool, what: &str) -> Res<Msg> {
        let budget = self.move_limit.min(self.remaining);
        let start = Instant::now();
        let deadline = start + Duration::from_secs_f64(budget.max(0.0));
        loop {
            if lock(&self.shared).end_message.is_some() {
                return Err(Terminate);
            }
            let now = Instant::now();
            if now >= deadline {
                self.remaining -= now.duration_since(start).as_secs_f64();
                return Err(self.error_exit(format!("time limit exceeded {what}")));
            }
            let queue = if from_other { &self.moves } else { &self.msgs };
            match queue.recv_timeout(QUANTUM.min(deadline - now)) {
                Ok(m) => {
                    self.remaining -= start.elapsed().as_secs_f64();
                    return Ok(m);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Msg::Eos),
            }
        }
    }

    /// The next message of ours, passed on to the other program.
    fn our_move(&mut self, win_allowed: bool) -> Res<String> {
        let Msg::Line(msg) = self.timed_get(false, "waiting for my move")? else {
            return Err(Terminate);
        };
        let p = patterns();
        let msg = p.spaces.replace_all(&msg, " ").into_owned();
        let Some(m) = p.message.captures(&msg) else {
            return Err(self.error_exit(format!("malformed move or win message: {msg}")));
        };
        if let Some(o) = &self.other {
            let _ = o.moves.send(Msg::Line(msg.clone()));
        }
        if m.name("win").is_some() && !win_allowed {
            return Err(self.error_exit("unexpected win message"));
        }
        Ok(msg)
    }

    fn remote_move(&mut self) -> Res<String> {
        let Msg::Line(msg) = self.timed_get(true, "waiting for opponent")? else {
            return Err(Terminate);
        };
        let p = patterns();
        let msg = p.spaces.replace_all(&msg, " ").into_owned();
        if !p.message.is_match(&msg) {
            return Err(self.error_exit(format!("malformed move or win message: {msg}")));
        }
        Ok(msg)
    }

    fn print(&self, msg: &str) {
        lock(&self.shared).out.push(msg.trim_end().to_string());
    }

    fn is_win(msg: &str) -> bool {
        patterns()
            .message
            .captures(msg)
            .is_some_and(|c| c.name("win").is_some())
    }

    fn local_game(&mut self, print_win: bool) -> Res<()> {
        self.remaining = self.game_limit;
        loop {
            let msg = self.our_move(true)?;
            if Self::is_win(&msg) {
                if print_win {
                    self.print(&msg);
                }
                self.remaining = self.move_limit;
                return Ok(());
            }
        }
    }

    fn remote_game(&mut self, print_win: bool) -> Res<()> {
        if self.other.is_none() {
            return Err(self.error_exit("invalid remote command in testing file (no opponent)"));
        }
        self.remaining = self.game_limit;
        let mut prev_win: Option<String> = None;
        loop {
            let rmsg = self.remote_move()?;
            if Self::is_win(&rmsg) {
                let curr = rmsg.trim().to_string();
                match &prev_win {
                    Some(prev) => {
                        if *prev != curr {
                            return Err(self.error_exit("received conflicting win"));
                        }
                        if print_win {
                            self.print(&rmsg);
                        }
                        return Ok(());
                    }
                    None => prev_win = Some(curr),
                }
            } else if prev_win.is_some() {
                return Err(self.error_exit("received move; expected win"));
            } else {
                let mv = patterns()
                    .message
                    .captures(&rmsg)
                    .and_then(|c| c.name("move"))
                    .map(|m| m.as_str().to_string())
                    .unwrap_or_default();
                self.send_command(&mv);
            }
            let msg = self.our_move(true)?;
            if Self::is_win(&msg) {
                let curr = msg.trim().to_string();
                match &prev_win {
                    Some(prev) => {
                        if *prev != curr {
                            return Err(self.error_exit("received conflicting win"));
                        }
                        if print_win {
                            self.print(&msg);
                        }
                        return Ok(());
                    }
                    None => prev_win = Some(curr),
                }
            } else if prev_win.is_some() {
                return Err(self.error_exit("made local move; expected win"));
            }
        }
    }

    fn win(&mut self) -> Res<()> {
        self.remaining = SHORT_WAIT;
        let msg = self.our_move(true)?;
        if !patterns().win.is_match(&msg) {
            return Err(self.error_exit("expected win; received move"));
        }
        self.print(&msg);
        Ok(())
    }

    fn directive(&mut self, line: &str, body: &str) -> Res<()> {
        let Some(c) = patterns().directive.captures(body) else {
            self.me.close_stdin();
            return Err(self.error_exit(format!(
                "Invalid command in testing file: {}",
                line.trim_end()
            )));
        };
        if c.get(1).is_some() {
            self.local_game(!c[2].is_empty())
        } else if c.get(3).is_some() {
            self.remote_game(!c[4].is_empty())
        } else if c.get(5).is_some() {
            self.remaining = self.game_limit;
            self.our_move(false).map(drop)
        } else if c.get(6).is_some() {
            self.win()
        } else {
            self.move_limit = c[7].parse().unwrap_or(10.0);
            // The original reads the game limit as a float too ("60" or "60.0").
            self.game_limit = c[8].parse().unwrap_or(60.0);
            Ok(())
        }
    }

    /// Runs the script lines, then closes stdin and waits for the exit.
    fn control(mut self, script: Vec<String>) -> ProgramReport {
        let p = patterns();
        for line in &script {
            let r = match p.command.captures(line) {
                Some(c) => {
                    let body = c[1].to_string();
                    self.directive(line, &body)
                }
                None => {
                    self.send(line);
                    Ok(())
                }
            };
            if r.is_err() {
                break;
            }
        }
        self.stop();
        for r in self.readers.drain(..) {
            let _ = r.join();
        }
        let s = lock(&self.shared);
        ProgramReport {
            out: s.out.clone(),
            stderr: s.stderr.clone(),
            end_message: s.end_message.clone(),
            transcript: s.transcript.clone(),
        }
    }

    /// Closes stdin and waits up to 5 s for the exit (then kills); a status other than
    /// 0 is a failure.
    fn stop(&mut self) {
        self.me.close_stdin();
        let deadline = Instant::now() + Duration::from_secs_f64(SHORT_WAIT);
        let status = loop {
            let st = self
                .child
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .try_wait();
            match st {
                Ok(Some(st)) => break Some(st),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => {
                    let mut c = self.child.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = c.kill();
                    let _ = c.wait();
                    break None;
                }
            }
        };
        if status.is_none_or(|s| !s.success()) {
            lock(&self.shared).end(format!(
                "process did not exit normally ({})",
                status.map_or("killed after 5 s".to_string(), |s| s.to_string())
            ));
        }
    }
}

/// Splits a script into the program's arguments (our binary replaces the command;
/// its `--` options are kept) and the lines to run.
fn split_script(text: &str, name: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let p = patterns();
    let mut lines = text.split_inclusive('\n');
    for line in lines.by_ref() {
        if let Some(c) = p.command.captures(line) {
            let args = c[1]
                .split_whitespace()
                .filter(|w| w.starts_with("--"))
                .map(str::to_string)
                .collect();
            return Ok((args, lines.map(str::to_string).collect()));
        }
        if !p.comment_or_blank.is_match(line.trim_end_matches('\n')) {
            break;
        }
    }
    Err(format!("Could not find initial command line in {name}"))
}

/// Runs one or two scripts (program 1 and, if given, program 2, playing each other)
/// with the working directory `dir`.
pub fn run_scripts(scripts: &[(String, String)], dir: &Path) -> Result<Vec<ProgramReport>, String> {
    assert!(matches!(scripts.len(), 1 | 2), "one or two programs");
    let mut progs = Vec::new();
    let mut bodies = Vec::new();
    for (i, (name, text)) in scripts.iter().enumerate() {
        let (args, body) = split_script(text, name)?;
        progs.push(Prog::spawn(i + 1, &args, dir)?);
        bodies.push(body);
    }
    if progs.len() == 2 {
        let (a, b) = (progs[0].me.clone(), progs[1].me.clone());
        progs[0].other = Some(b);
        progs[1].other = Some(a);
    }
    let threads: Vec<_> = progs
        .into_iter()
        .zip(bodies)
        .map(|(p, body)| thread::spawn(move || p.control(body)))
        .collect();
    Ok(threads
        .into_iter()
        .map(|t| t.join().expect("harness controller thread"))
        .collect())
}

/// `tester.py`'s comparison filter: `#…` to end of line, trailing blanks and empty
/// lines removed.
pub fn filter(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| l.lines())
        .map(|l| {
            let l = l.split('#').next().unwrap_or("");
            l.trim_end_matches([' ', '\t', '\r']).to_string()
        })
        .filter(|l| !l.is_empty())
        .collect()
}

fn read_lines(path: &Path) -> Option<Vec<String>> {
    std::fs::read_to_string(path)
        .ok()
        .map(|t| t.lines().map(str::to_string).collect())
}

/// The test's files: `NAME-1.in` and, if present, `NAME-2.in`.
pub fn test_files(first: &Path) -> Vec<PathBuf> {
    let mut files = vec![first.to_path_buf()];
    let name = first.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if let Some(stem) = name.strip_suffix("-1.in") {
        let second = first.with_file_name(format!("{stem}-2.in"));
        if second.exists() {
            files.push(second);
        }
    }
    files
}

/// A scratch directory for a test's working directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("loa-harness")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// Runs the test whose first file is `first`: every program must end normally and
/// every `.std` (and our `.stderr`) must match. Returns the reports, or a failure
/// description (with the programs' recent transcript).
pub fn run_test(first: &Path) -> Result<Vec<ProgramReport>, String> {
    let files = test_files(first);
    let mut scripts = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        scripts.push((f.display().to_string(), text));
    }
    let name = first
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("test")
        .to_string();
    let reports = run_scripts(&scripts, &scratch_dir(&name))?;
    let mut problems = Vec::new();
    for (f, r) in files.iter().zip(&reports) {
        let show = |what: &str| {
            format!(
                "{}: {what}\n--- recent transcript ---\n{}\n--- stderr ---\n{}",
                f.display(),
                r.transcript.join("\n"),
                r.stderr.join("\n")
            )
        };
        if let Some(m) = &r.end_message {
            problems.push(show(&format!("ended with: {m}")));
            continue;
        }
        if let Some(std) = read_lines(&f.with_extension("std")) {
            let (got, want) = (filter(&r.out), filter(&std));
            if got != want {
                problems.push(show(&format!(
                    "output does not match the .std\n--- got ---\n{}\n--- expected ---\n{}",
                    got.join("\n"),
                    want.join("\n")
                )));
            }
        }
        if let Some(std) = read_lines(&f.with_extension("stderr")) {
            let (got, want) = (filter(&r.stderr), filter(&std));
            if got != want {
                problems.push(show(&format!(
                    "stderr does not match the .stderr\n--- got ---\n{}\n--- expected ---\n{}",
                    got.join("\n"),
                    want.join("\n")
                )));
            }
        }
    }
    if problems.is_empty() {
        Ok(reports)
    } else {
        Err(problems.join("\n\n"))
    }
}

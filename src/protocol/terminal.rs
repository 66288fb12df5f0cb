//! Line editing for a person at a terminal: when stdin and stdout are both the
//! terminal, lines are read with [rustyline] (cursor keys, history, Ctrl-R), and what
//! the program prints while a line is being typed (an AI move, a remote peer's line,
//! UAI `info`) is printed above that line instead of through it. Anything else (a pipe,
//! a file, stdout redirected) takes [`super::input::spawn_stdin`], byte for byte.
//!
//! The reader thread owns the editor. It starts reading in one of two ways:
//! - the session asks for a line with a prompt ([`Prompter::ask`]): the course text
//!   languages prompt only when they wait for a person, and their prompt depends on
//!   what the lines before did, so the reader waits for the session's request before it
//!   shows one; a request made before the session has taken every typed line is old
//!   and is ignored;
//! - the person starts typing while the session is busy (the AI thinks), or the
//!   protocol has no prompts (UAI, UGI, NBoard: [`Prompter::without_prompts`]): the
//!   line is edited behind an empty prompt. While it waits, the terminal does not echo
//!   and does not wait for a whole line, so the first key is seen at once and nothing
//!   typed is shown twice.

use super::input::{Line, Source, MAX_LINE};
use crossbeam_channel::{unbounded, Receiver, Sender};
use rustyline::error::ReadlineError;
use rustyline::{Config, DefaultEditor, ExternalPrinter};
use std::io::{self, IsTerminal, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const STDIN: RawFd = 0;

/// True when a person is typing and reading it: stdin and stdout are both terminals.
pub fn wanted() -> bool {
    io::stdin().is_terminal()
        && io::stdout().is_terminal()
        && std::env::var("TERM").is_ok_and(|t| t != "dumb")
}

/// What the session uses to ask for the next line with a prompt.
#[derive(Clone)]
pub struct Prompter {
    shared: Arc<Shared>,
}

struct Shared {
    /// The latest request: the prompt, and how many lines the session had taken.
    request: Mutex<Option<(String, u64)>>,
    /// Lines the program has taken from the input channel.
    taken: AtomicU64,
    /// Written to wake the reader when a request is made.
    wake: OwnedFd,
    /// No prompts will come: read lines one after another behind an empty prompt.
    continuous: AtomicBool,
    /// The terminal's settings at start, put back when the program leaves.
    original: libc::termios,
    /// The reader is inside the editor's `readline`.
    editing: AtomicBool,
    /// A line was printed through the editor while a line was edited.
    printed_while_editing: AtomicBool,
}

impl Prompter {
    /// Asks for the next line with `prompt`.
    pub fn ask(&self, prompt: &str) {
        let taken = self.shared.taken.load(Ordering::SeqCst);
        *self
            .shared
            .request
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some((prompt.to_string(), taken));
        self.shared.wake();
    }

    /// Counts a line taken from the input channel: a prompt asked for after it is for
    /// the line after it.
    pub fn took(&self) {
        self.shared.taken.fetch_add(1, Ordering::SeqCst);
    }

    /// The protocol prints no prompts (UAI, UGI, NBoard): lines are read as they come.
    pub fn without_prompts(&self) {
        self.shared.continuous.store(true, Ordering::SeqCst);
        self.shared.wake();
    }

    /// Puts the terminal back as it was at start (the program is leaving, perhaps with
    /// a line half typed).
    pub fn restore(&self) {
        self.shared.restore();
    }

    /// Lets the editor print what it still holds before the program leaves. A line
    /// printed while a line is edited goes to the editor, which prints it between keys;
    /// when the person's Enter came at the same moment (`stop` and `quit` typed fast),
    /// the editor returns the line first and keeps the printed one for its next edit.
    /// So, if anything was printed during an edit, one more edit is started (behind an
    /// empty prompt) and given a moment to print it: at most [`SETTLE`], and only then.
    pub fn settle(&self) {
        let shared = &self.shared;
        if !shared.printed_while_editing.load(Ordering::SeqCst) {
            return;
        }
        shared.continuous.store(true, Ordering::SeqCst);
        shared.wake();
        let start = Instant::now();
        while !shared.editing.load(Ordering::SeqCst) && start.elapsed() < SETTLE {
            std::thread::sleep(Duration::from_millis(2));
        }
        // The editor looks at what it holds each time it waits for a key: a few
        // milliseconds once it is editing.
        std::thread::sleep(Duration::from_millis(30).min(SETTLE.saturating_sub(start.elapsed())));
    }
}

/// The longest [`Prompter::settle`] waits.
const SETTLE: Duration = Duration::from_millis(300);

impl Shared {
    fn wake(&self) {
        // SAFETY: one byte from a live buffer to a pipe this struct owns.
        let _ = unsafe { libc::write(self.wake.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
    }

    fn restore(&self) {
        // SAFETY: settings read from this terminal by tcgetattr at start.
        unsafe { libc::tcsetattr(STDIN, libc::TCSANOW, &self.original) };
    }

    /// The request to act on when `sent` lines have been handed over, if any.
    fn current_request(&self, sent: u64) -> Option<String> {
        let request = self.request.lock().unwrap_or_else(|e| e.into_inner());
        match &*request {
            Some((prompt, taken)) if *taken == sent => Some(prompt.clone()),
            _ => None,
        }
    }
}

/// The program's stdout at a terminal: whole lines, printed above a line being typed.
pub struct Output {
    printer: Box<dyn ExternalPrinter + Send>,
    partial: Vec<u8>,
    shared: Arc<Shared>,
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            if self.shared.editing.load(Ordering::SeqCst) {
                self.shared
                    .printed_while_editing
                    .store(true, Ordering::SeqCst);
            }
            self.printer
                .print(String::from_utf8_lossy(&line).into_owned())
                .map_err(io::Error::other)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if !self.partial.is_empty() {
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.partial)).into_owned();
            let _ = self.printer.print(rest);
        }
    }
}

/// Starts the line-editing reader: the input channel (closed at Ctrl-D on an empty
/// line), the session's [`Prompter`], and the stdout to print through. `None` when the
/// terminal cannot be driven (the caller then reads stdin as a stream).
pub fn spawn() -> Option<(Receiver<Line>, Prompter, Output)> {
    let config = Config::builder().auto_add_history(false).build();
    let mut editor = DefaultEditor::with_config(config).ok()?;
    let printer = editor.create_external_printer().ok()?;
    // SAFETY: a zeroed termios filled by tcgetattr on stdin, a terminal.
    let original = unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(STDIN, &mut t) != 0 {
            return None;
        }
        t
    };
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return None;
    }
    // SAFETY: both descriptors were just opened and belong to nobody else.
    let (wake_read, wake) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let shared = Arc::new(Shared {
        request: Mutex::new(None),
        taken: AtomicU64::new(0),
        wake,
        continuous: AtomicBool::new(false),
        original,
        editing: AtomicBool::new(false),
        printed_while_editing: AtomicBool::new(false),
    });
    let (tx, rx) = unbounded();
    let reader = Reader {
        editor,
        shared: shared.clone(),
        wake: wake_read,
        tx,
        sent: 0,
    };
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || reader.run())
        .ok()?;
    let output = Output {
        printer: Box::new(printer),
        partial: Vec::new(),
        shared: shared.clone(),
    };
    Some((rx, Prompter { shared }, output))
}

struct Reader {
    editor: DefaultEditor,
    shared: Arc<Shared>,
    wake: OwnedFd,
    tx: Sender<Line>,
    /// Lines handed to the session.
    sent: u64,
}

/// How the next line is started.
enum Start {
    /// The session asked for it with this prompt.
    Prompted(String),
    /// The person began typing without a prompt.
    Typing,
}

impl Reader {
    fn run(mut self) {
        loop {
            let prompt = match self.wait() {
                Some(Start::Prompted(p)) => p,
                Some(Start::Typing) => String::new(),
                None => break,
            };
            self.shared.editing.store(true, Ordering::SeqCst);
            let read = self.editor.readline(&prompt);
            self.shared.editing.store(false, Ordering::SeqCst);
            self.shared.restore();
            match read {
                // A paste of several lines comes back as one text: each is a line.
                Ok(text) => {
                    for line in text.split('\n') {
                        if !line.trim().is_empty() {
                            let _ = self.editor.add_history_entry(line);
                        }
                        if !self.hand_over(line.to_string()) {
                            return;
                        }
                    }
                }
                // Ctrl-D on an empty line: end of input, as when the line is not edited.
                Err(ReadlineError::Eof) => break,
                // Ctrl-C: the editor reads it as a key; leave as the signal would have.
                Err(ReadlineError::Interrupted) => interrupt(),
                Err(e) => {
                    log::error!("cannot read the terminal: {e}");
                    break;
                }
            }
        }
        // The channel closes: the session sees end of input.
    }

    /// Sends one line (cut at [`MAX_LINE`] bytes, as a streamed line would be).
    fn hand_over(&mut self, mut text: String) -> bool {
        let too_long = text.len() > MAX_LINE;
        if too_long {
            let mut end = MAX_LINE;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        self.sent += 1;
        let line = Line {
            text,
            too_long,
            at: Instant::now(),
            source: Source::Input,
            unterminated: false,
        };
        self.tx.send(line).is_ok()
    }

    /// Waits for the session's request or the person's first key, the terminal meanwhile
    /// silent and reading key by key. `None` when the terminal is gone.
    fn wait(&mut self) -> Option<Start> {
        if self.shared.continuous.load(Ordering::SeqCst) {
            return Some(Start::Typing);
        }
        let mut quiet = self.shared.original;
        quiet.c_lflag &= !(libc::ICANON | libc::ECHO);
        quiet.c_cc[libc::VMIN] = 1;
        quiet.c_cc[libc::VTIME] = 0;
        // SAFETY: settings derived from this terminal's own.
        unsafe { libc::tcsetattr(STDIN, libc::TCSANOW, &quiet) };
        loop {
            if self.shared.continuous.load(Ordering::SeqCst) {
                return Some(Start::Typing);
            }
            if let Some(p) = self.shared.current_request(self.sent) {
                self.shared.restore();
                return Some(Start::Prompted(p));
            }
            let mut fds = [
                libc::pollfd {
                    fd: STDIN,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.wake.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: two initialised pollfd entries.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if n < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return None;
            }
            if fds[1].revents != 0 {
                let mut sink = [0u8; 64];
                // SAFETY: reads into a live buffer from our own non-blocking pipe.
                while unsafe { libc::read(self.wake.as_raw_fd(), sink.as_mut_ptr().cast(), 64) } > 0
                {
                }
            }
            if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
                && fds[0].revents & libc::POLLIN == 0
            {
                return None;
            }
            if fds[0].revents & libc::POLLIN != 0 {
                // The key stays unread: the editor reads it as the line's first.
                return Some(Start::Typing);
            }
        }
    }
}

/// Ctrl-C while a line is edited: the terminal put back, then the default action of
/// SIGINT, so the program ends as it did before line editing (and as a shell expects).
fn interrupt() -> ! {
    // SAFETY: resetting a signal to its default and raising it in this process.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::raise(libc::SIGINT);
    }
    std::process::exit(130)
}

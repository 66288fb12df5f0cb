//! An engine's input and output pipes, for [`crate::engines::process::EngineProcess`].
//!
//! On Unix both pipes are non-blocking and served by the thread that plays the game: a
//! line is written to the engine's input at once when the pipe takes it (a writer
//! thread takes over only the rest of a line the full pipe refused, so an engine that
//! stops reading still cannot stall the referee), and lines are read from its output
//! with `poll` against the caller's deadline (a hung engine costs at most its
//! deadline). Every move used to pass through two more threads, a writer's and a
//! reader's, each hop a wake-up and a context switch on the move's critical path.
//! Elsewhere a writer and a reader thread do the same over channels.
//!
//! Lines are read as bytes, split at `\n` (a `\r` before it dropped) and decoded
//! lossily; one longer than [`MAX_LINE`] bytes arrives as its first [`MAX_LINE`] bytes
//! marked too long (never as several pieces, one of which could pass for a move), its
//! rest skipped. What is held is bounded by [`MAX_LINE`] and one read.

use crate::engines::traffic::{LogTag, MAX_LINE};
use std::process::{ChildStdin, ChildStdout};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One line from the engine.
pub(crate) struct EngineLine {
    pub text: String,
    /// Longer than [`MAX_LINE`] bytes: `text` holds its beginning.
    pub too_long: bool,
    /// When it was read from the pipe.
    pub read_at: Instant,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecvError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output and every line has been taken.
    Closed,
}

/// Splits bytes into lines as they arrive, with the bound and the cut of a long line.
#[derive(Default)]
struct LineSplitter {
    /// The start of a line whose newline has not arrived.
    partial: Vec<u8>,
    /// Skipping the rest of a line that was cut.
    skipping: bool,
}

impl LineSplitter {
    /// Feeds `bytes`, handing each finished line and whether it was cut to `each`.
    fn feed(&mut self, mut bytes: &[u8], mut each: impl FnMut(&[u8], bool)) {
        while !bytes.is_empty() {
            let newline = bytes.iter().position(|&b| b == b'\n');
            let (part, rest) = match newline {
                Some(i) => (&bytes[..i], &bytes[i + 1..]),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            if self.skipping {
                self.skipping = newline.is_none();
                continue;
            }
            let room = MAX_LINE - self.partial.len();
            if part.len() > room {
                self.partial.extend_from_slice(&part[..room]);
                each(&self.partial, true);
                self.partial.clear();
                self.skipping = newline.is_none();
                continue;
            }
            self.partial.extend_from_slice(part);
            if newline.is_some() {
                if self.partial.last() == Some(&b'\r') {
                    self.partial.pop();
                }
                each(&self.partial, false);
                self.partial.clear();
            }
        }
    }

    /// End of output: a last line without its newline is still a line.
    fn finish(&mut self, mut each: impl FnMut(&[u8], bool)) {
        if !self.skipping && !self.partial.is_empty() {
            each(&self.partial, false);
        }
        self.partial.clear();
        self.skipping = false;
    }
}

/// Logs a line read from the engine (a cut one marked so).
fn log_read(log: Option<&LogTag>, text: &str, too_long: bool) {
    if let Some(log) = log {
        if too_long {
            log.line('<', &format!("(a line over {MAX_LINE} bytes, cut) {text}"));
        } else {
            log.line('<', text);
        }
    }
}

#[cfg(unix)]
pub(crate) use unix::{Input, Output};

#[cfg(not(unix))]
pub(crate) use threads::{Input, Output};

#[cfg(unix)]
mod unix {
    use super::*;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::io::{ErrorKind, Read, Write};
    use std::os::fd::{AsRawFd, RawFd};
    use std::sync::Condvar;

    /// Sets `O_NONBLOCK` on our end of a pipe.
    fn set_nonblocking(fd: RawFd) -> Result<(), String> {
        // SAFETY: fcntl on a descriptor we own, with plain integer arguments.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
            return Err(format!(
                "cannot make the engine's pipe non-blocking: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(())
    }

    /// Waits until `fd` is ready for `events` or `timeout_ms` passes (-1: no limit).
    /// True if it is ready (or hung up, or in error: the next read or write says which).
    fn wait(fd: RawFd, events: libc::c_short, timeout_ms: i32) -> bool {
        let mut p = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        loop {
            // SAFETY: one pollfd, ours, for the length of the call.
            let r = unsafe { libc::poll(&mut p, 1, timeout_ms) };
            if r >= 0 {
                return r > 0;
            }
            if std::io::Error::last_os_error().kind() != ErrorKind::Interrupted {
                // poll itself failed: say ready, so the read or write reports it.
                return true;
            }
        }
    }

    /// The engine's output, read by whoever waits for a line.
    pub(crate) struct Output {
        pipe: RefCell<Option<ChildStdout>>,
        fd: RawFd,
        /// Where a read lands (kept: a fresh 64 KiB buffer per read costs its zeroing).
        chunk: RefCell<Box<[u8]>>,
        /// Lines read and not yet taken, each stamped with its read.
        lines: RefCell<VecDeque<EngineLine>>,
        split: RefCell<LineSplitter>,
        log: Option<LogTag>,
    }

    impl Output {
        pub(crate) fn new(pipe: ChildStdout, log: Option<LogTag>) -> Result<Output, String> {
            let fd = pipe.as_raw_fd();
            set_nonblocking(fd)?;
            Ok(Output {
                pipe: RefCell::new(Some(pipe)),
                fd,
                chunk: RefCell::new(vec![0u8; 64 * 1024].into_boxed_slice()),
                lines: RefCell::new(VecDeque::new()),
                split: RefCell::new(LineSplitter::default()),
                log,
            })
        }

        /// Reads what the pipe holds now (one read); false when nothing was there.
        /// At end of output the pipe is dropped, after the last line is queued.
        fn read_some(&self) -> bool {
            let mut pipe = self.pipe.borrow_mut();
            let Some(p) = pipe.as_mut() else {
                return false;
            };
            let mut chunk = self.chunk.borrow_mut();
            let n = loop {
                match p.read(&mut chunk) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
                    // Any other error ends the output as its end does.
                    Err(_) => break 0,
                }
            };
            let read_at = Instant::now();
            let mut lines = self.lines.borrow_mut();
            let mut queue = |bytes: &[u8], too_long: bool| {
                let text = String::from_utf8_lossy(bytes).into_owned();
                log_read(self.log.as_ref(), &text, too_long);
                lines.push_back(EngineLine {
                    text,
                    too_long,
                    read_at,
                });
            };
            let mut split = self.split.borrow_mut();
            if n == 0 {
                split.finish(&mut queue);
                *pipe = None;
                if let Some(log) = &self.log {
                    log.line('*', "output closed");
                }
            } else {
                split.feed(&chunk[..n], &mut queue);
            }
            true
        }

        /// The next line, waiting no later than `deadline` (a line already there is
        /// taken even when the deadline has passed).
        pub(crate) fn recv_deadline(&self, deadline: Instant) -> Result<EngineLine, RecvError> {
            loop {
                if let Some(line) = self.lines.borrow_mut().pop_front() {
                    return Ok(line);
                }
                if self.pipe.borrow().is_none() {
                    return Err(RecvError::Closed);
                }
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    // One look at what is there already, then the deadline holds.
                    if self.read_some() {
                        continue;
                    }
                    return Err(RecvError::Timeout);
                }
                // Whole milliseconds, rounded up: never wake before the deadline. (Poll
                // first: reading first would cost a failed read at every wait.)
                let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
                if wait(self.fd, libc::POLLIN, ms) {
                    self.read_some();
                }
            }
        }

        /// A line already printed, without waiting.
        pub(crate) fn try_recv(&self) -> Option<EngineLine> {
            loop {
                if let Some(line) = self.lines.borrow_mut().pop_front() {
                    return Some(line);
                }
                if !self.read_some() {
                    return None;
                }
            }
        }
    }

    struct InputState {
        /// `None` once closed (by us, or after a failed write).
        pipe: Option<ChildStdin>,
        /// What the pipe has not taken yet: per `send`, the bytes left and the whole
        /// lines (for the log).
        pending: VecDeque<(Vec<u8>, Vec<String>)>,
        /// Close the pipe once `pending` is written.
        closing: bool,
        /// A write failed: the engine closed its input.
        failed: bool,
    }

    /// The engine's input: written at once where the pipe takes the line, else by the
    /// writer thread as the engine reads.
    pub(crate) struct Input {
        shared: Arc<(Mutex<InputState>, Condvar)>,
        written_at: Arc<Mutex<Option<Instant>>>,
        log: Option<LogTag>,
    }

    /// Writes as much of `pending` as the pipe takes now; false if a write failed (the
    /// pipe is then closed and `pending` emptied).
    fn write_pending(
        st: &mut InputState,
        written_at: &Mutex<Option<Instant>>,
        log: Option<&LogTag>,
    ) -> bool {
        while let Some((bytes, lines)) = st.pending.front_mut() {
            let Some(pipe) = st.pipe.as_mut() else {
                return false;
            };
            match pipe.write(bytes) {
                Ok(n) if n == bytes.len() => {
                    *written_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                    if let Some(log) = log {
                        for line in lines.iter() {
                            log.line('>', line);
                        }
                    }
                    st.pending.pop_front();
                }
                Ok(n) if n > 0 => {
                    bytes.drain(..n);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return true,
                result => {
                    let why = match result {
                        Err(e) => e.to_string(),
                        _ => "the pipe took nothing".into(),
                    };
                    if let Some(log) = log {
                        let text = lines.join("\\n");
                        log.line('*', &format!("cannot write '{text}': {why}"));
                    }
                    st.failed = true;
                    st.pipe = None;
                    st.pending.clear();
                    return false;
                }
            }
        }
        if st.closing {
            st.pipe = None;
        }
        true
    }

    impl Input {
        pub(crate) fn new(pipe: ChildStdin, log: Option<LogTag>) -> Result<Input, String> {
            let fd = pipe.as_raw_fd();
            set_nonblocking(fd)?;
            let shared = Arc::new((
                Mutex::new(InputState {
                    pipe: Some(pipe),
                    pending: VecDeque::new(),
                    closing: false,
                    failed: false,
                }),
                Condvar::new(),
            ));
            let written_at = Arc::new(Mutex::new(None));
            let input = Input {
                shared: Arc::clone(&shared),
                written_at: Arc::clone(&written_at),
                log: log.clone(),
            };
            std::thread::Builder::new()
                .name("engine-writer".into())
                .spawn(move || {
                    let (lock, ready) = &*shared;
                    let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
                    // Ends with the pipe: closed by us (after what was queued) or failed.
                    while st.pipe.is_some() {
                        if st.pending.is_empty() && !st.closing {
                            st = ready.wait(st).unwrap_or_else(|e| e.into_inner());
                            continue;
                        }
                        if !write_pending(&mut st, &written_at, log.as_ref()) {
                            break;
                        }
                        if !st.pending.is_empty() {
                            // The pipe is full: wait, unlocked, until the engine reads.
                            drop(st);
                            wait(fd, libc::POLLOUT, -1);
                            st = lock.lock().unwrap_or_else(|e| e.into_inner());
                        }
                    }
                })
                .map_err(|e| format!("cannot start writer thread: {e}"))?;
            Ok(input)
        }

        /// Writes `lines` (each with its newline) in one write; never blocks. An error
        /// means the input is closed: by us, or because an earlier write failed.
        pub(crate) fn send_lines(&self, lines: &[&str]) -> Result<(), String> {
            let (lock, ready) = &*self.shared;
            let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
            if st.failed || st.closing || st.pipe.is_none() {
                return Err("engine input closed".to_string());
            }
            let mut bytes = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
            for line in lines {
                bytes.extend_from_slice(line.as_bytes());
                bytes.push(b'\n');
            }
            let waiting = !st.pending.is_empty();
            let text = lines.iter().map(|l| l.to_string()).collect();
            st.pending.push_back((bytes, text));
            if waiting {
                // The writer thread is on it; lines go in order.
                return Ok(());
            }
            // A failed write is reported by the next send, as a queued line's would be.
            write_pending(&mut st, &self.written_at, self.log.as_ref());
            if !st.pending.is_empty() {
                ready.notify_one();
            }
            Ok(())
        }

        /// Closes the input once the lines already sent are written.
        pub(crate) fn close(&self) {
            let (lock, ready) = &*self.shared;
            let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
            st.closing = true;
            if st.pending.is_empty() {
                st.pipe = None;
            }
            ready.notify_one();
        }

        /// When the last line was written whole to the pipe.
        pub(crate) fn written_at(&self) -> Option<Instant> {
            *self.written_at.lock().unwrap_or_else(|e| e.into_inner())
        }
    }
}

/// Elsewhere than Unix: a writer and a reader thread over channels.
#[cfg(not(unix))]
mod threads {
    use super::*;
    use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};

    pub(crate) struct Output {
        lines: Receiver<EngineLine>,
    }

    impl Output {
        pub(crate) fn new(mut pipe: ChildStdout, log: Option<LogTag>) -> Result<Output, String> {
            let (tx, rx) = crossbeam_channel::unbounded();
            std::thread::Builder::new()
                .name("engine-reader".into())
                .spawn(move || {
                    let mut split = LineSplitter::default();
                    let mut chunk = [0u8; 64 * 1024];
                    let mut open = true;
                    loop {
                        let n = match pipe.read(&mut chunk) {
                            Ok(n) => n,
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                            Err(_) => 0,
                        };
                        let read_at = Instant::now();
                        let mut queue = |bytes: &[u8], too_long: bool| {
                            let text = String::from_utf8_lossy(bytes).into_owned();
                            log_read(log.as_ref(), &text, too_long);
                            if open {
                                open = tx
                                    .send(EngineLine {
                                        text,
                                        too_long,
                                        read_at,
                                    })
                                    .is_ok();
                            }
                        };
                        if n == 0 {
                            split.finish(&mut queue);
                            break;
                        }
                        split.feed(&chunk[..n], &mut queue);
                    }
                    if let Some(log) = &log {
                        log.line('*', "output closed");
                    }
                })
                .map_err(|e| format!("cannot start reader thread: {e}"))?;
            Ok(Output { lines: rx })
        }

        pub(crate) fn recv_deadline(&self, deadline: Instant) -> Result<EngineLine, RecvError> {
            self.lines.recv_deadline(deadline).map_err(|e| match e {
                RecvTimeoutError::Timeout => RecvError::Timeout,
                RecvTimeoutError::Disconnected => RecvError::Closed,
            })
        }

        pub(crate) fn try_recv(&self) -> Option<EngineLine> {
            self.lines.try_recv().ok()
        }
    }

    pub(crate) struct Input {
        lines: Mutex<Option<Sender<String>>>,
        closed: Arc<AtomicBool>,
        written_at: Arc<Mutex<Option<Instant>>>,
    }

    impl Input {
        pub(crate) fn new(mut pipe: ChildStdin, log: Option<LogTag>) -> Result<Input, String> {
            let (tx, rx) = crossbeam_channel::unbounded::<String>();
            let closed = Arc::new(AtomicBool::new(false));
            let written_at = Arc::new(Mutex::new(None));
            let (flag, stamp) = (Arc::clone(&closed), Arc::clone(&written_at));
            std::thread::Builder::new()
                .name("engine-writer".into())
                .spawn(move || {
                    for line in rx {
                        let ok = pipe
                            .write_all(line.as_bytes())
                            .and_then(|_| pipe.write_all(b"\n"))
                            .and_then(|_| pipe.flush());
                        if ok.is_ok() {
                            *stamp.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                        }
                        if let Some(log) = &log {
                            match &ok {
                                Ok(()) => log.line('>', &line),
                                Err(e) => log.line('*', &format!("cannot write '{line}': {e}")),
                            }
                        }
                        if ok.is_err() {
                            flag.store(true, Ordering::Release);
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start writer thread: {e}"))?;
            Ok(Input {
                lines: Mutex::new(Some(tx)),
                closed,
                written_at,
            })
        }

        pub(crate) fn send_lines(&self, lines: &[&str]) -> Result<(), String> {
            if self.closed.load(Ordering::Acquire) {
                return Err("engine input closed".to_string());
            }
            self.lines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .ok_or_else(|| "engine input closed".to_string())
                .and_then(|tx| {
                    lines.iter().try_for_each(|l| {
                        tx.send(l.to_string())
                            .map_err(|_| "engine input closed".to_string())
                    })
                })
        }

        pub(crate) fn close(&self) {
            *self.lines.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }

        pub(crate) fn written_at(&self) -> Option<Instant> {
            *self.written_at.lock().unwrap_or_else(|e| e.into_inner())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<(String, bool)> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, |b, cut| {
                out.push((String::from_utf8_lossy(b).into_owned(), cut))
            });
        }
        s.finish(|b, cut| out.push((String::from_utf8_lossy(b).into_owned(), cut)));
        out
    }

    /// Lines split where the bytes arrive in any pieces, as read_bounded_line splits a
    /// stream: `\r\n` endings, a last line without a newline, empty lines kept.
    #[test]
    fn lines_are_split_across_reads() {
        let l = |s: &str| (s.to_string(), false);
        assert_eq!(
            split(&[b"bestm", b"ove a1\r\ninfo", b" depth 1\n\nlast"]),
            vec![l("bestmove a1"), l("info depth 1"), l(""), l("last")]
        );
        assert_eq!(split(&[b"one\n"]), vec![l("one")]);
        assert_eq!(split(&[]), vec![]);
    }

    /// A line over the bound arrives once, cut and marked, its rest skipped however it
    /// arrives; one of exactly the bound is whole.
    #[test]
    fn a_long_line_arrives_once_cut() {
        let long = vec![b'x'; MAX_LINE + 10];
        let exact = vec![b'y'; MAX_LINE];
        let got = split(&[&long[..100], &long[100..], b"\nnext\n", &exact, b"\n"]);
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].0.len(), got[0].1), (MAX_LINE, true));
        assert_eq!(got[1], ("next".to_string(), false));
        assert_eq!((got[2].0.len(), got[2].1), (MAX_LINE, false));
        // Cut without a newline at all: endless output is never held.
        let got = split(&[&long, &long, &long]);
        assert_eq!(got.len(), 1);
        assert!(got[0].1);
    }
}

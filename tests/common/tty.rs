//! A program whose stdin is a terminal (a pseudo-terminal the test holds), for what
//! only a person at a terminal sees: prompts, a blank line, Ctrl-D, a `clear` that acts
//! at once. Stdout and stderr stay pipes, each kept whole as bytes (prompts end
//! without a newline); echo is off, so nothing the test types comes back.
//! [`Tty::spawn_edited`] puts stdout on the terminal too, where lines are edited.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A program on a terminal.
pub struct Tty {
    child: Child,
    /// The terminal's master side: what is written here is typed.
    master: File,
    out: Arc<Mutex<Vec<u8>>>,
    err: Arc<Mutex<Vec<u8>>>,
    reader: Option<thread::JoinHandle<()>>,
}

/// A thread that keeps everything `pipe` yields in `sink` until it closes.
fn keep(mut pipe: impl Read + Send + 'static, sink: Arc<Mutex<Vec<u8>>>) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                return;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    })
}

/// A fresh pseudo-terminal: its master side (the test's) and the other (the program's).
fn open_pty() -> (File, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors it opened; null name, termios, size.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty failed");
    // SAFETY: both descriptors are open and owned by nobody else.
    unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

impl Tty {
    /// Starts `bin` with `args`, stdin a fresh terminal (canonical mode, no echo).
    pub fn spawn(bin: &str, args: &[&str]) -> Tty {
        let (master, slave) = open_pty();
        // SAFETY: termios of a terminal descriptor we own, read then written back.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            assert_eq!(
                libc::tcgetattr(std::os::fd::AsRawFd::as_raw_fd(&slave), &mut t),
                0
            );
            t.c_lflag &= !(libc::ECHO | libc::ECHONL);
            assert_eq!(
                libc::tcsetattr(std::os::fd::AsRawFd::as_raw_fd(&slave), libc::TCSANOW, &t),
                0
            );
        }
        let mut child = Command::new(bin)
            .args(args)
            .stdin(Stdio::from(slave))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        let stdout = child.stdout.take().unwrap();
        Tty::keeping(child, master, stdout)
    }

    /// A started program whose terminal output is read from `output`, stderr kept too.
    fn keeping(mut child: Child, master: File, output: impl Read + Send + 'static) -> Tty {
        let out = Arc::new(Mutex::new(Vec::new()));
        let err = Arc::new(Mutex::new(Vec::new()));
        let reader = keep(output, out.clone());
        keep(child.stderr.take().unwrap(), err.clone());
        Tty {
            child,
            master,
            out,
            err,
            reader: Some(reader),
        }
    }

    /// Starts `bin` with `args` on a terminal for both stdin and stdout, as a person
    /// runs it (echo on, `TERM=xterm`): lines are edited ([`Tty::output`] then holds
    /// what the terminal is sent, editing sequences and all). Stderr stays a pipe.
    pub fn spawn_edited(bin: &str, args: &[&str]) -> Tty {
        let (master, slave) = open_pty();
        let out_side = slave.try_clone().unwrap();
        let child = Command::new(bin)
            .args(args)
            .env("TERM", "xterm")
            .stdin(Stdio::from(slave))
            .stdout(Stdio::from(out_side))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        // The terminal's output is read from the master; it fails (EIO) once the
        // program, the last holder of the other side, is gone.
        let output = master.try_clone().unwrap();
        Tty::keeping(child, master, output)
    }

    /// Types `bytes` (`\n` ends a line, `\x04` is Ctrl-D).
    pub fn type_bytes(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).unwrap();
        self.master.flush().unwrap();
    }

    /// Stdout so far, lossily decoded.
    pub fn output(&self) -> String {
        String::from_utf8_lossy(&self.out.lock().unwrap()).into_owned()
    }

    /// Stderr so far, lossily decoded.
    pub fn errors(&self) -> String {
        String::from_utf8_lossy(&self.err.lock().unwrap()).into_owned()
    }

    /// Waits until stderr contains `text` and the end of its line (panics, showing it, after `timeout`).
    pub fn wait_errors(&self, text: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let err = self.errors();
            // The line holding `text` must be whole: stderr may arrive in pieces, and a
            // caller that reads the rest of the line (a URL, a message) read half of it once.
            if let Some(at) = err.find(text) {
                if err[at..].contains('\n') {
                    return err;
                }
            }
            assert!(Instant::now() < deadline, "no {text:?} in {err:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until stdout contains `text` (panics, showing it, after `timeout`).
    pub fn wait_output(&self, text: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let out = self.output();
            if out.contains(text) {
                return out;
            }
            assert!(Instant::now() < deadline, "no {text:?} in {out:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until stdout from byte `from` on satisfies `done` (panics, showing it,
    /// after `timeout`); that part of stdout.
    pub fn wait_output_after(
        &self,
        from: usize,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let out = self.output();
            let tail = out.get(from..).unwrap_or("");
            if done(tail) {
                return tail.to_string();
            }
            assert!(Instant::now() < deadline, "not done: {tail:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the program to exit (killing it after `timeout`): its status and
    /// whole stdout.
    pub fn finish(mut self, timeout: Duration) -> (ExitStatus, String) {
        let deadline = Instant::now() + timeout;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "still running after {timeout:?}; printed {:?}",
                    self.output()
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        // The reader thread sees end of file once the program is gone.
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        (status, self.output())
    }
}

impl Drop for Tty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

//! One engine process: spawn, write lines, read lines against hard deadlines, kill.
//!
//! The referee waits for a line with a deadline and never blocks on a read: a hung
//! engine costs at most its deadline. Writing never blocks either: an engine that stops
//! reading cannot stall the referee once its pipe buffer is full. How the pipes are
//! served (at once by the caller on Unix, through threads elsewhere) is
//! [`crate::engines::io`]'s. Lines are read as bytes and decoded lossily, and capped in
//! length, so no output an engine can produce panics the runner or exhausts its memory.
//! A line over the cap arrives as one line marked too long (never as several pieces,
//! one of which could pass for a move), and the clients count it as garbage.
//!
//! With a [`TrafficLog`] (`-log`, `-debug`) every line written to the engine and read
//! from it, and every line it writes on stderr, is logged with a timestamp and the
//! engine's tag, at the moment it is written or read.
//! Without one, the engine's stderr is discarded.
//!
//! Every engine runs in a process group of its own, and killing or dropping it kills the
//! whole group: an engine started through a wrapper script (or one that starts helpers)
//! would otherwise leave its children running, each perhaps spinning a core, for the
//! rest of the run and beyond. The group leader is not reaped before its group has been
//! killed ([`EngineProcess::is_alive`] only looks), so its id cannot have been given to
//! another process (another engine's group) by the time the group is signalled.

use crate::engines::io::{Input, Output, RecvError};
pub use crate::engines::traffic::{LogTag, TrafficLog, MAX_LINE};
use engine::protocol::input::read_bounded_line;
use std::io::{BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

/// Every engine process alive, so an interrupted run can kill them all
/// ([`kill_all`]) from the thread that saw the interrupt.
static LIVE: Mutex<Vec<Weak<Mutex<Proc>>>> = Mutex::new(Vec::new());

/// Kills every engine process still running, with its process group (Ctrl-C: the
/// engines run in process groups of their own, so the terminal's SIGINT does not reach
/// them, and they must not outlive the runner). Their workers then see them exit, reap
/// them and finish at once.
pub fn kill_all() {
    let live = std::mem::take(&mut *LIVE.lock().unwrap_or_else(|e| e.into_inner()));
    for proc in live.iter().filter_map(Weak::upgrade) {
        let _ = proc.lock().map(|mut p| p.signal());
    }
}

/// An engine's process, the leader of its own process group, and whether it has been
/// reaped (after which its id, and so the group's, may belong to another process).
struct Proc {
    child: Child,
    reaped: bool,
}

impl Proc {
    /// True once the leader has exited; never reaps it (see the module comment).
    fn exited(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        #[cfg(unix)]
        {
            // SAFETY: waitid writes only into `info`, a plain C struct that may be
            // all zeroes; WNOWAIT leaves the child waitable for `Child::wait`.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    self.child.id() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            // With WNOHANG a child that has not exited leaves si_pid zero.
            // SAFETY: si_pid reads the field waitid fills in for a child.
            r == 0 && unsafe { info.si_pid() } != 0
        }
        #[cfg(not(unix))]
        {
            !matches!(self.child.try_wait(), Ok(None))
        }
    }

    /// Sends SIGKILL to the whole process group (and to the leader itself, should it
    /// have left the group), without reaping.
    fn signal(&mut self) {
        if self.reaped {
            return;
        }
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill takes plain integers; the group is the leader's (spawned with
            // process_group(0)), whose id is still held by the unreaped leader.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
    }

    /// Kills the group and reaps the leader (no zombie, even for a hung engine).
    fn kill_and_reap(&mut self) {
        if self.reaped {
            return;
        }
        self.signal();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (`None`: the runner's).
    pub dir: Option<PathBuf>,
    /// The CPUs it is pinned to (`-use-affinity`, Linux); empty: not pinned.
    pub cpus: Vec<usize>,
}

/// Why a read failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed without a line.
    Timeout,
    /// The engine closed its output (usually: it exited or crashed).
    Closed,
    /// The engine printed a line longer than [`MAX_LINE`] bytes.
    TooLong,
}

impl ReadError {
    /// A line too long to be anything an engine should say: an unparsable answer.
    pub fn too_long_message() -> String {
        format!("a line longer than {MAX_LINE} bytes")
    }
}

/// The engine's command: piped stdin and stdout, stderr piped when `piped_stderr` (for
/// the traffic log) else dropped, in its own process group, pinned with
/// `-use-affinity`.
fn command(launch: &Launch, piped_stderr: bool) -> Command {
    let mut cmd = Command::new(&launch.cmd);
    cmd.args(&launch.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if piped_stderr {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    if let Some(dir) = &launch.dir {
        cmd.current_dir(dir);
    }
    // A process group of its own: Ctrl-C at the terminal signals the runner, which
    // stops recording before it kills the engines, instead of killing the engines
    // first, whose deaths would be recorded as crashes (issue 25 item 5); and a kill
    // reaches whatever the engine started too (the module comment).
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    // -use-affinity: pinned in the child before exec, so the engine never runs
    // elsewhere (and whatever it starts inherits the mask).
    #[cfg(target_os = "linux")]
    if !launch.cpus.is_empty() {
        use std::os::unix::process::CommandExt;
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET writes within it
        // (the CPUs were checked against the runner's own mask, below CPU_SETSIZE).
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for &c in &launch.cpus {
            unsafe { libc::CPU_SET(c, &mut set) };
        }
        // SAFETY: between fork and exec only sched_setaffinity, a system call
        // (async-signal-safe), runs; it reads the set built above.
        unsafe {
            cmd.pre_exec(move || {
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd
}

/// Logs the engine's start (its pid and command line) or why it could not start.
fn log_start(log: &LogTag, launch: &Launch, spawned: &std::io::Result<Child>) {
    let mut words = vec![launch.cmd.clone()];
    words.extend(launch.args.iter().cloned());
    match spawned {
        Ok(c) => log.line(
            '*',
            &format!("started (pid {}): {}", c.id(), words.join(" ")),
        ),
        Err(e) => log.line('*', &format!("cannot start {}: {e}", words.join(" "))),
    }
}

/// A running engine process.
pub struct EngineProcess {
    /// Shared with [`LIVE`] (weakly), for [`kill_all`].
    child: Arc<Mutex<Proc>>,
    /// The engine's input.
    input: Input,
    /// The engine's output.
    lines: Output,
    log: Option<LogTag>,
    /// When the last line returned by [`EngineProcess::recv_deadline`] was read.
    read_at: std::cell::Cell<Option<Instant>>,
}

impl EngineProcess {
    /// Starts the engine with piped stdin/stdout. Its stderr goes to the traffic log
    /// `log` if there is one, else nowhere: engines log freely there and the runner's own
    /// output must stay readable.
    pub fn spawn(launch: &Launch, log: Option<&LogTag>) -> Result<EngineProcess, String> {
        let spawned = command(launch, log.is_some()).spawn();
        if let Some(log) = log {
            log_start(log, launch, &spawned);
        }
        let mut child = spawned.map_err(|e| format!("cannot start '{}': {e}", launch.cmd))?;
        if let (Some(log), Some(stderr)) = (log, child.stderr.take()) {
            let log = log.clone();
            std::thread::Builder::new()
                .name("engine-stderr".into())
                .spawn(move || forward_lines(stderr, |text, _| log.line('!', text)))
                .map_err(|e| format!("cannot start stderr thread: {e}"))?;
        }
        let pipe = child
            .stdin
            .take()
            .ok_or_else(|| "engine has no stdin".to_string())?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "engine has no stdout".to_string())?;
        let input = Input::new(pipe, log.cloned())?;
        let lines = Output::new(stdout, log.cloned())?;
        let child = Arc::new(Mutex::new(Proc {
            child,
            reaped: false,
        }));
        {
            let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
            live.retain(|c| c.strong_count() > 0);
            live.push(Arc::downgrade(&child));
        }
        Ok(EngineProcess {
            child,
            input,
            lines,
            log: log.cloned(),
            read_at: std::cell::Cell::new(None),
        })
    }

    /// Writes one line to the engine (or queues what its full pipe does not take);
    /// never blocks. An error means the engine's input is closed (it has exited, or a
    /// previous write failed).
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.send_lines(&[line])
    }

    /// [`EngineProcess::send`] for several lines, written together (one write where the
    /// pipe takes them: the engine reads them at once).
    pub fn send_lines(&mut self, lines: &[&str]) -> Result<(), String> {
        for line in lines {
            log::trace!(">> {line}");
        }
        self.input.send_lines(lines)
    }

    /// The next line, waiting no later than `deadline`.
    pub fn recv_deadline(&self, deadline: Instant) -> Result<String, ReadError> {
        match self.lines.recv_deadline(deadline) {
            Ok(line) if line.too_long => {
                log::trace!("<< (a line over {MAX_LINE} bytes)");
                Err(ReadError::TooLong)
            }
            Ok(line) => {
                log::trace!("<< {}", line.text);
                self.read_at.set(Some(line.read_at));
                Ok(line.text)
            }
            Err(RecvError::Timeout) => Err(ReadError::Timeout),
            Err(RecvError::Closed) => Err(ReadError::Closed),
        }
    }

    /// When the last line sent was written whole to the engine's input, and when the
    /// last line [`EngineProcess::recv_deadline`] returned had been read from its
    /// output: the runner's side of a move's exchange, for `-report latency=true`.
    pub fn io_times(&self) -> (Option<Instant>, Option<Instant>) {
        (self.input.written_at(), self.read_at.get())
    }

    /// Throws away whatever the engine has printed and nobody has read yet.
    pub fn drain(&self) {
        while self.lines.try_recv().is_some() {}
    }

    /// The child process, locked (a poisoned lock still holds a usable child).
    fn child(&self) -> std::sync::MutexGuard<'_, Proc> {
        self.child.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// True while the process has not exited (it is not reaped: [`EngineProcess::kill`]
    /// or the drop does that, after killing its group).
    pub fn is_alive(&mut self) -> bool {
        !self.child().exited()
    }

    /// Asks the engine to quit, waits up to `grace`, then kills it (and, in any case,
    /// what it left running in its process group). The wait is for the engine's output
    /// to close (at its exit): no polling.
    pub fn quit(mut self, quit_command: &str, grace: std::time::Duration) {
        let _ = self.send(quit_command);
        self.input.close();
        let until = Instant::now() + grace;
        while self.lines.recv_deadline(until).is_ok() {}
        self.kill();
    }

    /// Closes the engine's input (after the lines already queued are written), as a
    /// GUI's pipe closes when it exits: `tournament compliance` checks that the engine
    /// then ends by itself.
    pub fn close_input(&mut self) {
        self.input.close();
    }

    /// Waits until the process has exited, no later than `deadline`, reading (and
    /// handing to `each`) whatever it still prints. True if it exited in time; it is
    /// not reaped (the drop or [`EngineProcess::kill`] does that).
    pub fn wait_exit(&mut self, deadline: Instant, mut each: impl FnMut(&str)) -> bool {
        loop {
            match self.lines.recv_deadline(deadline) {
                Ok(line) => each(&line.text),
                Err(RecvError::Timeout) => return !self.is_alive(),
                // The output is closed; the exit itself follows at once, but a process
                // can close its output and live on.
                Err(RecvError::Closed) => loop {
                    if !self.is_alive() {
                        return true;
                    }
                    if Instant::now() >= deadline {
                        return false;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(2));
                },
            }
        }
    }

    /// Kills the process and its whole process group, and reaps it (no zombies, even
    /// for a hung engine).
    pub fn kill(&mut self) {
        if self.log.is_some() && self.is_alive() {
            if let Some(log) = &self.log {
                log.line('*', "killed");
            }
        }
        self.input.close();
        self.child().kill_and_reap();
    }
}

/// Reads `from` line by line (bounded, decoded lossily) until it closes or fails,
/// handing each line and whether it was cut to `each`.
fn forward_lines(from: impl Read, mut each: impl FnMut(&str, bool)) {
    let mut reader = BufReader::new(from);
    let mut buf = Vec::new();
    while let Ok(Some(too_long)) = read_bounded_line(&mut reader, &mut buf, MAX_LINE) {
        each(&String::from_utf8_lossy(&buf), too_long);
    }
}

impl Drop for EngineProcess {
    /// Kills the group even when the engine itself has exited: what it started may not
    /// have.
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A wrapper script's engine: a shell that starts a child (`sleep`), says its pid
    /// and waits for it, as `exec`-less wrapper scripts do.
    fn wrapper() -> (EngineProcess, u32) {
        let launch = Launch {
            cmd: "/bin/sh".into(),
            args: vec!["-c".into(), "sleep 100 & echo $!; wait".into()],
            dir: None,
            cpus: Vec::new(),
        };
        let p = EngineProcess::spawn(&launch, None).expect("start sh");
        let line = p
            .recv_deadline(Instant::now() + Duration::from_secs(10))
            .expect("the child's pid");
        (p, line.trim().parse().expect("a pid"))
    }

    /// True once `pid` has exited: no such process, or a zombie left to its new parent
    /// (the wrapper is dead, and whether init reaps at once is not ours to say).
    fn gone(pid: u32) -> bool {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let stat = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Ok(stat) => stat,
                Err(_) => return true,
            };
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            if state.starts_with('Z') || state.starts_with('X') {
                return true;
            }
            if Instant::now() > until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn kill_kills_the_engines_children_too() {
        let (mut p, child) = wrapper();
        p.kill();
        assert!(gone(child), "the wrapper's child {child} outlived the kill");
    }

    #[test]
    fn drop_kills_the_engines_children_too() {
        let (p, child) = wrapper();
        drop(p);
        assert!(gone(child), "the wrapper's child {child} outlived the drop");
    }

    /// `-report latency=true`: each line written is stamped, and each line read.
    #[test]
    fn io_times_stamp_the_last_line_written_and_read() {
        let launch = Launch {
            cmd: "/bin/cat".into(),
            args: Vec::new(),
            dir: None,
            cpus: Vec::new(),
        };
        let mut p = EngineProcess::spawn(&launch, None).expect("start cat");
        assert_eq!(p.io_times(), (None, None));
        let before = Instant::now();
        p.send("hello").unwrap();
        let line = p
            .recv_deadline(Instant::now() + Duration::from_secs(10))
            .unwrap();
        assert_eq!(line, "hello");
        let (Some(written), Some(read)) = p.io_times() else {
            panic!("both stamped: {:?}", p.io_times());
        };
        // (Which comes first is a race: the write is stamped after it returns, and
        // `cat` may echo the line before that.)
        let now = Instant::now();
        assert!(before <= written && written <= now, "{written:?}");
        assert!(before <= read && read <= now, "{read:?}");
    }

    /// `-use-affinity`: the process runs on the CPUs asked for, from its first
    /// instruction (the mask is set before exec).
    #[test]
    fn a_pinned_engine_runs_on_its_cpus() {
        let allowed = crate::engines::affinity::allowed().expect("Linux knows its CPUs");
        let last = *allowed.last().unwrap();
        let launch = Launch {
            cmd: "/bin/sh".into(),
            args: vec!["-c".into(), "grep Cpus_allowed_list /proc/$$/status".into()],
            dir: None,
            cpus: vec![last],
        };
        let p = EngineProcess::spawn(&launch, None).expect("start sh");
        let line = p
            .recv_deadline(Instant::now() + Duration::from_secs(10))
            .expect("the mask");
        assert_eq!(
            line.split_whitespace().last(),
            Some(last.to_string().as_str()),
            "{line}"
        );
    }

    /// An engine that stops reading cannot stall the sender: what its full pipe does
    /// not take waits for the writer thread, and a program that reads late gets every
    /// line, in order (both ways of writing: at once, and the writer thread's).
    #[test]
    fn sending_never_blocks_and_keeps_the_order() {
        let launch = Launch {
            cmd: "/bin/sh".into(),
            args: vec!["-c".into(), "sleep 0.5; exec cat".into()],
            dir: None,
            cpus: Vec::new(),
        };
        let mut p = EngineProcess::spawn(&launch, None).expect("start sh");
        let filler = "x".repeat(1000);
        let started = Instant::now();
        // About 1 MB: many times a pipe's buffer.
        for i in 0..1000 {
            p.send_lines(&[&format!("{i} {filler}"), "-"]).unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_millis(400),
            "sending waited for the reader: {:?}",
            started.elapsed()
        );
        for i in 0..1000 {
            let deadline = Instant::now() + Duration::from_secs(10);
            let line = p.recv_deadline(deadline).expect("the line back");
            assert_eq!(line, format!("{i} {filler}"));
            assert_eq!(p.recv_deadline(deadline).expect("the dash"), "-");
        }
        // Nothing more: the deadline holds.
        let t = Instant::now();
        let r = p.recv_deadline(t + Duration::from_millis(50));
        assert_eq!(r, Err(ReadError::Timeout));
        assert!(t.elapsed() >= Duration::from_millis(50));
    }

    /// An engine that never reads: sending still returns at once; the kill ends it.
    #[test]
    fn an_engine_that_never_reads_does_not_stall_the_sender() {
        let launch = Launch {
            cmd: "/bin/sleep".into(),
            args: vec!["100".into()],
            dir: None,
            cpus: Vec::new(),
        };
        let mut p = EngineProcess::spawn(&launch, None).expect("start sleep");
        let started = Instant::now();
        let line = "y".repeat(10_000);
        for _ in 0..200 {
            p.send(&line).unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(1));
        p.kill();
        assert!(!p.is_alive());
        // The input is closed now.
        assert!(p.send("more").is_err());
    }

    /// An engine that has quit but left a child running: the quit kills the child.
    #[test]
    fn quit_kills_what_the_engine_left_running() {
        let launch = Launch {
            cmd: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                "sleep 100 >/dev/null & echo $!; read line; exit 0".into(),
            ],
            dir: None,
            cpus: Vec::new(),
        };
        let p = EngineProcess::spawn(&launch, None).expect("start sh");
        let child: u32 = p
            .recv_deadline(Instant::now() + Duration::from_secs(10))
            .expect("the child's pid")
            .trim()
            .parse()
            .expect("a pid");
        p.quit("quit", Duration::from_secs(5));
        assert!(gone(child), "the engine's child {child} outlived its quit");
    }
}

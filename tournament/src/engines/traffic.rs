//! The engine traffic log (`-log`, `-debug`) and the bound on an engine's lines: what
//! both the engine process and its pipes' reader ([`crate::engines::io`]) use.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Longest line accepted from an engine (a protocol line, not a file).
pub const MAX_LINE: usize = 64 * 1024;

/// The engine traffic log: lines `[   12.345] ataxx#1 > go movetime 100`, where the
/// time is seconds since the run started, the tag is the engine's name and the number
/// of the worker that runs it (`#0`: the check before the run), and the mark says what
/// the line is: `>` sent to the engine, `<` read from it, `!` written on its stderr,
/// `*` the runner's note (started, exited, killed).
pub struct TrafficLog {
    start: Instant,
    sinks: Mutex<Vec<Box<dyn Write + Send>>>,
}

impl TrafficLog {
    /// A log writing to `sinks` (a file, stderr), timed from `start`.
    pub fn new(start: Instant, sinks: Vec<Box<dyn Write + Send>>) -> Arc<TrafficLog> {
        Arc::new(TrafficLog {
            start,
            sinks: Mutex::new(sinks),
        })
    }

    /// Logs one line (control characters shown as `?`, at most 1000 characters). Write
    /// errors are ignored: the log must never stop a game.
    pub fn line(&self, tag: &str, mark: char, text: &str) {
        let mut clean: String = text
            .chars()
            .take(1000)
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        if text.chars().nth(1000).is_some() {
            clean.push('…');
        }
        let line = format!(
            "[{:>10.3}] {tag} {mark} {clean}\n",
            self.start.elapsed().as_secs_f64()
        );
        self.raw(&line);
    }

    /// When the log's clock started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Writes `line`, already formatted as [`TrafficLog::line`] formats its lines (a
    /// log of its own passes its lines on to this one: the check before the run, which
    /// reads an engine's stderr through a log).
    pub fn raw(&self, line: &str) {
        if let Ok(mut sinks) = self.sinks.lock() {
            for sink in sinks.iter_mut() {
                let _ = sink.write_all(line.as_bytes()).and_then(|_| sink.flush());
            }
        }
    }
}

/// An engine's place in the traffic log: the log and the engine's tag.
#[derive(Clone)]
pub struct LogTag {
    /// The log.
    pub log: Arc<TrafficLog>,
    /// `name#worker`.
    pub tag: String,
}

impl LogTag {
    pub(crate) fn line(&self, mark: char, text: &str) {
        self.log.line(&self.tag, mark, text);
    }
}

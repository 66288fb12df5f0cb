//! The stdin reader: a thread that owns stdin and forwards each line over a channel, so
//! a front end can wait for input and search reports at the same time. The channel
//! closes at end of input.

use crossbeam_channel::{unbounded, Receiver};
use std::io::BufRead;

/// Longest line accepted; longer input is cut there (a line is a command, not a file).
pub const MAX_LINE: usize = 64 * 1024;

/// Starts the reader thread over the process's stdin.
pub fn spawn_stdin() -> Receiver<String> {
    spawn_reader(std::io::BufReader::new(std::io::stdin()))
}

/// Starts a reader thread over any buffered reader (tests use in-memory input).
pub fn spawn_reader<R: BufRead + Send + 'static>(mut reader: R) -> Receiver<String> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        buf.truncate(MAX_LINE);
                        // Invalid UTF-8 becomes replacement characters: an error, not a crash.
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("spawning the input thread");
    rx
}

//! The stdin reader: a thread that owns stdin and forwards each line over a channel, so
//! a front end can wait for input and search reports at the same time. The channel
//! closes at end of input.
//!
//! Memory is bounded: a line longer than [`MAX_LINE`] bytes is never held whole. Its
//! first bytes are kept, the rest is skipped up to the newline, and the line arrives
//! marked [`Line::too_long`] so the front end can refuse it with one clear error.

use crossbeam_channel::{never, unbounded, Receiver};
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::time::Instant;

/// Longest line accepted (a line is a command, not a file).
pub const MAX_LINE: usize = 64 * 1024;

/// One input line, as the front ends receive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text without its line ending (invalid UTF-8 replaced), at most [`MAX_LINE`] bytes.
    pub text: String,
    /// The line was longer than [`MAX_LINE`] and was cut.
    pub too_long: bool,
    /// When the reader saw the line end: clocks (`go`) start here, not when the
    /// front end gets round to the command.
    pub at: Instant,
    /// Where the line came from: stdin (or a file), or the board page of `--display`.
    pub source: Source,
    /// End of input came before a newline (at a terminal: text typed, then Ctrl-D).
    pub unterminated: bool,
}

/// Where an input line came from. The board page (`--display`) feeds the same channel
/// as stdin, so both drive one session; its lines are marked so the session can tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// Stdin, an input file, or a `load`ed file.
    #[default]
    Input,
    /// A text-language line sent by the page (a clicked move, the command box).
    Page,
    /// One of the page's actions outside the text language (undo, AI/manual at any
    /// moment, new game): see `text::board::Action`.
    PageAction,
    /// The page's paste: the text-language lines that set it up, one per `\n`, run in
    /// order until one is refused (so a refused `clear` leaves the game as it was).
    PagePaste,
}

impl Line {
    /// A line that arrived now (for tests and for lines read from files).
    pub fn new(text: impl Into<String>) -> Line {
        Line {
            text: text.into(),
            too_long: false,
            at: Instant::now(),
            source: Source::Input,
            unterminated: false,
        }
    }
}

/// Most lines an [`Inbox`] holds: a session refuses more while it is busy (a flood of
/// lines never grows memory without bound).
pub const MAX_WAITING: usize = 10_000;

/// Every front end's one queue of input lines: the channel they arrive on and the lines
/// read but not yet run, in arrival order. A line waits while its session is busy (a
/// search, a perft, a remote program's move) and runs when it reaches the front; a
/// session may take one out early ([`Inbox::take`]), put one back first
/// ([`Inbox::put_back`]), and mark every waiting line when a `stop` arrives after it
/// ([`Inbox::stop_waiting`]): it then comes out marked, and a search it asks for
/// answers at once.
pub struct Inbox {
    channel: Receiver<Line>,
    /// Lines read and not yet run, each with whether a `stop` came after it.
    waiting: VecDeque<(Line, bool)>,
    /// The channel has closed: no line will arrive.
    closed: bool,
}

impl Inbox {
    /// An inbox over `channel`, with `first` (the line that chose the protocol, or
    /// none) waiting first.
    pub fn new(channel: Receiver<Line>, first: Option<Line>) -> Inbox {
        Inbox {
            channel,
            waiting: first.map(|l| (l, false)).into_iter().collect(),
            closed: false,
        }
    }

    /// The channel new lines arrive on, to wait on beside other events; one that never
    /// delivers once input has ended. A line received from it is the session's: it
    /// runs it, or [`Inbox::wait`]s it.
    pub fn arrivals(&self) -> Receiver<Line> {
        if self.closed {
            never()
        } else {
            self.channel.clone()
        }
    }

    /// Input has ended (the channel closed).
    pub fn close(&mut self) {
        self.closed = true;
    }

    /// Whether input has ended. Lines may still wait.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Queues a line behind those waiting.
    pub fn wait(&mut self, line: Line) {
        self.waiting.push_back((line, false));
    }

    /// Puts a line back in front of those waiting: it runs next.
    pub fn put_back(&mut self, line: Line) {
        self.waiting.push_front((line, false));
    }

    /// How many lines wait.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// True when [`MAX_WAITING`] lines wait: the session refuses the next.
    pub fn is_full(&self) -> bool {
        self.waiting.len() >= MAX_WAITING
    }

    /// True when no line waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// The line that runs next, if any waits.
    pub fn front(&self) -> Option<&Line> {
        self.waiting.front().map(|(l, _)| l)
    }

    /// Takes the line that runs next, with whether a `stop` came after it.
    pub fn pop(&mut self) -> Option<(Line, bool)> {
        self.waiting.pop_front()
    }

    /// A `stop` arrived: every line waiting now comes out marked.
    pub fn stop_waiting(&mut self) {
        for (_, stopped) in self.waiting.iter_mut() {
            *stopped = true;
        }
    }

    /// Takes the first waiting line for which `wanted` holds out of its place (a line
    /// too long to read is never wanted), leaving the others in order.
    pub fn take(&mut self, wanted: impl Fn(&str) -> bool) -> Option<Line> {
        let i = self
            .waiting
            .iter()
            .position(|(l, _)| !l.too_long && wanted(&l.text))?;
        self.waiting.remove(i).map(|(l, _)| l)
    }
}

/// How a line read by [`read_line_head`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// At its newline (consumed).
    Newline,
    /// At end of input, without a newline.
    EndOfInput,
    /// At the bound: the line is longer, and its rest is left unread.
    Cut,
}

/// The UTF-8 byte order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads one line of at most `max` bytes into `buf` (cleared first), skipping whatever
/// follows up to the newline. Returns `None` at end of input, otherwise whether the line
/// was cut. Never holds more than `max` bytes plus the reader's own buffer.
pub fn read_bounded_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    let end = read_line_head(reader, buf, max)?;
    if end == Some(LineEnd::Cut) {
        skip_line(reader)?;
    }
    Ok(end.map(|e| e == LineEnd::Cut))
}

/// Reads the first `max` bytes of a line into `buf` (cleared first). Returns `None` at
/// end of input, otherwise how the line ended; the rest of a [`LineEnd::Cut`] line is
/// left unread: [`skip_line`] skips it. The caller can refuse a cut line before skipping
/// its rest, which may be endless (`/dev/zero`).
pub fn read_line_head<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<LineEnd>> {
    buf.clear();
    let mut seen_any = false;
    loop {
        let chunk = fill_buf(reader)?;
        if chunk.is_empty() {
            return Ok(seen_any.then_some(LineEnd::EndOfInput));
        }
        seen_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        let room = max.saturating_sub(buf.len());
        if part.len() > room {
            buf.extend_from_slice(&part[..room]);
            reader.consume(room);
            return Ok(Some(LineEnd::Cut));
        }
        let used = part.len() + done as usize;
        buf.extend_from_slice(part);
        reader.consume(used);
        if done {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(LineEnd::Newline));
        }
    }
}

/// The reader's buffered input (filled if it is empty), retrying a read that a signal
/// interrupted; empty at end of input.
fn fill_buf<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            // End of input is not sticky on a terminal (Ctrl-D): asking again would
            // wait for more.
            Ok([]) => return Ok(&[]),
            Ok(_) => break,
        }
    }
    // The buffer holds input, so this returns it without reading again (the
    // borrow checker does not let the first call's slice leave the loop).
    reader.fill_buf()
}

/// Skips input up to and including the next newline (or to end of input), holding
/// nothing but the reader's own buffer.
pub fn skip_line<R: BufRead>(reader: &mut R) -> io::Result<()> {
    loop {
        let chunk = fill_buf(reader)?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                reader.consume(n);
            }
        }
    }
}

/// Starts the reader thread over the process's stdin.
pub fn spawn_stdin() -> Receiver<Line> {
    spawn_reader(io::BufReader::new(io::stdin()))
}

/// Starts a reader thread over any buffered reader (tests use in-memory input).
pub fn spawn_reader<R: BufRead + Send + 'static>(mut reader: R) -> Receiver<Line> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buf = Vec::new();
            let mut first = true;
            while let Ok(Some(end)) = read_line_head(&mut reader, &mut buf, MAX_LINE) {
                if end == LineEnd::Cut && skip_line(&mut reader).is_err() {
                    break;
                }
                if std::mem::take(&mut first) {
                    strip_bom(&mut buf);
                }
                // Invalid UTF-8 becomes replacement characters: an error, not a crash.
                let line = Line {
                    text: String::from_utf8_lossy(&buf).into_owned(),
                    too_long: end == LineEnd::Cut,
                    at: Instant::now(),
                    source: Source::Input,
                    unterminated: end == LineEnd::EndOfInput,
                };
                // A terminal's end of input is not lasting: a read after Ctrl-D waits
                // for more typing, so the line that ended there is the last one.
                if tx.send(line).is_err() || end == LineEnd::EndOfInput {
                    break;
                }
            }
        })
        .expect("spawning the input thread");
    rx
}

/// Removes a UTF-8 byte order mark from the start of `line` (the first line of a script
/// saved by an editor that writes one), so the first command is read as typed.
pub fn strip_bom(line: &mut Vec<u8>) {
    if line.starts_with(BOM) {
        line.drain(..BOM.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(String, bool)> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(cut) = read_bounded_line(&mut r, &mut buf, max).unwrap() {
            out.push((String::from_utf8_lossy(&buf).into_owned(), cut));
        }
        out
    }

    #[test]
    fn splits_and_bounds_lines() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nlast", 10),
            [("ab", false), ("cd", false), ("", false), ("last", false)]
                .map(|(s, c)| (s.to_string(), c))
        );
        assert_eq!(
            lines(b"0123456789abcdef\nok\n", 10),
            [("0123456789", true), ("ok", false)].map(|(s, c)| (s.to_string(), c))
        );
        assert!(lines(b"", 10).is_empty());
        // Exactly `max` bytes is a whole line; the cut line's rest never reaches the next.
        assert_eq!(
            lines(b"0123456789\n0123456789abcdefghijklmnop\nx", 10),
            [("0123456789", false), ("0123456789", true), ("x", false)]
                .map(|(s, c)| (s.to_string(), c))
        );
    }

    #[test]
    fn a_cut_line_is_reported_before_its_rest_is_read() {
        // An endless line (`load /dev/zero`): the head comes back at once.
        let mut r = io::BufReader::with_capacity(7, io::repeat(b'0'));
        let mut buf = Vec::new();
        assert_eq!(
            read_line_head(&mut r, &mut buf, 10).unwrap(),
            Some(LineEnd::Cut)
        );
        assert_eq!(buf, b"0000000000");
    }

    /// A terminal's input: Ctrl-D ends it once, and more may be typed after.
    struct Terminal(Vec<&'static [u8]>);

    impl io::Read for Terminal {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let part = if self.0.is_empty() {
                &[][..]
            } else {
                self.0.remove(0)
            };
            out[..part.len()].copy_from_slice(part);
            Ok(part.len())
        }
    }

    #[test]
    fn end_of_input_is_seen_once_without_reading_on() {
        // Ctrl-D at a line's start, then a line typed after it: the end comes back
        // at once, without waiting for (or taking) the next line.
        let mut r = io::BufReader::new(Terminal(vec![b"", b"quit\n"]));
        let mut buf = Vec::new();
        assert_eq!(read_line_head(&mut r, &mut buf, 10).unwrap(), None);
        assert_eq!(
            read_line_head(&mut r, &mut buf, 10).unwrap(),
            Some(LineEnd::Newline)
        );
        assert_eq!(buf, b"quit");
        // Ctrl-D after part of a line ends that line.
        let mut r = io::BufReader::new(Terminal(vec![b"ab", b"", b"c\n"]));
        assert_eq!(
            read_line_head(&mut r, &mut buf, 10).unwrap(),
            Some(LineEnd::EndOfInput)
        );
        assert_eq!(buf, b"ab");
    }

    #[test]
    fn the_inbox_keeps_arrival_order_and_marks_what_a_stop_came_after() {
        let (tx, rx) = unbounded();
        let mut inbox = Inbox::new(rx, Some(Line::new("uai")));
        inbox.wait(Line::new("go"));
        inbox.stop_waiting();
        inbox.wait(Line::new("isready"));
        inbox.put_back(Line::new("first"));
        let texts: Vec<&str> = inbox.waiting.iter().map(|(l, _)| l.text.as_str()).collect();
        assert_eq!(texts, ["first", "uai", "go", "isready"]);
        assert_eq!((inbox.len(), inbox.is_full()), (4, false));
        assert_eq!(
            inbox.take(|t| t.starts_with('i')).map(|l| l.text),
            Some("isready".into())
        );
        assert!(inbox.take(|t| t == "quit").is_none());
        let mut popped = Vec::new();
        while let Some((l, stopped)) = inbox.pop() {
            popped.push((l.text, stopped));
        }
        assert_eq!(
            popped,
            [("first", false), ("uai", true), ("go", true)].map(|(t, s)| (t.to_string(), s))
        );
        // Arrivals come from the channel until input ends, then never.
        tx.send(Line::new("d")).unwrap();
        assert_eq!(
            inbox.arrivals().try_recv().map(|l| l.text),
            Ok("d".to_string())
        );
        drop(tx);
        assert!(inbox.arrivals().recv().is_err());
        inbox.close();
        assert!(inbox.is_closed() && inbox.arrivals().try_recv().is_err());
        assert!(inbox.is_empty() && inbox.front().is_none());
    }
}

//! Integration harness for the `ataxx` text language: runs `*.inp` scripts written in the
//! `@` directive language of the course's `test-ataxx.py` against our binary.
//!
//! A script has one or two sections (split at a line of 10+ dashes); each section starts
//! one copy of the program (the section's first line names the program; we always run
//! our binary and ignore its arguments) and drives it concurrently with the other. See
//! `docs/harness-notes.md` and the course's text-protocol specification
//! (`specs/ataxx-text-protocol.md` in the project's reference library).
//!
//! Official tests come from `tests/data/ataxx/fa16`, copied unmodified from the
//! reference library (see `tests/data/SOURCES.md`; override the directory above `ataxx/fa16` with
//! `ATAXX_REF_TESTS`, e.g. the library's `ref-tests`); our own live in `tests/harness/`. Each test runs with its working
//! directory set to the directory of its `.inp` file, so relative `load` paths work.

use crate::common;

use common::{Engine, Killer, Next};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// A whole file must finish within this time.
const TOTAL_TIME: Duration = Duration::from_secs(120);
/// Default time allowed for each expected line (`@time` changes it).
const DEFAULT_OP_LIMIT: Duration = Duration::from_secs(10);
/// How much of a program's stderr is kept for failure messages.
const STDERR_TAIL: usize = 2000;

/// Regular expressions of the harness, compiled once.
struct Patterns {
    separator: Regex,
    spaces: Regex,
    prompt: Regex,
    block_marker: Regex,
    keyword: Regex,
    red_move: Regex,
    blue_move: Regex,
    time: Regex,
    total_time: Regex,
    check: Regex,
    play: Regex,
    send: Regex,
    recv: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).expect("harness regex");
        let mover = |c: &str| {
            re(&format!(
                r"^(?:((?:Red|Blue) wins|Draw)|{c} (passes)|{c} moves ([a-g][1-7]-[a-g][1-7]))\.$"
            ))
        };
        Patterns {
            separator: re(r"^ *-{10,} *$"),
            spaces: re(r"  +"),
            prompt: re(r"^.*:\s*"),
            block_marker: re(r"^\s*==="),
            keyword: re(r"(?i)wins|passes|moves|draw"),
            red_move: mover("Red"),
            blue_move: mover("Blue"),
            time: re(r"^@time ([\d.]+)"),
            total_time: re(r"^@total-time (\d+)"),
            check: re(r"^@([<?])(.*)"),
            play: re(r"^@(red|blue)\.\.\.\s*(.*)"),
            send: re(r"^@send (red|blue)\.\.\.\s*(.*)"),
            recv: re(r"^@recv (red|blue)\.\.\.\s*(.*)"),
        }
    })
}

/// Tabs become spaces and runs of spaces one space.
fn squeeze(s: &str) -> String {
    patterns()
        .spaces
        .replace_all(&s.replace('\t', " "), " ")
        .into_owned()
}

/// Cleans a script line as the original does: tabs, surrounding blanks, `#` comment
/// lines (which become empty) and runs of spaces.
fn clean(raw: &str) -> String {
    let t = raw.replace('\t', " ");
    let t = t.trim();
    if t.starts_with('#') {
        String::new()
    } else {
        squeeze(t)
    }
}

/// Normalises a kept output line before `@<`/`@?` compare it.
fn normalise(line: &str) -> String {
    squeeze(line.trim_end())
}

/// A regex that must match at the start of a line (Python's `re.match`); `None` if blank.
fn start_pattern(pattern: &str) -> Result<Option<Regex>, String> {
    if pattern.trim_start_matches(' ').is_empty() {
        return Ok(None);
    }
    Regex::new(&format!("^(?:{pattern})"))
        .map(Some)
        .map_err(|e| format!("bad test pattern: {pattern} ({e})"))
}

/// One program section: its script lines as (1-based file line number, cleaned text).
type Section = Vec<(usize, String)>;

/// Splits a file into one or two sections of non-empty cleaned lines.
fn sections(text: &str) -> Vec<Section> {
    let mut out = vec![Vec::new()];
    for (i, raw) in text.lines().enumerate() {
        if out.len() == 1 && patterns().separator.is_match(raw) {
            out.push(Vec::new());
            continue;
        }
        let line = clean(raw);
        if !line.is_empty() {
            out.last_mut().expect("a section").push((i + 1, line));
        }
    }
    out
}

/// Which player a move line belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Colour {
    Red,
    Blue,
}

impl Colour {
    fn parse(s: &str) -> Colour {
        if s == "red" {
            Colour::Red
        } else {
            Colour::Blue
        }
    }
    fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
        }
    }
}

/// A checked move line: the line itself and the bare move to forward (`None` for a
/// result line, `-` for a pass).
type MoveLine = (String, Option<String>);

/// Keeps the output lines the harness looks at, as the original does: outside a dump,
/// the prompt (everything up to the last `:`) is stripped and only lines with a keyword
/// are kept; a `===` line starts a dump, whose lines are kept raw up to the closing one.
#[derive(Default)]
struct OutputFilter {
    in_dump: bool,
}

impl OutputFilter {
    fn keep(&mut self, raw: &str) -> Option<String> {
        let p = patterns();
        if self.in_dump {
            // Inside a dump: the raw line, without the prompt strip.
            self.in_dump = !p.block_marker.is_match(raw);
            return Some(raw.to_string());
        }
        let line = squeeze(p.prompt.replace(raw, "").trim_end());
        if p.block_marker.is_match(&line) {
            self.in_dump = true;
            Some(line)
        } else {
            p.keyword.is_match(&line).then_some(line)
        }
    }
}

/// One running copy of the program and the state of its script.
struct Program {
    title: &'static str,
    /// The running binary (killed when the program is dropped).
    engine: Engine,
    filter: OutputFilter,
    eof: bool,
    op_limit: Duration,
    deadline: Instant,
    to_other: Option<Sender<String>>,
    from_other: Option<Receiver<String>>,
}

type Res<T> = Result<T, String>;

impl Program {
    fn spawn(title: &'static str, dir: &Path, deadline: Instant) -> Res<Program> {
        Ok(Program {
            title,
            engine: Engine::spawn_in(dir, &[])?,
            filter: OutputFilter::default(),
            eof: false,
            op_limit: DEFAULT_OP_LIMIT,
            deadline,
            to_other: None,
            from_other: None,
        })
    }

    /// Runs the script (the lines after the program line), then ends the program.
    fn run(&mut self, start: usize, script: &[(usize, String)]) -> Result<(), (usize, String)> {
        let mut at = start;
        for (no, line) in script {
            at = *no;
            self.command(line).map_err(|e| (at, e))?;
        }
        self.finish().map_err(|e| (at, e))
    }

    /// Executes one script line: a directive or a line for the program's stdin.
    fn command(&mut self, line: &str) -> Res<()> {
        let p = patterns();
        if let Some(c) = p.time.captures(line) {
            let secs: Option<f64> = c[1].parse().ok();
            self.op_limit = secs
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .ok_or("bad number")?;
        } else if p.total_time.is_match(line) {
            // Ignored, as in the original.
        } else if let Some(c) = p.check.captures(line) {
            self.check_output(&c[1] == "?", &c[2])?;
        } else if let Some(c) = p.play.captures(line) {
            self.play_self(Colour::parse(&c[1]), &c[2])?;
        } else if let Some(c) = p.send.captures(line) {
            self.send_recv(true, Colour::parse(&c[1]), &c[2])?;
        } else if let Some(c) = p.recv.captures(line) {
            self.send_recv(false, Colour::parse(&c[1]), &c[2])?;
        } else if line.starts_with('@') {
            return Err(format!("bad command in script: {line}"));
        } else {
            self.send(line);
        }
        Ok(())
    }

    fn send(&self, line: &str) {
        self.engine.send(line);
    }

    /// The next kept line of this program's output (within the per-line limit).
    fn get(&mut self) -> Next {
        if self.eof {
            return Next::Eof;
        }
        let deadline = Instant::now().checked_add(self.op_limit);
        loop {
            match self.engine.next_until(deadline) {
                Next::Line(raw) => {
                    if let Some(line) = self.filter.keep(&raw) {
                        return Next::Line(line);
                    }
                }
                Next::Eof => {
                    self.eof = true;
                    return Next::Eof;
                }
                Next::Timeout => return Next::Timeout,
            }
        }
    }

    /// The other program's next move line (waits up to the file's deadline: the other
    /// side's AI thinking time is not ours to limit).
    fn get_other(&mut self) -> Res<Next> {
        let rx = self.from_other.as_ref().ok_or("no other program")?;
        let wait = self.deadline.saturating_duration_since(Instant::now());
        Ok(match rx.recv_timeout(wait) {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Disconnected) => Next::Eof,
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
        })
    }

    fn send_other(&self, line: &str) -> Res<()> {
        let tx = self.to_other.as_ref().ok_or("no other program")?;
        // If the other side has already stopped it reports its own failure.
        let _ = tx.send(line.to_string());
        Ok(())
    }

    fn check_output(&mut self, is_regex: bool, expected: &str) -> Res<()> {
        let line = match self.get() {
            Next::Line(l) => normalise(&l),
            Next::Eof => return Err(format!("premature end of output (expected {expected:?})")),
            Next::Timeout => return Err(format!("timed out waiting for output ({expected:?})")),
        };
        let ok = if is_regex {
            start_pattern(expected)?.is_none_or(|re| re.is_match(&line))
        } else {
            line == expected
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "output mismatch (got {line:?}, expected {expected:?})"
            ))
        }
    }

    fn check_move(who: Colour, line: String) -> Res<MoveLine> {
        let p = patterns();
        let re = if who == Colour::Red {
            &p.red_move
        } else {
            &p.blue_move
        };
        let Some(c) = re.captures(&line) else {
            return Err(format!("invalid move for {} ({line:?})", who.name()));
        };
        let bare = if c.get(1).is_some() {
            None
        } else if c.get(2).is_some() {
            Some("-".to_string())
        } else {
            Some(c[3].to_string())
        };
        Ok((line, bare))
    }

    /// A move or result line from this program, for `who`.
    fn get_move(&mut self, who: Colour) -> Res<MoveLine> {
        match self.get() {
            Next::Line(l) => Self::check_move(who, l),
            Next::Eof => Err("game output truncated".into()),
            Next::Timeout => Err(format!("timed out waiting for my {} move", who.name())),
        }
    }

    /// A move or result line from the other program, for `who`.
    fn get_other_move(&mut self, who: Colour) -> Res<MoveLine> {
        match self.get_other()? {
            Next::Line(l) => Self::check_move(who, l),
            Next::Eof => Err("game output truncated (other program)".into()),
            Next::Timeout => Err(format!("timed out waiting for other's {} move", who.name())),
        }
    }

    /// `@red...END` / `@blue...END`: alternating moves up to a result line.
    fn play_self(&mut self, first: Colour, end: &str) -> Res<()> {
        let end = start_pattern(end)?;
        let mut who = first;
        let last = loop {
            let (line, bare) = self.get_move(who)?;
            if bare.is_none() {
                break line;
            }
            who = who.other();
        };
        Self::check_end(end, &last)
    }

    /// `@send C...END` (`send_first`) and `@recv C...END`: play against the other program.
    fn send_recv(&mut self, send_first: bool, first: Colour, end: &str) -> Res<()> {
        let end = start_pattern(end)?;
        let (mut send, me, them) = if send_first {
            (true, first, first.other())
        } else {
            (false, first.other(), first)
        };
        let last = loop {
            if send {
                let (mine, bare) = self.get_move(me)?;
                self.send_other(&mine)?;
                if bare.is_none() {
                    let (theirs, _) = self.get_other_move(them)?;
                    if mine != theirs {
                        return Err(format!("game outcomes don't agree ({mine:?} / {theirs:?})"));
                    }
                    break mine;
                }
            }
            send = true;
            let (theirs, bare) = self.get_other_move(them)?;
            match bare {
                Some(mv) => self.send(&mv),
                None => {
                    let (mine, _) = self.get_move(me)?;
                    self.send_other(&mine)?;
                    if mine != theirs {
                        return Err(format!("game outcomes don't agree ({mine:?} / {theirs:?})"));
                    }
                    break mine;
                }
            }
        };
        Self::check_end(end, &last)
    }

    fn check_end(end: Option<Regex>, last: &str) -> Res<()> {
        match end {
            Some(re) if !re.is_match(last) => Err(format!(
                "outcome does not match end pattern ({last:?} / {})",
                re.as_str()
            )),
            _ => Ok(()),
        }
    }

    /// End of script: close stdin; no further kept output; exit status 0 in time.
    fn finish(&mut self) -> Res<()> {
        self.engine.close_stdin();
        self.to_other = None;
        match self.get() {
            Next::Eof => {}
            Next::Line(l) => return Err(format!("program produced extra output ({l:?})")),
            Next::Timeout => return Err("program did not terminate properly".into()),
        }
        match self
            .engine
            .wait_exit(self.op_limit)
            .map_err(|e| e.to_string())?
        {
            Some(s) if s.success() => Ok(()),
            Some(s) => Err(format!("program terminated with error exit ({s})")),
            None => Err("program did not terminate properly".into()),
        }
    }

    fn stderr_tail(&self) -> String {
        self.engine.stderr_tail(STDERR_TAIL)
    }
}

/// Runs one `.inp` file; `Err` describes every failure (program, line, reason).
fn run_file(path: &Path) -> Res<()> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let deadline = Instant::now() + TOTAL_TIME;
    let mut programs = Vec::new();
    let mut scripts = Vec::new();
    for (title, section) in ["Prog1", "Prog2"].into_iter().zip(sections(&text)) {
        let Some(((no, _), rest)) = section.split_first() else {
            return Err(format!("{title}: no command found"));
        };
        programs.push(Program::spawn(title, dir, deadline)?);
        scripts.push((*no, rest.to_vec()));
    }
    if programs.len() == 2 {
        let (a_tx, a_rx) = mpsc::channel();
        let (b_tx, b_rx) = mpsc::channel();
        programs[0].to_other = Some(a_tx);
        programs[0].from_other = Some(b_rx);
        programs[1].to_other = Some(b_tx);
        programs[1].from_other = Some(a_rx);
    }
    let children: Vec<Killer> = programs.iter().map(|p| p.engine.killer()).collect();
    let (done_tx, done_rx) = mpsc::channel();
    let count = programs.len();
    for (mut prog, (start, script)) in programs.into_iter().zip(scripts) {
        let done = done_tx.clone();
        thread::spawn(move || {
            let result = prog.run(start, &script);
            let report = result.map_err(|(line, msg)| {
                prog.engine.kill();
                let tail = prog.stderr_tail();
                let mut m = format!("{} near line {line}: {msg}", prog.title);
                if !tail.is_empty() {
                    m.push_str(&format!("\n  [{} stderr tail]\n{tail}", prog.title));
                }
                m
            });
            // Drop the program (killing it and closing its channels) before reporting.
            drop(prog);
            let _ = done.send(report);
        });
    }
    drop(done_tx);
    let mut failures = Vec::new();
    for _ in 0..count {
        let wait = deadline.saturating_duration_since(Instant::now());
        match done_rx.recv_timeout(wait) {
            Ok(Ok(())) => {}
            Ok(Err(m)) => failures.push(m),
            Err(_) => {
                failures.push(format!(
                    "test time exceeded {} seconds",
                    TOTAL_TIME.as_secs()
                ));
                break;
            }
        }
    }
    for c in &children {
        c.kill();
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Runs a file and panics with a message naming it on failure.
fn check(path: PathBuf) {
    if let Err(e) = run_file(&path) {
        panic!("{}: {e}", path.display());
    }
}

/// The directory of the official fa16 tests.
fn fa16(name: &str) -> PathBuf {
    let base = std::env::var_os("ATAXX_REF_TESTS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        PathBuf::from,
    );
    let path = base.join("ataxx/fa16").join(name);
    assert!(
        path.is_file(),
        "official test {} not found (set ATAXX_REF_TESTS to the directory above ataxx/fa16)",
        path.display()
    );
    path
}

/// Our own tests' directory.
fn own_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/harness")
}

macro_rules! inp_tests {
    ($dir:ident: $($(#[$attr:meta])* $name:ident => $file:literal;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check($dir($file));
            }
        )*
    };
}

inp_tests! { fa16:
    fa16_test01 => "test01.inp";
    fa16_test02 => "test02.inp";
    fa16_test03 => "test03.inp";
    fa16_test04 => "test04.inp";
    fa16_test05 => "test05.inp";
    fa16_test06 => "test06.inp";
    fa16_test07 => "test07.inp";
    fa16_extra_test08 => "extra/test08.inp";
    fa16_extra_test09 => "extra/test09.inp";
    fa16_extra_test10 => "extra/test10.inp";
    fa16_extra_test11 => "extra/test11.inp";
    fa16_extra_test12 => "extra/test12.inp";
    /// The stored copy lost its section separator, so it is one program whose `@send`
    /// has no partner (the original harness fails it too). `tests/harness/send_recv.inp`
    /// is the repaired copy.
    #[ignore = "malformed: no section separator (see docs/harness-notes.md)"]
    fa16_extra_test14 => "extra/test14.inp";
    fa16_extra_test15 => "extra/test15.inp";
}

/// Runs every `tests/harness/*.inp` file and reports all failures together.
#[test]
fn own_inp_files() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(own_dir())
        .expect("tests/harness exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "inp"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no tests/harness/*.inp files");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| run_file(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// Feeds `input` to a fresh program, closes stdin and returns every kept output line.
fn transcript(input: &str) -> Vec<String> {
    let deadline = Instant::now() + TOTAL_TIME;
    let mut prog = Program::spawn("seeded", &own_dir(), deadline).expect("program starts");
    for line in input.lines() {
        prog.send(line);
    }
    prog.engine.close_stdin();
    let mut lines = Vec::new();
    loop {
        match prog.get() {
            Next::Line(l) => lines.push(l),
            Next::Eof => return lines,
            Next::Timeout => panic!("no output for {:?}; so far: {lines:?}", prog.op_limit),
        }
    }
}

/// The same seed and input give the same AI moves (two AIs play a short game twice),
/// and those moves are pinned. Different seeds may or may not give different games, so
/// that is not checked.
#[test]
fn seed_reproducible() {
    // Rows 3-5 blocked: two 2-by-7 strips keep the game short.
    let blocks = "block a3\nblock b3\nblock c3\nblock d3\nblock a4\nblock b4\nblock c4\nblock d4\n";
    let input = format!("seed 20240611\nauto red\n{blocks}start\ndump\n");
    let first = transcript(&input);
    let second = transcript(&input);
    let moves = first.iter().filter(|l| l.contains(" moves ")).count();
    assert!(
        moves >= 4,
        "expected a game of several moves, got {first:?}"
    );
    assert!(
        first.iter().any(|l| l.ends_with(" wins.") || l == "Draw."),
        "the game should end: {first:?}"
    );
    assert_eq!(first, second, "same seed and input, different games");

    // The exact moves are pinned too. The AI's budget is a node count (its time cap is
    // some 40 times what the nodes take), so these lines are the same on every machine.
    // A change to this list must be deliberate (a search or evaluation change, or a
    // change to the generator or how the seed reaches the search) and documented with
    // it, like the bench signature in tests/bench.rs.
    let game = transcript(&format!("seed 42\nauto red\n{blocks}start\n"));
    let moves: Vec<&str> = game
        .iter()
        .map(String::as_str)
        .filter(|l| l.contains(" moves ") || l.ends_with(" passes."))
        .take(8)
        .collect();
    assert_eq!(
        moves,
        [
            "Red moves a7-b7.",
            "Blue moves a1-a2.",
            "Red moves b7-c6.",
            "Blue moves a1-c2.",
            "Red moves b7-d6.",
            "Blue moves c2-d2.",
            "Red moves a7-a6.",
            "Blue moves d2-e2.",
        ],
        "the seeded AI game changed: {game:?}"
    );
}

/// The harness itself fails on what it must catch (so a pass means something).
#[test]
fn harness_detects_failures() {
    let dir = std::env::temp_dir().join(format!("ataxx-harness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (
            "mismatch",
            "x\ndump\n@<===\n@<  r - - - - - r\n",
            "line 4: output mismatch",
        ),
        (
            "extra",
            "x\ndump\n",
            "line 2: program produced extra output",
        ),
        (
            "timeout",
            "x\n@time 0.3\n@red...\n",
            "line 3: timed out waiting for my red move",
        ),
        (
            "bad_directive",
            "x\n@bogus\n",
            "line 2: bad command in script",
        ),
        (
            "no_other",
            "x\nauto red\nstart\n@send red...\n",
            "line 4: no other program",
        ),
        (
            "end_pattern",
            "x\nseed 1\nauto red\nblock a2\nblock b2\nblock c2\nblock d2\nblock a3\nblock b3\n\
             block c3\nblock d3\nblock a4\nblock b4\nblock c4\nblock d4\nstart\n@red...Nobody\n",
            "line 17: outcome does not match end pattern",
        ),
        (
            "second",
            "x\n----------\ny\n\ndump\n",
            "Prog2 near line 5: program produced extra",
        ),
    ];
    for (name, script, expected) in cases {
        let path = dir.join(format!("{name}.inp"));
        std::fs::write(&path, script).expect("write temp script");
        match run_file(&path) {
            Ok(()) => panic!("{name}: the harness accepted a failing script"),
            Err(e) => assert!(e.contains(expected), "{name}: unexpected failure: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the files named in `ATAXX_INP` (separated by whitespace), for debugging a script:
/// `ATAXX_INP=path/x.inp cargo test --release --test tests -- --ignored harness::run_env_files`.
#[test]
#[ignore = "runs only the files named in ATAXX_INP"]
fn run_env_files() {
    let files = std::env::var("ATAXX_INP").expect("set ATAXX_INP to .inp paths");
    let failures: Vec<String> = files
        .split_whitespace()
        .filter_map(|f| run_file(Path::new(f)).err().map(|e| format!("{f}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

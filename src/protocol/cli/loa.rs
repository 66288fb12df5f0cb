//! The LOA course program's command line (`loa [--log=LOGFILE] [--strict] [INPUT-FILE
//! [OUTPUT-FILE]]`): the text language over files, with `--strict` and `--log`. This is
//! what the `loa` binary has of its own ([`BINARY`], registered in [`crate::variant`]);
//! everything else on its command line is every game binary's.

use super::{Binary, Opt, OwnCommand, Parsed};
use crate::protocol::input;
use crate::protocol::text::loa::{LoaText, LogSink, Options};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, IsTerminal, Write};
use std::sync::{Arc, Mutex};

/// The `loa` binary's own part.
pub const BINARY: Binary = Binary {
    options: &[
        Opt {
            name: "--strict",
            value: None,
            help: "a refused move ends the program with status 1 (text language)",
        },
        Opt {
            name: "--log",
            value: Some("LOGFILE"),
            help: "append every command and AI move to LOGFILE (text language)",
        },
    ],
    usage: &["[OPTIONS] [INPUT-FILE [OUTPUT-FILE]]    (`-` is stdin)"],
    command,
};

/// The course session when the command line asks for it (`--strict`, `--log` or
/// files), else the shared command line's protocols.
fn command(p: &Parsed) -> Result<Option<OwnCommand>, String> {
    let a = course_args(p)?;
    Ok(a.course
        .then(|| Box::new(move || course_session(a)) as OwnCommand))
}

/// A command-line word for an error message: printable and short.
fn safe(s: &str) -> String {
    s.chars()
        .take(60)
        .map(|c| if c.is_ascii_graphic() { c } else { '?' })
        .collect()
}

/// The LOA course program's part of the command line
/// (`loa [--log=LOGFILE] [--strict] [INPUT-FILE [OUTPUT-FILE]]`).
#[derive(Debug, Default, PartialEq, Eq)]
struct CourseArgs {
    log: Option<String>,
    strict: bool,
    input: Option<String>,
    output: Option<String>,
    /// The course's own session (options or files that only the text language takes);
    /// otherwise the shared command line runs.
    course: bool,
}

/// Reads the course program's part of the parsed command line; `Err` is a one-line
/// reason (a usage error).
fn course_args(p: &Parsed) -> Result<CourseArgs, String> {
    let commands = p.literal_from > 0
        && matches!(p.words.first().map(String::as_str), Some("perft" | "bench"));
    let files: &[String] = if commands { &[] } else { &p.words };
    let course = p.any(&["--strict", "--log"]) || !files.is_empty();
    if course && p.has("--ugi") {
        return Err(
            "--ugi takes no --strict, --log or files (they are the text language's)".into(),
        );
    }
    if files.len() > 2 {
        return Err("at most an input and an output file".to_string());
    }
    Ok(CourseArgs {
        log: p.value("--log").map(String::from),
        strict: p.has("--strict"),
        input: files.first().cloned(),
        output: files.get(1).cloned(),
        course,
    })
}

/// A file the course program cannot open: one line, exit status 1.
fn fail(message: &str) -> u8 {
    eprintln!("loa: {message}");
    1
}

/// The LOA course program's session over its files, with `--strict` and `--log`.
fn course_session(a: CourseArgs) -> u8 {
    let from_stdin = a.input.as_deref().is_none_or(|f| f == "-");
    let lines = match a.input.as_deref() {
        Some(path) if path != "-" => match File::open(path) {
            Ok(f) => input::spawn_reader(BufReader::new(f)),
            Err(e) => return fail(&format!("cannot open input file '{}': {e}", safe(path))),
        },
        _ => input::spawn_stdin(),
    };
    let mut out: Box<dyn Write> = match a.output.as_deref() {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(&format!("cannot open output file '{}': {e}", safe(path))),
        },
        None => Box::new(std::io::stdout()),
    };
    let log: Option<LogSink> = match a.log.as_deref() {
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(f) => Some(Arc::new(Mutex::new(f))),
            Err(e) => return fail(&format!("cannot open log file '{}': {e}", safe(path))),
        },
        None => None,
    };
    let setup = crate::protocol::text::Setup {
        dialect: Options {
            strict: a.strict,
            log,
        },
        ..crate::protocol::text::Setup::default()
    };
    let interactive = from_stdin && a.output.is_none() && std::io::stdin().is_terminal();
    let err = &mut std::io::stderr();
    crate::protocol::text::run::<LoaText>(None, lines, &mut out, err, interactive, setup, None)
        as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::cli;

    fn parse(words: &[&str]) -> Result<CourseArgs, String> {
        let args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        let mut opts = cli::shared_options::<LoaText>();
        opts.extend(BINARY.options.iter().cloned());
        opts.push(cli::DEBUG_OPTION);
        cli::parse_command_line(&args, &opts).and_then(|p| course_args(&p))
    }

    #[test]
    fn parses_the_course_command_line() {
        let a = parse(&["--strict", "--log=x.log", "--debug=2", "in", "out"]).unwrap();
        assert!(a.strict && a.course);
        assert_eq!(a.log.as_deref(), Some("x.log"));
        assert_eq!(
            (a.input.as_deref(), a.output.as_deref()),
            (Some("in"), Some("out"))
        );
        // The same in another order and with separate values.
        let b = parse(&["in", "--debug", "2", "out", "--log", "x.log", "--strict"]).unwrap();
        assert_eq!(a, b);
        assert_eq!(parse(&["-"]).unwrap().input.as_deref(), Some("-"));
        assert_eq!(
            parse(&["--", "--odd"]).unwrap().input.as_deref(),
            Some("--odd")
        );
        assert!(!parse(&["perft", "3"]).unwrap().course);
        assert!(!parse(&["--ugi", "--debug=1"]).unwrap().course);
        for bad in [
            &["--bogus"][..],
            &["--log="],
            &["-x"],
            &["a", "b", "c"],
            &["--strict", "--ugi"],
            &["--ugi", "--strict"],
            &["\u{2013}display"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}

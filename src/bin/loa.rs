//! The `loa` engine: the Lines of Action course text language by default (UGI when the
//! first command is `ugi`, or with `--ugi`), plus `perft` and `bench`, and the course
//! program's command line:
//!
//! `loa [--display] [--log=LOGFILE] [--strict] [--debug=N] [INPUT-FILE [OUTPUT-FILE]]`
//!
//! Without any of those options the shared command line (`engine::protocol::cli`) runs;
//! with them the text session runs here over the chosen files.

use engine::protocol::cli::{self, Opt};
use engine::protocol::text::loa::{configure, LoaText, LogSink, Options};
use engine::protocol::{input, text};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// The course program's options, after the shared ones.
fn options() -> Vec<Opt> {
    let mut opts = cli::shared_options::<LoaText>();
    opts.extend([
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
        Opt {
            name: "--debug",
            value: Some("N"),
            help: "diagnostics on stderr: 0 none, 1 warnings, 2 info, 3 debug, 4 trace",
        },
    ]);
    opts.push(cli::LISTEN_OPTION);
    opts
}

fn usage() -> String {
    cli::usage_for(
        "loa",
        &["[OPTIONS] [INPUT-FILE [OUTPUT-FILE]]    (`-` is stdin)"],
    )
}

/// The course program's options.
#[derive(Debug, Default, PartialEq, Eq)]
struct Args {
    log: Option<String>,
    strict: bool,
    debug: Option<u32>,
    input: Option<String>,
    output: Option<String>,
    /// The course's own session (options or files that only the text language takes);
    /// otherwise the shared command line runs.
    course: bool,
}

/// Reads the course program's part of the parsed command line; `Err` is a one-line
/// reason (a usage error).
fn course_args(p: &cli::Parsed) -> Result<Args, String> {
    let debug = match p.value("--debug") {
        Some(n) => Some(
            n.parse()
                .map_err(|_| format!("bad debug level '{}'", safe(n)))?,
        ),
        None => None,
    };
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
    Ok(Args {
        log: p.value("--log").map(String::from),
        strict: p.has("--strict"),
        debug,
        input: files.first().cloned(),
        output: files.get(1).cloned(),
        course,
    })
}

/// A command-line word for an error message: printable and short.
fn safe(s: &str) -> String {
    s.chars()
        .take(60)
        .map(|c| if c.is_ascii_graphic() { c } else { '?' })
        .collect()
}

fn init_logging(debug: Option<u32>) {
    let mut builder = match debug {
        None => env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")),
        Some(n) => {
            let level = match n {
                0 => log::LevelFilter::Off,
                1 => log::LevelFilter::Warn,
                2 => log::LevelFilter::Info,
                3 => log::LevelFilter::Debug,
                _ => log::LevelFilter::Trace,
            };
            let mut b = env_logger::Builder::new();
            b.filter_level(level);
            b
        }
    };
    builder.target(env_logger::Target::Stderr).init();
}

fn fail(message: &str) -> ExitCode {
    eprintln!("loa: {message}");
    ExitCode::from(1)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = options();
    let help = cli::help_text(&usage(), &opts);
    let parsed =
        cli::parse_command_line(&args, &opts).and_then(|p| course_args(&p).map(|a| (p, a)));
    let (p, a) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("loa: {e}\n{help}");
            return ExitCode::from(2);
        }
    };
    if !a.course || p.any(&["--help", "--version", "--display"]) {
        init_logging(a.debug);
        return ExitCode::from(cli::run_parsed::<LoaText>("loa", &p, &help));
    }
    init_logging(a.debug);

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
    let options = Options {
        strict: a.strict,
        log,
        ..Options::default()
    };
    let failed = options.failed.clone();
    configure(options);
    let interactive = from_stdin && a.output.is_none() && std::io::stdin().is_terminal();
    let status = text::run::<LoaText>(None, lines, &mut out, &mut std::io::stderr(), interactive);
    if failed.load(Ordering::Relaxed) {
        return ExitCode::from(1);
    }
    ExitCode::from(status as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<Args, String> {
        let args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        cli::parse_command_line(&args, &options()).and_then(|p| course_args(&p))
    }

    #[test]
    fn parses_the_course_command_line() {
        let a = parse(&["--strict", "--log=x.log", "--debug=2", "in", "out"]).unwrap();
        assert!(a.strict && a.course);
        assert_eq!(a.log.as_deref(), Some("x.log"));
        assert_eq!(a.debug, Some(2));
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
            &["--debug=x"],
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

//! The `loa` engine: the Lines of Action course text language by default (UGI when the
//! first command is `ugi`, or with `--ugi`), plus `perft` and `bench`, and the course
//! program's command line:
//!
//! `loa [--display] [--log=LOGFILE] [--strict] [--debug=N] [INPUT-FILE [OUTPUT-FILE]]`
//!
//! Without any of those options the shared command line (`engine::protocol::cli`) runs;
//! with them the text session runs here over the chosen files.

use engine::games::loa::text::{configure, LoaText, LogSink, Options};
use engine::protocol::{cli, input, text};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

const USAGE: &str = "usage: loa [--display] [--log=LOGFILE] [--strict] [--debug=N] \
                     [INPUT-FILE [OUTPUT-FILE]] | loa --ugi | loa perft DEPTH [FEN] | \
                     loa bench [DEPTH] | loa --help | loa --version";

/// The course program's options.
#[derive(Debug, Default, PartialEq, Eq)]
struct Args {
    display: bool,
    log: Option<String>,
    strict: bool,
    debug: Option<u32>,
    input: Option<String>,
    output: Option<String>,
}

/// Parses the course program's command line; `Err` is a one-line reason.
fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut files = Vec::new();
    let mut options_done = false;
    for arg in args {
        let arg = arg.as_str();
        if options_done || arg == "-" || !arg.starts_with('-') {
            files.push(arg.to_string());
            continue;
        }
        match arg.split_once('=') {
            _ if arg == "--" => options_done = true,
            _ if arg == "--display" => a.display = true,
            _ if arg == "--strict" => a.strict = true,
            Some(("--log", file)) if !file.is_empty() => a.log = Some(file.to_string()),
            Some(("--debug", n)) => {
                a.debug = Some(
                    n.parse()
                        .map_err(|_| format!("bad debug level '{}'", safe(n)))?,
                )
            }
            _ => return Err(format!("unknown option '{}'", safe(arg))),
        }
    }
    if files.len() > 2 {
        return Err("at most an input and an output file".to_string());
    }
    let mut files = files.into_iter();
    a.input = files.next();
    a.output = files.next();
    Ok(a)
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
    let shared = match args.first().map(String::as_str) {
        None => true,
        Some("--ugi" | "perft" | "bench") => true,
        Some("--help" | "-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some("--version" | "-V") => {
            println!("loa {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some(_) => false,
    };
    if shared {
        init_logging(None);
        return ExitCode::from(cli::run::<LoaText>("loa", &args));
    }
    let a = match parse_args(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("loa: {e}\n{USAGE}");
            return ExitCode::from(1);
        }
    };
    if a.display {
        eprintln!("loa: no GUI is available; run without --display for the text interface");
        return ExitCode::from(2);
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
        parse_args(&words.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_the_course_command_line() {
        let a = parse(&["--strict", "--log=x.log", "--debug=2", "in", "out"]).unwrap();
        assert!(a.strict && !a.display);
        assert_eq!(a.log.as_deref(), Some("x.log"));
        assert_eq!(a.debug, Some(2));
        assert_eq!(
            (a.input.as_deref(), a.output.as_deref()),
            (Some("in"), Some("out"))
        );
        assert_eq!(parse(&["-"]).unwrap().input.as_deref(), Some("-"));
        assert_eq!(
            parse(&["--", "--odd"]).unwrap().input.as_deref(),
            Some("--odd")
        );
        assert!(parse(&["--display"]).unwrap().display);
        for bad in [
            &["--bogus"][..],
            &["--log="],
            &["--debug=x"],
            &["-x"],
            &["a", "b", "c"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}

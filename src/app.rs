//! The one `main` of every game binary: logging, the shared command line
//! ([`crate::protocol::cli`]), the subcommands (`perft`, `bench`, Reversi's `solve`) and
//! the choice of protocol and dialect. A binary only names its game:
//! `fn main() -> ExitCode { engine::app::main(Variant::Ataxx) }`.
//!
//! Every binary takes the same style of command line (options in any order, `--opt=V`
//! or `--opt V`, `--` ends them; usage errors exit 2 with the reason and the help on
//! stderr) and the shared options (`--help`, `--version`, `--ugi`, `--display`,
//! `--debug N`). What a game adds is data here: Ataxx's `--edition` and the remote-play
//! options, Reversi's remote-play options and `solve FILE`, LOA's `--strict`, `--log`
//! and file arguments. Settings reach the session as values ([`text::Setup`]), never
//! through process-wide state.

use crate::games::reversi::solve::solve_obf;
use crate::protocol::cli::{self, Opt, Parsed};
use crate::protocol::text::ataxx::AtaxxText;
use crate::protocol::text::ataxx2008::Ataxx2008;
use crate::protocol::text::loa::{self, LoaText, LogSink};
use crate::protocol::text::reversi::ReversiText;
use crate::protocol::{input, text};
use crate::variant::{Dialect, Variant};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Runs the binary of game `variant` on the process's arguments.
pub fn main(variant: Variant) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(run(variant, &args))
}

/// `--debug N`, which every binary takes.
const DEBUG: Opt = Opt {
    name: "--debug",
    value: Some("N"),
    help: "diagnostics on stderr: 0 none, 1 warnings, 2 info, 3 debug, 4 trace",
};

/// The options of `variant`'s binary: the shared ones, then the game's own.
fn options(variant: Variant) -> Vec<Opt> {
    let mut opts = match variant {
        Variant::Ataxx => cli::shared_options::<AtaxxText>(),
        Variant::Loa => cli::shared_options::<LoaText>(),
        Variant::Reversi => cli::shared_options::<ReversiText>(),
    };
    match variant {
        Variant::Ataxx => {
            opts.push(Opt {
                name: "--edition",
                value: Some("2016|2008"),
                help: "the text language's edition (default 2016)",
            });
            opts.extend(cli::REMOTE_OPTIONS);
        }
        Variant::Loa => opts.extend([
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
            cli::LISTEN_OPTION,
        ]),
        Variant::Reversi => opts.extend(cli::REMOTE_OPTIONS),
    }
    opts.push(DEBUG);
    opts
}

/// The usage lines of `variant`'s binary, naming the protocols it speaks besides its
/// text language (only Ataxx has UAI; Reversi adds NBoard).
fn usage(variant: Variant) -> String {
    let (protocols, extra): (&str, &[&str]) = match variant {
        Variant::Ataxx => ("UAI/UGI", &[]),
        Variant::Loa => (
            "UGI",
            &["[OPTIONS] [INPUT-FILE [OUTPUT-FILE]]    (`-` is stdin)"],
        ),
        Variant::Reversi => ("UGI/NBoard", &["solve FILE    (OBF positions, one a line)"]),
    };
    cli::usage_for(variant.name(), protocols, extra)
}

/// Runs `variant`'s binary on `args`; returns the exit status.
pub fn run(variant: Variant, args: &[String]) -> u8 {
    let bin = variant.name();
    let opts = options(variant);
    let help = cli::help_text(&usage(variant), &opts);
    let parsed = cli::parse_command_line(args, &opts).and_then(|p| {
        let debug = debug_level(&p)?;
        let course = match variant {
            Variant::Loa => Some(course_args(&p)?),
            _ => None,
        };
        let dialect = match p.value("--edition") {
            None => variant.dialect(),
            Some(name) => edition(variant, name)?,
        };
        meaningful(variant, dialect, &p)?;
        Ok((p, debug, course, dialect))
    });
    let (p, debug, course, dialect) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{bin}: {e}\n{help}");
            return 2;
        }
    };
    init_logging(debug);
    let informs = p.any(&["--help", "--version", "--display"]);
    match dialect {
        Dialect::Ataxx2008 => cli::run_parsed::<Ataxx2008>(bin, &p, &help, ()),
        Dialect::Ataxx2016 => cli::run_parsed::<AtaxxText>(bin, &p, &help, ()),
        Dialect::Reversi => match p.words.first().map(String::as_str) {
            Some("solve") if !informs => solve(&p.words[1..]),
            _ => cli::run_parsed::<ReversiText>(bin, &p, &help, ()),
        },
        Dialect::Loa => match course {
            Some(a) if a.course && !informs => course_session(a),
            _ => cli::run_parsed::<LoaText>(bin, &p, &help, loa::Options::default()),
        },
    }
}

/// Refuses an option that means nothing for the edition chosen, rather than ignore it:
/// `--remote-timeout` where the text language has no remote play, and `--listen` there
/// without `--display` (the page is then the only thing that would listen).
fn meaningful(variant: Variant, dialect: Dialect, p: &Parsed) -> Result<(), String> {
    if dialect.remote_play() || p.any(&["--help", "--version"]) {
        return Ok(());
    }
    let which = match dialect.edition() {
        Some(e) => format!("the {e} edition"),
        None => format!("{}'s text language", variant.name()),
    };
    let hint = variant
        .dialects()
        .iter()
        .filter(|d| d.remote_play())
        .find_map(|d| d.edition())
        .map(|e| format!("; --edition {e} has it"))
        .unwrap_or_default();
    if p.value("--remote-timeout").is_some() {
        return Err(format!(
            "--remote-timeout is for remote play (host, join), which {which} does not have{hint}"
        ));
    }
    if p.value("--listen").is_some() && !p.has("--display") {
        return Err(format!(
            "--listen goes with --display ({which} has no remote play{hint})"
        ));
    }
    Ok(())
}

/// `--edition NAME`: the game's dialect of that edition (`variant::Dialect::edition`);
/// `Err` names the editions there are (`2016 or 2008`).
fn edition(variant: Variant, name: &str) -> Result<Dialect, String> {
    let dialects = variant.dialects();
    dialects
        .iter()
        .copied()
        .find(|d| d.edition() == Some(name))
        .ok_or_else(|| {
            let names: Vec<&str> = dialects.iter().filter_map(|d| d.edition()).collect();
            format!("unknown edition '{}' ({})", safe(name), names.join(" or "))
        })
}

/// `--debug N`, if given; `Err` for a value that is not a number.
fn debug_level(p: &Parsed) -> Result<Option<u32>, String> {
    p.value("--debug")
        .map(|n| {
            n.parse()
                .map_err(|_| format!("bad debug level '{}'", safe(n)))
        })
        .transpose()
}

/// Logs go to stderr: `--debug N` sets the level, else `RUST_LOG` (default: warnings).
pub fn init_logging(debug: Option<u32>) {
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
    let setup = text::Setup {
        dialect: loa::Options {
            strict: a.strict,
            log,
        },
        ..text::Setup::default()
    };
    let interactive = from_stdin && a.output.is_none() && std::io::stdin().is_terminal();
    let err = &mut std::io::stderr();
    text::run::<LoaText>(None, lines, &mut out, err, interactive, setup) as u8
}

/// `reversi solve FILE`: one line per OBF position (`;` and `#` lines are comments),
/// `N OBF empties E move M score S nodes N time MS`; exit 2 on a bad command line,
/// an unreadable file or a bad position (nothing solved then).
fn solve(args: &[String]) -> u8 {
    let [file] = args else {
        eprintln!("reversi: usage: reversi solve FILE (OBF positions, one a line)");
        return 2;
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("reversi: cannot read {file}: {e}");
            return 2;
        }
    };
    // `;` at the start of a line is a comment too (it keeps the line numbers).
    let text: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with(';') {
                ""
            } else {
                l
            }
        })
        .flat_map(|l| [l, "\n"])
        .collect();
    let mut out = std::io::stdout().lock();
    match solve_obf(&text, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("reversi: {file}: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<CourseArgs, String> {
        let args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        cli::parse_command_line(&args, &options(Variant::Loa)).and_then(|p| {
            debug_level(&p)?;
            course_args(&p)
        })
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

    #[test]
    fn every_binary_takes_the_shared_options() {
        for &v in Variant::ALL {
            let names: Vec<&str> = options(v).iter().map(|o| o.name).collect();
            for shared in ["--help", "--version", "--ugi", "--display", "--debug"] {
                assert!(names.contains(&shared), "{v:?} {shared}");
            }
        }
    }
}

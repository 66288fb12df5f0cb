//! The one `main` of every game binary: logging, the shared command line
//! ([`crate::protocol::cli`]), the binary's own commands and the choice of protocol and
//! dialect. A binary only names its game:
//! `fn main() -> ExitCode { engine::app::main(Variant::Ataxx) }`. Nothing here names a
//! game: what a binary has of its own (LOA's course session, Reversi's `solve`, their
//! options and usage lines) is registered with its game in [`crate::variant`], and the
//! editions, protocols and remote-play options are read from its dialects.
//!
//! Every binary takes the same style of command line (options in any order, `--opt=V`
//! or `--opt V`, `--` ends them; usage errors exit 2 with the reason and the help on
//! stderr) and the shared options (`--help`, `--version`, `--ugi`, `--display`,
//! `--debug N`). Settings reach the session as values ([`crate::protocol::text::Setup`]),
//! never through process-wide state.

use crate::protocol::cli::{self, Opt, Parsed};
use crate::variant::{Dialect, Playable, Variant, VariantVisitor};
use std::process::ExitCode;

/// Runs the binary of game `variant` on the process's arguments.
pub fn main(variant: Variant) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(run(variant, &args))
}

/// The options of `variant`'s binary: the shared ones (those of its default dialect's
/// game), `--edition` where it has several, its own, the remote-play options where a
/// dialect plays remotely (else `--listen` for the board page alone), `--debug`.
fn options(variant: Variant) -> Vec<Opt> {
    struct Shared;
    impl VariantVisitor for Shared {
        type Output = Vec<Opt>;
        fn visit<D: Playable>(self) -> Vec<Opt> {
            cli::shared_options::<D>()
        }
    }
    let mut opts = variant.visit(Shared);
    let editions: Vec<&str> = variant
        .dialects()
        .iter()
        .filter_map(|d| d.edition())
        .collect();
    if editions.len() > 1 {
        opts.push(Opt {
            name: "--edition",
            // Built once per process, for its help line.
            value: Some(Box::leak(editions.join("|").into_boxed_str())),
            help: Box::leak(
                format!("the text language's edition (default {})", editions[0]).into_boxed_str(),
            ),
        });
    }
    opts.extend(variant.binary().options.iter().copied());
    if variant.dialects().iter().any(|d| d.remote_play()) {
        opts.extend(cli::REMOTE_OPTIONS);
    } else {
        opts.push(cli::LISTEN_OPTION);
    }
    opts.push(cli::DEBUG_OPTION);
    opts
}

/// The usage lines of `variant`'s binary, naming the protocols it speaks besides its
/// text language (UAI only where the game speaks it; a game's own, like NBoard).
fn usage(variant: Variant) -> String {
    struct Protocols;
    impl VariantVisitor for Protocols {
        type Output = String;
        fn visit<D: Playable>(self) -> String {
            let names: Vec<&str> = cli::engine_protocols::<D>().iter().map(|p| p.1).collect();
            names.join("/")
        }
    }
    let protocols = variant.visit(Protocols);
    cli::usage_for(variant.name(), &protocols, variant.binary().usage)
}

/// Runs `variant`'s binary on `args`; returns the exit status.
pub fn run(variant: Variant, args: &[String]) -> u8 {
    let bin = variant.name();
    let opts = options(variant);
    let help = cli::help_text(&usage(variant), &opts);
    let parsed = cli::parse_command_line(args, &opts).and_then(|p| {
        let debug = debug_level(&p)?;
        let own = (variant.binary().command)(&p)?;
        let dialect = match p.value("--edition") {
            None => variant.dialect(),
            Some(name) => edition(variant, name)?,
        };
        meaningful(variant, dialect, &p)?;
        Ok((p, debug, own, dialect))
    });
    let (p, debug, own, dialect) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{bin}: {e}\n{help}");
            return 2;
        }
    };
    init_logging(debug);
    match own {
        Some(command) if !p.any(&["--help", "--version", "--display"]) => command(),
        _ => dialect.visit(RunParsed {
            bin,
            p: &p,
            help: &help,
        }),
    }
}

/// The shared command line's protocols and sessions, in the chosen dialect.
struct RunParsed<'a> {
    bin: &'a str,
    p: &'a Parsed,
    help: &'a str,
}

impl VariantVisitor for RunParsed<'_> {
    type Output = u8;
    fn visit<D: Playable>(self) -> u8 {
        cli::run_parsed::<D>(self.bin, self.p, self.help, D::Options::default())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binary_takes_the_shared_options() {
        for &v in Variant::ALL {
            let names: Vec<&str> = options(v).iter().map(|o| o.name).collect();
            for shared in [
                "--help",
                "--version",
                "--ugi",
                "--display",
                "--debug",
                "--listen",
            ] {
                assert!(names.contains(&shared), "{v:?} {shared}");
            }
            let each = |n: &str| names.iter().filter(|&&m| m == n).count();
            assert!(names.iter().all(|n| each(n) == 1), "{v:?} {names:?}");
            assert_eq!(
                names.contains(&"--edition"),
                v.dialects().len() > 1,
                "{v:?}"
            );
        }
    }

    #[test]
    fn a_bad_debug_level_is_a_usage_error() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(run(Variant::Loa, &args(&["--debug=x"])), 2);
    }
}

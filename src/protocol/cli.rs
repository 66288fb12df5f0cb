//! The command line every game binary shares: the interactive protocols (the game's
//! course text language by default, UAI/UGI when the first command says so or a flag
//! asks), `perft` and `bench`. A binary only names its game's dialect and adds its own
//! extras.

use super::input::{self, Line};
use super::remote;
use super::text::{self, OtherProtocol, TextDialect};
use super::uci::{self, Dialect};
use crate::bench;
use crate::game::{GameIo, RuleSet};
use std::io::IsTerminal;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

/// The remote-play options every binary with `host` / `join` takes, for its help text.
pub const REMOTE_OPTIONS: &str = "--remote-timeout SECONDS (remote play; default 10), \
--listen ADDR (the IPv4 interface `host` listens on; default 127.0.0.1)";

/// Takes the remote-play options (`--remote-timeout SECONDS`, `--listen ADDR`, each
/// with its value) out of `args` and applies them to this process, leaving the rest
/// in order. `Err` is a one-line reason (a missing or bad value).
pub fn take_remote_options(args: Vec<String>) -> Result<Vec<String>, String> {
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        if arg != "--remote-timeout" && arg != "--listen" {
            rest.push(arg);
            continue;
        }
        let v = it.next().ok_or(format!("{arg} needs a value"))?;
        if arg == "--listen" {
            let addr: Ipv4Addr = v
                .parse()
                .map_err(|_| format!("bad --listen '{v}' (an IPv4 address)"))?;
            remote::set_listen_interface(addr);
        } else {
            let secs: f64 = v
                .parse()
                .ok()
                .filter(|s: &f64| (0.001..=86_400.0).contains(s))
                .ok_or(format!(
                    "bad --remote-timeout '{v}' (seconds, 0.001 to 86400)"
                ))?;
            remote::set_remote_timeout(Duration::from_secs_f64(secs));
        }
    }
    Ok(rest)
}

/// Deepest `perft` accepted on the command line.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The usage line for a game binary named `bin`.
pub fn usage<G: GameIo>(bin: &str) -> String {
    usage_with::<G>(bin, &[])
}

/// The usage line for the binary of dialect `D`, its own protocols included.
pub fn usage_for<D: TextDialect>(bin: &str) -> String {
    usage_with::<D::Game>(bin, D::other_protocols())
}

fn usage_with<G: GameIo>(bin: &str, others: &[OtherProtocol]) -> String {
    let uai = if G::SPEAKS_UAI { "--uai | " } else { "" };
    let others: String = others.iter().map(|p| format!(" | --{}", p.hello)).collect();
    format!(
        "usage: {bin} [{uai}--ugi{others}] | {bin} perft DEPTH [FEN] | {bin} bench [DEPTH] | {bin} --help"
    )
}

/// Runs the shared command line (without the program name) for dialect `D`; returns
/// the exit status: 0 done, 2 bad command line or `--display` (no GUI here).
pub fn run<D: TextDialect>(bin: &str, args: &[String]) -> u8 {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let usage_error = |msg: &str| {
        eprintln!("{bin}: {msg}\n{}", usage_for::<D>(bin));
        2
    };
    // A game's own protocol chosen by its flag (`--nboard`).
    if let [flag] = args.as_slice() {
        let hello = flag.strip_prefix("--");
        if let Some(p) = D::other_protocols().iter().find(|p| hello == Some(p.hello)) {
            return (p.run)(None, input::spawn_stdin(), &mut std::io::stdout()) as u8;
        }
    }
    match args.as_slice() {
        [] => interactive::<D>(None),
        ["--uai"] if D::Game::SPEAKS_UAI => interactive::<D>(Some(Dialect::Uai)),
        ["--ugi"] => interactive::<D>(Some(Dialect::Ugi)),
        ["--display", ..] => {
            eprintln!("{bin}: no GUI is available; run without --display for the text interface");
            2
        }
        ["--help" | "-h"] => {
            println!("{}", usage_for::<D>(bin));
            0
        }
        ["--version" | "-V"] => {
            println!("{bin} {}", env!("CARGO_PKG_VERSION"));
            0
        }
        ["perft", depth, fen @ ..] => match depth.parse::<u32>() {
            Ok(d) if d <= MAX_PERFT_DEPTH => match perft::<D::Game>(d, &fen.join(" ")) {
                Ok(line) => {
                    println!("{line}");
                    0
                }
                Err(e) => usage_error(&e),
            },
            _ => usage_error(&format!(
                "bad perft depth '{depth}' (0 to {MAX_PERFT_DEPTH})"
            )),
        },
        ["bench"] => bench_cmd::<D::Game>(D::Game::BENCH_DEPTH),
        ["bench", depth] => match depth.parse() {
            Ok(d) if (1..=30).contains(&d) => bench_cmd::<D::Game>(d),
            _ => usage_error(&format!("bad bench depth '{depth}'")),
        },
        _ => usage_error(&format!("unknown arguments '{}'", args.join(" "))),
    }
}

/// Reads the first non-blank line to pick the protocol (unless a flag chose it), then
/// hands over. A person at a terminal sees the text language's prompt at once.
fn interactive<D: TextDialect>(forced: Option<Dialect>) -> u8 {
    let lines = input::spawn_stdin();
    let mut stdout = std::io::stdout();
    if let Some(dialect) = forced {
        return uci::run::<D::Game>(dialect, None, lines, &mut stdout) as u8;
    }
    let terminal = std::io::stdin().is_terminal();
    if terminal {
        if let Some(p) = D::new().prompt() {
            use std::io::Write;
            let _ = write!(stdout, "{p}");
            let _ = stdout.flush();
        }
    }
    let prompt = D::new().prompt().filter(|_| terminal);
    let say = |text: &str| {
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = write!(out, "{text}");
        let _ = out.flush();
    };
    // A blank line at a terminal gets the prompt again, as every later one does.
    let first: Option<Line> = lines.iter().find(|l| {
        let blank = !l.too_long && l.text.trim().is_empty();
        if blank {
            prompt.as_deref().map(say);
        }
        !blank
    });
    if first.is_none() && terminal {
        say("\n"); // Ctrl-D at the prompt: the shell's prompt starts on a line of its own
        return 0;
    }
    let word = first.as_ref().map(|l| l.text.trim());
    let chosen = [Dialect::Uai, Dialect::Ugi]
        .into_iter()
        .filter(|&d| d != Dialect::Uai || D::Game::SPEAKS_UAI)
        .find(|d| word == Some(d.hello()));
    let first_word = word.and_then(|w| w.split_whitespace().next());
    let other = D::other_protocols()
        .iter()
        .find(|p| first_word == Some(p.hello));
    match (chosen, other) {
        (Some(dialect), _) => uci::run::<D::Game>(dialect, first, lines, &mut stdout) as u8,
        (None, Some(p)) => (p.run)(first, lines, &mut stdout) as u8,
        (None, None) => {
            text::run::<D>(first, lines, &mut stdout, &mut std::io::stderr(), terminal) as u8
        }
    }
}

/// `perft DEPTH [FEN]` under the engine rule set: the summary line.
pub fn perft<G: GameIo>(depth: u32, fen: &str) -> Result<String, String> {
    let mut pos = if fen.trim().is_empty() {
        G::startpos(RuleSet::Engine)
    } else {
        G::from_fen(fen, RuleSet::Engine)?
    };
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let time = start.elapsed();
    Ok(format!(
        "nodes {nodes} time {} nps {}",
        time.as_millis(),
        crate::search::nps(nodes, time)
    ))
}

fn bench_cmd<G: GameIo>(depth: u32) -> u8 {
    println!("{}", bench::run(&G::bench_positions(), depth).line());
    0
}

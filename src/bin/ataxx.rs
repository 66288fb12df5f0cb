//! The `ataxx` engine: the `ataxx.txt` text language by default, UAI when the first
//! command is `uai` (or with `--uai`), plus `perft` and `bench` as subcommands.

use engine::bench;
use engine::games::ataxx::{self, Position, Rules};
use engine::protocol::{input, text, uai};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: ataxx [--uai] | ataxx perft DEPTH [FEN] | ataxx bench [DEPTH] | ataxx --help";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let code = match args.as_slice() {
        [] => run_interactive(false),
        ["--uai"] => run_interactive(true),
        ["--display", ..] => {
            eprintln!("ataxx: no GUI is available; run without --display for the text interface");
            2
        }
        ["--help" | "-h"] => {
            println!("{USAGE}");
            0
        }
        ["perft", depth, fen @ ..] => perft(depth, &fen.join(" ")),
        ["bench"] => bench_cmd(bench::DEFAULT_DEPTH),
        ["bench", depth] => match depth.parse() {
            Ok(d) if (1..=30).contains(&d) => bench_cmd(d),
            _ => usage_error(&format!("bad bench depth '{depth}'")),
        },
        _ => usage_error(&format!("unknown arguments '{}'", args.join(" "))),
    };
    ExitCode::from(code)
}

fn usage_error(msg: &str) -> u8 {
    eprintln!("ataxx: {msg}\n{USAGE}");
    2
}

/// Reads the first non-blank line to pick the protocol, then hands over.
fn run_interactive(force_uai: bool) -> u8 {
    let lines = input::spawn_stdin();
    let mut stdout = std::io::stdout();
    if force_uai {
        return uai::run(None, lines, &mut stdout) as u8;
    }
    let first = lines.iter().find(|l| !l.trim().is_empty());
    let is_uai = first.as_deref().map(str::trim) == Some("uai");
    if is_uai {
        uai::run(first, lines, &mut stdout) as u8
    } else {
        text::run(first, lines, &mut stdout) as u8
    }
}

fn perft(depth: &str, fen: &str) -> u8 {
    let Ok(depth) = depth.parse::<u32>() else {
        return usage_error(&format!("bad perft depth '{depth}'"));
    };
    if depth > 12 {
        return usage_error("perft depth must be at most 12");
    }
    let pos = if fen.trim().is_empty() {
        Ok(Position::startpos(Rules::Uai))
    } else {
        Position::from_fen(fen, Rules::Uai)
    };
    let mut pos = match pos {
        Ok(p) => p,
        Err(e) => return usage_error(&e.to_string()),
    };
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let time = start.elapsed();
    println!(
        "nodes {nodes} time {} nps {}",
        time.as_millis(),
        engine::search::nps(nodes, time)
    );
    0
}

fn bench_cmd(depth: u32) -> u8 {
    let positions = ataxx::bench_positions();
    let result = bench::run(&positions, depth);
    println!("{}", result.line());
    0
}

//! The `reversi` engine: the `reversi.txt` text language by default, UGI when the first
//! command is `ugi` (or with `--ugi`), plus `perft`, `bench` and `solve FILE` (exact
//! endgame scores of OBF positions). `--remote-timeout SECONDS` and `--listen ADDR` set
//! up remote play (`host` / `join`), as for `ataxx`.

use engine::games::reversi::solve::solve_obf;
use engine::games::reversi::text::ReversiText;
use engine::protocol::cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match cli::take_remote_options(args) {
        Ok(rest) => rest,
        Err(msg) => {
            let usage = cli::usage_for::<ReversiText>("reversi");
            eprintln!("reversi: {msg}\n{usage}\noptions: {}", cli::REMOTE_OPTIONS);
            return ExitCode::from(2);
        }
    };
    match args.first().map(String::as_str) {
        Some("solve") => ExitCode::from(solve(&args[1..])),
        Some("--help" | "-h") if args.len() == 1 => {
            let usage = cli::usage_for::<ReversiText>("reversi");
            println!(
                "{usage} | reversi solve FILE\noptions: {}",
                cli::REMOTE_OPTIONS
            );
            ExitCode::SUCCESS
        }
        _ => ExitCode::from(cli::run::<ReversiText>("reversi", &args)),
    }
}

/// `reversi solve FILE`: one line per OBF position (`;` and `#` lines are comments),
/// `N OBF empties E move M score S nodes N time MS`; exit 2 on a bad command line,
/// an unreadable file or a bad position (nothing solved then).
fn solve(args: &[String]) -> u8 {
    let [file] = args else {
        eprintln!("usage: reversi solve FILE (OBF positions, one a line)");
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

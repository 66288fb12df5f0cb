//! The `reversi` engine: the `reversi.txt` text language by default, UGI when the first
//! command is `ugi` (or with `--ugi`), NBoard when it is `nboard` (or with `--nboard`),
//! plus `perft`, `bench` and `solve FILE` (exact endgame scores of OBF positions).
//! `--remote-timeout SECONDS` and `--listen ADDR` set up remote play (`host` / `join`),
//! as for `ataxx`. Options in any order, `--opt=V` or `--opt V` (`engine::protocol::cli`).

use engine::games::reversi::solve::solve_obf;
use engine::protocol::cli;
use engine::protocol::text::reversi::ReversiText;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = cli::shared_options::<ReversiText>();
    opts.extend(cli::REMOTE_OPTIONS);
    let usage = cli::usage_for("reversi", &["solve FILE    (OBF positions, one a line)"]);
    let help = cli::help_text(&usage, &opts);
    let p = match cli::parse_command_line(&args, &opts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("reversi: {e}\n{help}");
            return ExitCode::from(2);
        }
    };
    match p.words.first().map(String::as_str) {
        Some("solve") if !p.any(&["--help", "--version", "--display"]) => {
            ExitCode::from(solve(&p.words[1..]))
        }
        _ => ExitCode::from(cli::run_parsed::<ReversiText>("reversi", &p, &help)),
    }
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

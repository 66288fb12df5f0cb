//! The `ataxx` engine: the `ataxx.txt` text language by default (the 2016 edition; the
//! 2008 edition with `--edition 2008`), UAI or UGI when the first command is `uai` /
//! `ugi` (or with `--uai` / `--ugi`), plus `perft` and `bench`.

use engine::games::ataxx::text::AtaxxText;
use engine::games::ataxx::text2008::Ataxx2008;
use engine::protocol::cli;
use std::process::ExitCode;

/// The options this binary adds to the shared command line.
const EDITION_OPTION: &str = "--edition 2016|2008 (the text language; default 2016)";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match split_options(args) {
        Ok((edition, rest)) => {
            if matches!(rest.as_slice(), [h] if h == "--help" || h == "-h") {
                println!(
                    "{}\noptions: {EDITION_OPTION}, {}",
                    cli::usage::<engine::games::ataxx::Position>("ataxx"),
                    cli::REMOTE_OPTIONS
                );
                return ExitCode::SUCCESS;
            }
            ExitCode::from(match edition {
                Edition::E2016 => cli::run::<AtaxxText>("ataxx", &rest),
                Edition::E2008 => cli::run::<Ataxx2008>("ataxx", &rest),
            })
        }
        Err(msg) => {
            eprintln!(
                "ataxx: {msg}\n{}\noptions: {EDITION_OPTION}, {}",
                cli::usage::<engine::games::ataxx::Position>("ataxx"),
                cli::REMOTE_OPTIONS
            );
            ExitCode::from(2)
        }
    }
}

#[derive(Clone, Copy)]
enum Edition {
    E2016,
    E2008,
}

/// Takes this binary's options (each with its value) out of `args`, leaving the shared
/// command line; the remote-play settings are applied at once.
fn split_options(args: Vec<String>) -> Result<(Edition, Vec<String>), String> {
    let mut edition = Edition::E2016;
    let mut rest = Vec::new();
    let mut it = cli::take_remote_options(args)?.into_iter();
    while let Some(arg) = it.next() {
        if arg != "--edition" {
            rest.push(arg);
            continue;
        }
        edition = match it.next().ok_or("--edition needs a value")?.as_str() {
            "2016" => Edition::E2016,
            "2008" => Edition::E2008,
            other => return Err(format!("unknown edition '{other}' (2016 or 2008)")),
        };
    }
    Ok((edition, rest))
}

//! The `ataxx` engine: the `ataxx.txt` text language by default (the 2016 edition; the
//! 2008 edition with `--edition 2008`), UAI or UGI when the first command is `uai` /
//! `ugi` (or with `--uai` / `--ugi`), plus `perft` and `bench`. Options as every game
//! binary takes them (`engine::protocol::cli`): in any order, `--opt=V` or `--opt V`.

use engine::protocol::cli::{self, Opt};
use engine::protocol::text::ataxx::AtaxxText;
use engine::protocol::text::ataxx2008::Ataxx2008;
use std::process::ExitCode;

/// The options this binary adds to the shared ones.
fn options() -> Vec<Opt> {
    let mut opts = cli::shared_options::<AtaxxText>();
    opts.push(Opt {
        name: "--edition",
        value: Some("2016|2008"),
        help: "the text language's edition (default 2016)",
    });
    opts.extend(cli::REMOTE_OPTIONS);
    opts
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = options();
    let help = cli::help_text(&cli::usage_for("ataxx", &[]), &opts);
    let parsed = cli::parse_command_line(&args, &opts).and_then(|p| match p.value("--edition") {
        None | Some("2016") => Ok((false, p)),
        Some("2008") => Ok((true, p)),
        Some(other) => Err(format!("unknown edition '{other}' (2016 or 2008)")),
    });
    ExitCode::from(match parsed {
        Ok((false, p)) => cli::run_parsed::<AtaxxText>("ataxx", &p, &help),
        Ok((true, p)) => cli::run_parsed::<Ataxx2008>("ataxx", &p, &help),
        Err(e) => {
            eprintln!("ataxx: {e}\n{help}");
            2
        }
    })
}

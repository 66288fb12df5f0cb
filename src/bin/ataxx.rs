//! The `ataxx` engine: the `ataxx.txt` text language by default (the 2016 edition; the
//! 2008 edition with `--edition 2008`), UAI or UGI when the first command is `uai` /
//! `ugi` (or with `--uai` / `--ugi`), plus `perft` and `bench`.

use engine::games::ataxx::text::AtaxxText;
use engine::games::ataxx::text2008::{self, Ataxx2008};
use engine::protocol::cli;
use std::net::Ipv4Addr;
use std::process::ExitCode;
use std::time::Duration;

/// The options this binary adds to the shared command line.
const OPTIONS: &str = "options: --edition 2016|2008 (the text language; default 2016), \
--remote-timeout SECONDS (2008 remote play; default 10), \
--listen ADDR (the IPv4 interface `host` listens on; default 127.0.0.1)";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match split_options(args) {
        Ok((edition, rest)) => {
            if matches!(rest.as_slice(), [h] if h == "--help" || h == "-h") {
                println!(
                    "{}\n{OPTIONS}",
                    cli::usage::<engine::games::ataxx::Position>("ataxx")
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
                "ataxx: {msg}\n{}\n{OPTIONS}",
                cli::usage::<engine::games::ataxx::Position>("ataxx")
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
/// command line; the settings of the 2008 edition are applied at once.
fn split_options(args: Vec<String>) -> Result<(Edition, Vec<String>), String> {
    let mut edition = Edition::E2016;
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--edition" => {
                edition = match value("--edition")?.as_str() {
                    "2016" => Edition::E2016,
                    "2008" => Edition::E2008,
                    other => return Err(format!("unknown edition '{other}' (2016 or 2008)")),
                }
            }
            "--remote-timeout" => {
                let v = value("--remote-timeout")?;
                let secs: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| (0.001..=86_400.0).contains(s))
                    .ok_or(format!(
                        "bad --remote-timeout '{v}' (seconds, 0.001 to 86400)"
                    ))?;
                text2008::set_remote_timeout(Duration::from_secs_f64(secs));
            }
            "--listen" => {
                let v = value("--listen")?;
                let addr: Ipv4Addr = v
                    .parse()
                    .map_err(|_| format!("bad --listen '{v}' (an IPv4 address)"))?;
                text2008::set_listen_interface(addr);
            }
            _ => rest.push(arg),
        }
    }
    Ok((edition, rest))
}

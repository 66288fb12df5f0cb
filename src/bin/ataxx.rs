//! The `ataxx` engine: the `ataxx.txt` text language by default, UAI or UGI when the
//! first command is `uai` / `ugi` (or with `--uai` / `--ugi`), plus `perft` and `bench`.

use engine::games::ataxx::text::AtaxxText;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(engine::protocol::cli::run::<AtaxxText>("ataxx", &args))
}

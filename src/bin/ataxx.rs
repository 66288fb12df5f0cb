//! The `ataxx` engine: the `ataxx.txt` text language by default (the 2016 edition; the
//! 2008 edition with `--edition 2008`), UAI or UGI when the first command is `uai` /
//! `ugi` (or with `--uai` / `--ugi`), plus `perft` and `bench`. The command line is
//! every game binary's (`engine::app`).

fn main() -> std::process::ExitCode {
    engine::app::main(engine::variant::Variant::Ataxx)
}

//! The `reversi` engine: the `reversi.txt` text language by default, UGI when the first
//! command is `ugi` (or with `--ugi`), NBoard when it is `nboard` (or with `--nboard`),
//! plus `perft`, `bench` and `solve FILE` (exact endgame scores of OBF positions).
//! `--remote-timeout SECONDS` and `--listen ADDR` set up remote play (`host` / `join`),
//! as for `ataxx`. The command line is every game binary's (`engine::app`).

fn main() -> std::process::ExitCode {
    engine::app::main(engine::variant::Variant::Reversi)
}

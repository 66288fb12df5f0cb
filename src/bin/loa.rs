//! The `loa` engine: the Lines of Action course text language by default (UGI when the
//! first command is `ugi`, or with `--ugi`), plus `perft` and `bench`, and the course
//! program's command line:
//!
//! `loa [--display] [--log=LOGFILE] [--strict] [--debug=N] [INPUT-FILE [OUTPUT-FILE]]`
//!
//! The command line is every game binary's (`engine::app`).

fn main() -> std::process::ExitCode {
    engine::app::main(engine::variant::Variant::Loa)
}

//! Tic-tac-toe over UGI (`testkit::toy`): the engine library's generic UGI session and
//! search, for a game registered nowhere, as a process the runner's tests can drive.

fn main() {
    let lines = engine::protocol::input::spawn_stdin();
    let status = engine::protocol::uci::run::<testkit::toy::TicTacToe>(
        engine::protocol::uci::Flavour::Ugi,
        None,
        lines,
        &mut std::io::stdout(),
    );
    std::process::exit(status);
}

//! The players: engine processes (their pipes, deadlines and traffic log), one client per
//! protocol (UAI/UGI, the course text languages, NBoard, GTP) and the built-in players,
//! all behind [`player::Player`] ([`client::ProcessClient`]: what the clients that keep
//! one process across games share).

pub mod affinity;
pub mod builtin;
pub mod client;
pub mod gtp;
pub mod io;
pub mod nboard;
pub mod othello;
pub mod player;
pub mod process;
pub mod text;
pub mod traffic;
pub mod uci;

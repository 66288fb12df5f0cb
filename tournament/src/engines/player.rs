//! What the referee asks of a player, whatever it is: an engine process speaking a
//! protocol, or a built-in player. Faults are values, never panics, so one bad engine
//! costs one game.

use crate::engines::process::{EngineProcess, Launch, ReadError};
use crate::output::results::{Ending, Score};
use engine::game::{Game, Notation, Opening, Side};
use std::time::{Duration, Instant};

/// Which protocol a process engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UAI (`shared/specs/uai.md`), for games that speak it ([`Notation::SPEAKS_UAI`]).
    Uai,
    /// UGI (`shared/specs/ugi.md`), which every game speaks.
    Ugi,
    /// The game's course text command language.
    Text,
    /// NBoard (Chris Welty's protocol of the Othello GUIs: NTest, Edax), Reversi only.
    Nboard,
    /// GTP with the GoGui conventions Othello engines use (grhino's `gtp-rhino`, Edax),
    /// Reversi only.
    Gtp,
}

impl Proto {
    /// The word `proto=` takes.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Uai => "uai",
            Proto::Ugi => "ugi",
            Proto::Text => "text",
            Proto::Nboard => "nboard",
            Proto::Gtp => "gtp",
        }
    }

    /// Whether the protocol is one of the Othello engines' (NBoard, GTP), which name
    /// squares `a1`–`h8` and play only Reversi.
    pub fn othello_only(self) -> bool {
        matches!(self, Proto::Nboard | Proto::Gtp)
    }

    /// The protocol of an engine that names none: UAI where the game speaks it (as
    /// before UGI existed), else UGI.
    pub fn default_for<G: Notation>() -> Proto {
        if G::SPEAKS_UAI {
            Proto::Uai
        } else {
            Proto::Ugi
        }
    }
}

/// Which built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    /// A uniformly random legal move.
    Random,
    /// The move with the best static evaluation one ply ahead (random among ties).
    Greedy,
}

impl BuiltinKind {
    /// Parses `random` / `greedy`.
    pub fn parse(s: &str) -> Option<BuiltinKind> {
        match s {
            "random" => Some(BuiltinKind::Random),
            "greedy" => Some(BuiltinKind::Greedy),
            _ => None,
        }
    }
}

/// What an engine is.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// An external program.
    Process {
        /// How to start it.
        launch: Launch,
        /// What it speaks (`None`: [`Proto::default_for`] the game).
        proto: Option<Proto>,
    },
    /// A player built into the runner.
    Builtin(BuiltinKind),
}

/// One `-engine` after `-each` defaults are applied.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name (unique in the run).
    pub name: String,
    /// Process or built-in.
    pub kind: EngineKind,
    /// `option.NAME=VALUE` pairs, sent as `setoption` after the handshake.
    pub options: Vec<(String, String)>,
    /// Time control and search limits.
    pub limits: Limits,
    /// How long the handshake may take, in ms (`inittimeout=` seconds).
    pub init_timeout_ms: u64,
}

impl EngineSpec {
    /// The protocol a process engine speaks in game `G`; `None` for a built-in player.
    pub fn proto<G: Notation>(&self) -> Option<Proto> {
        match &self.kind {
            EngineKind::Process { proto, .. } => Some(proto.unwrap_or(Proto::default_for::<G>())),
            EngineKind::Builtin(_) => None,
        }
    }
}

/// Time control `MOVES/TIME+INC` (or `TIME+INC`), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    /// Time per period.
    pub base_ms: u64,
    /// Increment per move.
    pub inc_ms: u64,
}

/// How long and how far an engine may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// A chess-clock time control.
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`st=`), in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Search depth (`depth=`).
    pub depth: Option<u32>,
    /// Node budget (`nodes=`).
    pub nodes: Option<u64>,
    /// How far past its time an answer is still accepted (`timemargin=`).
    pub margin_ms: u64,
    /// NBoard (`stop=ping`): when `st` has run out the runner sends `ping`, as the
    /// NBoard GUI does to make an engine move now (NTest then answers with the best
    /// move of its last finished iteration).
    pub stop_by_ping: bool,
}

/// Why a player lost a game by misbehaving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process exited or closed its output.
    Crash(String),
    /// No answer before the hard deadline.
    Timeout,
    /// The handshake (`uai`/`uaiok` or `ugi`/`ugiok`, `isready`/`readyok`, text set-up)
    /// did not finish.
    Handshake(String),
    /// The engine could not be started at all.
    Start(String),
    /// The engine does not take what it was configured with (an option it does not
    /// declare, or one it answers with an error).
    Config(String),
    /// The engine answered with something that is not a move.
    Garbage(String),
    /// A text, NBoard or GTP engine refused a command of the game's set-up (the error
    /// line it printed), so the game it would play is not the scheduled one.
    SetupRefused(String),
    /// A UAI/UGI engine refused the `position` of a move request (an `info string
    /// error…` line before its `bestmove`), or answered a position its own rules had
    /// ended: the move it gave, if any, is no answer to this position.
    PositionRefused(String),
}

impl Fault {
    /// The fault of a read of the engine's answer to a move that failed (every
    /// protocol's client reads its move the same way).
    pub fn of_move_read(e: ReadError) -> Fault {
        match e {
            ReadError::Timeout => Fault::Timeout,
            ReadError::Closed => Fault::Crash("engine exited while thinking".into()),
            ReadError::TooLong => Fault::Garbage(ReadError::too_long_message()),
        }
    }

    /// True for faults of the process itself (not of a single move): without
    /// `-recover` these end the run, as in cutechess-cli.
    pub fn is_process_fault(&self) -> bool {
        matches!(
            self,
            Fault::Crash(_)
                | Fault::Handshake(_)
                | Fault::Start(_)
                | Fault::Config(_)
                | Fault::SetupRefused(_)
        )
    }

    /// How a game lost by this fault ended.
    pub fn ending(&self) -> Ending {
        match self {
            Fault::Crash(_) => Ending::Crash,
            Fault::Timeout => Ending::TimeForfeit,
            Fault::Handshake(_) | Fault::Config(_) => Ending::Handshake,
            Fault::Start(_) => Ending::Start,
            Fault::Garbage(_) => Ending::Unparsable,
            Fault::SetupRefused(_) | Fault::PositionRefused(_) => Ending::SetupRefused,
        }
    }

    /// One-line description for the results file.
    pub fn describe(&self) -> String {
        match self {
            Fault::Crash(s) => format!("crash: {s}"),
            Fault::Timeout => "time forfeit (no answer before the deadline)".into(),
            Fault::Handshake(s) => format!("handshake failed: {s}"),
            Fault::Start(s) => format!("could not start: {s}"),
            Fault::Config(s) => format!("bad option: {s}"),
            Fault::Garbage(s) => format!("unparsable answer: {s}"),
            Fault::SetupRefused(s) => format!("set-up refused: {s}"),
            Fault::PositionRefused(s) => format!("refused the position: {s}"),
        }
    }
}

/// A move as a player gave it, before the referee has checked it.
#[derive(Clone, Debug)]
pub enum Reply<G: Game> {
    /// The game's protocol notation (UAI/UGI `bestmove`), parsed by the referee.
    Notation(String),
    /// A move the player resolved itself (built-in players; the text client, which reads
    /// its language's notation in its own view of the game). Still checked.
    Move(G::Move),
    /// An answer that names no legal move in the player's view of the game.
    Unreadable(String),
    /// The player gives the game up (GTP's `= resign`).
    Resign,
}

/// What an engine reported about its search before answering (UCI family: the last
/// value of each field its `info` lines gave; other players report nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    /// Search depth.
    pub depth: Option<u32>,
    /// Score from the engine's point of view.
    pub score: Option<Score>,
    /// Selective depth (`seldepth`).
    pub seldepth: Option<u32>,
    /// Nodes searched (`nodes`).
    pub nodes: Option<u64>,
    /// Nodes per second (`nps`).
    pub nps: Option<u64>,
    /// Hash table fill, per mille (`hashfull`).
    pub hashfull: Option<u32>,
    /// The search time the engine reported, in ms (`time`).
    pub time_ms: Option<u64>,
    /// The principal variation (`pv`, the rest of its line).
    pub pv: Option<String>,
}

/// A player's answer to a move request: the move and what it reported.
#[derive(Clone, Debug)]
pub struct Answer<G: Game> {
    /// The move.
    pub reply: Reply<G>,
    /// The search report.
    pub eval: Eval,
}

impl<G: Game> From<Reply<G>> for Answer<G> {
    fn from(reply: Reply<G>) -> Self {
        Answer {
            reply,
            eval: Eval::default(),
        }
    }
}

/// Everything about the game a player may need before its first move.
pub struct GameStart<'a, G: Game> {
    /// The schedule id of the game (seeds for built-in players derive from it).
    pub id: u64,
    /// The opening: its base position and the moves that lead out of it.
    pub opening: &'a Opening<G>,
    /// The position the engines start from (the opening's end).
    pub start: &'a G,
    /// The side this player plays.
    pub side: Side,
    /// Random seed for players that take one.
    pub seed: u64,
}

/// One request for a move.
pub struct MoveRequest<'a, G: Game> {
    /// The position the engines started from (after the opening).
    pub start: &'a G,
    /// The moves played since then.
    pub moves: &'a [G::Move],
    /// The current position.
    pub position: &'a G,
    /// Remaining clock time of each side in ms (`None` without a clock).
    pub clock_ms: [Option<i64>; 2],
    /// Increment of each side in ms.
    pub inc_ms: [u64; 2],
    /// Moves to the next time control for the side to move.
    pub movestogo: Option<u32>,
    /// The mover's limits.
    pub limits: Limits,
    /// The hard deadline: no answer by then is a time forfeit.
    pub deadline: Instant,
}

/// A participant in a game.
pub trait Player<G: Game>: Send {
    /// The check before the run: starts the process and finishes its handshake (and,
    /// for a text engine, the set-up of `start`), without playing. The runner shuts the
    /// player down afterwards. Built-in players have nothing to check.
    fn check(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault>;

    /// Gets ready for a new game: starts the process if needed, finishes the
    /// handshake, and tells the engine about the game. Errors lose the game.
    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault>;

    /// Called for both players before either's [`Player::new_game`]: a player may send
    /// what needs no answer yet, so that both engines get ready at once (a UAI engine
    /// clears its tables at `uainewgame`) and `new_game` only waits for the answer.
    /// Nothing is lost by doing nothing here (the default).
    fn begin_new_game(&mut self, _start: &GameStart<'_, G>) {}

    /// Asks for a move in the current position.
    fn think(&mut self, request: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault>;

    /// The game is over. `faulted` means this player misbehaved: its process is
    /// killed and restarted before the next game, so stale output cannot leak.
    /// `final_moves` holds every move of the game (from its start position) when the
    /// rules ended it, so an engine that follows the game itself (a text engine) can
    /// be told the last move and end its game as the referee did; `None` when it ended
    /// otherwise (adjudication, a fault), and such an engine's game must be abandoned.
    fn game_over(&mut self, faulted: bool, final_moves: Option<&[G::Move]>);

    /// The engine program's process, for a player that runs one (the slot: `None` in
    /// it while no process runs); `None` for a built-in player (the default). Every
    /// process client ends its process and reads its stamps alike, so
    /// [`Player::shutdown`] and [`Player::io_times`] are provided from it.
    fn process(&mut self) -> Option<&mut Option<EngineProcess>> {
        None
    }

    /// Stops the player for good (end of the run): its process, if one runs, is sent
    /// `quit` and killed if it has not exited within [`QUIT_GRACE`].
    fn shutdown(&mut self) {
        if let Some(p) = self.process().and_then(Option::take) {
            p.quit("quit", QUIT_GRACE);
        }
    }

    /// For a process engine, when its last request line was written to it and when
    /// the last line it answered with was read ([`EngineProcess::io_times`]), each
    /// `None` until there is one; `None` for a built-in player (no input or output).
    fn io_times(&mut self) -> Option<(Option<Instant>, Option<Instant>)> {
        self.process()?.as_ref().map(EngineProcess::io_times)
    }
}

/// How long an engine told `quit` may take to exit before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(300);

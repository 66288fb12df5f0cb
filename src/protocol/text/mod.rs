//! The course text languages, generic part: one session loop for every game's dialect.
//!
//! A game's dialect ([`TextDialect`], one module beside this one) owns its states, its
//! commands and every line it prints. This module owns what all dialects share: reading
//! input (lines longer than the limit are refused with one error), `load` with a nesting
//! limit, prompts when a person is typing, and running the AI on the search thread while
//! input keeps arriving: a person's `quit` acts at once, a script's `quit` waits its
//! turn, so piped commands take effect in order. A closed stdout ends the session.

pub mod ataxx;
pub mod ataxx2008;
pub mod ataxx2022;
pub mod board;
pub mod kit;
pub mod loa;
pub mod reversi;
pub mod table;
pub mod versus;

use super::input::{read_line_head, strip_bom, Inbox, Line, LineEnd, Source, MAX_LINE};
use super::remote::{self, Hosting, Peer, PeerEvent};
use super::terminal::Prompter;
use crate::game::{Game, GameIo, Opening, Outcome, Side};
use crate::protocol::play::{History, Play};
use crate::rng;
use crate::search::{Engine, Features, Limits, Report, STOP_WAIT};
use board::{Action, View};
use crossbeam_channel::{select, Receiver};
use std::io::Write;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};
pub use table::{Turn, Turns};

/// Nested `load` files deeper than this are refused (a file loading itself).
pub const MAX_LOAD_DEPTH: usize = 16;

/// What the session does after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// End the program (exit status 0).
    Quit,
    /// Run the lines of this file as if they were typed here.
    Load(String),
}

/// Why [`Host::think`] returned no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThinkError {
    /// Stdout is gone: end the session.
    Quit,
    /// A person typed a line that acts at once (`quit`, or the dialect's command that
    /// abandons the game) while the AI was thinking: the search is stopped; run it.
    Interrupted(String),
    /// The search gave no legal move: a bug, reported rather than hidden.
    Internal(String),
}

/// One game's course text language.
pub trait TextDialect {
    /// The game it plays.
    type Game: GameIo;

    /// The language as data: comments, extra words, error stream, lines.
    const SPEC: &'static kit::Spec;

    /// The language plays remote games (`host` / `join`): only then do
    /// `--remote-timeout`, and `--listen` without `--display`, mean anything.
    const REMOTE_PLAY: bool = false;

    /// The commands the board page's command box names as examples (`--display`):
    /// this language's own, so the page never suggests one it refuses.
    const PAGE_COMMANDS: &'static str;

    /// One input line, parsed.
    type Command: PartialEq;
    /// Why a line was refused: one line of text for [`TextDialect::error`].
    type Error: std::fmt::Display;

    /// The language's own command-line options as a value (`()` where it has none):
    /// LOA's `--strict` and `--log`.
    type Options: Default;

    /// The state at program start.
    fn new() -> Self;

    /// The state at program start with these options (the default ignores them).
    fn with_options(options: Self::Options) -> Self
    where
        Self: Sized,
    {
        let _ = options;
        Self::new()
    }

    /// The exit status once the session has ended (LOA's `--strict` makes a refused
    /// move status 1).
    fn exit_status(&self) -> i32 {
        0
    }

    /// Parses one whole line (comments and blanks allowed); `Ok(None)` for a line with
    /// nothing on it. Parsing changes nothing, so a refused line leaves no trace.
    fn parse_line(line: &str) -> Result<Option<Self::Command>, Self::Error>;

    /// Carries out a parsed command, or refuses it having changed nothing.
    fn run_command(
        &mut self,
        cmd: Self::Command,
        host: &mut Host<Self::Game>,
    ) -> Result<Flow, Self::Error>;

    /// This language's `quit`.
    const QUIT: Self::Command;

    /// Runs one input line (already checked not to be too long): parses it completely,
    /// then acts or reports one error that changes nothing.
    fn execute(&mut self, line: &str, host: &mut Host<Self::Game>) -> Flow {
        let result = Self::parse_line(line).and_then(|cmd| match cmd {
            Some(cmd) => self.run_command(cmd, host),
            None => Ok(Flow::Continue),
        });
        result.unwrap_or_else(|e| {
            Self::error(host, &e.to_string());
            Flow::Continue
        })
    }

    /// The prompt printed before a line is read from a terminal, if any.
    fn prompt(&self) -> Option<String>;

    /// True if the line is this language's `quit` (checked while the AI thinks).
    fn is_quit(line: &str) -> bool {
        matches!(Self::parse_line(line), Ok(Some(cmd)) if cmd == Self::QUIT)
    }

    /// True for a line that a person's typing makes act at once while the AI thinks:
    /// `quit`, and the command that abandons a game (so AI against AI can be stopped
    /// without leaving the program).
    fn acts_at_once(line: &str) -> bool {
        Self::is_quit(line)
    }

    /// The output of a line that only looks at the state (`dump`, `board`, `help`):
    /// such a line typed by a person is answered at once while the AI thinks. `None`
    /// for every other line (the default: none is).
    fn look(&self, line: &str) -> Option<String> {
        let _ = line;
        None
    }

    /// Reports an error in this language's form and stream ([`kit::Errors`]): one
    /// `error: MESSAGE` line on stdout, among the program's other output (inside a
    /// `load`ed file, `error: 'FILE' line N: MESSAGE`), or `Error: MESSAGE` on stderr.
    fn error(host: &mut Host<Self::Game>, message: &str) {
        host.refusals += 1;
        match Self::SPEC.errors {
            kit::Errors::Stdout => {
                let at = host.location();
                host.say(&format!("error: {at}{message}"));
            }
            kit::Errors::Stderr => host.say_err(&format!("Error: {message}")),
        }
    }

    /// What play does when [`Host::think`] gave no move: ends the session, runs the
    /// line that interrupted it, or reports the internal error and goes on.
    fn think_failed(&mut self, e: ThinkError, host: &mut Host<Self::Game>) -> Flow {
        match e {
            ThinkError::Quit => Flow::Quit,
            ThinkError::Interrupted(line) => self.execute(&line, host),
            ThinkError::Internal(why) => {
                Self::error(host, &format!("internal error, no AI move made: {why}"));
                Flow::Continue
            }
        }
    }

    /// Transposition table size of the AI, in MiB.
    fn hash_mib() -> usize {
        32
    }

    /// Called once when the session ends (`quit` or end of input), before any remote
    /// connection is closed: the place to tell a peer that the game is abandoned.
    fn at_exit(&mut self, host: &mut Host<Self::Game>) {
        let _ = host;
    }

    /// Something happened on the remote side while the session waited for input: a
    /// visitor joined a hosted game, a message arrived, or the connection failed.
    /// Dialects without remote play never see one.
    fn on_remote(&mut self, event: RemoteEvent, host: &mut Host<Self::Game>) -> Flow {
        let _ = (event, host);
        Flow::Continue
    }

    /// The game's own protocols besides this language and UAI/UGI (Reversi: NBoard),
    /// each chosen as those are, by the first command or by a flag.
    fn other_protocols() -> &'static [OtherProtocol] {
        &[]
    }

    /// The state to draw on the board page (`--display`); `None` where the dialect
    /// has no view.
    fn view(&self) -> Option<View> {
        None
    }

    /// `pos` drawn as the page draws this dialect's board (squares, counts, side to
    /// move, legal moves, and the last move of `history` if it led to `pos`), for the
    /// move list's earlier positions and the analysis of one of them.
    fn picture(pos: &Self::Game, history: &History<Self::Game>) -> View {
        let _ = (pos, history);
        View::default()
    }
}

/// Everything a game offers the layers above the search, as one bound: its rules and
/// notation ([`crate::game::GameIo`]) through one of its course text dialects, which also
/// knows how its lines are driven from outside. The registry ([`crate::variant`]) lists
/// one per dialect.
pub trait Playable: TextProtocol + Turns + 'static {}

impl<D: TextProtocol + Turns + 'static> Playable for D {}

pub use super::OtherProtocol;

/// What the remote side did (see [`TextDialect::on_remote`] and [`Host::wait_peer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteEvent {
    /// A visitor joined the game we host.
    Joined,
    /// A message from the peer.
    Message(String),
    /// The connection is gone or unusable (disconnect, garbage, timeout, failed
    /// hosting): the reason, for the dialect's announcement. The peer is dropped.
    Fault(String),
    /// While waiting for the peer, the user typed a line the dialect asked to see
    /// (for example `quit`); nothing was received.
    Interrupted(String),
}

/// What [`Host::read_peer`] produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerRead {
    /// A message from the peer.
    Message(String),
    /// The user typed a line the dialect asked to see (before or during the wait).
    Interrupted(String),
    /// The connection failed or timed out: why (the peer is dropped).
    Fault(String),
}

/// What a program that drives this language from outside needs (the tournament runner's
/// text client, the tuner): how to set a game up, the move text it reads and writes,
/// and how to recognise the AI's move and result lines. Written next to the dialect,
/// so the lines are produced and parsed in one place; the game and the language's
/// lines ([`TextDialect::SPEC`], from which the AI move, result and dump lines are
/// recognised) are the dialect's, declared once.
/// What a text engine's game is set up from ([`TextProtocol::setup_commands`]).
#[derive(Clone, Copy, Debug)]
pub struct EngineSetup<'a, G: Game> {
    /// The opening: a base position and the moves played from it.
    pub opening: &'a Opening<G>,
    /// The side the program's AI plays; the other is typed.
    pub ai_side: Side,
    /// The AI's seed.
    pub seed: u64,
    /// Games were played in this program before: the set-up begins with the language's
    /// new game.
    pub played: bool,
}

impl<'a, G: Game> EngineSetup<'a, G> {
    pub fn new(opening: &'a Opening<G>, ai_side: Side, seed: u64, played: bool) -> Self {
        EngineSetup {
            opening,
            ai_side,
            seed,
            played,
        }
    }
}

pub trait TextProtocol: TextDialect {
    /// The rule set the language's games are played by (Ataxx 2008: 45 consecutive
    /// jumps): the runner drives a text engine in the dialect whose rules judge the run.
    const RULES: <Self::Game as Game>::Rules;

    /// Commands that make a program (fresh, or after earlier games) ready to play the
    /// set-up's opening with the AI on its side, seeded, the other side typed. Ends
    /// with a command that prints a dump (the barrier), but does not start play.
    fn setup_commands(s: &EngineSetup<Self::Game>) -> Result<Vec<String>, String>;

    /// Commands that begin play after the set-up (may be none).
    fn start_commands() -> Vec<String>;

    /// A move of `pos` as the language writes it.
    fn move_text(pos: &Self::Game, mv: <Self::Game as Game>::Move) -> String;

    /// A move in the language's form, `None` unless legal in `pos`.
    fn parse_move_text(pos: &Self::Game, text: &str) -> Option<<Self::Game as Game>::Move>;

    /// Recognises an AI move line (prompts included): the side that moved if the line
    /// names it, and the move's text.
    fn parse_ai_move(line: &str) -> Option<(Option<Side>, String)> {
        Self::SPEC.parse_ai_move_line(line)
    }

    /// Recognises a result line (prompts included).
    fn parse_result(line: &str) -> Option<Outcome> {
        Self::SPEC.parse_result_line(line)
    }

    /// True for a line that delimits a dump (`===`), prompts removed.
    fn is_dump_marker(line: &str) -> bool {
        Self::SPEC.is_dump_marker(line)
    }
}

/// A dialect's [`TextProtocol`] as a value of its game `G`: what a driver that is generic
/// over the game alone (the tournament runner, its compliance check, the tuner) needs
/// of the text language, chosen at run time from the game's registry entry by the rules
/// that judge the games ([`crate::variant::Registered::text_codec`]).
pub trait TextCodec<G: Game>: Sync {
    /// The rule set the language's games are played by ([`TextProtocol::RULES`]).
    fn rules(&self) -> G::Rules;
    /// The edition's name, for games with more than one (`ataxx --edition 2022`).
    fn edition(&self) -> Option<&'static str>;
    /// [`TextProtocol::setup_commands`].
    fn setup_commands(&self, s: &EngineSetup<G>) -> Result<Vec<String>, String>;
    /// [`TextProtocol::start_commands`].
    fn start_commands(&self) -> Vec<String>;
    /// [`TextProtocol::move_text`].
    fn move_text(&self, pos: &G, mv: G::Move) -> String;
    /// [`TextProtocol::parse_move_text`].
    fn parse_move_text(&self, pos: &G, text: &str) -> Option<G::Move>;
    /// [`TextProtocol::parse_ai_move`].
    fn parse_ai_move(&self, line: &str) -> Option<(Option<Side>, String)>;
    /// [`TextProtocol::parse_result`].
    fn parse_result(&self, line: &str) -> Option<Outcome>;
    /// [`TextProtocol::is_dump_marker`].
    fn is_dump_marker(&self, line: &str) -> bool;
}

/// The [`TextCodec`] of dialect `D`: a value standing for the type, with the edition's
/// name the registry gives it.
pub struct Codec<D> {
    edition: Option<&'static str>,
    dialect: std::marker::PhantomData<fn() -> D>,
}

impl<D> Codec<D> {
    /// The codec of the edition called `edition` (a constant function, so that the
    /// registry's `&Codec::<D>::new(..)` lives for the whole program).
    pub const fn new(edition: Option<&'static str>) -> Codec<D> {
        Codec {
            edition,
            dialect: std::marker::PhantomData,
        }
    }
}

impl<D: TextProtocol> TextCodec<D::Game> for Codec<D> {
    fn rules(&self) -> <D::Game as Game>::Rules {
        D::RULES
    }
    fn edition(&self) -> Option<&'static str> {
        self.edition
    }
    fn setup_commands(&self, s: &EngineSetup<D::Game>) -> Result<Vec<String>, String> {
        D::setup_commands(s)
    }
    fn start_commands(&self) -> Vec<String> {
        D::start_commands()
    }
    fn move_text(&self, pos: &D::Game, mv: <D::Game as Game>::Move) -> String {
        D::move_text(pos, mv)
    }
    fn parse_move_text(&self, pos: &D::Game, text: &str) -> Option<<D::Game as Game>::Move> {
        D::parse_move_text(pos, text)
    }
    fn parse_ai_move(&self, line: &str) -> Option<(Option<Side>, String)> {
        D::parse_ai_move(line)
    }
    fn parse_result(&self, line: &str) -> Option<Outcome> {
        D::parse_result(line)
    }
    fn is_dump_marker(&self, line: &str) -> bool {
        D::is_dump_marker(line)
    }
}

/// What a dialect may ask of the session: output, and moves from the AI.
pub struct Host<'a, G: GameIo> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    /// The input lines, and those that arrived while the AI thought or the session
    /// waited on the remote program, in order.
    inbox: Inbox,
    /// A person is typing (stdin is a terminal): prompts, and `quit` acts at once.
    interactive: bool,
    /// stdout can no longer be written: nobody reads us, so stop.
    broken: bool,
    /// The prompt that is the last thing on the terminal, if nothing was printed nor
    /// typed since: it is not printed again (an event that prints nothing, such as a
    /// relayed set-up move, would otherwise repeat it on the same line).
    at_prompt: Option<String>,
    /// Line editing at a terminal: prompts are shown by the editor, on request.
    prompter: Option<Prompter>,
    engine: Engine<G>,
    /// The connected remote program, if any.
    peer: Option<Peer>,
    /// A hosted game still waiting for its visitor.
    hosting: Option<Hosting>,
    /// The `load`ed file and line being run, if any (for error lines).
    loading: Option<(String, usize)>,
    /// `--remote-timeout`, `--listen`.
    remote: remote::Settings,
    /// Where views go for the board page (`--display`), if one is served.
    board: Option<Publisher<G>>,
    /// Error lines reported so far ([`TextDialect::error`]): a paste stops at a line
    /// that added one.
    refusals: u64,
}

/// Where [`Publisher::game`] sends the position and the moves behind it.
pub type GameSink<G> = dyn FnMut(&G, &History<G>);

/// Where the board page (`--display`) gets the session's pictures: each new [`View`],
/// the game behind it, and the AI's search as it goes.
pub struct Publisher<G: Game> {
    pub view: Box<dyn FnMut(&View)>,
    pub thinking: Box<dyn FnMut(&Thinking)>,
    /// The position and the moves kept behind it ([`Turns::game`]), with the view.
    pub game: Box<GameSink<G>>,
    /// The AI starts (`true`) or has ended (`false`) a search of its own move: the
    /// page's analysis stops and waits.
    pub ai_busy: Box<dyn FnMut(bool)>,
}

/// What the AI's search has found so far (its last completed iteration), for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Thinking {
    /// The side whose move is searched (index): a forced move is played without a
    /// search, so the last report may be the other side's.
    pub side: usize,
    pub depth: u32,
    /// The score for the side to move, in the game's units where it has them
    /// (`+1.25 discs`), `win in 3` / `loss in 2` (own moves) when proven.
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    pub millis: u64,
    /// The principal variation in protocol notation, cut at its first illegal move.
    pub pv: Vec<String>,
    /// The search has ended: this is the report behind the move it played.
    pub done: bool,
}

/// A search score for people: in the game's units where it has them (`+1.25 discs`),
/// `win in 3` / `loss in 2` (own moves) when proven.
pub fn score_text<G: GameIo>(score: crate::search::Score) -> String {
    match score.own_moves_to_end() {
        Some(n) if n > 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => match G::SCORE_UNIT {
            Some((per, unit)) => format!("{:+.2} {unit}", score.0 as f64 / per as f64),
            None => format!("{:+}", score.0),
        },
    }
}

impl Thinking {
    /// The report of iteration `it` of a search from `root`.
    pub fn of<G: GameIo>(root: &G, it: &crate::search::Iteration<G::Move>) -> Thinking {
        let score = score_text::<G>(it.score);
        Thinking {
            side: root.side_to_move().index(),
            depth: it.depth,
            score,
            nodes: it.nodes,
            nps: it.nps(),
            millis: it.time.as_millis() as u64,
            pv: crate::protocol::pv_names(root, &it.pv),
            done: false,
        }
    }

    /// As one JSON object.
    pub fn to_json(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| board::json_string(m)).collect();
        format!(
            "{{\"side\":{},\"depth\":{},\"score\":{},\"nodes\":{},\"nps\":{},\"millis\":{},\"pv\":[{}],\"done\":{}}}",
            self.side,
            self.depth,
            board::json_string(&self.score),
            self.nodes,
            self.nps,
            self.millis,
            pv.join(","),
            self.done
        )
    }
}

impl<'a, G: GameIo> Host<'a, G> {
    /// Where the line being run came from, for an error line: `'FILE' line N: ` inside
    /// a `load`ed file, else nothing.
    pub fn location(&self) -> String {
        match &self.loading {
            Some((file, n)) => format!("{} line {n}: ", super::quote(file)),
            None => String::new(),
        }
    }

    /// Prints one line on stdout.
    pub fn say(&mut self, line: &str) {
        self.at_prompt = None;
        if writeln!(self.out, "{line}")
            .and_then(|_| self.out.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    /// Prints one line on stderr (dialects that report errors there).
    pub fn say_err(&mut self, line: &str) {
        self.at_prompt = None;
        let _ = writeln!(self.err, "{line}");
        let _ = self.err.flush();
    }

    /// True when a board page is served: dialects then keep what it needs.
    pub fn has_board(&self) -> bool {
        self.board.is_some()
    }

    /// Publishes `dialect`'s view and the game behind it to the board page, if one is
    /// served (a dialect calls it after each AI move, so the page shows the moves and
    /// the move list as they come).
    pub fn show<D: Turns<Game = G>>(&mut self, dialect: &D) {
        if let Some(board) = self.board.as_mut() {
            if let Some(v) = dialect.view() {
                (board.view)(&v);
            }
            let t = dialect.game();
            (board.game)(&t.pos, &t.history);
        }
    }

    /// Forgets what the AI learned (a new game), so its moves depend only on the game.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches the game's position within `limits` for the AI's move, reading input
    /// meanwhile. The root order is shuffled by the game's seed mixed with its ply, so a seed and the same input
    /// give the same moves. Lines that arrive are kept for later, except a person's
    /// line for which `acts_now` holds (`quit`, the command that abandons a game: so
    /// a person watching AI against AI can stop it), which stops the search and comes
    /// back as [`ThinkError::Interrupted`], and a person's line that only looks
    /// (`look` gives its output: `dump`, `board`, `help`), answered at once while the
    /// search goes on.
    pub fn think(
        &mut self,
        game: &Play<G>,
        limits: Limits,
        acts_now: fn(&str) -> bool,
        look: &dyn Fn(&str) -> Option<String>,
    ) -> Result<G::Move, ThinkError> {
        if self.broken {
            return Err(ThinkError::Quit);
        }
        if let Some(board) = self.board.as_mut() {
            (board.ai_busy)(true);
        }
        let seed = rng::mix(game.seed, game.ply);
        let result = self.search_move(&game.pos, limits, seed, acts_now, look);
        if let Some(board) = self.board.as_mut() {
            (board.ai_busy)(false);
        }
        result
    }

    /// [`Host::think`]'s search.
    fn search_move(
        &mut self,
        pos: &G,
        limits: Limits,
        seed: u64,
        acts_now: fn(&str) -> bool,
        look: &dyn Fn(&str) -> Option<String>,
    ) -> Result<G::Move, ThinkError> {
        self.engine.go(pos.clone(), limits, Some(seed));
        let reports = self.engine.reports().clone();
        // The page shows the search as it goes, and its last report beside the move.
        let mut last: Option<Thinking> = None;
        loop {
            let input = self.inbox.arrivals();
            select! {
                recv(reports) -> r => match r {
                    Ok(Report::Done(result)) => {
                        if let (Some(board), Some(mut t)) = (self.board.as_mut(), last.take()) {
                            t.done = true;
                            (board.thinking)(&t);
                        }
                        return match result.best {
                            Some(m) if pos.is_legal(m) => Ok(m),
                            Some(m) => Err(ThinkError::Internal(format!(
                                "the search returned the impossible {}",
                                pos.move_name(m)
                            ))),
                            None => Err(ThinkError::Internal(
                                "the search returned nothing".into(),
                            )),
                        };
                    }
                    Ok(Report::Iteration(it)) => {
                        log::debug!("depth {} score {} nodes {}", it.depth, it.score.0, it.nodes);
                        if let Some(board) = self.board.as_mut() {
                            let t = Thinking::of(pos, &it);
                            (board.thinking)(&t);
                            last = Some(t);
                        }
                    }
                    Ok(Report::Synced | Report::Rated(_)) => {}
                    Err(_) => return Err(ThinkError::Internal("the search thread is gone".into())),
                },
                recv(input) -> line => match line.map(|l| self.took(l)) {
                    // A page action (undo, a side taken over) stops the search too: it
                    // is run next, and the dialect resumes play after it.
                    Ok(l) if matches!(l.source, Source::PageAction | Source::PagePaste) => {
                        self.stop_search();
                        self.inbox.put_back(l);
                        return Err(ThinkError::Interrupted(String::new()));
                    }
                    Ok(l) if (self.interactive || l.source == Source::Page)
                        && !l.too_long
                        && acts_now(&l.text) =>
                    {
                        self.stop_search();
                        return Err(ThinkError::Interrupted(l.text));
                    }
                    // Only a person's: a harness's lines keep their order.
                    Ok(l) if (self.interactive || l.source == Source::Page)
                        && !l.too_long
                        && self.inbox.is_empty() =>
                    {
                        match look(&l.text) {
                            Some(text) => self.say(&text),
                            None => self.inbox.wait(l),
                        }
                    }
                    Ok(l) => self.inbox.wait(l),
                    Err(_) => self.inbox.close(),
                },
            }
        }
    }

    /// Stops the search and waits for its `Done`, which must not be taken for the
    /// next search's.
    fn stop_search(&mut self) {
        self.engine
            .stopper()
            .stop_and_wait(Instant::now() + STOP_WAIT, |_| {});
    }

    /// Hosts game `id` on the session's listening interface; the visitor's arrival
    /// comes later as [`RemoteEvent::Joined`].
    pub fn host_game(&mut self, id: &str) -> Result<(), String> {
        self.disconnect();
        self.hosting = Some(remote::host(G::NAME, id, self.remote.listen, None)?);
        Ok(())
    }

    /// The interface `host ID` listens on (`--listen`).
    pub fn listen_interface(&self) -> Ipv4Addr {
        self.remote.listen
    }

    /// How long a remote read other than the wait for the Opponent's move may take
    /// (`--remote-timeout`).
    pub fn remote_timeout(&self) -> Duration {
        self.remote.timeout
    }

    /// Joins the game at `ID@HOST[:PORT]`, waiting for the host's greeting.
    pub fn join_game(&mut self, address: &str) -> Result<(), String> {
        let (id, host, port) = remote::parse_address(address)?;
        self.disconnect();
        self.peer = Some(remote::join(G::NAME, &id, &host, port)?);
        Ok(())
    }

    /// True while a hosted game waits for its visitor.
    pub fn is_hosting(&self) -> bool {
        self.hosting.is_some()
    }

    /// True while connected to a remote program.
    pub fn has_peer(&self) -> bool {
        self.peer.is_some()
    }

    /// Sends one message to the peer; false (and the peer dropped) if it cannot be sent.
    pub fn send_peer(&mut self, message: &str) -> bool {
        let ok = self.peer.as_mut().is_some_and(|p| p.send(message).is_ok());
        if !ok {
            self.peer = None;
        }
        ok
    }

    /// Stops hosting and closes any connection.
    pub fn disconnect(&mut self) {
        if let Some(h) = self.hosting.take() {
            h.cancel();
        }
        if let Some(mut p) = self.peer.take() {
            p.close();
        }
    }

    /// Waits for the peer's next message, at most `timeout` (none: as long as it
    /// takes), while input keeps arriving: lines for which `interrupts` is true end the
    /// wait (they are handed back, not run); others wait their turn.
    pub fn wait_peer(
        &mut self,
        timeout: Option<Duration>,
        interrupts: fn(&str) -> bool,
    ) -> RemoteEvent {
        let Some(events) = self.peer.as_ref().map(|p| p.events().clone()) else {
            return RemoteEvent::Fault("not connected".into());
        };
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            let input = self.inbox.arrivals();
            let timer = match deadline {
                Some(d) => crossbeam_channel::at(d),
                None => crossbeam_channel::never(),
            };
            select! {
                recv(events) -> e => return self.peer_event(e.unwrap_or(PeerEvent::Closed)),
                recv(input) -> line => match line.map(|l| self.took(l)) {
                    Ok(l) if !l.too_long && interrupts(&l.text) => {
                        return RemoteEvent::Interrupted(l.text);
                    }
                    Ok(l) => self.inbox.wait(l),
                    Err(_) => self.inbox.close(),
                },
                recv(timer) -> _ => {
                    self.disconnect();
                    return RemoteEvent::Fault("the remote program did not answer in time".into());
                }
            }
        }
    }

    /// Takes the first input line for which `wanted` is true out of the lines kept for
    /// later (those that arrived while the AI thought or the session waited on the
    /// peer), leaving the others queued in order. [`Host::wait_peer`] only sees lines
    /// that arrive during the wait, so a dialect calls this first to honour, say, a
    /// `clear` typed while its AI was thinking, before waiting on the peer again.
    pub fn take_pending(&mut self, wanted: fn(&str) -> bool) -> Option<String> {
        self.inbox.take(wanted).map(|l| l.text)
    }

    /// The peer's next message within `timeout` (none: as long as it takes), the way a
    /// dialect's remote sequence reads: a line kept for later for which `interrupts` is
    /// true comes back first (typed while the AI thought), then [`Host::wait_peer`].
    pub fn read_peer(
        &mut self,
        timeout: Option<Duration>,
        interrupts: fn(&str) -> bool,
    ) -> PeerRead {
        if let Some(line) = self.take_pending(interrupts) {
            return PeerRead::Interrupted(line);
        }
        match self.wait_peer(timeout, interrupts) {
            RemoteEvent::Message(m) => PeerRead::Message(m),
            RemoteEvent::Interrupted(line) => PeerRead::Interrupted(line),
            RemoteEvent::Fault(why) => PeerRead::Fault(why),
            RemoteEvent::Joined => PeerRead::Fault("unexpected second visitor".into()),
        }
    }

    fn peer_event(&mut self, event: PeerEvent) -> RemoteEvent {
        match event {
            PeerEvent::Message(m) => RemoteEvent::Message(m),
            PeerEvent::Garbage => {
                self.disconnect();
                RemoteEvent::Fault("the remote program sent an unreadable message".into())
            }
            PeerEvent::Closed => {
                self.disconnect();
                RemoteEvent::Fault("the remote program disconnected".into())
            }
        }
    }

    /// Counts a line taken from `input` for the line editor: a prompt asked for after
    /// it is for the line after it.
    fn took(&mut self, line: Line) -> Line {
        if let Some(t) = &self.prompter {
            t.took();
        }
        line
    }

    /// The next thing to act on while idle: an input line (`None` at end of input) or
    /// a remote event.
    fn next_event(&mut self) -> Option<Result<Line, RemoteEvent>> {
        if let Some((l, _)) = self.inbox.pop() {
            return Some(Ok(l));
        }
        if self.inbox.is_closed() {
            return None; // end of input is `quit`, whatever the peer is doing
        }
        let accepted = self.hosting.as_ref().map(|h| h.accepted().clone());
        let events = self.peer.as_ref().map(|p| p.events().clone());
        let input = self.inbox.arrivals();
        let accepted = accepted.unwrap_or_else(crossbeam_channel::never);
        let events = events.unwrap_or_else(crossbeam_channel::never);
        select! {
            recv(input) -> line => match line {
                Ok(l) => Some(Ok(self.took(l))),
                Err(_) => {
                    self.inbox.close();
                    None
                }
            },
            recv(accepted) -> r => {
                self.hosting = None;
                Some(Err(match r {
                    Ok(Ok(peer)) => {
                        self.peer = Some(peer);
                        RemoteEvent::Joined
                    }
                    Ok(Err(e)) => RemoteEvent::Fault(e),
                    Err(_) => RemoteEvent::Fault("hosting stopped".into()),
                }))
            },
            recv(events) -> e => Some(Err(self.peer_event(e.unwrap_or(PeerEvent::Closed)))),
        }
    }
}

/// A session: the dialect's state and the host it talks through.
struct Session<'a, D: Turns> {
    dialect: D,
    host: Host<'a, D::Game>,
}

impl<D: Turns> Session<'_, D> {
    /// Runs one line (from input or from a loaded file); false when the session ends.
    fn run_line(&mut self, line: &Line, depth: usize) -> bool {
        if line.too_long {
            D::error(
                &mut self.host,
                &format!("line too long (the limit is {MAX_LINE} bytes); nothing done"),
            );
            return !self.host.broken;
        }
        let flow = match line.source {
            Source::PageAction => match Action::parse(&line.text) {
                Some(action) => self.dialect.page_action(action, &mut self.host),
                None => {
                    D::error(&mut self.host, "unknown board page action");
                    Flow::Continue
                }
            },
            Source::Input | Source::Page => self.dialect.execute(&line.text, &mut self.host),
            Source::PagePaste => return self.run_paste(&line.text, depth),
        };
        self.run_flow(flow, depth)
    }

    /// The page's paste: its set-up lines in order, until one is refused; the lines
    /// after that one are not run (a set-up half done on the live game would lose it).
    fn run_paste(&mut self, text: &str, depth: usize) -> bool {
        for line in text.lines() {
            let refusals = self.host.refusals;
            let flow = self.dialect.execute(line, &mut self.host);
            if !self.run_flow(flow, depth) {
                return false;
            }
            if self.host.refusals != refusals {
                D::error(
                    &mut self.host,
                    "the paste stops at the line refused above; the lines after it were not run",
                );
                break;
            }
        }
        true
    }

    fn run_flow(&mut self, flow: Flow, depth: usize) -> bool {
        let go_on = match flow {
            Flow::Continue => true,
            Flow::Quit => false,
            Flow::Load(file) => self.load(&file, depth),
        };
        go_on && !self.host.broken
    }

    fn load(&mut self, file: &str, depth: usize) -> bool {
        if depth >= MAX_LOAD_DEPTH {
            D::error(&mut self.host, "cannot load: files nested too deeply");
            return true;
        }
        // Streamed line by line with the bound stdin has: a file is read no faster than
        // it is run, and an over-long line is refused as soon as it passes the bound.
        let mut reader = match std::fs::File::open(file) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => {
                let msg = format!("cannot load {}: {e}", super::quote(file));
                D::error(&mut self.host, &msg);
                return true;
            }
        };
        let outer = self.host.loading.take();
        let mut go_on = true;
        let mut buf = Vec::new();
        for n in 1.. {
            let head = read_line_head(&mut reader, &mut buf, MAX_LINE);
            self.host.loading = Some((file.to_string(), n));
            let too_long = match head {
                Ok(None) => break,
                Ok(Some(end)) => end == LineEnd::Cut,
                Err(e) => {
                    self.host.loading = outer.clone();
                    self.load_failed(file, n, &e);
                    break;
                }
            };
            if too_long {
                // A line past the bound is no command file's: a binary or endless file
                // (`/dev/zero`) would otherwise be read to its end, which may never come.
                let msg = format!(
                    "line too long (the limit is {MAX_LINE} bytes); the rest of the file is not read"
                );
                D::error(&mut self.host, &msg);
                break;
            }
            if n == 1 {
                strip_bom(&mut buf);
            }
            let line = Line::new(String::from_utf8_lossy(&buf).into_owned());
            if !self.run_line(&line, depth + 1) {
                go_on = false;
                break;
            }
        }
        self.host.loading = outer;
        go_on
    }

    /// Reports a `load`ed file that could not be read on from line `n` (a directory
    /// fails at its first read, so it reads as a file that cannot be loaded).
    fn load_failed(&mut self, file: &str, n: usize, e: &std::io::Error) {
        let msg = match n {
            1 => format!("cannot load {}: {e}", super::quote(file)),
            _ => format!(
                "cannot load {} past line {}: {e}",
                super::quote(file),
                n - 1
            ),
        };
        D::error(&mut self.host, &msg);
    }

    fn prompt(&mut self) {
        if !self.host.interactive || !self.host.inbox.is_empty() {
            return;
        }
        if let Some(p) = self.dialect.prompt() {
            if let Some(t) = &self.host.prompter {
                // The editor shows it, once it has no line typed ahead of the request.
                t.ask(&p);
                return;
            }
            if self.host.at_prompt.as_deref() == Some(p.as_str()) {
                return;
            }
            // A different prompt (the state changed without a word) starts a new line.
            let new_line = if self.host.at_prompt.is_some() {
                "\n"
            } else {
                ""
            };
            self.host.at_prompt = Some(p.clone());
            if write!(self.host.out, "{new_line}{p}")
                .and_then(|_| self.host.out.flush())
                .is_err()
            {
                self.host.broken = true;
            }
        }
    }
}

/// The text languages' AI searches with the defaults, but near the end it first looks
/// for a short forced win with a proof search and then searches full width
/// (`Features::exact_endgame`): the specs' harnesses expect a forced win to be converted
/// in the fewest moves.
pub fn ai_features<G: Game>() -> Features {
    Features {
        exact_endgame: true,
        ..Features::for_game::<G>()
    }
}

fn text_engine<G: Game>(hash_mib: usize) -> Engine<G> {
    let engine = Engine::new(hash_mib);
    engine.set_features(ai_features::<G>());
    engine
}

/// What a session is given from the command line, as values.
pub struct Setup<O> {
    /// The dialect's own options.
    pub dialect: O,
    /// Remote play (`host` / `join`).
    pub remote: remote::Settings,
    /// Line editing at a terminal: where the prompts go.
    pub terminal: Option<Prompter>,
}

impl<O: Default> Default for Setup<O> {
    fn default() -> Setup<O> {
        Setup {
            dialect: O::default(),
            remote: remote::Settings::default(),
            terminal: None,
        }
    }
}

/// Runs a session of dialect `D` set up by `setup`. `first` is the first input line,
/// already read to choose the protocol. `interactive` says a person is typing
/// (prompts; `quit` acts while the AI thinks). With `board` (the `--display` page) the
/// session's [`View`] is published at the start, after each line or remote event, and
/// after each AI move. Returns the process exit status (0: errors in the input are
/// reported and play goes on; the dialect may say otherwise).
pub fn run<D: Turns>(
    first: Option<Line>,
    input: Receiver<Line>,
    out: &mut dyn Write,
    err: &mut dyn Write,
    interactive: bool,
    setup: Setup<D::Options>,
    board: Option<Publisher<D::Game>>,
) -> i32 {
    let mut s = Session {
        dialect: D::with_options(setup.dialect),
        host: Host {
            out,
            err,
            inbox: Inbox::new(input, first),
            interactive,
            broken: false,
            at_prompt: None,
            prompter: setup.terminal,
            engine: text_engine(D::hash_mib()),
            peer: None,
            hosting: None,
            loading: None,
            remote: setup.remote,
            board,
            refusals: 0,
        },
    };
    let mut end_of_input = false;
    loop {
        let Session { dialect, host } = &mut s;
        host.show(dialect);
        s.prompt();
        let go_on = match s.host.next_event() {
            None => {
                end_of_input = true;
                false
            }
            Some(Ok(line)) => {
                // A typed line ends with the person's newline: the next prompt is due.
                if line.source == Source::Input {
                    s.host.at_prompt = None;
                }
                // Text then Ctrl-D at a terminal: the typed text has no newline after
                // it, so what the line prints starts on a line of its own.
                if line.unterminated && s.host.interactive {
                    s.host.say("");
                }
                s.run_line(&line, 0)
            }
            Some(Err(event)) => {
                let flow = s.dialect.on_remote(event, &mut s.host);
                s.run_flow(flow, 0)
            }
        };
        if !go_on {
            break;
        }
    }
    // Ctrl-D at a prompt: end the line, so the shell's prompt starts on its own (the
    // line editor has already ended it).
    if end_of_input && s.host.interactive && s.host.prompter.is_none() {
        let _ = writeln!(s.host.out).and_then(|_| s.host.out.flush());
    }
    // Quit or end of input: the dialect says goodbye to any peer, then the line closes.
    s.dialect.at_exit(&mut s.host);
    s.host.disconnect();
    s.dialect.exit_status()
}

#[cfg(test)]
mod thinking_tests {
    use super::Thinking;
    use crate::game::Notation;
    use crate::games::reversi::{Move, Position, Rules};
    use crate::search::{Iteration, Score, WIN};
    use std::time::Duration;

    fn iteration(score: i32, pv: Vec<Move>) -> Iteration<Move> {
        Iteration {
            depth: 5,
            seldepth: 7,
            score: Score(score),
            nodes: 20_000,
            time: Duration::from_millis(10),
            hashfull: 0,
            pv,
            endgame: None,
        }
    }

    /// Scores in discs, proven results in own moves, the PV cut at an illegal move.
    #[test]
    fn reports_in_the_games_units() {
        let start = <Position as Notation>::startpos(Rules::Standard);
        let d3 = start.parse_move("d3").unwrap();
        let t = Thinking::of(&start, &iteration(40, vec![d3, d3]));
        assert_eq!(t.score, "+2.50 discs");
        assert_eq!(t.pv, ["d3"]);
        assert_eq!((t.side, t.depth, t.nodes, t.nps), (0, 5, 20_000, 2_000_000));
        assert_eq!(
            Thinking::of(&start, &iteration(WIN - 3, vec![])).score,
            "win in 2"
        );
        assert_eq!(
            Thinking::of(&start, &iteration(-WIN + 2, vec![])).score,
            "loss in 1"
        );
        let json = t.to_json();
        assert!(
            json.starts_with("{\"side\":0,\"depth\":5,\"score\":\"+2.50 discs\""),
            "{json}"
        );
        assert!(json.ends_with("\"pv\":[\"d3\"],\"done\":false}"), "{json}");
    }
}

/// What the board page is shown around a person's move (issue 53 item 3): the move
/// appears as soon as it is played, before the AI's answer is searched.
#[cfg(test)]
mod page_tests {
    use super::{run, Publisher, Setup};
    use crate::protocol::input::{Line, Source};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Runs `lines` (from the page) in a session of `D` and returns the view's
    /// squares as published when each AI search started, and at the start.
    fn cells_when_the_ai_starts<D: super::Turns>(lines: &[&str]) -> (String, Vec<String>) {
        let last = Rc::new(RefCell::new(String::new()));
        let at_ai = Rc::new(RefCell::new(Vec::new()));
        let first = Rc::new(RefCell::new(None::<String>));
        let (view_last, busy_last, busy_seen, view_first) =
            (last.clone(), last.clone(), at_ai.clone(), first.clone());
        let publisher = Publisher::<D::Game> {
            view: Box::new(move |v| {
                view_first
                    .borrow_mut()
                    .get_or_insert_with(|| v.cells.clone());
                *view_last.borrow_mut() = v.cells.clone();
            }),
            thinking: Box::new(|_| {}),
            game: Box::new(|_, _| {}),
            ai_busy: Box::new(move |busy| {
                if busy {
                    busy_seen.borrow_mut().push(busy_last.borrow().clone());
                }
            }),
        };
        let (tx, rx) = crossbeam_channel::unbounded();
        for l in lines.iter().chain(&["quit"]) {
            let line = Line {
                source: Source::Page,
                ..Line::new(*l)
            };
            tx.send(line).unwrap();
        }
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let setup = Setup::<D::Options>::default();
        run::<D>(None, rx, &mut out, &mut err, false, setup, Some(publisher));
        let errors = String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err);
        assert!(!errors.contains("rror"), "{errors}");
        let start = first.borrow().clone().expect("a first view");
        let seen = at_ai.borrow().clone();
        (start, seen)
    }

    /// The first AI search of each language starts with the person's move on the
    /// page: the squares differ from the start position's.
    #[test]
    fn the_persons_move_is_shown_before_the_ai_thinks() {
        use crate::protocol::text::{
            ataxx::AtaxxText, ataxx2008::Ataxx2008, ataxx2022::Ataxx2022, loa::LoaText,
            reversi::ReversiText,
        };
        let cases = [
            (
                "2016",
                cells_when_the_ai_starts::<AtaxxText>(&["start", "a7-b6"]),
            ),
            (
                "2008",
                cells_when_the_ai_starts::<Ataxx2008>(&["start", "a7-b6"]),
            ),
            ("2022", cells_when_the_ai_starts::<Ataxx2022>(&["a7-b6"])),
            ("loa", cells_when_the_ai_starts::<LoaText>(&["b1-b3"])),
            (
                "reversi",
                cells_when_the_ai_starts::<ReversiText>(&["start", "d3"]),
            ),
        ];
        for (name, (start, at_ai)) in cases {
            assert!(!at_ai.is_empty(), "{name}: the AI never searched");
            assert_ne!(at_ai[0], start, "{name}: the page still showed the start");
        }
    }
}

//! The `Game` trait: the only view of a game that the search, perft and bench have, and
//! its companions by concern, what the front ends, the tournament runner and the tools
//! need on top: [`Notation`] (names, FEN, move notation, pictures, openings, end
//! reasons), [`Diagram`] (the board as a display draws it), [`Benchmark`] (bench
//! positions and depth, perft), [`Tunable`] (the linear evaluation model `tune fit`
//! fits) and [`Referee`] (the runner's adjudication policy); [`GameIo`] is all five.
//! Every game implements them in its own folder under `games/`;
//! nothing here may mention a particular game.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One of the two players. `First` moves first (Ataxx: red / `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended, in absolute terms (not relative to the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A move in 16 bits, so the search's shared transposition table can keep it inside
/// one atomic word (threads read and write the table without locks).
pub trait PackedMove: Copy {
    /// The move's bits.
    fn pack(self) -> u16;
    /// The move back from [`PackedMove::pack`]'s bits (only ever given those).
    fn unpack(bits: u16) -> Self;
}

impl PackedMove for u16 {
    fn pack(self) -> u16 {
        self
    }
    fn unpack(bits: u16) -> u16 {
        bits
    }
}

/// The search's numeric settings that depend on a game's evaluation scale and tree
/// shape, so each game may have its own (`tune spsa` fits them per game; the engine
/// options of the same names override them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchTuning {
    /// Half-width of the first aspiration window (`AspirationWidth`).
    pub aspiration_width: i32,
    /// Reverse futility pruning's margin per ply of depth (`RFPMargin`).
    pub rfp_margin: i32,
    /// Razoring's margin (`RazorMargin`).
    pub razor_margin: i32,
    /// How aggressive the late-move reductions are (`LMRAggr`).
    pub lmr_aggr: i32,
    /// The history table's divisor in move ordering (`HistoryDiv`).
    pub history_div: i32,
}

impl SearchTuning {
    /// The settings every game started from, measured by hand on Ataxx
    /// (`docs/strength.md`); LOA and Reversi still search with them.
    pub const SHARED: SearchTuning = SearchTuning {
        aspiration_width: 40,
        rfp_margin: 150,
        razor_margin: 200,
        lmr_aggr: 3,
        history_div: 64,
    };
}

/// A two-player, perfect-information, zero-sum board game as the search sees it.
///
/// Positions are updated in place with `make_move` / `unmake_move` so the search
/// allocates nothing per node; the `Undo` value carries whatever the game needs to
/// restore the previous position exactly (hash included).
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move, including any "pass" move the rules require.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + PackedMove + 'static;
    /// What `make_move` returns so `unmake_move` can restore the position.
    type Undo: Copy;
    /// The game's rule sets; a position carries the one that judges it.
    type Rules: RuleSet;

    /// Number of history-table slots; `history_index` maps every move below it.
    const HISTORY_SIZE: usize;

    /// The search's numeric settings as tuned for this game (the defaults its engine
    /// options announce); the shared ones unless the game was tuned on its own.
    const TUNING: SearchTuning = SearchTuning::SHARED;

    /// The player to move.
    fn side_to_move(&self) -> Side;

    /// A slot for `mv` in the search's history table (e.g. from-square × to-square).
    fn history_index(mv: Self::Move) -> usize;

    /// Appends every legal move to `out` (which the caller has cleared). A position
    /// whose game is over has no moves; a side that must pass gets exactly one pass move.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move. Behaviour for an illegal move is unspecified (but memory-safe).
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move that produced `undo`.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The Zobrist hash of the position (pieces and side to move), kept incrementally.
    fn hash(&self) -> u64;

    /// `Some` once the game is over under the position's rule set.
    fn outcome(&self) -> Option<Outcome>;

    /// The rule set this position is judged by.
    fn rule_set(&self) -> Self::Rules;

    /// True once the game is over: what the search asks at every node, so a game whose
    /// [`Game::outcome`] is expensive (Lines of Action's connectivity flood fill) can
    /// answer from state it keeps incrementally. Must agree with `outcome().is_some()`.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The margin of a finished game from the first player's view (Reversi: the disc
    /// difference, empties counted for the winner), so a solver can prefer the bigger
    /// win; 0 for games whose results know no margin.
    fn final_margin(&self) -> i32 {
        0
    }

    /// True if this position repeats an earlier one (same pieces, same side to move) in
    /// the game so far or on the search path. The search scores a repetition as a draw;
    /// the game decides which earlier positions count (those since the last
    /// irreversible move). Games without repetitions keep the default.
    fn is_repetition(&self) -> bool {
        false
    }

    /// Static evaluation in centipawn-like units from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// Ordering hint for a move in this position: higher is searched earlier.
    /// Default: no preference.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// The ordering hint the search uses at a node `depth` plies from the leaves, so
    /// that a game can order more cheaply where the children are only evaluated (or at
    /// more cost where a subtree is large). Default: [`Game::move_order_hint`].
    fn move_order_hint_at(&self, mv: Self::Move, depth: i32) -> i32 {
        let _ = depth;
        self.move_order_hint(mv)
    }

    /// How many more moves the side to move will most likely be asked for, where the
    /// rules bound the game's length (Reversi: one per two empty squares, less those the
    /// exact solver plays at once). A clock without `movestogo` is spread over these
    /// instead of a fixed guess that suits no game length. Default: unknown.
    fn moves_left(&self) -> Option<u32> {
        None
    }

    /// True if the move is a pass (used to avoid reducing or pruning forced passes).
    fn is_pass(&self, mv: Self::Move) -> bool;

    /// True if the move is "quiet" enough to be reduced or pruned late in the move list.
    fn is_quiet(&self, mv: Self::Move) -> bool {
        let _ = mv;
        true
    }

    /// True if the move is almost never the best one, so that the search may skip it
    /// once a few moves have been searched (`search::Features::hopeless`, a selective
    /// feature). Default: none.
    fn is_hopeless(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Probcut where the game has measured how well a shallow search predicts a deeper
    /// one (`search::Features::probcut`, a selective feature). Default: none.
    const PROBCUT: Option<ProbCut> = None;

    /// Whether the search may use its selective features in this position: those that
    /// rest on the scale of the evaluation and on move counts (reverse futility pruning,
    /// razoring, late-move pruning, the aggressive late-move reductions:
    /// `search::Features`). Their defaults were measured in Ataxx; a game opts in once it
    /// has measured them with its own evaluation. Default: never (the search reduces as
    /// before these features existed).
    fn selective(&self) -> bool {
        false
    }

    /// Whether the end is near enough that a search asked to play it exactly
    /// (`Features::exact_endgame`, the text languages' AI) drops the selective features
    /// and searches full width, which proves short forced wins the reductions would
    /// hide. Default: never.
    fn near_end(&self) -> bool {
        false
    }

    /// A "null move" for null-move pruning: a move that only hands the turn to the
    /// opponent, offered where the game considers passing a fair test of the position
    /// (not where the side to move must pass anyway, and not where zugzwang is likely).
    /// `make_move`/`unmake_move` must accept it even though it need not be legal. The
    /// default, `None`, means "not supported": the search then never tries one.
    fn null_move(&self) -> Option<Self::Move> {
        None
    }

    /// Whether `mv` is legal here; used to validate moves from the transposition
    /// table and from untrusted peers. The default generates all moves.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }

    /// The game's exact solver, if it has one (Reversi's endgame solver): asked by the
    /// search before it iterates (`search::Features::solver`), it plays the answer.
    /// Returns the best move with its proven outcome and the nodes spent, or `None`
    /// (with the nodes spent) when the position is out of the solver's reach or the
    /// budget ran out first. Default: no solver.
    ///
    /// A staged solver (`SolveBudget::staged`) may first report rounds short of the
    /// exact result to `on_round`, each with a playable move: selective estimates at
    /// rising confidence, then the proven win, loss or draw; the search plays the last
    /// one reported when the exact result does not come in time.
    fn solve(
        &self,
        budget: &SolveBudget,
        on_round: &mut dyn FnMut(&EndgameRound<Self::Move>),
    ) -> (Option<Solved<Self::Move>>, u64) {
        let _ = (budget, on_round);
        (None, 0)
    }

    /// Makes what [`Game::solve`] keeps per thread (Reversi: the solver's table), on
    /// the calling thread; called when a searcher is made, so the first move that needs
    /// it does not pay for it on its clock (issue 25 item 8: Reversi's table, made by the
    /// first solve, cost short moves on time; `docs/reversi.md`, "Measurements behind
    /// the constants"). Default: nothing.
    fn prepare_thread() {}
}

/// What [`Game::solve`] may spend.
#[derive(Clone, Copy, Debug)]
pub struct SolveBudget<'a> {
    /// Give up as soon as this is set (`stop`, `quit`).
    pub stop: &'a AtomicBool,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up after this many nodes.
    pub max_nodes: u64,
    /// Solve only positions that end within this many plies (a depth-limited search).
    pub max_plies: Option<u32>,
    /// Forget what earlier solves learnt (a table of its own, cleared), so the same
    /// position always gets the same move: for seeded, reproducible AI play.
    pub fresh: bool,
    /// Staged: selective rounds and the proven win/loss/draw before the exact result,
    /// each reported, from further from the end than an exact solve reaches; `soft` is
    /// then the time after which no further round is started.
    pub staged: bool,
    pub soft: Option<Instant>,
}

/// Which stage of a staged endgame solve a result comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameStage {
    /// A selective round (probcut): the margin is probable to this confidence (percent).
    Probable(u8),
    /// The win, loss or draw is proven; the margin is a bound on that side of zero.
    WinLossDraw,
    /// The exact margin.
    Exact,
}

/// A round of a staged endgame solve short of the exact result ([`Game::solve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameRound<M> {
    pub best: M,
    pub stage: EndgameStage,
    /// The final margin for the side to move, as sure as `stage` says.
    pub margin: i32,
    /// The margin in the units of the game's evaluation ([`Game::evaluate`]).
    pub eval: i32,
    /// Plies to the end at most (for proven results).
    pub plies: u32,
    /// Nodes of the solve so far.
    pub nodes: u64,
}

impl<M: Copy> EndgameRound<M> {
    /// The proven result of a win/loss/draw round, as the search reports proven results.
    pub fn proven(&self) -> Option<Solved<M>> {
        (!matches!(self.stage, EndgameStage::Probable(_)))
            .then(|| Solved::with_margin(self.best, self.margin, self.plies))
    }
}

/// An exactly solved position: the move to play and where it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    pub best: M,
    /// The outcome for the side to move: a win, a loss or a draw with best play.
    pub outcome: SolvedOutcome,
    /// At most this many plies to the end (for the search's "win in N" scores).
    pub plies: u32,
    /// The final margin for the side to move (Reversi: the disc difference).
    pub margin: i32,
}

/// The proven result of a solved position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvedOutcome {
    Win,
    Loss,
    Draw,
}

impl<M> Solved<M> {
    /// `best` leading to the final margin `margin` for the side to move (its sign the
    /// outcome) within `plies` plies.
    pub fn with_margin(best: M, margin: i32, plies: u32) -> Solved<M> {
        let outcome = match margin.signum() {
            1 => SolvedOutcome::Win,
            -1 => SolvedOutcome::Loss,
            _ => SolvedOutcome::Draw,
        };
        Solved {
            best,
            outcome,
            plies,
            margin,
        }
    }
}

/// A game's rule sets: the editions of its rules that can judge a position (Ataxx: UAI's
/// 100-ply rule, the 2016 course edition's 25 consecutive jumps, the 2008 edition's 45;
/// Lines of Action: UGI's repetitions against the course's move limit; Reversi: one).
/// Each game names its own as an enum ([`Game::Rules`]), so a rule set that only one
/// protocol knows, like the 2008 edition's, is not folded into another.
pub trait RuleSet: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Every rule set of the game, each once.
    const ALL: &'static [Self];
    /// The engine protocols' rules (UAI, UGI, NBoard), also used by perft and bench.
    const ENGINE: Self;

    /// The rule set's name in results files and the PGN `Rules` tag, as the runner's
    /// `-rules` takes it: `engine` for [`RuleSet::ENGINE`] wherever the game has more
    /// than one, `text` for the course language's default edition (the names these
    /// records had when the rule sets were only `engine` and `text`).
    fn name(self) -> &'static str;

    /// The rule set called `name` ([`RuleSet::name`], or another name the game accepts
    /// for it, like Ataxx's `2016`).
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|r| r.name() == name)
    }
}

/// Probcut's settings: at a non-PV node of at least `min_depth` plies, a search
/// `reduction` plies shallower with a null window `margin` above beta (below alpha)
/// that still fails high (low) cuts the node. `margin` is in evaluation units, about
/// 1.5 standard deviations of the deeper score around the shallower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    pub min_depth: i32,
    pub reduction: i32,
    pub margin: i32,
}

/// An opening: the position it starts from (Ataxx: blocks already applied) and the
/// legal moves that lead out of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<G: Game> {
    pub base: G,
    pub moves: Vec<G::Move>,
}

impl<G: Game> Opening<G> {
    /// The position after the opening's moves.
    pub fn end(&self) -> G {
        let mut pos = self.base.clone();
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        pos
    }
}

/// Where a position stands between the opening and the end, for an evaluation linear in
/// terms with one weight vector for each: `left` of `full` (the opening's weights alone
/// at `full`, the end's alone at 0). One type so the games' evaluations and the tuner
/// (`tune fit`) blend the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    left: i32,
    full: i32,
}

impl Phase {
    /// `left` of `full` (`full` > 0), clamped to `0..=full`.
    #[inline]
    pub fn new(left: i32, full: i32) -> Phase {
        Phase {
            left: left.clamp(0, full),
            full,
        }
    }

    /// The opening weights' share: 1.0 at the opening, 0.0 at the end.
    pub fn fraction(self) -> f64 {
        f64::from(self.left) / f64::from(self.full)
    }

    /// `Σ (left·open + (full − left)·end)·term / full` in integers (rounded towards 0).
    #[inline]
    pub fn blend(self, terms: &[i32], open: &[i32], end: &[i32]) -> i32 {
        let (mut o, mut e) = (0, 0);
        for ((t, wo), we) in terms.iter().zip(open).zip(end) {
            o += wo * t;
            e += we * t;
        }
        (o * self.left + e * (self.full - self.left)) / self.full
    }
}

/// The fullmove number of a FEN that carries one (its last field, after the halfmove
/// clock, as in chess and our Ataxx and LOA FENs), else 1: a PGN numbers its movetext on
/// from it (the runner's records, the board page's copy).
pub fn fen_fullmove_number(fen: &str) -> u32 {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return 1;
    }
    fields[fields.len() - 1]
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1 && fields[fields.len() - 2].parse::<u32>().is_ok())
        .unwrap_or(1)
}

/// How a game is written and read: its name, FEN, move notation, board picture, openings
/// and end reasons. What every front end, the runner and the tools print or parse; the
/// search needs none of it.
pub trait Notation: Game {
    /// Lower-case name: the runner's `-variant`, log lines, PGN `Variant` tag.
    const NAME: &'static str;
    /// PGN tag names of the first and the second player (`Black`/`White` for all our
    /// games: the first player is black in Reversi and LOA, `x` in Ataxx, which the
    /// Ataxx tools call Black).
    const PGN_PLAYERS: [&'static str; 2] = ["Black", "White"];

    /// What the evaluation's units are, for people: units per unit and the unit's name
    /// (Reversi: 16 per disc), shown by the board page beside the AI's score; `None`
    /// where the scale has no such meaning (the score is then shown as it is).
    const SCORE_UNIT: Option<(i32, &'static str)> = None;

    /// Whether the game speaks UAI (Ataxx) besides UGI, which every game speaks: a fact
    /// about the game's notation (UAI is Ataxx's), read by the UCI-family front end.
    const SPEAKS_UAI: bool = false;

    /// The start position under `rules`.
    fn startpos(rules: Self::Rules) -> Self;

    /// Reads a position in the game's FEN (the UAI/UGI notation). `Err` is one line.
    fn from_fen(fen: &str, rules: Self::Rules) -> Result<Self, String>;

    /// The position as FEN.
    fn fen(&self) -> String;

    /// Parses a move in protocol notation (UAI/UGI: `f2`, `b1d3`, `d3`, `0000`); `None`
    /// unless it is legal here.
    fn parse_move(&self, text: &str) -> Option<Self::Move>;

    /// A move in protocol notation; the inverse of [`Notation::parse_move`].
    fn move_name(&self, mv: Self::Move) -> String;

    /// Reads one line of an openings file under `rules`: a FEN, or moves in protocol
    /// notation from the start position (`#` starts a comment). Games with more opening
    /// syntax (Ataxx's `block`) override it. An opening that already ends the game is
    /// refused: there would be nothing to play.
    fn opening(line: &str, rules: Self::Rules) -> Result<Opening<Self>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        let base = if line.contains('/') {
            Self::from_fen(line, rules)?
        } else {
            Self::startpos(rules)
        };
        let mut pos = base.clone();
        let mut moves = Vec::new();
        if !line.contains('/') {
            for word in line.split_whitespace() {
                let mv = pos
                    .parse_move(word)
                    .ok_or_else(|| format!("illegal opening move '{word}'"))?;
                pos.make_move(mv);
                moves.push(mv);
            }
        }
        if pos.outcome().is_some() {
            return Err("the opening already ends the game".into());
        }
        Ok(Opening { base, moves })
    }

    /// A board picture for people (`d` / `display`), several lines, no trailing newline.
    fn pretty(&self) -> String;

    /// Why the rules ended a finished game, for results files: e.g. `board full 30-19`.
    fn end_reason(&self) -> String;
}

/// What stands on a square, as a board display draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Empty,
    /// A square no piece may stand on (Ataxx's blocks).
    Blocked,
    Piece(Side),
}

/// The board as a display draws it, from the rules alone: a grid of squares numbered
/// row by row from the top left (`row * WIDTH + col`), the names of its columns and
/// rows, what stands on each square, and the squares a move is entered by. The board
/// page (`--display`) draws every registered game from this, whatever its language.
pub trait Diagram: Notation {
    /// Columns and rows.
    const WIDTH: usize;
    const HEIGHT: usize;

    /// The columns' names left to right and the rows' top to bottom. By default columns
    /// are letters from `a` and rows numbers counted from the bottom row, `1`.
    fn labels() -> (String, Vec<String>) {
        let files = (0..Self::WIDTH)
            .map(|c| char::from(b'a' + c as u8))
            .collect();
        let ranks = (0..Self::HEIGHT).map(|r| (Self::HEIGHT - r).to_string());
        (files, ranks.collect())
    }

    /// What stands on the square numbered `index`.
    fn square(&self, index: usize) -> Square;

    /// The squares a person enters a move by: where a piece leaves (`None` for a
    /// placement, or a move that moves no piece, such as an Ataxx clone) and the square
    /// it is played to; `None` for a pass.
    fn move_squares(&self, mv: Self::Move) -> Option<(Option<usize>, usize)>;

    /// Each side's pieces on the board.
    fn counts(&self) -> [u32; 2] {
        let mut n = [0; 2];
        for i in 0..Self::WIDTH * Self::HEIGHT {
            if let Square::Piece(side) = self.square(i) {
                n[side.index()] += 1;
            }
        }
        n
    }
}

/// The game's `perft` and `bench` signature: the fixed positions and depth whose node
/// total tells that a change left the search alone.
pub trait Benchmark: Game {
    /// Depth of `bench` without an argument.
    const BENCH_DEPTH: u32;

    /// Fixed positions whose search to [`Benchmark::BENCH_DEPTH`] is the `bench` signature.
    fn bench_positions() -> Vec<Self>;

    /// Leaf count of the legal-move tree `depth` plies deep, by the game's own walk
    /// (bulk-counting at the last ply). No default: the generic make/unmake walk
    /// (`perft::perft`, which builds on this module) is the independent reference that
    /// `tests/perft.rs` holds every game's walk against.
    fn perft(&mut self, depth: u32) -> u64;
}

/// The evaluation as a linear model for `tune fit`: terms with one weight vector for the
/// opening and one for the end, blended by a [`Phase`]. Every item has a default (no
/// terms), so a game without a linear model writes `impl Tunable for G {}` and the tuner
/// has nothing to fit.
pub trait Tunable: Game {
    /// Names of the evaluation's terms.
    const EVAL_TERMS: &'static [&'static str] = &[];

    /// The evaluation's weights in [`Tunable::EVAL_TERMS`] order: opening, end.
    fn eval_weights() -> [&'static [i32]; 2] {
        [&[], &[]]
    }

    /// The evaluation's terms here, from the side to move's view, and the phase that
    /// blends them: [`Game::evaluate`] is `phase.blend(terms, open, end)` plus
    /// [`Tunable::eval_offset`].
    fn eval_terms(&self) -> (Vec<i32>, Phase) {
        (Vec::new(), Phase::new(0, 1))
    }

    /// The part of [`Game::evaluate`] outside the linear model (Ataxx: its network's
    /// correction), side to move's view: the tuner fits the weights around it. Default 0.
    fn eval_offset(&self) -> i32 {
        0
    }
}

/// The tournament runner's policy for judging games between engines. Every item has a
/// default (no adjudication), so a game writes `impl Referee for G {}`
/// unless it offers more.
pub trait Referee: Game {
    /// Whether material adjudication means anything in this game (Ataxx: yes; in Lines
    /// of Action fewer pieces are easier to connect, in Reversi discs swing wildly).
    const MATERIAL_ADJUDICATION: bool = false;

    /// A material count of one side (pieces on the board), for the runner's material
    /// adjudication where [`Referee::MATERIAL_ADJUDICATION`] offers it. Default 0.
    fn material(&self, _side: Side) -> i32 {
        0
    }
}

/// Everything the layers above the search may ask of a game, for the places that need
/// all of it (a game's front-end session, the runner's generic match code). Implemented
/// for every type with the five parts; users that need less name the narrower trait.
pub trait GameIo: Notation + Diagram + Benchmark + Tunable + Referee {}

impl<G: Notation + Diagram + Benchmark + Tunable + Referee> GameIo for G {}

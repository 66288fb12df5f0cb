//! Iterative-deepening negamax alpha-beta over any [`Game`]: principal variation search,
//! aspiration windows, a transposition table, killer and history move ordering,
//! late-move reductions, and (switchable, see [`Features`]) null-move pruning, reverse
//! futility pruning, razoring and late-move pruning. The pruning never produces a
//! proven score: it cuts only inside windows away from wins and losses, never prunes a
//! move while every move searched so far loses, and a null move that "wins" counts as
//! beta. So a proven win or loss is still a real forced line.

use super::limits::{Clock, Limits};
use super::report::{solved_score, Iteration, Score, SearchResult, StopReason, INF, MAX_PLY, WIN};
use super::tt::{Bound, Table};
use crate::game::{EndgameRound, EndgameStage, Game, Outcome, SearchTuning, SolveBudget, Solved};
use crate::rng::SplitMix64;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Search features that can be switched off, so each one's worth can be measured in a
/// match against the same engine without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub aspiration: bool,
    pub lmr: bool,
    pub killers: bool,
    pub history: bool,
    /// Late-move reductions only for moves the game calls quiet (`Game::is_quiet`).
    pub lmr_quiet: bool,
    /// Half-width of the first aspiration window (evaluation units).
    pub aspiration_width: i32,
    /// Log-based reduction `ln(depth) · ln(move number) · 100 / lmr_log` when nonzero;
    /// 0 keeps the fixed one- or two-ply reduction.
    pub lmr_log: i32,
    /// History scores are divided by this before they are added to the game's move
    /// order hint (× 256).
    pub history_div: i32,
    /// Internal iterative reduction: one ply less at nodes of depth ≥ 4 that have no
    /// transposition-table move.
    pub iir: bool,
    /// Null-move pruning where the game offers a null move (`Game::null_move`): at
    /// non-PV nodes of depth ≥ 3 whose static evaluation is at least beta, a pass
    /// searched `3 + depth / 4` plies shallower that still fails high cuts the node.
    pub null_move: bool,
    /// Reverse futility pruning when nonzero: a non-PV node of depth ≤ [`STATIC_CUT_DEPTH`]
    /// whose static evaluation minus `rfp_margin · depth` is still at least beta
    /// returns beta.
    pub rfp_margin: i32,
    /// Razoring when nonzero: a non-PV node of depth ≤ [`STATIC_CUT_DEPTH`] whose static
    /// evaluation plus `razor_margin · depth` is still below alpha returns alpha.
    pub razor_margin: i32,
    /// Late-move pruning when nonzero: at non-PV nodes, quiet moves (`Game::is_quiet`)
    /// from index `lmp + depth²` on are not searched.
    pub lmp: i32,
    /// Hopeless-move pruning when nonzero: below the root, once this many moves have
    /// been searched and one of them scored above a proven loss, moves the game calls
    /// hopeless (`Game::is_hopeless`: in Ataxx a jump that captures nothing) are not
    /// searched, at PV nodes too.
    pub hopeless: i32,
    /// Aggressive late-move reductions when nonzero: every move after the first (passes
    /// excepted) at depth ≥ 2 is searched `lmr_aggr` plies shallower, one more from the
    /// 10th move, captures too (`lmr_quiet` applies to the other schemes only); a reduced
    /// search may drop straight to the static evaluation. Replaces the scheme of
    /// `lmr_log` and the fixed reduction.
    pub lmr_aggr: i32,
    /// Probcut where the game offers it ([`Game::PROBCUT`]).
    pub probcut: bool,
    /// Do not start an iteration when the last one's duration times
    /// [`PREDICT_GROWTH`] would pass the hard deadline (it would be cut off and
    /// thrown away).
    pub predict_stop: bool,
    /// Node-based time use: from depth [`NODE_TIME_MIN_DEPTH`] on, the soft deadline is
    /// scaled by `(NODE_TIME_BASE − f) · NODE_TIME_SCALE`, `f` being the share of this
    /// search's root nodes spent below the current best move: a settled best move stops
    /// early, a contested one gets more time (never past the hard deadline). Only for a
    /// clock (a fixed move time has its two deadlines equal and is not scaled).
    pub node_time: bool,
    /// When a deadline, `stop` or the node limit cuts an iteration short after the
    /// previous best move (searched first) has been searched, play the best move that
    /// iteration searched in full: it is at least as good as the previous best at the
    /// new depth. Otherwise the last finished iteration's move.
    pub partial_iteration: bool,
    /// Search full width (no selective features) where the game says the end is near
    /// ([`Game::near_end`]): exact play of short forced wins matters more there than
    /// depth. Off for timed play (it lost Elo there), on for the text languages' AI.
    /// There the search first looks for a forced win of at most [`PROOF_MOVES`] own
    /// moves with a proof search ([`super::prove`]) of up to the node limit (at most
    /// [`PROOF_BUDGET`]) nodes, and plays its first move if it finds one.
    pub exact_endgame: bool,
    /// Ask the game's exact solver first ([`Game::solve`]; Reversi's endgame solver)
    /// and play its answer: within half the time to the soft deadline and within the
    /// node limit (its nodes count outside the limit), and for a depth-limited search
    /// only if the game ends within the depth. Games without a solver are unaffected.
    pub solver: bool,
    /// Let the game's solver stage the endgame where it can (`SolveBudget::staged`;
    /// Reversi: probcut rounds, then win/loss/draw, then exact, from further from the
    /// end than an exact solve reaches): each round is reported as an iteration, and
    /// the last one is played when the clock ends the solve before the exact result.
    /// Only on a clock (a search limited by depth or nodes alone solves as `solver`
    /// says), and within the depth of a depth-limited search.
    pub staged_endgame: bool,
}

/// How much longer than the last iteration the next one is assumed to take
/// (`Features::predict_stop`): the low end of the iteration-to-iteration ratios seen
/// with aggressive reductions (`docs/strength.md`, "Measurements behind the search's constants").
pub const PREDICT_GROWTH: f32 = 1.5;

/// First iteration whose root node shares scale the soft deadline (`Features::node_time`).
pub const NODE_TIME_MIN_DEPTH: u32 = 7;
/// `Features::node_time`: the scale is `(NODE_TIME_BASE − f) · NODE_TIME_SCALE`, from
/// 0.82 (every node on the best move) to 2.3 (none): Zataxx's published constants.
pub const NODE_TIME_BASE: f64 = 1.55;
/// See [`NODE_TIME_BASE`].
pub const NODE_TIME_SCALE: f64 = 1.5;

impl Features {
    /// The features as they apply in `pos`: the ones tuned to one game's evaluation
    /// scale and move counts (reverse futility pruning, razoring, late-move pruning, the
    /// aggressive reductions) stay off unless the game opts in there with
    /// [`Game::selective`], and off near the end in an exact-endgame search.
    pub fn effective<G: Game>(self, pos: &G) -> Features {
        if pos.selective() && !(self.exact_endgame && pos.near_end()) {
            self
        } else {
            self.without_selective()
        }
    }

    /// These features with the game-tuned selective ones (reverse futility pruning,
    /// razoring, late-move pruning, the aggressive reductions) switched off.
    pub fn without_selective(self) -> Features {
        Features {
            rfp_margin: 0,
            razor_margin: 0,
            lmp: 0,
            hopeless: 0,
            lmr_aggr: 0,
            probcut: false,
            ..self
        }
    }
}

/// Deepest remaining depth at which reverse futility pruning and razoring may cut.
pub const STATIC_CUT_DEPTH: i32 = 4;

impl Features {
    /// The defaults with game `G`'s own tuning ([`Game::TUNING`]): what its engine
    /// searches with before any option is set.
    pub fn for_game<G: Game>() -> Features {
        let t = G::TUNING;
        Features {
            aspiration_width: t.aspiration_width,
            rfp_margin: t.rfp_margin,
            razor_margin: t.razor_margin,
            lmr_aggr: t.lmr_aggr,
            history_div: t.history_div,
            ..Features::default()
        }
    }
}

impl Default for Features {
    /// The measured best for Ataxx before its own tuning (`docs/strength.md`): killers
    /// off (they cost strength), the aggressive reductions, null move, reverse futility
    /// pruning and razoring on; late-move pruning off; the numeric settings shared by
    /// every game ([`SearchTuning::SHARED`]; a game's own: [`Features::for_game`]).
    /// Where a game does not opt in ([`Game::selective`], [`Game::null_move`]) the
    /// search is as before these existed.
    fn default() -> Features {
        let t = SearchTuning::SHARED;
        Features {
            aspiration: true,
            lmr: true,
            killers: false,
            history: true,
            lmr_quiet: true,
            aspiration_width: t.aspiration_width,
            lmr_log: 0,
            history_div: t.history_div,
            iir: false,
            null_move: true,
            rfp_margin: t.rfp_margin,
            razor_margin: t.razor_margin,
            lmp: 0,
            hopeless: 0,
            lmr_aggr: t.lmr_aggr,
            probcut: true,
            predict_stop: false,
            node_time: false,
            partial_iteration: false,
            exact_endgame: false,
            solver: true,
            staged_endgame: true,
        }
    }
}

/// The searcher: tables that persist between searches of one game. The transposition
/// table may be shared with other searchers (Lazy SMP helpers, [`Searcher::sharing`]).
pub struct Searcher<G: Game> {
    tt: Arc<Table<G::Move>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    move_buf: Vec<Vec<G::Move>>,
    score_buf: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    /// `after_null[ply]`: the move that led to this ply was a null move.
    after_null: Vec<bool>,
    /// Switchable features (see [`Features::default`]).
    pub features: Features,
    // Per-search state.
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    node_limit: u64,
    clock: Option<Clock>,
    /// A helper's running node count for the main thread's reports
    /// ([`Searcher::search_helper`]): every [`CHECK_INTERVAL`] nodes are added here.
    published: Option<Arc<AtomicU64>>,
}

const CHECK_INTERVAL: u64 = 1024;
/// Extra iterations after a proven score before the search stops early.
const PROVEN_MARGIN: u32 = 4;
/// The longest forced win (own moves) the proof search looks for (`Features::exact_endgame`).
pub const PROOF_MOVES: u32 = 5;
/// The most nodes the proof search may spend before the normal search (which keeps its
/// own node limit).
pub const PROOF_BUDGET: u64 = 1_000_000;

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB, on the thread that
    /// will search with it (the game's per-thread tables are made here:
    /// [`Game::prepare_thread`]).
    pub fn new(hash_mib: usize) -> Searcher<G> {
        G::prepare_thread();
        Searcher::sharing(Arc::new(Table::new(hash_mib)))
    }

    /// A searcher over `table`, which other searchers may be using at the same time
    /// (the Lazy SMP helpers of [`super::Engine`]). Its own state (history, killers,
    /// node counts) is its own. It does not prepare the game's per-thread tables: a
    /// helper never calls the game's solver.
    pub fn sharing(table: Arc<Table<G::Move>>) -> Searcher<G> {
        Searcher {
            tt: table,
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; 2 * G::HISTORY_SIZE],
            move_buf: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            score_buf: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            after_null: vec![false; MAX_PLY + 2],
            features: Features::for_game::<G>(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            node_limit: u64::MAX,
            clock: None,
            published: None,
        }
    }

    /// The transposition table, to share with helpers.
    pub fn table(&self) -> Arc<Table<G::Move>> {
        Arc::clone(&self.tt)
    }

    /// Resizes the transposition table (its contents are lost). Helpers sharing the
    /// old one keep it until they are given the new one ([`Searcher::sharing`]).
    pub fn set_hash(&mut self, hash_mib: usize) {
        self.tt = Arc::new(Table::new(hash_mib));
    }

    /// Forgets everything learned so far (a new game), so results do not depend on
    /// what was searched before.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.forget_history();
    }

    /// Forgets the move-ordering history and killers, not the shared table (a helper's
    /// part of a new game).
    pub fn forget_history(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    /// The result of a root the game's solver solved, reported as one iteration.
    fn solved(
        &self,
        s: Solved<G::Move>,
        nodes: u64,
        start: Instant,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let result = endgame_result(
            s.best,
            solved_score(&s),
            s.plies,
            nodes,
            start,
            StopReason::Proven,
        );
        on_iteration(&Iteration {
            depth: result.depth,
            seldepth: result.depth,
            score: result.score,
            nodes,
            time: result.time,
            hashfull: self.tt.hashfull(),
            pv: result.pv.clone(),
            endgame: Some(EndgameStage::Exact),
        });
        result
    }

    /// Permille of the transposition table filled by the current search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `root` within `limits`. `stop` is polled during the search; `seed`
    /// shuffles equally-ordered root moves (so it picks among equal moves), and
    /// `on_iteration` hears about every completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &AtomicBool,
        seed: Option<u64>,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.clock = Some(Clock::new(limits));
        self.published = None;
        self.tt.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        for h in self.history.iter_mut() {
            *h /= 8;
        }

        let mut pos = root.clone();
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: Score(0),
            depth: 0,
            nodes: 0,
            time: start.elapsed(),
            pv: root_moves.first().copied().into_iter().collect(),
            reason: StopReason::Depth,
        };
        if root_moves.is_empty() {
            result.reason = StopReason::GameOver;
            return result;
        }
        if root_moves.len() == 1 && !limits.infinite {
            result.reason = StopReason::Proven;
            return result;
        }
        // Nodes of the game's solver (`Features::solver`), outside the node limit.
        let mut solver_nodes = 0;
        // A solve the front end asked for (`Limits::solve`): no budget but `stop`.
        if let Some(budget) = limits.solve_budget(stop).filter(|_| !limits.infinite) {
            let (solved, nodes) = pos.solve(&budget, &mut |_| {});
            solver_nodes = nodes;
            if let Some(s) = solved {
                return self.solved(s, nodes, start, on_iteration);
            }
        }
        if self.features.solver && !limits.infinite {
            let now = Instant::now();
            let soft = self.clock.and_then(|c| c.soft.or(c.hard));
            let staged = self.features.staged_endgame && soft.is_some();
            let deadline = if staged {
                // Rounds start until the soft deadline; the hard one ends the last.
                self.clock.and_then(|c| c.hard.or(c.soft))
            } else {
                // Half the time left to the soft deadline (else the hard one), so
                // that a solve that does not finish leaves the search the other half.
                soft.map(|d| now + d.saturating_duration_since(now) / 2)
            };
            let budget = SolveBudget {
                stop,
                deadline,
                max_nodes: self.node_limit,
                max_plies: limits.depth,
                fresh: limits.fresh_solve,
                staged,
                soft,
            };
            let mut last_round = None;
            let hashfull = self.tt.hashfull();
            let (solved, more) = pos.solve(&budget, &mut |r| {
                on_iteration(&round_iteration(r, start, hashfull));
                last_round = Some(*r);
            });
            solver_nodes += more;
            if let Some(s) = solved {
                return self.solved(s, solver_nodes, start, on_iteration);
            }
            if let Some(r) = last_round {
                let score = round_score(&r);
                let reason = StopReason::Time;
                return endgame_result(r.best, score, r.plies, solver_nodes, start, reason);
            }
        }
        // Nodes of the proof search (`Features::exact_endgame`), outside the node limit.
        let mut proof_nodes = 0;
        if self.features.exact_endgame && pos.near_end() && !limits.infinite {
            let budget = self.node_limit.min(PROOF_BUDGET);
            let proof = super::prove::fastest_win(&mut pos, PROOF_MOVES, budget, stop);
            if let Some((mv, moves)) = proof.win {
                let plies = 2 * moves - 1;
                result.best = Some(mv);
                result.score = Score(WIN - plies as i32);
                result.depth = plies;
                result.pv = vec![mv];
                result.reason = StopReason::Proven;
                result.nodes = proof.nodes;
                result.time = start.elapsed();
                on_iteration(&Iteration {
                    depth: plies,
                    seldepth: plies,
                    score: result.score,
                    nodes: proof.nodes,
                    time: result.time,
                    hashfull: self.tt.hashfull(),
                    pv: result.pv.clone(),
                    endgame: None,
                });
                return result;
            }
            proof_nodes = proof.nodes;
        }

        // Order root moves once by the game's hint; the seed breaks ties.
        if let Some(seed) = seed {
            SplitMix64::new(seed).shuffle(&mut root_moves);
        }
        let mut root_scores: Vec<i32> =
            root_moves.iter().map(|&m| pos.move_order_hint(m)).collect();
        sort_by_scores(&mut root_moves, &mut root_scores);
        // Nodes searched below each root move in this search (`Features::node_time`).
        let mut root_nodes = vec![0u64; root_moves.len()];

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let mut prev_score = 0;
        for depth in 1..=max_depth {
            let iteration_start = Instant::now();
            let (score, best_idx) = self.search_root(
                &mut pos,
                &mut root_moves,
                &mut root_scores,
                &mut root_nodes,
                depth as i32,
                prev_score,
                stop,
            );
            if self.stopped {
                // An unfinished iteration is trusted only if no iteration finished.
                // So is a move of it that beat the previous best (`partial_iteration`).
                if let Some(i) = best_idx {
                    if result.depth == 0 {
                        result.best = Some(root_moves[i]);
                        result.pv = vec![root_moves[i]];
                    } else if self.features.partial_iteration && i != 0 {
                        result.best = Some(root_moves[i]);
                        result.score = Score(root_scores[i]);
                        result.pv = if self.pv[0].first() == Some(&root_moves[i]) {
                            self.pv[0].clone()
                        } else {
                            vec![root_moves[i]]
                        };
                    }
                }
                break;
            }
            let best = root_moves[best_idx.unwrap_or(0)];
            let pv = if self.pv[0].first() == Some(&best) {
                self.pv[0].clone()
            } else {
                vec![best]
            };
            // Move the best move to the front for the next iteration.
            let i = best_idx.unwrap_or(0);
            to_front(i, &mut root_moves, &mut root_scores, &mut root_nodes);
            prev_score = score;
            result.best = Some(best);
            result.score = Score(score);
            result.depth = depth;
            result.pv = pv.clone();
            on_iteration(&Iteration {
                depth,
                seldepth: self.seldepth as u32,
                score: Score(score),
                nodes: self.nodes,
                time: start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv,
                endgame: None,
            });
            if !limits.infinite {
                // Reductions can hide a shorter win, so a proven result is trusted only
                // once the reduced lines have had room to reach it in full.
                if let Some(plies) = Score(score).plies_to_end() {
                    if plies.unsigned_abs() + PROVEN_MARGIN <= depth {
                        result.reason = StopReason::Proven;
                        break;
                    }
                }
                let now = Instant::now();
                if self
                    .soft_deadline(depth, &root_nodes)
                    .is_some_and(|s| now >= s)
                {
                    result.reason = StopReason::Time;
                    break;
                }
                // An iteration cut off by the hard deadline is thrown away: do not start
                // one that would not finish, judging by the last one's duration.
                let hard = self.clock.and_then(|c| c.hard);
                let last = now - iteration_start;
                if self.features.predict_stop
                    && hard.is_some_and(|h| now + last.mul_f32(PREDICT_GROWTH) >= h)
                {
                    result.reason = StopReason::Time;
                    break;
                }
            }
        }
        if self.stopped {
            result.reason = if stop.load(Ordering::Relaxed) {
                StopReason::Stopped
            } else if self.nodes >= self.node_limit {
                StopReason::Nodes
            } else {
                StopReason::Time
            };
        }
        result.nodes = self.nodes + proof_nodes + solver_nodes;
        result.time = start.elapsed();
        result
    }

    /// The soft deadline after iteration `depth`, scaled by `Features::node_time` from
    /// the nodes below each root move (the best first).
    fn soft_deadline(&self, depth: u32, root_nodes: &[u64]) -> Option<Instant> {
        let c = self.clock?;
        let soft = c.soft?;
        let fixed_move_time = c.hard.is_some_and(|h| soft >= h);
        if !self.features.node_time || depth < NODE_TIME_MIN_DEPTH || fixed_move_time {
            return Some(soft);
        }
        let total = root_nodes.iter().sum::<u64>().max(1);
        let f = root_nodes[0] as f64 / total as f64;
        let scale = (NODE_TIME_BASE - f) * NODE_TIME_SCALE;
        let scaled = c.origin + (soft - c.origin).mul_f64(scale);
        Some(c.hard.map_or(scaled, |h| scaled.min(h)))
    }

    /// A Lazy SMP helper's search of `root`: the main search's iterative deepening over
    /// the shared table, without its solver, proof search, limits or reports, until
    /// `stop` is set (the main thread sets it when it is done). What it finds reaches
    /// the main search through the table. Helper `id` (1, 2, …) starts `id % 2` plies
    /// deeper and breaks root-move ties in its own random order, so the helpers do not
    /// all search the same tree in step. Its nodes are added to `nodes` as it goes
    /// (every [`CHECK_INTERVAL`]) and in full by the time it returns.
    pub fn search_helper(&mut self, root: &G, id: usize, stop: &AtomicBool, nodes: Arc<AtomicU64>) {
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = u64::MAX;
        self.clock = None;
        self.published = Some(nodes);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut pos = root.clone();
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        if root_moves.len() > 1 {
            SplitMix64::new(id as u64).shuffle(&mut root_moves);
            let mut root_scores: Vec<i32> =
                root_moves.iter().map(|&m| pos.move_order_hint(m)).collect();
            sort_by_scores(&mut root_moves, &mut root_scores);
            let mut root_nodes = vec![0u64; root_moves.len()];
            let mut prev_score = 0;
            for depth in 1 + id as u32 % 2..=MAX_PLY as u32 - 8 {
                let (score, best_idx) = self.search_root(
                    &mut pos,
                    &mut root_moves,
                    &mut root_scores,
                    &mut root_nodes,
                    depth as i32,
                    prev_score,
                    stop,
                );
                if self.stopped || stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = best_idx.unwrap_or(0);
                to_front(i, &mut root_moves, &mut root_scores, &mut root_nodes);
                prev_score = score;
            }
        }
        if let Some(published) = self.published.take() {
            published.fetch_add(self.nodes % CHECK_INTERVAL, Ordering::Relaxed);
        }
    }

    /// One root iteration with an aspiration window. Returns the score and the index of
    /// the best root move (when stopped: of the best move searched in full that scored
    /// above the window's alpha, `None` if none did).
    #[allow(clippy::too_many_arguments)]
    fn search_root(
        &mut self,
        pos: &mut G,
        moves: &mut [G::Move],
        scores: &mut [i32],
        nodes: &mut [u64],
        depth: i32,
        prev: i32,
        stop: &AtomicBool,
    ) -> (i32, Option<usize>) {
        let mut delta = self.features.aspiration_width.max(1);
        let (mut alpha, mut beta) =
            if self.features.aspiration && depth >= 4 && prev.abs() < WIN - MAX_PLY as i32 {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
        loop {
            let (score, best) =
                self.root_window(pos, moves, scores, nodes, depth, alpha, beta, stop);
            if self.stopped {
                return (score, best);
            }
            if score <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (beta + delta).min(INF);
            } else {
                return (score, best);
            }
            delta *= 3;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn root_window(
        &mut self,
        pos: &mut G,
        moves: &mut [G::Move],
        scores: &mut [i32],
        nodes: &mut [u64],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> (i32, Option<usize>) {
        let alpha_start = alpha;
        let mut best_score = -INF;
        let mut best_idx = None;
        self.pv[0].clear();
        for i in 0..moves.len() {
            let mv = moves[i];
            let nodes_before = self.nodes;
            let undo = pos.make_move(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, 1, true, stop)
            } else {
                let s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, false, stop);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(pos, depth - 1, -beta, -alpha, 1, true, stop)
                } else {
                    s
                }
            };
            pos.unmake_move(mv, undo);
            nodes[i] += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            scores[i] = score;
            if score > best_score {
                best_score = score;
                best_idx = Some(i);
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(i) = best_idx {
            if !self.stopped {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.tt
                    .store(pos.hash(), Some(moves[i]), best_score, depth, bound, 0);
            }
        }
        if self.stopped && best_score <= alpha_start {
            // Only upper bounds so far: the highest of them names no better move.
            best_idx = None;
        }
        (best_score, best_idx)
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn should_stop(&mut self, stop: &AtomicBool) -> bool {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            if let Some(published) = &self.published {
                published.fetch_add(CHECK_INTERVAL, Ordering::Relaxed);
            }
            let late = self
                .clock
                .and_then(|c| c.hard)
                .is_some_and(|h| Instant::now() >= h);
            if late || stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop(stop) {
            return 0;
        }
        if pos.is_repetition() {
            return 0;
        }
        if pos.is_over() {
            return match pos.outcome() {
                None | Some(Outcome::Draw) => 0,
                Some(Outcome::Win(side)) if side == pos.side_to_move() => WIN - ply as i32,
                Some(Outcome::Win(_)) => -(WIN - ply as i32),
            };
        }
        if depth <= 0 || ply >= MAX_PLY {
            return pos.evaluate();
        }

        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = e.mv;
            if !pv_node && e.depth as i32 >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cut {
                    return e.score;
                }
            }
        }

        // Selective pruning at non-PV nodes, from the static evaluation.
        let f = self.features.effective(pos);
        if !pv_node && beta.abs() < PROVEN && alpha.abs() < PROVEN {
            let static_cut = depth <= STATIC_CUT_DEPTH && (f.rfp_margin > 0 || f.razor_margin > 0);
            let null = f.null_move && depth >= 3 && !self.after_null[ply];
            if static_cut || null {
                let eval = pos.evaluate();
                if static_cut {
                    if f.rfp_margin > 0 && eval - f.rfp_margin * depth >= beta {
                        return beta;
                    }
                    if f.razor_margin > 0 && eval + f.razor_margin * depth < alpha {
                        return alpha;
                    }
                }
                if null && eval >= beta {
                    if let Some(null_mv) = pos.null_move() {
                        let undo = pos.make_move(null_mv);
                        self.after_null[ply + 1] = true;
                        let r = 3 + depth / 4;
                        let s =
                            -self.negamax(pos, depth - r, -beta, -beta + 1, ply + 1, false, stop);
                        self.after_null[ply + 1] = false;
                        pos.unmake_move(null_mv, undo);
                        if self.stopped {
                            return 0;
                        }
                        if s >= beta {
                            // A null-move result proves nothing about wins or losses.
                            return if s >= PROVEN { beta } else { s };
                        }
                    }
                }
            }
        }

        // Probcut: a shallower search far outside the window predicts this one.
        if let (true, false, Some(pc)) = (f.probcut, pv_node, G::PROBCUT) {
            if depth >= pc.min_depth && beta.abs() < PROVEN / 2 && alpha.abs() < PROVEN / 2 {
                let shallow = depth - pc.reduction;
                let high = beta + pc.margin;
                let s = self.negamax(pos, shallow, high - 1, high, ply, false, stop);
                if self.stopped {
                    return 0;
                }
                if s >= high {
                    return beta;
                }
                let low = alpha - pc.margin;
                let s = self.negamax(pos, shallow, low, low + 1, ply, false, stop);
                if self.stopped {
                    return 0;
                }
                if s <= low {
                    return alpha;
                }
            }
        }

        let mut depth = depth;
        if self.features.iir && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }

        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        let mut scores = std::mem::take(&mut self.score_buf[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        // The table's move is searched first whatever the others score, and it cuts
        // most nodes that have one: the game's hints, the costly part of the other
        // moves' scores, are added only once it has not. The history part is read now,
        // so the order is the same as scoring everything at once.
        self.score_moves(pos, &moves, &mut scores, tt_move, ply);
        let defer_hints = tt_move.is_some_and(|t| moves.contains(&t));
        if !defer_hints {
            self.add_hints(pos, &moves, &mut scores, depth);
        }

        let side = pos.side_to_move().index();
        let alpha_orig = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let lmp_from = if f.lmp > 0 && !pv_node {
            (f.lmp + depth * depth) as usize
        } else {
            usize::MAX
        };
        for i in 0..moves.len() {
            if defer_hints && i == 1 {
                self.add_hints(pos, &moves[1..], &mut scores[1..], depth);
            }
            pick_best(&mut moves, &mut scores, i);
            let mv = moves[i];
            let ordered_score = scores[i];
            let is_quiet = pos.is_quiet(mv);
            let pass = pos.is_pass(mv);
            if i >= lmp_from && is_quiet && !pass && best_score > -PROVEN {
                continue;
            }
            if f.hopeless > 0
                && ply > 0
                && i >= f.hopeless as usize
                && best_score > -PROVEN
                && pos.is_hopeless(mv)
            {
                continue;
            }
            let quiet = !self.features.lmr_quiet || is_quiet;
            let undo = pos.make_move(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, pv_node, stop)
            } else {
                let r = if !self.features.lmr || pass {
                    0
                } else if f.lmr_aggr > 0 {
                    if depth >= 2 && ordered_score < KILLER_SCORE {
                        f.lmr_aggr + (i >= 9) as i32
                    } else {
                        0
                    }
                } else if !(depth >= 3 && i >= 3 && ordered_score < KILLER_SCORE && quiet) {
                    0
                } else if self.features.lmr_log > 0 {
                    log_reduction(depth, i, self.features.lmr_log)
                } else {
                    1 + (depth >= 6 && i >= 8) as i32
                };
                let mut s =
                    -self.negamax(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false, stop);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, false, stop);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true, stop);
                }
                s
            };
            pos.unmake_move(mv, undo);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.reward(side, mv, depth, ply, &moves[..i]);
                        break;
                    }
                }
            }
        }
        self.move_buf[ply] = moves;
        self.score_buf[ply] = scores;
        if self.stopped {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, best_score, depth, bound, ply);
        best_score
    }

    /// The moves' scores less the game's hints ([`Self::add_hints`]): the table's move,
    /// the killers, then history.
    fn score_moves(
        &self,
        pos: &G,
        moves: &[G::Move],
        scores: &mut Vec<i32>,
        tt_move: Option<G::Move>,
        ply: usize,
    ) {
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == tt_move {
                TT_SCORE
            } else if self.features.killers && killers[0] == Some(m) {
                KILLER_SCORE + 1
            } else if self.features.killers && killers[1] == Some(m) {
                KILLER_SCORE
            } else {
                let h = if self.features.history {
                    self.history[side * G::HISTORY_SIZE + G::history_index(m)]
                        / self.features.history_div.max(1)
                } else {
                    0
                };
                h.clamp(-200_000, 200_000)
            }
        }));
    }

    /// Adds the game's hints (× 256) to the scores [`Self::score_moves`] gave, for the
    /// moves ordered by them (not the table's move or a killer).
    fn add_hints(&self, pos: &G, moves: &[G::Move], scores: &mut [i32], depth: i32) {
        for (&m, s) in moves.iter().zip(scores) {
            if *s < KILLER_SCORE {
                *s += pos.move_order_hint_at(m, depth) * 256;
            }
        }
    }

    /// A move that caused a beta cut-off becomes a killer and gains history; the moves
    /// tried before it lose some.
    fn reward(&mut self, side: usize, mv: G::Move, depth: i32, ply: usize, tried: &[G::Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth * 16).min(16_000);
        let base = side * G::HISTORY_SIZE;
        let update = |h: &mut i32, b: i32| *h += b - *h * b.abs() / 4_000_000;
        update(&mut self.history[base + G::history_index(mv)], bonus);
        for &m in tried {
            update(&mut self.history[base + G::history_index(m)], -bonus);
        }
    }
}

const TT_SCORE: i32 = i32::MAX;
/// Scores at least this far from zero are proven wins or losses.
const PROVEN: i32 = WIN - MAX_PLY as i32;
const KILLER_SCORE: i32 = i32::MAX - 10;

/// The log-based late-move reduction for a move at index `i` (0-based) searched at
/// `depth`: `0.5 + ln(depth) · ln(i + 1) · 100 / divisor`, at least 1 ply, and leaving at
/// least one ply of search.
fn log_reduction(depth: i32, i: usize, divisor: i32) -> i32 {
    let r = 0.5 + (depth as f64).ln() * ((i + 1) as f64).ln() * 100.0 / divisor as f64;
    (r as i32).clamp(1, (depth - 2).max(1))
}

/// Moves the best-scored remaining move to position `i` (selection sort step: cheap
/// when a cut-off comes early, as it usually does).
fn pick_best<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

/// The iteration that reports a round of the game's staged endgame solve.
fn round_iteration<M: Copy>(r: &EndgameRound<M>, start: Instant, hashfull: u32) -> Iteration<M> {
    let time = start.elapsed();
    let depth = r.plies.clamp(1, MAX_PLY as u32);
    Iteration {
        depth,
        seldepth: depth,
        score: round_score(r),
        nodes: r.nodes,
        time,
        hashfull,
        pv: vec![r.best],
        endgame: Some(r.stage),
    }
}

/// A round's score: the proven result of a win/loss/draw round, else its estimate.
fn round_score<M: Copy>(r: &EndgameRound<M>) -> Score {
    match r.proven() {
        Some(s) => solved_score(&s),
        None => Score(r.eval),
    }
}

/// The result of a search answered by the game's solver: its exact result (`Proven`),
/// or the last round of a staged solve that the clock or `stop` ended before it (`Time`).
fn endgame_result<M: Copy>(
    best: M,
    score: Score,
    plies: u32,
    nodes: u64,
    start: Instant,
    reason: StopReason,
) -> SearchResult<M> {
    SearchResult {
        best: Some(best),
        score,
        depth: plies.clamp(1, MAX_PLY as u32),
        nodes,
        time: start.elapsed(),
        pv: vec![best],
        reason,
    }
}

fn sort_by_scores<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    let mut pairs: Vec<(i32, M)> = scores.iter().copied().zip(moves.iter().copied()).collect();
    pairs.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    for (i, (s, m)) in pairs.into_iter().enumerate() {
        scores[i] = s;
        moves[i] = m;
    }
}

/// Moves root move `i` to the front, where the next iteration searches it first; its
/// score and node count go with it.
fn to_front<M>(i: usize, moves: &mut [M], scores: &mut [i32], nodes: &mut [u64]) {
    moves[..=i].rotate_right(1);
    scores[..=i].rotate_right(1);
    nodes[..=i].rotate_right(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::ataxx::{Position, Rules};

    /// Hopeless-move pruning takes effect (fewer nodes to the same depth) and the search
    /// still plays a legal move.
    #[test]
    fn hopeless_pruning_searches_fewer_nodes() {
        let mut pos = Position::startpos(Rules::Uai);
        for m in ["f2", "a2", "g2", "b1"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let stop = AtomicBool::new(false);
        let nodes = |hopeless| {
            let mut s: Searcher<Position> = Searcher::new(4);
            s.features.hopeless = hopeless;
            let r = s.search(&pos, &Limits::depth(8), &stop, None, &mut |_| {});
            assert!(pos.is_legal(r.best.unwrap()));
            r.nodes
        };
        let (without, with) = (nodes(0), nodes(2));
        assert!(
            with < without,
            "{with} nodes with the pruning, {without} without"
        );
    }

    /// One depth-6 root window from a position four plies in, by a fresh searcher
    /// (so runs agree node for node up to a cut) stopped after `node_limit` nodes:
    /// the best move's index, the nodes below each root move, and whether it was cut.
    fn root_window(alpha: i32, beta: i32, node_limit: u64) -> (Option<usize>, Vec<u64>, bool) {
        let mut pos = Position::startpos(Rules::Uai);
        for m in ["f2", "a2", "g2", "b1"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mut s: Searcher<Position> = Searcher::new(1);
        s.node_limit = node_limit;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut scores = vec![0; moves.len()];
        let mut nodes = vec![0; moves.len()];
        let stop = AtomicBool::new(false);
        let (_, best) = s.root_window(
            &mut pos,
            &mut moves,
            &mut scores,
            &mut nodes,
            6,
            alpha,
            beta,
            &stop,
        );
        assert_eq!(nodes.iter().sum::<u64>(), s.nodes, "root nodes add up");
        (best, nodes, s.stopped)
    }

    #[test]
    fn a_cut_iteration_names_a_move_only_if_it_scored_above_alpha() {
        // Full window: the first move, searched in full before the cut, is a result.
        let (_, nodes, stopped) = root_window(-INF, INF, u64::MAX);
        assert!(!stopped && nodes.len() > 3);
        let cut = nodes[0] + nodes[1] / 2;
        let (best, _, stopped) = root_window(-INF, INF, cut);
        assert!(stopped);
        assert_eq!(best, Some(0));
        // A window above every score: the moves searched before the cut only have
        // upper bounds, and the highest of them is no result.
        let (best, nodes, stopped) = root_window(2000, 2001, u64::MAX);
        assert!(
            !stopped && best.is_some(),
            "uncut, a fail-low still names a move"
        );
        let cut = nodes[0] + nodes[1] + nodes[2] / 2;
        let (best, _, stopped) = root_window(2000, 2001, cut);
        assert!(stopped);
        assert_eq!(best, None);
    }

    /// The search over Reversi, whose `Game::solve` is its exact endgame solver
    /// (`Features::solver`); moved here from the rules' tests, which do not use the
    /// search.
    mod reversi_solver {
        use super::*;
        use crate::games::reversi::{self, solve, Position};

        /// Positions with `empties` empty squares from seeded random games, each with more
        /// than one legal move.
        fn endgames(empties: u32, count: usize) -> Vec<Position> {
            let mut rng = SplitMix64::new(77);
            let mut out = Vec::new();
            while out.len() < count {
                let mut pos = Position::startpos();
                while !pos.is_over() && pos.empty().count_ones() > empties {
                    let legal = pos.legal_moves();
                    pos.make_move(*rng.choose(&legal).expect("a move"));
                }
                if pos.empty().count_ones() == empties && pos.legal_moves().len() > 1 {
                    out.push(pos);
                }
            }
            out
        }

        #[test]
        fn the_search_plays_the_solvers_move_near_the_end() {
            let stop = AtomicBool::new(false);
            for pos in endgames(14, 4) {
                let exact = solve::solve(&pos).score;
                let mut searcher = Searcher::<Position>::new(8);
                let r = searcher.search(&pos, &Limits::nodes(5_000_000), &stop, None, &mut |_| {});
                assert_eq!(r.reason, StopReason::Proven, "{pos:?}");
                assert_eq!(r.score.0.signum(), exact.signum(), "{pos:?}");
                assert_eq!(r.score.plies_to_end().is_some(), exact != 0);
                let mut next = pos.clone();
                next.make_move(r.best.expect("a move"));
                assert_eq!(-solve::solve(&next).score, exact, "{pos:?}");
                // A depth-limited search short of the end does not solve, nor one with the
                // feature off, nor one whose node limit a solve would typically exceed.
                let r = searcher.search(&pos, &Limits::depth(3), &stop, None, &mut |_| {});
                assert_eq!((r.depth, r.reason), (3, StopReason::Depth), "{pos:?}");
                let r = searcher.search(&pos, &Limits::nodes(1_000), &stop, None, &mut |_| {});
                assert_ne!(r.reason, StopReason::Proven, "{pos:?}");
                searcher.features.solver = false;
                let r = searcher.search(&pos, &Limits::depth(2), &stop, None, &mut |_| {});
                assert_eq!((r.depth, r.reason), (2, StopReason::Depth), "{pos:?}");
            }
        }

        /// The solver's table is made with the searcher, on its thread
        /// ([`Game::prepare_thread`]), not by the first solve inside a timed move.
        #[test]
        fn the_solver_table_is_made_with_the_searcher() {
            std::thread::spawn(|| {
                assert!(!reversi::solver_table_made());
                let _searcher = Searcher::<Position>::new(1);
                assert!(reversi::solver_table_made());
            })
            .join()
            .unwrap();
        }

        /// On a clock the search hands the endgame to the staged solve: each round is
        /// reported as an iteration saying its stage, in order (probcut rounds at rising
        /// confidence, win/loss/draw, exact), and the exact result is played as proven.
        /// With the feature off the exact solve alone reports, as before.
        #[test]
        fn a_timed_search_stages_the_endgame() {
            let stop = AtomicBool::new(false);
            for pos in endgames(18, 3) {
                let exact = solve::solve(&pos).score;
                let mut searcher = Searcher::<Position>::new(8);
                let mut stages = Vec::new();
                let limits = Limits::movetime(std::time::Duration::from_secs(20));
                let r = searcher.search(&pos, &limits, &stop, None, &mut |it| {
                    stages.push(it.endgame)
                });
                let mut want: Vec<Option<EndgameStage>> = solve::PROBCUT_ROUNDS
                    .iter()
                    .map(|r| Some(EndgameStage::Probable(r.0)))
                    .collect();
                want.extend([Some(EndgameStage::WinLossDraw), Some(EndgameStage::Exact)]);
                assert_eq!(stages, want, "{pos:?}");
                assert_eq!(r.reason, StopReason::Proven, "{pos:?}");
                assert_eq!(r.score.0.signum(), exact.signum(), "{pos:?}");
                let mut next = pos.clone();
                next.make_move(r.best.expect("a move"));
                assert_eq!(-solve::solve(&next).score, exact, "{pos:?}");
                searcher.features.staged_endgame = false;
                stages.clear();
                searcher.search(&pos, &limits, &stop, None, &mut |it| {
                    stages.push(it.endgame)
                });
                assert_eq!(stages, [Some(EndgameStage::Exact)], "{pos:?}");
            }
        }

        #[test]
        fn a_solve_that_does_not_fit_the_time_is_not_started() {
            let stop = AtomicBool::new(false);
            // 22 empties typically take far longer than 50 ms: the move is left to the
            // search.
            let pos = &endgames(22, 1)[0];
            let mut searcher = Searcher::<Position>::new(8);
            let r = searcher.search(
                pos,
                &Limits::movetime(std::time::Duration::from_millis(50)),
                &stop,
                None,
                &mut |_| {},
            );
            assert_ne!(r.reason, StopReason::Proven);
            assert!(r.depth >= 1);
        }
    }
}

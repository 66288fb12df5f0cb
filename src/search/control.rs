//! The engine facade: a searcher on its own thread with a non-blocking `go`/`stop`.
//! Front ends send jobs and read [`Report`]s from a channel; they never block on the
//! search, so `stop`, `isready` and `quit` are answered at once. Besides `go` (the move
//! to play) the thread rates moves ([`Engine::rate`]: evaluations for a GUI's hints),
//! and either one solves exactly where the limits ask ([`Limits::solve`]): every way to
//! the game's solver runs here, and `stop` reaches all of them.
//!
//! With [`Engine::set_threads`] above 1 a `go` is a Lazy SMP search: helper threads
//! search the same position over the shared transposition table
//! ([`Searcher::search_helper`]) while the main searcher decides time, reports and
//! picks the move; when it is done it sets the one stop flag that every thread polls.
//! Helpers are spawned per `go` (scoped threads: a few tens of microseconds each) and
//! keep their searcher (history) between searches on the search thread.

use super::alphabeta::{Features, Searcher};
use super::limits::Limits;
use super::report::{solved_score, Iteration, Score, SearchResult};
use crate::game::{Game, Side};
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the search thread tells the front end.
#[derive(Clone, Debug)]
pub enum Report<M> {
    /// An iteration finished (for `info` lines).
    Iteration(Iteration<M>),
    /// The search finished: play `best`.
    Done(SearchResult<M>),
    /// Every job sent before [`Engine::sync`] is finished (e.g. a table resize).
    Synced,
    /// The answer to [`Engine::rate`].
    Rated(Rating<M>),
}

/// A move's value as [`Engine::rate`] finds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated<M> {
    /// The line, its first move the one rated.
    pub pv: Vec<M>,
    /// The score for the side to move at the root.
    pub score: Score,
    /// The exact final margin ([`Game::final_margin`], for the side to move at the
    /// root) when the line was solved to the end; then `score` is the proven result.
    pub margin: Option<i32>,
    /// Plies searched: the plies to the end when solved.
    pub depth: u32,
}

/// The moves [`Engine::rate`] rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating<M> {
    /// The best move alone, or every root move in the game's move order.
    pub moves: Vec<Rated<M>>,
    /// Nodes of every search and solve of the job.
    pub nodes: u64,
    /// From the start of the job to its end.
    pub time: Duration,
    /// False when `stop` cut the job short: `moves` is then incomplete or empty.
    pub complete: bool,
}

enum Job<G: Game> {
    Go {
        pos: G,
        limits: Limits,
        seed: Option<u64>,
    },
    Rate {
        pos: G,
        limits: Limits,
        each: bool,
    },
    NewGame,
    SetHash(usize),
    SetThreads(usize),
    SetFeatures(Features),
    Sync,
}

/// A search thread and the channels to it.
pub struct Engine<G: Game> {
    jobs: Option<Sender<Job<G>>>,
    reports: Receiver<Report<G::Move>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// How long every front end waits for a stopped job to end ([`Stopper::stop_and_wait`]):
/// a search or solve polls its stop flag every few thousand nodes and ends within
/// milliseconds; this only bounds a thread still busy with table work (a resize of
/// GiBs), after which the front end goes on and the job's end arrives later.
pub const STOP_WAIT: Duration = Duration::from_secs(2);

/// What stops the search thread's job, apart from the engine, so that a front end can
/// stop and wait while it handles the reports with its own state borrowed.
#[derive(Clone)]
pub struct Stopper<M> {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::Thread>,
    reports: Receiver<Report<M>>,
}

impl<M> Stopper<M> {
    /// Asks the running job (if any) to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = &self.thread {
            t.unpark();
        }
    }

    /// The one policy for stopping: stops the running job, then hands every report
    /// that arrives to `on_report` until the job's end (`Done` or `Rated`, handed over
    /// too) or `deadline`. True if the job ended in time. Reports of a job started
    /// after this one (from `on_report`) are left for the front end's loop.
    pub fn stop_and_wait(&self, deadline: Instant, mut on_report: impl FnMut(Report<M>)) -> bool {
        self.stop();
        loop {
            match self.reports.recv_deadline(deadline) {
                Ok(r) => {
                    let end = matches!(r, Report::Done(_) | Report::Rated(_));
                    on_report(r);
                    if end {
                        return true;
                    }
                }
                Err(_) => {
                    log::warn!("the search thread did not stop in time");
                    return false;
                }
            }
        }
    }
}

impl<G: Game> Engine<G> {
    /// Starts the search thread with a `hash_mib` MiB transposition table.
    pub fn new(hash_mib: usize) -> Engine<G> {
        let (job_tx, job_rx) = unbounded::<Job<G>>();
        let (report_tx, reports) = unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut searcher = Searcher::<G>::new(hash_mib);
                // The Lazy SMP helpers (threads 2..N), over the same table.
                let mut helpers: Vec<Searcher<G>> = Vec::new();
                let helper_nodes = Arc::new(AtomicU64::new(0));
                for job in job_rx {
                    match job {
                        Job::Go { pos, limits, seed } => {
                            helper_nodes.store(0, Ordering::Relaxed);
                            let tx = report_tx.clone();
                            // Nodes reported are those of every thread.
                            let mut on_iter = |it: &Iteration<G::Move>| {
                                let mut it = it.clone();
                                it.nodes += helper_nodes.load(Ordering::Relaxed);
                                let _ = tx.send(Report::Iteration(it));
                            };
                            let smp = !helpers.is_empty();
                            let mut result = std::thread::scope(|scope| {
                                for (i, helper) in helpers.iter_mut().enumerate() {
                                    let (pos, stop, nodes) =
                                        (&pos, &*stop_flag, Arc::clone(&helper_nodes));
                                    let spawned = std::thread::Builder::new()
                                        .name(format!("helper {}", i + 1))
                                        .spawn_scoped(scope, move || {
                                            helper.search_helper(pos, i + 1, stop, nodes)
                                        });
                                    if let Err(e) = spawned {
                                        log::error!("no helper thread: {e}");
                                    }
                                }
                                let result =
                                    searcher.search(&pos, &limits, &stop_flag, seed, &mut on_iter);
                                // In infinite mode the answer waits for `stop`, as UCI
                                // requires.
                                while limits.infinite && !stop_flag.load(Ordering::Acquire) {
                                    std::thread::park_timeout(Duration::from_millis(5));
                                }
                                if smp {
                                    // The helpers stop with the main search (the flag
                                    // is cleared by the next `go`).
                                    stop_flag.store(true, Ordering::Release);
                                }
                                result
                            });
                            result.nodes += helper_nodes.load(Ordering::Relaxed);
                            let _ = report_tx.send(Report::Done(result));
                        }
                        Job::Rate { pos, limits, each } => {
                            let rating = Rater {
                                searcher: &mut searcher,
                                stop: &stop_flag,
                                nodes: 0,
                            }
                            .rate(&pos, &limits, each);
                            let _ = report_tx.send(Report::Rated(rating));
                        }
                        Job::NewGame => {
                            searcher.new_game();
                            helpers.iter_mut().for_each(Searcher::forget_history);
                        }
                        Job::SetHash(mib) => {
                            // The helpers let go of the old table before the new one
                            // is made, then share the new one.
                            let n = helpers.len();
                            helpers.clear();
                            searcher.set_hash(mib);
                            fit_helpers(&mut helpers, &searcher, n);
                        }
                        Job::SetThreads(n) => fit_helpers(&mut helpers, &searcher, n.max(1) - 1),
                        Job::SetFeatures(f) => {
                            searcher.features = f;
                            helpers.iter_mut().for_each(|h| h.features = f);
                        }
                        Job::Sync => {
                            let _ = report_tx.send(Report::Synced);
                        }
                    }
                }
            })
            .expect("spawning the search thread");
        Engine {
            jobs: Some(job_tx),
            reports,
            stop,
            thread: Some(thread),
        }
    }

    /// Starts searching `pos`; the answer arrives as `Report::Done` on [`Engine::reports`].
    /// The caller must not start a second search before the first one's `Done`.
    pub fn go(&self, pos: G, limits: Limits, seed: Option<u64>) {
        self.stop.store(false, Ordering::Release);
        self.send(Job::Go { pos, limits, seed });
    }

    /// Rates `pos` (which must have a move) within `limits`: its best move alone, or
    /// with `each` every move, each by the best reply one ply shallower
    /// ([`Limits::one_ply_down`]). Unlike `go`, a forced move is rated too (by its
    /// reply), and a finished game's margin is exact. The answer arrives as
    /// `Report::Rated`; jobs sent while one runs wait their turn.
    pub fn rate(&self, pos: G, limits: Limits, each: bool) {
        self.stop.store(false, Ordering::Release);
        self.send(Job::Rate { pos, limits, each });
    }

    /// Asks the running search (if any) to stop as soon as possible.
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// The handle that stops this engine's jobs and waits for their end.
    pub fn stopper(&self) -> Stopper<G::Move> {
        Stopper {
            stop: Arc::clone(&self.stop),
            thread: self.thread.as_ref().map(|t| t.thread().clone()),
            reports: self.reports.clone(),
        }
    }

    /// Clears the hash table and histories (queued behind any running search).
    pub fn new_game(&self) {
        self.send(Job::NewGame);
    }

    /// Resizes the hash table (queued behind any running search).
    pub fn set_hash(&self, mib: usize) {
        self.send(Job::SetHash(mib));
    }

    /// Searches with `threads` threads (Lazy SMP; at least 1) from the next search on
    /// (queued behind any running search). Rating stays on one thread.
    pub fn set_threads(&self, threads: usize) {
        self.send(Job::SetThreads(threads));
    }

    /// Switches search features on or off from the next search on (queued behind any
    /// running search), so a match can measure each one against the same binary.
    pub fn set_features(&self, features: Features) {
        self.send(Job::SetFeatures(features));
    }

    /// Asks for `Report::Synced` once every job sent before has finished, so a front
    /// end can answer `isready` only when a table resize or clear is really done.
    pub fn sync(&self) {
        self.send(Job::Sync);
    }

    /// The channel on which reports arrive.
    pub fn reports(&self) -> &Receiver<Report<G::Move>> {
        &self.reports
    }

    /// Runs a search to completion on the search thread and returns its result
    /// (iteration reports are dropped).
    pub fn search_blocking(
        &self,
        pos: G,
        limits: Limits,
        seed: Option<u64>,
    ) -> Option<SearchResult<G::Move>> {
        self.go(pos, limits, seed);
        loop {
            match self.reports.recv().ok()? {
                Report::Done(r) => return Some(r),
                Report::Iteration(_) | Report::Synced | Report::Rated(_) => {}
            }
        }
    }

    fn send(&self, job: Job<G>) {
        if let Some(jobs) = &self.jobs {
            // The thread lives as long as the engine; a send can only fail if it panicked.
            if jobs.send(job).is_err() {
                log::error!("search thread is gone");
            }
        }
    }
}

impl<G: Game> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Makes `helpers` `n` searchers over the main searcher's table, with its features
/// (those kept keep their history).
fn fit_helpers<G: Game>(helpers: &mut Vec<Searcher<G>>, main: &Searcher<G>, n: usize) {
    helpers.truncate(n);
    while helpers.len() < n {
        let mut h = Searcher::sharing(main.table());
        h.features = main.features;
        helpers.push(h);
    }
}

/// The work of a [`Job::Rate`]: searches and solves on the search thread's searcher.
struct Rater<'a, G: Game> {
    searcher: &'a mut Searcher<G>,
    stop: &'a AtomicBool,
    nodes: u64,
}

impl<G: Game> Rater<'_, G> {
    fn rate(mut self, pos: &G, limits: &Limits, each: bool) -> Rating<G::Move> {
        let start = Instant::now();
        let mut moves = Vec::new();
        let mut complete = true;
        if each {
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            for mv in legal {
                match self.after(pos, mv, limits) {
                    Some(r) => moves.push(r),
                    None => {
                        complete = false;
                        break;
                    }
                }
            }
        } else {
            match self.best(pos, limits) {
                Some(r) => moves.push(r),
                None => complete = false,
            }
        }
        Rating {
            moves,
            nodes: self.nodes,
            time: start.elapsed(),
            complete: complete && !self.stopped(),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The best move of `pos` (which has one) and its value; `None` if stopped.
    fn best(&mut self, pos: &G, limits: &Limits) -> Option<Rated<G::Move>> {
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        if let [only] = legal[..] {
            // The search does not score a forced move; its reply does.
            return self.after(pos, only, limits);
        }
        // The solve first, as the search does it (`Limits::solve`), but kept here for
        // its exact margin (and a solved position leaves the searcher untouched).
        if let Some(budget) = limits.solve_budget(self.stop) {
            let (solved, nodes) = pos.solve(&budget, &mut |_| {});
            self.nodes += nodes;
            if let Some(s) = solved {
                return Some(Rated {
                    pv: vec![s.best],
                    score: solved_score(&s),
                    margin: Some(s.margin),
                    depth: s.plies,
                });
            }
            if self.stopped() {
                return None;
            }
        }
        let plain = Limits {
            solve: None,
            ..limits.clone()
        };
        let r = self
            .searcher
            .search(pos, &plain, self.stop, None, &mut |_| {});
        self.nodes += r.nodes;
        if self.stopped() {
            return None;
        }
        let best = r.best?;
        let mut pv = r.pv;
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        Some(Rated {
            pv,
            score: r.score,
            margin: None,
            depth: r.depth,
        })
    }

    /// The value of playing `mv` in `pos`: its child's, seen from `pos`.
    fn after(&mut self, pos: &G, mv: G::Move, limits: &Limits) -> Option<Rated<G::Move>> {
        let mut child = pos.clone();
        child.make_move(mv);
        if child.is_over() {
            self.nodes += 1;
            let first = child.final_margin();
            let margin = if pos.side_to_move() == Side::First {
                first
            } else {
                -first
            };
            return Some(Rated {
                pv: vec![mv],
                score: Score(margin.signum() * (super::WIN - 1)),
                margin: Some(margin),
                depth: 1,
            });
        }
        let r = self.best(&child, &limits.one_ply_down())?;
        let mut pv = vec![mv];
        pv.extend(r.pv);
        Some(Rated {
            pv,
            score: Score(-r.score.0),
            margin: r.margin.map(|m| -m),
            depth: r.depth + 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::ataxx::{Position, Rules};

    /// Waits for the search's `Done` (a hang fails after a minute instead of hanging).
    fn done(engine: &Engine<Position>) -> SearchResult<crate::games::ataxx::Move> {
        loop {
            match engine.reports().recv_timeout(Duration::from_secs(60)) {
                Ok(Report::Done(r)) => return r,
                Ok(_) => {}
                Err(e) => panic!("no answer: {e}"),
            }
        }
    }

    fn first_iteration(engine: &Engine<Position>) {
        match engine.reports().recv_timeout(Duration::from_secs(60)) {
            Ok(Report::Iteration(_)) => {}
            Ok(r) => panic!("{r:?} before any iteration"),
            Err(e) => panic!("no iteration: {e}"),
        }
    }

    #[test]
    fn nodes_are_summed_over_threads() {
        // `go infinite depth 1`: the main thread's part is one ply, then it waits for
        // `stop` while the helpers keep searching; what is reported is every thread's.
        let pos = <Position as Notation>::startpos(Rules::Uai);
        let limits = Limits {
            depth: Some(1),
            infinite: true,
            ..Limits::default()
        };
        let mut nodes = Vec::new();
        for threads in [1, 3] {
            let engine = Engine::<Position>::new(4);
            engine.set_threads(threads);
            engine.go(pos.clone(), limits.clone(), None);
            first_iteration(&engine);
            // Not a timed assertion: only time for the helpers to run.
            std::thread::sleep(Duration::from_millis(200));
            engine.stop();
            nodes.push(done(&engine).nodes);
        }
        // Depth 1 is one node per root move (plus the root's): the same with helpers.
        assert!(nodes[0] < 100, "{nodes:?}");
        assert!(nodes[1] > nodes[0] + CHECK, "{nodes:?}");
    }

    /// More than a helper can publish without searching (its first node-count batch).
    const CHECK: u64 = 1024;

    #[test]
    fn stop_reaches_every_thread() {
        let pos = <Position as Notation>::startpos(Rules::Uai);
        let engine = Engine::<Position>::new(4);
        engine.set_threads(4);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        for _ in 0..3 {
            engine.go(pos.clone(), infinite.clone(), None);
            first_iteration(&engine);
            engine.stop();
            let r = done(&engine);
            assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{r:?}");
            assert_eq!(r.reason, super::super::StopReason::Stopped);
        }
        // Every thread stopped and was joined: the next search runs and finishes.
        let r = engine
            .search_blocking(
                pos.clone(),
                Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                None,
            )
            .unwrap();
        assert_eq!(r.depth, 3);
        assert!(r.best.is_some_and(|m| pos.is_legal(m)));
    }
}

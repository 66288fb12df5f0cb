//! The engine facade: a searcher on its own thread with a non-blocking `go`/`stop`.
//! Front ends send jobs and read [`Report`]s from a channel; they never block on the
//! search, so `stop`, `isready` and `quit` are answered at once.

use super::alphabeta::{Features, Searcher};
use super::limits::Limits;
use super::report::{Iteration, SearchResult};
use crate::game::Game;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What the search thread tells the front end.
#[derive(Clone, Debug)]
pub enum Report<M> {
    /// An iteration finished (for `info` lines).
    Iteration(Iteration<M>),
    /// The search finished: play `best`.
    Done(SearchResult<M>),
    /// Every job sent before [`Engine::sync`] is finished (e.g. a table resize).
    Synced,
}

enum Job<G: Game> {
    Go {
        pos: G,
        limits: Limits,
        seed: Option<u64>,
    },
    NewGame,
    SetHash(usize),
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
                for job in job_rx {
                    match job {
                        Job::Go { pos, limits, seed } => {
                            let tx = report_tx.clone();
                            let mut on_iter = |it: &Iteration<G::Move>| {
                                let _ = tx.send(Report::Iteration(it.clone()));
                            };
                            let result =
                                searcher.search(&pos, &limits, &stop_flag, seed, &mut on_iter);
                            // In infinite mode the answer waits for `stop`, as UCI requires.
                            while limits.infinite && !stop_flag.load(Ordering::Acquire) {
                                std::thread::park_timeout(std::time::Duration::from_millis(5));
                            }
                            let _ = report_tx.send(Report::Done(result));
                        }
                        Job::NewGame => searcher.new_game(),
                        Job::SetHash(mib) => searcher.set_hash(mib),
                        Job::SetFeatures(f) => searcher.features = f,
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

    /// Asks the running search (if any) to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = &self.thread {
            t.thread().unpark();
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
                Report::Iteration(_) | Report::Synced => {}
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

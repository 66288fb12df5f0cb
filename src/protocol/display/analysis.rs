//! The board page's analysis: a hint (the best move of a position of the move list)
//! and the scores of every legal move of one, on a thread of their own with an engine
//! of their own (the AI's table and histories stay the AI's).
//!
//! Every game is rated as NBoard's `hint` rates Reversi ([`Engine::rate`]): each root
//! move by the best reply one ply shallower, at depth 1, 2, 3… (each depth published
//! when complete), near the end solved exactly. The hint is one timed search of the
//! best move. Both stop at once (the search core's stop flag) when the page turns the
//! analysis off, when the game on the board changes (a move played, a new game) and
//! when the AI starts a search of its own move; none starts while the AI thinks.

use super::Hub;
use crate::game::{Game, Notation};
use crate::protocol::play::History;
use crate::protocol::text::board::json_string;
use crate::protocol::text::score_text;
use crate::protocol::text::Playable;
use crate::protocol::text::TextDialect;
use crate::search::SOLVE_MARGIN;
use crate::search::{Engine, Limits, Rated, Rating, Report, Stopper};
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The analysis engine's transposition table, in MiB.
const HASH_MIB: usize = 16;
/// A hint searches this long (it stops at the next iteration after it).
const HINT_TIME: Duration = Duration::from_millis(1000);
/// The analysis of all moves deepens until this much time has passed, then rests.
const ANALYSE_TIME: Duration = Duration::from_secs(30);
/// Deepest analysis.
const MAX_DEPTH: u32 = 60;

/// What the page's `/analysis` requests (the board page's own endpoint).
pub trait Analysis: Send + Sync {
    /// `hint PLY`, `analyse PLY` (PLY: a position of the move list, 0 the first) or
    /// `off`. `Err`: why it is refused, one line.
    fn request(&self, line: &str) -> Result<(), String>;
}

/// What a request asks of the analysis thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hint,
    Analyse,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Hint => "hint",
            Kind::Analyse => "analyse",
        }
    }
}

struct Task<G: Game> {
    kind: Kind,
    ply: usize,
    pos: G,
    generation: u64,
}

/// What the session and the page share with the analysis thread.
struct Shared<G: Game> {
    /// The positions of the move list, first to last.
    positions: Mutex<(Vec<G>, bool)>,
    /// Bumped by every stop: a task of an older one is dropped or stopped.
    generation: AtomicU64,
    stopper: Stopper<G::Move>,
    hub: Arc<Hub>,
    /// Held while a stop clears the page's analysis and while a result is checked
    /// current and published, so no result of a stopped task lands after the clear.
    publishing: Mutex<()>,
}

impl<G: Game> Shared<G> {
    /// Stops what runs and clears what the page shows of it.
    fn stop(&self) {
        let _publishing = self.publishing.lock().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.stopper.stop();
        self.hub.set_analysis(String::new());
    }

    /// Publishes `json` if the task of `generation` is still current.
    fn publish(&self, generation: u64, json: String) -> bool {
        let _publishing = self.publishing.lock().unwrap_or_else(|e| e.into_inner());
        if !self.current(generation) {
            return false;
        }
        self.hub.set_analysis(json);
        true
    }

    fn current(&self, generation: u64) -> bool {
        self.generation.load(Ordering::SeqCst) == generation
    }
}

/// The analysis of dialect `D`'s games.
pub struct Analyst<D: Playable> {
    shared: Arc<Shared<<D as TextDialect>::Game>>,
    tasks: Sender<Task<<D as TextDialect>::Game>>,
}

impl<D: Playable> Analyst<D> {
    /// Starts the analysis thread (and its engine); results go to `hub`.
    pub fn start(hub: Arc<Hub>) -> Result<Arc<Analyst<D>>, String> {
        let engine: Engine<<D as TextDialect>::Game> = Engine::new(HASH_MIB);
        let shared = Arc::new(Shared {
            positions: Mutex::new((Vec::new(), false)),
            generation: AtomicU64::new(0),
            stopper: engine.stopper(),
            hub,
            publishing: Mutex::new(()),
        });
        let (tasks, rx) = unbounded();
        let worker = shared.clone();
        std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || run::<D>(engine, rx, &worker))
            .map_err(|e| format!("cannot start the page's analysis: {e}"))?;
        Ok(Arc::new(Analyst { shared, tasks }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Vec<<D as TextDialect>::Game>, bool)> {
        self.shared
            .positions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The game on the board is now `positions` (first to last): what runs stops if
    /// the game changed.
    pub fn set_game(&self, positions: Vec<<D as TextDialect>::Game>) {
        let mut p = self.lock();
        let same = p.0.len() == positions.len()
            && p.0
                .iter()
                .zip(&positions)
                .all(|(a, b)| a.hash() == b.hash());
        if !same {
            p.0 = positions;
            drop(p);
            self.shared.stop();
        }
    }

    /// The AI starts (`true`) or has ended a search of its own move.
    pub fn ai_busy(&self, busy: bool) {
        self.lock().1 = busy;
        if busy {
            self.shared.stop();
        }
    }
}

impl<D: Playable> Analysis for Analyst<D> {
    fn request(&self, line: &str) -> Result<(), String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (kind, ply) = match words.as_slice() {
            ["off"] => {
                self.shared.stop();
                return Ok(());
            }
            [w @ ("hint" | "analyse"), n] => {
                let ply: usize = n
                    .parse()
                    .map_err(|_| format!("{w}: '{n}' is not a position number"))?;
                let kind = if *w == "hint" {
                    Kind::Hint
                } else {
                    Kind::Analyse
                };
                (kind, ply)
            }
            _ => return Err("unknown analysis request (hint N, analyse N, off)".into()),
        };
        let p = self.lock();
        if p.1 {
            return Err("the AI is thinking about its move: no analysis meanwhile".into());
        }
        let pos = match p.0.get(ply) {
            Some(pos) => pos.clone(),
            None if p.0.is_empty() => return Err("no game on the board yet".into()),
            None => {
                return Err(format!(
                    "no position {ply} in the game (0 to {})",
                    p.0.len() - 1
                ))
            }
        };
        if pos.is_over() {
            return Err("the game is over in that position: nothing to analyse".into());
        }
        drop(p);
        self.shared.stop();
        let generation = self.shared.generation.load(Ordering::SeqCst);
        self.tasks
            .send(Task {
                kind,
                ply,
                pos,
                generation,
            })
            .map_err(|_| "the analysis has ended".to_string())
    }
}

/// The analysis thread: the newest task, if still current, until the channel closes.
fn run<D: Playable>(
    engine: Engine<<D as TextDialect>::Game>,
    rx: Receiver<Task<<D as TextDialect>::Game>>,
    shared: &Shared<<D as TextDialect>::Game>,
) {
    while let Ok(mut task) = rx.recv() {
        while let Ok(newer) = rx.try_recv() {
            task = newer;
        }
        if shared.current(task.generation) {
            analyse::<D>(&engine, &task, shared);
        }
    }
}

/// Runs one task: rates its position deeper and deeper (a hint: once, on a timer),
/// publishing each complete rating, until done, out of time or stopped.
fn analyse<D: Playable>(
    engine: &Engine<<D as TextDialect>::Game>,
    task: &Task<<D as TextDialect>::Game>,
    shared: &Shared<<D as TextDialect>::Game>,
) {
    let started = Instant::now();
    let mut nodes = 0;
    let mut depth = 0;
    loop {
        depth += 1;
        let limits = match task.kind {
            Kind::Hint => Limits {
                soft_time: Some(HINT_TIME),
                hard_time: Some(HINT_TIME * 3),
                solve: Some(SOLVE_MARGIN + 4),
                timed_solve: true,
                ..Limits::default()
            },
            // NBoard's `hint` at this depth.
            Kind::Analyse => Limits {
                depth: Some(depth),
                solve: Some(depth + SOLVE_MARGIN),
                timed_solve: true,
                ..Limits::default()
            },
        };
        engine.rate(task.pos.clone(), limits, task.kind == Kind::Analyse);
        // A stop between the check that let this task run and `rate` (which clears the
        // stop flag) would be lost: the flag is set again.
        if !shared.current(task.generation) {
            engine.stop();
        }
        let rating = loop {
            match engine.reports().recv() {
                Ok(Report::Rated(r)) => break r,
                Ok(_) => {}
                Err(_) => return,
            }
        };
        nodes += rating.nodes;
        if !rating.complete || !shared.current(task.generation) {
            return;
        }
        let all_proven = rating
            .moves
            .iter()
            .all(|r| r.margin.is_some() || r.score.plies_to_end().is_some());
        let done = task.kind == Kind::Hint
            || all_proven
            || depth >= MAX_DEPTH
            || started.elapsed() >= ANALYSE_TIME;
        let json = to_json::<D>(task, &rating, nodes, started.elapsed(), done);
        if !shared.publish(task.generation, json) || done {
            return;
        }
    }
}

/// A rating as the page's JSON: the moves best first, each with the squares it is
/// drawn on (from the dialect's picture of the position), its score and its line.
fn to_json<D: Playable>(
    task: &Task<<D as TextDialect>::Game>,
    rating: &Rating<<<D as TextDialect>::Game as Game>::Move>,
    nodes: u64,
    time: Duration,
    done: bool,
) -> String {
    let pos = &task.pos;
    let picture = D::picture(pos, &History::default());
    let mut moves: Vec<&Rated<_>> = rating.moves.iter().filter(|r| !r.pv.is_empty()).collect();
    moves.sort_by_key(|r| std::cmp::Reverse(r.score.0));
    let depth = moves.iter().map(|r| r.depth).max().unwrap_or(0);
    let items: Vec<String> = moves
        .iter()
        .map(|r| {
            let mv = r.pv[0];
            let square = picture
                .moves
                .iter()
                .find(|(_, _, line)| D::parse_move_text(pos, line) == Some(mv));
            let (from, to) = match square {
                Some((from, to, _)) => (
                    from.map_or("null".to_string(), |f| f.to_string()),
                    to.to_string(),
                ),
                None => ("null".to_string(), "null".to_string()),
            };
            let pv: Vec<String> = crate::protocol::pv_names(pos, &r.pv)
                .iter()
                .map(|m| json_string(m))
                .collect();
            format!(
                "{{\"move\":{},\"from\":{from},\"to\":{to},\"score\":{},\"short\":{},\"depth\":{},\"pv\":[{}]}}",
                json_string(&D::move_text(pos, mv)),
                json_string(&long_score::<<D as TextDialect>::Game>(r)),
                json_string(&short_score::<<D as TextDialect>::Game>(r)),
                r.depth,
                pv.join(",")
            )
        })
        .collect();
    format!(
        "{{\"kind\":\"{}\",\"ply\":{},\"fen\":{},\"depth\":{depth},\"nodes\":{nodes},\"millis\":{},\"done\":{done},\"moves\":[{}]}}",
        task.kind.word(),
        task.ply,
        json_string(&pos.fen()),
        time.as_millis(),
        items.join(",")
    )
}

/// A rated move's score for the list: an exact final margin where solved, else the
/// search's score as the AI's report gives it.
fn long_score<G: Notation + crate::game::GameIo>(r: &Rated<G::Move>) -> String {
    match (r.margin, G::SCORE_UNIT) {
        (Some(m), Some((_, unit))) => format!("{m:+} {unit} (exact)"),
        _ => score_text::<G>(r.score),
    }
}

/// The same in a few characters, drawn on the square.
fn short_score<G: Notation + crate::game::GameIo>(r: &Rated<G::Move>) -> String {
    if let (Some(m), Some(_)) = (r.margin, G::SCORE_UNIT) {
        return format!("{m:+}");
    }
    match (r.score.own_moves_to_end(), G::SCORE_UNIT) {
        (Some(n), _) if n > 0 => format!("W{n}"),
        (Some(n), _) => format!("L{}", -n),
        // Tenths; a score that rounds to none is written without a sign.
        (None, Some((per, _))) => {
            let tenths = (r.score.0 as f64 / per as f64 * 10.0).round();
            if tenths == 0.0 {
                "0.0".to_string()
            } else {
                format!("{:+.1}", tenths / 10.0)
            }
        }
        (None, None) => format!("{:+}", r.score.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::ataxx::{Position, Rules};
    use crate::protocol::text::ataxx::AtaxxText;

    fn analysis_of(hub: &Hub) -> String {
        hub.snapshot(0, None).0
    }

    #[test]
    fn short_scores_round_to_tenths() {
        let rated = |score: i32| Rated::<crate::games::ataxx::Move> {
            pv: Vec::new(),
            score: crate::search::Score(score),
            margin: None,
            depth: 1,
        };
        let short = |score| short_score::<Position>(&rated(score));
        assert_eq!(
            (short(-3), short(4), short(-26), short(130)),
            ("0.0".into(), "0.0".into(), "-0.3".into(), "+1.3".into())
        );
    }

    /// Nothing runs while the AI searches its own move; a changed game stops the
    /// analysis at once and clears it, and its later depths are not published.
    #[test]
    fn the_ai_s_search_and_a_changed_game_stop_it() {
        let hub = Arc::new(Hub::default());
        let a = Analyst::<AtaxxText>::start(hub.clone()).unwrap();
        assert!(a.request("analyse 0").is_err(), "no game yet");
        let start = Position::startpos(Rules::Text);
        a.set_game(vec![start.clone()]);
        a.ai_busy(true);
        let refused = a.request("analyse 0").unwrap_err();
        assert!(refused.contains("AI is thinking"), "{refused}");
        a.ai_busy(false);
        a.request("analyse 0").unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !analysis_of(&hub).contains("\"kind\":\"analyse\"") {
            assert!(Instant::now() < deadline, "no analysis");
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut after = start.clone();
        after.make_move(start.parse_move("f2").unwrap());
        a.set_game(vec![start, after]);
        assert!(analysis_of(&hub).contains("\"analysis\":null"));
        std::thread::sleep(Duration::from_millis(300));
        assert!(analysis_of(&hub).contains("\"analysis\":null"));
        assert!(a.request("analyse 2").is_err());
        assert!(a.request("analyse 1").is_ok());
        a.request("off").unwrap();
        assert!(analysis_of(&hub).contains("\"analysis\":null"));
    }
}

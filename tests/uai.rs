//! The UAI front end, driven through the real binary's stdin and stdout. Every read has
//! a timeout, so a hung engine fails a test instead of hanging the suite.

use crate::common;

use common::Engine;
use engine::games::ataxx::{Move, Position, Rules};
use engine::search::time::{self, TimeControl};
use regex::Regex;
use std::ops::{Deref, DerefMut};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const SHORT: Duration = Duration::from_secs(5);
/// Ceiling for resizing the table to 1 GiB and back.
const TABLE_WORK: Duration = Duration::from_secs(120);
/// The ceiling for what a working engine answers at once (`stop`, `isready` during a
/// search, `quit`, a move on an almost empty clock): far above its real latency (a few
/// milliseconds), so only a machine stalled for seconds or an engine that waits for
/// something (a search, a table) can miss it.
const PROMPT: Duration = Duration::from_secs(2);
const STARTPOS_FEN: &str = "x5o/7/7/7/7/7/o5x x 0 1";
/// x (to move) has stones but every square within reach is taken: it must pass.
const MUST_PASS_FEN: &str = "7/7/7/7/ooo4/ooo4/xoo4 x 0 1";
/// Beyond its hard deadline, a move later than this was held up by the machine.
const STALL: Duration = Duration::from_millis(25);
const INFO: &str = r"^info depth (\d+) seldepth (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) time (\d+) hashfull (\d+)( pv( \S+)+)?$";

/// The engine process (see `tests/common`) with the UAI conversation's helpers.
struct Uai(Engine);

impl Deref for Uai {
    type Target = Engine;
    fn deref(&self) -> &Engine {
        &self.0
    }
}

impl DerefMut for Uai {
    fn deref_mut(&mut self) -> &mut Engine {
        &mut self.0
    }
}

impl Uai {
    /// Starts the binary with `args` (no handshake).
    fn spawn(args: &[&str]) -> Uai {
        Uai(Engine::spawn(args))
    }

    /// Starts the engine and completes the handshake.
    fn start() -> Uai {
        let e = Uai::spawn(&[]);
        e.send("uai");
        e.wait_for_prefix("uaiok", SHORT);
        e
    }

    /// Sends `isready` and returns what came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.sync_within(SHORT)
    }

    /// `sync` with its own ceiling, for work that takes seconds on a loaded machine.
    fn sync_within(&mut self, ceiling: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.wait_for_prefix("readyok", ceiling);
        assert_eq!(lines.pop().as_deref(), Some("readyok"));
        lines
    }

    /// The engine's current position, via `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.wait_for_prefix("Fen: ", SHORT);
        lines.last().unwrap()["Fen: ".len()..].to_string()
    }

    /// Runs `go …` and returns (info lines, best move text, elapsed time).
    fn go(&mut self, args: &str, timeout: Duration) -> (Vec<String>, String, Duration) {
        let start = Instant::now();
        self.send(&format!("go {args}"));
        let mut lines = self.wait_for_prefix("bestmove ", timeout);
        let elapsed = start.elapsed();
        let best = lines.pop().unwrap();
        let words: Vec<&str> = best.split(' ').collect();
        assert_eq!(words.len(), 2, "bestmove line: {best:?}");
        (lines, words[1].to_string(), elapsed)
    }
}

/// Tests that search for long or measure time hold this lock, so on a small machine
/// they do not starve each other of CPU and fail on timing alone.
fn cpu() -> MutexGuard<'static, ()> {
    static CPU: Mutex<()> = Mutex::new(());
    CPU.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, Rules::Uai).unwrap()
}

/// Parses `best` and checks it is legal in `fen` by our own rules.
fn assert_legal(fen: &str, best: &str) -> Move {
    let mv = Move::parse_uai(best).unwrap_or_else(|_| panic!("unparsable bestmove {best:?}"));
    assert!(pos(fen).is_legal(mv), "illegal bestmove {best} in {fen}");
    mv
}

fn assert_error(line: &str) {
    assert!(
        line.starts_with("info string error: "),
        "not an error line: {line:?}"
    );
    assert!(!line.contains('\r'));
}

#[test]
fn handshake_announces_options_then_uaiok() {
    let mut e = Uai::spawn(&[]);
    e.send("uai");
    let lines = e.wait_for_prefix("uaiok", SHORT);
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let option =
        Regex::new(r"^option name (\S+) type spin default (\d+) min (\d+) max (\d+)$").unwrap();
    let options: Vec<_> = lines[2..lines.len() - 1].iter().collect();
    assert!(options.iter().all(|l| option.is_match(l)), "{options:?}");
    assert!(options
        .iter()
        .any(|l| l.as_str() == "option name Hash type spin default 16 min 1 max 4096"));
    assert_eq!(lines.last().unwrap(), "uaiok");
    assert!(e.sync().is_empty());
    // A second handshake is answered the same way.
    e.send("uai");
    assert_eq!(e.wait_for_prefix("uaiok", SHORT), lines);
}

#[test]
fn uai_flag_starts_without_handshake() {
    let mut e = Uai::spawn(&["--uai"]);
    assert!(e.sync().is_empty());
    assert_eq!(e.fen(), STARTPOS_FEN);
    e.send("quit");
    assert!(e.expect_exit(SHORT).success());
}

#[test]
fn setoption_hash_valid_and_invalid() {
    let mut e = Uai::start();
    for good in [
        "setoption name Hash value 1",
        "setoption name Hash value 64",
        "setoption name hash value 8",
        "setoption name Threads value 1",
        "setoption name Threads value 64",
        "setoption name Threads value 1",
        "setoption name MoveOverhead value 50",
    ] {
        e.send(good);
        assert!(e.sync().is_empty(), "{good}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 4097",
        "setoption name Hash value -1",
        "setoption name Hash value abc",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Nope value 1",
        "setoption Hash 16",
        "setoption",
        "setoption name Threads value 0",
        "setoption name Threads value 65",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert_error(&lines[0]);
    }
    // Still searching fine with the last good table size.
    let (_, best, _) = e.go("depth 3", SHORT);
    assert_legal(STARTPOS_FEN, &best);
}

#[test]
fn readyok_waits_for_table_work_and_keeps_order() {
    let _cpu = cpu();
    let mut e = Uai::start();
    // A resize then isready: readyok only once the table exists, then the queued go runs.
    e.send("setoption name Hash value 256");
    e.send("isready");
    e.send("go depth 2");
    let lines = e.wait_for_prefix("bestmove ", Duration::from_secs(30));
    assert_eq!(lines[0], "readyok", "{lines:?}");
    assert!(lines[1..]
        .iter()
        .all(|l| l.starts_with("info depth") || l.starts_with("bestmove")));
    e.send("uainewgame");
    assert!(e.sync_within(TABLE_WORK).is_empty());
    // How long this machine takes to grow the table from 256 to 1024 MiB, measured here
    // because it varies from a fraction of a second to seconds with the machine's load.
    // Zeroing 1 GiB took over 5 s on a loaded 2-core machine: a generous ceiling here.
    e.send("setoption name Hash value 1024");
    let t = Instant::now();
    assert!(e.sync_within(TABLE_WORK).is_empty());
    let table_work = t.elapsed();
    e.send("setoption name Hash value 256");
    assert!(e.sync_within(TABLE_WORK).is_empty());
    // Quit while the search thread is busy with the same work: no waiting for it, so
    // the exit takes well under the time the work takes.
    e.send("setoption name Hash value 1024");
    e.send("isready");
    let t = Instant::now();
    e.send("quit");
    assert!(e.expect_exit(SHORT).success());
    let took = t.elapsed();
    assert!(
        took < table_work / 2,
        "quit took {took:?}; the table work takes {table_work:?}"
    );
}

#[test]
fn isready_and_stop_during_go_infinite() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("position startpos");
    e.send("go infinite");
    // The search runs: its first report arrives (and it is not a bestmove).
    let first = e.recv(SHORT);
    assert!(first.starts_with("info depth"), "{first:?}");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let lines = e.sync();
    assert!(t.elapsed() < PROMPT, "isready took {:?}", t.elapsed());
    assert!(
        lines.iter().all(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // Infinite means no bestmove before stop, even after the search has done a lot.
    let more = e.lines_within(Duration::from_millis(500));
    assert!(more.iter().all(|l| l.starts_with("info depth")), "{more:?}");
    let t = Instant::now();
    e.send("stop");
    let lines = e.wait_for_prefix("bestmove ", SHORT);
    let took = t.elapsed();
    assert!(took < PROMPT, "stop took {took:?}");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_legal(STARTPOS_FEN, best);
    // A stop with nothing running is silent, and the engine searches again.
    e.send("stop");
    assert!(e.sync().is_empty());
    let (_, best, _) = e.go("depth 2", SHORT);
    assert_legal(STARTPOS_FEN, &best);
}

/// The `bestmove` moves among `lines`, in order.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(String::from)
        .collect()
}

#[test]
fn go_during_search_waits_its_turn() {
    let _cpu = cpu();
    // The issue's piped script: both searches run, then quit.
    let mut e = Engine::spawn(&[]);
    for l in [
        "uai",
        "position startpos",
        "go depth 1",
        "isready",
        "go depth 1",
        "quit",
    ] {
        e.send(l);
    }
    e.close_stdin();
    let t = e.finish(SHORT);
    assert!(t.status.success());
    assert!(
        !t.lines.iter().any(|l| l.starts_with("info string")),
        "{:?}",
        t.lines
    );
    let best = bestmoves(&t.lines);
    assert_eq!(best.len(), 2, "{:?}", t.lines);
    for b in &best {
        assert_legal(STARTPOS_FEN, b);
    }

    // Lines after a queued `go` keep their order: the `position` after it is for the
    // `go` after it. `stop` acts on the running search at once.
    let o_to_move = STARTPOS_FEN.replace(" x ", " o ");
    let e = Uai::start();
    e.send("go infinite");
    e.send("go depth 1");
    e.send(&format!("position fen {o_to_move}"));
    e.send("go depth 1");
    e.send("isready");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let mut lines = e.wait_for_prefix("readyok", SHORT);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    e.send("stop"); // nothing is running now: silent
    e.send("isready");
    lines.extend(e.wait_for_prefix("readyok", SHORT));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal(STARTPOS_FEN, &best[0]);
    assert_legal(STARTPOS_FEN, &best[1]);
    assert_legal(&o_to_move, &best[2]);
    let mv = Move::parse_uai(&best[2]).unwrap();
    assert!(!pos(STARTPOS_FEN).is_legal(mv), "{} is x's", best[2]);

    // `stop` then `go` right after it: the `go` starts at once.
    e.send("go infinite");
    e.send("stop");
    e.send("go depth 2");
    let first = e.wait_for_prefix("bestmove ", SHORT);
    assert!(
        !first.iter().any(|l| l.starts_with("info string")),
        "{first:?}"
    );
    let lines = e.wait_for_prefix("bestmove ", SHORT);
    assert_legal(&o_to_move, &lines.last().unwrap()[9..]);
}

#[test]
fn quit_mid_search_exits_at_once() {
    let _cpu = cpu();
    let e = Uai::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("quit");
    let status = e.expect_exit(SHORT);
    assert!(status.success(), "{status:?}");
    assert!(t.elapsed() < PROMPT, "quit took {:?}", t.elapsed());
}

#[test]
fn end_of_input_mid_search_exits_cleanly() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.close_stdin();
    let status = e.expect_exit(SHORT);
    assert!(status.success(), "{status:?}");
    assert!(t.elapsed() < PROMPT, "exit took {:?}", t.elapsed());
    // The stopped search still answered, for scripts that pipe `go` and close.
    let last = e.wait_for_prefix("bestmove ", SHORT).pop().unwrap();
    assert_legal(STARTPOS_FEN, &last["bestmove ".len()..]);
}

#[test]
fn end_of_input_lets_perft_finish() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("perft 5");
    e.send("d");
    e.close_stdin();
    assert!(e.expect_exit(Duration::from_secs(10)).success());
    let lines = e.wait_for_prefix("Fen: ", SHORT);
    assert!(
        lines.iter().any(|l| l.starts_with("nodes 4752668 ")),
        "{lines:?}"
    );
}

#[test]
fn position_startpos_with_moves_and_fen() {
    let mut e = Uai::start();
    e.send("position startpos moves f2 a1a3");
    assert_eq!(e.fen(), "x5o/7/7/7/o6/5x1/6x x 1 2");
    e.send("position startpos");
    assert_eq!(e.fen(), STARTPOS_FEN);
    let fen = "x5o/7/2-1-2/7/2-1-2/7/o5x o 13 20";
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.fen(), fen);
    e.send(&format!("position fen {fen} moves g6 g1e1"));
    assert_eq!(e.fen(), "x5o/6o/2-1-2/7/2-1-2/7/o3x2 o 1 21");
    // Missing trailing fields default to x 0 1; `display` is `d`.
    e.send("position fen x5o/7/7/7/7/7/o5x");
    e.send("display");
    let lines = e.wait_for_prefix("Fen: ", SHORT);
    assert_eq!(lines.len(), 9, "{lines:?}");
    assert_eq!(lines[0], "7  x . . . . . o");
    assert_eq!(lines[8], format!("Fen: {STARTPOS_FEN}"));
    // Passes in the move list are accepted exactly when they are legal.
    e.send(&format!("position fen {MUST_PASS_FEN} moves 0000"));
    assert_eq!(e.fen(), "7/7/7/7/ooo4/ooo4/xoo4 o 1 1");
    e.send("uainewgame");
    assert!(e.sync().is_empty());
}

#[test]
fn bad_position_is_rejected_and_state_unchanged() {
    let mut e = Uai::start();
    e.send("position startpos moves f2");
    let good = e.fen();
    assert_eq!(good, "x5o/7/7/7/7/5x1/o5x o 0 1");
    for bad in [
        "position startpos moves f2 f3",          // not reachable for o
        "position startpos moves f2 a1a4",        // not a move at all
        "position startpos moves f2 b2b3",        // long-form single
        "position startpos moves 0000",           // pass while moves exist
        "position startpos moves f2 f2",          // occupied
        "position fen x5o/7/7/7/7/7/q5x x 0 1",   // bad character
        "position fen x5o/7/7/7/7/7 x 0 1",       // too few ranks
        "position fen x5o/7/7/7/7/7/o5x z 0 1",   // bad side
        "position fen x5o/7/7/7/7/7/o5x x 0 1 7", // extra field
        "position fen x5o/7/7/7/7/7/o5x x 99999999999999999999 1",
        "position fen",
        "position",
        "position startpos junk",
        "position fen moves f2",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert_error(&lines[0]);
        assert_eq!(e.fen(), good, "{bad} changed the position");
    }
}

#[test]
fn must_pass_answers_0000() {
    let _cpu = cpu();
    let p = pos(MUST_PASS_FEN);
    assert_eq!(
        p.legal_moves(),
        vec![Move::PASS],
        "the fixture must be a forced pass"
    );
    assert!(p.outcome().is_none());
    let mut e = Uai::start();
    e.send(&format!("position fen {MUST_PASS_FEN}"));
    for args in [
        "depth 3",
        "movetime 50",
        "nodes 1000",
        "btime 1000 wtime 1000",
    ] {
        let (_, best, _) = e.go(args, SHORT);
        assert_eq!(best, "0000", "go {args}");
    }
    // Infinite still waits for stop: no bestmove while we watch.
    e.send("go infinite");
    let lines = e.lines_within(Duration::from_millis(500));
    assert!(
        lines.iter().all(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    e.send("stop");
    assert_eq!(
        e.wait_for_prefix("bestmove", SHORT).pop().unwrap(),
        "bestmove 0000"
    );
}

#[test]
fn game_over_answers_0000() {
    let mut e = Uai::start();
    for fen in [
        "7/7/7/7/7/7/x6 o 0 1",       // o has no stones
        "x5o/7/7/7/7/7/o5x x 100 60", // the 100-ply rule
        "xxxxxxx/ooooooo/7/7/7/7/7 x 0 1"
            .replace("7/7/7/7/7", "xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo")
            .leak(),
    ] {
        assert!(pos(fen).outcome().is_some(), "{fen} must be over");
        e.send(&format!("position fen {fen}"));
        let (info, best, _) = e.go("depth 5", SHORT);
        assert_eq!(best, "0000", "{fen}");
        assert!(info.is_empty(), "{info:?}");
    }
}

#[test]
fn go_depth_reports_each_iteration() {
    let mut e = Uai::start();
    let info = Regex::new(INFO).unwrap();
    let fen = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1";
    e.send(&format!("position fen {fen}"));
    let (lines, best, _) = e.go("depth 5", SHORT);
    let depths: Vec<u32> = lines
        .iter()
        .map(|l| {
            let c = info
                .captures(l)
                .unwrap_or_else(|| panic!("bad info line {l:?}"));
            c[1].parse().unwrap()
        })
        .collect();
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    let pv_first = lines.last().unwrap().split(" pv ").nth(1).unwrap();
    assert_eq!(pv_first.split(' ').next().unwrap(), best);
    assert_legal(fen, &best);
}

#[test]
fn go_nodes_respects_the_budget() {
    let mut e = Uai::start();
    let info = Regex::new(INFO).unwrap();
    let (lines, best, _) = e.go("nodes 5000", SHORT);
    assert!(!lines.is_empty());
    for l in &lines {
        let c = info
            .captures(l)
            .unwrap_or_else(|| panic!("bad info line {l:?}"));
        assert!(c[4].parse::<u64>().unwrap() <= 5000, "{l}");
    }
    assert_legal(STARTPOS_FEN, &best);
}

#[test]
fn go_movetime_is_honoured() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("position startpos moves f2 a1a3 b6");
    let fen = e.fen();
    // The engine stops `MoveOverhead` early but never before half the movetime (see
    // `time::movetime`); the answer then comes at once.
    let movetime = Duration::from_millis(100);
    for _ in 0..3 {
        let (_, best, took) = e.go("movetime 100", SHORT);
        assert_legal(&fen, &best);
        assert!(
            took >= movetime / 2 && took <= movetime + PROMPT,
            "movetime 100 took {took:?}"
        );
    }
}

#[test]
fn go_clocks_use_btime_for_x() {
    let _cpu = cpu();
    let mut e = Uai::start();
    // The wrong clock is always 10000 s, on which the engine would think for minutes,
    // so answering within PROMPT shows that the right clock was used.
    // x to move: btime is its clock. A short btime means a fast move even if wtime is huge.
    let (_, best, took) = e.go("btime 1000 wtime 10000000 binc 10 winc 0", SHORT);
    assert_legal(STARTPOS_FEN, &best);
    assert!(took < PROMPT, "x with 1 s took {took:?}");
    // A huge btime with a tiny wtime: x thinks long (we stop it). It does search (its
    // first report arrives) and has not moved 400 ms after `go`, far beyond what o's
    // 10 ms would allow.
    let t = Instant::now();
    e.send("go btime 10000000 wtime 10 binc 0 winc 0");
    let first = e.recv(SHORT);
    assert!(
        first.starts_with("info depth"),
        "x used o's clock: {first:?}"
    );
    let more = e.lines_within(Duration::from_millis(400).saturating_sub(t.elapsed()));
    assert!(
        more.iter().all(|l| l.starts_with("info depth")),
        "x used o's clock: {more:?}"
    );
    let t = Instant::now();
    e.send("stop");
    e.wait_for_prefix("bestmove ", SHORT);
    assert!(t.elapsed() < PROMPT, "stop took {:?}", t.elapsed());
    // o to move: wtime is its clock.
    e.send("position startpos moves f2");
    let (_, best, took) = e.go(
        "btime 10000000 wtime 1000 binc 0 winc 10 movestogo 20",
        SHORT,
    );
    assert_legal("x5o/7/7/7/7/5x1/o5x o 0 1", &best);
    assert!(took < PROMPT, "o with 1 s took {took:?}");
    // An almost empty clock still gives a legal move at once; a negative one counts as 0
    // (not as a reason to fall back on o's clock).
    for args in ["btime 5 wtime 5", "btime -20 wtime 10000000", "btime 0"] {
        e.send("position startpos");
        let (_, best, took) = e.go(args, SHORT);
        assert_legal(STARTPOS_FEN, &best);
        assert!(took < PROMPT, "{args} took {took:?}");
    }
}

#[test]
fn perft_matches_reference_counts() {
    let mut e = Uai::start();
    let summary = Regex::new(r"^nodes (\d+) time (\d+) nps (\d+)$").unwrap();
    e.send("perft 4");
    let lines = e.wait_for_prefix("nodes ", Duration::from_secs(10));
    let split: Vec<(String, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let (m, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("bad split line {l:?}"));
            (m.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(split.len(), 16);
    for (m, _) in &split {
        assert_legal(STARTPOS_FEN, m);
    }
    let c = summary.captures(lines.last().unwrap()).unwrap();
    assert_eq!(&c[1], "155888");
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 155888);
    // From the current position, and the forced pass counts one node.
    e.send("position startpos moves f2");
    e.send("perft 1");
    let lines = e.wait_for_prefix("nodes ", SHORT);
    assert_eq!(lines.len(), 17, "{lines:?}");
    e.send(&format!("position fen {MUST_PASS_FEN}"));
    e.send("perft 1");
    assert_eq!(e.wait_for_prefix("nodes ", SHORT)[0], "0000: 1");
    for bad in ["perft", "perft x", "perft -1", "perft 13", "perft 1 2"] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert_error(&lines[0]);
    }
}

#[test]
fn perft_keeps_isready_responsive_and_commands_in_order() {
    let _cpu = cpu();
    let e = Uai::start();
    e.send("perft 7");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    e.send("isready");
    e.send("d");
    // `readyok` comes at once, while the perft (seconds) still runs: before its summary,
    // with at most some of its per-move lines ahead of it.
    let first = e.wait_for_prefix("readyok", SHORT);
    assert!(t.elapsed() < PROMPT, "isready took {:?}", t.elapsed());
    let split = Regex::new(r"^[a-g][1-7]([a-g][1-7])?: \d+$").unwrap();
    assert!(
        first[..first.len() - 1].iter().all(|l| split.is_match(l)),
        "{first:?}"
    );
    // `d` waits for the perft; the summary line comes before the board.
    let lines = e.wait_for_prefix("Fen: ", Duration::from_secs(30));
    let summary = lines.iter().position(|l| l.starts_with("nodes ")).unwrap();
    assert!(lines[summary].starts_with("nodes 5023479496 "), "{lines:?}");
    assert_eq!(lines.len(), summary + 10, "{lines:?}");
}

#[test]
fn bench_prints_a_summary_line() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("bench 3");
    let line = e.recv(Duration::from_secs(20));
    assert!(
        Regex::new(r"^nodes \d+ time \d+ nps \d+$")
            .unwrap()
            .is_match(&line),
        "{line:?}"
    );
    // Same depth, same node count: bench is a signature.
    e.send("bench 3");
    let again = e.recv(Duration::from_secs(20));
    assert_eq!(line.split(' ').nth(1), again.split(' ').nth(1));
    for bad in ["bench 0", "bench x", "bench 31", "bench 1 2"] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert_error(&lines[0]);
    }
}

#[test]
fn garbage_never_crashes() {
    let mut e = Uai::start();
    let long = "x".repeat(200_000);
    let junk: Vec<&[u8]> = vec![
        b"xyzzy",
        b"go foo",
        b"go depth",
        b"go depth -1",
        b"go depth 99999999999999999999",
        b"go nodes 0",
        b"go movetime abc",
        b"go wtime 9223372036854775808",
        b"uai extra",
        b"isready now",
        b"quit now",
        b"setoption name",
        b"\x00\x01\x02",
        b"\xff\xfe\xfd go depth 1",
        b"position startpos moves \xc3\x28",
        long.as_bytes(),
        b"\x1b[2J",
        b"position fen 7/7/7/7/7/7/7 x 0 1 moves 0000",
    ];
    for j in &junk {
        e.send_bytes(j);
        e.send_bytes(b"\n");
    }
    // Blank lines and whitespace are ignored silently; CRLF line ends are fine.
    e.send_bytes(b"\n   \n\t\nisready\r\n");
    let lines = e.wait_for_prefix("readyok", SHORT);
    assert_eq!(lines.last().unwrap(), "readyok");
    let errors = &lines[..lines.len() - 1];
    assert_eq!(errors.len(), junk.len(), "{errors:?}");
    for l in errors {
        assert_error(l);
        assert!(l.len() < 200, "error lines stay short: {l}");
    }
    assert_eq!(e.fen(), STARTPOS_FEN);
    let (_, best, _) = e.go("depth 2", SHORT);
    assert_legal(STARTPOS_FEN, &best);
}

/// Plays whole games against itself the way a tournament manager does (`position fen`
/// with the current FEN, then `go` with both clocks at 1 s + 10 ms), checking every
/// answer with our own rules and that no side's clock ever runs out. A move that overran
/// its own hard deadline by more than the managers' usual 25 ms buffer was stalled by
/// the machine (other processes on a small, shared box), not by the engine: such stalls
/// may flag but must be rare.
#[test]
fn self_play_with_clocks_never_flags_and_only_plays_legal_moves() {
    let _cpu = cpu();
    let mut e = Uai::start();
    let openings = [
        STARTPOS_FEN,
        "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
    ];
    for (game, opening) in openings.iter().enumerate() {
        e.send("uainewgame");
        let mut p = pos(opening);
        let mut clocks = [Duration::from_millis(1000); 2];
        let inc = Duration::from_millis(10);
        let mut plies = 0;
        let mut stalls = 0;
        while p.outcome().is_none() {
            let fen = p.to_fen();
            e.send(&format!("position fen {fen}"));
            let args = if game == 2 {
                "nodes 2000".to_string()
            } else {
                format!(
                    "btime {} wtime {} binc 10 winc 10",
                    clocks[0].as_millis(),
                    clocks[1].as_millis()
                )
            };
            let (_, best, took) = e.go(&args, SHORT);
            let mv = assert_legal(&fen, &best);
            let side = p.side_to_move().index();
            if game != 2 {
                let hard = time::allocate(
                    &TimeControl {
                        remaining: clocks[side],
                        increment: inc,
                        moves_to_go: None,
                    },
                    time::DEFAULT_OVERHEAD,
                )
                .hard;
                let over = took.saturating_sub(hard);
                if over > STALL {
                    stalls += 1;
                }
                assert!(
                    took < clocks[side] || over > STALL,
                    "flagged in {fen}: {took:?} > {:?} (budget {hard:?})",
                    clocks[side]
                );
                clocks[side] = clocks[side].saturating_sub(took) + inc;
            }
            p.make_move(mv);
            plies += 1;
            assert!(plies < 1000, "the game does not end");
        }
        assert!(plies > 10, "game {game} too short: {plies} plies");
        assert!(
            stalls * 10 <= plies,
            "game {game}: {stalls} stalls in {plies} plies"
        );
    }
    e.send("quit");
    assert!(e.expect_exit(SHORT).success());
}

#[test]
fn threads_search_and_sum_their_nodes() {
    let _cpu = cpu();
    let mut e = Uai::start();
    e.send("setoption name Threads value 3");
    assert!(e.sync().is_empty());
    e.send("position startpos");
    let (info, best, _) = e.go("depth 6", Duration::from_secs(60));
    assert_legal(STARTPOS_FEN, &best);
    let re = Regex::new(INFO).unwrap();
    let nodes: Vec<u64> = info
        .iter()
        .map(|l| {
            let c = re.captures(l).unwrap_or_else(|| panic!("info line {l:?}"));
            c[4].parse().unwrap()
        })
        .collect();
    assert_eq!(nodes.len(), 6, "one info line per iteration: {info:?}");
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    // `stop` reaches every thread: the best move comes (the exact node sum is checked
    // in src/search/control.rs's tests).
    e.send("go infinite");
    let first = e.recv(SHORT);
    assert!(first.starts_with("info depth"), "{first:?}");
    e.send("stop");
    let rest = e.wait_for_prefix("bestmove ", SHORT);
    let best = rest.last().unwrap().split(' ').nth(1).unwrap().to_string();
    assert_legal(STARTPOS_FEN, &best);
    // Back to one thread: the same search as before the option existed.
    e.send("setoption name Threads value 1");
    assert!(e.sync().is_empty());
    let (_, best, _) = e.go("depth 3", SHORT);
    assert_legal(STARTPOS_FEN, &best);
}

/// A first line naming an engine protocol this program does not speak as written
/// (chess's `uci`, `UAI` in capitals, `uai` to a game without UAI) gets a hint naming
/// the protocols it does speak, not "unknown command", and the text language goes on.
#[test]
fn a_foreign_protocol_word_first_gets_a_hint() {
    let cases: [(&str, &str, &str); 6] = [
        (common::BIN, "uci", "ataxx speaks uai and ugi"),
        (common::BIN, "UAI", "ataxx speaks uai and ugi"),
        (env!("CARGO_BIN_EXE_loa"), "uai", "loa speaks ugi,"),
        (env!("CARGO_BIN_EXE_loa"), "UCI", "loa speaks ugi,"),
        (
            env!("CARGO_BIN_EXE_reversi"),
            "uci",
            "reversi speaks ugi and nboard",
        ),
        (
            env!("CARGO_BIN_EXE_reversi"),
            "NBOARD",
            "reversi speaks ugi and nboard",
        ),
    ];
    for (bin, word, speaks) in cases {
        let e = Engine::spawn_bin(bin, &[]);
        e.send(word);
        e.send("quit");
        let t = e.finish(SHORT);
        let all = format!("{}{}", t.stdout(), t.stderr);
        assert!(all.contains(speaks), "{word}: {all}");
        assert!(all.contains("chosen by the first line"), "{word}: {all}");
        assert!(!all.contains("unknown command"), "{word}: {all}");
        assert_eq!(t.status.code(), Some(0), "{word}: {all}");
    }
}

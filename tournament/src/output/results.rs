//! The results file: one JSON object per finished game, appended and flushed (and
//! synced) at once, so a killed run loses at most the games still being played.
//! `-resume` reads it back: unparsable lines (a line cut by the kill) are skipped, and
//! the first record of each id wins, so every game counts exactly once.
//!
//! [`GameRecord`] is the one definition of a line: serde writes and reads it, here and
//! in the tools that learn from results files (`tune`).

use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// A game result from the first mover's point of view, written in PGN form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// `1-0`.
    #[serde(rename = "1-0")]
    FirstWins,
    /// `0-1`.
    #[serde(rename = "0-1")]
    SecondWins,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// PGN form.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Parses the PGN form.
    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::FirstWins),
            "0-1" => Some(GameResult::SecondWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// The first mover's score (1, ½, 0).
    pub fn first_score(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::SecondWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

/// How a game ended, for counting: on the board (the game's rules), by adjudication,
/// or by a fault of the player who lost it. Written as the words of [`Ending::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ending {
    /// The game's rules ended it.
    #[serde(rename = "rules")]
    Rules,
    /// The runner adjudicated it (`-maxmoves`, `-adjudicate`, `-draw`, `-resign`).
    #[serde(rename = "adjudication")]
    Adjudication,
    /// The loser's clock or move deadline ran out.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// The loser played an illegal or unreadable move.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// The loser said something that is no answer (a line over the length limit, a
    /// `bestmove` without a move, a result claim in an unfinished game).
    #[serde(rename = "unparsable answer")]
    Unparsable,
    /// The loser's process exited or closed its output.
    #[serde(rename = "crash")]
    Crash,
    /// The loser's handshake or new-game sync did not finish.
    #[serde(rename = "handshake failed")]
    Handshake,
    /// The loser's program could not be started.
    #[serde(rename = "could not start")]
    Start,
    /// The loser (a text, NBoard or GTP engine) refused a command of the game's set-up.
    #[serde(rename = "set-up refused")]
    SetupRefused,
    /// The loser resigned (a GTP engine's `= resign`).
    #[serde(rename = "resignation")]
    Resignation,
}

impl Ending {
    /// The PGN `Termination` value (the standard's: `normal`, `adjudication`, `time
    /// forfeit`, `rules infraction` for a move or answer against the protocol,
    /// `abandoned` for an engine that left or never came).
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Ending::Rules | Ending::Resignation => "normal",
            Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove | Ending::Unparsable | Ending::SetupRefused => "rules infraction",
            Ending::Crash | Ending::Handshake | Ending::Start => "abandoned",
        }
    }

    /// Every ending, in report order.
    pub const ALL: [Ending; 10] = [
        Ending::Rules,
        Ending::Adjudication,
        Ending::TimeForfeit,
        Ending::IllegalMove,
        Ending::Unparsable,
        Ending::Crash,
        Ending::Handshake,
        Ending::Start,
        Ending::SetupRefused,
        Ending::Resignation,
    ];

    /// The words for people and for the results file.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove => "illegal move",
            Ending::Unparsable => "unparsable answer",
            Ending::Crash => "crash",
            Ending::Handshake => "handshake failed",
            Ending::Start => "could not start",
            Ending::SetupRefused => "set-up refused",
            Ending::Resignation => "resignation",
        }
    }

    /// True if the loser lost by a fault of its own (not on the board, not adjudicated).
    pub fn is_fault(self) -> bool {
        !matches!(
            self,
            Ending::Rules | Ending::Adjudication | Ending::Resignation
        )
    }

    /// The ending of a record written before records carried one, read from its reason
    /// (`adjudication: …`, or `<engine> <fault description>` as the referee writes it).
    pub fn from_reason(reason: &str) -> Ending {
        if reason.starts_with("adjudication:") {
            return Ending::Adjudication;
        }
        [
            (" time forfeit", Ending::TimeForfeit),
            (" illegal move '", Ending::IllegalMove),
            (" unparsable answer: ", Ending::Unparsable),
            (" crash: ", Ending::Crash),
            (" handshake failed: ", Ending::Handshake),
            (" bad option: ", Ending::Handshake),
            (" could not start: ", Ending::Start),
            (" set-up refused: ", Ending::SetupRefused),
            (" resigns", Ending::Resignation),
        ]
        .into_iter()
        .find(|(words, _)| reason.contains(words))
        .map_or(Ending::Rules, |(_, e)| e)
    }
}

/// An engine's evaluation of its move, from its own point of view: centipawns (in
/// the game's units: Ataxx counts stones ×100), or a proven result in N moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N` (negative: the engine is mated).
    Mate(i32),
}

/// What a mate score counts as in centipawns (minus the moves to mate), for
/// adjudication thresholds.
pub const MATE_CP: i32 = 100_000;

impl Score {
    /// The score in centipawns; a mate in N is `±(MATE_CP − N)`.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n >= 0 => MATE_CP - n.min(MATE_CP),
            Score::Mate(n) => -MATE_CP + n.unsigned_abs().min(MATE_CP as u32) as i32,
        }
    }

    /// As cutechess-cli writes it in PGN comments: pawns with a sign (`+0.35`,
    /// `-1.20`), or `+M5` / `-M3`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(n) if n < 0 => format!("-M{}", n.unsigned_abs()),
            Score::Mate(n) => format!("+M{n}"),
        }
    }
}

/// One move's thinking: the time it took (measured by the referee) and, from engines
/// that report it (the UCI family's `info` lines before `bestmove`), the depth and score
/// of the last report. Written as `{"ms":520,"depth":12,"cp":35}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// Milliseconds from the request to the answer.
    pub ms: u64,
    /// Search depth reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Score reported, in centipawns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Score reported as moves to a proven result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// Nodes searched, as reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Selective depth, as reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// Nodes per second, as reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    /// Hash table fill (per mille), as reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashfull: Option<u32>,
    /// The principal variation, as reported (kept only for `-pgnout … pv=true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
    /// The mover's clock after the move (its increment added), in ms; only on a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeleft: Option<i64>,
    /// The measured time less the search time the engine reported (`info time`), in
    /// ms: what the pipes, the scheduler and the engine's own overhead took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<u64>,
}

impl MoveInfo {
    /// The reported score, if any.
    pub fn score(&self) -> Option<Score> {
        match (self.mate, self.cp) {
            (Some(m), _) => Some(Score::Mate(m)),
            (None, Some(cp)) => Some(Score::Cp(cp)),
            (None, None) => None,
        }
    }

    /// The PGN comment text, cutechess-style: `+0.35/12 0.52s`; the score without a
    /// depth (`-1.38 0.111s`) when the engine reported none (an NBoard engine's move
    /// without a `search` line: a depth 0 would be a figure nobody reported), or the
    /// time alone (`0.52s`) for a move with no reported score.
    pub fn pgn_comment(&self) -> String {
        let s = format!("{:.3}", self.ms as f64 / 1000.0);
        let time = format!("{}s", s.trim_end_matches('0').trim_end_matches('.'));
        match (self.score(), self.depth) {
            (Some(score), Some(depth)) => format!("{}/{depth} {time}", score.pgn()),
            (Some(score), None) => format!("{} {time}", score.pgn()),
            (None, _) => time,
        }
    }
}

/// One finished game: one line of the results file. Fields other than the id, the
/// players, the result and the moves may be missing in a line (files of older runs);
/// they read as empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index in the schedule.
    pub id: u64,
    /// 0-based round.
    #[serde(default)]
    pub round: u32,
    /// The game (`-variant`); empty in files written before it existed, which hold
    /// games of the library's first game (see [`GameRecord::is_variant`]).
    #[serde(default)]
    pub variant: String,
    /// Engine names: `[first mover, second mover]`.
    pub players: [String; 2],
    /// The opening line (empty: the start position).
    #[serde(default)]
    pub opening: String,
    /// FEN of the position the engines started from.
    #[serde(default)]
    pub fen: String,
    /// Result, first mover's view.
    pub result: GameResult,
    /// Why the game ended.
    #[serde(default)]
    pub reason: String,
    /// How it ended, for counting (missing in files written before it existed: see
    /// [`GameRecord::ending`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// The engines' moves in protocol notation.
    pub moves: Vec<String>,
    /// Per move, what its engine reported and how long it took (empty in files written
    /// before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub info: Vec<MoveInfo>,
    /// Date the game was played (`YYYY.MM.DD`).
    #[serde(default)]
    pub date: String,
    /// Wall time of the game in ms.
    #[serde(default)]
    pub duration_ms: u64,
    /// With `-repeat`: the id of the first game of its pair.
    #[serde(default, rename = "pair")]
    pub pair_key: Option<u64>,
    /// The rules that judged it, by the game's name for them ([`engine::game::RuleSet::name`]:
    /// `text`, `engine`, `2008`, `standard`; missing in files written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
}

/// A line as written: the record plus its ply count, for people and scripts reading
/// the file (derived from the moves, so not read back).
#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    record: &'a GameRecord,
    plies: usize,
    /// The run the game belongs to ([`crate::matchmaking::shard::RunInfo`]), for `-resume` and
    /// `tournament merge` (read back by them, not into the record).
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<&'a serde_json::value::RawValue>,
}

impl GameRecord {
    /// The JSON line (without the newline).
    pub fn to_json(&self) -> String {
        self.to_json_in(None)
    }

    /// The JSON line with the run's `run` field.
    fn to_json_in(&self, run: Option<&serde_json::value::RawValue>) -> String {
        let line = Line {
            record: self,
            plies: self.moves.len(),
            run,
        };
        serde_json::to_string(&line).expect("a record always serializes")
    }

    /// Parses a JSON line; `None` for anything malformed.
    pub fn from_json(line: &str) -> Option<GameRecord> {
        serde_json::from_str(line).ok()
    }

    /// How the game ended: the recorded ending, or for older records the one its
    /// reason names.
    pub fn ending(&self) -> Ending {
        self.ending
            .unwrap_or_else(|| Ending::from_reason(&self.reason))
    }

    /// The player who lost by a fault of its own, if the game ended so.
    pub fn culprit(&self) -> Option<&str> {
        if !self.ending().is_fault() {
            return None;
        }
        match self.result {
            GameResult::FirstWins => Some(&self.players[1]),
            GameResult::SecondWins => Some(&self.players[0]),
            GameResult::Draw => None,
        }
    }

    /// True if the record belongs to game `name`. Records from before `-variant` carry
    /// no name: they are of the library's first game, the only one there was.
    pub fn is_variant(&self, name: &str) -> bool {
        self.variant == name || (self.variant.is_empty() && Some(name) == first_variant())
    }
}

/// The game records without a variant name were played in: the library's first.
fn first_variant() -> Option<&'static str> {
    engine::variant::Variant::ALL.first().map(|v| v.name())
}

/// Reads a results file: the first valid record of each id, in file order, and
/// whether the file ends in the middle of a line (then a newline must be written
/// before appending). A missing file is an empty run, and so is anything but a regular
/// file (`/dev/null`; a pipe, which reading would drain or block on).
pub fn load(path: &Path) -> Result<(Vec<GameRecord>, bool), String> {
    let mut text = String::new();
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Ok((Vec::new(), false));
    }
    match File::open(path) {
        Ok(mut f) => {
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(r) = GameRecord::from_json(line) {
            if seen.insert(r.id) {
                out.push(r);
            }
        }
    }
    let cut = !text.is_empty() && !text.ends_with('\n');
    Ok((out, cut))
}

/// The open results file.
pub struct ResultsWriter {
    file: File,
    run: Option<Box<serde_json::value::RawValue>>,
    /// A regular file, made durable after each line; a device or a pipe (`/dev/null`,
    /// `/dev/stdout`) is written to only: it cannot be synced (EINVAL) nor read back.
    regular: bool,
}

impl ResultsWriter {
    /// Opens for appending; `truncate` starts a fresh run, `newline_first` repairs a
    /// line cut by a kill.
    pub fn open(path: &Path, truncate: bool, newline_first: bool) -> Result<ResultsWriter, String> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        // Two runs appending to one file would interleave their lines: refuse the second,
        // before truncating anything. A device or a pipe holds no run to protect, and
        // locking it would keep two runs from both writing to /dev/null.
        if regular {
            file.try_lock().map_err(|_| {
                format!(
                    "{} is in use by another tournament run (it holds the file's lock)",
                    path.display()
                )
            })?;
        }
        if truncate && regular {
            file.set_len(0)
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
        }
        if newline_first && !truncate {
            file.write_all(b"\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(ResultsWriter {
            file,
            run: None,
            regular,
        })
    }

    /// Every line from now on carries `run` as its `run` field.
    pub fn set_run(&mut self, run: &impl Serialize) {
        self.run = serde_json::value::to_raw_value(run).ok();
    }

    /// Appends one record and makes it durable before returning.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), String> {
        let mut line = record.to_json_in(self.run.as_deref());
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .and_then(|_| {
                if self.regular {
                    self.file.sync_data()
                } else {
                    Ok(())
                }
            })
            .map_err(|e| format!("cannot write the results file: {e}"))
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), without a date library.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's method).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: u64) -> GameRecord {
        GameRecord {
            id,
            round: 0,
            variant: "ataxx".into(),
            players: ["a".into(), "b \"q\"".into()],
            opening: "a7-b6".into(),
            fen: "x5o/7/7/7/7/7/o5x x 0 1".into(),
            result: GameResult::Draw,
            reason: "board full 24-25".into(),
            ending: Some(Ending::Rules),
            moves: vec!["f2".into(), "0000".into()],
            info: vec![
                MoveInfo {
                    ms: 520,
                    depth: Some(12),
                    cp: Some(35),
                    mate: None,
                    ..MoveInfo::default()
                },
                MoveInfo {
                    ms: 3,
                    ..MoveInfo::default()
                },
            ],
            date: "2024.05.06".into(),
            duration_ms: 12,
            pair_key: Some(0),
            rules: None,
        }
    }

    #[test]
    fn json_round_trip() {
        let r = record(3);
        assert_eq!(GameRecord::from_json(&r.to_json()), Some(r.clone()));
        assert_eq!(GameRecord::from_json("{\"id\":1}"), None);
        assert_eq!(GameRecord::from_json("{\"id\":1,\"players\":[\"a\""), None);
        assert_eq!(GameRecord::from_json("garbage"), None);
        assert_eq!(
            GameRecord::from_json(r#"{"id":1,"players":["a"],"result":"1-0","moves":[]}"#),
            None
        );
        // The line's layout: the fields above plus the ply count, results in PGN form.
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["plies"], 2);
        assert_eq!(v["pair"], 0);
        assert_eq!(v["result"], "1/2-1/2");
        // A line of a run from before `-variant` (and its key order) reads as Ataxx.
        let old = r#"{"date":"2026.01.05","duration_ms":812,"fen":"x5o/7/7/7/7/7/o5x x 0 1","id":0,"moves":["b6","f6f4"],"opening":"","pair":null,"players":["a","b"],"plies":2,"reason":"board full 30-19","result":"0-1","round":0}"#;
        let old = GameRecord::from_json(old).unwrap();
        assert_eq!(
            (old.result, old.pair_key, old.variant.as_str()),
            (GameResult::SecondWins, None, "")
        );
        assert!(old.is_variant("ataxx") && !old.is_variant("reversi"));
        assert_eq!(v["ending"], "rules");
        assert_eq!(
            v["info"][0],
            serde_json::json!({"ms":520,"depth":12,"cp":35})
        );
        assert_eq!(v["info"][1], serde_json::json!({"ms":3}));
        assert!(old.info.is_empty());
        assert_eq!((old.ending, old.ending()), (None, Ending::Rules));
    }

    #[test]
    fn endings_of_older_records_are_read_from_their_reasons() {
        for (reason, ending) in [
            ("board full 30-19", Ending::Rules),
            ("adjudication: 100 moves played", Ending::Adjudication),
            ("fake time forfeit (160 ms)", Ending::TimeForfeit),
            (
                "fake time forfeit (no answer before the deadline)",
                Ending::TimeForfeit,
            ),
            ("fake illegal move 'a1a1'", Ending::IllegalMove),
            (
                "fake unparsable answer: a line longer than 65536 bytes",
                Ending::Unparsable,
            ),
            ("fake crash: engine exited while thinking", Ending::Crash),
            (
                "fake handshake failed: no 'uaiok' in time",
                Ending::Handshake,
            ),
            ("fake could not start: cannot start 'x'", Ending::Start),
            ("grhino resigns", Ending::Resignation),
            (
                "adjudication: fake resigns (score -500 or worse for 3 moves)",
                Ending::Adjudication,
            ),
        ] {
            assert_eq!(Ending::from_reason(reason), ending, "{reason}");
        }
        let mut r = record(1);
        r.ending = None;
        r.reason = "b \"q\" crash: engine exited while thinking".into();
        r.result = GameResult::FirstWins;
        assert_eq!(r.culprit(), Some("b \"q\""));
        r.reason = "board full".into();
        assert_eq!(r.culprit(), None);
    }

    #[test]
    fn a_second_writer_is_refused() {
        let dir = std::env::temp_dir().join(format!("tournament-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        let mut first = ResultsWriter::open(&path, true, false).unwrap();
        first.append(&record(0)).unwrap();
        let second = ResultsWriter::open(&path, true, false);
        assert!(second.is_err(), "a second run must not share the file");
        drop(first);
        let (games, _) = load(&path).unwrap();
        assert_eq!(games.len(), 1, "the refused run truncated nothing");
        assert!(
            ResultsWriter::open(&path, false, false).is_ok(),
            "free again once closed"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scores_and_comments() {
        assert_eq!(Score::Cp(35).pgn(), "+0.35");
        assert_eq!(Score::Cp(-120).pgn(), "-1.20");
        assert_eq!(Score::Cp(-5).pgn(), "-0.05");
        assert_eq!(Score::Cp(0).pgn(), "+0.00");
        assert_eq!(Score::Mate(3).pgn(), "+M3");
        assert_eq!(Score::Mate(-2).pgn(), "-M2");
        assert_eq!(Score::Mate(3).centipawns(), MATE_CP - 3);
        assert_eq!(Score::Mate(-2).centipawns(), -MATE_CP + 2);
        let info = |ms, depth, cp| MoveInfo {
            ms,
            depth,
            cp,
            mate: None,
            ..MoveInfo::default()
        };
        assert_eq!(
            info(520, Some(12), Some(35)).pgn_comment(),
            "+0.35/12 0.52s"
        );
        // Issue 53 item 10: a score without a depth (`reversi --nboard` over NBoard)
        // was written `-1.38/0`.
        assert_eq!(info(111, None, Some(-138)).pgn_comment(), "-1.38 0.111s");
        assert_eq!(info(1000, None, None).pgn_comment(), "1s");
        assert_eq!(info(5, None, None).pgn_comment(), "0.005s");
        assert_eq!(info(0, None, None).pgn_comment(), "0s");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn load_skips_cut_lines_and_duplicates() {
        let dir = std::env::temp_dir().join(format!("tour-res-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("r.jsonl");
        let text = format!(
            "{}\n{}\n{}",
            record(0).to_json(),
            record(0).to_json(),
            &record(1).to_json()[..20]
        );
        std::fs::write(&path, text).unwrap();
        let (recs, cut) = load(&path).unwrap();
        assert_eq!(recs.len(), 1);
        assert!(cut);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

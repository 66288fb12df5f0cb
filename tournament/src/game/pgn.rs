//! PGN as the standard and cutechess-cli write it: the seven-tag roster in its order
//! (the players under the game's tag names, [`Notation::PGN_PLAYERS`]), a `Variant` tag
//! with the game's name, `SetUp`/`FEN` only where the game does not start from the
//! start position, moves in protocol notation numbered on from the FEN's fullmove
//! number, PlyCount, `Termination` with the standard's values and the end reason as a
//! final comment; or, with `min`, the minimal form (the roster, `Variant`, the FEN
//! tags, no comments).

use crate::engines::player::Limits;
use crate::game::{in_id_order, GameFile};
use crate::output::results::{GameRecord, MoveInfo};
use engine::game::{fen_fullmove_number, Notation, RuleSet, Side};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `-pgnout FILE [min]` / `-pgnout file=FILE [min=true]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    /// The PGN file.
    pub file: PathBuf,
    /// The minimal form.
    pub min: bool,
    /// What each move's comment adds (fastchess's `nodes=true` … `latency=true`).
    pub track: PgnTrack,
}

/// The figures a move's comment adds to cutechess's `+0.35/12 0.52s`, each where the
/// move's record has it (fastchess's `-pgnout` keys), in fastchess's words and order:
/// `tl=1.23s`, `latency=0.004s`, `n=`, `sd=`, `nps=`, `hashfull=`, `pv="…"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnTrack {
    /// `nodes=true`: `n=N`.
    pub nodes: bool,
    /// `seldepth=true`: `sd=N`.
    pub seldepth: bool,
    /// `nps=true`: `nps=N`.
    pub nps: bool,
    /// `hashfull=true`: `hashfull=N`.
    pub hashfull: bool,
    /// `pv=true`: `pv="…"`.
    pub pv: bool,
    /// `timeleft=true`: `tl=…s`, the mover's clock after the move.
    pub timeleft: bool,
    /// `latency=true`: `latency=…s`, the measured time less the engine's `info time`.
    pub latency: bool,
}

impl PgnTrack {
    /// Sets the figure `key` (`nodes`, `seldepth`, …) to `on`; `false` if no such key.
    pub fn set(&mut self, key: &str, on: bool) -> bool {
        let field = match key {
            "nodes" => &mut self.nodes,
            "seldepth" => &mut self.seldepth,
            "nps" => &mut self.nps,
            "hashfull" => &mut self.hashfull,
            "pv" => &mut self.pv,
            "timeleft" => &mut self.timeleft,
            "latency" => &mut self.latency,
            _ => return false,
        };
        *field = on;
        true
    }
}

/// Seconds as a PGN comment writes them: `0.52s`, `1s`.
fn seconds(ms: i64) -> String {
    let s = format!("{:.3}", ms as f64 / 1000.0);
    format!("{}s", s.trim_end_matches('0').trim_end_matches('.'))
}

/// A move's comment: cutechess's `+0.35/12 0.52s` and what `track` adds of the
/// figures the record has (`, n=1234, sd=17`); a move without them (a text, NBoard or
/// GTP engine, a built-in player) has none added.
pub fn move_comment(info: &MoveInfo, track: &PgnTrack) -> String {
    let mut out = info.pgn_comment();
    let mut add = |on: bool, text: Option<String>| {
        if let Some(t) = text.filter(|_| on) {
            out.push_str(", ");
            out.push_str(&t);
        }
    };
    add(
        track.timeleft,
        info.timeleft.map(|t| format!("tl={}", seconds(t))),
    );
    add(
        track.latency,
        info.latency
            .map(|t| format!("latency={}", seconds(t as i64))),
    );
    add(track.nodes, info.nodes.map(|n| format!("n={n}")));
    add(track.seldepth, info.seldepth.map(|n| format!("sd={n}")));
    add(track.nps, info.nps.map(|n| format!("nps={n}")));
    add(
        track.hashfull,
        info.hashfull.map(|n| format!("hashfull={n}")),
    );
    // A comment ends at `}`: none may stand in it.
    add(
        track.pv,
        info.pv
            .as_ref()
            .map(|pv| format!("pv=\"{}\"", pv.replace(['}', '"'], ""))),
    );
    out
}

/// What every game's PGN takes besides its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnStyle {
    /// The `Event` tag (`-event`).
    pub event: String,
    /// The `Site` tag (`-site`).
    pub site: String,
    /// The minimal form.
    pub min: bool,
    /// Each engine's time control as the `TimeControl` tag writes it
    /// ([`time_control`]); engines not named here get `?`.
    pub time_controls: HashMap<String, String>,
    /// What each move's comment adds.
    pub track: PgnTrack,
}

/// A time control as PGN's `TimeControl` tag writes it, in seconds: `40/60+0.6`,
/// `10+0.1`, `10`; a fixed time per move as cutechess-cli writes it, `0.5/move`; `-`
/// for no clock (depth or node limits only, built-in players).
pub fn time_control(limits: &Limits) -> String {
    let secs = |ms: u64| {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if let Some(tc) = limits.tc {
        let mut out = String::new();
        if let Some(m) = tc.moves {
            out.push_str(&format!("{m}/"));
        }
        out.push_str(&secs(tc.base_ms));
        if tc.inc_ms > 0 {
            out.push_str(&format!("+{}", secs(tc.inc_ms)));
        }
        out
    } else if let Some(st) = limits.movetime_ms {
        format!("{}/move", secs(st))
    } else {
        "-".into()
    }
}

impl Default for PgnStyle {
    fn default() -> Self {
        PgnStyle {
            event: "tournament".into(),
            site: "?".into(),
            min: false,
            time_controls: HashMap::new(),
            track: PgnTrack::default(),
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN text (ending with a blank line).
pub fn format<G: Notation>(rec: &GameRecord, style: &PgnStyle) -> String {
    let mut out = tags::<G>(rec, style);
    out.push('\n');
    // The whole movetext on one line, as cuteataxx writes it: readers that take each
    // line of movetext on its own (the `ataxx` Python package attaches every further
    // line as a variation of the first move) then read the game whole.
    out.push_str(&movetext::<G>(rec, style).join(" "));
    out.push_str("\n\n");
    out
}

/// One tag pair's line.
fn tag(out: &mut String, k: &str, v: &str) {
    out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
}

/// The game's tag pairs, one a line: the seven-tag roster, then ours.
fn tags<G: Notation>(rec: &GameRecord, style: &PgnStyle) -> String {
    let [first, second] = G::PGN_PLAYERS;
    let mut out = String::new();
    tag(&mut out, "Event", &style.event);
    tag(&mut out, "Site", &style.site);
    tag(&mut out, "Date", &rec.date);
    tag(&mut out, "Round", &(rec.id + 1).to_string());
    // The seven-tag roster's order is White, then Black, whichever of them moves first
    // (Black, in all our games).
    let mut players = [(first, &rec.players[0]), (second, &rec.players[1])];
    if players[1].0 == "White" {
        players.swap(0, 1);
    }
    for (name, player) in players {
        tag(&mut out, name, player);
    }
    tag(&mut out, "Result", rec.result.as_str());
    tag(&mut out, "Variant", G::NAME);
    // Which rules judged (`-rules`): a game the text rules ended may go on under the
    // engine protocols', and the reverse.
    if let Some(rules) = rec.rules.as_deref().filter(|_| !style.min) {
        tag(&mut out, "Rules", rules);
    }
    // The standard leaves the tags out for a game from the start position.
    if rec.fen != G::startpos(G::Rules::ENGINE).fen() {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &rec.fen);
    }
    if !style.min {
        // One `TimeControl` when both sides play under the same, else one per side,
        // named as the players' tags are (`BlackTimeControl`, `WhiteTimeControl`).
        let tc = |i: usize| {
            style
                .time_controls
                .get(&rec.players[i])
                .map_or("?", String::as_str)
        };
        if tc(0) == tc(1) {
            tag(&mut out, "TimeControl", tc(0));
        } else {
            tag(&mut out, &format!("{first}TimeControl"), tc(0));
            tag(&mut out, &format!("{second}TimeControl"), tc(1));
        }
        tag(&mut out, "PlyCount", &rec.moves.len().to_string());
        if !rec.opening.is_empty() {
            tag(&mut out, "Opening", &rec.opening);
        }
        // The standard's value; the detail is the final comment.
        tag(&mut out, "Termination", rec.ending().pgn_termination());
    }
    out
}

/// The movetext's words: move numbers, moves, each move's comment and the final one
/// (unless `min`), then the result.
fn movetext<G: Notation>(rec: &GameRecord, style: &PgnStyle) -> Vec<String> {
    // Move numbers: a full move is the first player's then the second's; a game starting
    // with the second player to move opens `1...`. (Either rule set reads the side to move.)
    let second_first = G::from_fen(&rec.fen, G::Rules::ENGINE)
        .map(|pos| pos.side_to_move() == Side::Second)
        .unwrap_or(false);
    let mut words: Vec<String> = Vec::new();
    let mut number = fen_fullmove_number(&rec.fen);
    for (ply, mv) in rec.moves.iter().enumerate() {
        let is_second = (ply % 2 == 1) != second_first;
        if !is_second {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.clone());
        if let Some(info) = rec.info.get(ply).filter(|_| !style.min) {
            words.push(format!("{{{}}}", move_comment(info, &style.track)));
        }
        if is_second {
            number += 1;
        }
    }
    if !style.min {
        words.push(format!("{{{}}}", rec.reason.replace('}', ")")));
    }
    words.push(rec.result.as_str().to_string());
    words
}

/// A game read back from PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The main line's moves, as written (move numbers, comments, NAGs, variations and
    /// annotation suffixes `!`/`?` removed).
    pub moves: Vec<String>,
    /// The result token that ends the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `key` (first occurrence).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads a tag line `[Key "value"]` (`\"` and `\\` unescaped).
fn tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Some((key.to_string(), value))
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// What the movetext reader is in the middle of, carried across lines.
#[derive(Default)]
struct Movetext {
    /// Inside a `{…}` comment.
    comment: bool,
    /// Depth of `(…)` variations.
    depth: usize,
}

impl Movetext {
    /// Reads one line of movetext into `game`: moves of the main line, the result token.
    fn line(&mut self, line: &str, game: &mut PgnGame) -> Result<(), String> {
        let mut rest = line;
        while !rest.is_empty() {
            if self.comment {
                match rest.find('}') {
                    Some(i) => {
                        self.comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => return Ok(()),
                }
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            match c {
                '{' => {
                    self.comment = true;
                    rest = &rest[1..];
                }
                ';' => return Ok(()),
                '(' => {
                    self.depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    self.depth = self.depth.checked_sub(1).ok_or("')' without a variation")?;
                    rest = &rest[1..];
                }
                c if c.is_whitespace() => rest = &rest[c.len_utf8()..],
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "{};()".contains(c))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if self.depth == 0 {
                        self.token(token, game)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn token(&mut self, token: &str, game: &mut PgnGame) -> Result<(), String> {
        if token.starts_with('$') {
            return Ok(()); // a NAG
        }
        if RESULTS.contains(&token) {
            game.result = Some(token.to_string());
            return Ok(());
        }
        // A move number (`12.`, `12...`), possibly glued to its move (`12.f2`).
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let token = if digits > 0 && token[digits..].starts_with('.') {
            token[digits..].trim_start_matches('.')
        } else {
            token
        };
        let mv = token.trim_end_matches(['!', '?']);
        if mv.is_empty() {
            return Ok(());
        }
        if game.result.is_some() {
            return Err(format!("move '{mv}' after the result"));
        }
        game.moves.push(mv.to_string());
        Ok(())
    }
}

/// Reads every game of a PGN text: tag pairs, then movetext over any number of lines
/// with `{}` and `;` comments, `()` variations (skipped), NAGs (`$3`), move numbers and
/// annotation suffixes removed, up to the result token. A game starts at a tag line
/// after movetext (or at the first tag line); `%` lines are skipped. `Err` names the
/// line of the first thing it cannot read.
pub fn read(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut movetext = Movetext::default();
    let mut in_moves = false;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("PGN line {}: {e}", n + 1);
        let trimmed = line.trim();
        if trimmed.starts_with('%') || (trimmed.is_empty() && !movetext.comment) {
            continue;
        }
        if !movetext.comment && movetext.depth == 0 && trimmed.starts_with('[') {
            if in_moves || game.result.is_some() {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            let tag = tag_line(trimmed).ok_or_else(|| at(format!("bad tag '{trimmed}'")))?;
            game.tags.push(tag);
            continue;
        }
        in_moves = true;
        movetext.line(line, &mut game).map_err(at)?;
    }
    if movetext.comment || movetext.depth > 0 {
        return Err("PGN: the text ends inside a comment or variation".into());
    }
    if in_moves || !game.tags.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// Reads games as the `ataxx` Python package (`ataxx.pgn` 2.2.0) does, which is how
/// many Ataxx tools read our files: a game starts at a line beginning `[Event`; tag lines
/// are `[Key "value"]`; and every other non-blank line is movetext parsed from the
/// start of the game, so only the first such line is the main line (further lines
/// become variations of the first move). The result is that of the main line. A PGN
/// whose games each have one movetext line reads back whole.
pub fn read_one_line(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut seen_moves = false;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("PGN line {}: {e}", n + 1);
        if line.len() < 2 {
            continue;
        }
        if line.starts_with("[Event") || games.is_empty() {
            games.push(PgnGame::default());
            seen_moves = false;
        }
        let game = games.last_mut().expect("a game was just pushed");
        if line.starts_with('[') && line.ends_with(']') {
            let tag = tag_line(line).ok_or_else(|| at(format!("bad tag '{line}'")))?;
            game.tags.push(tag);
        } else if !seen_moves {
            seen_moves = true;
            let mut movetext = Movetext::default();
            movetext.line(line, game).map_err(at)?;
            if movetext.comment || movetext.depth > 0 {
                return Err(at("movetext ends inside a comment or variation".into()));
            }
        }
    }
    Ok(games)
}

/// The PGN file, written game by game.
pub struct PgnWriter {
    file: GameFile,
    style: PgnStyle,
}

impl PgnWriter {
    /// Opens the file. `existing` (when resuming) rewrites it from the records already
    /// played, so games from a killed run appear exactly once.
    pub fn open<G: Notation>(
        path: &Path,
        style: PgnStyle,
        existing: &[GameRecord],
    ) -> Result<PgnWriter, String> {
        let mut w = PgnWriter {
            file: GameFile::create(path, "PGN")?,
            style,
        };
        for r in in_id_order(existing) {
            w.append::<G>(r)?;
        }
        Ok(w)
    }

    /// Appends one game.
    pub fn append<G: Notation>(&mut self, rec: &GameRecord) -> Result<(), String> {
        self.file.write(&format::<G>(rec, &self.style))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::results::{Ending, GameResult, MoveInfo};
    use crate::testing::record;
    use engine::games::ataxx::Position;

    #[test]
    fn move_comments_add_the_tracked_figures() {
        let info = MoveInfo {
            ms: 520,
            depth: Some(12),
            cp: Some(35),
            nodes: Some(1234),
            seldepth: Some(17),
            nps: Some(2373),
            hashfull: Some(5),
            pv: Some("f2 \"g7}".into()),
            timeleft: Some(9480),
            latency: Some(4),
            ..MoveInfo::default()
        };
        assert_eq!(move_comment(&info, &PgnTrack::default()), "+0.35/12 0.52s");
        let mut all = PgnTrack::default();
        for k in [
            "nodes", "seldepth", "nps", "hashfull", "pv", "timeleft", "latency",
        ] {
            assert!(all.set(k, true));
        }
        assert!(!all.set("tbhits", true));
        assert_eq!(
            move_comment(&info, &all),
            "+0.35/12 0.52s, tl=9.48s, latency=0.004s, n=1234, sd=17, nps=2373, hashfull=5, pv=\"f2 g7\""
        );
        // A move without the figures (a text engine's) gets none of them.
        let bare = MoveInfo {
            ms: 3,
            ..MoveInfo::default()
        };
        assert_eq!(move_comment(&bare, &all), "0.003s");
    }

    #[test]
    fn pgn_layout() {
        let rec = GameRecord {
            id: 4,
            fen: "x5o/7/7/7/7/7/o5x o 0 1".into(),
            result: GameResult::SecondWins,
            moves: vec!["g6".into(), "f2".into(), "a1a3".into()],
            date: "2024.01.02".into(),
            ..record()
        };
        let text = format::<Position>(&rec, &PgnStyle::default());
        assert!(text.contains("[White \"b\"]\n[Black \"a\"]\n"));
        assert!(text.starts_with("[Event \"tournament\"]\n[Site \"?\"]\n"));
        let named = PgnStyle {
            event: "Club \"cup\"".into(),
            site: "Leiden".into(),
            ..PgnStyle::default()
        };
        let text = format::<Position>(&rec, &named);
        assert!(text.starts_with("[Event \"Club \\\"cup\\\"\"]\n[Site \"Leiden\"]\n"));
        assert!(text.contains("[Variant \"ataxx\"]"));
        assert!(text.contains("[Round \"5\"]"));
        assert!(text.contains("[PlyCount \"3\"]"));
        assert!(text.contains("1... g6 2. f2 a1a3 {r} 0-1\n\n"), "{text}");
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"x5o/7/7/7/7/7/o5x o 0 1\"]\n"));
        let min = PgnStyle {
            min: true,
            ..PgnStyle::default()
        };
        let text = format::<Position>(&rec, &min);
        assert!(text.ends_with("\n\n1... g6 2. f2 a1a3 0-1\n\n"), "{text}");
        assert!(
            text.contains("[FEN ") && !text.contains("[PlyCount "),
            "{text}"
        );
        let mut start = rec.clone();
        start.fen = Position::startpos(engine::games::ataxx::Rules::Uai).fen();
        let text = format::<Position>(&start, &min);
        assert!(
            !text.contains("[FEN ") && !text.contains("[SetUp "),
            "{text}"
        );
    }

    /// Issue 25 item 4: the seven-tag roster in the standard's order (White before
    /// Black, though Black moves first), no `SetUp`/`FEN` from the start position,
    /// `Termination` with the standard's values (the detail in the final comment), and
    /// move numbers that go on from the FEN's fullmove number.
    #[test]
    fn pgn_as_the_standard_writes_it() {
        let mut rec = long_record(3, 4);
        rec.result = GameResult::SecondWins;
        rec.reason = "a time forfeit (160 ms)".into();
        rec.ending = Some(Ending::TimeForfeit);
        let text = format::<Position>(&rec, &PgnStyle::default());
        let tags: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix('['))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(
            &tags[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "{text}"
        );
        assert!(text.contains("[White \"b\"]\n[Black \"a\"]\n"), "{text}");
        assert!(!text.contains("[SetUp") && !text.contains("[FEN"), "{text}");
        assert!(text.contains("[Termination \"time forfeit\"]\n"), "{text}");
        assert!(text.contains("{a time forfeit (160 ms)} 0-1\n"), "{text}");
        assert!(text.contains("\n\n1. "), "{text}");
        for (ending, word) in [
            (Ending::Rules, "normal"),
            (Ending::Adjudication, "adjudication"),
            (Ending::IllegalMove, "rules infraction"),
            (Ending::Unparsable, "rules infraction"),
            (Ending::SetupRefused, "rules infraction"),
            (Ending::Crash, "abandoned"),
            (Ending::Handshake, "abandoned"),
            (Ending::Start, "abandoned"),
            (Ending::Resignation, "normal"),
        ] {
            rec.ending = Some(ending);
            let text = format::<Position>(&rec, &PgnStyle::default());
            assert!(
                text.contains(&format!("[Termination \"{word}\"]\n")),
                "{ending:?}: {text}"
            );
        }
        // From a FEN at fullmove 12, x to move: `12.`, then `13.`; o to move: `12...`.
        rec.fen = "x5o/7/7/7/7/7/o5x x 0 12".into();
        let text = format::<Position>(&rec, &PgnStyle::default());
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"x5o/7/7/7/7/7/o5x x 0 12\"]"));
        let movetext = text.lines().rfind(|l| !l.is_empty()).unwrap_or_default();
        assert!(
            movetext.starts_with("12. ") && movetext.contains(" 13. "),
            "{text}"
        );
        rec.fen = "x5o/7/7/7/7/7/o5x o 0 12".into();
        let text = format::<Position>(&rec, &PgnStyle::default());
        assert!(text.contains("\n\n12... "), "{text}");
        // A FEN without counters (Reversi's) numbers from 1.
        assert_eq!(fen_fullmove_number("8/8/8/3ox3/3xo3/8/8/8 x"), 1);
        assert_eq!(fen_fullmove_number("x5o/7/7/7/7/7/o5x x 3 40"), 40);
        assert_eq!(fen_fullmove_number("x5o/7/7/7/7/7/o5x x 0 0"), 1);
    }

    #[test]
    fn time_control_tags() {
        use crate::engines::player::TimeControl;
        let tc = |moves, base_ms, inc_ms| Limits {
            tc: Some(TimeControl {
                moves,
                base_ms,
                inc_ms,
            }),
            ..Limits::default()
        };
        assert_eq!(time_control(&tc(Some(40), 60_000, 600)), "40/60+0.6");
        assert_eq!(time_control(&tc(None, 2_000, 50)), "2+0.05");
        assert_eq!(time_control(&tc(None, 90_500, 0)), "90.5");
        let st = Limits {
            movetime_ms: Some(500),
            ..Limits::default()
        };
        assert_eq!(time_control(&st), "0.5/move");
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(time_control(&depth), "-");
        let rec = long_record(1, 4);
        let mut style = PgnStyle::default();
        style.time_controls.insert("a".into(), "2+0.05".into());
        style.time_controls.insert("b".into(), "2+0.05".into());
        let text = format::<Position>(&rec, &style);
        assert!(text.contains("[TimeControl \"2+0.05\"]\n"), "{text}");
        style.time_controls.insert("b".into(), "0.5/move".into());
        let text = format::<Position>(&rec, &style);
        assert!(
            text.contains("[BlackTimeControl \"2+0.05\"]\n[WhiteTimeControl \"0.5/move\"]\n"),
            "{text}"
        );
        style.min = true;
        assert!(!format::<Position>(&rec, &style).contains("TimeControl"));
        // Per-move comments, cutechess style; none in the minimal form.
        let text = format::<Position>(&rec, &PgnStyle::default());
        assert!(
            text.contains(&format!(
                "1. {} {{-0.20/0 0.01s}} {} {{0.011s}} 2. {} {{-0.18/2 0.012s}}",
                rec.moves[0], rec.moves[1], rec.moves[2]
            )),
            "{text}"
        );
        assert!(!format::<Position>(&rec, &style).contains("0.01s"));
    }

    /// A game of `plies` random legal moves from the start, as the referee records it.
    fn long_record(id: u64, plies: usize) -> GameRecord {
        let mut pos = Position::startpos(engine::games::ataxx::Rules::Uai);
        let mut rng = engine::rng::SplitMix64::new(id);
        let mut moves = Vec::new();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let legal = pos.legal_moves();
            let mv = *rng.choose(&legal).unwrap();
            moves.push(pos.move_name(mv));
            pos.make_move(mv);
        }
        // A UCI engine's report on even plies, time only on odd ones.
        let info = (0..moves.len())
            .map(|ply| MoveInfo {
                ms: 10 * id + ply as u64,
                depth: (ply % 2 == 0).then_some(ply as u32),
                cp: (ply % 2 == 0).then_some(ply as i32 - 20),
                mate: None,
                ..MoveInfo::default()
            })
            .collect();
        GameRecord {
            id,
            fen: Position::startpos(engine::games::ataxx::Rules::Uai).fen(),
            reason: "adjudication: {curly} (and parentheses); 1-0".into(),
            info,
            moves,
            date: "2024.01.02".into(),
            ..record()
        }
    }

    #[test]
    fn games_read_back_whole_one_movetext_line_each() {
        // Defect 12 of the new-user report: movetext wrapped at 79 columns was read by
        // the `ataxx` Python package as a main line plus variations, so long games came
        // back cut. Every game must read back whole by those rules.
        let recs: Vec<GameRecord> = (0..20)
            .map(|id| long_record(id, 40 + 10 * id as usize))
            .collect();
        let text: String = recs
            .iter()
            .map(|r| format::<Position>(r, &PgnStyle::default()))
            .collect();
        for reader in [read_one_line, read] {
            let games = reader(&text).unwrap();
            assert_eq!(games.len(), recs.len());
            for (g, r) in games.iter().zip(&recs) {
                assert_eq!(g.moves, r.moves, "game {} cut", r.id);
                assert_eq!(g.result.as_deref(), Some(r.result.as_str()));
                assert_eq!(g.tag("Result"), Some(r.result.as_str()));
                assert_eq!(g.tag("PlyCount"), Some(r.moves.len().to_string().as_str()));
                // None from the start position, as the standard says.
                assert_eq!(g.tag("FEN"), None);
            }
        }
    }

    #[test]
    fn reader_skips_comments_variations_and_nags() {
        let text = "[Event \"e \\\"q\\\"\"]\n[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]\n\n\
                    1. f2 {a comment\nover two lines} g6 $2 (2. a7c5 (2... b1)) 2.b6! a1a3?!\n\
                    ; a line comment\n% escape\n3... g1 1-0\n\n[Event \"two\"]\n1. g2 *\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("e \"q\""));
        assert_eq!(games[0].moves, ["f2", "g6", "b6", "a1a3", "g1"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["g2"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        // By the one-line rules only the first movetext line is the main line.
        let one = read_one_line("[Event \"x\"]\n\n1. f2 g6\n2. b6 a1a3 1-0\n").unwrap();
        assert_eq!(one[0].moves, ["f2", "g6"]);
        assert!(read("1. f2 ) g6").is_err());
        assert!(read("1. f2 {open").is_err());
    }
}

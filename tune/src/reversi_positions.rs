//! Labelled Reversi positions from game records: `tune reversi-extract`.
//!
//! The midgame evaluation learns best from positions whose value is known exactly or
//! nearly so (issue 51). Two public game bases carry such values as facts:
//!
//! - the FFO's WTHOR base (`.wtb` files: a 16-byte header, then 68-byte records: three
//!   u16 numbers, Black's final discs as played, Black's discs under perfect play from
//!   the position with P3 (header byte 14, 24 in every file) empty squares — the
//!   "theoretical score" — and 60 move bytes `10 × row + column`, 0 after the last
//!   move; passes are not written, the side to move is the one with a legal move);
//! - Logistello's book games (`.gam` text, one game a line: `+d3-c3…: RESULT N`, `+`
//!   Black, `-` White, RESULT Black's final disc difference), played to the end by the
//!   program, whose result equals the exact value from about 20 empties on.
//!
//! Each game is replayed with our rules (a game with an illegal move, or one that does
//! not end as recorded, is rejected and counted), and each position on its line is
//! kept once: positions equal under the board's 8 symmetries, seen from the side to
//! move, are one position. A position gets the record's label where the record knows
//! its value — `wthor-24` (the theoretical score, at the position with P3 empties),
//! `logistello-result` (the game's result, at `--gam-exact` empties or fewer; and with
//! `--wthor-line N`, `wthor-24-line`: the theoretical score for the N positions before
//! it, a label as noisy as the players' play from there to 24 empties) — and is
//! written without a label otherwise, for `tune reversi-label` to label.
//!
//! Positions file (text, one position a line, what `tune reversi-label` writes and
//! `tune reversi-eval` reads): the position in OBF form (64 squares a1…h8, `X` black,
//! `O` white, `-` empty; a blank; the side to move), then for a labelled position ` ; `,
//! the label (the final disc difference for the side to move, in discs; a fraction for
//! a search's value) and the label's source (`exact-solve`, `wthor-24`,
//! `logistello-result`, `search-depth-N`, …). Lines starting with `#` are comments. The
//! OBF part is what `reversi solve` reads, so the same file can be solved directly.

use engine::game::Side;
use engine::games::reversi::pattern::orient;
use engine::games::reversi::{Move, Position};
use engine::rng::SplitMix64;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The key of a position for deduplication: the smallest of its 8 symmetric images,
/// seen from the side to move (so the same discs with colours swapped and the other
/// side to move are the same position: the evaluation sees only own and opponent).
pub fn canonical(own: u64, opp: u64) -> u128 {
    (0..8)
        .map(|k| u128::from(orient(own, k)) << 64 | u128::from(orient(opp, k)))
        .min()
        .expect("8 images")
}

/// A position's label: the final disc difference for the side to move, and where it
/// came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub value: f32,
    pub source: String,
}

/// One line of a positions file.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub pos: Position,
    pub label: Option<Label>,
}

impl Entry {
    /// The line (without the newline).
    pub fn line(&self) -> String {
        let mut s = self.pos.to_obf();
        if let Some(l) = &self.label {
            if l.value.fract() == 0.0 {
                let _ = write!(s, " ; {:+} {}", l.value as i32, l.source);
            } else {
                let _ = write!(s, " ; {:+.2} {}", l.value, l.source);
            }
        }
        s
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        self.pos.empty().count_ones()
    }
}

/// Reads a positions file. A bad line is an error naming it.
pub fn parse_positions(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

/// One non-empty, non-comment line.
pub fn parse_line(line: &str) -> Result<Entry, String> {
    let pos = Position::from_obf(line).map_err(|e| format!("{e:?}"))?;
    let label = match line.split_once(';') {
        None => None,
        Some((_, rest)) => {
            let mut f = rest.split_whitespace();
            match (f.next(), f.next(), f.next()) {
                (None, _, _) => None,
                (Some(v), Some(src), None) => {
                    let value: f32 = v.parse().map_err(|_| format!("bad label {v:?}"))?;
                    if !value.is_finite() || value.abs() > 64.0 {
                        return Err(format!("label {v} outside -64..=64"));
                    }
                    Some(Label {
                        value,
                        source: src.to_string(),
                    })
                }
                _ => return Err("a label is ` ; VALUE SOURCE`".into()),
            }
        }
    };
    Ok(Entry { pos, label })
}

/// One game of a record base: its moves (squares 0–63, passes left out) and what the
/// record says of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordGame {
    pub moves: Vec<u8>,
    /// WTHOR: (empties, Black's final disc difference with perfect play from there).
    pub exact_at: Option<(u32, i32)>,
    /// Black's final disc difference as recorded (WTHOR's real score, the `.gam` result).
    pub result: i32,
}

/// Reads a WTHOR game file (`.wtb`).
pub fn read_wtb(bytes: &[u8]) -> Result<Vec<RecordGame>, String> {
    const HEADER: usize = 16;
    const RECORD: usize = 68;
    if bytes.len() < HEADER {
        return Err("shorter than a WTHOR header".into());
    }
    let n = u32::from_le_bytes(bytes[4..8].try_into().expect("4")) as usize;
    let (size, kind, depth) = (bytes[12], bytes[13], u32::from(bytes[14]));
    if !(size == 0 || size == 8) || kind != 0 {
        return Err(format!("not an 8x8 game file (board {size}, kind {kind})"));
    }
    if !(1..=60).contains(&depth) {
        return Err(format!("theoretical score depth {depth}"));
    }
    if bytes.len() != HEADER + n * RECORD {
        return Err(format!(
            "{} bytes, a header for {n} games of {RECORD} bytes wants {}",
            bytes.len(),
            HEADER + n * RECORD
        ));
    }
    let mut games = Vec::with_capacity(n);
    for (g, r) in bytes[HEADER..].chunks_exact(RECORD).enumerate() {
        let mut moves = Vec::new();
        for &m in &r[8..] {
            if m == 0 {
                break;
            }
            let (row, col) = (m / 10, m % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                return Err(format!("game {g}: move byte {m}"));
            }
            moves.push((row - 1) * 8 + col - 1);
        }
        let (real, theory) = (i32::from(r[6]), i32::from(r[7]));
        if real > 64 || theory > 64 {
            return Err(format!("game {g}: score {real} / {theory}"));
        }
        games.push(RecordGame {
            moves,
            exact_at: Some((depth, 2 * theory - 64)),
            result: 2 * real - 64,
        });
    }
    Ok(games)
}

/// Reads one game line of a Logistello `.gam` file: `+d3-c3…: RESULT N`.
pub fn parse_gam_line(line: &str) -> Result<RecordGame, String> {
    let (moves_text, rest) = line.split_once(':').ok_or("no ':' after the moves")?;
    let result: i32 = rest
        .split_whitespace()
        .next()
        .and_then(|r| r.parse().ok())
        .filter(|r: &i32| r.abs() <= 64)
        .ok_or("no result after ':'")?;
    let b = moves_text.trim().as_bytes();
    if b.len() % 3 != 0 {
        return Err("moves are `+d3` or `-c3`".into());
    }
    let mut moves = Vec::with_capacity(b.len() / 3);
    for m in b.chunks_exact(3) {
        let (sign, col, row) = (m[0], m[1].to_ascii_lowercase(), m[2]);
        if !(sign == b'+' || sign == b'-')
            || !(b'a'..=b'h').contains(&col)
            || !(b'1'..=b'8').contains(&row)
        {
            return Err(format!("bad move {:?}", String::from_utf8_lossy(m)));
        }
        // The colour signs are checked by the replay: the side to move is the one with
        // a legal move, as in WTHOR.
        moves.push((row - b'1') * 8 + (col - b'a'));
    }
    Ok(RecordGame {
        moves,
        exact_at: None,
        result,
    })
}

/// Replays a game's moves from the start: the positions before each move (the side
/// to move has a legal move in each; a pass is made where the side to move has none),
/// then the final position. An illegal move is an error.
pub fn replay(moves: &[u8]) -> Result<Vec<Position>, String> {
    let mut pos = Position::startpos();
    let mut out = Vec::with_capacity(moves.len() + 1);
    for (k, &sq) in moves.iter().enumerate() {
        if pos.move_mask() == 0 {
            if pos.is_over() {
                return Err(format!("move {} after the end of the game", k + 1));
            }
            pos.make_move(Move::PASS);
        }
        let mv = Move::place(sq);
        if !pos.is_legal(mv) {
            return Err(format!("move {} ({sq}) is illegal", k + 1));
        }
        out.push(pos.clone());
        pos.make_move(mv);
    }
    if pos.move_mask() == 0 && !pos.is_over() {
        pos.make_move(Move::PASS);
    }
    out.push(pos);
    Ok(out)
}

/// `tune reversi-extract`'s settings.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    pub wthor: Vec<String>,
    pub gam: Vec<String>,
    pub out: String,
    /// Positions with this many empties are written.
    pub empties: (u32, u32),
    /// A `.gam` game's result labels its positions with this many empties or fewer.
    pub gam_exact: u32,
    /// Those labels are the book's negamax value (`logistello-book`), not the result of
    /// the first game met through the position.
    pub gam_book: bool,
    /// A WTHOR position up to this many empties before the one with the theoretical
    /// score gets that score too (`wthor-24-line`: what the players made of it, as
    /// self-play labels are, but exact from 24 empties on), 0 none.
    pub wthor_line: u32,
    /// Only the positions with a record label.
    pub labelled_only: bool,
    /// At most this many positions of each game (chosen at random), 0 all.
    pub per_game: usize,
    /// Per position on the line, this many positions one random other move off it.
    pub offline: usize,
    /// Positions in these files (by key) are not written: the yardstick stays unseen.
    pub exclude: Vec<String>,
    /// Only games whose number (within all the games read, in order) ≡ r mod m.
    pub games_mod: Option<(usize, usize)>,
    pub seed: u64,
}

/// `tune reversi-extract [--wthor FILE...] [--gam FILE...] [--empties LO-HI]
/// [--gam-exact E] [--gam-book] [--wthor-line N] [--labelled-only] [--per-game N] [--offline N] [--exclude FILE]
/// [--games-mod R/M] [--seed S] --out FILE`.
pub fn parse_extract_args(args: &[&str]) -> Option<ExtractOptions> {
    let mut o = ExtractOptions {
        wthor: Vec::new(),
        gam: Vec::new(),
        out: String::new(),
        empties: (1, 60),
        gam_exact: 20,
        gam_book: false,
        wthor_line: 0,
        labelled_only: false,
        per_game: 0,
        offline: 0,
        exclude: Vec::new(),
        games_mod: None,
        seed: 1,
    };
    // The files after `--wthor` or `--gam` (true: WTHOR), until the next option.
    let mut list: Option<bool> = None;
    let mut args = args.iter().copied();
    while let Some(a) = args.next() {
        let mut value = || args.next();
        match a {
            "--wthor" | "--gam" => {
                list = Some(a == "--wthor");
                continue;
            }
            "--labelled-only" => o.labelled_only = true,
            "--gam-book" => o.gam_book = true,
            "--out" => o.out = value()?.to_string(),
            "--empties" => {
                let (lo, hi) = value()?.split_once('-')?;
                o.empties = (lo.parse().ok()?, hi.parse().ok()?);
                if o.empties.0 > o.empties.1 || o.empties.1 > 60 {
                    return None;
                }
            }
            "--gam-exact" => o.gam_exact = value()?.parse().ok().filter(|&e| e <= 60)?,
            "--wthor-line" => o.wthor_line = value()?.parse().ok().filter(|&e| e <= 60)?,
            "--per-game" => o.per_game = value()?.parse().ok()?,
            "--offline" => o.offline = value()?.parse().ok().filter(|&n| n <= 8)?,
            "--exclude" => o.exclude.push(value()?.to_string()),
            "--games-mod" => {
                let (r, m) = value()?.split_once('/')?;
                let (r, m): (usize, usize) = (r.parse().ok()?, m.parse().ok()?);
                if m == 0 || r >= m {
                    return None;
                }
                o.games_mod = Some((r, m));
            }
            "--seed" => o.seed = value()?.parse().ok()?,
            f if !f.starts_with("--") => {
                match list? {
                    true => o.wthor.push(f.to_string()),
                    false => o.gam.push(f.to_string()),
                }
                continue;
            }
            _ => return None,
        }
        list = None;
    }
    let has_games = !(o.wthor.is_empty() && o.gam.is_empty());
    (!o.out.is_empty() && has_games).then_some(o)
}

/// What an extraction found, for its report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ExtractStats {
    pub games: usize,
    pub rejected: usize,
    /// Games whose replayed end differs from the recorded result (kept: the labels
    /// come from the replay where the record's own figure is unsure).
    pub result_differs: usize,
    pub seen: usize,
    pub written: usize,
    pub labelled: usize,
    /// Positions met again with a different record label (the first one kept).
    pub conflicts: usize,
    pub excluded: usize,
}

/// Which base a game comes from: what its record says of its positions' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Wthor,
    Gam,
}

/// The book value of every position on the `.gam` games' lines, for its side to move:
/// the negamax over the continuations the games play from it, each game's end its
/// result. A position on a book trunk is met in thousands of games (a book explores
/// alternatives, good and bad, and plays each out); the result of whichever game came
/// first is one of those playouts, while the negamax is what the book itself says the
/// position is worth with best play among the lines it knows.
pub fn book_values(games: &[&RecordGame]) -> HashMap<u128, i32> {
    /// A position's continuations in the book: (key, whether the side to move changes).
    #[derive(Default)]
    struct Node {
        next: Vec<(u128, bool)>,
        end: Option<i32>,
    }
    let mut nodes: HashMap<u128, Node> = HashMap::new();
    for game in games {
        let Ok(positions) = replay(&game.moves) else {
            continue;
        };
        if !positions.last().is_some_and(Position::is_over) {
            continue;
        }
        let key = |p: &Position| canonical(p.own(), p.opp());
        for w in positions.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let edge = (key(b), a.side_to_move() != b.side_to_move());
            let next = &mut nodes.entry(key(a)).or_default().next;
            if !next.contains(&edge) {
                next.push(edge);
            }
        }
        let last = positions.last().expect("a finished game");
        let sign = if last.side_to_move() == Side::First {
            1
        } else {
            -1
        };
        nodes.entry(key(last)).or_default().end = Some(sign * last.final_margin());
    }
    // Children have fewer empties or (a pass) the same discs: the recursion ends, and is
    // at most about 70 deep.
    fn value(k: u128, nodes: &HashMap<u128, Node>, memo: &mut HashMap<u128, i32>) -> i32 {
        if let Some(&v) = memo.get(&k) {
            return v;
        }
        let node = &nodes[&k];
        let v = match node.end {
            Some(v) => v,
            None => node
                .next
                .iter()
                .map(|&(c, flips)| {
                    let v = value(c, nodes, memo);
                    if flips {
                        -v
                    } else {
                        v
                    }
                })
                .max()
                .expect("a position inside a game has a continuation"),
        };
        memo.insert(k, v);
        v
    }
    let mut memo = HashMap::with_capacity(nodes.len());
    for &k in nodes.keys() {
        value(k, &nodes, &mut memo);
    }
    memo
}

/// The positions of `games`, deduplicated, in first-seen order, with the labels their
/// records give them.
pub fn collect(
    games: &[(RecordGame, Base)],
    o: &ExtractOptions,
    exclude: &std::collections::HashSet<u128>,
) -> (Vec<Entry>, ExtractStats) {
    let mut stats = ExtractStats::default();
    let mut index: HashMap<u128, usize> = HashMap::new();
    let mut out: Vec<Entry> = Vec::new();
    let mut rng = SplitMix64::new(o.seed);
    let in_range = |e: u32| (o.empties.0..=o.empties.1).contains(&e);
    let book = o.gam_book.then(|| {
        let gam: Vec<&RecordGame> = games
            .iter()
            .enumerate()
            .filter(|(n, (_, kind))| {
                *kind == Base::Gam && o.games_mod.is_none_or(|(r, m)| n % m == r)
            })
            .map(|(_, (g, _))| g)
            .collect();
        book_values(&gam)
    });
    for (n, (game, kind)) in games.iter().enumerate() {
        if o.games_mod.is_some_and(|(r, m)| n % m != r) {
            continue;
        }
        stats.games += 1;
        let positions = match replay(&game.moves) {
            Ok(p) => p,
            Err(_) => {
                stats.rejected += 1;
                continue;
            }
        };
        let last = positions.last().expect("the final position");
        let finished = last.is_over();
        if *kind == Base::Gam && !finished {
            // A book line cut before the end has no result to label with.
            stats.rejected += 1;
            continue;
        }
        let black_result = if finished {
            // Black's discs minus White's, the empties to the winner.
            let black = last.final_margin();
            if black != game.result {
                stats.result_differs += 1;
            }
            Some(black)
        } else {
            None
        };
        let mut candidates: Vec<Entry> = Vec::new();
        for (i, pos) in positions[..positions.len() - 1].iter().enumerate() {
            let e = pos.empty().count_ones();
            let sign = if pos.side_to_move() == Side::First {
                1
            } else {
                -1
            };
            let label = match (*kind, game.exact_at) {
                (Base::Wthor, Some((at, v))) if at == e => Some(Label {
                    value: (sign * v) as f32,
                    source: format!("wthor-{at}"),
                }),
                (Base::Wthor, Some((at, v))) if at < e && e <= at + o.wthor_line => Some(Label {
                    value: (sign * v) as f32,
                    source: format!("wthor-{at}-line"),
                }),
                (Base::Gam, _) if e <= o.gam_exact => match &book {
                    Some(values) => Some(Label {
                        value: values[&canonical(pos.own(), pos.opp())] as f32,
                        source: "logistello-book".into(),
                    }),
                    None => black_result.map(|b| Label {
                        value: (sign * b) as f32,
                        source: "logistello-result".into(),
                    }),
                },
                _ => None,
            };
            if in_range(e) && (label.is_some() || !o.labelled_only) {
                candidates.push(Entry {
                    pos: pos.clone(),
                    label,
                });
            }
            // Off the line (positions the search meets that good play avoids): a
            // random legal move other than the game's, and the position after it.
            if o.offline > 0 && !o.labelled_only && in_range(e.saturating_sub(1)) {
                let played = Move::place(game.moves[i]);
                let moves: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| m != played)
                    .collect();
                for _ in 0..o.offline.min(moves.len()) {
                    let mut p = pos.clone();
                    p.make_move(moves[rng.below(moves.len())]);
                    if p.move_mask() == 0 && !p.is_over() {
                        p.make_move(Move::PASS);
                    }
                    if !p.is_over() {
                        candidates.push(Entry {
                            pos: p,
                            label: None,
                        });
                    }
                }
            }
        }
        if o.per_game > 0 && candidates.len() > o.per_game {
            // A random subset, in game order; labelled positions first in line.
            let mut keep: Vec<usize> = (0..candidates.len()).collect();
            for i in 0..o.per_game {
                let j = i + rng.below(keep.len() - i);
                keep.swap(i, j);
            }
            keep.truncate(o.per_game);
            keep.sort_unstable();
            candidates = keep.into_iter().map(|i| candidates[i].clone()).collect();
        }
        for c in candidates {
            stats.seen += 1;
            let key = canonical(c.pos.own(), c.pos.opp());
            if exclude.contains(&key) {
                stats.excluded += 1;
                continue;
            }
            match index.get(&key) {
                None => {
                    index.insert(key, out.len());
                    out.push(c);
                }
                Some(&i) => match (&out[i].label, c.label) {
                    (None, Some(l)) => out[i].label = Some(l),
                    (Some(a), Some(b)) if a.value != b.value => stats.conflicts += 1,
                    _ => {}
                },
            }
        }
    }
    stats.written = out.len();
    stats.labelled = out.iter().filter(|e| e.label.is_some()).count();
    (out, stats)
}

/// The keys of every position in positions files.
pub fn keys_of(files: &[String]) -> Result<std::collections::HashSet<u128>, String> {
    let mut keys = std::collections::HashSet::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for e in parse_positions(&text).map_err(|e| format!("{f}: {e}"))? {
            keys.insert(canonical(e.pos.own(), e.pos.opp()));
        }
    }
    Ok(keys)
}

/// `tune reversi-extract`.
pub fn extract(o: &ExtractOptions) -> Result<(), String> {
    let mut games: Vec<(RecordGame, Base)> = Vec::new();
    for f in &o.wthor {
        let bytes = std::fs::read(f).map_err(|e| format!("{f}: {e}"))?;
        games.extend(
            read_wtb(&bytes)
                .map_err(|e| format!("{f}: {e}"))?
                .into_iter()
                .map(|g| (g, Base::Wthor)),
        );
    }
    let mut bad_lines = 0;
    for f in &o.gam {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match parse_gam_line(line) {
                Ok(g) => games.push((g, Base::Gam)),
                Err(_) => bad_lines += 1,
            }
        }
    }
    let exclude = keys_of(&o.exclude)?;
    let (entries, s) = collect(&games, o, &exclude);
    let mut text = String::with_capacity(entries.len() * 80);
    for e in &entries {
        text.push_str(&e.line());
        text.push('\n');
    }
    std::fs::write(&o.out, text).map_err(|e| format!("{}: {e}", o.out))?;
    eprintln!(
        "{} games read ({bad_lines} unreadable .gam lines), {} rejected (illegal or unfinished), \
         {} ending otherwise than recorded; {} positions seen, {} excluded, {} written to {} \
         ({} labelled, {} conflicting labels)",
        s.games,
        s.rejected,
        s.result_differs,
        s.seen,
        s.excluded,
        s.written,
        o.out,
        s.labelled,
        s.conflicts
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn wtb(records: &[(u8, u8, &[u8])]) -> Vec<u8> {
        let mut b = vec![20, 21, 1, 1];
        b.extend_from_slice(&(records.len() as u32).to_le_bytes());
        b.extend_from_slice(&[0, 0, 0xB9, 0x07, 8, 0, 24, 0]);
        for (real, theory, moves) in records {
            b.extend_from_slice(&[1, 0, 2, 0, 3, 0, *real, *theory]);
            let mut m = moves.to_vec();
            m.resize(60, 0);
            b.extend_from_slice(&m);
        }
        b
    }

    #[test]
    fn symmetric_images_and_colour_swaps_share_a_key() {
        let mut p = Position::startpos();
        p.make_move(Move::place(19)); // d3
        let d3 = canonical(p.own(), p.opp());
        for sq in [26, 37, 44] {
            // c4, f5, e6: the other three first moves are its images.
            let mut q = Position::startpos();
            q.make_move(Move::place(sq));
            assert_eq!(canonical(q.own(), q.opp()), d3);
        }
        assert_ne!(canonical(p.opp(), p.own()), d3);
    }

    #[test]
    fn a_wthor_record_replays_and_labels_its_24_empty_position() {
        // The first game of WTH_1977.wtb (real score 34, theoretical 41).
        let moves = [
            0x38, 0x40, 0x21, 0x24, 0x2e, 0x22, 0x2b, 0x43, 0x42, 0x41, 0x35, 0x3f, 0x4a, 0x54,
            0x4b, 0x39, 0x23, 0x18, 0x2f, 0x26, 0x4c, 0x34, 0x3a, 0x25, 0x2a, 0x3e, 0x53, 0x52,
            0x49, 0x55, 0x56, 0x57, 0x30, 0x44, 0x19, 0x0e, 0x0d, 0x1f, 0x3d, 0x33, 0x0f, 0x1a,
            0x4d, 0x17, 0x29, 0x58, 0x15, 0x48, 0x10, 0x20, 0x0c, 0x16, 0x4e, 0x47, 0x51, 0x0b,
            0x11, 0x1b, 0x1c, 0x12,
        ];
        let bytes = wtb(&[(34, 41, &moves), (32, 32, &[0x38, 0x38])]);
        let games = read_wtb(&bytes).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].exact_at, Some((24, 18)));
        assert_eq!(games[0].result, 4);
        assert_eq!(games[0].moves[0], 4 * 8 + 5); // f5
        let o = parse_extract_args(&["--wthor", "x", "--out", "y", "--empties", "20-30"]).unwrap();
        let tagged: Vec<_> = games.into_iter().map(|g| (g, Base::Wthor)).collect();
        let (entries, stats) = collect(&tagged, &o, &Default::default());
        // The second game plays f5 twice: rejected.
        assert_eq!(
            (stats.games, stats.rejected, stats.result_differs),
            (2, 1, 0)
        );
        assert_eq!(entries.len(), 11);
        let labelled: Vec<&Entry> = entries.iter().filter(|e| e.label.is_some()).collect();
        assert_eq!(labelled.len(), 1);
        let e = labelled[0];
        assert_eq!(e.empties(), 24);
        let sign = if e.pos.side_to_move() == Side::First {
            1.0
        } else {
            -1.0
        };
        assert_eq!(e.label.as_ref().unwrap().value, sign * 18.0);
        // The line reads back as written, and `reversi solve` reads its OBF part.
        let back = parse_line(&e.line()).unwrap();
        assert_eq!(&back, e);
        assert!(e.line().ends_with(" wthor-24"));
        // --wthor-line 3: the three positions before it carry the same value.
        let args = [
            "--wthor",
            "x",
            "--out",
            "y",
            "--empties",
            "20-30",
            "--wthor-line",
            "3",
        ];
        let line = parse_extract_args(&args).unwrap();
        let (entries, _) = collect(&tagged, &line, &Default::default());
        for e in &entries {
            let sign = if e.pos.side_to_move() == Side::First {
                1.0
            } else {
                -1.0
            };
            let want = match e.empties() {
                24 => Some((sign * 18.0, "wthor-24")),
                25..=27 => Some((sign * 18.0, "wthor-24-line")),
                _ => None,
            };
            let got = e.label.as_ref().map(|l| (l.value, l.source.as_str()));
            assert_eq!(got, want, "{}", e.line());
        }
        // Truncated files and bad move bytes are errors.
        assert!(read_wtb(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        bad[16 + 8] = 99;
        assert!(read_wtb(&bad).is_err());
    }

    #[test]
    fn book_values_are_the_negamax_of_the_lines() {
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";
        let a = parse_gam_line(line).unwrap();
        // A second game: the first 10 moves of `a`, then another move, then the
        // lowest-numbered legal square each turn to the end.
        let mut moves = a.moves[..10].to_vec();
        let mut pos = replay(&moves).unwrap().pop().unwrap();
        while !pos.is_over() {
            let mask = pos.move_mask();
            if mask == 0 {
                pos.make_move(Move::PASS);
                continue;
            }
            let mut sq = mask.trailing_zeros() as u8;
            if moves.len() == 10 && sq == a.moves[10] {
                sq = (mask & (mask - 1)).trailing_zeros() as u8;
            }
            moves.push(sq);
            pos.make_move(Move::place(sq));
        }
        let b = RecordGame {
            moves,
            exact_at: None,
            result: pos.final_margin(),
        };
        assert_ne!(a.result, b.result, "the two lines end differently");
        let values = book_values(&[&a, &b]);
        let key = |p: &Position| canonical(p.own(), p.opp());
        let (pa, pb) = (replay(&a.moves).unwrap(), replay(&b.moves).unwrap());
        // Where the lines part, the side to move takes the better end for itself.
        let fork = &pa[10];
        let for_mover = |p: &Position, black: i32| {
            if p.side_to_move() == Side::First {
                black
            } else {
                -black
            }
        };
        let best = for_mover(fork, a.result).max(for_mover(fork, b.result));
        assert_eq!(values[&key(fork)], best);
        // Before the fork every position has that value for its own side, and after it
        // each line's positions have their own game's result.
        for p in &pa[..10] {
            let fork_black = for_mover(fork, best);
            assert_eq!(values[&key(p)], for_mover(p, fork_black));
        }
        for (line, black) in [(&pa, a.result), (&pb, b.result)] {
            for p in &line[12..] {
                assert_eq!(values[&key(p)], for_mover(p, black), "{p:?}");
            }
        }
        // --gam-book labels with those values, every position of both games.
        let o = parse_extract_args(&[
            "--gam",
            "x",
            "--gam-book",
            "--gam-exact",
            "60",
            "--out",
            "y",
        ])
        .unwrap();
        let (entries, stats) = collect(&[(a, Base::Gam), (b, Base::Gam)], &o, &Default::default());
        assert_eq!(stats.conflicts, 0);
        for e in &entries {
            let l = e.label.as_ref().expect("every position labelled");
            assert_eq!(l.source, "logistello-book");
            assert_eq!(l.value, values[&key(&e.pos)] as f32);
        }
    }

    #[test]
    fn gam_lines_replay_with_implicit_passes_and_dedup_by_symmetry() {
        // Logistello's first book game; its result -4 is the replayed end.
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";
        let g = parse_gam_line(line).unwrap();
        assert_eq!((g.moves.len(), g.result), (60, -4));
        // The same game mirrored (d3 → c4 …: transposed) is the same positions.
        let t: Vec<u8> = g.moves.iter().map(|&s| (s % 8) * 8 + s / 8).collect();
        let mirrored = RecordGame {
            moves: t,
            ..g.clone()
        };
        let o = parse_extract_args(&["--gam", "x", "--out", "y", "--gam-exact", "20"]).unwrap();
        let (entries, stats) = collect(
            &[(g.clone(), Base::Gam), (mirrored, Base::Gam)],
            &o,
            &Default::default(),
        );
        assert_eq!(
            (stats.rejected, stats.result_differs, stats.conflicts),
            (0, 0, 0)
        );
        assert_eq!(stats.seen, 120);
        assert_eq!(entries.len(), 60);
        for e in &entries {
            let l = e.label.as_ref();
            assert_eq!(l.is_some(), e.empties() <= 20, "{}", e.line());
            if let Some(l) = l {
                let sign = if e.pos.side_to_move() == Side::First {
                    1.0
                } else {
                    -1.0
                };
                assert_eq!(
                    (l.value, l.source.as_str()),
                    (sign * -4.0, "logistello-result")
                );
            }
        }
        // An illegal move is rejected and counted; a malformed line is an error.
        let mut bad = g.clone();
        bad.moves[1] = 0;
        let (_, s) = collect(&[(bad, Base::Gam)], &o, &Default::default());
        assert_eq!(s.rejected, 1);
        assert!(parse_gam_line("+d3-c9: +2 10").is_err());
        assert!(parse_gam_line("+d3-c3").is_err());
        // Excluded positions are left out; --labelled-only keeps only labelled ones;
        // --per-game limits each game.
        let keys = entries[..5]
            .iter()
            .map(|e| canonical(e.pos.own(), e.pos.opp()))
            .collect();
        let (rest, s) = collect(&[(g.clone(), Base::Gam)], &o, &keys);
        assert_eq!((rest.len(), s.excluded), (55, 5));
        let lo = parse_extract_args(&[
            "--gam",
            "x",
            "--labelled-only",
            "--out",
            "y",
            "--per-game",
            "7",
        ])
        .unwrap();
        let (few, _) = collect(&[(g.clone(), Base::Gam)], &lo, &Default::default());
        assert_eq!(few.len(), 7);
        assert!(few.iter().all(|e| e.label.is_some()));
        // --offline 1: beside each position on the line, one a random other move away,
        // unlabelled, and never a position of the line itself after that move.
        let off = parse_extract_args(&["--gam", "x", "--offline", "1", "--out", "y"]).unwrap();
        let (with, s) = collect(&[(g, Base::Gam)], &off, &Default::default());
        let line: HashSet<u128> = entries
            .iter()
            .map(|e| canonical(e.pos.own(), e.pos.opp()))
            .collect();
        let extra: Vec<&Entry> = with
            .iter()
            .filter(|e| !line.contains(&canonical(e.pos.own(), e.pos.opp())))
            .collect();
        assert!(extra.len() > 30, "{} off the line", extra.len());
        assert!(extra.iter().all(|e| e.label.is_none() && !e.pos.is_over()));
        assert_eq!(s.written, with.len());
    }

    #[test]
    fn positions_files_parse_and_refuse_bad_lines() {
        let text = "# comment\n\
            ---------------------------OX------XO--------------------------- X\n\
            ---------------------------OX------XO--------------------------- O ; -3.25 search-depth-12\n";
        let e = parse_positions(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].label, None);
        let l = e[1].label.as_ref().unwrap();
        assert_eq!((l.value, l.source.as_str()), (-3.25, "search-depth-12"));
        assert_eq!(parse_line(&e[1].line()).unwrap(), e[1]);
        for bad in [
            "---------------------------OX------XO--------------------------- X ; 3",
            "---------------------------OX------XO--------------------------- X ; x exact",
            "---------------------------OX------XO--------------------------- X ; 99 exact",
            "--- X",
        ] {
            let err = parse_positions(bad).unwrap_err();
            assert!(err.starts_with("line 1: "), "{err}");
        }
    }
}

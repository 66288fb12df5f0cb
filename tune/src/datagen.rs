//! `tune datagen`: self-play training data for Ataxx's window network
//! (`src/games/ataxx/network.rs`), made by the engine compiled into `tune` at a fixed
//! node count per move.
//!
//! Game `i` of a run is a function of `(SEED, i)` alone: its opening (`--plies` random
//! plies from the start, 4–8 unless told, after one or two random block pairs in
//! `--blocks` percent of the games), then both sides search `--nodes` nodes from a
//! fresh searcher. So a run can be cut and resumed: the file is read back, a cut last
//! record dropped, and only the games not in it are played. Games run on `--threads`
//! threads; each is written whole, in the order they finish.
//!
//! Adjudication: a proven score ends the game for the side it favours; a score of at
//! least [`ADJUDICATE_SCORE`] for the same side for [`ADJUDICATE_PLIES`] plies in a row
//! ends it too; [`MAX_PLIES`] plies is a draw. The 100-ply rule of UAI applies.
//!
//! File format (little-endian): `ATXDATA1`, then one record per game: `u32` game
//! index, `u64` first player's stones, `u64` second player's, `u64` blocks (of the
//! position after the opening), `u8` side to move (0 first), `u8` result (0 second
//! player won, 1 draw, 2 first won), `u16` plies, then per ply `u16` move
//! (`from·64 + to`, a single has `from = to`, the pass is `0xFFFF`) and `i16` search
//! score for the side to move (proven scores as the search reports them, ±30 000 − plies).
//! 4 bytes a position.

use super::games_file::{game_rng, play_all, records, u64_at, Record, Settings};
use engine::game::{Outcome, Side};
use engine::games::ataxx::block_squares;
use engine::games::ataxx::{Move, Position, Rules};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher, WIN};
use std::sync::atomic::AtomicBool;

/// File magic.
pub const MAGIC: &[u8; 8] = b"ATXDATA1";
/// Header bytes of one game record.
const GAME_HEADER: usize = 4 + 24 + 4;
/// A score this large for one side ...
pub const ADJUDICATE_SCORE: i32 = 2500;
/// ... this many plies in a row ends the game.
pub const ADJUDICATE_PLIES: usize = 6;
/// Games longer than this are drawn.
pub const MAX_PLIES: usize = 400;
/// Openings whose first search scores beyond this are replaced (lopsided starts teach
/// little): the default `--window`.
pub const OPENING_LIMIT: i32 = 600;
/// Transposition table of each thread's searcher.
const HASH_MIB: usize = 8;

/// One game of a data file.
pub struct Game {
    pub index: u32,
    pub start: Position,
    /// 2 first player won, 1 draw, 0 second player won.
    pub result: u8,
    pub plies: Vec<(Move, i16)>,
}

impl Game {
    /// The game's result for `side`: 1 win, 0.5 draw, 0 loss.
    pub fn result_for(&self, side: Side) -> f32 {
        let first = f32::from(self.result) / 2.0;
        match side {
            Side::First => first,
            Side::Second => 1.0 - first,
        }
    }
}

/// Reads the games of a data file's bytes; returns them and the length of the complete
/// part (a record cut by a kill is left out).
pub fn decode(bytes: &[u8]) -> Result<(Vec<Game>, usize), String> {
    let (records, len) = records(bytes, MAGIC, "an ataxx data file", GAME_HEADER, 4, |h| {
        usize::from(u16::from_le_bytes([h[30], h[31]]))
    })?;
    let mut games = Vec::with_capacity(records.len());
    for b in records {
        let index = u32::from_le_bytes(b[0..4].try_into().expect("4"));
        let (first, second, gaps) = (u64_at(b, 4), u64_at(b, 12), u64_at(b, 20));
        let side = if b[28] == 0 {
            Side::First
        } else {
            Side::Second
        };
        let result = b[29];
        let start = Position::from_parts(first, second, gaps, side, 0, 1, Rules::Uai)
            .map_err(|e| format!("game {index}: {e}"))?;
        if result > 2 {
            return Err(format!("game {index}: result {result}"));
        }
        let mut plies = Vec::new();
        for p in b[GAME_HEADER..].chunks_exact(4) {
            let code = u16::from_le_bytes([p[0], p[1]]);
            let score = i16::from_le_bytes([p[2], p[3]]);
            let mv = if code == 0xFFFF {
                Move::PASS
            } else {
                let (from, to) = ((code / 64) as u8, (code % 64) as u8);
                if from >= 49 || to >= 49 {
                    return Err(format!("game {index}: bad move code {code}"));
                }
                if from == to {
                    Move::single(to)
                } else {
                    Move::double(from, to)
                }
            };
            plies.push((mv, score));
        }
        games.push(Game {
            index,
            start,
            result,
            plies,
        });
    }
    Ok((games, len))
}

/// `tune datagen`'s settings.
pub struct Options {
    pub settings: Settings,
    pub blocks_percent: u32,
    /// Random plies of an opening, fewest and most. The engine is deterministic at a
    /// node count, so two games from the same opening are the same game; longer random
    /// openings repeat less and cover more of the board's shapes (Zataxx's data uses
    /// 14–17).
    pub plies: (u32, u32),
    /// An opening is kept only when the first move's search scores it within ±this
    /// (evaluation units; 100 = a piece), else it is redrawn (`--window`).
    pub window: i32,
}

/// The default `--plies`: the openings of every data file up to round 11.
pub const DEFAULT_PLIES: (u32, u32) = (4, 8);

/// `tune datagen --out FILE --games N [--nodes N] [--threads T] [--seed S] [--blocks P]
/// [--plies LO-HI] [--window W] [--seconds S] [--shard I/N|auto/N]`.
pub fn parse_args(args: &[&str]) -> Option<Options> {
    let mut blocks_percent = 10;
    let mut plies = DEFAULT_PLIES;
    let mut window = OPENING_LIMIT;
    let settings = Settings::parse(5000, args, |a| match a {
        ["--blocks", v, rest @ ..] => {
            blocks_percent = v.parse().ok().filter(|&p| p <= 100)?;
            Some(rest)
        }
        ["--plies", v, rest @ ..] => {
            let (lo, hi) = v.split_once('-')?;
            plies = (lo.parse().ok()?, hi.parse().ok()?);
            (plies.0 <= plies.1 && plies.1 <= 40).then_some(rest)
        }
        ["--window", v, rest @ ..] => {
            window = v.parse().ok().filter(|w| (1..=30_000).contains(w))?;
            Some(rest)
        }
        _ => None,
    })?;
    Some(Options {
        settings,
        blocks_percent,
        plies,
        window,
    })
}

/// The opening of game `index`: blocks (sometimes) and `plies` random plies, redrawn
/// while the game would be over or a side must pass.
fn opening(rng: &mut SplitMix64, blocks_percent: u32, plies: (u32, u32)) -> Position {
    loop {
        let mut pos = Position::startpos(Rules::Uai);
        if (rng.below(100) as u32) < blocks_percent {
            for _ in 0..1 + rng.below(2) {
                let b = block_squares(rng.below(49) as u8);
                if b & pos.empty() == b {
                    pos.add_gaps(b).expect("the squares are empty");
                }
            }
        }
        let mut ok = true;
        let (lo, hi) = plies;
        for _ in 0..lo as usize + rng.below((hi - lo) as usize + 1) {
            let moves = pos.legal_moves();
            if moves.is_empty() || moves[0].is_pass() {
                ok = false;
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
        if ok && pos.outcome().is_none() && pos.can_move(pos.side_to_move()) {
            // A clean start: the clock at 0 and move 1, as the file stores it.
            return Position::from_parts(
                pos.pieces(Side::First),
                pos.pieces(Side::Second),
                pos.gaps(),
                pos.side_to_move(),
                0,
                1,
                Rules::Uai,
            )
            .expect("a legal position");
        }
    }
}

/// Plays game `index`.
fn play(index: u32, o: &Options, searcher: &mut Searcher<Position>, stop: &AtomicBool) -> Game {
    let mut rng = game_rng(o.settings.seed, index);
    let limits = Limits::nodes(o.settings.nodes);
    'redraw: loop {
        let start = opening(&mut rng, o.blocks_percent, o.plies);
        searcher.new_game();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        let mut streak: (i32, usize) = (0, 0);
        let result = loop {
            if let Some(outcome) = pos.outcome() {
                break outcome;
            }
            if plies.len() >= MAX_PLIES {
                break Outcome::Draw;
            }
            let r = searcher.search(&pos, &limits, stop, None, &mut |_| {});
            let Some(mv) = r.best else {
                break Outcome::Draw;
            };
            let score = r.score.0;
            if plies.is_empty() && score.abs() > o.window {
                continue 'redraw;
            }
            plies.push((mv, score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16));
            let us = pos.side_to_move();
            let winner = if score > 0 { us } else { us.opponent() };
            if score.abs() >= WIN - engine::search::report::MAX_PLY as i32 {
                break Outcome::Win(winner);
            }
            // Who the score favours, as +1 first / -1 second, and for how long.
            let sign = if score.abs() < ADJUDICATE_SCORE {
                0
            } else if winner == Side::First {
                1
            } else {
                -1
            };
            streak = if sign != 0 && sign == streak.0 {
                (sign, streak.1 + 1)
            } else {
                (sign, 1)
            };
            if sign != 0 && streak.1 >= ADJUDICATE_PLIES {
                break Outcome::Win(winner);
            }
            pos.make_move(mv);
        };
        let result = match result {
            Outcome::Win(Side::First) => 2,
            Outcome::Draw => 1,
            Outcome::Win(Side::Second) => 0,
        };
        return Game {
            index,
            start,
            result,
            plies,
        };
    }
}

pub fn run(o: &Options) -> Result<(), String> {
    let stop = AtomicBool::new(false);
    play_all(
        &o.settings,
        MAGIC,
        decode,
        || Searcher::<Position>::new(HASH_MIB),
        |i, searcher| play(i, o, searcher, &stop),
    )
}

impl Record for Game {
    fn index(&self) -> u32 {
        self.index
    }

    fn plies(&self) -> usize {
        self.plies.len()
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.start.pieces(Side::First).to_le_bytes());
        out.extend_from_slice(&self.start.pieces(Side::Second).to_le_bytes());
        out.extend_from_slice(&self.start.gaps().to_le_bytes());
        out.push(self.start.side_to_move().index() as u8);
        out.push(self.result);
        out.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for &(mv, score) in &self.plies {
            let code = if mv.is_pass() {
                0xFFFF
            } else {
                u16::from(mv.from()) * 64 + u16::from(mv.to())
            };
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip_and_replay() {
        let o = Options {
            settings: Settings {
                games: 2,
                nodes: 300,
                threads: 1,
                seed: 7,
                ..Settings::default()
            },
            blocks_percent: 50,
            plies: DEFAULT_PLIES,
            window: OPENING_LIMIT,
        };
        let mut s = Searcher::new(1);
        let stop = AtomicBool::new(false);
        let mut bytes = MAGIC.to_vec();
        let games: Vec<Game> = (0..3).map(|i| play(i, &o, &mut s, &stop)).collect();
        for g in &games {
            g.encode(&mut bytes);
        }
        // Deterministic per index.
        let again = play(1, &o, &mut s, &stop);
        assert_eq!(again.plies, games[1].plies);
        let (back, len) = decode(&bytes).unwrap();
        assert_eq!(len, bytes.len());
        assert_eq!(back.len(), 3);
        for (a, b) in back.iter().zip(&games) {
            assert_eq!(a.plies, b.plies);
            assert_eq!(a.start, b.start);
            assert_eq!(a.result, b.result);
            let mut pos = a.start.clone();
            for &(mv, _) in &a.plies {
                assert!(pos.is_legal(mv));
                pos.make_move(mv);
            }
        }
        // A cut record is left out.
        let (cut, len) = decode(&bytes[..bytes.len() - 3]).unwrap();
        assert_eq!(cut.len(), 2);
        assert!(len < bytes.len() - 3);
    }

    /// Distinct openings among the first `n` games of seed 7.
    fn distinct_openings(n: u32, plies: (u32, u32)) -> usize {
        let starts: std::collections::HashSet<_> = (0..n)
            .map(|i| {
                let p = opening(&mut game_rng(7, i), 0, plies);
                (
                    p.pieces(Side::First),
                    p.pieces(Side::Second),
                    p.side_to_move(),
                )
            })
            .collect();
        starts.len()
    }

    #[test]
    fn opening_length_is_an_option() {
        let o = parse_args(&["--out", "x.bin", "--games", "5", "--plies", "12-16"]).unwrap();
        assert_eq!(o.plies, (12, 16));
        for bad in ["16-12", "12", "a-b", "30-41"] {
            assert!(parse_args(&["--out", "x.bin", "--games", "5", "--plies", bad]).is_none());
        }
        let o = parse_args(&["--out", "x.bin", "--games", "5"]).unwrap();
        assert_eq!(o.plies, DEFAULT_PLIES);
        // No random plies: the start position.
        let start = Position::startpos(Rules::Uai);
        let p = opening(&mut game_rng(7, 0), 0, (0, 0));
        assert_eq!(p.pieces(Side::First), start.pieces(Side::First));
        assert_eq!(p.pieces(Side::Second), start.pieces(Side::Second));
        // Games draw unrelated streams: only a few 4-ply openings coincide (with
        // `seed ^ i·γ`, 14 of 2 000 openings of 12–16 plies repeated game `i − 8`'s
        // or `i − 16`'s); a deterministic engine would replay each such game whole.
        assert!(distinct_openings(2000, DEFAULT_PLIES) >= 1990);
        assert_eq!(distinct_openings(2000, (12, 16)), 2000);
    }
}

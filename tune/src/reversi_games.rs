//! `tune reversi-games`: self-play games for fitting the Reversi midgame evaluation
//! (`engine::games::reversi::midgame`), labelled by our exact solver.
//!
//! Game `i` of a run is a function of `(SEED, i)` alone: 6 to 13 random plies from the
//! start (redrawn if a side must pass or the game ends), then both sides search
//! `--nodes` nodes from a fresh searcher until `--solve` empties are left, from where
//! every move is the exact solver's. So the final disc difference is the exact value of
//! the position at `--solve` empties, and the label of every earlier position is what
//! the game's continuation made of it. A run can be cut and resumed: the file is read
//! back, a cut last record dropped, and only the games not in it are played.
//!
//! File format (little-endian): `RVGAMES1`, then one record per game: `u32` game index,
//! `u64` black's discs, `u64` white's (of the position after the random opening, black
//! or white to move as `u8` 0/1), `i8` final disc difference for black (empties to the
//! winner), `u8` plies, then per ply `u8` move (square 0–63, 64 the pass) and `i16`
//! score for the side to move (the search's, or the solver's exact margin × 100 once
//! solving).

use super::games_file::{game_rng, play_all, records, u64_at, Record, Settings};
use engine::game::Side;
use engine::games::reversi::midgame::UNITS_PER_DISC;
use engine::games::reversi::solve::Solver;
use engine::games::reversi::{Move, Position};
use engine::rng::SplitMix64;
use engine::search::report::MAX_PLY;
use engine::search::{Limits, Searcher, WIN};
use std::sync::atomic::AtomicBool;

/// File magic.
pub const MAGIC: &[u8; 8] = b"RVGAMES1";
/// Header bytes of one game record.
const GAME_HEADER: usize = 4 + 16 + 1 + 1 + 1;
/// Transposition table of each thread's searcher.
const HASH_MIB: usize = 8;

/// One game of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub index: u32,
    pub start: Position,
    /// Final disc difference for black, exact from the solve on.
    pub result: i8,
    pub plies: Vec<(Move, i16)>,
}

impl Game {
    /// Every position of the game (after the opening) with its label: the final disc
    /// difference for the side to move there.
    pub fn labelled(&self) -> Vec<(Position, i32)> {
        self.blended(None)
            .into_iter()
            .map(|(pos, label)| (pos, label as i32))
            .collect()
    }

    /// Every position of the game (after the opening) with a label that mixes the final
    /// disc difference with the score of the search that played from it, both for the
    /// side to move there. The result is one playout: each searched ply between the
    /// position and the solver's takes it further from the position's true value (about
    /// 6 discs RMS after six plies, `docs/reversi.md`), while the search's score is one
    /// estimate by the evaluation that played, its error about that of six such plies.
    /// So the result's weight is `horizon / (horizon + plies to the solve)` (the
    /// inverse-variance mix for errors that add up ply by ply), and the positions the
    /// solver played, or whose search saw the end (a win score), get the result alone,
    /// as they all do with `horizon` `None`.
    pub fn blended(&self, horizon: Option<f32>) -> Vec<(Position, f32)> {
        let mut pos = self.start.clone();
        let mut plies = Vec::with_capacity(self.plies.len());
        for &(mv, score) in &self.plies {
            plies.push((pos.clone(), mv, i32::from(score)));
            pos.make_move(mv);
        }
        // The solver's plies are the exact tail: their stored score is the margin × 100
        // (a pass, stored as 0, does not end it). A game ended before the solver has no
        // tail: there the end is what the plies are counted to.
        let solved_from = plies
            .iter()
            .rev()
            .take_while(|(pos, mv, score)| mv.is_pass() || *score == 100 * self.for_side(pos))
            .last()
            .map_or(0, |(pos, _, _)| pos.empty().count_ones());
        plies
            .into_iter()
            .filter(|(_, mv, _)| !mv.is_pass())
            .map(|(pos, _, score)| {
                let result = self.for_side(&pos);
                let empties = pos.empty().count_ones();
                let seen_end = score.abs() >= WIN - MAX_PLY as i32;
                let label = match horizon {
                    Some(h) if empties > solved_from && !seen_end => {
                        let keep = h / (h + (empties - solved_from) as f32);
                        let searched = (score as f32 / UNITS_PER_DISC as f32).clamp(-64.0, 64.0);
                        keep * result as f32 + (1.0 - keep) * searched
                    }
                    _ => result as f32,
                };
                (pos, label)
            })
            .collect()
    }

    /// The final disc difference for the side to move at `pos`.
    fn for_side(&self, pos: &Position) -> i32 {
        let result = i32::from(self.result);
        if pos.side_to_move() == Side::First {
            result
        } else {
            -result
        }
    }
}

/// Reads the games of a data file's bytes; returns them and the length of the complete
/// part (a record cut by a kill is left out). Every move is checked legal.
pub fn decode(bytes: &[u8]) -> Result<(Vec<Game>, usize), String> {
    let (records, len) = records(bytes, MAGIC, "a reversi games file", GAME_HEADER, 3, |h| {
        usize::from(h[22])
    })?;
    let mut games = Vec::with_capacity(records.len());
    for b in records {
        let index = u32::from_le_bytes(b[0..4].try_into().expect("4"));
        let side = match b[20] {
            0 => Side::First,
            1 => Side::Second,
            s => return Err(format!("game {index}: side {s}")),
        };
        let result = b[21] as i8;
        let start = Position::from_parts(u64_at(b, 4), u64_at(b, 12), side)
            .map_err(|e| format!("game {index}: {e}"))?;
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (k, p) in b[GAME_HEADER..].chunks_exact(3).enumerate() {
            let mv = match p[0] {
                64 => Move::PASS,
                sq @ 0..64 => Move::place(sq),
                code => return Err(format!("game {index}: move code {code}")),
            };
            if !pos.is_legal(mv) {
                return Err(format!("game {index}: illegal move at ply {k}"));
            }
            pos.make_move(mv);
            plies.push((mv, i16::from_le_bytes([p[1], p[2]])));
        }
        if !pos.is_over() || pos.final_margin() != i32::from(result) {
            return Err(format!("game {index}: the moves do not end with {result}"));
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

/// `tune reversi-games`' settings.
pub struct Options {
    pub settings: Settings,
    /// Empties from which the exact solver plays.
    pub solve: u32,
}

/// `tune reversi-games --out FILE --games N [--nodes N] [--solve E] [--threads T]
/// [--seed S] [--seconds S]`.
pub fn parse_args(args: &[&str]) -> Option<Options> {
    let mut solve = 18;
    let settings = Settings::parse(4000, args, |a| match a {
        ["--solve", v, rest @ ..] => {
            solve = v.parse().ok().filter(|&e| e <= 24)?;
            Some(rest)
        }
        _ => None,
    })?;
    Some(Options { settings, solve })
}

/// The random opening of a game: 6–13 plies, redrawn while a side must pass.
fn opening(rng: &mut SplitMix64) -> Position {
    'redraw: loop {
        let mut pos = Position::startpos();
        for _ in 0..6 + rng.below(8) {
            let moves = pos.legal_moves();
            if moves.is_empty() || moves[0].is_pass() {
                continue 'redraw;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
        if pos.move_mask() != 0 {
            return pos;
        }
    }
}

/// Plays game `index`.
fn play(
    index: u32,
    o: &Options,
    searcher: &mut Searcher<Position>,
    solver: &mut Solver,
    stop: &AtomicBool,
) -> Game {
    let mut rng = game_rng(o.settings.seed, index);
    let limits = Limits::nodes(o.settings.nodes);
    let start = opening(&mut rng);
    searcher.new_game();
    let mut pos = start.clone();
    let mut plies = Vec::new();
    while !pos.is_over() {
        let (mv, score) = if pos.move_mask() == 0 {
            (Move::PASS, 0)
        } else if pos.empty().count_ones() <= o.solve {
            let s = solver.solve(&pos);
            (s.best.expect("a move"), s.score * 100)
        } else {
            let r = searcher.search(&pos, &limits, stop, None, &mut |_| {});
            let mv = r.best.expect("a legal move");
            (mv, r.score.0.clamp(-i16::MAX as i32, i16::MAX as i32))
        };
        plies.push((mv, score as i16));
        pos.make_move(mv);
    }
    Game {
        index,
        start,
        result: pos.final_margin() as i8,
        plies,
    }
}

pub fn run(o: &Options) -> Result<(), String> {
    let stop = AtomicBool::new(false);
    play_all(
        &o.settings,
        MAGIC,
        decode,
        || (Searcher::<Position>::new(HASH_MIB), Solver::new(20)),
        |i, (searcher, solver)| play(i, o, searcher, solver, &stop),
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
        out.extend_from_slice(&self.start.discs(Side::First).to_le_bytes());
        out.extend_from_slice(&self.start.discs(Side::Second).to_le_bytes());
        out.push(self.start.side_to_move().index() as u8);
        out.push(self.result as u8);
        out.push(self.plies.len() as u8);
        for &(mv, score) in &self.plies {
            out.push(mv.index() as u8);
            out.extend_from_slice(&score.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip_replay_and_end_as_labelled() {
        let o = Options {
            settings: Settings {
                games: 3,
                nodes: 200,
                threads: 1,
                seed: 7,
                ..Settings::default()
            },
            solve: 10,
        };
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(16));
        let stop = AtomicBool::new(false);
        let games: Vec<Game> = (0..3)
            .map(|i| play(i, &o, &mut searcher, &mut solver, &stop))
            .collect();
        let mut bytes = MAGIC.to_vec();
        for g in &games {
            g.encode(&mut bytes);
        }
        // Deterministic per index.
        assert_eq!(play(1, &o, &mut searcher, &mut solver, &stop), games[1]);
        let (back, len) = decode(&bytes).unwrap();
        assert_eq!((back, len), (games.clone(), bytes.len()));
        // From `solve` empties on the play is exact: the label is the solver's score.
        for g in &games {
            for (pos, label) in g.labelled() {
                if pos.empty().count_ones() <= o.solve {
                    assert_eq!(Solver::new(16).solve(&pos).score, label);
                }
            }
        }
        // A blend keeps the result where the solver played and mixes in the search's
        // score before, the more the further from the solve.
        for g in &games {
            let (pure, mixed) = (g.labelled(), g.blended(Some(6.0)));
            assert_eq!(pure.len(), mixed.len());
            let mut searched = g.plies.iter().filter(|&&(mv, _)| !mv.is_pass());
            for ((pos, label), (same, blend)) in pure.iter().zip(&mixed) {
                let score = f32::from(searched.next().unwrap().1);
                let empties = pos.empty().count_ones();
                assert_eq!(pos, same);
                if empties <= o.solve {
                    assert_eq!(*blend, *label as f32);
                } else if score.abs() < 1000.0 {
                    let keep = 6.0 / (6.0 + (empties - o.solve) as f32);
                    let want = keep * *label as f32 + (1.0 - keep) * score / UNITS_PER_DISC as f32;
                    assert!((blend - want).abs() < 1e-4, "{blend} {want}");
                }
            }
        }
        // A cut record is left out; a wrong result is refused.
        let (cut, len) = decode(&bytes[..bytes.len() - 2]).unwrap();
        assert_eq!((cut.len(), len < bytes.len() - 2), (2, true));
        bytes[8 + 21] ^= 1;
        assert!(decode(&bytes).is_err());
    }
}

//! Built-in players (`builtin=random`, `builtin=greedy`): opponents that need no
//! process, for quick matches, smoke tests and statistics tests.
//!
//! They draw from the engine library's SplitMix64 stream seeded from the run seed and
//! the game id, so a game replays identically whichever worker plays it and whether or
//! not the run was resumed.

use crate::engines::player::{Answer, BuiltinKind, Fault, GameStart, MoveRequest, Player, Reply};
use engine::game::{Game, Outcome};
use engine::rng::SplitMix64;

/// A built-in player.
pub struct Builtin {
    kind: BuiltinKind,
    rng: SplitMix64,
}

impl Builtin {
    /// A player of the given kind.
    pub fn new(kind: BuiltinKind) -> Self {
        Builtin {
            kind,
            rng: SplitMix64::new(0),
        }
    }

    /// Picks a move in `pos` (which must not be over).
    pub fn choose<G: Game>(&mut self, pos: &G) -> Option<G::Move> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        match self.kind {
            BuiltinKind::Random => self.rng.choose(&moves).copied(),
            BuiltinKind::Greedy => {
                let me = pos.side_to_move();
                let mut best = Vec::new();
                let mut best_score = i64::MIN;
                for &mv in &moves {
                    let mut next = pos.clone();
                    next.make_move(mv);
                    let score = match next.outcome() {
                        Some(Outcome::Win(s)) if s == me => i64::MAX,
                        Some(Outcome::Win(_)) => i64::MIN + 1,
                        _ => {
                            let e = next.evaluate() as i64;
                            if next.side_to_move() == me {
                                e
                            } else {
                                -e
                            }
                        }
                    };
                    if score > best_score {
                        best_score = score;
                        best.clear();
                    }
                    if score == best_score {
                        best.push(mv);
                    }
                }
                self.rng.choose(&best).copied()
            }
        }
    }
}

impl<G: Game> Player<G> for Builtin {
    fn check(&mut self, _start: &GameStart<'_, G>) -> Result<(), Fault> {
        Ok(())
    }

    fn new_game(&mut self, start: &GameStart<'_, G>) -> Result<(), Fault> {
        self.rng = SplitMix64::new(start.seed);
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<'_, G>) -> Result<Answer<G>, Fault> {
        self.choose(req.position)
            .map(|mv| Reply::Move(mv).into())
            .ok_or_else(|| Fault::Garbage("no legal move in a finished game".into()))
    }

    fn game_over(&mut self, _faulted: bool, _final_moves: Option<&[G::Move]>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::games::ataxx::{Position, Rules};

    #[test]
    fn greedy_takes_captures() {
        // x to move can take o's stone on b6 with a single to b7/a6/...
        let pos = Position::from_fen("x6/1o5/7/7/7/7/7 x 0 1", Rules::Uai).unwrap();
        let mut g = Builtin::new(BuiltinKind::Greedy);
        let mv = g.choose(&pos).unwrap();
        let mut next = pos.clone();
        next.make_move(mv);
        assert_eq!(
            next.outcome(),
            Some(engine::game::Outcome::Win(engine::game::Side::First))
        );
    }
}

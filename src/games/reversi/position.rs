//! The Reversi position: two bitboards, the side to move, the incremental Zobrist hash
//! and pattern indices, make/unmake, the end of the game and its scoring, and
//! bulk-counting perft.

use super::bitboard::{flips, moves, Bits};
use super::indices::Indices;
use crate::game::{Outcome, RuleSet, Side};
use crate::rng;
use std::fmt;

/// A move: a square (0..64, see [`super::bitboard`]) or the pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(u8);

impl crate::game::PackedMove for Move {
    fn pack(self) -> u16 {
        self.0 as u16
    }
    fn unpack(bits: u16) -> Move {
        Move(bits as u8)
    }
}

impl Move {
    /// The pass: legal only when the side to move has no move and the opponent has one.
    pub const PASS: Move = Move(64);

    /// A disc placed on `sq` (0..64).
    #[inline]
    pub const fn place(sq: u8) -> Move {
        Move(sq & 63)
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The square (64 for the pass).
    #[inline]
    pub const fn square(self) -> u8 {
        self.0
    }

    /// 0..65: the square, or 64 for the pass (a history-table slot).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What `unmake_move` needs: the discs the move turned and the hash before it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    flipped: u64,
    hash: u64,
}

static DISC_KEYS: [u64; 128] = rng::keys(0x0E11_0A2D_1883_0001);
const SIDE_KEY: u64 = rng::splitmix64(0x0E11_0A2D_1883_5151).1;

const fn flip_keys() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = DISC_KEYS[i] ^ DISC_KEYS[64 + i];
        i += 1;
    }
    t
}

/// Turning a disc over swaps its black key for its white key: one XOR with both.
static FLIP_KEYS: [u64; 64] = flip_keys();

#[inline]
fn disc_key(side: Side, sq: u8) -> u64 {
    DISC_KEYS[side.index() * 64 + sq as usize]
}

/// The final disc difference `own − opp` with the empty squares given to the winner
/// (the standard Othello scoring; a draw stays 0).
#[inline]
pub fn final_score(own: u64, opp: u64) -> i32 {
    let (a, b) = (own.count_ones() as i32, opp.count_ones() as i32);
    let empty = 64 - a - b;
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => a - b + empty,
        std::cmp::Ordering::Less => a - b - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Reversi's one rule set: every protocol plays the same rules (the game ends when
/// neither side can move; the discs decide), so a position needs no rule set of its own
/// and Reversi's engines of every protocol are judged alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    Standard,
}

/// Named `standard`; `-rules` takes `engine` and `text` for it too (the runner's
/// generic names), which judged alike before there was one rule set per game.
impl RuleSet for Rules {
    const ALL: &'static [Rules] = &[Rules::Standard];
    const ENGINE: Rules = Rules::Standard;

    fn name(self) -> &'static str {
        "standard"
    }
}

/// A Reversi position.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Black's discs, then White's (indexed by [`Side::index`]; black is `First`).
    discs: [u64; 2],
    side: Side,
    hash: u64,
    /// The midgame evaluation's pattern readings, kept by make/unmake (`indices.rs`).
    indices: Indices,
}

impl Position {
    /// The standard start: white on d4 and e5, black on e4 and d5, black to move.
    pub fn startpos() -> Position {
        use super::bitboard::square;
        let black = 1u64 << square(4, 3) | 1u64 << square(3, 4);
        let white = 1u64 << square(3, 3) | 1u64 << square(4, 4);
        Position::from_parts(black, white, Side::First).expect("the start is valid")
    }

    /// Builds a position from black's and white's discs; they must not overlap.
    pub fn from_parts(black: u64, white: u64, side: Side) -> Result<Position, &'static str> {
        if black & white != 0 {
            return Err("two discs on one square");
        }
        let mut pos = Position {
            discs: [black, white],
            side,
            hash: 0,
            indices: Indices::new(black, white),
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for side in [Side::First, Side::Second] {
            for sq in Bits(self.discs[side.index()]) {
                h ^= disc_key(side, sq);
            }
        }
        if self.side == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// Discs of one side.
    #[inline]
    pub fn discs(&self, side: Side) -> u64 {
        self.discs[side.index()]
    }

    /// The side to move's discs.
    #[inline]
    pub fn own(&self) -> u64 {
        self.discs[self.side.index()]
    }

    /// The opponent's discs.
    #[inline]
    pub fn opp(&self) -> u64 {
        self.discs[1 - self.side.index()]
    }

    /// Empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        !(self.discs[0] | self.discs[1])
    }

    /// Number of discs of `side`.
    #[inline]
    pub fn count(&self, side: Side) -> u32 {
        self.discs[side.index()].count_ones()
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The incremental Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pattern readings of the midgame evaluation, kept incrementally.
    #[inline]
    pub fn indices(&self) -> &Indices {
        &self.indices
    }

    /// The squares the side to move can play (0 when it must pass or the game is over).
    #[inline]
    pub fn move_mask(&self) -> u64 {
        moves(self.own(), self.opp())
    }

    /// The squares the opponent could play if it were its turn.
    #[inline]
    pub fn opp_move_mask(&self) -> u64 {
        moves(self.opp(), self.own())
    }

    /// True once neither side can move.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.move_mask() == 0 && self.opp_move_mask() == 0
    }

    /// The result once neither side can move: more discs wins.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let (b, w) = (self.count(Side::First), self.count(Side::Second));
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Black's discs minus White's, the empty squares counted for the side with more
    /// discs: the score of a finished game (computed the same way for any position).
    pub fn final_margin(&self) -> i32 {
        final_score(self.discs[0], self.discs[1])
    }

    /// Appends the legal moves: each playable square, or a lone pass when the side to
    /// move has none and the opponent has one, or nothing once the game is over.
    pub fn generate_moves(&self, out: &mut Vec<Move>) {
        let m = self.move_mask();
        if m != 0 {
            out.extend(Bits(m).map(Move::place));
        } else if self.opp_move_mask() != 0 {
            out.push(Move::PASS);
        }
    }

    /// All legal moves in a fresh vector.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(32);
        self.generate_moves(&mut v);
        v
    }

    /// Whether `mv` is legal here, without generating every move.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_pass() {
            self.move_mask() == 0 && self.opp_move_mask() != 0
        } else {
            mv.0 < 64 && self.empty() & (1 << mv.0) != 0 && self.flips(mv) != 0
        }
    }

    /// The discs a move would turn (0 for the pass or an illegal move).
    #[inline]
    pub fn flips(&self, mv: Move) -> u64 {
        if mv.is_pass() || self.empty() & (1u64 << (mv.0 & 63)) == 0 {
            0
        } else {
            flips(self.own(), self.opp(), mv.0)
        }
    }

    /// Plays a legal move and returns what is needed to take it back.
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let undo_hash = self.hash;
        let us = self.side;
        let mut flipped = 0;
        if !mv.is_pass() {
            flipped = flips(self.own(), self.opp(), mv.0);
            let mut h = self.hash ^ disc_key(us, mv.0);
            for sq in Bits(flipped) {
                h ^= FLIP_KEYS[sq as usize];
            }
            self.hash = h;
            self.discs[us.index()] |= flipped | 1u64 << mv.0;
            self.discs[1 - us.index()] &= !flipped;
            self.indices.play(us, mv.0, flipped);
        }
        self.side = us.opponent();
        self.hash ^= SIDE_KEY;
        Undo {
            flipped,
            hash: undo_hash,
        }
    }

    /// Takes back `mv`, which must be the last move made.
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let us = self.side.opponent();
        self.side = us;
        if !mv.is_pass() {
            self.discs[us.index()] &= !(undo.flipped | 1u64 << mv.0);
            self.discs[1 - us.index()] |= undo.flipped;
            self.indices.unplay(us, mv.0, undo.flipped);
        }
        self.hash = undo.hash;
    }

    /// Leaf count of the legal-move tree `depth` plies deep, the standard Reversi perft:
    /// a pass is one ply, and a finished game counts as one leaf at every deeper depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else {
            perft(self.own(), self.opp(), depth)
        }
    }
}

/// Perft below `own` to move against `opp`, `depth` ≥ 1, counting the last ply in bulk.
fn perft(own: u64, opp: u64, depth: u32) -> u64 {
    let m = moves(own, opp);
    if depth == 1 {
        // A pass or a finished game is one leaf too.
        return (m.count_ones() as u64).max(1);
    }
    if m == 0 {
        return if moves(opp, own) == 0 {
            1
        } else {
            perft(opp, own, depth - 1)
        };
    }
    let mut total = 0;
    for sq in Bits(m) {
        let f = flips(own, opp, sq);
        total += perft(opp & !f, own | f | 1u64 << sq, depth - 1);
    }
    total
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_first_moves() {
        let pos = Position::startpos();
        assert_eq!(pos.legal_moves().len(), 4);
        assert_eq!(pos.final_margin(), 0);
        assert!(pos.outcome().is_none());
        let mut p = pos.clone();
        let mv = Move::place(super::super::bitboard::square(3, 2)); // d3
        let u = p.make_move(mv);
        assert_eq!(p.count(Side::First), 4);
        assert_eq!(p.count(Side::Second), 1);
        assert_eq!(p.hash(), p.compute_hash());
        p.unmake_move(mv, u);
        assert_eq!(p, pos);
    }

    #[test]
    fn scoring_gives_empties_to_the_winner() {
        assert_eq!(final_score(0xFF, 0xF00), 4 + 52);
        assert_eq!(final_score(0xF00, 0xFF), -56);
        assert_eq!(final_score(0xF, 0xF0), 0);
        assert_eq!(final_score(!0xF, 0xF), 56);
    }

    #[test]
    fn small_perft() {
        let pos = Position::startpos();
        let expected = [1, 4, 12, 56, 244, 1396, 8200];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(pos.perft(d as u32), n, "depth {d}");
        }
    }
}

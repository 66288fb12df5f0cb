//! The midgame evaluation's pattern shapes ([`SHAPES`]) and their indices, kept move by
//! move in the position; `midgame.rs` weighs them.
//!
//! Read from scratch, the 46 instances of `midgame.rs` cost two gathers each at every
//! evaluated node. A move changes only a few squares, the placed disc and the turned
//! ones, and each square is read by about six instances, so, as Edax does, the position
//! keeps every instance's base-3 number and a move adds each changed square's digit
//! change to the instances that read it: one table row of powers of 3 per square, added
//! to all instances at once (a row is 0 where an instance does not read the square).
//!
//! The evaluation reads the position from the side to move's view (own 1, opponent 2),
//! so two sets are kept, one from each side's view: a look-up then needs no mapping, and
//! a move updates both with the same rows.

use super::bitboard::Bits;
use super::pattern::orient;
use crate::game::Side;

/// One pattern shape: its squares, `(column, row)` with row 0 the top, in the order
/// their base-3 digits are read (first = least significant).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub name: &'static str,
    pub squares: &'static [(u8, u8)],
}

/// The shapes, in the order of their weights.
pub const SHAPES: [Shape; 11] = [
    Shape {
        name: "corner3x3",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    },
    Shape {
        name: "edge2x",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    },
    Shape {
        name: "corner2x5",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    },
    Shape {
        name: "row2",
        squares: &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    },
    Shape {
        name: "row3",
        squares: &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    },
    Shape {
        name: "row4",
        squares: &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    },
    Shape {
        name: "diagonal8",
        squares: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    },
    Shape {
        name: "diagonal7",
        squares: &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    },
    Shape {
        name: "diagonal6",
        squares: &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    },
    Shape {
        name: "diagonal5",
        squares: &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    },
    Shape {
        name: "diagonal4",
        squares: &[(4, 0), (5, 1), (6, 2), (7, 3)],
    },
];

/// Number of pattern instances.
pub const INSTANCES: usize = 46;

/// Instances rounded up to whole 16-byte vectors of `u16`; the padding reads no square
/// and stays 0.
pub const LANES: usize = 48;

/// One number per instance (its base-3 reading without the shape's weight offset), or
/// one digit change per instance.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(align(16))]
struct Row([u16; LANES]);

impl Row {
    const ZERO: Row = Row([0; LANES]);

    /// Lane by lane, modulo 2^16: a sum of changes may pass below zero on the way, but
    /// every reading it ends at fits (3^10 < 2^16), so the end result is exact.
    #[inline(always)]
    fn add(&mut self, other: &Row) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = a.wrapping_add(*b);
        }
    }

    #[inline(always)]
    fn sub(&mut self, other: &Row) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = a.wrapping_sub(*b);
        }
    }

    /// The row times `k`, lane by lane (modulo 2^16).
    #[inline(always)]
    fn times(&self, k: u16) -> Row {
        let mut out = *self;
        for a in &mut out.0 {
            *a = a.wrapping_mul(k);
        }
        out
    }

    /// The sum of the rows of `squares` in [`POWERS`].
    #[inline(always)]
    fn of_squares(squares: u64) -> Row {
        let mut sum = Row::ZERO;
        for sq in Bits(squares) {
            sum.add(&POWERS[sq as usize]);
        }
        sum
    }
}

/// What the instances are made of, in the order `midgame::layout` lists them.
struct Tables {
    /// For each square, the place value (3^digit) it has in each instance reading it.
    powers: [Row; 64],
    /// For each instance, the first weight of its shape in a weight table.
    offsets: [u32; INSTANCES],
}

/// The squares of `shape` in orientation `k`, in reading order, as one-bit boards, and
/// all of them as a mask.
const fn image(shape: &[(u8, u8)], k: usize) -> ([u64; 10], u64) {
    let (mut squares, mut mask) = ([0; 10], 0);
    let mut j = 0;
    while j < shape.len() {
        let (c, r) = shape[j];
        squares[j] = orient(1u64 << (r * 8 + c), k);
        mask |= squares[j];
        j += 1;
    }
    (squares, mask)
}

/// Whether one of the first `n` of `masks` is `mask`.
const fn seen(masks: &[u64], n: usize, mask: u64) -> bool {
    let mut i = 0;
    while i < n {
        if masks[i] == mask {
            return true;
        }
        i += 1;
    }
    false
}

/// [`Tables`] built as `midgame::layout` builds its instances: each shape in the
/// orientations 0–7, skipping an image whose squares an earlier instance covers (a test
/// checks the two agree).
const fn tables() -> Tables {
    let mut t = Tables {
        powers: [Row::ZERO; 64],
        offsets: [0; INSTANCES],
    };
    let mut masks = [0u64; INSTANCES];
    let (mut n, mut offset, mut s) = (0, 0u32, 0);
    while s < SHAPES.len() {
        let len = SHAPES[s].squares.len();
        let mut k = 0;
        while k < 8 {
            let (squares, mask) = image(SHAPES[s].squares, k);
            if !seen(&masks, n, mask) {
                let (mut j, mut place) = (0, 1u16);
                while j < len {
                    t.powers[squares[j].trailing_zeros() as usize].0[n] = place;
                    place = place.wrapping_mul(3);
                    j += 1;
                }
                masks[n] = mask;
                t.offsets[n] = offset;
                n += 1;
            }
            k += 1;
        }
        offset += 3u32.pow(len as u32);
        s += 1;
    }
    assert!(n == INSTANCES);
    t
}

static POWERS: [Row; 64] = tables().powers;

/// For each instance, the first weight of its shape in a weight table: an instance's
/// weight is at this plus its reading.
pub static OFFSETS: [u32; INSTANCES] = tables().offsets;

/// Every instance's reading from each side's view (indexed by [`Side::index`]): that
/// side's discs count 1, the other's 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Indices([Row; 2]);

impl Indices {
    /// The readings of a board, from scratch.
    pub fn new(black: u64, white: u64) -> Indices {
        let (b, w) = (Row::of_squares(black), Row::of_squares(white));
        let mut views = [b, w];
        views[0].add(&w.times(2));
        views[1].add(&b.times(2));
        Indices(views)
    }

    /// The readings from `side`'s view.
    #[inline]
    pub fn view(&self, side: Side) -> &[u16; LANES] {
        &self.0[side.index()].0
    }

    /// `us` put a disc on `sq` and turned `flipped`. From `us`'s view the placed square
    /// goes from 0 to 1 and each turned one from 2 to 1; from the other side's view, 0
    /// to 2 and 1 to 2.
    #[inline]
    pub fn play(&mut self, us: Side, sq: u8, flipped: u64) {
        let (ours, theirs) = Indices::changes(sq, flipped);
        self.0[us.index()].add(&ours);
        self.0[1 - us.index()].add(&theirs);
    }

    /// Takes back [`Indices::play`] with the same arguments.
    #[inline]
    pub fn unplay(&mut self, us: Side, sq: u8, flipped: u64) {
        let (ours, theirs) = Indices::changes(sq, flipped);
        self.0[us.index()].sub(&ours);
        self.0[1 - us.index()].sub(&theirs);
    }

    /// The changes of [`Indices::play`]: the mover's view, the other side's.
    #[inline(always)]
    fn changes(sq: u8, flipped: u64) -> (Row, Row) {
        let placed = &POWERS[sq as usize & 63];
        let turned = Row::of_squares(flipped);
        let mut ours = *placed;
        ours.sub(&turned);
        let mut theirs = placed.times(2);
        theirs.add(&turned);
        (ours, theirs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::reversi::midgame::{self, layout};
    use crate::games::reversi::{Move, Position};
    use crate::rng::SplitMix64;

    /// Asserts that `ix` holds the readings of the board `black`, `white` from each
    /// side's view, as `midgame::indices` reads them from scratch.
    fn assert_matches(ix: &Indices, black: u64, white: u64) {
        for (side, own, opp) in [(Side::First, black, white), (Side::Second, white, black)] {
            let want = midgame::indices(own, opp);
            let view = ix.view(side);
            for (n, ((&r, &offset), &want)) in view.iter().zip(&OFFSETS).zip(&want).enumerate() {
                assert_eq!(r as u32 + offset, want, "instance {n}");
            }
            assert!(view[INSTANCES..].iter().all(|&v| v == 0));
        }
    }

    /// The tables read the squares `midgame::layout` lists, in its order.
    #[test]
    fn tables_match_the_layout() {
        let l = layout();
        for (n, inst) in l.instances.iter().enumerate() {
            assert_eq!(OFFSETS[n] as usize, l.offsets[inst.shape]);
            for (digit, &sq) in inst.squares.iter().enumerate() {
                assert_eq!(POWERS[sq as usize].0[n], 3u16.pow(digit as u32));
            }
            let read = (0..64).filter(|&sq| POWERS[sq].0[n] != 0).count();
            assert_eq!(read, inst.squares.len());
        }
        assert!(POWERS
            .iter()
            .all(|r| r.0[INSTANCES..].iter().all(|&v| v == 0)));
    }

    #[test]
    fn from_scratch_matches_the_layout() {
        let mut rng = SplitMix64::new(51);
        for _ in 0..2_000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            let (black, white) = (a & !b, b & !a);
            assert_matches(&Indices::new(black, white), black, white);
        }
    }

    /// Asserts that `pos`'s indices and evaluation are those computed from scratch.
    fn check(pos: &Position) {
        let (own, opp) = (pos.own(), pos.opp());
        assert_matches(
            pos.indices(),
            pos.discs(Side::First),
            pos.discs(Side::Second),
        );
        let eval = Game::evaluate(pos);
        assert_eq!(eval, midgame::evaluate(own, opp));
        let portable = midgame::evaluate_portable(midgame::weights(), own, opp);
        assert_eq!(eval, portable * midgame::UNITS_PER_DISC / midgame::SCALE);
    }

    /// Long random games, moves made and taken back at random (passes included): at
    /// every step the kept indices and the evaluation equal those from scratch, and
    /// taking every move back restores the position exactly.
    #[test]
    fn make_and_unmake_keep_the_indices_exact() {
        let mut rng = SplitMix64::new(2026);
        let (mut steps, mut passes) = (0, 0);
        for _ in 0..200 {
            let start = Position::startpos();
            let mut pos = start.clone();
            let mut line: Vec<(Move, _)> = Vec::new();
            while !pos.is_over() && line.len() < 200 {
                if !line.is_empty() && rng.below(4) == 0 {
                    for _ in 0..1 + rng.below(line.len().min(4)) {
                        let (mv, undo) = line.pop().expect("a move");
                        pos.unmake_move(mv, undo);
                        check(&pos);
                    }
                    continue;
                }
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                passes += mv.is_pass() as u32;
                line.push((mv, pos.make_move(mv)));
                check(&pos);
                steps += 1;
            }
            while let Some((mv, undo)) = line.pop() {
                pos.unmake_move(mv, undo);
            }
            assert_eq!(pos, start);
            check(&pos);
        }
        assert!(
            steps > 10_000 && passes > 0,
            "{steps} moves, {passes} passes"
        );
    }
}

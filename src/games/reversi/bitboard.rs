//! 8×8 bitboards in a `u64`: bit `row * 8 + col`, row 0 = row 1 (the **top** row, as
//! Othello players and `reversi.txt` write it), col 0 = column a. So a1 = bit 0,
//! h1 = bit 7, a8 = bit 56; this is also the order of the 64 squares in OBF files.
//!
//! Move generation shifts whole boards in the eight directions (a parallel-prefix
//! flood: two plain steps, then two double steps cover the longest run of six enemy
//! discs). Flips for one move use precomputed rays and find the first non-enemy square
//! on each ray with a single bit trick, so neither needs a loop over squares.

/// Every square.
pub const FULL: u64 = !0;
/// Column a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub const FILE_H: u64 = FILE_A << 7;
/// Every square except columns a and h: where a disc may sit inside a horizontal or
/// diagonal run without the shift wrapping to the next row.
pub const INNER_COLS: u64 = !(FILE_A | FILE_H);
/// Row 1 (the top).
pub const ROW_1: u64 = 0xFF;
/// Row 8 (the bottom).
pub const ROW_8: u64 = 0xFF << 56;
/// The four corners.
pub const CORNERS: u64 = 1 | 1 << 7 | 1 << 56 | 1 << 63;
/// The squares diagonally next to a corner (b2, g2, b7, g7): giving them away early
/// usually hands the corner to the opponent.
pub const X_SQUARES: u64 = 1 << 9 | 1 << 14 | 1 << 49 | 1 << 54;
/// The edge squares next to a corner (b1, a2, g1, h2, a7, b8, h7, g8).
pub const C_SQUARES: u64 =
    1 << 1 | 1 << 8 | 1 << 6 | 1 << 15 | 1 << 48 | 1 << 57 | 1 << 55 | 1 << 62;
/// The outer ring.
pub const EDGES: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

/// The square at `col` (0 = a) and `row` (0 = row 1, the top).
#[inline]
pub const fn square(col: usize, row: usize) -> u8 {
    (row * 8 + col) as u8
}

/// Column (0..8, 0 = a) of a square.
#[inline]
pub const fn col_of(sq: u8) -> usize {
    sq as usize % 8
}

/// Row (0..8, 0 = row 1) of a square.
#[inline]
pub const fn row_of(sq: u8) -> usize {
    sq as usize / 8
}

/// Moves of one direction, both ways along it: `d` is the shift, `mask` the enemy
/// discs that may lie inside a run in that direction.
#[inline(always)]
fn dir_moves(own: u64, mask: u64, d: u32) -> u64 {
    let mut fwd = mask & (own << d);
    fwd |= mask & (fwd << d);
    let pre = mask & (mask << d);
    fwd |= pre & (fwd << (2 * d));
    fwd |= pre & (fwd << (2 * d));
    let mut back = mask & (own >> d);
    back |= mask & (back >> d);
    let pre = mask & (mask >> d);
    back |= pre & (back >> (2 * d));
    back |= pre & (back >> (2 * d));
    (fwd << d) | (back >> d)
}

/// The squares where the side owning `own` may move against `opp`.
#[inline(always)]
pub fn moves(own: u64, opp: u64) -> u64 {
    let inner = opp & INNER_COLS;
    (dir_moves(own, inner, 1)
        | dir_moves(own, opp, 8)
        | dir_moves(own, inner, 7)
        | dir_moves(own, inner, 9))
        & !(own | opp)
}

/// Squares strictly beyond `sq` in direction (`dc`, `dr`), nearest first.
const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    let mut bb = 0u64;
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        bb |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    bb
}

const fn ray_table(dirs: [(i32, i32); 4]) -> [[u64; 4]; 64] {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            t[sq][d] = ray(sq, dirs[d].0, dirs[d].1);
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Rays towards higher bit numbers (E, SW, S, SE): the nearest square is the lowest bit.
static RAYS_UP: [[u64; 4]; 64] = ray_table([(1, 0), (-1, 1), (0, 1), (1, 1)]);
/// Rays towards lower bit numbers (W, NE, N, NW): the nearest square is the highest bit.
static RAYS_DOWN: [[u64; 4]; 64] = ray_table([(-1, 0), (1, -1), (0, -1), (-1, -1)]);

const fn neighbour_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dc = -1;
        while dc <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nc);
                }
                dr += 1;
            }
            dc += 1;
        }
        sq += 1;
    }
    t
}

/// The (up to eight) squares touching each square: a move can flip something only if
/// one of them holds an enemy disc, a cheap test before computing flips.
pub static NEIGHBOURS: [u64; 64] = neighbour_table();

/// The enemy discs that a disc of `own` placed on the empty square `sq` would turn;
/// 0 means the move is illegal.
#[inline]
pub fn flips(own: u64, opp: u64, sq: u8) -> u64 {
    let up = &RAYS_UP[sq as usize];
    let down = &RAYS_DOWN[sq as usize];
    let mut f = 0;
    for d in 0..4 {
        // Up: the first square on the ray that is not an enemy disc is the lowest bit;
        // if it is ours, the ray below it flips. Branch-free: the outcome is random.
        let r = up[d];
        let stop = r & !opp;
        let outflank = stop & stop.wrapping_neg() & own;
        f |= r & outflank.wrapping_sub((outflank != 0) as u64);
        // Down: it is the highest bit (bit 0 is a sentinel that can never be an own
        // disc on the ray: either off the ray or, with no stop at all, an enemy disc).
        let r = down[d];
        let stop = (r & !opp) | 1;
        let outflank = (1u64 << (63 - stop.leading_zeros())) & own & r;
        f |= r & (outflank << 1).wrapping_neg();
    }
    f
}

/// [`flips`] on the four directions of each half at once, in the 256-bit lanes of
/// AVX2, for the solver's copy compiled for such CPUs (bit for bit the same result).
/// Towards higher bits the nearest non-enemy square is the lowest bit, as in `flips`;
/// towards lower bits, where AVX2 has no leading-zero count, the non-enemy squares are
/// smeared down the ray (3 shifts by 1, 2 and 4 steps cover its 7 squares), which
/// isolates the nearest one and marks every square beyond it.
///
/// # Safety
/// The CPU must have AVX2 (callers compiled with it, or checked at run time).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub fn flips_avx2(own: u64, opp: u64, sq: u8) -> u64 {
    use std::arch::x86_64::*;
    let lanes =
        |r: &[u64; 4]| _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
    let own_v = _mm256_set1_epi64x(own as i64);
    let opp_v = _mm256_set1_epi64x(opp as i64);
    let zero = _mm256_setzero_si256();
    // Up: first non-enemy square, kept if ours; the squares below it flip.
    let r = lanes(&RAYS_UP[sq as usize]);
    let stop = _mm256_andnot_si256(opp_v, r);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
    let outflank = _mm256_and_si256(first, own_v);
    let none = _mm256_cmpeq_epi64(outflank, zero);
    let below = _mm256_add_epi64(outflank, _mm256_cmpeq_epi64(zero, zero));
    let up = _mm256_andnot_si256(none, _mm256_and_si256(r, below));
    // Down (steps W 1, NE 7, N 8, NW 9): smear the non-enemy squares down the ray; the
    // nearest is the one the smear of the others misses, the run is what it misses.
    let step = _mm256_set_epi64x(9, 8, 7, 1);
    let r = lanes(&RAYS_DOWN[sq as usize]);
    let stop = _mm256_andnot_si256(opp_v, r);
    let mut smear = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64(step, 1)));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64(step, 2)));
    let nearest = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), stop);
    let none = _mm256_cmpeq_epi64(_mm256_and_si256(nearest, own_v), zero);
    let down = _mm256_andnot_si256(none, _mm256_andnot_si256(smear, r));
    let f = _mm256_or_si256(up, down);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    _mm_cvtsi128_si64(f) as u64
}

const fn count_flip_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pat = 0;
        while pat < 256 {
            let mut total = 0;
            // Towards lower cells, then towards higher ones.
            let mut i = pos as i32 - 1;
            let mut run = 0;
            while i >= 0 && pat & (1 << i) == 0 {
                run += 1;
                i -= 1;
            }
            if i >= 0 {
                total += run;
            }
            let mut i = pos + 1;
            let mut run = 0;
            while i < 8 && pat & (1 << i) == 0 {
                run += 1;
                i += 1;
            }
            if i < 8 {
                total += run;
            }
            t[pos][pat] = total as u8;
            pat += 1;
        }
        pos += 1;
    }
    t
}

/// Discs turned on a line of 8 cells by a move at cell `pos` (first index) when the
/// mover's discs form the pattern (second index) and every other cell is the opponent's.
static COUNT_FLIP: [[u8; 256]; 8] = count_flip_table();

const fn diagonal_table(anti: bool) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0i32;
        while other < 64 {
            let (oc, or) = (other % 8, other / 8);
            let same = if anti {
                oc + or == c + r
            } else {
                oc - or == c - r
            };
            if same {
                t[sq] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
}

/// The diagonal (column − row constant) through each square.
static DIAGONAL: [u64; 64] = diagonal_table(false);
/// The anti-diagonal (column + row constant) through each square.
static ANTI_DIAGONAL: [u64; 64] = diagonal_table(true);

/// The number of discs a move on `sq` by the owner of `own` turns when `sq` is the only
/// empty square (so every other square not in `own` is the opponent's): the last move
/// of a game, counted from four 8-cell line patterns and a table instead of computing
/// the flipped discs. Lines shorter than 8 read as opponent cells beyond their ends,
/// which is harmless: a run that reaches them finds no disc of the mover to end it.
#[inline(always)]
pub fn last_flip_count(own: u64, sq: u8) -> u32 {
    let (c, r) = (col_of(sq), row_of(sq));
    let row = (own >> (8 * r)) as u8 as usize;
    let col = ((own >> c) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let diag = (own & DIAGONAL[sq as usize]).wrapping_mul(FILE_A) >> 56;
    let anti = (own & ANTI_DIAGONAL[sq as usize]).wrapping_mul(FILE_A) >> 56;
    (COUNT_FLIP[c][row]
        + COUNT_FLIP[r][col as usize]
        + COUNT_FLIP[c][diag as usize]
        + COUNT_FLIP[c][anti as usize]) as u32
}

/// Every square touching a square of `bb` (not `bb` itself unless touched).
#[inline(always)]
pub fn neighbours(bb: u64) -> u64 {
    let h = ((bb << 1) & !FILE_A) | ((bb >> 1) & !FILE_H);
    let row = bb | h;
    h | (row << 8) | (row >> 8)
}

/// Squares from which `k` steps in direction (`dc`, `dr`) leave the board.
const fn off_board_within(dc: i32, dr: i32, k: i32) -> u64 {
    let mut t = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8 + dc * k, sq / 8 + dr * k);
        if c < 0 || c >= 8 || r < 0 || r >= 8 {
            t |= 1u64 << sq;
        }
        sq += 1;
    }
    t
}

/// The squares of `occupied` from which every square in direction (`dc`, `dr`) up to
/// the edge is occupied too (`dc`, `dr` towards higher bits: shift `8 * dr + dc` > 0):
/// three doubling steps cover the longest line, and squares whose next 1, 2 or 4 steps
/// leave the board need no more (which also masks the shifts' wrap-around).
#[inline(always)]
fn full_towards_higher<const DC: i32, const DR: i32>(occupied: u64) -> u64 {
    let s = (8 * DR + DC) as u32;
    let mut x = occupied & ((occupied >> s) | const { off_board_within(DC, DR, 1) });
    x &= (x >> (2 * s)) | const { off_board_within(DC, DR, 2) };
    x &= (x >> (4 * s)) | const { off_board_within(DC, DR, 4) };
    x
}

/// The same towards lower bits (direction (−`dc`, −`dr`)).
#[inline(always)]
fn full_towards_lower<const DC: i32, const DR: i32>(occupied: u64) -> u64 {
    let s = (8 * DR + DC) as u32;
    let mut x = occupied & ((occupied << s) | const { off_board_within(-DC, -DR, 1) });
    x &= (x << (2 * s)) | const { off_board_within(-DC, -DR, 2) };
    x &= (x << (4 * s)) | const { off_board_within(-DC, -DR, 4) };
    x
}

/// The squares whose line along each axis (rows, columns, diagonals with column − row
/// constant, anti-diagonals with column + row constant) is full, per axis: a disc is
/// stable along an axis whose line is full even if its other axes are not. Branch-free
/// shifts: a loop over the 38 lines cost more than the stability it feeds.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    [
        full_towards_higher::<1, 0>(occupied) & full_towards_lower::<1, 0>(occupied),
        full_towards_higher::<0, 1>(occupied) & full_towards_lower::<0, 1>(occupied),
        full_towards_higher::<1, 1>(occupied) & full_towards_lower::<1, 1>(occupied),
        full_towards_higher::<-1, 1>(occupied) & full_towards_lower::<-1, 1>(occupied),
    ]
}

/// A lower bound on the discs of `own` that can never be flipped: a disc is stable when
/// along each of the four axes its line is full, or it touches the board's edge or a
/// stable disc of its own colour on that axis. Grown from the corners and full lines
/// until nothing changes; exact enough to prune an endgame search and to score edges.
#[inline]
pub fn stable(own: u64, opp: u64) -> u64 {
    let [full_h, full_v, full_d, full_a] = full_lines(own | opp);
    // Squares whose axis is settled by the edge.
    let edge_h = FILE_A | FILE_H;
    let edge_v = ROW_1 | ROW_8;
    let edge_d = EDGES;
    let base_h = full_h | edge_h;
    let base_v = full_v | edge_v;
    let base_d = full_d | edge_d;
    let base_a = full_a | edge_d;
    let mut st = own & base_h & base_v & base_d & base_a;
    if st == 0 {
        return 0;
    }
    loop {
        let h = base_h | ((st << 1) & !FILE_A) | ((st >> 1) & !FILE_H);
        let v = base_v | (st << 8) | (st >> 8);
        // c - r constant: +9 / -9. c + r constant: +7 / -7.
        let d = base_d | ((st << 9) & !FILE_A) | ((st >> 9) & !FILE_H);
        let a = base_a | ((st << 7) & !FILE_H) | ((st >> 7) & !FILE_A);
        let next = st | (own & h & v & d & a);
        if next == st {
            return st;
        }
        st = next;
    }
}

/// The squares of a bitboard, one by one (shared by every game).
pub use crate::games::bits::Bits;

#[cfg(test)]
mod tests {
    use super::*;

    /// Square-by-square reference: walk each direction from `sq`.
    fn slow_flips(own: u64, opp: u64, sq: u8) -> u64 {
        if (own | opp) & (1 << sq) != 0 {
            return 0;
        }
        let mut out = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = (col_of(sq) as i32 + dc, row_of(sq) as i32 + dr);
            let mut run = 0;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opp & bit != 0 {
                    run |= bit;
                } else {
                    if own & bit != 0 {
                        out |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn moves_and_flips_match_a_slow_walk() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..20_000 {
            let a = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
            let b = rng.next_u64() & !a;
            let empty = !(a | b);
            let mut slow_moves = 0;
            for sq in Bits(empty) {
                let f = slow_flips(a, b, sq);
                assert_eq!(flips(a, b, sq), f, "own {a:#x} opp {b:#x} sq {sq}");
                if f != 0 {
                    slow_moves |= 1 << sq;
                }
            }
            assert_eq!(moves(a, b), slow_moves, "own {a:#x} opp {b:#x}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_flips_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = crate::rng::SplitMix64::new(9);
        for _ in 0..50_000 {
            let a = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
            let b = rng.next_u64() & !a;
            for sq in Bits(!(a | b)) {
                // SAFETY: the CPU has AVX2 (checked above).
                let v = unsafe { flips_avx2(a, b, sq) };
                assert_eq!(v, flips(a, b, sq), "own {a:#x} opp {b:#x} sq {sq}");
            }
        }
    }

    #[test]
    fn last_flip_counts() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for _ in 0..20_000 {
            let sq = rng.below(64) as u8;
            let own = rng.next_u64() & !(1u64 << sq);
            let opp = !own & !(1u64 << sq);
            assert_eq!(
                last_flip_count(own, sq),
                flips(own, opp, sq).count_ones(),
                "{own:#x} {sq}"
            );
            assert_eq!(
                last_flip_count(opp, sq),
                flips(opp, own, sq).count_ones(),
                "{own:#x} {sq}"
            );
        }
    }

    #[test]
    fn tables() {
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[27].count_ones(), 8);
        for sq in 0..64u8 {
            assert_eq!(neighbours(1 << sq), NEIGHBOURS[sq as usize]);
        }
    }

    /// `full_lines` against a square-by-square walk of each line.
    #[test]
    fn full_lines_match_a_slow_walk() {
        let mut rng = crate::rng::SplitMix64::new(13);
        for i in 0..20_000 {
            // Mostly nearly full boards, where lines fill up.
            let occupied = match i % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() | rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64() | rng.next_u64() | rng.next_u64(),
            };
            let mut want = [0u64; 4];
            for sq in 0..64i32 {
                for (axis, (dc, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
                    let full = [1, -1].iter().all(|&sign| {
                        let (mut c, mut r) = (sq % 8, sq / 8);
                        while (0..8).contains(&c) && (0..8).contains(&r) {
                            if occupied & 1 << (r * 8 + c) == 0 {
                                return false;
                            }
                            c += sign * dc;
                            r += sign * dr;
                        }
                        true
                    });
                    if full {
                        want[axis] |= 1 << sq;
                    }
                }
            }
            assert_eq!(full_lines(occupied), want, "{occupied:#x}");
        }
        assert_eq!(full_lines(FULL), [FULL; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn stability() {
        // A lone corner is stable; the disc next to it on the edge too; an inner one not.
        let own = 1u64 | 1 << 1 | 1 << 9;
        assert_eq!(stable(own, 0), 1 | 1 << 1);
        // A full board: everything is stable.
        assert_eq!(
            stable(0xF0F0_F0F0_F0F0_F0F0, 0x0F0F_0F0F_0F0F_0F0F),
            0xF0F0_F0F0_F0F0_F0F0
        );
        // Nothing without a corner or a full line.
        assert_eq!(stable(1 << 27, 1 << 28), 0);
    }
}

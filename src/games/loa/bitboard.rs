//! 8×8 bitboards in a `u64`: bit `rank * 8 + file`, rank 0 = row 1, file 0 = column a.
//!
//! Besides the usual masks this holds the tables the move generator needs: the four
//! lines (row, column, diagonal, anti-diagonal) through each square, where a move of a
//! given length in a given direction lands, and the squares strictly between two
//! aligned squares (which must hold no enemy piece). Everything is computed at compile
//! time.

/// Number of squares.
pub const SQUARES: usize = 64;
/// Column a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub const FILE_H: u64 = FILE_A << 7;
/// Row 1.
pub const RANK_1: u64 = 0xff;
/// Row 8.
pub const RANK_8: u64 = RANK_1 << 56;

/// The square at `file` (0 = a) and `rank` (0 = row 1).
#[inline]
pub const fn square(file: usize, rank: usize) -> u8 {
    (rank * 8 + file) as u8
}

/// File (0..8) of a square.
#[inline]
pub const fn file_of(sq: u8) -> usize {
    sq as usize % 8
}

/// Rank (0..8) of a square.
#[inline]
pub const fn rank_of(sq: u8) -> usize {
    sq as usize / 8
}

/// Chebyshev (king-step) distance between two squares.
#[inline]
pub const fn distance(a: u8, b: u8) -> usize {
    crate::games::bits::chebyshev(a, b, 8)
}

/// Number of line counters: 8 rows, 8 columns, 15 diagonals, 15 anti-diagonals.
pub const N_LINES: usize = 8 + 8 + 15 + 15;

/// The eight directions as (file step, rank step). Direction `d` moves along line kind
/// `d / 2` (0 row, 1 column, 2 diagonal, 3 anti-diagonal), so opposite directions
/// share a counter.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// The four line counters through each square, in line-kind order.
pub static LINE_IDS: [[u8; 4]; SQUARES] = {
    let mut out = [[0u8; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let f = sq % 8;
        let r = sq / 8;
        out[sq] = [
            r as u8,
            (8 + f) as u8,
            (16 + f + 7 - r) as u8,
            (31 + f + r) as u8,
        ];
        sq += 1;
    }
    out
};

/// Marks "off the board" in [`TARGET`].
pub const NO_SQUARE: u8 = 64;

/// `TARGET[sq][dir][n]`: where a move of exactly `n` steps from `sq` in direction `dir`
/// lands, or [`NO_SQUARE`] if that leaves the board. `n` is a line count (1..=8).
pub static TARGET: [[[u8; 9]; 8]; SQUARES] = {
    let mut out = [[[NO_SQUARE; 9]; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            let mut n = 1;
            while n < 9 {
                let f = (sq % 8) as i32 + DIRECTIONS[d].0 * n as i32;
                let r = (sq / 8) as i32 + DIRECTIONS[d].1 * n as i32;
                if f >= 0 && f < 8 && r >= 0 && r < 8 {
                    out[sq][d][n] = (r * 8 + f) as u8;
                }
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    out
};

/// `PATH[sq][dir][n]`: the squares a move of exactly `n` steps from `sq` in direction
/// `dir` crosses, landing square included; empty if it would leave the board. One
/// table for the whole legality test keeps the generator's working set small.
pub static PATH: [[[u64; 9]; 8]; SQUARES] = {
    let mut out = [[[0u64; 9]; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            let mut path = 0u64;
            let mut n = 1;
            while n < 9 {
                let t = TARGET[sq][d][n];
                if t == NO_SQUARE {
                    break;
                }
                path |= 1u64 << t;
                out[sq][d][n] = path;
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    out
};

/// The landing square of a non-empty [`PATH`] entry as a bitboard: the path's far end,
/// which is its highest bit for the even (increasing) directions and its lowest bit
/// for the odd ones.
#[inline]
pub fn landing(path: u64, dir: usize) -> u64 {
    if dir & 1 == 0 {
        (1u64 << 63) >> path.leading_zeros()
    } else {
        path & path.wrapping_neg()
    }
}

/// True if a piece of the side owning `own` may move along `path` (a [`PATH`] entry in
/// direction `dir`): it stays on the board, crosses no enemy piece and does not land on
/// its own.
#[inline]
pub fn path_open(path: u64, dir: usize, own: u64, opp: u64) -> bool {
    let land = landing(path, dir);
    path != 0 && (path & !land & opp) | (land & own) == 0
}

/// Every square at king-step distance ≤ 1 of some square in `bb` (`bb` included).
#[inline]
pub fn dilate(bb: u64) -> u64 {
    let h = bb | ((bb << 1) & !FILE_A) | ((bb >> 1) & !FILE_H);
    h | (h << 8) | (h >> 8)
}

/// Every square adjacent (8-neighbourhood) to some square in `bb`, `bb` excluded unless
/// adjacent to another of its squares.
#[inline]
pub fn neighbours(bb: u64) -> u64 {
    let h = ((bb << 1) & !FILE_A) | ((bb >> 1) & !FILE_H);
    h | ((h | bb) << 8) | ((h | bb) >> 8)
}

/// True if the squares of `bb` form one 8-connected group (a single square does).
/// An empty set is not a group. Isolated squares are rejected before the flood fill,
/// which is the common case in play.
#[inline]
pub fn is_connected(bb: u64) -> bool {
    if bb & (bb.wrapping_sub(1)) == 0 {
        return bb != 0;
    }
    if bb & !neighbours(bb) != 0 {
        return false;
    }
    let mut group = bb & bb.wrapping_neg();
    loop {
        let grown = dilate(group) & bb;
        if grown == group {
            return group == bb;
        }
        group = grown;
    }
}

/// The number of 8-connected groups in `bb`.
pub fn groups(mut bb: u64) -> u32 {
    let mut n = 0;
    while bb != 0 {
        let mut group = bb & bb.wrapping_neg();
        loop {
            let grown = dilate(group) & bb;
            if grown == group {
                break;
            }
            group = grown;
        }
        bb &= !group;
        n += 1;
    }
    n
}

/// The squares of a bitboard, one by one (shared by every game).
pub use crate::games::bits::Bits;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        // a1 → h8 diagonal: seven squares crossed, the last one h8.
        assert_eq!(PATH[0][4][7].count_ones(), 7);
        assert_eq!(landing(PATH[0][4][7], 4), 1 << 63);
        assert_eq!(landing(PATH[63][5][7], 5), 1);
        assert_eq!(PATH[0][1][1], 0);
        assert_eq!(TARGET[0][0][7], 7);
        assert_eq!(TARGET[0][0][8], NO_SQUARE);
        assert_eq!(TARGET[0][1][1], NO_SQUARE);
        for sq in 0..SQUARES {
            assert_eq!(dilate(1 << sq), neighbours(1 << sq) | 1 << sq);
            for d in 0..8 {
                let t = TARGET[sq][d][1];
                for n in 1..9 {
                    let far = TARGET[sq][d][n];
                    let path = PATH[sq][d][n];
                    assert_eq!(far == NO_SQUARE, path == 0);
                    if far != NO_SQUARE {
                        assert_eq!(landing(path, d), 1 << far);
                        assert_eq!(path.count_ones() as usize, n);
                    }
                }
                if t != NO_SQUARE {
                    assert_eq!(distance(sq as u8, t), 1);
                    // Opposite directions share the line counter.
                    assert_eq!(LINE_IDS[sq][d / 2], LINE_IDS[t as usize][d / 2]);
                }
            }
        }
        let mut ids: Vec<u8> = LINE_IDS.iter().flatten().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), N_LINES);
    }

    #[test]
    fn connectivity() {
        assert!(!is_connected(0));
        assert!(is_connected(1 << 27));
        assert!(is_connected(1 | 1 << 9 | 1 << 18)); // a1 b2 c3
        assert!(!is_connected(1 | 1 << 2)); // a1 c1
        assert!(!is_connected(1 << 7 | 1 << 8)); // h1 a2: no wrap-around
        assert!(!is_connected(
            1 | 1 << 1 | 1 << 9 | 1 << 40 | 1 << 41 | 1 << 49
        ));
        assert_eq!(groups(1 | 1 << 1 | 1 << 9 | 1 << 40 | 1 << 41 | 1 << 49), 2);
        assert_eq!(groups(0), 0);
        assert_eq!(groups(!0), 1);
    }
}

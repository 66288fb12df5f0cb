//! 7×7 bitboards in a `u64`: bit `rank * 7 + file`, rank 0 = row 1, file 0 = column a.
//! Bits 49..63 are always zero.

/// All 49 squares.
pub const FULL: u64 = (1u64 << 49) - 1;
/// Column a.
pub const FILE_A: u64 = {
    let mut bb = 0;
    let mut r = 0;
    while r < 7 {
        bb |= 1 << (r * 7);
        r += 1;
    }
    bb
};
/// Column g.
pub const FILE_G: u64 = FILE_A << 6;

/// Number of squares.
pub const SQUARES: usize = 49;

/// The square at `file` (0 = a) and `rank` (0 = row 1).
#[inline]
pub const fn square(file: usize, rank: usize) -> u8 {
    (rank * 7 + file) as u8
}

/// File (0..7) of a square.
#[inline]
pub const fn file_of(sq: u8) -> usize {
    sq as usize % 7
}

/// Rank (0..7) of a square.
#[inline]
pub const fn rank_of(sq: u8) -> usize {
    sq as usize / 7
}

/// Chebyshev distance between two squares.
#[inline]
pub const fn distance(a: u8, b: u8) -> usize {
    let df = file_of(a).abs_diff(file_of(b));
    let dr = rank_of(a).abs_diff(rank_of(b));
    if df > dr {
        df
    } else {
        dr
    }
}

const fn ring(sq: usize, d: usize) -> u64 {
    let mut bb = 0;
    let mut t = 0;
    while t < SQUARES {
        if distance(sq as u8, t as u8) == d {
            bb |= 1 << t;
        }
        t += 1;
    }
    bb
}

const fn rings(d: usize) -> [u64; SQUARES] {
    let mut out = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = ring(sq, d);
        sq += 1;
    }
    out
}

/// Squares at distance exactly 1 (the targets of a single / the squares it captures).
pub static ADJACENT: [u64; SQUARES] = rings(1);
/// Squares at distance exactly 2 (the targets of a double / jump).
pub static JUMPS: [u64; SQUARES] = rings(2);

/// Every square at distance ≤ 1 of some square in `bb` (including `bb` itself).
#[inline]
pub fn dilate(bb: u64) -> u64 {
    let h = bb | ((bb << 1) & FULL & !FILE_A) | ((bb >> 1) & !FILE_G);
    (h | (h << 7) | (h >> 7)) & FULL
}

/// Every square at distance ≤ 2 of some square in `bb`.
#[inline]
pub fn dilate2(bb: u64) -> u64 {
    dilate(dilate(bb))
}

/// Iterates over the set bits of a bitboard as square indices.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilate_matches_tables() {
        for sq in 0..SQUARES {
            let bb = 1u64 << sq;
            assert_eq!(dilate(bb), ADJACENT[sq] | bb, "square {sq}");
            assert_eq!(dilate2(bb), JUMPS[sq] | ADJACENT[sq] | bb, "square {sq}");
        }
        assert_eq!(ADJACENT[0].count_ones(), 3);
        assert_eq!(JUMPS[0].count_ones(), 5);
        assert_eq!(ADJACENT[24].count_ones(), 8);
        assert_eq!(JUMPS[24].count_ones(), 16);
        assert_eq!(FILE_A.count_ones(), 7);
        assert_eq!(FILE_G & FULL, FILE_G);
    }
}

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
    crate::games::bits::chebyshev(a, b, 7)
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

/// For every square, how many of its (up to 8) neighbours are in `bb`, bit-sliced: bit
/// `p` of the count is in plane `p`. Adds the eight shifted boards with a carry-save
/// adder tree: about 60 bit operations for all 49 squares at once, where a loop over
/// squares costs a table lookup and a popcount each.
#[inline]
pub fn neighbour_counts(bb: u64) -> [u64; 4] {
    let east = (bb << 1) & !FILE_A & FULL;
    let west = (bb >> 1) & !FILE_G;
    let x = [
        east,
        west,
        (bb << 7) & FULL,
        bb >> 7,
        (east << 7) & FULL,
        east >> 7,
        (west << 7) & FULL,
        west >> 7,
    ];
    let full_add = |a: u64, b: u64, c: u64| (a ^ b ^ c, (a & b) | (c & (a ^ b)));
    let (s1, c1) = full_add(x[0], x[1], x[2]);
    let (s2, c2) = full_add(x[3], x[4], x[5]);
    let (s3, c3) = (x[6] ^ x[7], x[6] & x[7]);
    let (ones, c4) = full_add(s1, s2, s3);
    let (t, d1) = full_add(c1, c2, c3);
    let (twos, d2) = (t ^ c4, t & c4);
    [ones, twos, d1 ^ d2, d1 & d2]
}

/// The largest count among the squares of `among`, given bit-sliced counts (0 when
/// `among` is empty): keep the candidates with the highest bit set, plane by plane.
#[inline]
pub fn max_count(planes: &[u64; 4], among: u64) -> i32 {
    let (mut candidates, mut max) = (among, 0);
    for p in (0..4).rev() {
        let with_bit = candidates & planes[p];
        if with_bit != 0 {
            candidates = with_bit;
            max |= 1 << p;
        }
    }
    max
}

/// The squares of a bitboard, one by one (shared by every game).
pub use crate::games::bits::Bits;

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
    }

    #[test]
    fn neighbour_counts_match_the_adjacency_table() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..2000 {
            let bb = rng.next_u64() & rng.next_u64() & FULL;
            let planes = neighbour_counts(bb);
            for (sq, adjacent) in ADJACENT.iter().enumerate() {
                let count: u32 = (0..4)
                    .map(|p| ((planes[p] >> sq) & 1) as u32 * (1 << p))
                    .sum();
                assert_eq!(count, (adjacent & bb).count_ones(), "square {sq}");
            }
            assert!(planes.iter().all(|p| p & !FULL == 0));
            let among = rng.next_u64() & FULL;
            let slow = Bits(among)
                .map(|s| (ADJACENT[s as usize] & bb).count_ones() as i32)
                .max()
                .unwrap_or(0);
            assert_eq!(max_count(&planes, among), slow);
        }
        assert_eq!(JUMPS[24].count_ones(), 16);
        assert_eq!(FILE_A.count_ones(), 7);
        assert_eq!(FILE_G & FULL, FILE_G);
    }
}

//! What every game's bitboards share: the squares of a 64-bit board, one by one, and
//! the king-step distance between two of them.

/// Iterates over the set bits of a bitboard as square indices, lowest first.
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

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

/// The Chebyshev (king-step) distance between squares `a` and `b` of a board `width`
/// squares wide whose squares are numbered row by row.
#[inline]
pub const fn chebyshev(a: u8, b: u8, width: usize) -> usize {
    let (a, b) = (a as usize, b as usize);
    let df = (a % width).abs_diff(b % width);
    let dr = (a / width).abs_diff(b / width);
    if df > dr {
        df
    } else {
        dr
    }
}

#[cfg(test)]
mod tests {
    use super::{chebyshev, Bits};

    #[test]
    fn squares_in_order() {
        assert_eq!(Bits(0).collect::<Vec<_>>(), Vec::<u8>::new());
        assert_eq!(Bits(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(Bits(1 << 63).len(), 1);
        assert_eq!(Bits(u64::MAX).count(), 64);
    }

    #[test]
    fn king_step_distances() {
        // a1 to c2 on a 7-wide board: two files, one rank.
        assert_eq!(chebyshev(0, 9, 7), 2);
        assert_eq!(chebyshev(9, 0, 7), 2);
        // a1 to h8 on 8×8, and a square to itself.
        assert_eq!(chebyshev(0, 63, 8), 7);
        assert_eq!(chebyshev(27, 27, 8), 0);
    }
}

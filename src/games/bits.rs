//! What every game's bitboards share: the squares of a 64-bit board, one by one.

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

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn squares_in_order() {
        assert_eq!(Bits(0).collect::<Vec<_>>(), Vec::<u8>::new());
        assert_eq!(Bits(0b1010_0001).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(Bits(1 << 63).len(), 1);
        assert_eq!(Bits(u64::MAX).count(), 64);
    }
}

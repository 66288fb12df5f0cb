//! Zobrist keys as compile-time constants from a fixed-seed generator, so hashes (and
//! with them the bench signature) never change with a dependency's random streams.

/// SplitMix64 step: returns the next state and its output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` pseudo-random keys from `seed`.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix64(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_stable() {
        let k: [u64; 64] = super::keys(1);
        let mut sorted = k.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_eq!(k, super::keys::<64>(1));
    }
}

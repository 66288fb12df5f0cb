//! Pattern evaluation: the predicted final disc difference of an endgame position,
//! which ordered the exact solver's moves until issue 45 (the solver now orders with
//! the 46-instance midgame evaluation, `midgame.rs`, which with the ordering constants
//! re-measured for it cut its nodes by 14–29% on the FFO sets: `docs/reversi.md`,
//! "Eighth round"). `tune reversi-patterns` still fits
//! it, and the midgame evaluation uses its board transforms and [`pext_is_fast`].
//!
//! The mobility evaluation that ordered them before knows nothing of edges and
//! corners (and searching deeper with it ordered worse, not better). Othello engines
//! (Logistello, Edax) instead sum weights looked up by the exact contents of lines and
//! corner regions: each pattern instance reads its squares as a base-3 number (empty,
//! own, opponent) and adds that configuration's weight. The patterns here, each anchored
//! at a1 and read in every orientation of the board that gives a new instance:
//!
//! | pattern | squares | instances |
//! |---|---|---|
//! | corner 3×3 | a1–c3 | 4 |
//! | edge + 2 X | row 1, b2, g2 | 4 |
//!
//! plus mobility (corners double), potential mobility and a constant. More patterns fit
//! the scores better but cost more than they save in the solver: with the corner 2×5
//! (8 more instances) the fit is better and the solver visits a few fewer nodes, but
//! each evaluation is dearer and FFO #40–#49 took longer; rows 2–4 and the diagonals
//! (30 more) fitted no better than that; the edge alone orders worse (figures:
//! `docs/reversi.md`, "Measurements behind the constants"). The weights are ours,
//! fitted by `tune reversi-patterns` to the exact scores of positions our solver
//! solved (`docs/reversi.md`), and embedded from `patterns.bin`. Every instance is read
//! with shifts and masks on the transformed boards, no loop over squares; the solver's
//! AVX2 copy gathers them with BMI2's `pext` instead ([`evaluate_bmi2`]).

use super::bitboard::{moves, neighbours, CORNERS};
use std::sync::OnceLock;

/// One kind of pattern: how many squares it reads and the board orientations (see
/// [`orient`]) whose a1-anchored reading gives a distinct instance.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    pub name: &'static str,
    pub squares: u32,
    pub orientations: &'static [usize],
}

/// Orientations that bring each corner to a1 once.
const CORNER_ONCE: &[usize] = &[0, 1, 2, 3];
/// Orientations that bring each edge to row 1 once: top, bottom, left, right.
const EDGES_ONCE: &[usize] = &[0, 2, 4, 5];

/// The patterns, in the order of their weights.
pub const PATTERNS: [Pattern; 2] = [
    Pattern {
        name: "corner3x3",
        squares: 9,
        orientations: CORNER_ONCE,
    },
    Pattern {
        name: "edge2x",
        squares: 10,
        orientations: EDGES_ONCE,
    },
];

/// Weight index of the first configuration of each pattern, then of the scalar terms.
const OFFSETS: [usize; PATTERNS.len() + 1] = offsets();

const fn offsets() -> [usize; PATTERNS.len() + 1] {
    let mut out = [0; PATTERNS.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        out[i + 1] = out[i] + 3usize.pow(PATTERNS[i].squares);
        i += 1;
    }
    out
}

/// The scalar terms after the patterns: mobility, potential mobility, the constant.
pub const SCALARS: usize = 3;
/// Number of weights.
pub const N_WEIGHTS: usize = OFFSETS[PATTERNS.len()] + SCALARS;
/// Index of the mobility weight (per move, corners counting twice; ours minus theirs).
pub const MOBILITY: usize = OFFSETS[PATTERNS.len()];
/// Index of the potential mobility weight (empty squares next to enemy discs).
pub const POTENTIAL: usize = MOBILITY + 1;
/// Evaluation units per disc: weights are fixed-point with this scale.
pub const SCALE: i32 = 64;

/// A binary number read as base 3 (bit `i` becomes digit `i`), for up to 10 bits.
static TERNARY: [u16; 1024] = ternary_table();

const fn ternary_table() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 10 {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// Mirror top to bottom (row 1 ↔ row 8).
#[inline(always)]
const fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right (column a ↔ column h).
#[inline(always)]
const fn mirror_horizontal(b: u64) -> u64 {
    let b = (b >> 1 & 0x5555_5555_5555_5555) | (b & 0x5555_5555_5555_5555) << 1;
    let b = (b >> 2 & 0x3333_3333_3333_3333) | (b & 0x3333_3333_3333_3333) << 2;
    (b >> 4 & 0x0F0F_0F0F_0F0F_0F0F) | (b & 0x0F0F_0F0F_0F0F_0F0F) << 4
}

/// Mirror in the a1–h8 diagonal (square (col, row) to (row, col)).
#[inline(always)]
const fn transpose(mut b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ b << 28);
    b ^= t ^ t >> 28;
    let t = 0x3333_0000_3333_0000 & (b ^ b << 14);
    b ^= t ^ t >> 14;
    let t = 0x5500_5500_5500_5500 & (b ^ b << 7);
    b ^= t ^ t >> 7;
    b
}

/// The board in orientation `k`: 0 as is, 1 mirrored left to right, 2 top to bottom,
/// 3 both (each corner comes to a1 once), 4–7 the same then transposed.
#[inline(always)]
pub const fn orient(b: u64, k: usize) -> u64 {
    let b = match k & 3 {
        0 => b,
        1 => mirror_horizontal(b),
        2 => flip_vertical(b),
        _ => flip_vertical(mirror_horizontal(b)),
    };
    if k >= 4 {
        transpose(b)
    } else {
        b
    }
}

/// The squares of pattern `p` in a board oriented so that the pattern sits at a1, as
/// the low bits of the result (at most 10).
#[inline(always)]
const fn read(p: usize, x: u64) -> usize {
    let bits = match p {
        0 => (x & 7) | (x >> 5 & 0x38) | (x >> 10 & 0x1C0),
        _ => (x & 0xFF) | (x >> 1 & 0x100) | (x >> 5 & 0x200),
    };
    bits as usize
}

/// Calls `f(weight index, value)` for every term of the position `own` to move against
/// `opp`: each pattern instance (value 1), then the scalar terms. The evaluation is
/// Σ weight × value; the trainer uses the same enumeration, so the two cannot differ.
#[inline(always)]
pub fn for_each_term(own: u64, opp: u64, mut f: impl FnMut(usize, i32)) {
    // The orientations the instances use (0 to 5, as `orient` numbers them) of both
    // boards, then every instance written out: with the pattern a constant, each
    // reading is a few shifts and masks (a loop over the instances cost several times
    // as much).
    let sides = |b: u64| {
        let m = mirror_horizontal(b);
        [
            b,
            m,
            flip_vertical(b),
            flip_vertical(m),
            transpose(b),
            transpose(m),
        ]
    };
    let (o, p) = (sides(own), sides(opp));
    macro_rules! instances {
        ($pattern:literal: $($k:literal)*) => {
            $(f(
                OFFSETS[$pattern]
                    + TERNARY[read($pattern, o[$k])] as usize
                    + 2 * TERNARY[read($pattern, p[$k])] as usize,
                1,
            );)*
        };
    }
    // Keep in step with `PATTERNS[..].orientations` (a test checks).
    instances!(0: 0 1 2 3);
    instances!(1: 0 2 4 5);
    let (mobility, potential) = scalar_terms(own, opp);
    f(MOBILITY, mobility);
    f(POTENTIAL, potential);
    f(POTENTIAL + 1, 1);
}

/// Mobility (corners counting twice) and potential mobility, ours minus theirs.
#[inline(always)]
fn scalar_terms(own: u64, opp: u64) -> (i32, i32) {
    let (a, b) = (moves(own, opp), moves(opp, own));
    let mobility = (a.count_ones() + (a & CORNERS).count_ones()) as i32
        - (b.count_ones() + (b & CORNERS).count_ones()) as i32;
    let empty = !(own | opp);
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(own) & empty).count_ones() as i32;
    (mobility, potential)
}

/// The evaluation of `own` to move against `opp` with `weights`, in [`SCALE`] units per
/// disc of predicted final difference.
#[inline(always)]
pub fn evaluate(weights: &[i16], own: u64, opp: u64) -> i32 {
    let mut sum = 0i32;
    for_each_term(own, opp, |i, v| sum += weights[i] as i32 * v);
    sum
}

/// The pattern instances in the order [`for_each_term`] visits them: (pattern, the
/// orientation that brings it to a1).
const INSTANCES: [(usize, usize); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 0),
    (1, 2),
    (1, 4),
    (1, 5),
];

/// For each instance, the squares of the original board it reads (as a mask) and, for
/// each subset of them taken in square order (as BMI2's `pext` gathers them), the
/// base-3 number whose digits are those squares' places in the pattern: the reading of
/// [`for_each_term`] without transforming the board.
struct Gather {
    masks: [u64; 8],
    ternary: [[u16; 1024]; 8],
}

static GATHER: Gather = gather();

const fn gather() -> Gather {
    let mut masks = [0u64; 8];
    let mut ternary = [[0u16; 1024]; 8];
    let mut i = 0;
    while i < 8 {
        let (p, k) = INSTANCES[i];
        // The pattern digit of each square the instance reads, in square order.
        let mut digits = [0u32; 10];
        let mut n = 0;
        let mut sq = 0;
        while sq < 64 {
            let bits = read(p, orient(1 << sq, k));
            if bits != 0 {
                masks[i] |= 1 << sq;
                digits[n] = bits.trailing_zeros();
                n += 1;
            }
            sq += 1;
        }
        let mut b = 0;
        while b < 1 << n {
            let mut v = 0u16;
            let mut j = 0;
            while j < n {
                if b >> j & 1 == 1 {
                    v += 3u16.pow(digits[j]);
                }
                j += 1;
            }
            ternary[i][b] = v;
            b += 1;
        }
        i += 1;
    }
    Gather { masks, ternary }
}

/// [`evaluate`] with BMI2: each instance's squares gathered straight from the two boards
/// by `pext` and read as base 3 through [`GATHER`], instead of six transformed copies
/// of each board (the same sum; a test compares them). It takes a little off the
/// solver's time (`docs/reversi.md`, "Measurements behind the constants").
///
/// # Safety
/// The CPU must have BMI2 and POPCNT (callers compiled with them, as the solver's
/// AVX2 copy is, or checked at run time). Call it only where [`pext_is_fast`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "bmi2,popcnt")]
pub fn evaluate_bmi2(weights: &[i16], own: u64, opp: u64) -> i32 {
    use std::arch::x86_64::_pext_u64;
    let mut sum = 0i32;
    let mut i = 0;
    while i < 8 {
        let m = GATHER.masks[i];
        let t = &GATHER.ternary[i];
        let index = OFFSETS[INSTANCES[i].0]
            + t[_pext_u64(own, m) as usize] as usize
            + 2 * t[_pext_u64(opp, m) as usize] as usize;
        sum += weights[index] as i32;
        i += 1;
    }
    let (mobility, potential) = scalar_terms(own, opp);
    sum + weights[MOBILITY] as i32 * mobility
        + weights[POTENTIAL] as i32 * potential
        + weights[POTENTIAL + 1] as i32
}

/// Whether this CPU has BMI2 and runs `pext` in hardware: AMD's CPUs before Zen 3
/// (family 19h) have it microcoded, hundreds of cycles each, which would make
/// [`evaluate_bmi2`] many times slower than [`evaluate`].
pub fn pext_is_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !(std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt"))
        {
            return false;
        }
        let (vendor, signature) = (__cpuid(0), __cpuid(1));
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
        pext_fast_on(amd, signature.eax)
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether a CPU with BMI2 and the processor signature `eax` (CPUID leaf 1) runs `pext`
/// in hardware: all but AMD's before family 19h.
fn pext_fast_on(amd: bool, eax: u32) -> bool {
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    };
    !amd || family >= 0x19
}

/// The embedded weights.
static FILE: &[u8] = include_bytes!("patterns.bin");

/// The weights' file: `RVPAT1`, the weight count as a little-endian u32, then that many
/// little-endian i16.
pub const MAGIC: &[u8; 6] = b"RVPAT1";

/// Parses a weights file.
pub fn parse(bytes: &[u8]) -> Result<Vec<i16>, String> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or("not a pattern weights file")?;
    let (count, rest) = rest.split_at_checked(4).ok_or("truncated header")?;
    let count = u32::from_le_bytes(count.try_into().expect("4 bytes")) as usize;
    if count != N_WEIGHTS || rest.len() != 2 * count {
        return Err(format!(
            "{count} weights in {} bytes, expected {N_WEIGHTS}",
            rest.len()
        ));
    }
    Ok(rest
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// Writes weights in the file format of [`parse`].
pub fn serialize(weights: &[i16]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend((weights.len() as u32).to_le_bytes());
    for w in weights {
        out.extend(w.to_le_bytes());
    }
    out
}

/// The embedded weights, parsed once.
pub fn weights() -> &'static [i16] {
    static W: OnceLock<Vec<i16>> = OnceLock::new();
    W.get_or_init(|| parse(FILE).expect("the embedded pattern weights are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::bitboard::square;
    use std::collections::HashSet;

    /// The squares (of the original board) each instance of pattern `p` reads.
    fn instances(p: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for &k in PATTERNS[p].orientations {
            let mut squares = vec![64u8; PATTERNS[p].squares as usize];
            for sq in 0..64u8 {
                let bits = read(p, orient(1 << sq, k));
                if bits != 0 {
                    assert_eq!(bits.count_ones(), 1, "pattern {p} orientation {k}");
                    squares[bits.trailing_zeros() as usize] = sq;
                }
            }
            assert!(!squares.contains(&64), "pattern {p} reads all its squares");
            out.push(squares);
        }
        out
    }

    #[test]
    fn symmetries_move_squares_as_named() {
        for c in 0..8 {
            for r in 0..8 {
                let b = 1u64 << square(c, r);
                assert_eq!(transpose(b), 1 << square(r, c));
                assert_eq!(mirror_horizontal(b), 1 << square(7 - c, r));
                assert_eq!(flip_vertical(b), 1 << square(c, 7 - r));
            }
        }
    }

    #[test]
    fn instances_are_distinct_and_cover_the_symmetric_squares() {
        let name = |v: &Vec<u8>| {
            let mut s = v.clone();
            s.sort();
            s
        };
        for (p, pattern) in PATTERNS.iter().enumerate() {
            let all = instances(p);
            let sets: HashSet<Vec<u8>> = all.iter().map(name).collect();
            assert_eq!(sets.len(), all.len(), "{}", pattern.name);
            // Every symmetric image of the a1 instance is one of them.
            let first: u64 = all[0].iter().map(|&s| 1u64 << s).sum();
            for k in 0..8 {
                let image = orient(first, k);
                let squares: Vec<u8> = (0..64).filter(|&s| image >> s & 1 == 1).collect();
                assert!(sets.contains(&squares), "{} image {k}", pattern.name);
            }
        }
        assert_eq!(instances(0)[0], [0, 1, 2, 8, 9, 10, 16, 17, 18]);
        assert_eq!(instances(1)[0], [0, 1, 2, 3, 4, 5, 6, 7, 9, 14]);
    }

    #[test]
    fn terms_read_each_square_as_empty_own_or_opponent() {
        // a1 own, b1 opponent: the a1 corner's 3×3 index is 1 + 2·3.
        let mut seen = Vec::new();
        for_each_term(1, 2, |i, v| seen.push((i, v)));
        assert!(seen.contains(&(OFFSETS[0] + 1 + 2 * 3, 1)));
        let instances: usize = PATTERNS.iter().map(|p| p.orientations.len()).sum();
        assert_eq!(seen.len(), instances + SCALARS);
        // The written-out instances are those `PATTERNS` lists, in its order: on a board
        // with one own disc, each reads 1 exactly where that square is in it.
        for sq in 0..64u8 {
            let mut got = Vec::new();
            for_each_term(1 << sq, 0, |i, _| got.push(i));
            let mut want = Vec::new();
            for (p, pattern) in PATTERNS.iter().enumerate() {
                for &k in pattern.orientations {
                    want.push(OFFSETS[p] + TERNARY[read(p, orient(1 << sq, k))] as usize);
                }
            }
            want.extend(OFFSETS[PATTERNS.len()]..N_WEIGHTS);
            assert_eq!(got, want, "square {sq}");
        }
    }

    #[test]
    fn gathered_instances_are_the_written_out_ones() {
        // `INSTANCES` lists what `for_each_term` reads, in its order.
        let listed: Vec<(usize, usize)> = PATTERNS
            .iter()
            .enumerate()
            .flat_map(|(p, pattern)| pattern.orientations.iter().map(move |&k| (p, k)))
            .collect();
        assert_eq!(listed, INSTANCES);
    }

    #[test]
    fn pext_is_slow_only_on_older_amd() {
        assert!(!pext_fast_on(true, 0x0080_0F11)); // Zen (family 17h)
        assert!(!pext_fast_on(true, 0x0087_0F10)); // Zen 2 (17h)
        assert!(!pext_fast_on(true, 0x0060_0F20)); // Excavator (15h)
        assert!(pext_fast_on(true, 0x00A2_0F10)); // Zen 3 (19h)
        assert!(pext_fast_on(true, 0x00B4_0F40)); // Zen 5 (1Ah)
        assert!(pext_fast_on(false, 0x0003_06C3)); // Intel Haswell
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn bmi2_evaluation_agrees() {
        if !(std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt"))
        {
            return;
        }
        let w = weights();
        let mut x = 0x0123_4567_89AB_CDEFu64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..100_000 {
            let (a, b) = (next(), next());
            let (own, opp) = (a & !b, b & !a);
            // SAFETY: the CPU has BMI2 and POPCNT (checked above).
            let fast = unsafe { evaluate_bmi2(w, own, opp) };
            assert_eq!(fast, evaluate(w, own, opp), "{own:#x} {opp:#x}");
        }
    }

    #[test]
    fn embedded_weights_parse_and_round_trip() {
        let w = weights();
        assert_eq!(w.len(), N_WEIGHTS);
        assert_eq!(parse(&serialize(w)).unwrap(), w);
        assert!(parse(b"RVPAT1\x01\x00\x00\x00\x00\x00").is_err());
        assert!(parse(b"nope").is_err());
    }
}

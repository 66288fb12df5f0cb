//! The midgame evaluation: the predicted final disc difference for the side to move,
//! summed from weights looked up by the exact contents of lines and corner regions, one
//! weight table per stage of the game.
//!
//! Othello is decided by edge and corner configurations that no handful of terms
//! describes (an edge is good or bad by who can take it back, a corner region by which
//! discs are stable), so, as the classic engines do, each pattern instance reads its
//! squares as a base-3 number (empty, own, opponent) and adds that configuration's
//! weight. The shapes, each read at every image of the board under its eight symmetries
//! that covers a new set of squares:
//!
//! | shape | squares | instances |
//! |---|---|---|
//! | corner 3×3 | a1–c3 | 4 |
//! | edge + 2 X | row 1, b2, g2 | 4 |
//! | corner 2×5 | a1–e2 | 8 |
//! | rows 2, 3, 4 | a2–h2, a3–h3, a4–h4 | 4 each |
//! | diagonals of 8, 7, 6, 5, 4 squares | a1–h8, b1–h7, c1–h6, d1–h5, e1–h4 | 2, 4, 4, 4, 4 |
//!
//! plus mobility, potential mobility, the parity of the empty squares and a constant:
//! 46 lookups. One table for every four empty squares ([`PHASES`]). An instance that
//! a symmetry maps onto itself (an edge mirrored) reads the same weight both ways: the
//! fit ties them (`tune reversi-eval`), the file stores them expanded.
//!
//! The weights are ours, fitted by `tune reversi-eval` to the final disc differences of
//! our own self-play games whose last 18 empties the exact solver played
//! (`tune reversi-games`; figures in `docs/reversi.md`), and embedded from
//! `midgame.bin`. The search's positions keep every instance's reading up to date move
//! by move (`indices.rs`, [`evaluate_indexed`]); a bare pair of boards (the solver's) is
//! read afresh: with BMI2 each instance's squares are gathered by `pext` straight from
//! the two boards, elsewhere square by square (the same sum; tests compare all three).

use super::bitboard::{moves, neighbours};
pub use super::indices::{Shape, INSTANCES, SHAPES};
use super::indices::{LANES, OFFSETS};
use super::pattern::{orient, pext_is_fast};
use std::sync::OnceLock;

/// The scalar terms after the patterns: mobility, potential mobility, parity (1 when
/// the empties are odd: the side to move plays last), the constant.
pub const SCALARS: usize = 4;
/// Weight tables: one for each four empty squares, 1–4 to 57–60.
pub const PHASES: usize = 15;
/// Weight units per disc.
pub const SCALE: i32 = 64;
/// Evaluation units per disc: what [`evaluate`] returns for a one-disc advantage. The
/// search's margins were set for the linear evaluation's 16.8.
pub const UNITS_PER_DISC: i32 = 16;

/// The weight table of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties.saturating_sub(1) / 4).min(PHASES as u32 - 1) as usize
}

/// One instance: where it reads and how its weights are found.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Its shape (index into [`SHAPES`]).
    pub shape: usize,
    /// Its squares in reading order.
    pub squares: Vec<u8>,
    /// The same squares as a mask.
    pub mask: u64,
    /// For every subset of `mask` as `pext` gathers it (square order), its base-3 number
    /// in reading order.
    gather: Vec<u16>,
}

impl Instance {
    /// For every subset of the instance's squares as `pext` gathers them, its base-3
    /// number in reading order (a square of `own` counts 1, of `opp` 2 when doubled).
    pub fn gather(&self) -> &[u16] {
        &self.gather
    }
}

/// The instances and the weight layout, computed once from [`SHAPES`].
#[derive(Debug)]
pub struct Layout {
    pub instances: Vec<Instance>,
    /// First weight of each shape in a table; then the scalars.
    pub offsets: Vec<usize>,
    /// Weights in one table.
    pub per_phase: usize,
    /// For each weight of a table, the weight that the symmetries tie it to (the one
    /// with the smallest index; scalars map to themselves).
    pub canonical: Vec<u32>,
}

/// The square `(col, row)` is on.
const fn sq(c: u8, r: u8) -> u8 {
    r * 8 + c
}

fn build_layout() -> Layout {
    let mut instances: Vec<Instance> = Vec::new();
    let mut offsets = Vec::new();
    let mut canonical = Vec::new();
    let mut offset = 0usize;
    for (s, shape) in SHAPES.iter().enumerate() {
        let n = shape.squares.len();
        let base: Vec<u8> = shape.squares.iter().map(|&(c, r)| sq(c, r)).collect();
        let base_mask: u64 = base.iter().map(|&q| 1u64 << q).sum();
        // Images under the eight symmetries; the first of each square set is an
        // instance, a later image of the base's own set is a symmetry of the shape.
        let mut self_maps: Vec<Vec<usize>> = Vec::new();
        for k in 0..8 {
            let image: Vec<u8> = base
                .iter()
                .map(|&q| orient(1u64 << q, k).trailing_zeros() as u8)
                .collect();
            let mask: u64 = image.iter().map(|&q| 1u64 << q).sum();
            if mask == base_mask {
                // Reading position j of this image is position `map[j]` of the base.
                self_maps.push(
                    image
                        .iter()
                        .map(|q| base.iter().position(|b| b == q).expect("same set"))
                        .collect(),
                );
            }
            if instances.iter().any(|i| i.mask == mask) {
                continue;
            }
            let mut gather = vec![0u16; 1 << n];
            // Square order of the instance's squares, as `pext` lays them out.
            let mut sorted = image.clone();
            sorted.sort_unstable();
            for (b, g) in gather.iter_mut().enumerate() {
                *g = sorted
                    .iter()
                    .enumerate()
                    .filter(|&(bit, _)| b >> bit & 1 == 1)
                    .map(|(_, q)| 3u16.pow(image.iter().position(|x| x == q).expect("") as u32))
                    .sum();
            }
            instances.push(Instance {
                shape: s,
                squares: image,
                mask,
                gather,
            });
        }
        offsets.push(offset);
        let size = 3usize.pow(n as u32);
        for config in 0..size {
            let digits: Vec<usize> = (0..n).map(|j| config / 3usize.pow(j as u32) % 3).collect();
            let smallest = self_maps
                .iter()
                .map(|map| {
                    (0..n)
                        .map(|j| digits[map[j]] * 3usize.pow(j as u32))
                        .sum::<usize>()
                })
                .min()
                .expect("the identity is a symmetry");
            canonical.push((offset + smallest) as u32);
        }
        offset += size;
    }
    offsets.push(offset);
    canonical.extend((offset..offset + SCALARS).map(|i| i as u32));
    Layout {
        instances,
        offsets,
        per_phase: offset + SCALARS,
        canonical,
    }
}

/// The layout, computed on first use.
pub fn layout() -> &'static Layout {
    static L: OnceLock<Layout> = OnceLock::new();
    L.get_or_init(build_layout)
}

/// The scalar terms of `own` to move against `opp`, in weight order. Always inlined, so
/// that in the evaluations compiled for POPCNT its counts are the CPU's instruction.
#[inline(always)]
pub fn scalars(own: u64, opp: u64) -> [i32; SCALARS] {
    let empty = !(own | opp);
    let mobility = moves(own, opp).count_ones() as i32 - moves(opp, own).count_ones() as i32;
    let potential = (neighbours(opp) & empty).count_ones() as i32
        - (neighbours(own) & empty).count_ones() as i32;
    [mobility, potential, (empty.count_ones() & 1) as i32, 1]
}

/// The weight index (within a table) each instance reads for `own` against `opp`,
/// square by square.
pub fn indices(own: u64, opp: u64) -> [u32; INSTANCES] {
    let l = layout();
    let mut out = [0u32; INSTANCES];
    for (o, inst) in out.iter_mut().zip(&l.instances) {
        let mut index = 0u32;
        for &q in inst.squares.iter().rev() {
            index = index * 3 + (own >> q & 1) as u32 + 2 * (opp >> q & 1) as u32;
        }
        *o = (l.offsets[inst.shape] as u32) + index;
    }
    out
}

/// The weights: [`PHASES`] tables of [`Layout::per_phase`], in [`SCALE`] units.
pub struct Weights(Vec<i16>);

impl Weights {
    /// Weights from a flat vector of `PHASES × per_phase` values.
    pub fn new(w: Vec<i16>) -> Result<Weights, String> {
        let want = PHASES * layout().per_phase;
        if w.len() != want {
            return Err(format!("{} weights, expected {want}", w.len()));
        }
        Ok(Weights(w))
    }

    /// The table for `empties` empty squares.
    #[inline]
    fn table(&self, empties: u32) -> &[i16] {
        let n = layout().per_phase;
        let p = phase(empties);
        &self.0[p * n..(p + 1) * n]
    }

    /// All weights, table after table.
    pub fn as_slice(&self) -> &[i16] {
        &self.0
    }
}

/// The evaluation of `own` to move against `opp` with `weights`, in [`SCALE`] units per
/// disc of predicted final difference, square by square.
pub fn evaluate_portable(weights: &Weights, own: u64, opp: u64) -> i32 {
    let w = weights.table((!(own | opp)).count_ones());
    let mut sum: i32 = indices(own, opp)
        .iter()
        .map(|&i| w[i as usize] as i32)
        .sum();
    let base = layout().per_phase - SCALARS;
    for (k, v) in scalars(own, opp).into_iter().enumerate() {
        sum += w[base + k] as i32 * v;
    }
    sum
}

/// [`evaluate_portable`] with each instance gathered by BMI2's `pext`.
///
/// # Safety
/// The CPU must have BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
pub unsafe fn evaluate_bmi2(weights: &Weights, own: u64, opp: u64) -> i32 {
    use std::arch::x86_64::_pext_u64;
    let l = layout();
    let w = weights.table((!(own | opp)).count_ones());
    let mut sum = 0i32;
    for inst in &l.instances {
        let g = &inst.gather;
        let index = l.offsets[inst.shape]
            + g[_pext_u64(own, inst.mask) as usize] as usize
            + 2 * g[_pext_u64(opp, inst.mask) as usize] as usize;
        sum += w[index] as i32;
    }
    let base = l.per_phase - SCALARS;
    for (k, v) in scalars(own, opp).into_iter().enumerate() {
        sum += w[base + k] as i32 * v;
    }
    sum
}

/// The evaluation for `own` to move against `opp` with the embedded weights, in
/// [`UNITS_PER_DISC`].
#[inline]
pub fn evaluate(own: u64, opp: u64) -> i32 {
    let w = weights();
    #[cfg(target_arch = "x86_64")]
    if fast_pext() {
        // SAFETY: `fast_pext` checked the CPU has BMI2 and POPCNT.
        return unsafe { evaluate_bmi2(w, own, opp) } * UNITS_PER_DISC / SCALE;
    }
    evaluate_portable(w, own, opp) * UNITS_PER_DISC / SCALE
}

/// [`evaluate`] from the instances' readings from the side to move's view, which the
/// position keeps move by move (`indices.rs`): the same weights summed, so the same
/// value, without reading the patterns from the boards.
#[inline]
pub fn evaluate_indexed(readings: &[u16; LANES], own: u64, opp: u64) -> i32 {
    let w = weights();
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT, checked above.
        return unsafe { sum_indexed_popcnt(w, readings, own, opp) } * UNITS_PER_DISC / SCALE;
    }
    sum_indexed(w, readings, own, opp) * UNITS_PER_DISC / SCALE
}

/// [`sum_indexed`] with the CPU's population count, which the scalar terms count with.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn sum_indexed_popcnt(weights: &Weights, readings: &[u16; LANES], own: u64, opp: u64) -> i32 {
    sum_indexed(weights, readings, own, opp)
}

/// The sum of [`evaluate_portable`] with each instance's weight found from its reading.
#[inline(always)]
fn sum_indexed(weights: &Weights, readings: &[u16; LANES], own: u64, opp: u64) -> i32 {
    let w = weights.table((!(own | opp)).count_ones());
    let mut sum = 0i32;
    for (&r, &offset) in readings.iter().zip(&OFFSETS) {
        sum += w[offset as usize + r as usize] as i32;
    }
    let base = layout().per_phase - SCALARS;
    for (k, v) in scalars(own, opp).into_iter().enumerate() {
        sum += w[base + k] as i32 * v;
    }
    sum
}

/// Whether to gather with `pext` (checked once).
fn fast_pext() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(pext_is_fast)
}

/// The weights' file: `RVMID1`, the table count and the weights per table as
/// little-endian u32, then the weights as little-endian i16, where `i16::MIN` followed
/// by a u16 `n` stands for `n` zeros (most configurations never occur).
pub const MAGIC: &[u8; 6] = b"RVMID1";

/// Parses a weights file.
pub fn parse(bytes: &[u8]) -> Result<Weights, String> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or("not a midgame weights file")?;
    let (head, mut rest) = rest.split_at_checked(8).ok_or("truncated header")?;
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4")) as usize;
    let (phases, per_phase) = (u32_at(0), u32_at(4));
    if phases != PHASES || per_phase != layout().per_phase {
        return Err(format!(
            "{phases} tables of {per_phase}, expected {PHASES} of {}",
            layout().per_phase
        ));
    }
    let total = phases * per_phase;
    let mut out = Vec::with_capacity(total);
    while let Some((v, r)) = rest.split_first_chunk::<2>() {
        rest = r;
        let v = i16::from_le_bytes(*v);
        if v == i16::MIN {
            let (n, r) = rest.split_first_chunk::<2>().ok_or("truncated run")?;
            rest = r;
            out.extend(std::iter::repeat_n(0, u16::from_le_bytes(*n) as usize));
        } else {
            out.push(v);
        }
        if out.len() > total {
            return Err("too many weights".into());
        }
    }
    if !rest.is_empty() {
        return Err("a stray byte at the end".into());
    }
    Weights::new(out)
}

/// Writes weights in the file format of [`parse`].
pub fn serialize(weights: &Weights) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend((PHASES as u32).to_le_bytes());
    out.extend((layout().per_phase as u32).to_le_bytes());
    let w = weights.as_slice();
    let mut i = 0;
    while i < w.len() {
        let run = w[i..]
            .iter()
            .take(u16::MAX as usize)
            .take_while(|&&v| v == 0)
            .count();
        if run >= 2 {
            out.extend(i16::MIN.to_le_bytes());
            out.extend((run as u16).to_le_bytes());
            i += run;
        } else {
            // A lone zero, or a value (`i16::MIN` itself is never written: clamped).
            out.extend(w[i].max(-i16::MAX).to_le_bytes());
            i += 1;
        }
    }
    out
}

/// The embedded weights.
static FILE: &[u8] = include_bytes!("midgame.bin");

/// The embedded weights, parsed once.
pub fn weights() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| parse(FILE).expect("the embedded midgame weights are valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn instances_cover_every_image_once() {
        let l = layout();
        assert_eq!(l.instances.len(), INSTANCES);
        let masks: HashSet<u64> = l.instances.iter().map(|i| i.mask).collect();
        assert_eq!(masks.len(), INSTANCES);
        for inst in &l.instances {
            for k in 0..8 {
                assert!(
                    masks.contains(&orient(inst.mask, k)),
                    "{}",
                    SHAPES[inst.shape].name
                );
            }
        }
        let per_shape = |s: usize| l.instances.iter().filter(|i| i.shape == s).count();
        let counts: Vec<usize> = (0..SHAPES.len()).map(per_shape).collect();
        assert_eq!(counts, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn symmetric_readings_share_a_weight() {
        let l = layout();
        // An edge read from a1 and the mirrored edge read from h1 tie.
        let (a1, b1) = (1u64, 2u64);
        let (h1, g1) = (1u64 << 7, 1u64 << 6);
        let left = indices(a1, b1)[4];
        let right = indices(h1, g1)[4];
        assert_eq!(l.instances[4].shape, 1);
        assert_ne!(left, right);
        assert_eq!(l.canonical[left as usize], l.canonical[right as usize]);
        // Canonical indices are fixed points and stay inside their shape.
        for (i, &c) in l.canonical.iter().enumerate() {
            assert_eq!(l.canonical[c as usize], c);
            assert!(c as usize <= i);
        }
    }

    #[test]
    fn gathered_and_square_by_square_evaluations_agree() {
        // Random weights, tied as the fit ties them.
        let l = layout();
        let random = |i: usize| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as i16 / 64;
        let w: Vec<i16> = (0..PHASES * l.per_phase)
            .map(|i| {
                let (p, k) = (i / l.per_phase, i % l.per_phase);
                random(p * l.per_phase + l.canonical[k] as usize)
            })
            .collect();
        let w = Weights::new(w).unwrap();
        let mut x = 0x0123_4567_89AB_CDEFu64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let (a, b) = (next(), next() & next());
            let (own, opp) = (a & !b, b & !a);
            let slow = evaluate_portable(&w, own, opp);
            #[cfg(target_arch = "x86_64")]
            if pext_is_fast() {
                // SAFETY: checked above.
                assert_eq!(unsafe { evaluate_bmi2(&w, own, opp) }, slow);
            }
            // The same board in any orientation reads the same multiset of weights.
            for k in 1..8 {
                assert_eq!(
                    evaluate_portable(&w, orient(own, k), orient(opp, k)) - slow,
                    0,
                    "orientation {k}"
                );
            }
        }
    }

    #[test]
    fn weights_file_round_trips() {
        let w = weights();
        let back = parse(&serialize(w)).unwrap();
        assert_eq!(back.as_slice(), w.as_slice());
        assert!(parse(b"RVMID1").is_err());
        assert!(parse(b"nope").is_err());
        let mut bytes = serialize(w);
        bytes.push(0);
        assert!(parse(&bytes).is_err());
    }
}

//! The window network: Ataxx's evaluation as an efficiently updatable neural network of
//! our own design, trained by `tune window` (`tune/src/window.rs`) on
//! self-play data made by `tune datagen` (`docs/strength.md`: round 6 made the
//! architecture, each later round retrained the committed weights).
//!
//! Inputs: every 2×2 window of the 7×7 board (36 of them) one-hot over its 3⁴ = 81
//! states (each square empty, own or the opponent's; a blocked square counts as empty
//! there), and one input per blocked square: [`FEATURES`] inputs, 36 active plus the
//! blocks. Windows see the local shapes that decide Ataxx (who can be flipped, which
//! holes are safe) in every place of the board, which a square-by-square input cannot.
//!
//! Two accumulators of [`HIDDEN`] `i16` units, one per perspective (the first player's
//! and the second's: the same weights, own and opponent swapped), kept up to date by
//! the position's make/unmake ([`Accumulator::update`]): a move changes at most ten
//! squares, so at most twenty windows. The output is the side to move's accumulator
//! then the other's, squared clipped ReLU (SCReLU), one dot product, in evaluation
//! units. The vector code is chosen at run time: AVX2 where the CPU has it, else a
//! portable copy (the same integers).

use std::sync::atomic::{AtomicU8, Ordering};

/// Windows: every 2×2 block of the 7×7 board.
pub const WINDOWS: usize = 36;
/// States of one window: 3⁴.
pub const STATES: usize = 81;
/// First input of the blocked squares (one per square).
pub const GAP_BASE: usize = WINDOWS * STATES;
/// Inputs of one perspective.
pub const FEATURES: usize = GAP_BASE + 49;
/// Hidden units per perspective.
pub const HIDDEN: usize = 256;
/// A hidden unit at its clip value 1.0 is `QA` (first-layer weights are `round(w·QA)`).
pub const QA: i32 = 255;
/// Output weights are `round(w·QB)`.
pub const QB: i32 = 64;
/// The float model's output is `OUT_SCALE · (Σ w₂·screlu(h) + b₂)` evaluation units.
pub const OUT_SCALE: i32 = 400;
/// Bound on first-layer weights and biases in the float model: the bias and at most 36
/// windows and 49 blocks stay inside `i16` (86 · 1.49 · 255 < 32 767).
pub const W1_LIMIT: f32 = 1.49;
/// Bound on output weights in the float model: `QB` times it is at most 127, so that
/// `v · w` (`v` ≤ 255) fits `i16` in the vector code.
pub const W2_LIMIT: f32 = 127.0 / QB as f32;

/// Squares that are the top-left (lowest) corner of a window: file and rank below 6.
const TOP_LEFT: u64 = {
    let mut bb = 0u64;
    let mut sq = 0;
    while sq < 49 {
        if sq % 7 < 6 && sq / 7 < 6 {
            bb |= 1 << sq;
        }
        sq += 1;
    }
    bb
};

/// Window number of a top-left square (rank · 6 + file), 0 elsewhere.
const WINDOW_OF: [u8; 49] = {
    let mut t = [0u8; 49];
    let mut sq = 0;
    while sq < 49 {
        if sq % 7 < 6 && sq / 7 < 6 {
            t[sq] = ((sq / 7) * 6 + sq % 7) as u8;
        }
        sq += 1;
    }
    t
};

/// A window's four squares as a 4-bit pattern (bit k: square k of `tl`, `tl+1`,
/// `tl+7`, `tl+8`) to the base-3 digits it contributes (3^k per set bit).
const BASE3: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut p = 0;
    while p < 16 {
        let pow = [1, 3, 9, 27];
        let mut k = 0;
        while k < 4 {
            if p >> k & 1 != 0 {
                t[p] += pow[k];
            }
            k += 1;
        }
        p += 1;
    }
    t
};

#[inline(always)]
fn pattern(bb: u64, tl: u32) -> usize {
    ((bb >> tl & 3) | (bb >> (tl + 7) & 3) << 2) as usize
}

/// The input of the window whose top-left square is `tl`, for the perspective that owns
/// `own` against `opp`: window · 81 + Σ 3^k · (1 own, 2 opponent, 0 else).
#[inline(always)]
pub fn window_feature(own: u64, opp: u64, tl: u32) -> usize {
    WINDOW_OF[tl as usize] as usize * STATES
        + BASE3[pattern(own, tl)] as usize
        + 2 * BASE3[pattern(opp, tl)] as usize
}

/// Calls `f` with every active input of the perspective owning `own` against `opp`, with
/// `gaps` blocked: the 36 windows in order, then the blocked squares.
#[inline]
pub fn for_each_feature(own: u64, opp: u64, gaps: u64, mut f: impl FnMut(usize)) {
    let mut tls = TOP_LEFT;
    while tls != 0 {
        f(window_feature(own, opp, tls.trailing_zeros()));
        tls &= tls - 1;
    }
    let mut g = gaps;
    while g != 0 {
        f(GAP_BASE + g.trailing_zeros() as usize);
        g &= g - 1;
    }
}

/// File magic: name and format version.
pub const MAGIC: [u8; 8] = *b"ATXWIN01";

/// A quantised network, laid out exactly as its file (little-endian): a 64-byte header
/// (magic, `FEATURES` and `HIDDEN` as `u32`, zeros), the first-layer weights by input,
/// the hidden biases, the output weights for the side to move's units then the
/// other's, the output bias (scaled by `QA · QB`) and padding to 64 bytes.
#[repr(C, align(64))]
pub struct Net {
    pub header: [u8; 64],
    pub w1: [[i16; HIDDEN]; FEATURES],
    pub b1: [i16; HIDDEN],
    pub w2: [[i16; HIDDEN]; 2],
    pub b2: i32,
    pub pad: [u8; 60],
}

/// Size of a network file.
pub const FILE_SIZE: usize = std::mem::size_of::<Net>();

impl Net {
    /// The header this build expects.
    pub const fn header() -> [u8; 64] {
        let mut h = [0u8; 64];
        let mut i = 0;
        while i < 8 {
            h[i] = MAGIC[i];
            i += 1;
        }
        let f = (FEATURES as u32).to_le_bytes();
        let n = (HIDDEN as u32).to_le_bytes();
        let mut i = 0;
        while i < 4 {
            h[8 + i] = f[i];
            h[12 + i] = n[i];
            i += 1;
        }
        h
    }

    /// A network of zeros with the right header, on the heap (1.5 MB).
    pub fn zeroed() -> Box<Net> {
        // SAFETY: every field is an integer or byte array, for which all zeros is valid.
        let mut net: Box<Net> = unsafe { Box::<Net>::new_zeroed().assume_init() };
        net.header = Net::header();
        net
    }

    /// Reads a network file, checking its size, header and output-weight bound.
    pub fn from_bytes(b: &[u8]) -> Result<Box<Net>, &'static str> {
        if b.len() != FILE_SIZE {
            return Err("wrong size");
        }
        if b[..64] != Net::header() {
            return Err("wrong header (not a window network of this shape)");
        }
        let mut net = Net::zeroed();
        // SAFETY: `Net` is `repr(C)` plain integers without padding between fields
        // (every field's size is a multiple of 64 bytes but the last two, which fill
        // the last 64), so its bytes are the file; the sizes match.
        unsafe {
            std::ptr::copy_nonoverlapping(b.as_ptr(), (&mut *net as *mut Net).cast(), FILE_SIZE);
        }
        #[cfg(target_endian = "big")]
        net.swap_bytes();
        net.check()?;
        Ok(net)
    }

    /// The file form of the network ([`Net::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(&self.header);
        for w in self.w1.iter().flatten().chain(&self.b1) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.w2.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out.extend_from_slice(&self.pad);
        out
    }

    #[cfg(target_endian = "big")]
    fn swap_bytes(&mut self) {
        for w in self.w1.iter_mut().flatten().chain(&mut self.b1) {
            *w = i16::from_le(*w);
        }
        for w in self.w2.iter_mut().flatten() {
            *w = i16::from_le(*w);
        }
        self.b2 = i32::from_le(self.b2);
    }

    /// The bound the vector output code relies on.
    pub fn check(&self) -> Result<(), &'static str> {
        if self.w2.iter().flatten().any(|w| !(-127..=127).contains(w)) {
            return Err("output weight outside -127..=127");
        }
        Ok(())
    }

    /// The evaluation of the position `pieces` (by side index) with `gaps` blocked and
    /// side `stm` (0 or 1) to move, from scratch.
    pub fn evaluate(&self, pieces: [u64; 2], gaps: u64, stm: usize) -> i32 {
        let mut acc = Accumulator::zeroed();
        acc.refresh(self, pieces, gaps);
        acc.evaluate(self, stm)
    }
}

/// The embedded network's bytes, aligned for [`Net`].
#[repr(C, align(64))]
struct Aligned<T>(T);
static EMBEDDED: Aligned<[u8; FILE_SIZE]> = Aligned(*include_bytes!("window.bin"));

/// Checks the embedded file when the engine is compiled: header and the output-weight
/// bound of [`Net::check`].
const fn checked(b: &[u8; FILE_SIZE]) -> &[u8; FILE_SIZE] {
    let h = Net::header();
    let mut i = 0;
    while i < 64 {
        if b[i] != h[i] {
            panic!("src/games/ataxx/window.bin is not a window network of this shape");
        }
        i += 1;
    }
    let w2 = FILE_SIZE - 64 - 2 * 2 * HIDDEN;
    let mut i = 0;
    while i < 2 * HIDDEN {
        let w = i16::from_le_bytes([b[w2 + 2 * i], b[w2 + 2 * i + 1]]);
        if w < -127 || w > 127 {
            panic!("src/games/ataxx/window.bin: output weight outside -127..=127");
        }
        i += 1;
    }
    b
}

/// The engine's network, embedded from `window.bin` next to this file.
// SAFETY: `Net` is `repr(C)` plain integers with the file's layout and size, the bytes
// are 64-aligned like `Net`, and the target is little-endian (checked below).
pub static NET: &Net = unsafe { &*(checked(&EMBEDDED.0) as *const [u8; FILE_SIZE] as *const Net) };

#[cfg(target_endian = "big")]
compile_error!("the embedded window network is read in place: little-endian targets only");

/// The hidden layer before activation, for both perspectives (index: the side whose
/// stones are "own").
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

/// Which copy of the vector code runs (0 unknown, 1 portable, 2 AVX2).
static ISA: AtomicU8 = AtomicU8::new(0);

#[inline(always)]
fn use_avx2() -> bool {
    match ISA.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            #[cfg(target_arch = "x86_64")]
            let avx2 = std::arch::is_x86_feature_detected!("avx2");
            #[cfg(not(target_arch = "x86_64"))]
            let avx2 = false;
            ISA.store(if avx2 { 2 } else { 1 }, Ordering::Relaxed);
            avx2
        }
    }
}

/// Forces the portable copy (`false`) or the detected one (`true`) for this process:
/// tests and benchmarks compare the two.
pub fn set_vector_code(allowed: bool) {
    ISA.store(0, Ordering::Relaxed);
    if !allowed {
        ISA.store(1, Ordering::Relaxed);
    }
}

/// Whether the AVX2 copy is in use.
pub fn avx2_in_use() -> bool {
    use_avx2()
}

/// Most rows one update adds (and subtracts) per perspective: 20 windows.
const MAX_CHANGED: usize = 20;

impl Accumulator {
    /// All zeros.
    pub fn zeroed() -> Accumulator {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }

    /// Recomputes both perspectives from the board.
    pub fn refresh(&mut self, net: &Net, pieces: [u64; 2], gaps: u64) {
        for p in 0..2 {
            let mut rows = [0usize; WINDOWS + 49];
            let mut n = 0;
            for_each_feature(pieces[p], pieces[1 - p], gaps, |f| {
                rows[n] = f;
                n += 1;
            });
            apply(&mut self.v[p], &net.b1, net, &rows[..n], &[]);
        }
    }

    /// Brings `self`, the accumulator of the board `old` (pieces by side), to the
    /// board `new` (same blocks): only the windows that hold a changed square change.
    #[inline]
    pub fn update(&mut self, net: &Net, old: [u64; 2], new: [u64; 2]) {
        let parent = self.clone();
        parent.update_into(self, net, old, new);
    }

    /// Writes into `out` this accumulator (of the board `old`) brought to the board
    /// `new` ([`Accumulator::update`] without the copy: make pushes so).
    #[inline]
    pub fn update_into(&self, out: &mut Accumulator, net: &Net, old: [u64; 2], new: [u64; 2]) {
        let changed = (old[0] ^ new[0]) | (old[1] ^ new[1]);
        let mut tls = (changed | changed >> 1 | changed >> 7 | changed >> 8) & TOP_LEFT;
        let (mut add, mut sub) = ([[0usize; MAX_CHANGED]; 2], [[0usize; MAX_CHANGED]; 2]);
        let mut n = 0;
        while tls != 0 && n < MAX_CHANGED {
            let tl = tls.trailing_zeros();
            for p in 0..2 {
                add[p][n] = window_feature(new[p], new[1 - p], tl);
                sub[p][n] = window_feature(old[p], old[1 - p], tl);
            }
            n += 1;
            tls &= tls - 1;
        }
        debug_assert!(tls == 0, "more than {MAX_CHANGED} windows changed");
        for p in 0..2 {
            apply(&mut out.v[p], &self.v[p], net, &add[p][..n], &sub[p][..n]);
        }
    }

    /// The network's output in evaluation units for side `stm` (0 or 1) to move.
    #[inline]
    pub fn evaluate(&self, net: &Net, stm: usize) -> i32 {
        let sum = output(&self.v[stm], &self.v[1 - stm], net);
        ((sum / i64::from(QA) + i64::from(net.b2)) * i64::from(OUT_SCALE) / i64::from(QA * QB))
            as i32
    }
}

/// `out = inp + Σ w1[add] − Σ w1[sub]`, with the copy of [`use_avx2`].
#[inline]
fn apply(out: &mut [i16; HIDDEN], inp: &[i16; HIDDEN], net: &Net, add: &[usize], sub: &[usize]) {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU reported AVX2.
        return unsafe { apply_avx2(out, inp, net, add, sub) };
    }
    apply_body(out, inp, net, add, sub)
}

/// The update loop, written so the compiler keeps a 64-lane slice of the accumulator in
/// registers while it adds the rows (wrapping: the result is exact when it fits).
#[inline(always)]
fn apply_body(
    out: &mut [i16; HIDDEN],
    inp: &[i16; HIDDEN],
    net: &Net,
    add: &[usize],
    sub: &[usize],
) {
    const CHUNK: usize = 64;
    for c in (0..HIDDEN).step_by(CHUNK) {
        let mut r = [0i16; CHUNK];
        r.copy_from_slice(&inp[c..c + CHUNK]);
        for &f in add {
            let row = &net.w1[f][c..c + CHUNK];
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_add(row[i]);
            }
        }
        for &f in sub {
            let row = &net.w1[f][c..c + CHUNK];
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_sub(row[i]);
            }
        }
        out[c..c + CHUNK].copy_from_slice(&r);
    }
}

/// [`apply_body`] in AVX2 intrinsics: 64 lanes in four registers per pass over the rows.
/// Written out because the compiled [`apply_body`] also stored its register copy to
/// the stack after every row; the next row's loads then stalled whenever their
/// address matched that store's in its low 12 bits (4K aliasing), which depends on the
/// thread's stack and on where the build placed the weights: the node rate of the
/// same code changed by half between builds and between the search thread and `bench`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn apply_avx2(
    out: &mut [i16; HIDDEN],
    inp: &[i16; HIDDEN],
    net: &Net,
    add: &[usize],
    sub: &[usize],
) {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    for c in (0..HIDDEN).step_by(4 * LANES) {
        let load = |v: &[i16; HIDDEN], k: usize| {
            let lanes: &[i16; LANES] = v[c + k * LANES..][..LANES].try_into().expect("16 lanes");
            // SAFETY: 16 lanes of `i16` are 32 bytes; unaligned load.
            unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
        };
        let mut r = [load(inp, 0), load(inp, 1), load(inp, 2), load(inp, 3)];
        for &f in add {
            let row = &net.w1[f];
            for (k, r) in r.iter_mut().enumerate() {
                *r = _mm256_add_epi16(*r, load(row, k));
            }
        }
        for &f in sub {
            let row = &net.w1[f];
            for (k, r) in r.iter_mut().enumerate() {
                *r = _mm256_sub_epi16(*r, load(row, k));
            }
        }
        for (k, r) in r.iter().enumerate() {
            let lanes: &mut [i16; LANES] = (&mut out[c + k * LANES..][..LANES])
                .try_into()
                .expect("16 lanes");
            // SAFETY: as for the loads.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *r) };
        }
    }
}

/// The accumulators of a position and of the positions before it in the current line:
/// make computes the next from the top, unmake drops the top. A clone keeps only the
/// top (and starts small: a search grows it to its depth once, a front end's copies
/// stay cheap); an unmake past the bottom (a clone's, or after [`AccStack::LIMIT`]
/// makes without unmake) recomputes from the board.
#[derive(Debug)]
pub struct AccStack {
    buf: Vec<Accumulator>,
    top: usize,
}

impl AccStack {
    /// Entries kept before the oldest are dropped (a long game without unmake).
    pub const LIMIT: usize = 1024;

    /// A stack holding the accumulator of this board.
    pub fn new(pieces: [u64; 2], gaps: u64) -> AccStack {
        let mut buf = Vec::with_capacity(4);
        let mut acc = Accumulator::zeroed();
        acc.refresh(NET, pieces, gaps);
        buf.push(acc);
        AccStack { buf, top: 0 }
    }

    /// The current position's accumulator.
    #[inline]
    pub fn top(&self) -> &Accumulator {
        &self.buf[self.top]
    }

    /// After a move from `old` to `new` (pieces by side).
    #[inline]
    pub fn push(&mut self, old: [u64; 2], new: [u64; 2]) {
        if self.top + 1 >= Self::LIMIT {
            self.buf.swap(0, self.top);
            self.top = 0;
        }
        if self.top + 1 == self.buf.len() {
            self.buf.push(Accumulator::zeroed());
        }
        let (done, next) = self.buf.split_at_mut(self.top + 1);
        done[self.top].update_into(&mut next[0], NET, old, new);
        self.top += 1;
    }

    /// After the move is taken back, to the board `pieces` with `gaps`.
    #[inline]
    pub fn pop(&mut self, pieces: [u64; 2], gaps: u64) {
        if self.top == 0 {
            self.buf[0].refresh(NET, pieces, gaps);
        } else {
            self.top -= 1;
        }
    }

    /// After the board changed otherwise (blocks added).
    pub fn reset(&mut self, pieces: [u64; 2], gaps: u64) {
        self.top = 0;
        self.buf[0].refresh(NET, pieces, gaps);
    }
}

impl Clone for AccStack {
    fn clone(&self) -> AccStack {
        let mut buf = Vec::with_capacity(4);
        buf.push(self.top().clone());
        AccStack { buf, top: 0 }
    }
}

/// `Σ screlu(own)·w2[0] + Σ screlu(other)·w2[1]` with `screlu(x) = clamp(x, 0, QA)²`,
/// exact (the vector copy keeps every 32-bit lane below 2³¹ given `|w2| ≤ 127`).
#[inline]
fn output(own: &[i16; HIDDEN], other: &[i16; HIDDEN], net: &Net) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU reported AVX2.
        return unsafe { output_avx2(own, other, net) };
    }
    let mut sum = 0i64;
    for (acc, w) in [(own, &net.w2[0]), (other, &net.w2[1])] {
        for (&x, &w) in acc.iter().zip(w) {
            let v = i64::from(x.clamp(0, QA as i16));
            sum += v * v * i64::from(w);
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2(own: &[i16; HIDDEN], other: &[i16; HIDDEN], net: &Net) -> i64 {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = zero;
    for (acc, w) in [(own, &net.w2[0]), (other, &net.w2[1])] {
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: `i + 16 <= HIDDEN`; unaligned loads.
            let (x, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            // v·w fits i16 (255 · 127); madd adds pairs of v·w·v into i32 lanes.
            let vw = _mm256_mullo_epi16(v, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
    }
    let mut lanes = [0i32; 8];
    // SAFETY: 8 i32 lanes into an 8-element array.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
    lanes.iter().map(|&x| i64::from(x)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A network of random weights within the trainer's bounds.
    pub fn random_net(seed: u64) -> Box<Net> {
        let mut rng = SplitMix64::new(seed);
        let mut net = Net::zeroed();
        let mut r = |lim: i64| (rng.below(2 * lim as usize + 1) as i64 - lim) as i16;
        for w in net.w1.iter_mut().flatten() {
            *w = r(300);
        }
        for w in net.b1.iter_mut() {
            *w = r(200);
        }
        for w in net.w2.iter_mut().flatten() {
            *w = r(127);
        }
        net.b2 = 12345;
        net
    }

    #[test]
    fn windows_cover_the_board() {
        assert_eq!(TOP_LEFT.count_ones() as usize, WINDOWS);
        let mut seen = [false; FEATURES];
        for_each_feature(0, 0, 0, |f| seen[f] = true);
        assert_eq!(seen.iter().filter(|&&s| s).count(), WINDOWS);
        // Every square is in 1, 2 or 4 windows; each state of a window is reachable.
        let full = (1u64 << 49) - 1;
        let mut feats = Vec::new();
        for_each_feature(full, 0, 0, |f| feats.push(f));
        assert!(feats.iter().all(|f| f % STATES == 40));
        feats.clear();
        for_each_feature(0, full, 1 << 48, |f| feats.push(f));
        assert!(feats[..WINDOWS].iter().all(|f| f % STATES == 80));
        assert_eq!(feats[WINDOWS], GAP_BASE + 48);
    }

    /// The position's incremental accumulators equal a refresh over long random
    /// games, through makes, unmakes (a searched line taken back), clones and blocks.
    #[test]
    fn position_accumulators_match_scratch() {
        use crate::game::Side;
        use crate::games::ataxx::{Position, Rules};
        let mut rng = SplitMix64::new(11);
        let fresh = |pos: &Position| {
            let mut a = Accumulator::zeroed();
            a.refresh(
                NET,
                [pos.pieces(Side::First), pos.pieces(Side::Second)],
                pos.gaps(),
            );
            a
        };
        for game in 0..40 {
            let mut pos = Position::startpos(Rules::Uai);
            if game % 4 == 0 {
                pos.add_gaps(1 << 3 | 1 << 45).unwrap();
            }
            let mut plies = 0;
            while pos.outcome().is_none() && plies < 300 {
                // A short line made and taken back, as a search does.
                let mut line = Vec::new();
                let mut probe = if rng.below(2) == 0 {
                    pos.clone()
                } else {
                    Position::clone(&pos)
                };
                for _ in 0..rng.below(6) {
                    let moves = probe.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.below(moves.len())];
                    line.push((mv, probe.make_move(mv)));
                    assert_eq!(*probe.accumulator(), fresh(&probe));
                }
                while let Some((mv, undo)) = line.pop() {
                    probe.unmake_move(mv, undo);
                    assert_eq!(*probe.accumulator(), fresh(&probe));
                }
                let moves = pos.legal_moves();
                pos.make_move(moves[rng.below(moves.len())]);
                assert_eq!(*pos.accumulator(), fresh(&pos), "{pos:?}");
                assert_eq!(
                    pos.accumulator().evaluate(NET, pos.side_to_move().index()),
                    NET.evaluate(
                        [pos.pieces(Side::First), pos.pieces(Side::Second)],
                        pos.gaps(),
                        pos.side_to_move().index()
                    )
                );
                plies += 1;
            }
        }
        // Past the stack's limit without unmake, then unmakes below its bottom.
        let boards = [[1u64 << 6, 1 << 42], [1u64 << 20, 1 << 42]];
        let mut stack = AccStack::new(boards[0], 0);
        for n in 0..AccStack::LIMIT + 10 {
            stack.push(boards[n % 2], boards[(n + 1) % 2]);
        }
        for n in (0..AccStack::LIMIT + 10).rev() {
            stack.pop(boards[n % 2], 0);
            let mut want = Accumulator::zeroed();
            want.refresh(NET, boards[n % 2], 0);
            assert_eq!(*stack.top(), want, "{n}");
        }
    }

    #[test]
    fn file_round_trips() {
        let net = random_net(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert!(Net::from_bytes(&bytes[1..]).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(Net::from_bytes(&bad).is_err());
    }

    /// The vector copies give the same integers as the portable ones, and the
    /// incremental update equals the refresh, over random play.
    #[test]
    fn update_and_vector_code_match_scratch() {
        use crate::game::Side;
        use crate::games::ataxx::{Position, Rules};
        let net = random_net(5);
        let mut rng = SplitMix64::new(9);
        for game in 0..30 {
            let mut pos = Position::startpos(Rules::Uai);
            if game % 3 == 0 {
                let _ = pos.add_gaps(1 << 24 | 1 << 10);
            }
            let mut acc = Accumulator::zeroed();
            acc.refresh(
                &net,
                [pos.pieces(Side::First), pos.pieces(Side::Second)],
                pos.gaps(),
            );
            while pos.outcome().is_none() {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                let old = [pos.pieces(Side::First), pos.pieces(Side::Second)];
                pos.make_move(mv);
                let new = [pos.pieces(Side::First), pos.pieces(Side::Second)];
                for allowed in [true, false] {
                    set_vector_code(allowed);
                    let mut a = acc.clone();
                    a.update(&net, old, new);
                    let mut b = Accumulator::zeroed();
                    b.refresh(&net, new, pos.gaps());
                    assert_eq!(a, b, "{pos:?}");
                    let stm = pos.side_to_move().index();
                    let slow = {
                        let mut s = 0i64;
                        for (p, w) in [(stm, 0), (1 - stm, 1)] {
                            for j in 0..HIDDEN {
                                let v = i64::from(b.v[p][j].clamp(0, 255));
                                s += v * v * i64::from(net.w2[w][j]);
                            }
                        }
                        ((s / 255 + i64::from(net.b2)) * 400 / (255 * 64)) as i32
                    };
                    assert_eq!(b.evaluate(&net, stm), slow);
                }
                set_vector_code(true);
                acc.update(&net, old, new);
            }
        }
    }
}

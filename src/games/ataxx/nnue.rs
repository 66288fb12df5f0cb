//! Round 4's small neural network that corrects the linear evaluation ([`super::eval`]),
//! no longer in play since the window network ([`super::network`]) replaced both: our own
//! architecture, trained by `tune nnue` (`tune/src/nnue.rs`) on our own
//! self-play games only, and embedded in the binary from `nnue.bin` next to this file.
//!
//! Shape: 147 binary inputs from the side to move's view (its stones, the opponent's
//! stones and the blocked squares, one per square), one hidden layer of [`HIDDEN`]
//! clipped-ReLU units, one output in evaluation units that is added to the linear
//! evaluation. The linear terms carry what they know (material, exposed stones, ...);
//! the network learns what they miss, from few games, because it only has to learn the
//! residual.
//!
//! Integer inference: the hidden pre-activations are `i16` sums of the active inputs'
//! columns (loops the compiler vectorises), clipped to `0..=QA`, then a dot product with
//! the `i16` output weights in `i32`. The whole board is summed at every evaluation (no
//! incremental accumulator): at most 49 columns of [`HIDDEN`] lanes.

use super::position::Position;

/// Squares of the board.
pub const SQUARES: usize = 49;
/// Inputs: own stones, opponent stones, blocked squares.
pub const INPUTS: usize = 3 * SQUARES;
/// Hidden units.
pub const HIDDEN: usize = 64;
/// A hidden unit at its clip value 1.0 is `QA` after quantisation (and so are the
/// first layer's weights: `round(w · QA)`).
pub const QA: i32 = 255;
/// Output weights are `round(w · QB)`, `w` in evaluation units per unit of activation.
pub const QB: i32 = 64;
/// Bound on first-layer weights and biases in the float model, so that no sum of 49
/// columns and a bias can leave `i16` (50 · 1.98 · 255 < 32 767).
pub const W1_LIMIT: f32 = 1.98;
/// Bound on output weights in evaluation units (`QB` times it fits `i16`).
pub const W2_LIMIT: f32 = 500.0;

/// File magic: name and format version.
pub const MAGIC: [u8; 8] = *b"ATXNNUE1";
/// Size of a network file: magic, inputs and hidden as `u32`, first-layer weights by
/// input then bias (`i16`), output weights (`i16`), output bias (`i32`, scaled by
/// `QA · QB`), all little-endian.
pub const FILE_SIZE: usize = 8 + 4 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + HIDDEN) + 4;

/// A quantised network.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Net {
    pub w1: [[i16; HIDDEN]; INPUTS],
    pub b1: [i16; HIDDEN],
    pub w2: [i16; HIDDEN],
    pub b2: i32,
}

/// The embedded network (checked when the engine is compiled).
pub static NET: Net = match Net::decode(include_bytes!("nnue.bin")) {
    Ok(net) => net,
    Err(_) => panic!("src/games/ataxx/nnue.bin is not a network of this shape"),
};

const fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

const fn read_i16(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([b[at], b[at + 1]])
}

impl Net {
    /// Reads a network file (const, so the embedded one is checked at compile time).
    pub const fn decode(b: &[u8]) -> Result<Net, &'static str> {
        if b.len() != FILE_SIZE {
            return Err("wrong size");
        }
        let mut i = 0;
        while i < 8 {
            if b[i] != MAGIC[i] {
                return Err("wrong magic");
            }
            i += 1;
        }
        if read_u32(b, 8) as usize != INPUTS || read_u32(b, 12) as usize != HIDDEN {
            return Err("wrong shape");
        }
        let mut net = Net {
            w1: [[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: 0,
        };
        let mut at = 16;
        let mut f = 0;
        while f < INPUTS {
            let mut j = 0;
            while j < HIDDEN {
                net.w1[f][j] = read_i16(b, at);
                at += 2;
                j += 1;
            }
            f += 1;
        }
        let mut j = 0;
        while j < HIDDEN {
            net.b1[j] = read_i16(b, at);
            at += 2;
            j += 1;
        }
        j = 0;
        while j < HIDDEN {
            net.w2[j] = read_i16(b, at);
            at += 2;
            j += 1;
        }
        net.b2 = read_u32(b, at) as i32;
        Ok(net)
    }

    /// The file form of the network ([`Net::decode`] reads it back).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for col in &self.w1 {
            for w in col {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for w in self.b1.iter().chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The network's output in evaluation units for `own` to move against `opp` with
    /// `gaps` blocked (49-bit boards).
    #[inline]
    pub fn evaluate(&self, own: u64, opp: u64, gaps: u64) -> i32 {
        let mut acc = self.b1;
        for_each_input(
            own,
            opp,
            gaps,
            |s| s,
            |f| {
                for (a, w) in acc.iter_mut().zip(&self.w1[f]) {
                    *a = a.wrapping_add(*w);
                }
            },
        );
        let mut sum = self.b2;
        for (a, w) in acc.iter().zip(&self.w2) {
            sum += i32::from(*a).clamp(0, QA) * i32::from(*w);
        }
        sum / (QA * QB)
    }
}

/// Calls `f` with every active input of a position from the side to move's view (the
/// one definition of the input layout: own stones, opponent stones, blocked squares),
/// `map` applied to every square first (the trainer passes the board's symmetries; the
/// engine the identity).
#[inline(always)]
pub fn for_each_input(
    own: u64,
    opp: u64,
    gaps: u64,
    map: impl Fn(usize) -> usize,
    mut f: impl FnMut(usize),
) {
    for (plane, mut bits) in [own, opp, gaps].into_iter().enumerate() {
        while bits != 0 {
            f(plane * SQUARES + map(bits.trailing_zeros() as usize));
            bits &= bits - 1;
        }
    }
}

/// The active inputs of [`for_each_input`] as a list.
pub fn inputs(own: u64, opp: u64, gaps: u64, map: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(SQUARES);
    for_each_input(own, opp, gaps, map, |f| out.push(f));
    out
}

/// The network's correction for `pos`, side to move's view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    NET.evaluate(pos.pieces(us), pos.pieces(us.opponent()), pos.gaps())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_network_round_trips() {
        let bytes = NET.encode();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Net::decode(&bytes), Ok(NET.clone()));
        assert_eq!(bytes, include_bytes!("nnue.bin"));
    }

    #[test]
    fn bad_files_are_refused() {
        let mut bytes = NET.encode();
        assert_eq!(Net::decode(&bytes[1..]), Err("wrong size"));
        bytes[0] = b'X';
        assert_eq!(Net::decode(&bytes), Err("wrong magic"));
        let mut bytes = NET.encode();
        bytes[8] = 1;
        assert_eq!(Net::decode(&bytes), Err("wrong shape"));
    }

    /// The integer inference is the float model of the quantised weights: sum the
    /// columns, clip, dot, add the bias, truncate.
    #[test]
    fn inference_is_the_quantised_model() {
        let cases = [
            (0u64, 0u64, 0u64),
            (1 | 1 << 48, 1 << 6 | 1 << 42, 0),
            (0x1_2345_6789, 0x0_8000_0000_0000 & !0x1_2345_6789, 1 << 24),
            ((1 << 49) - 1, 0, 0),
            (0, (1 << 49) - 1, 0),
        ];
        for (own, opp, gaps) in cases {
            let mut acc: Vec<i64> = NET.b1.iter().map(|&b| i64::from(b)).collect();
            for f in inputs(own, opp, gaps, |s| s) {
                for (a, w) in acc.iter_mut().zip(&NET.w1[f]) {
                    *a += i64::from(*w);
                }
            }
            let sum: i64 = acc
                .iter()
                .zip(&NET.w2)
                .map(|(&a, &w)| a.clamp(0, QA as i64) * i64::from(w))
                .sum::<i64>()
                + i64::from(NET.b2);
            let want = (sum / i64::from(QA * QB)) as i32;
            assert_eq!(
                NET.evaluate(own, opp, gaps),
                want,
                "{own:x} {opp:x} {gaps:x}"
            );
        }
    }

    #[test]
    fn inputs_by_plane() {
        assert_eq!(
            inputs(1, 2, 4, |s| s),
            vec![0, SQUARES + 1, 2 * SQUARES + 2]
        );
        assert_eq!(inputs(1 << 48, 0, 0, |s| 48 - s), vec![0]);
    }
}

//! The Lines of Action position: one bitboard per side, piece counts per line (so a
//! move's length is a lookup), the cached connectivity result, the clocks of both rule
//! sets, the hash history for the repetition rule, the incremental Zobrist hash, and
//! make/unmake. Everything about LOA rules lives here.

use super::bitboard::{
    is_connected, landing, path_open, Bits, FILE_A, FILE_H, LINE_IDS, N_LINES, PATH, RANK_1, RANK_8,
};
use crate::game::{Outcome, RuleSet, Side};
use crate::rng;
use std::fmt;

/// Which end-of-game rule applies besides connection: a parameter of the position, as
/// one process may speak both the text language and UGI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// UGI: the third occurrence of a position (since the last capture) is a draw.
    Ugi,
    /// The course text language (`loa.txt`, 2020): a tie after the move limit
    /// ([`DEFAULT_MOVE_LIMIT`] moves per side unless set); repetitions do not count.
    Text,
}

/// Named `engine` and `text` in `-rules` and the records.
impl RuleSet for Rules {
    const ALL: &'static [Rules] = &[Rules::Ugi, Rules::Text];
    const ENGINE: Rules = Rules::Ugi;

    fn name(self) -> &'static str {
        match self {
            Rules::Ugi => "engine",
            Rules::Text => "text",
        }
    }
}

/// The text language's default move limit, in moves per side.
pub const DEFAULT_MOVE_LIMIT: u32 = 30;

/// A move from one square to another, or the pass (encoded as `a1a1`, which no real
/// move can be, so that it has a history slot of its own).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    to: u8,
}

impl crate::game::PackedMove for Move {
    fn pack(self) -> u16 {
        (self.from as u16) << 8 | self.to as u16
    }
    fn unpack(bits: u16) -> Move {
        Move {
            from: (bits >> 8) as u8,
            to: bits as u8,
        }
    }
}

impl Move {
    /// The pass: legal only when the side to move has no move and the game goes on.
    pub const PASS: Move = Move { from: 0, to: 0 };

    /// A move from `from` to `to` (squares 0..64, distinct).
    #[inline]
    pub fn new(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// True for the pass.
    #[inline]
    pub fn is_pass(self) -> bool {
        self.from == self.to
    }

    /// Source square (meaningless for a pass).
    #[inline]
    pub fn from(self) -> u8 {
        self.from
    }

    /// Destination square (meaningless for a pass).
    #[inline]
    pub fn to(self) -> u8 {
        self.to
    }
}

/// Everything `unmake_move` needs beyond the move itself.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    hash: u64,
    clock: u32,
    winner: Option<Side>,
    captured: bool,
}

const KEY_SEED: u64 = 0x10A_5EED_2026;
/// 64 keys per side, then the side-to-move key.
static KEYS: [u64; 129] = rng::keys(KEY_SEED);

#[inline]
fn piece_key(side: Side, sq: u8) -> u64 {
    KEYS[side.index() * 64 + sq as usize]
}

const SIDE_KEY: u64 = rng::keys::<129>(KEY_SEED)[128];

/// A Lines of Action position under a given rule set. Equality compares everything,
/// the hash history included, because that is what `unmake_move` must restore; compare
/// FENs to ask whether two boards are the same.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pieces: [u64; 2],
    side: Side,
    /// Pieces of both colours on each line (see [`super::bitboard::LINE_IDS`]).
    lines: [u8; N_LINES],
    /// The side whose pieces are connected, if any: computed once per move, so
    /// `is_over` costs nothing.
    winner: Option<Side>,
    /// Plies since the last capture (FEN's halfmove field): the repetition window.
    clock: u32,
    fullmove: u32,
    rules: Rules,
    /// Text rules: moves per side before the game is a tie.
    move_limit: u32,
    /// Hashes of the positions before each move made since this position was set up.
    history: Vec<u64>,
    hash: u64,
}

impl Position {
    /// The standard start: black on b1–g1 and b8–g8, white on a2–a7 and h2–h7, black to
    /// move.
    pub fn startpos(rules: Rules) -> Position {
        let black = (RANK_1 | RANK_8) & !(FILE_A | FILE_H);
        let white = (FILE_A | FILE_H) & !(RANK_1 | RANK_8);
        let mut pos = Position::from_parts(black, white, Side::First, 0, 1, rules)
            .unwrap_or_else(|_| unreachable!("the start position is valid"));
        pos.history.reserve(256);
        pos
    }

    /// Builds a position from raw parts, checking they are consistent: no square holds
    /// two pieces and each side has at least one piece.
    pub fn from_parts(
        black: u64,
        white: u64,
        side: Side,
        clock: u32,
        fullmove: u32,
        rules: Rules,
    ) -> Result<Position, &'static str> {
        if black & white != 0 {
            return Err("two pieces on one square");
        }
        if black == 0 || white == 0 {
            return Err("each side needs a piece");
        }
        let mut pos = Position {
            pieces: [black, white],
            side,
            lines: [0; N_LINES],
            winner: None,
            clock,
            fullmove: fullmove.max(1),
            rules,
            move_limit: DEFAULT_MOVE_LIMIT,
            history: Vec::new(),
            hash: 0,
        };
        pos.lines = pos.compute_lines();
        pos.hash = pos.compute_hash();
        pos.winner = pos.compute_winner();
        Ok(pos)
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for side in [Side::First, Side::Second] {
            for sq in Bits(self.pieces[side.index()]) {
                h ^= piece_key(side, sq);
            }
        }
        if self.side == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// The line counts computed from scratch (the incremental ones must equal them).
    pub fn compute_lines(&self) -> [u8; N_LINES] {
        let mut lines = [0; N_LINES];
        for sq in Bits(self.pieces[0] | self.pieces[1]) {
            for id in LINE_IDS[sq as usize] {
                lines[id as usize] += 1;
            }
        }
        lines
    }

    /// The connection result computed from scratch. When both sides are connected the
    /// side that just moved (not the side to move) has won.
    pub fn compute_winner(&self) -> Option<Side> {
        let mover = self.side.opponent();
        if is_connected(self.pieces[mover.index()]) {
            Some(mover)
        } else if is_connected(self.pieces[self.side.index()]) {
            Some(self.side)
        } else {
            None
        }
    }

    /// Pieces of one side.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// All pieces.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// Number of pieces of `side`.
    #[inline]
    pub fn count(&self, side: Side) -> u32 {
        self.pieces[side.index()].count_ones()
    }

    /// The side on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: u8) -> Option<Side> {
        let bit = 1u64 << (sq & 63);
        if self.pieces[0] & bit != 0 {
            Some(Side::First)
        } else if self.pieces[1] & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The incremental line counts.
    #[inline]
    pub fn lines(&self) -> &[u8; N_LINES] {
        &self.lines
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The incremental Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The rule set in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Switches the rule set.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Text rules: the move limit per side.
    pub fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// Text rules: sets the move limit to `n` moves per side (2n plies). Whether `n`
    /// is still acceptable (more than the moves made so far) is the front end's call.
    pub fn set_move_limit(&mut self, n: u32) {
        self.move_limit = n;
    }

    /// Plies since the last capture.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// The full-move number (starts at 1, grows after white moves).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Plies played since the start, as the full-move number and side to move tell:
    /// what the text language's move limit counts.
    pub fn plies_played(&self) -> u32 {
        (self.fullmove - 1)
            .saturating_mul(2)
            .saturating_add(self.side.index() as u32)
    }

    /// The side whose pieces are connected (the winner), if any.
    #[inline]
    pub fn connected_winner(&self) -> Option<Side> {
        self.winner
    }

    /// Earlier occurrences of this position (same pieces, same side to move) since the
    /// last capture, counting only positions reached since it was set up.
    #[inline]
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let window = (self.clock as usize).min(n);
        self.history[n - window..]
            .iter()
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// True if the position occurred before and the rules make repetitions draws.
    #[inline]
    pub fn is_repetition(&self) -> bool {
        self.rules == Rules::Ugi && self.winner.is_none() && self.repetitions() >= 1
    }

    /// True once the game is over: a connected side, the third occurrence of a position
    /// (engine rules) or the move limit (text rules).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
            || match self.rules {
                Rules::Ugi => self.repetitions() >= 2,
                Rules::Text => self.plies_played() >= self.move_limit.saturating_mul(2),
            }
    }

    /// The result if the game is over under this position's rules.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.winner {
            Some(Outcome::Win(side))
        } else if self.is_over() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Calls `f` for each legal (non-pass) move of `side`, ignoring whether the game
    /// is over. `f` returns false to stop early; the result is false if it did.
    #[inline]
    fn for_each_move(&self, side: Side, mut f: impl FnMut(Move) -> bool) -> bool {
        let own = self.pieces[side.index()];
        let opp = self.pieces[side.opponent().index()];
        for from in Bits(own) {
            let ids = &LINE_IDS[from as usize];
            let paths = &PATH[from as usize];
            for dir in 0..8 {
                let path = paths[dir][self.lines[ids[dir >> 1] as usize] as usize];
                if path_open(path, dir, own, opp) {
                    let to = landing(path, dir).trailing_zeros() as u8;
                    if !f(Move { from, to }) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Number of legal moves `side` would have here (passes not counted, the game
    /// assumed not over): mobility for the evaluation and bulk counting for perft.
    #[inline]
    pub fn count_moves(&self, side: Side) -> u32 {
        self.mobility(side).0
    }

    /// Number of legal moves of `side` and number of its pieces that have none (blocked
    /// pieces, walled in by the edge and enemy pieces), for the evaluation.
    #[inline]
    pub fn mobility(&self, side: Side) -> (u32, u32) {
        let own = self.pieces[side.index()];
        let opp = self.pieces[side.opponent().index()];
        let (mut n, mut blocked) = (0, 0);
        for from in Bits(own) {
            let ids = &LINE_IDS[from as usize];
            let paths = &PATH[from as usize];
            let mut here = 0;
            for kind in 0..4 {
                let len = self.lines[ids[kind] as usize] as usize;
                here += path_open(paths[2 * kind][len], 2 * kind, own, opp) as u32;
                here += path_open(paths[2 * kind + 1][len], 2 * kind + 1, own, opp) as u32;
            }
            n += here;
            blocked += (here == 0) as u32;
        }
        (n, blocked)
    }

    /// True if the side to move has at least one move other than the pass.
    pub fn can_move(&self) -> bool {
        !self.for_each_move(self.side, |_| false)
    }

    /// Appends the legal moves, or a lone pass when the side to move has none and the
    /// game goes on; nothing once the game is over.
    pub fn generate_moves(&self, out: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let start = out.len();
        self.for_each_move(self.side, |m| {
            out.push(m);
            true
        });
        if out.len() == start {
            out.push(Move::PASS);
        }
    }

    /// All legal moves in a fresh vector.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(48);
        self.generate_moves(&mut v);
        v
    }

    /// Whether `mv` is legal here, without generating every move.
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.is_over() {
            return false;
        }
        if mv.is_pass() {
            return !self.can_move();
        }
        let (from, to) = (mv.from, mv.to);
        if from >= 64 || to >= 64 {
            return false;
        }
        let own = self.pieces[self.side.index()];
        let opp = self.pieces[self.side.opponent().index()];
        if own & (1u64 << from) == 0 {
            return false;
        }
        let ids = &LINE_IDS[from as usize];
        (0..8).any(|dir| {
            let path = PATH[from as usize][dir][self.lines[ids[dir >> 1] as usize] as usize];
            path_open(path, dir, own, opp) && landing(path, dir) == 1u64 << to
        })
    }

    /// True if `mv` lands on an enemy piece.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass() && self.pieces[self.side.opponent().index()] & (1u64 << (mv.to & 63)) != 0
    }

    #[inline]
    fn add_lines(&mut self, sq: u8) {
        for id in LINE_IDS[sq as usize] {
            self.lines[id as usize] = self.lines[id as usize].wrapping_add(1);
        }
    }

    #[inline]
    fn remove_lines(&mut self, sq: u8) {
        for id in LINE_IDS[sq as usize] {
            self.lines[id as usize] = self.lines[id as usize].wrapping_sub(1);
        }
    }

    /// Plays a legal move and returns what is needed to take it back.
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let them = us.opponent();
        let mut undo = Undo {
            hash: self.hash,
            clock: self.clock,
            winner: self.winner,
            captured: false,
        };
        self.history.push(self.hash);
        if mv.is_pass() {
            self.clock += 1;
        } else {
            let (from, to) = (mv.from & 63, mv.to & 63);
            let to_bb = 1u64 << to;
            self.pieces[us.index()] ^= 1u64 << from | to_bb;
            self.hash ^= piece_key(us, from) ^ piece_key(us, to);
            self.remove_lines(from);
            if self.pieces[them.index()] & to_bb != 0 {
                // The captured piece's place on its lines is taken by the mover.
                self.pieces[them.index()] ^= to_bb;
                self.hash ^= piece_key(them, to);
                self.clock = 0;
                undo.captured = true;
            } else {
                self.add_lines(to);
                self.clock += 1;
            }
            // Only the mover's group changes shape, and the opponent's only by losing
            // a piece; the mover wins if both connect.
            self.winner = if is_connected(self.pieces[us.index()]) {
                Some(us)
            } else if undo.captured && is_connected(self.pieces[them.index()]) {
                Some(them)
            } else {
                None
            };
        }
        if us == Side::Second {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= SIDE_KEY;
        undo
    }

    /// Takes back `mv`, which must be the last move made.
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let us = self.side.opponent();
        self.side = us;
        if us == Side::Second {
            self.fullmove -= 1;
        }
        if !mv.is_pass() {
            let (from, to) = (mv.from & 63, mv.to & 63);
            let to_bb = 1u64 << to;
            self.pieces[us.index()] ^= 1u64 << from | to_bb;
            if undo.captured {
                self.pieces[us.opponent().index()] |= to_bb;
            } else {
                self.remove_lines(to);
            }
            self.add_lines(from);
        }
        self.history.pop();
        self.hash = undo.hash;
        self.clock = undo.clock;
        self.winner = undo.winner;
    }

    /// Number of leaf nodes of the legal-move tree of the given depth, counting the
    /// last ply's moves without playing them.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_over() {
            return 0;
        }
        if depth == 1 {
            return self.count_moves(self.side).max(1) as u64;
        }
        let mut moves = Vec::with_capacity(48);
        self.generate_moves(&mut moves);
        let mut total = 0;
        for mv in moves {
            let undo = self.make_move(mv);
            total += self.perft(depth - 1);
            self.unmake_move(mv, undo);
        }
        total
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {:?})", self.to_fen(), self.rules)
    }
}

//! The Ataxx position: pieces, gaps (blocks), side to move, the rule set's clock, the
//! incremental hash, and make/unmake. Everything about Ataxx rules lives here.

use super::bitboard::{dilate, dilate2, Bits, ADJACENT, FULL, JUMPS};
use super::network::AccStack;
use crate::game::{Outcome, RuleSet, Side};
use crate::rng;
use std::fmt;

/// Which end-of-game rule applies. A parameter of the position, never a global, because
/// one process may speak both the text language and UAI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// `ataxx.txt`: 25 consecutive jumps (passes neither count nor reset) end the game;
    /// then the piece count decides.
    Text,
    /// UAI: the halfmove clock counts every ply and is reset only by singles; at 100 the
    /// game is drawn unless the board is already decided.
    Uai,
    /// `ataxx-2008.txt` (the 2008 text edition): as [`Rules::Text`], but 45 consecutive
    /// jumps end the game.
    Text2008,
}

/// `-rules` and the records name the UAI rules `engine` and the 2016 edition's `text`
/// (their names from before the 2008 edition had its own), the 2008 edition's `2008`.
/// The 2022 edition plays by the 2016 rules (its course's jump limit is also 25); the
/// registry names a run of its dialect `2022` (`engine::variant::Registered::named_codecs`).
impl RuleSet for Rules {
    const ALL: &'static [Rules] = &[Rules::Uai, Rules::Text, Rules::Text2008];
    const ENGINE: Rules = Rules::Uai;

    fn name(self) -> &'static str {
        match self {
            Rules::Uai => "engine",
            Rules::Text => "text",
            Rules::Text2008 => "2008",
        }
    }

    /// Also `2016` and `2022`, the editions (`--edition`) that play by the 2016 rules:
    /// a record of a `-rules 2022` run replays by them.
    fn from_name(name: &str) -> Option<Rules> {
        match name {
            "2016" | "2022" => Some(Rules::Text),
            _ => Rules::ALL.iter().copied().find(|r| r.name() == name),
        }
    }
}

impl Rules {
    /// The clock value at which the game ends under these rules.
    pub fn clock_limit(self) -> u32 {
        match self {
            Rules::Text => 25,
            Rules::Uai => 100,
            Rules::Text2008 => 45,
        }
    }

    /// True for the text languages' rules: the clock counts consecutive jumps, and
    /// reaching its limit ends the game on the piece count.
    pub fn counts_jumps(self) -> bool {
        matches!(self, Rules::Text | Rules::Text2008)
    }
}

/// A move: a single (clone) to `to`, a double (jump) `from`→`to`, or a pass.
/// Singles carry no source square: all singles to one destination are the same move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    to: u8,
}

const PASS_SQ: u8 = 63;

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
    /// The pass, legal only when the side to move has pieces but no move.
    pub const PASS: Move = Move {
        from: PASS_SQ,
        to: PASS_SQ,
    };

    /// A single (clone) onto `to`.
    pub fn single(to: u8) -> Move {
        Move { from: to, to }
    }

    /// A double (jump) from `from` to `to`.
    pub fn double(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// True for the pass.
    pub fn is_pass(self) -> bool {
        self.from == PASS_SQ
    }

    /// True for a single.
    pub fn is_single(self) -> bool {
        self.from == self.to && !self.is_pass()
    }

    /// True for a double.
    pub fn is_double(self) -> bool {
        self.from != self.to
    }

    /// Destination square (meaningless for a pass).
    pub fn to(self) -> u8 {
        self.to
    }

    /// Source square of a double (equals `to` for a single).
    pub fn from(self) -> u8 {
        self.from
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Gap,
    Piece(Side),
}

/// Everything `unmake_move` needs to restore the position exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u64,
    clock: u32,
    hash: u64,
}

static PIECE_KEYS: [u64; 98] = rng::keys(0xA7A8_2016);
static GAP_KEYS: [u64; 49] = rng::keys(0x6A95_0001);
const SIDE_KEY: u64 = rng::splitmix64(0x51DE_2024).1;

#[inline]
fn piece_key(side: Side, sq: u8) -> u64 {
    PIECE_KEYS[side.index() * 49 + sq as usize]
}

/// An Ataxx position under a given rule set.
#[derive(Clone)]
pub struct Position {
    pieces: [u64; 2],
    gaps: u64,
    side: Side,
    /// Text rules: consecutive jumps. UAI rules: halfmove clock.
    clock: u32,
    fullmove: u32,
    rules: Rules,
    hash: u64,
    /// The evaluation network's accumulators ([`super::network`]), kept by make/unmake;
    /// not part of the position's identity.
    acc: AccStack,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.pieces == other.pieces
            && self.gaps == other.gaps
            && self.side == other.side
            && self.clock == other.clock
            && self.fullmove == other.fullmove
            && self.rules == other.rules
            && self.hash == other.hash
    }
}

impl Eq for Position {}

impl Position {
    /// The standard start: first player on a7 and g1, second on g7 and a1, no gaps.
    pub fn startpos(rules: Rules) -> Position {
        use super::bitboard::square;
        let first = 1u64 << square(0, 6) | 1u64 << square(6, 0);
        let second = 1u64 << square(6, 6) | 1u64 << square(0, 0);
        Position::from_parts(first, second, 0, Side::First, 0, 1, rules)
            .expect("the start position is valid")
    }

    /// Builds a position from raw parts, checking they are consistent.
    pub fn from_parts(
        first: u64,
        second: u64,
        gaps: u64,
        side: Side,
        clock: u32,
        fullmove: u32,
        rules: Rules,
    ) -> Result<Position, &'static str> {
        if (first | second | gaps) & !FULL != 0 {
            return Err("square out of range");
        }
        if first & second != 0 || (first | second) & gaps != 0 {
            return Err("two things on one square");
        }
        let mut pos = Position {
            pieces: [first, second],
            gaps,
            side,
            clock,
            fullmove: fullmove.max(1),
            rules,
            hash: 0,
            acc: AccStack::new([first, second], gaps),
        };
        pos.hash = pos.compute_hash();
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
        for sq in Bits(self.gaps) {
            h ^= GAP_KEYS[sq as usize];
        }
        if self.side == Side::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// Pieces of one side.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// Blocked squares.
    #[inline]
    pub fn gaps(&self) -> u64 {
        self.gaps
    }

    /// Empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1] | self.gaps)
    }

    /// The rule set in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Switches the rule set (the clock keeps its value).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Text rules: consecutive jumps so far. UAI rules: the halfmove clock.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// The fullmove number (starts at 1, grows after the second player moves).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Number of pieces of `side`.
    #[inline]
    pub fn count(&self, side: Side) -> u32 {
        self.pieces[side.index()].count_ones()
    }

    /// What square `sq` holds.
    pub fn cell(&self, sq: u8) -> Cell {
        let bit = 1u64 << sq;
        if self.pieces[0] & bit != 0 {
            Cell::Piece(Side::First)
        } else if self.pieces[1] & bit != 0 {
            Cell::Piece(Side::Second)
        } else if self.gaps & bit != 0 {
            Cell::Gap
        } else {
            Cell::Empty
        }
    }

    /// Turns empty squares into gaps. Errors (changing nothing) if one is not empty.
    pub fn add_gaps(&mut self, squares: u64) -> Result<(), &'static str> {
        if squares & !FULL != 0 {
            return Err("square out of range");
        }
        if squares & (self.pieces[0] | self.pieces[1]) != 0 {
            return Err("square is occupied");
        }
        for sq in Bits(squares & !self.gaps) {
            self.hash ^= GAP_KEYS[sq as usize];
        }
        self.gaps |= squares;
        self.acc.reset(self.pieces, self.gaps);
        Ok(())
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

    /// True if `side` has at least one single or double available.
    #[inline]
    pub fn can_move(&self, side: Side) -> bool {
        dilate2(self.pieces[side.index()]) & self.empty() != 0
    }

    /// The result if the game is over under this position's rules.
    pub fn outcome(&self) -> Option<Outcome> {
        let (a, b) = (self.pieces[0], self.pieces[1]);
        let decided = a == 0 || b == 0 || dilate2(a | b) & self.empty() == 0;
        let limit_reached = self.clock >= self.rules.clock_limit();
        if decided || (self.rules.counts_jumps() && limit_reached) {
            let (ca, cb) = (a.count_ones(), b.count_ones());
            return Some(if ca > cb {
                Outcome::Win(Side::First)
            } else if cb > ca {
                Outcome::Win(Side::Second)
            } else {
                Outcome::Draw
            });
        }
        if self.rules == Rules::Uai && limit_reached {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Appends the legal moves: singles once per destination, then doubles, or a lone
    /// pass when the side has no move and the game is not over.
    pub fn generate_moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let own = self.pieces[self.side.index()];
        let empty = self.empty();
        let start = out.len();
        for to in Bits(dilate(own) & empty) {
            out.push(Move::single(to));
        }
        for from in Bits(own) {
            for to in Bits(JUMPS[from as usize] & empty) {
                out.push(Move::double(from, to));
            }
        }
        if out.len() == start {
            out.push(Move::PASS);
        }
    }

    /// All legal moves in a fresh vector.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.generate_moves(&mut v);
        v
    }

    /// Whether `mv` is legal here, without generating every move.
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let own = self.pieces[self.side.index()];
        if mv.is_pass() {
            return !self.can_move(self.side);
        }
        if mv.to >= 49 || mv.from >= 49 || self.empty() & (1 << mv.to) == 0 {
            return false;
        }
        if mv.is_single() {
            ADJACENT[mv.to as usize] & own != 0
        } else {
            own & (1 << mv.from) != 0 && JUMPS[mv.from as usize] & (1 << mv.to) != 0
        }
    }

    /// The stones `mv` would turn (the enemy stones adjacent to its destination).
    #[inline]
    pub fn captures(&self, mv: Move) -> u64 {
        if mv.is_pass() {
            0
        } else {
            ADJACENT[mv.to as usize] & self.pieces[self.side.opponent().index()]
        }
    }

    /// The evaluation network's accumulator of this position.
    #[inline]
    pub fn accumulator(&self) -> &super::network::Accumulator {
        self.acc.top()
    }

    /// Plays a legal move and returns what is needed to take it back.
    #[inline]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let old = self.pieces;
        let undo = self.make_board(mv);
        self.acc.push(old, self.pieces);
        undo
    }

    /// Takes back `mv`, which must be the last move made.
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.unmake_board(mv, undo);
        self.acc.pop(self.pieces, self.gaps);
    }

    /// [`Position::make_move`] without the network's accumulators (perft's).
    fn make_board(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            captured: 0,
            clock: self.clock,
            hash: self.hash,
        };
        let us = self.side;
        let them = us.opponent();
        let captured = if mv.is_pass() {
            if self.rules == Rules::Uai {
                self.clock += 1;
            }
            0
        } else {
            let to_bb = 1u64 << mv.to;
            let captured = ADJACENT[mv.to as usize] & self.pieces[them.index()];
            let mut h = self.hash ^ piece_key(us, mv.to);
            if mv.is_double() {
                self.pieces[us.index()] ^= 1u64 << mv.from;
                h ^= piece_key(us, mv.from);
                self.clock += 1;
            } else {
                self.clock = 0;
            }
            self.pieces[us.index()] |= to_bb | captured;
            self.pieces[them.index()] &= !captured;
            for sq in Bits(captured) {
                h ^= piece_key(us, sq) ^ piece_key(them, sq);
            }
            self.hash = h;
            captured
        };
        if us == Side::Second {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= SIDE_KEY;
        Undo { captured, ..undo }
    }

    /// [`Position::unmake_move`] for [`Position::make_board`].
    fn unmake_board(&mut self, mv: Move, undo: Undo) {
        let them = self.side;
        let us = them.opponent();
        self.side = us;
        if us == Side::Second {
            self.fullmove -= 1;
        }
        if !mv.is_pass() {
            self.pieces[us.index()] &= !(undo.captured | 1u64 << mv.to);
            self.pieces[them.index()] |= undo.captured;
            if mv.is_double() {
                self.pieces[us.index()] |= 1u64 << mv.from;
            }
        }
        self.clock = undo.clock;
        self.hash = undo.hash;
    }

    /// For a single, an adjacent piece of the mover to name as its source in
    /// `from-to` notation (the lowest-numbered one, so output is deterministic).
    pub fn single_source(&self, to: u8) -> Option<u8> {
        Bits(ADJACENT[to as usize] & self.pieces[self.side.index()]).next()
    }

    /// Number of leaf nodes of the legal-move tree of the given depth, with bulk
    /// counting at the last ply (the perft semantics of `uai.md`).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome().is_some() {
            return 0;
        }
        let own = self.pieces[self.side.index()];
        let empty = self.empty();
        if depth == 1 {
            let mut n = (dilate(own) & empty).count_ones() as u64;
            for from in Bits(own) {
                n += (JUMPS[from as usize] & empty).count_ones() as u64;
            }
            return n.max(1);
        }
        let mut moves = Vec::with_capacity(128);
        self.generate_moves(&mut moves);
        let mut total = 0;
        for mv in moves {
            let undo = self.make_board(mv);
            total += self.perft(depth - 1);
            self.unmake_board(mv, undo);
        }
        total
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {:?})", self.to_fen(), self.rules)
    }
}

//! The `Game` trait: the only view of a game that the search, perft, bench and the
//! tournament referee have. Ataxx implements it now; Lines of Action and Reversi plug
//! into the same trait later, so nothing here may mention a particular game.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// One of the two players. `First` moves first (Ataxx: red / `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended, in absolute terms (not relative to the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A two-player, perfect-information, zero-sum board game as the search sees it.
///
/// Positions are updated in place with `make_move` / `unmake_move` so the search
/// allocates nothing per node; the `Undo` value carries whatever the game needs to
/// restore the previous position exactly (hash included).
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move, including any "pass" move the rules require.
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;
    /// What `make_move` returns so `unmake_move` can restore the position.
    type Undo: Copy;

    /// Number of history-table slots; `history_index` maps every move below it.
    const HISTORY_SIZE: usize;

    /// The player to move.
    fn side_to_move(&self) -> Side;

    /// A slot for `mv` in the search's history table (e.g. from-square × to-square).
    fn history_index(mv: Self::Move) -> usize;

    /// Appends every legal move to `out` (which the caller has cleared). A position
    /// whose game is over has no moves; a side that must pass gets exactly one pass move.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move. Behaviour for an illegal move is unspecified (but memory-safe).
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move that produced `undo`.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The Zobrist hash of the position (pieces and side to move), kept incrementally.
    fn hash(&self) -> u64;

    /// `Some` once the game is over under the position's rule set.
    fn outcome(&self) -> Option<Outcome>;

    /// Static evaluation in centipawn-like units from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// Ordering hint for a move in this position: higher is searched earlier.
    /// Default: no preference.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// True if the move is a pass (used to avoid reducing or pruning forced passes).
    fn is_pass(&self, mv: Self::Move) -> bool;

    /// True if the move is "quiet" enough to be reduced or pruned late in the move list.
    fn is_quiet(&self, mv: Self::Move) -> bool {
        let _ = mv;
        true
    }

    /// Whether `mv` is legal here; used to validate moves from the transposition
    /// table and from untrusted peers. The default generates all moves.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }
}

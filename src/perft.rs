//! Generic perft over any [`Game`]: the plain make/unmake tree walk, used to cross-check
//! each game's own fast perft and for `split` output.

use crate::game::Game;

/// Leaf nodes of the legal-move tree of `depth` plies below `pos`.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        let undo = pos.make_move(mv);
        total += perft(pos, depth - 1);
        pos.unmake_move(mv, undo);
    }
    total
}

/// Perft per root move, in generation order (for finding where two generators differ).
pub fn split<G: Game>(pos: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.make_move(mv);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake_move(mv, undo);
            (mv, n)
        })
        .collect()
}

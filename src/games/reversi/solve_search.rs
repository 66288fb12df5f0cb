//! The solver's search functions, written once and compiled twice by
//! [`search_functions`]: portably, and with the instruction sets of x86-64 CPUs since
//! 2013 (AVX2, BMI1/2, POPCNT, LZCNT) for [`Solver`](super::Solver) to pick at run time.
//! The algorithm and so the node counts are the same; the second copy is faster,
//! mostly from hardware popcounts, and faster again with its own `flips`
//! (`flips_avx2`: four directions per instruction). The bitboard primitives they call
//! inline into each copy, except the portable `flips`: inlined into every call site it
//! cost time (figures: `docs/reversi.md`, "Measurements behind the constants").

/// Expands to the search functions, each carrying the attributes given (none, or a
/// `target_feature`). They call one another inside the same expansion, so a copy
/// compiled for a feature set runs entirely with it.
macro_rules! search_functions {
    ($(#[$feature:meta])*) => {
        /// Discs of `own` that the corners make stable: own corners and the edge squares
        /// next to them.
        #[inline]
        $(#[$feature])*
        fn corner_stability(own: u64) -> i32 {
            let s = (((0x0100_0000_0000_0001 & own) << 1)
                | ((0x8000_0000_0000_0080 & own) >> 1)
                | ((0x0000_0000_0000_0081 & own) << 8)
                | ((0x8100_0000_0000_0000 & own) >> 8)
                | CORNERS)
                & own;
            s.count_ones() as i32
        }

        /// Fastest-first key of the position reached (`next_own` to move, `next_opp` the
        /// mover; lower is tried first), Edax's weights in strict priority: the opponent's
        /// moves (corners counting double), then our discs stable by the corners, then its
        /// potential moves. Letting mobility dominate potential mobility saved nodes over a
        /// 16:1 mix; Edax's further tie-breaks (square values, parity) saved nothing
        /// (`docs/reversi.md`, "Measurements behind the constants").
        #[inline]
        $(#[$feature])*
        fn reply_key(next_own: u64, next_opp: u64) -> i32 {
            let empty = !(next_own | next_opp);
            let potential = (neighbours(next_opp) & empty).count_ones() as i32;
            (mobility_key(next_own, next_opp) << 15) - (corner_stability(next_opp) << 11)
                + (potential << 5)
        }

        /// The first term of [`reply_key`] alone: the opponent's moves, corners counting
        /// double. Near the end the other terms cost more than they save.
        #[inline]
        $(#[$feature])*
        fn mobility_key(next_own: u64, next_opp: u64) -> i32 {
            let m = moves(next_own, next_opp);
            (m.count_ones() + (m & CORNERS).count_ones()) as i32
        }

        /// Brings the move with the lowest key among `list[i..]` to `i`, keeping the others
        /// in order: lazily, as a sort would, since a cutoff often ends the loop after
        /// the first moves.
        #[inline]
        $(#[$feature])*
        fn select(list: &mut [(u8, u64, i32)], i: usize) -> (u8, u64) {
            let mut best = i;
            for j in i + 1..list.len() {
                if list[j].2 < list[best].2 {
                    best = j;
                }
            }
            // The move to `i`, the ones before it one place on: a loop over a few
            // items, where `rotate_right` called the general rotation and `memmove`.
            let item = list[best];
            let mut j = best;
            while j > i {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[i] = item;
            (item.0, item.1)
        }

        /// The evaluation that orders moves far from the end, for `own` to move: the
        /// midgame evaluation with mobility weighted up (see [`MidOrder`](super::MidOrder))
        /// and a bonus per corner.
        #[inline]
        $(#[$feature])*
        fn order_eval(s: &Solver, own: u64, opp: u64) -> i32 {
            let corners = (own & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
            eval_patterns(s, own, opp) + ORDER_CORNER_BONUS * corners
        }

        /// Depth-limited alpha-beta with [`order_eval`] at the leaves (a finished game
        /// scores far beyond any evaluation), remembering each node's best move in the hint
        /// table so iterative deepening and later searches try it first.
        $(#[$feature])*
        fn mid(s: &mut Solver, own: u64, opp: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
            s.nodes += 1;
            if depth == 0 {
                return order_eval(s, own, opp);
            }
            // The ordering searches at the root and on the principal variation run
            // thousands of nodes before the solve proper reaches a node that looks at
            // its limit: they must look too (issue 25 item 8). Their result is thrown
            // away once stopped, as the solve's is.
            if depth >= 2 && s.stopped() {
                return 0;
            }
            let legal = moves(own, opp);
            if legal == 0 {
                if moves(opp, own) == 0 {
                    return s.over_scale * final_score(own, opp);
                }
                return -mid(s, opp, own, depth, -beta, -alpha);
            }
            let hint = s.hint(own, opp);
            let mut list = MoveList::new();
            for sq in Bits(legal) {
                let f = flips(own, opp, sq);
                let key = if sq == hint {
                    i32::MIN
                } else if depth > 1 {
                    let (no, np) = play(own, opp, sq, f);
                    reply_key(no, np)
                } else {
                    0
                };
                list.push(sq, f, key);
            }
            let list = list.as_mut_slice();
            let n = list.len();
            let mut best = -EVAL_INF;
            let mut best_sq = NO_MOVE;
            for i in 0..n {
                let (sq, f) = select(list, i);
                let (no, np) = play(own, opp, sq, f);
                let v = -mid(s, no, np, depth - 1, -beta, -alpha);
                if v > best {
                    best = v;
                    best_sq = sq;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            s.set_hint(own, opp, best_sq);
            best
        }

        /// Iterative deepening of [`mid`] by two plies up to `depth` (even, so the leaves
        /// always have the same side to move: the evaluation favours the mover).
        /// Returns the best move found.
        $(#[$feature])*
        fn best_by_iid(s: &mut Solver, own: u64, opp: u64, depth: u32) -> u8 {
            let mut d = 2;
            while d <= depth {
                mid(s, own, opp, d, -EVAL_INF, EVAL_INF);
                d += 2;
            }
            s.hint(own, opp)
        }

        /// The ordering key of the child (`no`, `np`) of a node with `empties` empties
        /// and the window's lower end `alpha` (`-SCORE_INF` for none): the child's score by
        /// a shallow search where it pays (the child is the opponent's position, so a low
        /// score is good for us), else fastest-first, just above that with the child's
        /// evaluation added. The shallow search only needs exact scores for moves that may
        /// reach about `alpha`: a move more than `SORT_DELTA` worse just sorts late, so its
        /// search may stop at that bound.
        #[inline]
        $(#[$feature])*
        fn order_key(
            s: &mut Solver,
            no: u64,
            np: u64,
            empties: u32,
            shallow_depth: u32,
            alpha: i32,
        ) -> i32 {
            if empties >= SHALLOW_EMPTIES {
                let beta = if alpha > -SCORE_INF {
                    SORT_DELTA - alpha * midgame::SCALE
                } else {
                    EVAL_INF
                };
                mid(s, no, np, shallow_depth, -EVAL_INF, beta)
            } else if empties >= EVAL_ORDER_EMPTIES {
                reply_key(no, np) + EVAL_ORDER_WEIGHT * order_eval(s, no, np)
            } else {
                reply_key(no, np)
            }
        }

        /// The root's moves (`own` to move, at least one legal move), best first by the
        /// root's ordering searches.
        $(#[$feature])*
        fn root_list(s: &mut Solver, own: u64, opp: u64) -> MoveList {
            let empties = (!(own | opp)).count_ones();
            let mut list = MoveList::new();
            for sq in Bits(moves(own, opp)) {
                let f = flips(own, opp, sq);
                let (no, np) = play(own, opp, sq, f);
                list.push(sq, f, order_key(s, no, np, empties, ROOT_SHALLOW_DEPTH, -SCORE_INF));
            }
            list.as_mut_slice().sort_by_key(|m| m.2);
            list
        }

        /// Solves the root (`own` to move, at least one legal move). Returns the score
        /// and the best square. From `SELECTIVE_EMPTIES` empties a selective pass first
        /// estimates the score (and fills the table with moves); the exact search then
        /// starts from a window just around it, widened while it fails.
        $(#[$feature])*
        pub(super) fn root(s: &mut Solver, own: u64, opp: u64) -> (i32, u8) {
            s.nodes += 1;
            let empties = (!(own | opp)).count_ones();
            let mut list = root_list(s, own, opp);
            let list = list.as_mut_slice();
            if empties < s.selective_from {
                return search_moves(s, own, opp, list, -SCORE_INF, SCORE_INF);
            }
            s.set_selectivity(Selectivity::Width(SELECTIVE_WIDTH));
            let (guess, guess_sq) = search_moves(s, own, opp, list, -SCORE_INF, SCORE_INF);
            s.set_selectivity(Selectivity::Exact);
            to_front(list, guess_sq);
            aspiration(s, own, opp, list, guess)
        }

        /// The endgame in stages, as the strong Othello programs play it: probcut
        /// rounds at rising confidence (`PROBCUT_ROUNDS`), then a win/loss/draw search,
        /// then the exact score, each round's result handed to `on_round` as soon as it
        /// is known (so a clock can stop the solve at any round and play the last
        /// round's move). The rounds share the table: each leaves its moves for the
        /// next, whose window centres on its score.
        $(#[$feature])*
        pub(super) fn staged(
            s: &mut Solver,
            own: u64,
            opp: u64,
            first_round: usize,
            on_round: &mut dyn FnMut(&Solver, Stage, i32, u8) -> bool,
        ) {
            s.nodes += 1;
            let mut list = root_list(s, own, opp);
            let list = list.as_mut_slice();
            if s.aborted {
                return;
            }
            let mut guess = None;
            for level in first_round..PROBCUT_ROUNDS.len() {
                s.set_selectivity(Selectivity::Probcut(level));
                let (v, sq) = round(s, own, opp, list, guess);
                if s.aborted {
                    return;
                }
                to_front(list, sq);
                guess = Some(v);
                // A round is in hand: the rest may run to the solve's own deadline.
                s.deadline = s.later_deadline;
                if !on_round(s, Stage::Probable(PROBCUT_ROUNDS[level].0), v, sq) {
                    return;
                }
            }
            s.set_selectivity(Selectivity::Exact);
            // Win, loss or draw: the window (-1, 1) around the draw.
            let (v, sq) = search_moves(s, own, opp, list, -1, 1);
            if s.aborted {
                return;
            }
            to_front(list, sq);
            s.deadline = s.later_deadline;
            if !on_round(s, Stage::WinLossDraw, v, sq) {
                return;
            }
            // The guess, moved to the side of the draw the last search proved.
            let g = guess.unwrap_or(v);
            let g = if v > 0 { g.max(v) } else if v < 0 { g.min(v) } else { 0 };
            let (v, sq) = aspiration(s, own, opp, list, g);
            if s.aborted {
                return;
            }
            let _ = on_round(s, Stage::Exact, v, sq);
        }

        /// One round of the root's moves `list` at the running selectivity: the full
        /// window without a guess, else an aspiration window around it.
        $(#[$feature])*
        fn round(s: &mut Solver, own: u64, opp: u64, list: &[(u8, u64, i32)], guess: Option<i32>) -> (i32, u8) {
            match guess {
                None => search_moves(s, own, opp, list, -SCORE_INF, SCORE_INF),
                Some(g) => aspiration(s, own, opp, list, g),
            }
        }

        /// The root's moves `list` searched with a window just around `guess`, widened
        /// while the score falls outside it.
        $(#[$feature])*
        fn aspiration(s: &mut Solver, own: u64, opp: u64, list: &[(u8, u64, i32)], guess: i32) -> (i32, u8) {
            // Scores are even, so (guess - 1, guess + 1) is exact if the guess is right.
            // Else the fail-soft score bounds the truth: move the window past it, twice as
            // far each time. A probcut round's scores are not consistent from one search
            // to the next (a cut depends on the window), so there the window only grows,
            // which ends it; the exact search may also close the other side on the bound.
            let exact = !s.probcut;
            let (mut alpha, mut beta) = (guess - 1, guess + 1);
            let mut delta = 2;
            loop {
                let (v, sq) = search_moves(s, own, opp, list, alpha, beta);
                if s.aborted {
                    return (v, sq);
                }
                if v <= alpha && alpha > -SCORE_MAX {
                    if exact {
                        beta = v + 1;
                    }
                    alpha = (v - delta).max(-SCORE_INF);
                } else if v >= beta && beta < SCORE_MAX {
                    if exact {
                        alpha = v - 1;
                    }
                    beta = (v + delta).min(SCORE_INF);
                } else {
                    return (v, sq);
                }
                delta = (delta * 2).min(2 * SCORE_INF);
            }
        }

        /// [`mid`] as a prediction of the exact score rather than an ordering: a
        /// finished game counts in the evaluation's units, as probcut's fit measured it.
        #[inline]
        $(#[$feature])*
        fn predict(s: &mut Solver, own: u64, opp: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
            s.over_scale = midgame::SCALE;
            let v = mid(s, own, opp, depth, alpha, beta);
            s.over_scale = GAME_OVER_SCALE;
            v
        }

        /// The shallow search's score of a position, full window (for fitting probcut's
        /// margins).
        $(#[$feature])*
        pub(super) fn shallow(s: &mut Solver, own: u64, opp: u64, depth: u32) -> i32 {
            predict(s, own, opp, depth, -EVAL_INF, EVAL_INF)
        }

        /// Probcut at a null-window node (Buro's, as Edax and NTest apply it in the
        /// endgame): a shallow search (`probcut_depth`) predicts the exact score with a
        /// spread fitted per empties and depth; when it clears `alpha + 1` (or falls
        /// below `alpha`) by the running round's confidence times that spread, the
        /// node is cut as if the exact search had failed high (low).
        #[inline]
        $(#[$feature])*
        fn probcut(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> Option<i32> {
            let (offset, margin) = s.cut[empties as usize];
            let depth = probcut_depth(empties);
            let high = (alpha + 1) * midgame::SCALE + offset + margin;
            let low = alpha * midgame::SCALE + offset - margin;
            if high < SCORE_MAX * midgame::SCALE && predict(s, own, opp, depth, high - 1, high) >= high {
                Some(alpha + 1)
            } else if low > -SCORE_MAX * midgame::SCALE && predict(s, own, opp, depth, low, low + 1) <= low {
                Some(alpha)
            } else {
                None
            }
        }

        /// Principal-variation search of the moves `list` (in order) of the root or a
        /// PV node with the window (`alpha`, `beta`), fail-soft: the first with the full
        /// window, the others with a null window first. Returns the score and the best
        /// square.
        $(#[$feature])*
        fn search_moves(
            s: &mut Solver,
            own: u64,
            opp: u64,
            list: &[(u8, u64, i32)],
            mut alpha: i32,
            beta: i32,
        ) -> (i32, u8) {
            let empties = (!(own | opp)).count_ones();
            let mut best = -SCORE_INF;
            let mut best_sq = list[0].0;
            for (i, &(sq, f, _)) in list.iter().enumerate() {
                let (no, np) = play(own, opp, sq, f);
                let v = if i == 0 {
                    -pvs(s, no, np, -beta, -alpha, empties - 1)
                } else {
                    let v = -nws(s, no, np, -alpha - 1, empties - 1);
                    if v > alpha && v < beta {
                        -pvs(s, no, np, -beta, -(v - 1), empties - 1)
                    } else {
                        v
                    }
                };
                if v > best {
                    best = v;
                    best_sq = sq;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            (best, best_sq)
        }

        /// Principal-variation search with the window (`alpha`, `beta`), fail-soft: exact
        /// inside the window. Only the few nodes on the principal variation come here, so
        /// they afford the best ordering: the table's move, else one found by iterative
        /// deepening, then shallow searches.
        $(#[$feature])*
        fn pvs(s: &mut Solver, own: u64, opp: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
            if beta == alpha + 1 {
                return nws(s, own, opp, alpha, empties);
            }
            if s.stopped() {
                return alpha;
            }
            s.nodes += 1;
            let legal = moves(own, opp);
            if legal == 0 {
                if moves(opp, own) == 0 {
                    return final_score(own, opp);
                }
                return -pvs(s, opp, own, -beta, -alpha, empties);
            }
            let mut first = NO_MOVE;
            let (mut lower, mut upper) = (-SCORE_MAX, SCORE_MAX);
            if let Some(e) = s.probe(own, opp) {
                lower = e.lower as i32;
                upper = e.upper as i32;
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                first = e.mv;
            }
            if first == NO_MOVE && empties >= IID_EMPTIES {
                first = best_by_iid(s, own, opp, (empties - IID_MARGIN).min(IID_MAX_DEPTH) & !1);
            }
            let mut list = MoveList::new();
            for sq in Bits(legal) {
                let f = flips(own, opp, sq);
                let (no, np) = play(own, opp, sq, f);
                let key = if sq == first {
                    i32::MIN
                } else {
                    order_key(s, no, np, empties, PV_SHALLOW_DEPTH, alpha)
                };
                list.push(sq, f, key);
            }
            let list = list.as_mut_slice();
            list.sort_unstable_by_key(|m| m.2);
            let (best, best_sq) = search_moves(s, own, opp, list, alpha, beta);
            s.store_window(own, opp, (alpha, beta), best, best_sq, empties, (lower, upper));
            best
        }

        /// Null-window search: is the score of `own` to move above `alpha`? Fail-soft.
        #[inline]
        $(#[$feature])*
        fn nws(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
            if empties > TT_EMPTIES {
                nws_table(s, own, opp, alpha, empties)
            } else {
                nws_low(s, own, opp, alpha, empties, parity(!(own | opp)))
            }
        }

        /// [`nws`] from `TT_EMPTIES` empties down, with the parity of the quadrants
        /// (bit q set: quadrant q holds an odd number of empties) kept up to date move by
        /// move rather than counted at each node.
        #[inline]
        $(#[$feature])*
        fn nws_low(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32, parity: u8) -> i32 {
            if empties > 4 {
                nws_mid(s, own, opp, alpha, empties, parity)
            } else {
                nws_small(s, own, opp, alpha, empties, parity)
            }
        }

        /// The side to move has no move: pass, or score the finished game.
        #[inline]
        $(#[$feature])*
        fn pass(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
            if moves(opp, own) == 0 {
                final_score(own, opp)
            } else {
                -nws(s, opp, own, -alpha - 1, empties)
            }
        }

        /// An upper bound on the score from the opponent's stable discs (they stay its
        /// own to the end), worth computing only when it might be at most `alpha`. Tried
        /// at every null-window node from 4 empties (before move generation): starting it
        /// from 9 or 5 empties instead cost nodes and time on FFO #40–#49, and Edax's
        /// thresholds on alpha, which skip it at more nodes, cut less (`docs/reversi.md`,
        /// "Measurements behind the constants").
        #[inline]
        $(#[$feature])*
        fn stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
            if alpha >= SCORE_MAX - 2 * opp.count_ones() as i32 {
                let bound = SCORE_MAX - 2 * stable(opp, own).count_ones() as i32;
                if bound <= alpha {
                    return Some(bound);
                }
            }
            None
        }

        /// Null-window nodes with more than `TT_EMPTIES` empties: transposition table,
        /// stability cutoff, enhanced transposition cutoff, then moves best-first.
        $(#[$feature])*
        fn nws_table(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32) -> i32 {
            if s.stopped() {
                return alpha;
            }
            s.nodes += 1;
            let mut first = NO_MOVE;
            let (mut lower, mut upper) = (-SCORE_MAX, SCORE_MAX);
            if let Some(e) = s.probe(own, opp) {
                lower = e.lower as i32;
                upper = e.upper as i32;
                if lower > alpha {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                first = e.mv;
            }
            let legal = moves(own, opp);
            if legal == 0 {
                return pass(s, own, opp, alpha, empties);
            }
            if let Some(bound) = stability_cutoff(own, opp, alpha) {
                return bound;
            }
            if s.probcut && empties >= PROBCUT_EMPTIES {
                if let Some(v) = probcut(s, own, opp, alpha, empties) {
                    s.store(own, opp, alpha, v, first, empties, lower, upper);
                    return v;
                }
            }
            if first == NO_MOVE && empties >= IID_NWS_EMPTIES {
                first = best_by_iid(
                    s,
                    own,
                    opp,
                    (empties - IID_NWS_MARGIN).min(IID_MAX_DEPTH) & !1,
                );
            }
            let mut list = MoveList::new();
            let mut first_flips = 0;
            for sq in Bits(legal) {
                let f = flips(own, opp, sq);
                // Children that use the table: their buckets load while the list is built.
                if empties - 1 > TT_EMPTIES {
                    let (no, np) = play(own, opp, sq, f);
                    s.prefetch(no, np);
                }
                if sq == first {
                    first_flips = f;
                } else {
                    list.push(sq, f, 0);
                }
            }
            // Enhanced transposition cutoff: a child the table already knows to be bad
            // enough for the opponent settles this node without a search.
            if empties > ETC_EMPTIES {
                let table_move = (first_flips != 0).then_some((first, first_flips, 0));
                for &(sq, f, _) in table_move.iter().chain(list.as_mut_slice().iter()) {
                    let (no, np) = play(own, opp, sq, f);
                    if let Some(ce) = s.probe(no, np) {
                        if -(ce.upper as i32) > alpha {
                            let v = -(ce.upper as i32);
                            s.store(own, opp, alpha, v, sq, empties, lower, upper);
                            return v;
                        }
                    }
                }
            }
            let mut best = -SCORE_INF;
            let mut best_sq = NO_MOVE;
            // The table's move alone first: when it refutes, the others need no ordering
            // searches (whose nodes count as much as the tree's).
            if first_flips != 0 {
                let (no, np) = play(own, opp, first, first_flips);
                best = -nws(s, no, np, -alpha - 1, empties - 1);
                best_sq = first;
                if best > alpha {
                    s.store(own, opp, alpha, best, best_sq, empties, lower, upper);
                    return best;
                }
            }
            let list = list.as_mut_slice();
            let n = list.len();
            for m in list.iter_mut() {
                let (no, np) = play(own, opp, m.0, m.1);
                m.2 = order_key(s, no, np, empties, NWS_SHALLOW_DEPTH, alpha);
            }
            for i in 0..n.min(s.width as usize) {
                let (sq, f) = select(list, i);
                let (no, np) = play(own, opp, sq, f);
                let v = -nws(s, no, np, -alpha - 1, empties - 1);
                if v > best {
                    best = v;
                    best_sq = sq;
                    if v > alpha {
                        break;
                    }
                }
            }
            s.store(own, opp, alpha, best, best_sq, empties, lower, upper);
            best
        }

        /// Null-window nodes with 5 to `TT_EMPTIES` empties: no table (it would cost more
        /// than it saves); fastest-first above `SORT_EMPTIES` (by the opponent's mobility
        /// alone up to `MOBILITY_KEY_EMPTIES`), else parity order.
        $(#[$feature])*
        fn nws_mid(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32, parity: u8) -> i32 {
            s.nodes += 1;
            if let Some(bound) = stability_cutoff(own, opp, alpha) {
                return bound;
            }
            let legal = moves(own, opp);
            if legal == 0 {
                return if moves(opp, own) == 0 {
                    final_score(own, opp)
                } else {
                    -nws_low(s, opp, own, -alpha - 1, empties, parity)
                };
            }
            let mut best = -SCORE_INF;
            if empties > SORT_EMPTIES {
                let mut list = MoveList::new();
                for sq in Bits(legal) {
                    let f = flips(own, opp, sq);
                    let (no, np) = play(own, opp, sq, f);
                    let key = if empties > MOBILITY_KEY_EMPTIES {
                        reply_key(no, np)
                    } else {
                        mobility_key(no, np)
                    };
                    list.push(sq, f, key);
                }
                let list = list.as_mut_slice();
                let n = list.len();
                for i in 0..n {
                    let (sq, f) = select(list, i);
                    let (no, np) = play(own, opp, sq, f);
                    let v = -nws_low(s, no, np, -alpha - 1, empties - 1, parity ^ QUADRANT_BIT[sq as usize]);
                    if v > best {
                        best = v;
                        if v > alpha {
                            return v;
                        }
                    }
                }
                return best;
            }
            let odd = ODD_SQUARES[parity as usize] & !(own | opp);
            for class in [odd, !odd] {
                for pri in PRIORITY {
                    for sq in Bits(legal & class & pri) {
                        let f = flips(own, opp, sq);
                        let (no, np) = play(own, opp, sq, f);
                        let v = -nws_low(s, no, np, -alpha - 1, empties - 1, parity ^ QUADRANT_BIT[sq as usize]);
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
            }
            best
        }

        /// 0 to 4 empties: collect the squares, odd regions first, and run the loops.
        #[inline]
        $(#[$feature])*
        fn nws_small(s: &mut Solver, own: u64, opp: u64, alpha: i32, empties: u32, parity: u8) -> i32 {
            let empty = !(own | opp);
            let odd = ODD_SQUARES[parity as usize];
            let mut sq = [0u8; 4];
            let mut n = 0;
            for x in Bits(empty & odd).chain(Bits(empty & !odd)) {
                sq[n] = x;
                n += 1;
            }
            debug_assert_eq!(n as u32, empties);
            match n {
                4 => nws4(s, own, opp, alpha, sq),
                3 => nws3(s, own, opp, alpha, [sq[0], sq[1], sq[2]]),
                2 => nws2(s, own, opp, alpha, sq[0], sq[1]),
                1 => last1(s, own, opp, sq[0]),
                _ => {
                    s.nodes += 1;
                    final_score(own, opp)
                }
            }
        }

        /// Four empties `sq`, in parity order; no move list.
        $(#[$feature])*
        fn nws4(s: &mut Solver, own: u64, opp: u64, alpha: i32, sq: [u8; 4]) -> i32 {
            s.nodes += 1;
            if let Some(bound) = stability_cutoff(own, opp, alpha) {
                return bound;
            }
            let mut best = -SCORE_INF;
            for i in 0..4 {
                let x = sq[i];
                if NEIGHBOURS[x as usize] & opp == 0 {
                    continue;
                }
                let f = flips(own, opp, x);
                if f == 0 {
                    continue;
                }
                let rest = match i {
                    0 => [sq[1], sq[2], sq[3]],
                    1 => [sq[0], sq[2], sq[3]],
                    2 => [sq[0], sq[1], sq[3]],
                    _ => [sq[0], sq[1], sq[2]],
                };
                let (no, np) = play(own, opp, x, f);
                let v = -nws3(s, no, np, -alpha - 1, rest);
                if v > best {
                    best = v;
                    if v > alpha {
                        return v;
                    }
                }
            }
            if best == -SCORE_INF {
                return if moves(opp, own) == 0 {
                    final_score(own, opp)
                } else {
                    -nws4(s, opp, own, -alpha - 1, sq)
                };
            }
            best
        }

        /// Three empties.
        $(#[$feature])*
        fn nws3(s: &mut Solver, own: u64, opp: u64, alpha: i32, sq: [u8; 3]) -> i32 {
            s.nodes += 1;
            let mut best = -SCORE_INF;
            for i in 0..3 {
                let x = sq[i];
                if NEIGHBOURS[x as usize] & opp == 0 {
                    continue;
                }
                let f = flips(own, opp, x);
                if f == 0 {
                    continue;
                }
                let (a, b) = match i {
                    0 => (sq[1], sq[2]),
                    1 => (sq[0], sq[2]),
                    _ => (sq[0], sq[1]),
                };
                let (no, np) = play(own, opp, x, f);
                let v = -nws2(s, no, np, -alpha - 1, a, b);
                if v > best {
                    best = v;
                    if v > alpha {
                        return v;
                    }
                }
            }
            if best == -SCORE_INF {
                return if moves(opp, own) == 0 {
                    final_score(own, opp)
                } else {
                    -nws3(s, opp, own, -alpha - 1, sq)
                };
            }
            best
        }

        /// Two empties `a` and `b`; a pass is handled here, without a recursive call.
        $(#[$feature])*
        fn nws2(s: &mut Solver, own: u64, opp: u64, alpha: i32, a: u8, b: u8) -> i32 {
            s.nodes += 1;
            let mut best = -SCORE_INF;
            if NEIGHBOURS[a as usize] & opp != 0 {
                let f = flips(own, opp, a);
                if f != 0 {
                    let (no, np) = play(own, opp, a, f);
                    best = -last1(s, no, np, b);
                    if best > alpha {
                        return best;
                    }
                }
            }
            if NEIGHBOURS[b as usize] & opp != 0 {
                let f = flips(own, opp, b);
                if f != 0 {
                    let (no, np) = play(own, opp, b, f);
                    return (-last1(s, no, np, a)).max(best);
                }
            }
            if best != -SCORE_INF {
                return best;
            }
            // We pass: the opponent moves, and we get the worse of its results for us.
            s.nodes += 1;
            let mut worst = SCORE_INF;
            if NEIGHBOURS[a as usize] & own != 0 {
                let f = flips(opp, own, a);
                if f != 0 {
                    let (np, no) = play(opp, own, a, f);
                    worst = last1(s, np, no, b);
                    if worst <= alpha {
                        return worst;
                    }
                }
            }
            if NEIGHBOURS[b as usize] & own != 0 {
                let f = flips(opp, own, b);
                if f != 0 {
                    let (np, no) = play(opp, own, b, f);
                    return last1(s, np, no, a).min(worst);
                }
            }
            if worst != SCORE_INF {
                return worst;
            }
            final_score(own, opp)
        }

        /// The last empty square `x`: only the flips need counting, by line lookups.
        #[inline]
        $(#[$feature])*
        fn last1(s: &mut Solver, own: u64, opp: u64, x: u8) -> i32 {
            s.nodes += 1;
            let n = own.count_ones() as i32;
            let f = last_flip_count(own, x) as i32;
            if f > 0 {
                return 2 * (n + 1 + f) - 64;
            }
            let g = last_flip_count(opp, x) as i32;
            if g > 0 {
                return 2 * (n - g) - 64;
            }
            // Neither side can fill it: the empty square goes to the winner.
            let diff = 2 * n - 63;
            if diff > 0 {
                diff + 1
            } else {
                diff - 1
            }
        }
    };
}
pub(super) use search_functions;

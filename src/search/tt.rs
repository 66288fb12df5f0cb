//! Transposition table: two-entry buckets indexed by the hash. A new result goes into
//! the entry of the same position if there is one, else into the less valuable entry
//! (older search first, then shallower), so deep results from this search survive.

use super::report::{MAX_PLY, WIN};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// The table. Sized in MiB; never allocates during search.
pub struct Table<M> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Table<M> {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>();
        let n = (mib.saturating_mul(1 << 20) / bucket).max(1);
        Table {
            buckets: vec![[None, None]; n],
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None, None]);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with its score converted back to "from this node".
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry<M>> {
        let bucket = &self.buckets[self.index(key)];
        bucket
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .map(|e| Entry {
                score: score_from_tt(e.score, ply),
                ..*e
            })
    }

    /// Stores a result (score relative to this node; stored relative to the root
    /// distance-independent form).
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<M>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation;
        let idx = self.index(key);
        let bucket = &mut self.buckets[idx];
        let slot = match bucket.iter().position(|e| e.is_some_and(|e| e.key == key)) {
            Some(i) => i,
            None => match (&bucket[0], &bucket[1]) {
                (None, _) => 0,
                (_, None) => 1,
                (Some(a), Some(b)) => {
                    let value = |e: &Entry<M>| {
                        e.depth as i32 - 8 * (generation.wrapping_sub(e.generation) as i32)
                    };
                    if value(a) <= value(b) {
                        0
                    } else {
                        1
                    }
                }
            },
        };
        // Keep a move we already know for this position if the new result has none.
        let mv = mv.or_else(|| bucket[slot].filter(|e| e.key == key).and_then(|e| e.mv));
        bucket[slot] = Some(Entry {
            key,
            mv,
            score: score_to_tt(score, ply),
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation,
        });
    }

    /// Permille of the entries of the first 500 buckets (1000 entries) written by this
    /// search (UAI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(500);
        let used = self.buckets[..n]
            .iter()
            .flatten()
            .flatten()
            .filter(|e| e.generation == self.generation)
            .count();
        (used * 1000 / (2 * n).max(1)) as u32
    }
}

const PROVEN: i32 = WIN - MAX_PLY as i32;

/// Win/loss scores are stored as distance from this node, not from the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t: Table<u16> = Table::new(1);
        t.store(42, Some(7), 15, 3, Bound::Exact, 0);
        let e = t.probe(42, 0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(7), 15, 3, Bound::Exact)
        );
        assert!(t.probe(43, 0).is_none());
        // A win found at ply 4 (win in 6 plies from the root) is a win in 2 from its node.
        t.store(99, None, WIN - 6, 5, Bound::Exact, 4);
        assert_eq!(t.probe(99, 2).unwrap().score, WIN - 4);
        t.clear();
        assert!(t.probe(42, 0).is_none());
    }
}

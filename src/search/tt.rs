//! Transposition table: two-entry buckets indexed by the hash. A new result goes into
//! the entry of the same position if there is one, else into the less valuable entry
//! (older search first, then shallower), so deep results from this search survive.
//!
//! The table is shared by every search thread (Lazy SMP) without locks: an entry is two
//! atomic words, the data packed into one and the key xor-ed with the data in the
//! other. A reader accepts an entry only if the two xor back to its key, so an entry
//! torn by two threads writing at once (one word from each) is rejected as a miss.

use super::report::{MAX_PLY, WIN};
use crate::game::PackedMove;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

// The data word: score (i16) | depth (i16) << 16 | move << 32 | has-move << 48 |
// bound << 49 | generation << 51 | occupied << 63. An empty entry is all zeros.
const HAS_MOVE: u64 = 1 << 48;
const OCCUPIED: u64 = 1 << 63;

impl<M: PackedMove> Entry<M> {
    /// The data word. Every score the search stores lies within ±`INF` (32 000), so
    /// 16 bits keep it exactly.
    fn pack(&self) -> u64 {
        let score = self.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let depth = self.depth as u16 as u64;
        let mv = self.mv.map_or(0, |m| HAS_MOVE | (m.pack() as u64) << 32);
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        OCCUPIED | score | depth << 16 | mv | bound << 49 | (self.generation as u64) << 51
    }

    /// The entry of a key word and a data word, `None` if empty or if the words do not
    /// belong together (another position's, or torn between two writers).
    fn unpack(key_word: u64, data: u64) -> Option<Entry<M>> {
        if data & OCCUPIED == 0 {
            return None;
        }
        Some(Entry {
            key: key_word ^ data,
            mv: (data & HAS_MOVE != 0).then(|| M::unpack((data >> 32) as u16)),
            score: data as u16 as i16 as i32,
            depth: (data >> 16) as u16 as i16,
            bound: match (data >> 49) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            generation: (data >> 51) as u8,
        })
    }
}

/// One entry's two words: `key ^ data` and `data`.
#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load<M: PackedMove>(&self) -> Option<Entry<M>> {
        let key = self.key.load(Ordering::Relaxed);
        let data = self.data.load(Ordering::Relaxed);
        Entry::unpack(key, data)
    }

    fn save<M: PackedMove>(&self, e: &Entry<M>) {
        let data = e.pack();
        self.key.store(e.key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.key.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// Bytes of a bucket of the table this one replaced (two 24-byte entries): the number
/// of buckets per MiB stays what it was, so a one-thread search visits exactly the
/// nodes it did before the table was shared. The packed buckets take 32 bytes.
const BUCKET_BYTES: usize = 48;

/// The table, shared by reference (`&self` everywhere) between search threads. Sized
/// in MiB; never allocates during search.
pub struct Table<M> {
    buckets: Vec<[Slot; 2]>,
    generation: AtomicU8,
    _move: PhantomData<fn() -> M>,
}

impl<M: PackedMove> Table<M> {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Table<M> {
        let n = (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        Table {
            buckets: (0..n).map(|_| Default::default()).collect(),
            generation: AtomicU8::new(0),
            _move: PhantomData,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        self.buckets.iter().flatten().for_each(Slot::clear);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with its score converted back to "from this node".
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry<M>> {
        let bucket = &self.buckets[self.index(key)];
        bucket
            .iter()
            .filter_map(Slot::load::<M>)
            .find(|e| e.key == key)
            .map(|e| Entry {
                score: score_from_tt(e.score, ply),
                ..e
            })
    }

    /// Stores a result (score relative to this node; stored relative to the root
    /// distance-independent form).
    pub fn store(&self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound, ply: usize) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.buckets[self.index(key)];
        let old: [Option<Entry<M>>; 2] = [bucket[0].load(), bucket[1].load()];
        let slot = match old.iter().position(|e| e.is_some_and(|e| e.key == key)) {
            Some(i) => i,
            None => match (&old[0], &old[1]) {
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
        let mv = mv.or_else(|| old[slot].filter(|e| e.key == key).and_then(|e| e.mv));
        bucket[slot].save(&Entry {
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
        let generation = self.generation.load(Ordering::Relaxed);
        let used = self.buckets[..n]
            .iter()
            .flatten()
            .filter_map(Slot::load::<M>)
            .filter(|e| e.generation == generation)
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
        let t: Table<u16> = Table::new(1);
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

    #[test]
    fn packing_round_trips() {
        for (mv, score, depth, bound, generation) in [
            (Some(0xbeefu16), -32_000, 1, Bound::Upper, 255u8),
            (None, WIN - 3, 120, Bound::Lower, 0),
            (Some(0), 0, 0, Bound::Exact, 7),
            (Some(0xffff), 32_000, -5, Bound::Exact, 128),
        ] {
            let e = Entry {
                key: 0x0123_4567_89ab_cdef,
                mv,
                score,
                depth,
                bound,
                generation,
            };
            let data = e.pack();
            assert_eq!(Entry::<u16>::unpack(e.key ^ data, data), Some(e));
        }
        assert_eq!(Entry::<u16>::unpack(0, 0), None, "an empty entry");
    }

    #[test]
    fn torn_or_foreign_entries_are_rejected() {
        let t: Table<u16> = Table::new(1);
        let (a, b) = (0x1111_2222_3333_4444u64, 0x1111_2222_3333_4445u64);
        assert_eq!(t.index(a), t.index(b), "the two keys share a bucket");
        t.store(a, Some(1), 10, 4, Bound::Exact, 0);
        // Another key in the same bucket is a miss, not `a`'s entry.
        assert!(t.probe(b, 0).is_none());
        // A torn entry: `a`'s key word with the data word of another write (as when two
        // threads write the entry at once) does not xor back to `a`, nor to anything
        // probed: it is a miss.
        let slot = &t.buckets[t.index(a)][0];
        let other = Entry {
            key: b,
            mv: Some(9u16),
            score: -77,
            depth: 9,
            bound: Bound::Lower,
            generation: 0,
        };
        slot.data.store(other.pack(), Ordering::Relaxed);
        assert!(t.probe(a, 0).is_none());
        assert!(t.probe(b, 0).is_none());
        // Written whole, it is found again.
        slot.save(&other);
        assert_eq!(t.probe(b, 0).map(|e| e.score), Some(-77));
    }

    #[test]
    fn shared_between_threads() {
        let t: Table<u16> = Table::new(1);
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for k in 0..10_000u64 {
                        let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ id;
                        t.store(key, Some(k as u16), (k % 1000) as i32, 3, Bound::Exact, 0);
                        if let Some(e) = t.probe(key, 0) {
                            // Whatever is found under a key is what was stored for it.
                            assert_eq!(e.mv, Some(k as u16));
                            assert_eq!(e.score, (k % 1000) as i32);
                        }
                    }
                });
            }
        });
        assert!(t.hashfull() > 0);
    }
}

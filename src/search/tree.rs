//! The shared search tree: nodes in a capped arena, updated lock-free.
//!
//! A node's children sit side by side in the arena. One thread expands a
//! node (state LEAF -> EXPANDING -> EXPANDED); the others play out from it
//! meanwhile. Statistics are atomic counters; a node's value is from the
//! point of view of the player who made the move leading to it.

use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize,
    Ordering::{Acquire, Relaxed, Release},
};
use std::sync::OnceLock;

/// Move code of a pass (point indices are never 0: that slot is border).
pub(crate) const PASS: u16 = 0;
/// Fixed-point unit of values.
pub(crate) const VALUE_ONE: f64 = 65536.0;
/// Fixed-point unit of scores.
pub(crate) const SCORE_ONE: f64 = 64.0;

pub(crate) const LEAF: u8 = 0;
pub(crate) const EXPANDING: u8 = 1;
pub(crate) const EXPANDED: u8 = 2;

/// One position in the tree, reached by `mv`.
#[derive(Default)]
pub(crate) struct Node {
    pub(crate) mv: AtomicU16,
    pub(crate) state: AtomicU8,
    pub(crate) n_children: AtomicU16,
    pub(crate) first_child: AtomicU32,
    /// Playouts through the node, virtual losses in flight included.
    pub(crate) visits: AtomicU32,
    /// Results in half points: 2 per win, 1 per jigo.
    pub(crate) wins: AtomicU32,
    /// Sum of values (win plus score term), in [`VALUE_ONE`] units.
    pub(crate) value: AtomicU64,
    /// Sum of final scores, in [`SCORE_ONE`] units.
    pub(crate) score: AtomicI64,
    pub(crate) rave_visits: AtomicU32,
    pub(crate) rave_value: AtomicU64,
    /// Prior virtual playouts and their mean, as f32 bits.
    pub(crate) prior_visits: AtomicU32,
    pub(crate) prior_value: AtomicU32,
}

impl Node {
    #[inline]
    pub(crate) fn prior(&self) -> (f64, f64) {
        (
            f32::from_bits(self.prior_visits.load(Relaxed)) as f64,
            f32::from_bits(self.prior_value.load(Relaxed)) as f64,
        )
    }

    pub(crate) fn set_prior(&self, visits: f32, value: f32) {
        self.prior_visits.store(visits.to_bits(), Relaxed);
        self.prior_value.store(value.to_bits(), Relaxed);
    }

    #[inline]
    pub(crate) fn children(&self) -> Option<(u32, usize)> {
        if self.state.load(Acquire) != EXPANDED {
            return None;
        }
        Some((
            self.first_child.load(Relaxed),
            self.n_children.load(Relaxed) as usize,
        ))
    }

    #[inline]
    pub(crate) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Win rate in [0, 1] (0.5 without visits).
    pub(crate) fn winrate(&self) -> f64 {
        let n = self.visits();
        if n == 0 {
            0.5
        } else {
            (self.wins.load(Relaxed) as f64 / (2.0 * n as f64)).min(1.0)
        }
    }

    /// Mean score for the mover.
    pub(crate) fn mean_score(&self) -> f64 {
        let n = self.visits();
        if n == 0 {
            0.0
        } else {
            self.score.load(Relaxed) as f64 / SCORE_ONE / n as f64
        }
    }

    fn copy_stats(&self, from: &Node) {
        self.mv.store(from.mv.load(Relaxed), Relaxed);
        self.visits.store(from.visits.load(Relaxed), Relaxed);
        self.wins.store(from.wins.load(Relaxed), Relaxed);
        self.value.store(from.value.load(Relaxed), Relaxed);
        self.score.store(from.score.load(Relaxed), Relaxed);
        self.rave_visits
            .store(from.rave_visits.load(Relaxed), Relaxed);
        self.rave_value
            .store(from.rave_value.load(Relaxed), Relaxed);
        self.prior_visits
            .store(from.prior_visits.load(Relaxed), Relaxed);
        self.prior_value
            .store(from.prior_value.load(Relaxed), Relaxed);
    }
}

const CHUNK_BITS: usize = 14;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Node storage with a hard cap, allocated chunk by chunk as it fills.
pub(crate) struct Arena {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    used: AtomicUsize,
    capacity: usize,
    full: AtomicBool,
}

impl Arena {
    /// An arena of at most `capacity` nodes (at least 1).
    pub(crate) fn new(capacity: usize) -> Arena {
        let capacity = capacity.clamp(1, u32::MAX as usize);
        Arena {
            chunks: (0..capacity.div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            used: AtomicUsize::new(0),
            capacity,
            full: AtomicBool::new(false),
        }
    }

    /// `n` fresh adjacent nodes, or `None` when the cap would be passed.
    pub(crate) fn alloc(&self, n: usize) -> Option<u32> {
        debug_assert!(n > 0 && n <= CHUNK);
        let mut cur = self.used.load(Relaxed);
        loop {
            // Children never straddle two chunks.
            let start = if (cur & (CHUNK - 1)) + n > CHUNK {
                (cur | (CHUNK - 1)) + 1
            } else {
                cur
            };
            let end = start + n;
            if end > self.capacity {
                self.full.store(true, Relaxed);
                return None;
            }
            match self.used.compare_exchange_weak(cur, end, Relaxed, Relaxed) {
                Ok(_) => {
                    let c = start >> CHUNK_BITS;
                    self.chunks[c].get_or_init(|| {
                        let len = CHUNK.min(self.capacity - c * CHUNK);
                        (0..len).map(|_| Node::default()).collect()
                    });
                    return Some(start as u32);
                }
                Err(now) => cur = now,
            }
        }
    }

    /// The node at `i`, which `alloc` handed out.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> &Node {
        let i = i as usize;
        &self.chunks[i >> CHUNK_BITS]
            .get()
            .expect("node index from alloc")[i & (CHUNK - 1)]
    }

    /// The `n` nodes from `first` that one `alloc` handed out (a node's
    /// children): one chunk holds them all, so one lookup serves them.
    #[inline]
    pub(crate) fn nodes(&self, first: u32, n: usize) -> &[Node] {
        let i = first as usize;
        let chunk = self.chunks[i >> CHUNK_BITS]
            .get()
            .expect("node index from alloc");
        let start = i & (CHUNK - 1);
        &chunk[start..start + n]
    }

    /// Nodes handed out (chunk tails skipped included).
    pub(crate) fn used(&self) -> usize {
        self.used.load(Relaxed).min(self.capacity)
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    pub(crate) fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Copies the subtree under `root` of `from` into this empty arena,
    /// breadth first, expanding nodes only while at most `budget` nodes are
    /// used. Returns the new root.
    pub(crate) fn copy_subtree(&self, from: &Arena, root: u32, budget: usize) -> Option<u32> {
        let new_root = self.alloc(1)?;
        self.get(new_root).copy_stats(from.get(root));
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((root, new_root));
        while let Some((src, dst)) = queue.pop_front() {
            let Some((first, n)) = from.get(src).children() else {
                continue;
            };
            if self.used() + n > budget {
                continue;
            }
            let Some(start) = self.alloc(n) else {
                continue;
            };
            for k in 0..n as u32 {
                self.get(start + k).copy_stats(from.get(first + k));
                queue.push_back((first + k, start + k));
            }
            let d = self.get(dst);
            d.first_child.store(start, Relaxed);
            d.n_children.store(n as u16, Relaxed);
            d.state.store(EXPANDED, Release);
        }
        self.full.store(false, Relaxed);
        Some(new_root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_respects_cap_and_chunks() {
        let a = Arena::new(CHUNK + 10);
        let x = a.alloc(CHUNK - 5).unwrap();
        assert_eq!(x, 0);
        // 10 do not fit in the 5 left of the first chunk: they start the next.
        let y = a.alloc(10).unwrap();
        assert_eq!(y as usize, CHUNK);
        assert!(a.alloc(1).is_none());
        assert!(a.is_full());
        a.get(y + 9).visits.store(3, Relaxed);
        assert_eq!(a.get(y + 9).visits(), 3);
    }
}

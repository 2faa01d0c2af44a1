//! Last good replies with forgetting (Drake's LGRF-2, as Baier and Drake
//! describe it): the playouts remember, per colour, the winner's answer to
//! the last two moves and to the last move, and forget an answer once it
//! is played in a lost playout. Shared by a search's threads without locks:
//! a lost or mixed-up entry costs nothing but a worse playout move.

use crate::board::{Color, Point, SLOTS};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// No reply stored (slot 0 is border, never a move).
const NONE: u16 = 0;

/// The reply tables of one search.
pub(crate) struct Replies {
    /// `[colour][previous move]`.
    one: Vec<AtomicU16>,
    /// `[colour][move before the previous][previous move]`.
    two: Vec<AtomicU16>,
}

impl Replies {
    pub(crate) fn new() -> Replies {
        let table = |n: usize| (0..n).map(|_| AtomicU16::new(NONE)).collect();
        Replies {
            one: table(2 * SLOTS),
            two: table(2 * SLOTS * SLOTS),
        }
    }

    #[inline]
    fn one_at(color: Color, prev: u16) -> usize {
        color.index() * SLOTS + prev as usize
    }

    #[inline]
    fn two_at(color: Color, prev2: u16, prev: u16) -> usize {
        (color.index() * SLOTS + prev2 as usize) * SLOTS + prev as usize
    }

    /// The stored reply of `color` to `prev2` then `prev` (a point index of
    /// 0 for a pass), else to `prev` alone.
    #[inline]
    pub(crate) fn get(&self, color: Color, prev2: u16, prev: u16) -> Option<Point> {
        let r = self.two[Self::two_at(color, prev2, prev)].load(Relaxed);
        let r = if r == NONE {
            self.one[Self::one_at(color, prev)].load(Relaxed)
        } else {
            r
        };
        (r != NONE).then(|| Point::from_index(r as usize))
    }

    /// Learns from one finished playout: `seq` holds its moves (point index,
    /// player) from the root on; `winner` won it.
    pub(crate) fn learn(&self, seq: &[(u16, Color)], winner: Color) {
        for k in 2..seq.len() {
            let (mv, color) = seq[k];
            let (prev, prev2) = (seq[k - 1].0, seq[k - 2].0);
            let one = &self.one[Self::one_at(color, prev)];
            let two = &self.two[Self::two_at(color, prev2, prev)];
            if color == winner {
                one.store(mv, Relaxed);
                two.store(mv, Relaxed);
            } else {
                // Forget only the replies this playout disproved.
                let _ = one.compare_exchange(mv, NONE, Relaxed, Relaxed);
                let _ = two.compare_exchange(mv, NONE, Relaxed, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_learned_and_forgotten() {
        let r = Replies::new();
        let p = |x, y| Point::new(x, y).index() as u16;
        let seq = [
            (p(2, 2), Color::Black),
            (p(6, 6), Color::White),
            (p(2, 6), Color::Black),
            (p(6, 2), Color::White),
        ];
        r.learn(&seq, Color::White);
        // White's answer to the two moves before it.
        assert_eq!(
            r.get(Color::White, p(6, 6), p(2, 6)),
            Some(Point::new(6, 2))
        );
        // The answer to C7 alone, whatever came before.
        assert_eq!(
            r.get(Color::White, p(4, 4), p(2, 6)),
            Some(Point::new(6, 2))
        );
        // Black lost: nothing learned for Black.
        assert_eq!(r.get(Color::Black, p(2, 2), p(6, 6)), None);
        // The same answer in a lost playout is forgotten.
        r.learn(&seq, Color::Black);
        assert_eq!(r.get(Color::White, p(6, 6), p(2, 6)), None);
        assert_eq!(
            r.get(Color::Black, p(2, 2), p(6, 6)),
            Some(Point::new(2, 6))
        );
    }
}

//! A set of points as bits over the padded layout.

use super::point::{Point, SLOTS, STRIDE};
use std::fmt;

const WORDS: usize = SLOTS.div_ceil(64);

/// A set of points, one bit per slot of the padded layout.
///
/// Shifting by 1 moves every point one column, by [`STRIDE`] one row; the
/// border slots keep shifted bits from wrapping onto the board once masked
/// with [`Bitboard::on_board`].
///
/// ```
/// use kosumi::board::{Bitboard, Point};
/// let mut b = Bitboard::EMPTY;
/// b.insert(Point::new(1, 1));
/// let around = b.neighbours() & Bitboard::on_board(3);
/// // . X .
/// // X . X
/// // . X .
/// assert_eq!(around.count(), 4);
/// assert!(around.contains(Point::new(1, 0)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard([u64; WORDS]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// Every point of a board of side `size`.
    pub fn on_board(size: usize) -> Bitboard {
        ON_BOARD[size]
    }

    /// The set holding `p` alone.
    pub fn single(p: Point) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.insert(p);
        b
    }

    /// Whether `p` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(&self, p: Point) -> bool {
        let i = p.index();
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Point) {
        let i = p.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes `p`.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        let i = p.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// Adds the point of slot `i` without a bounds check.
    ///
    /// Safety: `i < SLOTS`.
    #[inline(always)]
    pub(crate) unsafe fn insert_unchecked(&mut self, i: usize) {
        debug_assert!(i < SLOTS);
        *self.0.get_unchecked_mut(i / 64) |= 1 << (i % 64);
    }

    /// Removes the point of slot `i` without a bounds check.
    ///
    /// Safety: `i < SLOTS`.
    #[inline(always)]
    pub(crate) unsafe fn remove_unchecked(&mut self, i: usize) {
        debug_assert!(i < SLOTS);
        *self.0.get_unchecked_mut(i / 64) &= !(1 << (i % 64));
    }

    /// Number of points in the set.
    #[must_use]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The lowest point of the set, if any.
    #[must_use]
    pub fn first(&self) -> Option<Point> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| Point::from_index(i * 64 + w.trailing_zeros() as usize))
    }

    /// The points of the set in index order (row by row from the top-left).
    pub fn iter(&self) -> BitboardIter {
        BitboardIter {
            words: self.0,
            word: 0,
        }
    }

    fn shl(&self, n: usize) -> Bitboard {
        let mut out = [0u64; WORDS];
        let (w, b) = (n / 64, n % 64);
        for i in (w..WORDS).rev() {
            let mut v = self.0[i - w] << b;
            if b != 0 && i > w {
                v |= self.0[i - w - 1] >> (64 - b);
            }
            out[i] = v;
        }
        Bitboard(out)
    }

    fn shr(&self, n: usize) -> Bitboard {
        let mut out = [0u64; WORDS];
        let (w, b) = (n / 64, n % 64);
        for (i, o) in out.iter_mut().enumerate().take(WORDS - w) {
            let mut v = self.0[i + w] >> b;
            if b != 0 && i + w + 1 < WORDS {
                v |= self.0[i + w + 1] << (64 - b);
            }
            *o = v;
        }
        Bitboard(out)
    }

    /// Points orthogonally adjacent to some point of the set (border slots
    /// included: mask with [`Bitboard::on_board`]).
    #[must_use]
    pub fn neighbours(&self) -> Bitboard {
        self.shl(1) | self.shr(1) | self.shl(STRIDE) | self.shr(STRIDE)
    }

    /// The set grown by its neighbours.
    #[must_use]
    pub fn dilate(&self) -> Bitboard {
        *self | self.neighbours()
    }

    /// The connected parts of the set (orthogonal neighbours), one at a
    /// time, lowest point first.
    pub fn components(self) -> impl Iterator<Item = Bitboard> {
        let mut left = self;
        std::iter::from_fn(move || {
            let seed = left.first()?;
            let part = Bitboard::flood_fill([seed].into_iter().collect(), left);
            left &= !part;
            Some(part)
        })
    }

    /// All points of `within` connected to `seed` through points of `within`.
    #[must_use]
    pub fn flood_fill(seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut filled = seed & within;
        loop {
            let next = filled.dilate() & within;
            if next == filled {
                return filled;
            }
            filled = next;
        }
    }
}

/// Iterator over the points of a [`Bitboard`].
pub struct BitboardIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitboardIter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Point::from_index(
                    self.word * 64 + w.trailing_zeros() as usize,
                ));
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                let mut out = self;
                for i in 0..WORDS {
                    out.0[i] = self.0[i] $op rhs.0[i];
                }
                out
            }
        }
        impl std::ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                for i in 0..WORDS {
                    self.0[i] = self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        let mut out = self;
        for w in &mut out.0 {
            *w = !*w;
        }
        out
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

const fn on_board_mask(size: usize) -> Bitboard {
    let mut words = [0u64; WORDS];
    let mut y = 0;
    while y < size {
        let mut x = 0;
        while x < size {
            let i = (y + 1) * STRIDE + x + 1;
            words[i / 64] |= 1 << (i % 64);
            x += 1;
        }
        y += 1;
    }
    Bitboard(words)
}

const ON_BOARD: [Bitboard; 26] = {
    let mut t = [Bitboard::EMPTY; 26];
    let mut s = 0;
    while s < 26 {
        t[s] = on_board_mask(s);
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_inside_the_mask() {
        for size in 1..=25 {
            let board = Bitboard::on_board(size);
            assert_eq!(board.count(), size * size);
            let n = board.neighbours() & !board;
            // Only the ring of border slots around the board.
            assert_eq!(n.count(), 4 * size);
        }
    }

    #[test]
    fn flood_fill_follows_connection() {
        let within: Bitboard = [
            Point::new(0, 0),
            Point::new(1, 0),
            Point::new(1, 1),
            Point::new(3, 3),
        ]
        .into_iter()
        .collect();
        let seed: Bitboard = [Point::new(0, 0)].into_iter().collect();
        let filled = Bitboard::flood_fill(seed, within);
        assert_eq!(filled.count(), 3);
        assert!(!filled.contains(Point::new(3, 3)));
        assert_eq!(filled.iter().collect::<Vec<_>>()[0], Point::new(0, 0));
        assert_eq!(filled.first(), Some(Point::new(0, 0)));
        let parts: Vec<Bitboard> = within.components().collect();
        assert_eq!(parts, [filled, [Point::new(3, 3)].into_iter().collect()]);
        assert_eq!(Bitboard::EMPTY.components().count(), 0);
    }
}

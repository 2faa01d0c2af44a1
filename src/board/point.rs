//! Colours, points and moves: the vocabulary every layer shares.

use std::fmt;

/// The largest board side the rules core supports (the GTP maximum).
pub const MAX_SIZE: usize = 25;
/// Distance between vertically adjacent points in the padded layout.
///
/// The layout is fixed for every board size (one border row and column on
/// each side of a 25x25 board), so a [`Point`] means the same intersection
/// whatever the size and neighbour offsets are constants.
pub const STRIDE: usize = MAX_SIZE + 2;
/// Number of slots in the padded layout, borders included.
pub const SLOTS: usize = STRIDE * STRIDE;

/// A player colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, who moves first.
    Black = 0,
    /// White.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The colour's name as a sentence starts it: `Black` or `White`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// One upper-case letter: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// An intersection, stored as its index in the padded layout.
///
/// `x` counts columns from the left and `y` rows from the top, both from 0,
/// so `Point::new(0, 0)` is the top-left corner (SGF `aa`) on every size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The point at column `x` and row `y` (both from 0, row 0 at the top).
    ///
    /// # Panics
    /// If `x` or `y` is not below [`MAX_SIZE`].
    #[inline]
    pub const fn new(x: usize, y: usize) -> Point {
        assert!(x < MAX_SIZE && y < MAX_SIZE);
        Point(((y + 1) * STRIDE + x + 1) as u16)
    }

    /// The point at `(x, y)` if both lie on a board of side `size`.
    pub fn checked(x: usize, y: usize, size: usize) -> Option<Point> {
        (x < size && y < size && size <= MAX_SIZE).then(|| Point::new(x, y))
    }

    /// Column from the left, from 0.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - 1
    }

    /// Row from the top, from 0.
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - 1
    }

    /// Distance to the nearest edge of a `size` board: 0 on the first line.
    #[inline]
    pub const fn line(self, size: usize) -> usize {
        let (x, y) = (self.x(), self.y());
        let near = if x < y { x } else { y };
        let far = if x > y { x } else { y };
        let to_far = size - 1 - far;
        if near < to_far {
            near
        } else {
            to_far
        }
    }

    /// Index in the padded layout, for tables of [`SLOTS`] entries.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point whose padded index is `index`; the caller keeps it on the board.
    #[inline]
    pub const fn from_index(index: usize) -> Point {
        Point(index as u16)
    }

    /// Whether the point lies on a board of side `size`.
    #[inline]
    pub fn is_on(self, size: usize) -> bool {
        let i = self.0 as usize;
        let (row, col) = (i / STRIDE, i % STRIDE);
        (1..=size).contains(&row) && (1..=size).contains(&col)
    }

    /// The four orthogonal neighbours in the padded layout (some may be border slots).
    #[inline]
    pub const fn neighbours(self) -> [Point; 4] {
        let i = self.0;
        [
            Point(i - STRIDE as u16),
            Point(i - 1),
            Point(i + 1),
            Point(i + STRIDE as u16),
        ]
    }

    /// The neighbours whose bits are set in `mask`, bit `d` standing for
    /// `self.neighbours()[d]` (as [`Board::empty_neighbour_bits`] gives
    /// them), in that order.
    ///
    /// [`Board::empty_neighbour_bits`]: super::Board::empty_neighbour_bits
    #[inline]
    pub fn neighbours_in(self, mask: u32) -> NeighboursIn {
        NeighboursIn {
            centre: self.0,
            mask: mask & 0xf,
        }
    }

    /// The four diagonal neighbours in the padded layout.
    #[inline]
    pub const fn diagonals(self) -> [Point; 4] {
        let i = self.0;
        let s = STRIDE as u16;
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({}, {})", self.x(), self.y())
    }
}

/// The neighbours of a point picked by a mask: see [`Point::neighbours_in`].
#[derive(Clone, Debug)]
pub struct NeighboursIn {
    centre: u16,
    mask: u32,
}

impl Iterator for NeighboursIn {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.mask == 0 {
            return None;
        }
        let d = self.mask.trailing_zeros();
        self.mask &= self.mask - 1;
        // North, west, east, south, as `Point::neighbours`.
        const OFFSETS: [i16; 4] = [-(STRIDE as i16), -1, 1, STRIDE as i16];
        Some(Point(
            self.centre.wrapping_add_signed(OFFSETS[d as usize & 3]),
        ))
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a stone.
    Play(Point),
    /// Pass.
    Pass,
}

impl Move {
    /// The point of a stone move.
    pub const fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_in_follow_the_mask() {
        let p = Point::new(3, 4);
        let all = p.neighbours();
        for mask in 0..16u32 {
            let expected: Vec<Point> = (0..4)
                .filter(|d| mask >> d & 1 != 0)
                .map(|d| all[d])
                .collect();
            assert_eq!(p.neighbours_in(mask).collect::<Vec<_>>(), expected);
        }
    }

    #[test]
    fn line_is_the_distance_to_the_nearest_edge() {
        for (x, y, size, line) in [
            (0, 5, 9, 0),
            (8, 4, 9, 0),
            (4, 4, 9, 4),
            (2, 16, 19, 2),
            (9, 3, 19, 3),
            (18, 18, 19, 0),
        ] {
            assert_eq!(Point::new(x, y).line(size), line, "({x}, {y}) on {size}");
        }
    }

    #[test]
    fn point_round_trip() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Point::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(p.is_on(25));
                assert_eq!(p.is_on(19), x < 19 && y < 19);
            }
        }
    }
}

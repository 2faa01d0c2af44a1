//! The board: stones, chains, liberties, captures, legality.
//!
//! Points live in a padded array so neighbours are constant offsets. Each
//! chain keeps libego's pseudo-liberty triple (count, sum and sum of squares
//! of liberty indices, one entry per stone-liberty adjacency): a chain is in
//! atari exactly when all its pseudo-liberties are the same point, which the
//! triple answers in O(1). Packed neighbour counts answer eye and suicide
//! questions in O(1), a list of empty points gives O(1) random picks, and
//! per-colour bitboards serve flood fills and counting.

use super::bitboard::Bitboard;
use super::point::{Color, Point, MAX_SIZE, SLOTS, STRIDE};
use super::rng::PlayoutRng;
use super::zobrist;
use std::fmt;

mod undo;
pub use undo::UndoLog;

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayError {
    /// The point is not on the board.
    OffBoard,
    /// The point already holds a stone.
    Occupied,
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// The move retakes a ko at once.
    Ko,
    /// The move recreates an earlier whole-board position (positional superko).
    Superko,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "point is off the board",
            PlayError::Occupied => "point is occupied",
            PlayError::Suicide => "suicide",
            PlayError::Ko => "ko retaken at once",
            PlayError::Superko => "recreates an earlier position (superko)",
        })
    }
}

impl std::error::Error for PlayError {}

/// An internal invariant found broken by [`Board::check_invariants`], and
/// where: a bug in the board, never in its user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantError {
    /// The incremental hash differs from a recomputation.
    Hash,
    /// The packed neighbour counts of a point.
    NeighbourCounts(Point),
    /// An empty point heads a chain.
    EmptyHeadsChain(Point),
    /// The list of empty points misses one.
    EmptyList(Point),
    /// A chain has no liberty.
    NoLiberty(Point),
    /// A chain's atari state.
    Atari(Point),
    /// A chain's size.
    ChainSize(Point),
    /// A chain's stones differ from its flood fill.
    ChainMembership(Point),
    /// A stone names another chain head than its chain's.
    ChainHead(Point),
    /// A chain's pseudo-liberty triple.
    PseudoLiberties(Point),
    /// The number of empty points.
    EmptyCount,
}

impl fmt::Display for InvariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InvariantError::*;
        match self {
            Hash => write!(f, "incremental hash differs from recomputation"),
            NeighbourCounts(p) => write!(f, "neighbour counts wrong at {p:?}"),
            EmptyHeadsChain(p) => write!(f, "empty point {p:?} heads a chain"),
            EmptyList(p) => write!(f, "empty list misses {p:?}"),
            NoLiberty(p) => write!(f, "chain at {p:?} has no liberty"),
            Atari(p) => write!(f, "atari state wrong for chain at {p:?}"),
            ChainSize(p) => write!(f, "chain size wrong at {p:?}"),
            ChainMembership(p) => write!(f, "chain membership wrong at {p:?}"),
            ChainHead(p) => write!(f, "chain head wrong at {p:?}"),
            PseudoLiberties(p) => write!(f, "pseudo-liberty count wrong at {p:?}"),
            EmptyCount => write!(f, "empty count wrong"),
        }
    }
}

impl std::error::Error for InvariantError {}

const EMPTY: u8 = 2;
const BORDER: u8 = 3;
// What surrounds a point (`Board::nb`), as three 4-bit masks: bits
// `4 c + d` say that the neighbour `around(p)[d]` (north, west, east,
// south) holds cell `c` (black, white, empty); a border neighbour sets none.

/// The mask bit for neighbour `d` holding cell `c` (0..=2).
#[inline(always)]
const fn nb_bit(c: u8, d: usize) -> u16 {
    1 << (4 * c as u32 + d as u32)
}

/// The 4-bit mask of neighbours holding cell `c` (0..=2).
#[inline(always)]
const fn nb_mask(nb: u16, c: u8) -> u32 {
    (nb >> (4 * c as u32)) as u32 & 0xf
}

/// The neighbour summary of a point from its four neighbour cells (in
/// `around` order).
fn nb_of(cells: [u8; 4]) -> u16 {
    let mut nb = 0;
    for (d, c) in cells.into_iter().enumerate() {
        if c != BORDER {
            nb |= nb_bit(c, d);
        }
    }
    nb
}

/// Change to the summary of neighbour `around(i)[d]` when point `i` goes
/// from empty to `stone`: `i` is that neighbour's neighbour `3 - d`.
#[inline(always)]
const fn nb_fill_delta(stone: u8, d: usize) -> u16 {
    nb_bit(stone, 3 - d).wrapping_sub(nb_bit(EMPTY, 3 - d))
}

/// Liberties a lone stone gets from the empty neighbours in a mask (bit d:
/// `around(i)[d]` empty): count, sum of offsets, sum of squared offsets.
const LONE_LIBS: [(u32, i32, u32); 16] = {
    let off = [-(STRIDE as i32), -1, 1, STRIDE as i32];
    let mut t = [(0, 0, 0); 16];
    let mut m = 0;
    while m < 16 {
        let mut d = 0;
        while d < 4 {
            if m >> d & 1 != 0 {
                t[m].0 += 1;
                t[m].1 += off[d];
                t[m].2 += (off[d] * off[d]) as u32;
            }
            d += 1;
        }
        m += 1;
    }
    t
};

/// The `head` of every empty point and border slot: slot 0, a border corner
/// that heads no chain. Its `chains` entry is scratch space, so liberty
/// updates may touch all four neighbours of a point without testing what
/// they hold; nothing reads it.
const NO_CHAIN: usize = 0;

// A chain's pseudo-liberty triple packed in one word, so that adding or
// removing a liberty, or merging two chains, is one addition: bits 0..32
// hold the sum of squared liberty indices, 32..52 the sum, 52..64 the
// count. A chain has at most 2 n + 2 pseudo-liberties for n stones (1,252
// on 25x25) on points below 729, so no field overflows into the next.
const SQ_BITS: u32 = 32;
const SUM_BITS: u32 = 20;
const COUNT_SHIFT: u32 = SQ_BITS + SUM_BITS;

/// One pseudo-liberty at index `p`, as a packed triple.
#[inline(always)]
const fn lib_unit(p: usize) -> u64 {
    (1 << COUNT_SHIFT) | ((p as u64) << SQ_BITS) | (p * p) as u64
}

/// Pseudo-liberty bookkeeping of one chain, stored at its head point.
#[derive(Clone, Copy, Default)]
struct ChainInfo {
    /// The packed pseudo-liberty triple (see `lib_unit`).
    libs: u64,
}

impl ChainInfo {
    // Wrapping: the scratch entry (`NO_CHAIN`) drifts freely; real
    // chains never leave their true (small, non-negative) values.
    #[inline(always)]
    fn add_lib(&mut self, p: usize) {
        self.libs = self.libs.wrapping_add(lib_unit(p));
    }

    #[inline(always)]
    fn remove_lib(&mut self, p: usize) {
        self.libs = self.libs.wrapping_sub(lib_unit(p));
    }

    /// Number of pseudo-liberties.
    #[inline(always)]
    fn pseudo_count(&self) -> u64 {
        self.libs >> COUNT_SHIFT
    }

    #[inline(always)]
    fn lib_sum(&self) -> u64 {
        (self.libs >> SQ_BITS) & ((1 << SUM_BITS) - 1)
    }

    /// Whether all pseudo-liberties are one point (or there are none).
    #[inline(always)]
    fn one_liberty_point(&self) -> bool {
        let sum = self.lib_sum();
        self.pseudo_count() * (self.libs & ((1 << SQ_BITS) - 1)) == sum * sum
    }

    /// Whether every pseudo-liberty is the point whose `lib_unit` is
    /// `unit`. For a chain next to that empty point: whether it is the
    /// chain's last liberty, with one multiplication.
    #[inline(always)]
    fn only_liberty_is(&self, unit: u64) -> bool {
        self.libs == self.pseudo_count().wrapping_mul(unit)
    }

    #[inline]
    fn in_atari(&self) -> bool {
        // All pseudo-liberties of a chain in atari are its one liberty, met
        // from at most 4 sides: a quick filter before the multiplications.
        self.pseudo_count().wrapping_sub(1) < 4 && self.one_liberty_point()
    }

    /// Whether the chain surely has three liberties or more: each liberty
    /// is counted from at most four sides, so two make 8 pseudo-liberties
    /// at most.
    #[inline]
    fn surely_three_liberties(&self) -> bool {
        self.pseudo_count() > 8
    }

    #[inline]
    fn atari_point(&self) -> Point {
        Point::from_index((self.lib_sum() / self.pseudo_count()) as usize)
    }
}

/// A Go board of side 1 to 25: stones, chains, prisoners and the ko point.
///
/// It knows simple ko and suicide; superko, passes and history belong to
/// [`Game`](super::Game).
///
/// ```
/// use kosumi::board::{Board, Color, Point};
/// let mut board = Board::new(5);
/// // Black surrounds the white stone at B3, taking it on the last move.
/// for (x, y) in [(1, 1), (2, 2), (1, 3)] {
///     board.play(Point::new(x, y), Color::Black).unwrap();
/// }
/// board.play(Point::new(1, 2), Color::White).unwrap();
/// board.play(Point::new(0, 2), Color::Black).unwrap();
/// assert_eq!(board.captures(Color::Black), 1);
/// let diagram = [
///     "   A B C D E",
///     " 5 . . . . . 5",
///     " 4 . X . . . 4",
///     " 3 X . X . . 3",
///     " 2 . X . . . 2",
///     " 1 . . . . . 1",
///     "   A B C D E",
/// ];
/// assert_eq!(board.to_string(), diagram.join("\n") + "\n");
/// ```
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [u8; SLOTS],
    nb: [u16; SLOTS],
    head: [u16; SLOTS],
    next: [u16; SLOTS],
    chains: [ChainInfo; SLOTS],
    /// Stones of the chain headed at each point (kept apart from `chains`
    /// so the pseudo-liberty words the hot paths read stay dense).
    sizes: [u16; SLOTS],
    empties: [u16; SLOTS],
    empty_pos: [u16; SLOTS],
    empty_count: usize,
    stones: [Bitboard; 2],
    hash: u64,
    ko: u16,
    /// The colour that may not play on `ko` (the opponent of the capturer).
    ko_color: u8,
    captures: [u32; 2],
    last_move: u16,
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// If `size` is not in `1..=25`; use [`Board::try_new`] for input.
    pub fn new(size: usize) -> Board {
        Board::try_new(size).expect("board size must be 1 to 25")
    }

    /// An empty board of side `size`, or `None` if `size` is not in `1..=25`.
    pub fn try_new(size: usize) -> Option<Board> {
        if !(1..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut b = Board {
            size,
            cells: [BORDER; SLOTS],
            nb: [0; SLOTS],
            head: [0; SLOTS],
            next: [0; SLOTS],
            chains: [ChainInfo::default(); SLOTS],
            sizes: [0; SLOTS],
            empties: [0; SLOTS],
            empty_pos: [0; SLOTS],
            empty_count: 0,
            stones: [Bitboard::EMPTY; 2],
            hash: 0,
            ko: 0,
            ko_color: 0,
            captures: [0; 2],
            last_move: 0,
        };
        for y in 0..size {
            for x in 0..size {
                let p = Point::new(x, y).index();
                b.cells[p] = EMPTY;
                b.empty_pos[p] = b.empty_count as u16;
                b.empties[b.empty_count] = p as u16;
                b.empty_count += 1;
            }
        }
        for y in 0..size {
            for x in 0..size {
                let i = Point::new(x, y).index();
                b.nb[i] = nb_of(Self::around(i).map(|n| b.cells[n]));
            }
        }
        Some(b)
    }

    /// Makes `self` a copy of `other`, copying only the slots a board of
    /// `other`'s size uses (much cheaper than `clone` on small boards).
    ///
    /// ```
    /// use kosumi::board::{Board, Color, Point};
    /// let mut a = Board::new(9);
    /// a.play(Point::new(2, 2), Color::Black).unwrap();
    /// let mut b = Board::new(19);
    /// b.copy_from(&a);
    /// assert_eq!(a, b);
    /// assert_eq!(b.to_string(), a.to_string());
    /// ```
    pub fn copy_from(&mut self, other: &Board) {
        // Every slot a board of side `size` touches lies below the bottom
        // border row's end; the slots beyond must be border cells.
        let used = (other.size + 2) * STRIDE;
        if self.size > other.size {
            let old = (self.size + 2) * STRIDE;
            self.cells[used..old].fill(BORDER);
        }
        self.size = other.size;
        self.cells[..used].copy_from_slice(&other.cells[..used]);
        self.nb[..used].copy_from_slice(&other.nb[..used]);
        self.head[..used].copy_from_slice(&other.head[..used]);
        self.next[..used].copy_from_slice(&other.next[..used]);
        self.chains[..used].copy_from_slice(&other.chains[..used]);
        self.sizes[..used].copy_from_slice(&other.sizes[..used]);
        self.empty_pos[..used].copy_from_slice(&other.empty_pos[..used]);
        let n = other.empty_count;
        self.empties[..n].copy_from_slice(&other.empties[..n]);
        self.empty_count = n;
        self.stones = other.stones;
        self.hash = other.hash;
        self.ko = other.ko;
        self.ko_color = other.ko_color;
        self.captures = other.captures;
        self.last_move = other.last_move;
    }

    /// Side of the board.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The stone on `p`, or `None` if it is empty (or off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.cells[p.index()] {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty point of the board.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()] == EMPTY
    }

    /// The 3x3 neighbourhood code of the point `p` (see
    /// `search::shape::pattern3_code`): 2 bits per neighbour, NW first, SE
    /// last, 0 empty, 1 black, 2 white, 3 edge.
    #[inline]
    pub fn pattern3_code(&self, p: Point) -> usize {
        let i = p.index();
        // The block from NW to SE: one bounds check for the eight reads.
        let block = &self.cells[i - STRIDE - 1..=i + STRIDE + 1];
        let ring = [
            block[0],
            block[1],
            block[2],
            block[STRIDE],
            block[STRIDE + 2],
            block[2 * STRIDE],
            block[2 * STRIDE + 1],
            block[2 * STRIDE + 2],
        ];
        let cells = ring
            .iter()
            .enumerate()
            .fold(0u32, |acc, (k, &c)| acc | (c as u32) << (2 * k));
        // All eight at once, cells (black 00, white 01, empty 10, border 11)
        // to codes (01, 10, 00, 11): the code's high bit is the cell's low
        // bit, its low bit says whether the cell's two bits are equal.
        let low = cells & 0x5555;
        let high = (cells >> 1) & 0x5555;
        (low << 1 | !(low ^ high) & 0x5555) as usize
    }

    /// Whether `p` lies on this board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.index() < SLOTS && p.is_on(self.size)
    }

    /// The points of the board, row by row from the top-left.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size).flat_map(move |y| (0..size).map(move |x| Point::new(x, y)))
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.empty_count]
    }

    /// Number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty_count
    }

    /// Stones of `color` as a bitboard.
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// Prisoners taken by `color` on this board (captures during play).
    #[inline]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Adds prisoners taken by `color` outside board play (Swedish pass stones).
    pub fn add_captures(&mut self, color: Color, n: u32) {
        self.captures[color.index()] += n;
    }

    /// The point where a simple-ko recapture is forbidden for the next move
    /// of [`Board::ko_color`].
    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then(|| Point::from_index(self.ko as usize))
    }

    /// The colour the ko point is forbidden to (the capturer may fill it).
    #[inline]
    pub fn ko_color(&self) -> Color {
        if self.ko_color == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Clears the ko point (after a pass the ko may be retaken).
    #[inline]
    pub fn clear_ko(&mut self) {
        self.ko = 0;
    }

    /// The last stone played on this board, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Point> {
        (self.last_move != 0).then(|| Point::from_index(self.last_move as usize))
    }

    /// Zobrist hash of the stones alone (for positional superko).
    #[inline]
    pub fn position_hash(&self) -> u64 {
        self.hash
    }

    /// [`Board::full_hash`] of the position after `color` plays `p`, with
    /// the opponent to move, found without playing: only for a legal move
    /// that captures nothing (the move clears the ko point).
    #[inline]
    pub fn full_hash_after_quiet_move(&self, p: Point, color: Color) -> u64 {
        let stones = self.hash ^ zobrist::STONE[color.index()][p.index()];
        self.hash_with(stones, 0, color.opponent())
    }

    /// Zobrist hash of stones, ko point and side to move (for transpositions).
    #[inline]
    pub fn full_hash(&self, to_move: Color) -> u64 {
        self.hash_with(self.hash, self.ko, to_move)
    }

    /// `stones` (a stone hash) with the ko point `ko` and the side to move
    /// folded in, as [`Board::full_hash`] does.
    #[inline]
    fn hash_with(&self, stones: u64, ko: u16, to_move: Color) -> u64 {
        let mut h = stones;
        if self.ko_color == to_move as u8 {
            h ^= zobrist::KO[ko as usize];
        }
        if to_move == Color::White {
            h ^= zobrist::WHITE_TO_MOVE;
        }
        h
    }

    /// The stone hash recomputed from scratch (to check the incremental one).
    pub fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            for p in self.stones[c.index()].iter() {
                h ^= zobrist::STONE[c.index()][p.index()];
            }
        }
        h
    }

    #[inline]
    fn neighbour_mask(&self, p: usize, cell: u8) -> u32 {
        nb_mask(self.nb[p], cell)
    }

    #[inline]
    fn empty_neighbours(&self, p: usize) -> u32 {
        nb_mask(self.nb[p], EMPTY).count_ones()
    }

    #[inline]
    fn chain_info(&self, p: usize) -> &ChainInfo {
        &self.chains[self.head[p] as usize]
    }

    // Unchecked slot access for the hot paths. Safety, for all of them:
    // `i < SLOTS`. Every point of the board, each of its neighbours and
    // diagonals (border slots) and every chain head satisfies it, so the
    // public entry points check once that a point is on the board (a
    // non-border cell) and the code below trusts indices derived from it.

    #[inline(always)]
    unsafe fn cell_at(&self, i: usize) -> u8 {
        debug_assert!(i < SLOTS);
        *self.cells.get_unchecked(i)
    }

    #[inline(always)]
    unsafe fn nb_at(&self, i: usize) -> u16 {
        debug_assert!(i < SLOTS);
        *self.nb.get_unchecked(i)
    }

    #[inline(always)]
    unsafe fn head_at(&self, i: usize) -> usize {
        debug_assert!(i < SLOTS);
        *self.head.get_unchecked(i) as usize
    }

    #[inline(always)]
    unsafe fn next_at(&self, i: usize) -> usize {
        debug_assert!(i < SLOTS);
        *self.next.get_unchecked(i) as usize
    }

    #[inline(always)]
    unsafe fn chain_at(&self, h: usize) -> &ChainInfo {
        debug_assert!(h < SLOTS);
        self.chains.get_unchecked(h)
    }

    #[inline(always)]
    unsafe fn chain_mut(&mut self, h: usize) -> &mut ChainInfo {
        debug_assert!(h < SLOTS);
        self.chains.get_unchecked_mut(h)
    }

    /// The four neighbour slots of a point.
    #[inline(always)]
    const fn around(i: usize) -> [usize; 4] {
        [i - STRIDE, i - 1, i + 1, i + STRIDE]
    }

    /// Changes a point outside play; keeps hash, bitboards, neighbour counts
    /// and the empty list in step (through the two primitives below).
    fn set_cell(&mut self, p: usize, to: u8) {
        let from = self.cells[p];
        assert!(from != BORDER && to != BORDER && from != to);
        // SAFETY: `p` holds no border cell, so it is a point of the board.
        unsafe {
            if from != EMPTY {
                self.remove_stone(p, from);
            }
            if to != EMPTY {
                self.place_stone(p, to);
            }
        }
    }

    /// Puts a `stone` (0 or 1) on the empty point `i`.
    ///
    /// Safety: `i` is an empty point of the board.
    #[inline(always)]
    unsafe fn place_stone(&mut self, i: usize, stone: u8) {
        debug_assert!(self.cells[i] == EMPTY && stone < 2);
        let pos = *self.empty_pos.get_unchecked(i) as usize;
        self.empty_count -= 1;
        let last = *self.empties.get_unchecked(self.empty_count);
        *self.empties.get_unchecked_mut(pos) = last;
        *self.empty_pos.get_unchecked_mut(last as usize) = pos as u16;
        let s = stone as usize;
        self.hash ^= *zobrist::STONE.get_unchecked(s).get_unchecked(i);
        self.stones.get_unchecked_mut(s).insert_unchecked(i);
        *self.cells.get_unchecked_mut(i) = stone;
        for (d, n) in Self::around(i).into_iter().enumerate() {
            // Border slots wrap harmlessly: their counts are never read.
            let c = self.nb.get_unchecked_mut(n);
            *c = c.wrapping_add(nb_fill_delta(stone, d));
        }
    }

    /// Takes the `stone` (0 or 1) off point `i`.
    ///
    /// Safety: `i` is a point of the board holding `stone`.
    #[inline(always)]
    unsafe fn remove_stone(&mut self, i: usize, stone: u8) {
        debug_assert!(self.cells[i] == stone && stone < 2);
        *self.empty_pos.get_unchecked_mut(i) = self.empty_count as u16;
        *self.empties.get_unchecked_mut(self.empty_count) = i as u16;
        self.empty_count += 1;
        let s = stone as usize;
        self.hash ^= *zobrist::STONE.get_unchecked(s).get_unchecked(i);
        self.stones.get_unchecked_mut(s).remove_unchecked(i);
        *self.cells.get_unchecked_mut(i) = EMPTY;
        *self.head.get_unchecked_mut(i) = NO_CHAIN as u16;
        for (d, n) in Self::around(i).into_iter().enumerate() {
            let c = self.nb.get_unchecked_mut(n);
            *c = c.wrapping_sub(nb_fill_delta(stone, d));
        }
    }

    /// Whether `color` may play on `p` under simple ko with suicide forbidden.
    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check(p, color, false).is_ok()
    }

    /// Legality of a move on a point expected to be empty (the playout fast
    /// path: no ko-rule or suicide-rule options); `false` if it is not an
    /// empty point of the board.
    #[inline]
    pub fn is_legal_empty(&self, p: Point, color: Color) -> bool {
        let i = p.index();
        if self.cells.get(i) != Some(&EMPTY) {
            return false;
        }
        // SAFETY: `i` is an empty point of the board.
        !self.is_ko_for(i, color)
            && (self.empty_neighbours(i) > 0 || unsafe { !self.is_suicide(i, color) })
    }

    /// Why `color` may not play on `p`, if it may not.
    ///
    /// With `allow_suicide`, a move that leaves its own chain without
    /// liberties is accepted (the chain is then removed).
    pub fn check(&self, p: Point, color: Color, allow_suicide: bool) -> Result<(), PlayError> {
        if !self.contains(p) {
            return Err(PlayError::OffBoard);
        }
        let i = p.index();
        if self.cells[i] != EMPTY {
            return Err(PlayError::Occupied);
        }
        if self.is_ko_for(i, color) {
            return Err(PlayError::Ko);
        }
        // SAFETY: `i` is an empty point of the board.
        if allow_suicide || self.empty_neighbours(i) > 0 || unsafe { !self.is_suicide(i, color) } {
            Ok(())
        } else {
            Err(PlayError::Suicide)
        }
    }

    /// Whether `color` is barred from `p` by simple ko.
    #[inline]
    fn is_ko_for(&self, p: usize, color: Color) -> bool {
        self.ko as usize == p && self.ko_color == color as u8
    }

    /// Suicide test for an empty point with no empty neighbour.
    ///
    /// Safety: `i` is a point of the board.
    #[inline]
    unsafe fn is_suicide(&self, i: usize, color: Color) -> bool {
        match color {
            Color::Black => self.is_suicide_as::<0>(i),
            Color::White => self.is_suicide_as::<1>(i),
        }
    }

    /// Whether the diagonals of point `i` make an eye of `me` there a true
    /// one: the opponent holds at most one diagonal point in the middle of
    /// the board, none on the edge or in the corner.
    ///
    /// Safety: `i` is a point of the board.
    #[inline]
    unsafe fn true_eye_diagonals(&self, i: usize, me: u8) -> bool {
        // Weights: opponent stone 4, border slot 1, otherwise 0. In the
        // middle (no border) the sum is 4 per enemy; on the edge (2 border
        // diagonals), in the corner (3) or on a 1x1 board (4) any enemy
        // lifts it to 5 or more.
        // Indexed by colour, then cell (0..=3: black, white, empty, border).
        const WEIGHT: [[u8; 4]; 2] = [[0, 4, 0, 1], [4, 0, 0, 1]];
        let weights = WEIGHT.get_unchecked(me as usize);
        let mut sum = 0;
        for d in [
            i - STRIDE - 1,
            i - STRIDE + 1,
            i + STRIDE - 1,
            i + STRIDE + 1,
        ] {
            sum += *weights.get_unchecked(self.cell_at(d) as usize);
        }
        sum < 5
    }

    /// Whether `color` may play on `p` in a light playout: an empty point
    /// of the board, legal, and not one of its own true eyes.
    ///
    /// ```
    /// use kosumi::board::{Board, Color, Point};
    /// let mut board = Board::new(3);
    /// for p in [Point::new(1, 0), Point::new(0, 1)] {
    ///     board.play(p, Color::Black).unwrap();
    /// }
    /// assert!(!board.is_playout_move(Point::new(0, 0), Color::Black)); // own eye
    /// assert!(!board.is_playout_move(Point::new(0, 0), Color::White)); // suicide
    /// assert!(board.is_playout_move(Point::new(1, 1), Color::White));
    /// assert!(!board.is_playout_move(Point::new(1, 0), Color::White)); // occupied
    /// ```
    #[inline]
    pub fn is_playout_move(&self, p: Point, color: Color) -> bool {
        let i = p.index();
        // SAFETY: checked to be an empty point of the board.
        self.cells.get(i) == Some(&EMPTY) && unsafe { self.playout_move_ok(i, color) }
    }

    /// [`Board::is_playout_move`] for a point known to be empty.
    ///
    /// Safety: `i` is an empty point of the board.
    #[inline(always)]
    unsafe fn playout_move_ok(&self, i: usize, color: Color) -> bool {
        match color {
            Color::Black => self.playout_ok::<0>(i),
            Color::White => self.playout_ok::<1>(i),
        }
    }

    /// [`Board::is_playout_move`] for colour `ME` on a point known to be empty.
    ///
    /// Safety: `i` is an empty point of the board.
    #[inline(always)]
    unsafe fn playout_ok<const ME: u8>(&self, i: usize) -> bool {
        let nb = self.nb_at(i);
        if nb_mask(nb, EMPTY) != 0 {
            // An empty neighbour: legal, and not an eye. Never the ko point,
            // whose neighbours are all the capturer's stones or border.
            return true;
        }
        let enemies = nb_mask(nb, ME ^ 1);
        if enemies == 0 {
            // Eye-like for `ME` (so not the ko point, whose neighbours are
            // the opponent's): a true eye is refused, a false one is
            // legal unless it fills the last liberty of everything around.
            return !self.true_eye_diagonals(i, ME) && !self.is_suicide_as::<ME>(i);
        }
        // The opponent's eye or a mixed point, without a branch per side:
        // legal if a friendly chain keeps another liberty or an enemy
        // chain is taken, and it is not the ko point.
        let friends = nb_mask(nb, ME);
        let atari = self.atari_sides(i);
        let breathes = (friends & !atari) | (enemies & atari) != 0;
        let ko = (self.ko as usize == i) & (self.ko_color == ME);
        breathes & !ko
    }

    /// Bit `d` set when the chain on neighbour `around(i)[d]` is in atari;
    /// bits of sides without a stone are meaningless (the scratch entry).
    ///
    /// Safety: `i` is a point of the board.
    #[inline(always)]
    unsafe fn atari_sides(&self, i: usize) -> u32 {
        // Each chain around has `i` as a liberty, so it is in atari when
        // all its pseudo-liberties are `i`.
        let unit = lib_unit(i);
        let mut sides = 0;
        for (d, n) in Self::around(i).into_iter().enumerate() {
            let one = self.chain_at(self.head_at(n)).only_liberty_is(unit);
            sides |= (one as u32) << d;
        }
        sides
    }

    /// Whether one of the chains on the neighbours of `i` in `mask` is in
    /// atari (`ATARI`) or is not (`!ATARI`).
    ///
    /// Safety: `i` is a point of the board, `mask` marks neighbours holding stones.
    #[inline(always)]
    unsafe fn any_chain_around<const ATARI: bool>(&self, i: usize, mask: u32) -> bool {
        let [north, west, east, south] = Self::around(i);
        // The chains around have `i` as a liberty (see `atari_sides`).
        let unit = lib_unit(i);
        let atari = |n: usize| self.chain_at(self.head_at(n)).only_liberty_is(unit) == ATARI;
        (mask & 1 != 0 && atari(north))
            || (mask & 2 != 0 && atari(west))
            || (mask & 4 != 0 && atari(east))
            || (mask & 8 != 0 && atari(south))
    }

    /// Whether one of the chains on the neighbours of `i` in `mask` has its
    /// last liberty there.
    ///
    /// Safety: `i` is a point of the board, `mask` marks neighbours holding stones.
    #[inline(always)]
    unsafe fn captures_around(&self, i: usize, mask: u32) -> bool {
        self.any_chain_around::<true>(i, mask)
    }

    /// Suicide test for colour `ME` on an empty point with no empty neighbour:
    /// every friendly chain around is in atari and no enemy chain is.
    ///
    /// Safety: `i` is a point of the board.
    #[inline(always)]
    unsafe fn is_suicide_as<const ME: u8>(&self, i: usize) -> bool {
        let nb = self.nb_at(i);
        !self.any_chain_around::<false>(i, nb_mask(nb, ME))
            && !self.captures_around(i, nb_mask(nb, ME ^ 1))
    }

    /// The first light-playout move for `color` (see
    /// [`Board::is_playout_move`]) among the empty points, scanning the empty
    /// list from position `start` and wrapping round; a `start` past the end
    /// scans from the beginning. `None` when there is none.
    #[inline]
    pub fn playout_move_from(&self, start: usize, color: Color) -> Option<Point> {
        let start = if start < self.empty_count { start } else { 0 };
        // SAFETY: `start` is 0 or below `empty_count`.
        unsafe {
            match color {
                Color::Black => self.playout_pick::<0>(start),
                Color::White => self.playout_pick::<1>(start),
            }
        }
        .map(Point::from_index)
    }

    /// The position in the empty list, from `from` up to `to` (excluded),
    /// of the first light-playout move for `color` (see
    /// [`Board::is_playout_move`]); `None` when there is none.
    #[inline]
    pub fn playout_move_between(&self, from: usize, to: usize, color: Color) -> Option<usize> {
        let to = to.min(self.empty_count);
        // SAFETY: `to <= empty_count`.
        unsafe {
            match color {
                Color::Black => self.playout_scan::<0>(from, to),
                Color::White => self.playout_scan::<1>(from, to),
            }
        }
    }

    /// [`Board::playout_move_between`] for colour `ME`.
    ///
    /// Safety: `to <= empty_count`.
    #[inline(always)]
    unsafe fn playout_scan<const ME: u8>(&self, from: usize, to: usize) -> Option<usize> {
        // SAFETY: `k < empty_count <= SLOTS`, and the empty list holds
        // exactly the empty points.
        (from..to).find(|&k| self.playout_ok::<ME>(*self.empties.get_unchecked(k) as usize))
    }

    /// The first light-playout move for `ME` scanning the empty list from
    /// position `start` and wrapping round (libego's picker).
    ///
    /// Safety: `start < empty_count`, or `start == 0`.
    #[inline(always)]
    unsafe fn playout_pick<const ME: u8>(&self, start: usize) -> Option<usize> {
        let n = self.empty_count;
        if n == 0 {
            return None;
        }
        let mut k = start;
        loop {
            // SAFETY: `k < empty_count <= SLOTS`, and the empty list holds
            // exactly the empty points.
            let e = *self.empties.get_unchecked(k) as usize;
            if self.playout_ok::<ME>(e) {
                return Some(e);
            }
            k += 1;
            if k == n {
                k = 0;
            }
            if k == start {
                return None;
            }
        }
    }

    /// One light-playout turn for colour `ME`: a uniformly random move that
    /// is legal and fills no own true eye, or a pass (which clears the ko
    /// point) when there is none. Returns whether a stone was played.
    #[inline(always)]
    pub(crate) fn playout_turn<const ME: u8>(&mut self, rng: &mut PlayoutRng) -> bool {
        let n = self.empty_count;
        if n > 0 {
            let start = rng.below(n);
            // SAFETY: `start < empty_count`; the pick is an empty point.
            unsafe {
                if let Some(i) = self.playout_pick::<ME>(start) {
                    self.play_as::<ME>(i);
                    return true;
                }
            }
        }
        self.ko = 0;
        false
    }

    /// Plays a stone after checking simple ko, suicide and occupancy.
    ///
    /// On error the board is unchanged. See [`Board::play_unchecked`] for the
    /// fast path the search uses.
    pub fn play(&mut self, p: Point, color: Color) -> Result<(), PlayError> {
        self.check(p, color, false)?;
        self.play_unchecked(p, color);
        Ok(())
    }

    /// Plays a stone without checking legality; returns the stones captured.
    ///
    /// The caller guarantees `p` is an empty point of the board (otherwise
    /// this panics). A suicidal move removes its own chain (as Tromp-Taylor
    /// rules allow); a ko recapture is carried out. Use [`Board::play`] for
    /// untrusted moves.
    #[inline]
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> u32 {
        let i = p.index();
        // The one check the unchecked code below relies on.
        assert!(
            self.cells.get(i) == Some(&EMPTY),
            "play_unchecked on a point that is not an empty point of the board"
        );
        // SAFETY: `i` is an empty point of the board.
        let captured = unsafe { self.play_empty(i, color) };
        #[cfg(debug_assertions)]
        debug_assert_eq!(self.hash, self.recompute_hash(), "incremental hash drifted");
        captured
    }

    /// Safety: `i` is an empty point of the board.
    #[inline(always)]
    unsafe fn play_empty(&mut self, i: usize, color: Color) -> u32 {
        match color {
            Color::Black => self.play_as::<0>(i),
            Color::White => self.play_as::<1>(i),
        }
    }

    /// Plays a stone of colour `ME` (0 black, 1 white) on `i`; returns the
    /// stones captured.
    ///
    /// Safety: `i` is an empty point of the board.
    #[inline(always)]
    pub(crate) unsafe fn play_as<const ME: u8>(&mut self, i: usize) -> u32 {
        let opp = ME ^ 1;
        let nb = self.nb_at(i);
        self.place_stone(i, ME);
        *self.head.get_unchecked_mut(i) = i as u16;
        *self.next.get_unchecked_mut(i) = i as u16;
        self.ko = 0;
        self.last_move = i as u16;
        let empty_mask = nb_mask(nb, EMPTY);
        // The lone stone's liberties are its empty neighbours.
        let (libs, off_sum, off_sq) = *LONE_LIBS.get_unchecked(empty_mask as usize);
        let s = i as u32;
        // The offsets may be negative: wrapping arithmetic is exact here
        // since the true sums are positive and small.
        let sum = (libs * s).wrapping_add(off_sum as u32);
        let sum_sq = (libs * s)
            .wrapping_add((2 * off_sum) as u32)
            .wrapping_mul(s)
            .wrapping_add(off_sq);
        *self.chain_mut(i) = ChainInfo {
            libs: (libs as u64) << COUNT_SHIFT | (sum as u64) << SQ_BITS | sum_sq as u64,
        };
        *self.sizes.get_unchecked_mut(i) = 1;
        if empty_mask == 0xf {
            // Four empty neighbours (common): nothing else to do.
            return 0;
        }
        let friends = nb_mask(nb, ME);
        let enemies = nb_mask(nb, opp);
        let eye_of_opponent = friends | empty_mask == 0;

        // Each neighbouring chain loses this point as a liberty, once per
        // adjacency; empty and border neighbours hit the scratch entry, so
        // no test is needed. Then friends merge, and enemies left without a
        // liberty are taken. A capture hands points back to the chains
        // around it, this one included.
        let around = Self::around(i);
        let heads = around.map(|n| self.head_at(n));
        // Enemy chains out of liberties are found without a branch per
        // side: the side that takes a chain's last pseudo-liberty marks it
        // (the scratch entry's count is masked off).
        let mut dead = 0;
        for (d, &h) in heads.iter().enumerate() {
            let chain = self.chain_mut(h);
            chain.remove_lib(i);
            // No pseudo-liberty leaves all three fields zero.
            dead |= ((chain.libs == 0) as u32) << d;
        }
        dead &= enemies;
        // Friends merge: the first takes the lone stone in, the others
        // join unless they are already the same chain. Set bits are walked
        // rather than tested one by one: fewer unpredictable branches.
        let mut mine = i;
        let mut m = friends;
        if m != 0 {
            let d = m.trailing_zeros() as usize;
            mine = self.join_lone(i, *heads.get_unchecked(d));
            m &= m - 1;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                // Heads change as chains merge: read again.
                let h = self.head_at(*around.get_unchecked(d));
                if h != mine {
                    mine = self.merge(mine, h);
                }
                m &= m - 1;
            }
        }
        // Only the side that took a chain's last pseudo-liberty marks it,
        // so each dead chain has one bit.
        let mut captured = 0u32;
        let mut captured_point = 0usize;
        let mut m = dead;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            captured_point = *around.get_unchecked(d);
            let h = *heads.get_unchecked(d);
            captured += if ME == 0 {
                self.remove_chain::<1>(h)
            } else {
                self.remove_chain::<0>(h)
            };
            m &= m - 1;
        }
        *self.captures.get_unchecked_mut(ME as usize) += captured;

        if self.chain_at(mine).libs == 0 {
            // Suicide, only reached when the caller allows it.
            let lost = self.remove_chain::<ME>(mine);
            *self.captures.get_unchecked_mut(opp as usize) += lost;
        } else if captured == 1 && eye_of_opponent {
            // A lone stone (no friendly neighbour) that took one stone.
            self.ko = captured_point as u16;
            self.ko_color = opp;
        }
        captured
    }

    /// Adds the lone stone `i` (its own chain so far) to the chain headed
    /// at `h`; returns `h`.
    ///
    /// Safety: `i` is a lone stone heading its chain, `h` another chain's head.
    #[inline(always)]
    unsafe fn join_lone(&mut self, i: usize, h: usize) -> usize {
        *self.head.get_unchecked_mut(i) = h as u16;
        *self.next.get_unchecked_mut(i) = self.next_at(h) as u16;
        *self.next.get_unchecked_mut(h) = i as u16;
        let own = *self.chain_at(i);
        let chain = self.chain_mut(h);
        chain.libs += own.libs;
        *self.sizes.get_unchecked_mut(h) += 1;
        h
    }

    /// Merges chains headed at `a` and `b`, relabelling the smaller; returns
    /// the head of the result.
    ///
    /// Safety: `a` and `b` are heads of distinct chains.
    #[inline]
    unsafe fn merge(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.sizes.get_unchecked(a) >= self.sizes.get_unchecked(b) {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            *self.head.get_unchecked_mut(s) = big as u16;
            s = self.next_at(s);
            if s == small {
                break;
            }
        }
        let nb = self.next_at(big);
        *self.next.get_unchecked_mut(big) = self.next_at(small) as u16;
        *self.next.get_unchecked_mut(small) = nb as u16;
        let sm = *self.chain_at(small);
        let bg = self.chain_mut(big);
        bg.libs += sm.libs;
        *self.sizes.get_unchecked_mut(big) += *self.sizes.get_unchecked(small);
        big
    }

    /// Removes the chain headed at `h`, giving liberties back to the chains
    /// around it; returns its size.
    ///
    /// Safety: `h` is the head of a chain of colour `STONE` (0 or 1).
    #[inline(never)]
    unsafe fn remove_chain<const STONE: u8>(&mut self, h: usize) -> u32 {
        debug_assert_eq!(self.cell_at(h), STONE);
        let mut count = 0;
        let mut s = h;
        loop {
            let next = self.next_at(s);
            self.remove_stone(s, STONE);
            count += 1;
            // Every neighbouring chain gains the point, without testing
            // what the neighbour holds: empty and border slots feed the
            // scratch entry, and stones of this chain its own entry, which
            // dies with it.
            for n in Self::around(s) {
                let nh = self.head_at(n);
                self.chain_mut(nh).add_lib(s);
            }
            s = next;
            if s == h {
                break;
            }
        }
        count
    }

    /// Puts a stone on or clears a point outside play (setup, handicap).
    ///
    /// Chains are rebuilt from scratch; a chain left without liberties stays
    /// on the board as set up. The ko point is cleared.
    pub fn set_stone(&mut self, p: Point, stone: Option<Color>) {
        if !self.contains(p) {
            return;
        }
        let to = stone.map_or(EMPTY, |c| c as u8);
        if self.cells[p.index()] != to {
            self.set_cell(p.index(), to);
        }
        self.ko = 0;
        self.rebuild_chains();
    }

    fn rebuild_chains(&mut self) {
        for p in self.points().collect::<Vec<_>>() {
            let i = p.index();
            if self.cells[i] < EMPTY {
                self.head[i] = i as u16;
                self.next[i] = i as u16;
                self.chains[i] = ChainInfo { libs: 0 };
                self.sizes[i] = 1;
                for n in p.neighbours() {
                    if self.cells[n.index()] == EMPTY {
                        self.chains[i].add_lib(n.index());
                    }
                }
            }
        }
        for p in self.points().collect::<Vec<_>>() {
            let i = p.index();
            if self.cells[i] >= EMPTY {
                continue;
            }
            for n in [p.neighbours()[2], p.neighbours()[3]] {
                let n = n.index();
                if self.cells[n] == self.cells[i] {
                    let (a, b) = (self.head[i] as usize, self.head[n] as usize);
                    if a != b {
                        // SAFETY: both are chain heads.
                        unsafe { self.merge(a, b) };
                    }
                }
            }
        }
    }

    /// The first stone, in index order, of each of `color`'s chains: one
    /// stone per chain, for work done once a chain.
    pub fn first_stones(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        let mut seen = Bitboard::EMPTY;
        self.stones(color).iter().filter(move |&p| {
            let id = self.chain_id(p);
            let new = !seen.contains(id);
            seen.insert(id);
            new
        })
    }

    /// Number of distinct liberties of the chain through `p` (0 if empty).
    pub fn liberty_count(&self, p: Point) -> usize {
        self.liberties_bb(p).count()
    }

    /// Writes up to `out.len()` distinct liberties of the chain through `p`
    /// into `out` and returns how many it found (0 if `p` holds no stone).
    /// It stops once `out` is full, so asking whether a chain has two
    /// liberties or more costs a look at a stone or two, not the whole chain.
    ///
    /// ```
    /// use kosumi::board::{Board, Color, Point};
    /// let mut board = Board::new(9);
    /// board.play(Point::new(0, 0), Color::Black).unwrap();
    /// let mut libs = [Point::new(0, 0); 3];
    /// assert_eq!(board.first_liberties(Point::new(0, 0), &mut libs), 2);
    /// assert_eq!(board.first_liberties(Point::new(0, 0), &mut libs[..1]), 1);
    /// ```
    #[inline]
    pub fn first_liberties(&self, p: Point, out: &mut [Point]) -> usize {
        if out.is_empty() || !self.holds_stone(p) {
            return 0;
        }
        let start = p.index();
        let mut n = 0;
        let mut s = start;
        loop {
            // SAFETY: `s` is a stone of the board (chain links join stones).
            let (empty, next) = unsafe { (nb_mask(self.nb_at(s), EMPTY), self.next_at(s)) };
            // The empty neighbours in `around` order, from the summary.
            for q in Point::from_index(s).neighbours_in(empty) {
                if !out[..n].contains(&q) {
                    out[n] = q;
                    n += 1;
                    if n == out.len() {
                        return n;
                    }
                }
            }
            s = next;
            if s == start {
                return n;
            }
        }
    }

    /// The liberties of the chain through `p` if it has exactly two.
    #[inline]
    pub fn two_liberties(&self, p: Point) -> Option<[Point; 2]> {
        if !self.holds_stone(p) || self.chain_info(p.index()).surely_three_liberties() {
            return None;
        }
        let mut found = [p; 3];
        (self.first_liberties(p, &mut found) == 2).then_some([found[0], found[1]])
    }

    /// Liberties of the chain through `p`, row by row from the top-left.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        self.liberties_bb(p).iter().collect()
    }

    /// Liberties of the chain through `p` as a bitboard.
    pub fn liberties_bb(&self, p: Point) -> Bitboard {
        if !self.contains(p) || self.cells[p.index()] >= EMPTY {
            return Bitboard::EMPTY;
        }
        let mut libs = Bitboard::EMPTY;
        for s in self.chain_iter(p) {
            for n in s.neighbours() {
                if self.cells[n.index()] == EMPTY {
                    libs.insert(n);
                }
            }
        }
        libs
    }

    /// The stones of the chain through `p` (empty if `p` holds no stone).
    pub fn chain(&self, p: Point) -> Vec<Point> {
        if !self.contains(p) || self.cells[p.index()] >= EMPTY {
            return Vec::new();
        }
        let mut v: Vec<Point> = self.chain_iter(p).collect();
        v.sort();
        v
    }

    /// The stones of the chain through the stone at `p`, in chain order.
    pub fn chain_iter(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let start = p.index();
        let mut cur = Some(start);
        std::iter::from_fn(move || {
            let s = cur?;
            let n = self.next[s] as usize;
            cur = (n != start).then_some(n);
            Some(Point::from_index(s))
        })
    }

    /// The chains with a stone among `points`, each as a bitboard: the
    /// black ones first, each colour's from its lowest point up.
    pub fn chains_at(&self, points: Bitboard) -> impl Iterator<Item = Bitboard> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            let own = self.stones(c);
            Bitboard::flood_fill(points & own, own).components()
        })
    }

    /// Whether `p` holds a stone (so its chain entry is meaningful).
    #[inline]
    fn holds_stone(&self, p: Point) -> bool {
        self.cells[p.index()] < EMPTY
    }

    /// Number of stones in the chain through the stone at `p` (0 if `p`
    /// holds no stone).
    #[inline]
    pub fn chain_size(&self, p: Point) -> usize {
        if self.holds_stone(p) {
            self.sizes[self.head[p.index()] as usize] as usize
        } else {
            0
        }
    }

    /// An id shared by all stones of one chain (its head point); the same
    /// border slot for every point that holds no stone.
    #[inline]
    pub fn chain_id(&self, p: Point) -> Point {
        Point::from_index(self.head[p.index()] as usize)
    }

    /// Whether the chain through the stone at `p` has exactly one liberty
    /// (`false` if `p` holds no stone).
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.holds_stone(p) && self.chain_info(p.index()).in_atari()
    }

    /// The last liberty of a chain in atari through the stone at `p`.
    #[inline]
    pub fn atari_point(&self, p: Point) -> Option<Point> {
        let c = self.chain_info(p.index());
        (self.holds_stone(p) && c.in_atari()).then(|| c.atari_point())
    }

    /// The empty neighbours of the point `p`: bit `d` for
    /// `p.neighbours()[d]`.
    #[inline]
    pub fn empty_neighbour_bits(&self, p: Point) -> u32 {
        self.neighbour_mask(p.index(), EMPTY)
    }

    /// The neighbours of the point `p` holding a `color` stone: bit `d` for
    /// `p.neighbours()[d]`.
    #[inline]
    pub fn stone_neighbour_bits(&self, p: Point, color: Color) -> u32 {
        self.neighbour_mask(p.index(), color as u8)
    }

    /// Whether `p` is empty with every neighbour a `color` stone or the edge.
    #[inline]
    pub fn is_eyelike(&self, p: Point, color: Color) -> bool {
        // No empty and no opponent neighbour: own stones and border only.
        self.cells[p.index()] == EMPTY
            && self.neighbour_mask(p.index(), EMPTY)
                | self.neighbour_mask(p.index(), 1 - color as u8)
                == 0
    }

    /// Whether `p` is a true (not false) one-point eye of `color`.
    ///
    /// Eye-like, and the opponent holds at most one diagonal point in the
    /// middle, none on the edge or in the corner.
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        if !self.is_eyelike(p, color) {
            return false;
        }
        let opp = color.opponent() as u8;
        let mut enemy = 0;
        let mut border = 0;
        for d in p.diagonals() {
            match self.cells[d.index()] {
                BORDER => border = 1,
                c if c == opp => enemy += 1,
                _ => {}
            }
        }
        enemy + border < 2
    }

    /// Whether playing `color` at empty `p` leaves its chain with a single
    /// liberty (without capturing its way out).
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        let i = p.index();
        if self.empty_neighbours(i) >= 2 {
            return false;
        }
        let me = color as u8;
        // Liberties other than p, until two are found.
        let mut libs = [p; 2];
        let mut n = 0;
        let mut add = |q: Point| {
            if q != p && !libs[..n].contains(&q) {
                libs[n] = q;
                n += 1;
            }
            n == 2
        };
        let around = Self::around(i);
        let own = self.neighbour_mask(i, me);
        for nb in p.neighbours() {
            let ni = nb.index();
            let enough = match self.cells[ni] {
                EMPTY => add(nb),
                BORDER => false,
                c if c == me => {
                    // The chain's pseudo-liberties without p's (one per side
                    // of p the chain touches) tell at once whether it has
                    // no other liberty, one (where), or more.
                    let h = self.head[ni];
                    let sides = (0..4)
                        .filter(|&e| own >> e & 1 != 0 && self.head[around[e]] == h)
                        .count();
                    // The chain holds `sides` pseudo-liberties at p: no
                    // field of the packed triple borrows.
                    let rest = ChainInfo {
                        libs: self.chains[h as usize].libs - sides as u64 * lib_unit(i),
                    };
                    if rest.pseudo_count() == 0 {
                        false
                    } else if rest.one_liberty_point() {
                        add(rest.atari_point())
                    } else {
                        return false;
                    }
                }
                // A capture frees at least the captured point next to p.
                _ => self.chain_info(ni).in_atari() && add(nb),
            };
            if enough {
                return false;
            }
        }
        true
    }

    /// The legal moves (stones only) for `color`, row by row from the top-left.
    pub fn legal_moves(&self, color: Color) -> Vec<Point> {
        self.points().filter(|&p| self.is_legal(p, color)).collect()
    }

    /// Whether `color` is in atari anywhere next to `p`; returns such chains' ids.
    pub fn adjacent_chains_in_atari(
        &self,
        p: Point,
        color: Color,
    ) -> smallvec::SmallVec<[Point; 4]> {
        let mut out = smallvec::SmallVec::new();
        for n in p.neighbours() {
            if self.cells[n.index()] == color as u8 && self.in_atari(n) {
                let id = self.chain_id(n);
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        out
    }

    /// Moves by which `color` captures: the last liberty of every opponent
    /// chain in atari (legal moves only, each point once).
    ///
    /// ```
    /// use kosumi::board::{Board, Color, Point};
    /// let mut board = Board::new(5);
    /// board.play(Point::new(0, 0), Color::White).unwrap();
    /// board.play(Point::new(1, 0), Color::Black).unwrap();
    /// assert_eq!(board.capture_moves(Color::Black), [Point::new(0, 1)]);
    /// ```
    pub fn capture_moves(&self, color: Color) -> Vec<Point> {
        let opp = color.opponent();
        let mut out = Vec::new();
        for p in self.first_stones(opp) {
            if let Some(last) = self.atari_point(p) {
                if !out.contains(&last) && self.is_legal(last, color) {
                    out.push(last);
                }
            }
        }
        out
    }

    /// Moves that may save `color`'s chains in atari: extending on the last
    /// liberty (when that leaves more than one liberty) and capturing an
    /// adjacent opponent chain in atari. Legal moves only, each point once.
    pub fn escape_moves(&self, color: Color) -> Vec<Point> {
        let mut out = Vec::new();
        for p in self.first_stones(color) {
            let Some(last) = self.atari_point(p) else {
                continue;
            };
            if self.is_legal(last, color)
                && !self.is_self_atari(last, color)
                && !out.contains(&last)
            {
                out.push(last);
            }
            let mut opp_seen = Bitboard::EMPTY;
            for s in self.chain_iter(p) {
                for n in s.neighbours() {
                    if self.get(n) == Some(color.opponent()) && !opp_seen.contains(self.chain_id(n))
                    {
                        opp_seen.insert(self.chain_id(n));
                        if let Some(capture) = self.atari_point(n) {
                            if self.is_legal(capture, color) && !out.contains(&capture) {
                                out.push(capture);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Checks every internal invariant; returns the first broken one. Used
    /// by tests and `kosumi stress`.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        use InvariantError::*;
        let check = |ok: bool, broken: InvariantError| if ok { Ok(()) } else { Err(broken) };
        check(self.hash == self.recompute_hash(), Hash)?;
        let mut empties = 0;
        let mut checked = Bitboard::EMPTY;
        for p in self.points() {
            let i = p.index();
            let nb = nb_of(Self::around(i).map(|n| self.cells[n]));
            check(nb == self.nb[i], NeighbourCounts(p))?;
            match self.cells[i] {
                EMPTY => {
                    empties += 1;
                    check(self.head[i] as usize == NO_CHAIN, EmptyHeadsChain(p))?;
                    check(
                        self.empties[self.empty_pos[i] as usize] as usize == i,
                        EmptyList(p),
                    )?;
                }
                _ if checked.contains(p) => {}
                c => {
                    let libs = self.liberties_bb(p);
                    check(!libs.is_empty(), NoLiberty(p))?;
                    let info = self.chain_info(i);
                    check(info.in_atari() == (libs.count() == 1), Atari(p))?;
                    let stones: Vec<Point> = self.chain_iter(p).collect();
                    check(stones.len() == self.chain_size(p), ChainSize(p))?;
                    let same =
                        Bitboard::flood_fill([p].into_iter().collect(), self.stones[c as usize]);
                    let whole =
                        same.count() == stones.len() && stones.iter().all(|&s| same.contains(s));
                    check(whole, ChainMembership(p))?;
                    let heads = stones.iter().all(|&s| self.head[s.index()] == self.head[i]);
                    check(heads, ChainHead(p))?;
                    checked |= same;
                    let pseudo: u64 = stones
                        .iter()
                        .flat_map(|s| s.neighbours())
                        .filter(|n| self.cells[n.index()] == EMPTY)
                        .map(|n| lib_unit(n.index()))
                        .sum();
                    check(pseudo == info.libs, PseudoLiberties(p))?;
                }
            }
        }
        check(empties == self.empty_count, EmptyCount)
    }

    /// Writes the board as a diagram; `marks` may override a point's symbol.
    pub fn diagram(&self, mut mark: impl FnMut(Point) -> Option<char>) -> String {
        let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let mut s = String::new();
        let header: String = letters[..self.size]
            .iter()
            .flat_map(|&c| [' ', c as char])
            .collect();
        s.push_str(&format!("   {}\n", header.trim_start()));
        for y in 0..self.size {
            let row = self.size - y;
            s.push_str(&format!("{row:2}"));
            for x in 0..self.size {
                let p = Point::new(x, y);
                let c = mark(p).unwrap_or(match self.get(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
                s.push(' ');
                s.push(c);
            }
            s.push_str(&format!(" {row}\n"));
        }
        s.push_str(&format!("   {}\n", header.trim_start()));
        s
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram(|_| None))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones, prisoners and ko point.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.stones == other.stones
            && self.captures == other.captures
            && self.ko == other.ko
            && (self.ko == 0 || self.ko_color == other.ko_color)
    }
}

impl Eq for Board {}

#[allow(dead_code)]
const _: () = assert!(STRIDE * STRIDE == SLOTS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{scattered_board, FastRng};

    #[test]
    fn chains_at_gives_each_chain_touched_once_whole() {
        let mut rng = FastRng::new(7);
        for size in [9, 13, 19] {
            let board = scattered_board(size, &mut rng);
            let stones = board.stones(Color::Black) | board.stones(Color::White);
            for p in stones.iter() {
                let chains: Vec<Bitboard> = board.chains_at(Bitboard::single(p)).collect();
                let whole: Bitboard = board.chain(p).into_iter().collect();
                assert_eq!(chains, vec![whole]);
            }
            let mut heads: Vec<Point> = stones.iter().map(|p| board.chain_id(p)).collect();
            heads.sort();
            heads.dedup();
            let all: Vec<Bitboard> = board.chains_at(stones).collect();
            assert_eq!(all.len(), heads.len());
            assert_eq!(all.iter().fold(Bitboard::EMPTY, |a, &c| a | c), stones);
            let empty = Bitboard::on_board(size) & !stones;
            assert_eq!(board.chains_at(empty).count(), 0);
        }
    }
}

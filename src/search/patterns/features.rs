//! Features of a candidate move: what the learned model ([`super::Model`])
//! rates.
//!
//! Every move gets at most one level of each feature group (Coulom 2007):
//! pass, capture, escape from atari, self-atari, atari, extension of a
//! two-liberty chain, distance to the previous move and to the move before
//! it, line (distance to the edge) with emptiness around, the 3x3 shape and
//! the largest known large shape. Shapes are read relative to the mover
//! (own, opponent, empty, off board) and normalised over the 8 symmetries.
//!
//! A [`Context`] is built once per position (a padded copy of the board),
//! then [`Context::features`] is asked about each candidate move.

use crate::board::{Board, Color, Point};
use crate::search::shape::pattern3_code;
use crate::search::tactics::{ladder_caught, liberties_up_to, with_copy};
use std::sync::OnceLock;

/// A feature group: its first global id and its number of levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Name, for reports.
    pub name: &'static str,
    /// Id of its level 0.
    pub base: u32,
    /// Number of levels.
    pub levels: u32,
}

impl Group {
    /// The group `name` of `levels` levels whose ids follow this one's.
    const fn then(self, name: &'static str, levels: u32) -> Group {
        let base = self.base + self.levels;
        Group { name, base, levels }
    }
}

/// Pass: 0 plain, 1 right after the opponent passed.
pub const PASS: Group = Group {
    name: "pass",
    base: 0,
    levels: 2,
};
/// Capture: 0 takes a ko; else `1 + size_class * 4 + takes_last * 2 +
/// saves_own`, size classes 1, 2-3 and 4+ stones; `takes_last` when the
/// previous move's chain is captured, `saves_own` when an own chain next to
/// the move was in atari.
pub const CAPTURE: Group = PASS.then("capture", 13);
/// Escape from atari by extension: `liberties_class + 3 * next_to_last`,
/// classes: caught in a ladder (two liberties), two liberties free, three or
/// more; `next_to_last` when the chain touches the previous move.
pub const ESCAPE: Group = CAPTURE.then("escape", 6);
/// Self-atari (the new chain has one liberty, no ko capture): chain of 1,
/// 2-5, 6+ stones.
pub const SELF_ATARI: Group = ESCAPE.then("self-atari", 3);
/// Atari: 0 while a ko is on the board; else `1 + caught + 2 * (chain of two
/// or more stones)`, `caught` when extending does not escape (a ladder).
pub const ATARI: Group = SELF_ATARI.then("atari", 5);
/// An own two-liberty chain next to the move gets 3 (level 0) or 4+
/// (level 1) liberties.
pub const EXTEND: Group = ATARI.then("extend", 2);
/// Distance to the previous move, `dx + dy + max(dx, dy)`: levels for 2..=16
/// and one for 17 or more.
pub const DIST_LAST: Group = EXTEND.then("dist-last", 16);
/// Distance to the move before the previous one, as [`DIST_LAST`].
pub const DIST_LAST2: Group = DIST_LAST.then("dist-last2", 16);
/// Line (0 for the edge, up to 4 for the fifth line and beyond), plus 5 when
/// no stone is within Manhattan distance 2.
pub const LINE: Group = DIST_LAST2.then("line", 10);
/// First id of the 3x3 shapes ([`pattern3_count`] of them), then the large
/// shapes of a model.
pub const PAT3_BASE: u32 = LINE.base + LINE.levels;

/// The fixed groups, in id order.
pub const GROUPS: [Group; 9] = [
    PASS, CAPTURE, ESCAPE, SELF_ATARI, ATARI, EXTEND, DIST_LAST, DIST_LAST2, LINE,
];

/// Group indices used when training (one more than [`GROUPS`] for the 3x3
/// shapes and one for the large shapes).
pub const GROUP_COUNT: usize = GROUPS.len() + 2;

/// Most features one move can have (one per group).
pub const MAX_FEATURES: usize = GROUP_COUNT;

/// Sizes of the large shapes: all points at distance `dx + dy + max(dx, dy)`
/// up to this from the move (gridcular, as in Pachi). Size 3 would be the 3x3.
pub const LARGE_SIZES: [u8; 7] = [4, 5, 6, 7, 8, 9, 10];

/// Padding around the board in a [`Context`] grid: the largest `|dx|` of a
/// large shape.
const PAD: usize = 5;
/// Cell states relative to Black; a [`Context`] swaps them for White.
const S_EMPTY: u8 = 0;
const S_BLACK: u8 = 1;
const S_WHITE: u8 = 2;
const S_EDGE: u8 = 3;

/// The features of one move: global ids, one per group present.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFeatures {
    ids: [u32; MAX_FEATURES],
    len: u8,
}

impl MoveFeatures {
    /// The ids.
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }

    /// Whether the level `level` of `group` is present.
    pub fn has(&self, group: Group, level: u32) -> bool {
        self.ids().contains(&(group.base + level))
    }

    /// The level of `group`, if present.
    pub fn level(&self, group: Group) -> Option<u32> {
        self.ids()
            .iter()
            .find(|&&id| id >= group.base && id < group.base + group.levels)
            .map(|&id| id - group.base)
    }

    pub(super) fn push(&mut self, id: u32) {
        self.ids[self.len as usize] = id;
        self.len += 1;
    }
}

/// Tables of the 3x3 and large shapes, built once.
struct Tables {
    /// Per 3x3 code (Black to move), its canonical dense id.
    pat3: Vec<u16>,
    pat3_count: usize,
    /// Offsets of the large shapes, by distance, then row, then column.
    offsets: Vec<(i32, i32)>,
    /// Per size in [`LARGE_SIZES`], how many offsets it has.
    ends: [usize; LARGE_SIZES.len()],
    /// Per colour to move (Black, White), offset `i` and state of the cell
    /// at `i`: what that cell adds to the hash of each symmetry `s`, the
    /// Zobrist key of the offset that `s` maps onto `i` (symmetry 0 is the
    /// identity: its entry is the offset's own key). Keys per offset and
    /// state are random for Black, colours swapped for White; empty hashes
    /// to 0. One read per cell then serves all 8 symmetries.
    cell_keys: [Vec<[[u64; 8]; 4]>; 2],
    /// Per size, a salt so shapes of different sizes never share a key.
    salt: [u64; LARGE_SIZES.len()],
}

/// Deterministic keys: the weights file stores hashes, so these must never
/// change (doing so needs a new weights format version).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Symmetry `s` (0..8) of an offset: reflect when `s & 4`, then rotate a
/// quarter turn `s & 3` times.
fn transform(s: usize, dx: i32, dy: i32) -> (i32, i32) {
    let (mut x, mut y) = (dx, dy);
    if s & 4 != 0 {
        x = -x;
    }
    for _ in 0..(s & 3) {
        (x, y) = (-y, x);
    }
    (x, y)
}

/// Gridcular distance.
fn gridcular(dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    ax + ay + ax.max(ay)
}

/// The 3x3 ring of [`pattern3_code`], as (dx, dy): NW, N, NE, W, E, SW, S, SE.
const RING: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        // 3x3: canonical code = least code over the 8 symmetries.
        let mut perm = [[0usize; 8]; 8];
        for (s, row) in perm.iter_mut().enumerate() {
            for (i, &(dx, dy)) in RING.iter().enumerate() {
                let t = transform(s, dx, dy);
                row[i] = RING.iter().position(|&r| r == t).expect("ring is closed");
            }
        }
        let mut canon = vec![0u32; 1 << 16];
        for (code, c) in canon.iter_mut().enumerate() {
            *c = (0..8)
                .map(|s| {
                    (0..8).fold(0u32, |acc, i| {
                        acc | (((code >> (2 * perm[s][i])) & 3) as u32) << (2 * i)
                    })
                })
                .min()
                .expect("8 symmetries");
        }
        let mut dense = vec![u16::MAX; 1 << 16];
        let mut count = 0usize;
        for code in 0..1usize << 16 {
            let c = canon[code] as usize;
            if dense[c] == u16::MAX {
                dense[c] = count as u16;
                count += 1;
            }
            dense[code] = dense[c];
        }
        // Large shapes.
        let max = *LARGE_SIZES.last().expect("sizes") as i32;
        let mut offsets = Vec::new();
        for dy in -max..=max {
            for dx in -max..=max {
                let d = gridcular(dx, dy);
                if d >= 2 && d <= max {
                    offsets.push((dx, dy));
                }
            }
        }
        offsets.sort_by_key(|&(dx, dy)| (gridcular(dx, dy), dy, dx));
        let mut ends = [0; LARGE_SIZES.len()];
        for (k, &size) in LARGE_SIZES.iter().enumerate() {
            ends[k] = offsets
                .iter()
                .filter(|&&(dx, dy)| gridcular(dx, dy) <= size as i32)
                .count();
        }
        let mut state = 0x6b6f_7375_6d69_7061;
        let black: Vec<[u64; 4]> = offsets
            .iter()
            .map(|_| {
                [
                    0,
                    splitmix(&mut state),
                    splitmix(&mut state),
                    splitmix(&mut state),
                ]
            })
            .collect();
        let white: Vec<[u64; 4]> = black.iter().map(|z| [0, z[2], z[1], z[3]]).collect();
        let cell_keys = [&black, &white].map(|z| {
            offsets
                .iter()
                .map(|&(dx, dy)| {
                    let mut keys = [[0u64; 8]; 4];
                    for s in 0..8 {
                        let j = offsets
                            .iter()
                            .position(|&o| transform(s, o.0, o.1) == (dx, dy))
                            .expect("the offsets are closed under symmetry");
                        for (state, k) in keys.iter_mut().enumerate() {
                            k[s] = z[j][state];
                        }
                    }
                    keys
                })
                .collect()
        });
        let mut salt = [0; LARGE_SIZES.len()];
        for s in salt.iter_mut() {
            *s = splitmix(&mut state);
        }
        Tables {
            pat3: dense,
            pat3_count: count,
            offsets,
            ends,
            cell_keys,
            salt,
        }
    })
}

/// Number of distinct 3x3 shapes up to symmetry (with the mover's colour).
pub fn pattern3_count() -> usize {
    tables().pat3_count
}

/// Number of fixed feature ids: the groups and the 3x3 shapes; large shape
/// ids follow.
pub fn fixed_count() -> usize {
    PAT3_BASE as usize + pattern3_count()
}

/// The 3x3 shape id (0-based, without [`PAT3_BASE`]) of `color` playing at
/// `p`: the same for all 8 symmetries; colours are the mover's and the
/// opponent's.
pub fn pattern3_id(board: &Board, p: Point, color: Color) -> usize {
    pattern3_id_of_code(pattern3_code(board, p), color)
}

/// [`pattern3_id`] of a 3x3 neighbourhood code (see [`pattern3_code`]).
pub fn pattern3_id_of_code(mut code: usize, color: Color) -> usize {
    if color == Color::White {
        // Swap the black (01) and white (10) cells; edge (11) stays.
        let lo = code & 0x5555;
        let hi = (code >> 1) & 0x5555;
        let swap = lo ^ hi;
        code ^= swap | (swap << 1);
    }
    tables().pat3[code] as usize
}

/// Per-position state for extracting move features.
pub struct Context<'a> {
    board: &'a Board,
    color: Color,
    last: Option<Point>,
    last2: Option<Point>,
    opponent_passed: bool,
    /// The board with [`PAD`] rings of edge around it, states relative to Black.
    grid: Vec<u8>,
    width: usize,
    /// The grid offset of each large-shape offset.
    cell_offsets: Vec<isize>,
}

impl<'a> Context<'a> {
    /// The position `board` with `color` to move; `last` is the previous move
    /// (`None` after a pass or at the start), `last2` the one before;
    /// `opponent_passed` when the previous move was a pass.
    pub fn new(
        board: &'a Board,
        color: Color,
        last: Option<Point>,
        last2: Option<Point>,
        opponent_passed: bool,
    ) -> Context<'a> {
        let size = board.size();
        let width = size + 2 * PAD;
        let mut grid = vec![S_EDGE; width * width];
        for p in board.points() {
            grid[(p.y() + PAD) * width + p.x() + PAD] = match board.get(p) {
                Some(Color::Black) => S_BLACK,
                Some(Color::White) => S_WHITE,
                None => S_EMPTY,
            };
        }
        let cell_offsets = tables()
            .offsets
            .iter()
            .map(|&(dx, dy)| dy as isize * width as isize + dx as isize)
            .collect();
        Context {
            board,
            color,
            last,
            last2,
            opponent_passed,
            grid,
            width,
            cell_offsets,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.board
    }

    /// The keys of the large shapes around `p` (empty), one per size in
    /// [`LARGE_SIZES`], each the same for all 8 symmetries.
    pub fn large_keys(&self, p: Point) -> [u64; LARGE_SIZES.len()] {
        let mut keys = [0; LARGE_SIZES.len()];
        let mut k = 0;
        self.each_large_key(p, |key| {
            keys[k] = key;
            k += 1;
            true
        });
        keys
    }

    /// Calls `f` with the key of each large shape around `p`, smallest
    /// first, while it returns `true`. (A shape seen less often than a
    /// threshold has no larger shape seen more often: a model stops at the
    /// first unknown size.)
    pub fn each_large_key(&self, p: Point, mut f: impl FnMut(u64) -> bool) {
        let t = tables();
        let keys = &t.cell_keys[self.color.index()];
        let centre = ((p.y() + PAD) * self.width + p.x() + PAD) as isize;
        // The hash of each symmetry: the same XOR of per-cell keys as reading
        // the shape turned each way, with each cell read once and the empty
        // cells (key 0) skipped.
        let mut h = [0u64; 8];
        let mut start = 0;
        for (k, &end) in t.ends.iter().enumerate() {
            for (&o, cell_keys) in self.cell_offsets[start..end].iter().zip(&keys[start..end]) {
                // In the grid: |dx|, |dy| <= PAD around an on-board point.
                let cell = self.grid[(centre + o) as usize];
                if cell != S_EMPTY {
                    for (hs, &key) in h.iter_mut().zip(&cell_keys[cell as usize]) {
                        *hs ^= key;
                    }
                }
            }
            start = end;
            if !f(h.iter().min().expect("8 symmetries") ^ t.salt[k]) {
                return;
            }
        }
    }

    /// Features of passing.
    pub fn pass_features(&self) -> MoveFeatures {
        let mut f = MoveFeatures::default();
        f.push(PASS.base + self.opponent_passed as u32);
        f
    }

    /// Features of playing at `p` (empty, legal) except the large shape:
    /// [`super::Model`] adds it from [`Context::large_keys`].
    pub fn features(&self, p: Point) -> MoveFeatures {
        let board = self.board;
        let color = self.color;
        let opp = color.opponent();
        let mut f = MoveFeatures::default();
        // Tactics: only moves touching a chain of at most two liberties, or
        // self-ataris, are played out on a copy.
        let mut tactical = false;
        let mut own_atari = false;
        let mut own_atari_near_last = false;
        let mut own_two = false;
        let mut last_chain_adjacent = false;
        for n in p.neighbours() {
            if let Some(c) = board.get(n) {
                // Liberties up to 3: only 1, 2 and more are told apart.
                let libs = liberties_up_to::<3>(board, n);
                if libs <= 2 {
                    tactical = true;
                }
                if c == color {
                    if libs == 1 {
                        own_atari = true;
                        if let Some(l) = self.last {
                            if board
                                .chain_iter(n)
                                .any(|s| s.neighbours().contains(&l) || s == l)
                            {
                                own_atari_near_last = true;
                            }
                        }
                    } else if libs == 2 {
                        own_two = true;
                    }
                } else if let Some(l) = self.last {
                    if board.get(l) == Some(opp) && board.chain_id(l) == board.chain_id(n) {
                        last_chain_adjacent = true;
                    }
                }
            }
        }
        if !tactical && board.is_self_atari(p, color) {
            tactical = true;
        }
        if tactical {
            let ko_before = board.ko_point().is_some();
            with_copy(board, |b| {
                let captured = b.play_unchecked(p, color) as usize;
                // Up to 4: the features tell apart 1, 2, 3 and more.
                let libs = liberties_up_to::<4>(b, p);
                if captured > 0 {
                    let takes_ko = b.ko_point().is_some();
                    if takes_ko {
                        f.push(CAPTURE.base);
                    } else {
                        let class = match captured {
                            1 => 0,
                            2 | 3 => 1,
                            _ => 2,
                        };
                        let takes_last =
                            last_chain_adjacent && self.last.is_some_and(|l| b.get(l).is_none());
                        f.push(
                            CAPTURE.base + 1 + class * 4 + takes_last as u32 * 2 + own_atari as u32,
                        );
                    }
                } else if own_atari && libs >= 2 {
                    let class = match libs {
                        2 if ladder_caught(b, p, color) => 0,
                        2 => 1,
                        _ => 2,
                    };
                    f.push(ESCAPE.base + class + 3 * own_atari_near_last as u32);
                }
                if libs == 1 && b.ko_point().is_none() {
                    let size = b.chain_size(p);
                    f.push(
                        SELF_ATARI.base
                            + match size {
                                1 => 0,
                                2..=5 => 1,
                                _ => 2,
                            },
                    );
                }
                // Atari: an opponent chain next to the move left with one liberty.
                if libs >= 1 {
                    let mut atari: Option<Point> = None;
                    for n in p.neighbours() {
                        if b.get(n) == Some(opp) && b.in_atari(n) {
                            let bigger = atari.is_none_or(|a| b.chain_size(n) > b.chain_size(a));
                            if bigger {
                                atari = Some(n);
                            }
                        }
                    }
                    if let Some(a) = atari {
                        if ko_before {
                            f.push(ATARI.base);
                        } else {
                            let caught = atari_caught(b, a, opp);
                            let big = b.chain_size(a) >= 2;
                            f.push(ATARI.base + 1 + caught as u32 + 2 * big as u32);
                        }
                    }
                }
                if own_two && !own_atari && captured == 0 && libs >= 3 {
                    f.push(EXTEND.base + (libs >= 4) as u32);
                }
            });
        }
        if let Some(l) = self.last {
            f.push(DIST_LAST.base + distance_level(l, p));
        }
        if let Some(l) = self.last2 {
            f.push(DIST_LAST2.base + distance_level(l, p));
        }
        let line = p.line(board.size());
        f.push(LINE.base + line.min(4) as u32 + 5 * self.empty_around(p) as u32);
        f.push(PAT3_BASE + pattern3_id(board, p, color) as u32);
        f
    }

    /// Whether no stone is within Manhattan distance 2 of `p`.
    fn empty_around(&self, p: Point) -> bool {
        let centre = (p.y() + PAD) * self.width + p.x() + PAD;
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                if dx.abs() + dy.abs() > 2 {
                    continue;
                }
                let c = self.grid[(centre as isize + dy * self.width as isize + dx) as usize];
                if c == S_BLACK || c == S_WHITE {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether `defender`'s chain at `a`, in atari, cannot escape by extending:
/// capturing an attacker next to it counts as an escape.
fn atari_caught(b: &Board, a: Point, defender: Color) -> bool {
    let attacker = defender.opponent();
    for s in b.chain_iter(a) {
        for n in s.neighbours() {
            if b.get(n) == Some(attacker) && b.in_atari(n) {
                return false;
            }
        }
    }
    let Some(e) = b.atari_point(a) else {
        return true;
    };
    if !b.is_legal(e, defender) {
        return true;
    }
    with_copy(b, |b| {
        b.play_unchecked(e, defender);
        match liberties_up_to::<3>(b, a) {
            0 | 1 => true,
            2 => ladder_caught(b, a, defender),
            _ => false,
        }
    })
}

/// Level of the distance between two points (2..=16, 17+).
fn distance_level(a: Point, b: Point) -> u32 {
    let dx = a.x().abs_diff(b.x()) as i32;
    let dy = a.y().abs_diff(b.y()) as i32;
    (gridcular(dx, dy).clamp(2, 17) - 2) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        let t = tables();
        assert_eq!(t.ends.len(), LARGE_SIZES.len());
        assert!(t.ends.windows(2).all(|w| w[0] < w[1]));
        // Size 10 reaches |dx| = 5 at most: the grid padding suffices.
        assert!(t
            .offsets
            .iter()
            .all(|&(dx, dy)| dx.abs() <= PAD as i32 && dy.abs() <= PAD as i32));
        // The 3x3 symmetry classes: far fewer than the raw codes.
        assert!(pattern3_count() > 1000 && pattern3_count() < 12_000);
    }

    /// The large keys read the plain way: the shape turned by each
    /// symmetry, every cell read for each.
    fn large_keys_reference(ctx: &Context, p: Point) -> Vec<u64> {
        let t = tables();
        let z = &t.cell_keys[ctx.color.index()];
        let centre = ((p.y() + PAD) * ctx.width + p.x() + PAD) as isize;
        let mut h = [0u64; 8];
        let mut keys = Vec::new();
        let mut start = 0;
        for (k, &end) in t.ends.iter().enumerate() {
            for (&(dx, dy), zj) in t.offsets[start..end].iter().zip(&z[start..end]) {
                for (s, hs) in h.iter_mut().enumerate() {
                    let (x, y) = transform(s, dx, dy);
                    let cell =
                        ctx.grid[(centre + y as isize * ctx.width as isize + x as isize) as usize];
                    *hs ^= zj[cell as usize][0];
                }
            }
            start = end;
            keys.push(h.iter().min().unwrap() ^ t.salt[k]);
        }
        keys
    }

    #[test]
    fn large_keys_match_the_plain_reading() {
        let mut rng = crate::board::FastRng::new(5);
        for size in [7, 9, 13, 19] {
            let board = crate::board::scattered_board(size, &mut rng);
            for color in Color::ALL {
                let ctx = Context::new(&board, color, None, None, false);
                for p in board.points() {
                    assert_eq!(ctx.large_keys(p).to_vec(), large_keys_reference(&ctx, p));
                }
            }
        }
    }

    #[test]
    fn distance_levels() {
        assert_eq!(distance_level(Point::new(3, 3), Point::new(3, 4)), 0);
        assert_eq!(distance_level(Point::new(3, 3), Point::new(4, 4)), 1);
        assert_eq!(distance_level(Point::new(0, 0), Point::new(18, 18)), 15);
    }
}

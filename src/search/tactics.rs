//! Local reading the policy and the learned features share: ladders,
//! liberties gained by a move, two-liberty fights, nakade vital points.

use crate::board::{Bitboard, Board, Color, Point};
use std::cell::RefCell;

thread_local! {
    /// Boards for local reading, reused: a `Board` clone copies every slot
    /// of the largest board, while `copy_from` copies only those in use
    /// (a ladder read in the playouts cost a fifth of their instructions).
    static SCRATCH: RefCell<Vec<Box<Board>>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f` on a copy of `board` (nested calls get boards of their own).
pub(crate) fn with_copy<R>(board: &Board, f: impl FnOnce(&mut Board) -> R) -> R {
    let mut b = SCRATCH
        .with(|s| s.borrow_mut().pop())
        .unwrap_or_else(|| Box::new(Board::new(board.size())));
    b.copy_from(board);
    let r = f(&mut b);
    SCRATCH.with(|s| s.borrow_mut().push(b));
    r
}

/// Whether `defender`'s chain through `p` (two liberties, attacker to
/// move) is caught in a ladder: the attacker ataris from either side, the
/// defender extends, until the chain gets three liberties (escaped) or is
/// left in atari (caught). Captures of ataried attackers count as escapes.
pub fn ladder_caught(board: &Board, p: Point, defender: Color) -> bool {
    ladder_step(board, p, defender, 0)
}

fn ladder_step(board: &Board, p: Point, defender: Color, depth: usize) -> bool {
    if depth > 40 {
        return false;
    }
    let attacker = defender.opponent();
    let mut found = [p; 3];
    let count = board.first_liberties(p, &mut found);
    if count != 2 {
        return count < 2;
    }
    // The two liberties in board order, as a bitboard gives them.
    let libs = if found[0] < found[1] {
        [found[0], found[1]]
    } else {
        [found[1], found[0]]
    };
    libs.into_iter().any(|a| {
        board.is_legal(a, attacker)
            && with_copy(board, |b| {
                b.play_unchecked(a, attacker);
                if b.get(p) != Some(defender) {
                    // Captured at once.
                    return true;
                }
                if b.in_atari(a) {
                    // The ataring stone can be taken: not a clean ladder.
                    return false;
                }
                // The defender may capture an attacker next to the chain instead.
                if any_ataried_neighbour(b, p, attacker, usize::MAX, |_| true) {
                    return false;
                }
                let Some(e) = b.atari_point(p) else {
                    return false;
                };
                if !b.is_legal(e, defender) {
                    return true;
                }
                b.play_unchecked(e, defender);
                match liberties_up_to::<3>(b, p) {
                    0 | 1 => true,
                    2 => ladder_step(b, p, defender, depth + 1),
                    _ => false,
                }
            })
    })
}

/// The liberties of the chain through `p`, counted up to `K` (`K` when it
/// has `K` or more): all a test of "one, two or more" needs, without
/// walking a long chain to its end.
pub(crate) fn liberties_up_to<const K: usize>(board: &Board, p: Point) -> usize {
    board.first_liberties(p, &mut [p; K])
}

/// Up to `K` distinct liberties, leaving out the points in `not`.
pub(crate) struct Libs<const K: usize> {
    points: [Point; K],
    len: usize,
    not: [Point; 2],
}

impl<const K: usize> Libs<K> {
    pub(crate) fn new(not: [Point; 2]) -> Self {
        Libs {
            points: [Point::from_index(0); K],
            len: 0,
            not,
        }
    }

    /// Adds `p`; `true` once the set is full.
    #[inline]
    pub(crate) fn add(&mut self, p: Point) -> bool {
        if self.len < K && !self.not.contains(&p) && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
        self.len == K
    }

    /// Adds the liberties of the chain through `chain`; `true` once full.
    #[inline]
    pub(crate) fn add_chain(&mut self, board: &Board, chain: Point) -> bool {
        // Enough to fill the set even if both left-out points come first.
        let mut found = [Point::from_index(0); 5];
        let n = board.first_liberties(chain, &mut found[..(K + 2).min(5)]);
        found[..n].iter().any(|&q| self.add(q))
    }

    /// Adds the liberties `color` gets by playing at `p` (its empty
    /// neighbours and the liberties of its chains next to it); `true` once
    /// full.
    pub(crate) fn add_move(&mut self, board: &Board, p: Point, color: Color) -> bool {
        p.neighbours().iter().any(|&n| {
            if board.is_empty(n) {
                self.add(n)
            } else {
                board.get(n) == Some(color) && self.add_chain(board, n)
            }
        })
    }
}

/// Whether `color` playing the empty point `a` gets a chain of three
/// liberties or more there (`other`: a liberty it keeps; captures ignored).
pub(crate) fn gains_third_liberty(board: &Board, a: Point, color: Color, other: Point) -> bool {
    let mut libs = Libs::<3>::new([a, a]);
    libs.add(other);
    libs.add_move(board, a, color)
}

/// Whether `color` extending at the empty point `b` is left with one
/// liberty at most, once the opponent has filled `a`.
pub(crate) fn escape_fails(board: &Board, b: Point, color: Color, a: Point) -> bool {
    !Libs::<2>::new([a, b]).add_move(board, b, color)
}

/// Calls `f` on the stones of `color` in atari next to the first `stones`
/// stones of the chain through `p` (a chain in atari may come up more than
/// once) until it returns `true`; returns whether it did. Plain loops: an
/// iterator chain here cost the playouts 4% of their instructions.
#[inline]
pub(crate) fn any_ataried_neighbour(
    board: &Board,
    p: Point,
    color: Color,
    stones: usize,
    mut f: impl FnMut(Point) -> bool,
) -> bool {
    for s in board.chain_iter(p).take(stones) {
        for n in s.neighbours_in(board.stone_neighbour_bits(s, color)) {
            if board.in_atari(n) && f(n) {
                return true;
            }
        }
    }
    false
}

/// Appends `p` to the first `n` points of `cands` unless it is there or
/// the list is full.
fn push_distinct(cands: &mut [Point; 16], n: &mut usize, p: Point) {
    if *n < cands.len() && !cands[..*n].contains(&p) {
        cands[*n] = p;
        *n += 1;
    }
}

/// Two-liberty fights next to the last move `l` (the opponent's), written
/// into `cands`: moves that give an own chain left with two liberties a
/// third (or capture a chain in atari next to it), and ataris of the last
/// move's chain, when it has two liberties, that it cannot escape by
/// extending (the escape leaves it one liberty). With `race`, also the
/// ataris of enemy chains with two liberties next to such an own chain
/// (a capturing race). Returns the count.
pub(crate) fn two_liberty_moves(
    board: &Board,
    color: Color,
    l: Point,
    race: bool,
    cands: &mut [Point; 16],
) -> usize {
    let opp = color.opponent();
    let mut n = 0;
    let mut push = |p: Point, cands: &mut [Point; 16]| push_distinct(cands, &mut n, p);
    for nb in l.neighbours_in(board.stone_neighbour_bits(l, color)) {
        let Some(libs) = board.two_liberties(nb) else {
            continue;
        };
        for (a, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if gains_third_liberty(board, a, color, other) && board.is_legal_empty(a, color) {
                push(a, cands);
            }
        }
        any_ataried_neighbour(board, nb, opp, 32, |sn| {
            if let Some(a) = board.atari_point(sn) {
                if board.is_legal_empty(a, color) {
                    push(a, cands);
                }
            }
            false
        });
        if race {
            for s in board.chain_iter(nb).take(32) {
                for e in s.neighbours() {
                    if board.get(e) != Some(opp) {
                        continue;
                    }
                    for a in board.two_liberties(e).into_iter().flatten() {
                        if board.is_legal_empty(a, color) && !board.is_self_atari(a, color) {
                            push(a, cands);
                        }
                    }
                }
            }
        }
    }
    let last_chain_libs = (board.get(l) == Some(opp))
        .then(|| board.two_liberties(l))
        .flatten()
        .filter(|_| !any_ataried_neighbour(board, l, color, 32, |_| true));
    if let Some(libs) = last_chain_libs {
        for (a, b) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if escape_fails(board, b, opp, a)
                && board.is_legal_empty(a, color)
                && !board.is_self_atari(a, color)
            {
                push(a, cands);
            }
        }
    }
    n
}

/// The fewest stones of each chain of a capturing race: smaller chains
/// with three liberties are mostly stones in contact, not a race.
const RACE_STONES: usize = 4;

/// The outside liberties of enemy chains in capturing races anywhere on the
/// board, for `color` to move, into `out`: an enemy chain of two to five
/// liberties beside an own chain of two to five, both of [`RACE_STONES`]
/// stones or more, in a race whoever moves first wins ([`unsettled`]).
/// Its liberties the own chain does not share, where `color` is not left
/// in atari, are the moves that decide such a race; the tree reads the
/// race out when its priors point there, as the playouts cannot.
pub(crate) fn board_races(board: &Board, color: Color, out: &mut Bitboard) {
    let opp = color.opponent();
    for p in board.first_stones(color) {
        let mut own = [p; 6];
        let k = board.first_liberties(p, &mut own);
        if !(2..=5).contains(&k) || board.chain_size(p) < RACE_STONES {
            continue;
        }
        let mut seen = [p; 8];
        let mut n_seen = 0;
        for s in board.chain_iter(p).take(64) {
            for e in s.neighbours_in(board.stone_neighbour_bits(s, opp)) {
                let id = board.chain_id(e);
                if seen[..n_seen].contains(&id) || n_seen == seen.len() {
                    continue;
                }
                seen[n_seen] = id;
                n_seen += 1;
                let mut theirs = [e; 6];
                let m = board.first_liberties(e, &mut theirs);
                if !(2..=5).contains(&m) || board.chain_size(e) < RACE_STONES {
                    continue;
                }
                let shared = theirs[..m].iter().filter(|a| own[..k].contains(a)).count();
                if !unsettled(k - shared, m - shared, shared) {
                    continue;
                }
                for &a in &theirs[..m] {
                    if !own[..k].contains(&a)
                        && !out.contains(a)
                        && board.is_legal_empty(a, color)
                        && !board.is_self_atari(a, color)
                    {
                        out.insert(a);
                    }
                }
            }
        }
    }
}

/// Whether a capturing race between chains without eyes, with `own` and
/// `theirs` outside liberties and `shared` ones, goes to whoever moves
/// first: with equal outside liberties the first to move wins it (or
/// makes seki); with two shared liberties or more, one outside liberty
/// more still loses the kill to seki if the other side moves first.
/// Otherwise the side ahead wins whoever starts, and a move there is
/// wasted.
fn unsettled(own: usize, theirs: usize, shared: usize) -> bool {
    own == theirs || (shared >= 2 && own.abs_diff(theirs) == 1)
}

/// Eye defence next to the last move `l` (the opponent's), written into
/// `cands`: an empty point `f` near `l` (next to it, or next to an enemy
/// stone next to it) where an enemy stone would now live a while (no
/// self-atari) and would make an own eye diagonal to `f` false. The last
/// move is often the approach that made `f` playable; `color` takes `f`
/// first, or captures an enemy stone in atari on the eye's diagonal.
/// Returns the count.
pub(crate) fn eye_fix_moves(
    board: &Board,
    color: Color,
    l: Point,
    cands: &mut [Point; 16],
) -> usize {
    let opp = color.opponent();
    let mut n = 0;
    let mut push = |p: Point, cands: &mut [Point; 16]| push_distinct(cands, &mut n, p);
    let mut check = |f: Point, cands: &mut [Point; 16]| {
        if !board.is_empty(f) {
            return;
        }
        for e in f.diagonals() {
            if !board.is_eyelike(e, color) {
                continue;
            }
            let (mut enemy, mut border) = (0, 0);
            for d in e.diagonals() {
                if !board.is_empty(d) && board.get(d).is_none() {
                    border = 1;
                } else if board.get(d) == Some(opp) {
                    if let Some(a) = board.atari_point(d) {
                        if board.is_legal_empty(a, color) {
                            push(a, cands);
                        }
                    } else {
                        enemy += 1;
                    }
                }
            }
            // True now, false once the enemy holds f.
            if enemy + border == 1
                && board.is_legal_empty(f, opp)
                && !board.is_self_atari(f, opp)
                && board.is_legal_empty(f, color)
                && !board.is_self_atari(f, color)
            {
                push(f, cands);
            }
        }
    };
    for nb in l.neighbours() {
        if board.is_empty(nb) {
            check(nb, cands);
        } else if board.get(nb) == Some(opp) {
            for f in nb.neighbours() {
                if f != l {
                    check(f, cands);
                }
            }
        }
    }
    n
}

/// Whether extending `color`'s chain in atari at `a` leaves it with two
/// liberties in a ladder that catches it.
pub(crate) fn escape_is_ladder(board: &Board, a: Point, color: Color) -> bool {
    // Cheap count first: only two liberties can make a ladder.
    let mut libs = Bitboard::EMPTY;
    for n in a.neighbours() {
        if board.is_empty(n) {
            libs.insert(n);
        } else if board.get(n) == Some(color) {
            // Four or more leave three once `a` is filled: no ladder.
            let mut found = [n; 4];
            let count = board.first_liberties(n, &mut found);
            if count == found.len() {
                return false;
            }
            for &q in &found[..count] {
                libs.insert(q);
            }
        } else if board.get(n).is_some() && board.in_atari(n) {
            // Extending with a capture: never a clean ladder.
            return false;
        }
    }
    libs.remove(a);
    if libs.count() != 2 {
        return false;
    }
    with_copy(board, |b| {
        b.play_unchecked(a, color);
        liberties_up_to::<3>(b, a) == 2 && ladder_caught(b, a, color)
    })
}

/// The vital point of an eye space next to `l`, surrounded by one colour,
/// that makes one eye only once the vital point is taken: three empty
/// points in a row or bent (the middle one), and with `largest` above 3
/// also the pyramid four, the bulky and crossed fives and the rabbity six
/// up to `largest` points (the point touching three or four others).
pub(crate) fn nakade_point(board: &Board, l: Point, largest: usize) -> Option<Point> {
    const MOST: usize = 6;
    let largest = largest.clamp(3, MOST);
    for start in l.neighbours_in(board.empty_neighbour_bits(l)) {
        if board.empty_neighbour_bits(start).count_ones() as usize >= largest {
            // The start and its empty neighbours already pass `largest`
            // (common in the open): too big, without the walk.
            continue;
        }
        // Collect the empty region up to `largest` points (neighbours in
        // `neighbours` order), and whether it touches stones of both colours.
        let mut region = [start; MOST];
        let mut len = 1;
        let mut i = 0;
        let (mut black, mut white) = (false, false);
        let mut too_big = false;
        while i < len && !too_big {
            let r = region[i];
            black |= board.stone_neighbour_bits(r, Color::Black) != 0;
            white |= board.stone_neighbour_bits(r, Color::White) != 0;
            for nb in r.neighbours_in(board.empty_neighbour_bits(r)) {
                if !region[..len].contains(&nb) {
                    if len == largest {
                        too_big = true;
                        break;
                    }
                    region[len] = nb;
                    len += 1;
                }
            }
            i += 1;
        }
        let region = &region[..len];
        if too_big || black && white || len < 3 || !killing_shape(region) {
            continue;
        }
        // The point touching the most others: two in a three-point space,
        // three or four in the larger ones (a square four has none).
        let degree = |p: Point| {
            region
                .iter()
                .filter(|&&q| p.neighbours().contains(&q))
                .count()
        };
        let vital = region.iter().copied().max_by_key(|&p| degree(p))?;
        if degree(vital) >= 2 && (len == 3 || degree(vital) >= 3) {
            return Some(vital);
        }
    }
    None
}

/// The stones `color`'s move at the empty point `p` would leave in atari
/// (`p` and the own chains next to it, at most six) and their one liberty,
/// when every other point around them is an enemy stone or the edge.
fn sacrificed_stones(board: &Board, p: Point, color: Color) -> Option<([Point; 6], usize, Point)> {
    let opp = color.opponent();
    let mut stones = [p; 6];
    let mut n = 1;
    for nb in p.neighbours() {
        if board.get(nb) != Some(color) || stones[..n].contains(&nb) {
            continue;
        }
        if n + board.chain_size(nb) > stones.len() {
            return None;
        }
        for s in board.chain_iter(nb) {
            stones[n] = s;
            n += 1;
        }
    }
    let mut lib = None;
    for &s in &stones[..n] {
        for q in s.neighbours() {
            if stones[..n].contains(&q) {
                continue;
            }
            match board.get(q) {
                Some(c) if c == opp => {}
                Some(_) => return None,
                None if board.is_empty(q) => {
                    if lib.is_some_and(|l| l != q) {
                        return None;
                    }
                    lib = Some(q);
                }
                None => {}
            }
        }
    }
    Some((stones, n, lib?))
}

/// Whether the enemy, capturing `stones` at `lib`, is left with their
/// space as its only eye space and that space makes one eye only: `lib`
/// touches nothing but the stones, enemy stones and the edge, and the
/// stones form a killing shape.
fn leaves_one_eye(board: &Board, stones: &[Point], lib: Point, color: Color) -> bool {
    let opp = color.opponent();
    let enclosed = lib.neighbours().iter().all(|&q| {
        stones.contains(&q)
            || board.get(q) == Some(opp)
            || !board.is_empty(q) && board.get(q).is_none()
    });
    enclosed && killing_shape(stones)
}

/// Whether `color`'s self-atari at the empty point `p` is a sacrifice worth
/// playing: a snapback (the capture leaves two or more enemy stones in
/// atari), or stones inside the enemy's eye space that, once captured,
/// leave a space of one eye only (a killing shape: up to three points, the
/// square and the pyramid four, the bulky and the crossed five, the rabbity
/// six). Only meaningful when `p` is a self-atari for `color`.
pub(crate) fn useful_sacrifice(board: &Board, p: Point, color: Color) -> bool {
    let Some((stones, n, lib)) = sacrificed_stones(board, p, color) else {
        return false;
    };
    if n == 1 && snapback(board, p, color, lib) {
        return true;
    }
    leaves_one_eye(board, &stones[..n], lib, color)
}

/// The move to play instead of `color`'s self-atari at `p`: the other
/// liberty of an enemy chain with two liberties next to `p` (take its
/// liberties from outside, as a race is won), else the other liberty of an
/// own chain with two next to `p` (the approach that makes `p` playable),
/// whichever is a sensible playout move and no self-atari itself.
pub(crate) fn self_atari_cousin(board: &Board, p: Point, color: Color) -> Option<Point> {
    let other_liberty = |owner: Color| {
        p.neighbours().into_iter().find_map(|nb| {
            let libs = board
                .two_liberties(nb)
                .filter(|_| board.get(nb) == Some(owner))?;
            let q = if libs[0] == p { libs[1] } else { libs[0] };
            (board.is_playout_move(q, color) && !board.is_self_atari(q, color)).then_some(q)
        })
    };
    other_liberty(color.opponent()).or_else(|| other_liberty(color))
}

/// Whether `color` at `p` breaks a false seki: stones and enemy chains
/// share their last two liberties, `p` and `lib`, the move puts both in
/// atari, and the enemy's capture at `lib` leaves it one eye only. An enemy
/// chain with any other liberty (an eye of its own) makes it a true seki,
/// which the sacrifice would only lose.
pub(crate) fn breaks_false_seki(board: &Board, p: Point, color: Color) -> bool {
    let Some((stones, n, lib)) = sacrificed_stones(board, p, color) else {
        return false;
    };
    let opp = color.opponent();
    let shared = |q: Point| {
        board.get(q) != Some(opp)
            || board
                .two_liberties(q)
                .is_some_and(|l| l.contains(&p) && l.contains(&lib))
    };
    n > 1
        && stones[..n]
            .iter()
            .all(|s| s.neighbours().iter().all(|&q| shared(q)))
        && leaves_one_eye(board, &stones[..n], lib, color)
}

/// Whether the enemy capturing `color`'s single stone at `p` (liberty
/// `lib`) is left with two or more stones in atari at `p`.
fn snapback(board: &Board, p: Point, color: Color, lib: Point) -> bool {
    let opp = color.opponent();
    // Cheap filter: every enemy chain next to p must be short of liberties.
    let short = p
        .neighbours()
        .iter()
        .all(|&q| board.get(q) != Some(opp) || liberties_up_to::<3>(board, q) <= 2);
    if !short {
        return false;
    }
    with_copy(board, |b| {
        b.play_unchecked(p, color);
        if !b.is_legal(lib, opp) {
            return false;
        }
        b.play_unchecked(lib, opp);
        b.is_empty(p) && b.in_atari(lib) && b.chain_size(lib) >= 2
    })
}

/// Whether an eye space of these points (at most six) makes one eye only
/// when the attacker plays first: any space of three points or fewer, the
/// square and pyramid fours, the bulky and crossed fives, the rabbity six.
fn killing_shape(points: &[Point]) -> bool {
    let mut edges = 0;
    let mut max_degree = 0;
    for &a in points {
        let degree = a.neighbours().iter().filter(|q| points.contains(q)).count();
        edges += degree;
        max_degree = max_degree.max(degree);
    }
    let edges = edges / 2;
    match points.len() {
        0..=3 => true,
        4 => edges == 4 || max_degree == 3,
        5 => edges == 5 || max_degree == 4,
        6 => edges == 6 && max_degree == 4,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::diagram_board;

    fn board(size: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let mut b = Board::new(size);
        for &(x, y) in black {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        for &(x, y) in white {
            b.play(Point::new(x, y), Color::White).unwrap();
        }
        b
    }

    /// Black's fourth stone makes a square four inside White's corner: once
    /// White captures at C1 the square is one eye.
    #[test]
    fn a_square_four_sacrifice_is_useful() {
        let b = board(
            7,
            &[(0, 0), (1, 0), (0, 1)],
            &[(3, 0), (2, 1), (1, 2), (0, 2)],
        );
        let p = Point::new(1, 1);
        assert!(b.is_self_atari(p, Color::Black));
        assert!(useful_sacrifice(&b, p, Color::Black));
    }

    /// A straight four along the edge leaves White two eyes once captured.
    #[test]
    fn a_straight_four_sacrifice_is_not() {
        let white = [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 0)];
        let b = board(7, &[(0, 0), (1, 0), (2, 0)], &white);
        let p = Point::new(3, 0);
        assert!(b.is_self_atari(p, Color::Black));
        assert!(!useful_sacrifice(&b, p, Color::Black));
    }

    /// A throw-in that White captures into a five-stone chain in atari.
    #[test]
    fn a_snapback_is_useful() {
        let black = [(1, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 1), (5, 0)];
        let white = [(2, 0), (2, 1), (4, 0), (4, 1)];
        let b = board(7, &black, &white);
        let p = Point::new(3, 0);
        assert!(b.is_self_atari(p, Color::Black));
        assert!(useful_sacrifice(&b, p, Color::Black));
    }

    /// A stone whose last liberty opens onto the board is no sacrifice.
    #[test]
    fn an_open_self_atari_is_not_useful() {
        let b = board(7, &[], &[(2, 3), (3, 2), (4, 3)]);
        let p = Point::new(3, 3);
        assert!(b.is_self_atari(p, Color::Black));
        assert!(!useful_sacrifice(&b, p, Color::Black));
    }

    /// White's last move on the edge connects the stone beside the
    /// falsifying point, so a White stone there would no longer be in
    /// atari and would make Black's eye false: Black takes the point first.
    #[test]
    fn an_eye_the_last_move_threatens_is_defended() {
        let black = [(0, 0), (1, 0), (0, 1), (2, 1), (3, 1), (0, 2), (1, 2)];
        let white = |with_diagonal: bool| {
            let mut w = vec![(3, 0), (4, 0), (5, 0), (4, 1), (3, 2)];
            if with_diagonal {
                w.push((2, 2));
            }
            w
        };
        let l = Point::new(4, 0);
        let mut cands = [l; 16];
        let b = board(7, &black, &white(true));
        assert_eq!(eye_fix_moves(&b, Color::Black, l, &mut cands), 1);
        assert_eq!(cands[0], Point::new(2, 0));
        // With no White stone on the eye's other diagonal it stays true.
        let b = board(7, &black, &white(false));
        assert_eq!(eye_fix_moves(&b, Color::Black, l, &mut cands), 0);
    }

    /// Corner eye spaces of Black's on a 5x5 board, the last move Black's
    /// stone next to them: the vital point of each shape that has one.
    #[test]
    fn nakade_points_of_larger_eye_spaces() {
        let vital = |space: &[(usize, usize)], largest: usize| {
            let mut b = Board::new(5);
            let space: Vec<Point> = space.iter().map(|&(x, y)| Point::new(x, y)).collect();
            let mut wall = Vec::new();
            for &p in &space {
                for q in p.neighbours() {
                    if b.contains(q) && !space.contains(&q) && !wall.contains(&q) {
                        wall.push(q);
                    }
                }
            }
            for &q in &wall {
                b.set_stone(q, Some(Color::Black));
            }
            nakade_point(&b, wall[0], largest)
        };
        let pyramid = [(0, 0), (1, 0), (2, 0), (1, 1)];
        assert_eq!(vital(&pyramid, 6), Some(Point::new(1, 0)));
        assert_eq!(vital(&pyramid, 3), None, "three points only");
        let bulky = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)];
        assert_eq!(vital(&bulky, 6), Some(Point::new(1, 1)));
        let rabbity = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)];
        assert_eq!(vital(&rabbity, 6), Some(Point::new(1, 1)));
        assert_eq!(vital(&[(0, 0), (1, 0), (0, 1), (1, 1)], 6), None, "square");
        assert_eq!(
            vital(&[(0, 0), (1, 0), (2, 0), (2, 1)], 6),
            None,
            "bent four"
        );
        assert_eq!(vital(&[(0, 0), (1, 0), (2, 0)], 6), Some(Point::new(1, 0)));
    }

    #[test]
    fn killing_shapes() {
        for (shape, kills) in [
            (&[(0, 0), (1, 0), (2, 0)][..], true),
            (&[(1, 0), (0, 1), (1, 1), (2, 1)], true), // pyramid
            (&[(0, 0), (1, 0), (2, 0), (2, 1)], false), // bent four
            (&[(0, 0), (1, 0), (0, 1), (1, 1), (2, 0)], true), // bulky five
            (&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], true), // crossed five
            (&[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)], false), // Y five
            (&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)], true), // rabbity six
            (&[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)], false), // rectangle
        ] {
            let points: Vec<Point> = shape.iter().map(|&(x, y)| Point::new(x, y)).collect();
            assert_eq!(killing_shape(&points), kills, "{shape:?}");
        }
    }

    #[test]
    fn a_self_atari_gives_way_to_the_outside_liberty() {
        let rows = [
            ".XO..", // A5: White's self-atari
            "OX...", // C4: Black's other liberty
            ".O...", //
            ".....", //
            ".....", //
        ];
        let b = diagram_board(5, &rows);
        let (a5, c4) = (Point::new(0, 0), Point::new(2, 1));
        assert!(b.is_self_atari(a5, Color::White));
        assert_eq!(self_atari_cousin(&b, a5, Color::White), Some(c4));
        // For Black, A5 is no self-atari; asked anyway, its own chain's
        // other liberty C4 is the approach.
        assert_eq!(self_atari_cousin(&b, a5, Color::Black), Some(c4));
    }

    /// Two columns of five in a capturing race, each walled in by the
    /// other's stones: Black's has three liberties, White's `white_libs`
    /// (three or four).
    fn race_board(white_libs: usize) -> Board {
        let row2 = if white_libs == 3 {
            ".OXOX...."
        } else {
            ".OXO....."
        };
        let rows = [
            "..XO.....", //
            "..XO.....", //
            row2,        //
            "OOXOXX...", //
            ".OXOX....", //
            ".........", //
            ".........", //
            ".........", //
            ".........", //
        ];
        diagram_board(9, &rows)
    }

    fn sorted(mut points: Vec<Point>) -> Vec<Point> {
        points.sort();
        points
    }

    #[test]
    fn a_race_whoever_starts_wins_is_found_on_the_enemy_outside_liberties() {
        let b = race_board(3);
        // White's column's three liberties. The walling chain, with one
        // outside liberty more than Black's column and none shared beyond
        // one, wins its race whoever starts: no move there.
        let want = sorted(vec![Point::new(4, 0), Point::new(4, 1), Point::new(3, 5)]);
        let mut board_wide = Bitboard::EMPTY;
        board_races(&b, Color::Black, &mut board_wide);
        assert_eq!(sorted(board_wide.iter().collect()), want);
    }

    #[test]
    fn a_race_lost_whoever_starts_is_left_alone() {
        let b = race_board(4);
        let mut board_wide = Bitboard::EMPTY;
        board_races(&b, Color::Black, &mut board_wide);
        assert!(board_wide.is_empty());
    }

    #[test]
    fn two_shared_liberties_make_one_more_outside_liberty_unsettled() {
        assert!(unsettled(2, 2, 0));
        assert!(!unsettled(3, 2, 1));
        assert!(unsettled(3, 2, 2));
        assert!(!unsettled(4, 2, 2));
    }

    #[test]
    fn stones_in_contact_are_no_race() {
        let rows = [".....", ".....", "..X..", "..O..", "....."];
        let b = diagram_board(5, &rows);
        let mut board_wide = Bitboard::EMPTY;
        board_races(&b, Color::Black, &mut board_wide);
        assert!(board_wide.is_empty());
    }
}

//! Local reading the policy and the learned features share: ladders,
//! liberties gained by a move, two-liberty fights, nakade vital points.

use crate::board::{Bitboard, Board, Color, Point};

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
    let libs = board.liberties_bb(p);
    if libs.count() != 2 {
        return libs.count() < 2;
    }
    for a in libs.iter() {
        if !board.is_legal(a, attacker) {
            continue;
        }
        let mut b = board.clone();
        b.play_unchecked(a, attacker);
        if b.get(p) != Some(defender) || b.in_atari(a) {
            // Captured at once, or the ataring stone can be taken: not a clean ladder.
            if b.get(p) != Some(defender) {
                return true;
            }
            continue;
        }
        // The defender may capture an attacker next to the chain instead.
        let mut counter = false;
        for s in b.chain_iter(p) {
            for n in s.neighbours() {
                if b.get(n) == Some(attacker) && b.in_atari(n) {
                    counter = true;
                }
            }
        }
        if counter {
            continue;
        }
        let Some(e) = b.atari_point(p) else {
            continue;
        };
        if !b.is_legal(e, defender) {
            return true;
        }
        b.play_unchecked(e, defender);
        match b.liberty_count(p) {
            0 | 1 => return true,
            2 if ladder_step(&b, p, defender, depth + 1) => return true,
            _ => {}
        }
    }
    false
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
        for n in s.neighbours() {
            if board.get(n) == Some(color) && board.in_atari(n) && f(n) {
                return true;
            }
        }
    }
    false
}

/// Two-liberty fights next to the last move `l` (the opponent's), written
/// into `cands`: moves that give an own chain left with two liberties a
/// third (or capture a chain in atari next to it), and ataris of the last
/// move's chain, when it has two liberties, that it cannot escape by
/// extending (the escape leaves it one liberty). Returns the count.
pub(crate) fn two_liberty_moves(
    board: &Board,
    color: Color,
    l: Point,
    cands: &mut [Point; 16],
) -> usize {
    let opp = color.opponent();
    let mut n = 0;
    let mut push = |p: Point, cands: &mut [Point; 16]| {
        if n < cands.len() && !cands[..n].contains(&p) {
            cands[n] = p;
            n += 1;
        }
    };
    for nb in l.neighbours() {
        if board.get(nb) != Some(color) {
            continue;
        }
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
    }
    if let Some(libs) = board.two_liberties(l).filter(|_| {
        board.get(l) == Some(opp) && !any_ataried_neighbour(board, l, color, 32, |_| true)
    }) {
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

/// Whether extending `color`'s chain in atari at `a` leaves it with two
/// liberties in a ladder that catches it.
pub(crate) fn escape_is_ladder(board: &Board, a: Point, color: Color) -> bool {
    // Cheap count first: only two liberties can make a ladder.
    let mut libs = Bitboard::EMPTY;
    for n in a.neighbours() {
        if board.is_empty(n) {
            libs.insert(n);
        } else if board.get(n) == Some(color) {
            libs |= board.liberties_bb(n);
        } else if board.get(n).is_some() && board.in_atari(n) {
            // Extending with a capture: never a clean ladder.
            return false;
        }
    }
    libs.remove(a);
    if libs.count() != 2 {
        return false;
    }
    let mut b = board.clone();
    b.play_unchecked(a, color);
    b.liberty_count(a) == 2 && ladder_caught(&b, a, color)
}

/// The vital point of an eye space of exactly three empty points in a row or
/// bent, next to `l`, surrounded by one colour: the middle point.
pub(crate) fn nakade_point(board: &Board, l: Point) -> Option<Point> {
    for start in l.neighbours() {
        if !board.is_empty(start) {
            continue;
        }
        // Collect the empty region up to 4 points.
        let mut region = [start; 4];
        let mut len = 1;
        let mut i = 0;
        let mut owner: Option<Color> = None;
        let mut too_big = false;
        while i < len {
            for nb in region[i].neighbours() {
                if board.is_empty(nb) {
                    if !region[..len].contains(&nb) {
                        if len == 4 {
                            too_big = true;
                            break;
                        }
                        region[len] = nb;
                        len += 1;
                    }
                } else if let Some(c) = board.get(nb) {
                    if owner.is_some_and(|o| o != c) {
                        too_big = true;
                        break;
                    }
                    owner = Some(c);
                }
            }
            if too_big {
                break;
            }
            i += 1;
        }
        if too_big || len != 3 {
            continue;
        }
        // The point touching both others.
        for &p in &region[..3] {
            let touching = region[..3]
                .iter()
                .filter(|&&q| q != p && p.neighbours().contains(&q))
                .count();
            if touching == 2 {
                return Some(p);
            }
        }
    }
    None
}

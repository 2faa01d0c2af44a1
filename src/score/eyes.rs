//! Counting a group's eyes in the final position, the way a player does at
//! a glance: areas of empty points and dead enemy stones enclosed by the
//! group alone, a one-point eye counted only when it is not false.

use crate::board::{Bitboard, Board, Color, Point};

/// Most points an enclosed area may have to count as one eye; a bigger one
/// counts as two (room to make two eyes whoever starts).
const ONE_EYE: usize = 6;

/// The group of `c` through `p`: its chains joined through the areas
/// enclosed by `c` alone.
pub(crate) struct Group {
    /// The group's stones.
    pub chains: Bitboard,
    /// Its eyes, each counted as described in the module.
    pub eyes: u32,
}

/// The group through the stone on `p` and its eyes. `gone` holds enemy
/// stones already judged dead: they belong to the areas they lie in, and a
/// diagonal point they occupy does not make an eye false.
pub(crate) fn group(board: &Board, p: Point, gone: Bitboard) -> Group {
    let on = Bitboard::on_board(board.size());
    let Some(c) = board.get(p) else {
        return Group {
            chains: Bitboard::EMPTY,
            eyes: 0,
        };
    };
    let own = board.stones(c);
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    // Empty points and enemy stones already dead.
    let not_own = on & (!stones | gone);
    let mut chains = Bitboard::flood_fill(Bitboard::single(p), own);
    let mut seen = Bitboard::EMPTY;
    let mut eyes = 0;
    while let Some(q) = (chains.neighbours() & not_own & !seen).first() {
        let area = Bitboard::flood_fill(Bitboard::single(q), not_own);
        seen |= area;
        // Enclosed by `c` alone: every point around it is a stone of `c`.
        let rim = area.neighbours() & on & !area;
        if !(rim & !own).is_empty() {
            continue;
        }
        chains |= Bitboard::flood_fill(rim, own);
        eyes += match area.count() {
            1 => u32::from(!false_eye(board, q, c, gone)),
            n if n <= ONE_EYE => 1,
            _ => 2,
        };
    }
    Group { chains, eyes }
}

/// Whether the one-point eye `q` of `c` is false: enemy stones (not
/// already dead) on two of its diagonals, or on one at the edge.
fn false_eye(board: &Board, q: Point, c: Color, gone: Bitboard) -> bool {
    let on_board: Vec<Point> = q
        .diagonals()
        .into_iter()
        .filter(|&d| board.contains(d))
        .collect();
    let enemy = on_board
        .iter()
        .filter(|&&d| board.get(d) == Some(c.opponent()) && !gone.contains(d))
        .count();
    if on_board.len() < 4 {
        enemy >= 1
    } else {
        enemy >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::score::tests::board_9x9 as board;

    #[test]
    fn two_one_point_eyes_join_the_chains_around_them() {
        let b = board(&[".X.XO....", "XXXXO....", "OOOOO...."]);
        let g = group(&b, Point::new(1, 0), Bitboard::EMPTY);
        assert_eq!(g.eyes, 2);
        // B9, D9 and A8-D8.
        assert_eq!(g.chains.count(), 6);
    }

    #[test]
    fn a_false_eye_counts_unless_the_stone_making_it_false_is_dead() {
        // C9's diagonal D8 is White's: on the edge, that makes it false.
        let b = board(&[".X.XO....", "XXXOO....", "OOOO....."]);
        assert_eq!(group(&b, Point::new(1, 0), Bitboard::EMPTY).eyes, 1);
        let d8 = Bitboard::single(Point::new(3, 1));
        assert_eq!(group(&b, Point::new(1, 0), d8).eyes, 2);
    }

    #[test]
    fn a_big_enclosed_area_counts_as_two_eyes_an_open_one_as_none() {
        let corner = board(&["....X....", "....X....", "XXXXX....", "OOOOO...."]);
        assert_eq!(group(&corner, Point::new(4, 0), Bitboard::EMPTY).eyes, 2);
        let open = board(&["", "", "", "....X...O"]);
        let g = group(&open, Point::new(4, 3), Bitboard::EMPTY);
        assert_eq!((g.eyes, g.chains.count()), (0, 1));
    }

    #[test]
    fn an_empty_point_has_no_group() {
        let g = group(&Board::new(9), Point::new(4, 4), Bitboard::EMPTY);
        assert_eq!((g.eyes, g.chains.count()), (0, 0));
    }
}

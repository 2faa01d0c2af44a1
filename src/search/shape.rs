//! 3x3 shapes: the neighbourhood code of a point and the classic MoGo
//! shapes the playouts and priors play. Shared by the policy and the
//! learned patterns' features, below both.

use crate::board::{Board, Point, STRIDE};

/// Number of 3x3 neighbourhoods: 8 neighbours, 2 bits each.
pub const PATTERN3_COUNT: usize = 1 << 16;

/// Cell codes of a 3x3 pattern.
pub(crate) const EMPTY: u16 = 0;
pub(crate) const BLACK: u16 = 1;
pub(crate) const WHITE: u16 = 2;
pub(crate) const EDGE: u16 = 3;

/// Offsets of the 8 neighbours, in pattern order: NW, N, NE, W, E, SW, S, SE.
pub(crate) const RING: [isize; 8] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize),
    -(STRIDE as isize) + 1,
    -1,
    1,
    STRIDE as isize - 1,
    STRIDE as isize,
    STRIDE as isize + 1,
];

#[inline]
pub(crate) fn offset(p: Point, d: isize) -> Point {
    Point::from_index((p.index() as isize + d) as usize)
}

/// The 3x3 neighbourhood code of `p`: 2 bits per neighbour (empty, black,
/// white, edge), NW first, SE last.
#[inline]
pub fn pattern3_code(board: &Board, p: Point) -> usize {
    board.pattern3_code(p)
}

/// The classic MoGo shapes (Gelly et al. 2006), written with `X` and `O` for
/// the two colours (both ways round), `x` not X, `o` not O, `#` edge, `?`
/// anything; the centre is the move.
pub(crate) const MOGO_PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane enclosing
    ["XO.", "...", "?.?"], // hane, no cut
    ["XO?", "X..", "x.?"], // magari
    [".O.", "X..", "..."], // diagonal attachment
    ["XO?", "O.o", "?o?"], // unprotected cut
    ["XO?", "O.X", "???"], // peeped cut
    ["?X?", "O.O", "ooo"], // cut
    ["OX?", "o.O", "???"], // keima cut
    ["X.?", "O.?", "##?"], // edge chase
    ["OX?", "X.O", "###"], // edge block of a cut
    ["?X?", "x.O", "###"], // edge block of a connection
    ["?XO", "x.x", "###"], // edge sagari
    ["?OX", "X.O", "###"], // edge cut
];

fn cell_options(c: u8) -> &'static [u16] {
    match c {
        b'X' => &[BLACK],
        b'O' => &[WHITE],
        b'.' => &[EMPTY],
        b'#' => &[EDGE],
        b'x' => &[EMPTY, WHITE],
        b'o' => &[EMPTY, BLACK],
        _ => &[EMPTY, BLACK, WHITE, EDGE],
    }
}

/// Marks every code matching `spec` in any rotation, reflection and colouring.
pub(crate) fn add_pattern(table: &mut [f32], spec: &[&str; 3], weight: f32) {
    let grid: Vec<Vec<u8>> = spec.iter().map(|r| r.bytes().collect()).collect();
    for swap in [false, true] {
        for sym in 0..8 {
            // The ring in pattern order, read from the transformed grid.
            let mut cells = [b'?'; 8];
            let ring_pos = [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ];
            for (i, &(r, c)) in ring_pos.iter().enumerate() {
                let (mut r, mut c) = (r, c);
                if sym & 4 != 0 {
                    c = -c;
                }
                for _ in 0..(sym & 3) {
                    (r, c) = (c, -r);
                }
                let mut ch = grid[(r + 1) as usize][(c + 1) as usize];
                if swap {
                    ch = match ch {
                        b'X' => b'O',
                        b'O' => b'X',
                        b'x' => b'o',
                        b'o' => b'x',
                        other => other,
                    };
                }
                cells[i] = ch;
            }
            let mut codes = vec![0usize];
            for (i, &ch) in cells.iter().enumerate() {
                let opts = cell_options(ch);
                codes = codes
                    .iter()
                    .flat_map(|&c| opts.iter().map(move |&o| c | (o as usize) << (2 * i)))
                    .collect();
            }
            for c in codes {
                table[c] = table[c].max(weight);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, FastRng};

    #[test]
    fn pattern3_code_reads_the_ring_cell_by_cell() {
        let mut rng = FastRng::new(3);
        for size in [1, 2, 5, 9, 19, 25] {
            let board = crate::board::scattered_board(size, &mut rng);
            for p in board.points() {
                let mut expected = 0;
                for (i, &d) in RING.iter().enumerate() {
                    let q = offset(p, d);
                    let cell = match board.get(q) {
                        Some(Color::Black) => BLACK,
                        Some(Color::White) => WHITE,
                        None if board.is_empty(q) => EMPTY,
                        None => EDGE,
                    };
                    expected |= (cell as usize) << (2 * i);
                }
                assert_eq!(pattern3_code(&board, p), expected);
            }
        }
    }
}

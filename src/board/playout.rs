//! Uniformly random light playouts: the rules core's throughput measure and
//! a seeded random-game generator for tests.

use super::board::Board;
use super::point::{Color, Point};

/// A small, fast, seedable random generator (xorshift64*), good enough for
/// playouts and reproducible across platforms.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from a seed (any value, zero included).
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// How a light playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Moves played (passes excluded).
    pub moves: usize,
    /// Whether it stopped at the move cap instead of two passes.
    pub capped: bool,
}

/// Plays random legal moves that fill no true eye of the mover, starting
/// with `to_move`, until both players pass in a row or `max_moves` stones
/// have been played. Simple ko only.
pub fn light_playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut FastRng,
    max_moves: usize,
) -> PlayoutResult {
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 {
        if moves >= max_moves {
            return PlayoutResult {
                moves,
                capped: true,
            };
        }
        match random_move(board, to_move, rng) {
            Some(p) => {
                board.play_unchecked(p, to_move);
                passes = 0;
                moves += 1;
            }
            None => {
                board.clear_ko();
                passes += 1;
            }
        }
        to_move = to_move.opponent();
    }
    PlayoutResult {
        moves,
        capped: false,
    }
}

/// A uniformly random legal move for `color` that fills none of its true
/// eyes, or `None` when there is no such move.
#[inline]
pub fn random_move(board: &Board, color: Color, rng: &mut FastRng) -> Option<Point> {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.below(n);
    for k in 0..n {
        let mut i = start + k;
        if i >= n {
            i -= n;
        }
        let p = Point::from_index(empties[i] as usize);
        if board.is_legal_empty(p, color) && !board.is_eye(p, color) {
            return Some(p);
        }
    }
    None
}

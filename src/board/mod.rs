//! The rules core: points, bitboards, Zobrist keys, the board, rule sets and
//! game history. It knows nothing of counting, search or GTP.

mod point;

pub use point::{Color, Move, Point, MAX_SIZE, SLOTS, STRIDE};

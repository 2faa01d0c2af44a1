//! The rules core: points, bitboards, Zobrist keys, the board, rule sets and
//! game history. It knows nothing of counting, search or GTP.
//!
//! ```
//! use kosumi::board::{Color, Game, Move, Point, Rules};
//! let mut game = Game::new(9, Rules::japanese());
//! game.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
//! assert_eq!(game.board().get(Point::new(4, 4)), Some(Color::Black));
//! assert_eq!(game.to_move(), Color::White);
//! ```

mod bitboard;
#[allow(clippy::module_inception)]
mod board;
mod game;
mod playout;
mod point;
mod result;
mod rng;
mod rules;
mod vertex;
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::{Board, InvariantError, PlayError, UndoLog};
pub use game::{fixed_handicap, traditional_handicap, Game};
pub use playout::{light_playout, random_move, PlayoutResult};
pub use point::{Color, Move, NeighboursIn, Point, MAX_SIZE, SLOTS, STRIDE};
pub use result::{GameResult, GameResultError};
pub use rng::{FastRng, DEFAULT_SEED};
pub use rules::{KoRule, RuleSet, Rules, Scoring, UnknownRules};
pub use vertex::{Vertex, VertexError};

/// A board of `size` with about half its points tried: random points and
/// colours, each played when legal (captures happen as in a game).
#[cfg(test)]
pub(crate) fn scattered_board(size: usize, rng: &mut FastRng) -> Board {
    let mut board = Board::new(size);
    for _ in 0..size * size / 2 {
        let p = Point::new(rng.below(size), rng.below(size));
        let c = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        if board.is_legal(p, c) {
            board.play_unchecked(p, c);
        }
    }
    board
}

/// The stones of a test diagram (`X` Black, `O` White, anything else
/// empty; whitespace ignored; row 0 is the top).
#[cfg(test)]
pub(crate) fn diagram_stones<'a>(rows: &'a [&'a str]) -> impl Iterator<Item = (Point, Color)> + 'a {
    rows.iter().enumerate().flat_map(|(y, row)| {
        row.chars()
            .filter(|c| !c.is_whitespace())
            .enumerate()
            .filter_map(move |(x, c)| match c {
                'X' => Some((Point::new(x, y), Color::Black)),
                'O' => Some((Point::new(x, y), Color::White)),
                _ => None,
            })
    })
}

/// A `size` board holding the stones of a test diagram (see
/// [`diagram_stones`]), set without captures.
#[cfg(test)]
pub(crate) fn diagram_board(size: usize, rows: &[&str]) -> Board {
    let mut b = Board::new(size);
    for (p, color) in diagram_stones(rows) {
        b.set_stone(p, Some(color));
    }
    b
}

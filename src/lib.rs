//! kosumi: a Go engine with a bitboard rules core, Monte Carlo tree search,
//! the Go Text Protocol and Japanese counting.
//!
//! The layers depend one way: [`board`] (rules core) ← [`score`] (counting)
//! ← [`search`] ← [`gtp`]. The `kosumi` command line is a separate package
//! built on this library (`cli/` in the repository).
//!
//! A game played through the rules core and counted under Japanese rules:
//! Black walls off four columns, White three, both pass.
//!
//! ```
//! use kosumi::board::{Color, Game, Move, Point, Rules};
//!
//! let mut game = Game::new(9, Rules::parse("japanese").unwrap());
//! game.set_komi(6.5);
//! for y in 0..9 {
//!     game.play(Color::Black, Move::Play(Point::new(4, y))).unwrap();
//!     game.play(Color::White, Move::Play(Point::new(5, y))).unwrap();
//! }
//! // An occupied point is refused, and the game goes on.
//! assert!(game.play(Color::Black, Move::Play(Point::new(4, 4))).is_err());
//! game.play(Color::Black, Move::Pass).unwrap();
//! game.play(Color::White, Move::Pass).unwrap();
//! assert!(game.is_over());
//!
//! // Black: 4 columns of territory (36 points); White: 3 (27) plus komi.
//! // The referee is the judge behind GTP `final_score`, which answers this.
//! let score = kosumi::search::referee().final_score(&game);
//! assert_eq!((score.black, score.white), (36.0, 33.5));
//! assert_eq!(score.to_string(), "B+2.5");
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod gtp;
pub mod score;
pub mod search;
pub mod sgf;

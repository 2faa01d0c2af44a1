//! kosumi: a Go engine with a bitboard rules core, Monte Carlo tree search,
//! the Go Text Protocol and Japanese counting.
//!
//! The layers depend one way: [`board`] (rules core) ← [`score`] (counting)
//! ← [`search`] ← [`gtp`] and [`cli`].
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod gtp;
pub mod score;
pub mod search;
pub mod sgf;

//! Monte Carlo tree search: the player behind `genmove` and analysis.
//!
//! The GTP layer sees only the types of this file: [`Searcher`] with its
//! [`SearchParams`], [`Limits`], [`Clock`] and the [`Analysis`] it reports.

use crate::board::{Color, Game, Move};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Settings a user gives from the command line or GTP.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Search threads (default: all cores).
    pub threads: usize,
    /// Node memory cap in bytes.
    pub max_memory: usize,
    /// Seed of the playout generators; with one thread and a playout limit
    /// the search is fully deterministic.
    pub seed: u64,
    /// Resign when the win rate stays below this (0 disables resigning).
    pub resign_threshold: f64,
    /// Playouts per move when no clock and no time per move is set.
    pub playouts: Option<u64>,
    /// Seconds per move when no clock is set.
    pub time_per_move: Option<f64>,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// No progress lines on stderr.
    pub quiet: bool,
}

/// What bounds one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
}

/// One candidate move in an analysis, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Win rate for the player to move, in [0, 1].
    pub winrate: f64,
    /// Prior probability, in [0, 1].
    pub prior: f64,
    /// Lower confidence bound of the win rate.
    pub lcb: f64,
    /// Expected score lead for the player to move, in points.
    pub score_lead: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// A snapshot of the search: what analysis streams and logs report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Total playouts so far.
    pub playouts: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// Win rate of the player to move at the root, in [0, 1].
    pub winrate: f64,
    /// Expected score lead of the player to move.
    pub score_lead: f64,
    /// Candidate moves, best first.
    pub candidates: Vec<Candidate>,
    /// Ownership per board point, row by row from the top-left, in [-1, 1],
    /// positive for Black. Empty when not computed.
    pub ownership: Vec<f64>,
}

/// The move the player chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (or pass).
    Play(Move),
    /// Resign the game.
    Resign,
}
mod interim;
pub use interim::{Clock, Searcher};

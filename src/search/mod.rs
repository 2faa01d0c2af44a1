//! Monte Carlo tree search: the player behind `genmove` and analysis.
//!
//! The GTP layer sees only the types of this file: [`Searcher`] with its
//! [`SearchParams`], [`Limits`], [`Clock`] and the [`Analysis`] it reports.
//! The Go knowledge (priors, playout rules, 3x3 shapes) lives in [`policy`].
//!
//! # How it plays
//! - **Tree**: UCT with RAVE (Gelly and Silver's blend, equivalence 1000
//!   up to 13x13 and 3000 above;
//!   a move played soon after the node weighs up to 4 times one played at
//!   the playout's end, `search.rave_distance`) and
//!   priors given as virtual playouts, offset from the parent's value. The
//!   tree is shared by all threads without locks (atomic counters, virtual
//!   loss, one thread expands a node while the others play out from it).
//! - **Priors**: tactics, 3x3 shapes and distances ([`policy`]), plus the
//!   move patterns learned from strong games ([`patterns`]): each move's
//!   Bradley-Terry probability among the candidates adds virtual wins in
//!   proportion to its square root (150 for a sure move), as Pachi weighs
//!   its patterns. `--patterns off` leaves them out.
//! - **Playouts**: capture the last move's chain in atari, save own chains
//!   it ataried (not into a ladder), take what the own previous move
//!   ataried, nakade vital points, MoGo 3x3 shapes around the last move,
//!   else random moves that fill no own true eye and are no pointless
//!   self-atari; a mercy rule ends lopsided playouts. Further rules (a
//!   ladder read before escaping, counter-ataris in races, shapes next to
//!   the own previous move, useful sacrifices, ko retakes, last good reply)
//!   are named parameters, off until a match shows they pay for their cost.
//! - **Value**: winning under the game's rules, plus a small share of the
//!   score centred on the expected result. Playouts are counted by area;
//!   under territory rules (Japanese, Swedish) the stones placed in the
//!   game and the tree are charged (territory plus prisoners equals area
//!   minus stones placed), so filling one's own territory or throwing in
//!   dead stones costs a point as it should, while the stones a playout
//!   puts into its own territory cost nothing.
//! - **Dynamic komi** (`dynkomi.rs`): when far ahead (and, if switched
//!   on, in handicap games) the win part of the value judges
//!   the playouts against a shifted komi, so that the search still tells a
//!   move that keeps the lead from one that gives it away; every reported
//!   figure keeps the real komi.
//! - **Ending**: the pass is a move of the tree, tried whenever it could end
//!   the game. The player passes when passing keeps the win rate and loses no
//!   points (before the opponent passed: only in won games), and whenever
//!   the referee's count of the position says a pass wins once the game can
//!   end (the opponent passed, or every border is closed under territory
//!   counting: see `ending.rs`); in the KGS
//!   cleanup phase it counts by area and captures dead stones first. It
//!   resigns after three own moves below `resign_threshold`, never in the
//!   first fifth of the board's points in moves.
//! - **Time**: [`Clock::budget`] per move, longer when the two best moves are
//!   close, shorter when the best cannot be overtaken; a fixed
//!   `--time-per-move` is spent whole.
//! - **Memory**: nodes live in an arena capped by `max_memory`; when full the
//!   tree stops growing and the search goes on. Between moves the subtree of
//!   the new position is kept (after the opponent's move, after `undo` while
//!   the old root is still held); a third of the cap is kept for copying it.

pub mod config;
mod dynkomi;
mod ending;
pub mod level;
pub mod patterns;
pub mod policy;
mod referee;
mod replies;
mod searcher;
pub mod shape;
pub mod tactics;
mod time;
mod tree;

pub use config::{ParamError, SearchConfig};
pub use level::{Level, LevelError};
pub use policy::Policy;
pub use referee::referee;
pub use searcher::{default_playouts, Searcher};
pub use time::{Clock, Plan};

use crate::board::{Move, DEFAULT_SEED};
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
    /// No progress lines or move summaries on stderr.
    pub quiet: bool,
    /// Playing strength ([`Level::MAX`]: full, the other settings decide
    /// the budget; below it the level's own budget and move choice).
    pub level: Level,
}

impl Default for SearchParams {
    /// All cores, `min(2 GiB, RAM / 4)` of node memory, fixed seed, resign
    /// below 10%, no playout or time limit (the searcher picks a default),
    /// full strength.
    fn default() -> SearchParams {
        SearchParams {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_memory: default_max_memory(),
            seed: DEFAULT_SEED,
            resign_threshold: 0.1,
            playouts: None,
            time_per_move: None,
            ponder: false,
            quiet: false,
            level: Level::MAX,
        }
    }
}

/// `min(2 GiB, RAM / 4)`, from `/proc/meminfo`; 1 GiB when RAM is unknown.
pub fn default_max_memory() -> usize {
    const GIB: usize = 1 << 30;
    let ram = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<usize>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    match ram {
        Some(bytes) if bytes > 0 => (bytes / 4).min(2 * GIB),
        _ => GIB,
    }
}

/// What bounds one search, and which first moves it may consider.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// When not empty, the only first moves searched (Leela Zero's `allow`).
    pub allow: Vec<Move>,
    /// First moves never searched (Leela Zero's `avoid`).
    pub avoid: Vec<Move>,
    /// Also measure each candidate's ownership, from the playouts through it.
    pub move_ownership: bool,
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
    /// Its probability in [`Analysis::policy`], in [0, 1].
    pub prior: f64,
    /// Lower confidence bound of the win rate.
    pub lcb: f64,
    /// Expected score lead for the player to move, in points.
    pub score_lead: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Playouts through each move of `pv`.
    pub pv_visits: Vec<u64>,
    /// Standard deviation of the final scores of this search's playouts
    /// through the move (0 before two of them).
    pub score_stdev: f64,
    /// Ownership per board point, as [`Analysis::ownership`], from the
    /// playouts through the move; empty unless asked for
    /// ([`Limits::move_ownership`]).
    pub ownership: Vec<f64>,
}

/// A snapshot of the search: what analysis streams and logs report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Total playouts so far.
    pub playouts: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// Win rate of the player to move at the root, in [0, 1]: the best
    /// candidate's.
    pub winrate: f64,
    /// Expected score lead of the player to move: the best candidate's.
    pub score_lead: f64,
    /// The root's own values over all its playouts (every candidate's,
    /// weighted by visits, as KataGo's `rootInfo`): visits, win rate and
    /// score lead of the player to move, and the standard deviation of this
    /// search's final scores.
    pub root: RootValues,
    /// Candidate moves, best first.
    pub candidates: Vec<Candidate>,
    /// Ownership per board point, row by row from the top-left, in [-1, 1],
    /// positive for Black. Empty when not computed.
    pub ownership: Vec<f64>,
    /// Probability of every root move the search may play, visited or not,
    /// in [0, 1] and summing to 1 (the analysis protocol's `policy`): the
    /// learned move patterns' own, over the legal moves and the pass (the
    /// tree priors' shares where the patterns are off). Empty before the
    /// root is expanded.
    pub policy: Vec<(Move, f64)>,
}

/// The root's own values (see [`Analysis::root`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootValues {
    /// Playouts through the root, those of earlier searches kept in the
    /// tree included.
    pub visits: u64,
    /// Win rate of the player to move, in [0, 1].
    pub winrate: f64,
    /// Score lead of the player to move.
    pub score_lead: f64,
    /// Standard deviation of the final scores of this search's playouts.
    pub score_stdev: f64,
}

/// The move the player chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (or pass).
    Play(Move),
    /// Resign the game.
    Resign,
}

//! Strength levels: a weaker player that errs as people do.
//!
//! Level [`Level::MAX`] is the engine unchanged. Below it a level reads
//! less (a playout budget halving with each step down, so weak levels also
//! answer at once) and strays as a person would: it plays the short
//! search's move, except for a share of moves (all at level 1, one in 25 at
//! level 9) drawn from those the learned move patterns rate highly, by
//! their probability. Never a move that both the patterns and the search
//! rate as absurd, nor a self-atari of several stones, a filled own eye or
//! a first-line move in the opening. Passing, resigning,
//! counting and the reported analysis are the search's own at every level.

use super::{default_playouts, Analysis};
use crate::board::{Board, Color, FastRng, Game, Move, Point};
use std::fmt;

/// A strength level, from [`Level::MIN`] (weakest) to [`Level::MAX`]
/// (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

/// A level that is not a whole number from [`Level::MIN`] to [`Level::MAX`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level must be a whole number from {} to {} (got {:?})",
            Level::MIN.0,
            Level::MAX.0,
            self.0
        )
    }
}

impl std::error::Error for LevelError {}

/// How one weak level chooses among the moves.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    /// Candidates: at most this many of the patterns' best moves, plus the
    /// search's most visited.
    width: usize,
    /// Pattern probabilities are raised to `1 / temperature`.
    temperature: f64,
    /// Chance of playing the search's own move (when sensible); the other
    /// moves follow the patterns' taste.
    follows_search: f64,
    /// A move the search read with a win rate this far below the best's
    /// is not played.
    margin: f64,
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength: the engine unchanged.
    pub const MAX: Level = Level(10);

    /// The level `n`, if in range.
    pub fn new(n: u32) -> Result<Level, LevelError> {
        u8::try_from(n)
            .ok()
            .filter(|n| (Level::MIN.0..=Level::MAX.0).contains(n))
            .map(Level)
            .ok_or_else(|| LevelError(n.to_string()))
    }

    /// Its number.
    pub fn number(self) -> u32 {
        u32::from(self.0)
    }

    /// Whether this is full strength.
    pub fn is_full(self) -> bool {
        self == Level::MAX
    }

    /// Playouts per move below full strength: half the default budget at
    /// level 9, halved for every step below (on 9x9 from 5,000 down to 19
    /// at level 1). `None` at full strength, whose budget the user's
    /// settings decide.
    pub fn playouts(self, size: usize) -> Option<u64> {
        let steps = u32::from(Level::MAX.0 - self.0);
        (steps > 0).then(|| (default_playouts(size) >> steps).max(8))
    }

    fn choice(self) -> Choice {
        // Level 1 plays the patterns' taste with barely any reading; each
        // level up leaves fewer moves to taste (the share of stray moves
        // falls by about a third a step). Above level 3 the taste stays at
        // temperature 1, so that a stray move is a real, human mistake and
        // the share of them sets the strength.
        const WIDTH: [usize; 9] = [20, 16, 14, 12, 12, 10, 10, 10, 10];
        const TEMPERATURE: [f64; 9] = [1.6, 1.3, 1.15, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        const OWN_TASTE: [f64; 9] = [1.0, 0.75, 0.55, 0.4, 0.29, 0.2, 0.13, 0.08, 0.04];
        const MARGIN: [f64; 9] = [0.4, 0.35, 0.3, 0.25, 0.2, 0.16, 0.12, 0.09, 0.06];
        let i = usize::from(self.0.min(Level::MAX.0 - 1) - 1);
        Choice {
            width: WIDTH[i],
            temperature: TEMPERATURE[i],
            follows_search: 1.0 - OWN_TASTE[i],
            margin: MARGIN[i],
        }
    }

    /// The move this level plays where the search chose `searched` (its
    /// best move, after the pass rules), from the search's `analysis` of
    /// `game` for `color`. A pass stays a pass; at full strength the
    /// searched move is played. `seed` makes the choice reproducible.
    pub fn choose(
        self,
        game: &Game,
        color: Color,
        analysis: &Analysis,
        searched: Move,
        seed: u64,
    ) -> Move {
        if self.is_full() || searched == Move::Pass {
            return searched;
        }
        let c = self.choice();
        let board = game.board();
        let opening = game.moves().len() < OPENING_MOVES;
        let best = analysis.candidates.first();
        // The search's verdict on a move it read enough: too far below the best.
        let refuted = |mv: Move| {
            let (Some(best), Some(cand)) = (best, analysis.candidates.iter().find(|m| m.mv == mv))
            else {
                return false;
            };
            let read = cand.visits >= 3.max(best.visits / 10);
            read && cand.winrate < best.winrate - c.margin
        };
        let settled = |p: Point| settled(board, &analysis.ownership, p);
        let sensible = |mv: Move| match mv {
            Move::Pass => false,
            Move::Play(p) => {
                let early_edge = opening && on_first_line(board, p);
                game.is_legal(color, mv)
                    && !board.is_eye(p, color)
                    && !self_atari_of_stones(board, p, color)
                    && !early_edge
                    && !settled(p)
                    && !refuted(mv)
            }
        };
        // Candidates: the patterns' favourites, and the moves the search
        // liked (those the patterns rate low still need the search's word).
        let mut by_policy: Vec<(Move, f64)> = analysis
            .policy
            .iter()
            .copied()
            .filter(|&(m, _)| m != Move::Pass)
            .collect();
        by_policy.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut pool: Vec<(Move, f64)> = by_policy.iter().take(c.width).copied().collect();
        for cand in analysis.candidates.iter().take(c.width / 2) {
            if !pool.iter().any(|&(m, _)| m == cand.mv) {
                let p = by_policy
                    .iter()
                    .find(|&&(m, _)| m == cand.mv)
                    .map_or(0.0, |&(_, p)| p);
                pool.push((cand.mv, p));
            }
        }
        pool.retain(|&(m, _)| sensible(m));
        if pool.is_empty() {
            // Nothing a person would play: in a settled position that is
            // the end of the game.
            return match searched {
                Move::Play(p)
                    if settled(p)
                        || board.is_eye(p, color)
                        || self_atari_of_stones(board, p, color) =>
                {
                    Move::Pass
                }
                _ => searched,
            };
        }
        let mut rng = FastRng::new(seed);
        let mut draw = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        // Sampling the search's visits would stray as often at every
        // budget: the level's own share of stray moves sets its strength.
        if draw() < c.follows_search && sensible(searched) {
            return searched;
        }
        let shaped: Vec<f64> = pool
            .iter()
            .map(|&(_, p)| p.max(0.0).powf(1.0 / c.temperature))
            .collect();
        let sum: f64 = shaped.iter().sum();
        if sum <= 0.0 {
            return pool[rng_pick(draw(), pool.len())].0;
        }
        let mut x = draw() * sum;
        for (&(m, _), w) in pool.iter().zip(&shaped) {
            if x < *w {
                return m;
            }
            x -= w;
        }
        pool[pool.len() - 1].0
    }
}

impl Default for Level {
    /// Full strength.
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::str::FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u32>()
            .ok()
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| LevelError(s.to_string()))
    }
}

/// An index below `n` from a draw in [0, 1).
fn rng_pick(draw: f64, n: usize) -> usize {
    ((draw * n as f64) as usize).min(n - 1)
}

/// Moves counted as the opening, where first-line moves are left out.
pub const OPENING_MOVES: usize = 20;

/// Whether `p` is on the board's edge.
pub fn on_first_line(board: &Board, p: Point) -> bool {
    p.line(board.size()) == 0
}

/// Whether the search's playouts all but agree on who owns `p` and its
/// neighbours: a move there (inside a territory) changes nothing a person
/// would see.
fn settled(board: &Board, ownership: &[f64], p: Point) -> bool {
    let size = board.size();
    let own = |q: Point| ownership.get(q.y() * size + q.x()).copied();
    let Some(o) = own(p).filter(|o| o.abs() >= SETTLED) else {
        return false;
    };
    p.neighbours()
        .iter()
        .filter(|q| q.is_on(size))
        .all(|&q| own(q).is_some_and(|v| v * o.signum() >= SETTLED))
}

/// Ownership beyond which a point counts as settled.
const SETTLED: f64 = 0.9;

/// Whether `color` at `p` leaves a chain of two stones or more in atari.
pub fn self_atari_of_stones(board: &Board, p: Point, color: Color) -> bool {
    if !board.is_self_atari(p, color) {
        return false;
    }
    let mut after = board.clone();
    after.play(p, color).is_ok() && after.chain_size(p) > 1 && after.liberty_count(p) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_in_range_only() {
        assert_eq!("1".parse::<Level>(), Ok(Level::MIN));
        assert_eq!(" 10 ".parse::<Level>(), Ok(Level::MAX));
        for bad in ["0", "11", "-1", "3.5", "", "ten", "99999999999"] {
            let e = bad.parse::<Level>().unwrap_err();
            assert!(e.to_string().contains("from 1 to 10"), "{bad}: {e}");
        }
    }

    #[test]
    fn budgets_grow_with_the_level() {
        for size in [9, 13, 19] {
            let budgets: Vec<u64> = (1..10)
                .map(|n| Level::new(n).unwrap().playouts(size).unwrap())
                .collect();
            assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
            assert!(budgets[8] < default_playouts(size));
            assert_eq!(Level::MAX.playouts(size), None);
        }
    }
}

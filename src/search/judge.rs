//! The referee's judgement with the search's playout policy mixed in.
//!
//! [`crate::score`] judges a final position with its own light playouts,
//! which never fill a shared liberty and so keep seki, but let a group shut
//! inside the opponent's area live about half the time whatever its shape.
//! The search's playouts know shapes, ladders, two-liberty fights (here
//! up to 11x11) and nakade, and kill most such groups. Tallying as many
//! playouts of each kind gets more games right than either alone
//! (docs/counting.md), so every count kosumi reports (`final_score`,
//! `final_status_list`, `kosumi score`, `kosumi match`) goes through here.

use super::Policy;
use crate::board::{Board, Color, FastRng, Game, Point};
use crate::score::{self, JudgeOptions, Judgement, PlayoutPolicy, Score};
use std::sync::OnceLock;

impl PlayoutPolicy for Policy {
    fn playout_move(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        last2: Option<Point>,
        rng: &mut FastRng,
    ) -> Option<Point> {
        Policy::playout_move(self, board, color, last, last2, None, rng)
    }
}

/// Largest board on which the judge's playouts run the two-liberty fight
/// rules: the size counting was measured with. The search's own default
/// (every size, for strength on 19x19) cost 4 winners on the tune half
/// (3,932 against 3,936): 7 games turned wrong, 4 of them by killing a
/// group of 18 to 42 stones the players counted alive, and 3 turned right.
const REFEREE_FIGHTS_MAX_SIZE: usize = 11;

/// The playout policy of the judge: the search's at its default weights,
/// whatever `--param` says, so a count never depends on tuning; the fight
/// rules stay at [`REFEREE_FIGHTS_MAX_SIZE`].
fn referee_policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let mut policy = Policy::mogo();
        policy.search.fights_max_size = REFEREE_FIGHTS_MAX_SIZE;
        policy
    })
}

/// Judges life and death in the position of `game` (see [`score::judge`])
/// with the search's playouts mixed in: deterministic.
pub fn judge(game: &Game) -> Judgement {
    judge_with_seed(game, score::DEFAULT_SEED, score::DEFAULT_PLAYOUTS)
}

/// [`judge`] with a given seed and number of light playouts (as many of the
/// search's are added).
pub fn judge_with_seed(game: &Game, seed: u64, playouts: usize) -> Judgement {
    let options = JudgeOptions {
        seed,
        playouts,
        policy: Some(referee_policy()),
    };
    score::judge_with(game, &options)
}

/// The count of `game` under its rules, judged by [`judge`].
pub fn final_score(game: &Game) -> Score {
    score::count(game, &judge(game))
}

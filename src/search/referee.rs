//! The judge kosumi counts with: the score layer's [`Judge`] with the
//! search's playout policy mixed in.
//!
//! [`Judge::light`] judges a final position with the light playouts alone,
//! which never fill a shared liberty and so keep seki, but let a group shut
//! inside the opponent's area live about half the time whatever its shape.
//! The search's playouts know shapes, ladders, two-liberty fights (here
//! up to 11x11) and nakade, and kill most such groups. Tallying as many
//! playouts of each kind gets more games right than either alone
//! (docs/counting-log.md), so every count kosumi reports (`final_score`,
//! `final_status_list`, `kosumi score`, `kosumi match`) is the referee's.

use super::config::PlayoutSettings;
use super::policy::Policy;
use crate::board::{Board, Color, FastRng, Point};
use crate::score::{Judge, PlayoutPolicy};
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

/// The playout settings counting was measured with (31bb325, again
/// 8c05057), frozen so that tuning the search's defaults cannot move a
/// count unmeasured: af36af4 turned the fight rules on for 19x19 search and,
/// through the judge, cost 4 winners on the tune half (3,932 against 3,936:
/// 7 games turned wrong, 4 of them by killing a group of 18 to 42 stones the
/// players counted alive). A literal, so a new playout setting must be
/// given its referee's value here.
const REFEREE_PLAYOUTS: PlayoutSettings = PlayoutSettings {
    capture: 0.95,
    escape: 0.9,
    pattern: 0.9,
    nakade: 0.9,
    nakade_size: 3,
    two_liberties: 0.9,
    reject_self_atari: 0.8,
    escape_ladder: 1.0,
    counter_atari: 0.0,
    pattern_last2: 0.0,
    sacrifice: 0.0,
    ko: 0.0,
    eye_fix: 0.0,
    false_seki: 0.0,
    last_good_reply: 0.0,
    self_atari_cousin: 0.0,
    learned_rest: 0.02,
    learned_min: 4.0,
    // The two-liberty fight rules and the ladder read only up to 11x11.
    fights_max_size: 11,
    playout_shapes_min_size: 13,
};

/// The judge of every count kosumi reports: the light playouts and as many
/// of the search's, with the settings counting was measured with (whatever
/// the defaults or `--param` say) and no learned patterns.
pub fn referee() -> Judge<'static> {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    Judge::new(POLICY.get_or_init(|| {
        let mut policy = Policy::mogo();
        policy.playout = REFEREE_PLAYOUTS;
        policy
    }))
}

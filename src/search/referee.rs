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

use super::Policy;
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

/// The playout weights counting was measured with (31bb325, again 8c05057),
/// frozen so that tuning the search's defaults cannot move a count
/// unmeasured: af36af4 turned the fight rules on for 19x19 search and,
/// through the judge, cost 4 winners on the tune half (3,932 against 3,936:
/// 7 games turned wrong, 4 of them by killing a group of 18 to 42 stones the
/// players counted alive). Every `playout.` tunable must be named here.
const REFEREE_PARAMS: [(&str, f64); 19] = [
    // The two-liberty fight rules and the ladder read only up to 11x11.
    ("search.fights_max_size", 11.0),
    ("playout.capture", 0.95),
    ("playout.escape", 0.9),
    ("playout.pattern", 0.9),
    ("playout.nakade", 0.9),
    ("playout.nakade_size", 3.0),
    ("playout.two_liberties", 0.9),
    ("playout.reject_self_atari", 0.8),
    ("playout.escape_ladder", 1.0),
    ("playout.counter_atari", 0.0),
    ("playout.eye_fix", 0.0),
    ("playout.pattern_last2", 0.0),
    ("playout.sacrifice", 0.0),
    ("playout.false_seki", 0.0),
    ("playout.ko", 0.0),
    ("playout.last_good_reply", 0.0),
    ("playout.self_atari_cousin", 0.0),
    ("playout.learned_rest", 0.02),
    ("playout.learned_min", 4.0),
];

/// The playout policy of the judge: the search's rules with
/// [`REFEREE_PARAMS`], whatever the defaults or `--param` say, and no
/// learned patterns.
fn referee_policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let mut policy = Policy::mogo();
        for (name, value) in REFEREE_PARAMS {
            policy
                .set_param(name, value)
                .expect("REFEREE_PARAMS names only known tunables");
        }
        policy
    })
}

/// The judge of every count kosumi reports: the default seed and playouts,
/// the light playouts and as many of the search's, with frozen settings.
pub fn referee() -> Judge<'static> {
    Judge::new(referee_policy())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_params_name_every_playout_tunable() {
        let policy = referee_policy();
        for (name, value) in policy.params() {
            let frozen = REFEREE_PARAMS.iter().find(|(n, _)| *n == name);
            match frozen {
                Some(&(_, v)) => assert_eq!(value, v, "{name}"),
                None => assert!(
                    !name.starts_with("playout."),
                    "{name}: give the referee its value in REFEREE_PARAMS"
                ),
            }
        }
    }
}

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

/// The judge of every count kosumi reports: the light playouts and as many
/// of the search's, with the settings counting was measured with
/// ([`PlayoutSettings::REFEREE`], whatever the defaults or `--param` say)
/// and no learned patterns.
pub fn referee() -> Judge<'static> {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    Judge::new(POLICY.get_or_init(|| {
        let mut policy = Policy::mogo();
        policy.playout = PlayoutSettings::REFEREE;
        policy
    }))
}

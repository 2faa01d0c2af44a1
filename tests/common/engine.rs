//! A quiet one-thread searcher and its genmove, for the search tests.

use kosumi::board::{Color, Game};
use kosumi::search::{Analysis, Clock, Decision, SearchParams, Searcher};
use std::sync::atomic::AtomicBool;

/// One thread, seeded, no log: what every search test starts from.
pub fn quiet(playouts: Option<u64>, seed: u64) -> SearchParams {
    SearchParams {
        threads: 1,
        playouts,
        seed,
        quiet: true,
        ..SearchParams::default()
    }
}

/// A genmove with no clock, nothing to stop it and no reports.
pub fn genmove(s: &mut Searcher, game: &Game, color: Color) -> (Decision, Analysis) {
    s.genmove(
        game,
        color,
        &Clock::none(),
        false,
        &AtomicBool::new(false),
        None,
        &mut |_| {},
    )
}

//! Search speed: playouts per second of the full search (tree, priors,
//! heavy playouts) on empty boards, with one thread and with two.
//!
//! `cargo run --release --example search_speed [seconds]`
use kosumi::board::{Color, Game, Rules};
use kosumi::search::{Clock, SearchParams, Searcher};
use std::sync::atomic::AtomicBool;

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    for size in [9usize, 19] {
        let mut rates = Vec::new();
        for threads in [1usize, 2] {
            let params = SearchParams {
                threads,
                time_per_move: Some(secs),
                quiet: true,
                ..SearchParams::default()
            };
            let mut searcher = Searcher::new(params);
            let game = Game::new(size, Rules::japanese());
            let (decision, a) = searcher.genmove(
                &game,
                Color::Black,
                &Clock::none(),
                false,
                &AtomicBool::new(false),
                None,
                &mut |_| {},
            );
            let rate = a.playouts as f64 / a.elapsed.as_secs_f64();
            rates.push(rate);
            println!(
                "{size}x{size} threads {threads}: {:.0} playouts/s ({} in {:.2} s), {:?}, win {:.1}%",
                rate,
                a.playouts,
                a.elapsed.as_secs_f64(),
                decision,
                a.winrate * 100.0
            );
        }
        println!(
            "{size}x{size} 2 threads / 1 thread: {:.2}",
            rates[1] / rates[0]
        );
    }
}

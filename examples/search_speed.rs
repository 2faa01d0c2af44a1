//! Search speed: playouts per second of the full search (tree, priors,
//! heavy playouts) on empty boards, with one thread and with two.
//!
//! `cargo run --release --example search_speed [seconds]`
//!
//! On a shared machine wall-clock rates depend on the load, so the rate per
//! CPU second (from `/proc/self/stat`) is printed too: it shows what the
//! search itself costs, and with two threads how much sharing the tree costs.
use kosumi::board::{Color, Game, Rules};
use kosumi::search::{Clock, SearchParams, Searcher};
use std::sync::atomic::AtomicBool;

/// CPU seconds used by this process so far (user + system), if known.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

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
            let cpu0 = cpu_seconds();
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
            let cpu = cpu0
                .zip(cpu_seconds())
                .map(|(a, b)| b - a)
                .unwrap_or(f64::NAN);
            rates.push(rate);
            println!(
                "{size}x{size} threads {threads}: {:.0} playouts/s, {:.0} per CPU second ({} in {:.2} s), {:?}, win {:.1}%",
                rate,
                a.playouts as f64 / cpu,
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

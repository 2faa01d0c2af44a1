//! Search speed: a fixed number of playouts of the full search (tree,
//! priors, RAVE, heavy playouts) from empty boards, one thread.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kosumi::board::{Color, Game, Rules};
use kosumi::search::{Clock, SearchParams, Searcher};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (size, playouts) in [(9usize, 2000u64), (19, 500)] {
        g.throughput(Throughput::Elements(playouts));
        let game = Game::new(size, Rules::japanese());
        g.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                let mut s = Searcher::new(SearchParams {
                    threads: 1,
                    playouts: Some(playouts),
                    quiet: true,
                    ..SearchParams::default()
                });
                let stop = AtomicBool::new(false);
                black_box(s.analyze(
                    &game,
                    Color::Black,
                    kosumi::search::Limits {
                        playouts: Some(playouts),
                        time: None,
                        ..Default::default()
                    },
                    &stop,
                    None,
                    &mut |_| {},
                ))
            })
        });
    }
    g.finish();
    let _ = Clock::none();
}

criterion_group!(benches, search);
criterion_main!(benches);

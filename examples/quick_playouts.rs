//! Light-playout throughput: `quick_playouts [scale] [size]`.
//!
//! Runs `2000 * scale` playouts on 9x9 and `400 * scale` on 19x19 (or only
//! the given size) from the empty board, one thread.

use kosumi::board::{light_playout, Board, Color, FastRng};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let scale: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
        .max(1);
    let only: Option<usize> = args.next().and_then(|s| s.parse().ok());
    for size in [9usize, 19] {
        if only.is_some_and(|o| o != size) {
            continue;
        }
        let empty = Board::new(size);
        let mut board = empty.clone();
        let mut rng = FastRng::new(1);
        let n = if size == 9 { 2_000 } else { 400 } * scale;
        let t = Instant::now();
        let mut moves = 0;
        for _ in 0..n {
            board.copy_from(&empty);
            moves += light_playout(&mut board, Color::Black, &mut rng, size * size * 3).moves;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{size}x{size}: {:.0} playouts/s, {:.1} moves/playout",
            n as f64 / s,
            moves as f64 / n as f64
        );
    }
}

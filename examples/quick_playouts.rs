use kosumi::board::{light_playout, Board, Color, FastRng};
use std::time::Instant;
fn main() {
    let scale: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    for size in [9usize, 19] {
        let empty = Board::new(size);
        let mut rng = FastRng::new(1);
        let n = if size == 9 {
            2_000 * scale.max(1)
        } else {
            400 * scale.max(1)
        };
        let t = Instant::now();
        let mut moves = 0;
        for _ in 0..n {
            let mut b = empty.clone();
            moves += light_playout(&mut b, Color::Black, &mut rng, size * size * 3).moves;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{size}x{size}: {:.0} playouts/s, {:.1} moves/playout",
            n as f64 / s,
            moves as f64 / n as f64
        );
    }
}

//! Rules-core speed: light playouts, legality, play plus undo (a game's,
//! and a board's for the reading), hashing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kosumi::board::{light_playout, Board, Color, FastRng, Game, Point, Rules, UndoLog};
use std::hint::black_box;

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("light_playout");
    g.throughput(Throughput::Elements(1));
    for size in [9usize, 19] {
        let empty = Board::new(size);
        let mut board = empty.clone();
        let mut rng = FastRng::new(1);
        g.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                board.copy_from(&empty);
                black_box(light_playout(
                    &mut board,
                    Color::Black,
                    &mut rng,
                    size * size * 3,
                ))
            })
        });
    }
    g.finish();
}

/// A mid-game 19x19 position from a seeded random game.
fn midgame() -> Board {
    let mut board = Board::new(19);
    let mut rng = FastRng::new(7);
    light_playout(&mut board, Color::Black, &mut rng, 150);
    board
}

fn legality(c: &mut Criterion) {
    let board = midgame();
    let points: Vec<Point> = board.points().collect();
    c.bench_function("legality_all_points_19x19", |b| {
        b.iter(|| {
            points
                .iter()
                .filter(|&&p| board.is_legal(p, Color::Black))
                .count()
        })
    });
}

fn play_undo(c: &mut Criterion) {
    let mut game = Game::new(19, Rules::japanese());
    let mut rng = FastRng::new(3);
    for _ in 0..100 {
        let color = game.to_move();
        if let Some(p) = kosumi::board::random_move(game.board(), color, &mut rng) {
            game.play(color, kosumi::board::Move::Play(p)).unwrap();
        }
    }
    let color = game.to_move();
    let p = kosumi::board::random_move(game.board(), color, &mut rng).unwrap();
    c.bench_function("game_play_undo_19x19", |b| {
        b.iter(|| {
            game.play(color, kosumi::board::Move::Play(p)).unwrap();
            game.undo()
        })
    });
    // A legal move of the mid-game board (the game's move may fall on one
    // of its stones).
    let board = midgame();
    let q = kosumi::board::random_move(&board, color, &mut FastRng::new(5)).unwrap();
    c.bench_function("board_play_copy_19x19", |b| {
        b.iter(|| {
            let mut copy = board.clone();
            copy.play_unchecked(black_box(q), color);
            copy
        })
    });
    // The two ways a reading visits a position: copy the parent into a
    // kept board and play, or play on the parent and take the move back.
    let mut kept = board.clone();
    c.bench_function("board_copy_from_play_19x19", |b| {
        b.iter(|| {
            kept.copy_from(&board);
            kept.play_unchecked(black_box(q), color)
        })
    });
    let mut played = board.clone();
    let mut log = UndoLog::new();
    c.bench_function("board_play_logged_undo_19x19", |b| {
        b.iter(|| {
            let taken = played.play_logged(black_box(q), color, &mut log);
            played.undo(&mut log);
            taken
        })
    });
}

fn hashing(c: &mut Criterion) {
    let board = midgame();
    c.bench_function("hash_incremental_19x19", |b| {
        b.iter(|| black_box(&board).position_hash())
    });
    c.bench_function("hash_recompute_19x19", |b| {
        b.iter(|| black_box(&board).recompute_hash())
    });
}

criterion_group!(benches, playouts, legality, play_undo, hashing);
criterion_main!(benches);

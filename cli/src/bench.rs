//! `kosumi bench`: speed figures of the engine, one line each.
//!
//! Each figure warms up first, then runs batches until its time budget
//! (`--seconds`) is spent, on one thread, in five rounds of a fifth of the
//! budget each, and reports the fastest round: on a shared machine the
//! slower rounds measure the neighbours as much as kosumi. The figures are
//! listed in [`figures`]; search figures (the whole tree search, which
//! needs no warm-up) come at the end of that list.

use kosumi::board::{light_playout, random_move, Board, Color, FastRng, Game, Move, Point, Rules};
use kosumi::search::{Limits, SearchParams, Searcher};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Options of `kosumi bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Time spent measuring each figure, in seconds (after a warm-up of a
    /// fifth of that), in five rounds of which the fastest counts.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
}

/// One measured figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// What was measured.
    pub name: &'static str,
    /// The value.
    pub value: f64,
    /// Its unit (`playouts/s`, `ns`, ...).
    pub unit: &'static str,
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = if self.value >= 100.0 {
            format!("{:.0}", self.value)
        } else {
            format!("{:.2}", self.value)
        };
        write!(f, "{:<48} {:>12} {}", self.name, value, self.unit)
    }
}

/// A benchmark: measures within the budget it is given.
pub type BenchFn = fn(Duration) -> Figure;

/// Every figure `kosumi bench` prints, in order. Search figures (playouts
/// per second of the tree search, nodes per second) go at the end.
pub fn figures() -> Vec<BenchFn> {
    vec![
        |b| playouts(9, b, "light playouts, empty 9x9"),
        |b| playouts(19, b, "light playouts, empty 19x19"),
        legality_per_point,
        game_play_undo,
        board_copy_play,
        |b| hash(b, "position hash, incremental read", Board::position_hash),
        |b| {
            hash(
                b,
                "position hash, full recomputation",
                Board::recompute_hash,
            )
        },
        pattern_features,
        |b| search(9, b, "search, full policy, empty 9x9"),
        |b| search(19, b, "search, full policy, empty 19x19"),
    ]
}

/// Rounds each figure's budget is split into; the fastest one counts.
const ROUNDS: u32 = 5;

/// Runs `op(n)` (doing `n` operations) until `budget` is spent, after a
/// warm-up, in [`ROUNDS`] rounds; returns the nanoseconds per operation of
/// the fastest round.
fn ns_per_op(budget: Duration, mut op: impl FnMut(u64)) -> f64 {
    let warm_up = budget / 5;
    let start = Instant::now();
    let mut n = 1u64;
    while start.elapsed() < warm_up {
        op(n);
        n = (n * 2).min(1 << 20);
    }
    let round = budget / ROUNDS;
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let mut done = 0u64;
        let mut batch = 1u64;
        let ns = loop {
            op(batch);
            done += batch;
            let elapsed = start.elapsed();
            if elapsed >= round {
                break elapsed.as_nanos() as f64 / done as f64;
            }
            batch = (batch * 2).min(1 << 16);
        };
        best = best.min(ns);
    }
    best
}

fn playouts(size: usize, budget: Duration, name: &'static str) -> Figure {
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = FastRng::new(1);
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            // Copies only the slots this size uses, as the search does.
            board.copy_from(&empty);
            black_box(light_playout(
                &mut board,
                Color::Black,
                &mut rng,
                3 * size * size,
            ));
        }
    });
    Figure {
        name,
        value: 1e9 / ns,
        unit: "playouts/s",
    }
}

/// Playouts per second of the whole search (tree, priors, heavy playouts,
/// and the learned patterns from 13x13 up) on an empty board, one thread,
/// for the whole budget.
fn search(size: usize, budget: Duration, name: &'static str) -> Figure {
    let mut searcher = Searcher::new(SearchParams {
        threads: 1,
        quiet: true,
        ..SearchParams::default()
    });
    let limits = Limits {
        time: Some(budget),
        ..Limits::default()
    };
    let game = Game::new(size, Rules::japanese());
    let stop = AtomicBool::new(false);
    let a = searcher.analyze(&game, Color::Black, limits, &stop, None, &mut |_| {});
    Figure {
        name,
        value: a.playouts as f64 / a.elapsed.as_secs_f64(),
        unit: "playouts/s",
    }
}

/// A 19x19 game after 150 seeded random moves.
fn mid_game() -> Game {
    let mut game = Game::new(19, Rules::japanese());
    let mut rng = FastRng::new(2024);
    while game.moves().len() < 150 {
        let color = game.to_move();
        let mv = random_move(game.board(), color, &mut rng).map_or(Move::Pass, Move::Play);
        game.play(color, mv).expect("random_move gives legal moves");
    }
    game
}

/// What the tree pays per candidate move for the learned patterns: the
/// features (with the largest known shape) and the strength.
fn pattern_features(budget: Duration) -> Figure {
    let game = mid_game();
    let board = game.board();
    let model = kosumi::search::patterns::Model::embedded();
    let last = game.moves().last().and_then(|&(_, m)| m.point());
    let ctx = kosumi::search::patterns::Context::new(board, Color::Black, last, None, false);
    let points: Vec<Point> = board
        .points()
        .filter(|&p| board.is_legal(p, Color::Black))
        .collect();
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            for &p in &points {
                black_box(model.strength(&model.features(&ctx, black_box(p))));
            }
        }
    });
    Figure {
        name: "learned pattern features, mid-game 19x19",
        value: ns / points.len() as f64,
        unit: "ns/move",
    }
}

fn legality_per_point(budget: Duration) -> Figure {
    let game = mid_game();
    let board = game.board();
    let points: Vec<Point> = board.points().collect();
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            for &p in &points {
                black_box(board.is_legal(black_box(p), Color::Black));
            }
        }
    });
    Figure {
        name: "legality of every point, mid-game 19x19",
        value: ns / points.len() as f64,
        unit: "ns/point",
    }
}

fn game_play_undo(budget: Duration) -> Figure {
    let mut game = mid_game();
    let color = game.to_move();
    let legal = game.board().legal_moves(color);
    let mut i = 0;
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            let p = legal[i];
            i = if i + 1 == legal.len() { 0 } else { i + 1 };
            game.play(color, Move::Play(p)).expect("legal");
            game.undo();
        }
    });
    Figure {
        name: "Game play + undo, mid-game 19x19",
        value: ns,
        unit: "ns",
    }
}

fn board_copy_play(budget: Duration) -> Figure {
    let game = mid_game();
    let color = game.to_move();
    let legal = game.board().legal_moves(color);
    let mut i = 0;
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            let p = legal[i];
            i = if i + 1 == legal.len() { 0 } else { i + 1 };
            let mut board = game.board().clone();
            black_box(board.play_unchecked(p, color));
            black_box(&board);
        }
    });
    Figure {
        name: "Board copy + play_unchecked, mid-game 19x19",
        value: ns,
        unit: "ns",
    }
}

/// Reading the mid-game position's hash with `hash`.
fn hash(budget: Duration, name: &'static str, hash: impl Fn(&Board) -> u64) -> Figure {
    let game = mid_game();
    let board = game.board();
    let ns = ns_per_op(budget, |n| {
        for _ in 0..n {
            black_box(hash(black_box(board)));
        }
    });
    Figure {
        name,
        value: ns,
        unit: "ns",
    }
}

/// Checks the options and measures every figure, calling `each` as each
/// one is ready.
pub fn bench(args: &BenchArgs, mut each: impl FnMut(&Figure)) -> anyhow::Result<Vec<Figure>> {
    let seconds = args.seconds;
    anyhow::ensure!(
        seconds > 0.0 && seconds <= 3600.0,
        "--seconds {seconds} is out of range (more than 0, at most 3600)"
    );
    let budget = Duration::from_secs_f64(args.seconds);
    let mut out = Vec::new();
    for f in figures() {
        let figure = f(budget);
        each(&figure);
        out.push(figure);
    }
    Ok(out)
}

/// `kosumi bench`: prints one line per figure; exit status 2 on bad options.
pub fn run(args: &BenchArgs) -> i32 {
    if cfg!(debug_assertions) {
        outln!("note: a debug build; use --release for meaningful figures");
    }
    match bench(args, |f| outln!("{f}")) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("kosumi bench: {e:#}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_is_measured() {
        let figures = bench(&BenchArgs { seconds: 0.005 }, |_| {}).unwrap();
        assert_eq!(figures.len(), super::figures().len());
        for f in &figures {
            assert!(f.value.is_finite() && f.value > 0.0, "{f}");
            assert!(f.to_string().contains(f.unit));
        }
    }

    #[test]
    fn bad_budgets_are_refused() {
        for seconds in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e9] {
            assert!(bench(&BenchArgs { seconds }, |_| {}).is_err(), "{seconds}");
            assert_eq!(run(&BenchArgs { seconds }), 2);
        }
    }

    #[test]
    fn the_mid_game_position_is_busy() {
        let game = mid_game();
        assert_eq!(game.moves().len(), 150);
        assert!(game.board().empty_count() < 361 - 100);
    }
}

//! Seeded random games through the rules core, with the board's invariants,
//! the hash and the prisoner count checked after every move.
//!
//! ```text
//! cargo run --release --example random_games -- [SIZE] [GAMES] [SEED] [RULES]
//! cargo run --release --example random_games -- 9 1000 42 chinese
//! ```
//!
//! Defaults: 19x19, 100 games, seed 1, Japanese rules. Each game `g` uses
//! seed `SEED + g`; a failure prints that seed and the moves so far as GTP
//! vertices, and the exit status is 1. `kosumi stress` does the same with
//! undos and more options.

use kosumi::board::{random_move, Color, FastRng, Game, Move, Rules};
use std::process::ExitCode;

fn arg<T: std::str::FromStr>(
    args: &[String],
    i: usize,
    default: T,
    what: &str,
) -> Result<T, String> {
    match args.get(i) {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| format!("bad {what}: {s:?}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| -> Result<_, String> {
        let size: usize = arg(&args, 0, 19, "size")?;
        if !(1..=25).contains(&size) {
            return Err(format!("size {size} is out of range (1 to 25)"));
        }
        let games: u64 = arg(&args, 1, 100, "number of games")?;
        let seed: u64 = arg(&args, 2, 1, "seed")?;
        let rules = match args.get(3) {
            Some(r) => Rules::parse(r).map_err(|e| e.to_string())?,
            None => Rules::japanese(),
        };
        Ok((size, games, seed, rules))
    })();
    let (size, games, seed, rules) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("random_games: {e}\nusage: random_games [SIZE] [GAMES] [SEED] [RULES]");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let mut moves = 0u64;
    let mut captures = 0u64;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        match random_game(size, rules, game_seed) {
            Ok((m, c)) => {
                moves += m;
                captures += c;
            }
            Err(e) => {
                eprintln!(
                    "game seed {game_seed} ({size}x{size}, {} rules): {e}",
                    rules.name()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games on {size}x{size} ({}): {moves} moves, {captures} stones captured, {:.0} moves/s, all checks passed",
        rules.name(),
        moves as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// One game to two passes (or a move cap); returns moves and captures.
fn random_game(size: usize, rules: Rules, seed: u64) -> Result<(u64, u64), String> {
    let mut rng = FastRng::new(seed);
    let mut game = Game::new(size, rules);
    let mut placed = [0u64; 2];
    let cap = 3 * size * size;
    while !game.is_over() && game.moves().len() < cap {
        let color = game.to_move();
        // Pass now and then, so ko may be retaken and superko gets work.
        let mv = if rng.below(50) == 0 {
            Move::Pass
        } else {
            random_move(game.board(), color, &mut rng).map_or(Move::Pass, Move::Play)
        };
        let mv = match game.play(color, mv) {
            Ok(()) => mv,
            // Superko may refuse what simple ko allows: pass instead.
            Err(_) => {
                game.play(color, Move::Pass)
                    .expect("a pass is always legal");
                Move::Pass
            }
        };
        if mv != Move::Pass {
            placed[color.index()] += 1;
        }
        check(&game, &placed).map_err(|e| {
            let list: Vec<String> = game
                .moves()
                .iter()
                .map(|&(c, m)| match m {
                    Move::Pass => format!("{} pass", c.letter()),
                    Move::Play(p) => format!("{} {}", c.letter(), p.to_gtp(size)),
                })
                .collect();
            format!("{e}\nmoves: {}\n{}", list.join(", "), game.board())
        })?;
    }
    let b = game.board();
    let taken = b.captures(Color::Black) as u64 + b.captures(Color::White) as u64;
    let pass_prisoners = if rules.pass_gives_prisoner() {
        (game.pass_count(Color::Black) + game.pass_count(Color::White)) as u64
    } else {
        0
    };
    Ok((placed[0] + placed[1], taken - pass_prisoners))
}

fn check(game: &Game, placed: &[u64; 2]) -> Result<(), String> {
    let board = game.board();
    board.check_invariants().map_err(|e| e.to_string())?;
    if board.position_hash() != board.recompute_hash() {
        return Err("hash differs from recomputation".into());
    }
    for c in Color::ALL {
        let on_board = board.stones(c).count() as u64;
        let mut lost = board.captures(c.opponent()) as u64;
        if game.rules().pass_gives_prisoner() {
            lost -= game.pass_count(c) as u64;
        }
        if placed[c.index()] != on_board + lost {
            return Err(format!(
                "{c}: {} placed, {on_board} on the board, {lost} taken",
                placed[c.index()]
            ));
        }
    }
    Ok(())
}

//! Strength levels: full strength is the engine unchanged; weak levels read
//! little, play legal and natural moves on every size and rule set, and
//! leave the analysis and the counting alone. One thread, seeded.

use kosumi::board::{fixed_handicap, Color, Game, Move, Point, Rules};
use kosumi::search::level::{on_first_line, self_atari_of_stones, OPENING_MOVES};
use kosumi::search::{Decision, Level, SearchParams, Searcher};
mod common;
use common::engine::{genmove, quiet};

fn searcher(level: Level, playouts: Option<u64>, seed: u64) -> Searcher {
    Searcher::new(SearchParams {
        level,
        ..quiet(playouts, seed)
    })
}

fn level(n: u32) -> Level {
    Level::new(n).unwrap()
}

/// What a game between two searchers showed.
#[derive(Default, Debug)]
struct Faults {
    moves: usize,
    self_ataris: usize,
    own_eyes: usize,
    opening_edges: usize,
}

/// Plays up to `n` moves, `s` for both sides, checking each move.
fn play(game: &mut Game, s: &mut Searcher, n: usize) -> (Vec<Decision>, Faults) {
    let mut faults = Faults::default();
    let mut decisions = Vec::new();
    while decisions.len() < n && !game.is_over() {
        let color = game.to_move();
        let (d, _) = genmove(s, game, color);
        decisions.push(d);
        let Decision::Play(mv) = d else { break };
        if let Move::Play(p) = mv {
            let board = game.board();
            faults.moves += 1;
            faults.self_ataris += usize::from(self_atari_of_stones(board, p, color));
            faults.own_eyes += usize::from(board.is_eye(p, color));
            faults.opening_edges +=
                usize::from(game.moves().len() < OPENING_MOVES && on_first_line(board, p));
        }
        game.play(color, mv).expect("a level plays legal moves");
    }
    (decisions, faults)
}

#[test]
fn full_strength_is_the_engine_unchanged() {
    let mut a = Game::new(9, Rules::japanese());
    let mut b = a.clone();
    let plain = Searcher::new(SearchParams {
        threads: 1,
        playouts: Some(300),
        seed: 7,
        quiet: true,
        ..SearchParams::default()
    });
    assert_eq!(plain.params().level, Level::MAX);
    let (da, _) = play(&mut a, &mut { plain }, 12);
    let (db, _) = play(&mut b, &mut searcher(Level::MAX, Some(300), 7), 12);
    assert_eq!(da, db);
    assert_eq!(a.moves(), b.moves());
}

#[test]
fn weak_levels_read_their_own_short_budget() {
    for (size, n) in [(9, 1), (19, 1), (13, 5), (9, 9)] {
        let game = Game::new(size, Rules::parse("chinese").unwrap());
        // The level's budget rules, whatever the playout setting says.
        let mut s = searcher(level(n), Some(100_000), 1);
        let (_, a) = genmove(&mut s, &game, Color::Black);
        let budget = level(n).playouts(size).unwrap();
        assert!(
            a.playouts <= budget,
            "{size}x{size} level {n}: {}",
            a.playouts
        );
    }
}

#[test]
fn weak_levels_are_reproducible() {
    let run = || {
        let mut game = Game::new(9, Rules::japanese());
        play(&mut game, &mut searcher(level(2), None, 3), 30).0
    };
    assert_eq!(run(), run());
}

#[test]
fn weak_levels_play_natural_legal_moves_everywhere() {
    let cases = [
        (9, "japanese", 0, 1, 200),
        (9, "tromp-taylor", 0, 4, 200),
        (9, "chinese", 0, 8, 60),
        (13, "aga", 2, 2, 60),
        (19, "swedish", 4, 1, 40),
        (19, "new_zealand", 0, 3, 30),
    ];
    for (size, rules, handicap, n, moves) in cases {
        let mut game = Game::new(size, Rules::parse(rules).unwrap());
        if handicap > 0 {
            game.place_handicap(&fixed_handicap(size, handicap).unwrap());
        }
        let (_, f) = play(&mut game, &mut searcher(level(n), None, 11), moves);
        let what = format!("{size}x{size} {rules} H{handicap} level {n}: {f:?}");
        assert!(f.moves > 0, "{what}");
        assert_eq!(f.self_ataris, 0, "{what}");
        assert_eq!(f.own_eyes, 0, "{what}");
        assert_eq!(f.opening_edges, 0, "{what}");
    }
}

#[test]
fn weak_games_end_by_passing() {
    // Both sides at level 1 under territory counting: the game ends with two
    // passes well before the board fills up.
    let mut game = Game::new(9, Rules::japanese());
    let (d, _) = play(&mut game, &mut searcher(level(1), None, 5), 300);
    assert!(game.is_over(), "{} moves", d.len());
    assert!(game.moves().len() < 150, "{} moves", game.moves().len());
}

#[test]
fn weak_levels_keep_the_analysis_honest() {
    // The analysis reports the search as it is; only the move differs.
    let mut game = Game::new(9, Rules::japanese());
    for (x, y, c) in [(2, 2, Color::Black), (6, 6, Color::White)] {
        game.play(c, Move::Play(Point::new(x, y))).unwrap();
    }
    let mut weak = searcher(level(1), None, 9);
    let (_, a) = genmove(&mut weak, &game, Color::Black);
    let best = a.candidates.first().unwrap();
    assert_eq!(a.winrate, best.winrate);
    assert!(a.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
    let sum: f64 = a.policy.iter().map(|p| p.1).sum();
    assert!((sum - 1.0).abs() < 1e-6);
}

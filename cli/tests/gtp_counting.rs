//! `final_score` and `final_status_list` tell one story: the score adds up
//! from the status lists and the captures, every stone has one status, and
//! every point is in one of `alive`, `seki`, the territories and `dame`
//! (a dead stone where no one owns the area is in `dead` only). Checked
//! over finished games (the counting shapes and every 10th dev game) and
//! over seeded random games, whose boards are full of shapes no player
//! leaves, under Japanese and Chinese rules (a third of them after four
//! handicap stones, and those under AGA and New Zealand rules too).

mod common;

use common::session::{self, run_piped};
use kosumi::board::{fixed_handicap, Board, Color};
use kosumi::sgf::GameRecord;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The repository's root (this package is its `cli/` folder).
fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// One position to check: the commands that set it up, its komi, whether
/// it is counted by area or by territory, and White's points for the
/// handicap stones (one each under Chinese rules, one each after the first
/// under AGA rules).
struct Position {
    name: String,
    setup: Vec<String>,
    komi: f64,
    area: bool,
    handicap_points: f64,
}

const LISTS: [&str; 6] = [
    "alive",
    "dead",
    "seki",
    "black_territory",
    "white_territory",
    "dame",
];

/// Runs every position through one GTP session (pipelined, each answer by
/// its id) and returns, for each, the answers to the queries below.
fn ask_all(positions: &[Position]) -> Vec<Vec<String>> {
    let counts = [
        "final_score",
        "captures black",
        "captures white",
        "list_stones black",
        "list_stones white",
    ];
    let queries: Vec<String> = counts
        .iter()
        .map(|q| q.to_string())
        .chain(LISTS.iter().map(|l| format!("final_status_list {l}")))
        .collect();
    let mut input = String::new();
    let mut id = 0;
    for p in positions {
        for c in &p.setup {
            input.push_str(&format!("{id} {c}\n"));
            id += 1;
        }
        for q in &queries {
            input.push_str(&format!("{id} {q}\n"));
            id += 1;
        }
    }
    input.push_str("quit\n");
    let mut engine = session::kosumi(&["gtp", "--quiet", "--threads", "1", "--seed", "1"]);
    let (out, status) = run_piped(&mut engine, input.as_bytes());
    assert!(status.success());
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    let mut next = 0;
    positions
        .iter()
        .map(|p| {
            for c in &p.setup {
                let a = answers[next];
                assert!(a.starts_with('='), "{}: `{c}` failed: {a}", p.name);
                next += 1;
            }
            queries
                .iter()
                .map(|q| {
                    let a = answers[next];
                    next += 1;
                    let (status, text) = a.split_once(' ').unwrap_or((a, ""));
                    assert!(status.starts_with('='), "{}: `{q}` failed: {a}", p.name);
                    text.trim().to_string()
                })
                .collect()
        })
        .collect()
}

fn points(text: &str) -> HashSet<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// The checks on one position's answers (in `ask_all`'s order).
fn check(p: &Position, a: &[String], size: usize) {
    let captures = |i: usize| a[i].parse::<f64>().unwrap();
    let (black, white) = (points(&a[3]), points(&a[4]));
    let [alive, dead, seki, black_area, white_area, dame] =
        [5, 6, 7, 8, 9, 10].map(|i| points(&a[i]));
    let name = &p.name;

    // Every stone has one status.
    let stones: HashSet<_> = black.union(&white).cloned().collect();
    let statuses = alive.len() + dead.len() + seki.len();
    assert_eq!(statuses, stones.len(), "{name}: a stone with two statuses");
    let mut with_status = alive.clone();
    with_status.extend(dead.iter().cloned());
    with_status.extend(seki.iter().cloned());
    assert_eq!(with_status, stones, "{name}: statuses and stones differ");

    // Every point is a living stone, territory or dame, once, but for a
    // dead stone where no one has territory (dame lists empty points only).
    // A dead stone never stands in its own side's territory.
    let mut unlisted = 0;
    for s in &dead {
        let (own, other) = if black.contains(s) {
            (&black_area, &white_area)
        } else {
            (&white_area, &black_area)
        };
        assert!(!own.contains(s), "{name}: dead {s} in its own side's area");
        assert!(!dame.contains(s), "{name}: dead {s} listed as dame");
        unlisted += usize::from(!other.contains(s));
    }
    let lists = [&alive, &seki, &black_area, &white_area, &dame];
    let listed: usize = lists.iter().map(|l| l.len()).sum();
    let distinct: HashSet<_> = lists.iter().flat_map(|l| l.iter()).collect();
    assert_eq!(listed, distinct.len(), "{name}: a point in two lists");
    assert_eq!(listed + unlisted, size * size, "{name}: points missed");

    // Japanese count: territory (the dead stones' points included) plus
    // prisoners, those taken in play and the dead. Chinese: living and seki
    // stones plus territory, and White a point for each handicap stone.
    let dead_of = |stones: &HashSet<String>| dead.intersection(stones).count() as f64;
    let standing = |stones: &HashSet<String>| {
        (alive.intersection(stones).count() + seki.intersection(stones).count()) as f64
    };
    let (black_points, white_points) = if p.area {
        (
            black_area.len() as f64 + standing(&black),
            white_area.len() as f64 + standing(&white) + p.komi + p.handicap_points,
        )
    } else {
        (
            black_area.len() as f64 + captures(1) + dead_of(&white),
            white_area.len() as f64 + captures(2) + dead_of(&black) + p.komi,
        )
    };
    let margin = black_points - white_points;
    let expected = if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    };
    assert_eq!(a[0], expected, "{name}: final_score against the lists");
}

/// The board size and komi of a record (komi 6.5 when it gives none).
fn size_and_komi(sgf: &Path) -> (usize, f64) {
    let record = GameRecord::from_sgf(&std::fs::read(sgf).unwrap()).unwrap();
    (record.size, record.komi.unwrap_or(6.5))
}

#[test]
fn the_score_adds_up_from_the_status_lists_in_finished_games() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("gtp-tests/games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("score-") && name.ends_with(".sgf")
        })
        .collect();
    files.sort();
    let dev = repo().join("../shared/data/scoring");
    if let Ok(list) = std::fs::read_to_string(dev.join("dev.txt")) {
        files.extend(list.lines().step_by(10).map(|l| dev.join(l.trim())));
    }
    let positions: Vec<Position> = files
        .iter()
        .map(|f| Position {
            name: f.display().to_string(),
            setup: vec![format!("loadsgf {}", f.display())],
            komi: size_and_komi(f).1,
            area: false,
            handicap_points: 0.0,
        })
        .collect();
    let answers = ask_all(&positions);
    for ((p, a), f) in positions.iter().zip(&answers).zip(&files) {
        check(p, a, size_and_komi(f).0);
    }
}

/// A seeded random game that never fills its own eyes, as `play` commands,
/// after `handicap` fixed handicap stones.
fn random_game(size: usize, moves: usize, seed: u64, handicap: usize) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut board = Board::new(size);
    let mut color = Color::Black;
    let mut out = vec![format!("boardsize {size}"), "clear_board".to_string()];
    if handicap > 0 {
        for p in fixed_handicap(size, handicap).expect("a fixed placement") {
            board.play(p, Color::Black).unwrap();
        }
        out.push(format!("fixed_handicap {handicap}"));
        color = Color::White;
    }
    let mut passes = 0;
    let start = out.len();
    while out.len() < moves + start && passes < 2 {
        let choices: Vec<_> = board
            .legal_moves(color)
            .into_iter()
            .filter(|&p| board.is_playout_move(p, color))
            .collect();
        let word = if choices.is_empty() {
            passes += 1;
            board.clear_ko();
            "pass".to_string()
        } else {
            passes = 0;
            let p = choices[rng.gen_range(0..choices.len())];
            board.play(p, color).unwrap();
            p.to_gtp(size)
        };
        out.push(format!(
            "play {} {word}",
            if color == Color::Black { "b" } else { "w" }
        ));
        color = color.opponent();
    }
    out
}

#[test]
fn the_score_adds_up_from_the_status_lists_on_random_boards() {
    let mut positions = Vec::new();
    for (size, moves) in [(9, 30), (9, 60), (9, 400), (13, 120), (13, 600), (19, 250)] {
        for seed in 0..3 {
            // One game in three with four handicap stones, counted under
            // every area rule set too.
            let (handicap, rules_sets): (usize, &[&str]) = if seed == 2 {
                (4, &["japanese", "chinese", "aga", "new_zealand"])
            } else {
                (0, &["japanese", "chinese"])
            };
            for &rules in rules_sets {
                let mut setup = random_game(size, moves, 100 * size as u64 + seed, handicap);
                setup.insert(2, format!("kgs-rules {rules}"));
                setup.insert(3, "komi 6.5".to_string());
                let handicap_points = match rules {
                    "chinese" => handicap as f64,
                    "aga" => handicap.saturating_sub(1) as f64,
                    _ => 0.0,
                };
                positions.push(Position {
                    name: format!(
                        "{size}x{size}, {handicap} handicap, {moves} moves, seed {seed}, {rules}"
                    ),
                    setup,
                    komi: 6.5,
                    area: rules != "japanese",
                    handicap_points,
                });
            }
        }
    }
    let answers = ask_all(&positions);
    for (p, a) in positions.iter().zip(&answers) {
        let size = p.setup[0].trim_start_matches("boardsize ").parse().unwrap();
        check(p, a, size);
    }
}

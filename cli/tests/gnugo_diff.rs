//! The rules core against GNU Go 3.8 over GTP, under Japanese rules (simple
//! ko, suicide forbidden: GNU Go's defaults).
//!
//! Seeded random play attempts (mostly empty points, some occupied points,
//! some points with no empty neighbour, where suicide and ko live), passes,
//! out-of-turn moves and undos go to both; after every step the verdicts,
//! both stone sets and both capture counts must agree. GNU Go's `play`
//! accepts either colour and answers `? illegal move` to what it refuses;
//! its `undo` takes back the last move. GNU Go is found as every command
//! finds it (`$GNUGO`, PATH, `/usr/games/gnugo`); without it the tests
//! report a skip (and fail under CI).

mod common;

use kosumi::board::{Color, Game, Move, PlayError, Point, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// GNU Go keeps a bounded move history; stay well inside it so `undo` always
/// means the same to both sides.
const MAX_GAME_MOVES: usize = 300;

struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    /// Starts GNU Go, or explains why not.
    fn start() -> Result<GnuGo, String> {
        let path = kosumi_cli::tools::gnugo().map_err(|e| e.to_string())?;
        let mut child = Command::new(&path)
            .args(["--mode", "gtp", "--level", "0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut g = GnuGo {
            child,
            stdin,
            stdout,
        };
        let version = g.send("version").map_err(|e| format!("version: {e}"))?;
        if !version.starts_with("3.8") {
            eprintln!("note: GNU Go version {version}, written against 3.8");
        }
        Ok(g)
    }

    /// Sends one command; `Ok(body)` for `=`, `Err(body)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("GNU Go stdin");
        self.stdin.flush().expect("GNU Go stdin");
        let mut response = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("GNU Go stdout");
            assert!(n > 0, "GNU Go closed its output after {command:?}");
            if line.trim().is_empty() {
                if response.is_empty() {
                    continue;
                }
                break;
            }
            response.push_str(&line);
        }
        let response = response.trim_end();
        let (status, body) = response.split_at(1);
        let body = body.trim().to_string();
        match status {
            "=" => Ok(body),
            "?" => Err(body),
            _ => panic!("GNU Go answered {response:?} to {command:?}"),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("GNU Go refused {command:?}: {e}"))
    }

    fn new_game(&mut self, size: usize) {
        self.ok(&format!("boardsize {size}"));
        self.ok("clear_board");
    }

    fn stones(&mut self, color: Color, size: usize) -> BTreeSet<Point> {
        let list = self.ok(&format!("list_stones {}", colour_name(color)));
        list.split_whitespace()
            .map(|v| parse_vertex(v, size).unwrap_or_else(|| panic!("bad vertex {v:?}")))
            .collect()
    }

    fn captures(&mut self, color: Color) -> u32 {
        let n = self.ok(&format!("captures {}", colour_name(color)));
        n.parse()
            .unwrap_or_else(|_| panic!("bad capture count {n:?}"))
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A GTP vertex (`A1` bottom-left, columns skip `I`).
fn parse_vertex(v: &str, size: usize) -> Option<Point> {
    let v = v.to_ascii_uppercase();
    let (letter, digits) = v.split_at(1);
    let x = COLUMNS.iter().position(|&c| c == letter.as_bytes()[0])?;
    let row: usize = digits.parse().ok()?;
    if row == 0 || row > size {
        return None;
    }
    Point::checked(x, size - row, size)
}

fn gtp_move(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(p) => p.to_gtp(size),
    }
}

/// Our stones of `color`, as a set.
fn our_stones(game: &Game, color: Color) -> BTreeSet<Point> {
    let board = game.board();
    board
        .points()
        .filter(|&p| board.get(p) == Some(color))
        .collect()
}

fn compare(gnugo: &mut GnuGo, game: &Game, context: &dyn Fn() -> String) {
    let size = game.board().size();
    for color in Color::ALL {
        let theirs = gnugo.stones(color, size);
        let ours = our_stones(game, color);
        if theirs != ours {
            panic!(
                "{color} stones differ: GNU Go has {:?} only, we have {:?} only; {}\n{}",
                theirs
                    .difference(&ours)
                    .map(|p| p.to_gtp(size))
                    .collect::<Vec<_>>(),
                ours.difference(&theirs)
                    .map(|p| p.to_gtp(size))
                    .collect::<Vec<_>>(),
                context(),
                game.board()
            );
        }
        let caps = gnugo.captures(color);
        assert_eq!(
            caps,
            game.board().captures(color),
            "captures by {color}; {}",
            context()
        );
    }
}

/// Points where interesting refusals live: empty points without an empty
/// neighbour (suicide, ko, eye filling), the ko point above all.
fn tight_points(game: &Game) -> Vec<Point> {
    let board = game.board();
    let size = board.size();
    let mut out: Vec<Point> = board
        .points()
        .filter(|&p| {
            board.get(p).is_none()
                && p.neighbours()
                    .iter()
                    .all(|&n| !n.is_on(size) || board.get(n).is_some())
        })
        .collect();
    out.extend(board.ko_point());
    out
}

#[derive(Default, Debug)]
struct Tally {
    played: usize,
    refused: [usize; 4],
    passes: usize,
    undos: usize,
    out_of_turn: usize,
}

/// One seeded run of `steps` actions on a board of side `size`.
fn run(gnugo: &mut GnuGo, size: usize, seed: u64, steps: usize, tally: &mut Tally) {
    let mut rng = StdRng::seed_from_u64(seed);
    gnugo.new_game(size);
    let mut game = Game::new(size, Rules::japanese());
    for step in 0..steps {
        let context = |game: &Game| {
            let moves: Vec<String> = game
                .moves()
                .iter()
                .map(|&(c, m)| format!("{} {}", c.letter(), gtp_move(m, size)))
                .collect();
            format!("size {size} seed {seed} step {step}; moves {moves:?}")
        };
        if game.moves().len() >= MAX_GAME_MOVES {
            gnugo.ok("clear_board");
            game = Game::new(size, Rules::japanese());
        }
        let roll = rng.gen_range(0..100);
        if roll < 6 {
            let ours = game.undo();
            let theirs = gnugo.send("undo").is_ok();
            assert_eq!(ours, theirs, "undo availability; {}", context(&game));
            tally.undos += ours as usize;
        } else {
            let mut color = game.to_move();
            if rng.gen_range(0..100) < 8 {
                color = color.opponent();
                tally.out_of_turn += 1;
            }
            let board = game.board();
            let ko = board.ko_point().filter(|_| rng.gen_range(0..100) < 40);
            let mv = if let Some(ko) = ko {
                // Retakes (and the taker's own fills) are rare at random.
                Move::Play(ko)
            } else if roll < 10 {
                Move::Pass
            } else if roll < 55 && board.empty_count() > 0 {
                let empties = board.empty_points();
                Move::Play(Point::from_index(
                    empties[rng.gen_range(0..empties.len())] as usize,
                ))
            } else if roll < 65 {
                Move::Play(Point::new(rng.gen_range(0..size), rng.gen_range(0..size)))
            } else {
                let tight = tight_points(&game);
                if tight.is_empty() {
                    Move::Pass
                } else {
                    Move::Play(tight[rng.gen_range(0..tight.len())])
                }
            };
            let ours = game.check(color, mv);
            let command = format!("play {} {}", colour_name(color), gtp_move(mv, size));
            let theirs = gnugo.send(&command);
            match (&ours, &theirs) {
                (Ok(()), Ok(_)) => {}
                (Err(_), Err(msg)) if msg == "illegal move" => {}
                _ => panic!(
                    "{command}: we say {ours:?}, GNU Go says {theirs:?}; {}\n{}",
                    context(&game),
                    game.board()
                ),
            }
            match ours {
                Ok(()) => {
                    game.play(color, mv).expect("checked legal");
                    if mv == Move::Pass {
                        tally.passes += 1;
                    } else {
                        tally.played += 1;
                    }
                }
                Err(e) => {
                    let i = match e {
                        PlayError::Occupied => 0,
                        PlayError::Suicide => 1,
                        PlayError::Ko => 2,
                        PlayError::Superko | PlayError::OffBoard => 3,
                    };
                    tally.refused[i] += 1;
                }
            }
        }
        compare(gnugo, &game, &|| context(&game));
    }
}

fn start_or_skip() -> Option<GnuGo> {
    match GnuGo::start() {
        Ok(g) => Some(g),
        Err(why) => {
            common::tools::missing_tool(&why);
            None
        }
    }
}

#[test]
fn random_play_matches_gnugo() {
    let Some(mut gnugo) = start_or_skip() else {
        return;
    };
    let mut tally = Tally::default();
    let mut total = 0;
    // Small boards fill up and see the most captures, kos and suicides.
    for (size, steps, seeds) in [(5, 500, 4), (9, 400, 2), (13, 350, 2), (19, 300, 2)] {
        for seed in 0..seeds {
            run(
                &mut gnugo,
                size,
                1000 * size as u64 + seed,
                steps,
                &mut tally,
            );
            total += steps;
        }
    }
    println!("{total} steps against GNU Go: {tally:?}");
    assert!(tally.played > 1000, "{tally:?}");
    let [occupied, suicide, ko, _] = tally.refused;
    assert!(
        occupied > 50 && suicide > 20 && ko > 5,
        "too few refusals: {tally:?}"
    );
}

/// The scripted corners: ko, retaking after a pass, suicide, undo across a
/// capture, and a multi-stone capture.
#[test]
fn scripted_corners_match_gnugo() {
    let Some(mut gnugo) = start_or_skip() else {
        return;
    };
    let size = 5;
    gnugo.new_game(size);
    let mut game = Game::new(size, Rules::japanese());
    // (colour, vertex, whether legal)
    let script: &[(&str, &str, bool)] = &[
        ("b", "c4", true),
        ("w", "d4", true),
        ("b", "b3", true),
        ("w", "c3", true),
        ("b", "c2", true),
        ("w", "d2", true),
        ("b", "a1", true),
        ("w", "e3", true),
        ("b", "d3", true),  // takes C3: ko
        ("w", "c3", false), // immediate retake
        ("w", "pass", true),
        ("b", "pass", true),
        ("w", "c3", true),  // a pass in between lifts the ko
        ("b", "d3", false), // and now Black cannot retake at once
        ("b", "e5", true),
        ("w", "e4", true),
        ("b", "d5", true),
        ("w", "c5", true),
        ("b", "c5", false), // occupied
        ("b", "a2", true),
        ("w", "b1", true),
        ("b", "b2", true),
        ("w", "a5", true),
        ("b", "c1", true),  // takes B1
        ("w", "b1", false), // suicide
    ];
    for (step, &(colour, vertex, legal)) in script.iter().enumerate() {
        let color = if colour == "b" {
            Color::Black
        } else {
            Color::White
        };
        let mv = if vertex == "pass" {
            Move::Pass
        } else {
            Move::Play(parse_vertex(vertex, size).unwrap())
        };
        let theirs = gnugo.send(&format!("play {colour} {vertex}")).is_ok();
        let ours = game.play(color, mv).is_ok();
        assert_eq!(theirs, legal, "GNU Go on {colour} {vertex} (step {step})");
        assert_eq!(ours, legal, "we on {colour} {vertex} (step {step})");
        compare(&mut gnugo, &game, &|| format!("script step {step}"));
    }
    while game.undo() {
        gnugo.ok("undo");
        compare(&mut gnugo, &game, &|| "undoing the script".into());
    }
    assert!(gnugo.send("undo").is_err());
}

/// The player who has just taken a ko may fill the ko point when moving
/// twice in a row: simple ko only forbids the opponent's immediate retake.
#[test]
fn same_colour_may_fill_its_own_ko_point() {
    let size = 5;
    let mut game = Game::new(size, Rules::japanese());
    for (c, v) in [
        (Color::Black, "c4"),
        (Color::White, "d4"),
        (Color::Black, "b3"),
        (Color::White, "c3"),
        (Color::Black, "c2"),
        (Color::White, "d2"),
        (Color::White, "e3"),
        (Color::Black, "d3"), // takes C3
    ] {
        game.play(c, Move::Play(parse_vertex(v, size).unwrap()))
            .unwrap();
    }
    let fill = Move::Play(parse_vertex("c3", size).unwrap());
    assert_eq!(game.check(Color::White, fill), Err(PlayError::Ko));
    if let Some(mut gnugo) = start_or_skip() {
        gnugo.new_game(size);
        for &(c, m) in game.moves() {
            gnugo.ok(&format!("play {} {}", colour_name(c), gtp_move(m, size)));
        }
        assert!(gnugo.send("play black c3").is_ok());
    }
    assert_eq!(game.check(Color::Black, fill), Ok(()));
}

#[test]
fn vertices_skip_i() {
    assert_eq!(parse_vertex("J9", 9), Some(Point::new(8, 0)));
    assert_eq!(parse_vertex("a1", 9), Some(Point::new(0, 8)));
    assert_eq!(parse_vertex("I5", 9), None);
    assert_eq!(parse_vertex("K1", 9), None);
    assert_eq!(parse_vertex("A10", 9), None);
    for p in [Point::new(7, 3), Point::new(18, 0), Point::new(0, 18)] {
        assert_eq!(parse_vertex(&p.to_gtp(19), 19), Some(p));
    }
}

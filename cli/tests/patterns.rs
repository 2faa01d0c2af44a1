//! Learned move patterns: features on drawn positions, the weights file,
//! and training plus measuring end to end on a few KGS games.

use kosumi::board::{Board, Color, Point};
use kosumi::search::patterns::features::{
    pattern3_id, MoveFeatures, ATARI, CAPTURE, ESCAPE, EXTEND, LINE, SELF_ATARI,
};
use kosumi::search::patterns::{Context, Model};
use kosumi_cli::patterns::train::{is_held_out, replay};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;

const B: Color = Color::Black;
const W: Color = Color::White;

/// A board from rows, top first: `X` black, `O` white, `.` empty.
fn board(rows: &[&str]) -> Board {
    let mut b = Board::new(rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().filter(|c| !c.is_ascii_whitespace()).enumerate() {
            match c {
                b'X' => b.set_stone(Point::new(x, y), Some(B)),
                b'O' => b.set_stone(Point::new(x, y), Some(W)),
                _ => {}
            }
        }
    }
    b
}

fn features(
    b: &Board,
    color: Color,
    x: usize,
    y: usize,
    last: Option<(usize, usize)>,
) -> MoveFeatures {
    let last = last.map(|(x, y)| Point::new(x, y));
    Context::new(b, color, last, None, false).features(Point::new(x, y))
}

#[test]
fn captures_and_ko() {
    let b = board(&[
        ".........",
        "..X......",
        ".XOX.....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    // Taking one stone (class 0), the last move's: level 1 + 2.
    let f = features(&b, B, 2, 3, Some((2, 2)));
    assert_eq!(f.level(CAPTURE), Some(3));
    let f = features(&b, B, 2, 3, None);
    assert_eq!(f.level(CAPTURE), Some(1));
    // A ko capture is level 0.
    let ko = board(&[
        ".........",
        "..XO.....",
        ".XO.O....",
        "..XO.....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let f = features(&ko, B, 3, 2, None);
    assert_eq!(f.level(CAPTURE), Some(0));
    // No self-atari reported for the ko capture itself.
    assert_eq!(f.level(SELF_ATARI), None);
    // A quiet move has no tactical feature; the line is 4 (fifth line).
    let f = features(&b, B, 6, 6, None);
    for g in [CAPTURE, ESCAPE, SELF_ATARI, ATARI, EXTEND] {
        assert_eq!(f.level(g), None, "{}", g.name);
    }
    assert_eq!(f.level(LINE), Some(2 + 5), "third line, nothing near");
}

#[test]
fn self_atari_and_escape() {
    let b = board(&[
        "..O......",
        ".O.......",
        ".........",
        "...O.....",
        "..OX.....",
        "...O.....",
        ".........",
        ".........",
        ".........",
    ]);
    // Black at B9 (1, 0) has one liberty left: a single-stone self-atari.
    let f = features(&b, B, 1, 0, None);
    assert_eq!(f.level(SELF_ATARI), Some(0));
    // Black D5 is in atari; extending to E5 gives three liberties, and the
    // last move (D4) touches the chain: level 2 + 3.
    let f = features(&b, B, 4, 4, Some((3, 5)));
    assert_eq!(f.level(ESCAPE), Some(5));
    assert_eq!(f.level(SELF_ATARI), None);
}

#[test]
fn ataris_read_ladders() {
    // White E5 with two liberties; Black E4 ataris into a ladder that runs
    // to the top right edge.
    let rows = [
        ".........",
        ".........",
        ".........",
        "....X....",
        "...XO....",
        ".....X...",
        ".........",
        ".........",
        ".........",
    ];
    let b = board(&rows);
    let f = features(&b, B, 4, 5, None);
    assert_eq!(f.level(ATARI), Some(1 + 1), "ladder works");
    // White stones on the ladder's path break it.
    let mut broken = b.clone();
    broken.set_stone(Point::new(6, 2), Some(W));
    broken.set_stone(Point::new(2, 6), Some(W));
    let f = features(&broken, B, 4, 5, None);
    assert_eq!(f.level(ATARI), Some(1), "ladder broken");
}

/// The point `p` of a 9x9 board under symmetry `s`.
fn sym(s: usize, p: Point, size: usize) -> Point {
    let (mut x, mut y) = (p.x(), p.y());
    if s & 4 != 0 {
        x = size - 1 - x;
    }
    for _ in 0..(s & 3) {
        (x, y) = (size - 1 - y, x);
    }
    Point::new(x, y)
}

#[test]
fn shapes_are_the_same_under_symmetry_and_colour_swap() {
    let mut rng = StdRng::seed_from_u64(42);
    for _ in 0..20 {
        let size = 9;
        let mut b = Board::new(size);
        for p in b.points().collect::<Vec<_>>() {
            match rng.gen_range(0..6) {
                0 => b.set_stone(p, Some(B)),
                1 => b.set_stone(p, Some(W)),
                _ => {}
            }
        }
        let empties: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
        let p = empties[rng.gen_range(0..empties.len())];
        let keys = Context::new(&b, B, None, None, false).large_keys(p);
        let id3 = pattern3_id(&b, p, B);
        for s in 0..8 {
            let mut t = Board::new(size);
            for q in b.points() {
                t.set_stone(sym(s, q, size), b.get(q));
            }
            let tp = sym(s, p, size);
            assert_eq!(Context::new(&t, B, None, None, false).large_keys(tp), keys);
            assert_eq!(pattern3_id(&t, tp, B), id3);
        }
        // Colours swapped, White to move: the same shape for the mover.
        let mut sw = Board::new(size);
        for q in b.points() {
            sw.set_stone(q, b.get(q).map(Color::opponent));
        }
        assert_eq!(Context::new(&sw, W, None, None, false).large_keys(p), keys);
        assert_eq!(pattern3_id(&sw, p, W), id3);
        // The other mover sees another shape (unless the area is colourless).
        if b.points().any(|q| b.get(q).is_some()) {
            assert_ne!(
                Context::new(&b, W, None, None, false).large_keys(p)[6],
                keys[6]
            );
        }
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn weights_round_trip_and_bad_files_are_errors() {
    let mut m = Model::uniform(&[7, 3, 99, 3]);
    assert_eq!(m.large_count(), 3);
    let gammas: Vec<f64> = (0..m.len()).map(|i| 0.5 + (i % 13) as f64).collect();
    m.set_gammas(&gammas);
    let bytes = m.to_bytes();
    assert_eq!(Model::from_bytes(&bytes).unwrap(), m);
    // Truncated, wrong magic, other version, a flipped bit.
    assert!(Model::from_bytes(&bytes[..bytes.len() - 3]).is_err());
    assert!(Model::from_bytes(b"").is_err());
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(Model::from_bytes(&bad)
        .unwrap_err()
        .0
        .contains("not a kosumi"));
    let mut bad = bytes.clone();
    bad[5] = 9;
    assert!(Model::from_bytes(&bad).unwrap_err().0.contains("version"));
    let mut bad = bytes.clone();
    bad[40] ^= 1;
    assert!(Model::from_bytes(&bad).unwrap_err().0.contains("checksum"));
    // A NaN gamma with a good checksum.
    let mut bad = bytes[..bytes.len() - 8].to_vec();
    let at = bad.len() - 4;
    bad[at..].copy_from_slice(&f32::NAN.to_le_bytes());
    let sum = fnv1a(&bad);
    bad.extend_from_slice(&sum.to_le_bytes());
    assert!(Model::from_bytes(&bad).unwrap_err().0.contains("gamma"));
    // The shipped weights load and know large shapes.
    let shipped = Model::embedded();
    assert!(shipped.large_count() > 0);
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kgs")
}

#[test]
fn games_replay_and_bad_games_are_refused() {
    let bytes = std::fs::read(data().join("2000-10-17-1.sgf")).unwrap();
    let mut n = 0;
    let moves = replay(&bytes, |_| n += 1).unwrap();
    assert_eq!(n, moves);
    assert!(moves > 100);
    // An illegal move (on a stone) refuses the whole game.
    let bad = b"(;GM[1]SZ[19];B[dd];W[dd];B[pp])";
    let mut called = false;
    assert!(replay(bad, |_| called = true).is_err());
    assert!(!called);
    assert!(replay(b"(;GM[1]SZ[19]AW[dd];B[pp])", |_| {}).is_err());
    assert!(replay(b"not sgf", |_| {}).is_err());
    // Handicap stones are set up, White moves first.
    assert_eq!(
        replay(b"(;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp];B[pd])", |_| {}).unwrap(),
        2
    );
}

fn kosumi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn train_and_measure_end_to_end() {
    let dir = std::env::temp_dir().join(format!("kosumi-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("w.bin");
    let games = data();
    let files: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let held = files.iter().filter(|f| is_held_out(f)).count();
    assert!(
        held >= 1 && held < files.len(),
        "the test data has a held-out game"
    );
    let (ok, _, err) = kosumi(&[
        "train-patterns",
        "--games",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--sample",
        "0.5",
        "--min-count",
        "3",
        "--iterations",
        "4",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains(&format!("in {} games", files.len() - held)),
        "held-out games are not trained on: {err}"
    );
    let model = Model::load(&out).unwrap();
    assert!(model.large_count() > 0);
    // Measured on the training games themselves: well above chance.
    let (ok, stdout, err) = kosumi(&[
        "patterns",
        "eval",
        "--games",
        games.to_str().unwrap(),
        "--weights",
        out.to_str().unwrap(),
        "--all-games",
    ]);
    assert!(ok, "{err}");
    let top1: f64 = stdout
        .split("top-1 ")
        .nth(1)
        .and_then(|s| s.split('%').next())
        .and_then(|s| s.parse().ok())
        .expect("a top-1 figure");
    assert!(top1 > 15.0, "{stdout}");
    // Only the held-out game by default.
    let (ok, stdout, _) = kosumi(&["patterns", "eval", "--games", games.to_str().unwrap()]);
    assert!(ok && stdout.starts_with("positions "), "{stdout}");
    // A malformed weights file is a clear error, for eval and for the engine.
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"KSPAT\x01\x00\x00garbage").unwrap();
    let (ok, _, err) = kosumi(&[
        "patterns",
        "eval",
        "--games",
        games.to_str().unwrap(),
        "--weights",
        junk.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("bad pattern weights"), "{err}");
    assert!(!err.contains("panicked"));
    let (ok, _, err) = kosumi(&["--pattern-weights", junk.to_str().unwrap()]);
    assert!(!ok && err.contains("bad pattern weights"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! `kosumi review` on a short 9x9 game: the annotated SGF reads back with
//! the same moves, a comment and a win rate on every move, a variation and
//! a `BM` on every mistake, the mistakes listed at the root; the chart is an
//! SVG; the same seed gives the same file; bad input is a clear error.

use kosumi::sgf::{Collection, GameRecord};
use std::path::PathBuf;
use std::process::{Command, Output};

const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review-9x9.sgf");

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kosumi-review-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn review(extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["review", "--playouts", "80", "--threads", "1", "--quiet"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn annotated_sgf_and_chart() {
    let (out, chart) = (tmp("a.sgf"), tmp("a.svg"));
    let r = review(&[
        GAME,
        "--out",
        out.to_str().unwrap(),
        "--chart",
        chart.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&out).unwrap();

    // Same game, same moves on the main line.
    let original = GameRecord::from_sgf(&std::fs::read(GAME).unwrap()).unwrap();
    let reviewed = GameRecord::from_sgf(text.as_bytes()).unwrap();
    let moves = |r: &GameRecord| r.moves().collect::<Vec<_>>();
    assert_eq!(moves(&reviewed), moves(&original));
    assert_eq!(reviewed.black_name.as_deref(), Some("Alice"));
    let root_comment = reviewed.comment.unwrap();
    assert!(root_comment.starts_with("A short game for the review tests."));
    assert!(root_comment.contains("Reviewed by kosumi"));
    assert!(root_comment.contains("Biggest mistakes:"), "{root_comment}");

    // Every move node: a comment and Sabaki's win rate; mistakes: BM and a
    // variation beside the move, starting with kosumi's choice.
    let c = Collection::parse(text.as_bytes()).unwrap();
    let root = c.games()[0];
    let mut node = c.node(root);
    let mut mistakes = 0;
    let mut variations = 0;
    while let Some(&first) = node.children.first() {
        for &alt in &node.children[1..] {
            variations += 1;
            let v = c.node(alt);
            assert!(v.first("C").unwrap().starts_with("kosumi's choice"));
            assert!(!v.children.is_empty() || v.get("B").is_some() || v.get("W").is_some());
        }
        node = c.node(first);
        let comment = node.first("C").unwrap();
        assert!(comment.contains("Black's win rate"), "{comment}");
        let wr: f64 = node.first("SBKV").unwrap().parse().unwrap();
        assert!((0.0..=100.0).contains(&wr));
        if node.get("BM").is_some() {
            mistakes += 1;
            assert!(comment.contains("Mistake:"), "{comment}");
        }
    }
    assert!(mistakes > 0);
    assert_eq!(mistakes, variations);
    let n = root_comment
        .lines()
        .filter(|l| l.starts_with("Move "))
        .count();
    assert_eq!(n, mistakes.min(10));

    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("<polyline") || svg.contains("<path"));

    // The same seed and one thread: the same review.
    let again = tmp("b.sgf");
    let r = review(&[GAME, "--out", again.to_str().unwrap()]);
    assert!(r.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
}

#[test]
fn bad_input_is_a_clear_error() {
    let r = review(&["/no/such/game.sgf"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("cannot read"));
    for bad in [["--confidence", "-1"], ["--min-points", "NaN"]] {
        let r = review(&[GAME, bad[0], bad[1]]);
        assert_eq!(r.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&r.stderr).contains(bad[0]));
    }
    let r = review(&[GAME, "--out", "/no/such/dir/out.sgf"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("cannot write"));
    let illegal = tmp("illegal.sgf");
    std::fs::write(&illegal, "(;SZ[9];B[ee];W[ee])").unwrap();
    let r = review(&[illegal.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("move 2"), "{err}");
}

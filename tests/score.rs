//! Counting on real games: the shared KGS 6d+ set with agreed results.

use kosumi::cli::score_cmd::{check_list, score_file, Options};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Exact agreement with the agreed KGS results reached on the dev set, less
/// a small margin.
const DEV_AGREEMENT: f64 = 0.90;

#[test]
fn dev_set_agrees_with_people() {
    let list = repo().join("../shared/data/scoring/dev.txt");
    if !list.exists() {
        println!("skipped: no {}", list.display());
        return;
    }
    let report = check_list(&list, &Options::default(), 2).unwrap();
    for line in &report.lines {
        println!("{line}");
    }
    println!("{}", report.summary());
    assert_eq!(report.errors, 0);
    assert_eq!(report.compared, 190);
    assert!(
        report.agreement() >= DEV_AGREEMENT,
        "agreement {:.3} below {DEV_AGREEMENT}",
        report.agreement()
    );
}

/// Prints the diagrams of the games named in `KOSUMI_SCORE_SHOW` (paths
/// relative to the scoring folder, comma-separated): a tool for looking at
/// failures.
#[test]
#[ignore]
fn show_games() {
    let Ok(names) = std::env::var("KOSUMI_SCORE_SHOW") else {
        return;
    };
    let dir = repo().join("../shared/data/scoring");
    for name in names.split(',') {
        let out = score_file(&dir.join(name), &Options::default()).unwrap();
        println!("{name}: {} ({:?})\n{}", out.score, out.time, out.diagram);
    }
}

#[test]
fn result_strings_parse() {
    use kosumi::cli::score_cmd::parse_result;
    assert_eq!(parse_result("B+3.50"), Some(3.5));
    assert_eq!(parse_result("W+0.5"), Some(-0.5));
    assert_eq!(parse_result("0"), Some(0.0));
    assert_eq!(parse_result("Jigo"), Some(0.0));
    assert_eq!(parse_result("B+R"), None);
    assert_eq!(parse_result("W+Time"), None);
    assert_eq!(parse_result(""), None);
}

#[test]
fn a_file_is_counted_with_a_marked_diagram() {
    let path = repo().join("gtp-tests/games/score-seki.sgf");
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "W+27.5");
    // Seki stones of both colours and the two shared liberties as dame.
    assert!(out.diagram.contains(" 1 # . @ X O"), "{}", out.diagram);
    assert!(out.diagram.contains(" 2 . # @ X O"), "{}", out.diagram);
    assert!(score_file(&repo().join("no-such-file.sgf"), &Options::default()).is_err());
}

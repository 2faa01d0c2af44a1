//! Counting on real games: the shared KGS 6d+ set with agreed results.

mod common;

use kosumi::cli::score_cmd::{check_list, score_file, Options};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Exact agreement with the agreed KGS results reached on the dev set, less
/// a small margin.
const DEV_AGREEMENT: f64 = 0.97;

#[test]
fn dev_set_agrees_with_people() {
    let list = repo().join("../shared/data/scoring/dev.txt");
    if !list.exists() {
        common::tools::skip(&format!("no {}", list.display()));
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
        print_differences(&dir.join(name));
    }
}

/// The players' marks from `TB`/`TW` (looked at by people only, never by
/// the scorer): points where they and the engine disagree.
fn print_differences(path: &std::path::Path) {
    use kosumi::board::{Color, Point};
    use kosumi::score::{self, Owner};
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let mut marks = std::collections::HashMap::new();
    for (tag, owner) in [("TB", Owner::Black), ("TW", Owner::White)] {
        let mut rest = text.as_str();
        while let Some(i) = rest.find(tag) {
            rest = &rest[i + 2..];
            loop {
                let t = rest.trim_start();
                if !t.starts_with('[') {
                    break;
                }
                let end = t.find(']').unwrap();
                let v = &t.as_bytes()[1..end];
                if v.len() == 2 {
                    marks.insert(
                        Point::new((v[0] - b'a') as usize, (v[1] - b'a') as usize),
                        owner,
                    );
                }
                rest = &t[end + 1..];
            }
        }
    }
    let record = kosumi::sgf::GameRecord::from_sgf(&bytes).unwrap();
    let game = record
        .to_game(None, kosumi::board::Rules::japanese(), None)
        .unwrap();
    let j = score::judge(&game);
    let b = game.board();
    let mut diffs = Vec::new();
    let d = b.diagram(|p| {
        let kgs = marks.get(&p).copied().unwrap_or(Owner::Dame);
        let ours = j.owner(p);
        if kgs != ours {
            diffs.push(format!("{} kgs {kgs:?} ours {ours:?}", p.to_gtp(b.size())));
            return Some('!');
        }
        Some(match (b.get(p), kgs) {
            (Some(Color::Black), Owner::White) => 'x',
            (Some(Color::White), Owner::Black) => 'o',
            (Some(Color::Black), _) => 'X',
            (Some(Color::White), _) => 'O',
            (None, Owner::Black) => '+',
            (None, Owner::White) => '-',
            (None, Owner::Dame) => '.',
        })
    });
    println!(
        "players' marks (! where the engine differs):\n{d}{}",
        diffs.join("\n")
    );
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
    assert_eq!(out.score.to_string(), "B+20.5");
    // Seki stones of both colours and the two shared liberties as dame.
    assert!(
        out.diagram.contains(" 1 . # # # . @ X O -"),
        "{}",
        out.diagram
    );
    assert!(
        out.diagram.contains(" 2 @ @ @ @ @ @ X O -"),
        "{}",
        out.diagram
    );
    assert!(score_file(&repo().join("no-such-file.sgf"), &Options::default()).is_err());
}

/// 2017-06-18-16: the white lower-left group's second eye is the ko at E1,
/// which under the confirmation rules only Black can win (ko threats are
/// gone), and its corner, with the black square four inside, then dies:
/// about forty plies of reading with the passes.
#[test]
fn a_group_living_on_a_ko_dies_in_confirmation() {
    let path = repo().join("../shared/data/scoring/games/2017-06-18-16.sgf");
    if !path.exists() {
        common::tools::skip(&format!("no {}", path.display()));
        return;
    }
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "B+165.5");
}

#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // More diagrams than a pipe buffer holds, and a reader that stops
    // after the first line (as `| head -1` does).
    let file = repo().join("gtp-tests/games/score-seki.sgf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .arg("score")
        .args(std::iter::repeat_n(&file, 150))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.ends_with("B+20.5\n"), "{first}");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

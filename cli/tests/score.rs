//! Counting on real games: the shared KGS 6d+ set with agreed results.

mod common;

use kosumi_cli::score_cmd::{check_list, score_file, Options};
use std::path::PathBuf;

/// The repository's root (this package is its `cli/` folder).
fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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
    assert_eq!(report.errors(), 0);
    assert_eq!(report.compared(), 190);
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
    use kosumi::score::Owner;
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
    let j = kosumi::search::referee().judge(&game);
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
    let parse_result = |re: &str| re.parse::<kosumi::board::GameResult>().ok()?.margin();
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

/// The readings behind a call are listed: in the bent four in the corner,
/// Black breaks White's seki moving first and White cannot break Black's.
#[test]
fn a_count_lists_the_readings_behind_its_calls() {
    let path = repo().join("gtp-tests/games/score-bent-four.sgf");
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "W+1.5");
    assert!(
        out.readings.starts_with("2 readings:\n"),
        "{}",
        out.readings
    );
    assert!(
        out.readings
            .contains("  seki of W C9 (7 stones), Black first: captured ("),
        "{}",
        out.readings
    );
    assert!(
        out.readings
            .contains("  seki of B A9 (3 stones), White first: holds ("),
        "{}",
        out.readings
    );
    // Sabaki shows them in the marked game's comment.
    assert!(
        out.marked_sgf
            .contains("\n2 readings:\n  seki of B A9 (3 stones), White first: holds ("),
        "{}",
        out.marked_sgf
    );
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

/// Tune game 2006-08-06-19: White's O4 group (4 stones, and three chains
/// of 6 stones beside it) dies to a kill full width runs out on at 400,000
/// positions; proof numbers, read after it, find it in a few thousand.
#[test]
fn a_long_kill_full_width_runs_out_on_is_read_by_proof_numbers() {
    let path = repo().join("gtp-tests/games/score-kgs-long-kill.sgf");
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "W+19.5");
    let readings = "
  eye space of W O4 (4 stones), Black first: ran out after 400,000 positions
  eye space of W O4 (4 stones), Black first: captured (";
    assert!(out.readings.contains(readings), "{}", out.readings);
    assert!(
        out.diagram
            .contains(" 4 + + X O - O O X X X O O X o X X o X o 4"),
        "{}",
        out.diagram
    );
}

/// The count of a kept game under the playouts' seed `seed` (the default
/// seed for `None`).
fn count_with_seed(name: &str, seed: Option<u64>) -> kosumi_cli::score_cmd::Counted {
    let path = repo().join("gtp-tests/games").join(name);
    let opts = Options {
        seed,
        ..Options::default()
    };
    score_file(&path, &opts).unwrap()
}

/// Tune game 2015-08-28-15: White's 12-stone T14 and Black's stones inside
/// its area (P11, O10, Q10 to S10) each have fewer than two eyes because
/// of the other. Both were killed; with Black's gone White has two eyes,
/// and the playouts keep White's group more often, so it lives. The count
/// is the players' under each seed.
#[test]
fn two_groups_killed_for_each_others_stones_are_not_both_dead() {
    for seed in [None, Some(1), Some(2), Some(3)] {
        let out = count_with_seed("score-kgs-mutual-kill.sgf", seed);
        assert_eq!(out.score.to_string(), "B+4.5", "seed {seed:?}");
    }
}

/// Tune game 2003-09-10-1 under seed 1: Black's lone A5 is called seki. The
/// white chains beside its region are shut in by Black's 17 dead stones at
/// E6; read with those stones on the board, they could fill none of their
/// points and the seki held. With the dead stones taken off, White kills
/// A5, the players' count.
#[test]
fn a_seki_is_read_with_the_dead_stones_around_it_taken_off() {
    for seed in [None, Some(1)] {
        let out = count_with_seed("score-kgs-seki-shut-in.sgf", seed);
        assert_eq!(out.score.to_string(), "W+18.5", "seed {seed:?}");
    }
}

/// Tune game 2015-01-08-37 under seeds 1 to 3: Black's 13-stone P5 is called
/// seki from the playouts, in a region of 17 empty points, too big for a
/// seki reading. It gets the eye-space reading a living group gets, which
/// captures it (a pyramid four of White's stones in its corner), the
/// players' count; under the default seed it was called alive and read so
/// already.
#[test]
fn a_seki_call_no_seki_reading_settles_gets_the_eye_space_reading() {
    for seed in [None, Some(1), Some(2), Some(3)] {
        let out = count_with_seed("score-kgs-seki-unread.sgf", seed);
        assert_eq!(out.score.to_string(), "W+17.5", "seed {seed:?}");
    }
}

/// 2017-01-18-12: proof numbers kill Black's 16 stones at M7 by taking an
/// eye at J1, where White's H1 and J1 are then left one liberty outside the
/// points read. Read again with that liberty, the kill fails, and the group
/// lives as the players agreed.
#[test]
fn a_proof_number_kill_must_stand_with_short_attackers_capturable() {
    let path = repo().join("../shared/data/scoring/games/2017-01-18-12.sgf");
    if !path.exists() {
        common::tools::skip(&format!("no {}", path.display()));
        return;
    }
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "B+19.5");
    let read = "  eye space of B M7 (16 stones), White first: ";
    let lines: Vec<&str> = out
        .readings
        .lines()
        .filter(|l| l.starts_with(read))
        .collect();
    assert_eq!(lines.len(), 3, "{}", out.readings);
    assert!(
        lines[0].ends_with("ran out after 400,000 positions"),
        "{}",
        out.readings
    );
    assert!(lines[1].contains("captured ("), "{}", out.readings);
    assert!(lines[2].contains("holds ("), "{}", out.readings);
}

/// Stones shut in the opponent's corner with no eye between them: the light
/// playouts alone keep them alive more than half the time and name the
/// wrong winner; the search's playouts, which every count mixes in, kill
/// them, and the count is the players'.
#[test]
fn the_search_playouts_kill_stones_the_light_ones_keep() {
    use kosumi::board::{Color, Point, Rules};
    use kosumi::score::{self, PointStatus, Reason};
    let path = repo().join("gtp-tests/games/score-kgs-corner-stones.sgf");
    let record = kosumi::sgf::GameRecord::from_sgf(&std::fs::read(&path).unwrap()).unwrap();
    let game = record.to_game(None, Rules::japanese(), None).unwrap();
    let d7 = Point::new(3, 12);
    assert_eq!(d7.to_gtp(19), "D7");
    let survival = |reason| match reason {
        Some(Reason::Playouts { percent } | Reason::FewEyes { percent }) => percent,
        other => panic!("D7 judged by {other:?}"),
    };
    let light = score::Judge::light().judge(&game);
    let mixed = kosumi::search::referee().judge(&game);
    assert!(survival(light.reason(d7)) > 50, "{:?}", light.reason(d7));
    assert!(survival(mixed.reason(d7)) < 45, "{:?}", mixed.reason(d7));
    assert_eq!(mixed.status(d7), Some(PointStatus::Dead));
    assert_eq!(score::count(&game, &light).winner(), Some(Color::Black));
    assert_eq!(score::count(&game, &mixed).to_string(), "W+13.5");
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "W+13.5");
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

/// A reference engine that does not start, or does not count, is one
/// clear error before any game is counted, not one error a game.
#[test]
fn a_reference_engine_that_cannot_count_stops_the_check_at_once() {
    use std::process::Command;
    let root = archived_games("noref");
    let table = root.join("scoring/table.tsv");
    let kosumi = env!("CARGO_BIN_EXE_kosumi");
    let run = |engine: &str| {
        Command::new(kosumi)
            .args(["score", "--quiet", "--threads", "1", "--tsv"])
            .arg(&table)
            .args(["--gnugo", engine])
            .output()
            .unwrap()
    };
    for (engine, why) in [
        ("/nonexistent/gnugo", "could not start"),
        ("cat", "does not speak GTP"),
    ] {
        let out = run(engine);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{engine}: {stderr}");
        assert!(out.stdout.is_empty(), "{engine}");
        assert_eq!(stderr.lines().count(), 1, "{engine}: {stderr}");
        assert!(
            stderr.starts_with("kosumi score: --gnugo: ") && stderr.contains(why),
            "{engine}: {stderr}"
        );
    }
    let out = run(&format!("{kosumi} gtp --quiet"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\ngnugo:  exact 1/2"));
    std::fs::remove_dir_all(&root).unwrap();
}

/// With `--gnugo`, a file's score line carries the reference engine's count
/// too (kosumi's own GTP engine stands in for GNU Go).
#[test]
fn a_file_is_counted_by_the_reference_engine_too() {
    let kosumi = env!("CARGO_BIN_EXE_kosumi");
    let file = repo().join("gtp-tests/games/score-bent-four.sgf");
    let out = std::process::Command::new(kosumi)
        .args(["score", "--quiet"])
        .arg(&file)
        .args(["--gnugo", &format!("{kosumi} gtp --quiet")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?}", out.status);
    assert!(stdout.ends_with(": W+1.5 (gnugo W+1.5)\n"), "{stdout}");
}

/// The SGF points of a whole 9x9 column, `[xa][xb]...[xi]`.
fn column(x: char) -> String {
    (0..9)
        .map(|y| format!("[{x}{}]", (b'a' + y) as char))
        .collect()
}

/// A scratch folder laid out like the shared data: `scoring/table.tsv` and
/// `kgs-6d/*.tar.gz`, the archives built here.
fn archived_games(tag: &str) -> PathBuf {
    use flate2::{write::GzEncoder, Compression};
    let root = std::env::temp_dir().join(format!("kosumi-score-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("scoring")).unwrap();
    std::fs::create_dir_all(root.join("kgs-6d")).unwrap();
    // A black wall on column D, a white one on E: Black 27, White 36 + komi.
    let wall = |re: &str| {
        let (b, w) = (column('d'), column('e'));
        format!("(;GM[1]SZ[9]KM[0.5]RU[Japanese]RE[{re}]AB{b}AW{w})")
    };
    let members = [
        ("g/right.sgf", wall("W+9.5")),
        ("g/wrong.sgf", wall("B+2.5")),
        ("g/unlisted.sgf", wall("W+9.5")),
        ("g/resigned.sgf", wall("B+R")),
    ];
    let gz = GzEncoder::new(
        std::fs::File::create(root.join("kgs-6d/a.tar.gz")).unwrap(),
        Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    for (name, text) in &members {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, text.as_bytes()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    std::fs::write(
        root.join("scoring/table.tsv"),
        "# archive\tmember\thalf\n\
         a.tar.gz\tg/right.sgf\ttune\n\
         a.tar.gz\tg/wrong.sgf\ttune\n\
         a.tar.gz\tg/missing.sgf\tvalidate\n\
         a.tar.gz\tg/resigned.sgf\tvalidate\n\
         b.tar.gz\tg/right.sgf\tvalidate\n",
    )
    .unwrap();
    root
}

#[test]
fn table_games_are_read_out_of_their_archives() {
    use kosumi_cli::score_cmd::source::{default_archives, from_table, Pick};
    let root = archived_games("read");
    let table = root.join("scoring/table.tsv");
    let archives = default_archives(&table);
    let all = Pick::default();
    let games = from_table(&table, &archives, &all).unwrap();
    let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "a.tar.gz:g/right.sgf",
            "a.tar.gz:g/wrong.sgf",
            "a.tar.gz:g/missing.sgf",
            "a.tar.gz:g/resigned.sgf",
            "b.tar.gz:g/right.sgf"
        ]
    );
    assert!(games[0].sgf.as_ref().unwrap().starts_with(b"(;GM[1]"));
    assert_eq!(
        games[2].sgf.as_ref().unwrap_err().to_string(),
        "not in the archive"
    );
    assert!(games[4].sgf.is_err(), "b.tar.gz does not exist");

    // Halves, every n-th (the n-th, 2n-th, ...) and a cap.
    let tune = Pick {
        half: Some("tune"),
        ..all
    };
    let games = from_table(&table, &archives, &tune).unwrap();
    assert_eq!(games.len(), 2);
    let second = Pick {
        half: Some("validate"),
        every: 2,
        first: Some(5),
        ..all
    };
    let games = from_table(&table, &archives, &second).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].name, "a.tar.gz:g/resigned.sgf");
    let capped = Pick {
        first: Some(1),
        ..all
    };
    assert_eq!(from_table(&table, &archives, &capped).unwrap().len(), 1);
    // A window: skip the first three, then at most one.
    let window = Pick {
        skip: 3,
        first: Some(1),
        ..all
    };
    let games = from_table(&table, &archives, &window).unwrap();
    let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["a.tar.gz:g/resigned.sgf"]);
    let past_the_end = Pick { skip: 9, ..all };
    assert!(from_table(&table, &archives, &past_the_end)
        .unwrap()
        .is_empty());
    let nothing = Pick {
        half: Some("other"),
        ..all
    };
    assert!(from_table(&table, &archives, &nothing).is_err());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn table_checks_report_misses_and_errors() {
    use kosumi_cli::score_cmd::source::{default_archives, from_table, Pick};
    use kosumi_cli::score_cmd::{check_games, CheckOptions};
    let root = archived_games("check");
    let table = root.join("scoring/table.tsv");
    let pick = Pick::default();
    let games = from_table(&table, &default_archives(&table), &pick).unwrap();
    let check = CheckOptions {
        threads: 2,
        ..CheckOptions::default()
    };
    let report = check_games(&games, &Options::default(), &check);
    assert_eq!(report.ours.compared, 2);
    assert_eq!(report.ours.exact, 1);
    assert_eq!(report.ours.winner, 1);
    assert_eq!(report.errors(), 3, "{:?}", report.lines);
    assert!(report.lines.iter().any(|l| l.starts_with(
        "miss a.tar.gz:g/wrong.sgf: ours W+9.5, record B+2.5 (off by -12), wrong winner"
    )));
    assert!(report
        .lines
        .iter()
        .any(|l| l.contains("RE[B+R] is not a count")));
    std::fs::remove_dir_all(&root).unwrap();
}

/// With `readings`, a miss of a list is followed by its groups and the
/// readings behind them, indented: here the bent four in the corner with a
/// wrong result recorded.
#[test]
fn list_misses_show_their_groups_and_readings() {
    use kosumi_cli::score_cmd::source::{from_list, Pick};
    use kosumi_cli::score_cmd::{check_games, CheckOptions};
    let dir = std::env::temp_dir().join(format!("kosumi-score-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = std::fs::read_to_string(repo().join("gtp-tests/games/score-bent-four.sgf")).unwrap();
    let wrong = sgf.replacen("RU[Japanese]", "RU[Japanese]RE[B+0.5]", 1);
    std::fs::write(dir.join("bent.sgf"), wrong).unwrap();
    std::fs::write(dir.join("list.txt"), "bent.sgf\n").unwrap();
    let games = from_list(&dir.join("list.txt"), &Pick::default()).unwrap();
    let check = |readings| CheckOptions {
        threads: 1,
        readings,
        ..CheckOptions::default()
    };
    let plain = check_games(&games, &Options::default(), &check(false));
    assert_eq!(plain.lines.len(), 1);
    assert!(
        plain.lines[0].ends_with("bent.sgf: ours W+1.5, record B+0.5 (off by -2), wrong winner"),
        "{}",
        plain.lines[0]
    );
    let why = check_games(&games, &Options::default(), &check(true));
    let text = why.lines.join("\n");
    assert!(text.starts_with(&plain.lines[0]), "{text}");
    assert!(
        text.contains("\n    W C9 (7 stones): dead: seki broken, attacker first (read)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n    2 readings:\n      seki of B A9 (3 stones), White first: holds (")
            && text.contains("\n      seki of W C9 (7 stones), Black first: captured ("),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The reference engine's counts are kept in the cache file and read back
/// on the next run instead of asking it again (kosumi's own GTP engine
/// stands in for GNU Go here).
#[test]
fn reference_counts_come_back_from_the_cache() {
    use kosumi_cli::score_cmd::reference_cache::ReferenceCache;
    use kosumi_cli::score_cmd::source::{default_archives, from_table, Pick};
    use kosumi_cli::score_cmd::{check_games, CheckOptions};
    use std::sync::Arc;
    let root = archived_games("cache");
    let table = root.join("scoring/table.tsv");
    let games = from_table(&table, &default_archives(&table), &Pick::default()).unwrap();
    let command = format!("{} gtp --quiet", env!("CARGO_BIN_EXE_kosumi"));
    let path = root.join("answers.tsv");
    let run = || {
        let check = CheckOptions {
            threads: 1,
            gnugo: Some(command.clone()),
            gnugo_cache: Some(Arc::new(ReferenceCache::open(&path, &command).unwrap())),
            ..CheckOptions::default()
        };
        check_games(&games, &Options::default(), &check)
    };
    let first = run();
    let miss = "miss a.tar.gz:g/wrong.sgf: ours W+9.5, record B+2.5, gnugo W+9.5 (off by -12)";
    assert!(
        first.lines.iter().any(|l| l.starts_with(miss)),
        "{:?}",
        first.lines
    );
    let kept = std::fs::read_to_string(&path).unwrap();
    // Both countable games, each with the engine's W+9.5.
    assert_eq!(kept.lines().count(), 3, "{kept}");
    assert_eq!(kept.matches("\t-9.5\t").count(), 2, "{kept}");
    // Answers changed in the file are what the next run reports.
    std::fs::write(&path, kept.replace("\t-9.5\t", "\t42\t")).unwrap();
    let second = run();
    assert!(
        second
            .lines
            .iter()
            .any(|l| l.contains(", gnugo B+42 (off by -12)")),
        "{:?}",
        second.lines
    );
    let tally = second.gnugo.unwrap();
    assert_eq!((tally.compared, tally.exact), (2, 0));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn table_lines_need_three_columns() {
    use kosumi_cli::score_cmd::source::parse_table;
    assert!(parse_table("# header\n\na\tb\ttune\n").unwrap().len() == 1);
    let e = parse_table("a\tb\n").unwrap_err().to_string();
    assert!(e.starts_with("line 1: expected 3"), "{e}");
}

#[test]
fn marked_games_carry_territory_and_the_result() {
    use kosumi_cli::score_cmd::score_file;
    let dir = std::env::temp_dir().join(format!("kosumi-score-marked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Walls on D and E, a dead white stone at B2 in Black's area, and the
    // players' own (wrong) marks, which must not survive.
    let (b, w) = (column('d'), column('e'));
    let path = dir.join("walls.sgf");
    std::fs::write(
        &path,
        format!("(;GM[1]SZ[9]KM[0.5]RU[Japanese]AB{b}AW{w};W[bh];B[]TB[aa]TW[ii])"),
    )
    .unwrap();
    let out = score_file(&path, &Options::default()).unwrap();
    assert_eq!(out.score.to_string(), "W+8.5");
    let record = kosumi::sgf::Collection::parse(out.marked_sgf.as_bytes()).unwrap();
    let last = record.main_line(record.games()[0]).last().unwrap();
    assert_eq!(
        last.get("TB").unwrap().len(),
        27,
        "A-C, the dead stone's point too"
    );
    assert!(last.get("TB").unwrap().iter().any(|v| v == "bh"));
    assert_eq!(last.get("TW").unwrap().len(), 36);
    let comment = last.first("C").unwrap();
    assert!(comment.starts_with("kosumi counts W+8.5\n"), "{comment}");
    assert!(
        comment.contains("Black 27 territory + 1 prisoner (0 taken in play, 1 dead) = 28\n"),
        "{comment}"
    );
    assert!(
        comment.contains(
            "White 36 territory + 0 prisoners (0 taken in play, 0 dead) + 0.5 komi = 36.5\n"
        ),
        "{comment}"
    );
    let marks: usize = record
        .main_line(record.games()[0])
        .map(|n| n.get("TB").map_or(0, <[String]>::len))
        .sum();
    assert_eq!(marks, 27, "the players' TB is gone");
    std::fs::remove_dir_all(&dir).unwrap();
}

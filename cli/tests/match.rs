//! `kosumi match` end to end: a fake GTP engine (tests/fake-engine/fake_gtp.py)
//! exercises every way a game can end; GNU Go plays a short real match when
//! it is installed.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use clap::Parser;
use kosumi_cli::match_cmd::stats::SprtDecision;
use kosumi_cli::match_cmd::{
    run, run_match, EndReason, MatchArgs, MatchError, MatchReport, ENGINE_STDERR_FILE,
};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

fn args(list: &[&str]) -> MatchArgs {
    let argv = std::iter::once("match").chain(list.iter().copied());
    Cli::try_parse_from(argv)
        .expect("test arguments parse")
        .args
}

fn fake(opts: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_gtp.py");
    format!("python3 '{}' {opts}", script.display())
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kosumi-match-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A 9x9 match between two fake engines with extra options.
fn fake_match(a: &str, b: &str, extra: &[&str]) -> Result<MatchReport, MatchError> {
    let (a, b) = (fake(a), fake(b));
    let mut list = vec![
        "--engine",
        &a,
        "--engine",
        &b,
        "--name",
        "A",
        "--name",
        "B",
        "--quiet",
        "--engine-stderr",
        "null",
    ];
    // Defaults unless the test gives its own.
    for (key, value) in [("--size", "9"), ("--komi", "6.5"), ("--games", "1")] {
        if !extra.contains(&key) {
            list.extend([key, value]);
        }
    }
    list.extend_from_slice(extra);
    run_match(&args(&list))
}

fn only_game(report: &MatchReport) -> &kosumi_cli::match_cmd::GameSummary {
    assert_eq!(report.games.len(), 1, "{:?}", report.games);
    &report.games[0]
}

#[test]
fn two_passes_are_counted_and_recorded() {
    let dir = scratch("passes");
    let sgf_dir = dir.join("sgf");
    let report = fake_match(
        "",
        "",
        &["--games", "2", "--sgf-dir", sgf_dir.to_str().unwrap()],
    )
    .unwrap();
    assert_eq!(report.names, ["A", "B"]);
    assert_eq!(report.games.len(), 2);
    for (i, g) in report.games.iter().enumerate() {
        assert_eq!(g.game, i + 1);
        assert_eq!(g.black_engine, i % 2, "colours alternate");
        assert_eq!(g.reason, EndReason::TwoPasses);
        assert_eq!(g.result, "W+6.5");
        assert_eq!(g.moves, 2);
    }
    // A was White in game 2 only.
    let a = report.tally(0);
    assert_eq!((a.wins, a.draws, a.losses), (1, 0, 1));

    let sgf = fs::read_to_string(sgf_dir.join("game-0001.sgf")).unwrap();
    for needle in [
        "PB[A]",
        "PW[B]",
        "KM[6.5]",
        "RE[W+6.5]",
        "SZ[9]",
        "DT[",
        "RU[",
        ";B[]",
        ";W[]",
    ] {
        assert!(sgf.contains(needle), "{needle} missing in {sgf}");
    }
    assert!(sgf.contains("Time used"), "{sgf}");
    let sgf2 = fs::read_to_string(sgf_dir.join("game-0002.sgf")).unwrap();
    assert!(sgf2.contains("PB[B]") && sgf2.contains("PW[A]"), "{sgf2}");

    let jsonl = fs::read_to_string(sgf_dir.join("results.jsonl")).unwrap();
    let lines: Vec<&str> = jsonl.lines().collect();
    assert_eq!(lines.len(), 3, "{jsonl}");
    assert!(lines[0].contains("\"type\":\"header\""));
    assert!(lines[1].contains("\"game\":1") && lines[1].contains("\"reason\":\"passes\""));
    assert!(lines[2].contains("\"black\":\"B\"") && lines[2].contains("\"sgf\":"));
    assert!(
        report.table.contains("Black won 0, White won 2"),
        "{}",
        report.table
    );
}

#[test]
fn resignation_loses() {
    let report = fake_match("--resign-at 1", "", &["--games", "2"]).unwrap();
    assert_eq!(report.games[0].result, "W+Resign");
    assert_eq!(report.games[1].result, "B+Resign");
    assert!(report
        .games
        .iter()
        .all(|g| g.reason == EndReason::Resignation));
    let a = report.tally(0);
    assert_eq!((a.wins, a.losses), (0, 2));
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let report = fake_match("--moves C3 --crash-after 1", "", &["--games", "2"]).unwrap();
    for g in &report.games {
        assert_eq!(g.reason, EndReason::Crash, "{g:?}");
        assert_eq!(g.winner_engine(), Some(1));
        assert!(
            g.detail.contains("engine 'A'") && g.detail.contains("exited"),
            "{}",
            g.detail
        );
    }
    assert_eq!(report.games[0].result, "W+Forfeit");
    assert_eq!(report.games[1].result, "B+Forfeit");
}

#[test]
fn an_illegal_move_loses() {
    let dir = scratch("illegal");
    let report = fake_match(
        "--moves C3 --illegal-at 2",
        "",
        &["--sgf-dir", dir.to_str().unwrap()],
    )
    .unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::IllegalMove);
    assert_eq!(g.result, "W+Forfeit");
    assert!(
        g.detail.contains("black played C3, an illegal move"),
        "{}",
        g.detail
    );
    let sgf = fs::read_to_string(dir.join("game-0001.sgf")).unwrap();
    assert!(
        sgf.contains("RE[W+Forfeit]") && sgf.contains("illegal"),
        "{sgf}"
    );

    let report = fake_match("--offboard-at 1", "", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::IllegalMove);
    assert!(g.detail.contains("Z99"), "{}", g.detail);
}

#[test]
fn a_silent_engine_is_killed_and_loses() {
    let report = fake_match("--sleep-at 1", "", &["--move-timeout", "0.3"]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::Timeout);
    assert_eq!(g.result, "W+Forfeit");
    assert!(
        g.detail.contains("did not answer 'genmove black'"),
        "{}",
        g.detail
    );
}

#[test]
fn the_clock_is_sent_and_enforced() {
    let dir = scratch("clock");
    let log = dir.join("a.log");
    let a = format!("--moves C3 --sleep-at 2 --log '{}'", log.display());
    let report = fake_match(&a, "", &["--time", "1", "--time-margin", "0.2"]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::Time);
    assert_eq!(g.result, "W+Time");
    let sent = fs::read_to_string(&log).unwrap();
    assert!(sent.contains("time_settings 1 0 0"), "{sent}");
    assert!(sent.contains("time_left black 1 0"), "{sent}");
    assert!(sent.contains("time_left black 0 0"), "{sent}");
}

#[test]
fn garbage_answers_lose() {
    let report = fake_match("--garbage-at 1", "", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::Garbage);
    assert!(
        g.detail.contains("does not speak GTP") && g.detail.contains("turtles"),
        "{}",
        g.detail
    );

    let report = fake_match("", "--nonsense-at 1", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::Garbage);
    assert_eq!(g.result, "B+Forfeit");
    assert!(g.detail.contains("\"banana\""), "{}", g.detail);
}

#[test]
fn refusing_a_legal_move_loses() {
    let report = fake_match("--moves C3", "--reject-play", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::Refused);
    assert_eq!(g.result, "B+Forfeit");
}

#[test]
fn the_move_cap_ends_in_a_count() {
    let report = fake_match(
        "--moves C3,D4,E5",
        "--moves G7,F6,E6",
        &["--max-moves", "4"],
    )
    .unwrap();
    let g = only_game(&report);
    assert_eq!(g.reason, EndReason::MoveCap);
    assert_eq!(g.moves, 4);
    assert!(g.result.starts_with("B+") || g.result.starts_with("W+") || g.result == "0");
}

#[test]
fn engines_that_do_not_start_or_speak_gtp_are_named() {
    let err = fake_match("--no-gtp", "", &[]).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("engine 'A' (python3 "), "{text}");
    assert!(
        text.contains("does not speak GTP") && text.contains("to 'protocol_version'"),
        "{text}"
    );

    let err = fake_match("", "--exit-at-start", &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("engine 'B' (") && err.contains("exited"),
        "{err}"
    );

    let list = [
        "--engine",
        "/nonexistent/engine",
        "--engine",
        "x",
        "--quiet",
    ];
    let err = run_match(&args(&list)).unwrap_err().to_string();
    assert_eq!(
        err,
        "engine 'engine 1' (/nonexistent/engine) could not start: No such file or directory (os error 2)"
    );
}

#[test]
fn setup_commands_are_sent_and_refusals_named() {
    let dir = scratch("setup");
    let log = dir.join("a.log");
    let a = format!("--log '{}'", log.display());
    fake_match(
        &a,
        "",
        &[
            "--setup",
            "kgs-rules japanese; kgs-rules japanese",
            "--setup",
            "",
        ],
    )
    .unwrap();
    let sent = fs::read_to_string(&log).unwrap();
    let i = sent.find("komi 6.5").unwrap();
    assert_eq!(sent[i..].matches("kgs-rules japanese").count(), 2, "{sent}");

    let err = fake_match("", "", &["--setup", "frobnicate 3"])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("engine 'A'") && err.contains("refused 'frobnicate 3': unknown command"),
        "{err}"
    );

    let err = fake_match("", "", &["--handicap", "2"])
        .unwrap_err()
        .to_string();
    assert!(err.contains("refused 'fixed_handicap 2'"), "{err}");
}

#[test]
fn set_handicap_gives_the_standard_stones_with_set_free_handicap() {
    let dir = scratch("set-handicap");
    let log = dir.join("a.log");
    let a = format!("--log '{}'", log.display());
    let report = fake_match(
        &a,
        "",
        &["--handicap", "2", "--set-handicap", "--komi", "0.5"],
    )
    .unwrap();
    assert_eq!(report.games.len(), 1);
    let sent = fs::read_to_string(&log).unwrap();
    assert!(sent.contains("set_free_handicap C3 G7"), "{sent}");
    assert!(!sent.contains("fixed_handicap"), "{sent}");
}

#[test]
fn engines_are_told_the_match_rules_before_komi() {
    let dir = scratch("rules");
    let log = dir.join("a.log");
    let a = format!("--log '{}'", log.display());
    fake_match(&a, "", &["--rules", "chinese"]).unwrap();
    let sent = fs::read_to_string(&log).unwrap();
    let rules = sent.find("kgs-rules chinese").expect("rules sent");
    assert!(rules < sent.find("komi").unwrap(), "{sent}");
}

#[test]
fn a_referee_that_knows_kgs_rules_is_told_the_match_rules() {
    let dir = scratch("referee-rules");
    let log = dir.join("referee.log");
    let referee = fake(&format!("--final-score W+3 --log '{}'", log.display()));
    let report = fake_match("", "", &["--rules", "chinese", "--referee", &referee]).unwrap();
    assert_eq!(only_game(&report).result, "W+3");
    let sent = fs::read_to_string(&log).unwrap();
    let rules = sent.find("kgs-rules chinese").expect("rules sent");
    assert!(rules < sent.find("komi").unwrap(), "{sent}");
}

#[test]
fn final_scores_are_recorded_and_disagreement_flagged() {
    let report = fake_match("--final-score B+1", "--final-score W+6.5", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(
        g.engine_scores,
        [Some("B+1".to_string()), Some("W+6.5".to_string())]
    );
    assert!(g.disagreement);
    assert!(
        report.table.contains("disagreed in 1 game(s): 1"),
        "{}",
        report.table
    );

    // --scorer engines takes their count when they agree.
    let report = fake_match(
        "--final-score W+2",
        "--final-score w+2.0",
        &["--scorer", "engines"],
    )
    .unwrap();
    let g = only_game(&report);
    assert!(!g.disagreement);
    assert_eq!(g.result, "W+2");

    // kosumi's own count differing from the engines' agreed one is noted.
    let report = fake_match("--final-score W+2", "--final-score W+2", &[]).unwrap();
    let g = only_game(&report);
    assert_eq!(g.result, "W+6.5");
    assert!(
        g.detail.ends_with("the engines agree on W+2"),
        "{}",
        g.detail
    );
}

#[test]
fn an_interrupted_match_resumes_and_other_settings_are_refused() {
    let dir = scratch("resume");
    let results = dir.join("r.jsonl");
    let r = results.to_str().unwrap();
    let log = dir.join("a.log");
    let a = format!("--resign-at 1 --log '{}'", log.display());
    let first = fake_match(&a, "", &["--games", "2", "--results", r]).unwrap();
    assert_eq!(first.games.len(), 2);
    // Simulate an interruption in the middle of writing a line.
    let mut text = fs::read_to_string(&results).unwrap();
    text.push_str("{\"type\":\"game\",\"ga");
    fs::write(&results, text).unwrap();

    let second = fake_match(&a, "", &["--games", "4", "--results", r]).unwrap();
    assert_eq!(second.games.len(), 4);
    let sent = fs::read_to_string(&log).unwrap();
    assert_eq!(
        sent.matches("clear_board").count(),
        4,
        "games 3 and 4 were added, 1 and 2 kept"
    );
    assert_eq!(second.tally(0).losses, 4);
    let lines = fs::read_to_string(&results).unwrap();
    assert_eq!(
        lines
            .lines()
            .filter(|l| l.contains("\"type\":\"game\",\"game\""))
            .count(),
        4
    );

    // Nothing left to play: the table comes straight from the file.
    let third = fake_match(&a, "", &["--games", "4", "--results", r]).unwrap();
    assert_eq!(third.games, second.games);
    assert_eq!(
        fs::read_to_string(&log)
            .unwrap()
            .matches("clear_board")
            .count(),
        4
    );

    let err = run_match(&args(&[
        "--engine",
        &fake(&a),
        "--engine",
        &fake(""),
        "--name",
        "A",
        "--name",
        "B",
        "--size",
        "9",
        "--komi",
        "7.5",
        "--games",
        "4",
        "--results",
        r,
        "--quiet",
    ]))
    .unwrap_err();
    assert_eq!(err.exit_code(), 2);
    let text = err.to_string();
    assert!(
        text.contains("other settings (komi was 6.5, now 7.5)"),
        "{text}"
    );
}

#[test]
fn sprt_stops_early() {
    let report = fake_match(
        "",
        "--resign-at 1",
        &["--games", "200", "--sprt", "0,200,0.05,0.05"],
    )
    .unwrap();
    assert_eq!(report.sprt, Some(SprtDecision::AcceptH1));
    assert!(report.games.len() < 50, "{} games", report.games.len());
    assert!(report.table.contains("H1 accepted"), "{}", report.table);
}

#[test]
fn concurrent_games_are_all_recorded() {
    let dir = scratch("concurrency");
    let report = fake_match(
        "--resign-at 1",
        "",
        &[
            "--games",
            "6",
            "--concurrency",
            "3",
            "--sgf-dir",
            dir.to_str().unwrap(),
        ],
    )
    .unwrap();
    let numbers: Vec<usize> = report.games.iter().map(|g| g.game).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    for g in 1..=6 {
        assert!(dir.join(format!("game-{g:04}.sgf")).exists());
    }
    assert_eq!(report.tally(1).wins, 6);
}

#[test]
fn openings_are_played_before_the_engines_start() {
    let dir = scratch("openings");
    let op = dir.join("openings");
    fs::create_dir_all(&op).unwrap();
    fs::write(op.join("a.sgf"), "(;GM[1]SZ[9];B[cc];W[gg])").unwrap();
    fs::write(op.join("b.sgf"), "(;GM[1]SZ[9];B[ee])").unwrap();
    fs::write(op.join("notes.txt"), "not an opening").unwrap();
    let log = dir.join("a.log");
    let a = format!("--log '{}'", log.display());
    let report = fake_match(
        &a,
        "",
        &["--games", "3", "--openings", op.to_str().unwrap()],
    )
    .unwrap();
    assert_eq!(report.games.len(), 3);
    assert_eq!(report.games[0].moves, 4);
    assert_eq!(report.games[2].moves, 3);
    let sent = fs::read_to_string(&log).unwrap();
    assert_eq!(sent.matches("play black C7").count(), 2, "{sent}");
    assert_eq!(sent.matches("play black E5").count(), 1, "{sent}");
    // Game 3 opens with one Black move, so White (engine A again, game 3) moves next.
    assert!(sent.contains("genmove white"), "{sent}");

    fs::write(op.join("c.sgf"), "(;GM[1]SZ[9];B[cc];W[cc])").unwrap();
    let err = fake_match("", "", &["--openings", op.to_str().unwrap()])
        .unwrap_err()
        .to_string();
    assert!(err.contains("c.sgf") && err.contains("move 2"), "{err}");
}

#[test]
fn bad_options_are_usage_errors() {
    let one = ["--engine", "x", "--quiet"];
    assert_eq!(run(&args(&one)), 2);
    let e = fake("");
    let base = ["--engine", &e, "--engine", &e, "--quiet"];
    for extra in [
        &["--size", "30"][..],
        &["--rules", "chess"],
        &["--time", "abc"],
        &["--sprt", "10,0,0.05,0.05"],
        &["--scorer", "referee"],
        &["--games", "0"],
        &["--name", "only-one"],
        &["--handicap", "1"],
        &["--size", "5", "--handicap", "2"],
        &["--openings", "/nonexistent/folder"],
    ] {
        let mut list = base.to_vec();
        list.extend_from_slice(extra);
        let err = run_match(&args(&list)).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{extra:?}: {err}");
    }
}

/// The `kosumi` binary with its stderr captured (not a terminal).
fn kosumi(list: &[&str]) -> (String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(list)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("kosumi starts");
    assert!(out.status.success(), "{out:?}");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn progress_is_plain_lines_off_a_terminal_and_nothing_when_quiet() {
    let (a, b) = (fake(""), fake(""));
    let base = [
        "match", "--engine", &a, "--engine", &b, "--size", "9", "--games", "2",
    ];
    let (table, progress) = kosumi(&base);
    assert!(table.contains("2 game(s), 9x9"), "{table}");
    assert!(progress.contains("games [1/2] fake#1 "), "{progress}");
    assert!(progress.contains("games [2/2] fake#1 "), "{progress}");
    let mut quiet = base.to_vec();
    quiet.push("--quiet");
    let (_, progress) = kosumi(&quiet);
    assert!(!progress.contains("games ["), "{progress}");

    let (summary, progress) = kosumi(&["stress", "--size", "5", "--games", "3"]);
    assert!(summary.ends_with("ok\n"), "{summary}");
    assert!(progress.contains("games [1/3] "), "{progress}");
    assert!(progress.contains("games [3/3] "), "{progress}");
}

#[test]
fn engines_stderr_goes_to_a_file_in_the_sgf_folder() {
    let dir = scratch("stderr");
    let sgf_dir = dir.join("sgf");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_gtp.py");
    let chatty = format!(
        "sh -c \"echo chatter from the engine >&2; exec python3 '{}'\"",
        script.display()
    );
    let list = [
        "--engine",
        &chatty,
        "--engine",
        &chatty,
        "--size",
        "9",
        "--games",
        "1",
        "--quiet",
        "--sgf-dir",
        sgf_dir.to_str().unwrap(),
    ];
    run_match(&args(&list)).unwrap();
    let log = fs::read_to_string(sgf_dir.join(ENGINE_STDERR_FILE)).unwrap();
    assert_eq!(log.matches("chatter from the engine").count(), 2, "{log}");
    // An --engine-stderr file that cannot be opened is a usage error.
    let mut bad = list.to_vec();
    bad.extend(["--engine-stderr", "/nonexistent/dir/log"]);
    assert_eq!(run_match(&args(&bad)).unwrap_err().exit_code(), 2);
}

#[test]
fn a_one_sided_result_shows_an_elo_bound() {
    let report = fake_match("--resign-at 1", "", &["--games", "2"]).unwrap();
    assert_eq!(report.tally(0).losses, 2);
    assert!(
        report
            .table
            .contains("Elo difference < +113 (95%) against B"),
        "{}",
        report.table
    );
    assert!(!report.table.contains("inf"), "{}", report.table);
}

#[test]
fn counted_games_carry_their_territory_in_the_sgf() {
    let dir = scratch("territory");
    let sgf_dir = dir.join("sgf");
    // Black spreads over the board; White's lone stone in the corner is dead.
    fake_match(
        "--moves A3,B2,C1,E5,G3,C7,G7",
        "--moves A1",
        &["--sgf-dir", sgf_dir.to_str().unwrap()],
    )
    .unwrap();
    let text = fs::read(sgf_dir.join("game-0001.sgf")).unwrap();
    let collection = kosumi::sgf::Collection::parse(&text).unwrap();
    let root = collection.games()[0];
    let last = collection.main_line(root).last().unwrap();
    let tb = last.get("TB").expect("Black's territory in the last node");
    assert!(
        tb.contains(&"ai".to_string()),
        "A1, the dead stone's point: {tb:?}"
    );
    // 81 points less Black's 7 living stones.
    assert_eq!(tb.len(), 74, "{tb:?}");
    assert!(last.get("TW").is_none());
    assert!(collection.node(root).get("TB").is_none(), "not in the root");
}

#[test]
fn the_match_chart_is_drawn_into_the_sgf_folder() {
    let dir = scratch("chart");
    let sgf_dir = dir.join("sgf");
    let report = fake_match(
        "--resign-at 1",
        "",
        &["--games", "3", "--sgf-dir", sgf_dir.to_str().unwrap()],
    )
    .unwrap();
    assert_eq!(report.games.len(), 3);
    let svg = fs::read_to_string(sgf_dir.join("chart.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("A against B: score after each game"), "{svg}");
    assert!(svg.contains("games played") && svg.contains("95% interval"));
    // An explicit --chart file too.
    let chart = dir.join("c.svg");
    fake_match("", "", &["--chart", chart.to_str().unwrap()]).unwrap();
    assert!(fs::read_to_string(&chart).unwrap().contains("<polyline"));
}

/// GNU Go's engine command line, or a reported skip.
fn gnugo() -> Option<String> {
    let path = common::gnugo()?;
    Some(format!("{} --mode gtp --level 0", path.display()))
}

#[test]
fn gnugo_against_gnugo() {
    let Some(g) = gnugo() else { return };
    let dir = scratch("gnugo");
    let report = run_match(&args(&[
        "--engine",
        &g,
        "--engine",
        &g,
        "--games",
        "2",
        "--size",
        "9",
        "--komi",
        "7.5",
        "--rules",
        "chinese",
        "--scorer",
        "engines",
        "--sgf-dir",
        dir.to_str().unwrap(),
        "--quiet",
        "--engine-stderr",
        "null",
    ]))
    .unwrap();
    assert_eq!(report.names, ["GNU Go#1", "GNU Go#2"]);
    assert_eq!(report.games.len(), 2);
    for game in &report.games {
        assert!(
            matches!(game.reason, EndReason::TwoPasses | EndReason::Resignation),
            "{game:?}"
        );
        assert!(game.moves > 10, "{game:?}");
    }
    assert!(dir.join("game-0002.sgf").exists());
}

#[test]
fn gnugo_handicap_game() {
    if gnugo().is_none() {
        return;
    }
    // A bare `gnugo`, as the README writes it: found even where Debian keeps
    // it off PATH, in /usr/games.
    let g = "gnugo --mode gtp --level 0".to_string();
    let dir = scratch("handicap");
    let report = run_match(&args(&[
        "--engine",
        &g,
        "--engine",
        &g,
        "--games",
        "1",
        "--size",
        "9",
        "--komi",
        "0.5",
        "--handicap",
        "2",
        "--sgf-dir",
        dir.to_str().unwrap(),
        "--quiet",
        "--engine-stderr",
        "null",
    ]))
    .unwrap();
    assert!(only_game(&report).moves > 10);
    let sgf = fs::read_to_string(dir.join("game-0001.sgf")).unwrap();
    assert!(sgf.contains("HA[2]") && sgf.contains("AB[cg][gc]"), "{sgf}");
    assert!(sgf.contains(";W["), "{sgf}");
    assert!(
        !sgf.contains(";B[") || sgf.find(";W[") < sgf.find(";B["),
        "White moves first: {sgf}"
    );
}

#[test]
fn gnugo_as_referee() {
    let Some(g) = gnugo() else { return };
    // Black walls off columns A-E, White F-J: B+2.5 with komi 6.5 under any
    // counting. (GNU Go scores an empty board oddly, so the test needs stones.)
    let column = |c: char| {
        (1..=9)
            .map(|r| format!("{c}{r}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let a = format!("--moves {}", column('E'));
    let b = format!("--moves {}", column('F'));
    let report = fake_match(&a, &b, &["--referee", &g]).unwrap();
    let game = only_game(&report);
    assert_eq!(game.result, "B+2.5");
    assert!(game.detail.contains("referee"), "{}", game.detail);
    // kosumi's own count agrees.
    let report = fake_match(&a, &b, &[]).unwrap();
    assert_eq!(only_game(&report).result, "B+2.5");
}

#[test]
fn kosumi_against_kosumi() {
    let k = format!(
        "{} gtp --quiet --threads 1 --playouts 50",
        env!("CARGO_BIN_EXE_kosumi")
    );
    let report = run_match(&args(&[
        "--engine",
        &k,
        "--engine",
        &k,
        "--games",
        "2",
        "--size",
        "9",
        "--komi",
        "7",
        "--quiet",
        "--engine-stderr",
        "null",
    ]))
    .unwrap();
    assert_eq!(report.games.len(), 2);
    for game in &report.games {
        assert!(
            matches!(
                game.reason,
                EndReason::TwoPasses | EndReason::Resignation | EndReason::MoveCap
            ),
            "{game:?}"
        );
    }
}

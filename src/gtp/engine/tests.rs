use super::*;

fn run(engine: &mut Engine, script: &str) -> String {
    let mut out = Vec::new();
    let mut text = String::new();
    for line in script.lines() {
        text.push_str(&engine.execute_line(line.as_bytes(), &mut out).unwrap());
    }
    String::from_utf8(out).unwrap() + &text
}

#[test]
fn table_drives_known_and_list() {
    let mut e = Engine::new(EngineOptions::default());
    let out = run(&mut e, "list_commands");
    assert!(out.starts_with("= protocol_version\nname\n"));
    assert!(out.ends_with("kosumi-statistics\n\n"));
    assert!(!out.contains("\nanalyze\n"));
    assert_eq!(run(&mut e, "known_command play"), "= true\n\n");
    assert_eq!(run(&mut e, "known_command PLAY"), "= false\n\n");
    assert_eq!(run(&mut e, "7 foo"), "?7 unknown command\n\n");
}

#[test]
fn play_and_errors() {
    let mut e = Engine::new(EngineOptions::default());
    for (command, answer) in [
        ("boardsize 9", "=\n\n"),
        ("play b e5", "=\n\n"),
        ("play w E5", "? illegal move\n\n"),
        ("play x e5", "? invalid color or coordinate\n\n"),
        ("play b j10", "? invalid color or coordinate\n\n"),
        ("boardsize 26", "? unacceptable size\n\n"),
        ("undo", "=\n\n"),
        ("undo", "? cannot undo\n\n"),
        ("fixed_handicap 4", "= C3 G7 C7 G3\n\n"),
        ("fixed_handicap 2", "? board not empty\n\n"),
    ] {
        assert_eq!(run(&mut e, command), answer, "{command}");
    }
}

#[test]
fn sgf_round_trip_through_commands() {
    let mut e = Engine::new(EngineOptions::default());
    run(
        &mut e,
        "boardsize 9\nfixed_handicap 2\nplay w d5\nplay b pass\nplay w e5",
    );
    let record = record_from_game(e.game());
    let back = GameRecord::from_sgf(record.to_sgf().as_bytes())
        .unwrap()
        .to_game(None, Rules::japanese(), None)
        .unwrap();
    assert_eq!(back.board(), e.game().board());
    assert_eq!(back.moves(), e.game().moves());
    assert_eq!(back.handicap(), 2);
}

/// A scratch SGF file for `loadsgf`.
fn sgf_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kosumi-engine-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_files_rules_hold_for_its_game_only() {
    let mut e = Engine::new(EngineOptions::default());
    let chinese = sgf_file("ru.sgf", "(;GM[1]SZ[9]RU[Chinese];B[ee])");
    let plain = sgf_file("plain.sgf", "(;GM[1]SZ[9];B[ee])");
    run(&mut e, &format!("loadsgf {}", chinese.display()));
    assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
    assert_eq!(e.game().komi(), 7.5);
    // A file without RU: the engine's own rules, not the last file's.
    run(&mut e, &format!("loadsgf {}", plain.display()));
    assert_eq!(e.game().rules(), Rules::japanese());
    assert_eq!(e.game().komi(), 6.5);
    // A new game after a file brings back the engine's rules and komi.
    for reset in ["clear_board", "boardsize 13"] {
        run(&mut e, &format!("loadsgf {}", chinese.display()));
        assert_eq!(run(&mut e, reset), "=\n\n");
        assert_eq!(e.game().rules(), Rules::japanese(), "{reset}");
        assert_eq!(e.game().komi(), 6.5, "{reset}");
    }
    let _ = std::fs::remove_file(chinese);
    let _ = std::fs::remove_file(plain);
}

#[test]
fn command_line_rules_stand_until_a_command_changes_them() {
    let mut e = Engine::new(EngineOptions {
        rules: Rules::new(crate::board::RuleSet::Chinese),
        ..EngineOptions::default()
    });
    assert_eq!(e.game().komi(), 7.5);
    let japanese = sgf_file("jp.sgf", "(;GM[1]SZ[9]RU[Japanese]KM[0.5];B[ee])");
    run(&mut e, &format!("loadsgf {}", japanese.display()));
    assert_eq!(e.game().rules(), Rules::japanese());
    assert_eq!(e.game().komi(), 0.5);
    run(&mut e, "boardsize 9");
    assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
    assert_eq!(e.game().komi(), 7.5);
    // kgs-rules changes them for this game and every later one; komi
    // follows the rules while no komi was given.
    assert_eq!(run(&mut e, "kgs-rules japanese"), "=\n\n");
    assert_eq!(e.game().rules(), Rules::japanese());
    assert_eq!(e.game().komi(), 6.5);
    run(&mut e, &format!("loadsgf {}", japanese.display()));
    run(&mut e, "clear_board");
    assert_eq!(e.game().rules(), Rules::japanese());
    assert_eq!(run(&mut e, "kosumi-param rules chinese"), "=\n\n");
    run(&mut e, "boardsize 19");
    assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
    let _ = std::fs::remove_file(japanese);
}

#[test]
fn an_explicit_komi_stands_across_games() {
    let mut e = Engine::new(EngineOptions {
        komi: Some(0.5),
        ..EngineOptions::default()
    });
    assert_eq!(e.game().komi(), 0.5);
    run(&mut e, "kgs-rules chinese");
    assert_eq!(e.game().komi(), 0.5, "--komi is kept over the rules' komi");
    assert_eq!(run(&mut e, "komi 5"), "=\n\n");
    let with_km = sgf_file("km.sgf", "(;GM[1]SZ[9]KM[2.5];B[ee])");
    run(&mut e, &format!("loadsgf {}", with_km.display()));
    assert_eq!(e.game().komi(), 2.5, "the file's komi for its game");
    run(&mut e, "clear_board");
    assert_eq!(e.game().komi(), 5.0, "then the last komi command's");
    // The controller's komi after boardsize/clear_board, as GoGui and
    // twogtp send it, is the game's.
    run(&mut e, "boardsize 9\nclear_board\nkomi 7");
    assert_eq!(e.game().komi(), 7.0);
    assert!(run(&mut e, "showboard").contains("komi 7"));
    let _ = std::fs::remove_file(with_km);
}

#[test]
fn a_judgement_is_kept_until_the_position_changes() {
    let mut e = Engine::new(EngineOptions::default());
    run(&mut e, "boardsize 5\nkomi 0.5");
    // Black's wall on the B line, White's on the D line: the A line is
    // Black's, the E line White's, the C line dame.
    for (i, m) in ["b1", "d1", "b2", "d2", "b3", "d3", "b4", "d4", "b5", "d5"]
        .iter()
        .enumerate()
    {
        let color = if i % 2 == 0 { "b" } else { "w" };
        assert_eq!(run(&mut e, &format!("play {color} {m}")), "=\n\n");
    }
    assert_eq!(run(&mut e, "final_score"), "= W+0.5\n\n");
    assert!(e.judged.is_some());
    // A white stone in Black's area: dead, and the score follows.
    run(&mut e, "play w a3");
    assert_eq!(run(&mut e, "final_status_list dead"), "= A3\n\n");
    assert_eq!(run(&mut e, "final_score"), "= B+0.5\n\n");
    run(&mut e, "undo");
    assert_eq!(run(&mut e, "final_status_list dead"), "=\n\n");
    assert_eq!(run(&mut e, "final_score"), "= W+0.5\n\n");
    // Area counting: 10 points each, the komi decides.
    run(&mut e, "kgs-rules chinese");
    assert_eq!(run(&mut e, "final_score"), "= W+0.5\n\n");
    run(&mut e, "play w c3");
    assert_eq!(run(&mut e, "final_score"), "= W+1.5\n\n");
}

/// Counting by area, White gets a point for each handicap stone (Chinese)
/// or each after the first (AGA); by territory the stones cost nothing.
/// GNU Go 3.8 with `--chinese-rules` answers B+76.5 here, as KGS counts.
#[test]
fn area_rules_give_white_points_for_the_handicap_stones() {
    for (rules, score) in [
        ("chinese", "B+76.5"),
        ("aga", "B+77.5"),
        ("japanese", "B+76.5"),
        ("tromp-taylor", "B+80.5"),
    ] {
        let mut e = Engine::new(EngineOptions::default());
        let script = format!(
            "boardsize 9\nkgs-rules {rules}\nkomi 0.5\nfixed_handicap 4\nplay w pass\nplay b pass"
        );
        run(&mut e, &script);
        assert_eq!(
            run(&mut e, "final_score"),
            format!("= {score}\n\n"),
            "{rules}"
        );
    }
}

#[test]
fn level_changes_mid_session_and_bad_levels_are_refused() {
    let mut e = Engine::new(EngineOptions::default());
    assert!(run(&mut e, "list_commands").contains("\nkosumi-level\n"));
    for (command, answer) in [
        ("kosumi-level", "= 10\n\n"),
        ("kosumi-level 3", "=\n\n"),
        ("kosumi-level", "= 3\n\n"),
        (
            "kosumi-level 0",
            "? level must be a whole number from 1 to 10 (got \"0\")\n\n",
        ),
        (
            "kosumi-level 11",
            "? level must be a whole number from 1 to 10 (got \"11\")\n\n",
        ),
        (
            "kosumi-level weak",
            "? level must be a whole number from 1 to 10 (got \"weak\")\n\n",
        ),
        ("kosumi-level", "= 3\n\n"),
        ("boardsize 9", "=\n\n"),
    ] {
        assert_eq!(run(&mut e, command), answer, "{command}");
    }
    // The session goes on, at the level set.
    run(&mut e, "kosumi-param threads 1\nkosumi-param quiet 1");
    assert!(run(&mut e, "genmove b").starts_with("= "));
    assert_eq!(e.game().moves().len(), 1);
}

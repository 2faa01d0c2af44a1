//! A short soak: `kosumi selfplay` plays six fast games (9x9, 13x13 and
//! 19x19 twice over) through the GTP engine with undos, handicap,
//! interrupted analyses and printsgf/loadsgf round trips, every move
//! checked by a referee. `kosumi selfplay --games 1000` is the long form.

use std::process::Command;

#[test]
fn six_fast_selfplay_games_find_no_problem() {
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "selfplay",
            "--games",
            "6",
            "--playouts",
            "16",
            "--seed",
            "11",
        ])
        .output()
        .expect("the kosumi binary starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("selfplay: 6 games"), "{stdout}");
    assert!(stdout.contains("no problem found"), "{stdout}");
    // One line per game, each counted.
    let games: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 6, "{stderr}");
    for (i, size) in ["9x9", "13x13", "19x19", "9x9", "13x13", "19x19"]
        .iter()
        .enumerate()
    {
        assert!(
            games[i].starts_with(&format!("game {}: {size}", i + 1)),
            "{}",
            games[i]
        );
        assert!(games[i].contains(" 1 analyses"), "{}", games[i]);
    }
    assert!(stdout.contains("peak RSS at the end: "), "{stdout}");
}

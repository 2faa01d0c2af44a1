//! kosumi under KaTrain, the real client.
//!
//! `tests/katrain/drive.py` runs KaTrain's own engine, game and AI code
//! (headless: `katrain.core` only, no window) with the binary as its KataGo:
//! it analyses a whole 19x19 game, runs every review mode of KaTrain's `Game`
//! and asks every AI strategy KaTrain has for a move, and fails on anything
//! KaTrain logs as an error (see the driver's docstring).
//!
//! The Python is `KATRAIN_PYTHON`, else the venv that `.ci/run` makes in
//! `tests/katrain/venv` (`python3 -m venv` and `pip install katrain`). Without
//! KaTrain the test reports a skip, except under CI (`CI` set), where it fails.

mod common;

use common::process::{run_session, run_with_timeout, runs, text};
use common::tools::missing_tool;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The driver gives up after `DRIVER_TIMEOUT`; the test waits a little longer.
const DRIVER_TIMEOUT: Duration = Duration::from_secs(240);
const TIMEOUT: Duration = Duration::from_secs(300);

fn katrain_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/katrain")
}

/// The Python of a KaTrain install: `KATRAIN_PYTHON`, else `.ci/run`'s venv.
fn python() -> PathBuf {
    std::env::var_os("KATRAIN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| katrain_dir().join("venv/bin/python"))
}

#[test]
fn katrain_reviews_a_game_and_every_ai_plays() {
    let py = python();
    let driver = katrain_dir().join("drive.py");
    let install = "set KATRAIN_PYTHON to the Python of a KaTrain install, or run .ci/run (it makes tests/katrain/venv)";
    if !runs(&py) {
        missing_tool(&format!("no Python at {}: {install}", py.display()));
        return;
    }
    let mut check = Command::new(&py);
    check.arg(&driver).arg("--check");
    let (output, timed_out) = run_with_timeout(check, Duration::from_secs(120));
    assert!(!timed_out, "`drive.py --check` hung\n{}", text(&output));
    if output.status.code() == Some(3) {
        missing_tool(&format!(
            "{} has no KaTrain: {install}\n{}",
            py.display(),
            text(&output)
        ));
        return;
    }
    assert!(
        output.status.success(),
        "KaTrain does not import headless\n{}",
        text(&output)
    );

    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kgs/2000-11-07-1.sgf");
    let mut run = Command::new(&py);
    run.arg(&driver)
        .arg(env!("CARGO_BIN_EXE_kosumi"))
        .arg(&game)
        .args(["--visits", "24", "--fast-visits", "8"])
        .arg("--timeout")
        .arg(DRIVER_TIMEOUT.as_secs().to_string());
    let started = Instant::now();
    run_session(
        run,
        TIMEOUT,
        "the KaTrain session (an error or a failed check fails it)",
    );
    println!(
        "(the session took {:.1} s)",
        started.elapsed().as_secs_f64()
    );
}

//! `kosumi tune` end to end: two short iterations of real kosumi games on
//! 5x5, the JSONL file, resuming, and bad specs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kosumi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kosumi-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tune(out: &Path, iterations: &str) -> std::process::Output {
    let engine = format!(
        "'{}' gtp --playouts 16 --threads 1 --seed 3 --quiet",
        env!("CARGO_BIN_EXE_kosumi")
    );
    kosumi()
        .args(["tune", "--engine", &engine, "--size", "5", "--komi", "0.5"])
        .args(["--param", "prior.even=10:0:40:2"])
        .args(["--param", "playout.capture=0.5:0:1:0.1"])
        .args([
            "--iterations",
            iterations,
            "--max-moves",
            "60",
            "--seed",
            "5",
        ])
        .args(["--quiet", "--out", out.to_str().unwrap()])
        .output()
        .unwrap()
}

/// The tune file's text and its lines as JSON.
fn records(path: &std::path::Path) -> (String, Vec<serde_json::Value>) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (text, lines)
}

#[test]
fn iterations_are_recorded_and_resumed() {
    let out = scratch("run").join("tune.jsonl");
    let first = tune(&out, "2");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let (text, lines) = records(&out);
    assert_eq!(lines.len(), 2);
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line["iteration"], k as u64);
        let games = ["wins", "draws", "losses"].map(|f| line[f].as_u64().unwrap());
        assert_eq!(games.iter().sum::<u64>(), 2, "{line}");
        for name in ["prior.even", "playout.capture"] {
            let d = line["delta"][name].as_f64().unwrap();
            assert!(d == 1.0 || d == -1.0);
            let (plus, minus) = (
                line["plus"][name].as_f64().unwrap(),
                line["minus"][name].as_f64().unwrap(),
            );
            // θ+ lies on Δ's side of θ, θ− on the other.
            assert!((plus - minus) * d > 0.0, "{line}");
        }
    }
    assert_eq!(lines[1]["theta"], lines[0]["next"]);
    // The last θ, ready to paste.
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(
        stdout.starts_with("--param prior.even=") && stdout.contains(" --param playout.capture="),
        "{stdout}"
    );

    // Nothing left to do: the same command plays no game and prints the same θ.
    let again = tune(&out, "2");
    assert!(again.status.success());
    assert_eq!(String::from_utf8_lossy(&again.stdout), stdout);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);

    // Cut after the first iteration: the run plays the second one again,
    // from the θ the first line left.
    let first_line = text.lines().next().unwrap();
    std::fs::write(&out, format!("{first_line}\n")).unwrap();
    let resumed = tune(&out, "2");
    assert!(resumed.status.success());
    let (_, lines) = records(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["iteration"], 1);
    assert_eq!(lines[1]["theta"], lines[0]["next"]);
}

#[test]
fn bad_specs_exit_with_status_2() {
    for spec in [
        "prior.nonsense=1:0:2:1",
        "prior.even=14:40:0:2",
        "prior.even=50:0:40:2",
    ] {
        let out = kosumi()
            .args(["tune", "--engine", "kosumi", "--param", spec])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert!(!out.stderr.is_empty());
    }
}

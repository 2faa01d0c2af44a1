//! Bad input at every entry point of the `kosumi` binary: command-line
//! arguments, SGF files (`kosumi score`, GTP `loadsgf`) and GTP commands.
//! Each must give a clear message and a non-zero exit (or a GTP `?`
//! response), never a panic.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const KOSUMI: &str = env!("CARGO_BIN_EXE_kosumi");

/// A scratch folder of this test process, holding the bad files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kosumi-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn bad_file(name: &str, bytes: &[u8]) -> String {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(KOSUMI)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kosumi binary starts");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// Runs `args`; the exit status must be `code` and stderr must hold `message`.
fn fails(args: &[&str], code: i32, message: &str) {
    let out = run(args, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(
        stderr.contains(message),
        "{args:?}: stderr {stderr:?} lacks {message:?}"
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["--bogus"], "unexpected argument '--bogus'"),
        (&["--playouts", "0"], "invalid value '0' for '--playouts"),
        (&["--playouts", "many"], "invalid value 'many'"),
        (&["--max-memory", "lots"], "not a memory size"),
        (&["--max-memory", "5T"], "unknown unit"),
        (&["--max-memory", "12"], "too small"),
        (&["--threads", "0"], "invalid value '0' for '--threads"),
        (&["--time-per-move=-1"], "not a positive number of seconds"),
        (
            &["--time-per-move", "nan"],
            "not a positive number of seconds",
        ),
        (&["--resign-threshold", "2"], "not a number from 0 up to 1"),
        (&["--rules", "klingon"], "klingon"),
        (&["gtp", "--komi"], "a value is required"),
        (&["bench", "--bogus"], "unexpected argument"),
        (&["match"], "--engine <CMD>"),
        (
            &["match", "--engine", "x", "--engine", "y", "--time", "abc"],
            "--time wants",
        ),
        (
            &["match", "--engine", "x", "--engine", "y", "--size", "0"],
            "--size 0",
        ),
        (
            &[
                "match",
                "--engine",
                "x",
                "--engine",
                "y",
                "--time-margin=-1",
            ],
            "--time-margin",
        ),
        (&["stress", "--size", "40", "--games", "1"], "out of range"),
        (
            &["stress", "--undo-rate", "2", "--games", "1"],
            "not a probability",
        ),
        (&["score"], "give SGF files"),
        (&["selfplay", "--sizes", "1"], "1 is not in 2..=25"),
        (&["selfplay", "--games", "x"], "invalid value 'x'"),
        (&["selfplay", "--playouts", "0"], "invalid value '0'"),
        (&["selfplay", "--max-memory", "1K"], "too small"),
    ];
    for (args, message) in cases {
        fails(args, 2, message);
    }
}

#[test]
fn engines_that_do_not_start_fail_the_match() {
    fails(
        &[
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/engine",
        ],
        1,
        "could not start",
    );
    fails(
        &[
            "match", "--engine", "true", "--engine", "true", "--games", "1",
        ],
        1,
        "exited while answering",
    );
}

#[test]
fn bad_sgf_files_are_refused_by_score() {
    let dir = scratch("a-folder");
    std::fs::create_dir_all(&dir).unwrap();
    let random: Vec<u8> = (0..3000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let cases = [
        ("/nonexistent/game.sgf".to_string(), "No such file"),
        (dir.display().to_string(), "directory"),
        (bad_file("empty.sgf", b""), "no SGF game tree found"),
        (bad_file("text.sgf", b"garbage"), "no SGF game tree found"),
        (bad_file("random.sgf", &random), ""),
        (
            bad_file("cut.sgf", b"(;GM[1]SZ[19];B[aa]"),
            "unexpected end",
        ),
        (bad_file("size.sgf", b"(;GM[1]SZ[99];B[aa])"), "SZ[99]"),
        (bad_file("zero.sgf", b"(;GM[1]SZ[0])"), "SZ[0]"),
        (bad_file("komi.sgf", b"(;GM[1]SZ[9]KM[nan])"), "KM"),
        (
            bad_file("illegal.sgf", b"(;GM[1]SZ[9];B[ee];W[ee])"),
            "move 2 (white E5) is illegal",
        ),
        (bad_file("offboard.sgf", b"(;GM[1]SZ[9];B[zz])"), ""),
        (bad_file("nul.sgf", b"(;GM[1]SZ[9]\0;B[\xff\xfe])"), ""),
        (bad_file("deep.sgf", &b"(;".repeat(100_000)), ""),
    ];
    for (path, message) in &cases {
        let out = run(&["score", path], b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{path}: {stderr}");
        assert_ne!(out.status.code(), Some(0), "{path}: accepted");
        assert!(out.status.code().is_some(), "{path}: killed by a signal");
        assert!(
            stderr.contains(path.as_str()),
            "{path}: {stderr:?} names no file"
        );
        assert!(
            stderr.contains(message),
            "{path}: {stderr:?} lacks {message:?}"
        );
    }
}

#[test]
fn bad_gtp_input_gets_errors_not_a_crash() {
    let bad = bad_file("gtp-bad.sgf", b"(;GM[1]SZ[9];B[ee];W[ee])");
    let cut = bad_file("gtp-cut.sgf", b"(;GM[1]SZ[9];B[ee]");
    let mut input = Vec::new();
    let lines = [
        "loadsgf /nonexistent/game.sgf".to_string(),
        format!("loadsgf {bad}"),
        format!("loadsgf {cut}"),
        format!("loadsgf {bad} 0"),
        "printsgf /nonexistent/dir/game.sgf".into(),
        "boardsize 99".into(),
        "boardsize -1".into(),
        "play b Z99".into(),
        "play purple D4".into(),
        "komi nan".into(),
        "time_settings -1 0 0".into(),
        "kgs-time_settings byoyomi 1 x 1".into(),
        "final_status_list bogus".into(),
        "kosumi-param threads 0".into(),
        "lz-analyze b interval x".into(),
        "genmove q".into(),
        "undo".into(),
        "fixed_handicap 99".into(),
        "set_free_handicap D4 D4".into(),
    ];
    for l in &lines {
        input.extend_from_slice(l.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe play b\x00 D4\n");
    input.extend_from_slice(&vec![b'a'; 100_000]);
    input.extend_from_slice(b"\n12 name\n");
    let out = run(&["gtp", "--quiet", "--threads", "1"], &input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), lines.len() + 3, "{stdout}");
    for (line, response) in lines.iter().zip(&responses) {
        assert!(response.starts_with("? "), "{line:?} gave {response:?}");
    }
    assert!(responses[lines.len()].starts_with('?'), "{stdout}");
    assert!(responses[lines.len() + 1].starts_with('?'), "{stdout}");
    assert_eq!(responses[lines.len() + 2], "=12 kosumi");
    // Files that cannot be read are named on stderr with the reason.
    assert!(
        stderr.contains("/nonexistent/game.sgf: No such file"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{bad}: move 2 (white E5) is illegal")),
        "{stderr}"
    );
}

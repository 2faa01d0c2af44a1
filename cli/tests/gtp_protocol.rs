//! The GTP session as controllers meet it: pipelined commands, framing,
//! hostile bytes, huge lines, interruption of analysis and clean exit.

mod common;

use common::session::run_piped;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn kosumi() -> Command {
    common::session::kosumi(&[
        "gtp",
        "--quiet",
        "--threads",
        "1",
        "--playouts",
        "200",
        "--seed",
        "1",
    ])
}

/// Sends `input` all at once, closes stdin, returns stdout and the exit status.
fn session(input: &[u8]) -> (String, i32) {
    let (out, status) = run_piped(&mut kosumi(), input);
    (out, status.code().unwrap_or(-1))
}

/// Splits a response stream into responses (each ends with an empty line).
fn responses(out: &str) -> Vec<&str> {
    out.split_terminator("\n\n").collect()
}

#[test]
fn pipelined_commands_answer_in_order() {
    let mut input = String::from("1 boardsize 9\n2 clear_board\n3 komi 7.5\n");
    let moves = ["e5", "c3", "g7", "c7", "g3", "d4", "f6"];
    for (i, m) in moves.iter().enumerate() {
        let color = if i % 2 == 0 { "b" } else { "w" };
        input.push_str(&format!("{} play {color} {m}\n", 10 + i));
    }
    input.push_str("50 list_stones black\n51 captures white\n");
    let (out, code) = session(input.as_bytes());
    assert_eq!(code, 0);
    let r = responses(&out);
    assert_eq!(r.len(), 3 + moves.len() + 2, "{out}");
    assert_eq!(r[0], "=1");
    assert_eq!(r[3], "=10");
    assert_eq!(r[3 + moves.len()], "=50 G7 F6 E5 G3");
    assert_eq!(r[3 + moves.len() + 1], "=51 0");
}

#[test]
fn framing_follows_the_spec() {
    let input = b"\n   \n# a comment\nprotocol_version # trailing\n\tname\r\n 7\tversion \n-5 name\nPLAY b a1\n8 known_command genmove\n";
    let (out, code) = session(input);
    assert_eq!(code, 0);
    let r = responses(&out);
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "= kosumi");
    assert!(r[2].starts_with("=7 "), "{out}");
    assert_eq!(r[3], "= kosumi", "a negative id is no id");
    assert_eq!(r[4], "? unknown command");
    assert_eq!(r[5], "=8 true");
    assert_eq!(r.len(), 6);
}

#[test]
fn a_megabyte_line_gets_one_error() {
    let mut input = b"1 name\n2 play b ".to_vec();
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend_from_slice(b"\n3 name\n");
    let (out, code) = session(&input);
    assert_eq!(code, 0);
    let r = responses(&out);
    assert_eq!(r.len(), 3, "{}", &out[..out.len().min(300)]);
    assert_eq!(r[0], "=1 kosumi");
    assert!(r[1].starts_with("?2 "), "{}", r[1]);
    assert_eq!(r[2], "=3 kosumi");
}

#[test]
fn random_bytes_never_crash_or_lose_responses() {
    let mut rng = StdRng::seed_from_u64(7);
    for round in 0..8 {
        let mut input = Vec::new();
        let mut expected_ids = Vec::new();
        for i in 0..60 {
            let n = rng.gen_range(0..40);
            let junk: Vec<u8> = (0..n)
                .map(|_| rng.gen::<u8>())
                .filter(|&b| b != b'\n' && b != b'#')
                .collect();
            input.extend_from_slice(&junk);
            input.push(b'\n');
            // A known-good command after each junk line must always be answered.
            let id = 1000 + i;
            input.extend_from_slice(format!("{id} protocol_version\n").as_bytes());
            expected_ids.push(id);
        }
        let (out, code) = session(&input);
        assert_eq!(code, 0, "round {round}");
        for id in expected_ids {
            assert!(
                out.contains(&format!("={id} 2\n\n")),
                "round {round}: lost response {id}"
            );
        }
        assert!(
            !out.contains("\n\n\n"),
            "round {round}: an empty line inside a response"
        );
    }
}

#[test]
fn eof_without_newline_and_quit_exit_zero() {
    let (out, code) = session(b"name");
    assert_eq!((out.as_str(), code), ("= kosumi\n\n", 0));
    let (out, code) = session(b"quit\nname\n");
    assert_eq!(
        (out.as_str(), code),
        ("=\n\n", 0),
        "nothing is answered after quit"
    );
}

#[test]
fn analysis_stream_stops_on_the_next_command() {
    let mut child = kosumi().spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdin
        .write_all(b"boardsize 9\nplay b e5\n5 lz-analyze w 10\n")
        .unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let started = Instant::now();
    stdin.write_all(b"6 protocol_version\n").unwrap();
    stdin.flush().unwrap();
    drop(stdin);
    let mut out = String::new();
    stdout.read_to_string(&mut out).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "analysis did not stop"
    );
    let r = responses(&out);
    assert_eq!(r.len(), 4, "{out}");
    assert!(r[2].starts_with("=5\ninfo move "), "{}", r[2]);
    for line in r[2].lines().skip(1) {
        assert!(line.starts_with("info move "), "{line}");
        assert!(
            line.contains(" winrate ") && line.contains(" pv "),
            "{line}"
        );
    }
    assert_eq!(r[3], "=6 2");
}

#[test]
fn genmove_analyze_ends_with_play() {
    let (out, code) =
        session(b"boardsize 9\n3 genmove_analyze b 5\n4 kata-genmove_analyze w 5 ownership true\n");
    assert_eq!(code, 0);
    let r = responses(&out);
    assert_eq!(r.len(), 3, "{out}");
    assert!(
        r[1].starts_with("=3\n") && r[1].lines().last().unwrap().starts_with("play "),
        "{}",
        r[1]
    );
    assert!(
        r[2].starts_with("=4\n") && r[2].lines().last().unwrap().starts_with("play "),
        "{}",
        r[2]
    );
}

/// Runs one analysis command for a moment and returns the moves it listed.
fn analysed_moves(command: &str) -> Vec<String> {
    let mut child = kosumi().spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(format!("boardsize 9\n{command}\n").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    // Stop the analysis after three reports, however slow the machine.
    let mut out = String::new();
    while out.lines().filter(|l| l.starts_with("info ")).count() < 3 {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "no analysis: {out}"
        );
        out.push_str(&line);
    }
    stdin.write_all(b"protocol_version\n").unwrap();
    drop(stdin);
    stdout.read_to_string(&mut out).unwrap();
    assert!(child.wait().unwrap().success());
    let mut moves: Vec<String> = out
        .split("info move ")
        .skip(1)
        .filter_map(|part| part.split_whitespace().next().map(str::to_string))
        .collect();
    moves.sort();
    moves.dedup();
    moves
}

#[test]
fn analysis_honours_allow_and_avoid() {
    let allowed = analysed_moves("lz-analyze b 10 allow b e5,c3 1");
    assert!(!allowed.is_empty());
    for m in &allowed {
        assert!(m == "C3" || m == "E5", "{m} in {allowed:?}");
    }
    let avoided = analysed_moves("kata-analyze b 10 avoid b e5,c3,d4 1 avoid w a1 1");
    assert!(!avoided.is_empty());
    for m in ["E5", "C3", "D4"] {
        assert!(!avoided.iter().any(|a| a == m), "{m} in {avoided:?}");
    }
}

/// With `--ponder`, the progress lines while the opponent is to move say
/// that they are pondering, for whom, and whose move they show.
#[test]
fn pondering_lines_say_whose_turn_they_think_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["gtp", "--ponder", "--threads", "1", "--playouts", "50"])
        .args(["--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    stdin.write_all(b"boardsize 9\ngenmove b\n").unwrap();
    stdin.flush().unwrap();
    let mut answers = String::new();
    while answers.matches("\n\n").count() < 2 {
        assert!(stdout.read_line(&mut answers).unwrap() > 0, "{answers}");
    }
    assert!(
        answers.ends_with("=\n\n") || answers.contains("\n\n= "),
        "{answers}"
    );
    // The engine now ponders on White's turn until input arrives; its first
    // report comes after about a second, however long that takes here.
    let mut lines = Vec::new();
    let ponder = loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "{lines:?}");
        if line.contains("pondering") {
            break line;
        }
        lines.push(line);
    };
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(
        ponder.starts_with("kosumi: pondering for Black on White's turn: "),
        "{ponder}"
    );
    assert!(ponder.contains(", White's best reply "), "{ponder}");
    assert!(ponder.contains("% for White, pv "), "{ponder}");
    // No unlabelled progress line reads like Black's own thinking.
    assert!(lines.iter().all(|l| !l.contains("/s) best ")), "{lines:?}");
}

//! kosumi as Sabaki and GoGui meet it.
//!
//! `sabaki_session` drives the binary through the real `@sabaki/gtp` npm
//! package (the GTP layer of Sabaki 0.60) with `tests/sabaki/session.js`:
//! attach, pipelined sync, `lz-analyze` and `kata-analyze` streams stopped by
//! `protocol_version`, `*genmove_analyze`, quit. The package comes from the
//! lockfile (`npm ci`) the first time. Without `node` and `npm`, or when
//! `npm ci` fails, the test reports a skip, except under CI (`CI` set), where
//! it fails: there the tools and the registry must be there.
//!
//! The GoGui tests speak to the binary directly: live `gogui-gfx:` blocks on
//! stderr during `genmove`, and `# interrupt` stopping a search.

mod common;

use common::process::{run_session, run_with_timeout, runs, text};
use common::tools::{in_ci, missing_tool};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const SESSION_TIMEOUT: Duration = Duration::from_secs(300);

fn sabaki_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki")
}

#[test]
fn sabaki_session() {
    if !runs("node") || !runs("npm") {
        missing_tool("node and npm are needed for the Sabaki end-to-end test");
        return;
    }
    let dir = sabaki_dir();
    if !dir.join("node_modules/@sabaki/gtp/package.json").exists() {
        let mut npm = Command::new("npm");
        npm.args(["ci", "--prefix"])
            .arg(&dir)
            .args(["--no-audit", "--no-fund"]);
        let (output, timed_out) = run_with_timeout(npm, SESSION_TIMEOUT);
        if timed_out || !output.status.success() {
            let why = if timed_out {
                "timed out".to_string()
            } else {
                output.status.to_string()
            };
            if in_ci() {
                panic!(
                    "`npm ci` in tests/sabaki failed ({why}); CI needs the npm registry\n{}",
                    text(&output)
                );
            }
            missing_tool(&format!(
                "`npm ci` in tests/sabaki failed ({why}), is the npm registry reachable?\n{}",
                text(&output)
            ));
            return;
        }
    }
    let mut node = Command::new("node");
    node.arg(dir.join("session.js"))
        .arg(env!("CARGO_BIN_EXE_kosumi"))
        .args(["gtp", "--quiet", "--threads", "1", "--playouts", "300"])
        .current_dir(&dir);
    run_session(node, SESSION_TIMEOUT, "the Sabaki session");
}

/// A kosumi GTP process with its output read on threads.
struct Engine {
    child: Child,
    responses: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
    stderr_reader: thread::JoinHandle<()>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let (tx, responses) = mpsc::channel();
        let out = BufReader::new(child.stdout.take().unwrap());
        thread::spawn(move || {
            let mut current = String::new();
            for line in out.lines().map_while(Result::ok) {
                if line.is_empty() {
                    if !current.is_empty() && tx.send(std::mem::take(&mut current)).is_err() {
                        return;
                    }
                } else {
                    if !current.is_empty() {
                        current.push('\n');
                    }
                    current.push_str(&line);
                }
            }
        });
        let (tx, stderr) = mpsc::channel();
        let err = BufReader::new(child.stderr.take().unwrap());
        let stderr_reader = thread::spawn(move || {
            for line in err.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            responses,
            stderr,
            stderr_reader,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn response(&self, within: Duration) -> Option<String> {
        self.responses.recv_timeout(within).ok()
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.response(Duration::from_secs(60))
            .unwrap_or_else(|| panic!("no answer to `{line}`"))
    }

    /// Ends the session; returns every stderr line not yet taken. The reader
    /// thread is joined (it ends at end of stream), so none is missing.
    fn quit(mut self) -> Vec<String> {
        assert_eq!(self.ask("quit"), "=");
        assert!(self.child.wait().unwrap().success());
        self.stderr_reader.join().unwrap();
        self.stderr.try_iter().collect()
    }
}

#[test]
fn genmove_draws_live_gfx_for_gogui() {
    let mut e = Engine::start(&["gtp", "--quiet", "--threads", "1", "--playouts", "300"]);
    assert_eq!(e.ask("boardsize 9"), "=");
    // Before GoGui's `gogui-analyze_commands`, stderr stays quiet.
    assert!(e.ask("genmove b").starts_with("= "));
    thread::sleep(Duration::from_millis(200));
    assert_eq!(e.stderr.try_iter().count(), 0, "stderr before GoGui mode");
    assert!(e.ask("gogui-analyze_commands").starts_with("= "));
    let answer = e.ask("genmove w");
    let stderr = e.quit();
    let played = answer.strip_prefix("= ").unwrap();
    let start = stderr
        .iter()
        .position(|l| l == "gogui-gfx:")
        .unwrap_or_else(|| panic!("no gogui-gfx block on stderr: {stderr:?}"));
    // A block runs to the next empty line; every line is a gfx command.
    let block: Vec<&String> = stderr[start + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(
        stderr.len() > start + 1 + block.len(),
        "unterminated block: {stderr:?}"
    );
    for line in &block {
        let word = line.split(' ').next().unwrap();
        assert!(
            ["LABEL", "VAR", "TEXT"].contains(&word),
            "unexpected gfx line {line:?}"
        );
    }
    assert!(block.iter().any(|l| l.starts_with("TEXT ")), "{block:?}");
    // The last block is the finished search: its PV starts with the move.
    let last_var = stderr.iter().rev().find(|l| l.starts_with("VAR "));
    if played != "pass" && played != "resign" {
        let var = last_var.unwrap_or_else(|| panic!("no VAR line: {stderr:?}"));
        assert!(
            var.to_uppercase().starts_with(&format!("VAR W {played}")),
            "{var} vs {played}"
        );
    }
}

/// A `# interrupt` line (GoGui) stops a long `genmove` at once.
#[test]
fn interrupt_line_stops_genmove() {
    let mut e = Engine::start(&[
        "gtp",
        "--quiet",
        "--threads",
        "1",
        "--playouts",
        "100000000",
        "--time-per-move",
        "30",
    ]);
    assert_eq!(e.ask("boardsize 9"), "=");
    assert!(e.ask("gogui-interrupt").starts_with('='));
    e.send("1 genmove b");
    thread::sleep(Duration::from_secs(1));
    let sent = Instant::now();
    e.send("# interrupt");
    let answer = e
        .response(Duration::from_secs(10))
        .expect("genmove answered within 10 s of `# interrupt` (it had 30 s)");
    assert!(answer.starts_with("=1 "), "{answer}");
    assert!(sent.elapsed() < Duration::from_secs(10));
    // The interrupt line itself gets no response: the next answer is the next command's.
    assert_eq!(e.ask("2 protocol_version"), "=2 2");
    e.quit();
}

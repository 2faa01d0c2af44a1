//! Outside programs the tests drive (npm, node, a client's Python), run to
//! their end with a time limit.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Whether `program --version` runs.
pub fn runs(program: impl AsRef<std::ffi::OsStr>) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs a child to its end or kills it after `timeout`; returns its output
/// and whether it timed out.
pub fn run_with_timeout(mut cmd: Command, timeout: Duration) -> (Output, bool) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let drain = |mut r: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        thread::sleep(Duration::from_millis(50));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, timed_out)
}

/// Runs an outside client's session to its end (`what` names it in a
/// failure), failing the test on a timeout or an unsuccessful exit; prints
/// the session's stdout.
pub fn run_session(cmd: Command, timeout: Duration, what: &str) {
    let (output, timed_out) = run_with_timeout(cmd, timeout);
    assert!(
        !timed_out,
        "{what} did not finish within {timeout:?}\n{}",
        text(&output)
    );
    assert!(
        output.status.success(),
        "{what} failed ({})\n{}",
        output.status,
        text(&output)
    );
    print!("{}", String::from_utf8_lossy(&output.stdout));
}

/// A child's stdout and stderr, for a failure message.
pub fn text(output: &Output) -> String {
    format!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

//! The kosumi binary run on piped input, as controllers and scripts run it.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};

/// `kosumi ARGS` with stdin and stdout piped and stderr dropped.
pub fn kosumi(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kosumi"));
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    c
}

/// Starts `command`, writes `input` and closes stdin, and returns all of
/// stdout (lossily decoded) with the exit status. The input is written from
/// its own thread: a long session would otherwise fill the output pipe while
/// its input is still being written, and both sides would wait for ever.
pub fn run_piped(command: &mut Command, input: &[u8]) -> (String, ExitStatus) {
    let mut child = command.spawn().expect("the kosumi binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let data = input.to_vec();
    // The engine may exit before reading everything (after `quit`): a
    // broken pipe is then not the test's failure.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_end(&mut out)
        .expect("stdout reads");
    writer.join().expect("the writer thread ends");
    let status = child.wait().expect("the engine exits");
    (String::from_utf8_lossy(&out).into_owned(), status)
}

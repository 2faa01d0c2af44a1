//! Driving an external GTP engine process: start it, send commands, read
//! responses with a time limit, and stop it.
//!
//! The engine's stdout is read by a thread that forwards lines over a
//! channel, so a silent or hung engine never blocks the caller past its
//! deadline.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::tools;
use kosumi::board::{Move, Point};

/// Where an engine's stderr goes.
#[derive(Debug)]
pub enum StderrMode {
    /// The match process's own stderr.
    Inherit,
    /// Discarded.
    Null,
    /// Appended to a file shared by all engines.
    File(File),
}

impl StderrMode {
    fn stdio(&self) -> std::io::Result<Stdio> {
        Ok(match self {
            StderrMode::Inherit => Stdio::inherit(),
            StderrMode::Null => Stdio::null(),
            StderrMode::File(f) => Stdio::from(f.try_clone()?),
        })
    }
}

/// Why talking to an engine failed (as opposed to a `?` answer, which is a
/// normal GTP failure response).
#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// The process could not be spawned, or the command line is malformed.
    Start {
        /// Engine name.
        name: String,
        /// Engine command line.
        command: String,
        /// What went wrong.
        reason: String,
    },
    /// The process ended (or closed stdout) before answering.
    Crashed {
        /// Engine name.
        name: String,
        /// Engine command line.
        command: String,
        /// The GTP command that was waiting for an answer.
        sent: String,
        /// Exit status if known.
        status: Option<String>,
    },
    /// No complete answer within the time limit; the process was killed.
    Timeout {
        /// Engine name.
        name: String,
        /// Engine command line.
        command: String,
        /// The GTP command that was waiting for an answer.
        sent: String,
        /// The limit in seconds.
        seconds: f64,
    },
    /// The engine answered something that is not a GTP response.
    Garbage {
        /// Engine name.
        name: String,
        /// Engine command line.
        command: String,
        /// The GTP command that was answered.
        sent: String,
        /// The offending line.
        line: String,
    },
}

impl EngineError {
    /// A short word for the kind of failure: `start`, `crash`, `timeout`, `garbage`.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineError::Start { .. } => "start",
            EngineError::Crashed { .. } => "crash",
            EngineError::Timeout { .. } => "timeout",
            EngineError::Garbage { .. } => "garbage",
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start {
                name,
                command,
                reason,
            } => write!(f, "engine '{name}' ({command}) could not start: {reason}"),
            EngineError::Crashed {
                name,
                command,
                sent,
                status,
            } => {
                write!(
                    f,
                    "engine '{name}' ({command}) exited while answering '{sent}'"
                )?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                Ok(())
            }
            EngineError::Timeout {
                name,
                command,
                sent,
                seconds,
            } => write!(
                f,
                "engine '{name}' ({command}) did not answer '{sent}' within {seconds:.1} s"
            ),
            EngineError::Garbage {
                name,
                command,
                sent,
                line,
            } => write!(
                f,
                "engine '{name}' ({command}) does not speak GTP: answered {line:?} to '{sent}'"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// Splits a command line shell-style without invoking a shell: words are
/// separated by blanks, `'...'` is literal, `"..."` allows `\"`, `\\`, `\$`
/// and `` \` `` escapes, and a backslash outside quotes escapes the next
/// character.
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(c) => word.push(c),
                    None => return Err("trailing backslash".into()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Parses a GTP vertex (`D4`, `pass`, any case; columns skip `I`) on a board
/// of side `size`. `None` if it is not a vertex on this board.
pub fn parse_vertex(text: &str, size: usize) -> Option<Move> {
    let t = text.trim().to_ascii_uppercase();
    if t == "PASS" {
        return Some(Move::Pass);
    }
    let mut chars = t.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_uppercase() || letter == 'I' {
        return None;
    }
    let mut x = (letter as u8 - b'A') as usize;
    if letter > 'I' {
        x -= 1;
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    if row == 0 || row > size {
        return None;
    }
    Point::checked(x, size - row, size).map(Move::Play)
}

/// A GTP vertex for a move: `D4` or `pass`.
pub fn vertex(mv: Move, size: usize) -> String {
    match mv {
        Move::Play(p) => p.to_gtp(size),
        Move::Pass => "pass".to_string(),
    }
}

enum ReaderMsg {
    Line(String),
    Eof,
}

/// A running GTP engine process.
pub struct GtpEngine {
    name: String,
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<ReaderMsg>,
    alive: bool,
}

impl fmt::Debug for GtpEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpEngine")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("alive", &self.alive)
            .finish()
    }
}

impl GtpEngine {
    /// Starts `command` (split shell-style, no shell involved). `name` is
    /// used in error messages.
    pub fn start(name: &str, command: &str, stderr: &StderrMode) -> Result<GtpEngine, EngineError> {
        let start_error = |reason: String| EngineError::Start {
            name: name.to_string(),
            command: command.to_string(),
            reason,
        };
        let words = split_command_line(command).map_err(start_error)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| start_error("empty command".into()))?;
        let mut child = Command::new(tools::resolve_program(program))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.stdio().map_err(|e| start_error(e.to_string()))?)
            .spawn()
            .map_err(|e| start_error(e.to_string()))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(ReaderMsg::Eof);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(ReaderMsg::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(GtpEngine {
            name: name.to_string(),
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            alive: true,
        })
    }

    /// The name used in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the engine (once its GTP `name` is known).
    pub fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// False once the engine crashed, timed out or was stopped.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    fn exit_status(&mut self) -> Option<String> {
        // The process may still be closing down when stdout hits EOF.
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(describe_status(s)),
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(_) => return None,
            }
        }
        None
    }

    fn crashed(&mut self, sent: &str) -> EngineError {
        self.alive = false;
        let status = self.exit_status();
        self.kill();
        EngineError::Crashed {
            name: self.name.clone(),
            command: self.command.clone(),
            sent: sent.to_string(),
            status,
        }
    }

    /// Sends one command and waits up to `timeout` for the full response.
    ///
    /// `Ok(Ok(text))` is a success (`=`) with its text, `Ok(Err(text))` a
    /// failure (`?`). `Err` means the engine crashed, timed out (it is then
    /// killed) or answered something that is not GTP; the engine is dead after
    /// any `Err`.
    pub fn send(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, EngineError> {
        if !self.alive {
            return Err(EngineError::Crashed {
                name: self.name.clone(),
                command: self.command.clone(),
                sent: command.to_string(),
                status: Some("already stopped".into()),
            });
        }
        let deadline = Instant::now() + timeout;
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}").and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if written.is_err() {
            return Err(self.crashed(command));
        }
        let mut first: Option<(bool, String)> = None;
        let mut body: Vec<String> = Vec::new();
        loop {
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            let msg = match self.lines.recv_timeout(wait) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(EngineError::Timeout {
                        name: self.name.clone(),
                        command: self.command.clone(),
                        sent: command.to_string(),
                        seconds: timeout.as_secs_f64(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => ReaderMsg::Eof,
            };
            let line = match msg {
                ReaderMsg::Line(l) => l,
                ReaderMsg::Eof => return Err(self.crashed(command)),
            };
            let line: String = line.chars().filter(|&c| c != '\r' && c != '\n').collect();
            match &first {
                None => {
                    if line.trim().is_empty() {
                        continue; // stray blank lines before a response
                    }
                    let success = match line.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => {
                            self.kill();
                            return Err(EngineError::Garbage {
                                name: self.name.clone(),
                                command: self.command.clone(),
                                sent: command.to_string(),
                                line,
                            });
                        }
                    };
                    // Drop the status character and an optional numeric id.
                    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    first = Some((success, rest.trim().to_string()));
                }
                Some(_) => {
                    if line.trim().is_empty() {
                        break;
                    }
                    body.push(line);
                }
            }
        }
        let (success, head) = first.expect("a response line was read");
        let mut text = head;
        for l in body {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&l);
        }
        Ok(if success { Ok(text) } else { Err(text) })
    }

    /// Kills the process (if still running) and reaps it.
    pub fn kill(&mut self) {
        self.alive = false;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit`, gives the engine a moment to exit, then kills it.
    pub fn quit(&mut self) {
        if self.alive {
            let _ = self.send("quit", Duration::from_secs(2));
            self.stdin = None;
            let end = Instant::now() + Duration::from_secs(2);
            while Instant::now() < end {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        self.kill();
    }
}

fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    status.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let w = split_command_line(r#"gnugo --mode gtp  --level 0"#).unwrap();
        assert_eq!(w, ["gnugo", "--mode", "gtp", "--level", "0"]);
        let w = split_command_line(r#"a 'b c' "d \"e\" \n" f\ g ''"#).unwrap();
        assert_eq!(w, ["a", "b c", "d \"e\" \\n", "f g", ""]);
        let w = split_command_line("x'y'\"z\"").unwrap();
        assert_eq!(w, ["xyz"]);
        assert!(split_command_line("'open").is_err());
        assert!(split_command_line("\"open").is_err());
        assert!(split_command_line("end\\").is_err());
        assert!(split_command_line("   ").unwrap().is_empty());
    }

    #[test]
    fn vertices() {
        assert_eq!(parse_vertex("D4", 19), Some(Move::Play(Point::new(3, 15))));
        assert_eq!(parse_vertex("j9", 9), Some(Move::Play(Point::new(8, 0))));
        assert_eq!(parse_vertex("PASS", 9), Some(Move::Pass));
        assert_eq!(parse_vertex("I5", 9), None);
        assert_eq!(parse_vertex("K5", 9), None);
        assert_eq!(parse_vertex("A10", 9), None);
        assert_eq!(parse_vertex("A0", 9), None);
        assert_eq!(parse_vertex("resign", 9), None);
        assert_eq!(parse_vertex("", 9), None);
        assert_eq!(parse_vertex("A+1", 9), None);
        for y in 0..19 {
            for x in 0..19 {
                let mv = Move::Play(Point::new(x, y));
                assert_eq!(parse_vertex(&vertex(mv, 19), 19), Some(mv));
            }
        }
    }

    #[test]
    fn missing_program_is_a_start_error() {
        let e = GtpEngine::start("nope", "/nonexistent/engine --x", &StderrMode::Null).unwrap_err();
        assert_eq!(e.kind(), "start");
        let text = e.to_string();
        assert!(text.starts_with("engine 'nope' (/nonexistent/engine --x) could not start: "));
        let e = GtpEngine::start("empty", "  ", &StderrMode::Null).unwrap_err();
        assert!(e.to_string().contains("empty command"));
    }

    #[cfg(unix)]
    #[test]
    fn talks_to_a_shell_pretending_to_be_an_engine() {
        // `cat` echoes commands back: not GTP.
        let mut e = GtpEngine::start("cat", "cat", &StderrMode::Null).unwrap();
        let err = e.send("name", Duration::from_secs(5)).unwrap_err();
        assert_eq!(err.kind(), "garbage");
        assert!(err.to_string().contains("answered \"name\" to 'name'"));
        assert!(!e.is_alive());

        let script = r#"while read -r l; do case "$l" in
            name) printf "= fake\n\n";;
            multi) printf "=7 a\nb\n\n";;
            bad) printf "? no such thing\n\n";;
            quit) printf "=\n\n"; exit 0;;
            die) exit 3;;
            *) printf "=\n\n";; esac; done"#;
        let cmd = format!("sh -c '{script}'");
        let mut e = GtpEngine::start("sh", &cmd, &StderrMode::Null).unwrap();
        let t = Duration::from_secs(5);
        assert_eq!(e.send("name", t).unwrap(), Ok("fake".to_string()));
        assert_eq!(e.send("multi", t).unwrap(), Ok("a\nb".to_string()));
        assert_eq!(e.send("bad", t).unwrap(), Err("no such thing".to_string()));
        let err = e.send("die", t).unwrap_err();
        assert_eq!(err.kind(), "crash");
        assert!(err.to_string().contains("exit status 3"), "{err}");
        assert!(e.send("name", t).is_err());
    }
}

//! The one GTP client: an engine process, or a kosumi engine on a thread
//! of this process; commands sent, responses read and unframed with time
//! limits.
//!
//! The engine's output is read by a thread that forwards lines over a
//! channel, so a silent or hung engine never blocks the caller past its
//! deadline.

use anyhow::bail;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::tools;
use kosumi::gtp::engine::{Engine, EngineOptions};

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
pub struct EngineError {
    /// The engine's name.
    pub name: String,
    /// Its command line.
    pub command: String,
    /// What went wrong.
    pub failure: Failure,
}

/// What went wrong with an engine; `sent` is the GTP command concerned.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The process could not be spawned, or the command line is malformed: why.
    Start(String),
    /// The process ended (or closed its output) before answering; its exit
    /// status if known.
    Crashed {
        sent: String,
        status: Option<String>,
    },
    /// No complete answer within the limit of `seconds`; the engine was stopped.
    Timeout { sent: String, seconds: f64 },
    /// The engine failed (`?`) a command that had to succeed, with `answer`.
    Refused { sent: String, answer: String },
    /// The engine answered `line`, which is not a GTP response.
    Garbage { sent: String, line: String },
}

impl EngineError {
    /// A short word for the kind of failure: `start`, `crash`, `timeout`,
    /// `refused`, `garbage`.
    pub fn kind(&self) -> &'static str {
        match self.failure {
            Failure::Start(_) => "start",
            Failure::Crashed { .. } => "crash",
            Failure::Timeout { .. } => "timeout",
            Failure::Refused { .. } => "refused",
            Failure::Garbage { .. } => "garbage",
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine '{}' ({}) ", self.name, self.command)?;
        match &self.failure {
            Failure::Start(reason) => write!(f, "could not start: {reason}"),
            Failure::Crashed { sent, status } => {
                write!(f, "exited while answering '{sent}'")?;
                match status {
                    Some(s) => write!(f, " ({s})"),
                    None => Ok(()),
                }
            }
            Failure::Timeout { sent, seconds } => {
                write!(f, "did not answer '{sent}' within {seconds:.1} s")
            }
            Failure::Refused { sent, answer } => write!(f, "refused '{sent}': {answer}"),
            Failure::Garbage { sent, line } => {
                write!(f, "does not speak GTP: answered {line:?} to '{sent}'")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Splits a command line shell-style without invoking a shell: words are
/// separated by blanks, `'...'` is literal, `"..."` allows `\"`, `\\`, `\$`
/// and `` \` `` escapes, and a backslash outside quotes escapes the next
/// character.
pub fn split_command_line(line: &str) -> anyhow::Result<Vec<String>> {
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
                        None => bail!("unterminated single quote"),
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
                            None => bail!("unterminated double quote"),
                        },
                        Some(c) => word.push(c),
                        None => bail!("unterminated double quote"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(c) => word.push(c),
                    None => bail!("trailing backslash"),
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

/// A GTP response: `Ok(text)` for a success (`=`), `Err(text)` for a
/// failure (`?`), without the status character, id and final empty line.
pub type Response = Result<String, String>;

/// What answers: a process, or a kosumi [`Engine`] served by
/// [`Engine::run`] on a thread of this process through OS pipes (so every
/// command takes the path a controller's would: reader thread, interrupts,
/// response framing).
enum Peer {
    Process(Child),
    Thread(Option<JoinHandle<io::Result<()>>>),
}

/// A GTP engine being talked to.
pub struct Client {
    name: String,
    command: String,
    peer: Peer,
    stdin: Option<Box<dyn Write + Send>>,
    /// The engine's output lines; `None` once it ended.
    lines: Receiver<Option<String>>,
    alive: bool,
    /// The time limit of the answer being read, and when it ends.
    timeout: Duration,
    deadline: Instant,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("alive", &self.alive)
            .finish()
    }
}

impl Client {
    /// Starts `command` (split shell-style, no shell involved). `name` is
    /// used in error messages.
    pub fn start(name: &str, command: &str, stderr: &StderrMode) -> Result<Client, EngineError> {
        let start_error = |reason: String| error(name, command, Failure::Start(reason));
        let words = split_command_line(command).map_err(|e| start_error(e.to_string()))?;
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
        let stdin = child.stdin.take().expect("stdin is piped");
        let peer = Peer::Process(child);
        Ok(Client::over(name, command, peer, stdin, stdout))
    }

    /// Starts a kosumi engine with `options` on a thread of this process.
    pub fn in_process(name: &str, options: EngineOptions) -> Result<Client, EngineError> {
        let command = "kosumi (in process)";
        let pipe =
            || io::pipe().map_err(|e| error(name, command, Failure::Start(format!("pipe: {e}"))));
        let (in_read, in_write) = pipe()?;
        let (out_read, out_write) = pipe()?;
        let thread = thread::spawn(move || Engine::new(options).run(in_read, out_write));
        let peer = Peer::Thread(Some(thread));
        Ok(Client::over(name, command, peer, in_write, out_read))
    }

    /// A client writing to `stdin` and reading `stdout` through a thread.
    fn over(
        name: &str,
        command: &str,
        peer: Peer,
        stdin: impl Write + Send + 'static,
        stdout: impl Read + Send + 'static,
    ) -> Client {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let line = match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
                };
                let end = line.is_none();
                if tx.send(line).is_err() || end {
                    return;
                }
            }
        });
        Client {
            name: name.to_string(),
            command: command.to_string(),
            peer,
            stdin: Some(Box::new(stdin)),
            lines: rx,
            alive: true,
            timeout: Duration::ZERO,
            deadline: Instant::now(),
        }
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

    /// An error of this engine.
    pub fn error(&self, failure: Failure) -> EngineError {
        error(&self.name, &self.command, failure)
    }

    /// Sends one command and waits up to `timeout` for the full response.
    ///
    /// `Err` means the engine crashed, timed out (it is then stopped) or
    /// answered something that is not GTP; the engine is dead after any `Err`.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<Response, EngineError> {
        self.wait(timeout);
        self.send_line(command)?;
        let head = self.head(command)?;
        self.rest(head, command)
    }

    /// [`Client::send`] for a command that must succeed: a `?` answer is
    /// [`Failure::Refused`] (and the engine lives on).
    pub fn must(&mut self, command: &str, timeout: Duration) -> Result<String, EngineError> {
        let response = self.send(command, timeout)?;
        response.map_err(|answer| self.refused(command, answer))
    }

    /// Sends `stream`, a command answered by a line per update until the
    /// next command interrupts it (`lz-analyze`, `kata-analyze`); once its
    /// `=` and first update have come, sends `next`. Returns the updates
    /// (none if the stream ended by itself) and `next`'s response. Each
    /// step waits up to `timeout`.
    pub fn interrupt_stream(
        &mut self,
        stream: &str,
        next: &str,
        timeout: Duration,
    ) -> Result<(Vec<String>, Response), EngineError> {
        self.wait(timeout);
        self.send_line(stream)?;
        let head = self.head(stream)?;
        if head.is_err() {
            let answer = self.rest(head, stream)?;
            return Err(self.refused(stream, answer.unwrap_err()));
        }
        let first = self.read_line(stream)?;
        self.wait(timeout);
        self.send_line(next)?;
        let mut updates = Vec::new();
        if !first.trim().is_empty() {
            updates.push(first);
            updates.extend(self.body(stream)?);
        }
        let head = self.head(next)?;
        Ok((updates, self.rest(head, next)?))
    }

    /// Starts the time limit of an answer.
    fn wait(&mut self, timeout: Duration) {
        self.timeout = timeout;
        self.deadline = Instant::now() + timeout;
    }

    fn refused(&self, sent: &str, answer: String) -> EngineError {
        let sent = sent.to_string();
        self.error(Failure::Refused { sent, answer })
    }

    fn send_line(&mut self, command: &str) -> Result<(), EngineError> {
        if !self.alive {
            let status = Some("already stopped".into());
            let sent = command.to_string();
            return Err(self.error(Failure::Crashed { sent, status }));
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}").and_then(|_| stdin.flush()),
            None => Err(io::Error::other("stdin closed")),
        };
        written.map_err(|_| self.crashed(command))
    }

    /// The next output line without its line break; `sent` is the command
    /// waiting for it.
    fn read_line(&mut self, sent: &str) -> Result<String, EngineError> {
        let wait = self.deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Ok(line.chars().filter(|&c| c != '\r' && c != '\n').collect()),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(self.crashed(sent)),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                let (sent, seconds) = (sent.to_string(), self.timeout.as_secs_f64());
                Err(self.error(Failure::Timeout { sent, seconds }))
            }
        }
    }

    // Responses are unframed here and in `rest` only.

    /// The first line of a response, stray blank lines before it skipped,
    /// its status character and an optional numeric id dropped.
    fn head(&mut self, sent: &str) -> Result<Response, EngineError> {
        let line = loop {
            let line = self.read_line(sent)?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        let text = || {
            let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
            rest.trim().to_string()
        };
        match line.as_bytes()[0] {
            b'=' => Ok(Ok(text())),
            b'?' => Ok(Err(text())),
            _ => {
                self.kill();
                let sent = sent.to_string();
                Err(self.error(Failure::Garbage { sent, line }))
            }
        }
    }

    /// The whole response from its `head`: the lines up to the empty one
    /// that ends it, joined.
    fn rest(&mut self, head: Response, sent: &str) -> Result<Response, EngineError> {
        let body = self.body(sent)?;
        let join = |mut text: String| {
            for line in &body {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(line);
            }
            text
        };
        Ok(head.map(join).map_err(join))
    }

    /// Lines up to the empty line that ends a response.
    fn body(&mut self, sent: &str) -> Result<Vec<String>, EngineError> {
        let mut lines = Vec::new();
        loop {
            let line = self.read_line(sent)?;
            if line.trim().is_empty() {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// How the engine ended, if it did.
    fn exit_status(&mut self) -> Option<String> {
        match &mut self.peer {
            Peer::Process(child) => {
                // The process may still be closing down when stdout hits EOF.
                for _ in 0..20 {
                    match child.try_wait() {
                        Ok(Some(s)) => return Some(describe_status(s)),
                        Ok(None) => thread::sleep(Duration::from_millis(10)),
                        Err(_) => return None,
                    }
                }
                None
            }
            Peer::Thread(handle) => match handle.take()?.join() {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(format!("stopped with an error: {e}")),
                Err(_) => Some("panicked".into()),
            },
        }
    }

    fn crashed(&mut self, sent: &str) -> EngineError {
        self.alive = false;
        let status = self.exit_status();
        self.kill();
        let sent = sent.to_string();
        self.error(Failure::Crashed { sent, status })
    }

    /// Stops the engine at once: a process is killed and reaped; an engine
    /// thread sees its input close and is left to end.
    pub fn kill(&mut self) {
        self.alive = false;
        self.stdin = None;
        if let Peer::Process(child) = &mut self.peer {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Sends `quit` and lets the engine end: a process gets a moment before
    /// it is killed, an engine thread is waited for. `Err` if the engine
    /// did not answer `quit` or its thread ended badly.
    pub fn quit(&mut self) -> Result<(), EngineError> {
        if !self.alive {
            return Ok(());
        }
        let answered = self.send("quit", Duration::from_secs(2)).map(|_| ());
        self.stdin = None;
        let mut ended_badly = None;
        match &mut self.peer {
            Peer::Process(child) => {
                let end = Instant::now() + Duration::from_secs(2);
                while Instant::now() < end && !matches!(child.try_wait(), Ok(Some(_))) {
                    thread::sleep(Duration::from_millis(10));
                }
            }
            Peer::Thread(_) => ended_badly = self.exit_status(),
        }
        self.kill();
        answered?;
        match ended_badly {
            None => Ok(()),
            Some(status) => {
                let sent = "quit".to_string();
                Err(self.error(Failure::Crashed {
                    sent,
                    status: Some(status),
                }))
            }
        }
    }
}

/// An error of the engine `name` started with `command`.
fn error(name: &str, command: &str, failure: Failure) -> EngineError {
    EngineError {
        name: name.to_string(),
        command: command.to_string(),
        failure,
    }
}

impl Drop for Client {
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
    fn missing_program_is_a_start_error() {
        let e = Client::start("nope", "/nonexistent/engine --x", &StderrMode::Null).unwrap_err();
        assert_eq!(e.kind(), "start");
        let text = e.to_string();
        assert!(text.starts_with("engine 'nope' (/nonexistent/engine --x) could not start: "));
        let e = Client::start("empty", "  ", &StderrMode::Null).unwrap_err();
        assert!(e.to_string().contains("empty command"));
    }

    #[cfg(unix)]
    #[test]
    fn talks_to_a_shell_pretending_to_be_an_engine() {
        // `cat` echoes commands back: not GTP.
        let mut e = Client::start("cat", "cat", &StderrMode::Null).unwrap();
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
        let mut e = Client::start("sh", &cmd, &StderrMode::Null).unwrap();
        let t = Duration::from_secs(5);
        assert_eq!(e.send("name", t).unwrap(), Ok("fake".to_string()));
        assert_eq!(e.send("multi", t).unwrap(), Ok("a\nb".to_string()));
        assert_eq!(e.send("bad", t).unwrap(), Err("no such thing".to_string()));
        let err = e.send("die", t).unwrap_err();
        assert_eq!(err.kind(), "crash");
        assert!(err.to_string().contains("exit status 3"), "{err}");
        assert!(e.send("name", t).is_err());
    }

    #[test]
    fn talks_to_an_engine_thread() {
        let t = Duration::from_secs(30);
        let mut e = Client::in_process("k", EngineOptions::default()).unwrap();
        assert_eq!(e.send("name", t).unwrap(), Ok("kosumi".to_string()));
        let err = e.must("boardsize 99", t).unwrap_err();
        assert_eq!(err.kind(), "refused");
        assert!(e.is_alive());
        e.must("boardsize 9", t).unwrap();
        e.must("kosumi-param playouts 50", t).unwrap();
        let (updates, genmove) = e
            .interrupt_stream("lz-analyze b 1", "genmove b", t)
            .unwrap();
        assert!(
            updates.iter().all(|u| u.starts_with("info move ")),
            "{updates:?}"
        );
        assert!(genmove.is_ok(), "{genmove:?}");
        e.quit().unwrap();
        assert!(!e.is_alive());
    }
}

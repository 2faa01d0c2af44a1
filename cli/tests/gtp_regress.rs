//! GTP regression files, run the way GoGui's `gogui-regress` runs them.
//!
//! Every `gtp-tests/**/*.tst` file gets a fresh engine whose working
//! directory is the file's folder. Each non-comment line is sent as a
//! command. A numbered command (`10 play b d4`) is a test; a `#? [regex]`
//! line right after it gives the expected response, matched against the
//! whole response text (Java `matches()` with DOTALL and MULTILINE). A
//! leading `!` negates the pattern, a trailing `*` marks an expected
//! failure. A `?` response to a test is always a failure. See
//! `gtp-tests/README.md`.
//!
//! Environment:
//! * `KOSUMI_REGRESS_ENGINE`: another engine command line to run instead of
//!   `kosumi gtp --quiet` (for example `gnugo --mode gtp` to check the
//!   expectations against GNU Go; a bare `gnugo` is found as `kosumi match`
//!   finds it). Files under a `kosumi-only`
//!   folder are then skipped.
//! * `KOSUMI_REGRESS_FILTER`: run only files whose path contains this text.
//! * `KOSUMI_REGRESS_TIMEOUT`: seconds to wait for one response (default
//!   600), a safety net against a hung engine, not a timing test.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A small backtracking regular-expression matcher covering what GTP
/// regression files use (Java syntax subset): literals, `.`, classes with
/// ranges and negation, escapes (`\d \s \w` and their negations, `\n \t`,
/// escaped metacharacters), groups (capturing or `(?:`), `|`, the
/// quantifiers `* + ? {n} {n,} {n,m}` (greedy or lazy), and `^`/`$`
/// anchors at line boundaries. `.` matches newlines too.
mod regex {
    use std::fmt;

    #[derive(Clone, Debug)]
    enum Node {
        Char(char),
        Any,
        Class {
            items: Vec<ClassItem>,
            negated: bool,
        },
        LineStart,
        LineEnd,
        Alt(Vec<Vec<Node>>),
        /// `(?=...)` (true) or `(?!...)` (false): a zero-width test.
        Look(Box<Node>, bool),
        Repeat {
            node: Box<Node>,
            min: usize,
            max: Option<usize>,
            greedy: bool,
        },
    }

    #[derive(Clone, Debug)]
    enum ClassItem {
        Range(char, char),
        Digit(bool),
        Space(bool),
        Word(bool),
    }

    impl ClassItem {
        fn matches(&self, c: char) -> bool {
            match *self {
                ClassItem::Range(lo, hi) => lo <= c && c <= hi,
                ClassItem::Digit(yes) => c.is_ascii_digit() == yes,
                ClassItem::Space(yes) => is_space(c) == yes,
                ClassItem::Word(yes) => (c.is_ascii_alphanumeric() || c == '_') == yes,
            }
        }
    }

    fn is_space(c: char) -> bool {
        matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
    }

    /// A pattern that cannot be compiled.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Error(pub String);

    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "bad pattern: {}", self.0)
        }
    }

    /// A compiled pattern.
    #[derive(Clone, Debug)]
    pub struct Regex {
        root: Node,
    }

    impl Regex {
        /// Compiles `pattern`.
        pub fn new(pattern: &str) -> Result<Regex, Error> {
            let mut parser = Parser {
                chars: pattern.chars().collect(),
                pos: 0,
            };
            let root = parser.alternation()?;
            if parser.pos < parser.chars.len() {
                return Err(Error(format!("unmatched ')' at {}", parser.pos)));
            }
            Ok(Regex { root })
        }

        /// Whether the pattern matches the whole of `text`.
        pub fn matches(&self, text: &str) -> bool {
            let input: Vec<char> = text.chars().collect();
            let m = Matcher { input: &input };
            m.node(&self.root, 0, &mut |end| end == input.len())
        }
    }

    struct Parser {
        chars: Vec<char>,
        pos: usize,
    }

    impl Parser {
        fn peek(&self) -> Option<char> {
            self.chars.get(self.pos).copied()
        }

        fn next(&mut self) -> Option<char> {
            let c = self.peek();
            self.pos += c.is_some() as usize;
            c
        }

        fn alternation(&mut self) -> Result<Node, Error> {
            let mut alts = vec![self.sequence()?];
            while self.peek() == Some('|') {
                self.pos += 1;
                alts.push(self.sequence()?);
            }
            Ok(Node::Alt(alts))
        }

        fn sequence(&mut self) -> Result<Vec<Node>, Error> {
            let mut seq = Vec::new();
            while let Some(c) = self.peek() {
                if c == '|' || c == ')' {
                    break;
                }
                let atom = self.atom()?;
                let atom = self.quantified(atom)?;
                seq.push(atom);
            }
            Ok(seq)
        }

        fn atom(&mut self) -> Result<Node, Error> {
            let c = self.next().expect("caller checked");
            Ok(match c {
                '.' => Node::Any,
                '^' => Node::LineStart,
                '$' => Node::LineEnd,
                '(' => {
                    let rest = &self.chars[self.pos..];
                    let look = if rest.starts_with(&['?', '=']) {
                        Some(true)
                    } else if rest.starts_with(&['?', '!']) {
                        Some(false)
                    } else {
                        None
                    };
                    if look.is_some() || rest.starts_with(&['?', ':']) {
                        self.pos += 2;
                    }
                    let inner = self.alternation()?;
                    if self.next() != Some(')') {
                        return Err(Error("unclosed '('".into()));
                    }
                    match look {
                        Some(positive) => Node::Look(Box::new(inner), positive),
                        None => inner,
                    }
                }
                '[' => self.class()?,
                '\\' => match self.escape()? {
                    Escaped::Char(c) => Node::Char(c),
                    Escaped::Item(item) => Node::Class {
                        items: vec![item],
                        negated: false,
                    },
                },
                '*' | '+' | '?' => {
                    return Err(Error(format!("nothing to repeat at {}", self.pos - 1)))
                }
                c => Node::Char(c),
            })
        }

        fn escape(&mut self) -> Result<Escaped, Error> {
            let c = self.next().ok_or_else(|| Error("trailing '\\'".into()))?;
            Ok(match c {
                'd' => Escaped::Item(ClassItem::Digit(true)),
                'D' => Escaped::Item(ClassItem::Digit(false)),
                's' => Escaped::Item(ClassItem::Space(true)),
                'S' => Escaped::Item(ClassItem::Space(false)),
                'w' => Escaped::Item(ClassItem::Word(true)),
                'W' => Escaped::Item(ClassItem::Word(false)),
                'n' => Escaped::Char('\n'),
                't' => Escaped::Char('\t'),
                'r' => Escaped::Char('\r'),
                c if c.is_ascii_alphanumeric() => {
                    return Err(Error(format!("unsupported escape '\\{c}'")));
                }
                c => Escaped::Char(c),
            })
        }

        fn class(&mut self) -> Result<Node, Error> {
            let negated = self.peek() == Some('^');
            self.pos += negated as usize;
            let mut items = Vec::new();
            let mut first = true;
            loop {
                let c = self.next().ok_or_else(|| Error("unclosed '['".into()))?;
                if c == ']' && !first {
                    break;
                }
                first = false;
                let lo = match c {
                    '\\' => match self.escape()? {
                        Escaped::Char(c) => c,
                        Escaped::Item(item) => {
                            items.push(item);
                            continue;
                        }
                    },
                    c => c,
                };
                let is_range = self.peek() == Some('-')
                    && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']');
                if is_range {
                    self.pos += 1;
                    let hi = match self.next() {
                        Some('\\') => match self.escape()? {
                            Escaped::Char(c) => c,
                            Escaped::Item(_) => return Err(Error("class in a range".into())),
                        },
                        Some(c) => c,
                        None => return Err(Error("unclosed '['".into())),
                    };
                    if hi < lo {
                        return Err(Error(format!("bad range {lo}-{hi}")));
                    }
                    items.push(ClassItem::Range(lo, hi));
                } else {
                    items.push(ClassItem::Range(lo, lo));
                }
            }
            Ok(Node::Class { items, negated })
        }

        fn number(&mut self) -> Option<usize> {
            let start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
            self.chars[start..self.pos]
                .iter()
                .collect::<String>()
                .parse()
                .ok()
        }

        fn quantified(&mut self, atom: Node) -> Result<Node, Error> {
            let mut node = atom;
            loop {
                let (min, max) = match self.peek() {
                    Some('*') => (0, None),
                    Some('+') => (1, None),
                    Some('?') => (0, Some(1)),
                    Some('{') => {
                        let save = self.pos;
                        self.pos += 1;
                        match self.bounds() {
                            Some(b) => {
                                self.pos -= 1; // re-consumed below with the rest
                                b
                            }
                            None => {
                                // Not a bound: `{` is a literal.
                                self.pos = save;
                                return Ok(node);
                            }
                        }
                    }
                    _ => return Ok(node),
                };
                self.pos += 1;
                if matches!(node, Node::LineStart | Node::LineEnd | Node::Look(..)) {
                    return Err(Error("quantified anchor".into()));
                }
                let mut greedy = true;
                match self.peek() {
                    Some('?') => {
                        greedy = false;
                        self.pos += 1;
                    }
                    Some('+') => self.pos += 1, // possessive: treated as greedy
                    _ => {}
                }
                if max.is_some_and(|m| m < min) {
                    return Err(Error("bad repeat bounds".into()));
                }
                node = Node::Repeat {
                    node: Box::new(node),
                    min,
                    max,
                    greedy,
                };
            }
        }

        /// After `{`: `n}`, `n,}` or `n,m}`; leaves pos just past `}`.
        fn bounds(&mut self) -> Option<(usize, Option<usize>)> {
            let min = self.number()?;
            let max = if self.peek() == Some(',') {
                self.pos += 1;
                if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.number()?)
                }
            } else {
                Some(min)
            };
            (self.next() == Some('}')).then_some((min, max))
        }
    }

    enum Escaped {
        Char(char),
        Item(ClassItem),
    }

    struct Matcher<'a> {
        input: &'a [char],
    }

    impl Matcher<'_> {
        /// Matches `node` at `pos`, then asks `k` whether the rest matches.
        fn node(&self, node: &Node, pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
            let here = self.input.get(pos).copied();
            match node {
                Node::Char(c) => here == Some(*c) && k(pos + 1),
                Node::Any => here.is_some() && k(pos + 1),
                Node::Class { items, negated } => match here {
                    Some(c) => items.iter().any(|i| i.matches(c)) != *negated && k(pos + 1),
                    None => false,
                },
                Node::LineStart => (pos == 0 || self.input[pos - 1] == '\n') && k(pos),
                Node::LineEnd => (here.is_none() || here == Some('\n')) && k(pos),
                Node::Alt(alts) => alts.iter().any(|seq| self.seq(seq, pos, k)),
                Node::Look(inner, positive) => {
                    self.node(inner, pos, &mut |_| true) == *positive && k(pos)
                }
                Node::Repeat {
                    node,
                    min,
                    max,
                    greedy,
                } => self.repeat(node, *min, *max, *greedy, 0, pos, k),
            }
        }

        fn seq(&self, seq: &[Node], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
            match seq.split_first() {
                None => k(pos),
                Some((first, rest)) => self.node(first, pos, &mut |p| self.seq(rest, p, k)),
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn repeat(
            &self,
            node: &Node,
            min: usize,
            max: Option<usize>,
            greedy: bool,
            count: usize,
            pos: usize,
            k: &mut dyn FnMut(usize) -> bool,
        ) -> bool {
            let may_stop = count >= min;
            let may_go = max.is_none_or(|m| count < m);
            let more = |k: &mut dyn FnMut(usize) -> bool| {
                may_go
                    && self.node(node, pos, &mut |p| {
                        // An empty iteration past the minimum cannot help.
                        if p == pos && may_stop {
                            return false;
                        }
                        self.repeat(node, min, max, greedy, count + 1, p, k)
                    })
            };
            // The order of the two tries is what makes a repeat greedy or lazy.
            let (first_more, then_more) = if greedy { (true, false) } else { (false, true) };
            (first_more && more(k)) || (may_stop && k(pos)) || (then_more && more(k))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::Regex;

        fn m(pattern: &str, text: &str) -> bool {
            Regex::new(pattern)
                .unwrap_or_else(|e| panic!("{pattern}: {e}"))
                .matches(text)
        }

        #[test]
        fn literals_and_whole_match() {
            assert!(m("D4", "D4"));
            assert!(!m("D4", "D44"));
            assert!(!m("D4", "xD4"));
            assert!(m("", ""));
            assert!(!m("", "a"));
            assert!(m("black", "black"));
        }

        #[test]
        fn dot_star_plus_question() {
            assert!(m("a.c", "abc"));
            assert!(m("a.c", "a\nc"));
            assert!(m("a*", ""));
            assert!(m("a*", "aaaa"));
            assert!(!m("a+", ""));
            assert!(m("a+b", "aaab"));
            assert!(m("ab?c", "ac"));
            assert!(m("ab?c", "abc"));
            assert!(!m("ab?c", "abbc"));
            assert!(m(".*", "anything\nat all"));
            assert!(m("a.*b.*c", "axxbyyc"));
        }

        #[test]
        fn alternation_and_groups() {
            assert!(m("A1|B2", "A1"));
            assert!(m("A1|B2", "B2"));
            assert!(!m("A1|B2", "A1|B2"));
            assert!(m("1 (A1|B2)", "1 B2"));
            assert!(!m("1 (A1|B2)", "1 C3"));
            assert!(m("(ab)+", "ababab"));
            assert!(!m("(ab)+", "aba"));
            assert!(m("(?:a|b)*c", "abbac"));
            assert!(m("x(|y)z", "xz"));
            assert!(m("ALIVE|DEAD|CRITICAL", "DEAD"));
        }

        #[test]
        fn classes() {
            assert!(m("[A-HJ-T][0-9]+", "Q16"));
            assert!(!m("[A-HJ-T][0-9]+", "I5"));
            assert!(m("[^0-9]", "x"));
            assert!(!m("[^0-9]", "5"));
            assert!(m("[]a]", "]"));
            assert!(m("[a-]", "-"));
            assert!(m("[\\d.]+", "6.5"));
            assert!(m("[\\]]", "]"));
            assert!(m("[BW]\\+[0-9]+\\.5", "W+6.5"));
        }

        #[test]
        fn escapes() {
            assert!(m("W\\+6\\.5", "W+6.5"));
            assert!(!m("W\\+6\\.5", "W+6x5"));
            assert!(!m("W+6.5", "W+6.5"), "unescaped + repeats W");
            assert!(m("\\d+", "123"));
            assert!(!m("\\d+", "12a"));
            assert!(m("a\\sb", "a b"));
            assert!(m("a\\sb", "a\nb"));
            assert!(m("\\w+", "D4_x"));
            assert!(m("\\S+ \\S+", "D4 E5"));
            assert!(m("a\\nb", "a\nb"));
            assert!(m("\\(\\)\\[\\]\\{\\}\\|\\*\\?\\^\\$", "()[]{}|*?^$"));
        }

        #[test]
        fn bounded_repeats() {
            assert!(m("a{3}", "aaa"));
            assert!(!m("a{3}", "aa"));
            assert!(m("a{2,}", "aaaaa"));
            assert!(m("a{1,2}b", "aab"));
            assert!(!m("a{1,2}b", "aaab"));
            assert!(m("(D4 ){2}D4", "D4 D4 D4"));
            assert!(m("a{x", "a{x"), "a brace that is no bound is literal");
        }

        #[test]
        fn anchors_and_lines() {
            assert!(m("^D4$", "D4"));
            assert!(m("a$\nb", "a\nb"));
            assert!(m("a\n^b", "a\nb"));
            assert!(!m("a^b", "ab"));
            assert!(m(".*^ 1 .*", "   A B\n 1 . . 1"));
        }

        #[test]
        fn lazy_and_backtracking() {
            assert!(m("a.*?b", "axxb"));
            assert!(m("(a|ab)(c|bcd)", "abcd"));
            assert!(m("(a*)*b", "aaab"));
            assert!(!m("(a*)*b", "aaaa"));
            assert!(m("(x+x+)+y", "xxxxxxxy"));
            assert!(m(".*D4.*", "C3 D4 E5"));
        }

        #[test]
        fn multi_line_responses() {
            let board = "A B C\n 3 . . . 3\n 2 . X . 2\n 1 . . . 1\n   A B C";
            assert!(m(".*X.*", board));
            assert!(m("A B C\n 3 \\. \\. \\. 3\n.*", board));
            assert!(m("(.*\n)* 2 \\. X \\. 2\n.*", board));
            assert!(!m(".*O.*", board));
        }

        #[test]
        fn lookahead_checks_sets_in_any_order() {
            let set = "(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?K10( |$))\\S+ \\S+ \\S+";
            assert!(m(set, "D4 Q16 K10"));
            assert!(m(set, "K10 D4 Q16"));
            assert!(!m(set, "K10 D4 Q15"));
            assert!(!m(set, "K10 D4 Q16 Q4"));
            assert!(!m(set, "D44 Q16 K10"));
            assert!(m("(?!PASS).*", "D4"));
            assert!(!m("(?!PASS).*", "PASS"));
            assert!(m("a(?=b)b", "ab"));
        }

        #[test]
        fn bad_patterns_are_errors() {
            for p in ["(", "a)", "[a", "*a", "a\\", "[z-a]", "a{3,1}", "\\q"] {
                assert!(Regex::new(p).is_err(), "{p}");
            }
        }
    }
}

/// One line of a regression file, classified.
#[derive(Debug)]
enum Entry {
    /// A command to send; `id` is set for tests (numbered commands).
    Command {
        line_no: usize,
        text: String,
        id: Option<i64>,
    },
    /// `#? ...` after a command.
    Expect { line_no: usize, spec: String },
    /// Comments and blank lines (they end a command's chance of a `#?`).
    Other,
}

fn classify(text: &str) -> Vec<Entry> {
    text.split('\n')
        .enumerate()
        .map(|(i, raw)| {
            let line_no = i + 1;
            let line = raw.trim_matches(|c: char| c <= ' ');
            if let Some(spec) = line.strip_prefix("#?") {
                Entry::Expect {
                    line_no,
                    spec: java_trim(spec).to_string(),
                }
            } else if line.is_empty() || line.starts_with('#') {
                Entry::Other
            } else {
                let text = line.replace('\t', " ");
                Entry::Command {
                    line_no,
                    id: test_id(&text),
                    text,
                }
            }
        })
        .collect()
}

/// gogui-regress's rule: a test is a line whose first space-separated
/// token is a non-negative integer (Java `Integer.parseInt`).
fn test_id(line: &str) -> Option<i64> {
    let (first, _) = line.split_once(' ')?;
    let digits = first.strip_prefix('+').unwrap_or(first);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<i32>().ok().map(i64::from)
}

fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// A parsed `#?` line.
struct Expectation {
    shown: String,
    regex: regex::Regex,
    negated: bool,
    expected_fail: bool,
}

fn parse_expectation(spec: &str) -> Result<Option<Expectation>, String> {
    if spec.is_empty() {
        return Ok(None);
    }
    let (spec, expected_fail) = match spec.strip_suffix('*') {
        Some(rest) => (rest, true),
        None => (spec, false),
    };
    let inner = spec
        .strip_prefix('[')
        .ok_or_else(|| format!("pattern has no opening bracket: {spec}"))?
        .strip_suffix(']')
        .ok_or_else(|| format!("pattern has no closing bracket: {spec}"))?;
    let inner = java_trim(inner);
    let (pattern, negated) = match inner.strip_prefix('!') {
        Some(rest) => (rest, true),
        None => (inner, false),
    };
    let regex = regex::Regex::new(pattern).map_err(|e| e.to_string())?;
    Ok(Some(Expectation {
        shown: inner.to_string(),
        regex,
        negated,
        expected_fail,
    }))
}

/// An engine response: success flag and the full text (status line
/// included, no final empty line).
struct Response {
    ok: bool,
    full: String,
}

impl Response {
    /// The text gogui-regress matches: from the first space, trimmed.
    fn text(&self) -> String {
        match self.full.find(' ') {
            Some(i) => java_trim(&self.full[i..]).to_string(),
            None => String::new(),
        }
    }
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    responses: Receiver<Option<Response>>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_reader: Option<thread::JoinHandle<()>>,
    timeout: Duration,
    argv: Vec<String>,
}

impl Engine {
    fn start(argv: &[String], dir: &Path, timeout: Duration) -> Result<Engine, String> {
        let mut child = Command::new(kosumi_cli::tools::resolve_program(&argv[0]))
            .args(&argv[1..])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", argv.join(" ")))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || read_responses(BufReader::new(stdout), tx));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_reader = thread::spawn(move || {
            for line in BufReader::new(stderr_pipe)
                .split(b'\n')
                .map_while(Result::ok)
            {
                let mut lines = sink.lock().unwrap();
                lines.push(String::from_utf8_lossy(&line).into_owned());
                if lines.len() > 20 {
                    lines.remove(0);
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Engine {
            child,
            stdin,
            responses: rx,
            stderr,
            stderr_reader: Some(stderr_reader),
            timeout,
            argv: argv.to_vec(),
        })
    }

    fn send(&mut self, command: &str) -> Result<Response, String> {
        let stdin = self.stdin.as_mut().ok_or("engine input already closed")?;
        if let Err(e) = writeln!(stdin, "{command}").and_then(|_| stdin.flush()) {
            return Err(format!(
                "cannot send `{command}` ({e}){}{}",
                self.exit_status(),
                self.stderr_tail()
            ));
        }
        match self.responses.recv_timeout(self.timeout) {
            Ok(Some(r)) => Ok(r),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(format!(
                "engine closed its output instead of answering `{command}`{}{}",
                self.exit_status(),
                self.stderr_tail()
            )),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer to `{command}` within {:?}",
                self.timeout
            )),
        }
    }

    /// Why the engine is gone, with a hint when it never spoke GTP.
    fn exit_status(&mut self) -> String {
        match self.exited_within(Duration::from_secs(2)) {
            Some(status) => format!(
                "; the engine exited ({status}): does `{}` speak GTP yet?",
                self.argv.join(" ")
            ),
            None => String::new(),
        }
    }

    /// The exit status once the engine has exited, waiting at most `limit`
    /// (it may close its output a moment before it ends).
    fn exited_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let start = std::time::Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if start.elapsed() < limit => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// The engine's last stderr lines. When it has exited, the reader is
    /// joined first, so every line it wrote is there.
    fn stderr_tail(&mut self) -> String {
        if self.exited_within(Duration::from_secs(2)).is_some() {
            if let Some(reader) = self.stderr_reader.take() {
                let _ = reader.join();
            }
        }
        let lines = self.stderr.lock().unwrap();
        if lines.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended with:\n    {}", lines.join("\n    "))
        }
    }

    fn finish(mut self, quit_sent: bool) {
        if !quit_sent {
            let _ = self.send("quit");
        }
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads responses: lines before a `=`/`?` line are ignored, a response
/// ends at the first empty line. Sends `None` at end of output.
fn read_responses(mut out: impl BufRead, tx: mpsc::Sender<Option<Response>>) {
    let mut current: Option<Response> = None;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match out.read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&raw).replace(['\r', '\n'], "");
        match current.as_mut() {
            None if line.starts_with('=') || line.starts_with('?') => {
                current = Some(Response {
                    ok: line.starts_with('='),
                    full: line,
                });
            }
            None => {}
            Some(_) if line.is_empty() => {
                // A closed channel means the runner gave up; keep draining.
                let _ = tx.send(current.take());
            }
            Some(r) => {
                r.full.push('\n');
                r.full.push_str(&line);
            }
        }
    }
    if current.is_some() {
        let _ = tx.send(current.take()); // a response cut by EOF still counts
    }
    let _ = tx.send(None);
}

#[derive(Default)]
struct FileReport {
    passed: usize,
    expected_fails: usize,
    unexpected_passes: Vec<String>,
    failures: Vec<String>,
    other_errors: Vec<String>,
}

fn run_file(path: &Path, engine_argv: &[String], timeout: Duration) -> FileReport {
    let mut report = FileReport::default();
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            report.failures.push(format!("cannot read the file: {e}"));
            return report;
        }
    };
    let entries = classify(&text);
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut engine = match Engine::start(engine_argv, dir, timeout) {
        Ok(e) => e,
        Err(e) => {
            report.failures.push(e);
            return report;
        }
    };
    let mut quit_sent = false;
    let mut i = 0;
    while i < entries.len() {
        match &entries[i] {
            Entry::Other => {}
            Entry::Expect { line_no, .. } => {
                report.failures.push(format!(
                    "line {line_no}: response pattern without a command right before it"
                ));
            }
            Entry::Command { line_no, text, id } => {
                quit_sent |= text.split(' ').nth(id.is_some() as usize) == Some("quit");
                let response = match engine.send(text) {
                    Ok(r) => r,
                    Err(e) => {
                        report.failures.push(format!("line {line_no}: {e}"));
                        engine.finish(true);
                        return report;
                    }
                };
                let spec = match entries.get(i + 1) {
                    Some(Entry::Expect { spec, .. }) => {
                        i += 1;
                        Some(spec.as_str())
                    }
                    _ => None,
                };
                judge(&mut report, *line_no, text, *id, spec, &response);
            }
        }
        i += 1;
    }
    engine.finish(quit_sent);
    report
}

fn judge(
    report: &mut FileReport,
    line_no: usize,
    command: &str,
    id: Option<i64>,
    spec: Option<&str>,
    response: &Response,
) {
    let got = response.text();
    let expectation = match spec.map(parse_expectation).transpose() {
        Ok(e) => e.flatten(),
        Err(e) => {
            report.failures.push(format!("line {}: {e}", line_no + 1));
            return;
        }
    };
    let Some(id) = id else {
        if expectation.is_some() {
            report.failures.push(format!(
                "line {}: `#?` after `{command}`, which has no test number",
                line_no + 1
            ));
        }
        if !response.ok {
            report.other_errors.push(format!(
                "line {line_no}: `{command}` -> `{}`",
                response.full
            ));
        }
        return;
    };
    // Stricter than gogui-regress: the id must come back.
    let status = response.full.split([' ', '\n']).next().unwrap_or("");
    if status.get(1..).and_then(|n| n.parse::<i64>().ok()) != Some(id) {
        report.failures.push(format!(
            "{id} (line {line_no}): `{command}`: the response does not echo the id: `{}`",
            response.full
        ));
        return;
    }
    let (fail, expected_fail, shown) = match &expectation {
        None => (!response.ok, false, String::new()),
        Some(e) => {
            let fail = !response.ok || e.regex.matches(&got) == e.negated;
            (fail, e.expected_fail, e.shown.clone())
        }
    };
    let what = |tag: &str| {
        let status = if response.ok { "" } else { "error " };
        format!("{id} {tag} (line {line_no}): `{command}`: expected [{shown}], got {status}[{got}]")
    };
    match (fail, expected_fail) {
        (false, false) => report.passed += 1,
        (true, true) => report.expected_fails += 1,
        (false, true) => report.unexpected_passes.push(what("unexpected PASS")),
        (true, false) => report.failures.push(what("unexpected FAIL")),
    }
}

fn collect_tst(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_tst(&path, out);
        } else if path.extension().is_some_and(|e| e == "tst") {
            out.push(path);
        }
    }
}

fn run_all() -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gtp-tests");
    let mut files = Vec::new();
    collect_tst(&root, &mut files);
    files.sort();
    let custom = std::env::var("KOSUMI_REGRESS_ENGINE")
        .ok()
        .filter(|s| !s.trim().is_empty());
    let engine_argv: Vec<String> = match &custom {
        Some(cmd) => cmd.split_whitespace().map(str::to_string).collect(),
        None => vec![
            env!("CARGO_BIN_EXE_kosumi").into(),
            "gtp".into(),
            "--quiet".into(),
        ],
    };
    if let Ok(filter) = std::env::var("KOSUMI_REGRESS_FILTER") {
        files.retain(|f| f.to_string_lossy().contains(&filter));
    }
    if custom.is_some() {
        files.retain(|f| !f.components().any(|c| c.as_os_str() == "kosumi-only"));
    }
    if files.is_empty() {
        return Ok(format!(
            "no .tst files under {}: nothing to run",
            root.display()
        ));
    }
    let timeout = std::env::var("KOSUMI_REGRESS_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(Duration::from_secs(600), Duration::from_secs);

    // One clear message, not one per file, when the engine speaks no GTP.
    let mut probe = Engine::start(&engine_argv, &root, timeout)?;
    let answer = probe.send("protocol_version");
    probe.finish(false);
    match answer {
        Ok(r) if r.ok && r.text() == "2" => {}
        Ok(r) => {
            return Err(format!(
                "`{}` answered `protocol_version` with `{}`",
                engine_argv.join(" "),
                r.full
            ))
        }
        Err(e) => return Err(format!("the engine does not speak GTP: {e}")),
    }

    let mut summary = String::new();
    let mut failures = String::new();
    for file in &files {
        let name = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        let r = run_file(file, &engine_argv, timeout);
        let _ = writeln!(
            summary,
            "{name}: {} passed, {} failed, {} expected failures, {} unexpected passes, {} other errors",
            r.passed,
            r.failures.len(),
            r.expected_fails,
            r.unexpected_passes.len(),
            r.other_errors.len()
        );
        for line in r.unexpected_passes.iter().chain(&r.other_errors) {
            let _ = writeln!(summary, "    {line}");
        }
        for line in &r.failures {
            let _ = writeln!(failures, "{name}: {line}");
        }
    }
    if failures.is_empty() {
        Ok(summary)
    } else {
        Err(format!(
            "{summary}\nFAILURES (engine: {}):\n{failures}",
            engine_argv.join(" ")
        ))
    }
}

#[test]
fn gtp_regression_files() {
    // Deep backtracking over long responses needs a roomy stack.
    let outcome = thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run_all)
        .expect("spawn the runner")
        .join()
        .expect("the runner does not panic");
    match outcome {
        Ok(summary) => println!("{summary}"),
        Err(report) => panic!("GTP regression failures:\n{report}"),
    }
}

#[cfg(test)]
mod runner_tests {
    use super::*;

    fn response(full: &str) -> Response {
        Response {
            ok: full.starts_with('='),
            full: full.to_string(),
        }
    }

    #[test]
    fn response_text_follows_gogui() {
        assert_eq!(response("=10 D4").text(), "D4");
        assert_eq!(response("=10").text(), "");
        assert_eq!(response("= ").text(), "");
        assert_eq!(response("=3 \n   A B\n 2 . . 2").text(), "A B\n 2 . . 2");
        assert_eq!(response("?4 illegal move").text(), "illegal move");
    }

    #[test]
    fn test_ids_follow_gogui() {
        assert_eq!(test_id("10 play b d4"), Some(10));
        assert_eq!(test_id("+7 name"), Some(7));
        assert_eq!(test_id("-5 name"), None);
        assert_eq!(test_id("play b d4"), None);
        assert_eq!(test_id("10"), None);
        assert_eq!(test_id("99999999999 name"), None);
    }

    #[test]
    fn expectations() {
        let e = parse_expectation("[!0]*").unwrap().unwrap();
        assert!(e.negated && e.expected_fail);
        assert!(e.regex.matches("0"));
        assert!(parse_expectation("").unwrap().is_none());
        assert!(parse_expectation("D4").is_err());
        assert!(parse_expectation("[D4").is_err());
        let e = parse_expectation("[ W\\+6\\.5 ]").unwrap().unwrap();
        assert!(!e.negated && !e.expected_fail && e.regex.matches("W+6.5"));
    }

    fn judged(id: Option<i64>, spec: Option<&str>, full: &str) -> FileReport {
        let mut r = FileReport::default();
        judge(&mut r, 1, "cmd", id, spec, &response(full));
        r
    }

    #[test]
    fn ids_must_be_echoed() {
        assert_eq!(judged(Some(1), None, "= x").failures.len(), 1);
        assert_eq!(judged(Some(1), None, "=2 x").failures.len(), 1);
        assert_eq!(judged(Some(5), None, "=5\nx").passed, 1);
    }

    #[test]
    fn judging() {
        assert_eq!(judged(Some(1), Some("[D4]"), "=1 D4").passed, 1);
        assert_eq!(judged(Some(1), Some("[D4]"), "=1 E5").failures.len(), 1);
        assert_eq!(judged(Some(1), Some("[!D4]"), "=1 E5").passed, 1);
        assert_eq!(judged(Some(1), Some("[D4]*"), "=1 E5").expected_fails, 1);
        assert_eq!(
            judged(Some(1), Some("[D4]*"), "=1 D4")
                .unexpected_passes
                .len(),
            1
        );
        // A `?` answer fails even when its text matches.
        assert_eq!(
            judged(Some(1), Some("[illegal move]"), "?1 illegal move")
                .failures
                .len(),
            1
        );
        assert_eq!(judged(Some(1), None, "?1 illegal move").failures.len(), 1);
        assert_eq!(judged(Some(1), None, "=1").passed, 1);
        assert_eq!(judged(None, None, "? oops").other_errors.len(), 1);
        assert_eq!(judged(None, Some("[x]"), "= x").failures.len(), 1);
    }

    #[test]
    fn classify_lines() {
        let e = classify("# c\n10 play b d4\n#? [=]\n\n\tname\r\n");
        assert!(matches!(e[0], Entry::Other));
        assert!(matches!(&e[1], Entry::Command { id: Some(10), .. }));
        assert!(matches!(&e[2], Entry::Expect { spec, .. } if spec == "[=]"));
        assert!(matches!(&e[4], Entry::Command { id: None, text, .. } if text == "name"));
    }

    #[test]
    fn responses_are_framed() {
        let (tx, rx) = mpsc::channel();
        let out = "junk\n= a\nb\n\n?2 bad\n\n=3 cut";
        read_responses(std::io::Cursor::new(out), tx);
        let got: Vec<Option<String>> = rx.iter().map(|r| r.map(|r| r.full)).collect();
        assert_eq!(
            got,
            vec![
                Some("= a\nb".into()),
                Some("?2 bad".into()),
                Some("=3 cut".into()),
                None
            ]
        );
    }
}

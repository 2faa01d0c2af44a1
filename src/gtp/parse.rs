//! The pure Go Text Protocol layer: line reading, preprocessing, command
//! parsing, argument parsing and response framing. No board logic lives here.
//!
//! The behaviour follows the GTP v2 specification (draft 2) and, where the
//! specification is silent, GNU Go 3.8, the reference engine:
//!
//! * [`preprocess`] drops control characters (except HT and LF), cuts
//!   comments from `#`, turns HT into a space and trims the line. An empty
//!   result means the line gets no response at all.
//! * [`parse_line`] splits `[id] name [args]`. An id is an unsigned integer;
//!   like GNU Go, a signed or overflowing number in the id position is
//!   consumed but not echoed.
//! * [`format_success`] / [`format_failure`] frame a response so it never
//!   contains an empty line before its single terminating one.
//! * [`LineReader`] reads raw byte lines from any [`BufRead`], caps their
//!   length and never fails on odd bytes.

use std::fmt;
use std::io::{self, BufRead};

use crate::board::{Color, Move, Vertex};

/// Longest input line kept, in bytes (without the LF): 1 MiB for a payload
/// plus room for an id, a command name and a few arguments.
pub const MAX_LINE_LEN: usize = (1 << 20) + 4096;

/// How many leading bytes of an over-long line [`LineReader`] keeps, enough
/// to find its id or see that it is a comment.
pub const TOO_LONG_HEAD: usize = 256;

/// GTP v2 preprocessing of one raw input line.
///
/// Removes control characters other than HT and LF, cuts everything from
/// the first `#`, turns HT (and a stray LF) into a space and trims spaces at
/// both ends. Bytes that are not valid UTF-8 become U+FFFD, so they can never
/// form a valid command by accident. An empty result means "no response".
pub fn preprocess(line: &[u8]) -> String {
    // `#` is ASCII, so cutting at the byte level never splits a character.
    let line = match line.iter().position(|&b| b == b'#') {
        Some(cut) => &line[..cut],
        None => line,
    };
    let text = String::from_utf8_lossy(line);
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' | '\n' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim_matches(' ').to_string()
}

/// One parsed GTP command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id to echo in the response, if the command carried one.
    pub id: Option<u64>,
    /// The command name, case-sensitive (`PLAY` is not `play`). Empty when
    /// the line held only an id; the engine should answer `unknown command`.
    pub name: String,
    /// The arguments, split on white space.
    pub args: Vec<String>,
}

impl Command {
    /// The argument at `index`, if present.
    pub fn arg(&self, index: usize) -> Option<&str> {
        self.args.get(index).map(String::as_str)
    }
}

/// Parses a preprocessed line into a [`Command`]; `None` for a blank line.
///
/// The first token is an id field if it is an integer with an optional sign
/// (GNU Go reads it with `%d`). Only a non-negative value that fits a `u64`
/// is kept as the id; `-5 name` runs `name` without an id, as GNU Go does.
/// A line holding only an id gives a command with an empty name: GNU Go
/// stays silent there, which would leave a client waiting forever.
pub fn parse_line(line: &str) -> Option<Command> {
    let mut tokens = line.split_ascii_whitespace().peekable();
    let first = *tokens.peek()?;
    let mut id = None;
    if let Some(digits) = id_field(first) {
        tokens.next();
        id = digits.and_then(|d| d.parse::<u64>().ok());
    }
    let name = tokens.next().unwrap_or_default().to_string();
    let args = tokens.map(str::to_string).collect();
    Some(Command { id, name, args })
}

/// `Some(Some(digits))` for `123` or `+123`, `Some(None)` for `-123`
/// (consumed, never echoed), `None` when the token is no integer at all.
fn id_field(token: &str) -> Option<Option<&str>> {
    let (negative, digits) = match token.as_bytes().first()? {
        b'+' => (false, &token[1..]),
        b'-' => (true, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((!negative).then_some(digits))
}

/// A malformed command argument. The Display texts are GNU Go's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// Not `b`, `black`, `w` or `white` in any case.
    Color,
    /// Not a vertex on the current board, nor `pass`.
    Vertex,
    /// A colour and vertex pair where either part is bad (`play`, `is_legal`).
    ColorOrVertex,
    /// Not a decimal integer.
    Int,
    /// Not a finite decimal number.
    Float,
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArgError::Color => "invalid color",
            ArgError::Vertex => "invalid coordinate",
            ArgError::ColorOrVertex => "invalid color or coordinate",
            ArgError::Int => "not an integer",
            ArgError::Float => "not a float",
        })
    }
}

impl std::error::Error for ArgError {}

/// Parses a colour: `b`, `black`, `w` or `white`, in any case.
pub fn parse_color(text: &str) -> Result<Color, ArgError> {
    if text.eq_ignore_ascii_case("b") || text.eq_ignore_ascii_case("black") {
        Ok(Color::Black)
    } else if text.eq_ignore_ascii_case("w") || text.eq_ignore_ascii_case("white") {
        Ok(Color::White)
    } else {
        Err(ArgError::Color)
    }
}

/// Parses a vertex on a board of side `size` (see [`Vertex`]): a column
/// letter (no `I`) and a row number from 1 at the bottom, in any case, or
/// `pass`. Anything off the board, malformed or on a size outside `1..=25`
/// is an error.
pub fn parse_vertex(text: &str, size: usize) -> Result<Move, ArgError> {
    text.parse::<Vertex>()
        .and_then(|v| v.to_move(size))
        .map_err(|_| ArgError::Vertex)
}

/// Parses a colour and a vertex given as two arguments (`play b d4`).
/// Either part missing or bad gives [`ArgError::ColorOrVertex`].
pub fn parse_move(
    color: Option<&str>,
    vertex: Option<&str>,
    size: usize,
) -> Result<(Color, Move), ArgError> {
    let color = color.ok_or(ArgError::ColorOrVertex)?;
    let vertex = vertex.ok_or(ArgError::ColorOrVertex)?;
    let color = parse_color(color).map_err(|_| ArgError::ColorOrVertex)?;
    let mv = parse_vertex(vertex, size).map_err(|_| ArgError::ColorOrVertex)?;
    Ok((color, mv))
}

/// Parses a decimal integer with an optional sign (`19`, `-3`, `+2`).
pub fn parse_int(text: &str) -> Result<i64, ArgError> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ArgError::Int);
    }
    text.parse().map_err(|_| ArgError::Int)
}

/// Parses a finite decimal number (`6.5`, `-3`, `7`, `.5`, `1e1`).
/// NaN, infinities and anything out of `f64` range are errors.
pub fn parse_float(text: &str) -> Result<f64, ArgError> {
    // Rust also reads `inf`, `nan` and `infinity`; allow only number syntax.
    let plausible = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    if !plausible || !text.bytes().any(|b| b.is_ascii_digit()) {
        return Err(ArgError::Float);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(ArgError::Float),
    }
}

/// A success response: `=id text` then an empty line. See [`format_response`].
pub fn format_success(id: Option<u64>, text: &str) -> String {
    format_response('=', id, text)
}

/// A failure response: `?id text` then an empty line. See [`format_response`].
pub fn format_failure(id: Option<u64>, text: &str) -> String {
    format_response('?', id, text)
}

/// Frames a response with `status` (`=` or `?`) and the optional id.
///
/// Guarantees the response ends with exactly one empty line and has none
/// inside: CRs are removed, trailing white space is cut from every line,
/// and blank lines after the first are dropped. The first line may be
/// blank (`showboard` starts its diagram on the next line): it is sent as
/// `=id ` with a space, like GNU Go, and is never empty on the wire. Empty
/// text gives `=\n\n` (or `=id\n\n`).
pub fn format_response(status: char, id: Option<u64>, text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    out.push(status);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    let text = text.replace('\r', "");
    let mut lines = text.split('\n').map(str::trim_end);
    let first = lines.next().unwrap_or("");
    let mut rest = lines.filter(|l| !l.is_empty()).peekable();
    if !first.is_empty() || rest.peek().is_some() {
        // GNU Go always writes `=id ` before the text; gogui-regress takes
        // the response from the first space, so keep the space.
        out.push(' ');
        out.push_str(first);
    }
    for line in rest {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// One item read by [`LineReader`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line's raw bytes, without the LF (a CR before it is kept: it is a
    /// control character that [`preprocess`] removes).
    Line(Vec<u8>),
    /// A line longer than the reader's limit, consumed entirely. `head` holds
    /// its first [`TOO_LONG_HEAD`] bytes (fewer if the limit is lower); [`too_long_reply`] turns it into
    /// the single response it deserves.
    TooLong {
        /// The first bytes of the line.
        head: Vec<u8>,
    },
}

/// The one response to an over-long line, or `None` if it is a comment.
///
/// The id is echoed when the head shows one; the text is `line too long`.
pub fn too_long_reply(head: &[u8]) -> Option<String> {
    let cleaned = preprocess(head);
    if cleaned.is_empty() && head.contains(&b'#') {
        return None;
    }
    let id = parse_line(&cleaned).and_then(|c| c.id);
    Some(format_failure(id, "line too long"))
}

/// Reads raw lines up to LF from any [`BufRead`], capping their length.
///
/// A line longer than the limit is consumed to its LF and reported as one
/// [`InputLine::TooLong`]; memory use stays bounded by the limit. A last
/// line without LF is returned before end of input. No bytes can make it
/// panic; I/O errors other than `Interrupted` are passed on.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the default limit, [`MAX_LINE_LEN`].
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, MAX_LINE_LEN)
    }

    /// A reader that keeps lines of at most `limit` bytes (without the LF).
    pub fn with_limit(inner: R, limit: usize) -> Self {
        LineReader { inner, limit }
    }

    /// The next line, or `None` at end of input.
    pub fn read_line(&mut self) -> io::Result<Option<InputLine>> {
        let mut line = Vec::new();
        let mut too_long = false;
        let mut seen_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            seen_any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            if !too_long {
                if line.len() + chunk.len() > self.limit {
                    too_long = true;
                    let head = TOO_LONG_HEAD.min(self.limit);
                    let keep = head.saturating_sub(line.len()).min(chunk.len());
                    line.extend_from_slice(&chunk[..keep]);
                    line.truncate(head);
                    line.shrink_to_fit();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if !seen_any {
            return Ok(None);
        }
        Ok(Some(if too_long {
            InputLine::TooLong { head: line }
        } else {
            InputLine::Line(line)
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<InputLine>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;
    use rand::{Rng, SeedableRng};
    use std::io::Cursor;

    fn cmd(line: &str) -> Command {
        parse_line(&preprocess(line.as_bytes())).expect("a command")
    }

    fn pt(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    fn read_all(input: &[u8], limit: usize) -> Vec<InputLine> {
        LineReader::with_limit(Cursor::new(input.to_vec()), limit)
            .map(|r| r.expect("no I/O error"))
            .collect()
    }

    fn line(s: &str) -> InputLine {
        InputLine::Line(s.as_bytes().to_vec())
    }

    // ---- preprocessing ----

    #[test]
    fn preprocess_drops_comments_control_characters_and_outer_blanks() {
        let cases: [(&[u8], &str); 19] = [
            (b"name", "name"),
            (b"  play b d4  ", "play b d4"),
            (b"", ""),
            (b"   ", ""),
            (b"# a comment", ""),
            (b"name # trailing", "name"),
            (b"name#x", "name"),
            (b"  #", ""),
            (b"10 play b d4 #? [=]", "10 play b d4"),
            (b"\tname\t", "name"),
            (b"play\tb\td4", "play b d4"),
            (b"name\r", "name"),
            (b"name\r\n", "name"),
            (b"\r", ""),
            (b"na\x00me", "name"),
            (b"\x1bname\x07", "name"),
            (b"na\x7fme", "name"),
            (b"\x0b\x0c", ""),
            (b"play b\x08 d4", "play b d4"),
        ];
        for (input, want) in cases {
            assert_eq!(preprocess(input), want, "{input:?}");
        }
    }

    #[test]
    fn preprocess_invalid_utf8_never_panics() {
        assert_eq!(preprocess(b"na\xffme"), "na\u{FFFD}me");
        assert_eq!(preprocess(b"\xc3"), "\u{FFFD}");
        assert_eq!(preprocess("h\u{e9}".as_bytes()), "h\u{e9}");
        assert_eq!(preprocess(b"\xff#\xff"), "\u{FFFD}");
        // A mangled name must not turn into a known one.
        assert_ne!(cmd("pl\u{FFFD}ay b d4").name, "play");
    }

    #[test]
    fn preprocess_random_bytes() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..2000 {
            let len = rng.gen_range(0..40);
            let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            let out = preprocess(&bytes);
            assert!(!out.contains('#'));
            assert!(!out.chars().any(char::is_control));
            assert_eq!(out, out.trim_matches(' '));
            if let Some(c) = parse_line(&out) {
                assert!(c.args.iter().all(|a| !a.is_empty()));
            }
        }
    }

    // ---- command lines ----

    #[test]
    fn parse_blank_lines() {
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   "), None);
        assert_eq!(parse_line(&preprocess(b"# only a comment")), None);
    }

    #[test]
    fn parse_without_id() {
        let c = cmd("name");
        assert_eq!(c.id, None);
        assert_eq!(c.name, "name");
        assert!(c.args.is_empty());
        let c = cmd("play b d4");
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "d4"]);
        assert_eq!(c.arg(0), Some("b"));
        assert_eq!(c.arg(2), None);
    }

    #[test]
    fn parse_with_id() {
        assert_eq!(cmd("5 name").id, Some(5));
        assert_eq!(cmd("0 name").id, Some(0));
        assert_eq!(cmd("0005 name").id, Some(5));
        assert_eq!(cmd("+5 name").id, Some(5));
        assert_eq!(cmd("18446744073709551615 name").id, Some(u64::MAX));
        let c = cmd("  7   boardsize   9  ");
        assert_eq!(
            (c.id, c.name.as_str(), c.args.clone()),
            (Some(7), "boardsize", vec!["9".to_string()])
        );
    }

    #[test]
    fn parse_negative_or_huge_id_is_dropped() {
        // GNU Go answers `-5 name` with `= GNU Go`: the number is consumed.
        let c = cmd("-5 name");
        assert_eq!((c.id, c.name.as_str()), (None, "name"));
        let c = cmd("18446744073709551616 name");
        assert_eq!((c.id, c.name.as_str()), (None, "name"));
    }

    #[test]
    fn parse_non_integer_first_token_is_the_name() {
        assert_eq!(cmd("1.5 name").name, "1.5");
        assert_eq!(cmd("1.5 name").id, None);
        assert_eq!(cmd("- name").name, "-");
        assert_eq!(cmd("5a name").name, "5a");
        assert_eq!(cmd("x5 name").name, "x5");
    }

    #[test]
    fn parse_id_only_line_has_empty_name() {
        let c = cmd("5");
        assert_eq!((c.id, c.name.as_str(), c.args.len()), (Some(5), "", 0));
        assert_eq!(cmd(" 6 ").id, Some(6));
    }

    #[test]
    fn parse_names_keep_case() {
        assert_eq!(cmd("PLAY b d4").name, "PLAY");
        assert_eq!(cmd("Name").name, "Name");
        assert_eq!(cmd("play B D4").args, vec!["B", "D4"]);
    }

    #[test]
    fn parse_tabs_and_comments_in_commands() {
        let c = cmd("26\tname\t# c");
        assert_eq!((c.id, c.name.as_str()), (Some(26), "name"));
        let c = cmd("3 play\tb\td4\r");
        assert_eq!(c.args, vec!["b", "d4"]);
        assert_eq!(cmd("4 komi 6.5#x").args, vec!["6.5"]);
    }

    // ---- colours ----

    #[test]
    fn colors() {
        for s in ["b", "B", "black", "BLACK", "Black", "bLaCk"] {
            assert_eq!(parse_color(s), Ok(Color::Black), "{s}");
        }
        for s in ["w", "W", "white", "WHITE", "White"] {
            assert_eq!(parse_color(s), Ok(Color::White), "{s}");
        }
        for s in ["", "bl", "blackk", "x", "wh", "empty", "0", "b "] {
            assert_eq!(parse_color(s), Err(ArgError::Color), "{s:?}");
        }
    }

    // ---- vertices (read by `board::Vertex`, tested there) ----

    #[test]
    fn vertex_errors_are_gnu_gos() {
        assert_eq!(parse_vertex("d4", 19), Ok(pt(3, 15)));
        assert_eq!(parse_vertex("pass", 26), Ok(Move::Pass));
        for s in ["i5", "z25", "a0", "", "d4 ", "resign"] {
            assert_eq!(parse_vertex(s, 19), Err(ArgError::Vertex), "{s:?}");
        }
        assert_eq!(parse_vertex("a1", 0), Err(ArgError::Vertex));
        assert_eq!(ArgError::Vertex.to_string(), "invalid coordinate");
    }

    #[test]
    fn move_pairs() {
        let bad = Err(ArgError::ColorOrVertex);
        for (color, vertex, want) in [
            (Some("b"), Some("d4"), Ok((Color::Black, pt(3, 15)))),
            (Some("WHITE"), Some("PASS"), Ok((Color::White, Move::Pass))),
            (Some("x"), Some("d4"), bad),
            (Some("b"), Some("z9"), bad),
            (Some("b"), None, bad),
            (None, None, bad),
        ] {
            assert_eq!(parse_move(color, vertex, 19), want, "{color:?} {vertex:?}");
        }
    }

    // ---- numbers ----

    #[test]
    fn integers() {
        assert_eq!(parse_int("19"), Ok(19));
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(parse_int("+2"), Ok(2));
        assert_eq!(parse_int("007"), Ok(7));
        for s in [
            "",
            "x",
            "1.5",
            "9x",
            "+",
            "-",
            " 9",
            "1e2",
            "99999999999999999999",
            "\u{663}",
        ] {
            assert_eq!(parse_int(s), Err(ArgError::Int), "{s:?}");
        }
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("6.5"), Ok(6.5));
        assert_eq!(parse_float("-3"), Ok(-3.0));
        assert_eq!(parse_float("7"), Ok(7.0));
        assert_eq!(parse_float("0.5"), Ok(0.5));
        assert_eq!(parse_float(".5"), Ok(0.5));
        assert_eq!(parse_float("+7.5"), Ok(7.5));
        assert_eq!(parse_float("1e1"), Ok(10.0));
        for s in [
            "", "nan", "NaN", "inf", "-inf", "infinity", "1e999", "6.5x", ".", "-", "e", "0x10",
            "6,5", "--1",
        ] {
            assert_eq!(parse_float(s), Err(ArgError::Float), "{s:?}");
        }
    }

    #[test]
    fn error_texts_match_gnugo() {
        assert_eq!(ArgError::Color.to_string(), "invalid color");
        assert_eq!(ArgError::Vertex.to_string(), "invalid coordinate");
        assert_eq!(
            ArgError::ColorOrVertex.to_string(),
            "invalid color or coordinate"
        );
        assert_eq!(format!("komi {}", ArgError::Float), "komi not a float");
        assert_eq!(
            format!("boardsize {}", ArgError::Int),
            "boardsize not an integer"
        );
    }

    // ---- responses ----

    #[test]
    fn responses() {
        assert_eq!(format_success(None, ""), "=\n\n");
        assert_eq!(format_success(Some(7), ""), "=7\n\n");
        assert_eq!(format_success(None, "GNU Go"), "= GNU Go\n\n");
        assert_eq!(format_success(Some(5), "2"), "=5 2\n\n");
        let failure = format_failure(None, "unknown command");
        assert_eq!(failure, "? unknown command\n\n");
        assert_eq!(
            format_failure(Some(3), "illegal move"),
            "?3 illegal move\n\n"
        );
        assert_eq!(format_response('=', Some(0), "x"), "=0 x\n\n");
        // Multi-line texts: no empty line inside, no blanks at line ends.
        assert_eq!(format_success(Some(1), "a\nb\nc"), "=1 a\nb\nc\n\n");
        assert_eq!(format_success(None, "a\n\nb"), "= a\nb\n\n");
        assert_eq!(format_success(None, "a\n  \n\t\nb\n"), "= a\nb\n\n");
        assert_eq!(format_success(None, "a\n\n\n"), "= a\n\n");
        assert_eq!(format_success(None, "a\r\nb\r\n"), "= a\nb\n\n");
        assert_eq!(format_success(None, "a  \nb\t"), "= a\nb\n\n");
        assert_eq!(format_success(None, "\n\n"), "=\n\n");
    }

    #[test]
    fn responses_keep_leading_blank_first_line_and_indentation() {
        let board = "\n   A B\n 2 . . 2\n 1 . . 1\n   A B\n";
        assert_eq!(
            format_success(Some(4), board),
            "=4 \n   A B\n 2 . . 2\n 1 . . 1\n   A B\n\n"
        );
    }

    #[test]
    fn responses_never_hold_an_empty_line() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let alphabet = ['a', ' ', '\n', '\r', '\t', 'b'];
        for _ in 0..2000 {
            let len = rng.gen_range(0..20);
            let text: String = (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
            let out = format_success(Some(1), &text);
            let body = out.strip_suffix("\n\n").expect("ends with an empty line");
            assert!(!body.contains("\n\n"), "{text:?} gave {out:?}");
            assert!(!body.ends_with('\n'));
            assert!(!body.contains('\r'));
        }
    }

    // ---- line reader ----

    #[test]
    fn reader_splits_lines() {
        assert_eq!(
            read_all(b"name\nversion\n", 100),
            vec![line("name"), line("version")]
        );
        assert_eq!(read_all(b"a\r\nb\r\n", 100), vec![line("a\r"), line("b\r")]);
        assert_eq!(read_all(b"\n\n", 100), vec![line(""), line("")]);
        assert_eq!(read_all(b"", 100), vec![]);
    }

    #[test]
    fn reader_handles_eof_without_newline() {
        assert_eq!(
            read_all(b"name\nquit", 100),
            vec![line("name"), line("quit")]
        );
        assert_eq!(read_all(b"quit", 100), vec![line("quit")]);
    }

    #[test]
    fn reader_keeps_raw_bytes() {
        assert_eq!(
            read_all(b"\xff\x00x\n", 100),
            vec![InputLine::Line(vec![0xff, 0, b'x'])]
        );
    }

    #[test]
    fn reader_limit_is_inclusive() {
        assert_eq!(read_all(b"abcde\n", 5), vec![line("abcde")]);
        assert_eq!(
            read_all(b"abcdef\nname\n", 5),
            vec![
                InputLine::TooLong {
                    head: b"abcde".to_vec()
                },
                line("name")
            ]
        );
    }

    #[test]
    fn reader_huge_line_gives_one_item() {
        let mut input = b"12 loadsgf ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_LEN));
        input.extend_from_slice(b"\n13 name\n");
        // A tiny buffer forces the line across many fill_buf calls.
        let reader = LineReader::new(io::BufReader::with_capacity(1000, Cursor::new(input)));
        let items: Vec<InputLine> = reader.map(Result::unwrap).collect();
        assert_eq!(items.len(), 2);
        match &items[0] {
            InputLine::TooLong { head } => {
                assert_eq!(head.len(), TOO_LONG_HEAD);
                assert_eq!(
                    too_long_reply(head).as_deref(),
                    Some("?12 line too long\n\n")
                );
            }
            other => panic!("expected TooLong, got {other:?}"),
        }
        assert_eq!(items[1], line("13 name"));
    }

    #[test]
    fn reader_huge_line_at_eof() {
        let input = vec![b'y'; 50];
        assert!(matches!(
            &read_all(&input, 10)[..],
            [InputLine::TooLong { .. }]
        ));
    }

    #[test]
    fn reader_random_chunks_match_split() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let len = rng.gen_range(0..200);
            let bytes: Vec<u8> = (0..len)
                .map(|_| if rng.gen_bool(0.1) { b'\n' } else { rng.gen() })
                .collect();
            let cap = rng.gen_range(1..16);
            let reader = LineReader::with_limit(
                io::BufReader::with_capacity(cap, Cursor::new(bytes.clone())),
                30,
            );
            let got: Vec<InputLine> = reader.map(Result::unwrap).collect();
            let mut parts: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            if bytes.last() == Some(&b'\n') || bytes.is_empty() {
                parts.pop();
            }
            assert_eq!(got.len(), parts.len());
            for (item, part) in got.iter().zip(parts) {
                match item {
                    InputLine::Line(l) => assert_eq!(&l[..], part),
                    InputLine::TooLong { head } => {
                        assert!(part.len() > 30);
                        assert_eq!(&head[..], &part[..30.min(TOO_LONG_HEAD)]);
                    }
                }
            }
        }
    }

    #[test]
    fn too_long_replies() {
        assert_eq!(too_long_reply(b"# a very long comment"), None);
        assert_eq!(too_long_reply(b"   # indented comment"), None);
        assert_eq!(
            too_long_reply(b"name xxxx").as_deref(),
            Some("? line too long\n\n")
        );
        assert_eq!(
            too_long_reply(b"7 komi 1111").as_deref(),
            Some("?7 line too long\n\n")
        );
        assert_eq!(
            too_long_reply(b"     ").as_deref(),
            Some("? line too long\n\n")
        );
    }
}

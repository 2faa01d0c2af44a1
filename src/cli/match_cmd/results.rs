//! The results file (JSONL): a header with the match settings, then one
//! line per finished game; read back to resume an interrupted match.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use super::config::{Config, Scorer};
use super::MatchError;
use crate::board::Color;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Two consecutive passes, then a count.
    TwoPasses,
    /// The move cap was reached, then a count.
    MoveCap,
    /// A player resigned.
    Resignation,
    /// A player made an illegal move.
    IllegalMove,
    /// A player's engine exited.
    Crash,
    /// A player's engine did not answer in time (no time control).
    Timeout,
    /// A player ran out of clock time.
    Time,
    /// A player's engine answered something that is not GTP or not a move.
    Garbage,
    /// A player's engine refused the opponent's legal move.
    Refused,
}

impl EndReason {
    /// The word used in the results file.
    pub fn word(self) -> &'static str {
        match self {
            EndReason::TwoPasses => "passes",
            EndReason::MoveCap => "move-cap",
            EndReason::Resignation => "resignation",
            EndReason::IllegalMove => "illegal",
            EndReason::Crash => "crash",
            EndReason::Timeout => "timeout",
            EndReason::Time => "time",
            EndReason::Garbage => "garbage",
            EndReason::Refused => "refused",
        }
    }

    fn from_word(word: &str) -> Option<EndReason> {
        ALL_REASONS.iter().copied().find(|r| r.word() == word)
    }

    /// Whether the game was counted.
    pub fn is_count(self) -> bool {
        matches!(self, EndReason::TwoPasses | EndReason::MoveCap)
    }

    pub(super) fn sgf_suffix(self) -> &'static str {
        match self {
            EndReason::Resignation => "Resign",
            EndReason::Time => "Time",
            _ => "Forfeit",
        }
    }
}

pub(super) const ALL_REASONS: [EndReason; 9] = [
    EndReason::TwoPasses,
    EndReason::MoveCap,
    EndReason::Resignation,
    EndReason::IllegalMove,
    EndReason::Crash,
    EndReason::Timeout,
    EndReason::Time,
    EndReason::Garbage,
    EndReason::Refused,
];

/// One finished game as the results file records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Game number, from 1.
    pub game: usize,
    /// Which engine (0 or 1, in `--engine` order) played Black.
    pub black_engine: usize,
    /// Winner's colour; `None` for a draw.
    pub winner: Option<Color>,
    /// The SGF result: `B+3.5`, `W+Resign`, `B+Time`, `W+Forfeit`, `0`.
    pub result: String,
    /// How it ended.
    pub reason: EndReason,
    /// Human-readable details (who did what).
    pub detail: String,
    /// Moves played (opening included).
    pub moves: usize,
    /// Seconds Black's and White's engines spent in `genmove`.
    pub time_used: [f64; 2],
    /// Seconds each `genmove` of Black's and of White's engine took, in
    /// order (milliseconds kept).
    pub move_times: [Vec<f64>; 2],
    /// Least time left on Black's and White's clock just after one of their
    /// moves, in seconds (below 0 when a move used the grace margin); `None`
    /// without a time control.
    pub min_clock_left: [Option<f64>; 2],
    /// `final_score` answers of the Black and White engines, if they gave one.
    pub engine_scores: [Option<String>; 2],
    /// A counted game where the engines' own `final_score` disagreed.
    pub disagreement: bool,
    /// Path of the game's SGF, if written.
    pub sgf: Option<String>,
}

impl GameSummary {
    /// Engine index (0 or 1) of the winner.
    pub fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black_engine,
            Color::White => 1 - self.black_engine,
        })
    }
}

impl Config {
    /// The settings that define the match, as the results file's header.
    pub(super) fn header_json(&self) -> String {
        let mut o = JsonObject::new();
        o.str("type", "header");
        o.raw("engines", &json_array(&self.engines));
        match &self.names {
            Some(n) => o.raw("names", &json_array(n)),
            None => o.raw("names", "null"),
        };
        o.raw(
            "setup",
            &format!(
                "[{},{}]",
                json_array(&self.setups[0]),
                json_array(&self.setups[1])
            ),
        );
        o.num("size", self.size as f64);
        o.num("komi", self.komi);
        o.str("rules", &self.rules_name);
        o.num("handicap", self.handicap.len() as f64);
        match self.time {
            Some(tc) => o.str("time", &format!("{}/{}/{}", tc.main, tc.byo, tc.stones)),
            None => o.raw("time", "null"),
        };
        o.num("max_moves", self.max_moves as f64);
        o.str(
            "scorer",
            match self.scorer {
                Scorer::SelfCount => "self",
                Scorer::Referee => "referee",
                Scorer::Engines => "engines",
            },
        );
        o.opt_str("referee", self.referee.as_deref());
        o.opt_str("openings", self.openings_dir.as_deref());
        match self.opening_moves {
            Some(n) => o.num("opening_moves", n as f64),
            None => o.raw("opening_moves", "null"),
        };
        o.finish()
    }
}

/// Reads an existing results file: its games, the names it used, and
/// whether its last line lacks a newline (an interrupted write).
#[allow(clippy::type_complexity)]
pub(super) fn read_results(
    path: &Path,
    header: &str,
) -> Result<(BTreeMap<usize, GameSummary>, Option<[String; 2]>, bool), MatchError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((BTreeMap::new(), None, false))
        }
        Err(e) => {
            return Err(MatchError::Failed(format!(
                "cannot read results file '{}': {e}",
                path.display()
            )))
        }
    };
    if text.trim().is_empty() {
        return Ok((
            BTreeMap::new(),
            None,
            !text.is_empty() && !text.ends_with('\n'),
        ));
    }
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let wanted = Json::parse(header).expect("our header is valid JSON");
    let theirs = Json::parse(first).map_err(|e| {
        MatchError::Failed(format!(
            "results file '{}' does not start with a match header ({e})",
            path.display()
        ))
    })?;
    if theirs != wanted {
        let diff = describe_difference(&theirs, &wanted);
        return Err(MatchError::Usage(format!(
            "results file '{}' belongs to a match with other settings ({diff}); use another --results file or the same settings",
            path.display()
        )));
    }
    let mut games = BTreeMap::new();
    let mut names = None;
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match Json::parse(line).ok().and_then(|j| summary_from_json(&j)) {
            Some((s, n)) => {
                names.get_or_insert(n);
                games.insert(s.game, s);
            }
            None => eprintln!(
                "warning: ignoring unreadable line {} of '{}'",
                i + 2,
                path.display()
            ),
        }
    }
    Ok((games, names, !text.ends_with('\n')))
}

fn describe_difference(theirs: &Json, wanted: &Json) -> String {
    if let (Json::Obj(a), Json::Obj(b)) = (theirs, wanted) {
        for (k, v) in b {
            let old = a.iter().find(|(k2, _)| k2 == k).map(|(_, v)| v);
            if old != Some(v) {
                let old = old.map_or("missing".to_string(), Json::to_text);
                return format!("{k} was {old}, now {}", v.to_text());
            }
        }
    }
    "the header differs".into()
}

pub(super) fn game_json(names: &[String; 2], s: &GameSummary) -> String {
    let mut o = JsonObject::new();
    o.str("type", "game");
    o.num("game", s.game as f64);
    o.num("black_engine", s.black_engine as f64);
    o.str("black", &names[s.black_engine]);
    o.str("white", &names[1 - s.black_engine]);
    o.opt_str(
        "winner",
        s.winner.map(|c| if c == Color::Black { "B" } else { "W" }),
    );
    o.str("result", &s.result);
    o.str("reason", s.reason.word());
    o.str("detail", &s.detail);
    o.num("moves", s.moves as f64);
    o.num("time_black", s.time_used[0]);
    o.num("time_white", s.time_used[1]);
    for (color, i) in [("black", 0), ("white", 1)] {
        let items: Vec<String> = s.move_times[i].iter().map(|t| format!("{t}")).collect();
        o.raw(
            &format!("move_times_{color}"),
            &format!("[{}]", items.join(",")),
        );
        match s.min_clock_left[i] {
            Some(t) => o.num(&format!("min_clock_left_{color}"), t),
            None => o.raw(&format!("min_clock_left_{color}"), "null"),
        }
    }
    o.opt_str("final_score_black", s.engine_scores[0].as_deref());
    o.opt_str("final_score_white", s.engine_scores[1].as_deref());
    o.raw(
        "disagreement",
        if s.disagreement { "true" } else { "false" },
    );
    o.opt_str("sgf", s.sgf.as_deref());
    o.finish()
}

fn summary_from_json(j: &Json) -> Option<(GameSummary, [String; 2])> {
    if j.get("type")?.as_str()? != "game" {
        return None;
    }
    let game = j.get("game")?.as_num()? as usize;
    let black_engine = j.get("black_engine")?.as_num()? as usize;
    if game == 0 || black_engine > 1 {
        return None;
    }
    let winner = match j.get("winner")? {
        Json::Null => None,
        Json::Str(s) if s == "B" => Some(Color::Black),
        Json::Str(s) if s == "W" => Some(Color::White),
        _ => return None,
    };
    let opt = |k: &str| j.get(k).and_then(Json::as_str).map(str::to_string);
    let black = opt("black")?;
    let white = opt("white")?;
    let mut names = [black, white];
    if black_engine == 1 {
        names.swap(0, 1);
    }
    let summary = GameSummary {
        game,
        black_engine,
        winner,
        result: opt("result")?,
        reason: EndReason::from_word(j.get("reason")?.as_str()?)?,
        detail: opt("detail").unwrap_or_default(),
        moves: j.get("moves").and_then(Json::as_num).unwrap_or(0.0) as usize,
        time_used: [
            j.get("time_black").and_then(Json::as_num).unwrap_or(0.0),
            j.get("time_white").and_then(Json::as_num).unwrap_or(0.0),
        ],
        move_times: ["black", "white"].map(|c| match j.get(&format!("move_times_{c}")) {
            Some(Json::Arr(items)) => items.iter().filter_map(Json::as_num).collect(),
            _ => Vec::new(),
        }),
        min_clock_left: ["black", "white"].map(|c| match j.get(&format!("min_clock_left_{c}")) {
            Some(Json::Num(t)) if t.is_finite() => Some(*t),
            _ => None,
        }),
        engine_scores: [opt("final_score_black"), opt("final_score_white")],
        disagreement: matches!(j.get("disagreement"), Some(Json::Bool(true))),
        sgf: opt("sgf"),
    };
    Some((summary, names))
}

fn json_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_array(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| json_escape(s)).collect();
    format!("[{}]", parts.join(","))
}

/// Builds one JSON object, keys in insertion order.
struct JsonObject(String);

impl JsonObject {
    fn new() -> JsonObject {
        JsonObject(String::from("{"))
    }
    fn key(&mut self, k: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push_str(&json_escape(k));
        self.0.push(':');
    }
    fn raw(&mut self, k: &str, v: &str) {
        self.key(k);
        self.0.push_str(v);
    }
    fn str(&mut self, k: &str, v: &str) {
        self.raw(k, &json_escape(v));
    }
    fn opt_str(&mut self, k: &str, v: Option<&str>) {
        match v {
            Some(v) => self.str(k, v),
            None => self.raw(k, "null"),
        }
    }
    fn num(&mut self, k: &str, v: f64) {
        self.raw(k, &format!("{v}"));
    }
    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// A parsed JSON value (just enough to read our own results files back).
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = JsonParser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_num(&self) -> Option<f64> {
        match self {
            Json::Num(n) if n.is_finite() && *n >= 0.0 => Some(*n),
            _ => None,
        }
    }

    fn to_text(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(n) => format!("{n}"),
            Json::Str(s) => json_escape(s),
            Json::Arr(items) => {
                let parts: Vec<String> = items.iter().map(Json::to_text).collect();
                format!("[{}]", parts.join(","))
            }
            Json::Obj(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}:{}", json_escape(k), v.to_text()))
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
        }
    }
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 32 {
            return Err("nested too deeply".into());
        }
        self.ws();
        let err = |i: usize| format!("unexpected input at byte {i}");
        match self.s.get(self.i) {
            None => Err("unexpected end".into()),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Json::Arr(items));
                    }
                    if !self.eat(",") {
                        return Err(err(self.i));
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return Err(err(self.i));
                    }
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(":") {
                        return Err(err(self.i));
                    }
                    fields.push((k, self.value(depth + 1)?));
                    self.ws();
                    if self.eat("}") {
                        return Ok(Json::Obj(fields));
                    }
                    if !self.eat(",") {
                        return Err(err(self.i));
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).map_err(|_| err(start))?;
                t.parse().map(Json::Num).map_err(|_| err(start))
            }
            Some(_) => Err(err(self.i)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            let c = *self.s.get(self.i).ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| "invalid UTF-8".to_string()),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or("bad \\u escape")?;
                            self.i += 4;
                            let code = u32::from_str_radix(
                                std::str::from_utf8(hex).map_err(|_| "bad \\u escape")?,
                                16,
                            )
                            .map_err(|_| "bad \\u escape")?;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err("bad escape".into()),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let s = GameSummary {
            game: 7,
            black_engine: 1,
            winner: Some(Color::White),
            result: "W+Forfeit".into(),
            reason: EndReason::IllegalMove,
            detail: "black played \"D4\"\n(ko)\u{1}".into(),
            moves: 12,
            time_used: [1.25, 0.5],
            move_times: [vec![0.5, 0.75], vec![0.5]],
            min_clock_left: [Some(-0.25), None],
            engine_scores: [Some("W+3.5".into()), None],
            disagreement: true,
            sgf: Some("/tmp/x y/game-0007.sgf".into()),
        };
        let names = ["a".to_string(), "b é".to_string()];
        let line = game_json(&names, &s);
        let j = Json::parse(&line).unwrap();
        let (back, back_names) = summary_from_json(&j).unwrap();
        assert_eq!(back, s);
        assert_eq!(back_names, names);
        assert_eq!(Json::parse(&j.to_text()).unwrap(), j);
        for bad in ["", "{", "{\"a\":}", "[1,]", "\"abc", "{\"a\":1} x", "tru"] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Json::parse(r#" {"a": [1, -2.5e1, null, true, "\u00e9\/"]} "#).unwrap(),
            Json::Obj(vec![(
                "a".into(),
                Json::Arr(vec![
                    Json::Num(1.0),
                    Json::Num(-25.0),
                    Json::Null,
                    Json::Bool(true),
                    Json::Str("é/".into())
                ])
            )])
        );
    }
}

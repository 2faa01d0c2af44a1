//! The results file (JSONL): a header with the match settings, then one
//! line per finished game; read back to resume an interrupted match.
//! serde_json writes and reads the lines; the field names are those of
//! the files earlier versions wrote, so their matches still resume.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::{Config, Scorer};
use super::MatchError;
use crate::game::EndReason;
use kosumi::board::Color;

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

/// The results file's first line: the settings that define the match.
#[derive(Serialize)]
struct Header<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    engines: &'a [String; 2],
    names: Option<&'a [String; 2]>,
    setup: &'a [Vec<String>; 2],
    size: usize,
    komi: f64,
    rules: &'a str,
    handicap: usize,
    time: Option<String>,
    max_moves: usize,
    scorer: &'static str,
    referee: Option<&'a str>,
    openings: Option<&'a str>,
    opening_moves: Option<usize>,
}

impl Config {
    /// The settings that define the match, as the results file's header.
    pub(super) fn header_json(&self) -> String {
        let header = Header {
            kind: "header",
            engines: &self.engines,
            names: self.names.as_ref(),
            setup: &self.setups,
            size: self.size,
            komi: self.komi,
            rules: &self.rules_name,
            handicap: self.handicap.len(),
            time: self
                .time
                .map(|tc| format!("{}/{}/{}", tc.main, tc.byo, tc.stones)),
            max_moves: self.max_moves,
            scorer: match self.scorer {
                Scorer::SelfCount => "self",
                Scorer::Referee => "referee",
                Scorer::Engines => "engines",
            },
            referee: self.referee.as_deref(),
            openings: self.openings_dir.as_deref(),
            opening_moves: self.opening_moves,
        };
        serde_json::to_string(&header).expect("a header always serialises")
    }
}

/// One game's line in the results file.
#[derive(Serialize, Deserialize)]
struct GameLine {
    #[serde(rename = "type")]
    kind: String,
    game: usize,
    black_engine: usize,
    black: String,
    white: String,
    /// `"B"`, `"W"` or null for a draw.
    winner: Option<String>,
    result: String,
    reason: String,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    moves: usize,
    #[serde(default)]
    time_black: f64,
    #[serde(default)]
    time_white: f64,
    #[serde(default)]
    move_times_black: Vec<f64>,
    #[serde(default)]
    min_clock_left_black: Option<f64>,
    #[serde(default)]
    move_times_white: Vec<f64>,
    #[serde(default)]
    min_clock_left_white: Option<f64>,
    #[serde(default)]
    final_score_black: Option<String>,
    #[serde(default)]
    final_score_white: Option<String>,
    #[serde(default)]
    disagreement: bool,
    #[serde(default)]
    sgf: Option<String>,
}

/// Reads an existing results file: its games, the names it used, and
/// whether its last line lacks a newline (an interrupted write).
#[allow(clippy::type_complexity)]
pub(super) fn read_results(
    path: &Path,
    header: &str,
) -> Result<(BTreeMap<usize, GameSummary>, Option<[String; 2]>, bool), MatchError> {
    let text = match fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((BTreeMap::new(), None, false))
        }
        read => read.with_context(|| format!("cannot read results file '{}'", path.display()))?,
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
    let wanted: Value = serde_json::from_str(header).expect("our header is valid JSON");
    let theirs: Value = serde_json::from_str(first).map_err(|e| {
        MatchError::Failed(format!(
            "results file '{}' does not start with a match header ({e})",
            path.display()
        ))
    })?;
    if let Some(diff) = header_difference(&theirs, &wanted) {
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
        match game_from_json(line) {
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

/// The first setting where an old header differs from ours, as `komi was
/// 6.5, now 7.5`; `None` when they agree.
fn header_difference(theirs: &Value, wanted: &Value) -> Option<String> {
    let (Value::Object(old), Value::Object(new)) = (theirs, wanted) else {
        return (!same(theirs, wanted)).then(|| "the header differs".into());
    };
    for (k, v) in new {
        match old.get(k) {
            Some(o) if same(o, v) => {}
            Some(o) => return Some(format!("{k} was {o}, now {v}")),
            None => return Some(format!("{k} was missing, now {v}")),
        }
    }
    old.keys()
        .find(|k| !new.contains_key(*k))
        .map(|k| format!("{k} is not a setting of this version"))
}

/// JSON equality with numbers compared by value: older versions wrote
/// `7` where serde_json writes `7.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// One game as a results line.
pub(super) fn game_json(names: &[String; 2], s: &GameSummary) -> String {
    let line = GameLine {
        kind: "game".into(),
        game: s.game,
        black_engine: s.black_engine,
        black: names[s.black_engine].clone(),
        white: names[1 - s.black_engine].clone(),
        winner: s.winner.map(|c| c.letter().to_string()),
        result: s.result.clone(),
        reason: s.reason.word().into(),
        detail: s.detail.clone(),
        moves: s.moves,
        time_black: s.time_used[0],
        time_white: s.time_used[1],
        move_times_black: s.move_times[0].clone(),
        min_clock_left_black: s.min_clock_left[0],
        move_times_white: s.move_times[1].clone(),
        min_clock_left_white: s.min_clock_left[1],
        final_score_black: s.engine_scores[0].clone(),
        final_score_white: s.engine_scores[1].clone(),
        disagreement: s.disagreement,
        sgf: s.sgf.clone(),
    };
    serde_json::to_string(&line).expect("a game line always serialises")
}

/// A results line back to the game and the engine names (in `--engine`
/// order); `None` for anything else.
fn game_from_json(text: &str) -> Option<(GameSummary, [String; 2])> {
    let j: GameLine = serde_json::from_str(text).ok()?;
    if j.kind != "game" || j.game == 0 || j.black_engine > 1 {
        return None;
    }
    let winner = match j.winner.as_deref() {
        None => None,
        Some("B") => Some(Color::Black),
        Some("W") => Some(Color::White),
        Some(_) => return None,
    };
    let mut names = [j.black, j.white];
    if j.black_engine == 1 {
        names.swap(0, 1);
    }
    let summary = GameSummary {
        game: j.game,
        black_engine: j.black_engine,
        winner,
        result: j.result,
        reason: EndReason::from_word(&j.reason)?,
        detail: j.detail,
        moves: j.moves,
        time_used: [j.time_black, j.time_white],
        move_times: [j.move_times_black, j.move_times_white],
        min_clock_left: [j.min_clock_left_black, j.min_clock_left_white],
        engine_scores: [j.final_score_black, j.final_score_white],
        disagreement: j.disagreement,
        sgf: j.sgf,
    };
    Some((summary, names))
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
        assert!(!line.contains('\n'), "one line: {line}");
        let (back, back_names) = game_from_json(&line).unwrap();
        assert_eq!(back, s);
        assert_eq!(back_names, names);
        for bad in [
            "",
            "{",
            "{\"type\":\"game\",\"ga",
            "{\"type\":\"header\"}",
            "[1,2]",
            &line.replace("\"black_engine\":1", "\"black_engine\":2"),
            &line.replace("\"illegal\"", "\"bored\""),
        ] {
            assert!(game_from_json(bad).is_none(), "{bad}");
        }
    }

    /// Lines exactly as the hand-made writer of earlier versions wrote them
    /// (whole numbers without `.0`) still read back.
    #[test]
    fn files_of_earlier_versions_resume() {
        let old_game = r#"{"type":"game","game":3,"black_engine":0,"black":"A","white":"B","winner":"B","result":"B+12","reason":"passes","detail":"two passes; counted by kosumi's count","moves":81,"time_black":1,"time_white":0.5,"move_times_black":[0.5,0.5],"min_clock_left_black":null,"move_times_white":[0.25],"min_clock_left_white":null,"final_score_black":"B+12","final_score_white":null,"disagreement":false,"sgf":null}"#;
        let (s, names) = game_from_json(old_game).unwrap();
        assert_eq!((s.game, s.winner, s.moves), (3, Some(Color::Black), 81));
        assert_eq!(s.time_used, [1.0, 0.5]);
        assert_eq!(s.reason, EndReason::TwoPasses);
        assert_eq!(names, ["A", "B"]);

        let old_header = r#"{"type":"header","engines":["a","b"],"names":["A","B"],"setup":[[],[]],"size":9,"komi":7,"rules":"japanese","handicap":0,"time":null,"max_moves":243,"scorer":"self","referee":null,"openings":null,"opening_moves":null}"#;
        let ours = old_header.replace("\"komi\":7", "\"komi\":7.0");
        let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        assert_eq!(header_difference(&parse(old_header), &parse(&ours)), None);
        let other = ours.replace("\"komi\":7.0", "\"komi\":7.5");
        assert_eq!(
            header_difference(&parse(old_header), &parse(&other)).unwrap(),
            "komi was 7, now 7.5"
        );
    }
}

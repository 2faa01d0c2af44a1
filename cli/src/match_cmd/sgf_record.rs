//! The SGF record of a match game.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::config::Config;
use super::results::GameSummary;
use crate::score_cmd::territory_marks;
use kosumi::board::{Color, Scoring};
use kosumi::score::Judgement;
use kosumi::sgf::{Event, GameRecord};

pub(super) fn build_record(
    cfg: &Config,
    names: &[String; 2],
    s: &GameSummary,
    events: Vec<Event>,
) -> GameRecord {
    let mut r = GameRecord::new(cfg.size);
    r.komi = Some(cfg.komi);
    r.handicap = cfg.handicap.len();
    r.rules = Some(cfg.rules_name.clone());
    r.setup_black = cfg.handicap.clone();
    if !cfg.handicap.is_empty() {
        r.to_play = Some(Color::White);
    }
    r.black_name = Some(names[s.black_engine].clone());
    r.white_name = Some(names[1 - s.black_engine].clone());
    r.result = Some(if s.result.is_empty() {
        "Void".into()
    } else {
        s.result.clone()
    });
    r.date = Some(today());
    let mut c = format!("kosumi match, game {} of {}\n", s.game, cfg.games);
    let _ = writeln!(
        c,
        "Result: {} ({}): {}",
        r.result.as_deref().unwrap_or(""),
        s.reason.word(),
        s.detail
    );
    for color in Color::ALL {
        let _ = writeln!(
            c,
            "{color} final_score: {}",
            s.engine_scores[color.index()].as_deref().unwrap_or("none")
        );
    }
    if s.disagreement {
        c.push_str("The engines' final_score disagree.\n");
    }
    let _ = write!(
        c,
        "Time used: black {:.2} s, white {:.2} s",
        s.time_used[0], s.time_used[1]
    );
    if let Some(tc) = cfg.time {
        let _ = write!(
            c,
            " (time control {})",
            tc.gtp().trim_start_matches("time_settings ")
        );
    }
    r.comment = Some(c);
    r.events = events;
    r
}

/// The SGF text with the counted territory in its last node
/// ([`territory_marks`]). Without a judgement (a game not counted) the
/// text is unchanged.
pub(super) fn with_territory(
    sgf: String,
    judgement: Option<&Judgement>,
    scoring: Scoring,
) -> String {
    let Some(j) = judgement else { return sgf };
    let props = territory_marks(j, scoring);
    // The writer ends the main line with ")\n": the last node comes just before.
    match sgf.trim_end().strip_suffix(')') {
        Some(body) => format!("{body}{props})\n"),
        None => sgf,
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(today().len(), 10);
    }
}

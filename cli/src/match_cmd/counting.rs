//! Counting finished games: kosumi's own counter, a referee engine or the
//! engines' agreed `final_score`.

use super::config::{Config, Scorer};
use super::game::tell_rules;
use crate::gtp_client::{vertex, GtpEngine};
use kosumi::board::Game;
use kosumi::score::Judgement;

/// Counting by kosumi's own counter under the game's rules: Black's margin
/// with komi included.
pub(super) fn self_score(game: &Game, judgement: &Judgement) -> f64 {
    kosumi::score::count(game, judgement).black_minus_white
}

/// `B+3.5`, `W+0.5` or `0` for Black's margin.
pub(super) fn format_margin(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// Black's margin from a `final_score` answer (`B+3.5`, `W+0.5`, `0`, `Jigo`).
pub(super) fn parse_final_score(text: &str) -> Option<f64> {
    let t = text.split_whitespace().next()?.to_ascii_uppercase();
    if t == "0" || t == "JIGO" || t == "DRAW" {
        return Some(0.0);
    }
    let (sign, rest) = if let Some(r) = t.strip_prefix("B+") {
        (1.0, r)
    } else if let Some(r) = t.strip_prefix("W+") {
        (-1.0, r)
    } else {
        return None;
    };
    let v: f64 = rest.parse().ok().filter(|v: &f64| v.is_finite())?;
    Some(sign * v)
}

/// Black's margin under the chosen counting, and how it was found;
/// `judgement` is kosumi's verdict on the final position.
pub(super) fn count(
    cfg: &Config,
    game: &Game,
    judgement: &Judgement,
    parsed: [Option<f64>; 2],
) -> (f64, String) {
    match cfg.scorer {
        Scorer::SelfCount => (self_score(game, judgement), "kosumi's count".to_string()),
        Scorer::Referee => match referee_score(cfg, game) {
            Ok(m) => (m, "referee's final_score".to_string()),
            Err(e) => (
                self_score(game, judgement),
                format!("kosumi's count (referee failed: {e})"),
            ),
        },
        Scorer::Engines => match parsed {
            [Some(a), Some(b)] if (a - b).abs() <= 1e-9 => {
                (a, "engines' agreed final_score".into())
            }
            _ => (
                self_score(game, judgement),
                "kosumi's count (engines did not agree)".into(),
            ),
        },
    }
}

/// A fresh referee process replays the game and answers `final_score`.
fn referee_score(cfg: &Config, game: &Game) -> Result<f64, String> {
    let cmd = cfg
        .referee
        .as_deref()
        .expect("referee scorer has a command");
    let mut referee = GtpEngine::start("referee", cmd, &cfg.stderr).map_err(|e| e.to_string())?;
    let t = cfg.move_timeout;
    // A referee that knows `kgs-rules` counts under the match's rules;
    // others (GNU Go) count by their own, set on their command line.
    tell_rules(&mut referee, &cfg.rules_name, t).map_err(|e| e.to_string())?;
    let mut send = |c: &str| -> Result<String, String> {
        match referee.send(c, t) {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(msg)) => Err(format!("referee ({cmd}) refused '{c}': {msg}")),
            Err(e) => Err(e.to_string()),
        }
    };
    send(&format!("boardsize {}", cfg.size))?;
    send("clear_board")?;
    send(&format!("komi {}", cfg.komi))?;
    if !cfg.handicap.is_empty() {
        let stones: Vec<String> = cfg.handicap.iter().map(|p| p.to_gtp(cfg.size)).collect();
        send(&format!("set_free_handicap {}", stones.join(" ")))?;
    }
    for &(color, mv) in game.moves() {
        send(&format!("play {color} {}", vertex(mv, cfg.size)))?;
    }
    let answer = send("final_score")?;
    referee.quit();
    parse_final_score(&answer)
        .ok_or_else(|| format!("referee ({cmd}) answered {answer:?} to 'final_score'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_score_parsing() {
        assert_eq!(parse_final_score("B+3.5"), Some(3.5));
        assert_eq!(parse_final_score("w+0.5 (upper bound)"), Some(-0.5));
        assert_eq!(parse_final_score("0"), Some(0.0));
        assert_eq!(parse_final_score("Jigo"), Some(0.0));
        assert_eq!(parse_final_score("B+R"), None);
        assert_eq!(parse_final_score(""), None);
        assert_eq!(parse_final_score("B+inf"), None);
        assert_eq!(format_margin(3.5), "B+3.5");
        assert_eq!(format_margin(-7.0), "W+7");
        assert_eq!(format_margin(0.0), "0");
    }
}

//! Counting finished games: kosumi's own counter, a referee engine or the
//! engines' agreed `final_score`.

use super::config::{Config, Scorer};
use super::engines::tell_rules;
use crate::client::Client;
use anyhow::anyhow;
use kosumi::board::{Game, GameResult, Vertex};
use kosumi::score::Judgement;

/// Counting by kosumi's own counter under the game's rules: Black's margin
/// with komi included.
pub(super) fn self_score(game: &Game, judgement: &Judgement) -> f64 {
    kosumi::score::count(game, judgement).black_minus_white
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
                format!("kosumi's count (referee failed: {e:#})"),
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
fn referee_score(cfg: &Config, game: &Game) -> anyhow::Result<f64> {
    let cmd = cfg
        .referee
        .as_deref()
        .expect("referee scorer has a command");
    let mut referee = Client::start("referee", cmd, &cfg.stderr)?;
    let t = cfg.move_timeout;
    // A referee that knows `kgs-rules` counts under the match's rules;
    // others (GNU Go) count by their own, set on their command line.
    tell_rules(&mut referee, &cfg.rules_name, t)?;
    let mut send = |c: &str| {
        let answer = referee.send(c, t)?;
        answer.map_err(|msg| anyhow!("referee ({cmd}) refused '{c}': {msg}"))
    };
    send(&format!("boardsize {}", cfg.size))?;
    send("clear_board")?;
    send(&format!("komi {}", cfg.komi))?;
    if let Some(handicap) = cfg.set_free_handicap() {
        send(&handicap)?;
    }
    for &(color, mv) in game.moves() {
        send(&format!("play {color} {}", Vertex::from_move(mv, cfg.size)))?;
    }
    let answer = send("final_score")?;
    let _ = referee.quit();
    let result = answer.parse::<GameResult>().ok();
    let margin = result.and_then(GameResult::margin);
    margin.ok_or_else(|| anyhow!("referee ({cmd}) answered {answer:?} to 'final_score'"))
}

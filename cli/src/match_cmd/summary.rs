//! The final tables: wins, draws and losses, score and Elo, endings, time
//! per move, the SPRT's verdict.

use std::fmt::Write as _;

use super::config::{Config, Scorer};
use super::results::GameSummary;
use super::stats::{elo_estimate, score_interval, SprtDecision, Tally};
use crate::game::EndReason;
use kosumi::board::Color;

/// Wins, draws and losses of engine `e`, optionally only as `color`.
pub(super) fn tally_for(games: &[GameSummary], e: usize, color: Option<Color>) -> Tally {
    let mut t = Tally::default();
    for s in games {
        let e_color = if s.black_engine == e {
            Color::Black
        } else {
            Color::White
        };
        if color.is_some_and(|c| c != e_color) {
            continue;
        }
        match s.winner_engine() {
            None => t.draws += 1,
            Some(w) if w == e => t.wins += 1,
            Some(_) => t.losses += 1,
        }
    }
    t
}

pub(super) fn table(
    cfg: &Config,
    names: &[String; 2],
    games: &[GameSummary],
    decision: Option<SprtDecision>,
) -> String {
    let mut out = String::new();
    let n = games.len();
    let _ = writeln!(
        out,
        "\n{n} game(s), {0}x{0}, komi {1}, {2} rules",
        cfg.size, cfg.komi, cfg.rules_name
    );
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(12);
    let _ = writeln!(
        out,
        "{:width$}  {:>5} {:>5} {:>5} {:>6}  {:>14}  {:>14}",
        "engine", "games", "wins", "draws", "losses", "as black w/d/l", "as white w/d/l"
    );
    for (e, name) in names.iter().enumerate() {
        let t = tally_for(games, e, None);
        let b = tally_for(games, e, Some(Color::Black));
        let w = tally_for(games, e, Some(Color::White));
        let _ = writeln!(
            out,
            "{name:width$}  {:>5} {:>5} {:>5} {:>6}  {:>14}  {:>14}",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            format!("{}/{}/{}", b.wins, b.draws, b.losses),
            format!("{}/{}/{}", w.wins, w.draws, w.losses),
        );
    }
    let black_wins = games
        .iter()
        .filter(|s| s.winner == Some(Color::Black))
        .count();
    let white_wins = games
        .iter()
        .filter(|s| s.winner == Some(Color::White))
        .count();
    let _ = writeln!(
        out,
        "Black won {black_wins}, White won {white_wins}, draws {}",
        n - black_wins - white_wins
    );
    let t = tally_for(games, 0, None);
    if let (Some(s), Some((lo, hi)), Some(elo)) = (t.score(), score_interval(&t), elo_estimate(&t))
    {
        let _ = writeln!(
            out,
            "{} scores {:.1}% (95% interval {:.1}% to {:.1}%), Elo difference {} against {}",
            names[0],
            100.0 * s,
            100.0 * lo,
            100.0 * hi,
            elo,
            names[1]
        );
    }
    let mut reasons = String::new();
    for r in EndReason::ALL {
        let k = games.iter().filter(|s| s.reason == r).count();
        if k > 0 {
            let _ = write!(
                reasons,
                "{}{} {k}",
                if reasons.is_empty() { "" } else { ", " },
                r.word()
            );
        }
    }
    let _ = writeln!(out, "Endings: {reasons}");
    out.push_str(&time_table(names, games, width));
    let disputed: Vec<String> = games
        .iter()
        .filter(|s| s.disagreement)
        .map(|s| s.game.to_string())
        .collect();
    if !disputed.is_empty() {
        let _ = writeln!(
            out,
            "The engines' final_score disagreed in {} game(s): {}{}",
            disputed.len(),
            disputed.join(", "),
            if cfg.scorer == Scorer::SelfCount {
                " (kosumi's count decided them; --referee CMD has another engine count)"
            } else {
                ""
            }
        );
    }
    if let Some(sprt) = cfg.sprt {
        let (lo, hi) = sprt.bounds();
        let verdict = match decision.unwrap_or(SprtDecision::Continue) {
            SprtDecision::Continue => "no decision yet".to_string(),
            SprtDecision::AcceptH0 => format!("H0 accepted (Elo <= {})", sprt.elo0),
            SprtDecision::AcceptH1 => format!("H1 accepted (Elo >= {})", sprt.elo1),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} (bounds {:.3}, {:.3}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&t),
            lo,
            hi
        );
    }
    out
}

/// The `p` quantile (0 to 1) of sorted values, by nearest rank.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Per engine: how long its moves took and the least it had left on the
/// clock after a move (only games that recorded move times).
fn time_table(names: &[String; 2], games: &[GameSummary], width: usize) -> String {
    let width = width.max(17);
    let mut out = String::new();
    let mut rows = Vec::new();
    for (e, name) in names.iter().enumerate() {
        let mut times = Vec::new();
        let mut least: Option<f64> = None;
        for s in games {
            let i = if s.black_engine == e { 0 } else { 1 };
            times.extend_from_slice(&s.move_times[i]);
            if let Some(t) = s.min_clock_left[i] {
                least = Some(least.map_or(t, |m| m.min(t)));
            }
        }
        if times.is_empty() {
            continue;
        }
        times.sort_by(f64::total_cmp);
        let left = least.map_or("-".into(), |t| format!("{t:.3}"));
        rows.push(format!(
            "{:width$}  {:>6} {:>7.3} {:>7.3} {:>7.3} {:>7.3}  {:>9}",
            name,
            times.len(),
            quantile(&times, 0.5),
            quantile(&times, 0.9),
            quantile(&times, 0.99),
            times[times.len() - 1],
            left
        ));
    }
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "{:width$}  {:>6} {:>7} {:>7} {:>7} {:>7}  {:>9}",
            "time per move (s)", "moves", "median", "p90", "p99", "max", "least left"
        );
        for r in rows {
            let _ = writeln!(out, "{r}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_cmd::EndReason;

    #[test]
    fn move_time_distribution() {
        let sorted: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.5), 50.0);
        assert_eq!(quantile(&sorted, 0.9), 90.0);
        assert_eq!(quantile(&sorted, 0.99), 99.0);
        assert_eq!(quantile(&[3.0], 0.99), 3.0);
        let game = |n, black_engine, times: [Vec<f64>; 2], left| GameSummary {
            game: n,
            black_engine,
            winner: None,
            result: "0".into(),
            reason: EndReason::TwoPasses,
            detail: String::new(),
            moves: 0,
            time_used: [0.0, 0.0],
            move_times: times,
            min_clock_left: left,
            engine_scores: [None, None],
            disagreement: false,
            sgf: None,
        };
        let games = [
            game(1, 0, [vec![0.1, 0.2], vec![1.0]], [Some(0.8), Some(0.5)]),
            game(2, 1, [vec![2.0], vec![0.3]], [Some(-0.1), Some(0.7)]),
        ];
        let names = ["one".to_string(), "two".to_string()];
        let t = time_table(&names, &games, 12);
        let row = |name: &str| {
            t.lines()
                .find(|l| l.starts_with(name))
                .unwrap()
                .split_whitespace()
                .skip(1)
                .map(|w| w.parse::<f64>().unwrap())
                .collect::<Vec<_>>()
        };
        // Engine one: 0.1, 0.2 as Black in game 1, 0.3 as White in game 2.
        assert_eq!(row("one"), vec![3.0, 0.2, 0.3, 0.3, 0.3, 0.7]);
        assert_eq!(row("two"), vec![2.0, 1.0, 2.0, 2.0, 2.0, -0.1]);
        assert!(time_table(&names, &[], 12).is_empty());
    }
}

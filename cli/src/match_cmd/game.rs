//! The game loop: one game between the two engines, every move checked by
//! kosumi's rules core.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::clock::Clock;
use super::config::Config;
use super::counting::count;
use super::results::{EndReason, GameSummary};
use super::runner::{must, Pair};
use super::sgf_record::{build_record, with_territory};
use super::MatchError;
use crate::gtp_client::{parse_vertex, vertex, EngineError, GtpEngine};
use kosumi::board::{Color, Game, GameResult, Move};
use kosumi::sgf::Event;

/// A failure of one player that ends the game.
struct Forfeit {
    loser: Color,
    reason: EndReason,
    detail: String,
}

fn forfeit_from_engine_error(loser: Color, e: &EngineError, clocked: bool) -> Forfeit {
    let reason = match e {
        EngineError::Timeout { .. } if clocked => EndReason::Time,
        EngineError::Timeout { .. } => EndReason::Timeout,
        EngineError::Garbage { .. } => EndReason::Garbage,
        EngineError::Crashed { .. } | EngineError::Start { .. } => EndReason::Crash,
    };
    Forfeit {
        loser,
        reason,
        detail: format!("{loser}: {e}"),
    }
}

/// Everything a game produced.
pub(super) struct Played {
    pub(super) summary: GameSummary,
    /// The SGF text, territory marked when the game was counted.
    pub(super) sgf: String,
}

/// Tells an engine that knows `kgs-rules` the match's rules (before `komi`,
/// which some engines reset with the rules): without it an engine plays
/// and counts by its own default rules, for example simple ko where the
/// match forbids a superko repetition. An engine that refuses the name
/// keeps its own rules, with a warning.
pub(super) fn tell_rules(
    engine: &mut GtpEngine,
    rules: &str,
    t: Duration,
) -> Result<(), MatchError> {
    // An engine that does not answer `known_command` does not know it either.
    if !matches!(engine.send("known_command kgs-rules", t)?, Ok(ref yes) if yes == "true") {
        return Ok(());
    }
    if let Err(msg) = engine.send(&format!("kgs-rules {rules}"), t)? {
        eprintln!(
            "kosumi match: engine '{}' refused 'kgs-rules {rules}' ({msg}); it plays by its own rules",
            engine.name()
        );
    }
    Ok(())
}

/// Plays game `g` (from 1); `Ok(None)` if the match stopped meanwhile.
pub(super) fn play_game(
    cfg: &Config,
    g: usize,
    pair: &mut Pair,
    names: &[String; 2],
    stop: &AtomicBool,
) -> Result<Option<Played>, MatchError> {
    let black_engine = (g - 1) % 2;
    let engine_of = |c: Color| match c {
        Color::Black => black_engine,
        Color::White => 1 - black_engine,
    };
    let t = cfg.move_timeout;
    let mut game = cfg.new_game();
    let opening = cfg.opening_for(g);
    // Setting up is not part of the contest: any failure stops the match.
    for (e, slot) in pair.iter_mut().enumerate() {
        let engine = slot.as_mut().expect("engines are started before each game");
        must(engine, &format!("boardsize {}", cfg.size), t)?;
        must(engine, "clear_board", t)?;
        tell_rules(engine, &cfg.rules_name, t)?;
        must(engine, &format!("komi {}", cfg.komi), t)?;
        for cmd in &cfg.setups[e] {
            must(engine, cmd, t)?;
        }
        if let Some(tc) = cfg.time {
            must(engine, &tc.gtp(), t)?;
        }
        if !cfg.handicap.is_empty() {
            let answer = must(engine, &format!("fixed_handicap {}", cfg.handicap.len()), t)?;
            let mut theirs: Vec<Option<Move>> = answer
                .split_whitespace()
                .map(|v| parse_vertex(v, cfg.size))
                .collect();
            let mut ours: Vec<Option<Move>> =
                cfg.handicap.iter().map(|&p| Some(Move::Play(p))).collect();
            let key = |m: &Option<Move>| m.and_then(Move::point).map(|p| (p.y(), p.x()));
            theirs.sort_by_key(key);
            ours.sort_by_key(key);
            if theirs != ours {
                return Err(MatchError::Failed(format!(
                    "engine '{}' ({}) placed fixed handicap stones at '{answer}', not where the GTP standard puts them",
                    engine.name(),
                    engine.command()
                )));
            }
        }
        if let Some(op) = opening {
            for &(color, mv) in &op.moves {
                must(engine, &format!("play {color} {}", vertex(mv, cfg.size)), t)?;
            }
        }
    }
    let mut events = Vec::new();
    if let Some(op) = opening {
        for (i, &(color, mv)) in op.moves.iter().enumerate() {
            game.play(color, mv).expect("openings were checked on load");
            let comment = (i == 0).then(|| format!("opening from {}", op.file));
            events.push(Event::Move { color, mv, comment });
        }
    }

    let mut clocks = cfg.time.map(|tc| [Clock::new(tc), Clock::new(tc)]);
    let mut times = [PlayerTimes::default(), PlayerTimes::default()];
    let mut end: Option<(Option<Color>, EndReason, String)> = None;
    let mut result_text = String::new();

    while end.is_none() {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        if game.is_over() {
            end = Some((None, EndReason::TwoPasses, "two passes".into()));
            break;
        }
        if game.moves().len() >= cfg.max_moves {
            end = Some((
                None,
                EndReason::MoveCap,
                format!("move cap of {} reached", cfg.max_moves),
            ));
            break;
        }
        let color = game.to_move();
        let mover = engine_of(color);
        let outcome = play_one_move(
            cfg,
            &mut game,
            pair,
            mover,
            color,
            clocks.as_mut().map(|c| &mut c[color.index()]),
            &mut times[color.index()],
            &mut events,
        );
        match outcome {
            MoveOutcome::Continue => {}
            MoveOutcome::Resign => {
                end = Some((
                    Some(color.opponent()),
                    EndReason::Resignation,
                    format!("{color} resigned"),
                ));
            }
            MoveOutcome::Forfeit(f) => {
                end = Some((Some(f.loser.opponent()), f.reason, f.detail));
            }
        }
    }
    let (mut winner, reason, mut detail) = end.expect("the loop ends with an end");

    // Ask both engines for their own count; `?` and failures just mean no answer.
    let mut engine_scores: [Option<String>; 2] = [None, None];
    for color in Color::ALL {
        if let Some(engine) = pair[engine_of(color)].as_mut().filter(|e| e.is_alive()) {
            if let Ok(Ok(text)) = engine.send("final_score", t) {
                engine_scores[color.index()] = Some(text.trim().to_string());
            }
        }
    }
    let parsed = engine_scores.each_ref().map(|s| {
        let result = s.as_deref()?.parse::<GameResult>().ok()?;
        result.margin()
    });
    let disagreement =
        reason.is_count() && matches!(parsed, [Some(a), Some(b)] if (a - b).abs() > 1e-9);

    // kosumi's verdict on the final position: it counts (with the default
    // scorer) and marks the territory in the SGF whoever counts.
    let judgement = reason
        .is_count()
        .then(|| kosumi::search::judge::judge(&game));
    if let Some(j) = &judgement {
        let (margin, how) = count(cfg, &game, j, parsed);
        winner = if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        result_text = GameResult::from_margin(margin).to_string();
        detail = format!("{detail}; counted by {how}");
        // Worth seeing when checking a counter against the engines.
        if let [Some(a), Some(b)] = parsed {
            if (a - b).abs() <= 1e-9 && (a - margin).abs() > 1e-9 {
                let agreed = GameResult::from_margin(a);
                detail = format!("{detail}; the engines agree on {agreed}");
            }
        }
    } else if let Some(w) = winner {
        // Results the match writes spell `Resign`, `Time` and `Forfeit` out.
        result_text = format!("{:#}", reason.result(w));
    }

    let summary = GameSummary {
        game: g,
        black_engine,
        winner,
        result: result_text,
        reason,
        detail,
        moves: game.moves().len(),
        // Milliseconds, as the results file keeps them.
        time_used: [ms(times[0].total), ms(times[1].total)],
        min_clock_left: [times[0].min_left.map(ms), times[1].min_left.map(ms)],
        move_times: times.map(|t| t.per_move.into_iter().map(ms).collect()),
        engine_scores,
        disagreement,
        sgf: None,
    };
    let record = build_record(cfg, names, &summary, events);
    let scoring = game.rules().scoring();
    let sgf = with_territory(record.to_sgf(), judgement.as_ref(), scoring);
    Ok(Some(Played { summary, sgf }))
}

/// Seconds rounded to milliseconds, as the results file keeps them.
fn ms(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

/// One player's thinking time in a game.
#[derive(Default)]
struct PlayerTimes {
    total: f64,
    per_move: Vec<f64>,
    min_left: Option<f64>,
}

enum MoveOutcome {
    Continue,
    Resign,
    Forfeit(Forfeit),
}

/// Asks the mover for a move, checks it, tells the opponent.
#[allow(clippy::too_many_arguments)]
fn play_one_move(
    cfg: &Config,
    game: &mut Game,
    pair: &mut Pair,
    mover: usize,
    color: Color,
    clock: Option<&mut Clock>,
    times: &mut PlayerTimes,
    events: &mut Vec<Event>,
) -> MoveOutcome {
    let clocked = clock.is_some();
    let forfeit =
        |e: &EngineError| MoveOutcome::Forfeit(forfeit_from_engine_error(color, e, clocked));
    let engine = pair[mover].as_mut().expect("engines are started");
    let limit = match &clock {
        Some(c) => {
            let (secs, stones) = c.time_left();
            match engine.send(
                &format!("time_left {color} {secs} {stones}"),
                cfg.move_timeout,
            ) {
                Ok(_) => {}
                Err(e) => return forfeit(&e),
            }
            Duration::from_secs_f64((c.available() + cfg.time_margin).max(0.001))
        }
        None => cfg.move_timeout,
    };
    let started = Instant::now();
    let answer = engine.send(&format!("genmove {color}"), limit);
    let used = started.elapsed().as_secs_f64();
    times.total += used;
    times.per_move.push(used);
    if let Some(c) = &clock {
        let left = c.available() - used;
        times.min_left = Some(times.min_left.map_or(left, |m| m.min(left)));
    }
    let text = match answer {
        Ok(Ok(text)) => text,
        Ok(Err(msg)) => {
            return MoveOutcome::Forfeit(Forfeit {
                loser: color,
                reason: EndReason::Garbage,
                detail: format!("{color}: genmove failed: {msg}"),
            })
        }
        Err(e) => return forfeit(&e),
    };
    if let Some(c) = clock {
        if !c.spend(used, cfg.time_margin) {
            return MoveOutcome::Forfeit(Forfeit {
                loser: color,
                reason: EndReason::Time,
                detail: format!("{color} ran out of time ({used:.2} s for the last move)"),
            });
        }
    }
    let word = text.trim();
    if word.eq_ignore_ascii_case("resign") {
        return MoveOutcome::Resign;
    }
    let mv = match parse_vertex(word, cfg.size) {
        Some(mv) => mv,
        None if looks_like_vertex(word) => {
            return MoveOutcome::Forfeit(Forfeit {
                loser: color,
                reason: EndReason::IllegalMove,
                detail: format!("{color} played {word}, off the {0}x{0} board", cfg.size),
            })
        }
        None => {
            return MoveOutcome::Forfeit(Forfeit {
                loser: color,
                reason: EndReason::Garbage,
                detail: format!(
                    "{color}: engine '{}' ({}) answered {word:?} to 'genmove {color}', not a move",
                    engine.name(),
                    engine.command()
                ),
            })
        }
    };
    if let Err(e) = game.play(color, mv) {
        return MoveOutcome::Forfeit(Forfeit {
            loser: color,
            reason: EndReason::IllegalMove,
            detail: format!(
                "{color} played {}, an illegal move ({e})",
                vertex(mv, cfg.size)
            ),
        });
    }
    events.push(Event::Move {
        color,
        mv,
        comment: Some(format!("{used:.2} s")),
    });
    let other = pair[1 - mover].as_mut().expect("engines are started");
    let play = format!("play {color} {}", vertex(mv, cfg.size));
    match other.send(&play, cfg.move_timeout) {
        Ok(Ok(_)) => MoveOutcome::Continue,
        Ok(Err(msg)) => MoveOutcome::Forfeit(Forfeit {
            loser: color.opponent(),
            reason: EndReason::Refused,
            detail: format!("{} refused '{play}', a legal move: {msg}", color.opponent()),
        }),
        Err(e) => MoveOutcome::Forfeit(forfeit_from_engine_error(color.opponent(), &e, false)),
    }
}

/// A letter and digits: a vertex, though maybe not on this board.
fn looks_like_vertex(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && !chars.as_str().is_empty()
        && chars.as_str().len() <= 3
        && chars.all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_shapes() {
        assert!(looks_like_vertex("Z99"));
        assert!(looks_like_vertex("a1"));
        assert!(!looks_like_vertex("banana"));
        assert!(!looks_like_vertex("1A"));
        assert!(!looks_like_vertex("A"));
    }
}

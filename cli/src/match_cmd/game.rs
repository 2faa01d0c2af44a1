//! A match game: both engines set up, the game played through the one
//! game loop ([`crate::game`]), then counted and recorded.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};

use super::config::Config;
use super::counting::count;
use super::engines::{tell_rules, Pair};
use super::results::GameSummary;
use super::sgf_record::{build_record, with_territory};
use super::MatchError;
use crate::client::Client;
use crate::game::{self, Hooks, Settings};
use kosumi::board::{Color, GameResult, Move, Vertex};
use kosumi::sgf::Event;

/// Everything a game produced.
pub(super) struct Played {
    pub(super) summary: GameSummary,
    /// The SGF text, territory marked when the game was counted.
    pub(super) sgf: String,
}

/// What the match adds to the game loop: the record's moves with their
/// times, and the match's stop.
struct Record<'a> {
    stop: &'a AtomicBool,
    events: Vec<Event>,
}

impl Hooks for Record<'_> {
    type Error = Infallible;

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn record(&mut self, color: Color, mv: Move, seconds: f64) {
        let comment = Some(format!("{seconds:.2} s"));
        self.events.push(Event::Move { color, mv, comment });
    }
}

/// Plays game `g` (from 1); `Ok(None)` if the match stopped meanwhile.
pub(super) fn play_game(
    cfg: &Config,
    g: usize,
    pair: &mut Pair,
    names: &[String; 2],
    stop: &AtomicBool,
) -> Result<Option<Played>, MatchError> {
    let black_engine = if cfg.fixed_colors { 0 } else { (g - 1) % 2 };
    let engine_of = |c: Color| match c {
        Color::Black => black_engine,
        Color::White => 1 - black_engine,
    };
    let mut game = cfg.new_game();
    let opening = cfg.opening_for(g);
    let opening_moves = opening.map_or(&[][..], |op| &op.moves[..]);
    // Setting up is not part of the contest: any failure stops the match.
    for (e, slot) in pair.iter_mut().enumerate() {
        let engine = slot.as_mut().expect("engines are started before each game");
        set_up(cfg, engine, &cfg.setups[e], opening_moves)?;
    }
    let mut record = Record {
        stop,
        events: Vec::new(),
    };
    if let Some(op) = opening {
        for (i, &(color, mv)) in op.moves.iter().enumerate() {
            game.play(color, mv).expect("openings were checked on load");
            let comment = (i == 0).then(|| format!("opening from {}", op.file));
            record.events.push(Event::Move { color, mv, comment });
        }
    }
    let settings = Settings {
        max_moves: cfg.max_moves,
        move_timeout: cfg.move_timeout,
        time: cfg.time,
        time_margin: cfg.time_margin,
    };
    let [a, b] = pair
        .each_mut()
        .map(|e| e.as_mut().expect("engines are started"));
    let players = if black_engine == 0 { [a, b] } else { [b, a] };
    let Ok(finished) = game::play(&mut game, players, &settings, &mut record);
    let Some((ending, times)) = finished else {
        return Ok(None);
    };
    let reason = ending.reason;

    // Ask both engines for their own count; `?` and failures just mean no answer.
    let mut engine_scores: [Option<String>; 2] = [None, None];
    for color in Color::ALL {
        if let Some(engine) = pair[engine_of(color)].as_mut().filter(|e| e.is_alive()) {
            if let Ok(Ok(text)) = engine.send("final_score", cfg.move_timeout) {
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
        .then(|| kosumi::search::referee().judge(&game));
    let mut detail = ending.detail;
    let result = if let Some(j) = &judgement {
        let (margin, how) = count(cfg, &game, j, parsed);
        detail = format!("{detail}; counted by {how}");
        // Worth seeing when checking a counter against the engines.
        if let [Some(a), Some(b)] = parsed {
            if (a - b).abs() <= 1e-9 && (a - margin).abs() > 1e-9 {
                let agreed = GameResult::from_margin(a);
                detail = format!("{detail}; the engines agree on {agreed}");
            }
        }
        Some(GameResult::from_margin(margin))
    } else {
        ending.winner.map(|w| reason.result(w))
    };

    let summary = GameSummary {
        game: g,
        black_engine,
        winner: result.and_then(GameResult::winner),
        // Results the match writes spell `Resign`, `Time` and `Forfeit` out.
        result: result.map_or(String::new(), |r| format!("{r:#}")),
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
    let record = build_record(cfg, names, &summary, record.events);
    let scoring = game.rules().scoring();
    let sgf = with_territory(record.to_sgf(), judgement.as_ref(), scoring);
    Ok(Some(Played { summary, sgf }))
}

/// Sets an engine up for a game: size, rules, komi, the `--setup`
/// commands, the clock, the handicap (checked) and the opening's moves.
fn set_up(
    cfg: &Config,
    engine: &mut Client,
    setups: &[String],
    opening: &[(Color, Move)],
) -> Result<(), MatchError> {
    let t = cfg.move_timeout;
    engine.must(&format!("boardsize {}", cfg.size), t)?;
    engine.must("clear_board", t)?;
    tell_rules(engine, &cfg.rules_name, t)?;
    engine.must(&format!("komi {}", cfg.komi), t)?;
    for cmd in setups {
        engine.must(cmd, t)?;
    }
    if let Some(tc) = cfg.time {
        engine.must(&tc.gtp(), t)?;
    }
    if let Some(handicap) = cfg.set_free_handicap().filter(|_| cfg.set_handicap) {
        engine.must(&handicap, t)?;
    } else if !cfg.handicap.is_empty() {
        let answer = engine.must(&format!("fixed_handicap {}", cfg.handicap.len()), t)?;
        let mut theirs: Vec<Option<Move>> = answer
            .split_whitespace()
            .map(|v| v.parse::<Vertex>().and_then(|v| v.to_move(cfg.size)).ok())
            .collect();
        let mut ours: Vec<Option<Move>> =
            cfg.handicap.iter().map(|&p| Some(Move::Play(p))).collect();
        let key = |m: &Option<Move>| m.and_then(Move::point).map(|p| (p.y(), p.x()));
        theirs.sort_by_key(key);
        ours.sort_by_key(key);
        if theirs != ours {
            return Err(MatchError::Failed(format!(
                "engine '{}' ({}) placed fixed handicap stones at '{answer}', not where the GTP standard puts them (--set-handicap gives them with set_free_handicap)",
                engine.name(),
                engine.command()
            )));
        }
    }
    for &(color, mv) in opening {
        let play = format!("play {color} {}", Vertex::from_move(mv, cfg.size));
        engine.must(&play, t)?;
    }
    Ok(())
}

/// Seconds rounded to milliseconds, as the results file keeps them.
fn ms(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

//! Worker threads: each plays games with its own pair of engines; finished
//! games are written out and the progress line updated.

use std::collections::{BTreeMap, VecDeque};
use std::fs::{self, File};
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::config::Config;
use super::game::{play_game, Played};
use super::results::{game_json, GameSummary};
use super::stats::SprtDecision;
use super::summary::tally_for;
use super::MatchError;
use crate::gtp_client::GtpEngine;
use crate::progress::{format_duration, Progress};

pub(super) type Pair = [Option<GtpEngine>; 2];

/// Starts an engine and checks that it speaks GTP; returns it with its GTP name.
pub(super) fn start_engine(cfg: &Config, e: usize) -> Result<(GtpEngine, String), MatchError> {
    let label = cfg
        .names
        .as_ref()
        .map_or_else(|| format!("engine {}", e + 1), |n| n[e].clone());
    let mut engine = GtpEngine::start(&label, &cfg.engines[e], &cfg.stderr)?;
    // Engines loading a network can be slow to answer the first command.
    let first = cfg.move_timeout.max(Duration::from_secs(30));
    match engine.send("protocol_version", first)? {
        Ok(v) if v.trim() == "2" => {}
        Ok(v) => {
            return Err(MatchError::Failed(format!(
                "engine '{label}' ({}) speaks GTP version {v:?}, not 2",
                cfg.engines[e]
            )))
        }
        Err(_) => {} // GTP v1 engines may not know it; `name` below still checks the framing.
    }
    let name = match engine.send("name", cfg.move_timeout)? {
        Ok(n) if !n.trim().is_empty() => n.trim().to_string(),
        _ => label.clone(),
    };
    Ok((engine, name))
}

/// Sends a setup command that must succeed; a `?` is a match error.
pub(super) fn must(
    engine: &mut GtpEngine,
    cmd: &str,
    timeout: Duration,
) -> Result<String, MatchError> {
    match engine.send(cmd, timeout)? {
        Ok(text) => Ok(text),
        Err(msg) => Err(MatchError::Failed(format!(
            "engine '{}' ({}) refused '{cmd}': {msg}",
            engine.name(),
            engine.command()
        ))),
    }
}

pub(super) struct Shared<'a> {
    pub(super) cfg: &'a Config,
    pub(super) names: [String; 2],
    pub(super) queue: Mutex<VecDeque<usize>>,
    pub(super) stop: AtomicBool,
    pub(super) failure: Mutex<Option<MatchError>>,
    pub(super) book: Mutex<Book>,
    /// One step per game played.
    pub(super) progress: Progress,
}

/// Results so far and where they go.
pub(super) struct Book {
    pub(super) games: BTreeMap<usize, GameSummary>,
    pub(super) file: Option<File>,
    pub(super) started: Instant,
    pub(super) played_now: usize,
    pub(super) decision: Option<SprtDecision>,
}

fn set_failure(shared: &Shared, e: MatchError) {
    let mut f = shared.failure.lock().unwrap_or_else(|p| p.into_inner());
    if f.is_none() {
        *f = Some(e);
    }
    shared.stop.store(true, Ordering::SeqCst);
}

pub(super) fn worker(shared: &Shared, mut pair: Pair) {
    let cfg = shared.cfg;
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let next = shared
            .queue
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop_front();
        let Some(g) = next else { break };
        for (e, slot) in pair.iter_mut().enumerate() {
            if !slot.as_ref().is_some_and(GtpEngine::is_alive) {
                match start_engine(cfg, e) {
                    Ok((mut engine, _)) => {
                        engine.set_name(&shared.names[e]);
                        *slot = Some(engine);
                    }
                    Err(err) => {
                        set_failure(shared, err);
                        return;
                    }
                }
            }
        }
        match play_game(cfg, g, &mut pair, &shared.names, &shared.stop) {
            Ok(Some(played)) => {
                if let Err(e) = record_game(shared, played) {
                    set_failure(shared, e);
                }
            }
            Ok(None) => {}
            Err(e) => set_failure(shared, e),
        }
    }
    for engine in pair.iter_mut().flatten() {
        engine.quit();
    }
}

/// Writes the SGF and the results line, updates the tally and progress.
fn record_game(shared: &Shared, mut played: Played) -> Result<(), MatchError> {
    let cfg = shared.cfg;
    if let Some(dir) = &cfg.sgf_dir {
        let path = dir.join(format!("game-{:04}.sgf", played.summary.game));
        fs::write(&path, &played.sgf)
            .map_err(|e| MatchError::Failed(format!("cannot write '{}': {e}", path.display())))?;
        played.summary.sgf = Some(path.display().to_string());
    }
    let mut book = shared.book.lock().unwrap_or_else(|p| p.into_inner());
    let line = game_json(&shared.names, &played.summary);
    if let Some(file) = book.file.as_mut() {
        file.write_all(line.as_bytes())
            .and_then(|_| file.write_all(b"\n"))
            .and_then(|_| file.flush())
            .map_err(|e| MatchError::Failed(format!("cannot write the results file: {e}")))?;
    }
    book.games.insert(played.summary.game, played.summary);
    book.played_now += 1;
    let games: Vec<GameSummary> = book.games.values().cloned().collect();
    if let Some(sprt) = cfg.sprt {
        let d = sprt.decision(&tally_for(&games, 0, None));
        book.decision = Some(d);
        if d != SprtDecision::Continue {
            shared.stop.store(true, Ordering::SeqCst);
        }
    }
    let done = games.len();
    let t = tally_for(&games, 0, None);
    let remaining = cfg.games.saturating_sub(done);
    let per_game = book.started.elapsed().as_secs_f64() / book.played_now as f64;
    shared.progress.advance(
        1,
        &format!(
            "{} {} - {} {} (draws {}), score {:.1}%, ETA {}",
            shared.names[0],
            t.wins,
            t.losses,
            shared.names[1],
            t.draws,
            100.0 * t.score().unwrap_or(0.5),
            format_duration(per_game * remaining as f64),
        ),
    );
    Ok(())
}

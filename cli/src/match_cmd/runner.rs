//! Worker threads: each plays games with its own pair of engines; finished
//! games are written out and the progress line updated.

use anyhow::Context;
use std::collections::{BTreeMap, VecDeque};
use std::fs::{self, File};
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::config::Config;
use super::engines::{start_engine, Pair};
use super::game::{play_game, Played};
use super::results::{game_json, GameSummary};
use super::stats::SprtDecision;
use super::summary::tally_for;
use super::MatchError;
use crate::client::Client;
use crate::progress::{format_duration, Progress};

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
            if !slot.as_ref().is_some_and(Client::is_alive) {
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
        // The games are played: an engine that ends badly changes nothing.
        let _ = engine.quit();
    }
}

/// Writes the SGF and the results line, updates the tally and progress.
fn record_game(shared: &Shared, mut played: Played) -> Result<(), MatchError> {
    let cfg = shared.cfg;
    if let Some(dir) = &cfg.sgf_dir {
        let path = dir.join(format!("game-{:04}.sgf", played.summary.game));
        fs::write(&path, &played.sgf)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        played.summary.sgf = Some(path.display().to_string());
    }
    let mut book = shared.book.lock().unwrap_or_else(|p| p.into_inner());
    let line = game_json(&shared.names, &played.summary);
    if let Some(file) = book.file.as_mut() {
        file.write_all(line.as_bytes())
            .and_then(|_| file.write_all(b"\n"))
            .and_then(|_| file.flush())
            .context("cannot write the results file")?;
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

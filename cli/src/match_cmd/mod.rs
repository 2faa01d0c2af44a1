//! `kosumi match`: engine-against-engine matches between two GTP engines.
//!
//! Colours alternate (engine 1 is Black in odd-numbered games; in every game
//! with `--fixed-colors`, for handicap seats), so with
//! `--openings` each opening is played twice, once with each engine as
//! Black. kosumi's rules core referees every move: an illegal move, a crash,
//! a timeout, a loss on time or a nonsense answer loses the game for the
//! offender. Games ending by two passes or the move cap are counted by
//! kosumi's counter, a referee engine or the engines themselves.
//!
//! Every game is appended to a JSONL results file as soon as it ends; the
//! first line holds the match settings, so an interrupted match started
//! again with the same settings resumes where it stopped.
//!
//! The files: `config` (options and their checks), `openings`, `engines`
//! (starting them, telling them the rules), `game` (a game: set-up, the
//! game loop of [`crate::game`], counting and record), `counting`, `runner`
//! (worker threads and progress), `results` (the results file and
//! resuming), `sgf_record`, `summary` (the final tables) and `stats`
//! (score, Elo, SPRT).

mod chart;
mod config;
mod counting;
mod engines;
mod game;
mod openings;
mod results;
mod runner;
mod sgf_record;
pub mod stats;
mod summary;

use anyhow::Context;
use std::collections::{BTreeMap, VecDeque};
use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use self::config::Config;
pub use self::config::{MatchArgs, Scorer, ENGINE_STDERR_FILE};
use self::engines::{start_engine, Pair};
use self::results::read_results;
pub use self::results::GameSummary;
use self::runner::{worker, Book, Shared};
use self::stats::{SprtDecision, Tally};
use self::summary::{table, tally_for};
use super::client::EngineError;
use super::progress::Progress;
pub use crate::game::EndReason;

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Engine names, in `--engine` order.
    pub names: [String; 2],
    /// Every game in the results (resumed ones included), by game number.
    pub games: Vec<GameSummary>,
    /// The SPRT's state at the end, when `--sprt` was given.
    pub sprt: Option<SprtDecision>,
    /// The final table.
    pub table: String,
}

impl MatchReport {
    /// Wins, draws and losses of engine `e` (0 or 1).
    pub fn tally(&self, e: usize) -> Tally {
        tally_for(&self.games, e, None)
    }
}

/// Runs `kosumi match` and returns the exit status: 0 done, 1 a match
/// error (an engine that does not start or speak GTP...), 2 bad options.
pub fn run(args: &MatchArgs) -> i32 {
    match run_match(args) {
        Ok(report) => {
            outln!("{}", report.table.trim_end());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchError {
    /// The options are inconsistent or invalid.
    Usage(String),
    /// Something failed while playing (engines, files).
    Failed(String),
}

impl MatchError {
    /// 2 for usage errors, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            MatchError::Usage(_) => 2,
            MatchError::Failed(_) => 1,
        }
    }
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Usage(m) | MatchError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<EngineError> for MatchError {
    fn from(e: EngineError) -> Self {
        MatchError::Failed(e.to_string())
    }
}

/// A failure with its context (`cannot write 'FILE': why`).
impl From<anyhow::Error> for MatchError {
    fn from(e: anyhow::Error) -> Self {
        MatchError::Failed(format!("{e:#}"))
    }
}

/// Plays (or resumes) the match and returns its report.
pub fn run_match(args: &MatchArgs) -> Result<MatchReport, MatchError> {
    let cfg = Config::from_args(args)?;
    let header = cfg.header_json();

    // Resume: read what the results file already holds.
    let mut done: BTreeMap<usize, GameSummary> = BTreeMap::new();
    let mut stored_names: Option<[String; 2]> = None;
    let mut file = None;
    if let Some(path) = &cfg.results {
        let (existing, names, needs_newline) = read_results(path, &header)?;
        done = existing;
        stored_names = names;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir)
                .with_context(|| format!("cannot create '{}'", dir.display()))?;
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open results file '{}'", path.display()))?;
        let fresh = f.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let write = if fresh {
            format!("{header}\n")
        } else if needs_newline {
            "\n".to_string()
        } else {
            String::new()
        };
        f.write_all(write.as_bytes())
            .with_context(|| format!("cannot write results file '{}'", path.display()))?;
        file = Some(f);
    }
    if let Some(dir) = &cfg.sgf_dir {
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create --sgf-dir '{}'", dir.display()))?;
    }

    let todo: VecDeque<usize> = (1..=cfg.games).filter(|g| !done.contains_key(g)).collect();
    if !done.is_empty() && !cfg.quiet {
        if let Some(path) = &cfg.results {
            eprintln!(
                "resuming from '{}': {} game(s) already played, {} to go",
                path.display(),
                done.len(),
                todo.len()
            );
        }
    }
    let prior: Vec<GameSummary> = done.values().cloned().collect();
    let mut decision = cfg.sprt.map(|s| s.decision(&tally_for(&prior, 0, None)));
    let already_decided = decision.is_some_and(|d| d != SprtDecision::Continue);

    // Start the first pair here: it checks both engines and learns their names.
    let mut first_pair: Pair = [None, None];
    let mut gtp_names: [String; 2] = [String::new(), String::new()];
    if !todo.is_empty() && !already_decided {
        for e in 0..2 {
            let (engine, name) = start_engine(&cfg, e)?;
            gtp_names[e] = name;
            first_pair[e] = Some(engine);
        }
    }
    let names: [String; 2] = match (&cfg.names, stored_names) {
        (Some(n), _) => n.clone(),
        (None, Some(n)) => n,
        (None, None) if gtp_names[0].is_empty() => ["engine 1".into(), "engine 2".into()],
        (None, None) if gtp_names[0] == gtp_names[1] => {
            [format!("{}#1", gtp_names[0]), format!("{}#2", gtp_names[1])]
        }
        (None, None) => gtp_names.clone(),
    };
    for (e, engine) in first_pair.iter_mut().enumerate() {
        if let Some(engine) = engine {
            engine.set_name(&names[e]);
        }
    }

    let progress = Progress::new("games", cfg.games as u64, cfg.quiet);
    progress.set_position(done.len() as u64);
    let shared = Shared {
        cfg: &cfg,
        names: names.clone(),
        progress,
        queue: Mutex::new(if already_decided {
            VecDeque::new()
        } else {
            todo
        }),
        stop: AtomicBool::new(false),
        failure: Mutex::new(None),
        book: Mutex::new(Book {
            games: done,
            file,
            started: Instant::now(),
            played_now: 0,
            decision,
        }),
    };
    let workers = cfg
        .concurrency
        .min(shared.queue.lock().map_or(1, |q| q.len()))
        .max(1);
    std::thread::scope(|scope| {
        let shared = &shared;
        let mut first = Some(first_pair);
        for _ in 0..workers {
            let pair = first.take().unwrap_or([None, None]);
            scope.spawn(move || worker(shared, pair));
        }
    });
    shared.progress.finish();
    if let Some(e) = shared
        .failure
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
    {
        return Err(e);
    }
    let book = shared.book.into_inner().unwrap_or_else(|p| p.into_inner());
    if book.decision.is_some() {
        decision = book.decision;
    }
    let games: Vec<GameSummary> = book.games.into_values().collect();
    let table = table(&cfg, &names, &games, decision);
    if let Some(path) = cfg.chart.as_ref().filter(|_| !games.is_empty()) {
        // The games are safe in the results file: a chart that fails is a warning.
        if let Err(e) = chart::write_chart(path, &names, &games) {
            eprintln!("warning: cannot draw '{}': {e:#}", path.display());
        }
    }
    Ok(MatchReport {
        names,
        games,
        sprt: decision,
        table,
    })
}

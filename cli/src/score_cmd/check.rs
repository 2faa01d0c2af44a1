//! Checking the judge against recorded results: count each game, compare
//! with its `RE[]`, and optionally ask GNU Go for its count of the same
//! position. `RE` is read only for the comparison, and for a miss, after the
//! count, to name the chain that would explain it (`explain`): the scorer
//! (and GNU Go) see the moves alone, never `RE`, `TB` or `TW`.

use super::explain::{single_flip, Flip};
use super::margin::{same_margin, same_winner};
use super::reference_cache::ReferenceCache;
use super::source::GameFile;
use super::{groups, judge, marked_sgf, readings, Options};
use crate::client::{Client, StderrMode};
use anyhow::{anyhow, bail, ensure, Context};
use kosumi::board::{GameResult, Rules};
use kosumi::score::{self, PointStatus, Score};
use kosumi::sgf::GameRecord;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// GNU Go's command when `--gnugo` is given without one.
pub const GNUGO: &str = "/usr/games/gnugo --mode gtp";

/// How to run a check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Worker threads.
    pub threads: usize,
    /// A GTP engine to count the same games with (`loadsgf`, `final_score`).
    pub gnugo: Option<String>,
    /// Print a progress line on stderr every so many games (0: never).
    pub progress_every: usize,
    /// Write each counted game here with the count marked.
    pub sgf_out: Option<PathBuf>,
    /// Under each miss, the statuses of its unsettled groups and the
    /// readings behind them.
    pub readings: bool,
    /// The reference engine's answers kept from earlier runs, and where new
    /// ones are added.
    pub gnugo_cache: Option<Arc<ReferenceCache>>,
}

/// Tallies of one counter (kosumi or the reference engine).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games counted and compared.
    pub compared: usize,
    /// Games whose score equals `RE` exactly (winner and margin).
    pub exact: usize,
    /// Games whose winner (or draw) matches `RE`.
    pub winner: usize,
    /// Games that could not be counted.
    pub errors: usize,
    /// Slowest count.
    pub slowest: Duration,
    /// Name of the slowest game.
    pub slowest_game: String,
    /// Time of all counts.
    pub total_time: Duration,
}

impl Tally {
    fn add(&mut self, name: &str, ours: f64, recorded: f64, time: Duration) {
        self.compared += 1;
        self.total_time += time;
        if time >= self.slowest {
            self.slowest = time;
            self.slowest_game = name.to_string();
        }
        if same_margin(ours, recorded) {
            self.exact += 1;
        }
        if same_winner(ours, recorded) {
            self.winner += 1;
        }
    }

    /// Exact agreement as a fraction of games compared.
    pub fn agreement(&self) -> f64 {
        self.exact as f64 / self.compared.max(1) as f64
    }

    /// `exact 352/378 (93.1%), winner 370/378 (97.9%), mean 220 ms, slowest 10300 ms (game)`.
    pub fn summary(&self) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.compared.max(1) as f64;
        format!(
            "exact {}/{} ({:.1}%), winner {}/{} ({:.1}%), errors {}, mean {:.0} ms, slowest {:.0} ms ({})",
            self.exact,
            self.compared,
            pct(self.exact),
            self.winner,
            self.compared,
            pct(self.winner),
            self.errors,
            self.total_time.as_secs_f64() * 1000.0 / self.compared.max(1) as f64,
            self.slowest.as_secs_f64() * 1000.0,
            self.slowest_game
        )
    }
}

/// What a check found.
#[derive(Debug, Default)]
pub struct ListReport {
    /// kosumi's figures.
    pub ours: Tally,
    /// The reference engine's on the same games, when asked for.
    pub gnugo: Option<Tally>,
    /// Games where kosumi names the wrong winner and the reference the right one.
    pub wrong_where_gnugo_right: usize,
    /// Misses whose record kosumi's count matches once one dead chain is
    /// counted alive.
    pub miss_one_alive: usize,
    /// Of those, the chains of one stone (most often a stone in atari the
    /// players left on the board).
    pub miss_one_alive_stone: usize,
    /// Misses whose record kosumi's count matches once one living chain is
    /// counted dead.
    pub miss_one_dead: usize,
    /// Misses whose record kosumi's count matches once one chain is counted
    /// in seki, or one seki chain alive or dead.
    pub miss_one_seki: usize,
    /// One line per miss or error, in the games' order.
    pub lines: Vec<String>,
}

impl ListReport {
    /// Games counted and compared by kosumi.
    pub fn compared(&self) -> usize {
        self.ours.compared
    }

    /// Games kosumi could not count (or with no numeric `RE`).
    pub fn errors(&self) -> usize {
        self.ours.errors
    }

    /// kosumi's exact agreement.
    pub fn agreement(&self) -> f64 {
        self.ours.agreement()
    }

    /// Summary lines: kosumi's, then the reference engine's.
    pub fn summary(&self) -> String {
        let mut s = format!("kosumi: {}", self.ours.summary());
        s.push_str(&format!(
            "\nmisses one chain explains: {} if a dead chain were alive ({} of them one stone), {} if a living chain were dead, {} if a chain were in seki or a seki chain not",
            self.miss_one_alive, self.miss_one_alive_stone, self.miss_one_dead, self.miss_one_seki
        ));
        if let Some(g) = &self.gnugo {
            s.push_str(&format!(
                "\ngnugo:  {}\nwrong winner where gnugo is right: {}",
                g.summary(),
                self.wrong_where_gnugo_right
            ));
        }
        s
    }
}

/// One game's outcome.
struct Outcome {
    result: anyhow::Result<Counted>,
    gnugo: Option<anyhow::Result<(f64, Duration)>>,
}

struct Counted {
    ours: Score,
    /// For a miss: the one chain that, taken the other way, gives the record.
    flip: Option<Flip>,
    recorded: f64,
    re: String,
    time: Duration,
    /// For a miss, when asked: its groups' statuses and the readings.
    why: Option<String>,
}

/// Counts every game, compares with its `RE[]` and tallies, using
/// `check.threads` workers (each with its own reference engine).
pub fn check_games(games: &[GameFile], opts: &Options, check: &CheckOptions) -> ListReport {
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Outcome>> = Vec::new();
    slots.resize_with(games.len(), || None);
    let results = Mutex::new((slots, Progress::new(games.len(), check.progress_every)));
    std::thread::scope(|scope| {
        for _ in 0..check.threads.clamp(1, 64) {
            scope.spawn(|| {
                let mut reference = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    let outcome = count_one(game, opts, check, &mut reference);
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    r.1.record(&outcome);
                    r.0[i] = Some(outcome);
                }
            });
        }
    });
    let (outcomes, _) = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut report = ListReport {
        gnugo: check.gnugo.as_ref().map(|_| Tally::default()),
        ..ListReport::default()
    };
    for (game, outcome) in games.iter().zip(outcomes) {
        let name = &game.name;
        let Some(outcome) = outcome else { continue };
        let c = match outcome.result {
            Ok(c) => c,
            Err(e) => {
                report.ours.errors += 1;
                report.lines.push(format!("error {name}: {e:#}"));
                continue;
            }
        };
        let ours = c.ours.black_minus_white;
        report.ours.add(name, ours, c.recorded, c.time);
        let mut theirs = None;
        if let (Some(tally), Some(g)) = (report.gnugo.as_mut(), outcome.gnugo) {
            match g {
                Ok((m, t)) => {
                    tally.add(name, m, c.recorded, t);
                    theirs = Some(m);
                }
                Err(e) => {
                    tally.errors += 1;
                    report.lines.push(format!("gnugo error {name}: {e:#}"));
                }
            }
        }
        if theirs.is_some_and(|m| same_winner(m, c.recorded) && !same_winner(ours, c.recorded)) {
            report.wrong_where_gnugo_right += 1;
        }
        if !same_margin(ours, c.recorded) {
            let gnugo = theirs.map_or(String::new(), |m| format!(", gnugo {}", margin(m)));
            match c.flip.as_ref().map(|f| (f.was, f.as_if, f.stones)) {
                Some((PointStatus::Dead, _, n)) => {
                    report.miss_one_alive += 1;
                    report.miss_one_alive_stone += usize::from(n == 1);
                }
                Some((PointStatus::Alive, PointStatus::Dead, _)) => report.miss_one_dead += 1,
                Some(_) => report.miss_one_seki += 1,
                None => {}
            }
            report.lines.push(format!(
                "miss {name}: ours {}, record {}{gnugo} (off by {:+}){}{}{}",
                c.ours,
                c.re,
                ours - c.recorded,
                if same_winner(ours, c.recorded) {
                    ""
                } else {
                    ", wrong winner"
                },
                c.flip.map_or(String::new(), |f| format!("; {f}")),
                c.why.unwrap_or_default()
            ));
        }
    }
    report
}

/// Black's margin of a counted result (`B+3.5`, `0`, ...); `None` for
/// resignation, time or anything else.
fn count_in(result: &str) -> Option<f64> {
    result.parse::<GameResult>().ok()?.margin()
}

/// A margin in the `final_score` form.
fn margin(m: f64) -> String {
    GameResult::from_margin(m).to_string()
}

/// The record of a game with its result and territory marks taken out:
/// what the counters see.
fn blind_record(bytes: &[u8]) -> anyhow::Result<(GameRecord, String)> {
    let mut record = GameRecord::from_sgf(bytes)?;
    let re = record.result.take().unwrap_or_default();
    record.extra.retain(|(id, _)| id != "TB" && id != "TW");
    Ok((record, re))
}

fn count_one(
    game: &GameFile,
    opts: &Options,
    check: &CheckOptions,
    reference: &mut Option<Client>,
) -> Outcome {
    let prepared = game
        .sgf
        .as_ref()
        .map_err(|e| anyhow!("{e:#}"))
        .and_then(|bytes| {
            let (record, re) = blind_record(bytes)?;
            let recorded = count_in(&re).ok_or_else(|| anyhow!("RE[{re}] is not a count"))?;
            Ok((record, re, recorded))
        });
    let (record, re, recorded) = match prepared {
        Ok(prepared) => prepared,
        Err(e) => {
            let (result, gnugo) = (Err(e), None);
            return Outcome { result, gnugo };
        }
    };
    let result =
        count_record(game, &record, recorded, opts, check).map(|(ours, flip, time, why)| Counted {
            ours,
            flip,
            recorded,
            re,
            time,
            why,
        });
    let gnugo = check.gnugo.as_ref().map(|cmd| {
        let cache = check.gnugo_cache.as_deref();
        reference_count(cmd, &game.name, &record, cache, reference)
    });
    Outcome { result, gnugo }
}

/// kosumi's count of a (blind) record, the chain that explains a miss,
/// the count's time and, for a miss with [`CheckOptions::readings`], the
/// groups and readings indented; writes the marked game when asked to.
fn count_record(
    game: &GameFile,
    record: &GameRecord,
    recorded: f64,
    opts: &Options,
    check: &CheckOptions,
) -> anyhow::Result<(Score, Option<Flip>, Duration, Option<String>)> {
    let g = record.to_game(opts.rules, Rules::japanese(), None)?;
    let start = Instant::now();
    let j = judge(&g, opts);
    let breakdown = score::breakdown(&g, &j);
    let ours = Score::from(breakdown);
    let time = start.elapsed();
    let miss = !same_margin(ours.black_minus_white, recorded);
    let flip = if miss {
        single_flip(&g, &j, recorded)
    } else {
        None
    };
    let why = (miss && check.readings).then(|| {
        let text = groups(&g, &j) + &readings(&j);
        text.lines().map(|l| format!("\n    {l}")).collect()
    });
    if let Some(dir) = &check.sgf_out {
        let mut file = game.name.replace(['/', ':', '\\'], "_");
        if !file.ends_with(".sgf") {
            file.push_str(".sgf");
        }
        let text = marked_sgf(record, &g, &j, breakdown);
        std::fs::write(dir.join(&file), text).with_context(|| file.clone())?;
    }
    Ok((ours, flip, time, why))
}

/// The reference engine's count of `record`, from `cache` when it has it;
/// a new answer is added to the cache.
fn reference_count(
    command: &str,
    name: &str,
    record: &GameRecord,
    cache: Option<&ReferenceCache>,
    engine: &mut Option<Client>,
) -> anyhow::Result<(f64, Duration)> {
    let sgf = record.to_sgf();
    let Some(cache) = cache else {
        return ask_reference(command, &sgf, engine);
    };
    if let Some(answer) = cache.get(name, &sgf) {
        return Ok(answer);
    }
    let answer = ask_reference(command, &sgf, engine)?;
    if let Err(e) = cache.put(name, &sgf, answer) {
        eprintln!("kosumi score: {e:#}");
    }
    Ok(answer)
}

/// The reference engine's count of the SGF file at `path` (given without
/// its result and territory marks), in the `final_score` form.
pub fn file_reference(
    command: &str,
    path: &std::path::Path,
    engine: &mut Option<Client>,
) -> anyhow::Result<String> {
    let (record, _) = blind_record(&std::fs::read(path)?)?;
    ask_reference(command, &record.to_sgf(), engine).map(|(m, _)| margin(m))
}

/// Whether `command` starts a GTP engine that lists `loadsgf` and
/// `final_score`: asked once before a check, so that a missing or wrong
/// engine is one clear error rather than one for every game.
pub fn check_reference(command: &str) -> anyhow::Result<()> {
    let mut e = Client::start("gnugo", command, &StderrMode::Null)?;
    let listed = match e.send("list_commands", Duration::from_secs(30))? {
        Ok(text) => text,
        Err(text) => bail!("`{command}` answered list_commands with `? {text}`"),
    };
    let _ = e.quit();
    let has = |name: &str| listed.lines().any(|l| l.trim() == name);
    ensure!(
        has("loadsgf") && has("final_score"),
        "`{command}` does not list loadsgf and final_score"
    );
    Ok(())
}

/// How long the reference engine may take over one game.
const REFERENCE_TIMEOUT: Duration = Duration::from_secs(600);

/// The reference engine's `final_score` of a record (`sgf`, without its
/// result, written to a temporary file for `loadsgf`).
fn ask_reference(
    command: &str,
    sgf: &str,
    engine: &mut Option<Client>,
) -> anyhow::Result<(f64, Duration)> {
    if engine.as_ref().is_none_or(|e| !e.is_alive()) {
        *engine = Some(Client::start("gnugo", command, &StderrMode::Null)?);
    }
    let e = engine.as_mut().expect("started above");
    let id = std::thread::current().id();
    let path = std::env::temp_dir().join(format!(
        "kosumi-score-{}-{}.sgf",
        std::process::id(),
        format!("{id:?}").replace(|c: char| !c.is_ascii_alphanumeric(), "")
    ));
    std::fs::write(&path, sgf)?;
    let start = Instant::now();
    let mut ask = |cmd: &str| {
        let answer = e.send(cmd, REFERENCE_TIMEOUT)?;
        answer.map_err(|text| anyhow!("{cmd}: ? {text}"))
    };
    let answer = ask(&format!("loadsgf {}", path.display())).and_then(|_| ask("final_score"));
    let _ = std::fs::remove_file(&path);
    let text = answer?;
    let m = count_in(&text).ok_or_else(|| anyhow!("final_score answered `{text}`"))?;
    Ok((m, start.elapsed()))
}

/// Progress lines on stderr while a check runs.
struct Progress {
    total: usize,
    every: usize,
    done: usize,
    exact: usize,
    winner: usize,
    start: Instant,
}

impl Progress {
    fn new(total: usize, every: usize) -> Progress {
        Progress {
            total,
            every,
            done: 0,
            exact: 0,
            winner: 0,
            start: Instant::now(),
        }
    }

    fn record(&mut self, o: &Outcome) {
        self.done += 1;
        if let Ok(c) = &o.result {
            let m = c.ours.black_minus_white;
            self.exact += usize::from(same_margin(m, c.recorded));
            self.winner += usize::from(same_winner(m, c.recorded));
        }
        if self.every > 0 && (self.done.is_multiple_of(self.every) || self.done == self.total) {
            eprintln!(
                "score: {}/{} games, {} exact, {} winners right, {:.0} s",
                self.done,
                self.total,
                self.exact,
                self.winner,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

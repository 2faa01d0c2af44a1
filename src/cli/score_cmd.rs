//! `kosumi score`: count finished games from SGF files.
//!
//! For each file it prints the score and a diagram with dead stones, seki
//! and territory marked. With `--list FILE` it reads a list of SGF paths
//! (one a line, relative to the list's folder) and reports how many scores
//! agree exactly with the files' `RE[]`. `RE` is read only for that
//! comparison: the scorer sees a [`Game`] built from the moves alone, never
//! `RE`, `TB` or `TW`.

use crate::board::{Color, Game, Rules};
use crate::score::{self, Judgement, Owner, PointStatus, Score};
use crate::sgf::{Event, GameRecord};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `kosumi score`.
#[derive(clap::Args, Debug, Clone)]
pub struct ScoreArgs {
    /// SGF files to count.
    pub files: Vec<PathBuf>,
    /// A file listing SGF paths (relative to its folder); report agreement with `RE[]`.
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// Rules to count under (default: the file's `RU`, else japanese).
    #[arg(long)]
    pub rules: Option<String>,
    /// Playouts per judgement (default: the engine's).
    #[arg(long)]
    pub playouts: Option<usize>,
    /// Seed of the playouts (default: the engine's fixed seed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads for `--list` (default: available cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print no diagrams, only scores.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs the subcommand; returns the process exit status (0 ok, 1 on an
/// unreadable file or bad option, 2 when nothing was given).
pub fn run(args: &ScoreArgs) -> i32 {
    let rules = match args.rules.as_deref().map(Rules::parse).transpose() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kosumi score: {e}");
            return 1;
        }
    };
    if args.files.is_empty() && args.list.is_none() {
        eprintln!("kosumi score: give SGF files or --list FILE");
        return 2;
    }
    let opts = Options {
        rules,
        playouts: args.playouts,
        seed: args.seed,
    };
    let mut status = 0;
    for path in &args.files {
        match score_file(path, &opts) {
            Ok(out) => {
                println!("{}: {}", path.display(), out.score);
                if !args.quiet {
                    println!("{}", out.diagram);
                }
            }
            Err(e) => {
                eprintln!("kosumi score: {}: {e}", path.display());
                status = 1;
            }
        }
    }
    if let Some(list) = &args.list {
        let threads = args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        match check_list(list, &opts, threads) {
            Ok(report) => {
                for line in &report.lines {
                    println!("{line}");
                }
                println!("{}", report.summary());
                if report.errors > 0 {
                    status = 1;
                }
            }
            Err(e) => {
                eprintln!("kosumi score: {}: {e}", list.display());
                status = 1;
            }
        }
    }
    status
}

/// How to count: rules override, playouts and seed (engine defaults when `None`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Rules to count under instead of the file's `RU`.
    pub rules: Option<Rules>,
    /// Playouts per judgement.
    pub playouts: Option<usize>,
    /// Playout seed.
    pub seed: Option<u64>,
}

/// One counted file.
pub struct Counted {
    /// The score.
    pub score: Score,
    /// The board with dead stones, seki and territory marked, and a legend.
    pub diagram: String,
    /// Time the judgement and count took.
    pub time: Duration,
}

/// Judges life and death with the seed and playouts the options give.
fn judge(game: &Game, opts: &Options) -> score::Judgement {
    match (opts.seed, opts.playouts) {
        (None, None) => score::judge(game),
        (seed, n) => score::judge_with_seed(
            game,
            seed.unwrap_or(score::DEFAULT_SEED),
            n.unwrap_or(score::DEFAULT_PLAYOUTS),
        ),
    }
}

/// Reads, judges and counts one SGF file.
pub fn score_file(path: &Path, opts: &Options) -> Result<Counted, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let record = GameRecord::from_sgf(&bytes).map_err(|e| e.to_string())?;
    let game = game_from_record(&record, opts.rules)?;
    let start = Instant::now();
    let j = judge(&game, opts);
    let s = score::count(&game, &j);
    let time = start.elapsed();
    Ok(Counted {
        score: s,
        diagram: diagram(&game, &j),
        time,
    })
}

/// The game a record describes: setup, komi, rules (`rules` overrides the
/// file's `RU`) and the main line's moves. The result (`RE`) and territory
/// marks (`TB`, `TW`) play no part.
pub fn game_from_record(record: &GameRecord, rules: Option<Rules>) -> Result<Game, String> {
    if !(1..=crate::board::MAX_SIZE).contains(&record.size) {
        return Err(format!("board size {} not supported", record.size));
    }
    let rules = match rules {
        Some(r) => r,
        None => match record.rules.as_deref() {
            Some(ru) => Rules::parse(ru).unwrap_or_default(),
            None => Rules::japanese(),
        },
    };
    let mut game = Game::new(record.size, rules);
    game.set_komi(record.komi.unwrap_or(if record.handicap > 1 {
        rules.handicap_komi()
    } else {
        rules.default_komi()
    }));
    if !record.setup_black.is_empty() && record.handicap > 1 && record.setup_white.is_empty() {
        game.place_handicap(&record.setup_black);
    } else {
        for &p in &record.setup_black {
            game.set_stone(p, Some(Color::Black));
        }
    }
    for &p in &record.setup_white {
        game.set_stone(p, Some(Color::White));
    }
    if let Some(c) = record.to_play {
        game.set_to_move(c);
    }
    for (i, e) in record.events.iter().enumerate() {
        match e {
            Event::Move { color, mv, .. } => game.play(*color, *mv).map_err(|err| {
                let size = game.board().size();
                let at = crate::gtp::format_vertex(*mv, size);
                format!("SGF event {}: {color} {at} is illegal ({err})", i + 1)
            })?,
            Event::Setup { points } => {
                for &(p, c) in points {
                    game.set_stone(p, c);
                }
            }
        }
    }
    Ok(game)
}

/// Black's margin a result string gives (`B+3.5` → 3.5, `W+0.5` → -0.5,
/// `0`, `Draw` or `Jigo` → 0); `None` for resignation, time or anything else.
pub fn parse_result(re: &str) -> Option<f64> {
    let re = re.trim();
    match re.to_ascii_lowercase().as_str() {
        "0" | "draw" | "jigo" => return Some(0.0),
        _ => {}
    }
    let (sign, rest) = if let Some(r) = re.strip_prefix("B+") {
        (1.0, r)
    } else if let Some(r) = re.strip_prefix("W+") {
        (-1.0, r)
    } else {
        return None;
    };
    rest.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| sign * v)
}

/// Marks of [`diagram`].
pub const LEGEND: &str =
    "X O alive, x o dead, # @ seki (black, white), + black territory, - white territory, . dame";

/// The board with each point's fate: see [`LEGEND`].
pub fn diagram(game: &Game, j: &Judgement) -> String {
    let board = game.board();
    let mut s = board.diagram(|p| {
        Some(match (board.get(p), j.status(p), j.owner(p)) {
            (Some(Color::Black), Some(PointStatus::Dead), _) => 'x',
            (Some(Color::White), Some(PointStatus::Dead), _) => 'o',
            (Some(Color::Black), Some(PointStatus::Seki), _) => '#',
            (Some(Color::White), Some(PointStatus::Seki), _) => '@',
            (Some(Color::Black), _, _) => 'X',
            (Some(Color::White), _, _) => 'O',
            (None, _, Owner::Black) => '+',
            (None, _, Owner::White) => '-',
            (None, _, Owner::Dame) => '.',
        })
    });
    s.push_str(LEGEND);
    s.push('\n');
    s
}

/// What `--list` found.
#[derive(Debug, Default)]
pub struct ListReport {
    /// Games counted and compared.
    pub compared: usize,
    /// Games whose score equals `RE` exactly (winner and margin).
    pub exact: usize,
    /// Games whose winner matches `RE`.
    pub winner: usize,
    /// Files that could not be read, or had no numeric `RE`.
    pub errors: usize,
    /// One line per mismatch or error, in list order.
    pub lines: Vec<String>,
    /// Slowest judgement and count.
    pub slowest: Duration,
    /// Total time of all judgements and counts.
    pub total_time: Duration,
}

impl ListReport {
    /// Exact agreement as a fraction of games compared.
    pub fn agreement(&self) -> f64 {
        self.exact as f64 / self.compared.max(1) as f64
    }

    /// One-line summary.
    pub fn summary(&self) -> String {
        format!(
            "agree {}/{} ({:.1}%), winner {}/{}, errors {}, mean {:.0} ms, slowest {:.0} ms",
            self.exact,
            self.compared,
            100.0 * self.agreement(),
            self.winner,
            self.compared,
            self.errors,
            self.total_time.as_secs_f64() * 1000.0 / self.compared.max(1) as f64,
            self.slowest.as_secs_f64() * 1000.0
        )
    }
}

enum Outcome {
    Compared {
        engine: Score,
        recorded: f64,
        re: String,
        time: Duration,
    },
    Error(String),
}

/// Counts every game of a list file and compares with its `RE[]`, using up
/// to `threads` worker threads.
pub fn check_list(list: &Path, opts: &Options, threads: usize) -> Result<ListReport, String> {
    let text = std::fs::read_to_string(list).map_err(|e| e.to_string())?;
    let dir = list.parent().unwrap_or(Path::new("."));
    let paths: Vec<PathBuf> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| dir.join(l))
        .collect();
    let next = AtomicUsize::new(0);
    let mut outcomes: Vec<Option<Outcome>> = Vec::new();
    outcomes.resize_with(paths.len(), || None);
    let results = std::sync::Mutex::new(outcomes);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, 64) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let outcome = compare_one(path, opts);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
            });
        }
    });
    let outcomes = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut report = ListReport::default();
    for (path, outcome) in paths.iter().zip(outcomes) {
        match outcome {
            Some(Outcome::Compared {
                engine,
                recorded,
                re,
                time,
            }) => {
                report.compared += 1;
                report.total_time += time;
                report.slowest = report.slowest.max(time);
                let diff = engine.black_minus_white - recorded;
                if diff.abs() < 1e-6 {
                    report.exact += 1;
                } else {
                    report.lines.push(format!(
                        "mismatch {}: engine {engine}, record {re} (off by {diff:+})",
                        path.display()
                    ));
                }
                if engine.black_minus_white.signum() == recorded.signum() {
                    report.winner += 1;
                }
            }
            Some(Outcome::Error(e)) => {
                report.errors += 1;
                report.lines.push(format!("error {}: {e}", path.display()));
            }
            None => {
                report.errors += 1;
                report
                    .lines
                    .push(format!("error {}: not counted", path.display()));
            }
        }
    }
    Ok(report)
}

fn compare_one(path: &Path, opts: &Options) -> Outcome {
    let run = || -> Result<Outcome, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let mut record = GameRecord::from_sgf(&bytes).map_err(|e| e.to_string())?;
        // The scorer never sees the result or the players' territory marks.
        let re = record.result.take().unwrap_or_default();
        record.extra.retain(|(id, _)| id != "TB" && id != "TW");
        let recorded = parse_result(&re).ok_or_else(|| format!("RE[{re}] is not a count"))?;
        let game = game_from_record(&record, opts.rules)?;
        let start = Instant::now();
        let j = judge(&game, opts);
        let engine = score::count(&game, &j);
        Ok(Outcome::Compared {
            engine,
            recorded,
            re,
            time: start.elapsed(),
        })
    };
    run().unwrap_or_else(Outcome::Error)
}

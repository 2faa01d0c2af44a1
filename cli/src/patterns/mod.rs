//! `kosumi train-patterns` and `kosumi patterns eval`: learning move
//! patterns from game records and measuring move prediction.
//!
//! Games come from folders of `.sgf` files (searched recursively), single
//! `.sgf` files, or `.tar.gz` archives of them. About 2% of the games,
//! chosen by file name ([`is_held_out`]), are never trained on; `patterns
//! eval` measures on those.

pub mod mm;
pub mod train;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use kosumi::search::patterns::Model;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use train::{evaluate_player, is_held_out, Accuracy, Trainer};

/// Options of `kosumi train-patterns`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Folders of .sgf files, .sgf files or .tar.gz archives of them.
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Share of the positions trained on (every move of every game counts
    /// the large shapes). The default trains on the whole KGS 6d+ set
    /// (about 310,000 positions) in 8 minutes of CPU and 1.4 GB of memory.
    #[arg(long, default_value_t = 0.05, value_parser = parse_share)]
    pub sample: f64,
    /// Keep large shapes played at least this often.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_count: u32,
    /// Train on at most this many games (the first ones, held-out ones not counted).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Minorization-Maximization sweeps.
    #[arg(long, default_value_t = 15)]
    pub iterations: usize,
    /// Seed of the position sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Options of `kosumi patterns`.
#[derive(Args, Debug, Clone)]
pub struct PatternsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: PatternsCommand,
}

/// Subcommands of `kosumi patterns`.
#[derive(Subcommand, Debug, Clone)]
pub enum PatternsCommand {
    /// Move prediction (top-1/5/10) on the held-out games.
    Eval(EvalArgs),
}

/// Options of `kosumi patterns eval`.
#[derive(Args, Debug, Clone)]
pub struct EvalArgs {
    /// Folders of .sgf files, .sgf files or .tar.gz archives of them.
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Weights file (default: the built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Measure at most this many games.
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Measure on every game given, not only the held-out ones.
    #[arg(long)]
    pub all_games: bool,
    /// Only the moves of the player of this name (`PB` or `PW`), e.g. one
    /// engine of a `kosumi match`.
    #[arg(long)]
    pub player: Option<String>,
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err(format!("'{s}' is not a share above 0 and at most 1")),
    }
}

/// Calls `f(name, bytes)` for each game file under `paths`, in a fixed
/// order; `f` returns `false` to stop.
pub fn for_each_game(
    paths: &[PathBuf],
    mut f: impl FnMut(&str, &[u8]) -> bool,
) -> anyhow::Result<()> {
    for path in paths {
        if !visit(path, &mut f)? {
            break;
        }
    }
    Ok(())
}

fn is_archive(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    name.ends_with(".tar.gz") || name.ends_with(".tgz")
}

fn is_sgf(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".sgf")
}

fn visit(path: &Path, f: &mut impl FnMut(&str, &[u8]) -> bool) -> anyhow::Result<bool> {
    let shown = || path.display().to_string();
    if path.is_dir() {
        let mut files = Vec::new();
        let mut stack = vec![path.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let shown = || dir.display().to_string();
            for entry in std::fs::read_dir(&dir).with_context(shown)? {
                let p = entry.with_context(shown)?.path();
                if p.is_dir() {
                    stack.push(p);
                } else if is_sgf(&p.to_string_lossy()) || is_archive(&p) {
                    files.push(p);
                }
            }
        }
        files.sort();
        for p in files {
            if !visit(&p, f)? {
                return Ok(false);
            }
        }
        Ok(true)
    } else if is_archive(path) {
        let file = std::fs::File::open(path).with_context(shown)?;
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
        let mut bytes = Vec::new();
        for entry in archive.entries().with_context(shown)? {
            let mut entry = entry.with_context(shown)?;
            let name = entry
                .path()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !entry.header().entry_type().is_file() || !is_sgf(&name) {
                continue;
            }
            bytes.clear();
            entry
                .read_to_end(&mut bytes)
                .with_context(|| format!("{}: {name}", shown()))?;
            if !f(&name, &bytes) {
                return Ok(false);
            }
        }
        Ok(true)
    } else if path.is_file() {
        let bytes = std::fs::read(path).with_context(shown)?;
        Ok(f(&path.to_string_lossy(), &bytes))
    } else {
        bail!(
            "{}: not a folder, an .sgf file or a .tar.gz archive",
            shown()
        )
    }
}

/// A progress line on stderr: redrawn in place on a terminal, else printed
/// every tenth of the way.
struct Progress {
    what: &'static str,
    total: usize,
    start: Instant,
    last_draw: Instant,
    last_tenth: usize,
    tty: bool,
}

impl Progress {
    fn new(what: &'static str, total: usize) -> Progress {
        Progress {
            what,
            total,
            start: Instant::now(),
            last_draw: Instant::now(),
            last_tenth: 0,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, done: usize, extra: &str) {
        let total = self.total.max(1);
        let frac = (done as f64 / total as f64).min(1.0);
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if done > 0 {
            elapsed * (total as f64 / done as f64 - 1.0)
        } else {
            0.0
        };
        let bar: String = (0..30)
            .map(|i| if (i as f64) < frac * 30.0 { '#' } else { '.' })
            .collect();
        let line = format!(
            "{} [{bar}] {done}/{} games, {elapsed:.0}s, eta {eta:.0}s {extra}",
            self.what, self.total
        );
        if self.tty {
            if self.last_draw.elapsed().as_millis() >= 200 || done == self.total {
                eprint!("\r{line}\x1b[K");
                let _ = std::io::stderr().flush();
                self.last_draw = Instant::now();
            }
        } else {
            let tenth = (frac * 10.0) as usize;
            if tenth > self.last_tenth {
                self.last_tenth = tenth;
                eprintln!("{line}");
            }
        }
    }

    fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

/// Runs `kosumi train-patterns`; returns the exit status.
pub fn train(args: &TrainArgs) -> i32 {
    match train_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kosumi train-patterns: {e:#}");
            1
        }
    }
}

/// How many games under `paths` `take` picks by name, up to `max`.
fn count_games(
    paths: &[PathBuf],
    take: impl Fn(&str) -> bool,
    max: Option<usize>,
) -> anyhow::Result<usize> {
    let mut n = 0;
    for_each_game(paths, |name, _| {
        n += usize::from(take(name));
        max.is_none_or(|m| n < m)
    })?;
    Ok(n)
}

fn train_inner(args: &TrainArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let total = count_games(&args.games, |name| !is_held_out(name), args.max_games)?;
    if total == 0 {
        bail!("no training games found");
    }
    let mut trainer = Trainer::new();
    // Pass 1: large shapes of every played move.
    let mut progress = Progress::new("counting shapes", total);
    let (mut done, mut refused) = (0usize, 0usize);
    for_each_game(&args.games, |name, bytes| {
        if is_held_out(name) {
            return true;
        }
        if trainer.count(bytes).is_err() {
            refused += 1;
        }
        done += 1;
        progress.update(done, "");
        done < total
    })?;
    progress.finish();
    let shapes = trainer.keep_shapes(args.min_count);
    eprintln!(
        "{} moves in {} games ({refused} refused: setup or illegal moves); {shapes} large shapes played at least {} times",
        trainer.counted,
        total - refused,
        args.min_count
    );
    // Pass 2: sampled positions with all their candidates.
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut progress = Progress::new("collecting positions", total);
    let mut positions = 0;
    done = 0;
    for_each_game(&args.games, |name, bytes| {
        if is_held_out(name) {
            return true;
        }
        positions += trainer.collect(bytes, args.sample, &mut rng).unwrap_or(0);
        done += 1;
        progress.update(done, &format!("{positions} positions"));
        done < total
    })?;
    progress.finish();
    let data = trainer.data().expect("collected");
    eprintln!(
        "{} positions, {} distinct feature teams, {} entries; fitting ({:.0}s so far)",
        data.positions(),
        data.teams(),
        data.entries(),
        start.elapsed().as_secs_f64()
    );
    let model = trainer.fit(args.iterations, |it, ll| {
        eprintln!(
            "MM sweep {}/{}: mean log-likelihood {ll:.4} ({:.0}s)",
            it + 1,
            args.iterations,
            start.elapsed().as_secs_f64()
        );
    });
    let bytes = model.to_bytes();
    std::fs::write(&args.out, &bytes).with_context(|| args.out.display().to_string())?;
    eprintln!(
        "wrote {} ({} bytes, {} features) in {:.0}s",
        args.out.display(),
        bytes.len(),
        model.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `kosumi patterns ...`; returns the exit status.
pub fn run(args: &PatternsArgs) -> i32 {
    match &args.command {
        PatternsCommand::Eval(e) => match eval(e) {
            Ok(acc) => {
                let [t1, t5, t10] = acc.rates();
                outln!(
                    "positions {}  top-1 {:.1}%  top-5 {:.1}%  top-10 {:.1}%  mean log-likelihood {:.3}",
                    acc.positions,
                    t1 * 100.0,
                    t5 * 100.0,
                    t10 * 100.0,
                    acc.log_likelihood / acc.positions.max(1) as f64
                );
                let [self_ataris, own_eyes, edges] = acc.faults;
                outln!(
                    "mean probability {:.4}  stones {}  self-ataris of 2+ stones {}  own eyes filled {}  first-line moves in the first 20 {}",
                    acc.probability / acc.positions.max(1) as f64,
                    acc.stones,
                    self_ataris,
                    own_eyes,
                    edges
                );
                0
            }
            Err(e) => {
                eprintln!("kosumi patterns eval: {e:#}");
                1
            }
        },
    }
}

/// Measures move prediction on the held-out games (or all with `all_games`).
pub fn eval(args: &EvalArgs) -> anyhow::Result<Accuracy> {
    let model = match &args.weights {
        Some(path) => std::sync::Arc::new(Model::load(path)?),
        None => Model::embedded(),
    };
    let take = |name: &str| args.all_games || is_held_out(name);
    let total = count_games(&args.games, take, args.max_games)?;
    if total == 0 {
        bail!("no games to measure on (held-out games are about 2% of a collection; --all-games measures on all)");
    }
    let mut acc = Accuracy::default();
    let mut progress = Progress::new("measuring", total);
    let mut done = 0;
    for_each_game(&args.games, |name, bytes| {
        if !take(name) {
            return true;
        }
        let _ = evaluate_player(&model, bytes, args.player.as_deref(), &mut acc);
        done += 1;
        let t1 = acc.rates()[0] * 100.0;
        progress.update(done, &format!("top-1 {t1:.1}%"));
        done < total
    })?;
    progress.finish();
    Ok(acc)
}

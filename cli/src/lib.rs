//! Command-line interface: the GTP engine (default) and the subcommands
//! `match`, `stress`, `bench`, `score`, `selfplay`, `train-patterns`,
//! `patterns`, `analysis`, `review` and `tune`.

/// `println!` for command output: when stdout is closed (`kosumi score
/// *.sgf | head -1`) the process ends quietly instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::print_line(::std::format_args!($($arg)*))
    };
}

pub mod analysis;
pub mod bench;
pub mod client;
pub mod game;
pub mod match_cmd;
pub mod patterns;
pub mod progress;
pub mod review;
pub mod score_cmd;
pub mod selfplay;
pub mod stress;
pub mod tools;
pub mod tune;

use clap::{Args, Parser, Subcommand};
use kosumi::board::Rules;
use kosumi::gtp::engine::{Engine, EngineOptions};
use kosumi::search::patterns::Model;
use kosumi::search::{Level, SearchParams};
use std::io::IsTerminal;
use std::sync::Arc;

const AFTER_HELP: &str = "\
Using kosumi from a GUI or controller (it speaks GTP v2 on stdin/stdout):
  Sabaki:  Engines > Manage Engines > Add; Path: /path/to/kosumi
           Arguments (optional): --time-per-move 5
  GoGui:   Program > New Program; Command: /path/to/kosumi --quiet
  A weaker sparring partner: add --level N (1 weakest to 10 full strength);
           GTP `kosumi-level N` changes it mid-game
  gogui-twogtp -black \"/path/to/kosumi --playouts 5000\" \\
               -white \"gnugo --mode gtp\" -games 10 -size 9 -komi 6.5 -auto -sgffile games
  kosumi match --engine \"kosumi --playouts 3000\" --engine \"gnugo --mode gtp\" --games 20 --size 9

Type list_commands at the prompt to see every GTP command.";

/// kosumi: a Go engine (Monte Carlo tree search, Japanese counting) that
/// speaks the Go Text Protocol.
#[derive(Parser, Debug)]
#[command(name = "kosumi", version, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    gtp: GtpArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak GTP on stdin/stdout (the default).
    Gtp(GtpArgs),
    /// Play a match between two GTP engines.
    Match(Box<match_cmd::MatchArgs>),
    /// Random games checking the rules core's invariants after every move.
    Stress(stress::StressArgs),
    /// Speed figures of the rules core and the search.
    Bench(bench::BenchArgs),
    /// Count finished games from SGF files (Japanese rules by default).
    Score(score_cmd::ScoreArgs),
    /// Soak test: fast kosumi-vs-kosumi games through the GTP engine, every move checked.
    Selfplay(selfplay::SelfplayArgs),
    /// Learn move pattern weights from game records.
    TrainPatterns(patterns::TrainArgs),
    /// Tools for the learned move patterns (move prediction).
    Patterns(patterns::PatternsArgs),
    /// KataGo's JSON analysis protocol on stdin/stdout (for KaTrain, lizgoban, ...).
    Analysis(analysis::AnalysisArgs),
    /// Review a game: an annotated SGF (win rates, mistakes, better moves) and a chart.
    Review(review::ReviewArgs),
    /// Tune the search's named constants by SPSA over engine-against-engine games.
    Tune(Box<tune::TuneArgs>),
}

/// Options of the GTP engine.
#[derive(Args, Debug, Clone)]
pub struct GtpArgs {
    /// Rules: japanese, swedish, chinese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "japanese", value_parser = Rules::parse)]
    pub rules: Rules,
    /// Komi (default: the rules' komi, 6.5 under Japanese rules).
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Playouts per move when no clock is set.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Seconds per move when no clock is set.
    #[arg(long, value_parser = parse_positive_seconds)]
    pub time_per_move: Option<f64>,
    /// Playing strength, 1 (weakest) to 10 (full strength, the default):
    /// below 10 the level's own playout budget and a human-like move choice
    /// (docs/levels.md); the GTP command `kosumi-level` changes it.
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// Memory for the search tree, e.g. 512M or 2G (default: a quarter of RAM, at most 2G).
    #[arg(long, value_parser = parse_memory)]
    pub max_memory: Option<usize>,
    /// Seed of the search's random generators.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Resign when the win rate stays below this (0 never resigns).
    #[arg(long, value_parser = parse_fraction)]
    pub resign_threshold: Option<f64>,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// No search progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Learned move patterns in the tree priors: on or off.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub patterns: String,
    /// Learned 3x3 shapes also draw the playouts' moves next to the last
    /// move (13x13 and larger; needs --patterns on): on or off. Off by
    /// default: it measured no gain over the MoGo shapes.
    #[arg(long, default_value = "off", value_parser = ["on", "off"])]
    pub playout_patterns: String,
    /// Pattern weights file made by `kosumi train-patterns` (default: the
    /// built-in weights).
    #[arg(long)]
    pub pattern_weights: Option<std::path::PathBuf>,
    /// Sets a named constant of the search, e.g. `--param prior.even=14`
    /// (repeatable; the GTP command `kosumi-param` lists every name).
    #[arg(long, value_name = "NAME=VALUE", value_parser = kosumi::search::config::parse_assignment)]
    pub param: Vec<(String, f64)>,
}

impl GtpArgs {
    /// The engine settings these options give; an unreadable or malformed
    /// `--pattern-weights` file is an error.
    pub fn options(&self) -> anyhow::Result<EngineOptions> {
        let mut search = SearchParams::default();
        if let Some(t) = self.threads {
            search.threads = t as usize;
        }
        search.playouts = self.playouts.or(search.playouts);
        search.time_per_move = self.time_per_move.or(search.time_per_move);
        if let Some(m) = self.max_memory {
            search.max_memory = m;
        }
        if let Some(s) = self.seed {
            search.seed = s;
        }
        if let Some(r) = self.resign_threshold {
            search.resign_threshold = r;
        }
        search.ponder = self.ponder;
        search.quiet = self.quiet;
        search.level = self.level.unwrap_or(Level::MAX);
        let patterns = match (self.patterns.as_str(), &self.pattern_weights) {
            ("off", _) => None,
            (_, Some(path)) => Some(Arc::new(Model::load(path)?)),
            _ => Some(Model::embedded()),
        };
        Ok(EngineOptions {
            rules: self.rules,
            komi: self.komi,
            search,
            patterns,
            playout_patterns: self.playout_patterns == "on",
            params: self.param.clone(),
        })
    }
}

pub(crate) fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
        .map_err(|e: kosumi::search::LevelError| e.to_string())
}

fn parse_positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 up to 1")),
    }
}

/// Parses a memory size: a number of bytes with an optional K, M or G suffix.
fn parse_memory(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], t[i..].to_ascii_uppercase()),
        None => (t, String::new()),
    };
    let n: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a memory size such as 512M or 2G"))?;
    let scale = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("'{s}' has an unknown unit (use K, M or G)")),
    };
    let bytes = n * scale;
    if !(bytes.is_finite() && bytes >= 1024.0 * 1024.0) {
        return Err(format!("'{s}' is too small: give at least 1M"));
    }
    Ok(bytes as usize)
}

fn run_gtp(args: &GtpArgs) -> i32 {
    if std::io::stdin().is_terminal() {
        eprintln!("kosumi {}: a GTP engine waiting for commands on stdin (try 'list_commands', 'quit' to leave; see 'kosumi --help')", env!("CARGO_PKG_VERSION"));
    }
    let options = match args.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kosumi: {e:#}");
            return 2;
        }
    };
    let mut engine = Engine::new(options);
    match engine.run(std::io::stdin(), std::io::stdout().lock()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("kosumi: {e}");
            1
        }
    }
}

/// Entry point of the `kosumi` binary; returns the process exit status.
pub fn main() -> i32 {
    let args = analysis::katago_style_args(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match &cli.command {
        None => run_gtp(&cli.gtp),
        Some(Command::Gtp(args)) => run_gtp(args),
        Some(Command::Match(args)) => match_cmd::run(args),
        Some(Command::Stress(args)) => stress::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Score(args)) => score_cmd::run(args),
        Some(Command::Selfplay(args)) => selfplay::run(args),
        Some(Command::TrainPatterns(args)) => patterns::train(args),
        Some(Command::Patterns(args)) => patterns::run(args),
        Some(Command::Analysis(args)) => analysis::run(args),
        Some(Command::Review(args)) => review::run(args),
        Some(Command::Tune(args)) => tune::run(args),
    }
}

/// Writes one line of command output (see `outln!`): a closed pipe ends the
/// process with status 0, any other write error with status 1.
pub(crate) fn print_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("kosumi: cannot write the output: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("2G").unwrap(), 2 << 30);
        assert_eq!(parse_memory("512m").unwrap(), 512 << 20);
        assert_eq!(parse_memory("1.5GB").unwrap(), 3 << 29);
        assert!(parse_memory("12").is_err());
        assert!(parse_memory("lots").is_err());
        assert!(parse_memory("5T").is_err());
    }

    #[test]
    fn options_reach_the_engine() {
        let cli = Cli::try_parse_from([
            "kosumi",
            "--playouts",
            "500",
            "--rules",
            "chinese",
            "--komi",
            "-3",
        ])
        .unwrap();
        let o = cli.gtp.options().unwrap();
        assert_eq!(o.search.playouts, Some(500));
        assert_eq!(o.rules.name(), "chinese");
        assert_eq!(o.komi, Some(-3.0));
        let cli = Cli::try_parse_from(["kosumi", "gtp", "--threads", "2", "--quiet"]).unwrap();
        assert!(
            matches!(cli.command, Some(Command::Gtp(ref g)) if g.threads == Some(2) && g.quiet)
        );
        assert!(Cli::try_parse_from(["kosumi", "--resign-threshold", "2"]).is_err());
        assert!(Cli::try_parse_from(["kosumi", "--rules", "klingon"]).is_err());
        let cli = Cli::try_parse_from(["kosumi", "--level", "3"]).unwrap();
        assert_eq!(cli.gtp.options().unwrap().search.level.number(), 3);
        let cli = Cli::try_parse_from(["kosumi"]).unwrap();
        assert_eq!(cli.gtp.options().unwrap().search.level, Level::MAX);
        for bad in ["0", "11", "x"] {
            let e = Cli::try_parse_from(["kosumi", "--level", bad]).unwrap_err();
            assert!(e.to_string().contains("from 1 to 10"), "{e}");
        }
    }
}

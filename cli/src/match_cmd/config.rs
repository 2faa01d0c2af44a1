//! The options of `kosumi match` and the settings checked from them.

use anyhow::Context;
use std::fs::{self, OpenOptions};
use std::path::PathBuf;
use std::time::Duration;

use super::openings::{load_openings, Opening};
use super::stats::Sprt;
use super::MatchError;
use crate::client::StderrMode;
use crate::game::clock::TimeControl;
use kosumi::board::{fixed_handicap, Game, Point, Rules};

/// The engines' stderr in the SGF folder, unless `--engine-stderr` says otherwise.
pub const ENGINE_STDERR_FILE: &str = "engines-stderr.log";

/// How finished games (two passes or the move cap) are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scorer {
    /// kosumi's own counter under the chosen rules.
    #[value(name = "self")]
    SelfCount,
    /// A referee engine (`--referee CMD`) replays the game and answers `final_score`.
    Referee,
    /// The engines' own `final_score` when they agree, else kosumi's counter.
    Engines,
}

/// Options of `kosumi match`.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchArgs {
    /// Engine command line, split shell-style (no shell runs it). Give it twice.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Engine names for records and tables, once per engine (default: the GTP `name`).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// GTP commands sent after `komi` each game, separated by `;`. Once: both
    /// engines; twice: per engine in order (an empty string sends nothing).
    #[arg(long = "setup", value_name = "CMDS")]
    pub setups: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    pub size: usize,
    /// Komi (default: the rules' usual komi).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<f64>,
    /// Rules: japanese, chinese, aga, new_zealand, tromp-taylor, swedish...
    #[arg(long, default_value = "japanese")]
    pub rules: String,
    /// Fixed handicap stones for Black (`fixed_handicap` sent to both engines).
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// The first engine plays Black in every game instead of alternating
    /// (a handicap match measures one seat).
    #[arg(long)]
    pub fixed_colors: bool,
    /// Give the handicap with `set_free_handicap` at the standard points
    /// instead of asking each engine for `fixed_handicap` (for engines that
    /// put a fixed handicap elsewhere, as Pachi does its third stone).
    #[arg(long, requires = "handicap")]
    pub set_handicap: bool,
    /// Time control MAIN or MAIN/BYO/STONES in seconds (Canadian byo-yomi),
    /// sent with `time_settings` and enforced by the wall clock.
    #[arg(long, value_name = "MAIN[/BYO/STONES]")]
    pub time: Option<String>,
    /// Seconds of grace past the clock before a loss on time.
    #[arg(long, default_value_t = 1.0)]
    pub time_margin: f64,
    /// Without a time control: seconds an engine may take for any answer
    /// before it is killed and loses.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Moves after which the game stops and is counted (default 3 x size x size).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Counting of finished games (default: referee with --referee, else self).
    #[arg(long, value_enum)]
    pub scorer: Option<Scorer>,
    /// Referee engine command line; a fresh process replays each game and answers `final_score`.
    /// It is told the match's rules with `kgs-rules` when it knows that command; GNU Go does not,
    /// so for area counting give it `--chinese-rules` (`--referee "gnugo --mode gtp --chinese-rules"`).
    #[arg(long, value_name = "CMD")]
    pub referee: Option<String>,
    /// Folder of SGF files whose main lines open the games (each used for two games).
    #[arg(long, value_name = "DIR")]
    pub openings: Option<PathBuf>,
    /// Play at most this many moves of each opening.
    #[arg(long, value_name = "N")]
    pub opening_moves: Option<usize>,
    /// Folder for one SGF per game.
    #[arg(long, value_name = "DIR")]
    pub sgf_dir: Option<PathBuf>,
    /// JSONL results file; resumes a match it already holds (default: results.jsonl in --sgf-dir).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Stop early once a sequential test decides: elo0,elo1,alpha,beta.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<String>,
    /// Games played at once (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Where engines' stderr goes: a file (appended), `null` or `inherit`
    /// (this terminal, mixed with the progress line). Default: the file
    /// engines-stderr.log in --sgf-dir, else null.
    #[arg(long, value_name = "FILE|null|inherit")]
    pub engine_stderr: Option<String>,
    /// SVG chart of the score and its 95% interval after each game
    /// (default: chart.svg in --sgf-dir).
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// No live progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Validated settings.
#[derive(Debug)]
pub(super) struct Config {
    pub(super) engines: [String; 2],
    pub(super) names: Option<[String; 2]>,
    pub(super) setups: [Vec<String>; 2],
    pub(super) games: usize,
    pub(super) size: usize,
    pub(super) komi: f64,
    pub(super) rules: Rules,
    pub(super) rules_name: String,
    pub(super) handicap: Vec<Point>,
    pub(super) fixed_colors: bool,
    pub(super) set_handicap: bool,
    pub(super) time: Option<TimeControl>,
    pub(super) time_margin: f64,
    pub(super) move_timeout: Duration,
    pub(super) max_moves: usize,
    pub(super) scorer: Scorer,
    pub(super) referee: Option<String>,
    pub(super) openings: Vec<Opening>,
    pub(super) openings_dir: Option<String>,
    pub(super) opening_moves: Option<usize>,
    pub(super) sgf_dir: Option<PathBuf>,
    pub(super) results: Option<PathBuf>,
    pub(super) sprt: Option<Sprt>,
    pub(super) concurrency: usize,
    pub(super) stderr: StderrMode,
    pub(super) quiet: bool,
    pub(super) chart: Option<PathBuf>,
}

pub(super) fn usage(msg: impl std::fmt::Display) -> MatchError {
    MatchError::Usage(msg.to_string())
}

impl Config {
    pub(super) fn from_args(a: &MatchArgs) -> Result<Config, MatchError> {
        let engines: [String; 2] = a.engines.clone().try_into().map_err(|_| {
            usage(format!(
                "give --engine exactly twice (got {})",
                a.engines.len()
            ))
        })?;
        let names = match a.names.len() {
            0 => None,
            2 => {
                if a.names[0] == a.names[1] {
                    return Err(usage("the two --name values must differ"));
                }
                Some([a.names[0].clone(), a.names[1].clone()])
            }
            n => return Err(usage(format!("give --name twice or not at all (got {n})"))),
        };
        let split = |s: &String| -> Vec<String> {
            s.split(';')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        };
        let setups = match a.setups.len() {
            0 => [Vec::new(), Vec::new()],
            1 => [split(&a.setups[0]), split(&a.setups[0])],
            2 => [split(&a.setups[0]), split(&a.setups[1])],
            n => {
                return Err(usage(format!(
                    "give --setup once (both engines) or twice (got {n})"
                )))
            }
        };
        if a.games == 0 {
            return Err(usage("--games must be at least 1"));
        }
        if !(2..=kosumi::board::MAX_SIZE).contains(&a.size) {
            return Err(usage(format!("--size {} is outside 2..=25", a.size)));
        }
        let rules = Rules::parse(&a.rules).map_err(|_| {
            usage(format!(
                "unknown rules '{}' (try japanese, chinese, aga, new_zealand, tromp-taylor, swedish)",
                a.rules
            ))
        })?;
        let komi = a.komi.unwrap_or_else(|| rules.default_komi());
        if !komi.is_finite() || komi.abs() > 1000.0 {
            return Err(usage(format!("--komi {komi} is not a sensible komi")));
        }
        let handicap = match a.handicap {
            0 => Vec::new(),
            1 => {
                return Err(usage(
                    "--handicap 1 is not a handicap: use 0 and --komi 0.5",
                ))
            }
            n => fixed_handicap(a.size, n).ok_or_else(|| {
                usage(format!(
                    "no fixed handicap of {n} stones on {0}x{0}",
                    a.size
                ))
            })?,
        };
        let time = a
            .time
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(usage)?;
        if !(a.time_margin.is_finite() && a.time_margin >= 0.0) {
            return Err(usage(
                "--time-margin must be a non-negative number of seconds",
            ));
        }
        if !(a.move_timeout.is_finite() && a.move_timeout > 0.0 && a.move_timeout < 1e9) {
            return Err(usage("--move-timeout must be a positive number of seconds"));
        }
        let max_moves = a.max_moves.unwrap_or(3 * a.size * a.size);
        if max_moves == 0 {
            return Err(usage("--max-moves must be at least 1"));
        }
        let scorer = a.scorer.unwrap_or(if a.referee.is_some() {
            Scorer::Referee
        } else {
            Scorer::SelfCount
        });
        match (scorer, &a.referee) {
            (Scorer::Referee, None) => return Err(usage("--scorer referee needs --referee CMD")),
            (Scorer::SelfCount | Scorer::Engines, Some(_)) => {
                return Err(usage("--referee is only used with --scorer referee"))
            }
            _ => {}
        }
        let sprt = a
            .sprt
            .as_deref()
            .map(Sprt::parse)
            .transpose()
            .map_err(usage)?;
        if a.concurrency == 0 {
            return Err(usage("--concurrency must be at least 1"));
        }
        let stderr = engine_stderr(a)?;
        let results = a
            .results
            .clone()
            .or_else(|| a.sgf_dir.as_ref().map(|d| d.join("results.jsonl")));
        let mut cfg = Config {
            engines,
            names,
            setups,
            games: a.games,
            size: a.size,
            komi,
            rules_name: rules.name().to_string(),
            rules,
            handicap,
            fixed_colors: a.fixed_colors,
            set_handicap: a.set_handicap,
            time,
            time_margin: a.time_margin,
            move_timeout: Duration::from_secs_f64(a.move_timeout),
            max_moves,
            scorer,
            referee: a.referee.clone(),
            openings: Vec::new(),
            openings_dir: a.openings.as_ref().map(|p| p.display().to_string()),
            opening_moves: a.opening_moves,
            sgf_dir: a.sgf_dir.clone(),
            results,
            sprt,
            concurrency: a.concurrency,
            stderr,
            quiet: a.quiet,
            chart: a
                .chart
                .clone()
                .or_else(|| a.sgf_dir.as_ref().map(|d| d.join("chart.svg"))),
        };
        if let Some(dir) = &a.openings {
            cfg.openings = load_openings(dir, &cfg.new_game(), a.opening_moves)?;
        }
        Ok(cfg)
    }

    /// A fresh game with handicap stones placed.
    pub(super) fn new_game(&self) -> Game {
        let mut game = Game::new(self.size, self.rules);
        game.set_komi(self.komi);
        if !self.handicap.is_empty() {
            game.place_handicap(&self.handicap);
        }
        game
    }

    /// The `set_free_handicap` command that puts this match's handicap
    /// stones on an engine's board (`None` without a handicap).
    pub(super) fn set_free_handicap(&self) -> Option<String> {
        if self.handicap.is_empty() {
            return None;
        }
        let stones: Vec<String> = self.handicap.iter().map(|p| p.to_gtp(self.size)).collect();
        Some(format!("set_free_handicap {}", stones.join(" ")))
    }

    pub(super) fn opening_for(&self, game_number: usize) -> Option<&Opening> {
        if self.openings.is_empty() {
            None
        } else {
            Some(&self.openings[((game_number - 1) / 2) % self.openings.len()])
        }
    }
}

/// Where the engines' stderr goes (see `--engine-stderr`).
fn engine_stderr(a: &MatchArgs) -> Result<StderrMode, MatchError> {
    let path = match (a.engine_stderr.as_deref(), &a.sgf_dir) {
        (Some("null"), _) | (None, None) => return Ok(StderrMode::Null),
        (Some("inherit"), _) => return Ok(StderrMode::Inherit),
        (Some(path), _) => PathBuf::from(path),
        (None, Some(dir)) => {
            fs::create_dir_all(dir)
                .with_context(|| format!("cannot create --sgf-dir '{}'", dir.display()))?;
            dir.join(ENGINE_STDERR_FILE)
        }
    };
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map(StderrMode::File)
        .map_err(|e| {
            usage(format!(
                "cannot open --engine-stderr file '{}': {e}",
                path.display()
            ))
        })
}

//! `kosumi match`: engine-against-engine matches between two GTP engines.
//!
//! Colours alternate (engine 1 is Black in odd-numbered games), so with
//! `--openings` each opening is played twice, once with each engine as
//! Black. kosumi's rules core referees every move: an illegal move, a crash,
//! a timeout, a loss on time or a nonsense answer loses the game for the
//! offender. Games ending by two passes or the move cap are counted by
//! kosumi's counter, a referee engine or the engines themselves.
//!
//! Every game is appended to a JSONL results file as soon as it ends; the
//! first line holds the match settings, so an interrupted match started
//! again with the same settings resumes where it stopped.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::gtp_client::{parse_vertex, vertex, EngineError, GtpEngine, StderrMode};
use super::stats::{elo_estimate, score_interval, Sprt, SprtDecision, Tally};
use crate::board::{fixed_handicap, Color, Game, Move, Point, Rules};
use crate::sgf::{Event, GameRecord};

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
    /// Where engines' stderr goes: a file (appended) or `null` (default: inherited).
    #[arg(long, value_name = "FILE|null")]
    pub engine_stderr: Option<String>,
    /// No live progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Two consecutive passes, then a count.
    TwoPasses,
    /// The move cap was reached, then a count.
    MoveCap,
    /// A player resigned.
    Resignation,
    /// A player made an illegal move.
    IllegalMove,
    /// A player's engine exited.
    Crash,
    /// A player's engine did not answer in time (no time control).
    Timeout,
    /// A player ran out of clock time.
    Time,
    /// A player's engine answered something that is not GTP or not a move.
    Garbage,
    /// A player's engine refused the opponent's legal move.
    Refused,
}

impl EndReason {
    /// The word used in the results file.
    pub fn word(self) -> &'static str {
        match self {
            EndReason::TwoPasses => "passes",
            EndReason::MoveCap => "move-cap",
            EndReason::Resignation => "resignation",
            EndReason::IllegalMove => "illegal",
            EndReason::Crash => "crash",
            EndReason::Timeout => "timeout",
            EndReason::Time => "time",
            EndReason::Garbage => "garbage",
            EndReason::Refused => "refused",
        }
    }

    fn from_word(word: &str) -> Option<EndReason> {
        ALL_REASONS.iter().copied().find(|r| r.word() == word)
    }

    /// Whether the game was counted.
    pub fn is_count(self) -> bool {
        matches!(self, EndReason::TwoPasses | EndReason::MoveCap)
    }

    fn sgf_suffix(self) -> &'static str {
        match self {
            EndReason::Resignation => "Resign",
            EndReason::Time => "Time",
            _ => "Forfeit",
        }
    }
}

const ALL_REASONS: [EndReason; 9] = [
    EndReason::TwoPasses,
    EndReason::MoveCap,
    EndReason::Resignation,
    EndReason::IllegalMove,
    EndReason::Crash,
    EndReason::Timeout,
    EndReason::Time,
    EndReason::Garbage,
    EndReason::Refused,
];

/// One finished game as the results file records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Game number, from 1.
    pub game: usize,
    /// Which engine (0 or 1, in `--engine` order) played Black.
    pub black_engine: usize,
    /// Winner's colour; `None` for a draw.
    pub winner: Option<Color>,
    /// The SGF result: `B+3.5`, `W+Resign`, `B+Time`, `W+Forfeit`, `0`.
    pub result: String,
    /// How it ended.
    pub reason: EndReason,
    /// Human-readable details (who did what).
    pub detail: String,
    /// Moves played (opening included).
    pub moves: usize,
    /// Seconds Black's and White's engines spent in `genmove`.
    pub time_used: [f64; 2],
    /// Seconds each `genmove` of Black's and of White's engine took, in
    /// order (milliseconds kept).
    pub move_times: [Vec<f64>; 2],
    /// Least time left on Black's and White's clock just after one of their
    /// moves, in seconds (below 0 when a move used the grace margin); `None`
    /// without a time control.
    pub min_clock_left: [Option<f64>; 2],
    /// `final_score` answers of the Black and White engines, if they gave one.
    pub engine_scores: [Option<String>; 2],
    /// A counted game where the engines' own `final_score` disagreed.
    pub disagreement: bool,
    /// Path of the game's SGF, if written.
    pub sgf: Option<String>,
}

impl GameSummary {
    /// Engine index (0 or 1) of the winner.
    pub fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black_engine,
            Color::White => 1 - self.black_engine,
        })
    }
}

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

/// Canadian byo-yomi settings (`byo == 0`: absolute time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeControl {
    main: f64,
    byo: f64,
    stones: u32,
}

impl TimeControl {
    fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("--time wants MAIN or MAIN/BYO/STONES in seconds, got '{text}'");
        let parts: Vec<&str> = text.split('/').map(str::trim).collect();
        let num = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(bad)
        };
        let tc = match parts.as_slice() {
            [main] => TimeControl {
                main: num(main)?,
                byo: 0.0,
                stones: 0,
            },
            [main, byo, stones] => TimeControl {
                main: num(main)?,
                byo: num(byo)?,
                stones: stones.parse().map_err(|_| bad())?,
            },
            _ => return Err(bad()),
        };
        if tc.main == 0.0 && tc.byo == 0.0 {
            return Err(format!("--time '{text}' leaves no time at all"));
        }
        if tc.byo > 0.0 && tc.stones == 0 {
            return Err(format!(
                "--time '{text}': byo-yomi with 0 stones means no time limit in GTP; leave --time out instead"
            ));
        }
        Ok(tc)
    }

    fn gtp(&self) -> String {
        format!(
            "time_settings {} {} {}",
            self.main.round() as u64,
            self.byo.round() as u64,
            self.stones
        )
    }
}

/// One player's clock.
#[derive(Clone, Copy, Debug)]
struct Clock {
    tc: TimeControl,
    main_left: f64,
    in_byo: bool,
    period_left: f64,
    stones_left: u32,
}

impl Clock {
    fn new(tc: TimeControl) -> Clock {
        let in_byo = tc.main <= 0.0;
        Clock {
            tc,
            main_left: tc.main,
            in_byo,
            period_left: tc.byo,
            stones_left: tc.stones,
        }
    }

    /// Seconds the player may think before the flag falls.
    fn available(&self) -> f64 {
        if self.in_byo {
            self.period_left
        } else {
            self.main_left + self.tc.byo
        }
    }

    /// Charges `t` seconds for one move; false if the flag fell (by more than `margin`).
    fn spend(&mut self, t: f64, margin: f64) -> bool {
        if !self.in_byo {
            if t <= self.main_left {
                self.main_left -= t;
                return true;
            }
            let over = t - self.main_left;
            self.main_left = 0.0;
            if self.tc.byo <= 0.0 {
                return over <= margin;
            }
            // The move that runs out of main time is the first of a period.
            self.in_byo = true;
            self.period_left = self.tc.byo - over;
            self.stones_left = self.tc.stones;
        } else {
            self.period_left -= t;
        }
        if self.period_left < -margin {
            return false;
        }
        self.period_left = self.period_left.max(0.0);
        self.stones_left = self.stones_left.saturating_sub(1);
        if self.stones_left == 0 {
            self.period_left = self.tc.byo;
            self.stones_left = self.tc.stones;
        }
        true
    }

    /// The arguments of `time_left` after the colour: seconds and stones.
    fn time_left(&self) -> (u64, u32) {
        if self.in_byo {
            (self.period_left.max(0.0) as u64, self.stones_left)
        } else {
            (self.main_left.max(0.0) as u64, 0)
        }
    }
}

/// An opening: moves to play before the engines take over.
#[derive(Clone, Debug)]
struct Opening {
    file: String,
    moves: Vec<(Color, Move)>,
}

/// Validated settings.
#[derive(Debug)]
struct Config {
    engines: [String; 2],
    names: Option<[String; 2]>,
    setups: [Vec<String>; 2],
    games: usize,
    size: usize,
    komi: f64,
    rules: Rules,
    rules_name: String,
    handicap: Vec<Point>,
    time: Option<TimeControl>,
    time_margin: f64,
    move_timeout: Duration,
    max_moves: usize,
    scorer: Scorer,
    referee: Option<String>,
    openings: Vec<Opening>,
    openings_dir: Option<String>,
    opening_moves: Option<usize>,
    sgf_dir: Option<PathBuf>,
    results: Option<PathBuf>,
    sprt: Option<Sprt>,
    concurrency: usize,
    stderr: StderrMode,
    quiet: bool,
}

fn usage(msg: impl Into<String>) -> MatchError {
    MatchError::Usage(msg.into())
}

impl Config {
    fn from_args(a: &MatchArgs) -> Result<Config, MatchError> {
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
        if !(2..=crate::board::MAX_SIZE).contains(&a.size) {
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
        let stderr = match a.engine_stderr.as_deref() {
            None => StderrMode::Inherit,
            Some("null") => StderrMode::Null,
            Some(path) => StderrMode::File(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        usage(format!("cannot open --engine-stderr file '{path}': {e}"))
                    })?,
            ),
        };
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
        };
        if let Some(dir) = &a.openings {
            cfg.openings = load_openings(&cfg, dir)?;
        }
        Ok(cfg)
    }

    /// A fresh game with handicap stones placed.
    fn new_game(&self) -> Game {
        let mut game = Game::new(self.size, self.rules);
        game.set_komi(self.komi);
        if !self.handicap.is_empty() {
            game.place_handicap(&self.handicap);
        }
        game
    }

    fn opening_for(&self, game_number: usize) -> Option<&Opening> {
        if self.openings.is_empty() {
            None
        } else {
            Some(&self.openings[((game_number - 1) / 2) % self.openings.len()])
        }
    }

    /// The settings that define the match, as the results file's header.
    fn header_json(&self) -> String {
        let mut o = JsonObject::new();
        o.str("type", "header");
        o.raw("engines", &json_array(&self.engines));
        match &self.names {
            Some(n) => o.raw("names", &json_array(n)),
            None => o.raw("names", "null"),
        };
        o.raw(
            "setup",
            &format!(
                "[{},{}]",
                json_array(&self.setups[0]),
                json_array(&self.setups[1])
            ),
        );
        o.num("size", self.size as f64);
        o.num("komi", self.komi);
        o.str("rules", &self.rules_name);
        o.num("handicap", self.handicap.len() as f64);
        match self.time {
            Some(tc) => o.str("time", &format!("{}/{}/{}", tc.main, tc.byo, tc.stones)),
            None => o.raw("time", "null"),
        };
        o.num("max_moves", self.max_moves as f64);
        o.str(
            "scorer",
            match self.scorer {
                Scorer::SelfCount => "self",
                Scorer::Referee => "referee",
                Scorer::Engines => "engines",
            },
        );
        o.opt_str("referee", self.referee.as_deref());
        o.opt_str("openings", self.openings_dir.as_deref());
        match self.opening_moves {
            Some(n) => o.num("opening_moves", n as f64),
            None => o.raw("opening_moves", "null"),
        };
        o.finish()
    }
}

fn load_openings(cfg: &Config, dir: &Path) -> Result<Vec<Opening>, MatchError> {
    let entries = fs::read_dir(dir).map_err(|e| {
        usage(format!(
            "cannot read --openings folder '{}': {e}",
            dir.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(usage(format!(
            "no .sgf files in --openings folder '{}'",
            dir.display()
        )));
    }
    let mut openings = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let bad = |why: String| usage(format!("opening '{name}': {why}"));
        let bytes = fs::read(&path).map_err(|e| bad(e.to_string()))?;
        let record = GameRecord::from_sgf(&bytes).map_err(|e| bad(e.to_string()))?;
        if record.size != cfg.size {
            return Err(bad(format!(
                "board size {} but the match is on {}",
                record.size, cfg.size
            )));
        }
        if !record.setup_black.is_empty()
            || !record.setup_white.is_empty()
            || record
                .events
                .iter()
                .any(|e| matches!(e, Event::Setup { .. }))
        {
            return Err(bad(
                "setup stones (AB/AW/AE) cannot be sent over GTP; use moves".into(),
            ));
        }
        let mut moves: Vec<(Color, Move)> = record.moves().collect();
        if let Some(n) = cfg.opening_moves {
            moves.truncate(n);
        }
        let mut game = cfg.new_game();
        for (i, &(color, mv)) in moves.iter().enumerate() {
            game.play(color, mv).map_err(|e| {
                bad(format!(
                    "move {} ({color} {}) is illegal: {e}",
                    i + 1,
                    vertex(mv, cfg.size)
                ))
            })?;
        }
        if game.is_over() {
            return Err(bad("the opening ends the game with two passes".into()));
        }
        openings.push(Opening { file: name, moves });
    }
    Ok(openings)
}

/// Counting by kosumi's own counter under the game's rules: Black's margin
/// with komi included.
fn self_score(game: &Game) -> f64 {
    crate::score::final_score(game).black_minus_white
}

/// `B+3.5`, `W+0.5` or `0` for Black's margin.
fn format_margin(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// Black's margin from a `final_score` answer (`B+3.5`, `W+0.5`, `0`, `Jigo`).
fn parse_final_score(text: &str) -> Option<f64> {
    let t = text.split_whitespace().next()?.to_ascii_uppercase();
    if t == "0" || t == "JIGO" || t == "DRAW" {
        return Some(0.0);
    }
    let (sign, rest) = if let Some(r) = t.strip_prefix("B+") {
        (1.0, r)
    } else if let Some(r) = t.strip_prefix("W+") {
        (-1.0, r)
    } else {
        return None;
    };
    let v: f64 = rest.parse().ok().filter(|v: &f64| v.is_finite())?;
    Some(sign * v)
}

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

type Pair = [Option<GtpEngine>; 2];

/// Starts an engine and checks that it speaks GTP; returns it with its GTP name.
fn start_engine(cfg: &Config, e: usize) -> Result<(GtpEngine, String), MatchError> {
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
fn must(engine: &mut GtpEngine, cmd: &str, timeout: Duration) -> Result<String, MatchError> {
    match engine.send(cmd, timeout)? {
        Ok(text) => Ok(text),
        Err(msg) => Err(MatchError::Failed(format!(
            "engine '{}' ({}) refused '{cmd}': {msg}",
            engine.name(),
            engine.command()
        ))),
    }
}

/// Everything a game produced.
struct Played {
    summary: GameSummary,
    record: GameRecord,
}

struct Shared<'a> {
    cfg: &'a Config,
    names: [String; 2],
    queue: Mutex<VecDeque<usize>>,
    stop: AtomicBool,
    failure: Mutex<Option<MatchError>>,
    book: Mutex<Book>,
}

/// Results so far and where they go.
struct Book {
    games: BTreeMap<usize, GameSummary>,
    file: Option<File>,
    started: Instant,
    played_now: usize,
    decision: Option<SprtDecision>,
}

fn set_failure(shared: &Shared, e: MatchError) {
    let mut f = shared.failure.lock().unwrap_or_else(|p| p.into_inner());
    if f.is_none() {
        *f = Some(e);
    }
    shared.stop.store(true, Ordering::SeqCst);
}

fn worker(shared: &Shared, mut pair: Pair) {
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

/// Plays game `g` (from 1); `Ok(None)` if the match stopped meanwhile.
fn play_game(
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
    let parsed = [
        engine_scores[0].as_deref().and_then(parse_final_score),
        engine_scores[1].as_deref().and_then(parse_final_score),
    ];
    let disagreement =
        reason.is_count() && matches!(parsed, [Some(a), Some(b)] if (a - b).abs() > 1e-9);

    if reason.is_count() {
        let (margin, how) = match cfg.scorer {
            Scorer::SelfCount => (self_score(&game), "kosumi's count".to_string()),
            Scorer::Referee => match referee_score(cfg, &game) {
                Ok(m) => (m, "referee's final_score".to_string()),
                Err(e) => (
                    self_score(&game),
                    format!("kosumi's count (referee failed: {e})"),
                ),
            },
            Scorer::Engines => match parsed {
                [Some(a), Some(b)] if (a - b).abs() <= 1e-9 => {
                    (a, "engines' agreed final_score".into())
                }
                _ => (
                    self_score(&game),
                    "kosumi's count (engines did not agree)".into(),
                ),
            },
        };
        winner = if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        result_text = format_margin(margin);
        detail = format!("{detail}; counted by {how}");
        // Worth seeing when checking a counter against the engines.
        if let [Some(a), Some(b)] = parsed {
            if (a - b).abs() <= 1e-9 && (a - margin).abs() > 1e-9 {
                detail = format!("{detail}; the engines agree on {}", format_margin(a));
            }
        }
    } else if let Some(w) = winner {
        result_text = format!("{}+{}", w.letter(), reason.sgf_suffix());
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
    Ok(Some(Played { summary, record }))
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

/// A fresh referee process replays the game and answers `final_score`.
fn referee_score(cfg: &Config, game: &Game) -> Result<f64, String> {
    let cmd = cfg
        .referee
        .as_deref()
        .expect("referee scorer has a command");
    let mut referee = GtpEngine::start("referee", cmd, &cfg.stderr).map_err(|e| e.to_string())?;
    let t = cfg.move_timeout;
    let mut send = |c: &str| -> Result<String, String> {
        match referee.send(c, t) {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(msg)) => Err(format!("referee ({cmd}) refused '{c}': {msg}")),
            Err(e) => Err(e.to_string()),
        }
    };
    send(&format!("boardsize {}", cfg.size))?;
    send("clear_board")?;
    send(&format!("komi {}", cfg.komi))?;
    if !cfg.handicap.is_empty() {
        let stones: Vec<String> = cfg.handicap.iter().map(|p| p.to_gtp(cfg.size)).collect();
        send(&format!("set_free_handicap {}", stones.join(" ")))?;
    }
    for &(color, mv) in game.moves() {
        send(&format!("play {color} {}", vertex(mv, cfg.size)))?;
    }
    let answer = send("final_score")?;
    referee.quit();
    parse_final_score(&answer)
        .ok_or_else(|| format!("referee ({cmd}) answered {answer:?} to 'final_score'"))
}

fn build_record(
    cfg: &Config,
    names: &[String; 2],
    s: &GameSummary,
    events: Vec<Event>,
) -> GameRecord {
    let mut r = GameRecord::new(cfg.size);
    r.komi = Some(cfg.komi);
    r.handicap = cfg.handicap.len();
    r.rules = Some(cfg.rules_name.clone());
    r.setup_black = cfg.handicap.clone();
    if !cfg.handicap.is_empty() {
        r.to_play = Some(Color::White);
    }
    r.black_name = Some(names[s.black_engine].clone());
    r.white_name = Some(names[1 - s.black_engine].clone());
    r.result = Some(if s.result.is_empty() {
        "Void".into()
    } else {
        s.result.clone()
    });
    r.date = Some(today());
    let mut c = format!("kosumi match, game {} of {}\n", s.game, cfg.games);
    let _ = writeln!(
        c,
        "Result: {} ({}): {}",
        r.result.as_deref().unwrap_or(""),
        s.reason.word(),
        s.detail
    );
    for color in Color::ALL {
        let _ = writeln!(
            c,
            "{color} final_score: {}",
            s.engine_scores[color.index()].as_deref().unwrap_or("none")
        );
    }
    if s.disagreement {
        c.push_str("The engines' final_score disagree.\n");
    }
    let _ = write!(
        c,
        "Time used: black {:.2} s, white {:.2} s",
        s.time_used[0], s.time_used[1]
    );
    if let Some(tc) = cfg.time {
        let _ = write!(
            c,
            " (time control {})",
            tc.gtp().trim_start_matches("time_settings ")
        );
    }
    r.comment = Some(c);
    r.events = events;
    r
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Writes the SGF and the results line, updates the tally and progress.
fn record_game(shared: &Shared, mut played: Played) -> Result<(), MatchError> {
    let cfg = shared.cfg;
    if let Some(dir) = &cfg.sgf_dir {
        let path = dir.join(format!("game-{:04}.sgf", played.summary.game));
        fs::write(&path, played.record.to_sgf())
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
    if !cfg.quiet {
        let done = games.len();
        let t = tally_for(&games, 0, None);
        let remaining = cfg.games.saturating_sub(done);
        let per_game = book.started.elapsed().as_secs_f64() / book.played_now as f64;
        eprintln!(
            "[{done}/{}] {} {} - {} {} (draws {}), score {:.1}%, ETA {}",
            cfg.games,
            shared.names[0],
            t.wins,
            t.losses,
            shared.names[1],
            t.draws,
            100.0 * t.score().unwrap_or(0.5),
            format_duration(per_game * remaining as f64),
        );
    }
    Ok(())
}

fn format_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// Wins, draws and losses of engine `e`, optionally only as `color`.
fn tally_for(games: &[GameSummary], e: usize, color: Option<Color>) -> Tally {
    let mut t = Tally::default();
    for s in games {
        let e_color = if s.black_engine == e {
            Color::Black
        } else {
            Color::White
        };
        if color.is_some_and(|c| c != e_color) {
            continue;
        }
        match s.winner_engine() {
            None => t.draws += 1,
            Some(w) if w == e => t.wins += 1,
            Some(_) => t.losses += 1,
        }
    }
    t
}

fn table(
    cfg: &Config,
    names: &[String; 2],
    games: &[GameSummary],
    decision: Option<SprtDecision>,
) -> String {
    let mut out = String::new();
    let n = games.len();
    let _ = writeln!(
        out,
        "\n{n} game(s), {0}x{0}, komi {1}, {2} rules",
        cfg.size, cfg.komi, cfg.rules_name
    );
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(12);
    let _ = writeln!(
        out,
        "{:width$}  {:>5} {:>5} {:>5} {:>6}  {:>14}  {:>14}",
        "engine", "games", "wins", "draws", "losses", "as black w/d/l", "as white w/d/l"
    );
    for (e, name) in names.iter().enumerate() {
        let t = tally_for(games, e, None);
        let b = tally_for(games, e, Some(Color::Black));
        let w = tally_for(games, e, Some(Color::White));
        let _ = writeln!(
            out,
            "{name:width$}  {:>5} {:>5} {:>5} {:>6}  {:>14}  {:>14}",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            format!("{}/{}/{}", b.wins, b.draws, b.losses),
            format!("{}/{}/{}", w.wins, w.draws, w.losses),
        );
    }
    let black_wins = games
        .iter()
        .filter(|s| s.winner == Some(Color::Black))
        .count();
    let white_wins = games
        .iter()
        .filter(|s| s.winner == Some(Color::White))
        .count();
    let _ = writeln!(
        out,
        "Black won {black_wins}, White won {white_wins}, draws {}",
        n - black_wins - white_wins
    );
    let t = tally_for(games, 0, None);
    if let (Some(s), Some((lo, hi)), Some(elo)) = (t.score(), score_interval(&t), elo_estimate(&t))
    {
        let _ = writeln!(
            out,
            "{} scores {:.1}% (95% interval {:.1}% to {:.1}%), Elo difference {} against {}",
            names[0],
            100.0 * s,
            100.0 * lo,
            100.0 * hi,
            elo,
            names[1]
        );
    }
    let mut reasons = String::new();
    for r in ALL_REASONS {
        let k = games.iter().filter(|s| s.reason == r).count();
        if k > 0 {
            let _ = write!(
                reasons,
                "{}{} {k}",
                if reasons.is_empty() { "" } else { ", " },
                r.word()
            );
        }
    }
    let _ = writeln!(out, "Endings: {reasons}");
    out.push_str(&time_table(names, games, width));
    let disputed: Vec<String> = games
        .iter()
        .filter(|s| s.disagreement)
        .map(|s| s.game.to_string())
        .collect();
    if !disputed.is_empty() {
        let _ = writeln!(
            out,
            "The engines' final_score disagreed in {} game(s): {}",
            disputed.len(),
            disputed.join(", ")
        );
    }
    if let Some(sprt) = cfg.sprt {
        let (lo, hi) = sprt.bounds();
        let verdict = match decision.unwrap_or(SprtDecision::Continue) {
            SprtDecision::Continue => "no decision yet".to_string(),
            SprtDecision::AcceptH0 => format!("H0 accepted (Elo <= {})", sprt.elo0),
            SprtDecision::AcceptH1 => format!("H1 accepted (Elo >= {})", sprt.elo1),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} (bounds {:.3}, {:.3}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&t),
            lo,
            hi
        );
    }
    out
}

/// The `p` quantile (0 to 1) of sorted values, by nearest rank.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Per engine: how long its moves took and the least it had left on the
/// clock after a move (only games that recorded move times).
fn time_table(names: &[String; 2], games: &[GameSummary], width: usize) -> String {
    let width = width.max(17);
    let mut out = String::new();
    let mut rows = Vec::new();
    for (e, name) in names.iter().enumerate() {
        let mut times = Vec::new();
        let mut least: Option<f64> = None;
        for s in games {
            let i = if s.black_engine == e { 0 } else { 1 };
            times.extend_from_slice(&s.move_times[i]);
            if let Some(t) = s.min_clock_left[i] {
                least = Some(least.map_or(t, |m| m.min(t)));
            }
        }
        if times.is_empty() {
            continue;
        }
        times.sort_by(f64::total_cmp);
        let left = least.map_or("-".into(), |t| format!("{t:.3}"));
        rows.push(format!(
            "{:width$}  {:>6} {:>7.3} {:>7.3} {:>7.3} {:>7.3}  {:>9}",
            name,
            times.len(),
            quantile(&times, 0.5),
            quantile(&times, 0.9),
            quantile(&times, 0.99),
            times[times.len() - 1],
            left
        ));
    }
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "{:width$}  {:>6} {:>7} {:>7} {:>7} {:>7}  {:>9}",
            "time per move (s)", "moves", "median", "p90", "p99", "max", "least left"
        );
        for r in rows {
            let _ = writeln!(out, "{r}");
        }
    }
    out
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
            fs::create_dir_all(dir).map_err(|e| {
                MatchError::Failed(format!("cannot create '{}': {e}", dir.display()))
            })?;
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| {
                MatchError::Failed(format!(
                    "cannot open results file '{}': {e}",
                    path.display()
                ))
            })?;
        let fresh = f.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let write = if fresh {
            format!("{header}\n")
        } else if needs_newline {
            "\n".to_string()
        } else {
            String::new()
        };
        f.write_all(write.as_bytes()).map_err(|e| {
            MatchError::Failed(format!(
                "cannot write results file '{}': {e}",
                path.display()
            ))
        })?;
        file = Some(f);
    }
    if let Some(dir) = &cfg.sgf_dir {
        fs::create_dir_all(dir).map_err(|e| {
            MatchError::Failed(format!("cannot create --sgf-dir '{}': {e}", dir.display()))
        })?;
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

    let shared = Shared {
        cfg: &cfg,
        names: names.clone(),
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
    Ok(MatchReport {
        names,
        games,
        sprt: decision,
        table,
    })
}

/// Reads an existing results file: its games, the names it used, and
/// whether its last line lacks a newline (an interrupted write).
#[allow(clippy::type_complexity)]
fn read_results(
    path: &Path,
    header: &str,
) -> Result<(BTreeMap<usize, GameSummary>, Option<[String; 2]>, bool), MatchError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((BTreeMap::new(), None, false))
        }
        Err(e) => {
            return Err(MatchError::Failed(format!(
                "cannot read results file '{}': {e}",
                path.display()
            )))
        }
    };
    if text.trim().is_empty() {
        return Ok((
            BTreeMap::new(),
            None,
            !text.is_empty() && !text.ends_with('\n'),
        ));
    }
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let wanted = Json::parse(header).expect("our header is valid JSON");
    let theirs = Json::parse(first).map_err(|e| {
        MatchError::Failed(format!(
            "results file '{}' does not start with a match header ({e})",
            path.display()
        ))
    })?;
    if theirs != wanted {
        let diff = describe_difference(&theirs, &wanted);
        return Err(MatchError::Usage(format!(
            "results file '{}' belongs to a match with other settings ({diff}); use another --results file or the same settings",
            path.display()
        )));
    }
    let mut games = BTreeMap::new();
    let mut names = None;
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match Json::parse(line).ok().and_then(|j| summary_from_json(&j)) {
            Some((s, n)) => {
                names.get_or_insert(n);
                games.insert(s.game, s);
            }
            None => eprintln!(
                "warning: ignoring unreadable line {} of '{}'",
                i + 2,
                path.display()
            ),
        }
    }
    Ok((games, names, !text.ends_with('\n')))
}

fn describe_difference(theirs: &Json, wanted: &Json) -> String {
    if let (Json::Obj(a), Json::Obj(b)) = (theirs, wanted) {
        for (k, v) in b {
            let old = a.iter().find(|(k2, _)| k2 == k).map(|(_, v)| v);
            if old != Some(v) {
                let old = old.map_or("missing".to_string(), Json::to_text);
                return format!("{k} was {old}, now {}", v.to_text());
            }
        }
    }
    "the header differs".into()
}

fn game_json(names: &[String; 2], s: &GameSummary) -> String {
    let mut o = JsonObject::new();
    o.str("type", "game");
    o.num("game", s.game as f64);
    o.num("black_engine", s.black_engine as f64);
    o.str("black", &names[s.black_engine]);
    o.str("white", &names[1 - s.black_engine]);
    o.opt_str(
        "winner",
        s.winner.map(|c| if c == Color::Black { "B" } else { "W" }),
    );
    o.str("result", &s.result);
    o.str("reason", s.reason.word());
    o.str("detail", &s.detail);
    o.num("moves", s.moves as f64);
    o.num("time_black", s.time_used[0]);
    o.num("time_white", s.time_used[1]);
    for (color, i) in [("black", 0), ("white", 1)] {
        let items: Vec<String> = s.move_times[i].iter().map(|t| format!("{t}")).collect();
        o.raw(
            &format!("move_times_{color}"),
            &format!("[{}]", items.join(",")),
        );
        match s.min_clock_left[i] {
            Some(t) => o.num(&format!("min_clock_left_{color}"), t),
            None => o.raw(&format!("min_clock_left_{color}"), "null"),
        }
    }
    o.opt_str("final_score_black", s.engine_scores[0].as_deref());
    o.opt_str("final_score_white", s.engine_scores[1].as_deref());
    o.raw(
        "disagreement",
        if s.disagreement { "true" } else { "false" },
    );
    o.opt_str("sgf", s.sgf.as_deref());
    o.finish()
}

fn summary_from_json(j: &Json) -> Option<(GameSummary, [String; 2])> {
    if j.get("type")?.as_str()? != "game" {
        return None;
    }
    let game = j.get("game")?.as_num()? as usize;
    let black_engine = j.get("black_engine")?.as_num()? as usize;
    if game == 0 || black_engine > 1 {
        return None;
    }
    let winner = match j.get("winner")? {
        Json::Null => None,
        Json::Str(s) if s == "B" => Some(Color::Black),
        Json::Str(s) if s == "W" => Some(Color::White),
        _ => return None,
    };
    let opt = |k: &str| j.get(k).and_then(Json::as_str).map(str::to_string);
    let black = opt("black")?;
    let white = opt("white")?;
    let mut names = [black, white];
    if black_engine == 1 {
        names.swap(0, 1);
    }
    let summary = GameSummary {
        game,
        black_engine,
        winner,
        result: opt("result")?,
        reason: EndReason::from_word(j.get("reason")?.as_str()?)?,
        detail: opt("detail").unwrap_or_default(),
        moves: j.get("moves").and_then(Json::as_num).unwrap_or(0.0) as usize,
        time_used: [
            j.get("time_black").and_then(Json::as_num).unwrap_or(0.0),
            j.get("time_white").and_then(Json::as_num).unwrap_or(0.0),
        ],
        move_times: ["black", "white"].map(|c| match j.get(&format!("move_times_{c}")) {
            Some(Json::Arr(items)) => items.iter().filter_map(Json::as_num).collect(),
            _ => Vec::new(),
        }),
        min_clock_left: ["black", "white"].map(|c| match j.get(&format!("min_clock_left_{c}")) {
            Some(Json::Num(t)) if t.is_finite() => Some(*t),
            _ => None,
        }),
        engine_scores: [opt("final_score_black"), opt("final_score_white")],
        disagreement: matches!(j.get("disagreement"), Some(Json::Bool(true))),
        sgf: opt("sgf"),
    };
    Some((summary, names))
}

fn json_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_array(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| json_escape(s)).collect();
    format!("[{}]", parts.join(","))
}

/// Builds one JSON object, keys in insertion order.
struct JsonObject(String);

impl JsonObject {
    fn new() -> JsonObject {
        JsonObject(String::from("{"))
    }
    fn key(&mut self, k: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push_str(&json_escape(k));
        self.0.push(':');
    }
    fn raw(&mut self, k: &str, v: &str) {
        self.key(k);
        self.0.push_str(v);
    }
    fn str(&mut self, k: &str, v: &str) {
        self.raw(k, &json_escape(v));
    }
    fn opt_str(&mut self, k: &str, v: Option<&str>) {
        match v {
            Some(v) => self.str(k, v),
            None => self.raw(k, "null"),
        }
    }
    fn num(&mut self, k: &str, v: f64) {
        self.raw(k, &format!("{v}"));
    }
    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// A parsed JSON value (just enough to read our own results files back).
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = JsonParser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_num(&self) -> Option<f64> {
        match self {
            Json::Num(n) if n.is_finite() && *n >= 0.0 => Some(*n),
            _ => None,
        }
    }

    fn to_text(&self) -> String {
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(n) => format!("{n}"),
            Json::Str(s) => json_escape(s),
            Json::Arr(items) => {
                let parts: Vec<String> = items.iter().map(Json::to_text).collect();
                format!("[{}]", parts.join(","))
            }
            Json::Obj(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}:{}", json_escape(k), v.to_text()))
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
        }
    }
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 32 {
            return Err("nested too deeply".into());
        }
        self.ws();
        let err = |i: usize| format!("unexpected input at byte {i}");
        match self.s.get(self.i) {
            None => Err("unexpected end".into()),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Json::Arr(items));
                    }
                    if !self.eat(",") {
                        return Err(err(self.i));
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return Err(err(self.i));
                    }
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(":") {
                        return Err(err(self.i));
                    }
                    fields.push((k, self.value(depth + 1)?));
                    self.ws();
                    if self.eat("}") {
                        return Ok(Json::Obj(fields));
                    }
                    if !self.eat(",") {
                        return Err(err(self.i));
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).map_err(|_| err(start))?;
                t.parse().map(Json::Num).map_err(|_| err(start))
            }
            Some(_) => Err(err(self.i)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            let c = *self.s.get(self.i).ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| "invalid UTF-8".to_string()),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or("bad \\u escape")?;
                            self.i += 4;
                            let code = u32::from_str_radix(
                                std::str::from_utf8(hex).map_err(|_| "bad \\u escape")?,
                                16,
                            )
                            .map_err(|_| "bad \\u escape")?;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err("bad escape".into()),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_parsing() {
        let tc = TimeControl::parse("300/30/5").unwrap();
        assert_eq!((tc.main, tc.byo, tc.stones), (300.0, 30.0, 5));
        assert_eq!(tc.gtp(), "time_settings 300 30 5");
        assert_eq!(
            TimeControl::parse("60").unwrap().gtp(),
            "time_settings 60 0 0"
        );
        for bad in [
            "", "a", "1/2", "1/2/x", "-1", "0", "0/0/0", "10/5/0", "1/2/3/4",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn absolute_clock() {
        let mut c = Clock::new(TimeControl::parse("10").unwrap());
        assert_eq!(c.available(), 10.0);
        assert!(c.spend(4.0, 1.0));
        assert_eq!(c.time_left(), (6, 0));
        assert!(c.spend(6.5, 1.0)); // within the margin
        assert!(!c.spend(1.5, 1.0));
    }

    #[test]
    fn byo_yomi_clock() {
        let mut c = Clock::new(TimeControl::parse("10/5/2").unwrap());
        assert_eq!(c.available(), 15.0);
        assert!(c.spend(12.0, 0.5)); // 2 s into the first period, first stone
        assert!(c.in_byo);
        assert_eq!(c.time_left(), (3, 1));
        assert!(c.spend(2.0, 0.5)); // second stone: period renewed
        assert_eq!(c.time_left(), (5, 2));
        assert!(c.spend(4.0, 0.5));
        assert_eq!(c.time_left(), (1, 1));
        assert!(!c.spend(2.0, 0.5));
        // Byo-yomi only.
        let mut c = Clock::new(TimeControl::parse("0/5/1").unwrap());
        assert!(c.in_byo);
        assert_eq!(c.time_left(), (5, 1));
        assert!(c.spend(4.9, 0.0));
        assert_eq!(c.time_left(), (5, 1));
        assert!(!c.spend(5.2, 0.1));
    }

    #[test]
    fn final_score_parsing() {
        assert_eq!(parse_final_score("B+3.5"), Some(3.5));
        assert_eq!(parse_final_score("w+0.5 (upper bound)"), Some(-0.5));
        assert_eq!(parse_final_score("0"), Some(0.0));
        assert_eq!(parse_final_score("Jigo"), Some(0.0));
        assert_eq!(parse_final_score("B+R"), None);
        assert_eq!(parse_final_score(""), None);
        assert_eq!(parse_final_score("B+inf"), None);
        assert_eq!(format_margin(3.5), "B+3.5");
        assert_eq!(format_margin(-7.0), "W+7");
        assert_eq!(format_margin(0.0), "0");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn json_round_trip() {
        let s = GameSummary {
            game: 7,
            black_engine: 1,
            winner: Some(Color::White),
            result: "W+Forfeit".into(),
            reason: EndReason::IllegalMove,
            detail: "black played \"D4\"\n(ko)\u{1}".into(),
            moves: 12,
            time_used: [1.25, 0.5],
            move_times: [vec![0.5, 0.75], vec![0.5]],
            min_clock_left: [Some(-0.25), None],
            engine_scores: [Some("W+3.5".into()), None],
            disagreement: true,
            sgf: Some("/tmp/x y/game-0007.sgf".into()),
        };
        let names = ["a".to_string(), "b é".to_string()];
        let line = game_json(&names, &s);
        let j = Json::parse(&line).unwrap();
        let (back, back_names) = summary_from_json(&j).unwrap();
        assert_eq!(back, s);
        assert_eq!(back_names, names);
        assert_eq!(Json::parse(&j.to_text()).unwrap(), j);
        for bad in ["", "{", "{\"a\":}", "[1,]", "\"abc", "{\"a\":1} x", "tru"] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Json::parse(r#" {"a": [1, -2.5e1, null, true, "\u00e9\/"]} "#).unwrap(),
            Json::Obj(vec![(
                "a".into(),
                Json::Arr(vec![
                    Json::Num(1.0),
                    Json::Num(-25.0),
                    Json::Null,
                    Json::Bool(true),
                    Json::Str("é/".into())
                ])
            )])
        );
    }

    #[test]
    fn move_time_distribution() {
        let sorted: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.5), 50.0);
        assert_eq!(quantile(&sorted, 0.9), 90.0);
        assert_eq!(quantile(&sorted, 0.99), 99.0);
        assert_eq!(quantile(&[3.0], 0.99), 3.0);
        let game = |n, black_engine, times: [Vec<f64>; 2], left| GameSummary {
            game: n,
            black_engine,
            winner: None,
            result: "0".into(),
            reason: EndReason::TwoPasses,
            detail: String::new(),
            moves: 0,
            time_used: [0.0, 0.0],
            move_times: times,
            min_clock_left: left,
            engine_scores: [None, None],
            disagreement: false,
            sgf: None,
        };
        let games = [
            game(1, 0, [vec![0.1, 0.2], vec![1.0]], [Some(0.8), Some(0.5)]),
            game(2, 1, [vec![2.0], vec![0.3]], [Some(-0.1), Some(0.7)]),
        ];
        let names = ["one".to_string(), "two".to_string()];
        let t = time_table(&names, &games, 12);
        let row = |name: &str| {
            t.lines()
                .find(|l| l.starts_with(name))
                .unwrap()
                .split_whitespace()
                .skip(1)
                .map(|w| w.parse::<f64>().unwrap())
                .collect::<Vec<_>>()
        };
        // Engine one: 0.1, 0.2 as Black in game 1, 0.3 as White in game 2.
        assert_eq!(row("one"), vec![3.0, 0.2, 0.3, 0.3, 0.3, 0.7]);
        assert_eq!(row("two"), vec![2.0, 1.0, 2.0, 2.0, 2.0, -0.1]);
        assert!(time_table(&names, &[], 12).is_empty());
    }

    #[test]
    fn vertex_shapes() {
        assert!(looks_like_vertex("Z99"));
        assert!(looks_like_vertex("a1"));
        assert!(!looks_like_vertex("banana"));
        assert!(!looks_like_vertex("1A"));
        assert!(!looks_like_vertex("A"));
    }
}

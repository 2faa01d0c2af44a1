//! `kosumi score`: count finished games from SGF files.
//!
//! For each file it prints the score, each side's points as a referee adds
//! them up (territory, prisoners, komi), and a diagram with dead stones,
//! seki and territory marked. With `--list FILE` (SGF paths, one a line,
//! relative to the list's folder) or `--tsv FILE` (the counted-games table:
//! archive, path inside it, half; the games are read straight out of the
//! `.tar.gz` archives) it counts every game, compares with its `RE[]` and
//! reports exact agreement, winners right, time, and each miss; `--gnugo`
//! adds GNU Go's count of the same games. `RE` is read only for that
//! comparison: the scorer sees a [`Game`] built from the moves alone, never
//! `RE`, `TB` or `TW`.

use anyhow::{ensure, Context};
use kosumi::board::{Bitboard, Board, Color, Game, Point, Rules, Scoring};
use kosumi::score::{self, Breakdown, Judgement, Owner, PointStatus, Reason, Score};
use kosumi::search::referee;
use kosumi::sgf::{write_points, GameRecord};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod check;
mod explain;
mod margin;
pub mod reference_cache;
pub mod source;

pub use check::{check_games, CheckOptions, ListReport, Tally, GNUGO};
pub use margin::same_winner;
use reference_cache::ReferenceCache;
use source::{GameFile, Pick};

/// Arguments of `kosumi score`.
#[derive(clap::Args, Debug, Clone)]
pub struct ScoreArgs {
    /// SGF files to count.
    pub files: Vec<PathBuf>,
    /// A file listing SGF paths (relative to its folder); report agreement with `RE[]`.
    #[arg(long, value_name = "FILE", conflicts_with = "tsv")]
    pub list: Option<PathBuf>,
    /// A table of archived games (archive, path inside it, half; tab-separated);
    /// report agreement with `RE[]`.
    #[arg(long, value_name = "FILE")]
    pub tsv: Option<PathBuf>,
    /// Folder of the table's archives (default: `../kgs-6d` beside the table's folder).
    #[arg(long, value_name = "DIR", requires = "tsv")]
    pub archives: Option<PathBuf>,
    /// Only the table's games of this half (`tune` or `validate`).
    #[arg(long, value_name = "HALF", requires = "tsv")]
    pub half: Option<String>,
    /// Every N-th game of the list or table (the N-th, 2N-th, ...).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    /// Leave out the first N games (after `--every`): `--skip 1000 --first 1000`
    /// counts the 1,001st to the 2,000th, so a long table can be counted in parts.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: usize,
    /// At most N games (after `--every` and `--skip`).
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Also count the games with GNU Go (a GTP command with `loadsgf` and
    /// `final_score`; default `/usr/games/gnugo --mode gtp`): after each
    /// file's score, or beside each miss and in the summary of a list.
    #[arg(long, value_name = "COMMAND", num_args = 0..=1, default_missing_value = GNUGO)]
    pub gnugo: Option<String>,
    /// Keep GNU Go's counts in this file and read them back on later runs
    /// (with `--gnugo`): its answers never change, and a half of the table
    /// takes it an hour and more.
    #[arg(long, value_name = "FILE", requires = "gnugo")]
    pub gnugo_cache: Option<PathBuf>,
    /// Rules to count under (default: the file's `RU`, else japanese).
    #[arg(long)]
    pub rules: Option<String>,
    /// Light playouts per judgement, as many of the search's added (default: the engine's, 1,000).
    #[arg(long)]
    pub playouts: Option<usize>,
    /// Seed of the playouts (default: the engine's fixed seed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads for `--list` and `--tsv` (default: available cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write each counted game to this folder with the count marked: `TB`
    /// and `TW` territory (dead stones' points included) and the result in
    /// a comment, on a node after the last move.
    #[arg(long, value_name = "DIR")]
    pub sgf_out: Option<PathBuf>,
    /// Print no diagrams, only scores; no progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// After the count of each SGF file given, list the confirmation
    /// readings the judge made: each chain read, who moved first, and
    /// whether it was captured, held, ran out of positions or was too big to
    /// read. With `--list` or `--tsv`, under each miss: its unsettled
    /// groups' statuses and reasons, then its readings.
    #[arg(long)]
    pub readings: bool,
}

/// Runs the subcommand; returns the process exit status (0 ok, 1 on an
/// unreadable file or bad option, 2 when nothing was given).
pub fn run(args: &ScoreArgs) -> i32 {
    score(args).unwrap_or_else(|e| {
        eprintln!("kosumi score: {e:#}");
        1
    })
}

fn score(args: &ScoreArgs) -> anyhow::Result<i32> {
    let rules = args.rules.as_deref().map(Rules::parse).transpose()?;
    if args.files.is_empty() && args.list.is_none() && args.tsv.is_none() {
        eprintln!("kosumi score: give SGF files, --list FILE or --tsv FILE");
        return Ok(2);
    }
    if let Some(h) = args.half.as_deref() {
        ensure!(
            h == "tune" || h == "validate",
            "--half must be `tune` or `validate`, not `{h}`"
        );
    }
    ensure!(
        args.every > 0 && args.first != Some(0),
        "--every and --first must be at least 1"
    );
    let opts = Options {
        rules,
        playouts: args.playouts,
        seed: args.seed,
    };
    let mut status = 0;
    if let Some(dir) = &args.sgf_out {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    if let Some(command) = &args.gnugo {
        check::check_reference(command).context("--gnugo")?;
    }
    let mut reference = None;
    for path in &args.files {
        match score_file(path, &opts) {
            Ok(out) => {
                let gnugo = match &args.gnugo {
                    None => String::new(),
                    Some(command) => match check::file_reference(command, path, &mut reference) {
                        Ok(m) => format!(" (gnugo {m})"),
                        Err(e) => format!(" (gnugo: {e:#})"),
                    },
                };
                outln!("{}: {}{gnugo}", path.display(), out.score);
                if !args.quiet {
                    let [b, w] = out.breakdown;
                    outln!("Black {b}\nWhite {w}");
                    outln!("{}", out.diagram);
                }
                if args.readings {
                    outln!("{}", out.readings);
                }
                if let Some(dir) = &args.sgf_out {
                    let name = path.file_name().unwrap_or(path.as_os_str());
                    let to = dir.join(name);
                    if let Err(e) = std::fs::write(&to, &out.marked_sgf) {
                        eprintln!("kosumi score: {}: {e}", to.display());
                        status = 1;
                    }
                }
            }
            Err(e) => {
                eprintln!("kosumi score: {}: {e:#}", path.display());
                status = 1;
            }
        }
    }
    let pick = Pick {
        half: args.half.as_deref(),
        every: args.every,
        skip: args.skip,
        first: args.first,
    };
    let games = match (&args.list, &args.tsv) {
        (Some(list), _) => {
            source::from_list(list, &pick).with_context(|| list.display().to_string())
        }
        (None, Some(tsv)) => {
            let archives = args
                .archives
                .clone()
                .unwrap_or_else(|| source::default_archives(tsv));
            source::from_table(tsv, &archives, &pick).with_context(|| tsv.display().to_string())
        }
        (None, None) => return Ok(status),
    }?;
    Ok(status.max(report(&games, &opts, args)?))
}

/// Checks the games against their results and prints the misses and the
/// summary; 1 when some game could not be counted.
fn report(games: &[GameFile], opts: &Options, args: &ScoreArgs) -> anyhow::Result<i32> {
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let gnugo_cache = match (&args.gnugo_cache, &args.gnugo) {
        (Some(path), Some(command)) => {
            Some(std::sync::Arc::new(ReferenceCache::open(path, command)?))
        }
        _ => None,
    };
    let check = CheckOptions {
        threads,
        gnugo: args.gnugo.clone(),
        gnugo_cache,
        sgf_out: args.sgf_out.clone(),
        readings: args.readings,
        progress_every: if args.quiet {
            0
        } else {
            (games.len() / 20).clamp(10, 200)
        },
    };
    let report = check_games(games, opts, &check);
    for line in &report.lines {
        outln!("{line}");
    }
    outln!("{}", report.summary());
    Ok(i32::from(report.errors() > 0))
}

/// How to count: rules override, playouts and seed (engine defaults when `None`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Rules to count under instead of the file's `RU`.
    pub rules: Option<Rules>,
    /// Light playouts per judgement (as many of the search's are added).
    pub playouts: Option<usize>,
    /// Playout seed.
    pub seed: Option<u64>,
}

/// One counted file.
pub struct Counted {
    /// The score.
    pub score: Score,
    /// Where each side's points come from (Black's first).
    pub breakdown: [Breakdown; 2],
    /// The board with dead stones, seki and territory marked, and a legend.
    pub diagram: String,
    /// Time the judgement and count took.
    pub time: Duration,
    /// The game with the count marked (see [`marked_sgf`]).
    pub marked_sgf: String,
    /// The judge's readings, one a line (see [`readings`]).
    pub readings: String,
}

/// The referee's judgement, with the options' seed and playouts.
fn judge(game: &Game, opts: &Options) -> score::Judgement {
    let judge = referee();
    let judge = opts.seed.map_or(judge, |seed| judge.with_seed(seed));
    let judge = opts.playouts.map_or(judge, |n| judge.with_playouts(n));
    judge.judge(game)
}

/// Reads, judges and counts one SGF file.
pub fn score_file(path: &Path, opts: &Options) -> anyhow::Result<Counted> {
    let record = GameRecord::from_sgf(&std::fs::read(path)?)?;
    let game = record.to_game(opts.rules, Rules::japanese(), None)?;
    let start = Instant::now();
    let j = judge(&game, opts);
    let breakdown = score::breakdown(&game, &j);
    let time = start.elapsed();
    Ok(Counted {
        score: Score::from(breakdown),
        breakdown,
        diagram: diagram(&game, &j),
        time,
        marked_sgf: marked_sgf(&record, &game, &j, breakdown),
        readings: readings(&j),
    })
}

/// `TB` and `TW` as KGS and CGoban write them and Sabaki shows them: each
/// colour's territory as `scoring` counts it, the points of the opponent's
/// dead stones included (so the dead stones show as marked).
pub(crate) fn territory_marks(j: &Judgement, scoring: Scoring) -> String {
    let mut props = String::new();
    for (ident, c) in [("TB", Color::Black), ("TW", Color::White)] {
        write_points(
            &mut props,
            ident,
            j.counted_territory(Some(c), scoring).into_iter(),
        );
    }
    props
}

/// The record with the count marked for SGF viewers (Sabaki, GoGui): a
/// node after the last move holding `TB` and `TW` (each side's territory,
/// the points of the other side's dead stones included) and a comment with
/// the score, each unsettled group's status and reason, and the readings
/// behind them. The record's own `TB`/`TW` are dropped.
pub fn marked_sgf(
    record: &GameRecord,
    game: &Game,
    j: &Judgement,
    breakdown: [Breakdown; 2],
) -> String {
    let mut record = record.clone();
    record.extra.retain(|(id, _)| id != "TB" && id != "TW");
    let text = record.to_sgf();
    let mut out = text.trim_end().trim_end_matches(')').to_string();
    out.push(';');
    out.push_str(&territory_marks(j, game.rules().scoring()));
    let s = Score::from(breakdown);
    let [b, w] = breakdown;
    let mut comment = format!(
        "kosumi counts {s}\nBlack {b}\nWhite {w}\n{}",
        groups(game, j)
    );
    if !j.readings().is_empty() {
        comment.push('\n');
        comment.push_str(&readings(j));
    }
    out.push_str("C[");
    for ch in comment.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push_str("])\n");
    out
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
    s.push_str(&groups(game, j));
    s
}

/// The judge's confirmation readings, one a line, under a heading that
/// says how many there were.
pub fn readings(j: &Judgement) -> String {
    let list = j.readings();
    let mut s = format!("{}:\n", score::counted(list.len(), "reading"));
    for r in list {
        s.push_str("  ");
        s.push_str(&r.describe(j.size()));
        s.push('\n');
    }
    s
}

/// One line per chain not settled by Benson's algorithm: its colour, a
/// stone, its size, its status and why.
pub fn groups(game: &Game, j: &Judgement) -> String {
    let board = game.board();
    let mut s = String::new();
    for (c, p, chain) in chains(board) {
        let (Some(status), Some(why)) = (j.status(p), j.reason(p)) else {
            continue;
        };
        if why == Reason::Benson {
            continue;
        }
        s.push_str(&format!(
            "{} {} ({}): {}: {why}\n",
            c.letter(),
            p.to_gtp(board.size()),
            score::counted(chain.count(), "stone"),
            status.name()
        ));
    }
    s
}

/// Every chain of the board, Black's first: its colour, its first stone and
/// its stones.
fn chains(board: &Board) -> impl Iterator<Item = (Color, Point, Bitboard)> + '_ {
    Color::ALL.into_iter().flat_map(move |c| {
        let chains = board.stones(c).components();
        chains.filter_map(move |chain| Some((c, chain.first()?, chain)))
    })
}

/// Counts every game of a list file (SGF paths relative to its folder) and
/// compares with its `RE[]`, using up to `threads` worker threads.
pub fn check_list(list: &Path, opts: &Options, threads: usize) -> anyhow::Result<ListReport> {
    let pick = Pick::default();
    let games = source::from_list(list, &pick)?;
    let check = CheckOptions {
        threads,
        ..CheckOptions::default()
    };
    Ok(check_games(&games, opts, &check))
}

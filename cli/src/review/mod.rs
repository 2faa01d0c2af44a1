//! `kosumi review GAME.sgf`: every position of a game searched, the results
//! written back as an SGF that Sabaki, KaTrain or any editor opens (each
//! move's win rate and score in its comment, kosumi's better move and its
//! variation where the played move clearly lost to it, the biggest
//! mistakes at the root) and, on request, an SVG chart of the game.
//!
//! The positions go through the worker pool of `kosumi analysis`, one search
//! thread per position and as many positions at once as threads: whole
//! positions in parallel scale better than threads sharing one tree.

mod chart;
mod sgf_out;

use super::analysis::pool::{Pool, Report, Sink};
use super::analysis::query::{Defaults, Perspective, Position, Settings};
use anyhow::{anyhow, Context};
use clap::Args;
use kosumi::board::{Color, Move, Rules, Vertex, DEFAULT_SEED};
use kosumi::search::patterns::Model;
use kosumi::search::{Analysis, Candidate, Policy, SearchParams};
use kosumi::sgf::GameRecord;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Options of `kosumi review`.
#[derive(Args, Debug, Clone)]
pub struct ReviewArgs {
    /// The game to review (the main line of the first game in the file).
    pub game: PathBuf,
    /// Playouts per position (the played move gets at least half as many
    /// of its own on top, in the same tree).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Seconds per position instead of a playout count.
    #[arg(long)]
    pub time: Option<f64>,
    /// Threads in all (default: all cores); each searches its own positions.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// The annotated SGF (default: GAME-review.sgf beside the game).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also draw the win rate and score lead over the game as an SVG chart.
    #[arg(long)]
    pub chart: Option<PathBuf>,
    /// A move is a mistake when kosumi's choice beats it by this many
    /// standard errors of score in the same search.
    #[arg(long, default_value_t = 1.5, allow_negative_numbers = true)]
    pub confidence: f64,
    /// ... and by at least this many points.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    pub min_points: f64,
    /// Mistakes listed in the root comment.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Rules (default: the record's RU, else japanese).
    #[arg(long)]
    pub rules: Option<String>,
    /// Komi (default: the record's KM, else the rules' komi).
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Seed of the searches.
    #[arg(long)]
    pub seed: Option<u64>,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One played move and what the review found.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// 1-based move number.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// Black's win rate and score lead before it.
    pub before: (f64, f64),
    /// Black's win rate and score lead after it: the played move's own
    /// values in the search before it.
    pub after: (f64, f64),
    /// kosumi's choice in the position before it: the move, its variation,
    /// and Black's win rate and score lead after it.
    pub best: Option<(Move, Vec<Move>, f64, f64)>,
    /// Win rate the mover lost against kosumi's choice, in [−1, 1].
    pub loss: f64,
    /// Points of score lead the mover lost against kosumi's choice.
    pub score_loss: f64,
    /// That score loss in standard errors of the two moves' means.
    pub confidence: f64,
    /// Whether it counts as a mistake.
    pub mistake: bool,
}

/// The whole review.
pub struct Review {
    /// The game.
    pub record: GameRecord,
    /// Black's win rate and score lead in every position (turn 0 first).
    pub black: Vec<(f64, f64)>,
    /// One entry per move.
    pub moves: Vec<MoveReview>,
    /// Board side.
    pub size: usize,
    /// How the positions were searched, for the comments.
    pub effort: String,
    /// What makes a mistake.
    pub bar: Bar,
}

/// What makes a mistake: kosumi's choice beats the move by `confidence`
/// standard errors and `min_points` points of score, between moves
/// `first` and `last`.
#[derive(Clone, Copy, Debug)]
pub struct Bar {
    pub confidence: f64,
    pub min_points: f64,
    pub first: usize,
    pub last: usize,
}

impl Bar {
    /// The bar for a board side. The opening and the late endgame are left
    /// alone: measured against a strong judge, playouts rated the opening
    /// poorly and the late endgame's marks were nearly all counting noise.
    pub fn new(args: &ReviewArgs, size: usize) -> Bar {
        let points = size * size;
        Bar {
            confidence: args.confidence,
            min_points: args.min_points,
            first: points / 9,
            last: points * 7 / 10,
        }
    }
}

impl Review {
    /// Moves where kosumi's first choice was the move played, per colour:
    /// (agreed, moves).
    pub fn agreement(&self, color: Color) -> (usize, usize) {
        let of = self.moves.iter().filter(|m| m.color == color);
        let agreed = of
            .clone()
            .filter(|m| m.best.as_ref().is_some_and(|b| b.0 == m.mv))
            .count();
        (agreed, of.count())
    }
}

fn black_view(winrate: f64, score_lead: f64, to_move: Color) -> (f64, f64) {
    if to_move == Color::Black {
        (winrate, score_lead)
    } else {
        (1.0 - winrate, -score_lead)
    }
}

/// Searches every position of `record` and judges every move.
pub fn review(record: GameRecord, args: &ReviewArgs) -> anyhow::Result<Review> {
    let rules = args.rules.as_deref().map(Rules::parse).transpose()?;
    let moves: Vec<(Color, Move)> = record.moves().collect();
    let n = moves.len();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let threads = args.threads.map_or(cores, |t| t as usize);
    let settings = Arc::new(Settings {
        base: Defaults {
            max_visits: Some(if args.time.is_some() {
                u64::MAX / 2
            } else {
                args.playouts
            }),
            max_time: args.time,
            perspective: Perspective::SideToMove,
            pv_len: 12,
            ..Defaults::default()
        },
        ownership: false,
        move_ownership: false,
        policy: false,
        pv_visits: false,
        report_every: None,
        allow: Vec::new(),
        avoid: Vec::new(),
    });
    // Each position holds its game's history: build them as the workers
    // need them rather than all at once.
    let position = |turn: usize| -> anyhow::Result<Position> {
        let mut game = record.to_game(rules, Rules::japanese(), Some(turn + 1))?;
        if let Some(k) = args.komi {
            game.set_komi(k);
        }
        let to_move = moves.get(turn).map_or(game.to_move(), |m| m.0);
        Ok(Position {
            id: String::new(),
            turn,
            game,
            to_move,
            priority: 0,
            settings: Arc::clone(&settings),
            evaluate: moves.get(turn).map(|m| m.1),
        })
    };
    // An illegal move anywhere is an error before any search.
    record.to_game(rules, Rules::japanese(), None)?;
    let first = position(0)?;
    let mut to_moves = vec![first.to_move];
    let results: Arc<Mutex<Vec<Option<Analysis>>>> = Arc::new(Mutex::new(vec![None; n + 1]));
    let done = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let (r, d, quiet) = (Arc::clone(&results), Arc::clone(&done), args.quiet);
    let tty = std::io::stderr().is_terminal();
    let sink: Sink = Arc::new(move |rep: Report| {
        if let Report::Analysis {
            position,
            analysis,
            during: false,
            ..
        } = rep
        {
            r.lock().unwrap_or_else(|e| e.into_inner())[position.turn] = Some(analysis.clone());
            let k = d.fetch_add(1, Relaxed) + 1;
            let total = n + 1;
            if !quiet && (tty || k * 10 / total != (k - 1) * 10 / total || k == total) {
                let end = if tty && k < total { "\r" } else { "\n" };
                eprint!(
                    "kosumi review: {k}/{total} positions, {:.1} s{end}",
                    start.elapsed().as_secs_f64()
                );
            }
        }
    });
    let params = SearchParams {
        threads: 1,
        seed: args.seed.unwrap_or(DEFAULT_SEED),
        max_memory: (kosumi::search::default_max_memory() / threads).max(64 << 20),
        quiet: true,
        ..SearchParams::default()
    };
    let pool = Pool::new(
        threads,
        params,
        Policy::default().with_patterns(Some(Model::embedded())),
        sink,
    );
    pool.submit(vec![first]);
    for turn in 1..=n {
        while turn - done.load(Relaxed) > 4 * threads {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        match position(turn) {
            Ok(p) => {
                to_moves.push(p.to_move);
                pool.submit(vec![p]);
            }
            Err(e) => {
                pool.abandon();
                return Err(e);
            }
        }
    }
    pool.finish();
    let results = std::mem::take(&mut *results.lock().unwrap_or_else(|e| e.into_inner()));
    let analyses: Vec<Analysis> = results
        .into_iter()
        .map(|a| a.ok_or_else(|| anyhow!("a position was not analysed")))
        .collect::<anyhow::Result<_>>()?;
    let black: Vec<(f64, f64)> = analyses
        .iter()
        .zip(&to_moves)
        .map(|(a, &c)| black_view(a.winrate, a.score_lead, c))
        .collect();
    let bar = Bar::new(args, record.size);
    let judged = judge(&moves, &analyses, &to_moves, &black, &bar);
    let effort = match args.time {
        Some(t) => format!("{t} s per position, half as much for the move played"),
        None => format!(
            "{} playouts per position, {} for the move played",
            args.playouts,
            args.playouts / 2
        ),
    };
    Ok(Review {
        size: record.size,
        record,
        black,
        moves: judged,
        effort,
        bar,
    })
}

/// Judges every move against kosumi's choice in the same search: the
/// played move had playouts of its own there, so both values come from one
/// tree and the gap is not a comparison of two searches' biases.
///
/// Why a gap in standard errors: a playout's final score spreads over tens
/// of points on 19x19 (its standard deviation is 50 to 70 in the middle
/// game), so a gap of five points is noise at a few hundred playouts and
/// real at a few thousand.
fn judge(
    moves: &[(Color, Move)],
    analyses: &[Analysis],
    to_moves: &[Color],
    black: &[(f64, f64)],
    bar: &Bar,
) -> Vec<MoveReview> {
    moves
        .iter()
        .enumerate()
        .map(|(k, &(color, mv))| {
            let a = &analyses[k];
            let view = |c: &Candidate| black_view(c.winrate, c.score_lead, to_moves[k]);
            let first = a.candidates.first();
            let best = first.map(|c| {
                let (w, s) = view(c);
                (c.mv, c.pv.clone(), w, s)
            });
            let played = a.candidates.iter().find(|c| c.mv == mv && c.visits > 0);
            let after = played.map_or(black[k + 1], view);
            let (mut loss, mut score_loss, mut confidence) = (0.0, 0.0, 0.0);
            if let (Some(b), Some(p)) = (first, played) {
                loss = b.winrate - p.winrate;
                score_loss = b.score_lead - p.score_lead;
                let spread =
                    a.root.score_stdev * (1.0 / b.visits as f64 + 1.0 / p.visits as f64).sqrt();
                confidence = if spread > 0.0 {
                    score_loss / spread
                } else {
                    0.0
                };
            }
            let agreed = first.is_some_and(|b| b.mv == mv);
            let mistake = !agreed
                && mv != Move::Pass
                && to_moves[k] == color
                && (bar.first..=bar.last).contains(&(k + 1))
                && confidence >= bar.confidence
                && score_loss >= bar.min_points;
            MoveReview {
                number: k + 1,
                color,
                mv,
                before: black[k],
                after,
                best,
                loss,
                score_loss,
                confidence,
                mistake,
            }
        })
        .collect()
}

fn default_out(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy());
    game.with_file_name(format!("{stem}-review.sgf"))
}

/// Runs `kosumi review`; returns the exit status.
pub fn run(args: &ReviewArgs) -> i32 {
    for (flag, value, unit) in [
        ("--confidence", args.confidence, "standard errors"),
        ("--min-points", args.min_points, "points"),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            eprintln!("kosumi review: {flag} {value} is not a number of {unit} (0 or more)");
            return 2;
        }
    }
    if args.time.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
        eprintln!("kosumi review: --time must be a positive number of seconds");
        return 2;
    }
    match write_review(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kosumi review: {e:#}");
            1
        }
    }
}

/// Reviews the game and writes the annotated SGF (and the chart).
fn write_review(args: &ReviewArgs) -> anyhow::Result<()> {
    let game = args.game.display();
    let bytes = std::fs::read(&args.game).with_context(|| format!("cannot read {game}"))?;
    let record = GameRecord::from_sgf(&bytes).with_context(|| game.to_string())?;
    // Unwritable outputs are found before the search, not after it.
    let out = args.out.clone().unwrap_or_else(|| default_out(&args.game));
    for path in std::iter::once(&out).chain(args.chart.as_ref()) {
        let probe = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path);
        probe.with_context(|| format!("cannot write {}", path.display()))?;
    }
    let start = Instant::now();
    let review = review(record, args).with_context(|| game.to_string())?;
    std::fs::write(&out, sgf_out::write(&review, args.top))
        .with_context(|| format!("cannot write {}", out.display()))?;
    if let Some(path) = &args.chart {
        chart::draw(&review, path).with_context(|| format!("cannot draw {}", path.display()))?;
    }
    if !args.quiet {
        let mistakes = review.moves.iter().filter(|m| m.mistake).count();
        let pct = |(a, n): (usize, usize)| 100.0 * a as f64 / n.max(1) as f64;
        eprintln!(
            "kosumi review: {} moves in {:.1} s; {mistakes} mistakes; kosumi's first choice was played {:.0}% (Black) and {:.0}% (White) of the time; wrote {}",
            review.moves.len(),
            start.elapsed().as_secs_f64(),
            pct(review.agreement(Color::Black)),
            pct(review.agreement(Color::White)),
            out.display()
        );
    }
    Ok(())
}

/// `B R3`-style name of a move.
pub fn move_text(color: Color, mv: Move, size: usize) -> String {
    format!("{} {}", color.letter(), Vertex::from_move(mv, size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kosumi::board::Point;

    fn candidate(mv: Move, visits: u64, score_lead: f64) -> Candidate {
        Candidate {
            mv,
            visits,
            winrate: 0.5 + score_lead / 100.0,
            prior: 0.0,
            lcb: 0.0,
            score_lead,
            pv: vec![mv],
            pv_visits: Vec::new(),
            score_stdev: 0.0,
            ownership: Vec::new(),
        }
    }

    /// A position where Black's best move leads by 6 points and the played
    /// move by 0, with the playouts and the spread given.
    fn judged(number: usize, played_visits: u64, stdev: f64) -> MoveReview {
        let (best, played) = (Move::Play(Point::new(3, 3)), Move::Play(Point::new(4, 4)));
        let moves = vec![(Color::Black, played); number];
        let mut a = Analysis {
            candidates: vec![
                candidate(best, 2000, 6.0),
                candidate(played, played_visits, 0.0),
            ],
            ..Analysis::default()
        };
        a.root.score_stdev = stdev;
        let analyses = vec![a; number + 1];
        let to_moves = vec![Color::Black; number + 1];
        let black = vec![(0.5, 0.0); number + 1];
        let bar = Bar {
            confidence: 1.5,
            min_points: 2.0,
            first: 40,
            last: 252,
        };
        judge(&moves, &analyses, &to_moves, &black, &bar)
            .pop()
            .unwrap()
    }

    #[test]
    fn a_gap_counts_as_far_as_its_playouts_carry_it() {
        // 6 points with a spread of 60: 1.9 standard errors at 2000 and
        // 1000 playouts, 0.4 at 2000 and 40.
        let m = judged(100, 1000, 60.0);
        assert!((m.score_loss - 6.0).abs() < 1e-9);
        assert!((m.confidence - 6.0 / (60.0 * (1.5f64 / 1000.0).sqrt())).abs() < 1e-9);
        assert!(m.mistake);
        assert!(!judged(100, 40, 60.0).mistake);
        // The opening and the late endgame are left alone.
        assert!(!judged(39, 1000, 60.0).mistake);
        assert!(judged(40, 1000, 60.0).mistake);
        assert!(!judged(253, 1000, 60.0).mistake);
        // Black's view after the move is the played move's own value.
        assert_eq!(m.after, (0.5, 0.0));
        assert_eq!(m.best.as_ref().map(|b| b.3), Some(6.0));
    }
}

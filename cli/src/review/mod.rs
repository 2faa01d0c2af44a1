//! `kosumi review GAME.sgf`: every position of a game searched, the results
//! written back as an SGF that Sabaki, KaTrain or any editor opens (each
//! move's win rate and score in its comment, kosumi's better move and its
//! variation where the played move lost more than a threshold, the biggest
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
use kosumi::search::{Analysis, Policy, SearchParams};
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
    /// Playouts per position.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
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
    /// A move is a mistake when it loses this many percentage points of win
    /// rate for its player (and is not kosumi's choice).
    #[arg(long, default_value_t = 10.0)]
    pub threshold: f64,
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
    /// Black's win rate and score lead after it.
    pub after: (f64, f64),
    /// kosumi's choice in the position before it: the move, its variation,
    /// and Black's win rate and score lead after it.
    pub best: Option<(Move, Vec<Move>, f64, f64)>,
    /// Win rate lost by the mover, in [−1, 1].
    pub loss: f64,
    /// Points of score lead lost by the mover.
    pub score_loss: f64,
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
    /// The threshold, as a fraction.
    pub threshold: f64,
    /// How much better a search finds the position for the player to move
    /// than the previous search found the move that led to it (win rate,
    /// points; the median over the moves both searches looked at).
    pub tempo: (f64, f64),
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

fn black_view(a: &Analysis, to_move: Color) -> (f64, f64) {
    if to_move == Color::Black {
        (a.winrate, a.score_lead)
    } else {
        (1.0 - a.winrate, -a.score_lead)
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
            evaluate: std::env::var("KOSUMI_REVIEW_PLAYED")
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .and_then(|n| moves.get(turn).map(|m| (m.1, n))),
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
    if let Ok(path) = std::env::var("KOSUMI_REVIEW_DUMP") {
        let mut out = String::new();
        for (k, a) in analyses.iter().enumerate() {
            let cands: Vec<serde_json::Value> = a.candidates.iter().map(|c| serde_json::json!({
                "move": Vertex::from_move(c.mv, record.size).to_string(), "visits": c.visits,
                "winrate": c.winrate, "score": c.score_lead, "stdev": c.score_stdev, "prior": c.prior})).collect();
            out.push_str(&serde_json::json!({"turn": k, "to_move": to_moves[k].to_string(),
                "played": moves.get(k).map(|m| Vertex::from_move(m.1, record.size).to_string()),
                "root": {"visits": a.root.visits, "winrate": a.root.winrate, "score": a.root.score_lead, "stdev": a.root.score_stdev},
                "winrate": a.winrate, "score": a.score_lead, "candidates": cands}).to_string());
            out.push('\n');
        }
        std::fs::write(path, out)?;
    }
    let black: Vec<(f64, f64)> = analyses
        .iter()
        .zip(&to_moves)
        .map(|(a, &c)| black_view(a, c))
        .collect();
    let threshold = args.threshold / 100.0;
    let (judged, tempo) = judge(&moves, &analyses, &to_moves, &black, threshold);
    let effort = match args.time {
        Some(t) => format!("{t} s per position"),
        None => format!("{} playouts per position", args.playouts),
    };
    Ok(Review {
        size: record.size,
        record,
        black,
        moves: judged,
        effort,
        threshold,
        tempo,
    })
}

/// Judges every move. Its value blends two estimates, weighted by their
/// playouts: the played move's own value in the search before it, and the
/// next search's value of the position it made (that search's best move),
/// corrected by the game's tempo bias. Returns the moves and that bias.
///
/// Why: a move the search gave few playouts has a noisy value of its own
/// (twelve playouts: about 14 points of win rate either way), while the
/// next search rates the position a little better for its player to move
/// than the previous search rated the move that led there (the best of
/// many noisy estimates is optimistic). The median of that gap over the
/// moves the first search looked at well (100 playouts or more) corrects it.
fn judge(
    moves: &[(Color, Move)],
    analyses: &[Analysis],
    to_moves: &[Color],
    black: &[(f64, f64)],
    threshold: f64,
) -> (Vec<MoveReview>, (f64, f64)) {
    let view = |k: usize, c: &kosumi::search::Candidate| {
        let a = Analysis {
            winrate: c.winrate,
            score_lead: c.score_lead,
            ..Analysis::default()
        };
        black_view(&a, to_moves[k])
    };
    let played = |k: usize| {
        analyses[k]
            .candidates
            .iter()
            .find(|c| c.mv == moves[k].1 && c.visits > 0)
    };
    let weight = |k: usize| analyses[k].candidates.first().map_or(0, |c| c.visits) as f64;
    let sign = |c: Color| if c == Color::Black { 1.0 } else { -1.0 };
    // The gap, in the mover's favour, between the played move's value in
    // its search and the next search's value of the position it made.
    let (mut gap_w, mut gap_s): (Vec<f64>, Vec<f64>) = (0..moves.len())
        .filter_map(|k| {
            let c = played(k).filter(|c| c.visits >= 100)?;
            let own = view(k, c);
            let next = black[k + 1];
            let s = sign(moves[k].0);
            Some((s * (own.0 - next.0), s * (own.1 - next.1)))
        })
        .unzip();
    let median = |v: &mut Vec<f64>| {
        if v.len() < 5 {
            return 0.0;
        }
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let tempo = (median(&mut gap_w), median(&mut gap_s));
    let judged = moves
        .iter()
        .enumerate()
        .map(|(k, &(color, mv))| {
            let s = sign(color);
            let best = analyses[k].candidates.first().map(|c| {
                let (w, sc) = view(k, c);
                (c.mv, c.pv.clone(), w, sc)
            });
            let before = black[k];
            let next = black[k + 1];
            let next = ((next.0 + s * tempo.0).clamp(0.0, 1.0), next.1 + s * tempo.1);
            let after = match played(k) {
                Some(c) => {
                    let own = view(k, c);
                    let (n, m) = (c.visits as f64, weight(k + 1).max(1.0));
                    let mix = |a: f64, b: f64| (n * a + m * b) / (n + m);
                    (mix(own.0, next.0), mix(own.1, next.1))
                }
                None => next,
            };
            let loss = s * (before.0 - after.0);
            let score_loss = s * (before.1 - after.1);
            let agreed = best.as_ref().is_some_and(|b| b.0 == mv);
            MoveReview {
                number: k + 1,
                color,
                mv,
                before,
                after,
                best,
                loss,
                score_loss,
                mistake: !agreed && to_moves[k] == color && loss >= threshold,
            }
        })
        .collect();
    (judged, tempo)
}

fn default_out(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy());
    game.with_file_name(format!("{stem}-review.sgf"))
}

/// Runs `kosumi review`; returns the exit status.
pub fn run(args: &ReviewArgs) -> i32 {
    if !(args.threshold > 0.0 && args.threshold <= 100.0) {
        eprintln!(
            "kosumi review: --threshold {} is not a percentage above 0",
            args.threshold
        );
        return 2;
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
            "kosumi review: {} moves in {:.1} s; {mistakes} mistakes; kosumi's first choice was played {:.0}% (Black) and {:.0}% (White) of the time; tempo correction {:.1}% and {:.1} points; wrote {}",
            review.moves.len(),
            start.elapsed().as_secs_f64(),
            pct(review.agreement(Color::Black)),
            pct(review.agreement(Color::White)),
            review.tempo.0 * 100.0,
            review.tempo.1,
            out.display()
        );
    }
    Ok(())
}

/// `B R3`-style name of a move.
pub fn move_text(color: Color, mv: Move, size: usize) -> String {
    format!("{} {}", color.letter(), Vertex::from_move(mv, size))
}

//! `kosumi selfplay`: a soak test. Fast kosumi-against-kosumi games in this
//! process, each engine a GTP [`Engine`] served by [`Engine::run`] on its
//! own thread through OS pipes, so every command takes the whole path a
//! controller's would (reader thread, interrupts, response framing).
//!
//! Games cycle through the board sizes; a seeded generator picks the rules,
//! handicap (fixed, or free placed by Black and set for White), undos, an
//! analysis started and stopped mid-search (`lz-analyze` or
//! `kata-analyze`, interrupted by the next command) and `printsgf` /
//! `loadsgf` round trips. A referee [`Game`] checks every move; the
//! engines' boards are compared with it after undos, round trips, every
//! tenth move and the end; both engines' `final_score` must parse and agree
//! with the referee's count. Peak memory (VmHWM) is reported after game 10
//! and at the end. Any problem stops the run with a non-zero exit.

use kosumi::board::{fixed_handicap, Color, Game, GameResult, Move, Point, RuleSet, Rules};
use kosumi::gtp::engine::{Engine, EngineOptions};
use kosumi::search::{judge, SearchParams};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, PipeReader, PipeWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Options of `kosumi selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Seed of the whole run (game choices and both engines' searches).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of the first game: `--start 840 --games 1` replays game 840
    /// of a run with the same seed and sizes (its set-up and, up to the
    /// interrupted analysis, its moves).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub start: u64,
    /// Board sizes, used in turn.
    #[arg(long, value_delimiter = ',', default_value = "9,13,19",
          value_parser = clap::value_parser!(u8).range(2..=25))]
    pub sizes: Vec<u8>,
    /// Playouts per move on 9x9; larger boards get this many scaled by
    /// 81 / points, at least 8 (small budgets keep games fast).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Search threads per engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Tree memory per engine, e.g. 64M.
    #[arg(long, default_value = "64M", value_parser = super::parse_memory)]
    pub max_memory: usize,
    /// Stop with an error when an engine gives no answer for this many seconds.
    #[arg(long, default_value_t = 300.0)]
    pub stall_seconds: f64,
    /// Only the summary, no line per game.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfplaySummary {
    /// Games finished.
    pub games: usize,
    /// Moves played (passes included, undone moves not).
    pub moves: usize,
    /// Games won by Black, by White, drawn.
    pub results: [usize; 3],
    /// Games that ended by resignation.
    pub resignations: usize,
    /// Games with handicap stones.
    pub handicap_games: usize,
    /// Moves taken back with `undo`.
    pub undos: usize,
    /// Analyses started and interrupted.
    pub analyses: usize,
    /// `printsgf` / `loadsgf` round trips checked.
    pub round_trips: usize,
    /// Peak resident memory after game 10, in KiB (when there were 10 games).
    pub peak_rss_at_10_kib: Option<u64>,
    /// Peak resident memory at the end, in KiB.
    pub peak_rss_kib: Option<u64>,
    /// Resident memory at the end, in KiB.
    pub rss_kib: Option<u64>,
}

/// Runs `kosumi selfplay`; the exit status: 0 all games fine, 1 a problem.
pub fn run(args: &SelfplayArgs) -> i32 {
    if !(args.stall_seconds.is_finite() && args.stall_seconds > 0.0) {
        eprintln!("error: --stall-seconds must be a positive number");
        return 2;
    }
    let started = Instant::now();
    match play_all(args, &mut |line| {
        if !args.quiet {
            eprintln!("{line}");
        }
    }) {
        Ok(s) => {
            let secs = started.elapsed().as_secs_f64();
            outln!(
                "selfplay: {} games, {} moves in {:.1} s ({:.2} s/game); Black won {}, White won {}, draws {}, resignations {}",
                s.games, s.moves, secs, secs / s.games.max(1) as f64, s.results[0], s.results[1], s.results[2], s.resignations
            );
            outln!(
                "selfplay: {} handicap games, {} undos, {} interrupted analyses, {} printsgf/loadsgf round trips",
                s.handicap_games, s.undos, s.analyses, s.round_trips
            );
            let mib = |k: Option<u64>| {
                k.map_or("unknown".into(), |k| {
                    format!("{:.1} MiB", k as f64 / 1024.0)
                })
            };
            if s.peak_rss_at_10_kib.is_some() {
                outln!(
                    "selfplay: peak RSS after game 10: {}",
                    mib(s.peak_rss_at_10_kib)
                );
            }
            outln!(
                "selfplay: peak RSS at the end: {}, RSS now: {}",
                mib(s.peak_rss_kib),
                mib(s.rss_kib)
            );
            outln!("selfplay: no problem found");
            0
        }
        Err(e) => {
            eprintln!("selfplay: FAILED: {e}");
            1
        }
    }
}

/// A `/proc/self/status` field in KiB (`VmHWM`, `VmRSS`); `None` off Linux.
pub fn proc_status_kib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    text.lines()
        .find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// Plays all games; `log` gets one line per game.
pub fn play_all(args: &SelfplayArgs, log: &mut dyn FnMut(&str)) -> Result<SelfplaySummary, String> {
    if args.sizes.is_empty() {
        return Err("no board size given".into());
    }
    let progress = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = spawn_watchdog(progress.clone(), done.clone(), args.stall_seconds);
    let scratch = std::env::temp_dir().join(format!(
        "kosumi-selfplay-{}-{}.sgf",
        std::process::id(),
        args.seed
    ));
    let mut ctx = Context {
        players: [
            Player::start(options(args, 0), progress.clone())?,
            Player::start(options(args, 1), progress.clone())?,
        ],
        scratch,
        summary: SelfplaySummary::default(),
    };
    let mut result = Ok(());
    let first = args.start as usize;
    for g in first..first + args.games {
        let size = args.sizes[(g - 1) % args.sizes.len()] as usize;
        let seed = args
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(g as u64);
        match ctx.play_game(g, size, seed, args.playouts) {
            Ok(line) => log(&line),
            Err(e) => {
                result = Err(format!("game {g} ({size}x{size}, seed {seed}): {e}"));
                break;
            }
        }
        if g + 1 - first == 10 {
            ctx.summary.peak_rss_at_10_kib = proc_status_kib("VmHWM");
            if let Some(k) = ctx.summary.peak_rss_at_10_kib {
                log(&format!(
                    "peak RSS after game 10: {:.1} MiB",
                    k as f64 / 1024.0
                ));
            }
        }
    }
    let _ = std::fs::remove_file(&ctx.scratch);
    let mut summary = std::mem::take(&mut ctx.summary);
    for p in ctx.players {
        let closed = p.close();
        if result.is_ok() {
            result = closed;
        }
    }
    done.store(true, Ordering::SeqCst);
    drop(watchdog);
    result?;
    summary.peak_rss_kib = proc_status_kib("VmHWM");
    summary.rss_kib = proc_status_kib("VmRSS");
    Ok(summary)
}

fn options(args: &SelfplayArgs, player: u64) -> EngineOptions {
    EngineOptions {
        search: SearchParams {
            threads: args.threads as usize,
            max_memory: args.max_memory,
            seed: args.seed.wrapping_add(player << 32),
            quiet: true,
            ..SearchParams::default()
        },
        ..EngineOptions::default()
    }
}

/// Ends the process when no engine answers for `stall` seconds: a hung
/// engine must fail the soak, not hang it.
fn spawn_watchdog(progress: Arc<AtomicU64>, done: Arc<AtomicBool>, stall: f64) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut last = progress.load(Ordering::SeqCst);
        let mut since = Instant::now();
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(200));
            let now = progress.load(Ordering::SeqCst);
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed().as_secs_f64() > stall {
                eprintln!("selfplay: FAILED: no answer from an engine for {stall} s");
                std::process::exit(1);
            }
        }
    })
}

/// One engine behind a pair of pipes, served by [`Engine::run`].
struct Player {
    to_engine: PipeWriter,
    from_engine: BufReader<PipeReader>,
    thread: JoinHandle<std::io::Result<()>>,
    progress: Arc<AtomicU64>,
}

impl Player {
    fn start(options: EngineOptions, progress: Arc<AtomicU64>) -> Result<Player, String> {
        let (in_read, in_write) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
        let (out_read, out_write) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
        let thread = std::thread::spawn(move || Engine::new(options).run(in_read, out_write));
        Ok(Player {
            to_engine: in_write,
            from_engine: BufReader::new(out_read),
            thread,
            progress,
        })
    }

    fn send_line(&mut self, cmd: &str) -> Result<(), String> {
        writeln!(self.to_engine, "{cmd}")
            .and_then(|_| self.to_engine.flush())
            .map_err(|e| format!("'{cmd}': cannot write to the engine: {e}"))
    }

    fn read_line(&mut self, cmd: &str) -> Result<String, String> {
        let mut line = String::new();
        match self.from_engine.read_line(&mut line) {
            Ok(0) => Err(format!("'{cmd}': the engine closed its output")),
            Ok(_) => {
                self.progress.fetch_add(1, Ordering::SeqCst);
                Ok(line.trim_end_matches(['\n', '\r']).to_string())
            }
            Err(e) => Err(format!("'{cmd}': cannot read from the engine: {e}")),
        }
    }

    /// Reads one response: `Ok(text)` for `=`, `Err` for `?` or bad framing.
    fn response(&mut self, cmd: &str) -> Result<Result<String, String>, String> {
        let first = self.read_line(cmd)?;
        let (ok, head) = if let Some(rest) = first.strip_prefix('=') {
            (true, rest)
        } else if let Some(rest) = first.strip_prefix('?') {
            (false, rest)
        } else {
            return Err(format!("'{cmd}': response starts with {first:?}"));
        };
        let mut text = head.trim_start().to_string();
        loop {
            let line = self.read_line(cmd)?;
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// Sends a command; a `?` answer is a problem.
    fn must(&mut self, cmd: &str) -> Result<String, String> {
        self.send_line(cmd)?;
        self.response(cmd)?
            .map_err(|e| format!("'{cmd}' failed: {e}"))
    }

    /// Starts an analysis, waits for its first `info` line, then sends
    /// `next`, which must stop it; returns `next`'s response.
    fn interrupted_analysis(&mut self, analyze: &str, next: &str) -> Result<String, String> {
        self.send_line(analyze)?;
        let head = self.read_line(analyze)?;
        if head != "=" {
            return Err(format!("'{analyze}': stream starts with {head:?}"));
        }
        let mut infos = 0;
        loop {
            let line = self.read_line(analyze)?;
            if line.is_empty() {
                return Err(format!("'{analyze}' ended before it was interrupted"));
            }
            if !line.starts_with("info move ") {
                return Err(format!("'{analyze}' wrote {line:?}"));
            }
            infos += 1;
            if infos == 1 {
                break;
            }
        }
        self.send_line(next)?;
        loop {
            let line = self.read_line(analyze)?;
            if line.is_empty() {
                break;
            }
            if !line.starts_with("info move ") {
                return Err(format!("'{analyze}' wrote {line:?}"));
            }
        }
        self.response(next)?
            .map_err(|e| format!("'{next}' after '{analyze}' failed: {e}"))
    }

    fn close(mut self) -> Result<(), String> {
        self.must("quit")?;
        drop(self.to_engine);
        match self.thread.join() {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("engine stopped with an error: {e}")),
            Err(_) => Err("engine thread panicked".into()),
        }
    }
}

struct Context {
    players: [Player; 2],
    scratch: PathBuf,
    summary: SelfplaySummary,
}

fn vertex(mv: Move, size: usize) -> String {
    match mv {
        Move::Play(p) => p.to_gtp(size),
        Move::Pass => "pass".into(),
    }
}

/// A GTP vertex (`D4`, `pass`) on a board of side `size`.
fn parse_vertex(text: &str, size: usize) -> Option<Move> {
    kosumi::gtp::parse_vertex(text.trim(), size).ok()
}

fn stones_text(game: &Game, color: Color) -> Vec<String> {
    let board = game.board();
    let size = board.size();
    let mut v: Vec<String> = board
        .points()
        .filter(|&p| board.get(p) == Some(color))
        .map(|p| p.to_gtp(size))
        .collect();
    v.sort();
    v
}

impl Context {
    /// Both engines' boards must equal the referee's.
    fn check_boards(&mut self, referee: &Game, when: &str) -> Result<(), String> {
        for (i, p) in self.players.iter_mut().enumerate() {
            for color in Color::ALL {
                let mut theirs: Vec<String> = p
                    .must(&format!("list_stones {color}"))?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                theirs.sort();
                if theirs != stones_text(referee, color) {
                    return Err(format!(
                        "{when}: engine {} has other {color} stones than the referee\n{}",
                        i + 1,
                        referee.board()
                    ));
                }
            }
        }
        Ok(())
    }

    /// `printsgf FILE`, `loadsgf FILE` on engine `i`: the record and the
    /// board must come back the same.
    fn round_trip(&mut self, i: usize, referee: &Game) -> Result<(), String> {
        let path = self.scratch.display().to_string();
        let p = &mut self.players[i];
        let before = p.must("printsgf")?;
        p.must(&format!("printsgf {path}"))?;
        let to_move = p.must(&format!("loadsgf {path}"))?;
        if to_move != referee.to_move().to_string() {
            return Err(format!(
                "loadsgf says {to_move} to move, the referee {}",
                referee.to_move()
            ));
        }
        let after = p.must("printsgf")?;
        if after != before {
            return Err(format!(
                "printsgf differs after loadsgf:\n{before}\n---\n{after}"
            ));
        }
        self.summary.round_trips += 1;
        self.check_boards(referee, "after loadsgf")
    }

    fn both(&mut self, cmd: &str) -> Result<[String; 2], String> {
        Ok([self.players[0].must(cmd)?, self.players[1].must(cmd)?])
    }

    fn play_game(
        &mut self,
        g: usize,
        size: usize,
        seed: u64,
        playouts: u64,
    ) -> Result<String, String> {
        let mut rng = StdRng::seed_from_u64(seed);
        let rules = if rng.gen_bool(0.5) {
            Rules::japanese()
        } else {
            Rules::new(RuleSet::Chinese)
        };
        let points = (size * size) as u64;
        let budget = (playouts * 81 / points.max(1)).max(8).min(playouts.max(8));
        let handicap = if rng.gen_bool(0.25) {
            let n = rng.gen_range(2..=if size < 13 { 4 } else { 9 });
            if fixed_handicap(size, n).is_some() {
                n
            } else {
                0
            }
        } else {
            0
        };
        let komi = if handicap > 0 {
            rules.handicap_komi()
        } else {
            rules.default_komi()
        };
        self.both(&format!("kgs-rules {}", rules.name()))?;
        self.both(&format!("boardsize {size}"))?;
        self.both("clear_board")?;
        self.both(&format!("komi {komi}"))?;
        self.both(&format!("kosumi-param playouts {budget}"))?;
        self.both(&format!("kosumi-param seed {seed}"))?;
        let mut referee = Game::new(size, rules);
        referee.set_komi(komi);
        if handicap > 0 {
            let fixed = rng.gen_bool(0.5);
            let stones = if fixed {
                let answers = self.both(&format!("fixed_handicap {handicap}"))?;
                if answers[0] != answers[1] {
                    return Err(format!("fixed_handicap answers differ: {answers:?}"));
                }
                answers[0].clone()
            } else {
                let placed = self.players[0].must(&format!("place_free_handicap {handicap}"))?;
                self.players[1].must(&format!("set_free_handicap {placed}"))?;
                placed
            };
            let mut points: Vec<Point> = stones
                .split_whitespace()
                .map(|v| match parse_vertex(v, size) {
                    Some(Move::Play(p)) => Ok(p),
                    _ => Err(format!("handicap vertex {v:?}")),
                })
                .collect::<Result<_, _>>()?;
            points.sort_by_key(|p| p.index());
            points.dedup();
            if points.len() != handicap {
                return Err(format!("asked {handicap} handicap stones, got '{stones}'"));
            }
            if fixed {
                let mut standard = fixed_handicap(size, handicap).unwrap_or_default();
                standard.sort_by_key(|p| p.index());
                if points != standard {
                    return Err(format!(
                        "fixed_handicap {handicap} put stones at '{stones}'"
                    ));
                }
            }
            referee.place_handicap(&points);
            self.summary.handicap_games += 1;
        }
        self.check_boards(&referee, "after set-up")?;

        let max_moves = 3 * size * size;
        let analysis_at = rng.gen_range(0..size * 3);
        let round_trip_at = rng.gen_range(0..size * 4);
        let (mut undos, mut analyses, mut trips) = (0, 0, 0);
        let mut resigned: Option<Color> = None;
        while !referee.is_over() && referee.moves().len() < max_moves {
            let color = referee.to_move();
            let mover = color.index();
            let n = referee.moves().len();
            let genmove = format!("genmove {color}");
            let answer = if n == analysis_at && analyses == 0 {
                analyses += 1;
                let kind = if rng.gen_bool(0.5) {
                    "lz-analyze"
                } else {
                    "kata-analyze"
                };
                self.players[mover].interrupted_analysis(&format!("{kind} {color} 2"), &genmove)?
            } else {
                self.players[mover].must(&genmove)?
            };
            if answer.eq_ignore_ascii_case("resign") {
                resigned = Some(color);
                break;
            }
            let Some(mv) = parse_vertex(&answer, size) else {
                return Err(format!("'{genmove}' answered {answer:?}"));
            };
            if let Err(e) = referee.play(color, mv) {
                return Err(format!(
                    "{color} {} is illegal ({e}) at move {}\n{}",
                    vertex(mv, size),
                    n + 1,
                    referee.board()
                ));
            }
            self.players[1 - mover].must(&format!("play {color} {}", vertex(mv, size)))?;
            if n + 1 == round_trip_at {
                self.round_trip(rng.gen_range(0..2), &referee)?;
                trips += 1;
            }
            if (n + 1).is_multiple_of(10) {
                self.check_boards(&referee, &format!("at move {}", n + 1))?;
            }
            if referee.moves().len() >= 2 && !referee.is_over() && rng.gen_bool(0.02) {
                let k = rng.gen_range(1..=2);
                for _ in 0..k {
                    self.both("undo")?;
                    if !referee.undo() {
                        return Err("the referee cannot undo".into());
                    }
                }
                undos += k;
                self.check_boards(&referee, "after undo")?;
            }
        }
        self.round_trip(rng.gen_range(0..2), &referee)?;
        trips += 1;
        self.check_boards(&referee, "at the end")?;
        let scores = self.both("final_score")?;
        let ours = judge::final_score(&referee).to_string();
        for (i, s) in scores.iter().enumerate() {
            if s.parse::<GameResult>().is_err() {
                return Err(format!(
                    "engine {}: final_score {s:?} does not parse",
                    i + 1
                ));
            }
        }
        if scores.iter().any(|s| *s != ours) {
            let mut dump = String::new();
            for p in &mut self.players {
                dump.push_str(&p.must("printsgf")?);
                dump.push('\n');
            }
            let path = self.scratch.with_extension("failure.sgf");
            let _ = std::fs::write(&path, dump);
            return Err(format!(
                "final_score: engine 1 {}, engine 2 {}, the referee counts {ours} ({} rules, prisoners black {} white {}, komi {}); both engines' records in {}",
                scores[0],
                scores[1],
                rules.name(),
                referee.board().captures(Color::Black),
                referee.board().captures(Color::White),
                referee.komi(),
                path.display()
            ));
        }
        let result = match resigned {
            Some(c) => GameResult::Resignation(c.opponent()),
            None => ours
                .parse()
                .map_err(|_| format!("the referee counts {ours}"))?,
        };
        let s = &mut self.summary;
        s.games += 1;
        s.moves += referee.moves().len();
        s.results[result.winner().map_or(2, Color::index)] += 1;
        s.resignations += usize::from(resigned.is_some());
        s.undos += undos;
        s.analyses += analyses;
        Ok(format!(
            "game {g}: {size}x{size} {} H{handicap} {budget} playouts: {result} in {} moves ({undos} undos, {analyses} analyses, {trips} round trips)",
            rules.name(),
            referee.moves().len()
        ))
    }
}

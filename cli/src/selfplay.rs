//! `kosumi selfplay`: a soak test. Fast kosumi-against-kosumi games in this
//! process through the one game loop ([`crate::game`]), each engine a GTP
//! engine on its own thread behind OS pipes ([`Client::in_process`]), so
//! every command takes the whole path a controller's would (reader thread,
//! interrupts, response framing).
//!
//! Games cycle through the board sizes; a seeded generator picks the rules,
//! handicap (fixed, or free placed by Black and set for White), undos, an
//! analysis started and stopped mid-search (`lz-analyze` or
//! `kata-analyze`, interrupted by the next command) and `printsgf` /
//! `loadsgf` round trips. A referee [`Game`] checks every move; the
//! engines' boards are compared with it after undos, round trips, every
//! tenth move and the end; both engines' `final_score` must parse and agree
//! with the referee's count. Peak memory (VmHWM) is reported after game 10
//! and at the end. Any problem (an engine silent for `--stall-seconds`
//! among them) stops the run with a non-zero exit.

use crate::client::{Client, EngineError, Failure, Response};
use crate::game::{self, EndReason, Hooks, Settings};
use anyhow::{anyhow, bail, ensure};
use kosumi::board::{fixed_handicap, Color, Game, GameResult, Move, Point, RuleSet, Rules, Vertex};
use kosumi::gtp::engine::EngineOptions;
use kosumi::search::SearchParams;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
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
            eprintln!("selfplay: FAILED: {e:#}");
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
pub fn play_all(args: &SelfplayArgs, log: &mut dyn FnMut(&str)) -> anyhow::Result<SelfplaySummary> {
    ensure!(!args.sizes.is_empty(), "no board size given");
    let scratch = std::env::temp_dir().join(format!(
        "kosumi-selfplay-{}-{}.sgf",
        std::process::id(),
        args.seed
    ));
    let start = |i: u64| Client::in_process(&format!("engine {}", i + 1), options(args, i));
    let mut players = [start(0)?, start(1)?];
    let mut soak = Soak {
        scratch: &scratch,
        // A hung engine must fail the soak, not hang it.
        timeout: Duration::from_secs_f64(args.stall_seconds.min(1e9)),
        summary: SelfplaySummary::default(),
        rng: StdRng::seed_from_u64(args.seed),
        analysis_at: 0,
        round_trip_at: 0,
        counts: [0; 3],
    };
    let mut result = Ok(());
    let first = args.start as usize;
    for g in first..first + args.games {
        let size = args.sizes[(g - 1) % args.sizes.len()] as usize;
        let seed = args
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(g as u64);
        match soak.play_game(players.each_mut(), g, size, seed, args.playouts) {
            Ok(line) => log(&line),
            Err(e) => {
                result = Err(e.context(format!("game {g} ({size}x{size}, seed {seed})")));
                break;
            }
        }
        if g + 1 - first == 10 {
            soak.summary.peak_rss_at_10_kib = proc_status_kib("VmHWM");
            if let Some(k) = soak.summary.peak_rss_at_10_kib {
                log(&format!(
                    "peak RSS after game 10: {:.1} MiB",
                    k as f64 / 1024.0
                ));
            }
        }
    }
    let _ = std::fs::remove_file(&scratch);
    let mut summary = soak.summary;
    for p in &mut players {
        let closed = p.quit();
        if result.is_ok() {
            result = closed.map_err(Into::into);
        }
    }
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

/// Black's engine first, then White's.
type Players<'a> = [&'a mut Client; 2];

/// The run, and the game loop's hooks: in each game one analysis
/// interrupted by a `genmove`, a round trip, the boards compared every
/// tenth move, and random undos.
struct Soak<'a> {
    scratch: &'a Path,
    timeout: Duration,
    summary: SelfplaySummary,
    /// The game's generator, and the moves it picked for the analysis and
    /// the round trip.
    rng: StdRng,
    analysis_at: usize,
    round_trip_at: usize,
    /// The game's undos, analyses and round trips.
    counts: [usize; 3],
}

impl Soak<'_> {
    fn must(&self, p: &mut Client, cmd: &str) -> Result<String, EngineError> {
        p.must(cmd, self.timeout)
    }

    fn both(&self, players: &mut Players, cmd: &str) -> Result<[String; 2], EngineError> {
        Ok([self.must(players[0], cmd)?, self.must(players[1], cmd)?])
    }

    /// Both engines' boards must equal the referee's.
    fn check_boards(
        &self,
        players: &mut Players,
        referee: &Game,
        when: &str,
    ) -> anyhow::Result<()> {
        for (i, p) in players.iter_mut().enumerate() {
            for color in Color::ALL {
                let mut theirs: Vec<String> = self
                    .must(p, &format!("list_stones {color}"))?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                theirs.sort();
                ensure!(
                    theirs == stones_text(referee, color),
                    "{when}: engine {} has other {color} stones than the referee\n{}",
                    i + 1,
                    referee.board()
                );
            }
        }
        Ok(())
    }

    /// `printsgf FILE`, `loadsgf FILE` on a random engine: the record and
    /// the board must come back the same.
    fn round_trip(&mut self, players: &mut Players, referee: &Game) -> anyhow::Result<()> {
        let path = self.scratch.display().to_string();
        let p = &mut *players[self.rng.gen_range(0..2)];
        let before = self.must(p, "printsgf")?;
        self.must(p, &format!("printsgf {path}"))?;
        let to_move = self.must(p, &format!("loadsgf {path}"))?;
        let theirs = referee.to_move();
        ensure!(
            to_move == theirs.to_string(),
            "loadsgf says {to_move} to move, the referee {theirs}"
        );
        let after = self.must(p, "printsgf")?;
        ensure!(
            after == before,
            "printsgf differs after loadsgf:\n{before}\n---\n{after}"
        );
        self.counts[2] += 1;
        self.check_boards(players, referee, "after loadsgf")
    }

    /// Plays game `g`; its line for the log.
    fn play_game(
        &mut self,
        mut players: Players,
        g: usize,
        size: usize,
        seed: u64,
        playouts: u64,
    ) -> anyhow::Result<String> {
        self.rng = StdRng::seed_from_u64(seed);
        self.counts = [0; 3];
        let rng = &mut self.rng;
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
        let players = &mut players;
        self.both(players, &format!("kgs-rules {}", rules.name()))?;
        self.both(players, &format!("boardsize {size}"))?;
        self.both(players, "clear_board")?;
        self.both(players, &format!("komi {komi}"))?;
        self.both(players, &format!("kosumi-param playouts {budget}"))?;
        self.both(players, &format!("kosumi-param seed {seed}"))?;
        let mut referee = Game::new(size, rules);
        referee.set_komi(komi);
        if handicap > 0 {
            let fixed = self.rng.gen_bool(0.5);
            let stones = if fixed {
                let answers = self.both(players, &format!("fixed_handicap {handicap}"))?;
                ensure!(
                    answers[0] == answers[1],
                    "fixed_handicap answers differ: {answers:?}"
                );
                answers[0].clone()
            } else {
                let placed = self.must(players[0], &format!("place_free_handicap {handicap}"))?;
                self.must(players[1], &format!("set_free_handicap {placed}"))?;
                placed
            };
            let mut points: Vec<Point> = stones
                .split_whitespace()
                .map(
                    |v| match v.parse::<Vertex>().and_then(|v| v.to_move(size)) {
                        Ok(Move::Play(p)) => Ok(p),
                        _ => Err(anyhow!("handicap vertex {v:?}")),
                    },
                )
                .collect::<Result<_, _>>()?;
            points.sort_by_key(|p| p.index());
            points.dedup();
            ensure!(
                points.len() == handicap,
                "asked {handicap} handicap stones, got '{stones}'"
            );
            if fixed {
                let mut standard = fixed_handicap(size, handicap).unwrap_or_default();
                standard.sort_by_key(|p| p.index());
                ensure!(
                    points == standard,
                    "fixed_handicap {handicap} put stones at '{stones}'"
                );
            }
            referee.place_handicap(&points);
            self.summary.handicap_games += 1;
        }
        self.check_boards(players, &referee, "after set-up")?;

        self.analysis_at = self.rng.gen_range(0..size * 3);
        self.round_trip_at = self.rng.gen_range(0..size * 4);
        let settings = Settings {
            max_moves: 3 * size * size,
            move_timeout: self.timeout,
            time: None,
            time_margin: 0.0,
        };
        let [a, b] = players;
        let finished = game::play(&mut referee, [&mut **a, &mut **b], &settings, self)?;
        let (ending, _) = finished.expect("selfplay never stops a game");
        let resigned = match ending.reason {
            EndReason::TwoPasses | EndReason::MoveCap => None,
            EndReason::Resignation => ending.winner.map(Color::opponent),
            _ => bail!("{}\n{}", ending.detail, referee.board()),
        };
        self.round_trip(players, &referee)?;
        self.check_boards(players, &referee, "at the end")?;
        let scores = self.both(players, "final_score")?;
        let ours = kosumi::search::referee().final_score(&referee).to_string();
        for (i, s) in scores.iter().enumerate() {
            ensure!(
                s.parse::<GameResult>().is_ok(),
                "engine {}: final_score {s:?} does not parse",
                i + 1
            );
        }
        if scores.iter().any(|s| *s != ours) {
            let mut dump = String::new();
            for p in players.iter_mut() {
                dump.push_str(&self.must(p, "printsgf")?);
                dump.push('\n');
            }
            let path = self.scratch.with_extension("failure.sgf");
            let _ = std::fs::write(&path, dump);
            bail!(
                "final_score: engine 1 {}, engine 2 {}, the referee counts {ours} ({} rules, prisoners black {} white {}, komi {}); both engines' records in {}",
                scores[0],
                scores[1],
                rules.name(),
                referee.board().captures(Color::Black),
                referee.board().captures(Color::White),
                referee.komi(),
                path.display()
            );
        }
        let result = match resigned {
            Some(c) => GameResult::Resignation(c.opponent()),
            None => ours
                .parse()
                .map_err(|_| anyhow!("the referee counts {ours}"))?,
        };
        let [undos, analyses, trips] = self.counts;
        let s = &mut self.summary;
        s.games += 1;
        s.moves += referee.moves().len();
        s.results[result.winner().map_or(2, Color::index)] += 1;
        s.resignations += usize::from(resigned.is_some());
        s.undos += undos;
        s.analyses += analyses;
        s.round_trips += trips;
        Ok(format!(
            "game {g}: {size}x{size} {} H{handicap} {budget} playouts: {result} in {} moves ({undos} undos, {analyses} analyses, {trips} round trips)",
            rules.name(),
            referee.moves().len()
        ))
    }
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

impl Hooks for Soak<'_> {
    type Error = anyhow::Error;

    fn genmove(
        &mut self,
        game: &Game,
        client: &mut Client,
        genmove: &str,
        limit: Duration,
    ) -> Result<Response, EngineError> {
        if game.moves().len() != self.analysis_at || self.counts[1] > 0 {
            return client.send(genmove, limit);
        }
        self.counts[1] += 1;
        let kind = if self.rng.gen_bool(0.5) {
            "lz-analyze"
        } else {
            "kata-analyze"
        };
        let analyze = format!("{kind} {} 2", game.to_move());
        let (updates, response) = client.interrupt_stream(&analyze, genmove, limit)?;
        // An analysis must still run when interrupted, and write only updates.
        let wrong = updates.iter().find(|u| !u.starts_with("info move "));
        if updates.is_empty() || wrong.is_some() {
            let line = wrong.cloned().unwrap_or_default();
            return Err(client.error(Failure::Garbage {
                sent: analyze,
                line,
            }));
        }
        Ok(response)
    }

    fn check(&mut self, game: &mut Game, players: &mut Players) -> anyhow::Result<()> {
        let n = game.moves().len();
        if n == self.round_trip_at {
            self.round_trip(players, game)?;
        }
        if n.is_multiple_of(10) {
            self.check_boards(players, game, &format!("at move {n}"))?;
        }
        if n >= 2 && !game.is_over() && self.rng.gen_bool(0.02) {
            let k = self.rng.gen_range(1..=2);
            for _ in 0..k {
                self.both(players, "undo")?;
                ensure!(game.undo(), "the referee cannot undo");
            }
            self.counts[0] += k;
            self.check_boards(players, game, "after undo")?;
        }
        Ok(())
    }
}

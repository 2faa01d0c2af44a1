//! The GTP engine: one table of commands drives dispatch, `list_commands`
//! and `known_command`; each handler runs one parsed [`Command`] against
//! the game, the searcher and the clock.
//!
//! Input is read on its own thread so that a command arriving during
//! analysis (or a `# interrupt` line) stops the search at once, and so that
//! pipelined commands are answered in order without loss.

use super::parse::{
    format_failure, format_success, parse_color, parse_float, parse_int, parse_line, parse_move,
    parse_vertex, preprocess, too_long_reply, Command, InputLine, LineReader,
};
use crate::board::{
    fixed_handicap, traditional_handicap, Color, Game, Move, Point, Rules, Vertex, MAX_SIZE,
};
use crate::score::{count, Judgement, PointStatus};
use crate::search::{referee, Analysis, Clock, Decision, Level, Limits, SearchParams, Searcher};
use crate::sgf::{Event, GameRecord};
use std::error::Error;
use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::Duration;

mod analyze;

use analyze::{ponder_line, write_analysis, write_gogui_gfx, AnalyzeFormat, GOGUI_GFX_INTERVAL};

/// What a handler produced.
enum Outcome {
    /// `= text`.
    Success(String),
    /// `? text`.
    Failure(String),
    /// The handler wrote the whole response itself (analysis streams).
    Streamed,
}

use Outcome::{Failure, Success};

type Handler = fn(&mut Engine, &Command, &mut dyn Write) -> io::Result<Outcome>;

/// One entry of the command table: name, handler, and the most arguments
/// it takes (handlers report missing ones with their own texts).
struct Spec {
    name: &'static str,
    run: Handler,
    max_args: usize,
}

macro_rules! table {
    ($($name:literal => $f:ident ($max:literal)),* $(,)?) => {
        &[$(Spec { name: $name, run: Engine::$f, max_args: $max }),*]
    };
}

/// Every command kosumi answers, in the order `list_commands` gives them.
const COMMANDS: &[Spec] = table! {
    "protocol_version" => cmd_protocol_version (0),
    "name" => cmd_name (0),
    "version" => cmd_version (0),
    "known_command" => cmd_known_command (1),
    "list_commands" => cmd_list_commands (0),
    "quit" => cmd_quit (0),
    "boardsize" => cmd_boardsize (1),
    "clear_board" => cmd_clear_board (0),
    "komi" => cmd_komi (1),
    "play" => cmd_play (2),
    "genmove" => cmd_genmove (1),
    "reg_genmove" => cmd_genmove (1),
    "undo" => cmd_undo (0),
    "gg-undo" => cmd_gg_undo (1),
    "showboard" => cmd_showboard (0),
    "final_score" => cmd_final_score (0),
    "final_status_list" => cmd_final_status_list (1),
    "kgs-genmove_cleanup" => cmd_genmove (1),
    "fixed_handicap" => cmd_handicap (1),
    "place_free_handicap" => cmd_handicap (1),
    "set_free_handicap" => cmd_set_free_handicap (999),
    "time_settings" => cmd_time_settings (3),
    "time_left" => cmd_time_left (3),
    "kgs-time_settings" => cmd_kgs_time_settings (4),
    "kgs-rules" => cmd_kgs_rules (1),
    "loadsgf" => cmd_loadsgf (2),
    "printsgf" => cmd_printsgf (1),
    "list_stones" => cmd_points (1),
    "captures" => cmd_captures (1),
    "is_legal" => cmd_is_legal (2),
    "all_legal" => cmd_points (1),
    "color" => cmd_color (1),
    "countlib" => cmd_liberties (1),
    "findlib" => cmd_liberties (1),
    "top_moves" => cmd_top_moves (1),
    "lz-analyze" => cmd_analyze (999),
    "kata-analyze" => cmd_analyze (999),
    "genmove_analyze" => cmd_genmove_analyze (999),
    "lz-genmove_analyze" => cmd_genmove_analyze (999),
    "kata-genmove_analyze" => cmd_genmove_analyze (999),
    "gogui-analyze_commands" => cmd_gogui_analyze_commands (0),
    "gogui-interrupt" => cmd_gogui_interrupt (0),
    "kosumi-param" => cmd_param (2),
    "kosumi-level" => cmd_level (1),
    "kosumi-ownership" => cmd_ownership (1),
    "kosumi-territory" => cmd_territory (0),
    "kosumi-best_moves" => cmd_best_moves (1),
    "kosumi-pv" => cmd_pv (1),
    "kosumi-statistics" => cmd_statistics (0),
};

/// Settings of an engine, from the command line.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The engine's rules: every new game's until `kgs-rules` (or
    /// `kosumi-param rules`) changes them.
    pub rules: Rules,
    /// Komi until a `komi` command; `None` takes the rules' default.
    pub komi: Option<f64>,
    /// Search settings.
    pub search: SearchParams,
    /// Learned move patterns for the tree priors (`None`: off).
    pub patterns: Option<std::sync::Arc<crate::search::patterns::Model>>,
    /// Whether the learned patterns' 3x3 shapes also draw playout moves.
    pub playout_patterns: bool,
    /// Tunables set by name (see [`crate::search::SearchConfig`]), checked
    /// by the caller.
    pub params: Vec<(String, f64)>,
}

impl Default for EngineOptions {
    /// Japanese rules, default search settings, the built-in patterns.
    fn default() -> Self {
        EngineOptions {
            rules: Rules::japanese(),
            komi: None,
            search: SearchParams::default(),
            patterns: Some(crate::search::patterns::Model::embedded()),
            playout_patterns: false,
            params: Vec::new(),
        }
    }
}

/// The state a GTP session works on.
pub struct Engine {
    game: Game,
    /// The engine's own rules, which every new game starts with. A loaded
    /// SGF file's `RU` applies to that game only.
    rules: Rules,
    /// Komi given by `--komi` or a `komi` command, which stands for every
    /// game (GTP keeps komi across `clear_board`); `None`: the rules' komi.
    komi: Option<f64>,
    searcher: Searcher,
    clock: Clock,
    /// Set to stop the search that is running (input arrived, or `# interrupt`).
    stop: Arc<AtomicBool>,
    /// While true, any new input line stops the search (analysis, pondering).
    stop_on_input: Arc<AtomicBool>,
    /// While true, a `# interrupt` line stops the search.
    searching: Arc<AtomicBool>,
    quit: bool,
    last_analysis: Option<Analysis>,
    /// Live `gogui-gfx:` blocks on stderr while `genmove` thinks; switched
    /// on by `gogui-analyze_commands`, which only GoGui sends.
    gogui_gfx: bool,
    /// The last judgement and the position it judged: controllers ask
    /// `final_score` and several `final_status_list`s of one position, and
    /// a 19x19 judgement takes up to a second.
    judged: Option<(JudgedPosition, Judgement)>,
}

/// What a judgement depends on: the stones, ko and side to move, and the rules.
#[derive(Clone, Copy, PartialEq)]
struct JudgedPosition {
    size: usize,
    hash: u64,
    rules: Rules,
}

/// One item from the reader thread.
enum Input {
    Line(InputLine),
    End,
}

impl Engine {
    /// A new engine with an empty 19x19 board.
    pub fn new(options: EngineOptions) -> Engine {
        let policy = crate::search::Policy::default()
            .with_patterns(options.patterns)
            .with_playout_patterns(options.playout_patterns);
        let mut searcher = Searcher::with_policy(options.search, policy);
        for (name, value) in &options.params {
            if let Err(e) = searcher.set_param(name, *value) {
                eprintln!("kosumi: --param ignored: {e}");
            }
        }
        let mut engine = Engine {
            game: Game::new(19, options.rules),
            rules: options.rules,
            komi: options.komi,
            searcher,
            clock: Clock::none(),
            stop: Arc::new(AtomicBool::new(false)),
            stop_on_input: Arc::new(AtomicBool::new(false)),
            searching: Arc::new(AtomicBool::new(false)),
            quit: false,
            last_analysis: None,
            gogui_gfx: false,
            judged: None,
        };
        engine.new_game(19);
        engine
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether `name` is a command of the table.
    pub fn knows(name: &str) -> bool {
        COMMANDS.iter().any(|c| c.name == name)
    }

    /// The names of all commands, in table order.
    pub fn command_names() -> impl Iterator<Item = &'static str> {
        COMMANDS.iter().map(|c| c.name)
    }

    /// Runs one raw input line and returns the response text to send
    /// (empty when the line gets no response). Streaming commands write to
    /// `out` directly.
    pub fn execute_line(&mut self, raw: &[u8], out: &mut dyn Write) -> io::Result<String> {
        let line = preprocess(raw);
        let Some(cmd) = parse_line(&line) else {
            return Ok(String::new());
        };
        self.execute(&cmd, out)
    }

    /// Runs one parsed command; see [`Engine::execute_line`].
    pub fn execute(&mut self, cmd: &Command, out: &mut dyn Write) -> io::Result<String> {
        let Some(spec) = COMMANDS.iter().find(|c| c.name == cmd.name) else {
            return Ok(format_failure(cmd.id, "unknown command"));
        };
        if cmd.args.len() > spec.max_args {
            return Ok(format_failure(cmd.id, "too many arguments"));
        }
        Ok(match (spec.run)(self, cmd, out)? {
            Success(text) => format_success(cmd.id, &text),
            Failure(text) => format_failure(cmd.id, &text),
            Outcome::Streamed => String::new(),
        })
    }

    /// Speaks GTP on `input` and `output` until `quit` or end of input.
    pub fn run<R: Read + Send + 'static, W: Write>(
        &mut self,
        input: R,
        mut output: W,
    ) -> io::Result<()> {
        let (tx, rx) = mpsc::channel();
        let stop = self.stop.clone();
        let stop_on_input = self.stop_on_input.clone();
        let searching = self.searching.clone();
        std::thread::spawn(move || {
            for item in LineReader::new(BufReader::new(input)) {
                let Ok(item) = item else { break };
                if let InputLine::Line(raw) = &item {
                    let text = String::from_utf8_lossy(raw);
                    if text.trim() == "# interrupt" && searching.load(Ordering::SeqCst) {
                        stop.store(true, Ordering::SeqCst);
                        continue;
                    }
                }
                if stop_on_input.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                }
                if tx.send(Input::Line(item)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Input::End);
        });
        self.serve(rx, &mut output)
    }

    fn serve(&mut self, rx: Receiver<Input>, out: &mut dyn Write) -> io::Result<()> {
        loop {
            let item = match rx.try_recv() {
                Ok(item) => item,
                Err(mpsc::TryRecvError::Empty) => {
                    self.ponder();
                    match rx.recv() {
                        Ok(item) => item,
                        Err(_) => return Ok(()),
                    }
                }
                Err(mpsc::TryRecvError::Disconnected) => return Ok(()),
            };
            let response = match item {
                Input::End => return Ok(()),
                Input::Line(InputLine::TooLong { head }) => {
                    too_long_reply(&head).unwrap_or_default()
                }
                Input::Line(InputLine::Line(raw)) => self.execute_line(&raw, out)?,
            };
            out.write_all(response.as_bytes())?;
            out.flush()?;
            if self.quit {
                return Ok(());
            }
        }
    }

    /// Thinks on the opponent's time until input arrives, when asked to.
    fn ponder(&mut self) {
        let Some(&(mover, _)) = self.game.moves().last() else {
            return;
        };
        // A weak level reads afresh each move: pondering would only burn time.
        if !self.searcher.params().ponder
            || !self.searcher.params().level.is_full()
            || mover != self.game.to_move().opponent()
            || self.game.is_over()
        {
            return;
        }
        let color = self.game.to_move();
        self.begin_search(true);
        let game = self.game.clone();
        let stop = self.stop.clone();
        // The searcher's own progress lines would read like our thinking;
        // ours name the side whose reply we think about.
        let params = self.searcher.params().clone();
        let log = !params.quiet;
        self.searcher.set_params(SearchParams {
            quiet: true,
            ..params.clone()
        });
        let size = self.size();
        let every = log.then_some(Duration::from_secs(1));
        let _ = self
            .searcher
            .analyze(&game, color, Limits::default(), &stop, every, &mut |a| {
                let _ = writeln!(io::stderr(), "{}", ponder_line(a, size, color));
            });
        self.searcher.set_params(params);
        self.end_search();
    }

    fn begin_search(&mut self, stop_on_input: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
        self.stop_on_input.store(stop_on_input, Ordering::SeqCst);
    }

    fn end_search(&mut self) {
        self.stop_on_input.store(false, Ordering::SeqCst);
        self.searching.store(false, Ordering::SeqCst);
        self.stop.store(false, Ordering::SeqCst);
    }

    fn size(&self) -> usize {
        self.game.board().size()
    }

    fn vertex(&self, mv: Move) -> Vertex {
        Vertex::from_move(mv, self.size())
    }

    fn points_text(&self, points: impl IntoIterator<Item = Point>) -> String {
        points
            .into_iter()
            .map(|p| p.to_gtp(self.size()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The komi a new game starts with.
    fn standing_komi(&self) -> f64 {
        self.komi.unwrap_or(self.rules.default_komi())
    }

    /// An empty board under the engine's own rules and komi, whatever a
    /// loaded file said.
    fn new_game(&mut self, size: usize) {
        self.game = Game::new(size, self.rules);
        self.game.set_komi(self.standing_komi());
        self.searcher.clear();
        self.last_analysis = None;
    }

    fn cmd_protocol_version(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success("2".into()))
    }

    fn cmd_name(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success("kosumi".into()))
    }

    fn cmd_version(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success(env!("CARGO_PKG_VERSION").into()))
    }

    fn cmd_known_command(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let known = cmd.arg(0).is_some_and(Engine::knows);
        Ok(Success(known.to_string()))
    }

    fn cmd_list_commands(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success(
            Engine::command_names().collect::<Vec<_>>().join("\n"),
        ))
    }

    fn cmd_quit(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        self.quit = true;
        Ok(Success(String::new()))
    }

    fn cmd_boardsize(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(size)) = cmd.arg(0).map(parse_int) else {
            return Ok(Failure("boardsize not an integer".into()));
        };
        if !(1..=MAX_SIZE as i64).contains(&size) {
            return Ok(Failure("unacceptable size".into()));
        }
        self.new_game(size as usize);
        Ok(Success(String::new()))
    }

    fn cmd_clear_board(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        self.new_game(self.size());
        Ok(Success(String::new()))
    }

    fn cmd_komi(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(komi)) = cmd.arg(0).map(parse_float) else {
            return Ok(Failure("komi not a float".into()));
        };
        self.komi = Some(komi);
        self.game.set_komi(komi);
        Ok(Success(String::new()))
    }

    fn cmd_play(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Ok((color, mv)) = parse_move(cmd.arg(0), cmd.arg(1), self.size()) else {
            return Ok(Failure("invalid color or coordinate".into()));
        };
        Ok(match self.game.play(color, mv) {
            Ok(()) => Success(String::new()),
            Err(_) => Failure("illegal move".into()),
        })
    }

    /// Chooses a move for `color`; plays it when `commit` is set.
    fn generate(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
        stream: Option<(&mut dyn Write, AnalyzeFormat, Duration)>,
    ) -> io::Result<Decision> {
        self.begin_search(false);
        let started = std::time::Instant::now();
        let game = self.game.clone();
        let clock = self.clock.clone();
        let plan = clock.plan(color, &game);
        let stop = self.stop.clone();
        let size = self.size();
        let gfx = self.gogui_gfx;
        let mut stream = stream;
        let every = match &stream {
            Some((_, _, every)) => Some(*every),
            None if gfx => Some(GOGUI_GFX_INTERVAL),
            None => None,
        };
        let mut failed = None;
        let (decision, analysis) =
            self.searcher
                .genmove(&game, color, &clock, cleanup, &stop, every, &mut |a| {
                    if let Some((out, format, _)) = stream.as_mut() {
                        if failed.is_none() {
                            if let Err(e) = write_analysis(&mut **out, a, *format, size, color) {
                                failed = Some(e);
                            }
                        }
                    }
                    if gfx {
                        write_gogui_gfx(a, size, color);
                    }
                });
        if let Some(e) = failed {
            self.end_search();
            return Err(e);
        }
        if gfx {
            write_gogui_gfx(&analysis, size, color);
        }
        self.end_search();
        self.last_analysis = Some(analysis);
        if let Some(plan) = plan.filter(|_| !self.searcher.params().quiet) {
            // One line a move: what the clock allowed and what was spent.
            let _ = writeln!(
                io::stderr(),
                "kosumi: clock: {} move {}: {plan}; spent {:.2} s",
                color.name(),
                game.moves().len() + 1,
                started.elapsed().as_secs_f64()
            );
        }
        if commit {
            // Keep our own clock running for controllers that send no time_left.
            self.clock.spend(color, started.elapsed());
            if let Decision::Play(mv) = decision {
                if self.game.play(color, mv).is_err() {
                    // The searcher must never choose an illegal move; pass rather than break the game.
                    let _ = self.game.play(color, Move::Pass);
                    return Ok(Decision::Play(Move::Pass));
                }
            }
        }
        Ok(decision)
    }

    fn decision_text(&self, d: Decision) -> String {
        match d {
            Decision::Play(mv) => self.vertex(mv).to_string(),
            Decision::Resign => "resign".into(),
        }
    }

    /// `genmove`, `reg_genmove` (the move is not played) and
    /// `kgs-genmove_cleanup` (dead stones are captured before passing).
    fn cmd_genmove(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let (commit, cleanup) = (cmd.name != "reg_genmove", cmd.name == "kgs-genmove_cleanup");
        let d = self.generate(color, commit, cleanup, None)?;
        Ok(Success(self.decision_text(d)))
    }

    fn cmd_undo(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(if self.game.undo() {
            Success(String::new())
        } else {
            Failure("cannot undo".into())
        })
    }

    fn cmd_gg_undo(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let n = match cmd.arg(0).map(parse_int) {
            None => 1,
            Some(Ok(n)) if n >= 0 => n as usize,
            Some(_) => return Ok(Failure("cannot undo".into())),
        };
        if n > self.game.moves().len() {
            return Ok(Failure("cannot undo".into()));
        }
        for _ in 0..n {
            self.game.undo();
        }
        Ok(Success(String::new()))
    }

    fn cmd_showboard(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let board = self.game.board();
        let diagram = board.to_string();
        let lines: Vec<&str> = diagram.lines().collect();
        let mut text = String::from("\n");
        for (i, line) in lines.iter().enumerate() {
            text.push_str(line);
            match i {
                1 => text.push_str(&format!(
                    "     Black (X) has captured {} stones",
                    board.captures(Color::Black)
                )),
                2 => text.push_str(&format!(
                    "     White (O) has captured {} stones",
                    board.captures(Color::White)
                )),
                3 => text.push_str(&format!(
                    "     {} to move, komi {}",
                    self.game.to_move().name(),
                    self.game.komi()
                )),
                4 => text.push_str(&format!(
                    "     rules {}, move {}",
                    self.game.rules(),
                    self.game.moves().len()
                )),
                _ => {}
            }
            text.push('\n');
        }
        if let Some(&(color, mv)) = self.game.moves().last() {
            text.push_str(&format!(
                "last move: {} {}\n",
                color.letter(),
                self.vertex(mv)
            ));
        }
        Ok(Success(text))
    }

    /// The game and the judgement of its position, judged again only when
    /// the position has changed since the last one.
    pub(super) fn judgement(&mut self) -> (&Game, &Judgement) {
        let board = self.game.board();
        let position = JudgedPosition {
            size: board.size(),
            hash: board.full_hash(self.game.to_move()),
            rules: self.game.rules(),
        };
        let judged = match self.judged.take() {
            Some((p, j)) if p == position => j,
            _ => referee().judge(&self.game),
        };
        (&self.game, &self.judged.insert((position, judged)).1)
    }

    fn cmd_final_score(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let (game, judgement) = self.judgement();
        Ok(Success(count(game, judgement).to_string()))
    }

    fn cmd_final_status_list(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let (game, judgement) = self.judgement();
        let scoring = game.rules().scoring();
        let points = match cmd.arg(0) {
            Some("alive") => judgement.stones_with(PointStatus::Alive),
            Some("dead") => judgement.stones_with(PointStatus::Dead),
            Some("seki") => judgement.stones_with(PointStatus::Seki),
            Some("black_territory") => judgement.counted_territory(Some(Color::Black), scoring),
            Some("white_territory") => judgement.counted_territory(Some(Color::White), scoring),
            Some("dame") => judgement.counted_territory(None, scoring),
            _ => return Ok(Failure("invalid status".into())),
        };
        Ok(Success(self.points_text(points)))
    }

    /// `fixed_handicap` (the standard points) and `place_free_handicap`
    /// (kosumi's choice): the stones are placed and listed.
    fn cmd_handicap(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(n)) = cmd.arg(0).map(parse_int) else {
            return Ok(Failure("invalid number of stones".into()));
        };
        if self.game.board().empty_count() != self.size() * self.size()
            || !self.game.moves().is_empty()
        {
            return Ok(Failure("board not empty".into()));
        }
        let size = self.size();
        let points = match usize::try_from(n) {
            Ok(n) if cmd.name == "fixed_handicap" => fixed_handicap(size, n),
            Ok(n) if (2..size * size).contains(&n) => Some(free_handicap(size, n)),
            _ => None,
        };
        let Some(points) = points else {
            return Ok(Failure("invalid number of stones".into()));
        };
        self.game.place_handicap(&points);
        Ok(Success(self.points_text(points)))
    }

    fn cmd_set_free_handicap(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        if self.game.board().empty_count() != self.size() * self.size()
            || !self.game.moves().is_empty()
        {
            return Ok(Failure("board not empty".into()));
        }
        let mut points = Vec::new();
        for a in &cmd.args {
            match parse_vertex(a, self.size()) {
                Ok(Move::Play(p)) if !points.contains(&p) => points.push(p),
                _ => return Ok(Failure("bad vertex list".into())),
            }
        }
        if points.len() < 2 || points.len() >= self.size() * self.size() {
            return Ok(Failure("invalid number of stones".into()));
        }
        self.game.place_handicap(&points);
        Ok(Success(String::new()))
    }

    fn cmd_time_settings(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let nums: Vec<Option<f64>> = (0..3)
            .map(|i| cmd.arg(i).and_then(|a| parse_float(a).ok()))
            .collect();
        match (nums[0], nums[1], cmd.arg(2).and_then(|a| parse_int(a).ok())) {
            (Some(main), Some(byo), Some(stones)) if main >= 0.0 && byo >= 0.0 && stones >= 0 => {
                self.clock = Clock::from_gtp(main, byo, stones as u32);
                Ok(Success(String::new()))
            }
            _ => Ok(Failure("not three integers".into())),
        }
    }

    fn cmd_time_left(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let secs = cmd.arg(1).and_then(|a| parse_float(a).ok());
        let stones = cmd.arg(2).and_then(|a| parse_int(a).ok());
        match (secs, stones) {
            (Some(secs), Some(stones)) if stones >= 0 => {
                self.clock.set_time_left(color, secs, stones as u32);
                Ok(Success(String::new()))
            }
            _ => Ok(Failure("time and stones not two integers".into())),
        }
    }

    fn cmd_kgs_time_settings(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let num = |i: usize| {
            cmd.arg(i)
                .and_then(|a| parse_float(a).ok())
                .filter(|v| *v >= 0.0)
        };
        let clock = match cmd.arg(0) {
            Some("none") => Some(Clock::none()),
            Some("absolute") => num(1).map(Clock::absolute),
            Some("byoyomi") => match (num(1), num(2), num(3)) {
                (Some(m), Some(p), Some(n)) => Some(Clock::japanese(m, p, n as u32)),
                _ => None,
            },
            Some("canadian") => match (num(1), num(2), num(3)) {
                (Some(m), Some(b), Some(s)) => Some(Clock::canadian(m, b, s as u32)),
                _ => None,
            },
            _ => None,
        };
        match clock {
            Some(c) => {
                self.clock = c;
                Ok(Success(String::new()))
            }
            None => Ok(Failure("syntax error".into())),
        }
    }

    fn cmd_kgs_rules(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        match cmd.arg(0).map(Rules::parse) {
            Some(Ok(rules)) => {
                self.set_rules(rules);
                Ok(Success(String::new()))
            }
            Some(Err(e)) => Ok(Failure(e.to_string())),
            None => Ok(Failure("missing rules name".into())),
        }
    }

    /// New standing rules, for this game too. Komi follows them unless it
    /// was given.
    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.game.set_rules(rules);
        if self.komi.is_none() {
            self.game.set_komi(rules.default_komi());
        }
    }

    fn cmd_loadsgf(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(path) = cmd.arg(0) else {
            return Ok(Failure("cannot load file".into()));
        };
        let limit = match cmd.arg(1).map(parse_int) {
            None => None,
            Some(Ok(n)) if n >= 1 => Some(n as usize),
            Some(_) => return Ok(Failure("cannot load file".into())),
        };
        // The file's rules and komi hold for this game only; without `RU`,
        // the engine's own rules.
        match load_sgf(path, self.rules, limit) {
            Ok(game) => {
                self.game = game;
                self.searcher.clear();
                self.last_analysis = None;
                Ok(Success(self.game.to_move().to_string()))
            }
            Err(e) => {
                eprintln!("loadsgf {path}: {e}");
                Ok(Failure("cannot load file".into()))
            }
        }
    }

    fn cmd_printsgf(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let text = record_from_game(&self.game).to_sgf();
        match cmd.arg(0) {
            None | Some("-") => Ok(Success(text)),
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => Ok(Success(String::new())),
                Err(e) => {
                    eprintln!("printsgf {path}: {e}");
                    Ok(Failure("cannot write file".into()))
                }
            },
        }
    }

    /// `list_stones` and `all_legal`: a colour's stones, or its legal moves.
    fn cmd_points(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let (game, board) = (&self.game, self.game.board());
        let points: Vec<Point> = if cmd.name == "list_stones" {
            board
                .points()
                .filter(|&p| board.get(p) == Some(color))
                .collect()
        } else {
            board
                .points()
                .filter(|&p| game.is_legal(color, Move::Play(p)))
                .collect()
        };
        Ok(Success(self.points_text(points)))
    }

    fn cmd_captures(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        Ok(Success(self.game.board().captures(color).to_string()))
    }

    fn cmd_is_legal(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Ok((color, mv)) = parse_move(cmd.arg(0), cmd.arg(1), self.size()) else {
            return Ok(Failure("invalid color or coordinate".into()));
        };
        Ok(Success(u8::from(self.game.is_legal(color, mv)).to_string()))
    }

    fn point_arg(&self, cmd: &Command) -> Result<Point, &'static str> {
        match cmd.arg(0).map(|a| parse_vertex(a, self.size())) {
            Some(Ok(Move::Play(p))) => Ok(p),
            _ => Err("invalid coordinate"),
        }
    }

    fn cmd_color(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let p = match self.point_arg(cmd) {
            Ok(p) => p,
            Err(e) => return Ok(Failure(e.into())),
        };
        Ok(Success(
            match self.game.board().get(p) {
                Some(Color::Black) => "black",
                Some(Color::White) => "white",
                None => "empty",
            }
            .into(),
        ))
    }

    /// `countlib` and `findlib`: the liberties of the chain at a point,
    /// counted or listed.
    fn cmd_liberties(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let p = match self.point_arg(cmd) {
            Ok(p) => p,
            Err(e) => return Ok(Failure(e.into())),
        };
        let board = self.game.board();
        Ok(match board.get(p) {
            None => Failure("vertex must not be empty".into()),
            Some(_) if cmd.name == "countlib" => Success(board.liberty_count(p).to_string()),
            Some(_) => Success(self.points_text(board.liberties(p))),
        })
    }

    /// `kosumi-level [N]`: the playing strength, 1 (weakest) to 10 (full);
    /// without an argument, the current one.
    fn cmd_level(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let mut p = self.searcher.params().clone();
        let Some(arg) = cmd.arg(0) else {
            return Ok(Success(p.level.to_string()));
        };
        Ok(match arg.parse::<Level>() {
            Ok(level) => {
                p.level = level;
                self.searcher.set_params(p);
                Success(String::new())
            }
            Err(e) => Failure(e.to_string()),
        })
    }

    fn cmd_param(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let mut p = self.searcher.params().clone();
        match (cmd.arg(0), cmd.arg(1)) {
            (None, _) => {
                let lines = [
                    format!("[string] threads {}", p.threads),
                    format!(
                        "[string] playouts {}",
                        p.playouts.map_or("none".into(), |v| v.to_string())
                    ),
                    format!(
                        "[string] time_per_move {}",
                        p.time_per_move.map_or("none".into(), |v| v.to_string())
                    ),
                    format!("[string] level {}", p.level),
                    format!("[string] resign_threshold {}", p.resign_threshold),
                    format!("[string] max_memory_mb {}", p.max_memory >> 20),
                    format!("[string] seed {}", p.seed),
                    format!("[bool] ponder {}", u8::from(p.ponder)),
                    format!("[bool] quiet {}", u8::from(p.quiet)),
                    format!(
                        "[list/japanese/swedish/chinese/tromp-taylor] rules {}",
                        self.game.rules()
                    ),
                ];
                let tunables = self.searcher.config().params();
                let tunables = tunables.iter().map(|(n, v)| format!("[string] {n} {v}"));
                Ok(Success(
                    lines
                        .into_iter()
                        .chain(tunables)
                        .collect::<Vec<_>>()
                        .join("\n"),
                ))
            }
            (Some(key), Some(value)) => {
                let none =
                    value == "none" || value == "0" && matches!(key, "playouts" | "time_per_move");
                let ok = match key {
                    "threads" => value
                        .parse()
                        .ok()
                        .filter(|&t| t >= 1)
                        .map(|t| p.threads = t)
                        .is_some(),
                    "playouts" if none => {
                        p.playouts = None;
                        true
                    }
                    "playouts" => value
                        .parse()
                        .ok()
                        .filter(|&v| v >= 1)
                        .map(|v| p.playouts = Some(v))
                        .is_some(),
                    "time_per_move" if none => {
                        p.time_per_move = None;
                        true
                    }
                    "time_per_move" => parse_float(value)
                        .ok()
                        .filter(|v| *v > 0.0)
                        .map(|v| p.time_per_move = Some(v))
                        .is_some(),
                    "resign_threshold" => parse_float(value)
                        .ok()
                        .filter(|v| (0.0..1.0).contains(v))
                        .map(|v| p.resign_threshold = v)
                        .is_some(),
                    "max_memory_mb" => value
                        .parse::<usize>()
                        .ok()
                        .filter(|&v| v >= 1)
                        .map(|v| p.max_memory = v << 20)
                        .is_some(),
                    "seed" => value.parse().ok().map(|v| p.seed = v).is_some(),
                    "level" => match value.parse::<Level>() {
                        Ok(level) => {
                            p.level = level;
                            true
                        }
                        Err(e) => return Ok(Failure(e.to_string())),
                    },
                    "ponder" => parse_bool(value).map(|v| p.ponder = v).is_some(),
                    "quiet" => parse_bool(value).map(|v| p.quiet = v).is_some(),
                    "rules" => match Rules::parse(value) {
                        Ok(r) => {
                            self.set_rules(r);
                            true
                        }
                        Err(_) => false,
                    },
                    _ if key.contains('.') => {
                        let set = parse_float(value).map(|v| self.searcher.set_param(key, v));
                        return Ok(match set {
                            Ok(Ok(())) => Success(String::new()),
                            Ok(Err(e)) => Failure(e.to_string()),
                            Err(_) => Failure(format!("invalid value '{value}' for {key}")),
                        });
                    }
                    _ => return Ok(Failure(format!("unknown parameter '{key}'"))),
                };
                if !ok {
                    return Ok(Failure(format!("invalid value '{value}' for {key}")));
                }
                self.searcher.set_params(p);
                Ok(Success(String::new()))
            }
            (Some(_), None) => Ok(Failure("missing value".into())),
        }
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// Free handicap: the traditional placements where they exist, then further star
/// points and spread-out points for larger numbers.
fn free_handicap(size: usize, n: usize) -> Vec<Point> {
    if let Some(points) = traditional_handicap(size, n) {
        return points;
    }
    let mut points = fixed_handicap(size, n.min(9))
        .or_else(|| fixed_handicap(size, n.min(4)))
        .unwrap_or_default();
    // Fill the rest on a spread lattice, nearest the centre first.
    let step = (size / 4).max(2);
    let mut extra: Vec<Point> = (0..size)
        .flat_map(|y| (0..size).map(move |x| Point::new(x, y)))
        .filter(|p| !points.contains(p))
        .collect();
    let c = (size as i64 - 1) / 2;
    extra.sort_by_key(|p| {
        let on_lattice = (p.x() % step == size / 2 % step) && (p.y() % step == size / 2 % step);
        let d = (p.x() as i64 - c).abs().max((p.y() as i64 - c).abs());
        (!on_lattice, d, p.index())
    });
    points.extend(extra.into_iter().take(n - points.len()));
    points
}

/// The SGF record of a game (handicap and setup stones as `AB`/`AW`).
pub fn record_from_game(game: &Game) -> GameRecord {
    let mut start = game.clone();
    while start.undo() {}
    let board = start.board();
    let mut record = GameRecord {
        size: board.size(),
        komi: Some(game.komi()),
        handicap: game.handicap(),
        rules: Some(game.rules().name().to_string()),
        setup_black: board
            .points()
            .filter(|&p| board.get(p) == Some(Color::Black))
            .collect(),
        setup_white: board
            .points()
            .filter(|&p| board.get(p) == Some(Color::White))
            .collect(),
        to_play: None,
        ..GameRecord::default()
    };
    if let Some(&(first, _)) = game.moves().first() {
        if first == Color::White {
            record.to_play = Some(Color::White);
        }
    }
    record.events = game
        .moves()
        .iter()
        .map(|&(color, mv)| Event::Move {
            color,
            mv,
            comment: None,
        })
        .collect();
    record
}

/// The game of the SGF file at `path`, up to move `limit`; under `rules`
/// when the file names none.
fn load_sgf(path: &str, rules: Rules, limit: Option<usize>) -> Result<Game, Box<dyn Error>> {
    let record = GameRecord::from_sgf(&std::fs::read(path)?)?;
    Ok(record.to_game(None, rules, limit)?)
}
#[cfg(test)]
mod tests;

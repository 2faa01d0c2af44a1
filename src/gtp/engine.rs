//! The GTP engine: one table of commands drives dispatch, `list_commands`
//! and `known_command`; each handler runs one parsed [`Command`] against
//! the game, the searcher and the clock.
//!
//! Input is read on its own thread so that a command arriving during
//! analysis (or a `# interrupt` line) stops the search at once, and so that
//! pipelined commands are answered in order without loss.

use super::parse::{
    format_failure, format_success, format_vertex, parse_color, parse_float, parse_int, parse_line,
    parse_move, parse_vertex, preprocess, too_long_reply, Command, InputLine, LineReader,
};
use crate::board::{fixed_handicap, Color, Game, Move, Point, Rules, MAX_SIZE};
use crate::score::{self, Owner, PointStatus};
use crate::search::{judge, Analysis, Clock, Decision, Limits, SearchParams, Searcher};
use crate::sgf::{Event, GameRecord};
use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::Duration;

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
    "reg_genmove" => cmd_reg_genmove (1),
    "undo" => cmd_undo (0),
    "gg-undo" => cmd_gg_undo (1),
    "showboard" => cmd_showboard (0),
    "final_score" => cmd_final_score (0),
    "final_status_list" => cmd_final_status_list (1),
    "kgs-genmove_cleanup" => cmd_genmove_cleanup (1),
    "fixed_handicap" => cmd_fixed_handicap (1),
    "place_free_handicap" => cmd_place_free_handicap (1),
    "set_free_handicap" => cmd_set_free_handicap (999),
    "time_settings" => cmd_time_settings (3),
    "time_left" => cmd_time_left (3),
    "kgs-time_settings" => cmd_kgs_time_settings (4),
    "kgs-rules" => cmd_kgs_rules (1),
    "loadsgf" => cmd_loadsgf (2),
    "printsgf" => cmd_printsgf (1),
    "list_stones" => cmd_list_stones (1),
    "captures" => cmd_captures (1),
    "is_legal" => cmd_is_legal (2),
    "all_legal" => cmd_all_legal (1),
    "color" => cmd_color (1),
    "countlib" => cmd_countlib (1),
    "findlib" => cmd_findlib (1),
    "top_moves" => cmd_top_moves (1),
    "lz-analyze" => cmd_lz_analyze (999),
    "kata-analyze" => cmd_kata_analyze (999),
    "genmove_analyze" => cmd_genmove_analyze (999),
    "lz-genmove_analyze" => cmd_lz_genmove_analyze (999),
    "kata-genmove_analyze" => cmd_kata_genmove_analyze (999),
    "gogui-analyze_commands" => cmd_gogui_analyze_commands (0),
    "gogui-interrupt" => cmd_gogui_interrupt (0),
    "kosumi-param" => cmd_param (2),
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
    /// Tunables set by name (see [`crate::search::tunables`]), checked by
    /// the caller.
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
}

/// One item from the reader thread.
enum Input {
    Line(InputLine),
    End,
}

impl Engine {
    /// A new engine with an empty 19x19 board.
    pub fn new(options: EngineOptions) -> Engine {
        let mut policy = crate::search::Policy::default()
            .with_patterns(options.patterns)
            .with_playout_patterns(options.playout_patterns);
        for (name, value) in &options.params {
            if let Err(e) = policy.set_param(name, *value) {
                eprintln!("kosumi: --param ignored: {e}");
            }
        }
        let mut engine = Engine {
            game: Game::new(19, options.rules),
            rules: options.rules,
            komi: options.komi,
            searcher: Searcher::with_policy(options.search, policy),
            clock: Clock::none(),
            stop: Arc::new(AtomicBool::new(false)),
            stop_on_input: Arc::new(AtomicBool::new(false)),
            searching: Arc::new(AtomicBool::new(false)),
            quit: false,
            last_analysis: None,
            gogui_gfx: false,
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
        if !self.searcher.params().ponder
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

    fn vertex(&self, mv: Move) -> String {
        format_vertex(mv, self.size())
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
                capitalised(color),
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
            Decision::Play(mv) => self.vertex(mv),
            Decision::Resign => "resign".into(),
        }
    }

    fn cmd_genmove(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let d = self.generate(color, true, false, None)?;
        Ok(Success(self.decision_text(d)))
    }

    fn cmd_reg_genmove(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let d = self.generate(color, false, false, None)?;
        Ok(Success(self.decision_text(d)))
    }

    fn cmd_genmove_cleanup(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let d = self.generate(color, true, true, None)?;
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
                    capitalised(self.game.to_move()),
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

    fn cmd_final_score(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success(judge::final_score(&self.game).to_string()))
    }

    fn cmd_final_status_list(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let judgement = judge::judge(&self.game);
        let points = match cmd.arg(0) {
            Some("alive") => judgement.stones_with(PointStatus::Alive),
            Some("dead") => judgement.stones_with(PointStatus::Dead),
            Some("seki") => judgement.stones_with(PointStatus::Seki),
            Some("black_territory") => judgement.territory(Some(Color::Black)),
            Some("white_territory") => judgement.territory(Some(Color::White)),
            Some("dame") => judgement.territory(None),
            _ => return Ok(Failure("invalid status".into())),
        };
        Ok(Success(self.points_text(points)))
    }

    fn cmd_fixed_handicap(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(n)) = cmd.arg(0).map(parse_int) else {
            return Ok(Failure("invalid number of stones".into()));
        };
        if self.game.board().empty_count() != self.size() * self.size()
            || !self.game.moves().is_empty()
        {
            return Ok(Failure("board not empty".into()));
        }
        let Some(points) = usize::try_from(n)
            .ok()
            .and_then(|n| fixed_handicap(self.size(), n))
        else {
            return Ok(Failure("invalid number of stones".into()));
        };
        self.game.place_handicap(&points);
        Ok(Success(self.points_text(points)))
    }

    fn cmd_place_free_handicap(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(n)) = cmd.arg(0).map(parse_int) else {
            return Ok(Failure("invalid number of stones".into()));
        };
        if self.game.board().empty_count() != self.size() * self.size()
            || !self.game.moves().is_empty()
        {
            return Ok(Failure("board not empty".into()));
        }
        let size = self.size();
        let max = size * size - 1;
        if n < 2 || n as usize > max {
            return Ok(Failure("invalid number of stones".into()));
        }
        let points = free_handicap(size, n as usize);
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
        let record = match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| GameRecord::from_sgf(&bytes).map_err(|e| e.to_string()))
        {
            Ok(r) => r,
            Err(e) => {
                eprintln!("loadsgf {path}: {e}");
                return Ok(Failure("cannot load file".into()));
            }
        };
        // The file's rules and komi hold for this game only; without `RU`,
        // the engine's own rules.
        match record.to_game(None, self.rules, limit) {
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

    fn cmd_list_stones(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let board = self.game.board();
        let points: Vec<Point> = board
            .points()
            .filter(|&p| board.get(p) == Some(color))
            .collect();
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
        Ok(Success(
            if self.game.is_legal(color, mv) {
                "1"
            } else {
                "0"
            }
            .into(),
        ))
    }

    fn cmd_all_legal(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(Ok(color)) = cmd.arg(0).map(parse_color) else {
            return Ok(Failure("invalid color".into()));
        };
        let board = self.game.board();
        let points: Vec<Point> = board
            .points()
            .filter(|&p| self.game.is_legal(color, Move::Play(p)))
            .collect();
        Ok(Success(self.points_text(points)))
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

    fn cmd_countlib(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let p = match self.point_arg(cmd) {
            Ok(p) => p,
            Err(e) => return Ok(Failure(e.into())),
        };
        if self.game.board().get(p).is_none() {
            return Ok(Failure("vertex must not be empty".into()));
        }
        Ok(Success(self.game.board().liberty_count(p).to_string()))
    }

    fn cmd_findlib(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let p = match self.point_arg(cmd) {
            Ok(p) => p,
            Err(e) => return Ok(Failure(e.into())),
        };
        if self.game.board().get(p).is_none() {
            return Ok(Failure("vertex must not be empty".into()));
        }
        Ok(Success(self.points_text(self.game.board().liberties(p))))
    }

    /// A short search for the player to move (or the given colour), for
    /// commands that show its result at once.
    fn quick_analysis(&mut self, color: Option<Color>) -> Analysis {
        let color = color.unwrap_or(self.game.to_move());
        self.begin_search(false);
        let game = self.game.clone();
        let stop = self.stop.clone();
        let limits = Limits {
            playouts: Some(quick_playouts(self.size())),
            time: Some(Duration::from_secs(3)),
            ..Limits::default()
        };
        let a = self
            .searcher
            .analyze(&game, color, limits, &stop, None, &mut |_| {});
        self.end_search();
        self.last_analysis = Some(a.clone());
        a
    }

    fn cmd_top_moves(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let color = match cmd.arg(0).map(parse_color) {
            None => None,
            Some(Ok(c)) => Some(c),
            Some(Err(_)) => return Ok(Failure("invalid color".into())),
        };
        let a = self.quick_analysis(color);
        let parts: Vec<String> = a
            .candidates
            .iter()
            .filter(|c| c.visits > 0)
            .take(10)
            .map(|c| format!("{} {:.2}", self.vertex(c.mv), c.winrate * 100.0))
            .collect();
        Ok(Success(parts.join(" ")))
    }

    fn analyze_stream(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
        format: AnalyzeFormat,
    ) -> io::Result<Outcome> {
        let args = match AnalyzeArgs::parse(&cmd.args, self.game.to_move(), self.size()) {
            Ok(a) => a,
            Err(e) => return Ok(Failure(e)),
        };
        let format = AnalyzeFormat {
            ownership: args.ownership,
            ..format
        };
        write_header(out, cmd.id)?;
        self.begin_search(true);
        let game = self.game.clone();
        let stop = self.stop.clone();
        let size = self.size();
        let color = args.color;
        let mut failed = None;
        let pick = |list: &[(Color, Move)]| -> Vec<Move> {
            list.iter()
                .filter(|(c, _)| *c == color)
                .map(|&(_, m)| m)
                .collect()
        };
        let limits = Limits {
            allow: pick(&args.allow),
            avoid: pick(&args.avoid),
            ..Limits::default()
        };
        let a = self
            .searcher
            .analyze(&game, color, limits, &stop, Some(args.interval), &mut |a| {
                if failed.is_none() {
                    if let Err(e) = write_analysis(out, a, format, size, color) {
                        failed = Some(e);
                    }
                }
            });
        self.end_search();
        self.last_analysis = Some(a);
        if let Some(e) = failed {
            return Err(e);
        }
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(Outcome::Streamed)
    }

    fn cmd_lz_analyze(&mut self, cmd: &Command, out: &mut dyn Write) -> io::Result<Outcome> {
        self.analyze_stream(cmd, out, AnalyzeFormat::LZ)
    }

    fn cmd_kata_analyze(&mut self, cmd: &Command, out: &mut dyn Write) -> io::Result<Outcome> {
        self.analyze_stream(cmd, out, AnalyzeFormat::KATA)
    }

    fn genmove_stream(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
        format: AnalyzeFormat,
    ) -> io::Result<Outcome> {
        if cmd.arg(0).is_none_or(|a| parse_color(a).is_err()) {
            return Ok(Failure("invalid color".into()));
        }
        let args = match AnalyzeArgs::parse(&cmd.args, self.game.to_move(), self.size()) {
            Ok(a) => a,
            Err(e) => return Ok(Failure(e)),
        };
        let format = AnalyzeFormat {
            ownership: args.ownership,
            ..format
        };
        write_header(out, cmd.id)?;
        let d = self.generate(args.color, true, false, Some((out, format, args.interval)))?;
        // The final state of the search, so the stream always shows what the
        // move was chosen from.
        if let Some(a) = &self.last_analysis {
            write_analysis(out, a, format, self.size(), args.color)?;
        }
        let text = format!("play {}\n\n", self.decision_text(d));
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(Outcome::Streamed)
    }

    fn cmd_genmove_analyze(&mut self, cmd: &Command, out: &mut dyn Write) -> io::Result<Outcome> {
        self.genmove_stream(cmd, out, AnalyzeFormat::LZ)
    }

    fn cmd_lz_genmove_analyze(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
    ) -> io::Result<Outcome> {
        self.genmove_stream(cmd, out, AnalyzeFormat::LZ)
    }

    fn cmd_kata_genmove_analyze(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
    ) -> io::Result<Outcome> {
        self.genmove_stream(cmd, out, AnalyzeFormat::KATA)
    }

    fn cmd_gogui_analyze_commands(
        &mut self,
        _: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        self.gogui_gfx = true;
        let entries = [
            "dboard/Ownership/kosumi-ownership %c",
            "gfx/Territory and dead stones/kosumi-territory",
            "plist/Dead stones/final_status_list dead",
            "string/Final score/final_score",
            "pspairs/Best moves (win rate)/kosumi-best_moves %c",
            "gfx/Principal variation/kosumi-pv %c",
            "string/Search statistics/kosumi-statistics",
            "param/Search parameters/kosumi-param",
            "string/Show board/showboard",
        ];
        Ok(Success(entries.join("\n")))
    }

    fn cmd_gogui_interrupt(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        Ok(Success(String::new()))
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
                let tunables = self.searcher.policy().params();
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
                        let set = parse_float(value)
                            .map_err(|_| format!("invalid value '{value}' for {key}"))
                            .and_then(|v| self.searcher.set_param(key, v));
                        return Ok(match set {
                            Ok(()) => Success(String::new()),
                            Err(e) => Failure(e),
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

    fn cmd_ownership(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let color = cmd.arg(0).and_then(|a| parse_color(a).ok());
        let a = self.quick_analysis(color);
        let size = self.size();
        let own = if a.ownership.len() == size * size {
            a.ownership
        } else {
            judge::judge(&self.game).ownership()
        };
        let rows: Vec<String> = own
            .chunks(size)
            .map(|row| {
                row.iter()
                    .map(|v| format!("{v:.2}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        Ok(Success(format!("\n{}", rows.join("\n"))))
    }

    fn cmd_territory(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let j = judge::judge(&self.game);
        let board = self.game.board();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for p in board.points() {
            match j.owner(p) {
                Owner::Black => black.push(p),
                Owner::White => white.push(p),
                Owner::Dame => {}
            }
        }
        let dead = j.stones_with(PointStatus::Dead);
        let seki = j.stones_with(PointStatus::Seki);
        let mut lines = Vec::new();
        if !black.is_empty() {
            lines.push(format!("BLACK {}", self.points_text(black)));
        }
        if !white.is_empty() {
            lines.push(format!("WHITE {}", self.points_text(white)));
        }
        if !dead.is_empty() {
            lines.push(format!("MARK {}", self.points_text(dead)));
        }
        if !seki.is_empty() {
            lines.push(format!("TRIANGLE {}", self.points_text(seki)));
        }
        lines.push(format!("TEXT {}", score::count(&self.game, &j)));
        Ok(Success(lines.join("\n")))
    }

    fn cmd_best_moves(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let color = cmd.arg(0).and_then(|a| parse_color(a).ok());
        let a = self.quick_analysis(color);
        let pairs: Vec<String> = a
            .candidates
            .iter()
            .filter_map(|c| c.mv.point().filter(|_| c.visits > 0).map(|p| (p, c)))
            .take(10)
            .map(|(p, c)| format!("{} {:.1}", p.to_gtp(self.size()), c.winrate * 100.0))
            .collect();
        Ok(Success(pairs.join(" ")))
    }

    fn cmd_pv(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let color = cmd
            .arg(0)
            .and_then(|a| parse_color(a).ok())
            .unwrap_or(self.game.to_move());
        let a = self.quick_analysis(Some(color));
        let Some(best) = a.candidates.first() else {
            return Ok(Success(String::new()));
        };
        Ok(Success(format!(
            "VAR {}",
            pv_text(&best.pv, color, self.size())
        )))
    }

    fn cmd_statistics(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(a) = &self.last_analysis else {
            return Ok(Success("no search yet".into()));
        };
        let secs = a.elapsed.as_secs_f64();
        let mut text = format!(
            "playouts {} in {:.2} s ({:.0}/s), win rate {:.1}%, score lead {:+.1}",
            a.playouts,
            secs,
            if secs > 0.0 {
                a.playouts as f64 / secs
            } else {
                0.0
            },
            a.winrate * 100.0,
            a.score_lead
        );
        for c in a.candidates.iter().take(5) {
            text.push_str(&format!(
                "\n{} visits {} win {:.1}% prior {:.3}",
                self.vertex(c.mv),
                c.visits,
                c.winrate * 100.0,
                c.prior
            ));
        }
        Ok(Success(text))
    }
}

/// A progress line while pondering: the search is on the opponent's
/// (`color`'s) turn, for the side that just moved, so the best move and
/// win rate are the opponent's.
fn ponder_line(a: &Analysis, size: usize, color: Color) -> String {
    let (side, us) = (capitalised(color), capitalised(color.opponent()));
    let rate = a.playouts as f64 / a.elapsed.as_secs_f64().max(1e-9);
    let mut line = format!(
        "kosumi: pondering for {us} on {side}'s turn: {} playouts ({rate:.0}/s)",
        a.playouts
    );
    if let Some(c) = a.candidates.first() {
        let pv: Vec<String> =
            c.pv.iter()
                .take(10)
                .map(|&m| format_vertex(m, size))
                .collect();
        line.push_str(&format!(
            ", {side}'s best reply {} win {:.1}% for {side}, pv {}",
            format_vertex(c.mv, size),
            a.winrate * 100.0,
            pv.join(" ")
        ));
    }
    line
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

fn quick_playouts(size: usize) -> u64 {
    if size <= 9 {
        3000
    } else {
        1500
    }
}

/// Free handicap: the fixed placements where they exist, then further star
/// points and spread-out points for larger numbers.
fn free_handicap(size: usize, n: usize) -> Vec<Point> {
    if let Some(points) = fixed_handicap(size, n) {
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

/// How analysis lines are written.
#[derive(Clone, Copy, Debug)]
struct AnalyzeFormat {
    /// KataGo's form: win rate as a float in [0, 1], score fields.
    kata: bool,
    /// Append ownership (KataGo form only).
    ownership: bool,
}

impl AnalyzeFormat {
    const LZ: AnalyzeFormat = AnalyzeFormat {
        kata: false,
        ownership: false,
    };
    const KATA: AnalyzeFormat = AnalyzeFormat {
        kata: true,
        ownership: false,
    };
}

struct AnalyzeArgs {
    color: Color,
    interval: Duration,
    ownership: bool,
    /// `allow` and `avoid` lists: the colour they bind and its moves.
    allow: Vec<(Color, Move)>,
    avoid: Vec<(Color, Move)>,
}

impl AnalyzeArgs {
    /// `[color] [interval] [key value]...` as Leela Zero and KataGo take them.
    fn parse(args: &[String], default: Color, size: usize) -> Result<AnalyzeArgs, String> {
        let mut out = AnalyzeArgs {
            color: default,
            interval: Duration::from_millis(500),
            ownership: false,
            allow: Vec::new(),
            avoid: Vec::new(),
        };
        let mut i = 0;
        if let Some(c) = args.first().and_then(|a| parse_color(a).ok()) {
            out.color = c;
            i += 1;
        }
        if let Some(Ok(cs)) = args.get(i).map(|a| parse_int(a)) {
            out.interval = Duration::from_millis((cs.clamp(1, 100_000) * 10) as u64);
            i += 1;
        }
        while i < args.len() {
            let key = args[i].as_str();
            let value = args.get(i + 1).map(String::as_str);
            match (key, value) {
                ("interval", Some(v)) => {
                    let cs = parse_int(v).map_err(|_| format!("invalid interval '{v}'"))?;
                    out.interval = Duration::from_millis((cs.clamp(1, 100_000) * 10) as u64);
                }
                ("ownership", Some(v)) => {
                    out.ownership = parse_bool(v).ok_or("invalid ownership value")?
                }
                (
                    "minmoves" | "maxmoves" | "ownershipStdev" | "movesOwnership" | "pvVisits"
                    | "rootInfo",
                    Some(_),
                ) => {}
                ("allow" | "avoid", Some(c)) => {
                    // `allow|avoid <color> <vertex,vertex,...> <until depth>`:
                    // applied to the first move of that colour.
                    let color = parse_color(c).map_err(|_| format!("invalid {key} color '{c}'"))?;
                    let list = args.get(i + 2).ok_or(format!("missing {key} vertices"))?;
                    let depth = args.get(i + 3).ok_or(format!("missing {key} depth"))?;
                    parse_int(depth).map_err(|_| format!("invalid {key} depth '{depth}'"))?;
                    for v in list.split(',').filter(|v| !v.is_empty()) {
                        let mv = parse_vertex(v, size)
                            .map_err(|_| format!("invalid {key} vertex '{v}'"))?;
                        if key == "allow" {
                            out.allow.push((color, mv));
                        } else {
                            out.avoid.push((color, mv));
                        }
                    }
                    i += 2;
                }
                _ => return Err(format!("invalid analyze argument '{key}'")),
            }
            i += 2;
        }
        Ok(out)
    }
}

fn write_header(out: &mut dyn Write, id: Option<u64>) -> io::Result<()> {
    let head = match id {
        Some(id) => format!("={id}\n"),
        None => "=\n".into(),
    };
    out.write_all(head.as_bytes())?;
    out.flush()
}

fn pv_text(pv: &[Move], first: Color, size: usize) -> String {
    let mut color = first;
    let mut parts = Vec::new();
    for &mv in pv {
        parts.push(format!("{} {}", color.letter(), format_vertex(mv, size)));
        color = color.opponent();
    }
    parts.join(" ")
}

/// How often live graphics are drawn while `genmove` thinks for GoGui.
const GOGUI_GFX_INTERVAL: Duration = Duration::from_millis(500);

/// The search as GoGui draws it: win rates (percent) on the best moves,
/// the principal variation and a status line.
fn gogui_gfx_text(a: &Analysis, size: usize, color: Color) -> String {
    let labels: Vec<String> = a
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .filter_map(|c| c.mv.point().map(|p| (p, c)))
        .take(10)
        .map(|(p, c)| format!("{} {:.0}", p.to_gtp(size), c.winrate * 100.0))
        .collect();
    let mut lines = Vec::new();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    if let Some(best) = a.candidates.first().filter(|c| !c.pv.is_empty()) {
        lines.push(format!("VAR {}", pv_text(&best.pv, color, size)));
    }
    lines.push(format!(
        "TEXT {} playouts, win rate {:.1}%",
        a.playouts,
        a.winrate * 100.0
    ));
    lines.join("\n")
}

/// A multi-line `gogui-gfx:` block on stderr (ended by an empty line), drawn
/// live by GoGui.
fn write_gogui_gfx(a: &Analysis, size: usize, color: Color) {
    let block = format!("gogui-gfx:\n{}\n\n", gogui_gfx_text(a, size, color));
    let mut err = io::stderr().lock();
    let _ = err.write_all(block.as_bytes());
    let _ = err.flush();
}

/// One `info ...` line for all candidates in Leela Zero or KataGo form.
fn analysis_line(a: &Analysis, format: AnalyzeFormat, size: usize, color: Color) -> String {
    let mut line = String::new();
    for (order, c) in a.candidates.iter().filter(|c| c.visits > 0).enumerate() {
        let Some(_) = c.mv.point() else { continue };
        let pv: Vec<String> =
            c.pv.iter()
                .take_while(|m| **m != Move::Pass)
                .map(|&m| format_vertex(m, size))
                .collect();
        if !line.is_empty() {
            line.push(' ');
        }
        if format.kata {
            line.push_str(&format!(
                "info move {} visits {} utility {:.4} winrate {:.6} scoreMean {:.2} scoreLead {:.2} prior {:.4} lcb {:.6} order {} pv {}",
                format_vertex(c.mv, size),
                c.visits,
                2.0 * c.winrate - 1.0,
                c.winrate,
                c.score_lead,
                c.score_lead,
                c.prior,
                c.lcb,
                order,
                pv.join(" ")
            ));
        } else {
            line.push_str(&format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                format_vertex(c.mv, size),
                c.visits,
                (c.winrate * 10000.0).round() as i64,
                (c.prior * 10000.0).round() as i64,
                (c.lcb.max(0.0) * 10000.0).round() as i64,
                order,
                pv.join(" ")
            ));
        }
    }
    if format.kata && format.ownership && a.ownership.len() == size * size {
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        line.push_str(" ownership");
        for v in &a.ownership {
            line.push_str(&format!(" {:.3}", v * sign));
        }
    }
    line
}

fn write_analysis(
    out: &mut dyn Write,
    a: &Analysis,
    format: AnalyzeFormat,
    size: usize,
    color: Color,
) -> io::Result<()> {
    let line = analysis_line(a, format, size, color);
    if line.is_empty() {
        return Ok(());
    }
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &mut Engine, script: &str) -> String {
        let mut out = Vec::new();
        let mut text = String::new();
        for line in script.lines() {
            text.push_str(&engine.execute_line(line.as_bytes(), &mut out).unwrap());
        }
        String::from_utf8(out).unwrap() + &text
    }

    #[test]
    fn table_drives_known_and_list() {
        let mut e = Engine::new(EngineOptions::default());
        let out = run(&mut e, "list_commands");
        assert!(out.starts_with("= protocol_version\nname\n"));
        assert!(out.ends_with("kosumi-statistics\n\n"));
        assert!(!out.contains("\nanalyze\n"));
        assert_eq!(run(&mut e, "known_command play"), "= true\n\n");
        assert_eq!(run(&mut e, "known_command PLAY"), "= false\n\n");
        assert_eq!(run(&mut e, "7 foo"), "?7 unknown command\n\n");
    }

    #[test]
    fn play_and_errors() {
        let mut e = Engine::new(EngineOptions::default());
        assert_eq!(run(&mut e, "boardsize 9"), "=\n\n");
        assert_eq!(run(&mut e, "play b e5"), "=\n\n");
        assert_eq!(run(&mut e, "play w E5"), "? illegal move\n\n");
        assert_eq!(
            run(&mut e, "play x e5"),
            "? invalid color or coordinate\n\n"
        );
        assert_eq!(
            run(&mut e, "play b j10"),
            "? invalid color or coordinate\n\n"
        );
        assert_eq!(run(&mut e, "boardsize 26"), "? unacceptable size\n\n");
        assert_eq!(run(&mut e, "undo"), "=\n\n");
        assert_eq!(run(&mut e, "undo"), "? cannot undo\n\n");
        assert_eq!(run(&mut e, "fixed_handicap 4"), "= C3 G7 C7 G3\n\n");
        assert_eq!(run(&mut e, "fixed_handicap 2"), "? board not empty\n\n");
    }

    #[test]
    fn sgf_round_trip_through_commands() {
        let mut e = Engine::new(EngineOptions::default());
        run(
            &mut e,
            "boardsize 9\nfixed_handicap 2\nplay w d5\nplay b pass\nplay w e5",
        );
        let record = record_from_game(e.game());
        let back = GameRecord::from_sgf(record.to_sgf().as_bytes())
            .unwrap()
            .to_game(None, Rules::japanese(), None)
            .unwrap();
        assert_eq!(back.board(), e.game().board());
        assert_eq!(back.moves(), e.game().moves());
        assert_eq!(back.handicap(), 2);
    }

    /// A scratch SGF file for `loadsgf`.
    fn sgf_file(name: &str, text: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("kosumi-engine-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_files_rules_hold_for_its_game_only() {
        let mut e = Engine::new(EngineOptions::default());
        let chinese = sgf_file("ru.sgf", "(;GM[1]SZ[9]RU[Chinese];B[ee])");
        let plain = sgf_file("plain.sgf", "(;GM[1]SZ[9];B[ee])");
        run(&mut e, &format!("loadsgf {}", chinese.display()));
        assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
        assert_eq!(e.game().komi(), 7.5);
        // A file without RU: the engine's own rules, not the last file's.
        run(&mut e, &format!("loadsgf {}", plain.display()));
        assert_eq!(e.game().rules(), Rules::japanese());
        assert_eq!(e.game().komi(), 6.5);
        // A new game after a file brings back the engine's rules and komi.
        for reset in ["clear_board", "boardsize 13"] {
            run(&mut e, &format!("loadsgf {}", chinese.display()));
            assert_eq!(run(&mut e, reset), "=\n\n");
            assert_eq!(e.game().rules(), Rules::japanese(), "{reset}");
            assert_eq!(e.game().komi(), 6.5, "{reset}");
        }
        let _ = std::fs::remove_file(chinese);
        let _ = std::fs::remove_file(plain);
    }

    #[test]
    fn command_line_rules_stand_until_a_command_changes_them() {
        let mut e = Engine::new(EngineOptions {
            rules: Rules::new(crate::board::RuleSet::Chinese),
            ..EngineOptions::default()
        });
        assert_eq!(e.game().komi(), 7.5);
        let japanese = sgf_file("jp.sgf", "(;GM[1]SZ[9]RU[Japanese]KM[0.5];B[ee])");
        run(&mut e, &format!("loadsgf {}", japanese.display()));
        assert_eq!(e.game().rules(), Rules::japanese());
        assert_eq!(e.game().komi(), 0.5);
        run(&mut e, "boardsize 9");
        assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
        assert_eq!(e.game().komi(), 7.5);
        // kgs-rules changes them for this game and every later one; komi
        // follows the rules while no komi was given.
        assert_eq!(run(&mut e, "kgs-rules japanese"), "=\n\n");
        assert_eq!(e.game().rules(), Rules::japanese());
        assert_eq!(e.game().komi(), 6.5);
        run(&mut e, &format!("loadsgf {}", japanese.display()));
        run(&mut e, "clear_board");
        assert_eq!(e.game().rules(), Rules::japanese());
        assert_eq!(run(&mut e, "kosumi-param rules chinese"), "=\n\n");
        run(&mut e, "boardsize 19");
        assert_eq!(e.game().rules(), Rules::new(crate::board::RuleSet::Chinese));
        let _ = std::fs::remove_file(japanese);
    }

    #[test]
    fn an_explicit_komi_stands_across_games() {
        let mut e = Engine::new(EngineOptions {
            komi: Some(0.5),
            ..EngineOptions::default()
        });
        assert_eq!(e.game().komi(), 0.5);
        run(&mut e, "kgs-rules chinese");
        assert_eq!(e.game().komi(), 0.5, "--komi is kept over the rules' komi");
        assert_eq!(run(&mut e, "komi 5"), "=\n\n");
        let with_km = sgf_file("km.sgf", "(;GM[1]SZ[9]KM[2.5];B[ee])");
        run(&mut e, &format!("loadsgf {}", with_km.display()));
        assert_eq!(e.game().komi(), 2.5, "the file's komi for its game");
        run(&mut e, "clear_board");
        assert_eq!(e.game().komi(), 5.0, "then the last komi command's");
        // The controller's komi after boardsize/clear_board, as GoGui and
        // twogtp send it, is the game's.
        run(&mut e, "boardsize 9\nclear_board\nkomi 7");
        assert_eq!(e.game().komi(), 7.0);
        assert!(run(&mut e, "showboard").contains("komi 7"));
        let _ = std::fs::remove_file(with_km);
    }
}

//! The one game loop: two GTP clients play a game, every move checked by
//! kosumi's rules core, with clocks. `kosumi match` (and `kosumi tune`
//! through it) and `kosumi selfplay` play through it; what each adds (an
//! SGF record, a soak test's checks) comes in through [`Hooks`].
//!
//! A player that fails (an illegal move, a crash, a timeout, a loss on
//! time, a nonsense answer, a refused legal move) loses the game.

pub mod clock;

use std::time::{Duration, Instant};

use self::clock::{Clock, TimeControl};
use crate::client::{Client, EngineError, Failure, Response};
use kosumi::board::{Color, Game, GameResult, Move, Vertex, VertexError};

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
    /// Every reason, in the order of the match's tables.
    pub const ALL: [EndReason; 9] = [
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

    /// The word used in the match's results file.
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

    /// The reason whose [`EndReason::word`] is `word`.
    pub fn from_word(word: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.word() == word)
    }

    /// Whether the game was counted.
    pub fn is_count(self) -> bool {
        matches!(self, EndReason::TwoPasses | EndReason::MoveCap)
    }

    /// The result of a game `winner` won this way, not counted: by
    /// resignation, on time, or else by forfeit.
    pub fn result(self, winner: Color) -> GameResult {
        match self {
            EndReason::Resignation => GameResult::Resignation(winner),
            EndReason::Time => GameResult::Time(winner),
            _ => GameResult::Forfeit(winner),
        }
    }
}

/// How a game ended: its winner when no count is needed, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The winner of a game not counted; `None` before a count.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
    /// What happened, in words (`black resigned`, the failure, ...).
    pub detail: String,
}

impl Ending {
    fn counted(reason: EndReason, detail: String) -> Ending {
        let winner = None;
        Ending {
            winner,
            reason,
            detail,
        }
    }

    fn lost(loser: Color, reason: EndReason, detail: String) -> Ending {
        let winner = Some(loser.opponent());
        Ending {
            winner,
            reason,
            detail,
        }
    }

    /// The forfeit of `loser` whose engine failed; `clocked` makes a
    /// timeout a loss on time.
    fn engine_failed(loser: Color, e: &EngineError, clocked: bool) -> Ending {
        let reason = match e.failure {
            Failure::Timeout { .. } if clocked => EndReason::Time,
            Failure::Timeout { .. } => EndReason::Timeout,
            Failure::Garbage { .. } | Failure::Refused { .. } => EndReason::Garbage,
            Failure::Crashed { .. } | Failure::Start(_) => EndReason::Crash,
        };
        Ending::lost(loser, reason, format!("{loser}: {e}"))
    }
}

/// How the game is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Moves after which the game stops (to be counted).
    pub max_moves: usize,
    /// The time limit of every answer, and of `genmove` without a clock.
    pub move_timeout: Duration,
    /// The time control both players' clocks keep, if any.
    pub time: Option<TimeControl>,
    /// Seconds of grace past the clock before a loss on time.
    pub time_margin: f64,
}

/// One player's thinking time in a game, in seconds.
#[derive(Clone, Debug, Default)]
pub struct PlayerTimes {
    /// All of it.
    pub total: f64,
    /// Each `genmove`'s (a failed one's included).
    pub per_move: Vec<f64>,
    /// The least clock time left before a move, with a clock.
    pub min_left: Option<f64>,
}

/// What a user of the loop adds to it; every step does nothing by default.
pub trait Hooks {
    /// A problem the hooks found, which stops the game.
    type Error;

    /// Whether to stop before the next move (the game is then not finished).
    fn stopped(&self) -> bool {
        false
    }

    /// Asks `client` for a move with `genmove` (`genmove black`) within
    /// `limit`; selfplay interrupts an analysis with it.
    fn genmove(
        &mut self,
        _game: &Game,
        client: &mut Client,
        genmove: &str,
        limit: Duration,
    ) -> Result<Response, EngineError> {
        client.send(genmove, limit)
    }

    /// `game` took `color`'s move `mv`, found in `seconds`; the opponent
    /// has not been told yet.
    fn record(&mut self, _color: Color, _mv: Move, _seconds: f64) {}

    /// Both engines have the last move: checks them, and may change the
    /// game (an undo) through both.
    fn check(
        &mut self,
        _game: &mut Game,
        _players: &mut [&mut Client; 2],
    ) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Plays `game` on to its end between `players`, Black's engine first:
/// both are set up with the position already. How it ended and Black's
/// and White's thinking times; `Ok(None)` if the hooks stopped it.
pub fn play<H: Hooks>(
    game: &mut Game,
    mut players: [&mut Client; 2],
    settings: &Settings,
    hooks: &mut H,
) -> Result<Option<(Ending, [PlayerTimes; 2])>, H::Error> {
    let mut clocks = settings.time.map(|tc| [Clock::new(tc), Clock::new(tc)]);
    let mut times = [PlayerTimes::default(), PlayerTimes::default()];
    let ending = loop {
        if hooks.stopped() {
            return Ok(None);
        }
        if game.is_over() {
            break Ending::counted(EndReason::TwoPasses, "two passes".into());
        }
        if game.moves().len() >= settings.max_moves {
            let detail = format!("move cap of {} reached", settings.max_moves);
            break Ending::counted(EndReason::MoveCap, detail);
        }
        let mover = game.to_move().index();
        let clock = clocks.as_mut().map(|c| &mut c[mover]);
        match turn(
            game,
            &mut players,
            settings,
            clock,
            &mut times[mover],
            hooks,
        ) {
            Ok(()) => hooks.check(game, &mut players)?,
            Err(ending) => break ending,
        }
    };
    Ok(Some((ending, times)))
}

/// Asks the mover for a move, checks it, tells the opponent; `Err` ends the game.
fn turn<H: Hooks>(
    game: &mut Game,
    players: &mut [&mut Client; 2],
    settings: &Settings,
    clock: Option<&mut Clock>,
    times: &mut PlayerTimes,
    hooks: &mut H,
) -> Result<(), Ending> {
    let color = game.to_move();
    let size = game.board().size();
    let failed = |e: &EngineError| Ending::engine_failed(color, e, clock.is_some());
    let engine = &mut *players[color.index()];
    let limit = match &clock {
        Some(c) => {
            let (secs, stones) = c.time_left();
            let time_left = format!("time_left {color} {secs} {stones}");
            // Its answer does not matter; a failure to answer does.
            if let Err(e) = engine.send(&time_left, settings.move_timeout) {
                return Err(failed(&e));
            }
            Duration::from_secs_f64((c.available() + settings.time_margin).max(0.001))
        }
        None => settings.move_timeout,
    };
    let genmove = format!("genmove {color}");
    let started = Instant::now();
    let answer = hooks.genmove(game, engine, &genmove, limit);
    let used = started.elapsed().as_secs_f64();
    times.total += used;
    times.per_move.push(used);
    if let Some(c) = &clock {
        let left = c.available() - used;
        times.min_left = Some(times.min_left.map_or(left, |m| m.min(left)));
    }
    let text = match answer.map_err(|e| failed(&e))? {
        Ok(text) => text,
        Err(msg) => {
            let detail = format!("{color}: genmove failed: {msg}");
            return Err(Ending::lost(color, EndReason::Garbage, detail));
        }
    };
    if let Some(c) = clock {
        if !c.spend(used, settings.time_margin) {
            let detail = format!("{color} ran out of time ({used:.2} s for the last move)");
            return Err(Ending::lost(color, EndReason::Time, detail));
        }
    }
    let word = text.trim();
    if word.eq_ignore_ascii_case("resign") {
        let detail = format!("{color} resigned");
        return Err(Ending::lost(color, EndReason::Resignation, detail));
    }
    let mv = match word.parse::<Vertex>().and_then(|v| v.to_move(size)) {
        Ok(mv) => mv,
        Err(VertexError::OffBoard) => {
            let detail = format!("{color} played {word}, off the {size}x{size} board");
            return Err(Ending::lost(color, EndReason::IllegalMove, detail));
        }
        Err(VertexError::Malformed) => {
            let detail = format!(
                "{color}: engine '{}' ({}) answered {word:?} to '{genmove}', not a move",
                engine.name(),
                engine.command()
            );
            return Err(Ending::lost(color, EndReason::Garbage, detail));
        }
    };
    let vertex = Vertex::from_move(mv, size);
    if let Err(e) = game.play(color, mv) {
        let detail = format!("{color} played {vertex}, an illegal move ({e})");
        return Err(Ending::lost(color, EndReason::IllegalMove, detail));
    }
    hooks.record(color, mv, used);
    let other = color.opponent();
    let play = format!("play {color} {vertex}");
    match players[other.index()].send(&play, settings.move_timeout) {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(msg)) => {
            let detail = format!("{other} refused '{play}', a legal move: {msg}");
            Err(Ending::lost(other, EndReason::Refused, detail))
        }
        Err(e) => Err(Ending::engine_failed(other, &e, false)),
    }
}

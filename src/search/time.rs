//! The clock of one game and how much of it one move may spend.
//!
//! The GTP layer keeps a [`Clock`] per game, fills it from `time_settings`,
//! `kgs-time_settings` and `time_left`, and asks [`Clock::budget`] before each
//! `genmove`. Budgets always keep a safety margin for process start-up, GTP
//! round trips and GUI latency, so a move never loses on time.

use crate::board::{Color, Game};
use std::time::Duration;

/// The time system of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum System {
    /// No clock.
    #[default]
    None,
    /// Only main time; the game is lost when it runs out.
    Absolute,
    /// Main time, then `periods` periods of `byo` seconds each; a period is
    /// used up only when a move takes longer than it.
    Japanese,
    /// Main time, then `stones` moves in every `byo` seconds.
    Canadian,
}

/// What is left on one player's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Side {
    /// Main time left, seconds.
    main: f64,
    /// In byo-yomi: time left in the current period (Japanese) or block (Canadian).
    byo: f64,
    /// Periods left (Japanese) or stones left to play in the block (Canadian).
    stones: u32,
    /// Whether main time is over.
    in_byo: bool,
}

/// The clock of one game: time system and time left for each player.
///
/// ```
/// use kosumi::board::{Color, Game, Rules};
/// use kosumi::search::Clock;
/// let game = Game::new(9, Rules::japanese());
/// let mut clock = Clock::canadian(0.0, 60.0, 10);
/// let b = clock.budget(Color::Black, &game).unwrap();
/// assert!(b.as_secs_f64() > 3.0 && b.as_secs_f64() < 6.0);
/// clock.set_time_left(Color::Black, 2.0, 1);
/// assert!(clock.budget(Color::Black, &game).unwrap().as_secs_f64() < 2.0);
/// assert!(Clock::none().budget(Color::Black, &game).is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    system: System,
    main: f64,
    byo: f64,
    stones: u32,
    sides: [Side; 2],
}

/// Seconds kept back from any deadline for process and GUI latency. Up to
/// 2 s: at 1 s, 30 s byo-yomi moves on a loaded machine ended with 1.07 s
/// left, too close for a server's network lag.
fn margin(available: f64) -> f64 {
    (0.2 + 0.05 * available).min(2.0)
}

impl Clock {
    /// No clock: moves are bounded by time per move or playouts instead.
    pub fn none() -> Clock {
        Clock::default()
    }

    /// GTP `time_settings` semantics: `byo_secs == 0` means absolute time;
    /// `byo_secs > 0` with `byo_stones == 0` means no time limit; otherwise
    /// Canadian byo-yomi of `byo_stones` moves per `byo_secs`. All zero
    /// (`time_settings 0 0 0`) is read as no time limit rather than a game
    /// already lost on time.
    pub fn from_gtp(main_secs: f64, byo_secs: f64, byo_stones: u32) -> Clock {
        if byo_secs <= 0.0 && main_secs <= 0.0 {
            Clock::none()
        } else if byo_secs <= 0.0 {
            Clock::absolute(main_secs)
        } else if byo_stones == 0 {
            Clock::none()
        } else {
            Clock::canadian(main_secs, byo_secs, byo_stones)
        }
    }

    fn with(system: System, main: f64, byo: f64, stones: u32) -> Clock {
        let main = sane(main);
        let byo = sane(byo);
        let side = Side {
            main,
            byo,
            stones,
            in_byo: main <= 0.0,
        };
        Clock {
            system,
            main,
            byo,
            stones,
            sides: [side; 2],
        }
    }

    /// Absolute time: `main_secs` for the whole game.
    pub fn absolute(main_secs: f64) -> Clock {
        Clock::with(System::Absolute, main_secs, 0.0, 0)
    }

    /// Japanese byo-yomi (`kgs-time_settings byoyomi`): main time, then
    /// `periods` periods of `period_secs`.
    pub fn japanese(main_secs: f64, period_secs: f64, periods: u32) -> Clock {
        if periods == 0 || period_secs <= 0.0 {
            return Clock::absolute(main_secs);
        }
        Clock::with(System::Japanese, main_secs, period_secs, periods)
    }

    /// Canadian byo-yomi: main time, then `stones` moves in every `byo_secs`.
    pub fn canadian(main_secs: f64, byo_secs: f64, stones: u32) -> Clock {
        if stones == 0 || byo_secs <= 0.0 {
            return Clock::absolute(main_secs);
        }
        Clock::with(System::Canadian, main_secs, byo_secs, stones)
    }

    /// Whether a clock is running (any system but none).
    pub fn is_set(&self) -> bool {
        self.system != System::None
    }

    /// GTP `time_left`: `secs` left for `color`; `stones == 0` means main
    /// time, otherwise byo-yomi with `stones` moves left in the block
    /// (Canadian) or `stones` periods left (Japanese, as KGS sends it).
    pub fn set_time_left(&mut self, color: Color, secs: f64, stones: u32) {
        let secs = sane(secs);
        let side = &mut self.sides[color.index()];
        match self.system {
            System::None => {}
            System::Absolute => side.main = secs,
            System::Japanese | System::Canadian => {
                if stones == 0 {
                    side.main = secs;
                    side.in_byo = false;
                    if self.system == System::Japanese {
                        side.stones = self.stones;
                    }
                } else {
                    side.main = 0.0;
                    side.in_byo = true;
                    side.byo = secs;
                    side.stones = stones;
                }
            }
        }
    }

    /// Books `elapsed` against `color`'s clock after a move, for controllers
    /// that send no `time_left`.
    pub fn spend(&mut self, color: Color, elapsed: Duration) {
        let mut t = elapsed.as_secs_f64();
        let (system, byo, stones) = (self.system, self.byo, self.stones);
        let side = &mut self.sides[color.index()];
        if system == System::None {
            return;
        }
        if !side.in_byo {
            let used = t.min(side.main);
            side.main -= used;
            t -= used;
            if side.main > 0.0 || system == System::Absolute {
                return;
            }
            side.in_byo = true;
            side.byo = byo;
            side.stones = stones;
        }
        match system {
            System::Japanese => {
                // Each whole period overrun is lost; the next one starts full.
                while t > byo && side.stones > 0 {
                    t -= byo;
                    side.stones -= 1;
                }
                side.byo = byo;
            }
            System::Canadian => {
                side.byo = (side.byo - t).max(0.0);
                side.stones = side.stones.saturating_sub(1);
                if side.stones == 0 {
                    side.byo = byo;
                    side.stones = stones;
                }
            }
            _ => {}
        }
    }

    /// Seconds `color` may think for its next move in `game`, or `None`
    /// without a clock. The budget never exceeds the time left (main plus the
    /// current period or block) minus a safety margin.
    pub fn budget(&self, color: Color, game: &Game) -> Option<Duration> {
        self.plan(color, game).map(|p| p.soft)
    }

    /// The nominal budget and the most a hard, unclear move may take.
    pub(crate) fn budget_range(&self, color: Color, game: &Game) -> Option<(Duration, Duration)> {
        self.plan(color, game).map(|p| (p.soft, p.hard))
    }

    /// How `color`'s next move in `game` should use the clock, or `None`
    /// without a clock.
    ///
    /// In main time the time left is shared by the moves the game still
    /// needs, weighted by the phase of the game (opening moves get less, the
    /// middle game more). When byo-yomi follows, the main time is planned
    /// over fewer moves, since the last ones will have their periods, and no
    /// move in main time plans for less than a move in byo-yomi gets. No move
    /// in main time takes more than a few percent of the main time. In
    /// byo-yomi a move takes most of its period (or its share of the
    /// Canadian block), never all of it.
    pub fn plan(&self, color: Color, game: &Game) -> Option<Plan> {
        let side = self.sides[color.index()];
        let moves_left = own_moves_left(game);
        // What byo-yomi gives each move, less the margin.
        let per_move_byo = match self.system {
            System::Canadian => self.byo / self.stones.max(1) as f64,
            System::Japanese => self.byo,
            _ => 0.0,
        };
        let byo_share = (per_move_byo - margin(per_move_byo)).max(0.0);
        let (soft, hard) = match self.system {
            System::None => return None,
            System::Japanese | System::Canadian if side.in_byo => {
                // Canadian: the block's time shared by its stones left;
                // Japanese: a period each move, never lost if kept to.
                let per_move = if self.system == System::Canadian {
                    side.byo / side.stones.max(1) as f64
                } else {
                    side.byo
                };
                let limit = (per_move - margin(per_move)).max(0.0);
                (limit * 0.6, limit)
            }
            _ => {
                let avail = (side.main - margin(side.main)).max(0.0);
                // The moves main time must last: all of them without
                // byo-yomi; down to half when a period gives a move as much
                // as an even share of the main time would.
                let even = avail / moves_left;
                let cover = if byo_share > 0.0 {
                    (byo_share / even.max(1e-9)).min(1.0)
                } else {
                    0.0
                };
                let base = avail / (moves_left * (1.0 - 0.5 * cover));
                // Byo-yomi gives every later move `byo_share`: main time
                // saved for moves it would cover is wasted, so no move in
                // main time plans for less than a move in byo-yomi (the cap
                // below still holds).
                let soft = (base * phase_weight(game)).max(0.6 * byo_share);
                let hard = (soft * 2.0).max(byo_share);
                let ending = avail < byo_share;
                // A few percent of the main time at most, less in the opening.
                // (The main time of the settings, or more when `time_left`
                // reports more than the settings gave.)
                let main = self.main.max(side.main);
                let cap = main * if opening(game) { 0.025 } else { 0.045 };
                let cap = if ending { cap.max(byo_share) } else { cap };
                let limit = if self.system == System::Absolute {
                    // Sudden death: never more than a quarter of what is left.
                    avail / 4.0
                } else {
                    avail + byo_share
                };
                let soft = soft.min(cap).min(limit);
                (soft, hard.min(cap).min(limit).max(soft))
            }
        };
        // A few playouts even in time trouble: a tenth of what is left, at
        // most 50 ms.
        let total = if side.in_byo { side.byo } else { side.main };
        let floor = (0.1 * total).min(0.05);
        Some(Plan {
            soft: secs(soft.max(floor)),
            hard: secs(hard.max(floor)),
            moves_left,
            main_left: side.main,
            in_byo: side.in_byo,
            byo_left: side.byo,
            periods: side.stones,
        })
    }
}

/// How one move is to use the clock (see [`Clock::plan`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The nominal budget: the search stops here unless the best move is unclear.
    pub soft: Duration,
    /// The most an unclear move may take.
    pub hard: Duration,
    /// The estimate of the player's own moves still to play.
    pub moves_left: f64,
    /// Main time left, seconds.
    pub main_left: f64,
    /// Whether main time is over.
    pub in_byo: bool,
    /// In byo-yomi: time left in the period or block, seconds.
    pub byo_left: f64,
    /// In byo-yomi: periods (Japanese) or stones of the block (Canadian) left.
    pub periods: u32,
}

impl std::fmt::Display for Plan {
    /// `budget 4.7 s (up to 9.4 s), main 280.3 s left, about 120 moves to go`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "budget {:.1} s (up to {:.1} s), ",
            self.soft.as_secs_f64(),
            self.hard.as_secs_f64()
        )?;
        if self.in_byo {
            write!(
                f,
                "byo-yomi {:.1} s left, {} left",
                self.byo_left, self.periods
            )
        } else {
            write!(
                f,
                "main {:.1} s left, about {:.0} moves to go",
                self.main_left, self.moves_left
            )
        }
    }
}

fn sane(x: f64) -> f64 {
    if x.is_finite() {
        x.max(0.0)
    } else {
        0.0
    }
}

fn secs(x: f64) -> Duration {
    Duration::from_secs_f64(sane(x))
}

/// A cautious guess of the moves the player to move still has to make: a
/// game goes on until about 30% of the board is left empty (territory),
/// with a floor so that a long game never runs the clock dry.
fn own_moves_left(game: &Game) -> f64 {
    let area = (game.board().size() * game.board().size()) as f64;
    let empty = game.board().empty_count() as f64;
    let floor = (area / 16.0).max(8.0);
    (0.5 * (empty - 0.3 * area)).max(floor)
}

/// The first tenth of the board's points in moves (36 moves on 19x19).
fn opening(game: &Game) -> bool {
    let area = game.board().size() * game.board().size();
    game.moves().len() * 10 < area
}

/// How much of an even share a move at this point of the game gets: half
/// on the first move, rising through the opening to 1.3 in the middle game
/// (until 45% of the points have been played), then 1.
fn phase_weight(game: &Game) -> f64 {
    let area = (game.board().size() * game.board().size()) as f64;
    let played = game.moves().len() as f64;
    if played < 0.1 * area {
        0.5 + 0.8 * played / (0.1 * area)
    } else if played < 0.45 * area {
        1.3
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Rules};

    #[test]
    fn gtp_semantics() {
        assert_eq!(Clock::from_gtp(10.0, 0.0, 0).system, System::Absolute);
        assert!(!Clock::from_gtp(10.0, 5.0, 0).is_set());
        assert_eq!(Clock::from_gtp(10.0, 5.0, 3).system, System::Canadian);
    }

    /// One simulated move: what the plan allowed and whether it was in byo-yomi.
    struct Step {
        ply: usize,
        soft: f64,
        hard: f64,
        in_byo: bool,
        main_left: f64,
    }

    /// Plays a `size` game of `plies` moves (stones on scattered points,
    /// passes when that fails); Black takes the hard limit of every plan
    /// (`worst`) or the nominal budget, White's moves cost Black nothing. Checks that no
    /// plan could lose on time, and returns Black's plans.
    fn simulate(mut clock: Clock, size: usize, plies: usize, worst: bool) -> Vec<Step> {
        let mut game = Game::new(size, Rules::japanese());
        let points: Vec<_> = game.board().points().collect();
        let mut steps = Vec::new();
        let mut next = 0;
        for ply in 0..plies {
            let color = game.to_move();
            if color == Color::Black {
                let plan = clock.plan(color, &game).unwrap();
                let side = clock.sides[0];
                let (soft, hard) = (plan.soft.as_secs_f64(), plan.hard.as_secs_f64());
                // Never past what the clock holds for this move: main time
                // plus one period, or the block's share of its time.
                let room = match clock.system {
                    System::Absolute => side.main,
                    System::Japanese => side.main + clock.byo,
                    System::Canadian if side.in_byo => side.byo / side.stones.max(1) as f64,
                    System::Canadian => side.main + clock.byo / clock.stones as f64,
                    System::None => unreachable!(),
                };
                assert!(hard < room, "ply {ply}: hard {hard:.2} s, room {room:.2} s");
                assert!(soft <= hard && soft > 0.0, "ply {ply}: {soft} {hard}");
                steps.push(Step {
                    ply,
                    soft,
                    hard,
                    in_byo: side.in_byo,
                    main_left: side.main,
                });
                clock.spend(
                    color,
                    Duration::from_secs_f64(if worst { hard } else { soft }),
                );
                if clock.system == System::Japanese {
                    assert_eq!(
                        clock.sides[0].stones.max(1),
                        clock.stones.max(1),
                        "a period was lost"
                    );
                }
            }
            let mut mv = Move::Pass;
            while next < points.len() * 3 {
                let p = points[(next * 7) % points.len()];
                next += 1;
                if game.board().get(p).is_none() && game.clone().play(color, Move::Play(p)).is_ok()
                {
                    mv = Move::Play(p);
                    break;
                }
            }
            game.play(color, mv).unwrap();
        }
        steps
    }

    /// The longest move in main time, but for the last ones, which may take
    /// what a move in byo-yomi takes (`byo` seconds).
    fn max_in_main(steps: &[Step], byo: f64) -> f64 {
        steps
            .iter()
            .filter(|s| !s.in_byo && s.main_left >= byo)
            .map(|s| s.hard)
            .fold(0.0, f64::max)
    }

    #[test]
    fn main_time_lasts_the_game_and_peaks_in_the_middle() {
        let steps = simulate(Clock::absolute(300.0), 19, 400, true);
        let total: f64 = steps.iter().map(|s| s.hard).sum();
        assert!(total < 300.0, "{total}");
        assert!(max_in_main(&steps, 0.0) <= 0.045 * 300.0 + 1e-9);
        // The second own move gets less than a middle-game move.
        let second = steps[1].soft;
        let middle = steps.iter().find(|s| s.ply >= 100).unwrap().soft;
        assert!(second < middle, "move 2: {second}, middle: {middle}");
        for s in steps.iter().filter(|s| s.ply < 36) {
            assert!(
                s.hard <= 0.025 * 300.0 + 1e-9,
                "opening ply {}: {}",
                s.ply,
                s.hard
            );
        }
    }

    #[test]
    fn the_issues_clock_spends_a_few_percent_on_the_opening() {
        // time_settings 300 30 1 on 19x19: move 1 took 16.6 s, move 2 35.2 s.
        let steps = simulate(Clock::from_gtp(300.0, 30.0, 1), 19, 300, true);
        assert!(
            steps[0].hard <= 7.5 && steps[1].hard <= 7.5,
            "{} {}",
            steps[0].hard,
            steps[1].hard
        );
        assert!(max_in_main(&steps, 30.0) <= 0.045 * 300.0 + 1e-9);
        assert!(steps.iter().all(|s| s.hard < 30.0));
        // Spending the nominal budgets, the middle game gets more than move 2.
        let steps = simulate(Clock::from_gtp(300.0, 30.0, 1), 19, 300, false);
        let middle = steps.iter().find(|s| s.ply >= 80).unwrap();
        assert!(steps[1].soft < middle.soft);
        // Main time runs out, then every move keeps within its period.
        assert!(steps.last().unwrap().in_byo);
    }

    #[test]
    fn main_time_is_not_saved_for_moves_byo_yomi_covers() {
        // 1,800 s + 30 s per 5 stones on 19x19: a game's last main-time
        // moves took 1.6 s with 6 s a move waiting in byo-yomi.
        let steps = simulate(Clock::from_gtp(1800.0, 30.0, 5), 19, 400, false);
        let byo_share = 6.0 - margin(6.0);
        for s in steps.iter().filter(|s| !s.in_byo) {
            assert!(
                s.soft >= 0.6 * byo_share - 1e-9,
                "ply {}: {}",
                s.ply,
                s.soft
            );
        }
        assert!(max_in_main(&steps, 6.0) <= 0.045 * 1800.0 + 1e-9);
        // 300 s + 30 s: every main-time move gets the cap at least, 2.5% of
        // the main time in the opening, 4.5% after.
        let steps = simulate(Clock::from_gtp(300.0, 30.0, 1), 19, 300, false);
        for s in steps.iter().filter(|s| !s.in_byo && s.main_left > 30.0) {
            assert!(s.soft >= 7.5 - 1e-9, "ply {}: {}", s.ply, s.soft);
        }
        // A 300 s + 30 s game with 45 s of main time left planned 1.6 s.
        let mut clock = Clock::from_gtp(300.0, 30.0, 1);
        clock.set_time_left(Color::Black, 45.0, 0);
        let game = Game::new(19, Rules::japanese());
        let (soft, hard) = clock.budget_range(Color::Black, &game).unwrap();
        assert!(soft.as_secs_f64() >= 7.5 - 1e-9, "{soft:?}");
        assert!(hard.as_secs_f64() < 45.0 + 30.0 - 2.0, "{hard:?}");
    }

    #[test]
    fn byo_yomi_only_keeps_within_each_period() {
        for clock in [Clock::japanese(0.0, 30.0, 5), Clock::from_gtp(0.0, 10.0, 1)] {
            let steps = simulate(clock, 9, 120, true);
            assert!(steps.iter().all(|s| s.in_byo));
            assert!(
                steps.iter().all(|s| s.hard > 5.0),
                "most of each period is used"
            );
        }
    }

    #[test]
    fn canadian_blocks_are_shared_by_their_stones() {
        // kgs-time_settings canadian 600 300 25.
        let steps = simulate(Clock::canadian(600.0, 300.0, 25), 19, 500, true);
        assert!(max_in_main(&steps, 12.0) <= 0.045 * 600.0 + 1e-9);
        let in_byo: Vec<_> = steps.iter().filter(|s| s.in_byo).collect();
        assert!(!in_byo.is_empty());
        // 12 s a stone, less the margin; later stones of a block get what
        // earlier ones left (the simulation checks each block's room).
        assert!(in_byo[0].hard <= 12.0, "{}", in_byo[0].hard);
    }

    #[test]
    fn sudden_death_with_little_left() {
        let mut clock = Clock::absolute(300.0);
        let game = Game::new(19, Rules::japanese());
        for left in [10.0, 2.0, 0.3, 0.0] {
            clock.set_time_left(Color::Black, left, 0);
            let plan = clock.plan(Color::Black, &game).unwrap();
            let hard = plan.hard.as_secs_f64();
            assert!(hard <= (left / 4.0f64).max(0.03), "{left}: {hard}");
            assert!(plan.soft <= plan.hard);
        }
        // A whole game from 20 s never runs dry.
        let mut short = Clock::absolute(300.0);
        short.set_time_left(Color::Black, 20.0, 0);
        let steps = simulate(short, 9, 160, true);
        assert!(steps.iter().map(|s| s.hard).sum::<f64>() < 20.0);
    }

    #[test]
    fn japanese_spend_loses_periods() {
        let mut c = Clock::japanese(1.0, 10.0, 3);
        c.spend(Color::White, Duration::from_secs_f64(12.0));
        let s = c.sides[1];
        assert!(s.in_byo);
        assert_eq!(s.stones, 2);
        let game = Game::new(9, Rules::japanese());
        let (soft, hard) = c.budget_range(Color::White, &game).unwrap();
        assert!(
            hard.as_secs_f64() < 10.0 && soft.as_secs_f64() > 5.0,
            "{soft:?} {hard:?}"
        );
    }

    #[test]
    fn long_byo_yomi_keeps_more_than_a_second() {
        let mut c = Clock::from_gtp(300.0, 30.0, 1);
        c.set_time_left(Color::Black, 30.0, 1);
        let game = Game::new(19, Rules::japanese());
        let (_, hard) = c.budget_range(Color::Black, &game).unwrap();
        // 1.7 s of a 30 s period (1 s before).
        assert!(hard.as_secs_f64() <= 28.5, "{hard:?}");
    }

    #[test]
    fn the_plan_reads_on_one_line() {
        let game = Game::new(19, Rules::japanese());
        let text = Clock::from_gtp(300.0, 30.0, 1)
            .plan(Color::Black, &game)
            .unwrap()
            .to_string();
        assert!(
            text.starts_with("budget ") && text.contains("main 300.0 s left"),
            "{text}"
        );
    }
}

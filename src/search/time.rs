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

/// Seconds kept back from any deadline for process and GUI latency.
fn margin(available: f64) -> f64 {
    (0.2 + 0.05 * available).min(1.0)
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
        self.budget_range(color, game).map(|(soft, _)| soft)
    }

    /// The nominal budget and the most a hard, unclear move may take.
    pub(crate) fn budget_range(&self, color: Color, game: &Game) -> Option<(Duration, Duration)> {
        let side = self.sides[color.index()];
        let moves_left = own_moves_left(game);
        let (soft, hard) = match self.system {
            System::None => return None,
            System::Absolute => {
                let avail = (side.main - margin(side.main)).max(0.0);
                let soft = avail / moves_left;
                (soft, (soft * 3.0).min(avail / 4.0).max(soft))
            }
            System::Japanese | System::Canadian if side.in_byo => {
                // Canadian: the block's time shared by its stones; Japanese: a
                // whole period each move, which is never lost if kept to.
                let per_move = if self.system == System::Canadian {
                    side.byo / side.stones.max(1) as f64
                } else {
                    side.byo
                };
                let limit = (per_move - margin(per_move)).max(0.0);
                (limit * 0.9, limit)
            }
            System::Japanese | System::Canadian => {
                let per_move_byo = if self.system == System::Canadian {
                    self.byo / self.stones.max(1) as f64
                } else {
                    self.byo
                };
                let byo_share = (per_move_byo - margin(per_move_byo)).max(0.0);
                let avail = (side.main - margin(side.main)).max(0.0);
                // Main time plus what byo-yomi will give each later move.
                let soft = avail / moves_left + 0.5 * byo_share;
                let cap = avail + byo_share;
                (
                    soft.min(cap),
                    (soft * 3.0)
                        .min(avail / 4.0 + byo_share)
                        .min(cap)
                        .max(soft.min(cap)),
                )
            }
        };
        // A few playouts even in time trouble: a tenth of what is left, at
        // most 50 ms.
        let total = if side.in_byo { side.byo } else { side.main };
        let floor = (0.1 * total).min(0.05);
        Some((secs(soft.max(floor)), secs(hard.max(floor))))
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

/// A cautious guess of the moves `to_move` still has to make.
fn own_moves_left(game: &Game) -> f64 {
    let area = (game.board().size() * game.board().size()) as f64;
    let expected_own = (0.4 * area).max(15.0);
    let played_own = game.moves().len() as f64 / 2.0;
    (expected_own - played_own).max(expected_own / 4.0).max(8.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;

    #[test]
    fn gtp_semantics() {
        assert_eq!(Clock::from_gtp(10.0, 0.0, 0).system, System::Absolute);
        assert!(!Clock::from_gtp(10.0, 5.0, 0).is_set());
        assert_eq!(Clock::from_gtp(10.0, 5.0, 3).system, System::Canadian);
    }

    #[test]
    fn japanese_spend_loses_periods() {
        let mut c = Clock::japanese(1.0, 10.0, 3);
        c.spend(Color::White, Duration::from_secs_f64(12.0));
        let s = c.sides[1];
        assert!(s.in_byo);
        assert_eq!(s.stones, 2);
        let game = Game::new(9, Rules::japanese());
        let b = c.budget(Color::White, &game).unwrap().as_secs_f64();
        assert!(b < 10.0 && b > 7.0, "{b}");
    }
}

//! Clocks: Canadian byo-yomi settings and one player's clock.

use anyhow::{anyhow, ensure};

/// Canadian byo-yomi settings (`byo == 0`: absolute time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Main time in seconds.
    pub main: f64,
    /// Seconds of a byo-yomi period.
    pub byo: f64,
    /// Stones to play in a period.
    pub stones: u32,
}

impl TimeControl {
    /// Reads `--time`: MAIN or MAIN/BYO/STONES in seconds.
    pub fn parse(text: &str) -> anyhow::Result<TimeControl> {
        let bad = || anyhow!("--time wants MAIN or MAIN/BYO/STONES in seconds, got '{text}'");
        let parts: Vec<&str> = text.split('/').map(str::trim).collect();
        let num = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(bad)
        };
        let tc = match parts.as_slice() {
            [main] => TimeControl {
                main: num(main)?,
                byo: 0.0,
                stones: 0,
            },
            [main, byo, stones] => TimeControl {
                main: num(main)?,
                byo: num(byo)?,
                stones: stones.parse().map_err(|_| bad())?,
            },
            _ => return Err(bad()),
        };
        ensure!(
            tc.main > 0.0 || tc.byo > 0.0,
            "--time '{text}' leaves no time at all"
        );
        ensure!(
            tc.byo == 0.0 || tc.stones > 0,
            "--time '{text}': byo-yomi with 0 stones means no time limit in GTP; leave --time out instead"
        );
        Ok(tc)
    }

    /// The `time_settings` command that sets it.
    pub fn gtp(&self) -> String {
        format!(
            "time_settings {} {} {}",
            self.main.round() as u64,
            self.byo.round() as u64,
            self.stones
        )
    }
}

/// One player's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    tc: TimeControl,
    main_left: f64,
    in_byo: bool,
    period_left: f64,
    stones_left: u32,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        let in_byo = tc.main <= 0.0;
        Clock {
            tc,
            main_left: tc.main,
            in_byo,
            period_left: tc.byo,
            stones_left: tc.stones,
        }
    }

    /// Seconds the player may think before the flag falls.
    pub fn available(&self) -> f64 {
        if self.in_byo {
            self.period_left
        } else {
            self.main_left + self.tc.byo
        }
    }

    /// Charges `t` seconds for one move; false if the flag fell (by more than `margin`).
    pub fn spend(&mut self, t: f64, margin: f64) -> bool {
        if !self.in_byo {
            if t <= self.main_left {
                self.main_left -= t;
                return true;
            }
            let over = t - self.main_left;
            self.main_left = 0.0;
            if self.tc.byo <= 0.0 {
                return over <= margin;
            }
            // The move that runs out of main time is the first of a period.
            self.in_byo = true;
            self.period_left = self.tc.byo - over;
            self.stones_left = self.tc.stones;
        } else {
            self.period_left -= t;
        }
        if self.period_left < -margin {
            return false;
        }
        self.period_left = self.period_left.max(0.0);
        self.stones_left = self.stones_left.saturating_sub(1);
        if self.stones_left == 0 {
            self.period_left = self.tc.byo;
            self.stones_left = self.tc.stones;
        }
        true
    }

    /// The arguments of `time_left` after the colour: seconds and stones.
    pub fn time_left(&self) -> (u64, u32) {
        if self.in_byo {
            (self.period_left.max(0.0) as u64, self.stones_left)
        } else {
            (self.main_left.max(0.0) as u64, 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_parsing() {
        let tc = TimeControl::parse("300/30/5").unwrap();
        assert_eq!((tc.main, tc.byo, tc.stones), (300.0, 30.0, 5));
        assert_eq!(tc.gtp(), "time_settings 300 30 5");
        assert_eq!(
            TimeControl::parse("60").unwrap().gtp(),
            "time_settings 60 0 0"
        );
        for bad in [
            "", "a", "1/2", "1/2/x", "-1", "0", "0/0/0", "10/5/0", "1/2/3/4",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn absolute_clock() {
        let mut c = Clock::new(TimeControl::parse("10").unwrap());
        assert_eq!(c.available(), 10.0);
        assert!(c.spend(4.0, 1.0));
        assert_eq!(c.time_left(), (6, 0));
        assert!(c.spend(6.5, 1.0)); // within the margin
        assert!(!c.spend(1.5, 1.0));
    }

    #[test]
    fn byo_yomi_clock() {
        let mut c = Clock::new(TimeControl::parse("10/5/2").unwrap());
        assert_eq!(c.available(), 15.0);
        assert!(c.spend(12.0, 0.5)); // 2 s into the first period, first stone
        assert!(c.in_byo);
        assert_eq!(c.time_left(), (3, 1));
        assert!(c.spend(2.0, 0.5)); // second stone: period renewed
        assert_eq!(c.time_left(), (5, 2));
        assert!(c.spend(4.0, 0.5));
        assert_eq!(c.time_left(), (1, 1));
        assert!(!c.spend(2.0, 0.5));
        // Byo-yomi only.
        let mut c = Clock::new(TimeControl::parse("0/5/1").unwrap());
        assert!(c.in_byo);
        assert_eq!(c.time_left(), (5, 1));
        assert!(c.spend(4.9, 0.0));
        assert_eq!(c.time_left(), (5, 1));
        assert!(!c.spend(5.2, 0.1));
    }
}

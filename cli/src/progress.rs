//! Progress of long commands on stderr: a bar (indicatif) when stderr is a
//! terminal, plain lines when it is not (a log file, CI), nothing when
//! quiet. Shared by `kosumi match`, `kosumi stress` and `kosumi score`.
//!
//! ```no_run
//! use kosumi_cli::progress::Progress;
//! let progress = Progress::new("games", 10, false);
//! for g in 1..=10 {
//!     // ... one step of work ...
//!     progress.advance(1, &format!("game {g} done"));
//! }
//! progress.finish();
//! ```

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// One plain line per step, at most one every `plain_every`.
    Lines,
    /// Nothing.
    Hidden,
}

impl Mode {
    /// A bar on a terminal, plain lines otherwise, nothing when `quiet`.
    pub fn for_stderr(quiet: bool) -> Mode {
        if quiet {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        }
    }
}

/// Progress through a known number of steps; shareable between threads.
pub struct Progress {
    mode: Mode,
    label: String,
    total: u64,
    bar: Option<ProgressBar>,
    plain_every: Duration,
    /// Steps done and when the last plain line was printed.
    state: Mutex<(u64, Option<Instant>)>,
}

impl Progress {
    /// Progress through `total` steps named `label` (e.g. "games"), shown
    /// the way [`Mode::for_stderr`] chooses.
    pub fn new(label: &str, total: u64, quiet: bool) -> Progress {
        Progress::with_mode(label, total, Mode::for_stderr(quiet))
    }

    /// Progress shown in the given mode.
    pub fn with_mode(label: &str, total: u64, mode: Mode) -> Progress {
        let bar = (mode == Mode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{prefix} {bar:25} {pos}/{len} [{elapsed_precise}] {msg}",
            )
            .expect("the template is valid");
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            // Redraw each second so the elapsed time moves during long steps.
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        });
        Progress {
            mode,
            label: label.to_string(),
            total,
            bar,
            plain_every: Duration::ZERO,
            state: Mutex::new((0, None)),
        }
    }

    /// Plain lines at most once per `every` (the last step always prints);
    /// for commands with many quick steps.
    pub fn plain_every(mut self, every: Duration) -> Progress {
        self.plain_every = every;
        self
    }

    /// How progress is shown.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Starts from `pos` steps already done (a resumed match), printing nothing.
    pub fn set_position(&self, pos: u64) {
        self.lock().0 = pos;
        if let Some(bar) = &self.bar {
            bar.set_position(pos);
        }
    }

    /// `n` more steps done; `msg` says where things stand.
    pub fn advance(&self, n: u64, msg: &str) {
        let mut state = self.lock();
        state.0 += n;
        match self.mode {
            Mode::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(msg.to_string());
                    bar.inc(n);
                }
            }
            Mode::Lines => {
                let now = Instant::now();
                let due = state
                    .1
                    .is_none_or(|last| now.duration_since(last) >= self.plain_every);
                if due || state.0 >= self.total {
                    state.1 = Some(now);
                    eprintln!("{}", plain_line(&self.label, state.0, self.total, msg));
                }
            }
            Mode::Hidden => {}
        }
    }

    /// A line that stays (printed above the bar), unless hidden.
    pub fn println(&self, line: &str) {
        match (&self.bar, self.mode) {
            (Some(bar), _) => bar.println(line),
            (None, Mode::Lines) => eprintln!("{line}"),
            _ => {}
        }
    }

    /// Steps done so far.
    pub fn position(&self) -> u64 {
        self.lock().0
    }

    /// Leaves the bar on screen as it stands.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, Option<Instant>)> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A plain progress line: `games [3/10] msg`.
pub fn plain_line(label: &str, pos: u64, total: u64, msg: &str) -> String {
    let line = format!("{label} [{pos}/{total}] {msg}");
    line.trim_end().to_string()
}

/// Seconds as `45s`, `3m07s` or `2h05m`.
pub fn format_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_lines() {
        let p = Progress::with_mode("games", 4, Mode::Hidden);
        p.set_position(1);
        p.advance(2, "x");
        assert_eq!(p.position(), 3);
        assert_eq!(
            plain_line("games", 3, 4, "A 2 - 1 B"),
            "games [3/4] A 2 - 1 B"
        );
        assert_eq!(plain_line("games", 0, 4, ""), "games [0/4]");
        assert_eq!(Mode::for_stderr(true), Mode::Hidden);
    }

    #[test]
    fn durations() {
        assert_eq!(format_duration(44.6), "45s");
        assert_eq!(format_duration(187.0), "3m07s");
        assert_eq!(format_duration(7500.0), "2h05m");
        assert_eq!(format_duration(-3.0), "0s");
    }
}

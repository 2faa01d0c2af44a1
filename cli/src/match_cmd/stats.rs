//! Match statistics: score with a 95% interval, Elo difference with an error
//! bar, and a sequential probability ratio test (SPRT) for stopping early.
//!
//! All figures are from one engine's point of view. A game scores 1 for a
//! win, ½ for a draw and 0 for a loss; `n` is the number of games, `s` the
//! mean score and `σ²` the per-game variance of the score,
//! `σ² = (W(1-s)² + D(½-s)² + L·s²) / n`.
//!
//! * **Score interval**: the Wilson interval for a proportion with
//!   `z = 1.96` applied to `s` (draws count half; treating the score as a
//!   proportion slightly overstates the spread when there are draws, so the
//!   interval errs wide):
//!   `(s + z²/2n ± z·√(s(1-s)/n + z²/4n²)) / (1 + z²/n)`.
//! * **Elo**: the logistic model `s = 1 / (1 + 10^(-Δ/400))`, so
//!   `Δ = -400·log10(1/s - 1)`. Its 95% error bar comes from the delta
//!   method: `±z · √(σ²/n) · 400 / (ln 10 · s(1-s))`.
//! * **SPRT**: Wald's test on the games as Bernoulli trials, a draw
//!   counting as half a win and half a loss (draws are rare in Go): with
//!   `s0`, `s1` the scores that `elo0`, `elo1` imply,
//!   `LLR = (W + D/2)·ln(s1/s0) + (L + D/2)·ln((1-s1)/(1-s0))`,
//!   and the test stops when `LLR ≤ ln(β/(1-α))` (H0: Elo ≤ elo0 accepted)
//!   or `LLR ≥ ln((1-β)/α)` (H1: Elo ≥ elo1 accepted). The generalised SPRT
//!   of fishtest, which divides by the observed variance instead, accepted
//!   H1 after 8 wins in 8 games at `0,40,0.05,0.05` (LLR 3.6, where the
//!   likelihood ratio is 0.87): far from half the games, with few games, the
//!   observed variance understates the spread.

use anyhow::{anyhow, ensure};
use std::fmt;

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn (jigo or void results counted as draws by the caller).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// A tally with the given counts.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score in `[0, 1]` (draws count half); `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The same games from the opponent's side.
    pub fn flipped(&self) -> Tally {
        Tally::new(self.losses, self.draws, self.wins)
    }

    /// Per-game variance of the score; `None` with no games.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / (w + d + l))
    }
}

/// Wilson 95% interval `(low, high)` for the score; `None` with no games.
pub fn score_interval(t: &Tally) -> Option<(f64, f64)> {
    let s = t.score()?;
    let n = t.games() as f64;
    let z2 = Z95 * Z95;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Elo difference implied by a score under the logistic model; infinite at
/// 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Score expected at an Elo difference under the logistic model.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference (infinite after all wins or all losses).
    pub elo: f64,
    /// Half-width of the 95% interval (infinite when `elo` is).
    pub error: f64,
    /// After all wins (all losses): the Elo difference at the low (high)
    /// end of the score's 95% interval, a bound that games can show where
    /// the estimate itself is infinite.
    pub bound: Option<f64>,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = self.bound {
            let side = if self.elo > 0.0 { '>' } else { '<' };
            write!(f, "{side} {b:+.0} (95%)")
        } else if self.elo.is_infinite() {
            let sign = if self.elo > 0.0 { '+' } else { '-' };
            write!(f, "{sign}inf")
        } else {
            write!(f, "{:+.1} ± {:.1}", self.elo, self.error)
        }
    }
}

/// Elo difference and delta-method 95% error bar; `None` with no games.
pub fn elo_estimate(t: &Tally) -> Option<EloEstimate> {
    let s = t.score()?;
    let elo = elo_from_score(s);
    if elo.is_infinite() {
        let (lo, hi) = score_interval(t)?;
        let inner = if elo > 0.0 { lo } else { hi };
        return Some(EloEstimate {
            elo,
            error: f64::INFINITY,
            bound: Some(elo_from_score(inner)),
        });
    }
    let se = (t.variance()? / t.games() as f64).sqrt();
    let error = Z95 * se * 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
    Some(EloEstimate {
        elo,
        error,
        bound: None,
    })
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis (greater than `elo0`).
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the Elo difference is at most `elo0`.
    AcceptH0,
    /// H1 accepted: the Elo difference is at least `elo1`.
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> anyhow::Result<Sprt> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        ensure!(
            parts.len() == 4,
            "--sprt wants elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05), got '{text}'"
        );
        let mut v = [0.0; 4];
        for (slot, part) in v.iter_mut().zip(&parts) {
            *slot = part
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| anyhow!("--sprt: '{part}' is not a number"))?;
        }
        let [elo0, elo1, alpha, beta] = v;
        ensure!(
            elo0 < elo1,
            "--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"
        );
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            ensure!(
                p > 0.0 && p < 0.5,
                "--sprt: {name} ({p}) must lie strictly between 0 and 0.5"
            );
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The `(lower, upper)` log-likelihood ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 after the games in `t`.
    pub fn llr(&self, t: &Tally) -> f64 {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let won = t.wins as f64 + 0.5 * t.draws as f64;
        let lost = t.losses as f64 + 0.5 * t.draws as f64;
        won * (s1 / s0).ln() + lost * ((1.0 - s1) / (1.0 - s0)).ln()
    }

    /// Whether the test has decided after the games in `t`.
    pub fn decision(&self, t: &Tally) -> SprtDecision {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn score_and_variance() {
        let t = Tally::new(7, 2, 1);
        assert_eq!(t.games(), 10);
        assert!(close(t.score().unwrap(), 0.8, 1e-12));
        assert_eq!(t.flipped(), Tally::new(1, 2, 7));
        assert_eq!(Tally::default().score(), None);
        assert!(close(Tally::new(1, 0, 1).variance().unwrap(), 0.25, 1e-12));
    }

    // Reference values computed independently (Python, same formulas).
    #[test]
    fn wilson_interval_matches_reference() {
        let (lo, hi) = score_interval(&Tally::new(60, 0, 40)).unwrap();
        assert!(close(lo, 0.502_002_586_791_061_8, 1e-9), "{lo}");
        assert!(close(hi, 0.690_598_713_567_541_1, 1e-9), "{hi}");
        let (lo, hi) = score_interval(&Tally::new(7, 2, 1)).unwrap();
        assert!(close(lo, 0.490_162_471_536_641_8, 1e-9), "{lo}");
        assert!(close(hi, 0.943_317_848_545_624_7, 1e-9), "{hi}");
        let (lo, hi) = score_interval(&Tally::new(10, 0, 0)).unwrap();
        assert!(close(lo, 0.722_467_200_137_110_7, 1e-9), "{lo}");
        assert!(close(hi, 1.0, 1e-12));
        assert_eq!(score_interval(&Tally::default()), None);
    }

    #[test]
    fn elo_matches_reference() {
        let e = elo_estimate(&Tally::new(60, 0, 40)).unwrap();
        assert!(close(e.elo, 70.436_503_622_272_47, 1e-9), "{e:?}");
        assert!(close(e.error, 69.500_314_971_533_37, 1e-9), "{e:?}");
        let e = elo_estimate(&Tally::new(55, 30, 15)).unwrap();
        assert!(close(e.elo, 147.190_714_117_837_76, 1e-9), "{e:?}");
        assert!(close(e.error, 59.571_698_547_028_61, 1e-9), "{e:?}");
        assert!(close(
            elo_estimate(&Tally::new(5, 0, 5)).unwrap().elo,
            0.0,
            1e-12
        ));
        assert_eq!(
            elo_estimate(&Tally::new(3, 0, 0)).unwrap().elo,
            f64::INFINITY
        );
        // One-sided results show a bound from the score interval, never infinity.
        assert_eq!(
            elo_estimate(&Tally::new(0, 0, 2)).unwrap().to_string(),
            "< +113 (95%)"
        );
        assert_eq!(
            elo_estimate(&Tally::new(5, 0, 0)).unwrap().to_string(),
            "> +46 (95%)"
        );
        let wide = elo_estimate(&Tally::new(100, 0, 0)).unwrap();
        assert_eq!(wide.to_string(), "> +566 (95%)");
        assert_eq!(elo_estimate(&Tally::default()), None);
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9));
    }

    #[test]
    fn sprt_llr_is_the_bernoulli_likelihood_ratio() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979_166_440_3, 1e-12));
        assert!(close(hi, 2.944_438_979_166_440_3, 1e-12));
        assert!(close(
            sprt.llr(&Tally::new(60, 0, 40)),
            0.534_230_912_016_598,
            1e-9
        ));
        let s = Sprt::parse("0, 5, 0.05, 0.05").unwrap();
        assert!(close(
            s.llr(&Tally::new(300, 400, 300)),
            -0.103_549_123_280_623_16,
            1e-9
        ));
        let s = Sprt::parse("-5,5,0.05,0.05").unwrap();
        assert!(close(
            s.llr(&Tally::new(120, 60, 80)),
            1.151_292_546_497_018_5,
            1e-9
        ));
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn sprt_decides() {
        let sprt = Sprt::parse("0,50,0.05,0.05").unwrap();
        assert_eq!(sprt.decision(&Tally::new(1, 0, 1)), SprtDecision::Continue);
        assert_eq!(
            sprt.decision(&Tally::new(400, 0, 100)),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            sprt.decision(&Tally::new(100, 0, 400)),
            SprtDecision::AcceptH0
        );
        // Eight wins in eight games are a likelihood ratio of e^0.87, not a
        // decision (the generalised SPRT's observed variance said 3.6).
        let s40 = Sprt::parse("0,40,0.05,0.05").unwrap();
        assert!(close(
            s40.llr(&Tally::new(8, 0, 0)),
            0.868_131_769_274_706_6,
            1e-9
        ));
        assert_eq!(s40.decision(&Tally::new(8, 0, 0)), SprtDecision::Continue);
        assert!(sprt.llr(&Tally::new(20, 0, 0)) > 0.0);
        assert_eq!(
            sprt.decision(&Tally::new(200, 0, 0)),
            SprtDecision::AcceptH1
        );
        assert!(sprt.llr(&Tally::new(0, 0, 20)) < 0.0);
    }

    #[test]
    fn sprt_rejects_bad_input() {
        for bad in [
            "",
            "0,10",
            "0,10,0.05",
            "a,10,0.05,0.05",
            "10,0,0.05,0.05",
            "0,10,0,0.05",
            "0,10,0.05,0.7",
            "0,10,0.05,nan",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}

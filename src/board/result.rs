//! Game results as GTP `final_score` and SGF `RE` write them: the one
//! parser and printer of `B+3.5`, `W+R` and `0`.

use std::fmt;
use std::str::FromStr;

use super::point::Color;

/// Who won a game and how. Each colour is the winner's.
///
/// `Display` writes `B+3.5`, `W+7` (no `.0`), `0` for a draw, and `B+R`,
/// `B+T`, `B+F`; the alternate form (`{:#}`) spells the last three out:
/// `B+Resign`, `B+Time`, `B+Forfeit`.
///
/// ```
/// use kosumi::board::{Color, GameResult};
/// let r: GameResult = "w+0.5 (upper bound)".parse().unwrap();
/// assert_eq!(r.margin(), Some(-0.5));
/// assert_eq!(r.to_string(), "W+0.5");
/// assert_eq!(format!("{:#}", GameResult::Resignation(Color::Black)), "B+Resign");
/// assert!("B+inf".parse::<GameResult>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    /// Neither side won (jigo).
    Draw,
    /// A count won by this many points (above zero).
    Points(Color, f64),
    /// The loser resigned.
    Resignation(Color),
    /// The loser ran out of time.
    Time(Color),
    /// The loser forfeited (an illegal move, a crash, ...).
    Forfeit(Color),
}

/// Text that is no game result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResultError;

impl fmt::Display for GameResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a game result")
    }
}

impl std::error::Error for GameResultError {}

impl GameResult {
    /// The result of a count with Black's margin `black_minus_white`:
    /// zero (or NaN) is a draw.
    pub fn from_margin(black_minus_white: f64) -> GameResult {
        if black_minus_white > 0.0 {
            GameResult::Points(Color::Black, black_minus_white)
        } else if black_minus_white < 0.0 {
            GameResult::Points(Color::White, -black_minus_white)
        } else {
            GameResult::Draw
        }
    }

    /// The winner; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Draw => None,
            GameResult::Points(c, _)
            | GameResult::Resignation(c)
            | GameResult::Time(c)
            | GameResult::Forfeit(c) => Some(c),
        }
    }

    /// Black's margin of a count (negative when White won, 0 for a draw);
    /// `None` for a game not counted.
    pub fn margin(self) -> Option<f64> {
        match self {
            GameResult::Draw => Some(0.0),
            GameResult::Points(Color::Black, m) => Some(m),
            GameResult::Points(Color::White, m) => Some(-m),
            _ => None,
        }
    }
}

impl FromStr for GameResult {
    type Err = GameResultError;

    /// Reads, in any case and with anything after a blank ignored (`w+0.5
    /// (upper bound)`): `0`, `Draw` or `Jigo`; `B+` or `W+` (blanks may
    /// follow the `+`) then a finite number (`3.5`, `3.50`, a sign read as
    /// Rust reads one, zero a draw), `R` or `Resign`, `T` or `Time`, `F` or
    /// `Forfeit`.
    fn from_str(text: &str) -> Result<GameResult, GameResultError> {
        let text = text.trim();
        let first = text.split_whitespace().next().ok_or(GameResultError)?;
        if ["0", "draw", "jigo"]
            .iter()
            .any(|w| first.eq_ignore_ascii_case(w))
        {
            return Ok(GameResult::Draw);
        }
        let winner = match text.get(..2).map(str::to_ascii_uppercase).as_deref() {
            Some("B+") => Color::Black,
            Some("W+") => Color::White,
            _ => return Err(GameResultError),
        };
        let how = text[2..].split_whitespace().next().ok_or(GameResultError)?;
        Ok(match how.to_ascii_lowercase().as_str() {
            "r" | "resign" => GameResult::Resignation(winner),
            "t" | "time" => GameResult::Time(winner),
            "f" | "forfeit" => GameResult::Forfeit(winner),
            number => {
                let points = number.parse::<f64>().map_err(|_| GameResultError)?;
                if !points.is_finite() {
                    return Err(GameResultError);
                }
                let sign = if winner == Color::Black { 1.0 } else { -1.0 };
                GameResult::from_margin(sign * points)
            }
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (winner, short, long) = match *self {
            GameResult::Draw => return f.write_str("0"),
            GameResult::Points(c, margin) => return write!(f, "{}+{margin}", c.letter()),
            GameResult::Resignation(c) => (c, "R", "Resign"),
            GameResult::Time(c) => (c, "T", "Time"),
            GameResult::Forfeit(c) => (c, "F", "Forfeit"),
        };
        let how = if f.alternate() { long } else { short };
        write!(f, "{}+{how}", winner.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};
    use GameResult::*;

    #[test]
    fn accepted() {
        // Texts separated by `|`.
        let cases = [
            ("B+3.5|B+3.50|b+3.5|B+ 3.5| B+3.5\n", Points(Black, 3.5)),
            (
                "W+0.5|w+0.5 (upper bound)|B+-0.5|W+.5e0",
                Points(White, 0.5),
            ),
            ("0|0 (seki)|Jigo|JIGO|Draw|draw|B+0|W+0.0", Draw),
            ("B+R|b+resign|B+Resign", Resignation(Black)),
            ("W+R|W+Resign", Resignation(White)),
            ("W+T|W+Time|w+time", Time(White)),
            ("B+F|B+Forfeit", Forfeit(Black)),
        ];
        for (texts, result) in cases {
            for text in texts.split('|') {
                assert_eq!(text.parse(), Ok(result), "{text:?}");
            }
        }
    }

    #[test]
    fn refused() {
        let texts = concat!(
            "| |B+|B+inf|W+infinity|B+NaN|B+1e400|B+x|B+3.5x|B3.5|+3.5|3.5|X+3|Void|?|",
            "B +3|B+Resigned|Black wins|1"
        );
        for text in texts.split('|') {
            assert_eq!(text.parse::<GameResult>(), Err(GameResultError), "{text:?}");
        }
    }

    #[test]
    fn margins_and_winners() {
        let margins = [Points(White, 0.5), Draw, Resignation(Black), Time(White)];
        assert_eq!(
            margins.map(GameResult::margin),
            [Some(-0.5), Some(0.0), None, None]
        );
        let winners = [Forfeit(White), Points(Black, 1.0), Draw];
        assert_eq!(
            winners.map(GameResult::winner),
            [Some(White), Some(Black), None]
        );
    }

    #[test]
    fn printing() {
        assert_eq!(GameResult::from_margin(3.5).to_string(), "B+3.5");
        assert_eq!(GameResult::from_margin(-7.0).to_string(), "W+7");
        assert_eq!(GameResult::from_margin(0.0).to_string(), "0");
        assert_eq!(GameResult::from_margin(-0.0).to_string(), "0");
        assert_eq!(GameResult::from_margin(f64::NAN).to_string(), "0");
        assert_eq!(Forfeit(White).to_string(), "W+F");
        assert_eq!(format!("{:#}", Forfeit(White)), "W+Forfeit");
        assert_eq!(format!("{:#}", Time(Black)), "B+Time");
        assert_eq!(format!("{:#}", Points(White, 0.5)), "W+0.5");
    }

    #[test]
    fn round_trips() {
        let mut results = vec![Draw];
        for c in Color::ALL {
            results.extend([Resignation(c), Time(c), Forfeit(c)]);
            results.extend([0.5, 1.0, 7.0, 12.5, 361.0, 1e-3].map(|m| Points(c, m)));
        }
        for r in results {
            assert_eq!(r.to_string().parse(), Ok(r), "{r}");
            assert_eq!(format!("{r:#}").parse(), Ok(r), "{r:#}");
            assert_eq!(r.to_string().to_lowercase().parse(), Ok(r), "{r}");
        }
    }
}

//! What the confirmation readings of one judgement found, so that a call
//! can be traced to a reading, or to the playouts when no reading settled
//! it (`kosumi score --readings`).

use crate::board::{Color, Point};
use std::fmt::Write;

/// One reading of a judgement: who tried to capture what, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Which reading: `eye space`, `race`, `seki`, `eyeless race`,
    /// `race partner`, or `local search` (a search of playouts, not an
    /// exact reading).
    pub what: &'static str,
    /// A stone of the chain read.
    pub target: Point,
    /// The stones of that chain.
    pub stones: usize,
    /// The side trying to capture it.
    pub attacker: Color,
    /// The side that moved first.
    pub first: Color,
    /// Positions visited (playouts, for a local search).
    pub positions: usize,
    /// How it ended.
    pub outcome: ReadingOutcome,
    /// Read when the board was judged again without the groups read dead.
    pub again: bool,
}

/// How a [`Reading`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadingOutcome {
    /// The attacker captures against every defence.
    Captured,
    /// The defence holds.
    Held,
    /// The positions ran out first: the playouts' verdict stands.
    RanOut,
    /// Not read: its region has more empty points than a reading takes.
    TooBig {
        /// Empty points of the region.
        empty: usize,
        /// The most a reading takes.
        most: usize,
    },
    /// A local search: the attacker captured in this share of its
    /// playouts.
    Searched {
        /// The capture rate, in percent.
        percent: u8,
    },
}

impl Reading {
    /// One line for a board of side `size`, for example `eye space of B
    /// Q18 (11 stones), White first: ran out after 400,000 positions`.
    pub fn describe(&self, size: usize) -> String {
        let mut s = format!(
            "{} of {} {} ({}), {} first: ",
            self.what,
            self.attacker.opponent().letter(),
            self.target.to_gtp(size),
            super::counted(self.stones, "stone"),
            self.first.name(),
        );
        let positions = separated(self.positions);
        match self.outcome {
            ReadingOutcome::Captured => write!(s, "captured ({positions} positions)"),
            ReadingOutcome::Held => write!(s, "holds ({positions} positions)"),
            ReadingOutcome::RanOut => write!(s, "ran out after {positions} positions"),
            ReadingOutcome::TooBig { empty, most } => {
                write!(s, "not read, {empty} empty points (at most {most})")
            }
            ReadingOutcome::Searched { percent } => {
                write!(s, "captured in {percent}% of {positions} playouts")
            }
        }
        .expect("writing to a String");
        if self.again {
            s.push_str(", judged again without the groups read dead");
        }
        s
    }
}

/// `n` with a comma every three digits.
fn separated(n: usize) -> String {
    let digits = n.to_string();
    let mut s = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(d);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_reads_as_a_line() {
        let r = Reading {
            what: "eye space",
            target: Point::new(15, 1),
            stones: 11,
            attacker: Color::White,
            first: Color::White,
            positions: 400_000,
            outcome: ReadingOutcome::RanOut,
            again: false,
        };
        assert_eq!(
            r.describe(19),
            "eye space of B Q18 (11 stones), White first: ran out after 400,000 positions"
        );
        let small = Reading {
            positions: 7,
            outcome: ReadingOutcome::Held,
            again: true,
            ..r
        };
        assert_eq!(
            small.describe(19),
            "eye space of B Q18 (11 stones), White first: holds (7 positions), \
             judged again without the groups read dead"
        );
        let searched = Reading {
            what: "local search",
            positions: 2000,
            outcome: ReadingOutcome::Searched { percent: 61 },
            ..r
        };
        assert_eq!(
            searched.describe(19),
            "local search of B Q18 (11 stones), White first: captured in 61% of 2,000 playouts"
        );
        assert_eq!(separated(1_234_567), "1,234,567");
        assert_eq!(separated(999), "999");
    }
}

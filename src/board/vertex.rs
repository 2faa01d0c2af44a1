//! GTP vertices: a move as GTP writes it (`D4`, `pass`), read and written
//! apart from any board, then placed on a board of a given size. The only
//! place vertex text is read or written.

use std::fmt;
use std::str::FromStr;

use super::point::{Move, Point, MAX_SIZE};

/// Column letters in GTP order: `I` is skipped.
const COLUMNS: &[u8; MAX_SIZE] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A move as GTP writes it: `pass`, or a column letter (`A` to `Z`, no
/// `I`) and a row number from 1 at the bottom. It names a point of the
/// largest board (25x25); [`Vertex::to_move`] places it on a given size.
///
/// ```
/// use kosumi::board::{Move, Point, Vertex, VertexError};
/// let v: Vertex = "d4".parse().unwrap();
/// assert_eq!(v.to_string(), "D4");
/// assert_eq!(v.to_move(19), Ok(Move::Play(Point::new(3, 15))));
/// assert_eq!("Z1".parse::<Vertex>().unwrap().to_move(19), Err(VertexError::OffBoard));
/// assert_eq!("I5".parse::<Vertex>(), Err(VertexError::Malformed));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// `pass`.
    Pass,
    /// A point: `column` from 0 at the left, `row` from 1 at the bottom,
    /// both within [`MAX_SIZE`].
    Point {
        /// Column from 0 (`A`).
        column: u8,
        /// Row from 1 at the bottom.
        row: u8,
    },
}

/// Why text is no vertex, or no point of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not `pass` nor a column letter and a row number.
    Malformed,
    /// A column letter and a row number, but off the board: a row of 0, or
    /// beyond the board's side.
    OffBoard,
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VertexError::Malformed => "not a vertex",
            VertexError::OffBoard => "a vertex off the board",
        })
    }
}

impl std::error::Error for VertexError {}

impl Vertex {
    /// The vertex of a move on a board of side `size` (the point on it).
    pub fn from_move(mv: Move, size: usize) -> Vertex {
        match mv {
            Move::Pass => Vertex::Pass,
            Move::Play(p) => Vertex::Point {
                column: p.x() as u8,
                row: (size - p.y()) as u8,
            },
        }
    }

    /// The move on a board of side `size`; a point beyond the board (or a
    /// size outside `1..=25`) is [`VertexError::OffBoard`]. `pass` is a move
    /// on every board.
    pub fn to_move(self, size: usize) -> Result<Move, VertexError> {
        match self {
            Vertex::Pass => Ok(Move::Pass),
            Vertex::Point { column, row } => {
                let (x, row) = (usize::from(column), usize::from(row));
                if row > size {
                    return Err(VertexError::OffBoard);
                }
                Point::checked(x, size - row, size)
                    .map(Move::Play)
                    .ok_or(VertexError::OffBoard)
            }
        }
    }
}

impl FromStr for Vertex {
    type Err = VertexError;

    /// `pass` or a letter and digits, in any case; leading zeros in the row
    /// are accepted (`d04`), as GNU Go does. A row of 0 or beyond 25 is
    /// [`VertexError::OffBoard`]: on no board, but no garbage either.
    fn from_str(text: &str) -> Result<Vertex, VertexError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::Pass);
        }
        let (&letter, digits) = text
            .as_bytes()
            .split_first()
            .ok_or(VertexError::Malformed)?;
        let column = COLUMNS
            .iter()
            .position(|&c| c == letter.to_ascii_uppercase())
            .ok_or(VertexError::Malformed)?;
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(VertexError::Malformed);
        }
        let significant = &digits[digits.iter().take_while(|&&d| d == b'0').count()..];
        // Two digits at most are left for a row up to 25: more are off every board.
        let row = match significant {
            [] => 0,
            [d] => d - b'0',
            [d, e] => (d - b'0') * 10 + (e - b'0'),
            _ => return Err(VertexError::OffBoard),
        };
        if !(1..=MAX_SIZE as u8).contains(&row) {
            return Err(VertexError::OffBoard);
        }
        Ok(Vertex::Point {
            column: column as u8,
            row,
        })
    }
}

impl fmt::Display for Vertex {
    /// `pass`, or the point in upper case (`D4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Point { column, row } => {
                write!(f, "{}{row}", char::from(COLUMNS[usize::from(column)]))
            }
        }
    }
}

impl Point {
    /// GTP name on a board of side `size` (`D4`, columns skip `I`): see [`Vertex`].
    pub fn to_gtp(self, size: usize) -> String {
        Vertex::from_move(Move::Play(self), size).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both stages at once, as a GTP argument is read.
    fn parse(text: &str, size: usize) -> Result<Move, VertexError> {
        text.parse::<Vertex>()?.to_move(size)
    }

    #[test]
    fn points() {
        // Text, board size, and the point's column and row from the top.
        let cases = [
            ("d4", 19, 3, 15),
            ("D4", 19, 3, 15),
            ("d04", 19, 3, 15),
            ("d004", 19, 3, 15),
            ("a1", 19, 0, 18),
            ("A19", 19, 0, 0),
            ("t19", 19, 18, 0),
            ("T1", 19, 18, 18),
            ("k10", 19, 9, 9),
            ("h1", 19, 7, 18),
            ("j1", 19, 8, 18),
            ("J9", 9, 8, 0),
            ("z25", 25, 24, 0),
            ("Z1", 25, 24, 24),
            ("b2", 2, 1, 0),
            ("g7", 7, 6, 0),
        ];
        for (text, size, x, y) in cases {
            let mv = Move::Play(Point::new(x, y));
            assert_eq!(parse(text, size), Ok(mv), "{text} on {size}");
            // Printed as written, in upper case, but for leading zeros.
            let printed = Vertex::from_move(mv, size).to_string();
            let written = text.to_uppercase();
            assert!(
                printed == written || written[1..].starts_with('0'),
                "{text}"
            );
        }
        assert_eq!(Point::new(8, 0).to_gtp(9), "J9");
    }

    #[test]
    fn pass_in_any_case() {
        for s in ["pass", "PASS", "Pass", "pAsS"] {
            assert_eq!(parse(s, 19), Ok(Move::Pass), "{s}");
        }
        assert_eq!(parse("pass", 26), Ok(Move::Pass));
        assert_eq!(Vertex::from_move(Move::Pass, 9).to_string(), "pass");
    }

    #[test]
    fn off_the_board_is_told_apart_from_garbage() {
        let cases = [
            (19, "t20 a0 a00 z25 u1 a20 Z99 d99999999999999999999999"),
            (2, "c1 a3"),
            (7, "h7"),
            (9, "k9 a10"),
            (25, "a26"),
            (26, "a1"),
            (0, "a1"),
        ];
        for (size, texts) in cases {
            for text in texts.split(' ') {
                assert_eq!(
                    parse(text, size),
                    Err(VertexError::OffBoard),
                    "{text} on {size}"
                );
            }
        }
        let garbage =
            "|d|4|dd4|d4x|d-4|d+4|d 4|resign|d4.0| d4|d4 |passs|pas|A+1|1A|i5|I5|\u{e9}4|d\u{663}";
        for text in garbage.split('|') {
            assert_eq!(parse(text, 19), Err(VertexError::Malformed), "{text:?}");
        }
    }

    #[test]
    fn every_size_round_trips() {
        for size in 1..=MAX_SIZE {
            for y in 0..size {
                for x in 0..size {
                    let mv = Move::Play(Point::new(x, y));
                    let text = Vertex::from_move(mv, size).to_string();
                    assert_eq!(parse(&text, size), Ok(mv), "{text} on {size}");
                    assert_eq!(parse(&text.to_lowercase(), size), Ok(mv));
                }
            }
            let letter = COLUMNS[size - 1] as char;
            let above = format!("{letter}{}", size + 1);
            assert_eq!(parse(&above, size), Err(VertexError::OffBoard));
            if let Some(&beyond) = COLUMNS.get(size) {
                let right = format!("{}1", beyond as char);
                assert_eq!(parse(&right, size), Err(VertexError::OffBoard));
            }
        }
    }
}

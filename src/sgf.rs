//! SGF (FF[3] and FF[4]) reading and writing for Go games.
//!
//! Reading follows the main line (first variation at each branch) and is
//! forgiving: anything KGS, CGoban, Sabaki, GoGui or Fox write loads, and
//! malformed input gives an [`SgfError`], never a panic.

use crate::board::{Color, Move, Point};

/// One event on the main line, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A move (stone or pass) by a colour, with the node's comment if any.
    Move {
        /// Who moved.
        color: Color,
        /// The move.
        mv: Move,
        /// `C[]` of the move's node (the match runner stores time used here).
        comment: Option<String>,
    },
    /// Setup in a node after the root (`AB`, `AW`, `AE`): points become
    /// `Some(colour)` stones or empty (`None`).
    Setup {
        /// Points and what they become.
        points: Vec<(Point, Option<Color>)>,
    },
}

/// A game as kosumi uses it: the root's facts and the main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Board side (`SZ`, default 19).
    pub size: usize,
    /// Komi (`KM`), if given. Fox's `KM[650]` is read as 6.5.
    pub komi: Option<f64>,
    /// Handicap (`HA`), 0 when absent.
    pub handicap: usize,
    /// Rules (`RU`) as written.
    pub rules: Option<String>,
    /// Black stones set up in the root (`AB`).
    pub setup_black: Vec<Point>,
    /// White stones set up in the root (`AW`).
    pub setup_white: Vec<Point>,
    /// Who plays first after the root (`PL`), if given.
    pub to_play: Option<Color>,
    /// Black player's name (`PB`).
    pub black_name: Option<String>,
    /// White player's name (`PW`).
    pub white_name: Option<String>,
    /// Result (`RE`).
    pub result: Option<String>,
    /// Date (`DT`).
    pub date: Option<String>,
    /// Root comment (`C`).
    pub comment: Option<String>,
    /// Other root properties, kept so a round trip loses nothing we read.
    pub extra: Vec<(String, Vec<String>)>,
    /// The main line after the root.
    pub events: Vec<Event>,
}

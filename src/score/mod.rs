//! Counting finished games under each rule set: life and death of the final
//! position, seki, territory and the score.
//!
//! A [`Judge`] decides which stones are alive, dead or in seki from the
//! position alone (never from a recorded result): Benson's algorithm settles
//! unconditionally alive chains, seeded playouts from the final position
//! (the opponent of each chain moving first, as in the 1989 Japanese
//! confirmation) give every other chain a survival rate, and seki shows up
//! as liberties neither side may fill (a chain the playouts call dead next
//! to an enemy seki chain joins that seki). Small regions are then read
//! exactly under the confirmation rules (`confirm.rs`): seki regions with
//! the dame next to them (bent four in the corner, false seki), races the
//! playouts leave open (a chain captured whoever starts is dead), and
//! groups whose only eye space is small (a kill that starts with a
//! two-stone sacrifice, a second eye that is a ko); when a group is read
//! dead, the rest of the board is judged again without it. Bigger nakade
//! fights are left to the playouts. [`count`] then counts under
//! the game's rules: territory plus prisoners (Japanese, Swedish) or area
//! (Chinese, AGA, New Zealand, Tromp-Taylor).
//!
//! ```
//! use kosumi::board::{Color, Game, Move, Point, Rules};
//! use kosumi::score;
//! let mut game = Game::new(9, Rules::japanese());
//! game.set_komi(0.5);
//! // A black wall on column D: Black owns columns A-C, White E-J.
//! for y in 0..9 {
//!     game.play(Color::Black, Move::Play(Point::new(3, y))).unwrap();
//!     game.play(Color::White, Move::Play(Point::new(4, y))).unwrap();
//! }
//! // The light playouts alone, not kosumi's count (`search::referee`).
//! let s = score::Judge::light().final_score(&game);
//! assert_eq!(s.black, 27.0);
//! assert_eq!(s.white, 36.5);
//! assert_eq!(s.to_string(), "W+9.5");
//! ```

mod benson;
mod confirm;
mod eyes;
mod judge;
mod local_search;
mod playout;
mod readings;

use crate::board::{Bitboard, Board, Color, Game, GameResult, Point, Scoring};
use std::fmt;

pub use benson::unconditionally_alive;
pub use judge::Judge;
pub use playout::PlayoutPolicy;
pub use readings::{Reading, ReadingOutcome};

/// What becomes of a stone at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointStatus {
    /// The stone stays and its colour owns the territory it surrounds.
    Alive,
    /// The stone is removed as a prisoner of the opponent.
    Dead,
    /// The stone lives in seki: it stays, but bounds no territory.
    Seki,
}

impl PointStatus {
    /// The GTP `final_status_list` name: `alive`, `dead` or `seki`.
    pub fn name(self) -> &'static str {
        match self {
            PointStatus::Alive => "alive",
            PointStatus::Dead => "dead",
            PointStatus::Seki => "seki",
        }
    }
}

/// Why a stone got its status: shown by `kosumi score` so that a wrong
/// call can be understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Unconditionally alive (Benson's algorithm).
    Benson,
    /// The playouts with the opponent first: the percentage of them in
    /// which the chain survived (alive, dead), or kept liberties neither
    /// side fills (seki).
    Playouts {
        /// The rate, in percent.
        percent: u8,
    },
    /// Captured in a race even moving first (read out).
    RaceLost,
    /// Next to a chain that lost its race (read out).
    RaceWon,
    /// Shares a liberty with a chain in seki.
    SekiNeighbour,
    /// Neither it nor its eyeless neighbour is captured, whoever moves
    /// first (read out).
    SekiRead,
    /// Short of eyes, but not captured even when the opponent moves first
    /// (read out).
    RaceHeld,
    /// In a seki region the other side, moving first, breaks (read out
    /// under the confirmation rules).
    SekiBroken,
    /// In a seki region where each side, moving first, captures: captured
    /// even when its own side moves first (read out).
    CapturedEitherWay,
    /// In a seki region whose other side dies (read out).
    SekiPartnerDies,
    /// Its eye space is killed, the attacker moving first (read out under
    /// the confirmation rules).
    EyeSpaceKilled,
    /// Its eye space, too big to read, is captured in most of a search of
    /// the fight near it, the attacker moving first.
    SearchKilled {
        /// The capture rate, in percent.
        percent: u8,
    },
    /// An enemy stone inside a group read dead.
    InsideDeadGroup,
    /// A stone in atari in a ko left open: counted as it stands.
    OpenKo,
    /// Survives few playouts, in a group with fewer than two eyes.
    FewEyes {
        /// The playouts' survival rate, in percent.
        percent: u8,
    },
    /// Called dead, but only its own side's living stones border its area:
    /// no one can capture it (an unfinished game).
    AmongItsOwn,
    /// The rules count every stone (Tromp-Taylor).
    Rules,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Benson => f.write_str("Benson (unconditional)"),
            Reason::Playouts { percent } => {
                write!(f, "playouts, opponent first ({percent}%)")
            }
            Reason::RaceLost => f.write_str("race lost even moving first (read)"),
            Reason::RaceWon => f.write_str("its race partner dies (read)"),
            Reason::SekiNeighbour => f.write_str("shares a liberty with a seki chain"),
            Reason::SekiRead => f.write_str("neither side captures, even moving first (read)"),
            Reason::RaceHeld => f.write_str("not captured, even with the opponent first (read)"),
            Reason::SekiBroken => f.write_str("seki broken, attacker first (read)"),
            Reason::CapturedEitherWay => {
                f.write_str("no seki: captured whoever moves first (read)")
            }
            Reason::SekiPartnerDies => f.write_str("its seki partner dies (read)"),
            Reason::EyeSpaceKilled => f.write_str("eye space killed, attacker first (read)"),
            Reason::SearchKilled { percent } => write!(
                f,
                "eye space too big to read, captured in {percent}% of a local search, attacker first"
            ),
            Reason::InsideDeadGroup => f.write_str("inside a dead group"),
            Reason::OpenKo => f.write_str("a ko left open, counted as it stands"),
            Reason::FewEyes { percent } => {
                write!(f, "fewer than two eyes, alive in {percent}% of playouts")
            }
            Reason::AmongItsOwn => f.write_str("called dead, but only its own side borders its area"),
            Reason::Rules => f.write_str("the rules keep every stone"),
        }
    }
}

/// Every point off `living` (empty, or a stone called dead) in a region
/// whose rim holds living stones of both colours (`living[0]` Black's): the
/// dame and the shared points of seki, or an open area of an unfinished
/// game.
pub(crate) fn shared_points(size: usize, living: [Bitboard; 2]) -> Bitboard {
    let open = Bitboard::on_board(size) & !(living[0] | living[1]);
    open.components()
        .filter(|region| {
            let rim = region.neighbours();
            !(rim & living[0]).is_empty() && !(rim & living[1]).is_empty()
        })
        .fold(Bitboard::EMPTY, |all, region| all | region)
}

/// Who a point belongs to when counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// Black territory (or a living black stone, under area counting).
    Black,
    /// White territory (or a living white stone, under area counting).
    White,
    /// Neither: dame, seki, or a living stone under territory counting.
    Dame,
}

impl Owner {
    fn of(c: Color) -> Owner {
        match c {
            Color::Black => Owner::Black,
            Color::White => Owner::White,
        }
    }
}

/// The life-and-death verdict on a position: the status of every stone and
/// the owner of every point.
///
/// Owners follow territory counting: an empty point, or a dead stone's point,
/// belongs to a colour when the region it lies in (once dead stones are
/// lifted) touches living stones of that colour only, none of them in seki.
/// Every other point, living stones included, is [`Owner::Dame`].
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    size: usize,
    /// Status per padded index (`None` for empty points).
    status: Vec<Option<PointStatus>>,
    /// Owner per padded index (territory counting: seki bounds nothing).
    owner: Vec<Owner>,
    /// Owner per padded index under area counting (seki eyes count).
    area_owner: Vec<Owner>,
    /// Black-positive ownership estimate per padded index.
    ownership: Vec<f64>,
    /// The colour of each stone, kept so counting needs no board.
    stones: Vec<Option<Color>>,
    /// Why each stone has its status (`None` for empty points).
    reasons: Vec<Option<Reason>>,
    /// The confirmation readings made, in order.
    readings: Vec<Reading>,
}

impl Judgement {
    /// Builds a judgement from stone statuses: territory follows from them.
    ///
    /// `status` maps a point to the status of the stone on it (ignored for
    /// empty points); `ownership` is a Black-positive estimate per point
    /// (row by row from the top-left) or empty to derive it from the owners.
    pub fn from_statuses(
        board: &Board,
        status: impl Fn(Point) -> PointStatus,
        ownership: Vec<f64>,
    ) -> Judgement {
        let n = crate::board::SLOTS;
        let mut j = Judgement {
            size: board.size(),
            status: vec![None; n],
            owner: vec![Owner::Dame; n],
            area_owner: vec![Owner::Dame; n],
            ownership: Vec::new(),
            stones: vec![None; n],
            reasons: vec![None; n],
            readings: Vec::new(),
        };
        let mut alive = [Bitboard::EMPTY; 2];
        let mut seki = [Bitboard::EMPTY; 2];
        for p in board.points() {
            if let Some(c) = board.get(p) {
                let s = status(p);
                j.status[p.index()] = Some(s);
                j.stones[p.index()] = Some(c);
                match s {
                    PointStatus::Alive => alive[c.index()].insert(p),
                    PointStatus::Seki => seki[c.index()].insert(p),
                    PointStatus::Dead => {}
                }
            }
        }
        let on = Bitboard::on_board(board.size());
        let living = alive[0] | alive[1] | seki[0] | seki[1];
        for region in (on & !living).components() {
            let rim = region.neighbours() & on;
            let touches = |b: Bitboard| !(rim & b).is_empty();
            let black = touches(alive[0] | seki[0]);
            let white = touches(alive[1] | seki[1]);
            let in_seki = touches(seki[0] | seki[1]);
            let owner = match (black, white, in_seki) {
                (true, false, false) => Owner::Black,
                (false, true, false) => Owner::White,
                _ => Owner::Dame,
            };
            let area_owner = match (black, white) {
                (true, false) => Owner::Black,
                (false, true) => Owner::White,
                _ => Owner::Dame,
            };
            for p in region.iter() {
                j.owner[p.index()] = owner;
                j.area_owner[p.index()] = area_owner;
            }
        }
        j.remove_forced_fills(board, [alive[0] | seki[0], alive[1] | seki[1]]);
        j.ownership = if ownership.len() == board.size() * board.size() {
            ownership
        } else {
            board
                .points()
                .map(|p| match (j.owner[p.index()], j.stones[p.index()]) {
                    (Owner::Black, _) => 1.0,
                    (Owner::White, _) => -1.0,
                    (Owner::Dame, Some(Color::Black)) => 1.0,
                    (Owner::Dame, Some(Color::White)) => -1.0,
                    (Owner::Dame, None) => 0.0,
                })
                .collect()
        };
        j
    }

    /// Takes out of territory the points a side must fill itself (teire):
    /// a false eye, a cut with no dame beside it. Japanese rules count such
    /// a point as no one's.
    ///
    /// No one fills dame once the game is over, so the dame and the shared
    /// points of seki (every point of a region touching living stones of
    /// both colours) count as stones of either colour. A colour's living
    /// stones joined through them that have a single liberty left, in
    /// their own territory, must fill it; the fill joins them, and the
    /// rule repeats. KGS counts this way: a reading in which the opponent
    /// first fills the dame it safely can took a point too many in 69 of
    /// the tune half's games (docs/counting-log.md).
    fn remove_forced_fills(&mut self, board: &Board, living: [Bitboard; 2]) {
        let on = Bitboard::on_board(board.size());
        let mut stones = living;
        let shared = shared_points(board.size(), living);
        let mut terr = [Owner::Black, Owner::White]
            .map(|o| -> Bitboard { on.iter().filter(|p| self.owner[p.index()] == o).collect() });
        // Each fill joins its unit and may leave it short in turn: repeat
        // until nothing changes (at most once per point).
        'fill: loop {
            for c in Color::ALL {
                let body = stones[c.index()] | shared;
                let units = body
                    .components()
                    .filter(|u| !(*u & stones[c.index()]).is_empty());
                for unit in units {
                    let libs = unit.neighbours() & on & !body & !stones[c.opponent().index()];
                    if libs.count() == 1 && (libs & terr[c.index()]) == libs {
                        let t = libs.first().expect("one liberty");
                        stones[c.index()].insert(t);
                        terr[c.index()].remove(t);
                        self.owner[t.index()] = Owner::Dame;
                        continue 'fill;
                    }
                }
            }
            break;
        }
    }

    /// Records why each stone has its status.
    pub(crate) fn set_reasons(&mut self, board: &Board, why: impl Fn(Point) -> Reason) {
        for p in board.points() {
            if board.get(p).is_some() {
                self.reasons[p.index()] = Some(why(p));
            }
        }
    }

    /// Why the stone on `p` has its status (`None` for an empty point, or
    /// when the judgement was built from statuses alone).
    pub fn reason(&self, p: Point) -> Option<Reason> {
        self.reasons.get(p.index()).copied().flatten()
    }

    /// The confirmation readings the judgement made, in order: which chain,
    /// who first, and whether it was captured, held, ran out of positions
    /// or was too big to read.
    pub fn readings(&self) -> &[Reading] {
        &self.readings
    }

    /// Side of the board judged.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Status of the stone on `p`, `None` for an empty point (or off the board).
    pub fn status(&self, p: Point) -> Option<PointStatus> {
        self.status.get(p.index()).copied().flatten()
    }

    /// Owner of `p` under territory counting (see [`Judgement`]).
    pub fn owner(&self, p: Point) -> Owner {
        self.owner.get(p.index()).copied().unwrap_or(Owner::Dame)
    }

    fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size).flat_map(move |y| (0..size).map(move |x| Point::new(x, y)))
    }

    /// Stones with status `s`, row by row from the top-left.
    pub fn stones_with(&self, s: PointStatus) -> Vec<Point> {
        self.points()
            .filter(|&p| self.status(p) == Some(s))
            .collect()
    }

    /// Territory of a colour (`Some`), or the dame (`None`): empty points and
    /// dead stones' points for a colour; empty points only for dame.
    pub fn territory(&self, c: Option<Color>) -> Vec<Point> {
        self.points()
            .filter(|&p| match c {
                Some(c) => self.owner(p) == Owner::of(c),
                None => self.owner(p) == Owner::Dame && self.stones[p.index()].is_none(),
            })
            .collect()
    }

    /// [`Judgement::territory`] as `scoring` counts it: under area counting
    /// the eyes of seki and the points a side must fill itself count too.
    pub fn counted_territory(&self, c: Option<Color>, scoring: Scoring) -> Vec<Point> {
        if scoring == Scoring::Territory {
            return self.territory(c);
        }
        self.points()
            .filter(|&p| {
                let stone_lives =
                    self.stones[p.index()].is_some() && self.status(p) != Some(PointStatus::Dead);
                match c {
                    Some(c) => !stone_lives && self.area_owner[p.index()] == Owner::of(c),
                    None => {
                        self.area_owner[p.index()] == Owner::Dame
                            && self.stones[p.index()].is_none()
                    }
                }
            })
            .collect()
    }

    /// Ownership estimate per point, row by row from the top-left, from -1
    /// (White's) to +1 (Black's): for GoGui and analysis displays.
    pub fn ownership(&self) -> Vec<f64> {
        self.ownership.clone()
    }

    /// The colour of the stone the judgement saw on `p`.
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.stones.get(p.index()).copied().flatten()
    }
}

/// The result of counting: each side's points, komi included in White's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black's points.
    pub black: f64,
    /// White's points, komi included.
    pub white: f64,
    /// `black - white`: positive when Black wins.
    pub black_minus_white: f64,
}

impl Score {
    /// The winner, `None` for a draw (jigo).
    pub fn winner(&self) -> Option<Color> {
        if self.black_minus_white > 0.0 {
            Some(Color::Black)
        } else if self.black_minus_white < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// The GTP `final_score` form: `B+3.5`, `W+0.5`, or `0` for a draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        GameResult::from_margin(self.black_minus_white).fmt(f)
    }
}

/// One side's points under the rules counted, and where they come from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Breakdown {
    /// Territory rules: empty points and the points of the opponent's dead
    /// stones the side surrounds. Area rules: empty points (and dead
    /// stones' points) in regions touching the side's living stones only.
    pub territory: u32,
    /// Area rules: the side's living and seki stones. Zero otherwise.
    pub stones: u32,
    /// Territory rules: stones taken in play (Swedish pass stones included).
    pub captures: u32,
    /// Territory rules: the opponent's dead stones, taken off at the end.
    pub dead: u32,
    /// White's komi; zero for Black.
    pub komi: f64,
    /// White's points for Black's handicap stones under area rules
    /// ([`crate::board::Rules::handicap_bonus`]); zero for Black.
    pub handicap: f64,
    /// Counted by area (stones and territory) rather than by territory and
    /// prisoners.
    pub area: bool,
}

impl Breakdown {
    /// The side's points.
    pub fn total(&self) -> f64 {
        f64::from(self.territory + self.stones + self.captures + self.dead)
            + self.komi
            + self.handicap
    }
}

impl fmt::Display for Breakdown {
    /// `42 territory + 17 prisoners (15 taken in play, 2 dead) = 59` under
    /// territory rules, `150 stones + 30 territory = 180` under area rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.area {
            let stones = counted(self.stones as usize, "stone");
            write!(f, "{stones} + {} territory", self.territory)?;
        } else {
            write!(
                f,
                "{} territory + {} ({} taken in play, {} dead)",
                self.territory,
                counted((self.captures + self.dead) as usize, "prisoner"),
                self.captures,
                self.dead
            )?;
        }
        if self.komi > 0.0 {
            write!(f, " + {} komi", self.komi)?;
        } else if self.komi < 0.0 {
            write!(f, " - {} komi", -self.komi)?;
        }
        if self.handicap > 0.0 {
            write!(f, " + {} for handicap", self.handicap)?;
        }
        write!(f, " = {}", self.total())
    }
}

/// `n` and `noun`, plural unless `n` is 1: `1 stone`, `7 stones`.
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Each side's points (Black's first) in the position of `game` under its
/// rules, with the stones' fate given by `j`.
///
/// - Territory rules (Japanese, Swedish): territory ([`Judgement::territory`])
///   plus prisoners: captures during play (Swedish pass stones included, the
///   rules core hands them out) and the opponent's dead stones.
/// - Area rules (Chinese, AGA, New Zealand, Tromp-Taylor): living and seki
///   stones plus empty points (and dead stones' points) in regions touching
///   living stones of one colour only; eyes in seki count too. A [`Judge`]
///   calls every stone alive under Tromp-Taylor, as its text says.
///
/// Komi goes to White in both, and under area rules the points for Black's
/// handicap stones (Chinese and AGA rules).
pub fn breakdown(game: &Game, j: &Judgement) -> [Breakdown; 2] {
    let board = game.board();
    let area = game.rules().scoring() == Scoring::Area;
    let mut t = [Breakdown {
        area,
        ..Breakdown::default()
    }; 2];
    let side = |o: Owner| match o {
        Owner::Black => Some(0),
        Owner::White => Some(1),
        Owner::Dame => None,
    };
    for p in board.points() {
        let stone = board.get(p);
        let status = j.status(p);
        if area {
            match (stone, status) {
                (Some(c), Some(PointStatus::Alive | PointStatus::Seki)) => t[c.index()].stones += 1,
                _ => {
                    if let Some(i) = side(j.area_owner[p.index()]) {
                        t[i].territory += 1;
                    }
                }
            }
        } else {
            if let Some(i) = side(j.owner(p)) {
                t[i].territory += 1;
            }
            if let (Some(c), Some(PointStatus::Dead)) = (stone, status) {
                t[c.opponent().index()].dead += 1;
            }
        }
    }
    if !area {
        for c in Color::ALL {
            t[c.index()].captures = board.captures(c);
        }
    }
    t[1].komi = game.komi();
    t[1].handicap = game.handicap_bonus();
    t
}

impl From<[Breakdown; 2]> for Score {
    /// The totals of each side's breakdown (Black's first).
    fn from([b, w]: [Breakdown; 2]) -> Self {
        let (black, white) = (b.total(), w.total());
        Score {
            black,
            white,
            black_minus_white: black - white,
        }
    }
}

/// Counts the position of `game` under its rules, with the stones' fate
/// given by `j`: the totals of [`breakdown`].
pub fn count(game: &Game, j: &Judgement) -> Score {
    Score::from(breakdown(game, j))
}

#[cfg(test)]
mod tests;

//! A game: the board plus history, superko, passes, komi and handicap.

use super::board::{Board, PlayError};
use super::point::{Color, Move, Point};
use super::rules::Rules;
use super::zobrist;
use fxhash::FxHashMap;

#[derive(Clone)]
enum StepKind {
    Move,
    Setup,
}

/// What undo needs to restore the state before one step.
#[derive(Clone)]
struct Step {
    kind: StepKind,
    board: Box<Board>,
    to_move: Color,
    consecutive_passes: usize,
    /// Position hash and situation hash this step recorded, to forget on undo.
    recorded: Option<(u64, u64)>,
}

/// A game in progress: the board, whose turn it is, the moves so far and
/// everything the rules need to judge the next one.
///
/// ```
/// use kosumi::board::{Color, Game, Move, PlayError, Point, Rules};
/// let mut game = Game::new(9, Rules::japanese());
/// game.play(Color::Black, Move::Play(Point::new(2, 2))).unwrap();
/// assert_eq!(
///     game.play(Color::White, Move::Play(Point::new(2, 2))),
///     Err(PlayError::Occupied)
/// );
/// game.play(Color::White, Move::Pass).unwrap();
/// assert!(game.undo());
/// assert_eq!(game.to_move(), Color::White);
/// ```
#[derive(Clone)]
pub struct Game {
    board: Board,
    rules: Rules,
    komi: f64,
    to_move: Color,
    handicap: usize,
    steps: Vec<Step>,
    moves: Vec<(Color, Move)>,
    /// Whole-board positions (stones only) met so far, with counts.
    positions: FxHashMap<u64, u32>,
    /// Positions with the player to move, for whole-board repetition.
    situations: FxHashMap<u64, u32>,
    consecutive_passes: usize,
}

fn situation(board: &Board, to_move: Color) -> u64 {
    let side = if to_move == Color::White {
        zobrist::WHITE_TO_MOVE
    } else {
        0
    };
    board.position_hash() ^ side
}

impl Game {
    /// A new game on an empty board of side `size` with the rules' default komi.
    ///
    /// # Panics
    /// If `size` is not in `1..=25`.
    pub fn new(size: usize, rules: Rules) -> Game {
        let board = Board::new(size);
        let mut g = Game {
            komi: rules.default_komi(),
            board,
            rules,
            to_move: Color::Black,
            handicap: 0,
            steps: Vec::new(),
            moves: Vec::new(),
            positions: FxHashMap::default(),
            situations: FxHashMap::default(),
            consecutive_passes: 0,
        };
        g.record();
        g
    }

    fn record(&mut self) -> (u64, u64) {
        let pos = self.board.position_hash();
        let sit = situation(&self.board, self.to_move);
        *self.positions.entry(pos).or_insert(0) += 1;
        *self.situations.entry(sit).or_insert(0) += 1;
        (pos, sit)
    }

    fn forget(&mut self, (pos, sit): (u64, u64)) {
        for (map, key) in [(&mut self.positions, pos), (&mut self.situations, sit)] {
            if let Some(n) = map.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&key);
                }
            }
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (komi is left alone).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Komi given to White.
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Sets komi.
    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// Number of handicap stones placed.
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// Points White gets beside komi for the handicap stones, under the
    /// game's rules ([`Rules::handicap_bonus`]).
    pub fn handicap_bonus(&self) -> f64 {
        self.rules.handicap_bonus(self.handicap)
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets whose turn it is (SGF `PL`, GTP controllers that play out of turn).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The moves played since the start, setup excluded.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Passes in a row at the end of the move list.
    pub fn consecutive_passes(&self) -> usize {
        self.consecutive_passes
    }

    /// Whether the game has ended by two passes in a row.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    /// Passes made by `color` so far.
    pub fn pass_count(&self, color: Color) -> u32 {
        self.moves
            .iter()
            .filter(|&&(c, m)| c == color && m == Move::Pass)
            .count() as u32
    }

    /// Whether the current position, with the same player to move, occurred
    /// before after a stone move: a triple ko or other whole-board repetition,
    /// which voids the game under Japanese rules.
    pub fn is_repetition(&self) -> bool {
        self.situations
            .get(&situation(&self.board, self.to_move))
            .copied()
            .unwrap_or(0)
            > 1
    }

    /// Whether the position after `color` plays `p` would repeat an earlier
    /// whole-board position.
    pub fn would_repeat(&self, p: Point, color: Color) -> bool {
        let mut b = self.board.clone();
        if b.check(p, color, self.rules.suicide_allowed()).is_err() {
            return false;
        }
        b.play_unchecked(p, color);
        self.positions.contains_key(&b.position_hash())
    }

    /// Checks a move without playing it.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => {
                self.board.check(p, color, self.rules.suicide_allowed())?;
                if self.rules.superko() && self.would_repeat(p, color) {
                    return Err(PlayError::Superko);
                }
                Ok(())
            }
        }
    }

    /// Whether `color` may play `mv` now.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Plays a move for `color` (who need not be the player to move) under the
    /// game's rules. On error nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        let before = Step {
            kind: StepKind::Move,
            board: Box::new(self.board.clone()),
            to_move: self.to_move,
            consecutive_passes: self.consecutive_passes,
            recorded: None,
        };
        match mv {
            Move::Pass => {
                self.board.clear_ko();
                if self.rules.pass_gives_prisoner() {
                    self.board.add_captures(color.opponent(), 1);
                }
                self.consecutive_passes += 1;
                self.to_move = color.opponent();
                self.steps.push(before);
            }
            Move::Play(p) => {
                self.board.check(p, color, self.rules.suicide_allowed())?;
                self.board.play_unchecked(p, color);
                if self.rules.superko() && self.positions.contains_key(&self.board.position_hash())
                {
                    self.board = *before.board;
                    return Err(PlayError::Superko);
                }
                self.consecutive_passes = 0;
                self.to_move = color.opponent();
                let recorded = self.record();
                self.steps.push(Step {
                    recorded: Some(recorded),
                    ..before
                });
            }
        }
        self.moves.push((color, mv));
        Ok(())
    }

    /// Takes back the last move. Returns `false` when there is none (setup
    /// and handicap stones are not moves and stay).
    pub fn undo(&mut self) -> bool {
        match self.steps.last() {
            Some(Step {
                kind: StepKind::Move,
                ..
            }) => {}
            _ => return false,
        }
        let step = self.steps.pop().expect("checked above");
        if let Some(rec) = step.recorded {
            self.forget(rec);
        }
        self.board = *step.board;
        self.to_move = step.to_move;
        self.consecutive_passes = step.consecutive_passes;
        self.moves.pop();
        true
    }

    /// Puts a stone on, or clears, a point as setup (not a move): SGF
    /// `AB`/`AW`/`AE` and free handicap. The new position joins the history.
    pub fn set_stone(&mut self, p: Point, stone: Option<Color>) {
        if !self.board.contains(p) || self.board.get(p) == stone {
            return;
        }
        let board = Box::new(self.board.clone());
        self.board.set_stone(p, stone);
        let recorded = self.record();
        self.steps.push(Step {
            kind: StepKind::Setup,
            board,
            to_move: self.to_move,
            consecutive_passes: self.consecutive_passes,
            recorded: Some(recorded),
        });
    }

    /// Records how many handicap stones the game has (for stones already
    /// set up, as an SGF's `HA` and `AB` give them).
    pub fn set_handicap(&mut self, n: usize) {
        self.handicap = n;
    }

    /// Places handicap stones for Black and gives White the move.
    pub fn place_handicap(&mut self, points: &[Point]) {
        for &p in points {
            self.set_stone(p, Some(Color::Black));
        }
        self.handicap = points.len();
        self.to_move = Color::White;
    }
}

/// The GTP v2 fixed handicap placement of `n` stones on a board of side
/// `size` (three stones: lower left, upper right, upper left; tradition puts
/// the third at the lower right, see [`traditional_handicap`]): `None` when
/// the board cannot take that many (no fixed handicap below 7x7; at most 4
/// on 7x7 and on even sizes; at most 9 otherwise).
///
/// ```
/// use kosumi::board::fixed_handicap;
/// let names: Vec<String> = fixed_handicap(19, 5).unwrap().iter().map(|p| p.to_gtp(19)).collect();
/// assert_eq!(names, ["D4", "Q16", "D16", "Q4", "K10"]);
/// assert!(fixed_handicap(9, 10).is_none());
/// ```
pub fn fixed_handicap(size: usize, n: usize) -> Option<Vec<Point>> {
    if !(7..=super::MAX_SIZE).contains(&size) {
        return None;
    }
    let max = if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    };
    if !(2..=max).contains(&n) {
        return None;
    }
    let lo = if size >= 13 { 3 } else { 2 };
    let hi = size - 1 - lo;
    let mid = size / 2;
    let p = Point::new;
    let corners = [p(lo, hi), p(hi, lo), p(lo, lo), p(hi, hi)];
    let mut out: Vec<Point> = corners[..n.min(4)].to_vec();
    match n {
        5 => out.push(p(mid, mid)),
        6 => out.extend([p(lo, mid), p(hi, mid)]),
        7 => out.extend([p(lo, mid), p(hi, mid), p(mid, mid)]),
        8 => out.extend([p(lo, mid), p(hi, mid), p(mid, hi), p(mid, lo)]),
        9 => out.extend([p(lo, mid), p(hi, mid), p(mid, hi), p(mid, lo), p(mid, mid)]),
        _ => {}
    }
    Some(out)
}

/// The traditional handicap placement, as Japanese players set the stones:
/// [`fixed_handicap`]'s except that three stones leave the upper left corner
/// (from Black's side) empty for White rather than the lower right.
///
/// ```
/// use kosumi::board::traditional_handicap;
/// let names: Vec<String> = traditional_handicap(19, 3).unwrap().iter().map(|p| p.to_gtp(19)).collect();
/// assert_eq!(names, ["D4", "Q16", "Q4"]);
/// ```
pub fn traditional_handicap(size: usize, n: usize) -> Option<Vec<Point>> {
    let mut points = fixed_handicap(size, n)?;
    if n == 3 {
        // Lower left is (lo, hi), upper right (hi, lo): lower right is (hi, hi).
        points[2] = Point::new(points[1].x(), points[0].y());
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: usize, n: usize) -> Vec<String> {
        fixed_handicap(size, n)
            .unwrap()
            .iter()
            .map(|p| p.to_gtp(size))
            .collect()
    }

    #[test]
    fn handicap_placements_follow_gtp() {
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert_eq!(names(19, 9).last().unwrap(), "K10");
        assert_eq!(names(9, 4), ["C3", "G7", "C7", "G3"]);
        assert_eq!(names(13, 5), ["D4", "K10", "D10", "K4", "G7"]);
        assert_eq!(names(7, 4), ["C3", "E5", "C5", "E3"]);
        assert!(fixed_handicap(7, 5).is_none());
        assert!(fixed_handicap(10, 5).is_none());
        assert!(fixed_handicap(6, 2).is_none());
        assert!(fixed_handicap(19, 1).is_none());
    }

    #[test]
    fn traditional_three_stones_leave_the_upper_left_empty() {
        let gtp = |size, n| {
            traditional_handicap(size, n)
                .unwrap()
                .iter()
                .map(|p| p.to_gtp(size))
                .collect::<Vec<_>>()
        };
        assert_eq!(gtp(13, 3), ["D4", "K10", "K4"]);
        assert_eq!(gtp(9, 3), ["C3", "G7", "G3"]);
        for n in [2, 4, 5, 6, 7, 8, 9] {
            assert_eq!(traditional_handicap(19, n), fixed_handicap(19, n));
        }
        assert!(traditional_handicap(6, 3).is_none());
    }

    #[test]
    fn capture_and_escape_candidates() {
        let mut b = Board::new(5);
        // White B2 in atari by Black B1, A2, C2; Black B3 free.
        for (x, y) in [(1, 4), (0, 3), (2, 3)] {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        b.play(Point::new(1, 3), Color::White).unwrap();
        assert_eq!(b.capture_moves(Color::Black), [Point::new(1, 2)]);
        let escapes = b.escape_moves(Color::White);
        assert_eq!(escapes, [Point::new(1, 2)]);
        assert!(b.capture_moves(Color::White).is_empty());
    }

    #[test]
    fn superko_refuses_recreating_a_position() {
        // A basic ko on 4x4 under Chinese rules: retaking after one exchange of
        // passes would recreate the position.
        let mut g = Game::new(4, Rules::parse("chinese").unwrap());
        let mv = |x, y| Move::Play(Point::new(x, y));
        for (c, m) in [
            (Color::Black, mv(1, 0)),
            (Color::White, mv(2, 0)),
            (Color::Black, mv(0, 1)),
            (Color::White, mv(3, 1)),
            (Color::Black, mv(1, 2)),
            (Color::White, mv(2, 2)),
            (Color::Black, mv(2, 1)),
            (Color::White, mv(1, 1)), // captures C3 (2,1)
        ] {
            g.play(c, m).unwrap();
        }
        assert_eq!(g.board().captures(Color::White), 1);
        assert_eq!(g.check(Color::Black, mv(2, 1)), Err(PlayError::Ko));
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        assert_eq!(g.check(Color::Black, mv(2, 1)), Err(PlayError::Superko));
        let mut j = g.clone();
        j.set_rules(Rules::japanese());
        assert!(j.is_legal(Color::Black, mv(2, 1)));
        j.play(Color::Black, mv(2, 1)).unwrap();
        // The position after the first Black C3 recurs with White to move.
        assert!(j.is_repetition());
    }
}

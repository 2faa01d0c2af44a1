//! Playouts for life and death: from the final position to the end, with a
//! policy just smart enough that the outcome says who owns what.
//!
//! The policy answers the last move locally: it captures a chain left in
//! atari, saves its own chain put in atari (by capturing a neighbour or by
//! extending when that gives room), and in a capturing race takes an outside
//! liberty of the weakest enemy chain next to its pressed chain. Otherwise it
//! plays uniformly at random, never filling its own true eye and never
//! putting two or more stones in atari (so the shared liberties of a seki
//! stay open, which is how seki shows up).
//!
//! A caller with a stronger policy (the search's, see [`PlayoutPolicy`])
//! may add as many playouts of its own: the tallies then mix both kinds.

use crate::board::{Bitboard, Board, Color, FastRng, Point, SLOTS};

/// Per-point tallies over many playouts with one colour moving first.
#[derive(Clone)]
pub(crate) struct Tally {
    /// Playouts run.
    pub runs: u32,
    /// Per padded index: playouts where the point ended Black's (stone or
    /// one-colour empty point).
    pub black: Vec<u32>,
    /// Same for White.
    pub white: Vec<u32>,
    /// Per padded index: playouts where the stone on the point survived next
    /// to an empty point neither side would fill (a seki liberty).
    pub seki: Vec<u32>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            runs: 0,
            black: vec![0; SLOTS],
            white: vec![0; SLOTS],
            seki: vec![0; SLOTS],
        }
    }

    /// Fraction of playouts where `p` ended as `c`'s.
    pub fn owned_by(&self, p: Point, c: Color) -> f64 {
        let n = match c {
            Color::Black => self.black[p.index()],
            Color::White => self.white[p.index()],
        };
        f64::from(n) / f64::from(self.runs.max(1))
    }

    /// Fraction of playouts where the stone on `p` ended in seki.
    pub fn seki_rate(&self, p: Point) -> f64 {
        f64::from(self.seki[p.index()]) / f64::from(self.runs.max(1))
    }

    fn add(&mut self, board: &Board) {
        self.runs += 1;
        let on = Bitboard::on_board(board.size());
        let b = board.stones(Color::Black);
        let w = board.stones(Color::White);
        let empty = on & !(b | w);
        let bn = b.neighbours();
        let wn = w.neighbours();
        let black = b | (empty & bn & !wn);
        let white = w | (empty & wn & !bn);
        let shared = empty & bn & wn;
        for p in black.iter() {
            self.black[p.index()] += 1;
        }
        for p in white.iter() {
            self.white[p.index()] += 1;
        }
        if !shared.is_empty() {
            let near = shared.neighbours();
            let seki = Bitboard::flood_fill(near & b, b) | Bitboard::flood_fill(near & w, w);
            for p in seki.iter() {
                self.seki[p.index()] += 1;
            }
        }
    }
}

/// Chooses the moves of playouts for the judge, in addition to its own
/// light policy: the search's heavier policy knows shapes, two-liberty
/// fights and nakade, and kills more of the groups the light playouts keep
/// alive; the light playouts, which never fill a shared liberty, keep
/// seki. Counting with both beats either alone on the games it was
/// measured on (docs/counting-log.md).
pub trait PlayoutPolicy: Sync {
    /// A move for `color` after the opponent's move `last` and `color`'s
    /// own move `last2` before it (`None` for a pass or no move); `None`
    /// passes.
    fn playout_move(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        last2: Option<Point>,
        rng: &mut FastRng,
    ) -> Option<Point>;
}

/// Runs `n` light playouts from `board` with `first` to move, and `n` more
/// with `policy` when one is given, and tallies the ends of all of them.
pub(crate) fn tally(
    board: &Board,
    first: Color,
    n: usize,
    policy: Option<&dyn PlayoutPolicy>,
    rng: &mut FastRng,
) -> Tally {
    let mut t = Tally::new();
    // The light playouts, then the policy's.
    for policy in [None].into_iter().chain(policy.map(Some)) {
        for _ in 0..n {
            let mut b = board.clone();
            b.clear_ko();
            play_out(&mut b, first, policy, rng);
            t.add(&b);
        }
    }
    t
}

/// Plays one playout from `board` to its end with `first` to move: the
/// light policy, or `policy` when given. Returns the moves played.
pub(crate) fn play_out(
    board: &mut Board,
    first: Color,
    policy: Option<&dyn PlayoutPolicy>,
    rng: &mut FastRng,
) -> usize {
    let max_moves = 3 * board.size() * board.size() + 50;
    match policy {
        Some(policy) => playout(board, first, rng, max_moves, |b, c, l, l2, rng| {
            policy.playout_move(b, c, l, l2, rng)
        }),
        None => playout(board, first, rng, max_moves, |b, c, _, _, rng| {
            choose(b, c, rng)
        }),
    }
}

/// A pass lifts the ko ban, as in the confirmation phase, so a ko whose
/// taker then has nothing else to play is taken back and forth between
/// single passes forever (a few final positions of KGS games did this in
/// most of their playouts, each to `max_moves`): the playout ends at this
/// many passes, far more than any playout without a cycle makes.
const MAX_PASSES: usize = 16;

/// Plays `choose` for both sides until two passes in a row, `MAX_PASSES`
/// passes in all, or `max_moves`. Returns the moves played.
fn playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut FastRng,
    max_moves: usize,
    choose: impl Fn(&Board, Color, Option<Point>, Option<Point>, &mut FastRng) -> Option<Point>,
) -> usize {
    let mut passes = 0;
    let mut all_passes = 0;
    let mut moves = 0;
    let (mut last, mut last2) = (None, None);
    while passes < 2 && all_passes < MAX_PASSES && moves < max_moves {
        let m = choose(board, to_move, last, last2, rng);
        match m {
            Some(p) => {
                board.play_unchecked(p, to_move);
                passes = 0;
                moves += 1;
            }
            None => {
                board.clear_ko();
                passes += 1;
                all_passes += 1;
            }
        }
        (last2, last) = (last, m);
        to_move = to_move.opponent();
    }
    moves
}

/// Size of the chain `color` would form by playing on `p`.
fn merged_size(board: &Board, p: Point, color: Color) -> usize {
    let mut seen: [Point; 4] = [p; 4];
    let mut k = 0;
    let mut size = 1;
    for n in p.neighbours() {
        if board.get(n) == Some(color) {
            let id = board.chain_id(n);
            if !seen[..k].contains(&id) {
                seen[k] = id;
                k += 1;
                size += board.chain_size(n);
            }
        }
    }
    size
}

/// Whether the policy accepts `color` playing on empty `p`.
#[inline]
fn acceptable(board: &Board, p: Point, color: Color) -> bool {
    board.is_legal_empty(p, color)
        && !board.is_eye(p, color)
        && !(board.is_self_atari(p, color) && merged_size(board, p, color) >= 2)
}

fn choose(board: &Board, color: Color, rng: &mut FastRng) -> Option<Point> {
    if let Some(last) = board.last_move() {
        if board.get(last) == Some(color.opponent()) {
            if let Some(p) = respond(board, last, color, rng) {
                return Some(p);
            }
        }
        // Half the time answer in contact with the last move: invaders and
        // local fights get the reply they would get from people.
        if rng.below(2) == 0 {
            let mut near = [last; 8];
            near[..4].copy_from_slice(&last.neighbours());
            near[4..].copy_from_slice(&last.diagonals());
            let start = rng.below(8);
            for k in 0..8 {
                let p = near[(start + k) % 8];
                if board.is_empty(p) && acceptable(board, p, color) {
                    return Some(p);
                }
            }
        }
    }
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let start = rng.below(n);
    for k in 0..n {
        let mut i = start + k;
        if i >= n {
            i -= n;
        }
        let p = Point::from_index(empties[i] as usize);
        if acceptable(board, p, color) {
            return Some(p);
        }
    }
    None
}

/// Local answers to the opponent's last move at `last`: capture, escape,
/// and in a capturing race take a liberty of the weakest enemy chain next
/// to the own chain the move pressed.
fn respond(board: &Board, last: Point, color: Color, rng: &mut FastRng) -> Option<Point> {
    // Take a chain the last move left (or put itself) in atari.
    if let Some(a) = board.atari_point(last) {
        if board.is_legal_empty(a, color) {
            return Some(a);
        }
    }
    let mut pressed: Option<(Point, usize)> = None;
    for n in last.neighbours() {
        match board.get(n) {
            Some(c) if c == color => {
                if let Some(a) = board.atari_point(n) {
                    // Capture a neighbour of the chain in atari, else run
                    // when extending gives room.
                    if let Some(x) = capture_next_to(board, n, color) {
                        return Some(x);
                    }
                    if board.is_legal_empty(a, color) && !board.is_self_atari(a, color) {
                        return Some(a);
                    }
                } else {
                    let libs = board.liberty_count(n);
                    if libs <= 4 && pressed.is_none_or(|(_, l)| libs < l) {
                        pressed = Some((n, libs));
                    }
                }
            }
            Some(_) => {
                if let Some(a) = board.atari_point(n) {
                    if board.is_legal_empty(a, color) {
                        return Some(a);
                    }
                }
            }
            None => {}
        }
    }
    // A race: our pressed chain against the weakest enemy chain touching it.
    let (own, own_libs) = pressed?;
    if rng.below(8) == 0 {
        return None;
    }
    let mut target: Option<(Point, usize)> = None;
    for s in board.chain_iter(own) {
        for n in s.neighbours() {
            if board.get(n) == Some(color.opponent()) {
                let l = board.liberty_count(n);
                if l <= own_libs + 1 && target.is_none_or(|(_, t)| l < t) {
                    target = Some((n, l));
                }
            }
        }
    }
    let (enemy, _) = target?;
    let own_lib_set = board.liberties_bb(own);
    let libs = board.liberties_bb(enemy);
    // Outside liberties only: filling a shared one costs us a liberty too
    // and can break a seki.
    (libs & !own_lib_set)
        .iter()
        .find(|&p| board.is_legal_empty(p, color) && !board.is_self_atari(p, color))
}

/// A move capturing an enemy chain in atari next to the chain through `own`.
fn capture_next_to(board: &Board, own: Point, color: Color) -> Option<Point> {
    for s in board.chain_iter(own) {
        for n in s.neighbours() {
            if board.get(n) == Some(color.opponent()) {
                if let Some(a) = board.atari_point(n) {
                    if board.is_legal_empty(a, color) {
                        return Some(a);
                    }
                }
            }
        }
    }
    None
}

//! Go knowledge of the search, in one place: tree priors and the heavy
//! playout policy.
//!
//! Both read the same [`Policy`]: its 3x3 pattern weights and its tactical
//! weights. A learned pattern set plugs in by replacing
//! [`Policy::pattern3`] (and tuning [`PriorWeights`]); the move patterns
//! learned from strong games ([`Policy::patterns`]) add to the tree priors.

use super::config::{PlayoutSettings, PriorWeights, SMALL_BOARD_MAX};
use super::patterns::features::{pattern3_id_of_code, DIST_LAST, PAT3_BASE};
use super::patterns::Model;
use super::shape::{add_pattern, offset, MOGO_PATTERNS, RING};
use super::tactics::{
    any_ataried_neighbour, board_races, breaks_false_seki, escape_is_ladder, eye_fix_moves,
    nakade_point, self_atari_cousin, two_liberty_moves, useful_sacrifice,
};
use crate::board::{Bitboard, Board, Color, FastRng, Point, STRIDE};
use smallvec::SmallVec;
use std::sync::Arc;

pub use super::shape::{pattern3_code, PATTERN3_COUNT};
pub use super::tactics::ladder_caught;

/// The last simple ko of a playout: where it was taken, whom the point was
/// forbidden to and at which playout move, so that the forbidden side can
/// take it back once it may.
#[derive(Clone, Copy, Debug, Default)]
pub struct KoFight {
    taken: Option<(Point, Color, usize)>,
}

impl KoFight {
    /// Moves after a ko capture during which taking it back is tried.
    const AGE: usize = 4;

    /// Records the ko the move just played (number `moves`) made, if any.
    #[inline]
    pub fn note(&mut self, board: &Board, moves: usize) {
        if let Some(p) = board.ko_point() {
            self.taken = Some((p, board.ko_color(), moves));
        }
    }
}

/// The search's Go knowledge (3x3 pattern weights shared by priors and
/// playouts, learned patterns) and the prior and playout settings it reads.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Weight of each 3x3 neighbourhood code (see [`pattern3_code`]), 0 for
    /// no known shape; playouts play shapes of weight at least 0.5.
    pub pattern3: Vec<f32>,
    /// Tree prior weights.
    pub prior: PriorWeights,
    /// Playout settings.
    pub playout: PlayoutSettings,
    /// Learned move patterns for the tree priors (`None`: off).
    pub patterns: Option<Arc<Model>>,
    /// Learned 3x3 shape strengths next to the last move for the playouts
    /// (`None`: the MoGo shapes of [`Policy::pattern3`] instead).
    playout_shapes: Option<Arc<PlayoutShapes>>,
    /// One bit per 3x3 code: whether playouts play that shape (weight at
    /// least 0.5). 8 KiB, so the playout lookup stays in the L1 cache.
    shapes: Vec<u64>,
}

impl Default for Policy {
    /// MoGo shapes, default weights and the built-in learned patterns.
    fn default() -> Policy {
        Policy::mogo().with_patterns(Some(Model::embedded()))
    }
}

/// A prior: virtual playouts and their mean value for the mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// Virtual playouts.
    pub visits: f32,
    /// Their mean value for the player making the move, in [0, 1].
    pub value: f32,
}

impl Prior {
    /// This prior with `wins` more virtual playouts, all won.
    fn with_wins(self, wins: f32) -> Prior {
        let visits = self.visits + wins;
        Prior {
            visits,
            value: (self.value * self.visits + wins) / visits,
        }
    }
}

/// Move distance used for proximity: `dx + dy + max(dx, dy)` (2 for a
/// neighbour, 3 for a diagonal, 4 for a one-point jump or knight's move).
#[inline]
fn distance(a: Point, b: Point) -> usize {
    let dx = a.x().abs_diff(b.x());
    let dy = a.y().abs_diff(b.y());
    dx + dy + dx.max(dy)
}

/// Whether there is no stone within Manhattan distance 2 of `p`.
fn empty_around(board: &Board, p: Point) -> bool {
    let size = board.size() as isize;
    let (x, y) = (p.x() as isize, p.y() as isize);
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            if dx.abs() + dy.abs() > 2 {
                continue;
            }
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= size || ny >= size {
                continue;
            }
            if board.get(Point::new(nx as usize, ny as usize)).is_some() {
                return false;
            }
        }
    }
    true
}

/// The learned strengths of the 3x3 shapes for playouts: one byte per
/// neighbourhood code and colour (a log-scale strength; 128 KiB in all),
/// and the strengths of being next to the last move, orthogonally or
/// diagonally.
struct PlayoutShapes {
    /// `[black, white]` quantised strength per 3x3 code.
    shape: Vec<[u8; 2]>,
    /// Strength of a quantised value: `2^((q - 128) / 8)`.
    scale: [f32; 256],
    /// Strength of the distance to the last move, per [`RING`] position.
    near: [f32; 8],
}

impl std::fmt::Debug for PlayoutShapes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayoutShapes")
            .field("near", &self.near)
            .finish_non_exhaustive()
    }
}

impl PlayoutShapes {
    fn new(model: &Model) -> PlayoutShapes {
        let gamma = model.gammas();
        let quantise = |g: f32| (128.0 + 8.0 * g.max(1e-9).log2()).round().clamp(0.0, 255.0) as u8;
        let shape = (0..PATTERN3_COUNT)
            .map(|code| {
                [Color::Black, Color::White]
                    .map(|c| quantise(gamma[PAT3_BASE as usize + pattern3_id_of_code(code, c)]))
            })
            .collect();
        let scale = std::array::from_fn(|q| ((q as f32 - 128.0) / 8.0).exp2());
        // Distance levels 0 (next to) and 1 (diagonal).
        let next_to = gamma[DIST_LAST.base as usize];
        let diagonal = gamma[DIST_LAST.base as usize + 1];
        let near = RING.map(|d| {
            if d.unsigned_abs() == 1 || d.unsigned_abs() == STRIDE {
                next_to
            } else {
                diagonal
            }
        });
        PlayoutShapes { shape, scale, near }
    }

    /// Strength of the 3x3 shape `code` for `color` to play.
    #[inline]
    fn shape(&self, code: usize, color: Color) -> f32 {
        self.scale[self.shape[code][color.index()] as usize]
    }
}

impl Policy {
    /// A policy from 3x3 pattern weights (one per code, see
    /// [`pattern3_code`]; missing codes weigh 0) and rule weights, without
    /// learned patterns.
    pub fn new(mut pattern3: Vec<f32>, prior: PriorWeights, playout: PlayoutSettings) -> Policy {
        pattern3.resize(PATTERN3_COUNT, 0.0);
        let mut policy = Policy {
            pattern3,
            prior,
            playout,
            patterns: None,
            playout_shapes: None,
            shapes: Vec::new(),
        };
        policy.refresh();
        policy
    }

    /// MoGo shapes and default weights, without learned patterns: the
    /// playouts of [`Policy::default`] without loading its patterns.
    pub fn mogo() -> Policy {
        let mut pattern3 = vec![0.0; PATTERN3_COUNT];
        for spec in &MOGO_PATTERNS {
            add_pattern(&mut pattern3, spec, 1.0);
        }
        Policy::new(pattern3, Default::default(), Default::default())
    }

    /// This policy with these learned patterns (`None`: without) in the
    /// tree priors.
    pub fn with_patterns(mut self, patterns: Option<Arc<Model>>) -> Policy {
        self.patterns = patterns;
        self
    }

    /// This policy with the learned patterns' 3x3 shapes also drawing the
    /// playouts' moves next to the last move (boards from
    /// [`PlayoutSettings::playout_shapes_min_size`] up); without learned
    /// patterns it changes nothing.
    pub fn with_playout_patterns(mut self, on: bool) -> Policy {
        self.playout_shapes = match (&self.patterns, on) {
            (Some(model), true) => Some(Arc::new(PlayoutShapes::new(model))),
            _ => None,
        };
        self
    }

    /// The learned move patterns, on boards of `size` where they add to the
    /// priors ([`PriorWeights::learned_min_size`] up).
    pub fn learned_patterns(&self, size: usize) -> Option<&Model> {
        let on = size >= self.prior.learned_min_size;
        self.patterns.as_deref().filter(|_| on)
    }

    /// Whether playouts draw shapes from the learned patterns.
    pub fn playout_patterns(&self) -> bool {
        self.playout_shapes.is_some()
    }

    /// `prior` with the learned patterns' opinion added: `relative` is the
    /// move's strength over the strongest candidate's, `probability` its
    /// strength over the sum of all candidates', both in [0, 1], on a
    /// board of `size`.
    pub fn learned_prior(
        &self,
        prior: Prior,
        relative: f32,
        probability: f32,
        size: usize,
    ) -> Prior {
        let k = self.prior.learned;
        let weight = if size <= SMALL_BOARD_MAX {
            self.prior.learned_wins
        } else {
            self.prior.learned_wins_large
        };
        let wins = weight * probability.clamp(0.0, 1.0).sqrt();
        let good = prior.visits * prior.value + k * relative.clamp(0.0, 1.0).sqrt() + wins;
        let visits = prior.visits + k + wins;
        Prior {
            visits,
            value: good / visits,
        }
    }

    /// Rebuilds what playouts derive from [`Policy::pattern3`]; call it after
    /// changing the weights in place ([`Searcher::with_policy`] does).
    ///
    /// [`Searcher::with_policy`]: super::Searcher::with_policy
    pub fn refresh(&mut self) {
        self.pattern3.resize(PATTERN3_COUNT, 0.0);
        self.shapes = vec![0; PATTERN3_COUNT / 64];
        for (code, &w) in self.pattern3.iter().enumerate() {
            if w >= 0.5 {
                self.shapes[code / 64] |= 1 << (code % 64);
            }
        }
    }

    /// Whether playouts play the 3x3 shape around the empty point `p`.
    #[inline]
    fn playout_shape(&self, board: &Board, p: Point) -> bool {
        let code = pattern3_code(board, p);
        self.shapes[code / 64] >> (code % 64) & 1 != 0
    }

    /// Weight of the 3x3 shape around the empty point `p`.
    #[inline]
    pub fn shape(&self, board: &Board, p: Point) -> f32 {
        self.pattern3[pattern3_code(board, p)]
    }

    /// The prior of `color` playing at the empty, legal point `p`, given the
    /// last move. Eye-filling moves are not asked about: the tree leaves them out.
    pub fn prior(&self, board: &Board, color: Color, p: Point, last: Option<Point>) -> Prior {
        let w = &self.prior;
        let mut good = w.even / 2.0;
        let mut bad = w.even / 2.0;
        let opp = color.opponent();
        let mut friendly = false;
        let self_atari = board.is_self_atari(p, color);
        for n in p.neighbours() {
            match board.get(n) {
                Some(c) if c == opp && board.in_atari(n) => {
                    good += w.capture + w.capture_per_stone * board.chain_size(n).min(8) as f32;
                }
                Some(c) if c == opp => {}
                Some(_) => {
                    friendly = true;
                    if board.in_atari(n) && !self_atari {
                        if escape_is_ladder(board, p, color) {
                            bad += w.escape;
                        } else {
                            good += w.escape + board.chain_size(n).min(8) as f32;
                        }
                    }
                }
                None => {}
            }
        }
        if self_atari && !(self.playout.sacrifice > 0.0 && useful_sacrifice(board, p, color)) {
            bad += if friendly {
                w.self_atari_chain
            } else {
                w.self_atari
            };
        }
        let shape = self.shape(board, p);
        let near = last.map(|l| distance(l, p));
        if shape > 0.0 {
            good += shape
                * if near.is_some_and(|d| d <= 3) {
                    w.pattern_near
                } else {
                    w.pattern_far
                };
        }
        match near {
            Some(d) if d <= 3 => good += w.near_last,
            Some(4) => good += w.around_last,
            _ => {}
        }
        let size = board.size();
        if size >= 9 {
            let line = p.line(size);
            if line <= 3 && empty_around(board, p) {
                match line {
                    0 => bad += w.edge_empty,
                    1 => bad += w.second_line_empty,
                    _ => good += w.third_line_empty,
                }
            }
        }
        Prior {
            visits: good + bad,
            value: good / (good + bad),
        }
    }

    /// The moves of the two-liberty fights next to the last move (an own
    /// chain left with two liberties gains a third, the last move's chain
    /// is ataried where it cannot escape), at most 16; none on boards above
    /// [`PlayoutSettings::fights_max_size`].
    pub fn fight_moves(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
    ) -> SmallVec<[Point; 16]> {
        let mut cands = [Point::from_index(0); 16];
        let n = last
            .filter(|_| board.size() <= self.playout.fights_max_size)
            .map_or(0, |l| two_liberty_moves(board, color, l, false, &mut cands));
        cands[..n].iter().copied().collect()
    }

    /// The ataris of a capturing race next to the last move that are not
    /// already fight moves: enemy chains with two liberties next to an own
    /// chain the last move left with two. None when the race prior is off.
    pub fn race_moves(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        fights: &[Point],
    ) -> SmallVec<[Point; 16]> {
        let mut cands = [Point::from_index(0); 16];
        let n = last
            .filter(|_| self.prior.fight_race > 0.0 && board.size() <= self.playout.fights_max_size)
            .map_or(0, |l| two_liberty_moves(board, color, l, true, &mut cands));
        cands[..n]
            .iter()
            .copied()
            .filter(|p| !fights.contains(p))
            .collect()
    }

    /// The moves deciding capturing races anywhere on the board (see
    /// `board_races`), when the race prior is on for the board's size and
    /// the game is counted by territory: in 13x13 self-play it won 76-45
    /// under Japanese rules and lost 59-77 under Chinese rules, in its first
    /// form, which also took races already decided.
    pub fn board_races(&self, board: &Board, color: Color, territory: bool) -> Bitboard {
        let mut moves = Bitboard::EMPTY;
        let w = &self.prior;
        let on_size = (w.race_min_size..=w.race_max_size).contains(&board.size());
        if w.race > 0.0 && on_size && territory {
            board_races(board, color, &mut moves);
        }
        moves
    }

    /// `prior` with the bonus of a move deciding a capturing race.
    pub fn board_race_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.race)
    }

    /// The liberties of the last move's chain and of the chains of either
    /// colour touching the last move, when the chain-liberty prior is on.
    pub fn chain_liberties(&self, board: &Board, last: Option<Point>) -> Bitboard {
        let mut libs = Bitboard::EMPTY;
        if let Some(l) = last.filter(|&l| self.prior.chain_liberty > 0.0 && board.get(l).is_some())
        {
            libs |= board.liberties_bb(l);
            for n in l.neighbours() {
                if board.get(n).is_some() {
                    libs |= board.liberties_bb(n);
                }
            }
        }
        libs
    }

    /// The moves defending an own eye the last move threatens to make false
    /// (see [`PlayoutSettings::eye_fix`]), when the eye prior is on.
    pub fn eye_moves(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
    ) -> SmallVec<[Point; 16]> {
        let mut cands = [Point::from_index(0); 16];
        let n = last
            .filter(|&l| self.prior.eye_fix > 0.0 && board.get(l).is_some())
            .map_or(0, |l| eye_fix_moves(board, color, l, &mut cands));
        cands[..n].iter().copied().collect()
    }

    /// `prior` with the bonus of an eye defence.
    pub fn eye_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.eye_fix)
    }

    /// `prior` with the bonus of a chain liberty.
    pub fn chain_liberty_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.chain_liberty)
    }

    /// `prior` with the bonus of a capturing-race atari.
    pub fn race_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.fight_race)
    }

    /// `prior` with the bonus of a two-liberty fight move.
    pub fn fight_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.fight)
    }

    /// The vital point of a three-point eye space next to the last move, if
    /// the nakade prior is on.
    pub fn nakade_move(&self, board: &Board, last: Option<Point>) -> Option<Point> {
        last.filter(|_| self.prior.nakade > 0.0)
            .and_then(|l| nakade_point(board, l, 3))
    }

    /// `prior` with the nakade prior's wins added.
    pub fn nakade_prior(&self, prior: Prior) -> Prior {
        prior.with_wins(self.prior.nakade)
    }

    /// The prior of a pass.
    pub fn pass_prior(&self, board: &Board) -> Prior {
        let w = &self.prior;
        let half_empty = board.empty_count() * 2 > board.size() * board.size();
        let bad = w.even / 2.0 + if half_empty { w.pass_early } else { 0.0 };
        let good = w.even / 2.0;
        Prior {
            visits: good + bad,
            value: good / (good + bad),
        }
    }

    /// A playout move for `color`: tactics and shape around the last move
    /// (`last`, the opponent's) and `color`'s own move before it (`last2`:
    /// take what it ataried if the opponent left it), else a random legal
    /// move that fills no own true eye and is not a pointless self-atari.
    /// `None` means pass.
    /// `reply` is a remembered answer to the last moves, played after the
    /// tactics around the last move when it is a sensible move.
    #[inline]
    pub fn playout_move(
        &self,
        board: &Board,
        color: Color,
        last: Option<Point>,
        last2: Option<Point>,
        reply: Option<Point>,
        rng: &mut FastRng,
    ) -> Option<Point> {
        if let Some(l) = last {
            if let Some(p) = self.local_move(board, color, l, last2, reply, rng) {
                return Some(p);
            }
        }
        if let Some(l2) = last2 {
            if let Some(p) = self.capture_next_to(board, color, l2, rng) {
                return Some(p);
            }
        }
        self.random_move(board, color, rng)
    }

    /// Takes back the ko `ko` when `color` was the side forbidden to and
    /// may now (a threat was played and answered), at the rate
    /// [`PlayoutSettings::ko`].
    #[inline]
    pub fn ko_retake(
        &self,
        board: &Board,
        color: Color,
        ko: &KoFight,
        moves: usize,
        rng: &mut FastRng,
    ) -> Option<Point> {
        let (p, forbidden, at) = ko.taken?;
        (forbidden == color
            && moves - at <= KoFight::AGE
            && board.ko_point() != Some(p)
            && board.is_legal(p, color)
            && Policy::chance(rng, self.playout.ko))
        .then_some(p)
    }

    /// Captures an opponent chain in atari next to `p`, if any.
    #[inline]
    fn capture_next_to(
        &self,
        board: &Board,
        color: Color,
        p: Point,
        rng: &mut FastRng,
    ) -> Option<Point> {
        let opp = color.opponent();
        for n in p.neighbours_in(board.stone_neighbour_bits(p, opp)) {
            if board.in_atari(n) {
                if let Some(a) = board
                    .atari_point(n)
                    .filter(|&a| board.is_legal_empty(a, color))
                {
                    if Policy::chance(rng, self.playout.capture) {
                        return Some(a);
                    }
                }
            }
        }
        None
    }

    /// True with probability `p`; draws nothing when `p` is 0 or 1, so a
    /// rule switched off leaves the playouts' random stream as it was.
    #[inline]
    fn chance(rng: &mut FastRng, p: f64) -> bool {
        p >= 1.0 || p > 0.0 && (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }

    fn local_move(
        &self,
        board: &Board,
        color: Color,
        l: Point,
        last2: Option<Point>,
        reply: Option<Point>,
        rng: &mut FastRng,
    ) -> Option<Point> {
        let w = &self.playout;
        let mut cands = [Point::from_index(0); 16];
        let mut n = 0;
        let opp = color.opponent();
        // Capture the last move's chain when it is in atari.
        if board.get(l) == Some(opp) && board.in_atari(l) && Policy::chance(rng, w.capture) {
            if let Some(a) = board
                .atari_point(l)
                .filter(|&a| board.is_legal_empty(a, color))
            {
                return Some(a);
            }
        }
        // Escapes: own chains the last move put in atari.
        let mut escaping = false;
        let read_ladders =
            board.size() <= self.playout.fights_max_size && Policy::chance(rng, w.escape_ladder);
        for nb in l.neighbours_in(board.stone_neighbour_bits(l, color)) {
            if !board.in_atari(nb) {
                continue;
            }
            if !escaping && !Policy::chance(rng, w.escape) {
                break;
            }
            escaping = true;
            // Capture an attacker in atari.
            any_ataried_neighbour(board, nb, opp, 16, |sn| {
                if let Some(a) = board.atari_point(sn) {
                    if n < cands.len() && board.is_legal_empty(a, color) {
                        cands[n] = a;
                        n += 1;
                    }
                }
                false
            });
            // Extend, if that gives two liberties or more.
            if let Some(a) = board.atari_point(nb) {
                if n < cands.len()
                    && board.is_legal_empty(a, color)
                    && !board.is_self_atari(a, color)
                    && !(read_ladders && escape_is_ladder(board, a, color))
                {
                    cands[n] = a;
                    n += 1;
                }
            }
        }
        if n > 0 {
            return Some(cands[rng.below(n)]);
        }
        // Nakade: the vital point of a small eye space the last move left.
        if Policy::chance(rng, w.nakade) {
            if let Some(p) = nakade_point(board, l, w.nakade_size) {
                if board.is_legal_empty(p, color) {
                    return Some(p);
                }
            }
        }
        // Two-liberty fights around the last move.
        if board.size() <= self.playout.fights_max_size && Policy::chance(rng, w.two_liberties) {
            let race = Policy::chance(rng, w.counter_atari);
            n = two_liberty_moves(board, color, l, race, &mut cands);
            if n > 0 {
                return Some(cands[rng.below(n)]);
            }
        }
        // Own eyes the last move threatens to make false.
        if Policy::chance(rng, w.eye_fix) {
            n = eye_fix_moves(board, color, l, &mut cands);
            if n > 0 {
                return Some(cands[rng.below(n)]);
            }
        }
        // The last good reply to the last moves.
        if let Some(r) = reply.filter(|_| Policy::chance(rng, w.last_good_reply)) {
            if board.is_playout_move(r, color) && !board.is_self_atari(r, color) {
                return Some(r);
            }
        }
        // Shapes around the last move.
        if let Some(shapes) = self
            .playout_shapes
            .as_deref()
            .filter(|_| board.size() >= self.playout.playout_shapes_min_size)
        {
            return self.learned_shape(board, color, l, shapes, rng);
        }
        if Policy::chance(rng, w.pattern) {
            let sacrifice = Policy::chance(rng, w.sacrifice);
            for &d in &RING {
                let p = offset(l, d);
                if self.shape_move(board, color, p, sacrifice) {
                    cands[n] = p;
                    n += 1;
                }
            }
            if let Some(l2) = last2.filter(|_| Policy::chance(rng, w.pattern_last2)) {
                for &d in &RING {
                    let p = offset(l2, d);
                    if distance(p, l) > 3 && self.shape_move(board, color, p, sacrifice) {
                        cands[n] = p;
                        n += 1;
                    }
                }
            }
            if n > 0 {
                return Some(cands[rng.below(n)]);
            }
        }
        None
    }

    /// Whether the playouts' shape rule may play `color` at `p`: an empty
    /// point with a playout shape, legal, and no self-atari unless
    /// `sacrifice` lets a useful one through. (Inlined: as a closure called
    /// for each point around the last move it cost the playouts 3-5% more.)
    #[inline(always)]
    fn shape_move(&self, board: &Board, color: Color, p: Point, sacrifice: bool) -> bool {
        board.is_empty(p)
            && self.playout_shape(board, p)
            && board.is_legal_empty(p, color)
            && (!board.is_self_atari(p, color) || sacrifice && useful_sacrifice(board, p, color))
    }

    /// A move next to the last move `l` drawn by the learned strengths of
    /// its 3x3 shape and its distance to `l`, against the rest of the board
    /// (see [`PlayoutSettings::learned_rest`]); `None` leaves it to the
    /// random move.
    fn learned_shape(
        &self,
        board: &Board,
        color: Color,
        l: Point,
        shapes: &PlayoutShapes,
        rng: &mut FastRng,
    ) -> Option<Point> {
        let mut cands = [Point::from_index(0); 8];
        let mut weights = [0f32; 8];
        let mut n = 0;
        let mut total = 0f32;
        for (k, &d) in RING.iter().enumerate() {
            let p = offset(l, d);
            if board.is_empty(p) {
                let shape = shapes.shape(pattern3_code(board, p), color);
                if shape < self.playout.learned_min
                    || !board.is_playout_move(p, color)
                    || board.is_self_atari(p, color)
                {
                    continue;
                }
                let w = shape * shapes.near[k];
                cands[n] = p;
                weights[n] = w;
                total += w;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        let rest = (self.playout.learned_rest * board.empty_count() as f64) as f32;
        let mut r = (rng.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32) * (total + rest);
        for k in 0..n {
            r -= weights[k];
            if r < 0.0 {
                return Some(cands[k]);
            }
        }
        None
    }

    /// A uniformly random legal move that fills no own true eye, rejecting
    /// self-ataris of chains and (mostly) of single stones.
    #[inline]
    fn random_move(&self, board: &Board, color: Color, rng: &mut FastRng) -> Option<Point> {
        let empties = board.empty_points();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        let mut fallback = None;
        // Chain self-ataris passed over: a false seki's breaking sacrifice
        // is among them when nothing else is left.
        let mut chain_ataris = [Point::new(0, 0); 4];
        let mut n_chain = 0;
        let start = rng.below(n);
        // The empty list from `start` round to it again; the board skips
        // the points that are no playout moves.
        for (from, to) in [(start, n), (0, start)] {
            let mut k = from;
            while let Some(i) = board.playout_move_between(k, to, color) {
                k = i + 1;
                let p = Point::from_index(empties[i] as usize);
                if board.is_self_atari(p, color)
                    && !(Policy::chance(rng, self.playout.sacrifice)
                        && useful_sacrifice(board, p, color))
                {
                    let single = p
                        .neighbours()
                        .iter()
                        .all(|&nb| board.get(nb) != Some(color));
                    if !single || Policy::chance(rng, self.playout.reject_self_atari) {
                        if Policy::chance(rng, self.playout.self_atari_cousin) {
                            if let Some(q) = self_atari_cousin(board, p, color) {
                                return Some(q);
                            }
                        }
                        if single && fallback.is_none() {
                            fallback = Some(p);
                        } else if !single && n_chain < chain_ataris.len() {
                            chain_ataris[n_chain] = p;
                            n_chain += 1;
                        }
                        continue;
                    }
                }
                return Some(p);
            }
        }
        if self.playout.false_seki > 0.0 {
            if let Some(&p) = chain_ataris[..n_chain]
                .iter()
                .find(|&&p| breaks_false_seki(board, p, color))
            {
                return Some(p);
            }
        }
        fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        let policy = Policy::default();
        // X O X above an empty point, on a 5x5 board centre.
        let mut b = Board::new(5);
        b.play(Point::new(1, 1), Color::Black).unwrap();
        b.play(Point::new(2, 1), Color::White).unwrap();
        b.play(Point::new(3, 1), Color::Black).unwrap();
        assert!(policy.shape(&b, Point::new(2, 2)) > 0.0);
        let mut b = Board::new(5);
        b.play(Point::new(3, 1), Color::White).unwrap();
        b.play(Point::new(3, 2), Color::Black).unwrap();
        b.play(Point::new(3, 3), Color::White).unwrap();
        assert!(policy.shape(&b, Point::new(2, 2)) > 0.0);
        assert_eq!(policy.shape(&Board::new(5), Point::new(2, 2)), 0.0);
    }

    #[test]
    fn ladders_are_read() {
        // Black E5 with two liberties, White around: a ladder to the edge.
        let mut b = Board::new(9);
        b.play(Point::new(4, 4), Color::Black).unwrap();
        for (x, y) in [(4, 3), (3, 4), (5, 5)] {
            b.play(Point::new(x, y), Color::White).unwrap();
        }
        assert!(ladder_caught(&b, Point::new(4, 4), Color::Black));
        // Black stones on both ladder paths break it.
        let mut broken = b.clone();
        broken.play(Point::new(2, 6), Color::Black).unwrap();
        broken.play(Point::new(6, 2), Color::Black).unwrap();
        assert!(!ladder_caught(&broken, Point::new(4, 4), Color::Black));
        // A stone with three liberties is no ladder.
        let mut free = Board::new(9);
        free.play(Point::new(4, 4), Color::Black).unwrap();
        free.play(Point::new(4, 3), Color::White).unwrap();
        assert!(!ladder_caught(&free, Point::new(4, 4), Color::Black));
    }

    #[test]
    fn the_eye_prior_names_the_falsifying_point_only_when_on() {
        // As in tactics' test: White's E7 makes C7 playable, which would
        // make Black's eye B6 false.
        let mut b = Board::new(7);
        for (x, y) in [(0, 0), (1, 0), (0, 1), (2, 1), (3, 1), (0, 2), (1, 2)] {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in [(3, 0), (4, 0), (5, 0), (4, 1), (3, 2), (2, 2)] {
            b.play(Point::new(x, y), Color::White).unwrap();
        }
        let last = Some(Point::new(4, 0));
        let mut policy = Policy::default();
        assert!(policy.eye_moves(&b, Color::Black, last).is_empty());
        policy.prior.eye_fix = 10.0;
        assert_eq!(
            policy.eye_moves(&b, Color::Black, last).to_vec(),
            vec![Point::new(2, 0)]
        );
    }

    #[test]
    fn chain_liberties_reach_along_the_last_moves_chain() {
        // White's E5 joins a row of four; its far end's liberty J5 is as
        // near by chains as F4, and so are the liberties of Black's D5.
        let mut b = Board::new(9);
        for x in 5..8 {
            b.play(Point::new(x, 4), Color::White).unwrap();
        }
        b.play(Point::new(3, 4), Color::Black).unwrap();
        b.play(Point::new(4, 4), Color::White).unwrap();
        let last = Some(Point::new(4, 4));
        let mut policy = Policy::default();
        assert!(policy.chain_liberties(&b, last).is_empty());
        policy.prior.chain_liberty = 5.0;
        let libs = policy.chain_liberties(&b, last);
        for p in [(8, 4), (5, 3), (2, 4), (3, 5)] {
            assert!(libs.contains(Point::new(p.0, p.1)), "{p:?}");
        }
        assert!(!libs.contains(Point::new(1, 4)));
        assert_eq!(libs.count(), 9 + 3);
    }

    #[test]
    fn capturing_race_ataris_get_their_own_prior_when_on() {
        // White's E6 leaves Black's E5 two liberties; White's D5 next to it
        // has two as well: D6 and D4 atari it.
        let mut b = Board::new(9);
        for (x, y, c) in [
            (4, 4, Color::Black),
            (2, 4, Color::Black),
            (3, 4, Color::White),
            (4, 3, Color::White),
        ] {
            b.play(Point::new(x, y), c).unwrap();
        }
        let last = Some(Point::new(4, 3));
        let mut policy = Policy::default();
        let fights = policy.fight_moves(&b, Color::Black, last);
        assert!(policy
            .race_moves(&b, Color::Black, last, &fights)
            .is_empty());
        policy.prior.fight_race = 4.0;
        let mut races = policy.race_moves(&b, Color::Black, last, &fights).to_vec();
        races.sort_by_key(|p| p.index());
        assert_eq!(races, vec![Point::new(3, 3), Point::new(3, 5)]);
        let mut fights = fights.to_vec();
        fights.sort_by_key(|p| p.index());
        assert_eq!(fights, vec![Point::new(5, 4), Point::new(4, 5)]);
    }

    #[test]
    fn two_liberty_fights_are_played() {
        let mut cands = [Point::from_index(0); 16];
        // White's E8 leaves Black's E9 two liberties: extend along the edge.
        let mut b = Board::new(9);
        b.play(Point::new(4, 0), Color::Black).unwrap();
        b.play(Point::new(4, 1), Color::White).unwrap();
        let n = two_liberty_moves(&b, Color::Black, Point::new(4, 1), false, &mut cands);
        let mut got = cands[..n].to_vec();
        got.sort_by_key(|p| p.index());
        assert_eq!(got, vec![Point::new(3, 0), Point::new(5, 0)]);
        // White's A5 has two liberties and runs into Black's B4: A6 catches
        // it, A4 lets it out.
        let mut b = Board::new(9);
        b.play(Point::new(1, 4), Color::Black).unwrap();
        b.play(Point::new(1, 5), Color::Black).unwrap();
        b.play(Point::new(0, 4), Color::White).unwrap();
        let n = two_liberty_moves(&b, Color::Black, Point::new(0, 4), false, &mut cands);
        assert_eq!(cands[..n].to_vec(), vec![Point::new(0, 3)]);
    }

    /// Black takes a ko; White may not take back at once, but does after
    /// a threat and its answer, when the rule is on.
    #[test]
    fn kos_are_taken_back_after_a_threat() {
        let mut policy = Policy::default();
        policy.playout.ko = 1.0;
        let mut b = Board::new(5);
        for (x, y) in [(0, 1), (1, 0), (1, 2)] {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in [(1, 1), (2, 0), (3, 1), (2, 2)] {
            b.play(Point::new(x, y), Color::White).unwrap();
        }
        let mut rng = FastRng::new(1);
        let mut ko = KoFight::default();
        b.play(Point::new(2, 1), Color::Black).unwrap();
        ko.note(&b, 0);
        assert_eq!(b.ko_point(), Some(Point::new(1, 1)));
        assert_eq!(policy.ko_retake(&b, Color::White, &ko, 1, &mut rng), None);
        b.play(Point::new(4, 4), Color::White).unwrap();
        ko.note(&b, 1);
        b.play(Point::new(4, 3), Color::Black).unwrap();
        ko.note(&b, 2);
        let back = Some(Point::new(1, 1));
        assert_eq!(policy.ko_retake(&b, Color::White, &ko, 3, &mut rng), back);
        assert_eq!(policy.ko_retake(&b, Color::Black, &ko, 3, &mut rng), None);
        policy.playout.ko = 0.0;
        assert_eq!(policy.ko_retake(&b, Color::White, &ko, 3, &mut rng), None);
    }

    /// A false seki (the corner of a lost 9x9 game against Pachi): White's
    /// ten stones and Black's three share their last liberties A3 and A1.
    /// With nothing else left, Black throws in at A3, the square four
    /// White's capture leaves makes one eye; A1 would leave a bent shape,
    /// so not there. White has nothing to play.
    #[test]
    fn a_false_seki_is_broken_by_the_sacrifice_when_nothing_else_is_left() {
        let rows = [
            "XX.XXX", // C6, E5, E3 and F1 are Black's eyes
            "OXXX.X", //
            "OOOXXX", //
            ".XOX.X", // A3
            "XXOXXX", //
            ".OOOX.", // A1
        ];
        let mut b = crate::board::diagram_board(6, &rows);
        let mut policy = Policy::default();
        policy.playout.false_seki = 1.0;
        let mut rng = FastRng::new(1);
        let a3 = Point::new(0, 3);
        for _ in 0..8 {
            assert_eq!(policy.random_move(&b, Color::Black, &mut rng), Some(a3));
            assert_eq!(policy.random_move(&b, Color::White, &mut rng), None);
        }
        policy.playout.false_seki = 0.0;
        assert_eq!(policy.random_move(&b, Color::Black, &mut rng), None);
        // With a liberty of its own at A6, White's group survives the
        // capture: A3 would only give away four stones.
        b.set_stone(Point::new(0, 0), None);
        assert!(useful_sacrifice(&b, a3, Color::Black));
        assert!(!breaks_false_seki(&b, a3, Color::Black));
    }

    #[test]
    fn nakade_of_three_in_a_row() {
        // Black surrounds a three-point eye on the top edge of a 5x5 board.
        let mut b = Board::new(5);
        for (x, y) in [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (4, 0)] {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        b.play(Point::new(3, 0), Color::Black).unwrap();
        assert_eq!(
            nakade_point(&b, Point::new(3, 0), 3),
            Some(Point::new(1, 0))
        );
    }

    #[test]
    fn the_nakade_prior_favours_the_vital_point_only_when_on() {
        let mut b = Board::new(5);
        for (x, y) in [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (4, 0), (3, 0)] {
            b.play(Point::new(x, y), Color::Black).unwrap();
        }
        let last = Some(Point::new(3, 0));
        let mut policy = Policy::default();
        assert_eq!(policy.nakade_move(&b, last), None);
        policy.prior.nakade = 8.0;
        let vital = Point::new(1, 0);
        assert_eq!(policy.nakade_move(&b, last), Some(vital));
        let plain = policy.prior(&b, Color::White, vital, last);
        let boosted = policy.nakade_prior(plain);
        assert_eq!(boosted.visits, plain.visits + 8.0);
        assert!(boosted.value > plain.value);
    }

    /// The learned playout shapes weigh each ring point by its distance to
    /// the last move: the four orthogonal neighbours get the "next to"
    /// strength, the four diagonal ones the "diagonal" strength.
    #[test]
    fn learned_shapes_weigh_ring_points_by_distance() {
        let mut model = Model::uniform(&[]);
        let mut gammas: Vec<f64> = model.gammas().iter().map(|&g| g as f64).collect();
        gammas[DIST_LAST.base as usize] = 9.0;
        gammas[DIST_LAST.base as usize + 1] = 5.0;
        model.set_gammas(&gammas);
        let shapes = PlayoutShapes::new(&model);
        let centre = Point::new(5, 5);
        for (k, &d) in RING.iter().enumerate() {
            let expected = if distance(offset(centre, d), centre) == 2 {
                9.0
            } else {
                5.0
            };
            assert_eq!(shapes.near[k], expected, "ring position {k}");
        }
    }

    /// With learned playout shapes, a shape the model rates far above the
    /// rest is what the playouts play next to the last move; without them
    /// (or on 9x9) the same point is one of the MoGo shapes (a diagonal
    /// attachment) and played far less often.
    #[test]
    fn learned_shapes_draw_playout_moves() {
        let model = Model::uniform(&[]);
        let mut gammas: Vec<f64> = model.gammas().iter().map(|&g| g as f64).collect();
        let count = |size: usize, on: bool, gammas: &[f64]| {
            let mut model = model.clone();
            model.set_gammas(gammas);
            let policy = Policy::default()
                .with_patterns(Some(Arc::new(model)))
                .with_playout_patterns(on);
            assert_eq!(policy.playout_patterns(), on);
            let mut board = Board::new(size);
            let l = Point::new(size / 2, size / 2);
            board.play(l, Color::Black).unwrap();
            let mut rng = FastRng::new(7);
            // The four diagonal points share the shape (up to symmetry).
            (0..1000)
                .filter(|_| {
                    policy
                        .playout_move(&board, Color::White, Some(l), None, None, &mut rng)
                        .is_some_and(|p| distance(p, l) == 3)
                })
                .count()
        };
        let mut board = Board::new(13);
        board.play(Point::new(6, 6), Color::Black).unwrap();
        let id = pattern3_id_of_code(pattern3_code(&board, Point::new(7, 7)), Color::White);
        gammas[PAT3_BASE as usize + id] = 1e4;
        let on = count(13, true, &gammas);
        assert!(on > 950, "{on} of 1000");
        let off = count(13, false, &gammas);
        assert!(off < 500, "{off} of 1000");
        let small = count(9, true, &gammas);
        assert!(small < 500, "{small} of 1000");
        // A shape below the playouts' threshold is not played for its shape.
        gammas[PAT3_BASE as usize + id] = 2.0;
        let weak = count(13, true, &gammas);
        assert!(weak < 50, "{weak} of 1000");
    }

    /// The race prior is on where it was measured to help: 13x13, counted
    /// by territory.
    #[test]
    fn the_race_prior_runs_on_13x13_by_territory_only() {
        let rows = ["..XO.", "..XO.", ".OXOX", "OOXOX", ".OXOX"];
        let policy = Policy::default();
        for (size, territory, on) in [
            (9, true, false),
            (13, true, true),
            (13, false, false),
            (19, true, false),
        ] {
            let b = crate::board::diagram_board(size, &rows);
            let moves = policy.board_races(&b, Color::Black, territory);
            let at = moves.contains(Point::new(3, 5));
            assert_eq!(at, on, "{size}x{size}, territory {territory}");
        }
    }
}

//! Confirmation play, as the 1989 Japanese rules settle disputed life and
//! death after the game stops: moves are hypothetical, and a ko once taken
//! may be retaken only after its loser passes for that ko (ko threats have
//! vanished). A small exhaustive search over a seki region (by proof
//! numbers, `confirm/dfpn.rs`) asks whether the attacker, moving first, can
//! capture a defending chain under that rule; races and eye spaces are read
//! the same way, full width.
//! It is why bent four in the corner is dead: the attacker sacrifices to
//! reach the bent four, starts the ko, and the defender can never retake.

use super::readings::{Reading, ReadingOutcome};
use crate::board::{Bitboard, Board, Color, Point, UndoLog};
use fxhash::FxHashMap;
use smallvec::SmallVec;
use std::cell::{Cell, RefCell};

mod dfpn;

/// Largest number of empty points a region may have to be searched.
pub(crate) const MAX_EMPTY: usize = 8;
/// How far a search may go before it gives up (the position then stands
/// as the playouts judged it).
#[derive(Clone, Copy)]
pub(crate) struct Budget {
    /// Plies searched.
    pub depth: u32,
    /// Positions visited.
    pub nodes: usize,
    /// How many of the attacker's stones the defender must capture in one
    /// move to have won (0: no such end).
    pub won_by_capturing: usize,
    /// Whether a capture of at most [`PLAY_BACK_SPACE`] points counts only
    /// if the defender cannot then kill the capturers by playing in the
    /// points they emptied (see [`Search::capturers_die`]).
    pub play_back: bool,
    /// Read by proof numbers (`confirm/dfpn.rs`) rather than full width;
    /// each position then counts as [`PROOF_NUMBER_COST`] against the
    /// judgement's allowance.
    pub proof_numbers: bool,
    /// Which reading this is, for the judgement's log ([`Reading::what`]).
    pub what: &'static str,
}

impl Budget {
    /// What one position of this reading costs against the [`Allowance`].
    fn cost(self) -> usize {
        position_cost(self.proof_numbers)
    }
}

/// What one position costs against the [`Allowance`], read by proof
/// numbers or full width.
const fn position_cost(proof_numbers: bool) -> usize {
    if proof_numbers {
        PROOF_NUMBER_COST
    } else {
        1
    }
}

/// A race the playouts leave open, read over the chain, its liberties and
/// the short-of-liberties chains around it; 22 plies are enough for the
/// bent-four sequence with its passes.
pub(crate) const RACE_READ_BUDGET: Budget = Budget {
    depth: 22,
    nodes: 100_000,
    won_by_capturing: 0,
    play_back: false,
    proof_numbers: false,
    what: "race",
};

/// A seki region, as deep as [`RACE_READ_BUDGET`], read by proof numbers:
/// breaking a seki with a throw-in and a nakade after the capture takes
/// 16 plies, which full width read in up to 2.6 million positions (tune
/// game 2006-10-13-12) and proof numbers in about 5,000. With 150,000 the
/// tune half counts as with 10 million full-width positions.
pub(crate) const SEKI_BUDGET: Budget = Budget {
    nodes: 150_000,
    proof_numbers: true,
    what: "seki",
    ..RACE_READ_BUDGET
};

/// A race between chains with no eyes: as [`RACE_READ_BUDGET`], and a defender
/// that captures seven stones or more in one move has won (no nakade kills
/// a space that big). Reading on after such captures took a race between
/// two big chains a million positions; this ends it in a few hundred.
/// A capture the defender plays back into is no kill: three stones taken
/// from inside a group with no other eye leave it a straight three.
pub(crate) const RACE_BUDGET: Budget = Budget {
    won_by_capturing: 7,
    play_back: true,
    what: "eyeless race",
    ..RACE_READ_BUDGET
};

/// The reading of a race partner once the chain read first has held: as
/// [`RACE_BUDGET`], 40 plies deep. The partner may still die to a sacrifice
/// and a play-back of its own: stones it takes that leave it a pyramid
/// four take the attacker, dame filling included, more than 11 moves.
pub(crate) const RACE_PARTNER_BUDGET: Budget = Budget {
    depth: 40,
    what: "race partner",
    ..RACE_BUDGET
};

/// A group the playouts keep alive: a kill they miss (a two-stone
/// sacrifice inside a straight three; a capture that leaves a pyramid four
/// to play inside). As deep as [`EYE_SPACE_BUDGET`], with a quarter of its
/// positions: 12 plies and 20,000 positions left 3 more wrong winners on
/// the tune half.
pub(crate) const QUICK_BUDGET: Budget = Budget {
    depth: 40,
    nodes: 100_000,
    won_by_capturing: 0,
    play_back: false,
    proof_numbers: false,
    what: "eye space",
};

/// A group's whole eye space: killing a bulky five after winning a ko and
/// taking away a second eye takes about forty plies with the passes.
pub(crate) const EYE_SPACE_BUDGET: Budget = Budget {
    depth: 40,
    nodes: 400_000,
    won_by_capturing: 0,
    play_back: false,
    proof_numbers: false,
    what: "eye space",
};

/// An unsure group's eye space read again by proof numbers once
/// [`EYE_SPACE_BUDGET`] has run out: a long kill with few replies at each
/// step takes them a few thousand positions (tune game 2006-08-06-19:
/// 13,599 where full width ran out at 400,000). Read first, with 50,000
/// in place of full width, they ran out on a ko kill full width finds
/// (dev game 2017-06-18-16).
pub(crate) const EYE_SPACE_PROOF_BUDGET: Budget = Budget {
    nodes: 50_000,
    proof_numbers: true,
    ..EYE_SPACE_BUDGET
};

/// Most points a capture may empty for [`Budget::play_back`] to apply:
/// the biggest nakade, a rabbity six.
const PLAY_BACK_SPACE: usize = 6;

/// The reading of a play-back (see [`Search::capturers_die`]): at most
/// 20,000 positions, counted in the reading that asked, and 40 plies:
/// killing capturers left with a bulky five and three dame takes the
/// defender the vital point, the dame and the eye's points, more than 11
/// moves. Read by proof numbers, which find such long kills in far fewer
/// positions than full width (tune game 2003-06-18-19).
const PLAY_BACK_BUDGET: Budget = Budget {
    depth: 40,
    nodes: 20_000,
    won_by_capturing: 0,
    play_back: false,
    proof_numbers: true,
    what: "play-back",
};

/// Positions one judgement may read in all: bounds the time of a count
/// whatever the board holds (about 0.75 s of reading on one core of the
/// 2-core VM). Most tune games read under 200,000; the three that read
/// more than this (up to 1,201,173) count the same when stopped here.
pub(crate) const READING_ALLOWANCE: usize = 1_000_000;

/// What one proof-number position costs against the allowance, in
/// full-width positions: it looks up every reply in the table and keeps
/// two numbers a position (callgrind, tune game 2001-02-20-2: about 9,000
/// instructions a position against 1,100).
const PROOF_NUMBER_COST: usize = 8;

/// Moves the local searches (`local_search.rs`) of one judgement may play
/// in all, in their trees and playouts: about 0.9 s on one core of the
/// 2-core VM, whatever the board. The most any game of either half plays
/// is 926,000 but for tune game 2003-03-12-6, an unfinished 9-stone
/// handicap game (1,382,000).
const LOCAL_SEARCH_MOVES: usize = 1_000_000;

/// The positions one judgement may still read, shared by all its searches
/// so that a count reads no more than it was given, however many groups
/// the board asks about. Once it is spent, searches give up at once and the
/// groups left stand as the playouts judged them. It also keeps the log
/// of the readings made.
pub(crate) struct Allowance {
    left: Cell<usize>,
    /// Moves the local searches may still play.
    search_moves: Cell<usize>,
    log: RefCell<Vec<Reading>>,
    /// Whether the board is being judged again (see [`Reading::again`]).
    again: Cell<bool>,
}

impl Allowance {
    pub(crate) fn new(positions: usize) -> Allowance {
        Allowance {
            left: Cell::new(positions),
            search_moves: Cell::new(LOCAL_SEARCH_MOVES),
            log: RefCell::new(Vec::new()),
            again: Cell::new(false),
        }
    }

    /// Marks the readings from now on as made on the board judged again.
    pub(crate) fn judging_again(&self) {
        self.again.set(true);
    }

    /// Whether a region of `empty` points is small enough for a reading
    /// that takes `most`; when not, logs it as too big: `what` of the chain
    /// through `target`, `attacker` first.
    pub(crate) fn fits(
        &self,
        board: &Board,
        what: &'static str,
        target: Point,
        attacker: Color,
        empty: usize,
        most: usize,
    ) -> bool {
        if empty <= most {
            return true;
        }
        self.note(Reading {
            what,
            target,
            stones: board.chain_size(target),
            attacker,
            first: attacker,
            positions: 0,
            outcome: ReadingOutcome::TooBig { empty, most },
            again: false,
        });
        false
    }

    /// Moves the local searches may still play.
    pub(crate) fn search_moves_left(&self) -> usize {
        self.search_moves.get()
    }

    /// Charges `moves` played by a local search.
    pub(crate) fn spend_search_moves(&self, moves: usize) {
        let left = self.search_moves.get().saturating_sub(moves);
        self.search_moves.set(left);
    }

    /// Logs a local search of the group through `target`, `attacker` first,
    /// that captured it in `percent` of `playouts`.
    pub(crate) fn searched(
        &self,
        board: &Board,
        target: Point,
        attacker: Color,
        playouts: usize,
        percent: u8,
    ) {
        self.note(Reading {
            what: "local search",
            target,
            stones: board.chain_size(target),
            attacker,
            first: attacker,
            positions: playouts,
            outcome: ReadingOutcome::Searched { percent },
            again: false,
        });
    }

    /// Logs `reading`, marked as made on the board judged again if it was.
    fn note(&self, reading: Reading) {
        self.log.borrow_mut().push(Reading {
            again: self.again.get(),
            ..reading
        });
    }

    /// The readings made so far, in order.
    pub(crate) fn take_log(&self) -> Vec<Reading> {
        self.log.take()
    }
}

/// Chains asked about in one position, each with whether it has two
/// liberties (see [`two_liberties_once`]).
type ChainsMet = SmallVec<[(Point, bool); 8]>;

/// Whether the chain through the stone on `n` has exactly two liberties,
/// its liberties walked once a position whatever the number of moves next
/// to it (the chains around a region are long): `met` keeps the answers.
fn two_liberties_once(b: &Board, n: Point, met: &mut ChainsMet) -> bool {
    let id = b.chain_id(n);
    if let Some(&(_, two)) = met.iter().find(|&&(c, _)| c == id) {
        return two;
    }
    let two = b.two_liberties(n).is_some();
    met.push((id, two));
    two
}

/// The ko bans in force (kos in a reading are few; no allocation).
type Bans = SmallVec<[Ban; 4]>;

/// A ko the `barred` side may not retake while the single stone on
/// `capturer` still has `ko` as its only liberty.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Ban {
    ko: Point,
    barred: Color,
    capturer: Point,
}

impl Ban {
    fn holds(&self, b: &Board) -> bool {
        b.is_empty(self.ko)
            && b.get(self.capturer) == Some(self.barred.opponent())
            && b.chain_size(self.capturer) == 1
            && b.liberty_count(self.capturer) == 1
    }
}

/// The ko bans in force after `passer` passes: a pass lifts its own bans
/// (a pass for the ko).
fn bans_after_pass(bans: &[Ban], passer: Color) -> Bans {
    bans.iter()
        .copied()
        .filter(|x| x.barred != passer)
        .collect()
}

/// Plays `p` for `to_move` on `b`, logged in `log`, and returns the stones
/// it took and the ko bans in force after it: those of `bans` that still
/// hold, and a new one when it took a ko.
fn play_with_bans(
    b: &mut Board,
    log: &mut UndoLog,
    p: Point,
    to_move: Color,
    bans: &[Ban],
) -> (usize, Bans) {
    let taken = b.play_logged(p, to_move, log) as usize;
    let mut next: Bans = bans.iter().copied().filter(|x| x.holds(b)).collect();
    if let Some(ko) = b.ko_point() {
        next.push(Ban {
            ko,
            barred: to_move.opponent(),
            capturer: p,
        });
    }
    (taken, next)
}

/// Whether `attacker`, with `first` to move and both sides playing only on
/// the empty points of `playable` and `region` and on points freed by a
/// capture, can capture the chain through `target` and every other
/// defending stone of `region` against every defence. `None` when the
/// search is too big to finish within `budget` and what is left of
/// `allowance`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn can_capture(
    board: &Board,
    region: Bitboard,
    playable: Bitboard,
    target: Point,
    attacker: Color,
    first: Color,
    budget: Budget,
    allowance: &Allowance,
) -> Option<bool> {
    let units = allowance.left.get();
    let max_nodes = budget.nodes.min(units / budget.cost());
    let (win, used, spent) = if max_nodes == 0 {
        (None, 0, 0)
    } else {
        let mut s = Search::new(
            board, region, playable, target, attacker, max_nodes, units, budget,
        );
        let win = s.read(board, first, budget.depth);
        (win, s.nodes.min(max_nodes), s.spent().min(units))
    };
    allowance.left.set(units - spent);
    let outcome = match win {
        Some(true) => ReadingOutcome::Captured,
        Some(false) => ReadingOutcome::Held,
        None => ReadingOutcome::RanOut,
    };
    allowance.note(Reading {
        what: budget.what,
        target,
        stones: board.chain_size(target),
        attacker,
        first,
        positions: used,
        outcome,
        again: false,
    });
    win
}

thread_local! {
    /// The boards of [`Search::read`] and their logs, kept between
    /// readings (a play-back is a reading inside a reading, so there is a
    /// stack of them).
    static BOARDS: RefCell<Vec<(Board, UndoLog)>> = const { RefCell::new(Vec::new()) };
}

/// What the table knows of a position: the plies searched, whether the
/// attacker wins, and the move that won for the side to move, in 4 bytes:
/// a long reading's table holds millions, and its lookups miss the cache.
#[derive(Clone, Copy)]
struct Known(u32);

impl Known {
    fn new(depth: u32, win: bool, best: Option<Point>) -> Known {
        debug_assert!(depth < 1 << 15);
        Known(depth << 17 | (win as u32) << 16 | best.map_or(0, |p| p.index() as u32))
    }

    /// Whether the attacker wins, if that still stands with `depth` plies
    /// left: a capture found in fewer plies, or a defence that held over
    /// more.
    fn answer_at(self, depth: u32) -> Option<bool> {
        let (d, win) = (self.0 >> 17, self.0 & 1 << 16 != 0);
        ((win && d <= depth) || (!win && d >= depth)).then_some(win)
    }

    /// The move that won for the side to move, to try first.
    fn best(self) -> Option<Point> {
        let at = (self.0 & 0xffff) as usize;
        (at != 0).then(|| Point::from_index(at))
    }
}

/// How a position stands before the reading tries a move there.
enum Start {
    /// The reading ends: whether the attacker has won, and whether only the
    /// plies running out ended it.
    Over { win: bool, cut: bool },
    /// Moves are tried: whether the region is cleared of defending stones
    /// (only the defender's captures are left), and the empty points.
    Open { cleared: bool, empty: Bitboard },
}

struct Search {
    region: Bitboard,
    /// Where both sides may play once the point is empty: the region, its
    /// dame and the points of the stones at the start. A point one of them
    /// leaves when captured is playable: a dead stone taken outside the
    /// region may free the point from which the defender captures the
    /// attacker back.
    playable: Bitboard,
    on: Bitboard,
    target: Point,
    attacker: Color,
    nodes: usize,
    max_nodes: usize,
    /// The allowance it may spend, its play-backs included.
    units: usize,
    /// What its play-backs cost beyond one of its own positions each (a
    /// play-back read by proof numbers costs more a position).
    extra: usize,
    /// See [`Budget::won_by_capturing`].
    won_by_capturing: usize,
    /// See [`Budget::play_back`].
    play_back: bool,
    /// Position key -> whether the capturers die (see
    /// [`Search::capturers_die`]).
    played_back: FxHashMap<u64, bool>,
    /// Position key -> what is known of it.
    seen: FxHashMap<u64, Known>,
    /// Read by proof numbers (see [`Budget::proof_numbers`]).
    proof_numbers: bool,
    /// Position key -> its proof and disproof numbers.
    numbers: FxHashMap<u64, dfpn::Numbers>,
}

impl Search {
    /// A search of `board` at most `max_nodes` positions long and `units`
    /// of the allowance, with `budget`'s rules; the stones on the board are
    /// playable once taken.
    #[allow(clippy::too_many_arguments)]
    fn new(
        board: &Board,
        region: Bitboard,
        playable: Bitboard,
        target: Point,
        attacker: Color,
        max_nodes: usize,
        units: usize,
        budget: Budget,
    ) -> Search {
        Search {
            region,
            playable: playable | region | board.stones(Color::Black) | board.stones(Color::White),
            on: Bitboard::on_board(board.size()),
            target,
            attacker,
            nodes: 0,
            max_nodes,
            units,
            extra: 0,
            won_by_capturing: budget.won_by_capturing,
            play_back: budget.play_back,
            played_back: FxHashMap::default(),
            seen: FxHashMap::default(),
            proof_numbers: budget.proof_numbers,
            numbers: FxHashMap::default(),
        }
    }

    /// Whether the attacker wins from `board` with `first` to move, the ko
    /// ban lifted; `None` when the positions ran out.
    fn read(&mut self, board: &Board, first: Color, depth: u32) -> Option<bool> {
        // Each move is played on one board and taken back: copying the
        // board for every position cost more than the move.
        let (mut b, mut log) = BOARDS
            .with(|kept| kept.borrow_mut().pop())
            .unwrap_or_else(|| (Board::new(board.size()), UndoLog::new()));
        b.copy_from(board);
        b.clear_ko();
        let win = if self.proof_numbers {
            self.prove(&mut b, &mut log, first, depth)
        } else {
            self.attacker_wins(&mut b, &mut log, first, &[], 0, depth)
        };
        debug_assert!(log.is_empty());
        BOARDS.with(|kept| kept.borrow_mut().push((b, log)));
        (self.nodes <= self.max_nodes).then_some(win)
    }

    /// Whether the attacker wins from `b`, whose moves are logged in `log`
    /// and taken back before this returns.
    fn attacker_wins(
        &mut self,
        b: &mut Board,
        log: &mut UndoLog,
        to_move: Color,
        bans: &[Ban],
        passes: u8,
        depth: u32,
    ) -> bool {
        let (cleared, empty) = match self.start(b, to_move, passes, depth) {
            Start::Over { win, .. } => return win,
            Start::Open { cleared, empty } => (cleared, empty),
        };
        let attacking = to_move == self.attacker;
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        let key = self.key(b, to_move, bans);
        let mut best = None;
        if let Some(known) = self.seen.get(&key).copied() {
            if let Some(win) = known.answer_at(depth) {
                return win;
            }
            best = known.best();
        }
        // The side to move wins when one of its moves wins for it.
        let mut result = !attacking;
        // The defender tries its pass first: in a seki, doing nothing is
        // the usual defence and refutes most attacks at once.
        if !attacking && !cleared {
            b.pass_logged(log);
            let next_bans = bans_after_pass(bans, to_move);
            let win = self.attacker_wins(
                b,
                log,
                to_move.opponent(),
                &next_bans,
                passes + 1,
                depth - 1,
            );
            b.undo(log);
            if !win {
                self.seen.insert(key, Known::new(depth, false, None));
                return false;
            }
        }
        let mut moves = self.ordered_moves(b, to_move, bans, empty, best);
        if cleared {
            // The defender is to move (a cleared region with the attacker
            // to move has ended the reading): only its captures are left.
            moves.retain(|&mut (_, _, captures)| captures);
        }
        let mut best = None;
        for &(_, p, captures) in &moves {
            // Most replies lead to a position read before: look it up
            // without playing the move. The answer and the positions
            // counted are the same.
            if let Some(win) = self.known_reply(b, p, captures, to_move, bans, depth - 1) {
                if win == attacking {
                    result = attacking;
                    best = Some(p);
                    break;
                }
                continue;
            }
            let (taken, next_bans) = play_with_bans(b, log, p, to_move, bans);
            // A defender that takes enough stones has won (see
            // [`Budget::won_by_capturing`]).
            let win = if !attacking && self.won_by_capturing > 0 && taken >= self.won_by_capturing {
                false
            } else {
                self.attacker_wins(b, log, to_move.opponent(), &next_bans, 0, depth - 1)
            };
            b.undo(log);
            if win == attacking {
                result = attacking;
                best = Some(p);
                break;
            }
        }
        self.seen.insert(key, Known::new(depth, result, best));
        result
    }

    /// The rules that end the reading in `b` before any move is tried, the
    /// same for both searches.
    fn start(&mut self, b: &Board, to_move: Color, passes: u8, depth: u32) -> Start {
        let defender = self.attacker.opponent();
        // Won once the target is gone and no defending stone is left in the
        // region to live on with the points it leaves, unless the defender
        // at once takes back the capturing stones (a snapback, a ko), or,
        // with [`Budget::play_back`], kills them by playing in the points
        // they emptied: the 1989 rules call stones alive whose capture lets
        // new stones live.
        let cleared =
            b.get(self.target) != Some(defender) && (self.region & b.stones(defender)).is_empty();
        if cleared && self.play_back && self.capturers_die(b) {
            return Start::Over {
                win: false,
                cut: false,
            };
        }
        if cleared && (to_move == self.attacker || depth == 0) {
            return Start::Over {
                win: true,
                cut: false,
            };
        }
        // A defending chain with a liberty outside the region can never be
        // captured: the attacker plays only inside it.
        let empty = self.on & !(b.stones(Color::Black) | b.stones(Color::White));
        if self.escapes(b, defender, empty) {
            return Start::Over {
                win: false,
                cut: false,
            };
        }
        // A pass answering a pass ends the play: the defender, answering
        // the attacker's pass, always takes it; the attacker never passes
        // (a pass gives the defender that win), so it has no branch.
        let attacking = to_move == self.attacker;
        if !cleared && (passes >= 2 || depth == 0 || (passes == 1 && !attacking)) {
            return Start::Over {
                win: false,
                cut: depth == 0,
            };
        }
        Start::Open { cleared, empty }
    }

    /// What [`Search::attacker_wins`] would answer after `to_move` plays
    /// `p` (`captures`: whether it takes stones), when that position is
    /// already known well enough for the `depth` left, found without
    /// playing the move; `None` to play it.
    /// Only a move that captures nothing and leaves the ko bans as they
    /// are qualifies, and only above the last ply: the call would then get
    /// past its early ends (a known position got past them before, and they
    /// depend on the position alone) and answer from the table, counting
    /// the position as visited.
    fn known_reply(
        &mut self,
        b: &Board,
        p: Point,
        captures: bool,
        to_move: Color,
        bans: &[Ban],
        depth: u32,
    ) -> Option<bool> {
        if depth == 0 || captures || bans.iter().any(|ban| ban.ko == p) {
            return None;
        }
        let key = Self::ban_key(b.full_hash_after_quiet_move(p, to_move), bans);
        #[cfg(debug_assertions)]
        {
            let mut next = b.clone();
            next.play_unchecked(p, to_move);
            debug_assert!(bans.iter().all(|ban| ban.holds(&next)));
            debug_assert_eq!(key, self.key(&next, to_move.opponent(), bans));
        }
        let win = self.seen.get(&key)?.answer_at(depth)?;
        self.nodes += 1;
        Some(win && self.nodes <= self.max_nodes)
    }

    /// Whether the defender, moving first, captures every attacker chain
    /// next to the region's empty points once a capture has cleared it (at
    /// most [`PLAY_BACK_SPACE`] of them): a capture-and-play-back, where
    /// taking the stones leaves the capturers a nakade shape and no other
    /// eye. Read as the rest of the search, with the capturers as the target
    /// and the emptied points playable; the positions count in this
    /// search's.
    fn capturers_die(&mut self, b: &Board) -> bool {
        let defender = self.attacker.opponent();
        let occupied = b.stones(Color::Black) | b.stones(Color::White);
        let emptied = self.region & self.on & !occupied;
        if emptied.is_empty() || emptied.count() > PLAY_BACK_SPACE {
            return false;
        }
        let attacker_stones = b.stones(self.attacker);
        let capturers =
            Bitboard::flood_fill(emptied.neighbours() & attacker_stones, attacker_stones);
        let Some(target) = capturers.first() else {
            return false;
        };
        let key = b.full_hash(defender);
        if let Some(&dies) = self.played_back.get(&key) {
            return dies;
        }
        let units = self.units.saturating_sub(self.spent());
        let max_nodes = PLAY_BACK_BUDGET
            .nodes
            .min(self.max_nodes.saturating_sub(self.nodes))
            .min(units / PLAY_BACK_BUDGET.cost());
        let mut back = Search::new(
            b,
            capturers | emptied,
            self.playable | emptied,
            target,
            defender,
            max_nodes,
            units,
            PLAY_BACK_BUDGET,
        );
        let dies = back.read(b, defender, PLAY_BACK_BUDGET.depth) == Some(true);
        self.nodes += back.nodes;
        self.extra += back
            .spent()
            .saturating_sub(back.nodes * position_cost(self.proof_numbers));
        self.played_back.insert(key, dies);
        dies
    }

    /// The allowance spent so far, its play-backs included.
    fn spent(&self) -> usize {
        self.nodes * position_cost(self.proof_numbers) + self.extra
    }

    /// Whether a defending chain with a stone in the region has a liberty
    /// where nobody plays: an empty point neither playable nor freed by a
    /// capture. Walking the chains' stones costs less than flood-filling
    /// them, a whole-board step for each point of a big group's length.
    fn escapes(&self, b: &Board, defender: Color, empty: Bitboard) -> bool {
        let outside = empty & !self.playable;
        let mut left = self.region & b.stones(defender);
        while let Some(p) = left.first() {
            for s in b.chain_iter(p) {
                left.remove(s);
                if s.neighbours().iter().any(|&n| outside.contains(n)) {
                    return true;
                }
            }
        }
        false
    }

    /// Legal moves of `to_move` in the playable area, each with its rank
    /// and whether it captures, the most forcing first so that a win cuts
    /// the search short: the move that won here before, captures, ataris
    /// and liberties of the target, then the rest.
    fn ordered_moves(
        &self,
        b: &Board,
        to_move: Color,
        bans: &[Ban],
        empty: Bitboard,
        best: Option<Point>,
    ) -> SmallVec<[(u8, Point, bool); 16]> {
        let target_libs = if b.get(self.target) == Some(self.attacker.opponent()) {
            b.liberties_bb(self.target)
        } else {
            Bitboard::EMPTY
        };
        let mut moves: SmallVec<[(u8, Point, bool); 16]> = SmallVec::new();
        // The enemy chains met so far, and whether each has two liberties.
        let mut two_libs: ChainsMet = SmallVec::new();
        for p in (self.playable & empty).iter() {
            if !b.is_legal(p, to_move)
                || bans
                    .iter()
                    .any(|ban| ban.ko == p && ban.barred == to_move && ban.holds(b))
            {
                continue;
            }
            let mut rank = 0;
            if Some(p) == best {
                rank += 16;
            }
            let captures = !b.adjacent_chains_in_atari(p, to_move.opponent()).is_empty();
            if captures {
                rank += 8;
            }
            if target_libs.contains(p) {
                rank += 4;
            }
            if p.neighbours().iter().any(|&n| {
                b.get(n) == Some(to_move.opponent()) && two_liberties_once(b, n, &mut two_libs)
            }) {
                rank += 2;
            }
            moves.push((rank, p, captures));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        moves
    }

    /// The pass count is left out: the attacker's moves are the same after
    /// a pass, and the defender never moves after one.
    fn key(&self, b: &Board, to_move: Color, bans: &[Ban]) -> u64 {
        Self::ban_key(b.full_hash(to_move), bans)
    }

    /// `hash` with the ko bans folded in.
    fn ban_key(hash: u64, bans: &[Ban]) -> u64 {
        let mut k = hash;
        for ban in bans {
            let x = (ban.ko.index() as u64) << 8 | (ban.barred as u64) << 4;
            k ^= x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::tests::board_9x9;

    /// White's D9 captures Black's dead E9, outside the region, and leaves
    /// White's D8-F9 with the single liberty E9: Black takes them back there.
    #[test]
    fn a_point_freed_by_a_capture_outside_the_region_is_playable() {
        let board = board_9x9(&[".XX.XOX..", "XXXOOOX..", "OOOXXXX.."]);
        let p = |x, y| Point::new(x, y);
        let region = [p(0, 0), p(1, 0), p(2, 0), p(0, 1), p(1, 1), p(2, 1)]
            .into_iter()
            .fold(Bitboard::EMPTY, |b, q| b | Bitboard::single(q));
        let dame = Bitboard::single(p(3, 0));
        let r = can_capture(
            &board,
            region,
            dame,
            p(2, 0),
            Color::White,
            Color::White,
            QUICK_BUDGET,
            &Allowance::new(READING_ALLOWANCE),
        );
        assert_eq!(r, Some(false));
    }

    /// White's chain around Black's D1-F1 shares its last liberties with
    /// it, C1 and G1 (a seki inside Black's wall). White filling one loses
    /// ten stones; the race reading stops there instead of reading on in
    /// the space Black gains.
    #[test]
    fn a_race_is_over_once_the_defender_captures_seven_stones() {
        let (board, black) = crate::score::tests::seki_inside_wall(false);
        let p = |x, y| Point::new(x, y);
        let region = black | Bitboard::single(p(2, 8)) | Bitboard::single(p(6, 8));
        let playable = region | board.stones(Color::White);
        let read = |budget: Budget| {
            let allowance = Allowance::new(READING_ALLOWANCE);
            let r = can_capture(
                &board,
                region,
                playable,
                p(3, 8),
                Color::White,
                Color::White,
                budget,
                &allowance,
            );
            (r, READING_ALLOWANCE - allowance.left.get())
        };
        let (race, race_cost) = read(RACE_BUDGET);
        let (full, full_cost) = read(RACE_READ_BUDGET);
        // The same answer for a fiftieth of the reading (197 of the
        // allowance, the play-backs' proof numbers included, against
        // 15,117).
        assert_eq!(race, Some(false));
        assert_eq!(full, Some(false));
        assert!(
            race_cost * 50 < full_cost,
            "{race_cost} against {full_cost}"
        );
    }

    /// Black's B9-D9 inside White's only eye space, White's chain with one
    /// liberty outside, G9: White's race to take the three stones, read
    /// with `budget` and `allowance`.
    fn read_play_back_shape(budget: Budget, allowance: &Allowance) -> Option<bool> {
        let board = board_9x9(&[".XXX.O.X.", "OOOOOOXX.", "XXXXXXX.."]);
        let p = |x, y| Point::new(x, y);
        let region = (0..5).fold(Bitboard::EMPTY, |b, x| b | Bitboard::single(p(x, 0)));
        let playable = region | Bitboard::single(p(6, 0));
        let (target, white) = (p(1, 0), Color::White);
        can_capture(
            &board, region, playable, target, white, white, budget, allowance,
        )
    }

    /// White takes the three stones (A9, G9 for Black, E9), but Black plays
    /// back at C9, the vital point of the straight three left, and White
    /// dies: the race reading finds no kill. Read without the play-back,
    /// the capture stands.
    #[test]
    fn a_capture_the_defender_plays_back_into_is_no_kill() {
        let read = |budget| read_play_back_shape(budget, &Allowance::new(READING_ALLOWANCE));
        assert_eq!(read(RACE_BUDGET), Some(false));
        let no_play_back = Budget {
            play_back: false,
            ..RACE_BUDGET
        };
        assert_eq!(read(no_play_back), Some(true));
    }

    /// The play-backs are read by proof numbers: their positions count in
    /// the race's own, and cost the judgement's allowance what proof-number
    /// positions cost, more than the race's full-width ones.
    #[test]
    fn a_play_back_costs_the_allowance_what_proof_numbers_cost() {
        let allowance = Allowance::new(READING_ALLOWANCE);
        assert_eq!(read_play_back_shape(RACE_BUDGET, &allowance), Some(false));
        let positions = allowance.take_log()[0].positions;
        let spent = READING_ALLOWANCE - allowance.left.get();
        assert!(positions > 0);
        assert!(spent > positions, "{spent} spent for {positions} positions");
        assert!(spent <= positions * PROOF_NUMBER_COST);
    }

    /// Black's two stones in the corner, White to take them at C9; the
    /// reading costs the positions it visits, and once they are spent the
    /// same question goes unanswered.
    #[test]
    fn searches_give_up_once_the_judgement_allowance_is_spent() {
        let board = board_9x9(&["XX.O.....", "OOOO....."]);
        let p = |x, y| Point::new(x, y);
        let region = [p(0, 0), p(1, 0), p(2, 0)]
            .into_iter()
            .fold(Bitboard::EMPTY, |b, q| b | Bitboard::single(q));
        let read = |allowance: &Allowance| {
            can_capture(
                &board,
                region,
                Bitboard::EMPTY,
                p(0, 0),
                Color::White,
                Color::White,
                QUICK_BUDGET,
                allowance,
            )
        };
        let plenty = Allowance::new(READING_ALLOWANCE);
        assert_eq!(read(&plenty), Some(true));
        let cost = READING_ALLOWANCE - plenty.left.get();
        assert!(cost > 0);
        let exact = Allowance::new(cost);
        assert_eq!(read(&exact), Some(true));
        assert_eq!(exact.left.get(), 0);
        assert_eq!(read(&exact), None);
        assert_eq!(read(&Allowance::new(cost - 1)), None);
    }
}

//! The confirmation reading of [`Search::attacker_wins`] by proof numbers:
//! the same game (moves, ends, ko bans and passes), searched depth first
//! where the fewest answers are left to prove or refute. A long kill with
//! few replies at each step (a ko won, then a second eye taken away) takes
//! it a few hundred thousand positions where full width needs millions.

use super::{bans_after_pass, play_with_bans, Ban, Bans, Search, Start};
use crate::board::{Board, Color, Point, UndoLog};
use smallvec::SmallVec;

/// Proof and disproof numbers no further work can change.
const INFINITE: u32 = 1 << 30;

/// What is known of a position: how many of its leaves are still to show
/// for the attacker's capture (`proof`) and against it (`disproof`).
#[derive(Clone, Copy)]
pub(super) struct Numbers {
    proof: u32,
    disproof: u32,
}

const UNKNOWN: Numbers = Numbers {
    proof: 1,
    disproof: 1,
};
const WIN: Numbers = Numbers {
    proof: 0,
    disproof: INFINITE,
};
const HOLD: Numbers = Numbers {
    proof: INFINITE,
    disproof: 0,
};

/// A reply and what is known of the position it leads to. `shaky`: the
/// numbers rest on a line cut short (the depth, a position met again on
/// the line), so they hold on this line only and stay out of the table.
struct Reply {
    at: Option<Point>,
    bans: Bans,
    key: u64,
    numbers: Numbers,
    shaky: bool,
}

impl Search {
    /// Whether the attacker wins from `b` with `to_move` to play, read by
    /// proof numbers; the answer is final once `self.nodes` is within its
    /// bound.
    pub(super) fn prove(
        &mut self,
        b: &mut Board,
        log: &mut UndoLog,
        to_move: Color,
        depth: u32,
    ) -> bool {
        let root = self.key(b, to_move, &[]);
        let mut path = vec![root];
        let (numbers, _) = self.expand(
            b,
            log,
            &mut path,
            to_move,
            &[],
            0,
            depth,
            INFINITE,
            INFINITE,
        );
        numbers.proof == 0
    }

    /// Reads the position until its proof number reaches `most_proof` or
    /// its disproof number `most_disproof`, and returns its numbers and
    /// whether they are shaky (see [`Reply`]).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        b: &mut Board,
        log: &mut UndoLog,
        path: &mut Vec<u64>,
        to_move: Color,
        bans: &[Ban],
        passes: u8,
        depth: u32,
        most_proof: u32,
        most_disproof: u32,
    ) -> (Numbers, bool) {
        let (cleared, empty) = match self.start(b, to_move, passes, depth) {
            Start::Over { win, cut } => return (if win { WIN } else { HOLD }, cut),
            Start::Open { cleared, empty } => (cleared, empty),
        };
        let attacking = to_move == self.attacker;
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return (UNKNOWN, true);
        }
        let mut replies = self.replies(b, log, to_move, bans, cleared, empty);
        if replies.is_empty() {
            return (if attacking { HOLD } else { WIN }, false);
        }
        loop {
            let (numbers, shaky) = Self::sum(&replies, attacking);
            if numbers.proof >= most_proof
                || numbers.disproof >= most_disproof
                || self.nodes > self.max_nodes
            {
                let key = self.key(b, to_move, bans);
                if !shaky && self.nodes <= self.max_nodes {
                    self.numbers.insert(key, numbers);
                }
                return (numbers, shaky);
            }
            // The reply with the least left to show for the side to move,
            // read until it has more than the next best.
            let (best, second) = Self::best_two(&replies, attacking);
            let r = &replies[best];
            let (child_proof, child_disproof) = if attacking {
                (
                    most_proof.min(second.saturating_add(1)),
                    add(most_disproof - numbers.disproof, r.numbers.disproof),
                )
            } else {
                (
                    add(most_proof - numbers.proof, r.numbers.proof),
                    most_disproof.min(second.saturating_add(1)),
                )
            };
            let (at, next_bans, key) = (r.at, r.bans.clone(), r.key);
            let result = if path.contains(&key) {
                // Met again on this line: the attacker has got nowhere.
                (HOLD, true)
            } else {
                match at {
                    Some(p) => {
                        b.play_logged(p, to_move, log);
                    }
                    None => b.pass_logged(log),
                }
                path.push(key);
                let next_passes = if at.is_none() { passes + 1 } else { 0 };
                let result = self.expand(
                    b,
                    log,
                    path,
                    to_move.opponent(),
                    &next_bans,
                    next_passes,
                    depth - 1,
                    child_proof,
                    child_disproof,
                );
                path.pop();
                b.undo(log);
                result
            };
            replies[best].numbers = result.0;
            replies[best].shaky = result.1;
        }
    }

    /// The replies of `to_move` with the numbers the table holds for them,
    /// looked up once here: the defender's pass first, then the moves of
    /// [`Search::ordered_moves`].
    fn replies(
        &mut self,
        b: &mut Board,
        log: &mut UndoLog,
        to_move: Color,
        bans: &[Ban],
        cleared: bool,
        empty: crate::board::Bitboard,
    ) -> SmallVec<[Reply; 16]> {
        let attacking = to_move == self.attacker;
        let mut replies = SmallVec::new();
        if !attacking && !cleared {
            b.pass_logged(log);
            let next_bans = bans_after_pass(bans, to_move);
            let key = self.key(b, to_move.opponent(), &next_bans);
            b.undo(log);
            replies.push(self.reply(None, next_bans, key));
        }
        let mut moves = self.ordered_moves(b, to_move, bans, empty, None);
        if cleared {
            moves.retain(|&mut (_, _, captures)| captures);
        }
        for (_, p, captures) in moves {
            if !captures && !bans.iter().any(|ban| ban.ko == p) && self.playable.contains(p) {
                let key = Self::ban_key(b.full_hash_after_quiet_move(p, to_move), bans);
                replies.push(self.reply(Some(p), bans.iter().copied().collect(), key));
                continue;
            }
            let (taken, next_bans) = play_with_bans(b, log, p, to_move, bans);
            let key = self.key(b, to_move.opponent(), &next_bans);
            b.undo(log);
            let mut reply = self.reply(Some(p), next_bans, key);
            // A defender that takes enough stones has won.
            if !attacking && self.won_by_capturing > 0 && taken >= self.won_by_capturing {
                reply.numbers = HOLD;
            }
            replies.push(reply);
        }
        replies
    }

    fn reply(&self, at: Option<Point>, bans: Bans, key: u64) -> Reply {
        Reply {
            at,
            bans,
            key,
            numbers: self.numbers.get(&key).copied().unwrap_or(UNKNOWN),
            shaky: false,
        }
    }

    /// The numbers of a position from its replies', and whether they rest
    /// on a shaky reply: the attacker needs one reply to win, the defender
    /// one to hold.
    fn sum(replies: &[Reply], attacking: bool) -> (Numbers, bool) {
        let (mut least, mut total) = (INFINITE, 0);
        let (mut any_shaky, mut firm_refutation) = (false, false);
        for r in replies {
            let (one, all) = if attacking {
                (r.numbers.proof, r.numbers.disproof)
            } else {
                (r.numbers.disproof, r.numbers.proof)
            };
            least = least.min(one);
            total = add(total, all);
            any_shaky |= r.shaky;
            firm_refutation |= r.numbers.disproof == 0 && !r.shaky;
        }
        // A capture shown stands on any line; a defence shown stands only
        // if no shaky reply is needed for it.
        let shaky = if attacking {
            least != 0 && total == 0 && any_shaky
        } else {
            least == 0 && !firm_refutation
        };
        let numbers = if attacking {
            Numbers {
                proof: least,
                disproof: total,
            }
        } else {
            Numbers {
                proof: total,
                disproof: least,
            }
        };
        (numbers, shaky)
    }

    /// The reply with the least left to show for the side to move, and the
    /// amount the next best has.
    fn best_two(replies: &[Reply], attacking: bool) -> (usize, u32) {
        let own = |r: &Reply| {
            if attacking {
                r.numbers.proof
            } else {
                r.numbers.disproof
            }
        };
        let (mut best, mut second) = (0, INFINITE);
        for (i, r) in replies.iter().enumerate().skip(1) {
            if own(r) < own(&replies[best]) {
                second = own(&replies[best]);
                best = i;
            } else {
                second = second.min(own(r));
            }
        }
        (best, second)
    }
}

/// `a + b`, no more than [`INFINITE`].
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INFINITE)
}

#[cfg(test)]
mod tests {
    use super::super::{can_capture, Allowance, Budget, RACE_READ_BUDGET};
    use crate::board::{Bitboard, Board, Color, Point};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A 5x4 corner of a 9x9 board walled off by White, with a random fight
    /// played inside it; the first black stone inside is the target.
    fn walled_corner(seed: u64) -> Option<(Board, Bitboard, Point)> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut b = Board::new(9);
        let mut region = Bitboard::EMPTY;
        for y in 0..5 {
            for x in 0..6 {
                let p = Point::new(x, y);
                if x == 5 || y == 4 {
                    b.set_stone(p, Some(Color::White));
                } else {
                    region |= Bitboard::single(p);
                }
            }
        }
        for _ in 0..rng.gen_range(8..15) {
            let c = if rng.gen_bool(0.7) {
                Color::Black
            } else {
                Color::White
            };
            let legal: Vec<Point> = region.iter().filter(|&p| b.is_legal(p, c)).collect();
            if legal.is_empty() {
                break;
            }
            b.play_unchecked(legal[rng.gen_range(0..legal.len())], c);
        }
        b.clear_ko();
        let target = (region & b.stones(Color::Black)).first()?;
        Some((b, region, target))
    }

    /// White first, at most 40 plies and `NODES` positions.
    fn read(b: &Board, region: Bitboard, target: Point, proof_numbers: bool) -> Option<bool> {
        const NODES: usize = 50_000;
        let budget = Budget {
            depth: 40,
            nodes: NODES,
            proof_numbers,
            ..RACE_READ_BUDGET
        };
        let allowance = Allowance::new(NODES * super::super::PROOF_NUMBER_COST);
        can_capture(
            b,
            region,
            region,
            target,
            Color::White,
            Color::White,
            budget,
            &allowance,
        )
    }

    /// Wherever both finish, proof numbers and full width give one answer,
    /// and proof numbers finish far more often.
    #[test]
    fn proof_numbers_agree_with_the_full_width_search() {
        let (mut both, mut kills, mut full_only, mut proofs_only) = (0, 0, 0, 0);
        for seed in 0..150 {
            let Some((b, region, target)) = walled_corner(seed) else {
                continue;
            };
            let full = read(&b, region, target, false);
            let proofs = read(&b, region, target, true);
            full_only += usize::from(full.is_some() && proofs.is_none());
            proofs_only += usize::from(full.is_none() && proofs.is_some());
            if let (Some(full), Some(proofs)) = (full, proofs) {
                assert_eq!(full, proofs, "seed {seed}");
                both += 1;
                kills += usize::from(full);
            }
        }
        // 21 finished by both (14 kills), 76 by proof numbers alone.
        assert!(both >= 20, "{both} readings finished by both");
        assert!(kills >= 10 && kills + 5 <= both, "{kills} kills of {both}");
        assert!(
            full_only == 0 && proofs_only >= 60,
            "{full_only} {proofs_only}"
        );
    }
}

//! Capturing races read out: chains short of liberties, and groups with
//! fewer than two eyes, which live only by winning their race.

use super::{marked, open_points, Calls, UNSURE};
use crate::board::{Bitboard, Board, Color, Point};
use crate::score::confirm;
use crate::score::eyes;
use crate::score::{PointStatus, Reason};

/// Most liberties a chain may have to be read out in a race.
const RACE_LIBERTIES: usize = 4;
/// Most liberties a chain may have for [`read_eyeless_race`]: a long chain
/// with no eye can still be in seki, its outside liberties next to the
/// enemy's wall and two more shared with the enemy stones inside it (tune:
/// 2001-05-18-5, 37 stones with 7 liberties; 1 game fixed, none broken,
/// at 8; validate: 2 fixed, none broken). The region's empty points bound
/// the reading whatever this is.
const EYELESS_RACE_LIBERTIES: usize = 8;

/// Reads out the capturing races of chains the playouts keep alive but
/// often lose: the chain, its liberties, and the chains short of liberties
/// next to them (enemy chains next to the chain or to its liberties,
/// friendly ones next to its liberties), with their liberties, make a small
/// region searched exactly (`confirm.rs`). A chain the opponent, moving
/// first, captures against every defence is dead, unless it could itself
/// capture one of those enemy chains moving first (a race whoever starts
/// wins stays with the playouts).
pub(super) fn read_races(
    board: &Board,
    calls: &mut Calls,
    unsure: &[Point],
    safe: Bitboard,
    shaky: Bitboard,
    reading: &confirm::Allowance,
) {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    for &p in unsure {
        let Some(c) = board.get(p) else { continue };
        let opp = c.opponent();
        let chain = Bitboard::flood_fill(Bitboard::single(p), board.stones(c));
        let libs = board.liberties_bb(p);
        // A stone in atari left at the end is mostly a ko counted as it
        // stands; the playouts judge it.
        if libs.count() < 2 || libs.count() > RACE_LIBERTIES {
            continue;
        }
        let core = chain | libs;
        let mut playable = core;
        // An enemy chain short of liberties next to a liberty is in the race
        // too: left out, it could fill that liberty as if it were safe.
        let near = ((chain.neighbours() | libs.neighbours()) & board.stones(opp) & !safe)
            | (libs.neighbours() & board.stones(c) & !chain);
        // An enemy chain left out of the region must be safe: the search
        // treats it as uncapturable.
        let mut outside_weak = false;
        for other in board.chains_at(near) {
            let Some(q) = other.first() else { continue };
            let other_libs = board.liberties_bb(q);
            if other_libs.count() > libs.count() + 2 {
                if board.get(q) == Some(opp)
                    && (calls.status[q.index()] != PointStatus::Alive || shaky.contains(q))
                {
                    outside_weak = true;
                }
                continue;
            }
            playable |= other | other_libs;
        }
        if outside_weak {
            continue;
        }
        let empty = (playable & on & !stones).count();
        let what = confirm::RACE_READ_BUDGET.what;
        if !reading.fits(board, what, p, opp, empty, confirm::MAX_EMPTY) {
            continue;
        }
        // Dead only when captured even if it moves first: a race whoever
        // starts wins stays with the playouts.
        let r = confirm::can_capture(
            board,
            core,
            playable,
            p,
            opp,
            c,
            confirm::RACE_READ_BUDGET,
            reading,
        );
        if r != Some(true) {
            continue;
        }
        // The capture must leave the capturer alive: each enemy chain next
        // to the dead one is alive for sure, or lies within the region with
        // all its liberties and all its neighbours, so that the race was
        // its only threat (a nakade stone inside a dead group is not dead
        // for being capturable).
        let mut revive = Bitboard::EMPTY;
        let mut capturer_dies = false;
        let enemies = chain.neighbours() & board.stones(opp);
        for enemy in board.chains_at(enemies) {
            let Some(e) = enemy.first() else { continue };
            if calls.status[e.index()] == PointStatus::Alive && !shaky.contains(e) {
                continue;
            }
            let around = board.liberties_bb(e) | (enemy.neighbours() & board.stones(c));
            if (around & !playable).is_empty() {
                revive |= enemy;
            } else {
                capturer_dies = true;
                break;
            }
        }
        if capturer_dies {
            continue;
        }
        calls.set(chain, PointStatus::Dead, Reason::RaceLost);
        calls.set(revive, PointStatus::Alive, Reason::RaceWon);
    }
}

/// Survival rate below which a chain in a group with fewer than two eyes
/// is dead. Light playouts let a group shut inside the opponent's area
/// live about half the time whatever its shape, a little more often when
/// it is big; a group with two eyes is left to the playouts' own verdict.
const FEW_EYES_BELOW: f64 = 0.6;

/// Open points (see [`open_points`]) from which a board is an unfinished
/// game counted by agreement: of 66 tune-half games (every 60th), the
/// median has 7, two have 20 or more. There players count a weak group with
/// fewer than two eyes dead even when the playouts, which let it make eyes
/// in the open area, keep it alive up to [`UNSURE`] of the time (tune: 6
/// games fixed, 1 broken, 3 more winners; validate: 4 fixed, none broken,
/// 2 more winners).
const OPEN_BOARD: usize = 30;

/// Chains the playouts keep alive less often than [`FEW_EYES_BELOW`] (on an
/// open board, [`UNSURE`]), in a group (chains joined through areas they
/// alone enclose) with fewer than two eyes and no chain surviving more
/// often: dead, unless [`read_eyeless_race`] finds that they live.
pub(super) fn kill_eyeless(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    unsure: &mut Vec<Point>,
    shaky: &mut Bitboard,
    safe: Bitboard,
    reading: &confirm::Allowance,
) {
    let mut kill = Bitboard::EMPTY;
    let mut races = RacesRead::default();
    let below = if open_points(board, calls) >= OPEN_BOARD {
        UNSURE
    } else {
        FEW_EYES_BELOW
    };
    let mut killed_groups = Vec::new();
    for c in Color::ALL {
        let dead_opp = marked(board.stones(c.opponent()), &calls.status, PointStatus::Dead);
        let mut done = Bitboard::EMPTY;
        for p in board.stones(c).iter() {
            if done.contains(p)
                || calls.status[p.index()] != PointStatus::Alive
                || survival[p.index()] >= below
            {
                continue;
            }
            let g = eyes::group(board, p, dead_opp);
            done |= g.chains;
            if g.eyes >= 2 || g.chains.iter().any(|q| survival[q.index()] >= below) {
                continue;
            }
            let walls = (*shaky, safe);
            let read = read_eyeless_race(board, calls, g.chains, survival, walls, reading);
            if !races.take(g.chains, read) {
                let chains = marked(g.chains, &calls.status, PointStatus::Alive);
                kill |= chains;
                killed_groups.push(chains);
            }
        }
    }
    kill &= !spared_by_each_other(board, calls, survival, &killed_groups, kill);
    races.apply(calls);
    for q in kill.iter() {
        let percent = (100.0 * survival[q.index()]).round() as u8;
        calls.set(
            Bitboard::single(q),
            PointStatus::Dead,
            Reason::FewEyes { percent },
        );
    }
    unsure.retain(|q| !kill.contains(*q));
    *shaky |= kill;
}

/// The groups among `groups` (each killed by [`kill_eyeless`], `kill` all
/// of them) that only lost their eyes to enemy stones killed beside them:
/// a group that reaches killed enemy stones through empty points and those
/// stones, that the playouts keep more often than them, and that has two
/// eyes once they are gone. Eyes are counted before either side's kills
/// are applied, so two groups in one area, each breaking the other's eye
/// space, would otherwise both die (tune: 2015-08-28-15).
fn spared_by_each_other(
    board: &Board,
    calls: &Calls,
    survival: &[f64],
    groups: &[Bitboard],
    kill: Bitboard,
) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let empty = on & !(board.stones(Color::Black) | board.stones(Color::White));
    let dead = Color::ALL.map(|c| marked(board.stones(c), &calls.status, PointStatus::Dead));
    let best = |stones: Bitboard| {
        stones
            .iter()
            .map(|q| survival[q.index()])
            .fold(0.0, f64::max)
    };
    let mut spared = Bitboard::EMPTY;
    for &chains in groups {
        let Some(p) = chains.first() else { continue };
        let Some(c) = board.get(p) else { continue };
        let killed_opp = kill & board.stones(c.opponent());
        let through = empty | killed_opp;
        let reached = Bitboard::flood_fill(chains.neighbours() & through, through) & killed_opp;
        if reached.is_empty() || best(chains) <= best(reached) {
            continue;
        }
        if eyes::group(board, p, dead[c.opponent().index()] | reached).eyes >= 2 {
            spared |= chains;
        }
    }
    spared
}

/// Survival rate from which [`read_lost_races`] reads a chain the playouts
/// kill: from 20% it kept a chain the players count dead (tune: 1 game
/// fixed, 1 broken); from 30%, only the fixed one.
const LOST_RACE_FROM: f64 = 0.3;

/// Whether the chain at `p` is one the playouts kill, but keep in no fewer
/// than [`LOST_RACE_FROM`] of them: a race they may have lost by chance.
fn lost_race(calls: &Calls, survival: &[f64], p: Point) -> bool {
    calls.status[p.index()] == PointStatus::Dead
        && matches!(calls.reasons[p.index()], Reason::Playouts { .. })
        && survival[p.index()] >= LOST_RACE_FROM
}

/// Chains the playouts kill, but in no fewer than [`LOST_RACE_FROM`] of
/// them, read as [`read_eyeless_race`] reads an eyeless chain: the
/// playouts' races go either way when both sides are short of liberties,
/// and a chain the opponent cannot capture even moving first is not dead
/// (alive, or in seki with its race partner).
pub(super) fn read_lost_races(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    walls: (Bitboard, Bitboard),
    reading: &confirm::Allowance,
) {
    let mut races = RacesRead::default();
    for c in Color::ALL {
        for chain in board.stones(c).components() {
            let Some(p) = chain.first() else { continue };
            if !lost_race(calls, survival, p) {
                continue;
            }
            let read = read_eyeless_race(board, calls, chain, survival, walls, reading);
            races.take(chain, read);
        }
    }
    races.apply(calls);
}

/// What [`read_eyeless_race`] found over a sweep, set once the sweep is
/// done (the readings judge the statuses the sweep started from).
#[derive(Default)]
struct RacesRead {
    /// Chains not captured even with the opponent first.
    held: Bitboard,
    /// Chains in seki with their race partners.
    seki: Bitboard,
}

impl RacesRead {
    /// Records the reading of `chains`; false when it left the playouts'
    /// verdict standing.
    fn take(&mut self, chains: Bitboard, read: Option<Bitboard>) -> bool {
        match read {
            Some(pair) if pair.is_empty() => self.held |= chains,
            Some(pair) => self.seki |= pair,
            None => return false,
        }
        true
    }

    /// Seki last: a chain held in its own reading and found in seki in its
    /// partner's is in seki.
    fn apply(self, calls: &mut Calls) {
        calls.set(self.held, PointStatus::Alive, Reason::RaceHeld);
        calls.set(self.seki, PointStatus::Seki, Reason::SekiRead);
    }
}

/// A group [`kill_eyeless`] would kill, or a chain the playouts killed
/// ([`read_lost_races`]), that is one chain with 2 to [`EYELESS_RACE_LIBERTIES`]
/// liberties next to enemy chains the playouts keep alive but often lose
/// or leave in seki (`shaky`), or kill but often keep:
/// read as a race over the chains, their liberties and every empty point
/// joined to them, with every chain next to those that is not firmly alive
/// (`shaky`, under [`UNSURE`]) taken in. A chain the opponent cannot
/// capture even moving first lives (`Some`): in seki with those enemy
/// chains (returned) when they cannot be captured either, else it has won
/// the race (an empty set). The playouts, which fill shared liberties at
/// random, kill one side of a seki about half the time. `None`: the
/// playouts' verdict stands (captured, or the reading cannot tell).
fn read_eyeless_race(
    board: &Board,
    calls: &Calls,
    chains: Bitboard,
    survival: &[f64],
    (shaky, safe): (Bitboard, Bitboard),
    reading: &confirm::Allowance,
) -> Option<Bitboard> {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let p = chains.first()?;
    let c = board.get(p)?;
    let opp = c.opponent();
    let libs = board.liberties_bb(p);
    if Bitboard::flood_fill(Bitboard::single(p), board.stones(c)) != chains
        || libs.count() < 2
        || libs.count() > EYELESS_RACE_LIBERTIES
    {
        return None;
    }
    let firm = |q: Point| {
        safe.contains(q)
            || (calls.status[q.index()] == PointStatus::Alive
                && survival[q.index()] >= UNSURE
                && !shaky.contains(q))
    };
    let mut racing = Vec::new();
    let mut playable = chains | libs;
    let near = chains.neighbours() & board.stones(opp) & !safe;
    for enemy in board.chains_at(near) {
        let Some(q) = enemy.first() else { continue };
        // A partner the playouts often lose or leave in seki: a race, or a
        // seki by capture-and-play-back. So is a race they may have lost by
        // chance ([`lost_race`]): of two chains in a race, each killed in
        // about half of the playouts, one lives.
        if lost_race(calls, survival, q)
            || (calls.status[q.index()] == PointStatus::Alive
                && (survival[q.index()] < UNSURE || shaky.contains(q)))
        {
            racing.push(enemy);
            playable |= enemy | board.liberties_bb(q);
        } else if !firm(q) {
            return None;
        }
    }
    if racing.is_empty() {
        return None;
    }
    // Close the region: a liberty gained on an empty point left out, or a
    // weak chain left out, would be taken for a way out.
    loop {
        let empty = playable & on & !stones;
        if empty.count() > confirm::MAX_EMPTY {
            return None;
        }
        let mut more = empty.neighbours() & on & !stones & !playable;
        let touching = (empty.neighbours() | (playable & stones).neighbours()) & stones & !playable;
        for other in board.chains_at(touching) {
            let Some(q) = other.first() else { continue };
            if !firm(q) {
                more |= other | board.liberties_bb(q);
            }
        }
        if more.is_empty() {
            break;
        }
        playable |= more;
    }
    let captured = |region: Bitboard, target: Point, attacker: Color, budget| {
        confirm::can_capture(
            board, region, playable, target, attacker, attacker, budget, reading,
        )
    };
    if captured(chains | libs, p, opp, confirm::RACE_BUDGET) != Some(false) {
        return None;
    }
    let mut pair = chains;
    for enemy in racing {
        let q = enemy.first()?;
        let region = enemy | board.liberties_bb(q);
        if captured(region, q, c, confirm::RACE_PARTNER_BUDGET) != Some(false) {
            return Some(Bitboard::EMPTY);
        }
        pair |= enemy;
    }
    Some(pair)
}

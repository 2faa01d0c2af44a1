//! Seki: the playouts' seki calls untangled on open boards, spread to
//! their neighbours, and read out under the confirmation rules.

use std::cell::Cell;

use super::{marked, Calls};
use crate::board::{Bitboard, Board, Color};
use crate::score::confirm;
use crate::score::{PointStatus, Reason};

/// How many chains in seki make a board an open one rather than a finished
/// game: the tune half's finished games have at most 7, its unfinished
/// handicap games against weak players 35 to 49.
const SEKI_TANGLE: usize = 20;

/// Most empty points a seki region may have to be read: more than the
/// other readings' [`confirm::MAX_EMPTY`], because the flood from a seki's
/// stones takes in any dame pocket beside them whole (a 13x13 game against
/// GNU Go: a pyramid four with ten empty points around it, called seki
/// while it went unread; the reading kills it). The reading's node budget
/// still bounds the time.
const SEKI_MAX_EMPTY: usize = confirm::MAX_EMPTY + 4;

/// With [`SEKI_TANGLE`] chains or more in seki the playouts met open areas
/// neither side would fill, not seki: each such chain is alive (it survives
/// at least half the playouts, or it would be dead already).
pub(super) fn untangle_seki(board: &Board, calls: &mut Calls, survival: &[f64]) {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let seki = marked(on & stones, &calls.status, PointStatus::Seki);
    let chains: Vec<Bitboard> = Color::ALL
        .into_iter()
        .flat_map(|c| (seki & board.stones(c)).components())
        .collect();
    if chains.len() < SEKI_TANGLE {
        return;
    }
    for chain in chains {
        let p = chain.first().expect("a chain has a stone");
        let percent = (100.0 * survival[p.index()]).round() as u8;
        calls.set(chain, PointStatus::Alive, Reason::Playouts { percent });
    }
}

/// A chain judged dead that shares a liberty with an enemy chain judged to
/// be in seki is in that seki too: if it were dead, its neighbour would
/// simply be alive. The playouts that judge the two chains differ (each
/// chain's opponent moves first), and where they disagree people agree on
/// seki.
pub(super) fn settle_seki_neighbours(board: &Board, calls: &mut Calls) {
    loop {
        let mut changed = false;
        for c in Color::ALL {
            for chain in board.stones(c).components() {
                let Some(p) = chain.first() else { continue };
                if calls.status[p.index()] != PointStatus::Dead {
                    continue;
                }
                let libs = board.liberties_bb(p);
                // A chain in atari the seki chain can take safely is a
                // stone in its eye, not a seki partner.
                let takeable = libs.first().filter(|_| libs.count() == 1).is_some_and(|l| {
                    board.is_legal(l, c.opponent()) && !board.is_self_atari(l, c.opponent())
                });
                if takeable {
                    continue;
                }
                let seki_next = (libs.neighbours() & board.stones(c.opponent()))
                    .iter()
                    .any(|q| calls.status[q.index()] == PointStatus::Seki);
                if seki_next {
                    calls.set(chain, PointStatus::Seki, Reason::SekiNeighbour);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Plays out each small seki region under the confirmation rules: when one
/// side, moving first, captures the other's stones there whatever they do
/// (and not the other way round), those stones are dead and its own are
/// alive. Bent four in the corner is the classic case.
///
/// Returns the seki stones whose region no reading settled: too big to
/// read, or a reading ran out.
pub(super) fn confirm_seki(
    board: &Board,
    calls: &mut Calls,
    reading: &confirm::Allowance,
) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let seki = marked(on & stones, &calls.status, PointStatus::Seki);
    let mut unsettled = Bitboard::EMPTY;
    let mut left = seki;
    while let Some(p) = left.first() {
        let region = Bitboard::flood_fill(Bitboard::single(p), seki | (on & !stones));
        left &= !region;
        let empty = (region & !stones).count();
        // `p` is a stone of the seki; its opponent would attack.
        let attacker = board.get(p).map_or(Color::Black, Color::opponent);
        let what = confirm::SEKI_BUDGET.what;
        if !reading.fits(board, what, p, attacker, empty, SEKI_MAX_EMPTY) {
            unsettled |= region & stones;
            continue;
        }
        // Dead stones in the region's eyes: their points are played on
        // once they are taken.
        let dead = marked(on & stones, &calls.status, PointStatus::Dead);
        let inside = Bitboard::flood_fill((region & !stones).neighbours() & dead, dead);
        let mut playable = region | inside | dame_liberties(board, region, &calls.status);
        if (playable & !stones).count() > confirm::MAX_EMPTY {
            playable = region | inside;
        }
        let read_on = without_dead_around(board, region, dead & !inside);
        let ran_out = Cell::new(false);
        // Whether the stones of `c` in the region are all captured with
        // `first` to move. One reading a colour: the attacker has won only
        // once the region holds none of them, so each chain asks the same.
        let captured = |c: Color, first: Color| {
            let Some(q) = (region & board.stones(c)).first() else {
                return false;
            };
            let r = confirm::can_capture(
                &read_on,
                region,
                playable,
                q,
                c.opponent(),
                first,
                confirm::SEKI_BUDGET,
                reading,
            );
            ran_out.set(ran_out.get() || r.is_none());
            r == Some(true)
        };
        // The colours whose stones the other side, moving first, captures.
        let mut killable = Color::ALL.map(|c| captured(c, c.opponent()));
        let mut reason = Reason::SekiBroken;
        if killable.iter().all(|&k| k) {
            // Each side, moving first, captures: no seki. A side captured
            // even when it moves first is dead, and the other side lives.
            killable = Color::ALL.map(|c| captured(c, c));
            reason = Reason::CapturedEitherWay;
        }
        for c in Color::ALL {
            if !killable[c.index()] || killable[c.opponent().index()] {
                continue;
            }
            calls.set(
                region & board.stones(c.opponent()),
                PointStatus::Alive,
                Reason::SekiPartnerDies,
            );
            calls.set(region & board.stones(c), PointStatus::Dead, reason);
        }
        if ran_out.get() {
            unsettled |= region & stones;
        }
    }
    unsettled
}

/// `board` without the `dead` chains that touch the living chains in or
/// next to `region`: otherwise those chains, shut in by stones that are
/// already dead, would have no liberty outside the region, and the reading
/// would take every point they cannot fill as lost to them (tune:
/// 2003-09-10-1 under seed 1).
fn without_dead_around(board: &Board, region: Bitboard, dead: Bitboard) -> Board {
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let near = (region | region.neighbours()) & stones & !dead;
    let living = board
        .chains_at(near)
        .fold(Bitboard::EMPTY, |all, c| all | c);
    let gone = board
        .chains_at(living.neighbours() & dead)
        .fold(Bitboard::EMPTY, |all, c| all | c);
    let mut b = board.clone();
    for p in gone.iter() {
        b.set_stone(p, None);
    }
    b
}

/// Liberties outside `region` of the chains in it or touching its empty
/// points that are dame: next to a living enemy stone. People fill such a
/// point before counting, so a race is read with it open to both sides
/// rather than as a liberty its owner keeps for ever (a seki holds when
/// the defender can fill the attacker's outside liberty first).
fn dame_liberties(board: &Board, region: Bitboard, status: &[PointStatus]) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let near = (region | (region & !stones).neighbours()) & stones;
    let mut extra = Bitboard::EMPTY;
    for c in Color::ALL {
        let enemy = on & board.stones(c.opponent());
        let living = enemy & !marked(enemy, status, PointStatus::Dead);
        let chains = board.chains_at(near & board.stones(c));
        for q in chains.filter_map(|chain| chain.first()) {
            extra |= board.liberties_bb(q) & !region & living.neighbours();
        }
    }
    extra
}

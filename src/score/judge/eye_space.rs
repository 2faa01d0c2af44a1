//! Eye spaces read out: a group the playouts keep alive whose only eye
//! space is small, killed when the opponent, moving first, captures it.

use super::{marked, Calls, UNSURE};
use crate::board::{Bitboard, Board, Color, FastRng, Point};
use crate::score::confirm;
use crate::score::local_search;
use crate::score::playout::PlayoutPolicy;
use crate::score::{PointStatus, Reason};

/// Most points (empty or enemy stones) an enclosed area may have to count
/// as a small eye space in [`read_eye_spaces`].
const EYE_SPACE: usize = 10;

/// Most empty points a bigger area of enemy stones may have to be read as
/// a race rather than as an eye space to live in.
const RACE_OPEN: usize = 3;

/// Reads out the groups the playouts keep alive whose only eye space is
/// small: the chains of one colour joined through small enclosed areas
/// (empty points and enemy stones, bounded by that colour alone), with
/// those areas and the group's dame. A group the opponent, moving first,
/// captures against every defence under the confirmation rules is dead and
/// the enemy stones inside it live. The playouts miss such kills when they
/// start with a sacrifice of two stones (a straight three with an enemy
/// stone inside), or when the group's second eye is a ko that, with ko
/// threats gone, only the attacker can win.
///
/// A second sweep reads the groups the first found no small area for, with
/// the enemy's safely living chains taken as walls: an eye space along the
/// edge that the enemy's wall touches (open to it, so not bounded by the
/// group alone) is read the same way.
///
/// Chains the playouts call seki in a region no seki reading settled
/// (`unsettled`) are read as living groups are: captured, they are dead;
/// otherwise they stay in seki. The call rests on a rate near its
/// threshold, and only a reading checks it (tune: 2015-01-08-37 under
/// seeds 1 to 3).
#[allow(clippy::too_many_arguments)]
pub(super) fn read_eye_spaces(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    safe: Bitboard,
    shaky: Bitboard,
    unsettled: Bitboard,
    reading: &confirm::Allowance,
    policy: Option<&dyn PlayoutPolicy>,
) -> Bitboard {
    let seki_called = unsettled
        .iter()
        .filter(|q| {
            calls.status[q.index()] == PointStatus::Seki
                && matches!(calls.reasons[q.index()], Reason::Playouts { .. })
        })
        .collect();
    let mut killed = Bitboard::EMPTY;
    for open in [false, true] {
        for c in Color::ALL {
            let sweep = Sweep {
                c,
                open,
                seki_called,
            };
            killed |=
                read_eye_space_sweep(board, calls, survival, safe, shaky, sweep, reading, policy);
        }
    }
    killed
}

/// Which groups one sweep of [`read_eye_spaces`] reads.
#[derive(Clone, Copy)]
struct Sweep {
    /// The colour whose groups are read.
    c: Color,
    /// The second sweep, with the enemy's safe chains as walls.
    open: bool,
    /// Seki chains read as if alive.
    seki_called: Bitboard,
}

/// One sweep of [`read_eye_spaces`], as `sweep` says.
#[allow(clippy::too_many_arguments)]
fn read_eye_space_sweep(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    safe: Bitboard,
    shaky: Bitboard,
    sweep: Sweep,
    reading: &confirm::Allowance,
    policy: Option<&dyn PlayoutPolicy>,
) -> Bitboard {
    let Sweep {
        c,
        open,
        seki_called,
    } = sweep;
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let mut killed = Bitboard::EMPTY;
    let opp = c.opponent();
    let own = board.stones(c);
    let walls = if open {
        marked(board.stones(opp), &calls.status, PointStatus::Alive) & !shaky
    } else {
        Bitboard::EMPTY
    };
    let readable = |q: Point, calls: &Calls| {
        calls.status[q.index()] == PointStatus::Alive || seki_called.contains(q)
    };
    let mut left: Bitboard = (own & !safe)
        .iter()
        .filter(|&q| readable(q, calls))
        .collect();
    while let Some(p) = left.first() {
        // The open sweep only takes the groups the first one left.
        let closed = eye_space_group(board, p, c, &calls.status, Bitboard::EMPTY);
        let group = match (open, closed) {
            (false, group) => group,
            (true, None) => eye_space_group(board, p, c, &calls.status, walls),
            (true, Some(_)) => None,
        };
        let Some(group) = group else {
            left &= !Bitboard::flood_fill(Bitboard::single(p), own);
            continue;
        };
        left &= !group.chains;
        if !(group.chains & safe).is_empty() || group.chains.iter().any(|q| !readable(q, calls)) {
            continue;
        }
        let playable = group.region | group.beyond;
        let empty = (playable & on & !stones).count();
        let unsure = group.chains.iter().any(|q| survival[q.index()] <= UNSURE);
        let what = confirm::EYE_SPACE_BUDGET.what;
        if !reading.fits(board, what, p, opp, empty, confirm::MAX_EMPTY) {
            // Too big to read: the groups the playouts often lose get a
            // search of the fight near them instead.
            if !unsure {
                continue;
            }
            let moves = (playable | playable.neighbours()) & on & !stones;
            let searched = local_kill(board, group.chains, p, opp, moves, policy, reading);
            if let Some(percent) = searched {
                let why = Reason::SearchKilled { percent };
                killed |= mark_killed(board, calls, &group, opp, why);
            }
            continue;
        }
        // The search takes the enemy chains around those points as
        // uncapturable: they must be safely alive.
        let areas = group.region & !group.chains;
        let around = (group.beyond | areas).neighbours() & on & board.stones(opp) & !playable;
        let weak = board
            .chains_at(around)
            .filter_map(|enemy| enemy.first())
            .any(|q| {
                calls.status[q.index()] != PointStatus::Alive
                    || shaky.contains(q)
                    || (board.liberties_bb(q) & !playable).is_empty()
            });
        if weak {
            continue;
        }
        // A long reading only for groups the playouts often lose.
        let budget = if unsure {
            confirm::EYE_SPACE_BUDGET
        } else {
            confirm::QUICK_BUDGET
        };
        let full_width =
            confirm::can_capture(board, group.region, playable, p, opp, opp, budget, reading);
        let kill = full_width.unwrap_or_else(|| {
            unsure && proof_number_kill(board, &group, playable, p, opp, reading)
        });
        if !kill {
            continue;
        }
        killed |= mark_killed(board, calls, &group, opp, Reason::EyeSpaceKilled);
    }
    killed
}

/// Whether `attacker`, moving first, kills `group` in an eye-space reading
/// by proof numbers. They find long kills full width runs out on, but also
/// kills that rest on the edge of the points read: such a kill must stand
/// again with the attacker's chains next to the group that are short of
/// liberties, and those liberties, played in too. Dev game 2017-01-18-12:
/// White's J1 takes away an eye, and the two stones H1 and J1 are then
/// left one liberty, G1, outside the points read; Black takes them there
/// and lives.
fn proof_number_kill(
    board: &Board,
    group: &EyeSpaceGroup,
    playable: Bitboard,
    target: Point,
    attacker: Color,
    reading: &confirm::Allowance,
) -> bool {
    let budget = confirm::EYE_SPACE_PROOF_BUDGET;
    let read = |playable| {
        confirm::can_capture(
            board,
            group.region,
            playable,
            target,
            attacker,
            attacker,
            budget,
            reading,
        )
    };
    if read(playable) != Some(true) {
        return false;
    }
    let stones = board.stones(attacker);
    let touching = group.chains.neighbours() & stones & !playable;
    let mut short = Bitboard::EMPTY;
    for chain in board.chains_at(touching) {
        let Some(q) = chain.first() else { continue };
        let liberties = board.liberties_bb(q);
        if liberties.count() <= SHORT_OF_LIBERTIES {
            short |= chain | liberties;
        }
    }
    // Each chain taken has a stone outside `playable`: none means nothing
    // to add.
    short.is_empty() || read(playable | short) == Some(true)
}

/// Marks the chains of `group` dead for `why`, and the stones of `attacker`
/// inside it alive; returns those chains.
fn mark_killed(
    board: &Board,
    calls: &mut Calls,
    group: &EyeSpaceGroup,
    attacker: Color,
    why: Reason,
) -> Bitboard {
    calls.set(group.chains, PointStatus::Dead, why);
    calls.set(
        group.region & board.stones(attacker),
        PointStatus::Alive,
        Reason::InsideDeadGroup,
    );
    group.chains
}

/// Playouts of the local search of a group whose eye space is too big to
/// read. Tune half, against 3,805 exact: 3,810 with 2,000; 3,807 with
/// 4,000, one game taking 2.8 s (docs/counting-log.md).
const LOCAL_SEARCH_PLAYOUTS: usize = 2000;

/// Seed of the local searches, mixed with the point searched.
const LOCAL_SEARCH_SEED: u64 = 0x10ca1;

/// The percentage of a local search (`local_search.rs`) over the empty
/// points `moves` in which `attacker`, moving first, captures `chains`
/// (through `p`), when that is at least half; `None` when they live in
/// most of it or the judgement's local searches have no moves left.
fn local_kill(
    board: &Board,
    chains: Bitboard,
    p: Point,
    attacker: Color,
    moves: Bitboard,
    policy: Option<&dyn PlayoutPolicy>,
    reading: &confirm::Allowance,
) -> Option<u8> {
    let left = reading.search_moves_left();
    if left == 0 {
        return None;
    }
    let mut rng = FastRng::new(LOCAL_SEARCH_SEED ^ p.index() as u64);
    let searched = local_search::capture_rate(
        board,
        chains,
        attacker,
        moves,
        policy,
        LOCAL_SEARCH_PLAYOUTS,
        left,
        &mut rng,
    );
    reading.spend_search_moves(searched.moves);
    let percent = (100.0 * searched.rate).round() as u8;
    reading.searched(board, p, attacker, searched.playouts, percent);
    (searched.rate >= 0.5).then_some(percent)
}

/// A group of `c` read by [`read_eye_spaces`].
struct EyeSpaceGroup {
    /// The chains of `c`.
    chains: Bitboard,
    /// The chains and their small enclosed areas.
    region: Bitboard,
    /// Points outside the region both sides may play: the chains' other
    /// liberties (dame) and the empty points next to them, dead stones of
    /// `c` next to the areas with their liberties, and the enemy chains the
    /// group touches that are not sure to live, with their liberties and
    /// the points next to those.
    beyond: Bitboard,
}

/// The chain through `p` and every chain of its colour `c` reached through
/// small enclosed areas next to them (bounded by `c` and by `walls`, enemy
/// stones taken as living); `None` when one of those chains
/// touches a bigger area bounded by `c` alone (an eye space big enough to
/// live in) or has no such small area at all.
fn eye_space_group(
    board: &Board,
    p: Point,
    c: Color,
    status: &[PointStatus],
    walls: Bitboard,
) -> Option<EyeSpaceGroup> {
    let on = Bitboard::on_board(board.size());
    let own = board.stones(c);
    let not_own = on & !own;
    let opp = board.stones(c.opponent());
    let dead = marked(own, status, PointStatus::Dead);
    let mut chains = Bitboard::flood_fill(Bitboard::single(p), own);
    let mut areas = Bitboard::EMPTY;
    let mut outside = Bitboard::EMPTY;
    while let Some(q) = (chains.neighbours() & not_own & !walls & !areas & !outside).first() {
        let area = Bitboard::flood_fill(Bitboard::single(q), not_own & !walls);
        if area.count() <= EYE_SPACE {
            areas |= area;
            let living = area.neighbours() & own & !dead;
            chains |= Bitboard::flood_fill(living, own);
        } else if !(area & opp & !marked(opp, status, PointStatus::Dead)).is_empty()
            || (area & !opp).count() <= RACE_OPEN
            || !(area.neighbours() & walls).is_empty()
        {
            // The outside, or enemy stones with few liberties left: a
            // race, read with those stones and their liberties.
            outside |= area;
        } else {
            return None;
        }
    }
    if areas.is_empty() {
        return None;
    }
    let empty = on & !(own | opp);
    let next = |points: Bitboard| points.neighbours() & empty;
    // Dead stones of `c` next to those areas: the attacker may need to
    // capture them to take an eye.
    let cut_off = Bitboard::flood_fill(areas.neighbours() & dead, dead);
    // Enemy chains the group touches that are not sure to live: a race,
    // read with their liberties and the points next to those. A chain
    // that stepped onto a liberty would otherwise gain liberties the
    // reading never fills, and be taken for uncapturable.
    let sure = marked(opp, status, PointStatus::Alive);
    let racing = Bitboard::flood_fill(chains.neighbours() & opp & !sure & !areas, opp & !sure);
    let racing_libs = next(racing);
    // The chains' liberties outside, with the empty points next to them:
    // an attacker stone played on such a dame would otherwise keep a
    // liberty the reading never fills, and never be captured.
    let dame = chains.neighbours() & outside & empty;
    Some(EyeSpaceGroup {
        chains,
        region: chains | areas,
        beyond: dame
            | next(dame)
            | cut_off
            | next(cut_off)
            | racing
            | racing_libs
            | next(racing_libs),
    })
}

/// Most liberties of an attacker's chain next to a group for a
/// [`proof_number_kill`] to be read again with that chain capturable.
const SHORT_OF_LIBERTIES: usize = 2;

//! Groups shut inside the opponent's area: a group whose own eye space is
//! small and whose other liberties lie in empty areas bordered by nothing
//! but the group and enemy stones. Strong players read such a group as
//! they count: the opponent fills those outside liberties at leisure, and
//! what is left is the group's own eye space. The playouts often keep it
//! alive, their random policy letting it wander into the empty area
//! around it; here the fills are made on a copy of the board and the eye
//! space is read exactly under the confirmation rules (`confirm.rs`), the
//! attacker moving first.

use super::confirm;
use super::judge::{marked, single, Calls, EYE_SPACE};
use super::{PointStatus, Reason};
use crate::board::{Bitboard, Board, Color, Point};

/// Most liberties the opponent fills before the eye space is read.
const MAX_FILLS: usize = 40;

/// Reads every group of living chains (not unconditionally alive, in
/// `safe`) shut in the opponent's area; marks those the attacker captures
/// moving first dead, and the enemy stones inside their eye space alive.
/// Returns the stones marked dead.
pub(super) fn read_enclosed_groups(
    board: &Board,
    calls: &mut Calls,
    safe: Bitboard,
    shaky: Bitboard,
) -> Bitboard {
    let mut killed = Bitboard::EMPTY;
    for c in Color::ALL {
        let own = board.stones(c);
        let mut left = marked(own & !safe, &calls.status, PointStatus::Alive);
        while let Some(p) = left.first() {
            let Some(group) = enclosed_group(board, p, c) else {
                left &= !Bitboard::flood_fill(single(p), own);
                continue;
            };
            left &= !group.chains;
            if !(group.chains & safe).is_empty()
                || group
                    .chains
                    .iter()
                    .any(|q| calls.status[q.index()] != PointStatus::Alive)
            {
                continue;
            }
            if captured_once_filled(board, &group, c, calls, shaky) {
                calls.set(group.chains, PointStatus::Dead, Reason::ShutIn);
                calls.set(
                    group.eyes & board.stones(c.opponent()),
                    PointStatus::Alive,
                    Reason::InsideDeadGroup,
                );
                killed |= group.chains;
            }
        }
    }
    killed
}

/// A group read by [`read_enclosed_groups`].
struct EnclosedGroup {
    /// Its chains, joined through small enclosed areas.
    chains: Bitboard,
    /// Those areas: its eye space (empty points and enemy stones).
    eyes: Bitboard,
    /// The empty areas outside, bordered by the group and enemy stones only.
    outside: Bitboard,
}

/// The chains of `c` joined to the chain through `p` by small areas bounded
/// by `c` alone, with those areas and the empty areas around them; `None`
/// when a big area of the group touches other stones of `c` (the group is
/// not shut in) or when there is nothing outside to fill.
fn enclosed_group(board: &Board, p: Point, c: Color) -> Option<EnclosedGroup> {
    let on = Bitboard::on_board(board.size());
    let own = board.stones(c);
    let not_own = on & !own;
    let empty = on & !(own | board.stones(c.opponent()));
    let mut chains = Bitboard::flood_fill(single(p), own);
    let mut eyes = Bitboard::EMPTY;
    let mut big = Bitboard::EMPTY;
    while let Some(q) = (chains.neighbours() & not_own & !eyes & !big).first() {
        let area = Bitboard::flood_fill(single(q), not_own);
        if area.count() <= EYE_SPACE {
            eyes |= area;
            chains |= Bitboard::flood_fill(area.neighbours() & own, own);
        } else {
            big |= area;
        }
    }
    let outside = Bitboard::flood_fill(chains.neighbours() & empty & big, empty & big);
    if outside.is_empty() || !(outside.neighbours() & own & !chains).is_empty() {
        return None;
    }
    // Only a strip between the group and the enemy: every point of it
    // touches enemy stones. A wider area may be the group's own eye space.
    let enemy_near = board.stones(c.opponent()).neighbours();
    if !(outside & !enemy_near).is_empty() {
        return None;
    }
    Some(EnclosedGroup {
        chains,
        eyes,
        outside,
    })
}

/// Whether the opponent, having filled the group's liberties in its
/// outside areas (never into atari), captures the group moving first.
fn captured_once_filled(
    board: &Board,
    group: &EnclosedGroup,
    c: Color,
    calls: &Calls,
    shaky: Bitboard,
) -> bool {
    let opp = c.opponent();
    let mut b = board.clone();
    b.clear_ko();
    for _ in 0..MAX_FILLS {
        let libs = libs_of(&b, group.chains) & group.outside;
        let fill = libs
            .iter()
            .find(|&l| b.is_legal(l, opp) && !b.is_self_atari(l, opp));
        let Some(l) = fill else { break };
        b.play_unchecked(l, opp);
        if group.chains.iter().any(|q| b.get(q) != Some(c)) {
            // A fill captured part of the group: read it as it stands.
            return false;
        }
    }
    let on = Bitboard::on_board(b.size());
    let stones = b.stones(Color::Black) | b.stones(Color::White);
    let region = group.chains | group.eyes;
    let playable = region | libs_of(&b, group.chains);
    if (playable & on & !stones).count() > confirm::MAX_EMPTY {
        return false;
    }
    // The search takes the enemy chains around as uncapturable: each must
    // be judged alive, settled, and have liberties beyond the region.
    // Enemy stones in the eye space must be shut in there too: else it is
    // a race, left to the playouts and the race reading.
    let inside = Bitboard::flood_fill(group.eyes & b.stones(opp), b.stones(opp));
    if !(inside & !region).is_empty() {
        return false;
    }
    let mut around = (group.chains.neighbours() | playable.neighbours() | group.outside)
        & b.stones(opp)
        & !region;
    while let Some(q) = around.first() {
        let enemy = Bitboard::flood_fill(single(q), b.stones(opp));
        around &= !enemy;
        let original = enemy & board.stones(opp);
        let settled = original
            .iter()
            .all(|s| calls.status[s.index()] == PointStatus::Alive && !shaky.contains(s));
        if !settled || (b.liberties_bb(q) & !playable).is_empty() {
            return false;
        }
    }
    let Some(target) = group.chains.first() else {
        return false;
    };
    confirm::can_capture(
        &b,
        region,
        playable,
        target,
        opp,
        opp,
        confirm::EYE_SPACE_BUDGET,
    ) == Some(true)
}

/// Liberties of every chain in `chains`.
fn libs_of(b: &Board, chains: Bitboard) -> Bitboard {
    let on = Bitboard::on_board(b.size());
    chains.neighbours() & on & !(b.stones(Color::Black) | b.stones(Color::White))
}

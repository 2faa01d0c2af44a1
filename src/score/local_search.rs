//! A selective search of one group's fight: UCT over the moves near the
//! group, a playout to the end below each leaf, and the group's capture as
//! the result.
//!
//! The judge's playouts play both sides at random, so a group whose kill
//! takes a precise first move or two lives in many of them, and an exact
//! reading (`confirm.rs`) finishes only in small eye spaces. This search
//! spends its playouts on the attacker's best tries and the defender's
//! best answers near the group, so its value is the capture rate under
//! good play there, for eye spaces too big to read.

use super::playout::{play_out, PlayoutPolicy};
use crate::board::{Bitboard, Board, Color, FastRng, Point};

/// Exploration constant of UCB1.
const EXPLORE: f64 = 0.7;

struct Node {
    /// The move into this node (`None` for a pass, and at the root).
    mv: Option<Point>,
    visits: u32,
    /// Playouts won by the side that played `mv`.
    wins: f64,
    /// The first child's index and the number of children, once expanded.
    children: Option<(usize, usize)>,
}

impl Node {
    fn new(mv: Option<Point>) -> Node {
        Node {
            mv,
            visits: 0,
            wins: 0.0,
            children: None,
        }
    }
}

/// What a local search found.
pub(crate) struct Searched {
    /// The capture rate of the most visited first move.
    pub rate: f64,
    /// Playouts run.
    pub playouts: usize,
    /// Moves played, in the tree and the playouts.
    pub moves: usize,
}

/// The rate at which `attacker`, moving first, captures `target` (stones
/// of the other colour): the value of the most visited first move of a
/// UCT search of `playouts` playouts, its tree over the empty points of
/// `moves` and the pass, its playouts alternately light and `policy`'s.
/// Passes lift the ko ban, as in the judge's playouts. The target counts
/// as captured when fewer than half its points hold its stones at the end.
/// The search stops early once it has played `max_moves` moves.
#[allow(clippy::too_many_arguments)]
pub(crate) fn capture_rate(
    board: &Board,
    target: Bitboard,
    attacker: Color,
    moves: Bitboard,
    policy: Option<&dyn PlayoutPolicy>,
    playouts: usize,
    max_moves: usize,
    rng: &mut FastRng,
) -> Searched {
    let defender = attacker.opponent();
    let mut nodes = vec![Node::new(None)];
    let mut path = Vec::new();
    let mut b = board.clone();
    let mut played = 0;
    let mut run = 0;
    while run < playouts && played < max_moves {
        b.copy_from(board);
        b.clear_ko();
        path.clear();
        path.push(0);
        let mut at = 0;
        let mut to_move = attacker;
        let mut passes = 0;
        loop {
            if nodes[at].children.is_none() {
                // A leaf is expanded on its second visit; two passes end
                // the tree, and the playout settles what is left.
                if (at != 0 && nodes[at].visits == 0) || passes >= 2 {
                    break;
                }
                let first = nodes.len();
                for p in moves.iter() {
                    if b.is_empty(p) && b.is_legal_empty(p, to_move) && !b.is_eye(p, to_move) {
                        nodes.push(Node::new(Some(p)));
                    }
                }
                nodes.push(Node::new(None));
                nodes[at].children = Some((first, nodes.len() - first));
            }
            at = select(&nodes, at, rng);
            match nodes[at].mv {
                Some(p) => {
                    b.play_unchecked(p, to_move);
                    passes = 0;
                }
                None => {
                    b.clear_ko();
                    passes += 1;
                }
            }
            to_move = to_move.opponent();
            path.push(at);
            played += 1;
        }
        let heavy = if run % 2 == 1 { policy } else { None };
        run += 1;
        played += play_out(&mut b, to_move, heavy, rng);
        let lives = (target & b.stones(defender)).count() * 2 > target.count();
        // The root's move is the defender's (the one before the search).
        let mut mover = defender;
        for &i in &path {
            let node = &mut nodes[i];
            node.visits += 1;
            if lives == (mover == defender) {
                node.wins += 1.0;
            }
            mover = mover.opponent();
        }
    }
    let Some((first, count)) = nodes[0].children else {
        return Searched {
            rate: 0.0,
            playouts: run,
            moves: played,
        };
    };
    let best = (first..first + count)
        .max_by_key(|&i| nodes[i].visits)
        .expect("the pass at least");
    Searched {
        rate: nodes[best].wins / f64::from(nodes[best].visits.max(1)),
        playouts: run,
        moves: played,
    }
}

/// The child of `at` with the highest UCB1 value, unvisited ones first in
/// random order.
fn select(nodes: &[Node], at: usize, rng: &mut FastRng) -> usize {
    let (first, count) = nodes[at].children.expect("expanded");
    let log_parent = f64::from(nodes[at].visits.max(1)).ln();
    let mut best = first;
    let mut best_value = f64::NEG_INFINITY;
    for (i, child) in nodes.iter().enumerate().skip(first).take(count) {
        let value = if child.visits == 0 {
            1e9 + rng.below(1000) as f64
        } else {
            let visits = f64::from(child.visits);
            child.wins / visits + EXPLORE * (log_parent / visits).sqrt()
        };
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::playout::tally;
    use crate::score::tests::at;

    /// A black group with a straight three (A1-C1) and one with two eyes
    /// (G1, J1) inside White's area.
    fn board() -> Board {
        crate::score::tests::groups_under_walls("...XOX.X.")
    }

    /// A search by White, seeded.
    fn search(
        b: &Board,
        group: Bitboard,
        moves: Bitboard,
        playouts: usize,
        max: usize,
    ) -> Searched {
        let mut rng = FastRng::new(1);
        capture_rate(b, group, Color::White, moves, None, playouts, max, &mut rng)
    }

    /// The group through `p` and the empty points next to it and to them.
    fn around(b: &Board, p: Point) -> (Bitboard, Bitboard) {
        let group = Bitboard::flood_fill(Bitboard::single(p), b.stones(b.get(p).expect("a stone")));
        let empty = Bitboard::on_board(9) & !(b.stones(Color::Black) | b.stones(Color::White));
        let near = group.neighbours() & empty;
        (group, (near | near.neighbours()) & empty)
    }

    #[test]
    fn a_straight_three_the_playouts_often_keep_is_killed() {
        let b = board();
        let (group, moves) = around(&b, at("A2"));
        let mut rng = FastRng::new(1);
        let playouts = tally(&b, Color::White, 500, None, &mut rng);
        let kept = group
            .iter()
            .map(|p| playouts.owned_by(p, Color::Black))
            .sum::<f64>()
            / group.count() as f64;
        assert!(kept > 0.2, "the light playouts keep it in {kept:.2}");
        let rate = search(&b, group, moves, 2000, usize::MAX).rate;
        assert!(rate > 0.9, "captured in {rate:.2}");
    }

    #[test]
    fn a_group_with_two_eyes_is_not_captured() {
        let b = board();
        let (group, moves) = around(&b, at("G2"));
        let rate = search(&b, group, moves, 2000, usize::MAX).rate;
        assert!(rate < 0.05, "captured in {rate:.2}");
    }

    #[test]
    fn without_moves_the_search_is_the_playouts() {
        let b = board();
        let (group, _) = around(&b, at("A2"));
        let searched = search(&b, group, Bitboard::EMPTY, 400, usize::MAX);
        let rate = searched.rate;
        assert!(rate > 0.2 && rate < 0.9, "captured in {rate:.2}");
        assert_eq!(searched.playouts, 400);
    }

    #[test]
    fn a_search_stops_once_its_moves_are_spent() {
        let b = board();
        let (group, moves) = around(&b, at("A2"));
        let searched = search(&b, group, moves, 2000, 500);
        assert!(searched.moves >= 500, "{} moves", searched.moves);
        assert!(searched.playouts < 100, "{} playouts", searched.playouts);
    }
}

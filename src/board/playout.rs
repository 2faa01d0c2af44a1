//! Uniformly random light playouts: the rules core's throughput measure and
//! a seeded random-game generator for tests.

use super::board::Board;
use super::point::{Color, Point};
use super::rng::{FastRng, PlayoutRng};

/// How a light playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Moves played (passes excluded).
    pub moves: usize,
    /// Whether it stopped at the move cap instead of two passes.
    pub capped: bool,
}

/// Plays random legal moves that fill no true eye of the mover, starting
/// with `to_move`, until both players pass in a row or `max_moves` stones
/// have been played. Simple ko only.
///
/// It draws one number from `rng` to seed the generator that picks its
/// moves (see [`random_move`] for one move at a time).
pub fn light_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut FastRng,
    max_moves: usize,
) -> PlayoutResult {
    // A local generator keeps its state in a register.
    let mut local = PlayoutRng::from(rng);
    playout_loop(board, to_move, &mut local, max_moves)
}

#[inline(always)]
fn playout_loop(
    board: &mut Board,
    to_move: Color,
    rng: &mut PlayoutRng,
    max_moves: usize,
) -> PlayoutResult {
    let mut passes = 0;
    let mut moves = 0;
    // Colours alternate in a fixed order so each turn is compiled for its
    // colour.
    if to_move == Color::White {
        if let Some(r) = turn::<1>(board, rng, &mut passes, &mut moves, max_moves) {
            return r;
        }
    }
    loop {
        if let Some(r) = turn::<0>(board, rng, &mut passes, &mut moves, max_moves) {
            return r;
        }
        if let Some(r) = turn::<1>(board, rng, &mut passes, &mut moves, max_moves) {
            return r;
        }
    }
}

/// One turn of colour `ME` in [`light_playout`]; the result once it ends.
#[inline(always)]
fn turn<const ME: u8>(
    board: &mut Board,
    rng: &mut PlayoutRng,
    passes: &mut u32,
    moves: &mut usize,
    max_moves: usize,
) -> Option<PlayoutResult> {
    if *moves >= max_moves {
        return Some(PlayoutResult {
            moves: *moves,
            capped: true,
        });
    }
    if board.playout_turn::<ME>(rng) {
        *passes = 0;
        *moves += 1;
    } else {
        *passes += 1;
        if *passes == 2 {
            return Some(PlayoutResult {
                moves: *moves,
                capped: false,
            });
        }
    }
    None
}

/// A uniformly random legal move for `color` that fills none of its true
/// eyes, or `None` when there is no such move.
///
/// Like libego: a random empty point, and if it will not do, the next
/// acceptable one in the empty list.
#[inline]
pub fn random_move(board: &Board, color: Color, rng: &mut FastRng) -> Option<Point> {
    let n = board.empty_count();
    if n == 0 {
        return None;
    }
    board.playout_move_from(rng.below(n), color)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Board::is_self_atari` from whole liberty sets: fewer than two
    /// points besides `p` among its empty neighbours, the liberties of its
    /// own chains next to it and the enemy stones next to it in atari.
    fn self_atari_by_sets(board: &Board, p: Point, color: Color) -> bool {
        let mut libs = Vec::new();
        for q in p.neighbours() {
            if board.is_empty(q) {
                libs.push(q);
            } else if board.get(q) == Some(color) {
                libs.extend(board.liberties(q));
            } else if board.get(q).is_some() && board.in_atari(q) {
                libs.push(q);
            }
        }
        libs.retain(|&q| q != p);
        libs.sort();
        libs.dedup();
        libs.len() < 2
    }

    /// Random games checked move by move: invariants hold, and the fast
    /// playout-move test agrees with `is_legal && !is_eye` on every point.
    #[test]
    fn playout_moves_match_the_plain_rules() {
        let mut rng = FastRng::new(11);
        for (size, games) in [
            (1, 3),
            (2, 20),
            (3, 20),
            (4, 10),
            (5, 10),
            (9, 6),
            (19, 2),
            (25, 1),
        ] {
            for _ in 0..games {
                let mut board = Board::new(size);
                let mut to_move = Color::Black;
                let mut passes = 0;
                let mut moves = 0;
                while passes < 2 && moves < size * size * 3 {
                    let expected: Vec<Point> = board
                        .points()
                        .filter(|&p| board.is_legal(p, to_move) && !board.is_eye(p, to_move))
                        .collect();
                    for p in board.points() {
                        assert_eq!(
                            board.is_playout_move(p, to_move),
                            expected.contains(&p),
                            "{p:?} for {to_move} on\n{board}"
                        );
                    }
                    for p in board.points().filter(|&p| board.is_empty(p)) {
                        for c in Color::ALL {
                            assert_eq!(
                                board.is_self_atari(p, c),
                                self_atari_by_sets(&board, p, c),
                                "self-atari of {c} at {p:?} on\n{board}"
                            );
                        }
                    }
                    // The scan of the empty list finds the same points.
                    let empties = board.empty_points();
                    let mut k = 0;
                    let mut scanned = Vec::new();
                    while let Some(i) = board.playout_move_between(k, empties.len(), to_move) {
                        scanned.push(Point::from_index(empties[i] as usize));
                        k = i + 1;
                    }
                    scanned.sort();
                    assert_eq!(scanned, expected);
                    match random_move(&board, to_move, &mut rng) {
                        Some(p) => {
                            assert!(expected.contains(&p));
                            board.play_unchecked(p, to_move);
                            board.check_invariants().unwrap();
                            passes = 0;
                            moves += 1;
                        }
                        None => {
                            assert!(expected.is_empty());
                            board.clear_ko();
                            passes += 1;
                        }
                    }
                    to_move = to_move.opponent();
                }
            }
        }
    }

    /// The fast playout loop plays exactly the game that
    /// `playout_move_from` and `play_unchecked` give with the same picks,
    /// and leaves a sound board (hash and bitboards included).
    #[test]
    fn light_playout_matches_move_by_move_play() {
        let mut seeds = FastRng::new(3);
        for size in [1, 2, 3, 5, 7, 9, 13, 19, 25] {
            for start in [Color::Black, Color::White] {
                for cap in [0, 1, 7, 10_000] {
                    let seed = seeds.next_u64();
                    let mut fast = Board::new(size);
                    let result = light_playout(&mut fast, start, &mut FastRng::new(seed), cap);
                    fast.check_invariants().unwrap();

                    let mut slow = Board::new(size);
                    let mut rng = PlayoutRng::from(&mut FastRng::new(seed));
                    let (mut to_move, mut passes, mut moves) = (start, 0, 0);
                    let capped = loop {
                        if passes == 2 {
                            break false;
                        }
                        if moves >= cap {
                            break true;
                        }
                        let n = slow.empty_count();
                        let pick = if n == 0 {
                            None
                        } else {
                            slow.playout_move_from(rng.below(n), to_move)
                        };
                        match pick {
                            Some(p) => {
                                slow.play_unchecked(p, to_move);
                                passes = 0;
                                moves += 1;
                            }
                            None => {
                                slow.clear_ko();
                                passes += 1;
                            }
                        }
                        to_move = to_move.opponent();
                    };
                    assert_eq!(result, PlayoutResult { moves, capped }, "size {size}");
                    assert_eq!(fast, slow, "size {size}");
                    assert_eq!(fast.position_hash(), slow.position_hash());
                    assert_eq!(fast.to_string(), slow.to_string());
                    assert_eq!(fast.last_move(), slow.last_move());
                }
            }
        }
    }

    #[test]
    fn copy_from_matches_the_source() {
        let mut rng = FastRng::new(5);
        let mut big = Board::new(19);
        light_playout(&mut big, Color::Black, &mut rng, 200);
        let mut small = Board::new(9);
        light_playout(&mut small, Color::White, &mut rng, 60);
        let mut copy = big.clone();
        copy.copy_from(&small);
        assert_eq!(copy, small);
        copy.check_invariants().unwrap();
        assert_eq!(copy.to_string(), small.to_string());
        // The copy plays on exactly like the source.
        let mut a = small.clone();
        let (mut ra, mut rb) = (FastRng::new(9), FastRng::new(9));
        light_playout(&mut a, Color::Black, &mut ra, 500);
        light_playout(&mut copy, Color::Black, &mut rb, 500);
        assert_eq!(a, copy);
        assert_eq!(a.position_hash(), copy.position_hash());
        copy.copy_from(&big);
        assert_eq!(copy, big);
        copy.check_invariants().unwrap();
    }
}

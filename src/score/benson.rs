//! Benson's algorithm: chains that cannot be captured even if their owner
//! always passes.

use crate::board::{Bitboard, Board, Color};

/// Stones of `color` that are unconditionally alive (Benson, 1976).
///
/// A region is a maximal connected set of points holding no `color` stone.
/// It is vital to a chain when each of its empty points is a liberty of that
/// chain. Chains with fewer than two vital regions are dropped, and so are
/// regions touching a dropped chain, until nothing changes; what survives
/// cannot be captured.
pub fn unconditionally_alive(board: &Board, color: Color) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let own = board.stones(color);
    let empty = on & !(board.stones(Color::Black) | board.stones(Color::White));

    // Chains as (stones, liberties).
    let chains: Vec<(Bitboard, Bitboard)> = own
        .components()
        .map(|stones| (stones, stones.neighbours() & empty))
        .collect();
    // Regions as (points, chains around it, chains it is vital to).
    let mut regions: Vec<(Bitboard, Vec<usize>, Vec<usize>)> = Vec::new();
    for points in (on & !own).components() {
        let rim = points.neighbours() & own;
        let region_empty = points & empty;
        let mut around = Vec::new();
        let mut vital = Vec::new();
        for (i, (stones, libs)) in chains.iter().enumerate() {
            if !(rim & *stones).is_empty() {
                around.push(i);
                if (region_empty & !*libs).is_empty() {
                    vital.push(i);
                }
            }
        }
        regions.push((points, around, vital));
    }

    let mut chain_alive = vec![true; chains.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (i, alive) in chain_alive.iter_mut().enumerate() {
            if !*alive {
                continue;
            }
            let vital = regions
                .iter()
                .zip(&region_alive)
                .filter(|((_, _, v), &r)| r && v.contains(&i))
                .count();
            if vital < 2 {
                *alive = false;
                changed = true;
            }
        }
        for (r, (_, around, _)) in region_alive.iter_mut().zip(&regions) {
            if *r && around.iter().any(|&c| !chain_alive[c]) {
                *r = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    chains
        .iter()
        .zip(&chain_alive)
        .filter(|(_, &a)| a)
        .fold(Bitboard::EMPTY, |acc, ((s, _), _)| acc | *s)
}

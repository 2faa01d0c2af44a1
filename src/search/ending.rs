//! When passing wins: the count of the position, not the playouts, decides.
//!
//! Playouts cannot defend a large territory: in a finished position they let
//! invasions live often enough that the search sees a won game as even, and
//! then invades, or fills its own territory, throwing away half a point. The
//! referee ([`super::referee`]) reads the position as a referee would, so once
//! the borders are closed (or the opponent's pass lets ours end the game) its
//! count says whether a pass wins. A chain in atari is a fight still open:
//! the next move decides it, the judge's playouts, started cold, do not
//! always see the capture, and a pass hands that move to the opponent, so
//! it leaves the decision to the search. Own stones the count has already
//! given up are the exception: the opponent may take them after the pass,
//! and the count has taken them already.

use super::referee;
use crate::board::{Bitboard, Color, Game, Move};
use crate::score::{self, Judgement, PointStatus};

/// Whether `color` should pass now because the game, counted as it stands,
/// is won: after the opponent's pass (a pass ends the game) or, under
/// territory counting, once no border is left open (every empty region
/// touches one colour only, is a single dame point or is a seki's shared
/// liberties) and no chain is in atari, leaving aside own stones the count
/// calls dead. Only own stones in `given_up` (those the search expects to
/// lose) are asked of the judge, whose reading costs hundredths of a second
/// on 9x9 and up to a second on 19x19.
pub fn passing_wins(game: &Game, color: Color, given_up: Bitboard) -> bool {
    let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
    if opponent_passed {
        return referee().final_score(game).winner() == Some(color);
    }
    if game.rules().area_scoring() {
        return false;
    }
    let Some(loose) =
        loose_own_stones(game, color, Bitboard::EMPTY).filter(|&l| (l & !given_up).is_empty())
    else {
        return false;
    };
    let judgement = judge(game, color);
    loose
        .iter()
        .all(|p| judgement.status(p) == Some(PointStatus::Dead))
        && score::count(game, &judgement).winner() == Some(color)
}

/// The referee's judgement, at once while `color` has no stone on the board
/// (no stone of the other side can be dead with none of ours near it; the
/// judge's playouts would cost up to half a second on 19x19 for the first
/// moves of a game).
fn judge(game: &Game, color: Color) -> Judgement {
    let board = game.board();
    if board.stones(color).is_empty() {
        Judgement::from_statuses(board, |_| PointStatus::Alive, Vec::new())
    } else {
        referee().judge(game)
    }
}

/// Whether `color`'s pass would end the game (the opponent passed) and the
/// count of the position says the opponent wins it.
pub fn passing_loses(game: &Game, color: Color) -> bool {
    let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
    opponent_passed && referee().final_score(game).winner() == Some(color.opponent())
}

/// Whether `color` may pass before the opponent has: only once no border is
/// open, leaving aside own stones in `given_up` and small opponent chains
/// in `taken` that the count also calls dead (an invasion left inside our
/// area). Until then a pass hands the opponent a move in a fight the
/// playouts may misread: in a 13x13 game against GNU Go kosumi passed
/// three times at 99% while Black killed every White group; a move
/// elsewhere costs at most a point. A large chain is never left aside: in
/// another game both the count and the playouts called a Black chain of
/// nine stones dead, kosumi passed, and it lived.
pub fn may_pass_first(game: &Game, color: Color, given_up: Bitboard, taken: Bitboard) -> bool {
    let closed = |away: Bitboard| {
        loose_own_stones(game, color, away).is_some_and(|l| (l & !given_up).is_empty())
    };
    if closed(Bitboard::EMPTY) {
        return true;
    }
    let board = game.board();
    let taken: Bitboard = (taken & board.stones(color.opponent()))
        .iter()
        .filter(|&p| board.chain_size(p) <= SMALL_CHAIN)
        .collect();
    if taken.is_empty() {
        return false;
    }
    let judgement = judge(game, color);
    let dead: Bitboard = taken
        .iter()
        .filter(|&p| judgement.status(p) == Some(PointStatus::Dead))
        .collect();
    !dead.is_empty() && closed(dead)
}

/// The largest opponent chain a pass may leave on the board as dead.
const SMALL_CHAIN: usize = 4;

/// The stones of `color` that keep the game open, the opponent stones in
/// `away` counted as empty points: own chains in atari and own stones next
/// to an empty region of two points or more that also touches the
/// opponent, unless neither side can play there (every point a self-atari
/// for both: the shared liberties of a seki). Passing is safe only if the
/// count has given them all up. `None` when an opponent chain is in atari
/// (a capture is still to play).
fn loose_own_stones(game: &Game, color: Color, away: Bitboard) -> Option<Bitboard> {
    let board = game.board();
    let own = board.stones(color);
    let opponent = board.stones(color.opponent()) & !away;
    if opponent.iter().any(|p| board.in_atari(p)) {
        return None;
    }
    let mut loose: Bitboard = own.iter().filter(|&p| board.in_atari(p)).collect();
    let empty = Bitboard::on_board(board.size()) & !(own | opponent);
    let no_move = |p| {
        !board.is_empty(p)
            || [color, color.opponent()]
                .iter()
                .all(|&c| board.is_self_atari(p, c) || !game.is_legal(c, Move::Play(p)))
    };
    for region in empty.components() {
        let rim = region.neighbours();
        if region.count() > 1 && !(rim & opponent).is_empty() && !region.iter().all(no_move) {
            loose |= rim & own;
        }
    }
    Some(loose)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Point, RuleSet, Rules};

    /// A 9x9 board split by a Black wall on column E and a White wall on F:
    /// Black's 36 points against White's 27.
    fn walls(rules: Rules, komi: f64) -> Game {
        let mut g = Game::new(9, rules);
        g.set_komi(komi);
        for y in 0..9 {
            g.play(Color::Black, Move::Play(Point::new(4, y))).unwrap();
            g.play(Color::White, Move::Play(Point::new(5, y))).unwrap();
        }
        g
    }

    #[test]
    fn the_first_moves_need_no_reading() {
        // The shortcut counts as the judge does: komi on the empty board,
        // the stones' area after the first move or the handicap.
        for (size, komi, stones) in [
            (9, 6.5, 0),
            (9, -3.5, 0),
            (19, 6.5, 0),
            (19, 6.5, 1),
            (19, 0.5, 4),
        ] {
            let mut g = Game::new(size, Rules::japanese());
            g.set_komi(komi);
            if stones > 0 {
                let points = crate::board::fixed_handicap(size, stones.max(2)).unwrap();
                g.place_handicap(&points[..stones]);
            }
            let read = score::count(&g, &referee().judge(&g));
            assert_eq!(score::count(&g, &judge(&g, Color::White)), read);
            let white_wins = read.winner() == Some(Color::White);
            assert_eq!(passing_wins(&g, Color::White, Bitboard::EMPTY), white_wins);
        }
    }

    #[test]
    fn a_closed_won_position_passes_under_territory_rules() {
        let g = walls(Rules::japanese(), 8.5);
        assert!(passing_wins(&g, Color::Black, Bitboard::EMPTY));
        assert!(!passing_wins(&g, Color::White, Bitboard::EMPTY));
        // One point less: Black loses by half a point and plays on.
        assert!(!passing_wins(
            &walls(Rules::japanese(), 9.5),
            Color::Black,
            Bitboard::EMPTY
        ));
        // Area counting (45 points to 36 + 8.5): the borders alone do not
        // decide, the opponent's pass does.
        let mut g = walls(Rules::new(RuleSet::Chinese), 8.5);
        assert!(!passing_wins(&g, Color::Black, Bitboard::EMPTY));
        g.play(Color::White, Move::Pass).unwrap();
        assert!(passing_wins(&g, Color::Black, Bitboard::EMPTY));
    }

    #[test]
    fn a_pass_that_ends_a_lost_game_is_known_as_one() {
        // Black's 36 against White's 27 + 9.5: Black loses by half a point.
        let mut g = walls(Rules::japanese(), 9.5);
        assert!(!passing_loses(&g, Color::Black), "White has not passed");
        g.play(Color::White, Move::Pass).unwrap();
        assert!(passing_loses(&g, Color::Black));
        assert!(!passing_loses(&walls(Rules::japanese(), 9.0), Color::Black));
        let mut drawn = walls(Rules::japanese(), 9.0);
        drawn.play(Color::White, Move::Pass).unwrap();
        assert!(!passing_loses(&drawn, Color::Black), "a draw is not a loss");
    }

    /// A kosumi match game against GNU Go (9x9, Japanese): White passed
    /// with two stones in atari, its count saying White won, and Black
    /// captured them and went on to win by 70 points. Here White's E1 is in
    /// atari (Black D1 and E2, its liberty F1 between White's F2 and G1)
    /// with the borders closed: White wins the count whether E1 lives or
    /// dies, but must not pass.
    #[test]
    fn a_chain_in_atari_keeps_the_game_open() {
        let mut g = Game::new(9, Rules::japanese());
        g.set_komi(10.5);
        for y in 0..8 {
            g.set_stone(Point::new(4, y), Some(Color::Black));
            g.set_stone(Point::new(5, y), Some(Color::White));
        }
        g.set_stone(Point::new(3, 8), Some(Color::Black)); // D1
        g.set_stone(Point::new(4, 8), Some(Color::White)); // E1
        g.set_stone(Point::new(6, 8), Some(Color::White)); // G1
        assert_eq!(referee().final_score(&g).winner(), Some(Color::White));
        assert!(!passing_wins(&g, Color::White, Bitboard::EMPTY));
        // Connected at F1, the game is White's to end.
        g.play(Color::White, Move::Play(Point::new(5, 8))).unwrap();
        assert!(passing_wins(&g, Color::White, Bitboard::EMPTY));
    }

    /// The walls with a White stone at B5 in atari among Black's stones
    /// (A5, B4, B6) inside Black's area, komi 11.5: Black 36 - 3 + 1
    /// prisoner against White's 27 + 11.5.
    fn walls_with_dead_white_stone() -> Game {
        let mut g = walls(Rules::japanese(), 11.5);
        for (x, y) in [(0, 4), (1, 3), (1, 5)] {
            g.set_stone(Point::new(x, y), Some(Color::Black));
        }
        g.set_stone(Point::new(1, 4), Some(Color::White));
        g
    }

    #[test]
    fn own_stones_given_up_do_not_keep_the_game_open() {
        let g = walls_with_dead_white_stone();
        let b5 = Bitboard::single(Point::new(1, 4));
        assert_eq!(referee().final_score(&g).winner(), Some(Color::White));
        assert!(passing_wins(&g, Color::White, b5));
        // Unless the search has given it up too, the judge is not asked.
        assert!(!passing_wins(&g, Color::White, Bitboard::EMPTY));
        // For Black the stone is a capture still to play.
        assert!(!passing_wins(&g, Color::Black, Bitboard::EMPTY));
    }

    #[test]
    fn a_living_own_wall_keeps_an_open_border_open() {
        // A Black stone inside White's area makes White's wall loose: it
        // lives, so the border stays open and the search decides.
        let mut g = walls(Rules::japanese(), 11.5);
        g.set_stone(Point::new(7, 4), Some(Color::Black));
        let white_wall = g.board().stones(Color::White);
        assert!(!passing_wins(&g, Color::White, white_wall));
    }

    #[test]
    fn a_pass_waits_while_a_border_is_open() {
        let mut g = walls(Rules::japanese(), 8.5);
        assert!(may_pass_first(
            &g,
            Color::Black,
            Bitboard::EMPTY,
            Bitboard::EMPTY
        ));
        // Two points of the walls taken away leave a two-point gap: open.
        for y in [3, 4] {
            g.set_stone(Point::new(4, y), None);
            g.set_stone(Point::new(5, y), None);
        }
        for c in [Color::Black, Color::White] {
            assert!(!may_pass_first(&g, c, Bitboard::EMPTY, Bitboard::EMPTY));
        }
    }

    #[test]
    fn a_small_dead_invasion_may_stay_but_a_large_chain_may_not() {
        // White's B5 inside Black's area, in atari, then with two liberties
        // (A5 emptied): Black may leave it once the search gives it up too.
        let b5 = Bitboard::single(Point::new(1, 4));
        let mut g = walls_with_dead_white_stone();
        for _ in 0..2 {
            assert_eq!(
                referee().judge(&g).status(Point::new(1, 4)),
                Some(PointStatus::Dead)
            );
            assert!(!may_pass_first(
                &g,
                Color::Black,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ));
            assert!(may_pass_first(&g, Color::Black, Bitboard::EMPTY, b5));
            g.set_stone(Point::new(0, 4), None);
        }
        // Five White stones in a row on Black's side are too many to leave,
        // whatever the count says of them.
        let mut g = walls(Rules::japanese(), 8.5);
        let chain: Bitboard = (2..7).map(|y| Point::new(1, y)).collect();
        for p in chain.iter() {
            g.set_stone(p, Some(Color::White));
        }
        assert!(!may_pass_first(&g, Color::Black, Bitboard::EMPTY, chain));
    }

    #[test]
    fn the_shared_liberties_of_a_seki_are_no_open_border() {
        // A White ring around Black's D2-E2, walled in by Black: both chains
        // have only D1 and E1, and a stone there puts its own side in atari.
        let rows = [
            ".XXXXXX..", // row 4
            ".XOOOOX..", // row 3
            ".XOXXOX..", // row 2
            ".XO..OX..", // row 1
        ];
        let mut g = Game::new(9, Rules::japanese());
        for (r, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let colour = match c {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                g.set_stone(Point::new(x, 5 + r), Some(colour));
            }
        }
        for c in [Color::Black, Color::White] {
            assert!(may_pass_first(&g, c, Bitboard::EMPTY, Bitboard::EMPTY));
        }
        // With a third point (G1 empty, White's F1 touching it) the ring has
        // an outside liberty: Black can approach, and the border is open.
        g.set_stone(Point::new(6, 8), None);
        assert!(!may_pass_first(
            &g,
            Color::Black,
            Bitboard::EMPTY,
            Bitboard::EMPTY
        ));
    }

    #[test]
    fn open_borders_leave_it_to_the_search() {
        let mut g = Game::new(9, Rules::japanese());
        g.set_komi(-50.0);
        g.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
        g.play(Color::White, Move::Play(Point::new(2, 2))).unwrap();
        assert!(!passing_wins(&g, Color::Black, Bitboard::EMPTY));
    }
}

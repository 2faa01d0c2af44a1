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
/// touches one colour only, or is a single dame point) and no chain is in
/// atari, leaving aside own stones the count calls dead. Only own stones in
/// `given_up` (those the search expects to lose) are asked of the judge,
/// whose reading costs hundredths of a second on 9x9 and up to a second on
/// 19x19.
pub fn passing_wins(game: &Game, color: Color, given_up: Bitboard) -> bool {
    let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
    if opponent_passed {
        return referee().final_score(game).winner() == Some(color);
    }
    if game.rules().area_scoring() {
        return false;
    }
    let Some(loose) = loose_own_stones(game, color).filter(|&l| (l & !given_up).is_empty()) else {
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

/// The stones of `color` that keep the game open: own chains in atari and
/// own stones next to an empty region of two points or more that also
/// touches the opponent. Passing is safe only if the count has given them
/// all up. `None` when an opponent chain is in atari (a capture is still
/// to play).
fn loose_own_stones(game: &Game, color: Color) -> Option<Bitboard> {
    let board = game.board();
    let own = board.stones(color);
    let opponent = board.stones(color.opponent());
    if opponent.iter().any(|p| board.in_atari(p)) {
        return None;
    }
    let mut loose: Bitboard = own.iter().filter(|&p| board.in_atari(p)).collect();
    let empty = Bitboard::on_board(board.size()) & !(own | opponent);
    for region in empty.components() {
        let rim = region.neighbours();
        if region.count() > 1 && !(rim & opponent).is_empty() {
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
    fn open_borders_leave_it_to_the_search() {
        let mut g = Game::new(9, Rules::japanese());
        g.set_komi(-50.0);
        g.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
        g.play(Color::White, Move::Play(Point::new(2, 2))).unwrap();
        assert!(!passing_wins(&g, Color::Black, Bitboard::EMPTY));
    }
}

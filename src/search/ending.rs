//! When passing wins: the count of the position, not the playouts, decides.
//!
//! Playouts cannot defend a large territory: in a finished position they let
//! invasions live often enough that the search sees a won game as even, and
//! then invades, or fills its own territory, throwing away half a point. The
//! judge ([`super::judge`]) reads the position as a referee would, so once
//! the borders are closed (or the opponent's pass lets ours end the game) its
//! count says whether a pass wins. A chain in atari is a fight still open:
//! the next move decides it, the judge's playouts, started cold, do not
//! always see the capture, and a pass hands that move to the opponent, so
//! it leaves the decision to the search.

use super::judge;
use crate::board::{Bitboard, Color, Game, Move};

/// Whether `color` should pass now because the game, counted as it stands,
/// is won: after the opponent's pass (a pass ends the game) or, under
/// territory counting, once no border is left open (every empty region
/// touches one colour only, or is a single dame point) and no chain is in
/// atari.
pub fn passing_wins(game: &Game, color: Color) -> bool {
    let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
    let territory = !game.rules().area_scoring();
    let game_can_end =
        opponent_passed || territory && borders_closed(game) && !any_chain_in_atari(game);
    game_can_end && judge::final_score(game).winner() == Some(color)
}

/// Whether `color`'s pass would end the game (the opponent passed) and the
/// count of the position says the opponent wins it.
pub fn passing_loses(game: &Game, color: Color) -> bool {
    let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
    opponent_passed && judge::final_score(game).winner() == Some(color.opponent())
}

/// Every empty region touches stones of one colour only, or is one point.
fn borders_closed(game: &Game) -> bool {
    let board = game.board();
    let black = board.stones(Color::Black);
    let white = board.stones(Color::White);
    let empty = Bitboard::on_board(board.size()) & !(black | white);
    empty.components().all(|region| {
        let rim = region.neighbours();
        let both = !(rim & black).is_empty() && !(rim & white).is_empty();
        !both || region.count() == 1
    })
}

/// Some chain of either colour has one liberty.
fn any_chain_in_atari(game: &Game) -> bool {
    let board = game.board();
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    stones.iter().any(|p| board.in_atari(p))
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
    fn a_closed_won_position_passes_under_territory_rules() {
        let g = walls(Rules::japanese(), 8.5);
        assert!(passing_wins(&g, Color::Black));
        assert!(!passing_wins(&g, Color::White));
        // One point less: Black loses by half a point and plays on.
        assert!(!passing_wins(&walls(Rules::japanese(), 9.5), Color::Black));
        // Area counting (45 points to 36 + 8.5): the borders alone do not
        // decide, the opponent's pass does.
        let mut g = walls(Rules::new(RuleSet::Chinese), 8.5);
        assert!(!passing_wins(&g, Color::Black));
        g.play(Color::White, Move::Pass).unwrap();
        assert!(passing_wins(&g, Color::Black));
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
        assert!(borders_closed(&g));
        assert_eq!(judge::final_score(&g).winner(), Some(Color::White));
        assert!(!passing_wins(&g, Color::White));
        // Connected at F1, the game is White's to end.
        g.play(Color::White, Move::Play(Point::new(5, 8))).unwrap();
        assert!(passing_wins(&g, Color::White));
    }

    #[test]
    fn open_borders_leave_it_to_the_search() {
        let mut g = Game::new(9, Rules::japanese());
        g.set_komi(-50.0);
        g.play(Color::Black, Move::Play(Point::new(4, 4))).unwrap();
        g.play(Color::White, Move::Play(Point::new(2, 2))).unwrap();
        assert!(!passing_wins(&g, Color::Black));
    }
}

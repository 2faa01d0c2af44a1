//! Reading a miss: the one chain which, taken the other way, gives the
//! record's count. Records of KGS games are the players' agreement; a
//! common way for one to differ from a referee's count is a dead stone the
//! players left on the board (it then stays, and the point beside it turns
//! neutral), and a common way for kosumi to be wrong is one misjudged group:
//! the chain says which, once someone looks at it. The record's result is
//! used only here, after the count.

use super::margin::same_margin;
use kosumi::board::{Bitboard, Color, Game};
use kosumi::score::{self, Judgement, PointStatus};

/// What a flipped chain says about a miss.
#[derive(Clone, Debug, PartialEq)]
pub struct Flip {
    /// The chain's colour.
    pub color: Color,
    /// One of its stones, in GTP form.
    pub stone: String,
    /// Its size.
    pub stones: usize,
    /// kosumi's status for it.
    pub was: PointStatus,
    /// The status the record's count implies for it.
    pub as_if: PointStatus,
}

impl std::fmt::Display for Flip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.as_if {
            PointStatus::Alive => "alive",
            PointStatus::Seki => "in seki",
            _ => "dead",
        };
        write!(
            f,
            "the record's count if {} {} ({}) were {kind}",
            self.color.letter(),
            self.stone,
            score::counted(self.stones, "stone")
        )
    }
}

/// The smallest chain whose status, switched to another of dead, alive and
/// seki, makes the count equal `recorded` (Black minus White), dead chains
/// counted alive first; `None` when no single chain does.
pub fn single_flip(game: &Game, j: &Judgement, recorded: f64) -> Option<Flip> {
    let board = game.board();
    let rebuilt = |flip: Option<(Bitboard, PointStatus)>| {
        let status = |q| match flip {
            Some((chain, as_if)) if chain.contains(q) => as_if,
            _ => j.status(q).unwrap_or(PointStatus::Alive),
        };
        score::count(game, &Judgement::from_statuses(board, status, Vec::new())).black_minus_white
    };
    // The statuses alone must give kosumi's count, or a flip proves nothing.
    if !same_margin(rebuilt(None), score::count(game, j).black_minus_white) {
        return None;
    }
    // Dead chains counted alive first (the players' slip), then the smallest.
    let rank = |f: &Flip| (f.was != PointStatus::Dead, f.stones);
    let mut found: Option<Flip> = None;
    for (c, p, chain) in super::chains(board) {
        let Some(was) = j.status(p) else { continue };
        let others: &[PointStatus] = match was {
            PointStatus::Dead => &[PointStatus::Alive],
            PointStatus::Alive => &[PointStatus::Dead, PointStatus::Seki],
            PointStatus::Seki => &[PointStatus::Alive, PointStatus::Dead],
        };
        for &as_if in others {
            if !same_margin(rebuilt(Some((chain, as_if))), recorded) {
                continue;
            }
            let flip = Flip {
                color: c,
                stone: p.to_gtp(board.size()),
                stones: chain.count(),
                was,
                as_if,
            };
            if found.as_ref().is_none_or(|f| rank(&flip) < rank(f)) {
                found = Some(flip);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use kosumi::sgf::GameRecord;

    /// A 9x9 game ended by two passes: White's stone at H8 sits in atari in
    /// Black's two-point space at the top right (its liberty J8 touches only
    /// Black), Black owns rows 5 up, White rows 1 to 3.
    const GAME: &str = "(;FF[4]GM[1]SZ[9]KM[0.5]RU[Japanese]\
        AB[aa][ba][ca][da][ea][fa][ga][ha][ia][gb][hc][ic][ae][be][ce][de][ee][fe][ge][he][ie]\
        AW[hb][ag][bg][cg][dg][eg][fg][gg][hg][ig]\
        ;B[];W[])";

    fn judged(sgf: &str) -> (Game, Judgement) {
        let record = GameRecord::from_sgf(sgf.as_bytes()).unwrap();
        let game = record
            .to_game(None, kosumi::board::Rules::japanese(), None)
            .unwrap();
        let j = kosumi::search::referee().judge(&game);
        (game, j)
    }

    #[test]
    fn names_the_dead_stone_the_players_left_on_the_board() {
        let (game, j) = judged(GAME);
        let ours = score::count(&game, &j).black_minus_white;
        // Left alive, the stone is no prisoner, its point no territory and
        // J8 turns neutral: three points less for Black.
        let flip = single_flip(&game, &j, ours - 3.0).expect("one chain explains it");
        assert_eq!(flip.color, Color::White);
        assert_eq!(flip.stone, "H8");
        assert_eq!(flip.stones, 1);
        assert_eq!(
            (flip.was, flip.as_if),
            (PointStatus::Dead, PointStatus::Alive)
        );
        assert!(flip.to_string().contains("W H8 (1 stone) were alive"));
    }

    #[test]
    fn a_seki_call_is_one_of_the_flips() {
        let (game, j) = judged(include_str!("../../../gtp-tests/games/score-seki.sgf"));
        let board = game.board();
        let a2 = kosumi::board::Point::new(0, 7);
        assert_eq!(a2.to_gtp(9), "A2");
        assert_eq!(j.status(a2), Some(PointStatus::Seki));
        // The record as if White's seki chain at A2 were dead.
        let seki_chain = Bitboard::flood_fill(Bitboard::single(a2), board.stones(Color::White));
        let as_if = Judgement::from_statuses(
            board,
            |q| {
                if seki_chain.contains(q) {
                    PointStatus::Dead
                } else {
                    j.status(q).unwrap_or(PointStatus::Alive)
                }
            },
            Vec::new(),
        );
        let recorded = score::count(&game, &as_if).black_minus_white;
        let flip = single_flip(&game, &j, recorded).expect("one chain explains it");
        assert_eq!(flip.was, PointStatus::Seki);
        assert_ne!(flip.as_if, PointStatus::Seki);
    }

    #[test]
    fn no_flip_when_no_single_chain_gives_the_record() {
        let (game, j) = judged(GAME);
        let ours = score::count(&game, &j).black_minus_white;
        assert_eq!(single_flip(&game, &j, ours + 0.5), None);
    }
}

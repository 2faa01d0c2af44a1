//! Dynamic komi: an extra komi for White that only decides which playouts
//! count as won in the value the tree backs up (after Baudiš 2011,
//! "Balancing MCTS by dynamically adjusting the komi value", as Pachi does
//! it). Far from 50%, nearly every playout wins (or loses) whatever the
//! move, so a move that keeps the lead and one that gives most of it away
//! look alike; against a shifted komi they do not.
//!
//! The real komi stays everywhere else: the reported win rate (the node's
//! win counts), the score lead, ownership, counting, resigning and passing.
//!
//! - **Handicap games**: `komi.handicap_stone` points per handicap stone at
//!   the start, shrinking linearly to none by move `komi.handicap_moves`
//!   times the board's points (so White feels nearly even at first and
//!   Black aims at keeping most of its stones' worth).
//! - **Lopsided positions** (any game): when the previous own search's real
//!   win rate is above `komi.lopsided`, the extra komi moves half way
//!   toward `komi.lopsided_share` of the expected lead, so the leader aims
//!   at a margin it can keep; it halves back toward none below that. The
//!   side behind gets no such komi: aiming at losing by less made kosumi
//!   play calmly where its comebacks against weaker players come from
//!   fighting for the real win (`lab/handicap-log.md`).
//!
//! The handicap part is off by default: at 7 points a stone kosumi won 4
//! of 11 three-stone games as White against GNU Go, 9 of 11 without (calm
//! play toward the shifted target, where its wins come from fighting for
//! the real one). The lopsided part is on at 0.85: in 9x9 self-play it
//! did not cost strength (`lab/handicap-log.md`).

use super::config::TreeSettings;
use super::RootValues;
use crate::board::{Color, Game};

/// Playouts the previous search needs before its win rate moves the
/// extra komi.
const MIN_VISITS: u64 = 200;

/// The handicap part of the extra komi for White in `game`.
pub(crate) fn handicap_extra(settings: &TreeSettings, game: &Game) -> f64 {
    let stones = game.handicap();
    if stones < 2 || settings.handicap_stone <= 0.0 {
        return 0.0;
    }
    let size = game.board().size();
    let end = settings.handicap_moves * (size * size) as f64;
    let played = game.moves().len() as f64;
    if played >= end {
        return 0.0;
    }
    settings.handicap_stone * stones as f64 * (end - played) / end
}

/// The lopsided-position part, carried from one own move to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Lopsided {
    /// Extra komi for White, in points.
    extra: f64,
    /// Moves in the game when it was last set: a position that is no
    /// continuation of that game (undo, a loaded game) starts again at 0.
    at: usize,
}

impl Lopsided {
    /// The extra komi for White in `game`, if it continues the game the
    /// last update saw.
    pub(crate) fn extra(&self, game: &Game) -> f64 {
        let now = game.moves().len();
        if self.extra != 0.0 && now >= self.at && now <= self.at + 2 {
            self.extra
        } else {
            0.0
        }
    }

    /// Moves the extra komi after a search for `color` in `game` ended with
    /// `root`'s real values.
    pub(crate) fn update(
        &mut self,
        settings: &TreeSettings,
        game: &Game,
        color: Color,
        root: &RootValues,
    ) {
        let current = self.extra(game);
        self.at = game.moves().len();
        if settings.lopsided <= 0.5 {
            self.extra = 0.0;
            return;
        }
        if root.visits < MIN_VISITS {
            self.extra = current;
            return;
        }
        // The lead in White's extra komi's terms: Black's.
        let lead_black = match color {
            Color::Black => root.score_lead,
            Color::White => -root.score_lead,
        };
        let target = if root.winrate > settings.lopsided && root.score_lead > 0.0 {
            settings.lopsided_share * lead_black
        } else {
            0.0
        };
        // Part of the way only, so one noisy search does not swing it.
        let next = current + 0.5 * (target - current);
        let size = game.board().size() as f64;
        let cap = size * size / 4.0;
        // Whole points, so the shifted komi keeps the real one's half point
        // and no playout lands exactly on it (no jigo from the shift).
        self.extra = next.clamp(-cap, cap).round();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fixed_handicap, Move, Point, Rules};

    fn handicap_game(size: usize, stones: usize) -> Game {
        let mut g = Game::new(size, Rules::japanese());
        g.set_komi(0.5);
        g.place_handicap(&fixed_handicap(size, stones).unwrap());
        g
    }

    /// Plays `n` moves, White filling the top rows and Black the bottom
    /// ones, so nothing is captured.
    fn play_apart(g: &mut Game, n: usize) {
        let size = g.board().size();
        for i in 0..n {
            let (k, color) = (i / 2, g.to_move());
            let row = if color == Color::White {
                k / size
            } else {
                size - 1 - k / size
            };
            g.play(color, Move::Play(Point::new(k % size, row)))
                .unwrap();
        }
    }

    fn root(winrate: f64, score_lead: f64) -> RootValues {
        RootValues {
            visits: 1000,
            winrate,
            score_lead,
            score_stdev: 10.0,
        }
    }

    #[test]
    fn handicap_extra_shrinks_linearly_to_none() {
        let s = TreeSettings {
            handicap_stone: 7.0,
            ..TreeSettings::default()
        };
        let mut g = handicap_game(13, 3);
        assert_eq!(handicap_extra(&s, &g), 7.0 * 3.0);
        // 0.4 x 169 = 67.6 moves; half way after about 34.
        play_apart(&mut g, 34);
        let half = handicap_extra(&s, &g);
        assert!((half - 21.0 * (67.6 - 34.0) / 67.6).abs() < 1e-9, "{half}");
        let even = Game::new(13, Rules::japanese());
        assert_eq!(handicap_extra(&s, &even), 0.0);
        // Off by default.
        let off = TreeSettings::default();
        assert_eq!(handicap_extra(&off, &handicap_game(13, 3)), 0.0);
    }

    #[test]
    fn lopsided_moves_toward_the_lead_and_back() {
        let s = TreeSettings {
            lopsided: 0.85,
            ..TreeSettings::default()
        };
        let g = Game::new(9, Rules::parse("chinese").unwrap());
        let mut l = Lopsided::default();
        // Black to move and winning by 20: White gets more.
        l.update(&s, &g, Color::Black, &root(0.95, 20.0));
        assert_eq!(l.extra(&g), 5.0);
        l.update(&s, &g, Color::Black, &root(0.95, 20.0));
        assert_eq!(l.extra(&g), 8.0);
        // Within bounds: halves back toward none.
        l.update(&s, &g, Color::Black, &root(0.6, 3.0));
        assert_eq!(l.extra(&g), 4.0);
        // White far ahead: the extra komi turns negative.
        let mut l = Lopsided::default();
        l.update(&s, &g, Color::White, &root(0.9, 12.0));
        assert_eq!(l.extra(&g), -3.0);
        // Too few playouts: kept as it was.
        let thin = RootValues {
            visits: 10,
            ..root(0.99, 50.0)
        };
        l.update(&s, &g, Color::White, &thin);
        assert_eq!(l.extra(&g), -3.0);
        // Far behind: no komi for the side behind, back toward none.
        l.update(&s, &g, Color::White, &root(0.05, -30.0));
        assert_eq!(l.extra(&g), -2.0);
    }

    #[test]
    fn lopsided_off_or_stale_gives_none() {
        let s = TreeSettings {
            lopsided: 0.0,
            ..TreeSettings::default()
        };
        let g = Game::new(9, Rules::parse("chinese").unwrap());
        let mut l = Lopsided::default();
        l.update(&s, &g, Color::Black, &root(0.99, 40.0));
        assert_eq!(l.extra(&g), 0.0);
        let on = TreeSettings {
            lopsided: 0.85,
            ..TreeSettings::default()
        };
        let mut g = handicap_game(9, 4);
        for _ in 0..3 {
            l.update(&on, &g, Color::Black, &root(0.98, 60.0));
        }
        // Capped at a quarter of the board's points.
        assert_eq!(l.extra(&g), 20.0);
        // A position that does not continue the last one: none.
        play_apart(&mut g, 3);
        assert_eq!(l.extra(&g), 0.0);
    }
}

//! Dynamic komi: the extra komi the search judges playout wins against in
//! handicap games and lopsided positions, while everything it reports keeps
//! the real komi. One thread, seeded, small playout counts.

use kosumi::board::{fixed_handicap, Color, Game, Rules};
use kosumi::search::Searcher;

mod common;
use common::engine::{genmove, quiet};

fn searcher(params: &[(&str, f64)]) -> Searcher {
    let mut s = Searcher::new(quiet(Some(3000), 7));
    for &(name, value) in params {
        s.set_param(name, value).unwrap();
    }
    s
}

fn handicap_game(size: usize, stones: usize) -> Game {
    let mut g = Game::new(size, Rules::japanese());
    g.set_komi(0.5);
    g.place_handicap(&fixed_handicap(size, stones).unwrap());
    g
}

#[test]
fn extra_komi_follows_the_handicap_and_its_switch() {
    let on = searcher(&[("komi.handicap_stone", 7.0)]);
    assert_eq!(on.extra_komi(&handicap_game(13, 3)), 21.0);
    assert_eq!(on.extra_komi(&handicap_game(19, 9)), 63.0);
    assert_eq!(on.extra_komi(&Game::new(13, Rules::japanese())), 0.0);
    // Off by default.
    let off = searcher(&[]);
    assert_eq!(off.extra_komi(&handicap_game(13, 3)), 0.0);
}

#[test]
fn reported_values_keep_the_real_komi() {
    let game = handicap_game(9, 4);
    let (_, off) = genmove(
        &mut searcher(&[("komi.handicap_stone", 0.0), ("komi.lopsided", 0.0)]),
        &game,
        Color::White,
    );
    let mut s = searcher(&[("komi.handicap_stone", 7.0)]);
    assert_eq!(s.extra_komi(&game), 28.0);
    let (_, on) = genmove(&mut s, &game, Color::White);
    // Four stones on 9x9 are far more than 0.5 komi: White is well behind
    // by the real count with or without the shift (28 points of it would
    // put White ahead).
    for a in [&off, &on] {
        assert!(a.root.winrate < 0.3, "{:?}", a.root);
        assert!(a.root.score_lead < -10.0, "{:?}", a.root);
    }
    assert!(
        (on.root.score_lead - off.root.score_lead).abs() < 10.0,
        "{:?} against {:?}",
        on.root,
        off.root
    );
}

#[test]
fn a_lopsided_lead_moves_the_extra_komi_when_on() {
    let game = handicap_game(9, 4);
    let params = [("komi.handicap_stone", 0.0), ("komi.lopsided", 0.75)];
    // Black far ahead: White gets komi in the win test, toward a part of
    // Black's lead.
    let mut black = searcher(&params);
    let (_, a) = genmove(&mut black, &game, Color::Black);
    assert!(a.root.winrate > 0.75, "{:?}", a.root);
    let extra = black.extra_komi(&game);
    assert!(extra >= 2.0, "{extra}");
    // A new game starts again without it.
    black.clear();
    assert_eq!(black.extra_komi(&game), 0.0);
    // The side behind gets none.
    let mut white = searcher(&params);
    genmove(&mut white, &game, Color::White);
    assert_eq!(white.extra_komi(&game), 0.0);
    // Off at 0.
    let mut off = searcher(&[("komi.lopsided", 0.0)]);
    genmove(&mut off, &game, Color::Black);
    assert_eq!(off.extra_komi(&game), 0.0);
    // On by default, at 0.85.
    let mut default = searcher(&[]);
    let (_, a) = genmove(&mut default, &game, Color::Black);
    assert_eq!(default.extra_komi(&game) > 0.0, a.root.winrate > 0.85);
}

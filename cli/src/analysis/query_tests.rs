//! Query parsing checked without a process: what each field does to the
//! positions handed to the searches.

use super::query::{parse, vertex, Defaults, Perspective, Request};
use kosumi::board::{Color, Move, Point};
use serde_json::{json, Value};

fn positions(q: Value) -> Vec<super::query::Position> {
    match parse(&q.to_string(), &Defaults::default()) {
        Ok(Request::Analyze { positions, .. }) => positions,
        Ok(_) => panic!("not an analysis"),
        Err(e) => panic!("{e}"),
    }
}

fn handicap_query(rules: &str, bonus: Option<&str>) -> Value {
    let mut q = json!({"id":"h","moves":[],"rules":rules,"komi":7.5,"boardXSize":19,"boardYSize":19,
        "initialStones":[["B","D4"],["B","Q16"],["B","D16"],["B","Q4"]]});
    if let Some(b) = bonus {
        q["whiteHandicapBonus"] = json!(b);
    }
    q
}

#[test]
fn handicap_bonus_goes_into_komi() {
    let komi = |r: &str, b: Option<&str>| positions(handicap_query(r, b))[0].game.komi();
    assert_eq!(komi("chinese", None), 11.5);
    assert_eq!(komi("aga", None), 10.5);
    assert_eq!(komi("japanese", None), 7.5);
    assert_eq!(komi("chinese", Some("0")), 7.5);
    assert_eq!(komi("japanese", Some("N")), 11.5);
    // White moves first after handicap stones.
    assert_eq!(
        positions(handicap_query("chinese", None))[0].to_move,
        Color::White
    );
}

#[test]
fn rules_komi_and_turns() {
    let q = json!({"id":"r","moves":[["B","C3"],["W","pass"],["B","D4"]],"rules":"tromp-taylor",
        "boardXSize":5,"boardYSize":5,"analyzeTurns":[3,1],"priorities":[7,9]});
    let p = positions(q);
    assert_eq!(p.len(), 2);
    assert_eq!(
        (p[0].turn, p[0].priority, p[0].to_move),
        (1, 9, Color::White)
    );
    assert_eq!(
        (p[1].turn, p[1].priority, p[1].to_move),
        (3, 7, Color::White)
    );
    assert_eq!(p[0].game.rules().name(), "tromp-taylor");
    assert_eq!(p[0].game.komi(), 7.5);
    assert_eq!(p[1].game.moves().len(), 3);
    assert_eq!(p[0].settings.base.perspective, Perspective::Black);
    let j = positions(
        json!({"id":"j","moves":[],"rules":{"scoring":"TERRITORY","suicide":false},"boardXSize":9,"boardYSize":9}),
    );
    assert_eq!(j[0].game.rules().name(), "japanese");
    assert_eq!(j[0].game.komi(), 6.5);
}

#[test]
fn out_of_turn_moves_are_played() {
    let p = positions(
        json!({"id":"o","moves":[["B","C3"],["B","D4"]],"rules":"japanese",
        "boardXSize":9,"boardYSize":9}),
    );
    assert_eq!(p[0].to_move, Color::White);
    assert_eq!(p[0].game.moves().len(), 2);
}

#[test]
fn vertices() {
    assert_eq!(vertex("(0,0)", 9), Some(Move::Play(Point::new(0, 0))));
    assert_eq!(vertex("A9", 9), Some(Move::Play(Point::new(0, 0))));
    assert_eq!(vertex("PASS", 9), Some(Move::Pass));
    assert_eq!(vertex("(9,0)", 9), None);
    assert_eq!(vertex("I5", 9), None);
    assert_eq!(vertex("(1,x)", 9), None);
}

use super::*;
use crate::board::Point;

/// Black's wall on row 7 and White's on row 6; below, inside White's
/// area, a black group with one eye (A1-B1) and one with two (G1, J1).
fn board() -> Board {
    crate::score::tests::groups_under_walls("..XXOX.X.")
}

/// Survival rates in the playouts: each chain's stones at its rate, every
/// other point at 1.
fn survival_rates(chains: &[(Bitboard, f64)]) -> Vec<f64> {
    let mut survival = vec![1.0; crate::board::SLOTS];
    for &(chain, rate) in chains {
        for p in chain.iter() {
            survival[p.index()] = rate;
        }
    }
    survival
}

fn calls() -> Calls {
    Calls {
        status: vec![PointStatus::Alive; crate::board::SLOTS],
        reasons: vec![Reason::Benson; crate::board::SLOTS],
    }
}

/// [`kill_eyeless`] with no chain safe and none shaky to start with.
fn kill_eyeless_in(b: &Board, calls: &mut Calls, survival: &[f64], unsure: &mut Vec<Point>) {
    let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
    let mut shaky = Bitboard::EMPTY;
    kill_eyeless(
        b,
        calls,
        survival,
        unsure,
        &mut shaky,
        Bitboard::EMPTY,
        &reading,
    );
}

/// The playouts keep `black` (D1-F1) in 55% of them and White's chain
/// in 60%.
fn seki_survival(b: &Board, black: Bitboard) -> Vec<f64> {
    survival_rates(&[(black, 0.55), (b.stones(Color::White), 0.6)])
}

/// [`kill_eyeless_in`] on [`crate::score::tests::seki_inside_wall`]
/// with [`seki_survival`]: the board, Black's D1-F1 and the calls.
fn kill_eyeless_in_wall(outside: bool) -> (Board, Bitboard, Calls) {
    let (b, black) = crate::score::tests::seki_inside_wall(outside);
    let mut calls = calls();
    let survival = seki_survival(&b, black);
    kill_eyeless_in(&b, &mut calls, &survival, &mut Vec::new());
    (b, black, calls)
}

#[test]
fn an_eyeless_chain_neither_side_can_capture_is_in_seki() {
    let (b, black, calls) = kill_eyeless_in_wall(false);
    for p in (b.stones(Color::White) | black).iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Seki);
        assert_eq!(calls.reasons[p.index()], Reason::SekiRead);
    }
}

/// Black's B1 and White's A2-D1 share their liberties A1 and C1. White
/// filling one is captured; Black, moving first, sacrifices two stones
/// at A1 and B1 and captures White's seven: Black wins the race.
#[test]
fn an_eyeless_chain_that_wins_its_race_lives() {
    let rows = ["", "", "", "", "", "", "XXXXX", "OOOOX", ".X.OX"];
    let b = crate::score::tests::board_9x9(&rows);
    let mut calls = calls();
    let mut unsure = Vec::new();
    let b1 = Bitboard::single(Point::new(1, 8));
    let survival = survival_rates(&[(b1, 0.55), (b.stones(Color::White), 0.6)]);
    kill_eyeless_in(&b, &mut calls, &survival, &mut unsure);
    let stones = b.stones(Color::Black) | b.stones(Color::White);
    assert!(stones
        .iter()
        .all(|p| calls.status[p.index()] == PointStatus::Alive));
    assert_eq!(calls.reasons[Point::new(1, 8).index()], Reason::RaceHeld);
}

/// Black's chain B8-H8 with B9, H9, C7, E7 and G7 (12 stones) has one
/// eye at most and eight liberties: B7, D7, F7 and H7 next to White's
/// wall, and C9, D9, F9 and G9 around White's E9. White cannot capture
/// it even moving first: Black takes E9 and has three eyes. The
/// playouts keep it in 55% of them; read, it lives.
#[test]
fn an_eyeless_chain_with_many_liberties_is_read() {
    let rows = ["OX..O..XO", "OXXXXXXXO", "O.X.X.X.O", "OOOOOOOOO"];
    let b = crate::score::tests::board_9x9(&rows);
    let black = b.stones(Color::Black);
    let libs = b.liberties_bb(Point::new(1, 0));
    assert_eq!((black.count(), libs.count()), (12, 8));
    let e9 = Bitboard::single(Point::new(4, 0));
    let survival = survival_rates(&[(black, 0.55), (e9, 0.6)]);
    let mut calls = calls();
    kill_eyeless_in(&b, &mut calls, &survival, &mut Vec::new());
    for p in black.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Alive);
        assert_eq!(calls.reasons[p.index()], Reason::RaceHeld);
    }
}

/// The playouts kill D1-F1 of the seki inside the wall in 65% of them:
/// read, it is in seki; killed in 75%, it is left dead.
#[test]
fn a_seki_the_playouts_mostly_kill_is_read_back() {
    let (b, black) = crate::score::tests::seki_inside_wall(false);
    for (rate, want) in [(0.35, PointStatus::Seki), (0.25, PointStatus::Dead)] {
        let survival = survival_rates(&[(black, rate), (b.stones(Color::White), 0.6)]);
        let mut calls = calls();
        let percent = (100.0 * rate) as u8;
        calls.set(black, PointStatus::Dead, Reason::Playouts { percent });
        let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
        let walls = (Bitboard::EMPTY, Bitboard::EMPTY);
        read_lost_races(&b, &mut calls, &survival, walls, &reading);
        for p in (b.stones(Color::White) | black).iter() {
            let white = b.get(p) == Some(Color::White);
            let expect = if white && want == PointStatus::Dead {
                PointStatus::Alive
            } else {
                want
            };
            assert_eq!(calls.status[p.index()], expect);
        }
    }
}

/// After a KGS game (tune 2015-04-12-13): White's H8-J7 (liberties H7,
/// J6) and G7-G5 share both liberties. Black filling J6 joins H5-H3,
/// whose only other liberty is J4, so White takes it and captures
/// there: Black cannot capture H8 even moving first. Left out of the
/// region, H5-H3 looked safe and White's chains lost the race.
#[test]
fn a_short_enemy_chain_next_to_a_liberty_is_in_the_race() {
    let rows = [
        "....XXXXX",
        "....XXXOO",
        "....XXO.O",
        "....XXOO.",
        "XXXXXXOXX",
        "OOOOOOXX.",
        ".....OOXO",
        ".....OOO.",
        ".........",
    ];
    let b = crate::score::tests::board_9x9(&rows);
    let target = Point::new(7, 1);
    let mut calls = calls();
    let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
    let safe = Bitboard::EMPTY;
    read_races(&b, &mut calls, &[target], safe, safe, &reading);
    let stones = b.stones(Color::Black) | b.stones(Color::White);
    assert!(stones
        .iter()
        .all(|p| calls.status[p.index()] == PointStatus::Alive));
}

/// The seki inside the wall again, with White's chain alive in 90% of
/// the playouts (a firm partner) and Black's D1-F1 in 35%: read only
/// when White's chain is unsettled (`shaky`, as when the playouts
/// leave it in seki often), and then found in seki.
#[test]
fn a_seki_with_a_partner_the_playouts_keep_is_read_when_shaky() {
    let (b, black) = crate::score::tests::seki_inside_wall(false);
    let white = b.stones(Color::White);
    for (shaky, want) in [
        (white, PointStatus::Seki),
        (Bitboard::EMPTY, PointStatus::Dead),
    ] {
        let survival = survival_rates(&[(white, 0.9), (black, 0.35)]);
        let mut calls = calls();
        calls.set(black, PointStatus::Dead, Reason::Playouts { percent: 35 });
        let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
        read_lost_races(
            &b,
            &mut calls,
            &survival,
            (shaky, Bitboard::EMPTY),
            &reading,
        );
        for p in black.iter() {
            assert_eq!(calls.status[p.index()], want);
        }
    }
}

/// White's B3-F1 (liberties C2 and D2, one eye) shuts in Black's
/// G3-G1, whose last liberty H1 White's living H2 chain can fill. The
/// playouts kill both about half the time; read as a race, Black cannot
/// capture White even moving first (White takes G3-G1 and lives), so
/// White lives and Black stays dead. Read before only when the partner
/// was called alive (after validate 2015-12-10-8, a 27-stone group).
#[test]
fn of_two_chains_the_playouts_half_kill_the_one_that_captures_lives() {
    let rows = [
        "",
        "",
        "",
        "",
        "XXXXXX...",
        "XXXXXXOOO",
        "XOOOOOXOO",
        "XO..OOXOO",
        "XOOOOOX.O",
    ];
    let b = crate::score::tests::board_9x9(&rows);
    let white = Bitboard::flood_fill(Bitboard::single(Point::new(1, 6)), b.stones(Color::White));
    let black = Bitboard::flood_fill(Bitboard::single(Point::new(6, 6)), b.stones(Color::Black));
    let rates = [(white, 0.5), (black, 0.49)];
    let survival = survival_rates(&rates);
    let mut calls = calls();
    for (chain, rate) in rates {
        let percent = (100.0 * rate) as u8;
        calls.set(chain, PointStatus::Dead, Reason::Playouts { percent });
    }
    let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
    read_lost_races(
        &b,
        &mut calls,
        &survival,
        (white | black, Bitboard::EMPTY),
        &reading,
    );
    for p in white.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Alive);
        assert_eq!(calls.reasons[p.index()], Reason::RaceHeld);
    }
    for p in black.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Dead);
    }
}

#[test]
fn an_eyeless_chain_that_loses_its_race_is_dead() {
    let (b, black, calls) = kill_eyeless_in_wall(true);
    for p in black.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Dead);
    }
    assert!(b
        .stones(Color::White)
        .iter()
        .all(|p| calls.status[p.index()] == PointStatus::Alive));
}

#[test]
fn a_group_with_one_eye_the_playouts_half_keep_is_dead() {
    let b = board();
    let survival = survival_rates(&[(b.stones(Color::Black) & rectangle(0..9, 7..9), 0.55)]);
    let mut calls = calls();
    let mut unsure = vec![Point::new(0, 7)];
    kill_eyeless_in(&b, &mut calls, &survival, &mut unsure);
    // A2-D1 has one eye: dead.
    for x in 0..4 {
        assert_eq!(calls.status[Point::new(x, 7).index()], PointStatus::Dead);
    }
    assert!(unsure.is_empty());
    // F2-J1 has two eyes (G1, J1): left to the playouts.
    for x in 5..9 {
        assert_eq!(calls.status[Point::new(x, 7).index()], PointStatus::Alive);
    }
}

/// Black's group on rows 1 and 2 has one eye (A1-B1) and nine dame
/// (A3-H3 and J2) inside White's area: 11 empty points, too big to read.
#[test]
fn an_eye_space_too_big_to_read_is_searched() {
    let rows = [
        "",
        "",
        "XXXXXXXXX",
        "OOOOOOOOO",
        "",
        "OOOOOOOOO",
        "",
        "XXXXXXXX.",
        "..XXXXXXX",
    ];
    let b = crate::score::tests::board_9x9(&rows);
    let group = b.stones(Color::Black) & !Bitboard::from_iter((0..9).map(|x| Point::new(x, 2)));
    let survival = survival_rates(&[(group, 0.7)]);
    // The calls, the chains killed and the readings, with no chain safe
    // or shaky.
    let read = |survival: &[f64]| {
        let mut calls = calls();
        let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
        let e = Bitboard::EMPTY;
        let killed = read_eye_spaces(&b, &mut calls, survival, e, e, e, &reading, None);
        (calls, killed, reading.take_log())
    };
    let (calls, killed, log) = read(&survival);
    assert_eq!(killed, group);
    for p in group.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Dead);
        assert!(matches!(
            calls.reasons[p.index()],
            Reason::SearchKilled { percent } if percent >= 90
        ));
    }
    assert!(log
        .iter()
        .any(|r| r.what == "local search" && r.attacker == Color::White));
    // Kept alive in more than 80% of the playouts, it is left to them.
    let (_, killed, log) = read(&vec![0.9; crate::board::SLOTS]);
    assert!(killed.is_empty());
    assert!(log.iter().all(|r| r.what != "local search"));
}

/// The points of columns `xs` on rows `ys` (counted from the top).
fn rectangle(xs: std::ops::Range<usize>, ys: std::ops::Range<usize>) -> Bitboard {
    Bitboard::from_iter(xs.flat_map(|x| ys.clone().map(move |y| Point::new(x, y))))
}

/// Reads the eye spaces of `b` with `dead` called dead and every other
/// chain but `group` safe, the playouts keeping `group` in 70% of
/// them, and checks that `group` is read and left alive.
fn assert_read_and_kept(b: &Board, group: Bitboard, dead: Bitboard) {
    let mut calls = calls();
    for p in dead.iter() {
        calls.status[p.index()] = PointStatus::Dead;
    }
    let safe = (b.stones(Color::Black) | b.stones(Color::White)) & !group & !dead;
    let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
    let survival = vec![0.7; crate::board::SLOTS];
    let e = Bitboard::EMPTY;
    let killed = read_eye_spaces(b, &mut calls, &survival, safe, e, e, &reading, None);
    assert!(killed.is_empty());
    for p in group.iter() {
        assert_eq!(calls.status[p.index()], PointStatus::Alive);
    }
    assert!(reading
        .take_log()
        .iter()
        .any(|r| r.what == "eye space" && group.contains(r.target)));
}

/// Black's group in White's area has two eyes, D2 and J1. White at C1
/// makes D2 false, but Black takes that stone from B1, next to its
/// wall: the group lives. Read without B1, the stone on C1 would keep a
/// liberty the reading never fills (tune game 2015-01-10-11).
#[test]
fn a_stone_played_on_a_dame_can_be_captured_from_beside_it() {
    let rows = [
        "",
        "",
        "XXXXXXXXX",
        "XOOOOOOOO",
        "XO...O..O",
        "XOOOOOOOO",
        "XOOXXXXXX",
        "XOX.XXXXX",
        "X..XXXXX.",
    ];
    let b = crate::score::tests::board_9x9(&rows);
    let group = b.stones(Color::Black) & rectangle(2..9, 6..9);
    assert_read_and_kept(&b, group, Bitboard::EMPTY);
}

/// White's A3-B1 has one eye (A1-A2) and touches Black's dead C3-E1,
/// in atari at F1 inside White's area. Black may play F1 first, but
/// White then takes the ten stones from G1: the group lives. Read
/// without G1, Black's chain would have a liberty the reading never
/// fills, and the group would die to A2 (validate game 2002-10-19-13).
#[test]
fn a_dead_chain_next_to_a_group_cannot_run_out_of_the_points_read() {
    let rows = [
        "",
        "",
        "",
        "",
        "..OOOOOOO",
        "XXOOOOOOO",
        "OOXXXOOOO",
        ".OXXXOOOO",
        ".OXXX..OO",
    ];
    let b = crate::score::tests::board_9x9(&rows);
    let group = b.stones(Color::White) & rectangle(0..2, 6..9);
    assert_read_and_kept(&b, group, rectangle(2..5, 6..9));
}

/// The bottom rows of [`board`] below an open area: Black's stones on
/// row 4 and White's wall on row 3 both touch the 50 empty points above.
fn open_board() -> Board {
    let rows = [
        "",
        "",
        "",
        "",
        "",
        "XXXX",
        "OOOOOOOOO",
        "XXXXOXXXX",
        "..XXOX.X.",
    ];
    crate::score::tests::board_9x9(&rows)
}

#[test]
fn open_points_are_the_empty_areas_both_colours_touch() {
    assert_eq!(open_points(&board(), &calls()), 0);
    assert_eq!(open_points(&open_board(), &calls()), 50);
}

#[test]
fn on_an_open_board_a_one_eyed_group_the_playouts_mostly_keep_is_dead() {
    for (b, dead) in [(board(), false), (open_board(), true)] {
        let survival = survival_rates(&[(b.stones(Color::Black) & rectangle(0..9, 7..9), 0.7)]);
        let mut calls = calls();
        let mut unsure = Vec::new();
        kill_eyeless_in(&b, &mut calls, &survival, &mut unsure);
        let want = if dead {
            PointStatus::Dead
        } else {
            PointStatus::Alive
        };
        // A2-D1 has one eye; F2-J1 two (G1, J1) and stays alive.
        for x in 0..4 {
            assert_eq!(calls.status[Point::new(x, 7).index()], want);
        }
        for x in 5..9 {
            assert_eq!(calls.status[Point::new(x, 7).index()], PointStatus::Alive);
        }
    }
}

#[test]
fn a_group_one_of_whose_chains_the_playouts_keep_is_left_alone() {
    let b = board();
    let bottom = b.stones(Color::Black) & rectangle(0..9, 7..9);
    let c1 = Bitboard::single(Point::new(2, 8));
    let survival = survival_rates(&[(bottom, 0.55), (c1, 0.7)]);
    let mut calls = calls();
    let mut unsure = Vec::new();
    kill_eyeless_in(&b, &mut calls, &survival, &mut unsure);
    assert!(b
        .stones(Color::Black)
        .iter()
        .all(|p| calls.status[p.index()] == PointStatus::Alive));
}

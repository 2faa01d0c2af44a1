//! SGF reader and writer: sample files as real programs write them, real
//! games, round trips of random records, and hostile input.

mod common;

use kosumi::board::{Color, Game, Move, Point, Rules};
use kosumi::sgf::{Collection, Event, GameRecord, SgfError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> Vec<u8> {
    let path = repo().join("gtp-tests/games").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load(name: &str) -> GameRecord {
    GameRecord::from_sgf(&sample(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// SGF letters `xy` as a point.
fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point::new(usize::from(b[0] - b'a'), usize::from(b[1] - b'a'))
}

fn play(color: Color, s: &str) -> (Color, Move) {
    (color, Move::Play(pt(s)))
}

fn moves(r: &GameRecord) -> Vec<(Color, Move)> {
    r.moves().collect()
}

fn comments(r: &GameRecord) -> Vec<Option<String>> {
    r.events
        .iter()
        .filter_map(|e| match e {
            Event::Move { comment, .. } => Some(comment.clone()),
            Event::Setup { .. } => None,
        })
        .collect()
}

fn extra<'a>(r: &'a GameRecord, ident: &str) -> Option<&'a [String]> {
    r.extra
        .iter()
        .find(|(id, _)| id == ident)
        .map(|(_, v)| v.as_slice())
}

use Color::{Black as B, White as W};

#[test]
fn kgs_handicap_game() {
    let r = load("kgs-handicap.sgf");
    assert_eq!(r.size, 19);
    assert_eq!(r.handicap, 2);
    assert_eq!(r.komi, Some(0.5));
    assert_eq!(r.rules.as_deref(), Some("Japanese"));
    assert_eq!(r.setup_black, vec![pt("dp"), pt("pd")]);
    assert!(r.setup_white.is_empty());
    assert_eq!(r.to_play, Some(W));
    assert_eq!(r.black_name.as_deref(), Some("blacky"));
    assert_eq!(r.white_name.as_deref(), Some("whitey"));
    assert_eq!(r.result.as_deref(), Some("W+3.50"));
    assert_eq!(r.date.as_deref(), Some("2024-03-02"));
    assert_eq!(
        r.comment.as_deref(),
        Some("blacky [3d]: hi\nwhitey [5d]: have fun \\o/\n")
    );
    assert_eq!(extra(&r, "WR"), Some(&["5d".to_string()][..]));
    assert_eq!(extra(&r, "OT"), Some(&["5x30 byo-yomi".to_string()][..]));
    // The main line, not the W[fc] variation; the passes end it.
    assert_eq!(
        moves(&r),
        vec![
            play(W, "qp"),
            play(B, "dd"),
            play(W, "oq"),
            (B, Move::Pass),
            (W, Move::Pass)
        ]
    );
    let c = comments(&r);
    assert_eq!(c[1].as_deref(), Some("blacky [3d]: ok"));
    assert_eq!(c[4].as_deref(), Some("whitey [5d]: thx"));
    assert_eq!(c[0], None);
}

#[test]
fn cgoban1_ff3_with_tt_passes() {
    let r = load("cgoban1-ff3.sgf");
    assert_eq!(r.size, 9);
    assert_eq!(r.komi, Some(5.5));
    assert_eq!(r.handicap, 0);
    assert_eq!(
        moves(&r),
        vec![
            play(B, "ee"),
            play(W, "gc"),
            play(B, "cg"),
            (W, Move::Pass),
            (B, Move::Pass)
        ]
    );
    assert_eq!(extra(&r, "SY"), Some(&["Cgoban 1.9.2".to_string()][..]));
}

#[test]
fn ff3_long_property_names() {
    let r = load("ff3-long-names.sgf");
    assert_eq!(r.size, 13);
    assert_eq!(r.komi, Some(5.5));
    assert_eq!(r.black_name.as_deref(), Some("Old"));
    assert_eq!(r.white_name.as_deref(), Some("School"));
    assert_eq!(r.setup_black, vec![pt("dd"), pt("jj")]);
    assert_eq!(r.setup_white, vec![pt("dj")]);
    assert_eq!(
        r.comment.as_deref(),
        Some("long property names as FF[3] allows")
    );
    assert_eq!(moves(&r), vec![play(W, "jd"), play(B, "gg")]);
    assert_eq!(comments(&r), vec![Some("first".to_string()), None]);
}

#[test]
fn sabaki_variations_and_unicode() {
    let r = load("sabaki-variations.sgf");
    assert_eq!(r.komi, Some(6.5));
    assert_eq!(r.rules.as_deref(), Some("Chinese"));
    assert_eq!(r.black_name.as_deref(), Some("Ünïcødé 黑"));
    assert_eq!(r.white_name.as_deref(), Some("白 🀄"));
    assert_eq!(
        moves(&r),
        vec![
            play(B, "pd"),
            play(W, "dp"),
            play(B, "pp"),
            play(W, "dd"),
            play(B, "fq"),
            play(W, "cn")
        ]
    );
    assert_eq!(
        comments(&r)[1].as_deref(),
        Some("Main line. Escapes: ] and \\ and a soft break")
    );
    // The collection layer sees the whole tree.
    let c = Collection::parse(&sample("sabaki-variations.sgf")).unwrap();
    assert_eq!(c.games().len(), 1);
    assert_eq!(c.node_count(), 10);
    let root = c.node(c.games()[0]);
    assert_eq!(root.first("AP"), Some("Sabaki:0.60.2"));
    let first = c.node(root.children[0]);
    assert_eq!(first.children.len(), 2);
}

#[test]
fn gogui_setup_in_a_later_node() {
    let r = load("gogui-setup.sgf");
    assert_eq!(r.size, 9);
    assert_eq!(r.result.as_deref(), Some("W+2.5"));
    assert_eq!(r.white_name.as_deref(), Some("GNU Go:3.8"));
    assert_eq!(
        r.events[3],
        Event::Setup {
            points: vec![
                (pt("aa"), Some(B)),
                (pt("ab"), Some(B)),
                (pt("ii"), Some(W)),
                (pt("ee"), None)
            ]
        }
    );
    assert_eq!(r.events.len(), 7);
    assert_eq!(r.moves().nth(3), Some(play(W, "ee")));
}

#[test]
fn fox_gb2312_and_komi_times_100() {
    let r = load("fox-gb2312.sgf");
    assert_eq!(r.size, 19);
    assert_eq!(r.komi, Some(6.5));
    assert_eq!(r.rules.as_deref(), Some("Chinese"));
    assert_eq!(r.result.as_deref(), Some("W+R"));
    assert_eq!(r.date.as_deref(), Some("2023-09-10"));
    // GB2312 names are not UTF-8: they load with replacement characters.
    let name = r.black_name.as_deref().unwrap();
    assert!(name.contains('\u{fffd}'), "{name:?}");
    assert_eq!(moves(&r).len(), 6);
    assert_eq!(moves(&r)[5], play(W, "cn"));
    assert!(comments(&r)[4].is_some());
}

#[test]
fn latin1_names() {
    let r = load("latin1.sgf");
    assert_eq!(r.black_name.as_deref(), Some("M\u{fffd}ller"));
    assert_eq!(r.comment.as_deref(), Some("Caf\u{fffd}"));
    assert_eq!(moves(&r), vec![play(B, "cc"), play(W, "gg")]);
}

#[test]
fn samples_survive_a_round_trip() {
    let dir = repo().join("gtp-tests/games");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sgf") {
            let r = GameRecord::from_sgf(&std::fs::read(&path).unwrap()).unwrap();
            let again = GameRecord::from_sgf(r.to_sgf().as_bytes()).unwrap();
            assert_eq!(again, r, "{}", path.display());
            count += 1;
        }
    }
    assert!(count >= 7);
}

/// The shared scoring games, or None (with the reason printed) when absent.
fn real_games() -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let shared = repo().join("../shared/data/scoring");
    let list = match std::fs::read_to_string(shared.join("dev.txt")) {
        Ok(list) => list,
        Err(e) => {
            common::tools::skip(&format!("no {} ({e})", shared.join("dev.txt").display()));
            return None;
        }
    };
    let games = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let path = shared.join(l);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect();
    Some(games)
}

#[test]
fn real_games_all_parse() {
    let Some(games) = real_games() else { return };
    assert_eq!(games.len(), 190);
    let mut total = 0;
    for (path, bytes) in &games {
        let r = GameRecord::from_sgf(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(r.size, 19, "{}", path.display());
        // Every B/W property on the main line became a move.
        let c = Collection::parse(bytes).unwrap();
        let written = c
            .main_line(c.games()[0])
            .flat_map(|n| n.props.iter())
            .filter(|(id, _)| id == "B" || id == "W")
            .count();
        let n = r.moves().count();
        assert_eq!(n, written, "{}", path.display());
        assert!(n > 0, "{}", path.display());
        assert_eq!(
            r.handicap > 1,
            !r.setup_black.is_empty(),
            "{}",
            path.display()
        );
        assert_eq!(GameRecord::from_sgf(r.to_sgf().as_bytes()).unwrap(), r);
        total += n;
    }
    println!("{} games, {total} moves", games.len());
}

#[test]
fn real_games_replay_legally() {
    let Some(games) = real_games() else { return };
    for (path, bytes) in &games {
        let r = GameRecord::from_sgf(bytes).unwrap();
        let mut game = Game::new(r.size, Rules::japanese());
        for &p in &r.setup_black {
            game.set_stone(p, Some(B));
        }
        for (i, (color, mv)) in r.moves().enumerate() {
            if let Err(e) = game.play(color, mv) {
                panic!("{} move {}: {color} {mv:?}: {e}", path.display(), i + 1);
            }
        }
    }
}

#[test]
fn every_prefix_of_a_real_game_is_handled() {
    let bytes = match real_games() {
        Some(games) => games[0].1.clone(),
        None => sample("kgs-handicap.sgf"),
    };
    let close = bytes.iter().rposition(|&b| b == b')').unwrap();
    for len in 0..=bytes.len() {
        let r = GameRecord::from_sgf(&bytes[..len]);
        assert_eq!(r.is_ok(), len > close, "prefix of {len} bytes: {r:?}");
        if let Err(e) = r {
            assert!(!e.to_string().is_empty());
        }
    }
}

/// Input that must give a record or an error, never a panic.
fn must_not_panic(bytes: &[u8]) {
    if let Err(e) = GameRecord::from_sgf(bytes) {
        let _ = e.to_string();
    }
    let _ = Collection::parse(bytes);
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = StdRng::seed_from_u64(0x5e_f0);
    let alphabet = b"();[]\\:ABWCSZKMHAEPLtaszj19 \n\r\t.-";
    for case in 0..4000 {
        let len = rng.gen_range(0..300);
        let bytes: Vec<u8> = if case % 2 == 0 {
            (0..len).map(|_| rng.gen()).collect()
        } else {
            // Mostly SGF's own characters, so the parser gets deep.
            let mut v = b"(;".to_vec();
            v.extend((0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]));
            v
        };
        must_not_panic(&bytes);
    }
}

#[test]
fn mutated_files_never_panic() {
    let mut sources: Vec<Vec<u8>> = [
        "kgs-handicap.sgf",
        "sabaki-variations.sgf",
        "fox-gb2312.sgf",
    ]
    .iter()
    .map(|n| sample(n))
    .collect();
    if let Some(games) = real_games() {
        sources.extend(games.into_iter().take(5).map(|(_, b)| b));
    }
    let mut rng = StdRng::seed_from_u64(42);
    let specials = b"()[];\\:t";
    for case in 0..3000 {
        let mut bytes = sources[case % sources.len()].clone();
        for _ in 0..rng.gen_range(1..8) {
            let i = rng.gen_range(0..bytes.len());
            let b = if rng.gen_bool(0.5) {
                specials[rng.gen_range(0..specials.len())]
            } else {
                rng.gen()
            };
            match rng.gen_range(0..3) {
                0 => bytes[i] = b,
                1 => bytes.insert(i, b),
                _ => {
                    bytes.remove(i);
                }
            }
            if bytes.is_empty() {
                break;
            }
        }
        must_not_panic(&bytes);
    }
}

#[test]
fn hostile_shapes() {
    for s in [
        "(".repeat(100_000),
        ")".repeat(100_000),
        "(;".repeat(100_000),
        format!("(;C[{}])", "\\".repeat(100_001)),
        format!("(;AB{})", "[aa:ss]".repeat(1000)),
        "(;SZ[25]AB[aa:yy])".to_string(),
        "(;SZ[99999999999999999999999])".to_string(),
        "(;HA[-1])".to_string(),
        "(;B[\u{1F600}\u{1F600}])".to_string(),
        "(;B[ééé])".to_string(),
    ] {
        must_not_panic(s.as_bytes());
    }
    assert!(matches!(
        GameRecord::from_sgf(b"(;SZ[25]AB[aa:yy])").map(|r| r.setup_black.len()),
        Ok(625)
    ));
    assert!(matches!(
        GameRecord::from_sgf(b"(;HA[-1])"),
        Err(SgfError::BadValue { .. })
    ));
}

// ---------------------------------------------------------------------------
// Round trips of random records.

fn random_text(rng: &mut StdRng) -> String {
    const PIECES: &[&str] = &[
        "a", "Z", " ", "]", "[", "\\", "\\]", "\n", "\r\n", "\r", "\t", ":", ";", "(", ")", "é",
        "黑", "🀄", "B+R", "0.5", "\\\n",
    ];
    let len = rng.gen_range(0..12);
    (0..len)
        .map(|_| PIECES[rng.gen_range(0..PIECES.len())])
        .collect()
}

fn maybe_text(rng: &mut StdRng) -> Option<String> {
    rng.gen_bool(0.5).then(|| random_text(rng))
}

fn random_point(rng: &mut StdRng, size: usize) -> Point {
    Point::new(rng.gen_range(0..size), rng.gen_range(0..size))
}

/// Up to `n` distinct points.
fn distinct_points(rng: &mut StdRng, size: usize, n: usize) -> Vec<Point> {
    let mut v: Vec<Point> = Vec::new();
    for _ in 0..n {
        let p = random_point(rng, size);
        if !v.contains(&p) {
            v.push(p);
        }
    }
    v
}

fn random_record(rng: &mut StdRng) -> GameRecord {
    let size = rng.gen_range(1..=25);
    let mut r = GameRecord::new(size);
    r.komi = match rng.gen_range(0..4) {
        0 => None,
        1 => Some(f64::from(rng.gen_range(-40..=40)) / 2.0),
        2 => Some(f64::from(rng.gen_range(-4000..=4000)) / 4.0),
        _ => Some(f64::from(rng.gen_range(-1_000_000..=1_000_000))),
    };
    r.handicap = if rng.gen_bool(0.3) {
        rng.gen_range(0..10)
    } else {
        0
    };
    r.rules = maybe_text(rng);
    let n = rng.gen_range(0..6);
    let setup = distinct_points(rng, size, n);
    let split = rng.gen_range(0..=setup.len());
    r.setup_black = setup[..split].to_vec();
    r.setup_white = setup[split..].to_vec();
    r.to_play = match rng.gen_range(0..3) {
        0 => None,
        1 => Some(B),
        _ => Some(W),
    };
    r.black_name = maybe_text(rng);
    r.white_name = maybe_text(rng);
    r.result = maybe_text(rng);
    r.date = maybe_text(rng);
    r.comment = maybe_text(rng);
    const EXTRA: &[&str] = &["GN", "EV", "RO", "TM", "OT", "WR", "BR", "XYZ", "TB", "AE"];
    for _ in 0..rng.gen_range(0..3) {
        let ident = EXTRA[rng.gen_range(0..EXTRA.len())].to_string();
        let values = (0..rng.gen_range(1..4)).map(|_| random_text(rng)).collect();
        r.extra.push((ident, values));
    }
    let mut color = if rng.gen_bool(0.5) { B } else { W };
    for _ in 0..rng.gen_range(0..40) {
        if rng.gen_bool(0.1) {
            let n = rng.gen_range(1..5);
            let points = distinct_points(rng, size, n);
            let mut points: Vec<(Point, Option<Color>)> = points
                .into_iter()
                .map(|p| (p, [Some(B), Some(W), None][rng.gen_range(0..3)]))
                .collect();
            // The documented canonical order: AB, then AW, then AE.
            points.sort_by_key(|(_, c)| match c {
                Some(B) => 0,
                Some(W) => 1,
                None => 2,
            });
            r.events.push(Event::Setup { points });
        } else {
            let mv = if rng.gen_bool(0.15) {
                Move::Pass
            } else {
                Move::Play(random_point(rng, size))
            };
            let comment = if rng.gen_bool(0.3) {
                maybe_text(rng)
            } else {
                None
            };
            r.events.push(Event::Move { color, mv, comment });
            // Mostly alternating, sometimes the same colour twice.
            if rng.gen_bool(0.9) {
                color = color.opponent();
            }
        }
    }
    r
}

#[test]
fn random_records_round_trip() {
    let mut rng = StdRng::seed_from_u64(2024);
    for case in 0..3000 {
        let r = random_record(&mut rng);
        let sgf = r.to_sgf();
        let back = GameRecord::from_sgf(sgf.as_bytes())
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{sgf}"));
        assert_eq!(back, r, "case {case}\n{sgf}");
        // Writing is stable too.
        assert_eq!(back.to_sgf(), sgf);
    }
}

#[test]
fn records_replay_as_games() {
    use kosumi::sgf::RecordError;
    // Handicap without KM: the rules' handicap komi, White to move.
    let r = GameRecord::from_sgf(b"(;SZ[9]HA[2]AB[cc][gg];W[ee];B[ce])").unwrap();
    let g = r.to_game(None, Rules::japanese(), None).unwrap();
    assert_eq!((g.handicap(), g.komi(), g.moves().len()), (2, 0.5, 2));
    assert_eq!(g.to_move(), Color::White);
    // RU names the rules unless the caller forces others.
    let r = GameRecord::from_sgf(b"(;SZ[9]RU[Chinese];B[ee];W[ce];B[cc])").unwrap();
    assert_eq!(
        r.to_game(None, Rules::japanese(), None).unwrap().komi(),
        7.5
    );
    let forced = r.to_game(Some(Rules::japanese()), Rules::japanese(), Some(3));
    assert_eq!(forced.as_ref().unwrap().komi(), 6.5);
    assert_eq!(forced.unwrap().moves().len(), 2);
    // An illegal move is named, not skipped.
    let r = GameRecord::from_sgf(b"(;SZ[9];B[ee];W[ee])").unwrap();
    let Err(e) = r.to_game(None, Rules::japanese(), None) else {
        panic!("an illegal move was accepted");
    };
    assert!(matches!(e, RecordError::IllegalMove { number: 2, .. }));
    assert_eq!(
        e.to_string(),
        "move 2 (white E5) is illegal: point is occupied"
    );
}

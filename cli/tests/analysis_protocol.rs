//! `kosumi analysis` driven with raw JSON lines: every query field, every
//! error, the actions, the perspective, termination and priorities. One
//! search thread and a fixed seed: the answers are the same every run.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn spawn(extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "analysis",
            "--quiet",
            "--search-threads",
            "1",
            "--max-visits",
            "40",
        ])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kosumi starts")
}

/// Sends the lines, closes stdin and returns every response.
fn session(extra: &[&str], lines: &[String]) -> Vec<Value> {
    let mut child = spawn(extra);
    {
        let mut stdin = child.stdin.take().unwrap();
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

fn one(q: Value) -> Vec<Value> {
    session(&[], &[q.to_string()])
}

fn base() -> Value {
    json!({"id":"q","moves":[["B","E5"],["W","C3"]],"rules":"japanese","komi":6.5,
           "boardXSize":9,"boardYSize":9})
}

fn with(fields: Value) -> Value {
    let mut q = base();
    for (k, v) in fields.as_object().unwrap() {
        q[k] = v.clone();
    }
    q
}

fn without(field: &str) -> Value {
    let mut q = base();
    q.as_object_mut().unwrap().remove(field);
    q
}

#[test]
fn lines_that_are_not_queries() {
    let r = session(
        &[],
        &[
            "not json".into(),
            "[1,2]".into(),
            "{\"moves\":[]}".into(),
            "{\"id\":5}".into(),
            "{\"id\":\"a\",\"action\":\"dance\"}".into(),
            "\u{1}\u{ff}{{{".into(),
            String::new(),
        ],
    );
    assert_eq!(r.len(), 6);
    assert!(r[0]["error"]
        .as_str()
        .unwrap()
        .ends_with("could not parse input line as json request: not json"));
    assert_eq!(
        r[1]["error"],
        "Request line was valid json but was not an object, ignoring: [1,2]"
    );
    assert_eq!(r[2]["error"], "Request must have a string \"id\" field");
    assert_eq!(r[3]["error"], "Request must have a string \"id\" field");
    assert_eq!(
        r[4]["error"],
        "'action' field must be 'query_version' or 'terminate' or 'terminate_all'"
    );
    assert!(r[5]["error"].is_string());
}

#[test]
fn every_field_error() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (without("boardXSize"), "boardXSize", "Must provide an integer from 2 to 25"),
        (with(json!({"boardXSize": 26})), "boardXSize", "Must provide an integer from 2 to 25"),
        (with(json!({"boardYSize": 9.5})), "boardYSize", "Must provide an integer from 2 to 25"),
        (with(json!({"boardYSize": 13})), "boardYSize", "kosumi plays square boards only: boardYSize must equal boardXSize"),
        (without("moves"), "moves", "Must specify an array of [player,location] pairs"),
        (with(json!({"moves": "E5"})), "moves", "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]"),
        (with(json!({"moves": [["B"]]})), "moves", "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]"),
        (with(json!({"moves": [["X","E5"]]})), "moves", "Could not parse player: X"),
        (with(json!({"moves": [["B","Z9"]]})), "moves", "Could not parse board location: Z9"),
        (with(json!({"moves": [["B","E5"],["W","E5"]]})), "moves", "Illegal move 1: E5"),
        (with(json!({"initialStones": [["B","pass"]]})), "initialStones", "Could not parse board location: pass"),
        (with(json!({"initialPlayer": "red"})), "initialPlayer", "Must be \"b\" or \"w\""),
        (with(json!({"analyzeTurns": [0, 3]})), "analyzeTurns", "Invalid turn number: 3"),
        (with(json!({"analyzeTurns": "all"})), "analyzeTurns", "Must specify an array of integers indicating turns to analyze"),
        (with(json!({"priorities": [1]})), "priorities", "Can only specify when also specifying analyzeTurns"),
        (with(json!({"analyzeTurns": [0,1], "priorities": [1]})), "priorities", "Must be of matching length to analyzeTurns"),
        (with(json!({"analyzeTurns": [0], "priorities": [1], "priority": 2})), "priority", "Cannot specify both priority and priorities"),
        (without("rules"), "rules", "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters."),
        (with(json!({"rules": "klingon"})), "rules", "Could not parse rules: klingon"),
        (with(json!({"rules": {"ko": "SOMETIMES"}})), "rules", "Could not parse rules: {\"ko\":\"SOMETIMES\"}"),
        (with(json!({"komi": 401})), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
        (with(json!({"komi": 6.3})), "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
        (with(json!({"whiteHandicapBonus": 1})), "whiteHandicapBonus", "Must be a string"),
        (with(json!({"whiteHandicapBonus": "N+1"})), "whiteHandicapBonus", "Could not parse white handicap bonus rule: N+1"),
        (with(json!({"overrideSettings": 3})), "overrideSettings", "Must be an object"),
        (with(json!({"overrideSettings": {"maxVisits": "many"}})), "overrideSettings", "Could not set settings: maxVisits must be a positive integer"),
        (with(json!({"overrideSettings": {"numSearchThreads": 4}})), "overrideSettings", "Could not set settings: numSearchThreads cannot be changed in a query"),
        (with(json!({"maxVisits": 0})), "maxVisits", "Must be an integer from 1 to 2^50"),
        (with(json!({"level": 0})), "level", "Must be an integer from 1 to 10"),
        (with(json!({"level": 11})), "level", "Must be an integer from 1 to 10"),
        (with(json!({"level": "weak"})), "level", "Must be an integer from 1 to 10"),
        (with(json!({"overrideSettings": {"kosumiLevel": 12}})), "overrideSettings", "Could not set settings: kosumiLevel: level must be a whole number from 1 to 10 (got \"12\")"),
        (with(json!({"analysisPVLen": 0})), "analysisPVLen", "Must be an integer from 1 to 1000"),
        (with(json!({"includeOwnership": "yes"})), "includeOwnership", "Must be a boolean"),
        (with(json!({"includePolicy": 1})), "includePolicy", "Must be a boolean"),
        (with(json!({"includePVVisits": null})), "includePVVisits", "Must be a boolean"),
        (with(json!({"reportDuringSearchEvery": 0})), "reportDuringSearchEvery", "Must be number of seconds from 0.001 to 1000000.0"),
        (with(json!({"rootPolicyTemperature": 0})), "rootPolicyTemperature", "Must be a number from 0.01 to 100.0"),
        (with(json!({"priority": "high"})), "priority", "Must be a number between -2^62 and 2^62"),
        (with(json!({"allowMoves": [], "avoidMoves": []})), "allowMoves", "Cannot specify both allowMoves and avoidMoves"),
        (with(json!({"avoidMoves": [{"player":"B"}]})), "avoidMoves", "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'"),
        (with(json!({"allowMoves": [{"player":"B","moves":["A1"],"untilDepth":1},{"player":"W","moves":["A1"],"untilDepth":1}]})), "allowMoves", "Currently allowMoves only allows one entry"),
        (with(json!({"avoidMoves": [{"player":"W","moves":["Q99"],"untilDepth":1}]})), "moves", "Could not parse board location: Q99"),
    ];
    let lines: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (q, _, _))| {
            let mut q = q.clone();
            q["id"] = json!(i.to_string());
            q.to_string()
        })
        .collect();
    let r = session(&[], &lines);
    assert_eq!(r.len(), cases.len(), "{r:#?}");
    for (i, (_, field, message)) in cases.iter().enumerate() {
        let want = json!({"id": i.to_string(), "field": field, "error": message});
        assert_eq!(r[i], want, "case {i}");
    }
    // The terminate action's own errors.
    let r = session(
        &[],
        &[
            json!({"id":"t","action":"terminate"}).to_string(),
            json!({"id":"t","action":"terminate_all","turnNumbers":"x"}).to_string(),
        ],
    );
    assert_eq!(r[0]["field"], "terminateId");
    assert_eq!(r[1]["field"], "turnNumbers");
}

#[test]
fn actions_echo_the_query() {
    let r = session(
        &[],
        &[
            json!({"id":"v","action":"query_version"}).to_string(),
            json!({"id":"c","action":"clear_cache","extra":1}).to_string(),
            json!({"id":"t","action":"terminate","terminateId":"nobody","turnNumbers":[1]})
                .to_string(),
            json!({"id":"a","action":"terminate_all"}).to_string(),
        ],
    );
    assert_eq!(r[0]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(r[0]["action"], "query_version");
    assert_eq!(r[1], json!({"id":"c","action":"clear_cache","extra":1}));
    assert_eq!(r[2]["terminateId"], "nobody");
    assert_eq!(r[3], json!({"id":"a","action":"terminate_all"}));
}

#[test]
fn turns_fields_and_determinism() {
    let q = with(
        json!({"analyzeTurns":[0,1,2],"includeOwnership":true,"includePolicy":true,
        "includeMovesOwnership":true,"includePVVisits":true,"analysisPVLen":3,"maxVisits":60}),
    );
    let r = one(q.clone());
    assert_eq!(r.len(), 3);
    let mut turns: Vec<u64> = r
        .iter()
        .map(|x| x["turnNumber"].as_u64().unwrap())
        .collect();
    turns.sort();
    assert_eq!(turns, [0, 1, 2]);
    for x in &r {
        assert_eq!(x["id"], "q");
        assert_eq!(x["isDuringSearch"], false);
        let turn = x["turnNumber"].as_u64().unwrap();
        let player = if turn % 2 == 0 { "B" } else { "W" };
        assert_eq!(x["rootInfo"]["currentPlayer"], player);
        assert!(x["rootInfo"]["visits"].as_u64().unwrap() >= 60);
        assert_eq!(x["ownership"].as_array().unwrap().len(), 81);
        let policy = x["policy"].as_array().unwrap();
        assert_eq!(policy.len(), 82);
        let sum: f64 = policy
            .iter()
            .map(|p| p.as_f64().unwrap())
            .filter(|p| *p >= 0.0)
            .sum();
        assert!((sum - 1.0).abs() < 1e-6);
        // The root's own values: all its playouts, the spread of their scores.
        let root = &x["rootInfo"];
        assert!(root["scoreStdev"].as_f64().unwrap() > 0.0, "{root}");
        let moves = x["moveInfos"].as_array().unwrap();
        let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
        assert!(root["visits"].as_u64().unwrap() >= visits, "{root}");
        let w = root["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{root}");
        for m in moves {
            assert_eq!(m["ownership"].as_array().unwrap().len(), 81, "{m}");
            assert!(m["scoreStdev"].as_f64().unwrap() >= 0.0);
            let pv = m["pv"].as_array().unwrap();
            assert!(!pv.is_empty() && pv.len() <= 3);
            assert_eq!(m["pvVisits"].as_array().unwrap().len(), pv.len());
            for f in [
                "winrate",
                "scoreLead",
                "scoreMean",
                "prior",
                "lcb",
                "utility",
                "order",
            ] {
                assert!(m[f].is_number(), "{f}");
            }
        }
        assert_eq!(x["rootInfo"]["thisHash"].as_str().unwrap().len(), 32);
    }
    // Policy: occupied points are -1 after the two moves.
    let t2 = r.iter().find(|x| x["turnNumber"] == 2).unwrap();
    assert_eq!(t2["policy"][4 * 9 + 4], -1.0);
    // The same query gives the same answer.
    let again = one(q);
    let by_turn = |v: &[Value], t: u64| v.iter().find(|x| x["turnNumber"] == t).unwrap().clone();
    for t in 0..3 {
        assert_eq!(by_turn(&r, t), by_turn(&again, t));
    }
}

#[test]
fn a_visit_is_as_many_playouts_as_the_command_line_says() {
    let run = |per_visit: &str, visits: u64| {
        let q = with(json!({ "maxVisits": visits }));
        let r = session(&["--playouts-per-visit", per_visit], &[q.to_string()]);
        r.into_iter().next().unwrap()
    };
    // 30 visits of 10 playouts are the search of 300 visits of one.
    let (tens, ones) = (run("10", 30), run("1", 300));
    assert_eq!(tens["rootInfo"]["visits"], 30);
    assert_eq!(ones["rootInfo"]["visits"], 300);
    assert_eq!(tens["rootInfo"]["scoreLead"], ones["rootInfo"]["scoreLead"]);
    let visits = |r: &Value| -> Vec<(String, u64)> {
        r["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["visits"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // Each move's visits are its playouts over 10, rounded down; moves
    // with fewer than 10 playouts are left out.
    let expected: Vec<(String, u64)> = visits(&ones)
        .into_iter()
        .filter(|(_, v)| *v >= 10)
        .map(|(m, v)| (m, v / 10))
        .collect();
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(visits(&tens), expected);
    let sum: u64 = expected.iter().map(|(_, v)| v).sum();
    assert!(sum <= 30);
}

#[test]
fn perspective_follows_the_settings() {
    // White to move: Black's view is the mirror of White's, move for move.
    let black = one(with(
        json!({"overrideSettings":{"reportAnalysisWinratesAs":"BLACK"},
        "moves":[["B","E5"]],"includeOwnership":true}),
    ));
    let side = one(with(
        json!({"overrideSettings":{"reportAnalysisWinratesAs":"SIDETOMOVE"},
        "moves":[["B","E5"]],"includeOwnership":true}),
    ));
    let (b, s) = (&black[0], &side[0]);
    let f = |v: &Value| v.as_f64().unwrap();
    assert!((f(&b["rootInfo"]["winrate"]) + f(&s["rootInfo"]["winrate"]) - 1.0).abs() < 1e-9);
    assert!((f(&b["rootInfo"]["scoreLead"]) + f(&s["rootInfo"]["scoreLead"])).abs() < 1e-9);
    let (bm, sm) = (&b["moveInfos"][0], &s["moveInfos"][0]);
    assert_eq!(bm["move"], sm["move"]);
    assert!((f(&bm["winrate"]) + f(&sm["winrate"]) - 1.0).abs() < 1e-9);
    assert!((f(&b["ownership"][0]) + f(&s["ownership"][0])).abs() < 1e-9);
    // The command line sets the default.
    let cli = session(
        &["--report-winrates-as", "SIDETOMOVE"],
        &[with(json!({"moves":[["B","E5"]]})).to_string()],
    );
    assert_eq!(cli[0]["rootInfo"]["winrate"], s["rootInfo"]["winrate"]);
}

#[test]
fn setup_stones_initial_player_and_rules() {
    // Four black stones, White to move: a lopsided position for Black.
    let q = with(
        json!({"moves":[],"initialStones":[["B","C3"],["B","G3"],["B","C7"],["B","G7"]],
        "initialPlayer":"W","rules":{"ko":"SIMPLE","scoring":"AREA","suicide":false},"komi":0.5,
        "includeOwnership":true,"maxVisits":200}),
    );
    let r = one(q);
    assert_eq!(r[0]["turnNumber"], 0);
    assert_eq!(r[0]["rootInfo"]["currentPlayer"], "W");
    assert!(
        r[0]["rootInfo"]["scoreLead"].as_f64().unwrap() > 5.0,
        "{}",
        r[0]["rootInfo"]
    );
    // Every rule name KataGo's tools send that kosumi can play is accepted.
    for name in [
        "japanese",
        "korean",
        "chinese",
        "chinese-ogs",
        "chinese-kgs",
        "aga",
        "bga",
        "new-zealand",
        "new zealand",
        "tromp-taylor",
    ] {
        let r = one(with(json!({"rules": name, "maxVisits": 5})));
        assert_eq!(r.len(), 1, "{name}: {r:?}");
        assert!(r[0]["moveInfos"].is_array(), "{name}");
    }
    // What kosumi cannot play exactly is analysed under the nearest rules,
    // with a warning first, as KataGo warns of what it ignores.
    for (rules, warning) in [
        (
            json!("stone_scoring"),
            "kosumi plays these rules as chinese: group tax ALL (counted as NONE)",
        ),
        (
            json!("aga-button"),
            "kosumi plays these rules as aga: the button (not counted)",
        ),
        (
            json!({"scoring": "TERRITORY", "suicide": true}),
            "kosumi plays these rules as japanese: multi-stone suicide (played as illegal)",
        ),
    ] {
        let r = one(with(json!({"rules": rules, "maxVisits": 5})));
        assert_eq!(r.len(), 2, "{rules}: {r:?}");
        assert_eq!(r[0], json!({"id":"q","field":"rules","warning":warning}));
        assert!(r[1]["moveInfos"].is_array(), "{rules}");
    }
    let r = one(with(json!({"komi": 300, "maxVisits": 5})));
    assert!(r[0]["moveInfos"].is_array(), "{r:?}");
}

#[test]
fn warnings_then_the_analysis() {
    let r = one(with(
        json!({"rootFpuReductionMax":0.5,"overrideSettings":{"cpuctExploration":1.0}}),
    ));
    assert_eq!(r.len(), 3);
    assert_eq!(
        r[0],
        json!({"id":"q","field":"overrideSettings","warning":"kosumi ignores these settings: cpuctExploration"})
    );
    assert_eq!(
        r[1],
        json!({"id":"q","field":"rootFpuReductionMax","warning":"kosumi accepts this field and ignores it"})
    );
    assert!(r[2]["moveInfos"].is_array());
}

#[test]
fn allow_and_avoid_moves() {
    let allow = one(with(
        json!({"allowMoves":[{"player":"B","moves":["A1","J9"],"untilDepth":1}]}),
    ));
    for m in allow[0]["moveInfos"].as_array().unwrap() {
        assert!(["A1", "J9"].contains(&m["move"].as_str().unwrap()), "{m}");
    }
    let avoid = one(with(
        json!({"avoidMoves":[{"player":"B","moves":["E3","D4"],"untilDepth":1}]}),
    ));
    for m in avoid[0]["moveInfos"].as_array().unwrap() {
        assert!(!["E3", "D4"].contains(&m["move"].as_str().unwrap()), "{m}");
    }
}

/// As KataGo's: allowMoves and avoidMoves steer the search, not the policy
/// or the priors (KaTrain sweeps and picks from the policy of a node it last
/// analysed with a region of interest).
#[test]
fn allow_and_avoid_leave_the_policy_whole() {
    let policy = json!({"includePolicy": true});
    let plain = one(with(policy.clone()));
    let index = |v: &str| {
        if v == "pass" {
            return 81;
        }
        let x = "ABCDEFGHJ".find(&v[..1]).unwrap();
        let y = 9 - v[1..].parse::<usize>().unwrap();
        y * 9 + x
    };
    let whole = plain[0]["policy"].as_array().unwrap().clone();
    assert!(whole[index("E3")].as_f64().unwrap() > 0.0);
    for (field, moves) in [("avoidMoves", ["E3", "D4"]), ("allowMoves", ["A1", "J9"])] {
        let mut q = with(policy.clone());
        q[field] = json!([{"player":"B","moves":moves,"untilDepth":1}]);
        q["overrideSettings"] = json!({"humanSLProfile": "rank_5k"});
        let r = session(&["--human-model", "any-file"], &[q.to_string()]);
        let r = r.last().unwrap();
        assert_eq!(r["policy"].as_array().unwrap(), &whole, "{field}");
        assert_eq!(r["humanPolicy"].as_array().unwrap(), &whole, "{field}");
        for m in r["moveInfos"].as_array().unwrap() {
            let mv = m["move"].as_str().unwrap();
            assert_eq!(m["prior"], whole[index(mv)], "{field} {mv}");
            assert_eq!(moves.contains(&mv), field == "allowMoves", "{field} {mv}");
        }
    }
}

struct Live {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Live {
    fn new() -> Live {
        let mut child = spawn(&["--analysis-threads", "1"]);
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Live {
            child,
            stdin,
            stdout,
        }
    }
    fn send(&mut self, v: Value) {
        writeln!(self.stdin, "{v}").unwrap();
        self.stdin.flush().unwrap();
    }
    fn next(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    }
}

fn long(id: &str) -> Value {
    with(json!({"id": id, "maxVisits": 1u64 << 40, "reportDuringSearchEvery": 0.02}))
}

#[test]
fn live_reports_terminate_and_priorities() {
    let mut s = Live::new();
    s.send(long("long"));
    // A live report comes while the search runs.
    let first = s.next();
    assert_eq!(first["id"], "long");
    assert_eq!(first["isDuringSearch"], true);
    // Queued behind it: "low" first, then "high" with a higher priority,
    // and "gone", terminated before it starts.
    s.send(with(json!({"id":"low","maxVisits":5})));
    s.send(with(json!({"id":"high","maxVisits":5,"priority":10})));
    s.send(with(json!({"id":"gone","maxVisits":5})));
    s.send(json!({"id":"t1","action":"terminate","terminateId":"gone"}));
    s.send(json!({"id":"t2","action":"terminate","terminateId":"long"}));
    let mut seen = Vec::new();
    loop {
        let v = s.next();
        if v["isDuringSearch"] == true {
            continue;
        }
        let id = v["id"].as_str().unwrap().to_string();
        if id == "gone" {
            assert_eq!(v["noResults"], true);
        }
        if id == "long" {
            assert!(v["moveInfos"].is_array());
        }
        seen.push(id);
        if seen.len() == 6 {
            break;
        }
    }
    let pos = |id: &str| seen.iter().position(|s| s == id).unwrap();
    assert!(pos("gone") < pos("t1"), "{seen:?}");
    assert!(
        pos("long") < pos("high") && pos("high") < pos("low"),
        "{seen:?}"
    );
    // terminate_all stops everything; closing stdin ends the process.
    s.send(long("a"));
    assert_eq!(s.next()["isDuringSearch"], true);
    s.send(json!({"id":"all","action":"terminate_all"}));
    let mut ids = Vec::new();
    while ids.len() < 2 {
        let v = s.next();
        if v["isDuringSearch"] != true {
            ids.push(v["id"].as_str().unwrap().to_string());
        }
    }
    ids.sort();
    assert_eq!(ids, ["a", "all"]);
    drop(s.stdin);
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn quit_without_waiting() {
    let mut child = spawn(&["-quit-without-waiting"]);
    {
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", with(json!({"maxVisits": 1u64 << 40}))).unwrap();
    }
    // Without the option this would search for hours.
    assert!(child.wait().unwrap().success());
}

#[test]
fn katago_command_line_is_accepted() {
    let cfg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/kosumi-analysis.cfg"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "analysis",
            "-config",
            cfg,
            "-model",
            "none.bin.gz",
            "-override-config",
            "maxVisits=30,logDir=x",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("model none.bin.gz is ignored"), "{err}");
    assert!(
        err.contains("logDir") && err.contains("nnCacheSizePowerOfTwo"),
        "{err}"
    );
    // Repeated: the later file and the later override win, as in KataGo;
    // KaTrain's 12 positions of 8 threads are cut to the cores, said once.
    let katrain = std::env::temp_dir().join(format!("kosumi-katrain-{}.cfg", std::process::id()));
    std::fs::write(&katrain, "numAnalysisThreads = 12\nnumSearchThreads = 8\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args([
            "analysis",
            "-config",
            cfg,
            "-config",
            katrain.to_str().unwrap(),
        ])
        .args([
            "-override-config",
            "maxVisits=30",
            "-override-config",
            "maxVisits=9",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{}", base()).unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&katrain);
    assert!(out.status.success());
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["rootInfo"]["visits"], 9, "{r}");
    let err = String::from_utf8_lossy(&out.stderr);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(
        err.matches("would overload").count(),
        usize::from(cores < 96),
        "{err}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_kosumi"))
        .args(["analysis", "-config", "/no/such/file.cfg"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_level_adds_its_move_and_leaves_the_analysis_alone() {
    let plain = one(base());
    let leveled = one(with(json!({"level": 1})));
    let (plain, leveled) = (plain.last().unwrap(), leveled.last().unwrap());
    assert!(plain.get("levelMove").is_none());
    let mv = leveled["levelMove"].as_str().unwrap();
    assert!(mv.len() >= 2 && mv != "E5" && mv != "C3", "{mv}");
    // The same search, reported the same way.
    assert_eq!(plain["moveInfos"], leveled["moveInfos"]);
    assert_eq!(plain["rootInfo"], leveled["rootInfo"]);
    // From the command line, for every query; a query's own level wins.
    let r = session(&["--level", "4"], &[base().to_string()]);
    assert!(r.last().unwrap()["levelMove"].is_string());
    let r = session(
        &["--level", "4"],
        &[with(json!({"overrideSettings": {"kosumiLevel": 10}})).to_string()],
    );
    assert!(r.last().unwrap()["levelMove"].is_string());
}

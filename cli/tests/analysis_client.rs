//! `kosumi analysis` driven end to end by a client library of KataGo's
//! analysis protocol written by someone else: the `katago-analysis` crate
//! (crates.io), which launches "KataGo" as `PATH analysis -config FILE
//! -model FILE` and parses every response into its own types. kosumi is
//! given as the KataGo path; the model file does not exist and is ignored.

use katago_analysis::engine::{Engine, LaunchOptions};
use katago_analysis::{
    AnalysisRequest, Analyzer, Config, Error, IgnoreWarnings, Move, Player, ReturnWarnings, Rules,
};
use std::ops::ControlFlow;

fn options() -> LaunchOptions {
    let cfg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/kosumi-analysis.cfg"
    );
    LaunchOptions::new(
        env!("CARGO_BIN_EXE_kosumi").to_string(),
        cfg.to_string(),
        "no-such-model.bin.gz".to_string(),
    )
    // Fixed seed, one thread per search: the same answers every run.
    .with_override_config(Config::new().with("maxVisits", 48))
}

fn launch<W>() -> Analyzer<W>
where
    W: katago_analysis::WarningHandling + Default + Clone + 'static,
    Analyzer<W>: From<Engine>,
{
    Engine::launch(&options()).expect("kosumi starts").into()
}

fn mv(s: &str) -> Move {
    Move::from_gtp(s, 9).unwrap()
}

fn game() -> Vec<(Player, Move)> {
    ["E5", "C3", "G7", "D7", "C6"]
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let p = if i % 2 == 0 {
                Player::Black
            } else {
                Player::White
            };
            (p, mv(s))
        })
        .collect()
}

#[tokio::test]
async fn version_and_a_whole_game() {
    let mut a: Analyzer = launch();
    let v = a.query_version().await.unwrap();
    assert_eq!(v.version, env!("CARGO_PKG_VERSION"));
    let models = a.query_models().await.unwrap();
    assert_eq!(models.len(), 1);
    a.clear_cache().await.unwrap();

    let req = AnalysisRequest::new(Rules::japanese(), 9, 9, game()).with_komi(6.5);
    let results = a.analyze_game(req).await.unwrap();
    assert_eq!(results.len(), 6);
    for (turn, r) in &results {
        assert_eq!(r.turn_number, *turn);
        assert!(!r.is_during_search);
        let to_move = if turn % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        assert_eq!(r.root_info.current_player, to_move);
        assert!(r.root_info.visits >= 48, "{}", r.root_info.visits);
        assert!(!r.move_infos.is_empty());
        for (order, m) in r.move_infos.iter().enumerate() {
            assert_eq!(m.order, order);
            assert!((0.0..=1.0).contains(&m.winrate));
            assert!((0.0..=1.0).contains(&m.prior));
            assert_eq!(m.pv[0], m.mv);
            assert!(m.visits > 0);
        }
        let sum: u32 = r.move_infos.iter().map(|m| m.visits).sum();
        assert!(sum <= r.root_info.visits);
        assert!(r.ownership.is_none() && r.policy.is_none());
    }
}

#[tokio::test]
async fn ownership_policy_and_pv_visits() {
    let mut a: Analyzer = launch();
    let req = AnalysisRequest::new(Rules::chinese(), 9, 9, game())
        .with_komi(7.5)
        .with_ownership()
        .with_policy()
        .with_pv_visits();
    let r = a.analyze(req).await.unwrap().unwrap();
    let own = r.ownership.unwrap();
    assert_eq!(own.raw.len(), 81);
    assert!(own.raw.iter().all(|v| (-1.0..=1.0).contains(v)));
    let policy = r.policy.unwrap();
    assert_eq!(policy.raw.len(), 81);
    // Occupied points are illegal: -1. The rest sums to one with the pass.
    assert_eq!(*policy.get(4, 4), -1.0);
    let total: f64 =
        policy.raw.iter().filter(|&&p| p >= 0.0).sum::<f64>() + r.policy_pass.unwrap().max(0.0);
    assert!((total - 1.0).abs() < 1e-6, "{total}");
    for m in &r.move_infos {
        let v = m.pv_visits.as_ref().unwrap();
        assert_eq!(v.len(), m.pv.len());
        assert_eq!(v[0], m.visits);
        assert!(v.windows(2).all(|w| w[0] >= w[1]));
    }
}

#[tokio::test]
async fn live_reports_and_terminate() {
    let mut a: Analyzer = launch();
    let req = AnalysisRequest::new(Rules::tromp_taylor(), 9, 9, game())
        .with_max_visits(50_000_000)
        .with_report_during_search_every(0.05);
    let mut progress = a.start_analyze(req).await.unwrap();
    // Wait for one live report, then stop the search.
    progress = match progress.poll().await {
        ControlFlow::Continue(p) => p,
        ControlFlow::Break(r) => panic!("finished before any report: {r:?}"),
    };
    let live = progress.read().await.as_ref().unwrap().clone().unwrap();
    assert!(live.is_during_search);
    a.terminate(&progress).await.unwrap();
    let last = loop {
        match progress.poll().await {
            ControlFlow::Continue(p) => progress = p,
            ControlFlow::Break(r) => break r,
        }
    };
    let last = last.unwrap().unwrap();
    assert!(!last.is_during_search);
    assert!(last.root_info.visits < 50_000_000);
}

#[tokio::test]
async fn errors_reach_the_client() {
    let mut a: Analyzer = launch();
    let illegal = vec![(Player::Black, mv("E5")), (Player::White, mv("E5"))];
    let e = a
        .analyze(AnalysisRequest::new(Rules::japanese(), 9, 9, illegal))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::KataGoFieldError { field, error } if field == "moves" && error == "Illegal move 1: E5"),
        "{e:?}"
    );
    let e = a
        .analyze(AnalysisRequest::new(Rules::japanese(), 9, 13, vec![]))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::KataGoFieldError { field, .. } if field == "boardYSize"),
        "{e:?}"
    );
    // The engine is still there after errors.
    let ok = a
        .analyze(AnalysisRequest::new(Rules::japanese(), 9, 9, game()))
        .await
        .unwrap();
    assert!(ok.is_some());
}

#[tokio::test]
async fn warnings_for_what_kosumi_ignores() {
    let mut a: Analyzer<ReturnWarnings> = launch();
    let req = AnalysisRequest::new(Rules::aga(), 9, 9, game())
        .with_root_policy_temperature(2.0)
        .with_override_settings(Config::new().with("wideRootNoise", 0.04));
    let r = a.analyze(req).await.unwrap();
    let warnings = r.warnings.unwrap();
    let fields: Vec<&str> = warnings.iter().map(|w| w.field.as_str()).collect();
    assert!(fields.contains(&"rootPolicyTemperature"), "{fields:?}");
    assert!(fields.contains(&"overrideSettings"), "{fields:?}");
    assert!(r.value.is_some());
    // Stone scoring is analysed under the nearest rules, with a warning.
    let r = a
        .analyze(AnalysisRequest::new(Rules::stone_scoring(), 9, 9, game()))
        .await
        .unwrap();
    assert_eq!(r.warnings.unwrap()[0].field, "rules");
    assert!(r.value.is_some());
    // The same query with warnings ignored gives the same answer.
    let mut b: Analyzer<IgnoreWarnings> = launch();
    let req = AnalysisRequest::new(Rules::aga(), 9, 9, game()).with_root_policy_temperature(2.0);
    assert!(b.analyze(req).await.unwrap().is_some());
}

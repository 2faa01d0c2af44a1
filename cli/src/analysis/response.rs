//! Analysis responses in KataGo's form, built from the search's [`Analysis`].
//!
//! kosumi has no neural network: the `raw*` fields of `rootInfo` repeat the
//! root's own values, `scoreStdev` is the spread of the final scores of the
//! playouts, `utility` is the win rate mapped to [-1, 1] as `kata-analyze`
//! reports it, and the weights are the visit counts. They are there because
//! clients written for KataGo expect them.

use super::query::Position;
use kosumi::board::{Board, Color, Move, Vertex};
use kosumi::search::{Analysis, Candidate, Decision};
use serde::Serialize;
use serde_json::Value;

/// One candidate move.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveInfo {
    #[serde(rename = "move")]
    mv: String,
    visits: u64,
    edge_visits: u64,
    winrate: f64,
    score_lead: f64,
    score_mean: f64,
    score_selfplay: f64,
    score_stdev: f64,
    prior: f64,
    utility: f64,
    lcb: f64,
    utility_lcb: f64,
    weight: f64,
    edge_weight: f64,
    order: usize,
    play_selection_value: f64,
    pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv_visits: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv_edge_visits: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ownership: Option<Vec<f64>>,
}

/// The position as a whole.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RootInfo {
    winrate: f64,
    score_lead: f64,
    score_selfplay: f64,
    score_stdev: f64,
    utility: f64,
    lcb: f64,
    visits: u64,
    weight: f64,
    this_hash: String,
    sym_hash: String,
    current_player: &'static str,
    raw_winrate: f64,
    raw_lead: f64,
    raw_score_selfplay: f64,
    raw_score_selfplay_stdev: f64,
    raw_no_result_prob: f64,
    raw_st_wr_error: f64,
    raw_st_score_error: f64,
    raw_var_time_left: f64,
}

/// A whole response line.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Response<'a> {
    id: &'a str,
    turn_number: usize,
    is_during_search: bool,
    move_infos: Vec<MoveInfo>,
    root_info: RootInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    ownership: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    human_policy: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level_move: Option<String>,
}

/// The response to a position that got no search at all (terminated first).
pub fn no_results(pos: &Position) -> Value {
    serde_json::json!({
        "id": pos.id,
        "turnNumber": pos.turn,
        "isDuringSearch": false,
        "noResults": true,
    })
}

/// The response for `pos` from `a`.
pub fn analysis(pos: &Position, a: &Analysis, during: bool, level_move: Option<Decision>) -> Value {
    let size = pos.game.board().size();
    let s = &pos.settings;
    let flip = s.base.perspective.flips(pos.to_move);
    let wr = |w: f64| if flip { 1.0 - w } else { w };
    let sc = |x: f64| if flip { -x } else { x };
    // Ownership comes positive for Black; SIDETOMOVE and WHITE turn it.
    let own_flip = match s.base.perspective {
        super::query::Perspective::Black => false,
        super::query::Perspective::White => true,
        super::query::Perspective::SideToMove => pos.to_move == Color::White,
    };
    let own_view =
        |own: &[f64]| -> Vec<f64> { own.iter().map(|&v| if own_flip { -v } else { v }).collect() };
    let name = |m: Move| Vertex::from_move(m, size).to_string();
    // Playouts to visits, rounded down so that the candidates' visits add
    // up to no more than the root's; a move with less than a visit's
    // playouts is left out, as KataGo leaves out moves it did not visit,
    // unless it is the first (a search stopped that early still has one).
    let per_visit = s.base.per_visit();
    let to_visits = |playouts: u64| playouts / per_visit;
    let shown = |i: usize, playouts: u64| playouts > 0 && (i == 0 || to_visits(playouts) > 0);
    let estimates = estimates(a);
    let move_infos = a
        .candidates
        .iter()
        .zip(&estimates)
        .enumerate()
        .filter(|(i, (c, _))| shown(*i, c.visits))
        .map(|(_, x)| x)
        .enumerate()
        .map(|(order, (c, &(winrate, score)))| {
            let pv_len = s.base.pv_len.max(1);
            let pv_visits: Vec<u64> = c
                .pv_visits
                .iter()
                .take(pv_len)
                .map(|&v| to_visits(v).max(1))
                .collect();
            let visits = to_visits(c.visits).max(1);
            MoveInfo {
                mv: name(c.mv),
                visits,
                edge_visits: visits,
                winrate: wr(winrate),
                score_lead: sc(score),
                score_mean: sc(score),
                score_selfplay: sc(score),
                score_stdev: c.score_stdev,
                prior: c.prior,
                utility: sc(2.0 * winrate - 1.0),
                lcb: wr(c.lcb),
                utility_lcb: sc(2.0 * c.lcb - 1.0),
                weight: visits as f64,
                edge_weight: visits as f64,
                order,
                play_selection_value: visits as f64,
                pv: c.pv.iter().take(pv_len).map(|&m| name(m)).collect(),
                pv_visits: s.pv_visits.then(|| pv_visits.clone()),
                pv_edge_visits: s.pv_visits.then_some(pv_visits),
                ownership: (s.move_ownership && c.ownership.len() == size * size)
                    .then(|| own_view(&c.ownership)),
            }
        })
        .collect::<Vec<_>>();
    // The root's own values, as KataGo reports them: the mean over all its
    // playouts, not the best move's.
    let root = &a.root;
    let n = root.visits.max(1) as f64;
    let root_visits = to_visits(root.visits).max(1);
    let root_lcb =
        (root.winrate - 1.96 * (root.winrate * (1.0 - root.winrate) / n).sqrt()).clamp(0.0, 1.0);
    let board = pos.game.board();
    let root_info = RootInfo {
        winrate: wr(root.winrate),
        score_lead: sc(root.score_lead),
        score_selfplay: sc(root.score_lead),
        score_stdev: root.score_stdev,
        utility: sc(2.0 * root.winrate - 1.0),
        lcb: wr(root_lcb),
        visits: root_visits,
        weight: root_visits as f64,
        this_hash: this_hash(board, pos.to_move),
        sym_hash: sym_hash(board, pos.to_move),
        current_player: if pos.to_move == Color::Black {
            "B"
        } else {
            "W"
        },
        raw_winrate: wr(root.winrate),
        raw_lead: sc(root.score_lead),
        raw_score_selfplay: sc(root.score_lead),
        raw_score_selfplay_stdev: root.score_stdev,
        raw_no_result_prob: 0.0,
        raw_st_wr_error: 0.0,
        raw_st_score_error: 0.0,
        raw_var_time_left: 0.0,
    };
    let ownership =
        (s.ownership && a.ownership.len() == size * size).then(|| own_view(&a.ownership));
    let policy = s.policy.then(|| policy(pos, a));
    // One model, learned from strong amateurs, answers for every profile.
    let human = s.base.human_model && s.base.human_profile.is_some();
    let human_policy = policy.clone().filter(|_| human);
    let r = Response {
        id: &pos.id,
        turn_number: pos.turn,
        is_during_search: during,
        move_infos,
        root_info,
        ownership,
        policy,
        human_policy,
        level_move: level_move.map(|d| match d {
            Decision::Play(m) => name(m),
            Decision::Resign => "resign".to_string(),
        }),
    };
    serde_json::to_value(r).expect("plain data serialises")
}

/// Each candidate's win rate and score lead, shrunk toward the root's as
/// far as its playouts leave it uncertain. One playout's final score spreads
/// by some 50 to 70 points on 19x19, so a move with a dozen playouts would
/// otherwise swing by tens of points between two runs, and every "points
/// lost" a client derives from it with it. Empirical Bayes: how far the
/// candidates' true values spread is estimated from the candidates
/// themselves (the between-groups part of a one-way analysis of variance),
/// and each mean weighs against the root's as `n / (n + noise / spread)`.
fn estimates(a: &Analysis) -> Vec<(f64, f64)> {
    let root = &a.root;
    let w = root.winrate.clamp(0.01, 0.99);
    let winrates = shrink(a, root.winrate, w * (1.0 - w), |c| c.winrate);
    let scores = shrink(a, root.score_lead, root.score_stdev.powi(2), |c| {
        c.score_lead
    });
    winrates.into_iter().zip(scores).collect()
}

/// The candidates' `value`s, each pulled toward `center` by the share of
/// `noise` (one playout's variance) its visits leave in its mean.
fn shrink(a: &Analysis, center: f64, noise: f64, value: impl Fn(&Candidate) -> f64) -> Vec<f64> {
    let seen: Vec<(f64, f64)> = a
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| (c.visits as f64, value(c)))
        .collect();
    let n: f64 = seen.iter().map(|s| s.0).sum();
    if seen.len() < 2 || noise <= 0.0 {
        return a.candidates.iter().map(value).collect();
    }
    let between: f64 = seen.iter().map(|&(k, v)| k * (v - center).powi(2)).sum();
    let weight = n - seen.iter().map(|s| s.0 * s.0).sum::<f64>() / n;
    let spread = ((between - (seen.len() - 1) as f64 * noise) / weight.max(1.0)).max(noise / n);
    a.candidates
        .iter()
        .map(|c| {
            let k = c.visits as f64;
            center + (value(c) - center) * k / (k + noise / spread)
        })
        .collect()
}

/// `size * size + 1` priors, row by row from the top-left, pass last; -1 for
/// moves the search may not play.
fn policy(pos: &Position, a: &Analysis) -> Vec<f64> {
    let size = pos.game.board().size();
    let index = |m: Move| match m {
        Move::Pass => size * size,
        Move::Play(p) => p.y() * size + p.x(),
    };
    let mut out = vec![-1.0; size * size + 1];
    if a.policy.is_empty() {
        // The root was never expanded: every legal move alike.
        let legal: Vec<Move> = pos
            .game
            .board()
            .points()
            .map(Move::Play)
            .chain([Move::Pass])
            .filter(|&m| pos.game.is_legal(pos.to_move, m))
            .collect();
        for &m in &legal {
            out[index(m)] = 1.0 / legal.len() as f64;
        }
    } else {
        for &(m, p) in &a.policy {
            out[index(m)] = p;
        }
    }
    out
}

fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A 128-bit hex key of the stones, the player to move and the ko point.
fn this_hash(board: &Board, to_move: Color) -> String {
    let h = board.position_hash() ^ mix(to_move.index() as u64 + 1);
    let ko = board.ko_point().map_or(0, |p| p.index() as u64 + 1);
    format!("{:016X}{:016X}", h, mix(h ^ mix(ko ^ 0x6b6f)))
}

/// As [`this_hash`] but the same for the eight symmetric positions.
fn sym_hash(board: &Board, to_move: Color) -> String {
    let n = board.size();
    let best = (0..8)
        .map(|sym| {
            board.points().fold(0u64, |acc, p| match board.get(p) {
                None => acc,
                Some(c) => {
                    let (mut x, mut y) = (p.x(), p.y());
                    if sym & 1 != 0 {
                        x = n - 1 - x;
                    }
                    if sym & 2 != 0 {
                        y = n - 1 - y;
                    }
                    if sym & 4 != 0 {
                        std::mem::swap(&mut x, &mut y);
                    }
                    acc.wrapping_add(mix(((y * n + x) * 2 + c.index()) as u64 + 1))
                }
            })
        })
        .min()
        .unwrap_or(0)
        ^ mix(to_move.index() as u64 + 7);
    format!("{:016X}{:016X}", best, mix(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kosumi::board::Point;
    use kosumi::search::RootValues;

    #[test]
    fn few_playouts_are_pulled_toward_the_root_many_barely() {
        let cand = |x: usize, visits: u64, score_lead: f64| Candidate {
            mv: Move::Play(Point::new(x, 0)),
            visits,
            winrate: 0.5,
            prior: 0.1,
            lcb: 0.4,
            score_lead,
            pv: Vec::new(),
            pv_visits: Vec::new(),
            score_stdev: 60.0,
            ownership: Vec::new(),
        };
        let a = Analysis {
            root: RootValues {
                visits: 1000,
                winrate: 0.5,
                score_lead: 0.0,
                score_stdev: 60.0,
            },
            candidates: vec![cand(0, 600, 4.0), cand(1, 380, -6.0), cand(2, 12, 20.0)],
            ..Analysis::default()
        };
        let est = estimates(&a);
        // Scores: the well-visited moves keep most of their lead, the move
        // with a dozen playouts keeps little of its 20 points.
        assert!(est[0].1 > 3.0 && est[0].1 < 4.0, "{est:?}");
        assert!(est[1].1 < -4.0 && est[1].1 > -6.0, "{est:?}");
        assert!(est[2].1 > 0.0 && est[2].1 < 5.0, "{est:?}");
    }
}

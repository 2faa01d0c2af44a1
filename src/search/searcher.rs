//! The searcher: UCT with RAVE and priors over a shared tree, heavy
//! playouts, threads with virtual loss, time control and the final choice
//! (pass, resign, cleanup).
//!
//! # Evaluation
//! A playout ends when neither side has a move that is legal, fills no own
//! true eye and is no pointless self-atari (or at the mercy rule or a move
//! cap). The final board is counted by area: stones plus empty points whose
//! neighbours are all one colour. Under area rules the score is that count
//! minus komi and White's points for the handicap stones. Under territory
//! rules (Japanese, Swedish) the score is the area count minus the
//! difference of stones placed by Black and White up to the end of the
//! *tree* path (setup and handicap stones included, which equals on-board
//! stones plus prisoners taken from that colour): territory
//! plus prisoners equals area minus stones placed, and the stones a random
//! playout puts into its own territory are not real moves, so only real
//! (game and tree) stones are charged. Filling one's own territory or
//! playing a stone that dies then costs a point, as under Japanese counting;
//! a pass under Swedish rules counts as a placed stone (the pass stone).
//!
//! The value backed up is mostly the win (1, 0.5 for jigo, 0) with a small
//! share of a squashed score, so the search still prefers bigger wins and
//! smaller losses when the result looks decided (handicap games, far ahead
//! or behind).

use super::config::{ParamError, SearchConfig, TreeSettings, SMALL_BOARD_MAX};
use super::dynkomi::{self, Lopsided};
use super::ending;
use super::patterns::Context;
use super::policy::{KoFight, Policy, Prior};
use super::replies::Replies;
use super::time::Clock;
use super::tree::{Arena, Node, EXPANDED, EXPANDING, LEAF, PASS, SCORE_ONE, VALUE_ONE};
use super::{Analysis, Candidate, Decision, Limits, RootValues, SearchParams};
use crate::board::{Bitboard, Board, Color, FastRng, Game, Move, Point, Vertex, SLOTS};
use fxhash::FxHashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::*};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Own genmoves in a row below the resign threshold before resigning.
const RESIGN_STREAK: u32 = 3;
/// Playouts below which the win rate is not trusted for resigning.
const RESIGN_MIN_PLAYOUTS: u64 = 200;

/// The count's pass (`ending::passing_wins`) overrides the search only
/// while the search's best move wins less often than this. The count is
/// made for finished positions; a search sure of winning with a move has
/// usually seen a threat the count has not: in a 9x9 game against GNU Go
/// kosumi passed three times at 90% while White took the liberties of
/// its H1-H2 stones one by one, the count still saying B+4.5, and lost.
const COUNT_PASS_BELOW: f64 = 0.8;

/// How much lower than the search's pass a move's win rate may be and still
/// be played instead of passing into an open border
/// (`ending::may_pass_first`).
const OPEN_BORDER_SLACK: f64 = 0.05;

/// Node memory assumed per node when turning bytes into a node cap.
const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// How one search is bounded.
#[derive(Clone, Debug, Default)]
struct Control {
    playouts: Option<u64>,
    soft: Option<Duration>,
    hard: Option<Duration>,
    early_stop: bool,
    /// Root moves the search may try (all when empty) and must not try.
    allow: Vec<Move>,
    avoid: Vec<Move>,
    move_ownership: bool,
}

/// The tree kept between searches, rooted at `root_game`.
struct TreeState {
    arena: Arena,
    root_game: Game,
    root_color: Color,
}

#[inline]
fn move_code(mv: Move) -> u16 {
    match mv {
        Move::Pass => PASS,
        Move::Play(p) => p.index() as u16,
    }
}

#[inline]
fn code_move(code: u16) -> Move {
    if code == PASS {
        Move::Pass
    } else {
        Move::Play(Point::from_index(code as usize))
    }
}

impl TreeState {
    /// The node of the position `game` with `color` to move, if the tree has it.
    fn find(&self, game: &Game, color: Color) -> Option<u32> {
        let rg = &self.root_game;
        if rg.board().size() != game.board().size()
            || rg.komi() != game.komi()
            || rg.rules() != game.rules()
        {
            return None;
        }
        let (base, now) = (rg.moves(), game.moves());
        if now.len() < base.len() || now[..base.len()] != base[..] {
            return None;
        }
        let mut g = rg.clone();
        let mut node = 0u32;
        let mut to_move = self.root_color;
        for &(c, mv) in &now[base.len()..] {
            if c != to_move {
                return None;
            }
            g.play(c, mv).ok()?;
            let (first, n) = self.arena.get(node).children()?;
            let code = move_code(mv);
            node =
                (first..first + n as u32).find(|&i| self.arena.get(i).mv.load(Relaxed) == code)?;
            to_move = to_move.opponent();
        }
        (to_move == color && g.board() == game.board()).then_some(node)
    }
}

/// The Monte Carlo tree search player.
///
/// ```
/// use kosumi::board::{Color, Game, Rules};
/// use kosumi::search::{Clock, Decision, SearchParams, Searcher};
/// use std::sync::atomic::AtomicBool;
/// let params = SearchParams { threads: 1, playouts: Some(200), quiet: true, ..SearchParams::default() };
/// let mut searcher = Searcher::new(params);
/// let game = Game::new(9, Rules::japanese());
/// let (decision, analysis) = searcher.genmove(&game, Color::Black, &Clock::none(), false,
///     &AtomicBool::new(false), None, &mut |_| {});
/// assert!(matches!(decision, Decision::Play(_)));
/// // It may stop early once the best move cannot be overtaken.
/// assert!(analysis.playouts > 0 && analysis.playouts <= 200);
/// ```
pub struct Searcher {
    params: SearchParams,
    policy: Policy,
    settings: TreeSettings,
    tree: Option<TreeState>,
    /// Own moves in a row below the resign threshold, per colour.
    low_streak: [u32; 2],
    /// The lopsided-position part of the dynamic komi.
    lopsided: Lopsided,
    /// Games begun with [`Searcher::clear`]: mixed into the seed so that a
    /// match's games differ while a session stays reproducible.
    games: u64,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("params", &self.params)
            .field("tree_nodes", &self.tree_nodes())
            .finish()
    }
}

/// Playouts per move when neither a clock, a time per move nor a playout
/// count is set: about a second on one core of a small machine.
pub fn default_playouts(size: usize) -> u64 {
    if size <= 9 {
        10_000
    } else {
        8_000
    }
}

impl Searcher {
    /// A searcher with these settings and the built-in policy.
    pub fn new(params: SearchParams) -> Searcher {
        Searcher::with_policy(params, Policy::default())
    }

    /// A searcher with these settings, a policy and the default tree settings.
    pub fn with_policy(params: SearchParams, mut policy: Policy) -> Searcher {
        policy.refresh();
        Searcher {
            params,
            policy,
            settings: TreeSettings::default(),
            tree: None,
            low_streak: [0; 2],
            lopsided: Lopsided::default(),
            games: 0,
        }
    }

    /// The settings.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Changes the settings; the tree is kept unless the memory cap changed.
    pub fn set_params(&mut self, p: SearchParams) {
        if p.max_memory != self.params.max_memory {
            self.tree = None;
        }
        self.params = p;
    }

    /// Every tunable: the tree's settings and the policy's.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            tree: self.settings.clone(),
            prior: self.policy.prior.clone(),
            playout: self.policy.playout.clone(),
        }
    }

    /// Sets a tunable by name (see [`SearchConfig::set`]); the tree is
    /// forgotten, since its priors were made with the old value.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let mut config = self.config();
        config.set(name, value)?;
        (self.settings, self.policy.prior, self.policy.playout) =
            (config.tree, config.prior, config.playout);
        self.tree = None;
        Ok(())
    }

    /// Forgets the tree (new game, board size change).
    pub fn clear(&mut self) {
        self.tree = None;
        self.low_streak = [0; 2];
        self.lopsided = Lopsided::default();
        self.games += 1;
    }

    /// Nodes in the tree now.
    pub fn tree_nodes(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.arena.used())
    }

    /// Most nodes the tree may hold under `max_memory` (a third is kept free
    /// for copying the reused part of the tree between moves).
    pub fn tree_capacity(&self) -> usize {
        node_capacity(self.params.max_memory)
    }

    /// Chooses a move for `color` in `game` (`color` may differ from
    /// `game.to_move()`).
    ///
    /// Thinks for the clock's budget when a clock is set, else for
    /// `params.time_per_move`, else for `params.playouts` (or
    /// [`default_playouts`]), stopping early when the best move cannot be
    /// overtaken, and at once when `stop` becomes true. `report` is called
    /// from this thread about every `report_every`. With `cleanup` (KGS
    /// cleanup phase) dead stones are captured before passing and the search
    /// counts by area. Below full strength ([`SearchParams::level`]) the
    /// level's own playout budget replaces the playout and time settings
    /// (within the clock's budget), the tree starts afresh, and the level
    /// chooses among the analysed moves ([`super::Level::choose`]).
    #[allow(clippy::too_many_arguments)]
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        clock: &Clock,
        cleanup: bool,
        stop: &AtomicBool,
        report_every: Option<Duration>,
        report: &mut dyn FnMut(&Analysis),
    ) -> (Decision, Analysis) {
        let level = self.params.level;
        let ctl = if let Some(playouts) = level.playouts(game.board().size()) {
            // A weak level reads its own short budget afresh (no tree kept
            // from earlier moves or pondering), within the clock's.
            self.tree = None;
            let budget = clock.budget_range(color, game);
            Control {
                playouts: Some(playouts),
                soft: budget.map(|b| b.0),
                hard: budget.map(|b| b.1),
                early_stop: true,
                ..Control::default()
            }
        } else if let Some((soft, hard)) = clock.budget_range(color, game) {
            Control {
                soft: Some(soft),
                hard: Some(hard),
                early_stop: true,
                ..Control::default()
            }
        } else if let Some(t) = self
            .params
            .time_per_move
            .filter(|t| t.is_finite() && *t >= 0.0)
        {
            // A fixed time per move is spent whole: time saved on a clear
            // move cannot be used later, while the search goes on deepening
            // the subtree the next move reuses.
            let t = Duration::from_secs_f64(t);
            Control {
                soft: Some(t),
                hard: Some(t),
                early_stop: false,
                ..Control::default()
            }
        } else {
            Control {
                playouts: Some(
                    self.params
                        .playouts
                        .unwrap_or_else(|| default_playouts(game.board().size())),
                ),
                early_stop: true,
                ..Control::default()
            }
        };
        let analysis = self.search(game, color, ctl, cleanup, stop, report_every, report);
        let mut decision = self.decide(game, color, cleanup, &analysis);
        if let (Decision::Play(searched), false) = (decision, cleanup) {
            let seed = self.params.seed
                ^ self.games.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                ^ (game.moves().len() as u64 * 2 + color.index() as u64)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            decision = Decision::Play(level.choose(game, color, &analysis, searched, seed));
        }
        let extra = self.extra_komi(game);
        self.lopsided
            .update(&self.settings, game, color, &analysis.root);
        if !self.params.quiet {
            let size = game.board().size();
            let what = match decision {
                Decision::Resign => "resign".to_string(),
                Decision::Play(m) => Vertex::from_move(m, size).to_string(),
            };
            let secs = analysis.elapsed.as_secs_f64();
            let cap = self.tree_capacity();
            let dynamic = if extra != 0.0 {
                format!(", extra komi {extra:+.1}")
            } else {
                String::new()
            };
            eprintln!(
                "kosumi: {} {} after {} playouts in {:.2} s ({:.0}/s), win {:.1}%, score {:+.1}, nodes {}/{}{}",
                color,
                what,
                analysis.playouts,
                secs,
                analysis.playouts as f64 / secs.max(1e-9),
                analysis.winrate * 100.0,
                analysis.score_lead,
                self.tree_nodes(),
                cap,
                dynamic
            );
        }
        (decision, analysis)
    }

    /// Analyses `game` for `color` until `stop` or `limits` (no limit: until
    /// `stop`), reporting as [`Searcher::genmove`] does.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        stop: &AtomicBool,
        report_every: Option<Duration>,
        report: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let ctl = Control {
            playouts: limits.playouts,
            soft: limits.time,
            hard: limits.time,
            early_stop: false,
            allow: limits.allow,
            avoid: limits.avoid,
            move_ownership: limits.move_ownership,
        };
        self.search(game, color, ctl, false, stop, report_every, report)
    }

    /// The dynamic komi for White in `game` (see `dynkomi.rs`): what the
    /// playouts' wins are judged against beside the real komi.
    pub fn extra_komi(&self, game: &Game) -> f64 {
        dynkomi::handicap_extra(&self.settings, game) + self.lopsided.extra(game)
    }

    /// The tree root for `game`, reusing the old tree when it holds the position.
    fn prepare_root(&mut self, game: &Game, color: Color) -> u32 {
        let cap = self.tree_capacity();
        if let Some(ts) = &self.tree {
            if ts.arena.capacity() == cap {
                if let Some(node) = ts.find(game, color) {
                    if ts.arena.used() <= cap / 2 {
                        return node;
                    }
                    // Keep the part under the new root, within half the cap.
                    let arena = Arena::new(cap);
                    if let Some(root) = arena.copy_subtree(&ts.arena, node, cap / 2) {
                        self.tree = Some(TreeState {
                            arena,
                            root_game: game.clone(),
                            root_color: color,
                        });
                        return root;
                    }
                }
            }
        }
        self.tree = None;
        let arena = Arena::new(cap);
        let root = arena.alloc(1).expect("capacity is at least one node");
        self.tree = Some(TreeState {
            arena,
            root_game: game.clone(),
            root_color: color,
        });
        root
    }

    /// Runs one search; returns its analysis, with the ownership map.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        game: &Game,
        color: Color,
        ctl: Control,
        cleanup: bool,
        stop: &AtomicBool,
        report_every: Option<Duration>,
        report: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let start = Instant::now();
        let extra_komi = self.extra_komi(game);
        let root = self.prepare_root(game, color);
        let arena = &self.tree.as_ref().expect("prepared").arena;
        let board = game.board().clone();
        let size = board.size();
        let rules = game.rules();
        let mut illegal = vec![false; SLOTS];
        if rules.superko() {
            for p in board.points() {
                if board.is_legal(p, color) && !game.is_legal(color, Move::Play(p)) {
                    illegal[p.index()] = true;
                }
            }
        }
        let mut forbidden = illegal.clone();
        if !ctl.allow.is_empty() {
            let allowed: Vec<u16> = ctl.allow.iter().map(|&m| move_code(m)).collect();
            for (code, f) in forbidden.iter_mut().enumerate() {
                if !allowed.contains(&(code as u16)) {
                    *f = true;
                }
            }
        }
        for &m in &ctl.avoid {
            forbidden[move_code(m) as usize] = true;
        }
        let moves = game.moves();
        let root_passes = match moves.last() {
            Some(&(_, Move::Pass)) => 1,
            _ => 0,
        };
        let nth_last = |k: usize| moves.iter().rev().nth(k).and_then(|&(_, m)| m.point());
        let root_last = [nth_last(0), nth_last(1)];
        let stones_diff =
            board.stones(Color::Black).count() as i32 - board.stones(Color::White).count() as i32;
        let root_placed =
            stones_diff + board.captures(Color::White) as i32 - board.captures(Color::Black) as i32;
        // Centre the score term on what the reused tree expects, so it keeps
        // telling moves apart when one side is far ahead.
        let root_node = arena.get(root);
        let score_center = if root_node.visits() >= 100 {
            let s = root_node.mean_score();
            if color == Color::White {
                s
            } else {
                -s
            }
        } else {
            0.0
        };
        let late = board.empty_count() * 2 <= size * size;
        let (weights, small) = (&self.settings, size <= SMALL_BOARD_MAX);
        let threads = self.params.threads.max(1);
        let seed = self.params.seed
            ^ (moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.games.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let shared = Shared {
            arena,
            root,
            policy: &self.policy,
            settings: &self.settings,
            root_board: board,
            color,
            root_passes,
            late,
            root_last: root_last[0],
            root_last2: root_last[1],
            root_placed,
            territory: !rules.area_scoring() && !cleanup,
            pass_placed: rules.pass_gives_prisoner(),
            // What White gets at the end, handicap points included.
            komi: game.komi() + game.handicap_bonus(),
            extra_komi,
            illegal,
            forbidden,
            expand_at: if small {
                weights.expand_small
            } else {
                weights.expand_large
            } as u32,
            rave_equiv: if small {
                weights.rave_equiv_small
            } else {
                weights.rave_equiv_large
            },
            playout_limit: ctl.playouts.unwrap_or(u64::MAX),
            claimed: AtomicU64::new(0),
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            external: stop,
            ownership: (0..SLOTS).map(|_| AtomicI64::new(0)).collect(),
            own_samples: AtomicU64::new(0),
            root_spread: Spread::default(),
            spread: (0..SLOTS).map(|_| Spread::default()).collect(),
            move_own: ctl.move_ownership.then(|| Mutex::new(FxHashMap::default())),
            move_policy: OnceLock::new(),
            score_scale: 2.0 * size as f64,
            score_center,
            max_moves: 3 * size * size,
            mercy: (size * size / 4).max(10) as i32,
            replies: (self.policy.playout.last_good_reply > 0.0).then(Replies::new),
        };
        let quiet = self.params.quiet;
        std::thread::scope(|s| {
            for t in 1..threads {
                let sh = &shared;
                s.spawn(move || {
                    let mut w =
                        Worker::new(sh, seed.wrapping_add(t as u64 * 0xD1B5_4A32_D192_ED03));
                    while !sh.stopped() && w.playout() {}
                    w.flush();
                    sh.stop.store(true, Relaxed);
                });
            }
            let mut w = Worker::new(&shared, seed);
            let mut last_report = Instant::now();
            let mut last_log = Instant::now();
            let mut own_count = 0u64;
            let check_every = if size <= 9 { 32 } else { 8 };
            loop {
                if shared.stopped() || !w.playout() {
                    break;
                }
                own_count += 1;
                let elapsed = start.elapsed();
                if ctl.hard.is_some_and(|h| elapsed >= h) {
                    break;
                }
                if own_count.is_multiple_of(check_every) {
                    w.flush();
                    if shared.should_stop(&ctl, elapsed) {
                        break;
                    }
                    if let Some(every) = report_every {
                        if last_report.elapsed() >= every {
                            last_report = Instant::now();
                            report(&shared.analysis(start.elapsed(), true));
                        }
                    }
                    if !quiet && last_log.elapsed() >= Duration::from_secs(1) {
                        last_log = Instant::now();
                        log_progress(&shared.analysis(start.elapsed(), false), size);
                    }
                }
            }
            w.flush();
            shared.stop.store(true, Relaxed);
        });
        shared.analysis(start.elapsed(), true)
    }

    /// The move to play from the analysis: the most visited, with the pass,
    /// cleanup and resign rules.
    fn decide(
        &mut self,
        game: &Game,
        color: Color,
        cleanup: bool,
        analysis: &Analysis,
    ) -> Decision {
        let board = game.board();
        let Some(best) = analysis.candidates.first() else {
            return Decision::Play(self.fallback_move(game, color));
        };
        let size = board.size();
        // Resign after several hopeless moves, never early in the game.
        let threshold = self.params.resign_threshold;
        if threshold > 0.0
            && game.moves().len() >= size * size / 5
            && analysis.candidates.iter().map(|c| c.visits).sum::<u64>() >= RESIGN_MIN_PLAYOUTS
            && best.winrate < threshold
        {
            self.low_streak[color.index()] += 1;
            if self.low_streak[color.index()] >= RESIGN_STREAK {
                return Decision::Resign;
            }
        } else {
            self.low_streak[color.index()] = 0;
        }
        let pass = analysis.candidates.iter().find(|c| c.mv == Move::Pass);
        let opponent_passed = game.moves().last() == Some(&(color.opponent(), Move::Pass));
        let may_pass_first = || {
            let own = &analysis.ownership;
            let (given_up, taken) = (
                lost_stones(board, color, own),
                lost_stones(board, color.opponent(), own),
            );
            ending::may_pass_first(game, color, given_up, taken)
        };
        let mut choice = best.mv;
        if cleanup {
            // Capture dead stones before passing.
            let dead = lost_stones(board, color.opponent(), &analysis.ownership);
            if !dead.is_empty() && choice == Move::Pass {
                let next_to_dead = |m: Move| {
                    m.point()
                        .is_some_and(|p| p.neighbours().iter().any(|&n| dead.contains(n)))
                };
                choice = analysis
                    .candidates
                    .iter()
                    .find(|c| next_to_dead(c.mv))
                    .or_else(|| analysis.candidates.iter().find(|c| c.mv != Move::Pass))
                    .map_or(Move::Pass, |c| c.mv);
            }
        } else if choice != Move::Pass
            && best.winrate < COUNT_PASS_BELOW
            && ending::passing_wins(game, color, lost_stones(board, color, &analysis.ownership))
        {
            choice = Move::Pass;
        } else if choice == Move::Pass && ending::passing_loses(game, color) {
            // The playouts let invasions live, so the search can rate a
            // pass that ends a lost game as even: play on while a move has
            // a chance (5% at least, so that with resigning off a lost game
            // still ends).
            let chance = threshold.max(0.05);
            if let Some(c) = analysis
                .candidates
                .iter()
                .find(|c| c.mv != Move::Pass && c.winrate >= chance)
            {
                choice = c.mv;
            }
        } else if choice == Move::Pass && !opponent_passed && !may_pass_first() {
            // The search's own pass waits too while a border is open: play
            // the best move that keeps the win rate.
            if let Some(c) = analysis
                .candidates
                .iter()
                .find(|c| c.mv != Move::Pass && c.winrate >= best.winrate - OPEN_BORDER_SLACK)
            {
                choice = c.mv;
            }
        } else if choice != Move::Pass {
            // Pass when playing on gains nothing: the same result and no more
            // points (half a point of noise allowed once the opponent passed,
            // when passing ends the game).
            let slack = if opponent_passed { 0.5 } else { 0.0 };
            if let Some(pass) = pass {
                let enough = pass.visits >= 10.max(best.visits / 20);
                // Before the opponent passes, pass only a won game whose
                // borders are closed (asked last: it may ask the referee).
                let settled = || opponent_passed || (best.winrate >= 0.5 && may_pass_first());
                if enough
                    && pass.winrate >= best.winrate - 0.02
                    && (pass.score_lead >= best.score_lead - slack
                        || (opponent_passed && pass.winrate >= 0.99))
                    && settled()
                {
                    choice = Move::Pass;
                }
            }
        }
        if !game.is_legal(color, choice) {
            choice = self.fallback_move(game, color);
        }
        Decision::Play(choice)
    }

    /// A legal move without search: the best prior, or pass.
    fn fallback_move(&self, game: &Game, color: Color) -> Move {
        let board = game.board();
        let last = game.moves().last().and_then(|&(_, m)| m.point());
        board
            .points()
            .filter(|&p| {
                board.is_empty(p)
                    && !board.is_eye(p, color)
                    && game.is_legal(color, Move::Play(p))
                    && !board.is_self_atari(p, color)
            })
            .map(|p| (p, self.policy.prior(board, color, p, last).value))
            .fold(None, |best: Option<(Point, f32)>, (p, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((p, v)),
            })
            .map_or(Move::Pass, |(p, _)| Move::Play(p))
    }
}

/// The stones of `owner` on points the search's playouts give to the other
/// side by a wide margin (ownership beyond 0.5 its way): the stones the
/// search expects `owner` to lose. None when `ownership` is empty.
fn lost_stones(board: &Board, owner: Color, ownership: &[f64]) -> Bitboard {
    board
        .points()
        .zip(ownership)
        .filter(|&(p, &o)| {
            let theirs = if owner == Color::Black { -o } else { o };
            board.get(p) == Some(owner) && theirs > 0.5
        })
        .map(|(p, _)| p)
        .collect()
}

/// Node cap for a memory budget: a third is kept for the copy of the reused
/// subtree between moves.
fn node_capacity(max_memory: usize) -> usize {
    (max_memory / 3 * 2 / NODE_BYTES).max(1)
}

fn log_progress(a: &Analysis, size: usize) {
    let rate = a.playouts as f64 / a.elapsed.as_secs_f64().max(1e-9);
    let (best, pv) = a
        .candidates
        .first()
        .map_or((String::new(), String::new()), |c| {
            (
                Vertex::from_move(c.mv, size).to_string(),
                c.pv.iter()
                    .take(10)
                    .map(|&m| Vertex::from_move(m, size).to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        });
    let _ = writeln!(
        std::io::stderr(),
        "kosumi: {} playouts ({:.0}/s) best {} win {:.1}% pv {}",
        a.playouts,
        rate,
        best,
        a.winrate * 100.0,
        pv
    );
}

/// What all threads of one search share.
struct Shared<'a> {
    arena: &'a Arena,
    root: u32,
    policy: &'a Policy,
    settings: &'a TreeSettings,
    root_board: Board,
    color: Color,
    root_passes: u8,
    /// Half the board or more is filled: the pass becomes a real candidate.
    late: bool,
    root_last: Option<Point>,
    root_last2: Option<Point>,
    /// Black stones placed minus White's so far (territory counting).
    root_placed: i32,
    territory: bool,
    pass_placed: bool,
    komi: f64,
    /// Dynamic komi for White: only the value's win part sees it.
    extra_komi: f64,
    /// Root moves superko forbids.
    illegal: Vec<bool>,
    /// Root moves the search may not try: the illegal ones, and those
    /// `allow` and `avoid` leave out.
    forbidden: Vec<bool>,
    expand_at: u32,
    /// RAVE equivalence for this board's size.
    rave_equiv: f64,
    playout_limit: u64,
    claimed: AtomicU64,
    done: AtomicU64,
    stop: AtomicBool,
    external: &'a AtomicBool,
    ownership: Vec<AtomicI64>,
    own_samples: AtomicU64,
    /// The spread of this search's final scores at the root, and through
    /// each root move (by move code).
    root_spread: Spread,
    spread: Vec<Spread>,
    /// Ownership sums and samples through each root move (by move code),
    /// when asked for.
    move_own: Option<Mutex<MoveOwnership>>,
    /// The root moves' probabilities (see [`Analysis::policy`]), worked out
    /// once.
    move_policy: OnceLock<Vec<(Move, f64)>>,
    score_scale: f64,
    /// Expected final score for Black, where the score term is steepest.
    score_center: f64,
    max_moves: usize,
    mercy: i32,
    /// The playouts' last good replies (`None`: the rule is off).
    replies: Option<Replies>,
}

impl Shared<'_> {
    #[inline]
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.external.load(Relaxed)
    }

    /// The ownership map from the playouts through the root move `code`,
    /// as [`Analysis::ownership`]; empty when not asked for or not seen.
    fn move_ownership(&self, code: u16) -> Vec<f64> {
        let Some(own) = &self.move_own else {
            return Vec::new();
        };
        let own = own.lock().unwrap_or_else(|e| e.into_inner());
        let Some((sums, n)) = own.get(&code).filter(|(_, n)| *n > 0) else {
            return Vec::new();
        };
        self.root_board
            .points()
            .map(|p| sums[p.index()] as f64 / *n as f64)
            .collect()
    }

    /// The probability of every legal root move (whatever `allow` and
    /// `avoid` say: they steer the search, not the policy): the learned move
    /// patterns' (over the legal moves and the pass, as they were trained),
    /// else each tree prior's share. Empty before the root is expanded.
    fn root_policy(&self) -> Vec<(Move, f64)> {
        let Some((first, n)) = self.arena.get(self.root).children() else {
            return Vec::new();
        };
        let legal = |code: u16| !self.illegal[code as usize];
        let board = &self.root_board;
        let Some(model) = self.policy.learned_patterns(board.size()) else {
            let priors: Vec<(Move, f64)> = self
                .arena
                .nodes(first, n)
                .iter()
                .filter(|c| legal(c.mv.load(Relaxed)))
                .map(|c| {
                    let (n, v) = c.prior();
                    (code_move(c.mv.load(Relaxed)), n * v)
                })
                .collect();
            let sum = priors.iter().map(|p| p.1).sum::<f64>().max(1e-9);
            return priors.into_iter().map(|(m, p)| (m, p / sum)).collect();
        };
        let ctx = Context::new(
            board,
            self.color,
            self.root_last,
            self.root_last2,
            self.root_passes > 0,
        );
        let mut strengths: Vec<(Move, f64)> = board
            .points()
            .filter(|&p| legal(p.index() as u16) && board.is_legal(p, self.color))
            .map(|p| {
                (
                    Move::Play(p),
                    model.strength(&model.features(&ctx, p)) as f64,
                )
            })
            .collect();
        if legal(PASS) {
            strengths.push((Move::Pass, model.strength(&ctx.pass_features()) as f64));
        }
        let sum: f64 = strengths.iter().map(|s| s.1).sum::<f64>().max(1e-30);
        for s in &mut strengths {
            s.1 /= sum;
        }
        strengths
    }

    /// Root children that may be played, with their nodes.
    fn root_children(&self) -> Vec<&Node> {
        let Some((first, n)) = self.arena.get(self.root).children() else {
            return Vec::new();
        };
        (first..first + n as u32)
            .map(|i| self.arena.get(i))
            .filter(|c| !self.forbidden[c.mv.load(Relaxed) as usize])
            .collect()
    }

    /// Whether to stop now: time is up and the choice is clear, or the best
    /// move cannot be overtaken in what is left.
    fn should_stop(&self, ctl: &Control, elapsed: Duration) -> bool {
        let children = self.root_children();
        if children.len() <= 1 {
            // Nothing to choose (only the pass), or no tree to choose from.
            return ctl.early_stop && children.len() == 1;
        }
        let mut top = [(0u32, 0.0f64); 2];
        for c in &children {
            let v = (c.visits(), c.winrate());
            if v.0 > top[0].0 {
                top[1] = top[0];
                top[0] = v;
            } else if v.0 > top[1].0 {
                top[1] = v;
            }
        }
        let done = self.done.load(Relaxed);
        let gap = top[0].0.saturating_sub(top[1].0) as f64;
        if let Some(soft) = ctl.soft {
            let hard = ctl.hard.unwrap_or(soft);
            // Unclear: the runner-up is close in visits or better in value.
            let unclear = top[1].0 as f64 > 0.6 * top[0].0 as f64 || top[1].1 > top[0].1 + 0.03;
            if elapsed >= soft && !unclear {
                return true;
            }
            if ctl.early_stop {
                let secs = elapsed.as_secs_f64().max(1e-3);
                let left = hard.saturating_sub(elapsed).as_secs_f64();
                if gap > done as f64 / secs * left {
                    return true;
                }
            }
        }
        if let Some(limit) = ctl.playouts {
            if ctl.early_stop && gap > limit.saturating_sub(done) as f64 {
                return true;
            }
        }
        false
    }

    /// The analysis so far; `ownership` adds the ownership map.
    fn analysis(&self, elapsed: Duration, ownership: bool) -> Analysis {
        let size = self.root_board.size();
        let children = self.root_children();
        let policy = self.move_policy.get_or_init(|| self.root_policy());
        let mut candidates: Vec<Candidate> = children
            .iter()
            .filter(|c| c.visits() > 0)
            .map(|c| {
                let n = c.visits() as f64;
                let w = c.winrate();
                let mut pv_moves = vec![code_move(c.mv.load(Relaxed))];
                let mut pv_visits = vec![c.visits() as u64];
                let mut node: &Node = c;
                while pv_moves.len() < 30 {
                    let Some((first, k)) = node.children() else {
                        break;
                    };
                    let Some(next) = (first..first + k as u32)
                        .map(|i| self.arena.get(i))
                        .max_by_key(|n| n.visits())
                        .filter(|n| n.visits() >= 2)
                    else {
                        break;
                    };
                    pv_moves.push(code_move(next.mv.load(Relaxed)));
                    pv_visits.push(next.visits() as u64);
                    node = next;
                }
                let mv = code_move(c.mv.load(Relaxed));
                Candidate {
                    mv,
                    visits: c.visits() as u64,
                    winrate: w,
                    prior: policy.iter().find(|p| p.0 == mv).map_or(0.0, |p| p.1),
                    lcb: (w - 1.96 * (w * (1.0 - w) / n).sqrt() - 0.5 / n).max(0.0),
                    score_lead: c.mean_score(),
                    pv: pv_moves,
                    pv_visits,
                    score_stdev: self.spread[c.mv.load(Relaxed) as usize].stdev(),
                    ownership: self.move_ownership(c.mv.load(Relaxed)),
                }
            })
            .collect();
        candidates.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
        });
        let (winrate, score_lead) = candidates
            .first()
            .map_or((0.5, 0.0), |c| (c.winrate, c.score_lead));
        let samples = self.own_samples.load(Relaxed);
        let ownership = if ownership && samples > 0 {
            self.root_board
                .points()
                .map(|p| self.ownership[p.index()].load(Relaxed) as f64 / samples as f64)
                .collect()
        } else {
            Vec::new()
        };
        let _ = size;
        // The root's node holds the values of the player who moved into it.
        let root = self.arena.get(self.root);
        let root = RootValues {
            visits: root.visits() as u64,
            winrate: 1.0 - root.winrate(),
            score_lead: -root.mean_score(),
            score_stdev: self.root_spread.stdev(),
        };
        Analysis {
            playouts: self.done.load(Relaxed),
            elapsed,
            winrate,
            score_lead,
            root,
            candidates,
            ownership,
            policy: policy.clone(),
        }
    }
}

/// Ownership sums (per padded index) and playouts through each root move,
/// by move code.
type MoveOwnership = FxHashMap<u16, (Vec<i64>, u64)>;

/// Running sums of final scores, for their standard deviation.
#[derive(Default)]
struct Spread {
    n: AtomicU64,
    /// In [`SCORE_ONE`] units.
    sum: AtomicI64,
    /// Squares in [`SCORE_ONE`] units, divided by [`SCORE_ONE`]: below 2^63
    /// for any number of playouts a search makes.
    sum_sq: AtomicU64,
}

impl Spread {
    #[inline]
    fn add(&self, score: f64) {
        let s = (score * SCORE_ONE) as i64;
        self.n.fetch_add(1, Relaxed);
        self.sum.fetch_add(s, Relaxed);
        self.sum_sq
            .fetch_add((s * s) as u64 / SCORE_ONE as u64, Relaxed);
    }

    fn stdev(&self) -> f64 {
        let n = self.n.load(Relaxed) as f64;
        if n < 2.0 {
            return 0.0;
        }
        let mean = self.sum.load(Relaxed) as f64 / SCORE_ONE / n;
        let mean_sq = self.sum_sq.load(Relaxed) as f64 / SCORE_ONE / n;
        (mean_sq - mean * mean).max(0.0).sqrt()
    }
}

/// A sum of fixed-point values as `f64`. The sums stay far below 2^63
/// (visits times [`VALUE_ONE`]), where the signed conversion gives the same
/// `f64` as the unsigned one in a third of the instructions.
#[inline]
fn fixed_sum(sum: &AtomicU64) -> f64 {
    let x = sum.load(Relaxed);
    debug_assert!(x < 1 << 63);
    x as i64 as f64
}

/// A value increment in fixed point, as `x as u64` gives it for every `x`
/// below 2^63 (values are at most a few times [`VALUE_ONE`]): NaN and
/// negatives are 0, the rest truncated, with the cheaper signed conversion.
#[inline]
fn to_fixed(x: f64) -> u64 {
    debug_assert!(x.is_nan() || x < 9.2e18);
    x.max(0.0) as i64 as u64
}

/// One search thread's scratch state.
struct Worker<'a> {
    sh: &'a Shared<'a>,
    rng: FastRng,
    board: Board,
    path: Vec<u32>,
    seq: Vec<(u16, Color)>,
    seq_start: Vec<usize>,
    /// Per point: 1 + colour of the earliest play at or after the current depth.
    first: Vec<u8>,
    /// Per point: where in `seq` that earliest play is.
    first_at: Vec<u16>,
    own: Vec<i32>,
    own_samples: u64,
    /// Ownership sums and samples through each root move this thread saw,
    /// when the search measures them.
    move_own: FxHashMap<u16, (Vec<i32>, u64)>,
    priors: Vec<(u16, Prior)>,
    /// Learned pattern strengths of the candidates, as `priors`.
    strengths: Vec<f32>,
    /// Stones of each colour when two passes in the tree ended the game:
    /// the playout after that only settles dead stones, it cannot claim dame.
    ended: Option<[Bitboard; 2]>,
}

impl<'a> Worker<'a> {
    fn new(sh: &'a Shared<'a>, seed: u64) -> Worker<'a> {
        Worker {
            sh,
            rng: FastRng::new(seed),
            board: sh.root_board.clone(),
            path: Vec::with_capacity(64),
            seq: Vec::with_capacity(1024),
            seq_start: Vec::with_capacity(64),
            first: vec![0; SLOTS],
            first_at: vec![0; SLOTS],
            own: vec![0; SLOTS],
            own_samples: 0,
            move_own: FxHashMap::default(),
            priors: Vec::with_capacity(SLOTS),
            strengths: Vec::with_capacity(SLOTS),
            ended: None,
        }
    }

    /// Adds the local ownership counts to the shared ones.
    fn flush(&mut self) {
        if self.own_samples == 0 {
            return;
        }
        for p in self.sh.root_board.points() {
            let i = p.index();
            if self.own[i] != 0 {
                self.sh.ownership[i].fetch_add(self.own[i] as i64, Relaxed);
                self.own[i] = 0;
            }
        }
        self.sh.own_samples.fetch_add(self.own_samples, Relaxed);
        self.own_samples = 0;
        if let Some(shared) = &self.sh.move_own {
            let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
            for (code, (own, n)) in self.move_own.drain() {
                let (sums, total) = shared.entry(code).or_insert_with(|| (vec![0; SLOTS], 0));
                for (s, o) in sums.iter_mut().zip(own) {
                    *s += o as i64;
                }
                *total += n;
            }
        }
    }

    /// One descent, playout and backup. `false` when the playout limit is reached.
    fn playout(&mut self) -> bool {
        let sh = self.sh;
        if sh.claimed.fetch_add(1, Relaxed) >= sh.playout_limit {
            return false;
        }
        let arena = sh.arena;
        self.board.copy_from(&sh.root_board);
        self.path.clear();
        self.seq.clear();
        self.seq_start.clear();
        let mut node = sh.root;
        let mut to_move = sh.color;
        let mut passes = sh.root_passes;
        let mut last = sh.root_last;
        let mut last2 = sh.root_last2;
        let mut placed = sh.root_placed;
        arena.get(node).visits.fetch_add(1, Relaxed);
        self.path.push(node);
        self.seq_start.push(0);
        loop {
            let n = arena.get(node);
            let mut state = n.state.load(Acquire);
            if state == LEAF
                && passes < 2
                && (self.path.len() == 1 || n.visits() > sh.expand_at)
                && !arena.is_full()
                && n.state
                    .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
                    .is_ok()
            {
                state = if self.expand(n, to_move, last, last2, passes > 0) {
                    EXPANDED
                } else {
                    LEAF
                };
                n.state.store(state, Release);
            }
            if state != EXPANDED {
                break;
            }
            let at_root = self.path.len() == 1;
            // Ending the game must be tried once the opponent passed, and
            // at the root late in the game, however good the rest looks.
            let try_pass = passes == 1 || (at_root && sh.late);
            let child = self.select(n, at_root, try_pass);
            let c = arena.get(child);
            c.visits.fetch_add(1, Relaxed);
            let code = c.mv.load(Relaxed);
            let sign = if to_move == Color::Black { 1 } else { -1 };
            last2 = last;
            if code == PASS {
                self.board.clear_ko();
                passes += 1;
                last = None;
                if sh.pass_placed {
                    placed += sign;
                }
            } else {
                let p = Point::from_index(code as usize);
                self.board.play_unchecked(p, to_move);
                passes = 0;
                placed += sign;
                last = Some(p);
                self.seq.push((code, to_move));
            }
            to_move = to_move.opponent();
            node = child;
            self.path.push(node);
            self.seq_start.push(self.seq.len());
        }
        // Play out (after two passes too: the playout settles what is dead).
        self.ended = (passes >= 2).then(|| {
            [
                self.board.stones(Color::Black),
                self.board.stones(Color::White),
            ]
        });
        let base_caps =
            self.board.captures(Color::Black) as i32 - self.board.captures(Color::White) as i32;
        let mut moves = 0;
        let mut run_passes = 0;
        let mut ko = KoFight::default();
        while run_passes < 2 && moves < sh.max_moves {
            let retake = sh
                .policy
                .ko_retake(&self.board, to_move, &ko, moves, &mut self.rng);
            let reply = sh.replies.as_ref().and_then(|r| {
                let code = |m: Option<Point>| m.map_or(PASS, |p| p.index() as u16);
                r.get(to_move, code(last2), code(last))
            });
            match retake.or_else(|| {
                sh.policy
                    .playout_move(&self.board, to_move, last, last2, reply, &mut self.rng)
            }) {
                Some(p) => {
                    self.board.play_unchecked(p, to_move);
                    ko.note(&self.board, moves);
                    self.seq.push((p.index() as u16, to_move));
                    last2 = last;
                    last = Some(p);
                    run_passes = 0;
                    moves += 1;
                    let caps = self.board.captures(Color::Black) as i32
                        - self.board.captures(Color::White) as i32
                        - base_caps;
                    if caps.abs() > sh.mercy {
                        break;
                    }
                }
                None => {
                    self.board.clear_ko();
                    last2 = last;
                    last = None;
                    run_passes += 1;
                }
            }
            to_move = to_move.opponent();
        }
        let area = self.count_area();
        let mut score_black = area as f64 - sh.komi;
        if sh.territory {
            score_black -= placed as f64;
        }
        if let Some(replies) = &sh.replies {
            let winner = if score_black > 0.0 {
                Color::Black
            } else {
                Color::White
            };
            replies.learn(&self.seq, winner);
        }
        self.backup(score_black);
        sh.done.fetch_add(1, Relaxed);
        true
    }

    /// Area count of the final board (Black minus White), adding ownership.
    fn count_area(&mut self) -> i32 {
        let size = self.board.size();
        let neutral = self.neutral_at_end();
        // The root move this playout went through, when the search measures
        // each move's ownership.
        let mut by_move = match (&self.sh.move_own, self.path.get(1)) {
            (Some(_), Some(&child)) => {
                let code = self.sh.arena.get(child).mv.load(Relaxed);
                let (own, n) = self
                    .move_own
                    .entry(code)
                    .or_insert_with(|| (vec![0; SLOTS], 0));
                *n += 1;
                Some(own)
            }
            _ => None,
        };
        let mut total = 0;
        for y in 0..size {
            for x in 0..size {
                let p = Point::new(x, y);
                let o = if neutral.contains(p) {
                    0
                } else {
                    match self.board.get(p) {
                        Some(Color::Black) => 1,
                        Some(Color::White) => -1,
                        None => {
                            if self.board.is_eyelike(p, Color::Black) {
                                1
                            } else if self.board.is_eyelike(p, Color::White) {
                                -1
                            } else {
                                0
                            }
                        }
                    }
                };
                total += o;
                self.own[p.index()] += o;
                if let Some(own) = by_move.as_mut() {
                    own[p.index()] += o;
                }
            }
        }
        self.own_samples += 1;
        total
    }

    /// When the game ended in the tree: the empty regions of the final
    /// position that touch stones of both colours which survived the playout
    /// (dame). Filling them after the game ended gains nothing.
    fn neutral_at_end(&self) -> Bitboard {
        let Some([black, white]) = self.ended else {
            return Bitboard::EMPTY;
        };
        let board_mask = Bitboard::on_board(self.board.size());
        let black_alive = black & self.board.stones(Color::Black);
        let white_alive = white & self.board.stones(Color::White);
        let empty = board_mask & !(black | white);
        let mut neutral = Bitboard::EMPTY;
        for region in empty.components() {
            let rim = region.neighbours();
            if !(rim & black_alive).is_empty() && !(rim & white_alive).is_empty() {
                neutral |= region;
            }
        }
        neutral
    }

    /// Value and half-point result of a final score for one side, whose
    /// win part judges the score less `extra` (the dynamic komi against
    /// that side); the half-point result stays the real one.
    #[inline]
    fn value(&self, score: f64, center: f64, extra: f64) -> (f64, u32) {
        let halves = |s: f64| {
            if s > 0.0 {
                2
            } else if s == 0.0 {
                1
            } else {
                0
            }
        };
        let win2 = halves(score);
        let shifted = if extra == 0.0 {
            win2
        } else {
            halves(score - extra)
        };
        let squashed = 0.5 + 0.5 * ((score - center) / self.sh.score_scale).tanh();
        let w = self.sh.settings.score_weight;
        ((1.0 - w) * shifted as f64 / 2.0 + w * squashed, win2)
    }

    fn backup(&mut self, score_black: f64) {
        let sh = self.sh;
        let arena = sh.arena;
        let (vb, wb) = self.value(score_black, sh.score_center, sh.extra_komi);
        let (vw, ww) = self.value(-score_black, -sh.score_center, -sh.extra_komi);
        let of = |c: Color| {
            if c == Color::Black {
                (vb, wb, score_black)
            } else {
                (vw, ww, -score_black)
            }
        };
        sh.root_spread.add(score_black);
        if let Some(&child) = self.path.get(1) {
            sh.spread[arena.get(child).mv.load(Relaxed) as usize].add(score_black);
        }
        let root_mover = sh.color.opponent();
        for (d, &i) in self.path.iter().enumerate() {
            let mover = if d % 2 == 0 { root_mover } else { sh.color };
            let (v, w, s) = of(mover);
            let n = arena.get(i);
            n.value.fetch_add(to_fixed(v * VALUE_ONE), Relaxed);
            n.wins.fetch_add(w, Relaxed);
            n.score.fetch_add((s * SCORE_ONE) as i64, Relaxed);
        }
        // AMAF: a child's move counts if its player played that point first
        // anywhere after the node, in the tree or the playout.
        let len = self.seq.len();
        let distance = sh.settings.rave_distance;
        let mut k = len;
        for d in (0..self.path.len()).rev() {
            while k > self.seq_start[d] {
                k -= 1;
                let (p, c) = self.seq[k];
                self.first[p as usize] = 1 + c as u8;
                self.first_at[p as usize] = k as u16;
            }
            let node = arena.get(self.path[d]);
            let Some((first, n)) = node.children() else {
                continue;
            };
            let to_move = if d % 2 == 0 {
                sh.color
            } else {
                sh.color.opponent()
            };
            let mark = 1 + to_move as u8;
            let v = of(to_move).0 * VALUE_ONE;
            // Moves played soon after the node say more about it than moves
            // at the end of the playout: weight 1 + distance * (share of the
            // sequence still to come), as Pachi weighs its AMAF.
            let start = self.seq_start[d];
            let span = (len - start + 1) as f64;
            for c in arena.nodes(first, n) {
                let code = c.mv.load(Relaxed);
                if code != PASS && self.first[code as usize] == mark {
                    // Signed: the same f64 as from usize, converted in fewer steps.
                    let after = (len - self.first_at[code as usize] as usize) as i64 as f64;
                    let w = 1 + (distance * after / span) as u32;
                    c.rave_visits.fetch_add(w, Relaxed);
                    c.rave_value.fetch_add(to_fixed(v * w as f64), Relaxed);
                }
            }
        }
        for &(p, _) in &self.seq {
            self.first[p as usize] = 0;
        }
    }

    /// The child maximising UCT blended with RAVE, priors as virtual playouts.
    #[inline]
    fn select(&self, n: &Node, at_root: bool, try_pass: bool) -> u32 {
        let arena = self.sh.arena;
        let (first, k) = n.children().expect("expanded");
        // The pass is always the last child.
        let pass = first + k as u32 - 1;
        if try_pass && arena.get(pass).visits() * 16 < n.visits() {
            return pass;
        }
        let ln_n = (n.visits().max(1) as f64).ln();
        // Priors are offsets from the parent's value for the player choosing
        // (first-play urgency): a 0.5 prior in a 45% position would send the
        // search to every untried move. `search.prior_relative` scales the
        // offset.
        let parent_visits = n.visits().saturating_sub(1);
        let parent_q = if parent_visits > 0 {
            1.0 - n.value.load(Relaxed) as f64 / VALUE_ONE / parent_visits as f64
        } else {
            0.5
        }
        .clamp(0.0, 1.0);
        let (equiv, explore) = (self.sh.rave_equiv, self.sh.settings.explore);
        let offset = self.sh.settings.prior_relative * (parent_q - 0.5);
        let mut best = first;
        let mut best_u = f64::NEG_INFINITY;
        for (i, c) in (first..).zip(arena.nodes(first, k)) {
            if at_root && self.sh.forbidden[c.mv.load(Relaxed) as usize] {
                continue;
            }
            let visits = c.visits() as f64;
            let (pn, pv) = c.prior();
            let pv = (pv + offset).clamp(0.01, 0.99);
            let qn = visits + pn;
            let mut q = (fixed_sum(&c.value) / VALUE_ONE + pv * pn) / qn.max(1e-9);
            let rn = c.rave_visits.load(Relaxed) as f64;
            if rn > 0.0 {
                let r = fixed_sum(&c.rave_value) / VALUE_ONE / rn;
                let beta = rn / (rn + qn + rn * qn / equiv);
                q = (1.0 - beta) * q + beta * r;
            }
            let u = q + explore * (ln_n / (visits + 1.0)).sqrt();
            if u > best_u {
                best_u = u;
                best = i;
            }
        }
        best
    }

    /// Creates the children of `n` (every legal move filling no own true eye,
    /// and the pass) with their priors. `false` when memory is full.
    fn expand(
        &mut self,
        n: &Node,
        to_move: Color,
        last: Option<Point>,
        last2: Option<Point>,
        passed: bool,
    ) -> bool {
        let sh = self.sh;
        let board = &self.board;
        self.priors.clear();
        let fights = sh.policy.fight_moves(board, to_move, last);
        let races = sh.policy.race_moves(board, to_move, last, &fights);
        let chain_libs = sh.policy.chain_liberties(board, last);
        let board_races = sh.policy.board_races(board, to_move, sh.territory);
        let eye_moves = sh.policy.eye_moves(board, to_move, last);
        let nakade = sh.policy.nakade_move(board, last);
        for &e in board.empty_points() {
            let p = Point::from_index(e as usize);
            if board.is_legal_empty(p, to_move) && !board.is_eye(p, to_move) {
                let mut prior = sh.policy.prior(board, to_move, p, last);
                if fights.contains(&p) {
                    prior = sh.policy.fight_prior(prior);
                } else if races.contains(&p) {
                    prior = sh.policy.race_prior(prior);
                }
                if chain_libs.contains(p) {
                    prior = sh.policy.chain_liberty_prior(prior);
                }
                if board_races.contains(p) {
                    prior = sh.policy.board_race_prior(prior);
                }
                if eye_moves.contains(&p) {
                    prior = sh.policy.eye_prior(prior);
                }
                if nakade == Some(p) {
                    prior = sh.policy.nakade_prior(prior);
                }
                self.priors.push((e, prior));
            }
        }
        // Learned patterns (learned on 19x19), as virtual wins by the square
        // root of each move's probability: on 9x9 they won +152 +- 105 Elo
        // at equal time (the old relative form, 40 virtual playouts, had
        // gained nothing there).
        if let Some(model) = sh.policy.learned_patterns(board.size()) {
            // Learned patterns: strengths relative to the strongest move.
            let ctx = Context::new(board, to_move, last, last2, passed);
            self.strengths.clear();
            for &(e, _) in &self.priors {
                let f = model.features(&ctx, Point::from_index(e as usize));
                self.strengths.push(model.strength(&f));
            }
            let best = self.strengths.iter().fold(0.0f32, |a, &b| a.max(b));
            let sum: f32 = self.strengths.iter().sum();
            if best > 0.0 {
                for (k, (_, prior)) in self.priors.iter_mut().enumerate() {
                    let s = self.strengths[k];
                    *prior = sh
                        .policy
                        .learned_prior(*prior, s / best, s / sum, board.size());
                }
            }
        }
        // A fixed child order whatever the empty list's order.
        self.priors.sort_unstable_by_key(|&(e, _)| e);
        self.priors.push((PASS, sh.policy.pass_prior(board)));
        let Some(start) = sh.arena.alloc(self.priors.len()) else {
            return false;
        };
        for (k, &(code, prior)) in self.priors.iter().enumerate() {
            let c = sh.arena.get(start + k as u32);
            c.mv.store(code, Relaxed);
            c.set_prior(prior.visits, prior.value);
        }
        n.first_child.store(start, Relaxed);
        n.n_children.store(self.priors.len() as u16, Relaxed);
        true
    }
}

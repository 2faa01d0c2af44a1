//! Learning from game records: replaying SGF games, counting large shapes,
//! collecting competitions for [`Dataset`], and measuring move prediction.
//!
//! The held-out games (for [`evaluate_game`]) are chosen by name:
//! [`is_held_out`] takes the games whose file name (without folders) hashes
//! (FNV-1a 64) to 0 modulo [`HOLD_OUT_EVERY`], about 2% of any collection,
//! the same whichever archive or folder holds them.

use super::mm::Dataset;
use anyhow::{bail, Context as _};
use fxhash::FxHashMap;
use kosumi::board::{Board, Color, Game, Move, Point, Rules};
use kosumi::search::level::{on_first_line, self_atari_of_stones, OPENING_MOVES};
use kosumi::search::patterns::features::{Context, MoveFeatures, GROUPS, GROUP_COUNT, PAT3_BASE};
use kosumi::search::patterns::Model;
use kosumi::sgf::{Event, GameRecord};
use rand::rngs::StdRng;
use rand::Rng;

/// One game in [`HOLD_OUT_EVERY`] is held out of training.
pub const HOLD_OUT_EVERY: u64 = 50;

/// Whether the game with this file name (folders are ignored) is held out
/// of training, for measuring.
pub fn is_held_out(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in base.as_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h.is_multiple_of(HOLD_OUT_EVERY)
}

/// A position of a replayed game, before `played`.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board.
    pub board: &'a Board,
    /// Who moves.
    pub color: Color,
    /// The previous move's point (`None` after a pass or at the start).
    pub last: Option<Point>,
    /// The point of the move before it.
    pub last2: Option<Point>,
    /// Whether the previous move was a pass.
    pub opponent_passed: bool,
    /// The move played.
    pub played: Move,
    /// Moves played before it.
    pub number: usize,
}

impl Position<'_> {
    /// The feature context of this position.
    pub fn context(&self) -> Context<'_> {
        Context::new(
            self.board,
            self.color,
            self.last,
            self.last2,
            self.opponent_passed,
        )
    }
}

/// Replays the main line of an SGF game, calling `f` before each move.
/// Games with setup after the root, White stones set up in the root or an
/// illegal move are refused whole (nothing is called); Black stones set up
/// in the root are handicap. Returns the number of moves.
pub fn replay(bytes: &[u8], mut f: impl FnMut(&Position)) -> anyhow::Result<usize> {
    let record = GameRecord::from_sgf(bytes)?;
    if !record.setup_white.is_empty() {
        bail!("White stones set up");
    }
    if record
        .events
        .iter()
        .any(|e| matches!(e, Event::Setup { .. }))
    {
        bail!("setup after the root");
    }
    let start = || {
        let mut g = Game::new(record.size, Rules::japanese());
        if !record.setup_black.is_empty() {
            g.place_handicap(&record.setup_black);
        }
        g
    };
    // Check every move first, so a bad game gives nothing.
    let mut game = start();
    for (i, (color, mv)) in record.moves().enumerate() {
        game.play(color, mv)
            .with_context(|| format!("move {}", i + 1))?;
    }
    let mut game = start();
    for (color, mv) in record.moves() {
        let moves = game.moves();
        let last = moves.last().and_then(|&(_, m)| m.point());
        let last2 = moves.len().checked_sub(2).and_then(|i| moves[i].1.point());
        let opponent_passed = moves.last().is_some_and(|&(_, m)| m == Move::Pass);
        f(&Position {
            board: game.board(),
            color,
            last,
            last2,
            opponent_passed,
            played: mv,
            number: moves.len(),
        });
        game.play(color, mv).expect("checked above");
    }
    Ok(game.moves().len())
}

/// The group of each feature id of `model`: the fixed groups, then the 3x3
/// shapes, then the large shapes.
pub fn feature_groups(model: &Model) -> Vec<u8> {
    let mut group = vec![0u8; model.len()];
    for (i, g) in group.iter_mut().enumerate() {
        *g = if i < PAT3_BASE as usize {
            GROUPS
                .iter()
                .position(|g| (g.base..g.base + g.levels).contains(&(i as u32)))
                .expect("groups cover the fixed ids") as u8
        } else if i < kosumi::search::patterns::features::fixed_count() {
            GROUPS.len() as u8
        } else {
            GROUPS.len() as u8 + 1
        };
    }
    group
}

/// The candidates of a position (every legal point and the pass, pass last)
/// with their features, and the index of the played move.
pub fn candidates(model: &Model, pos: &Position) -> (Vec<MoveFeatures>, Vec<Move>, Option<usize>) {
    let ctx = pos.context();
    let mut feats = Vec::with_capacity(pos.board.empty_count() + 1);
    let mut moves = Vec::with_capacity(pos.board.empty_count() + 1);
    for &e in pos.board.empty_points() {
        let p = Point::from_index(e as usize);
        if pos.board.is_legal_empty(p, pos.color) {
            feats.push(model.features(&ctx, p));
            moves.push(Move::Play(p));
        }
    }
    feats.push(ctx.pass_features());
    moves.push(Move::Pass);
    let winner = moves.iter().position(|&m| m == pos.played);
    (feats, moves, winner)
}

/// Learns a model in two passes over the training games: first
/// [`Trainer::count`] the large shapes of the played moves, then
/// [`Trainer::collect`] sampled positions, then [`Trainer::fit`].
#[derive(Debug, Default)]
pub struct Trainer {
    counts: FxHashMap<u64, u32>,
    model: Option<Model>,
    data: Option<Dataset>,
    /// Positions seen in the counting pass.
    pub counted: usize,
}

impl Trainer {
    /// A trainer with nothing counted.
    pub fn new() -> Trainer {
        Trainer::default()
    }

    /// First pass: counts the large shapes of every played move of a game.
    pub fn count(&mut self, bytes: &[u8]) -> anyhow::Result<usize> {
        let counts = &mut self.counts;
        let mut n = 0;
        let r = replay(bytes, |pos| {
            if let Move::Play(p) = pos.played {
                for k in pos.context().large_keys(p) {
                    *counts.entry(k).or_insert(0) += 1;
                }
                n += 1;
            }
        });
        self.counted += n;
        r
    }

    /// Ends the first pass: keeps the large shapes seen at least `min_count`
    /// times. Returns how many.
    pub fn keep_shapes(&mut self, min_count: u32) -> usize {
        let keys: Vec<u64> = self
            .counts
            .iter()
            .filter(|&(_, &c)| c >= min_count)
            .map(|(&k, _)| k)
            .collect();
        self.counts = FxHashMap::default();
        let model = Model::uniform(&keys);
        let n = model.large_count();
        self.model = Some(model);
        self.data = Some(Dataset::new());
        n
    }

    /// Second pass: adds each position of a game with probability `sample`.
    /// Returns the positions added. Call [`Trainer::keep_shapes`] first.
    pub fn collect(
        &mut self,
        bytes: &[u8],
        sample: f64,
        rng: &mut StdRng,
    ) -> anyhow::Result<usize> {
        let (Some(model), Some(data)) = (&self.model, &mut self.data) else {
            bail!("keep_shapes must come before collect");
        };
        let mut added = 0;
        replay(bytes, |pos| {
            if rng.gen::<f64>() >= sample {
                return;
            }
            let (feats, _, winner) = candidates(model, pos);
            if let Some(w) = winner {
                data.add_position(feats.iter().map(|f| f.ids()), w);
                added += 1;
            }
        })?;
        Ok(added)
    }

    /// The collected data.
    pub fn data(&self) -> Option<&Dataset> {
        self.data.as_ref()
    }

    /// Fits the gammas; `progress(iteration, log-likelihood)` after each
    /// sweep. Returns the model (uniform when nothing was collected).
    pub fn fit(&self, iterations: usize, progress: impl FnMut(usize, f64)) -> Model {
        let mut model = self.model.clone().unwrap_or_else(|| Model::uniform(&[]));
        if let Some(data) = &self.data {
            if data.positions() > 0 {
                let group = feature_groups(&model);
                let gamma = data.fit(&group, GROUP_COUNT, iterations, progress);
                model.set_gammas(&gamma);
            }
        }
        model
    }
}

/// Move prediction figures: expected hits with random tie-breaking.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Positions measured.
    pub positions: usize,
    /// Expected number of positions where the played move ranks first, in the
    /// first 5, in the first 10.
    pub hits: [f64; 3],
    /// Sum of the log-probabilities of the played moves.
    pub log_likelihood: f64,
    /// Sum of the probabilities of the played moves.
    pub probability: f64,
    /// Moves on the board (not passes) measured.
    pub stones: usize,
    /// Of those: self-ataris of two stones or more, fills of an own true
    /// eye, first-line moves in the opening ([`OPENING_MOVES`]).
    pub faults: [usize; 3],
}

impl Accuracy {
    /// Top-1, top-5 and top-10 rates.
    pub fn rates(&self) -> [f64; 3] {
        let n = self.positions.max(1) as f64;
        self.hits.map(|h| h / n)
    }
}

/// Measures how well `model` predicts the moves of a game (every position).
pub fn evaluate_game(model: &Model, bytes: &[u8], acc: &mut Accuracy) -> anyhow::Result<usize> {
    evaluate_player(model, bytes, None, acc)
}

/// As [`evaluate_game`], the moves of the player named `player` only (the
/// game's `PB` or `PW`; both players when `None`, none when neither name).
pub fn evaluate_player(
    model: &Model,
    bytes: &[u8],
    player: Option<&str>,
    acc: &mut Accuracy,
) -> anyhow::Result<usize> {
    let record = GameRecord::from_sgf(bytes)?;
    let named = |name: &Option<String>| player.is_none() || name.as_deref() == player;
    let (black, white) = (named(&record.black_name), named(&record.white_name));
    let mut n = 0;
    replay(bytes, |pos| {
        if !(if pos.color == Color::Black {
            black
        } else {
            white
        }) {
            return;
        }
        let (feats, _, winner) = candidates(model, pos);
        let Some(w) = winner else {
            return;
        };
        let s: Vec<f32> = feats.iter().map(|f| model.strength(f)).collect();
        let sp = s[w];
        let greater = s.iter().filter(|&&v| v > sp).count() as f64;
        let ties = s.iter().filter(|&&v| v == sp).count() as f64;
        for (h, k) in acc.hits.iter_mut().zip([1.0, 5.0, 10.0]) {
            *h += ((k - greater) / ties).clamp(0.0, 1.0);
        }
        let probability = sp as f64 / s.iter().map(|&v| v as f64).sum::<f64>();
        acc.log_likelihood += probability.ln();
        acc.probability += probability;
        if let Move::Play(p) = pos.played {
            acc.stones += 1;
            let opening = pos.number < OPENING_MOVES && on_first_line(pos.board, p);
            let faults = [
                self_atari_of_stones(pos.board, p, pos.color),
                pos.board.is_eye(p, pos.color),
                opening,
            ];
            for (count, fault) in acc.faults.iter_mut().zip(faults) {
                *count += usize::from(fault);
            }
        }
        acc.positions += 1;
        n += 1;
    })?;
    Ok(n)
}

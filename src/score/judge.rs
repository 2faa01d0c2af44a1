//! Life and death of a final position: Benson, playouts, seki.

use super::benson::unconditionally_alive;
use super::confirm;
use super::eyes;
use super::local_search;
use super::playout::{tally, PlayoutPolicy, Tally};
use super::{Judgement, PointStatus, Reason};
use crate::board::{Bitboard, Board, Color, FastRng, Game, Point, RuleSet};

/// Playouts [`judge`] runs (half with each colour moving first).
pub const DEFAULT_PLAYOUTS: usize = 1000;

/// Seed of [`judge`], so a position always gets the same verdict.
pub const DEFAULT_SEED: u64 = 0x6b6f_7375_6d69;

/// How [`judge_with`] judges: the seed and number of its playouts, and a
/// second playout policy to mix in.
#[derive(Clone, Copy)]
pub struct JudgeOptions<'a> {
    /// Seed of the playouts.
    pub seed: u64,
    /// Light playouts, half with each colour moving first.
    pub playouts: usize,
    /// When given, as many playouts again with this policy.
    pub policy: Option<&'a dyn PlayoutPolicy>,
}

impl Default for JudgeOptions<'_> {
    fn default() -> Self {
        JudgeOptions {
            seed: DEFAULT_SEED,
            playouts: DEFAULT_PLAYOUTS,
            policy: None,
        }
    }
}

/// Judges life and death in the current position of `game` with the default
/// seed and number of playouts and the light policy alone: deterministic.
/// The search layer's `judge` mixes in its playout policy.
///
/// Under Tromp-Taylor rules every stone is alive, as those rules say.
pub fn judge(game: &Game) -> Judgement {
    judge_with(game, &JudgeOptions::default())
}

/// Judges life and death with a given seed and number of playouts.
pub fn judge_with_seed(game: &Game, seed: u64, playouts: usize) -> Judgement {
    judge_with(
        game,
        &JudgeOptions {
            seed,
            playouts,
            policy: None,
        },
    )
}

/// Judges life and death as `options` say.
///
/// A chain is alive when Benson's algorithm says so; otherwise it is dead
/// when it mostly dies in the playouts where its opponent moves first (the
/// confirmation order of the Japanese rules), and in seki when it mostly
/// survives beside liberties neither side fills.
pub fn judge_with(game: &Game, options: &JudgeOptions) -> Judgement {
    let (seed, playouts, policy) = (options.seed, options.playouts, options.policy);
    let board = game.board();
    if game.rules().set() == RuleSet::TrompTaylor {
        let mut j = Judgement::from_statuses(board, |_| PointStatus::Alive, Vec::new());
        j.set_reasons(board, |_| Reason::Rules);
        return j;
    }
    let mut rng = FastRng::new(seed);
    let half = playouts.div_ceil(2).max(1);
    let position = position_only(board);
    // tallies[c] has colour c moving first.
    let tallies = tally_both(&position, half, policy, &mut rng);
    let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
    let (mut calls, killed) = chain_statuses(board, &tallies, &reading, policy);
    let tallies = if killed.is_empty() {
        tallies
    } else {
        // Groups read dead change their neighbours' fate (a seki partner
        // now lives): judge the rest again with those groups taken off.
        let mut reduced = position;
        for p in killed.iter() {
            reduced.set_stone(p, None);
        }
        let tallies = tally_both(&reduced, half, policy, &mut rng);
        reading.judging_again();
        let (again, _) = chain_statuses(&reduced, &tallies, &reading, policy);
        for p in board.points() {
            if board.get(p).is_some() && !killed.contains(p) {
                calls.status[p.index()] = again.status[p.index()];
                calls.reasons[p.index()] = again.reasons[p.index()];
            }
        }
        tallies
    };
    let mut j = judgement(board, calls, &tallies);
    j.readings = reading.take_log();
    j
}

/// `n` playouts from `board` with each colour moving first, Black's first
/// (and `n` more with `policy` when given).
fn tally_both(
    board: &Board,
    n: usize,
    policy: Option<&dyn PlayoutPolicy>,
    rng: &mut FastRng,
) -> [Tally; 2] {
    [
        tally(board, Color::Black, n, policy, rng),
        tally(board, Color::White, n, policy, rng),
    ]
}

/// The judgement of `board` from its stones' statuses, with the playouts'
/// ownership.
fn judgement(board: &Board, mut calls: Calls, tallies: &[Tally; 2]) -> Judgement {
    revive_stones_among_their_own(board, &mut calls);
    let ownership = board
        .points()
        .map(|p| {
            let own = |c| (tallies[0].owned_by(p, c) + tallies[1].owned_by(p, c)) / 2.0;
            own(Color::Black) - own(Color::White)
        })
        .collect();
    let mut j = Judgement::from_statuses(board, |p| calls.status[p.index()], ownership);
    j.set_reasons(board, |p| calls.reasons[p.index()]);
    j
}

/// A stone called dead whose area (the empty points and dead stones around
/// it) touches living stones of its own colour only has no one to capture
/// it: it lives. Otherwise its own side would count its point as territory
/// and the other side the stone as a prisoner. Only unfinished games,
/// where the playouts kill most of an open board, have such stones.
fn revive_stones_among_their_own(board: &Board, calls: &mut Calls) {
    let on = Bitboard::on_board(board.size());
    let living = Color::ALL.map(|c| {
        let stones = board.stones(c);
        stones & !marked(stones, &calls.status, PointStatus::Dead)
    });
    for area in (on & !(living[0] | living[1])).components() {
        let rim = area.neighbours() & on;
        for c in Color::ALL {
            let own = !(rim & living[c.index()]).is_empty();
            let enemy = !(rim & living[c.opponent().index()]).is_empty();
            if own && !enemy {
                let stones = area & board.stones(c);
                calls.set(stones, PointStatus::Alive, Reason::AmongItsOwn);
            }
        }
    }
}

/// The stones of `board` on a fresh board: the playouts sample empty
/// points in the board's list order and answer the last move, both of which
/// depend on how the position was reached (moves, undos, a reloaded
/// record). Judging this copy gives a position one verdict whatever its
/// history.
fn position_only(board: &Board) -> Board {
    let mut fresh = Board::new(board.size());
    for p in board.points() {
        if let Some(c) = board.get(p) {
            fresh.set_stone(p, Some(c));
        }
    }
    fresh
}

/// Shared-liberty rate above which a living chain is called seki. 55%, not
/// 50%: misjudged seki on the tune half came from rates just above even
/// (2 more winners there; on validate 3 more exact, 1 more winner).
const SEKI_RATE: f64 = 0.55;

/// Status of every stone, per padded index, and the groups found dead by
/// reading their eye space.
fn chain_statuses(
    board: &Board,
    tallies: &[Tally; 2],
    reading: &confirm::Allowance,
    policy: Option<&dyn PlayoutPolicy>,
) -> (Calls, Bitboard) {
    let mut status = vec![PointStatus::Alive; crate::board::SLOTS];
    let mut reasons = vec![Reason::Benson; crate::board::SLOTS];
    let safe_both =
        unconditionally_alive(board, Color::Black) | unconditionally_alive(board, Color::White);
    let mut unsure = Vec::new();
    // Chains whose fate the playouts leave open: not safe to leave out of a
    // race's region.
    let mut shaky = Bitboard::EMPTY;
    let mut survival = vec![1.0; crate::board::SLOTS];
    for c in Color::ALL {
        let safe = safe_both & board.stones(c);
        let opp_first = &tallies[c.opponent().index()];
        let mut left = board.stones(c) & !safe;
        while let Some(p) = left.first() {
            let chain = Bitboard::flood_fill(Bitboard::single(p), board.stones(c));
            left &= !chain;
            let n = chain.count() as f64;
            let alive: f64 = chain.iter().map(|s| opp_first.owned_by(s, c)).sum::<f64>() / n;
            let seki: f64 = chain.iter().map(|s| opp_first.seki_rate(s)).sum::<f64>() / n;
            let s = if alive < 0.5 {
                PointStatus::Dead
            } else if seki > SEKI_RATE {
                PointStatus::Seki
            } else {
                PointStatus::Alive
            };
            let rate = if s == PointStatus::Seki { seki } else { alive };
            let why = Reason::Playouts {
                percent: (100.0 * rate).round() as u8,
            };
            for q in chain.iter() {
                status[q.index()] = s;
                reasons[q.index()] = why;
                survival[q.index()] = alive;
            }
            if s == PointStatus::Alive && alive <= UNSURE {
                unsure.push(p);
            }
            if alive <= UNSURE || seki >= SHAKY_SEKI {
                shaky |= chain;
            }
        }
    }
    let mut calls = Calls { status, reasons };
    untangle_seki(board, &mut calls, &survival);
    kill_eyeless(
        board,
        &mut calls,
        &survival,
        &mut unsure,
        &mut shaky,
        safe_both,
        reading,
    );
    read_lost_races(board, &mut calls, &survival, (shaky, safe_both), reading);
    read_races(board, &mut calls, &unsure, safe_both, shaky, reading);
    settle_seki_neighbours(board, &mut calls);
    confirm_seki(board, &mut calls, reading);
    let killed = read_eye_spaces(
        board, &mut calls, &survival, safe_both, shaky, reading, policy,
    );
    keep_open_kos(board, &mut calls);
    (calls, killed)
}

/// How many chains in seki make a board an open one rather than a finished
/// game: the tune half's finished games have at most 7, its unfinished
/// handicap games against weak players 35 to 49.
const SEKI_TANGLE: usize = 20;

/// With [`SEKI_TANGLE`] chains or more in seki the playouts met open areas
/// neither side would fill, not seki: each such chain is alive (it survives
/// at least half the playouts, or it would be dead already).
fn untangle_seki(board: &Board, calls: &mut Calls, survival: &[f64]) {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let seki = marked(on & stones, &calls.status, PointStatus::Seki);
    let chains: Vec<Bitboard> = Color::ALL
        .into_iter()
        .flat_map(|c| (seki & board.stones(c)).components())
        .collect();
    if chains.len() < SEKI_TANGLE {
        return;
    }
    for chain in chains {
        let p = chain.first().expect("a chain has a stone");
        let percent = (100.0 * survival[p.index()]).round() as u8;
        calls.set(chain, PointStatus::Alive, Reason::Playouts { percent });
    }
}

/// Most points (empty or enemy stones) an enclosed area may have to count
/// as a small eye space in [`read_eye_spaces`].
const EYE_SPACE: usize = 10;

/// Most empty points a bigger area of enemy stones may have to be read as
/// a race rather than as an eye space to live in.
const RACE_OPEN: usize = 3;

/// Reads out the groups the playouts keep alive whose only eye space is
/// small: the chains of one colour joined through small enclosed areas
/// (empty points and enemy stones, bounded by that colour alone), with
/// those areas and the group's dame. A group the opponent, moving first,
/// captures against every defence under the confirmation rules is dead and
/// the enemy stones inside it live. The playouts miss such kills when they
/// start with a sacrifice of two stones (a straight three with an enemy
/// stone inside), or when the group's second eye is a ko that, with ko
/// threats gone, only the attacker can win.
///
/// A second sweep reads the groups the first found no small area for, with
/// the enemy's safely living chains taken as walls: an eye space along the
/// edge that the enemy's wall touches (open to it, so not bounded by the
/// group alone) is read the same way.
fn read_eye_spaces(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    safe: Bitboard,
    shaky: Bitboard,
    reading: &confirm::Allowance,
    policy: Option<&dyn PlayoutPolicy>,
) -> Bitboard {
    let mut killed = Bitboard::EMPTY;
    for open in [false, true] {
        for c in Color::ALL {
            killed |= read_eye_space_sweep(
                board, calls, survival, safe, shaky, c, open, reading, policy,
            );
        }
    }
    killed
}

/// One sweep of [`read_eye_spaces`] over the groups of `c`; `open` for the
/// second, with the enemy's safe chains as walls.
#[allow(clippy::too_many_arguments)]
fn read_eye_space_sweep(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    safe: Bitboard,
    shaky: Bitboard,
    c: Color,
    open: bool,
    reading: &confirm::Allowance,
    policy: Option<&dyn PlayoutPolicy>,
) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let mut killed = Bitboard::EMPTY;
    let opp = c.opponent();
    let own = board.stones(c);
    let walls = if open {
        marked(board.stones(opp), &calls.status, PointStatus::Alive) & !shaky
    } else {
        Bitboard::EMPTY
    };
    let mut left = marked(own & !safe, &calls.status, PointStatus::Alive);
    while let Some(p) = left.first() {
        // The open sweep only takes the groups the first one left.
        let closed = eye_space_group(board, p, c, &calls.status, Bitboard::EMPTY);
        let group = match (open, closed) {
            (false, group) => group,
            (true, None) => eye_space_group(board, p, c, &calls.status, walls),
            (true, Some(_)) => None,
        };
        let Some(group) = group else {
            left &= !Bitboard::flood_fill(Bitboard::single(p), own);
            continue;
        };
        left &= !group.chains;
        if !(group.chains & safe).is_empty()
            || group
                .chains
                .iter()
                .any(|q| calls.status[q.index()] != PointStatus::Alive)
        {
            continue;
        }
        let playable = group.region | group.beyond;
        let empty = (playable & on & !stones).count();
        let unsure = group.chains.iter().any(|q| survival[q.index()] <= UNSURE);
        if empty > confirm::MAX_EMPTY {
            reading.too_big(board, confirm::EYE_SPACE_BUDGET.what, p, opp, empty);
            // Too big to read: the groups the playouts often lose get a
            // search of the fight near them instead.
            if !unsure {
                continue;
            }
            let moves = (playable | playable.neighbours()) & on & !stones;
            let searched = local_kill(board, group.chains, p, opp, moves, policy, reading);
            if let Some(percent) = searched {
                let why = Reason::SearchKilled { percent };
                killed |= mark_killed(board, calls, &group, opp, why);
            }
            continue;
        }
        // The search takes the enemy chains around those points as
        // uncapturable: they must be safely alive.
        let areas = group.region & !group.chains;
        let mut around = (group.beyond | areas).neighbours() & on & board.stones(opp) & !playable;
        let mut weak = false;
        while let Some(q) = around.first() {
            let enemy = Bitboard::flood_fill(Bitboard::single(q), board.stones(opp));
            around &= !enemy;
            let outside = board.liberties_bb(q) & !playable;
            if calls.status[q.index()] != PointStatus::Alive
                || shaky.contains(q)
                || outside.is_empty()
            {
                weak = true;
                break;
            }
        }
        if weak {
            continue;
        }
        // A long reading only for groups the playouts often lose.
        let budget = if unsure {
            confirm::EYE_SPACE_BUDGET
        } else {
            confirm::QUICK_BUDGET
        };
        let full_width =
            confirm::can_capture(board, group.region, playable, p, opp, opp, budget, reading);
        let kill = full_width.unwrap_or_else(|| {
            unsure && proof_number_kill(board, &group, playable, p, opp, reading)
        });
        if !kill {
            continue;
        }
        killed |= mark_killed(board, calls, &group, opp, Reason::EyeSpaceKilled);
    }
    killed
}

/// Whether `attacker`, moving first, kills `group` in an eye-space reading
/// by proof numbers. They find long kills full width runs out on, but also
/// kills that rest on the edge of the points read: such a kill must stand
/// again with the attacker's chains next to the group that are short of
/// liberties, and those liberties, played in too. Dev game 2017-01-18-12:
/// White's J1 takes away an eye, and the two stones H1 and J1 are then
/// left one liberty, G1, outside the points read; Black takes them there
/// and lives.
fn proof_number_kill(
    board: &Board,
    group: &EyeSpaceGroup,
    playable: Bitboard,
    target: Point,
    attacker: Color,
    reading: &confirm::Allowance,
) -> bool {
    let budget = confirm::EYE_SPACE_PROOF_BUDGET;
    let read = |playable| {
        confirm::can_capture(
            board,
            group.region,
            playable,
            target,
            attacker,
            attacker,
            budget,
            reading,
        )
    };
    if read(playable) != Some(true) {
        return false;
    }
    let stones = board.stones(attacker);
    let mut short = Bitboard::EMPTY;
    let mut touching = group.chains.neighbours() & stones & !playable;
    while let Some(q) = touching.first() {
        let chain = Bitboard::flood_fill(Bitboard::single(q), stones);
        touching &= !chain;
        let liberties = board.liberties_bb(q);
        if liberties.count() <= SHORT_OF_LIBERTIES {
            short |= chain | liberties;
        }
    }
    // Each chain taken lies outside `playable`: none means nothing to add.
    short.is_empty() || read(playable | short) == Some(true)
}

/// Marks the chains of `group` dead for `why`, and the stones of `attacker`
/// inside it alive; returns those chains.
fn mark_killed(
    board: &Board,
    calls: &mut Calls,
    group: &EyeSpaceGroup,
    attacker: Color,
    why: Reason,
) -> Bitboard {
    calls.set(group.chains, PointStatus::Dead, why);
    calls.set(
        group.region & board.stones(attacker),
        PointStatus::Alive,
        Reason::InsideDeadGroup,
    );
    group.chains
}

/// Playouts of the local search of a group whose eye space is too big to
/// read. Tune half, against 3,805 exact: 3,810 with 2,000; 3,807 with
/// 4,000, one game taking 2.8 s (docs/counting-log.md).
const LOCAL_SEARCH_PLAYOUTS: usize = 2000;

/// Seed of the local searches, mixed with the point searched.
const LOCAL_SEARCH_SEED: u64 = 0x10ca1;

/// The percentage of a local search (`local_search.rs`) over the empty
/// points `moves` in which `attacker`, moving first, captures `chains`
/// (through `p`), when that is at least half; `None` when they live in
/// most of it or the judgement's local searches have no moves left.
fn local_kill(
    board: &Board,
    chains: Bitboard,
    p: Point,
    attacker: Color,
    moves: Bitboard,
    policy: Option<&dyn PlayoutPolicy>,
    reading: &confirm::Allowance,
) -> Option<u8> {
    let left = reading.search_moves_left();
    if left == 0 {
        return None;
    }
    let mut rng = FastRng::new(LOCAL_SEARCH_SEED ^ p.index() as u64);
    let searched = local_search::capture_rate(
        board,
        chains,
        attacker,
        moves,
        policy,
        LOCAL_SEARCH_PLAYOUTS,
        left,
        &mut rng,
    );
    reading.spend_search_moves(searched.moves);
    let percent = (100.0 * searched.rate).round() as u8;
    reading.searched(board, p, attacker, searched.playouts, percent);
    (searched.rate >= 0.5).then_some(percent)
}

/// A group of `c` read by [`read_eye_spaces`].
struct EyeSpaceGroup {
    /// The chains of `c`.
    chains: Bitboard,
    /// The chains and their small enclosed areas.
    region: Bitboard,
    /// Points outside the region both sides may play: the chains' other
    /// liberties (dame) and the empty points next to them, dead stones of
    /// `c` next to the areas with their liberties, and the enemy chains the
    /// group touches that are not sure to live, with their liberties and
    /// the points next to those.
    beyond: Bitboard,
}

/// The chain through `p` and every chain of its colour `c` reached through
/// small enclosed areas next to them (bounded by `c` and by `walls`, enemy
/// stones taken as living); `None` when one of those chains
/// touches a bigger area bounded by `c` alone (an eye space big enough to
/// live in) or has no such small area at all.
fn eye_space_group(
    board: &Board,
    p: Point,
    c: Color,
    status: &[PointStatus],
    walls: Bitboard,
) -> Option<EyeSpaceGroup> {
    let on = Bitboard::on_board(board.size());
    let own = board.stones(c);
    let not_own = on & !own;
    let opp = board.stones(c.opponent());
    let dead = marked(own, status, PointStatus::Dead);
    let mut chains = Bitboard::flood_fill(Bitboard::single(p), own);
    let mut areas = Bitboard::EMPTY;
    let mut outside = Bitboard::EMPTY;
    while let Some(q) = (chains.neighbours() & not_own & !walls & !areas & !outside).first() {
        let area = Bitboard::flood_fill(Bitboard::single(q), not_own & !walls);
        if area.count() <= EYE_SPACE {
            areas |= area;
            let living = area.neighbours() & own & !dead;
            chains |= Bitboard::flood_fill(living, own);
        } else if !(area & opp & !marked(opp, status, PointStatus::Dead)).is_empty()
            || (area & !opp).count() <= RACE_OPEN
            || !(area.neighbours() & walls).is_empty()
        {
            // The outside, or enemy stones with few liberties left: a
            // race, read with those stones and their liberties.
            outside |= area;
        } else {
            return None;
        }
    }
    if areas.is_empty() {
        return None;
    }
    let empty = on & !(own | opp);
    let next = |points: Bitboard| points.neighbours() & empty;
    // Dead stones of `c` next to those areas: the attacker may need to
    // capture them to take an eye.
    let cut_off = Bitboard::flood_fill(areas.neighbours() & dead, dead);
    // Enemy chains the group touches that are not sure to live: a race,
    // read with their liberties and the points next to those. A chain
    // that stepped onto a liberty would otherwise gain liberties the
    // reading never fills, and be taken for uncapturable.
    let sure = marked(opp, status, PointStatus::Alive);
    let racing = Bitboard::flood_fill(chains.neighbours() & opp & !sure & !areas, opp & !sure);
    let racing_libs = next(racing);
    // The chains' liberties outside, with the empty points next to them:
    // an attacker stone played on such a dame would otherwise keep a
    // liberty the reading never fills, and never be captured.
    let dame = chains.neighbours() & outside & empty;
    Some(EyeSpaceGroup {
        chains,
        region: chains | areas,
        beyond: dame
            | next(dame)
            | cut_off
            | next(cut_off)
            | racing
            | racing_libs
            | next(racing_libs),
    })
}

/// Most liberties of an attacker's chain next to a group for a
/// [`proof_number_kill`] to be read again with that chain capturable.
const SHORT_OF_LIBERTIES: usize = 2;
/// Survival rate below which a chain the playouts keep alive is read out.
const UNSURE: f64 = 0.8;
/// Seki rate from which a chain counts as unsettled in a race.
const SHAKY_SEKI: f64 = 0.25;
/// Most liberties a chain may have to be read out in a race.
const RACE_LIBERTIES: usize = 4;
/// Most liberties a chain may have for [`read_eyeless_race`]: a long chain
/// with no eye can still be in seki, its outside liberties next to the
/// enemy's wall and two more shared with the enemy stones inside it (tune:
/// 2001-05-18-5, 37 stones with 7 liberties; 1 game fixed, none broken,
/// at 8; validate: 2 fixed, none broken). The region's empty points bound
/// the reading whatever this is.
const EYELESS_RACE_LIBERTIES: usize = 8;

/// Reads out the capturing races of chains the playouts keep alive but
/// often lose: the chain, its liberties, and the chains short of liberties
/// next to them (enemy chains next to the chain or to its liberties,
/// friendly ones next to its liberties), with their liberties, make a small
/// region searched exactly (`confirm.rs`). A chain the opponent, moving
/// first, captures against every defence is dead, unless it could itself
/// capture one of those enemy chains moving first (a race whoever starts
/// wins stays with the playouts).
fn read_races(
    board: &Board,
    calls: &mut Calls,
    unsure: &[Point],
    safe: Bitboard,
    shaky: Bitboard,
    reading: &confirm::Allowance,
) {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    for &p in unsure {
        let Some(c) = board.get(p) else { continue };
        let opp = c.opponent();
        let chain = Bitboard::flood_fill(Bitboard::single(p), board.stones(c));
        let libs = board.liberties_bb(p);
        // A stone in atari left at the end is mostly a ko counted as it
        // stands; the playouts judge it.
        if libs.count() < 2 || libs.count() > RACE_LIBERTIES {
            continue;
        }
        let core = chain | libs;
        let mut playable = core;
        // An enemy chain short of liberties next to a liberty is in the race
        // too: left out, it could fill that liberty as if it were safe.
        let mut near = ((chain.neighbours() | libs.neighbours()) & board.stones(opp) & !safe)
            | (libs.neighbours() & board.stones(c) & !chain);
        // An enemy chain left out of the region must be safe: the search
        // treats it as uncapturable.
        let mut outside_weak = false;
        while let Some(q) = near.first() {
            let other =
                Bitboard::flood_fill(Bitboard::single(q), board.stones(board.get(q).unwrap_or(c)));
            near &= !other;
            let other_libs = board.liberties_bb(q);
            if other_libs.count() > libs.count() + 2 {
                if board.get(q) == Some(opp)
                    && (calls.status[q.index()] != PointStatus::Alive || shaky.contains(q))
                {
                    outside_weak = true;
                }
                continue;
            }
            playable |= other | other_libs;
        }
        if outside_weak {
            continue;
        }
        let empty = (playable & on & !stones).count();
        if empty > confirm::MAX_EMPTY {
            reading.too_big(board, confirm::RACE_READ_BUDGET.what, p, opp, empty);
            continue;
        }
        // Dead only when captured even if it moves first: a race whoever
        // starts wins stays with the playouts.
        let r = confirm::can_capture(
            board,
            core,
            playable,
            p,
            opp,
            c,
            confirm::RACE_READ_BUDGET,
            reading,
        );
        if r != Some(true) {
            continue;
        }
        // The capture must leave the capturer alive: each enemy chain next
        // to the dead one is alive for sure, or lies within the region with
        // all its liberties and all its neighbours, so that the race was
        // its only threat (a nakade stone inside a dead group is not dead
        // for being capturable).
        let mut revive = Bitboard::EMPTY;
        let mut capturer_dies = false;
        let mut enemies = chain.neighbours() & board.stones(opp);
        while let Some(e) = enemies.first() {
            let enemy = Bitboard::flood_fill(Bitboard::single(e), board.stones(opp));
            enemies &= !enemy;
            if calls.status[e.index()] == PointStatus::Alive && !shaky.contains(e) {
                continue;
            }
            let around = board.liberties_bb(e) | (enemy.neighbours() & board.stones(c));
            if (around & !playable).is_empty() {
                revive |= enemy;
            } else {
                capturer_dies = true;
                break;
            }
        }
        if capturer_dies {
            continue;
        }
        calls.set(chain, PointStatus::Dead, Reason::RaceLost);
        calls.set(revive, PointStatus::Alive, Reason::RaceWon);
    }
}

/// A chain judged dead that shares a liberty with an enemy chain judged to
/// be in seki is in that seki too: if it were dead, its neighbour would
/// simply be alive. The playouts that judge the two chains differ (each
/// chain's opponent moves first), and where they disagree people agree on
/// seki.
fn settle_seki_neighbours(board: &Board, calls: &mut Calls) {
    loop {
        let mut changed = false;
        for c in Color::ALL {
            let mut left = board.stones(c);
            while let Some(p) = left.first() {
                let chain = Bitboard::flood_fill(Bitboard::single(p), board.stones(c));
                left &= !chain;
                if calls.status[p.index()] != PointStatus::Dead {
                    continue;
                }
                let libs = board.liberties_bb(p);
                // A chain in atari the seki chain can take safely is a
                // stone in its eye, not a seki partner.
                let takeable = libs.first().filter(|_| libs.count() == 1).is_some_and(|l| {
                    board.is_legal(l, c.opponent()) && !board.is_self_atari(l, c.opponent())
                });
                if takeable {
                    continue;
                }
                let seki_next = (libs.neighbours() & board.stones(c.opponent()))
                    .iter()
                    .any(|q| calls.status[q.index()] == PointStatus::Seki);
                if seki_next {
                    calls.set(chain, PointStatus::Seki, Reason::SekiNeighbour);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Plays out each small seki region under the confirmation rules: when one
/// side, moving first, captures the other's stones there whatever they do
/// (and not the other way round), those stones are dead and its own are
/// alive. Bent four in the corner is the classic case.
fn confirm_seki(board: &Board, calls: &mut Calls, reading: &confirm::Allowance) {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let seki = marked(on & stones, &calls.status, PointStatus::Seki);
    let mut left = seki;
    while let Some(p) = left.first() {
        let region = Bitboard::flood_fill(Bitboard::single(p), seki | (on & !stones));
        left &= !region;
        let empty = (region & !stones).count();
        if empty > confirm::MAX_EMPTY {
            if let Some(c) = board.get(p) {
                reading.too_big(board, confirm::SEKI_BUDGET.what, p, c.opponent(), empty);
            }
            continue;
        }
        // Dead stones in the region's eyes: their points are played on
        // once they are taken.
        let dead = marked(on & stones, &calls.status, PointStatus::Dead);
        let inside = Bitboard::flood_fill((region & !stones).neighbours() & dead, dead);
        let mut playable = region | inside | dame_liberties(board, region, &calls.status);
        if (playable & !stones).count() > confirm::MAX_EMPTY {
            playable = region | inside;
        }
        // Whether the stones of `c` in the region are all captured with
        // `first` to move. One reading a colour: the attacker has won only
        // once the region holds none of them, so each chain asks the same.
        let captured = |c: Color, first: Color| {
            let Some(q) = (region & board.stones(c)).first() else {
                return false;
            };
            let r = confirm::can_capture(
                board,
                region,
                playable,
                q,
                c.opponent(),
                first,
                confirm::SEKI_BUDGET,
                reading,
            );
            r == Some(true)
        };
        // The colours whose stones the other side, moving first, captures.
        let mut killable = Color::ALL.map(|c| captured(c, c.opponent()));
        let mut reason = Reason::SekiBroken;
        if killable.iter().all(|&k| k) {
            // Each side, moving first, captures: no seki. A side captured
            // even when it moves first is dead, and the other side lives.
            killable = Color::ALL.map(|c| captured(c, c));
            reason = Reason::CapturedEitherWay;
        }
        for c in Color::ALL {
            if !killable[c.index()] || killable[c.opponent().index()] {
                continue;
            }
            calls.set(
                region & board.stones(c.opponent()),
                PointStatus::Alive,
                Reason::SekiPartnerDies,
            );
            calls.set(region & board.stones(c), PointStatus::Dead, reason);
        }
    }
}

/// Liberties outside `region` of the chains in it or touching its empty
/// points that are dame: next to a living enemy stone. People fill such a
/// point before counting, so a race is read with it open to both sides
/// rather than as a liberty its owner keeps for ever (a seki holds when
/// the defender can fill the attacker's outside liberty first).
fn dame_liberties(board: &Board, region: Bitboard, status: &[PointStatus]) -> Bitboard {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let near = (region | (region & !stones).neighbours()) & stones;
    let mut extra = Bitboard::EMPTY;
    for c in Color::ALL {
        let enemy = on & board.stones(c.opponent());
        let living = enemy & !marked(enemy, status, PointStatus::Dead);
        let mut chains = near & board.stones(c);
        while let Some(q) = chains.first() {
            chains &= !Bitboard::flood_fill(Bitboard::single(q), board.stones(c));
            extra |= board.liberties_bb(q) & !region & living.neighbours();
        }
    }
    extra
}

/// Survival rate below which a chain in a group with fewer than two eyes
/// is dead. Light playouts let a group shut inside the opponent's area
/// live about half the time whatever its shape, a little more often when
/// it is big; a group with two eyes is left to the playouts' own verdict.
const FEW_EYES_BELOW: f64 = 0.6;

/// Open points (see [`open_points`]) from which a board is an unfinished
/// game counted by agreement: of 66 tune-half games (every 60th), the
/// median has 7, two have 20 or more. There players count a weak group with
/// fewer than two eyes dead even when the playouts, which let it make eyes
/// in the open area, keep it alive up to [`UNSURE`] of the time (tune: 6
/// games fixed, 1 broken, 3 more winners; validate: 4 fixed, none broken,
/// 2 more winners).
const OPEN_BOARD: usize = 30;

/// Chains the playouts keep alive less often than [`FEW_EYES_BELOW`] (on an
/// open board, [`UNSURE`]), in a group (chains joined through areas they
/// alone enclose) with fewer than two eyes and no chain surviving more
/// often: dead, unless [`read_eyeless_race`] finds that they live.
fn kill_eyeless(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    unsure: &mut Vec<Point>,
    shaky: &mut Bitboard,
    safe: Bitboard,
    reading: &confirm::Allowance,
) {
    let mut kill = Bitboard::EMPTY;
    let mut races = RacesRead::default();
    let below = if open_points(board, calls) >= OPEN_BOARD {
        UNSURE
    } else {
        FEW_EYES_BELOW
    };
    for c in Color::ALL {
        let dead_opp = marked(board.stones(c.opponent()), &calls.status, PointStatus::Dead);
        let mut done = Bitboard::EMPTY;
        for p in board.stones(c).iter() {
            if done.contains(p)
                || calls.status[p.index()] != PointStatus::Alive
                || survival[p.index()] >= below
            {
                continue;
            }
            let g = eyes::group(board, p, dead_opp);
            done |= g.chains;
            if g.eyes >= 2 || g.chains.iter().any(|q| survival[q.index()] >= below) {
                continue;
            }
            let walls = (*shaky, safe);
            let read = read_eyeless_race(board, calls, g.chains, survival, walls, reading);
            if !races.take(g.chains, read) {
                kill |= marked(g.chains, &calls.status, PointStatus::Alive);
            }
        }
    }
    races.apply(calls);
    for q in kill.iter() {
        let percent = (100.0 * survival[q.index()]).round() as u8;
        calls.set(
            Bitboard::single(q),
            PointStatus::Dead,
            Reason::FewEyes { percent },
        );
    }
    unsure.retain(|q| !kill.contains(*q));
    *shaky |= kill;
}

/// Survival rate from which [`read_lost_races`] reads a chain the playouts
/// kill: from 20% it kept a chain the players count dead (tune: 1 game
/// fixed, 1 broken); from 30%, only the fixed one.
const LOST_RACE_FROM: f64 = 0.3;

/// Chains the playouts kill, but in no fewer than [`LOST_RACE_FROM`] of
/// them, read as [`read_eyeless_race`] reads an eyeless chain: the
/// playouts' races go either way when both sides are short of liberties,
/// and a chain the opponent cannot capture even moving first is not dead
/// (alive, or in seki with its race partner).
fn read_lost_races(
    board: &Board,
    calls: &mut Calls,
    survival: &[f64],
    walls: (Bitboard, Bitboard),
    reading: &confirm::Allowance,
) {
    let mut races = RacesRead::default();
    for c in Color::ALL {
        for chain in board.stones(c).components() {
            let Some(p) = chain.first() else { continue };
            if calls.status[p.index()] != PointStatus::Dead
                || !matches!(calls.reasons[p.index()], Reason::Playouts { .. })
                || survival[p.index()] < LOST_RACE_FROM
            {
                continue;
            }
            let read = read_eyeless_race(board, calls, chain, survival, walls, reading);
            races.take(chain, read);
        }
    }
    races.apply(calls);
}

/// What [`read_eyeless_race`] found over a sweep, set once the sweep is
/// done (the readings judge the statuses the sweep started from).
#[derive(Default)]
struct RacesRead {
    /// Chains not captured even with the opponent first.
    held: Bitboard,
    /// Chains in seki with their race partners.
    seki: Bitboard,
}

impl RacesRead {
    /// Records the reading of `chains`; false when it left the playouts'
    /// verdict standing.
    fn take(&mut self, chains: Bitboard, read: Option<Bitboard>) -> bool {
        match read {
            Some(pair) if pair.is_empty() => self.held |= chains,
            Some(pair) => self.seki |= pair,
            None => return false,
        }
        true
    }

    /// Seki last: a chain held in its own reading and found in seki in its
    /// partner's is in seki.
    fn apply(self, calls: &mut Calls) {
        calls.set(self.held, PointStatus::Alive, Reason::RaceHeld);
        calls.set(self.seki, PointStatus::Seki, Reason::SekiRead);
    }
}

/// A group [`kill_eyeless`] would kill, or a chain the playouts killed
/// ([`read_lost_races`]), that is one chain with 2 to [`EYELESS_RACE_LIBERTIES`]
/// liberties next to enemy chains the playouts keep alive but often lose
/// or leave in seki (`shaky`):
/// read as a race over the chains, their liberties and every empty point
/// joined to them, with every chain next to those that is not firmly alive
/// (`shaky`, under [`UNSURE`]) taken in. A chain the opponent cannot
/// capture even moving first lives (`Some`): in seki with those enemy
/// chains (returned) when they cannot be captured either, else it has won
/// the race (an empty set). The playouts, which fill shared liberties at
/// random, kill one side of a seki about half the time. `None`: the
/// playouts' verdict stands (captured, or the reading cannot tell).
fn read_eyeless_race(
    board: &Board,
    calls: &Calls,
    chains: Bitboard,
    survival: &[f64],
    (shaky, safe): (Bitboard, Bitboard),
    reading: &confirm::Allowance,
) -> Option<Bitboard> {
    let on = Bitboard::on_board(board.size());
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let p = chains.first()?;
    let c = board.get(p)?;
    let opp = c.opponent();
    let libs = board.liberties_bb(p);
    if Bitboard::flood_fill(Bitboard::single(p), board.stones(c)) != chains
        || libs.count() < 2
        || libs.count() > EYELESS_RACE_LIBERTIES
    {
        return None;
    }
    let firm = |q: Point| {
        safe.contains(q)
            || (calls.status[q.index()] == PointStatus::Alive
                && survival[q.index()] >= UNSURE
                && !shaky.contains(q))
    };
    let mut racing = Vec::new();
    let mut playable = chains | libs;
    let mut near = chains.neighbours() & board.stones(opp) & !safe;
    while let Some(q) = near.first() {
        let enemy = Bitboard::flood_fill(Bitboard::single(q), board.stones(opp));
        near &= !enemy;
        // A partner the playouts often lose or leave in seki: a race, or a
        // seki by capture-and-play-back.
        if calls.status[q.index()] == PointStatus::Alive
            && (survival[q.index()] < UNSURE || shaky.contains(q))
        {
            racing.push(enemy);
            playable |= enemy | board.liberties_bb(q);
        } else if !firm(q) {
            return None;
        }
    }
    if racing.is_empty() {
        return None;
    }
    // Close the region: a liberty gained on an empty point left out, or a
    // weak chain left out, would be taken for a way out.
    loop {
        let empty = playable & on & !stones;
        if empty.count() > confirm::MAX_EMPTY {
            return None;
        }
        let mut more = empty.neighbours() & on & !stones & !playable;
        let mut touching =
            (empty.neighbours() | (playable & stones).neighbours()) & stones & !playable;
        while let Some(q) = touching.first() {
            let other = Bitboard::flood_fill(Bitboard::single(q), board.stones(board.get(q)?));
            touching &= !other;
            if !firm(q) {
                more |= other | board.liberties_bb(q);
            }
        }
        if more.is_empty() {
            break;
        }
        playable |= more;
    }
    let captured = |region: Bitboard, target: Point, attacker: Color, budget| {
        confirm::can_capture(
            board, region, playable, target, attacker, attacker, budget, reading,
        )
    };
    if captured(chains | libs, p, opp, confirm::RACE_BUDGET) != Some(false) {
        return None;
    }
    let mut pair = chains;
    for enemy in racing {
        let q = enemy.first()?;
        let region = enemy | board.liberties_bb(q);
        if captured(region, q, c, confirm::RACE_PARTNER_BUDGET) != Some(false) {
            return Some(Bitboard::EMPTY);
        }
        pair |= enemy;
    }
    Some(pair)
}

/// Empty points in areas (with the stones called dead) that touch living
/// or seki stones of both colours: the dame and the open parts of the board.
fn open_points(board: &Board, calls: &Calls) -> usize {
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let dead = marked(stones, &calls.status, PointStatus::Dead);
    let living = Color::ALL.map(|c| board.stones(c) & !dead);
    (super::shared_points(board.size(), living) & !stones).count()
}

/// A ko left open at the end counts as it stands, as players count it: a
/// single stone in atari whose capture is a ko capture (the capturer would
/// stand alone in atari on the point it took) is not dead for that, when
/// the stones around the ko point live. The playouts, the opponent moving
/// first, take it about half the time.
fn keep_open_kos(board: &Board, calls: &mut Calls) {
    for c in Color::ALL {
        for p in board.stones(c).iter() {
            if calls.status[p.index()] == PointStatus::Seki || board.chain_size(p) != 1 {
                continue;
            }
            let Some(a) = board.atari_point(p) else {
                continue;
            };
            let opp = c.opponent();
            if !board.is_legal(a, opp) {
                continue;
            }
            // The ko point's other owners must live: a stone in a dead group
            // is dead whatever the ko.
            let owners_dead = a.neighbours().iter().any(|&n| {
                n != p && board.get(n) == Some(c) && calls.status[n.index()] == PointStatus::Dead
            });
            if owners_dead {
                continue;
            }
            let mut b = board.clone();
            b.play_unchecked(a, opp);
            if b.ko_point() == Some(p) {
                calls.set(Bitboard::single(p), PointStatus::Alive, Reason::OpenKo);
            }
        }
    }
}

/// The points of `stones` whose status is `s`.
fn marked(stones: Bitboard, status: &[PointStatus], s: PointStatus) -> Bitboard {
    stones.iter().filter(|p| status[p.index()] == s).collect()
}

/// Each stone's status and why, per padded index.
struct Calls {
    status: Vec<PointStatus>,
    reasons: Vec<Reason>,
}

impl Calls {
    fn set(&mut self, stones: Bitboard, s: PointStatus, why: Reason) {
        for q in stones.iter() {
            self.status[q.index()] = s;
            self.reasons[q.index()] = why;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's wall on row 7 and White's on row 6; below, inside White's
    /// area, a black group with one eye (A1-B1) and one with two (G1, J1).
    fn board() -> Board {
        crate::score::tests::groups_under_walls("..XXOX.X.")
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        for p in black.iter() {
            survival[p.index()] = 0.55;
        }
        for p in b.stones(Color::White).iter() {
            survival[p.index()] = 0.6;
        }
        survival
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        survival[Point::new(1, 8).index()] = 0.55;
        for p in b.stones(Color::White).iter() {
            survival[p.index()] = 0.6;
        }
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        for p in black.iter() {
            survival[p.index()] = 0.55;
        }
        survival[Point::new(4, 0).index()] = 0.6;
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
            let mut survival = seki_survival(&b, black);
            let mut calls = calls();
            for p in black.iter() {
                survival[p.index()] = rate;
            }
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
            let mut survival = vec![1.0; crate::board::SLOTS];
            for p in white.iter() {
                survival[p.index()] = 0.9;
            }
            for p in black.iter() {
                survival[p.index()] = 0.35;
            }
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        for p in b.stones(Color::Black).iter().filter(|p| p.y() >= 7) {
            survival[p.index()] = 0.55;
        }
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        for p in group.iter() {
            survival[p.index()] = 0.7;
        }
        // The calls, the chains killed and the readings, with no chain safe
        // or shaky.
        let read = |survival: &[f64]| {
            let mut calls = calls();
            let reading = confirm::Allowance::new(confirm::READING_ALLOWANCE);
            let e = Bitboard::EMPTY;
            let killed = read_eye_spaces(&b, &mut calls, survival, e, e, &reading, None);
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
        let killed = read_eye_spaces(b, &mut calls, &survival, safe, e, &reading, None);
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
            let mut survival = vec![1.0; crate::board::SLOTS];
            for p in b.stones(Color::Black).iter().filter(|p| p.y() >= 7) {
                survival[p.index()] = 0.7;
            }
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
        let mut survival = vec![1.0; crate::board::SLOTS];
        for p in b.stones(Color::Black).iter().filter(|p| p.y() >= 7) {
            survival[p.index()] = if p.x() == 2 && p.y() == 8 { 0.7 } else { 0.55 };
        }
        let mut calls = calls();
        let mut unsure = Vec::new();
        kill_eyeless_in(&b, &mut calls, &survival, &mut unsure);
        assert!(b
            .stones(Color::Black)
            .iter()
            .all(|p| calls.status[p.index()] == PointStatus::Alive));
    }
}

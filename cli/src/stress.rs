//! `kosumi stress`: random games through the rules core with every invariant
//! checked after every move and undo.
//!
//! Each game `g` uses its own seed (`--seed` plus `g`), so a failure names
//! the one game to replay. Moves are mostly [`random_move`] (legal, no eye
//! filling), sometimes a random point of the board (to meet occupied points,
//! suicide and ko), sometimes a pass; undos come at `--undo-rate`. After
//! each step the board must pass [`Board::check_invariants`], its hash must
//! equal a recomputation, prisoners must match the stones placed minus the
//! stones left, and an undo must restore the hash and prisoners exactly.

use super::progress::{Mode, Progress};
use anyhow::{bail, ensure};
use kosumi::board::{
    random_move, Board, Color, FastRng, Game, Move, PlayError, Point, Rules, Vertex,
};
use std::time::{Duration, Instant};

/// Options of `kosumi stress`.
#[derive(clap::Args, Debug, Clone)]
pub struct StressArgs {
    /// Board side (1 to 25).
    #[arg(long, default_value_t = 19)]
    pub size: usize,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first game; game `g` uses `seed + g`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set: japanese, swedish, chinese, aga, new_zealand, tromp-taylor.
    #[arg(long, default_value = "japanese")]
    pub rules: String,
    /// Actions per game (moves, passes and undos); default 3 x size x size.
    #[arg(long)]
    pub moves_per_game: Option<usize>,
    /// Probability of an undo at each step (0 to 1).
    #[arg(long, default_value_t = 0.05)]
    pub undo_rate: f64,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One action of a game, kept to print a reproducer.
#[derive(Clone, Copy, Debug)]
enum Action {
    Play(Color, Move),
    Undo,
}

/// Totals over all games.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct StressSummary {
    /// Games played.
    pub games: u64,
    /// Stones played.
    pub moves: u64,
    /// Passes played.
    pub passes: u64,
    /// Undos carried out.
    pub undos: u64,
    /// Stones captured (suicides included).
    pub captures: u64,
    /// Moves that left a ko point.
    pub kos: u64,
    /// Moves refused by positional superko.
    pub superko_refusals: u64,
    /// Moves refused as occupied, suicide or simple ko.
    pub other_refusals: u64,
}

/// A broken invariant and how to reproduce it.
#[derive(Debug, Clone)]
pub struct Violation {
    /// What broke.
    pub what: String,
    /// The `kosumi stress` options that replay the failing game.
    pub reproduce: String,
    /// The actions of that game up to the failure, in GTP terms.
    pub actions: Vec<String>,
    /// The board when it broke.
    pub board: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, reproduce, board) = (&self.what, &self.reproduce, &self.board);
        let (n, actions) = (self.actions.len(), self.actions.join(", "));
        write!(
            f,
            "invariant violated: {what}\nreproduce: kosumi stress {reproduce}\nactions ({n}): {actions}\n{board}"
        )
    }
}

impl std::error::Error for Violation {}

/// The figures one game's checks need.
struct Tracker {
    /// Stones each colour has put on the board.
    placed: [u64; 2],
    /// Hash and prisoners before each move still on the game's stack.
    before: Vec<(u64, [u32; 2])>,
}

fn captures_of(board: &Board) -> [u32; 2] {
    [board.captures(Color::Black), board.captures(Color::White)]
}

/// Checks everything that must hold after any step of `game`.
fn check_all(game: &Game, tracker: &Tracker) -> anyhow::Result<()> {
    let board = game.board();
    board.check_invariants()?;
    if board.position_hash() != board.recompute_hash() {
        bail!("position hash differs from recomputation");
    }
    for p in board.points() {
        if board.get(p).is_some() && board.liberty_count(p) == 0 {
            bail!("chain at {} has no liberty", p.to_gtp(board.size()));
        }
    }
    for c in Color::ALL {
        let on_board = board.stones(c).count() as u64;
        let mut lost = board.captures(c.opponent()) as u64;
        if game.rules().pass_gives_prisoner() {
            lost -= game.pass_count(c) as u64;
        }
        let placed = tracker.placed[c.index()];
        ensure!(
            placed == on_board + lost,
            "{c}: {placed} stones placed but {on_board} on the board and {lost} taken"
        );
    }
    Ok(())
}

fn describe(actions: &[Action], size: usize) -> Vec<String> {
    actions
        .iter()
        .map(|a| match a {
            Action::Undo => "undo".to_string(),
            Action::Play(c, mv) => format!("{} {}", c.letter(), Vertex::from_move(*mv, size)),
        })
        .collect()
}

/// Plays one game of `steps` actions, adding to `summary`.
fn stress_game(
    size: usize,
    rules: Rules,
    game_seed: u64,
    steps: usize,
    undo_rate: f64,
    summary: &mut StressSummary,
) -> Result<(), Violation> {
    let reproduce = format!(
        "--size {size} --rules {} --games 1 --seed {game_seed} --moves-per-game {steps} --undo-rate {undo_rate}",
        rules.name()
    );
    let mut rng = FastRng::new(game_seed);
    let mut game = Game::new(size, rules);
    let mut tracker = Tracker {
        placed: [0; 2],
        before: Vec::new(),
    };
    let mut actions: Vec<Action> = Vec::new();
    // Undo threshold on a 2^32 scale.
    let undo_below = (undo_rate.clamp(0.0, 1.0) * (1u64 << 32) as f64) as u64;
    let fail = |what: String, actions: &[Action], game: &Game| Violation {
        what,
        reproduce: reproduce.clone(),
        actions: describe(actions, size),
        board: game.board().to_string(),
    };
    // Play goes on after two passes: long games reach the crowded
    // positions where bugs hide.
    for _ in 0..steps {
        if (rng.next_u64() >> 32) < undo_below && !game.moves().is_empty() {
            let &(color, mv) = game.moves().last().expect("not empty");
            actions.push(Action::Undo);
            if !game.undo() {
                return Err(fail("undo refused with moves left".into(), &actions, &game));
            }
            if let Move::Play(_) = mv {
                tracker.placed[color.index()] -= 1;
            }
            let (hash, caps) = tracker.before.pop().expect("one per move");
            if game.board().position_hash() != hash || captures_of(game.board()) != caps {
                return Err(fail(
                    "undo did not restore hash and prisoners".into(),
                    &actions,
                    &game,
                ));
            }
            summary.undos += 1;
        } else {
            let color = game.to_move();
            let roll = rng.below(100);
            let mv = if roll < 2 {
                Move::Pass
            } else if roll < 12 {
                Move::Play(Point::new(rng.below(size), rng.below(size)))
            } else {
                random_move(game.board(), color, &mut rng).map_or(Move::Pass, Move::Play)
            };
            let before = (game.board().position_hash(), captures_of(game.board()));
            let taken_before = game.board().captures(Color::Black) as u64
                + game.board().captures(Color::White) as u64;
            match game.play(color, mv) {
                Ok(()) => {
                    actions.push(Action::Play(color, mv));
                    tracker.before.push(before);
                    match mv {
                        Move::Pass => summary.passes += 1,
                        Move::Play(_) => {
                            tracker.placed[color.index()] += 1;
                            summary.moves += 1;
                            let board = game.board();
                            summary.captures += board.captures(Color::Black) as u64
                                + board.captures(Color::White) as u64
                                - taken_before;
                            if board.ko_point().is_some() {
                                summary.kos += 1;
                            }
                        }
                    }
                }
                Err(PlayError::Superko) => summary.superko_refusals += 1,
                Err(PlayError::OffBoard) => {
                    return Err(fail(
                        format!("{} refused as off the board", Vertex::from_move(mv, size)),
                        &actions,
                        &game,
                    ));
                }
                Err(_) => summary.other_refusals += 1,
            }
        }
        if let Err(what) = check_all(&game, &tracker) {
            return Err(fail(what.to_string(), &actions, &game));
        }
    }
    summary.games += 1;
    Ok(())
}

/// Runs the stress games; `Err` carries the first violation.
pub fn stress(args: &StressArgs) -> anyhow::Result<StressSummary> {
    stress_with_progress(
        args,
        &Progress::with_mode("games", args.games, Mode::Hidden),
    )
}

/// [`stress`], advancing `progress` by one step per game.
pub fn stress_with_progress(
    args: &StressArgs,
    progress: &Progress,
) -> anyhow::Result<StressSummary> {
    let rules = Rules::parse(&args.rules)?;
    let (size, undo_rate) = (args.size, args.undo_rate);
    ensure!(
        Board::try_new(size).is_some(),
        "board size {size} is out of range (1 to 25)"
    );
    ensure!(
        (0.0..=1.0).contains(&undo_rate),
        "undo rate {undo_rate} is not a probability (0 to 1)"
    );
    let steps = args.moves_per_game.unwrap_or(3 * args.size * args.size);
    let mut summary = StressSummary::default();
    for g in 0..args.games {
        let game_seed = args.seed.wrapping_add(g);
        stress_game(size, rules, game_seed, steps, undo_rate, &mut summary)?;
        progress.advance(
            1,
            &format!("{} moves, {} captures", summary.moves, summary.captures),
        );
    }
    Ok(summary)
}

/// `kosumi stress`: prints the summary and speed; exit status 0 when every
/// invariant held, 1 on a violation (with its reproducer), 2 on bad options.
pub fn run(args: &StressArgs) -> i32 {
    let start = Instant::now();
    // Plain lines every ten seconds at most: a game takes milliseconds.
    let progress =
        Progress::new("games", args.games, args.quiet).plain_every(Duration::from_secs(10));
    let result = stress_with_progress(args, &progress);
    progress.finish();
    let elapsed = start.elapsed().as_secs_f64();
    match result {
        Ok(s) => {
            let actions = s.moves + s.passes + s.undos;
            outln!(
                "{} games on {}x{} ({}): {} moves, {} passes, {} undos, {} captures, {} kos, {} superko refusals, {} other refusals",
                s.games, args.size, args.size, args.rules, s.moves, s.passes, s.undos,
                s.captures, s.kos, s.superko_refusals, s.other_refusals
            );
            outln!(
                "{:.2} s, {:.0} moves/s (all invariants checked after each of {} actions)",
                elapsed,
                s.moves as f64 / elapsed.max(1e-9),
                actions
            );
            outln!("ok");
            0
        }
        Err(e) if e.is::<Violation>() => {
            eprintln!("{e}");
            1
        }
        Err(e) => {
            eprintln!("kosumi stress: {e:#}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: StressArgs,
    }

    fn args(line: &str) -> StressArgs {
        Cli::try_parse_from(std::iter::once("stress").chain(line.split_whitespace()))
            .expect("valid options")
            .args
    }

    #[test]
    fn every_rule_set_survives_a_few_games() {
        for rules in ["japanese", "swedish", "chinese", "tromp-taylor"] {
            for size in [2, 5, 9] {
                let a = args(&format!(
                    "--size {size} --games 3 --seed 7 --rules {rules} --undo-rate 0.1"
                ));
                let s = stress(&a).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(s.games, 3);
                assert!(s.moves > 0 && s.undos > 0, "{s:?}");
            }
        }
    }

    #[test]
    fn runs_are_reproducible() {
        let a = args("--size 7 --games 4 --seed 3 --rules chinese");
        assert_eq!(stress(&a).unwrap(), stress(&a).unwrap());
        let s = stress(&a).unwrap();
        assert!(s.captures > 0 && s.kos > 0, "{s:?}");
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(stress(&args("--size 26 --games 1")).is_err());
        assert!(stress(&args("--size 0 --games 1")).is_err());
        assert!(stress(&args("--rules klingon --games 1")).is_err());
        assert!(stress(&args("--undo-rate 1.5 --games 1")).is_err());
        assert_eq!(run(&args("--size 30")), 2);
        assert!(Cli::try_parse_from(["stress", "--size", "x"]).is_err());
    }

    #[test]
    fn a_prisoner_mismatch_is_caught() {
        let mut game = Game::new(5, Rules::japanese());
        game.play(Color::Black, Move::Play(Point::new(2, 2)))
            .unwrap();
        let mut tracker = Tracker {
            placed: [1, 0],
            before: Vec::new(),
        };
        check_all(&game, &tracker).unwrap();
        tracker.placed = [2, 0];
        let e = check_all(&game, &tracker).unwrap_err().to_string();
        assert!(e.contains("2 stones placed"), "{e}");
        let names = describe(
            &[
                Action::Play(Color::Black, Move::Play(Point::new(2, 2))),
                Action::Undo,
                Action::Play(Color::White, Move::Pass),
            ],
            5,
        );
        assert_eq!(names, ["B C3", "undo", "W pass"]);
    }

    #[test]
    fn defaults_are_sane() {
        let a = args("");
        assert_eq!(
            (a.size, a.games, a.seed, a.rules.as_str()),
            (19, 100, 1, "japanese")
        );
        assert_eq!(run(&args("--size 5 --games 2 --moves-per-game 50")), 0);
    }
}

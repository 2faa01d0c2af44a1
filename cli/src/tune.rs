//! `kosumi tune`: SPSA (simultaneous perturbation stochastic approximation)
//! over the search's named constants, measured by games.
//!
//! Each iteration draws a random sign per parameter, plays the engine with
//! every parameter nudged one way (θ+cΔ) against the engine nudged the other
//! way (θ−cΔ) through the match runner, and moves θ along Δ by the score of
//! θ+ (wins minus losses). Every iteration is one JSON line in `--out`; a run
//! started again with the same file continues after its last line.
//!
//! Gains follow Spall's guidelines (α = 0.602, γ = 0.101, A = N/10), scaled
//! the way Fishtest does it: `C_END` is the perturbation at the last
//! iteration and the step there is `r_end · C_END` per point of result.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, ensure, Context};
use clap::{Args, Parser};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::match_cmd::{run_match, MatchArgs, MatchError};
use super::progress::Progress;
use kosumi::search::SearchConfig;

/// Options of `kosumi tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The engine's command line; `--param NAME=VALUE` is appended to it
    /// (give `--playouts` or `--time-per-move` and `--threads` here).
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// A parameter to tune: its name, start value, range and the
    /// perturbation at the last iteration (repeatable).
    #[arg(long = "param", value_name = "NAME=START:MIN:MAX:C_END", required = true, value_parser = parse_spec)]
    pub params: Vec<ParamSpec>,
    /// Iterations (N); the gain schedule depends on it.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Games per iteration, an even number: pairs with colours swapped.
    #[arg(long, default_value_t = 2, value_parser = parse_even)]
    pub games_per_iteration: usize,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi (default: the rules' komi).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<f64>,
    /// Rules of the games.
    #[arg(long, default_value = "chinese")]
    pub rules: String,
    /// Seed of the perturbations' signs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Step at the last iteration, as a share of C_END per point of result.
    #[arg(long, default_value_t = 0.02)]
    pub r_end: f64,
    /// JSONL file with one line per iteration; resumed when it exists.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Move cap per game (the match runner's default otherwise).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Games played at the same time within an iteration.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Where the engines' stderr goes: a file, `null` or `inherit`.
    #[arg(long, default_value = "null", value_name = "FILE|null|inherit")]
    pub engine_stderr: String,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One parameter to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The tunable's name (`SearchConfig::params`).
    pub name: String,
    /// θ at iteration 0.
    pub start: f64,
    /// Lowest value θ and the engines may take.
    pub min: f64,
    /// Highest value θ and the engines may take.
    pub max: f64,
    /// The perturbation c_k at the last iteration.
    pub c_end: f64,
    /// The engine takes whole numbers only: perturbed values are rounded.
    pub whole: bool,
}

/// Parses `NAME=START:MIN:MAX:C_END`; the name must be a tunable and the
/// engine must accept MIN and MAX.
pub fn parse_spec(s: &str) -> anyhow::Result<ParamSpec> {
    let (name, rest) = s
        .split_once('=')
        .ok_or_else(|| anyhow!("'{s}' is not NAME=START:MIN:MAX:C_END"))?;
    let name = name.trim().to_string();
    let numbers = rest
        .split(':')
        .map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .filter(|v| v.len() == 4)
        .ok_or_else(|| anyhow!("'{rest}' is not four numbers START:MIN:MAX:C_END"))?;
    let (start, min, max, c_end) = (numbers[0], numbers[1], numbers[2], numbers[3]);
    let mut config = SearchConfig::default();
    ensure!(
        config.params().iter().any(|(n, _)| *n == name),
        "unknown parameter '{name}'"
    );
    ensure!(min <= max, "{name}: MIN {min} is above MAX {max}");
    ensure!(
        (min..=max).contains(&start),
        "{name}: START {start} is outside [{min}, {max}]"
    );
    ensure!(c_end > 0.0, "{name}: C_END {c_end} is not above 0");
    config.set(&name, min)?;
    config.set(&name, max)?;
    let whole = SearchConfig::default().set(&name, 0.5).is_err();
    Ok(ParamSpec {
        name,
        start,
        min,
        max,
        c_end,
        whole,
    })
}

fn parse_even(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 && n % 2 == 0 => Ok(n),
        _ => Err(format!("'{s}' is not an even number of games above 0")),
    }
}

/// The SPSA gain schedule over `iterations` iterations.
#[derive(Clone, Copy, Debug)]
pub struct Gains {
    /// Iterations of the whole run (N).
    pub iterations: u64,
    /// Step at the last iteration as a share of `c_end` per point of result.
    pub r_end: f64,
}

impl Gains {
    const ALPHA: f64 = 0.602;
    const GAMMA: f64 = 0.101;

    /// Spall's stability constant: a tenth of the iterations.
    fn big_a(&self) -> f64 {
        self.iterations as f64 / 10.0
    }

    /// Perturbation c_k = c / (k+1)^γ, with c chosen so that the last one is `c_end`.
    pub fn c(&self, k: u64, c_end: f64) -> f64 {
        let n = self.iterations as f64;
        c_end * (n / (k + 1) as f64).powf(Self::GAMMA)
    }

    /// Step a_k = a / (A+k+1)^α, with a chosen so that the last one is `r_end · c_end²`.
    pub fn a(&self, k: u64, c_end: f64) -> f64 {
        let a_end = self.r_end * c_end * c_end;
        let last = self.big_a() + self.iterations as f64;
        a_end * (last / (self.big_a() + (k + 1) as f64)).powf(Self::ALPHA)
    }
}

/// The signs Δ of iteration `k`: a function of the seed and `k` only, so a
/// resumed run draws what the uninterrupted one would have.
pub fn draw_delta(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..n)
        .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
        .collect()
}

/// The values one engine plays with: θ + sign·c_k·Δ, clamped to the range
/// (and rounded for whole-number parameters).
pub fn perturbed(
    specs: &[ParamSpec],
    gains: &Gains,
    k: u64,
    theta: &[f64],
    delta: &[f64],
    sign: f64,
) -> Vec<f64> {
    specs
        .iter()
        .zip(theta.iter().zip(delta))
        .map(|(s, (&t, &d))| {
            let v = (t + sign * gains.c(k, s.c_end) * d).clamp(s.min, s.max);
            if s.whole {
                v.round()
            } else {
                v
            }
        })
        .collect()
}

/// The SPSA step: θ_i += a_k · result / (c_k · Δ_i), clamped to the range.
/// `result` is the score of θ+ against θ− (wins minus losses).
pub fn update(
    specs: &[ParamSpec],
    gains: &Gains,
    k: u64,
    theta: &[f64],
    delta: &[f64],
    result: f64,
) -> Vec<f64> {
    specs
        .iter()
        .zip(theta.iter().zip(delta))
        .map(|(s, (&t, &d))| {
            let step = gains.a(k, s.c_end) * result / (gains.c(k, s.c_end) * d);
            (t + step).clamp(s.min, s.max)
        })
        .collect()
}

/// One line of the `--out` file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// Iteration number k, from 0.
    pub iteration: u64,
    /// θ before the iteration.
    pub theta: BTreeMap<String, f64>,
    /// The signs Δ.
    pub delta: BTreeMap<String, f64>,
    /// The values engine θ+ played with.
    pub plus: BTreeMap<String, f64>,
    /// The values engine θ− played with.
    pub minus: BTreeMap<String, f64>,
    /// Games θ+ won against θ−.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games θ+ lost.
    pub losses: u32,
    /// θ after the update.
    pub next: BTreeMap<String, f64>,
}

fn named(specs: &[ParamSpec], values: &[f64]) -> BTreeMap<String, f64> {
    specs
        .iter()
        .zip(values)
        .map(|(s, &v)| (s.name.clone(), v))
        .collect()
}

/// Where a run starts: iteration and θ, from the last line of `path` if any.
fn resume(path: &Path, specs: &[ParamSpec]) -> Result<Option<(u64, Vec<f64>)>, MatchError> {
    let text = match fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        read => read.with_context(|| format!("cannot read '{}'", path.display()))?,
    };
    let Some(last) = text.lines().rev().find(|l| !l.trim().is_empty()) else {
        return Ok(None);
    };
    let record: Record = serde_json::from_str(last).map_err(|e| {
        MatchError::Usage(format!(
            "'{}': the last line is not a tune record: {e}",
            path.display()
        ))
    })?;
    let theta = specs
        .iter()
        .map(|s| record.next.get(&s.name).copied())
        .collect::<Option<Vec<f64>>>()
        .filter(|_| record.next.len() == specs.len())
        .ok_or_else(|| {
            MatchError::Usage(format!(
                "'{}' tunes other parameters than the --param given",
                path.display()
            ))
        })?;
    Ok(Some((record.iteration + 1, theta)))
}

/// The engine command with the given values appended as `--param`s.
fn engine_with(cmd: &str, specs: &[ParamSpec], values: &[f64]) -> String {
    let mut line = cmd.to_string();
    for (s, v) in specs.iter().zip(values) {
        line.push_str(&format!(" --param {}={v}", s.name));
    }
    line
}

/// Plays θ+ against θ− for one iteration.
fn play(args: &TuneArgs, plus: &str, minus: &str) -> Result<(u32, u32, u32), MatchError> {
    #[derive(Parser)]
    struct MatchCli {
        #[command(flatten)]
        args: MatchArgs,
    }
    let games = args.games_per_iteration.to_string();
    let size = args.size.to_string();
    let concurrency = args.concurrency.to_string();
    let mut argv: Vec<String> = [
        "match",
        "--engine",
        plus,
        "--engine",
        minus,
        "--name",
        "theta+",
        "--name",
        "theta-",
        "--games",
        &games,
        "--size",
        &size,
        "--rules",
        &args.rules,
        "--concurrency",
        &concurrency,
        "--engine-stderr",
        &args.engine_stderr,
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(komi) = args.komi {
        argv.extend(["--komi".into(), komi.to_string()]);
    }
    if let Some(m) = args.max_moves {
        argv.extend(["--max-moves".into(), m.to_string()]);
    }
    let match_args = MatchCli::try_parse_from(argv)
        .map_err(|e| MatchError::Usage(e.to_string()))?
        .args;
    let tally = run_match(&match_args)?.tally(0);
    Ok((tally.wins, tally.draws, tally.losses))
}

/// Values as `--param` arguments ready to paste.
pub fn as_arguments(specs: &[ParamSpec], theta: &[f64]) -> String {
    specs
        .iter()
        .zip(theta)
        .map(|(s, &v)| {
            let v = if s.whole {
                v.round()
            } else {
                (v * 1e4).round() / 1e4
            };
            format!("--param {}={v}", s.name)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the tuning; the final θ on success.
pub fn run_tune(args: &TuneArgs) -> Result<Vec<f64>, MatchError> {
    let specs = &args.params;
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    if (1..names.len()).any(|i| names[..i].contains(&names[i])) {
        return Err(MatchError::Usage("a --param is given twice".into()));
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        return Err(MatchError::Usage("--r-end must be above 0".into()));
    }
    let gains = Gains {
        iterations: args.iterations,
        r_end: args.r_end,
    };
    let (first, mut theta) = match &args.out {
        Some(path) => resume(path, specs)?,
        None => None,
    }
    .unwrap_or_else(|| (0, specs.iter().map(|s| s.start).collect()));
    let mut file = match &args.out {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open '{}'", path.display()))?,
        ),
        None => None,
    };
    let progress = Progress::new("iterations", args.iterations, args.quiet);
    progress.set_position(first.min(args.iterations));
    for k in first..args.iterations {
        let delta = draw_delta(args.seed, k, specs.len());
        let plus = perturbed(specs, &gains, k, &theta, &delta, 1.0);
        let minus = perturbed(specs, &gains, k, &theta, &delta, -1.0);
        let (wins, draws, losses) = play(
            args,
            &engine_with(&args.engine, specs, &plus),
            &engine_with(&args.engine, specs, &minus),
        )?;
        let next = update(
            specs,
            &gains,
            k,
            &theta,
            &delta,
            wins as f64 - losses as f64,
        );
        let record = Record {
            iteration: k,
            theta: named(specs, &theta),
            delta: named(specs, &delta),
            plus: named(specs, &plus),
            minus: named(specs, &minus),
            wins,
            draws,
            losses,
            next: named(specs, &next),
        };
        if let (Some(f), Some(path)) = (&mut file, &args.out) {
            let line = serde_json::to_string(&record).expect("a record serializes");
            writeln!(f, "{line}").with_context(|| format!("cannot write '{}'", path.display()))?;
        }
        theta = next;
        progress.advance(
            1,
            &format!(
                "+{wins} ={draws} -{losses}; {}",
                as_arguments(specs, &theta)
            ),
        );
    }
    progress.finish();
    Ok(theta)
}

/// Runs `kosumi tune`; 0 done, 1 a failed match, 2 bad options.
pub fn run(args: &TuneArgs) -> i32 {
    match run_tune(args) {
        Ok(theta) => {
            outln!("{}", as_arguments(&args.params, &theta));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> ParamSpec {
        parse_spec(s).unwrap()
    }

    #[test]
    fn specs_parse_and_bad_ones_are_refused() {
        let s = spec("prior.even=14:0:40:2");
        assert_eq!(
            (s.name.as_str(), s.start, s.min, s.max, s.c_end, s.whole),
            ("prior.even", 14.0, 0.0, 40.0, 2.0, false)
        );
        assert!(spec("search.fights_max_size=11:5:19:1").whole);
        for bad in [
            "prior.nonsense=1:0:2:1",
            "prior.even=14:40:0:2",
            "prior.even=50:0:40:2",
            "prior.even=14:0:40:0",
            "prior.even=14:0:40",
            "prior.even=14:0:x:2",
            "prior.even",
            "playout.capture=0.5:0:2:0.1",
            "prior.even=14:-1:40:2",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
        assert!(parse_spec("prior.nonsense=1:0:2:1")
            .unwrap_err()
            .to_string()
            .contains("unknown parameter"));
    }

    #[test]
    fn gains_end_where_asked() {
        let g = Gains {
            iterations: 200,
            r_end: 0.02,
        };
        assert!((g.c(199, 2.0) - 2.0).abs() < 1e-12);
        assert!((g.a(199, 2.0) - 0.02 * 4.0).abs() < 1e-12);
        assert!(g.c(0, 2.0) > g.c(100, 2.0) && g.a(0, 2.0) > g.a(100, 2.0));
    }

    #[test]
    fn deltas_are_seeded_signs() {
        let d = draw_delta(7, 3, 50);
        assert_eq!(d, draw_delta(7, 3, 50));
        assert_ne!(d, draw_delta(7, 4, 50));
        assert!(d.iter().all(|&x| x == 1.0 || x == -1.0));
        assert!(d.contains(&1.0) && d.contains(&-1.0));
    }

    /// A synthetic match: θ+ wins both games when it is closer to the
    /// optimum than θ−, loses both when farther.
    #[test]
    fn spsa_moves_toward_a_known_optimum() {
        let specs = vec![spec("prior.even=2:0:40:1"), spec("prior.escape=30:0:40:1")];
        let optimum = [20.0, 10.0];
        let loss = |x: &[f64]| -> f64 { x.iter().zip(optimum).map(|(a, b)| (a - b).powi(2)).sum() };
        let gains = Gains {
            iterations: 300,
            r_end: 0.1,
        };
        let mut theta: Vec<f64> = specs.iter().map(|s| s.start).collect();
        let before = loss(&theta);
        for k in 0..gains.iterations {
            let delta = draw_delta(1, k, specs.len());
            let plus = perturbed(&specs, &gains, k, &theta, &delta, 1.0);
            let minus = perturbed(&specs, &gains, k, &theta, &delta, -1.0);
            let result = 2.0 * (loss(&minus) - loss(&plus)).signum();
            theta = update(&specs, &gains, k, &theta, &delta, result);
        }
        let after = loss(&theta);
        assert!(after < before / 20.0, "{theta:?}: {after} vs {before}");
    }

    #[test]
    fn arguments_are_ready_to_paste() {
        let specs = vec![
            spec("prior.even=14:0:40:2"),
            spec("search.fights_max_size=11:5:19:1"),
        ];
        assert_eq!(
            as_arguments(&specs, &[14.123456, 10.6]),
            "--param prior.even=14.1235 --param search.fights_max_size=11"
        );
    }
}

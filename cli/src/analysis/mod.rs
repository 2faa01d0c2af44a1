//! `kosumi analysis`: KataGo's JSON analysis protocol on stdin and stdout,
//! so review tools written for KataGo (KaTrain, lizgoban, web back ends)
//! can use kosumi with no neural network and no GPU.
//!
//! One query per input line; one response line per analysed position (and
//! per live report), written as soon as it is ready, in any order. Bad
//! input of any kind gets an error line, never a crash. KataGo's command
//! line (`analysis -config FILE -model FILE`) is accepted: the model is
//! ignored, and the config's few search settings kosumi understands
//! (`maxVisits`, `maxTime`, `numAnalysisThreads`, `numSearchThreads`,
//! `reportAnalysisWinratesAs`, `analysisPVLen`) are used.

pub mod pool;
pub mod query;
pub mod response;
pub mod rules;

use anyhow::{anyhow, ensure, Context};
use clap::Args;
use kosumi::board::DEFAULT_SEED;
use kosumi::search::patterns::Model;
use kosumi::search::{default_max_memory, Policy, SearchParams};
use pool::{Pool, Report, Sink};
use query::{Defaults, Perspective, Request};
use serde_json::{Map, Value};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Options of `kosumi analysis`.
#[derive(Args, Debug, Clone)]
pub struct AnalysisArgs {
    /// A KataGo analysis config file: its maxVisits, maxTime,
    /// numAnalysisThreads, numSearchThreads, reportAnalysisWinratesAs and
    /// analysisPVLen are used, the rest ignored. Repeatable: a later file's
    /// settings win, as KataGo's do.
    #[arg(long)]
    pub config: Vec<PathBuf>,
    /// KataGo's neural network file: accepted and ignored.
    #[arg(long)]
    pub model: Option<String>,
    /// KataGo's human-style network file: not read; given, queries with a
    /// humanSLProfile get humanPolicy from the learned move patterns (one
    /// profile: strong amateurs).
    #[arg(long)]
    pub human_model: Option<String>,
    /// KataGo config settings as `key=value,key=value` (over the config
    /// files). Repeatable: a later setting wins.
    #[arg(long)]
    pub override_config: Vec<String>,
    /// When stdin closes, stop at once instead of finishing the queued positions.
    #[arg(long)]
    pub quit_without_waiting: bool,
    /// Positions searched at the same time (KataGo's numAnalysisThreads;
    /// default 1). Given here, it is used even beyond the cores; from a
    /// config file, positions times threads are kept within the cores.
    #[arg(long, alias = "max-concurrent", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub analysis_threads: Option<u32>,
    /// Threads per search (default: the cores divided among the concurrent searches).
    #[arg(long, alias = "num-search-threads", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub search_threads: Option<u32>,
    /// Visits per position when a query gives no maxVisits (default: about
    /// a second of one core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_visits: Option<u64>,
    /// Playouts a visit stands for: maxVisits times this many are searched,
    /// and visits are reported as playouts divided by it. One playout's
    /// score spreads over tens of points where a network's evaluation is
    /// steady; 12 keeps a 500-visit position's score within 2 points
    /// between seeds about four times in five, at well under a second of
    /// one core on 19x19.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub playouts_per_visit: u64,
    /// Strength level 1 (weakest) to 10 (full) whose move final responses
    /// also carry, as `levelMove` (a query's `level` overrides it); the
    /// analysis itself stays the full search's.
    #[arg(long, value_parser = crate::parse_level)]
    pub level: Option<kosumi::search::Level>,
    /// Whose view win rates, scores and ownership take: BLACK (as KataGo's
    /// example config), WHITE or SIDETOMOVE.
    #[arg(long)]
    pub report_winrates_as: Option<String>,
    /// Seed of the searches' random generators (one thread per search and a
    /// playout limit give the same answer every time).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Learned move patterns in the tree priors: on or off.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub patterns: String,
    /// No notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// KataGo's single-dash options, turned into ours (`-config` → `--config`),
/// for the `analysis` subcommand only.
pub fn katago_style_args(args: Vec<OsString>) -> Vec<OsString> {
    const NAMES: &[&str] = &[
        "config",
        "model",
        "human-model",
        "override-config",
        "quit-without-waiting",
        "analysis-threads",
    ];
    if args.get(1).is_none_or(|a| a != "analysis") {
        return args;
    }
    args.into_iter()
        .map(|a| match a.to_str().and_then(|s| s.strip_prefix('-')) {
            Some(rest) if !rest.starts_with('-') && NAMES.contains(&rest) => {
                OsString::from(format!("--{rest}"))
            }
            _ => a,
        })
        .collect()
}

/// KataGo config lines `key = value` (`#` starts a comment), the two names
/// of the threads per search as one, so that a later setting of either wins.
fn read_config(text: &str) -> Map<String, Value> {
    let mut map = Map::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        if let Some((k, v)) = line.split_once('=') {
            let k = match k.trim() {
                "numSearchThreadsPerAnalysisThread" => "numSearchThreads",
                k => k,
            };
            map.insert(k.to_string(), Value::String(v.trim().to_string()));
        }
    }
    map
}

/// The settings from the config file, `-override-config` and our options.
struct Setup {
    defaults: Defaults,
    workers: usize,
    params: SearchParams,
    policy: Policy,
}

fn setup(args: &AnalysisArgs) -> anyhow::Result<Setup> {
    let note = |s: String| {
        if !args.quiet {
            eprintln!("kosumi analysis: {s}");
        }
    };
    let mut cfg = Map::new();
    for path in &args.config {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the config {}", path.display()))?;
        cfg.extend(read_config(&text));
    }
    for o in &args.override_config {
        for kv in o.split(',').filter(|s| !s.trim().is_empty()) {
            ensure!(
                kv.contains('='),
                "-override-config: '{kv}' is not key=value"
            );
            cfg.extend(read_config(kv));
        }
    }
    if let Some(m) = &args.model {
        note(format!(
            "no neural network is used: the model {m} is ignored"
        ));
    }
    if let Some(m) = &args.human_model {
        note(format!(
            "the human model {m} is not read: humanPolicy is the learned move patterns' own, one profile for every humanSLProfile"
        ));
    }
    let take = |cfg: &mut Map<String, Value>, keys: &[&str]| -> Option<String> {
        let mut found = None;
        for k in keys {
            if let Some(v) = cfg.remove(*k) {
                found = v.as_str().map(str::to_string);
            }
        }
        found
    };
    let num = |v: Option<String>, key: &str| -> anyhow::Result<Option<usize>> {
        v.map(|s| {
            s.parse::<usize>()
                .ok()
                .filter(|&n| (1..=256).contains(&n))
                .ok_or_else(|| anyhow!("{key} = {s} is not a number of threads from 1 to 256"))
        })
        .transpose()
    };
    let cfg_workers = num(
        take(&mut cfg, &["numAnalysisThreads"]),
        "numAnalysisThreads",
    )?;
    let cfg_threads = num(take(&mut cfg, &["numSearchThreads"]), "numSearchThreads")?;
    let mut search_keys = Map::new();
    for k in [
        "maxVisits",
        "maxPlayouts",
        "maxTime",
        "reportAnalysisWinratesAs",
        "analysisPVLen",
        "humanSLProfile",
    ] {
        if let Some(v) = cfg.remove(k) {
            search_keys.insert(k.to_string(), v);
        }
    }
    let mut defaults = Defaults {
        human_model: args.human_model.is_some(),
        playouts_per_visit: args.playouts_per_visit,
        ..Defaults::default()
    };
    query::apply_overrides(&mut defaults, &search_keys)?;
    if !cfg.is_empty() {
        let keys: Vec<&str> = cfg.keys().map(String::as_str).collect();
        note(format!("config settings ignored: {}", keys.join(", ")));
    }
    if let Some(v) = args.max_visits {
        defaults.max_visits = Some(v);
    }
    if let Some(level) = args.level {
        defaults.level = Some(level);
    }
    if let Some(p) = &args.report_winrates_as {
        defaults.perspective = Perspective::parse(p)
            .ok_or_else(|| anyhow!("--report-winrates-as {p}: give BLACK, WHITE or SIDETOMOVE"))?;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (workers, threads, clamped) = thread_counts(
        cores,
        args.analysis_threads.map(|n| n as usize),
        args.search_threads.map(|n| n as usize),
        cfg_workers,
        cfg_threads,
    );
    if clamped {
        note(format!(
            "{} positions at a time with {} threads each would overload {cores} cores: using {workers} at a time with {threads} each (--analysis-threads and --search-threads insist)",
            cfg_workers.unwrap_or(workers),
            cfg_threads.unwrap_or(threads),
        ));
    }
    let params = SearchParams {
        threads,
        max_memory: (default_max_memory() / workers).max(64 << 20),
        seed: args.seed.unwrap_or(DEFAULT_SEED),
        quiet: true,
        ..SearchParams::default()
    };
    let patterns = (args.patterns == "on").then(Model::embedded);
    Ok(Setup {
        defaults,
        workers,
        params,
        policy: Policy::default().with_patterns(patterns),
    })
}

/// Concurrent positions and threads per search, and whether the config's
/// numbers were cut: threads times positions stay within `cores` unless the
/// command line asks for more.
fn thread_counts(
    cores: usize,
    cli_workers: Option<usize>,
    cli_threads: Option<usize>,
    cfg_workers: Option<usize>,
    cfg_threads: Option<usize>,
) -> (usize, usize, bool) {
    let workers = match (cli_workers, cfg_workers) {
        (Some(w), _) => w,
        (None, Some(w)) => w.min(cores),
        (None, None) => 1,
    };
    let fair = (cores / workers).max(1);
    let threads = match (cli_threads, cfg_threads) {
        (Some(t), _) => t,
        (None, Some(t)) => t.min(fair),
        (None, None) => fair,
    };
    let asked = (
        cfg_workers.filter(|_| cli_workers.is_none()),
        cfg_threads.filter(|_| cli_threads.is_none()),
    );
    let clamped = asked.0.is_some_and(|w| w != workers) || asked.1.is_some_and(|t| t != threads);
    (workers, threads, clamped)
}

/// Writes one response line and flushes; a closed stdout ends the process.
fn emit(out: &Mutex<std::io::Stdout>, v: &Value) {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    let line = v.to_string();
    let r = out
        .write_all(line.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if r.is_err() {
        std::process::exit(0);
    }
}

/// Runs `kosumi analysis`; returns the exit status.
pub fn run(args: &AnalysisArgs) -> i32 {
    let setup = match setup(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kosumi analysis: {e:#}");
            return 2;
        }
    };
    if !args.quiet {
        eprintln!(
            "kosumi analysis: {} position(s) at a time, {} search thread(s) each, win rates for {:?}; ready for queries on stdin",
            setup.workers, setup.params.threads, setup.defaults.perspective
        );
    }
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let sink_out = Arc::clone(&out);
    let sink: Sink = Arc::new(move |r: Report| {
        let v = match r {
            Report::Analysis {
                position,
                analysis,
                during,
                level_move,
            } => response::analysis(position, analysis, during, level_move),
            Report::NoResults(p) => response::no_results(p),
        };
        emit(&sink_out, &v);
    });
    let pool = Pool::new(setup.workers, setup.params, setup.policy, sink);
    serve(std::io::stdin().lock(), &pool, &setup.defaults, &|v| {
        emit(&out, v)
    });
    if args.quit_without_waiting {
        pool.abandon();
    } else {
        pool.finish();
    }
    0
}

/// Reads queries until end of input, handing positions to `pool` and
/// writing every other reply through `reply`.
pub fn serve(input: impl BufRead, pool: &Pool, defaults: &Defaults, reply: &dyn Fn(&Value)) {
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match query::parse(line, defaults) {
            Err(e) => reply(&e),
            Ok(Request::Echo(v)) => reply(&v),
            Ok(Request::Terminate { echo, id, turns }) => {
                pool.terminate(id.as_deref(), turns.as_deref());
                reply(&echo);
            }
            Ok(Request::Analyze {
                positions,
                warnings,
            }) => {
                for w in &warnings {
                    reply(w);
                }
                pool.submit(positions);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn katago_command_lines() {
        let a: Vec<OsString> = [
            "kosumi",
            "analysis",
            "-config",
            "a.cfg",
            "-model",
            "m.bin.gz",
            "-quit-without-waiting",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let b = katago_style_args(a);
        assert_eq!(b[2], "--config");
        assert_eq!(b[4], "--model");
        assert_eq!(b[6], "--quit-without-waiting");
        let g: Vec<OsString> = ["kosumi", "-config"].iter().map(OsString::from).collect();
        assert_eq!(katago_style_args(g.clone()), g);
    }

    #[test]
    fn threads_fit_the_cores_unless_the_command_line_insists() {
        // KaTrain's stock config on two cores: 12 positions of 8 threads.
        assert_eq!(
            thread_counts(2, None, None, Some(12), Some(8)),
            (2, 1, true)
        );
        assert_eq!(thread_counts(8, None, None, Some(2), Some(8)), (2, 4, true));
        assert_eq!(
            thread_counts(8, None, None, Some(2), Some(4)),
            (2, 4, false)
        );
        assert_eq!(thread_counts(4, None, None, None, None), (1, 4, false));
        assert_eq!(
            thread_counts(2, Some(12), Some(8), Some(1), None),
            (12, 8, false)
        );
        assert_eq!(thread_counts(2, Some(2), None, None, Some(8)), (2, 1, true));
    }

    #[test]
    fn config_files() {
        let m =
            read_config("# c\nmaxVisits = 500  # note\nreportAnalysisWinratesAs=SIDETOMOVE\n\n");
        assert_eq!(m["maxVisits"], "500");
        assert_eq!(m["reportAnalysisWinratesAs"], "SIDETOMOVE");
        assert_eq!(m.len(), 2);
    }
}

#[cfg(test)]
mod query_tests;

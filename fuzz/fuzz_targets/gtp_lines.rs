//! Any bytes, split into lines by the engine's own `LineReader`, run as GTP
//! commands on one engine: every line gets a well-formed response (or none
//! for a blank or comment line), never a panic, and the board's invariants
//! hold after every command.
//!
//! The engine searches 8 playouts on one thread, so `genmove` is cheap.
//! Commands that would search without a playout limit or touch the machine
//! are left out: analysis streams (they run until input arrives, which
//! `execute_line` never sees), the quick-analysis commands (thousands of
//! playouts), clocks (a clock overrides the playout limit), `kosumi-param`
//! (it could lift the limit) and `quit`. `printsgf FILE` and `loadsgf FILE`
//! are kept but always use one scratch file of this process, so the
//! fuzzer drives write/read round trips without writing anywhere else.
//! Life-and-death judging (`final_score` and friends) and `genmove` run at
//! most a few times per input to keep each input fast.
//!
//!   cargo +nightly fuzz run gtp_lines -- -max_len=4096 -dict=gtp.dict
#![no_main]

use kosumi::gtp::engine::{Engine, EngineOptions};
use kosumi::gtp::{parse_line, preprocess, too_long_reply, InputLine, LineReader};
use kosumi::search::SearchParams;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

const SKIPPED: &[&str] = &[
    "lz-analyze",
    "kata-analyze",
    "top_moves",
    "kosumi-ownership",
    "kosumi-best_moves",
    "kosumi-pv",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kosumi-param",
    "quit",
];

const SEARCHING: &[&str] = &[
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "final_score",
    "final_status_list",
    "kosumi-territory",
];

/// Most searching or judging commands run per input.
const SEARCH_BUDGET: usize = 4;

fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("kosumi-fuzz-gtp-{}.sgf", std::process::id()))
    })
}

fn options() -> EngineOptions {
    EngineOptions {
        search: SearchParams {
            threads: 1,
            playouts: Some(8),
            max_memory: 4 << 20,
            quiet: true,
            ..SearchParams::default()
        },
        ..EngineOptions::default()
    }
}

fn check_response(line: &str, response: &str) {
    if response.is_empty() {
        return;
    }
    assert!(
        response.starts_with('=') || response.starts_with('?'),
        "{line:?} gave {response:?}"
    );
    assert!(response.ends_with("\n\n"), "{line:?} gave {response:?}");
    assert!(
        !response[..response.len() - 2].contains("\n\n"),
        "{line:?} gave an early blank line: {response:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new(options());
    let mut searches = 0;
    let mut stream = Vec::new();
    for item in LineReader::with_limit(data, 1024) {
        let raw = match item {
            Ok(InputLine::Line(raw)) => raw,
            Ok(InputLine::TooLong { head }) => {
                if let Some(reply) = too_long_reply(&head) {
                    check_response("(too long)", &reply);
                }
                continue;
            }
            Err(_) => break,
        };
        let text = preprocess(&raw);
        let Some(mut cmd) = parse_line(&text) else {
            continue;
        };
        if SKIPPED.contains(&cmd.name.as_str()) {
            continue;
        }
        if SEARCHING.contains(&cmd.name.as_str()) {
            searches += 1;
            if searches > SEARCH_BUDGET {
                continue;
            }
        }
        stream.clear();
        let files = matches!(cmd.name.as_str(), "printsgf" | "loadsgf")
            && cmd.arg(0).is_some_and(|a| cmd.name == "loadsgf" || a != "-");
        let response = if files {
            cmd.args[0] = scratch().display().to_string();
            engine.execute(&cmd, &mut stream)
        } else {
            engine.execute_line(&raw, &mut stream)
        }
        .expect("writing to a Vec does not fail");
        check_response(&text, &response);
        if !stream.is_empty() {
            // A stream (genmove_analyze) ends with one blank line.
            assert!(stream.ends_with(b"\n\n"), "{text:?} streamed {stream:?}");
        }
        let board = engine.game().board();
        if let Err(e) = board.check_invariants() {
            panic!("invariant broken after {text:?}: {e}\n{board}");
        }
    }
});

//! The checks behind the cargo-fuzz targets in `fuzz/fuzz_targets/`, one
//! function per target, shared with `tests/fuzz_regress.rs`, which replays
//! the saved inputs of `tests/fuzz-inputs/<target>/` through them. Each
//! function takes any bytes and panics only on a real fault.

use super::reference::{RefGame, Verdict};
use kosumi::board::{Game, Move, Point, Rules};
use kosumi::gtp::engine::{Engine, EngineOptions};
use kosumi::gtp::{parse_line, preprocess, too_long_reply, InputLine, LineReader};
use kosumi::search::SearchParams;
use kosumi::sgf::{Collection, GameRecord};
use std::path::PathBuf;
use std::sync::OnceLock;

// ---- sgf_read -------------------------------------------------------------

/// Any bytes: the SGF reader gives a record or an error, never a panic,
/// and what it reads survives a write and a second read unchanged.
pub fn sgf_read(data: &[u8]) {
    let _ = Collection::parse(data);
    if let Ok(record) = GameRecord::from_sgf(data) {
        let text = record.to_sgf();
        let again = GameRecord::from_sgf(text.as_bytes()).expect("written SGF reads back");
        // NaN-free by construction (the reader rejects non-finite komi).
        assert_eq!(again, record);
    }
}

// ---- board_play_undo ------------------------------------------------------

const RULES: [&str; 4] = ["japanese", "swedish", "chinese", "tromp-taylor"];

enum Action {
    Undo,
    Pass { out_of_turn: bool },
    Play { point: usize, out_of_turn: bool },
}

fn action(byte: u8, points: usize) -> Action {
    let out_of_turn = byte & 0x80 != 0 && byte & 0x40 != 0;
    match byte & 0x7f {
        0..=5 => Action::Undo,
        6..=9 => Action::Pass { out_of_turn },
        b => Action::Play {
            point: b as usize % points,
            out_of_turn,
        },
    }
}

/// Any bytes drive a game on a small board: plays (in turn or out of
/// turn), passes and undos go both to `Game` and to the slow reference
/// model of `tests/common/reference.rs`; verdicts, every point, prisoners
/// and the hash must agree after each step, and the board's invariants must
/// hold.
///
/// The first byte picks the size (2 to 7) and the rule set; then each byte
/// is one action by its low seven bits: `0..=5` undo, `6..=9` pass, else the
/// point `bits % points`; with the two high bits set the move is out of
/// turn (by the player who is not to move).
pub fn board_play_undo(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let size = 2 + (first % 6) as usize;
    let rules = Rules::parse(RULES[(first / 6 % 4) as usize]).unwrap();
    let mut game = Game::new(size, rules);
    let mut reference = RefGame::new(size, rules);
    for &byte in rest {
        match action(byte, size * size) {
            Action::Undo => assert_eq!(game.undo(), reference.undo(), "undo availability"),
            a => {
                let (mv, out_of_turn) = match a {
                    Action::Pass { out_of_turn } => (Move::Pass, out_of_turn),
                    Action::Play { point, out_of_turn } => (
                        Move::Play(Point::new(point % size, point / size)),
                        out_of_turn,
                    ),
                    Action::Undo => unreachable!(),
                };
                let color = if out_of_turn {
                    game.to_move().opponent()
                } else {
                    game.to_move()
                };
                let ours = game.check(color, mv);
                let expected = reference.verdict(mv, color);
                let got = Verdict::of(game.play(color, mv));
                assert_eq!(Verdict::of(ours), got, "check and play disagree");
                assert_eq!(got, expected, "{color} {mv:?} on {size}x{size} {rules}");
                reference.play(mv, color);
                if got == Verdict::Ok && out_of_turn {
                    // Game gives the turn to the mover's opponent either way.
                    assert_eq!(game.to_move(), color.opponent());
                }
            }
        }
        let board = game.board();
        if let Err(e) = board.check_invariants() {
            panic!("invariant broken: {e}\n{board}");
        }
        reference.assert_same(board, &format!("{size}x{size} {rules}"));
    }
}

// ---- gtp_lines ------------------------------------------------------------

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
    // Switches on live graphics on stderr for every later genmove.
    "gogui-analyze_commands",
];

const SEARCHING: &[&str] = &[
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

/// Commands that judge life and death with 1000 playouts: slow under the
/// fuzzer's instrumentation on large boards.
const JUDGING: &[&str] = &["final_score", "final_status_list", "kosumi-territory"];

/// Most searching commands run per input.
const SEARCH_BUDGET: usize = 4;

/// Most judging commands run per input, and only on boards this small.
const JUDGE_BUDGET: usize = 2;
const JUDGE_MAX_SIZE: usize = 7;

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

/// Any bytes, split into lines by the engine's own `LineReader`, run as GTP
/// commands on one engine: every line gets a well-formed response (or none
/// for a blank or comment line), never a panic, and the board's invariants
/// hold after every command.
///
/// The engine searches 8 playouts on one thread, so `genmove` is cheap.
/// Commands that would search without a playout limit or touch the machine
/// are left out: analysis streams (they run until input arrives, which
/// `execute_line` never sees), the quick-analysis commands (thousands of
/// playouts), clocks (a clock overrides the playout limit), `kosumi-param`
/// (it could lift the limit), `gogui-analyze_commands` (stderr graphics
/// from then on) and `quit`. `printsgf FILE` and `loadsgf FILE`
/// are kept but always use one scratch file of this process, so the fuzzer
/// drives write/read round trips without writing anywhere else.
/// `genmove` runs at most four times per input, life-and-death judging
/// (`final_score` and friends) twice and only on boards up to 7x7, to keep
/// each input fast under the fuzzer's instrumentation.
pub fn gtp_lines(data: &[u8]) {
    // Each input starts without the scratch file, so it replays alone.
    let _ = std::fs::remove_file(scratch());
    // One engine for all inputs (building one costs more than most
    // inputs), set back to a fresh 19x19 Japanese game each time.
    thread_local! {
        static ENGINE: std::cell::RefCell<Engine> = std::cell::RefCell::new(Engine::new(options()));
    }
    ENGINE.with(|engine| run_gtp_lines(&mut engine.borrow_mut(), data));
}

fn run_gtp_lines(engine: &mut Engine, data: &[u8]) {
    let mut sink = Vec::new();
    for reset in [
        "kgs-rules japanese",
        "boardsize 19",
        "clear_board",
        "komi 6.5",
    ] {
        let response = engine.execute_line(reset.as_bytes(), &mut sink).unwrap();
        assert_eq!(response, "=\n\n", "{reset}");
    }
    let mut searches = 0;
    let mut judgements = 0;
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
        if JUDGING.contains(&cmd.name.as_str()) {
            judgements += 1;
            if judgements > JUDGE_BUDGET || engine.game().board().size() > JUDGE_MAX_SIZE {
                continue;
            }
        }
        stream.clear();
        let files = matches!(cmd.name.as_str(), "printsgf" | "loadsgf")
            && cmd
                .arg(0)
                .is_some_and(|a| cmd.name == "loadsgf" || a != "-");
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
}

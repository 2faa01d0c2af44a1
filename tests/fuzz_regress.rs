//! Replays the saved fuzz inputs of `tests/fuzz-inputs/<target>/` through
//! the same checks the cargo-fuzz targets run (`tests/common/fuzz_checks.rs`):
//! small inputs the fuzzers found interesting (new coverage, or a crash
//! since fixed), kept so that the cases stay covered without a fuzzer.

mod common;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-inputs")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no saved inputs in {}", dir.display());
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target}: {} fails", path.display());
    }
}

#[test]
fn sgf_read_inputs() {
    replay("sgf_read", common::fuzz_checks::sgf_read);
}

#[test]
fn board_play_undo_inputs() {
    replay("board_play_undo", common::fuzz_checks::board_play_undo);
}

#[test]
fn gtp_lines_inputs() {
    replay("gtp_lines", common::fuzz_checks::gtp_lines);
}

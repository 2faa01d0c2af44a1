//! Any bytes drive plays, passes and undos on a small board against the
//! slow reference model; see `board_play_undo` in
//! `tests/common/fuzz_checks.rs` (shared with the regression test).
//!
//!   cargo +nightly fuzz run board_play_undo -- -max_len=512
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::fuzz_checks::board_play_undo(data));

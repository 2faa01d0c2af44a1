//! Any bytes: the SGF reader gives a record or an error, never a panic, and
//! what it reads survives a write and a second read unchanged. The check
//! lives in `tests/common/fuzz_checks.rs`, shared with the regression test.
//!
//!   cargo +nightly fuzz run sgf_read -- -max_len=4096
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::fuzz_checks::sgf_read(data));

//! Any bytes as GTP lines on one engine with a tiny playout budget; see
//! `gtp_lines` in `tests/common/fuzz_checks.rs` (shared with the
//! regression test).
//!
//!   cargo +nightly fuzz run gtp_lines -- -max_len=4096 -dict=gtp.dict
#![no_main]

#[allow(dead_code)]
#[path = "../../tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::fuzz_checks::gtp_lines(data));

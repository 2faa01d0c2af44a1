//! Any bytes: the SGF reader gives a record or an error, never a panic, and
//! what it reads survives a write and a second read unchanged.
#![no_main]

use kosumi::sgf::{Collection, GameRecord};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Collection::parse(data);
    if let Ok(record) = GameRecord::from_sgf(data) {
        let text = record.to_sgf();
        let again = GameRecord::from_sgf(text.as_bytes()).expect("written SGF reads back");
        // NaN-free by construction (the reader rejects non-finite komi).
        assert_eq!(again, record);
    }
});

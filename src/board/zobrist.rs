//! Zobrist keys, generated at compile time from a fixed seed.

use super::point::SLOTS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn table(seed: u64) -> [u64; SLOTS] {
    let mut keys = [0u64; SLOTS];
    let mut state = seed;
    let mut i = 0;
    while i < SLOTS {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

/// Key of a stone of each colour on each slot: `STONE[color][slot]`.
pub const STONE: [[u64; SLOTS]; 2] = [table(0x6b6f_7375_6d69_0001), table(0x6b6f_7375_6d69_0002)];
/// Key of the simple-ko point, for the full hash.
pub const KO: [u64; SLOTS] = table(0x6b6f_7375_6d69_0003);
/// Key toggled when White is to move, for the full hash.
pub const WHITE_TO_MOVE: u64 = splitmix64(0x6b6f_7375_6d69_0004).1;

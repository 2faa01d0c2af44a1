//! The random generators of the playouts, apart so that the board (whose
//! playout step draws from one) and the playout loop both use them without
//! importing each other.

/// The seed of the search and the judge unless told otherwise: "kosumi".
pub const DEFAULT_SEED: u64 = 0x6b6f_7375_6d69;

/// A small, fast, seedable random generator (xorshift64*), good enough for
/// playouts and reproducible across platforms.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from a seed (any value, zero included).
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// The light playouts' own generator: a 64-bit linear congruential
/// generator whose high half picks the start point. Two instructions a step
/// where xorshift64* takes seven, and on the playout's critical path; its
/// high bits are plenty for choosing among at most 625 points.
#[derive(Clone, Debug)]
pub(crate) struct PlayoutRng(u64);

impl PlayoutRng {
    /// A generator seeded with 64 bits drawn from `rng`.
    pub(crate) fn from(rng: &mut FastRng) -> PlayoutRng {
        PlayoutRng(rng.next_u64())
    }

    /// A number in `0..n` (`n > 0`, below 2^32).
    #[inline(always)]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (((self.0 >> 32) * n as u64) >> 32) as usize
    }
}

//! Command-line subcommands (match, stress, bench, score).

pub mod bench;
pub mod stress;

/// Entry point of the `kosumi` binary; returns the process exit status.
pub fn main() -> i32 {
    0
}

//! Command-line subcommands (match, stress, bench, score).

pub mod gtp_client;
pub mod match_runner;
pub mod stats;

/// Entry point of the `kosumi` binary; returns the process exit status.
pub fn main() -> i32 {
    0
}

//! Command-line subcommands (match, stress, bench, score).

/// Entry point of the `kosumi` binary; returns the process exit status.
pub fn main() -> i32 {
    0
}

pub mod score_cmd;

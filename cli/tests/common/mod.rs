#![allow(dead_code)]
//! Helpers shared by the binary's integration tests.
pub mod process;
pub mod session;
#[path = "../../../tests/common/tools.rs"]
pub mod tools;

/// GNU Go's program, found by `kosumi_cli::tools::gnugo`, or a reported skip.
pub fn gnugo() -> Option<std::path::PathBuf> {
    kosumi_cli::tools::gnugo()
        .map_err(|why| tools::missing_tool(&why.to_string()))
        .ok()
}

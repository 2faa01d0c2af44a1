//! Outside tools for the tests, and skips that show.
//!
//! libtest captures what a passing test prints with `println!`/`eprintln!`,
//! so a skip printed that way is never seen. A skip here is written to the
//! process's stderr handle directly, which the harness does not capture.
//! Under CI (`CI` set and not `false`/`0`) a missing tool fails the test.

use std::io::Write;

/// Whether the tests run under CI, where every tool must be there.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The running test's name (libtest names each test's thread after it).
fn test_name() -> String {
    std::thread::current().name().unwrap_or("test").to_string()
}

/// Reports a skipped test on stderr, where it shows.
pub fn skip(why: &str) {
    // One write, so that lines of tests running in parallel do not mix.
    let line = format!("skipped: {}: {why}\n", test_name());
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// A tool the test needs is missing: fail under CI, else skip visibly.
pub fn missing_tool(why: &str) {
    if in_ci() {
        panic!(
            "{}: {why} (under CI every tool must be installed)",
            test_name()
        );
    }
    skip(why);
}

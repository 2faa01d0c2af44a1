#![allow(dead_code)]
//! Helpers shared by integration tests.
pub mod fuzz_checks;
pub mod reference;
pub mod tools;

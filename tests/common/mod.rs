#![allow(dead_code)]
//! Helpers shared by integration tests.
pub mod engine;
pub mod fuzz_checks;
pub mod reference;
pub mod tools;

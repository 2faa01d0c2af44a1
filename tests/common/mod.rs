#![allow(dead_code)]
//! Helpers shared by integration tests.
pub mod reference;

//! Move patterns learned from strong human games (issue #8).
//!
//! [`features`] says what a candidate move looks like (tactics, distances,
//! line, 3x3 and large shapes) and [`Model`] rates it (Bradley-Terry gammas,
//! stored in a small file, one is embedded). Fitting the gammas is an
//! offline job of the command line (`kosumi train-patterns`,
//! `src/cli/patterns/`).

pub mod features;
mod model;

pub use features::{Context, MoveFeatures};
pub use model::{Model, WeightsError};

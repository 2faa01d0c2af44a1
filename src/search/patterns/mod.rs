//! Move patterns learned from strong human games (issue #8).
//!
//! [`features`] says what a candidate move looks like (tactics, distances,
//! line, 3x3 and large shapes), [`Model`] rates it (Bradley-Terry gammas,
//! stored in a small file, one is embedded), [`mm`] fits the gammas and
//! [`train`] replays game records for training and measuring.

pub mod features;
pub mod mm;
mod model;
pub mod train;

pub use features::{Context, MoveFeatures};
pub use model::{Model, WeightsError};

//! Unit tests on small diagrams.

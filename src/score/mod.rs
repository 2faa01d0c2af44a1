//! Counting finished games under each rule set.

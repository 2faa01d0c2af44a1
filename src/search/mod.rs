//! Monte Carlo tree search.

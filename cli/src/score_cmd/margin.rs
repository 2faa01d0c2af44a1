//! Comparing counts given as Black-minus-White margins.

/// Whether two margins name the same winner (or both a draw).
pub fn same_winner(a: f64, b: f64) -> bool {
    a.partial_cmp(&0.0) == b.partial_cmp(&0.0)
}

/// Whether two margins are the same count (half points are exact in
/// `f64`; the tolerance only absorbs parsing).
pub fn same_margin(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

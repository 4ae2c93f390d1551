//! What a sample size rules out before any data is looked at: the smallest p-value
//! a rank test can give, and so the fewest runs that can reach a level at all
//! (benchstat's "need >= N samples" warning, with the number computed).

/// The smallest two-sided p-value of the exact Mann–Whitney U test with `n_a` and
/// `n_b` runs and no ties: the two extreme orderings out of C(n_a + n_b, n_a),
/// 2/C(n_a + n_b, n_a), at most 1.
pub fn mann_whitney_min_p(n_a: u64, n_b: u64) -> f64 {
    // C(n, k) in floating point, k = min(n_a, n_b): exact while it fits in 53 bits
    let (k, n) = (n_a.min(n_b), n_a + n_b);
    let mut c = 1.0f64;
    for i in 0..k {
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    (2.0 / c).min(1.0)
}

/// The fewest runs per side (the same on both) with which Mann–Whitney U can give a
/// two-sided p below `alpha` (0 < alpha < 1): 4 at alpha = 0.05 (2/C(8, 4) = 0.029,
/// while 3 and 3 give at least 2/C(6, 3) = 0.1).
pub fn mann_whitney_min_runs(alpha: f64) -> u64 {
    let mut n = 1;
    while mann_whitney_min_p(n, n) >= alpha && n < 64 {
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        // C(6, 3) = 20, C(8, 4) = 70, C(7, 3) = 35, C(4, 2) = 6
        assert_eq!(mann_whitney_min_p(3, 3), 0.1);
        assert_eq!(mann_whitney_min_p(4, 4), 2.0 / 70.0);
        assert_eq!(mann_whitney_min_p(3, 4), 2.0 / 35.0);
        assert_eq!(mann_whitney_min_p(1, 1), 1.0);
        assert_eq!(mann_whitney_min_runs(0.05), 4);
        // 2/C(10, 5) = 2/252 = 0.0079 < 0.01, 2/C(8, 4) = 0.029 >= 0.01
        assert_eq!(mann_whitney_min_runs(0.01), 5);
    }
}

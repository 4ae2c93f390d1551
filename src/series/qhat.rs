//! The E-divisive means statistic Q̂ of Matteson and James (2014), searched the way
//! Apache Otava's `PairDistanceCalculator` does: for an interval `[s, e)` of the
//! series, the split τ and the end κ (s < τ < κ ≤ e) that maximise
//!
//! Q(τ, κ) = 2/(m+n) Σ|X_i − Y_j| − 2m/((m+n)(n−1)) Σ_{i<k}|X_i − X_k| − 2n/((m+n)(m−1)) Σ_{j<k}|Y_j − Y_k|
//!
//! with X = x[s..τ] (n values) and Y = x[τ..κ] (m values). The sums are formed in
//! Otava's order (column prefix sums of the pairwise distances), so that ties
//! between candidates fall the same way; memory is O(e − s), not the N × N matrix
//! Otava keeps (docs/change-points.md §1).

/// A candidate change point: the first index of the right-hand segment, and Q̂ there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Index in the series of the first value after the change.
    pub index: usize,
    /// The maximised Q̂.
    pub qhat: f64,
}

/// The pairwise-distance calculator of one series: the sums reused by every search.
pub struct Calculator<'a> {
    x: &'a [f64],
    /// `v[t - 1]` = Σ_{r<t} |x_r − x_t| for t = 1..n, added in order of r.
    v: Vec<f64>,
}

impl<'a> Calculator<'a> {
    /// Prepare the searches over `x` (finite values).
    pub fn new(x: &'a [f64]) -> Self {
        let v = (1..x.len()).map(|t| x[..t].iter().fold(0.0, |acc, a| acc + (a - x[t]).abs())).collect();
        Calculator { x, v }
    }

    /// The best candidate over `intervals` (half-open, sorted): the one with the
    /// largest Q̂ among the intervals of two values or more, the first on a tie;
    /// `None` when no interval has two values.
    pub fn next_candidate(&self, intervals: &[(usize, usize)]) -> Option<Candidate> {
        let mut best: Option<Candidate> = None;
        for &(s, e) in intervals.iter().filter(|(s, e)| e - s > 1) {
            let c = self.candidate(s, e);
            if best.is_none_or(|b| c.qhat > b.qhat) {
                best = Some(c);
            }
        }
        best
    }

    /// The candidate of `[s, e)` (e − s ≥ 2): numpy's argmax over the (τ, κ) grid,
    /// so a tie goes to the smallest τ, then the smallest κ.
    pub fn candidate(&self, s: usize, e: usize) -> Candidate {
        let x = self.x;
        let d = |a: usize, b: usize| (x[a] - x[b]).abs();
        let len = e - 1 - s; // rows i ↔ τ = s+1+i, columns j ↔ κ = s+2+j
                             // cv[i] = Σ_{k≤i} vw[k], vw[k] = Σ_{s≤r<t} d(r, t) for t = s+1+k (as v minus the rows before s)
        let mut cv = Vec::with_capacity(len);
        let mut acc = 0.0;
        for k in 0..len {
            let t = s + 1 + k;
            let before = x[..s].iter().fold(0.0, |a, xr| a + (xr - x[t]).abs());
            acc += self.v[t - 1] - before;
            cv.push(acc);
        }
        // h[r] = Σ_{b=s+r+1}^{s+j+1} d(s+r, b): row prefix sums, extended one column at a time
        let mut h = vec![0.0; len];
        let mut rc = vec![0.0; len];
        let mut best = (f64::NEG_INFINITY, 0usize, 0usize);
        for j in 0..len {
            let kappa = s + 2 + j;
            for (r, hr) in h.iter_mut().enumerate().take(j + 1) {
                *hr += d(s + r, kappa - 1);
            }
            // rc[i] = h[j] + h[j-1] + ... + h[i+1] (Otava's reversed cumulative sum)
            let mut tail = 0.0;
            for i in (0..j).rev() {
                tail = if i + 1 == j { h[j] } else { tail + h[i + 1] };
                rc[i] = tail;
            }
            let mut ch = 0.0;
            let a_coef = 2.0 / (j + 2) as f64;
            for i in 0..=j {
                ch += h[i];
                let prev_v = if i == 0 { 0.0 } else { cv[i - 1] };
                let a = a_coef * (ch - prev_v);
                let b = if i == 0 { 0.0 } else { (2 * (j - i + 1)) as f64 / ((j + 2) * i) as f64 * prev_v };
                let c = if j > i { (2 * (i + 1)) as f64 / ((j + 2) * (j - i)) as f64 * rc[i] } else { 0.0 };
                let q = a - b - c;
                if q > best.0 || (q == best.0 && (i, j) < (best.1, best.2)) {
                    best = (q, i, j);
                }
            }
        }
        Candidate { index: s + 1 + best.1, qhat: best.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Q(τ, κ) from its definition, by plain loops (as Otava's own test does).
    fn q_slow(x: &[f64], tau: usize, kappa: usize) -> f64 {
        let (xs, ys) = (&x[..tau], &x[tau..kappa]);
        let (n, m) = (xs.len() as f64, ys.len() as f64);
        let a: f64 = xs.iter().map(|a| ys.iter().map(|b| (a - b).abs()).sum::<f64>()).sum::<f64>() * 2.0 / (m + n);
        let within = |z: &[f64]| {
            let mut s = 0.0;
            for i in 0..z.len() {
                for k in i + 1..z.len() {
                    s += (z[i] - z[k]).abs();
                }
            }
            s
        };
        let b = if n > 1.0 { within(xs) * 2.0 * m / (m + n) / (n - 1.0) } else { 0.0 };
        let c = if m > 1.0 { within(ys) * 2.0 * n / (m + n) / (m - 1.0) } else { 0.0 };
        a - b - c
    }

    #[test]
    fn matches_the_definition() {
        // Otava's tests/change_point_divisive_test.py SEQUENCE: change points at 5 and 8
        let x = [0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1, 149.0, 149.7, 149.5, 149.1, 148.8, 150.0];
        let mut best = (0.0, 0);
        for tau in 1..x.len() {
            for kappa in tau + 1..=x.len() {
                let q = q_slow(&x, tau, kappa);
                if q > best.0 {
                    best = (q, tau);
                }
            }
        }
        let c = Calculator::new(&x).candidate(0, x.len());
        assert_eq!(c.index, best.1);
        assert!((c.qhat - best.0).abs() < 1e-9 * best.0);
        // a sub-interval: the same statistic on x[5..14]
        let sub = Calculator::new(&x[5..]).candidate(0, 9);
        let c = Calculator::new(&x).candidate(5, 14);
        assert_eq!(c.index, sub.index + 5);
        assert!((c.qhat - sub.qhat).abs() < 1e-9 * sub.qhat);
    }

    #[test]
    fn constant_series_splits_after_the_first_value() {
        // every Q is 0: numpy's argmax takes the first cell, τ = s + 1
        let x = [3.0; 6];
        assert_eq!(Calculator::new(&x).candidate(2, 6), Candidate { index: 3, qhat: 0.0 });
        assert_eq!(Calculator::new(&x).next_candidate(&[(0, 1), (1, 6)]), Some(Candidate { index: 2, qhat: 0.0 }));
        assert_eq!(Calculator::new(&x).next_candidate(&[(0, 1)]), None);
    }
}

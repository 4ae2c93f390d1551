//! Sums and means in numpy's order of additions (its pairwise summation), so that
//! the segment means and deviations of a change point are the bits Apache Otava
//! computes with `np.mean` and `np.std` (docs/change-points.md §3).

/// Below this many values numpy adds sequentially; up to `BLOCK` it keeps eight
/// running sums; above, it splits in two halves (a multiple of 8 on the left).
const UNROLL: usize = 8;
const BLOCK: usize = 128;

/// `x` summed as numpy's `pairwise_sum` of a contiguous float64 array.
pub fn sum(x: &[f64]) -> f64 {
    let n = x.len();
    if n < UNROLL {
        // numpy starts this case from -0.0 so that a sum of -0.0 stays -0.0
        return x.iter().fold(-0.0, |acc, v| acc + v);
    }
    if n <= BLOCK {
        let mut r = [0.0f64; UNROLL];
        r.copy_from_slice(&x[..UNROLL]);
        let whole = n - n % UNROLL;
        for chunk in x[UNROLL..whole].chunks_exact(UNROLL) {
            for (acc, v) in r.iter_mut().zip(chunk) {
                *acc += v;
            }
        }
        let mut s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for v in &x[whole..] {
            s += v;
        }
        return s;
    }
    let half = (n / 2) - (n / 2) % UNROLL;
    sum(&x[..half]) + sum(&x[half..])
}

/// `np.mean(x)`: the pairwise sum over the count (`x` non-empty).
pub fn mean(x: &[f64]) -> f64 {
    sum(x) / x.len() as f64
}

/// `np.std(x)` (ddof 0): the square root of the mean squared deviation from `mean`.
pub fn std(x: &[f64], mean: f64) -> f64 {
    let sq: Vec<f64> = x.iter().map(|v| (v - mean) * (v - mean)).collect();
    (sum(&sq) / x.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_of_additions() {
        // 0.1 added 10 times: sequentially 0.9999999999999999; numpy's eight running
        // sums then the last two give exactly 1.0 (np.sum([0.1]*10) == 1.0)
        assert_eq!(sum(&[0.1; 10]), 1.0);
        assert_eq!([0.1f64; 10].iter().sum::<f64>(), 0.9999999999999999);
        // fewer than 8: sequential
        assert_eq!(sum(&[0.1; 7]), 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1);
        assert_eq!(mean(&[1.0, 2.0, 3.0, 4.0]), 2.5);
        assert_eq!(std(&[1.0, 2.0, 3.0, 4.0], 2.5), 1.25f64.sqrt());
    }
}

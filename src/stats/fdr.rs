//! Benjamini–Hochberg adjusted p-values (q-values), as
//! scipy.stats.false_discovery_control(ps, method='bh'), and its e-value analogue
//! e-BH (Wang and Ramdas 2022) for the sequential verdicts (docs/sequential.md §3).

use crate::error::{Error, Result};

/// BH-adjusted p-values in input order: q₍ᵢ₎ = min over j ≥ i of p₍ⱼ₎·m/j, capped at 1.
/// Every p must be within [0, 1]; an empty input gives an empty output.
pub fn fdr_bh(p: &[f64]) -> Result<Vec<f64>> {
    if let Some((i, v)) = p.iter().enumerate().find(|(_, v)| !(0.0..=1.0).contains(*v)) {
        return Err(Error::domain(format!("p-values must be within [0, 1]; pvalues[{i}] = {v}")));
    }
    let m = p.len();
    if m <= 1 {
        return Ok(p.to_vec());
    }
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adj: Vec<f64> = order.iter().enumerate().map(|(r, &i)| p[i] * (m as f64 / (r + 1) as f64)).collect();
    for r in (0..m - 1).rev() {
        adj[r] = adj[r].min(adj[r + 1]);
    }
    let mut out = vec![0.0; m];
    for (r, &i) in order.iter().enumerate() {
        out[i] = adj[r].min(1.0);
    }
    Ok(out)
}

/// e-BH at level `alpha`: which of the e-values `e` are discoveries. With the e-values
/// sorted from the largest, e₍₁₎ ≥ e₍₂₎ ≥ …, the k̂ largest are, k̂ the largest k with
/// e₍ₖ₎ ≥ m/(alpha·k). It controls the false discovery rate at `alpha` whatever the
/// dependence between the e-values, and for one e-value it is e ≥ 1/alpha. Every e
/// must be ≥ 0 (NaN is not).
pub fn e_bh(e: &[f64], alpha: f64) -> Result<Vec<bool>> {
    if let Some((i, v)) = e.iter().enumerate().find(|(_, v)| v.is_nan() || **v < 0.0) {
        return Err(Error::domain(format!("e-values must be >= 0; evalues[{i}] = {v}")));
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::domain(format!("alpha must be within (0, 1), got {alpha}")));
    }
    let m = e.len() as f64;
    let mut order: Vec<usize> = (0..e.len()).collect();
    order.sort_by(|&a, &b| e[b].total_cmp(&e[a]));
    let k = order.iter().enumerate().filter(|(r, &i)| e[i] >= m / (alpha * (r + 1) as f64)).map(|(r, _)| r + 1).max();
    let mut out = vec![false; e.len()];
    for &i in order.iter().take(k.unwrap_or(0)) {
        out[i] = true;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bh_by_hand() {
        // sorted p: 0.01 0.02 0.04 0.5 (m = 4) -> 0.04 0.04 0.0533.. 0.5
        let q = fdr_bh(&[0.01, 0.02, 0.5, 0.04]).unwrap();
        assert_eq!(q, vec![0.04, 0.04, 0.5, 0.04 * (4.0 / 3.0)]);
        assert!(fdr_bh(&[0.1, 1.5]).is_err());
        assert!(fdr_bh(&[f64::NAN]).is_err());
        assert!(fdr_bh(&[]).unwrap().is_empty());
    }

    #[test]
    fn e_bh_by_hand() {
        // m = 4, alpha 0.1: thresholds m/(alpha k) = 40, 20, 13.3, 10 for k = 1..4.
        // Sorted: 50 25 12 1 -> k = 2 passes (25 >= 20), k = 3 fails (12 < 13.3).
        assert_eq!(e_bh(&[12.0, 50.0, 1.0, 25.0], 0.1).unwrap(), [false, true, false, true]);
        // one e-value: e >= 1/alpha
        assert_eq!(e_bh(&[20.0], 0.05).unwrap(), [true]);
        assert_eq!(e_bh(&[19.9], 0.05).unwrap(), [false]);
        assert!(e_bh(&[f64::NAN], 0.05).is_err());
    }
}

//! Benjamini–Hochberg adjusted p-values (q-values), as
//! scipy.stats.false_discovery_control(ps, method='bh').

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
}

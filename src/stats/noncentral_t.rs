//! The noncentral t distribution's CDF, the distribution of a t statistic when the
//! means really differ (the power of a t-test), as scipy.stats.nct.cdf.
//!
//! Method of Benton & Krishnamoorthy (2003, Computational Statistics & Data
//! Analysis 43, 249–267): for t ≥ 0, with x = t²/(t² + ν) and λ = δ²/2,
//!
//! F(t; ν, δ) = Φ(−δ) + ½ Σᵢ [Pᵢ·I_x(i + ½, ν/2) + Qᵢ·I_x(i + 1, ν/2)],
//! Pᵢ = e^−λ λ^i / i!,  Qᵢ = e^−λ λ^i δ / (√2 Γ(i + 3/2)),
//!
//! summed outwards from the Poisson mode i = ⌊λ⌋ (so that no weight underflows for
//! large δ) with the recurrences of the incomplete beta in its first argument; for
//! t < 0, F(t; ν, δ) = 1 − F(−t; ν, −δ). Reference for the tests: scipy (Boost).

use super::student_t::beta_reg;
use crate::error::{Error, Result};
use libm::{erfc, lgamma, log1p};

/// Standard normal CDF Φ(z).
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// Terms smaller than this fraction of the running sum end the outward sums.
const EPS: f64 = 1e-17;
/// At most this many terms past the mode (each term's weight falls geometrically there).
const MAX_FORWARD: u32 = 100_000;

/// I_x(a, b) and g = Γ(a+b)/(Γ(a+1)Γ(b)) x^a y^b (so that I_x(a+1, b) = I_x(a, b) − g).
fn beta_and_step(a: f64, b: f64, x: f64, y: f64, ln_x: f64, ln_y: f64) -> (f64, f64) {
    let i = beta_reg(a, b, x, y, ln_x, ln_y);
    let g = (lgamma(a + b) - lgamma(a + 1.0) - lgamma(b) + a * ln_x + b * ln_y).exp();
    (i, g)
}

/// The series part ½ Σ [Pᵢ I_x(i+½, b) + Qᵢ I_x(i+1, b)] for t ≥ 0.
fn series(t: f64, df: f64, delta: f64) -> Result<f64> {
    // x = t²/(t²+ν) and y = ν/(t²+ν) from r = t²/ν, each without cancellation
    let r = t * t / df;
    let (x, y) = (r / (1.0 + r), 1.0 / (1.0 + r));
    let ln_1p = log1p(r);
    let (ln_x, ln_y) = (r.ln() - ln_1p, -ln_1p);
    let b = df / 2.0;
    let lambda = delta * delta / 2.0;
    let k = lambda.floor();
    let ln_w = -lambda + if lambda > 0.0 { k * lambda.ln() } else { 0.0 };
    let p_k = (ln_w - lgamma(k + 1.0)).exp();
    let q_k = (ln_w - lgamma(k + 1.5)).exp() * delta / std::f64::consts::SQRT_2;
    let (ip_k, gp_k) = beta_and_step(k + 0.5, b, x, y, ln_x, ln_y);
    let (iq_k, gq_k) = beta_and_step(k + 1.0, b, x, y, ln_x, ln_y);
    let mut sum = p_k * ip_k + q_k * iq_k;
    // forward: i = k+1, k+2, ...
    let (mut p, mut q, mut ip, mut iq, mut gp, mut gq) = (p_k, q_k, ip_k, iq_k, gp_k, gq_k);
    let mut i = k;
    let mut converged = false;
    for _ in 0..MAX_FORWARD {
        let (ap, aq) = (i + 0.5, i + 1.0); // first arguments of the current term
        ip -= gp;
        iq -= gq;
        gp *= x * (ap + b) / (ap + 1.0);
        gq *= x * (aq + b) / (aq + 1.0);
        i += 1.0;
        p *= lambda / i;
        q *= lambda / (i + 0.5);
        let term = p * ip.max(0.0) + q * iq.max(0.0);
        sum += term;
        // past the mode the Poisson weights fall by at least λ/(i+1) per step and I_x falls too
        let ratio = lambda / (i + 1.0);
        if ratio < 1.0 && term.abs() * ratio / (1.0 - ratio) <= EPS * sum.abs() {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(Error::Internal(format!("noncentral t CDF did not converge (t={t}, df={df}, nc={delta})")));
    }
    // backward: i = k-1, ..., 0 (finite; the incomplete betas grow, the weights fall)
    let (mut p, mut q, mut ip, mut iq, mut gp, mut gq) = (p_k, q_k, ip_k, iq_k, gp_k, gq_k);
    let mut i = k;
    while i >= 1.0 {
        let (ap, aq) = (i + 0.5, i + 1.0);
        // g of a−1 from g of a: a / ((a + b − 1) x)
        gp *= ap / ((ap + b - 1.0) * x);
        gq *= aq / ((aq + b - 1.0) * x);
        ip += gp;
        iq += gq;
        p *= i / lambda;
        q *= (i + 0.5) / lambda;
        i -= 1.0;
        sum += p * ip.min(1.0) + q * iq.min(1.0);
        // below the mode the weights fall by at least (i + ½)/λ per step, and I_x ≤ 1
        let ratio = (i + 0.5) / lambda;
        if ratio < 1.0 && (p + q.abs()) * ratio / (1.0 - ratio) <= EPS * sum.abs() {
            break;
        }
    }
    Ok(sum / 2.0)
}

/// P(T ≤ t) for the noncentral t with `df` > 0 degrees of freedom and noncentrality
/// `nc` (scipy.stats.nct.cdf(t, df, nc)).
pub fn cdf(t: f64, df: f64, nc: f64) -> Result<f64> {
    if df.is_nan() || df <= 0.0 || !nc.is_finite() || t.is_nan() {
        return Err(Error::domain(format!(
            "noncentral t needs df > 0 and finite t and nc, got t={t}, df={df}, nc={nc}"
        )));
    }
    if t == f64::INFINITY {
        return Ok(1.0);
    }
    if t == f64::NEG_INFINITY {
        return Ok(0.0);
    }
    let (tt, d, negate) = if t < 0.0 { (-t, -nc, true) } else { (t, nc, false) };
    let f = if tt == 0.0 { normal_cdf(-d) } else { normal_cdf(-d) + series(tt, df, d)? };
    let f = f.clamp(0.0, 1.0);
    Ok(if negate { 1.0 - f } else { f })
}

/// P(T > t) = 1 − [`cdf`].
pub fn sf(t: f64, df: f64, nc: f64) -> Result<f64> {
    Ok(1.0 - cdf(t, df, nc)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::student_t;

    #[test]
    fn zero_noncentrality_is_students_t() {
        for (t, df) in [(0.5, 3.0), (2.0, 7.5), (-1.3, 12.0), (4.0, 2.0)] {
            let central = 1.0 - student_t::sf(t, df).unwrap();
            assert!((cdf(t, df, 0.0).unwrap() - central).abs() < 1e-14, "{t} {df}");
        }
    }

    #[test]
    fn at_zero_it_is_the_normal_tail() {
        // T ≤ 0 exactly when Z + δ ≤ 0: F(0; ν, δ) = Φ(−δ)
        assert!((cdf(0.0, 5.0, 1.5).unwrap() - normal_cdf(-1.5)).abs() < 1e-16);
        // Φ(−1.5) by hand from erfc: 0.5·erfc(1.5/√2) = 0.0668072012688581
        assert!((normal_cdf(-1.5) - 0.066_807_201_268_858_1).abs() < 1e-15);
    }

    #[test]
    fn refuses_nonsense() {
        assert!(cdf(1.0, 0.0, 1.0).is_err());
        assert!(cdf(f64::NAN, 3.0, 1.0).is_err());
    }
}

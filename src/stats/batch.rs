//! Many samples at once: summaries and pairwise comparisons in parallel on the
//! bounded rayon pool ([`crate::parallel`]).
//!
//! A batch never fails because one element is undefined: a statistic that is
//! undefined for an element (hmean of a zero, a test with one sample) is NaN in
//! that element and the first reason is kept in its `error` field.

use super::change::pct_change;
use super::descriptive::{
    amean, amean_checked, coeff_var_about, gmean_checked, hmean_checked, median_sorted, variance_about,
};
use super::mann_whitney::{mann_whitney_u, MwuMethod};
use super::sample::check;
use super::welch::welch_ttest;
use crate::error::{Error, Result};
use crate::{cancel, parallel};
use rayon::prelude::*;

/// Summary statistics of one sample; NaN where undefined.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub amean: f64,
    /// Harmonic mean (NaN unless all values are positive).
    pub hmean: f64,
    /// Geometric mean (NaN unless all values are positive).
    pub gmean: f64,
    /// Median.
    pub median: f64,
    /// Sample standard deviation (ddof = 1; NaN for n < 2).
    pub stddev: f64,
    /// Coefficient of variation in percent (NaN for n < 2 or a zero mean).
    pub coeff_var: f64,
    /// The first reason a statistic is NaN, if any.
    pub error: Option<String>,
}

/// Keeps the first error message and turns errors into NaN.
struct FirstError(Option<String>);

impl FirstError {
    fn take(&mut self, r: Result<f64>) -> f64 {
        match r {
            Ok(v) => v,
            Err(e) => {
                if self.0.is_none() {
                    self.0 = Some(e.to_string());
                }
                f64::NAN
            }
        }
    }
}

/// Summary of one sample (never fails; see [`Summary::error`]). Each field equals
/// the single function's result bit for bit; the sample is checked and sorted once.
pub fn summarize(x: &[f64]) -> Summary {
    summarize_with(x, &mut Vec::new())
}

/// [`summarize`] using `scratch` for the sorted copy (no allocation per sample in batches).
fn summarize_with(x: &[f64], scratch: &mut Vec<f64>) -> Summary {
    let nan = f64::NAN;
    let mut s = Summary {
        n: x.len(),
        min: nan,
        max: nan,
        amean: nan,
        hmean: nan,
        gmean: nan,
        median: nan,
        stddev: nan,
        coeff_var: nan,
        error: None,
    };
    if let Err(err) = check(x, "x") {
        s.error = Some(err.to_string());
        return s;
    }
    let mut e = FirstError(None);
    scratch.clear();
    scratch.extend_from_slice(x);
    scratch.sort_unstable_by(f64::total_cmp);
    let sorted = &scratch[..];
    s.min = sorted[0];
    s.max = sorted[sorted.len() - 1];
    s.median = median_sorted(sorted);
    s.amean = e.take(amean_checked(x));
    s.hmean = e.take(hmean_checked(x));
    s.gmean = e.take(gmean_checked(x));
    if !s.amean.is_nan() {
        s.stddev = e.take(variance_about(x, s.amean, 1).map(f64::sqrt));
        if !s.stddev.is_nan() {
            s.coeff_var = e.take(coeff_var_about(x, s.amean, s.stddev));
        }
    }
    s.error = e.0;
    s
}

/// Summaries of many samples, in parallel on at most `threads` threads; a stop
/// request (Ctrl-C, docs/cancel.md) is seen before each sample.
pub fn summarize_many(series: &[&[f64]], threads: Option<usize>) -> Result<Vec<Summary>> {
    parallel::install(threads, || {
        series
            .par_iter()
            .map_init(Vec::new, |scratch, x| {
                cancel::check()?;
                Ok(summarize_with(x, scratch))
            })
            .collect::<Result<Vec<_>>>()
    })?
}

/// One baseline/new comparison; NaN where undefined.
#[derive(Debug, Clone, PartialEq)]
pub struct PairComparison {
    /// Samples in the baseline.
    pub n_base: usize,
    /// Samples in the new series.
    pub n_new: usize,
    /// Arithmetic mean of the baseline.
    pub amean_base: f64,
    /// Arithmetic mean of the new series.
    pub amean_new: f64,
    /// Percent change of the arithmetic mean, positive = better.
    pub pct_change: f64,
    /// Welch t statistic (base − new).
    pub welch_t: f64,
    /// Welch degrees of freedom.
    pub welch_df: f64,
    /// Welch two-sided p-value.
    pub welch_p: f64,
    /// Mann–Whitney U of the baseline.
    pub mwu_u: f64,
    /// Mann–Whitney two-sided p-value.
    pub mwu_p: f64,
    /// The first reason a value is NaN, if any.
    pub error: Option<String>,
}

/// Compare one pair: means, percent change, Welch and Mann–Whitney tests.
pub fn compare_pair(base: &[f64], new: &[f64], higher_is_better: bool, method: MwuMethod) -> PairComparison {
    let mut e = FirstError(None);
    let amean_base = e.take(amean(base));
    let amean_new = e.take(amean(new));
    let pct = if amean_base.is_nan() || amean_new.is_nan() {
        f64::NAN
    } else {
        e.take(pct_change(amean_base, amean_new, higher_is_better))
    };
    let (welch_t, welch_df, welch_p) = match welch_ttest(base, new) {
        Ok(w) => (w.t, w.df, w.p),
        Err(err) => {
            e.take(Err(err));
            (f64::NAN, f64::NAN, f64::NAN)
        }
    };
    let (mwu_u, mwu_p) = match mann_whitney_u(base, new, method) {
        Ok(m) => (m.u, m.p),
        Err(err) => {
            e.take(Err(err));
            (f64::NAN, f64::NAN)
        }
    };
    PairComparison {
        n_base: base.len(),
        n_new: new.len(),
        amean_base,
        amean_new,
        pct_change: pct,
        welch_t,
        welch_df,
        welch_p,
        mwu_u,
        mwu_p,
        error: e.0,
    }
}

/// Compare many (base, new) pairs in parallel on at most `threads` threads; a stop
/// request (Ctrl-C, docs/cancel.md) is seen before each pair.
pub fn compare_many(
    pairs: &[(&[f64], &[f64])],
    higher_is_better: bool,
    method: MwuMethod,
    threads: Option<usize>,
) -> Result<Vec<PairComparison>> {
    parallel::install(threads, || {
        pairs
            .par_iter()
            .map(|(b, n)| {
                cancel::check()?;
                Ok(compare_pair(b, n, higher_is_better, method))
            })
            .collect::<Result<Vec<_>>>()
    })?
}

/// Split a flat array into consecutive series of the given lengths.
pub fn split_ragged<'a>(values: &'a [f64], lengths: &[usize]) -> Result<Vec<&'a [f64]>> {
    let total: usize = lengths.iter().sum();
    if total != values.len() {
        return Err(Error::domain(format!("lengths add up to {total} but {} values were given", values.len())));
    }
    let mut out = Vec::with_capacity(lengths.len());
    let mut rest = values;
    for &l in lengths {
        let (head, tail) = rest.split_at(l);
        out.push(head);
        rest = tail;
    }
    Ok(out)
}

/// Pairs of base and new series, each side packed as values split by lengths
/// ([`split_ragged`]), as [`compare_many`] takes them; both sides must hold as many series.
pub fn split_pairs<'a>(
    base_values: &'a [f64],
    base_lengths: &[usize],
    new_values: &'a [f64],
    new_lengths: &[usize],
) -> Result<Vec<(&'a [f64], &'a [f64])>> {
    let bases = split_ragged(base_values, base_lengths)?;
    let news = split_ragged(new_values, new_lengths)?;
    if bases.len() != news.len() {
        return Err(Error::domain(format!("{} base series but {} new series", bases.len(), news.len())));
    }
    Ok(bases.into_iter().zip(news).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::descriptive::hmean;

    #[test]
    fn batch_matches_single_calls_and_marks_undefined() {
        let a: &[f64] = &[1.0, 2.0, 4.0];
        let z: &[f64] = &[0.0, 1.0];
        let one: &[f64] = &[5.0];
        let s = summarize_many(&[a, z, one, &[]], Some(2)).unwrap();
        assert_eq!(s[0].hmean, hmean(a).unwrap());
        assert_eq!(s[0].error, None);
        assert!(s[1].hmean.is_nan() && s[1].error.as_deref().unwrap().contains("non-positive"));
        assert_eq!(s[1].amean, 0.5);
        assert!(s[2].stddev.is_nan() && s[2].amean == 5.0);
        assert_eq!(s[3].n, 0);
        assert!(s[3].amean.is_nan());
    }

    #[test]
    fn compare_many_matches_single_tests() {
        let b: &[f64] = &[10.0, 11.0, 12.0, 10.5];
        let n: &[f64] = &[12.0, 13.0, 12.5, 14.0];
        let r = compare_many(&[(b, n), (b, &[1.0])], true, MwuMethod::Auto, Some(2)).unwrap();
        let w = welch_ttest(b, n).unwrap();
        let m = mann_whitney_u(b, n, MwuMethod::Auto).unwrap();
        assert_eq!((r[0].welch_t, r[0].welch_p, r[0].mwu_u, r[0].mwu_p), (w.t, w.p, m.u, m.p));
        assert!(r[1].welch_p.is_nan() && r[1].error.is_some());
        assert_eq!(r[1].pct_change, pct_change(amean(b).unwrap(), 1.0, true).unwrap());
    }

    #[test]
    fn ragged_split() {
        let v = [1.0, 2.0, 3.0];
        assert_eq!(split_ragged(&v, &[1, 0, 2]).unwrap(), vec![&v[..1], &v[1..1], &v[1..]]);
        assert!(split_ragged(&v, &[1, 1]).is_err());
    }

    #[test]
    fn split_pairs_by_hand() {
        let (b, n) = ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]);
        let pairs = split_pairs(&b, &[1, 2], &n, &[2, 1]).unwrap();
        assert_eq!(pairs, [(&b[..1], &n[..2]), (&b[1..], &n[2..])]);
        let err = split_pairs(&b, &[3], &n, &[1, 2]).unwrap_err().to_string();
        assert_eq!(err, "1 base series but 2 new series");
    }

    #[test]
    fn a_stop_is_seen_between_samples_and_pairs() {
        let x: Vec<f64> = (0..50).map(f64::from).collect();
        let series: Vec<&[f64]> = vec![&x; 10];
        let pairs: Vec<(&[f64], &[f64])> = vec![(&x, &x); 10];
        // the hook answers Interrupted at the 4th check: after 3 of the 10 items
        let _hook = crate::cancel::StopAfter::checks(3);
        assert_eq!(summarize_many(&series, Some(1)), Err(Error::Interrupted));
        let _hook = crate::cancel::StopAfter::checks(3);
        assert_eq!(compare_many(&pairs, true, MwuMethod::Auto, Some(1)), Err(Error::Interrupted));
    }
}

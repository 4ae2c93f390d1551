//! Bindings of [`schedlab::stats`]: one thin wrapper per core function.

use super::arrays::F64;
use super::errors::run;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::stats::{self, batch, BootstrapStatistic, MwuMethod};

type Arr<'py> = PyReadonlyArray1<'py, f64>;

macro_rules! unary {
    ($($name:ident),*) => {$(
        #[pyfunction]
        fn $name(py: Python<'_>, x: Arr<'_>) -> PyResult<f64> {
            let x = F64::new(x);
            let s = x.slice();
            run(py, || stats::$name(&s))
        }
    )*};
}

unary!(amean, hmean, gmean, median, min, max, coeff_var);

#[pyfunction]
fn percentiles<'py>(py: Python<'py>, x: Arr<'_>, qs: Arr<'_>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (x, qs) = (F64::new(x), F64::new(qs));
    let (xs, qss) = (x.slice(), qs.slice());
    Ok(run(py, || stats::percentiles(&xs, &qss))?.into_pyarray(py))
}

#[pyfunction]
fn stddev(py: Python<'_>, x: Arr<'_>, ddof: usize) -> PyResult<f64> {
    let x = F64::new(x);
    let s = x.slice();
    run(py, || stats::stddev(&s, ddof))
}

#[pyfunction]
fn bamean(py: Python<'_>, x: Arr<'_>, pct: f64, higher_is_better: bool) -> PyResult<f64> {
    let x = F64::new(x);
    let s = x.slice();
    run(py, || stats::bamean(&s, pct, higher_is_better))
}

#[pyfunction]
fn ci_mean(py: Python<'_>, x: Arr<'_>, level: f64) -> PyResult<(f64, f64, f64, f64)> {
    let x = F64::new(x);
    let s = x.slice();
    let c = run(py, || stats::ci_mean(&s, level))?;
    Ok((c.mean, c.low, c.high, c.level))
}

#[pyfunction]
fn pct_change(py: Python<'_>, base: f64, new: f64, higher_is_better: bool) -> PyResult<f64> {
    run(py, || stats::pct_change(base, new, higher_is_better))
}

#[pyfunction]
fn ratio(py: Python<'_>, base: f64, new: f64) -> PyResult<f64> {
    run(py, || stats::ratio(base, new))
}

#[pyfunction]
fn gmean_ratio(py: Python<'_>, bases: Arr<'_>, news: Arr<'_>, higher_is_better: bool) -> PyResult<f64> {
    let (b, n) = (F64::new(bases), F64::new(news));
    let (bs, ns) = (b.slice(), n.slice());
    run(py, || stats::gmean_ratio(&bs, &ns, higher_is_better))
}

#[pyfunction]
fn welch_ttest(py: Python<'_>, a: Arr<'_>, b: Arr<'_>) -> PyResult<(f64, f64, f64)> {
    let (a, b) = (F64::new(a), F64::new(b));
    let (as_, bs) = (a.slice(), b.slice());
    let r = run(py, || stats::welch_ttest(&as_, &bs))?;
    Ok((r.t, r.df, r.p))
}

#[pyfunction]
fn mann_whitney_u(py: Python<'_>, a: Arr<'_>, b: Arr<'_>, method: &str) -> PyResult<(f64, f64, &'static str)> {
    let (a, b) = (F64::new(a), F64::new(b));
    let (as_, bs) = (a.slice(), b.slice());
    let method = method.to_owned();
    let r = run(py, || stats::mann_whitney_u(&as_, &bs, MwuMethod::parse(&method)?))?;
    Ok((r.u, r.p, r.method.name()))
}

#[pyfunction]
#[pyo3(signature = (base, new, *, statistic, level, n_resamples, seed, threads=None))]
#[allow(clippy::too_many_arguments)] // keyword arguments: the Python signature
fn bootstrap_ci(
    py: Python<'_>,
    base: Arr<'_>,
    new: Arr<'_>,
    statistic: &str,
    level: f64,
    n_resamples: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(f64, f64, f64, f64, usize, u64)> {
    let (b, n) = (F64::new(base), F64::new(new));
    let (bs, ns) = (b.slice(), n.slice());
    let statistic = statistic.to_owned();
    let r = run(py, || {
        let st = BootstrapStatistic::parse(&statistic)?;
        stats::bootstrap_ratio_ci(&bs, &ns, st, level, n_resamples, seed, threads)
    })?;
    Ok((r.estimate, r.low, r.high, r.level, r.n_resamples, r.seed))
}

#[pyfunction]
fn fdr_bh<'py>(py: Python<'py>, p: Arr<'_>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let p = F64::new(p);
    let s = p.slice();
    Ok(run(py, || stats::fdr_bh(&s))?.into_pyarray(py))
}

fn column<'py, T: numpy::Element>(py: Python<'py>, d: &Bound<'py, PyDict>, name: &str, v: Vec<T>) -> PyResult<()> {
    d.set_item(name, v.into_pyarray(py))
}

/// Summaries of the series packed as `values` split by `lengths`; returns a dict
/// of column arrays plus an `error` list (None or the first reason for a NaN).
#[pyfunction]
fn summarize_many<'py>(
    py: Python<'py>,
    values: Arr<'_>,
    lengths: PyReadonlyArray1<'_, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let v = F64::new(values);
    let vs = v.slice();
    let lens: Vec<usize> = lengths.as_array().iter().map(|&l| l as usize).collect();
    let rows = run(py, || {
        let series = batch::split_ragged(&vs, &lens)?;
        stats::summarize_many(&series, threads)
    })?;
    let d = PyDict::new(py);
    column(py, &d, "n", rows.iter().map(|r| r.n as u64).collect())?;
    macro_rules! cols { ($($f:ident),*) => {$( column(py, &d, stringify!($f), rows.iter().map(|r| r.$f).collect())?; )*} }
    cols!(min, max, amean, hmean, gmean, median, stddev, coeff_var);
    d.set_item("error", rows.into_iter().map(|r| r.error).collect::<Vec<_>>())?;
    Ok(d)
}

/// Pairwise comparisons of base/new series packed as values + lengths.
#[pyfunction]
#[pyo3(signature = (base_values, base_lengths, new_values, new_lengths, *, higher_is_better, method, threads=None))]
#[allow(clippy::too_many_arguments)] // keyword arguments: the Python signature
fn compare_many<'py>(
    py: Python<'py>,
    base_values: Arr<'_>,
    base_lengths: PyReadonlyArray1<'_, u64>,
    new_values: Arr<'_>,
    new_lengths: PyReadonlyArray1<'_, u64>,
    higher_is_better: bool,
    method: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (bv, nv) = (F64::new(base_values), F64::new(new_values));
    let (bvs, nvs) = (bv.slice(), nv.slice());
    let (bl, nl) = (super::arrays::lengths(&base_lengths), super::arrays::lengths(&new_lengths));
    let method = method.to_owned();
    let rows = run(py, || {
        let method = MwuMethod::parse(&method)?;
        stats::compare_many(&batch::split_pairs(&bvs, &bl, &nvs, &nl)?, higher_is_better, method, threads)
    })?;
    let d = PyDict::new(py);
    column(py, &d, "n_base", rows.iter().map(|r| r.n_base as u64).collect())?;
    column(py, &d, "n_new", rows.iter().map(|r| r.n_new as u64).collect())?;
    macro_rules! cols { ($($f:ident),*) => {$( column(py, &d, stringify!($f), rows.iter().map(|r| r.$f).collect())?; )*} }
    cols!(amean_base, amean_new, pct_change, welch_t, welch_df, welch_p, mwu_u, mwu_p);
    d.set_item("error", rows.into_iter().map(|r| r.error).collect::<Vec<_>>())?;
    Ok(d)
}

/// Numbers of a text file or string (see [`schedlab::stats::parse_samples`]).
#[pyfunction]
#[pyo3(signature = (data, path=None))]
fn parse_samples<'py>(py: Python<'py>, data: &[u8], path: Option<String>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    Ok(run(py, || stats::parse_samples(data, path.as_deref()))?.into_pyarray(py))
}

/// Numbers of a samples file.
#[pyfunction]
fn read_samples<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyArray1<f64>>> {
    Ok(run(py, || stats::read_samples(&path))?.into_pyarray(py))
}

/// Add the statistics functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TEST_NAMES", schedlab::stats::TEST_NAMES.to_vec())?;
    m.add("DEFAULT_TEST", schedlab::stats::Test::default().name())?;
    m.add_function(wrap_pyfunction!(amean, m)?)?;
    m.add_function(wrap_pyfunction!(hmean, m)?)?;
    m.add_function(wrap_pyfunction!(gmean, m)?)?;
    m.add_function(wrap_pyfunction!(median, m)?)?;
    m.add_function(wrap_pyfunction!(min, m)?)?;
    m.add_function(wrap_pyfunction!(max, m)?)?;
    m.add_function(wrap_pyfunction!(coeff_var, m)?)?;
    m.add_function(wrap_pyfunction!(percentiles, m)?)?;
    m.add_function(wrap_pyfunction!(stddev, m)?)?;
    m.add_function(wrap_pyfunction!(bamean, m)?)?;
    m.add_function(wrap_pyfunction!(ci_mean, m)?)?;
    m.add_function(wrap_pyfunction!(pct_change, m)?)?;
    m.add_function(wrap_pyfunction!(ratio, m)?)?;
    m.add_function(wrap_pyfunction!(gmean_ratio, m)?)?;
    m.add_function(wrap_pyfunction!(welch_ttest, m)?)?;
    m.add_function(wrap_pyfunction!(mann_whitney_u, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_ci, m)?)?;
    m.add_function(wrap_pyfunction!(fdr_bh, m)?)?;
    m.add_function(wrap_pyfunction!(summarize_many, m)?)?;
    m.add_function(wrap_pyfunction!(compare_many, m)?)?;
    m.add_function(wrap_pyfunction!(parse_samples, m)?)?;
    m.add_function(wrap_pyfunction!(read_samples, m)?)?;
    Ok(())
}

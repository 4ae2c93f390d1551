//! Bindings of [`schedlab::table`]: the table parsers (returning [`PyComparison`]s) and
//! the verdict rule.

use super::arrays::F64;
use super::comparison::PyComparison;
use super::errors::run;
use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use schedlab::stats::batch::split_ragged;
use schedlab::stats::Test;
use schedlab::table::groups::{compare_groups, GroupMetric};
use schedlab::table::{amd, assess_many, Direction, VerdictRule};
use schedlab::tool_text;

/// Every table pasted in `text`, told apart by look (as [`tool_text::parse`]).
#[pyfunction]
#[pyo3(signature = (text, source="<text>"))]
fn parse_tables(py: Python<'_>, text: &str, source: &str) -> PyResult<Vec<PyComparison>> {
    let found = run(py, || tool_text::parse(text, source))?;
    Ok(found.into_iter().map(PyComparison::from_core).collect())
}

/// AMD's normalised tables, one comparison per `Test :` block (as [`amd::parse`]).
#[pyfunction]
fn parse_amd(py: Python<'_>, text: &str) -> PyResult<Vec<PyComparison>> {
    let found = run(py, || amd::parse(text))?;
    Ok(found.into_iter().map(PyComparison::from_core).collect())
}

/// The default (alpha, margin in percent, power) of the verdict rule.
#[pyfunction]
fn verdict_defaults() -> (f64, f64, f64) {
    let r = VerdictRule::default();
    (r.alpha, r.margin, r.power)
}

/// The line naming the tests and thresholds of a verdict rule (shown beside verdicts).
#[pyfunction]
fn verdict_rule_text(py: Python<'_>, test: &str, alpha: f64, margin: f64, power: f64) -> PyResult<String> {
    run(py, || {
        let rule = VerdictRule { alpha, margin, power, ..VerdictRule::default() };
        rule.validate()?;
        Ok(rule.describe(Test::parse(test)?))
    })
}

/// Which way is better for a metric name: "higher", "lower" or "unknown".
#[pyfunction]
fn direction(name: &str) -> &'static str {
    schedlab::direction::direction(name).name()
}

/// The verdict rule of the given thresholds, the defaults for those not given.
pub(super) fn rule_of(alpha: Option<f64>, margin: Option<f64>, power: Option<f64>, min_change: f64) -> VerdictRule {
    let d = VerdictRule::default();
    VerdictRule {
        alpha: alpha.unwrap_or(d.alpha),
        margin: margin.unwrap_or(d.margin),
        power: power.unwrap_or(d.power),
        min_change,
        ..d
    }
}

/// The comparison of sample `groups` (the first the baseline) over metrics `names`
/// ([`compare_groups`]): `values` packed as one series per metric and group, metric by
/// metric (`lengths` has len(names) × len(groups) entries, 0 where a group lacks it).
#[pyfunction]
#[pyo3(signature = (groups, names, values, lengths, *, units, directions, test=crate::defaults::test(), alpha=None, margin=None, power=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn compare_sample_groups(
    py: Python<'_>,
    groups: Vec<String>,
    names: Vec<String>,
    values: PyReadonlyArray1<'_, f64>,
    lengths: PyReadonlyArray1<'_, u64>,
    units: Vec<Option<String>>,
    directions: Vec<String>,
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyComparison> {
    let v = F64::new(values);
    let vs = v.slice();
    let ls = super::arrays::lengths(&lengths);
    let test = test.to_owned();
    let c = run(py, || {
        let series = split_ragged(&vs, &ls)?;
        if names.len() != units.len() || names.len() != directions.len() || series.len() != names.len() * groups.len() {
            return Err(schedlab::Error::domain(format!(
                "{} names, {} units, {} directions and {} series for {} groups",
                names.len(),
                units.len(),
                directions.len(),
                series.len(),
                groups.len()
            )));
        }
        let mut metrics = Vec::with_capacity(names.len());
        for (i, ((name, unit), d)) in names.iter().zip(&units).zip(&directions).enumerate() {
            let samples = series.iter().skip(i * groups.len()).take(groups.len()).map(|s| s.to_vec()).collect();
            metrics.push(GroupMetric {
                name: name.clone(),
                unit: unit.clone(),
                direction: Direction::parse(d)?,
                samples,
            });
        }
        compare_groups("stats", &groups, &metrics, Test::parse(&test)?, &rule_of(alpha, margin, power, 0.0), threads)
    })?;
    Ok(PyComparison::from_core(c))
}

/// Decide base/new series packed as values + lengths, one direction each, with BH
/// across all of them; returns a dict of columns (NaN or None where undefined) and of
/// the rule applied (`alpha`, `margin`, `target_power`: the defaults for those not given).
#[pyfunction]
#[pyo3(signature = (base_values, base_lengths, new_values, new_lengths, directions, *, test=crate::defaults::test(), alpha=None, margin=None, power=None, min_change=0.0, threads=None))]
#[allow(clippy::too_many_arguments)]
fn assess<'py>(
    py: Python<'py>,
    base_values: PyReadonlyArray1<'_, f64>,
    base_lengths: PyReadonlyArray1<'_, u64>,
    new_values: PyReadonlyArray1<'_, f64>,
    new_lengths: PyReadonlyArray1<'_, u64>,
    directions: Vec<String>,
    test: &str,
    alpha: Option<f64>,
    margin: Option<f64>,
    power: Option<f64>,
    min_change: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (bv, nv) = (F64::new(base_values), F64::new(new_values));
    let (bvs, nvs) = (bv.slice(), nv.slice());
    let (bl, nl) = (super::arrays::lengths(&base_lengths), super::arrays::lengths(&new_lengths));
    let test = test.to_owned();
    let rule = rule_of(alpha, margin, power, min_change);
    let rows = run(py, || {
        let dirs = directions.iter().map(|s| Direction::parse(s)).collect::<schedlab::Result<Vec<_>>>()?;
        let (bases, news) = (split_ragged(&bvs, &bl)?, split_ragged(&nvs, &nl)?);
        if bases.len() != news.len() {
            return Err(schedlab::Error::domain(format!("{} base series but {} new series", bases.len(), news.len())));
        }
        let pairs: Vec<(&[f64], &[f64])> = bases.into_iter().zip(news).collect();
        assess_many(&pairs, &dirs, Test::parse(&test)?, &rule, threads)
    })?;
    let d = PyDict::new(py);
    let nan = |x: Option<f64>| x.unwrap_or(f64::NAN);
    d.set_item("n_base", rows.iter().map(|r| r.n_base).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("n_new", rows.iter().map(|r| r.n_new).collect::<Vec<_>>().into_pyarray(py))?;
    macro_rules! cols { ($($f:ident),*) => {$(
        d.set_item(stringify!($f), rows.iter().map(|r| nan(r.$f)).collect::<Vec<_>>().into_pyarray(py))?;
    )*} }
    cols!(mean_base, mean_new, change, p, q, p_equivalent, power);
    d.set_item("runs_needed", rows.iter().map(|r| r.runs_needed).collect::<Vec<_>>())?;
    d.set_item("more_runs", rows.iter().map(|r| r.more_runs).collect::<Vec<_>>())?;
    d.set_item("verdict", rows.iter().map(|r| r.verdict.name()).collect::<Vec<_>>())?;
    d.set_item("warnings", rows.into_iter().map(|r| r.warnings.join("; ")).collect::<Vec<_>>())?;
    // the rule applied (the defaults for thresholds not given)
    d.set_item("alpha", rule.alpha)?;
    d.set_item("margin", rule.margin)?;
    d.set_item("target_power", rule.power)?;
    Ok(d)
}

/// Add the table functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(verdict_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(direction, m)?)?;
    m.add_function(wrap_pyfunction!(verdict_rule_text, m)?)?;
    m.add_function(wrap_pyfunction!(assess, m)?)?;
    m.add_function(wrap_pyfunction!(compare_sample_groups, m)?)?;
    m.add_function(wrap_pyfunction!(parse_tables, m)?)?;
    m.add_function(wrap_pyfunction!(parse_amd, m)?)?;
    Ok(())
}

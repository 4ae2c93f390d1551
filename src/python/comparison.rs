//! `schedlab._core.Comparison`, `Row` and `Cell`: [`schedlab::table::Comparison`] as one
//! frozen Python class. Every view (tool text, markdown, CSV, JSON, HTML, the tidy
//! columns of `to_pandas`) is rendered by the core; this file only converts.

use super::errors::{run, text_arg, to_pyerr};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::BoundObject;
use schedlab::table::cell_text::cell_text;
use schedlab::table::{
    amd, benchstat, html, markdown, tidy, Cell, CellTest, ChangeKind, Comparison, Direction, Meta, Row, Verdict,
    SCHEMA_VERSION,
};
use schedlab::tool_text;
use std::sync::Arc;

fn repr_of<'py>(py: Python<'py>, v: impl IntoPyObject<'py>) -> PyResult<String> {
    Ok(v.into_pyobject(py).map_err(Into::into)?.into_any().unbind().bind(py).repr()?.to_string())
}

/// One kernel's entry of a row (immutable); None where unknown.
#[pyclass(frozen, eq, name = "Cell", module = "schedlab._core")]
#[derive(Clone, PartialEq)]
pub struct PyCell {
    inner: Cell,
}

#[pymethods]
impl PyCell {
    #[new]
    #[pyo3(signature = (*, value=None, spread=None, change=None, significant=None, p=None, q=None, test=None, verdict=None, n=None, samples=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        value: Option<f64>,
        spread: Option<f64>,
        change: Option<f64>,
        significant: Option<bool>,
        p: Option<f64>,
        q: Option<f64>,
        test: Option<String>,
        verdict: Option<&str>,
        n: Option<u64>,
        samples: Option<Vec<f64>>,
    ) -> PyResult<Self> {
        let verdict = verdict.map(Verdict::parse).transpose().map_err(|e| to_pyerr(py, e))?;
        let test = test.as_deref().map(CellTest::parse).transpose().map_err(|e| to_pyerr(py, e))?;
        let samples = samples.map(Vec::into_boxed_slice);
        let inner = Cell { value, spread, change, significant, p, q, test, verdict, n, samples };
        Ok(PyCell { inner: inner.finite_only() })
    }

    #[getter]
    fn value(&self) -> Option<f64> {
        self.inner.value
    }
    #[getter]
    fn spread(&self) -> Option<f64> {
        self.inner.spread
    }
    #[getter]
    fn change(&self) -> Option<f64> {
        self.inner.change
    }
    #[getter]
    fn significant(&self) -> Option<bool> {
        self.inner.significant
    }
    #[getter]
    fn p(&self) -> Option<f64> {
        self.inner.p
    }
    #[getter]
    fn q(&self) -> Option<f64> {
        self.inner.q
    }
    #[getter]
    fn test(&self) -> Option<&'static str> {
        self.inner.test.map(CellTest::name)
    }
    #[getter]
    fn verdict(&self) -> Option<&'static str> {
        self.inner.verdict.map(Verdict::name)
    }
    #[getter]
    fn n(&self) -> Option<u64> {
        self.inner.n
    }
    #[getter]
    fn samples(&self) -> Option<Vec<f64>> {
        self.inner.samples.as_deref().map(<[f64]>::to_vec)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let c = &self.inner;
        let mut parts = Vec::new();
        macro_rules! field { ($($f:ident),*) => {$(
            if let Some(v) = c.$f.clone() { parts.push(format!(concat!(stringify!($f), "={}"), repr_of(py, v)?)); }
        )*} }
        field!(value, spread, change, significant, p, q);
        if let Some(t) = c.test {
            parts.push(format!("test={}", repr_of(py, t.name())?));
        }
        if let Some(v) = c.verdict {
            parts.push(format!("verdict={}", repr_of(py, v.name())?));
        }
        field!(n);
        if let Some(s) = &c.samples {
            parts.push(format!("samples={}", repr_of(py, s.to_vec())?));
        }
        Ok(format!("Cell({})", parts.join(", ")))
    }
}

/// One operation or metric across the kernels (immutable).
#[pyclass(frozen, eq, name = "Row", module = "schedlab._core")]
#[derive(Clone, PartialEq)]
pub struct PyRow {
    inner: Row,
}

#[pymethods]
impl PyRow {
    #[new]
    #[pyo3(signature = (name, cells, *, group=String::new(), direction="unknown", change_kind="percent", unit=None))]
    fn new(
        py: Python<'_>,
        name: String,
        cells: Vec<PyRef<'_, PyCell>>,
        group: String,
        direction: &str,
        change_kind: &str,
        unit: Option<String>,
    ) -> PyResult<Self> {
        let direction = Direction::parse(direction).map_err(|e| to_pyerr(py, e))?;
        let change_kind = ChangeKind::parse(change_kind).map_err(|e| to_pyerr(py, e))?;
        let cells = cells.iter().map(|c| c.inner.clone()).collect();
        Ok(PyRow { inner: Row { group, name, direction, change_kind, unit, cells } })
    }

    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }
    #[getter]
    fn group(&self) -> String {
        self.inner.group.clone()
    }
    #[getter]
    fn direction(&self) -> &'static str {
        self.inner.direction.name()
    }
    #[getter]
    fn change_kind(&self) -> &'static str {
        self.inner.change_kind.name()
    }
    #[getter]
    fn unit(&self) -> Option<String> {
        self.inner.unit.clone()
    }
    /// The cells, one per kernel (a new list each time).
    #[getter]
    fn cells(&self) -> Vec<PyCell> {
        self.inner.cells.iter().map(|c| PyCell { inner: c.clone() }).collect()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let r = &self.inner;
        Ok(format!(
            "Row(name={}, group={}, direction={}, change_kind={}, {} cells)",
            repr_of(py, r.name.as_str())?,
            repr_of(py, r.group.as_str())?,
            repr_of(py, r.direction.name())?,
            repr_of(py, r.change_kind.name())?,
            r.cells.len()
        ))
    }
}

/// A comparison table: `kernels` (index 0 = the baseline) × `rows` (immutable).
#[pyclass(frozen, subclass, name = "Comparison", module = "schedlab._core")]
pub struct PyComparison {
    inner: Arc<Comparison>,
    rows: PyOnceLock<Vec<Py<PyRow>>>,
}

impl PyComparison {
    /// Wrap a core comparison (non-finite numbers become None, as in the JSON form).
    pub fn from_core(c: Comparison) -> Self {
        PyComparison { inner: Arc::new(c.finite_only()), rows: PyOnceLock::new() }
    }

    /// The core comparison.
    pub fn core(&self) -> &Comparison {
        &self.inner
    }

    fn shared(c: &Arc<Comparison>) -> Self {
        PyComparison { inner: Arc::clone(c), rows: PyOnceLock::new() }
    }

    /// An instance of `cls` (this class or a Python subclass) holding `c`.
    fn of_class<'py>(cls: &Bound<'py, PyType>, c: Comparison) -> PyResult<Bound<'py, PyAny>> {
        let base = Bound::new(cls.py(), PyComparison::from_core(c))?;
        if cls.is(base.get_type()) {
            Ok(base.into_any())
        } else {
            cls.call1((base,))
        }
    }
}

#[pymethods]
impl PyComparison {
    /// `Comparison(tool, kernels, rows=[], benchmark="", meta={}, schema=1)`, or
    /// `Comparison(other)`: the same table (as a subclass, when called on one).
    #[new]
    #[pyo3(signature = (tool, kernels=None, rows=None, *, benchmark=String::new(), meta=None, schema=SCHEMA_VERSION))]
    fn new(
        py: Python<'_>,
        tool: &Bound<'_, PyAny>,
        kernels: Option<Vec<String>>,
        rows: Option<Vec<PyRef<'_, PyRow>>>,
        benchmark: String,
        meta: Option<&Bound<'_, PyAny>>,
        schema: u32,
    ) -> PyResult<Self> {
        if let Ok(other) = tool.cast::<PyComparison>() {
            if kernels.is_some() || rows.is_some() || meta.is_some() || !benchmark.is_empty() {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "Comparison(other) copies a comparison and takes no other argument",
                ));
            }
            return Ok(PyComparison::shared(&other.get().inner));
        }
        let tool: String = tool.extract()?;
        let kernels = kernels.ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("Comparison() needs kernels"))?;
        let c = Comparison {
            schema,
            tool,
            benchmark,
            kernels,
            rows: rows.unwrap_or_default().iter().map(|r| r.inner.clone()).collect(),
            meta: match meta {
                Some(m) => pythonize::depythonize(m).map_err(|e| {
                    to_pyerr(py, schedlab::Error::parse(Some("<meta>"), None, format!("invalid comparison meta: {e}")))
                })?,
                None => Meta::default(),
            },
        };
        c.validate().map_err(|e| to_pyerr(py, e))?;
        Ok(PyComparison::from_core(c))
    }

    /// Read the JSON form (a parse error names what is wrong).
    #[classmethod]
    fn from_json<'py>(cls: &Bound<'py, PyType>, text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let text = text_arg(text, "<json>")?;
        let c = run(py, || Comparison::from_json(&text))?;
        PyComparison::of_class(cls, c)
    }

    /// Build from the JSON-shaped dict (as `to_dict` returns).
    #[classmethod]
    fn from_dict<'py>(cls: &Bound<'py, PyType>, d: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        if !d.is_instance_of::<PyDict>() {
            let e =
                schedlab::Error::parse(Some("<dict>"), None, format!("not a comparison: a {}", d.get_type().name()?));
            return Err(to_pyerr(py, e));
        }
        let c: Comparison = pythonize::depythonize(d).map_err(|e| {
            to_pyerr(py, schedlab::Error::parse(Some("<dict>"), None, format!("invalid comparison: {e}")))
        })?;
        let c = c.validated("<dict>").map_err(|e| to_pyerr(py, e))?;
        PyComparison::of_class(cls, c)
    }

    /// The JSON form (schema in `schemas/comparison.schema.json`), indented by `indent`
    /// spaces if given; NaN and infinities are null.
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, py: Python<'_>, indent: Option<usize>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || c.to_json_indented(indent))
    }

    /// The JSON-shaped dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_json(py, None)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// A GitHub-flavoured markdown table (change in brackets, `*` = significant); names
    /// are escaped so that no `|`, line break or HTML can break it.
    fn to_markdown(&self, py: Python<'_>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || markdown::render(&c))
    }

    /// The benchstat view: per row and kernel the median ± the half-width of its
    /// distribution-free 95% interval, the change of the medians (`~` where the
    /// comparison decided no change) with p and n, and a geomean row.
    fn to_benchstat(&self, py: Python<'_>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || benchstat::render(&c))
    }

    /// The tidy table of `to_pandas` as CSV (as pandas' `to_csv(index=False)` writes it).
    fn to_csv(&self, py: Python<'_>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || tidy::to_csv(&c))
    }

    /// The source tool's own text layout (MMTests, lkp, AMD: chosen by `tool`), else
    /// the markdown table.
    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || match tool_text::render(&c)? {
            Some(text) => Ok(text),
            None => markdown::render(&c),
        })
    }

    /// AMD's normalised layout (`value [pct imp](CV)`); `normalise=True` first divides
    /// raw values by the baseline's and turns the spread (a standard deviation unless
    /// `spread_is_stddev=False`) into a coefficient of variation in percent.
    #[pyo3(signature = (normalise=false, spread_is_stddev=true))]
    fn to_amd(&self, py: Python<'_>, normalise: bool, spread_is_stddev: bool) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || if normalise { amd::render(&amd::normalise(&c, spread_is_stddev)?) } else { amd::render(&c) })
    }

    /// Tidy DataFrame: one row per (row, kernel) with every cell field but the samples.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = Arc::clone(&self.inner);
        let t = run(py, move || tidy::tidy(&c))?;
        let d = PyDict::new(py);
        let nan = |v: Vec<Option<f64>>| v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect::<Vec<_>>();
        d.set_item("group", t.group)?;
        d.set_item("name", t.name)?;
        d.set_item("kernel", t.kernel)?;
        d.set_item("direction", t.direction)?;
        d.set_item("change_kind", t.change_kind)?;
        d.set_item("value", nan(t.value).into_pyarray(py))?;
        d.set_item("spread", nan(t.spread).into_pyarray(py))?;
        d.set_item("change", nan(t.change).into_pyarray(py))?;
        d.set_item("significant", t.significant)?;
        d.set_item("p", nan(t.p).into_pyarray(py))?;
        d.set_item("q", nan(t.q).into_pyarray(py))?;
        d.set_item("test", t.test)?;
        d.set_item("verdict", t.verdict)?;
        d.set_item("n", t.n)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", tidy::COLUMNS.to_vec())?;
        py.import("pandas")?.getattr("DataFrame")?.call((d,), Some(&kwargs))
    }

    /// The table for Jupyter: inline styles, verdict colours readable in light and dark
    /// themes, each changed cell's test, p and q under its value.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let c = Arc::clone(&self.inner);
        run(py, move || html::render(&c))
    }

    /// Each cell's text as the markdown and HTML views print it (value, change in
    /// brackets, `*` where significant; `-` without a value), row by row.
    fn cell_texts(&self, py: Python<'_>) -> PyResult<Vec<Vec<String>>> {
        let c = Arc::clone(&self.inner);
        run(py, move || {
            let mut rows = Vec::with_capacity(c.rows.len());
            for (ri, r) in c.rows.iter().enumerate() {
                schedlab::cancel::check_every(ri)?;
                rows.push(r.cells.iter().enumerate().map(|(i, cell)| cell_text(&c, &r, cell, i)).collect());
            }
            Ok(rows)
        })
    }

    /// A one-line summary (the rows are in `.rows`, the table in `.to_text()`).
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let c = &slf.get().inner;
        let bench = if c.benchmark.is_empty() { String::new() } else { format!(" {}", c.benchmark) };
        let name = slf.get_type().name()?;
        let kernels = repr_of(slf.py(), c.kernels.clone())?;
        let label = if name == "Comparison" { "Comparison".to_string() } else { name.to_string() };
        Ok(format!("<{label} {}{bench}: {} rows x {} kernels {kernels}>", c.tool, c.rows.len(), c.kernels.len()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyComparison>().is_ok_and(|o| *o.get().inner == *self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_json = slf.get_type().getattr("from_json")?;
        let text = slf.get().to_json(py, None)?;
        PyTuple::new(py, [from_json, PyTuple::new(py, [text])?.into_any()])
    }

    #[getter]
    fn tool(&self) -> String {
        self.inner.tool.clone()
    }
    #[getter]
    fn benchmark(&self) -> String {
        self.inner.benchmark.clone()
    }
    #[getter]
    fn schema(&self) -> u32 {
        self.inner.schema
    }
    /// The kernels (a new list each time; index 0 is the baseline).
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.inner.kernels.clone()
    }
    /// What the table records about itself, as its JSON form's `meta` object (a new
    /// dict each time; keys in docs/tables.md §1.1).
    #[getter]
    fn meta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::errors::to_py(py, &self.inner.meta.to_map())
    }
    /// The rows in display order (a new list each time, of the same Row objects).
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows = self.rows.get_or_try_init(py, || {
            self.inner.rows.iter().map(|r| Py::new(py, PyRow { inner: r.clone() })).collect::<PyResult<Vec<_>>>()
        })?;
        PyList::new(py, rows.iter().map(|r| r.bind(py)))
    }
}

/// Add the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCell>()?;
    m.add_class::<PyRow>()?;
    m.add_class::<PyComparison>()?;
    m.add("SCHEMA_VERSION", SCHEMA_VERSION)?;
    m.add("TABLE_FORMATS", schedlab::table::FORMATS.to_vec())?;
    m.add("DIRECTIONS", <Direction as schedlab::choice::Choice>::names())?;
    let colours = PyDict::new(m.py());
    for v in Verdict::ALL {
        if let Some(bg_fg) = html::verdict_colours(v) {
            colours.set_item(v.name(), bg_fg)?;
        }
    }
    m.add("VERDICT_COLOURS", colours)?;
    m.add("HTML_TABLE_STYLE", html::TABLE_STYLE)?;
    m.add("HTML_CELL_STYLE", html::CELL_STYLE)?;
    m.add("HTML_HEAD_STYLE", html::HEAD_STYLE)?;
    Ok(())
}

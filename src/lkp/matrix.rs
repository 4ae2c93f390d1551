//! A commit's multi-result root (`_rt`) as lkp-tests stores it: `matrix.json[.gz]`
//! (`{metric: [one value per run], "stats_source": [...]}`), the run directories with
//! their `job.yaml`, and the axes the ncompare header prints, after lib/matrix.rb,
//! lib/nresult_root.rb and docs/lkp.md §1, §2.3 and §3.1.

use super::jobyaml;
use super::key_index::{KeyIndex, Keys};
use super::num::Num;
use super::num_column::NumColumn;
use crate::archive::tree::{join, walk};
use crate::archive::{self, DirTree, Tree};
use crate::error::{Error, Result};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The key of the run list in a matrix.
pub const STATS_SOURCE: &str = "stats_source";

/// The most values one matrix may hold, zero-filling to the run count included
/// (2^25 values: 512 MiB). A real lkp matrix holds tens of thousands of metrics of a
/// few dozen runs; more than this is refused rather than exhausting memory.
pub const MAX_MATRIX_VALUES: usize = 1 << 25;

/// One matrix: metrics in file order, each with one value per run. The names are kept
/// in one text and the values in one [`NumColumn`], ~70 bytes a metric of three runs
/// where a `String` and a `Vec<Num>` each cost ~160 (the memory bound of docs/readers.md §10,
/// docs/lkp.md §2.3).
#[derive(Debug, Clone, Default)]
pub struct Matrix {
    /// File the matrix was read from (for error messages).
    pub path: String,
    names: String,
    metrics: Vec<Metric>,
    nums: NumColumn,
    /// The per-run `stats.json` paths, when present.
    pub stats_source: Option<Vec<String>>,
    index: KeyIndex,
}

/// Where one metric's name and values are: `names[name..name + name_len]`, `nums[at..at + len]`.
#[derive(Debug, Clone, Copy)]
struct Metric {
    name: u32,
    name_len: u32,
    at: u32,
    len: u32,
}

/// The names of a matrix's metrics by position, for its [`KeyIndex`].
struct Names<'a>(&'a str, &'a [Metric]);

impl Keys for Names<'_> {
    fn key(&self, i: usize) -> Option<&str> {
        name_of(self.0, self.1, i)
    }
}

fn name_of<'a>(names: &'a str, metrics: &[Metric], i: usize) -> Option<&'a str> {
    let m = metrics.get(i)?;
    names.get(m.name as usize..(m.name as usize + m.name_len as usize))
}

/// The values of one metric, right-padded with Integer 0 to the run count when
/// `stats_source` is present (lkp's `matrix_fill_missing_zeros`).
#[derive(Debug, Clone, Copy)]
pub struct Nums<'a> {
    nums: &'a NumColumn,
    at: usize,
    stored: usize,
    len: usize,
}

impl<'a> Nums<'a> {
    /// How many values (runs).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Value `i`.
    pub fn get(&self, i: usize) -> Option<Num> {
        if i >= self.len {
            return None;
        }
        if i >= self.stored {
            return Some(Num::Int(0));
        }
        self.nums.get(self.at + i)
    }

    /// The values in run order.
    pub fn iter(&self) -> impl Iterator<Item = Num> + 'a {
        let this = *self;
        (0..self.len).filter_map(move |i| this.get(i))
    }

    /// The values as a vector.
    pub fn to_vec(&self) -> Vec<Num> {
        self.iter().collect()
    }
}

impl PartialEq for Matrix {
    fn eq(&self, o: &Matrix) -> bool {
        (&self.path, &self.stats_source) == (&o.path, &o.stats_source)
            && self.len() == o.len()
            && self
                .iter()
                .zip(o.iter())
                .all(|((k, v), (l, w))| k == l && v.len() == w.len() && v.iter().zip(w.iter()).all(|(a, b)| a == b))
    }
}

impl Matrix {
    fn names(&self) -> Names<'_> {
        Names(&self.names, &self.metrics)
    }

    /// Insert or replace a metric whose values were just pushed to `nums` from `at`
    /// (a later duplicate wins, as in Ruby's JSON; the earlier values stay unused).
    fn insert(&mut self, key: &str, at: usize) -> std::result::Result<(), String> {
        let too_big = || format!("matrix larger than {} bytes of names or values", u32::MAX);
        let at32 = u32::try_from(at).map_err(|_| too_big())?;
        let len = u32::try_from(self.nums.len() - at).map_err(|_| too_big())?;
        if let Some(i) = self.index.get(&self.names(), key) {
            if let Some(m) = self.metrics.get_mut(i) {
                (m.at, m.len) = (at32, len);
            }
            return Ok(());
        }
        let name = u32::try_from(self.names.len()).map_err(|_| too_big())?;
        let name_len = u32::try_from(key.len()).map_err(|_| too_big())?;
        u32::try_from(self.names.len() + key.len()).map_err(|_| too_big())?;
        self.names.push_str(key);
        self.metrics.push(Metric { name, name_len, at: at32, len });
        let i = self.metrics.len() - 1;
        let names = Names(&self.names, &self.metrics);
        self.index.insert(&names, i);
        Ok(())
    }

    /// How many metrics.
    pub fn len(&self) -> usize {
        self.metrics.len()
    }

    /// Whether it holds no metric.
    pub fn is_empty(&self) -> bool {
        self.metrics.is_empty()
    }

    /// The metric names, in file order (never `stats_source`).
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.metrics.len()).filter_map(|i| name_of(&self.names, &self.metrics, i))
    }

    /// The metrics in file order: name and values.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Nums<'_>)> + '_ {
        self.keys().zip(0..).filter_map(|(k, i)| Some((k, self.at(i)?)))
    }

    /// The values of metric `i` (file order).
    pub fn at(&self, i: usize) -> Option<Nums<'_>> {
        let m = self.metrics.get(i)?;
        let stored = m.len as usize;
        let len = self.stats_source.as_ref().map_or(stored, |s| s.len().max(stored));
        Some(Nums { nums: &self.nums, at: m.at as usize, stored, len })
    }

    fn check_and_fill(&mut self) -> Result<()> {
        if let Some(src) = &self.stats_source {
            let n = src.len();
            if self.metrics.len().saturating_mul(n) > MAX_MATRIX_VALUES {
                return Err(Error::parse(
                    Some(&self.path),
                    None,
                    format!(
                        "{} metrics × {n} runs (stats_source) is more than the {MAX_MATRIX_VALUES} values schedlab reads from one matrix",
                        self.metrics.len()
                    ),
                ));
            }
            for (k, m) in self.keys().zip(&self.metrics) {
                if m.len as usize > n {
                    return Err(Error::parse(
                        Some(&self.path),
                        None,
                        format!("metric '{k}' has {} values but stats_source lists {n} runs", m.len),
                    ));
                }
            }
        } else if let (Some(first), Some(first_key)) = (self.metrics.first(), self.keys().next()) {
            let n = first.len;
            for (k, m) in self.keys().zip(&self.metrics) {
                if m.len != n {
                    return Err(Error::parse(
                        Some(&self.path),
                        None,
                        format!(
                            "metric '{k}' has {} values but '{}' has {n} (arrays of different lengths and no stats_source)",
                            m.len, first_key
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Parse the JSON text of a matrix (`path` names it in errors).
    pub fn parse(bytes: &[u8], path: &str) -> Result<Matrix> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let mut m = de.deserialize_map(MatrixVisitor).and_then(|m| de.end().map(|_| m)).map_err(|e| {
            // the visitor stops on a cancel request with a serde error; report the request
            crate::cancel::check().err().unwrap_or_else(|| json_error(path, &e))
        })?;
        m.path = path.to_string();
        m.check_and_fill()?;
        // the columns grew by doubling: give back the unused part
        m.names.shrink_to_fit();
        m.metrics.shrink_to_fit();
        m.nums.shrink_to_fit();
        Ok(m)
    }

    /// Read the matrix file `rel` of `tree`, `matrix.json` or `matrix.json.gz` (gzip by
    /// extension, decompressed to at most `tree.max_file_bytes()`).
    pub fn read(tree: &dyn Tree, rel: &str) -> Result<Matrix> {
        let shown = tree.display(rel);
        let raw =
            tree.read(rel).map_err(|e| Error::parse(Some(&shown), None, format!("cannot read: {}", io_msg(&e))))?;
        if shown.ends_with(".gz") {
            let bytes = gunzip_bounded(&raw, &shown, tree.max_file_bytes())?;
            drop(raw);
            Matrix::parse(&bytes, &shown)
        } else {
            Matrix::parse(&raw, &shown)
        }
    }

    /// lkp's `matrix_cols`: the run count (`stats_source` size, else the longest of the
    /// first and last arrays).
    pub fn cols(&self) -> usize {
        match &self.stats_source {
            Some(s) => s.len(),
            None => match (self.metrics.first(), self.metrics.last()) {
                (Some(a), Some(b)) => a.len.max(b.len) as usize,
                _ => 0,
            },
        }
    }

    /// The values of `key`.
    pub fn get(&self, key: &str) -> Option<Nums<'_>> {
        self.index.get(&self.names(), key).and_then(|i| self.at(i))
    }

    /// The position of `key` among the metrics (file order), when it has the key.
    pub fn index_of(&self, key: &str) -> Option<usize> {
        self.index.get(&self.names(), key)
    }

    /// The name of metric `i` (file order), None past the end.
    pub fn key_at(&self, i: usize) -> Option<&str> {
        name_of(&self.names, &self.metrics, i)
    }

    /// Whether `key` is present.
    pub fn contains(&self, key: &str) -> bool {
        self.index.get(&self.names(), key).is_some()
    }

    /// lkp's `filter_incomplete_run`: drop every run whose `last_state.is_incomplete_run`
    /// is 1 (from every array and `stats_source`), then drop that key.
    pub fn filter_incomplete_run(&mut self) {
        let Some(flags) = self.get("last_state.is_incomplete_run").map(|v| v.to_vec()) else {
            return;
        };
        let drop: Vec<usize> =
            flags.iter().enumerate().filter(|(_, v)| v.eq_num(Num::Int(1))).map(|(i, _)| i).collect();
        self.remove("last_state.is_incomplete_run");
        if drop.is_empty() {
            return;
        }
        // the values without the dropped runs, into new columns (each array loses the
        // dropped runs it reaches, as Ruby's delete_at on each)
        let mut nums = NumColumn::default();
        let mut metrics = Vec::with_capacity(self.metrics.len());
        for m in &self.metrics {
            let at = nums.len();
            let stored = m.len as usize;
            // a zero-filled array is as long as stats_source: the fill is dropped too
            for i in (0..stored).filter(|i| drop.binary_search(i).is_err()) {
                if let Some(n) = self.nums.get(m.at as usize + i) {
                    nums.push(n);
                }
            }
            let len = u32::try_from(nums.len() - at).unwrap_or(u32::MAX);
            metrics.push(Metric { at: u32::try_from(at).unwrap_or(u32::MAX), len, ..*m });
        }
        self.nums = nums;
        self.metrics = metrics;
        if let Some(s) = &mut self.stats_source {
            for &i in drop.iter().rev() {
                if i < s.len() {
                    s.remove(i);
                }
            }
        }
    }

    /// Remove a metric.
    pub fn remove(&mut self, key: &str) {
        if let Some(i) = self.index.get(&self.names(), key) {
            let names = Names(&self.names, &self.metrics);
            self.index.remove(&names, i);
            self.metrics.remove(i);
        }
    }

    /// lkp's `complete_matrix`: a copy without incomplete runs (or self if none).
    pub fn complete(&self) -> Matrix {
        let mut m = self.clone();
        m.filter_incomplete_run();
        m
    }
}

fn json_error(path: &str, e: &serde_json::Error) -> Error {
    let line = if e.line() > 0 { Some(e.line()) } else { None };
    let what = match e.classify() {
        serde_json::error::Category::Eof => "truncated JSON",
        serde_json::error::Category::Syntax => "invalid JSON",
        serde_json::error::Category::Data => "unexpected matrix content",
        serde_json::error::Category::Io => "unreadable JSON",
    };
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    Error::parse(Some(path), line, format!("{what}: {msg}"))
}

/// Decompress gzip bytes, refusing more than `limit` bytes of output (a gzip bomb).
pub fn gunzip_bounded(raw: &[u8], path: &str, limit: u64) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(raw)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| Error::parse(Some(path), None, format!("not a valid gzip file: {e}")))?;
    if out.len() as u64 > limit {
        return Err(Error::parse(Some(path), None, format!("decompresses to more than {limit} bytes (limit)")));
    }
    Ok(out)
}

/// The message of an error without the path it names (the caller names the file).
pub(crate) fn io_msg(e: &Error) -> String {
    match e {
        Error::Io { msg, .. } => msg.clone(),
        other => other.to_string(),
    }
}

struct MatrixVisitor;

impl<'de> Visitor<'de> for MatrixVisitor {
    type Value = Matrix;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object {metric: [numbers], \"stats_source\": [paths]}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Matrix, A::Error> {
        let mut m = Matrix::default();
        let mut n = 0usize;
        while let Some(key) = map.next_key::<String>()? {
            if crate::cancel::check_every(n).is_err() {
                return Err(de::Error::custom("interrupted"));
            }
            n += 1;
            if key == STATS_SOURCE {
                let v: Vec<String> = map.next_value().map_err(|_| {
                    de::Error::custom("\"stats_source\" must be an array of strings (the runs' stats.json paths)")
                })?;
                m.stats_source = Some(v);
            } else {
                // the values go straight to the column; every value read counts against
                // the bound, those of a replaced duplicate too
                let at = m.nums.len();
                map.next_value_seed(NumArray { key: &key, nums: &mut m.nums })?;
                m.insert(&key, at).map_err(de::Error::custom)?;
            }
        }
        Ok(m)
    }
}

struct NumArray<'a> {
    key: &'a str,
    nums: &'a mut NumColumn,
}

impl<'de> DeserializeSeed<'de> for NumArray<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NumArray<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an array of numbers for metric '{}'", self.key)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        let mut index = 0usize;
        while let Some(x) = seq.next_element_seed(OneNum { key: self.key, index })? {
            if self.nums.len() >= MAX_MATRIX_VALUES {
                return Err(de::Error::custom(format!(
                    "more than {MAX_MATRIX_VALUES} values in the matrix (at metric '{}'), the most schedlab reads from one matrix",
                    self.key
                )));
            }
            self.nums.push(x);
            index += 1;
        }
        Ok(())
    }
}

struct OneNum<'a> {
    key: &'a str,
    index: usize,
}

impl<'de> DeserializeSeed<'de> for OneNum<'_> {
    type Value = Num;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Num, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OneNum<'_> {
    type Value = Num;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a number as value {} of metric '{}'", self.index, self.key)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Num, E> {
        Ok(Num::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Num, E> {
        Ok(i64::try_from(v).map_or(Num::Float(v as f64), Num::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Num, E> {
        Ok(Num::Float(v))
    }
}

/// Matrix files of more than this many bytes in all are loaded one after the other, so
/// that only one file's text is in memory beside the parsed matrices and their columns
/// grow in one allocator arena (docs/lkp.md §2.3: on two threads the peak depended on
/// which finished first). Small roots still load one thread each.
pub const PARALLEL_LOAD_BYTES: u64 = 4 << 20;

/// The size of a result root's matrix file (0 when it is not a plain directory's).
fn matrix_file_bytes(dir: &Path) -> u64 {
    ["matrix.json.gz", "matrix.json"]
        .iter()
        .find_map(|n| std::fs::metadata(dir.join(n)).ok().filter(std::fs::Metadata::is_file))
        .map_or(0, |m| m.len())
}

/// The values of `metric` in the result root at `path` (a directory) or in the matrix
/// file `path` (`matrix.json[.gz]`, zero-filled as lkp does): what `lkp plot` draws. An
/// error naming the path when the matrix has no such metric.
pub fn metric_samples(path: &Path, metric: &str) -> Result<Vec<f64>> {
    let matrix = if path.is_dir() {
        ResultRoot::open(path)?.matrix
    } else {
        let (dir, name) = DirTree::of_file(path);
        Matrix::read(&dir, &name)?
    };
    let values = matrix.get(metric).map(|v| v.iter().map(|n| n.f()).collect());
    values.ok_or_else(|| {
        Error::parse(Some(&path.display().to_string()), None, format!("metric '{metric}' is not in this matrix"))
    })
}

/// Load several result roots (order kept; the first error wins): at once, one thread
/// each, unless their matrix files exceed [`PARALLEL_LOAD_BYTES`] together.
pub fn load_roots(paths: &[PathBuf]) -> Result<Vec<ResultRoot>> {
    let total: u64 = paths.iter().map(|p| matrix_file_bytes(p)).sum();
    if total > PARALLEL_LOAD_BYTES {
        let roots = paths.iter().map(|p| ResultRoot::open(p)).collect();
        if total >= RELEASE_AFTER_BYTES {
            release_free_pages();
        }
        return roots;
    }
    let roots = std::thread::scope(|s| {
        let handles: Vec<_> = paths.iter().map(|p| s.spawn(move || ResultRoot::open(p))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(Error::Internal("result root loader panicked".into()))))
            .collect()
    });
    if total >= RELEASE_AFTER_BYTES {
        release_free_pages();
    }
    roots
}

/// Matrix files of at least this many bytes in all are followed by
/// [`release_free_pages`].
const RELEASE_AFTER_BYTES: u64 = 1 << 20;

/// Give the pages of freed memory back to the system (glibc's `malloc_trim`; elsewhere
/// than glibc, nothing), after loading megabytes of matrices (the memory bound of docs/readers.md §10).
/// The columns of a matrix grow by doubling while it is parsed; once glibc has raised
/// its mmap threshold (on freeing the first file's text) they grow inside the loader
/// thread's arena, and the space each growth leaves stays resident, unused by the
/// compare that runs on the calling thread.
fn release_free_pages() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A commit's multi-result root: its matrix and the job axes of its runs.
#[derive(Debug, Clone)]
pub struct ResultRoot {
    /// The directory (inside an archive: `archive/path/in/archive`).
    pub path: PathBuf,
    /// `matrix.json[.gz]`, zero-filled.
    pub matrix: Matrix,
    /// Job axes (`compiler`, `commit`, `tbox_group`, …), sorted by key as lkp's index does.
    pub axes: Vec<(String, String)>,
}

impl ResultRoot {
    /// Load `dir/matrix.json.gz` (preferred, as lkp's `load_json`) or `dir/matrix.json`, and
    /// the axes from `dir/job.yaml` or the first `dir/<n>/job.yaml`; without any job.yaml
    /// the only axis is `commit` = the directory name.
    ///
    /// `dir` may also be a `.tar`, `.tar.gz`/`.tgz`, `.tar.xz` or `.zip` archive holding
    /// one result root (at its top or anywhere inside, [`find_roots`]); it is read in
    /// memory within [`archive::Limits::default`], and a root at the archive's top is
    /// named after the archive file without its extension.
    pub fn open(dir: &Path) -> Result<ResultRoot> {
        if !dir.is_dir() {
            let shown = dir.display().to_string();
            if !dir.exists() {
                return Err(Error::parse(Some(&shown), None, "no such result root directory"));
            }
            if archive::detect(dir).is_err() {
                return Err(Error::parse(
                    Some(&shown),
                    None,
                    "not a directory (expected a commit's multi-result root)",
                ));
            }
            let tree = archive::open(dir, &archive::Limits::default())?;
            let roots = find_roots(tree.as_ref())?;
            return match roots.as_slice() {
                [one] => ResultRoot::load(tree.as_ref(), one),
                [] => Err(Error::parse(
                    Some(&shown),
                    None,
                    "no result root in this archive (a directory with matrix.json or matrix.json.gz)",
                )),
                many => Err(Error::parse(
                    Some(&shown),
                    None,
                    format!("{} result roots in this archive ({}); give one", many.len(), many.join(", ")),
                )),
            };
        }
        ResultRoot::load(&DirTree::at(dir), "")
    }

    /// Load the result root at directory `rel` of `tree` (as [`ResultRoot::open`]).
    pub fn load(tree: &dyn Tree, rel: &str) -> Result<ResultRoot> {
        let gz = join(rel, "matrix.json.gz");
        let plain = join(rel, "matrix.json");
        let matrix = if tree.is_file(&gz) {
            Matrix::read(tree, &gz)?
        } else if tree.is_file(&plain) {
            Matrix::read(tree, &plain)?
        } else {
            return Err(Error::parse(
                Some(&tree.display(&plain)),
                None,
                "missing: a result root needs matrix.json or matrix.json.gz (build it with `schedlab lkp unite`)",
            ));
        };
        let axes = load_axes(tree, rel)?;
        Ok(ResultRoot { path: PathBuf::from(tree.display(rel)), matrix, axes })
    }

    /// The compare-axis value (the commit), as the header prints it.
    pub fn commit(&self) -> String {
        self.axes.iter().find(|(k, _)| k == "commit").map(|(_, v)| v.clone()).unwrap_or_else(|| dir_name(&self.path))
    }
}

/// Whether directory `rel` of `tree` is a result root (holds `matrix.json[.gz]`).
pub fn is_root(tree: &dyn Tree, rel: &str) -> bool {
    tree.is_file(&join(rel, "matrix.json")) || tree.is_file(&join(rel, "matrix.json.gz"))
}

/// Whether directory `rel` of `tree` unites several commits (lkp's compiler-level
/// `_rt` matrix): a subdirectory whose name is not a run number is a result root.
pub fn is_aggregate(tree: &dyn Tree, rel: &str) -> bool {
    tree.list(rel).is_ok_and(|names| {
        names.iter().any(|n| {
            let child = join(rel, n);
            !n.bytes().all(|b| b.is_ascii_digit()) && tree.is_dir(&child) && is_root(tree, &child)
        })
    })
}

/// Whether directory `rel` of `tree` is one commit's result root: it holds
/// `matrix.json[.gz]` and is not an aggregate of commits ([`is_aggregate`]).
pub fn is_commit_root(tree: &dyn Tree, rel: &str) -> bool {
    is_root(tree, rel) && !is_aggregate(tree, rel)
}

/// Every commit's result root in `tree`, in path order (a root is not searched
/// below itself, so its run directories' own matrices are not roots; an
/// aggregate of commits is searched).
pub fn find_roots(tree: &dyn Tree) -> Result<Vec<String>> {
    let mut out = Vec::new();
    walk(tree, &mut |d: &str| {
        if is_commit_root(tree, d) {
            out.push(d.to_string());
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(out)
}

/// The name a result root goes by when no job.yaml names its commit: the last
/// component of `rel`, else (the tree's root) the directory's own name, or the
/// archive's file name without `.tar.gz`, `.tgz`, `.tar.xz`, `.txz`, `.tar` or `.zip`.
pub fn root_name(tree: &dyn Tree, rel: &str) -> String {
    if let Some(last) = rel.rsplit('/').next().filter(|s| !s.is_empty()) {
        return last.to_string();
    }
    let origin = Path::new(tree.origin());
    if origin.is_dir() {
        return dir_name(origin);
    }
    let file = origin.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    archive::name_stem(&file).map_or_else(|| file.clone(), str::to_string)
}

fn dir_name(p: &Path) -> String {
    let canon = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    canon.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The job.yaml of the result root `rel` of `tree`: `rel/job.yaml`, else the first
/// `rel/<digits…>/job.yaml`; its path in `tree`.
pub fn job_file(tree: &dyn Tree, rel: &str) -> Option<String> {
    let direct = join(rel, "job.yaml");
    if tree.is_file(&direct) {
        return Some(direct);
    }
    let names = tree.list(rel).ok()?;
    // sorted by name as the paths were: the first run whose job.yaml exists
    names
        .iter()
        .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        .map(|n| join(&join(rel, n), "job.yaml"))
        .find(|p| tree.is_file(p))
}

/// The job axes of the result root `rel` of `tree` (its job.yaml or its first run's),
/// with `commit` = the directory name when no job names it; sorted by key.
pub fn load_axes(tree: &dyn Tree, rel: &str) -> Result<Vec<(String, String)>> {
    let mut axes = match job_file(tree, rel) {
        Some(f) => {
            let shown = tree.display(&f);
            let text =
                tree.read(&f).map_err(|e| Error::parse(Some(&shown), None, format!("cannot read: {}", io_msg(&e))))?;
            let text = std::str::from_utf8(&text)
                .map_err(|_| Error::parse(Some(&shown), None, "job.yaml is not UTF-8 text"))?;
            jobyaml::axes(text, &shown)?
        }
        None => Vec::new(),
    };
    if !axes.iter().any(|(k, _)| k == "commit") {
        axes.push(("commit".to_string(), root_name(tree, rel)));
    }
    axes.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(axes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_keeps_integer_float_and_zero_fills() {
        let m = Matrix::parse(br#"{"a": [1, 2.0], "b": [3], "stats_source": ["x", "y", "z"]}"#, "m.json").unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(m.get("a").unwrap().to_vec(), [Num::Int(1), Num::Float(2.0), Num::Int(0)]);
        assert_eq!(m.cols(), 3);
    }

    #[test]
    fn bad_matrices_are_parse_errors_with_file_and_line() {
        let e = Matrix::parse(b"{\n\"a\": [1,\n\"x\"]}", "m.json").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("m.json:3:"), "{s}");
        assert!(s.contains("metric 'a'"), "{s}");
        let e = Matrix::parse(b"{\n\"a\": [1,", "m.json").unwrap_err().to_string();
        assert!(e.starts_with("m.json:2:") && e.contains("truncated"), "{e}");
        let e = Matrix::parse(br#"{"a": [1, 2], "b": [1]}"#, "m.json").unwrap_err().to_string();
        assert!(e.contains("different lengths"), "{e}");
        let e = Matrix::parse(br#"{"a": [1, 2, 3], "stats_source": ["x"]}"#, "m.json").unwrap_err().to_string();
        assert!(e.contains("3 values but stats_source lists 1 runs"), "{e}");
        assert!(Matrix::parse(br#"{"a": [null]}"#, "m.json").is_err());
        assert!(Matrix::parse(br#"[1]"#, "m.json").is_err());
    }

    #[test]
    fn incomplete_runs_are_dropped() {
        let mut m = Matrix::parse(
            br#"{"a": [1, 2, 3], "last_state.is_incomplete_run": [0, 1, 0], "stats_source": ["x", "y", "z"]}"#,
            "m",
        )
        .unwrap();
        m.filter_incomplete_run();
        assert_eq!(m.get("a").unwrap().to_vec(), [Num::Int(1), Num::Int(3)]);
        assert!(!m.contains("last_state.is_incomplete_run"));
        assert_eq!(m.cols(), 2);
    }
}

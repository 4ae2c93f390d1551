//! Result files read as groups to compare (what `schedlab stats --format` and
//! `readers.read_groups` take; docs/readers.md): each input is a file, or a directory
//! whose files (in name order) are the group's runs. A group is named after the file
//! (without its extension) or the directory, unless the file names its own groups (a
//! PTS result's systems, an MMTests comparison's kernels, a Go benchmark file whose
//! configuration changes within it). Every metric's samples are taken to one unit
//! across all the files, converted or refused ([`crate::units`]); the configuration
//! the files share (Go's `key: value` lines) is kept for the benchstat view.

use super::{parse_text, text_of, Format, Samples};
use crate::direction::direction;
use crate::error::{Error, Result};
use crate::table::groups::{compare_groups, GroupMetric};
use crate::table::{Comparison, Direction, Test, VerdictMeta, VerdictRule};
use crate::units::Reconcile;
use std::path::{Path, PathBuf};

/// One input: a path and, optionally, the group name to give it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// A result file, or a directory of them.
    pub path: PathBuf,
    /// The group's name; None: the file's name without its extension, or the directory's.
    pub label: Option<String>,
}

/// The samples of every input, each with its group.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// The groups, in the order they first appear.
    pub names: Vec<String>,
    /// The samples, `group` filled in, one unit per metric.
    pub samples: Samples,
    /// The configuration every file shares (Go's `key: value` lines with the same
    /// value in all of them), in the first file's order.
    pub config: Vec<(String, String)>,
    /// The units any file marks exact.
    pub exact_units: Vec<String>,
}

/// The default group name of `path`: a directory's name, a file's without its
/// extension (Python's `os.path.splitext`).
fn default_label(path: &Path, is_dir: bool) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_else(|| path.display().to_string());
    if is_dir {
        return name;
    }
    match name.rfind('.') {
        Some(i) if name.get(..i).is_some_and(|stem| !stem.trim_start_matches('.').is_empty()) => {
            name.get(..i).unwrap_or(&name).to_string()
        }
        _ => name,
    }
}

/// Read `inputs` in `format` (told by content when None) as groups.
pub fn read_groups(inputs: &[Input], format: Option<Format>) -> Result<Groups> {
    let mut out = Groups::default();
    let mut reconcile = Reconcile::default();
    let mut first_config = true;
    for input in inputs {
        let is_dir = input.path.is_dir();
        let label = input.label.clone().unwrap_or_else(|| default_label(&input.path, is_dir));
        let files: Vec<PathBuf> = if is_dir {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&input.path)
                .map_err(|e| Error::io(&input.path, &e))?
                .map(|e| e.map(|e| e.path()).map_err(|e| Error::io(&input.path, &e)))
                .collect::<Result<_>>()?;
            entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
            entries
        } else {
            vec![input.path.clone()]
        };
        for file in files {
            crate::cancel::check()?;
            let shown = file.display().to_string();
            let bytes = super::read_bytes(&file)?;
            let text = text_of(&bytes, Some(&shown))?
                .map_err(|line| Error::parse(Some(&shown), Some(line), "not UTF-8 text"))?;
            let Some(r) = parse_text(&text, Some(&shown), format)? else {
                return Err(Error::parse(
                    Some(&shown),
                    None,
                    format!(
                        "not a result file schedlab recognises (expected one of: {})",
                        super::FORMAT_NAMES.join(", ")
                    ),
                ));
            };
            if first_config {
                out.config = r.config.clone();
                first_config = false;
            } else {
                out.config.retain(|kv| r.config.contains(kv));
            }
            for u in &r.exact_units {
                if !out.exact_units.contains(u) {
                    out.exact_units.push(u.clone());
                }
            }
            for s in r.samples.iter() {
                let group = if s.group.is_empty() { label.as_str() } else { s.group };
                if !out.names.iter().any(|n| n == group) {
                    out.names.push(group.to_string());
                }
                let (unit, f) = reconcile.take(s.metric, s.unit, &shown)?;
                let value = if f == 1.0 { s.value } else { s.value * f };
                if !value.is_finite() {
                    return Err(Error::domain(format!(
                        "{shown}: metric '{}': {} {} is beyond the range of a number in {unit}",
                        s.metric, s.value, s.unit
                    )));
                }
                out.samples.push(s.metric, value, unit, s.direction, group);
            }
        }
    }
    out.samples.shrink_to_fit();
    Ok(out)
}

impl Groups {
    /// The comparison of every metric of every group with the first group's
    /// ([`compare_groups`]): a metric's direction is `given`, else the file's, else
    /// told by its name ([`direction`]); the verdicts' test and level are recorded,
    /// and the shared configuration and exact units for the benchstat view.
    pub fn compare(
        &self,
        given: Option<Direction>,
        test: Test,
        rule: &VerdictRule,
        threads: Option<usize>,
    ) -> Result<Comparison> {
        let mut metrics: Vec<GroupMetric> = Vec::new();
        let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for s in self.samples.iter() {
            let i = *index.entry(s.metric).or_insert_with(|| {
                let d =
                    given.unwrap_or(if s.direction == Direction::Unknown { direction(s.metric) } else { s.direction });
                metrics.push(GroupMetric {
                    name: s.metric.to_string(),
                    unit: (!s.unit.is_empty()).then(|| s.unit.to_string()),
                    direction: d,
                    samples: vec![Vec::new(); self.names.len()],
                });
                metrics.len() - 1
            });
            let g = self.names.iter().position(|n| n == s.group).unwrap_or(0);
            if let Some(v) = metrics.get_mut(i).and_then(|m| m.samples.get_mut(g)) {
                v.push(s.value);
            }
        }
        let mut c = compare_groups("stats", &self.names, &metrics, test, rule, threads)?;
        c.meta.verdicts = Some(VerdictMeta { test: test.name().into(), alpha: Some(rule.alpha) });
        c.meta.config = self.config.clone();
        c.meta.exact_units = self.exact_units.clone();
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_as_python_names_them() {
        assert_eq!(default_label(Path::new("runs/base.json"), false), "base");
        assert_eq!(default_label(Path::new("a.b.c"), false), "a.b");
        assert_eq!(default_label(Path::new(".hidden"), false), ".hidden");
        assert_eq!(default_label(Path::new("dir/"), true), "dir");
    }
}

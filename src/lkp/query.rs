//! ncompare's axis queries and grouping (sbin/ncompare `-s`/`-o`/`-c`, lib/compare.rb
//! `parse_argv`, `AxesGrouper`, lib/data_store.rb's index match), after docs/lkp.md §3.9:
//! the result roots under a directory whose job axes match each query, grouped by their
//! axes other than the compare keys, each group of two or more compared.

use super::matrix::{find_roots, load_axes, ResultRoot};
use super::ncompare::{compare_group, CompareResult, Options};
use crate::archive::DirTree;
use crate::error::{Error, Result};
use std::path::Path;

/// One query: `key=value` conditions (lkp's `axes_from_string` of `k=v/k=v`).
pub type Query = Vec<(String, String)>;

/// Parse `k=v/k=v` (a pair without `=` or with an empty value matches any value).
pub fn parse_query(s: &str) -> Query {
    s.split('/')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let mut parts = kv.split('=');
            (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string())
        })
        .collect()
}

/// The queries of `-s Q` (a new query) and `-o Q` (the previous query with Q's pairs
/// merged in, replacing those of the same keys), in command-line order; and whether an
/// `-o` gave more than one pair (lkp then compares across different result roots: one
/// group, each root's full axes in the header).
pub fn build_queries(args: &[(bool, String)]) -> (Vec<Query>, bool) {
    let mut out: Vec<Query> = Vec::new();
    let mut different = false;
    for (is_override, text) in args {
        let q = parse_query(text);
        if !is_override {
            out.push(q);
            continue;
        }
        different |= q.len() > 1;
        let mut merged = out.last().cloned().unwrap_or_default();
        for (k, v) in q {
            match merged.iter_mut().find(|(mk, _)| *mk == k) {
                Some(slot) => slot.1 = v,
                None => merged.push((k, v)),
            }
        }
        out.push(merged);
    }
    (out, different)
}

/// lkp's index match (`grep -F` of `k=v/` in the root's `k=v/k=v/` axes string, pairs
/// sorted as text); a `commit` condition also matches a commit it is a prefix of (lkp
/// first expands it to the full hash with git).
fn matches(axes: &[(String, String)], q: &Query) -> bool {
    let mut pairs: Vec<String> = axes.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.sort();
    let line = format!("{}/", pairs.join("/"));
    q.iter().all(|(k, v)| {
        if k == "commit" && !v.is_empty() {
            return axes.iter().any(|(ak, av)| ak == "commit" && av.starts_with(v.as_str()));
        }
        line.contains(&if v.is_empty() { format!("{k}=") } else { format!("{k}={v}/") })
    })
}

/// The result roots under `dir` matching the queries: each query's matches in path
/// order, the queries in turn, a root matched again dropped. A query matching nothing
/// is an error naming it.
pub fn search(dir: &Path, queries: &[Query]) -> Result<Vec<ResultRoot>> {
    let tree = DirTree::at(dir);
    let mut candidates = Vec::new();
    for rel in find_roots(&tree)? {
        crate::cancel::check()?;
        let axes = load_axes(&tree, &rel)?;
        candidates.push((rel, axes));
    }
    let mut picked: Vec<usize> = Vec::new();
    for q in queries {
        let hits: Vec<usize> =
            (0..candidates.len()).filter(|&i| candidates.get(i).is_some_and(|c| matches(&c.1, q))).collect();
        if hits.is_empty() {
            let shown: Vec<String> = q.iter().map(|(k, v)| format!("{k}={v}")).collect();
            return Err(Error::domain(format!(
                "no result root under {} matches {} ({} result roots searched)",
                dir.display(),
                shown.join("/"),
                candidates.len()
            )));
        }
        for i in hits {
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
    }
    picked.into_iter().filter_map(|i| candidates.get(i)).map(|(rel, _)| ResultRoot::load(&tree, rel)).collect()
}

/// lkp's `AxesGrouper#group`: roots with the same axes other than `compare_keys` form a
/// group (in order of first appearance; all in one group when `different`), and each
/// group of two or more is compared, its first root the base.
pub fn compare_groups(
    roots: &[ResultRoot],
    compare_keys: &[String],
    different: bool,
    opt: Options,
) -> crate::error::Result<Vec<CompareResult>> {
    // (the axes the members share, the members)
    type Group<'r> = (Vec<(String, String)>, Vec<&'r ResultRoot>);
    let mut groups: Vec<Group> = Vec::new();
    for r in roots {
        let common: Vec<(String, String)> = if different {
            Vec::new()
        } else {
            r.axes.iter().filter(|(k, _)| !compare_keys.contains(k)).cloned().collect()
        };
        match groups.iter_mut().find(|(c, _)| *c == common) {
            Some((_, members)) => members.push(r),
            None => groups.push((common, vec![r])),
        }
    }
    groups
        .into_iter()
        .filter(|(_, members)| members.len() >= 2)
        .map(|(_, members)| compare_group(&members, opt, compare_keys, different))
        .collect()
}

/// `lkp compare -s/-o QUERY -c KEYS` over the result roots under `dir`: the
/// queries in command-line order (`(is -o, "k=v/k=v")`, [`build_queries`]), the roots
/// they select ([`search`]) grouped and compared across `compare_keys`
/// ([`compare_groups`]). No group of two to compare is an error.
pub fn compare_query(
    dir: &Path,
    queries: &[(bool, String)],
    compare_keys: &[String],
    opt: Options,
) -> Result<Vec<CompareResult>> {
    let (qs, different) = build_queries(queries);
    let roots = search(dir, &qs)?;
    let groups = compare_groups(&roots, compare_keys, different, opt)?;
    if groups.is_empty() {
        return Err(Error::domain(format!(
            "the {} result roots found under {} form no group of two to compare (each group shares every axis but {})",
            roots.len(),
            dir.display(),
            compare_keys.join(",")
        )));
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ax(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn queries_and_overrides() {
        let (q, different) = build_queries(&[(false, "commit=abc/kconfig=k1".into()), (true, "commit=def".into())]);
        assert_eq!(q, [ax(&[("commit", "abc"), ("kconfig", "k1")]), ax(&[("commit", "def"), ("kconfig", "k1")])]);
        assert!(!different);
        let (_, different) = build_queries(&[(false, "commit=a".into()), (true, "commit=b/kconfig=k2".into())]);
        assert!(different);
    }

    #[test]
    fn index_match_is_lkps_substring_match() {
        let a = ax(&[("commit", "abcdef"), ("mode", "process"), ("xmode", "thread")]);
        assert!(matches(&a, &ax(&[("commit", "abc")])));
        assert!(matches(&a, &ax(&[("mode", "process")])));
        // grep -F of "mode=thread/" finds it inside "xmode=thread/", as lkp's index does
        assert!(matches(&a, &ax(&[("mode", "thread")])));
        assert!(matches(&a, &ax(&[("mode", "")])));
        assert!(!matches(&a, &ax(&[("mode", "proc")])));
        assert!(!matches(&a, &ax(&[("commit", "abd")])));
    }

    #[test]
    fn compare_query_without_a_group_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let opt = Options::default();
        let err = compare_query(dir.path(), &[], &["commit".to_string()], opt).unwrap_err().to_string();
        let want = format!(
            "the 0 result roots found under {} form no group of two to compare (each group shares every axis but commit)",
            dir.path().display()
        );
        assert_eq!(err, want);
    }
}

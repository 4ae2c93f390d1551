//! The commits of a bisection in history order (docs/bisect.md §4): the good endpoint
//! first, then what `git rev-list --reverse GOOD..BAD` lists, the bad endpoint last.
//! Positions are indices in that list; the culprit is the first bad commit, a
//! position in 1..=N (N = the last index). Results are named by commit: a name
//! matches a commit when it is the commit, or a unique prefix of at least
//! [`MIN_PREFIX`] characters of it.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The shortest commit prefix that names a commit (git's default abbreviation).
pub const MIN_PREFIX: usize = 7;

/// The commits of a range in history order, good endpoint first, bad endpoint last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct Range {
    commits: Vec<String>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl TryFrom<Vec<String>> for Range {
    type Error = Error;
    fn try_from(commits: Vec<String>) -> Result<Range> {
        Range::new(commits)
    }
}

impl From<Range> for Vec<String> {
    fn from(r: Range) -> Vec<String> {
        r.commits
    }
}

impl Range {
    /// The range of `commits` (good endpoint first, bad endpoint last): at least two,
    /// each named once and not empty.
    pub fn new(commits: Vec<String>) -> Result<Range> {
        if commits.len() < 2 {
            return Err(Error::insufficient(format!(
                "a bisection needs a good and a bad commit, got {} commit{}",
                commits.len(),
                if commits.len() == 1 { "" } else { "s" }
            )));
        }
        let mut index = HashMap::with_capacity(commits.len());
        for (i, c) in commits.iter().enumerate() {
            if c.trim().is_empty() || c.chars().any(char::is_whitespace) {
                return Err(Error::domain(format!("commit {} of the range is not a commit name: '{c}'", i + 1)));
            }
            if index.insert(c.clone(), i).is_some() {
                return Err(Error::domain(format!("commit '{c}' is twice in the range")));
            }
        }
        Ok(Range { commits, index })
    }

    /// The range of `good` followed by the lines of `git rev-list --reverse GOOD..BAD`
    /// (`text`, one commit a line; blank lines ignored), whose last line is the bad
    /// commit. `what` names the text in errors.
    pub fn from_rev_list(good: &str, text: &str, what: &str) -> Result<Range> {
        let mut commits = vec![good.to_string()];
        for (i, line) in text.lines().enumerate() {
            let c = line.trim();
            if c.is_empty() {
                continue;
            }
            if c.split_whitespace().count() != 1 {
                return Err(Error::parse(Some(what), Some(i + 1), format!("expected one commit a line, got '{c}'")));
            }
            commits.push(c.to_string());
        }
        if commits.len() < 2 {
            return Err(Error::parse(
                Some(what),
                None,
                "no commit between the good and the bad one: is GOOD an ancestor of BAD?",
            ));
        }
        Range::new(commits)
    }

    /// The commits, good endpoint first.
    pub fn commits(&self) -> &[String] {
        &self.commits
    }

    /// The number of commits (endpoints included).
    pub fn len(&self) -> usize {
        self.commits.len()
    }

    /// Never: a range holds at least its two endpoints.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The last position, the bad endpoint's (= the number of culprit candidates).
    pub fn last(&self) -> usize {
        self.commits.len() - 1
    }

    /// The commit at `position`.
    pub fn commit(&self, position: usize) -> Option<&str> {
        self.commits.get(position).map(String::as_str)
    }

    /// The position of the commit `name` names: the commit itself, or a prefix of at
    /// least [`MIN_PREFIX`] characters that only one commit of the range starts with.
    pub fn position(&self, name: &str) -> Result<usize> {
        if let Some(&i) = self.index.get(name) {
            return Ok(i);
        }
        if name.len() < MIN_PREFIX {
            return Err(Error::domain(format!(
                "'{name}' names no commit of the range (a commit prefix needs at least {MIN_PREFIX} characters)"
            )));
        }
        let mut found = self.commits.iter().enumerate().filter(|(_, c)| c.starts_with(name));
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Ok(i),
            (Some((_, a)), Some((_, b))) => Err(Error::domain(format!(
                "'{name}' is a prefix of several commits of the range ({a}, {b}, ...): give more characters"
            ))),
            _ => Err(Error::domain(format!(
                "'{name}' names no commit of the range {}..{} ({} commits)",
                short(self.commits.first().map_or("", String::as_str)),
                short(self.commits.last().map_or("", String::as_str)),
                self.commits.len()
            ))),
        }
    }

    /// Bisection steps a binary search takes to single out one of the N candidates:
    /// ⌈log₂ N⌉, at least 1.
    pub fn steps(&self) -> u32 {
        let n = self.last() as u64;
        (u64::BITS - n.saturating_sub(1).leading_zeros()).max(1)
    }
}

/// A commit name as people read it: 12 characters of a hash, any other name whole.
pub fn short(commit: &str) -> &str {
    if commit.len() > 12 && commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        commit.get(..12).unwrap_or(commit)
    } else {
        commit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(n: usize) -> Range {
        Range::new((0..n).map(|i| format!("{i:040x}")).collect()).unwrap()
    }

    #[test]
    fn positions_by_name_and_prefix() {
        let r = Range::from_rev_list("good", "c1aaaaaaaa\nc2bbbbbbbb\n\nbad\n", "<rev-list>").unwrap();
        assert_eq!(r.commits(), ["good", "c1aaaaaaaa", "c2bbbbbbbb", "bad"]);
        assert_eq!(r.position("bad").unwrap(), 3);
        assert_eq!(r.position("c2bbbbb").unwrap(), 2);
        assert!(r.position("c2bb").unwrap_err().to_string().contains("at least 7"));
        assert!(r.position("c3bbbbbbb").unwrap_err().to_string().contains("names no commit"));
        let r = Range::new(vec!["g".into(), "abcdef01".into(), "abcdef02".into()]).unwrap();
        assert!(r.position("abcdef0").unwrap_err().to_string().contains("several"));
        assert!(Range::new(vec!["a".into(), "a".into()]).is_err());
        assert!(Range::new(vec!["a".into()]).is_err());
        assert!(Range::from_rev_list("g", "a b\n", "x").unwrap_err().to_string().contains("x:1"));
    }

    #[test]
    fn steps_of_a_binary_search() {
        // N candidates: 1 -> 1, 2 -> 1, 3 -> 2, 4 -> 2, 100 -> 7, 1000 -> 10
        for (commits, steps) in [(2, 1), (3, 1), (4, 2), (5, 2), (101, 7), (1001, 10)] {
            assert_eq!(range(commits).steps(), steps, "{commits}");
        }
    }

    #[test]
    fn serde_round_trip_checks_the_range() {
        let r = range(4);
        let text = serde_json::to_string(&r).unwrap();
        let back: Range = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        assert!(serde_json::from_str::<Range>("[\"a\"]").is_err());
    }
}

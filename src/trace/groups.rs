//! Task groups: the tasks a scheduling metric is computed over besides the whole
//! machine — tasks named alike (`comm`, `*` matching any run of characters) or a list
//! of pids (docs/trace-compare.md §3.2).

use super::event::Comm;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// At most this many groups (one bit each in a task's mask).
pub const MAX_GROUPS: usize = 63;

/// Which tasks a group holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selector {
    /// Tasks whose name matches the pattern (`*` matches any run of characters).
    Comm(String),
    /// These pids (thread ids).
    Pids(Vec<i32>),
}

impl Selector {
    /// The group's name in the metrics: `comm=PATTERN` or `pid=1,2,3`.
    pub fn label(&self) -> String {
        match self {
            Selector::Comm(p) => format!("comm={p}"),
            Selector::Pids(p) => {
                format!("pid={}", p.iter().map(i32::to_string).collect::<Vec<_>>().join(","))
            }
        }
    }

    /// A pid list as written on a command line: `12,13 14`.
    pub fn parse_pids(text: &str) -> Result<Selector> {
        let mut pids = Vec::new();
        for t in text.split([',', ' ']).filter(|t| !t.is_empty()) {
            let p: i32 =
                t.parse().ok().filter(|&p| p > 0).ok_or_else(|| {
                    Error::domain(format!("pid list '{text}': '{t}' is not a pid (a positive integer)"))
                })?;
            pids.push(p);
        }
        if pids.is_empty() {
            return Err(Error::domain(format!("pid list '{text}' names no pid")));
        }
        Ok(Selector::Pids(pids))
    }

    fn matches(&self, pid: i32, comm: &Comm) -> bool {
        match self {
            Selector::Pids(p) => p.contains(&pid),
            Selector::Comm(pattern) => glob(pattern.as_bytes(), comm.as_bytes()),
        }
    }
}

/// `*`-patterns: `*` matches any run of bytes, everything else itself.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let mut parts = pattern.split(|&b| b == b'*');
    let Some(first) = parts.next() else { return text.is_empty() };
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    let tail: Vec<&[u8]> = parts.collect();
    let Some((last, middle)) = tail.split_last() else { return rest.is_empty() };
    for m in middle {
        match rest.windows(m.len().max(1)).position(|w| m.is_empty() || w == *m) {
            Some(at) => rest = rest.get(at + m.len()..).unwrap_or_default(),
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The groups of a metrics pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Groups {
    selectors: Vec<Selector>,
}

impl Groups {
    /// The groups of `selectors` (at most [`MAX_GROUPS`]; a repeated one is kept once).
    pub fn new(selectors: Vec<Selector>) -> Result<Groups> {
        let mut out: Vec<Selector> = Vec::new();
        for s in selectors {
            if let Selector::Comm(p) = &s {
                if p.is_empty() {
                    return Err(Error::domain("an empty task name selects no task"));
                }
            }
            if !out.contains(&s) {
                out.push(s);
            }
        }
        if out.len() > MAX_GROUPS {
            return Err(Error::domain(format!("at most {MAX_GROUPS} task groups, got {}", out.len())));
        }
        Ok(Groups { selectors: out })
    }

    /// The selectors, in order.
    pub fn selectors(&self) -> &[Selector] {
        &self.selectors
    }

    /// The bit mask of the groups a task (`pid`, named `comm`) belongs to: bit `i` for
    /// group `i`.
    pub fn mask(&self, pid: i32, comm: &Comm) -> u64 {
        self.selectors.iter().enumerate().filter(|(_, s)| s.matches(pid, comm)).fold(0, |m, (i, _)| m | 1 << i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_patterns_and_pids() {
        assert!(glob(b"kworker/*", b"kworker/1:2"));
        assert!(glob(b"*cgu*", b"opt cgu.1"));
        assert!(glob(b"sh", b"sh") && !glob(b"sh", b"bash") && !glob(b"sh*x", b"sh"));
        let g = Groups::new(vec![Selector::Comm("sh".into()), Selector::parse_pids("7, 9").unwrap()]).unwrap();
        assert_eq!(g.mask(9, &Comm::new(b"sh")), 0b11);
        assert_eq!(g.mask(7, &Comm::new(b"bash")), 0b10);
        assert_eq!(g.selectors()[1].label(), "pid=7,9");
        assert!(Selector::parse_pids("7,x").unwrap_err().to_string().contains("'x' is not a pid"));
        assert!(Selector::parse_pids(",").is_err());
    }
}

//! The extractors' line patterns, compiled once per process: a pattern is read for
//! every iteration of every run, and compiling it costs more than matching a log.

use crate::error::{Error, Result};
use regex::Regex;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The compiled form of the extractor pattern `pattern` (compiled on first use, then
/// shared); a pattern that does not compile is a schedlab bug, reported as a domain error.
///
/// The one compiled regex of each pattern is kept for the process (the patterns are a
/// fixed set of literals) and lent out, never cloned: a cloned `Regex` starts with
/// empty search caches, and building them again took most of a small table's time.
pub fn compiled(pattern: &'static str) -> Result<&'static Regex> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static Regex>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(re) = map.get(pattern) {
        return Ok(re);
    }
    let re = Regex::new(pattern).map_err(|e| Error::domain(format!("schedlab bug: line pattern {pattern:?}: {e}")))?;
    let re: &'static Regex = Box::leak(Box::new(re));
    map.insert(pattern, re);
    Ok(re)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_once_and_refuses_a_bad_pattern() {
        let a = compiled(r"^T: ([0-9]+)").unwrap();
        assert_eq!(a.captures("T: 12").unwrap().get(1).unwrap().as_str(), "12");
        assert_eq!(compiled(r"^T: ([0-9]+)").unwrap().as_str(), a.as_str());
        assert!(matches!(compiled(r"(unclosed"), Err(Error::Domain(_))));
    }
}

//! The extractors' line patterns, compiled once per process: a pattern is read for
//! every iteration of every run, and compiling it costs more than matching a log.

use crate::error::{Error, Result};
use regex::Regex;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The compiled form of the extractor pattern `pattern` (compiled on first use, then
/// shared); a pattern that does not compile is a schedlab bug, reported as a domain error.
pub fn compiled(pattern: &'static str) -> Result<Regex> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Regex>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(re) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(pattern) {
        return Ok(re.clone());
    }
    let re = Regex::new(pattern).map_err(|e| Error::domain(format!("schedlab bug: line pattern {pattern:?}: {e}")))?;
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(pattern, re.clone());
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

//! The settings of a bisection (docs/bisect.md §5: defaults and why).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The settings of a bisection.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// The chance, at most, that the bisection names a wrong commit (default 0.05): it
    /// is split evenly over the ⌈log₂ N⌉ steps of the search.
    pub alpha: f64,
    /// Changes within ± this percent of the good endpoint's mean are no change: when
    /// the endpoints are shown that close, there is nothing to bisect (default 2).
    pub margin: f64,
    /// Runs at a step before its first decision (default 3).
    pub min_runs: u64,
    /// Runs at a step after which it answers skip; None (the default): from the
    /// endpoints' runs, four times the runs a step is expected to take
    /// (`bisect::budget`, docs/bisect.md §2.5).
    pub max_runs: Option<u64>,
    /// Runs taken at each endpoint at a time (default 5).
    pub endpoint_runs: u64,
    /// Runs an endpoint may take before the bisection gives up telling them apart
    /// (default 200; the endpoints stop sooner when even that could not make a step
    /// decidable, `bisect::budget::beyond_reach`).
    pub max_endpoint_runs: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { alpha: 0.05, margin: 2.0, min_runs: 3, max_runs: None, endpoint_runs: 5, max_endpoint_runs: 200 }
    }
}

impl Options {
    /// The options with each given value instead of its default.
    pub fn given(
        alpha: Option<f64>,
        margin: Option<f64>,
        min_runs: Option<u64>,
        max_runs: Option<u64>,
        endpoint_runs: Option<u64>,
        max_endpoint_runs: Option<u64>,
    ) -> Result<Options> {
        let d = Options::default();
        let o = Options {
            alpha: alpha.unwrap_or(d.alpha),
            margin: margin.unwrap_or(d.margin),
            min_runs: min_runs.unwrap_or(d.min_runs),
            max_runs: max_runs.or(d.max_runs),
            endpoint_runs: endpoint_runs.unwrap_or(d.endpoint_runs),
            max_endpoint_runs: max_endpoint_runs.unwrap_or(d.max_endpoint_runs),
        };
        o.check()?;
        Ok(o)
    }

    /// An error naming the first setting out of its range.
    pub fn check(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha < 0.5) {
            return Err(Error::domain(format!("alpha must be within (0, 0.5), got {}", self.alpha)));
        }
        if !(self.margin.is_finite() && self.margin > 0.0) {
            return Err(Error::domain(format!("margin must be a percentage > 0, got {}", self.margin)));
        }
        if self.min_runs < 1 {
            return Err(Error::domain("min-runs must be at least 1"));
        }
        if let Some(max) = self.max_runs.filter(|&m| m < self.min_runs) {
            return Err(Error::domain(format!("max-runs ({max}) must be at least min-runs ({})", self.min_runs)));
        }
        if self.endpoint_runs < 2 {
            return Err(Error::domain(format!("endpoint-runs must be at least 2, got {}", self.endpoint_runs)));
        }
        if self.max_endpoint_runs < self.endpoint_runs {
            return Err(Error::domain(format!(
                "max-endpoint-runs ({}) must be at least endpoint-runs ({})",
                self.max_endpoint_runs, self.endpoint_runs
            )));
        }
        Ok(())
    }

    /// The error allowed each step of a search over a range with `steps` steps: alpha/steps.
    pub fn step_alpha(&self, steps: u32) -> f64 {
        self.alpha / f64::from(steps.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        assert!(Options::default().check().is_ok());
        assert!(Options::given(Some(0.5), None, None, None, None, None).is_err());
        assert!(Options::given(None, None, Some(10), Some(5), None, None).is_err());
        assert!(Options::given(None, None, None, None, Some(1), None).is_err());
        assert_eq!(Options::default().step_alpha(7), 0.05 / 7.0);
    }
}

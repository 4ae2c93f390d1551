//! Statistics for benchmark comparison, each function checked against a reference
//! (scipy/numpy, or MMTests' `Stat.pm` definitions where noted).
//!
//! Conventions shared by every function here:
//! - input is a slice of `f64`; an empty slice is [`Error::InsufficientData`], a NaN or
//!   infinite value is [`Error::Domain`] naming its index;
//! - a statistic that is mathematically undefined for the values (hmean of a
//!   non-positive value, a ratio against zero) is [`Error::Domain`];
//! - a result that overflows to infinity from finite input is [`Error::Domain`],
//!   never a silent `inf`.
//!
//! [`Error::InsufficientData`]: crate::Error::InsufficientData
//! [`Error::Domain`]: crate::Error::Domain

pub mod batch;
pub mod bootstrap;
pub mod change;
pub mod confidence;
pub mod descriptive;
pub mod fdr;
pub mod mann_whitney;
pub mod mann_whitney_ties;
pub mod median_ci;
pub mod moments;
pub mod noncentral_t;
pub mod power;
pub mod rng;
pub mod sample;
pub mod sample_text;
pub mod sequential;
pub mod small_sample;
pub mod student_t;
pub mod test;
pub mod tost;
pub mod udist;
pub mod welch;

pub use batch::{compare_many, compare_pair, summarize, summarize_many, PairComparison, Summary};
pub use bootstrap::{bootstrap_ratio_ci, BootstrapCi, BootstrapStatistic};
pub use change::{gmean_ratio, pct_change, ratio};
pub use confidence::{ci_mean, MeanCi};
pub use descriptive::{
    amean, bamean, coeff_var, gmean, hmean, max, median, min, percentile, percentiles, stddev, variance,
};
pub use fdr::{e_bh, fdr_bh};
pub use mann_whitney::{mann_whitney_u, MwuMethod, MwuResult};
pub use median_ci::{median_ci, median_orders, MedianCi, MedianOrders};
pub use power::{runs_needed, welch_power};
pub use sample_text::{parse_samples, read_samples};
pub use sequential::{sequential, Sequential};
pub use small_sample::{mann_whitney_min_p, mann_whitney_min_runs};
pub use test::{Test, TEST_NAMES};
pub use tost::{tost_welch, TostResult};
pub use welch::{welch_ttest, WelchResult};

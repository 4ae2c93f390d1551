//! Change points over a commit history: E-divisive means with Apache Otava's
//! windowed split and merge and Student's t-test (or the original permutation test),
//! over many metrics at once (docs/change-points.md).

pub mod divisive;
pub mod history;
pub mod numpy_sum;
pub mod otava;
pub mod qhat;
pub mod segment;
pub mod tree_history;

pub use divisive::{detect, ChangePoint, Significance};
pub use history::{analyze, analyze_named, fill_missing, MetricChange};
pub use otava::{change_points, Options};
pub use segment::SegmentStats;
pub use tree_history::{history as tree_history, read as read_trees, TreeHistory};

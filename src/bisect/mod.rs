//! Which commit: a bisection that decides each step under noise (docs/bisect.md).
//!
//! The endpoints' runs are compared once with a sequential test that stays valid
//! however often it is looked at (`endpoints`, `stats::sequential`); at each step runs
//! are added until the posterior over the culprit's position, given every run of
//! every tested commit (`posterior`), makes the commit bad or good at the step's
//! error rate (`step`), or the step answers skip after its maximum of runs. The same
//! posterior says where a bisection stands and what to test next (`advisor`), over a
//! `git bisect run`'s state (`state`) or over results that already exist (`results`),
//! `changes` checks for more than one change in the range, and `named` checks the
//! commit `git bisect` names.

pub mod advisor;
pub mod budget;
pub mod changes;
pub mod endpoints;
pub mod named;
pub mod options;
pub mod order;
pub mod posterior;
pub mod results;
pub mod state;
pub mod step;

pub use advisor::{status, CommitRuns, Phase, Status};
pub use endpoints::{endpoints, EndpointDecision, Endpoints};
pub use options::Options;
pub use order::Range;
pub use posterior::{Posterior, Tested};
pub use state::State;
pub use step::{decide, Decision, Step};

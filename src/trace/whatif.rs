//! The governor what-if: a trace's idle periods (sleep length, next tick and wakeup
//! rebuilt from its timer events by [`crate::idle::ftrace`]) replayed through other
//! governors with the kernel's own menu/teo code ([`crate::idle::simulate`]), so that
//! a change in the idle-state mix between groups of traces splits into what the
//! workload did (the same governor, the other group's periods) and what the governor
//! chose (the same periods, the other group's governor) (docs/trace-compare.md §3.5).

use crate::error::{Error, Result};
use crate::idle::compare::GovernorArg;
use crate::idle::ftrace::FtraceImport;
use crate::idle::governor::{split_spec, Kernel, Spec};
use crate::idle::simulate::simulate;
use crate::idle::states::StateTable;
use crate::idle::summary::summarize;
use crate::import_notes::ImportOptions;
use serde::{Deserialize, Serialize};

/// One governor's replay of one trace, summed over its CPUs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WhatIf {
    /// `"<governor> <version>"`.
    pub label: String,
    /// Idle periods replayed.
    pub periods: u64,
    /// Per state index: entries the replay chose.
    pub usage: Vec<u64>,
    /// Per state: the replay's residency, ns.
    pub time_ns: Vec<u64>,
    /// Per state: entries too deep (the kernel's `above` rule).
    pub above: Vec<u64>,
    /// Per state: entries too shallow (`below`).
    pub below: Vec<u64>,
}

/// The governors to replay: `label` and spec, a repeated label once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Governors {
    specs: Vec<(String, String, String)>,
}

/// The version a bare governor name (`menu`) replays: the newest implemented.
pub fn default_kernel() -> &'static str {
    Kernel::ALL[0].name()
}

impl Governors {
    /// `specs` as `idle compare` reads them (`teo`, `menu@6.1`, `teo 5.1`), each checked.
    pub fn new(specs: &[String]) -> Result<Governors> {
        let mut out: Vec<(String, String, String)> = Vec::new();
        for s in specs {
            let (g, k) = GovernorArg::Spec(s.clone()).resolve(default_kernel());
            let spec = Spec::new(&g, &k)?;
            let label = spec.to_string();
            if !out.iter().any(|(l, _, _)| *l == label) {
                out.push((label, g, k));
            }
        }
        Ok(Governors { specs: out })
    }

    /// These governors and `specs` (each checked; a label already held kept once).
    pub fn with(&self, specs: &[String]) -> Result<Governors> {
        let mut out = self.clone();
        for (label, g, k) in Governors::new(specs)?.specs {
            if !out.specs.iter().any(|(l, _, _)| *l == label) {
                out.specs.push((label, g, k));
            }
        }
        Ok(out)
    }

    /// The label `spec` replays under (`menu 6.18`).
    pub fn label_of(spec: &str) -> Result<String> {
        let (g, k) = split_spec(spec, default_kernel());
        Ok(Spec::new(&g, &k)?.to_string())
    }

    /// True when there is nothing to replay.
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// The labels in order.
    pub fn labels(&self) -> Vec<String> {
        self.specs.iter().map(|s| s.0.clone()).collect()
    }

    /// Replay every CPU of `import` through each governor on `table` at `hz`.
    pub fn replay(&self, import: &FtraceImport, table: &StateTable, hz: u32) -> Result<Vec<WhatIf>> {
        let n = table.len();
        let mut out = Vec::with_capacity(self.specs.len());
        for (label, g, k) in &self.specs {
            let spec = Spec::new(g, k)?;
            let mut w = WhatIf {
                label: label.clone(),
                periods: 0,
                usage: vec![0; n],
                time_ns: vec![0; n],
                above: vec![0; n],
                below: vec![0; n],
            };
            for cpu in &import.cpus {
                let sim = simulate(spec, table, &cpu.periods, hz, false)?;
                let sums = summarize(table, &sim.idx, &sim.residency_ns, None)?;
                w.periods += sim.len() as u64;
                for (i, s) in sums.iter().enumerate() {
                    let add = |v: &mut Vec<u64>, x: u64| {
                        if let Some(slot) = v.get_mut(i) {
                            *slot += x;
                        }
                    };
                    add(&mut w.usage, s.usage);
                    add(&mut w.time_ns, u64::try_from(s.time_ns).unwrap_or(0));
                    add(&mut w.above, s.above);
                    add(&mut w.below, s.below);
                }
            }
            out.push(w);
        }
        Ok(out)
    }
}

/// The idle periods of a trace at `path` (or held in `bytes`), for the what-if.
pub fn import(bytes: Option<&[u8]>, path: &str, hz: u32, opts: ImportOptions) -> Result<FtraceImport> {
    let r = match bytes {
        Some(b) => crate::idle::ftrace::parse(b, Some(path), hz, opts),
        None => crate::idle::ftrace::read(std::path::Path::new(path), hz, opts),
    };
    r.map_err(|e| match e {
        Error::Parse { .. } | Error::Io { .. } | Error::Interrupted => e,
        other => Error::domain(format!("{path}: the governor what-if needs the trace's idle periods: {other}")),
    })
}

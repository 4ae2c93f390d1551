//! The combining half of a batch run (the "reduce"): group the runs of every
//! input, pair each kernel with its group's baseline, test every metric, control
//! the false discovery rate across all rows at once, and decide.
//!
//! Grouping (docs/batch.md): runs are comparable when they share tool, benchmark
//! and setup (MMTests: the `work/log` directory's path inside its input; lkp: the
//! job axes other than `commit`, or the parent directory without a job.yaml). In a
//! group, a kernel is compared with the baseline from its own input when that input
//! has one, else with the group's only baseline from another input (so a baseline
//! archive and per-kernel archives combine); a choice between several baselines is
//! an error, a group without a baseline is reported in `unmatched`, and so is a group
//! of the baseline alone.
//!
//! Per row: p from Welch's t-test (or Mann-Whitney U) on the samples; the percent
//! change of the statistic MMTests shows (harmonic mean when higher is better,
//! arithmetic mean when lower is better; lkp: arithmetic mean) by direction with
//! [`crate::stats::pct_change`]; the equivalence test, power and runs needed by
//! [`crate::table::evidence`]; q by Benjamini-Hochberg ([`crate::stats::fdr_bh`])
//! over every row with a p-value; the verdict by [`crate::table::decide`] on q.

use super::document::{BatchResult, InputError, InputSummary, Row, Summary, Unmatched};
use super::options::Options;
use super::scan::{RunData, Scan};
use crate::error::{Error, Result};
use crate::parallel;
use crate::stats::{amean, fdr_bh, hmean, pct_change};
use crate::table::{decide, evidence, more_runs, Direction, Verdict, VerdictRule};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;

/// What became of one input: its scan, or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The input was read.
    Scanned(Scan),
    /// The input could not be read (kept only with `keep_going`).
    Failed(InputError),
}

impl Outcome {
    /// An input's outcome as a front end hands it back after scanning it elsewhere (a
    /// Dask worker): the scan's JSON ([`Scan::from_json`]) when there is one, else
    /// the input failed with `error` (or a message saying neither was given).
    pub fn of(input: String, scan: Option<&str>, error: Option<String>) -> Result<Outcome> {
        match scan {
            Some(s) => Scan::from_json(s).map(Outcome::Scanned),
            None => Ok(Outcome::Failed(InputError {
                input,
                message: error.unwrap_or_else(|| "no scan and no error given".to_string()),
            })),
        }
    }
}

/// Whether `run` is the baseline `b`: its kernel name, or for lkp also a commit
/// that `b` (at least 7 characters) is a prefix of.
pub fn is_baseline(run: &RunData, b: &str) -> bool {
    run.kernel == b || (run.tool == "lkp" && b.len() >= 7 && run.kernel.starts_with(b))
}

/// The statistic shown for a metric and its name: MMTests' mean (harmonic when
/// higher is better, else arithmetic), lkp's arithmetic mean.
fn statistic(tool: &str, direction: Direction, x: &[f64]) -> (&'static str, Option<f64>) {
    if tool == "mmtests" && direction == Direction::Higher {
        ("hmean", hmean(x).ok())
    } else if tool == "mmtests" {
        ("amean", amean(x).ok())
    } else {
        ("mean", amean(x).ok())
    }
}

struct Pair<'a> {
    base: &'a RunData,
    new: &'a RunData,
}

/// One row before the FDR step.
fn row(pair: &Pair<'_>, bi: usize, ni: usize, opts: &Options, rule: &VerdictRule) -> Option<Row> {
    let bm = pair.base.metrics.get(bi)?;
    let nm = pair.new.metrics.get(ni)?;
    let direction = bm.direction;
    let (stat, mean_base) = statistic(&pair.new.tool, direction, &bm.samples);
    let (_, mean_new) = statistic(&pair.new.tool, direction, &nm.samples);
    let change_pct = match (mean_base, mean_new) {
        (Some(b), Some(n)) => pct_change(b, n, direction != Direction::Lower).ok(),
        _ => None,
    };
    let e = evidence(&bm.samples, &nm.samples, opts.test, rule);
    Some(Row {
        tool: pair.new.tool.clone(),
        benchmark: pair.new.benchmark.clone(),
        setup: pair.new.setup.clone(),
        era: pair.new.era.clone(),
        metric: bm.name.clone(),
        statistic: stat.to_string(),
        direction,
        kernel: pair.new.kernel.clone(),
        baseline: pair.base.kernel.clone(),
        input: pair.new.input.clone(),
        base_input: pair.base.input.clone(),
        n_base: bm.samples.len() as u64,
        n_new: nm.samples.len() as u64,
        mean_base,
        mean_new,
        change_pct,
        p: e.p,
        q: None,
        test: opts.test.name().to_string(),
        p_equivalent: e.p_equivalent,
        power: e.power,
        runs_needed: e.runs_needed,
        more_runs: more_runs(&e),
        warnings: e.warnings,
        verdict: Verdict::NotEnoughData,
    })
}

type GroupKey<'a> = (&'a str, &'a str, &'a str);

/// Refuse a baseline that is a prefix of more than one lkp commit (which one is
/// meant?), listing them.
fn check_prefix(runs: &[&RunData], baseline: &str) -> Result<()> {
    let mut commits: Vec<&str> = runs
        .iter()
        .filter(|r| r.tool == "lkp" && r.kernel != baseline && is_baseline(r, baseline))
        .map(|r| r.kernel.as_str())
        .collect();
    commits.sort_unstable();
    commits.dedup();
    if commits.len() > 1 {
        return Err(Error::domain(format!(
            "baseline '{baseline}' is the prefix of {} commits: {}; give more characters of the one meant",
            commits.len(),
            commits.join(", ")
        )));
    }
    Ok(())
}

/// Combine the outcomes of every input (in input order) into the result.
/// Rows are computed in parallel within `opts.jobs` threads.
pub fn reduce(outcomes: &[Outcome], opts: &Options) -> Result<BatchResult> {
    opts.validate()?;
    let start = Instant::now();
    let mut res = BatchResult::new(opts);
    let mut runs: Vec<&RunData> = Vec::new();
    for o in outcomes {
        match o {
            Outcome::Scanned(s) => {
                res.inputs.push(InputSummary {
                    path: s.input.clone(),
                    kind: Some(s.kind.clone()),
                    mmtests_runs: s.mmtests_runs,
                    lkp_roots: s.lkp_roots,
                    result_files: s.result_files,
                });
                res.warnings.extend(s.warnings.iter().cloned());
                res.notes.extend(s.notes.iter().cloned());
                res.missing.extend(s.missing.iter().map(|m| InputError { input: s.input.clone(), message: m.clone() }));
                runs.extend(s.runs.iter());
                res.timings.inputs.push(s.seconds);
            }
            Outcome::Failed(e) => {
                res.inputs.push(InputSummary {
                    path: e.input.clone(),
                    kind: None,
                    mmtests_runs: 0,
                    lkp_roots: 0,
                    result_files: 0,
                });
                res.errors.push(e.clone());
                res.timings.inputs.push(0.0);
            }
        }
    }
    let baseline = opts.baseline.as_str();
    check_prefix(&runs, baseline)?;
    if !runs.is_empty() && !runs.iter().any(|r| is_baseline(r, baseline)) {
        let mut names: Vec<&str> = runs.iter().map(|r| r.kernel.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let shown: Vec<&str> = names.iter().take(20).copied().collect();
        return Err(Error::domain(format!(
            "baseline '{baseline}' is not a kernel or commit of the inputs (found: {}{})",
            shown.join(", "),
            if names.len() > shown.len() { ", ..." } else { "" }
        )));
    }
    // groups in order of first appearance
    let mut order: Vec<GroupKey<'_>> = Vec::new();
    let mut groups: HashMap<GroupKey<'_>, Vec<&RunData>> = HashMap::new();
    for r in &runs {
        let key = (r.tool.as_str(), r.benchmark.as_str(), r.setup.as_str());
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r);
    }
    let mut pairs: Vec<Pair<'_>> = Vec::new();
    for key in &order {
        let members = groups.get(key).map(Vec::as_slice).unwrap_or_default();
        let bases: Vec<&RunData> = members.iter().copied().filter(|r| is_baseline(r, baseline)).collect();
        if bases.len() == members.len() {
            // only the baseline ran it (a tree of config-named runs): listed, nothing to compare
            res.unmatched.extend(bases.iter().map(|b| Unmatched {
                tool: b.tool.clone(),
                benchmark: b.benchmark.clone(),
                setup: b.setup.clone(),
                kernel: b.kernel.clone(),
                input: b.input.clone(),
                reason: "the baseline alone ran this benchmark with this setup: nothing to compare it with".into(),
            }));
        }
        for new in members.iter().copied().filter(|r| !is_baseline(r, baseline)) {
            let own: Vec<&RunData> = bases.iter().copied().filter(|b| b.input == new.input).collect();
            let candidates = if own.is_empty() { bases.clone() } else { own };
            match candidates.as_slice() {
                [] => res.unmatched.push(Unmatched {
                    tool: new.tool.clone(),
                    benchmark: new.benchmark.clone(),
                    setup: new.setup.clone(),
                    kernel: new.kernel.clone(),
                    input: new.input.clone(),
                    reason: format!("no baseline '{baseline}' with the same benchmark and setup in any input"),
                }),
                [base] => pairs.push(Pair { base, new }),
                many => {
                    let at: Vec<&str> = many.iter().map(|b| b.location.as_str()).collect();
                    return Err(Error::domain(format!(
                        "{}: which baseline? '{baseline}' of {} {} (setup '{}') is in {}; keep each baseline in the \
                         archive of its kernels, or run the machines separately",
                        new.location,
                        new.tool,
                        new.benchmark,
                        new.setup,
                        at.join(" and ")
                    )));
                }
            }
        }
    }
    // the metrics each pair shares, in the baseline's order
    let mut jobs: Vec<(usize, usize, usize)> = Vec::new();
    for (pi, pair) in pairs.iter().enumerate() {
        let index: HashMap<&str, usize> =
            pair.new.metrics.iter().enumerate().map(|(i, m)| (m.name.as_str(), i)).collect();
        let mut missing = Vec::new();
        let before = jobs.len();
        for (bi, m) in pair.base.metrics.iter().enumerate() {
            match index.get(m.name.as_str()) {
                Some(&ni) => {
                    jobs.push((pi, bi, ni));
                    let new_empty = pair.new.metrics.get(ni).is_some_and(|n| n.samples.is_empty());
                    for (run, empty) in [(pair.base, m.samples.is_empty()), (pair.new, new_empty)] {
                        let message = format!(
                            "{}: no samples of {} '{}' (a log without a result line, or results that are not numbers)",
                            run.location, run.benchmark, m.name
                        );
                        if empty && !res.missing.iter().any(|e| e.message == message) {
                            res.missing.push(InputError { input: run.input.clone(), message });
                        }
                    }
                }
                None => missing.push(m.name.as_str()),
            }
        }
        let gap = |message: String| InputError { input: pair.new.input.clone(), message };
        if jobs.len() == before {
            res.missing.push(gap(format!(
                "{}: no metric in common with the baseline {}; nothing compared",
                pair.new.location, pair.base.location
            )));
        } else if !missing.is_empty() && pair.new.tool != "lkp" {
            res.missing.push(gap(format!(
                "{}: no results for {} of the baseline's operations ({})",
                pair.new.location,
                missing.len(),
                missing.join(", ")
            )));
        }
    }
    let rule = opts.rule();
    let (mut rows, seconds): (Vec<Row>, Vec<f64>) = parallel::install(opts.jobs, || {
        jobs.par_iter()
            .filter_map(|&(pi, bi, ni)| {
                let t = Instant::now();
                let r = pairs.get(pi).and_then(|p| row(p, bi, ni, opts, &rule))?;
                Some((r, t.elapsed().as_secs_f64()))
            })
            .unzip()
    })?;
    let with_p: Vec<(usize, f64)> = rows.iter().enumerate().filter_map(|(i, r)| r.p.map(|p| (i, p))).collect();
    let qs = fdr_bh(&with_p.iter().map(|x| x.1).collect::<Vec<_>>())?;
    for ((i, _), q) in with_p.iter().zip(qs) {
        if let Some(r) = rows.get_mut(*i) {
            r.q = Some(q);
        }
    }
    for r in &mut rows {
        let improvement = r.change_pct.unwrap_or(f64::NAN);
        r.verdict = decide(improvement, r.q, &r.evidence(), r.direction != Direction::Unknown, &rule);
    }
    res.summary = Summary::of(&rows, outcomes.len() as u64, pairs.len() as u64);
    res.rows = rows;
    res.exit_code = res.exit_code_for(opts.fail_on);
    res.timings.rows = seconds;
    res.timings.total = start.elapsed().as_secs_f64() + res.timings.inputs.iter().sum::<f64>();
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_of_a_failed_input() {
        let failed = |e: Option<&str>| Outcome::of("a.tar".into(), None, e.map(str::to_string)).unwrap();
        let message = |o: Outcome| match o {
            Outcome::Failed(e) => e.message,
            Outcome::Scanned(_) => String::new(),
        };
        assert_eq!(message(failed(Some("bad gzip"))), "bad gzip");
        assert_eq!(message(failed(None)), "no scan and no error given");
        assert!(Outcome::of("a.tar".into(), Some("{"), None).is_err());
    }
}

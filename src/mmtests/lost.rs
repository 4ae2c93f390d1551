//! The runs compare-mmtests.pl loses, and the columns it prints without them
//! (reference: docs/mmtests.md §12).
//!
//! compare-mmtests.pl summarises each run inside an `eval`. When a run's summary dies
//! (a harmonic mean dividing by zero, [`HmeanDeath`]), the Perl prints a warning on
//! stderr, shortens its array of runs by one and goes on: the run's slot was already
//! counted, so a lost run that is not the last leaves an empty slot (a column without a
//! name and with 0.00 cells), and a lost last run leaves no column at all. A lost
//! baseline leaves the first slot empty and the comparison dies.

use super::summarise::{HmeanDeath, RunSummary, Summarised};
use crate::error::{Error, Result};
pub use crate::table::LostRun;
use std::collections::HashMap;

/// The columns compare-mmtests.pl prints for the runs' summaries, in run order, and the
/// runs it lost: a lost run before the last becomes an empty column (its name kept,
/// no operations, so every cell is missing), a lost last run is left out. A lost
/// baseline is an error: the Perl dies (`Can't use an undefined value as a HASH reference`).
pub fn columns(summaries: Vec<Summarised>) -> Result<(Vec<RunSummary>, Vec<LostRun>)> {
    let n = summaries.len();
    let mut it = summaries.into_iter();
    let base = match it.next() {
        Some(Ok(b)) => b,
        Some(Err(death)) => return Err(baseline_lost(death)),
        None => return Err(Error::domain("no runs")),
    };
    let mut kept = Vec::with_capacity(n);
    let mut lost = Vec::new();
    for (i, s) in it.enumerate().map(|(i, s)| (i + 1, s)) {
        match s {
            Ok(r) => kept.push(r),
            Err(death) => {
                let column_kept = i + 1 < n;
                if column_kept {
                    kept.push(RunSummary {
                        name: death.run.clone(),
                        ops: Vec::new(),
                        per_op: HashMap::new(),
                        stats: base.stats.clone(),
                        preferred: base.preferred,
                        lost: true,
                    });
                }
                lost.push(LostRun { reason: death.reason(), run: death.run, column_kept });
            }
        }
    }
    kept.insert(0, base);
    Ok((kept, lost))
}

fn baseline_lost(death: HmeanDeath) -> Error {
    Error::domain(format!(
        "MMTests {} cannot summarise the baseline '{}': {}; compare-mmtests.pl then dies (\"Can't use an undefined value as a HASH reference\")",
        death.era.name(),
        death.run,
        death.reason()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mmtests::era::{Era, Preferred};

    fn run(name: &str) -> Summarised {
        Ok(RunSummary {
            name: name.into(),
            ops: vec!["1".into()],
            per_op: HashMap::new(),
            stats: vec![],
            preferred: Preferred::Higher,
            lost: false,
        })
    }

    fn dies(name: &str) -> Summarised {
        Err(HmeanDeath { era: Era::E2025, run: name.into(), op: "1".into() })
    }

    /// (name, has a summary) per column, and (name, column kept) per lost run.
    type Shape = (Vec<(String, bool)>, Vec<(String, bool)>);

    fn shape(s: Vec<Summarised>) -> Shape {
        let (cols, lost) = columns(s).unwrap();
        (
            cols.into_iter().map(|c| (c.name, !c.lost)).collect(),
            lost.into_iter().map(|l| (l.run, l.column_kept)).collect(),
        )
    }

    /// The cases compare-mmtests.pl 2025 printed (tools/oracles/mmtests/partial.sh):
    /// `$extractModules[$nrModules++]` counts the slot before the summary dies and
    /// `$#extractModules -= 1` then shortens the array to that slot.
    #[test]
    fn a_lost_run_leaves_an_empty_column_unless_it_is_the_last() {
        let s = |v: &[(&str, bool)]| v.iter().map(|(n, b)| (n.to_string(), *b)).collect::<Vec<_>>();
        assert_eq!(shape(vec![run("a"), dies("b")]), (s(&[("a", true)]), s(&[("b", false)])));
        assert_eq!(
            shape(vec![run("a"), dies("b"), run("c"), run("d")]),
            (s(&[("a", true), ("b", false), ("c", true), ("d", true)]), s(&[("b", true)]))
        );
        assert_eq!(
            shape(vec![run("a"), run("b"), dies("c"), dies("d")]),
            (s(&[("a", true), ("b", true), ("c", false)]), s(&[("c", true), ("d", false)]))
        );
        let e = columns(vec![dies("a"), run("b")]).unwrap_err();
        assert!(e.to_string().contains("baseline 'a'") && e.to_string().contains("Illegal division by zero"), "{e}");
    }
}

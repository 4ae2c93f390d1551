//! More than one change in a range (docs/bisect.md §6): `schedlab series` (Apache
//! Otava's change points, `series::change_points` with its defaults) over the runs of
//! the tested commits laid end to end in history order. A change point found where
//! one commit's runs end and the next one's begin is a change between those two
//! tested commits; two or more of them say the range holds more than one change,
//! which a bisection for one culprit can only half answer.

use super::posterior::Tested;
use crate::error::Result;
use crate::series::{change_points, Options};

/// The positions of the tested commits that start a new level (the first tested
/// commit after each change Otava finds at a boundary between two tested commits),
/// in history order. `tested` in any order.
pub fn level_changes(tested: &[Tested<'_>]) -> Result<Vec<usize>> {
    let mut t: Vec<&Tested<'_>> = tested.iter().filter(|t| !t.values.is_empty()).collect();
    t.sort_by_key(|t| t.position);
    let mut x = Vec::new();
    let mut starts = Vec::with_capacity(t.len()); // (index of the first run, position)
    for c in &t {
        starts.push((x.len(), c.position));
        x.extend_from_slice(c.values);
    }
    if x.len() < 4 {
        return Ok(Vec::new());
    }
    let found = change_points(&x, &Options::default())?;
    Ok(found
        .iter()
        .filter_map(|cp| starts.iter().find(|(i, _)| *i == cp.index).map(|&(_, position)| position))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_levels_changes_are_found_at_commit_boundaries() {
        let noise = [0.0, 0.3, -0.2, 0.1, -0.3, 0.2, -0.1, 0.25, -0.15, 0.05];
        let level = |l: f64| -> Vec<f64> { noise.iter().map(|e| l + e).collect() };
        let (a, b, c, d) = (level(10.0), level(10.0), level(20.0), level(30.0));
        let t = [
            Tested { position: 0, values: &a },
            Tested { position: 3, values: &b },
            Tested { position: 5, values: &c },
            Tested { position: 9, values: &d },
        ];
        assert_eq!(level_changes(&t).unwrap(), [5, 9]);
        assert_eq!(level_changes(&t[..3]).unwrap(), [5]);
    }
}

//! A result file's samples as columns: each distinct series (metric, unit,
//! direction, group) stored once, each value as an f64 with the number of its
//! series, 12 bytes a sample (a `Sample` of three Strings cost ~150; the memory
//! bound of 4× the input, docs/readers.md §10).

use super::Sample;
use crate::table::Direction;
use hashbrown::HashTable;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// What the samples of one series share.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Series {
    metric: Box<str>,
    unit: Box<str>,
    direction: Direction,
    group: Box<str>,
}

/// One sample, borrowed from [`Samples`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleRef<'a> {
    /// The metric ([`Sample::metric`]).
    pub metric: &'a str,
    /// The value, in `unit`.
    pub value: f64,
    /// The unit as the tool names it.
    pub unit: &'a str,
    /// Which way is better, when the tool says so.
    pub direction: Direction,
    /// The run or system the file names the value for ("" when the file is one run).
    pub group: &'a str,
}

impl SampleRef<'_> {
    /// An owned copy.
    pub fn to_sample(self) -> Sample {
        Sample {
            metric: self.metric.to_string(),
            value: self.value,
            unit: self.unit.to_string(),
            direction: self.direction,
            group: self.group.to_string(),
        }
    }
}

/// The samples of a result file, in file order.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    series: Vec<Series>,
    index: HashTable<u32>,
    hasher: RandomState,
    of: Vec<u32>,
    values: Vec<f64>,
}

impl PartialEq for Samples {
    fn eq(&self, o: &Samples) -> bool {
        self.len() == o.len() && self.iter().zip(o.iter()).all(|(a, b)| a == b)
    }
}

fn hash_of(h: &RandomState, metric: &str, unit: &str, direction: Direction, group: &str) -> u64 {
    h.hash_one((metric, unit, direction.name(), group))
}

impl Samples {
    /// Add a sample (a series seen before is not stored again).
    pub fn push(&mut self, metric: &str, value: f64, unit: &str, direction: Direction, group: &str) {
        let same =
            |s: &Series| &*s.metric == metric && &*s.unit == unit && s.direction == direction && &*s.group == group;
        // most files give a series' values one after the other
        let last = self.of.last().copied().filter(|&i| self.series.get(i as usize).is_some_and(same));
        let id = match last {
            Some(i) => i,
            None => {
                let h = hash_of(&self.hasher, metric, unit, direction, group);
                let series = &self.series;
                match self.index.find(h, |&i| series.get(i as usize).is_some_and(same)) {
                    Some(&i) => i,
                    None => {
                        let i = u32::try_from(self.series.len()).unwrap_or(u32::MAX);
                        self.series.push(Series {
                            metric: metric.into(),
                            unit: unit.into(),
                            direction,
                            group: group.into(),
                        });
                        let (series, hasher) = (&self.series, &self.hasher);
                        self.index.insert_unique(h, i, |&j| {
                            series
                                .get(j as usize)
                                .map_or(0, |s| hash_of(hasher, &s.metric, &s.unit, s.direction, &s.group))
                        });
                        i
                    }
                }
            }
        };
        self.of.push(id);
        self.values.push(value);
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values, in file order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The samples, in file order.
    pub fn iter(&self) -> impl Iterator<Item = SampleRef<'_>> + '_ {
        self.of.iter().zip(&self.values).filter_map(|(&i, &value)| {
            let s = self.series.get(i as usize)?;
            Some(SampleRef { metric: &s.metric, value, unit: &s.unit, direction: s.direction, group: &s.group })
        })
    }

    /// Owned copies of the samples.
    pub fn to_vec(&self) -> Vec<Sample> {
        self.iter().map(SampleRef::to_sample).collect()
    }

    /// Give back the spare capacity the columns grew.
    pub fn shrink_to_fit(&mut self) {
        self.of.shrink_to_fit();
        self.values.shrink_to_fit();
        self.series.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_stored_once_order_kept() {
        let mut s = Samples::default();
        s.push("a", 1.0, "s", Direction::Lower, "");
        s.push("b", 2.0, "", Direction::Higher, "x");
        s.push("a", 3.0, "s", Direction::Lower, "");
        s.push("a", 4.0, "s", Direction::Lower, "y");
        assert_eq!(s.series.len(), 3);
        let got: Vec<_> = s.iter().map(|x| (x.metric, x.value, x.group)).collect();
        assert_eq!(got, vec![("a", 1.0, ""), ("b", 2.0, "x"), ("a", 3.0, ""), ("a", 4.0, "y")]);
        assert_eq!(s.to_vec()[1].unit, "");
        assert_eq!(s.to_vec()[1].direction, Direction::Higher);
    }
}

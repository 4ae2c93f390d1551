//! A linear value axis: the range it shows (the data's range widened by a margin, as
//! matplotlib autoscales) and round tick values on it (steps of 1, 2, 2.5 or 5 times
//! a power of ten, about [`TICKS`] of them), with the mapping from value to position.

/// The share of the data's span added below and above it (matplotlib's `axes.ymargin`).
pub const MARGIN: f64 = 0.05;

/// About how many intervals the ticks divide the range into.
pub const TICKS: f64 = 5.0;

/// Most ticks an axis gets, whatever the range.
const MAX_TICKS: usize = 12;

/// The round steps between ticks, times a power of ten.
const STEPS: [f64; 5] = [1.0, 2.0, 2.5, 5.0, 10.0];

/// A linear axis from `lo` to `hi` with tick values `ticks` (inside the range) printed
/// with `decimals` decimals.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearAxis {
    /// The value at the axis' start.
    pub lo: f64,
    /// The value at the axis' end.
    pub hi: f64,
    /// The tick values, ascending, each within `lo..=hi`.
    pub ticks: Vec<f64>,
    /// Decimals of a tick label: as many as the step needs.
    pub decimals: usize,
}

impl LinearAxis {
    /// The axis showing every finite value of `values` (None when there is none): from
    /// the smallest to the largest widened by [`MARGIN`] of their span on each side (a
    /// single value `v` is first widened to `v ± MARGIN·|v|`, or `±MARGIN` when 0, as
    /// matplotlib's `nonsingular` does), ticks every round step near span / [`TICKS`].
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> Option<LinearAxis> {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.into_iter().filter(|v| v.is_finite()) {
            min = min.min(v);
            max = max.max(v);
        }
        if min > max {
            return None;
        }
        if min == max {
            let pad = if min == 0.0 { MARGIN } else { min.abs() * MARGIN };
            min -= pad;
            max += pad;
        }
        let margin = (max - min) * MARGIN;
        let (lo, hi) = (min - margin, max + margin);
        let span = hi - lo;
        if !(span.is_finite() && span > 0.0) {
            return Some(LinearAxis { lo, hi, ticks: Vec::new(), decimals: 0 });
        }
        let step = nice_step(span / TICKS);
        let first = (lo / step).ceil();
        let ticks: Vec<f64> =
            (0..MAX_TICKS).map(|i| (first + i as f64) * step).take_while(|&t| t <= hi + step * 1e-9).collect();
        Some(LinearAxis { lo, hi, ticks, decimals: decimals_of(step) })
    }

    /// Where `v` lies on a span of the drawing from `start` (the value `lo`) to `end`
    /// (the value `hi`); `end < start` for a y axis drawn upwards.
    pub fn position(&self, v: f64, start: f64, end: f64) -> f64 {
        start + (v - self.lo) / (self.hi - self.lo) * (end - start)
    }

    /// A tick's label: the value with the axis' decimals (never "-0").
    pub fn label(&self, v: f64) -> String {
        let s = format!("{:.*}", self.decimals, v);
        match s.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
            _ => s,
        }
    }
}

/// The smallest round step (1, 2, 2.5, 5 times a power of ten) not below `raw`.
fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    STEPS.iter().map(|s| s * mag).find(|&s| s >= raw * (1.0 - 1e-12)).unwrap_or(10.0 * mag)
}

/// The decimals a multiple of `step` needs to print exactly (at most 12).
fn decimals_of(step: f64) -> usize {
    (0..=12usize)
        .find(|&d| {
            let x = step * 10f64.powi(d as i32);
            (x - x.round()).abs() < 1e-6 * x.abs().max(1.0)
        })
        .unwrap_or(12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_widened_by_the_margin_and_round_ticks() {
        // data 10..20: span 10, margin 0.5 each side -> 9.5..20.5; 11/5 = 2.2 -> step 2.5
        let a = LinearAxis::for_values([12.0, 10.0, 20.0, f64::NAN]).unwrap();
        assert_eq!((a.lo, a.hi), (9.5, 20.5));
        assert_eq!(a.ticks, vec![10.0, 12.5, 15.0, 17.5, 20.0]);
        assert_eq!(a.decimals, 1);
        assert_eq!(a.label(12.5), "12.5");
        // y drawn upwards from 200 (lo) to 0 (hi): 15 is (15-9.5)/11 of the way up
        assert!((a.position(15.0, 200.0, 0.0) - (200.0 - 5.5 / 11.0 * 200.0)).abs() < 1e-9);
    }

    #[test]
    fn one_value_is_widened_first() {
        // 100 -> 95..105 (±5%), then ±0.5 margin -> 94.5..105.5; 11/5 = 2.2 -> step 2.5
        let a = LinearAxis::for_values([100.0]).unwrap();
        assert_eq!((a.lo, a.hi), (94.5, 105.5));
        assert_eq!(a.ticks, vec![95.0, 97.5, 100.0, 102.5, 105.0]);
        let z = LinearAxis::for_values([0.0, 0.0]).unwrap();
        assert!((z.lo + 0.055).abs() < 1e-15 && (z.hi - 0.055).abs() < 1e-15, "{z:?}");
        assert_eq!(z.label(-0.0), "0.000");
    }

    #[test]
    fn no_finite_value_no_axis() {
        assert_eq!(LinearAxis::for_values([f64::NAN, f64::INFINITY]), None);
        assert_eq!(LinearAxis::for_values(std::iter::empty()), None);
    }

    #[test]
    fn steps_of_ten_and_small_steps() {
        // 0..1000: 0.05·1000 = 50 -> -50..1050; 1100/5 = 220 -> step 250
        let a = LinearAxis::for_values([0.0, 1000.0]).unwrap();
        assert_eq!(a.ticks, vec![0.0, 250.0, 500.0, 750.0, 1000.0]);
        assert_eq!((a.decimals, a.label(750.0).as_str()), (0, "750"));
        // 0.001..0.002: span 0.0011 -> 0.00022 -> step 0.00025
        let b = LinearAxis::for_values([0.001, 0.002]).unwrap();
        assert_eq!(b.decimals, 5);
        assert_eq!(b.ticks.len(), 5);
    }
}

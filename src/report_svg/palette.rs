//! The colours of a figure's series: matplotlib's default cycle ("tab10"), so that
//! the report's SVG figures keep the colours its matplotlib figures had.

/// matplotlib's `tab10` colours, in its default property cycle's order (C0..C9).
pub const CYCLE: [&str; 10] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

/// The colour of series `i` (the cycle repeats after ten).
pub fn colour(i: usize) -> &'static str {
    CYCLE[i % CYCLE.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_after_ten() {
        assert_eq!(colour(0), "#1f77b4");
        assert_eq!(colour(3), "#d62728");
        assert_eq!(colour(10), colour(0));
    }
}

//! Count, mean and sum of squared deviations of a sample, kept as values are added
//! one at a time (Welford) and merged group with group (Chan, Golub and LeVeque
//! 1979): what the sequential tests (`stats::sequential`) and the bisection's
//! change-point posterior (`bisect::posterior`) need at every look, without
//! keeping a second copy of the values or summing them again.

/// Count, mean and M2 = Σ(x − mean)² of a sample.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Moments {
    /// Number of values.
    pub n: f64,
    /// Their arithmetic mean (0 for no values).
    pub mean: f64,
    /// Σ(x − mean)², ≥ 0.
    pub m2: f64,
}

impl Moments {
    /// The moments of `x`.
    pub fn of(x: &[f64]) -> Self {
        let mut m = Moments::default();
        for &v in x {
            m.push(v);
        }
        m
    }

    /// Add one value (Welford's update).
    pub fn push(&mut self, v: f64) {
        self.n += 1.0;
        let d = v - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (v - self.mean);
    }

    /// The moments of the two samples taken together (Chan et al.'s pairwise update).
    pub fn merge(self, o: Moments) -> Moments {
        if self.n == 0.0 {
            return o;
        }
        if o.n == 0.0 {
            return self;
        }
        let n = self.n + o.n;
        let d = o.mean - self.mean;
        Moments { n, mean: self.mean + d * o.n / n, m2: self.m2 + o.m2 + d * d * self.n * o.n / n }
    }

    /// The sample variance M2/(n − 1) (NaN below two values).
    pub fn variance(&self) -> f64 {
        if self.n < 2.0 {
            f64::NAN
        } else {
            self.m2 / (self.n - 1.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welford_and_merge_match_the_two_pass_figures() {
        // x = [1, 2, 4, 7]: mean 3.5, deviations -2.5 -1.5 0.5 3.5, M2 = 6.25+2.25+0.25+12.25 = 21
        let m = Moments::of(&[1.0, 2.0, 4.0, 7.0]);
        assert_eq!((m.n, m.mean, m.m2), (4.0, 3.5, 21.0));
        assert_eq!(m.variance(), 7.0);
        let merged = Moments::of(&[1.0, 2.0]).merge(Moments::of(&[4.0, 7.0]));
        assert!((merged.mean - 3.5).abs() < 1e-15 && (merged.m2 - 21.0).abs() < 1e-12, "{merged:?}");
        assert_eq!(Moments::default().merge(m), m);
        assert!(Moments::of(&[5.0]).variance().is_nan());
    }
}

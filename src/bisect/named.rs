//! Checks on the commit `git bisect` names (docs/bisect.md §6): once the answers of
//! `git bisect run` leave one commit — the first answered bad right after the last
//! answered good — two cheap checks say whether it is the one change the search
//! assumes:
//!
//! - an answer at either of the two commits that every run now contradicts (its
//!   P(bad) moved across 1/2): git followed it, so the commit git names is not
//!   singled out. In the simulations of §9 this held for 3 of the 5 wrong commits
//!   named in ranges with two culprits, for 1 of 76 right ones, and for none of 98
//!   right ones in ranges with one culprit;
//! - the commit's own step, mean(it) − mean(the commit before), against the
//!   endpoints' change: when their difference lies outside z·se at the bisection's
//!   alpha (z the normal quantile at 1 − alpha/2, se from the four commits' runs), the
//!   step is only part of the change, and another change lies elsewhere in the range.
//!   In the simulations this held for 36 of the 76 right answers in ranges with two
//!   culprits (the commit named is a culprit, and there is another) and for 4 of 98
//!   in ranges with one (alpha 0.05); it held for 2 of the 5 wrong ones: it tells
//!   "more than one change", not a wrong commit from a right one.

use super::options::Options;
use super::order::short;
use super::posterior::{Posterior, Tested};
use crate::stats::moments::Moments;
use statrs::distribution::{ContinuousCDF, Normal};

/// The start of the note that says the commit git names is not singled out.
pub const NOT_SINGLED_OUT: &str = "not singled out";

/// The commit `git bisect` names after the answers `answered` (position and
/// `good`/`bad`), and the commit before it, when the answers leave one commit.
pub fn named(answered: &[(usize, &str)], last: usize) -> Option<(usize, usize)> {
    let lo = answered.iter().filter(|(_, a)| *a == "good").map(|(p, _)| *p).max().unwrap_or(0);
    let hi = answered.iter().filter(|(_, a)| *a == "bad").map(|(p, _)| *p).min().unwrap_or(last);
    (hi == lo + 1 && !answered.is_empty()).then_some((lo, hi))
}

/// The notes on the commit git names (module docs), given the posterior, the runs of
/// every tested commit and the answers given.
pub fn notes(
    post: &Posterior,
    tested: &[Tested<'_>],
    last: usize,
    answered: &[(usize, &str)],
    opts: &Options,
    name: &dyn Fn(usize) -> String,
) -> Vec<String> {
    let Some((lo, hi)) = named(answered, last) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let doubtful = |p: usize, said: &str| match said {
        "good" => post.p_bad(p) > 0.5,
        "bad" => post.p_bad(p) < 0.5,
        _ => false,
    };
    if let Some(&(p, said)) = answered.iter().find(|&&(p, said)| (p == lo || p == hi) && doubtful(p, said)) {
        out.push(format!(
            "{NOT_SINGLED_OUT}: git bisect names {}, but the answer {said} at {} is doubtful (P(bad) = {:.3} now): \
             more than one change, or an answer that later runs contradict",
            short(&name(hi)),
            short(&name(p)),
            post.p_bad(p)
        ));
    }
    let m = |p: usize| Moments::of(tested.iter().find(|t| t.position == p).map_or(&[], |t| t.values));
    let (g, b, before, at) = (m(0), m(last), m(lo), m(hi));
    if [&g, &b, &before, &at].iter().any(|x| x.n < 2.0) {
        return out;
    }
    let var = |x: &Moments| x.m2 / (x.n - 1.0) / x.n;
    let se = (var(&g) + var(&b) + var(&before) + var(&at)).sqrt();
    let (change, step) = (b.mean - g.mean, at.mean - before.mean);
    let z = Normal::standard().inverse_cdf(1.0 - opts.alpha / 2.0);
    if (change - step).abs() > z * se && change != 0.0 {
        out.push(format!(
            "more than one change: the step at {} (its mean against {}'s) is {:.0}% of the endpoints' change, \
             which its runs exclude (± {:.0}%): the rest of the change lies at other commits",
            short(&name(hi)),
            short(&name(lo)),
            100.0 * step / change,
            100.0 * z * se / change.abs()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_names_a_commit_once_the_answers_meet() {
        assert_eq!(named(&[(50, "bad"), (25, "good"), (37, "bad"), (36, "good")], 100), Some((36, 37)));
        assert_eq!(named(&[(50, "bad"), (25, "good")], 100), None);
        assert_eq!(named(&[(1, "bad")], 100), Some((0, 1)));
        assert_eq!(named(&[], 1), None);
    }

    #[test]
    fn a_step_that_is_half_the_change_is_more_than_one_change() {
        // good 10, bad 12, the named commit's step 11 → 12: 50 % of the change; each
        // commit 4 runs of ±0.1 (variance of the mean 0.0133/4 = 0.00333; se over the
        // four = 0.1155; z at alpha 0.05 = 1.96: 0.226 < |2 − 1| = 1)
        let r = |l: f64| vec![l - 0.1, l + 0.1, l - 0.1, l + 0.1];
        let (g, a, b, bad) = (r(10.0), r(11.0), r(12.0), r(12.0));
        let tested = [
            Tested { position: 0, values: &g },
            Tested { position: 5, values: &a },
            Tested { position: 6, values: &b },
            Tested { position: 10, values: &bad },
        ];
        let post = Posterior::of(10, &tested).unwrap();
        let name = |p: usize| format!("commit{p:02}");
        let n = notes(&post, &tested, 10, &[(5, "good"), (6, "bad")], &Options::default(), &name);
        assert!(n.iter().any(|x| x.starts_with("more than one change") && x.contains("50%")), "{n:?}");
        // the whole change at the step: no note
        let a = r(10.0);
        let tested = [tested[0], Tested { position: 5, values: &a }, tested[2], tested[3]];
        let post = Posterior::of(10, &tested).unwrap();
        assert!(notes(&post, &tested, 10, &[(5, "good"), (6, "bad")], &Options::default(), &name).is_empty());
    }
}

//! The core's defaults as the bindings' signatures need them, so that no signature
//! spells one again (docs/verdicts.md: the verdict rule's defaults).

use schedlab::stats::Test;
use schedlab::table::VerdictRule;

/// The two-sample test when none is named ([`Test`]'s default).
pub fn test() -> &'static str {
    Test::default().name()
}

/// The significance level when none is given ([`VerdictRule`]'s default).
pub fn alpha() -> f64 {
    VerdictRule::default().alpha
}

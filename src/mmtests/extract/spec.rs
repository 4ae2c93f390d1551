//! Declarative benchmark families: a family is one [`FamilySpec`] entry in [`SPECS`]
//! (which benchmarks, and per era: the log layout, the preferred direction, the summary
//! and the precision) plus its goldens. The layouts are the ways a shellpack's logs turn
//! into `(operation, sample)` pairs that several families share ([`Layout`]); a layout is
//! written once, a family that uses it is data. docs/mmtests-extract.md lists the families
//! and each layout's file format.

use super::{gnu_time, Ctx, Extractor, Meta, Samples};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::LogDir;
use crate::mmtests::summarise::SummaryKind;

/// How a layout's files become samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// MMTests head's shared `parse-results` over GNU time files: `time-<A>-<I>` (one
    /// `/usr/bin/time -o` output per factor A and iteration I) through `bin/extract-time`,
    /// rows `User`/`System`/`Elapsed`-`<A>` (no `-<A>` when A is `_`), sorted
    /// `sort -k1,1 -k2,2n -k4,4n`.
    ShellpackTime,
    /// MMTests 2024/2025's `Extract.pm::parse_time_all` / `parse_time_syst_elsp` over
    /// `<prefix><A>-<I><suffix>` files (GNU time's output): operations `user-<A>` (all
    /// only), `syst-<A>`, `elsp-<A>`, factors in numeric order, each factor's files in glob
    /// order.
    PerlTime {
        /// File name prefix before the factor, e.g. `kernbench-`.
        prefix: &'static str,
        /// File name suffix after the iteration, e.g. `.time`.
        suffix: &'static str,
        /// Whether `user-<A>` is read (`parse_time_all`) or not (`parse_time_syst_elsp`).
        user: bool,
        /// Whether the `elsp-<A>` are the ratio operations (`_RatioOperations`).
        ratio_elsp: bool,
    },
}

/// One era's reading of a family.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// The eras it applies to.
    pub eras: &'static [Era],
    /// The log layout.
    pub layout: Layout,
    /// `getPreferredValue` (shellpack.yaml's `preferhigher`).
    pub preferred: Preferred,
    /// The summary (`summarise:` or the module's `Summarise*` base).
    pub kind: SummaryKind,
    /// `DecimalPlaces` (2 unless the module sets it).
    pub precision: usize,
}

/// A benchmark family as data.
#[derive(Debug, Clone, Copy)]
pub struct FamilySpec {
    /// The family (MMTests' shellpack / module name).
    pub family: &'static str,
    /// Whether head also reads `<family>-<config>` names (its ExtractFactory finds the
    /// shellpack by stripping `-<suffix>` parts); the other eras load a module by exact name.
    pub prefix_names: bool,
    /// The eras and how each reads the logs.
    pub variants: &'static [Variant],
}

const HEAD: &[Era] = &[Era::Head];
const LEGACY: &[Era] = &[Era::E2024, Era::E2025];

/// head's GNU-time family with shellpack.yaml's defaults (Multiops, lower is better).
const fn head_time(precision: usize) -> Variant {
    Variant {
        eras: HEAD,
        layout: Layout::ShellpackTime,
        preferred: Preferred::Lower,
        kind: SummaryKind::Multiops,
        precision,
    }
}

/// Every declarative family.
pub static SPECS: &[FamilySpec] = &[
    FamilySpec {
        family: "kernbench",
        prefix_names: true,
        variants: &[
            head_time(2),
            Variant {
                eras: LEGACY,
                layout: Layout::PerlTime { prefix: "kernbench-", suffix: ".time", user: true, ratio_elsp: true },
                preferred: Preferred::Lower,
                kind: SummaryKind::Multiops,
                precision: 2,
            },
        ],
    },
    FamilySpec { family: "gitsource", prefix_names: false, variants: &[head_time(2)] },
    FamilySpec { family: "gitcheckout", prefix_names: false, variants: &[head_time(2)] },
    FamilySpec { family: "poundsyscall", prefix_names: false, variants: &[head_time(2)] },
    FamilySpec {
        family: "usemem",
        prefix_names: false,
        variants: &[
            head_time(2),
            Variant {
                eras: LEGACY,
                layout: Layout::PerlTime { prefix: "usemem-", suffix: "", user: false, ratio_elsp: false },
                preferred: Preferred::Lower,
                kind: SummaryKind::Multiops,
                precision: 2,
            },
        ],
    },
    FamilySpec { family: "autonumabench", prefix_names: false, variants: &[head_time(2)] },
    FamilySpec { family: "nas", prefix_names: true, variants: &[head_time(2)] },
    FamilySpec { family: "trunc", prefix_names: false, variants: &[head_time(4)] },
];

impl FamilySpec {
    fn names(&self, era: Era, benchmark: &str) -> bool {
        benchmark == self.family
            || (self.prefix_names
                && era == Era::Head
                && benchmark.strip_prefix(self.family).is_some_and(|r| r.starts_with('-')))
    }

    /// The variant for `era`, if the family exists there.
    pub fn variant(&self, era: Era) -> Option<&Variant> {
        self.variants.iter().find(|v| v.eras.contains(&era))
    }
}

impl Extractor for FamilySpec {
    fn family(&self) -> &'static str {
        self.family
    }
    fn handles(&self, era: Era, benchmark: &str) -> bool {
        self.names(era, benchmark) && self.variant(era).is_some()
    }
    fn meta(&self, ctx: &Ctx) -> Meta {
        let v = self.variant(ctx.era).copied().unwrap_or(head_time(2));
        Meta {
            preferred: v.preferred,
            kind: v.kind,
            field_length: None,
            precision: v.precision,
            value_label: "Ops".into(),
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(v) = self.variant(ctx.era) else { return Ok(()) };
        match v.layout {
            Layout::ShellpackTime => gnu_time::shellpack_time(ctx, dir, out),
            Layout::PerlTime { prefix, suffix, user, ratio_elsp } => {
                gnu_time::perl_time(dir, prefix, suffix, user, ratio_elsp, out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_eras() {
        let k = SPECS.iter().find(|s| s.family == "kernbench").unwrap();
        assert!(k.handles(Era::Head, "kernbench") && k.handles(Era::E2025, "kernbench"));
        assert!(k.handles(Era::Head, "kernbench-max") && !k.handles(Era::E2025, "kernbench-max"));
        assert!(!k.handles(Era::E2018, "kernbench"));
        let g = SPECS.iter().find(|s| s.family == "gitsource").unwrap();
        assert!(g.handles(Era::Head, "gitsource") && !g.handles(Era::E2025, "gitsource"));
        assert!(!g.handles(Era::Head, "gitsource-x"));
    }
}

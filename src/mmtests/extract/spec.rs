//! Declarative benchmark families: a family is one [`FamilySpec`] entry in [`SPECS`]
//! (which benchmarks, and per era: the log layout, the preferred direction, the summary
//! and the precision) plus its goldens. The layouts are the ways a shellpack's logs turn
//! into `(operation, sample)` pairs that several families share ([`Layout`]); a layout is
//! written once, a family that uses it is data. docs/mmtests-extract.md lists the families
//! and each layout's file format.

use super::gnu_time::{RatioOps, TimeFactors, TimeField, TimeSpec};
use super::line_parse::{AwkField, LineSpec, Sed};
use super::perl_scan::{Factors, Op, ScanSpec, Take, Value};
use super::{
    aim9, apachebench, awk_bench, blogbench, bonniepp, coremark, cyclictest, easywave, ebizzy, fsmark, futexbench,
    gnu_time, io_uring, iperf3, libmicro, line_parse, lmbench, ltp, memtier, perfnuma, perl_scan, pgbench, pistress,
    pmqtest, redis, rtmigration, saladfork, simoop, specjbb, sstartup, stream, stressng, stutterp, sysjitter,
    thpchallenge, unixbenchd, wis, Ctx, Extractor, Meta, Samples,
};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::LogDir;
use crate::mmtests::summarise::SummaryKind;

/// A family's own reader of one log directory (a shape no other family shares).
pub type Reader = fn(&Ctx, &LogDir<'_>, &mut Samples) -> Result<()>;

/// How a layout's files become samples.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// MMTests head's shared `parse-results` over GNU time files: `time-<A>-<I>` (one
    /// `/usr/bin/time -o` output per factor A and iteration I) through `bin/extract-time`,
    /// rows `User`/`System`/`Elapsed`-`<A>` (no `-<A>` when A is `_`), sorted
    /// `sort -k1,1 -k2,2n -k4,4n`.
    ShellpackTime {
        /// `PARSE_EXCLUDE_USER_TIME=yes`: no `User` rows (xfsrepair).
        exclude_user: bool,
        /// The sort has `-k4,4n` (the shared script); stockfish's own copy sorts
        /// `-k1,1 -k2,2n` only, so the interval falls to the whole-line comparison.
        by_interval: bool,
    },
    /// MMTests head's shellpacks whose `extract-report.pl` kept the 2024/2025 module's
    /// reading ([`perl_scan::head_scan`]): the rows `<metric> <A> _ <n> <value>`.
    HeadScan(ScanSpec, &'static str),
    /// MMTests head's `line-parse-results`: one value per matching line of the
    /// `benchlog-<A>-<B>[-<N>]` files ([`line_parse`]).
    ShellpackLine(LineSpec),
    /// MMTests 2024/2025's modules that take a regex's capture from each factor's files
    /// ([`perl_scan`]).
    PerlScan(ScanSpec),
    /// MMTests 2024/2025's modules over GNU time files ([`gnu_time::perl_time`]).
    PerlTime(TimeSpec),
    /// MMTests 2024/2025's `ExtractCputime` over the file `time` ([`gnu_time::cputime`]).
    Cputime,
    /// A family's own reader.
    Reader(Reader),
    /// The era's compare-mmtests.pl cannot read the family at all (the reason is given).
    PerlDies(&'static str),
    /// MMTests head's `awk-parse-results` with the family's awk rules ([`awk_bench`]).
    AwkBench(awk_bench::AwkRules),
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
    /// `_Opname`: the row label of a Singleops table ("Ops" unless the module names it).
    pub opname: &'static str,
    /// The direction `--print-ratio` takes when it is not the operations' own
    /// ([`Meta::ratio_preferred`]).
    pub ratio_preferred: Option<Preferred>,
    /// `_FieldLength` when the module sets it (None: the era's default).
    pub field_length: Option<usize>,
    /// head: the `--sub-heading` values whose own shellpack.yaml entry says `preferhigher`
    /// (ExtractShellpack reads `$yamlMap{$subHeading}`: the exact text given).
    pub higher_subheadings: &'static [&'static str],
}

/// A benchmark family as data.
#[derive(Debug, Clone, Copy)]
pub struct FamilySpec {
    /// The family (MMTests' shellpack / module name).
    pub family: &'static str,
    /// The `-b` names it reads besides its own.
    pub names: Names,
    /// The eras and how each reads the logs.
    pub variants: &'static [Variant],
}

/// The `-b` names a family reads besides its own.
#[derive(Debug, Clone, Copy)]
pub struct Names {
    /// Whether head also reads `<family>-<config>` names (its ExtractFactory finds the
    /// shellpack by stripping `-<suffix>` parts); the other eras load a module by exact name.
    pub head_prefix: bool,
    /// Names every era that has the family reads as the family (2024/2025's one-line
    /// modules that inherit the family's, e.g. `ExtractIperf3ipv4tcp`).
    pub also: &'static [&'static str],
}

/// Only the family's own name.
const EXACT: Names = Names { head_prefix: false, also: &[] };
/// The family's name, and in head any `<family>-<config>`.
const HEAD_PREFIX: Names = Names { head_prefix: true, also: &[] };

const HEAD: &[Era] = &[Era::Head];
const LEGACY: &[Era] = &[Era::E2024, Era::E2025];

/// head's GNU-time family with shellpack.yaml's defaults (Multiops, lower is better).
const fn head_time(precision: usize) -> Variant {
    Variant {
        eras: HEAD,
        layout: Layout::ShellpackTime { exclude_user: false, by_interval: true },
        preferred: Preferred::Lower,
        kind: SummaryKind::Multiops,
        precision,
        opname: "Ops",
        ratio_preferred: None,
        field_length: None,
        higher_subheadings: &[],
    }
}

/// A head family read by `line-parse-results <pattern> <metric> <field>` (then `sed`), with
/// its shellpack.yaml's `summarise`, `preferhigher` and `DecimalPlaces`.
const fn head_line(
    pattern: &'static str,
    metric: &'static str,
    field: AwkField,
    sed: Sed,
    kind: SummaryKind,
    preferred: Preferred,
    precision: usize,
) -> Variant {
    Variant {
        eras: HEAD,
        layout: Layout::ShellpackLine(LineSpec { pattern, metric, field, sed }),
        preferred,
        kind,
        precision,
        opname: "Ops",
        ratio_preferred: None,
        field_length: None,
        higher_subheadings: &[],
    }
}

/// A 2024/2025 family read by [`perl_scan`].
const fn legacy_scan(
    eras: &'static [Era],
    scan: ScanSpec,
    kind: SummaryKind,
    preferred: Preferred,
    precision: usize,
) -> Variant {
    Variant {
        eras,
        layout: Layout::PerlScan(scan),
        preferred,
        kind,
        precision,
        opname: "Ops",
        ratio_preferred: None,
        field_length: None,
        higher_subheadings: &[],
    }
}

/// A scan of every file `<prefix>*<suffix>` taking each match of `pattern`'s group 1 as
/// a sample of `op`.
const fn scan_all(prefix: &'static str, suffix: &'static str, pattern: &'static str, op: &'static str) -> ScanSpec {
    ScanSpec {
        factors: Factors::None,
        prefix,
        suffix,
        pattern,
        op: Op::Fixed(op),
        take: Take::Each,
        value: Value::Text,
        dies_without_factors: false,
    }
}

/// A scan per factor of `discover_scaling_parameters(prefix, first)`: the files
/// `<prefix><A>-*<suffix>`, each match of `pattern`'s group 1 a sample of the factor.
const fn scan_factors(
    prefix: &'static str,
    first: &'static str,
    suffix: &'static str,
    pattern: &'static str,
) -> ScanSpec {
    ScanSpec {
        factors: Factors::Scaling { first, sep: "-" },
        prefix,
        suffix,
        pattern,
        op: Op::Factor(""),
        take: Take::Each,
        value: Value::Text,
        dies_without_factors: false,
    }
}

/// xsbench's module: the first `Lookups/s:` of each file, commas removed; it dies
/// without a factor.
const fn xsbench(first: &'static str, suffix: &'static str) -> ScanSpec {
    ScanSpec {
        take: Take::First,
        value: Value::NoCommas,
        dies_without_factors: true,
        ..scan_factors("xsbench-", first, suffix, r"^Lookups/s:\s+([0-9,]+)")
    }
}

/// A GNU-time module over the factors of `<prefix>*<first>` and their files
/// `<prefix><A>-*<suffix>`, reading `syst-<A>` and `elsp-<A>` (`parse_time_syst_elsp`).
const fn time_factors(prefix: &'static str, first: &'static str, suffix: &'static str) -> TimeSpec {
    TimeSpec {
        prefix,
        suffix,
        factors: TimeFactors::Discover(first),
        fields: &[(TimeField::System, "syst-"), (TimeField::Elapsed, "elsp-")],
        field_major: false,
        scale: 1.0,
        ratio: RatioOps::None,
        operations: None,
    }
}

/// A legacy GNU-time family: Multiops, lower is better, 2 decimals.
const fn legacy_time(eras: &'static [Era], spec: TimeSpec) -> Variant {
    Variant {
        eras,
        layout: Layout::PerlTime(spec),
        preferred: Preferred::Lower,
        kind: SummaryKind::Multiops,
        precision: 2,
        opname: "Ops",
        ratio_preferred: None,
        field_length: None,
        higher_subheadings: &[],
    }
}

/// trunc's module: `trunc-*.time`, `elapsed` in milliseconds read from `field` (2024 reads
/// the system time there, 2025 the elapsed time).
const fn trunc(field: TimeField) -> TimeSpec {
    TimeSpec {
        prefix: "trunc-",
        suffix: ".time",
        factors: TimeFactors::None,
        fields: match field {
            TimeField::User => &[(TimeField::User, "elapsed")],
            TimeField::System => &[(TimeField::System, "elapsed")],
            TimeField::Elapsed => &[(TimeField::Elapsed, "elapsed")],
        },
        field_major: false,
        scale: 1000.0,
        ratio: RatioOps::None,
        operations: None,
    }
}

/// 2025's ExtractCputime does not compile (`$fieldLength` is used undeclared under
/// `use strict`), so its gitsource and gitcheckout modules fail to load.
const CPUTIME_2025: Variant = Variant {
    eras: E2025,
    layout: Layout::PerlDies(
        "its ExtractCputime.pm does not compile (Global symbol \"$fieldLength\" requires explicit package name), \
         so the module fails to load",
    ),
    ..CPUTIME
};

const CPUTIME: Variant = Variant {
    eras: E2024,
    layout: Layout::Cputime,
    preferred: Preferred::Lower,
    kind: SummaryKind::Multiops,
    precision: 2,
    opname: "Ops",
    ratio_preferred: None,
    field_length: None,
    higher_subheadings: &[],
};

const PERFPIPE_LINE: &str = r"^\s*(\S+)\susecs/op(?:\s|$)";
const E2024: &[Era] = &[Era::E2024];
const E2025: &[Era] = &[Era::E2025];

const MULTI: SummaryKind = SummaryKind::Multiops;
const HIGHER: Preferred = Preferred::Higher;
const LOWER: Preferred = Preferred::Lower;

/// siege's `Transaction rate:` line, the second last field (`$elements[-2]`).
const SIEGE: ScanSpec = scan_factors("siege-", "-1.log", ".log", r"Transaction rate:.*\s(\S+)\s+\S+\s*$");
/// sysbench OLTP's `    transactions: N (R per sec.)`: the fourth field of the split line
/// (its leading blanks make an empty first field) with its `(` removed.
const SYSBENCH: ScanSpec = scan_factors("sysbench-raw-", "-1", "", r"^\s+transactions:\s+\S+\s+\((\S+)\s.*per sec");

/// A family's own reader in `eras`.
const fn reader(
    eras: &'static [Era],
    read: Reader,
    kind: SummaryKind,
    preferred: Preferred,
    precision: usize,
    opname: &'static str,
) -> Variant {
    Variant {
        eras,
        layout: Layout::Reader(read),
        preferred,
        kind,
        precision,
        opname,
        ratio_preferred: None,
        field_length: None,
        higher_subheadings: &[],
    }
}

/// A family read the same way by head's `extract-report.pl` (rows of `metric`) and by the
/// 2024/2025 module (operations named for the factor alone).
const fn scan_everywhere(scan: ScanSpec, metric: &'static str, preferred: Preferred) -> [Variant; 2] {
    [
        Variant {
            eras: HEAD,
            layout: Layout::HeadScan(scan, metric),
            preferred,
            kind: SummaryKind::Multiops,
            precision: 2,
            opname: "Ops",
            ratio_preferred: None,
            field_length: None,
            higher_subheadings: &[],
        },
        legacy_scan(LEGACY, scan, SummaryKind::Multiops, preferred, 2),
    ]
}

/// 2024/2025's will-it-scale modules besides `ExtractWispf` (one per `driver-wis-<name>.sh`).
const WIS_LEGACY: &[&str] = &[
    "wis-eventfd",
    "wis-fallocate",
    "wis-filelock",
    "wis-futex",
    "wis-getppid",
    "wis-malloc",
    "wis-mmap",
    "wis-open",
    "wis-pipe",
    "wis-poll",
    "wis-posixsems",
    "wis-pread",
    "wis-pthreadmutex",
    "wis-pwrite",
    "wis-read",
    "wis-sched",
    "wis-seek",
    "wis-signal",
    "wis-unlink",
];

/// Every declarative family.
pub static SPECS: &[FamilySpec] = &[
    FamilySpec {
        family: "kernbench",
        names: HEAD_PREFIX,
        variants: &[
            head_time(2),
            Variant {
                eras: LEGACY,
                layout: Layout::PerlTime(TimeSpec {
                    fields: &[(TimeField::User, "user-"), (TimeField::System, "syst-"), (TimeField::Elapsed, "elsp-")],
                    ratio: RatioOps::PerFactor("elsp-"),
                    ..time_factors("kernbench-", "-1.time", ".time")
                }),
                preferred: Preferred::Lower,
                kind: SummaryKind::Multiops,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec { family: "gitsource", names: EXACT, variants: &[head_time(2), CPUTIME, CPUTIME_2025] },
    FamilySpec { family: "gitcheckout", names: EXACT, variants: &[head_time(2), CPUTIME, CPUTIME_2025] },
    FamilySpec {
        family: "poundsyscall",
        names: EXACT,
        variants: &[
            head_time(2),
            legacy_time(
                LEGACY,
                TimeSpec {
                    fields: &[(TimeField::Elapsed, "")],
                    ratio: RatioOps::PerFactor("elsp-"),
                    ..time_factors("pound_syscall-", "-2.time", ".time")
                },
            ),
        ],
    },
    FamilySpec {
        family: "usemem",
        names: EXACT,
        variants: &[
            head_time(2),
            Variant {
                eras: LEGACY,
                layout: Layout::PerlTime(time_factors("usemem-", "-1", "")),
                preferred: Preferred::Lower,
                kind: SummaryKind::Multiops,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec {
        family: "autonumabench",
        names: EXACT,
        variants: &[
            head_time(2),
            legacy_time(
                LEGACY,
                TimeSpec {
                    field_major: true,
                    ratio: RatioOps::PerFactor("elsp-"),
                    ..time_factors("autonumabench-", "-1.time", ".time")
                },
            ),
        ],
    },
    FamilySpec {
        family: "nas",
        names: HEAD_PREFIX,
        variants: &[
            head_time(2),
            legacy_scan(
                LEGACY,
                ScanSpec {
                    factors: Factors::Scaling { first: ".log.1", sep: ".log." },
                    take: Take::First,
                    dies_without_factors: true,
                    ..scan_factors("", "", "", r"\s+Time in seconds =\s+([0-9.]+)")
                },
                MULTI,
                LOWER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "trunc",
        names: EXACT,
        variants: &[
            head_time(4),
            legacy_time(E2024, trunc(TimeField::System)),
            legacy_time(E2025, trunc(TimeField::Elapsed)),
        ],
    },
    FamilySpec {
        family: "xfsrepair",
        names: EXACT,
        variants: &[
            Variant { layout: Layout::ShellpackTime { exclude_user: true, by_interval: true }, ..head_time(2) },
            // ExtractXfsrepair: time.<step>.<I> of fsmark and xfsrepair
            legacy_time(
                LEGACY,
                TimeSpec {
                    prefix: "time.",
                    suffix: "",
                    factors: TimeFactors::Fixed(&["fsmark", "xfsrepair"], "."),
                    fields: &[(TimeField::System, "system-"), (TimeField::Elapsed, "elapsd-")],
                    field_major: false,
                    scale: 1.0,
                    operations: Some(&["elapsd-", "system-"]),
                    ratio: RatioOps::Fixed(&["elapsd-xfsrepair"]),
                },
            ),
        ],
    },
    FamilySpec {
        family: "perfpipe",
        names: EXACT,
        variants: &[
            head_line("usecs/op", "usecs-op", AwkField::Nth(1), Sed::None, SummaryKind::Normalisedops, LOWER, 4),
            legacy_scan(LEGACY, scan_all("pipe-", ".log", PERFPIPE_LINE, "Time"), SummaryKind::Variabletime, LOWER, 2),
        ],
    },
    FamilySpec {
        family: "perfsyscall",
        names: EXACT,
        variants: &[
            head_line("usecs/op", "usecs/syscall", AwkField::Nth(1), Sed::None, MULTI, LOWER, 4),
            legacy_scan(
                LEGACY,
                scan_all("syscall-", ".log", PERFPIPE_LINE, "Time"),
                SummaryKind::Variabletime,
                LOWER,
                4,
            ),
        ],
    },
    FamilySpec {
        family: "sembench",
        names: EXACT,
        variants: &[head_line("^run time", "burns/sec", AwkField::Nth(5), Sed::None, MULTI, HIGHER, 2)],
    },
    FamilySpec {
        family: "sysbenchcpu",
        names: EXACT,
        variants: &[
            head_line("events per second", "events/sec", AwkField::FromEnd(0), Sed::None, MULTI, LOWER, 2),
            legacy_scan(
                LEGACY,
                scan_factors("sysbench-raw-", "-1", "", r"events per second:\s*(.*)"),
                MULTI,
                HIGHER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "sysbenchmutex",
        names: EXACT,
        variants: &[
            head_line("95th percentile:", "latency", AwkField::Nth(3), Sed::None, MULTI, LOWER, 2),
            legacy_scan(LEGACY, scan_factors("sysbench-raw-", "-1", "", r"avg:\s*(.*)"), MULTI, LOWER, 2),
        ],
    },
    FamilySpec {
        family: "wis",
        // head's configs run wis-<name> (wis-pf, ...): its ExtractFactory finds the wis shellpack
        names: HEAD_PREFIX,
        variants: &[head_line("total:", "ops", AwkField::Nth(3), Sed::DeleteFirst("total:"), MULTI, HIGHER, 2)],
    },
    FamilySpec {
        family: "xsbench",
        names: EXACT,
        variants: &[
            head_line("^Lookups/s:", "lookups/sec", AwkField::Nth(2), Sed::DeleteAll(","), MULTI, HIGHER, 2),
            legacy_scan(E2024, xsbench("-1.log", ".log"), MULTI, HIGHER, 2),
            legacy_scan(E2025, xsbench("-1.log.gz", ".log.gz"), MULTI, HIGHER, 2),
        ],
    },
    FamilySpec {
        family: "sqlite",
        names: EXACT,
        variants: &[
            head_line("^execute", "txn/sec", AwkField::Nth(5), Sed::None, MULTI, HIGHER, 2),
            legacy_scan(
                LEGACY,
                scan_all("sqlite.log", "", r"^execute\s+\S+\s+\S+\s+(\S+)", "Trans"),
                SummaryKind::Variabletime,
                HIGHER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "pedsort",
        names: EXACT,
        variants: &[
            head_line("jobs/hour/core", "jobs/core", AwkField::FromEnd(1), Sed::None, MULTI, LOWER, 2),
            legacy_scan(
                LEGACY,
                ScanSpec {
                    value: Value::TimesFactor(60.0),
                    ..scan_factors(
                        "pedsort-",
                        "-1.log",
                        ".log",
                        r"[0-9]+i [0-9]+o throughput: ([0-9]+.[0-9]+) jobs/hour/core$",
                    )
                },
                MULTI,
                HIGHER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "coremark",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::Reader(coremark::head),
                preferred: HIGHER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            Variant {
                eras: LEGACY,
                layout: Layout::Reader(coremark::legacy),
                preferred: HIGHER,
                kind: SummaryKind::Variabletime,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec {
        family: "ebizzy",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::Reader(ebizzy::head),
                preferred: HIGHER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            legacy_scan(
                LEGACY,
                ScanSpec {
                    op: Op::Factor("Rsec-"),
                    take: Take::Last,
                    ..scan_factors("ebizzy-", "-1.log", "", "([0-9]*) records.*")
                },
                MULTI,
                HIGHER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "aim9",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::Reader(aim9::head),
                preferred: HIGHER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            Variant {
                eras: LEGACY,
                layout: Layout::Reader(aim9::legacy),
                preferred: HIGHER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec {
        family: "stream",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::AwkBench(awk_bench::stream),
                preferred: HIGHER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            Variant {
                eras: LEGACY,
                layout: Layout::Reader(stream::legacy),
                preferred: HIGHER,
                kind: SummaryKind::Singleops,
                precision: 2,
                opname: "GB/sec",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec {
        family: "perffutexwake",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::AwkBench(awk_bench::futex_wake),
                preferred: LOWER,
                kind: MULTI,
                precision: 2,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            // one perffutexwake-<T>.log.gz per thread count (the glob <T>.log*.gz names it alone)
            legacy_scan(
                LEGACY,
                ScanSpec {
                    factors: Factors::Scaling { first: ".log.gz", sep: ".log" },
                    value: Value::InUnit("ms"),
                    ..scan_factors("perffutexwake-", "", ".gz", r"Run.*: Wokeup.* in ([0-9.]*) ([a-z]*)")
                },
                SummaryKind::Subselection,
                LOWER,
                4,
            ),
        ],
    },
    FamilySpec {
        family: "libmicro",
        names: EXACT,
        variants: &[
            Variant {
                eras: HEAD,
                layout: Layout::Reader(libmicro::head),
                preferred: LOWER,
                kind: SummaryKind::Singleops,
                precision: 5,
                opname: "Ops",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
            Variant {
                eras: LEGACY,
                layout: Layout::Reader(libmicro::legacy),
                preferred: LOWER,
                kind: SummaryKind::Singleops,
                precision: 4,
                opname: "Time",
                ratio_preferred: None,
                field_length: None,
                higher_subheadings: &[],
            },
        ],
    },
    FamilySpec { family: "siege", names: EXACT, variants: &scan_everywhere(SIEGE, "txn/sec", HIGHER) },
    FamilySpec { family: "sysbench", names: EXACT, variants: &scan_everywhere(SYSBENCH, "txn/sec", HIGHER) },
    FamilySpec {
        family: "sysbenchthread",
        names: EXACT,
        variants: &[legacy_scan(
            LEGACY,
            scan_factors("sysbench-raw-", "-1", "", r"95th percentile:\s*(.*)"),
            MULTI,
            LOWER,
            2,
        )],
    },
    FamilySpec {
        family: "mutilate",
        names: EXACT,
        variants: &[legacy_scan(
            LEGACY,
            scan_factors("mutilate-", "-1.log", "", r"^Total QPS\s+\S+\s+(\S+)"),
            MULTI,
            HIGHER,
            2,
        )],
    },
    FamilySpec {
        family: "stockfish",
        names: EXACT,
        variants: &[
            Variant { layout: Layout::ShellpackTime { exclude_user: false, by_interval: false }, ..head_time(2) },
            legacy_scan(
                LEGACY,
                ScanSpec {
                    op: Op::Factor("totalnps-"),
                    value: Value::Quotient,
                    ..scan_factors("stockfish-", "-1.gz", "", r"^info nodes ([0-9]+) time ([0-9]+)")
                },
                MULTI,
                HIGHER,
                2,
            ),
        ],
    },
    FamilySpec {
        family: "pmqtest",
        names: EXACT,
        variants: &[
            reader(HEAD, pmqtest::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, pmqtest::legacy, SummaryKind::Singleops, LOWER, 2, "Lat"),
        ],
    },
    FamilySpec {
        family: "cyclictest",
        names: EXACT,
        variants: &[
            Variant {
                layout: Layout::PerlDies(
                    "its parse-results calls parseResults, which its extract-report.pl does not define \
                     (Undefined subroutine &main::parseResults)",
                ),
                ..reader(HEAD, cyclictest::legacy, MULTI, LOWER, 2, "Ops")
            },
            // 2 decimals although extractReport sets `_Precision = 0` (what the Perl prints)
            reader(LEGACY, cyclictest::legacy, SummaryKind::Singleops, LOWER, 2, "Lat"),
        ],
    },
    FamilySpec {
        family: "futexwait",
        names: EXACT,
        variants: &[legacy_scan(
            LEGACY,
            scan_factors("futexwait-", "-1.log", ".log", r"Result: ([0-9]+) Kiter/s"),
            MULTI,
            HIGHER,
            2,
        )],
    },
    FamilySpec {
        family: "phpbench",
        names: EXACT,
        variants: &[legacy_scan(
            LEGACY,
            scan_all("phpbench-", ".log", r"^Score\s+\S+\s+(\S+)", "Score"),
            MULTI,
            HIGHER,
            2,
        )],
    },
    FamilySpec {
        family: "netpipe",
        names: EXACT,
        // every line of NPtcp's output: the second field (Mbps)
        variants: &[legacy_scan(LEGACY, scan_all("netpipe.log", "", r"^\s*\S+\s+(\S+)", "tput"), MULTI, HIGHER, 2)],
    },
    FamilySpec {
        family: "stressng",
        names: EXACT,
        variants: &[
            // shellpack.yaml says `preferhigher: yes`, which ExtractShellpack does not take for higher
            reader(HEAD, stressng::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, stressng::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "redis",
        names: EXACT,
        variants: &[
            reader(HEAD, redis::head, SummaryKind::Singleops, LOWER, 2, "Ops"),
            reader(LEGACY, redis::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "unixbenchd",
        names: EXACT,
        variants: &[
            reader(HEAD, unixbenchd::head, MULTI, HIGHER, 2, "Ops"),
            // 2024's module sets no data type: its Summarise takes the operations for higher is
            // better, its --print-ratio (getRatioPreferredValue) for lower
            Variant { ratio_preferred: Some(LOWER), ..reader(E2024, unixbenchd::legacy, MULTI, HIGHER, 2, "Ops") },
            reader(E2025, unixbenchd::legacy, MULTI, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "pistress",
        names: EXACT,
        variants: &[
            reader(HEAD, pistress::head, SummaryKind::Singleops, LOWER, 2, "Ops"),
            reader(LEGACY, pistress::legacy, SummaryKind::Singleops, LOWER, 2, "Test"),
        ],
    },
    FamilySpec {
        family: "apachebench",
        names: EXACT,
        variants: &[
            reader(HEAD, apachebench::head, MULTI, LOWER, 2, "Ops"),
            // parse_time_elapsed of apachebench-<C>-<I>.time: the operation is C
            legacy_time(
                LEGACY,
                TimeSpec { fields: &[(TimeField::Elapsed, "")], ..time_factors("apachebench-", "-1.time", ".time") },
            ),
        ],
    },
    FamilySpec {
        family: "iperf3",
        names: Names {
            head_prefix: true,
            also: &["iperf3-ipv4-tcp", "iperf3-ipv4-udp", "iperf3-ipv6-tcp", "iperf3-ipv6-udp"],
        },
        variants: &[
            reader(HEAD, iperf3::head, MULTI, HIGHER, 2, "Ops"),
            reader(LEGACY, iperf3::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "pgbench",
        names: EXACT,
        variants: &[
            reader(HEAD, pgbench::head, MULTI, HIGHER, 2, "Ops"),
            reader(LEGACY, pgbench::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "blogbench",
        names: EXACT,
        variants: &[
            reader(HEAD, blogbench::head, MULTI, HIGHER, 2, "Ops"),
            reader(LEGACY, blogbench::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "fsmark",
        names: EXACT,
        variants: &[
            reader(HEAD, fsmark::head, MULTI, HIGHER, 2, "Ops"),
            // SummariseVariableops is SummariseVariabletime under another name
            reader(LEGACY, fsmark::legacy, SummaryKind::Variabletime, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "redis-memtier",
        names: EXACT,
        variants: &[
            // shellpack.yaml's preferhigher is per metric, read only with --sub-heading
            Variant {
                higher_subheadings: &["ops/sec", "hits/sec", "misses/sec", "kb/sec"],
                ..reader(HEAD, memtier::head, MULTI, LOWER, 2, "Ops")
            },
            reader(LEGACY, memtier::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "sysjitter",
        names: EXACT,
        variants: &[
            reader(HEAD, sysjitter::head, SummaryKind::Singleops, LOWER, 2, "Ops"),
            Variant {
                field_length: Some(14),
                ..reader(LEGACY, sysjitter::legacy, SummaryKind::Singleops, LOWER, 2, "Time")
            },
        ],
    },
    // head: one shellpack for every futexbench-<workload> config (no preferhigher: lower)
    FamilySpec {
        family: "futexbench",
        names: HEAD_PREFIX,
        variants: &[reader(HEAD, futexbench::head, MULTI, LOWER, 2, "Ops")],
    },
    // 2024/2025: a module per workload, ops/sec ones higher is better, times lower
    FamilySpec {
        family: "futexbench-hash",
        names: Names { head_prefix: false, also: &["futexbench-lock-pi"] },
        variants: &[reader(LEGACY, futexbench::legacy, MULTI, HIGHER, 2, "Ops")],
    },
    FamilySpec {
        family: "futexbench-wake",
        names: Names {
            head_prefix: false,
            also: &["futexbench-requeue", "futexbench-requeue-pi", "futexbench-wake-parallel"],
        },
        variants: &[reader(LEGACY, futexbench::legacy, MULTI, LOWER, 2, "Ops")],
    },
    FamilySpec {
        family: "specjbb",
        names: EXACT,
        variants: &[
            reader(HEAD, specjbb::head, SummaryKind::Singleops, HIGHER, 2, "Ops"),
            reader(LEGACY, specjbb::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "io_uring",
        names: EXACT,
        variants: &[
            reader(HEAD, io_uring::head, MULTI, HIGHER, 2, "Ops"),
            reader(LEGACY, io_uring::legacy, MULTI, HIGHER, 2, "Ops"),
        ],
    },
    // 2024/2025: a module per will-it-scale driver (wis-pf, ...), all ExtractWiscommon
    FamilySpec {
        family: "wis-pf",
        names: Names { head_prefix: false, also: WIS_LEGACY },
        variants: &[Variant { field_length: Some(16), ..reader(LEGACY, wis::legacy, MULTI, HIGHER, 2, "Ops") }],
    },
    FamilySpec {
        family: "lmbench",
        names: EXACT,
        variants: &[Variant { field_length: Some(16), ..reader(LEGACY, lmbench::plain, MULTI, LOWER, 4, "Ops") }],
    },
    FamilySpec {
        family: "lmbench-lat_ctx",
        names: EXACT,
        variants: &[reader(LEGACY, lmbench::lat_ctx, MULTI, LOWER, 2, "Ops")],
    },
    FamilySpec {
        family: "lmbench-lat_proc",
        names: EXACT,
        variants: &[reader(LEGACY, lmbench::lat_proc, MULTI, LOWER, 2, "Ops")],
    },
    FamilySpec {
        family: "rtmigration",
        names: EXACT,
        variants: &[
            reader(HEAD, rtmigration::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, rtmigration::legacy, MULTI, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "saladfork",
        names: EXACT,
        variants: &[
            reader(HEAD, saladfork::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, saladfork::legacy, MULTI, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec { family: "easywave", names: EXACT, variants: &[reader(HEAD, easywave::head, MULTI, LOWER, 2, "Ops")] },
    FamilySpec {
        family: "stutterp",
        names: EXACT,
        variants: &[
            reader(HEAD, stutterp::head, MULTI, LOWER, 4, "Ops"),
            reader(LEGACY, stutterp::legacy, SummaryKind::Variabletime, LOWER, 4, "Ops"),
        ],
    },
    FamilySpec {
        family: "perfnuma",
        names: EXACT,
        variants: &[
            reader(HEAD, perfnuma::head, MULTI, LOWER, 4, "Ops"),
            Variant { field_length: Some(34), ..reader(LEGACY, perfnuma::legacy, MULTI, LOWER, 2, "Ops") },
        ],
    },
    FamilySpec {
        family: "thpchallenge",
        names: EXACT,
        variants: &[
            reader(HEAD, thpchallenge::head, MULTI, LOWER, 2, "Ops"),
            Variant { field_length: Some(12), ..reader(E2024, thpchallenge::legacy, MULTI, LOWER, 2, "Ops") },
            reader(E2025, thpchallenge::legacy, MULTI, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "simoop",
        names: EXACT,
        variants: &[
            reader(HEAD, simoop::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, simoop::legacy, MULTI, LOWER, 2, "Time"),
        ],
    },
    FamilySpec {
        family: "sstartup",
        names: EXACT,
        variants: &[
            reader(HEAD, sstartup::head, MULTI, LOWER, 2, "Ops"),
            reader(LEGACY, sstartup::legacy, SummaryKind::Variabletime, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "bonniepp",
        names: EXACT,
        variants: &[
            reader(HEAD, bonniepp::head, SummaryKind::Subselection, LOWER, 4, "Ops"),
            reader(LEGACY, bonniepp::legacy, SummaryKind::Subselection, LOWER, 2, "Ops"),
        ],
    },
    FamilySpec {
        family: "ltp",
        names: EXACT,
        variants: &[
            reader(HEAD, ltp::head, SummaryKind::Singleops, LOWER, 2, "Ops"),
            reader(LEGACY, ltp::legacy, SummaryKind::Singleops, LOWER, 2, "Test"),
        ],
    },
];

impl FamilySpec {
    fn names(&self, era: Era, benchmark: &str) -> bool {
        benchmark == self.family
            || self.names.also.contains(&benchmark)
            || (self.names.head_prefix
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
        let preferred =
            if v.higher_subheadings.contains(&ctx.subheading.as_str()) { Preferred::Higher } else { v.preferred };
        Meta {
            preferred,
            kind: v.kind,
            field_length: v.field_length,
            precision: v.precision,
            value_label: v.opname.into(),
            ratio_preferred: v.ratio_preferred,
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(v) = self.variant(ctx.era) else { return Ok(()) };
        match v.layout {
            Layout::ShellpackTime { exclude_user, by_interval } => {
                gnu_time::shellpack_time(ctx, dir, exclude_user, by_interval, out)
            }
            Layout::HeadScan(spec, metric) => perl_scan::head_scan(ctx, dir, &spec, metric, out),
            Layout::ShellpackLine(spec) => line_parse::line_parse(ctx, dir, &spec, out),
            Layout::PerlScan(spec) => perl_scan::perl_scan(dir, &ctx.benchmark, &spec, out),
            Layout::PerlTime(spec) => gnu_time::perl_time(dir, &spec, out),
            Layout::Cputime => gnu_time::cputime(dir, &ctx.benchmark, out),
            Layout::Reader(read) => read(ctx, dir, out),
            Layout::PerlDies(why) => Err(crate::error::Error::domain(format!(
                "MMTests {}'s compare-mmtests.pl cannot read benchmark '{}': {why}",
                ctx.era.name(),
                ctx.benchmark
            ))),
            Layout::AwkBench(rules) => awk_bench::awk_bench(ctx, dir, rules, out),
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
        assert!(g.handles(Era::Head, "gitsource") && g.handles(Era::E2024, "gitsource"));
        assert!(!g.handles(Era::Head, "gitsource-x"));
        // head-only shellpacks, and a family whose eras read different files
        let w = SPECS.iter().find(|s| s.family == "wis").unwrap();
        assert!(w.handles(Era::Head, "wis") && !w.handles(Era::E2025, "wis"));
        let x = SPECS.iter().find(|s| s.family == "xsbench").unwrap();
        let suffix = |e| match x.variant(e).unwrap().layout {
            Layout::PerlScan(s) => s.suffix,
            _ => "",
        };
        assert_eq!((suffix(Era::E2024), suffix(Era::E2025)), (".log", ".log.gz"));
    }

    #[test]
    fn every_family_is_listed() {
        for s in SPECS {
            assert!(super::super::BENCHMARKS.contains(&s.family), "{} missing from BENCHMARKS", s.family);
        }
    }
}

//! Which command lines the native launcher runs itself: `schedlab mmtests compare`
//! with text output, written in forms that argparse reads exactly one way. Every
//! other command line, and every one argparse would refuse or read in a way not
//! listed here (help, abbreviated flags, `--`, a value starting with `-`, a flag value
//! outside its choices, a number Python's `float` and Rust's parser might read
//! differently), is `None`: the launcher then hands it to the Python command line,
//! which stays the one definition of parsing and messages (docs/cli.md §1).

use crate::mmtests::era::Era;
use crate::mmtests::verdicts::VerdictTest;
use std::ffi::OsString;
use std::path::PathBuf;

/// A `schedlab mmtests compare` command line with text output, as argparse reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareArgs {
    /// `-d/--directory`: the work/log directory or an archive.
    pub directory: PathBuf,
    /// `-b/--benchmark`.
    pub benchmark: String,
    /// `-n/--names` split at commas, empty names dropped.
    pub names: Vec<String>,
    /// `--print-ratio`.
    pub print_ratio: bool,
    /// `--sub-heading` (empty = none).
    pub sub_heading: String,
    /// `--compat` (None: the era the files tell).
    pub compat: Option<Era>,
    /// `--test` (default `mmtests`).
    pub test: VerdictTest,
    /// `--alpha` (default 0.05).
    pub alpha: f64,
    /// `--allow-missing`.
    pub allow_missing: bool,
}

/// The flags of `mmtests compare` the launcher reads: (short, long, takes a value).
/// The same flags as the argparse definition in python/schedlab/commands/mmtests.py
/// (tests/test_cli_native.py checks each form against it); `--print-monitor` and
/// `--format` other than `text` are left to Python.
const FLAGS: &[(&str, &str, bool)] = &[
    ("-d", "--directory", true),
    ("-b", "--benchmark", true),
    ("-n", "--names", true),
    ("", "--print-ratio", false),
    ("", "--sub-heading", true),
    ("", "--compat", true),
    ("", "--format", true),
    ("", "--test", true),
    ("", "--alpha", true),
    ("", "--allow-missing", false),
];

/// `args` (without the program name) as a compare the launcher runs itself, or None.
///
/// ```
/// use schedlab::cli::fast_args::compare;
/// let a: Vec<std::ffi::OsString> = ["mmtests", "compare", "-d", "log", "-b", "tbench4", "--names=a,b"]
///     .iter().map(|s| s.into()).collect();
/// assert_eq!(compare(&a).unwrap().names, ["a", "b"]);
/// let help: Vec<std::ffi::OsString> = ["mmtests", "compare", "--help"].iter().map(|s| s.into()).collect();
/// assert!(compare(&help).is_none());
/// ```
pub fn compare(args: &[OsString]) -> Option<CompareArgs> {
    let args: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
    let (cmd, rest) = args.split_at_checked(2)?;
    if cmd != ["mmtests", "compare"] {
        return None;
    }
    let mut values: [Option<&str>; FLAGS.len()] = [None; FLAGS.len()];
    let mut i = 0;
    while i < rest.len() {
        let (k, attached) = flag(FLAGS, rest[i])?;
        let takes = FLAGS[k].2;
        let value = match (takes, attached) {
            (false, None) => "",
            (false, Some(_)) => return None,
            (true, Some(v)) => v,
            (true, None) => {
                i += 1;
                let v = *rest.get(i)?;
                if v.starts_with('-') {
                    return None; // argparse may read it as a flag or a negative number
                }
                v
            }
        };
        values[k] = Some(value); // argparse keeps the last one given
        i += 1;
    }
    let get = |long: &str| values[FLAGS.iter().position(|f| f.1 == long).expect("a flag of the table")];
    if get("--format").is_some_and(|f| f != "text") {
        return None;
    }
    Some(CompareArgs {
        directory: PathBuf::from(get("--directory")?),
        benchmark: get("--benchmark")?.to_string(),
        names: get("--names")?.split(',').filter(|n| !n.is_empty()).map(str::to_string).collect(),
        print_ratio: get("--print-ratio").is_some(),
        sub_heading: get("--sub-heading").unwrap_or("").to_string(),
        compat: match get("--compat") {
            Some(e) => Some(Era::parse(e).ok()?),
            None => None,
        },
        test: VerdictTest::parse(get("--test").unwrap_or("mmtests")).ok()?,
        alpha: match get("--alpha") {
            Some(a) => probability(a)?,
            None => 0.05,
        },
        allow_missing: get("--allow-missing").is_some(),
    })
}

/// The index in `flags` of the flag `arg` names, with a value attached to it
/// (`--long=VALUE`, `-dVALUE`); None for anything else.
fn flag<'a>(flags: &[(&str, &str, bool)], arg: &'a str) -> Option<(usize, Option<&'a str>)> {
    if let Some(long) = arg.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        let k = flags.iter().position(|f| &f.1[2..] == name)?;
        return Some((k, value));
    }
    let short = arg.get(..2)?;
    let k = flags.iter().position(|f| !f.0.is_empty() && f.0 == short)?;
    let attached = &arg[2..];
    if attached.starts_with('=') {
        return None; // `-d=x`: Python versions differ on whether the '=' is kept
    }
    Some((k, (!attached.is_empty()).then_some(attached)))
}

/// `--alpha`'s value when it is a plain decimal number in (0, 1) ([`plain_decimal`]).
fn probability(s: &str) -> Option<f64> {
    plain_decimal(s).filter(|v| *v > 0.0 && *v < 1.0)
}

/// A number written as a plain decimal: digits, at most one point, an optional
/// exponent. Other spellings Python's `float` accepts (underscores, blanks, `inf`,
/// a sign) are left to Python, which reads and checks them.
fn plain_decimal(s: &str) -> Option<f64> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(p) => (&s[..p], Some(&s[p + 1..])),
        None => (s, None),
    };
    let digits = mantissa.replacen('.', "", 1);
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let exp_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    let v: f64 = s.parse().ok()?;
    (plain && exp_ok && v.is_finite()).then_some(v)
}

/// A `schedlab lkp compare` command line with text output, as argparse reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct LkpCompareArgs {
    /// BASE HEAD...: result roots, or commit prefixes with `--root`.
    pub roots: Vec<PathBuf>,
    /// `-a/--all`.
    pub all_keys: bool,
    /// `-m/--more`.
    pub more: bool,
    /// `-k/--kpi`.
    pub kpi: bool,
    /// `-p/--perf-profile-threshold`.
    pub perf_profile_threshold: Option<f64>,
    /// `--root DIR`: where commit prefixes are looked up.
    pub search_root: Option<PathBuf>,
}

/// The flags of `lkp compare` the launcher reads, as in python/schedlab/commands/lkp.py;
/// the searches (`-s`, `-o`, `-c`) and formats other than text are left to Python.
const LKP_FLAGS: &[(&str, &str, bool)] = &[
    ("-a", "--all", false),
    ("-m", "--more", false),
    ("-k", "--kpi", false),
    ("-p", "--perf-profile-threshold", true),
    ("", "--format", true),
    ("", "--test", true),
    ("", "--root", true),
];

/// `args` (without the program name) as an lkp compare the launcher runs itself, or None.
///
/// The result roots must stand together (argparse reads `BASE -a HEAD` as an error) and
/// none may start with `-`.
///
/// ```
/// use schedlab::cli::fast_args::lkp_compare;
/// let a: Vec<std::ffi::OsString> = ["lkp", "compare", "-a", "base", "head"].iter().map(|s| s.into()).collect();
/// let c = lkp_compare(&a).unwrap();
/// assert!(c.all_keys && c.roots.len() == 2);
/// let split: Vec<std::ffi::OsString> = ["lkp", "compare", "base", "-a", "head"].iter().map(|s| s.into()).collect();
/// assert!(lkp_compare(&split).is_none());
/// ```
pub fn lkp_compare(args: &[OsString]) -> Option<LkpCompareArgs> {
    let args: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
    let (cmd, rest) = args.split_at_checked(2)?;
    if cmd != ["lkp", "compare"] {
        return None;
    }
    let mut values: [Option<&str>; LKP_FLAGS.len()] = [None; LKP_FLAGS.len()];
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut roots_done = false;
    let mut i = 0;
    while i < rest.len() {
        let arg = rest[i];
        if !arg.starts_with('-') {
            if roots_done {
                return None; // a second run of positionals: argparse refuses it
            }
            roots.push(PathBuf::from(arg));
            i += 1;
            continue;
        }
        roots_done = !roots.is_empty();
        let (k, attached) = flag(LKP_FLAGS, arg)?;
        let value = match (LKP_FLAGS[k].2, attached) {
            (false, None) => "",
            (false, Some(_)) => return None,
            (true, Some(v)) => v,
            (true, None) => {
                i += 1;
                let v = *rest.get(i)?;
                if v.starts_with('-') {
                    return None;
                }
                v
            }
        };
        values[k] = Some(value);
        i += 1;
    }
    let get = |long: &str| values[LKP_FLAGS.iter().position(|f| f.1 == long).expect("a flag of the table")];
    if get("--format").is_some_and(|f| f != "text") || roots.len() < 2 {
        return None;
    }
    if let Some(t) = get("--test") {
        crate::stats::Test::parse(t).ok()?; // argparse's choices: text does not print the verdicts
    }
    Some(LkpCompareArgs {
        roots,
        all_keys: get("--all").is_some(),
        more: get("--more").is_some(),
        kpi: get("--kpi").is_some(),
        perf_profile_threshold: match get("--perf-profile-threshold") {
            Some(v) => Some(plain_decimal(v)?),
            None => None,
        },
        search_root: get("--root").map(PathBuf::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<OsString> {
        s.iter().map(OsString::from).collect()
    }

    #[test]
    fn every_form_argparse_reads_one_way() {
        let a = compare(&args(&[
            "mmtests",
            "compare",
            "-dlog",
            "--benchmark",
            "dbench4",
            "-n",
            "a,,b",
            "--print-ratio",
            "--compat=2024",
            "--test",
            "welch",
            "--alpha",
            "1e-2",
            "--sub-heading=x",
            "--allow-missing",
            "--format",
            "text",
            "-b",
            "tbench4",
        ]))
        .unwrap();
        assert_eq!(a.directory, PathBuf::from("log"));
        assert_eq!(a.benchmark, "tbench4"); // the last one given
        assert_eq!(a.names, ["a", "b"]);
        assert!(a.print_ratio && a.allow_missing);
        assert_eq!(a.compat, Some(Era::parse("2024").unwrap()));
        assert_eq!(a.alpha, 0.01);
        assert_eq!(a.sub_heading, "x");
    }

    #[test]
    fn everything_else_is_left_to_python() {
        let base = ["mmtests", "compare", "-d", "log", "-b", "tbench4", "-n", "a,b"];
        assert!(compare(&args(&base)).is_some());
        for extra in [
            &["--help"][..],
            &["-h"],
            &["--dir", "x"],      // an abbreviation
            &["--format", "csv"], // another format
            &["--print-monitor", "vmstat"],
            &["--compat", "1999"], // outside the choices
            &["--test", "t"],
            &["--alpha", "2"],
            &["--alpha", "0_05"], // Python reads it; left to Python
            &["--alpha", "nan"],
            &["--alpha", " 0.05"],
            &["--sub-heading", "-x"], // a value starting with '-'
            &["--print-ratio=1"],
            &["-d=x"],
            &["--"],
            &["extra"],
        ] {
            let mut a = base.to_vec();
            a.extend_from_slice(extra);
            assert!(compare(&args(&a)).is_none(), "{extra:?}");
        }
        assert!(compare(&args(&["mmtests", "compare", "-d", "log", "-b", "x"])).is_none()); // -n missing
        assert!(compare(&args(&["mmtests", "parse", "f"])).is_none());
        assert!(compare(&args(&["--version"])).is_none());
    }

    #[test]
    fn lkp_compare_reads_what_argparse_reads_one_way() {
        let a = lkp_compare(&args(&[
            "lkp",
            "compare",
            "-m",
            "--kpi",
            "-p0.5",
            "--test",
            "mann-whitney",
            "--format=text",
            "--root",
            "r",
            "b",
            "h1",
            "h2",
        ]))
        .unwrap();
        assert_eq!(a.roots, [PathBuf::from("b"), PathBuf::from("h1"), PathBuf::from("h2")]);
        assert!(!a.all_keys && a.more && a.kpi);
        assert_eq!(a.perf_profile_threshold, Some(0.5));
        assert_eq!(a.search_root, Some(PathBuf::from("r")));
        let b = lkp_compare(&args(&["lkp", "compare", "b", "h", "--all"])).unwrap();
        assert!(b.all_keys && b.roots.len() == 2);
        for bad in [
            &["lkp", "compare", "b"][..],         // one root: Python's error
            &["lkp", "compare", "b", "-a", "h"],  // roots apart: argparse refuses
            &["lkp", "compare", "-am", "b", "h"], // a cluster of flags: Python's
            &["lkp", "compare", "-s", "x", "b"],  // a search
            &["lkp", "compare", "--format", "csv", "b", "h"],
            &["lkp", "compare", "--test", "t", "b", "h"],
            &["lkp", "compare", "-p", "-1", "b", "h"],
            &["lkp", "compare", "-p", "inf", "b", "h"],
            &["lkp", "compare", "--al", "b", "h"], // an abbreviation
            &["lkp", "compare", "--", "b", "h"],
            &["lkp", "compare", "--help"],
        ] {
            assert!(lkp_compare(&args(bad)).is_none(), "{bad:?}");
        }
    }
}

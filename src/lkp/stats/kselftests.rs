//! The kernel selftests' output as lkp-tests' programs/kselftests/parse reads it
//! (docs/lkp-stats.md §7): each `# selftests: <dir>: <script>` (or `make: Entering
//! directory …/selftests/<dir>'`) starts a test script, read by the stater of its
//! directory (lkp's `NetStater`, `MmStater`, ...: [`Kind`]); TAP results at every
//! nesting level (`ok N …`, `# ok N …`), the many ad-hoc result lines the suites print
//! (`… [PASS]`, `TEST: … [ OK ]`, `…: FAIL`) and the section headers that name them
//! become `<dir>.<script>.<section>.<test>.<result>: 1` through `LKP::Stats`; `make`
//! failures give `<dir>.make.fail: 1`. dma's latencies and mqueue's `nsec_per_msg` are
//! numbers.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, to_f, Lines};
use super::ruby_regex::translate;
use crate::lkp::rubyfmt::float_to_s;
use regex::{Captures, Regex};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The stater class lkp picks for a test directory (`<Dir>Stater`, else `Stater`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Base,
    Signal,
    Breakpoints,
    Net,
    NetVeth,
    NetUdpgso,
    Netfilter,
    Vdso,
    Mm,
    Mount,
    Futex,
    Mptcp,
    Timens,
    Dma,
    Pidfd,
    Sgx,
    Capabilities,
    Kmod,
    Mqueue,
    Bpf,
    Vmalloc,
    Sync,
}

impl Kind {
    /// `Object.const_get("#{dir.split('-').map(&:capitalize).join}Stater")`, `Stater`
    /// when there is no such class.
    fn of(dir: &str) -> Kind {
        let name: String = ruby::split_on(dir, '-').iter().map(|w| capitalize(w)).collect();
        match name.as_str() {
            "Signal" => Kind::Signal,
            "Breakpoints" => Kind::Breakpoints,
            "Net" => Kind::Net,
            "NetVeth" => Kind::NetVeth,
            "NetUdpgso" => Kind::NetUdpgso,
            "Netfilter" => Kind::Netfilter,
            "Vdso" => Kind::Vdso,
            "Mm" => Kind::Mm,
            "Mount" => Kind::Mount,
            "Futex" => Kind::Futex,
            "Mptcp" => Kind::Mptcp,
            "Timens" => Kind::Timens,
            "Dma" => Kind::Dma,
            "Pidfd" => Kind::Pidfd,
            "Sgx" => Kind::Sgx,
            "Capabilities" => Kind::Capabilities,
            "Kmod" => Kind::Kmod,
            "Mqueue" => Kind::Mqueue,
            "Bpf" => Kind::Bpf,
            "Vmalloc" => Kind::Vmalloc,
            "Sync" => Kind::Sync,
            _ => Kind::Base,
        }
    }

    /// The `NetStater` family.
    fn is_net(self) -> bool {
        matches!(self, Kind::Net | Kind::NetVeth | Kind::NetUdpgso | Kind::Netfilter)
    }
}

/// Ruby's `String#capitalize`: the first character upper case, the rest lower case.
fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(ruby::downcase(c.as_str()).chars()).collect(),
        None => String::new(),
    }
}

struct Patterns {
    // the main loop
    net_special: Regex,
    net_sub: Regex,
    selftests: Regex,
    entering: Regex,
    vmalloc_run: Regex,
    // Stater
    tap: Regex,
    leading_hashes: Regex,
    level0: Regex,
    level_n: Regex,
    results: Vec<Regex>,
    names: Vec<Regex>,
    make_fail: Vec<Regex>,
    skip_mark: Regex,
    tap0_comment: Regex,
    fix_test: Regex,
    fix_dots: Regex,
    // subclasses
    signal: Vec<Regex>,
    breakpoints: Regex,
    net_results: Vec<Regex>,
    net_sections: Vec<Regex>,
    net_subsection: Regex,
    net_part1: Vec<Regex>,
    net_sysctl: Regex,
    net_ifalias: Regex,
    net_no_tls: Regex,
    net_ns: Regex,
    net_ns_sub: Regex,
    net_secs: Regex,
    net_secs_sub: Regex,
    veth_ignore: Regex,
    udpgso_section: Regex,
    udpgso_ignore: Regex,
    netfilter_test: Regex,
    vdso: Regex,
    mm_running: Regex,
    mm_dot_slash: Regex,
    mm_bracket: Regex,
    mm_mmap: Regex,
    mount_skip: Regex,
    mount_fail: Regex,
    futex_args: Regex,
    mptcp_result: Regex,
    mptcp_ignore: Regex,
    mptcp_time: Regex,
    timens_skip: Regex,
    timens_passed: Regex,
    dma_average: Regex,
    pidfd_passed: Regex,
    capabilities_uid: Regex,
    capabilities_run: Regex,
    capabilities_passed: Regex,
    kmod: Regex,
    mqueue_test: Regex,
    mqueue_io: Regex,
    mqueue_speed: Regex,
    mqueue_leaving: Regex,
    bpf_results: Vec<Regex>,
    bpf_starting: Regex,
    vmalloc_done: Regex,
    vmalloc_summary: Regex,
    vmalloc_took: Regex,
    sync_run: Regex,
}

fn res(list: &[&str]) -> Vec<Regex> {
    list.iter().map(|p| re(p)).collect()
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        net_special: re(r"^# selftests: net: (udpgso|veth)\.sh"),
        net_sub: re(r"^# selftests: (net\/(mptcp|netfilter)): (.*\.sh)"),
        selftests: re(r"^# selftests: (.+): (.+)"),
        entering: re(r"make(?:\[1\])?: Entering directory .*\/tools\/testing\/selftests\/(.*)'"),
        vmalloc_run: re(r"mm\/test_vmalloc.sh (stress|performance)"),
        tap: re(r"TAP version 13"),
        leading_hashes: re(r"^(?:# )+"),
        level0: re(r"^(?<result>ok|not ok).*selftests: (?<test_parts>.+)"),
        level_n: re(r"^(?:# )+(?<result>ok|not ok) \d+ (?<test_parts>.+)"),
        results: res(&[
            r"^(?:# )+(?<test_parts>.*)\.\.\.\s*\[?(?<result>ok|OK|not ok|pass|PASS|fail|skip|SKIPPING)\]?$",
            r"^(?:# )+(?<test_parts>.*)\s*\[ ?(?<result>OK|PASS|FAIL|SKIP|UNSUPPORTED) ?\]$",
            r"^(?:# )+(?<test_parts>.*):\s*(?<result>OK|PASS|FAIL|SKIP)$",
            r"^(?<result>not ok|ok|fail|skip)\s\d+\s(?<test_parts>.*)",
            r"^(?:# )+(?<result>OK|PASS|FAIL|SKIP): (?<test_parts>.+)",
            r"^#  (?<test_parts>.*)\s+(?<result>ok|fail)$",
            r"^#  (?<test_parts>.*)\s\[(?<result>PASS|SKIP|FAIL)\]$",
        ]),
        names: res(&[
            r"^# Running test: (\w+_\d+) - run #(\d+)",
            r"^(?:# )+\s*\[?RUN\]?\s(.+)",
            r"(?i)^# Running (.+)",
            r"^# # Testing (.+):",
        ]),
        make_fail: res(&[
            r": recipe for target.+failed$",
            r"^make(?:\[1\])?: \*\*\* .*\/tools\/testing\/selftests\/.* (Error \d+|Stop\.)$",
            r"Cannot find a vmlinux for VMLINUX_BTF",
        ]),
        skip_mark: re(r"# SKIP"),
        tap0_comment: re(r"# .+$"),
        fix_test: re(r"(^| )TEST: "),
        fix_dots: re(r"\.+$"),
        signal: res(&[r"^# # \[RUN\]\s(.*)", r"^# # \[(OK|ok|PASS)\]"]),
        breakpoints: re(r"^# (ok|not ok) \d+ CPU \d+"),
        net_results: res(&[
            r"^# \[\s*(?<result>OK|FAIL|SKIP)\s*\]\s+(?<test_parts>.*)",
            r"^# (?<test_parts>.*)(?<result>OK|ok|PASS)$",
        ]),
        net_sections: res(&[
            r"^# TEST SECTION: (.*)",
            r"^# ((Control|Data) path: .+)",
            r"(?i)^# (ipv\d.*)$",
            r"^# (.*qdisc on VRF device)",
            r"^# (dgram.*|raw.*)$",
            r"#     (.*device.* down.*)",
            r"#     (.*arrier)",
            r"(OUTPUT tests|INPUT tests|GLOBAL tests)",
            r"^# (?:running|run) ([^\s]+) test",
            r"^# ((Single|Multipath|Single|Admin|Local|Single|FIB|IPv4|IPv6|Basic|Legacy|Routing) (.*))",
            r"(Use cases)",
            r"(Run time tests - ipv4)",
        ]),
        net_subsection: re(r"^# TEST SUBSECTION: (.*)"),
        net_part1: res(&[
            r"^# (No VRF|With VRF|TCP reset|ICMP unreachable|Device enslaved to bridge|Ping LLA with multiple interfaces)",
            r"#  (\w.*)object file doesn't contain sec xdp_dummy",
        ]),
        net_sysctl: re(r"^# SYSCTL: (.*)"),
        net_ifalias: re(r"set ifalias \S+ for test-dummy0"),
        net_no_tls: re(r"no TLS support"),
        net_ns: re(r"ns\d+-\w+"),
        net_ns_sub: re(r"(ns\d+)-\w+"),
        net_secs: re(r"(.+)\s+\d+s"),
        net_secs_sub: re(r"\d+s"),
        veth_ignore: re(r"^# .+ (ok|fail)\b"),
        udpgso_section: re(r"(?i)^# (ipv\d [^:]+)$"),
        udpgso_ignore: re(r"(?i)^# (ipv\d)"),
        netfilter_test: re(r"^# TEST: (.+)"),
        vdso: re(r"^# (?<test_parts>.*)\[(?<result>OK|FAIL|SKIP)\]\s"),
        mm_running: re(r"# running:?\s+(.+)"),
        mm_dot_slash: re(r"^\.\/"),
        mm_bracket: re(r"^(?:# )+(?<test_parts>.*)\[(?<result>PASS|FAIL|SKIP)\]"),
        mm_mmap: re(r"^# (?<test_parts>[a-zA-Z].*): [0-9a-z]+ - (?<result>OK|FAIL)"),
        mount_skip: re(r"^WARN: No \/proc\/self\/uid_map exist, test skipped"),
        mount_fail: re(r"(^(MS.+|Default.+) malfunctions$)|(^Mount flags unexpectedly changed after remount$)"),
        futex_args: re(r"Arguments: (.+)"),
        mptcp_result: re(r"^#\s+(?<result>ok|not ok) \d+ - (?<test_parts>.*)"),
        mptcp_ignore: re(r"(?i)\[\s*(OK|FAIL|SKIP)\s*\]$"),
        mptcp_time: re(r" # time=\d+ms$"),
        timens_skip: re(r"# SKIP CLOCK_BOOTTIME_ALARM isn't supported"),
        timens_passed: re(r"^Passed"),
        dma_average: re(r"^# average (map|unmap) latency\(us\):(.*) standard deviation:(.*)"),
        pidfd_passed: re(r"(?i): (pass(ed)?|Skipping test)$"),
        // lkp's / +++/ (one or more spaces, Onigmo's possessive `++` then `+`) as ` +`:
        // nothing follows it, so giving back spaces or not matches the same
        capabilities_uid: re(r"^# # \[RUN\].*(Tests with uid .*) +"),
        capabilities_run: re(r"^# # \[RUN\]\s+(.+)"),
        capabilities_passed: re(r"Passed"),
        kmod: re(r"^# (?<test_parts>.*)(?:kmod_test_.+|kmod_check_visibility): (?<result>OK|FAIL|SKIP)"),
        mqueue_test: re(r"Test #([1-9].*):"),
        mqueue_io: re(r"(Send|Recv) msg:"),
        mqueue_speed: re(r"(\d+) nsec\/msg"),
        mqueue_leaving: re(r"make(?:\[\d+\])?: Leaving.*mqueue'"),
        bpf_results: res(&[
            r"^# (?<result>fail|Pass):\s(?<test_parts>.*)",
            r"^# Test case:\s(?<test_parts>.*)\s\.\.\s\[(?<result>PASS|FAIL)\]",
            r"^(?:#| ) #(?:\d+|\d+\/\d+)\s+(?<test_parts>[^:]+):(?<result>OK|FAIL|SKIP)",
            r"^# selftests:\s(?<test_parts>.*)\s\[(?<result>PASS|SKIP|FAIL)",
            r"^# main:(?<result>PASS|FAIL):(?<test_parts>.*)",
            r"^# #\d+\/(?<test_parts>[up]\s.*)\s(?<result>SKIP|OK)",
            r"^# (?<test_parts>.*)(?<result>PASS|FAIL|Pass)$",
        ]),
        bpf_starting: re(r"^# starting ((?:egress|ingress)\s.*)"),
        vmalloc_done: re(
            r"(Check the kernel ring buffer to see the summary|Check the kernel message buffer to see the summary)",
        ),
        vmalloc_summary: re(r"Summary: (.+) passed: (.+) failed: (.+) repeat: (.+) loops: (.+) avg: (.+) usec"),
        vmalloc_took: re(r"All test took (.+)=(.+) cycles"),
        sync_run: re(r"\[RUN\]\s+"),
    })
}

fn group<'t>(c: &Captures<'t>, name: &str) -> &'t str {
    c.name(name).map_or("", |m| m.as_str())
}

fn nth<'t>(c: &Captures<'t>, i: usize) -> Option<&'t str> {
    c.get(i).map(|m| m.as_str())
}

/// `test_name(*parts)`: the parts present, stripped, non-empty, each once, joined by `.`.
fn test_name<'a>(parts: impl IntoIterator<Item = Option<&'a str>>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for p in parts.into_iter().flatten().map(ruby::strip).filter(|p| !p.is_empty()) {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen.join(".")
}

/// A value of the vmalloc stater's summary table: a result or a number of µs.
enum Tmp {
    Result(&'static str),
    Usec(i64),
}

/// One test script's reader (lkp's `Stater` and its subclasses).
struct Stater {
    kind: Kind,
    test_dir: Option<String>,
    test_script: Option<String>,
    test_level: usize,
    /// `@tests`: the parts of each level's current test.
    tests: HashMap<usize, Vec<Option<String>>>,
    /// The levels of `tests` in the order first used (Ruby's Hash order).
    order: Vec<usize>,
    /// The `make: Leaving directory …/selftests/<test_dir>'` pattern.
    leaving: Regex,
    mqueue_test: Option<String>,
    mqueue_io: Option<String>,
    mqueue_speed: ruby::Hash<i64>,
    vmalloc: Vec<(String, Tmp)>,
}

/// lkp's `Leaving directory` pattern with the test directory in it, read as a Ruby pattern.
fn leaving(test_dir: Option<&str>) -> Result<Regex, String> {
    let src = format!(r"make(?:\[1\])?: Leaving directory .*/tools/testing/selftests/{}'", test_dir.unwrap_or(""));
    translate(&src, false)
        .and_then(|p| Regex::new(&p).map_err(|e| e.to_string()))
        .map_err(|e| format!("the test directory {test_dir:?} is not a pattern schedlab can read as Ruby does: {e}"))
}

impl Stater {
    fn new(kind: Kind, test_dir: Option<&str>, test_script: Option<&str>) -> Result<Stater, String> {
        let first = [test_dir, test_script].into_iter().flatten().collect::<Vec<_>>().join(".");
        Ok(Stater {
            kind,
            test_dir: test_dir.map(str::to_string),
            test_script: test_script.map(str::to_string),
            test_level: 0,
            tests: HashMap::from([(0, vec![Some(first)])]),
            order: vec![0],
            leaving: leaving(test_dir)?,
            mqueue_test: None,
            mqueue_io: None,
            mqueue_speed: ruby::Hash::default(),
            vmalloc: Vec::new(),
        })
    }

    /// `curr_test.parts` (the level's entry made when first used).
    fn curr_test(&mut self) -> &mut Vec<Option<String>> {
        let level = self.test_level;
        let order = &mut self.order;
        self.tests.entry(level).or_insert_with(|| {
            order.push(level);
            Vec::new()
        })
    }

    fn set_parts(&mut self, parts: Vec<Option<String>>) {
        *self.curr_test() = parts;
    }

    /// `curr_test.parts[i] = v` (Ruby fills the gap with nil).
    fn set_part(&mut self, i: usize, v: &str) {
        let parts = self.curr_test();
        if parts.len() <= i {
            parts.resize(i + 1, None);
        }
        if let Some(slot) = parts.get_mut(i) {
            *slot = Some(v.to_string());
        }
    }

    /// `test_prefix`: the parts of the first `test_level` levels used.
    fn test_prefix(&self) -> String {
        let parts = self
            .order
            .iter()
            .take(self.test_level)
            .filter_map(|l| self.tests.get(l))
            .flat_map(|p| p.iter().map(Option::as_deref));
        test_name(parts)
    }

    fn make_result(&self, stats: &mut Stats, result: &str) -> Result<(), String> {
        stats.add(&test_name([self.test_dir.as_deref(), Some("make")]), result, true)
    }

    /// `add_test_result`: `skip` when the test's text says `# SKIP`.
    fn add_test_result(stats: &mut Stats, test_parts: &str, result: &str, name: &str) -> Result<(), String> {
        let result = if patterns().skip_mark.is_match(test_parts) { "skip" } else { result };
        stats.add(name, result, true)
    }

    fn parse_tap_0(&self, stats: &mut Stats, c: &Captures) -> Result<(), String> {
        let p = patterns();
        let parts = group(c, "test_parts");
        let t = parts.replacen(": ", ".", 1);
        let t = p.tap0_comment.replacen(&t, 1, "");
        Self::add_test_result(stats, parts, group(c, "result"), &test_name([Some(t.as_ref())]))
    }

    /// `parse_test_result`: the current test's parts and the line's, fixed up by the
    /// stater, after the prefix of the levels above.
    fn parse_test_result(&mut self, stats: &mut Stats, c: &Captures) -> Result<(), String> {
        let test_parts = group(c, "test_parts");
        let mut parts = self.curr_test().clone();
        // Ruby's String#split('# SKIP'): trailing empty fields dropped
        let mut split: Vec<&str> = test_parts.split("# SKIP").collect();
        while split.last().is_some_and(|s| s.is_empty()) {
            split.pop();
        }
        parts.extend(split.into_iter().map(|s| Some(s.to_string())));
        let parts = self.fixup_test_parts(parts)?;
        let prefix = self.test_prefix();
        let name = test_name(std::iter::once(Some(prefix.as_str())).chain(parts.iter().map(|s| Some(s.as_str()))));
        Self::add_test_result(stats, test_parts, group(c, "result"), &name)
    }

    /// `fixup_test_parts` of the stater, then `Stater#fixup_test_parts` (nil parts
    /// dropped, `TEST: ` and trailing dots removed).
    fn fixup_test_parts(&self, parts: Vec<Option<String>>) -> Result<Vec<String>, String> {
        let p = patterns();
        let nil = || "undefined method for nil (a test part lkp's stater cannot fix up)".to_string();
        let sub = |parts: Vec<Option<String>>, f: &dyn Fn(&str) -> String| -> Result<Vec<Option<String>>, String> {
            parts.into_iter().map(|part| part.map(|s| f(&s)).ok_or_else(nil).map(Some)).collect()
        };
        let parts: Vec<Option<String>> = match self.kind {
            k if k.is_net() => parts
                .into_iter()
                .map(|part| {
                    let s = part?;
                    if s == "fdb get tests: iproute2 too old" {
                        Some("bridge_fdb_get".to_string())
                    } else if p.net_ifalias.is_match(&s) {
                        Some("set ifalias for test-dummy0".to_string())
                    } else if p.net_no_tls.is_match(&s) {
                        None
                    } else if p.net_ns.is_match(&s) {
                        Some(p.net_ns_sub.replace_all(&s, " ${1}").into_owned())
                    } else if p.net_secs.is_match(&s) {
                        Some(p.net_secs_sub.replacen(&s, 1, "").into_owned())
                    } else {
                        Some(s)
                    }
                })
                .collect(),
            Kind::Mptcp => sub(parts, &|s| p.mptcp_time.replacen(s, 1, "").into_owned())?,
            Kind::Timens => sub(parts, &|s| p.timens_passed.replacen(s, 1, "").into_owned())?,
            Kind::Pidfd => sub(parts, &|s| p.pidfd_passed.replacen(s, 1, "").into_owned())?,
            Kind::Sgx => parts.into_iter().take(1).collect(),
            Kind::Capabilities => parts
                .into_iter()
                .filter(|part| !part.as_deref().is_some_and(|s| p.capabilities_passed.is_match(s)))
                .collect(),
            Kind::Bpf => sub(parts, &|s| s.replacen(" ...", "", 1))?,
            Kind::Sync => sub(parts, &|s| p.sync_run.replacen(s, 1, "").into_owned())?,
            _ => parts,
        };
        Ok(parts
            .into_iter()
            .flatten()
            .map(|s| {
                let s = p.fix_test.replacen(&s, 1, "");
                p.fix_dots.replacen(&s, 1, "").into_owned()
            })
            .collect())
    }

    /// `Stater#stat`.
    fn base_stat(&mut self, line: &str, stats: &mut Stats) -> Result<(), String> {
        let p = patterns();
        if p.tap.is_match(line) {
            self.test_level = count_leading_hashes(line);
            return self.make_result(stats, "pass");
        }
        if p.selftests.is_match(line) {
            if self.test_level != 0 {
                return Err(format!("ASSERT fail: logic error: test_level {} not equal 0", self.test_level));
            }
            self.test_level = 1;
            return Ok(());
        }
        if let Some(c) = p.level0.captures(line) {
            self.test_level = 0;
            return self.parse_tap_0(stats, &c);
        }
        if let Some(c) = p.level_n.captures(line) {
            self.test_level = count_leading_hashes(line);
            return self.parse_test_result(stats, &c);
        }
        if let Some(c) = p.results.iter().find_map(|re| re.captures(line)) {
            return self.parse_test_result(stats, &c);
        }
        if let Some(c) = p.names.iter().find_map(|re| re.captures(line)) {
            let name = test_name([nth(&c, 1), nth(&c, 2)]);
            self.set_parts(vec![Some(name)]);
            return Ok(());
        }
        if p.make_fail.iter().any(|re| re.is_match(line)) {
            return self.make_result(stats, "fail");
        }
        if self.leaving.is_match(line) {
            self.test_dir = None;
            self.test_script = None;
            self.test_level = 0;
            self.tests.clear();
            self.order.clear();
            self.leaving = leaving(None)?;
        }
        Ok(())
    }

    /// The stater's `stat`: its own cases first, then `super`.
    fn stat(&mut self, line: &str, stats: &mut Stats) -> Result<(), String> {
        let p = patterns();
        let kind = self.kind;
        match kind {
            Kind::Signal if p.signal.iter().any(|re| re.is_match(line)) => return Ok(()),
            Kind::Breakpoints if p.breakpoints.is_match(line) => return Ok(()),
            k if k.is_net() => return self.net_stat(line, stats),
            Kind::Vdso => {
                if let Some(c) = p.vdso.captures(line) {
                    return self.parse_test_result(stats, &c);
                }
            }
            Kind::Mm => {
                if let Some(c) = p.mm_running.captures(line) {
                    let name = p.mm_dot_slash.replacen(nth(&c, 1).unwrap_or(""), 1, "").into_owned();
                    self.set_parts(vec![Some(name)]);
                    return Ok(());
                }
                if let Some(c) = p.mm_bracket.captures(line) {
                    self.parse_test_result(stats, &c)?;
                    self.curr_test().clear();
                    return Ok(());
                }
                if let Some(c) = p.mm_mmap.captures(line) {
                    return self.parse_test_result(stats, &c);
                }
            }
            Kind::Mount => {
                let dir = self.test_dir.clone().unwrap_or_default();
                if p.mount_skip.is_match(line) {
                    return stats.add(&dir, "skip", false);
                }
                if p.mount_fail.is_match(line) {
                    return stats.add(&dir, "fail", false);
                }
            }
            Kind::Futex => {
                if let Some(c) = p.futex_args.captures(line) {
                    self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
                    return Ok(());
                }
                self.base_stat(line, stats)?;
                if p.level_n.is_match(line) {
                    self.curr_test().clear();
                }
                return Ok(());
            }
            Kind::Mptcp => {
                if let Some(c) = p.mptcp_result.captures(line) {
                    return self.parse_test_result(stats, &c);
                }
                if p.mptcp_ignore.is_match(line) {
                    return Ok(());
                }
            }
            Kind::Timens if p.timens_skip.is_match(line) => return Ok(()),
            Kind::Dma => {
                if let Some(c) = p.dma_average.captures(line) {
                    let what = nth(&c, 1).unwrap_or("");
                    let prefix = self.test_prefix();
                    let mean = float_to_s(to_f(nth(&c, 2).unwrap_or("")));
                    let sd = float_to_s(to_f(nth(&c, 3).unwrap_or("")));
                    let name = |suffix: &str| test_name([Some(prefix.as_str()), Some(suffix)]);
                    stats.add_number(&name(&format!("average_{what}_latency")), &mean, false)?;
                    return stats.add_number(&name(&format!("average_{what}_latency_stddev")), &sd, false);
                }
            }
            Kind::Capabilities => {
                if let Some(c) = p.capabilities_uid.captures(line) {
                    self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
                    return Ok(());
                }
                if let Some(c) = p.capabilities_run.captures(line) {
                    self.set_part(1, nth(&c, 1).unwrap_or(""));
                    return Ok(());
                }
            }
            Kind::Kmod => {
                if let Some(c) = p.kmod.captures(line) {
                    return self.parse_test_result(stats, &c);
                }
            }
            Kind::Mqueue => return self.mqueue_stat(line, stats),
            Kind::Bpf => {
                if let Some(c) = p.bpf_results.iter().find_map(|re| re.captures(line)) {
                    return self.parse_test_result(stats, &c);
                }
                if let Some(c) = p.bpf_starting.captures(line) {
                    self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
                    return Ok(());
                }
            }
            Kind::Vmalloc => return self.vmalloc_stat(line, stats),
            _ => {}
        }
        self.base_stat(line, stats)
    }

    /// `NetStater#stat` and its subclasses' cases.
    fn net_stat(&mut self, line: &str, stats: &mut Stats) -> Result<(), String> {
        let p = patterns();
        match self.kind {
            Kind::NetVeth if p.veth_ignore.is_match(line) => return Ok(()),
            Kind::NetUdpgso => {
                if let Some(c) = p.udpgso_section.captures(line) {
                    self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
                    return Ok(());
                }
                if p.udpgso_ignore.is_match(line) {
                    return Ok(());
                }
            }
            Kind::Netfilter => {
                if let Some(c) = p.netfilter_test.captures(line) {
                    self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
                    return Ok(());
                }
            }
            _ => {}
        }
        if let Some(c) = p.net_results.iter().find_map(|re| re.captures(line)) {
            return self.parse_test_result(stats, &c);
        }
        if let Some(c) = p.net_sections.iter().find_map(|re| re.captures(line)) {
            self.set_parts(vec![nth(&c, 1).map(str::to_string)]);
            return Ok(());
        }
        if let Some(c) = p.net_subsection.captures(line) {
            self.curr_test().push(nth(&c, 1).map(str::to_string));
            return Ok(());
        }
        if let Some(c) = p.net_part1.iter().find_map(|re| re.captures(line)) {
            self.set_part(1, nth(&c, 1).unwrap_or(""));
            return Ok(());
        }
        if let Some(c) = p.net_sysctl.captures(line) {
            self.set_part(2, nth(&c, 1).unwrap_or(""));
            return Ok(());
        }
        self.base_stat(line, stats)
    }

    /// `MqueueStater#stat`: the nanoseconds per message of each test and direction,
    /// their mean (truncated) when make leaves mqueue.
    fn mqueue_stat(&mut self, line: &str, stats: &mut Stats) -> Result<(), String> {
        let p = patterns();
        if let Some(c) = p.mqueue_test.captures(line) {
            self.mqueue_test = nth(&c, 1).map(str::to_string);
        } else if let Some(c) = p.mqueue_io.captures(line) {
            self.mqueue_io = nth(&c, 1).map(str::to_string);
        } else if let Some(c) = p.mqueue_speed.captures(line) {
            let digits = nth(&c, 1).unwrap_or("");
            let n: i64 = digits.parse().map_err(|_| format!("{digits} nsec/msg is beyond 64-bit integers"))?;
            let key =
                format!("{}.{}", self.mqueue_test.as_deref().unwrap_or(""), self.mqueue_io.as_deref().unwrap_or(""));
            self.mqueue_speed.set(&key, n);
        } else if p.mqueue_leaving.is_match(line) {
            if !self.mqueue_speed.is_empty() {
                // Array#average: the exact Integer sum over a Float count, then to_i
                let values: Vec<i64> = self.mqueue_speed.iter().map(|(_, v)| *v).collect();
                let sum: i128 = values.iter().map(|&v| i128::from(v)).sum();
                let mean = (sum as f64 / values.len() as f64).trunc();
                let name = test_name([self.test_dir.as_deref(), Some("nsec_per_msg")]);
                stats.add_number(&name, &format!("{mean:.0}"), false)?;
            }
        } else {
            return self.base_stat(line, stats);
        }
        Ok(())
    }

    /// `VmallocStater#stat`: each summary's result (and µs per loop when it passed),
    /// added under the worker when `All test took` ends the run.
    fn vmalloc_stat(&mut self, line: &str, stats: &mut Stats) -> Result<(), String> {
        let p = patterns();
        let dir = self.test_dir.clone();
        if p.vmalloc_done.is_match(line) {
            return stats.add(dir.as_deref().unwrap_or(""), "pass", false);
        }
        if let Some(c) = p.vmalloc_summary.captures(line) {
            let test = nth(&c, 1).unwrap_or("");
            let mut result = "fail";
            if ruby::to_i(nth(&c, 3).unwrap_or("")) == 0 {
                let usec = ruby::to_i(nth(&c, 6).unwrap_or(""));
                set_tmp(&mut self.vmalloc, &format!("{test}.usec_per_loop"), Tmp::Usec(usec));
                result = "pass";
            }
            set_tmp(&mut self.vmalloc, test, Tmp::Result(result));
            return Ok(());
        }
        if let Some(c) = p.vmalloc_took.captures(line) {
            if self.vmalloc.is_empty() {
                return Err(format!("unexpected summary: {}: {line}", dir.as_deref().unwrap_or("")));
            }
            let worker = nth(&c, 1);
            for (key, value) in std::mem::take(&mut self.vmalloc) {
                let name = test_name([dir.as_deref(), worker, Some(key.as_str())]);
                match value {
                    Tmp::Result(r) => stats.add(&name, r, false)?,
                    Tmp::Usec(n) => stats.add_number(&name, &n.to_string(), false)?,
                }
            }
            return Ok(());
        }
        self.base_stat(line, stats)
    }
}

/// `@tmp_stats[key] = value` (a key set again keeps its place).
fn set_tmp(t: &mut Vec<(String, Tmp)>, key: &str, v: Tmp) {
    match t.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = v,
        None => t.push((key.to_string(), v)),
    }
}

/// `count_leading_hashes`: the `# ` marks that start the line.
fn count_leading_hashes(line: &str) -> usize {
    patterns().leading_hashes.find(line).map_or(0, |m| m.as_str().len() / 2)
}

/// Parse the kselftests output `text` (`path` names it in errors: lkp's Ruby raises on
/// a case added twice where the stater does not overwrite, and on a test directory
/// line inside a running test).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut stats = Stats::default();
    let mut stater: Option<Stater> = None;
    for (i, raw) in ruby::lines(text).enumerate() {
        let line = ruby::chomp(raw);
        let made = if let Some(c) = p.net_special.captures(line) {
            let script = nth(&c, 1).unwrap_or("");
            let kind = if script == "veth" { Kind::NetVeth } else { Kind::NetUdpgso };
            Some(Stater::new(kind, Some("net"), Some(&format!("{script}.sh"))))
        } else if let Some(c) = p.net_sub.captures(line) {
            let kind = Kind::of(nth(&c, 2).unwrap_or(""));
            Some(Stater::new(kind, nth(&c, 1), nth(&c, 3)))
        } else if let Some(c) = p.selftests.captures(line).or_else(|| p.entering.captures(line)) {
            let dir = nth(&c, 1).unwrap_or("");
            Some(Stater::new(Kind::of(dir), Some(dir), nth(&c, 2)))
        } else if let Some(c) = p.vmalloc_run.captures(line) {
            let dir = format!("mm.test_vmalloc.sh.{}", nth(&c, 1).unwrap_or(""));
            Some(Stater::new(Kind::Vmalloc, Some(&dir), None))
        } else {
            None
        };
        if let Some(made) = made {
            stater = Some(made.map_err(|e| bad_line(path, i + 1, e))?);
        }
        if let Some(s) = stater.as_mut() {
            s.stat(line, &mut stats).map_err(|e| bad_line(path, i + 1, e))?;
        }
    }
    Ok(stats.dump(&[("ok", "pass"), ("not_ok", "fail"), ("skipping", "skip")]))
}

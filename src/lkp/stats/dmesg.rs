//! The kernel log parsers of lkp-tests, programs/dmesg/parse and programs/kmsg/parse
//! (one script, told apart by its name) with lib/dmesg.rb (docs/lkp-stats.md §6).
//!
//! - dmesg: the oopses and warnings of a serial console log (or of kmsg when there is
//!   none): `boot_failures: 1`, then per error id `<id>: 1` with its `message:`,
//!   `pattern:` and `timestamp:` lines, and `timestamp:last`.
//! - kmsg: the messages of level err and above of /dev/kmsg (and sanitizer reports),
//!   with the same per error id lines, after the kernel's boot-time self-tests
//!   (`of-unittest.*`, `Testing …: OK`) when the run is a boot test on a VM.
//!
//! lkp greps the log with etc/oops-pattern, etc/oops-pattern-ignore and
//! etc/kmsg-denylist.raw (copied in `etc/`); the greps are done here line by line with
//! the same patterns.

use super::error_id::analyze_error_id;
use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, chomp, re as rre};
use super::ruby_regex::{is_print, translate};
use crate::error::Result;
use regex::Regex;
use std::sync::OnceLock;

const OOPS_PATTERN: &str = include_str!("etc/oops-pattern");
const OOPS_PATTERN_IGNORE: &str = include_str!("etc/oops-pattern-ignore");
const KMSG_DENYLIST: &str = include_str!("etc/kmsg-denylist.raw");

/// What GNU grep writes to a pipe at once (its stdout buffer, a pipe's block size).
const PIPE_WRITE: usize = 4096;

/// Which of the two programs of the script runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// programs/dmesg/parse.
    Dmesg,
    /// programs/kmsg/parse.
    Kmsg,
}

/// What the script reads of its run besides the log: `RESULT_ROOT` (the run
/// directory's path) and the run's `last_state` file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Run<'a> {
    /// The run directory as lkp names it (`…/boot/1/vm-…/…`), if known.
    pub result_root: Option<&'a str>,
    /// The text of `RESULT_ROOT/last_state`, if the file exists.
    pub last_state: Option<&'a str>,
}

/// The lines of the file (a line of the iterator may lack its `\n`), as Ruby's
/// `each_line`.
fn each_line(s: &str) -> impl Iterator<Item = &str> {
    s.split_inclusive('\n')
}

struct Fixup {
    kbuild: Regex,
    tmp_kbuild: Regex,
    suffix: Regex,
    keep: Regex,
    mixed: Regex,
}

/// `fixup_dmesg_file`: each line chomped, build paths and `.isra.N` suffixes removed,
/// and a line with a timestamp after other text broken before its last timestamp
/// (the two parts stay one element, joined by `\n`, as lkp keeps them).
fn fixup(text: &str) -> Vec<String> {
    static P: OnceLock<Fixup> = OnceLock::new();
    let p = P.get_or_init(|| Fixup {
        kbuild: rre(r"\/kbuild\/src\/[^\/]+\/"),
        tmp_kbuild: rre(r"\/tmp\/kbuild\/src\/[^\/]+\/"),
        suffix: rre(r"\.(isra|constprop|part)\.[0-9]+\+0x"),
        keep: rre(r"^<[0-9]>|^(kern  |user  |daemon):......: "),
        mixed: rre(r"(.+)(\[ *[0-9]{1,6}\.[0-9]{6}\] .*)"),
    });
    each_line(text)
        .map(|raw| {
            let l = p.kbuild.replacen(chomp(raw), 1, "");
            let l = p.tmp_kbuild.replacen(&l, 1, "");
            let l = p.suffix.replacen(&l, 1, "+0x").into_owned();
            if p.keep.is_match(&l) {
                return l;
            }
            match p.mixed.captures(&l) {
                Some(c) => format!("{}\n{}", group(&c, 1), group(&c, 2)),
                None => l,
            }
        })
        .collect()
}

fn group<'t>(c: &regex::Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

/// The lines of a pattern file as `grep -f` reads them.
fn pattern_lines(file: &str) -> Vec<&str> {
    super::ruby::split_on(file, '\n')
}

struct Oops {
    /// `LKP::OopsPattern.instance.regexp`: `(p1|p2|…)` of etc/oops-pattern, which also
    /// serves as `grep -E -f etc/oops-pattern` (the same patterns, read the same way).
    regexp: Regex,
    ignore: Regex,
    oom: Regex,
    calltrace: Regex,
    calltrace_ignore: Regex,
    function: Regex,
    lockdep: Regex,
    lock_context: Regex,
    timestamp_prefix: Regex,
    caller_stamp: Regex,
    hexdump: [Regex; 3],
    last_stamp: Regex,
}

fn union(file: &str) -> Regex {
    let lines = pattern_lines(file);
    let alts: Vec<String> = lines
        .iter()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            // the pattern files are constants: a line that does not translate is a bug
            translate(l, false)
                .map(|t| t.trim_start_matches("(?m)").to_string())
                .unwrap_or_else(|e| panic!("schedlab bug: etc pattern {l}: {e}"))
        })
        .collect();
    Regex::new(&format!("(?m)({})", alts.join("|"))).unwrap_or_else(|e| panic!("schedlab bug: etc patterns: {e}"))
}

fn oops() -> &'static Oops {
    static P: OnceLock<Oops> = OnceLock::new();
    P.get_or_init(|| {
        let context = "do_one_initcall|do_basic_setup|kernel_init_freeable|kernel_init|kthread|kernel_thread|\
                       process_one_work|notifier_call_chain";
        Oops {
            regexp: union(OOPS_PATTERN),
            ignore: union(OOPS_PATTERN_IGNORE),
            oom: rre(r"invoked oom-killer: gfp_mask=|Out of memory and no killable processes..."),
            calltrace: rre(&format!(r"({context}|SyS_[a-z0-9_]+)\+0x")),
            calltrace_ignore: rre(&format!(r"({context}|worker_thread|warn_slowpath_.*)\+0x")),
            function: rre(r">\] ([a-zA-Z0-9_.]+)\+0x[0-9a-fx\/]+"),
            lockdep: rre(r"(possible recursive locking detected|possible circular locking dependency detected)"),
            lock_context: rre(r"trying to acquire lock|already holding lock|at: "),
            timestamp_prefix: rre(r"^\[.*\] "),
            caller_stamp: rre(r"^(<[0-9]+>|....  :......: )?\[ *(\d{1,6}\.\d{6})\]( |\[)"),
            hexdump: [
                rre(r"(\s[0-9a-f]{2}){16}"),
                rre(r"\[ *(\d{1,6}\.\d{6})\]\s*(\s[0-9a-f]{4}){8}$"),
                rre(r"\[ *(\d{1,6}\.\d{6})\]\s*(\s[0-9a-f]{8}){4}$"),
            ],
            last_stamp: rre(r"^(<[0-9]+>|....  :..... : )?\[ *(\d{1,6}\.\d{6})\]( |\[)"),
        }
    })
}

/// `concat_context_from_dmesg`: after a lockdep report's first line, the line again
/// with the first four `trying to acquire lock` / `already holding lock` / `at: `
/// lines of the 30 after it (each copy of the line in the file), each cut to its
/// last ` at:` and without its timestamp. lkp runs `grep -A30 -Fx "<line>"` through
/// bash: a line with `"`, `$`, `` ` `` or `\` would be changed by the shell, so such
/// a line is an error (`ln`: its line in the log).
fn concat_context(file: &[&str], line: &str, path: &str) -> Result<Vec<String>> {
    let p = oops();
    if !p.lockdep.is_match(line) {
        return Ok(vec![line.to_string()]);
    }
    let want = chomp(line);
    if want.contains(['"', '$', '`', '\\']) {
        let ln = file.iter().position(|l| *l == want).map_or(1, |i| i + 1);
        return Err(bad_line(
            path,
            ln,
            "a lockdep report line with a shell metacharacter (\" $ ` \\), which lkp's grep command would mangle",
        ));
    }
    // `grep -A30 -Fx` reads the log without -a
    if let Some(i) = file.iter().position(|l| l.contains('\0')) {
        return Err(bad_line(path, i + 1, binary("a log with a lockdep report")));
    }
    let mut shown = vec![false; file.len()];
    for (i, l) in file.iter().enumerate() {
        if *l == want {
            for s in shown.iter_mut().skip(i).take(31) {
                *s = true;
            }
        }
    }
    let picked: Vec<String> = file
        .iter()
        .zip(&shown)
        .filter(|(l, s)| **s && p.lock_context.is_match(l))
        .take(4)
        .map(|(l, _)| match l.rfind(" at:") {
            Some(i) => format!("at:{}", l.get(i + 4..).unwrap_or("")),
            None => l.to_string(),
        })
        .collect();
    if picked.is_empty() {
        return Ok(vec![line.to_string()]);
    }
    let context: Vec<String> = picked.iter().map(|l| p.timestamp_prefix.replacen(l, 1, "").into_owned()).collect();
    Ok(vec![line.to_string(), format!("{want} {}", context.join(" "))])
}

/// `grep_crash_head`: the oopses and call traces of the (fixed-up) log, by the text
/// that matched etc/oops-pattern or `calltrace:<function>`, each with its line.
fn grep_crash_head(file: &[&str], path: &str) -> Result<ruby::Hash<String>> {
    let p = oops();
    let raw: Vec<&str> =
        file.iter().copied().filter(|l| (l.contains("+0x") || p.regexp.is_match(l)) && !p.ignore.is_match(l)).collect();
    let mut map = ruby::Hash::default();
    // lkp's second grep (`grep -v -E -f oops-pattern-ignore`, without -a) takes a NUL as
    // binary data and prints nothing from the read that holds it on. Up to one pipe
    // write (4096 bytes, what the first grep writes at once) it reads everything at
    // once and prints nothing; past that, what it prints depends on how the pipe filled.
    if raw.iter().any(|l| l.contains('\0')) {
        if raw.iter().map(|l| l.len() + 1).sum::<usize>() <= PIPE_WRITE {
            return Ok(map);
        }
        let i = file.iter().position(|l| l.contains('\0') && raw.contains(l)).unwrap_or(0);
        return Err(bad_line(path, i + 1, binary("an oops line")));
    }
    if raw.is_empty() {
        return Ok(map);
    }
    // bash's output, chomped, read again line by line: the last line has no "\n"
    let n = raw.len();
    let mut prev: Option<String> = None;
    let mut has_oom = false;
    let add_calltrace = |map: &mut ruby::Hash<String>, has_oom: bool, line: Option<&str>| {
        let Some(line) = line else { return };
        if has_oom || p.calltrace_ignore.is_match(line) {
            return;
        }
        if let Some(c) = p.function.captures(line) {
            map.set_once(&format!("calltrace:{}", group(&c, 1)), line.to_string());
        }
    };
    for (i, l) in raw.iter().enumerate() {
        let l = if i + 1 < n { format!("{l}\n") } else { l.to_string() };
        for line in concat_context(file, &l, path)? {
            if let Some(c) = p.regexp.captures(&line) {
                map.set_once(group(&c, 1), line.clone());
                has_oom |= p.oom.is_match(&line);
            } else if line.contains("+0x") {
                if line.contains(" ? ") {
                    continue;
                }
                if p.calltrace.is_match(&line) {
                    if !line.contains("SyS_") {
                        add_calltrace(&mut map, has_oom, prev.as_deref());
                    }
                    add_calltrace(&mut map, has_oom, Some(&line));
                    prev = None;
                } else {
                    prev = Some(line);
                }
            }
        }
    }
    Ok(map)
}

struct Printk {
    levels: Regex,
    color: Regex,
    denylist: Vec<&'static str>,
    runtime_error: Regex,
    leak: Regex,
    frame: Regex,
}

/// `grep_printk_errors` for a kmsg file: the lines of level err, crit, alert or emerg
/// and segfaults (colours removed) that are not oopses (dmesg's) or on
/// etc/kmsg-denylist.raw; `Kernel tests: Boot OK`; the sanitizers' runtime errors
/// and leak reports (`sanitizer.direct_leak/<frame 0>/…`).
fn grep_printk_errors(file: &[&str], path: &str) -> Result<String> {
    static P: OnceLock<Printk> = OnceLock::new();
    let p = P.get_or_init(|| Printk {
        levels: rre(r"segfault at|^<[0123]>|^kern  :(err   |crit  |alert |emerg ): "),
        color: rre(r"\x1b\[([0-9;]+m|[mK])"),
        denylist: pattern_lines(KMSG_DENYLIST),
        runtime_error: rre(r"[^ ]* runtime error:.*"),
        leak: rre(r"Direct leak of .*allocated from:|Indirect leak of .*allocated from:|#[0-5] 0x[0-9a-z]{12} in .*"),
        frame: rre(r"#[0-5] 0x[0-9a-z]{12} in "),
    });
    let oops = &oops().regexp;
    // the three greps after the first read the log without -a: with a NUL in it, what
    // they print depends on where grep's reads fall
    let nul = file.iter().position(|l| l.contains('\0'));
    let later = |l: &&&str| l.contains("Kernel tests: Boot OK") || p.runtime_error.is_match(l) || p.leak.is_match(l);
    if let (Some(i), true) = (nul, file.iter().any(|l| later(&l))) {
        return Err(bad_line(path, i + 1, binary("a kmsg log with boot, sanitizer or leak lines")));
    }
    let mut out = String::new();
    for l in file.iter().filter(|l| p.levels.is_match(l)) {
        let l = p.color.replace_all(l, "");
        if !oops.is_match(&l) && !p.denylist.iter().any(|d| l.contains(d)) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    for l in file.iter().filter(|l| l.contains("Kernel tests: Boot OK")) {
        out.push_str(l);
        out.push('\n');
    }
    for l in file {
        for m in p.runtime_error.find_iter(l) {
            out.push_str("sanitizer.");
            out.push_str(m.as_str());
            out.push('\n');
        }
    }
    // the leak pipeline: one item a match, headers to "|sanitizer.*", frames to their
    // function (awk's first field), all joined by '/', each '|' a new line, a trailing
    // '/' cut from each line
    let mut joined = String::new();
    for l in file {
        for m in p.leak.find_iter(l) {
            let item = m.as_str();
            let item = if item.starts_with("Indirect leak") {
                "|sanitizer.indirect_leak".to_string()
            } else if item.starts_with("Direct leak") {
                "|sanitizer.direct_leak".to_string()
            } else {
                p.frame.replace_all(item, "").into_owned()
            };
            joined.push_str(item.split([' ', '\t']).find(|f| !f.is_empty()).unwrap_or(""));
            joined.push('/');
        }
    }
    let joined = joined.replace('|', "\n");
    let cut: Vec<&str> = joined.split('\n').map(|l| l.strip_suffix('/').unwrap_or(l)).collect();
    out.push_str(&cut.join("\n"));
    // Bash.run's output is chomped
    Ok(chomp(&out).to_string())
}

/// The error of a NUL byte where lkp's grep (without -a) would read it as binary data.
fn binary(what: &str) -> String {
    format!(
        "a NUL byte in {what}: lkp's grep takes the input as binary and prints only what it read before, \
         which schedlab cannot know"
    )
}

struct Unittest {
    dt: Regex,
    tracer: Regex,
    ok: Regex,
    ftrace_filter: Regex,
    passed: Regex,
    tests_passed: Regex,
    meminit: Regex,
    end: Regex,
}

/// `stat_unittest`: the kernel's boot-time self-tests in the log, until the boot ends.
fn stat_unittest(lines: &[String], path: &str) -> Result<String> {
    static P: OnceLock<Unittest> = OnceLock::new();
    let p = P.get_or_init(|| Unittest {
        dt: rre(r"(?i)### dt-test ### (pass|fail) (.+)"),
        tracer: rre(r"Running tests again, along with the function tracer"),
        ok: rre(r"Testing (.+): OK"),
        ftrace_filter: rre(r"Testing ftrace filter: OK"),
        passed: rre(r"Testing (.+): (PASSED)"),
        tests_passed: rre(r"(\w+):\s.+\d+ tests passed"),
        meminit: rre(r"test_meminit: all \d+ tests in (test_.+) (passed)"),
        end: rre(r"Kernel tests: Boot OK|run-job \/lkp"),
    });
    let mut stats = Stats::default();
    let mut tracer: Option<&str> = None;
    // a line of `lines` may hold two lines of the file (see `fixup`)
    let ln_of = |i: usize| lines.iter().take(i).map(|l| l.matches('\n').count() + 1).sum::<usize>() + 1;
    for (i, line) in lines.iter().enumerate() {
        let added = if let Some(c) = p.dt.captures(line) {
            stats.add(&format!("of-unittest.{}", group(&c, 2)), group(&c, 1), true)
        } else if p.tracer.is_match(line) {
            tracer = Some("function tracer");
            Ok(())
        } else if let Some(c) = p.ok.captures(line) {
            let case = match tracer {
                Some(t) => format!("{t}.{}", group(&c, 1)),
                None => group(&c, 1).to_string(),
            };
            let r = stats.add(&case, "pass", false);
            if p.ftrace_filter.is_match(line) {
                tracer = None;
            }
            r
        } else if let Some(c) = p.passed.captures(line) {
            stats.add(group(&c, 1), "pass", false)
        } else if let Some(c) = p.tests_passed.captures(line) {
            stats.add(&ruby::downcase(group(&c, 1)), "pass", false)
        } else if let Some(c) = p.meminit.captures(line) {
            stats.add(&format!("test_meminit.{}", group(&c, 1)), "pass", false)
        } else if p.end.is_match(line) {
            break;
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, ln_of(i), e))?;
    }
    Ok(stats.dump(&[("ok", "pass")]))
}

/// Whether lkp ignores the log of an lkdtm run (`ignore_lkdtm_dmesg?`): a run of the
/// kselftests' lkdtm tests that completed (its last_state missing or without
/// `is_incomplete_run: 1`).
fn ignore_lkdtm(run: &Run) -> bool {
    let Some(root) = run.result_root else { return false };
    if !format!("{root}/last_state").contains("/kselftests/lkdtm") {
        return false;
    }
    run.last_state.is_none_or(|s| !s.lines().any(|l| l.starts_with("is_incomplete_run: 1")))
}

/// `line =~ /[^\t\n\0[:print:]]/`: a character neither printable nor tab, newline or NUL.
fn has_unprintable(s: &str) -> bool {
    s.chars().any(|c| !matches!(c, '\t' | '\n' | '\0') && !is_print(c))
}

/// Parse the log `text` as `program` (`path` names it in errors; `run` is what the
/// script reads of its run directory). lkp's own errors (a self-test reported twice,
/// `cpu clock throttled`) are parse errors naming the line.
pub fn parse(program: Program, text: &str, path: &str, run: &Run) -> Result<String> {
    if text.is_empty() {
        return Ok(String::new());
    }
    let lines = fixup(text);
    let fixed: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let file: Vec<&str> = super::ruby::split_on(&fixed, '\n');
    let p = oops();
    let oops_map = match program {
        Program::Dmesg => grep_crash_head(&file, path)?,
        Program::Kmsg => {
            let mut map = ruby::Hash::default();
            if !run.result_root.is_some_and(|r| r.contains("/trinity/")) {
                let output = grep_printk_errors(&file, path)?;
                for l in each_line(&output) {
                    map.set_once(l, l.to_string());
                }
            }
            map
        }
    };
    let mut stamps = ruby::Hash::default();
    if let Some(c) = lines.iter().rev().find_map(|l| p.last_stamp.captures(l)) {
        stamps.set_once("last", group(&c, 2).to_string());
    }
    let mut out = String::new();
    if ignore_lkdtm(run) {
        put_stamps(&stamps, &mut out);
        return Ok(out);
    }
    if program == Program::Kmsg && run.result_root.is_some_and(|r| rre(r"\/boot\/.+\/vm-").is_match(r)) {
        out.push_str(&stat_unittest(&lines, path)?);
    }
    let mut ids = ruby::Hash::default();
    let mut id_lines = ruby::Hash::default();
    for (bisect_key, line) in oops_map.iter() {
        let line = chomp(line);
        let stamp = p.caller_stamp.captures(line).map(|c| group(&c, 2).to_string());
        if line.contains("cpu clock throttled") {
            let ln = file.iter().position(|l| chomp(l) == line).map_or(1, |i| i + 1);
            return Err(bad_line(path, ln, "cpu clock throttled: lkp does not parse this log"));
        }
        if line.contains("trinity")
            && ["invoked oom-killer:", "page allocation stalls for", "tried to map"].iter().any(|s| line.contains(s))
        {
            break;
        }
        if p.hexdump.iter().any(|re| re.is_match(line)) || has_unprintable(line) {
            continue;
        }
        let line = line.replace('\0', "");
        let (id, bisect) = analyze_error_id(bisect_key);
        if id.chars().count() <= 3 || bisect.is_empty() {
            continue;
        }
        ids.set_once(&id, bisect);
        id_lines.set_once(&id, line);
        if let Some(s) = stamp {
            stamps.set_once(&id, s);
        }
    }
    if program == Program::Dmesg && !ids.is_empty() {
        out.push_str("boot_failures: 1\n");
    }
    for (id, bisect) in ids.iter() {
        let line = id_lines.get(id).map_or("", String::as_str);
        out.push('\n');
        ruby::puts(&mut out, &format!("# {bisect}"));
        ruby::puts(&mut out, &format!("{id}: 1"));
        ruby::puts(&mut out, &format!("message:{id}: {line}"));
        ruby::puts(&mut out, &format!("pattern:{id}: {bisect}"));
    }
    put_stamps(&stamps, &mut out);
    Ok(out)
}

/// `put_dmesg_stamps`: an empty line, then `timestamp:<id>: <seconds>` each.
fn put_stamps(stamps: &ruby::Hash<String>, out: &mut String) {
    out.push('\n');
    for (id, s) in stamps.iter() {
        out.push_str(&format!("timestamp:{id}: {s}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throttled_cpu_is_an_error() {
        // lkp's Ruby: "ERROR -- cpu clock throttled, skip to parse dmesg/kmsg", exit 1
        let text = "[    1.000000] CPU0: Core temperature above threshold, cpu clock throttled (total events = 1)\n\
                    [    2.000000] BUG: unable to handle kernel NULL pointer\n";
        let e = parse(Program::Dmesg, text, "d", &Run::default()).unwrap_err().to_string();
        assert!(e.starts_with("d:1:") && e.contains("cpu clock throttled"), "{e}");
    }

    #[test]
    fn a_nul_where_lkp_greps_without_a_is_an_error() {
        // lkp-tests' second grep reads a NUL as binary data: GNU grep 3.8 then prints nothing
        // for this short log (lkp's output: "\ntimestamp:last: 2.000000\n"), and what it
        // prints for a long one depends on its reads
        let text = "[    1.000000] ok\n[    2.000000] BUG: unable to handle kernel \0 NULL pointer\n";
        assert_eq!(parse(Program::Dmesg, text, "d", &Run::default()).unwrap(), "\ntimestamp:last: 2.000000\n");
        let long: String = (0..100).map(|i| format!("[    1.{i:06}] BUG: unable to handle kernel {i}\0\n")).collect();
        let e = parse(Program::Dmesg, &long, "d", &Run::default()).unwrap_err().to_string();
        assert!(e.starts_with("d:1:") && e.contains("NUL"), "{e}");
        // a NUL in a line no grep selects changes nothing
        let text = "[    1.000000] o\0k\n[    2.000000] BUG: unable to handle kernel NULL pointer\n";
        assert!(parse(Program::Dmesg, text, "d", &Run::default()).unwrap().starts_with("boot_failures: 1\n"));
        let text = "<3>[    1.0] x\0y\n<6>[    2.0] Kernel tests: Boot OK\n";
        let e = parse(Program::Kmsg, text, "k", &Run::default()).unwrap_err().to_string();
        assert!(e.starts_with("k:1:") && e.contains("NUL"), "{e}");
    }

    #[test]
    fn a_completed_lkdtm_run_gives_only_the_last_timestamp() {
        // ignore_lkdtm_dmesg?: a RESULT_ROOT under /kselftests/lkdtm whose last_state has no
        // is_incomplete_run (lkp prints the empty line and timestamp:last only)
        let text = "[    2.000000] BUG: unable to handle kernel NULL pointer\n";
        let root = "/result/kselftests/lkdtm/vm/0";
        let run = Run { result_root: Some(root), last_state: None };
        assert_eq!(parse(Program::Dmesg, text, "d", &run).unwrap(), "\ntimestamp:last: 2.000000\n");
        let run = Run { result_root: Some(root), last_state: Some("is_incomplete_run: 1\n") };
        assert!(parse(Program::Dmesg, text, "d", &run).unwrap().starts_with("boot_failures: 1\n"));
    }
}

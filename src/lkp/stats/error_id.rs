//! The error ids of lkp-tests' lib/dmesg.rb: a kernel or stderr message turned into a
//! stable stat name (`WARNING:at_kernel/foo.c:#bar`) and the pattern a bisection
//! greps for (docs/lkp-stats.md §6). Used by the dmesg, kmsg and stderr parsers.

use super::ruby::{chomp, re as rre, split};
use regex::{Captures, Regex};
use std::sync::OnceLock;

/// lkp's etc/linux-device-names (the `"name%d"` device names of the kernel).
const LINUX_DEVICE_NAMES: &str = include_str!("etc/linux-device-names");

struct Common {
    version: Regex,
    date: Regex,
    hex: Regex,
    sha: Regex,
    number: Regex,
    hash_x: Regex,
    quote: Regex,
    tab: Regex,
    spaces: Regex,
    before_space: Regex,
    after_space: Regex,
    lead_space: Regex,
    tail: Regex,
}

fn common() -> &'static Common {
    static P: OnceLock<Common> = OnceLock::new();
    P.get_or_init(|| Common {
        version: rre(r"\b[3-9]\.[0-9]+[-a-z0-9.]+"),
        date: rre(r"\b[1-9][0-9]-[A-Z][a-z]+-[0-9]{4}\b"),
        hex: rre(r"\b0x[0-9a-f]+\b"),
        sha: rre(r"\b[a-f0-9]{40}\b"),
        number: rre(r"\b[0-9][0-9.]*"),
        hash_x: rre(r"#x\b"),
        quote: rre(r#"[\\"$]"#),
        tab: rre(r"[ \t]"),
        spaces: rre(r"\ \ +"),
        before_space: rre(r"([^a-zA-Z0-9])\ "),
        after_space: rre(r"\ ([^a-zA-Z])"),
        lead_space: rre(r"^\ "),
        tail: rre(r"[-_.,;:#!*\[(]+$"),
    })
}

/// `common_error_id`: versions, dates, hex numbers, SHA-1s and numbers to `#`,
/// `\"$` to `~`, spaces squeezed and dropped next to punctuation, the rest to `_`,
/// trailing punctuation removed.
pub fn common_error_id(line: &str) -> String {
    let p = common();
    let s = p.version.replace_all(chomp(line), "#");
    let s = p.date.replace_all(&s, "#");
    let s = p.hex.replace_all(&s, "#");
    let s = p.sha.replace_all(&s, "#");
    let s = p.number.replace_all(&s, "#");
    let s = p.hash_x.replace_all(&s, "0x");
    let s = p.quote.replace_all(&s, "~");
    let s = p.tab.replace_all(&s, " ");
    let s = p.spaces.replace_all(&s, " ");
    let s = p.before_space.replace_all(&s, "${1}");
    let s = p.after_space.replace_all(&s, "${1}");
    let s = p.lead_space.replace_all(&s, "");
    let s = s.replace("  _", "_").replace(' ', "_");
    p.tail.replace_all(&s, "").into_owned()
}

struct Bisect {
    func_suffix: Regex,
    func: Regex,
    assign: Regex,
    file_line: Regex,
    other: Regex,
}

/// `oops_to_bisect_pattern`: a regexp for the message, each word kept, cut at its
/// first function (`foo+0x`) or `name=`, `.*` for words with other characters. `None`
/// for a single word, which lkp returns as the very string given (see
/// [`analyze_error_id`]).
fn oops_to_bisect_pattern(line: &str) -> Option<String> {
    static P: OnceLock<Bisect> = OnceLock::new();
    let p = P.get_or_init(|| Bisect {
        func_suffix: rre(r"([a-zA-Z0-9_]+)\.(isra|constprop|part)\.[0-9]+\+0x"),
        func: rre(r"([a-zA-Z0-9_]+\+0x)"),
        assign: rre(r"([a-zA-Z0-9_]+=)"),
        file_line: rre(r"^([a-zA-Z\/._-]*):[0-9]"),
        other: rre(r"[^a-zA-Z\/:.()!_-]"),
    });
    let words = split(line);
    if words.len() == 1 {
        return None;
    }
    let mut patterns: Vec<String> = Vec::new();
    for w in words {
        let cut = [&p.func_suffix, &p.func, &p.assign].iter().find_map(|re| re.captures(w));
        if let Some(c) = cut {
            patterns.push(group(&c, 1).to_string());
            break;
        } else if let Some(c) = p.file_line.captures(w) {
            patterns.push(format!("{}:.*", group(&c, 1)));
        } else if p.other.is_match(w) {
            if patterns.last().map(String::as_str) != Some(".*") {
                patterns.push(".*".into());
            }
        } else {
            patterns.push(w.to_string());
        }
    }
    let lead = patterns.iter().take_while(|p| *p == ".*").count();
    patterns.drain(..lead);
    if patterns.last().map(String::as_str) == Some(".*") {
        patterns.pop();
    }
    Some(patterns.join(" "))
}

fn group<'t>(c: &Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

struct Known {
    simple: Vec<Regex>,
    composite: Vec<Regex>,
    warning: Regex,
    at: Regex,
    fn_suffix: Regex,
    one: Vec<Regex>,
    two: Vec<Regex>,
    trace: Vec<Regex>,
    low_memory: Regex,
    phys: Regex,
    equals: Regex,
    kobject: Regex,
    kobject_id: Regex,
    rss: Regex,
    pagetable: Regex,
    slab: Regex,
    end: Regex,
    segfault: Regex,
}

fn known() -> &'static Known {
    static P: OnceLock<Known> = OnceLock::new();
    P.get_or_init(|| Known {
        simple: [
            r"(INFO: rcu[_a-z]* self-detected stall on CPU)",
            r"(INFO: rcu[_a-z]* detected stalls on CPUs\/tasks:)",
            r"(related general protection fault:)",
            r"(BUG: using __this_cpu_read\(\) in preemptible)",
            r"(BUG: unable to handle kernel)",
            r"(BUG: unable to handle kernel) NULL pointer dereference",
            r"(BUG: unable to handle kernel) paging request",
            r"(BUG: workqueue leaked lock or atomic:)",
            r"(BUG: scheduling while atomic:)",
            r"(BUG: Bad page map in process)",
            r"(BUG: Bad page state in process)",
            r"(BUG: Bad page cache in process)",
            r"(BUG: soft lockup - CPU#\d+ stuck for \d+s!.*)",
            r"(BUG: spinlock .* on CPU#\d+)",
            r"(Out of memory: Kill process) \d+ \(",
            r"(Writer stall state \w*).+ g\d+ c\d+ f",
            r"(BUG: workqueue lockup - pool)",
            r"(rcu_sched kthread starved) for \d+ jiffies",
            r"(Could not create tracefs)",
            r"(used greatest stack depth:)",
            r"([A-Z]+[ a-zA-Z]*): [a-f0-9]{4} \[#[0-9]+\] ",
            r"(BUG: KASAN: [a-z\-_ ]+ in [a-z_]+)\+",
            r"(BUG: KFENCE: [a-z\-_ ]+ in [a-z_]+)\+",
            r"(cpu clock throttled)",
            r"(Kernel panic - not syncing: No working init found.)  Try passing init= option to kernel. ",
            r"(Kernel panic - not syncing: No init found.)  Try passing init= option to kernel. ",
        ]
        .into_iter()
        .map(rre)
        .collect(),
        composite: [r"(BUG: ).* (still has locks held)", r"(INFO: task ).* (blocked for more than \d+ seconds)"]
            .into_iter()
            .map(rre)
            .collect(),
        warning: rre(r"WARNING:.* at .* ([a-zA-Z.0-9_]+\+0x)"),
        at: rre(r"(at .*)"),
        fn_suffix: rre(r"\.(isra|constprop|part)\.[0-9]+\+0x"),
        one: [r"(UBSAN: .+)", r"(BUG: using smp_processor_id\(\) in preemptible)", r"^[0-9a-z]+>\] (.+)"]
            .into_iter()
            .map(rre)
            .collect(),
        two: [r"(BUG: key )[0-9a-f]+ (not in .data)", r"(BUG: Dentry ).* (still in use) .* \[unmount of "]
            .into_iter()
            .map(rre)
            .collect(),
        trace: [r"^backtrace:([a-zA-Z0-9_]+)", r"^calltrace:([a-zA-Z0-9_]+)"].into_iter().map(rre).collect(),
        low_memory: rre(r"Corrupted low memory at"),
        phys: rre(r"\b[0-9a-f]+\b phys"),
        equals: rre(r"= \b[0-9a-f]+\b"),
        kobject: rre(r"kobject \(([0-9a-f]+|\(_*ptrval_*\))\): tried to init an initialized object"),
        kobject_id: rre(r"kobject \(([0-9a-f]+|\(_*ptrval_*\))\)"),
        rss: rre(r"BUG: Bad rss-counter state mm:([0-9a-f]+|\(_*ptrval_*\)) "),
        pagetable: rre(r"Bad pagetable: [0-9a-f]+ \[#"),
        slab: rre(r"(INFO: Slab 0x\(____ptrval____\) objects=.*fp=0x).* (flags=.*)"),
        end: rre(r"(.*) \]---(.*)"),
        segfault: rre(r"segfault at .* ip .* sp .* error"),
    })
}

/// What `oops_to_bisect_pattern` gave: a new string, or (for one word) the message
/// string itself, which lkp's `generate_error_id` then edits in place.
enum BisectOf {
    New(String),
    Line,
}

fn bisect_of(line: &str) -> BisectOf {
    oops_to_bisect_pattern(line).map_or(BisectOf::Line, BisectOf::New)
}

/// `handle_known_patterns`: the message and bisect pattern of a known kind of
/// message, or None.
fn handle_known_patterns(line: &str) -> Option<(String, BisectOf)> {
    let p = known();
    if let Some(c) = p.simple.iter().find_map(|re| re.captures(line)) {
        return Some((group(&c, 1).to_string(), BisectOf::New(group(&c, 1).to_string())));
    }
    if let Some(c) = p.composite.iter().find_map(|re| re.captures(line)) {
        return Some((format!("{}{}", group(&c, 1), group(&c, 2)), BisectOf::New(group(&c, 2).to_string())));
    }
    // handle_complex_patterns
    if let Some(c) = p.warning.captures(line) {
        let bisect = format!("WARNING:.* at .* {}", p.fn_suffix.replacen(group(&c, 1), 1, ""));
        let at = p.at.captures(line).map_or("", |a| group(&a, 1));
        return Some((format!("WARNING: {at}"), BisectOf::New(bisect)));
    }
    if let Some(c) = p.one.iter().find_map(|re| re.captures(line)) {
        let l = group(&c, 1).to_string();
        let b = bisect_of(&l);
        return Some((l, b));
    }
    if let Some(c) = p.two.iter().find_map(|re| re.captures(line)) {
        let bisect = format!("{}.* {}", group(&c, 1), group(&c, 2));
        return Some((format!("{}{}", group(&c, 1), group(&c, 2)), BisectOf::New(bisect)));
    }
    if let Some(c) = p.trace.iter().find_map(|re| re.captures(line)) {
        return Some((line.to_string(), BisectOf::New(format!("{}+0x", group(&c, 1)))));
    }
    let replaced = |b: BisectOf, l: String| Some((l, b));
    if p.low_memory.is_match(line) {
        let b = bisect_of(line);
        let l = p.phys.replacen(line, 1, "# phys");
        return replaced(b, p.equals.replacen(&l, 1, "= #").into_owned());
    }
    if p.kobject.is_match(line) {
        return replaced(bisect_of(line), p.kobject_id.replacen(line, 1, "kobject (#)").into_owned());
    }
    if p.rss.is_match(line) {
        return replaced(bisect_of(line), p.rss.replacen(line, 1, "BUG: Bad rss-counter state mm:# ").into_owned());
    }
    if p.pagetable.is_match(line) {
        return replaced(bisect_of(line), p.pagetable.replacen(line, 1, "Bad pagetable: # [#").into_owned());
    }
    if let Some(c) = p.slab.captures(line) {
        return replaced(bisect_of(line), format!("{}(#) {}", group(&c, 1), group(&c, 2)));
    }
    if let Some(c) = p.end.captures(line) {
        let l = format!("{}{}", group(&c, 1), group(&c, 2));
        let b = bisect_of(&l);
        return Some((l, b));
    }
    if p.segfault.is_match(line) {
        let l = "segfault at ip sp error".to_string();
        let b = bisect_of(&l);
        return Some((l, b));
    }
    None
}

/// `preprocess_line`: the `kern  :err   : ` prefix, a `[    T1] ` caller and the
/// leading non-letters removed.
fn preprocess_line(line: &str) -> String {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [facility, caller, lead] = P.get_or_init(|| {
        [rre(r"^(kern  |user  |daemon):......: "), rre(r"\[ {0,4}[A-Z][0-9]{1,5}\] "), rre(r"^[^a-zA-Z]+")]
    });
    let l = facility.replacen(line, 1, "");
    let l = caller.replacen(&l, 1, " ");
    lead.replacen(&l, 1, "").into_owned()
}

struct Generate {
    removed: Vec<Regex>,
    block_devices: Regex,
    device_names: Regex,
    hex8: Regex,
    hex16: Regex,
    assign: Regex,
    offsets: [Regex; 2],
    tainted: Regex,
    file_line: Regex,
    rip: Regex,
    word_number: [Regex; 2],
}

fn generate() -> &'static Generate {
    static P: OnceLock<Generate> = OnceLock::new();
    P.get_or_init(|| {
        let names = super::ruby::split_on(LINUX_DEVICE_NAMES, '\n');
        Generate {
            removed: [
                r"\ \]$",
                r"\/c\/kernel-tests\/src\/[^\/]+\/",
                r"\/c\/(wfg|yliu)\/[^\/]+\/",
                r"\/lkp\/[^\/]+\/linux[0-9]*\/",
                r"\/kernel-tests\/linux[0-9]*\/",
                r"\.(isra|constprop|part)\.[0-9]+",
            ]
            .into_iter()
            .map(rre)
            .collect(),
            block_devices: rre(
                r"\b(bcache|blkext|btt|dasd|drbd|fd|hd|jsfd|lloop|loop|md|mdp|mmc|nbd|nd_blk|nfhd|nullb|nvme|pmem|ramdisk|scm|sd|simdisk|sr|ubd|ubiblock|virtblk|xsysace|zram)\d+",
            ),
            device_names: rre(&format!(r"\b({})\d+", names.join("|"))),
            hex8: rre(r"\b[0-9a-f]{8}\b"),
            hex16: rre(r"\b[0-9a-f]{16}\b"),
            assign: rre(r"(=)[0-9a-f]+\b"),
            offsets: [rre(r"[+\/]0x[0-9a-f]+\b"), rre(r"[+\/][0-9a-f]+\b")],
            tainted: rre(r" \(Tainted:.+\)"),
            file_line: rre(r"([a-z]:)[0-9]+\b"),
            rip: rre(r"#:\[<#>\]\[<#>\]"),
            word_number: [rre(r"[^\/a-zA-Z0-9_]\w[0-9]+\W"), rre(r"\W\w[0-9]+[^\/a-zA-Z0-9_]")],
        }
    })
}

/// `generate_error_id` of `line`: the error id, and `line` as lkp's in-place edits
/// leave it (before `common_error_id` makes a new string).
fn generate_error_id(line: &str) -> (String, String) {
    let p = generate();
    let mut s = line.to_string();
    for re in &p.removed {
        s = re.replace_all(&s, "").into_owned();
    }
    s = p.block_devices.replace_all(&s, "${1}#").into_owned();
    s = p.device_names.replace_all(&s, "${1}#").into_owned();
    s = p.hex8.replace_all(&s, "#").into_owned();
    s = p.hex16.replace_all(&s, "#").into_owned();
    s = p.assign.replace_all(&s, "${1}#").into_owned();
    for re in &p.offsets {
        s = re.replace_all(&s, "").into_owned();
    }
    s = p.tainted.replace_all(&s, "").into_owned();
    let id = common_error_id(&s);
    let id = p.file_line.replace_all(&id, "${1}");
    let id = p.rip.replace_all(&id, "");
    let id = id.replace("RIP:#:", "RIP:");
    let id = p.word_number[0].replace_all(&id, "#");
    let id = p.word_number[1].replace_all(&id, "#").into_owned();
    (id, s)
}

/// `analyze_error_id`: the error id of a message and the pattern to bisect it by.
pub fn analyze_error_id(line: &str) -> (String, String) {
    let line = preprocess_line(line);
    let (line, bisect) = match handle_known_patterns(&line) {
        Some(known) => known,
        None => {
            let b = bisect_of(&line);
            (line, b)
        }
    };
    let (id, edited) = generate_error_id(&line);
    let bisect = match bisect {
        BisectOf::New(b) => b,
        // lkp's one-word pattern is the message string, edited by generate_error_id
        BisectOf::Line => edited,
    };
    (id, bisect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_ids_as_lkp() {
        // analyze_error_id and common_error_id of lib/dmesg.rb at lkp-tests bbbc29c49, Ruby 3.1
        assert_eq!(
            analyze_error_id(
                "[   11.858566 ] WARNING: CPU: 0 PID: 11 at kernel/locking/lockdep.c:3536 lock_release+0x179/0x3b7"
            ),
            (
                "WARNING:at_kernel/locking/lockdep.c:#lock_release".to_string(),
                "WARNING:.* at .* lock_release+0x".to_string()
            )
        );
        assert_eq!(common_error_id("Failed to connect: /tmp/wpas-wlan1\n"), "Failed_to_connect:/tmp/wpas-wlan1");
        // a one-word message is its own bisect pattern, edited in place by generate_error_id
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(analyze_error_id("<3>[    1.000000] sd1/0x1f"), pair("sd", "sd#"));
        assert_eq!(
            analyze_error_id(
                "kern  :err   : [   5.1][    T1] kobject (ca296866): tried to init an initialized object, something is seriously wrong."
            ),
            pair(
                "kobject(#):tried_to_init_an_initialized_object,something_is_seriously_wrong",
                "kobject .* tried to init an initialized .* something is seriously wrong."
            )
        );
        assert_eq!(
            analyze_error_id("[  1.0] BUG: Bad rss-counter state mm:000000000fb13173 idx:1 val:-1"),
            pair("BUG:Bad_rss-counter_state_mm:#idx:#val", "BUG: Bad rss-counter state mm:.* idx:.*")
        );
    }
}

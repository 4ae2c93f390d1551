//! lmbench's `lat_ctx` and `lat_proc` logs as 2024/2025's `ExtractLmbenchlat_ctx.pm` and
//! `ExtractLmbenchlat_proc.pm` read them (head has no lmbench shellpack; docs/mmtests-extract.md).

use super::pattern::compiled;
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};

/// `discover_scaling_parameters(prefix, suffix)`: the middles of `<prefix>*<suffix>`, numeric order.
fn scaling(names: &[String], prefix: &str, suffix: &str) -> Vec<String> {
    let mut v: Vec<String> = glob_middle(names, prefix, suffix).into_iter().map(|(_, m)| m.to_string()).collect();
    sort_numeric(&mut v);
    v
}

/// lat_ctx (`lmbench-lat_ctx-<T>-<I>.log`: `mmtests_size: <S>` before each `lat_ctx -s S T`
/// run, whose result line is `<T> <µs>`): per T of `lmbench-lat_ctx-*-1.log`, every file
/// `lmbench-lat_ctx-T-*.log` (glob order, `open_log`): a line starting with a digit gives its
/// second field to `T-<S>`, S the last size announced in the file (-1 before any).
pub fn lat_ctx(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let size_re = compiled(r"^mmtests_size: ([0-9]+)")?;
    for t in scaling(&names, "lmbench-lat_ctx-", "-1.log") {
        let mut size = "-1".to_string();
        for (f, _) in glob_middle(&names, &format!("lmbench-lat_ctx-{t}-"), ".log") {
            crate::cancel::check()?;
            let Some(log) = dir.open_log(f)? else { continue };
            out.files_read += 1;
            for line in log.lines() {
                if let Some(c) = size_re.captures(line) {
                    size = c.get(1).map_or("", |m| m.as_str()).to_string();
                    continue;
                }
                if line.starts_with(|c: char| c.is_ascii_digit()) {
                    let e = super::perl_split_ws(line);
                    match e.get(1) {
                        Some(v) => out.add_text(&format!("{t}-{size}"), v),
                        None => out.register(&format!("{t}-{size}")),
                    }
                }
            }
        }
    }
    Ok(())
}

/// lat_proc (`lmbench-lat_proc-<T>.log`: `Process <what>: <µs> microseconds` per run): per T of
/// `lmbench-lat_proc-*.log`, the lines (their `/` removed) matching `^Process ([a-z+ -]*):
/// ([0-9.]+)* ([a-z]+)`: `fork+exit` is a sample of `fork-T`, `fork+execve` of `execve-T`,
/// `fork+binsh -c` of `shell-T`; the operations are fork, execve, shell × T.
pub fn lat_proc(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let re = compiled(r"^Process ([a-z+ -]*): ([0-9.]+)* ([a-z]+)")?;
    let procs = scaling(&names, "lmbench-lat_proc-", ".log");
    for t in &procs {
        crate::cancel::check()?;
        let Some(log) = dir.open_log(&format!("lmbench-lat_proc-{t}.log"))? else { continue };
        out.files_read += 1;
        for (n, line) in log.lines().enumerate() {
            let line = line.replace('/', "");
            let Some(c) = re.captures(&line) else { continue };
            if c.get(3).map(|m| m.as_str()) != Some("microseconds") {
                return Err(Error::parse(
                    Some(&log.name()),
                    Some(n + 1),
                    "lat_proc result not in microseconds (ExtractLmbenchlat_proc dies here)",
                ));
            }
            let proc = match c.get(1).map_or("", |m| m.as_str()) {
                "fork+exit" => "fork",
                "fork+execve" => "execve",
                "fork+binsh -c" => "shell",
                _ => "",
            };
            let op = format!("{proc}-{t}");
            match c.get(2) {
                Some(v) => out.add_text(&op, v.as_str()),
                None => out.register(&op),
            }
        }
    }
    out.set_order(
        ["fork", "execve", "shell"].iter().flat_map(|p| procs.iter().map(move |t| format!("{p}-{t}"))).collect(),
    );
    Ok(())
}

/// The plain module (`-b lmbench`, 2024/2025's `ExtractLmbench.pm`): the first of
/// `lmbench-lat_mmap.log` and `lmbench-lat_ctx.log` that opens (neither: the module dies).
/// lat_mmap (`<MB> <µs>` per run, lmbench's `micromb`): each line's second field (of
/// `split(/\s+/)`) a sample of `<int(MB)>M` (a line without one registers the operation).
/// lat_ctx (the shellpack appends `mmtests-size:<S>`, then the fastest run's output of `lat_ctx
/// -s S T`: `"size=Sk ovr=x` and `<T> <µs>`): a line starting with a digit gives its second field
/// to `<T>-<S>` (T with a `.` and what follows it written `M`), S the last size announced (0
/// before any).
pub fn plain(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let Some((case, name)) =
        ["lat_mmap", "lat_ctx"].iter().map(|c| (*c, format!("lmbench-{c}.log"))).find(|(_, n)| dir.is_file(n))
    else {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            "neither lmbench-lat_mmap.log nor lmbench-lat_ctx.log (compare-mmtests.pl dies: `Failed to open any of lat_mmap lat_ctx`)",
        ));
    };
    let log = dir.read(&name)?;
    out.files_read += 1;
    let size_re = compiled(r"^mmtests-size:([0-9]+)")?;
    let mut size = "0".to_string();
    for line in log.lines() {
        crate::cancel::check()?;
        let e = super::perl_split_ws(line);
        if case == "lat_mmap" {
            let mb = crate::mmtests::perlfmt::numify(e.first().copied().unwrap_or_default()).trunc();
            let op = format!("{}M", crate::mmtests::perlfmt::perl_str(mb));
            match e.get(1) {
                Some(v) => out.add_text(&op, v),
                None => out.register(&op),
            }
            continue;
        }
        if let Some(c) = size_re.captures(line) {
            size = c.get(1).map_or("", |m| m.as_str()).to_string();
            continue;
        }
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            let first = e.first().copied().unwrap_or_default();
            let t = match first.find('.') {
                Some(i) => format!("{}M", first.get(..i).unwrap_or_default()),
                None => first.to_string(),
            };
            let op = format!("{t}-{size}");
            match e.get(1) {
                Some(v) => out.add_text(&op, v),
                None => out.register(&op),
            }
        }
    }
    Ok(())
}

//! `trace-cmd extract` of a recording's instance into `trace.dat`, with
//! `/proc/kallsyms` cut to the tick, timer and wakeup functions (the callbacks the
//! importers name: 80 kB instead of 5 MB) and, when asked, the event formats cut to the
//! systems recorded, through bind mounts in a private mount namespace
//! (`unshare --mount`), which changes nothing outside it; the whole kallsyms and every
//! format when `unshare` is not available or fails (docs/live.md §1).

use crate::error::{Error, Result};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

/// The kernel's symbol table, which trace-cmd copies into `trace.dat`.
const KALLSYMS: &str = "/proc/kallsyms";

/// Whether a `/proc/kallsyms` line is kept: a text symbol (` t `/` T ` after the
/// 16-digit address) whose line names `tick`, `timer` or `wakeup`.
pub fn kallsyms_keeps(line: &[u8]) -> bool {
    let text = matches!(line.get(16..19), Some(b" t " | b" T "));
    text && [&b"tick"[..], b"timer", b"wakeup"].iter().any(|w| line.windows(w.len()).any(|x| x == *w))
}

/// The executable `name` on `PATH`, if any.
pub fn which(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// Run `cmd` to its end with its output discarded, polling for a stop request: on
/// one the command is killed and the call returns [`Error::Interrupted`].
pub fn run_quiet(mut cmd: Command, what: &str) -> Result<ExitStatus> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Error::io(what, &e))?;
    loop {
        if let Err(e) = crate::cancel::check() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(Error::io(what, &e)),
        }
    }
}

/// The cut kallsyms, written to a temporary file removed on drop.
struct CutKallsyms(PathBuf);

impl CutKallsyms {
    fn write() -> Result<CutKallsyms> {
        let src = std::fs::File::open(KALLSYMS).map_err(|e| Error::io(KALLSYMS, &e))?;
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let path = std::env::temp_dir().join(format!("schedlab-kallsyms-{}-{}.txt", std::process::id(), t.as_nanos()));
        let out =
            std::fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| Error::io(&path, &e))?;
        let cut = CutKallsyms(path);
        let mut w = std::io::BufWriter::new(out);
        for line in std::io::BufReader::new(src).split(b'\n') {
            let line = line.map_err(|e| Error::io(KALLSYMS, &e))?;
            if kallsyms_keeps(&line) {
                w.write_all(&line).and_then(|_| w.write_all(b"\n")).map_err(|e| Error::io(&cut.0, &e))?;
            }
        }
        w.flush().map_err(|e| Error::io(&cut.0, &e))?;
        Ok(cut)
    }
}

impl Drop for CutKallsyms {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The shell script run in the private mount namespace: kallsyms replaced by the cut
/// copy (`$1`); with event systems named (`$3`, space-separated), the `events` directory
/// of every tracefs mount (trace-cmd reads the first in /proc/mounts) replaced by a tmpfs
/// holding only those systems' formats from `$2`'s, so trace-cmd saves only them; then
/// the command.
const NAMESPACE_SCRIPT: &str = r#"set -e
mount --bind "$1" /proc/kallsyms
T=$2; S=$3; shift 3
if [ -n "$S" ]; then
  D=$(mktemp -d)
  mount -t tmpfs none "$D"
  cp "$T/events/header_page" "$T/events/header_event" "$D/"
  for s in $S; do
    for e in "$T/events/$s"/*/; do
      [ -f "$e/format" ] || continue
      n=$(basename "$e")
      mkdir -p "$D/$s/$n"
      cp "$e/format" "$D/$s/$n/"
      if [ -f "$e/id" ]; then cp "$e/id" "$D/$s/$n/"; fi
    done
  done
  for m in $(awk '$3 == "tracefs" { print $2 }' /proc/mounts); do
    mount --bind "$D" "$m/events"
  done
fi
exec "$@""#;

/// `trace-cmd extract -B <instance> -o <dat>`, through `unshare` with the cut kallsyms
/// and, when `systems` is not empty, only those event systems' formats (plus `ftrace`,
/// whose `print` the trace markers are) when possible; else directly (then a failure
/// is an error naming `dat`).
pub fn extract(instance: &str, dat: &Path, systems: &[&str]) -> Result<()> {
    let argv = |cmd: &mut Command| {
        cmd.args(["trace-cmd", "extract", "-B", instance, "-o"]).arg(dat);
    };
    let mut keep: Vec<&str> = systems.to_vec();
    if !keep.is_empty() && !keep.contains(&"ftrace") {
        keep.push("ftrace");
    }
    let cut = if which("unshare").is_some() {
        let ks = CutKallsyms::write()?;
        let mut cmd = Command::new("unshare");
        cmd.args(["--mount", "--propagation", "private", "sh", "-c", NAMESPACE_SCRIPT, "sh"])
            .arg(&ks.0)
            .arg(super::tracefs::TRACEFS)
            .arg(keep.join(" "));
        argv(&mut cmd);
        Some(run_quiet(cmd, "unshare")?)
    } else {
        None
    };
    if cut.is_none_or(|s| !s.success()) || !dat.exists() {
        let mut cmd = Command::new("trace-cmd");
        cmd.args(["extract", "-B", instance, "-o"]).arg(dat);
        let status = run_quiet(cmd, "trace-cmd")?;
        if !status.success() {
            return Err(Error::Io {
                path: dat.display().to_string(),
                msg: format!("trace-cmd extract -B {instance} failed ({status})"),
                not_found: false,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kallsyms_keeps_the_text_symbols_of_ticks_timers_and_wakeups() {
        assert!(kallsyms_keeps(b"ffffffff81123450 T tick_sched_timer"));
        assert!(kallsyms_keeps(b"ffffffff81123450 t hrtimer_wakeup"));
        assert!(kallsyms_keeps(b"ffffffffc0001000 t my_timer_fn\t[mymod]"));
        assert!(!kallsyms_keeps(b"ffffffff81123450 T schedule"));
        assert!(!kallsyms_keeps(b"ffffffff82000000 D jiffies_timer_data"));
        assert!(!kallsyms_keeps(b"ffffffff8112 T tick"));
        assert!(!kallsyms_keeps(b""));
    }

    #[test]
    fn which_finds_sh() {
        assert!(which("sh").is_some());
        assert!(which("no-such-program-schedlab").is_none());
    }
}

//! What a trace CSV says of its own replay (docs/pelt.md §8.1): `# pelt:` lines before
//! the header, each a list of `key=value` words, which `pelt ftrace` writes so that a
//! plain `pelt simulate` of the file replays it as the import found it: where it starts
//! (`start_ns`), the kernel whose rules apply (`kernel`), and the task's state at the
//! start (`init`: the kernel's fork init, zero, or the exact state of a
//! `/proc/PID/sched` reading). A front end's own options take precedence.

use super::driver::{Init, StartSnapshot, StartState};
use crate::error::{Error, Result};

/// The start of the lines that hold directives.
pub const PREFIX: &str = "# pelt:";

/// A trace's directives (each absent when the file does not say).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Directives {
    /// Where the replay starts (ns of the trace's clock: the fork, or the start state).
    pub start_ns: Option<u64>,
    /// The kernel version whose PELT model and util_est rule apply
    /// ([`super::kernel::KERNELS`]).
    pub kernel: Option<String>,
    /// The task's state at the start.
    pub init: Option<Init>,
}

/// The keys of a snapshot start, in the order written.
const SNAPSHOT_KEYS: [&str; 8] =
    ["last_update_time", "load_sum", "runnable_sum", "util_sum", "load_avg", "runnable_avg", "util_avg", "util_est"];

impl Directives {
    /// Whether the file says nothing.
    pub fn is_empty(&self) -> bool {
        self == &Directives::default()
    }

    /// Read one `# pelt:` line (`text` after the prefix) at `line` of `path`; an
    /// unknown key or a bad value is an error there.
    pub fn read_line(&mut self, text: &str, path: Option<&str>, line: usize) -> Result<()> {
        let err = |msg: String| Error::parse(path, Some(line), msg);
        let mut init: Option<&str> = None;
        let mut values: Vec<(&str, u64)> = Vec::new();
        for word in text.split_whitespace() {
            let (key, value) =
                word.split_once('=').ok_or_else(|| err(format!("'{word}': expected key=value after '{PREFIX}'")))?;
            let number = || value.parse::<u64>().map_err(|_| err(format!("{key}: '{value}' is not a whole number")));
            match key {
                "start_ns" => self.start_ns = Some(number()?),
                "kernel" => self.kernel = Some(value.to_string()),
                "init" => init = Some(value),
                k if SNAPSHOT_KEYS.contains(&k) || k == "util_est_ewma" || k == "util_est_enqueued" => {
                    values.push((k, number()?))
                }
                _ => return Err(err(format!("unknown key '{key}' (expected start_ns, kernel, init and its values)"))),
            }
        }
        let get = |k: &str| values.iter().find(|(n, _)| *n == k).map(|&(_, v)| v);
        let need = |k: &str| get(k).ok_or_else(|| err(format!("init={} needs {k}=", init.unwrap_or(""))));
        let small = |k: &str, v: u64| u32::try_from(v).map_err(|_| err(format!("{k}: {v} does not fit 32 bits")));
        match init {
            None if values.is_empty() => {}
            None => return Err(err("start values without init= (snapshot or given)".into())),
            Some("kernel") => self.init = Some(Init::Kernel),
            Some("zero") => self.init = Some(Init::Zero),
            Some("snapshot") => {
                self.init = Some(Init::Snapshot(StartSnapshot {
                    last_update_time: need("last_update_time")?,
                    load_sum: need("load_sum")?,
                    runnable_sum: need("runnable_sum")?,
                    util_sum: small("util_sum", need("util_sum")?)?,
                    load_avg: need("load_avg")?,
                    runnable_avg: need("runnable_avg")?,
                    util_avg: need("util_avg")?,
                    util_est: small("util_est", need("util_est")?)?,
                }))
            }
            Some("given") => {
                let ue = match (get("util_est_ewma"), get("util_est_enqueued")) {
                    (Some(e), q) => Some((small("util_est_ewma", e)?, small("util_est_enqueued", q.unwrap_or(0))?)),
                    (None, _) => None,
                };
                self.init = Some(Init::Given(StartState {
                    util_avg: need("util_avg")?,
                    load_avg: get("load_avg"),
                    runnable_avg: get("runnable_avg"),
                    util_est: ue,
                }))
            }
            Some(other) => return Err(err(format!("init={other}: expected kernel, zero, snapshot or given"))),
        }
        Ok(())
    }

    /// The `# pelt:` lines (each ending in a newline) that say these directives.
    pub fn render(&self) -> String {
        let mut first: Vec<String> = Vec::new();
        if let Some(t) = self.start_ns {
            first.push(format!("start_ns={t}"));
        }
        if let Some(k) = &self.kernel {
            first.push(format!("kernel={k}"));
        }
        let init = match self.init {
            None => None,
            Some(Init::Kernel) => Some("init=kernel".to_string()),
            Some(Init::Zero) => Some("init=zero".to_string()),
            Some(Init::Snapshot(s)) => {
                let v = [
                    s.last_update_time,
                    s.load_sum,
                    s.runnable_sum,
                    u64::from(s.util_sum),
                    s.load_avg,
                    s.runnable_avg,
                    s.util_avg,
                    u64::from(s.util_est),
                ];
                let kv: Vec<String> = SNAPSHOT_KEYS.iter().zip(v).map(|(k, v)| format!("{k}={v}")).collect();
                Some(format!("init=snapshot {}", kv.join(" ")))
            }
            Some(Init::Given(s)) => {
                let mut w = format!("init=given util_avg={}", s.util_avg);
                if let Some(l) = s.load_avg {
                    w += &format!(" load_avg={l}");
                }
                if let Some(r) = s.runnable_avg {
                    w += &format!(" runnable_avg={r}");
                }
                if let Some((e, q)) = s.util_est {
                    w += &format!(" util_est_ewma={e} util_est_enqueued={q}");
                }
                Some(w)
            }
        };
        let mut out = String::new();
        if !first.is_empty() {
            out += &format!("{PREFIX} {}\n", first.join(" "));
        }
        if let Some(i) = init {
            out += &format!("{PREFIX} {i}\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_and_read_back() {
        let d = Directives {
            start_ns: Some(1_814_392_510_542),
            kernel: Some("6.18".into()),
            init: Some(Init::Snapshot(StartSnapshot {
                last_update_time: 1_814_392_510_464,
                load_sum: 39346,
                runnable_sum: 39_734_493,
                util_sum: 2_427_055,
                load_avg: 852,
                runnable_avg: 840,
                util_avg: 51,
                util_est: 91,
            })),
        };
        let text = d.render();
        assert!(text.starts_with("# pelt: start_ns=1814392510542 kernel=6.18\n# pelt: init=snapshot last_update_time="));
        let mut back = Directives::default();
        for (i, line) in text.lines().enumerate() {
            back.read_line(line.strip_prefix(PREFIX).unwrap(), None, i + 1).unwrap();
        }
        assert_eq!(back, d);
        let e = Directives::default().read_line(" start_ns=1 hz=250", Some("t.csv"), 2).unwrap_err().to_string();
        assert!(e.starts_with("t.csv:2: unknown key 'hz'"), "{e}");
        let e = Directives::default().read_line(" init=snapshot util_avg=3", Some("t.csv"), 1).unwrap_err();
        assert!(e.to_string().contains("init=snapshot needs last_update_time="), "{e}");
    }
}

"""LISA's own analyses of LISA's public traces, written as CSV goldens.

Run with LISA installed in its own venv (lisa-linux 3.1.0 from PyPI; its 2023 code needs
numpy < 2, pandas 2.0 and pyarrow < 16, and nest_asyncio, which its wheel does not
declare):

    python3 -m venv /work/venvs/lisa
    /work/venvs/lisa/bin/pip install lisa-linux==3.1.0 nest_asyncio "numpy<2" "pandas==2.0.3" "pyarrow<16"
    /work/venvs/lisa/bin/python tools/oracles/why/lisa_oracle.py LISA_CHECKOUT OUT [LISA_COMMIT]

LISA_CHECKOUT is a checkout of github.com/ARM-software/lisa (its tests/assets/ hold the
traces; the copies the project keeps are named below). Writes under OUT/:

sched_load/ (tests/assets/sched_load/trace.dat: Juno r0, Linux 4.19, 6 CPUs, cpu_idle,
cpu_frequency, sched_switch; the project keeps it as tests/data/traces/lisa-sched_load/
trace-zstd.dat, which the script also reads and checks gives the same values):
  idle-residency-cpu.csv      cpu, idle_state, time_s: IdleAnalysis.df_cpu_idle_state_residency(cpu)
                              for each CPU (idle_state -1 is "not idle", as LISA writes it)
  idle-residency-cluster.csv  cluster, idle_state, time_s: df_cluster_idle_state_residency(cluster)
                              for each frequency domain of the platform info (CPUs joined by ' ')
  freq-residency-cpu.csv      cpu, frequency_khz, total_time_s, active_time_s:
                              FrequencyAnalysis.df_cpu_frequency_residency(cpu)
  freq-residency-domain.csv   domain, frequency_khz, total_time_s, active_time_s:
                              df_domain_frequency_residency(first CPU of the domain)
  window.csv                  the trace window LISA uses (start_s, end_s), cpus_count

trace_txt/ (tests/assets/trace_txt/trace.txt: a 6-CPU Arm board, sched_switch and
sched_wakeup; kept as tests/data/traces/lisa/trace_txt.txt):
  tasks-states.csv            TasksAnalysis.df_tasks_states(): every state update (Time, pid, comm,
                              target_cpu, cpu, curr_state, next_state, delta; states as LISA's
                              TaskState numbers, with curr_state_str its letters)
  tasks-state-time.csv        pid, comm, curr_state, curr_state_str, time_s, count: the same
                              frame's delta summed per task and state by pandas (a group-by of
                              LISA's own rows, nothing recomputed)
  tasks-runtime.csv           pid, comm, runtime_s: df_tasks_runtime()
  tasks-residency.csv         pid, cpu, runtime_s: df_task_total_residency(pid) of every pid
                              LISA lists (trace.task_ids) under one name (LISA refuses a pid with
                              several, such as 0, every CPU's idle task: "more than one TaskID")
Note that LISA's task frames are per pid: pid 0 (swapper/N of every CPU) is one series,
whose deltas run from one CPU's idle-task event to the next CPU's.
  window.csv                  as above

LISA's on-disk cache is off (enable_swap=False): it would write a `.NAME.lisa-swap/`
directory beside each trace. Floats are written with repr (the shortest text that reads back to the same double): the
printed precision is the double itself.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import warnings
from pathlib import Path

warnings.simplefilter("ignore")

import lisa  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from lisa.analysis.tasks import TaskState  # noqa: E402
from lisa.platforms.platinfo import PlatformInfo  # noqa: E402
from lisa.trace import Trace, TxtTraceParser  # noqa: E402

REPO = Path(__file__).resolve().parents[3]


def f(v: object) -> str:
    if isinstance(v, (float, np.floating)):
        return "" if np.isnan(v) else repr(float(v))
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def write(path: Path, header: list[str], rows: list[list[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([f(v) for v in r])


def window(t: Trace, out: Path) -> None:
    write(out / "window.csv", ["start_s", "end_s", "cpus_count"], [[t.window[0], t.window[1], t.cpus_count]])


def sched_load_rows(dat: Path, plat: PlatformInfo) -> dict[str, tuple[list[str], list[list[object]]]]:
    t = Trace(str(dat), plat_info=plat, normalize_time=False, enable_swap=False,
              events=["cpu_idle", "cpu_frequency", "sched_switch"])
    out: dict[str, tuple[list[str], list[list[object]]]] = {}
    rows = []
    for cpu in range(t.cpus_count):
        df = t.ana.idle.df_cpu_idle_state_residency(cpu)
        rows += [[cpu, int(s), df.loc[s, "time"]] for s in sorted(df.index)]
    out["idle-residency-cpu.csv"] = (["cpu", "idle_state", "time_s"], rows)
    rows = []
    domains = plat["freq-domains"]
    for dom in domains:
        df = t.ana.idle.df_cluster_idle_state_residency(list(dom))
        rows += [[" ".join(map(str, dom)), int(s), df.loc[s, "time"]] for s in sorted(df.index)]
    out["idle-residency-cluster.csv"] = (["cluster", "idle_state", "time_s"], rows)
    rows = []
    for cpu in range(t.cpus_count):
        df = t.ana.frequency.df_cpu_frequency_residency(cpu)
        rows += [[cpu, int(fq), df.loc[fq, "total_time"], df.loc[fq, "active_time"]] for fq in sorted(df.index)]
    out["freq-residency-cpu.csv"] = (["cpu", "frequency_khz", "total_time_s", "active_time_s"], rows)
    rows = []
    for dom in domains:
        df = t.ana.frequency.df_domain_frequency_residency(dom[0])
        rows += [[" ".join(map(str, dom)), int(fq), df.loc[fq, "total_time"], df.loc[fq, "active_time"]]
                 for fq in sorted(df.index)]
    out["freq-residency-domain.csv"] = (["domain", "frequency_khz", "total_time_s", "active_time_s"], rows)
    out["window.csv"] = (["start_s", "end_s", "cpus_count"], [[t.window[0], t.window[1], t.cpus_count]])
    return out


def state_str(v: int) -> str:
    try:
        return TaskState(v).char
    except ValueError:
        return TaskState.sched_switch_str(v)


def trace_txt(txt: Path, plat: PlatformInfo, out: Path) -> None:
    # as LISA's own tests read it (tests/test_trace.py): the raw text parser
    t = Trace(str(txt), plat_info=plat, normalize_time=False, parser=TxtTraceParser.from_txt_file, enable_swap=False,
              events=["sched_switch", "sched_wakeup"])
    df = t.ana.tasks.df_tasks_states()
    df = t.ana.tasks.stringify_df_task_states(df, ["curr_state", "next_state"])
    cols = ["Time", "pid", "comm", "target_cpu", "cpu", "curr_state", "curr_state_str", "next_state",
            "next_state_str", "delta"]
    write(out / "tasks-states.csv", cols, df.reset_index()[cols].values.tolist())
    g = df.groupby(["pid", "comm", "curr_state"], sort=True)["delta"]
    agg = pd.DataFrame({"time": g.sum(min_count=1), "count": g.size()}).reset_index()
    write(out / "tasks-state-time.csv", ["pid", "comm", "curr_state", "curr_state_str", "time_s", "count"],
          [[r.pid, r.comm, r.curr_state, state_str(int(r.curr_state)), r.time, r.count] for r in agg.itertuples()])
    rt = t.ana.tasks.df_tasks_runtime().sort_index()
    write(out / "tasks-runtime.csv", ["pid", "comm", "runtime_s"],
          [[pid, r.comm, r.runtime] for pid, r in rt.iterrows()])
    rows = []
    comms: dict[int, set[str]] = {}
    for task in t.task_ids:
        comms.setdefault(task.pid, set()).add(task.comm)
    # by pid: a (pid, comm) task needs the task_rename event, which the trace lacks, and
    # LISA refuses a pid that had several names (pid 0: every CPU's idle task)
    for pid in sorted(p for p, names in comms.items() if len(names) == 1):
        res = t.ana.tasks.df_task_total_residency(pid)
        rows += [[pid, int(cpu), res.loc[cpu, "runtime"]] for cpu in res.index]
    write(out / "tasks-residency.csv", ["pid", "cpu", "runtime_s"], rows)
    window(t, out)


def main(argv: list[str]) -> int:
    lisa_repo, out = Path(argv[1]), Path(argv[2])
    assets = lisa_repo / "tests" / "assets"
    plat = PlatformInfo.from_yaml_map(str(assets / "sched_load" / "plat_info.yml"))
    orig = sched_load_rows(assets / "sched_load" / "trace.dat", plat)
    kept = sched_load_rows(REPO / "tests/data/traces/lisa-sched_load/trace-zstd.dat", plat)
    if orig != kept:
        print("sched_load: the v7 copy gives other values than LISA's trace.dat", file=sys.stderr)
        return 1
    for name, (header, rows) in orig.items():
        write(out / "sched_load" / name, header, rows)
    plat_txt = PlatformInfo.from_yaml_map(str(assets / "trace_txt" / "plat_info.yml"))
    trace_txt(assets / "trace_txt" / "trace.txt", plat_txt, out / "trace_txt")
    head = subprocess.run(["git", "-C", str(lisa_repo), "rev-parse", "--verify", "-q", "HEAD"], capture_output=True,
                          text=True).stdout.strip() or (argv[3] if len(argv) > 3 else None)
    meta = {"lisa_linux": getattr(lisa, "__version__", None) or lisa.version.__version__,
            "pandas": pd.__version__, "numpy": np.__version__, "lisa_commit": head,
            "command": "tools/oracles/why/lisa_oracle.py LISA_CHECKOUT OUT " + " ".join(argv[3:])}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""``schedlab trace compare`` and ``schedlab.trace``: the front ends of the trace metrics
pass (src/trace; its numbers are checked against perf, trace-cmd and LISA by
tests/trace_metrics.rs). Here: the API and the command line give the same comparison,
results pickle, exit codes follow batch mode, bad input is an error naming the file, and
the per-switch view equals perf sched timehist through Python too."""

from __future__ import annotations

import csv
import io
import pickle
from pathlib import Path

import pytest
from schedlab import examples, trace
from schedlab.errors import ParseError, SchedlabError

from .cli_run import run_cli

RUNS = examples.path("trace")
MENU = sorted(str(p) for p in RUNS.glob("menu-*.txt"))
TEO = sorted(str(p) for p in RUNS.glob("teo-*.txt"))
STATES = str(examples.path("idle", "states_x86.csv"))
WHY = Path(__file__).parent / "data" / "traces" / "why"


def test_the_command_line_and_the_api_agree_and_exit_as_batch() -> None:
    c = trace.compare({"base": MENU, "head": TEO}, states=STATES)
    code, out, err = run_cli("trace", "compare", "--base", *MENU, "--head", *TEO, "--states", STATES, "--format", "json")
    # the teo runs wake the task from C6: a significant regression, exit code 1
    assert code == 1, err
    assert out == c.to_json(indent=1) + "\n"
    assert run_cli("trace", "compare", "--base", *MENU, "--head", *TEO, "--fail-on", "never")[0] == 0
    # the same runs on both sides: nothing fails
    assert run_cli("trace", "compare", "--group", "a", *MENU, "--group", "b", *MENU)[0] == 0
    # rows: the most significant first, a change from zero (C6, never entered by menu's runs)
    # before the largest finite ones (the wakeup latency, up ~400 %)
    order = [(r.group, r.name, r.cells[1].verdict) for r in c.rows[:4]]
    assert order[:2] == [("machine", "C6 residency %", "changed"), ("machine", "C6 entries/s", "changed")]
    assert order[3] == ("all", "wakeup latency p90 (µs)", "worse")
    c6 = next(r for r in c.rows if r.group == "machine" and r.name == "C6 entries/s")
    assert c6.cells[0].value == 0.0 and c6.cells[0].samples == [0.0, 0.0, 0.0]


def test_groups_by_directory_and_the_baseline_flag(tmp_path: Path) -> None:
    for name, files in (("menu", MENU), ("teo", TEO)):
        d = tmp_path / name
        d.mkdir()
        for f in files:
            (d / Path(f).name).write_bytes(Path(f).read_bytes())
    code, out, _ = run_cli("trace", "compare", str(tmp_path / "menu"), str(tmp_path / "teo"), "--baseline", "teo",
                           "--format", "csv")
    assert code == 0  # teo is the baseline: menu is better, not worse
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["kernel"] for r in rows} == {"teo", "menu"}
    better = [r for r in rows if r["kernel"] == "menu" and r["verdict"] == "better"]
    assert any(r["name"].startswith("wakeup latency") for r in better)


def test_bad_input_is_an_error_naming_the_file(tmp_path: Path) -> None:
    code, _, err = run_cli("trace", "compare", "--base", *MENU)
    assert code == 2 and "at least two groups" in err
    perf = tmp_path / "perf.data"
    perf.write_bytes(b"PERFILE2" + bytes(100))
    code, _, err = run_cli("trace", "compare", "--base", str(perf), "--head", *TEO)
    assert code == 2 and "perf.data" in err and "perf script" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli("trace", "compare", str(empty), RUNS.as_posix())
    assert code == 2 and "holds no traces" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("  x-1 [000] 1.5: cpu_idle: state=x cpu_id=0\n  x-1 [000] 1.6: cpu_idle: state=1 cpu_id=0\n")
    with pytest.raises(ParseError) as e:
        trace.metrics(bad, strict=True)
    assert e.value.path == str(bad) and e.value.line == 1
    [m] = trace.metrics(bad)
    assert any("1 malformed line" in n for n in m.notes)
    with pytest.raises(SchedlabError, match="state table"):
        trace.compare({"a": MENU, "b": TEO}, governors=["menu"])


def test_metrics_pickle_and_compare_from_metrics() -> None:
    ms = {name: [m for f in files for m in trace.metrics(f)] for name, files in (("menu", MENU), ("teo", TEO))}
    back = pickle.loads(pickle.dumps(ms))
    assert back == ms
    assert trace.TraceMetrics.from_json(ms["menu"][0].to_json()) == ms["menu"][0]
    opts = trace.TraceOptions(states=STATES, comm=["app"], hz=250)
    assert pickle.loads(pickle.dumps(opts)).comm == ["app"]
    assert trace.compare_metrics(ms) == trace.compare({"menu": MENU, "teo": TEO})


def test_the_governor_what_if_and_its_split() -> None:
    c = trace.compare({"menu": MENU, "teo": TEO}, states=STATES, group_governors={"menu": "menu", "teo": "teo"})
    groups = {r.group for r in c.rows}
    assert {"what-if menu 6.18", "what-if teo 6.18"} <= groups
    assert any(g.startswith("governor menu 6.18 -> teo 6.18 on teo") for g in groups)
    # the examples record no timer events: the what-if says what it assumed
    assert any("what-if:" in w for w in c.meta["schedlab.warnings"])


def test_timehist_through_python_equals_perf(tmp_path: Path) -> None:
    rec = WHY / "perf-sched" / "wakeup"
    df = trace.timehist(rec / "perf-script.txt", strict=True)
    with open(rec / "timehist.csv", newline="") as f:
        want = list(csv.DictReader(f))
    assert len(df) == len(want)
    us = lambda ms: int(ms.replace(".", ""))  # noqa: E731 - ms with 3 decimals → µs
    for (_, r), w in zip(df.iterrows(), want):
        assert (int(r.ts_ns) // 1000, int(r.pid)) == (int(w["time_s"].replace(".", "")), int(w["tid"]))
        assert (int(r.wait_ns) // 1000, int(r.delay_ns) // 1000, int(r.run_ns) // 1000) == (
            us(w["wait_ms"]), us(w["sch_delay_ms"]), us(w["run_ms"]))


def test_on_dask_the_same_comparison() -> None:
    import dask  # noqa: F401
    from schedlab import distributed

    local = trace.compare({"menu": MENU, "teo": TEO}, comm=["app"])
    assert distributed.trace_compare({"menu": MENU, "teo": TEO}, comm=["app"]) == local


def test_the_report_says_why(tmp_path: Path) -> None:
    import matplotlib  # noqa: F401
    out = tmp_path / "why.html"
    code, text, err = run_cli("report", "--trace-group", "menu", *MENU, "--trace-group", "teo", *TEO,
                              "--trace-states", STATES, "-o", str(out))
    assert code == 1, err  # worse wakeup latencies: a regression, as batch mode
    assert "Why: traces of menu, teo compared" not in text  # headings are the HTML's
    assert "worse: all wakeup latency p90 (µs)" in text and "changed: machine C6 entries/s from 0 in teo" in text
    html = out.read_text()
    assert "Why: traces of menu, teo compared" in html
    assert html.count("<svg") == 2  # idle-state residency per group, wakeup-latency percentiles
    code, _, err = run_cli("report", "--trace-group", "menu", *MENU)
    assert code == 2 and "at least two" in err


def test_the_experiment_unchanged_settings_give_no_change() -> None:
    """tests/data/traces/why/experiment (tools/oracles/why/experiment_busy.sh): five 40 s
    recordings each of the machine as it is (base), the same again (aa: the A/A control)
    and under a 0 µs latency request (lat0); the machine hardly idled, so the kernel's
    counters did not move between the groups (counters.csv): no verdict may say a metric
    changed, at the default FDR of 5 %."""
    exp = WHY / "experiment"
    with open(exp / "counters.csv", newline="") as f:
        moved = {(r["group"], r["state"]): 0 for r in csv.DictReader(f)}
    with open(exp / "counters.csv", newline="") as f:
        for r in csv.DictReader(f):
            moved[(r["group"], r["state"])] += int(r["usage"])
    assert moved[("lat0", "0")] == moved[("base", "0")] == 0  # no POLL entry anywhere: nothing to show
    code, out, err = run_cli("trace", "compare", str(exp / "base"), str(exp / "aa"), str(exp / "lat0"),
                             "--states", str(exp / "base" / "states-cpu0.txt"), "--format", "csv",
                             "--fail-on", "any-change")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["kernel"] for r in rows} == {"base", "aa", "lat0"}
    assert not [r for r in rows if r["verdict"] in ("better", "worse", "changed")]
    assert len({r["name"] for r in rows}) > 10


def test_the_quiet_experiment_verdicts_follow_the_kernel_counters() -> None:
    """tests/data/traces/why/experiment-quiet (tools/oracles/why/experiment.sh on an idle
    machine): five recordings each of base, aa (the same again), lat0 (a 0 µs latency
    request) and menu (the menu governor). The reference is the kernel's own counters
    (counters.csv, each recording's sysfs usage delta summed over the CPUs, per second of
    run-NN.json's length). Hand rule for "the kernel moved a state's entries": all five of
    a group's rates lie on one side of all five of base's (the exact Mann-Whitney p of
    that is 2/C(10,5) = 0.008); interleaved rates moved nothing. The comparison must say
    "changed" exactly where the counters moved, in their direction, with the rate the
    counters give (within 2 %), and say nothing changed for aa."""
    import json
    import statistics

    exp = WHY / "experiment-quiet"
    groups = ["base", "aa", "lat0", "menu"]
    rate: dict[tuple[str, str], list[float]] = {}
    usage: dict[tuple[str, int, str], int] = {}
    with open(exp / "counters.csv", newline="") as f:
        for r in csv.DictReader(f):
            key = (r["group"], int(r["run"]), r["name"])
            usage[key] = usage.get(key, 0) + int(r["usage"])
    for (g, run, name), n in sorted(usage.items()):
        secs = json.loads((exp / g / f"run-{run:02d}.json").read_text())["seconds"]
        rate.setdefault((g, name), []).append(n / secs)
    states = sorted({name for _, name in rate})
    assert states == ["POLL", "haltpoll idle"]

    def moved(g: str, name: str) -> int:
        ours, base = rate[(g, name)], rate[("base", name)]
        return 1 if min(ours) > max(base) else -1 if max(ours) < min(base) else 0

    expected = {(g, s): moved(g, s) for g in groups[1:] for s in states}
    # the experiment is only a check if the settings moved something and aa did not
    assert expected == {("aa", "POLL"): 0, ("aa", "haltpoll idle"): 0, ("lat0", "POLL"): 1,
                        ("lat0", "haltpoll idle"): -1, ("menu", "POLL"): 0, ("menu", "haltpoll idle"): 1}

    code, out, err = run_cli("trace", "compare", *(str(exp / g) for g in groups),
                             "--states", str(exp / "base" / "states-cpu0.txt"), "--format", "csv",
                             "--fail-on", "any-change")
    assert code == 1, err  # a setting changed something: the batch-mode failure
    rows = {(r["group"], r["name"], r["kernel"]): r for r in csv.DictReader(io.StringIO(out))}
    for g in groups[1:]:
        for s in states:
            r = rows[("machine", f"{s} entries/s", g)]
            base_value = float(rows[("machine", f"{s} entries/s", "base")]["value"])
            assert float(r["value"]) == pytest.approx(statistics.mean(rate[(g, s)]), rel=0.02, abs=1.0), (g, s)
            if expected[(g, s)]:
                assert r["verdict"] == "changed", (g, s, r)
                assert (float(r["value"]) > base_value) == (expected[(g, s)] > 0), (g, s, r)
            else:
                assert r["verdict"] not in ("better", "worse", "changed"), (g, s, r)
    assert not [k for k, r in rows.items() if k[2] == "aa" and r["verdict"] in ("better", "worse", "changed")]
    code, _, err = run_cli("trace", "compare", str(exp / "base"), str(exp / "aa"),
                           "--states", str(exp / "base" / "states-cpu0.txt"), "--fail-on", "any-change")
    assert code == 0, err


def test_memory_does_not_grow_with_the_trace(tmp_path: Path) -> None:
    """The pass streams (docs/trace-compare.md §4): its peak RSS over a 100 MB trace is
    within 16 MiB of its peak over the 50 kB trace it repeats (each repetition's
    timestamps moved past the last), measured with getrusage in a fresh child each."""
    import json
    import subprocess
    import sys

    lines = Path(MENU[0]).read_text().splitlines()[2:]
    big = tmp_path / "big.txt"
    with open(big, "w") as f:
        for k in range(100_000_000 // (len("\n".join(lines)) + 1) + 1):
            shift = k * 1000  # seconds: each copy lies 1000 s after the previous one
            for ln in lines:
                head, _, rest = ln.partition("   100.")
                f.write(f"{head} {100 + shift:>6}.{rest}\n")
    child = ("import json, resource, sys; import schedlab.trace as t; t.metrics(sys.argv[1]); "
             "print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024))")
    peak = {}
    for name, path in (("small", MENU[0]), ("big", str(big))):
        r = subprocess.run([sys.executable, "-c", child, path], capture_output=True, text=True, check=True)
        peak[name] = json.loads(r.stdout)
    assert big.stat().st_size > 100_000_000
    assert peak["big"] - peak["small"] < 16 << 20, peak

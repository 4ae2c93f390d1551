"""Random bytes and random text into every function that parses text (hypothesis).

Each call returns a value or raises a :class:`schedlab.SchedlabError` subclass, and
never an internal error (a Rust panic caught at the binding): anything else fails.
The inputs are mutations of the real fixtures as well as noise, so that the parsers'
deeper states are reached, and lone surrogates (valid Python ``str``, not UTF-8).
Whatever is returned must be usable: a parsed table prints and round-trips through JSON.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import schedlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schedlab import _core, batch, idle, lkp, mmtests, pelt, table

from .hostile import honest

DATA = Path(__file__).parent / "data"

SEEDS = {
    "amd": (DATA / "seeds" / "amd-normalized.txt").read_text(),
    "mmtests": (DATA / "seeds" / "mmtests-netperf-udp.txt").read_text(),
    "lkp": (DATA / "seeds" / "lkp-report-unixbench-execl.txt").read_text(),
    "idle_trace": (DATA / "idle" / "inputs" / "gov_timer2ms.csv").read_text()[:3000],
    "states": (DATA / "idle" / "inputs" / "states_x86.csv").read_text(),
    "pelt": (DATA / "pelt" / "inputs" / "pelt_periodic50.csv").read_text()[:3000],
    "sysfs": (Path(__file__).parent.parent / "fuzz" / "seeds" / "idle_sysfs" / "states_x86.dump").read_text(),
    "ftrace": (Path(__file__).parent.parent / "fuzz" / "seeds" / "idle_ftrace" / "module-test.txt").read_text(),
    "sched": (Path(__file__).parent.parent / "fuzz" / "seeds" / "pelt_ftrace" / "kernel-format.txt").read_text(),
    "json": (Path(__file__).parent.parent / "fuzz" / "seeds" / "comparison_json" / "amd-normalized-0.json").read_text(),
}


def mutated(seed: str) -> st.SearchStrategy[str]:
    """The seed with a few characters replaced, inserted or deleted, or cut short."""
    edit = st.tuples(st.integers(0, max(len(seed) - 1, 0)), st.sampled_from(["del", "ins", "rep", "cut"]), st.text(max_size=4))

    def apply(edits: list[tuple[int, str, str]]) -> str:
        s = seed
        for pos, op, t in edits:
            pos = min(pos, len(s))
            if op == "del":
                s = s[:pos] + s[pos + 1:]
            elif op == "ins":
                s = s[:pos] + t + s[pos:]
            elif op == "rep":
                s = s[:pos] + t + s[pos + len(t):]
            else:
                s = s[:pos]
        return s

    return st.lists(edit, min_size=1, max_size=6).map(apply)


def text_for(seed: str) -> st.SearchStrategy[str]:
    surrogate = st.text(alphabet=st.characters(codec=None, categories=["Cs"]), min_size=1, max_size=3)
    return st.one_of(mutated(seed), st.text(max_size=300), (mutated(seed) | st.text(max_size=20)).flatmap(
        lambda t: surrogate.map(lambda s: t[: len(t) // 2] + s + t[len(t) // 2:])))


def bytes_for(seed: str) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=300), mutated(seed).map(lambda s: s.encode("utf-8", "surrogatepass")),
                     st.tuples(mutated(seed), st.binary(min_size=1, max_size=4)).map(
                         lambda t: t[0].encode("utf-8", "surrogatepass") + t[1]))



def usable(comparisons):
    for c in comparisons or []:
        assert table.Comparison.from_json(c.to_json()).to_json() == c.to_json()
        c.to_markdown()
        c.to_csv()
        honest(c.to_text)


FAST = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FAST
@given(text_for(SEEDS["amd"]))
def test_table_parse_and_parse_amd(t):
    usable(honest(lambda: table.parse(t)))
    usable(honest(lambda: table.parse_amd(t)))


@FAST
@given(text_for(SEEDS["mmtests"]))
def test_mmtests_parse_compare(t):
    c = honest(lambda: mmtests.parse_compare(t))
    usable([c] if c is not None else [])


@FAST
@given(text_for(SEEDS["lkp"]))
def test_lkp_parse_report_and_comparison(t):
    honest(lambda: lkp.parse_report(t))
    c = honest(lambda: lkp.parse_comparison(t))
    usable([c] if c is not None else [])


@FAST
@given(text_for(SEEDS["json"]))
def test_comparison_and_batch_json(t):
    usable([c for c in [honest(lambda: table.Comparison.from_json(t))] if c is not None])
    honest(lambda: batch.BatchResult.from_json(t))


@FAST
@given(st.one_of(text_for(SEEDS["idle_trace"]), bytes_for(SEEDS["idle_trace"])))
def test_idle_parse_trace(t):
    honest(lambda: idle.parse_trace(t))


@FAST
@given(st.one_of(text_for(SEEDS["sysfs"]), bytes_for(SEEDS["sysfs"])))
def test_idle_parse_sysfs(t):
    honest(lambda: idle.parse_sysfs(t))


@FAST
@given(st.one_of(text_for(SEEDS["states"]), bytes_for(SEEDS["states"])))
def test_idle_state_csv(t):
    data = t.encode("utf-8", "surrogatepass") if isinstance(t, str) else t
    honest(lambda: _core.IdleStateTable.parse_csv(data, None))


@FAST
@given(st.one_of(text_for(SEEDS["ftrace"]), bytes_for(SEEDS["ftrace"])), st.sampled_from([100, 250, 300, 1000, 0, 7]))
def test_idle_parse_ftrace(t, hz):
    honest(lambda: idle.parse_ftrace(t, hz=hz))


@FAST
@given(st.one_of(text_for(SEEDS["pelt"]), bytes_for(SEEDS["pelt"])))
def test_pelt_parse_trace(t):
    honest(lambda: pelt.parse_trace(t))


@FAST
@given(bytes_for(SEEDS["sched"]), st.sampled_from([42, 0, 7]))
def test_pelt_ftrace_task(t, pid):
    honest(lambda: pelt.ftrace_task(t, pid))


@FAST
@given(bytes_for("4626 4630\n4611,4640 # run 3,4\n-1e3\n"))
def test_samples(t):
    honest(lambda: _core.parse_samples(t, None))


@pytest.mark.parametrize("reader,seed", [
    (idle.read_trace, "idle_trace"), (idle.read_states, "states"), (idle.read_states, "sysfs"),
    (idle.read_ftrace, "ftrace"), (pelt.read_trace, "pelt"), (_core.read_samples, "mmtests"),
])
def test_read_functions_on_files(tmp_path, reader, seed):
    """The read_* functions go through the same parsers; a few hostile files each."""
    cases = [b"", b"\xff\xfe\x00", SEEDS[seed].encode()[:-7] + b"\x00\xff", SEEDS[seed].encode() * 3,
             SEEDS[seed].encode().replace(b"\n", b"\r\n"), b"\n" * 10_000]
    for i, data in enumerate(cases):
        p = tmp_path / f"{i}.txt"
        p.write_bytes(data)
        honest(lambda p=p: reader(p))


def test_lone_surrogates_are_parse_errors():
    bad = "Hmean send-64 1.00 ( 0.00%) \ud800 2.00 ( 1.00%)\n"
    for f in (table.parse, table.parse_amd, mmtests.parse_compare, lkp.parse_report, lkp.parse_comparison,
              idle.parse_trace, idle.parse_sysfs, idle.parse_ftrace, pelt.parse_trace):
        with pytest.raises(schedlab.ParseError, match="not valid Unicode"):
            f(bad)

"""schedlab.lkp.parse_report on the robot's report as a mail archive kept it
(whitespace collapsed) and on lkp's aligned output."""

from __future__ import annotations

import math
from pathlib import Path

from schedlab import lkp

DATA = Path(__file__).parent / "data" / "lkp"
SEED = (DATA / "seeds" / "lkp-report-unixbench-execl.txt").read_text()


def test_every_row_of_the_seed_is_recovered():
    df = lkp.parse_report(SEED)
    # the seed: 10 header lines (axes, commits, labels, dashes, %stddev), then 68 rows
    rows = SEED.splitlines()[10:]
    assert len(df) == len(rows) == 68
    assert list(df.metric) == [line.split()[-1] for line in rows]
    first = df.iloc[0]
    assert (first.metric, first.base, first.change, first["head"]) == ("unixbench.score", 4626.0, -9.9, 4167.0)
    r = df[df.metric == "unixbench.time.involuntary_context_switches"].iloc[0]
    assert (r.base, r.base_stddev, r.change, r["head"], r.head_stddev) == (3495362.0, 4.0, 70.4, 5957769.0, 2.0)
    r = df[df.metric == "mpstat.cpu.idle%"].iloc[0]
    assert (r.base, r.change, r.change_unit, r["head"]) == (11.87, 7.8, "", 19.63)
    r = df[df.metric == "unixbench.time.minor_page_faults"].iloc[0]
    assert (r.base, r["head"]) == (2.866e8, 2.534e8)
    assert df.attrs["commits"] == ["a07630b8b2c16f82", "d519329f72a6f36bc4f2b85452"]
    # every row: base, change and head present
    assert not df[["base", "change", "head"]].isna().any().any()


def _bounds(v: float) -> tuple[float, float]:
    """The interval the printed value came from (lkp prints %.2f below 1000, %d
    truncated up to 1e8, %.4g above)."""
    a = abs(v)
    if a < 1000 and v != int(v) or (a < 1000 and f"{v:.2f}" != str(int(v))):
        return v - 0.005, v + 0.005
    if a > 1e8:
        e = math.floor(math.log10(a))
        h = 0.5 * 10 ** (e - 3)
        return v - h, v + h
    return (v, v + 1) if v >= 0 else (v - 1, v)


def test_recomputed_change_agrees_to_printed_precision():
    df = lkp.parse_report(SEED)
    checked = 0
    for r in df.itertuples():
        b0, b1 = _bounds(r.base)
        h0, h1 = _bounds(r.head)
        if r.change_unit == "":
            lo, hi = h0 - b1, h1 - b0
        else:
            if b0 <= 0:
                continue
            cands = [100 * (h - b) / b for h in (h0, h1) for b in (b0, b1)]
            lo, hi = min(cands), max(cands)
        assert lo - 0.05 <= r.change <= hi + 0.05, (r.metric, r.base, r.change, r.head, lo, hi)
        checked += 1
    assert checked == len(df)


def test_aligned_output_of_lkp_round_trips():
    text = (DATA / "golden" / "out_B_4v4.txt").read_text()
    df = lkp.parse_report(text)
    assert list(df.section[:2]) == ["failure", "failure"]
    f = df.iloc[0]
    assert (f.base, f.base_runs, f.change, f["head"], f.head_runs) == (2.0, 4, -50.0, 0.0, 4)
    r = df[df.metric == "vmstat.io.bi"].iloc[0]
    assert (r.base, r.change, r["head"], r.head_stddev) == (0.0, 1e104, 105.0, 10.0)
    r = df[df.metric == "vmstat.procs.b"].iloc[0]
    assert (r.base_stddev, r.change) == (173.0, 19450.0)
    assert len(df) == 11

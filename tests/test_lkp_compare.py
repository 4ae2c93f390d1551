"""schedlab.lkp compare: the CLI and Python API reproduce lkp's own goldens byte for byte
(tests/data/lkp/golden, printed by lkp-tests' Ruby code) and carry directions/verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from schedlab import _core, lkp

from . import goldens
from .cli_run import run_cli

GOLDEN = Path(__file__).parent / "data" / "lkp" / "golden"
A = GOLDEN / "scenario_a_raw/unixbench/performance-30s-1-execl/lkp-ivb-d04/debian-x86_64.cgz/x86_64-rhel/gcc-7"
A_BASE = A / "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"
A_HEAD = A / "d519329f72a6f36bc4f2b85452aa7c3b0d1e2f3a"
B1 = GOLDEN / "scenario_b_edge/1111111111111111111111111111111111111111"
H1 = GOLDEN / "scenario_b_edge/2222222222222222222222222222222222222222"
B2 = GOLDEN / "scenario_b_edge2/1111111111111111111111111111111111111111"
H2 = GOLDEN / "scenario_b_edge2/2222222222222222222222222222222222222222"

FLAGS_BASE = GOLDEN / "flags" / ("c" * 40)
FLAGS_HEAD = GOLDEN / "flags" / ("d" * 40)

# the ncompare goldens (tests/data/lkp/golden/goldens.csv; tests/it/lkp_golden.rs checks
# every one): each binding runs one per set of ncompare options, the goldens rotating
ROOTED = [r for r in goldens.read("lkp/golden") if r["roots"]]
CLI_PICKS = goldens.spread(ROOTED, ("options",), "golden", offset=0)
API_PICKS = goldens.spread(ROOTED, ("options",), "golden", offset=1)


def _ids(rows: list[dict[str, str]]) -> list[str]:
    return [f"{r['golden']}{'#' + r['block'] if r['block'] else ''}" for r in rows]


def _want(r: dict[str, str]) -> str:
    """The golden's text: the file, or its block N (`#### N` before it: compare_dirs.rb --many)."""
    text = (GOLDEN / r["golden"]).read_text()
    if not r["block"]:
        return text
    blocks, cur = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("#### "):
            cur = []
            blocks.append(cur)
        else:
            cur.append(line)
    return "".join(blocks[int(r["block"])])


def _kwargs(r: dict[str, str]) -> dict:
    """lkp.compare's keywords for the golden's ncompare options."""
    opts = r["options"].split()
    threshold = float(opts[opts.index("-p") + 1]) if "-p" in opts else None
    return {"all_keys": "-a" in opts, "more": "-m" in opts, "kpi": "-k" in opts, "perf_profile_threshold": threshold}


def test_the_picks_cover_every_option_set():
    options = {r["options"] for r in ROOTED}
    assert {r["options"] for r in CLI_PICKS} == {r["options"] for r in API_PICKS} == options
    assert len(options) >= 7
    assert any(r["block"] for r in CLI_PICKS + API_PICKS) and any(not r["block"] for r in CLI_PICKS + API_PICKS)




@pytest.mark.parametrize("r", CLI_PICKS, ids=_ids(CLI_PICKS))
def test_cli_text_is_lkps_byte_for_byte(r):
    rc, out, _ = run_cli("lkp", "compare", *r["options"].split(), *(str(GOLDEN / p) for p in r["roots"].split()))
    assert rc == 0
    assert out == _want(r)


@pytest.mark.parametrize("r", API_PICKS, ids=_ids(API_PICKS))
def test_api_text_is_lkps_byte_for_byte(r):
    roots = [GOLDEN / p for p in r["roots"].split()]
    want = _want(r)
    assert _core.lkp_compare_text([str(p) for p in roots], **_kwargs(r)) == want
    # the Comparison model renders the same text
    assert lkp.compare(*roots, **_kwargs(r)).to_text() == want


def test_perf_profile_threshold_flag_is_checked():
    rc, _, err = run_cli("lkp", "compare", "-p", "nan", str(FLAGS_BASE), str(FLAGS_HEAD))
    assert rc == 2 and "got nan" in err, err




def test_directions_verdicts_and_p_in_pandas():
    c = lkp.compare(A_BASE, A_HEAD)
    df = c.to_pandas()
    score = df[(df.name == "unixbench.score") & (df.kernel == c.kernels[1])].iloc[0]
    assert score.direction == "higher"
    assert score.verdict == "worse"
    assert score.test == "welch" and score.p < 0.001
    assert bool(score.significant)  # the robot's own range rule selected it
    # the change is lkp's %change: 100*(4167.35-4626.05)/4626.05 printed -9.9
    assert round(score.change, 1) == -9.9
    cs = df[(df.name == "vmstat.system.cs")]
    assert cs.empty or set(cs.direction) == {"unknown"}
    html = c._repr_html_()
    assert "unixbench.score" in html and "<table" in html


def test_other_formats_from_the_cli():
    rc, out, _ = run_cli("lkp", "compare", "--format", "json", str(A_BASE), str(A_HEAD))
    assert rc == 0
    d = json.loads(out)
    assert d["tool"] == "lkp" and d["schema"] == 1
    assert d["rows"][0]["name"] == "unixbench.score"
    rc, out, _ = run_cli("lkp", "compare", "--format", "csv", str(A_BASE), str(A_HEAD))
    assert out.splitlines()[0].startswith("group,name,kernel,direction")
    rc, out, _ = run_cli("lkp", "compare", "--format", "markdown", str(B1), str(H1))
    assert "will-it-scale.per_thread_ops" in out


def test_several_heads_against_one_base():
    c = lkp.compare(B1, H1, H2)
    text = c.to_text()
    assert "  %reproduction    fail:runs  %reproduction    fail:runs" in text
    assert _core.lkp_compare_text([str(B1), str(H1), str(H2)]) == text
    assert len(c.kernels) == 3


def test_load_result_root():
    r = lkp.load(A_BASE)
    assert r.commit == "a07630b8b2c16f82a2d7b5ecfa4a1c0a8e0c5a01"
    assert r.runs == 4
    assert r.matrix["unixbench.score"] == [4626.1, 4610.4, 4641.7, 4626.0]
    assert r.axes["testcase"] == "unixbench"
    assert r.to_pandas().shape[1] == 4


def test_commits_by_prefix_under_a_root():
    # `lkp compare a07630b8 d519329f` as the issue asks: prefixes found under --root
    want = (GOLDEN / "out_A_default.txt").read_text()
    rc, out, _ = run_cli("lkp", "compare", "--root", str(GOLDEN / "scenario_a_raw"), "a07630b8", "d519329f")
    assert rc == 0
    assert out == want
    # a prefix held by two result roots is an error listing both
    rc, out, err = run_cli("lkp", "compare", "--root", str(GOLDEN), "1111", "2222")
    assert rc != 0 and out == ""
    assert "ambiguous" in err and "scenario_b_edge/1111" in err and "scenario_b_edge2/1111" in err


# gen_query.py's -s/-o/-c cases (goldens.csv rows with a --root; tests/it/lkp_golden.rs runs
# all of them): every other one through the CLI
QUERIED = [r for r in goldens.read("lkp/golden") if r["root"]][::2]


@pytest.mark.parametrize("r", QUERIED, ids=goldens.ids(QUERIED))
def test_axis_queries_from_the_cli(r):
    """tools/oracles/lkp/gen_query.py: lkp's ncompare -s/-o/-c on the same tree."""
    rc, out, err = run_cli("lkp", "compare", "--root", str(GOLDEN / r["root"]), *r["queries"].split())
    assert rc == 0, err
    assert out == (GOLDEN / r["golden"]).read_text()


def test_axis_query_errors_are_exit_2():
    rc, _, err = run_cli("lkp", "compare", "--root", str(GOLDEN / "query"), "-s", "commit=ffff")
    assert rc == 2 and "commit=ffff" in err and "Traceback" not in err, err
    rc, _, err = run_cli("lkp", "compare", "-s", "commit=ffff")
    assert rc == 2 and "--root" in err, err
    rc, _, err = run_cli("lkp", "compare", str(FLAGS_BASE))
    assert rc == 2 and "BASE and HEAD" in err, err

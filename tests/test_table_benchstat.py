"""``--format benchstat``: the data lines of ``mmtests compare`` with Mann-Whitney are
those Go's benchstat prints for the same per-run samples
(tests/data/table/benchstat/netperf-udp.benchstat.txt, tools/oracles/table/benchstat.py)."""

from pathlib import Path

import pytest
from schedlab import _core, cli, mmtests
from schedlab.errors import InsufficientDataError

DATA = Path(__file__).parent / "data"
LOGS = DATA / "mmtests" / "logs-head"
WANT = DATA / "table" / "benchstat" / "netperf-udp.benchstat.txt"


def _body(text: str) -> list[str]:
    # after the two header lines (the unit differs: MMTests' logs name none), up to
    # schedlab's closing line
    return [line for line in text.splitlines()[2:] if not line.startswith("median ± ")]


def test_cli_rows_are_benchstats(capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli.main(["mmtests", "compare", "-d", str(LOGS), "-b", "netperf-ipv4-udp", "-n",
                   "6.8-vanilla,6.9-patched", "--format", "benchstat", "--test", "mann-whitney"])
    assert rc in (0, None)
    out = capsys.readouterr().out
    assert _body(out) == _body(WANT.read_text())
    assert "mann-whitney" in out.splitlines()[-1]


def test_one_option_list() -> None:
    assert "benchstat" in _core.TABLE_FORMATS
    c = mmtests.compare(LOGS, "netperf-ipv4-udp", ["6.8-vanilla", "6.9-patched"])
    assert c.to_benchstat().splitlines()[2].startswith("udpstream-send-64")


def test_no_samples_is_an_error() -> None:
    c = mmtests.compare(LOGS, "netperf-ipv4-udp", ["6.8-vanilla", "6.9-patched"])
    pasted = mmtests.parse_compare(c.to_text())
    with pytest.raises(InsufficientDataError, match="per-run samples"):
        pasted.to_benchstat()

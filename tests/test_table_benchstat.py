"""``--format benchstat``: the rows and footnotes of ``mmtests compare`` are those Go's
benchstat prints for the same per-run samples, whatever test the comparison used (the
view computes benchstat's own; tests/data/table/benchstat/netperf-udp.benchstat.txt,
tools/oracles/table/benchstat.py)."""

from pathlib import Path

import pytest
from schedlab import _core, cli, mmtests
from schedlab.errors import InsufficientDataError

DATA = Path(__file__).parent / "data"
LOGS = DATA / "mmtests" / "logs-head"
WANT = DATA / "table" / "benchstat" / "netperf-udp.benchstat.txt"


def _body(text: str) -> list[str]:
    # after the two header lines (the unit differs: MMTests' logs name none)
    return text.splitlines()[2:]


@pytest.mark.parametrize("test", ["mann-whitney", "welch"])
def test_cli_rows_are_benchstats(capsys: pytest.CaptureFixture[str], test: str) -> None:
    rc = cli.main(["mmtests", "compare", "-d", str(LOGS), "-b", "netperf-ipv4-udp", "-n",
                   "6.8-vanilla,6.9-patched", "--format", "benchstat", "--test", test])
    assert rc in (0, None)
    out = capsys.readouterr().out
    assert _body(out) == _body(WANT.read_text())


def test_one_option_list() -> None:
    assert "benchstat" in _core.TABLE_FORMATS
    c = mmtests.compare(LOGS, "netperf-ipv4-udp", ["6.8-vanilla", "6.9-patched"])
    assert c.to_benchstat().splitlines()[2].startswith("udpstream-send-64")


def test_no_samples_is_an_error() -> None:
    c = mmtests.compare(LOGS, "netperf-ipv4-udp", ["6.8-vanilla", "6.9-patched"])
    pasted = mmtests.parse_compare(c.to_text())
    with pytest.raises(InsufficientDataError, match="per-run samples"):
        pasted.to_benchstat()

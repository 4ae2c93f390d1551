"""From the seed fixtures alone (tables as posted to LKML): parse the table, take
gmean_ratio(), and get the poster's own overview row for that machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from schedlab import mmtests

SEEDS = Path(__file__).parent / "data" / "mmtests" / "seeds"


def _overview_row(section: str, machine: str) -> list[str]:
    text = (SEEDS / "mmtests-overview-teo.txt").read_text()
    block = text.split(f"* {section}")[1]
    for line in block.splitlines():
        if line.strip().startswith(machine) and any(w in line for w in ("better", "worse", "change")):
            rest = line.strip()[len(machine):]
            parts = [p.strip() for p in rest.split("  ") if p.strip()]
            return parts
    raise AssertionError(machine)


@pytest.mark.parametrize("seed,section", [
    ("mmtests-sockperf-udp-throughput.txt", "sockperf on loopback over UDP"),
    ("mmtests-netperf-udp.txt", "netperf on loopback over UDP"),
    ("mmtests-tbench4.txt", "tbench on loopback"),
])
def test_gmean_ratio_reproduces_the_posted_overview(seed: str, section: str) -> None:
    c = mmtests.parse_compare((SEEDS / seed).read_text(), seed)
    machine = c.meta["machine"]
    labels = [mmtests.overview_label(r) for r in list(c.gmean_ratio().values())[1:]]
    assert labels == _overview_row(section, machine)


def test_sockperf_ratio_by_hand() -> None:
    c = mmtests.parse_compare((SEEDS / "mmtests-sockperf-udp-throughput.txt").read_text())
    # teo-v6: Hmean ratios of the five sizes, straight from the seed's numbers
    r = [77.51 / 70.34, 549.93 / 499.24, 1632.63 / 1489.13, 2698.70 / 2469.62, 4521.11 / 4165.12]
    g = 1.0
    for x in r:
        g *= x
    assert c.gmean_ratio()["4.18.0-teo-v6+backport"] == pytest.approx(g ** (1 / 5), rel=1e-12)

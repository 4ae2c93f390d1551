"""Shared pytest fixtures and settings."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

DATA = Path(__file__).parent / "data"

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
# a long hand run of the property tests: SCHEDLAB_HYPOTHESIS=stress pytest tests/test_hostile_*.py
settings.register_profile("stress", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("SCHEDLAB_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def data_dir() -> Path:
    """tests/data (copies of the reference goldens and fixtures; the reference tree is never read)."""
    return DATA


#: The lock the tests that record on the running kernel or change its settings hold.
#: Those settings (tracefs instances, the cpuidle governor, /dev/cpu_dma_latency) are the
#: machine's, so the lock is too: in /tmp, not in a run's own temporary directory, it
#: keeps the two pytest-xdist workers apart, and two test runs on one machine as well.
KERNEL_LOCK = Path("/tmp/schedlab-tests-running-kernel.lock")


@pytest.fixture
def running_kernel() -> Iterator[None]:
    """Hold the machine-wide lock of the running kernel's settings for one test (a
    test module takes it with ``pytestmark = pytest.mark.usefixtures("running_kernel")``).
    A lock, not xdist's ``xdist_group`` mark: pytest 9.2 made that mark silently group
    nothing (DEVELOPING.md, "Build and test")."""
    with KERNEL_LOCK.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _allowed_skips() -> list[str]:
    """The reasons tests/allowed_skips.txt lets CI skip for (text before " # ")."""
    lines = (DATA.parent / "allowed_skips.txt").read_text().splitlines()
    return [ln.split(" # ", 1)[0].strip() for ln in lines if ln.strip() and not ln.startswith("#")]


_UNEXPECTED_SKIPS: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Under CI=true, remember every skip whose reason tests/allowed_skips.txt does not list."""
    if not os.environ.get("CI") or not report.skipped or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    reason = reason.removeprefix("Skipped: ")
    if not any(reason.startswith(a) for a in _allowed_skips()):
        _UNEXPECTED_SKIPS.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a CI run that skipped a test for a reason not allowed (a silent skip would drop a parity check)."""
    if _UNEXPECTED_SKIPS:
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"{len(_UNEXPECTED_SKIPS)} test(s) skipped under CI=true for a reason tests/allowed_skips.txt "
                 "does not allow:", *(f"  {s}" for s in _UNEXPECTED_SKIPS)]
        if tr is not None:
            tr.write_line("\n".join(lines), red=True)
        if session.exitstatus == 0:
            session.exitstatus = 1

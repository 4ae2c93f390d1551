"""Shared pytest fixtures and settings."""

from __future__ import annotations

import os
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

"""The verdict rule's defaults as the core defines them (``table::VerdictRule``'s
``Default``, ``stats::Test``'s ``Default``; docs/verdicts.md), read once here so that
no signature spells them again."""

from __future__ import annotations

from . import _core

ALPHA, MARGIN, POWER = _core.verdict_defaults()
"""Significance level, equivalence margin (percent) and power of the verdict rule."""

TEST: str = _core.DEFAULT_TEST
"""The two-sample test behind verdicts when none is named."""

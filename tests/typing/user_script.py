"""A user's script, type-checked with ``mypy --strict`` in CI (.ci/run): the public API
must be importable and typed without ``Any`` leaking into a strict caller."""

import schedlab
from schedlab import stats

base = [4610.0, 4632.0, 4641.0, 4619.0, 4628.0]
head = [4160.0, 4171.0, 4155.0, 4180.0, 4169.0]


def change() -> float:
    try:
        return stats.pct_change(stats.hmean(base), stats.hmean(head), higher_is_better=True)
    except schedlab.SchedlabError as e:
        raise SystemExit(str(e)) from None


def p_value() -> float:
    return stats.welch_ttest(base, head).p


def q_values() -> list[float]:
    return [float(q) for q in stats.fdr_bh([0.01, 0.2, 0.03])]


if __name__ == "__main__":
    print(change(), p_value(), q_values())

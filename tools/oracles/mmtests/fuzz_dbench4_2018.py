#!/usr/bin/env python3
"""Random dbench4 trees in MMTests 2018's layout (<benchmark>-<name>/noprofile/dbench-<N>.log),
for the 2018 subselection and --print-ratio rules (docs/mmtests.md §4.8, §7.6). Written by
e0_dbench4.sh into tests/data/mmtests/e0-dbench4/.

    fuzz_dbench4_2018.py OUT SEED N flat|spread

flat:   every run's samples of an operation are one value repeated (1 to 40 times): no
        spread, so every draw R's subselection makes is the same and compare-mmtests.pl's
        output does not depend on R's random numbers.
spread: samples with spread as well (random upstream: R draws them).
Some runs lack an operation the baseline has, or have one it lacks. Prints
`caseK NAME1,NAME2,...` per case.
"""
import os
import random
import sys

NAMES = [["a", "b"], ["4.18.0-vanilla", "4.18.0-teo", "4.18.0-teo-v6+backport"], ["v1", "v2-x", "v3-y", "v4-z"]]
CLIENTS = [1, 2, 4, 8, 16, 32]
CENTRES = [0, 5, 88, 113, 1000, 123456]


def log(vals):
    """dbench's client output: one `completed in D ms at time T ms` line per pass."""
    out = ["dbench version 4.00 - Copyright Andrew Tridgell 1999-2004", "",
           "Running for 600 seconds with load 'client.txt' and minimum warmup 120 secs", "releasing clients"]
    t = 0
    for v in vals:
        t += v
        out.append(f"   0 completed in {v} ms at time {t} ms")
    return "\n".join(out) + "\n"


def samples(kind):
    c = random.choice(CENTRES)
    n = random.choice([1, 2, 3, 5, 10, 40])
    if kind == "flat" or random.random() < 0.3:
        return [c] * n
    n = max(n, 2)
    if random.random() < 0.3:
        return [c, c + random.randint(1, 9)] * (n // 2)
    return [max(0, int(c * random.uniform(0.8, 1.2)) + random.randint(0, 3)) for _ in range(n)]


def main(out, seed, ncases, kind):
    random.seed(seed)
    for k in range(ncases):
        names = random.choice(NAMES)
        ops = sorted(random.sample(CLIENTS, random.randint(1, 4)))
        for ni, name in enumerate(names):
            d = f"{out}/case{k}/dbench4-{name}/noprofile"
            os.makedirs(d, exist_ok=True)
            mine = list(ops)
            if ni > 0 and len(mine) > 1 and random.random() < 0.15:
                mine.remove(random.choice(mine))
            if ni > 0 and random.random() < 0.1:
                mine.append(64)
            for op in mine:
                with open(f"{d}/dbench-{op}.log", "w") as f:
                    f.write(log(samples(kind)))
        print(f"case{k} {','.join(names)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])

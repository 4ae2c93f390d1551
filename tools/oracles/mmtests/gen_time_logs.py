#!/usr/bin/env python3
"""Log trees of the GNU-time families, as their shellpacks write them.

    gen_time_logs.py ROOT    writes ROOT/head/<name>/iter-0/<bench>/logs/time-<A>-<I>
                             (head: `$TIME_CMD -o $LOGDIR_RESULTS/time-<A>-<I> cmd`, GNU time's
                             default format only) and ROOT/legacy/<name>/iter-0/kernbench/logs/
                             kernbench-<J>-<I>.time (2024/2025: make's stderr and time's output
                             appended with 2>>) and .../usemem/logs/usemem-<T>-<I> (`$TIME_CMD -o`)

A per family (from each <family>-bench): kernbench/poundsyscall/usemem thread counts, gitsource
and gitcheckout `_`, autonumabench $TESTTYPE names, nas `<job>.<class>`, trunc fault/trunc.
The second kernel is 5% slower. Seeded: rerunning writes the same bytes.
"""
import os
import random
import sys

NAMES = ["6.8-vanilla", "6.9-patched"]
ITERS = 5
FAMILIES = {
    "kernbench": (["2", "4", "8"], lambda a: 240.0 / int(a)),
    "gitsource": (["_"], lambda a: 95.0),
    "gitcheckout": (["_"], lambda a: 3.2),
    "poundsyscall": (["1", "4", "16"], lambda a: 2.0 + int(a) * 0.3),
    "usemem": (["1", "4", "16"], lambda a: 1.2 + int(a) * 0.05),
    "autonumabench": (["NUMA01", "NUMA01_THREADLOCAL", "NUMA02", "NUMA02_SMT"], lambda a: 20.0 + len(a)),
    "nas": (["bt.C", "cg.C", "ep.C", "mg.C"], lambda a: {"b": 180.0, "c": 40.0, "e": 12.0, "m": 9.0}[a[0]]),
    "trunc": (["fault", "trunc"], lambda a: 0.35 if a == "fault" else 0.0421),
}


def elapsed(s):
    # GNU time's %E: [h:]m:ss.cc (hours without the fraction)
    if s >= 3600:
        h, r = divmod(int(s), 3600)
        return f"{h}:{r // 60:02d}:{r % 60:02d}"
    m, r = divmod(s, 60)
    return f"{int(m)}:{r:05.2f}"


def gnu_time(total):
    user = total * random.uniform(1.5, 3.5)
    syst = total * random.uniform(0.1, 0.4)
    cpu = int(100 * (user + syst) / total)
    return (f"{user:.2f}user {syst:.2f}system {elapsed(total)}elapsed {cpu}%CPU "
            f"(0avgtext+0avgdata {random.randint(20000, 90000)}maxresident)k\n"
            f"0inputs+{random.randint(0, 9999)}outputs ({random.randint(0, 9)}major+{random.randint(1000, 99999)}minor)"
            f"pagefaults 0swaps\n")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    root = sys.argv[1]
    random.seed(20261201)
    for idx, name in enumerate(NAMES):
        k = 1.0 + 0.05 * idx
        for fam, (factors, base) in FAMILIES.items():
            d = f"{root}/head/{name}/iter-0/{fam}/logs"
            for a in factors:
                for i in range(1, ITERS + 1):
                    write(f"{d}/time-{a}-{i}", gnu_time(base(a) * k * random.uniform(0.97, 1.03)))
        d = f"{root}/legacy/{name}/iter-0/kernbench/logs"
        for j in ["2", "4", "8"]:
            for i in range(1, ITERS + 1):
                noise = "make[1]: warning: jobserver unavailable: using -j1.\n" if i == 3 else ""
                write(f"{d}/kernbench-{j}-{i}.time", noise + gnu_time(240.0 / int(j) * k * random.uniform(0.97, 1.03)))
    random.seed(20261202)
    for idx, name in enumerate(NAMES):
        k = 1.0 + 0.05 * idx
        d = f"{root}/legacy/{name}/iter-0/usemem/logs"
        for t in ["1", "4", "16"]:
            for i in range(1, ITERS + 1):
                write(f"{d}/usemem-{t}-{i}", gnu_time((1.2 + int(t) * 0.05) * k * random.uniform(0.97, 1.03)))
    print("generated under", root)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Trees whose runs have zero results, for compare-mmtests.pl's partial tables
(tests/data/mmtests/partial/, docs/mmtests.md §12). Written by partial.sh.

    gen_partial_logs.py OUT

One tree per layout, each with the same runs of a higher-is-better benchmark
(netperf UDP_RR, sockperf UDP throughput; operations 1 and 64):
  6.8-vanilla, 6.9-good, 6.10-rc1-good   every sample positive
  6.9-zero, 6.11-zero                    every sample 0: the harmonic mean's best value is 0
  6.12-zero64                            operation 1 positive, operation 64 all 0
  6.13-mixed                             one 0 among positive samples of operation 1 (not the best)
Layouts: 2018/ (<benchmark>-<name>/noprofile), legacy/ (<name>/iter-0/<benchmark>/logs,
as 2024 and 2025 read it) and head/ (netperf-ipv4-udp-rr).
"""
import os
import sys

RUNS = ["6.8-vanilla", "6.9-good", "6.10-rc1-good", "6.9-zero", "6.11-zero", "6.12-zero64", "6.13-mixed"]
OPS = [1, 64]
SAMPLES = 5


def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def value(ki, run, op, it):
    if run.endswith("-zero") or (run.endswith("-zero64") and op == 64):
        return 0.0
    if run.endswith("-mixed") and op == 1 and it == 3:
        return 0.0
    return 50000 + 1000 * ki + 37 * it + op


def netperf(d, ki, run):
    w(f"{d}/protocols", "UDP_RR\n")
    for op in OPS:
        for it in range(1, SAMPLES + 1):
            v = value(ki, run, op, it)
            w(f"{d}/UDP_RR-{op}.{it}", f"212992 212992 1        1       60.00    {v:.2f}   \n212992 212992\n")


def sockperf(d, ki, run):
    for op in OPS:
        for it in range(1, SAMPLES + 1):
            v = value(ki, run, op, it) / 100
            w(f"{d}/udp-{op}-max-{it}.stdout", f"sockperf: Summary: BandWidth is {v / 8:.3f} MBps ({v:.3f} Mbps)\n")


def stamp(d, benches):
    t = 1700000000
    lines = [f"start :: {t}"]
    for b in benches:
        lines += [f"test begin :: {b} {t + 1}", f"test end :: {b} {t + 100} 0"]
    w(f"{d}/tests-timestamp", "\n".join(lines) + "\n")


def main(out):
    for ki, run in enumerate(RUNS):
        netperf(f"{out}/2018/netperf-udp-rr-{run}/noprofile", ki, run)
        netperf(f"{out}/legacy/{run}/iter-0/netperf-udp-rr/logs", ki, run)
        sockperf(f"{out}/legacy/{run}/iter-0/sockperf-udp-throughput/logs", ki, run)
        stamp(f"{out}/legacy/{run}/iter-0", ["netperf-udp-rr", "sockperf-udp-throughput"])
        netperf(f"{out}/head/{run}/iter-0/netperf-ipv4-udp-rr/logs", ki, run)
        stamp(f"{out}/head/{run}/iter-0", ["netperf-ipv4-udp-rr"])


if __name__ == "__main__":
    main(sys.argv[1])

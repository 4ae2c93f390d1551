#!/usr/bin/env python3
"""Speed of the cpuidle governor replay (by hand, not part of the tests).

1,000,000 idle periods (a mix of the synthetic patterns: Poisson interrupts, bimodal,
periodic timer, tick stopped; x86 Skylake-SP states, HZ=250) go through every governor
version of schedlab.idle, one CPU, one thread. Decisions per second = periods / time of
the replay call (array conversion included; the governor state is not recorded), best
of --repeat runs, both wall-clock and on-CPU time of the calling thread (the replay runs
in it with the GIL released): on a shared machine the on-CPU figure is the per-core rate.

Peer measured in the same run: a straightforward pure-Python implementation of menu
6.12 and teo 6.12 with the same idle-period model, written below from docs/idle-governors.md.
It runs on the first --peer-periods periods (it is slow), its choices are checked
against schedlab's on those periods, and its rate is compared with schedlab's.
Target: >= 10 M decisions/s per core for menu and teo.

    python benchmarks/bench_idle.py [--periods 1000000] [--peer-periods 50000] [--repeat 3] [--cpus 2]

Measured (2-vCPU AMD EPYC microVM shared with other jobs, release build, 3 runs; the
quietest run, load average 1.8, with the range of the other two in brackets), in
decisions per second per core:

    menu 6.12 12.4 M [9.3-10.7 M]   teo 6.12 28.2 M [16.0-23.3 M]
    menu 6.1  12.4 M [7.8-7.9 M]    teo 6.1  24.3 M [24.3-24.4 M]
    menu 4.20 12.3 M [8.1-11.3 M]   teo 5.1  20.4 M [20.7-21.0 M]
    menu 4.19 14.1 M [8.8-14.0 M]
    menu 4.18 14.0 M [9.3-13.6 M]
    teo 6.12 on 2 CPUs in parallel: 22.7-25.8 M decisions/s in total
    peer (plain Python, same choices on 50,000 periods): menu 6.12 25-72 k/s, teo 6.12
    53-186 k/s; schedlab 95-185x faster.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from schedlab import _core, idle

TICK_NSEC = 4_000_000  # HZ=250
KTIME_MAX = 2**63 - 1
U64_MAX = 2**64 - 1
UINT_MAX = 2**32 - 1
INT_MAX = 2**31 - 1


def make_trace(n: int, seed: int = 0) -> pd.DataFrame:
    q = n // 4
    parts = [
        idle.poisson(q, 300_000, seed=seed).to_pandas(),
        idle.bimodal(q, 60_000, 3_000_000, p_short=0.7, seed=seed + 1).to_pandas(),
        idle.periodic(q, 2_000_000, jitter_ns=20_000, seed=seed + 2).to_pandas(),
        idle.tick_stopped(n - 3 * q, 30_000_000, p_wake=0.3, seed=seed + 3).to_pandas(),
    ]
    # interleave in blocks of 1000 so every governor sees pattern changes
    blocks = [p.iloc[i : i + 1000] for i in range(0, q, 1000) for p in parts[:3]] + [parts[3]]
    return pd.concat(blocks, ignore_index=True)


# --- the peer: plain Python, one period at a time -----------------------------------


class States:
    def __init__(self, df: pd.DataFrame):
        self.tr = [int(v) * 1000 for v in df.target_residency_us]
        self.el = [int(v) * 1000 for v in df.exit_latency_us]
        self.poll = [bool(v) for v in df.polling]
        self.n = len(self.tr)


def typical_interval(iv: list[int]) -> int:
    thresh = INT_MAX
    while True:
        kept = [v for v in iv if v <= thresh]
        if not kept or max(kept) == 0:
            return UINT_MAX
        avg = sum(kept) // len(kept)
        var = sum((v - avg) ** 2 for v in kept) // len(kept)
        if var <= U64_MAX // 36 and ((avg * avg > var * 36 and len(kept) * 4 >= 24) or var <= 400):
            return avg
        if len(kept) * 4 <= 24:
            return UINT_MAX
        thresh = max(kept) - 1


class PyMenu612:
    def __init__(self, s: States):
        self.s, self.cf, self.iv, self.ptr = s, [8192] * 6, [0] * 8, 0
        self.needs_update, self.tick_wakeup, self.next_timer, self.bucket, self.last = False, False, 0, 0, 0

    def push(self, v: int) -> None:
        self.iv[self.ptr] = v & UINT_MAX
        self.ptr = (self.ptr + 1) % 8

    def select(self, sleep: int, delta_next: int, tick_stopped: bool, last_res: int, poll_limit_hit: bool) -> tuple[int, bool]:
        s = self.s
        if self.needs_update:
            if self.tick_wakeup and self.next_timer > TICK_NSEC:
                m = 45_000_000
            elif s.poll[self.last] and poll_limit_hit:
                m = self.next_timer
            else:
                el = s.el[self.last]
                m = last_res - el if last_res > 2 * el else last_res // 2
            m = min(m, self.next_timer)
            f = self.cf[self.bucket]
            f -= f // 8
            f += 1024 * m // self.next_timer if self.next_timer > 0 and m < 50_000_000 else 1024
            self.cf[self.bucket] = f
            self.push(m // 1000)
            self.needs_update = False
        elif last_res == 0:
            self.push(UINT_MAX)
        predicted = typical_interval(self.iv) * 1000
        if tick_stopped or predicted > 15_000:
            self.next_timer, delta_tick = sleep, delta_next
            self.bucket = sum(sleep >= b for b in (10_000, 100_000, 1_000_000, 10_000_000, 100_000_000))
            timer_us = ((8192000 // 2 + sleep * self.cf[self.bucket]) // 8192000) & UINT_MAX
            predicted = min(predicted, timer_us * 1000)
            if tick_stopped and predicted < TICK_NSEC:
                predicted = sleep
        else:
            self.next_timer, delta_tick, self.bucket = KTIME_MAX, TICK_NSEC // 2, 5
        if s.n <= 1 or self.next_timer < s.tr[1]:
            return 0, not s.poll[0]
        idx = -1
        for i in range(s.n):
            if idx == -1:
                idx = i
            if s.tr[i] <= predicted:
                idx = i
                continue
            if s.poll[idx] and s.tr[i] < 15_000 and s.tr[i] <= self.next_timer and s.el[i] <= predicted:
                predicted, idx = s.tr[i], i
                break
            if predicted < TICK_NSEC:
                break
            if not tick_stopped:
                predicted = s.tr[idx]
                break
            return (i if s.tr[idx] < TICK_NSEC and s.tr[i] <= delta_tick else idx), True
        idx = max(idx, 0)
        stop = True
        if (s.poll[idx] or predicted < TICK_NSEC) and not tick_stopped:
            stop = False
            if idx > 0 and s.tr[idx] > delta_tick:
                for i in range(idx - 1, -1, -1):
                    idx = i
                    if s.tr[i] <= delta_tick:
                        break
        return idx, stop

    def reflect(self, idx: int, got_tick: bool) -> None:
        self.last, self.needs_update, self.tick_wakeup = idx, True, got_tick


class PyTeo612:
    def __init__(self, s: States):
        self.s, self.hits, self.ints = s, [0] * s.n, [0] * s.n
        self.total = self.tick_hits = 0
        self.time_span, self.sleep_length, self.last = 0, 0, -1

    def update(self, last_res: int) -> None:
        s = self.s
        if self.time_span >= self.sleep_length:
            m = U64_MAX
        else:
            lat = s.el[self.last]
            m = last_res - lat // 2 if last_res >= lat else last_res // 2
        self.total = 0
        it = idur = 0
        for i in range(s.n):
            self.hits[i] -= self.hits[i] >> 3
            self.ints[i] -= self.ints[i] >> 3
            self.total += self.hits[i] + self.ints[i]
            if s.tr[i] <= self.sleep_length:
                it = i
                if s.tr[i] <= m:
                    idur = i
        if s.tr[-1] < TICK_NSEC:
            self.tick_hits -= self.tick_hits >> 3
            self.total += self.tick_hits
            if TICK_NSEC <= self.sleep_length:
                it = s.n
                if TICK_NSEC <= m:
                    self.tick_hits += 1024
                    self.total += 1024
                    return
        if it == idur:
            self.hits[it] += 1024
        else:
            self.ints[idur] += 1024
        self.total += 1024

    def select(self, clock: int, sleep: int, delta_next: int, tick_stopped: bool, last_res: int) -> tuple[int, bool]:
        s = self.s
        if self.last >= 0:
            self.update(last_res)
            self.last = -1
        self.time_span, self.sleep_length = clock, KTIME_MAX
        ok = lambda i: not tick_stopped or s.tr[i] >= TICK_NSEC  # noqa: E731
        isum = hsum = idx_isum = idx_hsum = 0
        idx = s.n - 1
        for i in range(1, s.n):
            isum += self.ints[i - 1]
            hsum += self.hits[i - 1]
        idx_isum, idx_hsum = isum, hsum
        tick_isum = isum + self.ints[-1]
        prev = idx
        if 2 * idx_isum > self.total - idx_hsum:
            first = idx
            acc = 0
            for i in range(idx - 1, -1, -1):
                acc += self.ints[i]
                if 2 * acc > idx_isum:
                    idx = i if ok(i) else first
                    break
                if not ok(i):
                    if first != idx:
                        continue
                    break
                first = i
        if idx == 0 and prev:
            self.sleep_length = sleep
            return 0, False
        if idx == 0 or (s.poll[0] and s.tr[idx] < 15_000):
            return idx, False
        duration, delta_tick = sleep, delta_next
        self.sleep_length = sleep
        if s.tr[idx] > duration:
            for i in range(idx - 1, -1, -1):
                idx = i
                if s.tr[i] <= duration:
                    break
        if s.tr[idx] < TICK_NSEC and tick_isum > self.total // 2 + self.total // 8:
            duration = TICK_NSEC // 2
        if (not s.poll[idx] and duration >= TICK_NSEC) or tick_stopped:
            return idx, True
        if idx > 0 and s.tr[idx] > delta_tick:
            for i in range(idx - 1, -1, -1):
                idx = i
                if s.tr[i] <= delta_tick:
                    break
        return idx, False

    def reflect(self, idx: int, clock: int, got_tick: bool, poll_hit: bool) -> None:
        self.last = idx
        if poll_hit or (got_tick and self.sleep_length > TICK_NSEC):
            self.time_span = self.sleep_length
        else:
            self.time_span = clock - self.time_span


def run_peer(kind: str, trace: pd.DataFrame, states: States) -> list[int]:
    gov = PyMenu612(states) if kind == "menu" else PyTeo612(states)
    poll_limit = next((min(tr, TICK_NSEC // 16) for tr in states.tr[1:] if tr >= 10_000), TICK_NSEC // 16)
    clock, last_res, poll_hit, out = 0, 0, False, []
    cols = [trace[c].to_numpy().tolist() for c in ("sleep_length_ns", "next_tick_ns", "wake_ns", "tick_stopped")]
    for sleep, nt, wake, ts in zip(*cols):
        nt = (nt - 1) % TICK_NSEC + 1
        dn = min(sleep, nt)
        if kind == "menu":
            idx, stop = gov.select(sleep, dn, bool(ts), last_res, poll_hit)
        else:
            idx, stop = gov.select(clock, sleep, dn, bool(ts), last_res)
        end = min(wake, sleep) if wake >= 0 else sleep
        got = False
        if not stop and not ts and nt <= end:
            end, got = nt, True
        poll_hit = False
        if states.poll[idx] and end > poll_limit:
            end, poll_hit, got = poll_limit, True, False
        last_res = end
        clock += end
        if kind == "menu":
            gov.reflect(idx, got)
        else:
            gov.reflect(idx, clock, got, poll_hit)
        clock += 50_000
        out.append(idx)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--periods", type=int, default=1_000_000)
    ap.add_argument("--peer-periods", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs replayed in parallel for the many-CPU line")
    args = ap.parse_args()

    trace = make_trace(args.periods)
    st = idle.preset("intel-skx")
    table = st.to_pandas()
    it = idle.trace(trace)
    print(f"{len(trace):,} idle periods, states intel-skx, HZ=250, one thread per trace\n")
    print(f"{'governor':<11} {'wall s':>8} {'decisions/s':>14} {'cpu s':>8} {'decisions/s/core':>17}")
    rates = {}
    _core.idle_simulate("menu", "6.12", 250, st, it, record_state=False)  # warm-up: first-touch of the output memory
    for gov, ver in idle.GOVERNORS:
        best = best_cpu = float("inf")
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.thread_time()
            r = _core.idle_simulate(gov, ver, 250, st, it, record_state=False)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.thread_time() - c0)
        rates[(gov, ver)] = len(trace) / best
        print(f"{gov + ' ' + ver:<11} {best:>8.3f} {len(trace) / best:>14,.0f} {best_cpu:>8.3f} {len(trace) / best_cpu:>17,.0f}")
        if (gov, ver) in (("menu", "6.12"), ("teo", "6.12")):
            rates[(gov, "idx")] = np.asarray(r["idx"])

    if args.cpus > 1:
        traces = [it] * args.cpus
        dt = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            _core.idle_simulate_many("teo", "6.12", 250, st, traces, record_state=False, threads=args.cpus)
            dt = min(dt, time.perf_counter() - t0)
        print(f"\nteo 6.12 on {args.cpus} CPUs in parallel: {args.cpus * len(trace) / dt:,.0f} decisions/s in total")

    m = min(args.peer_periods, len(trace))
    sub = trace.iloc[:m]
    print(f"\npeer: plain-Python menu/teo 6.12 on the first {m:,} periods")
    states = States(table)
    for kind in ("menu", "teo"):
        t0 = time.perf_counter()
        got = run_peer(kind, sub, states)
        dt = time.perf_counter() - t0
        same = np.array_equal(np.asarray(got), rates[(kind, "idx")][:m])
        ratio = rates[(kind, "6.12")] / (m / dt)
        print(f"{kind} 6.12: {m / dt:>12,.0f} decisions/s; schedlab is {ratio:,.0f}x faster; same choices: {same}")


if __name__ == "__main__":
    main()

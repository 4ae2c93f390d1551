#!/usr/bin/env python3
"""Generate tiny, deterministic synthetic MMTests work/log trees.

Two layouts are produced:
  logs/legacy/<name>/iter-0/<bench>/logs/...   (mmtests <= 3ded02f7, Jan 2026:
        per-benchmark Extract*.pm modules; sockperf/tbench4/dbench4 names)
  logs/head/<name>/iter-0/<bench>/logs/...     (mmtests HEAD 638401e0, Jun 2026:
        ExtractShellpack + shellpack_src/src/<bench>/parse-results)
Raw file formats mimic the real tools' stdout (netperf 2.6/2.7, sockperf 3.x,
perf bench sched messaging, dbench/tbench with --show-execute-time, schbench).

    gen_logs.py ROOT                       the two-kernel trees (tests/data/mmtests/logs-{legacy,head})
    gen_logs.py ROOT --kernels 21 --only netperf-udp,tbench,dbench --layout-2024
                                           wide trees: kernel i >= 2 is 6.<8+i>-k<i>, effect 1 + i/100;
                                           ROOT/2024 holds the dbench4/tbench4 logs MMTests 2024 writes
"""
import argparse
import gzip
import lzma
import os
import random

ROOT = "logs"
NAMES = ["6.8-vanilla", "6.9-patched"]
ONLY = None
random.seed(20260701)

def w(path, text, xz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if xz:
        with lzma.open(path, "wt") as f:
            f.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)

def logdir(layout, name, bench):
    return f"{ROOT}/{layout}/{name}/iter-0/{bench}/logs"

def stamp(layout, name):
    # tests-timestamp is only needed by the (optional) CACHE_MMTESTS cache
    w(f"{ROOT}/{layout}/{name}/iter-0/tests-timestamp", "start 1700000000\n")

# ---------------------------------------------------------------- netperf
def netperf_udp_stream(size, tput, recv_tput):
    msgs = int(tput * 1e6 / 8 / size * 60)
    out = ["MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : +/-2.500% @ 95% conf.  : demo"]
    for s in range(3):
        out.append(f"Interim result: {tput*random.uniform(.97,1.03):8.2f} 10^6bits/s over 1.000 seconds ending at 17000000{s:02d}.123")
    out += ["Socket  Message  Elapsed      Messages                ",
            "Size    Size     Time         Okay Errors   Throughput",
            "bytes   bytes    secs            #      #   10^6bits/sec",
            "",
            f"212992   {size:5d}   60.00     {msgs:8d}      0     {tput:.2f}",
            f"212992           60.00     {int(msgs*recv_tput/tput):8d}            {recv_tput:.2f}",
            "", ""]
    return "\n".join(out)

def netperf_udp_rr(size, tps):
    out = ["MIGRATED UDP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : +/-2.500% @ 95% conf.  : demo : first burst 0",
           "Interim result: 52000.00 Trans/s over 1.000 seconds ending at 1700000001.123",
           "Local /Remote",
           "Socket Size   Request  Resp.   Elapsed  Trans.",
           "Send   Recv   Size     Size    Time     Rate         ",
           "bytes  Bytes  bytes    bytes   secs.    per sec   ",
           "",
           f"212992 212992 {size:<8d} {size:<8d}60.00    {tps:.2f}   ",
           "212992 212992", "", ""]
    return "\n".join(out)

def gen_netperf(layout, name, bench, proto, k):
    d = logdir(layout, name, bench)
    w(f"{d}/protocols", proto + "\n")
    w(f"{d}/server-host", "127.0.0.1\n")
    w(f"{d}/units-{proto}", ("k" if proto.endswith("RR") else "m") + "\n")
    sizes = [64, 128, 1024] if proto == "UDP_STREAM" else [1]
    for size in sizes:
        for it in range(1, 6):
            if proto == "UDP_STREAM":
                base = {64: 420.0, 128: 830.0, 1024: 6100.0}[size] * k
                t = round(base * random.uniform(0.97, 1.03), 2)
                r = round(t * random.uniform(0.985, 1.0), 2)
                w(f"{d}/{proto}-{size}.{it}", netperf_udp_stream(size, t, r))
            else:
                t = round(52000.0 * k * random.uniform(0.98, 1.02), 2)
                w(f"{d}/{proto}-{size}.{it}", netperf_udp_rr(size, t))

# ---------------------------------------------------------------- sockperf
def gen_sockperf(layout, name, k):
    d = logdir(layout, name, "sockperf-udp-throughput")
    for size in [14, 100, 300]:
        for it in range(1, 6):
            mbps = {14: 33.4, 100: 238.0, 300: 690.0}[size] * k * random.uniform(0.96, 1.04)
            MBps = mbps / 8
            msgps = int(MBps * 1024 * 1024 / size)
            txt = f"""sockperf: == version #3.10-no.git == 
sockperf[CLIENT] send on:
[ 0] IP = 127.0.0.1       PORT = 11111 # UDP
sockperf: Warmup stage (sending a few dummy messages)...
sockperf: Starting test...
sockperf: Test end (interrupted by timer)
sockperf: Test ended
sockperf: Total of {msgps*30} messages sent in 30.000 sec

sockperf: NOTE: test was performed, using msg-size={size}. For getting maximum throughput consider using --msg-size=1472
sockperf: Summary: Message Rate is {msgps} [msg/sec]
sockperf: Summary: BandWidth is {MBps:.3f} MBps ({mbps:.3f} Mbps)
"""
            w(f"{d}/udp-{size}-max-{it}.stdout", txt)

# ---------------------------------------------------------------- hackbench
def hackbench_out(groups, t):
    return (f"# Running 'sched/messaging' benchmark:\n"
            f"# 20 sender and receiver processes per group\n"
            f"# {groups} groups == {groups*40} processes run\n\n"
            f"     Total time: {t:.3f} [sec]\n")

def gen_hackbench(layout, name, k):
    bench = "hackbench-process-pipes"
    d = logdir(layout, name, bench)
    for g in [1, 4, 16]:
        acc = ""
        for it in range(1, 6):
            t = {1: 0.021, 4: 0.075, 16: 0.310}[g] * k * random.uniform(0.9, 1.1)
            if layout == "legacy":
                w(f"{d}/hackbench-{g}-{it}", hackbench_out(g, t))
                w(f"{d}/time-{g}-{it}", "0.01user 0.05system 0:00.08elapsed 95%CPU\n")
            else:
                acc += hackbench_out(g, t)
        if layout == "head":
            w(f"{d}/hackbench-{g}", acc)

# ---------------------------------------------------------------- dbench/tbench
def loadfile_lines(clients, base_ms, k, n=40):
    rows, t = [], [0] * clients
    for i in range(n):
        c = i % clients
        dur = int(base_ms * k * random.lognormvariate(0, 0.08))
        t[c] += dur
        rows.append((c, dur, t[c]))
    rows.sort(key=lambda r: r[2])          # bench script: sort -n -k8
    return "".join(f"{c:4d} completed in {dur} ms at time {tm} ms\n" for c, dur, tm in rows)

def tput_lines(clients, mbs, k, secs=10):
    return "".join(f"{clients:4d}  {int(1000*s*clients):8d}  {mbs*k*random.uniform(.95,1.05):7.2f} MB/sec  execute {s:3.0f} sec  latency {random.uniform(1,5):.03f} ms\n"
                   for s in range(1, secs + 1))

def op_lines(k):
    ops = [("NTCreateX", 0.012), ("Close", 0.003), ("ReadX", 0.020), ("WriteX", 0.045)]
    return "".join(f" {o:<22s} {random.randint(10000,99999):7d} {lat*k*random.uniform(.9,1.1):9.03f} {lat*50:9.03f}\n" for o, lat in ops)

def gen_xbench(layout, name, which, k):
    # which: "tbench" or "dbench"
    bench = {"legacy": which + "4", "head": which}[layout]
    d = logdir(layout, name, bench)
    for c in [1, 2, 4]:
        base = {1: 95.0, 2: 100.0, 4: 120.0}[c] * (1.0 if which == "tbench" else 3.0)
        lf = loadfile_lines(c, base, k)
        if layout == "legacy":
            w(f"{d}/{which}-loadfile-{c}.log.xz", lf, xz=True)
            w(f"{d}/{which}-execute-{c}.log.xz", tput_lines(c, 250.0, 1/k), xz=True)
        else:
            w(f"{d}/benchlog-loadfile-{c}.xz", lf, xz=True)
            w(f"{d}/benchlog-tput-{c}.xz", tput_lines(c, 250.0, 1/k), xz=True)
            w(f"{d}/benchlog-op-{c}.xz", op_lines(k), xz=True)

# ---------------------------------------------------------------- schbench
def sch_block(kind, runtime, total, pcts, mn, mx):
    unit = "(usec)" if kind != "RPS" else "(requests)"
    hdr = f"{kind} Latencies percentiles {unit} runtime {runtime} (s) ({total} total samples)" if kind != "RPS" \
        else f"RPS percentiles (requests) runtime {runtime} (s) ({total} total samples)"
    out = [hdr]
    for p, v, star in pcts:
        pre = "\t* " if star else "\t  "
        out.append(f"{pre}{p:.1f}th: {v:<10d} ({random.randint(100,40000)} samples)")
    out.append(f"\t  min={mn}, max={mx}")
    return out

def gen_schbench(layout, name, k):
    d = logdir(layout, name, "schbench")
    for workers in [4, 8]:
        lines = ["setting worker threads to %d" % workers]
        intervals = 4  # 3 periodic + 1 final summary
        for i in range(1, intervals + 1):
            rt = 10 * i
            wk = [(50.0, int(7*k), False), (90.0, int(12*k*random.uniform(.9,1.1)), False),
                  (99.0, int(22*k*random.uniform(.8,1.2))+workers, True), (99.9, int(48*k*random.uniform(.8,1.2)), False)]
            rq = [(50.0, int(7920*k*random.uniform(.99,1.01)), False), (90.0, int(8016*k*random.uniform(.99,1.01)), False),
                  (99.0, int(8080*k*random.uniform(.98,1.02)), True), (99.9, int(9296*k*random.uniform(.95,1.05)), False)]
            rps = [(20.0, int(12208/k*random.uniform(.99,1.01)), False), (50.0, int(12336/k*random.uniform(.99,1.01)), True),
                   (90.0, int(12400/k*random.uniform(.99,1.01)), False)]
            lines += sch_block("Wakeup", rt, 123456, wk, 1, 1234)
            lines += sch_block("Request", rt, 123456, rq, 7405, 15555)
            lines += sch_block("RPS", rt, 11, rps, 12063, 12392)
            if i < intervals:
                lines.append(f"current rps: {rps[1][1]}")
            else:
                lines.append(f"average rps: {rps[1][1]:.2f}")
        w(f"{d}/schbench-{workers}.log", "\n".join(lines) + "\n")
        w(f"{d}/time-{workers}", "1.00user 2.00system 3:00.10elapsed 99%CPU\n")

def dbench_stdout(which, clients, lf, tp):
    """dbench 4's stdout with --show-execute-time as MMTests 2024's shellpack keeps it
    (dbench-N.log.gz): banner, per-second progress lines and completion lines by time."""
    head = ("dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n\n"
            "Running for 10 seconds with load 'client-tiny.txt' and minimum warmup 0 secs\n"
            + "".join(f"{i} of {clients} processes prepared for launch   0 sec\n" for i in range(clients + 1))
            + "releasing clients\n")
    rows = [(int(l.split()[7]), l) for l in lf.splitlines()]
    rows += [(1000 * int(l.split()[5]), l) for l in tp.splitlines()]
    rows.sort(key=lambda r: r[0])
    return head + "".join(l + "\n" for _, l in rows)

def gen_xbench_2024(name, which, k):
    d = logdir("2024", name, which + "4")
    for c in [1, 2, 4]:
        base = {1: 95.0, 2: 100.0, 4: 120.0}[c] * (1.0 if which == "tbench" else 3.0)
        text = dbench_stdout(which, c, loadfile_lines(c, base, k), tput_lines(c, 250.0, 1/k))
        os.makedirs(d, exist_ok=True)
        with gzip.GzipFile(f"{d}/{which}-{c}.log.gz", "wb", mtime=0) as f:
            f.write(text.encode())

def want(family):
    return ONLY is None or family in ONLY

def main():
    global ROOT, NAMES, ONLY
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--kernels", type=int, default=2)
    ap.add_argument("--only", help="comma-separated families: netperf-udp,netperf-udp-rr,sockperf,hackbench,tbench,dbench,schbench")
    ap.add_argument("--layout-2024", action="store_true", help="also ROOT/2024: MMTests 2024's dbench4/tbench4 logs")
    a = ap.parse_args()
    ROOT = a.root
    NAMES = NAMES + [f"6.{8 + i}-k{i:02d}" for i in range(2, a.kernels)]
    ONLY = set(a.only.split(",")) if a.only else None
    for layout in ("legacy", "head"):
        for idx, name in enumerate(NAMES):
            k = 1.0 if idx == 0 else 1.06 if idx == 1 else 1.0 + idx / 100
            tput_k = 1.0 if idx == 0 else 0.97 if idx == 1 else 1.0 - idx / 200
            stamp(layout, name)
            if layout == "legacy":
                if want("netperf-udp"):
                    gen_netperf(layout, name, "netperf-udp", "UDP_STREAM", tput_k)
                if want("netperf-udp-rr"):
                    gen_netperf(layout, name, "netperf-udp-rr", "UDP_RR", tput_k)
                if want("sockperf"):
                    gen_sockperf(layout, name, tput_k)
            else:
                if want("netperf-udp"):
                    gen_netperf(layout, name, "netperf-ipv4-udp", "UDP_STREAM", tput_k)
                if want("netperf-udp-rr"):
                    gen_netperf(layout, name, "netperf-ipv4-udp-rr", "UDP_RR", tput_k)
            if want("hackbench"):
                gen_hackbench(layout, name, k)
            if want("tbench"):
                gen_xbench(layout, name, "tbench", k)
            if want("dbench"):
                gen_xbench(layout, name, "dbench", k)
            if want("schbench"):
                gen_schbench(layout, name, k)
    if a.layout_2024:
        # MMTests 2024's dbench/tbench shellpack: one gzipped dbench stdout per client count
        for idx, name in enumerate(NAMES):
            k = 1.0 if idx == 0 else 1.06 if idx == 1 else 1.0 + idx / 100
            stamp("2024", name)
            for which in ("tbench", "dbench"):
                if want(which):
                    gen_xbench_2024(name, which, k)
    print("generated under", ROOT)

if __name__ == "__main__":
    main()

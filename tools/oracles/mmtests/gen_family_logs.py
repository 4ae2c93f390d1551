#!/usr/bin/env python3
"""Log trees of the line-result families, as each era's shellpack writes them.

    gen_family_logs.py ROOT    writes ROOT/<era>/<name>/iter-0/<bench>/logs/... for era in
                               head, 2025, 2024

head (shellpack_src/src/<bench>/<bench>-bench): benchlog-<A>-<B>[-<N>] read by
line-parse-results (perfpipe, perfsyscall, sembench, sysbenchcpu, sysbenchmutex, wis, xsbench,
sqlite, pedsort) and xfsrepair's time-<step>-<I>. 2024/2025: the names their shellpacks write
(pipe-<I>.log, syscall-<I>.log, sysbench-raw-<T>-<I>, xsbench-<T>-<I>.log.gz, sqlite.log.gz,
pedsort-<T>-<I>.log). The program output in each file is what the benchmark prints (perf bench,
sysbench 1.0, sembench, will-it-scale, XSBench, sqlite-txnpersec.pl, pedsort). Each kernel has
its own factor per family, so the tables are not trivial. Seeded: rerunning writes the same bytes.
"""
import gzip
import os
import random
import sys

NAMES = ["6.8-vanilla", "6.9-patched", "6.10-rc1"]
SPEED = [1.0, 1.04, 0.97]  # a kernel's time factor (values that are rates divide by it)
ITERS = 5
THREADS = [1, 2, 4]


def write(path, text, gz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if gz:
        # mtime 0: the same bytes on every run
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(text.encode())
    else:
        with open(path, "w") as f:
            f.write(text)


def jitter(x, r=0.03):
    return x * random.uniform(1 - r, 1 + r)


def perf_pipe(k):
    us = jitter(5.4 * k)
    return ("# Running 'sched/pipe' benchmark:\n# Executed 1000000 pipe operations between two processes\n\n"
            f"     Total time: {us:.3f} [sec]\n\n       {us:.6f} usecs/op\n{int(1e6 / us):>15d} ops/sec\n")


def perf_syscall(k):
    us = jitter(0.081 * k)
    return ("# Running 'syscall/basic' benchmark:\n# Executed 10000000 getppid() calls\n"
            f"     Total time: {us * 10:.3f} [sec]\n\n       {us:.6f} usecs/op\n{int(1e6 / us):>15d} ops/sec\n")


def sysbench(test, threads, k):
    eps = jitter(1000.0 * threads / k)
    lat = jitter(1.0 * k)
    body = "\nPrime numbers limit: 10000\n\nInitializing worker threads...\n\nThreads started!\n\nCPU speed:\n" \
        f"    events per second: {eps:8.2f}\n\n" if test == "cpu" else \
        "\nInitializing worker threads...\n\nThreads started!\n\n\n"
    if test == "mutex":
        lat = jitter(200.0 * k + threads * 3)
    return ("sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\nRunning the test with following options:\n"
            f"Number of threads: {threads}\nInitializing random number generator from current time\n\n"
            + body +
            "General statistics:\n    total time:                          10.0008s\n"
            f"    total number of events:              {int(eps * 10)}\n\nLatency (ms):\n"
            f"         min:                                  {lat * 0.95:7.2f}\n"
            f"         avg:                                  {lat:7.2f}\n"
            f"         max:                                  {lat * 2.1:7.2f}\n"
            f"         95th percentile:                      {lat * 1.06:7.2f}\n"
            f"         sum:                                {lat * eps * 10:9.2f}\n\nThreads fairness:\n"
            f"    events (avg/stddev):           {eps * 10 / threads:.4f}/30.12\n"
            "    execution time (avg/stddev):   9.9968/0.00\n\n")


def sembench(threads, k):
    return f"run time 30 seconds {int(jitter(250000.0 * threads / k))} worker burns per second\n"


def wis(threads, k):
    # after `sed -i '1,8d'`: the measurement lines of will-it-scale's main.c
    lines = []
    for _ in range(5):
        per = [int(jitter(500000 / k, 0.05)) for _ in range(threads)]
        lines.append(f"min:{min(per)} max:{max(per)} total:{sum(per)}\n")
    return "".join(lines)


def xsbench(threads, k):
    lookups = int(jitter(2_000_000.0 * threads / k))
    return ("Beginning simulation...\n\nCalculating XS's...\n\nSimulation complete.\n"
            "================================================================================\n"
            "                                     RESULTS\n"
            "================================================================================\n"
            f"Threads:     {threads}\nRuntime:     {15_000_000 / lookups:.3f} seconds\nLookups:     15,000,000\n"
            f"Lookups/s:   {lookups:,}\nVerification checksum: 74966788 (Valid)\n"
            "================================================================================\n")


def sqlite(k):
    out, t = [], 0.0
    for _ in range(14):
        diff = jitter(0.51, 0.01)
        t += diff
        txn = int(jitter(1200 / k) * diff)
        kind = "warmup " if t < 2 else "execute"
        out.append(f"{kind} {t:12.2f} {diff:12.2f} {txn:12d} {txn / diff:12.3f}\n")
    return "".join(out)


def pedsort(threads, k):
    return f"{threads}: 1382i 1382o throughput: {jitter(2400.0 / k):.2f} jobs/hour/core\n"


def gnu_time(total):
    user = total * random.uniform(0.2, 0.4)
    syst = total * random.uniform(0.3, 0.6)
    m, s = divmod(total, 60)
    return (f"{user:.2f}user {syst:.2f}system {int(m)}:{s:05.2f}elapsed {int(100 * (user + syst) / total)}%CPU "
            f"(0avgtext+0avgdata {random.randint(20000, 90000)}maxresident)k\n"
            f"0inputs+{random.randint(0, 9999)}outputs (0major+{random.randint(1000, 99999)}minor)pagefaults 0swaps\n")


def head_perfpipe(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/benchlog-_-_-{i}", perf_pipe(k))


def head_perfsyscall(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/benchlog-_-_-{i}", perf_syscall(k))


def head_sembench(d, k):
    for t in THREADS:
        for w in ["futex", "nanosleep"]:
            write(f"{d}/benchlog-{w}-{t}-1", sembench(t, k))


def head_sysbench(test):
    def gen(d, k):
        for t in THREADS:
            for i in range(1, ITERS + 1):
                write(f"{d}/benchlog-{t}-_-{i}", sysbench(test, t, k))
                write(f"{d}/time-{t}-{i}", gnu_time(10.0))
    return gen


def head_xsbench(d, k):
    write(f"{d}/init.log", "Writing XS data to file...\n")
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/benchlog-{t}-_-{i}", xsbench(t, k))
            write(f"{d}/xsbench-{t}-{i}.time", gnu_time(8.0))


def head_pedsort(d, k):
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/benchlog-{t}-_-{i}", pedsort(t, k))


def head_wis(d, k):
    write(f"{d}/workloads", "page_fault1\n")
    write(f"{d}/models", "processes,threads\n")
    for t in THREADS:
        for cmd in ["page_fault1_processes", "page_fault1_threads"]:
            write(f"{d}/benchlog-{cmd}-{t}", wis(t, k))
            write(f"{d}/time-{cmd}-{t}", gnu_time(5.0))


def head_sqlite(d, k):
    for i in range(1, 4):
        write(f"{d}/benchlog-_-_-{i}", sqlite(k))
        write(f"{d}/time-_-{i}", gnu_time(7.0))


def head_xfsrepair(d, k):
    for i in range(1, 4):
        for step, base in [("sparsecreate", 0.4), ("fsmark", 95.0), ("xfsrepair", 31.0)]:
            write(f"{d}/time-{step}-{i}", gnu_time(jitter(base * k)))
        write(f"{d}/time.fscreate.{i}", gnu_time(jitter(2.0 * k)))


def legacy_perfpipe(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/pipe-{i}.log", perf_pipe(k))


def legacy_perfsyscall(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/syscall-{i}.log", perf_syscall(k))


def legacy_sysbench(test):
    def gen(d, k):
        for t in THREADS:
            for i in range(1, ITERS + 1):
                write(f"{d}/sysbench-raw-{t}-{i}", sysbench(test, t, k))
                write(f"{d}/time-{t}-{i}", gnu_time(10.0))
    return gen


def legacy_xsbench(d, k):
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/xsbench-{t}-{i}.log.gz", xsbench(t, k), gz=True)
            write(f"{d}/xsbench-{t}-{i}.time", gnu_time(8.0))


def legacy_pedsort(d, k):
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/pedsort-{t}-{i}.log", pedsort(t, k))


def legacy_sqlite(d, k):
    write(f"{d}/sqlite.log.gz", sqlite(k) + sqlite(k), gz=True)
    write(f"{d}/sqlite.time", gnu_time(7.0))


def gnu_time_full(total, ucpu=0.3, scpu=0.5):
    # GNU time's default output for a run of `total` seconds ([h:]m:ss.cc elapsed)
    user, syst = total * random.uniform(ucpu * 0.8, ucpu * 1.2), total * random.uniform(scpu * 0.8, scpu * 1.2)
    if total >= 3600:
        h, r = divmod(int(total), 3600)
        e = f"{h}:{r // 60:02d}:{r % 60:02d}"
    else:
        m, sec = divmod(total, 60)
        e = f"{int(m)}:{sec:05.2f}"
    return (f"{user:.2f}user {syst:.2f}system {e}elapsed {int(100 * (user + syst) / total)}%CPU "
            f"(0avgtext+0avgdata {random.randint(20000, 90000)}maxresident)k\n"
            f"0inputs+{random.randint(0, 9999)}outputs (0major+{random.randint(1000, 99999)}minor)pagefaults 0swaps\n")


def legacy_gitsource(d, k):
    times = []
    for i in range(1, ITERS + 1):
        t = gnu_time_full(jitter(95.0 * k), 1.8, 0.4)
        write(f"{d}/gitsource-{i}.time", t)
        write(f"{d}/gitsource-{i}.log.gz", "ok 1 - setup\nok 2 - plain\n# passed all 2 test(s)\n", gz=True)
        times.append(t)
    # cat gitsource-*.time | grep elapsed | tee time (glob order: 1..5)
    write(f"{d}/time", "".join(l + "\n" for t in times for l in t.splitlines() if "elapsed" in l))


def legacy_gitcheckout(era):
    def gen(d, k):
        times = []
        for i in range(1, ITERS + 1):
            t = gnu_time_full(jitter(3.2 * k), 0.4, 0.5)
            if era == "2024":
                # $TIME_CMD script 2>> time.I, then grep elapsed time.* | tee time
                write(f"{d}/time.{i}", "Switched to branch 'v6.8'\n" + t)
                times.append((i, t))
            else:
                # $TIME_CMD -o time.I: no `time` file (ExtractCputime dies)
                write(f"{d}/time.{i}", t)
                write(f"{d}/gitcheckout-{i}.log", "HEAD is now at e8f897f4afef Linux 6.8\n")
        if era == "2024":
            logdir = d.replace(d.split("/iter-0/")[0], "/root/mmtests/work/log/gitcheckout-" + d.split("/")[-4])
            write(f"{d}/time", "".join(f"{logdir}/time.{i}:{l}\n" for i, t in times for l in t.splitlines()
                                        if "elapsed" in l))
    return gen


def legacy_poundsyscall(d, k):
    for t in [1, 4, 16]:
        for i in range(1, ITERS + 1):
            write(f"{d}/pound_syscall-{t}-{i}.time", gnu_time_full(jitter((2.0 + t * 0.3) * k), 0.2, 0.75))
            write(f"{d}/pound_syscall-{t}-{i}.log", "")


def legacy_autonumabench(d, k):
    for tt in ["NUMA01", "NUMA01_THREADLOCAL", "NUMA02", "NUMA02_SMT"]:
        for i in range(1, ITERS + 1):
            write(f"{d}/autonumabench-{tt}-{i}.time", gnu_time_full(jitter((20.0 + len(tt)) * k), 3.0, 0.2))
            write(f"{d}/autonumabench-{tt}-{i}.log", f"{tt.lower()} done\n")


def legacy_nas(d, k):
    write(f"{d}/make.def", "MPIF77 = mpif77\n")
    for job, base in [("bt", 180.0), ("cg", 40.0), ("ep", 12.0), ("mg", 9.0)]:
        for i in range(1, ITERS + 1):
            t = jitter(base * k)
            write(f"{d}/time-{job}.C.{i}", gnu_time_full(t, 7.5, 0.1))
            write(f"{d}/{job}.C.log.{i}",
                  f"\n\n NAS Parallel Benchmarks (NPB3.4-OMP) - {job.upper()} Benchmark\n\n"
                  f" {job.upper()} Benchmark Completed.\n Class           =                        C\n"
                  f" Iterations      =                      200\n"
                  f" Time in seconds =                   {t:7.2f}\n"
                  f" Total threads   =                        8\n"
                  f" Mop/s total     =                 {100000 / t:9.2f}\n Verification    =               SUCCESSFUL\n")


def legacy_xfsrepair(d, k):
    # time.<step>.<I> ($TIME_CMD -o), sparse.stat from xfs_io
    write(f"{d}/sparse.stat", "fd.path = \"/mnt/sparse.img\"\nstat.size = 1099511627776\n")
    for i in range(1, 4):
        for step, base in [("sparsecreate", 0.4), ("fscreate", 2.0), ("fsmark", 95.0), ("xfsrepair", 31.0)]:
            write(f"{d}/time.{step}.{i}", gnu_time_full(jitter(base * k), 0.3, 0.6))


def coremark_run(d, k):
    # coremark.exe's report (4 pthreads), gzipped, and GNU time's output
    for i in range(1, ITERS + 1):
        ips = jitter(98000.0 / k)
        flags = "-O2 -DMULTITHREAD=4 -DUSE_PTHREAD -DPERFORMANCE_RUN=1  -lrt"
        text = (f"2K performance run parameters for coremark.\nCoreMark Size    : 666\n"
                f"Total ticks      : {int(4e6 / ips * 1000)}\nTotal time (secs): {4e6 / ips:.6f}\n"
                f"Iterations/Sec   : {ips:.6f}\nIterations       : 4000000\nCompiler version : GCC11.4.0\n"
                f"Compiler flags   : {flags}\nParallel PThreads : 4\n"
                "Memory location  : Please put data memory location here\n\t\t\t(e.g. code in flash, data on heap etc)\n"
                "seedcrc          : 0xe9f5\n[0]crclist       : 0xe714\n[0]crcmatrix     : 0x1fd7\n"
                "[0]crcstate      : 0x8e3a\n[0]crcfinal      : 0x65c5\n"
                "Correct operation validated. See README.md for run and reporting rules.\n"
                f"CoreMark 1.0 : {ips:.6f} / GCC11.4.0 {flags} / Heap / 4:PThreads\n")
        write(f"{d}/coremark-{i}.log.gz", text, gz=True)
        write(f"{d}/coremark-{i}.time", gnu_time(4e6 / ips))


def ebizzy(d, k):
    # MMTests' patched ebizzy: total records/s then each thread's, then the rusage lines
    for t in THREADS:
        for i in range(1, ITERS + 1):
            per = [int(jitter(11000.0 / k, 0.04)) for _ in range(t)]
            write(f"{d}/ebizzy-{t}-{i}.log", f"{sum(per)} records/s" + "".join(f" {p}" for p in per) +
                  f"\nreal 30.00 s\nuser {30 * t * 0.98:.2f} s\nsys   {30 * t * 0.01:.2f} s\n")


def aim9(d, k):
    # singleuser's report for the tests MMTests' aim9 config runs
    tests = [("page_test", "System Allocations & Pages/second", 508000.0, 1700.0),
             ("brk_test", "System Memory Allocations/second", 3170000.0, 17000.0),
             ("exec_test", "Program Loads/second", 193.0, 5.0),
             ("fork_test", "Task Creations/second", 9970.0, 1.0)]
    rule = "-" * 108 + "\n"
    for i in range(1, ITERS + 1):
        lines = []
        for n, (name, desc, ops, per) in enumerate(tests, 1):
            rate = jitter(ops / k)
            loops = rate / per
            lines.append(f"{n:6d} {name:<16s}{60.0:7.2f} {int(loops * 60):10d} {loops:10.5f} {rate:12.2f} {desc}\n")
        write(f"{d}/aim9-{i}",
              "AIM Independent Resource Benchmark - Suite IX v1.1, January 22, 1996\n"
              "Copyright (c) 1996 - 2001 Caldera International, Inc.\nAll Rights Reserved.\n\n"
              "Machine's name                                              : mmtests\n"
              "Number of seconds to run each test [2 to 1000]              : 60\n"
              "Path to disk files                                          : /tmp\n\n"
              + rule + " Test        Test        Elapsed  Iteration    Iteration          Operation\n"
              "Number       Name      Time (sec)   Count   Rate (loops/sec)    Rate (ops/sec)\n" + rule
              + "".join(lines) + rule + "\n")


def stream_text(threads, k):
    rates = [jitter(r / k) for r in (22300.0, 15200.0, 16500.0, 16800.0)]
    sizes = [2, 2, 3, 3]
    rows = "".join(f"{name + ':':<16s}{rate:7.1f}{8e7 * n / rate / 1e6 * 1.004:13.6f}{8e7 * n / rate / 1e6:13.6f}"
                   f"{8e7 * n / rate / 1e6 * 1.01:13.6f}\n"
                   for name, rate, n in zip(["Copy", "Scale", "Add", "Triad"], rates, sizes))
    rule = "-" * 61 + "\n"
    return (rule + "STREAM version $Revision: 5.10 $\n" + rule + "This system uses 8 bytes per array element.\n"
            + rule + "Array size = 10000000 (elements), Offset = 0 (elements)\n"
            "Memory per array = 76.3 MiB (= 0.1 GiB).\nTotal memory required = 228.9 MiB (= 0.2 GiB).\n"
            "Each kernel will be executed 10 times.\n The *best* time for each kernel (excluding the first iteration)\n"
            " will be used to compute the reported bandwidth.\n" + rule
            + f"Number of Threads requested = {threads}\nNumber of Threads counted = {threads}\n" + rule
            + "Your clock granularity/precision appears to be 1 microseconds.\n" + rule
            + "Function    Best Rate MB/s  Avg time     Min time     Max time\n" + rows + rule
            + "Solution Validates: avg error less than 1.000000e-13 on all three arrays\n" + rule)


def head_stream(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/benchlog-4-_-{i}", stream_text(4, k))


def legacy_stream(d, k):
    for i in range(1, ITERS + 1):
        write(f"{d}/stream-{i}.log", stream_text(4, k))


def futex_wake_text(threads, k):
    runs = [jitter(0.0121 * k * (1 + threads / 8), 0.08) for _ in range(10)]
    return ("# Running 'futex/wake' benchmark:\n"
            f"Run summary [PID 4242]: blocking on {threads} threads (at [private] futex 0x55d0c0a4c0c8), "
            "waking up 1 at a time.\n\n"
            + "".join(f"[Run {n}]: Wokeup {threads} of {threads} threads in {r:.4f} ms\n" for n, r in enumerate(runs, 1))
            + f"Wokeup {threads} of {threads} threads in {sum(runs) / 10:.4f} ms (+-2.50%)\n")


def head_perffutexwake(d, k):
    for t in THREADS:
        write(f"{d}/benchlog-{t}-_-1", futex_wake_text(t, k))


def legacy_perffutexwake(d, k):
    for t in THREADS:
        write(f"{d}/perffutexwake-{t}.log.gz", futex_wake_text(t, k), gz=True)


def libmicro(d, k):
    # libMicro's report per test of the load file (the tail MMTests reads)
    for test, us in [("getpid", 0.0488), ("getppid", 0.0471), ("pipe_pst1", 2.91), ("mutex_st", 0.0123)]:
        mean = jitter(us * k)
        write(f"{d}/{test}.log",
              f"# bin/{test.split('_')[0]} -E -C 2000 -L -S -W -N {test}\n"
              "prc thr   usecs/call      samples   errors cnt/samp\n"
              f"{test:<12s} 1   1 {mean:12.5f}          102        0     2000\n#\n"
              "# STATISTICS         usecs/call (raw)          usecs/call (outliers removed)\n"
              f"#                    min {mean * 0.96:11.5f}              {mean * 0.97:11.5f}\n"
              f"#                    max {mean * 1.4:11.5f}              {mean * 1.05:11.5f}\n"
              f"#                   mean {mean * 1.02:11.5f}              {mean:11.5f}\n#\n"
              f"#           elasped time {mean * 2000 * 102 / 1e6:11.5f}\n"
              "#      number of samples          102\n#     number of outliers            4\n#\n"
              f"#       mean of 95% {mean * 0.998:11.5f}\n#     median of 95% {mean:11.5f}\n")


def legacy_trunc(era):
    def gen(d, k):
        for i in range(1, ITERS + 1):
            if era == "2024":
                for f in range(1, 4):
                    write(f"{d}/fault-{f}.time", gnu_time_full(jitter(0.35 * k), 0.05, 0.9))
            else:
                write(f"{d}/fault-{i}.time", gnu_time_full(jitter(0.35 * k), 0.05, 0.9))
            write(f"{d}/trunc-{i}.time", gnu_time_full(jitter(0.42 * k), 0.02, 0.95))
    return gen


def siege_text(clients, k):
    # siege 4.0.4 -b: the summary block (HTTP/ lines are grepped out by the shellpack)
    rate = jitter(410.0 * clients / k)
    hits = int(rate * 30)
    return ("** SIEGE 4.0.4\n** Preparing %d concurrent users for battle.\nThe server is now under siege...\n"
            "Lifting the server siege...\n" % clients
            + f"Transactions:\t\t{hits:12d} hits\nAvailability:\t\t      100.00 %\n"
            f"Elapsed time:\t\t       30.00 secs\nData transferred:\t{hits * 0.0003:12.2f} MB\n"
            f"Response time:\t\t{clients / rate:12.2f} secs\nTransaction rate:\t{rate:12.2f} trans/sec\n"
            f"Throughput:\t\t{rate * 0.0003:12.2f} MB/sec\nConcurrency:\t\t{clients * 0.98:12.2f}\n"
            f"Successful transactions:{hits:12d}\nFailed transactions:\t           0\n"
            f"Longest transaction:\t{clients * 0.01:12.2f}\nShortest transaction:\t        0.00\n \n")


def siege(d, k):
    for c in [1, 4, 16]:
        for i in range(1, ITERS + 1):
            write(f"{d}/siege-{c}-{i}.log", siege_text(c, k))
            write(f"{d}/siege-{c}-{i}.time", gnu_time(30.0))


def sysbench_oltp(threads, k):
    tps = jitter(520.0 * threads / k)
    q = tps * 20
    return (f"sysbench --db-driver=pgsql --oltp-table-size=1000000 --num-threads={threads} run\n"
            "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\nRunning the test with following options:\n"
            f"Number of threads: {threads}\nInitializing random number generator from current time\n\n\n"
            "Initializing worker threads...\n\nThreads started!\n\nSQL statistics:\n    queries performed:\n"
            f"        read:                            {int(q * 14):d}\n"
            f"        write:                           {int(q * 4):d}\n"
            f"        other:                           {int(q * 2):d}\n"
            f"        total:                           {int(q * 20):d}\n"
            f"    transactions:                        {int(tps * 60):d}  ({tps:.2f} per sec.)\n"
            f"    queries:                             {int(q * 60):d} ({q:.2f} per sec.)\n"
            "    ignored errors:                      0      (0.00 per sec.)\n"
            "    reconnects:                          0      (0.00 per sec.)\n\nGeneral statistics:\n"
            "    total time:                          60.0107s\n"
            f"    total number of events:              {int(tps * 60):d}\n\n")


def sysbench_run(d, k):
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/sysbench-raw-{t}-{i}", sysbench_oltp(t, k))
            write(f"{d}/time-{t}-{i}", gnu_time(60.0))


def mutilate_text(clients, k):
    qps = jitter(61000.0 * clients / k)
    lat = jitter(52.0 * k)
    return ("#type       avg     std     min     5th    10th    90th    95th    99th\n"
            f"read    {lat:8.1f}{lat * 0.3:8.1f}{lat * 0.4:8.1f}{lat * 0.6:8.1f}{lat * 0.7:8.1f}"
            f"{lat * 1.4:8.1f}{lat * 1.7:8.1f}{lat * 2.6:8.1f}\n"
            "update       0.0     0.0     0.0     0.0     0.0     0.0     0.0     0.0\n"
            "op_q         1.0     0.0     1.0     1.0     1.0     1.1     1.1     1.1\n\n"
            f"Total QPS = {qps:.1f} ({int(qps * 30)} / 30.0s)\n\n"
            "Misses = 0 (0.0%)\nSkipped TXs = 0 (0.0%)\n\n"
            f"RX {int(qps * 30 * 1070):12d} bytes : {qps * 1070 / 1048576:8.1f} MB/s\n"
            f"TX {int(qps * 30 * 27):12d} bytes : {qps * 27 / 1048576:8.1f} MB/s\n")


def mutilate(d, k):
    for c in [1, 4, 8]:
        for i in range(1, ITERS + 1):
            write(f"{d}/mutilate-{c}-{i}.log", mutilate_text(c, k))


def sysbench_threads(threads, k):
    lat = jitter(0.8 * k * threads)
    return ("sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\nRunning the test with following options:\n"
            f"Number of threads: {threads}\nInitializing random number generator from current time\n\n\n"
            "Initializing worker threads...\n\nThreads started!\n\n\nGeneral statistics:\n"
            "    total time:                          10.0012s\n"
            f"    total number of events:              {int(12500 / lat):d}\n\nLatency (ms):\n"
            f"         min:                                  {lat * 0.2:7.2f}\n"
            f"         avg:                                  {lat:7.2f}\n"
            f"         max:                                  {lat * 9.1:7.2f}\n"
            f"         95th percentile:                      {lat * 2.3:7.2f}\n"
            f"         sum:                                {lat * 12500 / lat:9.2f}\n\nThreads fairness:\n"
            "    events (avg/stddev):           1562.5000/12.40\n    execution time (avg/stddev):   9.9873/0.01\n\n")


def sysbenchthread(d, k):
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/sysbench-raw-{t}-{i}", sysbench_threads(t, k))
            write(f"{d}/time-{t}-{i}", gnu_time(10.0))


def stockfish_text(threads, k):
    # UCI output of `go wtime ...` up to bestmove; the last info line before it
    nps = jitter(1.1e6 * threads / k)
    ms = int(jitter(42000.0))
    lines = ["Stockfish 11 64 POPCNT by T. Romstad, M. Costalba, J. Kiiski, G. Linscott", "id name Stockfish 11 64 POPCNT",
             "id author T. Romstad, M. Costalba, J. Kiiski, G. Linscott", "", "uciok"]
    for depth in range(1, 24):
        t = max(1, int(ms * (depth / 24) ** 4))
        lines.append(f"info depth {depth} seldepth {depth + 4} multipv 1 score cp {20 + depth % 5} nodes {int(nps * t / 1000)} "
                     f"nps {int(nps)} hashfull {depth * 9} tbhits 0 time {t} pv e2e4 e7e5")
    lines.append(f"info nodes {int(nps * ms / 1000)} time {ms}")
    lines.append("bestmove g1f3 ponder c7c5")
    return "\n".join(lines) + "\n"


def head_stockfish(d, k):
    for t in [1, 2, 4]:
        for i in range(1, ITERS + 1):
            write(f"{d}/time-{t}-{i}", gnu_time(jitter(42.0 * k)))


def legacy_stockfish(d, k):
    for t in [1, 2, 4]:
        for i in range(1, ITERS + 1):
            write(f"{d}/stockfish-{t}-{i}.gz", stockfish_text(t, k), gz=True)
            write(f"{d}/time-{t}-{i}", gnu_time(jitter(42.0 * k)))



def pmqtest(d, k):
    # pmqtest -p99 --threads=4 --distance=0 --quiet: the thread lines, then one summary per pair
    lines = []
    for p in range(4):
        s, r = 2 * p, 2 * p + 1
        lines.append(f"#{s}: ID{7649 + s}, P{99 - p}, CPU{p % 2}, I1000; #{r}: ID{7650 + s}, P{99 - p}, CPU{p % 2}, "
                     f"TO 0, Cycles {60000 - p * 13}")
    for p in range(4):
        s, r = 2 * p, 2 * p + 1
        lo, avg = int(jitter(3 * k, 0.3)) + 1, int(jitter(6 * k, 0.15)) + 2
        lines.append(f"#{r} -> #{s}, Min {lo:4d}, Cur {int(jitter(avg)):4d}, Avg {avg:4d}, Max {int(jitter(40 * k, 0.5)):4d}")
    write(f"{d}/pmqtest.log", "\n".join(lines) + "\n")


def cyclictest_histogram(d, k):
    # cyclictest --mlockall -p99 --threads 4 --histogram=40 --quiet: buckets, then the summary
    nthr = 4
    mins = [int(jitter(3 * k, 0.3)) + 1 for _ in range(nthr)]
    avgs = [int(jitter(9 * k, 0.15)) + 3 for _ in range(nthr)]
    maxs = [int(jitter(60 * k, 0.5)) + 20 for _ in range(nthr)]
    over = [random.randint(0, 40) for _ in range(nthr)]
    rows = ["# /dev/cpu_dma_latency set to 0us", "# Histogram"]
    for b in range(40):
        rows.append(f"{b:06d} " + "\t".join(f"{max(0, int(6000 * 2.7 ** -abs(b - a))):06d}" for a in avgs))
    rows.append("# Total: " + " ".join(f"{60000 - o:09d}" for o in over))
    rows += ["# Min Latencies: " + " ".join(f"{v:05d}" for v in mins),
             "# Avg Latencies: " + " ".join(f"{v:05d}" for v in avgs),
             "# Max Latencies: " + " ".join(f"{v:05d}" for v in maxs),
             "# Histogram Overflows: " + " ".join(f"{v:05d}" for v in over),
             "# Histogram Overflow at cycle number:"]
    rows += [f"# Thread {t}: " + " ".join(f"{random.randint(0, 59999):05d}" for _ in range(over[t])) +
             (f" # {over[t] - 20:05d} others" if over[t] > 20 else "") for t in range(nthr)]
    write(f"{d}/cyclictest-histogram.log", "\n".join(rows) + "\n")


def cyclictest_summary(d, k):
    # cyclictest --mlockall -p99 --threads 4 --quiet, then xz'd by the shellpack
    rows = ["# /dev/cpu_dma_latency set to 0us"]
    for t in range(4):
        lo, avg = int(jitter(3 * k, 0.3)) + 1, int(jitter(9 * k, 0.15)) + 3
        rows.append(f"T: {t} ({7872 + t:5d}) P:99 I:{1000 + 500 * t} C: {60000 // (2 + t):6d} Min: {lo:6d} "
                    f"Act: {int(jitter(avg, 0.5)):4d} Avg: {avg:4d} Max: {int(jitter(60 * k, 0.5)) + 20:8d}")
    import lzma
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/cyclictest.log.xz", "wb") as f:
        f.write(lzma.compress(("\n".join(rows) + "\n").encode()))



def futexwait(d, k):
    # futex_wait -n T: one result line per second of the run
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/futexwait-{t}-{i}.log", f"Running {t} threads for 5 seconds\n" + "".join(
                f"Result: {int(jitter(2400.0 * t / k))} Kiter/s\n" for _ in range(5)))


def phpbench(d, k):
    # php-bench's summary after the per-test times
    for i in range(1, ITERS + 1):
        tests = "".join(f"{n:<24s}: {jitter(0.9 * k):.3f} sec\n" for n in ("simple", "simplecall", "mandel", "fibo"))
        write(f"{d}/phpbench-{i}.log", "PHPBench 0.8.1\n" + tests + "-" * 40 + f"\nScore                   : {int(jitter(61000 / k))}\n")
        write(f"{d}/phpbench-{i}.time", gnu_time(jitter(40.0 * k)))


def netpipe(d, k):
    # NPtcp -o netpipe.log: bytes, Mbps, seconds per transfer for each size
    write(f"{d}/protocols", "TCP_STREAM\n")
    rows = []
    for e in range(0, 20):
        for size in sorted({max(1, 2 ** e - 3), 2 ** e, 2 ** e + 3}):
            t = jitter((25e-6 + size / 1.2e9) * k)
            rows.append(f"{size:8d} {size * 8 / t / 1e6:12.6f} {t:12.8f}\n")
    write(f"{d}/netpipe.log", "".join(rows))



def stressng_text(threads, k):
    # stress-ng 0.17 --fork N --timeout 60s --metrics-brief: the metrc block, then the run summary
    ops = jitter(30500.0 * threads / k, 0.04)
    usr, sys_ = 0.5 * threads * 60 * 0.25, 0.5 * threads * 60 * 0.70
    pid = random.randint(2000, 9000)
    return (f"stress-ng: info:  [{pid}] setting to a 1 min, 0 secs run per stressor\n"
            f"stress-ng: info:  [{pid}] dispatching hogs: {threads} fork\n"
            f"stress-ng: metrc: [{pid}] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\n"
            f"stress-ng: metrc: [{pid}]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)\n"
            f"stress-ng: metrc: [{pid}] fork           {int(ops * 60):9d}     60.00 {usr:9.2f} {sys_:9.2f} {ops:12.2f} "
            f"{ops * 60 / (usr + sys_):14.2f}\n"
            f"stress-ng: info:  [{pid}] skipped: 0\n"
            f"stress-ng: info:  [{pid}] passed: {threads}: fork ({threads})\n"
            f"stress-ng: info:  [{pid}] failed: 0\n"
            f"stress-ng: info:  [{pid}] metrics untrustworthy: 0\n"
            f"stress-ng: info:  [{pid}] successful run completed in 1 min, 0.0{random.randint(1, 9)} secs\n")


def stressng(d, k):
    # $TIME_CMD -o time-T-I ./stress-ng ... &> stressng-T-I.log (threads_powertwo)
    write(f"{d}/commands.log", "./stress-ng --fork 1 --timeout 60s --metrics-brief\n")
    for t in THREADS:
        for i in range(1, ITERS + 1):
            write(f"{d}/stressng-{t}-{i}.log", stressng_text(t, k))
            write(f"{d}/time-{t}-{i}", gnu_time(60.0))


REDIS_TESTS = [("PING_INLINE", 1.0), ("SET", 0.93), ("GET", 1.02), ("LPUSH (needed to benchmark LRANGE)", 0.9),
               ("LRANGE_100 (first 100 elements)", 0.31), ("MSET (10 keys)", 0.52)]


def redis_text(clients, k):
    # redis-benchmark 7 --csv -c C -r 50000 -n 100000 -P 256
    rows = ['"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",'
            '"max_latency_ms"']
    for test, f in REDIS_TESTS:
        rps = jitter(980000.0 * f * min(clients, 4) / k / 4 + 40000.0)
        avg = clients * 256 / rps * 1000
        rows.append(f'"{test}","{rps:.2f}","{avg:.3f}","{avg * 0.2:.3f}","{avg * 0.95:.3f}","{avg * 1.6:.3f}",'
                    f'"{avg * 2.3:.3f}","{avg * 4.1:.3f}"')
    return "\n".join(rows) + "\n"


def redis(d, k):
    write(f"{d}/redis-server.log", "")
    for c in [1, 4]:
        for i in range(1, ITERS + 1):
            write(f"{d}/redis-{c}-{i}.log", redis_text(c, k))


def unixbenchd(d, k):
    # ./pgms/syscall 5 getpid >> unixbenchd.log, once per iteration: its COUNT line
    write(f"{d}/commands.log", "./pgms/syscall 5 getpid\n")
    write(f"{d}/unixbenchd.log", "".join(f"COUNT|{int(jitter(41000000 / k))}|1|lps\n" for _ in range(ITERS * 2)))


def pistress(d, k):
    # pi_stress --groups=G --duration=60 | tee pistress-G.log; echo $? > pistress-G.status
    for g in [1, 2, 4]:
        fail = 1 if (k < 1.0 and g == 4) else 0
        write(f"{d}/pistress-{g}.log", f"Starting PI Stress Test\nNumber of thread groups: {g}\n"
              f"Duration of test run: 60 seconds\nNumber of inversions per group: unlimited\n"
              f"     Admin thread SCHED_FIFO priority 4\n{g} groups of 3 threads will be created\n"
              f"      High thread SCHED_FIFO priority 3\n       Med thread SCHED_FIFO priority 2\n"
              f"       Low thread SCHED_FIFO priority 1\n"
              f"Current Inversions: {int(jitter(120000 * g / k))}\nStopping test\nTotal inversion performed: "
              f"{int(jitter(7.2e6 * g / k))}\nTest Duration: 0 days, 0 hours, 1 minutes, 0 seconds\n")
        write(f"{d}/pistress-{g}.status", f"{fail}\n")


def apachebench_text(clients, k):
    # ab -n 20000 -c C http://localhost/...: the report (Time per request: the mean first)
    rate = jitter(9800.0 * min(clients, 4) / k)
    tpr = clients * 1000 / rate
    return ("This is ApacheBench, Version 2.3 <$Revision: 1903618 $>\n\nBenchmarking localhost (be patient)\n"
            "Completed 2000 requests\nFinished 20000 requests\n\n\nServer Software:        Apache/2.4.58\n"
            "Server Hostname:        localhost\nServer Port:            80\n\n"
            "Document Path:          /index.html\nDocument Length:        10918 bytes\n\n"
            f"Concurrency Level:      {clients}\nTime taken for tests:   {20000 / rate:.3f} seconds\n"
            "Complete requests:      20000\nFailed requests:        0\n"
            f"Requests per second:    {rate:.2f} [#/sec] (mean)\n"
            f"Time per request:       {tpr:.3f} [ms] (mean)\n"
            f"Time per request:       {1000 / rate:.3f} [ms] (mean, across all concurrent requests)\n"
            f"Transfer rate:          {rate * 11.2:.2f} [Kbytes/sec] received\n")


def apachebench(d, k):
    for c in [1, 4, 8]:
        for i in range(1, ITERS + 1):
            text = apachebench_text(c, k)
            write(f"{d}/apachebench-{c}-{i}.log", text)
            write(f"{d}/apachebench-{c}-{i}.time", gnu_time(20000 / float(text.split("Requests per second:")[1].split()[0])))


def iperf3_text(proto, size, streams, k):
    # iperf3 3.16 -c 127.0.0.1 -4 [-u] -l SIZE -b 0 -t 5 [-O 2] -P N -f m --get-server-output -V
    udp = proto == "udp"
    per = [jitter((2400.0 if udp else 21000.0) * size / 1420 ** 0.5 / 38 / k / streams ** 0.2, 0.05)
           for _ in range(streams)]
    ids = [5 + 2 * n for n in range(streams)]
    kind = "UDP" if udp else "TCP"
    out = ["iperf 3.16", "Linux mmtests 6.8.0 #1 SMP PREEMPT_DYNAMIC x86_64", "Control connection MSS 32768",
           "Time: Tue, 02 Jul 2024 10:11:12 GMT", "Connecting to host 127.0.0.1, port 5201",
           "      Cookie: xw3dc5kcbqjomjsdekxs2bdgmrzdbmcx2ppa"]
    out += [f"[{i:3d}] local 127.0.0.1 port {45678 + i} connected to 127.0.0.1 port 5201" for i in ids]
    omit = "" if udp else ", omitting 2 seconds"
    out.append(f"Starting Test: protocol: {kind}, {streams} streams, {size} byte blocks{omit}, 5 second test, tos 0")
    out.append("[ ID] Interval           Transfer     Bitrate" + ("         Total Datagrams" if udp else "         Retr  Cwnd"))
    for t in range(5):
        for i, r in zip(ids, per):
            x = jitter(r, 0.02)
            tail = f"  {int(x * 1e6 / 8 / size)}  " if udp else f"    0   {jitter(1.4):.2f} MBytes       "
            out.append(f"[{i:3d}]   {t:.2f}-{t + 1:.2f}   sec  {x / 8:.0f} MBytes  {x:.0f} Mbits/sec{tail}")
    out.append("- - - - - - - - - - - - - - - - - - - - - - - - -")
    out.append("Test Complete. Summary Results:")
    out.append("[ ID] Interval           Transfer     Bitrate" + ("         Jitter    Lost/Total Datagrams" if udp else "         Retr"))
    for i, r in zip(ids, per):
        recv = r * (random.uniform(0.55, 0.8) if udp else 0.999)
        if udp:
            total = int(r * 5e6 / 8 / size)
            lost = int(total * (1 - recv / r))
            out.append(f"[{i:3d}]   0.00-5.00   sec  {r * 5 / 8:.0f} MBytes  {r:.0f} Mbits/sec  0.000 ms  0/{total} (0%)  sender")
            out.append(f"[{i:3d}]   0.00-5.04   sec  {recv * 5 / 8:.0f} MBytes  {recv:.0f} Mbits/sec  0.002 ms  "
                       f"{lost}/{total} ({100 * lost // total}%)  receiver")
        else:
            out.append(f"[{i:3d}]   0.00-5.00   sec  {r * 5 / 8:.0f} MBytes  {r:.0f} Mbits/sec    0             sender")
            out.append(f"[{i:3d}]   0.00-5.04   sec  {recv * 5 / 8:.0f} MBytes  {recv:.0f} Mbits/sec                  receiver")
    if streams > 1:
        out.append(f"[SUM]   0.00-5.00   sec  {sum(per) * 5 / 8:.0f} MBytes  {sum(per):.0f} Mbits/sec    0             sender")
    out.append(f"CPU Utilization: local/sender {jitter(90.0):.1f}% (1.2%u/88.1%s), remote/receiver {jitter(60.0):.1f}% "
               "(4.1%u/56.1%s)")
    out += ["", "Server output:", "-----------------------------------------------------------",
            "Accepted connection from 127.0.0.1, port 45670"]
    out += [f"[{i:3d}]   0.00-5.04   sec  {r * 5 / 8:.0f} MBytes  {r:.0f} Mbits/sec                  receiver"
            for i, r in zip(ids, per)]
    out += ["", "", "iperf Done."]
    return "\n".join(out) + "\n"


def iperf3(proto):
    # echo tcp > protocols; iperf3 ... > <proto>-<size>-<rate>-<streams>.<iteration>
    def gen(d, k):
        write(f"{d}/protocols", proto + "\n")
        for size in [1420]:
            for streams in [1, 2]:
                for i in range(1, 4):
                    write(f"{d}/{proto}-{size}-0-{streams}.{i}", iperf3_text(proto, size, streams, k))
    return gen


def pgbench_aggregate(clients, k, start):
    # pgbench -l --aggregate-interval=1: interval_start num_transactions sum_latency sum_latency_2
    # min_latency max_latency (microseconds), one line a second
    rows = []
    for t in range(60):
        n = int(jitter(14500.0 * min(clients, 4) ** 0.9 / k * (0.6 if t < 3 else 1.0), 0.04))
        lat = clients * 1e6 / max(n, 1)
        rows.append(f"{start + t} {n} {int(n * lat)} {int(n * lat * lat * 1.1)} {int(lat * 0.3)} {int(lat * 9)}")
    return "\n".join(rows) + "\n"


def pgbench_summary(clients, tps):
    return ("pgbench (18.3)\ntransaction type: <builtin: select only>\nscaling factor: 1\nquery mode: simple\n"
            f"number of clients: {clients}\nnumber of threads: {clients}\nmaximum number of tries: 1\n"
            f"duration: 60 s\nnumber of transactions actually processed: {int(tps * 60)}\n"
            "number of failed transactions: 0 (0.000%)\n"
            f"latency average = {clients * 1000 / tps:.3f} ms\ninitial connection time = 2.871 ms\n"
            f"tps = {tps:.6f} (without initial connection time)\n")


def pgbench(era):
    def gen(d, k):
        start = 1719915072
        if era == "head":
            write(f"{d}/pgbench-init.log", "dropping old tables...\ncreating tables...\ngenerating data (client-side)...\n"
                  "vacuuming...\ncreating primary keys...\ndone in 0.21 s (drop tables 0.00 s, create tables 0.00 s, "
                  "client-side generate 0.12 s, vacuum 0.05 s, primary keys 0.04 s).\n")
            write(f"{d}/pgbench.param", "scale:       1\nwarm:        0\nrun:         60\nmin_threads: 1\n"
                  "max_threads: 8\nmin_clients: 1\nmax_clients: 8\n")
        else:
            write(f"{d}/pgbench-scale", "1\n")
            write(f"{d}/pgbench-time", "60\n")
        for c in [1, 4, 8]:
            agg = pgbench_aggregate(c, k, start)
            tps = sum(int(l.split()[1]) for l in agg.splitlines()) / 60
            write(f"{d}/pgbench-{c}.log", pgbench_summary(c, tps))
            write(f"{d}/pgbench-transactions-{c}.log.gz", agg, gz=True)
            write(f"{d}/time-{c}-1", gnu_time(62.0))
            start += 75
    return gen


# --- head's remaining shellpacks (and their 2024/2025 modules) ---

def blogbench_text(k):
    # blogbench -d DIR: a line per 10 s slice, then the two final scores
    rows = ["", "Frequency = 10 secs", "Scores of each frequency are averaged", "",
            "Nb blogs   R articles    W articles    R pictures    W pictures    R comments    W comments"]
    for n in range(6):
        rows.append(f"{62 + 7 * n:8d} {int(jitter(310000 / k)):12d} {int(jitter(3100 / k)):13d} "
                    f"{int(jitter(220000 / k)):13d} {int(jitter(2800 / k)):13d} {int(jitter(11000 / k)):13d} "
                    f"{random.randint(0, 9):13d}")
    rows += ["", f"Final score for writes: {int(jitter(180 / k)):13d}",
             f"Final score for reads : {int(jitter(316000 / k)):13d}", ""]
    return "\n".join(rows) + "\n"


def blogbench(d, k):
    # $TIME_CMD -o blogbench-I.time blogbench ... | tee blogbench-I.log
    for i in range(1, ITERS + 1):
        write(f"{d}/blogbench-{i}.log", blogbench_text(k))
        write(f"{d}/blogbench-{i}.time", gnu_time(300.0))


def fsmark_text(threads, k):
    # fs_mark -D 10000 -S0 -n 50000 -s 0 -L 4 -t T -d ...: the preamble, then a line per loop
    rows = [f"\n#  /fsmark/fs_mark  -D  10000  -S0  -n  50000  -s  0  -L  4  -t  {threads}  -d  /mnt/0 ",
            f"#\tVersion 3.3, {threads} thread(s) starting at Wed Jul  3 10:12:{random.randint(10, 59)} 2024",
            "#\tSync method: NO SYNC: Test does not issue sync() or fsync() calls.",
            "#\tDirectories:  Round Robin between directories across 10000 subdirectories with 5 files per "
            "subdirectory.",
            "#\tFile names: 40 bytes long, (16 initial bytes of time stamp with 24 random bytes at end of name)",
            "#\tFiles info: size 0 bytes, written with an IO size of 16384 bytes per write",
            "#\tApp overhead is time in microseconds spent in the test not doing file writing related system "
            "calls.", "", "FSUse%        Count         Size    Files/sec     App Overhead"]
    for n in range(1, 5):
        rows.append(f"{1 + n // 3:6d} {50000 * n:12d} {0:12d} {jitter(30000.0 * min(threads, 4) / k):12.1f} "
                    f"{random.randint(700000, 900000):16d}")
    return "\n".join(rows) + "\n"


def fsmark(d, k):
    # eval fs_mark ... &> fsmark-T.log; gzip fsmark-T.log
    for t in THREADS:
        write(f"{d}/fsmark-{t}.log.gz", fsmark_text(t, k), gz=True)


def memtier_text(clients, k):
    # memtier_benchmark (git) --threads=4 --clients=C ...: the ALL STATS table
    ops = jitter(170000.0 * min(clients, 4) / k)
    sets, gets = ops / 11, ops * 10 / 11
    hits = gets * 0.018
    lat = 4 * 16 * clients / ops * 1000  # --pipeline=16
    kb = ops * 0.043

    def row(t, o, h, m, l, b):
        return f"{t:<8}{o:>13}{h:>13}{m:>13}{l:>16}{l:>16}{l:>16}{l:>16}{b:>13} "
    f = lambda x: f"{x:.2f}"  # noqa: E731
    g = lambda x: f"{x:.5f}"  # noqa: E731
    sep = "-" * 124
    return ("Writing results to stdout\n[RUN #1] Preparing benchmark client...\n[RUN #1] Launching threads now...\n"
            f"[RUN #1 100%,  10 secs]  0 threads:     {int(ops * 10)} ops,  {int(ops)} (avg:  {int(ops)}) ops/sec, "
            f"{kb:.2f}KB/sec (avg: {kb:.2f}KB/sec),  {lat:.2f} (avg:  {lat:.2f}) msec latency\n\n"
            "4         Threads\n" f"{clients}         Connections per thread\n10        Seconds\n\n\n"
            "ALL STATS\n" + "=" * 124 + "\n"
            "Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency     p99 Latency   "
            "p99.9 Latency       KB/sec \n" + sep + "\n"
            + row("Sets", f(sets), "---", "---", g(lat), f(kb * 0.6)) + "\n"
            + row("Gets", f(gets), f(hits), f(gets - hits), g(lat), f(kb * 0.4)) + "\n"
            + row("Waits", "0.00", "---", "---", "---", "---") + "\n"
            + row("Totals", f(ops), f(hits), f(gets - hits), g(lat * 1.01), f(kb)) + "\n")


def redis_memtier(era):
    # head: eval $BENCH_CMD &> benchlog-C-I; 2024/2025: redis-memtier-C-I.log
    def gen(d, k):
        write(f"{d}/redis-server.log", "")
        for c in [1, 4, 8]:
            for i in range(1, 4):
                name = f"benchlog-{c}-{i}" if era == "head" else f"redis-memtier-{c}-{i}.log"
                write(f"{d}/{name}", memtier_text(c, k))
    return gen


def sysjitter(d, k):
    # sysjitter --runtime 30 200 | tee sysjitter.log: one column per core
    cores = [0, 1, 2, 3]
    per = {c: jitter(1.0 / k, 0.2) for c in cores}

    def line(label, vals):
        return f"{label}:" + "".join(f" {v}" for v in vals) + "\n"
    n = {c: int(jitter(1200 * per[c], 0.1)) for c in cores}
    out = line("core_i", cores) + line("threshold(ns)", [200] * 4) + line("cpu_mhz", [2600] * 4)
    out += line("runtime(ns)", [30000000000 + random.randint(0, 9999) for _ in cores])
    out += line("runtime(s)", ["30.000"] * 4) + line("int_n", [n[c] for c in cores])
    out += line("int_n_per_sec", [f"{n[c] / 30:.3f}" for c in cores])
    base = {c: jitter(900 * per[c], 0.1) for c in cores}
    for label, m in [("int_min", 0.25), ("int_median", 1.0), ("int_mean", 1.3), ("int_90", 2.1), ("int_99", 4.0),
                     ("int_999", 9.0), ("int_9999", 14.0), ("int_99999", 15.0), ("int_max", 15.5)]:
        out += line(f"{label}(ns)", [int(base[c] * m) for c in cores])
    out += line("int_total(ns)", [int(base[c] * 1.3 * n[c]) for c in cores])
    out += line("int_total(%)", [f"{base[c] * 1.3 * n[c] / 3e8:.3f}" for c in cores])
    write(f"{d}/sysjitter.log", out)


FUTEX_TEXT = {
    "hash": lambda t, k: ("# Running 'futex/hash' benchmark:\n"
                          f"Run summary [PID {random.randint(2000, 9999)}]: {t} threads, each operating on 1024 "
                          "[private] futexes for 10 secs.\n\n"
                          + "".join(f"[thread {i:2d}] futexes: 0x55d{random.randint(100000, 999999):x} ... "
                                    f"0x55d{random.randint(100000, 999999):x} [ {int(jitter(2.6e6 / k))} ops/sec ]\n"
                                    for i in range(t))
                          + f"\nAveraged {int(jitter(2.6e6 / k))} operations/sec (+- 0.{random.randint(1, 9)}%), "
                          "total secs = 10\n"),
    "wake": lambda t, k: ("# Running 'futex/wake' benchmark:\n"
                          f"Run summary [PID {random.randint(2000, 9999)}]: blocking on {t} threads (at [private] "
                          f"futex 0x55d{random.randint(100000, 999999):x}), waking up 1 at a time.\n\n"
                          + "".join(f"[Run {r}]: Wokeup {t} of {t} threads in {jitter(0.004 * t * k):.4f} ms\n"
                                    for r in range(1, 11))
                          + f"Wokeup {t} of {t} threads in {0.004 * t * k:.4f} ms (+-{jitter(4.0):.2f}%)\n"),
}


def futexbench(workload):
    # echo $FUTEXBENCH_WORKLOADS > workloads; perf bench futex W -t T > W-T.log
    def gen(d, k):
        write(f"{d}/workloads", f"{workload}\n")
        for t in THREADS:
            write(f"{d}/{workload}-{t}.log", FUTEX_TEXT[workload](t, k))
    return gen


def specjbb_report(k):
    # SPECjbb2005's SPECjbb.001.txt: the SPEC scores table ('*': counted in the score)
    rows = ["", "                          SPECjbb2005 Result", "", "Company: MMTests  Product: OpenJDK",
            "", f"                        SPECjbb2005 bops = {int(jitter(110000 / k))}, SPECjbb2005 bops/JVM = "
            f"{int(jitter(110000 / k))}", "", "                               SPEC scores",
            "      Warehouses               SPECjbb2005 bops"]
    for w in [1, 2, 4, 8]:
        star = "*" if w >= 4 else " "
        rows.append(f"   {star} {w:12d} {int(jitter(31000.0 * min(w, 4) / k)):24d}")
    rows += ["                                    ",
             "   Throughput      " + str(int(jitter(110000 / k))), "", "Test date: Jul 3, 2024"]
    return "\n".join(rows) + "\n"


def specjbb(d, k):
    # mv results LOGDIR_RESULTS/$PAGES/ (PAGES=default without huge pages): one JVM
    write(f"{d}/default/SPECjbbSingleJVM/SPECjbb.001.txt", specjbb_report(k))
    write(f"{d}/default/jvm-instance-1.log", "JVM 1 started\n")


def io_uring(d, k):
    # t/io_uring -N 1 -n THREADS -r RUNTIME > t-io_uring.log (the no-op test)
    vals = [jitter(25.4 / k) for _ in range(5)]
    out = f"submitter=0, tid={random.randint(2000, 9999)}, file=/dev/null, nfiles=1, node=-1\n"
    out += "polled=0, fixedbufs=1, register_files=1, buffered=0, QD=128\nEngine=io_uring, sq_ring=128, cq_ring=128\n"
    out += "".join(f"IOPS={v:.2f}M, IOS/call=32/32\n" for v in vals)
    out += f"Exiting on timeout\nMaximum IOPS={max(vals):.2f}M\n"
    write(f"{d}/t-io_uring.log", out)


def netperf_unix(d, k):
    # driver-netperf-unix.sh: netperf -t STREAM_STREAM (a unix socket), -i 3,3 -I 95,5, per size
    write(f"{d}/protocols", "STREAM_STREAM\n")
    write(f"{d}/units-STREAM_STREAM", "m\n")
    for size in [64, 256, 4096]:
        for it in range(1, 4):
            tput = jitter({64: 1850.0, 256: 6900.0, 4096: 41000.0}[size] / k)
            warn = ("!!! WARNING\n!!! Desired confidence was not achieved within the specified iterations.\n"
                    "!!! This implies that there was variability in the test environment that\n"
                    "!!! must be investigated before going further.\n"
                    f"!!! Confidence intervals: Throughput      : {jitter(6.0):.3f}%\n"
                    "!!!                       Local CPU util  : 0.000%\n"
                    "!!!                       Remote CPU util : 0.000%\n\n") if it == 2 else ""
            write(f"{d}/STREAM_STREAM-{size}.{it}",
                  "STREAM STREAM TEST\n" + warn
                  + "Recv   Send    Send                          \nSocket Socket  Message  Elapsed              \n"
                  "Size   Size    Size     time     Throughput  \nbytes  bytes   bytes    secs.    10^6bits/sec  \n\n"
                  f"212992 212992 {size:6d}    60.00    {tput:8.2f}   \n")


def legacy_wis(d, k):
    # driver-wis-pf.sh: the page_fault workloads, processes (a config's WIS_MODELS); each
    # wis-W-M-T.log is will-it-scale's output after `sed -i '1,8d'`
    write(f"{d}/workloads", "page_fault1,page_fault2,page_fault3\n")
    write(f"{d}/models", "processes\n")
    for w in ["page_fault1", "page_fault2", "page_fault3"]:
        for t in [2, 4, 8]:
            write(f"{d}/wis-{w}-processes-{t}.log", wis(t, k) + f"average:{int(jitter(500000 * t / k))}\n")


def lmbench_lat_ctx(d, k):
    # lat_ctx -s SIZE T &>> lmbench-lat_ctx-T-I.log after `echo mmtests_size: SIZE` (sizes 0,16,64)
    for t in [2, 4, 8]:
        for i in range(1, 4):
            out = ""
            for size in [0, 16, 64]:
                out += (f"mmtests_size: {size}\n\n\"size={size}k ovr={jitter(0.9):.2f}\n"
                        f"{t} {jitter((1.6 + 0.05 * size + 0.1 * t) * k):.2f}\n")
            write(f"{d}/lmbench-lat_ctx-{t}-{i}.log", out)


def lmbench_lat_proc(d, k):
    # lat_proc -W 5 -N 5 -P T PROC &>> lmbench-lat_proc-T.log, PROC in fork exec shell, 3 iterations
    for t in [1, 2, 4]:
        out = ""
        for _proc, name, us in [("fork", "fork+exit", 95.0), ("exec", "fork+execve", 310.0),
                               ("shell", "fork+/bin/sh -c", 820.0)]:
            for _ in range(3):
                out += f"Process {name}: {jitter(us * k * (1 + 0.1 * t)):.4f} microseconds\n"
        write(f"{d}/lmbench-lat_proc-{t}.log", out)


def rtmigration(d, k):
    # rt-migrate-test -c -r 20 > rtmigration.log; gzip: per run the time each RT task ran (us),
    # then a summary per task (prio 2 upwards)
    tasks, runs = 5, 30
    iv = [[int(jitter(20000 + 40 * t * k, 0.004)) for t in range(tasks)] for _ in range(runs)]
    out = "Iter: " + "".join(f"{t:6d}  " for t in range(tasks)) + "\n"
    for i in range(runs):
        out += f"{i:4d}:   " + "".join(f"{v:6d}  " for v in iv[i]) + "\n"
    out += f"\nParent pid: {random.randint(2000, 9999)}\n"
    for t in range(tasks):
        col = [iv[i][t] for i in range(runs)]
        out += (f" Task {t} (prio {t + 2}) (pid {random.randint(2000, 9999)}):\n   Max: {max(col)} us\n"
                f"   Min: {min(col)} us\n   Tot: {sum(col)} us\n   Avg: {sum(col) // runs} us\n\n")
    write(f"{d}/rtmigration.log.gz", out + " Passed!\n", gz=True)


def saladfork(d, k):
    # ./saladfork ITERS >> saladfork-0.log; gzip: the CPU of parent and child, the latency;
    # common.sh writes numactl --hardware into the iteration's directory
    write(f"{d}/../../numactl.txt.gz",
          "available: 2 nodes (0-1)\nnode 0 cpus: 0 1 2 3\nnode 0 size: 15953 MB\nnode 0 free: 12034 MB\n"
          "node 1 cpus: 4 5 6 7\nnode 1 size: 16125 MB\nnode 1 free: 13871 MB\nnode distances:\n"
          "node   0   1 \n  0:  10  21 \n  1:  21  10 \n", gz=True)
    rows = ["PARENT  CHILD   LATENCY"]
    for _ in range(60):
        p, c = random.randint(0, 7), random.randint(0, 7)
        lat = jitter((105.0 if p // 4 == c // 4 else 160.0) * k, 0.1)
        rows.append(f"{p:03d}     {c:03d}     {int(lat)}")
    write(f"{d}/saladfork-0.log.gz", "\n".join(rows) + "\n", gz=True)
    write(f"{d}/saladfork-0.time", gnu_time(2.0))


def hackbench_threads(era):
    # perf bench sched messaging -t [--pipe]: head appends each run to hackbench-G, 2024/2025
    # write hackbench-G-I (and time-G-I)
    def gen(d, k):
        for g in [1, 4, 16]:
            acc = ""
            for it in range(1, 4):
                t = jitter({1: 0.034, 4: 0.118, 16: 0.472}[g] * k, 0.08)
                text = ("# Running 'sched/messaging' benchmark:\n# 20 sender and receiver threads per group\n"
                        f"# {g} groups == {g * 40} threads run\n\n     Total time: {t:.3f} [sec]\n")
                if era == "head":
                    acc += text
                else:
                    write(f"{d}/hackbench-{g}-{it}", text)
                    write(f"{d}/time-{g}-{it}", gnu_time(t + 0.01))
            if era == "head":
                write(f"{d}/hackbench-{g}", acc)
    return gen


def easywave(d, k):
    # OMP_NUM_THREADS=T $TIME_CMD -o time-T-I ./src/easywave -grid ... -time 120 > benchlog-T-I
    for t in [1, 2, 4]:
        for i in range(1, 4):
            out = "easyWave ver.2013-04-11\n"
            total = jitter(41000.0 / min(t, 4) ** 0.8 * k, 0.02)
            for step in range(0, 13):
                out += (f"Model time = {step // 6:02d}:{step % 6 * 10:02d}:00,   elapsed: {int(total * step / 12)} "
                        "msec\n")
            write(f"{d}/benchlog-{t}-{i}", out)
            write(f"{d}/time-{t}-{i}", gnu_time(total / 1000))


def stutterp(d, k):
    # ./mmap-latency FILE > mmap-latency-W.log per worker count; gzip: "<count> <mean ns>" each time
    # a map-fault-unmap cycle exceeds the threshold
    for w in [1, 4]:
        rows = [f"{random.randint(1, 6)} {int(jitter(1.2e6 * k * (1 + 0.3 * w), 0.3))}" for _ in range(12)]
        write(f"{d}/mmap-latency-{w}.log.gz", "\n".join(rows) + "\n", gz=True)


def perfnuma_text(workload, threads, k, converged=True):
    # perf bench numa mem -m -p P -t T -P MB, 2>&1 | tee <workload>-<I>.log; the summary lines
    # are print_res()'s " %-30s %15.3f, %-15s %s"
    secs = jitter({"light_converge": 2.4, "standard_converge": 4.1, "oversubscribe_converge": 9.6}[workload] * k, 0.15)
    gb = jitter(2.0 * 4 * threads, 0.02)
    res = lambda v, unit, short: f" {'main,':<30s} {v:15.3f}, {unit:<15s} {short}\n"
    out = (f"# Running 'numa/mem' benchmark:\n\n # Running main, \"perf bench numa numa-mem -m -p 4 -t {threads} "
           f"-P 1024\"\n\n # Startup synchronization: ... done. ({jitter(0.02):.3f} secs)\n\n")
    for step in range(1, 4):
        out += f"  {secs * step / 4:6.3f} secs: NUMA-convergence: 4 node(s) ... {'(converged)' if step == 3 and converged else ''}\n"
    out += "\n ###\n # 4 processes and %d threads per process started up in 0.012 secs.\n ###\n\n" % threads
    if converged:
        out += res(secs, "secs,", "NUMA-convergence-latency")
    else:
        secs = 15.0
    out += res(secs, "secs,", "runtime-max/thread")
    out += res(secs * 0.97, "secs,", "runtime-min/thread")
    out += res(secs * 0.985, "secs,", "runtime-avg/thread")
    out += res(1.5, "%,", "spread-runtime/thread")
    out += res(gb / threads / 4, "GB,", "data/thread")
    out += res(gb, "GB,", "data-total")
    out += res(secs * 1e9 / (gb * 1e9 / threads / 4), "nsecs,", "runtime/byte/thread")
    out += res(gb / threads / 4 / secs, "GB/sec,", "thread-speed")
    out += res(gb / secs, "GB/sec,", "total-speed")
    return out


def perfnuma(d, k):
    workloads = ["light_converge", "standard_converge", "oversubscribe_converge"]
    write(f"{d}/workloads", " ".join(workloads) + "\n")
    for w in workloads:
        threads = {"light_converge": 2, "standard_converge": 4, "oversubscribe_converge": 8}[w]
        for i in range(1, 13):
            # an oversubscribed run that never converges prints no convergence latency
            write(f"{d}/{w}-{i}.log", perfnuma_text(w, threads, k, converged=not (w.startswith("over") and i == 7)))


def thpchallenge(d, k):
    # ./thpchallenge T SIZE 1 > threads-T.log 2>&1, gzipped; the time file of $TIME_CMD -o
    for t in [1, 4, 16]:
        out = f"Running with {t} thread{'s' if t > 1 else ' '}\n"
        out += "".join(f"Using madv_hugepage 0x{random.randint(10**14, 10**15)} 0 gb\n" for _ in range(t))
        out += "\n" + "".join(f"anoninit {i} {random.randint(3, 40):12d}\n" for i in range(t))
        sec = 1733400000
        for i in range(t):
            for _ in range(48 // t):
                huge = random.random() < 0.8 - 0.02 * t
                lat = int(jitter((180 if huge else 2900) * k * (1 + 0.05 * t), 0.4))
                sec += random.randint(0, 1)
                out += f"fault {i} {'huge' if huge else 'base'} {lat:12d} {sec}.{random.randint(0, 999999)} {int(random.random() < 0.9)}\n"
        write(f"{d}/threads-{t}.log.gz", out, gz=True)
        write(f"{d}/threads-{t}.time", gnu_time(jitter(4.0 * k)))


def simoop(d, k):
    # ./simoop ... 2>&1 | tee simoop.log: a report every -i seconds (Run time, then the latency
    # lines the parsers' regex reads), warmup reports before `Warmup complete`, `Final stats` last
    def report(t, scale):
        out = f"Run time: {t} seconds\n"
        for op, base in [("Read", 1900), ("Write", 1300), ("Allocation", 260)]:
            p = [int(jitter(base * k * scale * f, 0.1)) for f in (1, 3.1, 7.5, 19)]
            out += (f"{op} latency usec: (p50: {p[0]:,}) (p95: {p[1]:,}) (p99: {p[2]:,}) (max: {p[3]:,})\n")
        return out + f"work rate = {jitter(95 / k):.2f}/sec (avg {jitter(95 / k):.2f}/sec) (total {t * 95})\n"
    out = "".join(report(t, 1.4) for t in (10, 20))
    out += "Warmup complete (20 seconds)\n"
    out += "".join(report(t, 1.0) for t in range(30, 140, 10))
    out += "Final stats:\n" + report(130, 1.0)
    write(f"{d}/simoop.log", out)


def sstartup(d, k):
    # S's run_main_benchmarks.sh replayed-startup cur-sched fs "" "" "" 1 $LOGDIR_RESULTS/results:
    # one repetition per test case, comm_startup_lat.sh's per-iteration start-up times (seconds)
    # moved to <sched>-<workload>-single_times.txt by the shellpack's sed; a start-up that does
    # not finish within 120 s stops the test case, leaving fewer samples
    for app, base in [("xterm", 0.21), ("gnome_terminal", 0.95), ("lowriter", 2.6)]:
        rep = f"{d}/results/replayed_{app}_startup/repetition0"
        for wl, load in [("0r0w-seq", 1.0), ("5r5w-seq", 7.5), ("10r0w-seq", 11.0)]:
            n = 3 if app == "lowriter" and wl == "10r0w-seq" and k > 1 else 5
            write(f"{rep}/mq-deadline-{wl}-single_times.txt",
                  "".join(f"{jitter(base * load * k, 0.12):.3f}\n" for _ in range(n)))


def bonniepp(d, k):
    # bonnie++ -f (no per-char IO) -s <MB> -n <files> -R 128 -l bonnie-detail (MMTests' patch: a
    # line "<op> <usec>" every 128 chunks of the write, rewrite and read tests, and per file
    # created, stat'ed and deleted); bonnie-detail is gzipped after the run
    out = []
    for op, base, n in [("wr", 5200, 40), ("rw", 11800, 40), ("rd", 4100, 40)]:
        out += [f"{op} {int(jitter(base * k, 0.25))}" for _ in range(n)]
    for phase in [("cs", "ss", "ds"), ("cr", "sr", "dr")]:
        for op, base in zip(phase, [38, 6, 27]):
            out += [f"{op} {int(jitter(base * k, 0.4))}" for _ in range(30)]
    write(f"{d}/bonnie-detail.gz", "\n".join(out) + "\n", gz=True)


LTP_TESTS = {
    "controllers": ["cgroup_core01", "cgroup_core02", "memcg_regression", "memcg_stress", "memcg_failcnt",
                    "cpuset_base_ops", "cpuacct_1_1", "pids_1_1"],
    "mm-lite": ["mmapstress01", "mtest01", "ksm01", "thp01", "thp02", "vma01", "mallocstress01"],
}


def ltp_pan(collection, k):
    # runltp -l LOG: ltp-pan's log, a `tag=` line per test (exit=exited and stat=<exit code>:
    # 0 pass, 1 fail, 32 TCONF; a test killed by a signal is exit=signaled stat=<signal>)
    out, t = "startup='Fri Dec  4 09:00:00 2026'\n", 1764838800
    for tag in LTP_TESTS[collection]:
        r = random.random()
        exit_, stat = ("exited", 0)
        if r < 0.15:
            exit_, stat = ("exited", 32)
        elif r < 0.15 + 0.1 * k:
            exit_, stat = ("exited", random.choice([1, 2, 4]))
        elif r > 0.97:
            exit_, stat = ("signaled", 9)
        dur = random.randint(0, 40)
        out += f"tag={tag} stime={t} dur={dur} exit={exit_} stat={stat} core=no cu={random.randint(0, 99)} cs={random.randint(0, 99)}\n"
        t += dur
    return out


def ltp_direct(k):
    # testcases/bin/fork01: a tst_test program, its summary after the results
    failed = int(random.random() < 0.4 * k)
    return ("tst_test.c:1890: TINFO: LTP version: 20260130\ntst_test.c:1894: TINFO: Tested kernel: 6.8.0 #1 SMP\n"
            "tst_test.c:1733: TINFO: Overall timeout per run is 0h 00m 30s\n"
            + ("fork01.c:62: TFAIL: fork() child pid mismatch\n" if failed else "fork01.c:60: TPASS: fork() returned 4211\n")
            + f"\nSummary:\npassed   {1 - failed}\nfailed   {failed}\nbroken   0\nskipped  0\nwarnings {int(random.random() < 0.2)}\n")


def ltp(era):
    def gen(d, k):
        for c in LTP_TESTS:
            console = "INFO: ltp-pan reported some tests FAIL\nLTP Version: 20260130\n"
            if era == "head":
                write(f"{d}/runltp-{c}", ltp_pan(c, k))
                write(f"{d}/benchlog-{c}", console)
            else:
                write(f"{d}/ltp-{c}.log", ltp_pan(c, k))
                write(f"{d}/log-{c}", console)
            write(f"{d}/{c}.status", "0\n")
        write(f"{d}/{'benchlog' if era == 'head' else 'log'}-fork01", ltp_direct(k))
        write(f"{d}/fork01.status", "0\n")
    return gen


def lmbench(d, k):
    # lmbench-bench with LMBENCH_TESTS=lat_ctx: per thread count T and size S, `mmtests-size:S`
    # then the raw output (`lat_ctx -s S T`, stderr) of the fastest of 3 iterations appended to
    # lmbench-lat_ctx.log; each iteration's output stays in lmbench-lat_ctx.log-S-T-I.raw
    log = ""
    for t in [2, 4, 8]:
        for size in [0, 16, 64]:
            log += f"mmtests-size:{size}\n"
            raws = []
            for i in range(1, 4):
                raw = f"\n\"size={size}k ovr={jitter(0.9):.2f}\n{t} {jitter((1.6 + 0.05 * size + 0.1 * t) * k):.2f}\n"
                write(f"{d}/lmbench-lat_ctx.log-{size}-{t}-{i}.raw", raw)
                raws.append(raw)
            log += min(raws, key=lambda r: float(r.split()[-1]))
    write(f"{d}/lmbench-lat_ctx.log", log)


HEAD = {
    "stream": head_stream, "perffutexwake": head_perffutexwake,
    "perfpipe": head_perfpipe, "perfsyscall": head_perfsyscall, "sembench": head_sembench,
    "sysbenchcpu": head_sysbench("cpu"), "sysbenchmutex": head_sysbench("mutex"), "xsbench": head_xsbench,
    "pedsort": head_pedsort, "wis": head_wis, "sqlite": head_sqlite, "xfsrepair": head_xfsrepair,
    "coremark": coremark_run, "ebizzy": ebizzy, "aim9": aim9, "libmicro": libmicro,
    "siege": siege, "sysbench": sysbench_run, "stockfish": head_stockfish, "pmqtest": pmqtest,
    "cyclictest": cyclictest_histogram,
    "stressng": stressng, "redis": redis, "unixbenchd": unixbenchd, "pistress": pistress,
    "apachebench": apachebench, "iperf3-ipv4-tcp": iperf3("tcp"), "iperf3-ipv4-udp": iperf3("udp"),
    "pgbench": pgbench("head"),
    "blogbench": blogbench, "fsmark": fsmark, "redis-memtier": redis_memtier("head"), "sysjitter": sysjitter,
    "futexbench-hash": futexbench("hash"), "futexbench-wake": futexbench("wake"), "specjbb": specjbb,
    "io_uring": io_uring, "netperf-unix": netperf_unix, "rtmigration": rtmigration, "saladfork": saladfork,
    "hackbench-thread-sockets": hackbench_threads("head"), "easywave": easywave,
    "stutterp": stutterp, "perfnuma": perfnuma, "thpchallenge": thpchallenge, "simoop": simoop,
    "sstartup": sstartup, "bonniepp": bonniepp, "ltp": ltp("head"),
}
LEGACY = {
    "stream": legacy_stream, "perffutexwake": legacy_perffutexwake,
    "perfpipe": legacy_perfpipe, "perfsyscall": legacy_perfsyscall, "sysbenchcpu": legacy_sysbench("cpu"),
    "sysbenchmutex": legacy_sysbench("mutex"), "xsbench": legacy_xsbench, "pedsort": legacy_pedsort,
    "sqlite": legacy_sqlite, "gitsource": legacy_gitsource, "poundsyscall": legacy_poundsyscall,
    "autonumabench": legacy_autonumabench, "nas": legacy_nas, "xfsrepair": legacy_xfsrepair,
    "coremark": coremark_run, "ebizzy": ebizzy, "aim9": aim9, "libmicro": libmicro,
    "siege": siege, "sysbench": sysbench_run, "stockfish": legacy_stockfish, "mutilate": mutilate,
    "sysbenchthread": sysbenchthread, "pmqtest": pmqtest, "futexwait": futexwait, "phpbench": phpbench,
    "netpipe": netpipe, "stressng": stressng, "redis": redis, "unixbenchd": unixbenchd, "pistress": pistress,
    "apachebench": apachebench, "iperf3-ipv4-tcp": iperf3("tcp"), "iperf3-ipv4-udp": iperf3("udp"),
    "blogbench": blogbench, "fsmark": fsmark, "redis-memtier": redis_memtier("legacy"), "sysjitter": sysjitter,
    "futexbench-hash": futexbench("hash"), "futexbench-wake": futexbench("wake"), "specjbb": specjbb,
    "stutterp": stutterp, "rtmigration": rtmigration, "saladfork": saladfork,
    "io_uring": io_uring, "netperf-unix": netperf_unix,
    "wis-pf": legacy_wis, "lmbench-lat_ctx": lmbench_lat_ctx, "lmbench-lat_proc": lmbench_lat_proc,
    "lmbench": lmbench, "perfnuma": perfnuma, "thpchallenge": thpchallenge, "simoop": simoop,
    "sstartup": sstartup, "bonniepp": bonniepp, "ltp": ltp("head"),
}


def main():
    root = sys.argv[1]
    per_era = {"gitcheckout": legacy_gitcheckout, "trunc": legacy_trunc, "hackbench-thread-sockets": hackbench_threads,
               # 2025 reads the histogram when there is no summary; 2024 reads only the summary
               "cyclictest": lambda era: cyclictest_histogram if era == "2025" else cyclictest_summary,
               "pgbench": pgbench, "ltp": ltp}  # ltp: head's file names differ
    for era, families in [("head", HEAD), ("2025", LEGACY), ("2024", LEGACY)]:
        if era != "head":
            families = dict(families, **{b: g(era) for b, g in per_era.items()})
        for bench, gen in families.items():
            for name, k in zip(NAMES, SPEED):
                # one seed per tree: a family added later leaves the others' bytes alone
                random.seed(f"20261203-{era}-{bench}-{name}")
                gen(f"{root}/{era}/{name}/iter-0/{bench}/logs", k)
    print("generated under", root)


if __name__ == "__main__":
    main()

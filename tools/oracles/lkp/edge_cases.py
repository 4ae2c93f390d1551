#!/usr/bin/env python3
"""Write the edge cases of tests/data/lkp/edge and lkp's own output for them.

lkp-tests' own fixtures leave many branches of its parsers unexercised (lmbench3's
data blocks, redis's and memtier's shared latency tables, vm-scalability's other rate
lines, pts's failure lines, …). Each case here is `<program>/<case>`: an input written
to reach such a branch, in the format the benchmark prints. lkp-tests' own parser
(programs/<program>/parse, run as its spec runs it: the input on stdin) decides what is
expected: its output goes to `<case>.yaml`, or, where it exits with an error, its last
line of stderr to `<case>.error` (schedlab must then return a parse error).
`tools/oracles/lkp/stats_json.sh edge` then writes the `<case>.stats.json` of the cases
with a yaml. tests/it/lkp_edge.rs and tests/it/lkp_stats_json.rs check them.

usage: LKP_SRC=… tools/oracles/lkp/edge_cases.py   (needs ruby, ruby-activesupport)
"""
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "../../../tests/data/lkp/edge")

LMBENCH_ALL = """Simple syscall: 0.2228 microseconds
Simple read: 0.3491 microseconds
Simple open/close: 1.3696 microseconds
Select on 100 fd's: 1.2293 microseconds
Select on 100 tcp fd's: 5.0377 microseconds
Process fork+exit: 134.4530 microseconds
Process fork+execve: 382.2759 microseconds
Process fork+/bin/sh -c: 918.9524 microseconds
Pipe latency: 7.9239 microseconds
Pipe bandwidth: 3042.74 MB/sec
AF_UNIX sock stream latency: 6.2302 microseconds
AF_UNIX sock stream bandwidth: 7058.07 MB/sec
integer bit: 0.33 nanoseconds
integer div: 7.70 nanoseconds
int64 mul: 0.01 nanoseconds
double add: 1.20 nanoseconds
float mod: 3.00 nanoseconds
UDP latency using localhost: 8.4815 microseconds

"size=0k ovr=0.90
2 1.45
96 1.77

"size=16k ovr=1.20
96 2.10

"size=32k ovr=1.30
96 9.99

"size=64k ovr=1.50
96 4.40

"read bandwidth
0.000512 489.40
0.002048 1757.11
0.001024 900.99
Memory read bandwidth
0.000512 16353.73
0.008192 16834.82
0.004096 16822.85

TCP latency using localhost: 14.4782 microseconds
Socket bandwidth using localhost
0.000001 1.82 MB/sec
0.000064 108.22 MB/sec
10.485760 2500.50 MB/sec
TCP/IP connection cost to localhost: 19.1327 microseconds
"libc bcopy unaligned
0.000512 39318.87
0.008192 52732.95
0.004096 49481.95

"unrolled bcopy unaligned
0.000512 13442.67
0.016384 12921.17

Memory write bandwidth
0.000512 13964.88
0.001024 13954.19

Pagefaults on /var/tmp/XXX: 0.2653 microseconds
"mappings
16.777216 111
67.108864 431
33.554432 216

"Mmap read bandwidth
0.000512 275064.12

"Mmap read open2close bandwidth

2022-08-31 10:28:22 ./bin/x86_64-linux-gnu/bw_mem -P 1 268435456 rd
268.44 13805.57
268.44 13900.00
"""

CASES = {
    "lmbench3": {
        "all-blocks": LMBENCH_ALL,
        "read-bandwidth-twice": '"read bandwidth\n0.5 100.0\n1.5 200.0\nend\n"read bandwidth\n0.25 50.0\nx\n',
        "blocks-at-the-end": '"libc bcopy unaligned\n0.000512 39318.87\n',
        "bw-mem-empty": "bw_mem -P 1 100 rd\n\n",
    },
    "redis": {
        "get-before-set": (
            "====== GET ======\n  throughput summary: 100.50 requests per second\n"
            "requests completed in 3.25 seconds\n10.00% <= 0 milliseconds\n95.50% <= 3 milliseconds\n"
            "====== SET ======\n  throughput summary: 90.25 requests per second\n"
            "requests completed in 4.00 seconds\n99.95% <= 1 milliseconds\n"
            "PING_BULK: 123.45 requests per second\nLPUSH (needed to benchmark LRANGE): 1.50 requests per second\n"
            "LRANGE_100 (first 100 elements): 2.00 requests per second\nMSET (10 keys): 3.00 requests per second\n"),
        "listed-twice": (
            "====== SET ======\n50.00% <= 2 milliseconds\n  throughput summary: 10.00 requests per second\n"
            "  throughput summary: 20.00 requests per second\n100.00% <= 4 milliseconds\n"),
        "nothing": "no benchmark here\n",
        "latency-before-header": "50.00% <= 1 milliseconds\n",
        "throughput-before-header": "  throughput summary: 10.00 requests per second\n",
    },
    "memtier": {
        "one-run": (
            "Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency     p99 Latency   p99.9 Latency       KB/sec\n"
            "Sets        100.00          ---          ---         1.50000         1.40000         2.00000         3.00000     10.00\n"
            "Gets        300.00     0.00     300.00         1.60000         1.50000         2.10000         3.10000     20.00\n"
            "Waits           0.00          ---          ---             ---             ---             ---             ---          ---\n"
            "Totals     400.00     0.00     300.00         1.55000         1.45000         2.05000         3.05000     30.00\n"
            "preload duration: 12.5\n"
            "Request Latency Distribution\n"
            "SET       0.500         50.00\nSET       1.000         95.00\nSET       2.000         100.00\n---\n"
            "GET       0.250         20.00\nGET       1.500         99.95\n---\n"),
        "no-rows": "preload duration: 1.0\n",
        "long-row": "Sets 1 2 3 4 5 6 7 8 9\n",
    },
    "ycsb": {
        "all-figures": "\n".join([
            "[OVERALL], RunTime(ms), 1000", "[OVERALL], Throughput(ops/sec), 100.5",
            "[TOTAL_GCS_G1_Young_Generation], Count, 3", "[TOTAL_GC_TIME_G1_Young_Generation], Time(ms), 20",
            "[TOTAL_GC_TIME_%_G1_Young_Generation], Time(%), 2.5", "[TOTAL_GCs], Count, 3",
            "[TOTAL_GC_TIME], Time(ms), 20", "[TOTAL_GC_TIME_%], Time(%), 2.5",
            "[READ], Operations, 500", "[READ], AverageLatency(us), 100.2", "[READ], MinLatency(us), 10",
            "[READ], MaxLatency(us), 900", "[READ], 95thPercentileLatency(us), 300",
            "[READ], 99thPercentileLatency(us), 800", "[READ], Return=OK, 499", "[READ], Return=NOT_FOUND, 1",
            "[READ-FAILED], Operations, 1", "[CLEANUP], Operations, 2", "[CLEANUP], AverageLatency(us), 5.5",
            "[INSERT], Operations, 500", "[INSERT], Return=ERROR, 3", "[INSERT-FAILED], Operations, 3",
            "[INSERT-FAILED], MinLatency(us), 7", "preload duration: 2.25",
            "[OVERALL], RunTime(ms), 3000", "[READ], Operations, 700", ""]),
    },
    "pts": {
        "failed-run-no-result": "pts/unigine-valley-1.1.7 [Resolution: 1024 x 768]\nThe test run did not produce a result.\n",
        "failed-run-with-result": (
            "pts/foo-1.0.0 [Test: A]\nThe test quit with a non-zero exit status.\nAverage: 5.5 Seconds\n"),
        "not-installed": "pts/bar-1.2.3 is not installed\n",
        "wrong-option": "Wrong test option\n",
        "final-results": (
            "pts/idle-1.2.0\nFinal: 1 PASS\nidle-1.2.0.seconds: 7.5\n"
            "system/other-2.0 [Mode: A B - Size: 1 x 2]\nFinal: FAIL\nAverage: 3.25 MB/s\n"
            "The following tests failed to properly run:\nsmart-1.0.0.seconds: 1.25\n"),
        "no-subname-index": "pts/xyz-1.0\nAverage: 1.5 Ops / Sec\npts/xyz-1.0\nAverage: 2.5 Ops / Sec\n",
        "mnn-switch": "pts/mnn-1.0.0\nModel: a:b:\nAverage: 1.5 ms\npts/other-1.0\nAverage: 9 ms\n",
    },
    "tinymembench": {
        "hugepage-and-missing": (
            " SSE2 copy : 100.5 MB/s\n standard memcpy : 200.0 MB/s (1.5%)\n"
            "      1024 :    0.5 ns          /     0.6 ns \n      1024 :    0.7 ns          /     0.8 ns \n"
            "     65536 :    1.3 ns          /     1.9 ns\n"),
        "block-not-indented": "1024 : 0.5 ns / 0.6 ns\n",
        "block-without-slash": "      4096 :    0.5 ns\n",
        "bandwidth-without-colon": " SSE2 copy 100.5 MB/s\n",
    },
    "vm-scalability": {
        "all-rate-lines": (
            "./case-lru-file-mmap-read\n"
            "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.5 s, 429 MB/s\n"
            "2147483648 bytes (2.1 GB) copied, 4.0 s, 537 MB/s\n"
            "10 * 4096 bytes migrated, 1000 usecs, 40 MB/s\n"
            "1048576 bytes remapped, 4096 usecs, 256 MB/s\n"
            "4096000 usecs to free memory\n"
            "1073741824 bytes faulted in 100.5-98.5 seconds\n"
            "./case-lru-file-mmap-read\n"
            "...512 bytes / 1000 usecs = 512 KB/s\n"
            "1024 bytes / 1000 usecs = 1024 KB/s\n"
            "2048 bytes / 1000 usecs = 2048 KB/s\n"
            "2097152 bytes faulted in 10.5-9.5 seconds\n"
            "2097152 bytes faulted in 10.5-8.5 seconds\n"),
        "incomplete": "1024 bytes / 1000 usecs = 1024 KB/s\n./case-anon-w-seq\n",
        "one-rate": "4096 bytes / 1000 usecs = 4096 KB/s\n",
        "remap-under-1024-usecs": "1048576 bytes remapped, 1000 usecs, 256 MB/s\n",
        "zero-span": "1024 bytes truncated in 5.0-5.0 seconds\n2048 bytes truncated in 5.0-4.0 seconds\n",
    },
    "netpipe": {
        "units": (
            "  1:       1 bytes   1000 times -->      0.10 Mbps in    500.00 nsec\n"
            "  2:   4.000 KB      1000 times -->      1.00 Gbps in      1.50 msec\n"
            "  3:   6.000 MB      1000 times -->     50.00 Gbps in      2.00 usec\n"
            "  4:   6000 KB      1000 times -->     40.00 Gbps in      2.00 usec\n"
            "\x1b[1;32m  5:       2 B   1000 times -->      0.20 Mbps in    300.00 nsec\x1b[0m\n"),
        "only-small": "  1:       1 bytes   1000 times -->      0.10 Mbps in    500.00 nsec\n",
    },
    "iperf": {
        "udp-and-integers": (
            '{"end": {"sum": {"bits_per_second": 1000}}}\n'
            '{"end": {"sum": {"bits_per_second": 1001}}}\n'
            '{"end": {"sum_sent": {"bits_per_second": 7}, "sum_received": {"bits_per_second": 8.5}}}\n'),
        "broken-session": '{"end": {"sum_sent": {"bits_per_second": 5}}}\n{"end": oops}\n',
        "no-session": '{"start": {}}\n',
        "not-an-object": "[1, 2]\n",
    },
    "openssl-speed": {
        "old-and-short": (
            "rsa 4096 bits 0.000510s 0.000008s   1959.9 129694.5\nrsa 4096 bits\n"
            "sha256          71.33k  247.16k  650.15k 1088.24k 1355.53k 1375.05k\n"),
        "sha256-short": "sha256 1k 2k\n",
        "rsa-too-short": "rsa4096 bits\n",
    },
    "rcutorture": {
        "skip": "rcu-torture: Skip the test\n",
        "hotplug-failure": (
            "[ 1.0] rcu-torture:--- Start of test: nreaders=1 onoff_interval=3\n"
            "[ 9.0] rcu-torture:--- End of test: FAILURE: nreaders=1 onoff_interval=3 onoff_holdoff=30\n"
            "[ 9.5] srcu-torture:--- End of test: SUCCESS: onoff_interval=0\n"),
        "two-results": (
            "[ 1.0] rcu-torture:--- Start of test: x\n"
            "[ 9.0] rcu-torture:--- End of test: SUCCESS: onoff_interval=0\n"
            "[ 9.1] rcu-torture:--- End of test: SUCCESS: onoff_interval=0\n"),
    },
    "rcuscale": {
        "skip": "srcu-scale: Skip the test\n[ 2.0] srcu-scale: Test complete\n",
        "nothing": "no log\n",
    },
    "locktorture": {
        "debug-result": "[ 5.0] mutex_lock-torture:--- End of test: SUCCESS [debug]: nwriters_stress=4 onoff_interval=0\n",
        "nothing": "no log\n",
    },
    "rcurefscale": {
        "runs-with-prefix": (
            "[   53.5] rcu-ref-scale: END OF TEST. Calculating average duration per loop (nanoseconds)...\n"
            "[   53.6] rcu-ref-scale: Runs\tTime(ns)\n[   53.6] rcu-ref-scale: 1\t34.912\n"
            "               2\t35.088\n"),
    },
    "jitter": {
        "one-sample": "    86480     203840     117360      86540      86480     203840    3368878080 1737817000          1\n",
        "last-line-without-newline": (
            "    10     20     30      40      50     60    1 2          1\n"
            "    11     21     31      41      51     61    1 2          2\n"
            "    1     2     3      4      5     6    1 2          3"),
    },
    "fxmark": {
        "other-ncpu-and-nan": (
            "## mem:tmpfs:MWRL:4:directio\n# ncpu secs works works/sec\n2 1.0 2.0 3.0\n"
            "## mem:tmpfs:MWRL:2:directio\n# ncpu secs works works/sec\n\n2 1.0 -nan 3.5\n"),
        "header-at-end": "## ssd:ext4:DWAL:1:bufferedio\n# ncpu secs\n",
    },
    "memory--numa_stat": {
        "no-cgroup": "total=5 N0=1 N1=\nanon\n=3 N0=x=y\ntime: 12\n",
    },
    "perf-bench-mem": {
        "no-function-line": "# Running 'mem/memset' benchmark:\n  1.5 GB/sec\n 2.0d MB/sec\n",
    },
    "perf-bench-syscall": {
        "no-name": "     Total time: 1.234 [sec]\n  12,345 ops/sec\n",
    },
    "kbuild": {
        "two-iterations": (
            "start time: 100.5\nreal: 10.5s\nuser: 20.25s\nend time: 111.0\n"
            "start time: 200.0\nreal: 11.5s\nsys: 1.5s\nend time: 212.25\n"),
    },
    "kernbench": {
        "missing-fields": "Elapsed Time\nSleeps 12\nUser Time 1.5 (0.1)\n",
    },
    "tcrypt": {
        "opers": (
            "testing speed of sha1 (sha1-generic)\n"
            "test  0 (   16 byte blocks,   16 bytes per update,   1 updates):  1000 opers/sec,    16001 bytes/sec\n"
            "test  1 (   64 byte blocks,   16 bytes per update,   4 updates):  2000 opers/sec,   128003 bytes/sec\n"
            "testing speed of empty\n"),
        "zero-seconds": "testing speed of x\n10 operations in 0 seconds (100 bytes)\n",
    },
    "stream": {
        "no-unit": "Copy: 1.0 2.0\n",
        "address": (
            "Function    Best Rate GB/s  Avg time\nCopy:  10.5 0.1\nAddress line 2.5\nTriad: 0\n"),
    },
    "coremark": {
        "no-colon": "Iterations/Sec\nIterations/Sec:\n",
    },
    "fsmark": {
        "no-rows": "FSUse%        Count         Size    Files/sec     App Overhead\n",
    },
    "lz4-test": {
        "two-levels": "-1   : 100 -> 50 (2.0), 500.5 MB/s , 2000.25 MB/s\n-9  : 100 -> 40 (2.5), 50.5 MB/s , 2100.75 MB/s\n",
    },
    "simoop": {
        "overwritten": (
            "Read latency usec: (p50: 1) (p95: 2) (p99: 3) (max: 4)\nwork rate = 1.00/sec (avg 2.00/sec)\n"
            "Read latency usec: (p50: 5) (p95: 6) (p99: 7) (max: 8)\n"),
    },
    "autonuma-benchmark": {
        "before-marker": "numa01\n12.5\nHyper-Threading IS disabled.\n13.5\nnuma01\n14.25\n",
    },
    "chromeswap": {
        "nested": "throughput_swap_a_b_cycles_per_second_x: 1.5\nthroughput_swap_cycles_per_second: 2\n",
    },
    "perf-c2c": {
        "no-remote": "  Load Local HITM                   :          7\n",
    },
    "phpbench": {
        "missing": " test_x seconds.\nScore\n",
    },
    "pybench": {
        "missing-time": "Totals:   1ms\n",
    },
    "perf-bench-numa-mem": {
        "twice": " main,  1.5, secs, NUMA-convergence-latency\n main,  2.5, secs, NUMA-convergence-latency\n",
    },
    "dbench": {
        "two": "Throughput 100.5 MB/sec 2 clients 2 procs max_latency=10.5 ms\nThroughput 200.5 MB/sec 4 clients 4 procs max_latency=20.5 ms\n",
    },
}


def main():
    lkp = os.environ["LKP_SRC"]
    env = dict(os.environ, TZ="UTC")
    if os.path.isdir(OUT):
        for d in os.listdir(OUT):
            if os.path.isdir(os.path.join(OUT, d)):
                shutil.rmtree(os.path.join(OUT, d))
    for program, cases in sorted(CASES.items()):
        os.makedirs(os.path.join(OUT, program), exist_ok=True)
        for name, text in cases.items():
            path = os.path.join(OUT, program, name)
            with open(path, "w") as f:
                f.write(text)
            with open(path, "rb") as f:
                r = subprocess.run([os.path.join(lkp, "programs", program, "parse")], stdin=f, capture_output=True,
                                   env=env)
            if r.returncode == 0:
                with open(path + ".yaml", "wb") as f:
                    f.write(r.stdout)
                print(f"{program}/{name}: yaml")
            else:
                # the exception (its first line) or the error lkp logged, without time stamps
                lines = [re.sub(r"^\S+ \S+ \+0000 ", "", l).replace(lkp, "$LKP_SRC")
                         for l in r.stderr.decode().splitlines() if l.strip()]
                why = (lines or [""])[0]
                with open(path + ".error", "w") as f:
                    f.write(f"exit {r.returncode}: {why}\n")
                print(f"{program}/{name}: error: {why[:120]}")


main()

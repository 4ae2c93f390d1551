#!/usr/bin/env python3
"""Write the dump-stat cases of tests/data/lkp/dump_stat and lkp's own output for them.

Each case is `<monitor>--<name>.txt`: `key: value` lines as a parser prints them; lkp-tests'
sbin/dump-stat (unmodified) turns them into `<monitor>--<name>.json` (no .json when it
writes no file). The cases exercise etc/valid-range-*.yaml (a record with a value outside
its range is dropped; two in one record drop two records), the monitors whose last record
is never truncated, and the records that are.

usage: LKP_SRC=… tools/oracles/lkp/dump_stat_cases.py   (needs ruby)
"""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "../../../tests/data/lkp/dump_stat")


def records(rows):
    return "".join(f"{k}: {v}\n" for row in rows for k, v in row)


def vm(us, sy, idle, cs):
    return [("procs.r", 2), ("cpu.us", us), ("cpu.sy", sy), ("cpu.id", idle), ("system.cs", cs)]


CASES = {
    # a cpu.us of 200 (outside [0, 110]) drops record 2
    "vmstat--range": records([vm(5, 3, 92, 1000), vm(6, 2, 92, 1100), vm(200, 2, 0, 1200), vm(7, 3, 90, 1300)]),
    # two values out of range in record 1: lkp deletes index 1 twice (records 1 and 2)
    "vmstat--two-in-one-record": records([vm(5, 3, 92, 1000), vm(111, 150, 0, 1100), vm(6, 2, 92, 1200),
                                          vm(7, 3, 90, 1300)]),
    # a Float out of range, and 110.0 on the edge (kept)
    "vmstat--float-edge": records([vm(5.5, 3, 92, 1000), vm(110.0, 0, 0, 1100), vm(110.5, 0, 0, 1200)]),
    # a range drop and an incomplete last record: the record counts are taken before the
    # drop, so nothing is truncated
    "vmstat--range-and-incomplete": records([vm(5, 3, 92, 1000), vm(300, 2, 92, 1100), vm(6, 2, 92, 1200)])
    + "procs.r: 1\ncpu.us: 5\ncpu.sy: 3\ncpu.id: 90\n",
    "turbostat--watt": records([[("PkgWatt", 35.5), ("CorWatt", 20.25), ("Avg_MHz", 2000)],
                                [("PkgWatt", 12000.0), ("CorWatt", 20.5), ("Avg_MHz", 2100)],
                                [("PkgWatt", 36.0), ("CorWatt", 21.0), ("Avg_MHz", 2200)]]),
    "iostat--util": records([[("sda.util", 50.0), ("cpu.user", 10.0), ("sda.r/s", 100)],
                             [("sda.util", 301.0), ("cpu.user", 11.0), ("sda.r/s", 200)],
                             [("sda.util", 60.0), ("cpu.user", 111.0), ("sda.r/s", 300)],
                             [("sda.util", 70.0), ("cpu.user", 12.0), ("sda.r/s", 400)]]),
    # the never-truncate monitors keep an incomplete last record; others truncate it
    "meminfo--incomplete-last": "MemFree: 100\nCached: 50\nMemFree: 110\nCached: 55\nMemFree: 120\n",
    "sched_debug--incomplete-last": "cpu.nr_running: 1\ncpu.load: 5\ncpu.nr_running: 2\n",
    "perf-stat--incomplete-last": "i.cycles: 1000\ni.instructions: 2000\ni.cycles: 1100\n",
    "proc-vmstat--incomplete-last": "nr_free_pages: 100\npgfault: 50\nnr_free_pages: 110\npgfault: 55\n"
    "nr_free_pages: 120\n",
    # an invalid value (not a number) in the last record; then nothing left: no file
    "softirqs--invalid-last": "NET_RX: 10\nTIMER: 5\nNET_RX: 12\nTIMER: x\n",
    "softirqs--all-invalid": "NET_RX: x\n",
    # ftrace keeps records with invalid values
    "ftrace--invalid-kept": "a: 1\nb: 2\na: 3\nb: bad\na: 5\nb: 6\n",
    # vmstat's range does not reach another monitor's keys
    "vmstatx--other-monitor": "cpu.us: 500\ncpu.us: 600\n",
}


def main():
    os.makedirs(OUT, exist_ok=True)
    dump = os.path.join(os.environ["LKP_SRC"], "sbin/dump-stat")
    for name, text in CASES.items():
        monitor = name.split("--")[0]
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write(text)
        js = os.path.join(OUT, name + ".json")
        if os.path.exists(js):
            os.remove(js)
        subprocess.run([dump, monitor, js], input=text, text=True, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=dict(os.environ, RESULT_ROOT=OUT))
        print(name, "->", "written" if os.path.exists(js) else "no file")


main()

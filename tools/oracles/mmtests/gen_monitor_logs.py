#!/usr/bin/env python3
"""A work/log tree with MMTests monitor logs, as run-mmtests.sh leaves them.

Each iteration directory holds what the monitors write for one benchmark
(hackbench-process-pipes here): vmstat, iostat and proc-interrupts through
monitors/latency-output (each line prefixed `%16.4f %8.4f %10.4f -- `), proc-vmstat,
mpstat and turbostat as plain gzip monitors, cpu-topology-mmtests.txt.gz from
bin/list-cpu-toplogy.sh, and tests-timestamp with the `time :: BENCH U user S system E
elapsed` line GNU time writes. The line formats are those captured on the build
machine (procps vmstat -n, sysstat 12.6 mpstat -P ALL -u and iostat -xz, /proc/vmstat,
/proc/interrupts); turbostat's is the tab-separated layout of turbostat 2022.10 (it
cannot run inside the build VM). Values are drawn from a seeded generator.

Usage: gen_monitor_logs.py OUTDIR   (writes OUTDIR/<name>/iter-N/...)
"""

import gzip
import os
import random
import sys

BENCH = "hackbench-process-pipes"
NAMES = ["6.8-vanilla", "6.9-teo", "6.9-menu"]
ITERATIONS = 2
SAMPLES = 12
NCPU = 8
NODES = 2


def latency_lines(lines, t0, rng):
    """Prefix each line as monitors/latency-output does."""
    out = []
    now = t0 + rng.random()
    last = now
    start = now
    for line in lines:
        now += 1.0 + rng.random() * 0.002
        out.append("%16.4f %8.4f %10.4f -- %s\n" % (now, now - start, now - last, line))
        last = now
    return out


def vmstat(rng, load):
    head = [
        "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
    ]
    rows = []
    free = 1404660
    for i in range(SAMPLES):
        us = min(100, int(load * 70 + rng.randint(0, 25)))
        sy = min(100 - us, rng.randint(2, 20))
        wa = rng.randint(0, 2)
        idle = max(0, 100 - us - sy - wa)
        free += rng.randint(-5000, 5000)
        rows.append(
            "%2d %2d %6d %6d %6d %8d %4d %4d %5d %5d %4d %4d %2d %2d %2d %2d %2d"
            % (rng.randint(0, 40), rng.randint(0, 2), 0 if i < 6 else rng.randint(0, 900), free, 306656,
               22486936, 0 if i < 8 else rng.randint(0, 30), rng.randint(0, 3), rng.randint(0, 12000),
               rng.randint(0, 6000), rng.randint(300, 20000), rng.randint(600, 90000), us, sy, idle, wa, 0)
        )
    return head + rows


def mpstat(rng, t0, load):
    # watch-mpstat.sh: "time:" first, then one after every blank line mpstat prints
    out = ["time: %d" % t0, "Linux 6.18.44-fc-v669 (vm) \t12/01/26 \t_x86_64_\t(%d CPU)" % NCPU, "",
           "time: %d" % t0]
    hdr = "     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle"
    for s in range(SAMPLES):
        hh = "16:%02d:%02d" % (41 + (s // 60), s % 60)
        out.append(hh + hdr)
        cpus = []
        for c in range(NCPU):
            usr = min(100.0, max(0.0, load * 80 + rng.uniform(-15, 15)))
            sys_ = min(100.0 - usr, rng.uniform(0, 12))
            idle = max(0.0, 100.0 - usr - sys_)
            cpus.append((c, usr, sys_, idle))
        au = sum(x[1] for x in cpus) / NCPU
        asy = sum(x[2] for x in cpus) / NCPU
        out.append(hh + "     all %7.2f    0.00 %7.2f    0.00    0.00    0.00    0.00    0.00    0.00 %7.2f"
                   % (au, asy, max(0.0, 100 - au - asy)))
        for c, usr, sys_, idle in cpus:
            out.append(hh + "     %3d %7.2f    0.00 %7.2f    0.00    0.00    0.00    0.00    0.00    0.00 %7.2f"
                       % (c, usr, sys_, idle))
        out.append("")
        out.append("time: %d" % (t0 + s + 1))
    return out


def topology():
    lines = []
    per = NCPU // NODES
    for cpu in range(NCPU):
        node = cpu // per
        core = (cpu % per) // 2
        thread = cpu % 2
        llc = "%d-%d" % (node * per, node * per + per - 1)
        lines.append("node %d socket %d core %d thread %d cpu %d llc %s" % (node, node, core, thread, cpu, llc))
    return lines


VMSTAT_KEYS = [
    "nr_free_pages", "nr_zone_inactive_anon", "nr_zone_active_anon", "nr_inactive_anon", "nr_active_anon",
    "nr_inactive_file", "nr_active_file", "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_anon_pages",
    "nr_mapped", "nr_file_pages", "nr_dirty", "nr_writeback", "nr_shmem", "nr_vmscan_write",
    "nr_vmscan_immediate_reclaim", "pgpgin", "pgpgout", "pswpin", "pswpout", "pgalloc_dma32", "pgalloc_normal",
    "pgfault", "pgmajfault", "pgsteal_kswapd", "pgsteal_direct", "pgscan_kswapd", "pgscan_direct",
    "slabs_scanned", "kswapd_inodesteal", "numa_pte_updates", "numa_huge_pte_updates", "numa_hint_faults",
    "numa_hint_faults_local", "numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
    "compact_migrate_scanned", "compact_free_scanned", "compact_isolated", "compact_stall", "thp_fault_alloc",
]
GAUGES = {k for k in VMSTAT_KEYS if k.startswith("nr_") and k not in ("nr_vmscan_write", "nr_vmscan_immediate_reclaim")}


def proc_vmstat(rng, t0, load, vals):
    """/proc/vmstat samples; `vals` carries the counters from the kernel's previous iteration."""
    out = []
    for s in range(SAMPLES + 1):
        out.append("time: %d" % (t0 + s))
        for k in VMSTAT_KEYS:
            if k in GAUGES:
                vals[k] = max(0, vals[k] + rng.randint(-20000, 20000))
            else:
                vals[k] += int(rng.randint(0, 40000) * load) if rng.random() < 0.8 else 0
            out.append("%s %d" % (k, vals[k]))
    return out


IRQS = [
    (" 24:", "IO-APIC   5-edge      ACPI:Ged", 0),
    (" 36:", "PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0", 900),
    (" 38:", "PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0", 40),
    (" 39:", "PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0", 30),
    (" 41:", "PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx", 12),
    (" 47:", "PCI-MSI 1048576-edge      eth0-TxRx-0", 300),
    (" 48:", "PCI-MSI 1048577-edge      eth0-TxRx-1", 280),
    ("NMI:", "Non-maskable interrupts", 0),
    ("LOC:", "Local timer interrupts", 2500),
    ("IWI:", "IRQ work interrupts", 8),
    ("RES:", "Rescheduling interrupts", 3000),
    ("CAL:", "Function call interrupts", 600),
    ("TLB:", "TLB shootdowns", 400),
]


def proc_interrupts(rng, t0, load, counts):
    """/proc/interrupts samples; `counts` carries on from the kernel's previous iteration."""
    lines = []
    for s in range(SAMPLES + 1):
        lines.append("time: %d" % (t0 + s * 10))
        lines.append("           " + "".join("CPU%-8d" % c for c in range(NCPU)))
        for i, (label, desc, rate) in enumerate(IRQS):
            for c in range(NCPU):
                counts[i][c] += int(rng.randint(0, 2 * rate + 1) * 10 * load) if rate else 0
            lines.append("%4s %s  %s" % (label, "".join("%10d " % v for v in counts[i]), desc))
        lines.append("ERR:          0")
    return lines


OLD = False  # --old: sysstat 10/11 iostat columns, turbostat 4.x's space-aligned layout


def iostat_old(rng, load):
    """iostat -xz of sysstat 10/11 (SLES 12, RHEL 7): `Device:` and avgrq-sz/avgqu-sz."""
    lines = ["Linux 4.12.14-122-default (vm) \t12/01/26 \t_x86_64_\t(%d CPU)" % NCPU, ""]
    hdr = ("Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await "
           "w_await  svctm  %util")
    for s in range(SAMPLES):
        u = rng.uniform(50, 95)
        lines += ["avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
                  "          %5.2f    0.00   %5.2f    %4.2f    0.00   %5.2f" % (u, 100 - u - 3, 1.0, 2.0), "", hdr]
        for dev in ("sda", "sdb"):
            v = [rng.uniform(0, 300) * load for _ in range(12)]
            if dev == "sdb" and s % 4 == 1:
                v[7] = v[8] = v[9] = 0.0
            lines.append("%-12s" % dev + "".join(" %8.2f" % x for x in v))
        lines += [""]
    return lines


def iostat(rng, load):
    if OLD:
        return iostat_old(rng, load)
    lines = ["Linux 6.18.44-fc-v669 (vm) \t12/01/26 \t_x86_64_\t(%d CPU)" % NCPU, ""]
    hdr = ("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm "
           "w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util")
    for s in range(SAMPLES):
        u = rng.uniform(50, 95)
        lines += ["avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
                  "          %5.2f    0.00   %5.2f    %4.2f    0.00   %5.2f" % (u, 100 - u - 3, 1.0, 2.0), "", hdr]
        for dev in ("vda", "vdb"):
            if dev == "vdb" and s % 3 == 0:
                continue
            v = [rng.uniform(0, 200) * load for _ in range(22)]
            lines.append("%-12s" % dev + "".join(" %9.2f" % x for x in v))
        lines += ["", ""]
    return lines


TURBO_HDR = ("Core\tCPU\tAvg_MHz\tBusy%\tBzy_MHz\tTSC_MHz\tIRQ\tSMI\tPOLL\tC1\tC1E\tC6\tPOLL%\tC1%\tC1E%\tC6%"
             "\tCPU%c1\tCPU%c6\tCoreTmp\tPkgTmp\tPkg%pc2\tPkg%pc6\tPkgWatt\tRAMWatt")


def turbostat_old(rng, load):
    """turbostat 4.x (kernel 4.4-4.12): space-aligned, `%Busy`, only CPU%cN residencies."""
    lines = []
    for _ in range(SAMPLES):
        lines.append("     Core     CPU Avg_MHz   %Busy Bzy_MHz TSC_MHz     SMI  CPU%c1  CPU%c3  CPU%c6  CPU%c7 "
                     "CoreTmp  PkgTmp PkgWatt CorWatt")
        rows = []
        for c in range(NCPU):
            busy = min(100.0, max(0.0, load * 60 + rng.uniform(-10, 10)))
            c1 = rng.uniform(0, 100 - busy)
            rows.append((int(busy * 30), busy, 3000, 2600, 0, c1, 0.0, 100 - busy - c1, 0.0, 40 + c, 45))
        tot = [sum(r[i] for r in rows) / NCPU for i in range(11)]
        pk, co = rng.uniform(10, 40) * load, rng.uniform(5, 20) * load
        fmt = "%9s%8s%8d%8.2f%8d%8d%8d%8.2f%8.2f%8.2f%8.2f%8d%8d"
        lines.append(fmt % ("-", "-", *tot[:4], tot[4], *tot[5:9], tot[9], tot[10]) + "%8.2f%8.2f" % (pk, co))
        for c, r in enumerate(rows):
            lines.append(fmt % (c // 2, c, *r[:4], r[4], *r[5:9], r[9], r[10]))
    return lines


def turbostat(rng, load):
    if OLD:
        return turbostat_old(rng, load)
    lines = []
    for _ in range(SAMPLES):
        lines.append(TURBO_HDR)
        rows = []
        for c in range(NCPU):
            busy = min(100.0, max(0.0, load * 70 + rng.uniform(-10, 10)))
            mhz = int(busy * 32)
            c1 = rng.uniform(0, 100 - busy)
            c6 = max(0.0, 100 - busy - c1)
            rows.append((c // 2, c, mhz, busy, 3200, 2195, rng.randint(100, 4000), 0, rng.randint(0, 9),
                         rng.randint(0, 900), rng.randint(0, 300), rng.randint(0, 2000), 0.01, c1 * 0.4,
                         c1 * 0.6, c6, c1, c6, 40 + c, 45, 0.0, 0.0))
        tot = [sum(r[i] for r in rows) / NCPU for i in range(2, 22)]
        def fmt(core, cpu, r, pkg):
            cells = [str(core), str(cpu), "%d" % r[0], "%.2f" % r[1], "%d" % r[2], "%d" % r[3], "%d" % r[4],
                     "%d" % r[5], "%d" % r[6], "%d" % r[7], "%d" % r[8], "%d" % r[9], "%.2f" % r[10],
                     "%.2f" % r[11], "%.2f" % r[12], "%.2f" % r[13], "%.2f" % r[14], "%.2f" % r[15],
                     "%d" % r[16], "%d" % r[17], "%.2f" % r[18], "%.2f" % r[19]]
            if pkg is not None:
                cells += ["%.2f" % pkg[0], "%.2f" % pkg[1]]
            return "\t".join(cells)
        pkg = (rng.uniform(5, 60) * load, rng.uniform(1, 4))
        lines.append(fmt("-", "-", tot, pkg))
        for i, r in enumerate(rows):
            lines.append(fmt(r[0], r[1], r[2:], pkg if i == 0 else None))
    return lines


MEMINFO = [
    "MemTotal:       32868212 kB",
    "MemFree:         1404660 kB",
    "MemAvailable:   24025296 kB",
    "Buffers:          306656 kB",
    "Cached:         22486936 kB",
]


def write(path, lines, gz):
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    if gz:
        # mtime 0: the same bytes every run
        with open(path + ".gz", "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(text.encode())
    else:
        with open(path, "w") as f:
            f.write(text)


def iteration(d, bench, rng, load, t0, vals, counts, stamp=True):
    """Write the monitor logs of `bench` into the iteration directory `d` (and, with
    `stamp`, tests-timestamp, tests-sysstate and the CPU topology); `vals`/`counts`
    carry the kernel's counters on from its previous iteration."""
    user, system = rng.uniform(100, 300) * load, rng.uniform(200, 900) * load
    elapsed = rng.uniform(60, 120)
    if stamp:
        write(os.path.join(d, "tests-timestamp"), [
            "start :: %d" % t0,
            "test begin :: %s %d" % (bench, t0 + 1),
            "test end :: %s %d 0" % (bench, t0 + 1 + int(elapsed)),
            "time :: %s %.2f user %.2f system %.2f elapsed" % (bench, user, system, elapsed),
            "finish :: %d" % (t0 + 2 + int(elapsed)),
        ], False)
        write(os.path.join(d, "tests-sysstate"), [
            "start :: %d" % t0,
            "test begin :: %s %d" % (bench, t0 + 1),
            "file start :: /proc/meminfo",
        ] + MEMINFO + [
            "test end :: %s %d 0" % (bench, t0 + 1 + int(elapsed)),
        ], True)
        write(os.path.join(d, bench, "logs", "hackbench-1"), ["Time: %.3f" % rng.uniform(1, 2)], False)
        write(os.path.join(d, "cpu-topology-mmtests.txt"), topology(), True)
    else:
        with open(os.path.join(d, "tests-timestamp"), "a") as f:
            f.write("time :: %s %.2f user %.2f system %.2f elapsed\n" % (bench, user, system, elapsed))
    write(os.path.join(d, "vmstat-" + bench), latency_lines(vmstat(rng, load), t0, rng), True)
    write(os.path.join(d, "iostat-" + bench), latency_lines(iostat(rng, load), t0, rng), True)
    write(os.path.join(d, "proc-interrupts-" + bench), latency_lines(proc_interrupts(rng, t0, load, counts), t0, rng),
          True)
    write(os.path.join(d, "proc-vmstat-" + bench), proc_vmstat(rng, t0, load, vals), True)
    write(os.path.join(d, "mpstat-" + bench), mpstat(rng, t0, load), True)
    write(os.path.join(d, "turbostat-" + bench), turbostat(rng, load), True)


def kernel_counters(rng):
    """One boot per kernel: /proc/vmstat and /proc/interrupts counters that carry on
    from iteration to iteration."""
    vals = {key: rng.randint(1000, 5000000) for key in VMSTAT_KEYS}
    counts = [[rng.randint(0, 100000) for _ in range(NCPU)] for _ in IRQS]
    return vals, counts


def main():
    global OLD
    out = sys.argv[1]
    OLD = "--old" in sys.argv[2:]
    rng = random.Random(20261201)
    for k, name in enumerate(NAMES):
        load = 0.7 + 0.1 * k
        vals, counts = kernel_counters(rng)
        for it in range(ITERATIONS):
            d = os.path.join(out, name, "iter-%d" % it)
            os.makedirs(os.path.join(d, BENCH, "logs"), exist_ok=True)
            iteration(d, BENCH, rng, load, 1764607000 + 1000 * (k * ITERATIONS + it), vals, counts)


if __name__ == "__main__":
    main()

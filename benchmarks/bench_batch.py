"""Hand-run benchmark: `schedlab batch` over 1,000 small archives.

Generates N archives (default 1,000; tar.gz, tar.xz, zip and tar in turn), each one
machine's MMTests work/log tree with two kernels (base, patched) of hackbench-process-pipes
(4 group counts x 5 iterations) and netperf-udp (3 sizes x 5 iterations), ~50 log
files per archive. Then times the whole batch (scan every archive, BH across all rows,
verdicts) locally with 1 and 2 rayon threads, and through Dask on a LocalCluster of 2
spawned worker processes with 1 thread each (cluster start-up not timed), checking that
all three give the same result. Prints archives/s and the ratio to the 1-thread run.

    python benchmarks/bench_batch.py [--archives 1000] [--repeat 3]

Recorded (`python benchmarks/bench_batch.py --repeat 5`, two runs, this sandbox: 2 vCPUs
shared with other jobs, load average < 1; 1,000 archives, 25.8 MB, 10,000 rows):

    mode                          archives/s   vs 1 thread
    local, 1 thread               1196-1374    1.00x
    local, 2 threads              1707-2036    1.43-1.48x
    Dask, 2 workers x 1 thread    1112-1113    0.81-0.93x

Dask on one 2-CPU machine pays for its scheduler and the scans' trip between
processes (JSON text); it is there to spread archives over many machines.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from timing import best_of

KINDS = ("tar.gz", "tar.xz", "zip", "tar")


def tree(rnd: random.Random, slow: float) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for kernel, f in (("base", 1.0), ("patched", slow)):
        for it in range(1):
            hb = f"work/log/{kernel}/iter-{it}/hackbench-process-pipes/logs"
            for g in (1, 4, 16, 64):
                for i in range(1, 6):
                    t = 0.02 * g * f * rnd.gauss(1, 0.03)
                    files[f"{hb}/hackbench-{g}-{i}"] = f"# Running\n\n     Total time: {t:.3f} [sec]\n".encode()
            np = f"work/log/{kernel}/iter-{it}/netperf-udp/logs"
            files[f"{np}/protocols"] = b"UDP_STREAM\n"
            for size in (64, 128, 1024):
                for i in range(1, 6):
                    v = size * 6.5 / f * rnd.gauss(1, 0.01)
                    files[f"{np}/UDP_STREAM-{size}.{i}"] = (
                        f"MIGRATED UDP STREAM TEST\n\n212992 {size:7d}   60.00     50547656      0   {v:.2f}\n"
                        f"212992           60.00     50253515         {v * 0.99:.2f}\n"
                    ).encode()
    return files


def write(path: Path, files: dict[str, bytes]) -> None:
    name = path.name
    if name.endswith(".zip"):
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for n, data in files.items():
                z.writestr(n, data)
        return
    mode = "w:gz" if name.endswith(".gz") else "w:xz" if name.endswith(".xz") else "w"
    with tarfile.open(path, mode) as t:
        for n, data in files.items():
            info = tarfile.TarInfo(n)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def generate(root: Path, n: int, seed: int = 1) -> list[Path]:
    rnd = random.Random(seed)
    paths = []
    for i in range(n):
        # one machine in ten regressed by 5%
        p = root / f"machine{i:04d}.{KINDS[i % len(KINDS)]}"
        write(p, tree(rnd, 1.05 if i % 10 == 0 else 1.0))
        paths.append(p)
    return paths



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--archives", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from schedlab import batch

    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        paths = generate(Path(d), args.archives)
        size = sum(p.stat().st_size for p in paths)
        print(f"generated {len(paths)} archives ({size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s; "
              f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.2f}")
        rows = []
        t1, r1 = best_of(args.repeat, lambda: batch.run(paths, "base", jobs=1))
        rows.append(("local, 1 thread", t1))
        t2, r2 = best_of(args.repeat, lambda: batch.run(paths, "base", jobs=2))
        rows.append(("local, 2 threads", t2))
        assert r1 == r2
        print(f"result: {r1.summary['rows']} rows, {r1.summary['worse']} worse, {r1.summary['better']} better, "
              f"exit code {r1.exit_code}")
        try:
            import dask
            import distributed
            from schedlab.distributed import compare_archives
        except ImportError:
            print("dask is not installed (pip install schedlab[dask]): no Dask figure")
        else:
            with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
                with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                              dashboard_address=None, silence_logs=40) as cluster, \
                        distributed.Client(cluster) as client:
                    td, rd = best_of(args.repeat, lambda: compare_archives(paths, "base", client=client))
            assert rd == r1, "Dask result differs from the local run"
            rows.append(("Dask, 2 workers x 1 thread", td))
        print(f"{'mode':28s} {'seconds':>8s} {'archives/s':>11s} {'vs 1 thread':>12s}")
        for name, secs in rows:
            print(f"{name:28s} {secs:8.3f} {len(paths) / secs:11.0f} {t1 / secs:11.2f}x")


if __name__ == "__main__":
    main()

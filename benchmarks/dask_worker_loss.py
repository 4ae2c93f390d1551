"""Hand-run acceptance check: 1,000 archives on a Dask LocalCluster of 2 spawned
worker processes, one of them killed (SIGKILL) mid-run, give the local result.

The archives are bench_batch.py's (one machine's hackbench and netperf-udp runs of
two kernels each, ~50 logs). The scans are persisted on the cluster; as soon as one
worker holds finished scans it is killed, so its finished scans are lost and its
running ones interrupted; the nanny restarts it and Dask runs the lost tasks again.
The reduce of the persisted scans must equal ``schedlab.batch.run`` on the same
paths (nothing lost, nothing counted twice). Prints the scans finished when the
worker was killed, the wall times, and whether the results are equal; exits 1 if not.

    python benchmarks/dask_worker_loss.py [--archives 1000]

Recorded (`python benchmarks/dask_worker_loss.py`, this sandbox, 2 vCPUs shared with
six other builds):

    1000 archives, 10000 rows; worker killed with 2/100 partitions finished; local 6.8 s,
    Dask with the loss 22.2 s; identical result: True
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from bench_batch import generate


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--archives", type=int, default=1000)
    ap.add_argument("--partitions", type=int, default=100)
    args = ap.parse_args()

    import dask
    import distributed
    from schedlab import batch
    from schedlab.distributed import scan_bag

    with tempfile.TemporaryDirectory() as d:
        paths = generate(Path(d), args.archives)
        t = time.perf_counter()
        local = batch.run(paths, "base")
        t_local = time.perf_counter() - t
        with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=50) as cluster, \
                    distributed.Client(cluster) as client:
                pids = client.run(os.getpid)
                t = time.perf_counter()
                bag = client.persist(scan_bag(paths, npartitions=args.partitions, client=client))
                futures = distributed.futures_of(bag)
                victim = None
                while victim is None:
                    held = client.who_has([f for f in futures if f.status == "finished"])
                    victim = next((ws[0] for ws in held.values() if ws), None)
                    time.sleep(0.002)
                done = sum(f.status == "finished" for f in futures)
                os.kill(pids[victim], signal.SIGKILL)
                got = client.compute(dask.delayed(batch.reduce, pure=True)(bag, "base")).result()
                t_dask = time.perf_counter() - t
    same = got == local
    print(f"{len(paths)} archives, {local.summary['rows']} rows; worker killed with {done}/{len(futures)} "
          f"partitions finished; local {t_local:.1f} s, Dask with the loss {t_dask:.1f} s; "
          f"identical result: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

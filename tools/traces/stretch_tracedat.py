#!/usr/bin/env python3
"""Make a large trace.dat for the import benchmarks out of a real one: each CPU's pages
of a version-6, uncompressed trace.dat (``trace-cmd convert --file-version 6
--compression none``) repeated FACTOR times, each copy's page timestamps moved past the
previous copy's end, so the records stay in time order and every page is the kernel's
own. The metadata is copied as is; the flyrecord's offsets and sizes are rewritten.

    python tools/traces/stretch_tracedat.py IN-v6.dat OUT.dat FACTOR

Only the pages' own timestamps move (an absolute time stamp event, type_len 31, would
not: the importers' order check refuses such a file). Used for benchmarks/bench_pelt.py --tracedat (not for tests: a test reads real
recordings only).
"""

from __future__ import annotations

import struct
import sys


def cpu_data(buf: bytes) -> list[tuple[int, int, int]]:
    """(offset of the (offset, size) pair in the file, data offset, data size) of each CPU
    of the buffer holding data: the first flyrecord whose CPUs have any."""
    found = []
    at = 0
    while True:
        at = buf.find(b"flyrecord\0", at)
        if at < 0:
            break
        pos = at + 10
        pairs = []
        while pos + 16 <= len(buf):
            off, size = struct.unpack_from("<QQ", buf, pos)
            if off > len(buf) or off + size > len(buf):
                break
            pairs.append((pos, off, size))
            pos += 16
            if len(pairs) == 64:
                break
        found.append(pairs)
        at += 10
    for pairs in found:
        # the CPU count is not known here: the pairs up to the first that is not data
        cpus = []
        for p in pairs:
            if cpus and p[1] != cpus[-1][1] + cpus[-1][2] and p[2] != 0:
                break
            cpus.append(p)
        if any(size for _, _, size in cpus):
            return [c for c in cpus if c[2] > 0 or c is cpus[0]]
    raise SystemExit("no flyrecord with CPU data")


def main() -> int:
    src, dst, factor = sys.argv[1], sys.argv[2], int(sys.argv[3])
    buf = open(src, "rb").read()
    if not buf.startswith(b"\x17\x08Dtracing6\0"):
        raise SystemExit("give a version 6 trace.dat (trace-cmd convert --file-version 6 --compression none)")
    page = struct.unpack_from("<I", buf, 14)[0]  # after the magic, version, endianness and long size
    cpus = cpu_data(buf)
    first = min(off for _, off, size in cpus if size)
    span = 0
    for _, off, size in cpus:
        if size:
            stamps = [struct.unpack_from("<Q", buf, off + p)[0] for p in range(0, size, page)]
            span = max(span, max(stamps) - min(stamps))
    shift = span + 10_000_000  # 10 ms between copies
    head = bytearray(buf[:first])
    out = open(dst, "wb")
    out.write(head)  # patched below
    pos = first
    new = []
    for pair_at, off, size in cpus:
        new.append((pair_at, pos, size * factor))
        pages = bytearray(buf[off:off + size])
        for k in range(factor):
            chunk = bytearray(pages)
            for p in range(0, size, page):
                ts = struct.unpack_from("<Q", chunk, p)[0]
                struct.pack_into("<Q", chunk, p, ts + k * shift)
            out.write(chunk)
        pos += size * factor
    out.seek(0)
    for pair_at, off, size in new:
        struct.pack_into("<QQ", head, pair_at, off, size)
    out.write(head)
    out.close()
    print(f"{dst}: {pos / 1e6:,.0f} MB, each CPU's pages {factor} times (copies {shift / 1e9:.3f} s apart)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write a large trace.dat from a small real one, for the benchmarks: the metadata of a
version 6 uncompressed trace.dat (`trace-cmd convert --file-version 6 --compression none`)
kept as is, and each CPU's ring-buffer pages repeated until the file reaches the size
asked, every repetition's page timestamps moved past the previous one's end, so the
events stay in time order and every record decodes as in the original.

    python tools/traces/grow_tracedat.py IN.dat OUT.dat --mb 1024

Only the page headers' timestamps are changed (events hold deltas from them); a page
holding an absolute timestamp event (type 31) would not move with it, and is refused.
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path


def pages(data: bytes, offset: int, size: int, page_size: int) -> list[bytes]:
    return [data[o:o + page_size] for o in range(offset, offset + size, page_size)]


def check_relative(page: bytes) -> None:
    """Refuse a page with an absolute timestamp event (it would not move with the page)."""
    commit = struct.unpack_from("<Q", page, 8)[0] & ((1 << 27) - 1)
    pos, end = 16, 16 + commit
    while pos + 4 <= end:
        h = struct.unpack_from("<I", page, pos)[0]
        tl = h & 0x1F
        if tl == 31:
            sys.exit("a page holds an absolute timestamp event: this trace cannot be grown")
        if tl == 29:
            if h >> 5 == 0:
                break
            pos += 4 + max(struct.unpack_from("<I", page, pos + 4)[0], 4)
        elif tl == 30:
            pos += 8
        elif tl == 0:
            pos += 4 + (struct.unpack_from("<I", page, pos + 4)[0] + 3) // 4 * 4
        else:
            pos += 4 + 4 * tl


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", type=Path)
    ap.add_argument("output", type=Path)
    ap.add_argument("--mb", type=int, default=1024, help="size of the output in MB (10^6 bytes)")
    args = ap.parse_args()
    data = args.input.read_bytes()
    if not data.startswith(b"\x17\x08Dtracing6\0"):
        sys.exit("not a version 6 trace.dat (convert it: trace-cmd convert --file-version 6 --compression none)")
    page_size = struct.unpack_from("<I", data, 14)[0]  # after the magic, the endianness and the long size
    at = data.rfind(b"flyrecord\0")
    if at < 0:
        sys.exit("no flyrecord section")
    table = at + len(b"flyrecord\0")
    # the table ends at the first entry that is no CPU's pages (the CPU count is in the
    # metadata before; what follows the table up to the pages is padding or option data)
    cpus: list[tuple[int, int]] = []
    pos = table
    while pos + 16 <= len(data):
        off, size = struct.unpack_from("<QQ", data, pos)
        if off < table or off % page_size or size % page_size or off + size > len(data):
            break
        cpus.append((off, size))
        pos += 16
    if not cpus:
        sys.exit("no CPU table after the last flyrecord (a trace with buffer instances: convert it first)")
    per_cpu = [pages(data, off, size, page_size) for off, size in cpus]
    for ps in per_cpu:
        for p in ps:
            check_relative(p)
    stamps = [struct.unpack_from("<Q", p, 0)[0] for ps in per_cpu for p in ps]
    span = max(stamps) - min(stamps) + 1_000_000_000  # 1 s after the last page starts
    one = sum(len(ps) for ps in per_cpu) * page_size
    copies = max(1, (args.mb * 10**6 - table) // max(one, 1))
    head = bytearray(data[:table])
    start = (len(head) + 16 * len(cpus) + page_size - 1) // page_size * page_size
    offsets, at_ = [], start
    for ps in per_cpu:
        offsets.append((at_, len(ps) * page_size * copies))
        at_ += len(ps) * page_size * copies
    with open(args.output, "wb") as out:
        out.write(head)
        for off, size in offsets:
            out.write(struct.pack("<QQ", off, size))
        out.write(bytes(start - len(head) - 16 * len(cpus)))
        for ps in per_cpu:
            for k in range(copies):
                for p in ps:
                    ts = struct.unpack_from("<Q", p, 0)[0] + k * span
                    out.write(struct.pack("<Q", ts) + p[8:])
    print(f"{args.output}: {copies} copies of {len(cpus)} CPUs' pages, {at_ / 1e6:.1f} MB")


if __name__ == "__main__":
    main()

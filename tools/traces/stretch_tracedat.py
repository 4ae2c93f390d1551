#!/usr/bin/env python3
"""Make a large trace.dat for the import benchmarks out of a real one: each CPU's pages
of a version-6, uncompressed trace.dat (``trace-cmd convert --file-version 6
--compression none``) repeated FACTOR times, each copy's page timestamps moved past the
previous copy's end, so the records stay in time order and every page is the kernel's
own. The metadata is copied as is; the flyrecord's offsets and sizes are rewritten.

    python tools/traces/stretch_tracedat.py IN-v6.dat OUT.dat FACTOR

The pages' own timestamps move, and so do the absolute time stamp events (type_len 31)
inside them; the copies are the span of the whole recording apart (its earliest page
to its latest record on any CPU), so the records of each copy come after the last of
the copy before. Used for benchmarks/bench_pelt.py --tracedat (not for tests: a test reads real
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


def walk_page(pg: bytes) -> tuple[int, list[int]]:
    """(the timestamp of the last record, the offsets of the absolute time stamp events)
    of one ring-buffer page (64-bit layout: timestamp, commit, data at 16; the event
    headers of docs/tracing.md §3)."""
    ts = struct.unpack_from("<Q", pg, 0)[0]
    end = 16 + (struct.unpack_from("<Q", pg, 8)[0] & ((1 << 27) - 1))
    pos = 16
    absolute = []
    while pos + 4 <= end:
        h = struct.unpack_from("<I", pg, pos)[0]
        type_len, delta, body = h & 31, h >> 5, pos + 4
        if type_len == 29:  # padding: the rest of the page, or a discarded event
            if delta == 0:
                break
            ts += delta
            pos = body + max(struct.unpack_from("<I", pg, body)[0], 4)
            continue
        if type_len == 30:  # time extend
            ts += delta + (struct.unpack_from("<I", pg, body)[0] << 27)
            pos = body + 4
            continue
        if type_len == 31:  # absolute time stamp: the low 59 bits of the clock
            ts = (ts & ~((1 << 59) - 1)) | (struct.unpack_from("<I", pg, body)[0] << 27 | delta)
            absolute.append(pos)
            pos = body + 4
            continue
        start, n = (body + 4, struct.unpack_from("<I", pg, body)[0] - 4) if type_len == 0 else (body, type_len * 4)
        ts += delta
        pos = start + (n + 3) // 4 * 4
    return ts, absolute


def move_absolute(chunk: bytearray, at: int, shift: int) -> None:
    """Move the absolute time stamp event at ``at`` of ``chunk`` by ``shift`` ns."""
    h, ext = struct.unpack_from("<II", chunk, at)
    value = (ext << 27 | h >> 5) + shift
    if value >> 59 or value >> 27 >= 1 << 32:
        raise SystemExit("a moved absolute time stamp does not fit its event")
    struct.pack_into("<II", chunk, at, 31 | (value & ((1 << 27) - 1)) << 5, value >> 27)


def main() -> int:
    src, dst, factor = sys.argv[1], sys.argv[2], int(sys.argv[3])
    buf = open(src, "rb").read()
    if not buf.startswith(b"\x17\x08Dtracing6\0"):
        raise SystemExit("give a version 6 trace.dat (trace-cmd convert --file-version 6 --compression none)")
    page = struct.unpack_from("<I", buf, 14)[0]  # after the magic, version, endianness and long size
    cpus = cpu_data(buf)
    first = min(off for _, off, size in cpus if size)
    # a copy starts after the previous copy's last record on every CPU: the span from the
    # earliest page of any CPU to the latest record of any CPU (a page's records run on
    # past its own timestamp, and the CPUs' pages start and end at different times)
    start, end = None, 0
    for _, off, size in cpus:
        if size:
            stamps = [struct.unpack_from("<Q", buf, off + p)[0] for p in range(0, size, page)]
            if stamps != sorted(stamps):
                raise SystemExit(f"the CPU pages at byte {off} are not in time order")
            start = min(stamps) if start is None else min(start, min(stamps))
            end = max(end, max(walk_page(buf[off + p:off + p + page])[0] for p in range(0, size, page)))
    shift = end - start + 10_000_000  # 10 ms between copies
    head = bytearray(buf[:first])
    out = open(dst, "wb")
    out.write(head)  # patched below
    pos = first
    new = []
    for pair_at, off, size in cpus:
        new.append((pair_at, pos, size * factor))
        pages = bytearray(buf[off:off + size])
        absolute = [p + at for p in range(0, size, page) for at in walk_page(pages[p:p + page])[1]]
        for k in range(factor):
            chunk = bytearray(pages)
            for p in range(0, size, page):
                ts = struct.unpack_from("<Q", chunk, p)[0]
                struct.pack_into("<Q", chunk, p, ts + k * shift)
            for at in absolute:
                move_absolute(chunk, at, k * shift)
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

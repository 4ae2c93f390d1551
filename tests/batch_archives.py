"""Archives for the batch tests: every kind built from a test-data tree, and hostile
ones (traversal, links out, decompression bombs, truncation, a wrecked zip directory)
built cheaply: a bomb repeats one small compressed block instead of compressing
gigabytes of zeros."""

from __future__ import annotations

import gzip
import io
import lzma
import os
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

KINDS = ("tar", "tar.gz", "tgz", "tar.xz", "zip")

GIB = 1 << 30


def build(src: Path, dest: Path, prefix: str) -> Path:
    """``dest`` (its suffix says the kind) holding ``src``'s files under ``prefix/``."""
    name = dest.name
    if name.endswith(".zip"):
        with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for root, dirs, files in os.walk(src):
                dirs.sort()
                for f in sorted(files):
                    p = Path(root) / f
                    z.write(p, f"{prefix}/{p.relative_to(src)}")
        return dest
    mode = {"tar": "w", "tar.gz": "w:gz", "tgz": "w:gz", "tar.xz": "w:xz"}
    kind = next(k for k in ("tar.gz", "tar.xz", "tgz", "tar") if name.endswith("." + k))
    with tarfile.open(dest, mode[kind]) as t:
        t.add(src, arcname=prefix)
    return dest


def tar_with(entries: list[tarfile.TarInfo | tuple[tarfile.TarInfo, bytes]]) -> bytes:
    """A tar stream of the given members (raw TarInfo: names are not checked)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for e in entries:
            info, data = e if isinstance(e, tuple) else (e, b"")
            t.addfile(info, io.BytesIO(data) if data else None)
    return buf.getvalue()


def file_info(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def traversal_tar_gz(dest: Path) -> Path:
    dest.write_bytes(gzip.compress(tar_with([file_info("work/log/a/x", b"1\n"), file_info("../../etc/passwd", b"root:x:0:0\n")])))
    return dest


def traversal_zip(dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w") as z:
        z.writestr("work/log/a/x", "1\n")
        z.writestr("../../etc/passwd", "root:x:0:0\n")
    return dest


def symlink_out_tar(dest: Path) -> Path:
    link = tarfile.TarInfo("work/log/evil")
    link.type = tarfile.SYMTYPE
    link.linkname = "../../../etc"
    dest.write_bytes(tar_with([file_info("work/log/a/x", b"1\n"), link]))
    return dest


def _tar_header(name: str, size: int) -> bytes:
    """The 512-byte GNU header of one regular file of ``size`` bytes (base-256 size above 8 GiB)."""
    info = tarfile.TarInfo(name)
    info.size = size
    return info.tobuf(format=tarfile.GNU_FORMAT)


def gzip_bomb(dest: Path, total: int = 10 * GIB, chunk: int = 16 << 20) -> Path:
    """A .tar.gz whose one entry is ``total`` zero bytes: a header member, then one
    gzip member of ``chunk`` zeros repeated (concatenated members decode as one
    stream), then the end-of-archive blocks. 10 GiB in ~10 MB, written in a blink."""
    member = gzip.compress(bytes(chunk), compresslevel=9)
    with open(dest, "wb") as f:
        f.write(gzip.compress(_tar_header("work/log/a/iter-0/hackbench-process-pipes/logs/big.log", total)))
        for _ in range(total // chunk):
            f.write(member)
        f.write(gzip.compress(bytes(1024)))
    return dest


def xz_bomb(dest: Path, total: int = 10 * GIB, chunk: int = 256 << 20) -> Path:
    """A .tar.xz of one ``total``-byte entry of zeros: one xz stream of ``chunk``
    zeros repeated (xz decodes concatenated streams). 10 GiB in ~1.5 MB."""
    stream = lzma.compress(bytes(chunk), preset=1)
    with open(dest, "wb") as f:
        f.write(lzma.compress(_tar_header("work/log/a/big.log", total)))
        for _ in range(total // chunk):
            f.write(stream)
        f.write(lzma.compress(bytes(1024)))
    return dest


def zip_bomb(dest: Path, total: int = 10 * GIB, chunk: int = 16 << 20, declared: int | None = None) -> Path:
    """A zip64 archive whose one deflated entry inflates to ``total`` zeros: a raw
    deflate segment of ``chunk`` zeros ending in a full flush (so it does not depend
    on what came before) repeated, then the final empty block. The headers declare
    ``declared`` uncompressed bytes (default: the truth; less to lie about it); the CRC
    is not computed (a reader must refuse the entry long before it could check it)."""
    declared = total if declared is None else declared
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    segment = c.compress(bytes(chunk)) + c.flush(zlib.Z_FULL_FLUSH)
    final = b"\x03\x00"  # a final fixed-Huffman block with no data
    n = total // chunk
    comp_size = len(segment) * n + len(final)
    name = b"work/log/a/big.log"
    crc = 0
    zip64_local = struct.pack("<HHQQ", 0x0001, 16, declared, comp_size)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                        len(name), len(zip64_local)) + name + zip64_local
    with open(dest, "wb") as f:
        f.write(local)
        for _ in range(n):
            f.write(segment)
        f.write(final)
        cd_offset = f.tell()
        zip64_cd = struct.pack("<HHQQQ", 0x0001, 24, declared, comp_size, 0)
        central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0x21, crc, 0xFFFFFFFF,
                              0xFFFFFFFF, len(name), len(zip64_cd), 0, 0, 0, 0, 0xFFFFFFFF) + name + zip64_cd
        f.write(central)
        eocd64_offset = f.tell()
        f.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 1, 1, len(central), cd_offset))
        f.write(struct.pack("<IIQI", 0x07064B50, 0, eocd64_offset, 1))
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), 0xFFFFFFFF, 0))
    return dest


def truncated_tar_gz(src: Path, dest: Path) -> Path:
    """A valid .tar.gz of ``src`` cut in the middle."""
    full = dest.with_name("full-" + dest.name)
    build(src, full, "work/log")
    data = full.read_bytes()
    full.unlink()
    dest.write_bytes(data[: len(data) // 2])
    return dest


def corrupt_zip_directory(src: Path, dest: Path) -> Path:
    """A zip of ``src`` whose central directory (at the end) is overwritten with 0xff."""
    build(src, dest, "work/log")
    data = bytearray(dest.read_bytes())
    end = data.rfind(b"PK\x05\x06")
    cd = struct.unpack_from("<I", data, end + 16)[0]
    for i in range(cd, min(cd + 64, end)):
        data[i] = 0xFF
    dest.write_bytes(bytes(data))
    return dest


def overlapping_zip_bomb(dest: Path, total: int = 10 * GIB, chunk: int = 16 << 20) -> Path:
    """A zip whose central directory lists ``total // chunk`` files that all share one
    deflated body of ``chunk`` zeros (the overlapping-entries bomb): ~60 KB on disk,
    10 GiB to a reader that inflates every entry. Every central entry points at the
    one local header (and its name), as such bombs do."""
    body = zlib.compress(bytes(chunk), 9)[2:-4]  # raw deflate
    crc = zlib.crc32(bytes(chunk))
    n = total // chunk
    local_name = b"work/log/a/big.log"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(body), chunk, len(local_name), 0)
    with open(dest, "wb") as f:
        f.write(local + local_name + body)
        cd_offset = f.tell()
        central = b""
        for i in range(n):
            name = f"work/log/a/big-{i}.log".encode()
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(body), chunk,
                                   len(name), 0, 0, 0, 0, 0, 0) + name
        f.write(central)
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), cd_offset, 0))
    return dest


def tiny_mmtests(dest: Path, index: int) -> Path:
    """A tar (about 10 KB) of one machine's hackbench runs of kernels ``base`` and
    ``new`` (4 logs each; the times differ per ``index``), under
    ``machine<index>/work/log``: many of them make a batch of many small inputs."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        for kernel, shift in (("base", 0), ("new", index % 7)):
            for i in range(1, 5):
                text = f"Total time: {10 + shift + (index * i) % 5 / 10:.3f} [sec]\n".encode()
                info = tarfile.TarInfo(f"machine{index}/work/log/{kernel}/iter-0/hackbench-process-pipes/logs/"
                                       f"hackbench-4-{i}")
                info.size = len(text)
                t.addfile(info, io.BytesIO(text))
    dest.write_bytes(buf.getvalue())
    return dest

"""The one way a command writes its ``-o FILE``: never over an input, never half a file.

:func:`write` (and :func:`replacing` for output streamed while it is computed):

- refuse an output that is one of the command's inputs, also through another name
  (a symlink, a hard link: the same ``st_dev``/``st_ino``), before anything is read;
- write to a temporary file beside the target (``.NAME.PID.N.tmp``, same directory, so
  the same filesystem) and rename it over the target only when everything was written,
  keeping the target's permissions; on any failure the temporary file is removed and
  the target is as it was;
- write straight to a target that is not a regular file (``/dev/null``, a FIFO, a
  terminal), which cannot be replaced;
- turn every OS error (a full disk, a read-only or missing directory, a directory
  given as the file, no permission) into :class:`~schedlab.errors.WriteError` naming
  the path and what to do, which the command line reports with exit code 2.

A symlinked target is followed: the file it points to is replaced, the link stays.
Files inside an input *directory* are not checked (a report may be written into the
tree it describes); only the inputs as named are.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO

from .errors import SchedlabError, WriteError

_ADVICE = {
    errno.ENOSPC: "the filesystem is full: free space there or give another -o",
    errno.EDQUOT: "the disk quota is exceeded: free space or give another -o",
    errno.EROFS: "the filesystem is read-only: give another -o",
    errno.EACCES: "no permission to write there: give another -o",
    errno.EPERM: "no permission to write there: give another -o",
    errno.EISDIR: "it is a directory: give a file name",
    errno.ENOENT: "its directory does not exist: create it or give another -o",
    errno.ENOTDIR: "a part of its path is not a directory: give another -o",
    errno.ENAMETOOLONG: "the name is too long: give a shorter -o",
    errno.EFBIG: "the file would be too large for that filesystem: give another -o",
    errno.EIO: "the device reported an I/O error: give another -o",
}


def write_error(target: str, e: OSError) -> WriteError:
    """The :class:`WriteError` for an OS error met while writing ``target``."""
    reason = e.strerror or str(e)
    advice = _ADVICE.get(e.errno or 0)
    return WriteError(f"cannot write {target}: {reason}" + (f"; {advice}" if advice else ""), target)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def check_not_input(target: str, inputs: Iterable[str | os.PathLike[str] | None]) -> None:
    """Raise :class:`WriteError` when ``target`` is one of ``inputs`` (``None`` and ``-``,
    standard input, are skipped): the same file by device and inode, so also a symlink
    to an input or a hard link of one."""
    try:
        out = os.stat(target)
    except OSError:
        return  # nothing there (or unreachable, which the write will report): not an input
    for path in inputs:
        if path is None or os.fspath(path) == "-":
            continue
        try:
            inp = os.stat(path)
        except OSError:
            continue
        if _same_file(out, inp):
            how = "is" if os.path.abspath(target) == os.path.abspath(path) else "is the same file as"
            raise WriteError(
                f"refusing to write {target}: it {how} the input {os.fspath(path)}, which would be destroyed; "
                "give another -o", target)


def _temporary(directory: str, base: str, mode: int | None) -> tuple[str, int]:
    """A new file beside the target: (path, descriptor), created exclusively."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for n in range(100):
        tmp = os.path.join(directory, f".{base}.{os.getpid()}.{n}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)  # the umask applies, as to any new file
        except FileExistsError:
            continue
        if mode is not None:
            os.fchmod(fd, stat.S_IMODE(mode))
        return tmp, fd
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.path.join(directory, f".{base}.*.tmp"))


@contextmanager
def replacing(target: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | None] = ()) -> Iterator[IO[bytes]]:
    """A binary file to write ``target``'s content to; see the module's rules.

    The content replaces ``target`` when the ``with`` block ends normally; an
    exception in the block (whatever it is) leaves ``target`` untouched and removes
    the temporary file. OS errors of the writing become :class:`WriteError`.
    """
    name = os.fspath(target)
    inputs = list(inputs)
    check_not_input(name, inputs)
    real = os.path.realpath(name)
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise write_error(name, e) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise write_error(name, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name))
    if st is not None and not stat.S_ISREG(st.st_mode):
        # a device, FIFO or socket: written in place (it cannot be replaced)
        try:
            f = open(real, "wb")  # noqa: SIM115 - closed below, its errors mapped
        except OSError as e:
            raise write_error(name, e) from None
        try:
            with f:
                yield f
        except SchedlabError:
            raise
        except OSError as e:
            if e.filename is not None and e.filename != real:
                raise
            raise write_error(name, e) from None
        return
    directory, base = os.path.split(real)
    try:
        tmp, fd = _temporary(directory or ".", base, st.st_mode if st is not None else None)
    except OSError as e:
        raise write_error(name, e) from None
    done = False
    try:
        try:
            with open(fd, "wb") as f:
                yield f
            os.replace(tmp, real)
            done = True
        except SchedlabError:
            raise
        except OSError as e:
            if e.filename is not None and e.filename not in (tmp, real):
                raise  # an input's error raised in the block: reported as it is
            raise write_error(name, e) from None
    finally:
        if not done:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write(target: str | os.PathLike[str], data: bytes | str,
          inputs: Iterable[str | os.PathLike[str] | None] = ()) -> None:
    """Write ``data`` (str as UTF-8) to ``target`` by the module's rules."""
    with replacing(target, inputs) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)

"""schedlab's build backend: maturin's PEP 517 backend, plus the native ``schedlab``
launcher (src/bin/schedlab.rs, docs/cli.md) in every wheel it builds.

maturin puts one cargo target in a wheel: the extension module. The launcher is a
second one (a binary), so after maturin has built the wheel this backend builds the
binary with cargo (the same profile and lock file) and puts it in the wheel as its
``schedlab`` script, in place of the Python console script the wheel declares
(``schedlab.cli:main``, which a wheel built by maturin alone keeps). The wheel's RECORD
is rewritten to match.

The same step is a command for wheels built by ``maturin build`` (tools/build-wheels.sh,
the release workflow), with ``--zig`` for a launcher that runs on the glibc the wheel's
manylinux tag promises:

    python tools/build_backend/schedlab_build.py WHEEL [--target TRIPLE] [--zig 2.17]
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import maturin
from maturin import (  # noqa: F401  (the hooks this backend does not change)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent.parent
#: The name of the launcher's binary target (Cargo.toml) and of the script it becomes.
LAUNCHER = "schedlab"
#: The workspace package of the extension module (src/python/Cargo.toml).
EXTENSION_PACKAGE = "schedlab-python"
#: The console script a wheel declares (pyproject.toml), replaced by the launcher.
CONSOLE_SCRIPT = "schedlab"


def build_wheel(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """PEP 517: maturin's wheel, with the launcher in it."""
    name: str = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    add_launcher(Path(wheel_directory) / name, build_launcher())
    return name


def build_editable(
    wheel_directory: str, config_settings: Mapping[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """PEP 660: maturin's editable wheel, with the launcher in it."""
    name: str = maturin.build_editable(wheel_directory, config_settings, metadata_directory)
    add_launcher(Path(wheel_directory) / name, build_launcher())
    return name


def build_launcher(target: str | None = None, zig: str | None = None) -> Path:
    """Build the launcher with cargo (release profile, the lock file) and return its
    path. ``target`` is a target triple (default the host); ``zig`` a glibc version
    to link against with zig through maturin's wrapper (``maturin zig cc``), as
    ``maturin build --zig`` links the extension."""
    cargo = os.environ.get("CARGO", "cargo")
    # The extension's package is named beside the core's so that cargo unifies the
    # dependencies' features as in maturin's build of the extension: the core and its
    # dependencies built there are reused, and only the launcher itself is compiled.
    argv = [cargo, "build", "--release", "--locked", "-p", "schedlab", "-p", EXTENSION_PACKAGE, "--bin", LAUNCHER,
            "--message-format=json-render-diagnostics"]
    env = dict(os.environ)
    scratch = tempfile.mkdtemp(prefix="schedlab-zig-")
    try:
        if zig is not None:
            target = target or "x86_64-unknown-linux-gnu"
            env.update(_zig_env(target, zig, Path(scratch)))
        if target is not None:
            argv += ["--target", target]
        p = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, check=False)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if p.returncode != 0:
        raise RuntimeError(f"building the schedlab launcher failed: {' '.join(argv)} exited {p.returncode}")
    for line in p.stdout.decode().splitlines():
        msg = json.loads(line) if line.startswith("{") else {}
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["target"]["name"] == LAUNCHER:
            return Path(msg["executable"])
    raise RuntimeError("cargo built no schedlab launcher (no executable in its messages)")


def _zig_env(target: str, glibc: str, scratch: Path) -> dict[str, str]:
    """Environment that makes cargo compile C and link with zig for ``target`` and
    glibc ``glibc``: wrapper scripts around ``maturin zig cc``/``ar``."""
    arch = target.split("-")[0]
    zig_target = f"{arch}-linux-gnu.{glibc}"
    maturin_exe = shutil.which("maturin") or f"{sys.executable} -m maturin"
    scripts = {}
    for tool, body in (("cc", f"zig cc -- -target {zig_target}"), ("ar", "zig ar --")):
        path = scratch / f"zig{tool}.sh"
        path.write_text(f'#!/bin/sh\nexec {maturin_exe} {body} "$@"\n')
        path.chmod(0o755)
        scripts[tool] = str(path)
    under = target.replace("-", "_")
    return {
        f"CC_{under}": scripts["cc"],
        f"AR_{under}": scripts["ar"],
        f"CARGO_TARGET_{under.upper()}_LINKER": scripts["cc"],
    }


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _without_console_script(text: str) -> str:
    """entry_points.txt without the ``schedlab`` console script (and without the
    ``[console_scripts]`` section when that was its only entry)."""
    out: list[str] = []
    section = ""
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            section = s
        elif section == "[console_scripts]" and s.split("=", 1)[0].strip() == CONSOLE_SCRIPT:
            continue
        out.append(line)
    # drop a section header left with no entries
    kept: list[str] = []
    for i, line in enumerate(out):
        if line.strip().startswith("["):
            rest = out[i + 1 :]
            nxt = next((j for j, x in enumerate(rest) if x.strip().startswith("[")), len(rest))
            if not any(x.strip() for x in rest[:nxt]):
                continue
        kept.append(line)
    return "\n".join(kept).strip() + "\n" if any(x.strip() for x in kept) else ""


def add_launcher(wheel: Path, launcher: Path) -> None:
    """Rewrite ``wheel`` with ``launcher`` as its ``schedlab`` script
    (``<name>-<version>.data/scripts/schedlab``, executable) in place of the
    console script, and its RECORD to match."""
    with zipfile.ZipFile(wheel) as z:
        infos = z.infolist()
        files = {i.filename: z.read(i) for i in infos}
    dist_info = next(n.split("/")[0] for n in files if n.split("/")[0].endswith(".dist-info"))
    data_dir = dist_info[: -len(".dist-info")] + ".data"
    record_name = f"{dist_info}/RECORD"
    entry_name = f"{dist_info}/entry_points.txt"
    if entry_name in files:
        text = _without_console_script(files[entry_name].decode())
        if text:
            files[entry_name] = text.encode()
        else:
            del files[entry_name]
    script = f"{data_dir}/scripts/{LAUNCHER}"
    files[script] = launcher.read_bytes()
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as out:
        # the package, then the .data directory, then .dist-info with RECORD last,
        # as wheel writers order them
        names = [i.filename for i in infos if i.filename in files and i.filename != script]
        order = [n for n in names if not n.startswith(dist_info + "/")] + [script]
        order += [n for n in names if n.startswith(dist_info + "/") and n != record_name]
        records = []
        for name in order:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            mode = 0o755 if name == script else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, files[name])
            records.append(_record_line(name, files[name]))
        records.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        out.writestr(info, "\n".join(records) + "\n")
    os.replace(tmp, wheel)


def main(argv: list[str] | None = None) -> int:
    """``schedlab_build.py WHEEL... [--target TRIPLE] [--zig GLIBC]``: add the launcher
    to wheels built by ``maturin build``."""
    import argparse

    p = argparse.ArgumentParser(description="put the native schedlab launcher into wheels built by maturin")
    p.add_argument("wheels", nargs="+", type=Path)
    p.add_argument("--target", help="the wheels' target triple (default: this machine's)")
    p.add_argument("--zig", metavar="GLIBC", help="link with zig against this glibc (e.g. 2.17 for manylinux2014)")
    args = p.parse_args(argv)
    exe = build_launcher(args.target, args.zig)
    for w in args.wheels:
        add_launcher(w, exe)
        print(f"{w}: launcher added ({exe})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

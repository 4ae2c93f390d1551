#!/usr/bin/env bash
# Build the wheels this machine can build, for the widest reach: one abi3 wheel
# (CPython >= 3.10) for x86_64 Linux with glibc >= 2.17 (manylinux2014: RHEL 7/8,
# Ubuntu 18.04+, SLES 15), linked by zig so that no old-glibc build root is needed;
# plus the sdist. Other platforms (aarch64 Linux, macOS) are built by
# .github/workflows/release.yml on their own runners.
#   tools/build-wheels.sh [OUT_DIR]      (default dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
python -m pip install -q "maturin>=1.16,<2" ziglang
python -m maturin build --release --locked --zig --compatibility manylinux2014 \
  --target x86_64-unknown-linux-gnu -o "$out"
# the native launcher as the wheel's `schedlab`, linked against glibc 2.17 too (docs/cli.md §4)
python tools/build_backend/schedlab_build.py "$out"/schedlab-*-manylinux*x86_64.whl \
  --target x86_64-unknown-linux-gnu --zig 2.17
python -m maturin sdist -o "$out"
ls -l "$out"

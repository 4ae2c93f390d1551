#!/bin/bash
# Extract the pinned MMTests eras (2018, 2024, 2025, head; and 2020, for the real tree) from a git dir of github.com/gormanm/mmtests.
# Usage: MMTESTS_GIT=<git dir> setup_trees.sh [DEST (default /work/oracles/mmtests)]
set -e
GITDIR=${MMTESTS_GIT:?set MMTESTS_GIT to a git dir of gormanm/mmtests}
DEST=${1:-/work/oracles/mmtests}
extract() { rm -rf "$DEST/$1"; mkdir -p "$DEST/$1"; git --git-dir="$GITDIR" archive "$2" | tar -x -C "$DEST/$1"; echo "$1 <- $2"; }
extract head 638401e07e70d67fa5a1e6295e1315ae0af831b2   # 2026-06-24: ExtractShellpack + parse-results
extract 2025 3ded02f779401b44061a5ac826ddb5ee3c757b0c   # 2026-01-01: CI-overlap markers, Extract*.pm
extract 2024 93946ac69edff73d707c6083668868204ee7786a   # 2024-08-13: t-test markers
extract 2020 025ef72e8a3804982b1f4bdbe089e2d7e3a21b22   # 2020-05-13: the real tree's MMTests (real.sh)
extract 2018 7237c819fab24c9b7f6f1b01716728c16cbd088f   # 2018-12-21: era E0 (<benchmark>-<name>/noprofile)

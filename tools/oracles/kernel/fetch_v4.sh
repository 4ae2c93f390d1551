#!/bin/bash
# Fetch the kernel files of the v4.18-v5.1 governor oracle (sources_v4.txt) and check
# each one's git blob id.  The files are not kept in this repository.
#
#   fetch_v4.sh DEST [GITDIRS]
#
# DEST/<tag>/<kernel-path> receives each file (e.g. DEST/v4.18/drivers/cpuidle/governors/menu.c).
# Without GITDIRS the files are downloaded from raw.githubusercontent.com at the pinned
# commits.  With GITDIRS, a directory holding clones of the repositories (any of
# GITDIRS/<owner>+<name>[/repo], GITDIRS/<owner>/<name>, GITDIRS/<name>; bare or not),
# they are read with `git show COMMIT:PATH` instead.
# A file whose blob id differs from sources_v4.txt is deleted and the script fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 DEST [GITDIRS]" >&2; exit 2; }
DEST=$1
GITDIRS=${2:-}

gitdir() {  # owner/name -> a git directory under GITDIRS, or nothing
  local o=${1%/*} n=${1#*/} d
  for d in "$GITDIRS/$o+$n/repo" "$GITDIRS/$o+$n" "$GITDIRS/$o/$n" "$GITDIRS/$n"; do
    if [ -d "$d" ] && git -C "$d" rev-parse --git-dir >/dev/null 2>&1; then echo "$d"; return; fi
  done
}

fail=0
while read -r tag repo commit prefix kpath blob; do
  case $tag in ''|'#'*) continue ;; esac
  [ "$prefix" = - ] && prefix=
  out=$DEST/$tag/$kpath
  mkdir -p "$(dirname "$out")"
  if [ -n "$GITDIRS" ]; then
    g=$(gitdir "$repo")
    [ -n "$g" ] || { echo "$repo: no clone under $GITDIRS" >&2; exit 1; }
    git -C "$g" show "$commit:$prefix$kpath" > "$out"
  else
    url="https://raw.githubusercontent.com/$repo/$commit/$prefix$kpath"
    curl -fsSL -o "$out" "$url" || { echo "$url: download failed" >&2; rm -f "$out"; exit 1; }
  fi
  got=$(git hash-object "$out")
  if [ "$got" != "$blob" ]; then
    echo "$out: git blob $got, expected $blob ($repo@$commit:$prefix$kpath)" >&2
    rm -f "$out"
    fail=1
  else
    echo "$tag/$kpath  blob $blob  ok"
  fi
done < "$HERE/sources_v4.txt"
exit $fail

#!/bin/bash
# Copy the pattern tables of lkp-tests' etc/ that schedlab's log parsers read
# (src/lkp/stats/etc/, included in the library at build time).
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/copy_etc.sh   (lkp-tests bbbc29c49)
#   oops-pattern, oops-pattern-ignore, linux-device-names, kmsg-denylist.raw: unchanged
#   ignore-stderr: the files of etc/ignore-stderr/ one after the other, in name order
#     (programs/stderr/parse reads every line of each as one pattern; a file without a
#     final newline gets one, so that its last line stays a line of its own)
set -eu
: "${LKP_SRC:?set LKP_SRC to an lkp-tests checkout}"
dst=$(dirname "$0")/../../../src/lkp/stats/etc
mkdir -p "$dst"
for f in oops-pattern oops-pattern-ignore linux-device-names kmsg-denylist.raw; do
	cp "$LKP_SRC/etc/$f" "$dst/$f"
done
: >"$dst/ignore-stderr"
for f in $(cd "$LKP_SRC/etc/ignore-stderr" && LC_ALL=C ls); do
	cat "$LKP_SRC/etc/ignore-stderr/$f" >>"$dst/ignore-stderr"
	[ -z "$(tail -c1 "$LKP_SRC/etc/ignore-stderr/$f")" ] || echo >>"$dst/ignore-stderr"
done
git -C "$LKP_SRC" log -1 --format='copied from lkp-tests %h' >"$dst/README"

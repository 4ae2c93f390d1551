#!/bin/sh
# The JUnit schema the Jenkins xunit plugin validates reports against
# (src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd of
# github.com/jenkinsci/xunit-plugin, MIT licence, header kept), copied to
# tests/data/batch/junit-10.xsd; the batch tests validate `--format junit` with it.
set -eu
COMMIT=8c515de2804b3fd591a3b0f1ff8908a1b1a41887
OUT="$(dirname "$0")/../../../tests/data/batch/junit-10.xsd"
curl -fsSL "https://raw.githubusercontent.com/jenkinsci/xunit-plugin/$COMMIT/src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd" -o "$OUT"

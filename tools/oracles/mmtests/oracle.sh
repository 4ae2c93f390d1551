#!/bin/bash
# Run MMTests' own compare-mmtests.pl (or another of its bin/ tools) of one pinned era.
#
# Usage: oracle.sh <head|2025|2024|2020|2018|DIR> -d LOGDIR -b BENCH -n NAME1,NAME2,... [compare-mmtests.pl options]
#   head = mmtests 638401e0 (2026-06-24), 2025 = 3ded02f7 (2026-01-01), 2024 = 93946ac6 (2024-08-13),
#   2018 = 7237c819 (2018-12-21: era E0, logs under <benchmark>-<name>/noprofile; its dbench4 runs
#   Rscript lib/R/subselection-confidence-interval.R, whose sample() rseed/ seeds),
#   2020 = 025ef72e (2020-05-13: what tests/data/mmtests/real/ was written with; its Stat.pm
#   imports List::BinarySearch, stood in by perl2020/).
# The trees are extracted by setup_trees.sh under $MMTESTS_TREES (default /work/oracles/mmtests).
# MMTESTS_TOOL=extract-mmtests.pl selects another tool of bin/.
# Needs perl 5.36 + libyaml-pp-perl libfile-which-perl libfile-slurp-perl libcpanel-json-xs-perl
# liblist-moreutils-perl (2024/2025 ExtractAim9),
# r-base-core (r-cran-rjson for 2018 dbench4), gawk, python3-numpy (the subselection rows of 2025's dbench4/tbench4).
set -e
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TREES=${MMTESTS_TREES:-/work/oracles/mmtests}
case "$1" in
	head|2025|2024|2018) TREE=$TREES/$1 ;;
	2020) TREE=$TREES/$1; export PERL5LIB=$HERE/perl2020${PERL5LIB:+:$PERL5LIB} ;;
	*) TREE=$1 ;;
esac
shift
[ -x "$TREE/bin/compare-mmtests.pl" ] || { echo "no mmtests tree at $TREE (run setup_trees.sh)" >&2; exit 2; }
export PATH=/usr/bin:/bin:$PATH
# numpy and R draw random subselections: seed them so that reruns print the same rows
export PYTHONPATH=$HERE/pyseed${PYTHONPATH:+:$PYTHONPATH}
export R_PROFILE_USER=$HERE/rseed/Rprofile
export MMTESTS_ORACLE_SEED=${MMTESTS_ORACLE_SEED:-12345}
unset CACHE_MMTESTS
export PERL_HASH_SEED=${PERL_HASH_SEED:-0} PERL_PERTURB_KEYS=${PERL_PERTURB_KEYS:-0}
exec perl "$TREE/bin/${MMTESTS_TOOL:-compare-mmtests.pl}" "$@"

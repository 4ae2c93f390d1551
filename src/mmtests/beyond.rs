//! Beyond compare-mmtests.pl (filled in below).

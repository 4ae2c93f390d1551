# A stand-in for CPAN's List::BinarySearch, which MMTests of 2019-04 .. 2024-03 imports
# (bin/lib/MMTests/Stat.pm: binsearch_range, for the "samples" statistic with a range)
# and Debian no longer packages. Only the import is needed by the tables the oracle
# prints; a table that would call it dies here instead of printing a guessed number.
package List::BinarySearch;
use strict;
use Exporter 'import';
our @EXPORT_OK = qw(binsearch_range);
sub binsearch_range(&$$\@) { die "List::BinarySearch::binsearch_range is not available to the oracle\n"; }
1;

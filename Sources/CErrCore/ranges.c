/*
 * ranges.c — lookups in a finished table's module ranges (sorted by first
 * code and disjoint), for the checks of validate.c and for building and
 * proving the exact-match front in front.c. Binary searches with branches:
 * not the hot path, which classify.c searches without them.
 */
#include "internal.h"

size_t errcore__ranges_starting_by(const errcore_table *t, int64_t code) {
    size_t lo = 0;
    size_t hi = t->range_count;
    while (lo < hi) { /* first range with first > code */
        size_t mid = lo + (hi - lo) / 2;
        if (t->ranges[mid].first <= code) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

size_t errcore__range_containing(const errcore_table *t, int64_t code) {
    size_t lo = errcore__ranges_starting_by(t, code);
    if (lo == 0 || t->ranges[lo - 1].last < code) {
        return ERRCORE_NO_INDEX;
    }
    return lo - 1;
}

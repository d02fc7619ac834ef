/*
 * search_baselines.c — the ways to classify a code that SwiftErr's
 * branch-free search is measured against. Each gives exactly the
 * errcore_class that errcore_classify() gives, so outputs compare one to one.
 */
#include <stdlib.h>

#include "CBaselines.h"

/* The class of entry i of the table for `code` (which equals codes[i]). */
static inline errcore_class cbl__entry_class(const errcore_table *t, int64_t code, size_t i) {
    const errcore_entry *e = &t->entries[i];
    uint64_t tier = code == t->success_code ? ERRCORE_TIER_SUCCESS
                    : e->module != ERRCORE_MODULE_NONE ? ERRCORE_TIER_MODULE
                                                       : ERRCORE_TIER_BASE;
    return (uint64_t)i | ((uint64_t)e->module << 32) | ((uint64_t)e->flags << 48) | (tier << 56);
}

/* The class of a code with no entry: success, inside range r (may be NULL), or unknown. */
static inline errcore_class cbl__miss_class(const errcore_table *t, int64_t code,
                                            const errcore_range *r) {
    if (code == t->success_code) {
        return (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)ERRCORE_TIER_SUCCESS << 56);
    }
    if (r) {
        return (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)r->module << 32) |
               ((uint64_t)ERRCORE_TIER_MODULE << 56);
    }
    return ERRCORE_CLASS_UNKNOWN;
}

void cbl_single_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                         size_t n) {
    for (size_t k = 0; k < n; k++) {
        out[k] = errcore_classify(table, codes[k]);
    }
}

/* ---- libc bsearch ---- */

static int cbl__compare_code(const void *key, const void *element) {
    int64_t a = *(const int64_t *)key;
    int64_t b = *(const int64_t *)element;
    return (a > b) - (a < b);
}

static int cbl__compare_range(const void *key, const void *element) {
    int64_t a = *(const int64_t *)key;
    const errcore_range *r = element;
    return a < r->first ? -1 : a > r->last ? 1 : 0;
}

void cbl_bsearch_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                          size_t n) {
    for (size_t k = 0; k < n; k++) {
        int64_t code = codes[k];
        const int64_t *hit =
            bsearch(&code, table->codes, table->entry_count, sizeof(int64_t), cbl__compare_code);
        if (hit) {
            out[k] = cbl__entry_class(table, code, (size_t)(hit - table->codes));
        } else {
            const errcore_range *r = bsearch(&code, table->ranges, table->range_count,
                                             sizeof(errcore_range), cbl__compare_range);
            out[k] = cbl__miss_class(table, code, r);
        }
    }
}

/* ---- plain binary search, early exit ---- */

void cbl_branchy_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                          size_t n) {
    const int64_t *keys = table->codes;
    for (size_t k = 0; k < n; k++) {
        int64_t code = codes[k];
        size_t lo = 0, hi = table->entry_count;
        size_t found = SIZE_MAX;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] == code) {
                found = mid;
                break;
            }
            if (keys[mid] < code) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (found != SIZE_MAX) {
            out[k] = cbl__entry_class(table, code, found);
            continue;
        }
        const errcore_range *r = NULL;
        lo = 0;
        hi = table->range_count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const errcore_range *m = &table->ranges[mid];
            if (code < m->first) {
                hi = mid;
            } else if (code > m->last) {
                lo = mid + 1;
            } else {
                r = m;
                break;
            }
        }
        out[k] = cbl__miss_class(table, code, r);
    }
}

/* ---- linear scan, early exit ---- */

void cbl_linear_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                         size_t n) {
    for (size_t k = 0; k < n; k++) {
        int64_t code = codes[k];
        size_t i = 0;
        while (i < table->entry_count && table->codes[i] != code) {
            i++;
        }
        if (i < table->entry_count) {
            out[k] = cbl__entry_class(table, code, i);
            continue;
        }
        const errcore_range *r = NULL;
        for (size_t j = 0; j < table->range_count; j++) {
            if (table->ranges[j].first <= code && code <= table->ranges[j].last) {
                r = &table->ranges[j];
                break;
            }
        }
        out[k] = cbl__miss_class(table, code, r);
    }
}

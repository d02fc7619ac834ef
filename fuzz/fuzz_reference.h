/*
 * fuzz_reference.h — the slow, obviously-correct model the fuzz targets
 * compare CErrCore against: linear-scan classification, and the
 * "first problem" stage of a table or catalog definition computed by
 * brute force over all pairs.
 *
 * Validation stages, in the order errcore_table.h documents its checks
 * (a rejected input must be reported at its earliest stage):
 *   0 NULL argument / count overflow
 *   1 strings: pool not NUL-terminated, bad offset, empty name, reserved field set
 *   2 each range: undeclared module (0 or > module_count), first > last
 *   3 range order: not ascending by first, or two ranges overlap
 *   4 an entry names an undeclared module
 *   5 entry codes: not strictly ascending / a duplicate
 *   6 the success code lies in a range
 *   7 each entry: success code with a module, module code outside its
 *     module's ranges, base code inside a range
 *   8 (unused)
 *   9 the classification index: NULL arrays with a count, first key not
 *     INT64_MIN, keys not ascending, a change point missing, a wrong slot
 *  10 no problem
 */
#ifndef FUZZ_REFERENCE_H
#define FUZZ_REFERENCE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "CErrCore.h"

#define FZ_CHECK(cond, ...)                                                        \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__,       \
                    __LINE__, #cond);                                              \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            abort();                                                               \
        }                                                                          \
    } while (0)

enum { FZ_STAGE_INDEX = 9, FZ_STAGE_NONE = 10 };

/* The stage a status (with its subject) belongs to; -1 for a status no check produces. */
static inline int fz_stage_of(errcore_status s, errcore_subject subject) {
    switch (s) {
    case ERRCORE_OK: return FZ_STAGE_NONE;
    case ERRCORE_E_NULL_ARGUMENT: return subject == ERRCORE_SUBJECT_INDEX ? FZ_STAGE_INDEX : 0;
    case ERRCORE_E_COUNT_OVERFLOW: return 0;
    case ERRCORE_E_BAD_INDEX: return FZ_STAGE_INDEX;
    case ERRCORE_E_BAD_STRING:
    case ERRCORE_E_EMPTY_NAME:
    case ERRCORE_E_RESERVED_NONZERO: return 1;
    case ERRCORE_E_EMPTY_RANGE: return 2;
    case ERRCORE_E_UNDECLARED_MODULE: return subject == ERRCORE_SUBJECT_RANGE ? 2 : 4;
    case ERRCORE_E_RANGE_OVERLAP: return 3;
    case ERRCORE_E_UNSORTED: return subject == ERRCORE_SUBJECT_RANGE ? 3 : 5;
    case ERRCORE_E_DUPLICATE_CODE: return 5;
    case ERRCORE_E_SUCCESS_IN_MODULE: return subject == ERRCORE_SUBJECT_RANGE ? 6 : 7;
    case ERRCORE_E_CODE_OUTSIDE_MODULE:
    case ERRCORE_E_BASE_IN_MODULE_RANGE: return 7;
    case ERRCORE_E_BUFFER_TOO_SMALL: return -1;
    }
    return -1;
}

static inline bool fz_in_range(const errcore_range *r, int64_t code) {
    return r->first <= code && code <= r->last;
}

static inline bool fz_overlap(const errcore_range *a, const errcore_range *b) {
    return a->first <= b->last && b->first <= a->last;
}

/* Module owning `code` by linear scan over (valid, disjoint) ranges; 0 when none. */
static inline uint16_t fz_owner(const errcore_range *ranges, size_t r, int64_t code) {
    for (size_t i = 0; i < r; i++) {
        if (fz_in_range(&ranges[i], code)) {
            return ranges[i].module;
        }
    }
    return 0;
}

/* Whether module `module` owns a range containing `code`. */
static inline bool fz_module_owns(const errcore_range *ranges, size_t r, uint16_t module,
                                  int64_t code) {
    for (size_t i = 0; i < r; i++) {
        if (ranges[i].module == module && fz_in_range(&ranges[i], code)) {
            return true;
        }
    }
    return false;
}

/*
 * Stages 2 ... 7 by brute force. `codes_sorted_path` is true for a finished
 * table (stage 3 and 5 include "not ascending"); false for build input (order
 * is free, only overlaps and duplicates count).
 */
static inline int fz_reference_stage(const int64_t *codes, const uint16_t *entry_module, size_t n,
                                     size_t m, const errcore_range *ranges, size_t r,
                                     int64_t success, bool finished_table) {
    for (size_t i = 0; i < r; i++) {
        if (ranges[i].module == 0 || ranges[i].module > m || ranges[i].first > ranges[i].last) {
            return 2;
        }
    }
    for (size_t i = 0; i < r; i++) {
        if (finished_table && i > 0 && ranges[i].first < ranges[i - 1].first) {
            return 3;
        }
        for (size_t j = i + 1; j < r; j++) {
            if (fz_overlap(&ranges[i], &ranges[j])) {
                return 3;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (entry_module[i] > m) {
            return 4;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (finished_table && i > 0 && codes[i] < codes[i - 1]) {
            return 5;
        }
        for (size_t j = i + 1; j < n; j++) {
            if (codes[i] == codes[j]) {
                return 5;
            }
        }
    }
    for (size_t i = 0; i < r; i++) {
        if (fz_in_range(&ranges[i], success)) {
            return 6;
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint16_t owner = fz_owner(ranges, r, codes[i]);
        if ((codes[i] == success && entry_module[i] != 0) || owner != entry_module[i]) {
            return 7;
        }
    }
    return FZ_STAGE_NONE;
}

/*
 * Checks the diagnostic of a rejection at stages 2 ... 7 against the arrays
 * it names (indices are positions in these arrays). `later_is_index`: for
 * build input a duplicate names the later input index as `index`.
 */
static inline void fz_check_diag_stages(const errcore_diag *d, const int64_t *codes,
                                        const uint16_t *entry_module, size_t n, size_t m,
                                        const errcore_range *ranges, size_t r, int64_t success,
                                        bool build_input) {
    switch (d->status) {
    case ERRCORE_E_UNDECLARED_MODULE:
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            FZ_CHECK(d->index < r, "range index %zu of %zu", d->index, r);
            FZ_CHECK(ranges[d->index].module == 0 || ranges[d->index].module > m, "range module %u",
                     (unsigned)ranges[d->index].module);
            FZ_CHECK(d->module == ranges[d->index].module, "diag module %u", (unsigned)d->module);
        } else {
            FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY, "subject %d", (int)d->subject);
            FZ_CHECK(d->index < n, "entry index %zu of %zu", d->index, n);
            FZ_CHECK(entry_module[d->index] > m, "entry module %u", (unsigned)entry_module[d->index]);
            FZ_CHECK(d->module == entry_module[d->index], "diag module %u", (unsigned)d->module);
            FZ_CHECK(d->code == codes[d->index], "diag code");
        }
        break;
    case ERRCORE_E_EMPTY_RANGE:
        FZ_CHECK(d->subject == ERRCORE_SUBJECT_RANGE && d->index < r, "index %zu", d->index);
        FZ_CHECK(ranges[d->index].first > ranges[d->index].last, "range %zu not empty", d->index);
        break;
    case ERRCORE_E_RANGE_OVERLAP:
        FZ_CHECK(d->subject == ERRCORE_SUBJECT_RANGE && d->index < r && d->other_index < r &&
                     d->index != d->other_index,
                 "indices %zu %zu of %zu", d->index, d->other_index, r);
        FZ_CHECK(fz_overlap(&ranges[d->index], &ranges[d->other_index]), "ranges %zu and %zu disjoint",
                 d->index, d->other_index);
        break;
    case ERRCORE_E_UNSORTED:
        FZ_CHECK(!build_input, "build reported unsorted input");
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            FZ_CHECK(d->index < r && d->other_index + 1 == d->index, "indices %zu %zu", d->index,
                     d->other_index);
            FZ_CHECK(ranges[d->index].first < ranges[d->other_index].first, "ranges in order");
        } else {
            FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY && d->index < n &&
                         d->other_index + 1 == d->index,
                     "indices %zu %zu", d->index, d->other_index);
            FZ_CHECK(codes[d->index] < codes[d->other_index], "codes in order");
        }
        break;
    case ERRCORE_E_DUPLICATE_CODE:
        FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY && d->index < n && d->other_index < n &&
                     d->index != d->other_index,
                 "indices %zu %zu of %zu", d->index, d->other_index, n);
        FZ_CHECK(codes[d->index] == codes[d->other_index] && d->code == codes[d->index] &&
                     d->other_code == codes[d->other_index],
                 "codes differ");
        FZ_CHECK(d->index > d->other_index, "duplicate names the earlier index %zu (other %zu)",
                 d->index, d->other_index);
        break;
    case ERRCORE_E_SUCCESS_IN_MODULE:
        FZ_CHECK(d->code == success, "diag code is not the success code");
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            FZ_CHECK(d->index < r && fz_in_range(&ranges[d->index], success), "range %zu", d->index);
            FZ_CHECK(d->module == ranges[d->index].module, "module");
        } else {
            FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY && d->index < n, "index %zu", d->index);
            FZ_CHECK(codes[d->index] == success && entry_module[d->index] != 0, "entry %zu", d->index);
            FZ_CHECK(d->module == entry_module[d->index], "module");
        }
        break;
    case ERRCORE_E_CODE_OUTSIDE_MODULE:
        FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY && d->index < n, "index %zu", d->index);
        FZ_CHECK(entry_module[d->index] != 0 &&
                     !fz_module_owns(ranges, r, entry_module[d->index], codes[d->index]),
                 "entry %zu is in its module", d->index);
        FZ_CHECK(d->code == codes[d->index] && d->module == entry_module[d->index], "code/module");
        FZ_CHECK(d->other_code == fz_owner(ranges, r, codes[d->index]), "owner %lld",
                 (long long)d->other_code);
        break;
    case ERRCORE_E_BASE_IN_MODULE_RANGE:
        FZ_CHECK(d->subject == ERRCORE_SUBJECT_ENTRY && d->index < n, "index %zu", d->index);
        FZ_CHECK(entry_module[d->index] == 0, "entry %zu has a module", d->index);
        FZ_CHECK(fz_owner(ranges, r, codes[d->index]) != 0 &&
                     d->other_code == fz_owner(ranges, r, codes[d->index]),
                 "owner %lld", (long long)d->other_code);
        break;
    default:
        break;
    }
}

/* The class errcore_classify() must return, by linear scan (table must be valid). */
static inline errcore_class fz_reference_class(const errcore_table *t, int64_t code) {
    uint64_t entry = ERRCORE_NO_ENTRY, module = 0, flags = 0, tier = ERRCORE_TIER_UNKNOWN;
    for (size_t i = 0; i < t->entry_count; i++) {
        if (t->codes[i] == code) {
            entry = i;
            module = t->entries[i].module;
            flags = t->entries[i].flags;
            tier = module ? ERRCORE_TIER_MODULE : ERRCORE_TIER_BASE;
        }
    }
    if (entry == ERRCORE_NO_ENTRY) {
        module = fz_owner(t->ranges, t->range_count, code);
        tier = module ? ERRCORE_TIER_MODULE : ERRCORE_TIER_UNKNOWN;
    }
    if (code == t->success_code) {
        tier = ERRCORE_TIER_SUCCESS;
        module = 0;
    }
    return entry | (module << 32) | (flags << 48) | (tier << 56);
}

/* Whether the class of every code in [lo, hi] is `want` (classes change only at these points). */
static inline bool fz_constant_on(const errcore_table *t, int64_t lo, int64_t hi, errcore_class want) {
    if (fz_reference_class(t, lo) != want) {
        return false;
    }
    int64_t points[2];
    for (size_t i = 0; i < t->entry_count + t->range_count + 1; i++) {
        int64_t a, b;
        if (i < t->entry_count) {
            a = t->codes[i], b = t->codes[i];
        } else if (i < t->entry_count + t->range_count) {
            a = t->ranges[i - t->entry_count].first, b = t->ranges[i - t->entry_count].last;
        } else {
            a = t->success_code, b = t->success_code;
        }
        /* The class can change at a (entering) and at b + 1 (leaving). */
        points[0] = a;
        points[1] = b == INT64_MAX ? a : b + 1;
        for (int k = 0; k < 2; k++) {
            if (points[k] > lo && points[k] <= hi && fz_reference_class(t, points[k]) != want) {
                return false;
            }
        }
    }
    return true;
}

/*
 * Whether a (otherwise valid) table's classification index is right, by
 * brute force: keys start at INT64_MIN and ascend; every documented change
 * point (entry code, range first, range last + 1, success code) is a key;
 * each slot's `hit` is the class of its key and `gap` the class of every
 * code up to the next key.
 */
static inline bool fz_reference_index_ok(const errcore_table *t) {
    if (t->index_count == 0) {
        return true;
    }
    if (!t->index_keys || !t->index_slots || t->index_keys[0] != INT64_MIN) {
        return false;
    }
    /* The documented change points must all be keys, even where a neighbour's gap would do. */
    for (size_t i = 0; i < t->entry_count + 2 * t->range_count + 1; i++) {
        int64_t point;
        if (i < t->entry_count) {
            point = t->codes[i];
        } else if (i < t->entry_count + 2 * t->range_count) {
            const errcore_range *g = &t->ranges[(i - t->entry_count) / 2];
            if ((i - t->entry_count) % 2 == 0) {
                point = g->first;
            } else if (g->last == INT64_MAX) {
                continue;
            } else {
                point = g->last + 1;
            }
        } else {
            point = t->success_code;
        }
        bool found = false;
        for (size_t k = 0; k < t->index_count && !found; k++) {
            found = t->index_keys[k] == point;
        }
        if (!found) {
            return false;
        }
    }
    for (size_t i = 0; i < t->index_count; i++) {
        int64_t key = t->index_keys[i];
        if (i + 1 < t->index_count && t->index_keys[i + 1] <= key) {
            return false;
        }
        if (t->index_slots[i].hit != fz_reference_class(t, key)) {
            return false;
        }
        if (key == INT64_MAX) {
            continue;
        }
        int64_t hi = i + 1 < t->index_count ? t->index_keys[i + 1] - 1 : INT64_MAX;
        if (key + 1 <= hi && !fz_constant_on(t, key + 1, hi, t->index_slots[i].gap)) {
            return false;
        }
    }
    return true;
}

#endif /* FUZZ_REFERENCE_H */

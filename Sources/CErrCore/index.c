/*
 * index.c — the classification index: computing it (errcore_index_build)
 * and proving a given one right (errcore__check_index, for validation).
 *
 * The answer for a code can only change at an entry code, at a range's
 * first code, just after a range's last code, or at the success code. The
 * index lists those points (plus INT64_MIN, so every code has a
 * predecessor key); between two keys the class is constant, so one slot
 * per key holds the class of the key itself and of the codes after it.
 */
#include "internal.h"

/* Every change point in ascending order, each once, via a merge of four sorted sources. */
typedef struct errcore__points {
    const errcore_table *t;
    size_t code, first, end; /* cursors: entry codes, range firsts, range last + 1 */
    bool success_done;
    bool started;
    int64_t last;
} errcore__points;

/* The next change point into *out; false when there are no more. */
static bool errcore__points_next(errcore__points *p, int64_t *out) {
    const errcore_table *t = p->t;
    for (;;) {
        bool have = false;
        int64_t best = 0;
        int source = -1;
        if (!p->started) {
            have = true;
            best = INT64_MIN;
            source = 0;
        }
        if (p->code < t->entry_count && (!have || t->codes[p->code] < best)) {
            have = true, best = t->codes[p->code], source = 1;
        }
        if (p->first < t->range_count && (!have || t->ranges[p->first].first < best)) {
            have = true, best = t->ranges[p->first].first, source = 2;
        }
        /* A range ending at INT64_MAX has no "after"; skip it. */
        while (p->end < t->range_count && t->ranges[p->end].last == INT64_MAX) {
            p->end++;
        }
        if (p->end < t->range_count && (!have || t->ranges[p->end].last + 1 < best)) {
            have = true, best = t->ranges[p->end].last + 1, source = 3;
        }
        if (!p->success_done && (!have || t->success_code < best)) {
            have = true, best = t->success_code, source = 4;
        }
        if (!have) {
            return false;
        }
        switch (source) {
        case 0: p->started = true; break;
        case 1: p->code++; break;
        case 2: p->first++; break;
        case 3: p->end++; break;
        default: p->success_done = true; break;
        }
        if (p->started && source != 0 && best == p->last) {
            continue; /* the same point from another source */
        }
        p->started = true;
        p->last = best;
        *out = best;
        return true;
    }
}

static errcore__points errcore__points_make(const errcore_table *t) {
    errcore__points p;
    p.t = t;
    p.code = p.first = p.end = 0;
    p.success_done = false;
    p.started = false;
    p.last = INT64_MIN;
    return p;
}

/* The slot for key k: its own class and the class just after it. */
static errcore_index_slot errcore__slot_for(const errcore_table *t, int64_t k) {
    errcore_index_slot slot;
    slot.hit = errcore__classify_searches(t, k);
    slot.gap = k == INT64_MAX ? slot.hit : errcore__classify_searches(t, k + 1);
    return slot;
}

errcore_status errcore_index_build(const errcore_table *table, int64_t *keys, errcore_index_slot *slots,
                                   size_t capacity, size_t *out_count) {
    if (!table || !keys || !slots || !out_count) {
        return ERRCORE_E_NULL_ARGUMENT;
    }
    errcore__points p = errcore__points_make(table);
    size_t n = 0;
    int64_t k;
    while (errcore__points_next(&p, &k)) {
        if (n == capacity) {
            return ERRCORE_E_BUFFER_TOO_SMALL;
        }
        keys[n] = k;
        slots[n] = errcore__slot_for(table, k);
        n++;
    }
    *out_count = n;
    return ERRCORE_OK;
}

/* Index of key k in the table's index, or ERRCORE_NO_INDEX. */
static size_t errcore__index_find(const errcore_table *t, int64_t k) {
    size_t at = errcore__find_sorted(t->index_keys, t->index_count, k);
    return at < t->index_count ? at : ERRCORE_NO_INDEX;
}

static errcore_status errcore__bad_index(errcore_diag *diag, size_t at, int64_t code) {
    return errcore__fail(diag, ERRCORE_E_BAD_INDEX, ERRCORE_SUBJECT_INDEX, at, code);
}

errcore_status errcore__check_index(const errcore_table *t, errcore_diag *diag) {
    if (t->index_count == 0) {
        return ERRCORE_OK;
    }
    if (!t->index_keys || !t->index_slots) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_INDEX, ERRCORE_NO_INDEX, 0);
    }
    if (t->index_keys[0] != INT64_MIN) {
        return errcore__bad_index(diag, 0, t->index_keys[0]);
    }
    for (size_t i = 1; i < t->index_count; i++) {
        if (t->index_keys[i] <= t->index_keys[i - 1]) {
            return errcore__bad_index(diag, i, t->index_keys[i]);
        }
    }
    /* Every change point must be a key; then the class is constant between keys. */
    errcore__points p = errcore__points_make(t);
    int64_t k;
    while (errcore__points_next(&p, &k)) {
        if (errcore__index_find(t, k) == ERRCORE_NO_INDEX) {
            return errcore__bad_index(diag, ERRCORE_NO_INDEX, k);
        }
    }
    for (size_t i = 0; i < t->index_count; i++) {
        errcore_index_slot want = errcore__slot_for(t, t->index_keys[i]);
        const errcore_index_slot *got = &t->index_slots[i];
        /* A gap between two adjacent keys holds no code, so its class is never read. */
        bool gap_used =
            t->index_keys[i] != INT64_MAX && (i + 1 == t->index_count || t->index_keys[i + 1] != t->index_keys[i] + 1);
        if (got->hit != want.hit || (gap_used && got->gap != want.gap)) {
            return errcore__bad_index(diag, i, t->index_keys[i]);
        }
    }
    return ERRCORE_OK;
}

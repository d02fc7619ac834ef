/*
 * build.c — builds a sorted, validated table from unsorted input into the
 * caller's storage. No allocation, no recursion: heap sort on a
 * permutation, so that diagnostics can name the caller's own indices.
 *
 * Storage layout (each part 8-byte aligned):
 *   int64_t codes[n] | errcore_range ranges[r] | errcore_entry entries[n] |
 *   errcore_module modules[m] | uint32_t entry_origin[n] | uint32_t range_origin[r] |
 *   uint32_t order[max(n, r)] (sort scratch) | int64_t index_keys[c] |
 *   errcore_index_slot index_slots[c] | char pool[...]
 * where c = ERRCORE_INDEX_CAPACITY(n, r).
 */
#include <string.h>

#include "internal.h"

/* a + b into *out; false on overflow. */
static bool errcore__add(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b) {
        return false;
    }
    *out = a + b;
    return true;
}

/* count * size rounded up to 8, added to *total; false on overflow. */
static bool errcore__add_array(size_t *total, size_t count, size_t size) {
    if (size != 0 && count > (SIZE_MAX - 7u) / size) {
        return false;
    }
    size_t bytes = (count * size + 7u) & ~(size_t)7u;
    return errcore__add(*total, bytes, total);
}

typedef struct errcore__layout {
    size_t codes, ranges, entries, modules, entry_origin, range_origin, order, index_keys,
        index_slots, index_capacity, pool;
    size_t pool_size;
    size_t total;
} errcore__layout;

/* Bytes a string takes in the pool (NULL takes none: it maps to a shared string). */
static bool errcore__pool_add(size_t *pool, const char *text) {
    return !text || errcore__add(*pool, strlen(text) + 1u, pool);
}

static errcore_status errcore__layout_of(const errcore_catalog_def *def, errcore__layout *l,
                                         errcore_diag *diag) {
    if (!def) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    if (!def->entries && def->entry_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX, 0);
    }
    if (!def->modules && def->module_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX, 0);
    }
    if (!def->ranges && def->range_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX, 0);
    }
    if (def->entry_count > ERRCORE_MAX_COUNT) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX, 0);
    }
    if (def->module_count > ERRCORE_MAX_MODULES) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX, 0);
    }
    if (def->range_count > ERRCORE_MAX_COUNT) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX, 0);
    }
    size_t pool = 1; /* offset 0 holds the empty string */
    bool ok = true;
    for (size_t i = 0; i < def->module_count && ok; i++) {
        const errcore_module_def *m = &def->modules[i];
        if (!m->name) {
            return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, i, 0);
        }
        ok = errcore__pool_add(&pool, m->name) && errcore__pool_add(&pool, m->title_en) &&
             errcore__pool_add(&pool, m->title_zh);
    }
    for (size_t i = 0; i < def->entry_count && ok; i++) {
        const errcore_entry_def *e = &def->entries[i];
        if (!e->name) {
            errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, i, 0);
            if (diag) {
                diag->code = e->code;
            }
            return ERRCORE_E_NULL_ARGUMENT;
        }
        ok = errcore__pool_add(&pool, e->name) && errcore__pool_add(&pool, e->message_en) &&
             errcore__pool_add(&pool, e->message_zh);
    }
    if (!ok || pool > ERRCORE_MAX_COUNT) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_STRINGS, ERRCORE_NO_INDEX, 0);
    }
    size_t n = def->entry_count, r = def->range_count, m = def->module_count;
    size_t sort_n = n > r ? n : r;
    size_t total = 0;
    ok = true;
    l->codes = total;
    ok = ok && errcore__add_array(&total, n, sizeof(int64_t));
    l->ranges = total;
    ok = ok && errcore__add_array(&total, r, sizeof(errcore_range));
    l->entries = total;
    ok = ok && errcore__add_array(&total, n, sizeof(errcore_entry));
    l->modules = total;
    ok = ok && errcore__add_array(&total, m, sizeof(errcore_module));
    l->entry_origin = total;
    ok = ok && errcore__add_array(&total, n, sizeof(uint32_t));
    l->range_origin = total;
    ok = ok && errcore__add_array(&total, r, sizeof(uint32_t));
    l->order = total;
    ok = ok && errcore__add_array(&total, sort_n, sizeof(uint32_t));
    /* ERRCORE_INDEX_CAPACITY(n, r), overflow-checked: n, r <= ERRCORE_MAX_COUNT fit a size_t sum
     * only on 64-bit, so add step by step. */
    size_t capacity = 0;
    ok = ok && errcore__add(n, 2u, &capacity) && errcore__add(capacity, r, &capacity) &&
         errcore__add(capacity, r, &capacity);
    l->index_capacity = capacity;
    l->index_keys = total;
    ok = ok && errcore__add_array(&total, capacity, sizeof(int64_t));
    l->index_slots = total;
    ok = ok && errcore__add_array(&total, capacity, sizeof(errcore_index_slot));
    l->pool = total;
    ok = ok && errcore__add_array(&total, pool, 1);
    if (!ok) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    l->pool_size = pool;
    l->total = total;
    return ERRCORE_OK;
}

errcore_status errcore_build_size(const errcore_catalog_def *def, size_t *out_size,
                                  errcore_diag *diag) {
    errcore__layout l;
    if (!out_size) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    errcore_status s = errcore__layout_of(def, &l, diag);
    if (s == ERRCORE_OK) {
        *out_size = l.total;
    }
    return s;
}

/* Appends text to the pool and returns its offset; NULL gives `fallback`. */
static uint32_t errcore__pool_put(char *pool, size_t *used, const char *text, uint32_t fallback) {
    if (!text) {
        return fallback;
    }
    size_t n = strlen(text) + 1u;
    uint32_t offset = (uint32_t)*used;
    memcpy(pool + *used, text, n);
    *used += n;
    return offset;
}

/* Sort key of position p: the code (or range first), ties broken by input index. */
typedef struct errcore__sort {
    const int64_t *codes;        /* entries: codes by input index, or NULL */
    const errcore_range *ranges; /* ranges: by input index, or NULL */
} errcore__sort;

static bool errcore__less(const errcore__sort *k, uint32_t a, uint32_t b) {
    int64_t ka = k->codes ? k->codes[a] : k->ranges[a].first;
    int64_t kb = k->codes ? k->codes[b] : k->ranges[b].first;
    return ka < kb || (ka == kb && a < b);
}

static void errcore__sift(const errcore__sort *k, uint32_t *order, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && errcore__less(k, order[child], order[child + 1])) {
            child++;
        }
        if (!errcore__less(k, order[root], order[child])) {
            return;
        }
        uint32_t tmp = order[root];
        order[root] = order[child];
        order[child] = tmp;
        root = child;
    }
}

/* Fills order[0 ... n-1] with input indices sorted by key (heap sort). */
static void errcore__sort_order(const errcore__sort *k, uint32_t *order, size_t n) {
    for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
    }
    for (size_t i = n / 2; i > 0; i--) {
        errcore__sift(k, order, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        uint32_t tmp = order[0];
        order[0] = order[end - 1];
        order[end - 1] = tmp;
        errcore__sift(k, order, 0, end - 1);
    }
}

errcore_status errcore_build(const errcore_catalog_def *def, void *storage, size_t storage_size,
                             errcore_table *out, errcore_diag *diag) {
    errcore__layout l;
    if (!out || !storage) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    errcore_status s = errcore__layout_of(def, &l, diag);
    if (s != ERRCORE_OK) {
        return s;
    }
    if (storage_size < l.total || ((uintptr_t)storage & 7u) != 0) {
        return errcore__fail(diag, ERRCORE_E_BUFFER_TOO_SMALL, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    unsigned char *base = storage;
    int64_t *codes = (int64_t *)(void *)(base + l.codes);
    errcore_range *ranges = (errcore_range *)(void *)(base + l.ranges);
    errcore_entry *entries = (errcore_entry *)(void *)(base + l.entries);
    errcore_module *modules = (errcore_module *)(void *)(base + l.modules);
    uint32_t *entry_origin = (uint32_t *)(void *)(base + l.entry_origin);
    uint32_t *range_origin = (uint32_t *)(void *)(base + l.range_origin);
    uint32_t *order = (uint32_t *)(void *)(base + l.order);
    char *pool = (char *)(base + l.pool);
    size_t used = 0;
    pool[used++] = '\0';

    for (size_t i = 0; i < def->module_count; i++) {
        const errcore_module_def *md = &def->modules[i];
        errcore_module *m = &modules[i];
        m->name = errcore__pool_put(pool, &used, md->name, 0);
        m->title_en = errcore__pool_put(pool, &used, md->title_en, m->name);
        m->title_zh = errcore__pool_put(pool, &used, md->title_zh, ERRCORE_NO_STRING);
        m->reserved = 0;
    }

    /* Entries: sort the input's codes, then lay entries out in that order. */
    size_t n = def->entry_count;
    for (size_t i = 0; i < n; i++) {
        codes[i] = def->entries[i].code; /* codes[] doubles as the key array while sorting */
    }
    errcore__sort entry_key = {codes, NULL};
    errcore__sort_order(&entry_key, order, n);
    for (size_t p = 0; p < n; p++) {
        const errcore_entry_def *ed = &def->entries[order[p]];
        errcore_entry *e = &entries[p];
        entry_origin[p] = order[p];
        e->module = ed->module;
        e->flags = ed->flags;
        e->reserved = 0;
        e->name = errcore__pool_put(pool, &used, ed->name, 0);
        e->message_en = errcore__pool_put(pool, &used, ed->message_en, 0);
        e->message_zh = errcore__pool_put(pool, &used, ed->message_zh, ERRCORE_NO_STRING);
    }
    for (size_t p = 0; p < n; p++) {
        codes[p] = def->entries[entry_origin[p]].code;
    }

    size_t r = def->range_count;
    errcore__sort range_key = {NULL, def->ranges};
    errcore__sort_order(&range_key, order, r);
    for (size_t p = 0; p < r; p++) {
        range_origin[p] = order[p];
        ranges[p].first = def->ranges[order[p]].first;
        ranges[p].last = def->ranges[order[p]].last;
        ranges[p].module = def->ranges[order[p]].module;
    }

    errcore_table t;
    t.codes = codes;
    t.entries = entries;
    t.entry_count = n;
    t.modules = modules;
    t.module_count = def->module_count;
    t.ranges = ranges;
    t.range_count = r;
    t.strings = pool;
    t.strings_size = used;
    t.success_code = def->success_code;
    t.index_keys = NULL;
    t.index_slots = NULL;
    t.index_count = 0;
    s = errcore__check(&t, entry_origin, range_origin, diag);
    if (s != ERRCORE_OK) {
        return s;
    }
    int64_t *index_keys = (int64_t *)(void *)(base + l.index_keys);
    errcore_index_slot *index_slots = (errcore_index_slot *)(void *)(base + l.index_slots);
    size_t index_count = 0;
    s = errcore_index_build(&t, index_keys, index_slots, l.index_capacity, &index_count);
    if (s != ERRCORE_OK) { /* cannot happen: the capacity is the documented bound */
        return errcore__fail(diag, s, ERRCORE_SUBJECT_INDEX, ERRCORE_NO_INDEX, 0);
    }
    t.index_keys = index_keys;
    t.index_slots = index_slots;
    t.index_count = index_count;
    *out = t;
    return ERRCORE_OK;
}

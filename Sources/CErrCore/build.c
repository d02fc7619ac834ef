/*
 * build.c — builds a sorted, validated table from unsorted input into the
 * caller's storage. No allocation, no recursion.
 *
 * The definition is checked first (check.c: the first problem
 * errcore_check_catalog would report), with the working arrays placed in
 * parts of the storage that are written only afterwards; the sorted
 * permutations the checks leave behind then order the table.
 *
 * Storage layout (each part 8-byte aligned):
 *   int64_t codes[n] | errcore_range ranges[r] | errcore_entry entries[n] |
 *   errcore_module modules[m] | int64_t index_keys[c] |
 *   errcore_index_slot index_slots[c] | errcore_front_slot front_slots[s] |
 *   uint32_t front_buckets[b] | errcore_front_gap front_gaps[g + 1] |
 *   uint32_t languages[L] | uint32_t messages[n * L] | uint32_t titles[m * L] |
 *   char pool[...]
 * where L is the number of languages (2 without a language list),
 * c = ERRCORE_INDEX_CAPACITY(n, r) and s, b, g are the front's
 * dimensions (errcore__front_dims: s about 1.25 to 2.5 n, for up to 361
 * entries room for a direct front of max(n * n / 8, 4 x that) slots, at
 * most 8,192; b about n / 2, g = ERRCORE__FRONT_GAP_CAPACITY(r); all 0 when
 * the table is too large for a front). While checking, the module work arrays live in modules[]
 * and the entry and range work arrays in index_keys[] and index_slots[];
 * while the front is built, its scratch lives there too (each part is made
 * at least as large as the work it holds).
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

/* count * size, at least `floor` bytes, rounded up to 8 and added to *total; false on overflow. */
static bool errcore__add_array(size_t *total, size_t count, size_t size, size_t floor) {
    if ((size != 0 && count > (SIZE_MAX - 7u) / size) || floor > SIZE_MAX - 7u) {
        return false;
    }
    size_t bytes = count * size > floor ? count * size : floor;
    return errcore__add(*total, (bytes + 7u) & ~(size_t)7u, total);
}

typedef struct errcore__layout {
    size_t codes, ranges, entries, modules, index_keys, index_slots, index_capacity, pool;
    size_t front_slots, front_buckets, front_gaps;
    size_t languages, messages, titles, language_count;
    errcore__front_dims_t front;
    size_t pool_size;
    size_t total;
} errcore__layout;

/* The storage layout of a definition whose stage 0 passed with a pool of `pool` bytes. */
static bool errcore__layout_with(const errcore_catalog_def *def, size_t pool, const errcore__front_dims_t *front,
                                 errcore__layout *l) {
    size_t n = def->entry_count, r = def->range_count, m = def->module_count;
    size_t work_entries, work_ranges, work_modules, work_index, front_scratch;
    bool ok = errcore__work_size(n, r, m, &work_entries, &work_ranges, &work_modules) &&
              errcore__add(work_entries, work_ranges, &work_index) &&
              errcore__front_scratch_size(n, front, &front_scratch);
    work_index = ok && front_scratch > work_index ? front_scratch : work_index;
    l->front = *front;
    /* ERRCORE_INDEX_CAPACITY(n, r), overflow-checked: n, r <= ERRCORE_MAX_COUNT fit a size_t sum
     * only on 64-bit, so add step by step. */
    size_t capacity = 0;
    ok = ok && errcore__add(n, 2u, &capacity) && errcore__add(capacity, r, &capacity) &&
         errcore__add(capacity, r, &capacity);
    size_t total = 0;
    l->codes = total;
    ok = ok && errcore__add_array(&total, n, sizeof(int64_t), 0);
    l->ranges = total;
    ok = ok && errcore__add_array(&total, r, sizeof(errcore_range), 0);
    l->entries = total;
    ok = ok && errcore__add_array(&total, n, sizeof(errcore_entry), 0);
    l->modules = total;
    ok = ok && errcore__add_array(&total, m, sizeof(errcore_module), work_modules);
    l->index_capacity = capacity;
    l->index_keys = total;
    ok = ok && errcore__add_array(&total, capacity, sizeof(int64_t), 0);
    l->index_slots = total;
    size_t keys_bytes = total - l->index_keys;
    ok = ok && errcore__add_array(&total, capacity, sizeof(errcore_index_slot),
                                  work_index > keys_bytes ? work_index - keys_bytes : 0);
    bool has_front = front->has_front;
    l->front_slots = total;
    ok = ok && errcore__add_array(&total, errcore__front_slot_count(front), sizeof(errcore_front_slot), 0);
    l->front_buckets = total;
    ok = ok && errcore__add_array(&total, has_front ? (size_t)1 << front->bucket_bits : 0, sizeof(uint32_t), 0);
    l->front_gaps = total;
    ok = ok && errcore__add_array(&total, has_front ? front->gap_capacity + 1u : 0, sizeof(errcore_front_gap), 0);
    /* Without a language list the table gets "en" and "zh-Hans". */
    size_t languages = def->language_count == 0 ? 2u : def->language_count;
    size_t message_count = 0, title_count = 0;
    ok = ok && n <= SIZE_MAX / languages && m <= SIZE_MAX / languages;
    if (ok) {
        message_count = n * languages;
        title_count = m * languages;
    }
    l->language_count = languages;
    l->languages = total;
    ok = ok && errcore__add_array(&total, languages, sizeof(uint32_t), 0);
    l->messages = total;
    ok = ok && errcore__add_array(&total, message_count, sizeof(uint32_t), 0);
    l->titles = total;
    ok = ok && errcore__add_array(&total, title_count, sizeof(uint32_t), 0);
    l->pool = total;
    ok = ok && errcore__add_array(&total, pool, 1, 0);
    l->pool_size = pool;
    l->total = total;
    return ok;
}

/*
 * The storage layout, with a front when the table is small enough for one
 * and its storage size fits a size_t (else without: the table then
 * classifies through its index, as it would have before fronts existed).
 */
static bool errcore__layout_of(const errcore_catalog_def *def, size_t pool, errcore__layout *l) {
    errcore__front_dims_t front;
    errcore__front_dims(def->entry_count, def->range_count, &front);
    if (front.has_front && errcore__layout_with(def, pool, &front, l)) {
        return true;
    }
    errcore__front_dims_t none = {false, 0, 0, 0, 0};
    front = none;
    return errcore__layout_with(def, pool, &front, l);
}

/* Stage 0 and the layout: the first problem into diag, or ERRCORE_OK with *l filled. */
static errcore_status errcore__size_of(const errcore_catalog_def *def, errcore__layout *l, errcore_diag *diag) {
    errcore__reporter rep = errcore__reporter_first(diag);
    size_t pool = 0;
    if (!errcore__check_shape(def, &pool, &rep) || rep.status != ERRCORE_OK) {
        return rep.status;
    }
    if (!errcore__layout_of(def, pool, l)) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    return ERRCORE_OK;
}

errcore_status errcore_build_size(const errcore_catalog_def *def, size_t *out_size, errcore_diag *diag) {
    errcore__layout l;
    if (!def || !out_size) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    errcore_status s = errcore__size_of(def, &l, diag);
    if (s == ERRCORE_OK) {
        *out_size = l.total;
        errcore__fail(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
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

/* The first text present in row[] among the languages set in `which`, else `otherwise`. */
static uint32_t errcore__view(const uint32_t *row, const uint32_t *which, size_t lc, uint32_t otherwise) {
    for (size_t k = 0; k < lc; k++) {
        if (((which[k / 32u] >> (k % 32u)) & 1u) != 0 && row[k] != ERRCORE_NO_STRING) {
            return row[k];
        }
    }
    return otherwise;
}

errcore_status errcore_build(const errcore_catalog_def *def, void *storage, size_t storage_size, errcore_table *out,
                             errcore_diag *diag) {
    errcore__layout l;
    if (!def || !out || !storage) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    errcore_status s = errcore__size_of(def, &l, diag);
    if (s != ERRCORE_OK) {
        return s;
    }
    s = errcore__check_storage(storage, storage_size, l.total, diag);
    if (s != ERRCORE_OK) {
        return s;
    }
    size_t n = def->entry_count, r = def->range_count, m = def->module_count;
    unsigned char *base = storage;
    /* Every byte the table does not use (padding, spare slots, what is left of the working
     * space) ends as 0: the storage is a function of the definition alone. */
    memset(base, 0, l.total);
    size_t work_entries, work_ranges, work_modules;
    (void)errcore__work_size(n, r, m, &work_entries, &work_ranges, &work_modules);
    errcore__work w;
    errcore__work_init(&w, n, r, m, base + l.index_keys, base + l.index_keys + work_entries, base + l.modules);
    errcore__reporter rep = errcore__reporter_first(diag);
    errcore__check_def(def, &w, &rep);
    if (rep.status != ERRCORE_OK) {
        return rep.status;
    }

    int64_t *codes = (int64_t *)(void *)(base + l.codes);
    errcore_range *ranges = (errcore_range *)(void *)(base + l.ranges);
    errcore_entry *entries = (errcore_entry *)(void *)(base + l.entries);
    errcore_module *modules = (errcore_module *)(void *)(base + l.modules);
    char *pool = (char *)(base + l.pool);
    size_t used = 0;
    pool[used++] = '\0';

    size_t lc = l.language_count;
    uint32_t *languages = (uint32_t *)(void *)(base + l.languages);
    uint32_t *messages = (uint32_t *)(void *)(base + l.messages);
    uint32_t *titles = (uint32_t *)(void *)(base + l.titles);
    bool listed = def->language_count != 0;
    for (size_t k = 0; k < lc; k++) {
        languages[k] = errcore__pool_put(pool, &used, listed ? def->languages[k] : (k == 0 ? "en" : "zh-Hans"), 0);
    }
    /* The languages the two-language view of entries and modules reads: those that are "en"
     * (an "en" lookup, the default when none has the text) and "zh-Hans" (that language alone)
     * by the language rule, which also reads "en-Latn" as en and "zh" as zh-Hans. */
    uint32_t is_en[(ERRCORE_MAX_LANGUAGES + 32u) / 32u] = {0}, is_zh[(ERRCORE_MAX_LANGUAGES + 32u) / 32u] = {0};
    for (size_t k = 0; k < lc; k++) {
        const char *tag = pool + languages[k];
        is_en[k / 32u] |= (uint32_t)errcore__language_is(tag, "en") << (k % 32u);
        is_zh[k / 32u] |= (uint32_t)errcore__language_is(tag, "zh-Hans") << (k % 32u);
    }

    /* Modules overwrite their work arrays, which stage 2 no longer needs. */
    for (size_t i = 0; i < m; i++) {
        const errcore_module_def *md = &def->modules[i];
        errcore_module *mo = &modules[i];
        uint32_t *row = titles + i * lc;
        mo->name = errcore__pool_put(pool, &used, md->name, 0);
        for (size_t k = 0; k < lc; k++) {
            const char *text = listed ? (md->titles ? md->titles[k] : NULL) : (k == 0 ? md->title_en : md->title_zh);
            row[k] = errcore__pool_put(pool, &used, text, k == 0 ? mo->name : ERRCORE_NO_STRING);
        }
        mo->title_en = errcore__view(row, is_en, lc, row[0]);
        mo->title_zh = errcore__view(row, is_zh, lc, ERRCORE_NO_STRING);
        mo->reserved = 0;
    }
    /* Entries and ranges in the order the checks sorted them ((code, index), (first, index)). */
    for (size_t p = 0; p < n; p++) {
        const errcore_entry_def *ed = &def->entries[w.entry_order[p]];
        errcore_entry *e = &entries[p];
        uint32_t *row = messages + p * lc;
        codes[p] = ed->code;
        e->module = ed->module;
        e->flags = ed->flags;
        e->reserved = 0;
        e->name = errcore__pool_put(pool, &used, ed->name, 0);
        for (size_t k = 0; k < lc; k++) {
            const char *text =
                listed ? (ed->messages ? ed->messages[k] : NULL) : (k == 0 ? ed->message_en : ed->message_zh);
            row[k] = errcore__pool_put(pool, &used, text, k == 0 ? 0 : ERRCORE_NO_STRING);
        }
        e->message_en = errcore__view(row, is_en, lc, row[0]);
        e->message_zh = errcore__view(row, is_zh, lc, ERRCORE_NO_STRING);
    }
    for (size_t p = 0; p < r; p++) { /* every range is valid here, so range_order holds all */
        const errcore_range *g = &def->ranges[w.range_order[p]];
        ranges[p].first = g->first;
        ranges[p].last = g->last;
        ranges[p].module = g->module;
    }

    errcore_table t;
    t.codes = codes;
    t.entries = entries;
    t.entry_count = n;
    t.modules = modules;
    t.module_count = m;
    t.ranges = ranges;
    t.range_count = r;
    t.strings = pool;
    t.strings_size = used;
    t.success_code = def->success_code;
    t.index_keys = NULL;
    t.index_slots = NULL;
    t.index_count = 0;
    t.languages = languages;
    t.language_count = lc;
    t.messages = messages;
    t.titles = titles;
    /*
     * The front's scratch overwrites the entry and range work arrays, read
     * for the last time above; the index then overwrites the scratch.
     */
    (void)errcore__front_build(&t, &l.front, (errcore_front_slot *)(void *)(base + l.front_slots),
                               (uint32_t *)(void *)(base + l.front_buckets),
                               (errcore_front_gap *)(void *)(base + l.front_gaps), base + l.index_keys);
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
    /* The working space left behind: after the modules, after the index, and a front given up. */
    memset(base + l.modules + m * sizeof(errcore_module), 0, l.index_keys - l.modules - m * sizeof(errcore_module));
    memset(base + l.index_keys + index_count * sizeof(int64_t), 0,
           l.index_slots - l.index_keys - index_count * sizeof(int64_t));
    memset(base + l.index_slots + index_count * sizeof(errcore_index_slot), 0,
           l.front_slots - l.index_slots - index_count * sizeof(errcore_index_slot));
    if (!t.front.slots) {
        memset(base + l.front_slots, 0, l.languages - l.front_slots);
    }
    *out = t;
    errcore__fail(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    return ERRCORE_OK;
}

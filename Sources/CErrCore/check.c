/*
 * check.c — the checks of a catalog definition: every problem
 * (errcore_check_catalog) or only the first (errcore_build_size,
 * errcore_build). The rules themselves are in rules.c, shared with
 * errcore_validate; this file walks the caller's unsorted arrays, sorting
 * (key, input index) pairs of them in the working arrays so that every
 * diagnostic names the caller's own indices. No allocation, no recursion.
 */
#include <string.h>

#include "internal.h"

#define ERRCORE__NONE32 UINT32_MAX

/* a + b into *out; false on overflow. */
static bool errcore__add(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b) {
        return false;
    }
    *out = a + b;
    return true;
}

/* count elements of `size` bytes, rounded up to 8; false on overflow. */
static bool errcore__array_bytes(size_t count, size_t size, size_t *out) {
    if (count > (SIZE_MAX - 7u) / size) {
        return false;
    }
    *out = (count * size + 7u) & ~(size_t)7u;
    return true;
}

/* ---- Stage 0 ------------------------------------------------------------------------------ */

static bool errcore__emit_simple(errcore__reporter *rep, errcore_status status, errcore_subject subject, size_t index,
                                 int64_t code) {
    errcore_diag d;
    errcore__fail(&d, status, subject, index, code);
    return errcore__emit(rep, &d);
}

/* Adds the pool bytes of a string (NULL takes none) to *pool, saturating at SIZE_MAX. */
static void errcore__pool_add(size_t *pool, const char *text) {
    if (text && !errcore__add(*pool, strlen(text) + 1u, pool)) {
        *pool = SIZE_MAX;
    }
}

bool errcore__check_shape(const errcore_catalog_def *def, size_t *pool, errcore__reporter *rep) {
    static const errcore_subject subjects[3] = {ERRCORE_SUBJECT_ENTRY, ERRCORE_SUBJECT_MODULE, ERRCORE_SUBJECT_RANGE};
    const bool null_array[3] = {!def->entries && def->entry_count != 0, !def->modules && def->module_count != 0,
                                !def->ranges && def->range_count != 0};
    const bool too_many[3] = {def->entry_count > ERRCORE_MAX_COUNT, def->module_count > ERRCORE_MAX_MODULES,
                              def->range_count > ERRCORE_MAX_COUNT};
    bool broken = false;
    for (int k = 0; k < 3; k++) {
        if (null_array[k]) {
            broken = true;
            if (!errcore__emit_simple(rep, ERRCORE_E_NULL_ARGUMENT, subjects[k], ERRCORE_NO_INDEX, 0)) {
                return false;
            }
        }
    }
    for (int k = 0; k < 3; k++) {
        if (too_many[k]) {
            broken = true;
            if (!errcore__emit_simple(rep, ERRCORE_E_COUNT_OVERFLOW, subjects[k], ERRCORE_NO_INDEX, 0)) {
                return false;
            }
        }
    }
    if (broken) {
        return false; /* the arrays cannot be read */
    }
    size_t languages = def->language_count;
    /* The language list cannot be read: report it and end the check. */
    if (languages != 0 && !def->languages) {
        (void)errcore__emit_simple(rep, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_LANGUAGE, ERRCORE_NO_INDEX, 0);
        return false;
    }
    if (languages > ERRCORE_MAX_LANGUAGES) {
        (void)errcore__emit_simple(rep, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_LANGUAGE, ERRCORE_NO_INDEX, 0);
        return false;
    }
    size_t total = 1; /* offset 0 holds the empty string */
    if (languages == 0) {
        errcore__pool_add(&total, "en"); /* the two languages of a definition without a list */
        errcore__pool_add(&total, "zh-Hans");
    }
    for (size_t k = 0; k < languages; k++) {
        if (!def->languages[k] && !errcore__emit_simple(rep, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_LANGUAGE, k, 0)) {
            return false;
        }
        errcore__pool_add(&total, def->languages[k]);
    }
    for (size_t i = 0; i < def->module_count; i++) {
        const errcore_module_def *m = &def->modules[i];
        if (!m->name &&
            !errcore__emit_simple(rep, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, i, (int64_t)i + 1)) {
            return false;
        }
        errcore__pool_add(&total, m->name);
        if (languages == 0) {
            errcore__pool_add(&total, m->title_en);
            errcore__pool_add(&total, m->title_zh);
        }
        for (size_t k = 0; k < languages && m->titles; k++) {
            errcore__pool_add(&total, m->titles[k]);
        }
    }
    for (size_t i = 0; i < def->entry_count; i++) {
        const errcore_entry_def *e = &def->entries[i];
        if (!e->name && !errcore__emit_simple(rep, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, i, e->code)) {
            return false;
        }
        errcore__pool_add(&total, e->name);
        if (languages == 0) {
            errcore__pool_add(&total, e->message_en);
            errcore__pool_add(&total, e->message_zh);
        }
        for (size_t k = 0; k < languages && e->messages; k++) {
            errcore__pool_add(&total, e->messages[k]);
        }
    }
    if (total > ERRCORE_MAX_COUNT &&
        !errcore__emit_simple(rep, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_STRINGS, ERRCORE_NO_INDEX, 0)) {
        return false;
    }
    *pool = total;
    return true;
}

/* ---- Working arrays ----------------------------------------------------------------------- */

/* Bytes of each kind of work array, each rounded up to 8; false on overflow. */
typedef struct errcore__work_sizes {
    size_t entry_keys, entry_ids, range_keys, range_ids, module_keys, module_ids;
} errcore__work_sizes;

static bool errcore__work_sizes_of(size_t n, size_t r, size_t m, errcore__work_sizes *z) {
    return errcore__array_bytes(n, sizeof(uint64_t), &z->entry_keys) &&
           errcore__array_bytes(n, sizeof(uint32_t), &z->entry_ids) &&
           errcore__array_bytes(r, sizeof(uint64_t), &z->range_keys) &&
           errcore__array_bytes(r, sizeof(uint32_t), &z->range_ids) &&
           errcore__array_bytes(m, sizeof(uint64_t), &z->module_keys) &&
           errcore__array_bytes(m, sizeof(uint16_t), &z->module_ids);
}

bool errcore__work_size(size_t n, size_t r, size_t m, size_t *entry_bytes, size_t *range_bytes, size_t *module_bytes) {
    errcore__work_sizes z;
    size_t keys, ids;
    if (!errcore__work_sizes_of(n, r, m, &z)) {
        return false;
    }
    /* Entries: two key arrays and two index arrays. */
    if (!errcore__add(z.entry_keys, z.entry_keys, &keys) || !errcore__add(z.entry_ids, z.entry_ids, &ids) ||
        !errcore__add(keys, ids, entry_bytes)) {
        return false;
    }
    /* Ranges: two key arrays and four index arrays. */
    if (!errcore__add(z.range_keys, z.range_keys, &keys) || z.range_ids > SIZE_MAX / 4 ||
        !errcore__add(keys, 4 * z.range_ids, range_bytes)) {
        return false;
    }
    /* Modules: one key array and two index arrays. */
    return errcore__add(z.module_ids, z.module_ids, &ids) && errcore__add(z.module_keys, ids, module_bytes);
}

void errcore__work_init(errcore__work *w, size_t n, size_t r, size_t m, void *entries_area, void *ranges_area,
                        void *modules_area) {
    /* The caller's errcore__work_size succeeded, so none of these overflows. */
    errcore__work_sizes z = {(n * sizeof(uint64_t) + 7u) & ~(size_t)7u, (n * sizeof(uint32_t) + 7u) & ~(size_t)7u,
                             (r * sizeof(uint64_t) + 7u) & ~(size_t)7u, (r * sizeof(uint32_t) + 7u) & ~(size_t)7u,
                             (m * sizeof(uint64_t) + 7u) & ~(size_t)7u, (m * sizeof(uint16_t) + 7u) & ~(size_t)7u};
    unsigned char *ea = entries_area, *ra = ranges_area, *ma = modules_area;
    w->entry_keys = (uint64_t *)(void *)ea;
    w->entry_keys_spare = (uint64_t *)(void *)(ea + z.entry_keys);
    w->entry_order = (uint32_t *)(void *)(ea + 2 * z.entry_keys);
    w->entry_first = (uint32_t *)(void *)(ea + 2 * z.entry_keys + z.entry_ids);
    w->range_keys = (uint64_t *)(void *)ra;
    w->range_keys_spare = (uint64_t *)(void *)(ra + z.range_keys);
    ra += 2 * z.range_keys;
    w->range_order = (uint32_t *)(void *)ra;
    w->range_reach = (uint32_t *)(void *)(ra + z.range_ids);
    w->range_aux = (uint32_t *)(void *)(ra + 2 * z.range_ids);
    w->range_aux_reach = (uint32_t *)(void *)(ra + 3 * z.range_ids);
    w->module_keys = (uint64_t *)(void *)ma;
    w->module_order = (uint16_t *)(void *)(ma + z.module_keys);
    w->module_first = (uint16_t *)(void *)(ma + z.module_keys + z.module_ids);
    w->range_valid = 0;
}

errcore_status errcore__check_storage(const void *storage, size_t size, size_t needed, errcore_diag *d) {
    if (size < needed) {
        errcore__fail(d, ERRCORE_E_BUFFER_TOO_SMALL, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                      needed > (size_t)INT64_MAX ? INT64_MAX : (int64_t)needed);
        if (d) {
            d->other_code = (int64_t)size; /* size < needed <= INT64_MAX here */
        }
        return ERRCORE_E_BUFFER_TOO_SMALL;
    }
    uintptr_t misalignment = (uintptr_t)storage & 7u;
    if (misalignment != 0) {
        errcore__fail(d, ERRCORE_E_MISALIGNED, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 8);
        if (d) {
            d->other_code = (int64_t)misalignment;
        }
        return ERRCORE_E_MISALIGNED;
    }
    return ERRCORE_OK;
}

/* ---- Sort keys ---------------------------------------------------------------------------- */

/* A code as an unsigned sort key: flipping the sign bit makes unsigned order signed order. */
static uint64_t errcore__code_key(int64_t code) {
    return (uint64_t)code ^ ((uint64_t)1 << 63);
}

static const char *errcore__def_module_name(const void *source, size_t i) {
    const char *name = ((const errcore_module_def *)source)[i].name;
    return name && name[0] != '\0' ? name : NULL;
}

/* Stage 3 leaves a range out of later stages when it names an undeclared module or is empty. */
static bool errcore__range_valid(const errcore_range *g, size_t module_count) {
    return errcore__rule_range_module(g, 0, module_count, NULL) == ERRCORE_OK &&
           errcore__rule_range_empty(g, 0, NULL) == ERRCORE_OK;
}

/*
 * A range of order[lo ... hi-1] (sorted by first) containing `code`: of those
 * starting at or before it, the one reaching furthest, which contains it if
 * any does. reach[] is filled from lo (errcore__fill_reach). ERRCORE__NONE32
 * when no range there contains `code`.
 */
static uint32_t errcore__containing(const errcore_range *ranges, const uint32_t *order, const uint32_t *reach,
                                    size_t lo, size_t hi, int64_t code) {
    size_t a = lo, b = hi; /* first position in [lo, hi) with first > code */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (ranges[order[mid]].first <= code) {
            a = mid + 1;
        } else {
            b = mid;
        }
    }
    if (a == lo) {
        return ERRCORE__NONE32;
    }
    uint32_t best = order[reach[a - 1]];
    return ranges[best].last >= code ? best : ERRCORE__NONE32;
}

/* Fills reach[p] for order[lo ... hi-1]: the position of the greatest last so far (first wins ties). */
static void errcore__fill_reach(const errcore_range *ranges, const uint32_t *order, uint32_t *reach, size_t lo,
                                size_t hi) {
    for (size_t p = lo; p < hi; p++) {
        reach[p] = p == lo || ranges[order[p]].last > ranges[order[reach[p - 1]]].last ? (uint32_t)p : reach[p - 1];
    }
}

/* First position of order[0 ... count-1] (sorted by module) whose range's module is >= module. */
static size_t errcore__module_bound(const errcore_range *ranges, const uint32_t *order, size_t count, uint32_t module) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ranges[order[mid]].module < module) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* ---- Stages 1 ... 8 ----------------------------------------------------------------------- */

static bool errcore__check_names(const errcore_catalog_def *def, errcore__reporter *rep) {
    errcore_diag d;
    for (size_t i = 0; i < def->module_count; i++) {
        const char *name = def->modules[i].name;
        if (name && errcore__rule_empty_name(name, ERRCORE_SUBJECT_MODULE, i, (int64_t)i + 1, &d) != ERRCORE_OK &&
            !errcore__emit(rep, &d)) {
            return false;
        }
    }
    for (size_t i = 0; i < def->entry_count; i++) {
        const errcore_entry_def *e = &def->entries[i];
        if (e->name && errcore__rule_empty_name(e->name, ERRCORE_SUBJECT_ENTRY, i, e->code, &d) != ERRCORE_OK &&
            !errcore__emit(rep, &d)) {
            return false;
        }
    }
    return true;
}

static bool errcore__check_ranges(const errcore_catalog_def *def, errcore__work *w, errcore__reporter *rep) {
    const errcore_range *ranges = def->ranges;
    size_t r = def->range_count, m = def->module_count;
    errcore_diag d;
    /* Stage 3: each range on its own. */
    for (size_t i = 0; i < r; i++) {
        if (errcore__rule_range_module(&ranges[i], i, m, &d) != ERRCORE_OK && !errcore__emit(rep, &d)) {
            return false;
        }
        if (errcore__rule_range_empty(&ranges[i], i, &d) != ERRCORE_OK && !errcore__emit(rep, &d)) {
            return false;
        }
    }
    /* Stage 4: sorted by first, a range overlaps an earlier one exactly when it starts at or
     * before the furthest last so far; that range is its partner. */
    size_t valid = 0;
    for (size_t i = 0; i < r; i++) {
        w->range_aux[i] = ERRCORE__NONE32;
        if (errcore__range_valid(&ranges[i], m)) {
            w->range_keys[valid] = errcore__code_key(ranges[i].first);
            w->range_order[valid++] = (uint32_t)i;
        }
    }
    w->range_valid = valid;
    /* By (first, index): the sort is stable and starts in index order. range_reach is its
     * spare array until it is filled below. */
    errcore__sort_keyed(w->range_keys, w->range_order, w->range_keys_spare, w->range_reach, valid);
    errcore__fill_reach(ranges, w->range_order, w->range_reach, 0, valid);
    for (size_t p = 1; p < valid; p++) {
        uint32_t at = w->range_order[p], partner = w->range_order[w->range_reach[p - 1]];
        if (errcore__rule_overlap(&ranges[at], at, &ranges[partner], partner, NULL) != ERRCORE_OK) {
            w->range_aux[at] = partner;
        }
    }
    for (size_t i = 0; i < r; i++) {
        uint32_t partner = w->range_aux[i];
        if (partner != ERRCORE__NONE32) {
            errcore__rule_overlap(&ranges[i], i, &ranges[partner], partner, &d);
            if (!errcore__emit(rep, &d)) {
                return false;
            }
        }
    }
    return true;
}

static bool errcore__check_entries(const errcore_catalog_def *def, errcore__work *w, errcore__reporter *rep) {
    const errcore_entry_def *entries = def->entries;
    size_t n = def->entry_count, m = def->module_count;
    errcore_diag d;
    /* Stage 5. */
    for (size_t i = 0; i < n; i++) {
        if (errcore__rule_entry_module(entries[i].code, entries[i].module, i, m, &d) != ERRCORE_OK &&
            !errcore__emit(rep, &d)) {
            return false;
        }
    }
    /* Stage 6: sorted by (code, index), each run of one code starts with its first entry. The
     * sort is stable and starts in index order; entry_first is its spare array until it is
     * filled below. Equal sorted keys are equal codes. */
    for (size_t i = 0; i < n; i++) {
        w->entry_keys[i] = errcore__code_key(entries[i].code);
        w->entry_order[i] = (uint32_t)i;
    }
    errcore__sort_keyed(w->entry_keys, w->entry_order, w->entry_keys_spare, w->entry_first, n);
    for (size_t i = 0; i < n; i++) {
        w->entry_first[i] = ERRCORE__NONE32;
    }
    for (size_t p = 1, head = 0; p < n; p++) {
        if (w->entry_keys[p] == w->entry_keys[head]) {
            w->entry_first[w->entry_order[p]] = w->entry_order[head];
        } else {
            head = p;
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t first = w->entry_first[i];
        if (first != ERRCORE__NONE32) {
            /* entries[first] has this very code: not reading it spares a cache miss per report */
            errcore__rule_duplicate_code(entries[i].code, entries[i].module, i, entries[i].code, first, &d);
            if (!errcore__emit(rep, &d)) {
                return false;
            }
        }
    }
    return true;
}

static bool errcore__check_placement(const errcore_catalog_def *def, errcore__work *w, errcore__reporter *rep) {
    const errcore_range *ranges = def->ranges;
    const errcore_entry_def *entries = def->entries;
    size_t r = def->range_count, n = def->entry_count, m = def->module_count;
    size_t valid = w->range_valid;
    int64_t success = def->success_code;
    errcore_diag d;
    /* Stage 7. */
    for (size_t i = 0; i < r; i++) {
        if (errcore__range_valid(&ranges[i], m) &&
            errcore__rule_success_range(success, &ranges[i], i, &d) != ERRCORE_OK && !errcore__emit(rep, &d)) {
            return false;
        }
    }
    /* Stage 8: the owner of a code from the ranges sorted by first; whether its own module has
     * a range holding it from the ranges sorted by (module, first), searched within the module. */
    for (size_t p = 0; p < valid; p++) {
        w->range_aux[p] = w->range_order[p];
        w->range_keys[p] = ranges[w->range_order[p]].module;
    }
    /* Stable by module from (first, index) order: (module, first, index). range_aux_reach is
     * the sort's spare array until it is filled below. */
    errcore__sort_keyed(w->range_keys, w->range_aux, w->range_keys_spare, w->range_aux_reach, valid);
    for (size_t lo = 0; lo < valid;) {
        size_t hi = lo + 1;
        while (hi < valid && ranges[w->range_aux[hi]].module == ranges[w->range_aux[lo]].module) {
            hi++;
        }
        errcore__fill_reach(ranges, w->range_aux, w->range_aux_reach, lo, hi);
        lo = hi;
    }
    for (size_t i = 0; i < n; i++) {
        const errcore_entry_def *e = &entries[i];
        if (errcore__rule_entry_module(e->code, e->module, i, m, NULL) != ERRCORE_OK) {
            continue; /* reported in stage 5 */
        }
        uint32_t holder = errcore__containing(ranges, w->range_order, w->range_reach, 0, valid, e->code);
        uint16_t owner = holder == ERRCORE__NONE32 ? ERRCORE_MODULE_NONE : ranges[holder].module;
        bool in_own = false;
        if (e->module != ERRCORE_MODULE_NONE) {
            size_t lo = errcore__module_bound(ranges, w->range_aux, valid, e->module);
            size_t end = errcore__module_bound(ranges, w->range_aux, valid, e->module + 1u);
            in_own = errcore__containing(ranges, w->range_aux, w->range_aux_reach, lo, end, e->code) != ERRCORE__NONE32;
        }
        if (errcore__rule_placement(e->code, e->module, i, success, in_own, owner, &d) != ERRCORE_OK &&
            !errcore__emit(rep, &d)) {
            return false;
        }
    }
    return true;
}

void errcore__check_def(const errcore_catalog_def *def, errcore__work *w, errcore__reporter *rep) {
    if (errcore__check_names(def, rep) && errcore__check_def_languages(def, rep) &&
        errcore__module_names_all(def->modules, errcore__def_module_name, def->module_count, w->module_order,
                                  w->module_first, w->module_keys, rep) &&
        errcore__check_ranges(def, w, rep) && errcore__check_entries(def, w, rep)) {
        (void)errcore__check_placement(def, w, rep);
    }
}

/* ---- Public entry points ------------------------------------------------------------------ */

static errcore_status errcore__check_total(const errcore_catalog_def *def, size_t *total) {
    size_t e, g, k;
    if (!errcore__work_size(def->entry_count, def->range_count, def->module_count, &e, &g, &k) ||
        !errcore__add(e, g, total) || !errcore__add(*total, k, total)) {
        return ERRCORE_E_COUNT_OVERFLOW;
    }
    return ERRCORE_OK;
}

errcore_status errcore_check_size(const errcore_catalog_def *def, size_t *out_size, errcore_diag *diag) {
    if (!def || !out_size) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    errcore_subject over = def->entry_count > ERRCORE_MAX_COUNT      ? ERRCORE_SUBJECT_ENTRY
                           : def->module_count > ERRCORE_MAX_MODULES ? ERRCORE_SUBJECT_MODULE
                           : def->range_count > ERRCORE_MAX_COUNT    ? ERRCORE_SUBJECT_RANGE
                                                                     : ERRCORE_SUBJECT_NONE;
    size_t total = 0;
    if (over != ERRCORE_SUBJECT_NONE || errcore__check_total(def, &total) != ERRCORE_OK) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, over, ERRCORE_NO_INDEX, 0);
    }
    *out_size = total;
    return errcore__fail(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
}

errcore_status errcore_check_catalog(const errcore_catalog_def *def, void *scratch, size_t scratch_size,
                                     errcore_report_fn report, void *context) {
    if (!def || !report) {
        return ERRCORE_E_NULL_ARGUMENT;
    }
    errcore__reporter rep = errcore__reporter_first(NULL);
    rep.fn = report;
    rep.context = context;
    size_t pool = 0, need = 0;
    if (!errcore__check_shape(def, &pool, &rep)) {
        return rep.status;
    }
    errcore_diag d;
    if (errcore__check_total(def, &need) != ERRCORE_OK) {
        errcore__fail(&d, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
        errcore__emit(&rep, &d);
        return rep.status;
    }
    if (!scratch && need != 0) {
        errcore__fail(&d, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
        errcore__emit(&rep, &d);
        return rep.status;
    }
    if (scratch && errcore__check_storage(scratch, scratch_size, need, &d) != ERRCORE_OK) {
        errcore__emit(&rep, &d);
        return rep.status;
    }
    size_t e, g, k;
    (void)errcore__work_size(def->entry_count, def->range_count, def->module_count, &e, &g, &k);
    uint64_t nothing = 0; /* an empty definition needs no scratch: point the arrays here */
    unsigned char *base = scratch ? (unsigned char *)scratch : (unsigned char *)&nothing;
    errcore__work w;
    errcore__work_init(&w, def->entry_count, def->range_count, def->module_count, base, base + e, base + e + g);
    errcore__check_def(def, &w, &rep);
    return rep.status;
}

/*
 * rules.c — the validation rules, each in one place, shared by
 * errcore_validate (a finished table: validate.c) and by errcore_build and
 * errcore_check_catalog (a definition: check.c); the reporter both use; and
 * the radix sort of contiguous keys the definition checks sort with.
 */
#include <string.h>

#include "internal.h"

errcore__reporter errcore__reporter_first(errcore_diag *first) {
    errcore__reporter rep;
    rep.fn = NULL;
    rep.context = NULL;
    rep.first = first;
    rep.status = ERRCORE_OK;
    rep.stopped = false;
    return rep;
}

bool errcore__emit(errcore__reporter *rep, const errcore_diag *d) {
    if (rep->stopped) {
        return false;
    }
    if (rep->status == ERRCORE_OK) {
        rep->status = d->status;
        if (rep->first) {
            *rep->first = *d;
        }
    }
    if (!rep->fn || rep->fn(rep->context, d) != 0) {
        rep->stopped = true;
    }
    return !rep->stopped;
}

errcore_status errcore__rule_empty_name(const char *name, errcore_subject subject, size_t index, int64_t code,
                                        errcore_diag *d) {
    if (name[0] != '\0') {
        return ERRCORE_OK;
    }
    return errcore__fail(d, ERRCORE_E_EMPTY_NAME, subject, index, code);
}

errcore_status errcore__rule_range_module(const errcore_range *g, size_t index, size_t module_count, errcore_diag *d) {
    if (g->module != ERRCORE_MODULE_NONE && (size_t)g->module <= module_count) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, index, g->first);
    if (d) {
        d->module = g->module;
    }
    return ERRCORE_E_UNDECLARED_MODULE;
}

errcore_status errcore__rule_range_empty(const errcore_range *g, size_t index, errcore_diag *d) {
    if (g->first <= g->last) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, index, g->first);
    if (d) {
        d->other_code = g->last;
        d->module = g->module;
    }
    return ERRCORE_E_EMPTY_RANGE;
}

errcore_status errcore__rule_overlap(const errcore_range *g, size_t index, const errcore_range *before,
                                     size_t before_index, errcore_diag *d) {
    if (g->first > before->last) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, index, g->first);
    if (d) {
        d->other_index = before_index;
        d->other_code = before->first;
        d->module = g->module;
    }
    return ERRCORE_E_RANGE_OVERLAP;
}

errcore_status errcore__rule_entry_module(int64_t code, uint16_t module, size_t index, size_t module_count,
                                          errcore_diag *d) {
    if ((size_t)module <= module_count) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, index, code);
    if (d) {
        d->module = module;
    }
    return ERRCORE_E_UNDECLARED_MODULE;
}

errcore_status errcore__rule_duplicate_code(int64_t code, uint16_t module, size_t index, int64_t first_code,
                                            size_t first_index, errcore_diag *d) {
    if (code != first_code) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, index, code);
    if (d) {
        d->other_index = first_index;
        d->other_code = first_code;
        d->module = module;
    }
    return ERRCORE_E_DUPLICATE_CODE;
}

errcore_status errcore__rule_success_range(int64_t success, const errcore_range *g, size_t index, errcore_diag *d) {
    if (success < g->first || success > g->last) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, index, success);
    if (d) {
        d->module = g->module;
    }
    return ERRCORE_E_SUCCESS_IN_MODULE;
}

errcore_status errcore__rule_placement(int64_t code, uint16_t module, size_t index, int64_t success, bool in_own,
                                       uint16_t owner, errcore_diag *d) {
    errcore_status s = ERRCORE_OK;
    if (code == success) {
        /* The success code is classified as success whatever range holds it (stage 7 reports
         * that range), so only a module claiming it is wrong here. */
        s = module != ERRCORE_MODULE_NONE ? ERRCORE_E_SUCCESS_IN_MODULE : ERRCORE_OK;
    } else if (module != ERRCORE_MODULE_NONE) {
        s = in_own ? ERRCORE_OK : ERRCORE_E_CODE_OUTSIDE_MODULE;
    } else {
        s = owner != ERRCORE_MODULE_NONE ? ERRCORE_E_BASE_IN_MODULE_RANGE : ERRCORE_OK;
    }
    if (s != ERRCORE_OK) {
        errcore__fail(d, s, ERRCORE_SUBJECT_ENTRY, index, code);
        if (d) {
            d->module = module;
            d->other_code = s == ERRCORE_E_SUCCESS_IN_MODULE ? 0 : (int64_t)owner;
        }
    }
    return s;
}

/* ---- Sorting contiguous keys -------------------------------------------------------------- */

/*
 * Up to this many elements a stable insertion sort is cheaper than the radix
 * passes, each of which clears and scans a whole histogram.
 */
#define ERRCORE__SMALL_SORT 32

static void errcore__insertion_keyed(uint64_t *keys, uint32_t *vals, size_t n) {
    for (size_t i = 1; i < n; i++) {
        uint64_t k = keys[i];
        uint32_t v = vals[i];
        size_t j = i;
        for (; j > 0 && keys[j - 1] > k; j--) { /* strictly greater: equal keys keep their order */
            keys[j] = keys[j - 1];
            vals[j] = vals[j - 1];
        }
        keys[j] = k;
        vals[j] = v;
    }
}

/*
 * Bits of the key each radix pass sorts by, for a histogram of
 * 2^ERRCORE__RADIX_BITS 32-bit counts on the stack (1 KiB). Fewer bits
 * would take less stack but more passes over the arrays.
 */
#define ERRCORE__RADIX_BITS 8
#define ERRCORE__RADIX_SIZE ((size_t)1 << ERRCORE__RADIX_BITS)
#define ERRCORE__RADIX_MASK ((uint64_t)ERRCORE__RADIX_SIZE - 1u)

/*
 * One pass of the least-significant-digit radix sort: moves keys/vals into
 * out_keys/out_vals ordered by the digit of the key at `shift`, keeping the
 * order of equal digits (so earlier passes' order survives within a digit).
 */
static void errcore__radix_pass(const uint64_t *keys, const uint32_t *vals, uint64_t *out_keys, uint32_t *out_vals,
                                size_t n, unsigned shift) {
    uint32_t at[ERRCORE__RADIX_SIZE]; /* n <= UINT32_MAX, so every count and position fits */
    for (size_t b = 0; b < ERRCORE__RADIX_SIZE; b++) {
        at[b] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        at[(keys[i] >> shift) & ERRCORE__RADIX_MASK]++;
    }
    uint32_t sum = 0;
    for (size_t b = 0; b < ERRCORE__RADIX_SIZE; b++) {
        uint32_t c = at[b];
        at[b] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys[i];
        uint32_t p = at[(k >> shift) & ERRCORE__RADIX_MASK]++;
        out_keys[p] = k;
        out_vals[p] = vals[i];
    }
}

void errcore__sort_keyed(uint64_t *keys, uint32_t *vals, uint64_t *tmp_keys, uint32_t *tmp_vals, size_t n) {
    if (n < 2) {
        return;
    }
    uint64_t low = keys[0];
    bool sorted = true;
    for (size_t i = 1; i < n; i++) {
        sorted &= keys[i] >= keys[i - 1];
        low = keys[i] < low ? keys[i] : low;
    }
    if (sorted) {
        return;
    }
    if (n <= ERRCORE__SMALL_SORT) {
        errcore__insertion_keyed(keys, vals, n);
        return;
    }
    /* Keys relative to the smallest: the high digits of a narrow spread are all zero. A digit
     * equal in every key leaves the order as it is, so its pass is skipped. */
    uint64_t first = keys[0] - low, differ = 0;
    for (size_t i = 0; i < n; i++) {
        keys[i] -= low;
        differ |= keys[i] ^ first;
    }
    uint64_t *from_keys = keys, *to_keys = tmp_keys;
    uint32_t *from_vals = vals, *to_vals = tmp_vals;
    for (unsigned shift = 0; shift < 64; shift += ERRCORE__RADIX_BITS) {
        if (((differ >> shift) & ERRCORE__RADIX_MASK) == 0) {
            continue;
        }
        errcore__radix_pass(from_keys, from_vals, to_keys, to_vals, n, shift);
        uint64_t *k = from_keys;
        uint32_t *v = from_vals;
        from_keys = to_keys;
        from_vals = to_vals;
        to_keys = k;
        to_vals = v;
    }
    if (from_keys != keys) {
        memcpy(keys, from_keys, n * sizeof *keys);
        memcpy(vals, from_vals, n * sizeof *vals);
    }
}

/* ---- Stage 2: duplicate module names ------------------------------------------------------- */

typedef struct errcore__names {
    const void *source;
    errcore__name_fn name;
} errcore__names;

/* Order of module ids a and b: by name, then by index. */
static int errcore__name_cmp(const errcore__names *k, uint16_t a, uint16_t b) {
    int c = strcmp(k->name(k->source, a), k->name(k->source, b));
    return c != 0 ? c : (a > b) - (a < b);
}

/* Heap sort of 16-bit module indices by (name, index): no recursion, no storage of its own. */
static void errcore__sift_names(const errcore__names *k, uint16_t *order, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && errcore__name_cmp(k, order[child], order[child + 1]) < 0) {
            child++;
        }
        if (errcore__name_cmp(k, order[root], order[child]) >= 0) {
            return;
        }
        uint16_t tmp = order[root];
        order[root] = order[child];
        order[child] = tmp;
        root = child;
    }
}

static void errcore__sort_names(const errcore__names *k, uint16_t *order, size_t n) {
    for (size_t i = n / 2; i > 0; i--) {
        errcore__sift_names(k, order, i - 1, n);
    }
    for (size_t end = n; end > 1; end--) {
        uint16_t tmp = order[0];
        order[0] = order[end - 1];
        order[end - 1] = tmp;
        errcore__sift_names(k, order, 0, end - 1);
    }
}

/*
 * A name's sort key: its first 8 bytes, big-endian, zero from its end on, so
 * that unsigned key order is strcmp order on those bytes (strcmp compares
 * bytes as unsigned char, and the end sorts before every byte).
 */
static uint64_t errcore__name_key(const char *text) {
    uint64_t key = 0;
    bool ended = false;
    for (size_t i = 0; i < 8; i++) {
        ended = ended || text[i] == '\0';
        key = key << 8 | (ended ? 0u : (unsigned char)text[i]);
    }
    return key;
}

/* Whether a name key holds its whole name (the name is under 8 bytes): equal keys, equal names. */
static bool errcore__key_whole(uint64_t key) {
    return (key & 0xFFu) == 0;
}

/*
 * Stable radix sort of order[0 ... count-1] (module indices) by keys[index],
 * with spare[] (count elements) for the passes. The keys stay where they
 * are (at most 65,535 of them), so the indices alone move; a digit equal in
 * every key is skipped; up to ERRCORE__SMALL_SORT indices, an insertion sort.
 */
static void errcore__sort_names_by_key(const uint64_t *keys, uint16_t *order, uint16_t *spare, size_t count) {
    uint64_t differ = 0;
    bool sorted = true;
    for (size_t p = 1; p < count; p++) {
        differ |= keys[order[p]] ^ keys[order[0]];
        sorted &= keys[order[p]] >= keys[order[p - 1]];
    }
    if (sorted) {
        return;
    }
    if (count <= ERRCORE__SMALL_SORT) {
        for (size_t i = 1; i < count; i++) {
            uint16_t v = order[i];
            size_t j = i;
            for (; j > 0 && keys[order[j - 1]] > keys[v]; j--) {
                order[j] = order[j - 1];
            }
            order[j] = v;
        }
        return;
    }
    uint16_t *from = order, *to = spare;
    for (unsigned shift = 0; shift < 64; shift += ERRCORE__RADIX_BITS) {
        if (((differ >> shift) & ERRCORE__RADIX_MASK) == 0) {
            continue;
        }
        uint32_t at[ERRCORE__RADIX_SIZE]; /* count <= ERRCORE_MAX_MODULES */
        for (size_t b = 0; b < ERRCORE__RADIX_SIZE; b++) {
            at[b] = 0;
        }
        for (size_t p = 0; p < count; p++) {
            at[(keys[from[p]] >> shift) & ERRCORE__RADIX_MASK]++;
        }
        uint32_t sum = 0;
        for (size_t b = 0; b < ERRCORE__RADIX_SIZE; b++) {
            uint32_t c = at[b];
            at[b] = sum;
            sum += c;
        }
        for (size_t p = 0; p < count; p++) {
            to[at[(keys[from[p]] >> shift) & ERRCORE__RADIX_MASK]++] = from[p];
        }
        uint16_t *t = from;
        from = to;
        to = t;
    }
    if (from != order) {
        memcpy(order, from, count * sizeof *order);
    }
}

/* Fills order with the modules in [from, to) that have a name; returns how many. */
static size_t errcore__named(const errcore__names *k, uint16_t *order, size_t from, size_t to) {
    size_t count = 0;
    for (size_t i = from; i < to; i++) {
        if (k->name(k->source, i)) {
            order[count++] = (uint16_t)i;
        }
    }
    return count;
}

/* Position of the first element of sorted order[0 ... count-1] named `name`, or count. */
static size_t errcore__find_name(const errcore__names *k, const uint16_t *order, size_t count, const char *name) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(k->name(k->source, order[mid]), name) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < count && strcmp(k->name(k->source, order[lo]), name) == 0 ? lo : count;
}

static errcore_diag errcore__duplicate_name_diag(size_t index, size_t first) {
    errcore_diag d;
    errcore__fail(&d, ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, index, (int64_t)index + 1);
    d.other_index = first;
    d.other_code = (int64_t)first + 1;
    d.module = (uint32_t)(index + 1);
    return d;
}

bool errcore__module_names_all(const void *source, errcore__name_fn name, size_t m, uint16_t *order, uint16_t *first,
                               uint64_t *keys, errcore__reporter *rep) {
    errcore__names k = {source, name};
    /* After sorting by (name, index), each run of equal names starts with its first module.
     * first[] is the sort's spare array until the sort is done. */
    size_t count = 0;
    for (size_t i = 0; i < m; i++) {
        const char *text = name(source, i);
        if (text) {
            keys[i] = errcore__name_key(text);
            order[count++] = (uint16_t)i;
        }
    }
    errcore__sort_names_by_key(keys, order, first, count);
    for (size_t lo = 0, hi = 0; lo < count; lo = hi) {
        for (hi = lo + 1; hi < count && keys[order[hi]] == keys[order[lo]]; hi++) {
        }
        if (hi - lo > 1 && !errcore__key_whole(keys[order[lo]])) {
            errcore__sort_names(&k, order + lo, hi - lo);
        }
    }
    for (size_t i = 0; i < m; i++) {
        first[i] = UINT16_MAX;
    }
    for (size_t p = 1, head = 0; p < count; p++) {
        uint64_t key = keys[order[p]];
        if (key == keys[order[head]] &&
            (errcore__key_whole(key) || strcmp(name(source, order[p]), name(source, order[head])) == 0)) {
            first[order[p]] = order[head];
        } else {
            head = p;
        }
    }
    for (size_t i = 0; i < m; i++) {
        if (first[i] != UINT16_MAX) {
            errcore_diag d = errcore__duplicate_name_diag(i, first[i]);
            if (!errcore__emit(rep, &d)) {
                return false;
            }
        }
    }
    return true;
}

bool errcore__module_names_blocks(const void *source, errcore__name_fn name, size_t m, uint16_t *order, size_t capacity,
                                  errcore__reporter *rep) {
    errcore__names k = {source, name};
    /* The lowest later index with an earlier namesake, and the lowest such namesake. A block
     * can only hold a namesake of a module after its start. */
    size_t best = m, best_first = 0;
    for (size_t start = 0; start < m && start < best && capacity > 0; start += capacity) {
        size_t end = m - start < capacity ? m : start + capacity;
        size_t count = errcore__named(&k, order, start, end);
        errcore__sort_names(&k, order, count);
        for (size_t p = 1, head = 0; p < count; p++) {
            if (strcmp(name(source, order[p]), name(source, order[head])) != 0) {
                head = p;
            } else if (p == head + 1 && order[p] < best) {
                best = order[p];
                best_first = order[head];
            }
        }
        for (size_t j = end; j < best; j++) {
            const char *text = name(source, j);
            size_t at = text ? errcore__find_name(&k, order, count, text) : count;
            if (at < count) {
                best = j;
                best_first = order[at];
                break;
            }
        }
    }
    if (best < m) {
        errcore_diag d = errcore__duplicate_name_diag(best, best_first);
        return errcore__emit(rep, &d);
    }
    return true;
}

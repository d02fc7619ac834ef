/*
 * rules.c — the validation rules, each in one place, shared by
 * errcore_validate (a finished table: validate.c) and by errcore_build and
 * errcore_check_catalog (a definition: check.c); the reporter both use; and
 * the heap sort on permutations the definition checks sort with.
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

errcore_status errcore__rule_empty_name(const char *name, errcore_subject subject, size_t index,
                                        int64_t code, errcore_diag *d) {
    if (name[0] != '\0') {
        return ERRCORE_OK;
    }
    return errcore__fail(d, ERRCORE_E_EMPTY_NAME, subject, index, code);
}

errcore_status errcore__rule_range_module(const errcore_range *g, size_t index, size_t module_count,
                                         errcore_diag *d) {
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

errcore_status errcore__rule_overlap(const errcore_range *g, size_t index,
                                     const errcore_range *before, size_t before_index,
                                     errcore_diag *d) {
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

errcore_status errcore__rule_entry_module(int64_t code, uint16_t module, size_t index,
                                         size_t module_count, errcore_diag *d) {
    if ((size_t)module <= module_count) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, index, code);
    if (d) {
        d->module = module;
    }
    return ERRCORE_E_UNDECLARED_MODULE;
}

errcore_status errcore__rule_duplicate_code(int64_t code, uint16_t module, size_t index,
                                           int64_t first_code, size_t first_index,
                                           errcore_diag *d) {
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

errcore_status errcore__rule_success_range(int64_t success, const errcore_range *g, size_t index,
                                          errcore_diag *d) {
    if (success < g->first || success > g->last) {
        return ERRCORE_OK;
    }
    errcore__fail(d, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, index, success);
    if (d) {
        d->module = g->module;
    }
    return ERRCORE_E_SUCCESS_IN_MODULE;
}

errcore_status errcore__rule_placement(int64_t code, uint16_t module, size_t index, int64_t success,
                                      bool in_own, uint16_t owner, errcore_diag *d) {
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

/* ---- Heap sort on a permutation ------------------------------------------------------------ */

static void errcore__sift_u32(uint32_t *order, size_t root, size_t n, errcore__less_fn less,
                              const void *key) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && less(key, order[child], order[child + 1])) {
            child++;
        }
        if (!less(key, order[root], order[child])) {
            return;
        }
        uint32_t tmp = order[root];
        order[root] = order[child];
        order[child] = tmp;
        root = child;
    }
}

void errcore__sort_u32(uint32_t *order, size_t n, errcore__less_fn less, const void *key) {
    for (size_t i = n / 2; i > 0; i--) {
        errcore__sift_u32(order, i - 1, n, less, key);
    }
    for (size_t end = n; end > 1; end--) {
        uint32_t tmp = order[0];
        order[0] = order[end - 1];
        order[end - 1] = tmp;
        errcore__sift_u32(order, 0, end - 1, less, key);
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

/* The same heap sort as errcore__sort_u32, on 16-bit module indices (half the stack in validate). */
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
static size_t errcore__find_name(const errcore__names *k, const uint16_t *order, size_t count,
                                 const char *name) {
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
    errcore__fail(&d, ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, index,
                  (int64_t)index + 1);
    d.other_index = first;
    d.other_code = (int64_t)first + 1;
    d.module = (uint32_t)(index + 1);
    return d;
}

bool errcore__module_names(const void *source, errcore__name_fn name, size_t m, uint16_t *order,
                           uint16_t *first, size_t capacity, errcore__reporter *rep) {
    errcore__names k = {source, name};
    if (first && capacity >= m) {
        /* Everything at once: after sorting by (name, index), each run of equal names starts
         * with its first module. */
        size_t count = errcore__named(&k, order, 0, m);
        errcore__sort_names(&k, order, count);
        for (size_t i = 0; i < m; i++) {
            first[i] = UINT16_MAX;
        }
        for (size_t p = 1, head = 0; p < count; p++) {
            if (strcmp(name(source, order[p]), name(source, order[head])) == 0) {
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
    /* Blocks of `capacity` modules: the lowest later index with an earlier namesake, and the
     * lowest such namesake. A block can only hold a namesake of a module after its start. */
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

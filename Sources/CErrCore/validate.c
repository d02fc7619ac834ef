/* validate.c — checks a finished table (errcore_validate) and a freshly sorted one (build path). */
#include "internal.h"

/* The caller's index for sorted position i. */
static size_t errcore__origin(const uint32_t *origin, size_t i) {
    return origin ? (size_t)origin[i] : i;
}

size_t errcore__range_containing(const errcore_table *t, int64_t code) {
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
    if (lo == 0 || t->ranges[lo - 1].last < code) {
        return ERRCORE_NO_INDEX;
    }
    return lo - 1;
}

/* A pool string that must exist (and, for names, be non-empty). */
static errcore_status errcore__check_string(const errcore_table *t, uint32_t offset, bool optional,
                                            bool is_name, errcore_subject subject, size_t index,
                                            errcore_diag *diag) {
    if (offset == ERRCORE_NO_STRING && optional) {
        return ERRCORE_OK;
    }
    if ((size_t)offset >= t->strings_size) {
        errcore_status s = errcore__fail(diag, ERRCORE_E_BAD_STRING, subject, index, 0);
        if (diag) {
            diag->other_code = (int64_t)offset;
        }
        return s;
    }
    if (is_name && t->strings[offset] == '\0') {
        return errcore__fail(diag, ERRCORE_E_EMPTY_NAME, subject, index, 0);
    }
    return ERRCORE_OK;
}

static errcore_status errcore__check_strings(const errcore_table *t, const uint32_t *entry_origin,
                                             errcore_diag *diag) {
    errcore_status s = ERRCORE_OK;
    if (t->strings_size > 0 && t->strings[t->strings_size - 1] != '\0') {
        return errcore__fail(diag, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_STRINGS,
                             t->strings_size - 1, (int64_t)(t->strings_size - 1));
    }
    for (size_t i = 0; i < t->module_count && s == ERRCORE_OK; i++) {
        const errcore_module *m = &t->modules[i];
        s = errcore__check_string(t, m->name, false, true, ERRCORE_SUBJECT_MODULE, i, diag);
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, m->title_en, false, false, ERRCORE_SUBJECT_MODULE, i, diag);
        }
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, m->title_zh, true, false, ERRCORE_SUBJECT_MODULE, i, diag);
        }
        if (s == ERRCORE_OK && m->reserved != 0) {
            s = errcore__fail(diag, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_MODULE, i,
                              (int64_t)(i + 1));
        }
        if (s != ERRCORE_OK && diag) {
            diag->code = (int64_t)(i + 1);
        }
    }
    for (size_t i = 0; i < t->entry_count && s == ERRCORE_OK; i++) {
        const errcore_entry *e = &t->entries[i];
        size_t at = errcore__origin(entry_origin, i);
        s = errcore__check_string(t, e->name, false, true, ERRCORE_SUBJECT_ENTRY, at, diag);
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, e->message_en, false, false, ERRCORE_SUBJECT_ENTRY, at, diag);
        }
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, e->message_zh, true, false, ERRCORE_SUBJECT_ENTRY, at, diag);
        }
        if (s == ERRCORE_OK && e->reserved != 0) {
            s = errcore__fail(diag, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_ENTRY, at, 0);
        }
        if (s != ERRCORE_OK && diag) {
            diag->code = t->codes[i];
        }
    }
    return s;
}

static errcore_status errcore__check_ranges(const errcore_table *t, const uint32_t *range_origin,
                                            errcore_diag *diag) {
    for (size_t i = 0; i < t->range_count; i++) {
        const errcore_range *r = &t->ranges[i];
        size_t at = errcore__origin(range_origin, i);
        if (r->module == ERRCORE_MODULE_NONE || (size_t)r->module > t->module_count) {
            errcore__fail(diag, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, at, r->first);
            if (diag) {
                diag->module = r->module;
            }
            return ERRCORE_E_UNDECLARED_MODULE;
        }
        if (r->first > r->last) {
            errcore__fail(diag, ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, at, r->first);
            if (diag) {
                diag->other_code = r->last;
                diag->module = r->module;
            }
            return ERRCORE_E_EMPTY_RANGE;
        }
    }
    for (size_t i = 1; i < t->range_count; i++) {
        const errcore_range *prev = &t->ranges[i - 1];
        const errcore_range *r = &t->ranges[i];
        errcore_status s = r->first < prev->first    ? ERRCORE_E_UNSORTED
                           : r->first <= prev->last ? ERRCORE_E_RANGE_OVERLAP
                                                    : ERRCORE_OK;
        if (s != ERRCORE_OK) {
            errcore__fail(diag, s, ERRCORE_SUBJECT_RANGE, errcore__origin(range_origin, i), r->first);
            if (diag) {
                diag->other_index = errcore__origin(range_origin, i - 1);
                diag->other_code = prev->first;
                diag->module = r->module;
            }
            return s;
        }
    }
    return ERRCORE_OK;
}

static errcore_status errcore__check_entries(const errcore_table *t, const uint32_t *entry_origin,
                                             const uint32_t *range_origin, errcore_diag *diag) {
    for (size_t i = 0; i < t->entry_count; i++) {
        uint16_t module = t->entries[i].module;
        if ((size_t)module > t->module_count) {
            errcore__fail(diag, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY,
                          errcore__origin(entry_origin, i), t->codes[i]);
            if (diag) {
                diag->module = module;
            }
            return ERRCORE_E_UNDECLARED_MODULE;
        }
    }
    for (size_t i = 1; i < t->entry_count; i++) {
        errcore_status s = t->codes[i] < t->codes[i - 1]    ? ERRCORE_E_UNSORTED
                           : t->codes[i] == t->codes[i - 1] ? ERRCORE_E_DUPLICATE_CODE
                                                            : ERRCORE_OK;
        if (s != ERRCORE_OK) {
            errcore__fail(diag, s, ERRCORE_SUBJECT_ENTRY, errcore__origin(entry_origin, i),
                          t->codes[i]);
            if (diag) {
                diag->other_index = errcore__origin(entry_origin, i - 1);
                diag->other_code = t->codes[i - 1];
                diag->module = t->entries[i].module;
            }
            return s;
        }
    }
    size_t success_range = errcore__range_containing(t, t->success_code);
    if (success_range != ERRCORE_NO_INDEX) {
        errcore__fail(diag, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE,
                      errcore__origin(range_origin, success_range), t->success_code);
        if (diag) {
            diag->module = t->ranges[success_range].module;
        }
        return ERRCORE_E_SUCCESS_IN_MODULE;
    }
    for (size_t i = 0; i < t->entry_count; i++) {
        const errcore_entry *e = &t->entries[i];
        int64_t code = t->codes[i];
        size_t at = errcore__origin(entry_origin, i);
        if (code == t->success_code && e->module != ERRCORE_MODULE_NONE) {
            errcore__fail(diag, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, at, code);
            if (diag) {
                diag->module = e->module;
            }
            return ERRCORE_E_SUCCESS_IN_MODULE;
        }
        size_t r = errcore__range_containing(t, code);
        uint16_t owner = r == ERRCORE_NO_INDEX ? ERRCORE_MODULE_NONE : t->ranges[r].module;
        errcore_status s = ERRCORE_OK;
        if (e->module != ERRCORE_MODULE_NONE && owner != e->module) {
            s = ERRCORE_E_CODE_OUTSIDE_MODULE;
        } else if (e->module == ERRCORE_MODULE_NONE && owner != ERRCORE_MODULE_NONE) {
            s = ERRCORE_E_BASE_IN_MODULE_RANGE;
        }
        if (s != ERRCORE_OK) {
            errcore__fail(diag, s, ERRCORE_SUBJECT_ENTRY, at, code);
            if (diag) {
                diag->other_code = owner;
                diag->module = e->module;
            }
            return s;
        }
    }
    return ERRCORE_OK;
}

errcore_status errcore__check(const errcore_table *t, const uint32_t *entry_origin,
                              const uint32_t *range_origin, errcore_diag *diag) {
    errcore_status s = errcore__check_strings(t, entry_origin, diag);
    if (s == ERRCORE_OK) {
        s = errcore__check_ranges(t, range_origin, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_entries(t, entry_origin, range_origin, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_index(t, diag);
    }
    if (s == ERRCORE_OK) {
        errcore__fail(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    return s;
}

errcore_status errcore_validate(const errcore_table *table, errcore_diag *diag) {
    if (!table) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, 0);
    }
    if ((!table->codes || !table->entries) && table->entry_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX, 0);
    }
    if (!table->modules && table->module_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX, 0);
    }
    if (!table->ranges && table->range_count != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX, 0);
    }
    if (!table->strings && table->strings_size != 0) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_STRINGS, ERRCORE_NO_INDEX, 0);
    }
    errcore_subject over = table->entry_count > ERRCORE_MAX_COUNT      ? ERRCORE_SUBJECT_ENTRY
                           : table->module_count > ERRCORE_MAX_MODULES ? ERRCORE_SUBJECT_MODULE
                           : table->range_count > ERRCORE_MAX_COUNT    ? ERRCORE_SUBJECT_RANGE
                           : table->strings_size > ERRCORE_MAX_COUNT   ? ERRCORE_SUBJECT_STRINGS
                           : table->index_count > ERRCORE_MAX_COUNT    ? ERRCORE_SUBJECT_INDEX
                                                                       : ERRCORE_SUBJECT_NONE;
    if (over != ERRCORE_SUBJECT_NONE) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, over, ERRCORE_NO_INDEX, 0);
    }
    return errcore__check(table, NULL, NULL, diag);
}

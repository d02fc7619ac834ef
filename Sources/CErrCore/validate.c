/*
 * validate.c — checks a finished table (errcore_validate): its arrays must
 * already be in order, so each stage is one pass over them. The rules are
 * those of rules.c, shared with the definition checks of check.c.
 */
#include "internal.h"

/* A pool string that must exist (and, for names, be non-empty). */
static errcore_status errcore__check_string(const errcore_table *t, uint32_t offset, bool optional, bool is_name,
                                            errcore_subject subject, size_t index, errcore_diag *diag) {
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
    return is_name ? errcore__rule_empty_name(t->strings + offset, subject, index, 0, diag) : ERRCORE_OK;
}

static errcore_status errcore__check_strings(const errcore_table *t, errcore_diag *diag) {
    errcore_status s = ERRCORE_OK;
    if (t->strings_size > 0 && t->strings[t->strings_size - 1] != '\0') {
        return errcore__fail(diag, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_STRINGS, t->strings_size - 1,
                             (int64_t)(t->strings_size - 1));
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
            s = errcore__fail(diag, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_MODULE, i, (int64_t)(i + 1));
        }
        if (s != ERRCORE_OK && diag) {
            diag->code = (int64_t)(i + 1);
        }
    }
    for (size_t i = 0; i < t->entry_count && s == ERRCORE_OK; i++) {
        const errcore_entry *e = &t->entries[i];
        s = errcore__check_string(t, e->name, false, true, ERRCORE_SUBJECT_ENTRY, i, diag);
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, e->message_en, false, false, ERRCORE_SUBJECT_ENTRY, i, diag);
        }
        if (s == ERRCORE_OK) {
            s = errcore__check_string(t, e->message_zh, true, false, ERRCORE_SUBJECT_ENTRY, i, diag);
        }
        if (s == ERRCORE_OK && e->reserved != 0) {
            s = errcore__fail(diag, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_ENTRY, i, 0);
        }
        if (s != ERRCORE_OK && diag) {
            diag->code = t->codes[i];
        }
    }
    return s == ERRCORE_OK ? errcore__check_table_languages(t, diag) : s;
}

/* Stage 2: module names from the pool (stage 1 proved every offset good and every name non-empty). */
static const char *errcore__table_module_name(const void *source, size_t i) {
    const errcore_table *t = source;
    return t->strings + t->modules[i].name;
}

/* Modules whose names stage 2 sorts at a time: 512 bytes of stack (see errcore_validate). */
#define ERRCORE__NAME_BLOCK 256

static errcore_status errcore__check_module_names(const errcore_table *t, errcore_diag *diag) {
    uint16_t block[ERRCORE__NAME_BLOCK];
    errcore__reporter rep = errcore__reporter_first(diag);
    (void)errcore__module_names_blocks(t, errcore__table_module_name, t->module_count, block, ERRCORE__NAME_BLOCK,
                                       &rep);
    return rep.status;
}

/* Stage 4's and stage 6's extra rule on a finished table: element i must not sort before i - 1. */
static errcore_status errcore__unsorted(errcore_diag *diag, errcore_subject subject, size_t i, int64_t code,
                                        int64_t previous, uint32_t module) {
    errcore__fail(diag, ERRCORE_E_UNSORTED, subject, i, code);
    if (diag) {
        diag->other_index = i - 1;
        diag->other_code = previous;
        diag->module = module;
    }
    return ERRCORE_E_UNSORTED;
}

static errcore_status errcore__check_ranges(const errcore_table *t, errcore_diag *diag) {
    errcore_status s = ERRCORE_OK;
    for (size_t i = 0; i < t->range_count && s == ERRCORE_OK; i++) {
        s = errcore__rule_range_module(&t->ranges[i], i, t->module_count, diag);
        if (s == ERRCORE_OK) {
            s = errcore__rule_range_empty(&t->ranges[i], i, diag);
        }
    }
    /* Disjoint and in order: each range starts after the previous one ends. */
    for (size_t i = 1; i < t->range_count && s == ERRCORE_OK; i++) {
        const errcore_range *prev = &t->ranges[i - 1];
        const errcore_range *r = &t->ranges[i];
        s = r->first < prev->first ? errcore__unsorted(diag, ERRCORE_SUBJECT_RANGE, i, r->first, prev->first, r->module)
                                   : errcore__rule_overlap(r, i, prev, i - 1, diag);
    }
    return s;
}

static errcore_status errcore__check_entries(const errcore_table *t, errcore_diag *diag) {
    errcore_status s = ERRCORE_OK;
    for (size_t i = 0; i < t->entry_count && s == ERRCORE_OK; i++) {
        s = errcore__rule_entry_module(t->codes[i], t->entries[i].module, i, t->module_count, diag);
    }
    /* Strictly ascending: the first of a run of equal codes is the one before. */
    for (size_t i = 1; i < t->entry_count && s == ERRCORE_OK; i++) {
        s = t->codes[i] < t->codes[i - 1]
                ? errcore__unsorted(diag, ERRCORE_SUBJECT_ENTRY, i, t->codes[i], t->codes[i - 1], t->entries[i].module)
                : errcore__rule_duplicate_code(t->codes[i], t->entries[i].module, i, t->codes[i - 1], i - 1, diag);
    }
    size_t success_range = errcore__range_containing(t, t->success_code);
    if (s == ERRCORE_OK && success_range != ERRCORE_NO_INDEX) {
        s = errcore__rule_success_range(t->success_code, &t->ranges[success_range], success_range, diag);
    }
    /* Ranges are disjoint here, so the one range holding a code decides both questions. */
    for (size_t i = 0; i < t->entry_count && s == ERRCORE_OK; i++) {
        size_t r = errcore__range_containing(t, t->codes[i]);
        uint16_t owner = r == ERRCORE_NO_INDEX ? ERRCORE_MODULE_NONE : t->ranges[r].module;
        uint16_t module = t->entries[i].module;
        s = errcore__rule_placement(t->codes[i], module, i, t->success_code, owner == module, owner, diag);
    }
    return s;
}

static errcore_status errcore__check(const errcore_table *t, errcore_diag *diag) {
    errcore_status s = errcore__check_strings(t, diag);
    if (s == ERRCORE_OK) {
        s = errcore__check_module_names(t, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_ranges(t, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_entries(t, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_index(t, diag);
    }
    if (s == ERRCORE_OK) {
        s = errcore__check_front(t, diag);
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
    return errcore__check(table, diag);
}

/*
 * reference.h — the slow, obviously-correct model of CErrCore that the C
 * tests (Tests/CErrCoreTests/c) and the libFuzzer targets (fuzz/) both
 * compare the core against: linear-scan classification, the stage of a
 * finished table's first problem, every problem of a catalog definition,
 * and the classification index, each by brute force (all pairs, no sort,
 * no search). Header-only, no harness: functions return what they found and
 * the caller asserts.
 *
 * Validation stages, in the order errcore_table.h documents its checks
 * (a rejected input must be reported at its earliest stage):
 *   0 NULL argument / count overflow
 *   1 strings: pool not NUL-terminated, bad offset, empty name, reserved field set
 *   2 two modules with the same name
 *   3 each range: undeclared module (0 or > module_count), first > last
 *   4 range order: not ascending by first, or two ranges overlap
 *   5 an entry names an undeclared module
 *   6 entry codes: not strictly ascending / a duplicate
 *   7 the success code lies in a range
 *   8 each entry: success code with a module, module code outside its
 *     module's ranges, base code inside a range
 *   9 the classification index: NULL arrays with a count, first key not
 *     INT64_MIN, keys not ascending, a change point missing, a wrong slot
 *  10 the exact-match front: NULL arrays, a bad shape, a displacement past
 *     the slots, a table code not at its position, a slot answering for a
 *     code that is not a table code or with the wrong class, a wrong gap
 *  11 no problem
 */
#ifndef ERRCORE_TEST_REFERENCE_H
#define ERRCORE_TEST_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CErrCore.h"

/*
 * The reference's own comparisons are not what a fuzzer should learn from,
 * and tracing them took most of a fuzz run's time: clang leaves them out.
 */
#if defined(__clang__)
#define REF_FUNC __attribute__((no_sanitize("coverage"))) static inline
#else
#define REF_FUNC static inline
#endif

enum { REF_STAGE_INDEX = 9, REF_STAGE_FRONT = 10, REF_STAGE_NONE = 11 };

/* The stage a status (with its subject) belongs to; -1 for a status no check of a table produces. */
REF_FUNC int ref_stage_of(errcore_status s, errcore_subject subject) {
    switch (s) {
    case ERRCORE_OK: return REF_STAGE_NONE;
    case ERRCORE_E_NULL_ARGUMENT:
        return subject == ERRCORE_SUBJECT_INDEX   ? REF_STAGE_INDEX
               : subject == ERRCORE_SUBJECT_FRONT ? REF_STAGE_FRONT
                                                  : 0;
    case ERRCORE_E_COUNT_OVERFLOW: return 0;
    case ERRCORE_E_BAD_INDEX: return REF_STAGE_INDEX;
    case ERRCORE_E_BAD_FRONT: return REF_STAGE_FRONT;
    case ERRCORE_E_BAD_STRING:
    case ERRCORE_E_EMPTY_NAME:
    case ERRCORE_E_RESERVED_NONZERO:
    case ERRCORE_E_BAD_LANGUAGE_TAG:
    case ERRCORE_E_DUPLICATE_LANGUAGE: return 1;
    case ERRCORE_E_DUPLICATE_MODULE_NAME: return 2;
    case ERRCORE_E_EMPTY_RANGE: return 3;
    case ERRCORE_E_UNDECLARED_MODULE: return subject == ERRCORE_SUBJECT_RANGE ? 3 : 5;
    case ERRCORE_E_RANGE_OVERLAP: return 4;
    case ERRCORE_E_UNSORTED: return subject == ERRCORE_SUBJECT_RANGE ? 4 : 6;
    case ERRCORE_E_DUPLICATE_CODE: return 6;
    case ERRCORE_E_SUCCESS_IN_MODULE: return subject == ERRCORE_SUBJECT_RANGE ? 7 : 8;
    case ERRCORE_E_CODE_OUTSIDE_MODULE:
    case ERRCORE_E_BASE_IN_MODULE_RANGE: return 8;
    case ERRCORE_E_BUFFER_TOO_SMALL:
    case ERRCORE_E_MISALIGNED:
    case ERRCORE_E_DUPLICATE_STRING: /* string tables' statuses (errcore_strings.h) */
    case ERRCORE_E_UNDECLARED_SPACE:
    case ERRCORE_E_UNKNOWN_CODE:
    case ERRCORE_E_BAD_STRINGS: return -1;
    }
    return -1;
}

REF_FUNC bool ref_in_range(const errcore_range *r, int64_t code) {
    return r->first <= code && code <= r->last;
}

REF_FUNC bool ref_overlap(const errcore_range *a, const errcore_range *b) {
    return a->first <= b->last && b->first <= a->last;
}

/* A range the later stages use: it names a declared module and is not empty. */
REF_FUNC bool ref_range_valid(const errcore_range *g, size_t module_count) {
    return g->module != 0 && g->module <= module_count && g->first <= g->last;
}

/*
 * A catalog as flat arrays: a definition's (input order) or a finished
 * table's. module_names may be NULL (names are then not compared), and so
 * may single names (no name to compare).
 */
typedef struct ref_catalog {
    const int64_t *codes;
    const uint16_t *entry_module;
    const uint8_t *entry_flags;
    size_t n;
    const char *const *module_names;
    size_t m;
    const errcore_range *ranges;
    size_t r;
    int64_t success;
} ref_catalog;

/* Whether range a sorts before range b (by first code, then index). */
REF_FUNC bool ref_sorts_before(const errcore_range *ranges, size_t a, size_t b) {
    return ranges[a].first < ranges[b].first || (ranges[a].first == ranges[b].first && a < b);
}

/*
 * The valid range holding `code`: of all that contain it, the one reaching
 * furthest (greatest last; ties: the one that sorts first). SIZE_MAX when none.
 */
REF_FUNC size_t ref_holder(const ref_catalog *c, int64_t code) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < c->r; i++) {
        const errcore_range *g = &c->ranges[i];
        if (!ref_range_valid(g, c->m) || !ref_in_range(g, code)) {
            continue;
        }
        if (best == SIZE_MAX || g->last > c->ranges[best].last ||
            (g->last == c->ranges[best].last && ref_sorts_before(c->ranges, i, best))) {
            best = i;
        }
    }
    return best;
}

/* The module owning `code` (0 when none). */
REF_FUNC uint16_t ref_owner(const ref_catalog *c, int64_t code) {
    size_t h = ref_holder(c, code);
    return h == SIZE_MAX ? 0 : c->ranges[h].module;
}

/* Whether a valid range of `module` contains `code`. */
REF_FUNC bool ref_module_owns(const ref_catalog *c, uint16_t module, int64_t code) {
    for (size_t i = 0; i < c->r; i++) {
        if (c->ranges[i].module == module && ref_range_valid(&c->ranges[i], c->m) &&
            ref_in_range(&c->ranges[i], code)) {
            return true;
        }
    }
    return false;
}

/*
 * The class of `code` by linear scan over a valid catalog: the entry with
 * that code (entry bits: its position in c's arrays), else the module whose
 * range holds it, with the success code as success.
 */
REF_FUNC errcore_class ref_class(const ref_catalog *c, int64_t code) {
    uint64_t entry = ERRCORE_NO_ENTRY, module = 0, flags = 0, tier = ERRCORE_TIER_UNKNOWN;
    for (size_t i = 0; i < c->n; i++) {
        if (c->codes[i] == code) {
            entry = i;
            module = c->entry_module[i];
            flags = c->entry_flags ? c->entry_flags[i] : 0;
            tier = module ? ERRCORE_TIER_MODULE : ERRCORE_TIER_BASE;
            break;
        }
    }
    if (entry == ERRCORE_NO_ENTRY) {
        module = ref_owner(c, code);
        tier = module ? ERRCORE_TIER_MODULE : ERRCORE_TIER_UNKNOWN;
    }
    if (code == c->success) {
        tier = ERRCORE_TIER_SUCCESS;
        module = 0;
    }
    return entry | (module << 32) | (flags << 48) | (tier << 56);
}

/* ---- Flat views --------------------------------------------------------------------------- */

/* A ref_catalog with the arrays it owns (malloc). */
typedef struct ref_flat {
    ref_catalog c;
    int64_t *codes;
    uint16_t *modules;
    uint8_t *flags;
    const char **names;
} ref_flat;

REF_FUNC void ref_flat_free(ref_flat *f) {
    free(f->codes);
    free(f->modules);
    free(f->flags);
    free(f->names);
    memset(f, 0, sizeof *f);
}

REF_FUNC bool ref_flat_alloc(ref_flat *f, size_t n, size_t m) {
    memset(f, 0, sizeof *f);
    f->codes = malloc((n ? n : 1) * sizeof *f->codes);
    f->modules = malloc((n ? n : 1) * sizeof *f->modules);
    f->flags = malloc((n ? n : 1) * sizeof *f->flags);
    f->names = malloc((m ? m : 1) * sizeof *f->names);
    if (!f->codes || !f->modules || !f->flags || !f->names) {
        ref_flat_free(f);
        return false;
    }
    f->c.codes = f->codes;
    f->c.entry_module = f->modules;
    f->c.entry_flags = f->flags;
    f->c.module_names = f->names;
    f->c.n = n;
    f->c.m = m;
    return true;
}

/* A definition's arrays (its arrays must be readable: stage 0 passed). */
REF_FUNC bool ref_flat_of_def(ref_flat *f, const errcore_catalog_def *def) {
    if (!ref_flat_alloc(f, def->entry_count, def->module_count)) {
        return false;
    }
    for (size_t i = 0; i < def->entry_count; i++) {
        f->codes[i] = def->entries[i].code;
        f->modules[i] = def->entries[i].module;
        f->flags[i] = def->entries[i].flags;
    }
    for (size_t i = 0; i < def->module_count; i++) {
        const char *name = def->modules[i].name;
        f->names[i] = name && name[0] ? name : NULL;
    }
    f->c.ranges = def->ranges;
    f->c.r = def->range_count;
    f->c.success = def->success_code;
    return true;
}

/* A finished table's arrays; a module name whose offset lies outside the pool counts as none. */
REF_FUNC bool ref_flat_of_table(ref_flat *f, const errcore_table *t) {
    if (!ref_flat_alloc(f, t->entry_count, t->module_count)) {
        return false;
    }
    for (size_t i = 0; i < t->entry_count; i++) {
        f->codes[i] = t->codes[i];
        f->modules[i] = t->entries[i].module;
        f->flags[i] = t->entries[i].flags;
    }
    for (size_t i = 0; i < t->module_count; i++) {
        uint32_t at = t->modules[i].name;
        bool ok = t->strings && (size_t)at < t->strings_size && t->strings[t->strings_size - 1] == '\0';
        f->names[i] = ok && t->strings[at] ? t->strings + at : NULL;
    }
    f->c.ranges = t->ranges;
    f->c.r = t->range_count;
    f->c.success = t->success_code;
    return true;
}

/* ---- A finished table: the stage of its first problem --------------------------------------- */

/*
 * Stages 2 ... 8 of a finished table whose strings are good (stage 1
 * passed), by brute force; codes and ranges must also be ascending here.
 */
REF_FUNC int ref_table_stage(const ref_catalog *c) {
    for (size_t j = 0; c->module_names && j < c->m; j++) {
        for (size_t i = 0; i < j; i++) {
            if (c->module_names[i] && c->module_names[j] && strcmp(c->module_names[i], c->module_names[j]) == 0) {
                return 2;
            }
        }
    }
    for (size_t i = 0; i < c->r; i++) {
        if (!ref_range_valid(&c->ranges[i], c->m)) {
            return 3;
        }
    }
    for (size_t i = 0; i < c->r; i++) {
        if (i > 0 && c->ranges[i].first < c->ranges[i - 1].first) {
            return 4;
        }
        for (size_t j = i + 1; j < c->r; j++) {
            if (ref_overlap(&c->ranges[i], &c->ranges[j])) {
                return 4;
            }
        }
    }
    for (size_t i = 0; i < c->n; i++) {
        if (c->entry_module[i] > c->m) {
            return 5;
        }
    }
    for (size_t i = 0; i < c->n; i++) {
        if (i > 0 && c->codes[i] < c->codes[i - 1]) {
            return 6;
        }
        for (size_t j = i + 1; j < c->n; j++) {
            if (c->codes[i] == c->codes[j]) {
                return 6;
            }
        }
    }
    for (size_t i = 0; i < c->r; i++) {
        if (ref_in_range(&c->ranges[i], c->success)) {
            return 7;
        }
    }
    for (size_t i = 0; i < c->n; i++) {
        uint16_t module = c->entry_module[i];
        if (c->codes[i] == c->success) {
            if (module != 0) {
                return 8;
            }
        } else if (module != 0 ? !ref_module_owns(c, module, c->codes[i]) : ref_owner(c, c->codes[i]) != 0) {
            return 8;
        }
    }
    return REF_STAGE_NONE;
}

/*
 * Whether the diagnostic of a finished table's rejection at stages 2 ... 8
 * names elements that really are at fault. NULL when it does, else why not.
 */
REF_FUNC const char *ref_table_diag_fault(const errcore_diag *d, const ref_catalog *c) {
    size_t n = c->n, m = c->m, r = c->r;
    switch (d->status) {
    case ERRCORE_E_DUPLICATE_MODULE_NAME:
        if (d->subject != ERRCORE_SUBJECT_MODULE || d->index >= m || d->other_index >= d->index) {
            return "duplicate module name: indices";
        }
        if (!c->module_names || !c->module_names[d->index] || !c->module_names[d->other_index] ||
            strcmp(c->module_names[d->index], c->module_names[d->other_index]) != 0) {
            return "duplicate module name: names differ";
        }
        return d->code == (int64_t)d->index + 1 && d->other_code == (int64_t)d->other_index + 1
                   ? NULL
                   : "duplicate module name: ids";
    case ERRCORE_E_UNDECLARED_MODULE:
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            if (d->index >= r)
                return "undeclared: range index";
            uint16_t mod = c->ranges[d->index].module;
            if (mod != 0 && mod <= m)
                return "undeclared: range module is declared";
            return d->module == mod ? NULL : "undeclared: diag module";
        }
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n)
            return "undeclared: entry index";
        if (c->entry_module[d->index] <= m)
            return "undeclared: entry module is declared";
        return d->module == c->entry_module[d->index] && d->code == c->codes[d->index] ? NULL
                                                                                       : "undeclared: diag module/code";
    case ERRCORE_E_EMPTY_RANGE:
        if (d->subject != ERRCORE_SUBJECT_RANGE || d->index >= r)
            return "empty range: index";
        return c->ranges[d->index].first > c->ranges[d->index].last ? NULL : "empty range: not empty";
    case ERRCORE_E_RANGE_OVERLAP:
        if (d->subject != ERRCORE_SUBJECT_RANGE || d->index >= r || d->other_index >= r || d->index == d->other_index) {
            return "overlap: indices";
        }
        return ref_overlap(&c->ranges[d->index], &c->ranges[d->other_index]) ? NULL : "overlap: disjoint";
    case ERRCORE_E_UNSORTED:
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            if (d->index >= r || d->other_index + 1 != d->index)
                return "unsorted: range indices";
            return c->ranges[d->index].first < c->ranges[d->other_index].first ? NULL : "unsorted: in order";
        }
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n || d->other_index + 1 != d->index) {
            return "unsorted: entry indices";
        }
        return c->codes[d->index] < c->codes[d->other_index] ? NULL : "unsorted: codes in order";
    case ERRCORE_E_DUPLICATE_CODE:
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n || d->other_index >= n || d->index <= d->other_index) {
            return "duplicate code: indices";
        }
        return c->codes[d->index] == c->codes[d->other_index] && d->code == c->codes[d->index] &&
                       d->other_code == c->codes[d->other_index]
                   ? NULL
                   : "duplicate code: codes differ";
    case ERRCORE_E_SUCCESS_IN_MODULE:
        if (d->code != c->success)
            return "success in module: code";
        if (d->subject == ERRCORE_SUBJECT_RANGE) {
            if (d->index >= r || !ref_in_range(&c->ranges[d->index], c->success)) {
                return "success in module: range";
            }
            return d->module == c->ranges[d->index].module ? NULL : "success in module: range module";
        }
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n)
            return "success in module: index";
        if (c->codes[d->index] != c->success || c->entry_module[d->index] == 0) {
            return "success in module: entry";
        }
        return d->module == c->entry_module[d->index] ? NULL : "success in module: entry module";
    case ERRCORE_E_CODE_OUTSIDE_MODULE:
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n)
            return "outside: index";
        if (c->entry_module[d->index] == 0 || ref_module_owns(c, c->entry_module[d->index], c->codes[d->index])) {
            return "outside: entry is in its module";
        }
        if (d->code != c->codes[d->index] || d->module != c->entry_module[d->index]) {
            return "outside: code/module";
        }
        return d->other_code == ref_owner(c, c->codes[d->index]) ? NULL : "outside: owner";
    case ERRCORE_E_BASE_IN_MODULE_RANGE:
        if (d->subject != ERRCORE_SUBJECT_ENTRY || d->index >= n)
            return "base in range: index";
        if (c->entry_module[d->index] != 0)
            return "base in range: entry has a module";
        return ref_owner(c, c->codes[d->index]) != 0 && d->other_code == ref_owner(c, c->codes[d->index])
                   ? NULL
                   : "base in range: owner";
    default: return NULL;
    }
}

/* ---- A definition: every problem ----------------------------------------------------------- */

/* Appends a problem to out[0 ... cap-1] (counting past cap). */
REF_FUNC void ref_push(errcore_diag *out, size_t cap, size_t *count, errcore_status status, errcore_subject subject,
                       size_t index, size_t other_index, int64_t code, int64_t other_code, uint32_t module) {
    if (*count < cap) {
        errcore_diag *d = &out[*count];
        memset(d, 0, sizeof *d);
        d->status = status;
        d->subject = subject;
        d->index = index;
        d->other_index = other_index;
        d->code = code;
        d->other_code = other_code;
        d->module = module;
    }
    (*count)++;
}

REF_FUNC size_t ref_text_bytes(const char *text) {
    return text ? strlen(text) + 1 : 0;
}

/*
 * Every problem errcore_check_catalog() must report for `def` (given
 * scratch of the right size), in its documented order, by brute force:
 * writes the first `cap` into out[] and returns how many there are.
 */
REF_FUNC size_t ref_def_problems(const errcore_catalog_def *def, errcore_diag *out, size_t cap) {
    const size_t NO = ERRCORE_NO_INDEX;
    size_t count = 0;
    const errcore_subject subjects[3] = {ERRCORE_SUBJECT_ENTRY, ERRCORE_SUBJECT_MODULE, ERRCORE_SUBJECT_RANGE};
    const bool null_array[3] = {!def->entries && def->entry_count, !def->modules && def->module_count,
                                !def->ranges && def->range_count};
    const bool over[3] = {def->entry_count > ERRCORE_MAX_COUNT, def->module_count > ERRCORE_MAX_MODULES,
                          def->range_count > ERRCORE_MAX_COUNT};
    for (int k = 0; k < 3; k++) {
        if (null_array[k]) {
            ref_push(out, cap, &count, ERRCORE_E_NULL_ARGUMENT, subjects[k], NO, NO, 0, 0, 0);
        }
    }
    for (int k = 0; k < 3; k++) {
        if (over[k]) {
            ref_push(out, cap, &count, ERRCORE_E_COUNT_OVERFLOW, subjects[k], NO, NO, 0, 0, 0);
        }
    }
    if (count) {
        return count;
    }
    const errcore_entry_def *e = def->entries;
    const errcore_module_def *mods = def->modules;
    const errcore_range *g = def->ranges;
    size_t n = def->entry_count, m = def->module_count, r = def->range_count;
    uint64_t pool = 1;
    for (size_t i = 0; i < m; i++) {
        if (!mods[i].name) {
            ref_push(out, cap, &count, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, i, NO, (int64_t)i + 1, 0, 0);
        }
        pool += ref_text_bytes(mods[i].name) + ref_text_bytes(mods[i].title_en) + ref_text_bytes(mods[i].title_zh);
    }
    for (size_t i = 0; i < n; i++) {
        if (!e[i].name) {
            ref_push(out, cap, &count, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, i, NO, e[i].code, 0, 0);
        }
        pool += ref_text_bytes(e[i].name) + ref_text_bytes(e[i].message_en) + ref_text_bytes(e[i].message_zh);
    }
    if (pool > ERRCORE_MAX_COUNT) {
        ref_push(out, cap, &count, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_STRINGS, NO, NO, 0, 0, 0);
    }
    /* 1: empty names. */
    for (size_t i = 0; i < m; i++) {
        if (mods[i].name && !mods[i].name[0]) {
            ref_push(out, cap, &count, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_MODULE, i, NO, (int64_t)i + 1, 0, 0);
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (e[i].name && !e[i].name[0]) {
            ref_push(out, cap, &count, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_ENTRY, i, NO, e[i].code, 0, 0);
        }
    }
    /* 2: a module named like an earlier one, against the first with that name. */
    for (size_t j = 0; j < m; j++) {
        if (!mods[j].name || !mods[j].name[0]) {
            continue;
        }
        for (size_t i = 0; i < j; i++) {
            if (mods[i].name && strcmp(mods[i].name, mods[j].name) == 0) {
                ref_push(out, cap, &count, ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, j, i,
                         (int64_t)j + 1, (int64_t)i + 1, (uint32_t)(j + 1));
                break;
            }
        }
    }
    /* 3: each range. */
    for (size_t i = 0; i < r; i++) {
        if (g[i].module == 0 || g[i].module > m) {
            ref_push(out, cap, &count, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, i, NO, g[i].first, 0,
                     g[i].module);
        }
        if (g[i].first > g[i].last) {
            ref_push(out, cap, &count, ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, i, NO, g[i].first, g[i].last,
                     g[i].module);
        }
    }
    /* 4: of the valid ranges sorting before i that it overlaps, the one reaching furthest. */
    for (size_t i = 0; i < r; i++) {
        if (!ref_range_valid(&g[i], m)) {
            continue;
        }
        size_t best = NO;
        for (size_t j = 0; j < r; j++) {
            if (j == i || !ref_range_valid(&g[j], m) || !ref_sorts_before(g, j, i) || !ref_overlap(&g[i], &g[j])) {
                continue;
            }
            if (best == NO || g[j].last > g[best].last || (g[j].last == g[best].last && ref_sorts_before(g, j, best))) {
                best = j;
            }
        }
        if (best != NO) {
            ref_push(out, cap, &count, ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, i, best, g[i].first,
                     g[best].first, g[i].module);
        }
    }
    /* 5: entries naming an undeclared module. */
    for (size_t i = 0; i < n; i++) {
        if (e[i].module > m) {
            ref_push(out, cap, &count, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, i, NO, e[i].code, 0,
                     e[i].module);
        }
    }
    /* 6: a code an earlier entry has, against the first entry with it. */
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < j; i++) {
            if (e[i].code == e[j].code) {
                ref_push(out, cap, &count, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, j, i, e[j].code, e[i].code,
                         e[j].module);
                break;
            }
        }
    }
    /* 7: valid ranges holding the success code. */
    for (size_t i = 0; i < r; i++) {
        if (ref_range_valid(&g[i], m) && ref_in_range(&g[i], def->success_code)) {
            ref_push(out, cap, &count, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, i, NO, def->success_code, 0,
                     g[i].module);
        }
    }
    /* 8: where each entry with a declared module lies. */
    ref_catalog c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.ranges = g;
    c.r = r;
    c.success = def->success_code;
    for (size_t i = 0; i < n; i++) {
        uint16_t module = e[i].module;
        int64_t code = e[i].code;
        if (module > m) {
            continue;
        }
        if (code == def->success_code) {
            if (module != 0) {
                ref_push(out, cap, &count, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, i, NO, code, 0, module);
            }
            continue;
        }
        uint16_t owner = ref_owner(&c, code);
        if (module != 0 && !ref_module_owns(&c, module, code)) {
            ref_push(out, cap, &count, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, i, NO, code, owner,
                     module);
        } else if (module == 0 && owner != 0) {
            ref_push(out, cap, &count, ERRCORE_E_BASE_IN_MODULE_RANGE, ERRCORE_SUBJECT_ENTRY, i, NO, code, owner, 0);
        }
    }
    return count;
}

/* Whether two diagnostics are equal field by field. */
REF_FUNC bool ref_same_diag(const errcore_diag *a, const errcore_diag *b) {
    return a->status == b->status && a->subject == b->subject && a->index == b->index &&
           a->other_index == b->other_index && a->code == b->code && a->other_code == b->other_code &&
           a->module == b->module;
}

/* Orders diagnostics field by field (for comparing lists as multisets with qsort). */
REF_FUNC int ref_diag_cmp(const void *pa, const void *pb) {
    const errcore_diag *a = pa, *b = pb;
#define REF_CMP(f)                                                                                                     \
    if (a->f != b->f) {                                                                                                \
        return a->f < b->f ? -1 : 1;                                                                                   \
    }
    REF_CMP(status)
    REF_CMP(subject)
    REF_CMP(index)
    REF_CMP(other_index)
    REF_CMP(code)
    REF_CMP(other_code)
    REF_CMP(module)
#undef REF_CMP
    return 0;
}

/* ---- The classification index --------------------------------------------------------------- */

/* Whether the class of every code in [lo, hi] is `want` (classes change only at these points). */
REF_FUNC bool ref_constant_on(const errcore_table *t, const ref_catalog *c, int64_t lo, int64_t hi,
                              errcore_class want) {
    if (ref_class(c, lo) != want) {
        return false;
    }
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
        int64_t points[2] = {a, b == INT64_MAX ? a : b + 1};
        for (int k = 0; k < 2; k++) {
            if (points[k] > lo && points[k] <= hi && ref_class(c, points[k]) != want) {
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
 * code up to the next key. `c` is the table as flat arrays (ref_flat_of_table).
 */
REF_FUNC bool ref_index_ok(const errcore_table *t, const ref_catalog *c) {
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
        if (t->index_slots[i].hit != ref_class(c, key)) {
            return false;
        }
        if (key == INT64_MAX) {
            continue;
        }
        int64_t hi = i + 1 < t->index_count ? t->index_keys[i + 1] - 1 : INT64_MAX;
        if (key + 1 <= hi && !ref_constant_on(t, c, key + 1, hi, t->index_slots[i].gap)) {
            return false;
        }
    }
    return true;
}

/* ---- The exact-match front --------------------------------------------------------------- */

/* The documented hash (errcore_table.h), written out here rather than taken from the core. */
REF_FUNC size_t ref_front_position(const errcore_front *f, int64_t code) {
    uint64_t hi = ((uint64_t)code * f->multiplier) >> 32;
    return (size_t)((hi ^ f->buckets[hi >> f->bucket_shift]) & f->slot_mask);
}

/*
 * The position of `code` among a valid table's entry codes (c from
 * ref_flat_of_table: ascending), or SIZE_MAX. A plain bisection: the front
 * checks below look up every slot's key, which a linear scan made the
 * slowest part of a fuzz run.
 */
REF_FUNC size_t ref_table_entry(const ref_catalog *c, int64_t code) {
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->codes[mid] < code) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < c->n && c->codes[lo] == code ? lo : SIZE_MAX;
}

/* Whether `code` is a table code: an entry code or the success code (c: a valid table's, as above). */
REF_FUNC bool ref_is_table_code(const ref_catalog *c, int64_t code) {
    return code == c->success || ref_table_entry(c, code) != SIZE_MAX;
}

/*
 * ref_class() of a table code, found by bisection: entry i's module, flags
 * and tier (success for the success code), or the success class alone.
 */
REF_FUNC errcore_class ref_table_code_class(const ref_catalog *c, int64_t code) {
    size_t i = ref_table_entry(c, code);
    uint64_t entry = i == SIZE_MAX ? ERRCORE_NO_ENTRY : i;
    uint64_t module = i == SIZE_MAX ? 0 : c->entry_module[i];
    uint64_t flags = i == SIZE_MAX || !c->entry_flags ? 0 : c->entry_flags[i];
    uint64_t tier = code == c->success ? ERRCORE_TIER_SUCCESS
                    : i == SIZE_MAX    ? ERRCORE_TIER_UNKNOWN
                    : module           ? ERRCORE_TIER_MODULE
                                       : ERRCORE_TIER_BASE;
    module = code == c->success ? 0 : module;
    return entry | (module << 32) | (flags << 48) | (tier << 56);
}

/* The class of a code that is not a table code: the module whose range holds it, or unknown. */
REF_FUNC errcore_class ref_miss_class(const ref_catalog *c, int64_t code) {
    uint16_t module = ref_owner(c, code);
    return module ? (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)module << 32) | ((uint64_t)ERRCORE_TIER_MODULE << 56)
                  : ERRCORE_CLASS_UNKNOWN;
}

/* ref_miss_class() for a valid table (ranges ascending and disjoint), by bisection. */
REF_FUNC errcore_class ref_table_miss_class(const ref_catalog *c, int64_t code) {
    size_t lo = 0, hi = c->r; /* the first range starting after code */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->ranges[mid].first <= code) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0 || c->ranges[lo - 1].last < code) {
        return ERRCORE_CLASS_UNKNOWN;
    }
    return (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)c->ranges[lo - 1].module << 32) |
           ((uint64_t)ERRCORE_TIER_MODULE << 56);
}

/* Whether the front's slot count and bucket shift are usable. */
REF_FUNC bool ref_front_shape_ok(const errcore_front *f) {
    uint64_t count = (uint64_t)f->slot_mask + 1u;
    return (count & (count - 1u)) == 0 && f->bucket_shift <= 32;
}

/* Whether slot s is right: a slot its own key hashes to holds a table code with that code's class. */
REF_FUNC bool ref_front_slot_ok(const errcore_front *f, const ref_catalog *c, size_t s) {
    const errcore_front_slot *slot = &f->slots[s];
    if (ref_front_position(f, slot->key) != s) {
        return true; /* no code reaches this slot and matches its key */
    }
    return ref_is_table_code(c, slot->key) && slot->key_class == ref_table_code_class(c, slot->key);
}

/*
 * Whether the gap table's shape is right: at least one stretch, all of them
 * within int64, together covering every range.
 */
REF_FUNC bool ref_gap_shape_ok(const errcore_front *f, const ref_catalog *c) {
    unsigned k = f->gap_shift;
    if (k > 63 || f->gap_count == 0) {
        return false;
    }
    /* The last code covered: gap_base + gap_count * 2^k - 1, which must not pass INT64_MAX. */
    uint64_t room = (uint64_t)INT64_MAX - (uint64_t)f->gap_base; /* codes after gap_base */
    uint64_t width = (uint64_t)1 << k;
    if (width - 1u > room || (uint64_t)f->gap_count - 1u > (room - (width - 1u)) / width) {
        return false;
    }
    uint64_t covered = ((uint64_t)f->gap_count - 1u) * width + (width - 1u);
    for (size_t i = 0; i < c->r; i++) {
        if (c->ranges[i].first < f->gap_base || (uint64_t)c->ranges[i].last - (uint64_t)f->gap_base > covered) {
            return false;
        }
    }
    return true;
}

/* Whether stretch i of a well-shaped gap table is right, from every change point of every range. */
REF_FUNC bool ref_gap_ok(const errcore_front *f, const ref_catalog *c, size_t i) {
    const errcore_front_gap *g = &f->gaps[i];
    if (i == f->gap_count) {
        return g->below == ERRCORE_CLASS_UNKNOWN && g->above == ERRCORE_CLASS_UNKNOWN;
    }
    int64_t start = (int64_t)((uint64_t)f->gap_base + ((uint64_t)i << f->gap_shift));
    int64_t stop = (int64_t)((uint64_t)start + (((uint64_t)1 << f->gap_shift) - 1u));
    if (g->split < start || g->split > stop) {
        return false;
    }
    for (size_t r = 0; r < c->r; r++) {
        int64_t points[2] = {c->ranges[r].first, c->ranges[r].last};
        for (int k = 0; k < 2; k++) {
            if (k == 1 && points[1] == INT64_MAX) {
                continue;
            }
            int64_t p = k == 0 ? points[0] : points[1] + 1;
            if (p > start && p <= stop && p != g->split) {
                return false; /* the class changes inside the stretch somewhere else */
            }
        }
    }
    return (g->split == start || ref_miss_class(c, start) == g->below) && ref_miss_class(c, g->split) == g->above;
}

/* Whether a table's front (stage 10) is right, by brute force. `c` is the table as flat arrays. */
REF_FUNC bool ref_front_ok(const errcore_table *t, const ref_catalog *c) {
    const errcore_front *f = &t->front;
    if (!f->slots) {
        return true;
    }
    if (!f->buckets || !ref_front_shape_ok(f)) {
        return false;
    }
    for (size_t i = 0; i <= c->n; i++) {
        int64_t code = i < c->n ? c->codes[i] : c->success;
        if (f->slots[ref_front_position(f, code)].key != code) {
            return false;
        }
    }
    for (size_t s = 0; s <= f->slot_mask; s++) {
        if (!ref_front_slot_ok(f, c, s)) {
            return false;
        }
    }
    if (!f->gaps) {
        return true;
    }
    if (!ref_gap_shape_ok(f, c)) {
        return false;
    }
    /*
     * Every stretch, by the rule of ref_gap_ok() but in one pass: a change
     * point (a range's first code, the code after its last) that falls in
     * a stretch (after its start) must be that stretch's split, and the
     * classes are then read at the start and at the split. Stretches with
     * no change point inside need split == start or the class at start.
     */
    const errcore_front_gap *g = f->gaps;
    for (size_t r = 0; r < c->r; r++) {
        for (int k = 0; k < 2; k++) {
            if (k == 1 && c->ranges[r].last == INT64_MAX) {
                continue;
            }
            int64_t p = k == 0 ? c->ranges[r].first : c->ranges[r].last + 1;
            uint64_t offset = (uint64_t)p - (uint64_t)f->gap_base;
            size_t i = (size_t)(offset >> f->gap_shift);
            if (p < f->gap_base || i >= f->gap_count || (offset & (((uint64_t)1 << f->gap_shift) - 1u)) == 0) {
                continue; /* outside the stretches, or at a stretch's start */
            }
            if (g[i].split != p) {
                return false;
            }
        }
    }
    for (size_t i = 0; i < f->gap_count; i++) {
        int64_t start = (int64_t)((uint64_t)f->gap_base + ((uint64_t)i << f->gap_shift));
        int64_t stop = (int64_t)((uint64_t)start + (((uint64_t)1 << f->gap_shift) - 1u));
        if (g[i].split < start || g[i].split > stop ||
            (g[i].split != start && ref_table_miss_class(c, start) != g[i].below) ||
            ref_table_miss_class(c, g[i].split) != g[i].above) {
            return false;
        }
    }
    return ref_gap_ok(f, c, f->gap_count);
}

/*
 * NULL when a stage-10 diagnostic of errcore_validate() names a real
 * problem of t's front with the fields errcore_table.h documents, else why
 * not.
 */
REF_FUNC const char *ref_front_diag_fault(const errcore_diag *d, const errcore_table *t, const ref_catalog *c) {
    const errcore_front *f = &t->front;
    if (!f->slots) {
        return "front diag without a front";
    }
    if (d->status == ERRCORE_E_NULL_ARGUMENT) {
        return d->subject == ERRCORE_SUBJECT_FRONT && d->index == ERRCORE_NO_INDEX && !f->buckets
                   ? NULL
                   : "front NULL argument";
    }
    if (d->status != ERRCORE_E_BAD_FRONT) {
        return "front: not BAD_FRONT";
    }
    if (d->subject == ERRCORE_SUBJECT_FRONT) {
        if (d->index == ERRCORE_NO_INDEX) {
            return !ref_front_shape_ok(f) && d->code == (int64_t)f->slot_mask &&
                           d->other_code == (int64_t)f->bucket_shift
                       ? NULL
                       : "front shape";
        }
        if (d->index > f->slot_mask || f->slots[d->index].key != d->code) {
            return "front slot: index or key";
        }
        if (d->other_index == d->index) { /* a stray key */
            return ref_front_position(f, d->code) == d->index && !ref_is_table_code(c, d->code)
                       ? NULL
                       : "front slot: not a stray key";
        }
        if (d->other_index != ERRCORE_NO_INDEX) {
            return "front slot: other_index";
        }
        if (d->other_code == d->code) { /* the wrong class */
            return ref_front_position(f, d->code) == d->index && ref_is_table_code(c, d->code) &&
                           f->slots[d->index].key_class != ref_table_code_class(c, d->code)
                       ? NULL
                       : "front slot: class is right";
        }
        /* A table code that is not where it hashes to. */
        return ref_is_table_code(c, d->other_code) && ref_front_position(f, d->other_code) == d->index
                   ? NULL
                   : "front slot: other_code not a table code hashing here";
    }
    if (d->subject == ERRCORE_SUBJECT_FRONT_GAP && f->gaps) {
        if (d->index == ERRCORE_NO_INDEX) {
            return !ref_gap_shape_ok(f, c) && d->code == f->gap_base && d->other_code == (int64_t)f->gap_count
                       ? NULL
                       : "front gap shape";
        }
        if (!ref_gap_shape_ok(f, c) || d->index > f->gap_count || ref_gap_ok(f, c, d->index) ||
            d->code != f->gaps[d->index].split) {
            return "front gap: stretch is right";
        }
        int64_t start = (int64_t)((uint64_t)f->gap_base + ((uint64_t)d->index << f->gap_shift));
        return d->other_code == start ? NULL : "front gap: other_code";
    }
    return "front diag subject";
}

/*
 * What a linear scan of a string definition says the pair (space, code) is (errcore_strings.h):
 * the class of the listed entry, the owner's unrecognised class in an owned namespace, else
 * unknown; an empty or unnamed namespace's strings are unknown, as empty strings are.
 */
REF_FUNC errcore_class ref_classify_string(const errcore_table *table, const errcore_string_def *def, const char *space,
                                           size_t space_length, const char *code, size_t code_length) {
    size_t id = 0;
    if (space_length != 0) {
        for (size_t k = 0; k < def->space_count && id == 0; k++) {
            if (def->spaces[k].length == space_length && memcmp(def->spaces[k].name, space, space_length) == 0) {
                id = k + 1;
            }
        }
        if (id == 0) {
            return ERRCORE_CLASS_UNKNOWN;
        }
    }
    if (code_length == 0) {
        return ERRCORE_CLASS_UNKNOWN;
    }
    for (size_t i = 0; i < def->code_count; i++) {
        const errcore_string_code_def *c = &def->codes[i];
        if (c->space == id && c->length == code_length && memcmp(c->code, code, code_length) == 0) {
            return errcore_classify(table, c->entry_code);
        }
    }
    uint16_t owner = id == 0 ? 0 : def->spaces[id - 1].module;
    return owner == 0 ? ERRCORE_CLASS_UNKNOWN
                      : ((uint64_t)ERRCORE_TIER_MODULE << 56) | ((uint64_t)owner << 32) | ERRCORE_NO_ENTRY;
}

#endif /* ERRCORE_TEST_REFERENCE_H */

/*
 * test_check.c — errcore_check_catalog(): every problem kind on its own,
 * many at once with exact lists, stopping, scratch and argument errors, a
 * definition with a million entries and 65,535 modules, and a differential
 * test against the brute-force reference (reference.h) on random
 * definitions full of problems, including errcore_build()'s first report
 * and errcore_validate()'s duplicate-name check beyond one block.
 */
#include <stdlib.h>
#include <string.h>

#include "build_bytes.h"
#include "check.h"
#include "fixture.h"
#include "reference.h"

/* Reports collected by the callback; stops after `stop_after` of them (0: never). */
typedef struct collected {
    errcore_diag *items;
    size_t count, cap;
    size_t stop_after;
} collected;

static int collect(void *context, const errcore_diag *d) {
    collected *c = context;
    if (c->count == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->items = realloc(c->items, c->cap * sizeof *c->items);
        if (!c->items) {
            abort();
        }
    }
    c->items[c->count++] = *d;
    return c->stop_after != 0 && c->count >= c->stop_after;
}

static void collected_reset(collected *c, size_t stop_after) {
    c->count = 0;
    c->stop_after = stop_after;
}

/* errcore_check_catalog() with exactly errcore_check_size() bytes of heap scratch, its bytes set
 * to `fill` first (-1: left as malloc gives them). */
static errcore_status check_filled(const errcore_catalog_def *def, collected *out, int fill) {
    size_t size = 0;
    if (errcore_check_size(def, &size, NULL) != ERRCORE_OK) {
        size = 0;
    }
    void *scratch = size ? malloc(size) : NULL;
    if (size && !scratch) {
        abort();
    }
    if (scratch && fill >= 0) {
        memset(scratch, fill, size);
    }
    errcore_status s = errcore_check_catalog(def, scratch, size, collect, out);
    free(scratch);
    return s;
}

static errcore_status check_all(const errcore_catalog_def *def, collected *out) {
    return check_filled(def, out, -1);
}

static bool diag_is(const errcore_diag *d, errcore_status status, errcore_subject subject, size_t index,
                    size_t other_index, int64_t code, int64_t other_code, uint32_t module) {
    return d->status == status && d->subject == subject && d->index == index && d->other_index == other_index &&
           d->code == code && d->other_code == other_code && d->module == module;
}

static void print_diags(const char *label, const errcore_diag *d, size_t n) {
    for (size_t i = 0; i < n && i < 40; i++) {
        char line[200];
        errcore_diag_format(&d[i], line, sizeof line);
        fprintf(stderr, "  %s %zu: %s [%s idx %zu other %zu code %lld other %lld module %u]\n", label, i, line,
                errcore_status_name(d[i].status), d[i].index, d[i].other_index, (long long)d[i].code,
                (long long)d[i].other_code, (unsigned)d[i].module);
    }
}

/*
 * The fixture, mutated, has exactly one problem: check-all reports it with
 * these fields, and errcore_build() reports the same diagnostic.
 */
static void expect_one(fixture *f, errcore_status status, errcore_subject subject, size_t index, size_t other_index,
                       int64_t code, int64_t other_code, uint32_t module, int line) {
    collected c = {0};
    errcore_status got = check_all(&f->def, &c);
    bool ok = got == status && c.count == 1 &&
              diag_is(&c.items[0], status, subject, index, other_index, code, other_code, module);
    CHECKF(ok, "line %d: %s, %zu reports", line, errcore_status_name(got), c.count);
    if (!ok) {
        print_diags("got", c.items, c.count);
    }
    errcore_status built = fixture_build(f);
    CHECKF(built == status && c.count > 0 && ref_same_diag(&f->diag, &c.items[0]), "line %d: build says %s", line,
           errcore_status_name(built));
    free(c.items);
}
#define EXPECT_ONE(f, st, subj, idx, other, code, ocode, mod)                                                          \
    expect_one(f, st, subj, idx, other, code, ocode, mod, __LINE__)

static const size_t NO = ERRCORE_NO_INDEX;

static void test_each_kind(void) {
    fixture f;
    collected c = {0};

    fixture_init(&f);
    CHECK(check_all(&f.def, &c) == ERRCORE_OK && c.count == 0);

    fixture_init(&f);
    f.modules[1].name = NULL;
    EXPECT_ONE(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, 1, NO, 2, 0, 0);
    fixture_init(&f);
    f.entries[4].name = NULL;
    EXPECT_ONE(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, 4, NO, 350, 0, 0);
    fixture_init(&f);
    f.modules[0].name = "";
    EXPECT_ONE(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_MODULE, 0, NO, 1, 0, 0);
    fixture_init(&f);
    f.entries[2].name = "";
    EXPECT_ONE(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_ENTRY, 2, NO, 150, 0, 0);
    fixture_init(&f);
    f.modules[1].name = "alpha";
    EXPECT_ONE(&f, ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, 1, 0, 2, 1, 2);
    fixture_init(&f);
    f.ranges[2].module = 3; /* beta's [300, 399]; beta's entry 350 then lies in none of its ranges */
    collected_reset(&c, 0);
    CHECK(check_all(&f.def, &c) == ERRCORE_E_UNDECLARED_MODULE && c.count == 2 &&
          diag_is(&c.items[0], ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, 2, NO, 300, 0, 3) &&
          diag_is(&c.items[1], ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 4, NO, 350, 0, 2));
    CHECK(fixture_build(&f) == ERRCORE_E_UNDECLARED_MODULE && ref_same_diag(&f.diag, &c.items[0]));
    fixture_init(&f);
    f.ranges[1].last = 99; /* [100, 99]; alpha's entry 150 is then in none of alpha's ranges */
    collected_reset(&c, 0);
    CHECK(check_all(&f.def, &c) == ERRCORE_E_EMPTY_RANGE && c.count == 2 &&
          diag_is(&c.items[0], ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, 1, NO, 100, 99, 1) &&
          diag_is(&c.items[1], ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2, NO, 150, 0, 1));
    fixture_init(&f);
    f.ranges[0].first = 399; /* [399, 599] overlaps beta's [300, 399] (input 2) */
    EXPECT_ONE(&f, ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 0, 2, 399, 300, 2);
    fixture_init(&f);
    f.entries[5].module = 9;
    EXPECT_ONE(&f, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, 5, NO, 11, 0, 9);
    fixture_init(&f);
    f.entries[5].code = 10; /* repeats entry 1 */
    EXPECT_ONE(&f, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 5, 1, 10, 10, 0);
    fixture_init(&f);
    f.def.success_code = 120; /* in alpha's range, input range 1; the old success entry 0 is base */
    EXPECT_ONE(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, 1, NO, 120, 0, 1);
    fixture_init(&f);
    f.entries[3].module = 2; /* the success entry claims beta */
    EXPECT_ONE(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, 3, NO, 0, 0, 2);
    fixture_init(&f);
    f.entries[2].code = 450; /* alpha's code in nobody's range */
    EXPECT_ONE(&f, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2, NO, 450, 0, 1);
    fixture_init(&f);
    f.entries[2].code = 360; /* alpha's code in beta's range */
    EXPECT_ONE(&f, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2, NO, 360, 2, 1);
    fixture_init(&f);
    f.entries[5].code = 120; /* a base code in alpha's range */
    EXPECT_ONE(&f, ERRCORE_E_BASE_IN_MODULE_RANGE, ERRCORE_SUBJECT_ENTRY, 5, NO, 120, 1, 0);

    /* Stage 0 shapes: reported each, then nothing else; scratch is not needed. */
    fixture_init(&f);
    f.def.entries = NULL;
    f.def.ranges = NULL;
    f.def.module_count = ERRCORE_MAX_MODULES + 1u;
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&f.def, NULL, 0, collect, &c) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(c.count == 3 && diag_is(&c.items[0], ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, NO, NO, 0, 0, 0) &&
          diag_is(&c.items[1], ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_RANGE, NO, NO, 0, 0, 0) &&
          diag_is(&c.items[2], ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_MODULE, NO, NO, 0, 0, 0));
    fixture_init(&f);
    f.def.entry_count = SIZE_MAX;
    f.def.range_count = (size_t)ERRCORE_MAX_COUNT + 1u;
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&f.def, NULL, 0, collect, &c) == ERRCORE_E_COUNT_OVERFLOW);
    CHECK(c.count == 2 && c.items[0].subject == ERRCORE_SUBJECT_ENTRY && c.items[1].subject == ERRCORE_SUBJECT_RANGE);
    free(c.items);
}

/* One definition with problems of every kind: the exact list, in the documented order. */
static void test_many_at_once(void) {
    static const errcore_module_def modules[4] = {
        {"alpha", NULL, NULL, NULL},
        {"", NULL, NULL, NULL},
        {"alpha", NULL, NULL, NULL},
        {NULL, NULL, NULL, NULL},
    };
    static const errcore_range ranges[6] = {
        {500, 599, 2}, {100, 199, 1}, {150, 250, 3}, {50, 40, 1}, {700, 799, 0}, {120, 130, 3},
    };
    static const errcore_entry_def entries[9] = {
        {150, 1, 0, "a", NULL, NULL, NULL},  /* fine: alpha's range [100, 199] */
        {0, 2, 0, "s", NULL, NULL, NULL},    /* success code with a module */
        {150, 0, 0, "", NULL, NULL, NULL},   /* empty name, repeats entry 0, base code in a range */
        {990, 7, 0, NULL, NULL, NULL, NULL}, /* NULL name, undeclared module */
        {520, 1, 0, "b", NULL, NULL, NULL},  /* alpha's code inside module 2's range */
        {150, 3, 0, "c", NULL, NULL, NULL},  /* repeats entry 0 again; module 3 owns 150 too: fine */
        {760, 0, 0, "d", NULL, NULL, NULL},  /* in the undeclared range only: a base code is fine */
        {980, 2, 0, "e", NULL, NULL, NULL},  /* module 2's code outside every range */
        {45, 1, 0, "f", NULL, NULL, NULL},   /* in the empty range only: outside alpha's ranges */
    };
    errcore_catalog_def def = {0, entries, 9, modules, 4, ranges, 6, NULL, 0};
    const errcore_diag want[] = {
        {ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, 3, NO, 4, 0, 0},
        {ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, 3, NO, 990, 0, 0},
        {ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_MODULE, 1, NO, 2, 0, 0},
        {ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_ENTRY, 2, NO, 150, 0, 0},
        {ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, 2, 0, 3, 1, 3},
        {ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, 3, NO, 50, 40, 1},
        {ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, 4, NO, 700, 0, 0},
        /* [150, 250] starts inside [100, 199]; [120, 130] too (it sorts before [150, 250]). */
        {ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 2, 1, 150, 100, 3},
        {ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 5, 1, 120, 100, 3},
        {ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, 3, NO, 990, 0, 7},
        {ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 2, 0, 150, 150, 0},
        {ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 5, 0, 150, 150, 3},
        {ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, 1, NO, 0, 0, 2},
        /* 150 lies in [100, 199] and [150, 250]; the latter reaches further: module 3 owns it. */
        {ERRCORE_E_BASE_IN_MODULE_RANGE, ERRCORE_SUBJECT_ENTRY, 2, NO, 150, 3, 0},
        {ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 4, NO, 520, 2, 1},
        {ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 7, NO, 980, 0, 2},
        {ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 8, NO, 45, 0, 1},
    };
    size_t want_count = sizeof want / sizeof want[0];
    collected c = {0};
    CHECK(check_all(&def, &c) == ERRCORE_E_NULL_ARGUMENT);
    bool same = c.count == want_count;
    for (size_t i = 0; same && i < want_count; i++) {
        same = ref_same_diag(&c.items[i], &want[i]);
    }
    CHECKF(same, "%zu reports, want %zu", c.count, want_count);
    if (!same) {
        print_diags("got", c.items, c.count);
        print_diags("want", want, want_count);
    }
    /* The reference agrees, and so does every prefix when the callback stops early. */
    errcore_diag ref[64];
    size_t ref_count = ref_def_problems(&def, ref, 64);
    CHECK(ref_count == want_count);
    for (size_t i = 0; i < want_count && i < ref_count; i++) {
        CHECKF(ref_same_diag(&ref[i], &want[i]), "reference report %zu", i);
    }
    for (size_t k = 1; k <= want_count; k++) {
        collected_reset(&c, k);
        CHECK(check_all(&def, &c) == ERRCORE_E_NULL_ARGUMENT && c.count == k &&
              ref_same_diag(&c.items[k - 1], &want[k - 1]));
    }
    /* errcore_build and errcore_build_size stop at the first. */
    errcore_diag d;
    size_t size = 0;
    CHECK(errcore_build_size(&def, &size, &d) == ERRCORE_E_NULL_ARGUMENT && ref_same_diag(&d, &want[0]));
    free(c.items);
}

static int never_called(void *context, const errcore_diag *d) {
    (void)d;
    ++*(int *)context;
    return 0;
}

static void test_arguments(void) {
    fixture f;
    fixture_init(&f);
    size_t need = 0;
    errcore_diag d;
    CHECK(errcore_check_size(&f.def, &need, &d) == ERRCORE_OK && d.status == ERRCORE_OK);
    /* 6 entries, 3 ranges, 2 modules, each array rounded up to 8 bytes: entries 2 * 48 (keys)
     * + 2 * 24 (indices), ranges 2 * 24 (keys) + 4 * 16 (indices), modules 16 (keys) + 2 * 8. */
    CHECK(need == 2 * 48 + 2 * 24 + 2 * 24 + 4 * 16 + 16 + 2 * 8);
    CHECK(errcore_check_size(NULL, &need, &d) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_check_size(&f.def, NULL, &d) == ERRCORE_E_NULL_ARGUMENT);
    f.def.module_count = ERRCORE_MAX_MODULES + 1u;
    CHECK(errcore_check_size(&f.def, &need, &d) == ERRCORE_E_COUNT_OVERFLOW && d.subject == ERRCORE_SUBJECT_MODULE);
    fixture_init(&f);
    f.def.entry_count = (size_t)ERRCORE_MAX_COUNT + 1u;
    CHECK(errcore_check_size(&f.def, &need, &d) == ERRCORE_E_COUNT_OVERFLOW && d.subject == ERRCORE_SUBJECT_ENTRY);
    fixture_init(&f);
    CHECK(errcore_check_size(&f.def, &need, NULL) == ERRCORE_OK);

    int calls = 0;
    CHECK(errcore_check_catalog(NULL, f.storage, need, never_called, &calls) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_check_catalog(&f.def, f.storage, need, NULL, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(calls == 0);

    collected c = {0};
    /* Exactly the size is enough; a byte less, NULL, or misaligned scratch is one report. */
    CHECK(errcore_check_catalog(&f.def, f.storage, need, collect, &c) == ERRCORE_OK && c.count == 0);
    CHECK(errcore_check_catalog(&f.def, f.storage, need - 1, collect, &c) == ERRCORE_E_BUFFER_TOO_SMALL);
    CHECK(c.count == 1 && diag_is(&c.items[0], ERRCORE_E_BUFFER_TOO_SMALL, ERRCORE_SUBJECT_NONE, NO, NO, (int64_t)need,
                                  (int64_t)need - 1, 0));
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&f.def, NULL, need, collect, &c) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(c.count == 1 && c.items[0].subject == ERRCORE_SUBJECT_NONE);
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&f.def, f.storage + 4, need, collect, &c) == ERRCORE_E_MISALIGNED);
    CHECK(c.count == 1 && diag_is(&c.items[0], ERRCORE_E_MISALIGNED, ERRCORE_SUBJECT_NONE, NO, NO, 8, 4, 0));
    /* NULL names are reported before the scratch is looked at. */
    f.entries[0].name = NULL;
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&f.def, NULL, 0, collect, &c) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(c.count == 2 && c.items[0].subject == ERRCORE_SUBJECT_ENTRY && c.items[1].subject == ERRCORE_SUBJECT_NONE);
    /* errcore_build's storage for a definition is large enough as check scratch. */
    fixture_init(&f);
    size_t build_need = 0;
    CHECK(errcore_build_size(&f.def, &build_need, NULL) == ERRCORE_OK && need <= build_need);
    /* An empty definition needs no scratch. */
    errcore_catalog_def empty = {0, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
    CHECK(errcore_check_size(&empty, &need, NULL) == ERRCORE_OK && need == 0);
    collected_reset(&c, 0);
    CHECK(errcore_check_catalog(&empty, NULL, 0, collect, &c) == ERRCORE_OK && c.count == 0);
    free(c.items);
}

/*
 * A million entries, 65,535 modules and ranges: module k owns
 * [100 k, 100 k + 49]; entry i < 500,000 is a module entry, the rest base
 * entries. Planted: every 1,000th base entry repeats the code of the module
 * entry 500,000 before it (a duplicate and a base code in a range), module
 * 65,535 is named like module 1, and range 10 reaches into range 11.
 */
#define BIG_ENTRIES 1000000u
#define BIG_MODULES 65535u

static void test_large(void) {
    errcore_entry_def *entries = malloc(BIG_ENTRIES * sizeof *entries);
    errcore_module_def *modules = malloc(BIG_MODULES * sizeof *modules);
    errcore_range *ranges = malloc(BIG_MODULES * sizeof *ranges);
    char *names = malloc(BIG_MODULES * 8u);
    if (!entries || !modules || !ranges || !names) {
        abort();
    }
    for (uint32_t k = 0; k < BIG_MODULES; k++) {
        snprintf(names + 8u * k, 8, "m%05u", (unsigned)k);
        modules[k] = (errcore_module_def){names + 8u * k, NULL, NULL, NULL};
        ranges[k] = (errcore_range){100 * (int64_t)(k + 1), 100 * (int64_t)(k + 1) + 49, (uint16_t)(k + 1)};
    }
    for (uint32_t i = 0; i < BIG_ENTRIES; i++) {
        if (i < BIG_ENTRIES / 2) {
            uint16_t module = (uint16_t)(i % BIG_MODULES + 1);
            entries[i] = (errcore_entry_def){100 * (int64_t)module + i / BIG_MODULES, module, 0, "e", NULL, NULL, NULL};
        } else {
            entries[i] = (errcore_entry_def){10000000 + (int64_t)i, 0, 0, "e", NULL, NULL, NULL};
        }
    }
    errcore_catalog_def def = {0, entries, BIG_ENTRIES, modules, BIG_MODULES, ranges, BIG_MODULES, NULL, 0};
    collected c = {0};
    CHECK(check_all(&def, &c) == ERRCORE_OK && c.count == 0);

    for (uint32_t i = BIG_ENTRIES / 2; i < BIG_ENTRIES; i += 1000) {
        entries[i].code = entries[i - BIG_ENTRIES / 2].code;
    }
    modules[BIG_MODULES - 1].name = modules[0].name;
    ranges[10].last += 100;
    collected_reset(&c, 0);
    CHECK(check_all(&def, &c) == ERRCORE_E_DUPLICATE_MODULE_NAME);
    size_t per[ERRCORE_STATUS_COUNT] = {0};
    for (size_t i = 0; i < c.count; i++) {
        per[c.items[i].status]++;
    }
    CHECKF(c.count == 1002 && per[ERRCORE_E_DUPLICATE_MODULE_NAME] == 1 && per[ERRCORE_E_RANGE_OVERLAP] == 1 &&
               per[ERRCORE_E_DUPLICATE_CODE] == 500 && per[ERRCORE_E_BASE_IN_MODULE_RANGE] == 500,
           "%zu reports", c.count);
    CHECK(diag_is(&c.items[0], ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, BIG_MODULES - 1, 0, BIG_MODULES,
                  1, BIG_MODULES));
    CHECK(diag_is(&c.items[1], ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 11, 10, 1200, 1100, 12));
    CHECK(diag_is(&c.items[2], ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, BIG_ENTRIES / 2, 0, 100, 100, 0));
    CHECK(c.items[501].status == ERRCORE_E_DUPLICATE_CODE && c.items[502].status == ERRCORE_E_BASE_IN_MODULE_RANGE &&
          c.items[502].index == BIG_ENTRIES / 2 && c.items[502].other_code == 1);

    /* Repaired, it builds; the table's 65,535 names pass errcore_validate's block check, and
     * a duplicate at the far end is found. */
    for (uint32_t i = BIG_ENTRIES / 2; i < BIG_ENTRIES; i += 1000) {
        entries[i].code = 10000000 + (int64_t)i;
    }
    modules[BIG_MODULES - 1].name = names + 8u * (BIG_MODULES - 1);
    ranges[10].last -= 100;
    size_t size = 0;
    CHECK(errcore_build_size(&def, &size, NULL) == ERRCORE_OK);
    void *storage = malloc(size);
    errcore_table t;
    errcore_diag d;
    CHECK(storage && errcore_build(&def, storage, size, &t, &d) == ERRCORE_OK);
    CHECK(errcore_validate(&t, &d) == ERRCORE_OK);
    errcore_module *copy = malloc(BIG_MODULES * sizeof *copy);
    if (!copy) {
        abort();
    }
    memcpy(copy, t.modules, BIG_MODULES * sizeof *copy);
    copy[BIG_MODULES - 1].name = copy[0].name;
    errcore_table dup = t;
    dup.modules = copy;
    CHECK(errcore_validate(&dup, &d) == ERRCORE_E_DUPLICATE_MODULE_NAME && d.index == BIG_MODULES - 1 &&
          d.other_index == 0);
    free(copy);
    free(storage);
    free(c.items);
    free(entries);
    free(modules);
    free(ranges);
    free(names);
}

/* ---- Differential: random definitions full of problems --------------------------------------- */

#define DIFF_MODULES 12
#define DIFF_RANGES  24
#define DIFF_ENTRIES 160

typedef struct random_def {
    errcore_module_def modules[DIFF_MODULES];
    errcore_range ranges[DIFF_RANGES];
    errcore_entry_def entries[DIFF_ENTRIES];
    errcore_catalog_def def;
} random_def;

static const char *const pool_names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i",
                                         "j", "k", "l", "m", "n", "o", "p", "q", "r"};

/* A name: often unique, sometimes shared, NULL or empty. */
static const char *random_name(uint64_t *s, unsigned spread) {
    uint64_t pick = check_rand(s) % 40;
    if (pick == 0) {
        return NULL;
    }
    if (pick == 1) {
        return "";
    }
    return pool_names[check_rand(s) % spread];
}

/* Codes from a small space so that duplicates, overlaps and hits are common. */
static int64_t random_code(uint64_t *s, int64_t span) {
    uint64_t pick = check_rand(s) % 50;
    if (pick == 0) {
        return INT64_MIN;
    }
    if (pick == 1) {
        return INT64_MAX;
    }
    return (int64_t)(check_rand(s) % (uint64_t)span) - span / 4;
}

/* Definitions full of problems of every kind: names, codes and ranges drawn from small sets. */
static void make_chaos_def(random_def *r, uint64_t *s) {
    memset(r, 0, sizeof *r);
    size_t m = (size_t)(check_rand(s) % (DIFF_MODULES + 1));
    size_t nr = (size_t)(check_rand(s) % (DIFF_RANGES + 1));
    size_t n = (size_t)(check_rand(s) % (DIFF_ENTRIES + 1));
    int64_t span = 20 + (int64_t)(check_rand(s) % 2000);
    unsigned spread = 2 + (unsigned)(check_rand(s) % 16);
    for (size_t i = 0; i < m; i++) {
        r->modules[i].name = random_name(s, spread);
        r->modules[i].title_en = check_rand(s) % 2 ? "T" : NULL;
    }
    for (size_t i = 0; i < nr; i++) {
        int64_t first = random_code(s, span);
        int64_t width = (int64_t)(check_rand(s) % 40) - 3;
        int64_t last =
            (width < 0 && first < INT64_MIN + 3) || (width > 0 && first > INT64_MAX - 40) ? first : first + width;
        r->ranges[i] = (errcore_range){first, last, (uint16_t)(check_rand(s) % (m + 2))};
    }
    for (size_t i = 0; i < n; i++) {
        int64_t code = random_code(s, span);
        uint16_t module = 0;
        uint64_t how = check_rand(s) % 4;
        if (nr > 0 && how < 2) { /* inside a range, usually claiming its module */
            const errcore_range *g = &r->ranges[check_rand(s) % nr];
            if (g->first <= g->last) {
                uint64_t w = (uint64_t)g->last - (uint64_t)g->first;
                code = (int64_t)((uint64_t)g->first + (w == UINT64_MAX ? 0 : check_rand(s) % (w + 1)));
            }
            module = how == 0 ? g->module : (uint16_t)(check_rand(s) % (m + 2));
        } else if (how == 2) {
            module = (uint16_t)(check_rand(s) % (m + 2));
        }
        r->entries[i] = (errcore_entry_def){code, module, (uint8_t)check_rand(s), random_name(s, 18), NULL, NULL, NULL};
    }
    r->def = (errcore_catalog_def){random_code(s, span), r->entries, n, r->modules, m, r->ranges, nr, NULL, 0};
}

/* The module owning `code` in a valid definition under construction (0 when none). */
static uint16_t owner_in(const random_def *r, size_t nr, int64_t code) {
    for (size_t i = 0; i < nr; i++) {
        if (ref_in_range(&r->ranges[i], code)) {
            return r->ranges[i].module;
        }
    }
    return 0;
}

/* A valid definition (disjoint ranges, distinct codes in their owners' ranges) with 0 ... 3 faults. */
static void make_faulty_def(random_def *r, uint64_t *s) {
    memset(r, 0, sizeof *r);
    size_t m = 1 + (size_t)(check_rand(s) % DIFF_MODULES);
    size_t want_r = (size_t)(check_rand(s) % (DIFF_RANGES + 1));
    size_t n = 0, nr = 0;
    for (size_t i = 0; i < m; i++) {
        r->modules[i].name = pool_names[i];
    }
    int64_t at = -1000 + (int64_t)(check_rand(s) % 100);
    for (size_t i = 0; i < want_r; i++) { /* ascending and apart, then shuffled */
        at += 1 + (int64_t)(check_rand(s) % 30);
        int64_t first = at;
        at += (int64_t)(check_rand(s) % 40);
        r->ranges[nr++] = (errcore_range){first, at, (uint16_t)(1 + check_rand(s) % m)};
        at++;
    }
    for (size_t i = nr; i > 1; i--) {
        size_t j = (size_t)(check_rand(s) % i);
        errcore_range tmp = r->ranges[i - 1];
        r->ranges[i - 1] = r->ranges[j];
        r->ranges[j] = tmp;
    }
    int64_t success;
    do {
        success = -1100 + (int64_t)(check_rand(s) % 2500);
    } while (owner_in(r, nr, success) != 0);
    size_t want_n = (size_t)(check_rand(s) % (DIFF_ENTRIES + 1));
    for (size_t tries = 0; n < want_n && tries < 4 * DIFF_ENTRIES; tries++) {
        int64_t code = n == 0 && check_rand(s) % 2 ? success : -1100 + (int64_t)(check_rand(s) % 2500);
        bool taken = false;
        for (size_t i = 0; i < n && !taken; i++) {
            taken = r->entries[i].code == code;
        }
        if (!taken) {
            uint16_t owner = code == success ? 0 : owner_in(r, nr, code);
            r->entries[n++] = (errcore_entry_def){code, owner, (uint8_t)check_rand(s), "e", NULL, NULL, NULL};
        }
    }
    size_t faults = (size_t)(check_rand(s) % 4);
    for (size_t k = 0; k < faults; k++) {
        size_t e = n ? (size_t)(check_rand(s) % n) : 0, g = nr ? (size_t)(check_rand(s) % nr) : 0;
        size_t mod = (size_t)(check_rand(s) % m);
        switch (check_rand(s) % 12) {
        case 0: r->modules[mod].name = check_rand(s) % 2 ? NULL : ""; break;
        case 1: r->modules[mod].name = pool_names[check_rand(s) % m]; break; /* maybe a namesake */
        case 2:
            if (nr)
                r->ranges[g].module = check_rand(s) % 2 ? 0 : (uint16_t)(m + 1);
            break;
        case 3:
            if (nr)
                r->ranges[g].last = r->ranges[g].first - 1;
            break;
        case 4:
            if (nr > 1)
                r->ranges[g].last = r->ranges[(g + 1) % nr].last + 5;
            break;
        case 5:
            if (n)
                r->entries[e].module = (uint16_t)(m + 1 + check_rand(s) % 3);
            break;
        case 6:
            if (n > 1)
                r->entries[e].code = r->entries[(e + 1) % n].code;
            break;
        case 7:
            if (nr)
                success = r->ranges[g].first + (r->ranges[g].last - r->ranges[g].first) / 2;
            break;
        case 8:
            if (n)
                r->entries[e].code = success, r->entries[e].module = (uint16_t)(1 + mod);
            break;
        case 9:
            if (n)
                r->entries[e].module = (uint16_t)(1 + (r->entries[e].module + mod) % m);
            break;
        case 10:
            if (n && nr)
                r->entries[e].code = r->ranges[g].first, r->entries[e].module = 0;
            break;
        default:
            if (n)
                r->entries[e].name = check_rand(s) % 2 ? NULL : "";
            break;
        }
    }
    r->def = (errcore_catalog_def){success, r->entries, n, r->modules, m, r->ranges, nr, NULL, 0};
}

/* Random raw tables of 257 ... 1,500 modules (several validate blocks), some names repeated. */
static void test_validate_blocks(uint64_t *s) {
    enum { MAX_M = 1500 };
    static errcore_module modules[MAX_M];
    static char pool[MAX_M * 8 + 1];
    unsigned long mismatches = 0;
    for (int round = 0; round < 60; round++) {
        size_t m = 257 + (size_t)(check_rand(s) % (MAX_M - 256));
        size_t used = 1;
        pool[0] = '\0';
        size_t distinct = round % 3 == 0 ? m : 1 + (size_t)(check_rand(s) % (m * 2));
        for (size_t i = 0; i < m; i++) {
            modules[i] = (errcore_module){(uint32_t)used, (uint32_t)used, ERRCORE_NO_STRING, 0};
            used += (size_t)snprintf(pool + used, 8, "n%u", (unsigned)(check_rand(s) % distinct)) + 1;
            if (round % 3 == 0) { /* all distinct but one planted pair */
                used = modules[i].name;
                used += (size_t)snprintf(pool + used, 8, "u%u", (unsigned)i) + 1;
            }
        }
        if (round % 3 == 0) {
            size_t j = 1 + (size_t)(check_rand(s) % (m - 1)), i = (size_t)(check_rand(s) % j);
            modules[j].name = modules[i].name;
        }
        errcore_table t;
        memset(&t, 0, sizeof t);
        t.modules = modules;
        t.module_count = m;
        t.strings = pool;
        t.strings_size = used;
        size_t want_j = NO, want_i = NO;
        for (size_t j = 0; j < m && want_j == NO; j++) {
            for (size_t i = 0; i < j; i++) {
                if (strcmp(pool + modules[i].name, pool + modules[j].name) == 0) {
                    want_j = j, want_i = i;
                    break;
                }
            }
        }
        errcore_diag d;
        errcore_status st = errcore_validate(&t, &d);
        bool ok = want_j == NO ? st == ERRCORE_OK
                               : st == ERRCORE_E_DUPLICATE_MODULE_NAME && d.index == want_j && d.other_index == want_i;
        if (!ok && mismatches++ < 5) {
            fprintf(stderr, "validate blocks: round %d m %zu: %s %zu/%zu, want %zu/%zu\n", round, m,
                    errcore_status_name(st), d.index, d.other_index, want_j, want_i);
        }
    }
    CHECKF(mismatches == 0, "%lu validate rounds disagree", mismatches);
}

static void test_differential_check(void) {
    static random_def r;
    static errcore_diag want[4096], sorted_got[4096], sorted_want[4096];
    static _Alignas(8) unsigned char storage[1 << 18];
    uint64_t seed = 0xC4ECCu;
    const char *env = getenv("ERRCORE_DIFF_SEED");
    if (env) {
        seed = strtoull(env, NULL, 0);
    }
    uint64_t s = seed;
    collected c = {0};
    collected filled[2] = {{0}, {0}};
    unsigned long rounds = 0, reports = 0, mismatches = 0, built = 0, stages[REF_STAGE_NONE + 1] = {0};
    for (int round = 0; round < 4000; round++) {
        if (round % 2 == 0) {
            make_chaos_def(&r, &s);
        } else {
            make_faulty_def(&r, &s);
        }
        size_t count = ref_def_problems(&r.def, want, sizeof want / sizeof want[0]);
        collected_reset(&c, 0);
        errcore_status st = check_all(&r.def, &c);
        rounds++;
        reports += c.count;
        /* The same list in the same order, and (said apart for diagnosis) the same multiset. */
        bool same = c.count == count && st == (count ? want[0].status : ERRCORE_OK);
        for (size_t i = 0; same && i < count; i++) {
            same = ref_same_diag(&c.items[i], &want[i]);
        }
        bool same_set = c.count == count;
        if (same_set && !same) {
            memcpy(sorted_got, c.items, count * sizeof *sorted_got);
            memcpy(sorted_want, want, count * sizeof *sorted_want);
            qsort(sorted_got, count, sizeof *sorted_got, ref_diag_cmp);
            qsort(sorted_want, count, sizeof *sorted_want, ref_diag_cmp);
            for (size_t i = 0; same_set && i < count; i++) {
                same_set = ref_same_diag(&sorted_got[i], &sorted_want[i]);
            }
        }
        if (!same && mismatches++ < 3) {
            fprintf(stderr, "check differential: seed %llu round %d: %zu reports, reference %zu%s\n",
                    (unsigned long long)seed, round, c.count, count, same_set ? " (same multiset, other order)" : "");
            print_diags("got", c.items, c.count);
            print_diags("want", want, count);
        }
        /* The reports do not depend on what the scratch held. */
        for (int f = 0; f < 2; f++) {
            collected_reset(&filled[f], 0);
            errcore_status fs = check_filled(&r.def, &filled[f], f == 0 ? 0x00 : 0xFF);
            bool agree = fs == st && filled[f].count == c.count;
            for (size_t i = 0; agree && i < c.count; i++) {
                agree = ref_same_diag(&filled[f].items[i], &c.items[i]);
            }
            if (!agree && mismatches++ < 3) {
                fprintf(stderr, "scratch differential: seed %llu round %d: scratch of 0x%02X gives %zu reports, %zu\n",
                        (unsigned long long)seed, round, f == 0 ? 0x00 : 0xFF, filled[f].count, c.count);
            }
        }
        stages[count ? ref_stage_of(want[0].status, want[0].subject) : REF_STAGE_NONE]++;
        /* errcore_build's first report is the first report of check-all (earliest stage). */
        errcore_table t;
        errcore_diag d;
        size_t need = 0;
        errcore_status bs = errcore_build_size(&r.def, &need, &d);
        if (bs == ERRCORE_OK) {
            CHECK(need <= sizeof storage);
            bs = errcore_build(&r.def, storage, sizeof storage, &t, &d);
        }
        bool build_ok = count == 0 ? bs == ERRCORE_OK && errcore_validate(&t, NULL) == ERRCORE_OK
                                   : bs == want[0].status && ref_same_diag(&d, &want[0]);
        if (!build_ok && mismatches++ < 3) {
            fprintf(stderr, "build differential: seed %llu round %d: build %s\n", (unsigned long long)seed, round,
                    errcore_status_name(bs));
            print_diags("build", &d, 1);
            print_diags("want", want, count ? 1 : 0);
        }
        built += bs == ERRCORE_OK;
        if (bs == ERRCORE_OK) {
            char why[160];
            uint64_t fill_state = seed ^ (uint64_t)round;
            CHECKF(build_bytes_agree(&r.def, &fill_state, why, sizeof why), "round %d: %s", round, why);
        }
        /* Stopping after k reports gives exactly the first k. */
        if (count > 1) {
            size_t k = 1 + (size_t)(check_rand(&s) % (count - 1));
            collected_reset(&c, k);
            check_all(&r.def, &c);
            bool prefix = c.count == k;
            for (size_t i = 0; prefix && i < k; i++) {
                prefix = ref_same_diag(&c.items[i], &want[i]);
            }
            if (!prefix && mismatches++ < 3) {
                fprintf(stderr, "stop differential: seed %llu round %d: stop after %zu, got %zu\n",
                        (unsigned long long)seed, round, k, c.count);
            }
        }
    }
    CHECKF(mismatches == 0, "%lu mismatches (seed %llu)", mismatches, (unsigned long long)seed);
    /* The generator reaches every stage and many reports per definition. */
    for (int stage = 0; stage <= REF_STAGE_NONE; stage++) {
        if (stage != REF_STAGE_INDEX && stage != REF_STAGE_FRONT) {
            CHECKF(stages[stage] > 0, "no definition whose first problem is at stage %d", stage);
        }
    }
    CHECKF(built > 200 && reports > 10 * rounds, "%lu built, %lu reports", built, reports);
    printf("check differential: %lu definitions, %lu reports, %lu built (seed %llu)\n", rounds, reports, built,
           (unsigned long long)seed);
    test_validate_blocks(&s);
    free(c.items);
    free(filled[0].items);
    free(filled[1].items);
}

void test_check(void) {
    test_each_kind();
    test_many_at_once();
    test_arguments();
    test_large();
    test_differential_check();
}

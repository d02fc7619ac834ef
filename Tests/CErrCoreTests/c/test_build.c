/* test_build.c — errcore_build(): sorting, string pool, and every rejection with input indices. */
#include <string.h>

#include "check.h"
#include "fixture.h"

static void expect_build(fixture *f, errcore_status status, errcore_subject subject, size_t index, size_t other_index,
                         int line) {
    errcore_table before = f->table;
    errcore_status got = fixture_build(f);
    CHECKF(got == status, "line %d: got %s, want %s", line, errcore_status_name(got), errcore_status_name(status));
    CHECKF(f->diag.status == status, "line %d: diag.status %d", line, (int)f->diag.status);
    CHECKF(f->diag.subject == subject, "line %d: subject %d want %d", line, (int)f->diag.subject, (int)subject);
    CHECKF(f->diag.index == index, "line %d: index %zu want %zu", line, f->diag.index, index);
    CHECKF(f->diag.other_index == other_index, "line %d: other %zu want %zu", line, f->diag.other_index, other_index);
    if (status != ERRCORE_OK) {
        CHECKF(memcmp(&before, &f->table, sizeof before) == 0, "line %d: *out written on failure", line);
    }
}
#define EXPECT_BUILD(f, st, subj, idx, other) expect_build(f, st, subj, idx, other, __LINE__)

static void test_valid_build(void) {
    fixture f;
    fixture_init(&f);
    size_t need = 0;
    CHECK(errcore_build_size(&f.def, &need, NULL) == ERRCORE_OK);
    CHECK(need > 0 && need <= sizeof f.storage);
    EXPECT_BUILD(&f, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);
    CHECK(errcore_validate(&f.table, NULL) == ERRCORE_OK);
    CHECK(f.table.entry_count == 6 && f.table.range_count == 3 && f.table.module_count == 2);
    static const int64_t sorted[6] = {0, 10, 11, 150, 350, 550};
    CHECK(memcmp(f.table.codes, sorted, sizeof sorted) == 0);
    CHECK(f.table.ranges[0].first == 100 && f.table.ranges[1].first == 300 && f.table.ranges[2].first == 500);
    CHECK(strcmp(errcore_entry_name(&f.table, 3), "alphaOne") == 0);
    /* The input is copied: changing it afterwards changes nothing. */
    f.entries[0].code = 999;
    CHECK(f.table.codes[5] == 550);

    /* Exactly the reported size is enough; one byte less is not. */
    fixture g;
    fixture_init(&g);
    CHECK(errcore_build(&g.def, g.storage, need, &g.table, &g.diag) == ERRCORE_OK);
    CHECK(errcore_build(&g.def, g.storage, need - 1, &g.table, &g.diag) == ERRCORE_E_BUFFER_TOO_SMALL);
    /* The diagnostic says how much was needed and how much was given. */
    CHECK(g.diag.status == ERRCORE_E_BUFFER_TOO_SMALL && g.diag.subject == ERRCORE_SUBJECT_NONE &&
          g.diag.index == ERRCORE_NO_INDEX && g.diag.code == (int64_t)need && g.diag.other_code == (int64_t)need - 1);
    CHECK(errcore_build(&g.def, g.storage, 0, &g.table, &g.diag) == ERRCORE_E_BUFFER_TOO_SMALL &&
          g.diag.code == (int64_t)need && g.diag.other_code == 0);
    /* A misaligned pointer is told apart from a short buffer, with the misalignment. */
    for (size_t off = 1; off < 8; off++) {
        CHECKF(errcore_build(&g.def, g.storage + off, need, &g.table, &g.diag) == ERRCORE_E_MISALIGNED &&
                   g.diag.status == ERRCORE_E_MISALIGNED && g.diag.code == 8 && g.diag.other_code == (int64_t)off &&
                   g.diag.subject == ERRCORE_SUBJECT_NONE,
               "offset %zu", off);
    }
    /* Too small is checked first when both apply. */
    CHECK(errcore_build(&g.def, g.storage + 4, need - 1, &g.table, &g.diag) == ERRCORE_E_BUFFER_TOO_SMALL);
    /* check_size never exceeds build_size: build storage serves as check scratch. */
    size_t check_need = 0;
    CHECK(errcore_check_size(&g.def, &check_need, NULL) == ERRCORE_OK && check_need <= need);

    /* An empty catalog is valid: every code is unknown but the success code. */
    errcore_catalog_def empty = {7, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
    errcore_table t;
    CHECK(errcore_build_size(&empty, &need, NULL) == ERRCORE_OK);
    CHECK(errcore_build(&empty, g.storage, sizeof g.storage, &t, NULL) == ERRCORE_OK);
    CHECK(errcore_class_tier(errcore_classify(&t, 7)) == ERRCORE_TIER_SUCCESS);
    CHECK(errcore_classify(&t, 0) == ERRCORE_CLASS_UNKNOWN);
}

static void test_rejections(void) {
    fixture f;

    fixture_init(&f);
    f.entries[5].code = 150; /* repeats input entry 2 */
    EXPECT_BUILD(&f, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 5, 2);
    CHECK(f.diag.code == 150);

    fixture_init(&f);
    f.entries[4].code = 10; /* a module code equal to a base code: duplicate across tiers */
    f.entries[4].module = 0;
    EXPECT_BUILD(&f, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 4, 1);

    fixture_init(&f);
    f.entries[2].code = 450; /* alpha's code in nobody's range */
    EXPECT_BUILD(&f, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2, ERRCORE_NO_INDEX);
    CHECK(f.diag.code == 450 && f.diag.module == 1 && f.diag.other_code == 0);

    fixture_init(&f);
    f.entries[2].code = 360; /* alpha's code in beta's range */
    EXPECT_BUILD(&f, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2, ERRCORE_NO_INDEX);
    CHECK(f.diag.module == 1 && f.diag.other_code == 2);

    fixture_init(&f);
    f.ranges[2].first = 199; /* [199, 399] overlaps [100, 199] */
    EXPECT_BUILD(&f, ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 2, 1);

    fixture_init(&f);
    f.entries[5].code = 120; /* base code in alpha's range */
    EXPECT_BUILD(&f, ERRCORE_E_BASE_IN_MODULE_RANGE, ERRCORE_SUBJECT_ENTRY, 5, ERRCORE_NO_INDEX);
    CHECK(f.diag.other_code == 1);

    fixture_init(&f);
    f.entries[0].module = 3; /* only modules 1 and 2 exist */
    EXPECT_BUILD(&f, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, 0, ERRCORE_NO_INDEX);
    CHECK(f.diag.module == 3);

    fixture_init(&f);
    f.ranges[1].module = 0;
    EXPECT_BUILD(&f, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, 1, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.ranges[0].first = 600; /* 600 > 599 */
    EXPECT_BUILD(&f, ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, 0, ERRCORE_NO_INDEX);
    CHECK(f.diag.code == 600 && f.diag.other_code == 599);

    fixture_init(&f);
    f.def.success_code = 120; /* inside alpha's range, input range 1 */
    EXPECT_BUILD(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, 1, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.success_code = 0;
    f.entries[3].module = 1; /* the success entry claims a module */
    EXPECT_BUILD(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, 3, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.modules[1].name = "alpha"; /* module 2 repeats module 1's name */
    EXPECT_BUILD(&f, ERRCORE_E_DUPLICATE_MODULE_NAME, ERRCORE_SUBJECT_MODULE, 1, 0);
    CHECK(f.diag.code == 2 && f.diag.other_code == 1 && f.diag.module == 2);

    fixture_init(&f);
    f.entries[1].name = "";
    EXPECT_BUILD(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_ENTRY, 1, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.modules[1].name = "";
    EXPECT_BUILD(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_MODULE, 1, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.entries[3].name = NULL;
    EXPECT_BUILD(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, 3, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.entries = NULL;
    EXPECT_BUILD(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.ranges = NULL;
    EXPECT_BUILD(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.modules = NULL;
    EXPECT_BUILD(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.entry_count = (size_t)ERRCORE_MAX_COUNT + 1u;
    EXPECT_BUILD(&f, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.module_count = ERRCORE_MAX_MODULES + 1u;
    EXPECT_BUILD(&f, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    f.def.range_count = SIZE_MAX;
    EXPECT_BUILD(&f, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX);

    fixture_init(&f);
    size_t size = 0;
    CHECK(errcore_build_size(NULL, &size, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_build_size(&f.def, NULL, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_build(&f.def, NULL, 100, &f.table, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_build(&f.def, f.storage, sizeof f.storage, NULL, NULL) == ERRCORE_E_NULL_ARGUMENT);
}

/* Input order never changes the built table. */
static void test_order_independent(void) {
    fixture a, b;
    fixture_init(&a);
    fixture_init(&b);
    for (size_t i = 0; i < 3; i++) { /* reverse b's entries and ranges */
        errcore_entry_def e = b.entries[i];
        b.entries[i] = b.entries[5 - i];
        b.entries[5 - i] = e;
    }
    errcore_range r = b.ranges[0];
    b.ranges[0] = b.ranges[2];
    b.ranges[2] = r;
    CHECK(fixture_build(&a) == ERRCORE_OK);
    CHECK(fixture_build(&b) == ERRCORE_OK);
    for (int64_t code = -5; code < 700; code++) {
        errcore_class ca = errcore_classify(&a.table, code), cb = errcore_classify(&b.table, code);
        CHECKF(ca == cb, "code %lld", (long long)code);
    }
}

/* The index errcore_build() makes is checked by errcore_validate(); a wrong one is rejected. */
static void test_index(void) {
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    CHECK(f.table.index_count > 0 && f.table.index_keys[0] == INT64_MIN);
    CHECK(errcore_validate(&f.table, NULL) == ERRCORE_OK);

    int64_t keys[64];
    errcore_index_slot slots[64];
    size_t n = 0;
    CHECK(errcore_index_build(&f.table, keys, slots, 64, &n) == ERRCORE_OK);
    CHECK(n == f.table.index_count);
    CHECK(memcmp(keys, f.table.index_keys, n * sizeof keys[0]) == 0);
    CHECK(errcore_index_build(&f.table, keys, slots, n - 1, &n) == ERRCORE_E_BUFFER_TOO_SMALL);
    CHECK(errcore_index_build(NULL, keys, slots, 64, &n) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_index_build(&f.table, keys, slots, 64, &n) == ERRCORE_OK);

    errcore_table t = f.table;
    t.index_keys = keys;
    t.index_slots = slots;
    errcore_diag d;

    slots[3].hit ^= 1u; /* a wrong class in slot 3 */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_INDEX);
    CHECK(d.subject == ERRCORE_SUBJECT_INDEX && d.index == 3 && d.code == keys[3]);
    slots[3].hit ^= 1u;
    CHECK(errcore_validate(&t, NULL) == ERRCORE_OK);

    t.index_count = n - 1; /* the last change point is missing */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_INDEX);
    CHECK(d.index == ERRCORE_NO_INDEX && d.code == keys[n - 1]);
    char buf[120];
    errcore_diag_format(&d, buf, sizeof buf);
    CHECKF(strstr(buf, "no key at change point") != NULL, "got \"%s\"", buf);
    t.index_count = n;

    int64_t k = keys[1]; /* unsorted */
    keys[1] = keys[2];
    keys[2] = k;
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_INDEX && d.index == 2);
    keys[2] = keys[1];
    keys[1] = k;

    keys[0] = -1000; /* must start at INT64_MIN */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_INDEX && d.index == 0);
    keys[0] = INT64_MIN;

    t.index_slots = NULL;
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_NULL_ARGUMENT && d.subject == ERRCORE_SUBJECT_INDEX);
}

void test_build(void) {
    test_index();
    test_valid_build();
    test_rejections();
    test_order_independent();
}

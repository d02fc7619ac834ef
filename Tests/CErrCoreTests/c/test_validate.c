/* test_validate.c — errcore_validate() on hand-written (static-style) tables: every status. */
#include <string.h>

#include "check.h"
#include "errcore_default_catalog.h"

/* Pool: 0 "", 1 "a", 3 "m", 5 "Alpha". */
static const char pool[] = "\0a\0m\0Alpha";

typedef struct table_fixture {
    int64_t codes[3];
    errcore_entry entries[3];
    errcore_module modules[1];
    errcore_range ranges[2];
    errcore_table t;
} table_fixture;

/* A valid table: success 0, base 5, module 1 code 150; module 1 owns [100, 199] and [300, 399]. */
static void table_init(table_fixture *f) {
    memset(f, 0, sizeof *f);
    const int64_t codes[3] = {0, 5, 150};
    const errcore_entry entries[3] = {
        {0, 0, 0, 1, 5, ERRCORE_NO_STRING},
        {0, ERRCORE_FLAG_RETRYABLE, 0, 1, 5, 0},
        {1, 0, 0, 1, 5, 5},
    };
    const errcore_module modules[1] = {{3, 5, ERRCORE_NO_STRING, 0}};
    const errcore_range ranges[2] = {{100, 199, 1}, {300, 399, 1}};
    memcpy(f->codes, codes, sizeof codes);
    memcpy(f->entries, entries, sizeof entries);
    memcpy(f->modules, modules, sizeof modules);
    memcpy(f->ranges, ranges, sizeof ranges);
    f->t.codes = f->codes;
    f->t.entries = f->entries;
    f->t.entry_count = 3;
    f->t.modules = f->modules;
    f->t.module_count = 1;
    f->t.ranges = f->ranges;
    f->t.range_count = 2;
    f->t.strings = pool;
    f->t.strings_size = sizeof pool;
    f->t.success_code = 0;
}

static void expect(table_fixture *f, errcore_status status, errcore_subject subject, size_t index, int line) {
    errcore_diag d;
    errcore_status got = errcore_validate(&f->t, &d);
    CHECKF(got == status, "line %d: got %s want %s", line, errcore_status_name(got), errcore_status_name(status));
    CHECKF(d.status == status && d.subject == subject && d.index == index,
           "line %d: diag status %d subject %d index %zu", line, (int)d.status, (int)d.subject, d.index);
    CHECKF(errcore_validate(&f->t, NULL) == status, "line %d: NULL diag", line);
}
#define EXPECT(f, st, subj, idx) expect(f, st, subj, idx, __LINE__)

void test_validate(void) {
    table_fixture f;

    table_init(&f);
    EXPECT(&f, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX);
    CHECK(errcore_validate(errcore_default_table(), NULL) == ERRCORE_OK);
    CHECK(errcore_validate(NULL, NULL) == ERRCORE_E_NULL_ARGUMENT);

    table_init(&f);
    f.t.codes = NULL;
    EXPECT(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX);
    table_init(&f);
    f.t.modules = NULL;
    EXPECT(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX);
    table_init(&f);
    f.t.ranges = NULL;
    EXPECT(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_RANGE, ERRCORE_NO_INDEX);
    table_init(&f);
    f.t.strings = NULL;
    EXPECT(&f, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_STRINGS, ERRCORE_NO_INDEX);

    table_init(&f);
    f.t.entry_count = (size_t)ERRCORE_MAX_COUNT + 1u;
    EXPECT(&f, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_ENTRY, ERRCORE_NO_INDEX);
    table_init(&f);
    f.t.module_count = ERRCORE_MAX_MODULES + 1u;
    EXPECT(&f, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_MODULE, ERRCORE_NO_INDEX);

    table_init(&f);
    f.t.strings_size = sizeof pool - 1; /* pool no longer ends with NUL */
    EXPECT(&f, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_STRINGS, sizeof pool - 2);
    table_init(&f);
    f.entries[1].message_en = 999;
    EXPECT(&f, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_ENTRY, 1);
    table_init(&f);
    f.entries[2].name = ERRCORE_NO_STRING; /* a name is not optional */
    EXPECT(&f, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_ENTRY, 2);
    table_init(&f);
    f.modules[0].title_zh = 12;
    EXPECT(&f, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_MODULE, 0);

    table_init(&f);
    f.entries[0].name = 0;
    EXPECT(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_ENTRY, 0);
    table_init(&f);
    f.modules[0].name = 0;
    EXPECT(&f, ERRCORE_E_EMPTY_NAME, ERRCORE_SUBJECT_MODULE, 0);

    table_init(&f);
    f.entries[2].reserved = 1;
    EXPECT(&f, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_ENTRY, 2);
    table_init(&f);
    f.modules[0].reserved = 1;
    EXPECT(&f, ERRCORE_E_RESERVED_NONZERO, ERRCORE_SUBJECT_MODULE, 0);

    /* Two modules with the same name, and with distinct names. */
    {
        static const char names_pool[] = "\0a\0m\0Alpha\0m\0n";
        errcore_module two[2] = {{3, 5, ERRCORE_NO_STRING, 0}, {11, 5, ERRCORE_NO_STRING, 0}};
        table_init(&f);
        f.t.strings = names_pool;
        f.t.strings_size = sizeof names_pool;
        f.t.modules = two;
        f.t.module_count = 2;
        errcore_diag d;
        CHECK(errcore_validate(&f.t, &d) == ERRCORE_E_DUPLICATE_MODULE_NAME);
        CHECK(d.subject == ERRCORE_SUBJECT_MODULE && d.index == 1 && d.other_index == 0 && d.code == 2 &&
              d.other_code == 1);
        two[1].name = 13; /* "n" */
        CHECK(errcore_validate(&f.t, &d) == ERRCORE_OK);
    }

    table_init(&f);
    f.ranges[1].module = 2;
    EXPECT(&f, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_RANGE, 1);
    table_init(&f);
    f.entries[2].module = 7;
    EXPECT(&f, ERRCORE_E_UNDECLARED_MODULE, ERRCORE_SUBJECT_ENTRY, 2);

    table_init(&f);
    f.ranges[0].last = 99;
    EXPECT(&f, ERRCORE_E_EMPTY_RANGE, ERRCORE_SUBJECT_RANGE, 0);

    table_init(&f); /* the no-sort path rejects unsorted ranges and codes */
    f.ranges[0] = (errcore_range){300, 399, 1};
    f.ranges[1] = (errcore_range){100, 199, 1};
    EXPECT(&f, ERRCORE_E_UNSORTED, ERRCORE_SUBJECT_RANGE, 1);
    table_init(&f);
    f.codes[1] = -5;
    EXPECT(&f, ERRCORE_E_UNSORTED, ERRCORE_SUBJECT_ENTRY, 1);

    table_init(&f);
    f.ranges[1].first = 199;
    EXPECT(&f, ERRCORE_E_RANGE_OVERLAP, ERRCORE_SUBJECT_RANGE, 1);

    table_init(&f);
    f.codes[1] = 0;
    EXPECT(&f, ERRCORE_E_DUPLICATE_CODE, ERRCORE_SUBJECT_ENTRY, 1);

    table_init(&f);
    f.t.success_code = 300;
    EXPECT(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_RANGE, 1);
    table_init(&f);
    f.entries[0].module = 1;
    EXPECT(&f, ERRCORE_E_SUCCESS_IN_MODULE, ERRCORE_SUBJECT_ENTRY, 0);

    table_init(&f);
    f.codes[2] = 250;
    EXPECT(&f, ERRCORE_E_CODE_OUTSIDE_MODULE, ERRCORE_SUBJECT_ENTRY, 2);

    table_init(&f);
    f.codes[1] = 120;
    EXPECT(&f, ERRCORE_E_BASE_IN_MODULE_RANGE, ERRCORE_SUBJECT_ENTRY, 1);
}

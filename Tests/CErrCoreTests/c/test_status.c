/* test_status.c — status names and texts, and diagnostic formatting. */
#include <string.h>

#include "check.h"
#include "fixture.h"

void test_status(void) {
    /* Every status has its own name and text. */
    for (int a = 0; a < ERRCORE_STATUS_COUNT; a++) {
        CHECK(strncmp(errcore_status_name((errcore_status)a), "ERRCORE_", 8) == 0);
        CHECK(strcmp(errcore_status_string((errcore_status)a), "unknown status") != 0);
        for (int b = a + 1; b < ERRCORE_STATUS_COUNT; b++) {
            CHECK(strcmp(errcore_status_string((errcore_status)a), errcore_status_string((errcore_status)b)) != 0);
            CHECK(strcmp(errcore_status_name((errcore_status)a), errcore_status_name((errcore_status)b)) != 0);
        }
    }
    CHECK(strcmp(errcore_status_name(ERRCORE_E_DUPLICATE_CODE), "ERRCORE_E_DUPLICATE_CODE") == 0);
    CHECK(strcmp(errcore_status_string((errcore_status)ERRCORE_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(errcore_status_name((errcore_status)-1), "ERRCORE_E_UNKNOWN") == 0);

    /* A duplicate names both input indices and the code. */
    fixture f;
    fixture_init(&f);
    f.entries[5].code = 150;
    CHECK(fixture_build(&f) == ERRCORE_E_DUPLICATE_CODE);
    char buf[160];
    size_t n = errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, "duplicate code: entry 5 (code 150) repeats entry 2") == 0, "got \"%s\"", buf);
    CHECK(n == strlen(buf));

    /* Truncation keeps the snprintf contract: NUL-terminated, full length returned. */
    char small[10];
    CHECK(errcore_diag_format(&f.diag, small, sizeof small) == n);
    CHECK(strlen(small) == sizeof small - 1 && strncmp(small, buf, sizeof small - 1) == 0);
    CHECK(errcore_diag_format(&f.diag, NULL, 0) == n);

    fixture_init(&f);
    f.entries[2].code = 360;
    CHECK(fixture_build(&f) == ERRCORE_E_CODE_OUTSIDE_MODULE);
    errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, "code outside its module's ranges: entry 2 (code 360) is not in a range of "
                       "module 1; module 2 owns it") == 0,
           "got \"%s\"", buf);

    fixture_init(&f);
    f.ranges[2].first = 199;
    CHECK(fixture_build(&f) == ERRCORE_E_RANGE_OVERLAP);
    errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, "overlapping module ranges: range 2 (first code 199) overlaps range 1 "
                       "(first code 100)") == 0,
           "got \"%s\"", buf);

    /* The new values keep their numbers: appended after the existing ones. */
    CHECK(ERRCORE_E_BAD_INDEX == 15 && ERRCORE_E_MISALIGNED == 16 && ERRCORE_E_DUPLICATE_MODULE_NAME == 17 &&
          ERRCORE_E_BAD_FRONT == 18 && ERRCORE_E_BAD_LANGUAGE_TAG == 19 && ERRCORE_E_DUPLICATE_LANGUAGE == 20 &&
          ERRCORE_E_DUPLICATE_STRING == 21 && ERRCORE_E_UNDECLARED_SPACE == 22 && ERRCORE_E_UNKNOWN_CODE == 23 &&
          ERRCORE_E_BAD_STRINGS == 24 && ERRCORE_STATUS_COUNT == 25);
    CHECK(ERRCORE_SUBJECT_INDEX == 5 && ERRCORE_SUBJECT_FRONT == 6 && ERRCORE_SUBJECT_FRONT_GAP == 7 &&
          ERRCORE_SUBJECT_LANGUAGE == 8 && ERRCORE_SUBJECT_STRING_CODE == 9 && ERRCORE_SUBJECT_STRING_SPACE == 10);
    CHECK(strcmp(errcore_status_name(ERRCORE_E_BAD_FRONT), "ERRCORE_E_BAD_FRONT") == 0);
    CHECK(strcmp(errcore_status_string(ERRCORE_E_BAD_FRONT), "exact-match front does not match the table") == 0);
    CHECK(strcmp(errcore_status_name(ERRCORE_E_MISALIGNED), "ERRCORE_E_MISALIGNED") == 0);
    CHECK(strcmp(errcore_status_name(ERRCORE_E_DUPLICATE_MODULE_NAME), "ERRCORE_E_DUPLICATE_MODULE_NAME") == 0);
    CHECK(strcmp(errcore_status_string(ERRCORE_E_BUFFER_TOO_SMALL), "storage too small") == 0);
    CHECK(strcmp(errcore_status_string(ERRCORE_E_MISALIGNED), "storage misaligned") == 0);
    CHECK(strcmp(errcore_status_string(ERRCORE_E_DUPLICATE_MODULE_NAME), "duplicate module name") == 0);

    fixture_init(&f);
    CHECK(errcore_build(&f.def, f.storage, 100, &f.table, &f.diag) == ERRCORE_E_BUFFER_TOO_SMALL);
    size_t need = 0;
    CHECK(errcore_build_size(&f.def, &need, NULL) == ERRCORE_OK);
    char want[80];
    snprintf(want, sizeof want, "storage too small: %zu bytes needed, 100 given", need);
    errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, want) == 0, "got \"%s\"", buf);

    fixture_init(&f);
    CHECK(errcore_build(&f.def, f.storage + 2, need, &f.table, &f.diag) == ERRCORE_E_MISALIGNED);
    errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, "storage misaligned: address is 2 bytes past a multiple of 8") == 0, "got \"%s\"", buf);

    fixture_init(&f);
    f.modules[1].name = "alpha";
    CHECK(fixture_build(&f) == ERRCORE_E_DUPLICATE_MODULE_NAME);
    errcore_diag_format(&f.diag, buf, sizeof buf);
    CHECKF(strcmp(buf, "duplicate module name: module 1 (id 2) repeats module 0") == 0, "got \"%s\"", buf);

    CHECK(errcore_diag_format(NULL, buf, sizeof buf) == strlen("no diagnostic"));
    CHECK(strcmp(buf, "no diagnostic") == 0);
}

/* check.h — the plain C test harness: CHECK counts, the runner prints "N passed, N failed". */
#ifndef ERRCORE_TEST_CHECK_H
#define ERRCORE_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "CErrCore.h"

extern unsigned long check_passed;
extern unsigned long check_failed;

/* Records one assertion; prints the failing expression with its location. */
#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            check_passed++;                                                                                            \
        } else {                                                                                                       \
            check_failed++;                                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                            \
        }                                                                                                              \
    } while (0)

/* Like CHECK, with a formatted explanation on failure. */
#define CHECKF(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            check_passed++;                                                                                            \
        } else {                                                                                                       \
            check_failed++;                                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                            \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

/* The test groups, one per file. */
void test_status(void);
void test_validate(void);
void test_build(void);
void test_languages(void);
void test_language_rule(void);
void test_classify(void);
void test_text(void);
void test_differential(void);
void test_check(void);
void test_sort(void);
void test_front(void);
void test_version(void);
void test_batch_paths(void);
void test_strings(void);

/*
 * The batch on a named path, and whether a path runs here: the library's
 * errcore_classify_batch_using() and errcore_batch_path_available(), unless
 * a build of the tests puts its own in (make test-avx512-emulated).
 */
#ifndef CHECK_BATCH_USING
#define CHECK_BATCH_USING    errcore_classify_batch_using
#define CHECK_PATH_AVAILABLE errcore_batch_path_available
#endif

/* A deterministic PRNG (splitmix64) shared by the randomised tests. */
static inline uint64_t check_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif

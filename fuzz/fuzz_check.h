/*
 * fuzz_check.h — the fuzz targets' assertion: on failure prints the
 * condition and an explanation, then aborts so libFuzzer keeps the input.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FZ_CHECK(cond, ...)                                                                                            \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond);                          \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/*
 * FZ_HARNESS marks a helper of a fuzz target whose own comparisons (loops
 * over probes, clash checks, expected results) are not worth the fuzzer's
 * attention: clang leaves them out of the coverage tracing, which otherwise
 * costs more time than the code under test. The core stays traced.
 */
#if defined(__clang__)
#define FZ_HARNESS __attribute__((no_sanitize("coverage")))
#else
#define FZ_HARNESS
#endif

#endif /* FUZZ_CHECK_H */

/*
 * fuzz_check.h — the fuzz targets' assertion: on failure prints the
 * condition and an explanation, then aborts so libFuzzer keeps the input.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FZ_CHECK(cond, ...)                                                        \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__,       \
                    __LINE__, #cond);                                              \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            abort();                                                               \
        }                                                                          \
    } while (0)

#endif /* FUZZ_CHECK_H */

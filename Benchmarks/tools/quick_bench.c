/*
 * quick_bench.c — a quick C measurement of the classifier on the default
 * catalog: ns per code for errcore_classify (one call per code),
 * errcore_classify_batch, and the batch on each of its paths this CPU has
 * (errcore_classify_batch_using), with each one's ratio to the memory floor
 * (summing the input) of the same runs; median of 7 runs over 10 M codes
 * (80 % exact hits, the rest unrecognised-in-module or unknown). A
 * benchmark, never a test: `make bench-quick`. The full comparison lives in
 * Benchmarks/.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "CErrCore.h"
#include "bench_timing.h"
#include "errcore_default_catalog.h"

#define COUNT 10000000u
#define RUNS  7

int main(void) {
    const errcore_table *t = errcore_default_table();
    int64_t *codes = malloc(COUNT * sizeof *codes);
    errcore_class *out = malloc(COUNT * sizeof *out);
    if (!codes || !out) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t s = 1;
    for (size_t i = 0; i < COUNT; i++) {
        uint64_t r = next(&s) % 100;
        codes[i] = r < 80   ? t->codes[next(&s) % t->entry_count]
                   : r < 90 ? 11210000 + (int64_t)(next(&s) % 10000)
                            : (int64_t)(next(&s) % 100000000);
    }
    double single[RUNS], batch[RUNS], floor_ns[RUNS], path_ns[ERRCORE_BATCH_PATH_COUNT][RUNS];
    uint64_t sink = 0;
    for (int run = 0; run < RUNS; run++) {
        double t0 = now_ns();
        for (size_t i = 0; i < COUNT; i++) {
            sink += errcore_classify(t, codes[i]);
        }
        double t1 = now_ns();
        errcore_classify_batch(t, codes, out, COUNT);
        double t2 = now_ns();
        sink += out[COUNT / 2];
        for (size_t i = 0; i < COUNT; i++) {
            sink += (uint64_t)codes[i];
        }
        double t3 = now_ns();
        single[run] = (t1 - t0) / COUNT;
        batch[run] = (t2 - t1) / COUNT;
        floor_ns[run] = (t3 - t2) / COUNT;
        for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
            double p0 = now_ns();
            bool ran = errcore_classify_batch_using(t, codes, out, COUNT, (errcore_batch_path)p);
            path_ns[p][run] = ran ? (now_ns() - p0) / COUNT : 0;
            sink += out[COUNT / 3];
        }
    }
    qsort(single, RUNS, sizeof single[0], cmp_double);
    qsort(batch, RUNS, sizeof batch[0], cmp_double);
    qsort(floor_ns, RUNS, sizeof floor_ns[0], cmp_double);
    double fl = floor_ns[RUNS / 2];
    printf("default catalog (%zu entries, %zu ranges), %u codes, median of %d runs\n", t->entry_count, t->range_count,
           COUNT, RUNS);
    printf("errcore_classify        %.2f ns/code (min %.2f, max %.2f) %5.2fx the floor\n", single[RUNS / 2], single[0],
           single[RUNS - 1], single[RUNS / 2] / fl);
    printf("errcore_classify_batch  %.2f ns/code (min %.2f, max %.2f) %5.2fx the floor (auto: %s)\n", batch[RUNS / 2],
           batch[0], batch[RUNS - 1], batch[RUNS / 2] / fl, errcore_batch_path_name(errcore_batch_path_auto()));
    for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        if (!errcore_batch_path_available((errcore_batch_path)p)) {
            printf("  %-6s path           not on this CPU\n", errcore_batch_path_name((errcore_batch_path)p));
            continue;
        }
        qsort(path_ns[p], RUNS, sizeof path_ns[p][0], cmp_double);
        printf("  %-6s path           %.2f ns/code (min %.2f, max %.2f) %5.2fx the floor\n",
               errcore_batch_path_name((errcore_batch_path)p), path_ns[p][RUNS / 2], path_ns[p][0],
               path_ns[p][RUNS - 1], path_ns[p][RUNS / 2] / fl);
    }
    printf("memory floor (sum)      %.2f ns/code (min %.2f, max %.2f)\n", fl, floor_ns[0], floor_ns[RUNS - 1]);
    fprintf(stderr, "(checksum %llu)\n", (unsigned long long)sink);
    free(codes);
    free(out);
    return 0;
}

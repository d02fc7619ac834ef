/*
 * string_lookup.c — ns per lookup of a string code among N (32, 1,000, 10,000 keys, 8 to 32
 * bytes of [a-z_], in the table's own namespace), four ways, on the same keys and the same
 * workload (1 M lookups, 90 % listed keys, 10 % strings of the same alphabet that are not):
 *
 *   errcore    errcore_classify_string() over a string table errcore_string_build() made
 *   sorted     a binary search over the keys sorted by length, then bytes (memcmp)
 *   gperf      the perfect hash gperf generated for the keys (Debian gperf; the script runs it)
 *   int        errcore_classify() over the same N entries' integer codes: the integer single
 *              call the string lookup is compared with
 *
 * Median of 9 runs; every approach must classify every lookup as errcore does (checked before
 * timing). A benchmark, never a test: Benchmarks/tools/string-lookup.sh builds and runs it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "CErrCore.h"
#include "bench_timing.h"

#define LOOKUPS 1000000u
#define RUNS    9

/* The gperf functions, one per key count (string_lookup_gperf_N.c). */
struct gp_entry {
    const char *name;
    int index;
};
const struct gp_entry *gp_lookup_32(const char *str, size_t len);
const struct gp_entry *gp_lookup_1000(const char *str, size_t len);
const struct gp_entry *gp_lookup_10000(const char *str, size_t len);

typedef struct {
    const char *bytes;
    size_t length;
    errcore_class cls;
} sorted_key;

static int key_order(const void *a, const void *b) {
    const sorted_key *x = a, *y = b;
    if (x->length != y->length)
        return x->length < y->length ? -1 : 1;
    return memcmp(x->bytes, y->bytes, x->length);
}

static errcore_class sorted_find(const sorted_key *keys, size_t n, const char *s, size_t len) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = keys[mid].length != len ? (keys[mid].length < len ? -1 : 1) : memcmp(keys[mid].bytes, s, len);
        if (c == 0)
            return keys[mid].cls;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (errcore_class)ERRCORE_NO_ENTRY;
}

static char **read_keys(const char *path, size_t *count) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1024, n = 0;
    char **keys = malloc(cap * sizeof *keys), line[256];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (n == cap)
            keys = realloc(keys, (cap *= 2) * sizeof *keys);
        keys[n++] = strdup(line);
    }
    fclose(f);
    *count = n;
    return keys;
}

static void measure(size_t n, const char *keys_path) {
    size_t count;
    char **keys = read_keys(keys_path, &count);
    if (count != n) {
        fprintf(stderr, "%s: %zu keys, expected %zu\n", keys_path, count, n);
        exit(1);
    }
    const struct gp_entry *(*gperf)(const char *, size_t) = n == 32     ? gp_lookup_32
                                                            : n == 1000 ? gp_lookup_1000
                                                                        : gp_lookup_10000;

    /* The table: success 0, base entries 1 ... n; each key stands for entry code i + 1. */
    errcore_entry_def *entries = calloc(n + 1, sizeof *entries);
    errcore_string_code_def *codes = calloc(n, sizeof *codes);
    for (size_t i = 0; i <= n; i++) {
        entries[i].code = (int64_t)i;
        entries[i].name = "k";
        entries[i].message_en = "m";
    }
    for (size_t i = 0; i < n; i++) {
        codes[i].code = keys[i];
        codes[i].length = strlen(keys[i]);
        codes[i].entry_code = (int64_t)i + 1;
    }
    errcore_catalog_def def = {0};
    def.success_code = 0;
    def.entries = entries;
    def.entry_count = n + 1;
    errcore_diag diag;
    size_t size;
    errcore_table table;
    if (errcore_build_size(&def, &size, &diag) != ERRCORE_OK) {
        fprintf(stderr, "build_size failed\n");
        exit(1);
    }
    void *storage = aligned_alloc(8, (size + 7) & ~(size_t)7);
    if (errcore_build(&def, storage, size, &table, &diag) != ERRCORE_OK) {
        fprintf(stderr, "build failed\n");
        exit(1);
    }
    errcore_string_def sdef = {NULL, 0, codes, n};
    size_t ssize;
    errcore_string_table strings;
    if (errcore_string_build_size(&sdef, &ssize, &diag) != ERRCORE_OK) {
        fprintf(stderr, "string size failed\n");
        exit(1);
    }
    void *sstorage = aligned_alloc(8, (ssize + 7) & ~(size_t)7);
    if (errcore_string_build(&table, &sdef, sstorage, ssize, &strings, &diag) != ERRCORE_OK) {
        fprintf(stderr, "string build failed: %d\n", (int)diag.status);
        exit(1);
    }
    sorted_key *sorted = malloc(n * sizeof *sorted);
    errcore_class *by_index = malloc(n * sizeof *by_index);
    for (size_t i = 0; i < n; i++) {
        sorted[i].bytes = keys[i];
        sorted[i].length = strlen(keys[i]);
        sorted[i].cls = errcore_classify(&table, (int64_t)i + 1);
    }
    qsort(sorted, n, sizeof *sorted, key_order);

    /* The workload: pointers and lengths (and, for int, the listed keys' codes). */
    const char **probe = malloc(LOOKUPS * sizeof *probe);
    size_t *probe_length = malloc(LOOKUPS * sizeof *probe_length);
    int64_t *probe_code = malloc(LOOKUPS * sizeof *probe_code);
    /* gperf's index is its own order of the keys: map it to the key's class (by name). */
    uint64_t seed = 42;
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz_";
    char *misses = malloc((size_t)LOOKUPS * 33);
    size_t miss_used = 0;
    for (size_t i = 0; i < LOOKUPS; i++) {
        if (next(&seed) % 10 == 0) {
            size_t len = 8 + next(&seed) % 25;
            char *s = misses + miss_used;
            for (size_t k = 0; k < len; k++)
                s[k] = alphabet[next(&seed) % 27];
            miss_used += len;
            probe[i] = s;
            probe_length[i] = len;
            probe_code[i] = -1;
        } else {
            size_t k = next(&seed) % n;
            probe[i] = keys[k];
            probe_length[i] = strlen(keys[k]);
            probe_code[i] = (int64_t)k + 1;
        }
    }
    errcore_class *gperf_class = malloc(n * sizeof *gperf_class);
    for (size_t i = 0; i < n; i++) {
        const struct gp_entry *e = gperf(keys[i], strlen(keys[i]));
        if (!e) {
            fprintf(stderr, "gperf misses key %zu\n", i);
            exit(1);
        }
        gperf_class[e->index] = errcore_classify(&table, (int64_t)i + 1);
    }
    /* Every approach agrees with errcore_classify_string on every lookup. */
    for (size_t i = 0; i < LOOKUPS; i++) {
        errcore_class want = errcore_classify_string(&strings, NULL, 0, probe[i], probe_length[i]);
        const struct gp_entry *e = gperf(probe[i], probe_length[i]);
        errcore_class g = e ? gperf_class[e->index] : (errcore_class)ERRCORE_NO_ENTRY;
        errcore_class s = sorted_find(sorted, n, probe[i], probe_length[i]);
        if (g != want || s != want) {
            fprintf(stderr, "lookup %zu disagrees\n", i);
            exit(1);
        }
    }

    double t[4][RUNS];
    volatile uint64_t sink = 0;
    for (int r = 0; r < RUNS; r++) {
        uint64_t acc = 0;
        double t0 = now_ns();
        for (size_t i = 0; i < LOOKUPS; i++)
            acc += errcore_classify_string(&strings, NULL, 0, probe[i], probe_length[i]);
        double t1 = now_ns();
        for (size_t i = 0; i < LOOKUPS; i++)
            acc += sorted_find(sorted, n, probe[i], probe_length[i]);
        double t2 = now_ns();
        for (size_t i = 0; i < LOOKUPS; i++) {
            const struct gp_entry *e = gperf(probe[i], probe_length[i]);
            acc += e ? gperf_class[e->index] : (errcore_class)ERRCORE_NO_ENTRY;
        }
        double t3 = now_ns();
        for (size_t i = 0; i < LOOKUPS; i++)
            acc += errcore_classify(&table, probe_code[i]);
        double t4 = now_ns();
        sink += acc;
        t[0][r] = (t1 - t0) / LOOKUPS;
        t[1][r] = (t2 - t1) / LOOKUPS;
        t[2][r] = (t3 - t2) / LOOKUPS;
        t[3][r] = (t4 - t3) / LOOKUPS;
    }
    for (int a = 0; a < 4; a++)
        qsort(t[a], RUNS, sizeof(double), cmp_double);
    double e = t[0][RUNS / 2], s = t[1][RUNS / 2], g = t[2][RUNS / 2], i = t[3][RUNS / 2];
    printf("%6zu  %8.2f  %8.2f  %8.2f  %8.2f   %5.2fx  %5.2fx  %5.2fx\n", n, e, s, g, i, e / i, s / e, g / e);
    (void)sink;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: string_lookup KEYS_32 KEYS_1000 KEYS_10000\n");
        return 2;
    }
    printf("ns per lookup (median of %d runs of %u lookups: 90 %% listed, 10 %% not)\n", RUNS, LOOKUPS);
    printf("%6s  %8s  %8s  %8s  %8s   %6s  %6s  %6s\n", "keys", "errcore", "sorted", "gperf", "int", "e/int", "sort/e",
           "gperf/e");
    measure(32, argv[1]);
    measure(1000, argv[2]);
    measure(10000, argv[3]);
    return 0;
}

/*
 * CBaselines.h — what the SwiftErr classifier is measured against, in C, on
 * the same tables and the same input arrays: libc bsearch, a plain branchy
 * binary search, a linear scan, one errcore_classify() call per code, and the
 * memory floor (summing the input). Also builds the synthetic tables and the
 * fixed-seed input streams every approach reads, and the string-code lookup's
 * workload with its sorted-array and integer-call baselines.
 *
 * Every cbl_*_classify() function writes, for each code, the errcore_class
 * that errcore_classify() gives, so their outputs can be compared one to one.
 * Benchmark-only code: not part of SwiftErr.
 */
#ifndef CBASELINES_H
#define CBASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "CErrCore.h"
#include "synthetic_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tables ------------------------------------------------------------------------- */

/* A table built by cbl_table_build(); free it with cbl_table_free(). */
typedef struct cbl_built_table {
    errcore_table table; /* valid after a successful build */
    void *storage;       /* errcore_build() storage, 8-aligned */
    char *names;         /* generated entry and module names */
} cbl_built_table;

/*
 * cbl_table_build — builds the synthetic catalog with `total` codes (256 or
 * 4096, see synthetic_tables.c) with errcore_build(). Entry names are "e<code>",
 * module names "m<id>".
 *
 * Returns 0 and fills *out; or -1 when `total` is not a generated size or an
 * allocation failed; or the errcore_status of a rejected build, with a
 * one-line explanation in err (when err_size > 0).
 */
int cbl_table_build(size_t total, cbl_built_table *out, char *err, size_t err_size);

/* cbl_table_free — releases what cbl_table_build() allocated; NULL-safe. */
void cbl_table_free(cbl_built_table *table);

/* ---- input -------------------------------------------------------------------------- */

/* The share of each kind of code in a stream from cbl_make_input(). */
typedef struct cbl_input_mix {
    size_t hits;          /* codes that are table entries (success, base or module) */
    size_t unrecognised;  /* unlisted codes inside a module range */
    size_t unknown;       /* codes outside every range, not in the table */
} cbl_input_mix;

/*
 * cbl_make_input — fills codes[0 ... n-1] from a splitmix64 stream seeded with
 * `seed`: hit_percent % of the codes are entries of `table` chosen uniformly;
 * the misses are split evenly between unlisted codes inside a random module
 * range and unknown codes in [-50,000,000, 50,000,000) (drawn again until
 * errcore_classify() agrees with the intended kind). A table with no ranges
 * gets only unknown misses. Returns the mix actually written.
 * hit_percent above 100 counts as 100. `table` must be valid with at least
 * one entry.
 */
cbl_input_mix cbl_make_input(const errcore_table *table, uint64_t seed, unsigned hit_percent,
                             int64_t *codes, size_t n);

/* ---- baselines ---------------------------------------------------------------------- */

/* One errcore_classify() call per code (the C single-code path), into out[]. */
void cbl_single_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                         size_t n);

/* libc bsearch() with a comparator over the codes, then over the ranges on a miss. */
void cbl_bsearch_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                          size_t n);

/* A plain binary search with an early exit on equality (branchy), codes then ranges. */
void cbl_branchy_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                          size_t n);

/* A linear scan of the codes with an early exit, then of the ranges. */
void cbl_linear_classify(const errcore_table *table, const int64_t *codes, errcore_class *out,
                         size_t n);

/* The memory floor: the wrapping sum of codes[0 ... n-1] (reads the input once). */
uint64_t cbl_memory_floor(const int64_t *codes, size_t n);

/*
 * The copy floor: out[k] = codes[k] + 1 for every code, with ordinary stores (the + 1 keeps
 * compilers from calling memcpy, which may switch to non-temporal stores on large arrays). What
 * any batch that reads each code once and writes 8 bytes per code pays in memory traffic.
 */
void cbl_copy_floor(const int64_t *codes, uint64_t *out, size_t n);

/* A checksum of classes (to compare outputs and keep results alive). */
uint64_t cbl_checksum(const errcore_class *out, size_t n);

/*
 * cbl_first_difference — the first index where a[i] != b[i], or n when the
 * two arrays are equal.
 */
size_t cbl_first_difference(const errcore_class *a, const errcore_class *b, size_t n);

/* ---- string codes ------------------------------------------------------------------- */

/* A key of the sorted-array baseline: its bytes, length and class. */
typedef struct cbl_sorted_key {
    const char *bytes;
    size_t length;
    errcore_class cls;
} cbl_sorted_key;

/*
 * The string lookup's workload (string_workload.c): key_count distinct keys of 8 to 32 bytes of
 * [a-z_]; a table of key_count + 1 entries (success 0; key k stands for entry code k + 1) and its
 * string table; probe_count probes, 90 % listed keys and 10 % other strings of the same alphabet,
 * with the listed probes' integer codes (-1 for the others). Free it with
 * cbl_string_workload_free().
 */
typedef struct cbl_string_workload {
    size_t key_count;
    const char **keys;
    size_t *key_lengths;
    char *key_bytes;
    cbl_sorted_key *sorted; /* the keys by length, then bytes */
    errcore_table table;
    void *table_storage;
    errcore_string_table strings;
    void *string_storage;
    size_t probe_count;
    const char **probes;
    size_t *probe_lengths;
    int64_t *probe_codes;
    char *probe_bytes;
} cbl_string_workload;

/*
 * cbl_string_workload_make — makes the workload from `seed` (the same keys and probes for the
 * same arguments). Returns 0; or -1 with a message in err when keys or probes is 0, memory ran
 * out, or a table build failed.
 */
int cbl_string_workload_make(size_t keys, size_t probes, uint64_t seed, cbl_string_workload *w, char *err,
                             size_t err_size);

/* cbl_string_workload_free — frees what cbl_string_workload_make() allocated. */
void cbl_string_workload_free(cbl_string_workload *w);

/* The class of each of the first n probes by errcore_classify_string(), one call each. */
void cbl_string_classify(const cbl_string_workload *w, errcore_class *out, size_t n);

/* The same by a binary search over the keys sorted by length, then bytes (memcmp). */
void cbl_string_sorted_classify(const cbl_string_workload *w, errcore_class *out, size_t n);

/* errcore_classify() of each probe's integer code: the integer single call on the same entries. */
void cbl_string_int_classify(const cbl_string_workload *w, errcore_class *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* CBASELINES_H */

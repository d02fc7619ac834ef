/*
 * string_workload.c — the string-code lookup's workload for `compare`: N distinct keys (8 to 32
 * bytes of [a-z_], fixed seed), a table of N + 1 entries (success 0, key k standing for entry
 * k + 1) with its string table, and probes (90 % listed keys, 10 % strings of the same alphabet
 * that are not). Three ways to classify the probes, each giving the class errcore_classify_string()
 * gives: that call, a binary search over the keys sorted by length then bytes, and the integer
 * single call errcore_classify() on the listed keys' codes (-1 for the others).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CBaselines.h"

static uint64_t cbl__string_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const char cbl__alphabet[] = "abcdefghijklmnopqrstuvwxyz_";

/* Orders keys by length, then bytes. */
static int cbl__compare_keys(const cbl_sorted_key *a, const char *bytes, size_t length) {
    if (a->length != length) {
        return a->length < length ? -1 : 1;
    }
    return memcmp(a->bytes, bytes, length);
}

static int cbl__sort_keys(const void *a, const void *b) {
    const cbl_sorted_key *y = b;
    return cbl__compare_keys(a, y->bytes, y->length);
}

static int cbl__fail(char *err, size_t err_size, const char *what, size_t keys) {
    if (err_size > 0) {
        snprintf(err, err_size, "%s (%zu keys)", what, keys);
    }
    return -1;
}

int cbl_string_workload_make(size_t keys, size_t probes, uint64_t seed, cbl_string_workload *w, char *err,
                             size_t err_size) {
    memset(w, 0, sizeof *w);
    if (keys == 0 || probes == 0) {
        return cbl__fail(err, err_size, "a string workload needs keys and probes", keys);
    }
    w->key_count = keys;
    w->probe_count = probes;
    w->key_bytes = malloc(keys * 33);
    w->keys = calloc(keys, sizeof *w->keys);
    w->key_lengths = calloc(keys, sizeof *w->key_lengths);
    w->sorted = calloc(keys, sizeof *w->sorted);
    w->probe_bytes = malloc(probes * 33);
    w->probes = calloc(probes, sizeof *w->probes);
    w->probe_lengths = calloc(probes, sizeof *w->probe_lengths);
    w->probe_codes = calloc(probes, sizeof *w->probe_codes);
    errcore_entry_def *entries = calloc(keys + 1, sizeof *entries);
    errcore_string_code_def *codes = calloc(keys, sizeof *codes);
    if (!w->key_bytes || !w->keys || !w->key_lengths || !w->sorted || !w->probe_bytes || !w->probes ||
        !w->probe_lengths || !w->probe_codes || !entries || !codes) {
        free(entries);
        free(codes);
        cbl_string_workload_free(w);
        return cbl__fail(err, err_size, "out of memory making the string workload", keys);
    }
    /* Distinct keys: a candidate equal to an earlier one is drawn again (found by the sort below). */
    size_t made = 0;
    while (made < keys) {
        char *key = w->key_bytes + made * 33;
        size_t length = 8 + (size_t)(cbl__string_next(&seed) % 25);
        for (size_t i = 0; i < length; i++) {
            key[i] = cbl__alphabet[cbl__string_next(&seed) % 27];
        }
        int repeat = 0;
        for (size_t j = 0; j < made && !repeat; j++) {
            repeat = w->key_lengths[j] == length && memcmp(w->keys[j], key, length) == 0;
        }
        if (!repeat) {
            w->keys[made] = key;
            w->key_lengths[made] = length;
            made++;
        }
    }
    for (size_t i = 0; i <= keys; i++) {
        entries[i].code = (int64_t)i;
        entries[i].name = "k";
        entries[i].message_en = "m";
    }
    for (size_t i = 0; i < keys; i++) {
        codes[i] = (errcore_string_code_def){w->keys[i], w->key_lengths[i], 0, (int64_t)i + 1};
    }
    errcore_catalog_def def = {0};
    def.success_code = 0;
    def.entries = entries;
    def.entry_count = keys + 1;
    errcore_diag diag;
    size_t size = 0, string_size = 0;
    errcore_string_def string_def = {NULL, 0, codes, keys};
    int built = errcore_build_size(&def, &size, &diag) == ERRCORE_OK &&
                (w->table_storage = aligned_alloc(8, (size + 7) & ~(size_t)7)) != NULL &&
                errcore_build(&def, w->table_storage, size, &w->table, &diag) == ERRCORE_OK &&
                errcore_string_build_size(&string_def, &string_size, &diag) == ERRCORE_OK &&
                (w->string_storage = aligned_alloc(8, (string_size + 7) & ~(size_t)7)) != NULL &&
                errcore_string_build(&w->table, &string_def, w->string_storage, string_size, &w->strings, &diag) ==
                    ERRCORE_OK;
    free(entries);
    free(codes);
    if (!built) {
        cbl_string_workload_free(w);
        return cbl__fail(err, err_size, "building the string workload's tables failed", keys);
    }
    for (size_t i = 0; i < keys; i++) {
        w->sorted[i] = (cbl_sorted_key){w->keys[i], w->key_lengths[i], errcore_classify(&w->table, (int64_t)i + 1)};
    }
    qsort(w->sorted, keys, sizeof *w->sorted, cbl__sort_keys);
    /* The other strings back to back, as they come: read in order, as the listed keys are. */
    size_t used = 0;
    for (size_t i = 0; i < probes; i++) {
        if (cbl__string_next(&seed) % 10 == 0) {
            char *probe = w->probe_bytes + used;
            size_t length = 8 + (size_t)(cbl__string_next(&seed) % 25);
            for (size_t k = 0; k < length; k++) {
                probe[k] = cbl__alphabet[cbl__string_next(&seed) % 27];
            }
            w->probes[i] = probe;
            w->probe_lengths[i] = length;
            w->probe_codes[i] = -1;
            used += length;
        } else {
            size_t k = (size_t)(cbl__string_next(&seed) % keys);
            w->probes[i] = w->keys[k];
            w->probe_lengths[i] = w->key_lengths[k];
            w->probe_codes[i] = (int64_t)k + 1;
        }
    }
    return 0;
}

void cbl_string_workload_free(cbl_string_workload *w) {
    free(w->key_bytes);
    free(w->keys);
    free(w->key_lengths);
    free(w->sorted);
    free(w->probe_bytes);
    free(w->probes);
    free(w->probe_lengths);
    free(w->probe_codes);
    free(w->table_storage);
    free(w->string_storage);
    memset(w, 0, sizeof *w);
}

void cbl_string_classify(const cbl_string_workload *w, errcore_class *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        out[i] = errcore_classify_string(&w->strings, NULL, 0, w->probes[i], w->probe_lengths[i]);
    }
}

void cbl_string_sorted_classify(const cbl_string_workload *w, errcore_class *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const char *bytes = w->probes[i];
        size_t length = w->probe_lengths[i], lo = 0, hi = w->key_count;
        errcore_class found = ERRCORE_CLASS_UNKNOWN;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int order = cbl__compare_keys(&w->sorted[mid], bytes, length);
            if (order == 0) {
                found = w->sorted[mid].cls;
                break;
            }
            if (order < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        out[i] = found;
    }
}

void cbl_string_int_classify(const cbl_string_workload *w, errcore_class *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        out[i] = errcore_classify(&w->table, w->probe_codes[i]);
    }
}

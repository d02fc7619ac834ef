/*
 * measure_helpers.c — the memory floor (one pass over the input), the copy
 * floor (one pass that also writes 8 bytes per code), and the
 * checksum and comparison of classification arrays.
 */
#include "CBaselines.h"

uint64_t cbl_memory_floor(const int64_t *codes, size_t n) {
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum += (uint64_t)codes[k];
    }
    return sum;
}

void cbl_copy_floor(const int64_t *codes, uint64_t *out, size_t n) {
    for (size_t k = 0; k < n; k++) {
        out[k] = (uint64_t)codes[k] + 1u;
    }
}

uint64_t cbl_checksum(const errcore_class *out, size_t n) {
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum = sum * 31u + out[k];
    }
    return sum;
}

size_t cbl_first_difference(const errcore_class *a, const errcore_class *b, size_t n) {
    for (size_t k = 0; k < n; k++) {
        if (a[k] != b[k]) {
            return k;
        }
    }
    return n;
}

/* build_bytes.c — see build_bytes.h. */
#include "build_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { TAIL = 64 };

/* The offset of p in storage, or -1 for NULL. */
static long long offset_in(const void *p, const unsigned char *storage) {
    return p ? (long long)((const unsigned char *)p - storage) : -1;
}

/* The offsets of every array of t in storage, in a fixed order. */
static void offsets_of(const errcore_table *t, const unsigned char *storage, long long out[12]) {
    const void *arrays[12] = {t->codes,         t->entries,    t->modules,     t->ranges,
                              t->strings,       t->index_keys, t->index_slots, t->front.slots,
                              t->front.buckets, t->front.gaps, t->languages,   t->messages};
    for (int i = 0; i < 12; i++) {
        out[i] = offset_in(arrays[i], storage);
    }
}

bool build_bytes_agree(const errcore_catalog_def *def, uint64_t *state, char *why, size_t why_size) {
    size_t need = 0;
    why[0] = '\0';
    if (errcore_build_size(def, &need, NULL) != ERRCORE_OK) {
        snprintf(why, why_size, "errcore_build_size failed");
        return false;
    }
    size_t size = (need + TAIL + 7u) & ~(size_t)7u;
    unsigned char *storage[3];
    unsigned char fill[3][TAIL];
    errcore_table tables[3];
    bool ok = true;
    for (int k = 0; k < 3; k++) {
        storage[k] = aligned_alloc(8, size);
        if (!storage[k]) {
            abort();
        }
        if (k < 2) {
            memset(storage[k], k == 0 ? 0x00 : 0xFF, size);
        } else {
            for (size_t i = 0; i < size; i++) {
                storage[k][i] = (unsigned char)check_rand(state);
            }
        }
        memcpy(fill[k], storage[k] + need, TAIL);
        errcore_status s = errcore_build(def, storage[k], need, &tables[k], NULL);
        if (s != ERRCORE_OK) {
            snprintf(why, why_size, "build %d: %s", k, errcore_status_name(s));
            ok = false;
        }
    }
    for (int k = 1; ok && k < 3; k++) {
        for (size_t i = 0; i < need; i++) {
            if (storage[k][i] != storage[0][i]) {
                snprintf(why, why_size, "byte %zu of %zu: 0x%02x after a 0x00 fill, 0x%02x after fill %d", i, need,
                         storage[0][i], storage[k][i], k);
                ok = false;
                break;
            }
        }
        long long a[12], b[12];
        offsets_of(&tables[0], storage[0], a);
        offsets_of(&tables[k], storage[k], b);
        if (ok && memcmp(a, b, sizeof a) != 0) {
            snprintf(why, why_size, "the table's arrays lie elsewhere in build %d", k);
            ok = false;
        }
    }
    for (int k = 0; ok && k < 3; k++) {
        if (memcmp(storage[k] + need, fill[k], TAIL) != 0) {
            snprintf(why, why_size, "build %d wrote past errcore_build_size() (%zu bytes)", k, need);
            ok = false;
        }
    }
    for (int k = 0; k < 3; k++) {
        free(storage[k]);
    }
    return ok;
}

/*
 * hash_front_candidate.c — a candidate batch classifier, measured here
 * before anyone edits CErrCore: an exact-match hash in front of the
 * library's batch.
 *
 * Pass 1 probes a direct-mapped table (one slot per hash value, holding one
 * entry code and its packed class) for every code of a block, writes the
 * slot's class, and appends the position of every code whose probe failed
 * to a miss list (branch-free: the list end moves by 0 or 1). Pass 2 hands
 * the missed codes to errcore_classify_batch() and scatters its answers
 * back. Codes that share a slot with another entry simply take pass 2, so
 * any hash is correct; a good one only sends fewer codes there. No branch
 * depends on a code's value, so an unpredictable hit/miss mix costs no
 * mispredictions.
 */
#include <stdlib.h>

#include "CBaselines.h"

/* Codes per block: the miss list and the gathered codes live on the stack. */
#define CBL__HF_BLOCK 256

static inline size_t cbl__hf_slot(const cbl_hash_front *h, int64_t code) {
    return (size_t)(((uint64_t)code * h->multiplier) >> h->shift);
}

int cbl_hash_front_build(const errcore_table *table, cbl_hash_front *out) {
    size_t n = table->entry_count;
    out->table = table;
    out->keys = NULL;
    out->classes = NULL;
    if (n == 0) {
        return -1;
    }
    unsigned bits = 3;
    while (((size_t)1 << bits) < 8 * n) { /* 8 slots per entry: few collisions */
        bits++;
    }
    size_t slots = (size_t)1 << bits;
    out->shift = 64u - bits;
    out->keys = malloc(slots * sizeof *out->keys);
    out->classes = malloc(slots * sizeof *out->classes);
    uint8_t *used = calloc(slots, 1);
    if (!out->keys || !out->classes || !used) {
        free(used);
        cbl_hash_front_free(out);
        return -1;
    }
    /* Try a few odd multipliers; keep the one that places the most entries. */
    uint64_t state = 0x243F6A8885A308D3ull;
    size_t best_placed = 0;
    uint64_t best = 0x9E3779B97F4A7C15ull;
    for (int attempt = 0; attempt < 64 && best_placed < n; attempt++) {
        uint64_t m = attempt == 0 ? 0x9E3779B97F4A7C15ull : (state = state * 6364136223846793005ull + 1442695040888963407ull) | 1u;
        out->multiplier = m;
        for (size_t s = 0; s < slots; s++) {
            used[s] = 0;
        }
        size_t placed = 0;
        for (size_t i = 0; i < n; i++) {
            size_t s = cbl__hf_slot(out, table->codes[i]);
            if (!used[s]) {
                used[s] = 1;
                placed++;
            }
        }
        if (placed > best_placed) {
            best_placed = placed;
            best = m;
        }
    }
    out->multiplier = best;
    for (size_t s = 0; s < slots; s++) {
        used[s] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t code = table->codes[i];
        size_t s = cbl__hf_slot(out, code);
        if (!used[s]) {
            used[s] = 1;
            out->keys[s] = code;
            out->classes[s] = errcore_classify(table, code);
        }
    }
    /*
     * No entry hashes to an empty slot (the first one to do so would have
     * taken it), so any entry code there hashes elsewhere: a code equal to
     * it lands in its own slot, never here, and the probe always fails.
     */
    for (size_t s = 0; s < slots; s++) {
        if (!used[s]) {
            out->keys[s] = table->codes[0];
            out->classes[s] = 0;
        }
    }
    out->placed = best_placed;
    free(used);
    return 0;
}

void cbl_hash_front_free(cbl_hash_front *h) {
    free(h->keys);
    free(h->classes);
    h->keys = NULL;
    h->classes = NULL;
}

void cbl_hash_front_batch(const cbl_hash_front *h, const int64_t *codes, errcore_class *out,
                          size_t count) {
    uint32_t miss[CBL__HF_BLOCK];
    int64_t gathered[CBL__HF_BLOCK];
    errcore_class answers[CBL__HF_BLOCK];
    for (size_t base = 0; base < count; base += CBL__HF_BLOCK) {
        size_t n = count - base < CBL__HF_BLOCK ? count - base : CBL__HF_BLOCK;
        const int64_t *c = codes + base;
        errcore_class *o = out + base;
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            size_t s = cbl__hf_slot(h, c[k]);
            o[k] = h->classes[s];
            miss[m] = (uint32_t)k;
            m += (size_t)(h->keys[s] != c[k]);
        }
        for (size_t j = 0; j < m; j++) {
            gathered[j] = c[miss[j]];
        }
        errcore_classify_batch(h->table, gathered, answers, m);
        for (size_t j = 0; j < m; j++) {
            o[miss[j]] = answers[j];
        }
    }
}

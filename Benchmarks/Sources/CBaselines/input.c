/*
 * input.c — the fixed-seed code streams every approach reads: a share of
 * table entries, the rest split between unlisted codes inside module ranges
 * and codes no module owns.
 */
#include "CBaselines.h"

static uint64_t cbl__splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n > 0 (modulo bias is irrelevant at these sizes). */
static uint64_t cbl__below(uint64_t *state, uint64_t n) {
    return cbl__splitmix64(state) % n;
}

cbl_input_mix cbl_make_input(const errcore_table *table, uint64_t seed, unsigned hit_percent,
                             int64_t *codes, size_t n) {
    cbl_input_mix mix = {0, 0, 0};
    uint64_t state = seed;
    if (hit_percent > 100) {
        hit_percent = 100;
    }
    for (size_t k = 0; k < n; k++) {
        uint64_t roll = cbl__below(&state, 100);
        if (roll < hit_percent) {
            codes[k] = table->codes[cbl__below(&state, table->entry_count)];
            mix.hits++;
        } else if (table->range_count > 0 && (cbl__below(&state, 2) == 0)) {
            int64_t code;
            do {
                const errcore_range *r = &table->ranges[cbl__below(&state, table->range_count)];
                code = r->first + (int64_t)cbl__below(&state, (uint64_t)(r->last - r->first) + 1);
            } while (errcore_class_is_exact(errcore_classify(table, code)));
            codes[k] = code;
            mix.unrecognised++;
        } else {
            int64_t code;
            do {
                code = (int64_t)cbl__below(&state, 100000000) - 50000000;
            } while (errcore_classify(table, code) != ERRCORE_CLASS_UNKNOWN);
            codes[k] = code;
            mix.unknown++;
        }
    }
    return mix;
}

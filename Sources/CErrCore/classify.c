/*
 * classify.c — the branch-free classifier.
 *
 * Both searches find the last element <= code ("predecessor") with a loop
 * whose trip count depends only on the array length; each step moves the
 * base by a conditional move marked unpredictable, so no branch depends on
 * the code. The final choice between entry, range, success and unknown is
 * mask arithmetic (gcc turns a ?: there into a branch on some versions).
 * Branches mispredict on mixed traffic: check `objdump -d` after changing
 * this file (see docs/performance.md).
 */
#include "internal.h"

/* Index of the last code <= `code` in codes[0 ... n-1], n >= 1; 0 when every code is greater. */
static inline size_t errcore__last_code_le(const int64_t *codes, size_t n, int64_t code) {
    size_t base = 0;
    while (n > 1) {
        size_t half = n >> 1;
        base += ERRCORE__UNPREDICTABLE(codes[base + half] <= code) ? half : 0;
        n -= half;
    }
    return base;
}

/* Index of the last range whose first <= `code`, n >= 1; 0 when every range starts above it. */
static inline size_t errcore__last_range_le(const errcore_range *ranges, size_t n, int64_t code) {
    size_t base = 0;
    while (n > 1) {
        size_t half = n >> 1;
        base += ERRCORE__UNPREDICTABLE(ranges[base + half].first <= code) ? half : 0;
        n -= half;
    }
    return base;
}

#define ERRCORE__TIER_SHIFT 56
#define ERRCORE__MODULE_SHIFT 32
#define ERRCORE__FLAGS_SHIFT 48

/*
 * The class of `code`, given the predecessor positions i (codes) and j
 * (ranges). Branches only on the table's counts, never on the code.
 */
static inline errcore_class errcore__combine(const errcore_table *t, int64_t code, size_t i,
                                             size_t j) {
    uint64_t is_success = errcore__mask64(code == t->success_code);
    uint64_t result = ERRCORE_CLASS_UNKNOWN;
    if (t->range_count != 0) {
        const errcore_range *r = &t->ranges[j];
        uint64_t inside = errcore__mask64((r->first <= code) & (code <= r->last));
        uint64_t range_class = (uint64_t)ERRCORE_NO_ENTRY |
                               ((uint64_t)r->module << ERRCORE__MODULE_SHIFT) |
                               ((uint64_t)ERRCORE_TIER_MODULE << ERRCORE__TIER_SHIFT);
        result = (inside & range_class) | (~inside & result);
    }
    uint64_t success_class =
        (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)ERRCORE_TIER_SUCCESS << ERRCORE__TIER_SHIFT);
    result = (is_success & success_class) | (~is_success & result);
    if (t->entry_count != 0) {
        const errcore_entry *e = &t->entries[i];
        uint64_t hit = errcore__mask64(t->codes[i] == code);
        uint64_t in_module = (uint64_t)(e->module != ERRCORE_MODULE_NONE);
        uint64_t tier = (is_success & (uint64_t)ERRCORE_TIER_SUCCESS) |
                        (~is_success & ((uint64_t)ERRCORE_TIER_BASE + in_module));
        uint64_t entry_class = (uint64_t)i | ((uint64_t)e->module << ERRCORE__MODULE_SHIFT) |
                               ((uint64_t)e->flags << ERRCORE__FLAGS_SHIFT) |
                               (tier << ERRCORE__TIER_SHIFT);
        result = (hit & entry_class) | (~hit & result);
    }
    return result;
}

errcore_class errcore_classify(const errcore_table *table, int64_t code) {
    size_t i = table->entry_count ? errcore__last_code_le(table->codes, table->entry_count, code) : 0;
    size_t j = table->range_count ? errcore__last_range_le(table->ranges, table->range_count, code)
                                  : 0;
    return errcore__combine(table, code, i, j);
}

/* Searches interleaved per batch step: eight independent searches hide load latency. */
#define ERRCORE__LANES 8

void errcore_classify_batch(const errcore_table *table, const int64_t *codes, errcore_class *out,
                            size_t count) {
    const int64_t *keys = table->codes;
    const errcore_range *ranges = table->ranges;
    size_t k = 0;
    for (; count - k >= ERRCORE__LANES; k += ERRCORE__LANES) {
        int64_t c[ERRCORE__LANES];
        size_t bi[ERRCORE__LANES];
        size_t bj[ERRCORE__LANES];
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            c[l] = codes[k + l];
            bi[l] = 0;
            bj[l] = 0;
        }
        for (size_t n = table->entry_count; n > 1;) {
            size_t half = n >> 1;
            for (size_t l = 0; l < ERRCORE__LANES; l++) {
                bi[l] += ERRCORE__UNPREDICTABLE(keys[bi[l] + half] <= c[l]) ? half : 0;
            }
            n -= half;
        }
        for (size_t n = table->range_count; n > 1;) {
            size_t half = n >> 1;
            for (size_t l = 0; l < ERRCORE__LANES; l++) {
                bj[l] += ERRCORE__UNPREDICTABLE(ranges[bj[l] + half].first <= c[l]) ? half : 0;
            }
            n -= half;
        }
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            out[k + l] = errcore__combine(table, c[l], bi[l], bj[l]);
        }
    }
    for (; k < count; k++) {
        out[k] = errcore_classify(table, codes[k]);
    }
}

/* Codes classified per step of errcore_tally_codes(): 512 bytes of stack. */
#define ERRCORE__TALLY_CHUNK 64

errcore_status errcore_tally_codes(const errcore_table *table, const int64_t *codes, size_t count,
                                   errcore_tally *tally, uint64_t *module_counts) {
    if (!table || !tally || (!codes && count != 0)) {
        return ERRCORE_E_NULL_ARGUMENT;
    }
    errcore_class chunk[ERRCORE__TALLY_CHUNK];
    for (size_t k = 0; k < count; k += ERRCORE__TALLY_CHUNK) {
        size_t n = count - k < ERRCORE__TALLY_CHUNK ? count - k : ERRCORE__TALLY_CHUNK;
        errcore_classify_batch(table, codes + k, chunk, n);
        for (size_t l = 0; l < n; l++) {
            errcore_class c = chunk[l];
            errcore_tier tier = errcore_class_tier(c);
            tally->tiers[tier]++;
            if (tier == ERRCORE_TIER_MODULE) {
                tally->unrecognised += !errcore_class_is_exact(c);
                if (module_counts) {
                    module_counts[errcore_class_module(c)]++;
                }
            }
        }
        tally->total += n;
    }
    return ERRCORE_OK;
}

/*
 * classify.c — the branch-free classifier.
 *
 * With an index (every table errcore_build() or the generator makes), one
 * search over the index keys finds the last key <= code, and one masked
 * select picks that slot's `hit` class (code equals the key) or `gap` class
 * (code lies after it). Without an index (a hand-written table), two
 * searches run, over the entry codes and the range starts, and the class is
 * assembled from what they found.
 *
 * All searches find the last element <= code ("predecessor") with a loop
 * whose trip count depends only on the array length; each step moves the
 * base by ERRCORE__IF_ELSE_0 (a conditional move), so no branch depends on
 * the code. The final choice between entry, range, success and unknown is
 * mask arithmetic (gcc turns a ?: there into a branch on some versions).
 * Branches mispredict on mixed traffic: check `objdump -d` after changing
 * this file (see docs/performance.md).
 */
#include "internal.h"

/* floor(log2(n)) for n >= 1. */
static inline unsigned errcore__log2(size_t n) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)(sizeof(unsigned long long) * 8u - 1u) - (unsigned)__builtin_clzll((unsigned long long)n);
#else
    unsigned r = 0;
    while (n >>= 1) {
        r++;
    }
    return r;
#endif
}

/* One step of the power-of-two descent: move up by s when keys[i + s] <= c. */
#define ERRCORE__STEP(s) i += ERRCORE__IF_ELSE_0(keys[i + ((size_t)1 << (s))] <= c, (size_t)1 << (s))

/*
 * Index of the last key <= c in keys[0 ... n-1], n >= 1; 0 when every key is
 * greater. With p the largest power of two <= n, the first step picks the
 * lower or upper p keys (they overlap), then steps of p/2, ..., 1 descend.
 * The step sizes are unrolled: the one jump into the sequence depends on n
 * only, so it is always predicted; each step is a compare and a cmov.
 */
ERRCORE__HOT size_t errcore__last_code_le(const int64_t *keys, size_t n, int64_t c) {
    unsigned log2p = errcore__log2(n);
    size_t top = n - ((size_t)1 << log2p);
    size_t i = ERRCORE__IF_ELSE_0(keys[top] <= c, top);
    switch (log2p) {
#if SIZE_MAX > 0xFFFFFFFFu
    default: /* tables this large cannot exist: counts are capped at ERRCORE_MAX_COUNT */
    case 36: ERRCORE__STEP(35); ERRCORE__FALLTHROUGH;
    case 35: ERRCORE__STEP(34); ERRCORE__FALLTHROUGH;
    case 34: ERRCORE__STEP(33); ERRCORE__FALLTHROUGH;
    case 33: ERRCORE__STEP(32); ERRCORE__FALLTHROUGH;
#else
    default: /* a 32-bit size_t holds at most 2^31 as its largest power of two */
#endif
    case 32: ERRCORE__STEP(31); ERRCORE__FALLTHROUGH;
    case 31: ERRCORE__STEP(30); ERRCORE__FALLTHROUGH;
    case 30: ERRCORE__STEP(29); ERRCORE__FALLTHROUGH;
    case 29: ERRCORE__STEP(28); ERRCORE__FALLTHROUGH;
    case 28: ERRCORE__STEP(27); ERRCORE__FALLTHROUGH;
    case 27: ERRCORE__STEP(26); ERRCORE__FALLTHROUGH;
    case 26: ERRCORE__STEP(25); ERRCORE__FALLTHROUGH;
    case 25: ERRCORE__STEP(24); ERRCORE__FALLTHROUGH;
    case 24: ERRCORE__STEP(23); ERRCORE__FALLTHROUGH;
    case 23: ERRCORE__STEP(22); ERRCORE__FALLTHROUGH;
    case 22: ERRCORE__STEP(21); ERRCORE__FALLTHROUGH;
    case 21: ERRCORE__STEP(20); ERRCORE__FALLTHROUGH;
    case 20: ERRCORE__STEP(19); ERRCORE__FALLTHROUGH;
    case 19: ERRCORE__STEP(18); ERRCORE__FALLTHROUGH;
    case 18: ERRCORE__STEP(17); ERRCORE__FALLTHROUGH;
    case 17: ERRCORE__STEP(16); ERRCORE__FALLTHROUGH;
    case 16: ERRCORE__STEP(15); ERRCORE__FALLTHROUGH;
    case 15: ERRCORE__STEP(14); ERRCORE__FALLTHROUGH;
    case 14: ERRCORE__STEP(13); ERRCORE__FALLTHROUGH;
    case 13: ERRCORE__STEP(12); ERRCORE__FALLTHROUGH;
    case 12: ERRCORE__STEP(11); ERRCORE__FALLTHROUGH;
    case 11: ERRCORE__STEP(10); ERRCORE__FALLTHROUGH;
    case 10: ERRCORE__STEP(9); ERRCORE__FALLTHROUGH;
    case 9: ERRCORE__STEP(8); ERRCORE__FALLTHROUGH;
    case 8: ERRCORE__STEP(7); ERRCORE__FALLTHROUGH;
    case 7: ERRCORE__STEP(6); ERRCORE__FALLTHROUGH;
    case 6: ERRCORE__STEP(5); ERRCORE__FALLTHROUGH;
    case 5: ERRCORE__STEP(4); ERRCORE__FALLTHROUGH;
    case 4: ERRCORE__STEP(3); ERRCORE__FALLTHROUGH;
    case 3: ERRCORE__STEP(2); ERRCORE__FALLTHROUGH;
    case 2: ERRCORE__STEP(1); ERRCORE__FALLTHROUGH;
    case 1: ERRCORE__STEP(0); ERRCORE__FALLTHROUGH;
    case 0: break;
    }
    return i;
}

/* Index of the last range whose first <= `code`, n >= 1; 0 when every range starts above it. */
static inline size_t errcore__last_range_le(const errcore_range *ranges, size_t n, int64_t code) {
    size_t base = 0;
    while (n > 1) {
        size_t half = n >> 1;
        base += ERRCORE__IF_ELSE_0(ranges[base + half].first <= code, half);
        n -= half;
    }
    return base;
}

/* Searches interleaved per batch step: eight independent searches hide load latency. */
#define ERRCORE__LANES 8

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

errcore_class errcore__classify_searches(const errcore_table *table, int64_t code) {
    size_t i = table->entry_count ? errcore__last_code_le(table->codes, table->entry_count, code) : 0;
    size_t j = table->range_count ? errcore__last_range_le(table->ranges, table->range_count, code)
                                  : 0;
    return errcore__combine(table, code, i, j);
}

/* The class stored in slot `at` for `code`: `hit` when code is the key itself, else `gap`. */
ERRCORE__HOT errcore_class errcore__slot_class(const errcore_table *t, size_t at, int64_t code) {
    const errcore_index_slot *slot = &t->index_slots[at];
    uint64_t exact = errcore__mask64(t->index_keys[at] == code);
    return slot->gap ^ ((slot->hit ^ slot->gap) & exact);
}

errcore_class errcore_classify(const errcore_table *table, int64_t code) {
    if (table->index_count == 0) {
        return errcore__classify_searches(table, code);
    }
    /* index_keys[0] is INT64_MIN, so the last key <= code always exists. */
    size_t at = errcore__last_code_le(table->index_keys, table->index_count, code);
    return errcore__slot_class(table, at, code);
}


/*
 * Batch over the index: the same power-of-two descent for eight codes at
 * once, step by step, so that eight independent loads are in flight.
 */
static void errcore__batch_index(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                 size_t count) {
    const int64_t *keys = table->index_keys;
    size_t n = table->index_count;
    unsigned log2p = errcore__log2(n);
    size_t top = n - ((size_t)1 << log2p);
    size_t k = 0;
    for (; count - k >= ERRCORE__LANES; k += ERRCORE__LANES) {
        int64_t c[ERRCORE__LANES];
        size_t at[ERRCORE__LANES];
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            c[l] = codes[k + l];
            at[l] = ERRCORE__IF_ELSE_0(keys[top] <= c[l], top);
        }
        for (unsigned s = log2p; s > 0; s--) {
            size_t step = (size_t)1 << (s - 1);
            for (size_t l = 0; l < ERRCORE__LANES; l++) {
                at[l] += ERRCORE__IF_ELSE_0(keys[at[l] + step] <= c[l], step);
            }
        }
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            out[k + l] = errcore__slot_class(table, at[l], c[l]);
        }
    }
    for (; k < count; k++) {
        out[k] = errcore_classify(table, codes[k]);
    }
}

/* Batch without an index: eight interleaved pairs of searches. */
static void errcore__batch_searches(const errcore_table *table, const int64_t *codes,
                                    errcore_class *out, size_t count) {
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
                bi[l] += ERRCORE__IF_ELSE_0(keys[bi[l] + half] <= c[l], half);
            }
            n -= half;
        }
        for (size_t n = table->range_count; n > 1;) {
            size_t half = n >> 1;
            for (size_t l = 0; l < ERRCORE__LANES; l++) {
                bj[l] += ERRCORE__IF_ELSE_0(ranges[bj[l] + half].first <= c[l], half);
            }
            n -= half;
        }
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            out[k + l] = errcore__combine(table, c[l], bi[l], bj[l]);
        }
    }
    for (; k < count; k++) {
        out[k] = errcore__classify_searches(table, codes[k]);
    }
}

void errcore_classify_batch(const errcore_table *table, const int64_t *codes, errcore_class *out,
                            size_t count) {
    if (table->index_count != 0) {
        errcore__batch_index(table, codes, out, count);
    } else {
        errcore__batch_searches(table, codes, out, count);
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

/*
 * classify.c — the branch-free classifier.
 *
 * With an exact-match front (every table errcore_build() or the generator
 * makes, unless its codes defeat the hash), there is no search: one hash
 * picks a slot, one gap lookup gives the class the code has if it is not a
 * table code, and one select keeps the slot's class when its key is the
 * code. The batch does this in two passes over blocks of codes: the first
 * hashes every code, writes the slot's class and lists the codes that
 * missed (the list grows by 0 or 1, without a branch); the second gives
 * only those their gap class.
 *
 * Without a front but with an index, one search over the index keys finds
 * the last key <= code, and one masked select picks that slot's `hit` class
 * (code equals the key) or `gap` class (code lies after it). Without either
 * (a hand-written table), two searches run, over the entry codes and the
 * range starts, and the class is assembled from what they found.
 *
 * The batch's passes here are its scalar path and the parts every path
 * shares (the second pass, the batches without a front); batch.c chooses a
 * path and runs the blocks, batch_avx2.c, batch_avx512.c and batch_neon.c
 * hold the vector first passes.
 *
 * All searches find the last element <= code ("predecessor") with a loop
 * whose trip count depends only on the array length; each step moves the
 * base by ERRCORE__IF_ELSE_0 (a conditional move), so no branch depends on
 * the code. The final choice between entry, range, success and unknown is
 * mask arithmetic (gcc turns a ?: there into a branch on some versions).
 * Branches mispredict on mixed traffic: check `objdump -d` after changing
 * this file (see docs/performance.md).
 */
#include <string.h>

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

#define ERRCORE__TIER_SHIFT   56
#define ERRCORE__MODULE_SHIFT 32
#define ERRCORE__FLAGS_SHIFT  48

/*
 * The class of `code`, given the predecessor positions i (codes) and j
 * (ranges). Branches only on the table's counts, never on the code.
 */
static inline errcore_class errcore__combine(const errcore_table *t, int64_t code, size_t i, size_t j) {
    uint64_t is_success = errcore__mask64(code == t->success_code);
    uint64_t result = ERRCORE_CLASS_UNKNOWN;
    if (t->range_count != 0) {
        const errcore_range *r = &t->ranges[j];
        uint64_t inside = errcore__mask64((r->first <= code) & (code <= r->last));
        uint64_t range_class = (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)r->module << ERRCORE__MODULE_SHIFT) |
                               ((uint64_t)ERRCORE_TIER_MODULE << ERRCORE__TIER_SHIFT);
        result = (inside & range_class) | (~inside & result);
    }
    uint64_t success_class = (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)ERRCORE_TIER_SUCCESS << ERRCORE__TIER_SHIFT);
    result = (is_success & success_class) | (~is_success & result);
    if (t->entry_count != 0) {
        const errcore_entry *e = &t->entries[i];
        uint64_t hit = errcore__mask64(t->codes[i] == code);
        uint64_t in_module = (uint64_t)(e->module != ERRCORE_MODULE_NONE);
        uint64_t tier =
            (is_success & (uint64_t)ERRCORE_TIER_SUCCESS) | (~is_success & ((uint64_t)ERRCORE_TIER_BASE + in_module));
        uint64_t entry_class = (uint64_t)i | ((uint64_t)e->module << ERRCORE__MODULE_SHIFT) |
                               ((uint64_t)e->flags << ERRCORE__FLAGS_SHIFT) | (tier << ERRCORE__TIER_SHIFT);
        result = (hit & entry_class) | (~hit & result);
    }
    return result;
}

errcore_class errcore__classify_searches(const errcore_table *table, int64_t code) {
    size_t i = table->entry_count ? errcore__last_code_le(table->codes, table->entry_count, code) : 0;
    size_t j = table->range_count ? errcore__last_range_le(table->ranges, table->range_count, code) : 0;
    return errcore__combine(table, code, i, j);
}

/* The class stored in slot `at` for `code`: `hit` when code is the key itself, else `gap`. */
ERRCORE__HOT errcore_class errcore__slot_class(const errcore_table *t, size_t at, int64_t code) {
    const errcore_index_slot *slot = &t->index_slots[at];
    uint64_t exact = errcore__mask64(t->index_keys[at] == code);
    return slot->gap ^ ((slot->hit ^ slot->gap) & exact);
}

/* ---- The exact-match front ------------------------------------------------------------- */

/*
 * The class of a code that is not a table code, by a search of the ranges
 * (for a front without a gap table).
 */
static inline errcore_class errcore__range_class(const errcore_table *t, int64_t code) {
    if (t->range_count == 0) {
        return ERRCORE_CLASS_UNKNOWN;
    }
    const errcore_range *r = &t->ranges[errcore__last_range_le(t->ranges, t->range_count, code)];
    uint64_t module_class = (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)r->module << ERRCORE__MODULE_SHIFT) |
                            ((uint64_t)ERRCORE_TIER_MODULE << ERRCORE__TIER_SHIFT);
    return ERRCORE__SELECT64((r->first <= code) & (code <= r->last), module_class, (uint64_t)ERRCORE_CLASS_UNKNOWN);
}

/* The class of a code that is not a table code, from the front's gap table. */
ERRCORE__HOT errcore_class errcore__gap_class(const errcore_front *f, int64_t code) {
    uint64_t i = ((uint64_t)code - (uint64_t)f->gap_base) >> f->gap_shift;
    i = ERRCORE__SELECT64(i < (uint64_t)f->gap_count, i, (uint64_t)f->gap_count); /* at least 1 stretch */
    const errcore_front_gap *g = &f->gaps[i];
    uint64_t above = g->above, below = g->below;
    ERRCORE__LOADED(above);
    ERRCORE__LOADED(below);
    return ERRCORE__SELECT64(code >= g->split, above, below);
}

/*
 * One code through a front without a gap table, or through the index, or
 * by two searches: the paths of errcore_classify() other than the common
 * one, kept out of line so that the common one needs no saved registers.
 */
static ERRCORE__NOINLINE errcore_class errcore__classify_other(const errcore_table *t, int64_t code) {
    const errcore_front *f = &t->front;
    if (f->slots) { /* a front whose misses search the ranges */
        const errcore_front_slot *slot = &f->slots[errcore_front_position(f, code)];
        errcore_class miss = errcore__range_class(t, code);
        uint64_t hit = slot->key_class;
        ERRCORE__LOADED(hit);
        return ERRCORE__SELECT64(slot->key == code, hit, miss);
    }
    if (t->index_count == 0) {
        return errcore__classify_searches(t, code);
    }
    /* index_keys[0] is INT64_MIN, so the last key <= code always exists. */
    size_t at = errcore__last_code_le(t->index_keys, t->index_count, code);
    return errcore__slot_class(t, at, code);
}

/*
 * The common path: a front with a gap table. A direct front (one bucket)
 * reads its displacement without waiting for the hash, so its slot load
 * depends on the multiply alone; the gap lookup runs alongside.
 */
errcore_class errcore_classify(const errcore_table *table, int64_t code) {
    const errcore_front *f = &table->front;
    if (!f->slots || !f->gaps) {
        return errcore__classify_other(table, code);
    }
    uint64_t hi = ((uint64_t)code * f->multiplier) >> 32;
    uint64_t d = f->bucket_shift == 32 ? f->buckets[0] : f->buckets[hi >> f->bucket_shift];
    const errcore_front_slot *slot = &f->slots[(hi ^ d) & f->slot_mask];
    errcore_class miss = errcore__gap_class(f, code);
    uint64_t hit = slot->key_class;
    ERRCORE__LOADED(hit);
    return ERRCORE__SELECT64(slot->key == code, hit, miss);
}

/*
 * Batch over the index: the same power-of-two descent for eight codes at
 * once, step by step, so that eight independent loads are in flight.
 */
void errcore__batch_index(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count) {
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
void errcore__batch_searches(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count) {
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

/* The second pass without a gap table: eight interleaved range searches over the missed codes. */
void errcore__batch_miss_ranges(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                const unsigned char *miss, size_t m) {
    const errcore_range *ranges = table->ranges;
    size_t j = 0;
    for (; table->range_count != 0 && m - j >= ERRCORE__LANES; j += ERRCORE__LANES) {
        int64_t c[ERRCORE__LANES];
        size_t b[ERRCORE__LANES];
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            c[l] = codes[miss[j + l]];
            b[l] = 0;
        }
        for (size_t n = table->range_count; n > 1;) {
            size_t half = n >> 1;
            for (size_t l = 0; l < ERRCORE__LANES; l++) {
                b[l] += ERRCORE__IF_ELSE_0(ranges[b[l] + half].first <= c[l], half);
            }
            n -= half;
        }
        for (size_t l = 0; l < ERRCORE__LANES; l++) {
            const errcore_range *r = &ranges[b[l]];
            uint64_t module_class = (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)r->module << ERRCORE__MODULE_SHIFT) |
                                    ((uint64_t)ERRCORE_TIER_MODULE << ERRCORE__TIER_SHIFT);
            out[miss[j + l]] = ERRCORE__SELECT64((r->first <= c[l]) & (c[l] <= r->last), module_class,
                                                 (uint64_t)ERRCORE_CLASS_UNKNOWN);
        }
    }
    for (; j < m; j++) {
        out[miss[j]] = errcore__range_class(table, codes[miss[j]]);
    }
}

/*
 * Positions of the misses among four codes, packed one per byte, for each
 * 4-bit miss mask (bit l: code l missed), and how many there are: pass 1
 * appends a group's misses with one 4-byte store and one addition, so only
 * one store per four codes waits for the miss count to be known.
 */
static const uint32_t errcore__miss_places[16] = {
    0x00000000u, 0x00000000u, 0x00000001u, 0x00000100u, 0x00000002u, 0x00000200u, 0x00000201u, 0x00020100u,
    0x00000003u, 0x00000300u, 0x00000301u, 0x00030100u, 0x00000302u, 0x00030200u, 0x00030201u, 0x03020100u};
static const unsigned char errcore__miss_counts[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* Byte offset of the slot of code c: direct (one bucket, displacement << 4 in d), or through its bucket. */
#define ERRCORE__FRONT_OFFSET(c, direct, d)                                                                            \
    (direct ? (((c) * multiplier >> 28) ^ (d)) & mask                                                                  \
            : (((c) * multiplier >> 28) ^ ((uint64_t)buckets[((c) * multiplier >> 28) >> bucket_shift] << 4)) & mask)

/*
 * One code of a group of four: its slot's byte offset into o##l, and bit l
 * of `bits` set when the slot's key is another code. Each code is read once
 * and compared at once, so it is not kept (nor read again after the classes
 * are stored: it could then be taken for a read of such a store when codes
 * and out lie at the same offset in their pages, as large allocations do).
 */
#define ERRCORE__FRONT_LANE(l, direct, d)                                                                              \
    uint64_t o##l;                                                                                                     \
    {                                                                                                                  \
        uint64_t c = (uint64_t)codes[k + l];                                                                           \
        o##l = ERRCORE__FRONT_OFFSET(c, direct, d);                                                                    \
        bits |= (unsigned)(((uint64_t)((const errcore_front_slot *)(const void *)(slots + o##l))->key ^ c) != 0) << l; \
    }

/* Four codes at a time: classes into out, misses appended to miss[] with one store. */
#define ERRCORE__FRONT_FOUR(direct, d)                                                                                 \
    for (; n - k >= 4; k += 4) {                                                                                       \
        unsigned bits = 0;                                                                                             \
        ERRCORE__FRONT_LANE(0, direct, d)                                                                              \
        ERRCORE__FRONT_LANE(1, direct, d)                                                                              \
        ERRCORE__FRONT_LANE(2, direct, d)                                                                              \
        ERRCORE__FRONT_LANE(3, direct, d)                                                                              \
        out[k] = ((const errcore_front_slot *)(const void *)(slots + o0))->key_class;                                  \
        out[k + 1] = ((const errcore_front_slot *)(const void *)(slots + o1))->key_class;                              \
        out[k + 2] = ((const errcore_front_slot *)(const void *)(slots + o2))->key_class;                              \
        out[k + 3] = ((const errcore_front_slot *)(const void *)(slots + o3))->key_class;                              \
        uint32_t places = errcore__miss_places[bits] + (uint32_t)k * 0x01010101u;                                      \
        memcpy(miss + m, &places, sizeof places);                                                                      \
        m += errcore__miss_counts[bits];                                                                               \
    }

/*
 * Pass 1 of the front's batch, one code at a time, for codes[k ... n-1] of
 * a block: stores each code's slot class and appends the positions of the
 * codes whose slot holds another key to miss[] from miss[m] on. Returns the
 * new number of misses. The tail of every path's pass 1.
 */
size_t errcore__front_tail(const errcore_front *f, const int64_t *restrict codes, errcore_class *restrict out,
                           unsigned char *restrict miss, size_t k, size_t n, size_t m) {
    const unsigned char *slots = (const unsigned char *)f->slots;
    const uint32_t *buckets = f->buckets;
    uint64_t multiplier = f->multiplier;
    uint64_t mask = (uint64_t)f->slot_mask << 4;
    unsigned bucket_shift = f->bucket_shift + 4u;
    for (; k < n; k++) {
        uint64_t c = (uint64_t)codes[k];
        const errcore_front_slot *slot = (const void *)(slots + ERRCORE__FRONT_OFFSET(c, 0, 0));
        out[k] = slot->key_class;
        miss[m] = (unsigned char)k;
        m += ((uint64_t)slot->key ^ c) != 0;
    }
    return m;
}

/*
 * Pass 1 of the scalar path over one block (at most ERRCORE__FRONT_BLOCK
 * codes): stores every code's slot class and lists the positions of the
 * codes whose slot holds another key (miss[] needs ERRCORE__MISS_ROOM
 * bytes). Returns the number of misses. Slot positions are computed as
 * byte offsets: (hi << 4) is (h >> 28) with its low four bits cleared,
 * which the mask does. A direct front with displacement 0 (what
 * errcore_build() makes) has a loop of its own, with no displacement at all.
 */
ERRCORE__NOINLINE size_t errcore__front_pass_scalar(const errcore_front *f, const int64_t *restrict codes,
                                                    errcore_class *restrict out, unsigned char *restrict miss,
                                                    size_t n) {
    const unsigned char *slots = (const unsigned char *)f->slots;
    const uint32_t *buckets = f->buckets;
    uint64_t multiplier = f->multiplier;
    uint64_t mask = (uint64_t)f->slot_mask << 4;  /* byte offsets of 16-byte slots */
    unsigned bucket_shift = f->bucket_shift + 4u; /* applied to h >> 28: at most 36 */
    size_t k = 0, m = 0;
    uint64_t d = (uint64_t)buckets[0] << 4;
    if (f->bucket_shift == 32 && d == 0) {
        ERRCORE__FRONT_FOUR(1, 0)
    } else if (f->bucket_shift == 32) {
        ERRCORE__FRONT_FOUR(1, d)
    } else {
        ERRCORE__FRONT_FOUR(0, 0)
    }
    return errcore__front_tail(f, codes, out, miss, k, n, m);
}

#undef ERRCORE__FRONT_FOUR
#undef ERRCORE__FRONT_LANE
#undef ERRCORE__FRONT_OFFSET

/* The gap class of one missed code (pass 2). */
#define ERRCORE__GAP_ONE(position)                                                                                     \
    {                                                                                                                  \
        size_t at = (position);                                                                                        \
        int64_t code = codes[at];                                                                                      \
        uint64_t offset = (uint64_t)code - base;                                                                       \
        /* Not min(offset >> shift, count): clang makes a branch of a min in a loop. */                                \
        uint64_t i = ERRCORE__SELECT64(offset <= last, offset >> shift, count);                                        \
        const errcore_front_gap *g = &gaps[i];                                                                         \
        uint64_t above = g->above, below = g->below;                                                                   \
        ERRCORE__LOADED(above);                                                                                        \
        ERRCORE__LOADED(below);                                                                                        \
        out[at] = ERRCORE__SELECT64(code >= g->split, above, below);                                                   \
    }

/* Pass 2 with a gap table: the missed codes of one block get their gap class, two at a time. */
ERRCORE__NOINLINE void errcore__batch_gaps(const errcore_front *f, const int64_t *restrict codes,
                                           errcore_class *restrict out, const unsigned char *restrict miss, size_t m) {
    const errcore_front_gap *gaps = f->gaps;
    uint64_t base = (uint64_t)f->gap_base, count = f->gap_count;
    uint64_t last = (count << f->gap_shift) - 1u; /* offset of the last code the stretches cover */
    unsigned shift = f->gap_shift;
    size_t j = 0;
    for (; m - j >= 2; j += 2) {
        ERRCORE__GAP_ONE(miss[j])
        ERRCORE__GAP_ONE(miss[j + 1])
    }
    if (j < m) {
        ERRCORE__GAP_ONE(miss[j])
    }
}

#undef ERRCORE__GAP_ONE

/* Codes classified per step of errcore_tally_codes(): 512 bytes of stack. */
#define ERRCORE__TALLY_CHUNK 64

errcore_status errcore_tally_codes(const errcore_table *table, const int64_t *codes, size_t count, errcore_tally *tally,
                                   uint64_t *module_counts) {
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

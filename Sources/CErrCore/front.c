/*
 * front.c — the exact-match front (errcore_table.h): building it for
 * errcore_build() and proving a given one right for errcore_validate().
 *
 * The keys are the table codes: every entry code and the success code.
 * For a multiplier M, each key's hi = (key * M) >> 32 picks a bucket (its
 * top bits) and a home slot (its low bits). A table of up to 361 entries
 * first tries to do without buckets ("direct": one bucket, displacement 0,
 * more slots, see ERRCORE__FRONT_DIRECT_KEYS):
 * a multiplier under which no two keys share a home. Otherwise, and for
 * larger tables, building is hash-and-displace: each bucket gets one
 * displacement d, XORed into the homes of all its keys, chosen so that they
 * land in free slots. Buckets go largest first, while the table is still
 * empty; a bucket of one key takes the next free slot directly. A multiplier
 * fails when two keys of one bucket share a home, a bucket holds more than
 * ERRCORE__FRONT_MAX_BUCKET keys, or the displacement search runs over its
 * budget; then the next multiplier of a fixed sequence is tried, so the
 * result is deterministic. After ERRCORE__FRONT_ATTEMPTS failures the table
 * gets no front (it still classifies, through its index).
 *
 * The gap table cuts the span of the module ranges into stretches of 2^k
 * codes, 2^k no wider than the narrowest distance between two points where
 * the range class changes (a range's first code, the code after its last),
 * so that each stretch holds at most one such point. It is built only when
 * that takes at most ERRCORE__FRONT_GAP_CAPACITY(ranges) stretches; without
 * it, misses search the ranges.
 */
#include "internal.h"

/*
 * Direct fronts (one bucket, no displacement: the fastest to look up) are
 * tried for tables of up to ERRCORE__FRONT_DIRECT_KEYS - 1 = 361 entries
 * (K = entries + 1 keys counted, as if the success code had no entry), with
 * 2^direct_bits slots: at least K * K / 8 (so that a multiplier places all
 * K keys about one time in 55 or better: e^(-K*K / 2m)), at least four
 * times the slots of a front with buckets, at most 2^13 (128 KiB). Above
 * 256 keys the cap makes it rarer (one in 3,000 at 362 keys), so up to
 * ERRCORE__FRONT_DIRECT_ATTEMPTS multipliers are tried (internal.h); each
 * attempt stops at its first collision.
 */
#define ERRCORE__FRONT_DIRECT_KEYS     362u
#define ERRCORE__FRONT_DIRECT_MAX_BITS 13u
/* Largest bucket (keys) a multiplier may produce. */
#define ERRCORE__FRONT_MAX_BUCKET 64u
/* Displacements tried per slot, per multiplier, before it is given up. */
#define ERRCORE__FRONT_TRIES_PER_SLOT 8u
/* Most keys a front is built for (2^26: its buckets then still have 2^8 homes to spread over). */
#define ERRCORE__FRONT_MAX_KEYS ((uint64_t)1 << 26)

/* ceil(log2(n)) for n >= 1. */
static unsigned errcore__ceil_log2(uint64_t n) {
    unsigned b = 0;
    while (b < 64 && ((uint64_t)1 << b) < n) {
        b++;
    }
    return b;
}

void errcore__place_dims(uint64_t keys, errcore__front_dims_t *d) {
    d->slot_bits = 0;
    d->bucket_bits = 0;
    d->direct_bits = 0;
    d->gap_capacity = 0;
    d->has_front = false;
    if (keys > ERRCORE__FRONT_MAX_KEYS) {
        return; /* no front */
    }
    d->has_front = true;
    d->slot_bits = errcore__ceil_log2(keys + keys / 4u);            /* load factor 0.4 ... 0.8 */
    unsigned c = errcore__ceil_log2(keys / 2u < 1 ? 1 : keys / 2u); /* about 2 keys a bucket */
    d->bucket_bits = c > 24 ? 24 : c;
    d->direct_bits = 0;
    if (keys <= ERRCORE__FRONT_DIRECT_KEYS) {
        unsigned bits = errcore__ceil_log2(keys * keys / 8u + 1u);
        bits = bits < d->slot_bits + 2u ? d->slot_bits + 2u : bits;
        d->direct_bits = bits > ERRCORE__FRONT_DIRECT_MAX_BITS ? ERRCORE__FRONT_DIRECT_MAX_BITS : bits;
    }
}

void errcore__front_dims(size_t entries, size_t ranges, errcore__front_dims_t *d) {
    errcore__place_dims((uint64_t)entries + 1u, d); /* the success code may have no entry */
    d->gap_capacity = d->has_front ? ERRCORE__FRONT_GAP_CAPACITY(ranges) : 0;
}

/* Slots the layout reserves: enough for a direct front too, when one is tried. */
static uint64_t errcore__front_slot_room(const errcore__front_dims_t *d) {
    unsigned bits = d->direct_bits > d->slot_bits ? d->direct_bits : d->slot_bits;
    return (uint64_t)1 << bits;
}

size_t errcore__place_slot_count(const errcore__front_dims_t *d) {
    return d->has_front ? (size_t)errcore__front_slot_room(d) : 0;
}

/*
 * The builder's scratch, in 32-bit words: home[64] (64-bit values, first so
 * they are aligned), starts[B + 1], order[K], border[B], used[slots / 32].
 */
static uint64_t errcore__front_words(uint64_t keys, const errcore__front_dims_t *d) {
    uint64_t buckets = (uint64_t)1 << d->bucket_bits, slots = errcore__front_slot_room(d);
    return 2u * ERRCORE__FRONT_MAX_BUCKET + (buckets + 1u) + keys + buckets + (slots + 31u) / 32u;
}

bool errcore__place_scratch_size(uint64_t keys, const errcore__front_dims_t *d, size_t *bytes) {
    if (!d->has_front) {
        *bytes = 0;
        return true;
    }
    uint64_t words = errcore__front_words(keys, d);
    if (words > SIZE_MAX / 4u) {
        return false;
    }
    *bytes = (size_t)words * 4u;
    return true;
}

size_t errcore__front_slot_count(const errcore__front_dims_t *d) {
    return errcore__place_slot_count(d);
}

bool errcore__front_scratch_size(size_t entries, const errcore__front_dims_t *d, size_t *bytes) {
    return errcore__place_scratch_size((uint64_t)entries + 1u, d, bytes);
}

errcore__place_work errcore__place_work_in(void *scratch, uint64_t keys, const errcore__front_dims_t *d) {
    errcore__place_work w;
    w.home = scratch;
    w.starts = w.home + 2u * ERRCORE__FRONT_MAX_BUCKET;
    w.order = w.starts + ((size_t)1 << d->bucket_bits) + 1;
    w.border = w.order + keys;
    w.used = w.border + ((size_t)1 << d->bucket_bits);
    return w;
}

/* ---- hashing --------------------------------------------------------------------------- */

/* The integer front's keys under one multiplier: hi = (key * multiplier) >> 32. */
typedef struct errcore__code_keys {
    const errcore_table *t;
    uint64_t multiplier;
} errcore__code_keys;

/* splitmix64: the fixed sequence of multipliers (and seeds). */
uint64_t errcore__next_multiplier(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) | 1u;
}

/* Key i of the table: entry code i, or (i == entry_count) the success code. */
static inline int64_t errcore__key(const errcore_table *t, size_t i) {
    return i < t->entry_count ? t->codes[i] : t->success_code;
}

/* The table codes: entries, plus the success code when it has no entry. */
static size_t errcore__key_count(const errcore_table *t) {
    return t->entry_count + (errcore__is_entry_code(t, t->success_code) ? 0u : 1u);
}

static uint64_t errcore__code_hi(const void *context, size_t i) {
    const errcore__code_keys *k = context;
    return ((uint64_t)errcore__key(k->t, i) * k->multiplier) >> 32;
}

static inline bool errcore__used(const uint32_t *used, uint64_t s) {
    return (used[s >> 5] >> (s & 31u)) & 1u;
}

static inline void errcore__use(uint32_t *used, uint64_t s) {
    used[s >> 5] |= (uint32_t)1 << (s & 31u);
}

bool errcore__place_direct(const errcore__hash_keys *k, uint64_t slot_mask, uint32_t *used) {
    for (uint64_t i = 0; i < (slot_mask + 32u) / 32u; i++) {
        used[i] = 0;
    }
    for (size_t i = 0; i < k->count; i++) {
        uint64_t home = k->hi(k->context, i) & slot_mask;
        if (errcore__used(used, home)) {
            return false;
        }
        errcore__use(used, home);
    }
    return true;
}

bool errcore__place_buckets(const errcore__hash_keys *k, unsigned bucket_shift, uint64_t slot_mask, size_t bucket_count,
                            uint32_t *buckets, errcore__place_work *w) {
    size_t keys = k->count;
    uint64_t slot_count = slot_mask + 1u;
    /* Group the keys by bucket (counting sort). */
    for (size_t b = 0; b <= bucket_count; b++) {
        w->starts[b] = 0;
    }
    for (size_t i = 0; i < keys; i++) {
        w->starts[(k->hi(k->context, i) >> bucket_shift) + 1]++;
    }
    uint32_t largest = 0;
    for (size_t b = 0; b < bucket_count; b++) {
        uint32_t size = w->starts[b + 1];
        largest = size > largest ? size : largest;
        w->starts[b + 1] += w->starts[b];
    }
    if (largest > ERRCORE__FRONT_MAX_BUCKET) {
        return false;
    }
    for (size_t b = 0; b < bucket_count; b++) {
        w->border[b] = w->starts[b]; /* fill cursors, for now */
    }
    for (size_t i = 0; i < keys; i++) {
        w->order[w->border[k->hi(k->context, i) >> bucket_shift]++] = (uint32_t)i;
    }
    /* Buckets by size, largest first, ties by bucket number (counting sort on the size). */
    uint32_t first_of_size[ERRCORE__FRONT_MAX_BUCKET + 2];
    for (uint32_t s = 0; s <= ERRCORE__FRONT_MAX_BUCKET + 1; s++) {
        first_of_size[s] = 0;
    }
    for (size_t b = 0; b < bucket_count; b++) {
        first_of_size[w->starts[b + 1] - w->starts[b]]++;
    }
    uint32_t at = 0;
    for (uint32_t s = ERRCORE__FRONT_MAX_BUCKET + 1; s-- > 0;) {
        uint32_t n = first_of_size[s];
        first_of_size[s] = at;
        at += n;
    }
    for (size_t b = 0; b < bucket_count; b++) {
        w->border[first_of_size[w->starts[b + 1] - w->starts[b]]++] = (uint32_t)b;
    }
    for (uint64_t i = 0; i < (slot_count + 31u) / 32u; i++) {
        w->used[i] = 0;
    }
    uint64_t budget = ERRCORE__FRONT_TRIES_PER_SLOT * slot_count;
    uint64_t next_free = 0;
    for (size_t q = 0; q < bucket_count; q++) {
        uint32_t b = w->border[q];
        uint32_t k0 = w->starts[b], n = w->starts[b + 1] - k0;
        buckets[b] = 0;
        if (n == 0) {
            continue; /* empty buckets keep displacement 0 */
        }
        uint64_t *home = (uint64_t *)(void *)w->home;
        for (uint32_t j = 0; j < n; j++) {
            home[j] = k->hi(k->context, w->order[k0 + j]) & slot_mask;
            for (uint32_t j2 = 0; j2 < j; j2++) {
                if (home[j2] == home[j]) {
                    return false; /* no displacement can part them */
                }
            }
        }
        uint64_t d = 0;
        if (n == 1) {
            /* Only single-key buckets are left, so free slots are taken in order. */
            while (errcore__used(w->used, next_free)) {
                next_free++;
            }
            d = home[0] ^ next_free;
        } else {
            for (;; d++) {
                if (d == slot_count || budget == 0) {
                    return false;
                }
                budget--;
                uint32_t j = 0;
                while (j < n && !errcore__used(w->used, home[j] ^ d)) {
                    j++;
                }
                if (j == n) {
                    break;
                }
            }
        }
        for (uint32_t j = 0; j < n; j++) {
            errcore__use(w->used, home[j] ^ d);
        }
        buckets[b] = (uint32_t)d;
    }
    return true;
}

/* ---- the gap table -------------------------------------------------------------------- */

/* The class of a code that is not a table code: its range's module, or unknown. */
static errcore_class errcore__miss_class_slow(const errcore_table *t, int64_t code) {
    size_t r = errcore__range_containing(t, code);
    if (r == ERRCORE_NO_INDEX) {
        return ERRCORE_CLASS_UNKNOWN;
    }
    return (uint64_t)ERRCORE_NO_ENTRY | ((uint64_t)t->ranges[r].module << 32) | ((uint64_t)ERRCORE_TIER_MODULE << 56);
}

/*
 * The first point after `code` where the range class changes: the first
 * code of the next range, or the code after the last one of the range
 * holding `code`. *found is false when there is none (up to INT64_MAX).
 */
static int64_t errcore__next_change(const errcore_table *t, int64_t code, bool *found) {
    size_t lo = errcore__ranges_starting_by(t, code);
    *found = false;
    int64_t next = INT64_MAX;
    if (lo > 0 && t->ranges[lo - 1].last >= code && t->ranges[lo - 1].last != INT64_MAX) {
        next = t->ranges[lo - 1].last + 1;
        *found = true;
    }
    if (lo < t->range_count && (!*found || t->ranges[lo].first < next)) {
        next = t->ranges[lo].first;
        *found = true;
    }
    return next;
}

/*
 * Chooses the gap table: base, shift and count; false when it would need
 * more than `capacity` stretches or would run past INT64_MAX.
 */
static bool errcore__gap_plan(const errcore_table *t, size_t capacity, int64_t *base, unsigned *shift, size_t *count) {
    *base = 0;
    *shift = 0;
    *count = 1; /* the classifier relies on at least one stretch before the final one */
    if (t->range_count == 0) {
        return true; /* every code that misses is unknown: one stretch of code 0, then the final one */
    }
    const errcore_range *first = &t->ranges[0], *last = &t->ranges[t->range_count - 1];
    /* The narrowest distance between consecutive change points. */
    uint64_t narrowest = UINT64_MAX;
    int64_t point = first->first;
    bool found = true;
    while (found) {
        int64_t next = errcore__next_change(t, point, &found);
        if (found) {
            uint64_t gap = (uint64_t)next - (uint64_t)point;
            narrowest = gap < narrowest ? gap : narrowest;
            point = next;
        }
    }
    unsigned k = 0;
    while (k < 63 && ((uint64_t)1 << (k + 1)) <= narrowest) {
        k++;
    }
    uint64_t span = (uint64_t)last->last - (uint64_t)first->first; /* codes covered, minus 1 */
    if ((span >> k) >= capacity) {
        return false; /* (also when the ranges span all of int64: span >> k + 1 would wrap) */
    }
    uint64_t stretches = (span >> k) + 1u;
    /* The last stretch ends at first + stretches * 2^k - 1, which must not pass INT64_MAX. */
    uint64_t before_last = (stretches - 1u) << k; /* <= span: no overflow */
    uint64_t width = ((uint64_t)1 << k) - 1u;
    uint64_t room = (uint64_t)INT64_MAX - (uint64_t)first->first;
    if (before_last > room || width > room - before_last) {
        return false;
    }
    *base = first->first;
    *shift = k;
    *count = (size_t)stretches;
    return true;
}

/* Fills gaps[0 ... count] for the plan. */
static void errcore__gap_fill(const errcore_table *t, errcore_front_gap *gaps, int64_t base, unsigned shift,
                              size_t count) {
    for (size_t i = 0; i < count; i++) {
        int64_t start = (int64_t)((uint64_t)base + ((uint64_t)i << shift));
        int64_t stop = (int64_t)((uint64_t)start + (((uint64_t)1 << shift) - 1u));
        bool found = false;
        int64_t next = errcore__next_change(t, start, &found);
        errcore_front_gap g;
        g.below = errcore__miss_class_slow(t, start);
        g.split = start;
        g.above = g.below;
        if (found && next <= stop) {
            g.split = next;
            g.above = errcore__miss_class_slow(t, next);
        }
        gaps[i] = g;
    }
    gaps[count].split = INT64_MIN;
    gaps[count].below = ERRCORE_CLASS_UNKNOWN;
    gaps[count].above = ERRCORE_CLASS_UNKNOWN;
}

/* ---- building -------------------------------------------------------------------------- */

bool errcore__front_build(errcore_table *t, const errcore__front_dims_t *d, errcore_front_slot *slots,
                          uint32_t *buckets, errcore_front_gap *gaps, void *scratch) {
    errcore_front none = {NULL, NULL, NULL, 0, 0, 0, 0, 0, 0};
    t->front = none;
    if (!d->has_front) {
        return false;
    }
    errcore__code_keys code_keys = {t, 0};
    errcore__hash_keys keys = {errcore__code_hi, &code_keys, errcore__key_count(t)};
    errcore__place_work w = errcore__place_work_in(scratch, t->entry_count + 1u, d);
    uint64_t state = 0x5EEDF00D5EEDF00Dull;
    bool placed = false;
    uint64_t slot_mask = ((uint64_t)1 << d->direct_bits) - 1u;
    unsigned bucket_shift = 32;
    /* A small table first tries for a direct front: no displacement to look up. */
    for (int attempt = 0; d->direct_bits != 0 && attempt < ERRCORE__FRONT_DIRECT_ATTEMPTS && !placed; attempt++) {
        code_keys.multiplier = errcore__next_multiplier(&state);
        placed = errcore__place_direct(&keys, slot_mask, w.used);
    }
    if (placed) {
        buckets[0] = 0;
    } else {
        slot_mask = ((uint64_t)1 << d->slot_bits) - 1u;
        bucket_shift = 32u - d->bucket_bits;
        for (int attempt = 0; attempt < ERRCORE__FRONT_ATTEMPTS && !placed; attempt++) {
            code_keys.multiplier = errcore__next_multiplier(&state);
            placed = errcore__place_buckets(&keys, bucket_shift, slot_mask, (size_t)1 << d->bucket_bits, buckets, &w);
        }
    }
    if (!placed) {
        return false;
    }
    errcore_front f = none;
    f.slots = slots;
    f.buckets = buckets;
    f.multiplier = code_keys.multiplier;
    f.slot_mask = (uint32_t)slot_mask;
    f.bucket_shift = (uint8_t)bucket_shift;
    /* A slot no key hashes to holds key 0, which hashes to its own slot: no code matches there. */
    int64_t filler = errcore__key(t, 0);
    for (uint64_t s = 0; s <= slot_mask; s++) {
        slots[s].key = filler;
        slots[s].key_class = 0;
    }
    for (size_t i = 0; i < keys.count; i++) {
        int64_t key = errcore__key(t, i);
        errcore_front_slot *slot = &slots[errcore_front_position(&f, key)];
        slot->key = key;
        slot->key_class = errcore__classify_searches(t, key);
    }
    int64_t base;
    unsigned shift;
    size_t count;
    if (errcore__gap_plan(t, d->gap_capacity, &base, &shift, &count)) {
        errcore__gap_fill(t, gaps, base, shift, count);
        f.gaps = gaps;
        f.gap_base = base;
        f.gap_shift = (uint8_t)shift;
        f.gap_count = count;
    }
    t->front = f;
    return true;
}

/* ---- proving a front right ------------------------------------------------------------- */

static errcore_status errcore__bad_front(errcore_diag *diag, errcore_subject subject, size_t index, int64_t code,
                                         int64_t other_code) {
    errcore_status s = errcore__fail(diag, ERRCORE_E_BAD_FRONT, subject, index, code);
    if (diag) {
        diag->other_code = other_code;
    }
    return s;
}

static errcore_status errcore__check_gaps(const errcore_table *t, errcore_diag *diag) {
    const errcore_front *f = &t->front;
    if (!f->gaps) {
        return ERRCORE_OK; /* misses search the ranges */
    }
    size_t n = f->gap_count;
    unsigned k = f->gap_shift;
    /* Shape: at least one stretch; the stretches fit int64 and cover every range. */
    bool shape = k <= 63 && n > 0 && (uint64_t)n - 1u <= (UINT64_MAX >> k);
    uint64_t cover = 0; /* codes covered, minus 1 */
    if (shape) {
        uint64_t before = ((uint64_t)n - 1u) << k;
        uint64_t width = ((uint64_t)1 << k) - 1u;
        shape = before <= UINT64_MAX - width;
        cover = before + width;
        shape = shape && cover <= (uint64_t)INT64_MAX - (uint64_t)f->gap_base;
    }
    if (shape && t->range_count > 0) {
        shape = t->ranges[0].first >= f->gap_base &&
                (uint64_t)t->ranges[t->range_count - 1].last - (uint64_t)f->gap_base <= cover;
    }
    if (!shape) {
        return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT_GAP, ERRCORE_NO_INDEX, f->gap_base, (int64_t)n);
    }
    for (size_t i = 0; i < n; i++) {
        const errcore_front_gap *g = &f->gaps[i];
        int64_t start = (int64_t)((uint64_t)f->gap_base + ((uint64_t)i << k));
        int64_t stop = (int64_t)((uint64_t)start + (((uint64_t)1 << k) - 1u));
        bool ok = start <= g->split && g->split <= stop;
        bool found = false;
        if (ok && g->split > start) { /* below: every code from start to split - 1 */
            int64_t next = errcore__next_change(t, start, &found);
            ok = errcore__miss_class_slow(t, start) == g->below && (!found || next >= g->split);
        }
        if (ok) { /* above: every code from split to stop */
            int64_t next = errcore__next_change(t, g->split, &found);
            ok = errcore__miss_class_slow(t, g->split) == g->above && (!found || next > stop);
        }
        if (!ok) {
            return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT_GAP, i, g->split, start);
        }
    }
    const errcore_front_gap *end = &f->gaps[n];
    if (end->below != ERRCORE_CLASS_UNKNOWN || end->above != ERRCORE_CLASS_UNKNOWN) {
        return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT_GAP, n, end->split,
                                  (int64_t)((uint64_t)f->gap_base + ((uint64_t)n << k)));
    }
    return ERRCORE_OK;
}

errcore_status errcore__check_front(const errcore_table *t, errcore_diag *diag) {
    const errcore_front *f = &t->front;
    if (!f->slots) {
        return ERRCORE_OK; /* no front */
    }
    if (!f->buckets) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_FRONT, ERRCORE_NO_INDEX, 0);
    }
    uint64_t slot_count = (uint64_t)f->slot_mask + 1u;
    bool shape = (f->slot_mask & slot_count) == 0 && slot_count <= SIZE_MAX / sizeof(errcore_front_slot) &&
                 f->bucket_shift <= 32;
    if (!shape) {
        return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT, ERRCORE_NO_INDEX, f->slot_mask, f->bucket_shift);
    }
    /* Every table code sits at its position. */
    for (size_t i = 0; i <= t->entry_count; i++) {
        int64_t code = errcore__key(t, i);
        size_t at = errcore_front_position(f, code);
        if (f->slots[at].key != code) {
            return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT, at, f->slots[at].key, code);
        }
    }
    /* Every slot a code can reach answers for a table code, with its class. */
    for (uint64_t s = 0; s < slot_count; s++) {
        int64_t key = f->slots[s].key;
        if (errcore_front_position(f, key) != s) {
            continue; /* its key hashes elsewhere: no code ever matches here */
        }
        if (key != t->success_code && !errcore__is_entry_code(t, key)) {
            errcore_status st = errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT, (size_t)s, key, 0);
            if (diag) {
                diag->other_index = (size_t)s;
            }
            return st;
        }
        if (f->slots[s].key_class != errcore__classify_searches(t, key)) {
            return errcore__bad_front(diag, ERRCORE_SUBJECT_FRONT, (size_t)s, key, key);
        }
    }
    return errcore__check_gaps(t, diag);
}

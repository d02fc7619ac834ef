/*
 * test_differential.c — random tables (0 to 10,000 entries, random modules
 * and ranges) built with errcore_build(), then the classifier, single and
 * batch, checked against the linear-scan reference (reference.h) of the same
 * definition on random and boundary codes, and on codes built to collide
 * with table codes in the front's hash. Every table is classified four
 * ways: as built (exact-match front), with its front but no gap table
 * (misses search the ranges), without its front (the index), and without
 * front and index (two searches). Each is built three times more, into
 * storage filled with 0x00, 0xFF and random bytes: the bytes must agree.
 * Each batch runs on every path of errcore_classify_batch() the CPU has
 * (CHECK_BATCH_USING()), in all four ways, and must equal the automatic
 * choice.
 */
#include <stdlib.h>
#include <string.h>

#include "build_bytes.h"
#include "check.h"
#include "reference.h"

#define MAX_ENTRIES 10000
#define MAX_RANGES  64
#define MAX_MODULES 16

typedef struct random_catalog {
    errcore_entry_def entries[MAX_ENTRIES];
    errcore_module_def modules[MAX_MODULES];
    errcore_range ranges[MAX_RANGES];
    errcore_catalog_def def;
} random_catalog;

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A code in [lo, hi] (inclusive, lo <= hi), over the full int64 span if needed. */
static int64_t rand_between(uint64_t *s, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t r = check_rand(s);
    uint64_t off = span == UINT64_MAX ? r : r % (span + 1u);
    return (int64_t)((uint64_t)lo + off);
}

static const char *const entry_names[4] = {"e0", "e1", "e2", "e3"};
static const char *const module_names[MAX_MODULES] = {"m1", "m2",  "m3",  "m4",  "m5",  "m6",  "m7",  "m8",
                                                      "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16"};

/* Builds a random valid definition: disjoint ranges, codes inside or outside them. */
static void make_catalog(random_catalog *c, uint64_t *s, size_t want_entries) {
    bool wide = check_rand(s) % 4 == 0; /* sometimes spread over all of int64 */
    int64_t lo = wide ? INT64_MIN : -(int64_t)(check_rand(s) % 50000);
    int64_t hi = wide ? INT64_MAX : (int64_t)(check_rand(s) % 50000) + (int64_t)want_entries * 4;
    size_t module_count = (size_t)(check_rand(s) % (MAX_MODULES + 1));
    size_t range_count = module_count == 0 ? 0 : (size_t)(check_rand(s) % MAX_RANGES);
    /*
     * 2 * range_count distinct sorted points, paired into [first, last]:
     * random, or (a third of the time) module-style ranges of one width
     * side by side or with gaps, as real catalogs lay them out.
     */
    int64_t points[2 * MAX_RANGES];
    size_t np = 0;
    if (!wide && check_rand(s) % 3 == 0) {
        int64_t width = 1 + (int64_t)(check_rand(s) % 20000), gap = (int64_t)(check_rand(s) % 3) * width;
        for (size_t i = 0; i < range_count; i++) {
            points[np++] = lo + (int64_t)i * (width + gap);
            points[np++] = lo + (int64_t)i * (width + gap) + width - 1;
        }
    }
    while (np < 2 * range_count) {
        points[np++] = rand_between(s, lo, hi);
    }
    qsort(points, np, sizeof points[0], cmp_i64);
    size_t nr = 0;
    for (size_t i = 0; i + 1 < np; i += 2) {
        if (nr > 0 && points[i] <= c->ranges[nr - 1].last) {
            continue; /* drop a range that would touch the previous one */
        }
        c->ranges[nr].first = points[i];
        c->ranges[nr].last = points[i + 1];
        c->ranges[nr].module = (uint16_t)(1 + check_rand(s) % module_count);
        nr++;
    }
    for (size_t m = 0; m < module_count; m++) {
        c->modules[m] = (errcore_module_def){module_names[m], NULL, NULL, NULL};
    }
    /* Success code: outside every range (below all of them when ranges fill [lo, hi]). */
    int64_t success = 0;
    for (int tries = 0;; tries++) {
        success = tries < 100 || lo == INT64_MIN ? rand_between(s, lo, hi) : lo - 1;
        bool inside = false;
        for (size_t r = 0; r < nr; r++) {
            inside |= c->ranges[r].first <= success && success <= c->ranges[r].last;
        }
        if (!inside) {
            break;
        }
    }
    /* Entries: distinct codes; a code's module is whichever range holds it (0 outside). */
    int64_t *codes = malloc((want_entries + 1) * sizeof *codes);
    size_t n = 0;
    if (want_entries > 0 && check_rand(s) % 2 == 0) {
        codes[n++] = success; /* the success code has an entry half the time */
    }
    while (n < want_entries) {
        int64_t code;
        if (nr > 0 && check_rand(s) % 2 == 0) {
            const errcore_range *r = &c->ranges[check_rand(s) % nr];
            code = rand_between(s, r->first, r->last);
        } else {
            code = rand_between(s, lo, hi);
        }
        codes[n++] = code;
    }
    /* Remove duplicates, keeping the set, then shuffle into the definition. */
    qsort(codes, n, sizeof codes[0], cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (u == 0 || codes[u - 1] != codes[i]) {
            codes[u++] = codes[i];
        }
    }
    for (size_t i = u; i > 1; i--) {
        size_t j = (size_t)(check_rand(s) % i);
        int64_t tmp = codes[i - 1];
        codes[i - 1] = codes[j];
        codes[j] = tmp;
    }
    for (size_t i = 0; i < u; i++) {
        uint16_t module = 0;
        for (size_t r = 0; r < nr; r++) {
            if (c->ranges[r].first <= codes[i] && codes[i] <= c->ranges[r].last) {
                module = c->ranges[r].module;
            }
        }
        c->entries[i] =
            (errcore_entry_def){codes[i], module, (uint8_t)check_rand(s), entry_names[i % 4], "", NULL, NULL};
    }
    free(codes);
    c->def = (errcore_catalog_def){success, c->entries, u, c->modules, module_count, c->ranges, nr, NULL, 0};
}

/* The inverse of an odd multiplier mod 2^64 (Newton's iteration). */
static uint64_t inverse_of(uint64_t m) {
    uint64_t x = m;
    for (int i = 0; i < 5; i++) {
        x *= 2u - m * x;
    }
    return x;
}

/*
 * A probe code: near an entry or a range edge, anywhere, or (with a front)
 * a code with the same hash bits as an entry: same bucket, same slot.
 */
static int64_t probe(const random_catalog *c, const errcore_front *f, uint64_t *s) {
    const errcore_catalog_def *d = &c->def;
    int64_t delta = (int64_t)(check_rand(s) % 3) - 1;
    switch (check_rand(s) % 7) {
    case 6:
        if (d->entry_count && f->slots) {
            int64_t code = d->entries[check_rand(s) % d->entry_count].code;
            uint64_t product = ((uint64_t)code * f->multiplier & ~(uint64_t)0xFFFFFFFFu) | (check_rand(s) >> 32);
            return (int64_t)(product * inverse_of(f->multiplier));
        }
        break;
    case 0:
    case 1:
        if (d->entry_count) {
            int64_t code = d->entries[check_rand(s) % d->entry_count].code;
            return (int64_t)((uint64_t)code + (uint64_t)delta);
        }
        break;
    case 2:
        if (d->range_count) {
            const errcore_range *r = &d->ranges[check_rand(s) % d->range_count];
            int64_t edge = check_rand(s) % 2 ? r->first : r->last;
            return (int64_t)((uint64_t)edge + (uint64_t)delta);
        }
        break;
    case 3: {
        static const int64_t special[] = {INT64_MIN, INT64_MAX, 0, -1, 1, 4294967296LL + 11001};
        return special[check_rand(s) % 6];
    }
    case 4: return (int64_t)check_rand(s);
    default: break;
    }
    return (int64_t)(check_rand(s) % 200000) - 100000;
}

/* The class from the table against the reference's from the definition (entry indices differ). */
static bool agrees(const ref_catalog *ref, const errcore_table *t, int64_t code, errcore_class got) {
    errcore_class want = ref_class(ref, code);
    if ((got >> 32) != (want >> 32) || errcore_class_is_exact(got) != errcore_class_is_exact(want)) {
        return false; /* tier, flags or module differ, or only one found an entry */
    }
    return !errcore_class_is_exact(got) || t->codes[errcore_class_entry(got)] == code;
}

void test_differential(void) {
    static random_catalog c;
    static _Alignas(8) unsigned char storage[2u << 20];
    static int64_t codes[4096];
    static errcore_class out[4096];
    static errcore_class plain_out[4096];
    uint64_t seed = 0x5EEDu;
    const char *env = getenv("ERRCORE_DIFF_SEED");
    if (env) {
        seed = strtoull(env, NULL, 0);
    }
    uint64_t s = seed;
    unsigned long probes = 0, mismatches = 0, tables = 0;
    unsigned long direct = 0, bucketed = 0, gapped = 0, collided = 0;
    unsigned long path_batches[ERRCORE_BATCH_PATH_COUNT] = {0};
    static const size_t fixed_sizes[] = {0, 1, 2, 3, 7, 8, 9, 10000};
    for (size_t round = 0; round < 160; round++) {
        size_t n;
        if (round < sizeof fixed_sizes / sizeof fixed_sizes[0]) {
            n = fixed_sizes[round];
        } else {
            uint64_t pick = check_rand(&s) % 10;
            n = pick < 5   ? (size_t)(check_rand(&s) % 65)
                : pick < 8 ? (size_t)(check_rand(&s) % 1000)
                           : (size_t)(check_rand(&s) % (MAX_ENTRIES + 1));
        }
        make_catalog(&c, &s, n);
        errcore_table t;
        size_t need = 0;
        errcore_diag d;
        CHECK(errcore_build_size(&c.def, &need, &d) == ERRCORE_OK);
        errcore_status st = errcore_build(&c.def, storage, sizeof storage, &t, &d);
        CHECKF(st == ERRCORE_OK, "round %zu: build %s", round, errcore_status_name(st));
        if (st != ERRCORE_OK) {
            continue;
        }
        tables++;
        /* The same bytes whatever the storage held before (a state of its own: the tables drawn
         * stay those of the seed). */
        char why[160];
        uint64_t fill_state = seed + round;
        CHECKF(build_bytes_agree(&c.def, &fill_state, why, sizeof why), "round %zu: %s", round, why);
        ref_flat ref;
        CHECK(ref_flat_of_def(&ref, &c.def));
        CHECK(t.index_count > 0 && t.index_count <= ERRCORE_INDEX_CAPACITY(t.entry_count, t.range_count));
        CHECK(errcore_validate(&t, NULL) == ERRCORE_OK);
        CHECKF(t.front.slots != NULL, "round %zu: no front for %zu entries", round, t.entry_count);
        direct += t.front.slots && t.front.bucket_shift == 32;
        bucketed += t.front.slots && t.front.bucket_shift < 32;
        gapped += t.front.gaps != NULL;
        /* The four ways of classifying the same table. */
        errcore_table nogaps = t; /* front, misses by a search of the ranges */
        nogaps.front.gaps = NULL;
        errcore_table indexed = t; /* no front: the index */
        memset(&indexed.front, 0, sizeof indexed.front);
        errcore_table plain = indexed; /* no front, no index: two searches */
        plain.index_count = 0;
        plain.index_keys = NULL;
        plain.index_slots = NULL;
        CHECK(errcore_validate(&nogaps, NULL) == ERRCORE_OK && errcore_validate(&indexed, NULL) == ERRCORE_OK &&
              errcore_validate(&plain, NULL) == ERRCORE_OK);
        const errcore_table *ways[3] = {&nogaps, &indexed, &plain};
        /* Work stays bounded: fewer probes against bigger tables (the reference is linear). */
        size_t batches = 1 + 600000 / (4096 + 24 * (c.def.entry_count + c.def.range_count));
        for (size_t b = 0; b < batches; b++) {
            size_t len = 1 + (size_t)(check_rand(&s) % 4096);
            for (size_t i = 0; i < len; i++) {
                codes[i] = probe(&c, &t.front, &s);
            }
            errcore_classify_batch(&t, codes, out, len);
            bool batches_agree = true;
            for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
                if (!CHECK_PATH_AVAILABLE((errcore_batch_path)p)) {
                    continue;
                }
                for (int w = 0; w < 4; w++) {
                    const errcore_table *way = w == 0 ? &t : ways[w - 1];
                    batches_agree = batches_agree &&
                                    CHECK_BATCH_USING(way, codes, plain_out, len, (errcore_batch_path)p) &&
                                    memcmp(plain_out, out, len * sizeof out[0]) == 0;
                }
                path_batches[p]++;
            }
            for (size_t i = 0; i < len; i++) {
                errcore_class single = errcore_classify(&t, codes[i]);
                bool ok = batches_agree && single == out[i] && agrees(&ref.c, &t, codes[i], single);
                for (int w = 0; w < 3; w++) {
                    ok = ok && errcore_classify(ways[w], codes[i]) == single;
                }
                if (t.front.slots) {
                    const errcore_front_slot *slot = &t.front.slots[errcore_front_position(&t.front, codes[i])];
                    collided += slot->key != codes[i] && errcore_front_position(&t.front, slot->key) ==
                                                             errcore_front_position(&t.front, codes[i]);
                }
                if (!ok && mismatches++ < 5) {
                    fprintf(stderr, "mismatch: seed %llu round %zu code %lld\n", (unsigned long long)seed, round,
                            (long long)codes[i]);
                }
                probes++;
            }
        }
        ref_flat_free(&ref);
    }
    CHECKF(mismatches == 0, "%lu of %lu probes disagree", mismatches, probes);
    CHECK(tables == 160);
    CHECK(probes > 1000000);
    /* Both kinds of front, gap tables and their fallback, and many misses on a table code's slot. */
    CHECKF(direct > 10 && bucketed > 50 && gapped > 30 && tables - gapped > 30 && collided > 10000,
           "%lu direct fronts, %lu with buckets, %lu gap tables, %lu collisions", direct, bucketed, gapped, collided);
    printf("differential: %lu tables (%lu direct fronts, %lu with buckets, %lu gap tables), %lu codes checked "
           "single and batch four ways, %lu on a table code's slot (seed %llu); batch paths:",
           tables, direct, bucketed, gapped, probes, collided, (unsigned long long)seed);
    for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        bool available = CHECK_PATH_AVAILABLE((errcore_batch_path)p);
        CHECK(available == (path_batches[p] > 0));
        printf(" %s %s", errcore_batch_path_name((errcore_batch_path)p), available ? "ran" : "not on this CPU");
    }
    printf("\n");
}

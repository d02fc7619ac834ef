/*
 * test_front.c — the exact-match front: what errcore_build() and the
 * generated default table carry, hits and misses (also codes built to
 * collide with table codes in the hash), multipliers the builder must
 * skip, where direct fronts stop (361 entries), tables without a front
 * or without a gap table, every way
 * errcore_validate() rejects a corrupted front with its diagnostic, and
 * batch lengths around the front's block and step sizes.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "errcore_default_catalog.h"
#include "fixture.h"
#include "reference.h"

/* A table built from a definition into its own storage. */
typedef struct built {
    errcore_table t;
    void *storage;
    errcore_status status;
} built;

static built build_def(const errcore_catalog_def *def) {
    built b;
    memset(&b, 0, sizeof b);
    size_t size = 0;
    b.status = errcore_build_size(def, &size, NULL);
    if (b.status == ERRCORE_OK) {
        b.storage = malloc(size + 8);
        b.status = errcore_build(def, b.storage, size, &b.t, NULL);
    }
    return b;
}

/* The same table classified without its front (through its index). */
static errcore_table without_front(const errcore_table *t) {
    errcore_table plain = *t;
    memset(&plain.front, 0, sizeof plain.front);
    return plain;
}

/* The inverse of an odd multiplier mod 2^64 (Newton's iteration). */
static uint64_t inverse_of(uint64_t m) {
    uint64_t x = m; /* right to 3 bits; each step doubles that */
    for (int i = 0; i < 5; i++) {
        x *= 2u - m * x;
    }
    return x;
}

/*
 * A code other than `code` with the same hi = (code * multiplier) >> 32,
 * so the same bucket and the same position: a collision by construction.
 * `low` picks the product's low 32 bits (must differ from code's).
 */
static int64_t collider(const errcore_front *f, int64_t code, uint32_t low) {
    uint64_t product = (uint64_t)code * f->multiplier;
    uint64_t wanted = (product & ~(uint64_t)0xFFFFFFFFu) | low;
    return (int64_t)(wanted * inverse_of(f->multiplier));
}

/* Every table code at its position with its class; the slots a code reaches hold table codes. */
static void check_front_of(const errcore_table *t, const char *what) {
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, t));
    CHECKF(t->front.slots != NULL, "%s: no front", what);
    CHECKF(ref_front_ok(t, &flat.c), "%s: the reference rejects the front", what);
    for (size_t i = 0; i <= t->entry_count; i++) {
        int64_t code = i < t->entry_count ? t->codes[i] : t->success_code;
        const errcore_front_slot *slot = &t->front.slots[errcore_front_position(&t->front, code)];
        CHECKF(slot->key == code && slot->key_class == ref_class(&flat.c, code), "%s: code %lld", what,
               (long long)code);
    }
    ref_flat_free(&flat);
}

static void test_default_front(void) {
    const errcore_table *t = errcore_default_table();
    check_front_of(t, "default");
    /* 32 entries: a direct front (one bucket) and a gap table over the seven module ranges. */
    CHECK(t->front.bucket_shift == 32 && t->front.buckets[0] == 0);
    CHECK(t->front.slot_mask + 1u == 256u);
    CHECK(t->front.gaps != NULL && t->front.gap_count >= 1 && t->front.gap_base == 11010000);
    /* The front and the index agree on every code around every change point. */
    errcore_table plain = without_front(t);
    for (size_t i = 0; i < t->index_count; i++) {
        for (int64_t d = -2; d <= 2; d++) {
            int64_t code = t->index_keys[i] == INT64_MIN && d < 0 ? INT64_MIN : t->index_keys[i] + d;
            CHECKF(errcore_classify(t, code) == errcore_classify(&plain, code), "code %lld", (long long)code);
        }
    }
}

/* Codes built to share a table code's position miss and take their range class. */
static void test_collisions(void) {
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    const errcore_table *t = &f.table;
    errcore_table plain = without_front(t);
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, t));
    uint64_t s = 0xC011u;
    unsigned collisions = 0, in_range = 0;
    int64_t probes[64];
    errcore_class got[64];
    size_t np = 0;
    for (size_t i = 0; i <= t->entry_count; i++) {
        int64_t code = i < t->entry_count ? t->codes[i] : t->success_code;
        for (int k = 0; k < 4; k++) {
            uint32_t low = (uint32_t)check_rand(&s);
            int64_t x = collider(&t->front, code, low);
            if (x == code || ref_is_table_code(&flat.c, x)) {
                continue;
            }
            collisions++;
            CHECK(errcore_front_position(&t->front, x) == errcore_front_position(&t->front, code));
            CHECKF(errcore_classify(t, x) == ref_miss_class(&flat.c, x), "collider %lld of %lld", (long long)x,
                   (long long)code);
            CHECK(errcore_classify(t, x) == errcore_classify(&plain, x));
            if (np < 64) {
                probes[np++] = x;
            }
        }
    }
    /* Unlisted codes of the module ranges that land on a table code's slot. */
    for (size_t r = 0; r < t->range_count; r++) {
        for (int64_t x = t->ranges[r].first; x <= t->ranges[r].last; x++) {
            size_t at = errcore_front_position(&t->front, x);
            if (t->front.slots[at].key != x && errcore_front_position(&t->front, t->front.slots[at].key) == at) {
                in_range++; /* x lands on a table code's slot and misses */
                CHECKF(errcore_classify(t, x) == ref_miss_class(&flat.c, x), "code %lld", (long long)x);
                if (np < 64) {
                    probes[np++] = x;
                }
            }
        }
    }
    CHECKF(collisions >= 20 && in_range >= 20, "%u colliders, %u in ranges", collisions, in_range);
    errcore_classify_batch(t, probes, got, np);
    for (size_t k = 0; k < np; k++) {
        CHECKF(got[k] == ref_miss_class(&flat.c, probes[k]), "batch: code %lld", (long long)probes[k]);
    }
    ref_flat_free(&flat);
}

/* Keys that collide under the multiplier that placed a catalog make the builder take another. */
static void test_multiplier_retry(void) {
    for (int bucketed = 0; bucketed < 2; bucketed++) {
        /* 7 or 401 table codes: a direct front first, or buckets from the start (above 361 entries). */
        size_t n = bucketed ? 400 : 6;
        errcore_entry_def *e = calloc(n, sizeof *e);
        for (size_t i = 0; i < n; i++) {
            e[i] = (errcore_entry_def){1000 + (int64_t)i * 7, 0, 0, "e", NULL, NULL, NULL};
        }
        errcore_catalog_def def = {0, e, n, NULL, 0, NULL, 0, NULL, 0};
        built a = build_def(&def);
        CHECK(a.status == ERRCORE_OK && a.t.front.slots != NULL);
        CHECK((a.t.front.bucket_shift == 32) == !bucketed);
        /* Replace the last entry with a code that shares hi (so bucket and home) with entry 0. */
        int64_t clash = collider(&a.t.front, e[0].code, (uint32_t)(((uint64_t)e[0].code * a.t.front.multiplier) ^ 1u));
        CHECK(clash != e[0].code);
        bool taken = false;
        for (size_t i = 0; i < n; i++) {
            taken = taken || e[i].code == clash;
        }
        CHECK(!taken);
        e[n - 1].code = clash;
        built b = build_def(&def);
        CHECK(b.status == ERRCORE_OK && b.t.front.slots != NULL);
        CHECKF(b.t.front.multiplier != a.t.front.multiplier || b.t.front.bucket_shift != a.t.front.bucket_shift,
               "the multiplier that cannot part %lld and %lld was kept", (long long)e[0].code, (long long)clash);
        check_front_of(&b.t, bucketed ? "retry, buckets" : "retry, direct");
        CHECK(errcore_validate(&b.t, NULL) == ERRCORE_OK);
        CHECK(errcore_classify(&b.t, clash) == errcore_classify(&b.t, clash) &&
              errcore_class_is_exact(errcore_classify(&b.t, clash)));
        free(a.storage);
        free(b.storage);
        free(e);
    }
}

/*
 * Codes the multiplicative hash cannot part: 128 codes that agree in their
 * low 57 bits share every hash bit a front of that size uses, so no
 * multiplier places them and the table gets no front; it still classifies.
 */
static void test_no_front(void) {
    enum { N = 128 };
    errcore_entry_def e[N];
    for (size_t i = 0; i < N; i++) {
        e[i] = (errcore_entry_def){(int64_t)((uint64_t)i << 57), 0, (uint8_t)i, "e", NULL, NULL, NULL};
    }
    errcore_catalog_def def = {0, e, N, NULL, 0, NULL, 0, NULL, 0};
    built b = build_def(&def);
    CHECK(b.status == ERRCORE_OK);
    CHECK(b.t.front.slots == NULL && b.t.index_count > 0);
    CHECK(errcore_validate(&b.t, NULL) == ERRCORE_OK);
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, &b.t));
    for (size_t i = 0; i < N; i++) {
        for (int64_t d = -1; d <= 1; d++) {
            int64_t code = (int64_t)(((uint64_t)i << 57) + (uint64_t)d);
            CHECKF(errcore_classify(&b.t, code) == ref_class(&flat.c, code), "code %lld", (long long)code);
        }
    }
    ref_flat_free(&flat);
    free(b.storage);

    /* A hand-written table has no front: the fixture table with its front and index taken away. */
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    errcore_table hand = without_front(&f.table);
    hand.index_keys = NULL;
    hand.index_slots = NULL;
    hand.index_count = 0;
    CHECK(errcore_validate(&hand, NULL) == ERRCORE_OK);
    for (int64_t code = -5; code < 700; code++) {
        CHECKF(errcore_classify(&hand, code) == errcore_classify(&f.table, code), "code %lld", (long long)code);
    }
}

/*
 * Direct fronts are tried for definitions of up to 361 entries, whether or
 * not the success code is one of them (362 table codes at most): the room
 * for one is in errcore_build_size() up to there and not beyond, and a
 * table of 362 entries has buckets even when they are only 362 table codes.
 */
static void test_direct_limit(void) {
    enum { N = 362 };
    errcore_entry_def *e = calloc(N, sizeof *e);
    size_t size_at[2] = {0, 0};
    for (int success_entry = 0; success_entry < 2; success_entry++) {
        for (size_t n = N - 1; n <= N; n++) {
            for (size_t i = 0; i < n; i++) {
                e[i] = (errcore_entry_def){1000 + (int64_t)i * 7, 0, 0, "e", NULL, NULL, NULL};
            }
            if (success_entry) {
                e[0].code = 0; /* the success code is an entry: n table codes, not n + 1 */
            }
            errcore_catalog_def def = {0, e, n, NULL, 0, NULL, 0, NULL, 0};
            built b = build_def(&def);
            CHECK(b.status == ERRCORE_OK && b.t.front.slots != NULL);
            CHECK(errcore_build_size(&def, &size_at[n - (N - 1)], NULL) == ERRCORE_OK);
            /* 361 entries: these codes find a direct front; 362: buckets, never tried direct. */
            CHECKF((b.t.front.bucket_shift == 32) == (n == N - 1),
                   "%zu entries (success code an entry: %d): "
                   "bucket_shift %u",
                   n, success_entry, (unsigned)b.t.front.bucket_shift);
            CHECK(errcore_validate(&b.t, NULL) == ERRCORE_OK);
            free(b.storage);
        }
        /* 8,192 direct slots of 16 bytes reserved at 361 entries, none at 362. */
        CHECKF(size_at[0] > size_at[1] + 8192 * 16 / 2, "build size %zu at 361 entries, %zu at 362", size_at[0],
               size_at[1]);
    }
    free(e);
}

/* Ranges too far apart for a gap table: misses search the ranges; no ranges: one stretch. */
static void test_gap_tables(void) {
    errcore_module_def m[3] = {{"client", NULL, NULL, NULL}, {"server", NULL, NULL, NULL}, {"study", NULL, NULL, NULL}};
    errcore_range r[3] = {{400, 499, 1}, {500, 599, 2}, {11010000, 11019999, 3}};
    errcore_entry_def e[4] = {{0, 0, 0, "ok", NULL, NULL, NULL},
                              {404, 1, 0, "notFound", NULL, NULL, NULL},
                              {503, 2, 0, "unavailable", NULL, NULL, NULL},
                              {11010017, 3, 0, "bound", NULL, NULL, NULL}};
    errcore_catalog_def def = {0, e, 4, m, 3, r, 3, NULL, 0};
    built b = build_def(&def);
    CHECK(b.status == ERRCORE_OK && b.t.front.slots != NULL);
    CHECK(b.t.front.gaps == NULL); /* 2^6-wide stretches from 400 to 11019999: far too many */
    CHECK(errcore_validate(&b.t, NULL) == ERRCORE_OK);
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, &b.t));
    static const int64_t codes[] = {INT64_MIN, -1,       0,        1,        399,      400,      404,
                                    450,       499,      500,      503,      599,      600,      11009999,
                                    11010000,  11010017, 11015000, 11019999, 11020000, INT64_MAX};
    errcore_class batch[sizeof codes / sizeof codes[0]];
    size_t nc = sizeof codes / sizeof codes[0];
    errcore_classify_batch(&b.t, codes, batch, nc);
    for (size_t i = 0; i < nc; i++) {
        CHECKF(errcore_classify(&b.t, codes[i]) == ref_class(&flat.c, codes[i]) &&
                   batch[i] == ref_class(&flat.c, codes[i]),
               "code %lld", (long long)codes[i]);
    }
    ref_flat_free(&flat);
    free(b.storage);

    /*
     * Ranges from INT64_MIN to INT64_MAX but for the success code, one code
     * between change points: 2^64 one-code stretches would be needed (the
     * count wraps to 0), so no gap table.
     */
    errcore_range all[2] = {{INT64_MIN, -1, 1}, {1, INT64_MAX, 2}};
    errcore_entry_def none_in[1] = {{11001, 2, 0, "e", NULL, NULL, NULL}};
    errcore_catalog_def everywhere = {0, none_in, 1, m, 2, all, 2, NULL, 0};
    b = build_def(&everywhere);
    CHECK(b.status == ERRCORE_OK && b.t.front.slots != NULL && b.t.front.gaps == NULL);
    CHECK(errcore_validate(&b.t, NULL) == ERRCORE_OK);
    CHECK(errcore_class_module(errcore_classify(&b.t, INT64_MIN)) == 1 &&
          errcore_class_module(errcore_classify(&b.t, -1)) == 1 &&
          errcore_class_module(errcore_classify(&b.t, INT64_MAX)) == 2 &&
          errcore_class_tier(errcore_classify(&b.t, 0)) == ERRCORE_TIER_SUCCESS &&
          errcore_class_is_exact(errcore_classify(&b.t, 11001)));
    free(b.storage);

    /* No ranges: one stretch, and every code that misses is unknown. */
    e[1].module = 0; /* 404 becomes a base code */
    errcore_catalog_def bare = {5, e + 1, 1, m, 1, NULL, 0, NULL, 0};
    b = build_def(&bare);
    CHECK(b.status == ERRCORE_OK && b.t.front.gaps != NULL && b.t.front.gap_count == 1);
    CHECK(errcore_class_tier(errcore_classify(&b.t, 5)) == ERRCORE_TIER_SUCCESS &&
          errcore_class_tier(errcore_classify(&b.t, 404)) == ERRCORE_TIER_BASE);
    static const int64_t misses[] = {INT64_MIN, -1, 0, 1, 4, 6, 403, 405, INT64_MAX};
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
        CHECKF(errcore_classify(&b.t, misses[i]) == ERRCORE_CLASS_UNKNOWN, "code %lld", (long long)misses[i]);
    }
    free(b.storage);
}

/* Mutable copies of a built table's front, so each test can corrupt one thing. */
typedef struct front_copy {
    errcore_table t;
    errcore_front_slot *slots;
    uint32_t *buckets;
    errcore_front_gap *gaps;
} front_copy;

static front_copy copy_front(const errcore_table *t) {
    front_copy c;
    c.t = *t;
    size_t slots = (size_t)t->front.slot_mask + 1u;
    size_t buckets = (size_t)1 << (32 - t->front.bucket_shift);
    c.slots = malloc(slots * sizeof *c.slots);
    c.buckets = malloc(buckets * sizeof *c.buckets);
    c.gaps = malloc((t->front.gap_count + 1u) * sizeof *c.gaps);
    memcpy(c.slots, t->front.slots, slots * sizeof *c.slots);
    memcpy(c.buckets, t->front.buckets, buckets * sizeof *c.buckets);
    memcpy(c.gaps, t->front.gaps, (t->front.gap_count + 1u) * sizeof *c.gaps);
    c.t.front.slots = c.slots;
    c.t.front.buckets = c.buckets;
    c.t.front.gaps = c.gaps;
    return c;
}

static void free_copy(front_copy *c) {
    free(c->slots);
    free(c->buckets);
    free(c->gaps);
}

/* validate gives `status`/`subject`/`index`, the reference agrees it names a real problem, and the text. */
static void expect_front_diag(const errcore_table *t, errcore_status status, errcore_subject subject, size_t index,
                              const char *text, int line) {
    errcore_diag d;
    memset(&d, 0, sizeof d);
    errcore_status got = errcore_validate(t, &d);
    CHECKF(got == status && d.status == status && d.subject == subject && d.index == index,
           "line %d: got %s subject %d index %zu", line, errcore_status_name(got), (int)d.subject, d.index);
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, t));
    CHECKF(!ref_front_ok(t, &flat.c), "line %d: the reference finds nothing wrong", line);
    const char *why = ref_front_diag_fault(&d, t, &flat.c);
    CHECKF(why == NULL, "line %d: %s", line, why);
    ref_flat_free(&flat);
    char buf[300];
    errcore_diag_format(&d, buf, sizeof buf);
    CHECKF(strcmp(buf, text) == 0, "line %d: got \"%s\"\n  want \"%s\"", line, buf, text);
}
#define EXPECT_FRONT(t, st, subj, idx, text) expect_front_diag(t, st, subj, idx, text, __LINE__)

/* A slot no table code hashes to. */
static size_t free_slot(const errcore_table *t) {
    for (size_t s = 0; s <= t->front.slot_mask; s++) {
        bool taken = false;
        for (size_t i = 0; i <= t->entry_count && !taken; i++) {
            int64_t code = i < t->entry_count ? t->codes[i] : t->success_code;
            taken = errcore_front_position(&t->front, code) == s;
        }
        if (!taken) {
            return s;
        }
    }
    return (size_t)-1;
}

static void test_corrupted(void) {
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    const errcore_table *t = &f.table;
    char text[300];
    CHECK(t->front.slots != NULL && t->front.gaps != NULL);

    front_copy c = copy_front(t);
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);

    c.t.front.buckets = NULL;
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_E_NULL_ARGUMENT);
    errcore_diag d;
    CHECK(errcore_validate(&c.t, &d) == ERRCORE_E_NULL_ARGUMENT && d.subject == ERRCORE_SUBJECT_FRONT &&
          d.index == ERRCORE_NO_INDEX);
    c.t.front.buckets = c.buckets;

    uint32_t mask = c.t.front.slot_mask;
    c.t.front.slot_mask = 6;
    snprintf(text, sizeof text,
             "exact-match front does not match the table: slot mask 6 and bucket shift %u (the mask must be "
             "one less than a power of two, the shift at most 32)",
             (unsigned)c.t.front.bucket_shift);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT, ERRCORE_NO_INDEX, text);
    c.t.front.slot_mask = mask;
    uint8_t shift = c.t.front.bucket_shift;
    c.t.front.bucket_shift = 33;
    snprintf(text, sizeof text,
             "exact-match front does not match the table: slot mask %u and bucket shift 33 (the mask must be "
             "one less than a power of two, the shift at most 32)",
             (unsigned)mask);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT, ERRCORE_NO_INDEX, text);
    c.t.front.bucket_shift = shift;
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);

    /* A table code moved out of its slot: the slot it hashes to is reported with what it holds. */
    int64_t moved = t->codes[3]; /* 150 */
    size_t home = errcore_front_position(&t->front, moved), spare = free_slot(t);
    CHECK(spare != (size_t)-1);
    errcore_front_slot keep = c.slots[home];
    c.slots[spare] = keep;                 /* unreachable there: 150 hashes to `home` */
    c.slots[home] = t->front.slots[spare]; /* the filler: key 0, which hashes elsewhere */
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front slot %zu (key 0) should hold code 150, "
             "which hashes to it",
             home);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT, home, text);
    c.slots[home] = keep;
    c.slots[spare] = t->front.slots[spare];
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);

    /* The wrong class for a table code. */
    c.slots[home].key_class ^= (uint64_t)ERRCORE_FLAG_RETRYABLE << 48;
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front slot %zu (key 150) has the wrong class", home);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT, home, text);
    /* Without validation, classify would report the corruption as the code's class. */
    CHECK(errcore_classify(&c.t, 150) != errcore_classify(t, 150));
    c.slots[home] = keep;

    /* A slot no table code hashes to, answering for a code of its own. */
    int64_t stray = 0;
    for (uint64_t x = 1000; x < 1000000; x++) {
        if (errcore_front_position(&t->front, (int64_t)x) == spare) {
            stray = (int64_t)x;
            break;
        }
    }
    CHECK(stray != 0);
    c.slots[spare].key = stray;
    c.slots[spare].key_class = errcore_classify(t, 10); /* an entry's class for a code with none */
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front slot %zu (key %lld) answers for its key, which is "
             "not a table code",
             spare, (long long)stray);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT, spare, text);
    CHECK(errcore_validate(&c.t, &d) == ERRCORE_E_BAD_FRONT && d.other_index == spare && d.code == stray);
    CHECK(errcore_classify(&c.t, stray) != errcore_classify(t, stray)); /* it would misclassify */
    c.slots[spare] = t->front.slots[spare];

    /* A displacement changed: table codes of that bucket land elsewhere. */
    if (c.t.front.bucket_shift < 32) {
        uint64_t hi = ((uint64_t)moved * c.t.front.multiplier) >> 32;
        c.buckets[hi >> c.t.front.bucket_shift] ^= 1u;
        errcore_diag bad;
        CHECK(errcore_validate(&c.t, &bad) == ERRCORE_E_BAD_FRONT && bad.subject == ERRCORE_SUBJECT_FRONT);
        c.buckets[hi >> c.t.front.bucket_shift] ^= 1u;
    } else {
        c.buckets[0] = 1; /* a direct front moved by one */
        errcore_diag bad;
        CHECK(errcore_validate(&c.t, &bad) == ERRCORE_E_BAD_FRONT && bad.subject == ERRCORE_SUBJECT_FRONT &&
              bad.index != ERRCORE_NO_INDEX);
        c.buckets[0] = 0;
    }
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);

    /* The gap table: a stretch with the wrong class, its shape, the final stretch. */
    size_t split_at = c.t.front.gap_count;
    for (size_t i = 0; i < c.t.front.gap_count; i++) {
        if (c.gaps[i].below != c.gaps[i].above) {
            split_at = i;
            break;
        }
    }
    CHECK(split_at < c.t.front.gap_count);
    errcore_front_gap gap = c.gaps[split_at];
    int64_t start = (int64_t)((uint64_t)c.t.front.gap_base + ((uint64_t)split_at << c.t.front.gap_shift));
    c.gaps[split_at].above = gap.below;
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front gap %zu (split %lld), stretch from code %lld, does "
             "not match the module ranges",
             split_at, (long long)gap.split, (long long)start);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT_GAP, split_at, text);
    c.gaps[split_at] = gap;
    c.gaps[split_at].split = gap.split + 1; /* the split one code late */
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front gap %zu (split %lld), stretch from code %lld, does "
             "not match the module ranges",
             split_at, (long long)gap.split + 1, (long long)start);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT_GAP, split_at, text);
    c.gaps[split_at] = gap;

    size_t count = c.t.front.gap_count;
    c.gaps[count].above = errcore_classify(t, 150) & ~(uint64_t)0xFFFFFFFFu;
    snprintf(text, sizeof text,
             "exact-match front does not match the table: front gap %zu (split %lld), stretch from code %lld, does "
             "not match the module ranges",
             count, (long long)c.gaps[count].split,
             (long long)((uint64_t)c.t.front.gap_base + ((uint64_t)count << c.t.front.gap_shift)));
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT_GAP, count, text);
    c.gaps[count] = t->front.gaps[count];

    c.t.front.gap_count = count - 1; /* the last range is no longer covered */
    snprintf(text, sizeof text,
             "exact-match front does not match the table: the gap table of %zu stretches from code %lld is "
             "malformed or misses a module range",
             count - 1, (long long)c.t.front.gap_base);
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT_GAP, ERRCORE_NO_INDEX, text);
    c.t.front.gap_count = 0;
    EXPECT_FRONT(&c.t, ERRCORE_E_BAD_FRONT, ERRCORE_SUBJECT_FRONT_GAP, ERRCORE_NO_INDEX,
                 "exact-match front does not match the table: the gap table of 0 stretches from code 100 is "
                 "malformed or misses a module range");
    c.t.front.gap_count = count;
    c.t.front.gap_base += 1; /* the first range starts before it */
    CHECK(errcore_validate(&c.t, &d) == ERRCORE_E_BAD_FRONT && d.subject == ERRCORE_SUBJECT_FRONT_GAP &&
          d.index == ERRCORE_NO_INDEX);
    c.t.front.gap_base -= 1;
    uint8_t gap_shift = c.t.front.gap_shift;
    c.t.front.gap_shift = 64;
    CHECK(errcore_validate(&c.t, &d) == ERRCORE_E_BAD_FRONT && d.subject == ERRCORE_SUBJECT_FRONT_GAP &&
          d.index == ERRCORE_NO_INDEX);
    c.t.front.gap_shift = gap_shift;
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);

    /* Without its gap table the front still classifies (by a search of the ranges). */
    c.t.front.gaps = NULL;
    CHECK(errcore_validate(&c.t, NULL) == ERRCORE_OK);
    errcore_class batch[705];
    int64_t codes[705];
    for (int64_t code = -5; code < 700; code++) {
        codes[code + 5] = code;
        CHECKF(errcore_classify(&c.t, code) == errcore_classify(t, code), "no gaps: code %lld", (long long)code);
    }
    errcore_classify_batch(&c.t, codes, batch, 705);
    bool same = true;
    for (size_t i = 0; i < 705; i++) {
        same = same && batch[i] == errcore_classify(t, codes[i]);
    }
    CHECK(same);
    free_copy(&c);
}

/* Random one-byte corruptions of a front: validate agrees with the reference, and what it accepts classifies right. */
static void test_random_corruption(void) {
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    const errcore_table *t = &f.table;
    ref_flat flat;
    CHECK(ref_flat_of_table(&flat, t));
    uint64_t s = 0xF00Du;
    unsigned rejected = 0, accepted = 0, disagree = 0, wrong = 0;
    for (int round = 0; round < 3000; round++) {
        front_copy c = copy_front(t);
        unsigned char *bytes;
        size_t size;
        switch (check_rand(&s) % 4) {
        case 0: bytes = (unsigned char *)c.slots, size = ((size_t)t->front.slot_mask + 1u) * sizeof *c.slots; break;
        case 1: bytes = (unsigned char *)c.gaps, size = (t->front.gap_count + 1u) * sizeof *c.gaps; break;
        case 2: bytes = (unsigned char *)c.buckets, size = ((size_t)1 << (32 - t->front.bucket_shift)) * 4u; break;
        default: bytes = (unsigned char *)&c.t.front.multiplier, size = sizeof c.t.front.multiplier; break;
        }
        bytes[check_rand(&s) % size] ^= (unsigned char)(1u << (check_rand(&s) % 8));
        errcore_diag d;
        errcore_status st = errcore_validate(&c.t, &d);
        bool ok = ref_front_ok(&c.t, &flat.c);
        disagree += (st == ERRCORE_OK) != ok;
        if (st == ERRCORE_OK) {
            accepted++;
            for (int64_t code = -5; code < 700; code++) {
                wrong += errcore_classify(&c.t, code) != ref_class(&flat.c, code);
            }
        } else {
            rejected++;
            wrong += ref_front_diag_fault(&d, &c.t, &flat.c) != NULL;
        }
        free_copy(&c);
    }
    CHECKF(disagree == 0 && wrong == 0, "%u verdicts differ from the reference, %u wrong", disagree, wrong);
    CHECKF(rejected > 500 && accepted > 500, "%u rejected, %u accepted", rejected, accepted);
    ref_flat_free(&flat);
}

/* Batches of every length around the front's block (128) and step (4), from every offset. */
static void test_batch_lengths(void) {
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    const errcore_table *tables[2] = {&f.table, errcore_default_table()};
    enum { LEN = 300 };
    int64_t codes[LEN];
    errcore_class out[LEN + 1];
    uint64_t s = 0xBA7Cu;
    for (int which = 0; which < 2; which++) {
        const errcore_table *t = tables[which];
        for (size_t i = 0; i < LEN; i++) {
            uint64_t pick = check_rand(&s) % 3;
            codes[i] = pick == 0   ? t->codes[check_rand(&s) % t->entry_count]
                       : pick == 1 ? t->ranges[check_rand(&s) % t->range_count].first + (int64_t)(check_rand(&s) % 50)
                                   : (int64_t)(check_rand(&s) % 2000000) - 1000000;
        }
        unsigned bad = 0;
        for (size_t start = 0; start < 5; start++) {
            for (size_t len = 0; start + len <= LEN; len++) {
                out[len] = 0xABABABABABABABABull;
                errcore_classify_batch(t, codes + start, out, len);
                for (size_t k = 0; k < len; k++) {
                    bad += out[k] != errcore_classify(t, codes[start + k]);
                }
                bad += out[len] != 0xABABABABABABABABull;
            }
        }
        CHECKF(bad == 0, "table %d: %u wrong batch results", which, bad);
    }
}

/* The same definition builds the same front, byte for byte. */
static void test_deterministic(void) {
    fixture a, b;
    fixture_init(&a);
    fixture_init(&b);
    CHECK(fixture_build(&a) == ERRCORE_OK && fixture_build(&b) == ERRCORE_OK);
    const errcore_front *fa = &a.table.front, *fb = &b.table.front;
    CHECK(fa->multiplier == fb->multiplier && fa->slot_mask == fb->slot_mask && fa->bucket_shift == fb->bucket_shift &&
          fa->gap_count == fb->gap_count && fa->gap_base == fb->gap_base && fa->gap_shift == fb->gap_shift);
    CHECK(memcmp(fa->slots, fb->slots, ((size_t)fa->slot_mask + 1u) * sizeof *fa->slots) == 0);
    CHECK(memcmp(fa->gaps, fb->gaps, (fa->gap_count + 1u) * sizeof *fa->gaps) == 0);
    check_front_of(&a.table, "fixture");
}

void test_front(void) {
    test_default_front();
    test_collisions();
    test_multiplier_retry();
    test_no_front();
    test_direct_limit();
    test_gap_tables();
    test_corrupted();
    test_random_corruption();
    test_batch_lengths();
    test_deterministic();
}

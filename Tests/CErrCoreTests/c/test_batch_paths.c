/*
 * test_batch_paths.c — every path of errcore_classify_batch() this CPU has
 * (CHECK_PATH_AVAILABLE()), forced with CHECK_BATCH_USING(),
 * against errcore_classify() code by code: on the built-in table (a direct
 * front), on a built table of 2,000 entries (a front with buckets), on a
 * direct front moved to a non-zero displacement, and on each of them without
 * its gap table, without its front and without its index; with every batch
 * length from 0 to 80 and lengths around the 256-code block, codes and
 * results starting at every 8-byte offset of a 64-byte line, guard values
 * around the results that must stay untouched; every one of the 256 patterns
 * of hits and misses in eight consecutive codes; the path API itself.
 * Prints which paths ran, so a log shows what the CPU that ran it covered.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "errcore_default_catalog.h"

#define BIG_ENTRIES 2000
#define BIG_MODULES 8
#define MAX_LEN     1100
#define GUARD       0xA5A5A5A5DEADBEEFull

typedef struct big_catalog {
    errcore_entry_def entries[BIG_ENTRIES];
    errcore_module_def modules[BIG_MODULES];
    errcore_range ranges[BIG_MODULES];
    errcore_catalog_def def;
} big_catalog;

static const char *const big_module_names[BIG_MODULES] = {"b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"};

/* 2,000 entries: 1 in 5 a base code below 1,000,000, the rest spread over 8 module ranges of 10,000. */
static void make_big(big_catalog *c) {
    for (size_t m = 0; m < BIG_MODULES; m++) {
        c->modules[m] = (errcore_module_def){big_module_names[m], NULL, NULL, NULL};
        c->ranges[m] =
            (errcore_range){5000000 + (int64_t)m * 20000, 5000000 + (int64_t)m * 20000 + 9999, (uint16_t)(m + 1)};
    }
    for (size_t i = 0; i < BIG_ENTRIES; i++) {
        int64_t code;
        uint16_t module = 0;
        if (i % 5 == 0) {
            code = 1000 + (int64_t)i * 37;
        } else {
            size_t m = i % BIG_MODULES;
            code = c->ranges[m].first + (int64_t)(i / BIG_MODULES) * 31 % 10000;
            module = (uint16_t)(m + 1);
        }
        c->entries[i] = (errcore_entry_def){code, module, (uint8_t)(i * 7), "e", "", NULL, NULL};
    }
    c->def =
        (errcore_catalog_def){0, c->entries, BIG_ENTRIES, c->modules, BIG_MODULES, c->ranges, BIG_MODULES, NULL, 0};
}

/* The inverse of an odd multiplier mod 2^64 (Newton's iteration). */
static uint64_t inverse_of(uint64_t m) {
    uint64_t x = m;
    for (int i = 0; i < 5; i++) {
        x *= 2u - m * x;
    }
    return x;
}

/* A code that is not a table code of t (it misses), from r: in a range, outside, or on a table code's slot. */
static int64_t miss_code(const errcore_table *t, const errcore_table *front_of, uint64_t r) {
    for (uint64_t tries = 0;; tries++) {
        int64_t code;
        switch ((r + tries) % 4) {
        case 0:
            code = t->range_count ? t->ranges[(r >> 8) % t->range_count].first + (int64_t)((r >> 16) % 9000) : -7;
            break;
        case 1: code = (int64_t)(r >> 3) + (int64_t)tries; break;
        case 2: code = INT64_MIN + (int64_t)(r % 1000); break;
        default:
            if (front_of->front.slots && t->entry_count) {
                /* Same product bits 32-63 as a table code, other low bits: same bucket and slot. */
                uint64_t product = (uint64_t)t->codes[(r >> 8) % t->entry_count] * front_of->front.multiplier;
                uint64_t other = (product & ~(uint64_t)0xFFFFFFFFu) | (uint32_t)(product + 1u + tries);
                code = (int64_t)(other * inverse_of(front_of->front.multiplier));
            } else {
                code = 99999999 + (int64_t)tries;
            }
            break;
        }
        if (!errcore_class_is_exact(errcore_classify(t, code)) && code != t->success_code) {
            return code;
        }
    }
}

/* One batch on `path`: out[0 ... len-1] must equal the single calls, the guards around them stay. */
static bool batch_right(const errcore_table *t, errcore_batch_path path, const int64_t *codes, size_t len,
                        errcore_class *buf, size_t at, size_t buf_len) {
    for (size_t i = 0; i < buf_len; i++) {
        buf[i] = GUARD;
    }
    if (!CHECK_BATCH_USING(t, len ? codes : NULL, len ? buf + at : NULL, len, path)) {
        return false;
    }
    for (size_t i = 0; i < buf_len; i++) {
        bool inside = i >= at && i < at + len;
        if (inside ? buf[i] != errcore_classify(t, codes[i - at]) : buf[i] != GUARD) {
            return false;
        }
    }
    return true;
}

/* A front moved to displacement x: slot p goes to p ^ x (a direct front keeps one bucket). */
static bool displaced(const errcore_table *t, uint32_t x, errcore_table *moved, errcore_front_slot *slots,
                      uint32_t *bucket) {
    size_t count = (size_t)t->front.slot_mask + 1u;
    x &= t->front.slot_mask;
    for (size_t p = 0; p < count; p++) {
        slots[p ^ x] = t->front.slots[p];
    }
    *bucket = t->front.buckets[0] ^ x;
    *moved = *t;
    moved->front.slots = slots;
    moved->front.buckets = bucket;
    return errcore_validate(moved, NULL) == ERRCORE_OK;
}

void test_batch_paths(void) {
    static big_catalog big;
    static alignas(8) unsigned char storage[1u << 20];
    static errcore_front_slot moved_slots[1u << 13];
    static uint32_t moved_bucket;
    static alignas(64) int64_t codes_buf[MAX_LEN + 8];
    static alignas(64) errcore_class out_buf[MAX_LEN + 24];

    /* The path API. */
    CHECK(strcmp(errcore_batch_path_name(ERRCORE_BATCH_PATH_AUTO), "auto") == 0);
    CHECK(strcmp(errcore_batch_path_name(ERRCORE_BATCH_PATH_SCALAR), "scalar") == 0);
    CHECK(strcmp(errcore_batch_path_name(ERRCORE_BATCH_PATH_AVX2), "avx2") == 0);
    CHECK(strcmp(errcore_batch_path_name(ERRCORE_BATCH_PATH_AVX512), "avx512") == 0);
    CHECK(strcmp(errcore_batch_path_name(ERRCORE_BATCH_PATH_NEON), "neon") == 0);
    CHECK(strcmp(errcore_batch_path_name((errcore_batch_path)ERRCORE_BATCH_PATH_COUNT), "unknown") == 0);
    CHECK(CHECK_PATH_AVAILABLE(ERRCORE_BATCH_PATH_AUTO));
    CHECK(CHECK_PATH_AVAILABLE(ERRCORE_BATCH_PATH_SCALAR));
    CHECK(!CHECK_PATH_AVAILABLE((errcore_batch_path)ERRCORE_BATCH_PATH_COUNT));
    errcore_batch_path chosen = errcore_batch_path_auto();
    CHECK(chosen != ERRCORE_BATCH_PATH_AUTO && CHECK_PATH_AVAILABLE(chosen));
    /* x86-64 and ARM64 paths exclude each other: some path is always missing, and refuses to run. */
    size_t missing = 0;
    const errcore_table *dt = errcore_default_table();
    int64_t one = dt->codes[0];
    for (int p = 0; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        if (!CHECK_PATH_AVAILABLE((errcore_batch_path)p)) {
            errcore_class untouched = GUARD;
            CHECK(!CHECK_BATCH_USING(dt, &one, &untouched, 1, (errcore_batch_path)p));
            CHECK(untouched == GUARD);
            missing++;
        }
    }
    CHECK(missing >= 1);
    errcore_class untouched = GUARD;
    CHECK(!CHECK_BATCH_USING(dt, &one, &untouched, 1, (errcore_batch_path)ERRCORE_BATCH_PATH_COUNT));
    CHECK(untouched == GUARD);

    /* The tables: built-in (direct), built (buckets), displaced; each also without gaps, front, index. */
    make_big(&big);
    errcore_table bt;
    errcore_diag d;
    size_t need = 0;
    CHECK(errcore_build_size(&big.def, &need, &d) == ERRCORE_OK && need <= sizeof storage);
    CHECK(errcore_build(&big.def, storage, sizeof storage, &bt, &d) == ERRCORE_OK);
    CHECKF(bt.front.slots && bt.front.bucket_shift < 32 && bt.front.gaps, "the 2,000-entry table has no front "
                                                                          "with buckets and gaps");
    errcore_table moved;
    CHECK(dt->front.slots && dt->front.bucket_shift == 32 && (size_t)dt->front.slot_mask + 1u <= 1u << 13);
    CHECK(displaced(dt, 0x5Bu, &moved, moved_slots, &moved_bucket) && moved.front.buckets[0] != 0);
    const errcore_table *bases[3] = {dt, &bt, &moved};
    static const char *const base_names[3] = {"built-in (direct)", "2,000 entries (buckets)", "displaced"};
    static const char *const way_names[4] = {"", " without gaps", " without front", " without index"};

    unsigned long ran[ERRCORE_BATCH_PATH_COUNT] = {0};
    unsigned long batches = 0;
    uint64_t s = 0xBA7C4;
    for (int b = 0; b < 3; b++) {
        errcore_table ways[4] = {*bases[b], *bases[b], *bases[b], *bases[b]};
        ways[1].front.gaps = NULL;
        memset(&ways[2].front, 0, sizeof ways[2].front);
        ways[3].front = ways[2].front;
        ways[3].index_count = 0;
        ways[3].index_keys = NULL;
        ways[3].index_slots = NULL;
        /* Probe codes: half table codes (hits), half misses of every kind. */
        static int64_t probes[MAX_LEN];
        for (size_t i = 0; i < MAX_LEN; i++) {
            uint64_t r = check_rand(&s);
            probes[i] = r % 2 ? bases[b]->codes[(r >> 1) % bases[b]->entry_count] : miss_code(bases[b], bases[b], r);
        }
        /* Every 8-bit pattern of hits (0) and misses (1) in eight consecutive codes, from position 0. */
        static int64_t patterns[256 * 8];
        for (size_t g = 0; g < 256; g++) {
            for (size_t l = 0; l < 8; l++) {
                uint64_t r = check_rand(&s);
                patterns[g * 8 + l] =
                    (g >> l) & 1u ? miss_code(bases[b], bases[b], r) : bases[b]->codes[r % bases[b]->entry_count];
            }
        }
        for (int w = 0; w < 4; w++) {
            CHECK(errcore_validate(&ways[w], NULL) == ERRCORE_OK);
            for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
                errcore_batch_path path = (errcore_batch_path)p;
                if (!CHECK_PATH_AVAILABLE(path)) {
                    continue;
                }
                bool ok = true;
                size_t bad_len = 0, bad_offset = 0;
                static const size_t long_lens[] = {127, 128, 129, 255, 256, 257, 263, 511, 512, 513, 1000, MAX_LEN};
                size_t n_lens = 81 + sizeof long_lens / sizeof long_lens[0];
                for (size_t li = 0; li < n_lens; li++) {
                    size_t len = li <= 80 ? li : long_lens[li - 81];
                    /* Codes at offset oc of a 64-byte line, results at another offset (0 ... 7 each). */
                    for (size_t oc = 0; oc < 8; oc++) {
                        size_t oo = (oc * 3 + 1) % 8;
                        memcpy(codes_buf + oc, probes, len * sizeof probes[0]);
                        bool right = batch_right(&ways[w], path, codes_buf + oc, len, out_buf, oo + 8, MAX_LEN + 24);
                        if (!right && ok) {
                            bad_len = len;
                            bad_offset = oc;
                        }
                        ok = ok && right;
                        batches++;
                    }
                }
                CHECKF(ok, "%s: %s%s: first wrong batch: %zu codes at offset %zu", errcore_batch_path_name(path),
                       base_names[b], way_names[w], bad_len, bad_offset);
                static errcore_class pattern_out[256 * 8];
                bool patterns_ok = CHECK_BATCH_USING(&ways[w], patterns, pattern_out, 256 * 8, path);
                for (size_t i = 0; i < 256 * 8 && patterns_ok; i++) {
                    patterns_ok = pattern_out[i] == errcore_classify(&ways[w], patterns[i]);
                }
                CHECKF(patterns_ok, "%s: %s%s: a pattern of hits and misses", errcore_batch_path_name(path),
                       base_names[b], way_names[w]);
                ran[p]++;
            }
        }
    }
    /* Every available path ran on all twelve tables; print which, and which this CPU lacks. */
    printf("batch paths: auto is %s; ran", errcore_batch_path_name(chosen));
    for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        if (ran[p]) {
            printf(" %s", errcore_batch_path_name((errcore_batch_path)p));
        }
        CHECK(ran[p] == (CHECK_PATH_AVAILABLE((errcore_batch_path)p) ? 12u : 0u));
    }
    printf(" (%lu batches); not on this CPU or build:", batches);
    for (int p = 1; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        if (!ran[p]) {
            printf(" %s", errcore_batch_path_name((errcore_batch_path)p));
        }
    }
    printf("\n");
}

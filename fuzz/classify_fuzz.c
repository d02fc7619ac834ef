/*
 * classify_fuzz.c — libFuzzer target: errcore_classify(),
 * errcore_classify_batch() and errcore_tally_codes() differentially against
 * a linear scan, the exact-match front against a brute-force check, and
 * the snprintf-style truncation contract of errcore_describe(),
 * errcore_diag_format() and errcore_format_int64().
 *
 * A catalog is decoded from the bytes (fuzz_catalog.h) and repaired until
 * errcore_build() accepts it, by dropping whatever element each diagnostic
 * names; this also checks that the named element really is the culprit
 * (dropping it must make progress). It is then grown by synthetic entries
 * and ranges placed where they cannot conflict (the build must accept the
 * result): up to 63 entries and 15 ranges, or for one input in 64 up to
 * 511 and 288, so that deep searches are reached. The
 * synthetic codes step by a small stride or by a power of two up to 2^62:
 * codes that agree in their low bits collide in the front's hash, which
 * makes the builder try other multipliers, fall back from a direct front
 * to buckets, or build no front at all.
 *
 * Probes: codes from the bytes, table codes spread over the whole table
 * with their neighbours, every range boundary, and codes built to share a
 * table code's hash bits (same bucket, same slot: they must miss). Each is
 * classified through the front and through the front without its gap
 * table, and (when a byte of the input asks, half of the time) through the
 * index and by two searches, single and in batches (by errcore_classify_batch() and on
 * every path of it the CPU has: scalar, AVX2, AVX-512, NEON) of the lengths that matter (every
 * length up to 9 for the lane and step tails, 12 codes from each offset up
 * to 7, the whole list); all must equal the
 * reference (Tests/CErrCoreTests/c/reference.h). Then one corruption of the
 * front chosen by the bytes (a bit of a slot, a displacement, a gap, a
 * parameter; tables of up to 300 entries): errcore_validate() must accept
 * it exactly when the brute-force check does, an accepted front must still classify every probe right, and
 * a rejection must name a real problem (ref_front_diag_fault). (The older
 * paths, the corruption and the text checks run when a byte asks: half of
 * the inputs each.)
 *
 * Batch results and texts are written at the end of their arrays, so
 * AddressSanitizer catches a write past any length.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CErrCore.h"
#include "fuzz_bytes.h"
#include "fuzz_catalog.h"
#include "fuzz_check.h"
#include "reference.h"

#define MAX_PROBES 144

static void remove_entry(decoded_def *d, size_t at) {
    size_t tail = d->def.entry_count - at - 1;
    memmove(&d->entries[at], &d->entries[at + 1], tail * sizeof d->entries[0]);
    memmove(&d->codes[at], &d->codes[at + 1], tail * sizeof d->codes[0]);
    memmove(&d->entry_module[at], &d->entry_module[at + 1], tail * sizeof d->entry_module[0]);
    d->def.entry_count--;
}

static void remove_range(decoded_def *d, size_t at) {
    size_t tail = d->def.range_count - at - 1;
    memmove(&d->ranges[at], &d->ranges[at + 1], tail * sizeof d->ranges[0]);
    d->def.range_count--;
}

/*
 * Builds the definition, dropping the element each rejection names until it
 * is accepted. Returns the allocation holding the storage (caller frees)
 * with *t set. One allocation serves every attempt: each build gets its
 * last `size` bytes (sizes are multiples of 8), so AddressSanitizer still
 * sees a write past the storage.
 */
static void *build_repaired(decoded_def *d, errcore_table *t) {
    size_t budget = d->def.entry_count + d->def.range_count + d->def.module_count + 2;
    unsigned char *block = NULL;
    size_t capacity = 0;
    for (;;) {
        errcore_diag diag;
        size_t size = 0;
        errcore_status s = errcore_build_size(&d->def, &size, &diag);
        if (s == ERRCORE_OK) {
            if (size > capacity) {
                free(block);
                block = malloc(size);
                capacity = size;
                FZ_CHECK(block != NULL, "out of memory");
            }
            s = errcore_build(&d->def, block + (capacity - size), size, t, &diag);
            if (s == ERRCORE_OK) {
                return block;
            }
        }
        FZ_CHECK(budget-- > 0, "repair does not converge: status %s", errcore_status_name(s));
        size_t at = diag.index;
        switch (diag.subject) {
        case ERRCORE_SUBJECT_ENTRY:
            FZ_CHECK(at < d->def.entry_count, "entry index %zu of %zu (%s)", at, d->def.entry_count,
                     errcore_status_name(s));
            remove_entry(d, at);
            break;
        case ERRCORE_SUBJECT_RANGE:
            FZ_CHECK(at < d->def.range_count, "range index %zu of %zu (%s)", at, d->def.range_count,
                     errcore_status_name(s));
            remove_range(d, at);
            break;
        case ERRCORE_SUBJECT_MODULE: {
            /* Longer than any decoded name (fuzz_catalog.h: at most 7 bytes), so never a namesake. */
            static const char *const unique[MAX_MODULES] = {"repaired0", "repaired1", "repaired2", "repaired3",
                                                            "repaired4", "repaired5", "repaired6", "repaired7"};
            FZ_CHECK(at < d->def.module_count, "module index %zu of %zu (%s)", at, d->def.module_count,
                     errcore_status_name(s));
            const char *name = d->modules[at].name;
            bool duplicate = false;
            for (size_t k = 0; k < at && name && s == ERRCORE_E_DUPLICATE_MODULE_NAME; k++) {
                duplicate = duplicate || (d->modules[k].name && strcmp(d->modules[k].name, name) == 0);
            }
            FZ_CHECK(!name || name[0] == '\0' || duplicate, "module %zu (%s) is fine", at, errcore_status_name(s));
            d->modules[at].name = unique[at];
            break;
        }
        default: FZ_CHECK(0, "rejection with subject %d (%s)", (int)diag.subject, errcore_status_name(s));
        }
    }
}

/*
 * A larger catalog: the repaired one plus up to 511 synthetic entries and
 * 288 synthetic ranges of one extra module, placed from the bytes and kept
 * only where they cannot conflict, so errcore_build() must accept it. Deep
 * searches (up to 11 halvings) are reached this way. Arrays are heap copies;
 * free with free_grown().
 */
typedef struct grown_def {
    errcore_catalog_def def;
    errcore_entry_def *entries;
    errcore_module_def *modules;
    errcore_range *ranges;
} grown_def;

FZ_HARNESS static bool in_ranges(const errcore_range *ranges, size_t n, int64_t code) {
    for (size_t i = 0; i < n; i++) {
        if (ref_in_range(&ranges[i], code)) {
            return true;
        }
    }
    return false;
}

FZ_HARNESS static grown_def grow(fz_reader *r, const decoded_def *d) {
    const errcore_catalog_def *small = &d->def;
    /*
     * Mostly up to 63 extra entries and 15 ranges (cheap: most inputs); the
     * bytes 0xA0 ... 0xA3 (one in 64, and not what libFuzzer's runs of 0x00
     * or 0xFF make) ask for up to 511 entries and 288 ranges: with both, an
     * index of over 1,024 keys (ten halvings).
     */
    uint8_t eb = fz_u8(r), rb = fz_u8(r);
    size_t extra_entries = (eb & 0xFCu) == 0xA0u ? 127u + 128u * (size_t)(eb & 3u) : eb / 4u;
    size_t extra_ranges = (rb & 0xFCu) == 0xA0u ? 72u * (size_t)((rb & 3u) + 1u) : rb / 16u;
    int64_t entry_base = fz_code(r);
    uint8_t stride_byte = fz_u8(r);
    /* A small stride, or (top bit set) 2^0 ... 2^62: codes that agree in their low bits. */
    uint64_t entry_stride = (stride_byte & 0x80u) ? (uint64_t)1 << (stride_byte % 63u) : 1u + stride_byte;
    /* i * stride stays distinct mod 2^64 while i < 2^(64 - log2 of the stride's power of two). */
    unsigned zeros = (unsigned)__builtin_ctzll(entry_stride);
    size_t distinct = zeros >= 54 ? (size_t)1 << (64 - zeros) : SIZE_MAX;
    extra_entries = extra_entries < distinct ? extra_entries : distinct;
    int64_t range_base = fz_code(r), range_width = 1 + fz_u8(r);
    grown_def g;
    g.def = *small;
    g.modules = malloc((small->module_count + 1) * sizeof *g.modules);
    g.ranges = malloc((small->range_count + extra_ranges + 1) * sizeof *g.ranges);
    g.entries = malloc((small->entry_count + extra_entries + 1) * sizeof *g.entries);
    FZ_CHECK(g.modules && g.ranges && g.entries, "out of memory");
    memcpy(g.modules, small->modules, small->module_count * sizeof *g.modules);
    memcpy(g.ranges, small->ranges, small->range_count * sizeof *g.ranges);
    memcpy(g.entries, small->entries, small->entry_count * sizeof *g.entries);
    uint16_t syn = (uint16_t)(small->module_count + 1);
    g.modules[syn - 1].name = "synthetic"; /* longer than any decoded or repaired name */
    g.modules[syn - 1].title_en = NULL;
    g.modules[syn - 1].title_zh = "合成";
    size_t nr = small->range_count, n = small->entry_count;
    for (size_t i = 0; i < extra_ranges; i++) {
        /* Range i covers [base + 2iw, base + 2iw + w - 1]: disjoint from each other. */
        int64_t first, last;
        if (__builtin_mul_overflow((int64_t)(2 * i), range_width, &first) ||
            __builtin_add_overflow(first, range_base, &first) ||
            __builtin_add_overflow(first, range_width - 1, &last)) {
            break;
        }
        errcore_range cand = {first, last, syn};
        bool clash = ref_in_range(&cand, small->success_code);
        for (size_t k = 0; k < small->range_count && !clash; k++) {
            clash = ref_overlap(&cand, &small->ranges[k]);
        }
        for (size_t k = 0; k < small->entry_count && !clash; k++) {
            clash = ref_in_range(&cand, small->entries[k].code);
        }
        if (!clash) {
            g.ranges[nr++] = cand;
        }
    }
    for (size_t i = 0; i < extra_entries; i++) {
        int64_t code = (int64_t)((uint64_t)entry_base + (uint64_t)i * entry_stride); /* wraps */
        bool clash = code == small->success_code || in_ranges(small->ranges, small->range_count, code);
        for (size_t k = 0; k < small->entry_count && !clash; k++) {
            clash = small->entries[k].code == code;
        }
        if (clash) {
            continue;
        }
        bool module = in_ranges(g.ranges + small->range_count, nr - small->range_count, code);
        errcore_entry_def e = {code, module ? syn : 0, (uint8_t)i, "s", NULL, (i & 1u) ? "合" : NULL, NULL};
        g.entries[n++] = e;
    }
    g.def.modules = g.modules;
    g.def.module_count = small->module_count + 1;
    g.def.ranges = g.ranges;
    g.def.range_count = nr;
    g.def.entries = g.entries;
    g.def.entry_count = n;
    return g;
}

static void free_grown(grown_def *g) {
    free(g->entries);
    free(g->modules);
    free(g->ranges);
}

/* The inverse of an odd multiplier mod 2^64 (Newton's iteration). */
FZ_HARNESS static uint64_t inverse_of(uint64_t m) {
    uint64_t x = m;
    for (int i = 0; i < 5; i++) {
        x *= 2u - m * x;
    }
    return x;
}

/*
 * Probe codes: up to 48 from the remaining bytes; table codes spread over
 * the whole table, each with its neighbours and (with a front) a code that
 * shares its hash bits; every range boundary; the int64 extremes.
 */
FZ_HARNESS static size_t gather_probes(fz_reader *r, const errcore_table *t, int64_t *probes) {
    size_t n = 0;
    while (n < 48 && fz_left(r) > 0) {
        probes[n++] = fz_code(r);
    }
    size_t picks = t->entry_count < 16 ? t->entry_count : 16;
    uint64_t inverse = t->front.slots ? inverse_of(t->front.multiplier) : 0;
    for (size_t p = 0; p < picks && n + 4 <= MAX_PROBES; p++) {
        int64_t c = t->codes[p * t->entry_count / picks];
        probes[n++] = c;
        if (c != INT64_MIN)
            probes[n++] = c - 1;
        if (c != INT64_MAX)
            probes[n++] = c + 1;
        if (t->front.slots) {
            /* The same top 32 bits of c * multiplier, other low bits: same bucket and slot. */
            uint64_t product = (uint64_t)c * t->front.multiplier;
            uint64_t other = (product & ~(uint64_t)0xFFFFFFFFu) | (uint32_t)(product + 0x9E3779B9u);
            probes[n++] = (int64_t)(other * inverse);
        }
    }
    for (size_t i = 0; i < t->range_count && n + 4 <= MAX_PROBES; i++) {
        const errcore_range *g = &t->ranges[i];
        probes[n++] = g->first;
        probes[n++] = g->last;
        if (g->first != INT64_MIN)
            probes[n++] = g->first - 1;
        if (g->last != INT64_MAX)
            probes[n++] = g->last + 1;
    }
    for (size_t i = 0; i < 4 && n < MAX_PROBES; i++) {
        static const int64_t extra[4] = {INT64_MIN, INT64_MAX, 0, -1};
        probes[n++] = i == 0 ? t->success_code : extra[i];
    }
    return n;
}

/*
 * A batch of probes[start ... start+len-1] into out, which ends where its array does: ASan sees a write past it.
 * Run by errcore_classify_batch() and then on every path the CPU has (errcore_classify_batch_using()).
 */
FZ_HARNESS static void check_one_batch(const errcore_table *t, const int64_t *probes, const errcore_class *want,
                                       errcore_class *out, size_t start, size_t len, const char *path) {
    for (int p = 0; p < ERRCORE_BATCH_PATH_COUNT; p++) {
        errcore_batch_path bp = (errcore_batch_path)p;
        if (p == ERRCORE_BATCH_PATH_AUTO) {
            errcore_classify_batch(t, len ? probes + start : NULL, len ? out : NULL, len);
        } else if (!errcore_classify_batch_using(t, len ? probes + start : NULL, len ? out : NULL, len, bp)) {
            FZ_CHECK(!errcore_batch_path_available(bp), "%s: path %s refused", path, errcore_batch_path_name(bp));
            continue;
        }
        for (size_t k = 0; k < len; k++) {
            FZ_CHECK(out[k] == want[start + k],
                     "%s batch (path %s) of %zu from %zu: code %lld got %016llx want %016llx", path,
                     errcore_batch_path_name(bp), len, start, (long long)probes[start + k], (unsigned long long)out[k],
                     (unsigned long long)want[start + k]);
        }
    }
}

/*
 * The batch lengths that take different paths: every length up to 9 (the
 * eight-code steps of the searches and the vector paths, the scalar
 * path's four-code steps, and their tails), 12 codes from each offset
 * 1 ... 7 (every alignment of the steps, and codes and results that start
 * off a 32- or 64-byte boundary), the whole list (at most MAX_PROBES
 * codes: within one 256-code block of the front's batch; blocks are the
 * C tests' concern). Results go to the end of a stack array of MAX_PROBES.
 */
FZ_HARNESS static void check_batch(const errcore_table *t, const int64_t *probes, const errcore_class *want, size_t n,
                                   const char *path) {
    errcore_class buf[MAX_PROBES];
    for (size_t len = 0; len <= n && len <= 9; len++) {
        check_one_batch(t, probes, want, buf + MAX_PROBES - len, 0, len, path);
    }
    for (size_t start = 1; start < 8 && start < n; start++) {
        size_t len = n - start < 12 ? n - start : 12;
        check_one_batch(t, probes, want, buf + MAX_PROBES - len, start, len, path);
    }
    check_one_batch(t, probes, want, buf + MAX_PROBES - n, 0, n, path);
}

/*
 * One corruption of t's front, chosen by the bytes: validate must agree
 * with the brute-force check; what it accepts must still classify every
 * probe right; what it rejects, it must reject for a real problem.
 */
FZ_HARNESS static void check_corrupted_front(uint8_t what, uint16_t where, uint8_t bit, const errcore_table *t,
                                             const ref_catalog *ref, const int64_t *probes, const errcore_class *want,
                                             size_t n) {
    const errcore_front *f = &t->front;
    size_t slots = (size_t)f->slot_mask + 1u, buckets = (size_t)1 << (32 - f->bucket_shift);
    size_t gaps = f->gaps ? f->gap_count + 1u : 0;
    errcore_front_slot *slot_copy = malloc(slots * sizeof *slot_copy);
    uint32_t *bucket_copy = malloc(buckets * sizeof *bucket_copy);
    errcore_front_gap *gap_copy = malloc((gaps ? gaps : 1) * sizeof *gap_copy);
    FZ_CHECK(slot_copy && bucket_copy && gap_copy, "out of memory");
    memcpy(slot_copy, f->slots, slots * sizeof *slot_copy);
    memcpy(bucket_copy, f->buckets, buckets * sizeof *bucket_copy);
    if (gaps) {
        memcpy(gap_copy, f->gaps, gaps * sizeof *gap_copy);
    }
    errcore_table c = *t;
    c.front.slots = slot_copy;
    c.front.buckets = bucket_copy;
    c.front.gaps = gaps ? gap_copy : NULL;
    unsigned char *bytes = NULL;
    size_t size = 0;
    switch (what % 8) {
    case 0:
    case 1: bytes = (unsigned char *)slot_copy, size = slots * sizeof *slot_copy; break;
    case 2: bytes = (unsigned char *)bucket_copy, size = buckets * sizeof *bucket_copy; break;
    case 3:
    case 4: bytes = gaps ? (unsigned char *)gap_copy : NULL, size = gaps * sizeof *gap_copy; break;
    case 5: bytes = (unsigned char *)&c.front.multiplier, size = sizeof c.front.multiplier; break;
    case 6: /* a parameter: the slot mask, a shift, the gap base or count */
        switch (where % 5) {
        case 0: c.front.slot_mask ^= 1u << (bit % 32); break;
        case 1: c.front.bucket_shift = (uint8_t)(c.front.bucket_shift ^ (1u << (bit % 8))); break;
        case 2: c.front.gap_shift = (uint8_t)(c.front.gap_shift ^ (1u << (bit % 8))); break;
        case 3: c.front.gap_base = (int64_t)((uint64_t)c.front.gap_base ^ ((uint64_t)1 << (bit % 64))); break;
        default: c.front.gap_count ^= (size_t)1 << (bit % 8); break;
        }
        break;
    default: c.front.gaps = NULL; break; /* no gap table: misses search the ranges */
    }
    if (bytes && size) {
        bytes[where % size] ^= (unsigned char)(1u << (bit % 8));
    }
    /* A slot count the copy cannot back must be rejected before any slot is read. */
    bool grown = (uint64_t)c.front.slot_mask + 1u > slots;
    bool more_buckets = c.front.bucket_shift < f->bucket_shift;
    bool more_gaps = c.front.gaps && c.front.gap_count + 1u > gaps;
    if (grown || more_buckets || more_gaps) {
        free(slot_copy), free(bucket_copy), free(gap_copy);
        return; /* would read past the copies: validate trusts the counts it is given */
    }
    errcore_diag diag;
    errcore_status s = errcore_validate(&c, &diag);
    bool ok = ref_front_ok(&c, ref);
    FZ_CHECK((s == ERRCORE_OK) == ok, "corrupted front (%u, %u, %u): validate %s, reference %s", what, where, bit,
             errcore_status_name(s), ok ? "accepts" : "rejects");
    if (s == ERRCORE_OK) {
        errcore_class out[MAX_PROBES];
        for (size_t k = 0; k < n; k++) {
            FZ_CHECK(errcore_classify(&c, probes[k]) == want[k], "accepted corrupted front: code %lld",
                     (long long)probes[k]);
        }
        check_one_batch(&c, probes, want, out + MAX_PROBES - n, 0, n, "accepted corrupted front");
    } else {
        const char *why = ref_front_diag_fault(&diag, &c, ref);
        char line[300];
        errcore_diag_format(&diag, line, sizeof line);
        FZ_CHECK(why == NULL, "corrupted front (%u, %u, %u): %s: %s", what, where, bit, line, why);
    }
    free(slot_copy);
    free(bucket_copy);
    free(gap_copy);
}

/* want[k] from the reference, and every way's errcore_classify() of each probe equal to it. */
FZ_HARNESS static void check_singles(const errcore_table *const *ways, const char *const *names, int nways,
                                     const ref_catalog *ref, const int64_t *probes, errcore_class *want, size_t n) {
    for (size_t k = 0; k < n; k++) {
        want[k] = ref_class(ref, probes[k]);
        for (int w = 0; w < nways; w++) {
            errcore_class got = errcore_classify(ways[w], probes[k]);
            FZ_CHECK(got == want[k], "%s classify %lld: got %016llx want %016llx", names[w], (long long)probes[k],
                     (unsigned long long)got, (unsigned long long)want[k]);
        }
    }
}

FZ_HARNESS static void check_tally(const errcore_table *t, const int64_t *probes, const errcore_class *want, size_t n) {
    errcore_tally tally;
    memset(&tally, 0, sizeof tally);
    uint64_t *modules = calloc(t->module_count + 1, sizeof *modules);
    uint64_t *expect_modules = calloc(t->module_count + 1, sizeof *expect_modules);
    FZ_CHECK(modules && expect_modules, "out of memory");
    errcore_tally expect;
    memset(&expect, 0, sizeof expect);
    for (size_t k = 0; k < n; k++) {
        errcore_tier tier = errcore_class_tier(want[k]);
        expect.total++;
        expect.tiers[tier]++;
        if (tier == ERRCORE_TIER_MODULE) {
            expect.unrecognised += !errcore_class_is_exact(want[k]);
            expect_modules[errcore_class_module(want[k])]++;
        }
    }
    /* Two chunks, to check that counts add up. */
    size_t half = n / 2;
    FZ_CHECK(errcore_tally_codes(t, probes, half, &tally, modules) == ERRCORE_OK &&
                 errcore_tally_codes(t, probes + half, n - half, &tally, modules) == ERRCORE_OK,
             "tally status");
    FZ_CHECK(memcmp(&tally, &expect, sizeof tally) == 0, "tally differs");
    FZ_CHECK(memcmp(modules, expect_modules, (t->module_count + 1) * sizeof *modules) == 0, "module tally differs");
    FZ_CHECK(errcore_tally_codes(t, NULL, 1, &tally, NULL) == ERRCORE_E_NULL_ARGUMENT &&
                 errcore_tally_codes(NULL, probes, 1, &tally, NULL) == ERRCORE_E_NULL_ARGUMENT &&
                 errcore_tally_codes(t, probes, 1, NULL, NULL) == ERRCORE_E_NULL_ARGUMENT,
             "tally NULL arguments");
    free(modules);
    free(expect_modules);
}

/*
 * The snprintf contract of a writer: for every size from 0 to len + 1 the
 * return value is len, the buffer holds the first min(len, size - 1) bytes
 * of the full text and a NUL, and nothing is written at or past `size`.
 * `write(ctx, buf, size)` produces the text.
 */
typedef size_t (*text_writer)(const void *ctx, char *buf, size_t size);

FZ_HARNESS static void check_truncation(text_writer write, const void *ctx, const char *expected, bool every_size) {
    size_t len = write(ctx, NULL, 0);
    char stack[512];
    bool on_stack = 2 * (len + 1) <= sizeof stack;
    char *full = on_stack ? stack + sizeof stack - 2 * (len + 1) : malloc(2 * (len + 1));
    FZ_CHECK(full != NULL, "out of memory");
    FZ_CHECK(write(ctx, full, len + 1) == len && strlen(full) == len, "full text length %zu", len);
    if (expected) {
        FZ_CHECK(strcmp(full, expected) == 0, "text \"%s\", expected \"%s\"", full, expected);
    }
    char canary = 'Z';
    FZ_CHECK(write(ctx, &canary, 0) == len && canary == 'Z', "size 0 wrote a byte");
    char *end = full + 2 * (len + 1); /* each buffer ends here: ASan catches a write past it */
    for (size_t size = 1; size <= len + 1; size++) {
        if (!every_size && size > 8 && size + 2 < len && size % 7 != 0) {
            continue; /* the short sizes, every seventh and the last few: the others cut the same way */
        }
        char *buf = end - size;
        memset(buf, 'Z', size);
        FZ_CHECK(write(ctx, buf, size) == len, "size %zu: length differs", size);
        size_t kept = len < size - 1 ? len : size - 1;
        FZ_CHECK(memcmp(buf, full, kept) == 0 && buf[kept] == '\0', "size %zu: \"%.*s\"", size, (int)kept, buf);
    }
    if (!on_stack) {
        free(full);
    }
}

typedef struct describe_ctx {
    const errcore_table *table;
    int64_t code;
    errcore_lang lang;
} describe_ctx;

static size_t write_describe(const void *ctx, char *buf, size_t size) {
    const describe_ctx *c = ctx;
    return errcore_describe(c->table, c->code, c->lang, buf, size);
}

static size_t write_diag(const void *ctx, char *buf, size_t size) {
    return errcore_diag_format(ctx, buf, size);
}

static size_t write_int(const void *ctx, char *buf, size_t size) {
    return errcore_format_int64(*(const int64_t *)ctx, buf, size);
}

/* What errcore_describe() must say, from the definition (not from the table's pool). */
FZ_HARNESS static void expected_description(const errcore_catalog_def *def, int64_t code, errcore_class c,
                                            errcore_lang lang, char *out, size_t cap) {
    bool zh = lang == ERRCORE_LANG_ZH_HANS;
    if (errcore_class_is_exact(c)) {
        for (size_t i = 0; i < def->entry_count; i++) {
            const errcore_entry_def *e = &def->entries[i];
            if (e->code == code) {
                const char *en = e->message_en ? e->message_en : "";
                snprintf(out, cap, "%s", zh && e->message_zh ? e->message_zh : en);
                return;
            }
        }
        FZ_CHECK(0, "exact class for code %lld with no entry", (long long)code);
    }
    switch (errcore_class_tier(c)) {
    case ERRCORE_TIER_SUCCESS: snprintf(out, cap, "%s", zh ? "成功" : "OK"); return;
    case ERRCORE_TIER_MODULE: {
        const errcore_module_def *m = &def->modules[errcore_class_module(c) - 1];
        const char *en = m->title_en ? m->title_en : m->name;
        const char *title = zh && m->title_zh ? m->title_zh : en;
        snprintf(out, cap, zh ? "未识别的%s错误(错误码 %lld)" : "Unrecognised %s error (code %lld)", title,
                 (long long)code);
        return;
    }
    default: snprintf(out, cap, zh ? "未知的响应码 %lld" : "Unknown response code %lld", (long long)code); return;
    }
}

static void check_text(fz_reader *r, const errcore_catalog_def *def, const errcore_table *t, const int64_t *probes,
                       const errcore_class *want, size_t n) {
    char expected[128];
    for (size_t k = 0; k < def->module_count; k++) {
        /* Names are unique in a built table: each finds its own module. */
        FZ_CHECK(errcore_module_find(t, def->modules[k].name) == k + 1, "module_find(%s)", def->modules[k].name);
    }
    FZ_CHECK(errcore_module_find(t, "") == 0 && errcore_module_find(t, NULL) == 0 &&
                 errcore_module_find(NULL, "m") == 0,
             "module_find of nothing");
    for (unsigned bit = 0; bit < 16; bit++) {
        const char *flag = errcore_flag_name(1u << bit);
        FZ_CHECK(bit < 8 ? flag != NULL : flag == NULL, "flag_name(1 << %u)", bit);
    }
    FZ_CHECK(errcore_flag_name(0) == NULL && errcore_flag_name(3) == NULL, "flag_name of several bits");
    for (int tier = 0; tier < 6; tier++) {
        FZ_CHECK(strcmp(errcore_tier_name((errcore_tier)tier),
                        tier < ERRCORE_TIER_COUNT ? (const char *[]){"unknown", "success", "base", "module"}[tier]
                                                  : "invalid") == 0,
                 "tier_name(%d)", tier);
    }
    FZ_CHECK(errcore_entry_name(t, (uint32_t)t->entry_count) == NULL &&
                 errcore_entry_message(t, (uint32_t)t->entry_count, ERRCORE_LANG_EN) == NULL &&
                 errcore_module_name(t, 0) == NULL && errcore_module_name(t, (uint16_t)(t->module_count + 1)) == NULL &&
                 errcore_module_title(t, 0, ERRCORE_LANG_ZH_HANS) == NULL && errcore_entry_name(NULL, 0) == NULL,
             "text lookups out of range");
    for (size_t k = 0; k < n && k < 3; k++) {
        for (int lang = 0; lang < 2; lang++) {
            describe_ctx ctx = {t, probes[k], (errcore_lang)lang};
            expected_description(def, probes[k], want[k], (errcore_lang)lang, expected, sizeof expected);
            check_truncation(write_describe, &ctx, expected, false);
        }
        snprintf(expected, sizeof expected, "%lld", (long long)probes[k]);
        check_truncation(write_int, &probes[k], expected, k == 0);
    }
    /* A NULL table describes every code as unknown. */
    describe_ctx none = {NULL, n ? probes[0] : 0, ERRCORE_LANG_EN};
    snprintf(expected, sizeof expected, "Unknown response code %lld", (long long)none.code);
    check_truncation(write_describe, &none, expected, false);
    /* Diagnostics with arbitrary (also out-of-range) status and subject values. */
    errcore_diag diag;
    diag.status = (errcore_status)(fz_u8(r) % (ERRCORE_STATUS_COUNT + 2));
    diag.subject = (errcore_subject)(fz_u8(r) % 8);
    diag.index = (fz_u8(r) & 1u) ? ERRCORE_NO_INDEX : (size_t)fz_u16(r);
    diag.other_index = (fz_u8(r) & 1u) ? ERRCORE_NO_INDEX : (size_t)fz_u16(r);
    diag.code = fz_code(r);
    diag.other_code = fz_code(r);
    diag.module = fz_u16(r);
    check_truncation(write_diag, &diag, NULL, false);
    check_truncation(write_diag, NULL, "no diagnostic", true);
    FZ_CHECK(errcore_status_string(diag.status) && errcore_status_name(diag.status), "status text");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_reader r = fz_make(data, size);
    decoded_def *d = malloc(sizeof *d);
    FZ_CHECK(d != NULL, "out of memory");
    decode_def(&r, d);
    errcore_table small;
    free(build_repaired(d, &small));
    grown_def g = grow(&r, d);
    errcore_diag diag;
    size_t bytes = 0;
    FZ_CHECK(errcore_build_size(&g.def, &bytes, &diag) == ERRCORE_OK, "grown size: %s",
             errcore_status_name(diag.status));
    void *storage = malloc(bytes);
    FZ_CHECK(storage != NULL, "out of memory");
    errcore_table t;
    errcore_status s = errcore_build(&g.def, storage, bytes, &t, &diag);
    if (s != ERRCORE_OK) {
        char line[200];
        errcore_diag_format(&diag, line, sizeof line);
        FZ_CHECK(0, "grown catalog rejected: %s", line);
    }
    FZ_CHECK(t.index_count > 0, "errcore_build made no index");
    if (errcore_validate(&t, NULL) != ERRCORE_OK) {
        errcore_validate(&t, &diag);
        char why[300];
        errcore_diag_format(&diag, why, sizeof why);
        FZ_CHECK(0, "built table invalid: %s", why);
    }
    /* The four ways of classifying the table (the variants only drop parts of a valid table). */
    errcore_table nogaps = t; /* front; misses search the ranges */
    nogaps.front.gaps = NULL;
    errcore_table indexed = t; /* no front: the index */
    memset(&indexed.front, 0, sizeof indexed.front);
    errcore_table plain = indexed; /* no front, no index: two searches */
    plain.index_keys = NULL;
    plain.index_slots = NULL;
    plain.index_count = 0;
    const errcore_table *ways[4] = {&t, &nogaps, &indexed, &plain};
    static const char *const way_names[4] = {"front", "front without gaps", "index", "searches"};
    uint8_t what = fz_u8(&r), bit = fz_u8(&r), plan = fz_u8(&r);
    uint16_t where = fz_u16(&r);
    /*
     * The front's two ways run on every input; the index and the searches
     * (the paths of tables without a front), the text checks and the
     * corrupted front on the inputs whose plan byte asks for them (half of
     * them each), so each input costs less.
     */
    int nways = (plan & 1u) ? 4 : 2;
    int64_t probes[MAX_PROBES];
    errcore_class want[MAX_PROBES];
    size_t n = gather_probes(&r, &t, probes);
    ref_flat flat;
    FZ_CHECK(ref_flat_of_table(&flat, &t), "out of memory");
    if (t.front.slots) {
        FZ_CHECK(ref_front_ok(&t, &flat.c), "the reference rejects the built front");
    }
    check_singles(ways, way_names, nways, &flat.c, probes, want, n);
    for (int w = 0; w < nways; w++) {
        check_batch(ways[w], probes, want, n, way_names[w]);
    }
    /*
     * Fronts with buckets start at 41 table codes: larger tables add nothing
     * but time here; and as for the older paths, half of the inputs.
     */
    if (t.front.slots && t.entry_count <= 300 && (plan & 4u)) {
        check_corrupted_front(what, where, bit, &t, &flat.c, probes, want, n);
    }
    check_tally(&t, probes, want, n);
    if (plan & 2u) {
        check_text(&r, &g.def, &t, probes, want, n);
    }
    ref_flat_free(&flat);
    free(storage);
    free_grown(&g);
    free(d);
    return 0;
}

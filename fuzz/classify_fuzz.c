/*
 * classify_fuzz.c — libFuzzer target: errcore_classify(),
 * errcore_classify_batch() and errcore_tally_codes() differentially against
 * a linear scan, and the snprintf-style truncation contract of
 * errcore_describe(), errcore_diag_format() and errcore_format_int64().
 *
 * A catalog is decoded from the bytes (fuzz_catalog.h) and repaired until
 * errcore_build() accepts it, by dropping whatever element each diagnostic
 * names; this also checks that the named element really is the culprit
 * (dropping it must make progress). It is then grown by up to 1,020
 * synthetic entries and 255 ranges placed where they cannot conflict (the
 * build must accept the result), so deep searches are reached. The rest of
 * the bytes are probe codes,
 * plus every boundary of the table. Every probe is classified through the
 * built table (which has a classification index) and through a copy without
 * the index (the two-search path); single, batch at every length and
 * starting offset, and tally must all equal the linear-scan reference
 * (Tests/CErrCoreTests/c/reference.h).
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

#define MAX_PROBES 160
#define ALL_LENGTHS 64

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
 * is accepted. Returns the storage (caller frees) with *t set.
 */
static void *build_repaired(decoded_def *d, errcore_table *t) {
    size_t budget = d->def.entry_count + d->def.range_count + d->def.module_count + 2;
    for (;;) {
        errcore_diag diag;
        size_t size = 0;
        errcore_status s = errcore_build_size(&d->def, &size, &diag);
        void *storage = NULL;
        if (s == ERRCORE_OK) {
            storage = malloc(size);
            FZ_CHECK(storage != NULL, "out of memory");
            s = errcore_build(&d->def, storage, size, t, &diag);
            if (s == ERRCORE_OK) {
                return storage;
            }
            free(storage);
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
            static const char *const unique[MAX_MODULES] = {"repaired0", "repaired1", "repaired2",
                                                            "repaired3", "repaired4", "repaired5",
                                                            "repaired6", "repaired7"};
            FZ_CHECK(at < d->def.module_count, "module index %zu of %zu (%s)", at,
                     d->def.module_count, errcore_status_name(s));
            const char *name = d->modules[at].name;
            bool duplicate = false;
            for (size_t k = 0; k < at && name && s == ERRCORE_E_DUPLICATE_MODULE_NAME; k++) {
                duplicate = duplicate || (d->modules[k].name && strcmp(d->modules[k].name, name) == 0);
            }
            FZ_CHECK(!name || name[0] == '\0' || duplicate, "module %zu (%s) is fine", at,
                     errcore_status_name(s));
            d->modules[at].name = unique[at];
            break;
        }
        default:
            FZ_CHECK(0, "rejection with subject %d (%s)", (int)diag.subject, errcore_status_name(s));
        }
    }
}

/*
 * A larger catalog: the repaired one plus up to 1,020 synthetic entries and
 * 255 synthetic ranges of one extra module, placed from the bytes and kept
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

static bool in_ranges(const errcore_range *ranges, size_t n, int64_t code) {
    for (size_t i = 0; i < n; i++) {
        if (ref_in_range(&ranges[i], code)) {
            return true;
        }
    }
    return false;
}

static grown_def grow(fz_reader *r, const decoded_def *d) {
    const errcore_catalog_def *small = &d->def;
    size_t extra_entries = (size_t)fz_u8(r) * 4u, extra_ranges = fz_u8(r);
    int64_t entry_base = fz_code(r), entry_stride = 1 + fz_u8(r);
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
        int64_t code;
        if (__builtin_mul_overflow((int64_t)i, entry_stride, &code) ||
            __builtin_add_overflow(code, entry_base, &code)) {
            break;
        }
        bool clash = code == small->success_code || in_ranges(small->ranges, small->range_count, code);
        for (size_t k = 0; k < small->entry_count && !clash; k++) {
            clash = small->entries[k].code == code;
        }
        if (clash) {
            continue;
        }
        bool module = in_ranges(g.ranges + small->range_count, nr - small->range_count, code);
        errcore_entry_def e = {code, module ? syn : 0, (uint8_t)i, "s", NULL, (i & 1u) ? "合" : NULL};
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

/* Probe codes: the remaining bytes, then every boundary of the table. */
static size_t gather_probes(fz_reader *r, const errcore_table *t, int64_t *probes) {
    size_t n = 0;
    while (n < MAX_PROBES / 2 && fz_left(r) > 0) {
        probes[n++] = fz_code(r);
    }
    for (size_t i = 0; i < t->entry_count && n + 3 <= MAX_PROBES; i++) {
        int64_t c = t->codes[i];
        probes[n++] = c;
        if (c != INT64_MIN) probes[n++] = c - 1;
        if (c != INT64_MAX) probes[n++] = c + 1;
    }
    for (size_t i = 0; i < t->range_count && n + 4 <= MAX_PROBES; i++) {
        const errcore_range *g = &t->ranges[i];
        probes[n++] = g->first;
        probes[n++] = g->last;
        if (g->first != INT64_MIN) probes[n++] = g->first - 1;
        if (g->last != INT64_MAX) probes[n++] = g->last + 1;
    }
    for (size_t i = 0; i < 4 && n < MAX_PROBES; i++) {
        static const int64_t extra[4] = {INT64_MIN, INT64_MAX, 0, -1};
        probes[n++] = i == 0 ? t->success_code : extra[i];
    }
    return n;
}

static void check_batch(const errcore_table *t, const int64_t *probes, const errcore_class *want,
                        size_t n, const char *path) {
    size_t lengths = n < ALL_LENGTHS ? n : ALL_LENGTHS;
    for (size_t len = 0; len <= lengths; len++) {
        /* Exact-size output: ASan reports a write past `len`. */
        errcore_class *out = len ? malloc(len * sizeof *out) : NULL;
        FZ_CHECK(len == 0 || out, "out of memory");
        errcore_classify_batch(t, len ? probes : NULL, out, len);
        for (size_t k = 0; k < len; k++) {
            FZ_CHECK(out[k] == want[k], "%s batch of %zu: code %lld got %016llx want %016llx", path,
                     len, (long long)probes[k], (unsigned long long)out[k], (unsigned long long)want[k]);
        }
        free(out);
    }
    for (size_t start = 1; start < 8 && start < n; start++) {
        size_t len = n - start;
        errcore_class *out = malloc(len * sizeof *out);
        FZ_CHECK(out != NULL, "out of memory");
        errcore_classify_batch(t, probes + start, out, len);
        for (size_t k = 0; k < len; k++) {
            FZ_CHECK(out[k] == want[start + k], "%s batch from %zu: code %lld", path, start,
                     (long long)probes[start + k]);
        }
        free(out);
    }
}

static void check_tally(const errcore_table *t, const int64_t *probes, const errcore_class *want,
                        size_t n) {
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
    FZ_CHECK(memcmp(modules, expect_modules, (t->module_count + 1) * sizeof *modules) == 0,
             "module tally differs");
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

static void check_truncation(text_writer write, const void *ctx, const char *expected) {
    size_t len = write(ctx, NULL, 0);
    char *full = malloc(len + 1);
    FZ_CHECK(full != NULL, "out of memory");
    FZ_CHECK(write(ctx, full, len + 1) == len && strlen(full) == len, "full text length %zu", len);
    if (expected) {
        FZ_CHECK(strcmp(full, expected) == 0, "text \"%s\", expected \"%s\"", full, expected);
    }
    char canary = 'Z';
    FZ_CHECK(write(ctx, &canary, 0) == len && canary == 'Z', "size 0 wrote a byte");
    for (size_t size = 1; size <= len + 1; size++) {
        char *buf = malloc(size); /* exact size: ASan catches a write past it */
        FZ_CHECK(buf != NULL, "out of memory");
        memset(buf, 'Z', size);
        FZ_CHECK(write(ctx, buf, size) == len, "size %zu: length differs", size);
        size_t kept = len < size - 1 ? len : size - 1;
        FZ_CHECK(memcmp(buf, full, kept) == 0 && buf[kept] == '\0', "size %zu: \"%.*s\"", size,
                 (int)kept, buf);
        free(buf);
    }
    free(full);
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
static void expected_description(const errcore_catalog_def *def, int64_t code, errcore_class c,
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
        snprintf(out, cap, zh ? "未识别的%s错误(错误码 %lld)" : "Unrecognised %s error (code %lld)",
                 title, (long long)code);
        return;
    }
    default:
        snprintf(out, cap, zh ? "未知的响应码 %lld" : "Unknown response code %lld", (long long)code);
        return;
    }
}

static void check_text(fz_reader *r, const errcore_catalog_def *def, const errcore_table *t,
                       const int64_t *probes, const errcore_class *want, size_t n) {
    char expected[128];
    for (size_t k = 0; k < def->module_count; k++) {
        /* Names are unique in a built table: each finds its own module. */
        FZ_CHECK(errcore_module_find(t, def->modules[k].name) == k + 1, "module_find(%s)",
                 def->modules[k].name);
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
    for (size_t k = 0; k < n && k < 8; k++) {
        for (int lang = 0; lang < 2; lang++) {
            describe_ctx ctx = {t, probes[k], (errcore_lang)lang};
            expected_description(def, probes[k], want[k], (errcore_lang)lang, expected, sizeof expected);
            check_truncation(write_describe, &ctx, expected);
        }
        snprintf(expected, sizeof expected, "%lld", (long long)probes[k]);
        check_truncation(write_int, &probes[k], expected);
    }
    /* A NULL table describes every code as unknown. */
    describe_ctx none = {NULL, n ? probes[0] : 0, ERRCORE_LANG_EN};
    snprintf(expected, sizeof expected, "Unknown response code %lld", (long long)none.code);
    check_truncation(write_describe, &none, expected);
    /* Diagnostics with arbitrary (also out-of-range) status and subject values. */
    errcore_diag diag;
    diag.status = (errcore_status)(fz_u8(r) % (ERRCORE_STATUS_COUNT + 2));
    diag.subject = (errcore_subject)(fz_u8(r) % 8);
    diag.index = (fz_u8(r) & 1u) ? ERRCORE_NO_INDEX : (size_t)fz_u16(r);
    diag.other_index = (fz_u8(r) & 1u) ? ERRCORE_NO_INDEX : (size_t)fz_u16(r);
    diag.code = fz_code(r);
    diag.other_code = fz_code(r);
    diag.module = fz_u16(r);
    check_truncation(write_diag, &diag, NULL);
    check_truncation(write_diag, NULL, "no diagnostic");
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
    errcore_table plain = t; /* the same table classified by two searches */
    plain.index_keys = NULL;
    plain.index_slots = NULL;
    plain.index_count = 0;
    FZ_CHECK(errcore_validate(&t, NULL) == ERRCORE_OK && errcore_validate(&plain, NULL) == ERRCORE_OK,
             "built table invalid");
    int64_t *probes = malloc(MAX_PROBES * sizeof *probes);
    errcore_class *want = malloc(MAX_PROBES * sizeof *want);
    FZ_CHECK(probes && want, "out of memory");
    size_t n = gather_probes(&r, &t, probes);
    ref_flat flat;
    FZ_CHECK(ref_flat_of_table(&flat, &t), "out of memory");
    for (size_t k = 0; k < n; k++) {
        want[k] = ref_class(&flat.c, probes[k]);
        errcore_class got = errcore_classify(&t, probes[k]);
        FZ_CHECK(got == want[k], "indexed classify %lld: got %016llx want %016llx", (long long)probes[k],
                 (unsigned long long)got, (unsigned long long)want[k]);
        got = errcore_classify(&plain, probes[k]);
        FZ_CHECK(got == want[k], "search classify %lld: got %016llx want %016llx", (long long)probes[k],
                 (unsigned long long)got, (unsigned long long)want[k]);
    }
    check_batch(&t, probes, want, n, "indexed");
    check_batch(&plain, probes, want, n, "search");
    check_tally(&t, probes, want, n);
    check_text(&r, &g.def, &t, probes, want, n);
    ref_flat_free(&flat);
    free(probes);
    free(want);
    free(storage);
    free_grown(&g);
    free(d);
    return 0;
}

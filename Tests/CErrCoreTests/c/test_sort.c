/*
 * test_sort.c — the orderings the definition checks sort into, on
 * definitions large enough for the radix passes (and small enough for the
 * insertion sort): codes drawn from a few values (long runs of equal codes),
 * from all of int64 (INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, negatives),
 * from a narrow span, or sharing all but one middle byte; input already in
 * order or reversed; module names sharing 8-byte prefixes, exactly 8 bytes
 * long, or with bytes above 0x7F. Every problem errcore_check_catalog()
 * reports must equal the brute-force reference (reference.h), in order, and
 * a built table must hold its entries and ranges in the order of qsort by
 * (code, input index) and (first, input index).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reference.h"

#define SORT_ENTRIES    2500
#define SORT_RANGES     300
#define SORT_MODULES    300
#define SORT_NAME_BYTES 24

typedef struct sort_def {
    errcore_entry_def entries[SORT_ENTRIES];
    errcore_module_def modules[SORT_MODULES];
    errcore_range ranges[SORT_RANGES];
    char names[SORT_MODULES][SORT_NAME_BYTES];
    errcore_catalog_def def;
} sort_def;

/* How a definition's codes are drawn. */
enum { CODES_FEW, CODES_WIDE, CODES_NARROW, CODES_MIDDLE_BYTE, CODES_KINDS };

static const int64_t extremes[] = {INT64_MIN,
                                   INT64_MIN + 1,
                                   INT64_MAX,
                                   INT64_MAX - 1,
                                   INT32_MIN,
                                   INT32_MAX,
                                   -1,
                                   0,
                                   1,
                                   (int64_t)INT32_MIN - 1,
                                   (int64_t)INT32_MAX + 1};

typedef struct code_source {
    int kind;
    int64_t few[6];
    size_t few_count;
    int64_t middle_base;
} code_source;

static int64_t pick_extreme(uint64_t *s) {
    return extremes[check_rand(s) % (sizeof extremes / sizeof extremes[0])];
}

static code_source make_source(uint64_t *s) {
    code_source c;
    memset(&c, 0, sizeof c);
    c.kind = (int)(check_rand(s) % CODES_KINDS);
    c.few_count = 1 + (size_t)(check_rand(s) % 6);
    for (size_t i = 0; i < c.few_count; i++) {
        c.few[i] = check_rand(s) % 2 ? pick_extreme(s) : (int64_t)(check_rand(s) % 2001) - 1000;
    }
    c.middle_base = (int64_t)check_rand(s);
    return c;
}

static int64_t draw_code(const code_source *c, uint64_t *s) {
    if (check_rand(s) % 64 == 0) {
        return pick_extreme(s);
    }
    switch (c->kind) {
    case CODES_FEW: return c->few[check_rand(s) % c->few_count];
    case CODES_WIDE: return (int64_t)check_rand(s);
    case CODES_NARROW: return (int64_t)(check_rand(s) % 600) - 300;
    default: /* only byte 3 differs between codes: every other radix pass is skipped */
        return (int64_t)(((uint64_t)c->middle_base & ~((uint64_t)0xFF << 24)) | (check_rand(s) % 256) << 24);
    }
}

/* A module name: short, exactly 8 bytes, sharing a long prefix, high bytes, repeated, or none. */
static const char *make_name(sort_def *d, size_t i, uint64_t *s, unsigned distinct) {
    char *out = d->names[i];
    unsigned v = (unsigned)(check_rand(s) % distinct);
    switch (check_rand(s) % 8) {
    case 0: snprintf(out, SORT_NAME_BYTES, "m%u", v); break;
    case 1: snprintf(out, SORT_NAME_BYTES, "mod%05u", v % 100000); break; /* 8 bytes */
    case 2: snprintf(out, SORT_NAME_BYTES, "module_shared_%u", v); break;
    case 3: snprintf(out, SORT_NAME_BYTES, "module_s%u", v); break; /* 9+ bytes, 8 shared */
    case 4: snprintf(out, SORT_NAME_BYTES, "\xC3\xA9t\xE2\x82\xAC%u", v); break;
    case 5: snprintf(out, SORT_NAME_BYTES, "mod%04u", v % 10000); break; /* 7 bytes */
    case 6: return check_rand(s) % 4 == 0 ? NULL : "";
    default: snprintf(out, SORT_NAME_BYTES, "%c", 'a' + (int)(v % 26)); break;
    }
    return out;
}

/* Random definitions full of problems, of every size from empty to the radix passes'. */
static void make_sort_def(sort_def *d, uint64_t *s) {
    size_t sizes[3] = {32, 200, SORT_ENTRIES};
    size_t n = (size_t)(check_rand(s) % (sizes[check_rand(s) % 3] + 1));
    size_t r = (size_t)(check_rand(s) % ((check_rand(s) % 2 ? 40 : SORT_RANGES) + 1));
    size_t m = (size_t)(check_rand(s) % ((check_rand(s) % 2 ? 40 : SORT_MODULES) + 1));
    code_source codes = make_source(s), firsts = make_source(s);
    unsigned distinct = 1 + (unsigned)(check_rand(s) % (2 * SORT_MODULES));
    for (size_t i = 0; i < m; i++) {
        d->modules[i] = (errcore_module_def){make_name(d, i, s, distinct), NULL, NULL, NULL};
    }
    for (size_t i = 0; i < r; i++) {
        int64_t first = draw_code(&firsts, s);
        uint64_t width = check_rand(s) % 8 == 0 ? check_rand(s) : check_rand(s) % 50;
        int64_t last = (uint64_t)INT64_MAX - (uint64_t)first < width ? INT64_MAX : (int64_t)((uint64_t)first + width);
        if (check_rand(s) % 20 == 0) {
            last = first == INT64_MIN ? first : first - 1; /* empty unless first is INT64_MIN */
        }
        d->ranges[i] = (errcore_range){first, last, (uint16_t)(check_rand(s) % (m + 2))};
    }
    for (size_t i = 0; i < n; i++) {
        int64_t code = draw_code(&codes, s);
        if (r > 0 && check_rand(s) % 3 == 0) { /* inside a range */
            const errcore_range *g = &d->ranges[check_rand(s) % r];
            if (g->first <= g->last) {
                uint64_t span = (uint64_t)g->last - (uint64_t)g->first;
                code =
                    (int64_t)((uint64_t)g->first + (span == UINT64_MAX ? check_rand(s) : check_rand(s) % (span + 1)));
            }
        }
        uint16_t module = check_rand(s) % 3 == 0 ? 0 : (uint16_t)(check_rand(s) % (m + 2));
        d->entries[i] = (errcore_entry_def){code, module, 0, "e", NULL, NULL, NULL};
    }
    /* Input already in order, or reversed, takes the sort's other paths. */
    int order = (int)(check_rand(s) % 6);
    for (size_t i = 1; order < 2 && i < n; i++) {
        for (size_t j = i; j > 0; j--) {
            int64_t a = d->entries[j - 1].code, b = d->entries[j].code;
            if (order == 0 ? a <= b : a >= b) {
                break;
            }
            errcore_entry_def t = d->entries[j - 1];
            d->entries[j - 1] = d->entries[j];
            d->entries[j] = t;
        }
    }
    int64_t success = check_rand(s) % 2 ? draw_code(&codes, s) : 0;
    d->def = (errcore_catalog_def){success, d->entries, n, d->modules, m, d->ranges, r, NULL, 0};
}

/* Positions, sorted by (code, input index) with qsort, for the tie order of the reference. */
static const errcore_entry_def *qsort_entries;
static const errcore_range *qsort_ranges;

static int cmp_entry_index(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int64_t x = qsort_entries[a].code, y = qsort_entries[b].code;
    return x != y ? (x > y) - (x < y) : (a > b) - (a < b);
}

static int cmp_range_index(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int64_t x = qsort_ranges[a].first, y = qsort_ranges[b].first;
    return x != y ? (x > y) - (x < y) : (a > b) - (a < b);
}

/* Reports kept up to `cap`, counted beyond. */
typedef struct collected_diags {
    errcore_diag *items;
    size_t count, cap;
} collected_diags;

static int collect_into(void *context, const errcore_diag *d) {
    collected_diags *c = context;
    if (c->count < c->cap) {
        c->items[c->count] = *d;
    }
    c->count++;
    return 0;
}

/* Problem reports of check-all against the reference, on many random definitions. */
static void test_reports(uint64_t *s, unsigned rounds) {
    static sort_def d;
    static errcore_diag want[8192], got[8192];
    unsigned long mismatches = 0, reports = 0, radix_sized = 0;
    for (unsigned round = 0; round < rounds; round++) {
        make_sort_def(&d, s);
        size_t count = ref_def_problems(&d.def, want, sizeof want / sizeof want[0]);
        size_t size = 0;
        CHECK(errcore_check_size(&d.def, &size, NULL) == ERRCORE_OK);
        void *scratch = size ? malloc(size) : NULL;
        if (size && !scratch) {
            abort();
        }
        collected_diags c = {got, 0, sizeof got / sizeof got[0]};
        errcore_status st = errcore_check_catalog(&d.def, scratch, size, collect_into, &c);
        free(scratch);
        bool same = c.count == count && st == (count ? want[0].status : ERRCORE_OK);
        for (size_t i = 0; same && i < count && i < c.cap; i++) {
            same = ref_same_diag(&got[i], &want[i]);
        }
        if (!same && mismatches++ < 3) {
            fprintf(stderr,
                    "sort differential: round %u (n %zu, r %zu, m %zu): %zu reports, "
                    "reference %zu\n",
                    round, d.def.entry_count, d.def.range_count, d.def.module_count, c.count, count);
        }
        reports += count;
        radix_sized += d.def.entry_count > 32 && d.def.range_count > 32 && d.def.module_count > 32;
    }
    CHECKF(mismatches == 0, "%lu of %u definitions disagree with the reference", mismatches, rounds);
    CHECKF(radix_sized > rounds / 20 && reports > 20ul * rounds, "%lu radix-sized, %lu reports", radix_sized, reports);
    printf("sort differential: %u definitions, %lu reports, %lu with > 32 entries, ranges and "
           "modules\n",
           rounds, reports, radix_sized);
}

/*
 * Valid definitions: distinct codes and disjoint ranges from every code
 * source, shuffled; the built table holds them in qsort's order.
 */
static void test_built_order(uint64_t *s, unsigned rounds) {
    static errcore_entry_def entries[SORT_ENTRIES];
    static errcore_range ranges[SORT_RANGES];
    static size_t order[SORT_ENTRIES];
    static errcore_module_def modules[1] = {{"only", NULL, NULL, NULL}};
    unsigned long mismatches = 0;
    for (unsigned round = 0; round < rounds; round++) {
        code_source codes = make_source(s);
        size_t want_n = (size_t)(check_rand(s) % (SORT_ENTRIES + 1));
        size_t n = 0;
        /* Ranges first: [k * 2^40, k * 2^40 + 2^39] for distinct k != 0 in [-3000, 3000], so their
         * firsts are negative and positive and all but the highest bytes are equal. */
        size_t r = (size_t)(check_rand(s) % (SORT_RANGES + 1));
        for (size_t i = 0; i < r; i++) {
            int64_t k = (int64_t)(check_rand(s) % 6001) - 3000;
            bool taken = k == 0; /* [0, 2^39] would hold the success code 0 */
            for (size_t j = 0; j < i && !taken; j++) {
                taken = ranges[j].first == k * ((int64_t)1 << 40);
            }
            if (taken) {
                i--;
                continue;
            }
            ranges[i] = (errcore_range){k * ((int64_t)1 << 40), k * ((int64_t)1 << 40) + ((int64_t)1 << 39), 1};
        }
        /* Base entries: distinct codes outside every range (and not the success code 0). */
        for (size_t tries = 0; n < want_n && tries < 4 * (size_t)SORT_ENTRIES; tries++) {
            int64_t code = draw_code(&codes, s);
            bool bad = code == 0;
            for (size_t j = 0; j < r && !bad; j++) {
                bad = ref_in_range(&ranges[j], code);
            }
            for (size_t j = 0; j < n && !bad; j++) {
                bad = entries[j].code == code;
            }
            if (!bad) {
                entries[n] = (errcore_entry_def){code, 0, (uint8_t)(n & 0xFF), "e", NULL, NULL, NULL};
                n++;
            }
        }
        errcore_catalog_def def = {0, entries, n, modules, 1, ranges, r, NULL, 0};
        size_t size = 0;
        CHECK(errcore_build_size(&def, &size, NULL) == ERRCORE_OK);
        void *storage = malloc(size ? size : 8);
        if (!storage) {
            abort();
        }
        errcore_table t;
        errcore_diag diag;
        errcore_status st = errcore_build(&def, storage, size, &t, &diag);
        bool same = st == ERRCORE_OK && t.entry_count == n && t.range_count == r;
        qsort_entries = entries;
        for (size_t i = 0; i < n; i++) {
            order[i] = i;
        }
        qsort(order, n, sizeof order[0], cmp_entry_index);
        for (size_t p = 0; same && p < n; p++) {
            same = t.codes[p] == entries[order[p]].code && t.entries[p].flags == entries[order[p]].flags;
        }
        qsort_ranges = ranges;
        for (size_t i = 0; i < r; i++) {
            order[i] = i;
        }
        qsort(order, r, sizeof order[0], cmp_range_index);
        for (size_t p = 0; same && p < r; p++) {
            same = t.ranges[p].first == ranges[order[p]].first;
        }
        if (!same && mismatches++ < 3) {
            fprintf(stderr, "sort built order: round %u (n %zu, r %zu): %s\n", round, n, r, errcore_status_name(st));
        }
        free(storage);
    }
    CHECKF(mismatches == 0, "%lu of %u built tables out of order", mismatches, rounds);
}

/*
 * Long runs of equal codes: every entry after the first of its code is a
 * duplicate of exactly that first one (the lowest input index).
 */
static void test_equal_runs(uint64_t *s) {
    enum { N = 200000 };
    errcore_entry_def *entries = malloc(N * sizeof *entries);
    size_t *first = malloc(N * sizeof *first);
    errcore_diag *got = malloc(N * sizeof *got);
    if (!entries || !first || !got) {
        abort();
    }
    static const int64_t values[] = {INT64_MIN, -7, INT32_MIN, 0, INT32_MAX, INT64_MAX};
    for (size_t i = 0; i < N; i++) {
        int64_t code = values[check_rand(s) % 6];
        entries[i] = (errcore_entry_def){code, 0, 0, "e", NULL, NULL, NULL};
        first[i] = i;
        for (size_t j = 0; j < i; j++) { /* the first entry with this code, among at most 6 */
            if (entries[j].code == code) {
                first[i] = j;
                break;
            }
        }
    }
    errcore_catalog_def def = {1, entries, N, NULL, 0, NULL, 0, NULL, 0};
    size_t size = 0;
    CHECK(errcore_check_size(&def, &size, NULL) == ERRCORE_OK);
    void *scratch = malloc(size);
    if (!scratch) {
        abort();
    }
    collected_diags c = {got, 0, N};
    errcore_check_catalog(&def, scratch, size, collect_into, &c);
    size_t at = 0, bad = 0;
    for (size_t i = 0; i < N; i++) {
        if (first[i] == i) {
            continue;
        }
        const errcore_diag *d = at < c.count ? &got[at] : NULL;
        bad += !d || d->status != ERRCORE_E_DUPLICATE_CODE || d->index != i || d->other_index != first[i] ||
               d->code != entries[i].code;
        at++;
    }
    CHECKF(bad == 0 && at == c.count, "%zu wrong of %zu reports (%zu expected)", bad, c.count, at);
    free(scratch);
    free(got);
    free(first);
    free(entries);
}

void test_sort(void) {
    uint64_t seed = 0x5047u;
    const char *env = getenv("ERRCORE_DIFF_SEED");
    if (env) {
        seed = strtoull(env, NULL, 0);
    }
    uint64_t s = seed;
    test_reports(&s, 300);
    test_built_order(&s, 120);
    test_equal_runs(&s);
}

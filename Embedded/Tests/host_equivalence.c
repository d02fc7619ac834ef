/*
 * host_equivalence.c — checks that the C core built in the freestanding
 * configuration of `make cross` (-ffreestanding -Os, the <string.h> of
 * Embedded/freestanding) behaves exactly like the regular -O2 build.
 *
 * `make cross-host-test` links three builds of the same sources into this
 * program: the reference under the normal errcore_* names, and the
 * freestanding builds of host gcc and clang with their global symbols
 * renamed to fs_gcc_errcore_* and fs_clang_errcore_* (objcopy
 * --redefine-syms; EMBEDDED_FS_gcc / EMBEDDED_FS_clang say which are
 * linked). Every freestanding build must agree with the reference on:
 *   - the default table's data, and its validation;
 *   - the class of every entry code, every range and entry boundary +-1,
 *     0, -1, INT64_MIN/MAX, 2^32 + 11001 and 200,000 codes from a fixed-seed
 *     xorshift generator, on its own table, on the reference's, and on its
 *     own without the classification index; errcore_index_build;
 *   - errcore_classify_batch at every length 0 ... 20 and over all inputs,
 *     and errcore_tally_codes in chunks;
 *   - every text function (describe in both languages, full and truncated
 *     buffers; names, messages, titles; status, tier and flag names;
 *     errcore_format_int64);
 *   - string codes: errcore_string_hash at every length 0 ... 80, the string
 *     table errcore_string_build makes (byte for byte), and
 *     errcore_classify_string on listed strings, their near misses, random
 *     strings and unknown namespaces, over its own table and the reference's;
 *   - errcore_build of the default catalog from shuffled input, and the
 *     status, diagnostic and diagnostic text of each kind of bad input;
 *     errcore_check_size and the full list errcore_check_catalog reports
 *     for each of them.
 * Prints each mismatch (the first 20) and, as its last line,
 * "N passed, N failed"; exits 1 when anything failed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CErrCore.h"
#include "errcore_default_catalog.h"

/* The API of one build of the core, reached through its (renamed) symbols. */
typedef struct core_build {
    const char *label;
    const errcore_table *(*default_table)(void);
    errcore_status (*validate)(const errcore_table *, errcore_diag *);
    errcore_status (*index_build)(const errcore_table *, int64_t *, errcore_index_slot *, size_t, size_t *);
    errcore_status (*build_size)(const errcore_catalog_def *, size_t *, errcore_diag *);
    errcore_status (*build)(const errcore_catalog_def *, void *, size_t, errcore_table *, errcore_diag *);
    errcore_status (*check_size)(const errcore_catalog_def *, size_t *, errcore_diag *);
    errcore_status (*check_catalog)(const errcore_catalog_def *, void *, size_t, errcore_report_fn, void *);
    errcore_class (*classify)(const errcore_table *, int64_t);
    void (*classify_batch)(const errcore_table *, const int64_t *, errcore_class *, size_t);
    errcore_status (*tally_codes)(const errcore_table *, const int64_t *, size_t, errcore_tally *, uint64_t *);
    const char *(*status_string)(errcore_status);
    const char *(*status_name)(errcore_status);
    size_t (*diag_format)(const errcore_diag *, char *, size_t);
    const char *(*tier_name)(errcore_tier);
    const char *(*flag_name)(unsigned);
    const char *(*entry_name)(const errcore_table *, uint32_t);
    const char *(*entry_message)(const errcore_table *, uint32_t, errcore_lang);
    const char *(*module_name)(const errcore_table *, uint16_t);
    const char *(*module_title)(const errcore_table *, uint16_t, errcore_lang);
    uint16_t (*module_find)(const errcore_table *, const char *);
    size_t (*describe)(const errcore_table *, int64_t, errcore_lang, char *, size_t);
    size_t (*format_int64)(int64_t, char *, size_t);
    uint64_t (*string_hash)(uint64_t, uint32_t, const unsigned char *, size_t);
    errcore_status (*string_build_size)(const errcore_string_def *, size_t *, errcore_diag *);
    errcore_status (*string_build)(const errcore_table *, const errcore_string_def *, void *, size_t,
                                   errcore_string_table *, errcore_diag *);
    errcore_class (*classify_string)(const errcore_string_table *, const char *, size_t, const char *, size_t);
} core_build;

/* Prototypes of a renamed build: P##errcore_classify and so on. */
#define DECLARE_BUILD(P)                                                                                               \
    const errcore_table *P##errcore_default_table(void);                                                               \
    errcore_status P##errcore_validate(const errcore_table *, errcore_diag *);                                         \
    errcore_status P##errcore_index_build(const errcore_table *, int64_t *, errcore_index_slot *, size_t, size_t *);   \
    errcore_status P##errcore_build_size(const errcore_catalog_def *, size_t *, errcore_diag *);                       \
    errcore_status P##errcore_build(const errcore_catalog_def *, void *, size_t, errcore_table *, errcore_diag *);     \
    errcore_status P##errcore_check_size(const errcore_catalog_def *, size_t *, errcore_diag *);                       \
    errcore_status P##errcore_check_catalog(const errcore_catalog_def *, void *, size_t, errcore_report_fn, void *);   \
    errcore_class P##errcore_classify(const errcore_table *, int64_t);                                                 \
    void P##errcore_classify_batch(const errcore_table *, const int64_t *, errcore_class *, size_t);                   \
    errcore_status P##errcore_tally_codes(const errcore_table *, const int64_t *, size_t, errcore_tally *,             \
                                          uint64_t *);                                                                 \
    const char *P##errcore_status_string(errcore_status);                                                              \
    const char *P##errcore_status_name(errcore_status);                                                                \
    size_t P##errcore_diag_format(const errcore_diag *, char *, size_t);                                               \
    const char *P##errcore_tier_name(errcore_tier);                                                                    \
    const char *P##errcore_flag_name(unsigned);                                                                        \
    const char *P##errcore_entry_name(const errcore_table *, uint32_t);                                                \
    const char *P##errcore_entry_message(const errcore_table *, uint32_t, errcore_lang);                               \
    const char *P##errcore_module_name(const errcore_table *, uint16_t);                                               \
    const char *P##errcore_module_title(const errcore_table *, uint16_t, errcore_lang);                                \
    uint16_t P##errcore_module_find(const errcore_table *, const char *);                                              \
    size_t P##errcore_describe(const errcore_table *, int64_t, errcore_lang, char *, size_t);                          \
    size_t P##errcore_format_int64(int64_t, char *, size_t);                                                           \
    uint64_t P##errcore_string_hash(uint64_t, uint32_t, const unsigned char *, size_t);                                \
    errcore_status P##errcore_string_build_size(const errcore_string_def *, size_t *, errcore_diag *);                 \
    errcore_status P##errcore_string_build(const errcore_table *, const errcore_string_def *, void *, size_t,          \
                                           errcore_string_table *, errcore_diag *);                                    \
    errcore_class P##errcore_classify_string(const errcore_string_table *, const char *, size_t, const char *, size_t);

#define BUILD_ENTRY(LABEL, P)                                                                                          \
    {LABEL,                                                                                                            \
     P##errcore_default_table,                                                                                         \
     P##errcore_validate,                                                                                              \
     P##errcore_index_build,                                                                                           \
     P##errcore_build_size,                                                                                            \
     P##errcore_build,                                                                                                 \
     P##errcore_check_size,                                                                                            \
     P##errcore_check_catalog,                                                                                         \
     P##errcore_classify,                                                                                              \
     P##errcore_classify_batch,                                                                                        \
     P##errcore_tally_codes,                                                                                           \
     P##errcore_status_string,                                                                                         \
     P##errcore_status_name,                                                                                           \
     P##errcore_diag_format,                                                                                           \
     P##errcore_tier_name,                                                                                             \
     P##errcore_flag_name,                                                                                             \
     P##errcore_entry_name,                                                                                            \
     P##errcore_entry_message,                                                                                         \
     P##errcore_module_name,                                                                                           \
     P##errcore_module_title,                                                                                          \
     P##errcore_module_find,                                                                                           \
     P##errcore_describe,                                                                                              \
     P##errcore_format_int64,                                                                                          \
     P##errcore_string_hash,                                                                                           \
     P##errcore_string_build_size,                                                                                     \
     P##errcore_string_build,                                                                                          \
     P##errcore_classify_string}

#if !defined(EMBEDDED_FS_gcc) && !defined(EMBEDDED_FS_clang)
#error "define EMBEDDED_FS_gcc and/or EMBEDDED_FS_clang for the freestanding builds linked in"
#endif

#ifdef EMBEDDED_FS_gcc
DECLARE_BUILD(fs_gcc_)
#endif
#ifdef EMBEDDED_FS_clang
DECLARE_BUILD(fs_clang_)
#endif

static const core_build reference = BUILD_ENTRY("reference -O2", );

static const core_build freestanding[] = {
#ifdef EMBEDDED_FS_gcc
    BUILD_ENTRY("gcc -ffreestanding -Os", fs_gcc_),
#endif
#ifdef EMBEDDED_FS_clang
    BUILD_ENTRY("clang -ffreestanding -Os", fs_clang_),
#endif
};
#define FS_COUNT (sizeof freestanding / sizeof freestanding[0])

/* ---- counting ------------------------------------------------------------------------- */

static unsigned long long passed;
static unsigned long long failed;

static void check(int ok, const core_build *b, const char *what, long long detail) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed <= 20) {
        printf("MISMATCH %s: %s (%lld)\n", b->label, what, detail);
    }
}

static int same_string(const char *a, const char *b) {
    if (a == NULL || b == NULL) {
        return a == b;
    }
    return strcmp(a, b) == 0;
}

static int same_diag(const errcore_diag *a, const errcore_diag *b) {
    return a->status == b->status && a->subject == b->subject && a->index == b->index &&
           a->other_index == b->other_index && a->code == b->code && a->other_code == b->other_code &&
           a->module == b->module;
}

/* Same arrays, element by element (padding bytes are not compared). */
static int same_table(const errcore_table *a, const errcore_table *b) {
    if (a->entry_count != b->entry_count || a->module_count != b->module_count || a->range_count != b->range_count ||
        a->strings_size != b->strings_size || a->success_code != b->success_code) {
        return 0;
    }
    for (size_t i = 0; i < a->entry_count; i++) {
        const errcore_entry *x = &a->entries[i];
        const errcore_entry *y = &b->entries[i];
        if (a->codes[i] != b->codes[i] || x->module != y->module || x->flags != y->flags ||
            x->reserved != y->reserved || x->name != y->name || x->message_en != y->message_en ||
            x->message_zh != y->message_zh) {
            return 0;
        }
    }
    for (size_t i = 0; i < a->module_count; i++) {
        const errcore_module *x = &a->modules[i];
        const errcore_module *y = &b->modules[i];
        if (x->name != y->name || x->title_en != y->title_en || x->title_zh != y->title_zh ||
            x->reserved != y->reserved) {
            return 0;
        }
    }
    for (size_t i = 0; i < a->range_count; i++) {
        if (a->ranges[i].first != b->ranges[i].first || a->ranges[i].last != b->ranges[i].last ||
            a->ranges[i].module != b->ranges[i].module) {
            return 0;
        }
    }
    if (a->index_count != b->index_count) {
        return 0;
    }
    for (size_t i = 0; i < a->index_count; i++) {
        if (a->index_keys[i] != b->index_keys[i] || a->index_slots[i].hit != b->index_slots[i].hit ||
            a->index_slots[i].gap != b->index_slots[i].gap) {
            return 0;
        }
    }
    return a->strings_size == 0 || memcmp(a->strings, b->strings, a->strings_size) == 0;
}

/* ---- inputs --------------------------------------------------------------------------- */

#define RANDOM_CODES 200000

static uint64_t xorshift_state = 0x9E3779B97F4A7C15u;

static uint64_t xorshift64(void) {
    uint64_t x = xorshift_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    xorshift_state = x;
    return x;
}

static int64_t *inputs;
static size_t input_count;

static void add_input(int64_t code) {
    inputs[input_count++] = code;
}

static void add_around(int64_t code) {
    add_input(code);
    if (code != INT64_MIN) {
        add_input(code - 1);
    }
    if (code != INT64_MAX) {
        add_input(code + 1);
    }
}

/* Every code of interest for table t, then the random ones. */
static void make_inputs(const errcore_table *t) {
    size_t cap = 64 + 3 * (t->entry_count + 2 * t->range_count) + RANDOM_CODES;
    inputs = malloc(cap * sizeof *inputs);
    if (inputs == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    static const int64_t fixed[] = {
        0,
        -1,
        1,
        INT64_MIN,
        INT64_MIN + 1,
        INT64_MAX,
        INT64_MAX - 1,
        (int64_t)4294967296 + 11001,
        11001 - (int64_t)4294967296,
        -11001,
        INT32_MIN,
        INT32_MAX,
        (int64_t)UINT32_MAX,
        (int64_t)UINT32_MAX + 1,
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        add_input(fixed[i]);
    }
    add_around(t->success_code);
    int64_t lo = t->success_code;
    int64_t hi = t->success_code;
    for (size_t i = 0; i < t->entry_count; i++) {
        add_around(t->codes[i]);
        lo = t->codes[i] < lo ? t->codes[i] : lo;
        hi = t->codes[i] > hi ? t->codes[i] : hi;
    }
    for (size_t i = 0; i < t->range_count; i++) {
        add_around(t->ranges[i].first);
        add_around(t->ranges[i].last);
        lo = t->ranges[i].first < lo ? t->ranges[i].first : lo;
        hi = t->ranges[i].last > hi ? t->ranges[i].last : hi;
    }
    /* Half over all of int64, half around the catalog's codes. */
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 2001u;
    for (size_t i = 0; i < RANDOM_CODES; i++) {
        uint64_t r = xorshift64();
        if (i % 2 == 0) {
            add_input((int64_t)r);
        } else {
            add_input((int64_t)((uint64_t)lo - 1000u + r % span));
        }
    }
}

/* ---- the checks ----------------------------------------------------------------------- */

static void check_default_table(const core_build *b) {
    const errcore_table *ref = reference.default_table();
    const errcore_table *fs = b->default_table();
    check(fs != NULL && same_table(fs, ref), b, "default table data differs", 0);
    errcore_diag dr, df;
    memset(&dr, 0xA5, sizeof dr);
    memset(&df, 0xA5, sizeof df);
    errcore_status sr = reference.validate(ref, &dr);
    errcore_status sf = b->validate(fs, &df);
    check(sr == ERRCORE_OK && sf == sr && same_diag(&df, &dr), b, "validate(default table)", sf);
    sf = b->validate(ref, &df);
    check(sf == ERRCORE_OK, b, "validate(reference table)", sf);
}

static void check_classify(const core_build *b, const errcore_class *expected) {
    const errcore_table *ref = reference.default_table();
    const errcore_table *fs = b->default_table();
    /* The same table without its index: the two-search path. */
    errcore_table plain = *fs;
    plain.index_keys = NULL;
    plain.index_slots = NULL;
    plain.index_count = 0;
    check(b->validate(&plain, NULL) == ERRCORE_OK, b, "validate(default table without index)", 0);
    for (size_t i = 0; i < input_count; i++) {
        errcore_class own = b->classify(fs, inputs[i]);
        errcore_class other = b->classify(ref, inputs[i]);
        errcore_class unindexed = b->classify(&plain, inputs[i]);
        check(own == expected[i] && other == expected[i] && unindexed == expected[i], b, "classify of code",
              (long long)inputs[i]);
    }
}

/* errcore_index_build of the default table gives the reference's index, and the table's own. */
static void check_index_build(const core_build *b) {
    const errcore_table *ref = reference.default_table();
    size_t capacity = ERRCORE_INDEX_CAPACITY(ref->entry_count, ref->range_count);
    int64_t *kr = malloc(capacity * sizeof *kr);
    int64_t *kf = malloc(capacity * sizeof *kf);
    errcore_index_slot *sr = malloc(capacity * sizeof *sr);
    errcore_index_slot *sf = malloc(capacity * sizeof *sf);
    if (kr == NULL || kf == NULL || sr == NULL || sf == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    size_t nr = 0, nf = 0;
    errcore_status str = reference.index_build(ref, kr, sr, capacity, &nr);
    errcore_status stf = b->index_build(ref, kf, sf, capacity, &nf);
    int ok = str == ERRCORE_OK && stf == str && nf == nr && nf == ref->index_count;
    for (size_t i = 0; ok && i < nf; i++) {
        ok = kf[i] == kr[i] && sf[i].hit == sr[i].hit && sf[i].gap == sr[i].gap && kf[i] == ref->index_keys[i] &&
             sf[i].hit == ref->index_slots[i].hit && sf[i].gap == ref->index_slots[i].gap;
    }
    check(ok, b, "index_build of the default table", stf);
    str = reference.index_build(ref, kr, sr, nr - 1, &nr);
    stf = b->index_build(ref, kf, sf, nf - 1, &nf);
    check(stf == str && stf != ERRCORE_OK, b, "index_build with one slot too few", stf);
    check(b->index_build(NULL, kf, sf, capacity, &nf) == reference.index_build(NULL, kr, sr, capacity, &nr), b,
          "index_build(NULL table)", 0);
    free(kr);
    free(kf);
    free(sr);
    free(sf);
}

static void check_batch(const core_build *b, const errcore_class *expected) {
    const errcore_table *fs = b->default_table();
    errcore_class *out = malloc(input_count * sizeof *out);
    if (out == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    for (size_t n = 0; n <= 20; n++) {
        for (size_t start = 0; start + n <= input_count && start < 40; start += 13) {
            for (size_t i = 0; i < n; i++) {
                out[i] = 0x5A5A5A5A5A5A5A5Au;
            }
            b->classify_batch(fs, inputs + start, out, n);
            int ok = 1;
            for (size_t i = 0; i < n; i++) {
                ok &= out[i] == expected[start + i];
            }
            check(ok, b, "classify_batch at length", (long long)n);
        }
    }
    b->classify_batch(fs, inputs, out, input_count);
    size_t bad = 0;
    for (size_t i = 0; i < input_count; i++) {
        bad += out[i] != expected[i];
    }
    check(bad == 0, b, "classify_batch over all inputs, mismatches", (long long)bad);
    free(out);
}

static void check_tally(const core_build *b) {
    const errcore_table *ref = reference.default_table();
    const errcore_table *fs = b->default_table();
    size_t slots = ref->module_count + 1;
    uint64_t *mr = calloc(slots, sizeof *mr);
    uint64_t *mf = calloc(slots, sizeof *mf);
    if (mr == NULL || mf == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    errcore_tally tr, tf;
    memset(&tr, 0, sizeof tr);
    memset(&tf, 0, sizeof tf);
    errcore_status sr = reference.tally_codes(ref, inputs, input_count, &tr, mr);
    errcore_status sf = ERRCORE_OK;
    for (size_t start = 0; start < input_count && sf == ERRCORE_OK; start += 1000) {
        size_t n = input_count - start < 1000 ? input_count - start : 1000;
        sf = b->tally_codes(fs, inputs + start, n, &tf, mf);
    }
    int ok = sr == ERRCORE_OK && sf == sr && tf.total == tr.total && tf.unrecognised == tr.unrecognised &&
             tf.total == input_count;
    for (size_t i = 0; i < ERRCORE_TIER_COUNT; i++) {
        ok &= tf.tiers[i] == tr.tiers[i];
    }
    for (size_t i = 0; i < slots; i++) {
        ok &= mf[i] == mr[i];
    }
    check(ok, b, "tally_codes in chunks of 1000", sf);
    /* The rejections. */
    check(b->tally_codes(NULL, inputs, 1, &tf, NULL) == reference.tally_codes(NULL, inputs, 1, &tr, NULL), b,
          "tally_codes(NULL table) status", 0);
    check(b->tally_codes(fs, NULL, 1, &tf, NULL) == reference.tally_codes(ref, NULL, 1, &tr, NULL), b,
          "tally_codes(NULL codes, 1) status", 0);
    check(b->tally_codes(fs, inputs, 1, NULL, NULL) == reference.tally_codes(ref, inputs, 1, NULL, NULL), b,
          "tally_codes(NULL tally) status", 0);
    free(mr);
    free(mf);
}

static void check_text(const core_build *b) {
    const errcore_table *ref = reference.default_table();
    const errcore_table *fs = b->default_table();
    static const errcore_lang langs[] = {ERRCORE_LANG_EN, ERRCORE_LANG_ZH_HANS};
    char br[256], bf[256];
    for (size_t i = 0; i < input_count; i++) {
        for (size_t l = 0; l < 2; l++) {
            size_t size = (i % 3 == 0) ? (size_t)(inputs[i] & 31) : sizeof br;
            memset(br, 0x7E, sizeof br);
            memset(bf, 0x7E, sizeof bf);
            size_t nr = reference.describe(ref, inputs[i], langs[l], br, size);
            size_t nf = b->describe(fs, inputs[i], langs[l], bf, size);
            check(nr == nf && memcmp(br, bf, sizeof br) == 0, b, "describe of code", (long long)inputs[i]);
        }
        size_t size = (i % 2 == 0) ? sizeof br : (size_t)(inputs[i] & 31);
        memset(br, 0x7E, sizeof br);
        memset(bf, 0x7E, sizeof bf);
        size_t nr = reference.format_int64(inputs[i], br, size);
        size_t nf = b->format_int64(inputs[i], bf, size);
        check(nr == nf && memcmp(br, bf, sizeof br) == 0, b, "format_int64 of", (long long)inputs[i]);
    }
    check(b->describe(NULL, 11001, ERRCORE_LANG_EN, bf, sizeof bf) ==
                  reference.describe(NULL, 11001, ERRCORE_LANG_EN, br, sizeof br) &&
              strcmp(bf, br) == 0,
          b, "describe with NULL table", 0);
    for (uint32_t i = 0; i <= (uint32_t)ref->entry_count; i++) {
        int ok = same_string(b->entry_name(fs, i), reference.entry_name(ref, i));
        for (size_t l = 0; l < 2; l++) {
            ok &= same_string(b->entry_message(fs, i, langs[l]), reference.entry_message(ref, i, langs[l]));
        }
        check(ok, b, "entry name/messages of index", i);
    }
    for (uint16_t id = 0; id <= (uint16_t)(ref->module_count + 1); id++) {
        const char *name = reference.module_name(ref, id);
        int ok = same_string(b->module_name(fs, id), name);
        for (size_t l = 0; l < 2; l++) {
            ok &= same_string(b->module_title(fs, id, langs[l]), reference.module_title(ref, id, langs[l]));
        }
        if (name != NULL) {
            ok &= b->module_find(fs, name) == reference.module_find(ref, name);
        }
        check(ok, b, "module name/titles/find of id", id);
    }
    check(b->module_find(fs, "noSuchModule") == reference.module_find(ref, "noSuchModule") &&
              b->module_find(fs, NULL) == reference.module_find(ref, NULL),
          b, "module_find of unknown and NULL names", 0);
    for (int s = 0; s <= ERRCORE_STATUS_COUNT; s++) {
        check(same_string(b->status_string((errcore_status)s), reference.status_string((errcore_status)s)) &&
                  same_string(b->status_name((errcore_status)s), reference.status_name((errcore_status)s)),
              b, "status string/name of", s);
    }
    for (int t = 0; t <= ERRCORE_TIER_COUNT; t++) {
        check(same_string(b->tier_name((errcore_tier)t), reference.tier_name((errcore_tier)t)), b, "tier name of", t);
    }
    for (unsigned f = 0; f <= 256; f++) {
        check(same_string(b->flag_name(f), reference.flag_name(f)), b, "flag name of", (long long)f);
    }
}

/* ---- building ------------------------------------------------------------------------- */

/* The default catalog as unsorted builder input (entries and ranges in a shuffled order). */
typedef struct catalog_input {
    errcore_entry_def *entries;
    errcore_module_def *modules;
    errcore_range *ranges;
    errcore_catalog_def def;
} catalog_input;

static const char *pool_or_null(const errcore_table *t, uint32_t offset) {
    return offset == ERRCORE_NO_STRING ? NULL : t->strings + offset;
}

static void make_catalog_input(const errcore_table *t, catalog_input *in) {
    in->entries = malloc((t->entry_count + 1) * sizeof *in->entries);
    in->modules = malloc((t->module_count + 1) * sizeof *in->modules);
    in->ranges = malloc((t->range_count + 1) * sizeof *in->ranges);
    if (in->entries == NULL || in->modules == NULL || in->ranges == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < t->entry_count; i++) {
        const errcore_entry *e = &t->entries[i];
        errcore_entry_def *d = &in->entries[i];
        d->code = t->codes[i];
        d->module = e->module;
        d->flags = e->flags;
        d->name = pool_or_null(t, e->name);
        d->message_en = pool_or_null(t, e->message_en);
        d->message_zh = pool_or_null(t, e->message_zh);
        d->messages = NULL; /* two languages, from message_en / message_zh */
    }
    for (size_t i = 0; i < t->module_count; i++) {
        in->modules[i].name = pool_or_null(t, t->modules[i].name);
        in->modules[i].title_en = pool_or_null(t, t->modules[i].title_en);
        in->modules[i].title_zh = pool_or_null(t, t->modules[i].title_zh);
        in->modules[i].titles = NULL;
    }
    for (size_t i = 0; i < t->range_count; i++) {
        in->ranges[i] = t->ranges[i];
    }
    /* A fixed shuffle (Fisher-Yates with the xorshift generator). */
    for (size_t i = t->entry_count; i > 1; i--) {
        size_t j = (size_t)(xorshift64() % i);
        errcore_entry_def tmp = in->entries[i - 1];
        in->entries[i - 1] = in->entries[j];
        in->entries[j] = tmp;
    }
    for (size_t i = t->range_count; i > 1; i--) {
        size_t j = (size_t)(xorshift64() % i);
        errcore_range tmp = in->ranges[i - 1];
        in->ranges[i - 1] = in->ranges[j];
        in->ranges[j] = tmp;
    }
    in->def.success_code = t->success_code;
    in->def.entries = in->entries;
    in->def.entry_count = t->entry_count;
    in->def.modules = in->modules;
    in->def.module_count = t->module_count;
    in->def.ranges = in->ranges;
    in->def.range_count = t->range_count;
    in->def.languages = NULL;
    in->def.language_count = 0;
}

/* Builds def with build b; returns the status and fills *table, *diag; storage is malloc'ed. */
static errcore_status build_with(const core_build *b, const errcore_catalog_def *def, errcore_table *table,
                                 errcore_diag *diag, void **storage, size_t *size) {
    *storage = NULL;
    *size = 0;
    memset(diag, 0xA5, sizeof *diag);
    errcore_status s = b->build_size(def, size, diag);
    if (s != ERRCORE_OK) {
        return s;
    }
    *storage = malloc(*size > 0 ? *size : 1);
    if (*storage == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    memset(diag, 0xA5, sizeof *diag);
    return b->build(def, *storage, *size, table, diag);
}

/* Every report of errcore_check_catalog, kept in a fixed array (bad inputs here have few). */
typedef struct report_list {
    errcore_diag items[64];
    size_t count;
} report_list;

static int keep_report(void *context, const errcore_diag *d) {
    report_list *list = context;
    if (list->count < sizeof list->items / sizeof list->items[0]) {
        list->items[list->count] = *d;
    }
    list->count++;
    return 0;
}

/* Check-all of def with build b into *list; returns the status; scratch is malloc'ed. */
static errcore_status check_with(const core_build *b, const errcore_catalog_def *def, report_list *list, size_t *size) {
    *size = 0;
    list->count = 0;
    if (b->check_size(def, size, NULL) != ERRCORE_OK) {
        *size = 0;
    }
    void *scratch = *size ? malloc(*size) : NULL;
    if (*size && scratch == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    errcore_status s = b->check_catalog(def, scratch, *size, keep_report, list);
    free(scratch);
    return s;
}

static void compare_check(const core_build *b, const errcore_catalog_def *def, const char *what) {
    static report_list lr, lf;
    size_t zr, zf;
    errcore_status sr = check_with(&reference, def, &lr, &zr);
    errcore_status sf = check_with(b, def, &lf, &zf);
    bool same = sr == sf && zr == zf && lr.count == lf.count;
    for (size_t i = 0; same && i < lr.count && i < 64; i++) {
        same = same_diag(&lr.items[i], &lf.items[i]);
    }
    check(same, b, what, (long long)lf.count);
}

/* Builds def with the reference and with b; both must give the same status, diagnostic and text. */
static void compare_build(const core_build *b, const errcore_catalog_def *def, const char *what,
                          const errcore_class *expected) {
    errcore_table tr, tf;
    errcore_diag dr, df;
    void *mr, *mf;
    size_t zr, zf;
    errcore_status sr = build_with(&reference, def, &tr, &dr, &mr, &zr);
    errcore_status sf = build_with(b, def, &tf, &df, &mf, &zf);
    check(sf == sr && zf == zr && same_diag(&df, &dr), b, what, sf);
    compare_check(b, def, what);
    char br[256], bf[256];
    size_t nr = reference.diag_format(&dr, br, sizeof br);
    size_t nf = b->diag_format(&df, bf, sizeof bf);
    check(nr == nf && strcmp(br, bf) == 0, b, "diag_format after build", sf);
    if (sr == ERRCORE_OK && sf == ERRCORE_OK) {
        check(same_table(&tf, &tr), b, "built table data differs", 0);
        if (expected != NULL) {
            size_t bad = 0;
            for (size_t i = 0; i < input_count; i++) {
                bad += b->classify(&tf, inputs[i]) != expected[i];
            }
            check(bad == 0, b, "classify on the built default catalog, mismatches", (long long)bad);
        }
    }
    free(mr);
    free(mf);
}

static void check_build(const core_build *b, const errcore_class *expected) {
    const errcore_table *ref = reference.default_table();
    catalog_input in;
    make_catalog_input(ref, &in);
    compare_build(b, &in.def, "build of the shuffled default catalog", expected);

    catalog_input bad;
    make_catalog_input(ref, &bad);
    size_t last = bad.def.entry_count - 1;
    int64_t first_module_code = 0;
    size_t module_entry = 0;
    for (size_t i = 0; i < bad.def.entry_count; i++) {
        if (bad.entries[i].module != ERRCORE_MODULE_NONE) {
            first_module_code = bad.entries[i].code;
            module_entry = i;
            break;
        }
    }

    /* Each kind of bad input, applied to a fresh copy and undone afterwards. */
    errcore_entry_def saved = bad.entries[last];
    bad.entries[last].code = bad.entries[0].code;
    compare_build(b, &bad.def, "duplicate code", NULL);
    bad.entries[last] = saved;

    saved = bad.entries[module_entry];
    bad.entries[module_entry].code = INT64_MAX;
    compare_build(b, &bad.def, "module code outside its range", NULL);
    bad.entries[module_entry].module = (uint16_t)(bad.def.module_count + 1);
    compare_build(b, &bad.def, "undeclared module", NULL);
    bad.entries[module_entry] = saved;

    saved = bad.entries[last];
    bad.entries[last].module = ERRCORE_MODULE_NONE;
    bad.entries[last].code = first_module_code + 1;
    compare_build(b, &bad.def, "base code in a module range", NULL);
    bad.entries[last].name = "";
    compare_build(b, &bad.def, "empty name", NULL);
    bad.entries[last].name = NULL;
    compare_build(b, &bad.def, "NULL name", NULL);
    bad.entries[last] = saved;

    errcore_range saved_range = bad.ranges[0];
    bad.ranges[0].last = bad.ranges[0].first - 1;
    compare_build(b, &bad.def, "empty range", NULL);
    bad.ranges[0] = saved_range;
    bad.ranges[0] = bad.ranges[1];
    bad.ranges[0].module = saved_range.module;
    compare_build(b, &bad.def, "overlapping ranges", NULL);
    bad.ranges[0] = saved_range;

    const char *saved_name = bad.modules[1].name;
    bad.modules[1].name = bad.modules[0].name;
    compare_build(b, &bad.def, "duplicate module name", NULL);
    bad.modules[1].name = saved_name;

    errcore_catalog_def null_def = bad.def;
    null_def.entries = NULL;
    compare_build(b, &null_def, "NULL entries with a count", NULL);
    null_def = bad.def;
    null_def.entry_count = SIZE_MAX;
    compare_build(b, &null_def, "entry count overflow", NULL);

    errcore_table built;
    errcore_diag dr, df;
    size_t need = 0;
    check(reference.build_size(&in.def, &need, NULL) == ERRCORE_OK, &reference, "build_size", 0);
    void *small = malloc(need);
    if (small == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    errcore_status sr = reference.build(&in.def, small, need - 1, &built, &dr);
    errcore_status sf = b->build(&in.def, small, need - 1, &built, &df);
    check(sf == sr && same_diag(&df, &dr), b, "storage one byte too small", sf);
    sr = reference.build(&in.def, (char *)small + 4, need - 4, &built, &dr);
    sf = b->build(&in.def, (char *)small + 4, need - 4, &built, &df);
    check(sf == sr && same_diag(&df, &dr), b, "storage too small and misaligned", sf);
    free(small);
    small = malloc(need + 8);
    if (small == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    sr = reference.build(&in.def, (char *)small + 2, need, &built, &dr);
    sf = b->build(&in.def, (char *)small + 2, need, &built, &df);
    check(sf == sr && sf == ERRCORE_E_MISALIGNED && same_diag(&df, &dr), b, "misaligned storage", sf);
    free(small);

    free(in.entries);
    free(in.modules);
    free(in.ranges);
    free(bad.entries);
    free(bad.modules);
    free(bad.ranges);
}

/* ---- string codes ----------------------------------------------------------------------- */

#define STRING_CODES  300
#define STRING_PROBES 20000

/* length bytes of [a-z_] (and, one time in eight, any byte) into out. */
static void string_fill(char *out, size_t length) {
    for (size_t i = 0; i < length; i++) {
        uint64_t r = xorshift64();
        out[i] = (r & 7u) == 0 ? (char)(r >> 8) : "abcdefghijklmnopqrstuvwxyz_"[(r >> 8) % 27u];
    }
}

/*
 * Tables of one string code each, of every length 1 ... 70: nearly every string of that length
 * lands on its one slot, so a probe with one byte changed (at each position in turn) is told
 * apart by the comparison of the bytes alone.
 */
static void check_one_string_tables(const core_build *b, const errcore_table *table) {
    for (size_t length = 1; length <= 70; length++) {
        char key[72], probe[72];
        string_fill(key, length);
        const errcore_string_code_def code = {key, length, 0, table->codes[length % table->entry_count]};
        const errcore_string_def def = {NULL, 0, &code, 1};
        size_t need = 0;
        errcore_string_table ref_strings, strings;
        check(reference.string_build_size(&def, &need, NULL) == ERRCORE_OK, &reference, "string_build_size", 0);
        uint64_t *ref_storage = calloc(need / 8 + 1, 8), *storage = calloc(need / 8 + 1, 8);
        if (ref_storage == NULL || storage == NULL) {
            printf("out of memory\n");
            exit(2);
        }
        int built = reference.string_build(table, &def, ref_storage, need, &ref_strings, NULL) == ERRCORE_OK &&
                    b->string_build(table, &def, storage, need, &strings, NULL) == ERRCORE_OK;
        check(built, b, "a table of one string code of length", (long long)length);
        for (size_t at = 0; built && at <= length; at++) {
            memcpy(probe, key, length);
            if (at < length) {
                probe[at] ^= (char)(1u << (at % 8u));
            }
            errcore_class want = reference.classify_string(&ref_strings, NULL, 0, probe, length);
            check(b->classify_string(&strings, NULL, 0, probe, length) == want &&
                      b->classify_string(&ref_strings, NULL, 0, probe, length) == want &&
                      (want != ERRCORE_CLASS_UNKNOWN) == (at == length),
                  b, "errcore_classify_string, one byte changed at", (long long)(length * 100 + at));
        }
        free(ref_storage);
        free(storage);
    }
}

/*
 * A string table over the default table: STRING_CODES distinct strings of 1 to 70 bytes (every
 * path of the hash and the comparison), in the table's own namespace and in two named ones (one
 * owned by a module), each standing for an entry code.
 */
static void check_strings(const core_build *b) {
    const errcore_table *table = reference.default_table();
    static char text[STRING_CODES][72];
    static errcore_string_code_def codes[STRING_CODES];
    const errcore_string_space_def spaces[2] = {{"googleapis.com", 14, 1}, {"stripe", 6, ERRCORE_MODULE_NONE}};
    for (size_t i = 0; i < STRING_CODES; i++) {
        size_t length = 1 + i % 70;
        string_fill(text[i], length);
        /* The index in the first bytes keeps the strings distinct. */
        text[i][0] = (char)('A' + i % 26);
        if (length > 1) {
            text[i][1] = (char)('A' + i / 26);
        }
        codes[i] = (errcore_string_code_def){text[i], length, i % 3, table->codes[i % table->entry_count]};
    }
    const errcore_string_def def = {spaces, 2, codes, STRING_CODES};

    for (size_t length = 0; length <= 80; length++) {
        unsigned char bytes[80];
        string_fill((char *)bytes, length);
        uint64_t seed = xorshift64();
        check(b->string_hash(seed, (uint32_t)(length % 4), bytes, length) ==
                  reference.string_hash(seed, (uint32_t)(length % 4), bytes, length),
              b, "errcore_string_hash at length", (long long)length);
    }

    size_t need_ref = 0, need = 0;
    errcore_status sr = reference.string_build_size(&def, &need_ref, NULL);
    errcore_status sf = b->string_build_size(&def, &need, NULL);
    check(sr == ERRCORE_OK && sf == sr && need == need_ref, b, "errcore_string_build_size", (long long)need);
    if (sr != ERRCORE_OK || sf != sr || need != need_ref) {
        return;
    }
    uint64_t *ref_storage = calloc(need / 8 + 1, 8), *storage = calloc(need / 8 + 1, 8);
    if (ref_storage == NULL || storage == NULL) {
        printf("out of memory\n");
        exit(2);
    }
    errcore_string_table ref_strings, strings;
    sr = reference.string_build(table, &def, ref_storage, need, &ref_strings, NULL);
    sf = b->string_build(table, &def, storage, need, &strings, NULL);
    check(sr == ERRCORE_OK && sf == sr && memcmp(ref_storage, storage, need) == 0 && strings.seed == ref_strings.seed,
          b, "errcore_string_build", sf);
    if (sr != ERRCORE_OK || sf != sr) {
        free(ref_storage);
        free(storage);
        return;
    }
    const char *names[4] = {NULL, "googleapis.com", "stripe", "example.com"};
    const size_t name_lengths[4] = {0, 14, 6, 11};
    for (size_t i = 0; i < STRING_PROBES; i++) {
        char probe[72];
        size_t length, space = xorshift64() % 4u;
        if (i % 2 == 0) {
            /* A listed string, in its namespace or another, or one byte changed. */
            const errcore_string_code_def *code = &codes[xorshift64() % STRING_CODES];
            length = code->length;
            memcpy(probe, code->code, length);
            space = (i % 8 == 0) ? space : code->space;
            if (i % 6 == 0) {
                probe[xorshift64() % length] ^= (char)(1u << (xorshift64() % 8u));
            }
        } else {
            length = xorshift64() % 72u;
            string_fill(probe, length);
        }
        errcore_class want = reference.classify_string(&ref_strings, names[space], name_lengths[space], probe, length);
        check(b->classify_string(&strings, names[space], name_lengths[space], probe, length) == want &&
                  b->classify_string(&ref_strings, names[space], name_lengths[space], probe, length) == want,
              b, "errcore_classify_string of probe", (long long)i);
    }
    free(ref_storage);
    free(storage);
    check_one_string_tables(b, table);
}

int main(void) {
    const errcore_table *ref = reference.default_table();
    make_inputs(ref);
    errcore_class *expected = malloc(input_count * sizeof *expected);
    if (expected == NULL) {
        printf("out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < input_count; i++) {
        expected[i] = reference.classify(ref, inputs[i]);
    }
    printf("%zu inputs, %zu freestanding build(s)\n", input_count, (size_t)FS_COUNT);
    for (size_t k = 0; k < FS_COUNT; k++) {
        const core_build *b = &freestanding[k];
        check_default_table(b);
        check_classify(b, expected);
        check_index_build(b);
        check_batch(b, expected);
        check_tally(b);
        check_text(b);
        check_build(b, expected);
        check_strings(b);
    }
    free(expected);
    free(inputs);
    printf("%llu passed, %llu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

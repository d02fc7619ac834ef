/*
 * build_fuzz.c — libFuzzer target for errcore_build_size(), errcore_build(),
 * errcore_check_size(), errcore_check_catalog() and errcore_validate().
 *
 * The first byte picks one of three shapes:
 *   catalog   an errcore_catalog_def decoded from the bytes (modules, ranges,
 *             entries, NULL, empty and repeated names, colliding codes).
 *             errcore_check_catalog() with exactly-sized heap scratch must
 *             report exactly the list of problems the brute-force reference
 *             (Tests/CErrCoreTests/c/reference.h) computes, in its order,
 *             and stopping after k reports must give the first k. The
 *             definition is built into exactly-sized heap storage: the
 *             build must fail with the reference's first problem, diagnostic
 *             equal field by field, or succeed when there is none; a built
 *             table must pass errcore_validate() and classify every code of
 *             the definition to its own entry.
 *   hostile   NULL arrays with non-zero counts, counts above the maximums,
 *             short or misaligned storage: each must give its documented
 *             status (and check-all its reports) without reading the arrays.
 *   raw       a finished errcore_table decoded field by field (arrays and
 *             pool sized exactly to what was decoded, pool possibly not
 *             NUL-terminated, offsets out of range, reserved fields set):
 *             errcore_validate() must agree with the reference.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CErrCore.h"
#include "fuzz_bytes.h"
#include "fuzz_catalog.h"
#include "fuzz_check.h"
#include "reference.h"

static bool same_text(const char *got, const char *want) {
    return got && want && strcmp(got, want) == 0;
}

/* A built table must hold exactly the definition. */
static void check_built(const decoded_def *d, const errcore_table *t) {
    const errcore_catalog_def *def = &d->def;
    errcore_diag diag;
    FZ_CHECK(errcore_validate(t, &diag) == ERRCORE_OK, "built table fails validation: status %d", (int)diag.status);
    FZ_CHECK(t->entry_count == def->entry_count && t->module_count == def->module_count &&
                 t->range_count == def->range_count && t->success_code == def->success_code,
             "counts differ");
    for (size_t i = 0; i < def->entry_count; i++) {
        const errcore_entry_def *e = &def->entries[i];
        errcore_class c = errcore_classify(t, e->code);
        FZ_CHECK(errcore_class_is_exact(c), "entry %zu (code %lld) not found", i, (long long)e->code);
        uint32_t at = errcore_class_entry(c);
        FZ_CHECK(at < t->entry_count && t->codes[at] == e->code, "entry %zu classified to %u", i, at);
        errcore_tier want_tier = e->code == def->success_code ? ERRCORE_TIER_SUCCESS
                                 : e->module                  ? ERRCORE_TIER_MODULE
                                                              : ERRCORE_TIER_BASE;
        FZ_CHECK(errcore_class_tier(c) == want_tier, "entry %zu tier %d", i, (int)errcore_class_tier(c));
        FZ_CHECK(errcore_class_flags(c) == e->flags, "entry %zu flags", i);
        FZ_CHECK(errcore_class_module(c) == (want_tier == ERRCORE_TIER_MODULE ? e->module : 0), "entry %zu module", i);
        FZ_CHECK(t->entries[at].module == e->module, "entry %zu stored module", i);
        FZ_CHECK(same_text(errcore_entry_name(t, at), e->name), "entry %zu name", i);
        const char *en = e->message_en ? e->message_en : "";
        FZ_CHECK(same_text(errcore_entry_message(t, at, ERRCORE_LANG_EN), en), "entry %zu en", i);
        FZ_CHECK(same_text(errcore_entry_message(t, at, ERRCORE_LANG_ZH_HANS), e->message_zh ? e->message_zh : en),
                 "entry %zu zh", i);
    }
    for (size_t k = 0; k < def->module_count; k++) {
        const errcore_module_def *md = &def->modules[k];
        uint16_t id = (uint16_t)(k + 1);
        const char *en = md->title_en ? md->title_en : md->name;
        FZ_CHECK(same_text(errcore_module_name(t, id), md->name), "module %zu name", k);
        FZ_CHECK(same_text(errcore_module_title(t, id, ERRCORE_LANG_EN), en), "module %zu title", k);
        FZ_CHECK(same_text(errcore_module_title(t, id, ERRCORE_LANG_ZH_HANS), md->title_zh ? md->title_zh : en),
                 "module %zu zh title", k);
    }
    for (size_t k = 0; k < def->range_count; k++) {
        const errcore_range *g = &def->ranges[k];
        const int64_t ends[2] = {g->first, g->last};
        for (int e = 0; e < 2; e++) {
            errcore_class c = errcore_classify(t, ends[e]);
            FZ_CHECK(errcore_class_tier(c) == ERRCORE_TIER_MODULE && errcore_class_module(c) == g->module,
                     "range %zu end %lld", k, (long long)ends[e]);
        }
    }
}

/* Reports collected from errcore_check_catalog(), stopping after `stop_after` (0: never). */
typedef struct fz_reports {
    errcore_diag items[4096];
    size_t count;
    size_t stop_after;
} fz_reports;

static int fz_collect(void *context, const errcore_diag *d) {
    fz_reports *r = context;
    FZ_CHECK(r->count < sizeof r->items / sizeof r->items[0], "more reports than expected");
    r->items[r->count++] = *d;
    return r->stop_after != 0 && r->count >= r->stop_after;
}

static void fz_print_diag(const char *label, size_t i, const errcore_diag *d) {
    char line[200];
    errcore_diag_format(d, line, sizeof line);
    fprintf(stderr, "  %s %zu: %s [%s index %zu other %zu code %lld other_code %lld module %u]\n", label, i, line,
            errcore_status_name(d->status), d->index, d->other_index, (long long)d->code, (long long)d->other_code,
            (unsigned)d->module);
}

/*
 * errcore_check_catalog() over exactly-sized scratch (NULL when the counts
 * make it 0 or oversized) must report the reference's list, in order; and
 * the first k of it when told to stop after k.
 */
static void check_all_reports(const errcore_catalog_def *def, const errcore_diag *want, size_t count,
                              uint8_t stop_pick) {
    static fz_reports got;
    size_t size = 0;
    if (errcore_check_size(def, &size, NULL) != ERRCORE_OK) {
        size = 0;
    }
    void *scratch = size ? malloc(size) : NULL;
    FZ_CHECK(!size || scratch, "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        size_t stop = pass == 0 || count < 2 ? 0 : 1 + stop_pick % (count - 1);
        got.count = 0;
        got.stop_after = stop;
        errcore_status s = errcore_check_catalog(def, scratch, size, fz_collect, &got);
        size_t expect = stop ? stop : count;
        bool same = got.count == expect && s == (count ? want[0].status : ERRCORE_OK);
        for (size_t i = 0; same && i < expect; i++) {
            same = ref_same_diag(&got.items[i], &want[i]);
        }
        if (!same) {
            for (size_t i = 0; i < got.count && i < 30; i++) {
                fz_print_diag("got", i, &got.items[i]);
            }
            for (size_t i = 0; i < count && i < 30; i++) {
                fz_print_diag("want", i, &want[i]);
            }
        }
        FZ_CHECK(same, "check_catalog: %zu reports (status %s), reference %zu (stop after %zu)", got.count,
                 errcore_status_name(s), expect, stop);
        if (count == 0) {
            break;
        }
    }
    free(scratch);
}

/* The table arrays of two builds of the same definition must be byte-identical. */
static void check_same_build(const errcore_table *a, const errcore_table *b) {
    FZ_CHECK(a->entry_count == b->entry_count && a->strings_size == b->strings_size, "shape differs");
    FZ_CHECK(memcmp(a->codes, b->codes, a->entry_count * sizeof *a->codes) == 0 &&
                 memcmp(a->entries, b->entries, a->entry_count * sizeof *a->entries) == 0 &&
                 memcmp(a->strings, b->strings, a->strings_size) == 0,
             "two builds differ");
    for (size_t i = 0; i < a->range_count; i++) {
        FZ_CHECK(a->ranges[i].first == b->ranges[i].first && a->ranges[i].last == b->ranges[i].last &&
                     a->ranges[i].module == b->ranges[i].module,
                 "ranges differ");
    }
}

static void fuzz_catalog(fz_reader *r) {
    static errcore_diag want[4096];
    decoded_def *d = malloc(sizeof *d);
    FZ_CHECK(d != NULL, "out of memory");
    decode_def(r, d);
    uint8_t stop_pick = fz_u8(r);
    size_t count = ref_def_problems(&d->def, want, sizeof want / sizeof want[0]);
    FZ_CHECK(count <= sizeof want / sizeof want[0], "%zu problems", count);
    check_all_reports(&d->def, want, count, stop_pick);
    errcore_diag diag;
    memset(&diag, 0xA5, sizeof diag);
    size_t size = 0;
    errcore_status s = errcore_build_size(&d->def, &size, &diag);
    if (s != ERRCORE_OK) {
        /* Stage 0: build_size reports the reference's first problem. */
        FZ_CHECK(count > 0 && ref_stage_of(s, diag.subject) == 0 && ref_same_diag(&diag, &want[0]),
                 "build_size status %s, reference %s", errcore_status_name(s),
                 count ? errcore_status_name(want[0].status) : "none");
        free(d);
        return;
    }
    /* Exactly-sized heap storage: ASan reports any write past the size announced. */
    void *storage = malloc(size);
    FZ_CHECK(storage != NULL, "out of memory");
    errcore_table table;
    memset(&table, 0x5A, sizeof table);
    errcore_table untouched = table;
    memset(&diag, 0xA5, sizeof diag);
    s = errcore_build(&d->def, storage, size, &table, &diag);
    if (count == 0) {
        FZ_CHECK(s == ERRCORE_OK, "build status %s, the reference finds no problem", errcore_status_name(s));
    } else {
        if (s == ERRCORE_OK || !ref_same_diag(&diag, &want[0])) {
            fz_print_diag("build", 0, &diag);
            fz_print_diag("want", 0, &want[0]);
        }
        FZ_CHECK(s == want[0].status && ref_same_diag(&diag, &want[0]), "build status %s, reference's first problem %s",
                 errcore_status_name(s), errcore_status_name(want[0].status));
    }
    if (s == ERRCORE_OK) {
        FZ_CHECK(diag.status == ERRCORE_OK && diag.index == ERRCORE_NO_INDEX, "diag after OK");
        check_built(d, &table);
        void *again = malloc(size);
        FZ_CHECK(again != NULL, "out of memory");
        errcore_table second;
        FZ_CHECK(errcore_build(&d->def, again, size, &second, NULL) == ERRCORE_OK, "second build");
        check_same_build(&table, &second);
        free(again);
    } else {
        FZ_CHECK(memcmp(&table, &untouched, sizeof table) == 0, "*out written on failure");
        char line[160];
        size_t len = errcore_diag_format(&diag, line, sizeof line);
        FZ_CHECK(len > 0 && strlen(line) == (len < sizeof line ? len : sizeof line - 1), "diag text");
    }
    /* One byte short: BUFFER_TOO_SMALL with both sizes; misaligned: MISALIGNED; *out untouched. */
    errcore_table probe = untouched;
    FZ_CHECK(errcore_build(&d->def, storage, size - 1, &probe, &diag) == ERRCORE_E_BUFFER_TOO_SMALL &&
                 diag.status == ERRCORE_E_BUFFER_TOO_SMALL && diag.code == (int64_t)size &&
                 diag.other_code == (int64_t)size - 1,
             "short storage accepted");
    unsigned char *wide = malloc(size + 8);
    FZ_CHECK(wide != NULL, "out of memory");
    size_t off = 1 + stop_pick % 7;
    FZ_CHECK(errcore_build(&d->def, wide + off, size, &probe, &diag) == ERRCORE_E_MISALIGNED && diag.code == 8 &&
                 diag.other_code == (int64_t)(((uintptr_t)wide + off) & 7u),
             "misaligned storage accepted");
    FZ_CHECK(memcmp(&probe, &untouched, sizeof probe) == 0, "*out written on failure");
    free(wide);
    free(storage);
    free(d);
}

/*
 * errcore_validate() on a table with one NULL array and a count, or one
 * count above its maximum over a real one-element array: the documented
 * status and subject, without reading the array. Also errcore_index_build()
 * with NULL arguments.
 */
static void fuzz_hostile_table(uint8_t which, uint8_t how, size_t count) {
    static const int64_t code = 1;
    static const errcore_entry entry = {0, 0, 0, 1, 1, ERRCORE_NO_STRING};
    static const errcore_module module = {1, 1, ERRCORE_NO_STRING, 0};
    static const errcore_range range = {10, 20, 1};
    static const char strings[] = "\0m";
    static const int64_t key = INT64_MIN;
    static const errcore_index_slot slot = {0, 0};
    errcore_table t;
    memset(&t, 0, sizeof t);
    errcore_subject subject = (errcore_subject)(ERRCORE_SUBJECT_ENTRY + which % 5);
    bool null_array = (how & 0x80u) != 0;
    size_t limit = subject == ERRCORE_SUBJECT_MODULE ? ERRCORE_MAX_MODULES : ERRCORE_MAX_COUNT;
    if (count == 0 || (!null_array && count <= limit)) {
        return;
    }
    switch (subject) {
    case ERRCORE_SUBJECT_ENTRY:
        /* Either array of the pair may be the NULL one. */
        t.codes = null_array && (how & 1u) ? NULL : &code;
        t.entries = null_array && !(how & 1u) ? NULL : &entry;
        t.entry_count = count;
        break;
    case ERRCORE_SUBJECT_MODULE:
        t.modules = null_array ? NULL : &module;
        t.module_count = count;
        break;
    case ERRCORE_SUBJECT_RANGE:
        t.ranges = null_array ? NULL : &range;
        t.range_count = count;
        break;
    case ERRCORE_SUBJECT_STRINGS:
        t.strings = null_array ? NULL : strings;
        t.strings_size = count;
        break;
    default:
        t.index_keys = null_array ? NULL : &key;
        t.index_slots = &slot;
        t.index_count = count;
        break;
    }
    /* Counts are checked before the index's NULL arrays (found only after the rest passed). */
    errcore_status want = subject == ERRCORE_SUBJECT_INDEX && count > ERRCORE_MAX_COUNT ? ERRCORE_E_COUNT_OVERFLOW
                          : null_array                                                  ? ERRCORE_E_NULL_ARGUMENT
                                                                                        : ERRCORE_E_COUNT_OVERFLOW;
    errcore_diag diag;
    memset(&diag, 0xA5, sizeof diag);
    errcore_status s = errcore_validate(&t, &diag);
    FZ_CHECK(s == want && diag.status == want && diag.subject == subject && diag.index == ERRCORE_NO_INDEX,
             "hostile table: status %d subject %d, want %d subject %d (count %zu)", (int)s, (int)diag.subject,
             (int)want, (int)subject, count);
    size_t out_count = 0;
    int64_t keys[4];
    errcore_index_slot slots[4];
    FZ_CHECK(errcore_index_build(NULL, keys, slots, 4, &out_count) == ERRCORE_E_NULL_ARGUMENT &&
                 errcore_index_build(&t, NULL, slots, 4, &out_count) == ERRCORE_E_NULL_ARGUMENT &&
                 errcore_index_build(&t, keys, NULL, 4, &out_count) == ERRCORE_E_NULL_ARGUMENT &&
                 errcore_index_build(&t, keys, slots, 4, NULL) == ERRCORE_E_NULL_ARGUMENT,
             "index_build NULL arguments");
}

/* NULL arrays with counts and counts above the maximums, over real (tiny) arrays. */
static void fuzz_hostile(fz_reader *r) {
    errcore_entry_def entry = {1, 0, 0, "e", NULL, NULL, NULL};
    errcore_module_def module = {"m", NULL, NULL, NULL};
    errcore_range range = {10, 20, 1};
    static const size_t counts[6] = {
        1, 2, ERRCORE_MAX_MODULES + 1u, (size_t)ERRCORE_MAX_COUNT + 1u, SIZE_MAX / 2u, SIZE_MAX,
    };
    uint8_t which = fz_u8(r);
    uint8_t how = fz_u8(r);
    size_t count = counts[how % 6];
    fuzz_hostile_table(which, how, count);
    errcore_catalog_def def = {fz_code(r), &entry, 1, &module, 1, &range, 1, NULL, 0};
    errcore_subject subject = (errcore_subject)(ERRCORE_SUBJECT_ENTRY + which % 3);
    bool null_array = (how & 0x80u) != 0;
    bool over = subject == ERRCORE_SUBJECT_MODULE ? count > ERRCORE_MAX_MODULES : count > ERRCORE_MAX_COUNT;
    if (!null_array && !over) {
        count = 1; /* a real count over a real one-element array */
    }
    switch (subject) {
    case ERRCORE_SUBJECT_ENTRY:
        def.entries = null_array ? NULL : &entry;
        def.entry_count = count;
        break;
    case ERRCORE_SUBJECT_MODULE:
        def.modules = null_array ? NULL : &module;
        def.module_count = count;
        break;
    default:
        def.ranges = null_array ? NULL : &range;
        def.range_count = count;
        break;
    }
    errcore_status want = null_array ? ERRCORE_E_NULL_ARGUMENT : over ? ERRCORE_E_COUNT_OVERFLOW : ERRCORE_OK;
    errcore_diag diag;
    size_t size = 0;
    errcore_status s = errcore_build_size(&def, &size, &diag);
    if (want != ERRCORE_OK) {
        FZ_CHECK(s == want && diag.status == want && diag.subject == subject && diag.index == ERRCORE_NO_INDEX,
                 "hostile def: status %d subject %d, want %d subject %d", (int)s, (int)diag.subject, (int)want,
                 (int)subject);
        uint64_t storage[64];
        errcore_table t;
        FZ_CHECK(errcore_build(&def, storage, sizeof storage, &t, &diag) == want, "build disagrees");
        /* Check-all reports the same (a NULL array may also be too long), needing no scratch. */
        errcore_diag problems[8];
        size_t count = ref_def_problems(&def, problems, 8);
        FZ_CHECK(count >= 1 && count <= 2 && problems[0].status == want, "reference: %zu problems", count);
        check_all_reports(&def, problems, count, how);
        return;
    }
    FZ_CHECK(s == ERRCORE_OK && size > 0, "tiny def: status %d", (int)s);
    FZ_CHECK(errcore_build_size(&def, NULL, &diag) == ERRCORE_E_NULL_ARGUMENT, "NULL out_size");
    FZ_CHECK(errcore_build_size(NULL, &size, &diag) == ERRCORE_E_NULL_ARGUMENT, "NULL def");
    errcore_table t;
    FZ_CHECK(errcore_build(&def, NULL, size, &t, &diag) == ERRCORE_E_NULL_ARGUMENT, "NULL storage");
    FZ_CHECK(errcore_validate(NULL, &diag) == ERRCORE_E_NULL_ARGUMENT, "NULL table");
}

/* A string offset for a raw table: in the pool, at or past its end, or "no string". */
static uint32_t decode_offset(fz_reader *r, size_t pool) {
    uint8_t b = fz_u8(r);
    switch (b >> 5) {
    case 0: return ERRCORE_NO_STRING;
    case 1: return (uint32_t)pool;
    case 2: return pool ? (uint32_t)(pool - 1) : 0;
    case 3: return (uint32_t)fz_u16(r) << 16 | fz_u16(r);
    default: return pool ? (uint32_t)(b % pool) : 0;
    }
}

/* Stage of a raw table's strings and reserved fields (stage 1), by brute force. */
static bool raw_strings_bad(const errcore_table *t) {
    if (t->strings_size > 0 && t->strings[t->strings_size - 1] != '\0') {
        return true;
    }
#define FZ_BAD(off, optional, is_name)                                                                                 \
    (((off) == ERRCORE_NO_STRING && (optional)) ? false                                                                \
     : (size_t)(off) >= t->strings_size         ? true                                                                 \
                                                : ((is_name) && t->strings[(off)] == '\0'))
    for (size_t i = 0; i < t->module_count; i++) {
        const errcore_module *m = &t->modules[i];
        if (FZ_BAD(m->name, false, true) || FZ_BAD(m->title_en, false, false) || FZ_BAD(m->title_zh, true, false) ||
            m->reserved != 0) {
            return true;
        }
    }
    for (size_t i = 0; i < t->entry_count; i++) {
        const errcore_entry *e = &t->entries[i];
        if (FZ_BAD(e->name, false, true) || FZ_BAD(e->message_en, false, false) || FZ_BAD(e->message_zh, true, false) ||
            e->reserved != 0) {
            return true;
        }
    }
#undef FZ_BAD
    return false;
}

/*
 * Gives the raw table an index: none, the right one (errcore_index_build),
 * the right one with one defect decoded from the bytes, or NULL arrays with
 * a count. Index arrays are exact-size allocations.
 */
static void attach_index(fz_reader *r, errcore_table *t, uint8_t mode, int64_t **keys_out,
                         errcore_index_slot **slots_out) {
    mode &= 3u;
    if (mode == 0) {
        return;
    }
    if (mode == 3) {
        t->index_count = 1 + (fz_u8(r) & 3u);
        return;
    }
    size_t capacity = ERRCORE_INDEX_CAPACITY(t->entry_count, t->range_count);
    int64_t *keys = malloc(capacity * sizeof *keys);
    errcore_index_slot *slots = malloc(capacity * sizeof *slots);
    FZ_CHECK(keys && slots, "out of memory");
    size_t count = 0;
    errcore_status s = errcore_index_build(t, keys, slots, capacity, &count);
    FZ_CHECK(s == ERRCORE_OK && count >= 1 && count <= capacity, "index_build status %d count %zu", (int)s, count);
    /* One slot short must be refused, not overrun. */
    size_t short_count = 0;
    FZ_CHECK(errcore_index_build(t, keys, slots, count - 1, &short_count) == ERRCORE_E_BUFFER_TOO_SMALL,
             "index_build accepted %zu slots for %zu", count - 1, count);
    FZ_CHECK(errcore_index_build(t, keys, slots, capacity, &count) == ERRCORE_OK, "index rebuild");
    if (mode == 2) {
        size_t at = fz_u8(r) % count;
        uint8_t defect = fz_u8(r);
        switch (defect & 7u) {
        case 0: slots[at].hit ^= (uint64_t)1 << (defect >> 2); break;
        case 1: slots[at].gap ^= (uint64_t)1 << (defect >> 2); break;
        case 2: keys[at] = add_saturating(keys[at], 1); break;
        case 3: keys[at] = add_saturating(keys[at], -1); break;
        case 4: /* drop one key */
            memmove(&keys[at], &keys[at + 1], (count - at - 1) * sizeof *keys);
            memmove(&slots[at], &slots[at + 1], (count - at - 1) * sizeof *slots);
            count--;
            break;
        case 5: count = at + 1; break; /* truncate */
        case 6: keys[at] = fz_code(r); break;
        default: slots[at].gap = slots[at].hit; break;
        }
    }
    if (count == 0) {
        free(keys);
        free(slots);
        return;
    }
    /* Shrink to exactly `count` elements so ASan sees any read past the index. */
    int64_t *exact_keys = malloc(count * sizeof *exact_keys);
    errcore_index_slot *exact_slots = malloc(count * sizeof *exact_slots);
    FZ_CHECK(exact_keys && exact_slots, "out of memory");
    memcpy(exact_keys, keys, count * sizeof *keys);
    memcpy(exact_slots, slots, count * sizeof *slots);
    free(keys);
    free(slots);
    t->index_keys = exact_keys;
    t->index_slots = exact_slots;
    t->index_count = count;
    *keys_out = exact_keys;
    *slots_out = exact_slots;
}

/* Prints a raw table and the diagnostic to stderr (shown with a failed check). */
static void dump_table(const errcore_table *t, const errcore_diag *d) {
    fprintf(stderr, "table: success %lld, %zu entries, %zu modules, %zu ranges, %zu pool bytes, %zu index keys\n",
            (long long)t->success_code, t->entry_count, t->module_count, t->range_count, t->strings_size,
            t->index_count);
    for (size_t i = 0; i < t->entry_count; i++) {
        fprintf(stderr, "  entry %zu: code %lld module %u flags 0x%02x\n", i, (long long)t->codes[i],
                (unsigned)t->entries[i].module, (unsigned)t->entries[i].flags);
    }
    for (size_t i = 0; i < t->range_count; i++) {
        fprintf(stderr, "  range %zu: [%lld, %lld] module %u\n", i, (long long)t->ranges[i].first,
                (long long)t->ranges[i].last, (unsigned)t->ranges[i].module);
    }
    for (size_t i = 0; t->index_keys && i < t->index_count; i++) {
        fprintf(stderr, "  key %zu: %lld hit %016llx gap %016llx\n", i, (long long)t->index_keys[i],
                (unsigned long long)t->index_slots[i].hit, (unsigned long long)t->index_slots[i].gap);
    }
    char line[200];
    errcore_diag_format(d, line, sizeof line);
    fprintf(stderr, "  diag: %s (index %zu, code %lld)\n", line, d->index, (long long)d->code);
}

static void fuzz_raw_table(fz_reader *r) {
    size_t pool = fz_u8(r) % 24u;
    size_t m = fz_u8(r) % 5u;
    size_t want_r = fz_u8(r) % 9u;
    size_t want_n = fz_u8(r) % 25u;
    uint8_t shape = fz_u8(r);
    /* Every array is its own exact-size allocation so that ASan catches any read past it. */
    char *strings = pool ? malloc(pool) : NULL;
    errcore_module *modules = m ? malloc(m * sizeof *modules) : NULL;
    errcore_range *ranges = malloc((want_r ? want_r : 1) * sizeof *ranges);
    int64_t *codes = malloc((want_n ? want_n : 1) * sizeof *codes);
    errcore_entry *entries = malloc((want_n ? want_n : 1) * sizeof *entries);
    uint16_t *entry_module = malloc((want_n ? want_n : 1) * sizeof *entry_module);
    FZ_CHECK(ranges && codes && entries && entry_module && (!pool || strings) && (!m || modules), "out of memory");
    for (size_t i = 0; i < pool; i++) {
        strings[i] = (char)(fz_u8(r) & 0x7F);
    }
    if (pool && (shape & 1u)) {
        strings[pool - 1] = '\0';
    }
    for (size_t i = 0; i < m; i++) {
        modules[i].name = decode_offset(r, pool);
        modules[i].title_en = decode_offset(r, pool);
        modules[i].title_zh = decode_offset(r, pool);
        modules[i].reserved = fz_u8(r) == 0xFF ? 1u : 0u;
    }
    size_t nr = 0, n = 0;
    for (; nr < want_r && fz_left(r) > 0; nr++) {
        uint8_t b = fz_u8(r);
        /* Ascending by construction half the time, so later stages are reached. */
        ranges[nr].first = (nr > 0 && (b & 1u)) ? add_saturating(ranges[nr - 1].last, (b >> 1) & 7) : fz_code(r);
        ranges[nr].last = add_saturating(ranges[nr].first, (int64_t)(fz_u8(r) & 15u) - 1);
        ranges[nr].module = (uint16_t)(fz_u8(r) % (m + 2));
    }
    for (; n < want_n && fz_left(r) > 0; n++) {
        uint8_t b = fz_u8(r);
        codes[n] = (n > 0 && (b & 1u)) ? add_saturating(codes[n - 1], (b >> 1) & 3) : fz_code(r);
        entries[n].module = (uint16_t)(fz_u8(r) % (m + 2));
        entries[n].flags = fz_u8(r);
        entries[n].reserved = fz_u8(r) == 0xFF ? 1u : 0u;
        entries[n].name = decode_offset(r, pool);
        entries[n].message_en = decode_offset(r, pool);
        entries[n].message_zh = decode_offset(r, pool);
        entry_module[n] = entries[n].module;
    }
    errcore_table t;
    memset(&t, 0, sizeof t);
    t.codes = codes;
    t.entries = entries;
    t.entry_count = n;
    t.modules = modules;
    t.module_count = m;
    t.ranges = ranges;
    t.range_count = nr;
    t.strings = strings;
    t.strings_size = pool;
    t.success_code = fz_code(r);
    ref_flat flat;
    FZ_CHECK(ref_flat_of_table(&flat, &t), "out of memory");
    int want = raw_strings_bad(&t) ? 1 : ref_table_stage(&flat.c);
    int64_t *index_keys = NULL;
    errcore_index_slot *index_slots = NULL;
    attach_index(r, &t, shape >> 1, &index_keys, &index_slots);
    if (want == REF_STAGE_NONE && !ref_index_ok(&t, &flat.c)) {
        want = REF_STAGE_INDEX;
    }
    errcore_diag diag;
    memset(&diag, 0xA5, sizeof diag);
    errcore_status s = errcore_validate(&t, &diag);
    FZ_CHECK(diag.status == s, "diag status %d, returned %d", (int)diag.status, (int)s);
    int got = ref_stage_of(s, diag.subject);
    if (got != want) {
        dump_table(&t, &diag);
    }
    FZ_CHECK(got == want, "validate status %d (%s) is stage %d, reference says stage %d", (int)s,
             errcore_status_name(s), got, want);
    if (s == ERRCORE_OK) {
        for (size_t i = 0; i < n + nr; i++) {
            int64_t probe[3];
            if (i < n) {
                probe[0] = codes[i], probe[1] = add_saturating(codes[i], 1), probe[2] = t.success_code;
            } else {
                probe[0] = ranges[i - n].first, probe[1] = ranges[i - n].last;
                probe[2] = add_saturating(ranges[i - n].last, 1);
            }
            for (int k = 0; k < 3; k++) {
                errcore_class c = errcore_classify(&t, probe[k]);
                FZ_CHECK(c == ref_class(&flat.c, probe[k]), "classify code %lld: %016llx", (long long)probe[k],
                         (unsigned long long)c);
            }
        }
        char buf[16];
        for (size_t i = 0; i < n; i++) {
            (void)errcore_describe(&t, codes[i], (errcore_lang)(i & 1u), buf, sizeof buf);
        }
    } else if (got == 1) {
        if (diag.subject == ERRCORE_SUBJECT_ENTRY) {
            FZ_CHECK(diag.index < n, "entry index %zu of %zu", diag.index, n);
        } else if (diag.subject == ERRCORE_SUBJECT_MODULE) {
            FZ_CHECK(diag.index < m, "module index %zu of %zu", diag.index, m);
        } else {
            FZ_CHECK(diag.subject == ERRCORE_SUBJECT_STRINGS && s == ERRCORE_E_BAD_STRING && diag.index == pool - 1,
                     "strings diag");
        }
    } else {
        const char *why = ref_table_diag_fault(&diag, &flat.c);
        FZ_CHECK(why == NULL, "validate %s: %s", errcore_status_name(s), why);
    }
    ref_flat_free(&flat);
    free(index_keys);
    free(index_slots);
    free(strings);
    free(modules);
    free(ranges);
    free(codes);
    free(entries);
    free(entry_module);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_reader r = fz_make(data, size);
    switch (fz_u8(&r) & 3u) {
    case 0:
    case 1: fuzz_catalog(&r); break;
    case 2: fuzz_hostile(&r); break;
    default: fuzz_raw_table(&r); break;
    }
    return 0;
}

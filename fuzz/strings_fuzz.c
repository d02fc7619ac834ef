/*
 * strings_fuzz.c — libFuzzer target: string tables (errcore_strings.h).
 *
 * A string definition is decoded from the bytes, over a small fixed table
 * (entries 1 ... 6; modules 1 and 2): up to 7 namespaces (names of 0 to 6
 * bytes, module ids up to 3) and up to 80 codes (0 to 14 bytes, namespaces
 * up to one past the last, entry codes that exist or not). Each kind of
 * mistake (an empty name, a repeat, an undeclared namespace or module, an
 * unknown code) comes from one byte value in 16 to 256, so that most inputs
 * build and each rejection is still reached.
 * errcore_string_build() must either reject the definition with a
 * diagnostic that names a real culprit of the status it gives, or build a
 * table that errcore_string_validate() accepts and that classifies every
 * code, each with a byte changed, one byte more and one less, in every
 * namespace, and strings from the rest of the bytes exactly as the linear
 * reference (Tests/CErrCoreTests/c/reference.h) does. Then the lookup's
 * derived part is corrupted (a bit of a bucket's displacement, the seed
 * with the keys it derives, or one key alone): errcore_string_validate()
 * must reject it or the table must still
 * classify every probe right. (The slots and namespaces are the
 * definition's data: a table with other data is valid, for another
 * definition.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CErrCore.h"
#include "fuzz_bytes.h"
#include "fuzz_check.h"
#include "reference.h"

#define MAX_SPACES 7
#define MAX_CODES  80

static const errcore_table *fixed_table(void) {
    static errcore_table table;
    static _Alignas(8) unsigned char storage[8192];
    static int built;
    if (!built) {
        static const errcore_entry_def entries[] = {
            {1, 0, 0, "one", "One", NULL, NULL},     {2, 0, ERRCORE_FLAG_REAUTH, "two", "Two", NULL, NULL},
            {3, 1, 0, "three", "Three", NULL, NULL}, {4, 1, ERRCORE_FLAG_RETRYABLE, "four", "Four", NULL, NULL},
            {5, 2, 0, "five", "Five", NULL, NULL},   {6, 2, ERRCORE_FLAG_FATAL, "six", "Six", NULL, NULL},
        };
        static const errcore_module_def modules[] = {{"m1", NULL, NULL, NULL}, {"m2", NULL, NULL, NULL}};
        static const errcore_range ranges[] = {{3, 4, 1}, {5, 6, 2}};
        errcore_catalog_def def = {0, entries, 6, modules, 2, ranges, 2, NULL, 0};
        FZ_CHECK(errcore_build(&def, storage, sizeof storage, &table, NULL) == ERRCORE_OK, "the fixed table builds");
        built = 1;
    }
    return &table;
}

typedef struct decoded_strings {
    errcore_string_space_def spaces[MAX_SPACES];
    errcore_string_code_def codes[MAX_CODES];
    char bytes[MAX_SPACES * 6 + MAX_CODES * 14];
    errcore_string_def def;
} decoded_strings;

static void decode(fz_reader *r, decoded_strings *d) {
    size_t at = 0;
    d->def.spaces = d->spaces;
    d->def.space_count = fz_u8(r) % (MAX_SPACES + 1);
    for (size_t k = 0; k < d->def.space_count; k++) {
        uint8_t shape = fz_u8(r);
        d->spaces[k].length = shape % 16 == 0 ? 0 : 1 + shape % 6;
        d->spaces[k].name = d->bytes + at;
        for (size_t i = 0; i < d->spaces[k].length; i++) {
            d->bytes[at++] = (char)(fz_u8(r) % 4); /* few letters: repeats are common */
        }
        uint8_t module = fz_u8(r);
        d->spaces[k].module = (uint16_t)(module == 255 ? 3 : module % 3);
    }
    d->def.codes = d->codes;
    d->def.code_count = fz_u8(r) % (MAX_CODES + 1);
    for (size_t c = 0; c < d->def.code_count; c++) {
        uint8_t shape = fz_u8(r);
        d->codes[c].length = shape % 32 == 0 ? 0 : 1 + shape % 14;
        d->codes[c].code = d->bytes + at;
        for (size_t i = 0; i < d->codes[c].length; i++) {
            d->bytes[at++] = (char)((shape & 0x40u) ? fz_u8(r) % 3 : fz_u8(r)); /* few letters: repeats */
        }
        uint8_t space = fz_u8(r), entry = fz_u8(r);
        d->codes[c].space = space == 255 ? d->def.space_count + 1 : space % (d->def.space_count + 1);
        d->codes[c].entry_code = entry == 255 ? 7 : entry == 254 ? 0 : 1 + entry % 6;
    }
}

static int equal_bytes(const char *a, size_t a_length, const char *b, size_t b_length) {
    return a_length == b_length && (a_length == 0 || memcmp(a, b, a_length) == 0);
}

/* The diagnostic of a rejected definition names a real culprit. */
FZ_HARNESS static void check_rejection(const decoded_strings *d, errcore_status status, const errcore_diag *diag) {
    const errcore_string_def *def = &d->def;
    size_t i = diag->index, j = diag->other_index;
    int space = diag->subject == ERRCORE_SUBJECT_STRING_SPACE;
    switch (status) {
    case ERRCORE_E_EMPTY_NAME:
        FZ_CHECK(space ? i < def->space_count && def->spaces[i].length == 0
                       : i < def->code_count && def->codes[i].length == 0,
                 "empty name %zu", i);
        break;
    case ERRCORE_E_UNDECLARED_MODULE:
        FZ_CHECK(space && i < def->space_count && def->spaces[i].module > 2, "undeclared module %zu", i);
        break;
    case ERRCORE_E_DUPLICATE_STRING:
        FZ_CHECK(j < i, "the first comes before the repeat: %zu %zu", j, i);
        if (space) {
            FZ_CHECK(i < def->space_count && equal_bytes(def->spaces[i].name, def->spaces[i].length,
                                                         def->spaces[j].name, def->spaces[j].length),
                     "namespaces %zu and %zu differ", j, i);
        } else {
            FZ_CHECK(
                i < def->code_count && def->codes[i].space == def->codes[j].space &&
                    equal_bytes(def->codes[i].code, def->codes[i].length, def->codes[j].code, def->codes[j].length),
                "codes %zu and %zu differ", j, i);
        }
        break;
    case ERRCORE_E_UNDECLARED_SPACE:
        FZ_CHECK(i < def->code_count && def->codes[i].space > def->space_count, "code %zu's namespace", i);
        break;
    case ERRCORE_E_UNKNOWN_CODE:
        FZ_CHECK(i < def->code_count && (def->codes[i].entry_code < 1 || def->codes[i].entry_code > 6),
                 "code %zu's entry", i);
        break;
    default: FZ_CHECK(0, "unexpected status %s", errcore_status_name(status));
    }
}

/* Every probe classifies as the reference says. */
FZ_HARNESS static void check_probes(const errcore_string_table *t, const decoded_strings *d, fz_reader *r) {
    const errcore_table *table = fixed_table();
    const errcore_string_def *def = &d->def;
    char probe[16];
    for (size_t c = 0; c < def->code_count; c++) {
        for (size_t space = 0; space <= def->space_count; space++) {
            const char *name = space ? def->spaces[space - 1].name : NULL;
            size_t name_length = space ? def->spaces[space - 1].length : 0;
            for (int variant = 0; variant < 4; variant++) {
                size_t length = def->codes[c].length;
                memcpy(probe, def->codes[c].code, length);
                if (variant == 1 && length > 0) {
                    probe[fz_u8(r) % length] ^= (char)(1 + fz_u8(r) % 255);
                } else if (variant == 2) {
                    probe[length++] = (char)fz_u8(r);
                } else if (variant == 3 && length > 0) {
                    length--;
                }
                errcore_class got = errcore_classify_string(t, name, name_length, probe, length);
                errcore_class want = ref_classify_string(table, def, name, name_length, probe, length);
                FZ_CHECK(got == want, "code %zu variant %d in namespace %zu: %llx, want %llx", c, variant, space,
                         (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
    while (fz_left(r) > 0) {
        size_t length = fz_u8(r) % 15;
        for (size_t i = 0; i < length; i++) {
            probe[i] = (char)fz_u8(r);
        }
        size_t space = fz_u8(r) % (def->space_count + 1);
        const char *name = space ? def->spaces[space - 1].name : NULL;
        size_t name_length = space ? def->spaces[space - 1].length : 0;
        FZ_CHECK(errcore_classify_string(t, name, name_length, probe, length) ==
                     ref_classify_string(table, def, name, name_length, probe, length),
                 "a probe of %zu bytes", length);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_reader r = fz_make(data, size);
    decoded_strings d;
    memset(&d, 0, sizeof d);
    decode(&r, &d);
    const errcore_table *table = fixed_table();
    size_t need = 0;
    FZ_CHECK(errcore_string_build_size(&d.def, &need, NULL) == ERRCORE_OK, "the size of a small definition");
    unsigned char *storage = malloc(need + 8);
    errcore_string_table t;
    errcore_diag diag;
    errcore_status status = errcore_string_build(table, &d.def, storage, need, &t, &diag);
    if (status != ERRCORE_OK) {
        FZ_CHECK(diag.status == status, "the diagnostic's status");
        check_rejection(&d, status, &diag);
        free(storage);
        return 0;
    }
    FZ_CHECK(errcore_string_validate(table, &t, &diag) == ERRCORE_OK, "a built table validates: %s",
             errcore_status_name(diag.status));
    fz_reader probes = r;
    check_probes(&t, &d, &probes);
    /* A displacement, the seed (with its keys) or one key changed: rejected, or still right. */
    if (t.slots != NULL && fz_left(&r) > 2) {
        size_t buckets = (size_t)1 << (32u - t.bucket_shift);
        uint8_t which = fz_u8(&r);
        if (which % 3u == 0) {
            ((uint32_t *)(void *)(storage + ((const unsigned char *)t.buckets - storage)))[(which / 3u) % buckets] ^=
                (uint32_t)1 << (fz_u8(&r) % 32u);
        } else if (which % 3u == 1) {
            t.seed ^= (uint64_t)1 << (fz_u8(&r) % 64u);
            errcore_string_keys(t.seed, t.keys);
        } else {
            t.keys[(which / 3u) % ERRCORE_STRING_KEY_COUNT] ^= (uint64_t)1 << (fz_u8(&r) % 64u);
        }
        if (errcore_string_validate(table, &t, NULL) == ERRCORE_OK) {
            fz_reader again = r;
            check_probes(&t, &d, &again);
        }
    }
    free(storage);
    return 0;
}

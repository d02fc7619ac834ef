/* test_strings.c — string codes: the lookup against a linear reference, every build error, validation. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "reference.h"

/* A string table built into malloc'd storage. */
typedef struct built_strings {
    errcore_string_table t;
    void *storage;
    size_t size;
    errcore_status status;
    errcore_diag diag;
} built_strings;

static built_strings build_strings(const errcore_table *table, const errcore_string_def *def) {
    built_strings b;
    memset(&b, 0, sizeof b);
    b.status = errcore_string_build_size(def, &b.size, &b.diag);
    if (b.status == ERRCORE_OK) {
        b.storage = malloc(b.size + 8);
        b.status = errcore_string_build(table, def, b.storage, b.size, &b.t, &b.diag);
    }
    return b;
}

/* The fixture table (modules alpha = 1, beta = 2) with four string codes in three namespaces. */
typedef struct string_fixture {
    fixture f;
    errcore_string_space_def spaces[2];
    errcore_string_code_def codes[5];
    errcore_string_def def;
} string_fixture;

static void string_fixture_init(string_fixture *s) {
    fixture_init(&s->f);
    CHECK(fixture_build(&s->f) == ERRCORE_OK);
    const errcore_string_space_def spaces[2] = {{"googleapis.com", 14, 1}, {"stripe", 6, 0}};
    const errcore_string_code_def codes[5] = {
        {"card_declined", 13, 0, 550},    {"API_KEY_INVALID", 15, 1, 150}, {"a\0b", 3, 2, 10},
        {"channel_not_found", 17, 0, 11}, {"card_declined", 13, 2, 350},
    };
    memcpy(s->spaces, spaces, sizeof spaces);
    memcpy(s->codes, codes, sizeof codes);
    s->def.spaces = s->spaces;
    s->def.space_count = 2;
    s->def.codes = s->codes;
    s->def.code_count = 5;
}

static errcore_class module_class(uint16_t module) {
    return ((uint64_t)ERRCORE_TIER_MODULE << 56) | ((uint64_t)module << 32) | ERRCORE_NO_ENTRY;
}

static void test_lookup(void) {
    string_fixture s;
    string_fixture_init(&s);
    built_strings b = build_strings(&s.f.table, &s.def);
    CHECK(b.status == ERRCORE_OK);
    CHECK(errcore_string_validate(&s.f.table, &b.t, NULL) == ERRCORE_OK);
    const errcore_table *t = &s.f.table;
    const errcore_string_table *st = &b.t;
    CHECK(errcore_classify_string(st, NULL, 0, "card_declined", 13) == errcore_classify(t, 550));
    CHECK(errcore_classify_string(st, "stripe", 6, "card_declined", 13) == errcore_classify(t, 350));
    CHECK(errcore_classify_string(st, "googleapis.com", 14, "API_KEY_INVALID", 15) == errcore_classify(t, 150));
    CHECK(errcore_classify_string(st, "stripe", 6, "a\0b", 3) == errcore_classify(t, 10));
    CHECK(errcore_classify_string(st, NULL, 0, "channel_not_found", 17) == errcore_classify(t, 11));
    CHECK(errcore_class_entry(errcore_classify_string(st, NULL, 0, "channel_not_found", 17)) != ERRCORE_NO_ENTRY);
    /* Unlisted: the owner's, unrecognised, in an owned namespace; unknown elsewhere. */
    CHECK(errcore_classify_string(st, "googleapis.com", 14, "QUOTA_EXCEEDED", 14) == module_class(1));
    CHECK(errcore_classify_string(st, "googleapis.com", 14, "api_key_invalid", 15) == module_class(1));
    CHECK(errcore_classify_string(st, "stripe", 6, "channel_not_found", 17) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, NULL, 0, "API_KEY_INVALID", 15) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, "example.com", 11, "API_KEY_INVALID", 15) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, "googleapis.co", 13, "API_KEY_INVALID", 15) == ERRCORE_CLASS_UNKNOWN);
    /* Bytes, not C strings: a NUL inside counts, a prefix or one more byte is another string. */
    CHECK(errcore_classify_string(st, "stripe", 6, "a", 1) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, "stripe", 6, "a\0bc", 4) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, "stripe", 6, "a\0c", 3) == ERRCORE_CLASS_UNKNOWN);
    /* Empty and overlong strings and namespaces are not codes. */
    CHECK(errcore_classify_string(st, NULL, 0, NULL, 0) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, "googleapis.com", 14, "", 0) == ERRCORE_CLASS_UNKNOWN);
    char *huge = calloc(1, (size_t)ERRCORE_MAX_STRING_LENGTH + 2);
    memcpy(huge, "card_declined", 13);
    CHECK(errcore_classify_string(st, NULL, 0, huge, (size_t)ERRCORE_MAX_STRING_LENGTH + 1) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(st, huge, (size_t)ERRCORE_MAX_STRING_LENGTH + 1, "card_declined", 13) ==
          ERRCORE_CLASS_UNKNOWN);
    free(huge);
    /* A table of no string codes: every lookup misses, an owned namespace still answers. */
    errcore_string_def only_spaces = s.def;
    only_spaces.code_count = 0;
    built_strings e = build_strings(&s.f.table, &only_spaces);
    CHECK(e.status == ERRCORE_OK && e.t.slots == NULL && e.t.code_count == 0);
    CHECK(errcore_string_validate(&s.f.table, &e.t, NULL) == ERRCORE_OK);
    CHECK(errcore_classify_string(&e.t, NULL, 0, "card_declined", 13) == ERRCORE_CLASS_UNKNOWN);
    CHECK(errcore_classify_string(&e.t, "googleapis.com", 14, "x", 1) == module_class(1));
    errcore_string_table zero;
    memset(&zero, 0, sizeof zero);
    CHECK(errcore_string_validate(&s.f.table, &zero, NULL) == ERRCORE_OK);
    CHECK(errcore_classify_string(&zero, NULL, 0, "card_declined", 13) == ERRCORE_CLASS_UNKNOWN);
    free(e.storage);
    free(b.storage);
}

/* The build of a mutated fixture: its status and diagnostic. */
static built_strings build_mutated(string_fixture *s) {
    return build_strings(&s->f.table, &s->def);
}

static void expect_build_error(string_fixture *s, errcore_status status, errcore_subject subject, size_t index,
                               size_t other_index, const char *what) {
    built_strings b = build_mutated(s);
    CHECKF(b.status == status && b.diag.status == status && b.diag.subject == subject && b.diag.index == index &&
               b.diag.other_index == other_index,
           "%s: status %s subject %d index %zu other %zu", what, errcore_status_name(b.status), (int)b.diag.subject,
           b.diag.index, b.diag.other_index);
    free(b.storage);
}

static void test_build_errors(void) {
    string_fixture s;
    const errcore_subject SPACE = ERRCORE_SUBJECT_STRING_SPACE, CODE = ERRCORE_SUBJECT_STRING_CODE;
    string_fixture_init(&s);
    s.spaces[1].length = 0;
    s.codes[3].length = 0;
    expect_build_error(&s, ERRCORE_E_EMPTY_NAME, SPACE, 1, ERRCORE_NO_INDEX, "empty namespace first");
    string_fixture_init(&s);
    s.codes[3].length = 0;
    expect_build_error(&s, ERRCORE_E_EMPTY_NAME, CODE, 3, ERRCORE_NO_INDEX, "empty code");
    string_fixture_init(&s);
    s.spaces[0].module = 3;
    expect_build_error(&s, ERRCORE_E_UNDECLARED_MODULE, SPACE, 0, ERRCORE_NO_INDEX, "namespace of module 3");
    string_fixture_init(&s);
    s.spaces[0].name = "stripe";
    s.spaces[0].length = 6;
    expect_build_error(&s, ERRCORE_E_DUPLICATE_STRING, SPACE, 1, 0, "namespace twice");
    string_fixture_init(&s);
    s.codes[4].space = 0; /* card_declined twice in the table's own namespace: index 4 repeats 0 */
    expect_build_error(&s, ERRCORE_E_DUPLICATE_STRING, CODE, 4, 0, "code twice");
    string_fixture_init(&s);
    s.codes[1] = s.codes[3]; /* channel_not_found at 1 and 3, card_declined at 0 and 4: the repeat at 3 first */
    s.codes[4].space = 0;
    expect_build_error(&s, ERRCORE_E_DUPLICATE_STRING, CODE, 3, 1, "the earliest repeat");
    string_fixture_init(&s);
    s.codes[2].space = 3;
    expect_build_error(&s, ERRCORE_E_UNDECLARED_SPACE, CODE, 2, ERRCORE_NO_INDEX, "namespace 3");
    string_fixture_init(&s);
    s.codes[3].entry_code = 12; /* no entry has 12; 150 is alpha's, inside its range */
    built_strings b = build_mutated(&s);
    CHECK(b.status == ERRCORE_E_UNKNOWN_CODE && b.diag.index == 3 && b.diag.code == 12);
    free(b.storage);
    string_fixture_init(&s);
    s.codes[2].length = (size_t)ERRCORE_MAX_STRING_LENGTH + 1;
    size_t size = 0;
    errcore_diag d;
    CHECK(errcore_string_build_size(&s.def, &size, &d) == ERRCORE_E_COUNT_OVERFLOW && d.subject == CODE &&
          d.index == 2);
    string_fixture_init(&s);
    s.spaces[1].name = NULL;
    CHECK(errcore_string_build_size(&s.def, &size, &d) == ERRCORE_E_NULL_ARGUMENT && d.subject == SPACE &&
          d.index == 1);
    CHECK(errcore_string_build_size(NULL, &size, &d) == ERRCORE_E_NULL_ARGUMENT);
    string_fixture_init(&s);
    CHECK(errcore_string_build_size(&s.def, &size, NULL) == ERRCORE_OK);
    void *storage = malloc(size + 8);
    errcore_string_table out;
    CHECK(errcore_string_build(&s.f.table, &s.def, storage, size - 1, &out, &d) == ERRCORE_E_BUFFER_TOO_SMALL &&
          d.code == (int64_t)size && d.other_code == (int64_t)size - 1);
    CHECK(errcore_string_build(&s.f.table, &s.def, (char *)storage + 4, size, &out, &d) == ERRCORE_E_MISALIGNED &&
          d.other_code == 4);
    CHECK(errcore_string_build(NULL, &s.def, storage, size, &out, &d) == ERRCORE_E_NULL_ARGUMENT);
    free(storage);
    /* Every status has its text. */
    for (int v = ERRCORE_E_DUPLICATE_STRING; v <= ERRCORE_E_BAD_STRINGS; v++) {
        CHECK(strcmp(errcore_status_string((errcore_status)v), "unknown status") != 0);
    }
    errcore_diag dup = {ERRCORE_E_DUPLICATE_STRING, CODE, 4, 0, 0, 0, 0};
    char text[160];
    errcore_diag_format(&dup, text, sizeof text);
    CHECKF(strcmp(text, "duplicate string code or namespace: string code 4 (code 0) repeats string code 0") == 0, "%s",
           text);
}

/* Two builds of one definition into storage holding different bytes give the same bytes. */
static void test_deterministic(void) {
    string_fixture s;
    string_fixture_init(&s);
    size_t size = 0;
    CHECK(errcore_string_build_size(&s.def, &size, NULL) == ERRCORE_OK);
    unsigned char *a = malloc(size), *b = malloc(size);
    memset(a, 0x00, size);
    memset(b, 0xA5, size);
    errcore_string_table ta, tb;
    CHECK(errcore_string_build(&s.f.table, &s.def, a, size, &ta, NULL) == ERRCORE_OK);
    CHECK(errcore_string_build(&s.f.table, &s.def, b, size, &tb, NULL) == ERRCORE_OK);
    CHECK(memcmp(a, b, size) == 0);
    CHECK(ta.seed == tb.seed && ta.slot_mask == tb.slot_mask);
    free(a);
    free(b);
    /* The hash is a function of the bytes' values: pinned, since generated tables depend on it. */
    const unsigned char text[] = "card_declined and more bytes";
    unsigned char moved[40];
    memcpy(moved + 3, text, sizeof text);
    CHECK(errcore_string_hash(7, 2, text, sizeof text - 1) == errcore_string_hash(7, 2, moved + 3, sizeof text - 1));
    /*
     * One string on each of the hash's paths: none, 1 to 7 bytes, 8 to 16, 17 to 32, longer. The
     * same values come from the 128-bit multiplication and from the four 32-bit ones that 32-bit
     * targets use (make test-portable-multiply runs this group on those).
     */
    static const struct {
        uint64_t seed;
        uint32_t space;
        const char *text;
        uint64_t hash;
    } pinned[] = {
        {1, 0, "", 0xEA59A1ABDBF498B2ull},
        {9, 3, "ok_go", 0x219B2FEB4C794F17ull},
        {0, 0, "card_declined", 0xA0B84D4E399F8DF0ull},
        {0x5EED, 1, "PERMISSION_DENIED", 0x83D0D14BB7AC64FDull},
        {2, 0, "abcdefghijklmnopqrstuvwxyz012345", 0x1D3D53FD5D528B76ull},
        {0xFFFFFFFFFFFFFFFFull, 65535, "payment_intent_incompatible_payment_method and seventy bytes in total!",
         0xEB26B75BCA2A4BE7ull},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        uint64_t hash = errcore_string_hash(pinned[i].seed, pinned[i].space, (const unsigned char *)pinned[i].text,
                                            strlen(pinned[i].text));
        CHECKF(hash == pinned[i].hash, "\"%s\": %016llx", pinned[i].text, (unsigned long long)hash);
    }
    CHECK(errcore_string_hash(0, 0, (const unsigned char *)"a", 1) !=
          errcore_string_hash(0, 1, (const unsigned char *)"a", 1));
    /*
     * Namespace 1 and a string whose byte 5 is one bit lower than another's in namespace 0: a hash
     * that folds the namespace in linearly gives both the same value under every seed, and the
     * table cannot be built.
     */
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    const errcore_string_space_def spaces[1] = {{"s", 1, 0}};
    const errcore_string_code_def codes[2] = {{"\0\0\1\1\2\0\2", 7, 1, 10}, {"\0\0\1\1\2\1\2", 7, 0, 11}};
    errcore_string_def def = {spaces, 1, codes, 2};
    built_strings both = build_strings(&f.table, &def);
    CHECK(both.status == ERRCORE_OK);
    CHECK(both.status == ERRCORE_OK &&
          errcore_classify_string(&both.t, "s", 1, codes[0].code, 7) == errcore_classify(&f.table, 10));
    CHECK(both.status == ERRCORE_OK &&
          errcore_classify_string(&both.t, NULL, 0, codes[1].code, 7) == errcore_classify(&f.table, 11));
    free(both.storage);
}

/* A validated table, then one corruption at a time: each must be found. */
static void test_strings_validate(void) {
    string_fixture s;
    string_fixture_init(&s);
    built_strings b = build_strings(&s.f.table, &s.def);
    CHECK(b.status == ERRCORE_OK);
    errcore_string_table t = b.t;
    errcore_diag d;
    size_t slots = (size_t)t.slot_mask + 1;
    errcore_string_slot *copy = malloc(slots * sizeof *copy);
    memcpy(copy, t.slots, slots * sizeof *copy);
    size_t listed = 0;
    while (copy[listed].length == 0) {
        listed++;
    }
    t.slots = copy;
    copy[listed].key_class ^= (uint64_t)ERRCORE_FLAG_RETRYABLE << 48;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == listed);
    memcpy(copy, b.t.slots, slots * sizeof *copy);
    copy[listed].key += 1; /* other bytes: it no longer sits at its position (or runs past the bytes) */
    errcore_status status = errcore_string_validate(&s.f.table, &t, &d);
    CHECK((status == ERRCORE_E_BAD_STRINGS || status == ERRCORE_E_BAD_STRING) && d.index == listed);
    memcpy(copy, b.t.slots, slots * sizeof *copy);
    copy[listed].key = (uint32_t)t.bytes_size;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRING && d.index == listed);
    memcpy(copy, b.t.slots, slots * sizeof *copy);
    copy[listed].space = 3;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == listed);
    memcpy(copy, b.t.slots, slots * sizeof *copy);
    t.code_count = 4;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == ERRCORE_NO_INDEX &&
          d.code == 5);
    t = b.t;
    t.slot_mask = 6;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == ERRCORE_NO_INDEX);
    t = b.t;
    t.bucket_shift = 33;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS);
    t = b.t;
    t.buckets = NULL;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_NULL_ARGUMENT);
    /* The keys the lookup hashes with are the seed's: a built table's are, and one that differs is found. */
    uint64_t keys[ERRCORE_STRING_KEY_COUNT];
    errcore_string_keys(b.t.seed, keys);
    CHECK(memcmp(keys, b.t.keys, sizeof keys) == 0);
    errcore_string_keys(b.t.seed, NULL);
    for (size_t k = 0; k < ERRCORE_STRING_KEY_COUNT; k++) {
        t = b.t;
        t.keys[k] ^= (uint64_t)1 << (13u * k);
        CHECKF(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == k &&
                   d.subject == ERRCORE_SUBJECT_NONE && d.code == (int64_t)t.keys[k],
               "key %zu: %s at %zu", k, errcore_status_name(d.status), d.index);
    }
    t = b.t;
    t.seed ^= 1u; /* a seed whose keys the table does not hold */
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS && d.index == 0);
    t = b.t;
    errcore_string_space spaces[2];
    memcpy(spaces, b.t.spaces, sizeof spaces);
    t.spaces = spaces;
    spaces[0] = b.t.spaces[1];
    spaces[1] = b.t.spaces[0];
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_UNSORTED && d.index == 1 && d.other_index == 0);
    spaces[0] = b.t.spaces[1];
    spaces[1] = b.t.spaces[1];
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_DUPLICATE_STRING && d.index == 1);
    memcpy(spaces, b.t.spaces, sizeof spaces);
    spaces[1].module = 3;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_UNDECLARED_MODULE && d.module == 3);
    memcpy(spaces, b.t.spaces, sizeof spaces);
    spaces[0].length = 0;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_EMPTY_NAME && d.index == 0);
    memcpy(spaces, b.t.spaces, sizeof spaces);
    spaces[1].name = (uint32_t)t.bytes_size;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRING && d.index == 1);
    t = b.t;
    t.slots = NULL;
    CHECK(errcore_string_validate(&s.f.table, &t, &d) == ERRCORE_E_BAD_STRINGS);
    CHECK(errcore_string_validate(NULL, &b.t, &d) == ERRCORE_E_NULL_ARGUMENT);
    /* Built for another table: its classes are not that table's. */
    fixture other;
    fixture_init(&other);
    other.entries[0].flags = 0;
    CHECK(fixture_build(&other) == ERRCORE_OK);
    CHECK(errcore_string_validate(&other.table, &b.t, &d) == ERRCORE_E_BAD_STRINGS);
    free(copy);
    free(b.storage);
}

/* Random bytes, some NULs and high bytes among them. */
static void random_bytes(uint64_t *rng, char *out, size_t length) {
    for (size_t i = 0; i < length; i++) {
        uint64_t r = check_rand(rng);
        out[i] = (r & 7u) == 0 ? '\0' : (char)(r >> 8);
    }
}

/*
 * Random tables: up to 3,000 string codes in up to 20 namespaces (some owned), against the
 * reference for every listed pair, mutations of them (a byte changed, one byte more or less,
 * another namespace) and random strings.
 */
static void test_strings_differential(void) {
    uint64_t rng = 0x5157A7E5ull;
    static const size_t sizes[] = {1, 2, 7, 100, 361, 362, 1000, 3000};
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    static const int64_t entry_codes[] = {0, 10, 11, 150, 350, 550};
    size_t probes = 0, mismatches = 0;
    for (size_t round = 0; round < sizeof sizes / sizeof sizes[0]; round++) {
        size_t n = sizes[round], k = (size_t)(check_rand(&rng) % 21);
        errcore_string_space_def *spaces = calloc(k + 1, sizeof *spaces);
        errcore_string_code_def *codes = calloc(n, sizeof *codes);
        char *pool = malloc((k + n) * 48);
        size_t at = 0;
        for (size_t j = 0; j < k; j++) {
            spaces[j].name = pool + at;
            spaces[j].length = 1 + (size_t)(check_rand(&rng) % 24);
            random_bytes(&rng, pool + at, spaces[j].length);
            pool[at] = (char)(j + 1); /* names differ in their first byte */
            spaces[j].module = (uint16_t)(check_rand(&rng) % 3);
            at += spaces[j].length;
        }
        for (size_t i = 0; i < n; i++) {
            codes[i].code = pool + at;
            codes[i].length = 1 + (size_t)(check_rand(&rng) % 40);
            random_bytes(&rng, pool + at, codes[i].length);
            if (codes[i].length >= 4) {
                memcpy(pool + at, &i, 4); /* distinct within a namespace */
            }
            codes[i].space = k == 0 ? 0 : (size_t)(check_rand(&rng) % (k + 1));
            codes[i].entry_code = entry_codes[check_rand(&rng) % 6];
            at += codes[i].length;
        }
        /* Short random codes may repeat, and random names may too: keep the first of each. */
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            bool repeat = false;
            for (size_t j = 0; j < kept && !repeat; j++) {
                repeat = codes[j].space == codes[i].space && codes[j].length == codes[i].length &&
                         memcmp(codes[j].code, codes[i].code, codes[i].length) == 0;
            }
            if (!repeat) {
                codes[kept++] = codes[i];
            }
        }
        size_t kept_spaces = 0;
        for (size_t j = 0; j < k; j++) {
            bool repeat = false;
            for (size_t q = 0; q < kept_spaces && !repeat; q++) {
                repeat = spaces[q].length == spaces[j].length &&
                         memcmp(spaces[q].name, spaces[j].name, spaces[j].length) == 0;
            }
            CHECK(!repeat); /* names start with their index: never equal */
            spaces[kept_spaces++] = spaces[j];
        }
        errcore_string_def def = {spaces, kept_spaces, codes, kept};
        built_strings b = build_strings(&f.table, &def);
        CHECKF(b.status == ERRCORE_OK, "round %zu: %s", round, errcore_status_name(b.status));
        if (b.status != ERRCORE_OK) {
            continue;
        }
        CHECK(errcore_string_validate(&f.table, &b.t, NULL) == ERRCORE_OK);
        CHECK(b.t.code_count == kept);
        /* Direct (one bucket) when it can be, which is nearly always up to 100 codes; buckets beyond 362. */
        CHECKF(kept <= 100  ? b.t.bucket_shift == 32
               : kept > 362 ? b.t.bucket_shift < 32
                            : true,
               "%zu codes, shift %u", kept, (unsigned)b.t.bucket_shift);
        char probe[64];
        for (size_t i = 0; i < kept; i++) {
            const errcore_string_code_def *c = &codes[i];
            const char *space = c->space ? spaces[c->space - 1].name : NULL;
            size_t space_length = c->space ? spaces[c->space - 1].length : 0;
            for (int variant = 0; variant < 5; variant++) {
                size_t length = c->length;
                memcpy(probe, c->code, length);
                const char *in_space = space;
                size_t in_length = space_length;
                if (variant == 1) {
                    probe[check_rand(&rng) % length] ^= (char)(1 + check_rand(&rng) % 255);
                } else if (variant == 2) {
                    probe[length++] = (char)check_rand(&rng);
                } else if (variant == 3) {
                    length--;
                } else if (variant == 4) {
                    size_t other = (size_t)(check_rand(&rng) % (kept_spaces + 1));
                    in_space = other ? spaces[other - 1].name : NULL;
                    in_length = other ? spaces[other - 1].length : 0;
                }
                errcore_class got = errcore_classify_string(&b.t, in_space, in_length, probe, length);
                errcore_class want = ref_classify_string(&f.table, &def, in_space, in_length, probe, length);
                probes++;
                if (got != want) {
                    mismatches++;
                }
            }
        }
        for (int r = 0; r < 2000; r++) {
            size_t length = (size_t)(check_rand(&rng) % 48);
            random_bytes(&rng, probe, length);
            size_t other = kept_spaces ? (size_t)(check_rand(&rng) % (kept_spaces + 2)) : 0;
            const char *in_space = other && other <= kept_spaces ? spaces[other - 1].name : other ? "nowhere" : NULL;
            size_t in_length = other && other <= kept_spaces ? spaces[other - 1].length : other ? 7 : 0;
            probes++;
            if (errcore_classify_string(&b.t, in_space, in_length, probe, length) !=
                ref_classify_string(&f.table, &def, in_space, in_length, probe, length)) {
                mismatches++;
            }
        }
        free(b.storage);
        free(pool);
        free(codes);
        free(spaces);
    }
    CHECKF(mismatches == 0, "%zu of %zu probes differ from the reference", mismatches, probes);
    CHECK(probes > 30000);
}

void test_strings(void) {
    test_lookup();
    test_build_errors();
    test_deterministic();
    test_strings_validate();
    test_strings_differential();
}

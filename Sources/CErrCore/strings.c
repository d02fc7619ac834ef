/*
 * strings.c — string codes (errcore_strings.h): the hash, the lookup, and
 * building and proving a string table.
 *
 * A string table is a perfect hash over (namespace, bytes) keys, placed by
 * the same hash-and-displace code as the exact-match front (front.c): a
 * key's hi is the top half of errcore_string_hash() under the attempt's
 * seed. Each slot holds the class of the entry its string stands for, so a
 * hit is one hash, one slot and one comparison of the bytes.
 */
#include <string.h>

#include "internal.h"

/* ---- the hash --------------------------------------------------------------------------- */

/*
 * The 8 (or 4) bytes at p as a little-endian word, whatever the CPU: the hash is the same
 * everywhere. One unaligned load where the compiler says the CPU is little-endian.
 */
static inline uint64_t errcore__load64(const unsigned char *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
#else
    uint64_t w = 0;
    for (unsigned i = 0; i < 8u; i++) {
        w |= (uint64_t)p[i] << (8u * i);
    }
    return w;
#endif
}

static inline uint64_t errcore__load32(const unsigned char *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w;
#else
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
#endif
}

/*
 * The last 1 to 8 bytes of a string of `length` bytes as one word, without a loop over them: the
 * word of its last 8 bytes for 8 bytes or more (overlapping the words before), two overlapping
 * halves for 4 to 7, the first, middle and last byte for 1 to 3. Strings of one length with
 * other bytes give other words.
 */
static inline uint64_t errcore__tail(const unsigned char *p, size_t length) {
    if (length >= 8u) {
        return errcore__load64(p + length - 8u);
    }
    if (length >= 4u) {
        return errcore__load32(p) | (errcore__load32(p + length - 4u) << 32);
    }
    if (length > 0u) {
        return (uint64_t)p[0] | ((uint64_t)p[length / 2u] << 8) | ((uint64_t)p[length - 1u] << 16);
    }
    return 0;
}

/*
 * The hash's and the words' helpers: inlined where speed is asked for, one copy each in a build
 * for size (-Os: firmware, where the lookup's code counts against a budget). A build for size
 * also leaves out the lookup's own path for strings of 1 to 32 bytes and compares with memcmp.
 */
#if defined(__OPTIMIZE_SIZE__)
#define ERRCORE__STRING_HELPER static ERRCORE__NOINLINE
#define ERRCORE__SHORT_PATH    0 /* strings of 1 to 32 bytes go the general way too */
#else
#define ERRCORE__STRING_HELPER static inline
#define ERRCORE__SHORT_PATH    1
#endif

/*
 * a times b as a 128-bit product, its two halves XORed: every bit of the result depends on every
 * bit of both factors. One multiplication where the compiler has 128-bit integers; four 32-bit
 * ones, with the same result, elsewhere (ERRCORE__PORTABLE_MULTIPLY forces that path, which the
 * tests build to prove the two agree).
 */
ERRCORE__STRING_HELPER uint64_t errcore__fold_multiply(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__) && !defined(ERRCORE__PORTABLE_MULTIPLY)
    __extension__ typedef unsigned __int128 errcore__u128;
    errcore__u128 product = (errcore__u128)a * b;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
#else
    uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    uint64_t low = (cross << 32) | (lo_lo & 0xFFFFFFFFu);
    uint64_t high = hi_hi + (hi_lo >> 32) + (cross >> 32);
    return low ^ high;
#endif
}

/* Four 8-byte words of a string, read as little-endian (errcore__short_words): what a hash step takes. */
typedef struct errcore__words {
    uint64_t w[4];
} errcore__words;

/* Strings up to this many bytes are hashed and compared as one errcore__words, with no loop. */
#define ERRCORE__SHORT_STRING 32u

/*
 * A string of 1 to 32 bytes as four words that together hold every byte: for 8 to 32 bytes the
 * words at offsets 0, 8, length - 16 and length - 8 (0, 0, length - 8, length - 8 up to 16 bytes,
 * so that no word reads outside the string); for 1 to 7 bytes the tail word four times. With the
 * length known, two strings are equal exactly when their words are. The offsets are chosen
 * without a branch, so strings of mixed lengths cost no mispredicted jumps.
 */
ERRCORE__STRING_HELPER errcore__words errcore__short_words(const unsigned char *p, size_t length) {
    errcore__words words;
    if (length >= 8u) {
        size_t over16 = (size_t)(length > 16u) * 8u;
        words.w[0] = errcore__load64(p);
        words.w[1] = errcore__load64(p + over16);
        words.w[2] = errcore__load64(p + length - 8u - over16);
        words.w[3] = errcore__load64(p + length - 8u);
    } else {
        words.w[0] = words.w[1] = words.w[2] = words.w[3] = errcore__tail(p, length);
    }
    return words;
}

/* Whether two strings' words (errcore__short_words) are the same, with one branch. */
static inline int errcore__same_words(const errcore__words *a, const errcore__words *b) {
    return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) | (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3])) == 0;
}

/* Whether the `length` bytes (more than 32) at a and b are the same: word by word, then the tails. */
static int errcore__equal_long(const unsigned char *a, const unsigned char *b, size_t length) {
    size_t i = 0;
    for (; i + 8u < length; i += 8u) {
        if (errcore__load64(a + i) != errcore__load64(b + i)) {
            return 0;
        }
    }
    return errcore__tail(a, length) == errcore__tail(b, length);
}

void errcore_string_keys(uint64_t seed, uint64_t out[ERRCORE_STRING_KEY_COUNT]) {
    if (out == NULL) {
        return;
    }
    out[0] = seed ^ 0xA0761D6478BD642Full;
    out[1] = seed ^ 0xE7037ED1A0B428DBull;
    out[2] = seed ^ 0x8EBC6AF09C88C6E3ull;
    out[3] = seed ^ 0x589965CC75374CC3ull;
    out[4] = (seed ^ 0x1D8E4E27C47D124Full) | 1u;
}

/*
 * One step of the hash: 32 bytes' words, the namespace and length (`shape`), and the hash of the
 * bytes before them (`before`, 0 for the first 32), under the seed's keys (errcore_string_keys()).
 * Two folded multiplications side by side, each of two words; the seed goes into every factor
 * (each key is the seed XOR a constant), so two keys that collide under one seed part under
 * another. The shape enters multiplied by a factor the seed sets (keys[4], odd): XORed in as it
 * is, a shape's bits could cancel a difference in the first word's under every seed alike (the
 * string one byte longer whose first byte differs in the length's bits).
 */
ERRCORE__STRING_HELPER uint64_t errcore__hash_step(const uint64_t *keys, uint64_t shape, const errcore__words *words,
                                                   uint64_t before) {
    uint64_t outer = errcore__fold_multiply(words->w[0] ^ keys[0] ^ shape * keys[4], words->w[3] ^ keys[1]);
    uint64_t inner = errcore__fold_multiply(words->w[1] ^ keys[2] ^ before, words->w[2] ^ keys[3]);
    return outer ^ inner;
}

/* The namespace and length as one word. */
static inline uint64_t errcore__shape(uint32_t space, size_t length) {
    return ((uint64_t)space << 32) ^ (uint64_t)length;
}

/* The hash of a string of more than 32 bytes: a step per 32 bytes, the last 32 overlapping. */
static uint64_t errcore__hash_long(const uint64_t *keys, uint64_t shape, const unsigned char *bytes, size_t length) {
    uint64_t h = 0;
    size_t i = 0;
    for (; i + ERRCORE__SHORT_STRING < length; i += ERRCORE__SHORT_STRING) {
        errcore__words words = {{errcore__load64(bytes + i), errcore__load64(bytes + i + 8u),
                                 errcore__load64(bytes + i + 16u), errcore__load64(bytes + i + 24u)}};
        h = errcore__hash_step(keys, shape, &words, h);
    }
    errcore__words last = errcore__short_words(bytes + length - ERRCORE__SHORT_STRING, ERRCORE__SHORT_STRING);
    return errcore__hash_step(keys, shape, &last, h);
}

/* The hash of a string of any length under a seed's keys and a shape (errcore_string_hash()). */
static uint64_t errcore__hash(const uint64_t *keys, uint64_t shape, const unsigned char *bytes, size_t length) {
    if (length > ERRCORE__SHORT_STRING) {
        return errcore__hash_long(keys, shape, bytes, length);
    }
    errcore__words words = errcore__short_words(bytes, length);
    return errcore__hash_step(keys, shape, &words, 0);
}

/* Whether the `length` bytes at a and b are the same, whatever the length (memcmp for size). */
static int errcore__equal(const unsigned char *a, const unsigned char *b, size_t length) {
    if (!ERRCORE__SHORT_PATH) {
        return memcmp(a, b, length) == 0;
    }
    if (length > ERRCORE__SHORT_STRING) {
        return errcore__equal_long(a, b, length);
    }
    errcore__words wa = errcore__short_words(a, length), wb = errcore__short_words(b, length);
    return errcore__same_words(&wa, &wb);
}

uint64_t errcore_string_hash(uint64_t seed, uint32_t space, const unsigned char *bytes, size_t length) {
    uint64_t keys[ERRCORE_STRING_KEY_COUNT];
    errcore_string_keys(seed, keys);
    return errcore__hash(keys, errcore__shape(space, length), bytes, length);
}

/* ---- the lookup ------------------------------------------------------------------------- */

/* Orders byte strings by length, then by bytes: <0, 0 or >0. */
static int errcore__compare_bytes(const unsigned char *a, size_t a_length, const unsigned char *b, size_t b_length) {
    if (a_length != b_length) {
        return a_length < b_length ? -1 : 1;
    }
    return a_length == 0 ? 0 : memcmp(a, b, a_length);
}

/* The id (1 ... space_count) of the namespace named by the bytes, or 0 when none has that name. */
static size_t errcore__space_id(const errcore_string_table *s, const unsigned char *name, size_t length) {
    size_t lo = 0, hi = s->space_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const errcore_string_space *space = &s->spaces[mid];
        int order = errcore__compare_bytes(s->bytes + space->name, space->length, name, length);
        if (order == 0) {
            return mid + 1;
        }
        if (order < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return 0;
}

/* The slot a string with this errcore_string_hash() goes to (the table has slots). */
static inline size_t errcore__string_position(const errcore_string_table *s, uint64_t hash) {
    uint64_t hi = hash >> 32;
    return (size_t)((hi ^ s->buckets[hi >> s->bucket_shift]) & s->slot_mask);
}

/* The class of an unlisted string of namespace `space`: its owner's, unrecognised, or unknown. */
static errcore_class errcore__unlisted_class(const errcore_string_table *s, size_t space) {
    uint16_t owner = space == 0 ? (uint16_t)ERRCORE_MODULE_NONE : s->spaces[space - 1].module;
    if (owner == ERRCORE_MODULE_NONE) {
        return ERRCORE_CLASS_UNKNOWN;
    }
    return ((uint64_t)ERRCORE_TIER_MODULE << 56) | ((uint64_t)owner << 32) | ERRCORE_NO_ENTRY;
}

/*
 * The lookup of any string, by the general hash and comparison: for strings that are empty,
 * shorter than 8 or longer than 32 bytes, and for a table without string codes, out of line so
 * that the short strings' path keeps its registers; for every string in a build for size, where
 * the short strings' own path is left out.
 */
static ERRCORE__NOINLINE errcore_class errcore__classify_other(const errcore_string_table *s, size_t id,
                                                               const unsigned char *bytes, size_t length) {
    if (length == 0 || length > ERRCORE_MAX_STRING_LENGTH) {
        return ERRCORE_CLASS_UNKNOWN; /* no string code is empty or that long */
    }
    if (s->slots != NULL) {
        uint64_t hash = errcore__hash(s->keys, errcore__shape((uint32_t)id, length), bytes, length);
        const errcore_string_slot *slot = &s->slots[errcore__string_position(s, hash)];
        if (slot->length == length && slot->space == id && errcore__equal(s->bytes + slot->key, bytes, length)) {
            return slot->key_class;
        }
    }
    return errcore__unlisted_class(s, id);
}

/* Whether a string of `length` bytes takes the lookup's own path: 8 to 32 bytes (one unsigned comparison). */
static inline int errcore__takes_short_path(const errcore_string_table *s, size_t length) {
    return ERRCORE__SHORT_PATH && length - 8u <= ERRCORE__SHORT_STRING - 8u && s->slots != NULL;
}

/*
 * The lookup of a string of 8 to 32 bytes of namespace `id` in a table with string codes. Its
 * words (errcore__short_words) sit at offsets its length sets, the same for the slot's string
 * when the lengths agree: they are found once, and the comparison reads the slot's string there.
 * The slot's length and namespace are compared at once, before its bytes are read.
 */
ERRCORE__HOT errcore_class errcore__classify_short(const errcore_string_table *s, size_t id, const unsigned char *bytes,
                                                   size_t length) {
    size_t second = (size_t)(length > 16u) * 8u, last = length - 8u, third = last - second;
    errcore__words words = {{errcore__load64(bytes), errcore__load64(bytes + second), errcore__load64(bytes + third),
                             errcore__load64(bytes + last)}};
    uint64_t hash = errcore__hash_step(s->keys, errcore__shape((uint32_t)id, length), &words, 0);
    const errcore_string_slot *slot = &s->slots[errcore__string_position(s, hash)];
    if ((((uint32_t)slot->space << 16) | slot->length) == (((uint32_t)id << 16) | (uint32_t)length)) {
        const unsigned char *key = s->bytes + slot->key;
        uint64_t differ = (errcore__load64(key) ^ words.w[0]) | (errcore__load64(key + second) ^ words.w[1]) |
                          (errcore__load64(key + third) ^ words.w[2]) | (errcore__load64(key + last) ^ words.w[3]);
        if (differ == 0) {
            return slot->key_class;
        }
    }
    return errcore__unlisted_class(s, id);
}

/*
 * The lookup of a string in a namespace the caller names: out of line, so that the lookup in the
 * table's own namespace keeps no registers for the namespace's search.
 */
static ERRCORE__NOINLINE errcore_class errcore__classify_in_space(const errcore_string_table *s,
                                                                  const unsigned char *name, size_t name_length,
                                                                  const unsigned char *bytes, size_t length) {
    size_t id = name_length <= ERRCORE_MAX_STRING_LENGTH ? errcore__space_id(s, name, name_length) : 0;
    if (id == 0) {
        return ERRCORE_CLASS_UNKNOWN; /* a namespace the table does not name */
    }
    return errcore__takes_short_path(s, length) ? errcore__classify_short(s, id, bytes, length)
                                                : errcore__classify_other(s, id, bytes, length);
}

errcore_class errcore_classify_string(const errcore_string_table *strings, const char *space, size_t space_length,
                                      const char *code, size_t code_length) {
    const unsigned char *bytes = (const unsigned char *)code;
    if (space_length != 0) {
        return errcore__classify_in_space(strings, (const unsigned char *)space, space_length, bytes, code_length);
    }
    return errcore__takes_short_path(strings, code_length) ? errcore__classify_short(strings, 0, bytes, code_length)
                                                           : errcore__classify_other(strings, 0, bytes, code_length);
}

/* ---- proving a table right -------------------------------------------------------------- */

/* errcore__fail() with the other index and the module a string table's problems may name. */
static errcore_status errcore__string_problem(errcore_diag *diag, errcore_status status, errcore_subject subject,
                                              size_t index, size_t other_index, int64_t code, uint32_t module) {
    errcore__fail(diag, status, subject, index, code);
    if (diag) {
        diag->other_index = other_index;
        diag->module = module;
    }
    return status;
}

errcore_status errcore_string_validate(const errcore_table *table, const errcore_string_table *strings,
                                       errcore_diag *diag) {
    const errcore_subject SPACE = ERRCORE_SUBJECT_STRING_SPACE, CODE = ERRCORE_SUBJECT_STRING_CODE;
    if (diag) {
        errcore__string_problem(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    if (!table || !strings) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    if (strings->bytes_size > ERRCORE_MAX_COUNT || strings->space_count > ERRCORE_MAX_STRING_SPACES) {
        return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW,
                                       strings->bytes_size > ERRCORE_MAX_COUNT ? CODE : SPACE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    if ((strings->bytes == NULL && strings->bytes_size != 0) ||
        (strings->spaces == NULL && strings->space_count != 0)) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, strings->spaces == NULL ? SPACE : CODE,
                                       ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    for (size_t k = 0; k < strings->space_count; k++) {
        const errcore_string_space *space = &strings->spaces[k];
        if (space->length == 0) {
            return errcore__string_problem(diag, ERRCORE_E_EMPTY_NAME, SPACE, k, ERRCORE_NO_INDEX, 0, 0);
        }
        if ((uint64_t)space->name + space->length > strings->bytes_size) {
            return errcore__string_problem(diag, ERRCORE_E_BAD_STRING, SPACE, k, ERRCORE_NO_INDEX, space->name, 0);
        }
        if (space->module > table->module_count) {
            return errcore__string_problem(diag, ERRCORE_E_UNDECLARED_MODULE, SPACE, k, ERRCORE_NO_INDEX, 0,
                                           space->module);
        }
        if (k > 0) {
            const errcore_string_space *before = &strings->spaces[k - 1];
            int order = errcore__compare_bytes(strings->bytes + before->name, before->length,
                                               strings->bytes + space->name, space->length);
            if (order >= 0) {
                return errcore__string_problem(diag, order == 0 ? ERRCORE_E_DUPLICATE_STRING : ERRCORE_E_UNSORTED,
                                               SPACE, k, k - 1, 0, 0);
            }
        }
    }
    if (strings->slots == NULL) {
        return strings->code_count == 0
                   ? ERRCORE_OK
                   : errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                             ERRCORE_NO_INDEX, (int64_t)strings->code_count, 0);
    }
    uint64_t slot_count = (uint64_t)strings->slot_mask + 1u;
    if ((strings->slot_mask & slot_count) != 0 || strings->bucket_shift > 32 ||
        slot_count > SIZE_MAX / sizeof(errcore_string_slot)) {
        return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, strings->slot_mask, 0);
    }
    if (strings->buckets == NULL) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, CODE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    uint64_t keys[ERRCORE_STRING_KEY_COUNT];
    errcore_string_keys(strings->seed, keys);
    for (size_t k = 0; k < ERRCORE_STRING_KEY_COUNT; k++) {
        if (strings->keys[k] != keys[k]) {
            return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, ERRCORE_SUBJECT_NONE, k, ERRCORE_NO_INDEX,
                                           (int64_t)strings->keys[k], 0);
        }
    }
    size_t listed = 0;
    for (uint64_t i = 0; i < slot_count; i++) {
        const errcore_string_slot *slot = &strings->slots[i];
        if (slot->length == 0) {
            if (slot->key_class != ERRCORE_CLASS_UNKNOWN) {
                return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, CODE, (size_t)i, ERRCORE_NO_INDEX, 0, 0);
            }
            continue;
        }
        listed++;
        if ((uint64_t)slot->key + slot->length > strings->bytes_size) {
            return errcore__string_problem(diag, ERRCORE_E_BAD_STRING, CODE, (size_t)i, ERRCORE_NO_INDEX, slot->key, 0);
        }
        uint32_t entry = errcore_class_entry(slot->key_class);
        bool right =
            slot->space <= strings->space_count &&
            errcore__string_position(strings, errcore_string_hash(strings->seed, slot->space,
                                                                  strings->bytes + slot->key, slot->length)) == i &&
            entry < table->entry_count && errcore_classify(table, table->codes[entry]) == slot->key_class;
        if (!right) {
            return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, CODE, (size_t)i, ERRCORE_NO_INDEX,
                                           entry < table->entry_count ? table->codes[entry] : 0, 0);
        }
    }
    if (listed != strings->code_count) {
        return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, (int64_t)listed, 0);
    }
    return ERRCORE_OK;
}

/* ---- building ----------------------------------------------------------------------------- */

/*
 * The storage layout, every part 8-aligned:
 *   errcore_string_space spaces[k] | errcore_string_slot slots[s] | uint32_t buckets[b] |
 *   unsigned char bytes[n] | uint32_t ids[k] | scratch
 * where s and b are the placement's dimensions for c codes (errcore__place_dims), ids map the
 * definition's namespaces to the table's, and the scratch is the larger of the placement's and the
 * sort's (k + c uint32_t positions: the namespaces and codes ordered by their bytes). The ids and
 * the scratch are zeroed once the table is built.
 */
typedef struct errcore__string_layout {
    size_t spaces, slots, buckets, bytes, ids, scratch, total;
    size_t slot_count, bucket_count, byte_count;
    errcore__front_dims_t dims;
} errcore__string_layout;

static size_t errcore__round8(size_t n) {
    return (n + 7u) & ~(size_t)7u;
}

/* Appends an array of `count` items of `size` bytes at *total; false on overflow. */
static bool errcore__string_add(size_t *total, size_t count, size_t size) {
    if (count != 0 && size > (SIZE_MAX - 7u - *total) / count) {
        return false;
    }
    *total = errcore__round8(*total + count * size);
    return true;
}

static errcore_status errcore__string_layout_of(const errcore_string_def *def, errcore__string_layout *l,
                                                errcore_diag *diag) {
    const errcore_subject SPACE = ERRCORE_SUBJECT_STRING_SPACE, CODE = ERRCORE_SUBJECT_STRING_CODE;
    if (def->space_count > ERRCORE_MAX_STRING_SPACES || def->code_count > ERRCORE_MAX_COUNT) {
        return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW,
                                       def->space_count > ERRCORE_MAX_STRING_SPACES ? SPACE : CODE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    if ((def->spaces == NULL && def->space_count != 0) || (def->codes == NULL && def->code_count != 0)) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, def->spaces == NULL ? SPACE : CODE,
                                       ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    uint64_t bytes = 0;
    for (size_t k = 0; k < def->space_count; k++) {
        const errcore_string_space_def *space = &def->spaces[k];
        if (space->name == NULL && space->length != 0) {
            return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, SPACE, k, ERRCORE_NO_INDEX, 0, 0);
        }
        if (space->length > ERRCORE_MAX_STRING_LENGTH) {
            return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW, SPACE, k, ERRCORE_NO_INDEX,
                                           (int64_t)space->length, 0);
        }
        bytes += space->length;
    }
    for (size_t i = 0; i < def->code_count; i++) {
        const errcore_string_code_def *code = &def->codes[i];
        if (code->code == NULL && code->length != 0) {
            return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, CODE, i, ERRCORE_NO_INDEX, 0, 0);
        }
        if (code->length > ERRCORE_MAX_STRING_LENGTH) {
            return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW, CODE, i, ERRCORE_NO_INDEX,
                                           (int64_t)code->length, 0);
        }
        bytes += code->length;
    }
    if (bytes > ERRCORE_MAX_COUNT) {
        return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, (int64_t)bytes, 0);
    }
    errcore__front_dims_t none = {false, 0, 0, 0, 0};
    l->dims = none;
    if (def->code_count != 0) {
        errcore__place_dims(def->code_count, &l->dims);
    }
    l->slot_count = l->dims.has_front ? errcore__place_slot_count(&l->dims) : 0;
    l->bucket_count = l->dims.has_front ? (size_t)1 << l->dims.bucket_bits : 0;
    l->byte_count = (size_t)bytes;
    size_t place_scratch = 0, sort_scratch = 0, total = 0;
    bool ok = errcore__place_scratch_size(def->code_count, &l->dims, &place_scratch) &&
              errcore__string_add(&sort_scratch, def->space_count + def->code_count, sizeof(uint32_t));
    l->spaces = total;
    ok = ok && errcore__string_add(&total, def->space_count, sizeof(errcore_string_space));
    l->slots = total;
    ok = ok && errcore__string_add(&total, l->slot_count, sizeof(errcore_string_slot));
    l->buckets = total;
    ok = ok && errcore__string_add(&total, l->bucket_count, sizeof(uint32_t));
    l->bytes = total;
    ok = ok && errcore__string_add(&total, l->byte_count, 1u);
    l->ids = total;
    ok = ok && errcore__string_add(&total, def->space_count, sizeof(uint32_t));
    l->scratch = total;
    ok = ok && errcore__string_add(&total, place_scratch > sort_scratch ? place_scratch : sort_scratch, 1u);
    if (!ok || (l->dims.has_front == false && def->code_count != 0)) {
        return errcore__string_problem(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    l->total = total;
    return ERRCORE_OK;
}

errcore_status errcore_string_build_size(const errcore_string_def *def, size_t *out_size, errcore_diag *diag) {
    if (diag) {
        errcore__string_problem(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    if (!def || !out_size) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    errcore__string_layout l;
    errcore_status status = errcore__string_layout_of(def, &l, diag);
    if (status == ERRCORE_OK) {
        *out_size = l.total;
    }
    return status;
}

/* The sort orders items: namespaces (item < space_count) and codes (the rest) of a definition. Item i's namespace
 * (codes: its def space index; namespaces: 0), bytes and length. */
static void errcore__item(const errcore_string_def *def, uint32_t i, size_t *space, const unsigned char **bytes,
                          size_t *length) {
    if (i < def->space_count) {
        *space = 0;
        *bytes = (const unsigned char *)def->spaces[i].name;
        *length = def->spaces[i].length;
    } else {
        const errcore_string_code_def *code = &def->codes[i - def->space_count];
        *space = code->space;
        *bytes = (const unsigned char *)code->code;
        *length = code->length;
    }
}

/* Orders items by kind (namespaces first), namespace, length, bytes, then position. */
static bool errcore__item_before(const errcore_string_def *def, uint32_t a, uint32_t b) {
    bool a_space = a < def->space_count, b_space = b < def->space_count;
    if (a_space != b_space) {
        return a_space;
    }
    size_t sa, sb, la, lb;
    const unsigned char *ba, *bb;
    errcore__item(def, a, &sa, &ba, &la);
    errcore__item(def, b, &sb, &bb, &lb);
    if (sa != sb) {
        return sa < sb;
    }
    int order = errcore__compare_bytes(ba, la, bb, lb);
    return order != 0 ? order < 0 : a < b;
}

/* Heapsort of items[0 ... n-1] (no recursion, no allocation). */
static void errcore__sort_items(const errcore_string_def *def, uint32_t *items, size_t n) {
    for (size_t start = n / 2; start-- > 0;) {
        for (size_t root = start;;) {
            size_t child = 2 * root + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && errcore__item_before(def, items[child], items[child + 1])) {
                child++;
            }
            if (!errcore__item_before(def, items[root], items[child])) {
                break;
            }
            uint32_t t = items[root];
            items[root] = items[child];
            items[child] = t;
            root = child;
        }
    }
    for (size_t end = n; end-- > 1;) {
        uint32_t t = items[0];
        items[0] = items[end];
        items[end] = t;
        for (size_t root = 0;;) {
            size_t child = 2 * root + 1;
            if (child >= end) {
                break;
            }
            if (child + 1 < end && errcore__item_before(def, items[child], items[child + 1])) {
                child++;
            }
            if (!errcore__item_before(def, items[root], items[child])) {
                break;
            }
            uint32_t s = items[root];
            items[root] = items[child];
            items[child] = s;
            root = child;
        }
    }
}

/*
 * The first duplicate among sorted items from..to-1 (equal namespace and bytes): the pair whose
 * later item comes first in the caller's array. Returns false when there is none.
 */
static bool errcore__first_duplicate(const errcore_string_def *def, const uint32_t *items, size_t from, size_t to,
                                     uint32_t *later, uint32_t *first) {
    bool found = false;
    size_t group = from;
    for (size_t i = from + 1; i <= to; i++) {
        bool same = false;
        if (i < to) {
            size_t sa, sb, la, lb;
            const unsigned char *ba, *bb;
            errcore__item(def, items[group], &sa, &ba, &la);
            errcore__item(def, items[i], &sb, &bb, &lb);
            same = sa == sb && errcore__compare_bytes(ba, la, bb, lb) == 0;
        }
        if (same) {
            continue;
        }
        if (i - group > 1 && (!found || items[group + 1] < *later)) {
            found = true;
            *later = items[group + 1]; /* the group is in input order: its second is the earliest repeat */
            *first = items[group];
        }
        group = i;
    }
    return found;
}

/* The strings a build places under one seed: hi = errcore_string_hash(seed, space, bytes) >> 32. */
typedef struct errcore__placed_strings {
    const errcore_string_def *def;
    const uint32_t *space_ids; /* def space k (1-based) is table space space_ids[k - 1] */
    uint64_t seed;
} errcore__placed_strings;

static size_t errcore__code_space(const errcore__placed_strings *k, size_t i) {
    size_t space = k->def->codes[i].space;
    return space == 0 ? 0 : k->space_ids[space - 1];
}

static uint64_t errcore__string_hi(const void *context, size_t i) {
    const errcore__placed_strings *k = context;
    const errcore_string_code_def *code = &k->def->codes[i];
    return errcore_string_hash(k->seed, (uint32_t)errcore__code_space(k, i), (const unsigned char *)code->code,
                               code->length) >>
           32;
}

errcore_status errcore_string_build(const errcore_table *table, const errcore_string_def *def, void *storage,
                                    size_t storage_size, errcore_string_table *out, errcore_diag *diag) {
    const errcore_subject SPACE = ERRCORE_SUBJECT_STRING_SPACE, CODE = ERRCORE_SUBJECT_STRING_CODE;
    if (diag) {
        errcore__string_problem(diag, ERRCORE_OK, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 0, 0);
    }
    if (!table || !def || !out || !storage) {
        return errcore__string_problem(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                       ERRCORE_NO_INDEX, 0, 0);
    }
    errcore__string_layout l;
    errcore_status status = errcore__string_layout_of(def, &l, diag);
    if (status != ERRCORE_OK) {
        return status;
    }
    if (storage_size < l.total) {
        errcore__string_problem(diag, ERRCORE_E_BUFFER_TOO_SMALL, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                ERRCORE_NO_INDEX, (int64_t)l.total, 0);
        if (diag) {
            diag->other_code = (int64_t)storage_size;
        }
        return ERRCORE_E_BUFFER_TOO_SMALL;
    }
    if (((uintptr_t)storage & 7u) != 0) {
        errcore__string_problem(diag, ERRCORE_E_MISALIGNED, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX, ERRCORE_NO_INDEX, 8,
                                0);
        if (diag) {
            diag->other_code = (int64_t)((uintptr_t)storage & 7u);
        }
        return ERRCORE_E_MISALIGNED;
    }
    for (size_t k = 0; k < def->space_count; k++) {
        if (def->spaces[k].length == 0) {
            return errcore__string_problem(diag, ERRCORE_E_EMPTY_NAME, SPACE, k, ERRCORE_NO_INDEX, 0, 0);
        }
    }
    for (size_t i = 0; i < def->code_count; i++) {
        if (def->codes[i].length == 0) {
            return errcore__string_problem(diag, ERRCORE_E_EMPTY_NAME, CODE, i, ERRCORE_NO_INDEX, 0, 0);
        }
    }
    for (size_t k = 0; k < def->space_count; k++) {
        if (def->spaces[k].module > table->module_count) {
            return errcore__string_problem(diag, ERRCORE_E_UNDECLARED_MODULE, SPACE, k, ERRCORE_NO_INDEX, 0,
                                           def->spaces[k].module);
        }
    }
    unsigned char *base = storage;
    uint32_t *items = (uint32_t *)(void *)(base + l.scratch);
    size_t item_count = def->space_count + def->code_count;
    for (size_t i = 0; i < item_count; i++) {
        items[i] = (uint32_t)i;
    }
    errcore__sort_items(def, items, item_count);
    uint32_t later = 0, first = 0;
    if (errcore__first_duplicate(def, items, 0, def->space_count, &later, &first)) {
        return errcore__string_problem(diag, ERRCORE_E_DUPLICATE_STRING, SPACE, later, first, 0, 0);
    }
    if (errcore__first_duplicate(def, items, def->space_count, item_count, &later, &first)) {
        return errcore__string_problem(diag, ERRCORE_E_DUPLICATE_STRING, CODE, later - def->space_count,
                                       first - def->space_count, 0, 0);
    }
    for (size_t i = 0; i < def->code_count; i++) {
        if (def->codes[i].space > def->space_count) {
            return errcore__string_problem(diag, ERRCORE_E_UNDECLARED_SPACE, CODE, i, ERRCORE_NO_INDEX,
                                           (int64_t)def->codes[i].space, 0);
        }
    }
    for (size_t i = 0; i < def->code_count; i++) {
        if (!errcore__is_entry_code(table, def->codes[i].entry_code)) {
            return errcore__string_problem(diag, ERRCORE_E_UNKNOWN_CODE, CODE, i, ERRCORE_NO_INDEX,
                                           def->codes[i].entry_code, 0);
        }
    }

    /* The namespaces in order (the sorted items start with them), and each one's id. */
    errcore_string_space *spaces = (errcore_string_space *)(void *)(base + l.spaces);
    unsigned char *bytes = base + l.bytes;
    uint32_t *space_ids = (uint32_t *)(void *)(base + l.ids); /* def space k + 1 is table space space_ids[k] */
    size_t at = 0;
    for (size_t q = 0; q < def->space_count; q++) {
        const errcore_string_space_def *space = &def->spaces[items[q]];
        spaces[q].name = (uint32_t)at;
        spaces[q].length = (uint16_t)space->length;
        spaces[q].module = space->module;
        memcpy(bytes + at, space->name, space->length);
        at += space->length;
        space_ids[items[q]] = (uint32_t)(q + 1);
    }
    /* The codes' bytes, in the caller's order. */
    errcore_string_slot *slots = (errcore_string_slot *)(void *)(base + l.slots);
    uint32_t *buckets = (uint32_t *)(void *)(base + l.buckets);
    errcore_string_table result;
    result.bytes = bytes;
    result.bytes_size = l.byte_count;
    result.spaces = def->space_count != 0 ? spaces : NULL;
    result.space_count = def->space_count;
    result.slots = NULL;
    result.buckets = NULL;
    result.code_count = def->code_count;
    result.seed = 0;
    errcore_string_keys(0, result.keys);
    result.slot_mask = 0;
    result.bucket_shift = 0;
    if (def->code_count != 0) {
        errcore__placed_strings candidate = {def, space_ids, 0};
        errcore__hash_keys keys = {errcore__string_hi, &candidate, def->code_count};
        errcore__place_work w = errcore__place_work_in(base + l.scratch, def->code_count, &l.dims);
        uint64_t state = 0x57A1C0DE57A1C0DEull;
        bool placed = false;
        uint64_t slot_mask = ((uint64_t)1 << l.dims.direct_bits) - 1u;
        unsigned bucket_shift = 32;
        for (int attempt = 0; l.dims.direct_bits != 0 && attempt < ERRCORE__FRONT_DIRECT_ATTEMPTS && !placed;
             attempt++) {
            candidate.seed = errcore__next_multiplier(&state);
            placed = errcore__place_direct(&keys, slot_mask, w.used);
        }
        if (placed) {
            buckets[0] = 0;
        } else {
            slot_mask = ((uint64_t)1 << l.dims.slot_bits) - 1u;
            bucket_shift = 32u - l.dims.bucket_bits;
            for (int attempt = 0; attempt < ERRCORE__FRONT_ATTEMPTS && !placed; attempt++) {
                candidate.seed = errcore__next_multiplier(&state);
                placed = errcore__place_buckets(&keys, bucket_shift, slot_mask, l.bucket_count, buckets, &w);
            }
        }
        if (!placed) {
            return errcore__string_problem(diag, ERRCORE_E_BAD_STRINGS, ERRCORE_SUBJECT_NONE, ERRCORE_NO_INDEX,
                                           ERRCORE_NO_INDEX, (int64_t)def->code_count, 0);
        }
        result.slots = slots;
        result.buckets = buckets;
        result.seed = candidate.seed;
        errcore_string_keys(result.seed, result.keys);
        result.slot_mask = (uint32_t)slot_mask;
        result.bucket_shift = (uint8_t)bucket_shift;
        for (uint64_t s = 0; s <= slot_mask; s++) {
            slots[s].key_class = ERRCORE_CLASS_UNKNOWN;
            slots[s].key = 0;
            slots[s].length = 0;
            slots[s].space = 0;
        }
        /* Every byte the table does not use is 0: unused slots' padding, spare slots, buckets. */
        memset(base + l.slots + (size_t)(slot_mask + 1u) * sizeof(errcore_string_slot), 0,
               (l.slot_count - (size_t)(slot_mask + 1u)) * sizeof(errcore_string_slot));
        if (bucket_shift == 32) {
            memset(buckets + 1, 0, (l.bucket_count - 1u) * sizeof(uint32_t));
        }
        for (size_t i = 0; i < def->code_count; i++) {
            const errcore_string_code_def *code = &def->codes[i];
            size_t space = errcore__code_space(&candidate, i);
            errcore_string_slot *slot = &slots[errcore__string_position(
                &result,
                errcore_string_hash(result.seed, (uint32_t)space, (const unsigned char *)code->code, code->length))];
            memcpy(bytes + at, code->code, code->length);
            slot->key = (uint32_t)at;
            slot->length = (uint16_t)code->length;
            slot->space = (uint16_t)space;
            slot->key_class = errcore_classify(table, code->entry_code);
            at += code->length;
        }
    }
    /* What is left of the storage (padding, the ids, the scratch) is 0: the bytes are a function of def. */
    memset(base + l.bytes + l.byte_count, 0, l.total - l.bytes - l.byte_count);
    memset(base + l.spaces + def->space_count * sizeof(errcore_string_space), 0,
           l.slots - l.spaces - def->space_count * sizeof(errcore_string_space));
    *out = result;
    return ERRCORE_OK;
}

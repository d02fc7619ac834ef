/*
 * errcore_strings.h — string codes: errors a service names with a string
 * ("card_declined", "PERMISSION_DENIED", "channel_not_found"), in a
 * namespace or not, classified as entries of a table.
 *
 * Each string code stands for one entry of an errcore_table: its integer
 * code is the entry's (a catalog generator chooses it), so messages, flags,
 * modules and every integer lookup work unchanged. A string table maps
 * (namespace, string) pairs to those entries:
 *
 *   - Namespace 0 is the table's own: strings that come without one (Slack's
 *     "error", Stripe's "code"). Namespaces 1 ... space_count are named by
 *     byte strings (a Google ErrorInfo "domain" such as "googleapis.com", the
 *     prefix of a Problem Details "type" URI): spaces[k - 1].
 *   - A namespace may be owned by a module: a string in it that the table
 *     does not list is that module's, unrecognised, as an unlisted integer
 *     code inside a module's range is.
 *   - Strings are bytes: any byte may appear (NUL too), lengths are given,
 *     nothing is NUL-terminated, and comparisons are exact (no case folding,
 *     no Unicode normalisation: "ä" as one code point and as two are two
 *     strings).
 *
 * Reading JSON is not the core's job: a program extracts the namespace and
 * the string from a response and classifies them here.
 *
 * The lookup is a perfect hash, as the exact-match front of errcore_table
 * is (errcore_table.h): for a string s in namespace k,
 *   h        = errcore_string_hash(seed, k, s, length)
 *   hi       = h >> 32
 *   position = (hi ^ buckets[hi >> bucket_shift]) & slot_mask
 * and slots[position] holds the one listed string that can be s. A table is
 * plain data with offsets into one byte array: it can live in ROM, built by
 * errcore_string_build() or written out by a generator (errcat gen c).
 * Nothing here allocates, locks or writes global state.
 */
#ifndef ERRCORE_STRINGS_H
#define ERRCORE_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "errcore_classify.h"
#include "errcore_status.h"
#include "errcore_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest string code or namespace name, in bytes. */
#define ERRCORE_MAX_STRING_LENGTH 0xFFFFu
/* Most namespaces a string table can name (ids 1 ... ERRCORE_MAX_STRING_SPACES). */
#define ERRCORE_MAX_STRING_SPACES 0xFFFFu
/* The words of errcore_string_table.keys. */
#define ERRCORE_STRING_KEY_COUNT 5

/* A namespace: its name's bytes and the module that owns it. */
typedef struct errcore_string_space {
    uint32_t name;   /* offset of the name's bytes in errcore_string_table.bytes */
    uint16_t length; /* the name's length in bytes, at least 1 */
    uint16_t module; /* the owning module's id, or ERRCORE_MODULE_NONE */
} errcore_string_space;

/*
 * One slot of the lookup. A slot no string hashes to holds an empty key
 * (length 0, class ERRCORE_CLASS_UNKNOWN), which no lookup matches: string
 * codes are never empty.
 */
typedef struct errcore_string_slot {
    errcore_class key_class; /* the class of the entry the string stands for (errcore_classify() of its code) */
    uint32_t key;            /* offset of the string's bytes in errcore_string_table.bytes */
    uint16_t length;         /* the string's length in bytes; 0: an empty slot */
    uint16_t space;          /* its namespace: 0, or 1 ... space_count */
} errcore_string_slot;

/*
 * A finished string table. In a valid one (errcore_string_validate()):
 *   spaces are ascending by length, then by bytes (memcmp), and distinct;
 *   every slot's bytes lie inside `bytes`, and each non-empty slot sits at
 *   its own position and holds the class of an entry of the table it was
 *   built for;
 *   `keys` are the seed's (errcore_string_keys()), when there are slots.
 * All zero is a valid table with no string codes: every lookup misses.
 */
typedef struct errcore_string_table {
    const unsigned char *bytes;              /* every string's and namespace's bytes, back to back */
    size_t bytes_size;                       /* at most ERRCORE_MAX_COUNT */
    const errcore_string_space *spaces;      /* space_count namespaces (ids 1 ... space_count) */
    size_t space_count;                      /* at most ERRCORE_MAX_STRING_SPACES */
    const errcore_string_slot *slots;        /* slot_mask + 1 slots; NULL: no string codes */
    const uint32_t *buckets;                 /* 2^(32 - bucket_shift) displacements */
    size_t code_count;                       /* the string codes (non-empty slots) */
    uint64_t seed;                           /* the hash's seed */
    uint32_t slot_mask;                      /* the slot count (a power of two) minus 1 */
    uint8_t bucket_shift;                    /* 0 ... 32 */
    uint64_t keys[ERRCORE_STRING_KEY_COUNT]; /* the hash's keys under seed (errcore_string_keys()) */
} errcore_string_table;

/*
 * errcore_string_keys — the ERRCORE_STRING_KEY_COUNT words errcore_string_hash()
 * derives from `seed` before it reads a string, stored in `out`: a table keeps
 * its seed's (errcore_string_table.keys), so that a lookup does not derive
 * them again. errcore_string_build() fills them in; a table written by hand
 * or by a generator copies them. Does nothing when out is NULL; never fails.
 */
ERRCORE_API void errcore_string_keys(uint64_t seed, uint64_t out[ERRCORE_STRING_KEY_COUNT]);

/*
 * errcore_string_hash — the 64-bit hash the lookup places strings by: of the
 * `length` bytes at `bytes` in namespace `space`, under `seed`. A function
 * of the bytes' values alone (the same on every CPU, whatever its byte
 * order or word size); `bytes` may be NULL when length is 0. Never fails.
 * A string of up to 32 bytes is read as four 8-byte words (overlapping for
 * fewer than 32 bytes; its bytes packed into one word below 8), hashed with
 * two 64 x 64 -> 128-bit multiplications side by side and no loop; a longer
 * one in steps of 32 bytes. Generated tables (errcat gen c) hold seeds and
 * displacements made with this function: it changes only with the ABI.
 */
ERRCORE_API uint64_t errcore_string_hash(uint64_t seed, uint32_t space, const unsigned char *bytes, size_t length);

/*
 * errcore_classify_string — classifies the string code `code` (code_length
 * bytes) of namespace `space` (space_length bytes; length 0: the table's own
 * namespace) with `strings`, a valid string table (errcore_string_validate()
 * == ERRCORE_OK for the table whose entries it names).
 *
 * Returns the class errcore_classify() gives the entry the string stands
 * for when the pair is listed; ERRCORE_TIER_MODULE with ERRCORE_NO_ENTRY
 * and the owner's module id when it is not but the namespace is owned by a
 * module; ERRCORE_CLASS_UNKNOWN otherwise (an unlisted string of an unowned
 * namespace, a namespace the table does not name, an empty string, a
 * string longer than ERRCORE_MAX_STRING_LENGTH). `code` and `space` may be
 * NULL only with their length 0. There is no error return. O(log k) for k
 * namespaces (a binary search, when space_length is not 0) plus one hash of
 * the string, two loads (its bucket's displacement, its slot) and one
 * comparison of its bytes. Strings of 8 to 32 bytes take a path of their
 * own, inlined, without a loop and with one jump that depends on the table
 * (whether the slot's length and namespace match); shorter and longer ones
 * take the general path, out of line (a loop per 32 bytes above 32). Built
 * for size (-Os), strings of every length take the general path (with
 * memcmp), with less code.
 */
ERRCORE_API errcore_class errcore_classify_string(const errcore_string_table *strings, const char *space,
                                                  size_t space_length, const char *code, size_t code_length);

/*
 * errcore_string_validate — checks that `strings` is a valid string table
 * for the valid table `table` (errcore_validate() == ERRCORE_OK).
 *
 * Returns ERRCORE_OK or the first problem:
 *   ERRCORE_E_NULL_ARGUMENT   table or strings is NULL, or an array is NULL with a non-zero count
 *                             (subject STRING_SPACE or STRING_CODE, index ERRCORE_NO_INDEX)
 *   ERRCORE_E_COUNT_OVERFLOW  bytes_size > ERRCORE_MAX_COUNT or space_count > ERRCORE_MAX_STRING_SPACES
 *   ERRCORE_E_BAD_STRING      a namespace's or slot's bytes lie outside `bytes` (subject
 *                             STRING_SPACE or STRING_CODE, index: it, code: its offset)
 *   ERRCORE_E_EMPTY_NAME      a namespace's name is empty (subject STRING_SPACE)
 *   ERRCORE_E_UNDECLARED_MODULE a namespace's module is not a module of the table
 *                             (subject STRING_SPACE, module: the id)
 *   ERRCORE_E_UNSORTED        spaces[index] does not come after spaces[index - 1]
 *   ERRCORE_E_DUPLICATE_STRING spaces[index] has the name of spaces[index - 1]
 *   ERRCORE_E_BAD_STRINGS     the lookup is malformed: no slots but code_count > 0, slot_mask + 1
 *                             not a power of two, bucket_shift > 32 (index ERRCORE_NO_INDEX);
 *                             or a slot (subject STRING_CODE, index: the slot) names a namespace
 *                             that does not exist, does not sit at its string's position, holds a
 *                             class that is not the one of an entry of `table`, or the count of
 *                             non-empty slots is not code_count (index ERRCORE_NO_INDEX,
 *                             code: the count found); or keys[index] is not the seed's
 *                             (subject NONE, code: the key found)
 * `diag` may be NULL. O(s + k + b) for s slots, k namespaces and b bytes;
 * no allocation.
 */
ERRCORE_API errcore_status errcore_string_validate(const errcore_table *table, const errcore_string_table *strings,
                                                   errcore_diag *diag);

/* ---- Building a string table ----------------------------------------------------------- */

/* A namespace to build. */
typedef struct errcore_string_space_def {
    const char *name; /* its bytes, at least 1 */
    size_t length;
    uint16_t module; /* owning module id, or ERRCORE_MODULE_NONE */
} errcore_string_space_def;

/* A string code to build. */
typedef struct errcore_string_code_def {
    const char *code; /* its bytes, at least 1 */
    size_t length;
    size_t space;       /* 0: the table's own namespace; k: the definition's spaces[k - 1] */
    int64_t entry_code; /* the entry it stands for: the code of an entry of the table */
} errcore_string_code_def;

/* Everything errcore_string_build() needs; both arrays in any order. */
typedef struct errcore_string_def {
    const errcore_string_space_def *spaces;
    size_t space_count;
    const errcore_string_code_def *codes;
    size_t code_count;
} errcore_string_def;

/*
 * errcore_string_build_size — the bytes of storage errcore_string_build()
 * needs for `def`: about 24 bytes a namespace, 24 to 48 bytes a code for
 * its slots (up to 512 bytes a code for a direct lookup of up to 362
 * codes, at most 128 KiB), 2 bytes a code for buckets, the strings' bytes,
 * and the build's working space. It depends on the counts and lengths only.
 *
 * On ERRCORE_OK stores the size in *out_size. Otherwise returns:
 *   ERRCORE_E_NULL_ARGUMENT  def or out_size is NULL (subject NONE), an array is NULL with a
 *                            non-zero count, or a name or code is NULL with a non-zero length
 *                            (subject STRING_SPACE or STRING_CODE)
 *   ERRCORE_E_COUNT_OVERFLOW code_count exceeds ERRCORE_MAX_COUNT or space_count
 *                            ERRCORE_MAX_STRING_SPACES, a length exceeds
 *                            ERRCORE_MAX_STRING_LENGTH (subject and index: that element), the
 *                            bytes exceed ERRCORE_MAX_COUNT, or the size does not fit a size_t
 *                            (subject NONE)
 * `diag` may be NULL. O(1) in the strings; allocates nothing.
 */
ERRCORE_API errcore_status errcore_string_build_size(const errcore_string_def *def, size_t *out_size,
                                                     errcore_diag *diag);

/*
 * errcore_string_build — builds the string table of `def` for the valid
 * table `table` into `storage` (at least errcore_string_build_size() bytes,
 * aligned to 8 bytes). On success *out points into `storage` for its arrays
 * and copies of every string's bytes; `storage` must outlive every use of
 * *out, and `table` too when classifying with it.
 *
 * Returns ERRCORE_OK, or the first problem, in this order:
 *   ERRCORE_E_NULL_ARGUMENT    table, out or storage is NULL (subject NONE);
 *   any status errcore_string_build_size() returns;
 *   ERRCORE_E_BUFFER_TOO_SMALL storage_size is less (code: the bytes needed, other_code: storage_size);
 *   ERRCORE_E_MISALIGNED       storage is not aligned to 8 bytes;
 *   ERRCORE_E_EMPTY_NAME       a namespace or a code is empty (subject STRING_SPACE / STRING_CODE,
 *                              index: it), namespaces first;
 *   ERRCORE_E_UNDECLARED_MODULE a namespace names a module the table does not have (module: it);
 *   ERRCORE_E_DUPLICATE_STRING two namespaces have the same name (subject STRING_SPACE), then two
 *                              codes are the same bytes in the same namespace (subject
 *                              STRING_CODE): index the later, other_index the first;
 *   ERRCORE_E_UNDECLARED_SPACE a code's space is greater than space_count (subject STRING_CODE,
 *                              code: the space);
 *   ERRCORE_E_UNKNOWN_CODE     a code's entry_code is no entry of the table (subject STRING_CODE,
 *                              code: entry_code).
 * Indices are positions in the caller's arrays. On failure *out is left
 * untouched. The lookup tries up to 4,096 seeds for a direct table (one
 * bucket, for up to 362 codes), then up to 32 with buckets; when none
 * places every string (distinct strings whose 32-bit hashes agree, which
 * the seeds make vanishingly rare), it returns ERRCORE_E_BAD_STRINGS
 * (subject NONE). Deterministic: every byte of storage[0 ...
 * errcore_string_build_size() - 1] is a function of `def` and the table's
 * classes alone (unused bytes are 0). Expected O((n + k) log(n + k)) plus
 * one pass over the codes per seed tried; no allocation, no recursion.
 */
ERRCORE_API errcore_status errcore_string_build(const errcore_table *table, const errcore_string_def *def,
                                                void *storage, size_t storage_size, errcore_string_table *out,
                                                errcore_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_STRINGS_H */

/*
 * errcore_table.h — the code table: entries, modules, ranges and the string
 * pool; validating an existing table and building one from unsorted input.
 *
 * A finished errcore_table is plain immutable data. Any number of threads may
 * classify through it at once with no lock. It can be written as `static
 * const` arrays (ROM-able, no allocation: see errcore_default_table()) or
 * built at run time into storage the caller provides (errcore_build()).
 *
 * Model
 *   - A code is any int64_t. The table's success code (0 by default) is
 *     classified as ERRCORE_TIER_SUCCESS.
 *   - A module is identified by its 1-based position in the modules array
 *     (its id). Id 0 (ERRCORE_MODULE_NONE) means "no module".
 *   - A module owns one or more closed ranges [first, last]. Ranges of all
 *     modules are disjoint.
 *   - An entry is a code the catalog names: a base-tier entry (module 0),
 *     usable by any request and outside every module range, or a module
 *     entry, inside one of its module's ranges. The success code may have a
 *     base-tier entry too (for its messages).
 *   - A code with no entry that lies inside a module's range belongs to that
 *     module as "unrecognised" (errcore_class_is_exact() is false).
 */
#ifndef ERRCORE_TABLE_H
#define ERRCORE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errcore_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Module id meaning "no module": base-tier entries and the success entry. */
#define ERRCORE_MODULE_NONE 0u
/* Largest number of modules a table can hold (ids 1 ... ERRCORE_MAX_MODULES). */
#define ERRCORE_MAX_MODULES 65535u
/* Largest number of entries, ranges or string-pool bytes in one table. */
#define ERRCORE_MAX_COUNT 0xFFFFFFFEu
/* String offset meaning "no string" (a missing translation falls back by the language rule, errcore_text.h). */
#define ERRCORE_NO_STRING 0xFFFFFFFFu
/* Largest number of message languages in one table. */
#define ERRCORE_MAX_LANGUAGES 255u
/* Longest language tag, in bytes (without the NUL). */
#define ERRCORE_MAX_TAG_LENGTH 63u

/* Per-entry flags (errcore_entry.flags, errcore_class_flags()). */
#define ERRCORE_FLAG_RETRYABLE 0x01u /* repeating the same request may succeed */
#define ERRCORE_FLAG_REAUTH    0x02u /* credentials no longer valid: sign in again (built-in catalog: 11001, 11004) */
#define ERRCORE_FLAG_SHOW_USER 0x04u /* the message is meant for the end user, not only for logs */
#define ERRCORE_FLAG_FATAL     0x08u /* end the flow at once: never retry, even if a policy would */
#define ERRCORE_FLAG_APP_MASK  0xF0u /* four bits left to the application; CErrCore never reads them */

/*
 * One named code. The code itself lives in the parallel errcore_table.codes array.
 *
 * message_en / message_zh are the two-language view tables had before they
 * held any number of languages. In a table with a language list
 * (errcore_table.language_count > 0) the message matrix is what every
 * lookup reads; errcore_build() still fills these two (the message an "en"
 * lookup gives, and the exact "zh-Hans" message or ERRCORE_NO_STRING) for
 * code that reads entries directly. The classifier reads none of them.
 */
typedef struct errcore_entry {
    uint16_t module;     /* owning module id, or ERRCORE_MODULE_NONE for the base tier / success */
    uint8_t flags;       /* ERRCORE_FLAG_* bits */
    uint8_t reserved;    /* must be 0 */
    uint32_t name;       /* pool offset of the identifier, e.g. "tokenExpire" (non-empty) */
    uint32_t message_en; /* pool offset of the English message */
    uint32_t message_zh; /* pool offset of the Simplified Chinese message, or ERRCORE_NO_STRING */
} errcore_entry;

/* A feature module. Its id is its 1-based position in errcore_table.modules. title_en /
 * title_zh: the two-language view, as for errcore_entry's messages. */
typedef struct errcore_module {
    uint32_t name;     /* pool offset of the identifier, e.g. "studyGroup" (non-empty) */
    uint32_t title_en; /* pool offset of the English display name, e.g. "Study group" */
    uint32_t title_zh; /* pool offset of the Chinese display name, or ERRCORE_NO_STRING */
    uint32_t reserved; /* must be 0 */
} errcore_module;

/* A closed range of codes owned by one module. */
typedef struct errcore_range {
    int64_t first;   /* first code owned, inclusive */
    int64_t last;    /* last code owned, inclusive; first <= last */
    uint16_t module; /* owning module id (1 ... module_count) */
} errcore_range;

/*
 * One slot of the classification index. For index key k: `hit` is the
 * packed errcore_class of the code k itself, `gap` the class of every code
 * after k up to the next key. (errcore_class is a uint64_t: see
 * errcore_classify.h.)
 */
typedef struct errcore_index_slot {
    uint64_t hit;
    uint64_t gap;
} errcore_index_slot;

/* Most index slots a table with `entries` entries and `ranges` ranges needs. */
#define ERRCORE_INDEX_CAPACITY(entries, ranges) ((entries) + 2u * (ranges) + 2u)

/*
 * The exact-match front: a perfect hash over the table codes (every entry
 * code and the success code), so that classifying a code is one hash, one
 * slot and one gap lookup, with no search.
 *
 * Hashing. For a code c, with hi = ((uint64_t)c * multiplier) >> 32 (the
 * product taken mod 2^64):
 *   bucket   = hi >> bucket_shift
 *   position = (hi ^ buckets[bucket]) & slot_mask
 * (errcore_front_position()). Every table code sits in the slot at its own
 * position; a code is a hit when slots[position].key equals it, and then
 * slots[position].key_class is its class. A code that misses is not a table
 * code, so its class depends on the module ranges alone: the gap table (or,
 * when the front has none, a branch-free search of the ranges) gives it.
 * Slots no table code hashes to hold a table code that hashes elsewhere, so
 * nothing ever matches there. With bucket_shift 32 there is one bucket:
 * the positions are the product's bits themselves (a "direct" front).
 *
 * Gaps. The codes from gap_base on are cut into gap_count stretches of
 * 2^gap_shift codes each; stretch i (gaps[i]) holds at most one point where
 * the range class changes (its `split`). For a code c that missed, with
 * i = min(((uint64_t)c - (uint64_t)gap_base) >> gap_shift, gap_count), the
 * class is gaps[i].above when c >= gaps[i].split, else gaps[i].below.
 * gaps[gap_count] is the stretch for every code outside the others: both
 * its classes are ERRCORE_CLASS_UNKNOWN.
 *
 * errcore_build() and the generated default table fill a front;
 * errcore_validate() proves it (every table code at its position with its
 * class, no slot answering for any other code, every gap stretch right).
 * A table whose front.slots is NULL has no front and classifies through its
 * index (or its searches), as tables made before the front did.
 */

/* One slot of the front: a table code and its packed errcore_class. */
typedef struct errcore_front_slot {
    int64_t key;
    uint64_t key_class;
} errcore_front_slot;

/* One stretch of the front's gap table: the class of codes that are not table codes. */
typedef struct errcore_front_gap {
    int64_t split;  /* first code of the stretch with class `above`; codes before it have `below` */
    uint64_t below; /* packed errcore_class: ERRCORE_CLASS_UNKNOWN or a module's unrecognised class */
    uint64_t above;
} errcore_front_gap;

/* The exact-match front of a table (all zero: none). */
typedef struct errcore_front {
    const errcore_front_slot *slots; /* slot_mask + 1 slots; NULL: no front */
    const uint32_t *buckets;         /* 2^(32 - bucket_shift) displacements */
    const errcore_front_gap *gaps;   /* gap_count + 1 stretches, or NULL: misses search the ranges */
    uint64_t multiplier;             /* hi = ((uint64_t)code * multiplier) >> 32 */
    int64_t gap_base;                /* first code of gaps[0] */
    size_t gap_count;                /* stretches before the final one: at least 1 */
    uint32_t slot_mask;              /* the slot count (a power of two) minus 1 */
    uint8_t bucket_shift;            /* 0 ... 32 */
    uint8_t gap_shift;               /* 0 ... 63 */
} errcore_front;

/* The front position of `code` (the front must exist: slots != NULL). */
static inline size_t errcore_front_position(const errcore_front *front, int64_t code) {
    uint64_t hi = ((uint64_t)code * front->multiplier) >> 32;
    return (size_t)((hi ^ front->buckets[hi >> front->bucket_shift]) & front->slot_mask);
}

/*
 * A finished table. All arrays are read-only; in a valid table
 *   codes   is strictly ascending, entries[i] describes codes[i];
 *   ranges  is ascending by first, and no two ranges overlap;
 *   strings ends with a NUL byte, and every offset used lies inside it.
 * errcore_validate() checks all of this.
 *
 * Writing one by hand: use designated initializers, so that the members a
 * later version adds are zero, which always means "none", with no warning:
 *   static const errcore_table table = {
 *       .codes = codes, .entries = entries, .entry_count = 2,
 *       .strings = strings, .strings_size = sizeof strings, .success_code = 0,
 *   };
 * Members were added at the end: front in 0.2.0; languages, language_count,
 * messages and titles in 0.3.0. A positional initializer written for an
 * earlier version still means the same (the missing members are zero: no
 * front, the two languages "en" and "zh-Hans"), but -Wextra warns about
 * each missing member (-Wmissing-field-initializers), an error under
 * -Werror. scripts/c/upgrade-check.sh compiles both forms.
 */
typedef struct errcore_table {
    const int64_t *codes;         /* entry codes, strictly ascending */
    const errcore_entry *entries; /* entries[i] describes codes[i] */
    size_t entry_count;
    const errcore_module *modules; /* module id k is modules[k - 1] */
    size_t module_count;
    const errcore_range *ranges; /* ascending by first, disjoint */
    size_t range_count;
    const char *strings;  /* string pool: NUL-terminated strings back to back */
    size_t strings_size;  /* bytes in the pool, including the final NUL */
    int64_t success_code; /* classified as ERRCORE_TIER_SUCCESS */
    /*
     * Optional classification index (index_count 0: none). Keys are every
     * point where the answer can change: INT64_MIN, each entry code, each
     * range's first and last + 1, and the success code, strictly ascending.
     * With it, classifying is one branch-free search and one select;
     * without it, two searches. errcore_build() and the generated default
     * table fill it; errcore_index_build() computes it for a hand-written
     * table; errcore_validate() proves it matches entries and ranges.
     */
    const int64_t *index_keys;
    const errcore_index_slot *index_slots;
    size_t index_count;
    /*
     * Optional exact-match front (front.slots NULL: none), see above.
     * Added after the index: a table written as a positional initializer
     * before it existed gets a zero front and still classifies correctly.
     * (Code compiled against the earlier, shorter errcore_table must be
     * recompiled: the struct is larger.)
     */
    errcore_front front;
    /*
     * Message languages (language_count 0: the two of tables written before
     * the language list, "en" (the default) and "zh-Hans", read from the
     * entries' message_en / message_zh and the modules' title_en /
     * title_zh). Otherwise languages[k] is the pool offset of language k's
     * BCP 47 tag (well-formed, no two equal ignoring ASCII case), language 0
     * is the default every lookup ends at, and
     *   messages[i * language_count + k]         entry i's message in language k,
     *   titles[(id - 1) * language_count + k]    module id's display name in language k,
     * each a pool offset or ERRCORE_NO_STRING (none: the lookup falls back).
     * The default language's message of an entry is always present. Plain
     * offsets, like every other string: a table stays ROM-able. Added after
     * the front, so a positional initializer written before it gets the
     * two-language table.
     */
    const uint32_t *languages;
    size_t language_count;
    const uint32_t *messages;
    const uint32_t *titles;
} errcore_table;

/*
 * errcore_validate — checks that `table` is a valid finished table (the
 * "no-sort" path: arrays must already be in order).
 *
 * Returns ERRCORE_OK, or the first problem found. The checks run in stages,
 * the same stages as errcore_check_catalog() and errcore_build():
 *   0 ERRCORE_E_NULL_ARGUMENT       table is NULL, or an array is NULL while its count is non-zero
 *                                   (entries: index is ERRCORE_NO_INDEX)
 *     ERRCORE_E_COUNT_OVERFLOW      entry_count, range_count, strings_size or index_count
 *                                   > ERRCORE_MAX_COUNT, or module_count > ERRCORE_MAX_MODULES
 *   1 ERRCORE_E_BAD_STRING          the pool is non-empty but does not end with NUL, or an offset
 *                                   lies outside it (subject/index name the owner, other_code
 *                                   the offset)
 *     ERRCORE_E_EMPTY_NAME          an entry or module name is the empty string
 *     ERRCORE_E_RESERVED_NONZERO    a reserved field is set
 *                                   (stage 1 checks every module, then every entry)
 *     then the language list (when language_count != 0):
 *     ERRCORE_E_COUNT_OVERFLOW      language_count > ERRCORE_MAX_LANGUAGES (subject LANGUAGE)
 *     ERRCORE_E_NULL_ARGUMENT       languages NULL, or messages / titles NULL with entries /
 *                                   modules (subject LANGUAGE)
 *     ERRCORE_E_BAD_STRING          a tag's offset outside the pool (subject LANGUAGE), a message
 *                                   or title offset outside it, or an entry without a message in
 *                                   the default language (subject ENTRY / MODULE, other_code: the
 *                                   offset)
 *     ERRCORE_E_BAD_LANGUAGE_TAG    languages[index] is not well formed
 *     ERRCORE_E_DUPLICATE_LANGUAGE  languages[index] repeats languages[other_index] (ignoring case)
 *   2 ERRCORE_E_DUPLICATE_MODULE_NAME modules[index] has the name of modules[other_index], the
 *                                   first module with that name
 *   3 ERRCORE_E_UNDECLARED_MODULE   a range names module 0 or an id > module_count
 *     ERRCORE_E_EMPTY_RANGE         ranges[index].first > last
 *   4 ERRCORE_E_UNSORTED            ranges not ascending by first (other_index: the one before)
 *     ERRCORE_E_RANGE_OVERLAP       ranges[index] overlaps ranges[other_index]
 *   5 ERRCORE_E_UNDECLARED_MODULE   an entry names an id > module_count
 *   6 ERRCORE_E_UNSORTED            codes not ascending (other_index: the one before)
 *     ERRCORE_E_DUPLICATE_CODE      codes[index] == codes[other_index]
 *   7 ERRCORE_E_SUCCESS_IN_MODULE   the success code lies in a range (subject RANGE)
 *   8 ERRCORE_E_SUCCESS_IN_MODULE   the success code has a module entry (subject ENTRY)
 *     ERRCORE_E_CODE_OUTSIDE_MODULE a module entry's code is not in one of its module's ranges
 *     ERRCORE_E_BASE_IN_MODULE_RANGE a base entry's code lies in a range
 *   9 ERRCORE_E_BAD_INDEX           the index (when index_count != 0) is unsorted, does not start at
 *                                   INT64_MIN, lacks a point where the answer changes (code: that
 *                                   point, index ERRCORE_NO_INDEX), or a slot's class is wrong
 *                                   (subject INDEX, index: the slot); NULL index arrays with a
 *                                   count give ERRCORE_E_NULL_ARGUMENT with subject INDEX
 *  10 ERRCORE_E_BAD_FRONT           the exact-match front (when front.slots is not NULL) is wrong;
 *                                   front.buckets NULL gives ERRCORE_E_NULL_ARGUMENT with subject
 *                                   FRONT. Subject FRONT (slots), in this order:
 *                                   - index ERRCORE_NO_INDEX: slot_mask + 1 is not a power of two,
 *                                     or there are more slots than memory can hold, or
 *                                     bucket_shift > 32 (code: slot_mask, other_code: bucket_shift);
 *                                   - a table code (an entry code, or the success code) is not in
 *                                     the slot it hashes to (index: that slot, code: the key the
 *                                     slot holds, other_code: the table code);
 *                                   - a slot whose key hashes to it holds a code that is not a
 *                                     table code (index = other_index: the slot, code: the key), or
 *                                     not the key's class (index: the slot, code = other_code: the
 *                                     key).
 *                                   Subject FRONT_GAP (when front.gaps is not NULL):
 *                                   - index ERRCORE_NO_INDEX: no stretch, gap_shift > 63, the
 *                                     stretches run past INT64_MAX, or a module range is not inside
 *                                     them (code: gap_base, other_code: gap_count);
 *                                   - a stretch's split lies outside it, a range class changes
 *                                     inside it elsewhere, or a class is wrong (index: the stretch,
 *                                     code: its split, other_code: its first code); the final
 *                                     stretch (index gap_count) must have unknown classes.
 * The fields of each diagnostic are those errcore_check_catalog() lists,
 * with indices into the table's own arrays.
 * `diag` may be NULL; when not, it is filled (status ERRCORE_OK and no index on success).
 *
 * Runs in O(n log r + m log m + s + g log r) time for n entries, r
 * ranges, m <= 256 modules, s front slots and g gap stretches, with no
 * allocation. The duplicate-name check has no storage of
 * its own: it sorts blocks of 256 modules on the stack (512 bytes) and
 * looks every later name up in each block, so above 256 modules it takes
 * about m * m / 512 * 8 string comparisons (70 million for 65,535
 * modules). errcore_build() and errcore_check_catalog(), which have the
 * caller's storage, make this check in O(m log m) at any size.
 */
ERRCORE_API errcore_status errcore_validate(const errcore_table *table, errcore_diag *diag);

/*
 * errcore_index_build — computes the classification index of `table`
 * (which must be valid apart from its index) into keys[0 ... capacity-1]
 * and slots[0 ... capacity-1], and stores the number of slots used in
 * *out_count. Set table->index_keys/index_slots/index_count from them to
 * use it. A capacity of ERRCORE_INDEX_CAPACITY(entry_count, range_count)
 * always suffices.
 *
 * Returns ERRCORE_OK; ERRCORE_E_NULL_ARGUMENT when table, keys, slots or
 * out_count is NULL; ERRCORE_E_BUFFER_TOO_SMALL when capacity is too small
 * (nothing useful is written then). Reads only the entries, ranges and
 * success code; O(n log n); no allocation.
 */
ERRCORE_API errcore_status errcore_index_build(const errcore_table *table, int64_t *keys, errcore_index_slot *slots,
                                               size_t capacity, size_t *out_count);

/* ---- Building a table from unsorted input ---------------------------------------------- */

/* One entry to build: a code with C strings that errcore_build() copies into the pool. */
typedef struct errcore_entry_def {
    int64_t code;
    uint16_t module;        /* owning module id, or ERRCORE_MODULE_NONE for base / success */
    uint8_t flags;          /* ERRCORE_FLAG_* bits */
    const char *name;       /* identifier, non-empty */
    const char *message_en; /* English message; NULL is stored as "" (read only without a language list) */
    const char *message_zh; /* Simplified Chinese message; NULL = none (read only without a language list) */
    /*
     * With a language list (errcore_catalog_def.language_count > 0): the
     * message in each language, messages[k] for languages[k]; a NULL
     * element is a missing translation (the default language's, k = 0, is
     * stored as ""); a NULL array means none at all. Ignored without a list.
     */
    const char *const *messages;
} errcore_entry_def;

/* One module to build. Its id is its 1-based position in the modules array. */
typedef struct errcore_module_def {
    const char *name;     /* identifier, non-empty */
    const char *title_en; /* English display name; NULL = use name (read only without a language list) */
    const char *title_zh; /* Chinese display name; NULL = none (read only without a language list) */
    /* With a language list: titles[k] for languages[k], NULL = none (the default language's:
     * use name); a NULL array means none. Ignored without a list. */
    const char *const *titles;
} errcore_module_def;

/*
 * Everything errcore_build() needs. Arrays may be in any order.
 *
 * Languages: with language_count 0 (and languages NULL) the table gets the
 * two languages "en" (the default) and "zh-Hans", from each entry's
 * message_en / message_zh and each module's title_en / title_zh. Otherwise
 * languages[0 ... language_count-1] are BCP 47 tags (errcore_language_tag_valid),
 * no two equal ignoring ASCII case, the first the default language, and the
 * entries' `messages` and modules' `titles` arrays give the texts.
 */
typedef struct errcore_catalog_def {
    int64_t success_code;
    const errcore_entry_def *entries;
    size_t entry_count;
    const errcore_module_def *modules;
    size_t module_count;
    const errcore_range *ranges; /* ranges[i].module is a 1-based index into modules */
    size_t range_count;
    const char *const *languages; /* language_count tags, the first the default; NULL with count 0 */
    size_t language_count;        /* at most ERRCORE_MAX_LANGUAGES */
} errcore_catalog_def;

/*
 * errcore_build_size — the number of bytes of storage errcore_build() needs
 * for `def`. It depends on the counts and the strings only. With n entries
 * and r ranges it includes room for the exact-match front: about 16 bytes
 * a slot for 1.25 to 2.5 slots an entry, 4 bytes a bucket for one bucket
 * per 2 entries, 24 bytes a gap stretch for 4r + 17 stretches; and, for up
 * to 361 entries, room for a direct front of max(n * n / 8, 4 times those
 * slots) slots, at most 8,192 (128 KiB): 4 KiB at 32 entries, 32 KiB at
 * 100, 128 KiB from 256. (Tables of more than 2^26 entries get no front.)
 *
 * On ERRCORE_OK stores the size in *out_size. Otherwise returns the first
 * stage-0 problem errcore_check_catalog() would report:
 *   ERRCORE_E_NULL_ARGUMENT  def or out_size is NULL (subject NONE), an array is NULL with a
 *                            non-zero count (languages: subject LANGUAGE), or a module's or
 *                            entry's name or a language tag is NULL
 *   ERRCORE_E_COUNT_OVERFLOW a count exceeds its maximum (language_count:
 *                            ERRCORE_MAX_LANGUAGES), the strings need more than
 *                            ERRCORE_MAX_COUNT pool bytes (subject STRINGS), or the total size
 *                            does not fit a size_t (subject NONE)
 * `diag` may be NULL. Reads every string once (strlen); allocates nothing.
 */
ERRCORE_API errcore_status errcore_build_size(const errcore_catalog_def *def, size_t *out_size, errcore_diag *diag);

/*
 * errcore_build — builds a sorted, validated, indexed table from `def` into
 * `storage`, which must be at least errcore_build_size() bytes and aligned
 * to 8 bytes. On success *out points into `storage`, which must then outlive
 * every use of *out and not be written again.
 *
 * Returns ERRCORE_OK, or the first problem, checked in this order:
 *   ERRCORE_E_NULL_ARGUMENT    out or storage is NULL (subject NONE);
 *   any status errcore_build_size() returns;
 *   ERRCORE_E_BUFFER_TOO_SMALL storage_size < errcore_build_size() (subject NONE, code: the bytes
 *                              needed, other_code: storage_size);
 *   ERRCORE_E_MISALIGNED       storage is not aligned to 8 bytes (subject NONE, code: 8,
 *                              other_code: the address modulo 8);
 *   the first problem errcore_check_catalog() reports for `def` (stages 1 to 8, with the same
 *   diagnostic). Indices refer to the caller's unsorted arrays: a duplicate code reports the
 *   later input index as `index` and the first one with that code as `other_index`.
 * Unsorted input is never an error here. On failure *out is left untouched
 * and the contents of storage[0 ... errcore_build_size() - 1] are undefined
 * (nothing after them is written).
 *
 * The table gets an index and an exact-match front (see errcore_front):
 * for up to 361 entries first a direct one (one bucket) if one of up to
 * 4,096 multipliers places every code, else one with buckets (up to 32
 * multipliers); codes that agree in their low bits (say, a hundred codes
 * that are multiples of 2^57) can defeat every multiplier, and then the
 * table has no front (front.slots NULL) and classifies through its index.
 * The front's gap table is left out (misses then search the ranges) when
 * the module ranges would need more than 4r + 16 stretches.
 *
 * Deterministic: on success it writes every byte of storage[0 ...
 * errcore_build_size() - 1], those the table does not use (padding, spare
 * slots, what is left of its working space) as 0, and nothing after them,
 * so those bytes are a function of `def` alone, whatever the storage held
 * and wherever it is (the table's arrays are at the same offsets in it).
 * O((n + m + r) log(n + m + r)) expected, plus the front: about one pass
 * over the codes per multiplier tried, each attempt bounded by 8 tries a
 * slot (worst case O(a * (s + n)) for a attempts and s slots); no
 * allocation, no recursion.
 */
ERRCORE_API errcore_status errcore_build(const errcore_catalog_def *def, void *storage, size_t storage_size,
                                         errcore_table *out, errcore_diag *diag);

/* ---- Checking a definition for every problem ------------------------------------------- */

/*
 * errcore_report_fn — receives one problem found by errcore_check_catalog().
 * `context` is the pointer passed to errcore_check_catalog(); `diag` is
 * valid only during the call (copy it to keep it). Return 0 to go on
 * checking, non-zero to stop.
 */
typedef int (*errcore_report_fn)(void *context, const errcore_diag *diag);

/*
 * errcore_check_size — the number of bytes of scratch storage
 * errcore_check_catalog() needs for `def`: 24 per entry, 32 per range and
 * 12 per module, in thirteen arrays each rounded up to a multiple of 8 (for
 * n entries two of 8 n bytes and two of 4 n; for r ranges two of 8 r and
 * four of 4 r; for m modules one of 8 m and two of 2 m). It depends on the
 * counts alone (no array or string is read), and it is never more than
 * errcore_build_size() for the same definition.
 *
 * On ERRCORE_OK stores the size in *out_size (0 for an empty definition).
 * Returns ERRCORE_E_NULL_ARGUMENT when def or out_size is NULL (subject
 * NONE), ERRCORE_E_COUNT_OVERFLOW when entry_count or range_count exceeds
 * ERRCORE_MAX_COUNT or module_count exceeds ERRCORE_MAX_MODULES (subject:
 * that array) or the size does not fit a size_t (subject NONE). `diag` may
 * be NULL. O(1); allocates nothing.
 */
ERRCORE_API errcore_status errcore_check_size(const errcore_catalog_def *def, size_t *out_size, errcore_diag *diag);

/*
 * errcore_check_catalog — reports every problem that makes errcore_build()
 * reject `def`, each once, by calling report(context, &diag), so a tool can
 * list them all instead of only the first. Builds nothing; `def` is only
 * read.
 *
 * `scratch` is working memory of at least errcore_check_size() bytes,
 * aligned to 8 bytes (storage of errcore_build_size() bytes for the same
 * definition is large enough too); its contents are undefined afterwards.
 * What it held before makes no difference to the reports.
 *
 * Returns ERRCORE_OK when nothing was reported, else the status of the
 * first report, also when `report` stopped the check early. Returns
 * ERRCORE_E_NULL_ARGUMENT, reporting nothing, when def or report is NULL.
 *
 * Every stage runs, so one problem does not hide another, and stages come
 * in the order errcore_validate() lists them. Within a stage, reports come
 * by ascending index into the caller's unsorted array, modules before
 * entries in stages 0 and 1, and for one element in the order listed here:
 *   0 ERRCORE_E_NULL_ARGUMENT   entries, modules, ranges NULL with a non-zero count, in that order
 *     ERRCORE_E_COUNT_OVERFLOW  entry_count, module_count, range_count above its maximum
 *       After any of these the check ends here; scratch is not used and may be NULL.
 *     ERRCORE_E_NULL_ARGUMENT   a module's name, then an entry's name is NULL
 *     ERRCORE_E_COUNT_OVERFLOW  the strings need more than ERRCORE_MAX_COUNT pool bytes
 *       Then scratch is checked; NULL (ERRCORE_E_NULL_ARGUMENT), smaller than
 *       errcore_check_size() (ERRCORE_E_BUFFER_TOO_SMALL) or misaligned (ERRCORE_E_MISALIGNED)
 *       is reported with subject NONE and ends the check.
 *     ERRCORE_E_NULL_ARGUMENT   languages NULL with a non-zero language_count (subject LANGUAGE,
 *                               no index; the check ends here), a language tag NULL (index: it)
 *     ERRCORE_E_COUNT_OVERFLOW  language_count > ERRCORE_MAX_LANGUAGES (subject LANGUAGE; ends here)
 *   1 ERRCORE_E_EMPTY_NAME      a module's name, then an entry's name is ""
 *     ERRCORE_E_BAD_LANGUAGE_TAG languages[index] is not well formed (errcore_language_tag_valid)
 *     ERRCORE_E_DUPLICATE_LANGUAGE languages[index] equals languages[other_index] ignoring ASCII
 *                               case, the first with that tag (subject LANGUAGE)
 *   2 ERRCORE_E_DUPLICATE_MODULE_NAME a module has the name of a module before it
 *   3 ERRCORE_E_UNDECLARED_MODULE a range names module 0 or an id > module_count
 *     ERRCORE_E_EMPTY_RANGE     a range's first > last
 *   4 ERRCORE_E_RANGE_OVERLAP   a range overlaps one that sorts before it (by first code, then
 *                               index)
 *   5 ERRCORE_E_UNDECLARED_MODULE an entry names an id > module_count
 *   6 ERRCORE_E_DUPLICATE_CODE  an entry has the code of an entry before it
 *   7 ERRCORE_E_SUCCESS_IN_MODULE the success code lies in a range
 *   8 ERRCORE_E_SUCCESS_IN_MODULE an entry with the success code names a module
 *     ERRCORE_E_CODE_OUTSIDE_MODULE a module entry's code lies in none of its module's ranges
 *     ERRCORE_E_BASE_IN_MODULE_RANGE a base entry's code (other than the success code) lies in
 *                               a range
 * A range reported in stage 3 takes no part in stages 4, 7 and 8, an entry
 * reported in stage 5 none in stage 8, and NULL or empty names none in
 * stage 2; an entry gets at most one report in stage 8.
 *
 * Fields of each report (index and other_index are positions in the
 * caller's arrays; a module's id is its index + 1):
 *   NULL_ARGUMENT, COUNT_OVERFLOW  subject: the array (STRINGS for the pool, NONE for scratch);
 *                                  for a NULL name: index, and code = the module's id or the
 *                                  entry's code
 *   EMPTY_NAME                     MODULE (code: id) or ENTRY (code: the entry's code), index
 *   DUPLICATE_MODULE_NAME          MODULE; index: the module, other_index: the first module with
 *                                  that name; code, other_code: their ids; module: code
 *   UNDECLARED_MODULE              RANGE (code: first) or ENTRY (code); index; module: the id named
 *   EMPTY_RANGE                    RANGE; index; code: first; other_code: last; module
 *   RANGE_OVERLAP                  RANGE; index; other_index: of the ranges it overlaps that sort
 *                                  before it, the one reaching furthest (greatest last; ties:
 *                                  the one that sorts first); code: first; other_code: the other
 *                                  range's first; module: the range's module
 *   DUPLICATE_CODE                 ENTRY; index; other_index: the first entry with that code;
 *                                  code = other_code: the code; module: the entry's module
 *   SUCCESS_IN_MODULE              RANGE (index: the range; module: its module) or ENTRY (index:
 *                                  the entry; module: its module); code: the success code
 *   CODE_OUTSIDE_MODULE            ENTRY; index; code; module: the entry's module; other_code: the
 *                                  module owning the code, 0 when none
 *   BASE_IN_MODULE_RANGE           ENTRY; index; code; other_code: the module owning the code
 *   BUFFER_TOO_SMALL               NONE; code: bytes needed; other_code: bytes given
 *   MISALIGNED                     NONE; code: 8; other_code: the address modulo 8
 * Fields not listed are ERRCORE_NO_INDEX (indices) or 0. The module owning
 * a code is that of the range containing it; when several do (overlapping
 * ranges), the one reaching furthest (greatest last; ties: lowest first,
 * then lowest index).
 *
 * O((n + m + r) log(n + m + r)) time for n entries, m modules and r
 * ranges, plus one strlen per string; no allocation, no recursion; the
 * callback runs on the caller's thread.
 */
ERRCORE_API errcore_status errcore_check_catalog(const errcore_catalog_def *def, void *scratch, size_t scratch_size,
                                                 errcore_report_fn report, void *context);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_TABLE_H */

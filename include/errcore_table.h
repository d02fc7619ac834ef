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
/* String offset meaning "no string" (a missing translation falls back to English). */
#define ERRCORE_NO_STRING 0xFFFFFFFFu

/* Per-entry flags (errcore_entry.flags, errcore_class_flags()). */
#define ERRCORE_FLAG_RETRYABLE 0x01u /* repeating the same request may succeed */
#define ERRCORE_FLAG_REAUTH    0x02u /* credentials are no longer valid: sign in again (token expiry) */
#define ERRCORE_FLAG_SHOW_USER 0x04u /* the message is meant for the end user, not only for logs */
#define ERRCORE_FLAG_FATAL     0x08u /* end the flow at once: never retry, even if a policy would */
#define ERRCORE_FLAG_APP_MASK  0xF0u /* four bits left to the application; CErrCore never reads them */

/* One named code. The code itself lives in the parallel errcore_table.codes array. */
typedef struct errcore_entry {
    uint16_t module;     /* owning module id, or ERRCORE_MODULE_NONE for the base tier / success */
    uint8_t flags;       /* ERRCORE_FLAG_* bits */
    uint8_t reserved;    /* must be 0 */
    uint32_t name;       /* pool offset of the identifier, e.g. "tokenExpire" (non-empty) */
    uint32_t message_en; /* pool offset of the English message */
    uint32_t message_zh; /* pool offset of the Simplified Chinese message, or ERRCORE_NO_STRING */
} errcore_entry;

/* A feature module. Its id is its 1-based position in errcore_table.modules. */
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
 * A finished table. All arrays are read-only; in a valid table
 *   codes   is strictly ascending, entries[i] describes codes[i];
 *   ranges  is ascending by first, and no two ranges overlap;
 *   strings ends with a NUL byte, and every offset used lies inside it.
 * errcore_validate() checks all of this.
 */
typedef struct errcore_table {
    const int64_t *codes;          /* entry codes, strictly ascending */
    const errcore_entry *entries;  /* entries[i] describes codes[i] */
    size_t entry_count;
    const errcore_module *modules; /* module id k is modules[k - 1] */
    size_t module_count;
    const errcore_range *ranges;   /* ascending by first, disjoint */
    size_t range_count;
    const char *strings;           /* string pool: NUL-terminated strings back to back */
    size_t strings_size;           /* bytes in the pool, including the final NUL */
    int64_t success_code;          /* classified as ERRCORE_TIER_SUCCESS */
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
} errcore_table;

/*
 * errcore_validate — checks that `table` is a valid finished table (the
 * "no-sort" path: arrays must already be in order).
 *
 * Returns ERRCORE_OK, or the first problem found, in this order of checks:
 *   ERRCORE_E_NULL_ARGUMENT       table is NULL, or an array is NULL while its count is non-zero
 *                                 (entries: index is ERRCORE_NO_INDEX)
 *   ERRCORE_E_COUNT_OVERFLOW      entry_count, range_count or strings_size > ERRCORE_MAX_COUNT,
 *                                 or module_count > ERRCORE_MAX_MODULES
 *   ERRCORE_E_BAD_STRING          the pool is non-empty but does not end with NUL, or an offset
 *                                 lies outside it (subject/index name the owner)
 *   ERRCORE_E_EMPTY_NAME          an entry or module name is the empty string
 *   ERRCORE_E_RESERVED_NONZERO    a reserved field is set
 *   ERRCORE_E_UNDECLARED_MODULE   a range or entry names module 0 (ranges) or an id > module_count
 *   ERRCORE_E_EMPTY_RANGE         ranges[index].first > last
 *   ERRCORE_E_UNSORTED            ranges not ascending by first, or codes not ascending
 *   ERRCORE_E_RANGE_OVERLAP       ranges[index] overlaps ranges[other_index]
 *   ERRCORE_E_DUPLICATE_CODE      codes[index] == codes[other_index]
 *   ERRCORE_E_SUCCESS_IN_MODULE   the success code lies in a range (subject RANGE) or has a
 *                                 module entry (subject ENTRY)
 *   ERRCORE_E_CODE_OUTSIDE_MODULE a module entry's code is not in one of its module's ranges
 *                                 (module: the entry's module; other_code: the module that owns
 *                                 the code, 0 if none)
 *   ERRCORE_E_BASE_IN_MODULE_RANGE a base entry's code lies in a range (other_code: that range's module)
 *   ERRCORE_E_BAD_INDEX           the index (when index_count != 0) is unsorted, does not start at
 *                                 INT64_MIN, lacks a point where the answer changes (code: that
 *                                 point), or a slot's class is wrong (subject INDEX, index: the slot)
 *   For ERRCORE_E_UNDECLARED_MODULE, `module` is the id named.
 * `diag` may be NULL; when not, it is filled (status ERRCORE_OK and no index on success).
 * Runs in O(n log m) time for n entries and m ranges, with no allocation.
 */
errcore_status errcore_validate(const errcore_table *table, errcore_diag *diag);

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
errcore_status errcore_index_build(const errcore_table *table, int64_t *keys,
                                   errcore_index_slot *slots, size_t capacity, size_t *out_count);

/* ---- Building a table from unsorted input ---------------------------------------------- */

/* One entry to build: a code with C strings that errcore_build() copies into the pool. */
typedef struct errcore_entry_def {
    int64_t code;
    uint16_t module;        /* owning module id, or ERRCORE_MODULE_NONE for base / success */
    uint8_t flags;          /* ERRCORE_FLAG_* bits */
    const char *name;       /* identifier, non-empty */
    const char *message_en; /* English message; NULL is stored as "" */
    const char *message_zh; /* Simplified Chinese message; NULL = none (falls back to English) */
} errcore_entry_def;

/* One module to build. Its id is its 1-based position in the modules array. */
typedef struct errcore_module_def {
    const char *name;     /* identifier, non-empty */
    const char *title_en; /* English display name; NULL = use name */
    const char *title_zh; /* Chinese display name; NULL = none (falls back to English) */
} errcore_module_def;

/* Everything errcore_build() needs. Arrays may be in any order. */
typedef struct errcore_catalog_def {
    int64_t success_code;
    const errcore_entry_def *entries;
    size_t entry_count;
    const errcore_module_def *modules;
    size_t module_count;
    const errcore_range *ranges; /* ranges[i].module is a 1-based index into modules */
    size_t range_count;
} errcore_catalog_def;

/*
 * errcore_build_size — the number of bytes of storage errcore_build() needs
 * for `def`.
 *
 * On ERRCORE_OK stores the size in *out_size. Returns
 *   ERRCORE_E_NULL_ARGUMENT  def or out_size is NULL, an array is NULL with a non-zero count,
 *                            or an entry or module has a NULL name
 *   ERRCORE_E_COUNT_OVERFLOW a count exceeds its maximum, or the total size (including the
 *                            string pool, which must stay <= ERRCORE_MAX_COUNT) overflows
 * `diag` may be NULL. Reads every string once (strlen); allocates nothing.
 */
errcore_status errcore_build_size(const errcore_catalog_def *def, size_t *out_size,
                                  errcore_diag *diag);

/*
 * errcore_build — builds a sorted, validated, indexed table from `def` into
 * `storage`, which must be at least errcore_build_size() bytes and aligned
 * to 8 bytes. On success *out points into `storage`, which must then outlive
 * every use of *out and not be written again.
 *
 * Returns ERRCORE_OK, or any status errcore_build_size() and
 * errcore_validate() return, plus ERRCORE_E_BUFFER_TOO_SMALL when
 * storage_size is too small or storage is misaligned. Indices in `diag`
 * refer to the caller's unsorted arrays: a duplicate code reports the later
 * input index as `index` and the earlier one as `other_index`. Unsorted input
 * is never an error here. On failure *out is left untouched. Deterministic;
 * O(n log n); no allocation, no recursion.
 */
errcore_status errcore_build(const errcore_catalog_def *def, void *storage, size_t storage_size,
                             errcore_table *out, errcore_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_TABLE_H */

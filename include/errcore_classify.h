/*
 * errcore_classify.h — the hot path: raw code in, packed classification out,
 * for one code, a batch, or a one-pass tally.
 *
 * Classifying is branch-free: a table with an exact-match front (every
 * table errcore_build() or the generator makes) is one hash, one slot, one
 * gap lookup and selects by mask or conditional move; a table without one
 * is a branch-free search. The branches depend on the table (which path it
 * has) and on counts: the loops of the batch, and the loop of its second
 * pass over each block's misses, whose trip count is the number of misses
 * (about one mispredicted exit per 256 codes). Nothing here allocates,
 * locks or writes global state.
 */
#ifndef ERRCORE_CLASSIFY_H
#define ERRCORE_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errcore_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four outcomes of classification. Every int64_t gets exactly one. */
typedef enum errcore_tier {
    ERRCORE_TIER_UNKNOWN = 0, /* no entry, outside every module range */
    ERRCORE_TIER_SUCCESS = 1, /* the table's success code */
    ERRCORE_TIER_BASE = 2,    /* a base-tier entry: any request can get it */
    ERRCORE_TIER_MODULE = 3   /* a module's entry, or an unrecognised code in a module's range */
} errcore_tier;

#define ERRCORE_TIER_COUNT 4

/* errcore_class_entry() value when no entry matched. */
#define ERRCORE_NO_ENTRY 0xFFFFFFFFu

/*
 * A classification packed into 64 bits:
 *   bits  0-31  entry index into the table, or ERRCORE_NO_ENTRY
 *   bits 32-47  module id (ERRCORE_MODULE_NONE unless tier is MODULE)
 *   bits 48-55  the entry's ERRCORE_FLAG_* bits (0 when no entry)
 *   bits 56-63  errcore_tier
 * Use the accessors below; the layout is stable within a major version.
 */
typedef uint64_t errcore_class;

/* The class of a code that is unknown to the table. */
#define ERRCORE_CLASS_UNKNOWN ((errcore_class)ERRCORE_NO_ENTRY)

/* The tier of a classification. */
static inline errcore_tier errcore_class_tier(errcore_class c) {
    return (errcore_tier)(c >> 56);
}
/* The module id of a classification (ERRCORE_MODULE_NONE unless the tier is MODULE). */
static inline uint16_t errcore_class_module(errcore_class c) {
    return (uint16_t)(c >> 32);
}
/* The entry index of a classification, or ERRCORE_NO_ENTRY. */
static inline uint32_t errcore_class_entry(errcore_class c) {
    return (uint32_t)c;
}
/* The entry's flags (0 when no entry matched). */
static inline uint8_t errcore_class_flags(errcore_class c) {
    return (uint8_t)(c >> 48);
}
/* True when the code matched an entry exactly (false for unknown and unrecognised codes). */
static inline bool errcore_class_is_exact(errcore_class c) {
    return (uint32_t)c != ERRCORE_NO_ENTRY;
}

/*
 * errcore_classify — classifies one code against a valid table.
 *
 * Returns the packed class: the entry's tier, module and flags when `code`
 * is in the table; ERRCORE_TIER_SUCCESS for the success code (with its
 * entry index if it has one); ERRCORE_TIER_MODULE with ERRCORE_NO_ENTRY for
 * an unlisted code inside a module's range; ERRCORE_CLASS_UNKNOWN otherwise.
 * All 64 bits of `code` count: 2^32 + 11001 is not 11001.
 * `table` must be valid (errcore_validate() == ERRCORE_OK); there is no
 * error return. O(1) with a front and a gap table; O(log r) with a front
 * without a gap table; O(log n + log m) otherwise; branch-free.
 */
ERRCORE_API errcore_class errcore_classify(const errcore_table *table, int64_t code);

/*
 * errcore_classify_batch — classifies codes[0 ... count-1] into
 * out[0 ... count-1], with the same result as errcore_classify() for each.
 *
 * With a front, works in blocks of 256 codes: the first pass hashes every
 * code and writes its slot's class, listing the codes whose slot holds
 * another key; the second gives only those their class from the gap table
 * (or a search of the ranges). Without a front, interleaves eight
 * independent searches to hide memory latency. Uses up to 260 bytes of
 * stack for the miss list. `codes` and `out` may be NULL only when count
 * is 0; they must not overlap. `table` must be valid. No return value: it
 * cannot fail.
 */
ERRCORE_API void errcore_classify_batch(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                        size_t count);

/* Counts from errcore_tally_codes(). */
typedef struct errcore_tally {
    uint64_t total;                     /* codes seen */
    uint64_t tiers[ERRCORE_TIER_COUNT]; /* indexed by errcore_tier */
    uint64_t unrecognised;              /* module-tier codes with no entry (also in tiers[MODULE]) */
} errcore_tally;

/*
 * errcore_tally_codes — classifies codes[0 ... count-1] and adds the results to
 * *tally and, when module_counts is not NULL, to module_counts[id] for each
 * module-tier code (module_counts must then have table->module_count + 1
 * elements; element 0 is not written). Counts are added, not reset, so a
 * stream can be tallied in chunks; zero the counters first.
 *
 * Returns ERRCORE_OK, or ERRCORE_E_NULL_ARGUMENT (nothing counted) when
 * table or tally is NULL, or codes is NULL with a non-zero count.
 * Uses the batch path; no allocation (a small buffer on the stack).
 */
ERRCORE_API errcore_status errcore_tally_codes(const errcore_table *table, const int64_t *codes, size_t count,
                                               errcore_tally *tally, uint64_t *module_counts);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_CLASSIFY_H */

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
 * (about one mispredicted exit per 256 codes). The batch's first pass has
 * vector paths (AVX2 and AVX-512 on x86-64, chosen at run time; NEON on
 * ARM64) beside the scalar one, all with the same results: see
 * errcore_batch_path. Nothing here allocates, locks or writes global state.
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
 * (or a search of the ranges). The first pass has several paths (see
 * errcore_batch_path): plain C everywhere, AVX2 or AVX-512 on x86-64 CPUs
 * that have them, NEON on ARM64. Each call picks the path of
 * errcore_batch_path_auto() (one read of the CPU features the C runtime
 * recorded at start-up: no lock, no state of its own, safe from any
 * thread); every path gives the same results. Without a front, every path
 * interleaves eight independent searches to hide memory latency.
 *
 * Uses up to 264 bytes of stack for the miss list. `codes` and `out` may be
 * NULL only when count is 0; they must not overlap (not even exactly:
 * classifying in place is not supported); neither needs more than its
 * type's alignment. `table` must be valid. No return value: it cannot fail.
 */
ERRCORE_API void errcore_classify_batch(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                        size_t count);

/*
 * The paths of errcore_classify_batch(). They differ only in the
 * instructions of the first pass through a table's front; the results are
 * the same on every path, bit for bit.
 *   SCALAR  plain C, every target (the only one on 32-bit targets such as
 *           Cortex-M and RISC-V, with compilers other than gcc and clang,
 *           and in freestanding x86-64 builds)
 *   AVX2    x86-64 CPUs with AVX2 and POPCNT: eight codes per step, scalar
 *           multiplies, 128-bit slot loads, vector compares and stores
 *   AVX512  x86-64 CPUs with AVX-512 F and DQ: eight codes per 512-bit step,
 *           one 64-bit vector multiply for all eight
 *   NEON    ARM64 (every ARM64 CPU has it)
 * The x86-64 paths are compiled with per-function target attributes (no
 * -march flag) and chosen at run time, on every call, from the CPU features
 * the C runtime records at start-up (__builtin_cpu_supports), so a program
 * built once uses AVX-512 where the CPU has it and runs on any x86-64.
 * ERRCORE_BATCH_PATH_AUTO names the choice errcore_classify_batch() makes on
 * the running CPU; errcore_classify_batch_using() forces another (tests,
 * benchmarks, or a program that must keep off a vector unit).
 */
typedef enum errcore_batch_path {
    ERRCORE_BATCH_PATH_AUTO = 0,
    ERRCORE_BATCH_PATH_SCALAR = 1,
    ERRCORE_BATCH_PATH_AVX2 = 2,
    ERRCORE_BATCH_PATH_AVX512 = 3,
    ERRCORE_BATCH_PATH_NEON = 4
} errcore_batch_path;

/* One more than the largest errcore_batch_path value (for loops over every path). */
#define ERRCORE_BATCH_PATH_COUNT 5

/*
 * errcore_batch_path_auto — the path errcore_classify_batch() takes on this
 * CPU, in this build: AVX512, else AVX2, else SCALAR on x86-64; NEON on
 * ARM64; SCALAR elsewhere. Never returns ERRCORE_BATCH_PATH_AUTO. Called
 * from a constructor that runs before the C runtime's own (gcc's priority
 * 101), the CPU features are not read yet and the answer is SCALAR.
 */
ERRCORE_API errcore_batch_path errcore_batch_path_auto(void);

/*
 * errcore_batch_path_available — whether `path` can run on this CPU in this
 * build: true for ERRCORE_BATCH_PATH_AUTO and ERRCORE_BATCH_PATH_SCALAR
 * everywhere, for the others where the build has them and the CPU (and the
 * operating system, for the AVX registers) supports them; false for a
 * value that names no path.
 */
ERRCORE_API bool errcore_batch_path_available(errcore_batch_path path);

/*
 * errcore_batch_path_name — the path's lower-case name: "auto", "scalar",
 * "avx2", "avx512" or "neon"; "unknown" for a value that names no path
 * (never NULL).
 */
ERRCORE_API const char *errcore_batch_path_name(errcore_batch_path path);

/*
 * errcore_classify_batch_using — errcore_classify_batch() on the path the
 * caller names instead of the one it would pick: for tests that prove every
 * path gives the same results, for benchmarks that compare them, and for a
 * program that must keep off a vector unit. Same arguments, same results
 * and the same rules as errcore_classify_batch().
 *
 * Returns true when it classified; false, writing nothing, when `path` is
 * not available here (errcore_batch_path_available() is false).
 */
ERRCORE_API bool errcore_classify_batch_using(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                              size_t count, errcore_batch_path path);

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

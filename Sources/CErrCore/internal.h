/*
 * internal.h — helpers shared by the CErrCore sources. Not installed, not
 * part of the API: nothing here is visible to C or Swift users, and every
 * function declared here is ERRCORE__INTERNAL, so that no build (the
 * Makefile's shared library, SwiftPM, a consumer's own) exports it.
 */
#ifndef ERRCORE_INTERNAL_H
#define ERRCORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CErrCore.h"

/*
 * ERRCORE__IF_ELSE_0(c, v): v when c, else 0, without a branch. Compilers
 * turn plain forms of this back into a branch, which mispredicts on mixed
 * codes: clang 21 does so for mask arithmetic in the search loop unless the
 * condition is marked __builtin_unpredictable; gcc 12 does so for `c ? v : 0`
 * but keeps a cmov for mask arithmetic. So each gets the form it respects.
 * Check `objdump -d` after touching the search (docs/performance.md).
 */
#if defined(__has_builtin)
#if __has_builtin(__builtin_unpredictable)
#define ERRCORE__IF_ELSE_0(c, v) (__builtin_unpredictable(c) ? (v) : (size_t)0)
#endif
#endif
#ifndef ERRCORE__IF_ELSE_0
#define ERRCORE__IF_ELSE_0(c, v) ((v) & ((size_t)0 - (size_t)(c)))
#endif

/*
 * ERRCORE__SELECT64(c, a, b): a when c, else b, without a branch (the same
 * reasoning as ERRCORE__IF_ELSE_0). ERRCORE__LOADED(x) makes a value
 * opaque to the optimizer: clang otherwise turns a select between a value
 * just loaded and another back into a branch around the load, even with
 * __builtin_unpredictable, and gcc 12 branches on the condition of mask
 * arithmetic to skip it when the result is a plain load (both seen on
 * x86-64). It costs no instruction; where it is not needed it is empty.
 */
#if defined(__has_builtin)
#if __has_builtin(__builtin_unpredictable)
#define ERRCORE__SELECT64(c, a, b) (__builtin_unpredictable(c) ? (a) : (b))
#endif
#endif
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define ERRCORE__LOADED(x) __asm__("" : "+r"(x))
#else
#define ERRCORE__LOADED(x) ((void)0)
#endif
#ifndef ERRCORE__SELECT64
/* Mask arithmetic; the mask is made opaque too, or gcc 12 branches on c to skip the arithmetic. */
static inline uint64_t errcore__select64(bool c, uint64_t a, uint64_t b) {
    uint64_t mask = (uint64_t)0 - (uint64_t)c;
    ERRCORE__LOADED(mask);
    return b ^ ((a ^ b) & mask);
}
#define ERRCORE__SELECT64(c, a, b) errcore__select64((c), (a), (b))
#endif

/* Marks an intended switch fallthrough (gcc's -Wextra warns on unmarked ones). */
#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define ERRCORE__FALLTHROUGH __attribute__((fallthrough))
#endif
#endif
#ifndef ERRCORE__FALLTHROUGH
#define ERRCORE__FALLTHROUGH ((void)0)
#endif

/* Hidden from the shared library's dynamic symbol table, whatever the build flags. */
#if defined(__GNUC__) || defined(__clang__)
#define ERRCORE__INTERNAL __attribute__((visibility("hidden")))
#else
#define ERRCORE__INTERNAL
#endif

/* Forces inlining of the hot-path helpers (compilers judge the unrolled search too big). */
#if defined(__GNUC__) || defined(__clang__)
#define ERRCORE__HOT static inline __attribute__((always_inline))
#else
#define ERRCORE__HOT static inline
#endif

/* Keeps a helper out of line (a small loop of its own gets the registers it needs). */
#if defined(__GNUC__) || defined(__clang__)
#define ERRCORE__NOINLINE __attribute__((noinline))
#else
#define ERRCORE__NOINLINE
#endif

/* All ones when b is true, zero otherwise: selects without a branch. */
static inline uint64_t errcore__mask64(bool b) {
    return (uint64_t)0 - (uint64_t)b;
}

/*
 * A bounded text writer with snprintf's contract: writes at most size-1
 * characters plus a NUL, and counts the length of the whole text.
 */
typedef struct errcore__sink {
    char *buf;
    size_t size;
    size_t len;
} errcore__sink;

static inline errcore__sink errcore__sink_make(char *buf, size_t size) {
    errcore__sink s;
    s.buf = buf;
    s.size = buf ? size : 0;
    s.len = 0;
    if (s.size > 0) {
        s.buf[0] = '\0';
    }
    return s;
}

ERRCORE__INTERNAL void errcore__sink_str(errcore__sink *s, const char *text);
ERRCORE__INTERNAL void errcore__sink_int(errcore__sink *s, int64_t value);

/* A string from the pool at `offset`, or NULL when offset is ERRCORE_NO_STRING or outside it. */
static inline const char *errcore__pool_string(const errcore_table *t, uint32_t offset) {
    if (offset == ERRCORE_NO_STRING || (size_t)offset >= t->strings_size) {
        return NULL;
    }
    return t->strings + offset;
}

/*
 * Fills *diag (when not NULL) for a rejection and returns `status`, so a
 * check can `return errcore__fail(...)`. other_index, other_code and module
 * start empty; callers set them after when they apply.
 */
static inline errcore_status errcore__fail(errcore_diag *diag, errcore_status status, errcore_subject subject,
                                           size_t index, int64_t code) {
    if (diag) {
        diag->status = status;
        diag->subject = subject;
        diag->index = index;
        diag->other_index = ERRCORE_NO_INDEX;
        diag->code = code;
        diag->other_code = 0;
        diag->module = 0;
    }
    return status;
}

/* The position of key among keys[0 ... count-1] (ascending), or count when it is not there: a binary search. */
static inline size_t errcore__find_sorted(const int64_t *keys, size_t count, int64_t key) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < count && keys[lo] == key ? lo : count;
}

/* True when code is an entry code of t (codes ascending). */
static inline bool errcore__is_entry_code(const errcore_table *t, int64_t code) {
    return errcore__find_sorted(t->codes, t->entry_count, code) < t->entry_count;
}

/* Classification by two searches (entries, then ranges), ignoring any index. */
ERRCORE__INTERNAL errcore_class errcore__classify_searches(const errcore_table *t, int64_t code);

/* Checks t's index against its entries and ranges (t must be otherwise valid). */
ERRCORE__INTERNAL errcore_status errcore__check_index(const errcore_table *t, errcore_diag *diag);

/* ---- The batch (classify.c, batch.c, batch_avx2.c, batch_avx512.c, batch_neon.c) ---------------
 * With a front, every path classifies in blocks of ERRCORE__FRONT_BLOCK codes: its pass 1 stores
 * each code's slot class and lists the positions (bytes) of the codes whose slot holds another key;
 * the shared pass 2 gives those their gap class (or searches the ranges). */

/* Codes per block of the front's batch: the miss list holds positions in a block as bytes. */
#define ERRCORE__FRONT_BLOCK 256
/* Bytes of a block's miss list: a step of pass 1 may store 8 positions past the last miss. */
#define ERRCORE__MISS_ROOM (ERRCORE__FRONT_BLOCK + 8)

/* The vector paths this build has: x86-64 (chosen at run time) and ARM64 (always NEON). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && defined(__STDC_HOSTED__) && __STDC_HOSTED__
#define ERRCORE__X86_PATHS 1
#endif
#if (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__) && defined(__ARM_NEON)
#define ERRCORE__NEON_PATH 1
#endif

/*
 * Pass 1 of a block of n <= ERRCORE__FRONT_BLOCK codes through f (which has
 * slots): out[k] gets the class of code k's slot, and the positions of the
 * codes whose slot holds another key go to miss[] in ascending order (miss[]
 * holds ERRCORE__MISS_ROOM bytes). Returns the number of misses. The vector
 * ones exist only where their path does (ERRCORE__X86_PATHS, ERRCORE__NEON_PATH).
 */
ERRCORE__INTERNAL size_t errcore__front_pass_scalar(const errcore_front *f, const int64_t *restrict codes,
                                                    errcore_class *restrict out, unsigned char *restrict miss,
                                                    size_t n);
ERRCORE__INTERNAL size_t errcore__front_pass_avx2(const errcore_front *f, const int64_t *restrict codes,
                                                  errcore_class *restrict out, unsigned char *restrict miss, size_t n);
ERRCORE__INTERNAL size_t errcore__front_pass_avx512(const errcore_front *f, const int64_t *restrict codes,
                                                    errcore_class *restrict out, unsigned char *restrict miss,
                                                    size_t n);
ERRCORE__INTERNAL size_t errcore__front_pass_neon(const errcore_front *f, const int64_t *restrict codes,
                                                  errcore_class *restrict out, unsigned char *restrict miss, size_t n);

/* Pass 1 one code at a time for codes[k ... n-1], appending misses from miss[m]: the new miss count. */
ERRCORE__INTERNAL size_t errcore__front_tail(const errcore_front *f, const int64_t *restrict codes,
                                             errcore_class *restrict out, unsigned char *restrict miss, size_t k,
                                             size_t n, size_t m);

/*
 * For each 8-bit miss mask (bit l: code l of a step missed), the positions
 * of its set bits, ascending, one per byte from the lowest (the other bytes
 * 0): a vector step appends its misses with one 8-byte store.
 */
#if defined(ERRCORE__X86_PATHS) || defined(ERRCORE__NEON_PATH)
ERRCORE__INTERNAL extern const uint64_t errcore__miss_places8[256];
#endif

/* Pass 2: the gap class of the m codes listed in miss[] (f has a gap table). */
ERRCORE__INTERNAL void errcore__batch_gaps(const errcore_front *f, const int64_t *restrict codes,
                                           errcore_class *restrict out, const unsigned char *restrict miss, size_t m);
/* Pass 2 without a gap table: the listed codes' classes by a search of the ranges. */
ERRCORE__INTERNAL void errcore__batch_miss_ranges(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                                  const unsigned char *miss, size_t m);
/* The batch of a table without a front: through its index, or by two searches (no index either). */
ERRCORE__INTERNAL void errcore__batch_index(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                            size_t count);
ERRCORE__INTERNAL void errcore__batch_searches(const errcore_table *table, const int64_t *codes, errcore_class *out,
                                               size_t count);

/* ---- Range lookups (ranges.c) ------------------------------------------------------------- */

/* How many of t's (sorted) ranges start at or before code: a binary search (not the hot path). */
ERRCORE__INTERNAL size_t errcore__ranges_starting_by(const errcore_table *t, int64_t code);

/* Index of the range containing code, or ERRCORE_NO_INDEX (for validation, not the hot path). */
ERRCORE__INTERNAL size_t errcore__range_containing(const errcore_table *t, int64_t code);

/* ---- The exact-match front (front.c) ----------------------------------------------------- */

/* Gap stretches reserved for a table with r ranges (the front's gap table may use fewer). */
#define ERRCORE__FRONT_GAP_CAPACITY(r) (4u * (r) + 16u)

/* The front's dimensions for a definition (has_front false: the table gets none). */
typedef struct errcore__front_dims_t {
    bool has_front;
    unsigned slot_bits;   /* 2^slot_bits slots with buckets */
    unsigned bucket_bits; /* 2^bucket_bits buckets */
    unsigned direct_bits; /* 2^direct_bits slots for a direct front first tried; 0: none tried */
    size_t gap_capacity;  /* stretches before the final one */
} errcore__front_dims_t;

/* The front's dimensions for a table of `entries` entries and `ranges` ranges. */
ERRCORE__INTERNAL void errcore__front_dims(size_t entries, size_t ranges, errcore__front_dims_t *d);

/* Slots the storage holds for the front (0 without one); buckets: 2^bucket_bits. */
ERRCORE__INTERNAL size_t errcore__front_slot_count(const errcore__front_dims_t *d);

/* Bytes of 8-aligned scratch errcore__front_build needs; false when that overflows a size_t. */
ERRCORE__INTERNAL bool errcore__front_scratch_size(size_t entries, const errcore__front_dims_t *d, size_t *bytes);

/*
 * Builds t's front (t must be valid apart from its index and front) into
 * slots[errcore__front_slot_count()], buckets[2^bucket_bits] and
 * gaps[gap_capacity + 1],
 * with `scratch` as working memory, and sets t->front. Returns false, with
 * t->front all zero, when no front was built.
 */
ERRCORE__INTERNAL bool errcore__front_build(errcore_table *t, const errcore__front_dims_t *d, errcore_front_slot *slots,
                                            uint32_t *buckets, errcore_front_gap *gaps, void *scratch);

/* Checks t's front against its entries and ranges (t must be otherwise valid). */
ERRCORE__INTERNAL errcore_status errcore__check_front(const errcore_table *t, errcore_diag *diag);

/* ---- Perfect-hash placement (front.c), shared by the front and string tables ------------- */

/* Multipliers (seeds) tried for a direct table, then with buckets, before a table goes without. */
#define ERRCORE__FRONT_DIRECT_ATTEMPTS 4096
#define ERRCORE__FRONT_ATTEMPTS        32

/*
 * The keys being placed: key i's 64-bit hash value `hi` under the current
 * attempt's multiplier or seed, of which bits 32 - bucket_bits and up pick
 * a bucket and the low bits a home slot (hi < 2^32).
 */
typedef struct errcore__hash_keys {
    uint64_t (*hi)(const void *context, size_t i);
    const void *context;
    size_t count;
} errcore__hash_keys;

/* The placement's working arrays, carved from a scratch of errcore__place_scratch_size() bytes. */
typedef struct errcore__place_work {
    uint32_t *starts; /* bucket b holds order[starts[b] ... starts[b + 1] - 1] */
    uint32_t *order;  /* key indices grouped by bucket */
    uint32_t *border; /* buckets by size, largest first */
    uint32_t *home;   /* home slots of the bucket being placed (64-bit, as two words) */
    uint32_t *used;   /* one bit per slot */
} errcore__place_work;

/* The dimensions for `keys` keys (gap_capacity 0; has_front false: too many keys for a table). */
ERRCORE__INTERNAL void errcore__place_dims(uint64_t keys, errcore__front_dims_t *d);
/* Slots a placement with these dimensions needs room for (enough for a direct table too). */
ERRCORE__INTERNAL size_t errcore__place_slot_count(const errcore__front_dims_t *d);
/* Bytes of 8-aligned scratch a placement of `keys` keys needs; false when that overflows a size_t. */
ERRCORE__INTERNAL bool errcore__place_scratch_size(uint64_t keys, const errcore__front_dims_t *d, size_t *bytes);
/* The working arrays in `scratch`. */
ERRCORE__INTERNAL errcore__place_work errcore__place_work_in(void *scratch, uint64_t keys,
                                                             const errcore__front_dims_t *d);
/* The next of the fixed sequence of odd multipliers (seeds) from *state (splitmix64). */
ERRCORE__INTERNAL uint64_t errcore__next_multiplier(uint64_t *state);
/* One direct attempt (one bucket, displacement 0): true when no two keys share a home slot. */
ERRCORE__INTERNAL bool errcore__place_direct(const errcore__hash_keys *k, uint64_t slot_mask, uint32_t *used);
/*
 * One attempt with buckets: fills buckets[0 ... bucket_count - 1] with displacements and returns
 * true when every key got a slot of its own (position = (hi ^ buckets[hi >> bucket_shift]) &
 * slot_mask).
 */
ERRCORE__INTERNAL bool errcore__place_buckets(const errcore__hash_keys *k, unsigned bucket_shift, uint64_t slot_mask,
                                              size_t bucket_count, uint32_t *buckets, errcore__place_work *w);

/* ---- Reporting (rules.c) ----------------------------------------------------------------- */

/*
 * Where the checks send what they find. With `fn` NULL the first report is
 * kept and checking stops (errcore_build, errcore_validate); with `fn` set
 * every report goes to fn until it asks to stop (errcore_check_catalog).
 */
typedef struct errcore__reporter {
    errcore_report_fn fn;
    void *context;
    errcore_diag *first;   /* receives the first report when not NULL */
    errcore_status status; /* status of the first report; ERRCORE_OK before it */
    bool stopped;
} errcore__reporter;

ERRCORE__INTERNAL errcore__reporter errcore__reporter_first(errcore_diag *first);

/* Delivers one report; false when checking must stop. */
ERRCORE__INTERNAL bool errcore__emit(errcore__reporter *rep, const errcore_diag *d);

/* ---- Rules (rules.c) -----------------------------------------------------------------------
 * One function per rule, shared by errcore_validate (a finished table),
 * errcore_build and errcore_check_catalog (a definition): each returns
 * ERRCORE_OK, or its status with *d (when not NULL) filled as
 * errcore_check_catalog() documents. `index` is the element's position in
 * the caller's array. With d NULL they serve as predicates. */

/* Stage 1: an empty name. */
ERRCORE__INTERNAL errcore_status errcore__rule_empty_name(const char *name, errcore_subject subject, size_t index,
                                                          int64_t code, errcore_diag *d);
/* Stage 3: a range naming module 0 or one above module_count. */
ERRCORE__INTERNAL errcore_status errcore__rule_range_module(const errcore_range *g, size_t index, size_t module_count,
                                                            errcore_diag *d);
/* Stage 3: a range whose first code is above its last. */
ERRCORE__INTERNAL errcore_status errcore__rule_range_empty(const errcore_range *g, size_t index, errcore_diag *d);
/* Stage 4: g, which sorts at or after `before` (by first code), starts inside it. */
ERRCORE__INTERNAL errcore_status errcore__rule_overlap(const errcore_range *g, size_t index,
                                                       const errcore_range *before, size_t before_index,
                                                       errcore_diag *d);
/* Stage 5: an entry naming a module above module_count. */
ERRCORE__INTERNAL errcore_status errcore__rule_entry_module(int64_t code, uint16_t module, size_t index,
                                                            size_t module_count, errcore_diag *d);
/* Stage 6: an entry with the code of the entry `first_index`, the first with that code. */
ERRCORE__INTERNAL errcore_status errcore__rule_duplicate_code(int64_t code, uint16_t module, size_t index,
                                                              int64_t first_code, size_t first_index, errcore_diag *d);
/* Stage 7: the success code inside range g. */
ERRCORE__INTERNAL errcore_status errcore__rule_success_range(int64_t success, const errcore_range *g, size_t index,
                                                             errcore_diag *d);
/*
 * Stage 8: where an entry's code lies. `in_own`: a range of the entry's
 * module contains the code; `owner`: the module owning the code, 0 for none.
 */
ERRCORE__INTERNAL errcore_status errcore__rule_placement(int64_t code, uint16_t module, size_t index, int64_t success,
                                                         bool in_own, uint16_t owner, errcore_diag *d);

/* Module names for stage 2: the name of module index i, or NULL when it has none to compare. */
typedef const char *(*errcore__name_fn)(const void *source, size_t i);

/*
 * Stage 2: reports each module whose name an earlier module has, with the
 * first module of that name, by ascending index. Sorts all names once in
 * order[]: radix passes on each name's first 8 bytes, kept in keys[], then a
 * heap sort only within runs sharing those bytes; first[] is the passes'
 * spare array. order, first and keys hold m elements each. A 1 KiB
 * histogram on the stack. Returns false when checking must stop.
 */
ERRCORE__INTERNAL bool errcore__module_names_all(const void *source, errcore__name_fn name, size_t m, uint16_t *order,
                                                 uint16_t *first, uint64_t *keys, errcore__reporter *rep);

/*
 * Stage 2 with only `capacity` elements of order[] (capacity > 0): reports
 * only the first duplicate (the lowest later index), heap-sorting blocks of
 * `capacity` modules and looking up every later name in each block. Returns
 * false when checking must stop.
 */
ERRCORE__INTERNAL bool errcore__module_names_blocks(const void *source, errcore__name_fn name, size_t m,
                                                    uint16_t *order, size_t capacity, errcore__reporter *rep);

/*
 * Stable sort of keys[0 ... n-1] ascending as unsigned numbers, moving
 * vals[] along, with spare arrays tmp_keys and tmp_vals of n elements each
 * (their contents are undefined afterwards); n <= UINT32_MAX. Equal keys keep
 * their order, so keys built from (value, input index) in index order sort by
 * (value, index). On return keys[] holds the sorted keys, each lowered by
 * the same amount (the smallest key) or unchanged: equal keys stay equal.
 * An insertion sort up to 32 elements, else least-significant-byte radix
 * passes, skipping each byte that is equal in every key: O(n) per pass, at
 * most 8 passes, no recursion, no allocation, a 1 KiB histogram on the stack.
 */
ERRCORE__INTERNAL void errcore__sort_keyed(uint64_t *keys, uint32_t *vals, uint64_t *tmp_keys, uint32_t *tmp_vals,
                                           size_t n);

/* ---- ASCII ---------------------------------------------------------------------------------- */

static inline bool errcore__ascii_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool errcore__ascii_digit(char c) {
    return c >= '0' && c <= '9';
}

static inline char errcore__ascii_lower(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static inline char errcore__ascii_upper(char c) {
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

/* ---- The language rule (language_rule.c) ---------------------------------------------------- */

/* A language tag read for the rule (errcore_text.h): each part in its conventional case. */
typedef struct errcore__locale {
    char lang[9];                              /* 2 to 8 lower-case letters */
    char script[5];                            /* "Hant", or "" */
    char region[4];                            /* "TW", "419", or "" */
    char variants[ERRCORE_MAX_TAG_LENGTH + 1]; /* "-valencia-1996" (each with its '-'), or "" */
} errcore__locale;

/* Most steps of a fallback chain walked (CLDR's longest has five; each variant of a tag adds one). */
#define ERRCORE__LANGUAGE_STEPS 16u

/* Reads a tag or identifier into *loc; false when it names no language. */
ERRCORE__INTERNAL bool errcore__language_read(const char *text, errcore__locale *loc);

/* Writes the locale's tag into buf[ERRCORE_MAX_TAG_LENGTH + 1] and returns its length. */
ERRCORE__INTERNAL size_t errcore__language_format(const errcore__locale *loc, char *buf);

/* Replaces *loc by its parent on the fallback chain; false when it has none (the root). */
ERRCORE__INTERNAL bool errcore__language_parent(errcore__locale *loc);

/* Whether `tag` reads as the locale whose tag is `name` (false for NULL or no language). */
ERRCORE__INTERNAL bool errcore__language_is(const char *tag, const char *name);

/* ---- Languages (languages.c) -------------------------------------------------------------- */

/* Whether two tags are equal ignoring ASCII case. */
ERRCORE__INTERNAL bool errcore__tag_equal(const char *a, const char *b);

/*
 * Entry i's message (module: module index i's title) for `tag`: the text of
 * the first language along tag's fallback chain that has one (errcore_text.h),
 * else the default language's (NULL when even that is missing).
 */
ERRCORE__INTERNAL const char *errcore__text_for_tag(const errcore_table *t, bool module, size_t i, const char *tag);

/* Stage 1: a malformed tag. */
ERRCORE__INTERNAL errcore_status errcore__rule_language_tag(const char *tag, size_t index, errcore_diag *d);

/* Stage 1 of a definition: malformed and duplicate tags, by ascending index. False: checking must stop. */
ERRCORE__INTERNAL bool errcore__check_def_languages(const errcore_catalog_def *def, errcore__reporter *rep);

/* A finished table's language list and message and title matrices (stage 1 of errcore_validate). */
ERRCORE__INTERNAL errcore_status errcore__check_table_languages(const errcore_table *t, errcore_diag *diag);

/* ---- Definitions (check.c) ----------------------------------------------------------------- */

/* Stage 0 of a definition; *pool gets the pool bytes it needs. False: checking must stop. */
ERRCORE__INTERNAL bool errcore__check_shape(const errcore_catalog_def *def, size_t *pool, errcore__reporter *rep);

/*
 * Working arrays of the definition checks (errcore_check_size() bytes in
 * all), each rounded up to 8 bytes: for n entries two uint64_t and two
 * uint32_t arrays, for r ranges two uint64_t and four uint32_t arrays, for m
 * modules one uint64_t and two uint16_t arrays.
 */
typedef struct errcore__work {
    uint64_t *entry_keys;       /* sort keys of the entries' codes, sorted with entry_order */
    uint64_t *entry_keys_spare; /* the sort's spare keys */
    uint32_t *entry_order;      /* input indices sorted by (code, index) */
    uint32_t *entry_first;      /* the sort's spare indices; then per input index: the first entry
                                 * with its code, or UINT32_MAX */
    uint64_t *range_keys;       /* sort keys of the valid ranges (first, then module) */
    uint64_t *range_keys_spare; /* the sorts' spare keys */
    uint32_t *range_order;      /* valid ranges sorted by (first, index) */
    uint32_t *range_reach;      /* per sorted position: the position reaching furthest up to it */
    uint32_t *range_aux;        /* overlap partner per input index; then valid ranges by (module, first, index) */
    uint32_t *range_aux_reach;  /* per range_aux position: furthest reach within the module so far */
    uint64_t *module_keys;      /* per module: the first 8 bytes of its name (stage 2) */
    uint16_t *module_order;
    uint16_t *module_first;
    size_t range_valid; /* entries used in range_order */
} errcore__work;

/* Bytes of each work array, each rounded up to 8: entries, ranges, modules. False on overflow. */
ERRCORE__INTERNAL bool errcore__work_size(size_t n, size_t r, size_t m, size_t *entry_bytes, size_t *range_bytes,
                                          size_t *module_bytes);

/* Points w's arrays into the three areas sized by errcore__work_size. */
ERRCORE__INTERNAL void errcore__work_init(errcore__work *w, size_t n, size_t r, size_t m, void *entries_area,
                                          void *ranges_area, void *modules_area);

/*
 * Stages 1 ... 8 of a definition that passed stage 0. On return with no
 * report, w->entry_order holds every entry sorted by (code, index) and
 * w->range_order every range sorted by (first, index) (errcore_build lays
 * the table out from them).
 */
ERRCORE__INTERNAL void errcore__check_def(const errcore_catalog_def *def, errcore__work *w, errcore__reporter *rep);

/* Fills *d with a storage problem (BUFFER_TOO_SMALL or MISALIGNED); ERRCORE_OK when none. */
ERRCORE__INTERNAL errcore_status errcore__check_storage(const void *storage, size_t size, size_t needed,
                                                        errcore_diag *d);

#endif /* ERRCORE_INTERNAL_H */

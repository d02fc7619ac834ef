/*
 * internal.h — helpers shared by the CErrCore sources. Not installed, not
 * part of the API: nothing here is visible to C or Swift users.
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

/* Marks an intended switch fallthrough (gcc's -Wextra warns on unmarked ones). */
#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define ERRCORE__FALLTHROUGH __attribute__((fallthrough))
#endif
#endif
#ifndef ERRCORE__FALLTHROUGH
#define ERRCORE__FALLTHROUGH ((void)0)
#endif

/* Forces inlining of the hot-path helpers (compilers judge the unrolled search too big). */
#if defined(__GNUC__) || defined(__clang__)
#define ERRCORE__HOT static inline __attribute__((always_inline))
#else
#define ERRCORE__HOT static inline
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

void errcore__sink_str(errcore__sink *s, const char *text);
void errcore__sink_int(errcore__sink *s, int64_t value);

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
static inline errcore_status errcore__fail(errcore_diag *diag, errcore_status status,
                                           errcore_subject subject, size_t index, int64_t code) {
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

/*
 * Checks a table whose arrays are in order. `entry_origin` and
 * `range_origin`, when not NULL, map each sorted position back to the
 * caller's input index for the diagnostic (the errcore_build path).
 */
errcore_status errcore__check(const errcore_table *t, const uint32_t *entry_origin,
                              const uint32_t *range_origin, errcore_diag *diag);

/* Classification by two searches (entries, then ranges), ignoring any index. */
errcore_class errcore__classify_searches(const errcore_table *t, int64_t code);

/* Checks t's index against its entries and ranges (t must be otherwise valid). */
errcore_status errcore__check_index(const errcore_table *t, errcore_diag *diag);

/* Index of the range containing code, or ERRCORE_NO_INDEX (for validation, not the hot path). */
size_t errcore__range_containing(const errcore_table *t, int64_t code);

#endif /* ERRCORE_INTERNAL_H */

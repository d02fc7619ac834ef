/*
 * errcore_status.h — status values and diagnostics returned by table
 * validation and building.
 *
 * Every function in CErrCore that can reject its input returns an
 * errcore_status and, when the caller passes a non-NULL errcore_diag, fills
 * it with what was wrong and where (which array, which index, which code).
 */
#ifndef ERRCORE_STATUS_H
#define ERRCORE_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ERRCORE_API marks each function of the public API. The Makefile builds
 * libcerrcore.so with -fvisibility=hidden, so these are the only symbols
 * the shared library exports; the core's internal functions are hidden
 * even without that flag (SwiftPM). Define ERRCORE_API before including a
 * CErrCore header to mark the declarations differently.
 */
#ifndef ERRCORE_API
#if defined(__GNUC__) || defined(__clang__)
#define ERRCORE_API __attribute__((visibility("default")))
#else
#define ERRCORE_API
#endif
#endif

/* Result of validating or building a table. Each rejection has its own value. */
typedef enum errcore_status {
    ERRCORE_OK = 0,                       /* the table is valid / was built */
    ERRCORE_E_NULL_ARGUMENT = 1,          /* a required pointer is NULL, or an array is NULL with a non-zero count */
    ERRCORE_E_COUNT_OVERFLOW = 2,         /* a count exceeds ERRCORE_MAX_COUNT, or a size computation would overflow */
    ERRCORE_E_DUPLICATE_CODE = 3,         /* the same code appears twice (in one tier or across tiers) */
    ERRCORE_E_CODE_OUTSIDE_MODULE = 4,    /* a module entry's code lies outside every range its module owns */
    ERRCORE_E_RANGE_OVERLAP = 5,          /* two module ranges share at least one code */
    ERRCORE_E_BASE_IN_MODULE_RANGE = 6,   /* a base-tier entry's code lies inside a module's range */
    ERRCORE_E_UNDECLARED_MODULE = 7,      /* an entry or range names a module id that is not declared */
    ERRCORE_E_UNSORTED = 8,               /* codes or ranges are not in ascending order (no-sort path) */
    ERRCORE_E_EMPTY_RANGE = 9,            /* a range's first code is greater than its last */
    ERRCORE_E_SUCCESS_IN_MODULE = 10,     /* the success code lies in a module range or is a module entry */
    ERRCORE_E_BAD_STRING = 11,            /* a string offset lies outside the pool, or the pool is not NUL-terminated */
    ERRCORE_E_EMPTY_NAME = 12,            /* an entry or module has an empty name */
    ERRCORE_E_RESERVED_NONZERO = 13,      /* a reserved field is not zero */
    ERRCORE_E_BUFFER_TOO_SMALL = 14,      /* storage too small (diag code: bytes needed, other_code: bytes given) */
    ERRCORE_E_BAD_INDEX = 15,             /* the table's classification index disagrees with its entries and ranges */
    ERRCORE_E_MISALIGNED = 16,            /* storage not aligned to 8 bytes (diag code: 8, other_code: address % 8) */
    ERRCORE_E_DUPLICATE_MODULE_NAME = 17, /* two modules have the same name (names identify modules) */
    ERRCORE_E_BAD_FRONT = 18,             /* the table's exact-match front disagrees with its codes and ranges */
    ERRCORE_E_BAD_LANGUAGE_TAG = 19,   /* a language tag is not a well-formed BCP 47 tag (errcore_language_tag_valid) */
    ERRCORE_E_DUPLICATE_LANGUAGE = 20, /* two languages have the same tag (ASCII case-insensitive) */
    ERRCORE_E_DUPLICATE_STRING =
        21, /* a string code twice in one namespace, or a namespace twice (errcore_strings.h) */
    ERRCORE_E_UNDECLARED_SPACE = 22, /* a string code names a namespace that is not declared */
    ERRCORE_E_UNKNOWN_CODE = 23,     /* a string code stands for a code that is no entry of the table */
    ERRCORE_E_BAD_STRINGS = 24       /* a string table's lookup disagrees with its strings or table */
} errcore_status;

/* Number of distinct errcore_status values (for iteration in tests and bindings). */
#define ERRCORE_STATUS_COUNT 25

/* Which input array an errcore_diag index refers to. */
typedef enum errcore_subject {
    ERRCORE_SUBJECT_NONE = 0,         /* the error is not about one element */
    ERRCORE_SUBJECT_ENTRY = 1,        /* index refers to the entries (codes) array */
    ERRCORE_SUBJECT_MODULE = 2,       /* index refers to the modules array */
    ERRCORE_SUBJECT_RANGE = 3,        /* index refers to the ranges array */
    ERRCORE_SUBJECT_STRINGS = 4,      /* index is a byte offset into the string pool */
    ERRCORE_SUBJECT_INDEX = 5,        /* index refers to the classification index (index_keys) */
    ERRCORE_SUBJECT_FRONT = 6,        /* index refers to the exact-match front's slots */
    ERRCORE_SUBJECT_FRONT_GAP = 7,    /* index refers to the exact-match front's gap table */
    ERRCORE_SUBJECT_LANGUAGE = 8,     /* index refers to the languages array */
    ERRCORE_SUBJECT_STRING_CODE = 9,  /* index refers to the string codes (definition) or slots (table) */
    ERRCORE_SUBJECT_STRING_SPACE = 10 /* index refers to the string namespaces */
} errcore_subject;

/* Value of errcore_diag.index / other_index when there is no such element. */
#define ERRCORE_NO_INDEX ((size_t)-1)

/*
 * Where a rejected table went wrong. Indices are positions in the caller's
 * input arrays: for errcore_build() the unsorted arrays as passed, for
 * errcore_validate() the table's own arrays.
 */
typedef struct errcore_diag {
    errcore_status status;   /* same value the function returned */
    errcore_subject subject; /* the array `index` refers to */
    size_t index;            /* the offending element, or ERRCORE_NO_INDEX */
    size_t other_index;      /* the element it conflicts with (same subject), or ERRCORE_NO_INDEX */
    int64_t code;            /* the offending code, range first code, module id, string offset or bytes needed */
    int64_t other_code;      /* a second value: the conflicting element's code, the module that owns a code,
                                the bytes given, ... */
    uint32_t module;         /* the module id the offending element names (0 when none) */
} errcore_diag;

/*
 * errcore_status_string — a short English description of a status value.
 *
 * Returns a static NUL-terminated string such as "duplicate code". Never
 * returns NULL: a value that is not an errcore_status gives
 * "unknown status".
 */
ERRCORE_API const char *errcore_status_string(errcore_status status);

/*
 * errcore_status_name — the identifier of a status value, e.g.
 * "ERRCORE_E_DUPLICATE_CODE", for logs and language bindings.
 *
 * Returns a static string; never NULL ("ERRCORE_E_UNKNOWN" for a value that
 * is not an errcore_status).
 */
ERRCORE_API const char *errcore_status_name(errcore_status status);

/*
 * errcore_diag_format — writes a one-line English explanation of `diag`,
 * e.g. "duplicate code: entry 5 (code 11001) repeats entry 2", or
 * "storage too small: 4096 bytes needed, 1024 given".
 *
 * Writes at most `size` bytes including the terminating NUL (nothing when
 * `size` is 0; `buf` may then be NULL). Returns the length of the complete
 * text, excluding the NUL, so a return value >= size means it was truncated,
 * as with snprintf. A NULL `diag` is described as "no diagnostic".
 */
ERRCORE_API size_t errcore_diag_format(const errcore_diag *diag, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_STATUS_H */

/*
 * batch.c — errcore_classify_batch(): which path runs, and the block loop
 * every path shares.
 *
 * A table with a front is classified in blocks of ERRCORE__FRONT_BLOCK
 * codes: the path's pass 1 (classify.c for SCALAR, batch_avx2.c,
 * batch_avx512.c, batch_neon.c) hashes every code, stores its slot's class
 * and lists the misses; pass 2 (classify.c) gives the misses their class.
 * Tables without a front take the scalar index or search batch on every
 * path.
 *
 * The choice is made on every call, from the CPU features the C runtime
 * recorded before main (gcc's and clang's __builtin_cpu_supports: a load
 * and a bit test of the runtime's own record, which it does not change
 * afterwards). So the library has no state of its own to set up or lock,
 * and works the same linked statically, on musl and on macOS. (A GNU
 * ifunc would save that load, which costs nothing measurable next to one
 * block of 256 codes, but exists only with glibc's dynamic loader.)
 */
#include "internal.h"

#if defined(ERRCORE__X86_PATHS) || defined(ERRCORE__NEON_PATH)
/* Positions of the set bits of b, one per byte from the lowest (see internal.h). */
#define ERRCORE__P(b, i, at) ((uint64_t)(((b) >> (i)) & 1u) * ((uint64_t)(i) << (8u * (at))))
#define ERRCORE__B(b, i)     (((b) >> (i)) & 1u)
/* Set bits of b below bit i, for i = 1 ... 7. */
#define ERRCORE__BELOW(b, i)                                                                                           \
    (ERRCORE__B(b, 0) + ((i) > 1 ? ERRCORE__B(b, 1) : 0u) + ((i) > 2 ? ERRCORE__B(b, 2) : 0u) +                        \
     ((i) > 3 ? ERRCORE__B(b, 3) : 0u) + ((i) > 4 ? ERRCORE__B(b, 4) : 0u) + ((i) > 5 ? ERRCORE__B(b, 5) : 0u) +       \
     ((i) > 6 ? ERRCORE__B(b, 6) : 0u))
#define ERRCORE__PLACES(b)                                                                                             \
    (ERRCORE__P(b, 1, ERRCORE__BELOW(b, 1)) | ERRCORE__P(b, 2, ERRCORE__BELOW(b, 2)) |                                 \
     ERRCORE__P(b, 3, ERRCORE__BELOW(b, 3)) | ERRCORE__P(b, 4, ERRCORE__BELOW(b, 4)) |                                 \
     ERRCORE__P(b, 5, ERRCORE__BELOW(b, 5)) | ERRCORE__P(b, 6, ERRCORE__BELOW(b, 6)) |                                 \
     ERRCORE__P(b, 7, ERRCORE__BELOW(b, 7)))
#define ERRCORE__PLACES4(b)                                                                                            \
    ERRCORE__PLACES(b), ERRCORE__PLACES(b + 1u), ERRCORE__PLACES(b + 2u), ERRCORE__PLACES(b + 3u)
#define ERRCORE__PLACES16(b)                                                                                           \
    ERRCORE__PLACES4(b), ERRCORE__PLACES4(b + 4u), ERRCORE__PLACES4(b + 8u), ERRCORE__PLACES4(b + 12u)
#define ERRCORE__PLACES64(b)                                                                                           \
    ERRCORE__PLACES16(b), ERRCORE__PLACES16(b + 16u), ERRCORE__PLACES16(b + 32u), ERRCORE__PLACES16(b + 48u)

/* Bit 0 is position 0 wherever it is set, so it adds nothing; the table is worked out by the compiler. */
const uint64_t errcore__miss_places8[256] = {ERRCORE__PLACES64(0u), ERRCORE__PLACES64(64u), ERRCORE__PLACES64(128u),
                                             ERRCORE__PLACES64(192u)};

#undef ERRCORE__PLACES64
#undef ERRCORE__PLACES16
#undef ERRCORE__PLACES4
#undef ERRCORE__PLACES
#undef ERRCORE__BELOW
#undef ERRCORE__B
#undef ERRCORE__P
#endif

/* Whether the CPU has what `path` needs (SCALAR and AUTO: always). */
static bool errcore__path_runs(errcore_batch_path path) {
    switch (path) {
    case ERRCORE_BATCH_PATH_AUTO:
    case ERRCORE_BATCH_PATH_SCALAR: return true;
#if defined(ERRCORE__X86_PATHS)
    case ERRCORE_BATCH_PATH_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    case ERRCORE_BATCH_PATH_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("popcnt");
#else
    case ERRCORE_BATCH_PATH_AVX2:
    case ERRCORE_BATCH_PATH_AVX512: return false;
#endif
#if defined(ERRCORE__NEON_PATH)
    case ERRCORE_BATCH_PATH_NEON: return true;
#else
    case ERRCORE_BATCH_PATH_NEON: return false;
#endif
    }
    return false;
}

errcore_batch_path errcore_batch_path_auto(void) {
#if defined(ERRCORE__X86_PATHS)
    if (errcore__path_runs(ERRCORE_BATCH_PATH_AVX512)) {
        return ERRCORE_BATCH_PATH_AVX512;
    }
    if (errcore__path_runs(ERRCORE_BATCH_PATH_AVX2)) {
        return ERRCORE_BATCH_PATH_AVX2;
    }
#elif defined(ERRCORE__NEON_PATH)
    return ERRCORE_BATCH_PATH_NEON;
#endif
    return ERRCORE_BATCH_PATH_SCALAR;
}

bool errcore_batch_path_available(errcore_batch_path path) {
    return errcore__path_runs(path);
}

const char *errcore_batch_path_name(errcore_batch_path path) {
    switch (path) {
    case ERRCORE_BATCH_PATH_AUTO: return "auto";
    case ERRCORE_BATCH_PATH_SCALAR: return "scalar";
    case ERRCORE_BATCH_PATH_AVX2: return "avx2";
    case ERRCORE_BATCH_PATH_AVX512: return "avx512";
    case ERRCORE_BATCH_PATH_NEON: return "neon";
    }
    return "unknown";
}

/*
 * Pass 1 of one block on `path` (one the CPU has, never AUTO). A switch
 * rather than a function pointer: the call graph stays static, so the
 * cross build's stack bound (scripts/embedded/stack-usage.sh) covers it.
 */
static size_t errcore__front_pass(errcore_batch_path path, const errcore_front *f, const int64_t *codes,
                                  errcore_class *out, unsigned char *miss, size_t n) {
    switch (path) {
#if defined(ERRCORE__X86_PATHS)
    case ERRCORE_BATCH_PATH_AVX512: return errcore__front_pass_avx512(f, codes, out, miss, n);
    case ERRCORE_BATCH_PATH_AVX2: return errcore__front_pass_avx2(f, codes, out, miss, n);
#endif
#if defined(ERRCORE__NEON_PATH)
    case ERRCORE_BATCH_PATH_NEON: return errcore__front_pass_neon(f, codes, out, miss, n);
#endif
    default: return errcore__front_pass_scalar(f, codes, out, miss, n);
    }
}

/* The batch on `path` (one the CPU has, never AUTO). */
static void errcore__batch(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count,
                           errcore_batch_path path) {
    if (!table->front.slots) {
        if (table->index_count != 0) {
            errcore__batch_index(table, codes, out, count);
        } else {
            errcore__batch_searches(table, codes, out, count);
        }
        return;
    }
    unsigned char miss[ERRCORE__MISS_ROOM];
    for (size_t base = 0; base < count; base += ERRCORE__FRONT_BLOCK) {
        size_t n = count - base < ERRCORE__FRONT_BLOCK ? count - base : ERRCORE__FRONT_BLOCK;
        size_t m = errcore__front_pass(path, &table->front, codes + base, out + base, miss, n);
        if (table->front.gaps) {
            errcore__batch_gaps(&table->front, codes + base, out + base, miss, m);
        } else {
            errcore__batch_miss_ranges(table, codes + base, out + base, miss, m);
        }
    }
}

void errcore_classify_batch(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count) {
    errcore__batch(table, codes, out, count, errcore_batch_path_auto());
}

bool errcore_classify_batch_using(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count,
                                  errcore_batch_path path) {
    if (!errcore__path_runs(path)) {
        return false;
    }
    errcore__batch(table, codes, out, count, path == ERRCORE_BATCH_PATH_AUTO ? errcore_batch_path_auto() : path);
    return true;
}

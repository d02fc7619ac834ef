/*
 * avx512_emulated.c — the AVX-512 pass 1 of the batch
 * (Sources/CErrCore/batch_avx512.c) on a CPU without AVX-512: the file is
 * compiled here with SIMDe's portable versions of its intrinsics (Debian:
 * libsimde-dev) and without its target attribute, and runs in the batch's
 * block loop (as batch.c runs it) for ERRCORE_BATCH_PATH_AVX512 in
 * emulated.h's functions. It checks the path's own logic (offsets, slot
 * regrouping, masks, miss lists, tails); that the compiler's AVX-512
 * instructions do what SIMDe's code does is left to a machine that has them,
 * where make test runs the real path.
 */
#include <immintrin.h>
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include "../../../Sources/CErrCore/internal.h"
#include "emulated.h"

#define ERRCORE__AVX512            /* no target attribute: SIMDe's portable code runs on any x86-64 */
#define errcore__front_pass_avx512 emulated_front_pass_avx512
#include "../../../Sources/CErrCore/batch_avx512.c"

bool emulated_path_available(errcore_batch_path path) {
    return path == ERRCORE_BATCH_PATH_AVX512 || errcore_batch_path_available(path);
}

bool emulated_batch_using(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count,
                          errcore_batch_path path) {
    if (path != ERRCORE_BATCH_PATH_AVX512 || !table->front.slots) {
        /* Without a front every path takes the scalar searches. */
        return errcore_classify_batch_using(table, codes, out, count,
                                            path == ERRCORE_BATCH_PATH_AVX512 ? ERRCORE_BATCH_PATH_SCALAR : path);
    }
    unsigned char miss[ERRCORE__MISS_ROOM];
    for (size_t base = 0; base < count; base += ERRCORE__FRONT_BLOCK) {
        size_t n = count - base < ERRCORE__FRONT_BLOCK ? count - base : ERRCORE__FRONT_BLOCK;
        size_t m = emulated_front_pass_avx512(&table->front, codes + base, out + base, miss, n);
        if (table->front.gaps) {
            errcore__batch_gaps(&table->front, codes + base, out + base, miss, m);
        } else {
            errcore__batch_miss_ranges(table, codes + base, out + base, miss, m);
        }
    }
    return true;
}
